#!/usr/bin/env bash
# test_play_organiser.sh - issue 20 item 4 ("the organiser entered ..."),
# found by a newcomer trial: after the organiser enters a table's result
# from the console, the table's phones show what was entered, and a phone
# whose own report differs is told it was overridden.  A venue broker with
# the table-page listener, the real hub, no table device:
# - a Neuroshima Hex event of 2 players, round 1 published, the table's
#   code (`code issue`);
# - tests/e2e/play_organiser.js in Debian's chromium: two phones signed in
#   with the table's code, phone A through a proxy that cuts its Wi-Fi;
#   A enters "seat 1 won" offline and both players confirm on it, phone B
#   enters "seat 2 won" and its players confirm (stored: counted); A's
#   Wi-Fi back, the hub answers A's report CONFLICT (CM-6) and A says the
#   organiser decides; the organiser enters B's result from the console
#   (`result enter --override`): both phones show the values entered
#   (the lines the page words a result in, with the players' names), A
#   says its report was overridden and what it reported, B does not;
# - afterwards: the table's counted result is the organiser's.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# result (deploy/test.sh installs all three).
#
# usage: bash test_play_organiser.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup

EV=og
live 0 event create $EV --format neuroshima-hex --title 'Neuroshima — Poznań' --seed 2 \
    --options '{"swiss_rounds": 2, "cut": 0}'
ARMIES=(--army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas)
live 0 player add $EV p1 "Zbigniew Brzęczyszczykiewicz" "${ARMIES[@]}"
live 0 player add $EV p2 "Łucja Wąs" "${ARMIES[@]}"
live 0 round pair $EV
live 0 round publish $EV
live 0 --json round show $EV
SEATS=$(jq -c '[.tables[] | select(.table == 1) | .players[]]' "$E2E_TMP/out")
[ "$(jq length <<<"$SEATS")" = 2 ] || fail "round show: no table 1 of two: $(cat "$E2E_TMP/out")"
live 0 --json code issue $EV 1
CODE=$(jq -r .query "$E2E_TMP/out")
DEV=$(jq -r .device "$E2E_TMP/out")
ok "a Neuroshima Hex event of 2 players, round 1 published, table 1's code ($DEV)"

SHOTS=$E2E_TMP/shots
mkdir -p "$SHOTS"
node "$E2E_SRC/tests/e2e/play_organiser.js" --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" \
    --code "$CODE" --event $EV --seats "$SEATS" --tourney "$TOURNEY" --shots "$SHOTS" \
    >"$E2E_TMP/play.out" 2>&1 || fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"

# The hub: phone B's report counted first, phone A's in conflict, then
# the organiser's entry counted.
live 0 --json result show $EV 1 --table 1
jq -e --arg dev "device:$DEV" '([.results[] | select(.by == $dev)] | length) == 2 and
       ([.results[] | select(.status == "counted")] | length) == 1 and
       (.results[] | select(.status == "counted") | .by | startswith("organiser:")) and
       (.results[] | select(.status == "counted") | .result.winner) == ($seats | fromjson)[1]' \
    --arg seats "$SEATS" "$E2E_TMP/out" >/dev/null ||
    fail "table 1's results: $(cat "$E2E_TMP/out")"
grep -q "result conflict device=$DEV " "$E2E_TMP/hub.log" || fail "the hub logged no conflict for $DEV"
ok "table 1: both phones' reports recorded (one in conflict), the organiser's entry counted"
ok "screenshots in $SHOTS"
e2e_done
