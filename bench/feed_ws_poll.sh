#!/usr/bin/env bash
# feed_ws_poll.sh - what one message costs the feed broker per WebSocket
# client, without the hub (README, Benchmarks, issue 17): a mosquitto with
# a WebSocket listener (as feed.conf had before its front) and a TCP
# one, N idle WebSocket clients (node, deploy/overlays' `mqtt`; each
# holds a topic of its own), then K messages published over TCP to a topic nobody holds.  Prints the
# broker's CPU (user, system) over the K messages: with mosquitto 2.0's
# libwebsockets it grows with K x N (every WebSocket client's socket is
# polled once per packet the broker reads) though no client receives
# anything.  Exits 1 when it measured nothing (a client or the broker
# missing).
#
# With --front the clients connect through deploy/broker/feed-front.js
# (WebSocket to the broker's local socket listener, as the hall's feed
# runs since issue 17) and the broker has no WebSocket listener: its CPU
# and the front's are printed.
#
# usage: bench/feed_ws_poll.sh [--clients=N] [--messages=K] [--front]
set -u -o pipefail
here=$(cd "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"
OVL=$(cd "$here/../deploy/overlays" && pwd)
n=2000
k=3000
front=false
bench_args "[--clients=N] [--messages=K] [--front]" clients=n messages=k front -- "$@"
bench_need_overlays "$OVL"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/feed_ws_poll.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
bench_traps cleanup
fail() { echo "feed_ws_poll: $*" >&2; exit 1; }
port_reserve tcp ws
# (user: the login running this, so mosquitto changes no credentials,
# which would clear the parent-death signal of BENCH_TIED)
cat >"$tmp/m.conf" <<EOF
user $(id -un)
persistence false
log_dest stderr
log_type error
set_tcp_nodelay true
max_queued_messages 50000
max_inflight_messages 1000
listener $tcp 127.0.0.1
allow_anonymous true
EOF
if $front; then
    printf 'listener 0 %s\nallow_anonymous true\n' "$tmp/feed.sock" >>"$tmp/m.conf"
    printf '{"address": "127.0.0.1", "port": %d, "broker_socket": "%s", "http_dir": null}\n' "$ws" "$tmp/feed.sock" >"$tmp/front.json"
else
    printf 'listener %s 127.0.0.1\nprotocol websockets\nsocket_domain ipv4\nallow_anonymous true\n' "$ws" >>"$tmp/m.conf"
fi
"${BENCH_TIED[@]}" mosquitto -c "$tmp/m.conf" 2>"$tmp/broker.err" &
B=$!
pids+=("$B")
# up when the sockets listening on its ports are its own (the WebSocket
# port is the front's with --front: the broker's local socket then)
for ((i = 0; i < 100; i++)); do
    kill -0 "$B" 2>/dev/null || fail "mosquitto: $(cat "$tmp/broker.err")"
    if $front; then
        port_listener_is "$tcp" "$B" && [ -S "$tmp/feed.sock" ] && break
    else
        port_listener_is "$tcp" "$B" && port_listener_is "$ws" "$B" && break
    fi
    sleep 0.1
done
[ "$i" -lt 100 ] || fail "mosquitto does not listen on its ports $tcp and $($front && echo "$tmp/feed.sock" || echo "$ws")"
F=
if $front; then
    NODE_PATH=$OVL/node_modules "${BENCH_TIED[@]}" node "$here/../deploy/broker/feed-front.js" "$tmp/front.json" >"$tmp/front.out" 2>&1 &
    F=$!
    pids+=("$F")
    for ((s = 0; s < 100; s++)); do
        kill -0 "$F" 2>/dev/null || fail "the front: $(cat "$tmp/front.out")"
        port_listener_is "$ws" "$F" && break
        sleep 0.1
    done
    [ "$s" -lt 100 ] || fail "the front does not listen on its port $ws: $(cat "$tmp/front.out")"
fi
cat >"$tmp/idle.js" <<'EOF'
'use strict';
const mqtt = require(process.argv[2]);
const url = process.argv[3], n = +process.argv[4];
let ready = 0, i = 0;
const t = setInterval(() => {
    for (let b = 0; b < 100 && i < n; b++, i++) {
        const j = i;
        const c = mqtt.connect(url, {clientId: 'idle-' + j, clean: true, protocolVersion: 4, keepalive: 600});
        c.on('connect', () => c.subscribe('idle/' + j, {qos: 0}, () => {
            if (++ready === n)
                console.log('READY');
        }));
    }
    if (i >= n)
        clearInterval(t);
}, 100);
EOF
if [ "$n" -gt 0 ]; then
    : >"$tmp/idle.out" # (read below before node may have opened it)
    "${BENCH_TIED[@]}" node "$tmp/idle.js" "$OVL/node_modules/mqtt" "ws://127.0.0.1:$ws" "$n" >"$tmp/idle.out" 2>&1 &
    pids+=("$!")
    for ((s = 0; s < 600; s++)); do
        grep -q READY "$tmp/idle.out" && break
        sleep 0.5
    done
    grep -q READY "$tmp/idle.out" || fail "the $n clients did not connect: $(tail -n 3 "$tmp/idle.out")"
fi
sleep 1
read -r u0 s0 < <(awk '{ print $14, $15 }' "/proc/$B/stat")
[ -z "$F" ] || read -r fu0 fs0 < <(awk '{ print $14, $15 }' "/proc/$F/stat")
t0=$(date +%s%3N)
seq "$k" | mosquitto_pub -h 127.0.0.1 -p "$tcp" -q 1 -t nobody/holds/this -l || fail "mosquitto_pub"
t1=$(date +%s%3N)
read -r u1 s1 < <(awk '{ print $14, $15 }' "/proc/$B/stat")
[ -z "$F" ] || read -r fu1 fs1 < <(awk '{ print $14, $15 }' "/proc/$F/stat")
tck=$(getconf CLK_TCK)
cpu=$(((u1 - u0 + s1 - s0) * 1000 / tck))
echo "$k messages to no subscriber, $n idle WebSocket clients$($front && echo ' through the front'): feed broker CPU $cpu ms (user $(((u1 - u0) * 1000 / tck)), system $(((s1 - s0) * 1000 / tck))) over $((t1 - t0)) ms; load $(cut -d ' ' -f 1-3 /proc/loadavg)"
[ -z "$F" ] || echo "  the front's CPU: $(((fu1 - fu0 + fs1 - fs0) * 1000 / tck)) ms"
[ "$n" -eq 0 ] || echo "  per message per WebSocket client: $(awk -v c="$cpu" -v k="$k" -v n="$n" 'BEGIN { printf "%.0f ns", c * 1e6 / k / n }')"
