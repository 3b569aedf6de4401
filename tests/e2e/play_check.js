/* play_check.js - the e2e check of the table page (deploy/overlays/play.html,
 * issue 20) for tests/e2e/test_play_codes.sh: Debian's chromium driven by
 * playwright-core at 390x844 against the real venue broker's table-page
 * listener (which also serves the pages) and the real hub.
 *
 *   node play_check.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       --codes FILE (JSON: t1, t3, dev4, revoked) --names TSV (table, seat,
 *       name of table 1) --hubpid PID --event ID --shots DIR --tourney PATH
 *
 * 1. a wrong code: the broker refuses it and the page says so (the
 *    sign-in screen with its message); a revoked code: its login reads
 *    only its status, and the page says it was revoked (issue 20 item 2);
 * 2. table 3's code in the page's own MQTT client: publishing a result on
 *    table 4's device topic gets PUBACK 135 from the broker, and of every
 *    device's assignment only table 3's own is delivered;
 * 3. table 1's code: the table, its two players' names, the clock; the
 *    result entered and confirmed by both players on this screen while
 *    the hub is stopped (SIGSTOP): the page shows "sent" and keeps the
 *    submission in localStorage; the WebSocket is cut (a TCP proxy between
 *    the page and the broker drops every connection and refuses new ones),
 *    the hub resumes and acks into the void; the network comes back: the
 *    page resends the same key and shows "stored by the hub"; a reload
 *    still shows it.  The test counts the hub's submissions afterwards;
 * 4. table 3's code revoked (`tourney live code revoke`) while its page is
 *    signed in: the page is signed out and says the code was revoked;
 *    before it, table 4's page on a first visit (no stored device id) is
 *    online and, closed without a goodbye, offline (its last will);
 * 5. issue 21: the Polish event's table 1 (codes.pl; its assignment says
 *    "language": "pl"): the page is in Polish (html lang, the table, the
 *    seats, the result form and the confirm screen in pl.po's words, none
 *    of the English ones), and ?lang=en still gives English.
 * Prints one line per check; exit 0 when all held, 1 with the failure.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const {args, die, check, text, waitText, proxy, sleep} = require('./play_lib.js');
const OVL = args.overlays;

async function main() {
    const codes = JSON.parse(fs.readFileSync(args.codes, 'utf8'));
    const names = fs.readFileSync(args.names, 'utf8').trim().split('\n').map((l) => l.split('\t'));
    const port = +new URL(args.base).port;
    const {chromium} = require(path.join(OVL, 'node_modules', 'playwright-core'));
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const phone = {viewport: {width: 390, height: 844}, deviceScaleFactor: 1};
    const errors = [];
    const newPage = async () => {
        const ctx = await browser.newContext(phone);
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(e.message));
        return page;
    };

    /* 1. wrong and revoked codes */
    let page = await newPage();
    await page.goto(args.base + '/play.html');
    await page.waitForSelector('#code');
    await page.screenshot({path: path.join(args.shots, 'signin.png')});
    await page.fill('#code', 'ZZZZ-ZZZZ');
    await page.click('#signin');
    await waitText(page, '#error', /ZZZZ-ZZZZ is not a sign-in code of this event/, 'wrong code');
    check(await page.$('#code'), 'wrong code: the sign-in screen is not shown again');
    await page.screenshot({path: path.join(args.shots, 'signin-refused.png')});
    console.log('ok - a wrong code: refused by the broker, the page says so on the sign-in screen');
    await page.fill('#code', 'k7qx');
    await page.click('#signin');
    await waitText(page, '#error', /A code is 8 letters and digits/, 'short code');
    console.log('ok - a code of the wrong length is named as such before any connection');
    await page.goto(args.base + '/play.html?code=' + codes.revoked);
    await waitText(page, '#ended', /was revoked by the organiser: ask them for a new one/, 'revoked code');
    console.log('ok - a revoked code (play.html?code=...): the page says it was revoked');

    /* 2. table 3's code may not write table 4's result */
    const r = await page.evaluate(async ([code, dev4]) => {
        const c = window.mqtt.connect(location.origin.replace(/^http/, 'ws') + '/mqtt', {
            username: code, password: code, protocolVersion: 5, reconnectPeriod: 0, clientId: 'check-' + Date.now()
        });
        const seen = [];
        c.on('message', (t) => seen.push(t));
        await new Promise((res, rej) => {
            c.on('connect', res);
            c.on('error', rej);
        });
        await new Promise((res) => c.subscribe(['tourney/v1/device/+/assign', 'tourney/v1/#'], {qos: 1}, res));
        const out = await new Promise((res) => c.publish('tourney/v1/device/' + dev4 + '/result',
            new Uint8Array([10, 3, 107, 101, 121]), {qos: 1}, (err, pkt) => res(err ? (err.code || err.message) : 0)));
        await new Promise((res) => setTimeout(res, 1500));
        c.end(true);
        return {publish: out, seen: seen};
    }, [codes.t3, codes.dev4]);
    check(r.publish === 135, 'table 3 publishing on table 4\'s result topic: expected PUBACK 135, got ' + r.publish);
    check(r.seen.length >= 1 && r.seen.every((t) => t === 'tourney/v1/device/' + codes.dev3 + '/assign' ||
                                                     /^tourney\/v1\/(hub\/state|event\/[^/]+\/clock)$/.test(t)),
          'table 3 received topics beyond its own: ' + r.seen.join(' '));
    console.log('ok - table 3\'s code: a result on table 4\'s topic is refused by the broker (PUBACK 135); ' +
                'of tourney/v1/# it receives only its own assignment, the hub state and the clock');
    await page.context().close();

    /* 3. table 1: enter, confirm, cut, stored once */
    const px = await proxy(port);
    page = await newPage();
    const url = args.base + '/play.html?code=' + codes.t1 + '&broker=ws://127.0.0.1:' + px.port + '/mqtt';
    await page.goto(url);
    await waitText(page, '#table h1', /^Table 1$/, 'table 1 signed in');
    for (const [, seat, name] of names) {
        const seats = await page.$$eval('.seat', (els) => els.map((e) => e.textContent));
        check(seats.some((s) => s.indexOf('Seat ' + seat) === 0 && s.indexOf(name) >= 0),
              'table 1: seat ' + seat + ' ' + name + ' not shown: ' + seats.join(' | '));
    }
    await waitText(page, '#clock', /^\d+:\d\d$/, 'the round clock');
    const c1 = await text(page, '#clock');
    await sleep(2200);
    const c2 = await text(page, '#clock');
    check(c1 !== c2, 'the clock does not count down: ' + c1 + ' then ' + c2);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    check(!overflow, 'the table page is wider than the phone');
    await page.screenshot({path: path.join(args.shots, 'table.png'), fullPage: true});
    console.log('ok - table 1 signed in: table, both players (' + names.map((n) => n[2]).join(', ') +
                '), the round clock counting down (' + c1 + ', ' + c2 + ')');

    await page.click('#win0');
    await page.click('#next');
    await page.waitForSelector('#ok1');
    await page.screenshot({path: path.join(args.shots, 'confirm.png'), fullPage: true});
    await page.click('#ok0');
    process.kill(+args.hubpid, 'SIGSTOP');
    try {
        await page.click('#ok1');
        await waitText(page, '#state', /^Sent: waiting for the hub$/, 'after both confirmed, hub stopped');
        const kept = await page.evaluate((code) => JSON.parse(localStorage.getItem('tourney.play.v1.' + code)), codes.t1);
        check(kept && kept.outbox.length === 1 && kept.outbox[0].status === 'sent',
              'the submission is not kept in localStorage: ' + JSON.stringify(kept));
        await page.screenshot({path: path.join(args.shots, 'sent.png'), fullPage: true});
        console.log('ok - both players confirmed on this screen; hub stopped: "Sent: waiting for the hub", kept in localStorage');
        await sleep(500);
        px.cut();
        await waitText(page, '#net', /^offline/, 'the page after the cut');
    } finally {
        process.kill(+args.hubpid, 'SIGCONT');
    }
    /* The hub commits and acks to a page that is not there. */
    await sleep(3000);
    check(/^Sent: waiting for the hub$/.test(await text(page, '#state')), 'an ack reached the page through a cut network');
    console.log('ok - WebSocket cut between entry and ack; the hub resumed and answered while the page was offline');
    px.restore();
    await waitText(page, '#state', /^Stored by the hub$/, 'after the network came back', 30000);
    await page.screenshot({path: path.join(args.shots, 'stored.png'), fullPage: true});
    console.log('ok - network back: the page resent the same key and shows "Stored by the hub"');
    await page.reload();
    await waitText(page, '#state', /^Stored by the hub$/, 'after a reload');
    const kept2 = await page.evaluate((code) => JSON.parse(localStorage.getItem('tourney.play.v1.' + code)), codes.t1);
    console.log('ok - after a reload: still "Stored by the hub" (key ' + kept2.outbox[0].key + ')');
    await page.context().close();

    /* 4a. a first visit (item 6): table 4's page in a fresh browser
     * learns its device id from the assignment, so its first connection
     * has no last will; the page must still be seen offline by the hub
     * (code list's "online") when it goes away without a goodbye. */
    const online4 = () => {
        const r = require('child_process').spawnSync(args.tourney, ['live', '--json', 'code', 'list', args.event],
                                                     {encoding: 'utf8', timeout: 60000});
        check(r.status === 0, 'code list: exit ' + r.status + ': ' + r.stderr);
        const c = JSON.parse(r.stdout).find((x) => x.device === codes.dev4);
        check(c, 'code list has no code for ' + codes.dev4 + ': ' + r.stdout);
        return c.online;
    };
    const until = async (want, what) => {
        for (let i = 0; i < 100 && online4() !== want; i++)
            await sleep(200);
        check(online4() === want, what);
    };
    page = await newPage();
    await page.goto(args.base + '/play.html?code=' + codes.t4);
    await waitText(page, '#table h1', /^Table 4$/, 'table 4 signed in (first visit)');
    await until(true, 'table 4\'s page signed in: code list does not say its device ' + codes.dev4 + ' is online');
    await page.context().close();
    await until(false, 'table 4\'s first-visit page closed without a goodbye: ' + codes.dev4 + ' still online (no last will)');
    console.log('ok - table 4\'s first-visit page: online while open, offline (its last will) once closed without a goodbye');

    /* 4. table 3's code revoked while its page is signed in: the broker
     * closes the connection and refuses the code; the page says so. */
    page = await newPage();
    await page.goto(args.base + '/play.html?code=' + codes.t3);
    await waitText(page, '#table h1', /^Table 3$/, 'table 3 signed in');
    const rv = require('child_process').spawnSync(args.tourney, ['live', 'code', 'revoke', args.event, codes.t3],
                                                  {encoding: 'utf8', timeout: 60000});
    check(rv.status === 0, 'code revoke of table 3: exit ' + rv.status + ': ' + rv.stderr);
    await waitText(page, '#ended', /was revoked by the organiser: ask them for a new one/, 'table 3 after its code was revoked');
    check(!(await page.$('#table')), 'table 3 after the revoke: the table is still shown');
    console.log('ok - table 3\'s code revoked while its page was signed in: the broker dropped it, the page says it was revoked');
    await page.context().close();

    /* 5. the event's language (issue 21) */
    page = await newPage();
    await page.goto(args.base + '/play.html?code=' + codes.pl);
    await waitText(page, '#table h1', /^Stolik 1$/, 'the Polish event\'s table 1');
    check(await page.evaluate(() => document.documentElement.lang) === 'pl',
          'the Polish event\'s page: <html lang> is not pl');
    const plSeats = await page.$$eval('.seat .no', (els) => els.map((e) => e.textContent));
    check(plSeats.join('|') === 'Miejsce 1|Miejsce 2', 'the Polish seats: ' + plSeats.join('|'));
    await waitText(page, '#net', /^połączono$/, 'the Polish network state');
    const plBody = await text(page, '#page');
    for (const w of ['Runda 1', 'System szwajcarski', 'Gracze', 'Kto wygrał?', 'Dalej: każdy gracz potwierdza'])
        check(plBody.indexOf(w) >= 0, 'the Polish table page lacks "' + w + '": ' + plBody);
    for (const w of ['Table', 'Round', 'Swiss', 'Players', 'Seat', 'Who won', 'Next:', 'connected'])
        check(plBody.indexOf(w) < 0, 'the Polish table page shows the English "' + w + '": ' + plBody);
    check(!(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)),
          'the Polish table page is wider than the phone');
    await page.screenshot({path: path.join(args.shots, 'table-pl.png'), fullPage: true});
    await page.click('#win1');
    await page.click('#next');
    await page.waitForSelector('#ok1');
    const plConfirm = await text(page, '#result');
    for (const w of ['Potwierdźcie wynik', 'Wygrał(a) ', ': potwierdzam', 'Wstecz: zmień wynik'])
        check(plConfirm.indexOf(w) >= 0, 'the Polish confirm screen lacks "' + w + '": ' + plConfirm);
    await page.screenshot({path: path.join(args.shots, 'confirm-pl.png'), fullPage: true});
    console.log('ok - the Polish event\'s table (assignment language pl): "Stolik 1", "Miejsce 1", "Kto wygrał?", ' +
                'the confirm screen in Polish, no English word, fits the phone');
    await page.context().close();
    page = await newPage();
    await page.goto(args.base + '/play.html?lang=en&code=' + codes.pl);
    await waitText(page, '#table h1', /^Table 1$/, 'the Polish event\'s table 1 with ?lang=en');
    console.log('ok - ?lang=en over the event\'s language: "Table 1"');
    await page.context().close();
    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    px.close();
    await browser.close();
    console.log('KEY ' + kept2.outbox[0].key);
}

main().catch((e) => die(e.stack || String(e)));
