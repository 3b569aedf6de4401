/* play_players.js - the e2e check of the players' own codes on the table
 * page (deploy/overlays/play.html, issue 20 items 2, 3 and 5) for
 * tests/e2e/test_play_players.sh: Debian's chromium driven by
 * playwright-core, one browser context per player's phone, against the
 * real venue broker's table-page listener and the real hub; the organiser's
 * commands are `tourney live` (--tourney), as at the desk.
 *
 *   node play_players.js --overlays DIR --base http://HOST:PORT --chromium PATH
 *       --players FILE (JSON: [{player, name, code, login}], `code player
 *       --json`) --event ID --tourney PATH --shots DIR
 *
 * 1. a wrong code: refused by the broker, the page says it is not a code;
 * 2. check-in: the phones of p1..p6 say "You are NAME" and check in (the
 *    hub stores it and says so: "Checked in"); p7's phone signs in and
 *    does not; `player checkins` lists p7 and p8 as not checked in;
 *    `player drop-no-shows` withdraws them: p7's open page says the code
 *    no longer works (the player left the event);
 * 3. round 1 published: each phone shows its table and "You are NAME,
 *    seat N"; at every table the first seat's phone enters the result and
 *    confirms its own seat only (the other seat's button waits), the other
 *    player confirms on their own phone, which completes it: both phones
 *    show "Stored by the hub" for the same key;
 * 4. after the round, a player asks to drop from their phone ("drop me",
 *    confirmed on the phone): the page says the organiser confirms;
 *    `player drop-requests` lists them, `--confirm` drops them: their
 *    page says their code no longer works;
 * 5. round 2 published: a player whose table changed is re-pointed: their
 *    phone shows the new table, and in their code's own MQTT client the
 *    broker refuses a result on the old table's device (PUBACK 135) and
 *    accepts a publish on the new one;
 * 6. a one-round event played out: its player's code, opened on a phone,
 *    says it has expired with the event.
 * Prints "ok - ..." per check and "STORED EVENT TABLE DEVICE KEY" per
 * table of round 1, "DROPPED PLAYER" for the drop; exit 1 with the failure.
 */
'use strict';
const path = require('path');

const {args, die, check, text, waitText, live, publishAs, sleep} = require('./play_lib.js');

async function main() {
    const {chromium} = require(path.join(args.overlays, 'node_modules', 'playwright-core'));
    const players = JSON.parse(require('fs').readFileSync(args.players, 'utf8'));
    const by = {};
    players.forEach((p) => {
        by[p.player] = p;
    });
    const ev = args.event;
    const browser = await chromium.launch({
        executablePath: args.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync']
    });
    const errors = [];
    const phone = {};
    async function open(pid) {
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 1});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push(pid + ': ' + e.message));
        await page.goto(args.base + '/play.html?code=' + by[pid].code);
        phone[pid] = page;
        return page;
    }

    /* 1. a wrong code */
    {
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}});
        const page = await ctx.newPage();
        await page.goto(args.base + '/play.html?code=ZZZZ-ZZZZ');
        await waitText(page, '#error', /ZZZZ-ZZZZ is not a sign-in code of this event/, 'a wrong code');
        console.log('ok - a wrong code: refused by the broker, the page says it is not a sign-in code');
        await ctx.close();
    }

    /* 2. check-in before round 1 */
    for (const pid of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) {
        const page = await open(pid);
        await waitText(page, '#whoami', new RegExp('^You are ' + by[pid].name + '$'), pid + ' signed in');
        if (pid === 'p7')
            continue; /* signed in, never checks in */
        await page.click('#checkin');
        await waitText(page, '#checkin-state', /^Checked in: wait for the pairings\.$/, pid + ' checked in');
    }
    await phone.p1.screenshot({path: path.join(args.shots, 'player-checked-in.png'), fullPage: true});
    check(await phone.p7.$('#checkin'), 'p7 (not checked in): no check-in button');
    console.log('ok - p1..p6 checked in from their phones ("You are NAME", "Checked in"), p7 signed in without');
    const ins = live(true, 'player', 'checkins', ev);
    const missing = ins.filter((r) => !r.checked_in).map((r) => r.player).sort();
    check(JSON.stringify(missing) === '["p7","p8"]', 'player checkins: not checked in ' + JSON.stringify(ins));
    console.log('ok - player checkins: p7 and p8 have not checked in');
    live(false, 'player', 'drop-no-shows', ev);
    await waitText(phone.p7, '#ended', new RegExp(by.p7.name + ', you have left the event'), 'p7 after drop-no-shows');
    console.log('ok - player drop-no-shows: p7 and p8 withdrawn; p7\'s open page says the code no longer works');

    /* 3. round 1: each player confirms on their own phone */
    live(false, 'round', 'pair', ev);
    live(false, 'round', 'publish', ev);
    live(false, 'clock', 'start', ev);
    const at = {}; /* table -> [{pid, seat}] */
    const tableOf = {};
    for (const pid of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']) {
        const page = phone[pid];
        const h1 = await waitText(page, '#table h1', /^Table \d+$/, pid + ' round 1 table', 30000);
        const who = await waitText(page, '#whoami', new RegExp('^You are ' + by[pid].name + ', seat \\d$'), pid + ' seat');
        const t = +h1.replace('Table ', '');
        tableOf[pid] = t;
        (at[t] = at[t] || []).push({pid, seat: +who.replace(/.*seat /, '')});
    }
    await phone.p1.screenshot({path: path.join(args.shots, 'player-table.png'), fullPage: true});
    const codes1 = live(true, 'code', 'list', ev);
    const dev1 = {};
    codes1.forEach((c) => {
        if (c.player)
            dev1[c.player] = c.device;
    });
    for (const t of Object.keys(at)) {
        const two = at[t].sort((x, y) => x.seat - y.seat);
        check(two.length === 2 && two[0].seat === 1 && two[1].seat === 2, 'table ' + t + ': seats ' + JSON.stringify(two));
        check(dev1[two[0].pid] && dev1[two[0].pid] === dev1[two[1].pid],
              'table ' + t + ': the players\' codes point at devices ' + dev1[two[0].pid] + ' and ' + dev1[two[1].pid]);
        const a = phone[two[0].pid], b = phone[two[1].pid];
        await a.click('#win0'); /* seat 1 wins */
        await a.click('#next');
        await a.waitForSelector('#ok0');
        check(await a.$eval('#ok1', (el) => el.disabled), 'table ' + t + ': seat 1\'s phone may confirm for seat 2');
        await waitText(a, '#ok1', /^waiting for /, 'table ' + t + ' seat 2 on seat 1\'s phone');
        await a.click('#ok0');
        await waitText(b, '#ok0', /confirmed$/, 'table ' + t + ': seat 2\'s phone sees seat 1 confirmed');
        check(await b.$eval('#ok0', (el) => el.disabled), 'table ' + t + ': seat 2\'s phone may confirm for seat 1');
        if (t === '1')
            await b.screenshot({path: path.join(args.shots, 'player-confirm.png'), fullPage: true});
        check(/^Sent|^Stored/.test(await text(b, '#state')) === false, 'table ' + t + ': submitted before seat 2 confirmed');
        await b.click('#ok1');
        await waitText(b, '#state', /^Stored by the hub$/, 'table ' + t + ' seat 2 stored', 30000);
        await waitText(a, '#state', /^Stored by the hub$/, 'table ' + t + ' seat 1 stored', 30000);
        const keys = await Promise.all([a, b].map((p, i) => p.evaluate((code) =>
            JSON.parse(localStorage.getItem('tourney.play.v1.' + code)).outbox.map((e) => e.key),
        by[two[i].pid].code)));
        check(keys[0].length === 1 && keys[1].length === 1 && keys[0][0] === keys[1][0],
              'table ' + t + ': the phones hold different submissions ' + JSON.stringify(keys));
        console.log('STORED ' + ev + ' ' + t + ' ' + dev1[two[0].pid] + ' ' + keys[0][0] + ' ' + two[0].pid);
        console.log('ok - table ' + t + ': ' + two[0].pid + ' entered and confirmed seat 1 on their phone, ' + two[1].pid +
                    ' confirmed seat 2 on theirs: one submission, "Stored by the hub" on both');
    }
    live(false, 'round', 'close', ev);

    /* 4. "drop me" after round 1: a loser (seat 2 of the first table) */
    const leaver = at[Object.keys(at)[0]][1].pid;
    await phone[leaver].click('#drop');
    await phone[leaver].click('#drop-yes');
    await waitText(phone[leaver], '#drop-state', /^You asked to drop: the organiser confirms\.$/, leaver + ' drop asked');
    await phone[leaver].screenshot({path: path.join(args.shots, 'player-drop-asked.png'), fullPage: true});
    const asked = live(true, 'player', 'drop-requests', ev);
    check(asked.length === 1 && asked[0].player === leaver, 'player drop-requests: ' + JSON.stringify(asked));
    live(false, 'player', 'drop-requests', ev, '--confirm');
    await waitText(phone[leaver], '#ended', new RegExp(by[leaver].name + ', you have left the event'), leaver + ' after the drop');
    await phone[leaver].screenshot({path: path.join(args.shots, 'player-dropped.png'), fullPage: true});
    console.log('DROPPED ' + leaver);
    console.log('ok - ' + leaver + ' asked to drop from their phone; player drop-requests listed it, --confirm dropped them: ' +
                'their page says the code no longer works');

    /* 5. round 2: the codes follow their players */
    live(false, 'round', 'pair', ev);
    live(false, 'round', 'publish', ev);
    const codes2 = live(true, 'code', 'list', ev);
    const dev2 = {};
    codes2.forEach((c) => {
        if (c.player)
            dev2[c.player] = c;
    });
    check(dev2[leaver].state === 'dropped', 'code list: ' + leaver + '\'s code is ' + dev2[leaver].state);
    let mover = '';
    for (const pid of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']) {
        if (pid === leaver || !dev2[pid].table)
            continue;
        await waitText(phone[pid], '#table h1', new RegExp('^Table ' + dev2[pid].table + '$'), pid + ' round 2 table', 30000);
        await waitText(phone[pid], '#table .dim', /Round 2/, pid + ' round 2', 30000);
        if (!mover && dev2[pid].device !== dev1[pid])
            mover = pid;
    }
    check(mover, 'round 2: no player changed table (devices ' + JSON.stringify(dev1) + ' -> ' + JSON.stringify(dev2) + ')');
    const refused = await publishAs(by[mover].code, 'tourney/v1/device/' + dev1[mover] + '/result', Buffer.from('x'));
    check(refused === 135, mover + '\'s code on the old table\'s device ' + dev1[mover] + ': PUBACK ' + refused);
    const accepted = await publishAs(by[mover].code, 'tourney/v1/device/' + dev2[mover].device + '/draft', '');
    check(accepted === 0, mover + '\'s code on the new table\'s device ' + dev2[mover].device + ': PUBACK ' + accepted);
    console.log('ok - ' + mover + ' moved from ' + dev1[mover] + ' to ' + dev2[mover].device + ' (table ' + dev2[mover].table +
                '): the page shows the new table; the broker refuses the old table\'s result topic (PUBACK 135) and ' +
                'accepts the new table\'s');
    await phone[mover].screenshot({path: path.join(args.shots, 'player-round2.png'), fullPage: true});

    /* 6. a code of a finished event: a one-round event played out; its
     * player's page says the code has expired with the event */
    live(false, 'event', 'create', 'ex', '--format', 'neuroshima-hex', '--title', 'One round', '--seed', '2',
         '--options', '{"swiss_rounds": 1, "cut": 0}');
    ['Ann', 'Bo', 'Cy', 'Di'].forEach((n, i) => live(false, 'player', 'add', 'ex', 'x' + (i + 1), n,
                                                      '--army', 'Borgo', '--army', 'Hegemony', '--army', 'Moloch',
                                                      '--army', 'Outpost', '--army', 'Vegas'));
    const ex = live(true, 'code', 'player', 'ex', 'x1');
    live(false, 'round', 'pair', 'ex');
    live(false, 'round', 'publish', 'ex');
    for (const t of live(true, 'round', 'show', 'ex').tables.filter((x) => !x.bye))
        live(false, 'result', 'enter', 'ex', '1', String(t.table), JSON.stringify({winner: t.players[0], hq_diff: 5}));
    live(false, 'round', 'close', 'ex');
    {
        const ctx = await browser.newContext({viewport: {width: 390, height: 844}});
        const page = await ctx.newPage();
        page.on('pageerror', (e) => errors.push('ex: ' + e.message));
        await page.goto(args.base + '/play.html?code=' + ex[0].query);
        await waitText(page, '#ended', /has expired: the event One round is over/, 'the finished event\'s code');
        await page.screenshot({path: path.join(args.shots, 'player-expired.png'), fullPage: true});
        console.log('ok - a player code of a finished event: the page says it has expired with the event');
        await ctx.close();
    }

    check(errors.length === 0, 'page errors: ' + errors.join('; '));
    await browser.close();
}

main().catch((e) => die(e.stack || String(e)));
