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
 * - A player's own code (issue 20, `code player`): the broker gives it
 *   its player's table device of the current round (the hub re-points it
 *   each round, which signs the page out and in again) and its own
 *   code/{login}/* topics: CodeStatus (who the player is, their seat,
 *   checked in, a drop asked) and PlayerRequest/PlayerAck (check-in
 *   before round 1, "drop me" after a round; kept in localStorage and
 *   resent until the hub answers).  The player confirms only their own
 *   seat; the table's result goes when every seat is confirmed.
 * - A result the organiser entered (the assignment's
 *   organiser_result_json) is shown with its values, worded as an entry;
 *   a phone whose own report (submitted here, or confirmed here by a
 *   player) differs says it was overridden and what it reported.  Every
 *   phone of a table keeps every submission of the table but shows its
 *   own.
 * - A code that no longer works (revoked, expired with its event, a
 *   dropped player's) still signs in, to read only its status: the page
 *   says why.  A wrong code is refused by the broker.
 *
 * Every word goes through t() (i18n.js; English when it is missing).  The
 * page's language (language()): ?lang=, else the phone's own choice on
 * the player page (localStorage tourney.lang), else the event's (the
 * TableAssignment's language, issue 21, or before a table, during a bye,
 * the CodeStatus's), else the browser's, else English.  Neuroshima Hex
 * armies are named as the hall's pages name them (overlay.js armyName,
 * its tc('army', ...) catalogue entries); the value sent stays the
 * format's name.
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

    /* armyName(a): the army in the page's language (overlay.js, the
     * hall's words: one list for every page). */
    var OVERLAY = root.TourneyOverlay;
    function armyName(a) {
        return OVERLAY ? OVERLAY.armyName(a) : a;
    }

    /* Points on the wire: units of 1/1200 (proto/common.proto). */
    var UNITS = 1200;

    /* No 0/O, 1/I/L (hub/service/codes.c). */
    var ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
    var CODE_LEN = 8;
    var P = 'tourney/v1/';

    var S = {
        code: '',
        client: null,
        dev: '',
        willKey: '',        /* whose is this connection's last will: dev:ID, code:LOGIN */
        reconnecting: false, /* willChanged's reconnect under way */
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
        form: null,         /* the result form's values (loadDraft) */
        formError: '',
        confirming: false,
        confirmed: {},      /* player id -> true on the confirm screen */
        store: null,        /* {seq, outbox: [...], reqs: [...]}, localStorage */
        login: '',          /* the code's own login (code/{login}/...) */
        status: null,       /* its CodeStatus as a plain object */
        ended: '',          /* why the code no longer works */
        dropAsk: false      /* "drop me" tapped once: asks to be sure */
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

    /* The shipped formats' stage names, in the page's language (the
     * hall's words, overlay.js STAGE_NAMES); an organiser's own as written. */
    var STAGES = ['Swiss', 'Knockout', 'Elimination', 'Preliminary', 'Final', 'Top cut', 'Gorn rounds'];
    function stageText(name) {
        return STAGES.indexOf(name) >= 0 ? t(name) : name;
    }

    /* ---- protocol ------------------------------------------------------ */

    function loadTypes() {
        var r = new root.protobuf.Root();
        var src = root.TOURNEY_PROTO || {};
        root.protobuf.parse(src['common.proto'], r, {keepCase: true});
        root.protobuf.parse(src['table.proto'], r, {keepCase: true});
        r.resolveAll();
        T = {};
        ['TableAssignment', 'RoundClock', 'ResultSubmission', 'ResultAck', 'GameResult',
            'Presence', 'TimeSync', 'CodeStatus', 'PlayerRequest', 'PlayerAck'].forEach(function (n) {
            T[n] = r.lookupType('tourney.v1.' + n);
        });
        T.AckStatus = r.lookupEnum('tourney.v1.AckStatus').values;
        T.Game = r.lookupEnum('tourney.v1.Game').values;
        T.CodeState = r.lookupEnum('tourney.v1.CodeState').values;
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
        if (!Array.isArray(S.store.reqs))
            S.store.reqs = [];
        if (!Array.isArray(S.store.tapped))
            S.store.tapped = []; /* the drafts a player confirmed on this phone */
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

    /* The newest report of this phone (its own submission, or the table's
     * draft its players confirmed) for the table's current round that
     * still stands (not refused, not replaced), or null.  Another phone
     * of the table may have reported something else meanwhile (its
     * submission is kept here too): this phone shows its own. */
    function ownEntry() {
        var a = S.assign;
        if (!a)
            return null;
        for (var i = S.store.outbox.length - 1; i >= 0; i--) {
            var e = S.store.outbox[i];
            if (e.own && e.event === a.event_id && e.round === a.round && e.table === a.table &&
                e.status !== 'rejected' && e.status !== 'replaced')
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
         * offline when the phone goes away (first visit: the id is learnt
         * from the assignment, devReady sets the will and reconnects; a
         * player code's will is its own login's, set once its status
         * is read). */
        var w = wantWill();
        S.willKey = w ? w.key : '';
        S.reconnecting = false;
        if (w)
            opts.will = w.will;
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
        S.error = t('The code {code} is not a sign-in code of this event: check it, or ask the organiser for yours.', {code: shown(S.code)});
        root.sessionStorage.removeItem('tourney.play.code');
        render();
    }

    function onConnect() {
        S.connected = true;
        S.reconnecting = false;
        S.error = '';
        if (S.screen === 'connecting')
            S.screen = 'table';
        S.client.subscribe([P + 'device/+/assign', P + 'device/+/ack', P + 'hub/state',
            P + 'code/+/status', P + 'code/+/ack'], {qos: 1});
        /* What was learnt while reconnecting may want another will. */
        if (willChanged()) {
            render();
            return;
        }
        if (S.dev)
            devReady();
        loginPresence();
        resendAll();
        resendReqs();
        render();
    }

    /* The connection's last will: a player code's pages say whether the
     * player is signed in on their own login's presence (the dashboard's
     * "phone 1/2"; the table's device is shared by every phone of the
     * table, so a player's will cannot be its); a table code's page,
     * offline on its device's presence. */
    function wantWill() {
        if (isPlayer() && S.login && S.status.state === T.CodeState.CODE_VALID)
            return {key: 'code:' + S.login, will: {topic: P + 'code/' + S.login + '/presence', qos: 1,
                retain: true, payload: encode('Presence', {device_id: S.login, state: 2})}};
        if (S.dev)
            return {key: 'dev:' + S.dev, will: {topic: P + 'device/' + S.dev + '/presence', qos: 1,
                retain: true, payload: encode('Presence', {device_id: S.dev, state: 2})}};
        return null;
    }

    /* A connection whose will is not the one wanted (a first visit, a
     * code re-pointed at another table, a player code's status read):
     * the will in the client's options and a clean reconnect
     * (DISCONNECT: no will fires); onConnect comes back and looks again.
     * Never a second reconnect while one is under way: mqtt.js would open
     * two connections, and the one it drops would fire its will after
     * the other said online.  True when it reconnects (or one is under
     * way). */
    function willChanged() {
        if (S.reconnecting)
            return true;
        var w = wantWill();
        if (!w || w.key === S.willKey || !S.client)
            return false;
        S.client.options.will = w.will;
        S.willKey = w.key;
        S.reconnecting = true;
        S.client.reconnect();
        return true;
    }

    /* A player code's pages: the player is signed in (retained; the
     * will says offline). */
    function loginPresence() {
        if (!S.client || !S.connected || !isPlayer() || !S.login || S.status.state !== T.CodeState.CODE_VALID)
            return;
        S.client.publish(P + 'code/' + S.login + '/presence',
            encode('Presence', {device_id: S.login, state: 1, software_version: 'play.html', device_time_ms: Date.now()}),
            {qos: 1, retain: true});
    }

    function devReady() {
        if (willChanged())
            return;
        S.client.subscribe([P + 'time/' + S.dev + '/resp'], {qos: 0});
        S.client.subscribe([P + 'device/' + S.dev + '/draft'], {qos: 1});
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
            } else if ((m = /^tourney\/v1\/device\/([^/]+)\/draft$/.exec(topic))) {
                if (m[1] === S.dev)
                    onDraft(bytes);
            } else if ((m = /^tourney\/v1\/code\/([^/]+)\/status$/.exec(topic))) {
                if (bytes.length)
                    onStatus(m[1], decode('CodeStatus', bytes));
            } else if ((m = /^tourney\/v1\/code\/([^/]+)\/ack$/.exec(topic))) {
                onPlayerAck(decode('PlayerAck', bytes));
            } else if (topic === P + 'hub/state') {
                if (String.fromCharCode.apply(null, bytes) === 'online') {
                    resendAll();
                    resendReqs();
                }
            }
        } catch (e) {
            S.error = t('A message could not be read: {what}', {what: e.message});
        }
        render();
    }

    function onAssign(dev, bytes) {
        var first = !S.dev;
        if (S.dev && S.dev !== dev) {
            /* A player's code re-pointed at the table of a new round: the
             * new device's versions are its own. */
            first = true;
            S.assign = null;
            S.assignVersion = 0;
            S.clock = null;
        }
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
        S.formError = '';
        loadDraft(a);
        if (first)
            devReady();
        else
            presence();
    }

    /* ---- a code's own status and a player's requests (issue 20) ---------- */

    function onStatus(login, st) {
        if (S.status && st.version <= S.status.version)
            return; /* a stale retained copy */
        if (!st.name && S.status && S.status.player_id === st.player_id)
            st.name = S.status.name; /* withdrawn: the hub knows it no more */
        S.login = login;
        S.status = st;
        /* the event's language first: a code that no longer works says
         * why in it too */
        language((S.assign && S.assign.language) || st.language || '');
        var cs = T.CodeState;
        if (st.state !== cs.CODE_VALID) {
            var words = {};
            words[cs.CODE_REVOKED] = t('The code {code} was revoked by the organiser: ask them for a new one.', {code: shown(S.code)});
            words[cs.CODE_EXPIRED] = t('The code {code} has expired: the event {event} is over.', {code: shown(S.code),
                event: st.event_title || st.event_id});
            words[cs.CODE_DROPPED] = t('{name}, you have left the event: the code {code} no longer works.', {name: st.name || st.player_id,
                code: shown(S.code)});
            S.ended = words[st.state] || t('The code {code} no longer works.', {code: shown(S.code)});
            S.screen = 'ended';
            root.sessionStorage.removeItem('tourney.play.code');
            if (S.client) {
                S.client.end(true);
                S.client = null;
            }
            S.connected = false;
            return;
        }
        if (S.connected && !willChanged())
            loginPresence();
    }

    function isPlayer() {
        return !!(S.status && S.status.player_id);
    }

    /* The table the page shows: a player code's only while the player
     * sits there in the status's round (the table of an earlier round, or
     * the next round's assignment of the device they just left for a bye
     * or another table, delivered before the hub re-pointed the code, is
     * not theirs). */
    function shownAssign() {
        var a = S.assign;
        if (!a || !a.table || !isPlayer())
            return a;
        var st = S.status;
        var seated = (a.seats || []).some(function (x) {
            return x.player_id === st.player_id;
        });
        return seated && a.round >= st.round ? a : null;
    }

    /* A check-in (1) or a "drop me" (2): kept before it is shown as sent,
     * resent until the hub answers (the same key). */
    function request(kind) {
        var st = S.status;
        if (!st || !S.login)
            return;
        S.store.seq += 1;
        var key = (S.login + '.' + (kind === 1 ? 'in' : 'drop') + '.' + S.store.boot + '.' + S.store.seq).slice(0, 64);
        var r = {key: key, kind: kind, status: 'sent', reason: '', login: S.login,
            bytes: b64(encode('PlayerRequest', {idempotency_key: key, kind: kind, event_id: st.event_id,
                player_id: st.player_id}))};
        S.store.reqs.push(r);
        save();
        sendReq(r);
        render();
    }
    function sendReq(r) {
        if (!S.client || !S.connected || r.login !== S.login)
            return;
        r.next = Date.now() + 5000;
        S.client.publish(P + 'code/' + r.login + '/req', unb64(r.bytes), {qos: 1});
    }
    function resendReqs() {
        if (!S.store)
            return;
        S.store.reqs.forEach(function (r) {
            if (r.status === 'sent')
                sendReq(r);
        });
    }
    function onPlayerAck(ack) {
        S.store.reqs.forEach(function (r) {
            if (r.key !== ack.idempotency_key)
                return;
            r.status = ack.accepted ? 'stored' : 'refused';
            r.reason = ack.reason_text || '';
        });
        save();
    }
    function lastReq(kind) {
        for (var i = S.store.reqs.length - 1; i >= 0; i--)
            if (S.store.reqs[i].kind === kind && S.store.reqs[i].login === S.login)
                return S.store.reqs[i];
        return null;
    }

    /* The player's panel: who they are, check-in before round 1, "drop me"
     * after. */
    function playerPanel(a) {
        var st = S.status;
        var seat = st.seat;
        if (a && a.seats)
            a.seats.forEach(function (x) {
                if (x.player_id === st.player_id)
                    seat = x.seat;
            });
        var h = '<div class="panel" id="me"><p class="who" id="whoami">' +
            esc(seat ? t('You are {name}, seat {seat}', {name: st.name || st.player_id, seat: seat})
                : t('You are {name}', {name: st.name || st.player_id})) + '</p>';
        if (st.table_device)
            h += '<p class="dim" id="pi-table">' + esc(t('Your table {table} has a table device: enter the result there.',
                {table: st.table})) + '</p>';
        var r;
        if (!st.round) {
            r = lastReq(1);
            if (st.checked_in)
                h += '<p class="state stored" id="checkin-state">' + esc(t('Checked in: wait for the pairings.')) + '</p>';
            else if (r && r.status === 'sent')
                h += '<p class="state sent" id="checkin-state">' + esc(t('Check-in sent: waiting for the hub')) + '</p>';
            else
                h += (r && r.status === 'refused' ? '<p class="error">' + esc(r.reason) + '</p>' : '') +
                    '<button id="checkin">' + esc(t('I am here: check in')) + '</button>';
        } else {
            r = lastReq(2);
            if (st.drop_requested)
                h += '<p class="state pending" id="drop-state">' + esc(t('You asked to drop: the organiser confirms.')) + '</p>';
            else if (r && r.status === 'sent')
                h += '<p class="state sent" id="drop-state">' + esc(t('Drop request sent: waiting for the hub')) + '</p>';
            else if (S.dropAsk)
                h += '<p>' + esc(t('Leave the event after this round?')) + '</p><button id="drop-yes">' +
                    esc(t('Yes, drop me')) + '</button><button class="choice" id="drop-no">' + esc(t('No')) + '</button>';
            else
                h += (r && r.status === 'refused' ? '<p class="error">' + esc(r.reason) + '</p>' : '') +
                    '<button class="choice" id="drop">' + esc(t('Drop me from the event')) + '</button>';
        }
        return h + '</div>';
    }
    function wirePlayer() {
        if ($('checkin'))
            $('checkin').onclick = function () {
                request(1);
            };
        if ($('drop'))
            $('drop').onclick = function () {
                S.dropAsk = true;
                render();
            };
        if ($('drop-no'))
            $('drop-no').onclick = function () {
                S.dropAsk = false;
                render();
            };
        if ($('drop-yes'))
            $('drop-yes').onclick = function () {
                S.dropAsk = false;
                request(2);
            };
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

    /* ---- the result form, from the engine's result schema ---------------
     *
     * vendor/result-schema.js (`tourney result-schema --js`, install.sh)
     * declares each game's keys (event-file names, wire names, kinds) and
     * each shipped format's ranges: the form asks for those keys, in that
     * order, in the ranges of the event's format (the protocol's bounds
     * for a format that is not a preset; the hub's check decides).  Where
     * a key goes in the GameResult message is read from the protocol's
     * own types (protobufjs reflection over proto/common.proto): a key's
     * wire name is a field of the game's message (winner_id, draw,
     * hq_diff, modified, games, default_winner_id) or of its per-player
     * entries (players[].score, vp, ip, bp, clock_ms; armies[].army).
     * What the schema leaves to the adapters (result_schema.h), the page
     * keeps minimal: the outcome keys (a winner, a draw, a default win,
     * an intentional draw, a double loss) are one choice; a draw or a
     * default has no HQ difference and, without a winner key (TX), no
     * scores; kinds "points" (TX-4, TX-7) are the organiser's and "texts"
     * (CM-4 lots) are not entered at a table. */

    var OUTCOME_FLAGS = ['draw', 'intentional_draw', 'double_loss'];
    var LABELS = {
        hq_diff: N_('HQ difference'),
        armies: N_('Army played'),
        scores: N_('Score'),
        clock_ms: N_('Chess clock used (m:ss)'),
        vp: N_('Victory points (VP)'),
        ip: N_('Improvement points (IP)'),
        bp: N_('Bonus points (BP)'),
        modified: N_('Modified win'),
        draw: N_('Draw'),
        intentional_draw: N_('Intentional draw'),
        double_loss: N_('Double loss')
    };
    var SHORT = {
        hq_diff: N_('HQ difference'), scores: N_('points'), clock_ms: N_('on the clock'),
        vp: N_('VP'), ip: N_('IP'), bp: N_('BP'), armies: N_('army'),
        tp: N_('TP') /* an organiser's decision (TX-4): points, not entered here */
    };
    function N_(s) {
        return s;
    }

    /* The schema of a's game and format: {game, keys, ranges, member,
     * type}, or null when the page has no schema or the game is unknown. */
    function schemaFor(a) {
        var doc = root.TOURNEY_RESULT_SCHEMA;
        if (!doc || !T)
            return null;
        var g = null, f = null;
        /* The event's game by its format (a game with another's message
         * and keys of its own, "shape"), else the message's own game. */
        doc.formats.forEach(function (x) {
            if (x.format === a.format_name)
                f = x;
        });
        doc.games.forEach(function (x) {
            if (T.Game[x.wire_game] === a.game && (x.shape ? f && x.game === f.game : !g))
                g = x;
        });
        if (!g)
            return null;
        if (f && f.game !== g.game)
            f = null;
        /* The GameResult member of the game: the oneof field whose number
         * is the Game value (proto/common.proto numbers them alike). */
        var member = null;
        T.GameResult.oneofs.game.fieldsArray.forEach(function (fl) {
            if (fl.id === a.game)
                member = fl;
        });
        if (!member)
            return null;
        member.resolve();
        var type = member.resolvedType;
        var keys = [];
        g.keys.forEach(function (k) {
            /* a module's own key: GameResult.values, by name */
            var where = k.module ? {values: true} : wireOf(type, k.wire);
            if (!where)
                return;
            var range = f && f.ranges[k.name] ? f.ranges[k.name] : k.wire_range || k.module || null;
            keys.push({name: k.name, kind: k.kind, max: k.max_items, wire: k.wire, where: where,
                range: range, rule: k.wire_range ? k.wire_range.rule : k.module ? k.module.rule || '' : '',
                text: k.module ? k.module.text : ''});
        });
        return {game: g.game, keys: keys, member: member.name, allowed: f && f.outcomes ? f.outcomes : {}};
    }
    /* Where wire name w sits in message type: {list: null} on the message
     * itself, {list: 'players'} in its per-player entries; null: nowhere. */
    function wireOf(type, w) {
        if (type.fields[w])
            return {list: null};
        var found = null;
        type.fieldsArray.forEach(function (fl) {
            if (found || !fl.repeated)
                return;
            fl.resolve();
            if (fl.resolvedType && fl.resolvedType.fields && fl.resolvedType.fields[w] &&
                fl.resolvedType.fields.player_id)
                found = {list: fl.name};
        });
        return found;
    }
    function hasKey(sch, name) {
        return sch.keys.some(function (k) {
            return k.name === name;
        });
    }

    /* The keys the table enters on this assignment. */
    function shownKeys(a, sch) {
        var armies = a.seats.some(function (s) {
            return (s.armies || []).length > 0;
        });
        return sch.keys.filter(function (k) {
            if (k.kind === 'points' || k.kind === 'texts')
                return false;
            if (k.name === 'clock_ms')
                return a.chess_clock_limit_ms > 0;
            if (k.kind === 'players')
                return !!a.best_of_three;
            if (k.name === 'winner' && a.best_of_three && hasKey(sch, 'games'))
                return false;
            if (k.kind === 'army')
                return armies;
            return true;
        });
    }

    /* The outcome choices: [{id, key, player, text}]; "scores" (the
     * scores decide) where the game has scores. */
    function outcomes(a, sch, keys) {
        var out = [];
        var perScores = keys.some(function (k) {
            return k.name === 'scores';
        });
        keys.forEach(function (k) {
            if (k.kind === 'player')
                a.seats.forEach(function (s) {
                    out.push({id: k.name + ':' + s.player_id, key: k.name, player: s.player_id,
                        text: k.name === 'winner' ? t('{name} won', {name: s.name})
                            : t('{name} wins by default', {name: s.name})});
                });
            else if (k.kind === 'flag' && OUTCOME_FLAGS.indexOf(k.name) >= 0 && sch.allowed[k.name] !== false)
                out.push({id: k.name, key: k.name, player: '', text: t(LABELS[k.name])});
        });
        if (out.length && perScores)
            out.unshift({id: 'scores', key: 'scores', player: '', text: t('Played: the scores decide')});
        return out;
    }

    /* Whether key k is asked for under the chosen outcome. */
    function askedUnder(sch, k, outcome) {
        var o = outcome || '';
        var nonWin = o === 'draw' || o === 'intentional_draw' || o === 'double_loss' || /^default_win:/.test(o);
        if (k.kind === 'number')
            return !nonWin;
        if (k.kind === 'flag' && OUTCOME_FLAGS.indexOf(k.name) < 0)
            return /^winner:/.test(o); /* GT-1 modified: a kind of win */
        if (k.kind === 'per_player' && !hasKey(sch, 'winner'))
            return !nonWin; /* TX: a draw or a default has no scores */
        return k.kind !== 'player' && OUTCOME_FLAGS.indexOf(k.name) < 0;
    }

    function rangeText(k) {
        return k.range ? t('{lo} to {hi}', {lo: k.range.lo, hi: k.range.hi}) : '';
    }

    /* "12:30" -> 750000 ms; NaN when not m:ss. */
    function parseClock(s) {
        var m = /^\s*(\d{1,3}):([0-5]\d)\s*$/.exec(s || '');
        return m ? (+m[1] * 60 + +m[2]) * 1000 : NaN;
    }

    /* The form's values as a GameResult member, or {error}. */
    function buildResult(a, sch, F) {
        var keys = shownKeys(a, sch);
        var outs = outcomes(a, sch, keys);
        var o = F.outcome || '';
        if (outs.length && !o && !outs.some(function (x) {
            return x.id === 'scores';
        }))
            return {error: t('Choose the outcome.')};
        if (!o && outs.length)
            o = 'scores';
        var msg = {};
        var lists = {};
        var values = [];
        function entry(list, pid) {
            if (!lists[list])
                lists[list] = {};
            if (!lists[list][pid])
                lists[list][pid] = {player_id: pid};
            return lists[list][pid];
        }
        /* Key k's value: in its message, its player's entry, or (a
         * module's own key) GameResult.values. */
        function put(k, pid, v) {
            if (k.where.values)
                values.push(pid ? {key: k.name, player_id: pid, value: +v} : {key: k.name, value: +v});
            else if (pid)
                entry(k.where.list, pid)[k.wire] = v;
            else
                msg[k.wire] = v;
        }
        var chosen = outs.filter(function (x) {
            return x.id === o;
        })[0];
        if (chosen && chosen.player)
            msg[wireName(sch, chosen.key)] = chosen.player;
        else if (chosen && chosen.key !== 'scores')
            msg[wireName(sch, chosen.key)] = true;
        var err = '';
        keys.forEach(function (k) {
            if (err || !askedUnder(sch, k, o))
                return;
            var label = t(LABELS[k.name] || k.text || k.name);
            if (k.kind === 'flag') {
                if (F.flags[k.name])
                    put(k, null, true);
            } else if (k.kind === 'number') {
                var v = String(F.numbers[k.name] == null ? '' : F.numbers[k.name]).trim();
                if (!/^-?\d+$/.test(v))
                    err = t('{what}: enter a whole number ({range}).', {what: label, range: rangeText(k)});
                else if (k.range && (+v < k.range.lo || +v > k.range.hi))
                    err = t('{what}: {value} is outside {range}.', {what: label, value: v, range: rangeText(k)});
                else
                    put(k, null, +v);
            } else if (k.kind === 'per_player') {
                /* 2p: scores or an outcome; TX-3: the clock only where one ran */
                var optional = (k.name === 'scores' && hasKey(sch, 'winner')) || k.name === 'clock_ms';
                var blank = a.seats.every(function (s) {
                    return String((F.per[k.name] || {})[s.player_id] || '').trim() === '';
                });
                if (optional && blank)
                    return;
                a.seats.forEach(function (s) {
                    if (err)
                        return;
                    var raw = String((F.per[k.name] || {})[s.player_id] || '').trim();
                    var who = t('{what} of {name}', {what: label, name: s.name});
                    var n;
                    if (k.name === 'clock_ms') {
                        n = parseClock(raw);
                        if (isNaN(n))
                            err = t('{what}: enter minutes:seconds, like 24:30.', {what: who});
                    } else if (!/^-?\d+$/.test(raw)) {
                        err = t('{what}: enter a whole number ({range}).', {what: who, range: rangeText(k)});
                    } else {
                        n = +raw;
                    }
                    if (!err && k.range && (n < k.range.lo || n > k.range.hi))
                        err = t('{what}: {value} is outside {range}.', {what: who, value: raw, range: rangeText(k)});
                    if (!err)
                        put(k, s.player_id, n);
                });
            } else if (k.kind === 'army') {
                a.seats.forEach(function (s) {
                    var v = (F.per[k.name] || {})[s.player_id] || '';
                    if (!err && !v)
                        err = t('Choose the army {name} played.', {name: s.name});
                    else if (v)
                        entry(k.where.list, s.player_id)[k.wire] = v;
                });
            } else if (k.kind === 'players') {
                var games = (F.games || []).filter(Boolean);
                var wins = {};
                games.forEach(function (p) {
                    wins[p] = (wins[p] || 0) + 1;
                });
                var done = Object.keys(wins).some(function (p) {
                    return wins[p] >= 2;
                });
                if (!done)
                    err = t('Best of three: choose the winner of each game until a player has won two.');
                else
                    msg[k.wire] = games;
            }
        });
        if (err)
            return {error: err};
        Object.keys(lists).forEach(function (list) {
            msg[list] = a.seats.filter(function (s) {
                return lists[list][s.player_id];
            }).map(function (s) {
                return lists[list][s.player_id];
            });
        });
        var result = {};
        result[sch.member] = msg;
        if (values.length)
            result.values = values;
        return {result: result, summary: summaryLines(a, sch, F, o, keys)};
    }
    function wireName(sch, name) {
        var w = '';
        sch.keys.forEach(function (k) {
            if (k.name === name)
                w = k.wire;
        });
        return w;
    }

    /* The result in words, one line each: what every player confirms. */
    function summaryLines(a, sch, F, o, keys) {
        var lines = [];
        var name = function (pid) {
            var s = a.seats.filter(function (x) {
                return x.player_id === pid;
            })[0];
            return s ? s.name : pid;
        };
        var outs = outcomes(a, sch, keys);
        outs.forEach(function (x) {
            if (x.id === o && x.id !== 'scores')
                lines.push(x.text);
        });
        keys.forEach(function (k) {
            if (!askedUnder(sch, k, o))
                return;
            if (k.kind === 'flag' && F.flags[k.name])
                lines.push(t(LABELS[k.name] || k.text || k.name));
            else if (k.kind === 'number')
                lines.push(t('{what}: {value}', {what: t(LABELS[k.name] || k.text || k.name), value: F.numbers[k.name]}));
            else if (k.kind === 'players')
                (F.games || []).filter(Boolean).forEach(function (p, i) {
                    lines.push(t('Game {n}: {name}', {n: i + 1, name: name(p)}));
                });
        });
        a.seats.forEach(function (s) {
            var parts = [];
            keys.forEach(function (k) {
                if (!askedUnder(sch, k, o) || (k.kind !== 'per_player' && k.kind !== 'army'))
                    return;
                var v = String((F.per[k.name] || {})[s.player_id] || '').trim();
                if (v !== '')
                    parts.push(k.kind === 'army' ? armyName(v) : t('{value} {what}', {value: v, what: t(SHORT[k.name] || k.name)}));
            });
            if (parts.length)
                lines.push(s.name + ': ' + parts.join(', '));
        });
        return lines;
    }

    /* ---- the organiser's result -------------------------------------------
     *
     * TableAssignment.organiser_result_json is the event-file result object
     * (docs/event-file.md) the organiser entered: its keys are the schema's
     * names, so it reads back into the form's values, which the page words
     * as it words an entry (summaryLines) and builds into the GameResult it
     * stands for (buildResult: compared with this phone's own report).  A
     * key the table does not enter (TX-4's TP) gets a line of its own. */
    function organiserForm(sch, doc) {
        var F = emptyForm();
        var obj = function (v) {
            return v && typeof v === 'object' && !Array.isArray(v);
        };
        sch.keys.forEach(function (k) {
            var v = doc[k.name];
            if (v == null)
                return;
            if (k.kind === 'player' && typeof v === 'string')
                F.outcome = k.name + ':' + v;
            else if (k.kind === 'flag' && v === true && OUTCOME_FLAGS.indexOf(k.name) >= 0)
                F.outcome = k.name;
            else if (k.kind === 'flag' && v === true)
                F.flags[k.name] = true;
            else if (k.kind === 'number')
                F.numbers[k.name] = String(v);
            else if ((k.kind === 'per_player' || k.kind === 'army') && obj(v)) {
                F.per[k.name] = {};
                for (var pid in v)
                    F.per[k.name][pid] = k.name === 'clock_ms' && typeof v[pid] === 'number'
                        ? Math.floor(v[pid] / 60000) + ':' + ('0' + Math.floor(v[pid] / 1000) % 60).slice(-2)
                        : String(v[pid]);
            } else if (k.kind === 'players' && Array.isArray(v))
                F.games = v.map(String);
        });
        return F;
    }
    /* {lines, result}: the organiser's result of a in words, and as a
     * GameResult (null when the form cannot say it). */
    function organiserResult(a) {
        var doc = null;
        try {
            doc = JSON.parse(a.organiser_result_json);
        } catch (e) {
            doc = null;
        }
        var sch = schemaFor(a);
        if (!doc || typeof doc !== 'object' || !sch)
            return {lines: [], result: null};
        var F = organiserForm(sch, doc);
        var keys = shownKeys(a, sch);
        var outs = outcomes(a, sch, keys);
        var o = F.outcome || (outs.some(function (x) {
            return x.id === 'scores';
        }) ? 'scores' : '');
        var lines = summaryLines(a, sch, F, o, keys);
        sch.keys.forEach(function (k) {
            var v = doc[k.name];
            if (k.kind !== 'points' || !v || typeof v !== 'object')
                return;
            a.seats.forEach(function (s) {
                if (typeof v[s.player_id] === 'number')
                    lines.push(s.name + ': ' + t('{value} {what}', {value: I18N ? I18N.number(v[s.player_id], 2)
                        : String(v[s.player_id]), what: t(SHORT[k.name] || k.name)}));
            });
        });
        var built = buildResult(a, sch, F);
        return {lines: lines, result: built.result || null};
    }
    /* Whether two GameResult objects say the same (the protocol's own
     * normal form of each). */
    function sameResult(x, y) {
        var norm = function (r) {
            return JSON.stringify(T.GameResult.toObject(T.GameResult.fromObject(r || {}),
                {longs: Number, enums: Number, defaults: false, arrays: true}));
        };
        return norm(x) === norm(y);
    }

    /* The entry draft of this table (kept across a reload: sessionStorage
     * is not enough, a locked phone's tab may be discarded). */
    function draftKey(a) {
        return 'tourney.play.draft.' + S.code + '.' + a.event_id + '.' + a.round + '.' + a.table;
    }
    function emptyForm() {
        return {outcome: '', flags: {}, numbers: {}, per: {}, games: []};
    }
    function loadDraft(a) {
        var d = null;
        try {
            d = JSON.parse(root.localStorage.getItem(draftKey(a)) || 'null');
        } catch (e) {
            d = null;
        }
        S.form = d && d.form ? d.form : emptyForm();
        S.confirming = !!(d && d.confirming);
        S.confirmed = d && d.confirmed ? d.confirmed : {};
        S.draftId = d && d.id ? d.id : '';
        S.draftT = d && d.t ? d.t : 0;
    }
    function saveDraft() {
        var a = S.assign;
        if (!a || !a.table)
            return;
        try {
            root.localStorage.setItem(draftKey(a), JSON.stringify({form: S.form, confirming: S.confirming,
                confirmed: S.confirmed, id: S.draftId, t: S.draftT}));
        } catch (e) {
            /* storage off: the draft lives in the page only */
        }
    }
    function dropDraft() {
        try {
            root.localStorage.removeItem(draftKey(S.assign));
        } catch (e) {
            /* nothing kept */
        }
    }

    /* ---- the table's shared draft ---------------------------------------
     *
     * Every phone signed in with the table's code (one shared phone, or
     * each player's own) shows the same confirmation: the result being
     * confirmed is a retained JSON message on device/{dev}/draft (the
     * code's role allows it; the hub never reads it, docs/protocol.md
     * "Table pages"): {v, id, t, event, round, table, form, confirmed}.
     * A player taps "I confirm" on any phone; the phones merge the
     * confirmations of one draft id (a union), a newer draft (t, then id)
     * replaces an older one, an empty message means "back to the form".
     * The phone that sees every player confirmed submits with the key
     * DEV.ID (every phone would make the same key: the hub stores it
     * once) and publishes the draft with key and bytes, so every phone
     * keeps and resends the same submission until the hub acks it. */

    /* A form from another phone, with the types the form code expects. */
    function cleanForm(f) {
        var out = emptyForm();
        var obj = function (x) {
            return x && typeof x === 'object' && !Array.isArray(x) ? x : {};
        };
        if (!f || typeof f !== 'object')
            return out;
        out.outcome = typeof f.outcome === 'string' ? f.outcome : '';
        out.flags = obj(f.flags);
        out.numbers = obj(f.numbers);
        var per = obj(f.per);
        for (var k in per)
            out.per[k] = obj(per[k]);
        out.games = Array.isArray(f.games) ? f.games.slice(0, 3).map(function (g) {
            return typeof g === 'string' ? g : '';
        }) : [];
        return out;
    }
    function newDraft() {
        S.draftId = Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
        S.draftT = Date.now();
    }
    function publishDraft(extra) {
        var a = S.assign;
        if (!S.client || !S.dev || !a)
            return;
        var payload = '';
        if (S.draftId) {
            var d = {v: 1, id: S.draftId, t: S.draftT, event: a.event_id, round: a.round, table: a.table,
                form: S.form, confirmed: S.confirmed};
            for (var k in extra || {})
                d[k] = extra[k];
            payload = JSON.stringify(d);
        }
        S.client.publish(P + 'device/' + S.dev + '/draft', payload, {qos: 1, retain: true});
    }
    function allConfirmed(a) {
        return a.seats.every(function (x) {
            return S.confirmed[x.player_id];
        });
    }
    function onDraft(bytes) {
        var a = S.assign;
        if (!a || !a.table)
            return;
        if (!bytes.length) {
            if (S.confirming && S.draftId) {
                S.confirming = false;
                S.confirmed = {};
                S.draftId = '';
                saveDraft();
            }
            return;
        }
        var d = JSON.parse(new TextDecoder().decode(bytes));
        if (!d || typeof d !== 'object' || d.event !== a.event_id || d.round !== a.round || d.table !== a.table)
            return; /* another round's */
        if (typeof d.id !== 'string' || typeof d.t !== 'number' || (d.key && (typeof d.key !== 'string' ||
            typeof d.bytes !== 'string')))
            throw new Error('device/' + S.dev + '/draft: not a draft');
        d.form = cleanForm(d.form);
        d.confirmed = d.confirmed && typeof d.confirmed === 'object' ? d.confirmed : {};
        d.lines = Array.isArray(d.lines) ? d.lines.map(String) : [];
        if (d.key) {
            /* submitted by a phone of the table: keep it and resend it too */
            if (!S.store.outbox.some(function (e) {
                return e.key === d.key;
            })) {
                /* this phone's report too when a player confirmed that
                 * draft here (the last seat confirmed on another phone) */
                var entry = {key: d.key, event: a.event_id, round: a.round, table: a.table, dev: S.dev, bytes: d.bytes,
                    status: 'sent', reason: '', lines: d.lines || [], tries: 0, next: 0, stopped_hub_ms: hubNow(),
                    own: S.store.tapped.indexOf(d.id) >= 0};
                S.store.outbox.push(entry);
                save();
                send(entry);
            }
            S.confirming = false;
            S.confirmed = {};
            S.draftId = '';
            dropDraft();
            return;
        }
        if (d.id !== S.draftId) {
            if (S.draftId && S.confirming && (d.t < S.draftT || (d.t === S.draftT && d.id < S.draftId))) {
                publishDraft(); /* ours is newer */
                return;
            }
            S.draftId = d.id;
            S.draftT = d.t;
            S.form = d.form || emptyForm();
            S.confirming = true;
            S.confirmed = d.confirmed || {};
            S.formError = '';
            saveDraft();
            return;
        }
        var mine = false;
        for (var pid in S.confirmed)
            if (S.confirmed[pid] && !(d.confirmed || {})[pid])
                mine = true;
        for (var q in d.confirmed || {})
            if (d.confirmed[q])
                S.confirmed[q] = true;
        S.confirming = true;
        saveDraft();
        if (allConfirmed(a))
            submit();
        else if (mine)
            publishDraft();
    }

    /* ---- results ----------------------------------------------------------- */

    function submit() {
        var a = S.assign;
        var sch = schemaFor(a);
        var built = buildResult(a, sch, S.form);
        if (built.error) {
            S.formError = built.error;
            S.confirming = false;
            render();
            return;
        }
        var ids = a.seats.map(function (s) {
            return s.player_id;
        });
        S.store.seq += 1;
        var key = (S.draftId ? S.dev + '.' + S.draftId : S.dev + '.' + S.store.boot + '.' + S.store.seq).slice(0, 64);
        if (S.store.outbox.some(function (x) {
            return x.key === key;
        }))
            return; /* this draft is submitted already */
        var sub = {
            idempotency_key: key,
            device_id: S.dev,
            event_id: a.event_id,
            round: a.round,
            table: a.table,
            assignment_version: a.version,
            result: built.result,
            confirmed_by: ids.filter(function (id) {
                return S.confirmed[id];
            }),
            table_time_ms: Date.now()
        };
        var entry = {key: key, event: a.event_id, round: a.round, table: a.table, dev: S.dev,
            bytes: b64(encode('ResultSubmission', sub)), status: 'sent', reason: '',
            lines: built.summary, tries: 0, next: 0, own: true,
            stopped_hub_ms: hubNow()};
        /* Kept before it is shown as sent (and before the first try). */
        S.store.outbox.push(entry);
        save();
        publishDraft({key: key, bytes: entry.bytes, lines: entry.lines});
        S.confirming = false;
        S.confirmed = {};
        S.draftId = '';
        dropDraft();
        send(entry);
        presence();
        render();
    }

    function send(e) {
        /* A player's code at another table now: its old table's device
         * is no longer its to write (the hub answered it there). */
        if (!S.client || !S.connected || !S.dev || (e.dev && e.dev !== S.dev))
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
        if (S.store && S.connected) {
            S.store.outbox.forEach(function (e) {
                if (e.status === 'sent' && e.next && now >= e.next)
                    send(e);
            });
            S.store.reqs.forEach(function (r) {
                if (r.status === 'sent' && r.next && now >= r.next)
                    sendReq(r);
            });
        }
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
        if (S.screen === 'ended') {
            page.innerHTML = '<div class="panel"><h1>' + esc(t('This code no longer works')) + '</h1>' +
                '<p class="error" id="ended" role="alert">' + esc(S.ended) + '</p>' +
                '<button id="again">' + esc(t('Sign in with another code')) + '</button></div>';
            $('again').onclick = function () {
                S.screen = 'signin';
                S.code = '';
                S.error = '';
                render();
            };
            return;
        }
        var net = S.connected ? t('connected') : t('offline: results are kept on this phone and sent when the network is back');
        h += '<p class="net dim" id="net">' + esc(net) + '</p>';
        if (S.error)
            h += '<p class="error" id="error" role="alert">' + esc(S.error) + '</p>';
        var a = shownAssign();
        var me = isPlayer() ? playerPanel(a) : '';
        if (!a || !a.table) {
            var st = S.status;
            var bye = isPlayer() && st.bye && st.round > 0;
            var title = !a && S.screen === 'connecting' && !st ? t('Signing in...')
                : bye ? t('Bye in round {round}', {round: st.round})
                    : isPlayer() && st.table_device && st.table ? t('Table {table}', {table: st.table})
                        : a ? t('No table this round') : t('No table yet');
            h += '<div class="panel"><h1 id="title">' + esc(title) + '</h1>' + '<p class="dim">' +
                esc(a ? a.event_title || a.event_id : st ? st.event_title || st.event_id
                    : t('Code {code}', {code: shown(S.code)})) + '</p>';
            if (bye)
                h += '<p class="state stored" id="bye">' + esc(st.bye_points
                    ? t('You have a bye this round (points: {points}): no game to play.',
                        {points: I18N ? I18N.number(st.bye_points / UNITS, 2) : String(st.bye_points / UNITS)})
                    : t('You have a bye this round: no game to play.')) + '</p>';
            h += '</div>' + me;
            page.innerHTML = h;
            wirePlayer();
            return;
        }
        h += '<div class="panel" id="table"><h1>' + esc(t('Table {table}', {table: a.table})) + '</h1>' +
            '<p class="dim">' + esc(a.event_title || a.event_id) + ' · ' + esc(t('Round {round}', {round: a.round})) +
            (a.stage_name ? ' · ' + esc(stageText(a.stage_name)) : '') + '</p>' +
            '<div class="clock" id="clock"></div></div>';
        h += '<div class="panel"><h2>' + esc(t('Players')) + '</h2>';
        a.seats.forEach(function (s) {
            var extra = [s.faction, s.agenda, s.side, s.first_player ? t('starts') : ''].filter(Boolean).join(' · ');
            h += '<div class="seat"><span class="no">' + esc(t('Seat {seat}', {seat: s.seat})) + '</span><span class="who"><span class="name">' +
                esc(s.name) + '</span>' + (extra ? '<br><span class="dim">' + esc(extra) + '</span>' : '') + '</span></div>';
        });
        h += '</div>';
        h += me;
        h += resultPanel(a);
        var keep = typing();
        page.innerHTML = h;
        wire(a);
        wirePlayer();
        keepTyping(keep);
        tick();
    }

    /* The field a player is typing in, kept across a redraw: a reconnect
     * or a retained message delivered again redraws the page, which must
     * not take the keyboard (and the next letters typed) away from them.
     * The field's value is the form's (wire() set it from S.form). */
    function typing() {
        var el = root.document && root.document.activeElement;
        if (!el || !el.id || (el.tagName !== 'INPUT' && el.tagName !== 'SELECT'))
            return null;
        var k = {id: el.id, start: null, end: null};
        try {
            k.start = el.selectionStart;
            k.end = el.selectionEnd;
        } catch (e) {
            /* a field without a selection */
        }
        return k;
    }
    function keepTyping(k) {
        var el = k && $(k.id);
        if (!el)
            return;
        el.focus();
        try {
            if (k.start != null)
                el.setSelectionRange(k.start, k.end);
        } catch (e) {
            /* a field without a selection */
        }
    }

    function resultPanel(a) {
        var h = '<div class="panel" id="result">';
        if (a.organiser_result_json) {
            /* the values the organiser entered; a report of this phone
             * they differ from (a conflict, or a stored one overridden)
             * is said to be overridden, with what it was */
            var org = organiserResult(a);
            h += '<h2>' + esc(t('Result')) + '</h2>' + linesHtml(org.lines, 'entered') +
                '<p class="state stored" id="state">' +
                esc(t('The organiser entered the result ({by}).', {by: a.organiser_result_by || ''})) + '</p>';
            var mine = ownEntry(), same = false;
            try {
                same = !!(mine && org.result && sameResult(decode('ResultSubmission', unb64(mine.bytes)).result, org.result));
            } catch (err) {
                same = false; /* a kept submission that no longer reads: not the organiser's */
            }
            if (mine && !same)
                h += '<p class="state conflict" id="overridden">' +
                    esc(t('Your report was overridden: the organiser decided the result above.')) + '</p>' +
                    '<p class="dim">' + esc(t('You reported:')) + '</p>' + linesHtml(mine.lines || [], 'reported');
            return h + '</div>';
        }
        var e = ownEntry() || currentEntry();
        if (e && e.status !== 'rejected' && e.status !== 'replaced') {
            var words = {
                sent: t('Sent: waiting for the hub'),
                stored: t('Stored by the hub'),
                pending: t('Stored by the hub: waiting for the other player\'s confirmation'),
                conflict: t('The hub has a different result for this table: the organiser decides')
            };
            var lines = e.lines || [t('{name} won', {name: e.summary})];
            return h + '<h2>' + esc(t('Result')) + '</h2>' + linesHtml(lines, 'entered') +
                '<p class="state ' + esc(e.status) + '" id="state">' + esc(words[e.status] || e.status) + '</p></div>';
        }
        var sch = schemaFor(a);
        if (!sch)
            return h + '<p class="dim">' + esc(t('This page has no result form for this game (vendor/result-schema.js is missing); use the table device or ask the organiser.')) + '</p></div>';
        if (e && e.status === 'rejected')
            h += '<p class="error" id="rejected">' + esc(t('The hub refused the result: {why}', {why: e.reason})) + '</p>';
        var F = S.form;
        var keys = shownKeys(a, sch);
        if (S.confirming) {
            var built = buildResult(a, sch, F);
            h += '<h2>' + esc(t('Confirm the result')) + '</h2>' + linesHtml(built.summary || [], 'summary') +
                '<p class="dim">' + esc(t('Each player taps their own name.')) + '</p>';
            a.seats.forEach(function (s, i) {
                var on = S.confirmed[s.player_id];
                /* A player's own code confirms only its own seat: the
                 * others confirm on their phones (or a table code's). */
                var other = isPlayer() && s.player_id !== S.status.player_id;
                h += '<button class="' + (on ? 'done' : 'choice') + '" id="ok' + i + '"' + (on || other ? ' disabled' : '') + '>' +
                    esc(on ? t('{name} confirmed', {name: s.name}) : other ? t('waiting for {name}', {name: s.name})
                        : t('{name}: I confirm', {name: s.name})) + '</button>';
            });
            h += '<button class="choice" id="back">' + esc(t('Back: change the result')) + '</button></div>';
            return h;
        }
        var outs = outcomes(a, sch, keys);
        var eff = F.outcome || (outs.some(function (x) {
            return x.id === 'scores';
        }) ? 'scores' : '');
        if (outs.length) {
            h += '<h2>' + esc(hasKey(sch, 'winner') ? t('Who won?') : t('Result')) + '</h2><div class="choices" id="outcome">';
            outs.forEach(function (x) {
                var id = x.key === 'winner' ? 'win' + seatIndex(a, x.player)
                    : x.key === 'default_win' ? 'dflt' + seatIndex(a, x.player) : 'out-' + x.id;
                h += '<button class="choice' + (eff === x.id ? ' on' : '') + '" id="' + id + '" data-out="' +
                    esc(x.id) + '">' + esc(x.text) + '</button>';
            });
            h += '</div>';
        }
        keys.forEach(function (k) {
            if (!askedUnder(sch, k, eff))
                return;
            var label = t(LABELS[k.name] || k.text || k.name);
            var rt = rangeText(k);
            if (k.kind === 'flag') {
                h += '<button class="choice toggle' + (F.flags[k.name] ? ' on' : '') + '" id="flag-' + k.name + '">' +
                    esc((F.flags[k.name] ? '\u2611 ' : '\u2610 ') + label) + '</button>';
            } else if (k.kind === 'number') {
                h += '<label class="field" for="num-' + k.name + '">' + esc(label) +
                    (rt ? ' <span class="dim">(' + esc(rt) + ')</span>' : '') + '</label>' +
                    '<input class="num" type="text" inputmode="numeric" id="num-' + k.name + '" autocomplete="off">';
            } else if (k.kind === 'per_player' || k.kind === 'army') {
                h += '<h3>' + esc(label) + (rt && k.name !== 'clock_ms' ? ' <span class="dim">(' + esc(rt) + ')</span>' : '') + '</h3>';
                a.seats.forEach(function (s, i) {
                    var id = 'pp-' + k.name + '-' + i;
                    h += '<div class="pp"><label for="' + id + '">' + esc(s.name) + '</label>';
                    if (k.kind === 'army') {
                        h += '<select id="' + id + '"><option value="">' + esc(t('choose')) + '</option>';
                        (s.armies || []).forEach(function (ar) {
                            h += '<option value="' + esc(ar) + '">' + esc(armyName(ar)) + '</option>';
                        });
                        h += '</select>';
                    } else {
                        h += '<input class="num" type="text" inputmode="' + (k.name === 'clock_ms' ? 'text' : 'numeric') +
                            '" id="' + id + '" autocomplete="off">';
                    }
                    h += '</div>';
                });
            } else if (k.kind === 'players') {
                for (var g = 0; g < k.max; g++) {
                    h += '<h3>' + esc(t('Game {n}: who won?', {n: g + 1})) + '</h3><div class="choices">';
                    a.seats.forEach(function (s, i) {
                        h += '<button class="choice' + (F.games[g] === s.player_id ? ' on' : '') + '" id="g' + g + '-' + i + '">' +
                            esc(s.name) + '</button>';
                    });
                    h += '</div>';
                }
            }
        });
        if (S.formError)
            h += '<p class="error" id="form-error" role="alert">' + esc(S.formError) + '</p>';
        h += '<button id="next">' + esc(t('Next: every player confirms')) + '</button></div>';
        return h;
    }
    function linesHtml(lines, id) {
        return '<ul class="lines" id="' + id + '">' + lines.map(function (l) {
            return '<li>' + esc(l) + '</li>';
        }).join('') + '</ul>';
    }
    function seatIndex(a, pid) {
        for (var i = 0; i < a.seats.length; i++)
            if (a.seats[i].player_id === pid)
                return i;
        return -1;
    }

    function wire(a) {
        var F = S.form;
        var sch = schemaFor(a);
        if (!sch)
            return;
        var page = $('result');
        if (!page)
            return;
        Array.prototype.forEach.call(page.querySelectorAll('[data-out]'), function (b) {
            b.onclick = function () {
                F.outcome = b.getAttribute('data-out');
                S.formError = '';
                saveDraft();
                render();
            };
        });
        shownKeys(a, sch).forEach(function (k) {
            var el;
            if (k.kind === 'flag' && (el = $('flag-' + k.name)))
                el.onclick = function () {
                    F.flags[k.name] = !F.flags[k.name];
                    saveDraft();
                    render();
                };
            if (k.kind === 'number' && (el = $('num-' + k.name))) {
                el.value = F.numbers[k.name] == null ? '' : F.numbers[k.name];
                el.oninput = function (ev) {
                    F.numbers[k.name] = ev.target.value;
                    saveDraft();
                };
            }
            if (k.kind === 'per_player' || k.kind === 'army')
                a.seats.forEach(function (s, i) {
                    var inp = $('pp-' + k.name + '-' + i);
                    if (!inp)
                        return;
                    F.per[k.name] = F.per[k.name] || {};
                    inp.value = F.per[k.name][s.player_id] || '';
                    inp.oninput = inp.onchange = function (ev) {
                        F.per[k.name][s.player_id] = ev.target.value;
                        saveDraft();
                    };
                });
            if (k.kind === 'players')
                for (var g = 0; g < k.max; g++)
                    a.seats.forEach(function (s, i) {
                        var b = $('g' + g + '-' + i);
                        var game = g;
                        if (b)
                            b.onclick = function () {
                                F.games[game] = F.games[game] === s.player_id ? '' : s.player_id;
                                saveDraft();
                                render();
                            };
                    });
        });
        a.seats.forEach(function (s, i) {
            var ok = $('ok' + i);
            if (ok && !(isPlayer() && s.player_id !== S.status.player_id))
                ok.onclick = function () {
                    S.confirmed[s.player_id] = true;
                    if (S.draftId && S.store.tapped.indexOf(S.draftId) < 0) {
                        S.store.tapped = S.store.tapped.slice(-15).concat([S.draftId]);
                        save();
                    }
                    if (allConfirmed(a)) {
                        submit();
                    } else {
                        saveDraft();
                        publishDraft();
                        render();
                    }
                };
        });
        if ($('next'))
            $('next').onclick = function () {
                var built = buildResult(a, sch, F);
                if (built.error) {
                    S.formError = built.error;
                    render();
                    return;
                }
                S.formError = '';
                S.confirming = true;
                S.confirmed = {};
                newDraft();
                publishDraft();
                var e = currentEntry();
                if (e && e.status === 'rejected') {
                    e.status = 'replaced';
                    save();
                }
                saveDraft();
                render();
            };
        if ($('back'))
            $('back').onclick = function () {
                S.confirming = false;
                S.confirmed = {};
                S.draftId = '';
                publishDraft(); /* empty: every phone back to the form */
                saveDraft();
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
