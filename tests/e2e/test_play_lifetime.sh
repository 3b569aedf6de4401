#!/usr/bin/env bash
# test_play_lifetime.sh - issue 20, a sign-in code's lifetime: a table code
# printed on a table tent days before the event works on the day and
# expires with its event (when it finishes), not before.  A venue broker
# with the table-page listener, the real hub, a Neuroshima Hex event of
# two Swiss rounds:
# - table codes 1 and 2 issued before any player is registered (the
#   tents); then "the days between": the hub stopped, the venue broker
#   restarted, the hub started again;
# - the players registered; tests/e2e/play_lifetime.js in Debian's
#   chromium: table 1's page signs in before round 1; rounds 1 and 2
#   shown on the tables' pages (an open page follows, a new sign-in
#   works); the event finished: the codes listed expired, the pages say
#   the code has expired with the event.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# result.
#
# usage: bash test_play_lifetime.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup

# The tents: two table codes, no player yet.
EV=tents
live 0 event create $EV --format neuroshima-hex --title 'Tents' --seed 3 --options '{"swiss_rounds": 2, "cut": 0}'
for t in 1 2; do
    live 0 --json code issue $EV $t
    jq -c --argjson t $t '{table: $t, code: .query}' "$E2E_TMP/out"
done | jq -s . >"$E2E_TMP/codes.json"
live 0 --json code list $EV
jq -e 'length == 2 and all(.[]; .state == "valid")' "$E2E_TMP/out" >/dev/null || fail "code list: $(cat "$E2E_TMP/out")"
ok "table codes 1 and 2 issued before any player (the table tents): valid"

# The days between: the hub stopped, the broker restarted, the hub again.
n_sync=$(grep -c 'codes: table-page listener connected' "$E2E_TMP/hub.log")
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
restart_broker
hub_launch
live 0 wait-hub --timeout 20
wait_for 20 "[ \$(grep -c 'codes: table-page listener connected' '$E2E_TMP/hub.log') -gt $n_sync ]" ||
    fail "the restarted hub did not reach the table-page listener: $(grep codes: "$E2E_TMP/hub.log" | tail -n 3)"
for i in 1 2 3 4; do
    live 0 player add $EV "x$i" "Player $i" --army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas
done
ok "the day: hub and broker restarted, 4 players registered"

node "$E2E_SRC/tests/e2e/play_lifetime.js" --overlays "$OVL" --base "http://$BROKER_HOST:$TWS" --chromium "$CHROMIUM" \
    --tourney "$TOURNEY" --event $EV --codes "$E2E_TMP/codes.json" >"$E2E_TMP/play.out" 2>&1 ||
    fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"
live 0 --json event list
jq -e '.[] | select(.id == "tents") | .status == "finished"' "$E2E_TMP/out" >/dev/null ||
    fail "the event is not finished: $(cat "$E2E_TMP/out")"
ok "the codes worked from before round 1 to the event's end, then expired with it"
e2e_done
