/* overlay.js - the pure part of the Tourney stream overlays (OBS browser
 * sources reading the hub's public feed, docs/feed.md): page options from
 * the URL, feed messages -> state, state -> view models -> HTML strings,
 * the countdown from the feed's absolute deadline and a clock offset, and
 * the escaping of every string that comes from the feed.
 *
 * Not here: the network and the DOM (live.js does MQTT over WebSocket and
 * puts the HTML into the page).  Loads both in a browser (<script>: the
 * global TourneyOverlay) and in node (module.exports), so the e2e test
 * (tests/e2e/overlay_check.js) renders exactly what the pages render.
 *
 * Invariants: every value taken from the feed goes through esc() before it
 * is part of HTML (names, clubs, armies, factions... may contain <, &,
 * quotes); CSS gets only whitelisted colour names and computed numbers;
 * functions never throw on a malformed or missing document (the feed may
 * add keys within v1, and a page may start before every topic arrived).
 * ASCII only.
 */
(function (root, factory) {
    'use strict';
    var I = root && root.TourneyI18n ? root.TourneyI18n
                                     : (typeof require === 'function' ? require('./i18n.js') : null);
    var api = factory(I);
    if (typeof module === 'object' && module && module.exports)
        module.exports = api;
    if (root)
        root.TourneyOverlay = api;
})(typeof window !== 'undefined' ? window : null, function (I) {
    'use strict';

    /* The words: i18n.js (every message literal inside t/tn/tc/N_, so
     * that po/tourney-pages/extract finds it). */
    var t = I.t, tn = I.tn, tc = I.tc, N_ = I.N_;

    var TOPIC_ROOT = 'tourney/v1/feed/';
    var KEYS = ['event', 'pairings', 'tables', 'standings', 'bracket', 'now'];
    var EVENT_RE = /^[A-Za-z0-9_.-]{1,64}$/;
    var PAGES = ['pairings', 'standings', 'table', 'ticker'];

    /* ---- escaping and formatting ----------------------------------- */

    var ESC = {
        '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;',
        "'": '&#39;', '`': '&#96;'
    };

    /* esc(v): v as HTML text, safe in element content and in quoted
     * attribute values; null and undefined are the empty string. */
    function esc(v) {
        if (v === null || v === undefined)
            return '';
        return String(v).replace(/[&<>"'`]/g, function (c) {
            return ESC[c];
        });
    }

    function isNum(v) {
        return typeof v === 'number' && isFinite(v);
    }

    function isObj(v) {
        return v !== null && typeof v === 'object' && !Array.isArray(v);
    }

    function arr(v) {
        return Array.isArray(v) ? v : [];
    }

    function str(v) {
        return typeof v === 'string' ? v : '';
    }

    /* formatNumber(v): tournament points and tiebreaks: at most two
     * decimals, no trailing zeros, the page language's decimal sign
     * (6.33333333333333 -> "6.33", "6,33" in Polish; 12.5 -> "12.5", 3
     * -> "3"); null or not a number -> "-". */
    function formatNumber(v) {
        if (!isNum(v))
            return '-';
        return I.number(v, 2);
    }

    function pad2(n) {
        return n < 10 ? '0' + n : String(n);
    }

    /* The word after an overtime clock ("+2:05 overtime"): the hall, the
     * phone page and the tables (TNY_CLOCK_OVERTIME) say the same. */
    function overtimeWord() {
        /* TRANSLATORS: after a clock past its deadline: "+2:05 overtime" */
        return t('overtime');
    }

    /* formatClock(ms): "M:SS", or "H:MM:SS" from an hour on; time left is
     * rounded up (a table shows 0:01 until the last second is over),
     * overtime (negative) is the time past the deadline, "+M:SS" rounded
     * down (as tny_clock_format on the tables and the dashboard, followed
     * by overtimeWord() where words go); null -> "--:--". */
    function formatClock(ms) {
        if (!isNum(ms))
            return '--:--';
        var sign = '', s;
        if (ms > 0) {
            s = Math.ceil(ms / 1000);
        } else {
            s = Math.floor(-ms / 1000);
            if (s > 0)
                sign = '+';
        }
        var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
        var sec = s % 60;
        if (h > 0)
            return sign + h + ':' + pad2(m) + ':' + pad2(sec);
        return sign + m + ':' + pad2(sec);
    }

    /* ---- page options ------------------------------------------------ */

    var DEFAULTS = {
        broker: 'ws://localhost:9001',
        event: '',
        theme: 'dark',
        scale: 1,
        top: 8,
        table: 0,
        rows: 9,
        cycle: 12,
        tb: 2,
        bracket: 'auto',
        items: 8,
        speed: 120,
        title: 1,
        lang: ''
    };

    /* Integer options: [min, max]. */
    var INTS = {
        top: [1, 200], table: [1, 100000], rows: [1, 100], cycle: [2, 600],
        tb: [0, 8], items: [1, 50], speed: [10, 2000], title: [0, 1]
    };

    /* parseParams(query, defaults): the options of a page from a query
     * string ("?a=1&b=2" or "#a=1&b=2", both may be joined with "&").
     * Returns {opts, errors}: errors is a list of messages (unknown values
     * are errors, unknown keys are ignored); opts always holds every
     * option (defaults where missing or wrong).  `defaults` overrides
     * DEFAULTS (live.js passes the broker on the page's own host); with
     * `page` "table", a missing table= is an error. */

    /* splitQuery(query, errors): a page's URL query ("?a=1&b=x" or "#...")
     * as {key: value}, decoded; a part that cannot be decoded is named in
     * errors and left out.  The overlays and the hall/player pages share
     * it. */
    function splitQuery(query, errors) {
        var raw = {};
        String(query || '').replace(/^[?#]/, '').split(/[&#?]/).forEach(function (part) {
            if (!part)
                return;
            var i = part.indexOf('=');
            var key = i < 0 ? part : part.slice(0, i);
            var val = i < 0 ? '' : part.slice(i + 1);
            try {
                key = decodeURIComponent(key.replace(/\+/g, ' '));
                val = decodeURIComponent(val.replace(/\+/g, ' '));
            } catch (e) {
                errors.push('bad URL encoding in "' + part + '"');
                return;
            }
            raw[key] = val;
        });
        return raw;
    }

    /* parseLang(v, opts, errors): lang= (en, pl, hu, nb, cs: the
     * languages with a catalogue; "" = the event's or the browser's). */
    function parseLang(v, opts, errors) {
        if (v === '' || I.match(v))
            opts.lang = I.match(v);
        else
            errors.push('lang: expected ' + I.languages().join(', ') + ', got "' + v + '"');
    }

    /* pageLanguage(opts, st, nav): the language a page speaks now:
     * lang= (opts.lang), else the first event's language in the feed
     * (event.language), else the browser's (nav: navigator.languages),
     * else English; also makes it i18n.js's current language. */
    function pageLanguage(opts, states, nav, stored) {
        var evLang = '';
        (states || []).forEach(function (st) {
            var ev = st && isObj(st.docs.event) ? st.docs.event : {};
            if (!evLang && typeof ev.language === 'string')
                evLang = ev.language;
        });
        var l = I.pick({param: opts.lang, stored: stored, event: evLang, browser: nav});
        if (l !== I.language())
            I.setLanguage(l);
        return l;
    }

    function parseParams(query, defaults, page) {
        var opts = {}, errors = [], k;
        for (k in DEFAULTS)
            opts[k] = DEFAULTS[k];
        if (isObj(defaults))
            for (k in defaults)
                if (Object.prototype.hasOwnProperty.call(DEFAULTS, k))
                    opts[k] = defaults[k];
        var raw = splitQuery(query, errors);
        if ('broker' in raw) {
            if (/^wss?:\/\/[^\s\/?#]+(\/[^\s]*)?$/.test(raw.broker))
                opts.broker = raw.broker;
            else
                errors.push('broker: expected ws://HOST:PORT or wss://HOST:PORT, got "' + raw.broker + '"');
        }
        if ('event' in raw)
            opts.event = raw.event;
        if (!EVENT_RE.test(opts.event))
            errors.push(opts.event === '' ? 'event: missing (add ?event=ID to the URL)'
                                          : 'event: not an event id: "' + opts.event + '"');
        if ('theme' in raw) {
            if (raw.theme === 'dark' || raw.theme === 'light')
                opts.theme = raw.theme;
            else
                errors.push('theme: expected dark or light, got "' + raw.theme + '"');
        }
        if ('bracket' in raw) {
            if (/^(auto|off|only)$/.test(raw.bracket))
                opts.bracket = raw.bracket;
            else
                errors.push('bracket: expected auto, off or only, got "' + raw.bracket + '"');
        }
        if ('scale' in raw) {
            var s = Number(raw.scale);
            if (raw.scale !== '' && isNum(s) && s >= 0.25 && s <= 4)
                opts.scale = s;
            else
                errors.push('scale: expected a number 0.25..4, got "' + raw.scale + '"');
        }
        for (k in INTS) {
            if (!(k in raw))
                continue;
            var v = raw[k];
            if (/^[0-9]{1,7}$/.test(v) && Number(v) >= INTS[k][0] &&
                Number(v) <= INTS[k][1])
                opts[k] = Number(v);
            else
                errors.push(k + ': expected an integer ' + INTS[k][0] + '..' +
                            INTS[k][1] + ', got "' + v + '"');
        }
        if ('lang' in raw)
            parseLang(raw.lang, opts, errors);
        if (page === 'table' && !opts.table)
            errors.push('table: missing (add &table=N to the URL)');
        return {opts: opts, errors: errors};
    }

    /* ---- feed state --------------------------------------------------- */

    /* newState(event): what a page knows of one event's feed.  `docs`
     * holds the latest document of each topic; `offset` is hub clock
     * minus local clock (ms, null until a tables document arrived);
     * `conn` is set by live.js ("connecting", "online", "offline"). */
    function newState(event) {
        return {
            event: event,
            docs: {},
            offset: null,
            offsetLive: false,
            finished: {round: 0, order: []},
            conn: 'connecting',
            broker: ''
        };
    }

    /* topics(event): the subscription and the prefix of its topics. */
    function topics(event) {
        var prefix = TOPIC_ROOT + event + '/';
        return {prefix: prefix, subscribe: prefix + '+'};
    }

    /* feedKey(topic, event): "event", "pairings", "tables", "standings",
     * "bracket" or "now" (the heartbeat) for the event's feed topics, else
     * null. */
    function feedKey(topic, event) {
        var p = TOPIC_ROOT + event + '/';
        if (typeof topic !== 'string' || topic.indexOf(p) !== 0)
            return null;
        var k = topic.slice(p.length);
        return KEYS.indexOf(k) >= 0 ? k : null;
    }

    /* noteOffset(st, hubNowMs, localMs, retained): the clock offset rule
     * of docs/feed.md ("Times"): offset = hub_now_ms - local receive time.
     * A retained message may be old (the broker keeps it until the hub
     * publishes again), so its measurement is a lower bound of the true
     * offset: until a live (not retained) message came, the largest
     * lower bound is used; a live message sets the offset. */
    function noteOffset(st, hubNowMs, localMs, retained) {
        if (!isNum(hubNowMs) || !isNum(localMs))
            return;
        var m = hubNowMs - localMs;
        if (!retained) {
            st.offset = m;
            st.offsetLive = true;
        } else if (!st.offsetLive) {
            st.offset = st.offset === null ? m : Math.max(st.offset, m);
        }
    }

    /* noteFinished(st, doc): remembers the order in which this page saw
     * the tables of the latest round finish (the ticker shows the latest
     * first by the feed's confirmed_ms; this order only where it has
     * none). */
    function noteFinished(st, doc) {
        var r = isNum(doc.round) ? doc.round : 0;
        if (r !== st.finished.round)
            st.finished = {round: r, order: []};
        arr(doc.tables).forEach(function (tb) {
            if (isObj(tb) && tb.state === 'confirmed' && isNum(tb.table) &&
                st.finished.order.indexOf(tb.table) < 0)
                st.finished.order.push(tb.table);
        });
    }

    /* applyMessage(st, topic, text, localMs, retained): one MQTT message
     * (payload as a string) received at localMs (Date.now()).  Returns the
     * feed key it updated, or null (another topic, not a JSON object). */
    function applyMessage(st, topic, text, localMs, retained) {
        var key = feedKey(topic, st.event), doc;
        if (!key)
            return null;
        try {
            doc = JSON.parse(String(text));
        } catch (e) {
            return null;
        }
        if (!isObj(doc))
            return null;
        st.docs[key] = doc;
        if (key === 'tables') {
            var c = isObj(doc.clock) ? doc.clock : null;
            arr(doc.tables).forEach(function (tb) {
                if (!c && isObj(tb) && isObj(tb.clock))
                    c = tb.clock;
            });
            if (c)
                noteOffset(st, c.hub_now_ms, localMs, retained);
            noteFinished(st, doc);
        } else if (key === 'now') {
            /* the hub's heartbeat while a round clock runs (never
             * retained): a late page gets its true offset within ~5 s */
            noteOffset(st, doc.hub_now_ms, localMs, retained);
        }
        return key;
    }

    /* ---- clocks ------------------------------------------------------- */

    /* clockRemaining(clock, st, localNowMs): {state, unlimited, ms} of a
     * feed clock object: running -> deadline_ms - (localNowMs + offset),
     * otherwise the frozen remaining_ms; ms null when unknown or
     * unlimited.  null when clock is not an object. */
    function clockRemaining(clock, st, localNowMs) {
        if (!isObj(clock))
            return null;
        var out = {state: str(clock.state), unlimited: !!clock.unlimited, ms: null};
        if (out.unlimited)
            return out;
        if (clock.state === 'running' && isNum(clock.deadline_ms)) {
            var off = st && isNum(st.offset) ? st.offset : 0;
            out.ms = clock.deadline_ms - (localNowMs + off);
        } else if (isNum(clock.remaining_ms)) {
            out.ms = clock.remaining_ms;
        }
        return out;
    }

    /* stopIfClosed(rem, closed): a closed round's clock stands (issue 8):
     * state "stopped" (the hub froze it at the close; the time shown is
     * what was left, or over, then). */
    function stopIfClosed(rem, closed) {
        if (rem && closed && !rem.unlimited)
            rem.state = 'stopped';
        return rem;
    }

    /* clockText(rem): what a page shows for clockRemaining's result. */
    function clockText(rem) {
        if (!rem)
            return '';
        if (rem.unlimited)
            return t('no time limit');
        if (rem.state === 'not_started')
            return rem.ms === null ? '' : formatClock(rem.ms);
        return formatClock(rem.ms);
    }

    function clockClass(rem) {
        if (!rem)
            return 'clock';
        var c = 'clock ck-' + (rem.state || 'none');
        if (isNum(rem.ms) && rem.ms <= 0 && !rem.unlimited)
            c += ' ck-over';
        else if (isNum(rem.ms) && rem.ms <= 5 * 60000 && rem.state === 'running')
            c += ' ck-low';
        return c;
    }

    function clockHtml(rem, extra) {
        var tb = clockText(rem);
        if (!tb)
            return '';
        var pause = rem.state === 'paused' ? '<span class="ck-tag">' + esc(t('paused')) + '</span>'
                  : rem.state === 'stopped' ? '<span class="ck-tag">' + esc(t('round closed')) + '</span>' : '';
        return '<span class="' + clockClass(rem) + (extra ? ' ' + extra : '') +
               '">' + esc(tb) + pause + '</span>';
    }

    /* ---- view models -------------------------------------------------- */

    /* A table's state as the pages name it (translated where shown). */
    var STATE_LABELS = {
        waiting: N_('Waiting'),
        playing: N_('Playing'),
        overdue: N_('Time up'),
        pending_confirmation: N_('Confirming'),
        /* TRANSLATORS: a table's state: its result is confirmed */
        confirmed: N_('Finished'),
        conflict: N_('Judge call')
    };

    /* stateLabel(state): the state's words in the page's language. */
    function stateLabel(state) {
        return STATE_LABELS[state] ? t(STATE_LABELS[state]) : '';
    }

    /* Colour names a swatch may use (TX-10 colours); anything else is
     * shown as text only. */
    var SWATCH = {
        red: '#d32f2f', yellow: '#fbc02d', green: '#388e3c', blue: '#1e63c4',
        black: '#111', white: '#f5f5f5', orange: '#ef6c00', purple: '#7b1fa2'
    };

    /* armyName(a): a Neuroshima Hex army of the format
     * (formats/neuroshima-hex.json) by its name in the page language's
     * edition (Polish: seed 000, "HEGEMONIA, POSTERUNEK, NOWY JORK...");
     * another army as registered. */
    function armyName(a) {
        var m = {
            'Beasts': tc('army', 'Beasts'), 'Death Breath': tc('army', 'Death Breath'),
            'Hegemony': tc('army', 'Hegemony'), 'Iron Gang': tc('army', 'Iron Gang'),
            'Mississippi': tc('army', 'Mississippi'), 'Neojungle': tc('army', 'Neojungle'),
            'New York': tc('army', 'New York'), 'Outpost': tc('army', 'Outpost'),
            'Sand Runners': tc('army', 'Sand Runners'), 'Steel Police': tc('army', 'Steel Police'),
            'Troglodytes': tc('army', 'Troglodytes')
        };
        return m.hasOwnProperty(a) ? m[a] : a;
    }

    function playerView(p) {
        p = isObj(p) ? p : {};
        return {
            id: str(p.id),
            name: str(p.name) || str(p.id),
            club: str(p.club),
            country: str(p.country),
            seat: isNum(p.seat) ? p.seat : 0,
            first: p.first === true,
            army: armyName(str(p.army)),
            armies: arr(p.armies).filter(function (a) {
                return typeof a === 'string';
            }).map(armyName),
            colours: arr(p.colours).filter(function (a) {
                return typeof a === 'string';
            }),
            faction: str(p.faction),
            agenda: str(p.agenda)
        };
    }

    /* tableState(tb, st, now): the table's state, "overdue" also when the
     * page's own countdown of a playing table reached zero (the hub
     * publishes again only on a change). */
    function tableState(tb, st, now) {
        var s = str(tb && tb.state) || 'waiting';
        if (s === 'playing' && isObj(tb.clock) && tb.clock.state === 'running') {
            var r = clockRemaining(tb.clock, st, now);
            if (r && isNum(r.ms) && r.ms <= 0)
                s = 'overdue';
        }
        return s;
    }

    /* The stage names of the shipped formats (formats/*.json): shown in
     * the page's language; an organiser's own stage name as written. */
    var STAGE_NAMES = [N_('Swiss'), N_('Knockout'), N_('Elimination'), N_('Preliminary'),
                       /* TRANSLATORS: a stage's name: the final round(s) of an event */
                       N_('Final'), N_('Top cut'), N_('Gorn rounds')];

    /* stageText(name): a stage's name in the page's language. */
    function stageText(name) {
        return STAGE_NAMES.indexOf(name) >= 0 ? t(name) : name;
    }

    /* roundView(st, now): the latest published round as the pages show
     * it: {title, game, round, stage, tables: [{table, players, state,
     * label, clock (remaining), extensionMs, winner}], byes, clock}.
     * Table states come from the tables document only when it is of the
     * same round as the pairings. */
    function roundView(st, now) {
        var ev = isObj(st.docs.event) ? st.docs.event : {};
        var pa = isObj(st.docs.pairings) ? st.docs.pairings : null;
        var td = isObj(st.docs.tables) ? st.docs.tables : null;
        var round = pa && isNum(pa.round) ? pa.round : 0;
        if (td && td.round !== round)
            td = null;
        var closed = ev.round === round && ev.round_status === 'closed';
        var byTable = {};
        if (td)
            arr(td.tables).forEach(function (tb) {
                if (isObj(tb) && isNum(tb.table))
                    byTable[tb.table] = tb;
            });
        var winners = bracketWinners(st, round);
        var tables = pa ? arr(pa.tables).filter(isObj).map(function (tb) {
            var s = byTable[tb.table];
            var state = s ? tableState(s, st, now) : '';
            return {
                table: isNum(tb.table) ? tb.table : 0,
                players: arr(tb.players).map(playerView),
                state: state,
                label: stateLabel(state),
                clock: s ? stopIfClosed(clockRemaining(s.clock, st, now), closed) : null,
                extensionMs: s && isNum(s.extension_ms) ? s.extension_ms : 0,
                online: s ? s.online === true : false,
                winner: winners[tb.table] || null,
                result: s && state === 'confirmed' && isObj(s.result) ? s.result : null,
                confirmedMs: s && isNum(s.confirmed_ms) ? s.confirmed_ms : null
            };
        }) : [];
        return {
            title: str(ev.title) || st.event,
            game: str(ev.game),
            status: str(ev.status),
            round: round,
            stage: pa ? str(pa.stage) : '',
            stageName: pa ? stageText(str(pa.stage_name)) : '',
            /* "Round 2 of 5": the stage's planned rounds (docs/feed.md
             * event.stage_rounds) when its rounds are the event's (the
             * first stage) */
            ofRounds: isNum(ev.stage_rounds) && ev.round === round &&
                      ev.stage_round === round ? ev.stage_rounds : 0,
            tables: tables,
            byes: pa ? arr(pa.byes).map(playerView) : [],
            clock: td ? stopIfClosed(clockRemaining(td.clock, st, now), closed) : null,
            finished: tables.filter(function (tb) {
                return tb.state === 'confirmed';
            }).length
        };
    }

    /* bracketWinners(st, round): {table: {winner id, games}} of that
     * round's elimination tables with a result. */
    function bracketWinners(st, round) {
        var out = {};
        var b = isObj(st.docs.bracket) ? st.docs.bracket : {};
        arr(b.rounds).forEach(function (r) {
            if (!isObj(r) || r.round !== round)
                return;
            arr(r.tables).forEach(function (tb) {
                if (isObj(tb) && isNum(tb.table) && typeof tb.winner === 'string')
                    out[tb.table] = {winner: tb.winner, games: arr(tb.games)};
            });
        });
        return out;
    }

    /* tiebreakLabel(name): a column heading for a tiebreak criterion. */
    var TB_LABELS = {
        /* TRANSLATORS: tiebreak column: Neuroshima Hex's total headquarters difference (NH) */
        hq_diff: N_('HQ diff'),
        /* TRANSLATORS: tiebreak column: the direct encounter (head to head) */
        head_to_head: N_('H2H'),
        /* TRANSLATORS: tiebreak column: strength of schedule (GT: the opponents' average) */
        sos: N_('SoS'),
        /* TRANSLATORS: tiebreak column: extended strength of schedule */
        esos: N_('ESoS'),
        /* TRANSLATORS: tiebreak column: Sonneborn-Berger */
        sb: N_('SB'),
        buchholz: N_('Buchholz'),
        /* TRANSLATORS: tiebreak column: the opponents' win percentage */
        opp_win_pct: N_('Opp %'),
        /* TRANSLATORS: tiebreak: drawing lots */
        lot: N_('Lot'),
        /* TRANSLATORS: tiebreak column: margin of victory */
        mov: N_('MoV'),
        /* TRANSLATORS: tiebreak column: opponents' win percentage (OWP) */
        owp: N_('OWP'),
        /* TRANSLATORS: tiebreak column: Buchholz without the best and worst opponent */
        median_buchholz: N_('Median BH'),
        /* TRANSLATORS: Tantrix tiebreak (TX): tournament points among the tied players */
        mini_league_tp: N_('Mini-league TP'),
        wins: N_('Wins'),
        /* TRANSLATORS: Tantrix tiebreak (TX): the tile difference of the games among the tied players */
        mini_league_score_diff: N_('Mini-league score diff'),
        /* TRANSLATORS: Tantrix tiebreak (TX): all points scored (line lengths) */
        total_score: N_('Total score'),
        /* TRANSLATORS: Catan tiebreak (CT): game points over the table's game points, in per cent */
        success_rate: N_('Success rate'),
        /* TRANSLATORS: Catan tiebreak (CT): victory points scored in the games */
        game_points: N_('Game points'),
        firsts: N_('1st places'),
        seconds: N_('2nd places'),
        thirds: N_('3rd places'),
        /* TRANSLATORS: Agricola tiebreak (AG): points minus the table's average */
        relative_score: N_('Relative score'),
        best_relative_score: N_('Best relative score'),
        /* TRANSLATORS: Agricola tiebreak (AG): the place in the final round */
        final_placement: N_('Final placement'),
        best_prelim_relative_score: N_('Best preliminary relative score')
    };
    function tiebreakLabel(name) {
        if (TB_LABELS[name])
            return t(TB_LABELS[name]);
        var s = String(name).replace(/_/g, ' ');
        return s.charAt(0).toUpperCase() + s.slice(1);
    }

    /* standingsView(st, top, nTb): {afterRound, stage, tiebreaks (names
     * shown: the first nTb of the stage's chain, the lot never), rows:
     * the first `top` rows in the feed's order with rank, id, name,
     * points (number), pointsText, tb ([text]), dropped, disqualified}. */
    function standingsView(st, top, nTb) {
        var sd = isObj(st.docs.standings) ? st.docs.standings : {};
        var ev = isObj(st.docs.event) ? st.docs.event : {};
        var rows = arr(sd.standings).filter(isObj);
        var names = [];
        if (rows.length && isObj(rows[0].tiebreaks))
            names = Object.keys(rows[0].tiebreaks).filter(function (n) {
                return n !== 'lot';
            }).slice(0, nTb);
        return {
            afterRound: isNum(sd.after_round) ? sd.after_round : 0,
            /* The event finished and these count its last round: the
             * final classification (docs/feed.md "event"). */
            final: ev.status === 'finished' && isNum(sd.after_round) &&
                   sd.after_round > 0 && sd.after_round === ev.round,
            stage: str(sd.stage),
            tiebreaks: names,
            total: rows.length,
            rows: rows.slice(0, top).map(function (r) {
                var tbs = isObj(r.tiebreaks) ? r.tiebreaks : {};
                return {
                    rank: isNum(r.rank) ? r.rank : 0,
                    id: str(r.player),
                    name: str(r.name) || str(r.player),
                    points: isNum(r.points) ? r.points : null,
                    pointsText: formatNumber(r.points),
                    tb: names.map(function (n) {
                        return formatNumber(tbs[n]);
                    }),
                    dropped: r.dropped === true,
                    disqualified: r.disqualified === true
                };
            })
        };
    }

    /* roundName(nTables, isLast): a knockout round's name by its size. */
    function roundName(nTables) {
        if (nTables === 1)
            return tc('knockout round', 'Final');
        if (nTables === 2)
            return tc('knockout round', 'Semi-finals');
        if (nTables === 4)
            return tc('knockout round', 'Quarter-finals');
        /* TRANSLATORS: a knockout round by its players: "Last 16" */
        return tc('knockout round', 'Last {n}', {n: nTables * 2});
    }

    /* bracketView(st): {rounds: [{round, name, matches: [{table, bye,
     * players: [{id, name, win, games}], decided}]}]}; names come from the
     * bracket's own player objects. */
    function bracketView(st) {
        var b = isObj(st.docs.bracket) ? st.docs.bracket : {};
        return {
            rounds: arr(b.rounds).filter(isObj).map(function (r) {
                var tables = arr(r.tables).filter(isObj);
                var n = tables.filter(function (tb) {
                    return !tb.bye;
                }).length;
                return {
                    round: isNum(r.round) ? r.round : 0,
                    name: roundName(n || 1),
                    matches: tables.map(function (tb) {
                        if (tb.bye)
                            return {table: 0, bye: true, decided: true,
                                    players: [playerView(tb.bye)]};
                        var w = typeof tb.winner === 'string' ? tb.winner : null;
                        var games = arr(tb.games);
                        return {
                            table: isNum(tb.table) ? tb.table : 0,
                            bye: false,
                            decided: w !== null,
                            players: arr(tb.players).map(function (p) {
                                var v = playerView(p);
                                v.win = w !== null && v.id === w;
                                v.games = games.filter(function (g) {
                                    return g === v.id;
                                }).length;
                                return v;
                            }),
                            hasGames: games.length > 0
                        };
                    })
                };
            })
        };
    }

    /* resultText(tb): a confirmed table's result (the feed's tables[].result,
     * docs/feed.md) as plain text: "A beat B by 3 HQ", "A drew with B",
     * "A beat B 2-1 (modified)", "A 25, B 20" (scores / VP / TP, highest
     * first), "A won by default against B"; null without a result. */
    function resultText(tb) {
        var res = isObj(tb.result) ? tb.result : null;
        if (!res)
            return null;
        var byId = {};
        tb.players.forEach(function (p) {
            byId[p.id] = p;
        });
        var nm = function (p) {
            return p.name + (p.army ? ' [' + p.army + ']' : '');
        };
        var others = function (id) {
            return tb.players.filter(function (p) {
                return p.id !== id;
            }).map(nm).join(', ');
        };
        var who = function (id) {
            return byId[id] ? nm(byId[id]) : str(id);
        };
        var names = tb.players.map(nm);
        var two = names.length === 2;
        if (res.draw === true)
            return two ? t('{a} drew with {b}', {a: names[0], b: names[1]})
                       : t('Draw: {players}', {players: names.join(', ')});
        if (res.intentional_draw === true)
            /* TRANSLATORS: an intentional draw, agreed by the players */
            return two ? t('{a} drew with {b} (agreed)', {a: names[0], b: names[1]})
                       : t('Agreed draw: {players}', {players: names.join(', ')});
        if (res.double_loss === true)
            return two ? t('{a} and {b}: both lose', {a: names[0], b: names[1]})
                       : t('All lose: {players}', {players: names.join(', ')});
        if (str(res.default_win))
            return t('{winner} won by default against {losers}',
                      {winner: who(res.default_win), losers: others(res.default_win)});
        if (str(res.winner)) {
            var extra = '';
            if (isNum(res.hq_diff))
                /* TRANSLATORS: Neuroshima Hex: the winner's headquarters difference (NH rules) */
                extra += ' ' + t('by {n} HQ', {n: res.hq_diff});
            var games = arr(res.games).filter(function (g) {
                return typeof g === 'string';
            });
            if (games.length) {
                var gw = games.filter(function (g) {
                    return g === res.winner;
                }).length;
                extra += ' ' + gw + '-' + (games.length - gw);
            }
            if (res.modified === true)
                /* TRANSLATORS: A Game of Thrones: a modified win (GT rules) */
                extra += ' ' + t('(modified)');
            if (isObj(res.scores) && isNum(res.scores[res.winner])) {
                var lost = tb.players.filter(function (p) {
                    return p.id !== res.winner;
                })[0];
                if (lost && isNum(res.scores[lost.id]))
                    extra += ' ' + formatNumber(res.scores[res.winner]) + '-' +
                             formatNumber(res.scores[lost.id]);
            }
            return t('{winner} beat {losers}', {winner: who(res.winner), losers: others(res.winner)}) + extra;
        }
        var pts = isObj(res.tp) ? res.tp : isObj(res.scores) ? res.scores :
                  isObj(res.vp) ? res.vp : null;
        if (!pts)
            return null;
        return tb.players.slice().sort(function (a, b) {
            return (isNum(pts[b.id]) ? pts[b.id] : -Infinity) -
                   (isNum(pts[a.id]) ? pts[a.id] : -Infinity);
        }).map(function (p) {
            return nm(p) + ' ' + (isNum(pts[p.id]) ? formatNumber(pts[p.id]) : '?');
        }).join(', ');
    }

    /* tickerItems(st, now, max): the ticker's lines as plain text, latest
     * first: the finished tables of the current round (latest confirmed_ms
     * first, else in the order this page saw them finish; the result
     * when the feed has it, else the knockout winner when the bracket
     * knows it, the armies played when the feed has them), then the
     * leaders. */
    function tickerItems(st, now, max) {
        var rv = roundView(st, now), items = [];
        var byNum = {};
        rv.tables.forEach(function (tb) {
            byNum[tb.table] = tb;
        });
        var order = st.finished.round === rv.round ? st.finished.order.slice() : [];
        rv.tables.forEach(function (tb) {
            if (tb.state === 'confirmed' && order.indexOf(tb.table) < 0)
                order.push(tb.table);
        });
        var where = rv.stageName ? t('Round {round} ({stage})', {round: rv.round, stage: rv.stageName})
                                 : t('Round {round}', {round: rv.round});
        order = order.reverse().filter(function (n) {
            return byNum[n] && byNum[n].state === 'confirmed';
        });
        order.sort(function (a, b) { /* stable: seen order among equals */
            var ta = byNum[a].confirmedMs, tb = byNum[b].confirmedMs;
            if (ta !== null && tb !== null)
                return tb - ta;
            return ta !== null ? -1 : tb !== null ? 1 : 0;
        });
        order.forEach(function (n) {
            var tb = byNum[n];
            var nm = function (p) {
                return p.name + (p.army ? ' [' + p.army + ']' : '');
            };
            var text, rt = resultText(tb);
            if (rt !== null) {
                /* TRANSLATORS: a ticker item: "Round 2 (Swiss), table 4: Anna beat Jan" */
                text = t('{round}, table {table}: {result}', {round: where, table: n, result: rt});
            } else if (tb.winner) {
                var w = tb.players.filter(function (p) {
                    return p.id === tb.winner.winner;
                });
                var l = tb.players.filter(function (p) {
                    return p.id !== tb.winner.winner;
                });
                var score = '';
                if (tb.winner.games.length && l.length === 1 && w.length === 1) {
                    var gw = tb.winner.games.filter(function (g) {
                        return g === w[0].id;
                    }).length;
                    score = ' ' + gw + '-' + (tb.winner.games.length - gw);
                }
                text = t('{round}, table {table}: {result}', {round: where, table: n,
                         result: t('{winner} beat {losers}', {winner: w.length ? nm(w[0]) : '?',
                                                              losers: l.map(nm).join(', ')}) + score});
            } else {
                text = t('{round}, table {table} finished: {players}', {round: where, table: n,
                         players: tb.players.map(nm).join(' ' + t('vs') + ' ')});
            }
            items.push(text);
        });
        var sv = standingsView(st, 3, 0);
        if (sv.afterRound > 0 && sv.rows.length) {
            items.push((sv.final ? t('Final standings')
                                 : t('Standings after round {round}', {round: sv.afterRound})) + ': ' +
                       sv.rows.map(function (r) {
                           return r.rank + '. ' + r.name + ' ' + r.pointsText;
                       }).join(', '));
        }
        if (!items.length && rv.round > 0)
            items.push(tn('{title} - round {round}: {finished} of {n} table finished',
                          '{title} - round {round}: {finished} of {n} tables finished', rv.tables.length,
                          {title: rv.title, round: rv.round, finished: rv.finished}));
        return items.slice(0, max);
    }

    /* ---- HTML --------------------------------------------------------- */

    /* colourName(c): a TX colour of the feed in the page's language
     * (the feed's own word in English or when it is not a known colour). */
    function colourName(c) {
        var k = String(c).toLowerCase();
        var m = {
            red: tc('colour', 'red'), yellow: tc('colour', 'yellow'), green: tc('colour', 'green'),
            blue: tc('colour', 'blue'), black: tc('colour', 'black'), white: tc('colour', 'white'),
            orange: tc('colour', 'orange'), purple: tc('colour', 'purple')
        };
        return I.language() === I.SOURCE || !m.hasOwnProperty(k) ? c : m[k];
    }

    function swatches(colours) {
        return colours.map(function (c) {
            var k = c.toLowerCase();
            var sw = SWATCH[k] ? '<i class="sw" style="background:' + SWATCH[k] + '"></i>' : '';
            return '<span class="colour">' + sw + esc(colourName(c)) + '</span>';
        }).join('');
    }

    /* playerHtml(p, full): one player; full (table page) adds every
     * registered army. */
    function playerHtml(p, full, extraClass) {
        var d = [];
        if (p.first)
            /* TRANSLATORS: badge of the player who starts the game */
            d.push('<span class="badge">' + esc(t('1st')) + '</span>');
        if (p.army)
            d.push('<span class="army played">' + esc(p.army) + '</span>');
        else if (full && p.armies.length)
            d.push('<span class="armies">' + p.armies.map(function (a) {
                return '<span class="army">' + esc(a) + '</span>';
            }).join('') + '</span>');
        if (p.colours.length)
            d.push(swatches(p.colours));
        if (p.faction)
            d.push('<span class="faction">' + esc(p.faction) +
                   (p.agenda ? ' / ' + esc(p.agenda) : '') + '</span>');
        var club = [p.club, p.country].filter(Boolean).join(', ');
        return '<span class="pl' + (extraClass ? ' ' + extraClass : '') +
               '" data-player="' + esc(p.id) + '">' +
               '<span class="nm">' + esc(p.name) + '</span>' +
               (club ? '<span class="cl">' + esc(club) + '</span>' : '') +
               (d.length ? '<span class="dt">' + d.join('') + '</span>' : '') +
               '</span>';
    }

    /* roundLabel(rv): "Round 2 of 5 - Swiss", "Round 6 - Knockout". */
    function roundLabel(rv) {
        return (rv.ofRounds ? t('Round {round} of {rounds}', {round: rv.round, rounds: rv.ofRounds})
                            : t('Round {round}', {round: rv.round})) +
               (rv.stageName ? ' - ' + rv.stageName : '');
    }

    function headerHtml(rv, opts, right) {
        if (!opts.title)
            return '';
        var rd = rv.round ? roundLabel(rv) : '';
        return '<div class="hd"><span class="ti">' + esc(rv.title) + '</span>' +
               (rd ? '<span class="rd">' + esc(rd) + '</span>' : '') +
               (right || '') + '</div>';
    }

    /* statusHtml(st, what): the line shown while there is nothing to show
     * yet (connecting, or the event has no such data). */
    function statusHtml(st, what) {
        var m;
        if (st.conn === 'online' && st.missing)
            m = t('No event "{event}" on this feed (check event= in the URL)', {event: st.event});
        else if (st.conn === 'online')
            m = what;
        else if (st.conn === 'offline')
            m = t('Feed broker {broker} unreachable, retrying', {broker: st.broker});
        else
            m = t('Connecting to {broker}', {broker: st.broker});
        return '<div class="panel status">' + esc(m) + '</div>';
    }

    function connDot(st) {
        return st.conn === 'online' ? '' : '<span class="offline" title="' + esc(t('feed offline')) + '"></span>';
    }

    function pageCount(n, rows) {
        return Math.max(1, Math.ceil(n / rows));
    }

    /* renderPairings(st, opts, now): the current round's tables; more
     * than opts.rows tables are shown a page at a time, each for
     * opts.cycle seconds (the page follows the clock, so every screen
     * shows the same page). */
    function renderPairings(st, opts, now) {
        var rv = roundView(st, now);
        if (!st.docs.pairings || !rv.round)
            return statusHtml(st, t('No round published yet for {event}', {event: st.event}));
        var pages = pageCount(rv.tables.length, opts.rows);
        var page = Math.floor(now / (opts.cycle * 1000)) % pages;
        var shown = rv.tables.slice(page * opts.rows, (page + 1) * opts.rows);
        var right = clockHtml(rv.clock, 'round-clock') + connDot(st);
        var h = '<div class="panel pairings">' + headerHtml(rv, opts, right) +
                '<div class="rows">';
        shown.forEach(function (tb) {
            var marks = resultMarks(tb), multi = tb.players.length > 2;
            h += '<div class="row st-' + esc(tb.state || 'none') + (multi ? ' multi' : '') +
                 '" data-table="' + tb.table + '">' +
                 '<span class="tn">' + tb.table + '</span><span class="pls"' +
                 (multi ? ' style="grid-template-columns: repeat(' + tb.players.length + ', minmax(0, max-content))"' : '') +
                 '>' + tb.players.map(function (p) {
                     var win = (tb.winner && tb.winner.winner === p.id) || marks.winner === p.id;
                     var cell = playerHtml(p, false, win ? 'win' : '') +
                                (marks.pts[p.id] !== undefined ? '<span class="sc">' + esc(marks.pts[p.id]) + '</span>' : '');
                     return multi ? '<span class="seat">' + cell + '</span>' : cell;
                 }).join(multi ? '' : '<span class="vs">' + esc(marks.draw ? t('draw') : t('vs')) + '</span>') +
                 '</span><span class="ts">' + esc(tb.label) +
                 (tb.extensionMs > 0 ? '<span class="ext">+' + esc(formatClock(tb.extensionMs)) + '</span>' : '') +
                 '</span></div>';
        });
        h += '</div>';
        if (rv.byes.length && page === pages - 1)
            /* TRANSLATORS: the players without a table this round: "Bye: Anna, Jan" */
            h += '<div class="byes">' + esc(t('Bye:')) + ' ' + rv.byes.map(function (p) {
                return '<span class="nm">' + esc(p.name) + '</span>';
            }).join(', ') + '</div>';
        if (pages > 1)
            h += '<div class="page">' + (page + 1) + ' / ' + pages + '</div>';
        return h + '</div>';
    }

    /* resultMarks(tb): a confirmed table's result per player for the
     * pairings rows: {winner (id or null), draw, pts: {id: "10"}} (VP,
     * scores, TP; NH's HQ difference beside the winner). */
    function resultMarks(tb) {
        var out = {winner: null, draw: false, pts: {}};
        var res = isObj(tb.result) ? tb.result : null;
        if (!res)
            return out;
        out.draw = res.draw === true;
        if (str(res.winner)) {
            out.winner = res.winner;
            if (isNum(res.hq_diff))
                out.pts[res.winner] = '+' + res.hq_diff;
        } else if (str(res.default_win)) {
            out.winner = res.default_win;
        }
        var pts = isObj(res.tp) ? res.tp : isObj(res.scores) ? res.scores : isObj(res.vp) ? res.vp : null;
        if (pts)
            tb.players.forEach(function (p) {
                if (isNum(pts[p.id]))
                    out.pts[p.id] = formatNumber(pts[p.id]);
            });
        return out;
    }

    function bracketHtml(st) {
        var bv = bracketView(st);
        if (!bv.rounds.length)
            return '';
        var h = '<div class="panel bracket"><div class="hd"><span class="ti">' + esc(t('Knockout')) + '</span></div><div class="brounds">';
        bv.rounds.forEach(function (r) {
            h += '<div class="bround" data-round="' + r.round + '"><div class="bname">' +
                 esc(r.name) + '</div>';
            r.matches.forEach(function (m) {
                h += '<div class="match' + (m.decided ? ' decided' : '') + '">';
                m.players.forEach(function (p) {
                    h += '<div class="bp' + (p.win ? ' win' : '') + '" data-player="' + esc(p.id) + '">' +
                         '<span class="nm">' + esc(p.name) + '</span>' +
                         (m.bye ? '<span class="g">' + esc(t('bye')) + '</span>' : (m.hasGames ? '<span class="g">' + p.games + '</span>' : '')) +
                         '</div>';
                });
                h += '</div>';
            });
            h += '</div>';
        });
        return h + '</div></div>';
    }

    /* renderStandings(st, opts, now): the top opts.top rows with points
     * and opts.tb tiebreaks; the bracket beside them once there is one
     * (bracket=off hides it, bracket=only shows nothing else). */
    function renderStandings(st, opts, now) {
        var rv = roundView(st, now);
        var br = opts.bracket === 'off' ? '' : bracketHtml(st);
        if (opts.bracket === 'only')
            return br ? '<div class="standings-page">' + br + '</div>'
                      : statusHtml(st, t('No knockout bracket yet for {event}', {event: st.event}));
        if (!st.docs.standings)
            return statusHtml(st, t('No standings yet for {event}', {event: st.event}));
        /* After the last stage: "Final standings"; after a knockout the
         * order is the final classification, so the Swiss points and
         * tiebreaks (which would rank others above the champion) go. */
        var sv = standingsView(st, opts.top, opts.tb);
        var bv = bracketView(st), last = bv.rounds[bv.rounds.length - 1];
        var koDone = !!last && sv.afterRound >= last.round && last.matches.filter(function (m) {
            return !m.bye;
        }).length === 1 && last.matches.every(function (m) {
            return m.decided;
        });
        var fin = sv.final || rv.status === 'finished' || koDone;
        var ko = koDone || (fin && sv.stage === 'elimination');
        if (ko)
            sv = standingsView(st, opts.top, 0);
        var sub = fin ? t('Final standings')
                      : sv.afterRound > 0 ? t('Standings after round {round}', {round: sv.afterRound})
                                          : t('Standings (no round complete yet)');
        var h = '<div class="standings-page"><div class="panel standings">' +
                (opts.title ? '<div class="hd"><span class="ti">' + esc(rv.title) +
                              '</span><span class="rd">' + esc(sub) + '</span>' + connDot(st) + '</div>' : '') +
                '<table><thead><tr><th class="rk">#</th><th class="nmh">' + esc(t('Player')) + '</th>' +
                /* TRANSLATORS: column heading: tournament points */
                (ko ? '' : '<th class="pt">' + esc(t('Pts')) + '</th>') +
                sv.tiebreaks.map(function (n) {
                    return '<th class="tb">' + esc(tiebreakLabel(n)) + '</th>';
                }).join('') + '</tr></thead><tbody>';
        sv.rows.forEach(function (r) {
            /* TRANSLATORS: disqualified (a short flag beside the name) */
            var flag = r.disqualified ? ' <span class="flag">' + esc(t('DQ')) + '</span>'
                                      : (r.dropped ? ' <span class="flag">' + esc(t('dropped')) + '</span>' : '');
            h += '<tr class="' + (r.dropped || r.disqualified ? 'out' : '') + '" data-player="' + esc(r.id) + '">' +
                 '<td class="rk">' + r.rank + '</td><td class="nmc"><span class="nm">' + esc(r.name) + '</span>' + flag +
                 '</td>' + (ko ? '' : '<td class="pt">' + esc(r.pointsText) + '</td>') +
                 r.tb.map(function (v) {
                     return '<td class="tb">' + esc(v) + '</td>';
                 }).join('') + '</tr>';
        });
        h += '</tbody></table></div>';
        return h + br + '</div>';
    }

    /* renderTable(st, opts, now): one featured table (opts.table). */
    function renderTable(st, opts, now) {
        var rv = roundView(st, now);
        if (!st.docs.pairings || !rv.round)
            return statusHtml(st, t('No round published yet for {event}', {event: st.event}));
        var tb = rv.tables.filter(function (x) {
            return x.table === opts.table;
        })[0];
        if (!tb)
            return statusHtml(st, t('Table {table} does not play in round {round}', {table: opts.table, round: rv.round}));
        var h = '<div class="panel featured st-' + esc(tb.state || 'none') + '" data-table="' + tb.table + '">' +
                '<div class="hd"><span class="ti">' + esc(t('Table {table}', {table: tb.table})) + '</span>' +
                '<span class="rd">' + esc(roundLabel(rv)) + '</span>' +
                '<span class="ts">' + esc(tb.label) + '</span>' + connDot(st) + '</div>' +
                '<div class="big-clock">' + (tb.state === 'confirmed'
                    ? '<span class="result">' + esc(resultText(tb) || t('Finished')) + '</span>'
                    : clockHtml(tb.clock, 'table-clock')) +
                (tb.extensionMs > 0 ? '<span class="ext">' + esc(t('+{time} extra', {time: formatClock(tb.extensionMs)})) + '</span>' : '') +
                '</div><div class="seats' + (tb.players.length > 2 ? ' multi' : '') + '">';
        h += tb.players.map(function (p) {
            return playerHtml(p, true, tb.winner && tb.winner.winner === p.id ? 'win' : '');
        }).join('<span class="vs">' + esc(t('vs')) + '</span>');
        return h + '</div></div>';
    }

    /* renderTicker(st, opts, now): one line of the latest results,
     * repeated twice so that live.js can scroll it seamlessly. */
    function renderTicker(st, opts, now) {
        var items = tickerItems(st, now, opts.items);
        if (!items.length)
            return statusHtml(st, t('No results yet for {event}', {event: st.event}));
        var line = items.map(function (s) {
            return '<span class="item">' + esc(s) + '</span>';
        }).join('<span class="sep">+++</span>') + '<span class="sep">+++</span>';
        return '<div class="ticker">' + (opts.title ? '<span class="lbl">' + esc(t('Results')) + '</span>' : '') +
               '<div class="track"><div class="strip"><span class="copy">' + line +
               '</span><span class="copy" aria-hidden="true">' + line + '</span></div></div>' +
               connDot(st) + '</div>';
    }

    function renderError(errors) {
        return '<div class="panel status error">' + errors.map(function (e) {
            return '<div>' + esc(e) + '</div>';
        }).join('') + '<div>Parameters: broker=ws://HOST:PORT, event=ID, theme=dark|light, scale=1, ' +
               'top=8, table=N, rows=9, cycle=12, tb=2, bracket=auto|off|only, items=8, speed=120, title=1|0</div></div>';
    }

    /* render(page, st, opts, now): the page's HTML ("pairings",
     * "standings", "table", "ticker"). */
    function render(page, st, opts, now) {
        switch (page) {
        case 'pairings': return renderPairings(st, opts, now);
        case 'standings': return renderStandings(st, opts, now);
        case 'table': return renderTable(st, opts, now);
        case 'ticker': return renderTicker(st, opts, now);
        default: return renderError(['unknown page "' + page + '"']);
        }
    }

    return {
        PAGES: PAGES,
        esc: esc,
        formatNumber: formatNumber,
        formatClock: formatClock,
        overtimeWord: overtimeWord,
        parseParams: parseParams,
        splitQuery: splitQuery,
        newState: newState,
        topics: topics,
        feedKey: feedKey,
        noteOffset: noteOffset,
        applyMessage: applyMessage,
        clockRemaining: clockRemaining,
        stopIfClosed: stopIfClosed,
        clockText: clockText,
        clockHtml: clockHtml,
        tableState: tableState,
        roundView: roundView,
        standingsView: standingsView,
        bracketView: bracketView,
        tickerItems: tickerItems,
        resultText: resultText,
        tiebreakLabel: tiebreakLabel,
        stateLabel: stateLabel,
        stageText: stageText,
        colourName: colourName,
        armyName: armyName,
        parseLang: parseLang,
        pageLanguage: pageLanguage,
        renderPairings: renderPairings,
        renderStandings: renderStandings,
        renderTable: renderTable,
        renderTicker: renderTicker,
        renderError: renderError,
        render: render
    };
});
