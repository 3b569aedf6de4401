#!/usr/bin/env bash
# test_console_tui_judge.sh - the dashboard (`tourney live console EV`,
# tmux, C.UTF-8) reads as the judge means it at 80x24 and at 100x30
# (issue 24; issue 22 item 2), against the real hub (feed on) and broker:
# - after p the tip says to press d and P, not to run a command line;
# - a typed command's output in the panel is wrapped by words: its rows
#   joined give back the command line's output (no word cut in two);
# - the DQ question is on its own line after the command, which does not
#   end in "? y" (it looked answered);
# - a clock with hours ("1:59:57") leaves its state whole beside the
#   digits ("running", not "runnin");
# - a refusal longer than a line is on the screen whole, wrapped by words
#   (compared with the same command's stderr);
# - names typed after ':' in Polish, Czech and Chinese are stored as typed
#   (the export), not without their non-ASCII letters ("ukasz wik").
# The dashboard runs as o2, the test's commands as o1.
#
# usage: bash test_console_tui_judge.sh SOURCE_DIR BUILD_DIR
# before lib.sh, which sets the default of 120 s
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"
need_binaries TOURNEY HUB
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
export LC_ALL=C.UTF-8

start_broker --no-ws --organisers o1,o2
live_hub_config 'feed = true' 'feed_interval_ms = 50'
cred o2 >"$E2E_TMP/o2.pw"
hub_launch
live 0 wait-hub --timeout 20
EV=judge
live 0 event create "$EV" --format got-lcg2 --title 'Pohár Brno' --seed 3 --options '{"swiss_rounds": 3}'
{
    echo 'id,name,club'
    for i in $(seq 1 12); do
        case $((i % 3)) in
        0) echo "p$i,Maximiliano Alexandro von Hohenzollern-Sigmaringen $i,Club $i" ;;
        1) echo "p$i,Bartholomew Kowalczyk-Nowakowski $i,Club $i" ;;
        2) echo "p$i,Bo Li $i,Club $i" ;;
        esac
    done
} >"$E2E_TMP/players.csv"
live 0 players import "$EV" "$E2E_TMP/players.csv"

SOCK=$E2E_TMP/tmux.sock
tm() { tmux -u -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
# the screen as one line, blanks squeezed (a message wrapped over rows)
joined() { screen | tr '\n' ' ' | tr -s ' '; }
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen:
$(screen)
stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
printf '%s\n' "export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 TERM=screen" \
    "exec '$TOURNEY' live --user o2 --password-file '$E2E_TMP/o2.pw' console $EV 2>'$E2E_TMP/console.err'" \
    >"$E2E_TMP/pane.sh"
tm -f /dev/null new-session -d -s tui -x 80 -y 24 "bash '$E2E_TMP/pane.sh'" || fail "tmux new-session"
expect 20 'hub: online' "80x24: the header"

# ---- p: the tip is a key ------------------------------------------------------
tm send-keys -t tui p
expect 30 '> ok: paired round 1' "p"
grep_screen 'press d to review it, P to publish it' && ! grep_screen 'tourney live round publish' ||
    fail "after p the tip is not the keys d and P:
$(screen)"
ok "80x24: after p the tip says to press d to review and P to publish"

# ---- a typed command's output in the panel, wrapped by words ---------------
live 0 round show "$EV"
tr '\n' ' ' <"$E2E_TMP/out" | tr -s ' ' | sed 's/^ //' >"$E2E_TMP/show.txt"
tm send-keys -t tui : 'round show' Enter
expect 30 'tourney live round show' "the panel of a typed command"
# the panel's rows: below its title, down to its last row ("... more
# lines" or the message area)
screen | awk '/tourney live round show/ { on = 1; next } on && (/^> / || /^ *\.\.\. [0-9]+ more lines/) { exit } on' |
    tr '\n' ' ' | tr -s ' ' | sed 's/^ //; s/ $//' >"$E2E_TMP/panel.txt"
[ "$(wc -c <"$E2E_TMP/panel.txt")" -gt 200 ] || fail "the panel is nearly empty: $(screen)"
grep -q -F -- "$(cat "$E2E_TMP/panel.txt")" "$E2E_TMP/show.txt" ||
    fail "80x24: the panel's rows joined are not the command's output (a word cut in two):
$(screen)"
tm send-keys -t tui x
wait_until 10 sh -c "! tmux -S '$SOCK' capture-pane -p -t tui | grep -q 'tourney live round show'" || fail "the panel did not close"
ok "80x24: a command's output in the panel wraps by words (rows joined = the output)"

# ---- the DQ question -----------------------------------------------------------
tm send-keys -t tui : 'player dq p5 --reason "marked cards"' Enter
expect 10 'this cannot be undone' "the DQ asks first"
expect 5 '^ *Do it\? Press y for yes, any other key for no\.' "the question on its own line"
screen | grep -F -- '"marked cards"' | grep -q -F '?' &&
    fail "the DQ command line looks answered:
$(screen)"
tm send-keys -t tui n
expect 10 '> not done: player dq p5' "n: nothing done"
ok "80x24: the DQ question is on its own line, the command before it does not look answered"

# ---- a clock with hours: its state whole ------------------------------------
tm send-keys -t tui P
expect 30 '> ok: published round 1' "P"
tm send-keys -t tui s
expect 30 '> ok: started the clock' "s"
live 0 clock extend "$EV" 1h
expect 20 'clock [1-9]:[0-9]{2}:[0-9]{2}' "80x24: a clock with hours"
clock_rows() { screen | sed -n '4,8p'; }
wait_until 10 eval 'clock_rows | grep -q -w running' ||
    fail "80x24: the clock's state is cut beside an hour's digits:
$(screen)"
clock_rows | grep -q -E 'runnin$|runni$|runn$' && fail "80x24: the state cut: $(clock_rows)"
ok "80x24: the clock with hours leaves its state whole ($(clock_rows | grep -o -E 'clock [0-9:]+' | head -n 1) running)"

# ---- a long refusal, whole -------------------------------------------------------
live 3 round unpublish "$EV"
refusal=$(sed 's/^tourney: //' "$E2E_TMP/err")
[ "${#refusal}" -gt 100 ] || fail "the refusal is short: $refusal"
tm send-keys -t tui : 'round unpublish' Enter
expect 30 '> error \(exit 3\)' "the refusal"
joined | grep -q -F -- "$refusal" ||
    fail "80x24: the refusal is not on the screen whole ($refusal):
$(screen)"
ok "80x24: a refusal of ${#refusal} characters is on the screen whole, wrapped by words"

# ---- names typed in any script ------------------------------------------------
typed_name() { # PLAYER NAME
    tm send-keys -t tui : && tm send-keys -t tui -l "player edit $1 --name '$2'" && tm send-keys -t tui Enter
    expect 30 "> ok: changed $1 in $EV" "rename $1 typed"
}
typed_name p1 'Łukasz Ćwik'
typed_name p2 'Jiří Šebesta'
typed_name p3 '王小明'
live 0 export "$EV"
python3 - "$E2E_TMP/out" <<'EOF' || fail "names typed on the dashboard: $(grep -o '"name": "[^"]*"' "$E2E_TMP/out" | head -n 3)"
import json, sys
names = {p["id"]: p["name"] for p in json.load(open(sys.argv[1]))["players"]}
want = {"p1": "Łukasz Ćwik", "p2": "Jiří Šebesta", "p3": "王小明"}
for k, v in want.items():
    assert names[k] == v, "%s: %r, typed %r" % (k, names[k], v)
EOF
ok "80x24: names typed after ':' in Polish, Czech and Chinese stored as typed"

# ---- 100x30 -----------------------------------------------------------------------
tm resize-window -t tui -x 100 -y 30
tm send-keys -t tui r
wait_until 10 eval '[ "$(screen | head -n 1 | wc -L)" -gt 80 ] || screen | head -n 1 | grep -q "hub: online"' ||
    fail "100x30: not resized"
wait_until 10 eval 'clock_rows | grep -q -w running' || fail "100x30: the clock's state: $(screen)"
tm send-keys -t tui : 'round unpublish' Enter
expect 30 '> error \(exit 3\)' "100x30: the refusal"
joined | grep -q -F -- "$refusal" || fail "100x30: the refusal is not whole:
$(screen)"
tm send-keys -t tui : 'player dq p5 --reason "marked cards"' Enter
expect 5 '^ *Do it\? Press y for yes, any other key for no\.' "100x30: the DQ question"
tm send-keys -t tui n
ok "100x30: the clock's state, a long refusal and the DQ question read whole"
e2e_done
