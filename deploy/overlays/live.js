/* live.js - the browser side of the Tourney overlays: reads the page's
 * options from its URL, connects to the feed broker with the `mqtt`
 * package's browser bundle (vendor/mqtt.min.js, see install.sh) as an
 * anonymous read-only client, subscribes to tourney/v1/feed/{event}/+ and
 * redraws the page with overlay.js four times a second (only when the
 * HTML changed: the clocks change once a second).
 *
 * The page's language (i18n.js): lang= in the URL, else the event's
 * (the feed's event.language), else the browser's; it follows the feed
 * when the event's language arrives or changes.
 *
 * Not here: what a page shows (overlay.js, tested in node by
 * tests/e2e/overlay_check.js).  Nothing is ever published.
 *
 * Invariants: the client id is random (an overlay must never take another
 * client's id: it would disconnect it); every retained topic arrives again
 * after a reconnect (clean session, resubscribe), so the page needs no
 * state of its own beyond overlay.js's.  ASCII only.
 */
(function () {
    'use strict';
    var O = window.TourneyOverlay, t = window.TourneyI18n.t;

    /* the window's title (a browser tab, OBS's source list) */
    function title(page, opts) {
        var w = page === 'pairings' ? t('Pairings') : page === 'standings' ? t('Standings')
              : page === 'table' ? t('Table {table}', {table: opts.table}) : t('Results');
        return 'Tourney - ' + w;
    }

    /* A page served by the feed broker itself (gen-config.sh --http-dir)
     * talks to the host and port it came from; a file to localhost:9001. */
    function defaultBroker() {
        var l = window.location;
        if (l && /^https?:$/.test(l.protocol) && l.host)
            return (l.protocol === 'https:' ? 'wss://' : 'ws://') + l.host;
        return 'ws://localhost:9001';
    }

    function randomId() {
        var s = '';
        for (var i = 0; i < 12; i++)
            s += Math.floor(Math.random() * 16).toString(16);
        return 'overlay-' + s;
    }

    /* start(page): runs the page ("pairings", "standings", "table",
     * "ticker") in the element #overlay. */
    function start(page) {
        var root = document.getElementById('overlay');
        var q = (window.location.search || '') + '&' + (window.location.hash || '').replace(/^#/, '');
        var parsed = O.parseParams(q, {broker: defaultBroker()}, page);
        var opts = parsed.opts;
        document.documentElement.style.setProperty('--s', String(opts.scale));
        document.body.className = 'theme-' + opts.theme + ' page-' + page;
        if (parsed.errors.length) {
            root.innerHTML = O.renderError(parsed.errors);
            return;
        }
        if (!window.mqtt || typeof window.mqtt.connect !== 'function') {
            root.innerHTML = O.renderError([
                'vendor/mqtt.min.js is missing: run deploy/overlays/install.sh (deploy/overlays/README.md)']);
            return;
        }
        var st = O.newState(opts.event);
        st.broker = opts.broker;
        var last = null, lastStrip = null;

        function draw() {
            var lang = O.pageLanguage(opts, [st], navigator.languages || [navigator.language]);
            if (document.documentElement.lang !== lang) {
                document.documentElement.lang = lang;
                document.title = title(page, opts);
            }
            var html = O.render(page, st, opts, Date.now());
            if (html === last)
                return;
            last = html;
            root.innerHTML = html;
            if (page === 'ticker')
                pace();
        }

        /* The ticker scrolls one copy of its line per cycle at opts.speed
         * px/s (scaled): the duration follows the line's width. */
        function pace() {
            var strip = root.querySelector('.strip');
            var copy = root.querySelector('.copy');
            if (!strip || !copy)
                return;
            var w = copy.getBoundingClientRect().width;
            var secs = Math.max(5, w / (opts.speed * opts.scale));
            strip.style.animationDuration = secs.toFixed(1) + 's';
            lastStrip = strip;
        }

        var client = window.mqtt.connect(opts.broker, {
            clientId: randomId(),
            clean: true,
            protocolVersion: 4,
            reconnectPeriod: 2000,
            connectTimeout: 10000,
            keepalive: 30
        });
        client.on('connect', function () {
            st.conn = 'online';
            client.subscribe(O.topics(opts.event).subscribe, {qos: 1});
            draw();
        });
        client.on('close', function () {
            st.conn = 'offline';
            draw();
        });
        client.on('offline', function () {
            st.conn = 'offline';
            draw();
        });
        client.on('error', function () {
            /* reconnects by itself; the page shows the broker unreachable */
        });
        client.on('message', function (topic, payload, packet) {
            if (O.applyMessage(st, topic, payload.toString(), Date.now(), !!(packet && packet.retain)))
                draw();
        });
        draw();
        /* an event id the feed does not have: no `event` document some
         * seconds after the broker answered (retained topics come at once) */
        var onlineSince = 0;
        client.on('connect', function () {
            onlineSince = Date.now();
        });
        window.setInterval(function () {
            st.missing = st.conn === 'online' && !st.docs.event && onlineSince > 0 &&
                         Date.now() - onlineSince > 6000;
        }, 500);
        window.setInterval(draw, 250);
        return {state: st, opts: opts, client: client, strip: function () { return lastStrip; }};
    }

    window.TourneyLive = {start: start};
})();
