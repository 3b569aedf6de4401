#!/usr/bin/env bash
# test_pages.sh - the hall screen (deploy/overlays/hall.html) and the
# player page (player.html) in a real browser (Debian's chromium driven
# by playwright-core) against the real feed: mosquitto (venue broker +
# the public WebSocket feed broker, which also serves the pages over
# HTTP: gen-config.sh --http-dir), tourney-hub with its feed on, three
# simulated tables, and two events of one convention playing round 1:
# "big", Catan with 500 players (125 four-player tables),
# accented names, and "small", a Game of Thrones event
# with 8 players and their factions (GT-14).  tests/e2e/pages_check.js:
# - hall: at 1920x1080 and 3840x2160, both events' clocks, every one of
#   the 508 players exactly once over the pages with the table and seat
#   of `tourney live round show`, in surname order (accents ignored),
#   no name, table or extra cut off or outside the screen (a
#   60-character name among them: set smaller on two lines), the QR code
#   holding the player page's address; an unknown event id is named as
#   such; a paused round clock says "paused" and stands; screenshots in
#   the test's directory;
# - player page at 390x844: "sebesta" finds "Jan \u0160ebesta" (and
#   "brzeczy" the Brz\u0119czyszczykiewicz of the other event), the card
#   shows his table, seat, opponent and place; then the feed broker is
#   restarted and a result entered: the page goes offline, comes back by
#   itself and shows the result;
# - the overlays: pairings.html of "big" cuts no name; a 60-character name
#   at a four-player table cuts none of its neighbours' on pairings.html,
#   and table.html cuts none of the four (they wrap).
# The venue's language (issue 21) is test_pages_lang.sh, on a broker and
# hub of its own (pages.sh has what both share).
#
# Skips (exit 77) without node, deploy/overlays/install.sh's result, or
# chromium: deploy/test.sh installs all three, so CI does not skip.
#
# usage: bash test_pages.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/pages.sh"
pages_setup

# 500 names: given names and surnames with accents; one long real name.
GIVEN=(Anna Jan Petr Zuzana Łukasz Małgorzata Jiří Søren Zoë Ágnes Björn Renée
    Tomáš Ewa Ondřej Chloé Mateusz Kateřina Håkon Inés)
SUR=(Nowak Dvořák Kowalski Novák Černý Wiśniewska Müller Øster Ångström Żak
    Horváth Lefèvre Pokorný Szabó Čapek Gómez Dąbrowski Kučera Ñúñez Ōta Ruiz
    Abbott Young Quinn Vávra)
{
    echo 'id,name,club'
    n=0
    for g in "${GIVEN[@]}"; do
        for s in "${SUR[@]}"; do
            n=$((n + 1))
            [ $n -le 498 ] || break 2
            echo "b$n,$g $s,Club $((n % 17))"
        done
    done
    # a 60-character name (the tryout of session 14: the hall cut names
    # from about 45 characters)
    echo 'b499,Bartholomew Alexander Wolfgang Žďárský-Hohenzollern Ødegaard,Club 1'
    echo 'b500,Zbigniew Brzęczyszczykiewicz,Klub Szachowo-Planszowy Chrząszczyrzewoszyce'
} >"$E2E_TMP/big.csv"
live 0 event create big --format catan --title 'Catan Open 2026' --seed 5
live 0 players import big "$E2E_TMP/big.csv"
pages_event_small
ok "events big (500 players, Catan) and small (8, Thrones)"

# Round 1 of both: paired, published, clocks running.  The expected list
# (event, id, table, seat) from `round show`.
: >"$E2E_TMP/expect.tsv"
pages_round_one big
pages_round_one small
[ "$(wc -l <"$E2E_TMP/expect.tsv")" -eq 508 ] ||
    fail "round show listed $(wc -l <"$E2E_TMP/expect.tsv") seats, expected 508: $(head -n 5 "$E2E_TMP/pairs.big")"
{
    tail -n +2 "$E2E_TMP/big.csv" | awk -F, '{ print "big\t" $1 "\t" $2 }'
    for i in 1 2 3 4 5 6 7 8; do printf 'small\ts%s\t%s\n' "$i" "${SMALL[$((i - 1))]}"; done
} >"$E2E_TMP/names.tsv"
ok "round 1 published and started in both events"

node "$CHECK" hall --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" --events big,small \
    --expect "$E2E_TMP/expect.tsv" --names "$E2E_TMP/names.tsv" --shots "$SHOTS" \
    >"$E2E_TMP/hall.out" 2>&1 || fail "hall screen: $(cat "$E2E_TMP/hall.out")"
cat "$E2E_TMP/hall.out"

live 0 clock pause small
node "$CHECK" hallpaused --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" --events small \
    --shots "$SHOTS" >"$E2E_TMP/paused.out" 2>&1 || fail "hall, paused clock: $(cat "$E2E_TMP/paused.out")"
cat "$E2E_TMP/paused.out"
live 0 clock resume small

node "$CHECK" overlays --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" --events big \
    --shots "$SHOTS" >"$E2E_TMP/ovl.out" 2>&1 || fail "overlays: $(cat "$E2E_TMP/ovl.out")"
cat "$E2E_TMP/ovl.out"

# A 60-character name at a four-player Catan table with its result in
# (tryout 13): its neighbours' names are not cut on pairings.html, and
# table.html cuts none of the four.
LONG='Bartholomew Alexander Wolfgang Žďárský-Hohenzollern Ødegaard'
{
    echo 'id,name'
    echo "l1,$LONG"
    n=1
    for nm in 'Ödön Győrffy' 'Małgorzata Grzęślewicz' 'Zoë Ångström' 'Jiří Šťastný' \
        'Øystein Ærø' 'Łukasz Żółkiewski' 'Erzsébet Szőke'; do
        n=$((n + 1))
        echo "l$n,$nm"
    done
} >"$E2E_TMP/long.csv"
live 0 event create longnames --format catan --title 'Long Names' --seed 7
live 0 players import longnames "$E2E_TMP/long.csv"
live 0 round pair longnames
live 0 round publish longnames
live 0 clock start longnames
live 0 round show longnames
tl=$(awk '$1 == "table" && / l1 / { print $2 }' "$E2E_TMP/out")
vp=$(awk -v t="$tl" '$1 == "table" && $2 == t { v[1] = 10; v[2] = 9; v[3] = 11; v[4] = 4; k = 0
        for (i = 3; i <= NF; i++) if ($i ~ /^l[0-9]$/) s = s (k ? ", " : "") "\"" $i "\": " v[++k]
        print "{\"vp\": {" s "}}" }' "$E2E_TMP/out")
[ -n "$tl" ] && [[ $vp == *'"l1"'* ]] || fail "longnames: no table of l1 in $(cat "$E2E_TMP/out")"
live 0 result enter longnames 1 "$tl" "$vp"
node "$CHECK" longname --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" --events longnames \
    --table "$tl" --long "$LONG" --shots "$SHOTS" >"$E2E_TMP/long.out" 2>&1 ||
    fail "overlays, a long name: $(cat "$E2E_TMP/long.out")"
cat "$E2E_TMP/long.out"

# An unchanged feed document is not published again (hub_loop.c): a
# result of another table of "small" brings a new tables document through
# the bridge, but not the unchanged pairings.
feed_pubs() { grep -c "Received PUBLISH from feed-bridge-.*'tourney/v1/feed/small/$1'" "$FEED_LOG"; }
t1=$(awk -F'\t' '$1 == "small" && $2 == "s1" { print $3 }' "$E2E_TMP/expect.tsv")
t2=$(awk -F'\t' -v t1="$t1" '$1 == "small" && $3 != 0 && $3 != t1 { print $3; exit }' "$E2E_TMP/expect.tsv")
w2=$(awk -F'\t' -v t="$t2" '$1 == "small" && $3 == t { print $2; exit }' "$E2E_TMP/expect.tsv")
np=$(feed_pubs pairings) nt=$(feed_pubs tables)
live 0 result enter small 1 "$t2" "{\"winner\": \"$w2\"}"
wait_until 10 test "$(feed_pubs tables)" -gt "$nt" || fail "no tables document after a result"
[ "$(feed_pubs pairings)" -eq "$np" ] || fail "the unchanged pairings document was published again after a result"
ok "after a result: a new tables document, the unchanged pairings not sent again"

# The player page: Jan Šebesta's table; the organiser enters its result
# while the page is cut off from the restarted feed broker.
t=$(awk -F'\t' '$1 == "small" && $2 == "s1" { print $3 }' "$E2E_TMP/expect.tsv")
: >"$E2E_TMP/player.out"
node "$CHECK" player --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" --events big,small \
    --expect "$E2E_TMP/expect.tsv" --names "$E2E_TMP/names.tsv" --shots "$SHOTS" \
    >"$E2E_TMP/player.out" 2>&1 &
CHECK_PID=$!
e2e_track "$CHECK_PID"
wait_until 60 grep -q -x READY "$E2E_TMP/player.out" ||
    { wait "$CHECK_PID"; fail "player page: $(cat "$E2E_TMP/player.out")"; }
restart_feed
live 0 result enter small 1 "$t" '{"winner": "s1"}'
wait "$CHECK_PID" || fail "player page: $(cat "$E2E_TMP/player.out")"
grep -v -x READY "$E2E_TMP/player.out"
# What the phone held after the restart (its last full SUBSCRIBE): its
# player's and its table's documents, not the round's big ones, at QoS 0
# (issue 17: no PUBACK from every phone for every message).
# (-a: the log is read as text whatever bytes a client's line carries;
# GNU grep would otherwise only say "binary file matches" on stderr.)
sub_re="page-[0-9a-f]* [0-2] tourney/v1/feed/small/player/s1"
wait_until 10 grep -a -q "$sub_re" "$FEED_LOG" ||
    fail "the player page never subscribed to small/player/s1 ($(grep -a -c 'Received SUBSCRIBE from page-' "$FEED_LOG") SUBSCRIBEs from pages, $(grep -a -c 'New client connected.* as page-' "$FEED_LOG") page connections; $(LC_ALL=C.UTF-8 grep -a -c -x -v '.*' "$FEED_LOG") lines not UTF-8)"
pc=$(grep -a -o "$sub_re" "$FEED_LOG" | tail -n 1 | cut -d' ' -f1,2)
[ "${pc#* }" = 0 ] || fail "the player page subscribed to small/player/s1 at QoS ${pc#* }, not 0"
pc=${pc% *}
awk -v c="$pc" '$0 ~ "Received SUBSCRIBE from " c "$" { n = 0; delete t; on = 1; next }
                on && /: \ttourney\// { sub(/.*\t/, ""); sub(/ \(QoS.*/, ""); t[++n] = $0; next }
                on && index($0, ": " c " ") { next }
                on { on = 0 } END { for (i = 1; i <= n; i++) print t[i] }' "$FEED_LOG" >"$E2E_TMP/held"
grep -q -x "tourney/v1/feed/small/player/s1" "$E2E_TMP/held" && grep -q -x "tourney/v1/feed/small/table/$t1" "$E2E_TMP/held" ||
    fail "the player page does not hold its own documents: $(tr '\n' ' ' <"$E2E_TMP/held")"
! grep -q -E '/(pairings|tables|standings|\+)$' "$E2E_TMP/held" ||
    fail "the player page holds the round's big documents: $(tr '\n' ' ' <"$E2E_TMP/held")"
ok "the phone holds only $(tr '\n' ' ' <"$E2E_TMP/held")"
# The venue broker restarts (no persistence: its retained feed is gone):
# the hub publishes every feed document again, also those it had not
# sent since because they had not changed (hub_loop.c forgets what it
# sent on a reconnect).
restart_broker
auth_args watch
retained_on_venue() {
    timeout 5 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" "${AUTH[@]}" -V mqttv5 -t "$1" -C 1 -W 2 -F '%r' 2>/dev/null |
        grep -q -x 1
}
for t in pairings standings "player/s1" "table/$t1"; do
    wait_until 20 retained_on_venue "tourney/v1/feed/small/$t" ||
        fail "after the venue broker restarted: no retained tourney/v1/feed/small/$t"
done
ok "after a venue broker restart the hub republished the unchanged feed documents too"
ok "screenshots: $(ls "$SHOTS" | tr '\n' ' ')"
e2e_done
