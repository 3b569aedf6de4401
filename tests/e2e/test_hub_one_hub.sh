#!/usr/bin/env bash
# test_hub_one_hub.sh - one hub per database and one hub per broker login
# (issue 23: a second tourney-hub on the running hub's database started,
# said "hub started", and the two knocked each other off the broker every
# 1-2 s while each answered results from its own view: a result accepted
# by one was replaced by the other's).
#
# Real mosquitto, the hub (hub 1) on a temporary database, four simulated
# tables playing a Catan round:
# 1. a second tourney-hub on the same configuration (same database) exits
#    1 before going online, naming hub 1's pid and host and the lock file;
#    hub 1 is not disturbed (no "broker connection lost" in its log);
# 2. a second tourney-hub with the same broker login on another database
#    exits 1 naming hub 1's pid and host ("in use by another tourney-hub
#    ... took the connection back"); hub 1 takes its connection back and
#    logs that another hub was refused;
# 3. hub 1 keeps accepting results: every table's round-1 result is
#    acknowledged and stored once in hub 1's database; the second
#    database stores none;
# 4. the lock is the kernel's: after hub 1 is SIGKILLed, a new hub on the
#    same database starts at once (its lease names a dead pid of this
#    host) and serves the tables.
#
# usage: bash test_hub_one_hub.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"
N_DEV=4
N_PLAYERS=16
EV=one
HOST=$(hostname)

start_broker --no-ws --tables $N_DEV --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
source "$E2E_SRC/tests/e2e/sim_tables.sh"
live_hub_config 'feed = false'
hub_launch
live 0 wait-hub --timeout 20
HUB1=$HUB_PID
wait_until 10 grep -q "broker login hub: serving" "$E2E_TMP/hub.log" ||
    fail "hub 1 does not say it serves: $(tail -n 5 "$E2E_TMP/hub.log")"
start_sim_tables $N_DEV "100-600" 4100
event_with_devices catan "One hub" '{"rounds": 2}'
ok "hub 1 (pid $HUB1) online with $N_DEV tables"

# --- 1. the same database ---------------------------------------------------
st=0
timeout 30 "$HUB" --config "$E2E_TMP/hub.conf" >"$E2E_TMP/hub2.log" 2>&1 </dev/null || st=$?
[ "$st" -eq 1 ] || fail "a second hub on the same database: exit status $st (want 1): $(cat "$E2E_TMP/hub2.log")"
grep -q -F "error: database $E2E_TMP/hub.db: in use by another tourney-hub (pid $HUB1 on host $HOST; lock file $E2E_TMP/hub.db.lock): one hub per database; not going online" "$E2E_TMP/hub2.log" ||
    fail "the refusal does not name hub 1's pid and host: $(cat "$E2E_TMP/hub2.log")"
! grep -q "hub started" "$E2E_TMP/hub2.log" || fail "the second hub says it started: $(cat "$E2E_TMP/hub2.log")"
kill -0 "$HUB1" || fail "hub 1 died"
! grep -q "broker connection lost" "$E2E_TMP/hub.log" ||
    fail "hub 1 lost its broker connection to the second hub: $(grep 'connection lost' "$E2E_TMP/hub.log")"
ok "same database: $(grep error "$E2E_TMP/hub2.log")"

# --- 2. the same login, another database ------------------------------------
sed "s|^database = .*|database = \"$E2E_TMP/other.db\"|" "$E2E_TMP/hub.conf" >"$E2E_TMP/other.conf"
hub_create "$E2E_TMP/other.conf"
st=0
timeout 60 "$HUB" --config "$E2E_TMP/other.conf" >"$E2E_TMP/hub3.log" 2>&1 </dev/null || st=$?
[ "$st" -eq 1 ] || fail "a second hub with the same login: exit status $st (want 1): $(cat "$E2E_TMP/hub3.log")"
grep -q -E "error: broker login hub is in use by another tourney-hub \\(pid $HUB1 on host $HOST instance [0-9a-f]{16}\\): it took the connection back; one hub per login, not going online" "$E2E_TMP/hub3.log" ||
    fail "the refusal does not name hub 1's pid and host: $(cat "$E2E_TMP/hub3.log")"
! grep -q "serving" "$E2E_TMP/hub3.log" || fail "the second hub served: $(cat "$E2E_TMP/hub3.log")"
kill -0 "$HUB1" || fail "hub 1 died"
wait_until 10 grep -q "another tourney-hub connected with it" "$E2E_TMP/hub.log" ||
    fail "hub 1 did not see the second hub: $(tail -n 5 "$E2E_TMP/hub.log")"
live 0 wait-hub --timeout 20
ok "same login: $(grep error "$E2E_TMP/hub3.log")"

# --- 3. hub 1 keeps accepting results ---------------------------------------
live 0 round pair "$EV"
live 0 round publish "$EV"
live 0 clock start "$EV"
for ((t = 1; t <= N_DEV; t++)); do
    d=$(printf 'table-%03d' "$t")
    wait_until 60 table_acked "$d" 1 "$t" ||
        fail "$d got no ack: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
    [ "$(hub_accepted 1 "$t")" = 1 ] || fail "table $t: hub 1 accepted $(hub_accepted 1 "$t") results (want 1)"
done
[ "$(sqlite3 "$E2E_TMP/hub.db" "SELECT count(*) FROM results")" = "$N_DEV" ] ||
    fail "hub 1's database does not hold $N_DEV results"
[ "$(sqlite3 "$E2E_TMP/other.db" "SELECT count(*) FROM results")" = 0 ] ||
    fail "the refused hub's database holds results"
ok "hub 1 acknowledged and stored every table's result once; the refused hub's database none"

# --- 4. the lock goes with the process ----------------------------------------
kill -KILL "$HUB1"
wait "$HUB1" 2>/dev/null
hub_launch
live 0 wait-hub --timeout 20
wait_until 10 grep -q "broker login hub: serving (pid $HUB_PID " "$E2E_TMP/hub.log" ||
    fail "the new hub does not serve: $(tail -n 5 "$E2E_TMP/hub.log")"
grep -q "the lease names another tourney-hub" "$E2E_TMP/hub.log" &&
    fail "the new hub waited for the dead hub's lease: $(grep 'lease names' "$E2E_TMP/hub.log")"
grep -q -x "pid $HUB_PID on host $HOST" "$E2E_TMP/hub.db.lock" ||
    fail "the lock file does not name the new hub: $(cat "$E2E_TMP/hub.db.lock")"
live 0 standings "$EV"
ok "after SIGKILL the same database serves again at once (pid $HUB_PID)"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
