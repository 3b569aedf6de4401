#!/usr/bin/env bash
# test_clock_mid_round.sh - clocks right after anything (issue 8 part 2):
# tables and the dashboard that (re)start, are assigned or reconnect in
# the middle of a round show the hub's remaining time within 1 s, whatever
# their own system clock says.  Real broker, real hub (feed on), headless
# tables under libfaketime (table-001 two hours ahead, table-002 and
# table-003 37 minutes behind), the dashboard in tmux.
#
# The round is 2 minutes old when the checks begin, in the hub's time: the
# hub runs under libfaketime with a clock file, and right after the round
# clock started (and its retained RoundClock was published), before any
# table or dashboard is up, the hub's clock is moved 2 minutes on
# (FAKETIME_TIMESTAMP_FILE "+120"; its monotonic clock is left alone).
# For the hub, and for every client that takes the hub's time, the round
# has then been running 2 minutes and a few seconds; a client that took
# the time from the retained message (its hub_now_ms, as before the time
# sync) would show 2 minutes too many.
# - round 1 (3 tables) started; table-003 runs unassigned;
# - table-001 killed (SIGKILL) and started again: within 1 s;
# - table-003 assigned to table 3 (device assign) mid-round: within 1 s;
# - the dashboard opened mid-round: its "clock M:SS running" within 1 s
#   (the screen has whole seconds: the hub's remaining time lies in
#   (M:SS - 1 s, M:SS], allowed 1 s either side) once it says "running"
#   (before the hub's time is known: "running, hub time not known yet");
# - the hub restarted mid-round (SIGTERM, started again): the tables and
#   the dashboard within 1 s again;
# - the round closed: the dashboard shows the clock stopped and it does
#   not move; a table whose result is in shows its clock stopped.
# The hub's remaining time is its stored deadline (sqlite3) minus the true
# time at the moment of the reading.  The dashboard and all the test's
# commands run as organiser o1 at the same time, on the broker's console
# listener (several connections per login).
#
# Without libfaketime or sqlite3 (or a sanitized build that cannot run
# under it) it prints "SKIP: ..." and exits 77.
#
# usage: bash test_clock_mid_round.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
e2e_faketime_lib
command -v sqlite3 >/dev/null || skip "no sqlite3 command (Debian package sqlite3)"
declare -A SKEW=([table-001]=+2h [table-002]=-37m [table-003]=-37m)
skewed() {
    local d=$1
    shift
    exec env LD_PRELOAD="$FT" FAKETIME="${SKEW[$d]}" \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
if ! (skewed table-001 "$TABLE" --version) >"$E2E_TMP/v.out" 2>&1; then
    grep -q -i 'asan\|addresssanitizer' "$E2E_TMP/v.out" &&
        skip "the sanitizer build does not run under libfaketime"
    fail "tourney-table under libfaketime: $(head -n 5 "$E2E_TMP/v.out")"
fi
AGE=3
# The hub's clock: true time + HUB_SKEW_S (0, then 120 once the round
# clock started), read from $E2E_TMP/hub.faketime by libfaketime at every
# call (hub_faketime).
HUB_SKEW_S=0

start_broker --no-ws --tables 3 --organisers o1,o2
source "$E2E_SRC/tests/e2e/live_hub.sh"
hub_faketime
live_hub_config 'feed = true' 'feed_interval_ms = 50'
# Organiser o1 on the console listener: the dashboard and every command
# of this test run as o1 at the same time (issue 8 part 5).
sed -i "s|^broker = .*|broker = \"tcp://$BROKER_HOST:$BROKER_CONSOLE_PORT\"|" \
    "$XDG_CONFIG_HOME/tourney/console.conf"
hub_launch
live 0 wait-hub --timeout 20

start_table() { # DEVICE
    hl_start "$1" skewed "$1" "$TABLE"
    hl_expect "$1" "net online queued=0"
}
EV=mid
hl_nh_round "$EV" 5 table-001 table-002 table-003
grep -q -x '  3 tables at a device, 0 without one' "$E2E_TMP/out" &&
    grep -q -x '  table 3    device table-003 (Pi)' "$E2E_TMP/out" ||
    fail "round publish summary: $(cat "$E2E_TMP/out")"
live 0 device assign table-003 "$EV" 0
live 0 clock start "$EV"
T_START=$(date +%s)
# Two minutes pass for the hub, before any table or dashboard is up: for
# all of them the hub's time is the time (its clock did not jump under
# anybody's feet), and the retained RoundClock is 2 minutes old.
echo "+120" >"$E2E_TMP/hub.faketime"
HUB_SKEW_S=120
# The hub's clock is the wall clock read at its start moved on by the
# monotonic one (hub/clock.h, issue 23): a step while it runs moves
# nothing, so the hub starts again to take the new time.
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
hub_launch
live 0 wait-hub --timeout 20
for d in table-001 table-002 table-003; do
    hl_conf "$d"
    start_table "$d"
done
hl_assigned table-001 "$EV" 1
hl_assigned table-002 "$EV" 2
hub_now_off() { # the hub's clock minus the true one, in s (its log's view)
    echo $(($(env LD_PRELOAD="$FT" FAKETIME_TIMESTAMP_FILE="$E2E_TMP/hub.faketime" FAKETIME_NO_CACHE=1 date +%s) - $(date +%s)))
}
off=$(hub_now_off)
[ "$off" -ge 119 ] && [ "$off" -le 121 ] || fail "libfaketime's clock file moves time by $off s, expected 120"
ok "round 1 of 3 tables started, the hub's clock moved 2 minutes on, then the tables came up (clocks +2h, -37m, -37m; table-003 unassigned)"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
hub_deadline() {
    sqlite3 "$E2E_TMP/hub.db" "SELECT deadline_ms FROM clocks;" 2>"$E2E_TMP/sq.err" ||
        fail "sqlite3: $(cat "$E2E_TMP/sq.err")"
}
# check_table D WHAT: D's `status` clock (running) within 1 s of the hub's
# deadline minus the true time around the request.
check_table() {
    local d=$1 ask got tab hub diff
    ask=$(now_ms)
    hl_say "$d" status
    hl_expect_new "$d" "status end" 10
    got=$(now_ms)
    tab=$(tail -n +"$((HL_MARK[$d] + 1))" "$E2E_TMP/$d.out" |
        sed -n 's/^clock remaining_ms=\([0-9-]*\) state=running$/\1/p' | tail -n 1)
    [ -n "$tab" ] || fail "$2: $d shows no running clock; $(hl_tail "$d")"
    hub=$(($(hub_deadline) - (ask + got) / 2 - HUB_SKEW_S * 1000))
    diff=$((tab - hub))
    [ "${diff#-}" -le 1000 ] ||
        fail "$2: $d (clock ${SKEW[$d]}) shows $tab ms, the hub $hub ms (off by $diff ms)"
    ok "$2: $d (clock ${SKEW[$d]}) shows $tab ms, hub $hub ms (diff $diff ms)"
}
wait_age() { # the retained clock message is at least AGE s old
    while [ $(($(date +%s) - T_START)) -le "$AGE" ]; do sleep 0.2; done
}
wait_sync() { # D: the table printed a time sync since its start
    wait_until 10 grep -q '^time sync offset_ms=' "$E2E_TMP/$1.out" ||
        fail "$1: no time sync; $(hl_tail "$1")"
}

wait_age
# --- a table killed and started again mid-round -------------------------------
kill -KILL "${HL_PID[table-001]}"
wait "${HL_PID[table-001]}" 2>/dev/null
eval "exec ${HL_FD[table-001]}>&-"
rm -f "$E2E_TMP/table-001.in"
start_table table-001
hl_assigned table-001 "$EV" 1
wait_sync table-001
check_table table-001 "killed and restarted mid-round"
check_table table-002 "running all along"

# --- a table assigned mid-round -----------------------------------------------
live 0 device assign table-003 "$EV" 3
hl_assigned table-003 "$EV" 3
wait_until 10 grep -q '^clock remaining_ms=[0-9]* state=running$' "$E2E_TMP/table-003.out" ||
    fail "table-003: no clock; $(hl_tail table-003)"
check_table table-003 "assigned $(($(date +%s) - T_START + HUB_SKEW_S)) s into the round"

# --- the dashboard opened mid-round ------------------------------------------
SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
printf '%s\n' "export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 TERM=screen" \
    "exec '$TOURNEY' live console $EV 2>'$E2E_TMP/console.err'" \
    >"$E2E_TMP/pane.sh"
tm -f /dev/null new-session -d -s tui -x 100 -y 30 "bash '$E2E_TMP/pane.sh'" || fail "tmux"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
# dash_clock STATE: DASH = the dashboard's "clock [-]H:MM:SS|M:SS STATE"
# in ms; T_ASK/T_GOT around the capture.
dash_clock() {
    local txt sign=1 s=0 part
    T_ASK=$(now_ms)
    txt=$(screen | grep -o -E "clock -?[0-9]+(:[0-9]{2})+ $1( |\$)" | head -n 1)
    T_GOT=$(now_ms)
    [ -n "$txt" ] || return 1
    txt=${txt#clock }
    txt=${txt%% *}
    if [ "${txt:0:1}" = - ]; then sign=-1; txt=${txt#-}; fi
    IFS=: read -r -a parts <<<"$txt"
    for part in "${parts[@]}"; do s=$((s * 60 + 10#$part)); done
    DASH=$((sign * s * 1000))
}
check_dashboard() { # WHAT
    local hub lo hi
    # "running" once the hub's time is known (before: "running, hub time
    # not known yet", a round trip after the start).
    wait_until 20 dash_clock running || fail "$1: no running clock on the dashboard: $(screen)"
    hub=$(($(hub_deadline) - (T_ASK + T_GOT) / 2 - HUB_SKEW_S * 1000))
    # Whole seconds rounded up: hub in (DASH - 1000, DASH]; 1 s either side.
    lo=$((DASH - 2000)) hi=$((DASH + 1000))
    [ "$hub" -ge "$lo" ] && [ "$hub" -le "$hi" ] ||
        fail "$1: the dashboard shows $DASH ms, the hub $hub ms: $(screen | head -n 8)"
    ok "$1: the dashboard shows $DASH ms (whole seconds), the hub $hub ms"
}
check_dashboard "dashboard opened $(($(date +%s) - T_START + HUB_SKEW_S)) s into the round"

# --- the hub restarted mid-round ---------------------------------------------
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
for d in table-001 table-002; do hl_mark "$d"; done
hub_launch
live 0 wait-hub --timeout 20
for d in table-001 table-002; do hl_expect_new "$d" "hub online" 20; done
check_table table-001 "after a hub restart"
check_table table-002 "after a hub restart"
check_table table-003 "after a hub restart"
check_dashboard "dashboard after a hub restart"

# --- the round closes: clocks stop -------------------------------------------
live 0 export "$EV"
tr -d ' \n\t' <"$E2E_TMP/out" | grep -o -E '"table":[0-9]+,"players":\["[^"]*","[^"]*"\]' |
    sed -E 's/"table":([0-9]+),"players":\["([^"]*)","([^"]*)"\]/\1 \2 \3/' >"$E2E_TMP/tables"
[ "$(wc -l <"$E2E_TMP/tables")" -eq 3 ] || fail "three tables in the export"
read -r _ w l < <(grep '^1 ' "$E2E_TMP/tables")
hl_mark table-001
hl_say table-001 "result winner=$w hq_diff=4" "confirm $w" "confirm $l"
hl_expect_new table-001 "state done" 30
hl_say table-001 status
hl_expect_new table-001 "status end" 10
s1=$(tail -n +"$((HL_MARK[table-001] + 1))" "$E2E_TMP/table-001.out" |
    sed -n 's/^clock remaining_ms=\([0-9-]*\) state=running stopped$/\1/p' | tail -n 1)
sleep 1.5
hl_say table-001 status
hl_expect_new table-001 "status end" 10
s2=$(tail -n +"$((HL_MARK[table-001] + 1))" "$E2E_TMP/table-001.out" |
    sed -n 's/^clock remaining_ms=\([0-9-]*\) state=running stopped$/\1/p' | tail -n 1)
[ -n "$s1" ] && [ "$s1" = "$s2" ] || fail "finished table-001's clock: '$s1' then '$s2'; $(hl_tail table-001)"
ok "a finished table's clock stands: $s1 ms, 1.5 s later $s2 ms"
while read -r t w l; do
    [ "$t" = 1 ] && continue
    live 0 result enter "$EV" 1 "$t" "{\"winner\": \"$w\", \"hq_diff\": 3}"
done <"$E2E_TMP/tables"
live 0 round close "$EV"
wait_until 20 dash_clock 'stopped: round closed' ||
    fail "the dashboard does not show the clock stopped: $(screen | head -n 8)"
c1=$DASH
sleep 1.5
dash_clock 'stopped: round closed' || fail "the stopped clock went away: $(screen | head -n 8)"
[ "$DASH" = "$c1" ] || fail "the closed round's clock moved on the dashboard: $c1 -> $DASH ms"
ok "a closed round's clock stands on the dashboard: $c1 ms"
screen | grep -q 'broker: connected' || fail "the dashboard lost its connection: $(screen | head -n 2)"
grep -q "already connected, closing old connection" "$BROKER_LOG" &&
    fail "a connection was taken over: $(grep 'already connected' "$BROKER_LOG" | head -n 3)"
ok "the dashboard and every command ran as o1 at once on the console listener: no connection closed"
e2e_done
