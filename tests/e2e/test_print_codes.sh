#!/usr/bin/env bash
# test_print_codes.sh - issue 20 item 2: the sign-in codes on paper.  A
# real broker with the table-page listener and the real hub issuing codes
# (lib.sh play_setup), an A Game of Thrones event of 6 players with
# accented and long names, round 1 published:
# - `tourney live print EV tents --url URL`: a tent for every valid table
#   code (tables 1 and 2), each code once with its table; table 3's code,
#   revoked, is nowhere; the QR codes of the PDF (pdftoppm, zbarimg)
#   read URL?code=CODE of their table;
# - `print EV codes --url URL`: a card for the player with a valid code
#   (name, code, QR code reading URL?code=CODE), none for the revoked
#   one, no table code;
# - `print EV slips --url URL`: table 1's slip has its code, table 3's
#   (revoked) none; `print EV pairings` (the wall) carries no code and
#   refuses --url;
# - tents or codes without --url, or with a bad one (not http(s), a
#   space, a quote, an angle bracket), are refused with a clear message
#   and print nothing;
# - a late entrant with a 60-character name: their card in Czech holds
#   the name and the instructions whole (Chromium, print layout).
# The pages rendered at 60 dpi (tents-*.png, codes-*.png, slips-*.png,
# all-*.png: every player's card, Hungarian, Letter) stay in the
# test's directory.
#
# Skips (exit 77) without node, chromium, deploy/overlays/install.sh's
# result (play_setup), pdftoppm (poppler-utils) or zbarimg (zbar-tools).
#
# usage: bash test_print_codes.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
if ! command -v pdftoppm >/dev/null || ! command -v zbarimg >/dev/null; then
    echo "SKIP: $E2E_NAME: no pdftoppm (poppler-utils) or zbarimg (zbar-tools)"
    exit 77
fi
play_setup
export TOURNEY_CHROMIUM=$CHROMIUM

EV=thrones
URL="$BASE/play.html"
live 0 event create $EV --format got-lcg2 --title 'Puchar Północy — Kraków' --seed 6
NAMES=("Łukasz Wiśniewski-Kowalczyk" "Ørjan Sæther" "Antonín Dvořák" "Zoë Ångström" "Bo Kim" "Max Roth")
FACTIONS=(Stark Lannister Baratheon Greyjoy Martell Targaryen)
for i in 1 2 3 4 5 6; do
    live 0 player add $EV "p$i" "${NAMES[$((i - 1))]}" --faction "${FACTIONS[$((i - 1))]}"
done
live 0 round pair $EV
live 0 round publish $EV
declare -A CODE
for t in 1 2 3; do
    live 0 --json code issue $EV $t
    CODE[t$t]=$(jq -r .code "$E2E_TMP/out")
done
for p in p1 p2; do
    live 0 --json code player $EV $p
    CODE[$p]=$(jq -r 'if type == "array" then .[0].code else .code end' "$E2E_TMP/out")
done
for k in t1 t2 t3 p1 p2; do
    [[ ${CODE[$k]} =~ ^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$ ]] || fail "code of $k: '${CODE[$k]}'"
done
live 0 code revoke $EV "${CODE[t3]}"
live 0 code revoke $EV "${CODE[p2]}"
ok "event $EV: round 1 published, codes for tables 1-3 and players p1, p2; t3's and p2's revoked"

# Refused: no --url, a bad --url; nothing printed.
live 2 print $EV tents
grep -q -- '--url is required' "$E2E_TMP/err" || fail "tents without --url: $(cat "$E2E_TMP/err")"
[ ! -s "$E2E_TMP/out" ] || fail "tents without --url printed something"
for bad in 'ftp://hub/play.html' 'play.html' 'http://hub/play .html' 'http://hub/"><b>x' \
    "http://hub/'x" 'http://' 'javascript:alert(1)' 'http://hub/play.html#x'; do
    for what in tents codes slips; do
        live 2 print $EV $what --url "$bad"
        grep -q -- '--url' "$E2E_TMP/err" || fail "print $what --url '$bad': $(cat "$E2E_TMP/err")"
        [ ! -s "$E2E_TMP/out" ] || fail "print $what --url '$bad' printed something"
    done
done
live 2 print $EV pairings --url "$URL"
grep -q 'pairings hang on the wall' "$E2E_TMP/err" || fail "pairings --url: $(cat "$E2E_TMP/err")"
ok "tents/codes without --url, a bad --url (8 kinds), pairings with --url: refused, nothing printed"

# Tents (HTML): a tent per valid table code, each code once with its table.
live 0 print $EV tents --url "$URL"
cp "$E2E_TMP/out" "$E2E_TMP/tents.html"
grep -o 'data-table="[0-9]*" data-code="[^"]*"' "$E2E_TMP/tents.html" >"$E2E_TMP/tents.got"
printf 'data-table="1" data-code="%s"\ndata-table="2" data-code="%s"\n' "${CODE[t1]}" "${CODE[t2]}" >"$E2E_TMP/tents.want"
diff "$E2E_TMP/tents.want" "$E2E_TMP/tents.got" || fail "tents: not one per valid table code"
grep -q -F "${CODE[t3]}" "$E2E_TMP/tents.html" && fail "tents: the revoked code of table 3 is printed"
grep -q -F "${CODE[p1]}" "$E2E_TMP/tents.html" && fail "tents: a player's code is printed"
[ "$(grep -o '<svg class="qr"' "$E2E_TMP/tents.html" | wc -l)" -eq 4 ] || fail "tents: not two QR codes per tent"
ok "tents: tables 1 and 2, each code once, no revoked or player code"

# Cards (HTML): the player with a valid code, none for the revoked one.
live 0 print $EV codes --url "$URL"
cp "$E2E_TMP/out" "$E2E_TMP/codes.html"
grep -o 'data-player="[^"]*" data-code="[^"]*"' "$E2E_TMP/codes.html" >"$E2E_TMP/codes.got"
printf 'data-player="p1" data-code="%s"\n' "${CODE[p1]}" >"$E2E_TMP/codes.want"
diff "$E2E_TMP/codes.want" "$E2E_TMP/codes.got" || fail "codes: not one card per valid player code"
grep -q -F 'Łukasz Wiśniewski-Kowalczyk' "$E2E_TMP/codes.html" || fail "codes: p1's name missing"
for k in p2 t1 t2 t3; do
    grep -q -F "${CODE[$k]}" "$E2E_TMP/codes.html" && fail "codes: the code of $k is printed"
done
ok "codes: a card for p1, none for p2 (revoked) nor the tables"

# Slips with --url: the table's valid code; pairings: no code at all.
live 0 print $EV slips --url "$URL"
cp "$E2E_TMP/out" "$E2E_TMP/slips.html"
for t in 1 2; do
    awk -v t="$t" '/<div class="slip" data-table="/ { on = index($0, "data-table=\"" t "\"") > 0 } on' \
        "$E2E_TMP/slips.html" | grep -q -F "${CODE[t$t]}" || fail "slips: table $t's slip has not its code"
done
grep -q -F "${CODE[t3]}" "$E2E_TMP/slips.html" && fail "slips: table 3's revoked code printed"
live 0 print $EV slips
for k in t1 t2; do
    grep -q -F "${CODE[$k]}" "$E2E_TMP/out" && fail "slips without --url print a code"
done
live 0 print $EV pairings
for k in t1 t2 t3 p1 p2; do
    grep -q -F "${CODE[$k]}" "$E2E_TMP/out" && fail "pairings print the code of $k"
done
ok "slips --url: tables 1, 2 with their codes, 3 without; pairings: no code"

# The PDFs: every QR code reads the page's address with its code.
decode() { # PDF NAME: the QR codes of every page, sorted
    local f
    pdftoppm -r 150 -png "$1" "$E2E_TMP/$2-qr" || fail "pdftoppm $1"
    pdftoppm -r 60 -png "$1" "$E2E_TMP/$2" || fail "pdftoppm $1"
    for f in "$E2E_TMP/$2-qr"*.png; do
        zbarimg --quiet --raw "$f" || fail "zbarimg $f: no QR code"
    done | sort
}
live 0 print $EV tents --url "$URL" --pdf "$E2E_TMP/tents.pdf" --lang pl
decode "$E2E_TMP/tents.pdf" tents >"$E2E_TMP/tents.qr"
printf '%s?code=%s\n' "$URL" "${CODE[t1]}" "$URL" "${CODE[t1]}" "$URL" "${CODE[t2]}" "$URL" "${CODE[t2]}" |
    sort >"$E2E_TMP/tents.qr.want"
diff "$E2E_TMP/tents.qr.want" "$E2E_TMP/tents.qr" || fail "tents PDF: the QR codes do not read URL?code=CODE"
[ "$(ls "$E2E_TMP"/tents-qr*.png | wc -l)" -eq 2 ] || fail "tents PDF: not one page per tent"
pdftotext "$E2E_TMP/tents.pdf" - >"$E2E_TMP/tents.txt"
grep -q "Stolik 1" "$E2E_TMP/tents.txt" && grep -q "Zeskanuj" "$E2E_TMP/tents.txt" || fail "tents PDF --lang pl: not Polish"
live 0 print $EV tents --url "$URL" --pdf "$E2E_TMP/tents-letter.pdf" --paper letter
pdftoppm -r 20 -png "$E2E_TMP/tents-letter.pdf" "$E2E_TMP/tents-letter" || fail "pdftoppm tents-letter.pdf"
[ "$(ls "$E2E_TMP"/tents-letter*.png | wc -l)" -eq 2 ] || fail "tents PDF on Letter: not one page per tent"
live 0 print $EV codes --url "$URL" --pdf "$E2E_TMP/codes.pdf"
decode "$E2E_TMP/codes.pdf" codes >"$E2E_TMP/codes.qr"
printf '%s?code=%s\n' "$URL" "${CODE[p1]}" >"$E2E_TMP/codes.qr.want"
diff "$E2E_TMP/codes.qr.want" "$E2E_TMP/codes.qr" || fail "codes PDF: the QR code does not read URL?code=CODE"
live 0 print $EV slips --url "$URL" --pdf "$E2E_TMP/slips.pdf" --lang cs
decode "$E2E_TMP/slips.pdf" slips >"$E2E_TMP/slips.qr"
printf '%s?code=%s\n' "$URL" "${CODE[t1]}" "$URL" "${CODE[t2]}" | sort >"$E2E_TMP/slips.qr.want"
diff "$E2E_TMP/slips.qr.want" "$E2E_TMP/slips.qr" || fail "slips PDF: the QR codes do not read URL?code=CODE of tables 1, 2"
# Every player's card (Hungarian, Letter): one QR code per valid player
# code of `code list`, each reading its URL.
live 0 code player $EV
live 0 --json code list $EV
jq -r --arg u "$URL" '.[] | select(.player and .state == "valid") | "\($u)?code=\(.code)"' "$E2E_TMP/out" |
    sort >"$E2E_TMP/all.qr.want"
[ "$(wc -l <"$E2E_TMP/all.qr.want")" -ge 5 ] || fail "code player: not every player has a code: $(cat "$E2E_TMP/out")"
live 0 print $EV codes --url "$URL" --pdf "$E2E_TMP/all.pdf" --lang hu --paper letter
decode "$E2E_TMP/all.pdf" all >"$E2E_TMP/all.qr"
diff "$E2E_TMP/all.qr.want" "$E2E_TMP/all.qr" || fail "codes PDF of every player: the QR codes are not the valid player codes"
ok "PDFs: the tents' QR codes (two per page, one page per table) the cards' and the slips' read URL?code=CODE"

# A 60-character name on a card in Czech (tryout 13): the card grows to
# hold it, nothing cut at its top or bottom (a card was 64 mm high with
# its overflow hidden: "Bartholomew" half above the card).  Chromium lays
# the printout out for print at A4's width inside the margins.
LONG='Bartholomew Alexander Wolfgang Žďárský-Hohenzollern Ødegaard'
live 0 player add $EV p7 "$LONG"
live 0 code player $EV p7
live 0 print $EV codes --url "$URL" --lang cs
cp "$E2E_TMP/out" "$E2E_TMP/long.html"
node - "$OVL" "$CHROMIUM" "$E2E_TMP/long.html" "$LONG" >"$E2E_TMP/long.out" 2>&1 <<'JS' ||
const path = require('path');
const [ovl, exe, file, long] = process.argv.slice(2);
const {chromium} = require(path.join(ovl, 'node_modules', 'playwright-core'));
(async () => {
    const b = await chromium.launch({executablePath: exe, args: ['--no-sandbox', '--disable-gpu']});
    const page = await b.newPage({viewport: {width: 703, height: 1000}}); /* 186 mm */
    await page.emulateMedia({media: 'print'});
    await page.goto('file://' + file);
    const cards = await page.evaluate(() => Array.prototype.map.call(document.querySelectorAll('.card'), (c) => {
        const r = c.getBoundingClientRect(), w = c.querySelector('.who').getBoundingClientRect();
        return {name: c.querySelector('.nm').textContent, inside: w.top >= r.top - 0.5 && w.bottom <= r.bottom + 0.5};
    }));
    await b.close();
    const mine = cards.filter((c) => c.name === long);
    if (mine.length !== 1)
        throw new Error('no card for the long name: ' + JSON.stringify(cards.map((c) => c.name)));
    const cut = cards.filter((c) => !c.inside).map((c) => c.name);
    if (cut.length)
        throw new Error('cards cut at the top or bottom: ' + JSON.stringify(cut));
    console.log(cards.length + ' cards, none cut');
})().catch((e) => {
    console.error('FAIL: ' + e.message);
    process.exit(1);
});
JS
    fail "codes, a long name: $(cat "$E2E_TMP/long.out")"
ok "codes in Czech: a 60-character name's card holds it whole ($(cat "$E2E_TMP/long.out"))"
e2e_done
