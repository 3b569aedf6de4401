#!/usr/bin/env bash
# test_pages_lang.sh - issue 21, the venue's language, in a real browser
# (Debian's chromium driven by playwright-core, tests/e2e/pages_check.js)
# against the real feed (broker, feed broker serving the pages, hub with
# its feed on: pages.sh): four events of the seeds' games, with real
# names (accents, CJK, long ones): Neuroshima Hex in Polish, Tantrix in
# Hungarian, Agricola in Norwegian, Catan in Czech; the hall (1920x1080)
# and the player page (390x844, 360x640), light and dark, in each language
# with no English word of the catalogue (po/tourney-pages/LANG.po) left,
# nothing cut; the phone's language switcher; a browser's own language on
# an event without one ("small", Game of Thrones, as in test_pages.sh).
# Screenshots lang-*.png in the test's directory.  First the pages'
# selftest (pages_check.js selftest: every language's catalogue on the
# pages without a browser).
#
# Skips (exit 77) without node, deploy/overlays/install.sh's result, or
# chromium: deploy/test.sh installs all three, so CI does not skip.
#
# usage: bash test_pages_lang.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/pages.sh"
pages_setup
node "$CHECK" selftest --overlays "$OVL" --po "$E2E_SRC/po/tourney-pages" >"$E2E_TMP/self.out" 2>&1 ||
    fail "pages.js selftest: $(cat "$E2E_TMP/self.out")"
cat "$E2E_TMP/self.out"

# The event without a language the navigator case opens.
pages_event_small
: >"$E2E_TMP/expect.tsv"
pages_round_one small

# Issue 21: one event per seed language, round 1 published and running.
# lang_event ID FORMAT LANG TITLE NAME...: the event (its language LANG,
# none when "-"), its players (ids ID1.., the names given, the options of
# the array POPTS), round 1 paired, published and started; writes
# $E2E_TMP/lang-ID.expect and .names.
lang_event() {
    local ev=$1 format=$2 lang=$3 title=$4 i=0 name
    shift 4
    local lopt=()
    [ "$lang" = - ] || lopt=(--language "$lang")
    live 0 event create "$ev" --format "$format" --title "$title" --seed 21 "${lopt[@]}"
    for name in "$@"; do
        i=$((i + 1))
        live 0 player add "$ev" "$ev$i" "$name" "${POPTS[@]}"
        printf '%s\t%s%s\t%s\n' "$ev" "$ev" "$i" "$name" >>"$E2E_TMP/lang-$ev.names"
    done
    live 0 round pair "$ev"
    live 0 round show "$ev"
    awk -v ev="$ev" '$1 == "table" { n = 0; for (i = 3; i <= NF; i++) if ($i ~ "^" ev "[0-9]+$") print ev "\t" $i "\t" $2 "\t" ++n }
                     $1 == "bye" { print ev "\t" $2 "\t0\t0" }' "$E2E_TMP/out" >"$E2E_TMP/lang-$ev.expect"
    [ "$(wc -l <"$E2E_TMP/lang-$ev.expect")" -eq $# ] ||
        fail "$ev: round show listed $(wc -l <"$E2E_TMP/lang-$ev.expect") seats for $# players: $(head -c 300 "$E2E_TMP/out")"
    live 0 round publish "$ev"
    live 0 clock start "$ev"
}
POPTS=(--club 'Klub Gier Planszowych „Portal” Gliwice' --army Borgo --army Hegemony --army Moloch --army Outpost --army 'New York')
lang_event nh neuroshima-hex - 'Turniej otwarty Portalcon 2026 – Neuroshima Hex!' 'Łukasz Brzęczyszczykiewicz' 'Małgorzata Wiśniewska-Żółkiewska' 'Grzegorz Świątek' 'Agnieszka Kołodziejczyk' \
    'Wojciech Ząbkowski' 'Zofia Dąbrowska' 'Katarzyna Szczepańska-Chrzanowska' '王小明'
POPTS=(--club 'Budapesti Tantrix Klub' --colour red --colour yellow)
lang_event tx tantrix hu 'Tantrix Magyar Bajnokság 2026' 'SZŐKE Ödön' 'Kovácsné Szabó Erzsébet' 'Nagy-Győri Zsófia' 'Tóth Gyöngyvér' 'Lőrincz Árpád' \
    'Egerszegi Krisztina' 'NGUYỄN Thị Minh Khai' '金 美淑'
POPTS=(--club 'Spillklubben ARES, Oslo')
lang_event ag agricola nb 'Agricola-NM 2026' 'Bjørn André Kildalen' 'Oddbjørn Nødland' 'Åse Kristin Ødegård' 'Håkon Sæther' 'Rune Halvorsen' \
    'Solveig Ørnulfsdóttir Bråthen' 'David Kristensen' '佐藤 花子'
POPTS=(--club 'Klub deskových her Brno')
lang_event ct catan cs 'Mistrovství ČR v Osadnících z Katanu 2026' 'Jiří Dvořák' 'Kateřina Nováková-Šťastná' 'Ondřej Černý' 'Přemysl Vondráček' 'Šárka Řezníčková' \
    'Zdeněk Chlupatý-Křižanovský' '山田 太郎' 'Vítězslav Ďurovič'
ok "issue 21: events nh (no language: lang=pl), tx (hu), ag (nb), ct (cs) playing round 1"
# nh: lang=pl in the address; the others: the event's language in the feed.
for pair in nh:pl:1 tx:hu:0 ag:nb:0 ct:cs:0; do
    IFS=: read -r ev lang param <<<"$pair"
    extra=()
    [ "$ev" != ct ] || extra=(--switch pl)
    [ "$ev" != ag ] || extra=(--navigator nb-NO --navevent small)
    node "$CHECK" lang --lang "$lang" --param "$param" --po "$E2E_SRC/po/tourney-pages" --overlays "$OVL" --base "$BASE" \
        --chromium "$CHROMIUM" --events "$ev" --expect "$E2E_TMP/lang-$ev.expect" --names "$E2E_TMP/lang-$ev.names" \
        --shots "$SHOTS" "${extra[@]}" >"$E2E_TMP/lang.out" 2>&1 || fail "pages in $lang: $(cat "$E2E_TMP/lang.out")"
    cat "$E2E_TMP/lang.out"
done
ok "screenshots: $(ls "$SHOTS" | tr '\n' ' ')"
e2e_done
