#!/usr/bin/env bash
# test_broker_wrong_password.sh - a wrong broker password is never silent
# (docs/troubleshooting.md: the log says why the hub or a table stays
# offline).  Real mosquitto, a real tourney-hub and a real table client
# with wrong passwords: the broker refuses them at every retry, and each
# logs the broker's refusal reason once (not once per retry); the table's
# status output names it too.  A password_file / mqtt_password_file holding
# a users.cred line ("LOGIN PASSWORD") is refused at start with a message
# that says so.
#
# usage: bash test_broker_wrong_password.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

need_binaries HUB TABLE
start_broker --tables 2 --no-ws

# refusals: how many connects the broker refused so far
refusals() { grep -c -i "not authori[sz]ed" "$BROKER_LOG"; }

# --- the hub with a wrong password -----------------------------------------
printf 'wrong-%s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
cat >"$E2E_TMP/hub.conf" <<EOF
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
username = "hub"
password_file = "$E2E_TMP/hub.pw"
database = "$E2E_TMP/hub.db"
database_sync = false
keepalive_s = 5
EOF
"$HUB" --config "$E2E_TMP/hub.conf" --create >"$E2E_TMP/create.out" 2>&1 ||
    fail "tourney-hub --create: $(cat "$E2E_TMP/create.out")"
"$HUB" --config "$E2E_TMP/hub.conf" >"$E2E_TMP/hub.log" 2>&1 </dev/null &
HUB_PID=$!
e2e_track "$HUB_PID"
# three refused attempts (the hub retries about every second)
wait_for 30 '[ "$(refusals)" -ge 3 ]' ||
    fail "the broker refused the hub only $(refusals) times: $(tail -n 5 "$BROKER_LOG")"
wait_until 10 grep -q 'broker refused login hub: not authorised (reason 135)' "$E2E_TMP/hub.log" ||
    fail "the hub's log does not say why: $(tail -n 5 "$E2E_TMP/hub.log")"
n=$(grep -c 'broker refused login hub' "$E2E_TMP/hub.log")
[ "$n" -eq 1 ] || fail "the refusal logged $n times for $(refusals) refusals (once per change)"
ok "wrong hub password: \"$(grep 'broker refused' "$E2E_TMP/hub.log")\", once"
kill_wait "$HUB_PID"

# --- password_file with a users.cred line ------------------------------------
printf 'hub %s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
"$HUB" --config "$E2E_TMP/hub.conf" >"$E2E_TMP/hub2.log" 2>&1 </dev/null
st=$?
[ $st -ne 0 ] && grep -q "password_file $E2E_TMP/hub.pw: looks like a users.cred line (LOGIN PASSWORD); it must hold the password alone" \
    "$E2E_TMP/hub2.log" || fail "users.cred line as password_file: exit $st: $(cat "$E2E_TMP/hub2.log")"
ok "password_file with a LOGIN PASSWORD line: refused, saying so"

# --- a table with a wrong password -----------------------------------------
before=$(refusals)
cat >"$E2E_TMP/t1.conf" <<EOF
device_id = "table-001"
mqtt_password = "wrong-$(cred table-001)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table-001.db"
simulate = true
keepalive_s = 2
EOF
"$TABLE" --config "$E2E_TMP/t1.conf" >"$E2E_TMP/t1.out" 2>"$E2E_TMP/t1.err" </dev/null &
T_PID=$!
e2e_track "$T_PID"
wait_for 30 "[ \"\$(refusals)\" -ge $((before + 3)) ]" ||
    fail "the broker refused the table only $(($(refusals) - before)) times"
wait_until 10 grep -q -x 'net refused not authorised' "$E2E_TMP/t1.out" ||
    fail "the table's status does not say why: $(tail -n 8 "$E2E_TMP/t1.out" | tr '\n' '|')"
[ "$(grep -c '^net refused' "$E2E_TMP/t1.out")" -eq 1 ] ||
    fail "net refused printed $(grep -c '^net refused' "$E2E_TMP/t1.out") times"
grep -q 'broker refused login table-001: not authorised (reason 135)' "$E2E_TMP/t1.err" ||
    fail "the table's log does not say why: $(tail -n 5 "$E2E_TMP/t1.err")"
[ "$(grep -c 'broker refused login' "$E2E_TMP/t1.err")" -eq 1 ] ||
    fail "the table logged the refusal $(grep -c 'broker refused login' "$E2E_TMP/t1.err") times"
ok "wrong table password: status \"net refused not authorised\" and one log line"
kill_wait "$T_PID"

printf 'table-001 %s\n' "$(cred table-001)" >"$E2E_TMP/t1.pw"
sed -i '/^mqtt_password = /d' "$E2E_TMP/t1.conf"
printf 'mqtt_password_file = "%s"\n' "$E2E_TMP/t1.pw" >>"$E2E_TMP/t1.conf"
"$TABLE" --config "$E2E_TMP/t1.conf" >/dev/null 2>"$E2E_TMP/t1b.err" </dev/null
st=$?
[ $st -ne 0 ] && grep -q "mqtt_password_file $E2E_TMP/t1.pw: looks like a users.cred line" "$E2E_TMP/t1b.err" ||
    fail "users.cred line as mqtt_password_file: exit $st: $(cat "$E2E_TMP/t1b.err")"
ok "mqtt_password_file with a LOGIN PASSWORD line: refused, saying so"
e2e_done
