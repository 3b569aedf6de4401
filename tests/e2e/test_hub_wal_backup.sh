#!/usr/bin/env bash
# test_hub_wal_backup.sh - acknowledged results do not depend on the WAL
# once checkpointed, and `tourney-hub --backup` copies a running hub's
# database (issue 13; docs/architecture.md "Durability").
#
# Real mosquitto, hub and four simulated tables play a round of a Catan
# event (16 players).  With every result acknowledged:
# - `tourney-hub --backup FILE` while the hub runs: the copy passes
#   integrity_check, is in rollback-journal mode with no -wal beside it,
#   and holds exactly the live database's submissions and results;
#   a second --backup onto the same file is refused (exit 1);
# - `tourney live round close` (the hub checkpoints after a round close,
#   before it replies), then SIGKILL and the WAL and shared-memory files
#   deleted: the restarted hub exports the same event, byte for byte, with
#   every acknowledged result of the round.  (The timer checkpoint is set
#   to an hour here, so this is the round close's checkpoint; without any
#   checkpoint the deleted WAL takes even the event with it: measured.)
#
# usage: bash test_hub_wal_backup.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"
N_DEV=4
N_PLAYERS=16
EV=wal

start_broker --no-ws --tables $N_DEV --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
source "$E2E_SRC/tests/e2e/sim_tables.sh"
# The timer checkpoint far away, so that what is checked below is the
# checkpoint of the round close itself.
live_hub_config 'feed = false' 'checkpoint_interval_s = 3600'
hub_launch
live 0 wait-hub --timeout 20
start_sim_tables $N_DEV "100-600" 3100
event_with_devices catan "WAL" '{"rounds": 2}'
live 0 round pair "$EV"
live 0 round publish "$EV"
live 0 clock start "$EV"
for ((t = 1; t <= N_DEV; t++)); do
    d=$(printf 'table-%03d' "$t")
    wait_until 60 table_acked "$d" 1 "$t" ||
        fail "$d got no ack: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
done
ok "round 1: every table's result acknowledged"

# --- online backup ----------------------------------------------------------
DB=$E2E_TMP/hub.db
BK=$E2E_TMP/backup.db
q_subs="SELECT device_id, idem_key, outcome, round, table_number, reason_code, counted, result_id FROM submissions ORDER BY device_id, idem_key"
q_results="SELECT * FROM results ORDER BY id"
"$HUB" --config "$E2E_TMP/hub.conf" --backup "$BK" >"$E2E_TMP/bk.out" 2>&1 ||
    fail "--backup while the hub runs: $(cat "$E2E_TMP/bk.out")"
grep -q "^tourney-hub: backup of $DB written to $BK ([0-9]* bytes)" "$E2E_TMP/bk.out" ||
    fail "--backup did not say what it wrote: $(cat "$E2E_TMP/bk.out")"
kill -0 "$HUB_PID" || fail "the hub died during the backup"
[ ! -e "$BK-wal" ] || fail "the backup has a -wal file beside it"
[ "$(sqlite3 "$BK" 'PRAGMA journal_mode')" = delete ] || fail "the backup is not in rollback-journal mode"
[ "$(sqlite3 "$BK" 'PRAGMA integrity_check')" = ok ] || fail "the backup fails integrity_check"
sqlite3 "$DB" "$q_subs" >"$E2E_TMP/live.subs" || fail "sqlite3 on the live database"
sqlite3 "$BK" "$q_subs" >"$E2E_TMP/bk.subs" || fail "sqlite3 on the backup"
sqlite3 "$DB" "$q_results" >"$E2E_TMP/live.results"
sqlite3 "$BK" "$q_results" >"$E2E_TMP/bk.results"
[ "$(grep -c '|accepted|' "$E2E_TMP/live.subs")" -ge "$N_DEV" ] ||
    fail "the live database has fewer than $N_DEV accepted submissions"
cmp -s "$E2E_TMP/live.subs" "$E2E_TMP/bk.subs" || fail "the backup's submissions differ from the live ones"
cmp -s "$E2E_TMP/live.results" "$E2E_TMP/bk.results" || fail "the backup's results differ from the live ones"
"$HUB" --config "$E2E_TMP/hub.conf" --backup "$BK" >"$E2E_TMP/bk2.out" 2>&1 &&
    fail "a second --backup overwrote $BK"
grep -q "backup: $BK exists" "$E2E_TMP/bk2.out" || fail "no clear refusal: $(cat "$E2E_TMP/bk2.out")"
ok "online backup == live submissions ($(wc -l <"$E2E_TMP/live.subs")) and results; no overwrite"

# --- checkpoint at round close, then the WAL lost --------------------------
live 0 round close "$EV"
live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/before.json"
[ "$(grep -c '"result":' "$E2E_TMP/before.json")" -eq "$N_DEV" ] ||
    fail "the export does not have $N_DEV results"
kill -KILL "$HUB_PID"
wait "$HUB_PID" 2>/dev/null
[ -s "$DB-wal" ] || [ -e "$DB-wal" ] || fail "no WAL file to delete (the test would prove nothing)"
rm -f "$DB-wal" "$DB-shm"
hub_launch
live 0 wait-hub --timeout 20
live 0 export "$EV"
cmp -s "$E2E_TMP/out" "$E2E_TMP/before.json" ||
    fail "after the WAL was deleted the export differs: $(diff "$E2E_TMP/before.json" "$E2E_TMP/out" | head -n 10)"
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    while read -r r t k; do
        n=$(sqlite3 "$DB" "SELECT count(*) FROM submissions WHERE device_id = '$d' AND idem_key = '$k'")
        [ "$n" = 1 ] || fail "$d: acknowledged $k (round $r table $t) is gone after the WAL was deleted"
    done < <(acked "$d")
done
! grep -q 'checkpoint.*:' "$E2E_TMP/hub.log" || fail "checkpoint warnings: $(grep checkpoint "$E2E_TMP/hub.log")"
ok "SIGKILL and the WAL deleted after round close: every acknowledged result still there"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
