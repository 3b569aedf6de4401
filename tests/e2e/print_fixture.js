/* print_fixture.js - event-file helpers for tests/e2e/test_print.sh
 * (node, no packages): cut an event file to its first rounds, list a
 * round's tables with the players' names, list the standings' names.
 *
 *   node print_fixture.js cut EVENT.json N open|closed HOSTILE > OUT.json
 *       the first N rounds; "open": round N without results (in
 *       progress); player 1 renamed HOSTILE
 *   node print_fixture.js tables EVENT.json ROUND   (ROUND 0: a `tourney
 *       pair` output on stdin)  -> "TABLE<TAB>NAME<TAB>NAME..." per table
 *   node print_fixture.js standings EVENT.json < STANDINGS.json -> names
 */
'use strict';
const fs = require('fs');
const [cmd, file, a, b, c] = process.argv.slice(2);
const ev = JSON.parse(fs.readFileSync(file, 'utf8'));
const name = {};
ev.players.forEach((p) => {
    name[p.id] = p.name;
});
if (cmd === 'cut') {
    ev.rounds = ev.rounds.slice(0, +a);
    if (b === 'open')
        ev.rounds[ev.rounds.length - 1].tables.forEach((t) => {
            delete t.result;
        });
    ev.players[0].name = c;
    process.stdout.write(JSON.stringify(ev, null, 1) + '\n');
} else if (cmd === 'tables') {
    const r = +a === 0 ? JSON.parse(fs.readFileSync(0, 'utf8')) : ev.rounds[+a - 1];
    r.tables.filter((t) => t.table).forEach((t) => {
        console.log([t.table].concat(t.players.map((id) => name[id])).join('\t'));
    });
} else if (cmd === 'standings') {
    JSON.parse(fs.readFileSync(0, 'utf8')).standings.forEach((r) => {
        console.log(r.name);
    });
} else {
    console.error('usage: print_fixture.js cut|tables|standings ...');
    process.exit(2);
}
