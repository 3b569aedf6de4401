#!/usr/bin/env bash
# test_hub_publish_window.sh - the hub's publish window (issue 17): at most
# publish_window of its publishes await the broker's acknowledgement at
# once, whoever published them (assignments, the console's replies, the
# feed's documents), and what waits goes out, in order.  Real broker, hub
# (feed on) and console; publish_window = 2 while one `round publish`
# sends 12 assignments, its reply and the feed's documents at once.
# Counted by the MQTT adapter (its QoS 1 publishes accepted by Paho and
# not yet answered), which the hub logs when it stops: at most 2, against
# dozens of publishes.  The console's replies coming back (each after
# every publish before it) and every table's retained assignment on the
# broker show that nothing waiting stays behind.
#
# test_hub_receive_maximum.sh runs this with the broker's
# max_inflight_messages (its MQTT v5 Receive Maximum) at 3 and
# publish_window at its default: the window then follows the broker
# (WINDOW_CONF, BROKER_MAX_INFLIGHT, WINDOW_MOST).
#
# usage: bash test_hub_publish_window.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
WINDOW_CONF=${WINDOW_CONF-publish_window = 2}
WINDOW_MOST=${WINDOW_MOST:-2}
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"

TOURNEY=$E2E_BUILD/hub/tourney
HUB=$E2E_BUILD/hub/tourney-hub
for b in "$TOURNEY" "$HUB"; do
    [ -x "$b" ] || fail "$b not built"
done
N_DEV=${N_DEV:-12}
N_PLAYERS=$((2 * N_DEV))
EV=win

start_broker --no-ws --tables $N_DEV --organisers o1 \
    ${BROKER_MAX_INFLIGHT:+--max-inflight "$BROKER_MAX_INFLIGHT"}
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 0' ${WINDOW_CONF:+"$WINDOW_CONF"}
hub_launch
live 0 wait-hub --timeout 20
event_with_devices catan "Publish window" '{"rounds": 2}'
live 0 round pair "$EV"
live 0 round publish "$EV"
ok "round 1 of $N_DEV tables published through a window of $WINDOW_MOST"

# Every table's assignment of round 1 is retained on the broker (read as
# each table's own login: its topic is its own).
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    auth_args "$d"
    timeout 10 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V 5 \
        "${AUTH[@]}" -t "tourney/v1/device/$d/assign" -C 1 -W 5 \
        -F '%l' >"$E2E_TMP/$d.len" 2>"$E2E_TMP/$d.err" ||
        fail "$d: no retained assignment: $(cat "$E2E_TMP/$d.err")"
    [ "$(cat "$E2E_TMP/$d.len")" -gt 0 ] || fail "$d: an empty assignment"
done
ok "every table has its assignment on the broker"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit $?: $(tail -n 5 "$E2E_TMP/hub.log")"
line=$(grep -E '^info: publishes: [0-9]+ sent, at most [0-9]+ awaiting' "$E2E_TMP/hub.log" | tail -n 1)
[ -n "$line" ] || fail "the hub did not log its publishes: $(tail -n 5 "$E2E_TMP/hub.log")"
sent=$(sed -E 's/^info: publishes: ([0-9]+) sent.*/\1/' <<<"$line")
most=$(sed -E 's/.*at most ([0-9]+) awaiting.*/\1/' <<<"$line")
[ "$sent" -gt $((3 * N_DEV)) ] || fail "only $sent publishes: $line"
[ "$most" -ge 1 ] && [ "$most" -le "$WINDOW_MOST" ] ||
    fail "$most publishes awaited their acknowledgement at once (window $WINDOW_MOST): $line"
ok "$sent publishes, at most $most awaiting their acknowledgement at once"
e2e_done
