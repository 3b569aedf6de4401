#!/usr/bin/env bash
# test_table_wall_step.sh - a table's timers run on CLOCK_MONOTONIC (issue
# 12): its wall clock stepped back (an NTP correction, a Pi without a
# real-time clock setting its time after boot) delays nothing.  One
# headless tourney-table runs under libfaketime with
# FAKETIME_DONT_FAKE_MONOTONIC=1 (only CLOCK_REALTIME is faked) and
# FAKETIME_TIMESTAMP_FILE, so the test steps the table's wall clock while
# it runs; broker, hub and organiser run on the true clock.
# - libfaketime really steps the process's wall clock (date under it);
# - the round clock: the hub's deadline converted through the time-sync
#   offset (docs/protocol.md "Time sync") keeps counting down across a
#   one-hour step back: `status` shows the same remaining time within 1 s
#   of the hub's deadline minus the true now (before and after the step);
# - the outbox's resend (docs/protocol.md: 1-5 s, doubling to 60 s): the
#   hub stopped (SIGSTOP), a result is sent, the wall clock is stepped back
#   two hours after that first send, and two more copies of the same
#   submission still reach the broker (at most 5 + 10 s later by the
#   schedule; waited for up to 30 s); resumed, the hub acknowledges it.
# With the timers on the wall clock the resend would come two hours late
# and the round clock would show an hour more.
#
# Skips (exit 77) without libfaketime or sqlite3, or when the sanitizer
# build cannot start under it, as test_table_clock_skew.sh does.
#
# usage: bash test_table_wall_step.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-180}

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
e2e_faketime_lib
command -v sqlite3 >/dev/null || skip "no sqlite3 command (Debian package sqlite3; deploy/install-deps.sh)"

# The table's wall-clock offset, read afresh at every clock call.
STEP=$E2E_TMP/faketime
echo "+0" >"$STEP"
stepped() {
    exec env LD_PRELOAD="$FT" FAKETIME_TIMESTAMP_FILE="$STEP" FAKETIME_NO_CACHE=1 \
        FAKETIME_DONT_FAKE_MONOTONIC=1 \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
# step OFFSET SECONDS: the table's wall clock set to OFFSET ("-1h") and
# checked: date under the same settings is off by SECONDS (within 5 s).
step() {
    local off
    echo "$1" >"$STEP"
    off=$(($(stepped date +%s) - $(date +%s)))
    [ "$off" -ge $(($2 - 5)) ] && [ "$off" -le $(($2 + 5)) ] ||
        fail "libfaketime $1: date is off by $off s, expected $2"
}
step -1h -3600
step +0 0
if ! (stepped "$TABLE" --version) >"$E2E_TMP/v.out" 2>&1; then
    if grep -q -i 'asan\|addresssanitizer' "$E2E_TMP/v.out"; then
        skip "the sanitizer build does not run under libfaketime: $(head -n 2 "$E2E_TMP/v.out" | tr '\n' ' ')"
    fi
    fail "tourney-table --version under libfaketime: $(head -n 5 "$E2E_TMP/v.out")"
fi
ok "libfaketime steps the wall clock through $STEP (monotonic clock not faked)"

hl_hub 1
D=table-001
hl_conf "$D"
hl_start "$D" stepped "$TABLE"
hl_expect "$D" "net online queued=0"
grep -q faketime "/proc/${HL_PID[$D]}/maps" || fail "$D runs without libfaketime"
EV=wallstep
hl_nh_round "$EV" 5 "$D"
hl_assigned "$D" "$EV" 1
hl_expect "$D" "hub online"

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}
hub_clock() {
    sqlite3 "$E2E_TMP/hub.db" "SELECT $1 FROM clocks;" 2>"$E2E_TMP/sq.err" ||
        fail "sqlite3 on the hub database: $(cat "$E2E_TMP/sq.err")"
}
# check_round_clock WHEN: the table's remaining time against the hub's
# deadline minus the true now, within 1 s.
check_round_clock() {
    local t_ask t_got tab hub diff
    t_ask=$(now_ms)
    hl_say "$D" status
    hl_expect_new "$D" "status end" 10
    t_got=$(now_ms)
    tab=$(tail -n +"$((HL_MARK[$D] + 1))" "$E2E_TMP/$D.out" |
        sed -n 's/^clock remaining_ms=\([0-9-]*\) state=running$/\1/p' | tail -n 1)
    [ -n "$tab" ] || fail "$1: no running clock in status; $(hl_tail "$D")"
    hub=$(($(hub_clock deadline_ms) - (t_ask + t_got) / 2))
    diff=$((tab - hub))
    [ "${diff#-}" -le 1000 ] ||
        fail "$1: the table shows $tab ms, hub deadline - now is $hub ms (off by $diff ms)"
    ok "$1: the table shows $tab ms, hub deadline - now $hub ms (diff $diff ms)"
}

hl_mark "$D"
live 0 clock start "$EV"
wait_until 30 eval "tail -n +\$((HL_MARK[$D] + 1)) \"\$E2E_TMP/$D.out\" | grep -q '^clock remaining_ms=[0-9]* state=running\$'" ||
    fail "no running clock; $(hl_tail "$D")"
check_round_clock "round clock, wall clock true"
step -1h -3600
check_round_clock "round clock, wall clock stepped back 1 h"

# --- the outbox's resend ------------------------------------------------------
RT=tourney/v1/device/$D/result
e2e_sub_start watch watch "$RT" -- -F 'MSG %r %t %x'
sends() {
    e2e_messages watch | awk -v t="$RT" '$2 == t' | wc -l
}
kill -STOP "$HUB_PID"
read -r _ w l < <(sed -n "s/^assigned event=$EV round=1 table=1 .* seats=\([^, ]*\),\([^ ]*\).*/x \1 \2/p" "$E2E_TMP/$D.out" | tail -n 1)
[ -n "$l" ] || fail "no seats in the assignment; $(hl_tail "$D")"
hl_say "$D" "result winner=$w hq_diff=4" "confirm $w" "confirm $l"
wait_until 10 eval '[ "$(sends)" -ge 1 ]' || fail "the result was not sent; $(hl_tail "$D")"
step -2h -7200
n0=$(sends)
wait_until 30 eval '[ "$(sends)" -ge $((n0 + 2)) ]' ||
    fail "wall clock stepped back 2 h after the first send: $(($(sends) - n0)) resends in 30 s, expected 2; $(hl_tail "$D")"
[ "$(e2e_messages watch | awk -v t="$RT" '$2 == t { print $3 }' | sort -u | wc -l)" -eq 1 ] ||
    fail "the resends are not the same bytes as the first send"
ok "wall clock stepped back 2 h after the first send: $(($(sends) - n0)) resends of the same submission"
hl_mark "$D"
kill -CONT "$HUB_PID"
hl_expect_new "$D" "state done" 30
hl_expect_new "$D" "net online queued=0" 30
ok "the hub resumed and acknowledged the result"

hl_quit "$D"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
