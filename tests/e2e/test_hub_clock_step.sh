#!/usr/bin/env bash
# test_hub_clock_step.sh - a wall clock stepped while the hub runs moves
# nothing the hub defers or publishes: its timers run on the monotonic
# clock (issue 12) and the time it publishes (the feed's hub_now_ms, its
# clock documents, the tables' time sync) is the hub's clock, the wall
# clock read at start-up moved on by the monotonic one (issue 23: a +2 h
# step made the feed say every table was overdue while the tables were
# right).
#
# Real broker, real hub (feed on) under libfaketime (hub_faketime: its wall
# clock is read from a file at every call, its monotonic clock is the true
# one).  A Neuroshima Hex! round is published and its clock started, so the
# feed thread sends the `now` heartbeat every 5 s (docs/feed.md).  Then:
# - the hub's wall clock goes 2 hours on: the next `now` heartbeat's
#   hub_now_ms is a period (not 2 hours) after the last one; a result then
#   rebuilds the feed's `tables` document: no table is "overdue", its
#   clock's remaining_ms (and deadline_ms - hub_now_ms) is what was left
#   before the step less the seconds that passed;
# - the wall clock goes 3 hours back (an hour before the true time): the
#   next heartbeat still comes within 12 s (its schedule is monotonic) and
#   its hub_now_ms did not go back; `clock pause` reaches the feed's
#   `tables` document (state "paused") within 10 s (the loop's
#   feed_interval_ms wait, deferred before the step, does not become an
#   hour long), with the remaining time of a clock that did not jump.
# On a hub that publishes its wall clock the heartbeat jumps with each
# step and the tables go overdue; on timers kept on CLOCK_REALTIME the
# waits last an hour: the test fails.
#
# usage: bash test_hub_clock_step.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
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
# last_tables: the last `tables` document received (JSON).
last_tables() {
    e2e_messages feed | sed -n "s|^[01] $FEED/tables ||p" | tail -n 1
}
# clock_left DOC: the round clock's remaining_ms and deadline_ms -
# hub_now_ms of a `tables` document, "REMAINING LEFT".
clock_left() {
    jq -r '.clock | "\(.remaining_ms) \(if .deadline_ms then .deadline_ms - .hub_now_ms else .remaining_ms end)"' <<<"$1"
}

hl_nh_round "$EV" 5 table-001 table-002
live 0 clock start "$EV"
t_start=$(date +%s%3N)
wait_for 12 '[ "$(now_stamps | wc -l)" -ge 1 ]' ||
    fail "no now heartbeat within 12 s of the clock start: $(e2e_messages feed | cut -c 1-120 | tr '\n' '|')"
wait_for 10 '[ "$(last_tables | jq -r .clock.state)" = running ]' ||
    fail "no running clock in the tables document: $(last_tables)"
read -r left0 _ < <(clock_left "$(last_tables)")
[ "$left0" -gt 60000 ] || fail "the round clock has $left0 ms at its start"
ok "clock running ($left0 ms left), heartbeat seen (hub_now_ms $(now_stamps | tail -n 1))"
[ "$(paused_tables)" -eq 0 ] || fail "the tables document says paused before the pause"

# step OFFSET WHAT: sets the hub's wall clock to the true time + OFFSET s
# and checks the next heartbeat: within 12 s (its schedule is monotonic)
# and 0..12 s after the one before (the hub's clock did not move).
step() {
    local last n_beats next
    last=$(now_stamps | tail -n 1)
    n_beats=$(now_stamps | wc -l)
    echo "$1" >"$E2E_TMP/hub.faketime"
    wait_for 12 '[ "$(now_stamps | wc -l)" -gt "$n_beats" ]' ||
        fail "no now heartbeat within 12 s after the wall clock $2 (heartbeat scheduled on the wall clock?): $(now_stamps | tr '\n' ' ')"
    next=$(now_stamps | sed -n "$((n_beats + 1))p")
    [ $((next - last)) -ge 0 ] && [ $((next - last)) -le 12000 ] ||
        fail "the heartbeat after the wall clock $2 is $((next - last)) ms after the one before (expected 0..12000: the hub's clock does not jump)"
    ok "heartbeat after the wall clock $2: $((next - last)) ms after the last one"
}

# The hub's wall clock goes 2 hours on (issue 23).
step +7200 "went 2 hours on"

# A result rebuilds the tables document: table 2 is still playing.
live 0 round show "$EV" --json
read -r t1 w l < <(jq -r '.tables[] | select(.table == 1) | "\(.table) \(.players[0]) \(.players[1])"' "$E2E_TMP/out")
[ -n "$l" ] || fail "table 1's players: $(head -c 300 "$E2E_TMP/out")"
live 0 result enter "$EV" 1 1 "{\"winner\": \"$w\", \"hq_diff\": 3}"
wait_for 10 '[ "$(last_tables | jq -r ".tables[] | select(.table == 1) | .state")" = confirmed ]' ||
    fail "table 1's result did not reach the tables document: $(last_tables)"
doc=$(last_tables)
passed=$(($(date +%s%3N) - t_start))
overdue=$(jq -r '[.tables[] | select(.state == "overdue")] | length' <<<"$doc")
[ "$overdue" -eq 0 ] || fail "after a +2 h wall clock step $overdue table(s) overdue: $doc"
[ "$(jq -r '.tables[] | select(.table == 2) | .state' <<<"$doc")" = playing ] ||
    fail "table 2 is not playing after the step: $doc"
read -r left gap < <(clock_left "$doc")
for v in "$left" "$gap"; do
    [ "$v" -le "$left0" ] && [ "$v" -ge $((left0 - passed - 2000)) ] ||
        fail "after a +2 h step the feed's clock has $v ms left (remaining_ms $left, deadline_ms - hub_now_ms $gap), expected $((left0 - passed))..$left0"
done
ok "after +2 h on the wall clock no table is overdue; the feed's clock has $left ms left ($left0 at the start, $passed ms ago)"

# The wall clock goes 3 hours back: an hour before the true time.
step -3600 "went 3 hours back"

live 0 clock pause "$EV"
wait_for 10 '[ "$(paused_tables)" -ge 1 ]' ||
    fail "the paused clock did not reach the feed's tables document within 10 s after the wall clock went back (feed interval on the wall clock?): $(tail -n 3 "$E2E_TMP/hub.log" | tr '\n' '|')"
passed=$(($(date +%s%3N) - t_start))
read -r left _ < <(clock_left "$(last_tables)")
[ "$left" -le "$left0" ] && [ "$left" -ge $((left0 - passed - 2000)) ] ||
    fail "the paused clock has $left ms left, expected $((left0 - passed))..$left0"
ok "clock pause reached the feed at once after the wall clock went back; $left ms left"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
