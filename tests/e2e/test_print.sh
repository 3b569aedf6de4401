#!/usr/bin/env bash
# test_print.sh - the printouts: `tourney print` offline and `tourney
# live print` against a real hub, HTML and PDF (headless Chromium), read
# back with pdftotext / pdftoppm.  For each game (NH, TX, AG, GT, CT) a
# complete event from `tourney demo` with player 1 renamed to hostile
# HTML, and cuts of it:
# - round 2 in progress (no results): `print slips` defaults to it and
#   has one slip per table of round 2 with exactly that table's players,
#   the format's fields (NH-1/NH-11 winner, draw, HQ difference, army
#   played; TX-3 score and clock time; AG-1 VP/IP/BP; GT-1 winner and
#   modified win; CT VP) and a signature line per player; A4 by default,
#   Letter with --paper letter; every page renders (pdftoppm);
# - round 1 complete: `print pairings` is the next round as `tourney
#   pair` plans it (marked DRAFT), by table and by name (every player
#   with the table and seat), the hostile name escaped;
# - the whole event: `print standings` in the order of `tourney
#   standings` with its points, `print final` the same order in the PDF;
#   `print final` of an unfinished event fails with exit 3 and says so;
#   bad arguments fail with exit 2 and change nothing;
# - fixed column widths (issue 24): seat-1 names that fit half the page
#   stay on one line beside a very long seat-2 name, and the slips'
#   Player column starts at the same place on every slip (pdftotext
#   -bbox).
# - CJK names (王小明, はるか, 김민준) print in the CJK font the CSS names:
#   pdffonts lists it, pdftotext reads the names back (issue 22 item 4).
# - languages (issue 21): Polish NH and Czech Catan printouts (--lang and
#   the locale) in the seeds' words with no English heading, decimal
#   commas and the month's genitive in the date; Hungarian headings wrap
#   between words, never inside one.
# Then live: a Neuroshima Hex event with round 1 published on a real hub:
# `tourney live print EV slips --pdf` has a slip for every table of
# `tourney live round show`, `live print EV pairings` lists every player.
#
# Skips (exit 77) without chromium, pdftotext/pdftoppm (poppler-utils) or
# node: deploy/install-deps.sh installs them, so CI does not skip.
#
# usage: bash test_print.sh SOURCE_DIR BUILD_DIR
# before lib.sh, which sets the default of 120 s: five games in Chromium
E2E_TIMEOUT=${E2E_TIMEOUT:-420}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || skip "no $CHROMIUM (Debian package chromium; deploy/install-deps.sh)"
command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null ||
    skip "no pdftotext/pdftoppm (Debian package poppler-utils)"
command -v node >/dev/null || skip "no node (Debian package nodejs)"
export TOURNEY_CHROMIUM=$CHROMIUM
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
FIX=$E2E_SRC/tests/e2e/print_fixture.js
HOSTILE='<b>Zoë & "O'\''Brien"</b>'
HOSTILE_HTML='&lt;b&gt;Zoë &amp; &quot;O&#39;Brien&quot;&lt;/b&gt;'

# check_slips PDF TABLES FIELDS...: every table of TABLES
# ("N<TAB>name..." lines) has exactly one slip "Table N" in PDF, with its
# players, a signature line each, and every FIELD (a regex).
check_slips() {
    local pdf=$1 tables=$2 n name line dir
    shift 2
    dir=${pdf%.pdf}.d
    mkdir -p "$dir"
    pdftotext -layout "$pdf" "$dir/all.txt" || fail "pdftotext $pdf"
    awk -v d="$dir" '/^[ \f]*Table [0-9]+ / { sub(/^[ \f]*/, ""); cur = $2; n[cur]++ } cur != "" { print > (d "/slip." cur) }
                     END { for (t in n) if (n[t] != 1) print "table " t ": " n[t] " slips" > (d "/dup") }' "$dir/all.txt"
    [ ! -s "$dir/dup" ] || fail "$pdf: $(cat "$dir/dup")"
    [ "$(grep -c -E $'^[ \f]*Table [0-9]+ ' "$dir/all.txt")" -eq "$(wc -l <"$tables")" ] ||
        fail "$pdf: $(grep -c -E $'^[ \f]*Table [0-9]+ ' "$dir/all.txt") slips for $(wc -l <"$tables") tables"
    while IFS= read -r line; do
        n=${line%%$'\t'*}
        [ -f "$dir/slip.$n" ] || fail "$pdf: no slip for table $n"
        local rest=${line#*$'\t'} seats=0
        while IFS= read -r name; do
            seats=$((seats + 1))
            grep -q -F -- "$name" "$dir/slip.$n" || fail "$pdf: table $n's slip lacks $name"
            grep -q -F -- "Signature: ${name:0:8}" "$dir/slip.$n" || fail "$pdf: table $n: no signature line for $name"
        done < <(tr '\t' '\n' <<<"$rest")
        [ "$(grep -o 'Signature:' "$dir/slip.$n" | wc -l)" -eq "$seats" ] ||
            fail "$pdf: table $n: $(grep -o 'Signature:' "$dir/slip.$n" | wc -l) signature lines for $seats players"
        for f in "$@"; do
            grep -q -E -- "$f" "$dir/slip.$n" || fail "$pdf: table $n's slip lacks \"$f\""
        done
    done <"$tables"
    # every page renders
    local pages
    pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
    pdftoppm -r 40 -png "$pdf" "$dir/page" || fail "pdftoppm $pdf"
    [ "$(ls "$dir"/page*.png | wc -l)" -eq "${pages:-0}" ] && [ "$pages" -gt 0 ] ||
        fail "$pdf: pdftoppm made $(ls "$dir"/page*.png | wc -l) pictures of ${pages:-?} pages"
}

print0() {
    "$TOURNEY" print "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err" ||
        fail "tourney print $*: exit $?: $(cat "$E2E_TMP/err")"
}

declare -A PLAYERS=([neuroshima-hex]=12 [tantrix]=12 [agricola]=16 [got-lcg2]=12 [catan]=16)
declare -A FIELDS=(
    [neuroshima-hex]='Army played|Winner|HQ difference|Draw'
    [tantrix]='Score|Clock time left'
    [agricola]='VP|IP|BP'
    [got-lcg2]='Winner|Modified win'
    [catan]='VP')
for g in neuroshima-hex tantrix agricola got-lcg2 catan; do
    d=$E2E_TMP/$g
    mkdir -p "$d"
    "$TOURNEY" demo --format "$g" --players "${PLAYERS[$g]}" --seed 7 --out "$d/full.json" --quiet \
        >/dev/null 2>"$E2E_TMP/err" || fail "demo $g: $(cat "$E2E_TMP/err")"
    node "$FIX" cut "$d/full.json" 100 closed "$HOSTILE" >"$d/event.json"
    node "$FIX" cut "$d/full.json" 2 open "$HOSTILE" >"$d/open.json"
    node "$FIX" cut "$d/full.json" 1 closed "$HOSTILE" >"$d/one.json"

    # slips of the round in progress, A4; Letter on request
    node "$FIX" tables "$d/open.json" 2 >"$d/tables.2"
    print0 slips "$d/open.json" --pdf "$d/slips.pdf"
    pdfinfo "$d/slips.pdf" | grep -q 'Page size:.*(A4)' || fail "$g slips: not A4: $(pdfinfo "$d/slips.pdf" | grep 'Page size')"
    IFS='|' read -r -a f <<<"${FIELDS[$g]}"
    check_slips "$d/slips.pdf" "$d/tables.2" "${f[@]}"
    print0 slips "$d/open.json" --round 2 --paper letter --pdf "$d/slips-letter.pdf"
    pdfinfo "$d/slips-letter.pdf" | grep -q 'Page size:.*(letter)' || fail "$g slips --paper letter: not Letter"
    check_slips "$d/slips-letter.pdf" "$d/tables.2" "${f[@]}"

    # pairings of the next round (a draft), by table and by name
    "$TOURNEY" pair "$d/one.json" >"$d/pair.json" 2>"$E2E_TMP/err" || fail "pair $g: $(cat "$E2E_TMP/err")"
    node "$FIX" tables "$d/one.json" 0 <"$d/pair.json" >"$d/tables.next"
    print0 pairings "$d/one.json"
    cp "$E2E_TMP/out" "$d/pairings.html"
    grep -q 'DRAFT' "$d/pairings.html" || fail "$g pairings of the next round not marked as a draft"
    grep -q -F -- "$HOSTILE_HTML" "$d/pairings.html" || fail "$g pairings: the hostile name is not escaped"
    ! grep -q -F -- '<b>Zoë' "$d/pairings.html" || fail "$g pairings: the hostile name is raw HTML"
    print0 pairings "$d/one.json" --pdf "$d/pairings.pdf"
    pdftotext -layout "$d/pairings.pdf" "$d/pairings.txt"
    while IFS= read -r line; do
        n=${line%%$'\t'*}
        seat=0
        while IFS= read -r name; do
            seat=$((seat + 1))
            sur=${name##* } given=${name% *}
            [ "$sur" != "$name" ] || given=
            # by name: "<b>Surname</b>, Given</td><td class="n t">TABLE</td><td class="n">SEAT</td>"
            esc_sur=$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g; s/'\''/\&#39;/g' <<<"$sur")
            grep -q -F -- "<b>$esc_sur</b>" "$d/pairings.html" ||
                fail "$g pairings by name: no $name"
            grep -F -- "<b>$esc_sur</b>" "$d/pairings.html" | grep -q -F -- "<td class=\"n t\">$n</td><td class=\"n\">$seat</td>" ||
                fail "$g pairings by name: $name not at table $n seat $seat"
        done < <(tr '\t' '\n' <<<"${line#*$'\t'}")
    done <"$d/tables.next"
    grep -q -F 'Pairings by name' "$d/pairings.txt" && grep -q -F 'Pairings by table' "$d/pairings.txt" ||
        fail "$g pairings PDF lacks a section"

    # standings and the final classification: the engine's order
    "$TOURNEY" standings "$d/event.json" >"$d/standings.json" || fail "standings $g"
    node "$FIX" standings "$d/event.json" <"$d/standings.json" >"$d/order"
    print0 final "$d/event.json" --pdf "$d/final.pdf"
    pdftotext -layout "$d/final.pdf" "$d/final.txt"
    grep -q 'Final classification' "$d/final.txt" || fail "$g final: no title"
    prev=0
    while IFS= read -r name; do
        # (a long name may wrap in the PDF's text: its first 12 characters)
        at=$(grep -n -F -- "${name:0:12}" "$d/final.txt" | head -n 1 | cut -d: -f1)
        [ -n "$at" ] && [ "$at" -gt "$prev" ] || fail "$g final: $name missing or out of order (line ${at:-none} after $prev)"
        prev=$at
    done <"$d/order"
    print0 standings "$d/event.json"
    first=$(head -n 1 "$d/order")
    pts=$(node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1])).standings[0]; console.log(s.points)' "$d/standings.json")
    grep -q -F -- "<td class=\"n t\">1</td>" "$E2E_TMP/out" && grep -F -A0 -- "$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g; s/'\''/\&#39;/g' <<<"$first")" "$E2E_TMP/out" |
        head -n 1 | grep -q -F "<b>$pts</b>" || fail "$g standings: rank 1 is not $first with $pts points"
    "$TOURNEY" print final "$d/open.json" >/dev/null 2>"$E2E_TMP/err"
    [ $? -eq 3 ] && grep -q 'is not finished' "$E2E_TMP/err" || fail "$g final of an unfinished event: $(cat "$E2E_TMP/err")"
    ok "$g: slips of round 2 ($(wc -l <"$d/tables.2") tables, A4 and Letter), next round's pairings, standings, final classification"
done

# Issue 22 item 8: family name first (docs/console.md "Family names"):
# written before a comma or in capitals, it is what "by name" sorts by and
# shows first; the others sort by their last word as before.
d=$E2E_TMP/family
mkdir -p "$d"
node -e '
const fs = require("fs");
const ev = JSON.parse(fs.readFileSync(process.argv[1]));
const names = ["SZŐKE Ödön", "Zoltán Nagy", "Anna Pál", "NGUYỄN Văn An", "Trần, Thị Lan"];
ev.players.forEach((p, i) => { p.name = i < names.length ? names[i] : "Zz Player " + i; });
fs.writeFileSync(process.argv[2], JSON.stringify(ev));' "$E2E_TMP/neuroshima-hex/one.json" "$d/one.json" ||
    fail "family names fixture"
print0 pairings "$d/one.json"
sed -n '/Pairings by name/,$p' "$E2E_TMP/out" | grep -o '<tr><td><b>[^<]*</b>, [^<]*' |
    sed 's|<tr><td><b>||; s|</b>||' | grep -v 'Zz Player' >"$d/order"
want=$'Nagy, Zoltán\nNGUYỄN, Văn An\nPál, Anna\nSZŐKE, Ödön\nTrần, Thị Lan'
[ "$(cat "$d/order")" = "$want" ] ||
    fail "pairings by name, family names: $(tr '\n' '|' <"$d/order")"
print0 pairings "$d/one.json" --pdf "$d/pairings.pdf"
pdftotext -layout "$d/pairings.pdf" "$d/pairings.txt"
for n in 'SZŐKE, Ödön' 'NGUYỄN, Văn An' 'Trần, Thị Lan' 'Nagy, Zoltán'; do
    grep -q -F -- "$n" "$d/pairings.txt" || fail "pairings PDF: no \"$n\""
done
ok "pairings by name: family names written first (capitals, comma) sort and show first"

# fixed column widths (issue 24): pairings whose seat-1 players have
# names that fit half the page and one seat-2 player a very long one: every
# seat-1 name stays on one line (the seat columns are equally wide, not
# sized by the longest name); the slips of a round with names of every
# length have the Player column at the same place on every slip.
d=$E2E_TMP/widths
mkdir -p "$d"
python3 - "$E2E_TMP/got-lcg2/open.json" "$d/event.json" "$d/seat1" <<'PY' || fail "widths fixture"
import json, sys
ev = json.load(open(sys.argv[1]))
names = {}
tables = [t for t in ev["rounds"][1]["tables"] if "table" in t]
for k, t in enumerate(tables):
    a, b = t["players"][:2]
    names[a] = "Bartholomew Kowalczyk-Nowak %d" % k      # half a page: fits
    names[b] = ("Maximiliano Alexandro Ferdinando Wolfgango von "
                "Hohenzollern-Sigmaringen-Württemberg" if k == 0 else "Bo %d" % k)
for p in ev["players"]:
    p.pop("club", None)
    if p["id"] in names:
        p["name"] = names[p["id"]]
json.dump(ev, open(sys.argv[2], "w"), ensure_ascii=False)
open(sys.argv[3], "w").write("".join(names[t["players"][0]] + "\n" for t in tables))
PY
print0 pairings "$d/event.json" --round 2 --pdf "$d/pairings.pdf"
pdftotext -layout "$d/pairings.pdf" "$d/pairings.txt"
while IFS= read -r name; do
    grep -q -F -- "$name" "$d/pairings.txt" ||
        fail "pairings: the seat-1 name \"$name\" is not on one line (its column is too narrow):
$(head -n 30 "$d/pairings.txt")"
done <"$d/seat1"
print0 slips "$d/event.json" --pdf "$d/slips.pdf"
# where each slip's "Player" heading starts on its page, in points
# (pdftotext -bbox: -layout spaces a page by its own text)
pdftotext -bbox "$d/slips.pdf" "$d/slips.html"
cols=$(grep -o '<word xMin="[0-9.]*"[^>]*>Player</word>' "$d/slips.html" |
    sed -E 's/.*xMin="([0-9.]+)".*/\1/' | awk '{ printf "%.0f\n", $1 }' | sort -u)
[ "$(grep -c '>Player</word>' "$d/slips.html")" -eq "$(wc -l <"$d/seat1")" ] && [ "$(wc -l <<<"$cols")" -eq 1 ] ||
    fail "slips: the Player column starts at x = $(tr '\n' ' ' <<<"$cols")pt (expected one place on every slip):
$(pdftotext -layout "$d/slips.pdf" - | grep -E '^ *(Seat|[0-9]+) ' | head -n 20)"
pdftoppm -r 40 -png -f 1 -l 1 "$d/pairings.pdf" "$d/pairings" || fail "pdftoppm pairings"
ok "fixed widths: seat-1 names on one line beside a very long seat-2 name; the slips' Player column at one place on $(wc -l <"$d/seat1") slips"

# CJK names (issue 22 item 4): the print CSS names the CJK font, the font
# is embedded in the PDF (pdffonts) and the names read back (pdftotext);
# without the font (deploy/install-deps.sh, the packages' dependency) the
# glyphs were boxes and no CJK font was embedded.
fc-list :lang=zh family | grep -q 'WenQuanYi Micro Hei' ||
    fail "no WenQuanYi Micro Hei (Debian package fonts-wqy-microhei; deploy/install-deps.sh)"
d=$E2E_TMP/cjk
mkdir -p "$d"
node -e 'const fs = require("fs"), ev = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    ["王小明", "佐藤 はるか", "김민준"].forEach((n, i) => { ev.players[i].name = n; });
    fs.writeFileSync(process.argv[2], JSON.stringify(ev));' "$E2E_TMP/neuroshima-hex/one.json" "$d/event.json"
print0 pairings "$d/event.json"
grep -q -F '"WenQuanYi Micro Hei"' "$E2E_TMP/out" || fail "the print CSS does not name the CJK font"
print0 pairings "$d/event.json" --pdf "$d/pairings.pdf"
pdffonts "$d/pairings.pdf" >"$d/fonts" 2>&1 || fail "pdffonts: $(cat "$d/fonts")"
grep -q -i 'WenQuanYi' "$d/fonts" || fail "no CJK font embedded in the PDF: $(cat "$d/fonts")"
pdftotext -layout "$d/pairings.pdf" "$d/pairings.txt"
for name in 王小明 はるか 김민준; do
    grep -q -F -- "$name" "$d/pairings.txt" || fail "pdftotext does not find $name in the pairings PDF"
done
pdftoppm -r 60 -png -f 1 -l 1 "$d/pairings.pdf" "$d/page" || fail "pdftoppm of the CJK pairings"
ok "CJK names: the CSS names WenQuanYi Micro Hei, the PDF embeds it, 王小明, はるか and 김민준 read back"

# Issue 21: printouts in the venue's language, from the build's
# catalogues (po/tourney/).  A Polish NH round (seed 000's words: "karta
# turniejowa", "różnica wytrzymałości sztabów", "Punkty Turniejowe", the
# armies' Polish names) and
# Czech Catan (seed 004's: "průběžné pořadí", "herní body",
# "úspěšnost"): the seed's words on the paper and no English heading left;
# numbers with a decimal comma, the date with the month's genitive
# (SOURCE_DATE_EPOCH: 21 November 2026, 10:30 UTC); --lang > the locale;
# Hungarian headings wider than their column wrap between words, never
# inside one (pdftotext -bbox: every heading word whole).
export TOURNEY_LOCALEDIR=$E2E_BUILD/locale
export SOURCE_DATE_EPOCH=1795257000
d=$E2E_TMP/lang
mkdir -p "$d"
[ -f "$TOURNEY_LOCALEDIR/pl/LC_MESSAGES/tourney.mo" ] && [ -f "$TOURNEY_LOCALEDIR/cs/LC_MESSAGES/tourney.mo" ] ||
    fail "no catalogues in $TOURNEY_LOCALEDIR (the build compiles po/tourney/)"
# pdf_text PDF: its text, one line per line of the page
pdf_text() { pdftotext -layout "$1" - || fail "pdftotext $1"; }
# no_english TEXT_FILE WHAT: none of the English headings and words
no_english() {
    local hit
    hit=$(grep -o -E 'Result slips|Pairings by|Table [0-9]|Seat|Player|Army played|Winner|HQ diff|Draw|Signature|round [0-9]|printed|Standings|Final classification|Points|Success rate|Game points|Firsts|DRAFT|Swiss|Gorn rounds' "$1" | sort -u | tr '\n' ' ')
    [ -z "$hit" ] || fail "$2: English left: $hit"
}
NH=$E2E_TMP/neuroshima-hex
print0 slips "$NH/open.json" --lang pl --pdf "$d/pl-slips.pdf"
pdf_text "$d/pl-slips.pdf" >"$d/pl-slips.txt"
for w in 'Karty turniejowe' 'runda 2 (system szwajcarski)' 'Stolik 1' 'Miejsce' 'Gracz' 'Zagrana armia' 'Zwycięzca' \
    'Różnica wytrzymałości sztabów' 'Remis' 'Podpis:' 'wydrukowano 21 listopada 2026 r., godz. 10:30'; do
    grep -q -F -- "$w" "$d/pl-slips.txt" || fail "Polish slips: no \"$w\": $(head -n 12 "$d/pl-slips.txt")"
done
no_english "$d/pl-slips.txt" "Polish slips"
[ "$(grep -c -E $'^[ \f]*Stolik [0-9]+ ' "$d/pl-slips.txt")" -eq "$(wc -l <"$NH/tables.2")" ] ||
    fail "Polish slips: $(grep -c -E $'^[ \f]*Stolik [0-9]+ ' "$d/pl-slips.txt") slips for $(wc -l <"$NH/tables.2") tables"
print0 pairings "$NH/one.json" --lang pl --pdf "$d/pl-pairings.pdf"
pdf_text "$d/pl-pairings.pdf" >"$d/pl-pairings.txt"
for w in 'Pary według stolików' 'Pary według nazwisk' 'Stolik' 'Miejsce 1' 'PROJEKT'; do
    grep -q -F -- "$w" "$d/pl-pairings.txt" || fail "Polish pairings: no \"$w\""
done
no_english "$d/pl-pairings.txt" "Polish pairings"
# NH-10 armies by seed 000's Polish names (12 players x 5 armies)
grep -q -E 'Hegemonia|Posterunek|Nowy Jork|Stalowa Policja|Tryglodyci|Neodżungla|Missisipi' "$d/pl-pairings.txt" &&
    ! grep -q -E 'Hegemony|Outpost|New York|Steel Police|Troglodytes|Neojungle|Mississippi' "$d/pl-pairings.txt" ||
    fail "Polish pairings: the armies are not seed 000's names: $(grep -o -E 'Hegemon[a-z]*|Outpost|Posterunek|New York|Nowy Jork' "$d/pl-pairings.txt" | sort | uniq -c | tr '\n' ' ')"
print0 standings "$NH/event.json" --lang pl --pdf "$d/pl-standings.pdf"
pdf_text "$d/pl-standings.pdf" >"$d/pl-standings.txt"
# (a heading wider than its column wraps: its words one by one)
for w in 'Klasyfikacja po rundzie' 'Punkty' 'Turniejowe' 'Różnica' 'wytrzymałości' 'sztabów' 'Mecz' 'bezpośredni'; do
    grep -q -F -- "$w" "$d/pl-standings.txt" || fail "Polish standings: no \"$w\": $(head -n 8 "$d/pl-standings.txt")"
done
no_english "$d/pl-standings.txt" "Polish standings"

CT=$E2E_TMP/catan
# the locale's language when there is no --lang (LC_ALL names a locale this
# machine need not have: the catalogue is read all the same)
LC_ALL=cs_CZ.UTF-8 "$TOURNEY" print standings "$CT/event.json" --pdf "$d/cs-standings.pdf" 2>"$E2E_TMP/err" ||
    fail "LC_ALL=cs_CZ.UTF-8 tourney print standings: $(cat "$E2E_TMP/err")"
pdf_text "$d/cs-standings.pdf" >"$d/cs-standings.txt"
for w in 'Průběžné pořadí po 5. kole' 'Hráč' 'Body' 'Úspěšnost' 'Herní' 'Počet' 'prvních' 'vytištěno 21. listopadu 2026, 10:30'; do
    grep -q -F -- "$w" "$d/cs-standings.txt" || fail "Czech standings: no \"$w\": $(head -n 8 "$d/cs-standings.txt")"
done
no_english "$d/cs-standings.txt" "Czech standings"
# CT-5 success rate as Czech writes a per cent (decimal comma, a space
# before the sign), points with a decimal comma, no decimal point anywhere
grep -q -E '[0-9]+,[0-9]+ %' "$d/cs-standings.txt" || fail "Czech standings: no success rate as \"29,98 %\""
! grep -q -E '[0-9]\.[0-9]' "$d/cs-standings.txt" || fail "Czech standings: a decimal point: $(grep -E '[0-9]\.[0-9]' "$d/cs-standings.txt" | head -n 2)"
pts=$(node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1])).standings.find(r => r.points % 1); if (s) console.log(String(s.points).replace(".", ","))' "$CT/standings.json")
[ -z "$pts" ] || grep -q -E -- "(^| )$pts( |$)" "$d/cs-standings.txt" || fail "Czech standings: no points \"$pts\""
LC_ALL=cs_CZ.UTF-8 "$TOURNEY" print slips "$CT/open.json" --lang cs --pdf "$d/cs-slips.pdf" 2>"$E2E_TMP/err" ||
    fail "tourney print slips --lang cs: $(cat "$E2E_TMP/err")"
pdf_text "$d/cs-slips.pdf" >"$d/cs-slips.txt"
for w in 'Výsledkové lístky' '2. kolo' 'Stůl 1' 'Místo' 'Herní' 'Podpis:'; do
    grep -q -F -- "$w" "$d/cs-slips.txt" || fail "Czech slips: no \"$w\""
done
no_english "$d/cs-slips.txt" "Czech slips"
LC_ALL=cs_CZ.UTF-8 "$TOURNEY" print pairings "$CT/one.json" --pdf "$d/cs-pairings.pdf" 2>"$E2E_TMP/err" ||
    fail "LC_ALL=cs_CZ.UTF-8 tourney print pairings: $(cat "$E2E_TMP/err")"
pdf_text "$d/cs-pairings.pdf" >"$d/cs-pairings.txt"
grep -q -F 'Rozlosování podle stolů' "$d/cs-pairings.txt" && grep -q -F 'Rozlosování podle jmen' "$d/cs-pairings.txt" ||
    fail "Czech pairings: $(head -n 5 "$d/cs-pairings.txt")"
no_english "$d/cs-pairings.txt" "Czech pairings"
# --lang wins over the locale; an unknown language is refused
LC_ALL=cs_CZ.UTF-8 "$TOURNEY" print standings "$CT/event.json" --lang pl >"$d/pl.html" 2>"$E2E_TMP/err" ||
    fail "--lang pl under LC_ALL=cs_CZ.UTF-8: $(cat "$E2E_TMP/err")"
grep -q -F '<html lang="pl">' "$d/pl.html" && grep -q -F 'Klasyfikacja po rundzie 5' "$d/pl.html" ||
    fail "--lang pl under LC_ALL=cs_CZ.UTF-8 is not Polish"
# the event's "language" wins over the locale, --lang over the event
node -e 'const fs = require("fs"), ev = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    ev.language = "cs"; fs.writeFileSync(process.argv[2], JSON.stringify(ev));' "$CT/event.json" "$d/ct-cs.json"
LC_ALL=pl_PL.UTF-8 "$TOURNEY" print standings "$d/ct-cs.json" >"$d/cs.html" 2>"$E2E_TMP/err" ||
    fail "an event in Czech under LC_ALL=pl_PL.UTF-8: $(cat "$E2E_TMP/err")"
grep -q -F '<html lang="cs">' "$d/cs.html" && grep -q -F 'Průběžné pořadí po 5. kole' "$d/cs.html" ||
    fail "the event's language (cs) does not win over the locale (pl)"
LC_ALL=pl_PL.UTF-8 "$TOURNEY" print standings "$d/ct-cs.json" --lang nb >"$d/nb.html" 2>"$E2E_TMP/err" ||
    fail "--lang nb of an event in Czech: $(cat "$E2E_TMP/err")"
grep -q -F '<html lang="nb">' "$d/nb.html" && grep -q -F 'Resultatliste etter runde 5' "$d/nb.html" ||
    fail "--lang nb does not win over the event's language (cs)"
"$TOURNEY" print standings "$CT/event.json" --lang xx >/dev/null 2>"$E2E_TMP/err"
[ $? -eq 2 ] && grep -q -F '"xx" is not a shipped language' "$E2E_TMP/err" || fail "--lang xx: $(cat "$E2E_TMP/err")"
# Hungarian Tantrix slips: the headings wider than their column wrap
# between words; every word of every heading is one word of the PDF
TX=$E2E_TMP/tantrix
print0 slips "$TX/open.json" --lang hu --pdf "$d/hu-slips.pdf"
pdftotext -bbox "$d/hu-slips.pdf" "$d/hu-slips.html"
for w in Hely Játékos Pontszám Hátralévő idő az órán Eredményközlő; do
    grep -q -F -- ">$w</word>" "$d/hu-slips.html" || fail "Hungarian slips: \"$w\" is not one whole word: $(grep -o '>[^<]*</word>' "$d/hu-slips.html" | head -n 30 | tr '\n' ' ')"
done
for f in pl-slips pl-pairings cs-slips cs-pairings cs-standings hu-slips; do
    pdftoppm -r 60 -png -f 1 -l 1 "$d/$f.pdf" "$d/$f" || fail "pdftoppm $f"
done
unset SOURCE_DATE_EPOCH
ok "languages: Polish NH slips, pairings, standings and Czech Catan standings, slips, pairings in the seeds' words, no English heading, decimal comma, genitive dates; --lang over the locale; Hungarian headings wrap between words"

# bad arguments: exit 2, one line, nothing written
EV1=$E2E_TMP/neuroshima-hex/one.json
for args in "slips $EV1 --round 9" "menu $EV1" "slips $EV1 --paper a3" "slips $EV1 --colour red" "slips"; do
    # shellcheck disable=SC2086 # (the words are the arguments)
    "$TOURNEY" print $args --pdf "$E2E_TMP/never.pdf" >/dev/null 2>"$E2E_TMP/err"
    st=$?
    [ $st -eq 2 ] && [ ! -e "$E2E_TMP/never.pdf" ] && [ "$(wc -l <"$E2E_TMP/err")" -ge 1 ] ||
        fail "tourney print $args: exit $st, $(cat "$E2E_TMP/err")"
done
ok "bad arguments: exit 2 with a message, no file"

# live: a published round on the real hub
N_DEV=0
start_broker --tables 1 --organisers o1 --no-ws
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20
EV=prn
live 0 event create "$EV" --format neuroshima-hex --title 'Print <Open>' --seed 4
for i in 1 2 3 4 5 6 7 8 9; do
    live 0 player add "$EV" "p$i" "Player $i" --club "Club $i" --army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas
done
live 0 round pair "$EV"
live 0 round show "$EV"
awk '$1 == "table" { printf "%s", $2; for (i = 3; i <= NF; i++) if ($i ~ /^p[0-9]+$/) printf "\tPlayer %s", substr($i, 2); print "" }' \
    "$E2E_TMP/out" >"$E2E_TMP/live.tables"
[ "$(wc -l <"$E2E_TMP/live.tables")" -eq 4 ] || fail "round show: $(cat "$E2E_TMP/out")"
live 0 round publish "$EV"
live 0 print "$EV" slips --pdf "$E2E_TMP/live-slips.pdf"
check_slips "$E2E_TMP/live-slips.pdf" "$E2E_TMP/live.tables" 'Army played' 'HQ difference'
grep -q -F 'Print <Open>' "$E2E_TMP/live-slips.d/all.txt" || fail "live slips: no event title"
live 0 print "$EV" pairings
grep -q -F 'Print &lt;Open&gt;' "$E2E_TMP/out" || fail "live pairings: title not escaped"
! grep -q DRAFT "$E2E_TMP/out" || fail "live pairings of the published round marked as a draft"
for i in 1 2 3 4 5 6 7 8 9; do
    grep -q -F "<b>$i</b>, Player" "$E2E_TMP/out" || fail "live pairings by name: no Player $i"
done
live 3 print "$EV" final
grep -q 'is not finished' "$E2E_TMP/err" || fail "live print final: $(cat "$E2E_TMP/err")"
# issue 21: --lang on the live command too (the hub's export has no language)
live 0 print "$EV" slips --lang pl
grep -q -F '<html lang="pl">' "$E2E_TMP/out" && grep -q -F 'Karty turniejowe' "$E2E_TMP/out" &&
    grep -q -F 'Różnica wytrzymałości sztabów' "$E2E_TMP/out" || fail "live print slips --lang pl is not Polish"
live 2 print "$EV" slips --lang xx
ok "live print: slips of every table of the published round, pairings by name, no final yet, --lang pl"
e2e_done
