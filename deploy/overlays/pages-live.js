/* pages-live.js - the browser side of the hall screen (hall.html) and the
 * player page (player.html): options from the page's address, one
 * anonymous read-only MQTT-over-WebSocket client (vendor/mqtt.min.js) on
 * the feed of every event listed, the hall's layout (how many names fit
 * the screen) and QR code (vendor/qrcode.js), the player page's search
 * box and its choices kept in the address (#player=...), and the
 * pages' language (i18n.js): lang= in the address, else (the player page)
 * the language the phone chose before (its language switcher, kept in
 * the browser's localStorage, the only thing the pages store), else the
 * event's (the feed's event.language), else the browser's.
 *
 * Not here: what is shown (pages.js and overlay.js, pure, tested in
 * node).  Nothing is ever published.
 *
 * Invariants: random client ids (an id taken from another client would
 * disconnect it); after any reconnect the retained feed arrives again, so
 * the state needs nothing of its own; the page reconnects by itself
 * (every 2 s, and at once when the phone says it is online again or the
 * page becomes visible).  ES5 only; ASCII only.
 */
(function () {
    'use strict';
    var O = window.TourneyOverlay, P = window.TourneyPages, I = window.TourneyI18n;
    var t = I.t;
    var LANG_KEY = 'tourney.lang';
    var NAV = navigator.languages || [navigator.language];

    /* language(opts, states, stored): the page's language now (see the
     * top); sets <html lang> (hyphenation, fonts) and says whether it
     * changed. */
    function language(opts, states, stored) {
        var l = O.pageLanguage(opts, states, NAV, stored);
        if (document.documentElement.lang === l)
            return false;
        document.documentElement.lang = l;
        return true;
    }

    function storedLanguage() {
        try {
            return window.localStorage ? window.localStorage.getItem(LANG_KEY) || '' : '';
        } catch (e) {
            return ''; /* storage off (private mode): the address keeps it */
        }
    }

    function storeLanguage(l) {
        try {
            if (window.localStorage)
                window.localStorage.setItem(LANG_KEY, l);
        } catch (e) {
            /* storage off: the address keeps it */
        }
    }
    var MISSING_AFTER_MS = 6000;

    /* The feed broker serves the pages itself (gen-config.sh --http-dir):
     * a page loaded over http(s) talks to the host and port it came from;
     * a page opened as a file to ws://localhost:9001. */
    function defaultBroker() {
        var l = window.location;
        if (l && /^https?:$/.test(l.protocol) && l.host)
            return (l.protocol === 'https:' ? 'wss://' : 'ws://') + l.host;
        return 'ws://localhost:9001';
    }

    function query() {
        return (window.location.search || '') + '&' + (window.location.hash || '').replace(/^#/, '');
    }

    function randomId(kind) {
        var s = '';
        for (var i = 0; i < 12; i++)
            s += Math.floor(Math.random() * 16).toString(16);
        return kind + '-' + s;
    }

    function showErrors(root, errors) {
        root.innerHTML = O.renderError(errors).replace(/<div>Parameters:[\s\S]*?<\/div>/, '');
    }

    /* connect(opts, onChange, wanted, onMessage, qos): the feed client;
     * states[i] is overlay.js's state of opts.events[i].  wanted() lists
     * the topic filters to hold now, at QoS qos (feed.resync() follows a change);
     * onMessage(topic, text, retained) may take a message overlay.js does
     * not know (returns true when it did).  missing[i] turns true when the
     * broker answered long ago and event i's `event` document never came
     * (no such event on this feed). */
    function connect(opts, onChange, wanted, onMessage, qos) {
        var states = opts.events.map(function (ev) {
            var st = O.newState(ev);
            st.broker = opts.broker;
            return st;
        });
        var feed = {states: states, missing: states.map(function () { return false; }),
                    lastMessage: 0, onlineSince: 0, offlineSince: 0, client: null};
        function setConn(c) {
            states.forEach(function (st) {
                st.conn = c;
            });
            if (c === 'online')
                feed.onlineSince = Date.now();
            else if (!feed.offlineSince || feed.onlineSince > feed.offlineSince)
                feed.offlineSince = Date.now();
            onChange();
        }
        var copts = {clientId: randomId('page')};
        Object.keys(P.FEED_CONNECT).forEach(function (k) {
            copts[k] = P.FEED_CONNECT[k];
        });
        var client = window.mqtt.connect(opts.broker, copts);
        feed.client = client;
        var held = [];
        /* hold exactly wanted(): subscribe the new filters, drop the old */
        feed.resync = function (all) {
            if (!client.connected)
                return;
            var want = wanted();
            var add = want.filter(function (t) {
                return all || held.indexOf(t) < 0;
            });
            var drop = held.filter(function (t) {
                return want.indexOf(t) < 0;
            });
            if (drop.length)
                client.unsubscribe(drop);
            if (add.length)
                client.subscribe(add, {qos: qos});
            held = want;
        };
        client.on('connect', function () {
            feed.resync(true);
            setConn('online');
        });
        client.on('close', function () {
            setConn('offline');
        });
        client.on('offline', function () {
            setConn('offline');
        });
        client.on('error', function () {
            /* it reconnects by itself; the page says the broker is unreachable */
        });
        client.on('message', function (topic, payload, packet) {
            var text = payload.toString(), retained = !!(packet && packet.retain), now = Date.now();
            var changed = false;
            states.forEach(function (st) {
                if (O.applyMessage(st, topic, text, now, retained))
                    changed = true;
            });
            if (!changed && onMessage && onMessage(topic, text, retained))
                changed = true;
            if (changed) {
                feed.lastMessage = now;
                onChange();
            }
        });
        /* A phone back on Wi-Fi or woken up: try at once rather than at
         * the next reconnect period (keepalive finds a dead socket). */
        function kick() {
            if (!client.connected && !client.reconnecting)
                client.reconnect();
        }
        window.addEventListener('online', kick);
        document.addEventListener('visibilitychange', function () {
            if (!document.hidden)
                kick();
        });
        window.setInterval(function () {
            var now = Date.now(), changed = false;
            states.forEach(function (st, i) {
                var m = st.conn === 'online' && !st.docs.event && now - feed.onlineSince > MISSING_AFTER_MS;
                if (m !== feed.missing[i]) {
                    feed.missing[i] = m;
                    changed = true;
                }
            });
            if (changed)
                onChange();
        }, 500);
        return feed;
    }

    function setHtml(el, html, cache, key) {
        if (cache[key] === html)
            return false;
        cache[key] = html;
        el.innerHTML = html;
        return true;
    }

    /* ---- hall.html ------------------------------------------------------- */

    function startHall() {
        var root = document.getElementById('page');
        var parsed = P.parseHallParams(query(), {broker: defaultBroker()});
        var opts = parsed.opts;
        document.body.className = 'theme-' + opts.theme + ' page-hall';
        if (parsed.errors.length)
            return showErrors(root, parsed.errors);
        if (!window.mqtt || typeof window.mqtt.connect !== 'function')
            return showErrors(root, ['vendor/mqtt.min.js is missing: run deploy/overlays/install.sh (deploy/overlays/README.md)']);
        root.innerHTML = '<div class="hall"><div class="top"><div class="find"></div><div class="evs"></div>' +
                         '<div class="qr"></div></div><div class="list"></div><div class="foot"></div></div>';
        var el = {
            find: root.querySelector('.find'), evs: root.querySelector('.evs'), qr: root.querySelector('.qr'),
            list: root.querySelector('.list'), foot: root.querySelector('.foot')
        };
        var cache = {}, fit = {rows: 1, cols: 1, w: 0, h: 0}, lastPage = -1;
        /* the words that do not come from the feed, again when the
         * language changes */
        function words() {
            var qrt = el.qr.querySelector('.qrt');
            if (qrt)
                qrt.textContent = t('Your table on your phone');
            cache = {};
        }

        /* The page's scale: every size is px times --s; scale=0 follows
         * the screen (1 at 1920x1080, 2 at 3840x2160). */
        function rescale() {
            var s = opts.scale || Math.max(0.4, Math.min(window.innerWidth / 1920, window.innerHeight / 1080));
            document.documentElement.style.setProperty('--s', String(s));
            return s;
        }

        /* How many entries fit: the list's box over one entry's size. */
        function measure() {
            var s = rescale();
            var w = el.list.clientWidth, h = el.list.clientHeight;
            if (w === fit.w && h === fit.h)
                return;
            var probe = document.createElement('div');
            probe.className = 'en';
            probe.innerHTML = '<span class="nm">Xy</span><span class="tb">T 1</span>';
            probe.style.visibility = 'hidden';
            probe.style.position = 'absolute';
            probe.style.width = '400px';
            el.list.appendChild(probe);
            var rh = probe.getBoundingClientRect().height;
            el.list.removeChild(probe);
            fit.w = w;
            fit.h = h;
            fit.cols = Math.max(1, Math.floor(w / (560 * s)));
            fit.rows = Math.max(1, Math.floor(h / Math.max(1, rh)));
            el.list.style.gridTemplateColumns = 'repeat(' + fit.cols + ', minmax(0, 1fr))';
            el.list.style.gridTemplateRows = 'repeat(' + fit.rows + ', ' + rh + 'px)';
            cache.list = null;
        }

        /* A name longer than its column ("Szczepa\u0144ska-Chrzanowska,
         * Katarzyna") is set smaller, in two steps, rather than cut; one
         * still too long (a 60-character name: the tryout of session 14
         * saw them cut from about 45) is set smaller again on two lines
         * of the entry's height. */
        function shrinkLong() {
            var nms = el.list.querySelectorAll('.en .nm');
            for (var i = 0; i < nms.length; i++) {
                var n = nms[i];
                if (n.scrollWidth > n.clientWidth)
                    n.className = 'nm fit1';
                if (n.scrollWidth > n.clientWidth)
                    n.className = 'nm fit2';
                if (n.scrollWidth > n.clientWidth)
                    n.className = 'nm fit3';
            }
        }

        var base = window.location.href.replace(/[?#].*$/, '');
        if (opts.qr !== '0' && /^https?:/.test(opts.qr || base) && window.qrcode) {
            var url = P.playerUrl(opts.qr || base, opts, defaultBroker());
            var qr = window.qrcode(0, 'M');
            qr.addData(url);
            qr.make();
            el.qr.innerHTML = qr.createSvgTag({cellSize: 4, margin: 8, scalable: true}) + '<div class="qrt"></div>';
            el.qr.setAttribute('data-url', url);
            el.qr.setAttribute('title', url);
        } else {
            el.qr.style.display = 'none';
        }

        var feed;
        function draw() {
            if (language(opts, feed.states, '') || !cache.words) {
                words();
                cache.words = true;
            }
            /* "Find your table", "Final standings" once every event is
             * over (the list then shows final places) */
            var title = P.hallTitle(feed.states, Date.now());
            if (cache.title !== title) {
                cache.title = title;
                el.find.textContent = opts.title || title;
                document.title = 'Tourney - ' + title;
            }
            measure();
            var v = P.renderHall(feed.states, opts, Date.now(), fit, feed.missing);
            setHtml(el.evs, v.heads, cache, 'heads');
            var fresh = setHtml(el.list, v.list, cache, 'list');
            if (fresh)
                shrinkLong();
            if (fresh && v.page !== lastPage && lastPage >= 0) {
                /* a new page fades in */
                el.list.className = 'list';
                void el.list.offsetWidth;
                el.list.className = 'list turn';
            }
            lastPage = v.page;
            setHtml(el.foot, v.foot, cache, 'foot');
            root.setAttribute('data-page', String(v.page));
            root.setAttribute('data-pages', String(v.pages));
            root.setAttribute('data-total', String(v.total));
        }
        feed = {states: []};
        feed = connect(opts, draw, function () {
            return opts.events.map(function (ev) {
                return O.topics(ev).subscribe;
            });
        }, null, 1);
        window.addEventListener('resize', draw);
        window.setInterval(draw, 250);
        draw();
        window.TourneyHall = {feed: feed, opts: opts, fit: fit};
    }

    /* ---- player.html ----------------------------------------------------- */

    function startPlayer() {
        var root = document.getElementById('page');
        var parsed = P.parsePlayerParams(query(), {broker: defaultBroker()});
        var opts = parsed.opts;
        function classes() {
            document.body.className = 'theme-' + opts.theme + ' text-' + opts.text + ' page-player';
        }
        classes();
        if (parsed.errors.length)
            return showErrors(root, parsed.errors);
        if (!window.mqtt || typeof window.mqtt.connect !== 'function')
            return showErrors(root, ['vendor/mqtt.min.js is missing: run deploy/overlays/install.sh (deploy/overlays/README.md)']);
        /* the page's frame; its words are set by words() (again when the
         * language changes) */
        root.innerHTML =
            '<header><h1 class="evn"></h1><div class="conn"></div>' +
            '<select id="lang" class="lang"></select></header>' +
            '<div class="search"><label for="q"></label><div class="hint" id="q-hint"></div>' +
            '<input id="q" type="search" autocomplete="off" autocorrect="off" autocapitalize="off" ' +
            'spellcheck="false" aria-describedby="q-hint"></div>' +
            '<div class="matches-box"></div><div class="card-box"></div>' +
            '<footer><a href="#" data-act="change" class="change"></a>' +
            '<a href="#" data-act="theme"></a><a href="#" data-act="text"></a></footer>';
        var el = {
            evn: root.querySelector('.evn'), conn: root.querySelector('.conn'), q: root.querySelector('#q'),
            search: root.querySelector('.search'), matches: root.querySelector('.matches-box'),
            card: root.querySelector('.card-box'), change: root.querySelector('.change'),
            lang: root.querySelector('#lang'), label: root.querySelector('.search label'),
            theme: root.querySelector('[data-act=theme]'), text: root.querySelector('[data-act=text]')
        };
        /* The language switcher: every language of the catalogues, each
         * in its own name ("polski", "magyar", "norsk bokm\u00e5l"). */
        el.lang.innerHTML = I.languages().map(function (l) {
            return '<option value="' + O.esc(l) + '" lang="' + O.esc(l) + '">' + O.esc(I.name(l)) + '</option>';
        }).join('');
        function words() {
            document.title = 'Tourney - ' + t('My table');
            el.lang.value = I.language();
            el.lang.setAttribute('aria-label', t('Language'));
            el.label.textContent = t('Your name');
            /* a line of its own, not a placeholder: it wraps (Czech and
             * Norwegian run longer than the box) */
            root.querySelector('#q-hint').textContent = t('Type a few letters of your name');
            el.change.textContent = t('Someone else');
            el.theme.textContent = t('Light / dark');
            el.text.textContent = t('Larger text');
            cache = {};
        }
        var cache = {}, feed;

        /* The choices live in the address (bookmark it, reload it). */
        function saveHash() {
            var h = 'theme=' + opts.theme + '&text=' + opts.text + (opts.lang ? '&lang=' + opts.lang : '') +
                    (opts.player ? '&player=' + encodeURIComponent(opts.player) : '');
            if (window.history && window.history.replaceState)
                window.history.replaceState(null, '', '#' + h);
            else
                window.location.hash = h;
        }

        function draw() {
            var now = Date.now();
            if (language(opts, feed.states, storedLanguage()) || !cache.words) {
                words();
                cache.words = true;
            }
            var titles = feed.states.map(function (st) {
                return O.roundView(st, now).title;
            });
            setHtml(el.evn, O.esc(titles.join(' \u00b7 ')), cache, 'evn');
            var st0 = feed.states[0], conn;
            if (st0.conn === 'online')
                /* TRANSLATORS: the phone page is connected and up to date */
                conn = '<span class="dot on"></span>' + O.esc(t('live'));
            else
                conn = '<span class="dot off"></span>' + O.esc(feed.lastMessage
                    ? t('offline since {time}, reconnecting\u2026 (showing {shown})',
                        {time: I.timeOfDay(feed.offlineSince), shown: I.timeOfDay(feed.lastMessage)})
                    : t('connecting to {broker}\u2026', {broker: opts.broker}));
            var miss = feed.states.filter(function (st, i) {
                return feed.missing[i];
            }).map(function (st) {
                return '<div class="miss">' + O.esc(t('No event \u201c{event}\u201d on this feed', {event: st.event})) + '</div>';
            }).join('');
            setHtml(el.conn, conn + miss, cache, 'conn');
            if (opts.player) {
                el.search.style.display = 'none';
                el.change.style.display = '';
                setHtml(el.matches, '', cache, 'matches');
                setHtml(el.card, P.renderCard(feed.states, opts.player, now), cache, 'card');
            } else {
                el.search.style.display = '';
                el.change.style.display = 'none';
                setHtml(el.card, '', cache, 'card');
                setHtml(el.matches, P.renderMatches(feed.states, el.q.value), cache, 'matches');
            }
        }

        el.q.addEventListener('input', draw);
        /* A language chosen on the phone: kept in the address and for the
         * next visit (localStorage). */
        el.lang.addEventListener('change', function () {
            opts.lang = I.match(el.lang.value);
            storeLanguage(opts.lang);
            saveHash();
            draw();
        });
        root.addEventListener('click', function (e) {
            var tg = e.target;
            while (tg && tg !== root && !(tg.getAttribute && (tg.getAttribute('data-pick') || tg.getAttribute('data-act'))))
                tg = tg.parentNode;
            if (!tg || tg === root)
                return;
            e.preventDefault();
            var pick = tg.getAttribute('data-pick'), act = tg.getAttribute('data-act');
            if (pick || act === 'change') {
                opts.player = pick || '';
                feed.states.forEach(function (st) {
                    st.mine = {};
                    st.mineAsked = Date.now();
                });
                feed.resync();
            }
            else if (act === 'theme')
                opts.theme = opts.theme === 'dark' ? 'light' : 'dark';
            else if (act === 'text')
                opts.text = opts.text === 'large' ? 'normal' : 'large';
            classes();
            saveHash();
            draw();
            if (!opts.player)
                el.q.focus();
            window.scrollTo(0, 0);
        });
        /* what the phone holds: pages.js playerTopics */
        function wanted() {
            return P.playerTopics(opts.events, opts.player, feed ? feed.states : null);
        }
        feed = connect(opts, draw, wanted, function (topic, text) {
            var took = false;
            feed.states.forEach(function (st) {
                if (P.mineMessage(st, topic, text, opts.player))
                    took = true;
            });
            if (took)
                feed.resync();
            return took;
        }, P.PLAYER_QOS);
        feed.states.forEach(function (st) {
            st.mine = {};
            st.mineAsked = Date.now();
        });
        window.setInterval(draw, 500);
        draw();
        window.TourneyPlayer = {feed: feed, opts: opts};
    }

    window.TourneyPagesLive = {hall: startHall, player: startPlayer};
})();
