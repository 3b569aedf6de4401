/* feed_clients.js - N anonymous WebSocket clients of the feed broker, each
 * with the player page's subscription (tourney/v1/feed/EVENT/+), for
 * bench/bench_feed.sh.  Uses the `mqtt` package of deploy/overlays.
 *
 *   node feed_clients.js --overlays DIR --broker ws://H:P --event ID --n N --out FILE
 *
 * Prints READY once every client is subscribed and has its retained
 * documents; then appends to FILE one line per observation:
 *   "P ROUND MS"  a client first saw the pairings of ROUND (ms since epoch)
 *   "C TABLE MS"  a client first saw TABLE confirmed in the tables document
 *   "B TOPIC BYTES" the size of each document as it arrives at client 0
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
const clients = [];

function start(i) {
    const seenRound = {}, seenConf = {};
    let got = false;
    const c = mqtt.connect(args.broker, {clientId: 'bench-' + process.pid + '-' + i, clean: true,
                                         protocolVersion: 4, reconnectPeriod: 2000, keepalive: 60});
    c.on('connect', () => {
        c.subscribe(prefix + '+', {qos: 1}, () => {
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
        if (key !== 'pairings' && key !== 'tables')
            return;
        let doc;
        try {
            doc = JSON.parse(payload.toString());
        } catch (e) {
            return;
        }
        if (key === 'pairings' && doc.round && !seenRound[doc.round]) {
            seenRound[doc.round] = true;
            out.write('P ' + doc.round + ' ' + now + '\n');
        } else if (key === 'tables') {
            (doc.tables || []).forEach((t) => {
                if (t.state === 'confirmed' && !seenConf[doc.round + '/' + t.table]) {
                    seenConf[doc.round + '/' + t.table] = true;
                    out.write('C ' + t.table + ' ' + now + '\n');
                }
            });
        }
    });
    clients.push(c);
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
