#!/usr/bin/env bash
# test_table_language_hu.sh - issue 21: the same table with an event in
# Hungarian ("language": "hu") for Tantrix.  The real broker, hub and
# table client (display in tmux at 80x24): the main screen, the TX-10/TX-11
# steps before the game (seed 001's tile draw: "Minden játékos
# véletlenszerűen húz egy lapkát a zsákból") and the TX section 13 board
# question in seed 001's words ("a játék döntetlennel fejeződik be",
# "együttes ideje", "a szervező beleegyezése") with no English prompt left;
# the draw it leads to is confirmed and accepted by the hub.
#
# usage: bash test_table_language_hu.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

TUI_SIZE=80x24 TUI_EVENT_ARGS="--language hu" \
    tui_setup tantrix '{"swiss_rounds": 2}' 4
tui_round
TUI_ENGLISH='PLAYING|enter the result|before the game|time-out|Colours|Start \(TX-11\)|draws a tile|How did the game end|Board cannot|restored|Enter continue|cancel the steps|network online|chess clock|running'
expect 30 '1\. asztal' "table number in Hungarian"
expect 10 '^ JÁTÉK FOLYIK' "state in Hungarian"
expect 10 'Enter eredmény beírása  \+ játék előtt' "key line in Hungarian"
expect 10 '/ sakkóra' "chess clock key in Hungarian"
no_english "main screen"
main=$(screen)

key +
expect 10 'JÁTÉK ELŐTT' "pregame title"
expect 10 'Színek \(TX-10\)' "TX-10 colours"
no_english "TX-10"
key Enter
expect 10 'Kezdés \(TX-11\)' "TX-11 start"
expect 10 'véletlenszerűen húz egy lapkát a zsákból' "seed 001: the tile draw"
no_english "TX-11"
tx11=$(screen)
key /
expect 10 'lépések megszakítva' "steps cancelled, in Hungarian"

key Enter
expect 10 'Hogyan ért véget a játszma\?' "result steps in Hungarian"
expect 10 'A játékmező nem állítható helyre \(13\. pont\)' "the section 13 option"
no_english "result question"
key 4
expect 10 'döntetlennel fejeződik be' "seed 001 section 13: a draw"
expect 10 'együttes ideje' "seed 001 section 13: the time together"
expect 10 'szervező beleegyezése' "seed 001 section 13: the organiser's consent"
no_english "section 13"
s13=$(screen)
key Enter
expect 10 'A két óra együtt' "both clocks together"
key -l -- 5
key Enter
expect 10 'Újrakezdés vagy döntetlen \(13\. pont\)' "restart or draw"
key 2
TUI_K_DIGITS='számjegyek írnak' TUI_K_CHOOSE=' választás' TUI_K_MARKED='Enter a jelölt'
TUI_K_CONTINUE='Enter tovább'
walk_flow 0 'ERŐSÍTSÉTEK MEG AZ EREDMÉNYT'
no_english "confirmation"
confirm_all 'ERŐSÍTSÉTEK MEG AZ EREDMÉNYT' 'EREDMÉNY ELFOGADVA'
no_english "result accepted"
ok "Hungarian Tantrix table at 80x24:
$main
$tx11
$s13
$(screen)"
tui_finish
e2e_done
