#!/usr/bin/env bash
# test_table_language_nb.sh - issue 21: an Agricola event in Norwegian
# Bokmål ("language": "nb") at a table (real broker, hub, table client in
# tmux at 80x24): AG-14 words as seed 002 writes them ("draft",
# "hurtigspill"), the AG-4 steps before the game ("starting player",
# "1 ekstra Food ved starten av runde 5"), the result steps, every player
# confirms in Norwegian and the hub accepts; no English prompt is left and
# the longer key line is wrapped, not cut.
#
# usage: bash test_table_language_nb.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

TUI_SIZE=80x24 TUI_EVENT_ARGS="--language nb" tui_setup agricola '{}' 8
tui_round
TUI_ENGLISH='PLAYING|enter the result|before the game|time-out|waiting for the draft|TABLE CLOCK|Seats|extra food|Enter continue|cancel the steps|network online|victory points|CONFIRM|notes'
expect 30 '^ SPILLET PÅGÅR' "state in Norwegian"
expect 10 'venter på draft' "AG-14: waiting for the draft, in Norwegian"
expect 10 'BORDKLOKKE \(fra draft\)' "AG-14: the table's clock"
expect 10 '\. merknader' "the last key, wrapped onto the second key row"
no_english "main screen"
main=$(screen)
key +
expect 10 'FØR SPILLET' "pregame"
expect 10 'Bordplassering \(AG-4\)' "AG-4 seats"
key Enter
expect 10 'Merknad 1/[0-9] \(AG-15\)|Starting player \(AG-4\)' "AG-15 notes or AG-4 start"
for ((i = 0; i < 10; i++)); do
    grep_screen 'Starting player \(AG-4\)' && break
    key Enter
    sleep 0.2
done
expect 10 '1 ekstra Food ved starten av runde 5' "seed 002: 1 ekstra Food ved starten av runde 5"
no_english "AG-4 starting player"
start=$(screen)
key /
expect 10 'trinnene avbrutt' "steps cancelled, in Norwegian"
key /
expect 10 'DRAFT 1[45]:[0-9]{2} igjen \(AG-14\)' "draft countdown in Norwegian"
key /
expect 10 'draft ferdig på 0:[0-9]{2} \(AG-14\)' "draft finished"
key Enter
expect 10 'seierspoeng \(VP\)' "result steps in Norwegian"
TUI_K_DIGITS='sifre skriver' TUI_K_CHOOSE=' velg' TUI_K_MARKED='Enter den merkede'
TUI_K_CONTINUE='Enter fortsett'
walk_flow 0 'BEKREFT RESULTATET'
no_english "confirmation"
confirm=$(screen)
confirm_all 'BEKREFT RESULTATET' 'RESULTAT GODTATT'
no_english "result accepted"
ok "Norwegian Agricola table at 80x24:
$main
$start
$confirm
$(screen)"
tui_finish
e2e_done
