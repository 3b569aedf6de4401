/* play_lifetime.js - issue 20, a code's lifetime, for
 * test_play_lifetime.sh: table codes printed on the table tents days
 * before the event (issued before any player was registered; the hub and
 * the venue broker restarted since) work on the day, every round, and
 * expire with the event, not before.  In Debian's chromium (play.html):
 *
 *   node play_lifetime.js --overlays DIR --base http://H:P --chromium PATH
 *       --tourney PATH --event ID --codes FILE
 *
 * FILE: JSON [{table, code}] (the codes issued before the players).
 * 1. before round 1 (the players registered, nobody paired): table 1's
 *    page signs in and waits for its table ("No table yet": no
 *    assignment before the pairings, as on a Pi), no error;
 * 2. round 1 published: both tables' pages show their table, round 1 and
 *    its two players; results entered at the console, round 1 closed;
 * 3. round 2 published: the same open pages show round 2 (the codes still
 *    work), and a fresh page of table 2 signs in to round 2;
 * 4. round 2 closed, the event finished: the open pages say the code has
 *    expired with the event, and a new sign-in with it says the same.
 * Prints "ok - ..." per check; exit 1 with "FAIL: ..." on the first
 * failure.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');

const {args, text, sleep} = require('./play_lib.js');

function die(msg) {
    console.log('FAIL: ' + msg);
    process.exit(1);
}
function check(cond, msg) {
    if (!cond)
        die(msg);
}

async function waitText(page, sel, re, what, ms) {
    const until = Date.now() + (ms || 30000);
    let last = '';
    while (Date.now() < until) {
        last = await text(page, sel);
        if (re.test(last))
            return last;
        await sleep(100);
    }
    die(what + ': ' + sel + ' says "' + last + '" (expected ' + re + ')');
}

function live(json, ...rest) {
    const r = spawnSync(args.tourney, ['live'].concat(json ? ['--json'] : [], rest),
                        {encoding: 'utf8', timeout: 90000});
    check(r.status === 0, 'tourney live ' + rest.join(' ') + ': exit ' + r.status + ': ' + r.stderr + r.stdout);
    return json ? JSON.parse(r.stdout) : r.stdout;
}

async function main() {
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const codes = JSON.parse(fs.readFileSync(args.codes, 'utf8'));
    const ev = args.event;
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    async function open(code, who) {
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(who + ': ' + e.message));
        await page.goto(args.base + '/play.html?code=' + code);
        return page;
    }
    const page = {};

    /* 1. before round 1 */
    page[1] = await open(codes[0].code, 'table 1');
    await waitText(page[1], '#page h1', /^No table yet$/, 'table 1 before round 1');
    check(!(await page[1].$('#error')), 'table 1 before round 1: ' + (await text(page[1], '#error')));
    console.log('ok - before round 1: table 1\'s code (issued before any player, hub and broker restarted since) ' +
                'signs in: "' + (await text(page[1], '#page h1')) + '"');

    /* 2. round 1 */
    live(false, 'round', 'pair', ev);
    live(false, 'round', 'publish', ev);
    page[2] = await open(codes[1].code, 'table 2');
    for (const t of [1, 2]) {
        await waitText(page[t], '#table h1', new RegExp('^Table ' + t + '$'), 'table ' + t + ' round 1');
        await waitText(page[t], '#table .dim', /Round 1/, 'table ' + t + ' round 1');
    }
    console.log('ok - round 1: both tables\' pages show their table and round 1');
    const play = (r) => {
        for (const t of live(true, 'round', 'show', ev).tables.filter((x) => !x.bye))
            live(false, 'result', 'enter', ev, String(r), String(t.table), JSON.stringify({winner: t.players[0], hq_diff: 5}));
        live(false, 'round', 'close', ev);
    };
    play(1);

    /* 3. round 2: the same codes */
    live(false, 'round', 'pair', ev);
    live(false, 'round', 'publish', ev);
    await waitText(page[1], '#table .dim', /Round 2/, 'table 1\'s open page in round 2');
    await (await page[2].context()).close();
    page[2] = await open(codes[1].code, 'table 2 again');
    await waitText(page[2], '#table h1', /^Table 2$/, 'table 2 signed in again in round 2');
    await waitText(page[2], '#table .dim', /Round 2/, 'table 2 signed in again in round 2');
    console.log('ok - round 2: table 1\'s open page follows, table 2\'s code signs in again: the codes still work');

    /* 4. the event over */
    play(2);
    const st = live(true, 'code', 'list', ev);
    check(st.length === 2 && st.every((c) => c.state === 'expired'), 'code list after the event: ' + JSON.stringify(st));
    for (const t of [1, 2])
        await waitText(page[t], '#ended', /has expired: the event Tents is over/, 'table ' + t + '\'s open page after the event');
    const again = await open(codes[0].code, 'table 1 after');
    await waitText(again, '#ended', /has expired: the event Tents is over/, 'table 1\'s code after the event');
    console.log('ok - the event finished: the codes are listed expired, the open pages and a new sign-in say the code ' +
                'has expired with the event');
    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    await browser.close();
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)));
