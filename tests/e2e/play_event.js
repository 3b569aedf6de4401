/* play_event.js - the phones of tests/e2e/test_play_event.sh (issue 20,
 * "Done when"): one phone per table (a separate Chromium browser context,
 * 390x844, Debian's chromium driven by playwright-core) signed in on
 * deploy/overlays/play.html with its table's code, kept for the whole
 * event: each round's assignment arrives on the page, the players enter
 * the round's result in the form the page built from the engine's result
 * schema and every player confirms it on the phone, until the page shows
 * "Stored by the hub".
 *
 *   node play_event.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       [--shots DIR]
 *
 * Reads one command per line on stdin:
 *   play FILE   FILE: JSON [{event, round, table, code, seats: [player id
 *               in seat order], result: {event-file result}}]; the tables
 *               are played at the same time; prints "STORED EVENT ROUND
 *               TABLE" per table, then "DONE FILE"
 *   quit        closes the browser and exits 0
 * Any failure prints "FAIL: ..." and exits 1.
 *
 * Layout (issue 20, screenshots with real names): on round 1 of every
 * event each phone's filled-in form is checked at 390x844 and 360x640,
 * light and dark, and its confirm screen at 390x844 light and 360x640
 * dark: nothing wider than the phone, no element cut (a box that hides
 * what overflows it with more inside); with --shots DIR each is also
 * saved there, EVENT-r1-tTABLE-{form,confirm}-WIDTH-THEME.png.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const {args, text, sleep} = require('./play_lib.js');

function die(msg) {
    console.log('FAIL: ' + msg);
    process.exit(1);
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
    const all = (await text(page, '#page')).replace(/\s+/g, ' ').slice(0, 300);
    die(what + ': ' + sel + ' says "' + last + '" (expected ' + re + '); the page: ' + all);
}

/* What is wrong with the layout: [] when nothing is. */
async function layoutProblems(page) {
    return page.evaluate(() => {
        const out = [];
        const W = window.innerWidth;
        if (document.documentElement.scrollWidth > W)
            out.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + W + ' px phone');
        for (const el of document.querySelectorAll('#page *')) {
            const r = el.getBoundingClientRect();
            const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' +
                (el.textContent || el.value || '').trim().slice(0, 40) + '"';
            if (r.width > 0 && (r.right > W + 0.5 || r.left < -0.5))
                out.push(what + ' runs out of the screen (' + Math.round(r.left) + '..' + Math.round(r.right) + ')');
            const cs = getComputedStyle(el);
            if (el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && cs.overflowX !== 'visible' &&
                el.scrollWidth > el.clientWidth + 1)
                out.push(what + ' is cut (' + el.scrollWidth + ' px in ' + el.clientWidth + ')');
        }
        return out;
    });
}
const LOOKS = [[390, 844, 'light'], [390, 844, 'dark'], [360, 640, 'light'], [360, 640, 'dark']];
async function looks(page, what, file, sizes) {
    for (const [w, h, theme] of sizes || LOOKS) {
        await page.setViewportSize({width: w, height: h});
        await page.evaluate((th) => {
            document.body.className = 'theme-' + th;
        }, theme);
        const bad = await layoutProblems(page);
        if (bad.length)
            die(what + ' at ' + w + 'x' + h + ': ' + bad.join('; '));
        if (args.shots)
            await page.screenshot({path: path.join(args.shots, file + '-' + w + '-' + theme + '.png'), fullPage: true});
    }
    await page.setViewportSize({width: 390, height: 844});
    await page.evaluate(() => {
        document.body.className = 'theme-light';
    });
}

/* The result (event-file keys) entered in the page's form: the outcome
 * first (it decides which fields are shown), then the fields. */
async function enter(page, seats, res, what) {
    const idx = (p) => {
        const i = seats.indexOf(p);
        if (i < 0)
            die(what + ': ' + p + ' is not seated (' + seats.join(',') + ')');
        return i;
    };
    const click = async (sel) => {
        if (!(await page.$(sel)))
            die(what + ': the form has no ' + sel);
        await page.click(sel);
    };
    const fill = async (sel, v) => {
        if (!(await page.$(sel)))
            die(what + ': the form has no ' + sel);
        await page.fill(sel, String(v));
    };
    if (res.games)
        for (let g = 0; g < res.games.length; g++)
            await click('#g' + g + '-' + idx(res.games[g]));
    else if (res.winner)
        await click('#win' + idx(res.winner));
    else if (res.draw)
        await click('#out-draw');
    if (res.hq_diff != null)
        await fill('#num-hq_diff', res.hq_diff);
    for (const k of ['vp', 'ip', 'bp', 'scores'])
        if (res[k])
            for (const p of Object.keys(res[k]))
                await fill('#pp-' + k + '-' + idx(p), res[k][p]);
    if (res.armies)
        for (const p of Object.keys(res.armies))
            await page.selectOption('#pp-armies-' + idx(p), res.armies[p]);
    if (res.modified)
        await click('#flag-modified');
}

async function main() {
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const phones = new Map(); /* "event/table" -> page */
    const errors = [];

    async function phone(tb) {
        const id = tb.event + '/' + tb.table;
        let page = phones.get(id);
        if (!page) {
            const ctx = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
            page = await ctx.newPage();
            page.on('pageerror', (e) => errors.push(id + ': ' + e.message));
            await page.goto(args.base + '/play.html?code=' + tb.code);
            phones.set(id, page);
        }
        return page;
    }

    async function play(tb) {
        const what = tb.event + ' round ' + tb.round + ' table ' + tb.table;
        const page = await phone(tb);
        await waitText(page, '#table h1', new RegExp('^Table ' + tb.table + '$'), what, 60000);
        await waitText(page, '#table p.dim', new RegExp('· Round ' + tb.round + '( ·|$)'), what);
        await page.waitForSelector('#next', {timeout: 30000});
        await enter(page, tb.seats, tb.result, what);
        if (tb.round === 1)
            await looks(page, what, tb.event + '-r1-t' + tb.table + '-form');
        await page.click('#next');
        const err = await text(page, '#form-error');
        if (err)
            die(what + ': the page refused ' + JSON.stringify(tb.result) + ': ' + err);
        if (tb.round === 1)
            await looks(page, what + ' (confirm)', tb.event + '-r1-t' + tb.table + '-confirm', [LOOKS[0], LOOKS[3]]);
        for (let i = 0; i < tb.seats.length; i++) {
            await page.waitForSelector('#ok' + i, {timeout: 10000});
            await page.click('#ok' + i);
        }
        await waitText(page, '#state', /^Stored by the hub$/, what + ' stored', 60000);
        console.log('STORED ' + tb.event + ' ' + tb.round + ' ' + tb.table);
    }

    const rl = readline.createInterface({input: process.stdin});
    for await (const line of rl) {
        const [cmd, file] = line.trim().split(/\s+/);
        if (cmd === 'quit')
            break;
        if (cmd !== 'play')
            die('unknown command: ' + line);
        const tables = JSON.parse(fs.readFileSync(file, 'utf8'));
        await Promise.all(tables.map(play));
        if (errors.length)
            die('page errors: ' + errors.join('; '));
        console.log('DONE ' + file);
    }
    await browser.close();
    process.exit(0);
}

main().catch((e) => die(e.stack || String(e)));
