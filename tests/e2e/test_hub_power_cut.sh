#!/usr/bin/env bash
# test_hub_power_cut.sh - simulated power cuts under real tables (issue
# 23; docs/architecture.md "Durability"): nothing acknowledged is lost,
# nothing counts twice, the database passes integrity_check at every cut.
#
# The hub runs with tests/e2e/power_cut.c preloaded: every write to a file
# in its database's directory is journalled with the bytes it replaces;
# an fsync marks that file's writes durable.  A cut is SIGKILL, then
# power_cut_undo rolls every write not yet fsynced back, newest first (a
# disk that lost its cache: the worst case), and the -shm file goes (a
# reboot; SQLite rebuilds it).  Then integrity_check, and the hub starts
# again on what is left.
#
# 1. The cuts (database_sync = true, as deployed): a Catan event (24
#    players, 3 rounds, 6 simulated tourney-table devices); in every round
#    two cuts at seeded random moments while the tables submit, one more
#    at the end.  Checked: integrity_check "ok" after every cut; every
#    submission a table saw acknowledged is stored exactly once (one
#    submissions row for its device and key) and its table's result is in
#    the export; each table of each round has exactly one result; every
#    submission is acknowledged in the end and the standings are those
#    of the export (check_event_complete).
# 2. The positive control (database_sync = false, no fsync ever): the
#    hub restarted so, a new event on the same tables, one round, a cut
#    after every table's acknowledgement: results the tables saw
#    acknowledged are gone.  So the shim does cut, and 1.
#    holds because of the fsyncs.
#
# Reproducible: $RANDOM seeded with $CUT_SEED (default 20261127) after the
# broker is up; the tables have fixed seeds.
#
# usage: bash test_hub_power_cut.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"
need_binaries POWER_CUT POWER_CUT_UNDO
N_DEV=6
N_PLAYERS=24
N_ROUNDS=3
CUTS_PER_ROUND=2

start_broker --no-ws --tables $N_DEV --organisers o1
RANDOM=${CUT_SEED:-20261127}
source "$E2E_SRC/tests/e2e/live_hub.sh"
source "$E2E_SRC/tests/e2e/sim_tables.sh"
DBDIR=$E2E_TMP/db
mkdir -p "$DBDIR"
live_hub_config 'feed = false' 'checkpoint_interval_s = 1'
DB=$DBDIR/hub.db
sed -i -e "s|^database = .*|database = \"$DB\"|" \
    -e "s|^database_sync = .*|database_sync = true|" "$E2E_TMP/hub.conf"
hub_create
hub_wrap cut LD_PRELOAD="$POWER_CUT" TNY_CUT_DIR="$DBDIR" TNY_CUT_JOURNAL="$E2E_TMP/cut.journal"

# hub_start: a fresh journal, the hub online.
hub_start() {
    rm -f "$E2E_TMP/cut.journal"
    hub_launch
    live 0 wait-hub --timeout 20
}
# cut: SIGKILL, the unsynced writes undone, -shm gone, integrity_check.
CUTS=0
UNDONE=0
undo() {
    "$POWER_CUT_UNDO" "$E2E_TMP/cut.journal" >"$E2E_TMP/undo.out" 2>&1 || fail "power_cut_undo: $(cat "$E2E_TMP/undo.out")"
    UNDONE=$((UNDONE + $(sed -n 's/^power_cut_undo: \([0-9]*\) of .*/\1/p' "$E2E_TMP/undo.out")))
    rm -f "$DB-shm"
    CUTS=$((CUTS + 1))
    [ "$(sqlite3 "$DB" 'PRAGMA integrity_check' 2>&1)" = ok ] ||
        fail "cut $CUTS: integrity_check: $(sqlite3 "$DB" 'PRAGMA integrity_check' 2>&1 | head -n 3)"
}
cut() {
    hub_sigkill undo
}
# acked_stored: every acknowledged submission of event $EV is one row.
acked_stored() {
    local i d r t k n
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        while read -r r t k; do
            n=$(sqlite3 "$DB" "SELECT count(*) FROM submissions WHERE device_id = '$d' AND idem_key = '$k'")
            [ "$n" = 1 ] || { echo "$d round $r table $t key $k: $n rows"; return 1; }
        done < <(acked "$d")
    done
}

# --- 1. cuts under real tables ---------------------------------------------------
hub_start
start_sim_tables $N_DEV "50-500" 5100
EV=pc
event_with_devices catan "Power cut" "{\"rounds\": $N_ROUNDS}"
ok "hub (with the power-cut shim) and $N_DEV tables online"
for ((r = 1; r <= N_ROUNDS; r++)); do
    live 0 round pair "$EV"
    grep '^  table ' "$E2E_TMP/out" | awk '{ print $2 }' >"$E2E_TMP/tables.$r"
    live 0 round publish "$EV"
    live 0 clock start "$EV"
    for ((j = 0; j < CUTS_PER_ROUND; j++)); do
        thr=$((j * N_DEV / CUTS_PER_ROUND + RANDOM % 2))
        wait_for 60 "[ \"\$(round_sent $r)\" -ge $thr ]" ||
            fail "round $r: fewer than $thr submissions within 60 s"
        sleep "0.$(printf '%03d' $((RANDOM % 300)))"
        cut
        hub_start
    done
    for ((t = 1; t <= N_DEV; t++)); do
        d=$(printf 'table-%03d' "$t")
        wait_until 60 eval 'acked "$d" | awk -v r="$r" "\$1 == r { f = 1 } END { exit !f }"' ||
            fail "round $r: $d got no ack: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
    done
    why=$(acked_stored) || fail "after round $r: an acknowledged submission is not stored once: $why"
    live 0 round close "$EV"
    ok "round $r closed; $CUTS cuts so far, $UNDONE unsynced writes undone"
done
cut
hub_start
why=$(acked_stored) || fail "after the last cut: $why"
check_event_complete "power cuts"
n_acked=0
for ((i = 1; i <= N_DEV; i++)); do
    n_acked=$((n_acked + $(acked "$(printf 'table-%03d' "$i")" | wc -l)))
done
[ "$UNDONE" -gt 0 ] || fail "no write was ever undone: the cuts cut nothing"
ok "$CUTS power cuts ($UNDONE unsynced writes undone): $n_acked acknowledged submissions, 0 lost, 0 doubled, integrity ok at every cut"

# --- 2. the positive control: database_sync = false ---------------------------
# (The same database: a new one would hand the tables assignment
# versions below those they hold, which they refuse as stale.)
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
sed -i "s|^database_sync = .*|database_sync = false|" "$E2E_TMP/hub.conf"
hub_start
EV=pcx
event_with_devices catan "Power cut control" '{"rounds": 1}'
live 0 round pair "$EV"
live 0 round publish "$EV"
live 0 clock start "$EV"
for ((t = 1; t <= N_DEV; t++)); do
    d=$(printf 'table-%03d' "$t")
    wait_until 60 eval '[ -n "$(acked "$d")" ]' || fail "control: $d got no ack"
done
cut
lost=0
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    while read -r r t k; do
        n=$(sqlite3 "$DB" "SELECT count(*) FROM submissions WHERE device_id = '$d' AND idem_key = '$k'" 2>/dev/null || echo 0)
        [ "$n" = 1 ] || lost=$((lost + 1))
    done < <(acked "$d")
done
[ "$lost" -gt 0 ] || fail "control: without fsync a power cut lost no acknowledged result (the shim does not cut)"
ok "control (database_sync = false): one cut lost $lost of $N_DEV acknowledged results"
e2e_done
