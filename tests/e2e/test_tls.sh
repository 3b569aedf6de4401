#!/usr/bin/env bash
# test_tls.sh - the live system over TLS: deploy/broker/gen-config.sh
# --gen-tls --tls-port makes a private CA, a server certificate and a TLS
# listener next to the plain one; then
# - a plain MQTT connection to the TLS port is refused (no TLS handshake);
# - a client trusting another CA is refused (certificate verify failed),
#   and so is a table device configured with that CA: it never comes
#   online;
# - a client trusting the generated CA connects;
# - a short event (got-lcg2, 4 players, 2 Swiss rounds) runs with the hub,
#   the organiser console and 2 simulated tables all on ssl://, and the
#   broker saw each of them connect on the TLS port; the event checks of
#   live_hub.sh hold (every submission acknowledged and in the export, hub
#   standings == `tourney standings` of the export, CSVs alike).
#
# usage: bash test_tls.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"

need_binaries TOURNEY HUB TABLE
command -v openssl >/dev/null || fail "openssl not installed"
N_DEV=2
N_PLAYERS=4
N_ROUNDS=2
EV=tls

start_broker --no-ws --tables $N_DEV --organisers o1 --gen-tls --tls-port auto
TLS_PORT=$BROKER_TLS_PORT
port_listener_is "$TLS_PORT" "$BROKER_PID" || fail "no TLS listener on $TLS_PORT"
CA=$BROKER_DIR/tls/ca.crt
[ -s "$CA" ] && [ -s "$BROKER_DIR/tls/server.crt" ] || fail "gen-config.sh --gen-tls wrote no certificates"
grep -q -x "listener $TLS_PORT $BROKER_HOST" "$BROKER_DIR/mosquitto.conf" ||
    fail "mosquitto.conf has no TLS listener: $(cat "$BROKER_DIR/mosquitto.conf")"
openssl verify -CAfile "$CA" "$BROKER_DIR/tls/server.crt" >/dev/null 2>&1 ||
    fail "the server certificate does not verify against the generated CA"
ok "TLS listener on $TLS_PORT with a generated CA"

# tls_pub CAFILE|- [extra options]: publishes as o1 to the TLS port (- =
# no TLS at all); returns mosquitto_pub's status, stderr in pub.err.
tls_pub() {
    local ca=$1 tls=()
    shift
    [ "$ca" = - ] || tls=(--cafile "$ca")
    timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$TLS_PORT" -V mqttv5 -q 1 \
        -u o1 -P "$(cred o1)" -t tourney/v1/ctl/o1/req -m probe "${tls[@]}" "$@" \
        >"$E2E_TMP/pub.out" 2>"$E2E_TMP/pub.err"
}

if tls_pub -; then
    fail "a plain MQTT client was accepted on the TLS port"
fi
ok "plain MQTT on the TLS port refused: $(head -n 1 "$E2E_TMP/pub.err")"

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Other CA" \
    -keyout "$E2E_TMP/other.key" -out "$E2E_TMP/other.crt" >/dev/null 2>&1 ||
    fail "openssl could not make the other CA"
if tls_pub "$E2E_TMP/other.crt"; then
    fail "a client trusting another CA was accepted"
fi
grep -q -i "certificate\|tls\|ssl\|handshake\|protocol error" "$E2E_TMP/pub.err" ||
    fail "refused, but not for the certificate: $(cat "$E2E_TMP/pub.err")"
ok "a client with the wrong CA refused: $(head -n 1 "$E2E_TMP/pub.err")"

tls_pub "$CA" || fail "a client trusting the generated CA was refused: $(cat "$E2E_TMP/pub.err")"
ok "a client trusting the generated CA connects"

# --- the event over ssl:// ------------------------------------------------
URI="ssl://localhost:$TLS_PORT"
export XDG_CONFIG_HOME=$E2E_TMP/xdg HOME=$E2E_TMP/home
unset TOURNEY_PASSWORD
mkdir -p "$XDG_CONFIG_HOME/tourney" "$HOME"
printf '%s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
cred o1 >"$E2E_TMP/o1.pw"
cat >"$E2E_TMP/hub.conf" <<EOF
broker_uri = "$URI"
tls_ca_file = "$CA"
username = "hub"
password_file = "$E2E_TMP/hub.pw"
database = "$E2E_TMP/hub.db"
database_sync = false
keepalive_s = 5
feed = false
EOF
cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
broker = "$URI"
tls_ca = "$CA"
user = o1
password_file = "$E2E_TMP/o1.pw"
timeout = 30
EOF

# table_conf DEVICE CAFILE: a simulated table's configuration on ssl://.
table_conf() {
    cat >"$E2E_TMP/$1.conf" <<EOF
device_id = "$1"
mqtt_password = "$(cred "$1")"
broker_uri = "$URI"
tls_ca_file = "$2"
outbox = "$E2E_TMP/$1.db"
simulate = true
simulate_delay_ms = "20-150"
seed = 7
keepalive_s = 5
EOF
}
start_table() {
    "$TABLE" --config "$E2E_TMP/$1.conf" </dev/null >"$E2E_TMP/$1.out" 2>"$E2E_TMP/$1.err" &
    TABLE_PIDS[$1]=$!
    e2e_track $!
}
declare -A TABLE_PIDS=()

# A table trusting the other CA never comes online.
table_conf table-001 "$E2E_TMP/other.crt"
start_table table-001
sleep 3
if grep -q 'net online' "$E2E_TMP/table-001.out"; then
    fail "a table trusting another CA came online"
fi
kill_wait "${TABLE_PIDS[table-001]}"
rm -f "$E2E_TMP/table-001.db"
ok "a table with the wrong CA stays offline"

# The configurations above are live_hub_config's with ssl:// and the CA.
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
source "$(dirname -- "${BASH_SOURCE[0]}")/sim_tables.sh"
hub_create
hub_launch
live 0 wait-hub --timeout 20
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    table_conf "$d" "$CA"
    start_table "$d"
done
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    wait_until 15 grep -q -x 'net online queued=0' "$E2E_TMP/$d.out" ||
        fail "$d did not connect over TLS: $(tail -n 5 "$E2E_TMP/$d.err")"
done
ok "hub, console and $N_DEV tables online over ssl://"

live 0 event create "$EV" --format got-lcg2 --title "TLS" --seed 5 \
    --options '{"structure": "custom", "swiss_rounds": 2, "cut": 0}'
printf 'id,name\n' >"$E2E_TMP/players.csv"
for ((i = 1; i <= N_PLAYERS; i++)); do printf 'p%d,Player %d\n' "$i" "$i"; done >>"$E2E_TMP/players.csv"
live 0 players import "$EV" "$E2E_TMP/players.csv"
for ((i = 1; i <= N_DEV; i++)); do
    live 0 device assign "$(printf 'table-%03d' "$i")" "$EV" "$i"
done
for ((r = 1; r <= N_ROUNDS; r++)); do
    live 0 round pair "$EV"
    grep '^  table ' "$E2E_TMP/out" | awk '{ print $2 }' >"$E2E_TMP/tables.$r"
    live 0 round publish "$EV"
    live 0 clock start "$EV"
    for ((t = 1; t <= N_DEV; t++)); do
        d=$(printf 'table-%03d' "$t")
        wait_until 30 table_done "$d" "$EV" "$r" "$t" ||
            fail "round $r table $t: $d did not finish: $(tail -n 8 "$E2E_TMP/$d.out" | tr '\n' '|')"
    done
    live 0 round close "$EV"
done
check_event_complete "$N_ROUNDS rounds over TLS"

# Every participant connected on the TLS port (the plain one is open too).
for who in hub o1 table-001 table-002; do
    grep -q "on port $TLS_PORT" "$BROKER_LOG" ||
        fail "the broker log shows no connection on port $TLS_PORT"
    awk -v p="$TLS_PORT" -v u="u'$who'" '
        /New connection from/ { tls = index($0, "on port " p ".") > 0 }
        /New client connected/ && index($0, u) { if (tls) f = 1 }
        END { exit !f }' "$BROKER_LOG" ||
        fail "$who did not connect on the TLS port: $(grep -F "u'$who'" "$BROKER_LOG" | head -n 3)"
done
ok "hub, console and tables all connected on the TLS port"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
