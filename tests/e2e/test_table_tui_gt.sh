#!/usr/bin/env bash
# test_table_tui_gt.sh - A Game of Thrones LCG on the table's full-screen
# display (tmux 100x30, real hub): the PREGAME steps (GT-14 faction and
# agenda shown) reach their outcome; the GT-13 time-up steps say the rule
# and the question as two sentences; the RESULT steps (GT-1 win) refuse a
# key beyond the options on the spot; both players confirm; the hub
# accepts.
#
# usage: bash test_table_tui_gt.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup got-lcg2 '{"structure": "custom", "swiss_rounds": 2, "cut": 0}' 4
tui_round
expect 30 '^ PLAYING' "state playing"
key +
expect 10 'BEFORE THE GAME' "pregame steps"
walk_flow 0 'BEFORE THE GAME: decided'
key Enter
expect 10 '^ PLAYING' "back to the table"
# GT-13 (issue 24): the time-up steps say the rule, then ask, as two
# sentences (they ran together: "record a normal win Then: did a player
# win?"); / leaves them.
key '*'
expect 10 'Time is up \(GT-13\)' "the time-up steps"
screen | tr '\n' ' ' | tr -s ' ' | grep -q -F 'if a player has won, record a normal win. Did a player win?' ||
    fail "GT-13: the rule and the question: $(screen)"
key /
expect 10 '^ PLAYING' "back to the table after the time-up steps"
key Enter
expect 10 ' RESULT *$' "result steps"
walk_flow 1
confirm_all
ok "GoT result confirmed by both players and accepted"
tui_finish
e2e_done
