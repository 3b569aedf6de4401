#!/usr/bin/env bash
# store_layers.sh - the files of hub/store form a DAG (issue 12: no
# include or call cycle): read from the symbols of the built library, a
# file calls a function of another only when the other does not call it
# back, directly or around a longer loop, and store.c (open, close,
# migrations) is called by none of them.
#
# usage: bash store_layers.sh LIBTNY_HUB_STORE.a
set -euo pipefail
lib=${1:?usage: store_layers.sh LIBTNY_HUB_STORE.a}
command -v nm >/dev/null || { echo "FAIL: nm not found (binutils)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "member symbol" for each global definition, and for each reference.
nm -A --defined-only "$lib" | awk '$(NF-1) ~ /^[TDBR]$/ { split($1, a, ":"); print a[2], $NF }' >"$tmp/def"
nm -A --undefined-only "$lib" | awk '{ split($1, a, ":"); print a[2], $NF }' >"$tmp/und"
[ -s "$tmp/def" ] || { echo "FAIL: no symbols defined in $lib"; exit 1; }
# "caller callee" per pair of files.
awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
    "$tmp/def" "$tmp/und" | sort -u >"$tmp/edges"
cat "$tmp/edges"
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort.err"; then
    echo "FAIL: the store's files call each other in a loop: $(cat "$tmp/tsort.err")"
    exit 1
fi
if awk '$2 == "store.c.o"' "$tmp/edges" | grep -q .; then
    echo "FAIL: store.c is called back by: $(awk '$2 == "store.c.o" { print $1 }' "$tmp/edges" | tr '\n' ' ')"
    exit 1
fi
[ "$(wc -l <"$tmp/edges")" -gt 0 ] || { echo "FAIL: no calls between files found"; exit 1; }
echo "ok - $(wc -l <"$tmp/edges") caller/callee pairs of files, no loop, store.c called by none"
