/* play_games.js - the e2e check of the table page's result forms
 * (deploy/overlays/play.html, issue 20 items 1 and 3) for
 * tests/e2e/test_play_games.sh: Debian's chromium driven by
 * playwright-core against the real venue broker's table-page listener and
 * the real hub.
 *
 *   node play_games.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       --tables FILE (JSON: [{event, format, table, code, device, seats}])
 *       --hubpid PID --shots DIR
 *
 * Per table, one phone (390x844) signs in with the table's code, fills the
 * form the page built from the result schema, reloads in the middle (what
 * was typed is still there), shows every player's confirmation and waits
 * for "Stored by the hub".  A value outside the preset's range is refused
 * on the page with the range.  At ag/1 and ct/1 the hub is stopped before
 * the last confirmation and the WebSocket cut before the ack; the page
 * resends the same key when the network is back.  Screenshots: each
 * game's form at 390x844 light and 360x640 dark, its confirm screen and
 * the stored state; nothing may be wider than the phone.
 * Prints "ok - ..." per check, "EXPECT EVENT TABLE DEVICE JSON" per table
 * (the result the hub must hold) and "CUT DEVICE KEY" per cut table.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const {args, die, check, text, waitText, proxy, sleep} = require('./play_lib.js');

/* waitForSelector that, when the element never comes, says what the page
 * shows instead (its form error, its state line, the start of its text). */
async function waitSel(page, sel, what) {
    try {
        await page.waitForSelector(sel, {timeout: 30000});
    } catch (e) {
        const seen = await page.evaluate(() => {
            const t = (s) => (document.querySelector(s) || {}).textContent || '';
            return 'form-error "' + t('#form-error') + '", state "' + t('#state') + '", page "' +
                document.body.innerText.replace(/\s+/g, ' ').slice(0, 400) + '"';
        }).catch((x) => 'the page cannot be read: ' + x.message);
        die(what + ': no ' + sel + ' after 30 s; ' + seen);
    }
}
async function fits(page, what) {
    const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    check(w[0] <= w[1], what + ': the page is ' + w[0] + ' px wide on a ' + w[1] + ' px phone');
}

/* What each game's phone enters: fill(page, seats) before the reload,
 * rest(page, seats) after it; bad: a value outside the range and the
 * message; want: the result the hub must hold (event-file keys). */
const GAMES = {
    'neuroshima-hex': {
        bad: {table: 1, sel: '#num-hq_diff', value: '41', re: /HQ difference: 41 is outside 0 to 40/},
        async fill(page, seats, table) {
            if (table === 1) {
                await page.click('#win0');
                await page.fill('#num-hq_diff', '7');
            } else {
                await page.click('#out-draw');
                check(!(await page.$('#num-hq_diff')), 'NH: a draw still asks for the HQ difference');
            }
            await page.selectOption('#pp-armies-0', 'Borgo');
        },
        async rest(page, seats, table) {
            if (table === 1)
                check(await page.inputValue('#num-hq_diff') === '7', 'NH: the HQ difference was lost in the reload');
            check(await page.inputValue('#pp-armies-0') === 'Borgo', 'NH: the army was lost in the reload');
            await page.selectOption('#pp-armies-1', 'Moloch');
        },
        want: (s, table) => (table === 1 ? {winner: s[0], hq_diff: 7, armies: {[s[0]]: 'Borgo', [s[1]]: 'Moloch'}}
            : {draw: true, armies: {[s[0]]: 'Borgo', [s[1]]: 'Moloch'}})
    },
    tantrix: {
        bad: {sel: '#pp-scores-0', value: '201', re: /Score of .*: 201 is outside 0 to 200/},
        async fill(page) {
            await page.fill('#pp-scores-0', '154');
        },
        async rest(page) {
            check(await page.inputValue('#pp-scores-0') === '154', 'TX: the score was lost in the reload');
            await page.fill('#pp-scores-1', '120');
            await page.fill('#pp-clock_ms-0', '24:30');
            await page.fill('#pp-clock_ms-1', '19:05');
        },
        want: (s) => ({scores: {[s[0]]: 154, [s[1]]: 120}, clock_ms: {[s[0]]: 1470000, [s[1]]: 1145000}})
    },
    agricola: {
        async fill(page) {
            for (let i = 0; i < 4; i++)
                await page.fill('#pp-vp-' + i, String(30 + i));
        },
        async rest(page) {
            check(await page.inputValue('#pp-vp-3') === '33', 'AG: the VP were lost in the reload');
            for (let i = 0; i < 4; i++) {
                await page.fill('#pp-ip-' + i, String(5 + i));
                await page.fill('#pp-bp-' + i, String(i - 1));
            }
        },
        want: (s) => ({
            vp: Object.fromEntries(s.map((p, i) => [p, 30 + i])),
            ip: Object.fromEntries(s.map((p, i) => [p, 5 + i])),
            bp: Object.fromEntries(s.map((p, i) => [p, i - 1]))
        })
    },
    catan: {
        bad: {sel: '#pp-vp-0', value: '21', re: /Victory points \(VP\) of .*: 21 is outside 0 to 20/},
        async fill(page) {
            await page.fill('#pp-vp-0', '10');
            await page.fill('#pp-vp-1', '8');
        },
        async rest(page) {
            check(await page.inputValue('#pp-vp-1') === '8', 'CT: the VP were lost in the reload');
            await page.fill('#pp-vp-2', '7');
            await page.fill('#pp-vp-3', '5');
        },
        want: (s) => ({vp: {[s[0]]: 10, [s[1]]: 8, [s[2]]: 7, [s[3]]: 5}})
    },
    'got-lcg2': {
        async fill(page, seats, table) {
            await page.click(table === 1 ? '#win1' : '#win0');
        },
        async rest(page, seats, table) {
            if (table === 1)
                await page.click('#flag-modified');
        },
        want: (s, table) => (table === 1 ? {winner: s[1], modified: true} : {winner: s[0]})
    },
    'xwing-2.0': {
        bad: {sel: '#pp-scores-0', value: '201', re: /Score of .*: 201 is outside 0 to 200/},
        async fill(page) {
            check(await page.$('#out-intentional_draw') && !(await page.$('#out-draw')),
                  'X-Wing: the outcomes are not the preset\'s (intentional draw yes, draw no)');
            await page.fill('#pp-scores-0', '150');
        },
        async rest(page) {
            await page.fill('#pp-scores-1', '120');
        },
        want: (s) => ({scores: {[s[0]]: 150, [s[1]]: 120}})
    }
};

async function main() {
    const tables = JSON.parse(fs.readFileSync(args.tables, 'utf8'));
    const port = +new URL(args.base).port;
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    const px = await proxy(port);
    const shot = {};
    for (const tb of tables) {
        const game = GAMES[tb.format];
        check(game, 'no entry for format ' + tb.format);
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(tb.event + '/' + tb.table + ': ' + e.message));
        const cut = (tb.event === 'ag' || tb.event === 'ct') && tb.table === 1;
        await page.goto(args.base + '/play.html?code=' + tb.code + '&broker=ws://127.0.0.1:' + px.port + '/mqtt');
        await waitText(page, '#table h1', new RegExp('^Table ' + tb.table + '$'), tb.event + ' table ' + tb.table);
        await page.waitForSelector('#next');
        const seats = tb.seats;
        const label = tb.event + '/' + tb.table;

        if (game.bad && (!game.bad.table || game.bad.table === tb.table)) {
            if (tb.format === 'neuroshima-hex')
                await page.click('#win0');
            await page.fill(game.bad.sel, game.bad.value);
            await page.click('#next');
            await waitText(page, '#form-error', game.bad.re, label + ': ' + game.bad.value + ' out of range');
            check(await page.$('#next'), label + ': the out-of-range value left the form');
            console.log('ok - ' + label + ': ' + game.bad.value + ' refused on the page: "' +
                        await text(page, '#form-error') + '"');
            await page.fill(game.bad.sel, '');
        }
        if (cut) {
            /* A player typing when the Wi-Fi goes: the page redraws
             * (offline) and keeps the field and the letters typed. */
            await page.focus('#pp-vp-0');
            await page.keyboard.type('1');
            px.cut();
            await waitText(page, '#net', /^offline/, label + ': typing when the Wi-Fi went');
            await page.keyboard.type('2');
            const kept = await page.evaluate(() => [document.activeElement && document.activeElement.id,
                document.getElementById('pp-vp-0').value]);
            check(kept[0] === 'pp-vp-0' && kept[1] === '12', label + ': the redraw took the field being typed in: focus on "' +
                  kept[0] + '", the field says "' + kept[1] + '" (expected "12")');
            px.restore();
            await waitText(page, '#net', /^connected/, label + ': back after the cut while typing', 40000);
            await page.fill('#pp-vp-0', '');
            console.log('ok - ' + label + ': the field being typed in survives the redraw of a Wi-Fi cut');
        }
        await game.fill(page, seats, tb.table);
        await page.reload();
        await page.waitForSelector('#next');
        await game.rest(page, seats, tb.table);
        console.log('ok - ' + label + ': entry survives a reload in the middle');
        if (!shot[tb.format]) {
            await fits(page, label + ' form 390x844');
            await page.screenshot({path: path.join(args.shots, tb.event + '-form-390-light.png'), fullPage: true});
            await page.setViewportSize({width: 360, height: 640});
            await page.evaluate(() => {
                document.body.className = 'theme-dark';
            });
            await fits(page, label + ' form 360x640');
            await page.screenshot({path: path.join(args.shots, tb.event + '-form-360-dark.png'), fullPage: true});
            await page.setViewportSize({width: 390, height: 844});
            await page.evaluate(() => {
                document.body.className = 'theme-light';
            });
        }
        await page.click('#next');
        await waitSel(page, '#ok' + (seats.length - 1), label + ': the confirm screen');
        const summary = await text(page, '#summary');
        check(summary.length > 0, label + ': the confirm screen shows no result');
        if (!shot[tb.format]) {
            await fits(page, label + ' confirm');
            await page.screenshot({path: path.join(args.shots, tb.event + '-confirm.png'), fullPage: true});
        }
        const two = (tb.event === 'ag' || tb.event === 'gt') && tb.table === 2;
        if (two) {
            /* A second phone signs in with the table's code: it shows the
             * same result to confirm; half the players confirm on the
             * first phone, the others on the second, which submits. */
            const ctx2 = await browser.newContext({viewport: {width: 360, height: 640}, deviceScaleFactor: 1});
            const page2 = await ctx2.newPage();
            page2.on('pageerror', (e) => errors.push(label + ' phone 2: ' + e.message));
            await page2.goto(args.base + '/play.html?code=' + tb.code);
            await waitSel(page2, '#ok' + (seats.length - 1), label + ': phone 2\'s confirm screen');
            const summary2 = await text(page2, '#summary');
            check(summary2 === summary, label + ': the second phone shows "' + summary2 + '", the first "' + summary + '"');
            const half = seats.length / 2;
            for (let i = 0; i < half; i++)
                await page.click('#ok' + i);
            for (let i = 0; i < half; i++)
                await waitText(page2, '#ok' + i, /confirmed$/, label + ': phone 2 sees seat ' + (i + 1) + ' confirmed on phone 1');
            await page2.evaluate(() => {
                document.body.className = 'theme-dark';
            });
            await fits(page2, label + ' phone 2 confirm 360x640');
            await page2.screenshot({path: path.join(args.shots, tb.event + '-phone2-confirm-360-dark.png'), fullPage: true});
            for (let i = half; i < seats.length; i++)
                await page2.click('#ok' + i);
            await waitText(page2, '#state', /^Stored by the hub$/, label + ' phone 2 stored', 30000);
            await waitText(page, '#state', /^Stored by the hub$/, label + ' phone 1 stored', 30000);
            const keys = await Promise.all([page, page2].map((p) => p.evaluate((code) =>
                JSON.parse(localStorage.getItem('tourney.play.v1.' + code)).outbox.map((e) => e.key), tb.code)));
            check(keys[0].length === 1 && keys[1].length === 1 && keys[0][0] === keys[1][0],
                  label + ': the phones hold different submissions: ' + JSON.stringify(keys));
            console.log('TWO ' + tb.device + ' ' + keys[0][0]);
            console.log('ok - ' + label + ': two phones on the code: seats 1-' + half + ' confirmed on the first, the rest on ' +
                        'the second; both show "Stored by the hub" for one key');
            await ctx2.close();
        } else {
            for (let i = 0; i < seats.length - 1; i++)
                await page.click('#ok' + i);
        }
        if (two) {
            /* stored above */
        } else if (cut) {
            process.kill(+args.hubpid, 'SIGSTOP');
            try {
                await page.click('#ok' + (seats.length - 1));
                await waitText(page, '#state', /^Sent: waiting for the hub$/, label + ' hub stopped');
                await sleep(500);
                px.cut();
                await waitText(page, '#net', /^offline/, label + ' after the cut');
            } finally {
                process.kill(+args.hubpid, 'SIGCONT');
            }
            await sleep(3000);
            check(/^Sent: waiting for the hub$/.test(await text(page, '#state')), label + ': an ack came through a cut network');
            px.restore();
            await waitText(page, '#state', /^Stored by the hub$/, label + ' after the network came back', 40000);
            const kept = await page.evaluate((code) => JSON.parse(localStorage.getItem('tourney.play.v1.' + code)), tb.code);
            console.log('CUT ' + tb.device + ' ' + kept.outbox[0].key);
            console.log('ok - ' + label + ': WebSocket cut between entry and ack, resent when back: "Stored by the hub"');
        } else {
            await page.click('#ok' + (seats.length - 1));
            await waitText(page, '#state', /^Stored by the hub$/, label + ' stored', 30000);
        }
        if (!shot[tb.format]) {
            await page.screenshot({path: path.join(args.shots, tb.event + '-stored.png'), fullPage: true});
            shot[tb.format] = true;
        }
        const lines = await page.$$eval('#entered li', (els) => els.map((e) => e.textContent));
        console.log('ok - ' + label + ': every player confirmed, stored by the hub: ' + lines.join(' | '));
        console.log('EXPECT ' + tb.event + ' ' + tb.table + ' ' + tb.device + ' ' + JSON.stringify(game.want(seats, tb.table)));
        await ctx.close();
    }
    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    px.close();
    await browser.close();
}

main().catch((e) => die(e.stack || String(e)));
