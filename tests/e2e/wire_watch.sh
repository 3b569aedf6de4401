# wire_watch.sh - shared by the e2e tests that play the hub by hand
# against a real tourney-table (test_table_headless.sh,
# test_table_simulate.sh): the hub's messages published with
# mosquitto_pub, and what the monitor login sees decoded by
# tests/table/wiretool (protobuf is binary).  Sourced after lib.sh's
# start_broker and need_binaries WIRETOOL.

# shellcheck shell=bash

# watch_start: the monitor "watch" subscribed to tourney/v1/# (payloads
# in hex), e2e_messages watch.
watch_start() {
    e2e_sub_start watch watch 'tourney/v1/#' -- -F 'MSG %r %t %x'
}

# hub_pub TOPIC FILE [mosquitto_pub options]: the hub publishes a file.
hub_pub() {
    local topic=$1 file=$2
    shift 2
    timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
        -u hub -P "$(cred hub)" -t "$topic" -f "$file" "$@" \
        2>"$E2E_TMP/hubpub.err" || fail "hub publish on $topic: $(cat "$E2E_TMP/hubpub.err")"
}

# decoded KIND TOPIC: every message on TOPIC decoded by wiretool, in order.
decoded() {
    local h
    e2e_messages watch | awk -v t="$2" '$2 == t { print $3 }' |
        while read -r h; do "$WIRETOOL" "$1" "$h" || echo "undecodable"; done
}

# count_decoded KIND TOPIC TEXT: how many of them contain TEXT.
count_decoded() {
    decoded "$1" "$2" | grep -c -F -e "$3"
}

# has_decoded KIND TOPIC TEXT: one of them contains TEXT.
has_decoded() { # (no grep -q: with pipefail its early exit fails the pipe)
    decoded "$1" "$2" | grep -F -e "$3" >/dev/null
}

# expect_decoded KIND TOPIC TEXT [SECONDS]: waits (default 10 s) for one.
expect_decoded() {
    wait_until "${4:-10}" has_decoded "$1" "$2" "$3" ||
        fail "no $1 on $2 with \"$3\"; got: $(decoded "$1" "$2" | tr '\n' '|')"
}
