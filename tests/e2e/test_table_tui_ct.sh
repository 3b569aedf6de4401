#!/usr/bin/env bash
# test_table_tui_ct.sh - Catan on the table's full-screen display (tmux
# 100x30, real hub): the RESULT steps (CT-4 VP as played, the engine's
# range) refuse a letter and an out-of-range value on the spot; a player rejects
# the entered result (back to the steps); then the organiser enters the
# table's result: the table shows it as entered by the organiser, with
# its values, and offers no entry of its own (issue 8: never a refusal of
# the players' entry later).
#
# usage: bash test_table_tui_ct.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup catan '{"rounds": 2}' 8
tui_round
expect 30 '^ PLAYING' "state playing"
# The seats' player ids (names are "Player N" for pN).
mapfile -t ids < <(screen | grep -o -E '^ [1-4]  Player [0-9]+' | awk '{ print "p" $3 }')
[ "${#ids[@]}" -ge 3 ] || fail "seats: $(screen)"
# CT-9: the table's random board from the hub, on the notes screen; the
# same board `tourney boards` prints from the hub's export.
key .
expect 10 'Board for this game \(CT-9\)' "the board on the notes screen"
live 0 export ev
cp "$E2E_TMP/out" "$E2E_TMP/ev.json"
"$TOURNEY" boards "$E2E_TMP/ev.json" >"$E2E_TMP/boards.txt" ||
    fail "tourney boards: $(cat "$E2E_TMP/boards.txt")"
row=$(awk '/^Round 1, table 1 /{f=1; next} f && NF {print; exit}' "$E2E_TMP/boards.txt" | sed 's/^ *//')
[ -n "$row" ] || fail "boards: $(cat "$E2E_TMP/boards.txt")"
screen | grep -q -F -- "$row" || fail "board row \"$row\" not on the table:
$(screen)"
screen >"$E2E_TMP/notes-screen.txt"
key .
expect 10 '^ PLAYING' "back to the table"
ok "CT-9 board shown at the table, the same as tourney boards prints"
key Enter
expect 10 ' RESULT *$' "result steps"
walk_flow 1
expect 10 'CONFIRM THE RESULT' "confirmation screen"
key Enter
key /
expect 10 'rejected the result: correct it' "a player's rejection"
expect 10 ' RESULT *$' "back in the result steps"
ok "a player rejected: back to the result steps"

# The organiser enters the table's result: the table shows it as the
# organiser's and takes no entry of its own (it is never refused later).
# CT-4: 11 VP is in the engine's range, the table's too: the hub takes
# it as the table would and the table shows 11.
json='{"vp": {'
for ((k = 0; k < ${#ids[@]}; k++)); do
    [ $k -eq 0 ] || json+=', '
    json+="\"${ids[$k]}\": $((k == 0 ? 11 : 10 - k))"
done
json+='}}'
live 0 result enter ev 1 1 "$json" --reason "scoresheet handed to the desk"
expect 20 'RESULT ENTERED BY THE ORGANISER' "the organiser's result on the table"
# In words with the players' names (issue 22 item 8), highest first.
expect 5 "Player ${ids[0]#p} 11, Player [0-9]+ 9, .* -- by organiser:o1" \
    "the organiser's values on the table (11 VP, CT-4)"
grep_screen '[{]"vp"|"p[0-9]+":' && fail "the organiser's result as JSON on the table: $(screen)"
key Enter
sleep 0.5
grep_screen 'CONFIRM THE RESULT' && fail "the table opened an entry after the organiser's result: $(screen)"
grep_screen 'RESULT ENTERED BY THE ORGANISER' || fail "the organiser's result left the screen: $(screen)"
ok "the organiser's result is shown at the table as the organiser's; no entry is offered"
tui_finish
e2e_done
