#!/usr/bin/env bash
# test_console_players.sh - output a person can read (issue 8 part 6),
# against the real hub and broker:
# - a spreadsheet's CSV (headers "Player,Team,Country,Rating" in any case,
#   no id column) imports: ids p1.. are made up, and the reply lists what
#   was imported (id, name, club);
# - importing the same file again is refused (the names are players
#   already) and changes nothing; an unknown or repeated column is
#   refused naming it;
# - `players list` names every player (id, name, club, country, rating);
# - `round publish` prints a summary (tables at a device, without one);
# - `round pair` names the players at each table ("p3 Jiří Šebesta");
#   `round show` shows the published round when there is no draft, and
#   `--round N` a closed one; tables in number order after a move (CM-9);
# - a disqualified player is marked in `standings` ("(disqualified)") and
#   in `players list` ("DISQUALIFIED after round 1");
# - listings show instants in local time (`event list`: created=...,
#   checked under TZ=UTC and TZ=Asia/Tokyo against --json's created_ms).
#
# usage: bash test_console_players.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"
need_binaries TOURNEY HUB
start_broker --no-ws --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20
export LC_ALL=C.UTF-8
live 0 event create ev --format neuroshima-hex --title 'Liga' --seed 3 \
    --options '{"swiss_rounds": 2, "cut": 0}'

printf '%s\n' 'PLAYER,Team,country,Rating' 'Łukasz Wójcik,Hex Kraków,PL,1510' \
    'Jiří Šebesta,Brno,CZ,1490' 'Szőke Ödön,,HU,' 'Øystein Ærø,Oslo,NO,1400' >"$E2E_TMP/sheet.csv"
live 0 players import ev "$E2E_TMP/sheet.csv"
[ "$(head -n 1 "$E2E_TMP/out")" = "imported 4 players into ev" ] || fail "import summary: $(cat "$E2E_TMP/out")"
grep -q -x 'id=p1  name=Łukasz Wójcik  club=Hex Kraków' "$E2E_TMP/out" &&
    grep -q -x 'id=p3  name=Szőke Ödön' "$E2E_TMP/out" &&
    grep -q -x 'id=p4  name=Øystein Ærø  club=Oslo' "$E2E_TMP/out" ||
    fail "import report: $(cat "$E2E_TMP/out")"
ok "spreadsheet headers (PLAYER, Team, country, Rating) imported; ids p1..p4 made up and listed"

live 3 players import ev "$E2E_TMP/sheet.csv"
grep -q 'csv line 2: "Łukasz Wójcik" is already a player (p1); without an id column names must be new' "$E2E_TMP/err" ||
    fail "re-import: $(cat "$E2E_TMP/err")"
printf '%s\n' 'id,Name,Club,Team' 'x1,X,Y,Z' >"$E2E_TMP/two.csv"
live 3 players import ev "$E2E_TMP/two.csv"
grep -q 'csv line 1: columns 3 and 4 are both club' "$E2E_TMP/err" || fail "repeated column: $(cat "$E2E_TMP/err")"
printf '%s\n' 'name,shoe size' 'X,44' >"$E2E_TMP/bad.csv"
live 3 players import ev "$E2E_TMP/bad.csv"
grep -q 'csv line 1: unknown column "shoe size"' "$E2E_TMP/err" || fail "unknown column: $(cat "$E2E_TMP/err")"
live 0 players list ev
[ "$(head -n 1 "$E2E_TMP/out")" = "4 players in ev" ] || fail "players list after refusals: $(cat "$E2E_TMP/out")"
grep -q -x '  p2  Jiří Šebesta  club=Brno  country=CZ  rating=1490' "$E2E_TMP/out" &&
    grep -q -x '  p3  Szőke Ödön  country=HU' "$E2E_TMP/out" ||
    fail "players list: $(cat "$E2E_TMP/out")"
ok "a second import of the same sheet, a repeated column and an unknown one are refused naming them; nothing changed; players list names every player"

live 0 round pair ev
grep -E -q '^  table [0-9]+ +p[1-4] [^ ].* - p[1-4] [^ ]' "$E2E_TMP/out" ||
    fail "round pair does not name the players: $(cat "$E2E_TMP/out")"
for name in 'Łukasz Wójcik' 'Jiří Šebesta' 'Szőke Ödön' 'Øystein Ærø'; do
    grep -q -F "$name" "$E2E_TMP/out" || fail "round pair: no $name: $(cat "$E2E_TMP/out")"
done
ok "round pair names the players: $(grep '^  table' "$E2E_TMP/out" | head -n 1)"

# CM-9: tables in number order, also after a move.
live 0 round move ev 1 1 5
live 0 round show ev
[ "$(grep -o -E '^  table [0-9]+' "$E2E_TMP/out" | awk '{ print $2 }' | tr '\n' ' ')" = "2 5 " ] ||
    fail "after moving table 1 to 5, round show: $(cat "$E2E_TMP/out")"
ok "after moving table 1 to 5 the draft lists tables 2, 5 (number order)"

live 0 round publish ev
# No device is registered: both tables are without one.
grep -q -x '  0 tables at a device, 2 without one' "$E2E_TMP/out" &&
    grep -q -x '  table 5    NO DEVICE: enter its result with `tourney live result enter`' "$E2E_TMP/out" ||
    fail "round publish summary: $(cat "$E2E_TMP/out")"
ok "round publish prints a summary: $(sed -n 2p "$E2E_TMP/out")"
live 0 round show ev
head -n 1 "$E2E_TMP/out" | grep -q -x 'round 1 (swiss), published' ||
    fail "round show of the published round: $(cat "$E2E_TMP/out")"
grep -E -q '^  table [0-9]+ +p[1-4] [^ ].* - p[1-4] [^ ]' "$E2E_TMP/out" ||
    fail "round show does not name the players: $(cat "$E2E_TMP/out")"
ok "round show without a draft shows the published round, players named"
live 0 export ev
tr -d ' \n\t' <"$E2E_TMP/out" | grep -o -E '"table":[0-9]+,"players":\["[^"]*","[^"]*"\]' |
    sed -E 's/"table":([0-9]+),"players":\["([^"]*)","([^"]*)"\]/\1 \2 \3/' >"$E2E_TMP/tables"
while read -r t a b; do
    live 0 result enter ev 1 "$t" "{\"winner\": \"$a\", \"hq_diff\": 3}"
done <"$E2E_TMP/tables"
live 0 round close ev
live 0 player dq ev p2 --reason 'unsporting conduct'
live 0 standings ev
grep -E -q '^ +[0-9]+  p2 .*Jiří Šebesta \(disqualified\)$' "$E2E_TMP/out" ||
    fail "standings do not mark the DQ: $(cat "$E2E_TMP/out")"
live 0 players list ev
grep -q -x '  p2  Jiří Šebesta  club=Brno  country=CZ  rating=1490  DISQUALIFIED after round 1' "$E2E_TMP/out" ||
    fail "players list does not mark the DQ: $(cat "$E2E_TMP/out")"
ok "a disqualified player is marked in standings and players list"
live 0 round pair ev
live 0 round show ev --round 1
head -n 1 "$E2E_TMP/out" | grep -q -x 'round 1 (swiss), closed' ||
    fail "round show --round 1 (closed): $(cat "$E2E_TMP/out")"
live 0 round show ev
head -n 1 "$E2E_TMP/out" | grep -q -x 'round 2 (swiss), draft' ||
    fail "round show (the draft of round 2): $(cat "$E2E_TMP/out")"
ok "round show --round 1 shows the closed round; without --round the draft of round 2"

# Times in local time, not epoch milliseconds (--json keeps them).
live 0 --json event list
ms=$(grep -o '"created_ms": *[0-9]*' "$E2E_TMP/out" | grep -o '[0-9]*$')
[ -n "$ms" ] || fail "event list --json: no created_ms: $(cat "$E2E_TMP/out")"
TZ=UTC live 0 event list
utc=$(sed -n 's/.*  created=\([0-9-]* [0-9:]*\).*/\1/p' "$E2E_TMP/out")
grep -q 'created_ms' "$E2E_TMP/out" && fail "event list shows epoch ms: $(cat "$E2E_TMP/out")"
[ "$(TZ=UTC date -d "$utc" +%s)" = "$((ms / 1000))" ] ||
    fail "event list created=$utc (UTC) is not $ms ms"
if [ -e /usr/share/zoneinfo/Asia/Tokyo ]; then
    TZ=Asia/Tokyo live 0 event list
    tokyo=$(sed -n 's/.*  created=\([0-9-]* [0-9:]*\).*/\1/p' "$E2E_TMP/out")
    [ "$(TZ=Asia/Tokyo date -d "$tokyo" +%s)" = "$((ms / 1000))" ] && [ "$tokyo" != "$utc" ] ||
        fail "event list in Tokyo: created=$tokyo (UTC $utc, $ms ms)"
fi
ok "event list: created=$utc in UTC${tokyo:+, $tokyo in Tokyo} (local time; --json keeps $ms ms)"
e2e_done
