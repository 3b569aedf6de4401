#!/usr/bin/env bash
# test_table_tui_tx.sh - Tantrix on the table's full-screen display (tmux
# 100x30, real hub): the chess clock screen (TX-11: the non-starter's key
# starts the starter's clock; TX-3 times counting; TX-9 pause), stopped
# with Enter straight into the RESULT steps with the clock times filled
# in; a letter and an out-of-range score refused on the spot; both
# players confirm; the hub accepts.
#
# usage: bash test_table_tui_tx.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

tui_setup tantrix '{"swiss_rounds": 2}' 4
tui_round
expect 30 '^ PLAYING' "state playing"
expect 10 '/ chess clock' "chess clock key"
key /
expect 10 'TX-11: the player who does NOT start' "chess clock screen"
key 1
expect 10 'used 0:0[0-9] running' "starter's clock runs"
sleep 2.2
key 3
expect 10 'used 0:0[2-9] *$|used 0:0[2-9] ' "first turn's time kept"
key 5
expect 10 'PAUSED \(TX-9\)' "paused"
key 5
ok "chess clock: started by the non-starter (TX-11), turns, pause (TX-9)"
key Enter
expect 10 ' RESULT *$' "result steps after the clock stops"
walk_flow 1
confirm_all
ok "Tantrix result with the chess clock times confirmed by both and accepted"
tui_finish
e2e_done
