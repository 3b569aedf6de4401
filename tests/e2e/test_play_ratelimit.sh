#!/usr/bin/env bash
# test_play_ratelimit.sh - issue 20, trust at the edge: sign-in codes are
# 8 characters of 31 and mosquitto 2.0 does not limit failed logins, so
# gen-config.sh --table-ws-port writes play-ratelimit.nft: at most 30 new
# connections a minute per source address to the table-page listener,
# bursts of 60.  In a network namespace of its own (unshare -n: the
# machine's rules are not touched) the ruleset is loaded with nft and the
# real venue broker started on the generated mosquitto.conf; then from
# 127.0.0.1, 90 new TCP connections to the table-page listener at once:
# the first 60 (the burst) are accepted, then one per 2 s at most (30 a
# minute), the others dropped; from
# another address (127.0.0.2) a connection is still accepted; the MQTT
# listener of the tables is not limited.
#
# Skips (exit 77) without nft (deploy/install-deps.sh) or when network
# namespaces are not allowed here.
#
# usage: bash test_play_ratelimit.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
command -v nft >/dev/null || skip "no nft (deploy/install-deps.sh: nftables)"
unshare -n true 2>/dev/null || skip "no network namespace allowed here (unshare -n)"
OUT=$E2E_TMP/gen
port_reserve TWS MP # (in a network namespace of its own: for form)
bash "$E2E_SRC/deploy/broker/gen-config.sh" --organisers o1 --tables 2 --bind 127.0.0.1 --port "$MP" \
    --table-ws-port "$TWS" --no-ws --run-as "$(id -un)" "$OUT" >"$E2E_TMP/gen.out" 2>&1 ||
    fail "gen-config.sh: $(cat "$E2E_TMP/gen.out")"
[ -s "$OUT/play-ratelimit.nft" ] || fail "gen-config.sh --table-ws-port wrote no play-ratelimit.nft: $(ls "$OUT")"
grep -q "tcp dport $TWS ct state new" "$OUT/play-ratelimit.nft" || fail "play-ratelimit.nft names another port: $(cat "$OUT/play-ratelimit.nft")"
ok "gen-config.sh --table-ws-port $TWS: play-ratelimit.nft for that port"

cat >"$E2E_TMP/ns.sh" <<NS
set -e
ip link set lo up
ip addr add 127.0.0.2/8 dev lo 2>/dev/null || true
nft -f '$OUT/play-ratelimit.nft'
nft -f '$OUT/play-ratelimit.nft'   # loaded twice: it replaces its own table
mosquitto -c '$OUT/mosquitto.conf' >'$E2E_TMP/mosquitto.log' 2>&1 &
pid=\$!
for i in \$(seq 1 50); do
    python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' $MP 2>/dev/null && break
    sleep 0.1
done
python3 - $TWS $MP <<'PY'
import socket, sys
tws, mp = int(sys.argv[1]), int(sys.argv[2])
def tries(port, n, src="127.0.0.1"):
    ok = 0
    for _ in range(n):
        s = socket.socket()
        s.settimeout(0.3)
        s.bind((src, 0))
        try:
            s.connect(("127.0.0.1", port))
            ok += 1
        except OSError:
            pass
        s.close()
    return ok
import time
t0 = time.monotonic()
n = tries(tws, 90)
print("play", n, int(time.monotonic() - t0) + 1)
print("other", tries(tws, 1, "127.0.0.2"))
print("mqtt", tries(mp, 90))
PY
kill \$pid
NS
unshare -n bash "$E2E_TMP/ns.sh" >"$E2E_TMP/ns.out" 2>&1 || fail "in the namespace: $(cat "$E2E_TMP/ns.out") $(cat "$E2E_TMP/mosquitto.log" 2>/dev/null)"
read -r play secs < <(sed -n 's/^play //p' "$E2E_TMP/ns.out")
other=$(sed -n 's/^other //p' "$E2E_TMP/ns.out")
mqtt=$(sed -n 's/^mqtt //p' "$E2E_TMP/ns.out")
# The burst, and what 30 a minute adds over the seconds the tries took.
[ -n "$play" ] && [ "$play" -ge 60 ] && [ "$play" -le $((60 + secs / 2 + 1)) ] ||
    fail "table-page listener: $play of 90 connections accepted from one address in $secs s, expected the burst of 60 and one per 2 s: $(cat "$E2E_TMP/ns.out")"
[ "$other" = 1 ] || fail "another address refused once the first was limited: $(cat "$E2E_TMP/ns.out")"
[ "$mqtt" = 90 ] || fail "the tables' MQTT listener limited too: $mqtt of 90: $(cat "$E2E_TMP/ns.out")"
ok "play-ratelimit.nft: $play of 90 new connections (in $secs s) from one address accepted (the burst), another address still served, the tables' listener not limited"
e2e_done
