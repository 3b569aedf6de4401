#!/usr/bin/env bash
# test_console_tui_names.sh - every name right on the organiser's
# dashboard (issue 8 part 1): eight players named in Polish, Czech,
# Hungarian, Norwegian, Vietnamese, Chinese (double width), French and one
# very long name play a Catan round (real hub with its feed, real broker);
# after the round is closed the dashboard (`tourney live console`, tmux,
# C.UTF-8) lists the standings with each name whole, or cut at its
# 32-column field with "…", and the points column right-aligned at the
# same screen column on every row, at 100x30 and at 80x24 (resized while
# running).  Under LC_ALL=C the names are ASCII stand-ins, still aligned.
#
# Widths are measured by perl's Unicode tables (East_Asian_Width, Mn),
# not by the code under test.  The dashboard runs as o2, the test's
# commands as o1.
#
# usage: bash test_console_tui_names.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"

need_binaries TOURNEY HUB
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"

LONG='Maximilian Alexander Ferdinand Wolfgang von Hohenzollern-Sigmaringen'
NAMES=('Łukasz Wójcik' 'Jiří Šebesta' 'Szőke Ödön' 'Øystein Ærø'
    'Nguyễn Thị Minh Khai' '王小明' 'Zoë Brontë' "$LONG")

start_broker --no-ws --organisers o1,o2
live_hub_config 'feed = true' 'feed_interval_ms = 50'
cred o2 >"$E2E_TMP/o2.pw"
hub_launch
live 0 wait-hub --timeout 20
live 0 event create ev --format catan --title 'Pohár Łódź 2026' --seed 7 --options '{"rounds": 2}'
{
    echo 'id,name'
    for i in "${!NAMES[@]}"; do echo "p$((i + 1)),${NAMES[$i]}"; done
} >"$E2E_TMP/names.csv"
live 0 players import ev "$E2E_TMP/names.csv"
live 0 round pair ev
live 0 round publish ev
live 0 clock start ev
live 0 export ev
tr -d ' \n\t' <"$E2E_TMP/out" | grep -o -E '"table":[0-9]+,"players":\[[^]]*\]' |
    sed -E 's/"table":([0-9]+),"players":\[(.*)\]/\1 \2/; s/[",]/ /g' >"$E2E_TMP/tables"
vps=(10 8 6 4)
while read -r table players; do
    read -r -a ids <<<"$players"
    json='{"vp": {'
    for ((k = 0; k < ${#ids[@]}; k++)); do
        [ $k -eq 0 ] || json+=', '
        json+="\"${ids[$k]}\": ${vps[$k]}"
    done
    live 0 result enter ev 1 "$table" "$json}}"
done <"$E2E_TMP/tables"
live 0 round close ev
ok "round 1 of a Catan event with eight non-ASCII names played and closed"

# Each dashboard gets its own tmux server (socket): a new server on the
# socket of one just killed can race with its shutdown.
N_PANES=0
tm() { tmux -S "$E2E_TMP/tmux$N_PANES.sock" "$@"; }
trap 'tui_rc=$?; for s in "$E2E_TMP"/tmux*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; (exit $tui_rc); e2e_cleanup' EXIT
screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen: $(screen); stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
start_pane() { # LOCALE COLS ROWS
    printf '%s\n' "export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=$1 TERM=screen" \
        "exec '$TOURNEY' live --user o2 --password-file '$E2E_TMP/o2.pw' console ev 2>'$E2E_TMP/console.err'" \
        >"$E2E_TMP/pane.sh"
    tm kill-server 2>/dev/null
    N_PANES=$((N_PANES + 1))
    tm -f /dev/null new-session -d -s tui -x "$2" -y "$3" "bash '$E2E_TMP/pane.sh'" ||
        fail "tmux new-session"
}

# dwidth LINE: the columns LINE takes on the screen, trailing blanks
# left out.
dwidth() {
    perl -CSA -e 'my ($l) = @ARGV; $l =~ s/ +$//; my $w = 0;
        for my $c (split //, $l) {
            $w += $c =~ /[\p{Mn}\p{Me}\p{Cf}]/ ? 0
                : $c =~ /[\p{EA=W}\p{EA=F}]/ ? 2 : 1;
        }
        print $w' "$1"
}

# check_standings WHAT NAME...: eight rows "  R. NAME<pad> POINTS": each
# name whole (the last, long one cut at 32 columns with $DOTS), the points'
# last character at the same column on every row.
check_standings() {
    local what=$1 line n=0 i found end want_end=
    shift
    local -a names=("$@")
    expect 20 'STANDINGS after round 1' "$what: standings"
    wait_until 10 eval '[ "$(screen | grep -c -E "^ +[0-9]+\. ")" -eq 8 ]' ||
        fail "$what: eight standings rows: $(screen)"
    while IFS= read -r line; do
        [[ $line =~ ^\ +[0-9]+\.\  ]] || continue
        n=$((n + 1))
        found=
        for i in "${!names[@]}"; do
            if [ "$i" -eq 7 ]; then
                [[ $line == *". ${names[7]:0:31}$DOTS "* ]] && found=$i
            elif [[ $line == *". ${names[$i]} "* ]]; then
                found=$i
            fi
        done
        [ -n "$found" ] || fail "$what: no whole name on the row '$line'"
        end=$(dwidth "$line")
        [ -z "$want_end" ] && want_end=$end
        [ "$end" -eq "$want_end" ] ||
            fail "$what: points end at column $end, expected $want_end: '$line'
$(screen)"
    done < <(screen)
    [ "$n" -eq 8 ] || fail "$what: $n rows"
    # "  NNN. " (2 + 5) + 32 + " " + 8 right-aligned points.
    [ "$want_end" -eq $((2 + 5 + 32 + 1 + 8)) ] || fail "$what: points end at $want_end"
    ok "$what: eight names whole or cut at 32 columns, points aligned (end column $want_end)"
}

DOTS=…
start_pane C.UTF-8 100 30
expect 20 ' Pohár Łódź 2026 ' "title"
check_standings "dashboard 100x30" "${NAMES[@]}"
tm resize-window -t tui -x 80 -y 24
wait_until 10 eval '[ "$(screen | wc -l)" -eq 24 ]' || fail "pane not 24 rows"
check_standings "dashboard 80x24" "${NAMES[@]}"
screen >"$E2E_TMP/dashboard-80x24.txt"

DOTS=. # the ellipsis' stand-in
start_pane C 80 24
ASCII=('Lukasz Wojcik' 'Jiri Sebesta' 'Szoke Odon' 'Oystein Aro'
    'Nguyen Thi Minh Khai' '??????' 'Zoe Bronte' "$LONG")
expect 20 ' Pohar Lodz 2026 ' "LC_ALL=C: title"
check_standings "dashboard LC_ALL=C" "${ASCII[@]}"
grep -q -P '[\x80-\xff]' <<<"$(screen)" && fail "LC_ALL=C: bytes beyond ASCII: $(screen)"
screen >"$E2E_TMP/dashboard-C.txt"
ok "LC_ALL=C: ASCII stand-ins, aligned"
e2e_done
