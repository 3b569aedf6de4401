/* play_organiser.js - the e2e check of "the organiser entered ..." on the
 * table page (deploy/overlays/play.html, issue 20 item 4) for
 * tests/e2e/test_play_organiser.sh: Debian's chromium driven by
 * playwright-core, two phones signed in with one table's code against the
 * real venue broker's table-page listener and the real hub; the
 * organiser's command is `tourney live` (--tourney), as at the desk.
 *
 *   node play_organiser.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       --code CODE --event ID --seats JSON (the table's two player ids, in
 *       seat order) --tourney PATH --shots DIR
 *
 * 1. phone A (through a TCP proxy that can cut its Wi-Fi) and phone B
 *    show table 1; A's Wi-Fi goes; on A seat 1 wins (HQ 5), both players
 *    confirm: "Sent"; on B seat 2 wins (HQ 3), both confirm: "Stored by
 *    the hub";
 * 2. A's Wi-Fi back: A resends, the hub has a different result (CM-6):
 *    A says the organiser decides; B still says stored;
 * 3. the organiser enters B's result (`result enter --override`): both
 *    phones show it, in the lines the page words a result in (B's
 *    confirm screen's), "The organiser entered the result"; A says its
 *    report was overridden and shows what it reported; B says nothing of
 *    the kind (its report is the result entered).
 * Prints "ok - ..." per check; exit 1 with the failure.
 */
'use strict';
const path = require('path');
const {spawnSync} = require('child_process');

const {args, die, check, text, waitText, proxy, sleep} = require('./play_lib.js');

/* The items of list sel (the page's result lines). */
function items(page, sel) {
    return page.$$eval(sel + ' li', (ls) => ls.map((l) => l.textContent));
}

function live(...rest) {
    const r = spawnSync(args.tourney, ['live'].concat(rest), {encoding: 'utf8', timeout: 90000});
    check(r.status === 0, 'tourney live ' + rest.join(' ') + ': exit ' + r.status + ': ' + r.stderr + r.stdout);
    return r.stdout;
}

/* Enters "seat w+1 won by hq, armies x and y" and has both seats confirm
 * on page; returns the confirm screen's lines. */
async function report(page, w, hq, x, y) {
    await page.click('#win' + w);
    await page.fill('#num-hq_diff', String(hq));
    await page.selectOption('#pp-armies-0', x);
    await page.selectOption('#pp-armies-1', y);
    await page.click('#next');
    await page.waitForSelector('#ok1');
    const lines = await items(page, '#summary');
    await page.click('#ok0');
    await page.click('#ok1');
    return lines;
}

async function main() {
    const seats = JSON.parse(args.seats);
    const port = +new URL(args.base).port;
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    const px = await proxy(port);
    async function open(name, broker) {
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(name + ': ' + e.message));
        await page.goto(args.base + '/play.html?code=' + args.code + (broker ? '&broker=' + broker : ''));
        await waitText(page, '#table h1', /^Table 1$/, name + ' signed in');
        await page.waitForSelector('#next');
        return page;
    }
    const A = await open('phone A', 'ws://127.0.0.1:' + px.port + '/mqtt');
    const B = await open('phone B', '');

    /* 1. two reports: A offline, B online */
    px.cut();
    await waitText(A, '#net', /^offline/, 'phone A without Wi-Fi');
    const linesA = await report(A, 0, 5, 'Hegemony', 'Outpost');
    await waitText(A, '#state', /^Sent: waiting for the hub$/, 'phone A\'s report kept offline');
    const linesB = await report(B, 1, 3, 'Borgo', 'Moloch');
    await waitText(B, '#state', /^Stored by the hub$/, 'phone B\'s report', 30000);
    check(JSON.stringify(linesA) !== JSON.stringify(linesB), 'the two reports read alike: ' + JSON.stringify(linesA));
    console.log('ok - phone A (offline) reported ' + JSON.stringify(linesA) + ', phone B ' + JSON.stringify(linesB) +
                ': B\'s stored');

    /* 2. A back: a conflict */
    px.restore();
    await waitText(A, '#state', /^The hub has a different result for this table: the organiser decides$/,
                   'phone A after its Wi-Fi came back', 40000);
    check(JSON.stringify(await items(A, '#entered')) === JSON.stringify(linesA),
          'phone A shows ' + JSON.stringify(await items(A, '#entered')) + ', not its report');
    await waitText(B, '#state', /^Stored by the hub$/, 'phone B after A\'s conflict');
    await A.screenshot({path: path.join(args.shots, 'conflict-A.png'), fullPage: true});
    console.log('ok - phone A back online: the hub has a different result, A says the organiser decides; B still stored');

    /* 3. the organiser enters B's result */
    live('result', 'enter', args.event, '1', '1', JSON.stringify({winner: seats[1], hq_diff: 3,
        armies: {[seats[0]]: 'Borgo', [seats[1]]: 'Moloch'}}), '--override', '--reason', 'decided at the desk');
    for (const [p, who] of [[A, 'phone A'], [B, 'phone B']]) {
        await waitText(p, '#state', /^The organiser entered the result \(organiser:[^)]+\)\.$/, who + ' after the entry', 30000);
        const shown = await items(p, '#entered');
        check(JSON.stringify(shown) === JSON.stringify(linesB),
              who + ' shows the organiser\'s result as ' + JSON.stringify(shown) + ', expected ' + JSON.stringify(linesB));
    }
    await waitText(A, '#overridden', /^Your report was overridden: the organiser decided the result above\.$/,
                   'phone A (its report conflicted)');
    check(JSON.stringify(await items(A, '#reported')) === JSON.stringify(linesA),
          'phone A: what it reported shows as ' + JSON.stringify(await items(A, '#reported')));
    check(!(await B.$('#overridden')), 'phone B (its report is the one entered) says it was overridden: ' +
          await text(B, '#overridden'));
    await A.screenshot({path: path.join(args.shots, 'organiser-A.png'), fullPage: true});
    await B.screenshot({path: path.join(args.shots, 'organiser-B.png'), fullPage: true});
    console.log('ok - the organiser entered B\'s result: both phones show ' + JSON.stringify(linesB) +
                '; A says its report ' + JSON.stringify(linesA) + ' was overridden, B does not');

    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    px.close();
    await browser.close();
}

main().catch((e) => die(e.stack || String(e)));
