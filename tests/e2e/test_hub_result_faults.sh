#!/usr/bin/env bash
# test_hub_result_faults.sh - results under two faults that used to lose
# them or leave them resent for ever (issue 13; docs/protocol.md
# "Idempotency and acknowledgement").
#
# Real mosquitto, hub and a headless tourney-table (table-001) on a one
# table Neuroshima Hex! round; a monitor reads every ack.
#
# 1. A retained junk message on table-001's result topic.  The hub is
#    stopped, the players enter and confirm their result (queued on the
#    table), a retained undecodable message is left on
#    device/table-001/result, and the hub restarts: the broker replays the
#    junk to it.  Checked: the hub clears the retained message (none is
#    left), its keyless MALFORMED answer is ignored by the table (logged),
#    and the table's real result is stored exactly once (one submission
#    row, one "result accepted" log line), acknowledged, and in the export.
# 2. Submissions over the table protocol's 64 KiB, sent by a rogue client
#    with table-002's login: 100 KiB, and 4.9 MB (over the hub's former
#    4 MiB receive limit, under the broker's 5 MiB max_packet_size): each
#    is answered REJECTED/MALFORMED with its own key, naming the limit.
#    7 MB is refused by the broker itself (above max_packet_size, equal
#    to the hub's own limit: nothing the broker accepts goes unanswered).
# 3. An oversize entry in table-001's own outbox (as an older or foreign
#    build could leave): after a restart the table settles it as
#    rejected with its key (shown on the line protocol, logged), marks it
#    done and has nothing queued: it is not resent for ever.
#
# usage: bash test_hub_result_faults.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
source "$E2E_SRC/tests/e2e/pb.sh"
need_binaries TOURNEY HUB TABLE WIRETOOL
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"

hl_hub 2
EV=rf
DEV=tourney/v1/device
e2e_sub_start acks watch "$DEV/+/ack" -- -F 'MSG %r %t %x' -W 300
# acks_of DEVICE: the device's acks so far, decoded, one per line.
acks_of() {
    local hex
    e2e_messages acks | while read -r _ t hex; do
        [ "$t" = "$DEV/$1/ack" ] || continue
        "$WIRETOOL" ack-of "$hex" || echo "UNDECODABLE $hex"
    done
}
# has_ack DEVICE ERE: one of its acks matches (no grep -q on the pipe: with
# pipefail, grep leaving early would fail the writer and so the test).
has_ack() {
    acks_of "$1" >"$E2E_TMP/acks.$1"
    grep -q -E -e "$2" "$E2E_TMP/acks.$1"
}

hl_conf table-001
hl_start table-001 "$TABLE"
hl_expect table-001 "net online queued=0"
hl_nh_round "$EV" 5 table-001
live 0 clock start "$EV"
hl_assigned table-001 "$EV" 1
hl_expect table-001 "state playing"

# --- 1. retained junk on the result topic, hub restarted --------------------
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
hl_say table-001 "result winner=p2 hq_diff=6" "confirm p1" "confirm p2"
hl_expect_new table-001 "state submitted"
key=$(hl_last table-001 's/^result pending key=//p')
[ -n "$key" ] || fail "no \"result pending\" line; $(hl_tail table-001)"
hl_expect table-001 "net online queued=1"
e2e_pub hub "$DEV/table-001/result" 'junk: not a ResultSubmission' -r ||
    fail "retained junk not published: $(cat "$E2E_TMP/pub.err")"
# retained_first TOPIC: the first retained message a new subscriber to
# TOPIC and hub/state gets (mosquitto sends the retained messages of the
# filters in order, and hub/state always has one): "TOPIC PAYLOAD".
retained_first() {
    auth_args watch2 # (watch holds the ack subscription: one connection per login)
    timeout 10 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 "${AUTH[@]}" \
        -t "$1" -t tourney/v1/hub/state --retained-only -C 1 -v 2>"$E2E_TMP/rf.err"
}
[ "$(retained_first "$DEV/table-001/result")" = "$DEV/table-001/result junk: not a ResultSubmission" ] ||
    fail "the junk is not retained on the broker: $(retained_first "$DEV/table-001/result")"
ok "hub stopped; $key queued on table-001; retained junk on its result topic"

hub_launch
live 0 wait-hub --timeout 20
hl_expect table-001 "ack accepted key=$key"
hl_expect table-001 "net online queued=0"
wait_until 10 grep -q 'retained result message device=table-001: cleared' "$E2E_TMP/hub.log" ||
    fail "the hub did not clear the retained result: $(tail -n 8 "$E2E_TMP/hub.log")"
[ "$(retained_first "$DEV/table-001/result")" = "tourney/v1/hub/state online" ] ||
    fail "a retained message is left on $DEV/table-001/result: $(retained_first "$DEV/table-001/result")"
wait_until 10 has_ack table-001 '^key=- status=rejected reason=malformed ' ||
    fail "no keyless MALFORMED answer to the junk: $(acks_of table-001 | tr '\n' '|')"
wait_until 10 grep -q 'ack without a key ignored' "$E2E_TMP/table-001.err" ||
    fail "table-001 did not log ignoring the keyless ack; $(hl_tail table-001)"
! grep -q "^ack rejected key=$key" "$E2E_TMP/table-001.out" ||
    fail "table-001 took a rejection for $key"
n=$(sqlite3 "$E2E_TMP/hub.db" "SELECT count(*) FROM submissions WHERE device_id = 'table-001' AND idem_key = '$key' AND outcome = 'accepted'")
[ "$n" = 1 ] || fail "$key is stored $n times"
[ "$(grep -c "result accepted device=table-001 key=$key " "$E2E_TMP/hub.log")" -eq 1 ] ||
    fail "the hub accepted $key $(grep -c "result accepted device=table-001 key=$key " "$E2E_TMP/hub.log") times"
live 0 export "$EV"
tr -d ' \n' <"$E2E_TMP/out" >"$E2E_TMP/export.flat"
grep -q '"result":{[^}]*"winner":"p2"' "$E2E_TMP/export.flat" ||
    fail "the export does not have the table's result: $(head -c 600 "$E2E_TMP/out")"
ok "junk cleared and its keyless answer ignored; $key stored once, acknowledged, exported"

# --- 2. oversize submissions from a rogue client --------------------------------
# over KEY BYTES: a ResultSubmission that starts with its key and a device
# id, then a string field 15 of BYTES bytes; published as table-002.
over() {
    pb_write_padded "$E2E_TMP/$1.bin" "$(pb_s 1 "$1")$(pb_s 2 table-002)" 15 "$2"
    auth_args table-002
    timeout 20 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
        "${AUTH[@]}" -t "$DEV/table-002/result" -f "$E2E_TMP/$1.bin" \
        >"$E2E_TMP/pub.out" 2>"$E2E_TMP/pub.err"
}
over t2.big.1 100000 || fail "100 KB not published: $(cat "$E2E_TMP/pub.err")"
over t2.big.2 4900000 || fail "4.9 MB not published: $(cat "$E2E_TMP/pub.err")"
for k in t2.big.1 t2.big.2; do
    wait_until 20 has_ack table-002 "^key=$k status=rejected reason=malformed " ||
        fail "no MALFORMED ack naming $k: $(acks_of table-002 | tr '\n' '|'); hub: $(tail -n 5 "$E2E_TMP/hub.log")"
    has_ack table-002 "^key=$k .*exceeds the limit of 65536 bytes" ||
        fail "the answer to $k does not name the limit: $(acks_of table-002 | grep "^key=$k ")"
done
ok "100 KB and 4.9 MB submissions refused by their keys: $(acks_of table-002 | grep '^key=t2.big.2 ')"
# Above max_packet_size: the broker announces its limit in CONNACK (MQTT
# v5), so mosquitto_pub does not even send it; either way the broker never
# takes it (its debug log lists every PUBLISH it receives).
over t2.big.3 7000000
grep -q "Received PUBLISH from table-002 .*'$DEV/table-002/result', \.\.\. (7[0-9]\{6\} bytes)" "$BROKER_LOG" &&
    fail "the broker took a 7 MB packet (max_packet_size is 5 MiB)"
grep -q "Received PUBLISH from table-002 .*(49[0-9]\{5\} bytes)" "$BROKER_LOG" ||
    fail "the broker log does not list the 4.9 MB PUBLISH (the check above would prove nothing)"
! has_ack table-002 '^key=t2.big.3 ' || fail "7 MB reached the hub"
grep -q "^max_packet_size 5242880$" "$BROKER_DIR/mosquitto.conf" ||
    fail "the broker's max_packet_size is not the hub's 5 MiB"
ok "7 MB refused by the broker (max_packet_size = the hub's limit)"

# --- 3. an oversize entry in the table's own outbox -------------------------
hl_quit table-001
rm -f "$E2E_TMP/table-001.in"
pb_write_padded "$E2E_TMP/own.bin" "$(pb_s 1 table-001.x.1)$(pb_s 2 table-001)" 15 100000
sqlite3 "$E2E_TMP/table-001.db" \
    "INSERT INTO outbox (key, topic, payload, stored_ms) VALUES ('table-001.x.1', '$DEV/table-001/result', readfile('$E2E_TMP/own.bin'), 0)" ||
    fail "cannot add the oversize entry to table-001's outbox"
hl_start table-001 "$TABLE"
hl_expect table-001 "ack rejected key=table-001.x.1 reason=malformed text=\"result_submission: $(stat -c %s "$E2E_TMP/own.bin") bytes, over the table protocol's limit of 65536; not sent\""
hl_expect table-001 "net online queued=0"
grep -q 'result key=table-001.x.1 refused' "$E2E_TMP/table-001.err" ||
    fail "table-001 did not log the refusal; $(hl_tail table-001)"
[ "$(sqlite3 "$E2E_TMP/table-001.db" "SELECT done, ack_status FROM outbox WHERE key = 'table-001.x.1'")" = "1|2" ] ||
    fail "the oversize entry is not settled as rejected in the outbox"
ok "the table's own oversize entry settled as rejected by its key, nothing queued"

hl_quit table-001
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
