#!/usr/bin/env bash
# test_hub_smoke.sh - the real tourney-hub against the real venue broker on
# a temporary database: a bad config is one line and exit 2; the hub
# connects and publishes hub/state "online" (retained); SIGTERM publishes
# "offline" and exits 0; SIGKILL leaves the broker to publish the last
# will "offline"; a restart on the same database comes back "online" and
# a late subscriber sees the retained "online".
#
# usage: bash test_hub_smoke.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

need_binaries HUB
STATE=tourney/v1/hub/state
DB=$E2E_TMP/hub.db
HUB_PID=

# --- configuration errors: one line, exit 2, nothing started ---------------
"$HUB" --brokr=x >"$E2E_TMP/bad.out" 2>"$E2E_TMP/bad.err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$E2E_TMP/bad.err")" -eq 1 ] &&
    grep -q 'unknown argument "--brokr=x"' "$E2E_TMP/bad.err" ||
    fail "bad argument: exit $st, stderr: $(cat "$E2E_TMP/bad.err")"
printf 'broker_uri = "tcp://127.0.0.1:1"\nkeepalive_s = 0\n' >"$E2E_TMP/bad.conf"
"$HUB" --config "$E2E_TMP/bad.conf" >/dev/null 2>"$E2E_TMP/bad.err"
st=$?
[ $st -eq 2 ] && grep -q 'bad.conf:2' "$E2E_TMP/bad.err" ||
    fail "bad config file: exit $st, stderr: $(cat "$E2E_TMP/bad.err")"
ok "bad configuration: one line on stderr, exit 2"

"$HUB" --dump-config --annotated >"$E2E_TMP/example.conf" ||
    fail "--dump-config --annotated failed"
cmp -s "$E2E_TMP/example.conf" "$E2E_SRC/deploy/hub.conf.example" ||
    fail "deploy/hub.conf.example is not the output of --dump-config --annotated"
ok "deploy/hub.conf.example is up to date"

start_broker --no-ws
printf '%s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
chmod 600 "$E2E_TMP/hub.pw"
cat >"$E2E_TMP/hub.conf" <<EOF
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
username = "hub"
password_file = "$E2E_TMP/hub.pw"
database = "$DB"
database_sync = false
keepalive_s = 5
log_level = "debug"
EOF

# start_hub: runs the hub in the background (log appended to hub.log).
start_hub() {
    "$HUB" --config "$E2E_TMP/hub.conf" >>"$E2E_TMP/hub.log" 2>&1 </dev/null &
    HUB_PID=$!
    e2e_track "$HUB_PID"
}

# count_state PAYLOAD: how many hub/state messages with PAYLOAD watch saw.
count_state() {
    e2e_messages state | grep -c -x -F -e "0 $STATE $1" -e "1 $STATE $1"
}

e2e_sub_start state watch "$STATE"
"$HUB" --config "$E2E_TMP/hub.conf" --create >"$E2E_TMP/create.out" 2>&1 ||
    fail "tourney-hub --create: $(cat "$E2E_TMP/create.out")"
grep -q "^tourney-hub: created database $DB " "$E2E_TMP/create.out" ||
    fail "--create did not say it created $DB: $(cat "$E2E_TMP/create.out")"
start_hub
e2e_expect state "$STATE" online 10
ok "hub connects and publishes hub/state online"

kill -TERM "$HUB_PID"
wait "$HUB_PID"
st=$?
[ $st -eq 0 ] || fail "hub exited $st after SIGTERM: $(tail -n 5 "$E2E_TMP/hub.log")"
e2e_expect state "$STATE" offline 10
grep -q 'shutting down' "$E2E_TMP/hub.log" || fail "no shutdown line in the log"
ok "SIGTERM: hub/state offline, exit 0"

start_hub
wait_for 10 '[ "$(count_state online)" -ge 2 ]' ||
    fail "restarted hub did not publish online: $(tail -n 5 "$E2E_TMP/hub.log")"
ok "restart on the same database: online again"

offline_before=$(count_state offline)
kill -KILL "$HUB_PID"
wait "$HUB_PID" 2>/dev/null
wait_for 15 "[ \"\$(count_state offline)\" -gt $offline_before ]" ||
    fail "no last will after SIGKILL: $(e2e_messages state | tr '\n' '|')"
ok "SIGKILL: the broker publishes the last will offline"

start_hub
wait_for 10 '[ "$(count_state online)" -ge 3 ]' ||
    fail "hub did not come back after SIGKILL: $(tail -n 5 "$E2E_TMP/hub.log")"
e2e_sub_start late watch2 "$STATE"
e2e_expect late "$STATE" online 10
ok "after SIGKILL the same database opens; a late subscriber sees retained online"

! grep -q '^error:' "$E2E_TMP/hub.log" ||
    fail "errors in the hub log: $(grep '^error:' "$E2E_TMP/hub.log" | head -n 3)"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after the second SIGTERM"
ok "clean shutdown"
e2e_done
