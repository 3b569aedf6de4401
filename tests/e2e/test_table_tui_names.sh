#!/usr/bin/env bash
# test_table_tui_names.sh - every name right on the table display (issue
# 8 part 1): eight players named in Polish, Czech, Hungarian, Norwegian,
# Vietnamese, Chinese (double width), French and one very long name play
# Catan (2 tables of 4); the display (tmux, C.UTF-8) shows each seat's
# name whole, or cut with "…" at its 60-column field without a broken
# character, and the clubs' column starts at the same screen column on
# every seat line, at 100x30 and at 80x24 (the window resized while
# running).  The device is then moved to table 2 (device assign) so all
# eight names are checked on the same screen.  Under LC_ALL=C (no UTF-8
# locale) the same names are shown as ASCII stand-ins ("Lukasz Wojcik")
# and '?', still aligned.
#
# Widths are measured by perl's Unicode tables (East_Asian_Width, Mn),
# not by the code under test.
#
# usage: bash test_table_tui_names.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"

LONG='Maximilian Alexander Ferdinand Wolfgang von Hohenzollern-Sigmaringen'
NAMES=('Łukasz Wójcik' 'Jiří Šebesta' 'Szőke Ödön' 'Øystein Ærø'
    'Nguyễn Thị Minh Khai' '王小明' 'Zoë Brontë' "$LONG")
TUI_PLAYERS=$E2E_TMP/names.csv
{
    echo 'id,name,club'
    for i in "${!NAMES[@]}"; do echo "p$((i + 1)),${NAMES[$i]},Klub Ř$((i + 1))"; done
} >"$TUI_PLAYERS"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

# dcol LINE NEEDLE: the screen column (display width before it) where
# NEEDLE starts in LINE, -1 when absent.
dcol() {
    perl -CSA -e 'my ($l, $n) = @ARGV; my $i = index($l, $n);
        if ($i < 0) { print -1; exit }
        my $w = 0;
        for my $c (split //, substr($l, 0, $i)) {
            $w += $c =~ /[\p{Mn}\p{Me}\p{Cf}]/ ? 0
                : $c =~ /[\p{EA=W}\p{EA=F}]/ ? 2 : 1;
        }
        print $w' "$1" "$2"
}

SEEN=()
# check_seats WHAT: the seat lines of the screen: each holds a known name
# whole (or the long one cut at 60 columns with "…"), and the clubs'
# "(Klub Ř" starts at the same column on each.
check_seats() {
    local what=$1 line name club_col col n=0 found i expect_col= long=
    expect 20 '^ 4  ' "$what: four seats"
    while IFS= read -r line; do
        [[ $line =~ ^\ [1-4]\ \  ]] || continue
        n=$((n + 1))
        found=
        for i in "${!NAMES[@]}"; do
            name=${NAMES[$i]}
            if [ "$name" = "$LONG" ]; then
                # 60 columns: 59 of the name and the ellipsis.
                [[ $line == *"${LONG:0:59}…"* ]] && found=$i
                [[ $line == *"$LONG"* ]] && fail "$what: the long name is not cut: $line"
            elif [[ $line == *"   $name "* || $line == *"  $name  "* ]]; then
                found=$i
            fi
        done
        [ -n "$found" ] || fail "$what: no whole name on the seat line: '$line'
$(screen)"
        SEEN[$found]=1
        col=$(dcol "$line" '(Klub Ř')
        if [ "${NAMES[$found]}" = "$LONG" ]; then
            # Name field 60 wide after "N  " at column 1.
            [ "$(dcol "$line" '…')" -eq $((1 + 3 + 59)) ] ||
                fail "$what: the long name's ellipsis is not at column 63: $line"
            long=1
        fi
        [ "$col" -ge 0 ] || fail "$what: no club on '$line'"
        if [ -z "$expect_col" ]; then expect_col=$col; fi
        [ "$col" -eq "$expect_col" ] ||
            fail "$what: club column $col, expected $expect_col: '$line'
$(screen)"
    done < <(screen)
    [ "$n" -eq 4 ] || fail "$what: $n seat lines"
    # The name field is as wide as the table's longest name, 24 to 60
    # columns (docs/table-display.md), so every club lines up: 29 with
    # names of 24 columns or less, 65 beside the name cut at 60.
    want=29
    [ -z "$long" ] || want=65
    [ "$expect_col" = "$want" ] ||
        fail "$what: clubs at column $expect_col, expected $want (1 + 3 + $((want - 5)) + 1)"
    ok "$what: four names whole or cut at 60 columns, clubs aligned at column $expect_col"
}

TUI_SIZE=100x30
tui_setup catan '{"rounds": 2}' 8
tui_round
expect 30 '^ PLAYING' "state playing"
check_seats "table 1 at 100x30"
tm resize-window -t tui -x 80 -y 24
expect 10 '^ PLAYING' "redrawn at 80x24"
wait_until 10 eval '[ "$(screen | wc -l)" -eq 24 ]' || fail "pane not 24 rows"
check_seats "table 1 at 80x24"
expect 10 'network online' "bottom lines at 80x24"
screen >"$E2E_TMP/table1-80x24.txt"

# The device moves to table 2: the other four names.
live 0 device assign table-002 ev 0
live 0 device assign table-001 ev 2
expect 20 'Table 2' "table 2 on the display"
check_seats "table 2 at 80x24"
tm resize-window -t tui -x 100 -y 30
wait_until 10 eval '[ "$(screen | wc -l)" -eq 30 ]' || fail "pane not 30 rows"
check_seats "table 2 at 100x30"
expect 10 'network online' "bottom lines at 100x30"
screen >"$E2E_TMP/table2-100x30.txt"
for i in "${!NAMES[@]}"; do
    [ -n "${SEEN[$i]:-}" ] || fail "name ${NAMES[$i]} never shown"
done
ok "all eight names shown on the display"

# No UTF-8 locale: ASCII stand-ins, same columns.
tui_finish
sed -i 's/^export LC_ALL=C.UTF-8 /export LC_ALL=C /' "$E2E_TMP/pane.sh"
rm -f "$E2E_TMP/stop"
tm respawn-pane -k -t tui "bash '$E2E_TMP/pane.sh'"
expect 20 '^ 4  ' "display restarted under LC_ALL=C"
SHOWN=$(screen)
for pair in 'Łukasz Wójcik=Lukasz Wojcik' 'Jiří Šebesta=Jiri Sebesta' \
    'Szőke Ödön=Szoke Odon' 'Øystein Ærø=Oystein Aro' \
    'Nguyễn Thị Minh Khai=Nguyen Thi Minh Khai' '王小明=?????? ' 'Zoë Brontë=Zoe Bronte'; do
    want=${pair#*=}
    if grep -q -F -- "${pair%%=*}" "$E2E_TMP/table2-100x30.txt"; then
        grep -q -F -- "$want" <<<"$SHOWN" || fail "LC_ALL=C: no '$want' for ${pair%%=*}:
$SHOWN"
        ok "LC_ALL=C: ${pair%%=*} shown as '$want'"
    fi
done
grep -q -P '[\x80-\xff]' <<<"$SHOWN" && fail "LC_ALL=C: bytes beyond ASCII on the screen:
$SHOWN"
ok "LC_ALL=C: only ASCII on the screen"
tui_finish
e2e_done
