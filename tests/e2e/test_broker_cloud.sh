#!/usr/bin/env bash
# test_broker_cloud.sh - the feed broker's cloud bridge (gen-config.sh
# --cloud): a second mosquitto on 127.0.0.1 with TLS (its own CA) and
# logins stands in for a managed MQTT service.  Real venue broker, feed
# broker, hub with its feed on, an event created by `tourney live`:
# - outbound: a reader of the cloud broker gets the event's feed
#   documents, retained (a late subscriber gets them at once), and only
#   tourney/v1/feed/# (no hub state, no console or device topics);
# - nothing inbound: a client of the cloud broker publishes a forged feed
#   document and a forged console command there; the venue broker (the
#   "watch" monitor reads all of tourney/v1/#) never sees either, while a
#   later real update of the hub does arrive;
# - TLS is verified: a cloud broker whose certificate the given CA did not
#   sign gets no feed (the bridge refuses it);
# - bad --cloud arguments are refused with a message naming them.
#
# usage: bash test_broker_cloud.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v openssl >/dev/null || fail "openssl not found"
GEN=$E2E_SRC/deploy/broker/gen-config.sh

# bad arguments first: exit 2, a message naming the option, nothing written
echo pw >"$E2E_TMP/pw1"
for bad in "--cloud ftp://x --cloud-user u --cloud-password-file $E2E_TMP/pw1" \
    "--cloud mqtts://h --cloud-password-file $E2E_TMP/pw1" \
    "--cloud mqtt://h --cloud-user u --cloud-password-file $E2E_TMP/pw1 --cloud-cafile $E2E_TMP/pw1" \
    "--cloud mqtts://h --cloud-user u --cloud-password-file $E2E_TMP/pw1 --no-ws" \
    "--cloud-user u"; do
    # shellcheck disable=SC2086 # (the words are the options)
    bash "$GEN" $bad "$E2E_TMP/never" 2>"$E2E_TMP/err" && fail "gen-config.sh $bad: accepted"
    grep -q -- '--cloud' "$E2E_TMP/err" && [ ! -e "$E2E_TMP/never" ] ||
        fail "gen-config.sh $bad: $(cat "$E2E_TMP/err")"
done
ok "bad --cloud arguments refused with a message, nothing written"

# The "cloud": its own CA and a server certificate for 127.0.0.1.
C=$E2E_TMP/cloud
mkdir -p "$C"
mkca() { # DIR: ca.crt/ca.key and server.crt/key for 127.0.0.1 signed by it
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=cloud test CA" \
        -keyout "$1/ca.key" -out "$1/ca.crt" 2>/dev/null &&
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
            -keyout "$1/server.key" -out "$1/server.csr" 2>/dev/null &&
        printf 'subjectAltName=IP:127.0.0.1\n' >"$1/ext" &&
        openssl x509 -req -in "$1/server.csr" -CA "$1/ca.crt" -CAkey "$1/ca.key" -CAcreateserial \
            -days 2 -extfile "$1/ext" -out "$1/server.crt" 2>/dev/null
}
mkca "$C" || fail "openssl: cloud CA"
mkdir -p "$C/other" && mkca "$C/other" || fail "openssl: other CA"
printf 'cloud-pass-1\n' >"$C/feedpub.pw"
: >"$C/passwd"
for u in feedpub reader intruder; do
    mosquitto_passwd -b "$C/passwd" "$u" "$u-pass" 2>/dev/null || fail "mosquitto_passwd"
done
mosquitto_passwd -b "$C/passwd" feedpub cloud-pass-1 2>/dev/null
cat >"$C/acl" <<'EOF2'
user feedpub
topic write tourney/v1/feed/#
user reader
topic read #
user intruder
topic readwrite #
EOF2
CLOUD_PORT=
CLOUD_PID=
# cloud_start CERTDIR: the cloud broker with that server certificate.
cloud_start() {
    local attempt again=$CLOUD_PORT
    for ((attempt = 0; attempt < 20; attempt++)); do
        [ -n "$CLOUD_PORT" ] || port_reserve CLOUD_PORT
        cat >"$C/cloud.conf" <<EOF2
per_listener_settings false
user $(id -un)
allow_anonymous false
password_file $C/passwd
acl_file $C/acl
persistence false
log_dest stderr
log_type all
listener $CLOUD_PORT 127.0.0.1
cafile $1/ca.crt
certfile $1/server.crt
keyfile $1/server.key
EOF2
        launch "$C/cloud.conf" "$C/cloud.log" CLOUD_PID && { e2e_track "$CLOUD_PID"; return 0; }
        # a restart keeps its port (the feed bridge dials it)
        [ -z "$again" ] || fail "cloud broker: port $CLOUD_PORT taken at its restart"
        port_release "$CLOUD_PORT"
        CLOUD_PORT=
    done
    fail "cloud broker: no free port"
}
cloud_start "$C"
ok "cloud broker (TLS, logins, ACL) on 127.0.0.1:$CLOUD_PORT"

# cloud_sub NAME LOGIN TOPIC: a subscriber of the cloud broker (output in
# $E2E_TMP/NAME.out as "MSG RETAIN TOPIC PAYLOAD").
cloud_sub() {
    stdbuf -oL mosquitto_sub -h 127.0.0.1 -p "$CLOUD_PORT" --cafile "$C/ca.crt" -u "$2" -P "$2-pass" \
        -V mqttv311 -q 1 -t "$3" -F 'MSG %r %t %p' >"$E2E_TMP/$1.out" 2>"$E2E_TMP/$1.err" </dev/null &
    e2e_track $!
}

start_broker --tables 1 --organisers o1 --cloud "mqtts://127.0.0.1:$CLOUD_PORT" --cloud-user feedpub \
    --cloud-password-file "$C/feedpub.pw" --cloud-cafile "$C/ca.crt"
grep -q "^topic tourney/v1/feed/# out 1$" "$BROKER_DIR/feed.conf" && ! grep -q "^topic .* in" <(sed -n '/^connection cloud/,$p' "$BROKER_DIR/feed.conf") ||
    fail "feed.conf cloud bridge: $(sed -n '/^connection cloud/,$p' "$BROKER_DIR/feed.conf")"
wait_until 20 grep -q "New bridge connected\|New client connected from 127.0.0.1.* as tourney-feed-" "$C/cloud.log" ||
    fail "the cloud bridge did not connect: $(grep -i cloud "$FEED_LOG" | tail -n 5)"
ok "feed broker's cloud bridge connected over TLS as feedpub"

e2e_sub_start watch watch 'tourney/v1/#'
cloud_sub all reader '#'
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50'
hub_launch
live 0 wait-hub --timeout 20
EV=cloudy
live 0 event create "$EV" --format catan --title 'Cloud Cup' --seed 3
wait_until 20 grep -q "^MSG 0 tourney/v1/feed/$EV/event .*Cloud Cup" "$E2E_TMP/all.out" ||
    fail "the cloud reader got no feed document: $(head -c 400 "$E2E_TMP/all.out")"
# a late reader gets the retained documents at once
cloud_sub late reader "tourney/v1/feed/$EV/+"
wait_until 10 grep -q "^MSG 1 tourney/v1/feed/$EV/event .*Cloud Cup" "$E2E_TMP/late.out" ||
    fail "no retained event document on the cloud broker: $(cat "$E2E_TMP/late.out")"
for k in pairings tables standings bracket; do
    grep -q "^MSG 1 tourney/v1/feed/$EV/$k " "$E2E_TMP/late.out" || fail "cloud: no retained $k document"
done
ok "the cloud broker has the event's feed documents, retained"

# nothing inbound: forged messages published on the cloud broker
mosquitto_pub -h 127.0.0.1 -p "$CLOUD_PORT" --cafile "$C/ca.crt" -u intruder -P intruder-pass -V mqttv311 -q 1 \
    -t "tourney/v1/feed/$EV/event" -m '{"title":"FORGED-FEED"}' -r || fail "intruder publish"
mosquitto_pub -h 127.0.0.1 -p "$CLOUD_PORT" --cafile "$C/ca.crt" -u intruder -P intruder-pass -V mqttv311 -q 1 \
    -t "tourney/v1/ctl/o1/req" -m 'FORGED-CTL' || fail "intruder publish"
# a real update after them: once it reached the venue, the forged ones had their chance
live 0 player add "$EV" p1 'After Forgery'
wait_until 10 grep -q "tourney/v1/feed/$EV/standings .*After Forgery" "$E2E_TMP/watch.out" ||
    fail "venue monitor: no later feed update: $(tail -c 300 "$E2E_TMP/watch.out")"
! grep -q 'FORGED' "$E2E_TMP/watch.out" || fail "a message from the cloud reached the venue broker: $(grep FORGED "$E2E_TMP/watch.out")"
wait_until 10 grep -q "tourney/v1/feed/$EV/standings .*After Forgery" "$E2E_TMP/all.out" ||
    fail "the cloud did not get the later update"
bad=$(awk '$1 == "MSG" && $3 !~ /^tourney\/v1\/feed\// && $3 != "tourney/v1/ctl/o1/req"' "$E2E_TMP/all.out" | head -n 3)
[ -z "$bad" ] || fail "the cloud got topics beyond tourney/v1/feed/#: $bad"
ok "nothing inbound (forged feed and console messages stay on the cloud); only tourney/v1/feed/# outbound"

# TLS verified: the cloud broker now shows a certificate of another CA
kill_wait "$CLOUD_PID"
: >"$C/cloud.log"
cloud_start "$C/other"
live 0 player add "$EV" p2 'Second Player'
wait_until 10 grep -q "tourney/v1/feed/$EV/standings .*Second Player" "$E2E_TMP/watch.out" || fail "venue: no update"
wait_until 15 grep -q "certificate verify failed" "$FEED_LOG" ||
    fail "feed broker: no TLS refusal logged: $(tail -n 5 "$FEED_LOG")"
! grep -q "as tourney-feed-" "$C/cloud.log" || fail "the bridge connected to a broker with an unknown certificate"
ok "a cloud broker with a certificate of another CA gets nothing (the bridge verifies TLS)"

# The cloud broker restarts empty (no persistence): once the bridge is
# back, the feed broker sends it its retained documents again, without
# waiting for the hub's next change.
kill_wait "$CLOUD_PID"
: >"$C/cloud.log"
cloud_start "$C"
wait_until 70 grep -q "as tourney-feed-" "$C/cloud.log" || fail "the bridge did not reconnect to the restarted cloud broker"
cloud_sub after reader "tourney/v1/feed/$EV/+"
wait_until 10 grep -q "^MSG 1 tourney/v1/feed/$EV/standings .*Second Player" "$E2E_TMP/after.out" ||
    fail "after the cloud broker restarted: no retained feed: $(cut -c 1-80 "$E2E_TMP/after.out")"
ok "the restarted cloud broker has the current retained feed again"
e2e_done
