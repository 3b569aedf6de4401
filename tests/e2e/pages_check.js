/* pages_check.js - the e2e check of the hall screen and the player page
 * (deploy/overlays/hall.html, player.html) for tests/e2e/test_pages.sh:
 * drives Debian's chromium with playwright-core (the pages come from the
 * feed broker over HTTP and read the real feed over WebSocket) and checks
 * the DOM against what the organiser's console printed.
 *
 *   node pages_check.js selftest --overlays DIR
 *   node pages_check.js hall|player --overlays DIR --base http://HOST:PORT
 *       --chromium PATH --events big,small --expect TSV --names TSV --shots DIR
 *   node pages_check.js longname --overlays DIR --base URL --chromium PATH
 *       --events EV --table N --long NAME --shots DIR
 *   node pages_check.js lang --lang pl --param 1|0 --po po/tourney-pages
 *       [--switch cs] [--navigator nb-NO --navevent small] (and the above)
 *
 * lang (issue 21): the hall (1920x1080) and the player page (390x844,
 * 360x640), light and dark, in one language: with lang= in the address
 * (--param 1) or from the event's language in the feed (--param 0);
 * <html lang>, every catalogue message of po/tourney-pages/LANG.po read
 * with gettext-parser (not the pages' own converted copy): no English
 * word of any translated msgid on the page, the words the page must show
 * in their translation, the hall's table letter, nothing wider than the
 * screen or cut; --switch: the phone's language switcher (kept in the
 * address and in localStorage, beating the event's language on the next
 * visit); --navigator: a browser in that locale on an event without a
 * language speaks the browser's language.
 *
 * expect.tsv: event, player id, table (0 = bye), seat; names.tsv: event,
 * player id, name.  The player phase prints READY once the card is
 * checked, then expects the feed broker to go away and come back and the
 * result of the player's table (the test enters it) to appear.
 * Exit 0 when every check held, 1 with the failures on stderr.
 */
'use strict';
const fs = require('fs');
const path = require('path');

function die(msg) {
    console.error('FAIL: ' + msg);
    process.exit(1);
}
function check(cond, msg) {
    if (!cond)
        die(msg);
}

const args = {};
for (let i = 3; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const mode = process.argv[2];
const OVL = path.resolve(args.overlays || '.');

/* The surname order, written independently of pages.js: the last word
 * (a lower-case particle joins it), letters without their accents. */
const EXTRA = {'ł': 'l', 'ø': 'o', 'đ': 'd', 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ı': 'i'};
function plain(s) {
    return s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[^\x00-\x7f]/g, (c) => EXTRA[c] || c);
}
function surnameKey(name) {
    const w = name.trim().split(/\s+/);
    if (w.length < 2)
        return plain(name);
    return plain(w[w.length - 1]) + '\u0001' + plain(w.slice(0, -1).join(' '));
}

function readTsv(file) {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
}

function selftest() {
    global.window = undefined;
    const P = require(path.join(OVL, 'pages.js'));
    const O = require(path.join(OVL, 'overlay.js'));
    check(P.fold('Šebesta') === 'sebesta', 'fold Šebesta: ' + P.fold('Šebesta'));
    check(P.fold('  Łukasz  Brzęczyszczykiewicz ') === 'lukasz brzeczyszczykiewicz', 'fold Łukasz: ' + P.fold('Łukasz Brzęczyszczykiewicz'));
    check(P.fold('Søren Ångström') === 'soren angstrom', 'fold Søren');
    check(P.sortName('Anna Nowak', 'surname').text === 'Nowak, Anna', 'surname display');
    check(P.sortName('Jan van Dijk', 'surname').text === 'van Dijk, Jan', 'particle');
    check(P.sortName('Nowak, Anna', 'surname').text === 'Nowak, Anna', 'comma form');
    check(P.sortName('Gandalf', 'surname').text === 'Gandalf', 'one word');
    check(P.sortName('Anna Nowak', 'name').text === 'Anna Nowak', 'sort=name');
    const bad = P.parseHallParams('?events=a,b%2Fc&sort=x&cycle=2&scale=9&qr=ftp://x', {});
    check(bad.errors.length === 5, 'hall params errors: ' + JSON.stringify(bad.errors));
    check(P.parseHallParams('', {}).errors[0].indexOf('events: missing') === 0, 'missing events');
    const ok = P.parseHallParams('?events=a,b,a&sort=name&cycle=8', {broker: 'ws://h:1'});
    check(ok.errors.length === 0 && ok.opts.events.join() === 'a,b' && ok.opts.sort === 'name' &&
          ok.opts.broker === 'ws://h:1', 'hall params: ' + JSON.stringify(ok));
    check(P.playerUrl('http://10.0.0.2:9001/hall.html', ok.opts, 'ws://10.0.0.2:9001') ===
          'http://10.0.0.2:9001/player.html?events=a,b&broker=ws%3A%2F%2Fh%3A1', 'player url');
    /* issue 17: a phone holds the event, the heartbeat, its player's and
     * its table's documents, never the round's big ones, at QoS 0 */
    const F = 'tourney/v1/feed/';
    const pt = (evs, pick, sts) => JSON.stringify(P.playerTopics(evs, pick, sts));
    check(pt(['a'], '', null) === JSON.stringify([F + 'a/event', F + 'a/now', F + 'a/pairings']),
          'player topics while searching: ' + pt(['a'], '', null));
    check(pt(['a', 'b'], 'b/p1', null) === JSON.stringify([F + 'a/event', F + 'a/now', F + 'b/event', F + 'b/now', F + 'b/player/p1']),
          'player topics before its document: ' + pt(['a', 'b'], 'b/p1', null));
    check(pt(['b'], 'b/p1', [{mine: {player: {table: 7}}}]) === JSON.stringify([F + 'b/event', F + 'b/now', F + 'b/player/p1', F + 'b/table/7']),
          'player topics once seated: ' + pt(['b'], 'b/p1', [{mine: {player: {table: 7}}}]));
    check(pt(['b'], 'b/p1', [{mine: {player: {table: 0}}}]).indexOf('table/') < 0, 'player topics: table 0 is no table');
    check(P.PLAYER_QOS === 0, 'the player page subscribes at QoS 0, not ' + P.PLAYER_QOS);
    /* a state with a hostile name and 300 players: every one on exactly
     * one page, escaped */
    const st = O.newState('e');
    st.conn = 'online';
    const tables = [];
    for (let t = 1; t <= 100; t++)
        tables.push({table: t, players: [0, 1, 2].map((s) => ({id: 'p' + (t * 3 + s),
            name: t === 7 && s === 0 ? '<b>x</b> & Co' : 'N' + (t * 3 + s) + ' S' + (300 - t * 3 - s), seat: s + 1}))});
    O.applyMessage(st, 'tourney/v1/feed/e/pairings', JSON.stringify({round: 1, tables: tables, byes: []}), 0, true);
    O.applyMessage(st, 'tourney/v1/feed/e/event', JSON.stringify({title: 'T', round: 1}), 0, true);
    const seen = {};
    let hostileOk = false;
    for (let page = 0; page < 20; page++) {
        const v = P.renderHall([st], ok.opts, page * 8000 + 1, {rows: 20, cols: 3}, [false]);
        check(v.pages === 5 && v.total === 300, 'pages ' + v.pages + ' total ' + v.total);
        (v.list.match(/data-player="p\d+"/g) || []).forEach((m) => {
            seen[m] = (seen[m] || 0) + (page < 5 ? 1 : 0);
        });
        check(v.list.indexOf('<b>') < 0, 'unescaped name in the hall list');
        if (v.list.indexOf('&lt;b&gt;x&lt;/b&gt; &amp; Co') >= 0)
            hostileOk = true;
    }
    check(Object.keys(seen).length === 300 && Object.keys(seen).every((k) => seen[k] === 1),
          'hall pages: ' + Object.keys(seen).length + ' players, some twice or missing');
    check(hostileOk, 'hostile name not shown escaped');
    const m = P.findPlayers([st], 'x & c', 10);
    check(m.length === 1 && m[0].id === 'p21', 'find hostile: ' + JSON.stringify(m));
    check(P.renderMatches([st], '<b>').indexOf('<b>') < 0, 'matches escape the query');
    check(P.bigClock({state: 'running', ms: -61000}) === '+1:01', 'overtime clock ' + P.bigClock({state: 'running', ms: -61000}));
    check(P.clockWords({state: 'paused', ms: -5000}) === 'paused in overtime', 'paused in overtime');
    /* Issue 22 item 8: overtime reads "+0:26 overtime" as on the tables
     * and the dashboard (tny_clock_format, TNY_CLOCK_OVERTIME). */
    check(P.bigClock({state: 'running', ms: -26400}) + ' ' + P.clockWords({state: 'running', ms: -26400}) ===
          '+0:26 overtime', 'overtime: ' + P.bigClock({state: 'running', ms: -26400}) + ' ' +
          P.clockWords({state: 'running', ms: -26400}));
    check(O.formatClock(-26400) === '+0:26', 'formatClock overtime ' + O.formatClock(-26400));
    /* A finished event shows no clock; a closed round's says so, no time. */
    {
        const fin = O.newState('f');
        fin.conn = 'online';
        const frozen = {state: 'paused', unlimited: false, hub_now_ms: 1, remaining_ms: 7180000};
        O.applyMessage(fin, 'tourney/v1/feed/f/pairings', JSON.stringify({round: 3, tables: [{table: 1,
            players: [{id: 'a', name: 'A', seat: 1}, {id: 'b', name: 'B', seat: 2}]}], byes: []}), 0, true);
        O.applyMessage(fin, 'tourney/v1/feed/f/tables', JSON.stringify({round: 3, clock: frozen,
            tables: [{table: 1, state: 'confirmed', clock: frozen}]}), 0, true);
        O.applyMessage(fin, 'tourney/v1/feed/f/event', JSON.stringify({title: 'Cup', round: 3,
            round_status: 'closed', status: 'finished'}), 0, true);
        let h = P.renderHall([fin], ok.opts, 1000, {rows: 20, cols: 3}, [false]).heads;
        check(h.indexOf('Finished') >= 0 && h.indexOf('1:59:40') < 0 && h.indexOf('left') < 0 &&
              h.indexOf('class="ck') < 0, 'finished event head: ' + h);
        O.applyMessage(fin, 'tourney/v1/feed/f/event', JSON.stringify({title: 'Cup', round: 3,
            round_status: 'closed', status: 'running'}), 0, true);
        h = P.renderHall([fin], ok.opts, 1000, {rows: 20, cols: 3}, [false]).heads;
        check(h.indexOf('round closed') >= 0 && h.indexOf('1:59:40') < 0 && h.indexOf('ckt') < 0,
              'closed round head: ' + h);
        /* After the event the hall is no longer about tables: its heading
         * says "Final standings" and each name shows its final place (from
         * feed/{ev}/standings), no table, no "T 12/3" key; while the event
         * (or another one on the screen) plays, "Find your table". */
        O.applyMessage(fin, 'tourney/v1/feed/f/standings', JSON.stringify({after_round: 3, stage: 'round',
            standings: [{rank: 1, player: 'b', name: 'B', points: 6}, {rank: 2, player: 'a', name: 'A', points: 3}]}),
            0, true);
        check(P.hallTitle([fin], 1000) === 'Find your table', 'running event title: ' + P.hallTitle([fin], 1000));
        O.applyMessage(fin, 'tourney/v1/feed/f/event', JSON.stringify({title: 'Cup', round: 3,
            round_status: 'closed', status: 'finished'}), 0, true);
        check(P.hallTitle([fin], 1000) === 'Final standings', 'finished event title: ' + P.hallTitle([fin], 1000));
        const v = P.renderHall([fin], ok.opts, 1000, {rows: 20, cols: 3}, [false]);
        check(/data-player="a"[^]*class="tb pl">2\.<\/span>/.test(v.list) &&
              /data-player="b"[^]*class="tb pl">1\.<\/span>/.test(v.list) && v.list.indexOf('class="tl"') < 0 &&
              v.foot.indexOf('12/3') < 0 && v.total === 2, 'finished event list: ' + v.list + ' foot: ' + v.foot);
        const other = O.newState('o');
        other.conn = 'online';
        O.applyMessage(other, 'tourney/v1/feed/o/pairings', JSON.stringify({round: 1, tables: [{table: 4,
            players: [{id: 'c', name: 'C', seat: 1}]}], byes: []}), 0, true);
        O.applyMessage(other, 'tourney/v1/feed/o/event', JSON.stringify({title: 'Open', round: 1}), 0, true);
        check(P.hallTitle([fin, other], 1000) === 'Find your table', 'one event still playing: title ' +
              P.hallTitle([fin, other], 1000));
        const both = P.renderHall([fin, other], ok.opts, 1000, {rows: 20, cols: 3}, [false, false]);
        check(both.list.indexOf('class="tb pl">1.') >= 0 && both.list.indexOf('class="tl"') >= 0 &&
              both.foot.indexOf('12/3') >= 0, 'mixed hall: ' + both.list);
    }
    /* Family name first (docs/console.md "Family names"): before a comma,
     * else the words in capitals; the hall sorts by it. */
    check(P.sortName('SZŐKE Ödön', 'surname').text === 'SZŐKE, Ödön', 'caps family: ' +
          P.sortName('SZŐKE Ödön', 'surname').text);
    check(P.sortName('NGUYỄN Thị Minh Khai', 'surname').text === 'NGUYỄN, Thị Minh Khai', 'vn family');
    check(P.sortName('Anna NOWAK', 'surname').text === 'NOWAK, Anna', 'caps last');
    check(P.sortName('J.R. Hartley', 'surname').text === 'Hartley, J.R.', 'initials: ' +
          P.sortName('J.R. Hartley', 'surname').text);
    const hu = ['SZŐKE Ödön', 'Zoltán Nagy', 'Anna Pál', 'NGUYỄN Văn An', 'Trần, Thị Lan'];
    const sorted = hu.map((n) => P.sortName(n, 'surname')).sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
        .map((e) => e.text);
    check(sorted.join('|') === 'Nagy, Zoltán|NGUYỄN, Văn An|Pál, Anna|SZŐKE, Ödön|Trần, Thị Lan',
          'family-name order: ' + sorted.join('|'));
    console.log('pages.js selftest: ok');
}

/* Issue 21 in node: every page (the four overlays, the hall, the
 * player's card) of a synthetic event in every language of
 * po/tourney-pages: no English word of the catalogue left, the
 * language's plural forms, decimal sign and order; the language rule. */
async function langSelftest() {
    const I = require(path.join(OVL, 'i18n.js'));
    const O = require(path.join(OVL, 'overlay.js'));
    const P = require(path.join(OVL, 'pages.js'));
    const langs = fs.readdirSync(args.po).filter((f) => /^[a-z]{2,3}\.po$/.test(f)).map((f) => f.slice(0, -3)).sort();
    check(langs.join() === 'cs,hu,nb,pl', 'po/tourney-pages languages: ' + langs.join());
    check(JSON.stringify(I.languages().slice().sort()) === JSON.stringify(['en'].concat(langs).sort()),
          'the pages speak ' + I.languages().join() + ' (run install.sh: locale/catalogues.js)');
    /* ?lang= > the phone's choice > the event's > the browser's > en */
    check(I.pick({param: 'cs', stored: 'pl', event: 'hu', browser: ['nb']}) === 'cs', 'lang= first');
    check(I.pick({param: '', stored: 'pl', event: 'hu', browser: ['nb']}) === 'pl', 'the stored choice second');
    check(I.pick({event: 'hu', browser: ['nb-NO']}) === 'hu', 'the event\'s language third');
    check(I.pick({event: 'de', browser: ['de-DE', 'nn-NO']}) === 'nb', 'the browser\'s languages (nn reads nb)');
    check(I.pick({event: 'de', browser: ['de-DE']}) === 'en', 'English at last');
    check(O.parseParams('?event=e&lang=xx', {}).errors.join().indexOf('lang: expected en, ') === 0, 'lang=xx is an error');
    const now = 1000000;
    const st = O.newState('e');
    st.conn = 'online';
    const pl4 = (t) => [1, 2].map((s) => ({id: 'p' + t + s, name: 'Xy' + t + s, seat: s, army: 'Borgo', colours: ['red']}));
    O.applyMessage(st, 'tourney/v1/feed/e/event', JSON.stringify({title: 'Cup', round: 2, stage_round: 2, stage_rounds: 3,
        stage_name: 'Swiss', status: 'running', round_status: 'open'}), now, false);
    O.applyMessage(st, 'tourney/v1/feed/e/pairings', JSON.stringify({round: 2, stage: 'swiss', stage_name: 'Swiss',
        tables: [1, 2, 3].map((t) => ({table: t, players: pl4(t)})), byes: [{id: 'b', name: 'Byexy'}]}), now, false);
    const clock = {state: 'running', unlimited: false, hub_now_ms: now, deadline_ms: now + 600000};
    O.applyMessage(st, 'tourney/v1/feed/e/tables', JSON.stringify({round: 2, clock: clock, tables: [
        {table: 1, state: 'confirmed', clock: clock, confirmed_ms: now, result: {winner: 'p11', hq_diff: 7}},
        {table: 2, state: 'confirmed', clock: clock, confirmed_ms: now - 1, result: {draw: true}},
        {table: 3, state: 'playing', clock: clock, extension_ms: 60000}]}), now, false);
    O.applyMessage(st, 'tourney/v1/feed/e/standings', JSON.stringify({after_round: 1, standings: [
        {rank: 1, player: 'p11', name: 'Xy11', points: 6.3333, tiebreaks: {hq_diff: 12.5, sos: 3, lot: 1}},
        {rank: 2, player: 'p12', name: 'Xy12', points: 3, tiebreaks: {hq_diff: -2, sos: 1, lot: 2}, dropped: true}]}), now, false);
    O.applyMessage(st, 'tourney/v1/feed/e/bracket', JSON.stringify({rounds: [{round: 4, tables: [
        {table: 1, players: [{id: 'p11', name: 'Xy11'}, {id: 'p12', name: 'Xy12'}], winner: 'p11'},
        {table: 2, players: [{id: 'p21', name: 'Xy21'}, {id: 'p22', name: 'Xy22'}]}]}]}), now, false);
    st.mine = {player: {id: 'p11', name: 'Xy11', round: 2, table: 1, bye: false, after_round: 1, of: 7,
        standing: {rank: 1, points: 6.5, tiebreaks: {hq_diff: 12.5, sos: 3}}, me: pl4(1)[0], opponents: [pl4(1)[1]],
        results: [{round: 1, table: 2, players: pl4(2), result: {winner: 'p21', hq_diff: 3}}, {round: 0, bye: true}]},
        table: {table: 1, round: 2, state: 'confirmed', players: pl4(1), result: {winner: 'p11', hq_diff: 7}, clock: clock}};
    const text = (html) => html.replace(/<[^>]*>/g, ' ').replace(/&[a-z]+;|&#\d+;/g, ' ');
    const render = () => O.PAGES.map((pg) => O.render(pg, st, O.parseParams('?event=e&tb=3', {}).opts, now))
        .concat([O.render('standings', st, O.parseParams('?event=e&bracket=only', {}).opts, now),
                 O.render('table', st, O.parseParams('?event=e&table=3', {}).opts, now)])
        .concat(P.renderHall([st], P.parseHallParams('?events=e', {}).opts, now, {rows: 20, cols: 3}, [false]))
        .map((v) => typeof v === 'string' ? v : v.heads + v.list + v.foot)
        .concat([P.renderCard([st], 'e/p11', now)]).map(text).join(' | ');
    I.setLanguage('en');
    const en = render();
    check(/Xy11 \[Borgo\] beat Xy12 \[Borgo\] by 7 HQ/.test(en) && /Semi-finals/.test(en) && /6\.33/.test(en) &&
          /Round 2 of 3/.test(en) && /Swiss/.test(en), 'English pages: ' + en.slice(0, 300));
    for (const L of langs) {
        const cat = await catalogue(L);
        /* msgfmt checks %s, not the pages' {name}: every form keeps the msgid's */
        const ph = (x) => (x.match(/\{[a-z_]+\}/g) || []).sort().join();
        cat.forEach((m) => m.forms.forEach((f) => check(ph(f) === ph(m.id) || (m.plural && ph(f) === ph(m.plural)),
            L + '.po: "' + f + '" does not keep the placeholders of "' + m.id + '"')));
        I.setLanguage(L);
        const out = render();
        const left = englishLeft(cat, out);
        check(!left.length, L + ': English words on the pages: ' + left.join('; ') + ' in ' + out.slice(0, 400));
        ['Semi-finals', 'Swiss', 'Standings after round {round}', 'Pts', 'HQ diff', 'SoS', 'Your results', 'Opponent', 'Points',
         'Results', 'Knockout', 'by {n} HQ', '{winner} beat {losers}', '{a} drew with {b}'].forEach((id) => {
            const ctx = id === 'Semi-finals' ? 'knockout round' : '';
            check(shows(cat, out, id, ctx), L + ': no "' + tr(cat, id, ctx) + '" for "' + id + '"');
        });
        check(out.indexOf('6,33') >= 0 && out.indexOf('6.33') < 0, L + ': points not with a decimal comma');
        const forms = cat.filter((m) => m.id === '{n} player')[0].forms;
        const n = [1, 2, 5, 22, 112].map((k) => I.tn('{n} player', '{n} players', k));
        check(n.join('|') === [1, 2, 5, 22, 112].map((k) => forms[(L === 'pl' ? (k === 1 ? 0 : k % 10 >= 2 && k % 10 <= 4 &&
              (k % 100 < 10 || k % 100 >= 20) ? 1 : 2) : L === 'cs' ? (k === 1 ? 0 : k >= 2 && k <= 4 ? 1 : 2) : (k === 1 ? 0 : 1))]
              .replace('{n}', k)).join('|'), L + ': plural forms ' + n.join('|'));
        console.log('pages in ' + L + ': ' + (process.env.FULL ? out : out.slice(0, 160)).replace(/\s+/g, ' ') + '...');
    }
    /* the order of the language: Norwegian \u00c5, \u00d8 after Z; Czech \u010c after C */
    const ost = O.newState('o');
    O.applyMessage(ost, 'tourney/v1/feed/o/pairings', JSON.stringify({round: 1, tables: [{table: 1, players: [
        {id: 'a', name: 'Eva \u00d8ster', seat: 1}, {id: 'b', name: 'Jan Zahl', seat: 2}, {id: 'c', name: 'Petr \u010capek', seat: 3},
        {id: 'd', name: 'Ivo Cyril', seat: 4}]}], byes: []}), 0, true);
    const order = (L) => {
        I.setLanguage(L);
        return P.hallEntries([ost], {sort: 'surname'}, 0).map((e) => e.id).join('');
    };
    check(order('en') === 'cdab', 'English order ' + order('en'));
    check(order('nb') === 'cdba', 'Norwegian order (\u00d8 after Z): ' + order('nb'));
    check(order('cs') === 'dcab', 'Czech order (\u010c after C): ' + order('cs'));
    /* family name first: a Hungarian page lists "L\u0151rincz \u00c1rp\u00e1d" as written, by L; CJK names everywhere */
    I.setLanguage('hu');
    check(P.sortName('L\u0151rincz \u00c1rp\u00e1d', 'surname').text === 'L\u0151rincz \u00c1rp\u00e1d' &&
          P.sortName('L\u0151rincz \u00c1rp\u00e1d', 'surname').key.indexOf('lorincz') === 0 &&
          P.sortName('SZ\u0150KE \u00d6d\u00f6n', 'surname').text === 'SZ\u0150KE, \u00d6d\u00f6n', 'Hungarian family-name order');
    I.setLanguage('en');
    check(P.sortName('\u5c71\u7530 \u592a\u90ce', 'surname').text === '\u5c71\u7530 \u592a\u90ce' &&
          P.sortName('L\u0151rincz \u00c1rp\u00e1d', 'surname').text === '\u00c1rp\u00e1d, L\u0151rincz', 'CJK family first, else the last word');
    /* The one table of names the printouts' list is checked against too
     * (tests/hub/family_names.tsv, tests/hub/test_names.c): the hall
     * shows each name as the PDF does, and sorts by its family name. */
    const tsv = path.join(__dirname, '..', 'hub', 'family_names.tsv');
    let rows = 0;
    fs.readFileSync(tsv, 'utf8').split('\n').forEach((l) => {
        if (!l || l[0] === '#')
            return;
        const c = l.split('\t');
        I.setLanguage(c[0]);
        const sn = P.sortName(c[1], 'surname');
        const want = (P.fold(c[2] || c[3]) + (c[2] ? '\u0001' + P.fold(c[3]) : ''));
        check(sn.text === c[4] && sn.key === want,
              'family_names.tsv ' + c[0] + ' "' + c[1] + '": shown "' + sn.text + '", key "' + sn.key +
              '"; the table says "' + c[4] + '", key "' + want + '"');
        rows++;
    });
    I.setLanguage('en');
    check(rows >= 20, 'family_names.tsv: ' + rows + ' names');
    console.log('pages in ' + langs.join(', ') + ': no English word of the catalogue on any page, plural forms, ' +
                'decimal comma, the language\'s alphabetical order; lang= > choice > event > browser > en');
}

async function browser() {
    const {chromium} = require(path.join(OVL, 'node_modules', 'playwright-core'));
    return chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync']
    });
}

function expected() {
    const names = {};
    readTsv(args.names).forEach(([ev, id, name]) => {
        names[ev + '/' + id] = name;
    });
    const seats = readTsv(args.expect).map(([ev, id, table, seat]) => ({
        key: ev + '/' + id, ev: ev, id: id, table: +table, seat: +seat, name: names[ev + '/' + id]
    }));
    seats.forEach((s) => check(s.name, 'no name for ' + s.key));
    return seats;
}

/* What the hall shows now: its entries with whether each fits. */
function hallDom() {
    const root = document.getElementById('page');
    const W = window.innerWidth, H = window.innerHeight;
    /* strict: an ellipsis shows from the first pixel over; a name set on
     * two lines must not lose a line either */
    const cut = (el) => el && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1);
    const entries = Array.prototype.map.call(document.querySelectorAll('.list .en'), (e) => {
        const r = e.getBoundingClientRect();
        const tb = e.querySelector('.tb');
        return {ev: e.getAttribute('data-event'), id: e.getAttribute('data-player'),
                text: e.querySelector('.nm').textContent, table: tb.textContent,
                cut: cut(e.querySelector('.nm')) || cut(e.querySelector('.ex')) || cut(tb),
                outside: r.bottom > H + 0.5 || r.right > W + 0.5 || r.left < 0 || r.top < 0};
    });
    const heads = Array.prototype.map.call(document.querySelectorAll('.evs .ev'), (e) => ({
        ev: e.getAttribute('data-event'), text: e.textContent,
        clock: e.querySelector('.ckt') ? e.querySelector('.ckt').textContent : '',
        cut: e.getBoundingClientRect().right > W + 0.5
    }));
    return {page: +root.getAttribute('data-page'), pages: +root.getAttribute('data-pages'),
            total: +root.getAttribute('data-total'), entries: entries, heads: heads,
            qr: document.querySelector('.qr') ? document.querySelector('.qr').getAttribute('data-url') : null,
            qrSvg: !!document.querySelector('.qr svg path'),
            overflow: document.documentElement.scrollWidth > W || document.documentElement.scrollHeight > H};
}

async function hall() {
    const seats = expected();
    const byKey = {};
    seats.forEach((s) => {
        byKey[s.key] = s;
    });
    const b = await browser();
    for (const [w, h] of [[1920, 1080], [3840, 2160]]) {
        const page = await b.newPage({viewport: {width: w, height: h}});
        page.on('pageerror', (e) => die('hall ' + w + 'x' + h + ': page error ' + e.message));
        await page.goto(args.base + '/hall.html?events=' + args.events + '&cycle=10');
        await page.waitForFunction((n) => +document.getElementById('page').getAttribute('data-total') === n,
                                   seats.length, {timeout: 30000});
        /* the clocks count down and say so */
        await page.waitForFunction(() => document.querySelectorAll('.evs .ckt').length === 2, null, {timeout: 15000});
        let d = await page.evaluate(hallDom);
        d.heads.forEach((hd) => {
            check(/^\d+:\d\d(:\d\d)?$/.test(hd.clock), w + 'x' + h + ': ' + hd.ev + ' clock "' + hd.clock + '"');
            check(/Round 1/.test(hd.text) && /left/i.test(hd.text), w + 'x' + h + ': ' + hd.ev + ' head "' + hd.text + '"');
            check(!hd.cut, w + 'x' + h + ': ' + hd.ev + ' head outside the screen');
        });
        check(d.qr === args.base + '/player.html?events=' + args.events && d.qrSvg,
              'QR code address ' + d.qr);
        await page.screenshot({path: path.join(args.shots, 'hall-' + w + 'x' + h + '.png')});
        /* every page of the list, by the page's own clock (all screens
         * show the page of Date.now()) */
        const seen = {};
        const order = [];
        /* a time whose page is the first one */
        const t0 = (Math.ceil(Date.now() / (10000 * d.pages)) + 1000) * 10000 * d.pages;
        for (let p = 0; p < d.pages; p++) {
            await page.clock.setFixedTime(t0 + p * 10000 + 500);
            await page.waitForFunction((want) => +document.getElementById('page').getAttribute('data-page') === want,
                                       p, {timeout: 5000});
            const dp = await page.evaluate(hallDom);
            check(!dp.overflow, w + 'x' + h + ' page ' + p + ': the page scrolls');
            dp.entries.forEach((e) => {
                const k = e.ev + '/' + e.id;
                const s = byKey[k];
                check(s, 'hall shows an unknown player ' + k);
                check(!seen[k], 'hall shows ' + k + ' twice');
                seen[k] = true;
                check(!e.cut, w + 'x' + h + ': "' + e.text + '" cut off (' + e.table + ')');
                check(!e.outside, w + 'x' + h + ': "' + e.text + '" outside the screen');
                const want = s.table ? 'T' + s.table + (s.seat ? '/' + s.seat : '') : 'bye';
                check(e.table === want, k + ': shows "' + e.table + '", round show says ' + want);
                const parts = s.name.split(' ');
                check(e.text === parts[parts.length - 1] + ', ' + parts.slice(0, -1).join(' '),
                      k + ': shown as "' + e.text + '" for ' + s.name);
                order.push(s);
            });
            if (p === 1)
                await page.screenshot({path: path.join(args.shots, 'hall-' + w + 'x' + h + '-page2.png')});
            if (dp.entries.some((e) => e.text.length > 45)) {
                /* after the page's fade-in (0.6 s): the page as read */
                await page.waitForTimeout(800);
                await page.screenshot({path: path.join(args.shots, 'hall-' + w + 'x' + h + '-long-name.png')});
            }
        }
        check(order.length === seats.length, w + 'x' + h + ': ' + order.length + ' of ' + seats.length + ' players shown');
        for (let i = 1; i < order.length; i++)
            check(surnameKey(order[i - 1].name) <= surnameKey(order[i].name),
                  'not in surname order: ' + order[i - 1].name + ' before ' + order[i].name);
        console.log('hall ' + w + 'x' + h + ': ' + order.length + ' players on ' + d.pages +
                    ' pages in surname order, table and seat as round show, nothing cut off');
        await page.close();
    }
    /* an unknown event id is named */
    const page = await b.newPage({viewport: {width: 1920, height: 1080}});
    await page.goto(args.base + '/hall.html?events=big,nosuch');
    await page.waitForFunction(() => /no event "nosuch" on this feed/.test(document.body.textContent), null,
                               {timeout: 20000});
    console.log('hall: an unknown event id says "no event "nosuch" on this feed"');
    await b.close();
}

async function player() {
    const seats = expected();
    const me = seats.filter((s) => s.key === 'small/s1')[0];
    check(me && me.name === 'Jan Šebesta', 'expect file: small/s1 is not Jan Šebesta');
    const opp = seats.filter((s) => s.ev === 'small' && s.table === me.table && s.id !== 's1');
    const b = await browser();
    const page = await b.newPage({viewport: {width: 390, height: 844}, deviceScaleFactor: 2, isMobile: true, hasTouch: true});
    page.on('pageerror', (e) => die('player: page error ' + e.message));
    await page.goto(args.base + '/player.html?events=' + args.events);
    await page.waitForFunction(() => /live/.test(document.querySelector('.conn').textContent), null, {timeout: 20000});
    const fits = async (what) => {
        const o = await page.evaluate(() => {
            const W = 390;
            const bad = Array.prototype.filter.call(document.querySelectorAll('#page *'), (e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (r.right > W + 0.5 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow === 'hidden');
            }).map((e) => e.className + ':' + e.textContent.slice(0, 40));
            return {scroll: document.documentElement.scrollWidth > W, bad: bad};
        });
        check(!o.scroll && !o.bad.length, what + ': wider than the phone: ' + JSON.stringify(o.bad.slice(0, 5)));
    };
    const search = async (q, want) => {
        await page.fill('#q', q);
        await page.waitForFunction(() => document.querySelectorAll('.matches li').length > 0, null, {timeout: 15000});
        const names = await page.$$eval('.matches li .nm', (l) => l.map((e) => e.textContent));
        check(names.length === 1 && names[0] === want, 'search "' + q + '": ' + JSON.stringify(names) + ', want ' + want);
    };
    await search('sebesta', 'Jan Šebesta');
    await search('BRZECZY', 'Zbigniew Brzęczyszczykiewicz');
    await search('jan seb', 'Jan Šebesta');
    await page.screenshot({path: path.join(args.shots, 'player-search-390x844.png')});
    await page.click('.matches li a');
    await page.waitForSelector('#my-table', {timeout: 10000});
    const card = await page.evaluate(() => ({
        table: document.querySelector('#my-table').textContent,
        seat: document.querySelector('#my-seat').textContent,
        opps: Array.prototype.map.call(document.querySelectorAll('.opps .nm'), (e) => e.textContent),
        rank: document.querySelector('#my-rank') ? document.querySelector('#my-rank').textContent : '',
        text: document.querySelector('.card').textContent,
        hash: window.location.hash
    }));
    check(card.table === String(me.table) && card.seat === String(me.seat),
          'card: table ' + card.table + ' seat ' + card.seat + ', round show says ' + me.table + '/' + me.seat);
    check(JSON.stringify(card.opps) === JSON.stringify(opp.map((s) => s.name)),
          'card opponents ' + JSON.stringify(card.opps) + ', want ' + JSON.stringify(opp.map((s) => s.name)));
    check(/^\d+ \/ 8$/.test(card.rank), 'card place "' + card.rank + '"');
    check(/Stark/.test(card.text) && /\d+:\d\d/.test(card.text) && /left/.test(card.text),
          'card lacks faction or time left: ' + card.text);
    check(/player=small%2Fs1/.test(card.hash), 'choice not kept in the address: ' + card.hash);
    await fits('card (normal text)');
    await page.screenshot({path: path.join(args.shots, 'player-card-390x844.png')});
    await page.click('[data-act=theme]');
    await page.click('[data-act=text]');
    check(await page.evaluate(() => document.body.className) === 'theme-dark text-large page-player', 'theme/text toggles');
    await fits('card (dark, large text)');
    await page.screenshot({path: path.join(args.shots, 'player-card-dark-large-390x844.png'), fullPage: true});
    console.log('player: "sebesta", "BRZECZY", "jan seb" find their players; the card has table ' + me.table +
                ', seat ' + me.seat + ', the opponent, the faction, the time left and the place; fits 390 px');
    console.log('READY');
    /* the feed broker restarts: the page must notice, come back by
     * itself and show the result entered meanwhile */
    await page.waitForFunction(() => !!document.querySelector('.conn .dot.off'), null, {timeout: 30000, polling: 50});
    await page.waitForFunction(() => !!document.querySelector('.conn .dot.on') && !!document.querySelector('.card .res'),
                               null, {timeout: 40000});
    const res = await page.textContent('.card .res');
    check(await page.$$eval('.card .where .box', (l) => l.length) === 2, 'a finished table still shows its countdown');
    const hist = await page.$$eval('.card .hist li', (l) => l.map((e) => e.textContent));
    check(hist.length === 1 && hist[0] === 'Round 1 \u00b7 table ' + me.table + res,
          'your results: ' + JSON.stringify(hist) + ', want round 1 at table ' + me.table + ': ' + res);
    await fits('card with the result (dark, large text)');
    check(res === 'Jan Šebesta beat ' + opp.map((s) => s.name).join(', '), 'result after the restart: "' + res + '"');
    await page.screenshot({path: path.join(args.shots, 'player-result-390x844.png'), fullPage: true});
    console.log('player: went offline with the feed broker, reconnected by itself and shows "' + res + '", also under "Your results"');
    await b.close();
}

/* The stream overlays on the big event's four-player tables
 * (pairings.html): no name cut off. */
async function overlays() {
    const b = await browser();
    const page = await b.newPage({viewport: {width: 1920, height: 1080}});
    page.on('pageerror', (e) => die('overlay: page error ' + e.message));
    await page.goto(args.base + '/pairings.html?event=' + args.events.split(',')[0]);
    await page.waitForFunction(() => document.querySelectorAll('.rows .row.multi').length > 0 &&
        Array.prototype.every.call(document.querySelectorAll('.rows .row .ts'), (e) => e.textContent !== ''),
        null, {timeout: 20000});
    await page.screenshot({path: path.join(args.shots, 'overlay-pairings-1920x1080.png')});
    const cut = await page.evaluate(() => Array.prototype.filter.call(document.querySelectorAll('.rows .pl .nm'),
        (e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    check(!cut.length, 'pairings overlay: names cut off: ' + JSON.stringify(cut.slice(0, 5)));
    console.log('overlay pairings.html: four-player rows, no name cut off');
    /* an unknown event id says so */
    await page.goto(args.base + '/pairings.html?event=nosuch');
    await page.waitForFunction(() => /No event "nosuch" on this feed/.test(document.body.textContent), null,
                               {timeout: 20000});
    console.log('overlay pairings.html?event=nosuch: says there is no such event');
    await b.close();
}

/* A very long name (--long) at a four-player table (--table) of --events
 * whose result is in: pairings.html cuts that name alone, never its
 * neighbours' (they had 18 px left each: "Ödön G…"); table.html wraps
 * every name of the table, none cut (at 52 px four names cut to
 * "Barthol…", "Ödön G…"). */
async function longName() {
    const b = await browser();
    const page = await b.newPage({viewport: {width: 1920, height: 1080}});
    page.on('pageerror', (e) => die('overlay: page error ' + e.message));
    const ev = args.events, tb = args.table;
    await page.goto(args.base + '/pairings.html?event=' + ev);
    await page.waitForFunction((tb) => {
        const r = document.querySelector('.rows .row.multi[data-table="' + tb + '"]');
        return r && r.querySelectorAll('.sc').length === 4;
    }, tb, {timeout: 20000});
    await page.screenshot({path: path.join(args.shots, 'overlay-pairings-long-name-1920x1080.png')});
    const row = await page.evaluate((tb) => Array.prototype.map.call(
        document.querySelectorAll('.rows .row[data-table="' + tb + '"] .pl .nm'),
        (e) => ({name: e.textContent, cut: e.scrollWidth > e.clientWidth + 1})), tb);
    check(row.length === 4 && row.some((e) => e.name === args.long),
          'pairings overlay: table ' + tb + ' is not the long name\'s: ' + JSON.stringify(row));
    const cut = row.filter((e) => e.cut && e.name !== args.long).map((e) => e.name);
    check(!cut.length, 'pairings overlay: beside a ' + args.long.length + '-character name, names cut off: ' +
          JSON.stringify(cut));
    console.log('overlay pairings.html: a ' + args.long.length + '-character name cuts none of its three neighbours');
    await page.goto(args.base + '/table.html?event=' + ev + '&table=' + tb);
    await page.waitForFunction(() => document.querySelectorAll('.featured .seats .pl .nm').length === 4, null,
                               {timeout: 20000});
    await page.screenshot({path: path.join(args.shots, 'overlay-table-long-name-1920x1080.png')});
    const seats = await page.evaluate(() => Array.prototype.map.call(
        document.querySelectorAll('.featured .seats .pl .nm'),
        (e) => ({name: e.textContent, cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1})));
    const scut = seats.filter((e) => e.cut).map((e) => e.name);
    check(!scut.length, 'table overlay: names cut off: ' + JSON.stringify(scut));
    const over = await page.evaluate(() => document.documentElement.scrollWidth > 1920 ||
                                           document.documentElement.scrollHeight > 1080);
    check(!over, 'table overlay: wider or taller than 1920x1080');
    console.log('overlay table.html: the four names of a four-player table wrap, none cut off');
    await b.close();
}

/* The hall screen of a paused event: its clock says so and stands. */
async function hallPaused() {
    const b = await browser();
    const page = await b.newPage({viewport: {width: 1920, height: 1080}});
    page.on('pageerror', (e) => die('hall: page error ' + e.message));
    await page.goto(args.base + '/hall.html?events=' + args.events);
    await page.waitForFunction(() => {
        const c = document.querySelector('.evs .ck.ck-paused');
        return c && /paused/.test(c.textContent);
    }, null, {timeout: 20000});
    const t1 = await page.textContent('.evs .ck .ckt');
    await page.waitForTimeout(1500);
    const t2 = await page.textContent('.evs .ck .ckt');
    check(/^\d+:\d\d$/.test(t1) && t1 === t2, 'paused clock moves or is empty: ' + t1 + ' then ' + t2);
    await page.screenshot({path: path.join(args.shots, 'hall-paused-1920x1080.png')});
    console.log('hall: a paused round clock says "paused" and stands at ' + t1);
    await b.close();
}

/* ---- issue 21: the pages in the venue's language ------------------------ */

/* catalogue(lang): po/tourney-pages/LANG.po as [{ctx, id, forms}]. */
async function catalogue(lang) {
    const gp = (await import(path.join(OVL, 'node_modules', 'gettext-parser', 'index.js'))).default;
    const po = gp.po.parse(fs.readFileSync(path.join(args.po, lang + '.po')));
    check(po.headers.Language === lang, lang + '.po: Language ' + po.headers.Language);
    const out = [];
    for (const ctx of Object.keys(po.translations))
        for (const id of Object.keys(po.translations[ctx])) {
            if (!id)
                continue;
            const m = po.translations[ctx][id];
            check(m.msgstr.every(Boolean), lang + '.po: untranslated "' + id + '"');
            out.push({ctx: ctx, id: id, plural: m.msgid_plural || '', forms: m.msgstr});
        }
    return out;
}

const LETTERS = /[\p{L}]{3,}/gu;
function words(s) {
    return (s.replace(/\{[a-z_]+\}/g, ' ').match(LETTERS) || []);
}
function hasWord(text, w) {
    return new RegExp('(?<![\\p{L}])' + w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(?![\\p{L}])', 'iu').test(text);
}

/* englishLeft(cat, text): the English words of translated messages
 * (msgid and msgid_plural, 3 letters or more) that the page shows; a word
 * that is also a word of some translation of this catalogue counts as the
 * language's own ("for" in Norwegian, "Buchholz"). */
function englishLeft(cat, text) {
    const own = new Set();
    cat.forEach((m) => m.forms.forEach((f) => words(f).forEach((w) => own.add(w.toLowerCase()))));
    const left = [];
    cat.forEach((m) => {
        words(m.id + ' ' + m.plural).forEach((w) => {
            if (!own.has(w.toLowerCase()) && hasWord(text, w))
                left.push(w + ' (from "' + m.id + '")');
        });
    });
    return [...new Set(left)];
}

/* shows(cat, text, id, ctx): the translation of msgid `id` is on the page
 * (every literal piece between its placeholders, of one of its forms). */
function shows(cat, text, id, ctx) {
    const m = cat.filter((x) => x.id === id && x.ctx === (ctx || ''))[0];
    check(m, 'the catalogue has no "' + id + '"');
    return m.forms.some((f) => f.split(/\{[a-z_]+\}/).map((p) => p.trim()).filter(Boolean)
        .every((p) => text.indexOf(p) >= 0));
}
function tr(cat, id, ctx) {
    return cat.filter((x) => x.id === id && x.ctx === (ctx || ''))[0].forms[0];
}

/* everything a reader sees: text, placeholders, labels, titles */
function pageText() {
    const attrs = Array.prototype.map.call(document.querySelectorAll('[placeholder],[aria-label],[title]'), (e) =>
        [e.getAttribute('placeholder'), e.getAttribute('aria-label'), e.getAttribute('title')].filter(Boolean).join(' '));
    /* addresses (the QR code's title) are not words */
    const body = document.body.cloneNode(true);
    Array.prototype.forEach.call(body.querySelectorAll('script'), (e) => e.remove());
    return (body.textContent + ' ' + attrs.join(' ') + ' ' + document.title).replace(/[a-z]+:\/\/\S+/g, ' ');
}

async function langCheck() {
    const L = args.lang;
    const cat = await catalogue(L);
    const seats = expected();
    const q = 'events=' + args.events + (args.param === '1' ? '&lang=' + L : '');
    const b = await browser();
    const noEnglish = async (page, what) => {
        const text = await page.evaluate(pageText);
        const left = englishLeft(cat, text);
        check(!left.length, what + ' (' + L + '): English words on the page: ' + left.slice(0, 8).join('; '));
        return text;
    };
    const want = (text, ids, what) => ids.forEach((x) => {
        const [id, ctx] = Array.isArray(x) ? x : [x];
        check(shows(cat, text, id, ctx), what + ' (' + L + '): no "' + tr(cat, id, ctx) + '" (for "' + id + '")');
    });
    /* the hall, dark and light */
    for (const theme of ['dark', 'light']) {
        const page = await b.newPage({viewport: {width: 1920, height: 1080}});
        page.on('pageerror', (e) => die('hall ' + L + ': page error ' + e.message));
        await page.goto(args.base + '/hall.html?' + q + '&theme=' + theme);
        await page.waitForFunction((n) => +document.getElementById('page').getAttribute('data-total') === n &&
                                   document.querySelectorAll('.evs .ckt').length > 0, seats.length, {timeout: 30000})
            .catch(async (e) => {
                await page.screenshot({path: path.join(args.shots, 'lang-' + L + '-hall-failed.png')});
                die('hall ' + L + ': no ' + seats.length + ' players with a clock: ' + (await page.evaluate(() =>
                    document.getElementById('page').getAttribute('data-total') + ' ' + document.body.textContent.slice(0, 300))));
            });
        check(await page.evaluate(() => document.documentElement.lang) === L, 'hall: <html lang> is not ' + L);
        const text = await noEnglish(page, 'hall');
        want(text, ['Find your table', 'Your table on your phone', 'left', 'page {page} of {pages}', '{n} player',
                    '{letter} 12/3 = table 12, seat 3'], 'hall');
        const d = await page.evaluate(hallDom);
        check(!d.overflow, 'hall ' + L + ': the page scrolls');
        const letter = tr(cat, 'T', 'table letter');
        d.entries.forEach((e) => {
            const s = seats.filter((x) => x.ev + '/' + x.id === e.ev + '/' + e.id)[0];
            check(s, 'hall shows an unknown player ' + e.id);
            const w = s.table ? letter + s.table + (s.seat ? '/' + s.seat : '') : tr(cat, 'bye');
            check(e.table === w, 'hall ' + L + ': ' + e.id + ' shows "' + e.table + '", want "' + w + '"');
            check(!e.cut && !e.outside, 'hall ' + L + ': "' + e.text + '" cut off or outside the screen');
        });
        d.heads.forEach((hd) => check(!hd.cut, 'hall ' + L + ': ' + hd.ev + ' head outside the screen'));
        const findCut = await page.evaluate(() => {
            const f = document.querySelector('.hall .find');
            return f.scrollWidth > f.clientWidth + 1 || f.getBoundingClientRect().right > window.innerWidth;
        });
        check(!findCut, 'hall ' + L + ': the heading is cut');
        await page.screenshot({path: path.join(args.shots, 'lang-' + L + '-hall-1920x1080-' + theme + '.png')});
        await page.close();
    }
    /* the stream overlays (OBS, 1920x1080): pairings and standings */
    for (const ov of ['pairings', 'standings']) {
        const page = await b.newPage({viewport: {width: 1920, height: 1080}});
        page.on('pageerror', (e) => die(ov + ' ' + L + ': page error ' + e.message));
        await page.goto(args.base + '/' + ov + '.html?' + q.replace('events=', 'event='));
        await page.waitForFunction((w) => document.documentElement.lang === w.l && !!document.querySelector(w.sel),
                                   {l: L, sel: ov === 'pairings' ? '.rows .row .ts' : '.standings tbody tr'},
                                   {timeout: 20000}).catch(() => die(ov + '.html ' + L + ': nothing shown'));
        await page.waitForTimeout(300);
        const text = await noEnglish(page, ov + '.html');
        const tcut = await page.evaluate(() => Array.prototype.filter.call(document.querySelectorAll('.hd .ti, .hd .rd, th'),
            (e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
        check(!tcut.length, ov + '.html ' + L + ': heading cut: ' + JSON.stringify(tcut));
        want(text, ov === 'pairings' ? ['Round {round} of {rounds}', 'Playing'] : ['Player', 'Pts'], ov + '.html');
        await page.screenshot({path: path.join(args.shots, 'lang-' + L + '-' + ov + '-1920x1080.png')});
        await page.close();
    }
    console.log('hall ' + L + ' (' + (args.param === '1' ? 'lang=' + L : 'the event\'s language') +
                '): <html lang>, no English word of the catalogue, its words shown, table letter "' +
                tr(cat, 'T', 'table letter') + '", nothing cut; dark and light');
    /* the player page on two phones, light and dark */
    const me = seats.filter((s) => s.table > 0)[0];
    const opps = seats.filter((s) => s.ev === me.ev && s.table === me.table && s.id !== me.id);
    for (const [w, h, theme] of [[390, 844, 'light'], [390, 844, 'dark'], [360, 640, 'light']]) {
        const ctx = await b.newContext({viewport: {width: w, height: h}, deviceScaleFactor: 2, isMobile: true, hasTouch: true});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => die('player ' + L + ': page error ' + e.message));
        await page.goto(args.base + '/player.html?' + q + '#theme=' + theme + '&player=' + encodeURIComponent(me.ev + '/' + me.id));
        await page.waitForSelector('#my-table', {timeout: 20000});
        await page.waitForFunction(() => !!document.querySelector('.conn .dot.on') && !!document.querySelector('#my-rank') &&
                                   /\d:\d\d/.test(document.querySelector('.card').textContent), null, {timeout: 20000});
        check(await page.evaluate(() => document.documentElement.lang) === L, 'player: <html lang> is not ' + L);
        check(await page.$eval('#lang', (e) => e.value) === L, 'player: the switcher does not show ' + L);
        const text = await noEnglish(page, 'player ' + w + 'x' + h);
        /* a table whose clock runs says the time "left" (an Agricola
         * table's own clock starts at the table, AG-14) */
        const running = !!(await page.$('.card .box.ck-running'));
        want(text, ['Table', 'Seat', 'Opponent', 'Place', 'Points', 'Standing (no round complete yet)',
                    'live', 'Someone else', 'Light / dark', 'Larger text', 'Language'].concat(running ? ['left'] : []), 'player');
        const card = await page.evaluate(() => ({
            table: document.querySelector('#my-table').textContent,
            opps: Array.prototype.map.call(document.querySelectorAll('.opps .nm'), (e) => e.textContent)
        }));
        check(card.table === String(me.table) && JSON.stringify(card.opps) === JSON.stringify(opps.map((s) => s.name)),
              'player ' + L + ': card ' + JSON.stringify(card));
        const o = await page.evaluate((W) => {
            const bad = Array.prototype.filter.call(document.querySelectorAll('#page *'), (e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (r.right > W + 0.5 || e.scrollWidth > e.clientWidth + 1);
            }).map((e) => e.tagName + '.' + e.className + ':' + e.textContent.slice(0, 40));
            return {scroll: document.documentElement.scrollWidth > W, bad: bad};
        }, w);
        check(!o.scroll && !o.bad.length, 'player ' + L + ' ' + w + 'x' + h + ': wider than the phone or cut: ' +
              JSON.stringify(o.bad.slice(0, 5)));
        await page.screenshot({path: path.join(args.shots, 'lang-' + L + '-player-' + w + 'x' + h + '-' + theme + '.png'),
                               fullPage: true});
        if (args.switch && w === 390 && theme === 'light') {
            /* the phone's own choice: the words follow at once, the
             * address and localStorage keep it, the next visit without
             * lang= speaks it although the event says otherwise */
            const S = args.switch;
            const scat = await catalogue(S);
            await page.selectOption('#lang', S);
            await page.waitForFunction((l) => document.documentElement.lang === l, S, {timeout: 5000});
            const st = await page.evaluate(pageText);
            check(shows(scat, st, 'Table') && shows(scat, st, 'Someone else') && !englishLeft(scat, st).length,
                  'switched to ' + S + ': ' + englishLeft(scat, st).join('; '));
            check(/lang=/.test(await page.evaluate(() => window.location.hash)), 'switcher: not in the address');
            check(await page.evaluate(() => window.localStorage.getItem('tourney.lang')) === S, 'switcher: not remembered');
            const p2 = await ctx.newPage();
            await p2.goto(args.base + '/player.html?events=' + args.events);
            await p2.waitForFunction((l) => document.documentElement.lang === l && /live|\S/.test(document.querySelector('.conn').textContent),
                                     S, {timeout: 20000});
            await p2.waitForFunction(() => !!document.querySelector('.conn .dot.on'), null, {timeout: 20000});
            check(await p2.evaluate(() => document.documentElement.lang) === S, 'the next visit forgot the phone\'s choice ' + S);
            await p2.screenshot({path: path.join(args.shots, 'lang-' + L + '-switched-' + S + '-390x844.png')});
            console.log('player: the switcher turned the page to ' + S + ' at once, kept it in the address and ' +
                        'localStorage, and a new visit without lang= speaks ' + S + ' over the event\'s ' + L);
        }
        await ctx.close();
    }
    console.log('player ' + L + ': 390x844 light and dark, 360x640: no English word, its words shown, ' +
                'table ' + me.table + ' and the opponents, nothing wider than the phone');
    if (args.navigator) {
        /* an event without a language: the browser's */
        const N = args.navigator, NL = N.split('-')[0] === 'no' ? 'nb' : N.split('-')[0];
        const ncat = await catalogue(NL);
        const ctx = await b.newContext({viewport: {width: 390, height: 844}, locale: N});
        const page = await ctx.newPage();
        await page.goto(args.base + '/player.html?events=' + args.navevent);
        await page.waitForFunction(() => !!document.querySelector('.conn .dot.on'), null, {timeout: 20000});
        const text = await page.evaluate(pageText);
        check(await page.evaluate(() => document.documentElement.lang) === NL && shows(ncat, text, 'Your name') &&
              !englishLeft(ncat, text).length, 'a ' + N + ' browser on an event without a language: ' +
              (await page.evaluate(() => document.documentElement.lang)) + ' ' + englishLeft(ncat, text).join('; '));
        console.log('player: a browser in ' + N + ' on an event without a language speaks ' + NL);
        await ctx.close();
    }
    await b.close();
}

(async () => {
    if (mode === 'lang')
        return langCheck();
    if (mode === 'hallpaused')
        return hallPaused();
    if (mode === 'overlays')
        return overlays();
    if (mode === 'longname')
        return longName();
    if (mode === 'selftest')
        return args.po ? selftest() || langSelftest() : selftest();
    if (mode === 'hall')
        return hall();
    if (mode === 'player')
        return player();
    die('usage: pages_check.js selftest|hall|player --overlays DIR ...');
})().catch((e) => die(e && e.stack || String(e)));
