#!/usr/bin/env bash
# test_import.sh - `tourney import` and `tourney export` as an organiser
# uses them (docs/event-file.md, issue 10): a real ListFortress event (from
# tests/data/external) becomes an event file that
# `standings` and `pair` take; a file with a data error, an unknown kind and
# an unreadable file each give one stderr line and the documented exit
# status; export writes ListFortress and NRTM JSON that import back to the
# same standings; an event of a 4-player game cannot be exported.
#
# usage: bash test_import.sh /path/to/tourney /path/to/tests
set -u
TOURNEY=${1:?tourney binary}
TESTS=${2:?tests directory}
DATA=$TESTS/data/external/listfortress
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
run() {
    local want=$1
    shift
    "$TOURNEY" "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    [ "$got" = "$want" ] && return 0
    fail "tourney $*: exit $got, wanted $want; stderr: $(cat "$TMP/err")"
    return 1
}
one_error_line() {
    [ "$(wc -l <"$TMP/err")" = 1 ] || fail "$CASE: stderr: $(cat "$TMP/err")"
    grep -qF -- "$1" "$TMP/err" || fail "$CASE: stderr lacks \"$1\": $(cat "$TMP/err")"
    [ -s "$TMP/out" ] && fail "$CASE: stdout not empty on error"
    return 0
}
[ -d "$DATA" ] || { echo "FAIL: no $DATA" >&2; exit 1; }

CASE="import listfortress"
if run 0 import listfortress "$DATA/1000.json"; then
    cp "$TMP/out" "$TMP/ev.json"
    [ -s "$TMP/err" ] && fail "$CASE: stderr: $(cat "$TMP/err")"
    grep -q '"name": "xwing-2.0"' "$TMP/ev.json" || fail "$CASE: not on xwing-2.0"
    run 0 standings "$TMP/ev.json" && cp "$TMP/out" "$TMP/st.json"
    # Stored in the file: p1 first with score 4 and MoV 1299.
    grep -A6 '"rank": 1,' "$TMP/st.json" | grep -q '"player": "p1"' ||
        fail "$CASE: p1 is not first: $(head -c 300 "$TMP/st.json")"
    grep -q '"mov": 1299' "$TMP/st.json" || fail "$CASE: no MoV 1299"
    # The Swiss is complete; with a cut the next round is the top cut.
    sed -e 's/"cut": 0/"cut": 8/' "$TMP/ev.json" >"$TMP/cut.json"
    run 0 pair "$TMP/cut.json" && grep -q '"stage": "elimination"' "$TMP/out" ||
        fail "$CASE: pair after the Swiss is not the top cut: $(head -c 300 "$TMP/out")"
fi

CASE="data error"
run 3 import listfortress "$DATA/1002.json" &&
    one_error_line 'listfortress: rounds[0] (swiss round 1).matches[7]: participant 16 is seated twice'
CASE="unknown kind"
run 2 import bcp "$DATA/1000.json" && one_error_line 'import: unknown kind "bcp"'
CASE="unreadable"
run 2 import listfortress "$TMP/none.json" && one_error_line 'cannot read'
CASE="not json"
printf 'participants,rounds\n' >"$TMP/x.csv"
run 3 import cryodex "$TMP/x.csv" && one_error_line 'cryodex: invalid JSON at line 1'

CASE="export listfortress"
if run 0 export listfortress "$TMP/ev.json"; then
    grep -q '"swiss_rank": 1' "$TMP/out" || fail "$CASE: no swiss_rank"
    cp "$TMP/out" "$TMP/lf.json"
    run 0 import listfortress "$TMP/lf.json" && cp "$TMP/out" "$TMP/back.json"
    run 0 standings "$TMP/back.json"
    # Same points and tiebreaks (the lot may differ: the id is not exported).
    grep -v '"lot"\|"rank"' "$TMP/out" | sort >"$TMP/b"
    grep -v '"lot"\|"rank"' "$TMP/st.json" | sort >"$TMP/a"
    cmp -s "$TMP/a" "$TMP/b" || fail "$CASE: standings differ after export and import"
fi
CASE="export nrtm"
if run 0 export nrtm "$TMP/ev.json"; then
    grep -q '"matchPoints"' "$TMP/out" || fail "$CASE: no matchPoints"
    cp "$TMP/out" "$TMP/nrtm.json"
    run 0 import nrtm "$TMP/nrtm.json"
fi
CASE="export a 4-player game"
run 3 export listfortress "$TESTS/cases/catan-round.json" &&
    one_error_line 'export: ListFortress takes 2-player events; "catan" seats 4'

# Issue 19: what is kept with a warning is imported (exit 0), each warning
# one stderr line naming its place in the source file.
CASE="ListFortress cut in bracket order"
if run 0 import listfortress "$DATA/1005.json"; then
    cp "$TMP/out" "$TMP/cut1005.json"
    run 0 standings "$TMP/cut1005.json"
    # 1005.json stores the final as round 2: its winner p1 is the champion.
    grep -A6 '"rank": 1,' "$TMP/out" | grep -q '"player": "p1"' ||
        fail "$CASE: p1 (top_cut_rank 1) is not first"
    grep -A6 '"rank": 2,' "$TMP/out" | grep -q '"player": "p2"' ||
        fail "$CASE: p2 (top_cut_rank 2) is not second"
fi
CASE="ListFortress tie kept with a warning"
if run 0 import listfortress "$DATA/464.json"; then
    grep -q '^warning: listfortress: rounds\[[0-9]*\] (swiss round 2)\.matches\[[0-9]*\]: a game without a winner (82-82' "$TMP/err" ||
        fail "$CASE: stderr: $(cat "$TMP/err")"
fi
CASE="Cobra export with a top cut"
run 0 import nrtm "$TESTS/cases/import/cobra-dss-topcut.json" &&
    { grep -q '"name": "netrunner-dss"' "$TMP/out" || fail "$CASE: not double-sided"
      grep -qF 'warning: nrtm: rounds[3][0]: the top cut (eliminationGame' "$TMP/err" ||
          fail "$CASE: stderr: $(cat "$TMP/err")"; }
CASE="Cobra export taken mid-round"
if run 0 import nrtm "$TESTS/cases/import/cobra-dss-midround.json"; then
    cp "$TMP/out" "$TMP/mid.json"
    [ "$(wc -l <"$TMP/err")" = 1 ] && grep -qF 'warning: nrtm: rounds[2]: 2 pairings without a result' "$TMP/err" ||
        fail "$CASE: stderr: $(cat "$TMP/err")"
    # The round in progress is the last: pair refuses past it.
    "$TOURNEY" pair "$TMP/mid.json" >"$TMP/out" 2>"$TMP/err" &&
        fail "$CASE: pair paired past the round in progress"
    grep -q 'round' "$TMP/err" || fail "$CASE: pair: $(cat "$TMP/err")"
    run 0 standings "$TMP/mid.json" && grep -q '"after_round": 2' "$TMP/out" ||
        fail "$CASE: standings not after round 2"
    # Exported as Cobra writes it mid-round, it imports back in progress.
    run 0 export nrtm "$TMP/mid.json" && cp "$TMP/out" "$TMP/mid-nrtm.json" &&
        run 0 import nrtm "$TMP/mid-nrtm.json" &&
        grep -qF 'warning: nrtm: rounds[2]: 2 pairings without a result' "$TMP/err" ||
        fail "$CASE: export and import lost the round in progress: $(cat "$TMP/err")"
fi
CASE="Cobra out-of-range score"
run 0 import nrtm "$TESTS/cases/import/cobra-dss-out-of-range.json" &&
    { grep -qF 'warning: nrtm: rounds[0][0] (swiss round 1).player1.combinedScore: 8 is outside 0..6' "$TMP/err" ||
        fail "$CASE: stderr: $(cat "$TMP/err")"; }
CASE="AesopsTables"
run 0 import nrtm "$TESTS/cases/import/aesops-sss-bye.json" &&
    { grep -q '"name": "netrunner-sss"' "$TMP/out" || fail "$CASE: not single-sided"; }

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "all import/export checks passed"
