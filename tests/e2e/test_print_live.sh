#!/usr/bin/env bash
# test_print_live.sh - `tourney live print EV pairings|slips` prints the
# round the hub holds, never one planned from its export (docs/console.md
# "print"): a Neuroshima Hex event of 8 players on a real hub (mosquitto
# on 127.0.0.1, tourney-hub on a temporary SQLite file):
# - round 1 paired as a draft, then the seat-1 players of tables 1 and 2
#   swapped (`round swap`): the pairings (HTML: by name, every player at
#   the table and seat of `round show`; PDF: the banner) and the slips
#   (PDF, pdftotext: one slip per table with exactly its players) show
#   the swap, marked as the hub's draft, not "planned from this file";
#   (the old code planned the round again from the export: the swap was
#   missing and the banner said "planned from this file");
# - round 1 published, then swapped back (CM-5, before its clock): the
#   pairings and slips show the published round as the hub holds it, with
#   no DRAFT banner;
# - round 1 closed and no draft of round 2: `print slips` refused (exit
#   3, says so; the old code planned round 2 from the export), `--round 1`
#   prints round 1; `--round 2` with no draft of round 2 on the hub:
#   refused (exit 3), nothing printed.
#
# Skips (exit 77) without chromium or pdftotext (poppler-utils):
# deploy/install-deps.sh installs them, so CI does not skip.
#
# usage: bash test_print_live.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || skip "no $CHROMIUM (Debian package chromium; deploy/install-deps.sh)"
command -v pdftotext >/dev/null || skip "no pdftotext (Debian package poppler-utils)"
export TOURNEY_CHROMIUM=$CHROMIUM
need_binaries TOURNEY HUB

N_DEV=0
start_broker --tables 1 --organisers o1 --no-ws
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20

EV=swp
GIVEN=(Ada Bo Cy Di Ed Flo Gus Hal)
FAMILY=(Lovelace Berg Cole Dunn Eto Fay Gray Hume)
live 0 event create "$EV" --format neuroshima-hex --title 'Swap Open' --seed 4
for i in 1 2 3 4 5 6 7 8; do
    live 0 player add "$EV" "p$i" "${GIVEN[$((i - 1))]} ${FAMILY[$((i - 1))]}" \
        --army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas
done

# seating FILE: the tables of `round show --json` ($E2E_TMP/out) as lines
# "TABLE<TAB>SEAT<TAB>PLAYER_ID", into FILE.
seating() {
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tables"]:
    for s, p in enumerate(t.get("players", [])):
        print("%d\t%d\t%s" % (t["table"], s + 1, p))' "$E2E_TMP/out" >"$1" ||
        fail "round show --json: $(cat "$E2E_TMP/out")"
    [ "$(wc -l <"$1")" -eq 8 ] || fail "round show: not 8 seats: $(cat "$1")"
}

# check_pairings SEATING WHAT: the pairings by name ($E2E_TMP/out, HTML)
# put every player of SEATING at its table and seat.
check_pairings() {
    local t s id i
    while IFS=$'\t' read -r t s id; do
        i=${id#p}
        grep -q -F "<b>${FAMILY[$((i - 1))]}</b>, ${GIVEN[$((i - 1))]}</td><td class=\"n t\">$t</td><td class=\"n\">$s</td>" "$E2E_TMP/out" ||
            fail "$2: ${GIVEN[$((i - 1))]} ${FAMILY[$((i - 1))]} ($id) not at table $t seat $s as the hub holds it: $(grep -o -E "<b>${FAMILY[$((i - 1))]}</b>, ${GIVEN[$((i - 1))]}</td><td class=\"n t\">[0-9]+</td><td class=\"n\">[0-9]+" "$E2E_TMP/out")"
    done <"$1"
}

# check_slips SEATING PDF WHAT: one slip per table in PDF, each with
# exactly its players of SEATING (by full name).
check_slips() {
    local seating=$1 pdf=$2 dir=${2%.pdf}.d t s id i n
    mkdir -p "$dir"
    pdftotext -layout "$pdf" "$dir/all.txt" || fail "$3: pdftotext $pdf"
    awk -v d="$dir" '/^[ \f]*Table [0-9]+ / { sub(/^[ \f]*/, ""); cur = $2 } cur != "" { print > (d "/slip." cur) }' "$dir/all.txt"
    for t in $(cut -f1 "$seating" | sort -u); do
        [ -f "$dir/slip.$t" ] || fail "$3: no slip for table $t: $(head -n 20 "$dir/all.txt")"
        for i in 1 2 3 4 5 6 7 8; do
            n="${GIVEN[$((i - 1))]} ${FAMILY[$((i - 1))]}"
            if grep -q -P "^$t\tp$i\$" <(cut -f1,3 "$seating"); then
                grep -q -F -- "$n" "$dir/slip.$t" || fail "$3: table $t's slip lacks $n: $(cat "$dir/slip.$t")"
            elif grep -q -F -- "$n" "$dir/slip.$t"; then
                fail "$3: table $t's slip has $n, who plays elsewhere: $(cat "$dir/slip.$t")"
            fi
        done
    done
    [ "$(grep -c -E $'^[ \f]*Table [0-9]+ ' "$dir/all.txt")" -eq 4 ] ||
        fail "$3: $(grep -c -E $'^[ \f]*Table [0-9]+ ' "$dir/all.txt") slips for 4 tables"
}

# ---- the draft, edited -------------------------------------------------------
live 0 round pair "$EV" --json
seating "$E2E_TMP/paired"
a=$(awk -F'\t' '$1 == 1 && $2 == 1 { print $3 }' "$E2E_TMP/paired")
b=$(awk -F'\t' '$1 == 2 && $2 == 1 { print $3 }' "$E2E_TMP/paired")
live 0 round swap "$EV" 1 "$a" "$b"
live 0 round show "$EV" --json
seating "$E2E_TMP/draft"
! cmp -s "$E2E_TMP/paired" "$E2E_TMP/draft" || fail "round swap $a $b changed nothing"
grep -q -P "^1\t1\t$b\$" "$E2E_TMP/draft" && grep -q -P "^2\t1\t$a\$" "$E2E_TMP/draft" ||
    fail "round show after the swap: $(cat "$E2E_TMP/draft")"

live 0 print "$EV" pairings
check_pairings "$E2E_TMP/draft" "pairings of the edited draft"
grep -q -F 'DRAFT: the hub&#39;s draft of this round, not published' "$E2E_TMP/out" ||
    fail "pairings of the hub's draft: no banner saying so: $(grep -o '<p class="sub">[^\n]*' "$E2E_TMP/out" | head -n 1)"
! grep -q 'planned from this file' "$E2E_TMP/out" || fail "pairings of the hub's draft say \"planned from this file\""
live 0 print "$EV" pairings --pdf "$E2E_TMP/draft-pairings.pdf"
pdftotext -layout "$E2E_TMP/draft-pairings.pdf" "$E2E_TMP/draft-pairings.txt"
grep -q -F "DRAFT: the hub's draft of this round, not published" "$E2E_TMP/draft-pairings.txt" ||
    fail "pairings PDF of the hub's draft: no banner: $(head -n 5 "$E2E_TMP/draft-pairings.txt")"
live 0 print "$EV" slips --pdf "$E2E_TMP/draft-slips.pdf"
check_slips "$E2E_TMP/draft" "$E2E_TMP/draft-slips.pdf" "slips of the edited draft"
grep -q -F "DRAFT: the hub's draft of this round, not published" "$E2E_TMP/draft-slips.d/all.txt" ||
    fail "slips PDF of the hub's draft: no banner"
ok "the edited draft (table 1 seat 1 $a <-> table 2 seat 1 $b): pairings and slips as the hub holds it, marked as its draft"

# ---- the published round, edited before its clock (CM-5) --------------------------
live 0 round publish "$EV"
live 0 round swap "$EV" 1 "$a" "$b"
live 0 round show "$EV" --json
seating "$E2E_TMP/published"
cmp -s "$E2E_TMP/paired" "$E2E_TMP/published" || fail "the published round swapped back: $(cat "$E2E_TMP/published")"
live 0 print "$EV" pairings
check_pairings "$E2E_TMP/published" "pairings of the published round"
! grep -q 'DRAFT' "$E2E_TMP/out" || fail "pairings of the published round marked DRAFT"
live 0 print "$EV" slips --pdf "$E2E_TMP/published-slips.pdf"
check_slips "$E2E_TMP/published" "$E2E_TMP/published-slips.pdf" "slips of the published round"
! grep -q 'DRAFT' "$E2E_TMP/published-slips.d/all.txt" || fail "slips of the published round marked DRAFT"
ok "the published round (swapped back): pairings and slips as the hub holds it, no DRAFT"

# ---- the round closed, no draft yet ----------------------------------------------
for t in 1 2 3 4; do
    w=$(awk -F'\t' -v t="$t" '$1 == t && $2 == 1 { print $3 }' "$E2E_TMP/published")
    live 0 result enter "$EV" 1 "$t" "{\"winner\": \"$w\", \"hq_diff\": 3}"
done
live 0 round close "$EV"
live 3 print "$EV" slips
[ ! -s "$E2E_TMP/out" ] || fail "slips of a closed round with no draft printed something"
grep -q 'round 1 is closed and the hub holds no draft of round 2' "$E2E_TMP/err" ||
    fail "slips of a closed round with no draft: $(cat "$E2E_TMP/err")"
live 0 print "$EV" pairings --round 1
check_pairings "$E2E_TMP/published" "pairings of the closed round 1"
ok "round 1 closed, no draft of round 2: slips refused (never planned from the export), --round 1 prints round 1"

# ---- a round the hub does not hold -----------------------------------------------
live 3 print "$EV" pairings --round 2 --pdf "$E2E_TMP/never.pdf"
[ ! -e "$E2E_TMP/never.pdf" ] && [ ! -s "$E2E_TMP/out" ] || fail "print --round 2 without a draft printed something"
grep -q 'no draft round' "$E2E_TMP/err" || fail "print --round 2 without a draft: $(cat "$E2E_TMP/err")"
ok "--round 2 with no draft on the hub: refused, nothing printed"
e2e_done
