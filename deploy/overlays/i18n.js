/* i18n.js - the pages' words in the venue's language: t() (gettext),
 * tn() (ngettext: plural forms), tc() (pgettext: a message with a
 * context), the language chosen for a page, and numbers and times of day
 * in that language's conventions (the browser's Intl).
 *
 * The translations come from po/tourney-pages/<lang>.po (GNU gettext,
 * the same catalogues and tools as the C programs); po2js.mjs converts
 * them at install time into locale/catalogues.js (the global
 * TourneyCatalogues, loaded before this file; never edited by hand).
 * The msgids are English: a missing catalogue or message shows English.
 * po/tourney-pages/extract collects the messages of the pages' sources
 * with xgettext (keywords t, tn:1,2, tc:1c,2 and N_): write every word a
 * player or a hall reader sees as a literal inside one of them, with
 * {name} placeholders for what varies ("Round {round} of {rounds}").
 *
 * The language of a page (pick()): ?lang= (or the phone's own choice),
 * else the feed's event.language, else the browser's languages
 * (navigator.languages), else English.
 *
 * Loads in a browser (global TourneyI18n) and in node (module.exports:
 * the tests render in every language).  ES5; ASCII only.
 */
(function (root, factory) {
    'use strict';
    var cats = root && root.TourneyCatalogues ? root.TourneyCatalogues : null;
    if (!cats && typeof require === 'function') {
        try {
            cats = require('./locale/catalogues.js');
        } catch (e) {
            cats = null; /* install.sh not run: English only */
        }
    }
    var api = factory(cats || {});
    if (typeof module === 'object' && module && module.exports)
        module.exports = api;
    if (root)
        root.TourneyI18n = api;
})(typeof window !== 'undefined' ? window : null, function (CATS) {
    'use strict';

    var SOURCE = 'en';
    var cur = SOURCE;
    var cache = {};

    /* languages(): the languages the pages speak: English (the msgids)
     * and every catalogue generated from po/tourney-pages. */
    function languages() {
        var out = [SOURCE];
        for (var k in CATS)
            if (CATS.hasOwnProperty(k) && k !== SOURCE)
                out.push(k);
        return out;
    }

    /* match(code): the language we have for a BCP-47 or gettext code
     * ("pl-PL", "cs_CZ", "nb-NO"; "no" and "nn" read Bokmal), or "". */
    function match(code) {
        var c = String(code || '').toLowerCase().replace(/_/g, '-').split('-')[0];
        if (c === 'no' || c === 'nn')
            c = 'nb';
        return c && languages().indexOf(c) >= 0 ? c : '';
    }

    /* pick(o): the page's language from o.param (?lang=), o.stored (the
     * phone's own choice), o.event (the feed's event.language),
     * o.browser (navigator.languages), in that order; English else. */
    function pick(o) {
        o = o || {};
        var l = match(o.param) || match(o.stored) || match(o.event);
        var b = o.browser || [];
        for (var i = 0; !l && i < b.length; i++)
            l = match(b[i]);
        return l || SOURCE;
    }

    function setLanguage(code) {
        cur = match(code) || SOURCE;
        cache = {};
        return cur;
    }

    function language() {
        return cur;
    }

    /* fill(s, vals): "{name}" replaced by vals.name (unknown names stay). */
    function fill(s, vals) {
        if (!vals)
            return s;
        return s.replace(/\{([a-z_]+)\}/g, function (m, k) {
            return vals.hasOwnProperty(k) ? String(vals[k]) : m;
        });
    }

    function lookup(key) {
        var c = CATS[cur];
        var m = c && c.messages && c.messages.hasOwnProperty(key) ? c.messages[key] : null;
        return m && m[0] ? m : null;
    }

    /* t(msgid, vals): the message in the page's language. */
    function t(msgid, vals) {
        var m = lookup(msgid);
        return fill(m ? m[0] : msgid, vals);
    }

    /* tc(context, msgid, vals): a message whose English is ambiguous
     * (gettext's msgctxt). */
    function tc(ctx, msgid, vals) {
        var m = lookup(ctx + '\u0004' + msgid);
        return fill(m ? m[0] : msgid, vals);
    }

    /* pluralIndex(n): which of the catalogue's plural forms n takes: the
     * browser's CLDR rule (Intl.PluralRules) through the category -> form
     * map po2js.mjs checked against the .po's Plural-Forms; that header's
     * own formula where the browser has no Intl.PluralRules. */
    function pluralIndex(n) {
        var c = CATS[cur];
        if (!c)
            return n === 1 ? 0 : 1;
        if (typeof Intl === 'object' && Intl.PluralRules) {
            if (!cache.rules)
                cache.rules = new Intl.PluralRules(cur);
            var f = c.categories[cache.rules.select(n)];
            if (typeof f === 'number')
                return f;
        }
        return c.plural(n);
    }

    /* tn(singular, plural, n, vals): "{n} player" / "{n} players" in the
     * page's language ({n} is n). */
    function tn(singular, plural, n, vals) {
        var v = {n: n}, k;
        for (k in vals || {})
            if (vals.hasOwnProperty(k))
                v[k] = vals[k];
        var m = lookup(singular);
        if (m) {
            var s = m[pluralIndex(n)];
            if (s)
                return fill(s, v);
        }
        return fill(n === 1 ? singular : plural, v);
    }

    /* N_(msgid): marks a message kept in a table (translated where it is
     * shown, with t()). */
    function N_(msgid) {
        return msgid;
    }

    /* number(v, digits): v with at most `digits` decimals (2 unless
     * given), no trailing zeros, the language's decimal sign ("6.33",
     * "6,33"); no grouping (points and tiebreaks are small); -0 is 0. */
    function number(v, digits) {
        var d = typeof digits === 'number' ? digits : 2;
        var p = Math.pow(10, d);
        var r = Math.round(v * p) / p || 0;
        if (typeof Intl === 'object' && Intl.NumberFormat) {
            var key = 'nf' + d;
            if (!cache[key])
                cache[key] = new Intl.NumberFormat(cur, {maximumFractionDigits: d, useGrouping: false});
            return cache[key].format(r);
        }
        return String(r);
    }

    /* timeOfDay(ms): a local time of day as the language writes it
     * ("14:02", "2:02 PM"). */
    function timeOfDay(ms) {
        var d = new Date(ms);
        if (typeof Intl === 'object' && Intl.DateTimeFormat) {
            if (!cache.tf)
                cache.tf = new Intl.DateTimeFormat(cur, {hour: 'numeric', minute: '2-digit'});
            return cache.tf.format(d);
        }
        return (d.getHours() < 10 ? '0' : '') + d.getHours() + ':' + (d.getMinutes() < 10 ? '0' : '') + d.getMinutes();
    }

    /* name(code): a language's own name ("polski", "magyar", "norsk
     * bokmal", "cestina", "English") for the phone's language switcher. */
    function name(code) {
        if (typeof Intl === 'object' && Intl.DisplayNames) {
            try {
                var s = new Intl.DisplayNames([code], {type: 'language'}).of(code);
                if (s)
                    return s.charAt(0).toLocaleUpperCase(code) + s.slice(1);
            } catch (e) {
                /* an old browser: the code */
            }
        }
        return code.toUpperCase();
    }

    /* compare(a, b): the language's alphabetical order (Intl.Collator:
     * "Cech" after "Cyril" in Czech, "Oster" after "Zak" in Norwegian;
     * accents and case ignored in English). */
    function compare(a, b) {
        if (typeof Intl === 'object' && Intl.Collator) {
            if (!cache.coll)
                cache.coll = new Intl.Collator(cur, {sensitivity: 'base', ignorePunctuation: false});
            return cache.coll.compare(a, b);
        }
        return a < b ? -1 : a > b ? 1 : 0;
    }

    return {
        SOURCE: SOURCE,
        languages: languages,
        match: match,
        pick: pick,
        setLanguage: setLanguage,
        language: language,
        t: t,
        tc: tc,
        tn: tn,
        N_: N_,
        fill: fill,
        number: number,
        timeOfDay: timeOfDay,
        name: name,
        compare: compare,
        catalogues: CATS
    };
});
