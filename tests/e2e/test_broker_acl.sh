#!/usr/bin/env bash
# test_broker_acl.sh - the venue's access rules, against real mosquitto 2.0
# processes running the configs of deploy/broker/gen-config.sh: devices
# write only their own result/presence and read only their own assign/ack/identify
# plus hub/state and the clocks; organisers own their ctl pair; anonymous
# and wrong-password clients are refused on the venue broker; the login is
# the client id (on the console listener, organisers only, each console
# connection keeps its own: several per login); time sync requests and
# answers only on the login's own pair; the public feed broker (WebSocket) gives anonymous
# clients feed/# read-only, through its bridge, and cannot disturb the
# venue broker's clients.
#
# Absence of a message is never checked by sleeping: after the denied
# message the same publisher sends an allowed marker, and the marker's
# arrival proves the broker already decided about the earlier message
# (one connection's messages are routed in order).  The WebSocket client
# uses PINGREQ/PINGRESP as the same kind of barrier.  The monitor login
# "watch" reads all of tourney/v1/# for the whole test: what it never sees
# was delivered to nobody.
#
# The facts this test pins down (mosquitto 2.0.11, deploy/broker/README.md):
# - MQTT v5, QoS 1: a denied PUBLISH gets PUBACK reason 135; mosquitto_pub
#   prints "Warning: Publish 1 failed: Not authorized." on stderr and
#   still exits 0.  MQTT 3.1.1 gets a normal PUBACK (denial invisible).
# - A SUBSCRIBE to a forbidden topic is granted (SUBACK QoS 1); the ACL
#   filters delivery, retained messages included.
# - Refused CONNECTs (anonymous, wrong password, unknown login) get CONNACK
#   135 under v5 (5 under 3.1.1), which is mosquitto_sub's exit status.
#
# usage: bash test_broker_acl.sh SOURCE_DIR [BUILD_DIR]
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
start_broker --tables 3 --organisers o1,o2

dev=tourney/v1/device
e2e_sub_start watch watch 'tourney/v1/#'

# --- devices: writing --------------------------------------------------------

# The hub login is used only for this subscriber while it runs: a second
# connection with the same login would close it (see the end of the test).
e2e_sub_start hub_results hub "$dev/+/result"

e2e_pub table-001 "$dev/table-001/result" r1 -d ||
    fail "own result: mosquitto_pub exit $?: $(cat "$E2E_TMP/pub.err")"
grep -q 'received PUBACK (Mid: 1, RC:0)' "$E2E_TMP/pub.out" ||
    fail "own result: no PUBACK RC:0: $(cat "$E2E_TMP/pub.out")"
e2e_expect hub_results "$dev/table-001/result" r1
ok "table-001 publishes its own result and the hub receives it"

e2e_pub table-001 "$dev/table-002/result" forged -d
st=$?
[ $st -eq 0 ] || fail "denied publish: mosquitto_pub exit $st (2.0.11 exits 0)"
grep -q 'received PUBACK (Mid: 1, RC:135)' "$E2E_TMP/pub.out" ||
    fail "denied publish: no PUBACK RC:135: $(cat "$E2E_TMP/pub.out")"
grep -q -x 'Warning: Publish 1 failed: Not authorized.' "$E2E_TMP/pub.err" ||
    fail "denied publish: stderr was: $(cat "$E2E_TMP/pub.err")"
e2e_pub table-001 "$dev/table-001/result" marker-1 || fail "marker-1"
e2e_expect hub_results "$dev/table-001/result" marker-1
e2e_expect watch "$dev/table-001/result" marker-1
e2e_has hub_results "$dev/table-002/result" forged &&
    fail "the hub received table-001's message on table-002's result topic"
e2e_has watch "$dev/table-002/result" forged && fail "forged result delivered"
ok "table-001 -> table-002/result: PUBACK 135, stderr 'Not authorized', exit 0; the hub never sees it"

# MQTT 3.1.1 hides the denial: normal PUBACK, nothing on stderr.
e2e_pub table-001 "$dev/table-002/result" forged-311 -V mqttv311 -d ||
    fail "3.1.1 publish: exit $?"
grep -q 'received PUBACK (Mid: 1, RC:0)' "$E2E_TMP/pub.out" ||
    fail "3.1.1 denied publish: expected an ordinary PUBACK: $(cat "$E2E_TMP/pub.out")"
[ ! -s "$E2E_TMP/pub.err" ] || fail "3.1.1 denied publish printed: $(cat "$E2E_TMP/pub.err")"
e2e_pub table-001 "$dev/table-001/result" marker-2 || fail "marker-2"
e2e_expect hub_results "$dev/table-001/result" marker-2
e2e_has hub_results "$dev/table-002/result" forged-311 &&
    fail "the hub received a forged 3.1.1 result"
e2e_sub_stop hub_results
ok "MQTT 3.1.1: the same denial is silent (ordinary PUBACK) and still dropped"

# Presence: own yes; everything else a device might try to write, no.
e2e_pub table-001 "$dev/table-001/presence" online -r || fail "own presence"
e2e_expect watch "$dev/table-001/presence" online
for t in "$dev/table-002/presence" "$dev/table-001/assign" "$dev/table-001/ack" \
    "$dev/table-001/identify" "$dev/table-002/identify" \
    tourney/v1/hub/state tourney/v1/event/e1/clock tourney/v1/feed/e1/x \
    tourney/v1/ctl/table-001/req tourney/v1/ctl/o1/req; do
    e2e_pub table-001 "$t" forged-w
    grep -q -x 'Warning: Publish 1 failed: Not authorized.' "$E2E_TMP/pub.err" ||
        fail "table-001 may write $t"
done
e2e_pub table-001 "$dev/table-001/presence" marker-3 || fail "marker-3"
e2e_expect watch "$dev/table-001/presence" marker-3
e2e_messages watch | grep -q forged-w && fail "a forged write was delivered"
ok "table-001 writes its own presence; other presence, own assign/ack/identify, hub/state, clock, feed, ctl: PUBACK 135"

# --- devices: reading --------------------------------------------------------

e2e_pub hub "$dev/table-002/assign" A2 -r || fail "hub assign 2"
e2e_pub hub "$dev/table-001/assign" A1 -r || fail "hub assign 1"
e2e_pub hub tourney/v1/hub/state online -r || fail "hub state"
e2e_pub hub tourney/v1/event/e1/clock c1 -r || fail "clock"
e2e_pub hub tourney/v1/feed/e1/standings S1 -r || fail "feed"

# Retained: the forbidden filter comes first in the SUBSCRIBE, so its
# retained message would come before table-001's own.
auth_args table-001
timeout 10 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 "${AUTH[@]}" \
    -t "$dev/table-002/assign" -t "$dev/table-001/assign" -C 1 -W 5 -d -F 'MSG %t %p' \
    >"$E2E_TMP/r.out" 2>"$E2E_TMP/r.err" || fail "retained read: exit $?: $(cat "$E2E_TMP/r.err")"
grep -q -x 'Subscribed (mid: 1): 1, 1' "$E2E_TMP/r.out" ||
    fail "expected both subscriptions granted QoS 1 (2.0.11 does not deny at SUBSCRIBE): $(cat "$E2E_TMP/r.out")"
[ "$(sed -n 's/^MSG //p' "$E2E_TMP/r.out")" = "$dev/table-001/assign A1" ] ||
    fail "table-001's first retained message: $(sed -n 's/^MSG //p' "$E2E_TMP/r.out")"
ok "table-001 subscribing table-002/assign: SUBACK grants QoS 1, retained A2 not delivered, own A1 is"

# Everything table-001 may read, retained and live, through '#'.
e2e_sub_start t1_all table-001 '#'
e2e_expect t1_all "$dev/table-001/assign" A1
e2e_expect t1_all tourney/v1/hub/state online
e2e_expect t1_all tourney/v1/event/e1/clock c1
e2e_pub hub "$dev/table-002/assign" live-A2 || fail "live assign 2"
e2e_pub hub "$dev/table-002/ack" live-K2 || fail "live ack 2"
e2e_pub hub tourney/v1/feed/e1/live F1 || fail "live feed"
e2e_pub hub tourney/v1/ctl/o1/resp R1 || fail "live resp"
e2e_pub hub "$dev/table-002/identify" 2 || fail "live identify 2"
e2e_pub hub "$dev/table-001/identify" 1 || fail "live identify 1"
e2e_pub hub "$dev/table-001/ack" K1 || fail "live ack 1"
e2e_expect t1_all "$dev/table-001/ack" K1
e2e_sub_stop t1_all
got=$(e2e_messages t1_all | sort | tr '\n' '|')
want="0 $dev/table-001/ack K1|0 $dev/table-001/identify 1|1 $dev/table-001/assign A1|1 tourney/v1/event/e1/clock c1|1 tourney/v1/hub/state online|"
[ "$got" = "$want" ] || fail "table-001 on '#' got: $got; wanted: $want"
ok "table-001 on '#' reads exactly its assign/ack/identify, hub/state and the clock (retained and live)"

# --- organisers --------------------------------------------------------------

e2e_pub o1 tourney/v1/ctl/o1/req cmd-1 || fail "o1 own req"
e2e_expect watch tourney/v1/ctl/o1/req cmd-1
e2e_pub o1 tourney/v1/ctl/o2/req forged-cmd
grep -q -x 'Warning: Publish 1 failed: Not authorized.' "$E2E_TMP/pub.err" ||
    fail "o1 -> ctl/o2/req not denied: $(cat "$E2E_TMP/pub.err")"
e2e_pub o1 tourney/v1/ctl/o1/resp forged-resp
grep -q -x 'Warning: Publish 1 failed: Not authorized.' "$E2E_TMP/pub.err" ||
    fail "o1 -> ctl/o1/resp not denied: $(cat "$E2E_TMP/pub.err")"
e2e_pub o1 tourney/v1/ctl/o1/req cmd-2 || fail "o1 own req 2"
e2e_expect watch tourney/v1/ctl/o1/req cmd-2
e2e_messages watch | grep -q -E 'forged-(cmd|resp)' && fail "o1's forged command was delivered"
ok "o1 publishes ctl/o1/req; ctl/o2/req and ctl/o1/resp get PUBACK 135 and reach nobody"

e2e_sub_start o1_all o1 '#'
e2e_pub hub tourney/v1/ctl/o2/resp R2 || fail "resp o2"
e2e_pub hub "$dev/table-001/assign" A1b || fail "assign"
e2e_pub hub tourney/v1/ctl/o1/resp R1b || fail "resp o1"
e2e_expect o1_all tourney/v1/ctl/o1/resp R1b
e2e_sub_stop o1_all
got=$(e2e_messages o1_all | sort | tr '\n' '|')
want="0 tourney/v1/ctl/o1/resp R1b|1 tourney/v1/event/e1/clock c1|1 tourney/v1/feed/e1/standings S1|1 tourney/v1/hub/state online|"
[ "$got" = "$want" ] || fail "o1 on '#' got: $got; wanted: $want"
ok "o1 on '#' reads its own resp, feed/#, hub/state and clocks; not o2's resp nor device topics"

# A monitor reads everything and writes nothing.
e2e_pub watch2 tourney/v1/hub/state forged-mon
grep -q -x 'Warning: Publish 1 failed: Not authorized.' "$E2E_TMP/pub.err" ||
    fail "monitor may write hub/state"
ok "monitor watch2: PUBACK 135 on a write"

# --- refused connections -------------------------------------------------------

mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -t '#' -W 5 \
    >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
st=$?
[ $st -eq 135 ] && grep -q -x 'Connection error: Not authorized' "$E2E_TMP/c.err" ||
    fail "anonymous v5 TCP: exit $st: $(cat "$E2E_TMP/c.err")"
mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv311 -t '#' -W 5 \
    >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
st=$?
[ $st -eq 5 ] && grep -q -x 'Connection error: Connection Refused: not authorised.' "$E2E_TMP/c.err" ||
    fail "anonymous 3.1.1 TCP: exit $st: $(cat "$E2E_TMP/c.err")"
ok "anonymous on the venue broker: CONNACK 135 (v5) / 5 (3.1.1), the clients' exit status"

for who in table-001:wrong-password hub:wrong-password table-999:whatever \
    "table-001:$(cred table-002)" "table-001:"; do
    u=${who%%:*} p=${who#*:}
    if [ -n "$p" ]; then
        mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -u "$u" -P "$p" \
            -t '#' -W 5 >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
    else
        mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -u "$u" \
            -t '#' -W 5 >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
    fi
    st=$?
    [ $st -eq 135 ] || fail "login $u with a wrong password: exit $st: $(cat "$E2E_TMP/c.err")"
done
ok "wrong password, no password, unknown login, another device's password: CONNACK 135"

# --- the login is the client id ----------------------------------------------

takeovers() { grep -c 'already connected, closing old connection' "$BROKER_LOG"; }
n0=$(takeovers)

# A device choosing another device's client id disconnects nobody.
auth_args table-001
stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 "${AUTH[@]}" -i tbl-a \
    -t tourney/v1/hub/state -W 30 -d >"$E2E_TMP/kick.out" 2>&1 </dev/null &
kick=$!
e2e_track $kick
wait_until 10 grep -q '^Subscribed' "$E2E_TMP/kick.out" || fail "kick subscriber"
e2e_pub table-002 "$dev/table-002/presence" p2 -i table-001 || fail "table-002 as client id table-001"
grep -q "as table-002 (p5, c1, k60, u'table-002')" "$BROKER_LOG" ||
    fail "table-002 did not get the client id table-002"
e2e_pub hub tourney/v1/hub/state still-1 || fail "hub state"
wait_until 10 grep -q "received PUBLISH.*'tourney/v1/hub/state'" "$E2E_TMP/kick.out" ||
    fail "table-001's subscriber lost hub/state"
[ "$(grep -c 'sending CONNECT' "$E2E_TMP/kick.out")" -eq 1 ] ||
    fail "table-002 with client id table-001 disconnected table-001"
[ "$(takeovers)" -eq "$n0" ] || fail "unexpected session takeover"
ok "table-002 asking for client id table-001 becomes client table-002 and disconnects nobody"

# The same login twice: the newer connection wins, the older is closed
# (its libmosquitto client reconnects after 1 s and takes over in turn).
e2e_pub table-001 "$dev/table-001/presence" p1 -i whatever || fail "second table-001"
wait_for 10 '[ "$(takeovers)" -gt "$n0" ]' || fail "no session takeover in the broker log"
grep -q 'Client table-001 already connected, closing old connection.' "$BROKER_LOG" ||
    fail "the takeover was not table-001's"
wait_for 10 '[ "$(grep -c "sending CONNECT" "$E2E_TMP/kick.out")" -ge 2 ]' ||
    fail "the first table-001 connection was not closed"
kill_wait $kick
ok "a second table-001 login closes the first ('already connected, closing old connection')"

# --- the public feed broker (WebSocket) --------------------------------------

# wait_feed TOPIC PAYLOAD: until the bridge has carried the message into
# the feed broker (its debug log names each PUBLISH it receives).
wait_feed() {
    wait_until 10 grep -q "Received PUBLISH from feed-bridge-.*'$1', ... ($((${#2})) bytes)" "$FEED_LOG" ||
        fail "the bridge did not carry $1 into the feed broker"
}

wait_feed tourney/v1/feed/e1/standings S1
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-1
[ "$WS_RC" = 0 ] || fail "anonymous WebSocket CONNECT: reason $WS_RC"
ws_mqtt_subscribe 1 'tourney/v1/feed/#'
[ "$WS_RC" = 1 ] || fail "WebSocket SUBSCRIBE feed/#: reason $WS_RC"
ws_expect 3 "retained feed PUBLISH"
[ "$WS_TOPIC $WS_PAYLOAD $WS_RETAIN" = "tourney/v1/feed/e1/standings S1 1" ] ||
    fail "WebSocket feed: got $WS_TOPIC $WS_PAYLOAD retain=$WS_RETAIN"
ws_mqtt_ping
[ -z "$WS_SEEN" ] || fail "WebSocket feed: unexpected $(tr '\n' '|' <<<"$WS_SEEN")"
ok "anonymous WebSocket client reads the retained feed carried by the bridge (retain flag kept)"

e2e_pub hub tourney/v1/feed/e1/round R3 || fail "live feed"
ws_expect 3 "live feed PUBLISH"
[ "$WS_TOPIC $WS_PAYLOAD $WS_RETAIN" = "tourney/v1/feed/e1/round R3 0" ] ||
    fail "WebSocket live feed: got $WS_TOPIC $WS_PAYLOAD retain=$WS_RETAIN"
ok "a live feed message reaches the WebSocket client"

ws_mqtt_subscribe 2 "$dev/+/assign"
[ "$WS_RC" = 1 ] || fail "WebSocket SUBSCRIBE assign: reason $WS_RC"
ws_mqtt_subscribe 3 '#'
ws_mqtt_ping
[ "$WS_SEEN" = "tourney/v1/feed/e1/standings S1"$'\n' ] ||
    fail "anonymous WebSocket client on '#' read: $(tr '\n' '|' <<<"$WS_SEEN")"
ws_mqtt_publish 4 tourney/v1/feed/e1/standings defaced
[ "$WS_RC" = 135 ] || fail "anonymous WebSocket PUBLISH feed: reason $WS_RC"
ws_mqtt_publish 5 "$dev/table-001/result" forged-ws
[ "$WS_RC" = 135 ] || fail "anonymous WebSocket PUBLISH result: reason $WS_RC"
ws_close
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-2
ws_mqtt_subscribe 1 'tourney/v1/feed/e1/standings'
ws_expect 3 "retained feed PUBLISH"
[ "$WS_PAYLOAD" = S1 ] || fail "the feed broker's retained standings became $WS_PAYLOAD"
ws_close
e2e_messages watch | grep -q forged-ws && fail "a WebSocket client wrote into the venue broker"
ok "anonymous WebSocket: no device topics (SUBACK 1, nothing delivered), PUBACK 135 on any publish"

# A username on the feed broker buys nothing (it has no logins).
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-3 hub "$(cred hub)"
[ "$WS_RC" = 0 ] || fail "WebSocket CONNECT with a username: reason $WS_RC"
ws_mqtt_subscribe 1 '#'
ws_mqtt_ping
[ -z "$WS_SEEN" ] || fail "a WebSocket client with a username read: $(tr '\n' '|' <<<"$WS_SEEN")"
ws_mqtt_publish 2 "$dev/table-001/assign" ws-assign
[ "$WS_RC" = 135 ] || fail "WebSocket client with the hub's login may publish: $WS_RC"
ws_close
ok "WebSocket client with the hub's login: connected, reads nothing, writes nothing"

# Taking a venue client id on the feed broker disturbs nobody: the venue
# broker is another process.  (With one mosquitto process serving both,
# an anonymous WebSocket client with client id table-001 disconnected the
# real table-001: the reason for two processes.)
auth_args table-001
stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 "${AUTH[@]}" \
    -t tourney/v1/hub/state -W 30 -d >"$E2E_TMP/kick2.out" 2>&1 </dev/null &
kick=$!
e2e_track $kick
wait_until 10 grep -q '^Subscribed' "$E2E_TMP/kick2.out" || fail "table-001 subscriber"
n1=$(takeovers)
b0=$(bridge_subacks)
for id in table-001 hub feed-bridge; do
    ws_open "$BROKER_WS_PORT"
    ws_mqtt_connect "$id"
    [ "$WS_RC" = 0 ] || fail "WebSocket CONNECT as client id $id: reason $WS_RC"
    ws_mqtt_ping
    ws_close
done
e2e_pub hub tourney/v1/feed/e1/round R4 || fail "feed R4"
wait_feed tourney/v1/feed/e1/round R4
e2e_pub hub tourney/v1/hub/state still-2 || fail "hub state 2"
wait_until 10 grep -q "received PUBLISH.*'tourney/v1/hub/state'" "$E2E_TMP/kick2.out" ||
    fail "table-001 lost hub/state"
[ "$(grep -c 'sending CONNECT' "$E2E_TMP/kick2.out")" -eq 1 ] ||
    fail "a WebSocket client disconnected table-001"
[ "$(takeovers)" -eq "$n1" ] || fail "a session takeover on the venue broker"
[ "$(bridge_subacks)" -eq "$b0" ] || fail "the feed bridge was disconnected"
kill_wait $kick
ok "WebSocket clients with client ids table-001, hub, feed-bridge disconnect nobody"

# --- time sync topics (docs/protocol.md "Time sync") -------------------------

# Each login asks on its own time/LOGIN/req and hears on its own
# time/LOGIN/resp, nobody else's.
# (A login with a running subscriber must not publish: table-002 listens,
# table-001 and o1 publish.)
e2e_sub_start t2_time table-002 'tourney/v1/time/+/resp'
e2e_pub table-001 tourney/v1/time/table-001/req ask-1 || fail "own time request"
e2e_expect watch tourney/v1/time/table-001/req ask-1
e2e_pub table-001 tourney/v1/time/table-002/req forged-ask -d
grep -q 'received PUBACK (Mid: 1, RC:135)' "$E2E_TMP/pub.out" ||
    fail "time request on table-002's topic: no PUBACK RC:135: $(cat "$E2E_TMP/pub.out")"
e2e_pub o1 tourney/v1/time/table-001/req forged-ask-o1 -d
grep -q 'received PUBACK (Mid: 1, RC:135)' "$E2E_TMP/pub.out" ||
    fail "o1's time request on table-001's topic: no PUBACK RC:135: $(cat "$E2E_TMP/pub.out")"
e2e_pub hub tourney/v1/time/table-001/resp other-answer || fail "hub answer to table-001"
e2e_pub hub tourney/v1/time/table-002/resp own-answer || fail "hub answer to table-002"
e2e_expect t2_time tourney/v1/time/table-002/resp own-answer
e2e_has t2_time tourney/v1/time/table-001/resp other-answer &&
    fail "table-002 read table-001's time answer"
e2e_pub table-001 tourney/v1/time/table-001/req marker-t || fail "time marker"
e2e_expect watch tourney/v1/time/table-001/req marker-t
e2e_has watch tourney/v1/time/table-002/req forged-ask && fail "a forged time request was delivered"
e2e_has watch tourney/v1/time/table-001/req forged-ask-o1 && fail "o1's forged time request was delivered"
e2e_sub_stop t2_time
ok "time sync: a login asks only on its own time/LOGIN/req and reads only its own answers"

# --- the console listener: several connections per organiser login ----------

# csub NAME LOGIN CLIENT_ID TOPIC: a subscriber on the console listener.
csub() {
    auth_args "$2"
    stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_CONSOLE_PORT" -V mqttv5 -q 1 \
        "${AUTH[@]}" -i "$3" -t "$4" -W 60 -d -F 'MSG %r %t %p' \
        >"$E2E_TMP/$1.out" 2>"$E2E_TMP/$1.err" </dev/null &
    e2e_track $!
    printf '%s\n' $! >"$E2E_TMP/$1.pid"
    wait_until 10 grep -q '^Subscribed (mid' "$E2E_TMP/$1.out" ||
        fail "console subscriber $1 ($2): $(cat "$E2E_TMP/$1.err")"
}
n2=$(takeovers)
csub dash1 o1 o1.dash.1 'tourney/v1/ctl/+/resp'
csub dash2 o1 o1.dash.2 'tourney/v1/ctl/+/resp'
e2e_pub hub tourney/v1/ctl/o2/resp for-o2 || fail "answer to o2"
e2e_pub hub tourney/v1/ctl/o1/resp for-o1 || fail "answer to o1"
e2e_expect dash1 tourney/v1/ctl/o1/resp for-o1
e2e_expect dash2 tourney/v1/ctl/o1/resp for-o1
e2e_has dash1 tourney/v1/ctl/o2/resp for-o2 && fail "o1 read o2's answer on the console listener"
[ "$(takeovers)" -eq "$n2" ] || fail "a session takeover between o1's console connections"
grep -q "as o1.dash.1 (p5, c1, k60, u'o1')" "$BROKER_LOG" && grep -q "as o1.dash.2 (p5, c1, k60, u'o1')" "$BROKER_LOG" ||
    fail "o1's console connections did not keep their client ids"
ok "console listener: organiser o1 holds two connections at once (client ids o1.dash.1, o1.dash.2), both served; o2's answers stay o2's"

auth_args o1
timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_CONSOLE_PORT" -V mqttv5 -q 1 "${AUTH[@]}" \
    -i o1.cli -t "$dev/table-001/result" -m forged-console -d >"$E2E_TMP/pub.out" 2>"$E2E_TMP/pub.err"
grep -q 'received PUBACK (Mid: 1, RC:135)' "$E2E_TMP/pub.out" ||
    fail "o1 writing a device result on the console listener: $(cat "$E2E_TMP/pub.out")"
timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_CONSOLE_PORT" -V mqttv5 -q 1 "${AUTH[@]}" \
    -i o1.cli -t tourney/v1/ctl/o1/req -m console-marker >"$E2E_TMP/pub.out" 2>"$E2E_TMP/pub.err" ||
    fail "o1's own request on the console listener: $(cat "$E2E_TMP/pub.err")"
e2e_expect watch tourney/v1/ctl/o1/req console-marker
e2e_has watch "$dev/table-001/result" forged-console && fail "the console listener delivered a forged result"
for who in table-001 hub watch; do
    auth_args "$who"
    mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_CONSOLE_PORT" -V mqttv5 "${AUTH[@]}" \
        -t '#' -W 5 >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
    st=$?
    [ $st -eq 135 ] || fail "login $who on the console listener: exit $st: $(cat "$E2E_TMP/c.err")"
done
mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_CONSOLE_PORT" -V mqttv5 -t '#' -W 5 \
    >"$E2E_TMP/c.out" 2>"$E2E_TMP/c.err"
st=$?
[ $st -eq 135 ] || fail "anonymous on the console listener: exit $st"
e2e_sub_stop dash1
e2e_sub_stop dash2
ok "console listener: the ACL still refuses a forged device result; table, hub, monitor and anonymous logins are refused (CONNACK 135)"

e2e_done
