#!/usr/bin/env bash
# test_table_tui_confirm.sh - issue 22 item 8 on a real terminal (tmux
# 80x24, C.UTF-8) against the real broker and hub: four Neuroshima Hex
# players with long Latin and Chinese (double-width) names; at table 1
# the confirm screen shows the result line the players confirm whole
# (wrapped at spaces, the loser's part never cut) and each seat's state;
# after `round close` (the hub pauses the round clock) and a restart of
# the display, the finished table's clock stands: "stopped: the table has
# finished", no PAUSED.
#
# usage: bash test_table_tui_confirm.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"

NAMES=('Bartholomew Alexander Wiśniewski-Brzęczyszczykiewicz' '王小明'
    'Maximilian Ferdinand von Hohenzollern-Sigmaringen' '李秀英')
TUI_PLAYERS=$E2E_TMP/names.csv
{
    echo 'id,name'
    for i in "${!NAMES[@]}"; do echo "p$((i + 1)),${NAMES[$i]}"; done
} >"$TUI_PLAYERS"
TUI_SIZE=80x24
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup neuroshima-hex '{"swiss_rounds": 2, "cut": 0}' 4
tui_round
# Table 1's players in seat order, from `round show`.
live 0 round show ev
read -r -a SEATS < <(awk '$1 == "table" && $2 == 1 { for (i = 3; i <= NF; i++) if ($i ~ /^p[0-9]+$/) printf "%s ", substr($i, 2) }' "$E2E_TMP/out")
[ "${#SEATS[@]}" -eq 2 ] || fail "table 1's seats: $(cat "$E2E_TMP/out")"
S1=${NAMES[$((SEATS[0] - 1))]}
S2=${NAMES[$((SEATS[1] - 1))]}
expect 30 '^ PLAYING' "table 1 playing"

# The RESULT steps: seat 1 wins (choice 1) by 5 HQ.
value_for() { if [ "$1" -le 5 ] && [ "$2" -ge 5 ]; then echo 5; else echo "$1"; fi; }
key Enter
walk_flow 0 'CONFIRM THE RESULT'
# The screen's rows, trimmed, joined with one space: a wrapped line reads
# as one.
joined=$(screen | sed -E 's/^ +//; s/ +$//' | tr '\n' ' ')
want_re="$S1 won: $S1 [+]5, $S2 -5 HQ"
grep -q -E -- "$want_re" <<<"$joined" ||
    fail "the result line is not whole at 80x24 (want /$want_re/):
$(screen)"
expect 5 'confirm now\?$' "seat 1's state in words"
expect 5 'to confirm$' "seat 2's state in words"
ok "80x24 confirm screen: \"$S1 won: ... $S2 -N HQ\" whole, wrapped"
screen >"$E2E_TMP/confirm.txt"
confirm_all

# Round close: the hub pauses the round clock; the display restarts (as
# after a power cut) and reads the retained clock and assignment.
# (table 2 is simulated: the close is refused until its result is in)
try_close() {
    timeout 60 "$TOURNEY" live round close ev >"$E2E_TMP/out" 2>"$E2E_TMP/err" && return 0
    grep -q 'has no result yet' "$E2E_TMP/err" || fail "round close: $(cat "$E2E_TMP/err")"
    return 1
}
wait_until 60 try_close || fail "round close: $(cat "$E2E_TMP/err")"
kill -TERM "$(cat "$E2E_TMP/table-001.pid")"
expect 30 'network online' "the display back"
expect 20 'RESULT ACCEPTED' "table 1's result after the restart"
expect 20 'stopped: the table has finished' "table 1's clock stands"
grep_screen 'PAUSED' && fail "a finished table's clock shows PAUSED after round close:
$(screen)"
ok "after round close and a restart: the finished table's clock stands, no PAUSED"
tui_finish
e2e_done
