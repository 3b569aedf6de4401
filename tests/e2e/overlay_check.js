#!/usr/bin/env node
/* overlay_check.js - checks the stream overlays (deploy/overlays) for
 * tests/e2e/test_overlays.sh, with deploy/overlays/overlay.js, the code the
 * pages run, and the real `mqtt` package (deploy/overlays/node_modules).
 *
 *   node overlay_check.js selftest --overlays DIR
 *       overlay.js alone: escaping, clock formatting and the offset rule,
 *       the options, and every page rendered from a synthetic feed whose
 *       every string is hostile.
 *   node overlay_check.js feed --overlays DIR --broker ws://H:P --event EV
 *        --names FILE --pairs FILE --standings FILE [--finished "1 2"]
 *        [--playing "4"] [--featured N --extend-ms MS] [--export FILE]
 *        [--hostile ID] [--timeout S]
 *       connects to the feed broker over WebSocket as an anonymous client,
 *       waits (at most --timeout s) until the retained feed shows the
 *       expected round and standings, then renders every page and asserts
 *       what it must show.  With --featured, it then prints "READY" and
 *       waits for a live (not retained) tables document giving that table
 *       an extension of --extend-ms (the shell script makes the hub do it),
 *       and checks the countdown against the true time.
 *
 * Expectations come from outside the feed: --names "ID<TAB>NAME" lines as
 * registered, --pairs the console's `round show` output, --standings the
 * output of `tourney live standings --json`, --export the event file of
 * `tourney live export` (knockout winners).  The hub and this script share
 * the machine's clock, so the true remaining time is deadline - Date.now().
 *
 * Exit status 0 when every check passed, 1 with a "FAIL:" line otherwise.
 */
'use strict';
const fs = require('fs');
const path = require('path');

function fail(msg) {
    process.stdout.write('FAIL: ' + msg + '\n');
    process.exit(1);
}
function ok(msg) {
    process.stdout.write('ok - ' + msg + '\n');
}
function check(cond, msg) {
    if (!cond)
        fail(msg);
}

function args(argv) {
    const a = {_: []};
    for (let i = 0; i < argv.length; i++) {
        if (argv[i].startsWith('--')) {
            a[argv[i].slice(2)] = argv[i + 1];
            i++;
        } else {
            a._.push(argv[i]);
        }
    }
    return a;
}

const A = args(process.argv.slice(2));
if (!A.overlays)
    fail('usage: overlay_check.js selftest|feed --overlays DIR ...');
const O = require(path.resolve(A.overlays, 'overlay.js'));

/* The HTML of one data-table / data-player element, up to the next one of
 * the same kind (the renderers put these attributes on every row). */
function segment(html, attr, value) {
    const start = html.indexOf(attr + '="' + O.esc(value) + '"');
    if (start < 0)
        return null;
    const next = html.indexOf(attr + '="', start + attr.length + 3);
    return html.slice(start, next < 0 ? html.length : next);
}

/* inOrder(html, list): every string of list appears, in this order. */
function inOrder(html, list) {
    let at = 0;
    for (const s of list) {
        const i = html.indexOf(s, at);
        if (i < 0)
            return false;
        at = i + s.length;
    }
    return true;
}

/* clockSecs(text): seconds of a "M:SS" / "H:MM:SS" / "-M:SS" text. */
function clockSecs(text) {
    const m = /^(-?)(?:(\d+):)?(\d+):(\d\d)$/.exec(text);
    if (!m)
        return null;
    const s = (Number(m[2] || 0) * 3600) + Number(m[3]) * 60 + Number(m[4]);
    return m[1] ? -s : s;
}

function tableClockText(html) {
    const m = /<span class="clock[^"]*table-clock">([^<]*)/.exec(html);
    return m ? m[1] : null;
}


/* ---- docs/feed.schema.json: what the pages read ------------------------- */

/* guarded(doc, spec, where, bad): doc behind a Proxy that notes in `bad`
 * every key a page reads that the schema does not declare for it (spec:
 * the schema's notation, e.g. "@table_state" or "[@seat]").  Reading a
 * declared key that is absent is fine (optional keys). */
function schemaGuard(schema) {
    const bad = new Set();
    const split = (spec) => {
        spec = spec.replace(/\?$/, '');
        const out = [];
        let depth = 0, from = 0;
        for (let i = 0; i < spec.length; i++) {
            if ('[{'.includes(spec[i])) depth++;
            if (']}'.includes(spec[i])) depth--;
            if (spec[i] === '|' && depth === 0) {
                out.push(spec.slice(from, i));
                from = i + 1;
            }
        }
        out.push(spec.slice(from));
        return out;
    };
    /* the object keys (name -> spec) or array element spec of spec */
    const shape = (spec) => {
        let keys = null, elem = null, map = null, probed = {};
        for (const alt of split(spec)) {
            if (alt.startsWith('@@')) keys = Object.assign(keys || {}, schema.documents[alt.slice(2)]);
            else if (alt[0] === '@') {
                keys = Object.assign(keys || {}, schema.types[alt.slice(1)]);
                const p = schema.probed[alt.slice(1)];
                if (p) Object.assign(probed, schema.types[p]);
            }
            else if (alt[0] === '[') elem = alt.slice(1, -1);
            else if (alt[0] === '{') map = alt.slice(1, -1);
            else if (alt === 'object') map = 'object';
        }
        return {keys, elem, map, probed};
    };
    const wrap = (v, spec, where) => {
        if (v === null || typeof v !== 'object') return v;
        const sh = shape(spec);
        return new Proxy(v, {
            get(target, k, recv) {
                const x = Reflect.get(target, k, recv);
                if (typeof k !== 'string') return x;
                if (Array.isArray(target)) {
                    if (/^\d+$/.test(k) && sh.elem) return wrap(x, sh.elem, where + '[]');
                    return x; /* length, forEach, map... */
                }
                if (sh.map) return wrap(x, sh.map, where + '{}');
                if (sh.keys && Object.prototype.hasOwnProperty.call(sh.keys, k))
                    return wrap(x, sh.keys[k], where + '.' + k);
                if (k in Object.prototype) return x;
                if (x === undefined && Object.prototype.hasOwnProperty.call(sh.probed, k)) return x;
                bad.add(where + '.' + k);
                return x;
            }
        });
    };
    return {bad, wrap, doc: (kind, v) => wrap(v, '@@' + kind, kind)};
}

function checkPagesAgainstSchema(O, fst, opts, now) {
    const dir = path.join(__dirname, '..', '..', 'docs');
    const schema = JSON.parse(fs.readFileSync(path.join(dir, 'feed.schema.json'), 'utf8'));
    const g = schemaGuard(schema);
    const st = Object.assign({}, fst, {docs: {}});
    for (const k of Object.keys(fst.docs)) st.docs[k] = g.doc(k, fst.docs[k]);
    for (const page of O.PAGES) O.render(page, st, opts, now);
    O.tickerItems(st, now, 10);
    O.roundView(st, now);
    O.pageLanguage({lang: ''}, [st], [], ''); /* the event's language (issue 21) */
    const P = require(path.resolve(A.overlays, 'pages.js'));
    const hall = P.parseHallParams('?events=e1&sort=name', {}).opts;
    P.renderHall([st], hall, now, {rows: 20, cols: 3}, [false]);
    st.mine = {player: g.doc('player', {id: 'a', name: 'A', round: 5, table: 1, bye: false, after_round: 4, of: 2,
        standing: fst.docs.standings.standings[0], results: [{round: 4, table: 2, players: [{id: 'a', name: 'A', seat: 1},
        {id: 'b', name: 'B', seat: 2}], result: {winner: 'a'}}, {round: 3, bye: true}],
        me: fst.docs.pairings.tables[0].players[0], opponents: [fst.docs.pairings.tables[0].players[1]]}),
        table: g.doc('table', Object.assign({round: 5, players: fst.docs.pairings.tables[0].players},
            fst.docs.tables.tables[0], {clock: {state: 'running', unlimited: false, deadline_ms: now + 1000}}))};
    P.renderCard([st], 'e1/a', now);
    check(g.bad.size === 0, 'the pages read keys docs/feed.schema.json does not declare: ' + [...g.bad].join(', '));
    ok('selftest: every key the pages read of a feed document is in docs/feed.schema.json');
}

/* ---- selftest ---------------------------------------------------------- */

function selftest() {
    const evil = '<img src=x onerror="alert(1)">&\'`';
    const evilEsc = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;&#96;';
    check(O.esc(evil) === evilEsc, 'esc: ' + O.esc(evil));
    check(O.esc(null) === '' && O.esc(undefined) === '' && O.esc(0) === '0', 'esc of null/undefined/0');

    const fc = [[0, '0:00'], [1, '0:01'], [999, '0:01'], [1000, '0:01'], [1001, '0:02'],
        [59999, '1:00'], [60000, '1:00'], [3599000, '59:59'], [3600000, '1:00:00'],
        [3661001, '1:01:02'], [-1, '0:00'], [-999, '0:00'], [-1000, '+0:01'],
        [-61500, '+1:01'], [null, '--:--'], [NaN, '--:--']];
    for (const [ms, want] of fc)
        check(O.formatClock(ms) === want, 'formatClock(' + ms + ') = ' + O.formatClock(ms) + ', want ' + want);
    const fn = [[3, '3'], [12.5, '12.5'], [6.33333333333333, '6.33'], [3.75, '3.75'],
        [-2, '-2'], [-0.001, '0'], [0, '0'], [null, '-'], ['7', '-']];
    for (const [v, want] of fn)
        check(O.formatNumber(v) === want, 'formatNumber(' + v + ') = ' + O.formatNumber(v) + ', want ' + want);
    ok('selftest: escaping, clock and number formatting');

    // Issue 8: a closed round's clock stands ("round closed", the frozen
    // time); the same clock of an open round is only "paused".
    {
        const cst = O.newState('e1');
        const frozen = {state: 'paused', unlimited: false, hub_now_ms: 1, remaining_ms: -65000};
        cst.docs.event = {round: 2, round_status: 'closed'};
        cst.docs.pairings = {round: 2, tables: [{table: 1, players: []}]};
        cst.docs.tables = {round: 2, clock: frozen, tables: [{table: 1, state: 'confirmed', clock: frozen}]};
        const rv = O.roundView(cst, 5000), rv2 = O.roundView(cst, 500000);
        check(rv.clock.state === 'stopped' && rv.clock.ms === -65000 && rv2.clock.ms === -65000,
              'closed round clock: ' + JSON.stringify(rv.clock) + ' then ' + JSON.stringify(rv2.clock));
        check(rv.tables[0].clock.state === 'stopped', 'closed round table clock: ' + JSON.stringify(rv.tables[0].clock));
        check(O.clockHtml(rv.clock).indexOf('+1:05<span class="ck-tag">round closed</span>') >= 0,
              'closed round clock html: ' + O.clockHtml(rv.clock));
        cst.docs.event.round_status = 'started';
        check(O.roundView(cst, 5000).clock.state === 'paused', 'open round: paused');
        ok('selftest: a closed round\'s clock stands at -1:05, "round closed"');
    }

    // Options.
    let p = O.parseParams('?broker=ws%3A%2F%2F10.0.0.5%3A9001&event=cup-1&top=5&theme=light&scale=1.5&table=3', {}, 'table');
    check(p.errors.length === 0, 'parseParams errors: ' + p.errors.join('; '));
    check(p.opts.broker === 'ws://10.0.0.5:9001' && p.opts.event === 'cup-1' && p.opts.top === 5 &&
          p.opts.theme === 'light' && p.opts.scale === 1.5 && p.opts.table === 3, 'parseParams values');
    p = O.parseParams('?event=a b&broker=http://x&top=0&theme=pink&scale=9', {}, 'table');
    check(p.errors.length === 6, 'parseParams wants 6 errors, got: ' + p.errors.join('; '));
    check(p.opts.top === 8 && p.opts.theme === 'dark' && p.opts.scale === 1, 'parseParams keeps defaults on errors');
    p = O.parseParams('#event=e1&rows=4', {broker: 'ws://h:1'}, 'pairings');
    check(p.errors.length === 0 && p.opts.rows === 4 && p.opts.broker === 'ws://h:1', 'parseParams hash and defaults');
    check(O.renderError(['<b>']).indexOf('<b>') < 0, 'renderError escapes');
    ok('selftest: page options');

    // Offset rule: retained = lower bound (largest kept), live wins.
    const st = O.newState('e1');
    O.noteOffset(st, 1000, 5000, true);
    check(st.offset === -4000 && !st.offsetLive, 'retained offset');
    O.noteOffset(st, 900, 5000, true);
    check(st.offset === -4000, 'an older retained message does not lower the offset');
    O.noteOffset(st, 2000, 5000, true);
    check(st.offset === -3000, 'a newer retained message raises the offset');
    O.noteOffset(st, 10000, 5000, false);
    check(st.offset === 5000 && st.offsetLive, 'a live message sets the offset');
    O.noteOffset(st, 99999, 5000, true);
    check(st.offset === 5000, 'retained after live is ignored');
    const clk = {state: 'running', unlimited: false, hub_now_ms: 10000, deadline_ms: 70000, remaining_ms: 60000};
    check(O.clockRemaining(clk, st, 5000).ms === 60000, 'remaining at receive time');
    check(O.clockRemaining(clk, st, 7500).ms === 57500, 'remaining counts down with the local clock');
    check(O.clockRemaining({state: 'paused', unlimited: false, hub_now_ms: 1, remaining_ms: -5000}, st, 9e9).ms === -5000,
          'paused: frozen remaining');
    check(O.clockText(O.clockRemaining({state: 'running', unlimited: true, hub_now_ms: 1}, st, 0)) === 'no time limit',
          'unlimited');
    ok('selftest: clock offset rule (retained lower bound, live wins) and countdown');

    // Every page from a synthetic feed, every string hostile.
    const H = (s) => s + ' <b>"&\'</b>';
    const pl = (id, extra) => Object.assign({id: id, name: H('Name ' + id), club: H('Club'), country: H('XX')}, extra || {});
    const now = 1000000;
    const fst = O.newState('e1');
    const send = (k, doc, retained) => O.applyMessage(fst, 'tourney/v1/feed/e1/' + k, JSON.stringify(doc), now, retained);
    send('event', {id: 'e1', title: H('Cup'), game: 'got-lcg2', status: 'running', round: 5, round_status: 'started',
        stage: 'elimination', stage_name: H('Top'), players: 9, updated_ms: now}, true);
    send('pairings', {round: 5, stage: 'elimination', stage_name: H('Top'), tables: [
        {table: 1, players: [pl('a', {seat: 1, faction: H('Stark'), agenda: H('Banner'), first: true}),
                             pl('b', {seat: 2, colours: ['red', H('mauve')], armies: [H('Moloch')], army: H('Borgo')})]},
        {table: 2, players: [pl('c', {seat: 1}), pl('d', {seat: 2})]}], byes: [pl('e')]}, true);
    send('tables', {round: 5, round_status: 'started',
        clock: {state: 'running', unlimited: false, hub_now_ms: now, deadline_ms: now + 90000, remaining_ms: 90000},
        tables: [{table: 1, state: 'confirmed', device: null, online: false,
                  clock: {state: 'running', unlimited: false, hub_now_ms: now, deadline_ms: now + 90000}},
                 {table: 2, state: 'playing', device: 'table-002', online: true, extension_ms: 60000,
                  clock: {state: 'running', unlimited: false, hub_now_ms: now, deadline_ms: now + 150000}}]}, false);
    send('standings', {after_round: 4, stage: 'swiss', standings: [
        {rank: 1, player: 'a', name: H('Name a'), points: 12.5, tiebreaks: {sos: 3.333333, lot: 2}, dropped: false},
        {rank: 2, player: 'b', name: H('Name b'), points: 6.33333333333333, tiebreaks: {sos: null, lot: 1}, dropped: true}]}, true);
    send('bracket', {rounds: [{round: 5, tables: [
        {table: 1, players: [pl('a'), pl('b')], winner: 'a', games: ['a', 'b', 'a']},
        {table: 2, players: [pl('c'), pl('d')], winner: null}, {bye: pl('e')}]}]}, true);
    check(O.applyMessage(fst, 'tourney/v1/feed/e1/nope', '{}', now, true) === null, 'unknown topic ignored');
    check(O.applyMessage(fst, 'tourney/v1/feed/e1/event', 'not json', now, true) === null, 'bad JSON ignored');
    check(O.applyMessage(fst, 'tourney/v1/feed/e2/event', '{}', now, true) === null, 'other event ignored');
    fst.conn = 'online';
    const opts = O.parseParams('?event=e1&table=2&top=8', {}, 'table').opts;
    const pages = {};
    for (const page of O.PAGES)
        pages[page] = O.render(page, fst, opts, now + 30000);
    for (const page of O.PAGES) {
        const h = pages[page];
        check(!/<b>|<\/b>|"&'/.test(h), page + ': a raw hostile string in ' + h);
        check(h.indexOf('&lt;b&gt;&quot;&amp;&#39;&lt;/b&gt;') >= 0, page + ': no escaped string in ' + h);
    }
    check(inOrder(pages.pairings, ['data-table="1"', '1st', O.esc(H('Stark')), O.esc(H('Banner')),
        O.esc(H('Name b')), O.esc(H('Borgo')), 'background:#d32f2f', O.esc(H('mauve')), 'Finished',
        'data-table="2"', O.esc(H('Name c')), O.esc(H('Name d')), 'Playing', '+1:00', 'Bye: ', O.esc(H('Name e'))]),
          'pairings order: ' + pages.pairings);
    check(pages.pairings.indexOf('1:00</span>') >= 0, 'round clock 1:00 after 30 s of 90: ' + pages.pairings);
    check(tableClockText(pages.table) === '2:00', 'table 2 clock (150 s, 30 s later): ' + pages.table);
    check(pages.table.indexOf(O.esc(H('Name c'))) >= 0 && pages.table.indexOf('+1:00 extra') >= 0, 'table page');
    check(inOrder(pages.standings, ['data-player="a"', '12.5', '3.33', 'data-player="b"', 'dropped', '6.33',
        'Semi-finals', 'bp win" data-player="a"', '>2<', 'data-player="b"', '>1<', 'data-player="c"', 'bye']),
          'standings and bracket: ' + pages.standings);
    check(inOrder(pages.ticker, ['table 1: ', O.esc(H('Name a')), ' beat ', O.esc(H('Name b')), ' 2-1',
        'Standings after round 4: 1. ', O.esc(H('Name a')), ' 12.5']), 'ticker: ' + pages.ticker);
    // A finished event: its last round's standings are the final ones.
    const done = O.newState('e1');
    O.applyMessage(done, 'tourney/v1/feed/e1/event', JSON.stringify({id: 'e1', title: 'Cup', game: 'catan',
        status: 'finished', round: 4, round_status: 'closed', players: 2, updated_ms: now}), now, true);
    O.applyMessage(done, 'tourney/v1/feed/e1/standings', JSON.stringify(fst.docs.standings), now, true);
    done.conn = 'online';
    check(O.renderStandings(done, opts, now).indexOf('Final standings') >= 0 &&
          O.renderTicker(done, opts, now).indexOf('Final standings: 1. ') >= 0, 'finished event: "Final standings"');
    check(pages.standings.indexOf('Final standings') < 0 && pages.ticker.indexOf('Final standings') < 0,
          'a running event has no final standings');
    // Overdue when the local countdown ends; paging.
    const late = O.roundView(fst, now + 151000);
    check(late.tables[1].state === 'overdue', 'playing table past its deadline is overdue');
    const o2 = Object.assign({}, opts, {rows: 1, cycle: 10});
    check(O.renderPairings(fst, o2, 0).indexOf('data-table="2"') < 0 &&
          O.renderPairings(fst, o2, 10000).indexOf('data-table="2"') >= 0, 'pairings pages cycle');
    // The heartbeat: a live `now` sets the offset a late retained tables
    // document could only bound.
    const hst = O.newState('e1');
    O.applyMessage(hst, 'tourney/v1/feed/e1/tables', JSON.stringify({round: 1, round_status: 'started',
        clock: {state: 'running', unlimited: false, hub_now_ms: 1000, deadline_ms: 61000, remaining_ms: 60000}, tables: []}),
        50000, true);
    check(hst.offset === 1000 - 50000 && !hst.offsetLive, 'retained tables: a lower bound offset');
    check(O.applyMessage(hst, 'tourney/v1/feed/e1/now', JSON.stringify({hub_now_ms: 30000, round: 1}), 50000, false) === 'now',
          'the now heartbeat is a feed key');
    check(hst.offset === 30000 - 50000 && hst.offsetLive, 'now heartbeat sets the offset: ' + hst.offset);
    check(O.clockRemaining(hst.docs.tables.clock, hst, 50000).ms === 31000, 'countdown from the heartbeat\'s offset');
    // Results in the ticker, latest confirmed_ms first.
    const rst = O.newState('e1');
    const rsend = (k, doc) => O.applyMessage(rst, 'tourney/v1/feed/e1/' + k, JSON.stringify(doc), now, true);
    rsend('pairings', {round: 2, stage: 'swiss', stage_name: 'Swiss', tables: [1, 2, 3, 4].map((n) => ({table: n,
        players: [pl('a' + n, {seat: 1}), pl('b' + n, {seat: 2, army: H('Borgo')})]})), byes: []});
    rsend('tables', {round: 2, round_status: 'started', tables: [
        {table: 1, state: 'confirmed', online: false, confirmed_ms: 500, result: {winner: 'a1', hq_diff: 4}},
        {table: 2, state: 'confirmed', online: false, confirmed_ms: 900, result: {draw: true}},
        {table: 3, state: 'pending_confirmation', online: false, result: {winner: 'a3', hq_diff: 9}},
        {table: 4, state: 'confirmed', online: false, confirmed_ms: 700, result: {scores: {a4: 12, b4: 30}}}]});
    const items = O.tickerItems(rst, now, 10);
    check(items.length === 3, 'ticker: 3 confirmed tables: ' + JSON.stringify(items));
    check(items[0] === 'Round 2 (Swiss), table 2: ' + H('Name a2') + ' drew with ' + H('Name b2') + ' [' + H('Borgo') + ']' &&
          items[1] === 'Round 2 (Swiss), table 4: ' + H('Name b4') + ' [' + H('Borgo') + '] 30, ' + H('Name a4') + ' 12' &&
          items[2] === 'Round 2 (Swiss), table 1: ' + H('Name a1') + ' beat ' + H('Name b1') + ' [' + H('Borgo') + '] by 4 HQ',
          'ticker: results latest confirmed first: ' + JSON.stringify(items));
    check(O.resultText({players: [{id: 'x', name: 'X'}, {id: 'y', name: 'Y'}],
        result: {winner: 'y', modified: true, games: ['y', 'x', 'y']}}) === 'Y beat X 2-1 (modified)', 'GT Bo3 result text');
    ok('selftest: every page from a hostile synthetic feed is escaped and shows what it must; heartbeat offset; results in the ticker');
    checkPagesAgainstSchema(O, fst, opts, now + 30000);
}

/* ---- feed --------------------------------------------------------------- */

function readLines(file) {
    return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length);
}

function feed() {
    for (const k of ['broker', 'event', 'names', 'pairs', 'standings'])
        check(A[k], 'feed: --' + k + ' missing');
    const mqtt = require(path.resolve(A.overlays, 'node_modules', 'mqtt'));
    const names = {};
    for (const l of readLines(A.names)) {
        const t = l.indexOf('\t');
        names[l.slice(0, t)] = l.slice(t + 1);
    }
    // "  table N   p1 Name 1 - p2 Name 2" lines of `round show` (each
    // player's id, then the registered name); its first line names the round.
    const pairs = {};
    let round = 0;
    for (const l of readLines(A.pairs)) {
        let m = /^round (\d+) /.exec(l);
        if (m)
            round = Number(m[1]);
        m = /^ {2}table (\d+) +(.*)$/.exec(l);
        if (m)
            pairs[m[1]] = m[2].split(' - ').map((s) => {
                const seat = s.trim(), sp = seat.indexOf(' ');
                const id = sp < 0 ? seat : seat.slice(0, sp);
                check(sp < 0 || names[id] === undefined || seat.slice(sp + 1) === names[id],
                      'round show names ' + id + ' "' + seat.slice(sp + 1) + '", registered "' + names[id] + '"');
                return id;
            });
    }
    check(round > 0 && Object.keys(pairs).length > 0, 'no round/tables in ' + A.pairs);
    const hubStandings = JSON.parse(fs.readFileSync(A.standings, 'utf8'));
    const finished = (A.finished || '').split(/\s+/).filter(Boolean).map(Number);
    const playing = (A.playing || '').split(/\s+/).filter(Boolean).map(Number);
    const timeout = Number(A.timeout || 30) * 1000;
    const st = O.newState(A.event);
    let live = null; // first live tables document with the extension
    let beat = null; // first `now` heartbeat
    const extendMs = Number(A['extend-ms'] || 0);
    const featured = Number(A.featured || 0);

    function tablesReady() {
        const td = st.docs.tables;
        if (!td || td.round !== round)
            return false;
        const by = {};
        for (const t of td.tables || [])
            by[t.table] = t.state;
        return finished.every((n) => by[n] === 'confirmed') && playing.every((n) => by[n] === 'playing');
    }
    function ready() {
        const d = st.docs;
        return d.event && d.pairings && d.bracket && d.standings && d.event.round === round &&
               d.pairings.round === round && JSON.stringify(d.standings) === JSON.stringify(hubStandings) &&
               tablesReady();
    }
    function why() {
        const d = st.docs;
        return 'event.round=' + (d.event && d.event.round) + ' pairings.round=' + (d.pairings && d.pairings.round) +
               ' want ' + round + '; standings equal: ' + (JSON.stringify(d.standings) === JSON.stringify(hubStandings)) +
               '; tables: ' + JSON.stringify(d.tables && d.tables.tables.map((t) => t.table + ':' + t.state)) +
               '; feed standings: ' + JSON.stringify(d.standings).slice(0, 300);
    }

    const client = mqtt.connect(A.broker, {clientId: 'overlay-check-' + process.pid, clean: true,
        protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 10000});
    let phase = 'retained', retainedSeen = 0;
    const timer = setTimeout(() => fail('timed out in phase ' + phase + ': ' + why()), timeout);
    client.on('error', (e) => fail('mqtt: ' + e.message));
    client.on('connect', () => {
        client.subscribe(O.topics(A.event).subscribe, {qos: 1}, (err, granted) => {
            if (err)
                fail('subscribe: ' + err.message);
            check(granted.length === 1 && granted[0].qos <= 1, 'SUBACK: ' + JSON.stringify(granted));
        });
    });
    client.on('message', (topic, payload, packet) => {
        const key = O.applyMessage(st, topic, payload.toString(), Date.now(), !!packet.retain);
        check(key !== null, 'a message the overlays cannot read on ' + topic + ': ' + payload.toString().slice(0, 200));
        if (packet.retain)
            retainedSeen++;
        if (key === 'now' && !beat) {
            // docs/feed.md: never retained, the hub's clock, the round.
            beat = st.docs.now;
            check(!packet.retain, 'feed/' + A.event + '/now is retained');
            check(beat.round === round, 'now heartbeat of round ' + beat.round + ', want ' + round);
            check(typeof beat.hub_now_ms === 'number' && Math.abs(beat.hub_now_ms - Date.now()) <= 2000,
                  'now heartbeat hub_now_ms ' + beat.hub_now_ms + ' vs local ' + Date.now());
        }
        if (phase === 'retained' && ready()) {
            phase = 'checks';
            checkPages(st, round, pairs, names, hubStandings, finished, playing);
            if (!featured) {
                clearTimeout(timer);
                client.end(true, () => process.exit(0));
                return;
            }
            phase = 'live';
            process.stdout.write('READY\n');
        } else if (phase === 'live' && key === 'tables' && !packet.retain && !live) {
            const t = (st.docs.tables.tables || []).find((x) => x.table === featured);
            if (!t || t.extension_ms !== extendMs)
                return;
            live = t;
            checkLiveClock(st, featured, extendMs);
        }
        // The round clock runs: the heartbeat comes within ~5 s.
        if (phase === 'live' && live && beat) {
            phase = 'done';
            ok('now heartbeat: not retained, round ' + beat.round + ', hub_now_ms within 2 s of the local clock');
            clearTimeout(timer);
            client.end(true, () => process.exit(0));
        }
    });

    function checkLiveClock(state, n, ext) {
        check(state.offsetLive, 'the live tables document did not set the offset');
        const now = Date.now();
        const opts = O.parseParams('?event=' + A.event + '&table=' + n, {}, 'table').opts;
        const html = O.renderTable(state, opts, now);
        const txt = tableClockText(html);
        const truth = (live.clock.deadline_ms - now) / 1000;
        check(txt !== null && Math.abs(clockSecs(txt) - truth) <= 1.5,
              'live: table ' + n + ' shows ' + txt + ', true remaining ' + truth.toFixed(1) + ' s');
        check(html.indexOf('+' + O.formatClock(ext) + ' extra') >= 0, 'live: extension not shown: ' + html);
        const ph = O.renderPairings(state, O.parseParams('?event=' + A.event + '&rows=100', {}, 'pairings').opts, now);
        check((segment(ph, 'data-table', n) || '').indexOf('+' + O.formatClock(ext)) >= 0,
              'live: pairings row of table ' + n + ' without its extension');
        ok('live update: table ' + n + ' extended by ' + O.formatClock(ext) + ', countdown ' + txt +
           ' = true remaining ' + truth.toFixed(1) + ' s (offset from the live message)');
    }

    function checkPages(state, r, expPairs, nm, hub, fin, play) {
        const now = Date.now();
        const q = (extra) => O.parseParams('?event=' + A.event + extra, {}, extra.indexOf('table=') >= 0 ? 'table' : '').opts;
        // Pairings: every table of `round show` with its players, in seat order, as the hub published them.
        const pa = state.docs.pairings;
        const feedPairs = {};
        for (const t of pa.tables)
            feedPairs[t.table] = t.players.map((p) => p.id);
        check(JSON.stringify(feedPairs) === JSON.stringify(Object.fromEntries(Object.entries(expPairs).map(
            ([k, v]) => [Number(k), v]))), 'feed pairings ' + JSON.stringify(feedPairs) + ' != round show ' + JSON.stringify(expPairs));
        for (const t of pa.tables)
            for (const p of t.players)
                check(p.name === nm[p.id], 'feed name of ' + p.id + ': ' + JSON.stringify(p.name) + ' registered ' + JSON.stringify(nm[p.id]));
        const ph = O.renderPairings(state, q('&rows=100'), now);
        for (const [n, ids] of Object.entries(expPairs)) {
            const seg = segment(ph, 'data-table', n);
            check(seg !== null, 'pairings.html: no table ' + n);
            check(inOrder(seg, ids.map((id) => '<span class="nm">' + O.esc(nm[id]) + '</span>')),
                  'pairings.html table ' + n + ': not ' + ids.join(', ') + ' in order: ' + seg);
            const want = fin.indexOf(Number(n)) >= 0 ? 'Finished' : (play.indexOf(Number(n)) >= 0 ? 'Playing' : null);
            check(!want || seg.indexOf('<span class="ts">' + want) >= 0, 'pairings.html table ' + n + ' not ' + want + ': ' + seg);
            for (const id of ids) {
                const p = pa.tables.find((t) => t.table === Number(n)).players.find((x) => x.id === id);
                if (p.army)
                    check(seg.indexOf('<span class="army played">' + O.esc(p.army) + '</span>') >= 0,
                          'pairings.html table ' + n + ': army ' + p.army + ' of ' + id + ' not shown');
            }
        }
        check(ph.indexOf('Round ' + r) >= 0, 'pairings.html: no "Round ' + r + '"');
        if (A['swiss-rounds']) { // the event's planned Swiss rounds (its options)
            const ev = state.docs.event, n = Number(A['swiss-rounds']);
            check(ev.stage === 'swiss' && ev.stage_round === r && ev.stage_rounds === n,
                  'event: stage_round ' + ev.stage_round + ' / stage_rounds ' + ev.stage_rounds + ', want ' + r + ' / ' + n);
            check(ph.indexOf('Round ' + r + ' of ' + n) >= 0, 'pairings.html: no "Round ' + r + ' of ' + n + '"');
            ok('event: Swiss round ' + r + ' of ' + n + ' (stage_round, stage_rounds), shown by pairings.html');
        }
        const rowsPerPage = 2;
        const pages = Math.ceil(Object.keys(expPairs).length / rowsPerPage);
        const seen = new Set();
        for (let k = 0; k < pages; k++) {
            const h = O.renderPairings(state, q('&rows=' + rowsPerPage + '&cycle=10'), k * 10000);
            for (const m of h.matchAll(/data-table="(\d+)"/g))
                seen.add(m[1]);
        }
        check(seen.size === Object.keys(expPairs).length, 'pairings.html pages of 2 rows show ' + seen.size + ' tables');
        ok('pairings.html: round ' + r + ', ' + Object.keys(expPairs).length + ' tables with the players of `round show` in seat order, names as registered, states');

        // Standings: order and points of `tourney live standings --json`.
        const all = O.renderStandings(state, q('&top=200'), now);
        const rows = hub.standings;
        check(inOrder(all, rows.map((x) => 'data-player="' + O.esc(x.player) + '"')), 'standings.html order differs from the hub\'s');
        // After the last stage: "Final standings"; after a knockout the
        // final classification without the Swiss points.
        const br = state.docs.bracket && state.docs.bracket.rounds || [];
        const lastBr = br[br.length - 1];
        const koDone = !!lastBr && hub.after_round >= lastBr.round && lastBr.tables.length === 1 && !!lastBr.tables[0].winner;
        const finished = koDone || (state.docs.event && state.docs.event.status === 'finished');
        const ko = koDone || (finished && hub.stage === 'elimination');
        check(!A.export || koDone, 'after the final the bracket\'s last round is not a decided final');
        check(!finished || all.indexOf('Final standings') >= 0, 'standings.html of a finished event: no "Final standings"');
        check(!ko || all.indexOf('<th class="pt">') < 0, 'standings.html after the knockout shows Swiss points');
        if (finished)
            ok('standings.html: "Final standings"' + (ko ? ', the final classification without Swiss points' : ''));
        for (const x of rows) {
            const seg = segment(all, 'data-player', x.player);
            check(seg.indexOf('<td class="rk">' + x.rank + '</td>') >= 0, 'standings.html rank of ' + x.player + ': ' + seg);
            check(seg.indexOf('<span class="nm">' + O.esc(x.name) + '</span>') >= 0, 'standings.html name of ' + x.player + ': ' + seg);
            check(ko || seg.indexOf('<td class="pt">' + O.formatNumber(x.points) + '</td>') >= 0,
                  'standings.html points of ' + x.player + ' (' + x.points + '): ' + seg);
        }
        const top3 = O.renderStandings(state, q('&top=3&bracket=off'), now);
        check((top3.match(/<tr class="[^"]*" data-player=/g) || []).length === Math.min(3, rows.length),
              'standings.html top=3 shows ' + (top3.match(/<tr class="[^"]*" data-player=/g) || []).length + ' rows');
        ok('standings.html: ' + rows.length + ' rows in the order, ranks and points of `tourney live standings --json` (after round ' +
           hub.after_round + '); top=3 shows 3');

        // Featured tables: both players and the clock.
        for (const n of fin.concat(play)) {
            const h = O.renderTable(state, q('&table=' + n), now);
            check(inOrder(h, expPairs[n].map((id) => '<span class="nm">' + O.esc(nm[id]) + '</span>')),
                  'table.html?table=' + n + ': players ' + expPairs[n].join(', ') + ' missing: ' + h);
            const td = state.docs.tables.tables.find((t) => t.table === n);
            const txt = tableClockText(h);
            if (td.state === 'confirmed') {
                // A finished table's countdown stops: its result instead.
                check(txt === null && h.indexOf('<span class="result">') >= 0,
                      'table.html?table=' + n + ': finished, yet the clock shows ' + txt + ': ' + h);
            } else if (td.clock.unlimited) {
                check(txt === 'no time limit', 'table.html?table=' + n + ': unlimited clock shown as ' + txt);
            } else if (td.clock.state === 'running') {
                // Retained: the offset is a lower bound, the page may show at
                // most the feed's age more than the truth.
                const truth = (td.clock.deadline_ms - now) / 1000;
                const age = Math.max(0, (now - td.clock.hub_now_ms) / 1000);
                const shown = clockSecs(txt || '');
                check(shown !== null && shown >= truth - 1.5 && shown <= truth + age + 1.5,
                      'table.html?table=' + n + ': clock ' + txt + ', true remaining ' + truth.toFixed(1) + ' s, feed age ' + age.toFixed(1) + ' s');
            }
        }
        if (fin.length + play.length)
            ok('table.html: tables ' + fin.concat(play).join(', ') + ' show both players, the clock while playing, the result once finished');

        // Ticker: every finished table, and the leaders once a round is complete.
        const tk = O.renderTicker(state, q(''), now);
        for (const n of fin) {
            const want = expPairs[n].map((id) => O.esc(nm[id]));
            check(tk.indexOf('table ' + n + ' finished: ') >= 0 || tk.indexOf('table ' + n + ': ') >= 0, 'ticker.html: no table ' + n + ': ' + tk);
            check(want.every((s) => tk.indexOf(s) >= 0), 'ticker.html: players of table ' + n + ' missing');
        }
        // After the last round of a finished event: "Final standings".
        const ev = state.docs.event || {};
        const evFinished = ev.status === 'finished' && ev.round === hub.after_round;
        if (hub.after_round > 0)
            check(tk.indexOf((evFinished ? 'Final standings' : 'Standings after round ' + hub.after_round) + ': 1. ' +
                             O.esc(rows[0].name) + ' ' + O.formatNumber(rows[0].points)) >= 0,
                  'ticker.html: no leader line: ' + tk);
        if (evFinished)
            check(O.renderStandings(state, q(''), now).indexOf('Final standings') >= 0,
                  'standings.html: a finished event does not say "Final standings"');
        ok('ticker.html: ' + fin.length + ' finished tables' + (hub.after_round > 0 ? ' and the leaders' : ''));

        // Results: each confirmed table's feed result is the exported event
        // file's (the hub's own data), with its confirmed_ms; no other
        // table has one; the ticker shows them latest confirmed first.
        if (A.results) {
            const ex = JSON.parse(fs.readFileSync(A.results, 'utf8'));
            const er = ex.rounds[r - 1];
            check(er, 'export: no round ' + r);
            const canon = (v) => Array.isArray(v) ? '[' + v.map(canon).join(',') + ']' :
                (v && typeof v === 'object') ? '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}' :
                JSON.stringify(v);
            const norm = (res) => { // NH-5: a draw's HQ difference is 0 (the event file writes it)
                const o = Object.assign({}, res);
                if (o.draw === true && o.hq_diff === 0)
                    delete o.hq_diff;
                return canon(o);
            };
            const items = O.tickerItems(state, now, 100);
            const conf = [];
            check(state.docs.pairings.tables.every((t) => t.players.every((p) => !('country' in p))),
                  'pairings: a "country" key for players registered without one (docs/feed.md: absent)');
            for (const t of state.docs.tables.tables) {
                const et = er.tables.find((x) => x.table === t.table);
                if (t.state !== 'confirmed') {
                    check(!('result' in t), 'table ' + t.table + ' (' + t.state + ') has a result in the feed');
                    continue;
                }
                check(et && et.result, 'export: table ' + t.table + ' has no result');
                check(t.result && norm(t.result) === norm(et.result),
                      'table ' + t.table + ': feed result ' + JSON.stringify(t.result) + ' != exported ' + JSON.stringify(et.result));
                check(typeof t.confirmed_ms === 'number' && t.confirmed_ms <= Date.now() + 1000 &&
                      t.confirmed_ms >= Date.now() - 600000, 'table ' + t.table + ': confirmed_ms ' + t.confirmed_ms);
                const item = items.find((x) => x.indexOf(', table ' + t.table + ': ') >= 0);
                check(item, 'ticker: no item for table ' + t.table + ': ' + JSON.stringify(items));
                const res = et.result, ids = et.players;
                if (res.winner) {
                    const loser = ids.find((id) => id !== res.winner);
                    check(inOrder(item, [': ' + nm[res.winner], ' beat ', nm[loser], ' by ' + res.hq_diff + ' HQ']),
                          'ticker item of table ' + t.table + ' does not show ' + JSON.stringify(res) + ': ' + item);
                } else if (res.draw) {
                    check(inOrder(item, [': ' + nm[ids[0]], ' drew with ', nm[ids[1]]]), 'ticker draw at table ' + t.table + ': ' + item);
                }
                // pairings.html shows the confirmed result in the row: the
                // winner marked with the HQ difference, or "draw"
                const ph = segment(O.renderPairings(state, q('&rows=100'), now), 'data-table', String(t.table));
                if (res.winner)
                    check(ph.indexOf('<span class="pl win" data-player="' + O.esc(res.winner) + '">') >= 0 &&
                          ph.indexOf('<span class="sc">+' + res.hq_diff + '</span>') >= 0,
                          'pairings.html row of table ' + t.table + ' does not show ' + JSON.stringify(res) + ': ' + ph);
                else if (res.draw)
                    check(ph.indexOf('<span class="vs">draw</span>') >= 0, 'pairings.html row of table ' + t.table + ': no draw: ' + ph);
                conf.push({ms: t.confirmed_ms, at: items.indexOf(item)});
            }
            conf.sort((a, b) => a.at - b.at);
            check(conf.every((c, i) => i === 0 || conf[i - 1].ms >= c.ms),
                  'ticker not latest confirmed first: ' + JSON.stringify(conf));
            check(conf.length === fin.length, 'confirmed tables ' + conf.length + ', want ' + fin.length);
            ok('results: ' + conf.length + ' confirmed tables carry the exported result and confirmed_ms; ticker latest first; pairings.html rows show them');
        }

        // Knockout winners of the event file are the bracket's winners.
        if (A.export) {
            const ex = JSON.parse(fs.readFileSync(A.export, 'utf8'));
            const bv = O.bracketView(state);
            const bh = O.renderStandings(state, q('&bracket=only'), now);
            let n = 0;
            ex.rounds.forEach((rr, i) => {
                if (rr.stage !== 'elimination')
                    return;
                const br = bv.rounds.find((b) => b.round === i + 1);
                check(br, 'bracket: no round ' + (i + 1));
                const seg = segment(bh, 'data-round', i + 1) || '';
                for (const t of rr.tables) {
                    if (!t.result || !t.result.winner)
                        continue;
                    const loser = t.players.find((id) => id !== t.result.winner);
                    check(seg.indexOf('<div class="bp win" data-player="' + O.esc(t.result.winner) + '"><span class="nm">' +
                                      O.esc(nm[t.result.winner]) + '</span>') >= 0,
                          'bracket round ' + (i + 1) + ': winner ' + t.result.winner + ' not marked: ' + seg);
                    check(seg.indexOf('<div class="bp" data-player="' + O.esc(loser) + '">') >= 0,
                          'bracket round ' + (i + 1) + ': loser ' + loser + ' not shown');
                    n++;
                }
            });
            check(n > 0, 'the export has no knockout results');
            ok('standings.html bracket: the ' + n + ' knockout winners of the exported event file are marked');
        }

        // Hostile names: escaped on every page, never raw; shown on the
        // standings, and on the pairings, the table's page and (finished)
        // the ticker when the player plays this round.
        if (A.hostile) {
            const raw = nm[A.hostile];
            const at = Object.keys(expPairs).find((n) => expPairs[n].indexOf(A.hostile) >= 0);
            const pagesHtml = {pairings: ph, standings: all, ticker: tk};
            for (const n of Object.keys(expPairs))
                pagesHtml['table=' + n] = O.renderTable(state, q('&table=' + n), now);
            const want = ['standings'];
            if (at) {
                want.push('pairings', 'table=' + at);
                if (fin.indexOf(Number(at)) >= 0)
                    want.push('ticker');
            }
            for (const [k, h] of Object.entries(pagesHtml)) {
                check(h.indexOf(raw) < 0 && h.indexOf('<script') < 0, k + ': the raw name ' + JSON.stringify(raw));
                check((h.indexOf(O.esc(raw)) >= 0) === (want.indexOf(k) >= 0),
                      k + ': the escaped hostile name ' + (want.indexOf(k) >= 0 ? 'missing' : 'where it does not belong'));
            }
            ok('hostile name ' + JSON.stringify(raw) + ' escaped on ' + want.join(', ') + '; never raw');
        }
        check(retainedSeen >= 5, 'retained messages: ' + retainedSeen);
    }
}

if (A._[0] === 'selftest')
    selftest();
else if (A._[0] === 'feed')
    feed();
else
    fail('usage: overlay_check.js selftest|feed --overlays DIR ...');
