#!/usr/bin/env bash
# test_console_import_excel.sh - issue 22 item 3 through the organiser's
# console and the real hub: `tourney live players import` of the files
# Excel writes.  "CSV UTF-8" (a byte order mark) and a Czech/Polish
# semicolon file import; a Windows-1250 file is refused naming the line,
# the byte and "CSV UTF-8"; a line break or ESC inside a quoted name is
# refused naming the line and the column; a refused file changes nothing
# (the player list is the same before and after).
#
# usage: bash test_console_import_excel.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"

need_binaries TOURNEY HUB
start_broker --no-ws --tables 1 --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20
live 0 event create ev --format catan --title 'Excel Cup' --seed 2

# refused FILE NEEDLE WHAT: the import fails with NEEDLE and the player
# list does not change.
refused() {
    live 0 players list ev
    cp "$E2E_TMP/out" "$E2E_TMP/before"
    live 3 players import ev "$1"
    cp "$E2E_TMP/err" "$E2E_TMP/refusal"
    grep -q -F -- "$2" "$E2E_TMP/refusal" || fail "$3: \"$(cat "$E2E_TMP/refusal")\" lacks \"$2\""
    # The message carries no control character.
    ! LC_ALL=C grep -q -P '[\x00-\x08\x0b-\x1f\x7f]' "$E2E_TMP/refusal" || fail "$3: a control character in the message"
    live 0 players list ev
    cmp -s "$E2E_TMP/before" "$E2E_TMP/out" || fail "$3: the player list changed"
    ok "$3: refused ($(head -n 1 "$E2E_TMP/refusal" | cut -c1-160)), nothing changed"
}

# Excel "CSV UTF-8": a BOM before "Player name".
printf '\xef\xbb\xbfPlayer name,Club\r\nJiří Šebesta,Brno\r\nŁukasz Ćwik,Kraków\r\n' >"$E2E_TMP/utf8.csv"
live 0 players import ev "$E2E_TMP/utf8.csv"
live 0 players list ev
grep -q 'Jiří Šebesta' "$E2E_TMP/out" && grep -q 'Kraków' "$E2E_TMP/out" ||
    fail "CSV UTF-8 with a BOM: $(cat "$E2E_TMP/out")"
ok "Excel's CSV UTF-8 (BOM, Player name): imported"

# Czech Excel: semicolons, a decimal comma.
printf 'Player name;Team;Elo\r\nTomáš Dvořák;"Brno; Hex";1490,5\r\nZuzana Nováková;;1510\r\n' >"$E2E_TMP/semi.csv"
live 0 players import ev "$E2E_TMP/semi.csv"
live 0 players list ev
grep -q 'Tomáš Dvořák' "$E2E_TMP/out" && grep -q 'Brno; Hex' "$E2E_TMP/out" &&
    grep -q 'Zuzana Nováková' "$E2E_TMP/out" || fail "semicolon file: $(cat "$E2E_TMP/out")"
ok "Czech Excel's ';' file: imported"

# Windows-1250 (Excel's plain "CSV"): "Jiří" = 4A 69 F8 ED.
printf 'name,club\nAnna,X\nJi\xf8\xed Nov\xe1k,Brno\n' >"$E2E_TMP/cp1250.csv"
refused "$E2E_TMP/cp1250.csv" 'csv line 3, byte 3: not UTF-8' "Windows-1250 file"
grep -q -F 'save it as "CSV UTF-8' "$E2E_TMP/refusal" || fail "no advice: $(cat "$E2E_TMP/refusal")"

printf 'name,club\n"Eve\nRed",X\n' >"$E2E_TMP/break.csv"
refused "$E2E_TMP/break.csv" 'csv line 2, column name: a line break' "a line break in a quoted name"
printf 'name,club\nAnn,X\n"Eve\x1b[31mRed",X\n' >"$E2E_TMP/esc.csv"
refused "$E2E_TMP/esc.csv" 'csv line 3, column name: an escape (ESC)' "ESC in a quoted name"
e2e_done
