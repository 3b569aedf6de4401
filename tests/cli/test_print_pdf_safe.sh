#!/usr/bin/env bash
# test_print_pdf_safe.sh - `tourney print --pdf FILE` never loses FILE
# (issue 22 item 10): a print that fails (a "Chromium" that exits 1)
# leaves an existing FILE as it was and no temporary file beside it, and
# `--pdf` naming the event file being printed is refused before anything
# is written (it used to replace the input with the PDF).
#
# usage: bash test_print_pdf_safe.sh /path/to/tourney /path/to/tests
set -u
TOURNEY=${1:?tourney binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

cd "$TMP" || exit 1
printf '{"format":"catan","seed":1,"players":[{"id":"p1","name":"A"},{"id":"p2","name":"B"},{"id":"p3","name":"C"},{"id":"p4","name":"D"}]}\n' >ev.json
cp ev.json ev.orig
echo 'the PDF printed yesterday' >slips.pdf

TOURNEY_CHROMIUM=/bin/false "$TOURNEY" print pairings ev.json --pdf slips.pdf 2>err
rc=$?
[ "$rc" != 0 ] || fail "a failed print exits 0"
[ "$(cat slips.pdf 2>/dev/null)" = 'the PDF printed yesterday' ] ||
    fail "a failed print changed or deleted slips.pdf"
grep -q 'left as it was' err || fail "the message does not say the PDF is kept: $(cat err)"
left=(.*tourney-print*)
[ ! -e "${left[0]}" ] || fail "a temporary file is left: ${left[*]}"

"$TOURNEY" print pairings ev.json --pdf ev.json 2>err
rc=$?
[ "$rc" = 2 ] || fail "--pdf naming the input: exit $rc, wanted 2"
cmp -s ev.json ev.orig || fail "--pdf naming the input changed the event file"
grep -q 'is the event file being printed' err || fail "no reason given: $(cat err)"
ln -s ev.json link.json
"$TOURNEY" print pairings ev.json --pdf link.json 2>err
rc=$?
if [ "$rc" != 2 ] || ! cmp -s ev.json ev.orig; then
    fail "--pdf through a link to the input: exit $rc"
fi

if [ "$failures" -gt 0 ]; then
    echo "test_print_pdf_safe: $failures failure(s)" >&2
    exit 1
fi
echo "ok - test_print_pdf_safe"
