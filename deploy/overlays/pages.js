/* pages.js - the pure part of the hall screen (hall.html: "find your
 * table" for every player of one or more events, the round clocks, a QR
 * code to the player page) and of the player page (player.html: a
 * player finds their own table, opponents, time left, result and place
 * on a phone).  Options from the URL, accent-insensitive name matching,
 * the alphabetical list and its paging, view models and HTML strings.
 *
 * Not here: the network and the DOM (pages-live.js), and the feed state
 * and the round/standings views, which are overlay.js's (the same code
 * the stream overlays use, so every page reads the feed alike).  Loads
 * in a browser after overlay.js (global TourneyPages) and in node
 * (module.exports; tests/e2e/pages_check.js).
 *
 * Invariants: every feed string goes through esc() before it is HTML;
 * functions never throw on a missing or malformed document; ES5 only (no
 * arrow functions, let/const, template strings): the pages must run on a
 * five-year-old phone browser without a build step.  ASCII only (the
 * accent table uses \u escapes).
 */
(function (root, factory) {
    'use strict';
    var O = root && root.TourneyOverlay ? root.TourneyOverlay
                                        : (typeof require === 'function' ? require('./overlay.js') : null);
    var api = factory(O);
    if (typeof module === 'object' && module && module.exports)
        module.exports = api;
    if (root)
        root.TourneyPages = api;
})(typeof window !== 'undefined' ? window : null, function (O) {
    'use strict';

    var esc = O.esc;
    /* The words: i18n.js (loaded before overlay.js); every message a
     * literal inside t/tn/tc (po/tourney-pages/extract finds them). */
    var I = typeof window !== 'undefined' && window && window.TourneyI18n ? window.TourneyI18n
                                                                        : require('./i18n.js');
    var t = I.t, tn = I.tn, tc = I.tc;
    var EVENT_RE = /^[A-Za-z0-9_.-]{1,64}$/;
    var MAX_EVENTS = 8;

    function isNum(v) {
        return typeof v === 'number' && isFinite(v);
    }

    function isObj(v) {
        return v !== null && typeof v === 'object' && !(v instanceof Array);
    }

    /* ---- names ----------------------------------------------------------- */

    /* Letters that Unicode does not decompose into a base letter and a
     * combining mark (NFD leaves them whole). */
    var FOLD_EXTRA = {
        '\u0142': 'l', '\u0141': 'l', '\u00f8': 'o', '\u00d8': 'o',
        '\u0111': 'd', '\u0110': 'd', '\u00df': 'ss', '\u00e6': 'ae',
        '\u00c6': 'ae', '\u0153': 'oe', '\u0152': 'oe', '\u0131': 'i',
        '\u00f0': 'd', '\u00d0': 'd', '\u00fe': 'th', '\u00de': 'th'
    };

    /* Precomposed Latin letters by base letter, for browsers without
     * String.prototype.normalize (older than 2016). */
    var FOLD_BASE = {
        a: '\u00e0\u00e1\u00e2\u00e3\u00e4\u00e5\u0101\u0103\u0105',
        c: '\u00e7\u0107\u0109\u010b\u010d', d: '\u010f',
        e: '\u00e8\u00e9\u00ea\u00eb\u0113\u0115\u0117\u0119\u011b',
        g: '\u011d\u011f\u0121\u0123', h: '\u0125', i: '\u00ec\u00ed\u00ee\u00ef\u0129\u012b\u012d\u012f',
        j: '\u0135', k: '\u0137', l: '\u013a\u013c\u013e', n: '\u00f1\u0144\u0146\u0148',
        o: '\u00f2\u00f3\u00f4\u00f5\u00f6\u014d\u014f\u0151', r: '\u0155\u0157\u0159',
        s: '\u015b\u015d\u015f\u0161\u0219', t: '\u0163\u0165\u021b',
        u: '\u00f9\u00fa\u00fb\u00fc\u0169\u016b\u016d\u016f\u0171\u0173', w: '\u0175',
        y: '\u00fd\u00ff\u0177', z: '\u017a\u017c\u017e'
    };
    var FOLD_MAP = {};
    (function () {
        var b, i;
        for (b in FOLD_BASE)
            for (i = 0; i < FOLD_BASE[b].length; i++)
                FOLD_MAP[FOLD_BASE[b].charAt(i)] = b;
        for (b in FOLD_EXTRA)
            FOLD_MAP[b] = FOLD_EXTRA[b];
    })();

    /* fold(s): s for matching and sorting: lower case, accents and
     * diacritics removed ("\u0160ebesta" -> "sebesta", "\u0141ukasz" ->
     * "lukasz"), runs of spaces as one. */
    function fold(s) {
        s = String(s === null || s === undefined ? '' : s).toLowerCase();
        if (typeof s.normalize === 'function')
            s = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
        s = s.replace(/[^\u0000-\u007f]/g, function (c) {
            return FOLD_MAP.hasOwnProperty(c) ? FOLD_MAP[c] : c;
        });
        return s.replace(/\s+/g, ' ').replace(/^ | $/g, '');
    }

    /* isCaps(word): a word written in capitals ("SZŐKE", "NGUYỄN"): two
     * letters or more, none lower case; not initials ("J.R.") nor a
     * generation ("II", "III", "IV"). */
    function isCaps(w) {
        return w === w.toUpperCase() && w !== w.toLowerCase() && w.indexOf('.') < 0 &&
               !/^[IVX]+$/.test(w) && w.replace(/[^A-Za-z\u00c0-\uffff]/g, '').length > 1;
    }

    /* splitName(name): {given, surname} (docs/console.md "Family names"):
     * the family name is what comes before a comma ("Szőke, Ödön"); else
     * the words written in capitals ("NGUYỄN Thị Minh Khai", "SZŐKE
     * Ödön", "Anna NOWAK"), so that names written family name first sort
     * by it; else the last word ("Jan van Dijk": surname "Dijk" would
     * sort wrongly, so a lower-case particle before it joins it: "van
     * Dijk").  A one-word name (a nickname) has no surname.  With
     * familyFirst below, the PDF's list (hub/cli/names.c) has the same
     * rules: both are checked against tests/hub/family_names.tsv. */
    function splitName(name) {
        name = String(name || '').replace(/\s+/g, ' ').replace(/^ | $/g, '');
        var c = name.indexOf(',');
        if (c > 0)
            return {given: name.slice(c + 1).replace(/^ /, ''), surname: name.slice(0, c)};
        var w = name.split(' ');
        if (w.length < 2)
            return {given: name, surname: ''};
        var caps = w.map(isCaps), first = caps.indexOf(true);
        if (first >= 0 && caps.indexOf(false) >= 0) {
            var last = first;
            while (last + 1 < w.length && caps[last + 1])
                last++;
            return {given: w.slice(0, first).concat(w.slice(last + 1)).join(' '),
                    surname: w.slice(first, last + 1).join(' ')};
        }
        var i = w.length - 1;
        while (i > 1 && /^(van|von|der|den|de|del|della|di|da|du|la|le|ter|ten|af|zu)$/.test(w[i - 1]))
            i--;
        return {given: w.slice(0, i).join(' '), surname: w.slice(i).join(' ')};
    }

    /* sortName(name, mode): {key, text}: the folded sort key and the name
     * as the list shows it.  mode "surname": "Nowak, Anna" sorted by
     * surname then given name; mode "name": as registered. */
    function sortName(name, mode) {
        if (mode === 'surname') {
            var ff = familyFirst(name);
            if (ff)
                return {key: fold(ff.surname) + '\u0001' + fold(ff.given), text: ff.text};
            var n = splitName(name);
            if (n.surname)
                return {key: fold(n.surname) + '\u0001' + fold(n.given),
                        text: n.surname + (n.given ? ', ' + n.given : '')};
        }
        return {key: fold(name), text: String(name || '')};
    }

    /* familyFirst(name): a name written family name first by its
     * convention: in Chinese, Japanese or Korean script ("\u5c71\u7530
     * \u592a\u90ce"), or any name without a comma or capitals on a
     * Hungarian page ("L\u0151rincz \u00c1rp\u00e1d": a Hungarian
     * registers family name first): {surname (the first word), given,
     * text (the name as written, already in list order)}; null else. */
    function familyFirst(name) {
        name = String(name || '').replace(/\s+/g, ' ').replace(/^ | $/g, '');
        var w = name.split(' ');
        if (w.length < 2 || name.indexOf(',') >= 0)
            return null;
        var cjk = /[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(name);
        if (!cjk && (I.language() !== 'hu' || w.some(isCaps)))
            return null;
        return {surname: w[0], given: w.slice(1).join(' '), text: name};
    }

    /* ---- options ------------------------------------------------------- */

    var HALL_DEFAULTS = {
        broker: 'ws://localhost:9001', events: [], theme: 'dark', sort: 'surname',
        cycle: 12, scale: 0, qr: '', extras: 1, title: '', lang: ''
    };
    var PLAYER_DEFAULTS = {
        broker: 'ws://localhost:9001', events: [], theme: 'light', text: 'normal',
        player: '', lang: ''
    };

    var splitQuery = O.splitQuery; /* overlay.js: one URL query reader */

    /* parseEvents(raw, errors): the event ids of event= or events=
     * (comma-separated, at most MAX_EVENTS, no repeats). */
    function parseEvents(raw, errors) {
        var s = 'events' in raw ? raw.events : ('event' in raw ? raw.event : '');
        var out = [];
        if (s === '') {
            errors.push('events: missing (add ?events=ID or ?events=ID1,ID2 to the URL)');
            return out;
        }
        s.split(',').forEach(function (id) {
            if (!EVENT_RE.test(id))
                errors.push('events: not an event id: "' + id + '"');
            else if (out.indexOf(id) < 0)
                out.push(id);
        });
        if (out.length > MAX_EVENTS)
            errors.push('events: at most ' + MAX_EVENTS + ' events on one screen, got ' + out.length);
        return out;
    }

    function parseCommon(raw, opts, errors) {
        if ('broker' in raw) {
            if (/^wss?:\/\/[^\s\/?#]+(\/[^\s]*)?$/.test(raw.broker))
                opts.broker = raw.broker;
            else
                errors.push('broker: expected ws://HOST:PORT or wss://HOST:PORT, got "' + raw.broker + '"');
        }
        opts.events = parseEvents(raw, errors);
        if ('theme' in raw) {
            if (raw.theme === 'dark' || raw.theme === 'light')
                opts.theme = raw.theme;
            else
                errors.push('theme: expected dark or light, got "' + raw.theme + '"');
        }
        if ('lang' in raw)
            O.parseLang(raw.lang, opts, errors);
    }

    function withDefaults(base, defaults) {
        var opts = {}, k;
        for (k in base)
            opts[k] = base[k];
        if (isObj(defaults))
            for (k in defaults)
                if (base.hasOwnProperty(k))
                    opts[k] = defaults[k];
        return opts;
    }

    /* parseHallParams(query, defaults): {opts, errors} of hall.html:
     * broker, events (event= or events=ID1,ID2), theme, sort
     * (surname|name), cycle (seconds per page, 4..120), scale (0 = from
     * the screen's width, else 0.25..4), qr (the player page's address
     * for the QR code; "0" hides it), extras (0 hides armies/colours/
     * factions), title (the screen's heading). */
    function parseHallParams(query, defaults) {
        var errors = [], opts = withDefaults(HALL_DEFAULTS, defaults);
        var raw = splitQuery(query, errors);
        parseCommon(raw, opts, errors);
        if ('sort' in raw) {
            if (raw.sort === 'surname' || raw.sort === 'name')
                opts.sort = raw.sort;
            else
                errors.push('sort: expected surname or name, got "' + raw.sort + '"');
        }
        if ('cycle' in raw) {
            if (/^[0-9]{1,3}$/.test(raw.cycle) && +raw.cycle >= 4 && +raw.cycle <= 120)
                opts.cycle = +raw.cycle;
            else
                errors.push('cycle: expected seconds 4..120, got "' + raw.cycle + '"');
        }
        if ('scale' in raw) {
            var s = Number(raw.scale);
            if (raw.scale !== '' && isNum(s) && (s === 0 || (s >= 0.25 && s <= 4)))
                opts.scale = s;
            else
                errors.push('scale: expected 0 (fit the screen) or a number 0.25..4, got "' + raw.scale + '"');
        }
        if ('extras' in raw) {
            if (raw.extras === '0' || raw.extras === '1')
                opts.extras = +raw.extras;
            else
                errors.push('extras: expected 0 or 1, got "' + raw.extras + '"');
        }
        if ('qr' in raw) {
            if (raw.qr === '0' || /^https?:\/\/[^\s]+$/.test(raw.qr))
                opts.qr = raw.qr;
            else
                errors.push('qr: expected the player page address http://... or 0, got "' + raw.qr + '"');
        }
        if ('title' in raw)
            opts.title = raw.title.slice(0, 120);
        return {opts: opts, errors: errors};
    }

    /* parsePlayerParams(query, defaults): {opts, errors} of player.html:
     * broker, events, theme (light|dark), text (normal|large), player (the
     * chosen player as EVENT/ID; the page keeps it in its address). */
    function parsePlayerParams(query, defaults) {
        var errors = [], opts = withDefaults(PLAYER_DEFAULTS, defaults);
        var raw = splitQuery(query, errors);
        parseCommon(raw, opts, errors);
        if ('text' in raw) {
            if (raw.text === 'normal' || raw.text === 'large')
                opts.text = raw.text;
            else
                errors.push('text: expected normal or large, got "' + raw.text + '"');
        }
        if ('player' in raw)
            opts.player = raw.player.slice(0, 200);
        return {opts: opts, errors: errors};
    }

    /* playerUrl(base, opts): the player page's address for the hall's
     * QR code: `base` (the folder hall.html was loaded from, or qr=) with
     * the events and, when it is not the page's default, the broker. */
    function playerUrl(base, opts, defaultBroker) {
        var u = base;
        if (!/player\.html/.test(u))
            u = u.replace(/[^\/]*$/, '') + 'player.html';
        u += (u.indexOf('?') < 0 ? '?' : '&') + 'events=' + opts.events.join(',');
        if (opts.broker !== defaultBroker)
            u += '&broker=' + encodeURIComponent(opts.broker);
        return u;
    }

    /* ---- the hall's list ---------------------------------------------- */

    /* extrasText(p, hall): a seat's format extras in a few words: GT
     * faction (and agenda), TX colours, NH army played else registered
     * armies (not on the hall: five army names do not fit beside a name
     * and do not help to find a table), AG starting player. */
    function extrasText(p, hall) {
        var d = [];
        if (p.faction)
            d.push(p.faction + (p.agenda ? ' / ' + p.agenda : ''));
        if (p.colours.length)
            d.push(p.colours.map(O.colourName).join(' / '));
        if (p.army)
            d.push(p.army);
        else if (p.armies.length && !hall)
            d.push(p.armies.join(' / '));
        if (p.first)
            /* TRANSLATORS: this player starts the game */
            d.push(t('starts'));
        return d.join(' \u00b7 ');
    }

    /* finalRows(st, rv): a finished event's final standings rows ({rank,
     * player, name}), or null while the event is not over or its
     * standings have not arrived. */
    function finalRows(st, rv) {
        var sd = isObj(st.docs.standings) ? st.docs.standings : {};
        var rows = (sd.standings instanceof Array ? sd.standings : []).filter(function (r) {
            return isObj(r) && typeof r.player === 'string' && isNum(r.rank);
        });
        return rv.status === 'finished' && rows.length ? rows : null;
    }

    /* hallFinished(states, now): every event on the hall is over with its
     * final standings in: the screen is a list of final places. */
    function hallFinished(states, now) {
        return states.length > 0 && states.every(function (st) {
            return finalRows(st, O.roundView(st, now)) !== null;
        });
    }

    /* hallTitle(states, now): the hall's heading: "Find your table" while
     * any event plays, "Final standings" once every one is over. */
    function hallTitle(states, now) {
        return hallFinished(states, now) ? t('Final standings') : t('Find your table');
    }

    /* hallEntries(states, opts, now): one entry per player of the
     * latest round of every event ({event, id, key, text, table, seat,
     * extras, bye, place}), sorted by opts.sort then by event and table;
     * a finished event's players with their final place (place > 0,
     * table 0) from its standings. */
    function hallEntries(states, opts, now) {
        var out = [];
        states.forEach(function (st, ei) {
            var rv = O.roundView(st, now);
            var fin = finalRows(st, rv);
            if (fin) {
                fin.forEach(function (r) {
                    var sn = sortName(String(r.name || r.player), opts.sort);
                    out.push({event: ei, id: r.player, key: sn.key, text: sn.text,
                              table: 0, seat: 0, extras: '', bye: false, place: r.rank});
                });
                return;
            }
            if (!rv.round)
                return;
            rv.tables.forEach(function (tb) {
                tb.players.forEach(function (p) {
                    var sn = sortName(p.name, opts.sort);
                    out.push({event: ei, id: p.id, key: sn.key, text: sn.text,
                              table: tb.table, seat: p.seat, extras: extrasText(p, true), bye: false, place: 0});
                });
            });
            rv.byes.forEach(function (p) {
                var sn = sortName(p.name, opts.sort);
                out.push({event: ei, id: p.id, key: sn.key, text: sn.text,
                          table: 0, seat: 0, extras: '', bye: true, place: 0});
            });
        });
        /* English: by the folded key (accents ignored); another language
         * by its own alphabet (Intl.Collator: Czech "Č" after "C",
         * Norwegian "Ø" after "Z"), the folded key among equals. */
        var english = I.language() === I.SOURCE;
        out.sort(function (a, b) {
            if (!english) {
                var c = I.compare(a.text, b.text);
                if (c)
                    return c;
            }
            if (a.key !== b.key)
                return a.key < b.key ? -1 : 1;
            if (a.event !== b.event)
                return a.event - b.event;
            return a.table - b.table;
        });
        return out;
    }

    /* hallPage(n, perPage, cycle, now): {page, pages, from, to} of the
     * list shown now: every screen running the same clock shows the same
     * page. */
    function hallPage(n, perPage, cycle, now) {
        perPage = Math.max(1, perPage);
        var pages = Math.max(1, Math.ceil(n / perPage));
        var page = Math.floor(now / (cycle * 1000)) % pages;
        return {page: page, pages: pages, from: page * perPage, to: Math.min(n, (page + 1) * perPage)};
    }

    /* initial(e): the first letter of an entry's sort key, upper case
     * (in another language than English the letter as written: "Č"). */
    function initial(e) {
        if (I.language() !== I.SOURCE && e.text)
            return e.text.charAt(0).toLocaleUpperCase(I.language());
        return e.key.charAt(0).toUpperCase();
    }

    /* clockWords(rem): the words beside a round clock ("+0:26 overtime",
     * the one format of the tables and the dashboard); a closed round's
     * clock (state "stopped") says so and shows no time. */
    function clockWords(rem) {
        if (!rem)
            return '';
        if (rem.unlimited)
            return t('no time limit');
        if (rem.state === 'stopped')
            return t('round closed');
        var over = isNum(rem.ms) && rem.ms <= -1000;
        if (rem.state === 'paused')
            return over ? t('paused in overtime') : t('paused');
        if (rem.state === 'not_started')
            return t('not started');
        /* TRANSLATORS: after a round clock's time left: "1:23:45 left" */
        return over ? O.overtimeWord() : t('left');
    }

    function clockClass(rem) {
        var c = 'ck ck-' + (rem ? rem.state || 'none' : 'none');
        if (rem && isNum(rem.ms) && rem.ms <= 0 && !rem.unlimited && rem.state !== 'stopped')
            c += ' ck-over';
        return c;
    }

    /* bigClock(rem): the clock text: the time left, overtime as "+M:SS"
     * (time past the deadline, O.formatClock), "" when unknown, unlimited
     * or stopped (a closed round's time no longer counts). */
    function bigClock(rem) {
        if (!rem || rem.unlimited || !isNum(rem.ms) || rem.state === 'stopped')
            return '';
        return O.formatClock(rem.ms);
    }

    /* eventNote(st, rv): why an event has nothing to show yet, or "". */
    function eventNote(st, rv, missingAfter) {
        if (st.conn !== 'online')
            return st.conn === 'offline' ? t('feed broker {broker} unreachable, retrying', {broker: st.broker})
                                         : t('connecting to {broker}', {broker: st.broker});
        if (!st.docs.event)
            return missingAfter ? t('no event "{event}" on this feed', {event: st.event}) : t('waiting for the feed');
        if (!rv.round)
            return t('no round published yet');
        return '';
    }

    /* roundWords(round, of, stage): "Round 2 of 5 \u00b7 Swiss". */
    function roundWords(round, of, stage) {
        return (of ? t('Round {round} of {rounds}', {round: round, rounds: of}) : t('Round {round}', {round: round})) +
               (stage ? ' \u00b7 ' + stage : '');
    }

    /* eventHeads(states, now, missing): the header block of every event:
     * title, round and stage, big clock. */
    function eventHeads(states, now, missing) {
        return states.map(function (st, ei) {
            var rv = O.roundView(st, now);
            var note = eventNote(st, rv, missing && missing[ei]);
            var label = rv.round ? roundWords(rv.round, rv.ofRounds, rv.stageName) : '';
            /* A finished event has no clock; a closed round's says so
             * without a time (no "1:59:40 left" once play is over). */
            var finished = rv.status === 'finished';
            if (finished)
                /* TRANSLATORS: an event's state: it is over */
                label = tc('event', 'Finished');
            var ck = finished ? '' : bigClock(rv.clock);
            var words = finished ? '' : clockWords(rv.clock);
            return '<div class="ev" data-event="' + esc(st.event) + '">' +
                   (states.length > 1 ? '<span class="tag tag' + ei + '">' + (ei + 1) + '</span>' : '') +
                   '<div class="evt"><div class="evn">' + esc(rv.title) + '</div>' +
                   '<div class="evr">' + esc(note || label) + '</div></div>' +
                   (ck || words ? '<div class="' + clockClass(rv.clock) + '">' +
                                  (ck ? '<span class="ckt">' + esc(ck) + '</span>' : '') +
                                  '<span class="ckw">' + esc(words) + '</span></div>' : '') +
                   '</div>';
        }).join('');
    }

    /* placeText(rank): a final place in the hall list, "3." (an ordinal
     * as Czech, Hungarian, Polish and Norwegian write it, and English
     * lists too). */
    function placeText(rank) {
        return String(rank) + '.';
    }

    /* tableLetter(): the hall list's abbreviation of "table" ("T12/3"). */
    function tableLetter() {
        /* TRANSLATORS: one letter for "table" in the hall list: "T12/3" is table 12, seat 3 */
        return tc('table letter', 'T');
    }

    /* renderHall(states, opts, now, fit, missing): the hall screen in
     * three parts that the page updates separately (the list only when
     * its page or content changes, so that a page turn can fade in):
     * {heads (every event's title, round, big clock), list (the entries
     * of the page shown now, in fit.rows x fit.cols; pages-live.js
     * measures how many fit), foot (letters, page n of m), page}.
     * `missing[i]`: event i has had time to arrive and did not. */
    function renderHall(states, opts, now, fit, missing) {
        var entries = hallEntries(states, opts, now);
        var per = Math.max(1, fit.rows * fit.cols);
        var pg = hallPage(entries.length, per, opts.cycle, now);
        var shown = entries.slice(pg.from, pg.to);
        var multi = states.length > 1;
        var list = '';
        shown.forEach(function (e) {
            list += '<div class="en' + (e.bye ? ' bye' : '') + '" data-player="' + esc(e.id) +
                    '" data-event="' + esc(states[e.event].event) + '">' +
                    (multi ? '<span class="tag tag' + e.event + '">' + (e.event + 1) + '</span>' : '') +
                    '<span class="nm">' + esc(e.text) + '</span>' +
                    (opts.extras && e.extras ? '<span class="ex">' + esc(e.extras) + '</span>' : '') +
                    (e.place ? '<span class="tb pl">' + esc(placeText(e.place)) + '</span>'
                     : e.bye ? '<span class="tb">' + esc(t('bye')) + '</span>'
                           : '<span class="tb"><span class="tl">' + esc(tableLetter()) + '</span>' + e.table +
                             (e.seat ? '<span class="se">/' + e.seat + '</span>' : '') + '</span>') +
                    '</div>';
        });
        var foot = '';
        var tables = entries.some(function (e) {
            return !e.place;
        });
        if (entries.length)
            foot = '<span class="range">' + esc(initial(shown[0]) + ' \u2013 ' + initial(shown[shown.length - 1])) +
                   '</span><span class="pg">' + esc(t('page {page} of {pages}', {page: pg.page + 1, pages: pg.pages}) +
                   ' \u00b7 ' + tn('{n} player', '{n} players', entries.length)) + '</span>' +
                   (tables ? '<span class="hint">' +
                             /* TRANSLATORS: the key to the hall list's "T12/3"; T is the letter of "table" */
                             esc(t('{letter} 12/3 = table 12, seat 3', {letter: tableLetter()})) + '</span>' : '');
        return {heads: eventHeads(states, now, missing), list: list, foot: foot,
                page: pg.page, pages: pg.pages, total: entries.length, shown: shown.length};
    }

    /* ---- the player page ------------------------------------------------ */

    /* findPlayers(states, query, max): players of every event whose
     * folded name contains every folded word of the query ("sebesta"
     * finds "\u0160ebesta", "jan seb" finds "Jan \u0160ebesta"): [{event
     * (index), id, name, club}] sorted by name; registered players of the
     * standings (everyone) and of the round's pairings. */
    function findPlayers(states, query, max) {
        var words = fold(query).split(' ').filter(Boolean);
        var out = [];
        if (!words.length)
            return out;
        states.forEach(function (st, ei) {
            var seen = {};
            var add = function (id, name, club) {
                if (!id || seen[id])
                    return;
                seen[id] = true;
                var f = fold(name);
                for (var i = 0; i < words.length; i++)
                    if (f.indexOf(words[i]) < 0)
                        return;
                out.push({event: ei, id: id, name: name, club: club || '', key: sortName(name, 'surname').key});
            };
            var sd = isObj(st.docs.standings) ? st.docs.standings : {};
            (sd.standings instanceof Array ? sd.standings : []).forEach(function (r) {
                if (isObj(r))
                    add(String(r.player || ''), String(r.name || r.player || ''), '');
            });
            var rv = O.roundView(st, 0);
            rv.tables.forEach(function (tb) {
                tb.players.forEach(function (p) {
                    add(p.id, p.name, p.club);
                });
            });
            rv.byes.forEach(function (p) {
                add(p.id, p.name, p.club);
            });
        });
        out.sort(function (a, b) {
            return a.key < b.key ? -1 : a.key > b.key ? 1 : a.event - b.event;
        });
        return out.slice(0, max || 50);
    }


    function arr(v) {
        return v instanceof Array ? v : [];
    }

    function str(v) {
        return typeof v === 'string' ? v : '';
    }

    /* seatView(p): a feed player object (docs/feed.md) as extrasText and
     * resultText want it. */
    function seatView(p) {
        p = isObj(p) ? p : {};
        return {
            id: str(p.id), name: str(p.name) || str(p.id), club: str(p.club),
            country: str(p.country), seat: isNum(p.seat) ? p.seat : 0,
            first: p.first === true, army: O.armyName(str(p.army)),
            armies: arr(p.armies).filter(function (a) { return typeof a === 'string'; }).map(O.armyName),
            colours: arr(p.colours).filter(function (a) { return typeof a === 'string'; }),
            faction: str(p.faction), agenda: str(p.agenda)
        };
    }

    /* roundLabelOf(ev): "Round 2 of 5 · Swiss" from the event document. */
    function roundLabelOf(ev) {
        if (!isObj(ev) || !isNum(ev.round) || !ev.round)
            return '';
        return roundWords(ev.round, isNum(ev.stage_rounds) && ev.stage_round === ev.round ? ev.stage_rounds : 0,
                          O.stageText(str(ev.stage_name)));
    }

    /* playerCard(st, id, now): what the player page shows of one player,
     * from the player's own documents (st.mine: feed player/ID and
     * table/N, docs/feed.md): {found, name, club, title, round,
     * roundLabel, table (0 = none), seat, first, extras, opponents: [{name,
     * club, seat, extras}], state, stateLabel, clock (remaining), result
     * (text), bye, standing: {rank, of, points, afterRound, tiebreaks:
     * [{label, value}], dropped, disqualified} or null, finished}. */
    function playerCard(st, id, now) {
        var ev = isObj(st.docs.event) ? st.docs.event : {};
        var mine = st.mine || {};
        var pd = isObj(mine.player) && mine.player.id === id ? mine.player : null;
        var c = {found: !!pd, name: '', club: '', title: str(ev.title) || st.event, round: 0,
                 roundLabel: roundLabelOf(ev), table: 0, seat: 0, first: false, extras: '',
                 opponents: [], state: '', stateLabel: '', clock: null, result: '', bye: false,
                 standing: null, finished: ev.status === 'finished', results: []};
        if (!pd)
            return c;
        c.name = str(pd.name) || id;
        c.round = isNum(pd.round) ? pd.round : 0;
        c.bye = pd.bye === true;
        if (isNum(pd.table) && pd.table > 0) {
            var me = seatView(pd.me);
            c.club = [me.club, me.country].filter(Boolean).join(', ');
            c.table = pd.table;
            c.seat = me.seat;
            c.first = me.first;
            c.extras = extrasText(me);
            c.opponents = arr(pd.opponents).map(seatView).map(function (p) {
                return {name: p.name, club: [p.club, p.country].filter(Boolean).join(', '),
                        seat: p.seat, extras: extrasText(p), first: p.first};
            });
            var td = isObj(mine.table) && mine.table.table === pd.table && mine.table.round === pd.round
                     ? mine.table : null;
            if (td) {
                c.state = O.tableState(td, st, now);
                c.stateLabel = O.stateLabel(c.state);
                c.clock = O.clockRemaining(td.clock, st, now);
                if (c.state === 'confirmed' && isObj(td.result))
                    c.result = O.resultText({players: arr(td.players).map(seatView), result: td.result}) || '';
            }
        }
        /* the player's results so far (player/ID results[]), oldest first */
        c.results = arr(pd.results).filter(isObj).map(function (x) {
            if (x.bye === true)
                return {round: x.round, table: 0, text: t('bye')};
            return {round: x.round, table: x.table,
                    text: O.resultText({players: arr(x.players).map(seatView), result: x.result}) || ''};
        });
        var r = isObj(pd.standing) ? pd.standing : null;
        if (r) {
            var tbs = isObj(r.tiebreaks) ? r.tiebreaks : {};
            c.standing = {
                rank: isNum(r.rank) ? r.rank : 0,
                of: isNum(pd.of) ? pd.of : 0,
                points: O.formatNumber(r.points),
                afterRound: isNum(pd.after_round) ? pd.after_round : 0,
                tiebreaks: Object.keys(tbs).filter(function (k) {
                    return k !== 'lot';
                }).map(function (k) {
                    return {label: O.tiebreakLabel(k), value: O.formatNumber(tbs[k])};
                }),
                dropped: r.dropped === true,
                disqualified: r.disqualified === true
            };
        }
        return c;
    }

    /* The feed client of the hall and the player page (pages-live.js;
     * bench/feed_clients.js simulates the phones with these). */
    var FEED_CONNECT = {clean: true, protocolVersion: 4, reconnectPeriod: 2000, connectTimeout: 8000, keepalive: 20};
    /* The player page subscribes at QoS 0: every topic it holds is a
     * complete retained document (or the `now` heartbeat) that comes
     * again after a reconnect, so an acknowledgement per message buys a
     * phone nothing and costs the feed broker a PUBACK to read from every
     * phone for every message (docs/feed.md). */
    var PLAYER_QOS = 0;

    /* playerTopics(events, pick, states): the topics the player page holds
     * now.  A phone holds little: each event's `event` and the clock
     * heartbeat `now`, the pairings only while searching (the names),
     * then its player's own document and its table's (docs/feed.md
     * player/ID, table/N), never the whole round (`tables`, `pairings`,
     * `standings`).  states[i] (may be missing) is events[i]'s state with
     * st.mine from mineMessage. */
    function playerTopics(events, pick, states) {
        var out = [];
        events.forEach(function (ev, i) {
            var pre = 'tourney/v1/feed/' + ev + '/';
            out.push(pre + 'event', pre + 'now');
            if (!pick) {
                out.push(pre + 'pairings');
                return;
            }
            if (pick.indexOf(ev + '/') !== 0)
                return;
            out.push(pre + 'player/' + pick.slice(ev.length + 1));
            var st = states ? states[i] : null;
            var pd = st && st.mine && st.mine.player;
            if (pd && typeof pd.table === 'number' && pd.table > 0)
                out.push(pre + 'table/' + pd.table);
        });
        return out;
    }

    /* mineMessage(st, topic, text, pick): a message of the chosen
     * player's own topics (feed player/ID, table/N) into st.mine; returns
     * true when it was one.  pick = "EVENT/ID". */
    function mineMessage(st, topic, text, pick) {
        var p = 'tourney/v1/feed/' + st.event + '/';
        if (topic.indexOf(p) !== 0)
            return false;
        var k = topic.slice(p.length), doc;
        if (k.indexOf('player/') !== 0 && k.indexOf('table/') !== 0)
            return false;
        try {
            doc = JSON.parse(String(text));
        } catch (e) {
            return false;
        }
        if (!isObj(doc))
            return false;
        st.mine = st.mine || {};
        if (k.indexOf('player/') === 0) {
            if (pick !== st.event + '/' + k.slice(7))
                return false;
            st.mine.player = doc;
        } else {
            st.mine.table = doc;
        }
        return true;
    }

    /* renderMatches(states, query): the search results as a list of
     * links (href "#player=EVENT/ID"). */
    function renderMatches(states, query) {
        if (!fold(query))
            return '';
        var m = findPlayers(states, query, 30);
        if (!m.length)
            return '<p class="none">' + esc(t('No player matches \u201c{query}\u201d.', {query: query})) + '</p>';
        return '<ul class="matches">' + m.map(function (p) {
            var ev = states[p.event];
            return '<li><a href="#" data-pick="' + esc(ev.event + '/' + p.id) + '"><span class="nm">' +
                   esc(p.name) + '</span>' + (p.club ? '<span class="cl">' + esc(p.club) + '</span>' : '') +
                   (states.length > 1 ? '<span class="cl">' + esc(O.roundView(ev, 0).title) + '</span>' : '') +
                   '</a></li>';
        }).join('') + '</ul>';
    }

    /* renderCard(states, pick, now, missing): the chosen player's card
     * (pick = "EVENT/ID"). */
    function renderCard(states, pick, now) {
        var i = pick.indexOf('/');
        var evId = i > 0 ? pick.slice(0, i) : '', id = i > 0 ? pick.slice(i + 1) : '';
        var st = states.filter(function (s) {
            return s.event === evId;
        })[0];
        if (!st)
            return '<div class="card"><p class="none">' + esc(t('Not on this page: {player}', {player: pick})) + '</p></div>';
        var c = playerCard(st, id, now);
        if (!c.found)
            return '<div class="card"><p class="none">' +
                   (st.docs.event && st.mineAsked && now - st.mineAsked > 6000
                       ? esc(t('No player {player} in {event}', {player: id, event: c.title}))
                       : esc(t('Waiting for the feed\u2026'))) +
                   '</p></div>';
        var h = '<div class="card" data-player="' + esc(id) + '"><div class="who"><div class="nm">' + esc(c.name) +
                '</div>' + (c.club ? '<div class="cl">' + esc(c.club) + '</div>' : '') +
                '<div class="evr">' + esc(c.title) + (c.roundLabel ? ' \u00b7 ' + esc(c.roundLabel) : '') + '</div></div>';
        if (c.table) {
            /* a finished table's time no longer counts */
            var ck = c.state === 'confirmed' ? '' : bigClock(c.clock);
            h += '<div class="where"><div class="box"><div class="k">' + esc(t('Table')) + '</div><div class="v" id="my-table">' +
                 c.table + '</div></div><div class="box"><div class="k">' + esc(t('Seat')) +
                 '</div><div class="v" id="my-seat">' + (c.seat || '-') +
                 '</div></div>' + (ck ? '<div class="box ' + clockClass(c.clock) + '"><div class="k">' +
                 esc(clockWords(c.clock)) + '</div><div class="v">' + esc(ck) + '</div></div>' : '') + '</div>';
            if (c.extras)
                h += '<div class="ext">' + esc(c.extras) + '</div>';
            h += '<div class="state st-' + esc(c.state || 'none') + '">' + esc(c.stateLabel) + '</div>';
            h += '<h3>' + esc(tn('Opponent', 'Opponents', c.opponents.length)) + '</h3><ul class="opps">' +
                 c.opponents.map(function (p) {
                     return '<li><span class="nm">' + esc(p.name) + '</span>' +
                            '<span class="cl">' + esc(t('seat {seat}', {seat: p.seat})) +
                            (p.club ? ' \u00b7 ' + esc(p.club) : '') + '</span>' +
                            (p.extras ? '<span class="cl">' + esc(p.extras) + '</span>' : '') + '</li>';
                 }).join('') + '</ul>';
            if (c.result)
                h += '<h3>' + esc(t('Result')) + '</h3><p class="res">' + esc(c.result) + '</p>';
        } else if (c.bye) {
            /* TRANSLATORS: the phone's card of a player without a table: "Bye / this round" */
            h += '<div class="where"><div class="box wide"><div class="v">' + esc(t('Bye')) + '</div><div class="k">' +
                 esc(t('this round')) + '</div></div></div>';
        } else if (c.round) {
            h += '<p class="none">' + esc(t('Not playing in round {round}.', {round: c.round})) + '</p>';
        }
        if (c.results.length)
            h += '<h3>' + esc(t('Your results')) + '</h3><ul class="hist">' + c.results.map(function (x) {
                return '<li><span class="cl">' + esc(x.table ? t('Round {round} \u00b7 table {table}', {round: x.round, table: x.table})
                                                            : t('Round {round}', {round: x.round})) +
                       '</span><span class="nm">' + esc(x.text) + '</span></li>';
            }).join('') + '</ul>';
        if (c.standing) {
            var s = c.standing;
            h += '<h3>' + esc(c.finished ? t('Final place') : s.afterRound ? t('Standing after round {round}', {round: s.afterRound})
                                                                         : t('Standing (no round complete yet)')) + '</h3>' +
                 '<div class="stand"><div class="box"><div class="k">' + esc(t('Place')) + '</div><div class="v" id="my-rank">' +
                 s.rank + '<small> / ' + s.of + '</small></div></div><div class="box"><div class="k">' + esc(t('Points')) +
                 '</div><div class="v">' +
                 esc(s.points) + '</div></div></div>' +
                 (s.tiebreaks.length ? '<table class="tbs">' + s.tiebreaks.map(function (tb) {
                     return '<tr><th>' + esc(tb.label) + '</th><td>' + esc(tb.value) + '</td></tr>';
                 }).join('') + '</table>' : '') +
                 (s.disqualified ? '<p class="none">' + esc(t('Disqualified')) + '</p>'
                                 : s.dropped ? '<p class="none">' + esc(t('Dropped')) + '</p>' : '');
        }
        return h + '</div>';
    }

    return {
        fold: fold,
        splitName: splitName,
        sortName: sortName,
        parseHallParams: parseHallParams,
        parsePlayerParams: parsePlayerParams,
        playerUrl: playerUrl,
        extrasText: extrasText,
        hallEntries: hallEntries,
        hallFinished: hallFinished,
        hallTitle: hallTitle,
        hallPage: hallPage,
        bigClock: bigClock,
        clockWords: clockWords,
        renderHall: renderHall,
        findPlayers: findPlayers,
        playerCard: playerCard,
        mineMessage: mineMessage,
        playerTopics: playerTopics,
        FEED_CONNECT: FEED_CONNECT,
        PLAYER_QOS: PLAYER_QOS,
        renderMatches: renderMatches,
        renderCard: renderCard,
        eventHeads: eventHeads
    };
});
