/* feed_clients.js - N phones on the feed broker for bench/bench_feed.sh:
 * anonymous WebSocket clients that do what the player page does once its
 * player is chosen (player.html): the topics of deploy/overlays/pages.js
 * playerTopics (the event, the clock heartbeat, the player's own
 * document and, once it names one, its table's: docs/feed.md player/ID,
 * table/N) at the page's QoS (PLAYER_QOS) with the page's connection
 * options (FEED_CONNECT), the messages taken by pages.js mineMessage and
 * the subscriptions following them as the page's resync does.  Client i
 * is player p<i+1>.  Uses the `mqtt` package of deploy/overlays.
 *
 *   node feed_clients.js --overlays DIR --broker ws://H:P --event ID --n N --out FILE
 *
 * Prints READY once every client is subscribed; then appends to FILE one
 * line per observation:
 *   "P ROUND MS"  a client first had its table in ROUND (ms since epoch)
 *   "C TABLE MS"  a client first saw its TABLE confirmed
 *   "S TABLE"     a client learnt its table (from its player document)
 *   "B TOPIC BYTES" the size of each document client 0 receives
 *   "M NAME MSGS BYTES" on a line "MARK NAME" on stdin: the messages and
 *                 payload bytes every client together received since the
 *                 previous mark (what left the broker for the phones)
 * and exits when stdin closes.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const args = {};
for (let i = 2; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const ovl = path.resolve(args.overlays);
const mqtt = require(path.join(ovl, 'node_modules', 'mqtt'));
const O = require(path.join(ovl, 'overlay.js'));
const P = require(path.join(ovl, 'pages.js'));
const n = +args.n;
const ev = args.event;
const out = fs.createWriteStream(args.out);
let ready = 0, msgs = 0, bytes = 0;

function start(i) {
    const pick = ev + '/p' + (i + 1);
    const st = O.newState(ev);
    st.mine = {};
    const seenRound = {}, seenConf = {};
    let got = false, held = [], table = 0;
    const c = mqtt.connect(args.broker, Object.assign({clientId: 'bench-' + process.pid + '-' + i}, P.FEED_CONNECT));
    /* the page's resync: hold exactly playerTopics() */
    function resync(all) {
        const want = P.playerTopics([ev], pick, [st]);
        const add = want.filter(t => all || held.indexOf(t) < 0);
        const drop = held.filter(t => want.indexOf(t) < 0);
        if (drop.length)
            c.unsubscribe(drop);
        if (add.length)
            c.subscribe(add, {qos: P.PLAYER_QOS}, () => {
                if (!got) {
                    got = true;
                    if (++ready === n)
                        console.log('READY');
                }
            });
        held = want;
    }
    c.on('connect', () => resync(true));
    c.on('message', (topic, payload) => {
        const now = Date.now();
        msgs++;
        bytes += payload.length;
        if (i === 0)
            out.write('B ' + topic.slice(('tourney/v1/feed/' + ev + '/').length) + ' ' + payload.length + '\n');
        if (!P.mineMessage(st, topic, payload.toString(), pick))
            return;
        const pd = st.mine.player, td = st.mine.table;
        if (pd && pd.round && pd.table && !seenRound[pd.round]) {
            seenRound[pd.round] = true;
            out.write('P ' + pd.round + ' ' + now + '\n');
        }
        if (pd && pd.table && pd.table !== table) {
            table = pd.table;
            out.write('S ' + table + '\n');
        }
        if (td && td.state === 'confirmed' && !seenConf[td.round + '/' + td.table]) {
            seenConf[td.round + '/' + td.table] = true;
            out.write('C ' + td.table + ' ' + now + '\n');
        }
        resync(false);
    });
}

/* connect in batches so the broker is not flooded by N handshakes */
let i = 0;
const t = setInterval(() => {
    for (let k = 0; k < 100 && i < n; k++)
        start(i++);
    if (i >= n)
        clearInterval(t);
}, 100);
readline.createInterface({input: process.stdin}).on('line', line => {
    const m = /^MARK (\S+)$/.exec(line);
    if (m) {
        out.write('M ' + m[1] + ' ' + msgs + ' ' + bytes + '\n');
        msgs = bytes = 0;
    }
}).on('close', () => {
    out.end(() => process.exit(0));
});
