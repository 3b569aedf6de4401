#!/usr/bin/env bash
# test_console_tui_overtime.sh - issue 22 item 8: overtime reads the same
# on the organiser's dashboard as on the tables and the hall ("+0:26
# overtime": tny_clock_format and TNY_CLOCK_OVERTIME; the tables' and the
# pages' side are tests/table/test_screen.c and pages_check.js).  A
# two-player Swiss event with 1-minute rounds against the real hub and
# broker; the dashboard (tmux, 100x30) shows the round clock counting
# down, then, past the deadline, "clock +0:SS overtime" in the overdue
# colour, never a minus.
#
# usage: bash test_console_tui_overtime.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"

need_binaries TOURNEY HUB
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
start_broker --no-ws --tables 1 --organisers o1,o2
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50'
cred o2 >"$E2E_TMP/o2.pw"
hub_launch
# The test's own commands run as o2 (the dashboard is o1).
run() { live 0 --user o2 --password-file "$E2E_TMP/o2.pw" "$@"; }
run wait-hub --timeout 20
run event create ev --format swiss-2p --title 'Overtime Cup' --seed 3 \
    --options '{"swiss_rounds": 2, "swiss_timer_minutes": 1}'
printf 'name\nAnna\nBen\nCyril\nDana\n' >"$E2E_TMP/p.csv"
run players import ev "$E2E_TMP/p.csv"
run round pair ev
run round publish ev

SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
cat >"$E2E_TMP/pane.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 TERM=screen
unset TOURNEY_PASSWORD
'$TOURNEY' live console ev 2>'$E2E_TMP/console.err'
exec sleep 600
EOF
tm -f /dev/null new-session -d -s tui -x 100 -y 30 "bash '$E2E_TMP/pane.sh'" || fail "tmux new-session"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen:
$(screen)
stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
expect 20 ' Overtime Cup ' "the dashboard"
run clock start ev
expect 20 'clock 0:[0-9]{2} running' "the clock counting down"
ok "dashboard: $(screen | grep -o -E 'clock 0:[0-9]{2} running' | head -n 1)"
# Past the minute: the time over the deadline, with a plus and the word.
expect 90 'clock \+0:[0-9]{2} overtime' "overtime on the dashboard"
grep_screen 'clock -' && fail "a minus on the dashboard's clock: $(screen)"
line=$(screen | grep -o -E 'clock \+0:[0-9]{2} overtime' | head -n 1)
# The overdue colour: the big digits are drawn in the colour of overdue
# tables (red), read from the pane with its escape sequences.
tm capture-pane -p -e -t tui >"$E2E_TMP/colour.txt"
grep -q $'\e\\[[0-9;]*31m' "$E2E_TMP/colour.txt" ||
    fail "no red (overdue) on the dashboard in overtime: $(head -c 600 "$E2E_TMP/colour.txt" | od -c | head -n 20)"
ok "dashboard: \"$line\" in the overdue colour, as \"+M:SS overtime\" on the tables and the hall"
e2e_done
