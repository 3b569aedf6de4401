#!/usr/bin/env bash
# test_table_tui_nh.sh - Neuroshima Hex! on the table's full-screen
# display (tourney-table, display=tui, in tmux 100x30) against the real
# hub: the table shows its assignment (table number, round clock, the two
# players); the PREGAME steps (NH-12 secret army choice shown as '*', the
# first player's choice not readable from the second player's screens,
# NH-14 first player lot) end on their outcome; the RESULT steps refuse a
# letter and an out-of-range number on the spot with the message; the
# table is killed (SIGKILL) in the middle of the result steps and comes
# back on the same step; every player confirms; the hub accepts.
#
# usage: bash test_table_tui_nh.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup neuroshima-hex '{"swiss_rounds": 2, "cut": 0}' 4
tui_round
expect 30 'Table 1 ' "table number"
expect 10 'clock [0-9]+:[0-9]{2} running' "round clock"
expect 10 '1  Player [0-9]' "seat 1"
expect 10 '2  Player [0-9]' "seat 2"
expect 10 '^ PLAYING' "state playing"
expect 10 'Enter enter the result  \+ before the game  \* time-out' "key line"
ok "assignment on the screen: table 1, clock running, two seats, playing"

key +
expect 10 'BEFORE THE GAME' "pregame steps"
# NH-12 secret: nothing on the screens after the first player's choice
# shows it: the typed number is '*', the second-choice screen offers the
# same armies as the first (none left out), the hand-over screen names no
# army, the second player's screens list the same armies unmarked.
expect 10 'Army choice \(NH-12\)' "army choice intro"
key Enter
expect 10 'seat 1\): first choice' "first player's first choice"
armies() { screen | grep -E '^ [0-9]+ [A-Z]' ; }
armies >"$E2E_TMP/nh-first.txt"
grep -q 'Borgo' "$E2E_TMP/nh-first.txt" || fail "no army list: $(screen)"
key -l -- 1
expect 10 ':  +\*_' "the typed choice shown as '*'"
grep_screen ':  +1_' && fail "the secret choice is shown typed: $(screen)"
key Enter
expect 10 'seat 1\): second choice' "first player's second choice"
armies | cmp -s - "$E2E_TMP/nh-first.txt" ||
    fail "the second-choice list differs from the first (the first choice can be read): $(screen)"
key -l -- 1
key Enter
expect 10 'another army than the first' "the first choice again refused"
key BSpace
key -l -- 2
key Enter
expect 10 'Hand the table to' "a clear screen between the players"
screen >"$E2E_TMP/nh-hand.txt"
for army in $(sed -E 's/[0-9]+ //g; s/, /\n/g' "$E2E_TMP/nh-first.txt" | tr ' ' '_' | tr '\n' ' '); do
    grep -q -F -- "${army//_/ }" "$E2E_TMP/nh-hand.txt" &&
        fail "the hand-over screen names $army: $(cat "$E2E_TMP/nh-hand.txt")"
done
key Enter
expect 10 'seat 2\): first choice' "second player's first choice"
armies | cmp -s - "$E2E_TMP/nh-first.txt" ||
    fail "the second player's list differs from the first player's: $(screen)"
ok "NH-12: the first player's choice is not readable on the second player's screens"
walk_flow 0 'BEFORE THE GAME: decided'
key Enter
expect 10 '^ PLAYING' "back to the table"
ok "pregame steps (NH-12, NH-14) walked to their outcome"

key Enter
expect 10 ' RESULT *$' "result steps"
title=$(step_title)
kl=$(key_line)
# Answer the first step, then kill the table in the middle.
if [[ $kl == *" choose"* ]]; then key 1; else key Enter; fi
wait_for 10 '[ "$(step_title)" != "$title" ]' || fail "the first answer was not taken: $(screen)"
mid=$(step_title)
pid=$(cat "$E2E_TMP/table-001.pid")
kill -KILL "$pid"
wait_for 20 '[ "$(cat "$E2E_TMP/table-001.pid")" != "$pid" ]' || fail "the table did not restart"
expect 30 'network online' "restarted table online"
wait_for 30 '[ "$(step_title)" = "$mid" ]' ||
    fail "after the restart the screen is not the same step ('$mid'): $(screen)"
ok "SIGKILL in the middle of the result steps: back on the same step ($mid)"

walk_flow 1
confirm_all
ok "result refused on the spot, then entered, confirmed by both players and accepted"
tui_finish
e2e_done
