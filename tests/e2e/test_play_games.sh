#!/usr/bin/env bash
# test_play_games.sh - issue 20 items 1 and 3: the table page's result form
# is generated from the engine's result schema (`tourney result-schema
# --js`, written into the pages' vendor/ as install.sh does) for all five
# games, and a whole round of each is entered and confirmed from phones
# against the real venue broker (table-page listener, dynamic security)
# and the real hub, with no table device at all:
# - Neuroshima Hex (4 players with 5 armies each, 2 tables): a winner
#   with the HQ difference (41 is refused on the page: NH-1's 0..40 of
#   the preset) and a draw, each player's army from the seat's list;
# - Tantrix (2 players): both scores (201 refused: TX-1 0..200);
# - Agricola (8 players, 2 tables of 4): VP, IP and BP of every seat;
# - Catan (4 players): every seat's VP (21 refused: CT-4 0..20);
# - A Game of Thrones (4 players, 2 tables): the winner, a modified win;
# - and a two-player format (X-Wing 2.0): both scores (201 refused:
#   0..200), no draw offered (the preset allows none).
# Every table: a phone with the table's code (the whole table confirms
# on that screen; at ag/2 and gt/2 a second phone signs in with the same
# code and half the players confirm on each: one submission), a reload in the middle of the entry keeps what was
# typed; at Catan's and Agricola's table 1 the WebSocket is cut between
# the entry and the hub's ack (hub stopped, then the proxy drops every
# connection), the page resends the same key: stored once.  Afterwards
# every table holds exactly one counted result from its page's device,
# with the values entered, and the round closes.  Screenshots of each
# game's form at 390x844 (light) and 360x640 (dark), the confirm screen
# and the stored state, nothing wider than the phone.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# npm packages (deploy/test.sh installs all three).
#
# usage: bash test_play_games.sh SOURCE_DIR BUILD_DIR
# lib.sh's watchdog (its default is 120 s): six events, nine tables.
E2E_TIMEOUT=${E2E_TIMEOUT:-420}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup
"$TOURNEY" result-schema --json >"$E2E_TMP/schema.json" || fail "tourney result-schema failed"
jq -e '[.games[].game] == ["neuroshima-hex","tantrix","agricola","got-lcg2","catan","two-player"] and
       (.formats[] | select(.format == "neuroshima-hex") | .ranges.hq_diff == {lo: 0, hi: 40, cap: 20}) and
       (.formats[] | select(.format == "catan") | .ranges.vp.hi == 20) and
       ([.games[] | select(.game == "agricola") | .keys[].name] == ["vp","ip","bp","lots"])' \
    "$E2E_TMP/schema.json" >/dev/null || fail "tourney result-schema: $(head -c 600 "$E2E_TMP/schema.json")"
ok "tourney result-schema: six games' keys, the presets' ranges (NH hq_diff 0..40 cap 20, Catan VP ..20)"

NAMES=("Zbigniew Brzęczyszczykiewicz-Wojciechowski" "Jan Šebesta" "Zoë Ångström" "Ōta Hiroshi"
    "Ñúñez Ruiz" "李小龍" "Szőke Ödön" "NGUYỄN Thị Minh Khai")
ARMIES=(--army Borgo --army Hegemony --army Moloch --army Outpost --army Vegas)
FACTIONS=(Stark Lannister Baratheon Greyjoy)
# event ID FORMAT N [player add options...]: an event of N players,
# round 1 paired, published, a code for every table, the clock started.
echo '[]' >"$E2E_TMP/events.json"
event() {
    local ev=$1 fmt=$2 n=$3 i t
    shift 3
    local opts=()
    # Neuroshima Hex: one round, no cut: it finishes with round 1 (expiry)
    [ "$fmt" != neuroshima-hex ] || opts=(--options '{"swiss_rounds": 1, "cut": 0}')
    live 0 event create "$ev" --format "$fmt" --title "$fmt — Kraków 2026" --seed 5 "${opts[@]}"
    for ((i = 1; i <= n; i++)); do
        local extra=("$@")
        [ "$fmt" != got-lcg2 ] || extra=(--faction "${FACTIONS[$(((i - 1) % 4))]}")
        live 0 player add "$ev" "p$i" "${NAMES[$(((i - 1) % 8))]}" "${extra[@]}"
    done
    live 0 round pair "$ev"
    live 0 round publish "$ev"
    live 0 --json round show "$ev"
    cp "$E2E_TMP/out" "$E2E_TMP/round.$ev.json"
    local tables
    tables=$(jq -r '[.tables[] | select(.bye != true) | .table] | .[]' "$E2E_TMP/round.$ev.json" 2>/dev/null) ||
        fail "round show --json $ev: $(head -c 400 "$E2E_TMP/out")"
    for t in $tables; do
        live 0 --json code issue "$ev" "$t"
        jq --arg ev "$ev" --arg fmt "$fmt" --argjson t "$t" --slurpfile c "$E2E_TMP/out" \
            --slurpfile r "$E2E_TMP/round.$ev.json" \
            '. + [{event: $ev, format: $fmt, table: $t, code: $c[0].query, device: $c[0].device,
                   seats: [$r[0].tables[] | select(.table == $t) | .players[]]}]' \
            "$E2E_TMP/events.json" >"$E2E_TMP/events.tmp" && mv "$E2E_TMP/events.tmp" "$E2E_TMP/events.json"
    done
    live 0 clock start "$ev"
}
event nh neuroshima-hex 4 "${ARMIES[@]}"
event tx tantrix 2
event ag agricola 8
event ct catan 4
event gt got-lcg2 4
event xw xwing-2.0 2
jq -e 'length == 9' "$E2E_TMP/events.json" >/dev/null || fail "expected 9 tables with codes: $(cat "$E2E_TMP/events.json")"
ok "six events (NH 4, TX 2, AG 8, CT 4, GT 4, X-Wing 2 players): round 1 published, a code for each of the 9 tables, clocks started"

SHOTS=$E2E_TMP/shots
mkdir -p "$SHOTS"
node "$E2E_SRC/tests/e2e/play_games.js" --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" \
    --tables "$E2E_TMP/events.json" --hubpid "$HUB_PID" --shots "$SHOTS" \
    >"$E2E_TMP/play.out" 2>&1 || fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"

# Every table: exactly one counted result from its page's device, with
# what the page entered (play_games.js printed it as EXPECT lines).
while read -r ev t dev want; do
    live 0 --json result show "$ev" 1 --table "$t"
    jq -e --arg by "device:$dev" --argjson want "$want" '(.results | length) == 1 and .results[0].by == $by and
        .results[0].status == "counted" and
        (.results[0].result as $r | $want | to_entries | all(.value == $r[.key]))' "$E2E_TMP/out" >/dev/null ||
        fail "$ev table $t: expected one counted result from $dev with $want: $(cat "$E2E_TMP/out")"
done < <(sed -n 's/^EXPECT //p' "$E2E_TMP/play.out")
[ "$(grep -c '^EXPECT ' "$E2E_TMP/play.out")" -eq 9 ] || fail "play_games.js did not report 9 tables"
ok "every table: one counted result from its page, the values entered"

# Stored once through the cut: the page sent its key at least twice, the
# hub accepted it once and answered the repeat.
while read -r dev key; do
    sent=$(grep -c "Received PUBLISH from play-.*'tourney/v1/device/$dev/result'" "$BROKER_LOG")
    [ "$sent" -ge 2 ] || fail "$dev sent its result $sent time(s); the cut needs a resend"
    [ "$(grep -c "result accepted device=$dev key=$key " "$E2E_TMP/hub.log")" -eq 1 ] &&
        grep -q "result repeated device=$dev key=$key .*accepted again" "$E2E_TMP/hub.log" ||
        fail "the hub's log for $dev: $(grep "device=$dev key" "$E2E_TMP/hub.log")"
    keys=$(grep -o "result [a-z]* device=$dev key=[^ ]*" "$E2E_TMP/hub.log" | sed 's/.*key=//' | sort -u)
    [ "$keys" = "$key" ] || fail "$dev: the hub saw keys '$(echo $keys)', expected only $key"
done < <(sed -n 's/^CUT //p' "$E2E_TMP/play.out")
[ "$(grep -c '^CUT ' "$E2E_TMP/play.out")" -eq 2 ] || fail "play_games.js did not cut 2 tables"
ok "the two cut tables: sent again after the cut, stored once (one key, one acceptance, the repeat answered)"

# Two phones at one table: one key, stored once.
while read -r dev key; do
    keys=$(grep -o "result [a-z]* device=$dev key=[^ ]*" "$E2E_TMP/hub.log" | sed 's/.*key=//' | sort -u)
    [ "$keys" = "$key" ] && [ "$(grep -c "result accepted device=$dev key=$key " "$E2E_TMP/hub.log")" -eq 1 ] ||
        fail "$dev (two phones): the hub's log: $(grep "device=$dev key" "$E2E_TMP/hub.log")"
done < <(sed -n 's/^TWO //p' "$E2E_TMP/play.out")
[ "$(grep -c '^TWO ' "$E2E_TMP/play.out")" -eq 2 ] || fail "play_games.js did not use two phones at 2 tables"
ok "two phones at ag/2 and gt/2: each player confirmed on one of them, one key, accepted once"

for ev in nh tx ag ct gt xw; do
    live 0 round close "$ev"
done
ok "all six rounds close (every table has its counted result); screenshots in $SHOTS"

# Item 2: the codes expire with their event.  nh (one round) is finished:
# its codes are listed expired, each login keeps only its ended-web-N role
# (it reads its status, CODE_EXPIRED, whose page says the event is over:
# nothing of a table), and no new code is issued for it; the other
# events' codes still sign in with their table's role.
try_code() {
    NODE_PATH=$OVL/node_modules node -e '
const mqtt = require("mqtt");
const c = mqtt.connect(process.argv[1], {username: process.argv[2], password: process.argv[2],
    protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000});
c.on("connect", () => { console.log(0); c.end(true); });
c.on("error", (e) => { console.log(e.code || e.message); process.exit(0); });' "ws://$BROKER_HOST:$TWS/mqtt" "$1"
}
live 0 --json code list nh
jq -e 'length == 2 and all(.state == "expired")' "$E2E_TMP/out" >/dev/null ||
    fail "code list of the finished event: $(cat "$E2E_TMP/out")"
DS=$BROKER_DIR/dynsec/dynamic-security.json
for c in $(jq -r '.[] | select(.event == "nh") | .code' "$E2E_TMP/events.json"); do
    dev=$(jq -r --arg c "$c" '.[] | select(.code == $c) | .device' "$E2E_TMP/events.json")
    wait_for 10 "jq -e --arg c $c --arg r ended-$dev '[.clients[] | select(.username == \$c) | .roles[].rolename] == [\$r]' '$DS' >/dev/null" ||
        fail "nh's code $c after the event finished: $(jq -c --arg c "$c" '.clients[] | select(.username == $c)' "$DS")"
done
live 3 code issue nh 1
grep -q 'event "nh" is finished: its codes have expired' "$E2E_TMP/err" || fail "code issue on a finished event: $(cat "$E2E_TMP/err")"
c=$(jq -r '.[] | select(.event == "gt") | .code' "$E2E_TMP/events.json" | head -n 1)
[ "$(try_code "$c")" = 0 ] || fail "gt's code no longer signs in: $(try_code "$c")"
ok "a finished event's codes expire: listed expired, their logins hold only their status role, no new one; a running event's code still signs in"
e2e_done
