#!/usr/bin/env bash
# test_ratings.sh - `tourney ratings` (AG-2, TX-12) on two small past
# events, run against the real binary.
#   event1: a beats b, a beats c, b beats c (3 games; c plays only here).
#   event2: a beats b, b beats a, a beats b.
# AG-2 eligibility: a and b played 2 events and 5 games -> rated; c played
# 1 event and 2 games -> listed without a rating.  K = 20, start 1500:
# the first game gives a 1510 and b 1490 (two equal players, E = 0.5).
# usage: bash test_ratings.sh /path/to/tourney /path/to/tests
set -u
TOURNEY=${1:?tourney binary}
TESTS=${2:?tests directory}
CASES="$TESTS/cases/ratings"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

out=$("$TOURNEY" ratings "$CASES/event1.json" "$CASES/event2.json") ||
    fail "ratings exited $?"
# one JSON object per player, in first-seen order: a, b, c
compact=$(printf '%s' "$out" | tr -d ' \n')
case "$compact" in
*'"id":"a","name":"Anna","rating":'*'"games":5,"events":2,"rated":true'*) ;;
*) fail "a is not rated with 5 games in 2 events: $compact" ;;
esac
case "$compact" in
*'"id":"b","name":"Bela","rating":'*'"games":5,"events":2,"rated":true'*) ;;
*) fail "b is not rated with 5 games in 2 events: $compact" ;;
esac
case "$compact" in
*'"id":"c","name":"Cyril","elo":'*'"games":2,"events":1,"rated":false'*) ;;
*) fail "c should be listed unrated (1 event, 2 games): $compact" ;;
esac
# a won 3 of 4 against b and beat c: a's rating above b's, b's above c's
ra=$(printf '%s' "$compact" | grep -o '"id":"a"[^}]*"elo":[0-9.]*' | grep -o '[0-9.]*$')
rb=$(printf '%s' "$compact" | grep -o '"id":"b"[^}]*"elo":[0-9.]*' | grep -o '[0-9.]*$')
rc=$(printf '%s' "$compact" | grep -o '"id":"c"[^}]*"elo":[0-9.]*' | grep -o '[0-9.]*$')
awk -v a="$ra" -v b="$rb" -v c="$rc" 'BEGIN { exit !(a > b && b > c && a + b + c > 4499.99 && a + b + c < 4500.01) }' ||
    fail "ratings not ordered a > b > c with the sum 4500 kept: $ra $rb $rc"

# usage errors: no file, unreadable file, invalid event
"$TOURNEY" ratings >/dev/null 2>&1
[ $? = 2 ] || fail "ratings without files should exit 2"
"$TOURNEY" ratings /nonexistent.json >/dev/null 2>&1
[ $? = 2 ] || fail "ratings on a missing file should exit 2"
echo '{"format":"catan","players":[{"id":"a"}]}' >"${TMPDIR:-/tmp}/tny-bad-$$.json"
"$TOURNEY" ratings "${TMPDIR:-/tmp}/tny-bad-$$.json" >/dev/null 2>&1
[ $? = 3 ] || fail "ratings on an invalid event should exit 3"
rm -f "${TMPDIR:-/tmp}/tny-bad-$$.json"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "ratings: all checks passed"
