#!/usr/bin/env bash
# test_event_full.sh - whole events of all five formats played by the real
# programs: mosquitto (venue config), tourney-hub on a temp database, four
# tourney-table devices in --simulate mode, and the organiser's `tourney
# live` subcommands driving each event: create -> import players -> assign
# the devices to tables 1..4 -> for every round: pair, publish, start the
# clock, let the tables play (each simulated table enters a random valid
# result, every player confirms, the hub acks it), close; "stage next"
# when the hub refuses to pair the next stage; until the event is complete.
# Then the hub's standings must equal, byte for byte, `tourney standings`
# on the event file the hub exports.
#
# The tables' results are the only results: no organiser entry.  A round
# is over when the device at each paired table shows "state done" after
# its assignment for that round.
#
# usage: bash test_event_full.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-400}
e2e_init "$@"

need_binaries TOURNEY HUB TABLE
N_DEV=4

start_broker --no-ws --tables $N_DEV --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config

hub_launch
live 0 wait-hub --timeout 20

source "$(dirname -- "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "20-150" 1000
ok "hub and $N_DEV simulated tables online"

# play EVENT FORMAT OPTIONS N_PLAYERS: the whole event.
play() {
    local ev=$1 format=$2 options=$3 n=$4 round=0 r t d players
    live 0 event create "$ev" --format "$format" --title "Full $format" \
        --seed 77 --options "$options"
    {
        echo 'id,name'
        for ((i = 1; i <= n; i++)); do echo "$ev-p$i,Player $i"; done
    } >"$E2E_TMP/$ev.csv"
    live 0 players import "$ev" "$E2E_TMP/$ev.csv"
    for ((i = 1; i <= N_DEV; i++)); do
        live 0 device assign "$(printf 'table-%03d' "$i")" "$ev" "$i"
    done
    for ((r = 1; r <= 30; r++)); do
        timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err"
        st=$?
        if [ $st -eq 3 ]; then
            # The stage may be over: the next one, or the end.
            timeout 90 "$TOURNEY" live stage next "$ev" --confirm >"$E2E_TMP/out" 2>"$E2E_TMP/err" || break
            timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err" || break
        elif [ $st -ne 0 ]; then
            fail "$ev: round pair: exit $st: $(cat "$E2E_TMP/err")"
        fi
        round=$r
        grep '^  table ' "$E2E_TMP/pair.out" | awk '{ print $2 }' >"$E2E_TMP/tables"
        [ -s "$E2E_TMP/tables" ] || fail "$ev round $r: no tables: $(cat "$E2E_TMP/pair.out")"
        [ "$(sort -n "$E2E_TMP/tables" | tail -n 1)" -le $N_DEV ] ||
            fail "$ev round $r: more tables than devices: $(cat "$E2E_TMP/pair.out")"
        live 0 round publish "$ev"
        live 0 clock start "$ev"
        while read -r t; do
            d=$(printf 'table-%03d' "$t")
            wait_until 30 table_done "$d" "$ev" "$r" "$t" ||
                fail "$ev round $r table $t: $d did not finish: $(tail -n 12 "$E2E_TMP/$d.out" | tr '\n' '|') hub: $(tail -n 5 "$E2E_TMP/hub.log" | tr '\n' '|')"
        done <"$E2E_TMP/tables"
        live 0 round close "$ev"
    done
    [ "$round" -ge 2 ] || fail "$ev: only $round rounds played; last refusal: $(cat "$E2E_TMP/err")"
    live 0 export "$ev"
    cp "$E2E_TMP/out" "$E2E_TMP/$ev-export.json"
    live 0 standings "$ev" --json
    cp "$E2E_TMP/out" "$E2E_TMP/$ev-hub.json"
    "$TOURNEY" standings "$E2E_TMP/$ev-export.json" >"$E2E_TMP/$ev-offline.json" 2>"$E2E_TMP/err" ||
        fail "$ev: offline standings of the export: $(cat "$E2E_TMP/err")"
    cmp -s "$E2E_TMP/$ev-offline.json" "$E2E_TMP/$ev-hub.json" ||
        fail "$ev: standings differ: hub $(head -c 300 "$E2E_TMP/$ev-hub.json") offline $(head -c 300 "$E2E_TMP/$ev-offline.json")"
    grep -q "\"after_round\": $round" "$E2E_TMP/$ev-hub.json" ||
        fail "$ev: standings not after round $round: $(head -c 200 "$E2E_TMP/$ev-hub.json")"
    ok "$format: $round rounds played by the tables; hub standings == tourney standings of the export"
}

play nh neuroshima-hex '{"swiss_rounds": 2, "cut": 4}' 8
play tx tantrix '{"swiss_rounds": 3}' 8
play ag agricola '{}' 8
play gt got-lcg2 '{"structure": "custom", "swiss_rounds": 2, "cut": 4}' 8
play ct catan '{"rounds": 2}' 8

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
