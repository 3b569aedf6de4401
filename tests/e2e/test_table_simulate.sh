#!/usr/bin/env bash
# test_table_simulate.sh - the real tourney-table in --simulate mode
# against a real mosquitto (deploy/broker/gen-config.sh venue config), the
# hub played by mosquitto_pub with messages built by tests/table/wiretool:
# - the table logs in with its device login and publishes a retained
#   Presence (online, queued 0); a SIGKILL (power cut) leaves the last
#   will (offline) and a clean stop publishes offline itself;
# - it receives its retained assignment, plays it and submits a
#   ResultSubmission on its own result topic (all seated players in
#   confirmed_by, the assignment's version);
# - killed before any ack, it resends the same key after its restart;
# - after an ack with that key it stops: the outbox is empty at the next
#   start and nothing is resent before its presence (results go out
#   before the presence on every connect, so the presence is a barrier);
# - a newer assignment is played again with a fresh key; a stale
#   (lower-version) assignment is ignored.
#
# usage: bash test_table_simulate.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
need_binaries TABLE WIRETOOL
start_broker --tables 3 --no-ws

dev=tourney/v1/device
source "$(dirname -- "${BASH_SOURCE[0]}")/wire_watch.sh"
watch_start
out_has() {
    grep -q -x -F -e "$2" "$E2E_TMP/$1.out"
}
expect_out() {
    wait_until "${3:-10}" out_has "$1" "$2" ||
        fail "table run $1 did not print \"$2\"; it printed: $(tail -n 40 "$E2E_TMP/$1.out" | tr '\n' '|') -- stderr: $(tail -n 15 "$E2E_TMP/$1.err" | tr '\n' '|')"
}
# start_table RUN: the table with $CONF, output in $E2E_TMP/RUN.out.
start_table() {
    : >"$E2E_TMP/$1.out"
    "$TABLE" --config "$CONF" </dev/null >"$E2E_TMP/$1.out" 2>"$E2E_TMP/$1.err" &
    TABLE_PID=$!
    e2e_track "$TABLE_PID"
}

CONF=$E2E_TMP/table-001.conf
cat >"$CONF" <<EOF
device_id = "table-001"
mqtt_password = "$(cred table-001)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table-001.db"
log_level = "debug"
simulate = true
simulate_delay_ms = "100-300"
seed = 42
keepalive_s = 2
EOF

# --- connect, presence ------------------------------------------------------

start_table run1
expect_out run1 "state waiting"
expect_out run1 "net online queued=0"
expect_decoded presence "$dev/table-001/presence" "device=table-001 state=online queued=0 version=0"
ok "table-001 logs in and publishes its retained presence (online, queued 0)"

# --- assignment -> simulated result ------------------------------------------

"$WIRETOOL" assign version=1 event=ev1 game=neuroshima-hex round=1 stage=swiss \
    table=4 seats=p1,p2 clock=running:2700000 >"$E2E_TMP/a1.bin" || fail "wiretool assign"
hub_pub "$dev/table-001/assign" "$E2E_TMP/a1.bin" -r
expect_out run1 "assigned event=ev1 round=1 table=4 version=1 game=neuroshima-hex stage=swiss seats=p1,p2"
expect_out run1 "state submitted"
key=$(sed -n 's/^result pending key=//p' "$E2E_TMP/run1.out" | head -n 1)
[ -n "$key" ] || fail "no result pending line"
grep -q '^clock remaining_ms=[0-9]* state=running$' "$E2E_TMP/run1.out" ||
    fail "no running clock line: $(cat "$E2E_TMP/run1.out")"
expect_decoded submission "$dev/table-001/result" \
    "key=$key device=table-001 event=ev1 round=1 table=4 version=1 game=neuroshima-hex confirmed=p1,p2"
expect_decoded presence "$dev/table-001/presence" "state=online queued=1 version=1"
ok "retained assignment received; simulated result $key published on table-001/result, presence queued 1"

# --- power cut before the ack: the same key again after restart ---------------

kill -KILL "$TABLE_PID"
{ wait "$TABLE_PID"; } 2>/dev/null
expect_decoded presence "$dev/table-001/presence" "state=offline" 10
ok "SIGKILL: the broker publishes the last will (offline)"

sent_before=$(count_decoded submission "$dev/table-001/result" "key=$key ")
start_table run2
expect_out run2 "net offline queued=1"
expect_out run2 "state submitted"
wait_for 10 "[ \$(count_decoded submission $dev/table-001/result 'key=$key ') -gt $sent_before ]" ||
    fail "no resend of $key after the restart"
grep -q '^result pending' "$E2E_TMP/run2.out" && fail "the restarted table made a new submission"
ok "after the restart the outbox resends $key (same key, no new submission)"

# --- the ack ends the resends ------------------------------------------------------

"$WIRETOOL" ack key="$key" status=accepted >"$E2E_TMP/ack1.bin" || fail "wiretool ack"
hub_pub "$dev/table-001/ack" "$E2E_TMP/ack1.bin"
expect_out run2 "ack accepted key=$key"
expect_out run2 "state done"
expect_out run2 "net online queued=0"
expect_decoded presence "$dev/table-001/presence" "state=online queued=0 version=1"
# A QoS 1 duplicate of the ack is harmless.
hub_pub "$dev/table-001/ack" "$E2E_TMP/ack1.bin"
wait_for 10 "[ \$(grep -c -x -F 'ack accepted key=$key' $E2E_TMP/run2.out) -eq 2 ]" ||
    fail "second ack not shown"
out_has run2 "state done" || fail "state lost after a duplicate ack"
ok "ack accepted: done, queue 0 (a duplicate ack changes nothing)"

kill -TERM "$TABLE_PID"
{ wait "$TABLE_PID"; } 2>/dev/null
n_offline=$(count_decoded presence "$dev/table-001/presence" "state=offline")
[ "$n_offline" -ge 2 ] || fail "a clean stop did not publish offline"
sent=$(count_decoded submission "$dev/table-001/result" "key=$key ")
n_online=$(count_decoded presence "$dev/table-001/presence" "state=online")
start_table run3
expect_out run3 "net offline queued=0"
expect_out run3 "state done"
wait_for 10 "[ \$(count_decoded presence $dev/table-001/presence state=online) -gt $n_online ]" ||
    fail "no presence after the third start"
[ "$(count_decoded submission "$dev/table-001/result" "key=$key ")" -eq "$sent" ] ||
    fail "$key was resent after its ack"
ok "SIGTERM publishes offline; after the ack nothing is queued or resent (presence barrier)"

# --- the next assignment, and a stale one -----------------------------------------

"$WIRETOOL" assign version=2 event=ev1 game=neuroshima-hex round=2 stage=swiss \
    table=1 seats=p3,p1 clock=not_started:2700000 >"$E2E_TMP/a2.bin" || fail "wiretool assign 2"
hub_pub "$dev/table-001/assign" "$E2E_TMP/a2.bin" -r
expect_out run3 "assigned event=ev1 round=2 table=1 version=2 game=neuroshima-hex stage=swiss seats=p3,p1"
expect_out run3 "clock remaining_ms=2700000 state=not_started"
expect_out run3 "state submitted"
key2=$(sed -n 's/^result pending key=//p' "$E2E_TMP/run3.out" | head -n 1)
[ -n "$key2" ] && [ "$key2" != "$key" ] || fail "round 2 key \"$key2\" (round 1: $key)"
expect_decoded submission "$dev/table-001/result" "key=$key2 device=table-001 event=ev1 round=2 table=1 version=2"
hub_pub "$dev/table-001/assign" "$E2E_TMP/a1.bin" -r
expect_out run3 "stale assign version=1 have=2"
out_has run3 "state submitted" || fail "state changed"
ok "the next assignment is played with a fresh key ($key2); a stale version is ignored"

e2e_done
