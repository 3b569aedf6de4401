#!/usr/bin/env bash
# test_ag14_table_clocks.sh - AG-14 (seed 002 S6): each Agricola table's
# 105 minutes start with its own draft.  Real broker, hub and two headless
# tourney-table devices (headless.sh):
# - after `clock start` both tables wait for their draft: their clock is
#   not started, with the whole 105 minutes (6300000 ms) left;
# - table-001 starts its draft (`draft`): the hub records it (log
#   "clock.draft_start"), table-001's clock runs and shows its remaining
#   time within 1 s of the hub's (round deadline + its start delay - now),
#   table-002 still waits;
# - 3 s later the organiser starts table 2's draft (clock draft): its start delay is at least 3 s
#   more than table-001's, and each table shows its own remaining time
#   within 1 s of the hub's;
# - a second `draft` is refused at the table, and the hub records one
#   start per table;
# - the round paused: each table shows its own frozen time (hub's
#   remaining + its start delay), within 1 s;
# - the organiser's dashboard (`tourney live console`, tmux, feed on)
#   shows "draft?" for a playing table that waits for its draft, then each
#   table's own time left in its grid cell, within 1 s of the hub's (the
#   screen has whole seconds, rounded up).
#
# usage: bash test_ag14_table_clocks.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
e2e_init "$@"
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
command -v sqlite3 >/dev/null || {
    echo "SKIP: $E2E_NAME: no sqlite3 command (Debian package sqlite3; deploy/install-deps.sh)"
    exit 77
}
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
start_broker --no-ws --tables 2 --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50'
# The dashboard and the test's commands both run as o1: the console
# listener takes several connections per login.
sed -i "s|^broker = .*|broker = \"tcp://$BROKER_HOST:$BROKER_CONSOLE_PORT\"|" \
    "$XDG_CONFIG_HOME/tourney/console.conf"
hub_launch
live 0 wait-hub --timeout 20
for d in table-001 table-002; do
    hl_conf "$d"
    hl_start "$d" "$TABLE"
done
for d in table-001 table-002; do hl_expect "$d" "net online queued=0"; done

EV=ag
live 0 event create "$EV" --format agricola --title "AG-14 cup" --seed 4
{
    echo 'id,name'
    for i in 1 2 3 4 5 6 7 8; do echo "p$i,Player $i"; done
} >"$E2E_TMP/players.csv"
live 0 players import "$EV" "$E2E_TMP/players.csv"
live 0 device assign table-001 "$EV" 1
live 0 device assign table-002 "$EV" 2
live 0 round pair "$EV"
live 0 round publish "$EV"
for t in 1 2; do hl_assigned "table-00$t" "$EV" "$t"; done
live 0 clock start "$EV"

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}
sq() {
    sqlite3 "$E2E_TMP/hub.db" "$1" 2>"$E2E_TMP/sq.err" ||
        fail "sqlite3 on the hub database: $(cat "$E2E_TMP/sq.err")"
}
# delay TABLE: the start delay the hub recorded for TABLE ("" = none).
delay() {
    sq "SELECT json_extract(detail, '\$.start_delay_ms') FROM log
        WHERE kind = 'clock.draft_start' AND event_name = '$EV'
        AND json_extract(detail, '\$.table') = $1;"
}
# table_clock D STATE: TAB = remaining_ms of a fresh `status` clock line of
# device D in STATE (a suffix allowed); T_ASK/T_GOT around the request.
table_clock() {
    T_ASK=$(now_ms)
    hl_say "$1" status
    hl_expect_new "$1" "status end" 10
    T_GOT=$(now_ms)
    TAB=$(tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" |
        sed -n "s/^clock remaining_ms=\([0-9-]*\) state=$2\( .*\)\{0,1\}\$/\1/p" | tail -n 1)
    [ -n "$TAB" ] || fail "$1: no $2 clock in status; $(hl_tail "$1")"
}
# wait_line D ERE: D printed a line matching ERE since its mark.
wait_line() {
    wait_until 30 eval "tail -n +\$((HL_MARK[$1] + 1)) \"\$E2E_TMP/$1.out\" | grep -q -E '$2'" ||
        fail "$1: no line like $2; $(hl_tail "$1")"
}
# compare_running T: table-00T's remaining time against the hub's
# (round deadline + the table's start delay - now), within 1 s.
compare_running() {
    local d=table-00$1 hub diff
    table_clock "$d" running
    hub=$(($(sq "SELECT deadline_ms FROM clocks;") + $(delay "$1") - (T_ASK + T_GOT) / 2))
    diff=$((TAB - hub))
    [ "${diff#-}" -le 1000 ] ||
        fail "AG-14: $d shows $TAB ms, the hub's time for table $1 is $hub ms (off by $diff ms)"
    ok "AG-14: $d running: shows $TAB ms, hub $hub ms (diff $diff ms)"
}

# --- the dashboard ---------------------------------------------------------
SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
printf '%s\n' "export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 TERM=screen" \
    "exec '$TOURNEY' live console $EV 2>'$E2E_TMP/console.err'" \
    >"$E2E_TMP/pane.sh"
tm -f /dev/null new-session -d -s tui -x 100 -y 30 "bash '$E2E_TMP/pane.sh'" || fail "tmux"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
# dash_table T: DASH = table T's own time in its grid cell ("T1   Pi playing
# 1:44:57"), in ms; T_ASK/T_GOT around the capture.
dash_table() {
    local txt s=0 part
    T_ASK=$(now_ms)
    txt=$(screen | grep -o -E "T$1 +Pi playing [0-9]+(:[0-9]{2})+" | head -n 1)
    T_GOT=$(now_ms)
    [ -n "$txt" ] || return 1
    txt=${txt##* }
    IFS=: read -r -a parts <<<"$txt"
    for part in "${parts[@]}"; do s=$((s * 60 + 10#$part)); done
    DASH=$((s * 1000))
}
# check_dash T: table T's cell within 1 s of the hub's time for table T
# (whole seconds rounded up: the hub's time lies in (DASH - 1 s, DASH]).
check_dash() {
    local hub
    wait_until 20 dash_table "$1" || fail "AG-14: no own time for table $1 on the dashboard: $(screen)"
    hub=$(($(sq "SELECT deadline_ms FROM clocks;") + $(delay "$1") - (T_ASK + T_GOT) / 2))
    [ "$hub" -gt $((DASH - 2000)) ] && [ "$hub" -le $((DASH + 1000)) ] ||
        fail "AG-14: the dashboard shows $DASH ms for table $1, the hub $hub ms: $(screen | grep -E 'T[12] ')"
    ok "AG-14: the dashboard shows table $1's own time $DASH ms (whole seconds), the hub $hub ms"
}

# Both wait for their draft, with the whole time.
for d in table-001 table-002; do
    table_clock "$d" 'not_started waiting_for_draft'
    [ "$TAB" = 6300000 ] || fail "AG-14: $d waits with $TAB ms, expected 6300000"
done
[ -z "$(delay 1)$(delay 2)" ] || fail "the hub recorded a draft nobody started"
ok "AG-14: after clock start both tables wait for their draft with 105:00"

hl_say table-001 draft
hl_expect_new table-001 "draft started round=1"
wait_line table-001 '^clock remaining_ms=[0-9]+ state=running$'
wait_until 10 eval '[ -n "$(delay 1)" ]' || fail "the hub recorded no draft start for table 1"
compare_running 1
table_clock table-002 'not_started waiting_for_draft'
[ "$TAB" = 6300000 ] || fail "AG-14: table-002 (no draft yet) shows $TAB ms"
ok "AG-14: table 1's clock runs from its draft (delay $(delay 1) ms), table 2 still waits"
check_dash 1
wait_until 20 eval "screen | grep -q -E 'T2 +Pi playing draft\?'" ||
    fail "AG-14: the dashboard does not show table 2 waiting for its draft: $(screen)"
ok "AG-14: the dashboard shows table 2 waiting for its draft (draft?)"

sleep 3
# Table 2's players forgot the key: the organiser says its draft began.
hl_mark table-002
live 0 clock draft "$EV" --table 2
grep -q 'started the own clock of table 2 in round 1 of .*: its draft began (AG-14)' "$E2E_TMP/out" ||
    fail "clock draft: $(cat "$E2E_TMP/out")"
wait_line table-002 '^clock remaining_ms=[0-9]+ state=running$'
wait_until 10 eval '[ -n "$(delay 2)" ]' || fail "the hub recorded no draft start for table 2"
d1=$(delay 1) d2=$(delay 2)
[ $((d2 - d1)) -ge 3000 ] || fail "AG-14: table 2 started its draft 3 s after table 1, but its delay is $d2 ms vs $d1 ms"
compare_running 1
compare_running 2
ok "AG-14: each table runs on its own clock (start delays $d1 ms and $d2 ms)"
check_dash 1
check_dash 2

hl_say table-001 draft
hl_expect_new table-001 "error draft: already started in round 1"
sleep 1
[ "$(sq "SELECT count(*) FROM log WHERE kind = 'clock.draft_start';")" = 2 ] ||
    fail "the hub recorded more than one draft start per table"
live 3 clock draft "$EV" --table 2
grep -q "table 2: its draft already started" "$E2E_TMP/err" || fail "a second clock draft: $(cat "$E2E_TMP/err")"
live 3 clock draft "$EV" --table 9
grep -q "round 1 has no table 9" "$E2E_TMP/err" || fail "clock draft of no table: $(cat "$E2E_TMP/err")"
[ "$(sq "SELECT count(*) FROM log WHERE kind = 'clock.draft_start';")" = 2 ] ||
    fail "a refused clock draft was recorded"
ok "a second draft is refused at the table and at the console (and a table that does not exist); the hub holds one start per table"

for d in table-001 table-002; do hl_mark "$d"; done
live 0 clock pause "$EV"
for t in 1 2; do
    d=table-00$t
    wait_line "$d" '^clock remaining_ms=[0-9]+ state=paused$'
    table_clock "$d" paused
    hub=$(($(sq "SELECT remaining_ms FROM clocks;") + $(delay "$t")))
    diff=$((TAB - hub))
    [ "${diff#-}" -le 1000 ] ||
        fail "AG-14: paused $d shows $TAB ms, the hub's time for table $t is $hub ms (off by $diff ms)"
    ok "AG-14: paused $d shows $TAB ms, hub $hub ms (diff $diff ms)"
done

screen >"$E2E_TMP/dash.txt"
tm send-keys -t tui q
for d in table-001 table-002; do hl_quit "$d"; done
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
