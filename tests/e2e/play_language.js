/* play_language.js - the e2e check of the player page's language, bye and
 * army names (deploy/overlays/play.html, issue 20's newcomer trial) for
 * tests/e2e/test_play_language.sh: Debian's chromium driven by
 * playwright-core, one browser context per player's phone, against the
 * real venue broker's table-page listener and the real hub; the
 * organiser's commands are `tourney live` (--tourney).
 *
 *   node play_language.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       --phones FILE (JSON: {nh: [{player, name, code, login}], ct: [...]})
 *       --tourney PATH --shots DIR
 *
 * The words expected are the catalogues' (i18n.js in node, the pages'
 * own), each checked to be a translation (not the English):
 * 1. before round 1 (nh: Polish, ct: Czech): every phone says "You are
 *    NAME", "No table yet" and "I am here: check in" in the event's
 *    language, <html lang> is it;
 * 2. round 1 published: the bye's phone says "Bye in round 1" and "You
 *    have a bye this round (points: P)" with the format's bye (NH-4: 3,
 *    CT-6: 4); every other phone its table;
 * 3. NH table 1: the army lists on seat 1's phone name the armies in
 *    Polish (the values stay the format's), seat 1 enters a win with
 *    Hegemony against Outpost, the summary names them in Polish, both
 *    players confirm on their phones, the stored state does too;
 * 4. NH round 2 (round 1's other table entered by the organiser): the
 *    bye goes to a player who sat at a table in round 1 (NH-4: no second
 *    bye): their phone says the bye in round 2, no table any more; round
 *    1's bye shows their new table;
 * 5. a CT player's code revoked, then opened on a fresh phone: the page
 *    says it was revoked in Czech (the CodeStatus's language).
 * Prints "ok - ..." per check and "ARMIES TABLE WINNER LOSER" for the
 * table of 3; exit 1 with the failure.
 */
'use strict';
const path = require('path');

const {args, die, check, text, live, sleep} = require('./play_lib.js');

/* Waits until sel's text is want (a string: exactly; a RegExp: matches). */
async function waitText(page, sel, want, what, ms) {
    const until = Date.now() + (ms || 20000);
    const ok = (s) => (typeof want === 'string' ? s === want : want.test(s));
    let last = '';
    while (Date.now() < until) {
        last = await text(page, sel);
        if (ok(last))
            return last;
        await sleep(100);
    }
    die(what + ': ' + sel + ' says "' + last + '" (expected "' + want + '")');
}

/* The pages' catalogues: msgid in language lang, checked to be translated. */
const I = require(path.join(args.overlays, 'i18n.js'));
function tr(lang, msgid, vals) {
    I.setLanguage(lang);
    const s = I.t(msgid, vals);
    I.setLanguage('en');
    check(s !== I.t(msgid, vals), lang + ': "' + msgid + '" has no translation in the catalogue');
    return s;
}
function army(lang, name) {
    I.setLanguage(lang);
    const s = I.tc('army', name);
    I.setLanguage('en');
    check(s !== name, lang + ': the army ' + name + ' has no translation in the catalogue');
    return s;
}
function num(lang, v) {
    I.setLanguage(lang);
    const s = I.number(v, 2);
    I.setLanguage('en');
    return s;
}

async function main() {
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const phones = JSON.parse(require('fs').readFileSync(args.phones, 'utf8'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    const EVENTS = [{id: 'nh', lang: 'pl', bye: 3, rule: 'NH-4'}, {id: 'ct', lang: 'cs', bye: 4, rule: 'CT-6'}];
    const phone = {};
    for (const ev of EVENTS) {
        /* 1. before round 1 */
        for (const p of phones[ev.id]) {
            const ctx = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
            const page = await ctx.newPage();
            page.on('pageerror', (e) => errors.push(p.player + ': ' + e.message));
            await page.goto(args.base + '/play.html?code=' + p.code);
            phone[p.player] = page;
            await waitText(page, '#whoami', tr(ev.lang, 'You are {name}', {name: p.name}), p.player + ' signed in');
            await waitText(page, '#title', tr(ev.lang, 'No table yet'), p.player + ' before round 1');
            await waitText(page, '#checkin', tr(ev.lang, 'I am here: check in'), p.player + '\'s check-in');
            const lang = await page.evaluate(() => document.documentElement.lang);
            check(lang === ev.lang, p.player + ': <html lang="' + lang + '">, expected ' + ev.lang);
        }
        await phone[phones[ev.id][0].player].screenshot({path: path.join(args.shots, ev.id + '-before-round-1.png'),
            fullPage: true});
        console.log('ok - ' + ev.id + ': before round 1 the 5 phones say "You are NAME", "No table yet" and the check-in in ' +
                    ev.lang + ' (<html lang="' + ev.lang + '">)');

        /* 2. round 1: the bye */
        live(false, 'round', 'pair', ev.id);
        live(false, 'round', 'publish', ev.id);
        const rd = live(true, 'round', 'show', ev.id);
        const byes = rd.tables.filter((x) => x.bye);
        check(byes.length === 1, ev.id + ' round 1: ' + byes.length + ' byes: ' + JSON.stringify(rd.tables));
        const byer = byes[0].bye;
        ev.byer = byer;
        ev.tables = rd.tables.filter((x) => !x.bye);
        const bp = phone[byer];
        await waitText(bp, '#title', tr(ev.lang, 'Bye in round {round}', {round: 1}), byer + '\'s bye', 30000);
        await waitText(bp, '#bye', tr(ev.lang, 'You have a bye this round (points: {points}): no game to play.',
                                      {points: num(ev.lang, ev.bye)}), byer + '\'s bye points');
        await bp.screenshot({path: path.join(args.shots, ev.id + '-bye.png'), fullPage: true});
        for (const tb of ev.tables)
            for (const pid of tb.players)
                await waitText(phone[pid], '#table h1', tr(ev.lang, 'Table {table}', {table: tb.table}),
                               pid + ' round 1', 30000);
        console.log('ok - ' + ev.id + ' round 1: ' + byer + '\'s phone says the bye in round 1 worth ' + ev.bye +
                    ' points (' + ev.rule + ') in ' + ev.lang + '; the others show their tables');
    }

    /* 3. NH table 1: the armies in Polish */
    const nh = EVENTS[0];
    const t1 = nh.tables[0];
    const [pa, pb] = t1.players;
    const a = phone[pa], b = phone[pb];
    await a.waitForSelector('#pp-armies-0');
    const opts = await a.$$eval('#pp-armies-0 option', (os) => os.map((o) => [o.value, o.textContent]));
    const want = [['', tr('pl', 'choose')]].concat(['Borgo', 'Hegemony', 'Outpost', 'New York', 'Steel Police'].map(
        (x) => [x, x === 'Borgo' ? x : army('pl', x)]));
    check(JSON.stringify(opts.slice().sort()) === JSON.stringify(want.slice().sort()),
          'NH table ' + t1.table + ': the army list shows ' + JSON.stringify(opts) + ', expected ' + JSON.stringify(want));
    await a.selectOption('#pp-armies-0', 'Hegemony');
    await a.selectOption('#pp-armies-1', 'Outpost');
    await a.click('#win0');
    await a.fill('#num-hq_diff', '6');
    await a.click('#next');
    await a.waitForSelector('#ok0');
    const sum = await text(a, '#summary');
    check(sum.includes(army('pl', 'Hegemony')) && sum.includes(army('pl', 'Outpost')) && !/Hegemony|Outpost/.test(sum),
          'NH table ' + t1.table + ': the summary names the armies "' + sum + '"');
    await a.screenshot({path: path.join(args.shots, 'nh-confirm.png'), fullPage: true});
    await a.click('#ok0');
    await waitText(b, '#ok0', /./, 'seat 2 sees the confirmation');
    await b.waitForFunction(() => document.querySelector('#ok1') && !document.querySelector('#ok1').disabled);
    await b.click('#ok1');
    for (const [p, who] of [[a, pa], [b, pb]]) {
        await waitText(p, '#state', tr('pl', 'Stored by the hub'), who + ' stored', 30000);
        const ent = await text(p, '#entered');
        check(ent.includes(army('pl', 'Hegemony')) && ent.includes(army('pl', 'Outpost')),
              who + ': the stored result names the armies "' + ent + '"');
    }
    await b.screenshot({path: path.join(args.shots, 'nh-stored.png'), fullPage: true});
    console.log('ARMIES ' + t1.table + ' ' + pa + ' ' + pb);
    console.log('ok - NH table ' + t1.table + ': the army lists, the summary and the stored result name the armies in ' +
                'Polish (' + army('pl', 'Hegemony') + ', ' + army('pl', 'Outpost') + '); both players confirmed on their phones');

    /* 4. NH round 2: the bye goes to a player who sat at a table in
     * round 1 (NH-4: no second bye); their phone leaves that table */
    for (const tb of nh.tables.slice(1))
        live(false, 'result', 'enter', 'nh', '1', String(tb.table), JSON.stringify({winner: tb.players[0], hq_diff: 2}));
    live(false, 'round', 'close', 'nh');
    live(false, 'round', 'pair', 'nh');
    live(false, 'round', 'publish', 'nh');
    const rd2 = live(true, 'round', 'show', 'nh');
    const bye2 = rd2.tables.filter((x) => x.bye).map((x) => x.bye);
    check(bye2.length === 1 && bye2[0] !== nh.byer, 'nh round 2: the byes ' + JSON.stringify(bye2) + ' (round 1: ' + nh.byer + ')');
    await waitText(phone[bye2[0]], '#title', tr('pl', 'Bye in round {round}', {round: 2}), bye2[0] + '\'s bye in round 2', 30000);
    await waitText(phone[bye2[0]], '#bye', tr('pl', 'You have a bye this round (points: {points}): no game to play.',
                                              {points: num('pl', 3)}), bye2[0] + '\'s bye points in round 2');
    check(!(await phone[bye2[0]].$('#table')), bye2[0] + ' (a bye in round 2) still shows a table');
    const t2 = rd2.tables.filter((x) => !x.bye && x.players.includes(nh.byer))[0];
    await waitText(phone[nh.byer], '#table h1', tr('pl', 'Table {table}', {table: t2.table}), nh.byer + ' at a table in round 2',
                   30000);
    console.log('ok - nh round 2: ' + bye2[0] + ' (at a table in round 1) has the bye, their phone says so and shows no table; ' +
                nh.byer + ' (round 1\'s bye) shows table ' + t2.table);

    /* 5. a code revoked, then opened on a fresh phone (tryout 13): the
     * page says why in the event's language (its CodeStatus's), not in
     * the browser's */
    const gone = phones.ct[0], dashed = gone.code.slice(0, 4) + '-' + gone.code.slice(4);
    live(false, 'code', 'revoke', 'ct', dashed);
    const ctx5 = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
    const p5 = await ctx5.newPage();
    p5.on('pageerror', (e) => errors.push('revoked: ' + e.message));
    await p5.goto(args.base + '/play.html?code=' + gone.code);
    await waitText(p5, '#ended', tr('cs', 'The code {code} was revoked by the organiser: ask them for a new one.',
                                    {code: dashed}), 'the revoked code on a fresh phone');
    const lang5 = await p5.evaluate(() => document.documentElement.lang);
    check(lang5 === 'cs', 'the revoked code\'s page: <html lang="' + lang5 + '">, expected cs');
    await p5.screenshot({path: path.join(args.shots, 'ct-revoked.png'), fullPage: true});
    await ctx5.close();
    console.log('ok - ct: a revoked code opened on a fresh phone says so in cs (<html lang="cs">)');

    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    await browser.close();
}

main().catch((e) => die(e.stack || String(e)));
