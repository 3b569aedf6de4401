#!/usr/bin/env bash
# test_play_codes.sh - issue 20: a phone is a table.  A venue broker with
# the table-page listener (gen-config.sh --table-ws-port, mosquitto's
# dynamic security plugin, serving the pages), the real hub provisioning
# sign-in codes through it (play_broker_uri), no table device at all, and
# an A Game of Thrones event of 8 players (accented, CJK and long names):
# - `code issue` for tables 1..4, `code list`, `code revoke`; a code that
#   is not one, or of another event, is refused with a clear message and
#   changes nothing;
# - tests/e2e/play_check.js in Debian's chromium at 390x844: a wrong code
#   refused by the broker and said so, a revoked one says it was revoked
#   (its login reads only its status); table 3's code cannot
#   publish table 4's result (PUBACK 135) nor read anything but its own
#   device's topics; table 1's page shows the table and clock, takes the
#   result and both players' confirmations, keeps it through a cut
#   WebSocket while the hub is stopped, and shows "stored by the hub";
# - afterwards the hub holds exactly one submission for table 1 (the
#   page's key) and the result counts in the standings;
# - a code revoked while its page is signed in: the broker disconnects the
#   page's login, which from then on reads only its status; the page says
#   it was revoked;
# - issue 21: the page of a table of an event whose language is Polish
#   speaks Polish (its words from po/tourney-pages/pl.po), ?lang=en wins;
# - the broker's logins follow the hub's store: a code's login deleted on
#   the broker behind the hub's back comes back when the hub reconnects
#   (restarted), the revoked ones keep nothing but their status.
# Screenshots (sign-in, refused, table, confirm, sent, stored, table-pl,
# confirm-pl) in the
# test's directory.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# result (deploy/test.sh installs all three).
#
# usage: bash test_play_codes.sh SOURCE_DIR BUILD_DIR
# before lib.sh, whose watchdog default (120 s) it would otherwise keep
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener, the pages, the hub (lib.sh)
play_setup

EV=thrones
live 0 event create $EV --format got-lcg2 --title 'Thrones Cup — Kraków' --seed 6
NAMES=("Zbigniew Brzęczyszczykiewicz-Wojciechowski" "Jan Šebesta" "Zoë Ångström" "Ōta Hiroshi" "Ñúñez Ruiz" "李小龍" "Bo Kim" "Max Roth")
FACTIONS=(Stark Lannister Baratheon Greyjoy Martell Targaryen Tyrell "Night's Watch")
for i in 1 2 3 4 5 6 7 8; do
    live 0 player add $EV "p$i" "${NAMES[$((i - 1))]}" --faction "${FACTIONS[$((i - 1))]}"
done
live 0 round pair $EV
live 0 round show $EV
cp "$E2E_TMP/out" "$E2E_TMP/pairs"
live 0 round publish $EV
live 0 clock start $EV
ok "event $EV: 8 players, round 1 published and started"

# Table 1's players, in seat order, with their names.
awk '$1 == "table" && $2 == 1 { n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^p[0-9]+$/) print $i }' \
    "$E2E_TMP/pairs" >"$E2E_TMP/t1.ids"
[ "$(wc -l <"$E2E_TMP/t1.ids")" -eq 2 ] || fail "round show: table 1 has not two players: $(cat "$E2E_TMP/pairs")"
n=0
: >"$E2E_TMP/t1.names"
while read -r id; do
    n=$((n + 1))
    printf '1\t%s\t%s\n' "$n" "${NAMES[$((${id#p} - 1))]}" >>"$E2E_TMP/t1.names"
done <"$E2E_TMP/t1.ids"

# Codes: refused arguments first (nothing changes).
live 2 code issue $EV 0
live 3 code revoke $EV 'O0I1-LLLL'
grep -q 'is not a sign-in code' "$E2E_TMP/err" || fail "code revoke of a non-code: $(cat "$E2E_TMP/err")"
live 3 code issue nosuchevent 1
for t in 1 2 3 4; do
    live 0 --json code issue $EV $t
    cp "$E2E_TMP/out" "$E2E_TMP/code.$t.json"
    jq -e --argjson t "$t" '.table == $t and (.code | test("^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$"))' \
        "$E2E_TMP/code.$t.json" >/dev/null || fail "code issue $t: $(cat "$E2E_TMP/code.$t.json")"
done
live 3 code issue $EV 2
grep -q 'table 2 already has device' "$E2E_TMP/err" || fail "a second code for table 2: $(cat "$E2E_TMP/err")"
code() { jq -r .query "$E2E_TMP/code.$1.json"; }
dev() { jq -r .device "$E2E_TMP/code.$1.json"; }
live 0 code revoke $EV "$(jq -r .code "$E2E_TMP/code.2.json")"
grep -q "revoked (table 2" "$E2E_TMP/out" || fail "code revoke: $(cat "$E2E_TMP/out")"
live 3 code revoke $EV "$(code 2)"
grep -q 'already revoked' "$E2E_TMP/err" || fail "revoking twice: $(cat "$E2E_TMP/err")"
live 0 --json code list $EV
jq -e 'length == 4 and ([.[] | select(.state == "revoked")] | length) == 1 and
       ([.[] | select(.state == "revoked")][0].table == 2)' "$E2E_TMP/out" >/dev/null ||
    fail "code list: $(cat "$E2E_TMP/out")"
ok "code issue/revoke/list: 4 codes, table 2's revoked; a non-code, table 0, a second code for a table and a double revoke refused"

# gen-config.sh: a re-run keeps the broker's logins file (the codes), a
# port taken by another listener is refused with its name.
DS=$BROKER_DIR/dynsec/dynamic-security.json
jq -e --arg c "$(code 1)" '[.clients[].username] | index($c)' "$DS" >/dev/null ||
    fail "the broker's dynamic-security.json has no client for table 1's code"
sum=$(sha256sum <"$DS")
bash "$E2E_SRC/deploy/broker/gen-config.sh" "${BROKER_GEN_ARGS[@]}" "$BROKER_DIR" 2>"$E2E_TMP/regen.err" ||
    fail "gen-config.sh re-run: $(cat "$E2E_TMP/regen.err")"
[ "$(sha256sum <"$DS")" = "$sum" ] || fail "a gen-config.sh re-run changed dynamic-security.json"
st=0
bash "$E2E_SRC/deploy/broker/gen-config.sh" --table-ws-port "$BROKER_PORT" --port "$BROKER_PORT" --no-ws \
    "$E2E_TMP/bad-broker" 2>"$E2E_TMP/bad.err" || st=$?
[ $st -eq 2 ] && grep -q "^gen-config.sh: --table-ws-port: $BROKER_PORT is also another listener's port$" "$E2E_TMP/bad.err" &&
    [ ! -e "$E2E_TMP/bad-broker" ] ||
    fail "gen-config.sh --table-ws-port = --port: exit $st, $(cat "$E2E_TMP/bad.err")"
ok "gen-config.sh: a re-run keeps the codes' file; --table-ws-port on a taken port refused, nothing written"

# Issue 21: a second event whose language is Polish ("language": "pl" in
# its table assignments): its table's page speaks Polish.
EVPL=tron
live 0 event create $EVPL --format got-lcg2 --title 'Gra o Tron — Kraków' --seed 7 --language pl
PLNAMES=("Zbigniew Brzęczyszczykiewicz-Wojciechowski" "Łucja Żółkiewska" "Grzegorz Brzęk" "Ewa Ślusarczyk")
for i in 1 2 3 4; do
    live 0 player add $EVPL "q$i" "${PLNAMES[$((i - 1))]}" --faction "${FACTIONS[$((i - 1))]}"
done
# The code after the publish: the publish gives tables without a device
# free registered ones, but never the revoked code's web device (issue 20:
# a web-N login belongs to its code's table alone), so table 1 is free.
live 0 round pair $EVPL
live 0 round publish $EVPL
live 0 --json code issue $EVPL 1
cp "$E2E_TMP/out" "$E2E_TMP/code.pl.json"
live 0 clock start $EVPL
ok "event $EVPL (language pl): 4 players, round 1 published and started, table 1's code"

jq -n --arg t1 "$(code 1)" --arg t3 "$(code 3)" --arg t4 "$(code 4)" --arg dev3 "$(dev 3)" --arg dev4 "$(dev 4)" \
    --arg revoked "$(code 2)" --arg pl "$(code pl)" \
    '{t1: $t1, t3: $t3, t4: $t4, dev3: $dev3, dev4: $dev4, revoked: $revoked, pl: $pl}' >"$E2E_TMP/codes.json"
SHOTS=$E2E_TMP/shots
mkdir -p "$SHOTS"
node "$E2E_SRC/tests/e2e/play_check.js" --overlays "$OVL" --base "$BASE" --chromium "$CHROMIUM" \
    --codes "$E2E_TMP/codes.json" --names "$E2E_TMP/t1.names" --hubpid "$HUB_PID" --event $EV \
    --shots "$SHOTS" --tourney "$TOURNEY" >"$E2E_TMP/play.out" 2>&1 || fail "play.html: $(cat "$E2E_TMP/play.out")"
sed 's/^/    /' "$E2E_TMP/play.out"
KEY=$(sed -n 's/^KEY //p' "$E2E_TMP/play.out")

# Stored once: the page sent its submission at least twice (before the
# cut and again after it: the broker's log), and the hub holds one result
# for table 1, from the page's device, counted.
sent=$(grep -c "Received PUBLISH from play-.*'tourney/v1/device/$(dev 1)/result'" "$BROKER_LOG")
[ "$sent" -ge 2 ] || fail "the page sent its result $sent time(s); the test needs the resend after the cut"
live 0 --json result show $EV 1 --table 1
jq -e --arg by "device:$(dev 1)" '(.results | length) == 1 and .results[0].by == $by and
       .results[0].status == "counted"' "$E2E_TMP/out" >/dev/null ||
    fail "table 1: expected exactly one counted result from $(dev 1): $(cat "$E2E_TMP/out")"
winner=$(jq -r '.results[0].result.winner' "$E2E_TMP/out")
[ "$winner" = "$(head -n 1 "$E2E_TMP/t1.ids")" ] || fail "table 1's winner is $winner, the page entered seat 1 ($(head -n 1 "$E2E_TMP/t1.ids"))"
# Exactly once by its key: the hub saw one key from the page, stored it
# once and answered the resends with the first answer (a page that made a
# new key for its resend would show up here as a second key).
keys=$(grep -o "result [a-z]* device=$(dev 1) key=[^ ]*" "$E2E_TMP/hub.log" | sed 's/.*key=//' | sort -u)
[ "$keys" = "$KEY" ] || fail "the hub saw keys '$(echo $keys)' from $(dev 1), expected only the page's $KEY"
[ "$(grep -c "result accepted device=$(dev 1) key=$KEY " "$E2E_TMP/hub.log")" -eq 1 ] &&
    grep -q "result repeated device=$(dev 1) key=$KEY .*accepted again" "$E2E_TMP/hub.log" ||
    fail "the hub's log: not one acceptance and a repeated answer for $KEY: $(grep "device=$(dev 1) key" "$E2E_TMP/hub.log")"
# Nothing for table 4 (table 3's attempt was refused by the broker).
live 0 --json result show $EV 1 --table 4
jq -e '(.results | length) == 0' "$E2E_TMP/out" >/dev/null || fail "table 4 has a result: $(cat "$E2E_TMP/out")"
grep -q "Denied PUBLISH from check-.*tourney/v1/device/$(dev 4)/result" "$BROKER_LOG" ||
    fail "the broker's log shows no denied publish on $(dev 4)/result: $(grep Denied "$BROKER_LOG" | head -n 3)"
ok "the page sent its result $sent times, the hub stored it once (key $KEY, winner $winner); table 4 has none (the broker denied table 3's publish)"

# The broker's logins follow the hub's store: table 4's login deleted
# behind the hub's back (a lost message, a broker's file restored), the
# code is refused; after the hub reconnects (restart) it is valid again.
# try_code CODE: prints 0 when the table-page listener accepts the code,
# else the CONNACK reason.
try_code() {
    NODE_PATH=$OVL/node_modules node -e '
const mqtt = require("mqtt");
const c = mqtt.connect(process.argv[1], {username: process.argv[2], password: process.argv[2],
    protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000});
c.on("connect", () => { console.log(0); c.end(true); });
c.on("error", (e) => { console.log(e.code || e.message); process.exit(0); });' "ws://$BROKER_HOST:$TWS/mqtt" "$1"
}
admin() {
    NODE_PATH=$OVL/node_modules node -e '
const mqtt = require("mqtt");
const c = mqtt.connect(process.argv[1], {username: "play-admin", password: process.argv[2],
    protocolVersion: 5, reconnectPeriod: 0});
c.on("connect", () => {
    c.subscribe("$CONTROL/dynamic-security/v1/response", {qos: 1}, () =>
        c.publish("$CONTROL/dynamic-security/v1", process.argv[3], {qos: 1}));
});
c.on("message", (t, m) => { console.log(m.toString()); c.end(true); });
c.on("error", (e) => { console.log("error " + e.message); process.exit(1); });' \
        "ws://$BROKER_HOST:$TWS/mqtt" "$(cat "$E2E_TMP/play.pw")" "$1"
}
[ "$(try_code "$(code 4)")" = 0 ] || fail "table 4's code is refused before the test deleted it"
admin "{\"commands\": [{\"command\": \"deleteClient\", \"username\": \"$(code 4)\"}]}" >"$E2E_TMP/admin.out" ||
    fail "play-admin: $(cat "$E2E_TMP/admin.out")"
r=$(try_code "$(code 4)")
[ "$r" = 135 ] || fail "table 4's code after its login was deleted on the broker: $r, expected 135"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
n_sync=$(grep -c 'codes: table-page listener connected' "$E2E_TMP/hub.log")
hub_launch
live 0 wait-hub --timeout 20
wait_for 20 "[ \$(grep -c 'codes: table-page listener connected, 1 message' '$E2E_TMP/hub.log') -ge 1 ] && [ \$(grep -c 'codes: table-page listener connected' '$E2E_TMP/hub.log') -gt $n_sync ]" ||
    fail "the restarted hub did not send the codes: $(grep codes: "$E2E_TMP/hub.log" | tail -n 3)"
wait_for 10 "[ \"\$(try_code '$(code 4)')\" = 0 ]" ||
    fail "table 4's code is still refused after the hub's sync: $(try_code "$(code 4)")"
# A revoked code's login after the sync: only its ended-web-N role, which
# reads its status and nothing else.
for t in 2 3; do
    jq -e --arg c "$(code $t)" --arg r "ended-$(dev $t)" \
        '[.clients[] | select(.username == $c) | .roles[].rolename] == [$r]' "$DS" >/dev/null ||
        fail "revoked table $t's login after the hub's sync: $(jq -c --arg c "$(code $t)" '.clients[] | select(.username == $c)' "$DS")"
done
ok "the hub's sync on (re)connect: a login deleted behind its back is back, the revoked ones hold only their status role"

ok "screenshots in $SHOTS"
e2e_done
