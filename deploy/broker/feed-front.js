'use strict';
// feed-front.js - the public feed's WebSocket port: the hall screens' and
// the players' phones' MQTT-over-WebSocket connections end here, and each
// is piped, bytes unchanged, into a connection of its own to the feed
// broker's local socket (feed.conf's `listener 0 .../run/feed.sock`, the
// same anonymous read-only rules, acl-feed).  Not a broker: it neither
// parses MQTT nor holds state; mosquitto does all of that.  With
// `http_dir` it also serves the pages over plain HTTP on the same port
// (GET/HEAD, files of that directory only), as mosquitto's http_dir did.
//
// Why it exists (README, Benchmarks, issue 17): mosquitto 2.0.11's
// WebSocket listeners (libwebsockets) poll every WebSocket client's socket
// once per packet the broker reads, so a publish of the round cost the
// feed broker messages-in x phones x ~0.1-0.4 us (6,253 x 5,000: 4 s);
// its plain listeners use epoll, and this process (node's event loop,
// epoll too) touches only the sockets that have something to carry.
//
// usage: node feed-front.js CONFIG.json
// CONFIG (written by deploy/broker/gen-config.sh as feed-front.json):
//   {"address": "0.0.0.0", "port": 9001,
//    "broker_socket": "/etc/tourney/broker/run/feed.sock",
//    "http_dir": "/etc/tourney/broker/www" or null}
// A missing, unknown or ill-typed key, an unreadable file or a port it
// cannot bind: one line on stderr, exit status 2 (config) or 1 (listen).
// Needs the npm packages ws and serve-static (deploy/overlays/install.sh,
// or Debian's node-ws and node-serve-static with NODE_PATH=/usr/share/nodejs).
const fs = require('fs');
const http = require('http');
const net = require('net');

function die(status, msg) {
    process.stderr.write(`feed-front: ${msg}\n`);
    process.exit(status);
}

function need(name) {
    try {
        return require(name);
    } catch (e) {
        die(2, `the npm package ${name} is missing (deploy/overlays/install.sh, or apt-get install node-${name} and NODE_PATH=/usr/share/nodejs): ${e.message}`);
    }
}

function readConfig(file) {
    if (process.argv.length !== 3)
        die(2, 'usage: node feed-front.js CONFIG.json');
    let text, c;
    try {
        text = fs.readFileSync(file, 'utf8');
    } catch (e) {
        die(2, `${file}: ${e.message}`);
    }
    try {
        c = JSON.parse(text);
    } catch (e) {
        die(2, `${file}: not JSON (${e.message})`);
    }
    const kinds = { address: ['string'], port: ['number'], broker_socket: ['string'], http_dir: ['string', 'null'] };
    if (c === null || typeof c !== 'object' || Array.isArray(c))
        die(2, `${file}: not a JSON object`);
    for (const k of Object.keys(c))
        if (!(k in kinds))
            die(2, `${file}: unknown key "${k}"`);
    for (const [k, types] of Object.entries(kinds))
        if (!(k in c) || !types.includes(c[k] === null ? 'null' : typeof c[k]))
            die(2, `${file}: "${k}" must be a ${types.join(' or ')}`);
    if (net.isIPv4(c.address) === false)
        die(2, `${file}: "address" must be an IPv4 address, got "${c.address}"`);
    if (!Number.isInteger(c.port) || c.port < 1 || c.port > 65535)
        die(2, `${file}: "port" must be 1..65535, got ${c.port}`);
    if (c.http_dir !== null && !fs.statSync(c.http_dir, { throwIfNoEntry: false })?.isDirectory())
        die(2, `${file}: "http_dir" ${c.http_dir} is not a directory`);
    return c;
}

const config = readConfig(process.argv[2]);
const { WebSocketServer, createWebSocketStream } = need('ws');
const pages = config.http_dir === null ? null : need('serve-static')(config.http_dir, { index: ['index.html'] });

// Anything not a page (or every request without http_dir): 404.
const server = http.createServer((req, res) => {
    const notFound = () => {
        res.statusCode = 404;
        res.end();
    };
    if (pages)
        pages(req, res, notFound);
    else
        notFound();
});

// MQTT over WebSocket names its subprotocol "mqtt" (3.1: "mqttv3.1"), as
// mosquitto's listener required: another is refused at the handshake
// (401).  Phones send small packets only (CONNECT, SUBSCRIBE, PINGREQ):
// 64 KiB bounds what one may make us hold.
const MQTT = ['mqtt', 'mqttv3.1'];
const wss = new WebSocketServer({
    server,
    perMessageDeflate: false,
    maxPayload: 65536,
    verifyClient: ({ req }) =>
        (req.headers['sec-websocket-protocol'] || '').split(',').some((p) => MQTT.includes(p.trim())),
    handleProtocols: (offered) => MQTT.find((p) => offered.has(p)),
});

let brokerDown = false;
wss.on('connection', (ws) => {
    const broker = net.connect({ path: config.broker_socket });
    const phone = createWebSocketStream(ws);
    let connected = false;
    broker.on('connect', () => {
        connected = true;
        if (brokerDown)
            console.log(`the feed broker at ${config.broker_socket} accepts again`);
        brokerDown = false;
    });
    // Logged once until it accepts again (a hall of phones retries).
    broker.on('error', (e) => {
        if (!connected && !brokerDown)
            console.error(`feed-front: the feed broker at ${config.broker_socket}: ${e.message} (phones are turned away until it accepts)`);
        brokerDown = brokerDown || !connected;
        phone.destroy();
    });
    phone.on('error', () => broker.destroy());
    // The phone gone: nothing left to deliver.  The broker gone (restart,
    // keepalive expiry): the phone's WebSocket closes and it reconnects.
    phone.on('close', () => broker.destroy());
    broker.on('close', () => phone.destroyed || phone.end());
    phone.pipe(broker);
    broker.pipe(phone);
});

// (the WebSocket server passes its HTTP server's errors on)
const cannotListen = (e) => die(1, `cannot listen on ${config.address}:${config.port}: ${e.message}`);
server.on('error', cannotListen);
wss.on('error', cannotListen);
server.listen(config.port, config.address, () =>
    console.log(`listening on ${config.address}:${config.port} (WebSocket, subprotocol mqtt${pages ? `; the pages of ${config.http_dir}` : ''}), feed broker ${config.broker_socket}`));
