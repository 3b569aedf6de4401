/* Shared by the phone tests' Chromium scripts (tests/e2e/play_*.js): the
 * command line's --name value pairs, failing with a message, reading and
 * waiting for a page's text, a TCP proxy that plays a phone's Wi-Fi cut,
 * `tourney live` and one MQTT publish as a sign-in code's login. */
'use strict';
const net = require('net');
const path = require('path');
const {spawnSync} = require('child_process');

const args = {};
for (let i = 2; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

function die(msg) {
    console.error('FAIL: ' + msg);
    process.exit(1);
}
function check(cond, msg) {
    if (!cond)
        die(msg);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* A TCP proxy to the broker that can cut every connection and refuse new
 * ones (the phone's Wi-Fi gone). */
function proxy(port) {
    const socks = new Set();
    let up = true;
    const srv = net.createServer((c) => {
        if (!up) {
            c.destroy();
            return;
        }
        const s = net.connect(port, '127.0.0.1');
        socks.add(c);
        socks.add(s);
        c.pipe(s);
        s.pipe(c);
        const end = () => {
            c.destroy();
            s.destroy();
            socks.delete(c);
            socks.delete(s);
        };
        c.on('error', end);
        s.on('error', end);
        c.on('close', end);
        s.on('close', end);
    });
    return new Promise((res) => srv.listen(0, '127.0.0.1', () => res({
        port: srv.address().port,
        cut() {
            up = false;
            socks.forEach((x) => x.destroy());
        },
        restore() {
            up = true;
        },
        close() {
            srv.close();
        }
    })));
}

async function text(page, sel) {
    const el = await page.$(sel);
    return el ? (await el.textContent()) : '';
}

async function waitText(page, sel, re, what, ms) {
    const until = Date.now() + (ms || 20000);
    let last = '';
    while (Date.now() < until) {
        last = await text(page, sel);
        if (re.test(last))
            return last;
        await sleep(100);
    }
    die(what + ': ' + sel + ' says "' + last + '" (expected ' + re + ')');
}

/* tourney live ARGS...: its stdout (--json first when json). */
function live(json, ...rest) {
    const r = spawnSync(args.tourney, ['live'].concat(json ? ['--json'] : [], rest),
                        {encoding: 'utf8', timeout: 90000});
    check(r.status === 0, 'tourney live ' + rest.join(' ') + ': exit ' + r.status + ': ' + r.stderr + r.stdout);
    return json ? JSON.parse(r.stdout) : r.stdout;
}

/* One MQTT exchange with a code's login: publishes payload on topic and
 * returns the PUBACK's reason code (0 = accepted). */
function publishAs(code, topic, payload) {
    const mqtt = require(path.join(args.overlays, 'node_modules', 'mqtt'));
    const url = args.base.replace(/^http/, 'ws') + '/mqtt';
    return new Promise((res, rej) => {
        const c = mqtt.connect(url, {username: code, password: code, protocolVersion: 5,
            reconnectPeriod: 0, connectTimeout: 8000});
        c.on('error', (e) => {
            c.end(true);
            rej(e);
        });
        c.on('connect', () => c.publish(topic, payload, {qos: 1}, (err, pkt) => {
            c.end(true);
            res(err ? (err.code || 135) : (pkt && pkt.reasonCode) || 0);
        }));
    });
}

module.exports = {args, die, check, sleep, proxy, text, waitText, live, publishAs};
