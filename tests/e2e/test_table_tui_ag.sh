#!/usr/bin/env bash
# test_table_tui_ag.sh - Agricola on the table's full-screen display (tmux
# 100x30, real hub): four seats; after the round clock starts the table
# waits for its draft (AG-14), '/' starts the draft and with it the table's
# own 105 minutes, '/' again ends it; the RESULT steps (VP, IP, BP per seat)
# refuse a letter and an out-of-range value on the spot; all four players
# confirm in turn; the hub accepts.
#
# usage: bash test_table_tui_ag.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup agricola '{}' 8
tui_round
expect 30 '^ PLAYING' "state playing"
expect 10 '4  Player [0-9]' "four seats"
expect 10 'waiting for the draft' "AG-14: the table waits for its draft"
expect 10 'TABLE CLOCK \(from the draft\)' "AG-14: the clock is the table's own"
expect 10 '1:45:00' "the whole 105 minutes, not running"
key /
expect 10 'DRAFT 1[45]:[0-9]{2} left \(AG-14\)' "draft countdown"
expect 10 '1:4[34]:[0-9]{2}' "this table's clock runs from its draft"
key /
expect 10 'draft done in 0:[0-9]{2} \(AG-14\)' "draft finished"
ok "AG-14: the table waited for its draft, / started it with the table's clock and ended it"
key Enter
expect 10 ' RESULT *$' "result steps"
walk_flow 1
confirm_all
ok "Agricola result confirmed by all four players and accepted"
tui_finish
e2e_done
