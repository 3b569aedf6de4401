/* feed_clients.js - N phones on the feed broker for bench/bench_feed.sh:
 * anonymous WebSocket clients that hold what the player page holds once
 * its player is chosen (player.html): the event, the clock heartbeat,
 * the player's own document and its table's (docs/feed.md player/ID,
 * table/N).  Client i is player p<i+1>.  Uses the `mqtt` package of
 * deploy/overlays.
 *
 *   node feed_clients.js --overlays DIR --broker ws://H:P --event ID --n N --out FILE
 *
 * Prints READY once every client is subscribed; then appends to FILE one
 * line per observation:
 *   "P ROUND MS"  a client first had its table in ROUND (ms since epoch)
 *   "C TABLE MS"  a client first saw its TABLE confirmed
 *   "S TABLE"     a client learnt its table (from its player document)
 *   "B TOPIC BYTES" the size of each document client 0 receives
 * and exits when stdin closes.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const args = {};
for (let i = 2; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const mqtt = require(path.join(path.resolve(args.overlays), 'node_modules', 'mqtt'));
const n = +args.n;
const out = fs.createWriteStream(args.out);
const prefix = 'tourney/v1/feed/' + args.event + '/';
let ready = 0;

function start(i) {
    const me = 'p' + (i + 1);
    const seenRound = {}, seenConf = {};
    let got = false, table = 0;
    const c = mqtt.connect(args.broker, {clientId: 'bench-' + process.pid + '-' + i, clean: true,
                                         protocolVersion: 4, reconnectPeriod: 2000, keepalive: 60});
    c.on('connect', () => {
        const topics = [prefix + 'event', prefix + 'now', prefix + 'player/' + me];
        if (table)
            topics.push(prefix + 'table/' + table);
        c.subscribe(topics, {qos: 1}, () => {
            if (!got) {
                got = true;
                if (++ready === n)
                    console.log('READY');
            }
        });
    });
    c.on('message', (topic, payload) => {
        const now = Date.now();
        const key = topic.slice(prefix.length);
        if (i === 0)
            out.write('B ' + key + ' ' + payload.length + '\n');
        let doc;
        if (key.startsWith('player/')) {
            doc = JSON.parse(payload.toString());
            if (doc.round && doc.table && !seenRound[doc.round]) {
                seenRound[doc.round] = true;
                out.write('P ' + doc.round + ' ' + now + '\n');
            }
            if (doc.table && doc.table !== table) {
                out.write('S ' + doc.table + '\n');
                if (table)
                    c.unsubscribe(prefix + 'table/' + table);
                table = doc.table;
                c.subscribe(prefix + 'table/' + table, {qos: 1});
            }
        } else if (key.startsWith('table/')) {
            doc = JSON.parse(payload.toString());
            if (doc.state === 'confirmed' && !seenConf[doc.round + '/' + doc.table]) {
                seenConf[doc.round + '/' + doc.table] = true;
                out.write('C ' + doc.table + ' ' + now + '\n');
            }
        }
    });
}

/* connect in batches so the broker is not flooded by 2000 handshakes */
let i = 0;
const t = setInterval(() => {
    for (let k = 0; k < 100 && i < n; k++)
        start(i++);
    if (i >= n)
        clearInterval(t);
}, 100);
process.stdin.resume();
process.stdin.on('end', () => {
    out.end(() => process.exit(0));
});
