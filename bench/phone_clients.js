/* phone_clients.js - the simulated phones of bench/bench_phones.sh (issue
 * 20, "Tests and figures"): N table pages in one node process, each an
 * MQTT v5 client over WebSocket (the `mqtt` package of deploy/overlays,
 * the one play.html loads) on the venue broker's table-page listener,
 * signed in with its table's code, speaking play.html's protocol with
 * protobufjs on proto/*.proto:
 *
 * - sign in (username = password = the code), subscribe to
 *   device/+/assign, device/+/ack and hub/state; the broker delivers only
 *   the code's device, whose id the assignment names; then device/DEV/draft;
 * - two phones per table (--per-table 2): when the signal file appears,
 *   after a random 0..--spread-ms, the first phone "enters" the result
 *   (A Game of Thrones: a winner) and its player confirms: it publishes
 *   the draft (retained, as play.html does); the second phone, on that
 *   draft, confirms its player: every player has confirmed, so it builds
 *   the ResultSubmission (key DEV.DRAFTID), publishes the draft with the
 *   key and the result on device/DEV/result (QoS 1), resent until acked
 *   (1 s, doubling); the first phone, on the draft with the key, sends
 *   the same bytes (play.html's behaviour: every phone of the table keeps
 *   and resends the submission);
 * - "stored by the hub": an ack ACCEPTED or DUPLICATE naming the key.
 *
 *   node phone_clients.js --overlays DIR --proto DIR --broker ws://H:P/mqtt
 *       --codes FILE (one "TABLE CODE" a line) --per-table N --go FILE
 *       --spread-ms MS --timeout-s S --out FILE
 *
 * Prints "ready N" once every phone has its assignment (then waits for
 * the --go file), and at the end writes FILE (JSON): per table the entry
 * (first phone's draft), the submission and each phone's ack times (ms),
 * and counts.  Exit 0 only when every phone saw its table's result stored.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const mqtt = require(path.join(args.overlays, 'node_modules', 'mqtt'));
const protobuf = require(path.join(args.overlays, 'node_modules', 'protobufjs'));

const P = 'tourney/v1/';
const perTable = +(args['per-table'] || 2);
const spread = +(args['spread-ms'] || 0);
const timeoutS = +(args['timeout-s'] || 300);

const root = new protobuf.Root();
for (const f of ['common.proto', 'table.proto'])
    protobuf.parse(fs.readFileSync(path.join(args.proto, f), 'utf8'), root, {keepCase: true});
root.resolveAll();
const T = {};
for (const n of ['TableAssignment', 'ResultSubmission', 'ResultAck', 'Presence'])
    T[n] = root.lookupType('tourney.v1.' + n);
const ST = root.lookupEnum('tourney.v1.AckStatus').values;
const dec = (t, b) => T[t].toObject(T[t].decode(b), {longs: Number, enums: Number, arrays: true});
const enc = (t, o) => Buffer.from(T[t].encode(T[t].fromObject(o)).finish());
const now = () => Number(process.hrtime.bigint() / 1000000n);

const tables = fs.readFileSync(args.codes, 'utf8').trim().split('\n').map((l) => {
    const [table, shownCode] = l.trim().split(/\s+/);
    const code = shownCode.replace(/[- ]/g, '').toUpperCase(); /* as play.js normalises */
    return {table: +table, code, entry: 0, submit: 0, key: '', bytes: null, acks: [], draftId: ''};
});
const phones = [];
let connected = 0, assigned = 0, errors = [];

function phone(tb, idx) {
    const ph = {tb, idx, dev: '', a: null, stored: 0, client: null, resend: null};
    const c = mqtt.connect(args.broker, {
        username: tb.code, password: tb.code, protocolVersion: 5, clean: true,
        clientId: 'play-bench-' + tb.table + '-' + idx, reconnectPeriod: 2000, connectTimeout: 30000, keepalive: 60
    });
    ph.client = c;
    c.on('connect', () => {
        connected++;
        c.subscribe([P + 'device/+/assign', P + 'device/+/ack', P + 'hub/state'], {qos: 1});
        if (ph.dev)
            c.subscribe(P + 'device/' + ph.dev + '/draft', {qos: 1});
    });
    c.on('error', (e) => errors.push('table ' + tb.table + ' phone ' + idx + ': ' + e.message));
    c.on('message', (topic, payload) => {
        let m;
        if ((m = /^tourney\/v1\/device\/([^/]+)\/assign$/.exec(topic)) && payload.length) {
            const a = dec('TableAssignment', payload);
            if (!ph.dev) {
                ph.dev = m[1];
                c.subscribe(P + 'device/' + ph.dev + '/draft', {qos: 1});
                c.publish(P + 'device/' + ph.dev + '/presence',
                          enc('Presence', {device_id: ph.dev, state: 1, software_version: 'bench'}), {qos: 1, retain: true});
            }
            if (!ph.a && a.table === tb.table)
                assigned++;
            ph.a = a;
        } else if (/\/ack$/.test(topic)) {
            const ack = dec('ResultAck', payload);
            if (ack.idempotency_key && ack.idempotency_key === tb.key && !ph.stored &&
                (ack.status === ST.ACK_ACCEPTED || ack.status === ST.ACK_DUPLICATE)) {
                ph.stored = now();
                tb.acks.push(ph.stored);
                clearTimeout(ph.resend);
            } else if (ack.idempotency_key === tb.key && ack.status !== ST.ACK_ACCEPTED && ack.status !== ST.ACK_DUPLICATE) {
                errors.push('table ' + tb.table + ': ack status ' + ack.status + ' ' + (ack.reason_text || ''));
            }
        } else if (/\/draft$/.test(topic) && payload.length) {
            onDraft(ph, JSON.parse(payload.toString()));
        }
    });
    return ph;
}

function send(ph, tries) {
    if (ph.stored)
        return;
    ph.client.publish(P + 'device/' + ph.dev + '/result', ph.tb.bytes, {qos: 1});
    ph.resend = setTimeout(() => send(ph, tries + 1), Math.min(60000, 1000 * 2 ** Math.min(tries, 6)));
}

function draft(ph, d) {
    ph.client.publish(P + 'device/' + ph.dev + '/draft', JSON.stringify(d), {qos: 1, retain: true});
}

/* The first phone: the players enter the result, the first confirms. */
function enter(ph) {
    const a = ph.a, tb = ph.tb;
    tb.entry = now();
    tb.draftId = Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    const confirmed = {[a.seats[0].player_id]: true};
    draft(ph, {v: 1, id: tb.draftId, t: Date.now(), event: a.event_id, round: a.round, table: a.table,
        form: {outcome: 'winner:' + a.seats[0].player_id, numbers: {}, per: {}, flags: {}, games: []}, confirmed});
}

function onDraft(ph, d) {
    const a = ph.a, tb = ph.tb;
    if (!a || d.table !== a.table || d.round !== a.round)
        return;
    if (d.key) {
        if (!tb.bytes || ph.resend || ph.stored)
            return;
        send(ph, 0); /* every phone of the table resends it */
        return;
    }
    if (ph.idx !== 1 || tb.key)
        return;
    /* the second phone: its player confirms; all have, so it submits */
    const confirmed = Object.assign({}, d.confirmed);
    a.seats.forEach((s) => {
        confirmed[s.player_id] = true;
    });
    tb.key = (ph.dev + '.' + d.id).slice(0, 64);
    tb.bytes = enc('ResultSubmission', {
        idempotency_key: tb.key, device_id: ph.dev, event_id: a.event_id, round: a.round, table: a.table,
        assignment_version: a.version, result: {gt: {winner_id: a.seats[0].player_id}},
        confirmed_by: a.seats.map((s) => s.player_id), table_time_ms: Date.now()
    });
    tb.submit = now();
    draft(ph, Object.assign({}, d, {confirmed, key: tb.key, bytes: tb.bytes.toString('base64'), lines: []}));
    send(ph, 0);
}

for (const tb of tables)
    for (let i = 0; i < perTable; i++)
        phones.push(phone(tb, i));

const t0 = now();
const wait = setInterval(() => {
    if (assigned === phones.length) {
        clearInterval(wait);
        console.log('ready ' + phones.length + ' phones signed in and assigned in ' + (now() - t0) + ' ms');
        const go = setInterval(() => {
            if (!fs.existsSync(args.go))
                return;
            clearInterval(go);
            start();
        }, 20);
    } else if (now() - t0 > timeoutS * 1000) {
        finish('only ' + assigned + ' of ' + phones.length + ' phones got their assignment (' + connected + ' connects)');
    }
}, 50);

function start() {
    const tStart = now();
    for (const ph of phones)
        if (ph.idx === 0)
            setTimeout(() => enter(ph), Math.random() * spread);
    const done = setInterval(() => {
        const stored = phones.filter((p) => p.stored).length;
        if (stored === phones.length) {
            clearInterval(done);
            finish('', tStart);
        } else if (now() - tStart > timeoutS * 1000) {
            clearInterval(done);
            finish(stored + ' of ' + phones.length + ' phones saw their result stored in ' + timeoutS + ' s', tStart);
        }
    }, 20);
}

function finish(why, tStart) {
    const out = {
        phones: phones.length, tables: tables.length, error: why, errors: errors.slice(0, 20),
        start: tStart || 0, end: now(),
        tables_detail: tables.map((tb) => ({table: tb.table, entry: tb.entry, submit: tb.submit, acks: tb.acks}))
    };
    fs.writeFileSync(args.out, JSON.stringify(out));
    for (const ph of phones)
        ph.client.end(true);
    console.log(why ? 'FAIL: ' + why : 'all ' + phones.length + ' phones saw their result stored');
    setTimeout(() => process.exit(why || errors.length ? 1 : 0), 200);
}
