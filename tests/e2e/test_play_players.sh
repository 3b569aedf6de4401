#!/usr/bin/env bash
# test_play_players.sh - issue 20 items 2, 3 and 5: the players' own
# sign-in codes.  A venue broker with the table-page listener (mosquitto's
# dynamic security plugin), the real hub provisioning the codes through it,
# no table device at all, and an A Game of Thrones event of 8 players:
# - `code player` refuses a player not in the event, then issues one code
#   per player (8); `player drop-no-shows` is refused while nobody has
#   checked in;
# - tests/e2e/play_players.js in Debian's chromium, one browser context per
#   phone: a wrong code said so; p1..p6 check in from their phones, p7
#   signs in and does not; `player checkins` lists p7 and p8,
#   `player drop-no-shows` withdraws them (p7's page: the code no longer
#   works); round 1: at each table both players confirm on their own
#   phones (one submission, stored); after the round a player asks to
#   drop, `player drop-requests` lists and `--confirm` drops them (their
#   page says so); round 2: a player who changed table sees the new one,
#   and the broker refuses their code on the old table's device; a one-
#   round event played out: its player's code says it has expired;
# - afterwards: each table of round 1 holds exactly one counted result
#   from its page device (seat 1 the winner); p7 and p8 are not in the
#   event; the leaver dropped after round 1; the broker's logins: the
#   dropped players' codes hold only their status role; the hub's log has
#   the check-ins and the drop request (player:ID).
# Screenshots in the test's directory.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# result (deploy/test.sh installs all three).
#
# usage: bash test_play_players.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup

EV=pc
live 0 event create $EV --format got-lcg2 --title 'Thrones — Kraków' --seed 11
NAMES=("Zbigniew Brzęczyszczykiewicz" "Jan Šebesta" "Zoë Ångström" "Ōta Hiroshi" "Ñúñez Ruiz" "李小龍" "Bo Kim" "Max Roth")
FACTIONS=(Stark Lannister Baratheon Greyjoy Martell Targaryen Tyrell "Night's Watch")
for i in 1 2 3 4 5 6 7 8; do
    live 0 player add $EV "p$i" "${NAMES[$((i - 1))]}" --faction "${FACTIONS[$((i - 1))]}"
done
live 3 code player $EV nobody
grep -q 'no player "nobody"' "$E2E_TMP/err" || fail "code player for nobody: $(cat "$E2E_TMP/err")"
live 0 --json code player $EV
cp "$E2E_TMP/out" "$E2E_TMP/players.json"
jq -e 'length == 8 and ([.[].player] == ["p1","p2","p3","p4","p5","p6","p7","p8"]) and
       all(.[]; .query | test("^[2-9A-HJKMNP-Z]{8}$")) and all(.[]; .login | test("^ply-[0-9]+$"))' \
    "$E2E_TMP/players.json" >/dev/null || fail "code player: $(cat "$E2E_TMP/players.json")"
jq '[.[] | {player, name, code: .query, login}]' "$E2E_TMP/players.json" >"$E2E_TMP/phones.json"
live 0 --json code player $EV
jq -e 'length == 0' "$E2E_TMP/out" >/dev/null || fail "code player again issued more: $(cat "$E2E_TMP/out")"
live 3 player drop-no-shows $EV
grep -q 'nobody has checked in yet' "$E2E_TMP/err" || fail "drop-no-shows before any check-in: $(cat "$E2E_TMP/err")"
ok "code player: 8 codes (a player not in the event refused, none twice); drop-no-shows refused before any check-in"

SHOTS=$E2E_TMP/shots
mkdir -p "$SHOTS"
node "$E2E_SRC/tests/e2e/play_players.js" --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" \
    --players "$E2E_TMP/phones.json" --event $EV --tourney "$TOURNEY" --shots "$SHOTS" \
    >"$E2E_TMP/play.out" 2>&1 || fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"

# Each table of round 1: one counted result, from its page device, seat 1
# the winner; the hub saw one key per table.
n=0
while read -r _ ev t dev key seat1; do
    n=$((n + 1))
    live 0 --json result show $EV 1 --table "$t"
    jq -e --arg by "device:$dev" --arg w "$seat1" '(.results | length) == 1 and .results[0].by == $by and
           .results[0].status == "counted" and .results[0].result.winner == $w' "$E2E_TMP/out" >/dev/null ||
        fail "table $t: expected one counted result from $dev, winner $seat1: $(cat "$E2E_TMP/out")"
    [ "$(grep -c "result accepted device=$dev key=$key " "$E2E_TMP/hub.log")" -eq 1 ] ||
        fail "table $t: not one acceptance of $key: $(grep "device=$dev key" "$E2E_TMP/hub.log")"
done < <(grep '^STORED ' "$E2E_TMP/play.out")
[ "$n" -eq 3 ] || fail "round 1 had $n tables stored, expected 3"
ok "round 1: 3 tables, each one counted result from its page device (both players confirmed on their phones)"

leaver=$(sed -n 's/^DROPPED //p' "$E2E_TMP/play.out")
live 0 export $EV
jq -e --arg l "$leaver" '([.players[].id] | index("p7") == null and index("p8") == null) and
       (.drops == [{player: $l, after_round: 1}])' "$E2E_TMP/out" >/dev/null ||
    fail "export: p7/p8 still in, or $leaver not dropped after round 1: $(jq -c '{players: [.players[].id], drops}' "$E2E_TMP/out")"
DS=$BROKER_DIR/dynsec/dynamic-security.json
login=$(jq -r --arg l "$leaver" '.[] | select(.player == $l) | .login' "$E2E_TMP/phones.json")
code=$(jq -r --arg l "$leaver" '.[] | select(.player == $l) | .code' "$E2E_TMP/phones.json")
jq -e --arg c "$code" --arg r "ended-$login" '[.clients[] | select(.username == $c) | .roles[].rolename] == [$r]' "$DS" >/dev/null ||
    fail "$leaver's login on the broker: $(jq -c --arg c "$code" '.clients[] | select(.username == $c)' "$DS")"
for who in p1 p2 p3 p4 p5 p6; do
    grep -q "player checked in event=$EV player=$who " "$E2E_TMP/hub.log" || fail "the hub did not log $who's check-in"
done
grep -q "player asked to drop event=$EV player=$leaver " "$E2E_TMP/hub.log" || fail "the hub did not log $leaver's drop request"
live 0 --json log $EV
jq -e --arg l "$leaver" '[.[] | select(.kind == "player.drop_request" and .actor == ("player:" + $l))] | length == 1' \
    "$E2E_TMP/out" >/dev/null || fail "the audit log has no drop request by player:$leaver: $(jq -c '[.[] | .kind] | unique' "$E2E_TMP/out")"
ok "p7 and p8 withdrawn, $leaver dropped after round 1 as asked (audited as player:$leaver); their login holds only its status role"
ok "screenshots in $SHOTS"
e2e_done
