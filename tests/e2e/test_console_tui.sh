#!/usr/bin/env bash
# test_console_tui.sh - the organiser's dashboard `tourney live console EV`
# in a real terminal (tmux) against the real tourney-hub (feed on) and the
# real venue broker: create (Catan, 16 players: 4 tables) -> the dashboard
# shows the title; key p pairs, P publishes (4 tables "waiting"), s starts
# the clock (tables "playing", the clock counts down), space pauses (the
# clock stands still) and resumes; results entered by a second organiser
# turn tables "confirmed"; c closes the round and the standings appear; q
# exits with status 0 and the terminal settings are those from before.
# Also: SIGINT (C-c) restores the terminal too; stdout not a terminal is
# exit 2 with one line.
#
# Synchronisation: every wait polls `tmux capture-pane` (bounded); no
# fixed sleeps.  The dashboard runs as o1; the test's own commands run as
# o2 (one connection per login).
#
# usage: bash test_console_tui.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"

need_binaries TOURNEY HUB
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
start_broker --no-ws --organisers o1,o2
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50' # (o1's console config)
cred o2 >"$E2E_TMP/o2.pw"
hub_launch

# The test's own commands: organiser o2.
run() {
    local want=$1 st
    shift
    timeout 90 "$TOURNEY" live --user o2 --password-file "$E2E_TMP/o2.pw" "$@" \
        >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    st=$?
    [ "$st" -eq "$want" ] ||
        fail "tourney live $*: exit $st, expected $want; stderr: $(cat "$E2E_TMP/err")"
}

run 0 wait-hub --timeout 20
run 0 event create ev1 --format catan --title 'Dashboard Cup' --seed 7 --options '{"rounds": 2}'
{
    echo 'id,name,club'
    for i in $(seq 1 16); do echo "p$i,Player $i,Club $((i % 3))"; done
} >"$E2E_TMP/players.csv"
run 0 players import ev1 "$E2E_TMP/players.csv"
ok "event ev1 with 16 players"

# Not a terminal: one line, exit 2.
"$TOURNEY" live console ev1 >"$E2E_TMP/notty.out" 2>"$E2E_TMP/notty.err" </dev/null
st=$?
[ $st -eq 2 ] || fail "console with stdout not a tty: exit $st"
[ "$(wc -l <"$E2E_TMP/notty.err")" -eq 1 ] && grep -q 'needs a terminal' "$E2E_TMP/notty.err" ||
    fail "not-a-tty message: $(cat "$E2E_TMP/notty.err")"
ok "stdout not a terminal: exit 2, one line"

# --- tmux ------------------------------------------------------------------
SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
# Our tmux servers (their own sockets) go first on exit, then the
# harness's cleanup with the test's status.
# Each dashboard run gets its own server (socket): a new server on the
# socket of one just killed can race with its shutdown.
trap 'tui_rc=$?; for s in "$E2E_TMP"/tmux*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; (exit $tui_rc); e2e_cleanup' EXIT
# The pane runs a shell script: terminal settings before, the dashboard,
# its exit status and the settings after, then waits to be killed.
cat >"$E2E_TMP/pane.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C
unset TOURNEY_PASSWORD
stty -g >'$E2E_TMP/stty.before'
'$TOURNEY' live console ev1 2>'$E2E_TMP/console.err'
echo "DASHBOARD-EXIT=\$?"
stty -g >'$E2E_TMP/stty.after'
exec sleep 600
EOF
# start_pane [COLS ROWS]: default 132x40.
start_pane() {
    rm -f "$E2E_TMP/stty.before" "$E2E_TMP/stty.after"
    tm -f /dev/null new-session -d -s tui -x "${1:-132}" -y "${2:-40}" "bash '$E2E_TMP/pane.sh'" ||
        fail "tmux new-session"
}
screen() { tm capture-pane -p -t tui 2>/dev/null; }
# expect SECONDS 'ERE' WHAT: waits until the screen matches.
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen: $(screen); stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
grep_screen() { screen | grep -q -E -- "$1"; }
# the screen as one line (a message wrapped by words over several rows)
grep_joined() { screen | tr '\n' ' ' | tr -s ' ' | grep -q -E -- "$1"; }
# clock_now: the "clock MM:SS state" text line.
clock_now() { screen | grep -o -E 'clock -?[0-9:]+ [a-z ]+' | head -n 1; }
count_screen() { screen | grep -o -E -- "$1" | wc -l; }

start_pane
expect 20 ' Dashboard Cup ' "title"
expect 10 'broker: connected +hub: online' "hub state in the header"
expect 10 'no published round +event registration' "round line before the first publish (not \"round 0\")"
grep_screen 'round 0 ' && fail "\"round 0\" on the screen: $(screen)"
expect 10 'q quit +p pair +d draft +P publish +s start clock +space pause/resume .* t table +: command' "key help"
ok "the dashboard shows the event title and the keys"

tm send-keys -t tui p
expect 30 '> ok: paired round 1 as a draft: press d to review it, P to publish it' "pair (p)"
tm send-keys -t tui P
expect 30 '> ok: published round 1 of ev1 to the tables' "publish (P)"
wait_for 20 '[ "$(count_screen "T[1-4] +waiting")" -eq 4 ]' ||
    fail "4 waiting tables: $(screen)"
expect 10 'round 1 published' "round status"
ok "p and P: round 1 paired and published, 4 tables waiting"

tm send-keys -t tui s
expect 30 '> ok: started the clock of every table in round 1 of ev1' "clock start (s)"
wait_for 20 '[ "$(count_screen "T[1-4] +playing")" -eq 4 ]' ||
    fail "4 playing tables: $(screen)"
expect 10 'clock [0-9]+(:[0-9]{2})+ running' "running clock"
first=$(clock_now)
wait_for 10 '[ "$(clock_now)" != "$first" ] && [[ "$(clock_now)" == *running ]]' ||
    fail "the clock does not count: $first, then $(clock_now)"
ok "s: clock started, tables playing, clock counts ($first -> $(clock_now))"

tm send-keys -t tui Space
expect 30 '> ok: paused the clock of every table' "pause (space)"
expect 10 'clock [0-9]+(:[0-9]{2})+ paused' "paused clock"
paused=$(clock_now)
# The value must stand still while paused: it has to equal the reading
# again after the screen has been redrawn at least once more (the status
# line changes with r).
tm send-keys -t tui r
expect 10 '> screen refreshed' "refresh (r)"
[ "$(clock_now)" = "$paused" ] || fail "paused clock moved: $paused -> $(clock_now)"
tm send-keys -t tui Space
expect 30 '> ok: resumed the clock of every table' "resume (space)"
expect 10 'clock [0-9]+(:[0-9]{2})+ running' "resumed clock"
tm send-keys -t tui +
expect 30 '> ok: extended the clock of every table by 5 min in round 1' "extend (+)"
ok "space pauses and resumes, + extends, r refreshes"

# Results by the second organiser: tables turn confirmed.
# The tables of round 1 from the hub's export (compacted: "table":N,
# "players":["pA",...]).
# enter_results ROUND: the second organiser enters a result for every
# table of ROUND (from the hub's export: "table":N, "players":[...]);
# each turns "confirmed" on the dashboard.
enter_results() {
    local round=$1 table players json k ids
    run 0 export ev1
    python3 - "$E2E_TMP/out" "$round" >"$E2E_TMP/tables" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
for t in ev["rounds"][int(sys.argv[2]) - 1]["tables"]:
    if "table" in t:
        print(t["table"], " ".join(t["players"]))
PY
    [ "$(wc -l <"$E2E_TMP/tables")" -ge 4 ] || fail "tables in the export: $(head -c 600 "$E2E_TMP/out")"
    vps=(10 8 6 4)
    while read -r table players; do
        read -r -a ids <<<"$players"
        json='{"vp": {'
        for ((k = 0; k < ${#ids[@]}; k++)); do
            [ $k -eq 0 ] || json+=', '
            json+="\"${ids[$k]}\": ${vps[$k]}"
        done
        json+='}}'
        run 0 result enter ev1 "$round" "$table" "$json"
        expect 20 "T$table +confirmed" "table $table confirmed"
    done <"$E2E_TMP/tables"
}
enter_results 1
cp "$E2E_TMP/tables" "$E2E_TMP/tables.1"
ok "results entered: every table confirmed"

tm send-keys -t tui c
expect 30 '> ok: closed round 1 of ev1' "close (c)"
expect 20 'STANDINGS after round 1' "standings"
expect 10 ' 1\. Player [0-9]+ +[0-9.]+' "standings rows"
ok "c: round closed, standings after round 1 shown"

# --- the dashboard as a console (issue 8 part 4) ----------------------------
# Every action below is a key or a typed command on this screen.
tm send-keys -t tui p
expect 30 '> ok: paired round 2 as a draft' "pair round 2 (p)"
tm send-keys -t tui d
expect 20 'DRAFT of round 2 \(round\)' "draft panel (d)"
expect 5 'seat 1  p[0-9]+ Player [0-9]+ \(Club [0-2]\)' "draft: seats with names and clubs"
expect 5 'explanation:' "draft: the engine's explanation"
tm send-keys -t tui x
wait_until 10 sh -c "! tmux -S '$SOCK' capture-pane -p -t tui | grep -q 'DRAFT of round 2'" ||
    fail "the draft panel did not close: $(screen)"
ok "d: the draft with seats, names, clubs and the explanation; any key closes it"

# A swap that seats a with b again (they shared table 1 in round 1): a
# changes places with someone at b's table in the draft of round 2.
read -r _ a b _ <"$E2E_TMP/tables.1"
run 0 round show ev1 --json
x=$(python3 - "$E2E_TMP/out" "$a" "$b" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = sys.argv[2], sys.argv[3]
for t in d["tables"]:
    ps = t.get("players", [])
    if b in ps and a not in ps:
        print([p for p in ps if p != b][0])
PY
)
[ -n "$x" ] || fail "no seat next to $b for $a in the draft"
tm send-keys -t tui : "round swap 2 $a $x" Enter
wait_until 30 grep_joined "> error \(exit 3\): .*refused: p[0-9]+ \(Player [0-9]+\) and p[0-9]+ \(Player [0-9]+\) already played each other" ||
    fail "a swap creating a rematch refused on the dashboard: $(screen)"
ok "typed swap creating a rematch: refused, the players named"
# The event id typed as on the command line (tryout 13): the usage error
# says the dashboard adds it, not "too many arguments (expected
# EVENT_ID ...)" of a line that has one.
tm send-keys -t tui : "round show ev1" Enter
wait_until 20 grep_joined '> error \(exit 2\): the dashboard adds the event id: type :round show without "ev1"' ||
    fail "the event id typed after ':': $(screen)"
ok "the event id typed after ':': the answer says to type the command without it"
tm send-keys -t tui : "player dq p16 --reason 'abusive behaviour'" Enter
expect 10 'this cannot be undone: player dq p16' "DQ asks first"
tm send-keys -t tui n
expect 10 '> not done: player dq p16' "n: nothing done"
tm send-keys -t tui : "player dq p16 --reason 'abusive behaviour'" Enter
expect 10 'this cannot be undone' "DQ asks again"
tm send-keys -t tui y
expect 30 '> ok: disqualified p16 from ev1 after round 1' "y: disqualified"
tm send-keys -t tui x
expect 20 'Player 16 +[0-9.]+  DQ' "the DQ marker in the standings"
tm send-keys -t tui : "player add p17 'Late Comer' --club 'Club 9'" Enter
expect 30 '> ok: registered p17' "late entry typed"
tm send-keys -t tui x
tm send-keys -t tui d
expect 20 'Late Comer \(Club 9\)' "the re-planned draft has the late entrant"
grep_screen 'p16 Player 16' && fail "the disqualified player is still in the draft: $(screen)"
tm send-keys -t tui x
ok "DQ asks for confirmation (n: nothing, y: done); a late entry; the draft re-planned without p16, with p17"

tm send-keys -t tui P
expect 30 '> ok: published round 2 of ev1' "publish round 2 (P)"
expect 20 'TABLES \(round 2\)' "the feed shows round 2's tables" # t reads the round from it
tm send-keys -t tui t 2 Enter
expect 20 'TABLE 2, round 2' "table panel (t 2)"
expect 5 'seat 1  p[0-9]+ (Player [0-9]+|Late Comer)' "table 2's players"
expect 5 '\(no result yet\)' "table 2 has no result"
tm send-keys -t tui x
ok "t 2: table 2's players and results"

enter_results 2
tm send-keys -t tui c
expect 30 '> ok: closed round 2 of ev1' "close round 2 (c)"
expect 20 'FINAL STANDINGS \(after round 2\)' "final standings"
expect 5 'event finished' "event finished"
ok "after the last round: FINAL STANDINGS, event finished"
tm send-keys -t tui : log Enter
expect 30 'audit log of ev1' "the audit log in the panel"
expect 5 '[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}  organiser:o2 +event.create' "the log's first row: who, when, what"
grep_screen 'more lines \(j/down\)' || fail "a long log does not say there is more: $(screen)"
tm send-keys -t tui j j # past the heading and the first row
wait_until 10 sh -c "! tmux -S '$SOCK' capture-pane -p -t tui | grep -q -E 'organiser:o2 +event.create'" ||
    fail "j did not scroll the panel: $(screen)"
tm send-keys -t tui x
ok ": log: the audit log in a panel that scrolls"

tm send-keys -t tui q
wait_until 20 test -s "$E2E_TMP/stty.after" || fail "q did not exit: $(screen)"
expect 5 '^DASHBOARD-EXIT=0$' "exit status after q"
grep_screen 'TABLES \(round' && fail "the dashboard is still on the screen after q: $(screen)"
cmp -s "$E2E_TMP/stty.before" "$E2E_TMP/stty.after" ||
    fail "terminal not restored: $(cat "$E2E_TMP/stty.before") vs $(cat "$E2E_TMP/stty.after")"
[ ! -s "$E2E_TMP/console.err" ] || fail "console stderr: $(cat "$E2E_TMP/console.err")"
tm kill-server
ok "q exits 0 and restores the terminal (stty settings equal, screen back)"

# SIGINT (C-c) also restores the terminal.
SOCK=$E2E_TMP/tmux2.sock
start_pane 80 24
expect 20 ' Dashboard Cup ' "title (second run)"
expect 10 'T[1-4] +confirmed' "retained tables state"
# 80x24: every key on the help line, a table's panel fits.
expect 5 'q quit p pair d draft P publish s start spc pause \+ 5m c close t table : cmd' "80x24 key help"
tm send-keys -t tui t 1 Enter
expect 20 'TABLE 1, round 2' "80x24 table panel"
expect 5 'seat 1  p[0-9]+ ' "80x24 table panel seats"
expect 5 'counted .* by organiser:o2' "80x24: table 1's result, who entered it"
expect 5 '\{"vp": ?\{"p[0-9]+": ?10,' "80x24: the result's values (wrapped, not cut)"
tm send-keys -t tui x
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
expect 20 'hub: offline' "the hub offline in the header"
ok "80x24: every key shown; table 1's players and result in a panel; the hub going offline is shown"
tm send-keys -t tui C-c
wait_until 20 test -s "$E2E_TMP/stty.after" || fail "C-c did not exit: $(screen)"
expect 5 '^DASHBOARD-EXIT=0$' "exit status after C-c"
cmp -s "$E2E_TMP/stty.before" "$E2E_TMP/stty.after" ||
    fail "terminal not restored after C-c"
tm kill-server
ok "C-c exits and restores the terminal"

e2e_done
