#!/usr/bin/env bash
# test_hub_clock_step.sh - the hub's timers run on the monotonic clock
# (issue 12): a wall clock stepped back an hour while the hub runs (NTP
# correcting a wrong date, an organiser setting the time) delays nothing
# the hub defers.
#
# Real broker, real hub (feed on) under libfaketime (hub_faketime: its wall
# clock is read from a file at every call, its monotonic clock is the true
# one).  A Neuroshima Hex! round is published and its clock started, so the
# feed thread sends the `now` heartbeat every 5 s (docs/feed.md).  Then the
# hub's wall clock goes back 3600 s, and:
# - the next `now` heartbeat still comes (within 12 s: one 5 s period and
#   slack), and its hub_now_ms is about an hour before the last one: the
#   published time is the wall clock's, the schedule is not;
# - `clock pause` reaches the feed's `tables` document (state "paused")
#   within 10 s: the loop's feed_interval_ms wait, deferred before the
#   step, does not become an hour long.
# On timers kept on CLOCK_REALTIME both waits last an hour: the test fails.
#
# usage: bash test_hub_clock_step.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
hl_programs

start_broker --no-ws --tables 2 --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
hub_faketime
live_hub_config 'feed = true'
hub_launch
live 0 wait-hub --timeout 20
EV=step
FEED=tourney/v1/feed/$EV
e2e_sub_start feed watch "$FEED/#"

# now_stamps: the hub_now_ms of every `now` heartbeat received, in order.
now_stamps() {
    e2e_messages feed | sed -n "s|^0 $FEED/now {\"hub_now_ms\":\([0-9]*\),.*|\1|p"
}
paused_tables() {
    e2e_messages feed | grep -c "^[01] $FEED/tables .*\"state\":\"paused\""
}

hl_nh_round "$EV" 5 table-001 table-002
live 0 clock start "$EV"
wait_for 12 '[ "$(now_stamps | wc -l)" -ge 1 ]' ||
    fail "no now heartbeat within 12 s of the clock start: $(e2e_messages feed | cut -c 1-120 | tr '\n' '|')"
ok "clock running, heartbeat seen (hub_now_ms $(now_stamps | tail -n 1))"
[ "$(paused_tables)" -eq 0 ] || fail "the tables document says paused before the pause"

# The feed's interval timer was armed by the builds above; now the hub's
# wall clock goes back an hour.
last=$(now_stamps | tail -n 1)
echo "-3600" >"$E2E_TMP/hub.faketime"
# stepped: the heartbeats sent after the step (an hour before the last).
stepped() {
    now_stamps | awk -v l="$last" '$1 < l - 3000000'
}
wait_for 12 '[ -n "$(stepped)" ]' ||
    fail "no now heartbeat within 12 s after the wall clock went back an hour (heartbeat scheduled on the wall clock?): $(now_stamps | tr '\n' ' ')"
step=$((last - $(stepped | head -n 1)))
[ "$step" -gt 3590000 ] && [ "$step" -lt 3600000 ] ||
    fail "the first heartbeat after the step is $step ms before the last one ($last), expected 3590000..3600000 (an hour back, about one 5 s period on)"
ok "heartbeat kept coming after the step; its hub_now_ms went back ${step} ms"

live 0 clock pause "$EV"
wait_for 10 '[ "$(paused_tables)" -ge 1 ]' ||
    fail "the paused clock did not reach the feed's tables document within 10 s after the wall clock went back (feed interval on the wall clock?): $(tail -n 3 "$E2E_TMP/hub.log" | tr '\n' '|')"
ok "clock pause reached the feed at once after the wall clock went back"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
