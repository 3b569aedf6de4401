#!/usr/bin/env bash
# test_play_language.sh - issue 20 (a newcomer trial: a Polish Neuroshima
# Hex event and a Czech Catan event on players' phones): the player page
# speaks the event's language from the sign-in on, not only once the
# player has a table, says a bye as a bye with its points, and names the
# Neuroshima Hex armies as the hall's pages do.  A venue broker with the
# table-page listener, the real hub, no table device:
# - a Polish NH event (--language pl, 5 players: two tables and NH-4's
#   bye) and a Czech Catan event (--language cs, 5 players: a table of
#   four and CT-6's bye), a player code for everyone;
# - tests/e2e/play_language.js in Debian's chromium, one browser context
#   per phone: before round 1 every phone says "You are NAME", "No table
#   yet" and the check-in in the event's language (<html lang> too); once
#   round 1 is published the bye's phone says it has the bye in round 1
#   with its points (NH-4: 3, CT-6: 4) in that language, the others their
#   table; at NH table 1 the army lists show the Polish edition's names
#   (values: the format's), the result is entered with them and confirmed
#   on both phones, the summary and the stored state name them in Polish;
#   round 2: the bye goes to a player who sat at a table in round 1: their
#   phone says the bye (in round 2), not round 1's table; a Czech
#   player's code revoked and opened on a fresh phone says so in Czech;
# - afterwards: that table's counted result names the armies as the
#   format does (Hegemony, Outpost): the page translated only the words.
# The expected words come from the pages' catalogues (i18n.js over
# po/tourney-pages), each checked to differ from the English.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# result (deploy/test.sh installs all three).
#
# usage: bash test_play_language.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup

ARMIES=(--army Borgo --army Hegemony --army Outpost --army "New York" --army "Steel Police")
live 0 event create nh --format neuroshima-hex --language pl --title 'Neuroshima — Kraków' --seed 3 \
    --options '{"swiss_rounds": 2, "cut": 0}'
NH_NAMES=("Zbigniew Brzęczyszczykiewicz" "Łucja Wąs" "Józef Żółć" "Anna Nowak" "Piotr Ślęzak")
for i in 1 2 3 4 5; do
    live 0 player add nh "n$i" "${NH_NAMES[$((i - 1))]}" "${ARMIES[@]}"
done
live 0 event create ct --format catan --language cs --title 'Catan — Brno' --seed 4
CT_NAMES=("Jan Šebesta" "Věra Čáslavská" "Jiří Kříž" "Eliška Dvořáková" "Tomáš Řezníček")
for i in 1 2 3 4 5; do
    live 0 player add ct "c$i" "${CT_NAMES[$((i - 1))]}"
done
echo '{}' >"$E2E_TMP/phones.json"
for ev in nh ct; do
    live 0 --json code player $ev
    jq -e 'length == 5' "$E2E_TMP/out" >/dev/null || fail "code player $ev: $(cat "$E2E_TMP/out")"
    jq --arg ev $ev --slurpfile c "$E2E_TMP/out" '.[$ev] = [$c[0][] | {player, name, code: .query, login}]' \
        "$E2E_TMP/phones.json" >"$E2E_TMP/phones.tmp" && mv "$E2E_TMP/phones.tmp" "$E2E_TMP/phones.json"
done
ok "a Polish NH event and a Czech Catan event of 5 players each, a player code for everyone"

SHOTS=$E2E_TMP/shots
mkdir -p "$SHOTS"
node "$E2E_SRC/tests/e2e/play_language.js" --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" \
    --phones "$E2E_TMP/phones.json" --tourney "$TOURNEY" --shots "$SHOTS" \
    >"$E2E_TMP/play.out" 2>&1 || fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"

# NH table 1: the counted result names the armies as the format does.
read -r t a b < <(sed -n 's/^ARMIES //p' "$E2E_TMP/play.out")
[ -n "$b" ] || fail "play_language.js did not report NH table 1's players"
live 0 --json result show nh 1 --table "$t"
jq -e --arg a "$a" --arg b "$b" '(.results | length) == 1 and .results[0].status == "counted" and
       .results[0].result.armies == {($a): "Hegemony", ($b): "Outpost"} and .results[0].result.winner == $a' \
    "$E2E_TMP/out" >/dev/null || fail "nh table $t: expected $a (Hegemony) beating $b (Outpost): $(cat "$E2E_TMP/out")"
ok "nh table $t: one counted result, the armies by the format's names (Hegemony, Outpost)"
ok "screenshots in $SHOTS"
e2e_done
