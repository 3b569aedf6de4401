/* pages_check.js - the e2e check of the hall screen and the player page
 * (deploy/overlays/hall.html, player.html) for tests/e2e/test_pages.sh:
 * drives Debian's chromium with playwright-core (the pages come from the
 * feed broker over HTTP and read the real feed over WebSocket) and checks
 * the DOM against what the organiser's console printed.
 *
 *   node pages_check.js selftest --overlays DIR
 *   node pages_check.js hall|player --overlays DIR --base http://HOST:PORT
 *       --chromium PATH --events big,small --expect TSV --names TSV --shots DIR
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
    const cut = (el) => el && el.scrollWidth > el.clientWidth + 1;
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

(async () => {
    if (mode === 'hallpaused')
        return hallPaused();
    if (mode === 'overlays')
        return overlays();
    if (mode === 'selftest')
        return selftest();
    if (mode === 'hall')
        return hall();
    if (mode === 'player')
        return player();
    die('usage: pages_check.js selftest|hall|player --overlays DIR ...');
})().catch((e) => die(e && e.stack || String(e)));
