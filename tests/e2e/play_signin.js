/* play_signin.js - issue 20 items 3 and 6 for test_console_tui_devices.sh:
 * players sign in on their own phones (play.html in Debian's chromium,
 * one browser context each) with their player codes, and stay signed in
 * while the dashboard is looked at.
 *
 *   node play_signin.js --overlays DIR --base http://H:P --chromium PATH
 *       --players FILE --ctl DIR
 *
 * FILE: JSON [{player, name, code, table, seat, pi}], pi: the Pi's device
 * id when the player's table has a Pi (tourney-table), else absent.
 * Each page must say "You are NAME, seat N" (its seat of the current
 * round); a player at a Pi's table (item 3) must be told to enter the
 * result on the table's device, get no result form, and the broker must
 * refuse their code on the Pi's result topic (the Pi stays the table's
 * device: a phone never writes for it).  Then prints "ready" and, for
 * each file CTL/close.PLAYER that appears, closes that player's browser
 * context (no goodbye: their last will says they left) and prints
 * "closed PLAYER"; for each file CTL/table.PLAYER waits until that
 * player's page shows their table ("Table N": it holds the rights of a
 * page device of the table, as after the organiser took the Pi away) and
 * prints "at-table PLAYER"; exits 0 when CTL/quit appears, 1 with "FAIL: ..." on
 * the first failed check.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const {args, text, publishAs, sleep} = require('./play_lib.js');

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

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function main() {
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const players = JSON.parse(fs.readFileSync(args.players, 'utf8'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    const ctx = {};
    for (const p of players) {
        const c = await browser.newContext({viewport: {width: 390, height: 844}});
        const page = await c.newPage();
        page.on('pageerror', (e) => errors.push(p.player + ': ' + e.message));
        await page.goto(args.base + '/play.html?code=' + p.code);
        await waitText(page, '#whoami', new RegExp('^You are ' + esc(p.name) + ', seat ' + p.seat + '$'),
                       p.player + ' signed in');
        if (p.pi) {
            await waitText(page, '#pi-table', new RegExp('^Your table ' + p.table +
                           ' has a table device: enter the result there\\.$'), p.player + ' at the Pi\'s table');
            check(!(await page.$('#result')),
                  p.player + ' at the Pi\'s table ' + p.table + ': the phone shows a result form');
            const rc = await publishAs(p.code, 'tourney/v1/device/' + p.pi + '/result', Buffer.from([0x0a, 0x01, 0x78]));
            check(rc === 135, p.player + ': the broker answered ' + rc + ' (not 135) to a publish on ' + p.pi + '\'s result');
            console.log('ok - ' + p.player + ' at table ' + p.table + ' (Pi ' + p.pi + '): "You are ' + p.name +
                        ', seat ' + p.seat + '", told to enter the result on the table\'s device, no form; the broker ' +
                        'refuses the code on the Pi\'s result topic (135)');
        } else {
            console.log('ok - ' + p.player + ' at table ' + p.table + ': "You are ' + p.name + ', seat ' + p.seat + '"');
        }
        ctx[p.player] = c;
    }
    console.log('ready');
    for (;;) {
        check(errors.length === 0, 'page errors: ' + errors.join('; '));
        if (fs.existsSync(path.join(args.ctl, 'quit')))
            break;
        for (const p of players)
            if (ctx[p.player] && !p.done && fs.existsSync(path.join(args.ctl, 'table.' + p.player))) {
                const page = ctx[p.player].pages()[0];
                await waitText(page, '#table h1', new RegExp('^Table ' + p.table + '$'), p.player + '\'s table on their phone');
                check(await page.$('#result'), p.player + ': no result form at table ' + p.table);
                check(!(await page.$('#pi-table')), p.player + ': still told to use the table\'s device');
                p.done = true;
                console.log('at-table ' + p.player);
            }
        for (const pid of Object.keys(ctx))
            if (fs.existsSync(path.join(args.ctl, 'close.' + pid))) {
                await ctx[pid].close();
                delete ctx[pid];
                console.log('closed ' + pid);
            }
        await sleep(200);
    }
    await browser.close();
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)));
