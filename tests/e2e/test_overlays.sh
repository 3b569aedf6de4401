#!/usr/bin/env bash
# test_overlays.sh - the stream overlays (deploy/overlays) against the
# real feed: mosquitto (venue broker + the public WebSocket feed broker,
# bridged), tourney-hub with its feed on, three simulated tables and the
# organiser's `tourney live` commands playing a Neuroshima Hex! event (8
# players, 2 Swiss rounds, cut to 4: semi-finals and final).  Player 3's
# name and every club are hostile HTML.  tests/e2e/overlay_check.js
# connects with the real `mqtt` package over WebSocket as an anonymous
# client, takes the retained feed, renders every page with overlay.js and
# checks:
# - selftest: overlay.js alone (escaping, clock, options, pages);
# - round 2 mid-round: tables 1-3 finished by their devices, table 4
#   (no device) playing with a running clock: pairings.html has every
#   table of `tourney live round show` with the registered names in seat
#   order and the table states; standings.html the order, ranks and
#   points of `tourney live standings --json` (the feed document equals
#   it); table.html each table's players and a countdown no further from
#   the truth than the feed's age; ticker.html the finished tables; the
#   hostile name escaped everywhere.  Then the organiser extends table 4
#   by a minute: the live (not retained) update resets the clock offset
#   and table.html counts down within 1.5 s of the true remaining time;
#   the `now` heartbeat comes (not retained, the hub's clock); every
#   confirmed table's feed result equals the exported event file's, with
#   its confirmed_ms, none for the others, and the ticker shows the
#   results latest confirmed first; the event says Swiss round 2 of 2
#   and the pairings page shows it; no "country" key (none registered);
# - after the final: the bracket marks the knockout winners of the
#   exported event file, standings equal the hub's.
#
# Skips (exit 77, ctest SKIP_RETURN_CODE) without node, or when
# deploy/overlays/install.sh has not been run (no node_modules/mqtt or
# vendor/mqtt.min.js): deploy/test.sh runs it, so CI does not skip.
#
# usage: bash test_overlays.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
OVL=$E2E_SRC/deploy/overlays
CHECK=$E2E_SRC/tests/e2e/overlay_check.js
command -v node >/dev/null || skip "no node (Debian packages nodejs npm; deploy/install-deps.sh)"
[ -f "$OVL/node_modules/mqtt/package.json" ] || skip "no $OVL/node_modules/mqtt: run deploy/overlays/install.sh"
[ -s "$OVL/vendor/mqtt.min.js" ] || fail "deploy/overlays/install.sh did not finish: no vendor/mqtt.min.js"

node "$CHECK" selftest --overlays "$OVL" >"$E2E_TMP/self.out" 2>&1 ||
    fail "overlay.js selftest: $(cat "$E2E_TMP/self.out")"
cat "$E2E_TMP/self.out"

source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
N_DEV=3
EV=ovl

start_broker --tables $N_DEV --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50'
hub_launch
live 0 wait-hub --timeout 20
source "$(dirname -- "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "20-150" 4000
ok "feed broker (WebSocket $BROKER_WS_PORT), hub with its feed, $N_DEV simulated tables"

live 0 event create "$EV" --format neuroshima-hex --title 'Overlay <Open> & "Friends"' \
    --seed 11 --options '{"swiss_rounds": 2, "cut": 4}'
HOSTILE=p3
: >"$E2E_TMP/names.tsv"
for i in 1 2 3 4 5 6 7 8; do
    name="Player $i"
    [ "p$i" != "$HOSTILE" ] || name='<script>alert("x")</script> & O'\''Brien'
    live 0 player add "$EV" "p$i" "$name" --club "Club <$i> & \"co\"" \
        --army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas
    # NH-11: the knockout armies (3 for the top 4), declared before it.
    live 0 player declare "$EV" "p$i" --army Borgo --army Hegemony --army Moloch
    printf 'p%s\t%s\n' "$i" "$name" >>"$E2E_TMP/names.tsv"
done
for ((i = 1; i <= N_DEV; i++)); do
    live 0 device assign "$(printf 'table-%03d' "$i")" "$EV" "$i"
done
ok "event $EV: 8 players (one named $(sed -n "3p" "$E2E_TMP/names.tsv" | cut -f 2)), devices on tables 1-$N_DEV"

# play_round ROUND: pair (stage next when the stage is over), show the
# draft, publish, start the clock; waits until the hub acknowledged the
# devices' results.  Leaves
# the draft as `round show` printed it in $E2E_TMP/pairs.ROUND and the table numbers in $E2E_TMP/tables.
play_round() {
    local r=$1 t
    timeout 90 "$TOURNEY" live round pair "$EV" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    case $? in
    0) ;;
    3) live 0 stage next "$EV" --confirm
       live 0 round pair "$EV" ;;
    *) fail "round pair: $(cat "$E2E_TMP/err")" ;;
    esac
    live 0 round show "$EV"
    cp "$E2E_TMP/out" "$E2E_TMP/pairs.$r"
    live 0 round publish "$EV"
    grep -q "^round $r " "$E2E_TMP/pairs.$r" || fail "round show: $(cat "$E2E_TMP/pairs.$r")"
    awk '/^  table / { print $2 }' "$E2E_TMP/pairs.$r" >"$E2E_TMP/tables"
    live 0 clock start "$EV"
    while read -r t; do
        [ "$t" -le $N_DEV ] || continue
        wait_until 30 table_acked "$(printf 'table-%03d' "$t")" "$r" "$t" ||
            fail "round $r table $t: not finished: $(tail -n 8 "$E2E_TMP/$(printf 'table-%03d' "$t").out" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
}

# enter_rest ROUND: the organiser enters the result of each table without
# a device: the first seat wins by 5.
enter_rest() {
    local t p1
    while read -r t; do
        [ "$t" -gt $N_DEV ] || continue
        p1=$(awk -v t="$t" '$1 == "table" && $2 == t { print $3 }' "$E2E_TMP/pairs.$1")
        live 0 result enter "$EV" "$1" "$t" "{\"winner\": \"$p1\", \"hq_diff\": 5}"
    done <"$E2E_TMP/tables"
}

# standings_now PHASE: the hub's standings (`live standings --json`) in
# $E2E_TMP/standings.PHASE.json.
standings_now() {
    live 0 standings "$EV" --json
    cp "$E2E_TMP/out" "$E2E_TMP/standings.$1.json"
}

# check PHASE ARGS...: overlay_check.js feed against standings_now's file;
# its output in $E2E_TMP/check.PHASE.out.
check() {
    local phase=$1
    shift
    node "$CHECK" feed --overlays "$OVL" --broker "ws://$BROKER_HOST:$BROKER_WS_PORT" \
        --event "$EV" --names "$E2E_TMP/names.tsv" --standings "$E2E_TMP/standings.$phase.json" \
        --hostile "$HOSTILE" --timeout 30 "$@" >"$E2E_TMP/check.$phase.out" 2>&1
}

play_round 1
enter_rest 1
live 0 round close "$EV"
ok "round 1 played (tables 1-3 by their devices, table 4 by the organiser)"

play_round 2
[ "$(wc -l <"$E2E_TMP/tables")" -eq 4 ] || fail "round 2: not 4 tables: $(cat "$E2E_TMP/pairs.2")"
# The feed's age is part of what the clock check allows: let it age.
sleep 2
standings_now mid
live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.mid.json"
check mid --pairs "$E2E_TMP/pairs.2" --finished "1 2 3" --playing "4" --featured 4 --extend-ms 60000 \
    --results "$E2E_TMP/export.mid.json" --swiss-rounds 2 &
CHECK_PID=$!
e2e_track "$CHECK_PID"
wait_until 40 grep -q -x READY "$E2E_TMP/check.mid.out" ||
    { wait "$CHECK_PID"; fail "overlay check (round 2): $(cat "$E2E_TMP/check.mid.out")"; }
live 0 clock extend "$EV" 1m --table 4
wait "$CHECK_PID" || fail "overlay check (round 2): $(cat "$E2E_TMP/check.mid.out")"
grep -v -x READY "$E2E_TMP/check.mid.out"
enter_rest 2
live 0 round close "$EV"
ok "round 2 checked mid-round through the WebSocket feed, then closed"

play_round 3
live 0 round close "$EV"
play_round 4
live 0 round close "$EV"
grep -q '(elimination)' "$E2E_TMP/pairs.4" || fail "round 4 is not a knockout round: $(cat "$E2E_TMP/pairs.4")"
live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.json"
finals=$(tr '\n' ' ' <"$E2E_TMP/tables")
standings_now final
check final --pairs "$E2E_TMP/pairs.4" --finished "$finals" --export "$E2E_TMP/export.json" \
    --results "$E2E_TMP/export.json" ||
    fail "overlay check (after the final): $(cat "$E2E_TMP/check.final.out")"
cat "$E2E_TMP/check.final.out"
ok "knockout played; the overlays show the final, the bracket and the final standings"
e2e_done
