#!/usr/bin/env bash
# test_table_headless.sh - the real tourney-table driven through its line
# protocol (docs/table-protocol.md) on a FIFO, against a real mosquitto,
# the hub played by mosquitto_pub with tests/table/wiretool messages:
# - bad input lines get one "error ..." line naming the problem;
# - a result needs every seated player's confirmation; a player's reject
#   returns to editing; the submission carries every confirmation;
# - the hub's round clock (paused, with this table's extension) is shown;
# - a REJECTED ack shows the hub's reason and text and the players enter
#   a corrected result, sent with a new key; PENDING_CONFIRMATION and
#   ACCEPTED are shown as states;
# - the broker going away: "net offline", and the pending result is resent
#   at once when the connection is back (same key);
# - "quit" stops cleanly with an offline presence.
#
# usage: bash test_table_headless.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
need_binaries TABLE WIRETOOL
start_broker --tables 3 --no-ws

dev=tourney/v1/device
source "$(dirname -- "${BASH_SOURCE[0]}")/wire_watch.sh"
watch_start
OUT=$E2E_TMP/t2.out
out_has() {
    grep -q -x -F -e "$1" "$OUT"
}
expect_out() {
    wait_until "${2:-10}" out_has "$1" ||
        fail "the table did not print \"$1\"; it printed: $(tail -n 40 "$OUT" | tr '\n' '|') -- stderr: $(tail -n 15 "$E2E_TMP/t2.err" | tr '\n' '|')"
}
# say LINE: one input line; expect_after LINE: the next lines printed after
# the input include LINE (the output is checked from the mark on).
MARK=0
say() {
    MARK=$(wc -l <"$OUT")
    printf '%s\n' "$1" >&"$IN_FD"
}
new_has() {
    tail -n +"$((MARK + 1))" "$OUT" | grep -x -F -e "$1" >/dev/null
}
expect_new() {
    wait_until "${2:-10}" new_has "$1" ||
        fail "after \"$(sed -n "${MARK}p" "$OUT" 2>/dev/null)\": no \"$1\"; new output: $(tail -n +"$((MARK + 1))" "$OUT" | tr '\n' '|')"
}

cat >"$E2E_TMP/t2.conf" <<EOF
device_id = "table-002"
mqtt_password = "$(cred table-002)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table-002.db"
log_level = "debug"
keepalive_s = 2
EOF
mkfifo "$E2E_TMP/in"
: >"$OUT"
"$TABLE" --config "$E2E_TMP/t2.conf" <"$E2E_TMP/in" >"$OUT" 2>"$E2E_TMP/t2.err" &
TABLE_PID=$!
e2e_track "$TABLE_PID"
exec {IN_FD}>"$E2E_TMP/in"
expect_out "net online queued=0"

# --- input refused while waiting, then the assignment ------------------------------

say "result vp.c1=10"
expect_new "error result: no table assigned"
say "dance"
expect_new 'error unknown command "dance" (expected one of: result, confirm, reject, draft, status, quit, help)'
"$WIRETOOL" assign version=7 event=cat1 game=catan round=2 stage=round table=5 \
    seats=c1,c2,c3 clock=running:5400000 >"$E2E_TMP/a.bin" || fail "wiretool assign"
hub_pub "$dev/table-002/assign" "$E2E_TMP/a.bin" -r
expect_out "assigned event=cat1 round=2 table=5 version=7 game=catan stage=round seats=c1,c2,c3"
expect_out "state playing"
"$WIRETOOL" clock version=8 event=cat1 round=2 clock=paused:600000 ext=2:1000,5:60000 \
    >"$E2E_TMP/c.bin" || fail "wiretool clock"
hub_pub tourney/v1/event/cat1/clock "$E2E_TMP/c.bin" -r
expect_out "clock remaining_ms=660000 state=paused"
ok "assignment shown; the event's RoundClock (paused 10 min + table 5's 1 min) shown"

# --- entering and confirming ---------------------------------------------------------

say "result vp.c1=30 vp.c2=7 vp.c3=3"
expect_new "error result.vp.c1: expected a number 0..20, got 30"
say 'result {"vp":{"c1":10,"c2":7,"c4":3}}'
wait_until 5 eval 'tail -n +$((MARK + 1)) "$OUT" | grep -q "^error result.vp"' ||
    fail "no error for a player not at the table: $(tail -n 3 "$OUT")"
say "result vp.c1=10 vp.c2=7 vp.c3=3"
expect_new "result entered need=c1,c2,c3"
say "confirm c9"
expect_new 'error confirm: "c9" is not a player of this table (players: c1,c2,c3)'
say "confirm c1"
expect_new "confirmed c1 need=c2,c3"
say "reject c3"
expect_new "rejected c3"
expect_new "state playing"
say "result vp.c1=10 vp.c2=9 vp.c3=3"
expect_new "state confirming"
for p in c3 c1 c2; do say "confirm $p"; done
expect_new "state submitted"
key1=$(sed -n 's/^result pending key=//p' "$OUT" | tail -n 1)
[ -n "$key1" ] || fail "no key"
expect_decoded submission "$dev/table-002/result" \
    "key=$key1 device=table-002 event=cat1 round=2 table=5 version=7 game=catan confirmed=c1,c2,c3"
ok "bad entries refused with the key named; every player confirms; a reject returns to editing; $key1 sent"

# --- the hub rejects: reason shown, corrected entry with a new key ----------------

"$WIRETOOL" ack key="$key1" status=rejected reason=invalid_result \
    text='result_submission.result.ct.players[1].vp: expected 0..8, got 9' \
    >"$E2E_TMP/r.bin" || fail "wiretool ack"
MARK=$(wc -l <"$OUT")
hub_pub "$dev/table-002/ack" "$E2E_TMP/r.bin"
expect_new "ack rejected key=$key1 reason=invalid_result text=\"result_submission.result.ct.players[1].vp: expected 0..8, got 9\""
expect_new "state playing"
expect_new "net online queued=0"
say "result vp.c1=10 vp.c2=8 vp.c3=3"
for p in c1 c2 c3; do say "confirm $p"; done
expect_new "state submitted"
key2=$(sed -n 's/^result pending key=//p' "$OUT" | tail -n 1)
[ "$key2" != "$key1" ] || fail "the corrected result reused $key1"
expect_decoded submission "$dev/table-002/result" "key=$key2 "
ok "REJECTED: the hub's reason and text shown, back to editing; the correction is $key2"

# --- the broker goes away: offline, then an immediate resend --------------------

n=$(count_decoded submission "$dev/table-002/result" "key=$key2 ")
e2e_sub_stop watch
MARK=$(wc -l <"$OUT")
stop_broker
expect_new "net offline queued=1" 15
restart_broker
e2e_sub_start watch watch 'tourney/v1/#' -- -F 'MSG %r %t %x'
expect_new "net online queued=1" 40
expect_decoded submission "$dev/table-002/result" "key=$key2 " 10
expect_decoded presence "$dev/table-002/presence" "device=table-002 state=online queued=1 version=7"
ok "broker down: offline with 1 queued; on reconnect $key2 resent at once, then the presence"

# --- pending confirmation, accepted -------------------------------------------------

"$WIRETOOL" ack key="$key2" status=pending_confirmation reason=unconfirmed >"$E2E_TMP/p.bin"
MARK=$(wc -l <"$OUT")
hub_pub "$dev/table-002/ack" "$E2E_TMP/p.bin"
expect_new "ack pending_confirmation key=$key2 reason=unconfirmed"
expect_new "state pending_confirmation"
expect_new "net online queued=0"
"$WIRETOOL" ack key="$key2" status=accepted >"$E2E_TMP/k.bin"
hub_pub "$dev/table-002/ack" "$E2E_TMP/k.bin"
expect_new "state done"
say "result vp.c1=1 vp.c2=1 vp.c3=1"
expect_new "error result: accepted by the hub (key=$key2); only the organiser can change it"
say "status"
expect_new "status end"
expect_new "submission key=$key2 status=accepted event=cat1 round=2 table=5"
ok "PENDING_CONFIRMATION and ACCEPTED shown; a new entry after acceptance is refused"

# --- quit ---------------------------------------------------------------------------

n_off=$(count_decoded presence "$dev/table-002/presence" "state=offline")
say "quit"
for ((i = 0; i < 100; i++)); do
    kill -0 "$TABLE_PID" 2>/dev/null || break
    sleep 0.05
done
kill -0 "$TABLE_PID" 2>/dev/null && fail "quit did not stop the table"
wait "$TABLE_PID"
st=$?
[ $st -eq 0 ] || fail "exit status $st after quit"
wait_for 10 "[ \$(count_decoded presence $dev/table-002/presence state=offline) -gt $n_off ]" ||
    fail "no offline presence after quit"
ok "quit: exit 0 and an offline presence"
exec {IN_FD}>&-
e2e_done
