/* play.js - play.html: a table device in the browser (issue 20).
 *
 * Signs in to the venue broker's table-page listener with a sign-in code
 * (username and password are the code; the broker's dynamic security
 * plugin gives it exactly one device's topics, docs/protocol.md "Table
 * pages") and then speaks the table protocol of tourney-table: protobuf
 * messages of proto/table.proto (parsed at load from
 * vendor/tourney-proto.js, generated from the .proto files by install.sh)
 * over MQTT v5 over WebSocket (vendor/mqtt.min.js).
 *
 * - The device id is learnt from the broker: the page subscribes to every
 *   device's assignment and the broker delivers only its own.
 * - Clock: the round clock (event/{ev}/clock, or the assignment's copy,
 *   whichever version is newer), placed on the hub's time by a TimeSync
 *   on time/{dev}/req (docs/protocol.md "Time sync").
 * - Results: one two-player game (A Game of Thrones LCG 2nd ed., GT-1:
 *   the winner) entered and confirmed by every player on this screen; the
 *   submission is kept in localStorage with its idempotency key before it
 *   is shown as sent, and resent (the same bytes, the same key) until an
 *   ack names the key: exactly once, whatever the network or a reload.
 *
 * Every word goes through t() (i18n.js; English when it is missing).  The
 * page's language (language()): ?lang=, else the phone's own choice on
 * the player page (localStorage tourney.lang), else the event's (the
 * TableAssignment's language, issue 21), else the browser's, else English.
 */
(function (root) {
    'use strict';

    var I18N = root.TourneyI18n;
    function t(msgid, vals) {
        if (I18N)
            return I18N.t(msgid, vals);
        return String(msgid).replace(/\{([a-z_]+)\}/g, function (m, k) {
            return vals && vals.hasOwnProperty(k) ? String(vals[k]) : m;
        });
    }

    /* language(event): picks the page's language (see the top) with the
     * event's language (the assignment's, '' before one came) and sets
     * <html lang> (hyphenation, fonts). */
    function language(event) {
        if (!I18N)
            return;
        var stored = '';
        try {
            stored = root.localStorage.getItem('tourney.lang') || '';
        } catch (e) {
            stored = ''; /* storage off (private mode) */
        }
        var nav = root.navigator.languages || [root.navigator.language];
        I18N.setLanguage(I18N.pick({param: new URLSearchParams(root.location.search).get('lang'),
            stored: stored, event: event, browser: nav}));
        document.documentElement.lang = I18N.language();
    }

    /* No 0/O, 1/I/L (hub/service/codes.c). */
    var ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
    var CODE_LEN = 8;
    var P = 'tourney/v1/';

    var S = {
        code: '',
        client: null,
        dev: '',
        assign: null,       /* TableAssignment as a plain object */
        assignVersion: 0,
        clock: null,        /* {version, reading} of the table */
        offset: null,       /* hub ms - performance.now() */
        offsetExact: false, /* from a TimeSync answer */
        syncNonce: 0,
        syncSent: 0,
        connected: false,
        error: '',
        screen: 'signin',   /* signin, connecting, table */
        pick: '',           /* the winner chosen on the form */
        confirming: false,
        confirmed: {},      /* player id -> true on the confirm screen */
        store: null         /* {seq, outbox: [...]}, localStorage */
    };
    var T = null; /* protobuf types */

    function $(id) {
        return document.getElementById(id);
    }
    function esc(s) {
        return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
            return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
        });
    }

    /* ---- protocol ------------------------------------------------------ */

    function loadTypes() {
        var r = new root.protobuf.Root();
        var src = root.TOURNEY_PROTO || {};
        root.protobuf.parse(src['common.proto'], r, {keepCase: true});
        root.protobuf.parse(src['table.proto'], r, {keepCase: true});
        r.resolveAll();
        T = {};
        ['TableAssignment', 'RoundClock', 'ResultSubmission', 'ResultAck',
            'Presence', 'TimeSync'].forEach(function (n) {
            T[n] = r.lookupType('tourney.v1.' + n);
        });
        T.AckStatus = r.lookupEnum('tourney.v1.AckStatus').values;
        T.Game = r.lookupEnum('tourney.v1.Game').values;
    }
    function decode(type, bytes) {
        return T[type].toObject(T[type].decode(bytes), {longs: Number, enums: Number, defaults: false, arrays: true});
    }
    function encode(type, obj) {
        var err = T[type].verify(obj);
        if (err)
            throw new Error(type + ': ' + err);
        return T[type].encode(T[type].fromObject(obj)).finish();
    }
    function b64(bytes) {
        var s = '';
        for (var i = 0; i < bytes.length; i++)
            s += String.fromCharCode(bytes[i]);
        return btoa(s);
    }
    function unb64(s) {
        var b = atob(s), out = new Uint8Array(b.length);
        for (var i = 0; i < b.length; i++)
            out[i] = b.charCodeAt(i);
        return out;
    }

    /* ---- the code --------------------------------------------------------- */

    /* normalise(text): the code as the broker knows it, or '' when text is
     * not a code (wrong length or a character no code has). */
    function normalise(text) {
        var s = String(text || '').toUpperCase().replace(/[\s-]/g, '');
        if (s.length !== CODE_LEN)
            return '';
        for (var i = 0; i < s.length; i++)
            if (ALPHABET.indexOf(s.charAt(i)) < 0)
                return '';
        return s;
    }
    function shown(code) {
        return code.slice(0, 4) + '-' + code.slice(4);
    }

    /* ---- the browser's copy of the results (localStorage) ---------------- */

    function storeKey() {
        return 'tourney.play.v1.' + S.code;
    }
    function load() {
        var v = null;
        try {
            v = JSON.parse(root.localStorage.getItem(storeKey()) || 'null');
        } catch (e) {
            v = null;
        }
        S.store = v && v.outbox ? v : {seq: 0, boot: '', dev: '', outbox: []};
        if (!S.store.boot)
            S.store.boot = Date.now().toString(36);
    }
    function save() {
        root.localStorage.setItem(storeKey(), JSON.stringify(S.store));
    }
    /* The entry of the table's current round (the newest one). */
    function currentEntry() {
        var a = S.assign;
        if (!a)
            return null;
        for (var i = S.store.outbox.length - 1; i >= 0; i--) {
            var e = S.store.outbox[i];
            if (e.event === a.event_id && e.round === a.round && e.table === a.table)
                return e;
        }
        return null;
    }

    /* ---- MQTT ------------------------------------------------------------ */

    function brokerUrl() {
        var q = new URLSearchParams(root.location.search);
        var b = q.get('broker');
        if (b)
            return b;
        var proto = root.location.protocol === 'https:' ? 'wss://' : 'ws://';
        return proto + root.location.host + '/mqtt';
    }

    function signIn(code) {
        S.code = code;
        S.error = '';
        S.screen = 'connecting';
        load();
        if (S.store.dev)
            S.dev = S.store.dev;
        root.sessionStorage.setItem('tourney.play.code', code);
        render();
        var opts = {
            username: code,
            password: code,
            clientId: 'play-' + Math.random().toString(36).slice(2, 12),
            protocolVersion: 5,
            clean: true,
            reconnectPeriod: 2000,
            connectTimeout: 8000,
            keepalive: 15
        };
        /* The device id is known from an earlier visit: the last will says
         * offline when the phone goes away (first visit: no will, the id
         * is learnt after the connect). */
        if (S.dev)
            opts.will = {topic: P + 'device/' + S.dev + '/presence', qos: 1, retain: true,
                payload: encode('Presence', {device_id: S.dev, state: 2})};
        var c = root.mqtt.connect(brokerUrl(), opts);
        S.client = c;
        c.on('connect', onConnect);
        c.on('message', onMessage);
        c.on('close', function () {
            if (S.connected) {
                S.connected = false;
                render();
            }
        });
        c.on('error', function (err) {
            /* CONNACK 135 (v5) / 5 (3.1.1): the broker does not know the
             * code (wrong, revoked) or it has expired. */
            if (err && (err.code === 135 || err.code === 134 || err.code === 5 ||
                        /not authori[sz]ed|bad user name or password/i.test(err.message || ''))) {
                refused();
                return;
            }
            S.error = t('Network problem: {what}. Trying again.', {what: err && err.message ? err.message : '?'});
            render();
        });
    }

    function refused() {
        if (S.client) {
            S.client.end(true);
            S.client = null;
        }
        S.connected = false;
        S.screen = 'signin';
        S.error = t('The code {code} was refused: it is wrong, expired or revoked. Ask the organiser for your table\'s code.', {code: shown(S.code)});
        root.sessionStorage.removeItem('tourney.play.code');
        render();
    }

    function onConnect() {
        S.connected = true;
        S.error = '';
        if (S.screen === 'connecting')
            S.screen = 'table';
        S.client.subscribe([P + 'device/+/assign', P + 'device/+/ack', P + 'hub/state'], {qos: 1});
        if (S.dev)
            devReady();
        resendAll();
        render();
    }

    function devReady() {
        S.client.subscribe([P + 'time/' + S.dev + '/resp'], {qos: 0});
        if (S.assign && S.assign.event_id)
            S.client.subscribe([P + 'event/' + S.assign.event_id + '/clock'], {qos: 1});
        askTime();
        presence();
    }

    function presence() {
        if (!S.client || !S.connected || !S.dev)
            return;
        var queued = S.store.outbox.filter(function (e) {
            return e.status === 'sent';
        }).length;
        var p = {device_id: S.dev, state: 1, queued_results: queued, software_version: 'play.html',
            last_assignment_version: S.assignVersion, device_time_ms: Date.now()};
        S.client.publish(P + 'device/' + S.dev + '/presence', encode('Presence', p), {qos: 1, retain: true});
    }

    function askTime() {
        if (!S.client || !S.connected || !S.dev)
            return;
        S.syncNonce = Math.floor(Math.random() * 4294967295) + 1;
        S.syncSent = Math.round(root.performance.now());
        S.client.publish(P + 'time/' + S.dev + '/req',
            encode('TimeSync', {client_ms: S.syncSent, nonce: S.syncNonce}), {qos: 0});
    }

    function onMessage(topic, payload) {
        var bytes = new Uint8Array(payload);
        var m;
        try {
            if ((m = /^tourney\/v1\/device\/([^/]+)\/assign$/.exec(topic))) {
                onAssign(m[1], bytes);
            } else if ((m = /^tourney\/v1\/device\/([^/]+)\/ack$/.exec(topic))) {
                onAck(decode('ResultAck', bytes));
            } else if (/\/clock$/.test(topic) && bytes.length) {
                var rc = decode('RoundClock', bytes);
                if (S.assign && rc.event_id === S.assign.event_id)
                    useClock(rc.version, tableReading(rc), rc.clock.hub_now_ms);
            } else if (/\/resp$/.test(topic)) {
                var ts = decode('TimeSync', bytes);
                var now = root.performance.now();
                if (ts.nonce === S.syncNonce && now - ts.client_ms <= 2000) {
                    S.offset = ts.hub_ms + (now - ts.client_ms) / 2 - now;
                    S.offsetExact = true;
                }
            } else if (topic === P + 'hub/state') {
                if (String.fromCharCode.apply(null, bytes) === 'online')
                    resendAll();
            }
        } catch (e) {
            S.error = t('A message could not be read: {what}', {what: e.message});
        }
        render();
    }

    function onAssign(dev, bytes) {
        var first = !S.dev;
        S.dev = dev;
        if (S.store.dev !== dev) {
            S.store.dev = dev;
            save();
        }
        if (!bytes.length) {
            S.assign = null;
            return;
        }
        var a = decode('TableAssignment', bytes);
        if (a.version <= S.assignVersion)
            return; /* a stale retained copy */
        var oldEvent = S.assign && S.assign.event_id;
        S.assign = a;
        S.assignVersion = a.version;
        language(a.language || '');
        if (oldEvent !== a.event_id) {
            if (oldEvent)
                S.client.unsubscribe(P + 'event/' + oldEvent + '/clock');
            S.client.subscribe(P + 'event/' + a.event_id + '/clock', {qos: 1});
        }
        if (a.clock)
            useClock(a.version, a.clock, a.clock.hub_now_ms);
        S.pick = '';
        S.confirming = false;
        S.confirmed = {};
        if (first)
            devReady();
        else
            presence();
    }

    /* The table's reading in a RoundClock: the round's plus this table's
     * extension (tny_wire_clock_for_table; judge pauses of one table and
     * AG-14 draft starts are not shown here yet). */
    function tableReading(rc) {
        var r = {};
        for (var k in rc.clock)
            r[k] = rc.clock[k];
        var ext = 0;
        (rc.extensions || []).forEach(function (x) {
            if (S.assign && x.table === S.assign.table)
                ext = x.extension_ms || 0;
        });
        if (r.deadline_ms != null)
            r.deadline_ms += ext;
        if (r.remaining_ms != null)
            r.remaining_ms += ext;
        return r;
    }

    function useClock(version, reading, hubNow) {
        if (S.clock && S.clock.version >= version)
            return;
        S.clock = {version: version, reading: reading};
        if (!S.offsetExact && hubNow)
            S.offset = hubNow - root.performance.now();
    }

    function hubNow() {
        return S.offset == null ? null : root.performance.now() + S.offset;
    }

    /* "45:00", "1:30:00", "+2:05 overtime" (overlay.js formatClock). */
    function formatClock(ms) {
        var over = ms < 0, s = Math.floor(Math.abs(ms) / 1000);
        if (over)
            s = Math.ceil(Math.abs(ms) / 1000);
        else
            s = Math.ceil(ms / 1000);
        var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
        var txt = (h ? h + ':' + (m < 10 ? '0' : '') + m : String(m)) + ':' + (sec < 10 ? '0' : '') + sec;
        return over ? '+' + txt : txt;
    }

    function clockText() {
        if (!S.clock)
            return {text: '', cls: ''};
        var r = S.clock.reading;
        if (r.unlimited)
            return {text: t('no time limit'), cls: ''};
        if (r.state === 2) {
            var now = hubNow();
            var entry = currentEntry();
            if (entry && entry.stopped_hub_ms)
                now = entry.stopped_hub_ms; /* stopped at the result */
            if (now == null)
                return {text: '', cls: ''};
            var left = r.deadline_ms - now;
            return left < 0 ? {text: t('{time} overtime', {time: formatClock(left)}), cls: 'over'}
                : {text: formatClock(left), cls: ''};
        }
        var txt = formatClock(r.remaining_ms || 0);
        return {text: r.state === 3 ? t('{time} paused', {time: txt}) : t('{time} not started', {time: txt}), cls: ''};
    }

    /* ---- results ----------------------------------------------------------- */

    function submit() {
        var a = S.assign;
        var ids = a.seats.map(function (s) {
            return s.player_id;
        });
        S.store.seq += 1;
        var key = (S.dev + '.' + S.store.boot + '.' + S.store.seq).slice(0, 64);
        var sub = {
            idempotency_key: key,
            device_id: S.dev,
            event_id: a.event_id,
            round: a.round,
            table: a.table,
            assignment_version: a.version,
            result: {gt: {winner_id: S.pick}},
            confirmed_by: ids.filter(function (id) {
                return S.confirmed[id];
            }),
            table_time_ms: Date.now()
        };
        var winner = a.seats.filter(function (s) {
            return s.player_id === S.pick;
        })[0];
        var entry = {key: key, event: a.event_id, round: a.round, table: a.table,
            bytes: b64(encode('ResultSubmission', sub)), status: 'sent', reason: '',
            summary: winner ? winner.name : S.pick, tries: 0, next: 0,
            stopped_hub_ms: hubNow()};
        /* Kept before it is shown as sent (and before the first try). */
        S.store.outbox.push(entry);
        save();
        S.confirming = false;
        S.confirmed = {};
        send(entry);
        presence();
        render();
    }

    function send(e) {
        if (!S.client || !S.connected || !S.dev)
            return;
        e.tries += 1;
        /* 1-5 s, doubling to 60 s (docs/protocol.md "Idempotency"). */
        var base = Math.min(60000, 1000 * Math.pow(2, Math.min(e.tries - 1, 6)));
        e.next = Date.now() + base + Math.random() * Math.min(base, 4000);
        save();
        S.client.publish(P + 'device/' + S.dev + '/result', unb64(e.bytes), {qos: 1});
    }

    function resendAll() {
        if (!S.store)
            return;
        S.store.outbox.forEach(function (e) {
            if (e.status === 'sent') {
                e.tries = 0;
                send(e);
            }
        });
    }

    function onAck(ack) {
        if (!ack.idempotency_key)
            return; /* an ack nobody can attribute settles nothing */
        var st = T.AckStatus;
        S.store.outbox.forEach(function (e) {
            if (e.key !== ack.idempotency_key)
                return;
            if (ack.status === st.ACK_ACCEPTED || ack.status === st.ACK_DUPLICATE)
                e.status = 'stored';
            else if (ack.status === st.ACK_PENDING_CONFIRMATION)
                e.status = 'pending';
            else if (ack.status === st.ACK_CONFLICT)
                e.status = 'conflict';
            else
                e.status = 'rejected';
            e.reason = ack.reason_text || '';
        });
        save();
        presence();
    }

    function tick() {
        var now = Date.now();
        if (S.store && S.connected)
            S.store.outbox.forEach(function (e) {
                if (e.status === 'sent' && e.next && now >= e.next)
                    send(e);
            });
        if (S.connected && S.dev && (!S.offsetExact && now - (S.lastAsk || 0) > 3000)) {
            S.lastAsk = now;
            askTime();
        }
        var el = $('clock');
        if (el) {
            var c = clockText();
            el.textContent = c.text;
            el.className = 'clock ' + c.cls;
        }
    }

    /* ---- screens -------------------------------------------------------- */

    function render() {
        var page = $('page');
        if (!page)
            return;
        var h = '';
        if (S.screen === 'signin') {
            h += '<div class="panel"><h1>' + esc(t('Sign in to your table')) + '</h1>' +
                '<p class="dim">' + esc(t('Type the code on your table\'s slip or tent, or scan its QR code.')) + '</p>' +
                '<label for="code">' + esc(t('Table code')) + '</label>' +
                '<input type="text" id="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="12" placeholder="K7QX-M3PA">' +
                (S.error ? '<p class="error" id="error" role="alert">' + esc(S.error) + '</p>' : '') +
                '<button id="signin">' + esc(t('Sign in')) + '</button></div>';
            page.innerHTML = h;
            $('code').value = S.code ? shown(S.code) : '';
            $('signin').onclick = function () {
                var c = normalise($('code').value);
                if (!c) {
                    S.error = t('A code is {n} letters and digits, like K7QX-M3PA.', {n: CODE_LEN});
                    render();
                    return;
                }
                signIn(c);
            };
            return;
        }
        var net = S.connected ? t('connected') : t('offline: results are kept on this phone and sent when the network is back');
        h += '<p class="net dim" id="net">' + esc(net) + '</p>';
        if (S.error)
            h += '<p class="error" id="error" role="alert">' + esc(S.error) + '</p>';
        var a = S.assign;
        if (!a) {
            h += '<div class="panel"><h1>' + esc(S.screen === 'connecting' ? t('Signing in...') : t('No table yet')) + '</h1>' +
                '<p class="dim">' + esc(t('Code {code}', {code: shown(S.code)})) + '</p></div>';
            page.innerHTML = h;
            return;
        }
        if (!a.table) {
            h += '<div class="panel"><h1>' + esc(t('No table this round')) + '</h1><p class="dim">' +
                esc(a.event_title || a.event_id) + '</p></div>';
            page.innerHTML = h;
            return;
        }
        h += '<div class="panel" id="table"><h1>' + esc(t('Table {table}', {table: a.table})) + '</h1>' +
            '<p class="dim">' + esc(a.event_title || a.event_id) + ' · ' + esc(t('Round {round}', {round: a.round})) +
            (a.stage_name ? ' · ' + esc(a.stage_name) : '') + '</p>' +
            '<div class="clock" id="clock"></div></div>';
        h += '<div class="panel"><h2>' + esc(t('Players')) + '</h2>';
        a.seats.forEach(function (s) {
            var extra = [s.faction, s.agenda, s.side, s.first_player ? t('starts') : ''].filter(Boolean).join(' · ');
            h += '<div class="seat"><span class="no">' + esc(t('Seat {seat}', {seat: s.seat})) + '</span><span class="who"><span class="name">' +
                esc(s.name) + '</span>' + (extra ? '<br><span class="dim">' + esc(extra) + '</span>' : '') + '</span></div>';
        });
        h += '</div>';
        h += resultPanel(a);
        page.innerHTML = h;
        wire(a);
        tick();
    }

    function gameSupported(a) {
        return a.game === T.Game.GAME_GOT_LCG2 && a.seats.length === 2 && !a.best_of_three;
    }

    function resultPanel(a) {
        var h = '<div class="panel" id="result">';
        if (a.organiser_result_json) {
            return h + '<h2>' + esc(t('Result')) + '</h2><p class="state stored" id="state">' +
                esc(t('The organiser entered the result ({by}).', {by: a.organiser_result_by || ''})) + '</p></div>';
        }
        var e = currentEntry();
        if (e && e.status !== 'rejected') {
            var words = {
                sent: t('Sent: waiting for the hub'),
                stored: t('Stored by the hub'),
                pending: t('Stored by the hub: waiting for the other player\'s confirmation'),
                conflict: t('The hub has a different result for this table: the organiser decides')
            };
            return h + '<h2>' + esc(t('Result')) + '</h2><p>' + esc(t('{name} won', {name: e.summary})) + '</p>' +
                '<p class="state ' + esc(e.status) + '" id="state">' + esc(words[e.status] || e.status) + '</p></div>';
        }
        if (!gameSupported(a))
            return h + '<p class="dim">' + esc(t('This page enters results of two-player A Game of Thrones games so far; use the table device or ask the organiser.')) + '</p></div>';
        if (e && e.status === 'rejected')
            h += '<p class="error" id="rejected">' + esc(t('The hub refused the result: {why}', {why: e.reason})) + '</p>';
        if (!S.confirming) {
            h += '<h2>' + esc(t('Who won?')) + '</h2>';
            a.seats.forEach(function (s, i) {
                h += '<button class="choice' + (S.pick === s.player_id ? ' on' : '') + '" id="win' + i + '">' + esc(s.name) + '</button>';
            });
            h += '<button id="next"' + (S.pick ? '' : ' disabled') + '>' + esc(t('Next: every player confirms')) + '</button></div>';
            return h;
        }
        var w = a.seats.filter(function (s) {
            return s.player_id === S.pick;
        })[0];
        h += '<h2>' + esc(t('Confirm the result')) + '</h2><p id="summary">' + esc(t('{name} won', {name: w ? w.name : ''})) + '</p>' +
            '<p class="dim">' + esc(t('Each player taps their own name.')) + '</p>';
        a.seats.forEach(function (s, i) {
            var on = S.confirmed[s.player_id];
            h += '<button class="' + (on ? 'done' : 'choice') + '" id="ok' + i + '"' + (on ? ' disabled' : '') + '>' +
                esc(on ? t('{name} confirmed', {name: s.name}) : t('{name}: I confirm', {name: s.name})) + '</button>';
        });
        h += '<button class="choice" id="back">' + esc(t('Back: change the result')) + '</button></div>';
        return h;
    }

    function wire(a) {
        a.seats.forEach(function (s, i) {
            var b = $('win' + i);
            if (b)
                b.onclick = function () {
                    S.pick = s.player_id;
                    render();
                };
            var ok = $('ok' + i);
            if (ok)
                ok.onclick = function () {
                    S.confirmed[s.player_id] = true;
                    var all = a.seats.every(function (x) {
                        return S.confirmed[x.player_id];
                    });
                    if (all)
                        submit();
                    else
                        render();
                };
        });
        if ($('next'))
            $('next').onclick = function () {
                S.confirming = true;
                S.confirmed = {};
                var e = currentEntry();
                if (e && e.status === 'rejected')
                    e.status = 'replaced';
                render();
            };
        if ($('back'))
            $('back').onclick = function () {
                S.confirming = false;
                S.confirmed = {};
                render();
            };
    }

    function start() {
        language('');
        if (new URLSearchParams(root.location.search).get('theme') === 'dark')
            document.body.className = 'theme-dark';
        loadTypes();
        var q2 = new URLSearchParams(root.location.search);
        var code = normalise(q2.get('code') || root.sessionStorage.getItem('tourney.play.code') || '');
        setInterval(tick, 250);
        if (code)
            signIn(code);
        else
            render();
    }

    root.TourneyPlay = {start: start, normalise: normalise, formatClock: formatClock};
})(window);
