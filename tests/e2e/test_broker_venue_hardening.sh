#!/usr/bin/env bash
# test_broker_venue_hardening.sh - three holes of issue 23 in the venue's
# brokers, closed (deploy/broker/gen-config.sh, the hub):
#
# 1. The feed bridge's login: its password (in feed.conf) logged into the
#    venue broker from anywhere and, the login being the client id, took
#    the real bridge's connection.  Now the login exists only on the venue
#    broker's loopback bridge listener (passwd-bridge): on the venue
#    listener it is refused (not authorised), the real bridge keeps its
#    one connection (its SUBACK count does not move) and the feed still
#    reaches the WebSocket readers.
# 2. A retained message on device/X/result stayed on the broker until the
#    hub's next subscription (docs/protocol.md: results are never
#    retained): the hub, running, clears it as it arrives (its result
#    subscription is "retain as published"), and a new subscriber finds
#    nothing retained there.
# 3. http_dir served the whole directory given: node_modules/,
#    package-lock.json, install.sh.  Now the feed's port serves a
#    pages-only copy (OUTDIR/www): the pages load, the rest is 404.  The
#    port is the feed's front (deploy/broker/feed-front.js, issue 17): it
#    serves no file outside that copy (../, another method, a dot file)
#    and upgrades no WebSocket but MQTT's (subprotocol mqtt).
#
# usage: bash test_broker_venue_hardening.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v curl >/dev/null || fail "curl not found (deploy/install-deps.sh)"

# The pages as a checkout has them after deploy/overlays/install.sh:
# the pages, vendor/, and what must not be served.
OVL=$E2E_TMP/overlays
mkdir -p "$OVL/vendor" "$OVL/node_modules/mqtt"
cp "$E2E_SRC"/deploy/overlays/*.html "$E2E_SRC"/deploy/overlays/*.js "$E2E_SRC"/deploy/overlays/*.css "$OVL/"
cp "$E2E_SRC/deploy/overlays/package.json" "$E2E_SRC/deploy/overlays/install.sh" "$OVL/"
echo '{"lockfileVersion": 3}' >"$OVL/package-lock.json"
echo 'module.exports = 1' >"$OVL/node_modules/mqtt/index.js"
echo '/* vendor bundle */' >"$OVL/vendor/mqtt.min.js"

start_broker --tables 2 --organisers o1 --http-dir "$OVL"

# --- 1. the bridge's login ------------------------------------------------------
n=$(bridge_subacks)
if e2e_pub feed-bridge tourney/v1/feed/x/probe x; then
    fail "the bridge's login was accepted on the venue listener"
fi
grep -q -i "not authori[sz]ed" "$E2E_TMP/pub.err" ||
    fail "the bridge's login: no \"not authorised\" refusal: $(cat "$E2E_TMP/pub.err")"
e2e_pub hub tourney/v1/feed/e1/standings after-probe -r || fail "hub feed publish: $(cat "$E2E_TMP/pub.err")"
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-1
ws_mqtt_subscribe 1 'tourney/v1/feed/#'
ws_expect 3 "the feed after the refused login"
[ "$WS_TOPIC $WS_PAYLOAD" = "tourney/v1/feed/e1/standings after-probe" ] ||
    fail "the feed after the refused login: $WS_TOPIC $WS_PAYLOAD"
ws_close
[ "$(bridge_subacks)" = "$n" ] || fail "the bridge reconnected ($n -> $(bridge_subacks) SUBACKs): its connection was taken"
grep -q "Client feed-bridge already connected, closing old connection" "$BROKER_LOG" &&
    fail "the venue broker closed the bridge's connection for another"
ok "the bridge's password is refused on the venue listener; the bridge kept its connection and the feed flows"

# --- 2. a retained result is cleared at once ------------------------------------
# (The hub starts now: above, "hub" published the feed itself.)
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config 'feed = false'
hub_launch
live 0 wait-hub --timeout 20
DEV=tourney/v1/device
e2e_pub table-002 "$DEV/table-002/result" 'retained junk' -r ||
    fail "retained publish: $(cat "$E2E_TMP/pub.err")"
wait_until 10 grep -q 'retained result message device=table-002: cleared' "$E2E_TMP/hub.log" ||
    fail "the running hub did not clear the retained result: $(tail -n 5 "$E2E_TMP/hub.log")"
auth_args watch2
first=$(timeout 10 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 "${AUTH[@]}" \
    -t "$DEV/table-002/result" -t tourney/v1/hub/state --retained-only -C 1 -v 2>/dev/null)
[ "$first" = "tourney/v1/hub/state online" ] ||
    fail "a retained message is left on $DEV/table-002/result: $first"
grep -q "broker connection lost" "$E2E_TMP/hub.log" &&
    fail "the hub reconnected (a replay on resubscription would clear it anyway): $(grep -v '^debug' "$E2E_TMP/hub.log" | tail -n 5)"
ok "a retained result published while the hub runs is cleared at once"

# --- 3. http_dir: the pages only -------------------------------------------------
BASE=http://$BROKER_HOST:$BROKER_WS_PORT
[ "$(jq -r .http_dir "$BROKER_DIR/feed-front.json")" = "$BROKER_DIR/www" ] ||
    fail "feed-front.json does not serve the pages-only copy: $(cat "$BROKER_DIR/feed-front.json")"
! grep -q http_dir "$BROKER_DIR/feed.conf" || fail "feed.conf serves pages: $(grep http_dir "$BROKER_DIR/feed.conf")"
for f in hall.html player.html pages.js pages.css vendor/mqtt.min.js; do
    curl -fsS -o /dev/null "$BASE/$f" || fail "$f is not served"
done
for f in node_modules/mqtt/index.js package-lock.json package.json install.sh; do
    code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/$f")
    [ "$code" = 404 ] || fail "$f is served (HTTP $code)"
done
ok "the feed's port serves the pages and vendor/, not node_modules/, package files or install.sh"

echo secret >"$BROKER_DIR/www/.hidden"
for path in /../feed.conf /../users.cred /%2e%2e/feed.conf /.hidden; do
    code=$(curl -s --path-as-is -o "$E2E_TMP/body" -w '%{http_code}' "$BASE$path")
    [ "$code" = 404 ] && ! grep -q -e secret -e remote_password "$E2E_TMP/body" ||
        fail "$path: HTTP $code: $(head -c 200 "$E2E_TMP/body")"
done
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data x "$BASE/hall.html")
[ "$code" = 404 ] || fail "POST hall.html: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
    -H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' \
    -H 'Sec-WebSocket-Protocol: chat' --max-time 5 "$BASE/mqtt")
[ "$code" != 101 ] || fail "a WebSocket of subprotocol chat was upgraded"
ok "nothing outside the pages (../, %2e%2e, dot files, POST) and no WebSocket but subprotocol mqtt"
e2e_done
