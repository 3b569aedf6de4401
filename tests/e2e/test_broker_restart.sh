#!/usr/bin/env bash
# test_broker_restart.sh - the venue broker goes away in the middle of a
# round and comes back.
#
# A Catan event (16 players, 2 rounds, 4 tables) played by four
# tourney-table devices in --simulate mode through the real tourney-hub
# and mosquitto, driven by `tourney live`.  In round 1, once every table
# plays, the venue broker is stopped; the tables enter their results
# meanwhile and keep them in their outboxes (`net offline queued=1`).  The
# broker comes back on the same port (restart_broker, no persistence: the
# retained messages are gone); the tables and the hub reconnect by
# themselves, the hub republishes its retained state, the queued results
# go out and every one is acknowledged and stored exactly once.  The
# round closes and round 2 is played normally until the event completes.
#
# Checked: each table queued its result while offline; after the restart
# each queued key is acknowledged (accepted), the hub logs exactly one
# "result accepted" per table and round, the export has exactly one
# result per table and round and every player once per round, the event
# completes, and `tourney live standings --json` equals `tourney
# standings` on the export.  Every wait is bounded; there are no sleeps.
#
# usage: bash test_broker_restart.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-400}
e2e_init "$@"

need_binaries TOURNEY HUB TABLE
N_DEV=4
N_PLAYERS=16
N_ROUNDS=2
EV=ct

start_broker --no-ws --tables $N_DEV --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config


hub_launch
live 0 wait-hub --timeout 20

source "$(dirname "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "2500-4000" 3000
ok "hub and $N_DEV simulated tables online"

# table_playing DEVICE ROUND: the device plays its table of that round.
table_playing() {
    awk -v want="assigned event=$EV round=$2 " '
        index($0, want) == 1 { seen = 1; next }
        /^assigned / { seen = 0; next }
        seen && $0 == "state playing" { p = 1 }
        END { exit !p }' "$E2E_TMP/$1.out"
}
# queued_since DEVICE LINE: after line LINE of its output, the device
# submitted a result and showed it queued while offline.
queued_since() {
    tail -n +"$(($2 + 1))" "$E2E_TMP/$1.out" | awk '
        /^result pending key=/ { p = 1 }
        /^net offline queued=[1-9]/ { q = 1 }
        END { exit !(p && q) }'
}

# broker_outage ROUND: every table is held (SIGSTOP) as soon as it plays,
# the venue broker stops, the tables go on (SIGCONT); the broker comes back
# when every table has queued its result.  (Held, not raced: on a loaded
# machine a table's simulated game could end before the last one was
# seen playing and the broker was down.)
broker_outage() {
    local r=$1 i d
    local -a mark=()
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        wait_until 30 table_playing "$d" "$r" ||
            fail "round $r: $d does not play: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
        kill -STOP "$(cat "$E2E_TMP/$d.pid")" || fail "round $r: $d is gone"
    done
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        [ -z "$(subs "$d" | awk -v r="$r" '$1 == "P" && $2 == r')" ] ||
            fail "round $r: $d submitted before it was held (simulate delays too short for this machine?)"
        mark[i]=$(wc -l <"$E2E_TMP/$d.out")
    done
    stop_broker
    for ((i = 1; i <= N_DEV; i++)); do
        kill -CONT "$(cat "$E2E_TMP/$(printf 'table-%03d' "$i").pid")"
    done
    ok "round $r: broker stopped while all $N_DEV tables play"
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        wait_until 30 queued_since "$d" "${mark[i]}" ||
            fail "round $r: $d did not queue a result while offline: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
    done
    kill -0 "$HUB_PID" 2>/dev/null || fail "the hub died without its broker: $(tail -n 20 "$E2E_TMP/hub.log")"
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        [ -z "$(acked "$d" | awk -v r="$r" '$1 == r')" ] || fail "round $r: $d got an ack without a broker"
    done
    ok "round $r: every table queued its result offline (net offline queued=N)"
    restart_broker
    live 0 wait-hub --timeout 60
    ok "round $r: broker back, hub online again"
}


event_with_devices catan "Broker restart Catan" "{\"rounds\": $N_ROUNDS}"

round=0
complete=0
for ((r = 1; r <= 10; r++)); do
    sim_pair_round "$r" || { complete=1; break; }
    round=$r
    live 0 round publish "$EV"
    [ "$r" -ne 1 ] || broker_outage "$r"
    live 0 clock start "$EV"
    sim_wait_acks "$r"
    while read -r t; do
        [ "$(hub_accepted "$r" "$t")" -eq 1 ] ||
            fail "round $r table $t: the hub stored $(hub_accepted "$r" "$t") results: $(grep "round=$r table=$t" "$E2E_TMP/hub.log" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
    live 0 round close "$EV"
    ok "round $r closed, each table's result stored once"
done
sim_rounds_played "$round" "$complete" "$N_ROUNDS"

check_event_complete "the broker restart"

ok "$N_ROUNDS rounds complete"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
