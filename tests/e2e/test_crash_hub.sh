#!/usr/bin/env bash
# test_crash_hub.sh - the hub killed with SIGKILL while results flow.
#
# A Catan event (16 players, 3 rounds, 4 tables) played by four
# tourney-table devices in --simulate mode through the real tourney-hub
# and mosquitto, driven by `tourney live`.  In every round, while the
# tables submit, the hub is killed with SIGKILL three times at seeded
# random moments (after a random number of the round's submissions went
# out, plus a random few ms) and restarted on the same database.
#
# Checked, as the protocol promises (docs/protocol.md, "Idempotency and
# acknowledgement", rule 5: nothing acknowledged is ever lost):
# - every submission a table saw acknowledged (`ack accepted|duplicate
#   key=K` after `result pending key=K`) belongs to a table whose result is
#   in the exported event file;
# - no result counts twice: in the export every round has each table
#   number exactly once, each with a result, and every player once;
# - every submission gets its ack eventually, every round closes and the
#   event completes (the hub refuses to pair past it);
# - the hub's final standings (`tourney live standings --json`) equal
#   `tourney standings` on the export, byte for byte.
# Simulated results are random, so the standings are not compared with a
# run without kills: the checks are internal consistency.
#
# Reproducible: $RANDOM is seeded with $CRASH_SEED (default 20261122)
# after the broker is up; the tables have fixed seeds.  Timing (the
# scheduler) still varies between runs.  The only sleeps are the random
# kill moments themselves; every wait is bounded (wait_for/wait_until).
#
# usage: bash test_crash_hub.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-400}
e2e_init "$@"

need_binaries TOURNEY HUB TABLE
N_DEV=4
N_PLAYERS=16
N_ROUNDS=3
KILLS_PER_ROUND=3
EV=ct

start_broker --no-ws --tables $N_DEV --organisers o1
RANDOM=${CRASH_SEED:-20261122}
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config


# hub_start: the hub on the same database; returns when hub/state says
# "online" (retained, so this sees the new process's, not a stale one:
# the old connection's last will came first, see hub_kill).
hub_start() {
    hub_launch
    live 0 wait-hub --timeout 20
}
# hub_kill: SIGKILL, reaped, the last will out (live_hub.sh).
hub_kill() {
    hub_sigkill
}

hub_start

source "$(dirname "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "100-1200" 2000
ok "hub and $N_DEV simulated tables online"

# kill_during ROUND N_TABLES: the round's kills.  Kill j waits until the
# tables sent a random number of submissions (never all of them, so some
# are still to come), then a random 0-149 ms, then SIGKILL and restart.
kill_during() {
    local r=$1 nt=$2 j thr
    for ((j = 0; j < KILLS_PER_ROUND; j++)); do
        thr=$((j * nt / KILLS_PER_ROUND + RANDOM % 2))
        [ "$thr" -lt "$nt" ] || thr=$((nt - 1))
        wait_for 60 "[ \"\$(round_sent $r)\" -ge $thr ]" ||
            fail "round $r: fewer than $thr submissions within 60 s"
        sleep "0.$(printf '%03d' $((RANDOM % 150)))"
        hub_kill
        KILLS=$((KILLS + 1))
        hub_start
    done
}


event_with_devices catan "Crash Catan" "{\"rounds\": $N_ROUNDS}"

KILLS=0
round=0
complete=0
for ((r = 1; r <= 10; r++)); do
    sim_pair_round "$r" || { complete=1; break; }
    round=$r
    nt=$(wc -l <"$E2E_TMP/tables")
    live 0 round publish "$EV"
    live 0 clock start "$EV"
    kill_during "$r" "$nt"
    sim_wait_acks "$r"
    # A kill between the commit and the log line may hide one, so at most
    # one (the export check below is the exact one).
    while read -r t; do
        [ "$(hub_accepted "$r" "$t")" -le 1 ] ||
            fail "round $r table $t: the hub stored $(hub_accepted "$r" "$t") results: $(grep "round=$r table=$t" "$E2E_TMP/hub.log" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
    live 0 round close "$EV"
    ok "round $r closed after $KILLS kills so far"
done
sim_rounds_played "$round" "$complete" "$N_ROUNDS"
[ "$KILLS" -eq $((N_ROUNDS * KILLS_PER_ROUND)) ] || fail "$KILLS kills"

# One more kill with everything settled: the final state is the database's.
hub_kill
hub_start

check_event_complete "hub restarts"

ok "$KILLS SIGKILLs ($HUB_STARTS hub starts); $N_ROUNDS rounds complete"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
