#!/usr/bin/env bash
# test_console_malformed.sh - every console request the hub cannot decode
# gets a reply naming the problem, as long as its correlation id can be
# read (issue 13; docs/protocol.md "Console requests").
#
# Against a real mosquitto and hub: organiser o1 publishes hand-built
# malformed ConsoleRequests (missing required fields, bad ids, wrong wire
# types, truncations, trailing garbage, invalid UTF-8, out-of-range
# values, no command, an oversize request) on ctl/o1/req, each with its own
# correlation id.  A monitor reads ctl/o1/resp.  Each must be answered
# exactly once with ok=false, error INVALID (2) and a message that names
# the offending field.  A request whose correlation id itself cannot be
# read cannot be answered: the hub logs it (and the hub still serves).
#
# usage: bash test_console_malformed.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
source "$E2E_SRC/tests/e2e/pb.sh"
need_binaries TOURNEY HUB TABLE WIRETOOL
hl_hub 1
live 0 event create mf --format catan --title "Malformed" --seed 3

REQ=tourney/v1/ctl/o1/req
RESP=tourney/v1/ctl/o1/resp
e2e_sub_start replies watch "$RESP" -- -F 'MSG %r %t %x'

declare -A WANT=()
IDS=()
# bad ID REGEX HEX...: request ID (its correlation id first) made of the
# HEX fields; its reply's message must match REGEX.
bad() {
    local id=$1 re=$2
    shift 2
    WANT[$id]=$re
    IDS+=("$id")
    pb_write "$E2E_TMP/$id.bin" "$(pb_s 1 "$id")$(printf '%s' "$@")"
}
O=$(pb_s 2 o1)
E=$(pb_s 3 mf)
# Command fields of ConsoleRequest (console.proto).
CREATE=10 IMPORT=11 REGISTER=12 DROP=13 DQ=14 REJOIN=15 PAIR=16 DRAFT=17
SWAP=18 MOVE=19 FIX=20 PUBLISH=21 CSTART=22 CEXTEND=25 ENTER=26 PENALTY=27
EXPORT=29 ASSIGN=31 CLOSE=32 NEXT=33 LIST=34

bad m01 'organiser_id: missing'
bad m02 'console_request.command: missing' "$O" "$E"
bad m03 'event_id: expected an id' "$O" "$(pb_s 3 'bad id!')" "$(pb_b $PAIR '')"
bad m04 'event_id: longer than 64' "$O" "$(pb_s 3 "$(printf 'e%.0s' {1..65})")" "$(pb_b $EXPORT '')"
bad m05 'organiser_id' "$(pb_s 2 'o 1')" "$E" "$(pb_b $PAIR '')"
bad m06 'pair_round: wrong wire type' "$O" "$E" "$(pb_i $PAIR 1)"
bad m07 'pair_round: truncated' "$O" "$E" "$(pb_tag $PAIR 2)0a0801"
bad m08 'console_request: truncated field key' "$O" "$E" "$(pb_b $LIST '')" ffffff
bad m09 'create_event.preset: missing' "$O" "$E" "$(pb_b $CREATE "$(pb_s 3 title)")"
bad m10 'create_event.preset: not valid UTF-8' "$O" "$E" "$(pb_b $CREATE "$(pb_tag 1 2)02fffe")"
bad m11 'import_players.csv' "$O" "$E" "$(pb_b $IMPORT '')"
bad m12 'register_player.player' "$O" "$E" "$(pb_b $REGISTER '')"
bad m13 'register_player.player' "$O" "$E" "$(pb_b $REGISTER "$(pb_b 1 "$(pb_s 1 'p x')")")"
bad m14 'drop_player.player_id' "$O" "$E" "$(pb_b $DROP "$(pb_i 2 1)")"
bad m15 'disqualify_player.reason: not valid UTF-8' "$O" "$E" "$(pb_b $DQ "$(pb_s 1 p1)$(pb_tag 3 2)02c328")"
bad m16 'swap_players.player_b' "$O" "$E" "$(pb_b $SWAP "$(pb_i 1 1)$(pb_s 2 mf-p1)")"
bad m17 'swap_players.player_b: a player cannot swap' "$O" "$E" "$(pb_b $SWAP "$(pb_i 1 1)$(pb_s 2 mf-p1)$(pb_s 3 mf-p1)")"
bad m18 'move_table.to_table: same as table' "$O" "$E" "$(pb_b $MOVE "$(pb_i 1 1)$(pb_i 2 2)$(pb_i 3 2)")"
bad m19 'clock_extend.extra_ms' "$O" "$E" "$(pb_b $CEXTEND "$(pb_i 1 1)")"
# extra_ms 0 (a negative one takes an extension back, issue 22)
bad m20 'clock_extend.extra_ms' "$O" "$E" "$(pb_b $CEXTEND "$(pb_i 1 1)$(pb_i 3 0)")"
bad m21 'enter_result.result' "$O" "$E" "$(pb_b $ENTER "$(pb_i 1 1)$(pb_i 2 1)")"
bad m22 'enter_result.result' "$O" "$E" "$(pb_b $ENTER "$(pb_i 1 1)$(pb_i 2 1)$(pb_b 3 '')")"
bad m23 'penalty.points_units' "$O" "$E" "$(pb_b $PENALTY "$(pb_i 1 1)$(pb_i 2 1)$(pb_s 3 mf-p1)$(pb_i 4 0)")"
bad m24 'next_stage.confirm' "$O" "$E" "$(pb_b $NEXT "$(pb_i 1 0)")"
bad m25 'publish_round.round' "$O" "$E" "$(pb_b $PUBLISH "$(pb_i 1 0)")"
bad m26 'pair_round.round' "$O" "$E" "$(pb_b $PAIR "$(pb_i 1 20000)")"
bad m27 'event_id' "$O" "$(pb_b $EXPORT '')"
bad m28 'assign_device.device_id' "$O" "$E" "$(pb_b $ASSIGN "$(pb_s 1 'table 1')$(pb_i 2 1)")"
bad m29 'fix_table.player_id' "$O" "$E" "$(pb_b $FIX "$(pb_i 2 3)")"
bad m30 'rejoin_player.player_id' "$O" "$E" "$(pb_b $REJOIN "$(pb_s 1 '')")"
bad m31 'show_draft.round: wrong wire type' "$O" "$E" "$(pb_b $DRAFT "$(pb_tag 1 1)0100000000000000")"
bad m32 'clock_start.round' "$O" "$E" "$(pb_b $CSTART '')"
bad m33 'close_round.round' "$O" "$E" "$(pb_b $CLOSE '')"
bad m34 'organiser_id: wrong wire type' "$(pb_i 2 7)" "$E" "$(pb_b $LIST '')"
bad m35 'create_event.options_json' "$O" "$(pb_s 3 mf2)" "$(pb_b $CREATE "$(pb_s 1 catan)$(pb_s 5 '{not json')")"
bad m36 'invalid field number 0' "$O" "$E" "$(pb_tag 0 0)00"
# Over the 4 MiB console limit (under the broker's 5 MiB): an import.
IDS+=(m37)
WANT[m37]='exceeds the limit of 4194304 bytes'
pb_write_padded "$E2E_TMP/m37.bin" "$(pb_s 1 m37)$O$E$(pb_tag $IMPORT 2)$(pb_varint 4400003)" 1 4400000

for id in "${IDS[@]}"; do
    auth_args o1
    timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
        "${AUTH[@]}" -t "$REQ" -f "$E2E_TMP/$id.bin" 2>"$E2E_TMP/pub.err" ||
        fail "publish $id: $(cat "$E2E_TMP/pub.err")"
done
# And one whose correlation id has the wrong wire type: unanswerable.
pb_write "$E2E_TMP/x.bin" "$(pb_i 1 5)$O$E$(pb_b $LIST '')"
auth_args o1
timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
    "${AUTH[@]}" -t "$REQ" -f "$E2E_TMP/x.bin" 2>"$E2E_TMP/pub.err" ||
    fail "publish x: $(cat "$E2E_TMP/pub.err")"
ok "${#IDS[@]} malformed requests sent"

# replies: every reply so far, decoded (one line each).
replies() {
    local hex
    e2e_messages replies | while read -r _ _ hex; do
        "$WIRETOOL" reply "$hex" || echo "UNDECODABLE $hex"
    done
}
wait_for 30 "[ \"\$(e2e_messages replies | wc -l)\" -ge ${#IDS[@]} ]" ||
    fail "only $(e2e_messages replies | wc -l) replies for ${#IDS[@]} requests: $(replies | tr '\n' '|'); hub: $(tail -n 5 "$E2E_TMP/hub.log")"
replies >"$E2E_TMP/replies.txt"
! grep -q '^UNDECODABLE' "$E2E_TMP/replies.txt" || fail "undecodable replies: $(grep UNDECODABLE "$E2E_TMP/replies.txt")"
for id in "${IDS[@]}"; do
    n=$(grep -c "^id=$id " "$E2E_TMP/replies.txt")
    [ "$n" -eq 1 ] || fail "$id: $n replies, expected 1: $(tr '\n' '|' <"$E2E_TMP/replies.txt")"
    line=$(grep "^id=$id " "$E2E_TMP/replies.txt")
    case $line in
    "id=$id ok=0 code=2 message="?*) ;;
    *) fail "$id: not an INVALID refusal with a message: $line" ;;
    esac
    msg=${line#*message=}
    printf '%s\n' "$msg" | grep -q -E -e "${WANT[$id]}" ||
        fail "$id: the message does not name /${WANT[$id]}/: $msg"
    echo "  $id: $msg"
done
ok "every malformed request with a readable correlation id was refused, naming the problem"

wait_until 10 grep -q 'console request ignored console=o1: .*no readable correlation_id' "$E2E_TMP/hub.log" ||
    fail "the unanswerable request was not logged: $(tail -n 5 "$E2E_TMP/hub.log")"
live 0 event list
grep -q mf "$E2E_TMP/out" || fail "the hub does not serve after the malformed requests"
ok "the unanswerable request is logged; the hub still serves"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
