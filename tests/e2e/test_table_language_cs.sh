#!/usr/bin/env bash
# test_table_language_cs.sh - issue 21: a Catan event in Czech ("language":
# "cs") at a table (real broker, hub, table client in tmux at 80x24): the
# CT-9 start in seed 004's words ("Každý hráč hodí dvěma kostkami a ten,
# kdo hodil nejvíce, začíná"), the CT-9 board on the notes screen, the
# CT-8 time-out question, the CT-4 result steps; every player confirms in
# Czech and the hub accepts; no English prompt is left.  The table's own
# setting (hu) loses to the event's language and is back once the device
# is unassigned.
#
# usage: bash test_table_language_cs.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

TUI_SIZE=80x24 TUI_EVENT_ARGS="--language cs" TUI_TABLE_LINES='language = "hu"' TUI_K_ONLINE='hálózat rendben' \
    tui_setup catan '{"rounds": 2}' 8
tui_round
TUI_ENGLISH='PLAYING|enter the result|before the game|time-out|Starting player|highest roll|Roll real dice|Enter continue|cancel the steps|network online|victory points|CONFIRM|Board for this game|notes'
expect 30 '^ HRAJE SE' "state in Czech"
expect 10 'Stůl 1' "table number in Czech"
no_english "main screen"
main=$(screen)
key .
expect 10 'Herní plán pro tuto hru \(CT-9\)' "the CT-9 board on the notes screen"
no_english "notes"
key .
key +
expect 10 'Začínající hráč \(CT-9\)' "CT-9 starting player"
expect 10 'hodil nejvíce, začíná' "seed 004: kdo hodil nejvíce, bude hru začínat"
no_english "CT-9"
ct9=$(screen)
key 2
expect 10 'Kostky \(CT-9\)' "virtual dice"
no_english "CT-9 dice"
key /
expect 10 'kroky zrušeny' "steps cancelled, in Czech"
key '*'
expect 10 'Kdo hrál první tah\?|Kdo je teď na tahu\?' "CT-8 time-out question"
no_english "CT-8"
key /
key Enter
expect 10 'vítězné body' "result steps in Czech"
TUI_K_DIGITS='číslice píší' TUI_K_CHOOSE=' volba' TUI_K_MARKED='Enter označená'
TUI_K_CONTINUE='Enter pokračovat'
walk_flow 0 'POTVRĎTE VÝSLEDEK'
no_english "confirmation"
confirm=$(screen)
confirm_all 'POTVRĎTE VÝSLEDEK' 'VÝSLEDEK PŘIJAT'
no_english "result accepted"
ok "Czech Catan table at 80x24:
$main
$ct9
$confirm
$(screen)"

# Freed from the event (as at its end, issue 22): the table waits in its
# own language setting (hu), no longer in the event's (cs).
live 0 device assign table-001 ev 0
expect 20 'VÁRAKOZÁS A FORDULÓRA' "the waiting screen in the table's own language (hu)"
grep_screen 'ČEKÁ SE NA KOLO|WAITING' && fail "not Hungarian: $(screen)"
ok "unassigned: the table's language setting (hu) again"
tui_finish
e2e_done
