#!/usr/bin/env bash
# bench_feed.sh - the public feed at the scale of a hall: N WebSocket
# clients (default 2,000 phones doing what the player page does once its
# player is chosen: its topics, QoS and options from deploy/overlays/pages.js,
# bench/feed_clients.js) on the feed broker while a 2,000-player Catan
# event (500 tables) is published and its 500 results are entered.  Not
# a test of speed: it prints numbers and how they compare with the goal
# (1 s from publish to the last phone having its table), and exits 0
# only when every figure was measured.
#
# Measures, against a real venue broker, feed broker (bridged) and hub on
# this machine (tests/e2e/lib.sh, live_hub.sh), and fails (exit 1) when
# it did not measure what it says (issue 17 item 5): every table's result
# entered and acknowledged, every phone had its table and saw it
# confirmed, no empty figure.
# - publish: `tourney live round publish` issued -> every phone has its
#   table (player/ID of the round; the last one, the median), and the
#   console's own round trip (`event list`) for comparison;
# - results: for every table, the organiser's `result enter` issued ->
#   the last of its phones saw it confirmed (table/N), in two legs: to the
#   hub's table/N on the venue broker (the console's own start and round
#   trip included), then to the phones;
# - the size of each retained document at 500 tables;
# - what the feed broker carried: the messages and bytes the hub
#   published on the event's feed (a monitor on the venue broker) and the
#   messages and bytes that left the feed broker for the phones, over the
#   publish and over the results;
# - CPU (utime + stime, /proc) of the hub, of the feed broker (its system
#   time apart), of its WebSocket front (deploy/broker/feed-front.js, where
#   the phones connect) and of the node process simulating the phones, over the
#   publish and over the results; the hub's CPU per result beyond its idle
#   CPU (each thread's scheduler count, /proc/PID/task/*/schedstat; idle:
#   as long a wall time after the last phone's confirmation).
#
# With --callgrind the hub runs under valgrind's callgrind, its counters
# zeroed before the first result and dumped after the last: it prints the
# hub's instructions per result (all its threads: the loop, the store's,
# the feed builder), the figure that does not depend on the machine's load.
#
# usage: bench/bench_feed.sh [--build=DIR] [--phones=N] [--players=N]
#                            [--results=N] [--callgrind] [--piece-kb=N]
#                            [--overlays=DIR]
# (--piece-kb=N: the hub's feed_piece_kb, the players' documents a feed
# build writes: at the publish they then go out in pieces of N kB)
# (--clients=N is --phones=N; --results=N: the first N tables' results;
# --overlays=DIR: the pages whose player page the phones do, default
# deploy/overlays: another copy compares a change of the page)
set -u -o pipefail
here=$(cd "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$src/build
clients=2000
players=2000
results=0
callgrind=false
piece_kb=
OVL=$src/deploy/overlays
for arg in "$@"; do
    case $arg in
    --build=*) build=${arg#--build=} ;;
    --clients=* | --phones=*) clients=${arg#--*=} ;;
    --players=*) players=${arg#--players=} ;;
    --results=*) results=${arg#--results=} ;;
    --callgrind) callgrind=true ;;
    --piece-kb=*) piece_kb=${arg#--piece-kb=} ;;
    --overlays=*) OVL=${arg#--overlays=} ;;
    *) echo "usage: $0 [--build=DIR] [--phones=N] [--players=N] [--results=N] [--callgrind] [--piece-kb=N] [--overlays=DIR]" >&2; exit 2 ;;
    esac
done
build=$(cd "$build" && pwd) || exit 2
OVL=$(cd "$OVL" && pwd) || exit 2
[ -f "$OVL/node_modules/mqtt/package.json" ] || { echo "run deploy/overlays/install.sh first" >&2; exit 2; }

E2E_TIMEOUT=1200
source "$src/tests/e2e/lib.sh"
E2E_NAME=bench_feed
e2e_init "$src" "$build"
source "$src/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
start_broker --tables 1 --organisers o1
source "$src/tests/e2e/live_hub.sh"
if [ -n "$piece_kb" ]; then
    live_hub_config 'feed = true' "feed_piece_kb = $piece_kb"
else
    live_hub_config 'feed = true'
fi
if $callgrind; then
    command -v valgrind >/dev/null || fail "--callgrind: no valgrind"
    printf '#!/bin/bash\nexec valgrind --tool=callgrind --callgrind-out-file=%q %q "$@"\n' \
        "$E2E_TMP/hub.cg" "$HUB" >"$E2E_TMP/hub-cg.sh"
    chmod +x "$E2E_TMP/hub-cg.sh"
    HUB=$E2E_TMP/hub-cg.sh
    # the console waits for a hub 20-50 times slower (live's own limit: 90 s)
    echo 'timeout = 85' >>"$XDG_CONFIG_HOME/tourney/console.conf"
fi
hub_launch
live 0 wait-hub --timeout 120

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # clock ticks
# cpu_ns PID: the process's CPU so far in ns, every thread (the
# scheduler's own count: /proc's ticks are 10 ms, too coarse for 2 ms a
# result)
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { if (NR) printf "%.0f", s }'; }
sys() { awk '{ print $15 }' "/proc/$1/stat"; }
tck=$(getconf CLK_TCK)
now_ms() { date +%s%3N; }

EV=scale
live 0 event create "$EV" --format catan --title 'Scale Open' --seed 9
{
    echo 'id,name,club'
    for ((i = 1; i <= players; i++)); do echo "p$i,Player Number $i,Club $((i % 50))"; done
} >"$E2E_TMP/p.csv"
live 0 players import "$EV" "$E2E_TMP/p.csv"
timeout 300 "$TOURNEY" live round pair "$EV" >"$E2E_TMP/pairs" 2>"$E2E_TMP/err" || fail "pair: $(cat "$E2E_TMP/err")"
# The round's tables as "TABLE ID1 ID2 ID3 ID4" (the reply's JSON: the
# text form prints names, which have spaces).
live 0 round show "$EV" --json
jq -r '.tables[] | select(.table != null) | "\(.table) \(.players | join(" "))"' \
    "$E2E_TMP/out" >"$E2E_TMP/pairs" || fail "round show --json: $(head -c 300 "$E2E_TMP/out")"
n_tables=$(wc -l <"$E2E_TMP/pairs")
[ "$n_tables" -gt 0 ] || fail "no table in round 1: $(head -c 300 "$E2E_TMP/out")"
# need NAME VALUE: fails on an empty figure (nothing measured).
need() {
    [ -n "$2" ] || fail "no figure for $1: nothing was measured"
}

# What the hub publishes on the event's feed (what the bridge brings the
# feed broker): one line "SECONDS BYTES TOPIC" per message.
auth_args watch
stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 "${AUTH[@]}" \
    -t "tourney/v1/feed/$EV/#" -F '%U %l %t' >"$E2E_TMP/hubfeed" 2>"$E2E_TMP/hubfeed.err" </dev/null &
e2e_track $!
# in_window T0_MS T1_MS: "MESSAGES BYTES" the hub published in [T0, T1]
in_window() {
    awk -v a="$1" -v b="$2" '{ t = $1 * 1000 } t >= a && t <= b { n++; s += $2 } END { printf "%d %d", n, s }' "$E2E_TMP/hubfeed"
}
# mark NAME: the phones' messages and bytes since the last mark
mark() {
    echo "MARK $1" >&9
    wait_until 10 grep -q "^M $1 " "$E2E_TMP/obs" || fail "mark $1: no answer from the clients"
    awk -v k="$1" '$1 == "M" && $2 == k { printf "%d %d", $3, $4 }' "$E2E_TMP/obs"
}
kb() { awk -v b="$1" 'BEGIN { printf "%.0f kB", b / 1024 }'; }

mkfifo "$E2E_TMP/ctl"
node "$here/feed_clients.js" --overlays "$OVL" --broker "ws://$BROKER_HOST:$BROKER_WS_PORT" --event "$EV" \
    --n "$clients" --out "$E2E_TMP/obs" <"$E2E_TMP/ctl" >"$E2E_TMP/clients.out" 2>&1 &
NODE=$!
e2e_track "$NODE"
exec 9>"$E2E_TMP/ctl"
t0=$(now_ms)
wait_until 300 grep -q READY "$E2E_TMP/clients.out" || fail "clients: $(tail -n 5 "$E2E_TMP/clients.out")"
echo "connected $clients clients in $(($(now_ms) - t0)) ms"
mark connect >/dev/null

t_rt=$(now_ms)
live 0 event list
echo "console round trip (event list): $(($(now_ms) - t_rt)) ms"
hub0=$(cpu "$HUB_PID") feed0=$(cpu "$FEED_PID") fsys0=$(sys "$FEED_PID") node0=$(cpu "$NODE") fr0=$(cpu "$FRONT_PID")
t_pub=$(now_ms)
live 0 round publish "$EV"
wait_for 60 "[ \$(grep -c '^P 1 ' '$E2E_TMP/obs') -ge $clients ]" ||
    fail "only $(grep -c '^P 1 ' "$E2E_TMP/obs") of $clients phones got their table within 60 s"
hub1=$(cpu "$HUB_PID") feed1=$(cpu "$FEED_PID") fsys1=$(sys "$FEED_PID") node1=$(cpu "$NODE") fr1=$(cpu "$FRONT_PID")
awk -v t="$t_pub" '$1 == "P" && $2 == 1 { print $3 - t }' "$E2E_TMP/obs" | sort -n >"$E2E_TMP/lat.pub"
pub_med=$(awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }' "$E2E_TMP/lat.pub")
pub_last=$(tail -n 1 "$E2E_TMP/lat.pub")
need "publish median" "$pub_med"
need "publish last" "$pub_last"
echo "publish of $n_tables tables -> $(wc -l <"$E2E_TMP/lat.pub") phones have their table: median $pub_med ms, last $pub_last ms (goal <= 1000 ms)"
echo "  CPU during publish: hub $(((hub1 - hub0) * 1000 / tck)) ms, feed broker $(((feed1 - feed0) * 1000 / tck)) ms (system $(((fsys1 - fsys0) * 1000 / tck)) ms), the front $(((fr1 - fr0) * 1000 / tck)) ms, the phones' node $(((node1 - node0) * 1000 / tck)) ms; load $(cut -d ' ' -f 1-3 /proc/loadavg)"
# what the publish carried: until every phone had its table and 1 s more
# (the tables' and the round's documents go out after the players')
sleep 1
t_pub_end=$(now_ms)
read -r ph_msgs ph_bytes <<<"$(mark publish)"
read -r in_msgs in_bytes <<<"$(in_window "$t_pub" "$t_pub_end")"
[ "${in_msgs:-0}" -gt 0 ] || fail "the monitor saw no feed message of the publish: $(cat "$E2E_TMP/hubfeed.err")"
echo "  the hub published $in_msgs messages ($(kb "$in_bytes")) on the feed; $ph_msgs messages ($(kb "$ph_bytes")) left the feed broker for the $clients phones"
# (with mosquitto 2.0's own WebSocket listener, its clients were polled,
# every client's socket, once per packet its loop read, here the
# bridge's: its CPU grew with the messages in times the clients; README,
# Benchmarks, issue 17)
echo "  feed broker CPU per message in per phone: $(awk -v c="$(((feed1 - feed0) * 1000 / tck))" -v m="$in_msgs" -v n="$clients" 'BEGIN { printf "%.0f ns", c * 1e6 / m / n }')"
live 0 clock start "$EV"

# the results: the first seat 10 VP, the others 5, 4, 3
[ "$results" -gt 0 ] && [ "$results" -lt "$n_tables" ] || results=$n_tables
head -n "$results" "$E2E_TMP/pairs" >"$E2E_TMP/to_enter"
$callgrind && { callgrind_control -z "$HUB_PID" >/dev/null || fail "callgrind_control -z"; }
sleep 1 # the clock start rewrites every table/N: not the results' messages
mark clock >/dev/null
hub0=$(cpu "$HUB_PID") feed0=$(cpu "$FEED_PID") fsys0=$(sys "$FEED_PID") node0=$(cpu "$NODE") hubns0=$(cpu_ns "$HUB_PID") fr0=$(cpu "$FRONT_PID")
t_res=$(now_ms)
: >"$E2E_TMP/entered"
while read -r t a b c d; do
    [ -n "$d" ] || fail "table $t has not four players: $a $b $c"
    ts=$(now_ms)
    # exit 0 is the hub's acknowledgement (live fails the bench otherwise)
    live 0 result enter "$EV" 1 "$t" "{\"vp\": {\"$a\": 10, \"$b\": 5, \"$c\": 4, \"$d\": 3}}"
    echo "$t $ts" >>"$E2E_TMP/entered"
done <"$E2E_TMP/to_enter"
t_res_end=$(now_ms)
n_entered=$(wc -l <"$E2E_TMP/entered")
[ "$n_entered" -eq "$results" ] || fail "$n_entered results acknowledged for $results tables"
# every phone of an entered table sees it confirmed
want=$(awk 'NR == FNR { t[$1] = 1; next } $1 == "S" && ($2 in t)' "$E2E_TMP/entered" "$E2E_TMP/obs" | wc -l)
[ "$results" -lt "$n_tables" ] || want=$clients
wait_for 60 "[ \$(grep -c '^C ' '$E2E_TMP/obs') -ge $want ]" ||
    fail "only $(grep -c '^C ' "$E2E_TMP/obs") of $want phones saw their table confirmed within 60 s"
hub1=$(cpu "$HUB_PID") feed1=$(cpu "$FEED_PID") fsys1=$(sys "$FEED_PID") node1=$(cpu "$NODE") hubns1=$(cpu_ns "$HUB_PID") fr1=$(cpu "$FRONT_PID")
t_conf=$(now_ms)
t_res_seen=$t_conf
read -r ph_msgs ph_bytes <<<"$(mark results)"
# The hub's idle CPU (phones connected, feed on, nothing entered) over
# as long a wall time as the results took, subtracted from theirs.
sleep "$(awk -v ms="$((t_conf - t_res))" 'BEGIN { printf "%.3f", ms / 1000 }')"
hubns2=$(cpu_ns "$HUB_PID")
t_idle=$(now_ms)
need "hub CPU (ns)" "$hubns0"
need "hub CPU (ns) after" "$hubns2"
per_res=$(awk -v a="$hubns0" -v b="$hubns1" -v c="$hubns2" -v w="$((t_conf - t_res))" -v wi="$((t_idle - t_conf))" -v n="$n_entered" \
    'BEGIN { idle = (c - b) / wi * w; printf "%.2f %.0f %.0f", (b - a - idle) / n / 1e6, (b - a) / 1e6, (c - b) / 1e6 }')
need "hub CPU per result" "$per_res"
if $callgrind; then
    callgrind_control -d "$HUB_PID" >/dev/null || fail "callgrind_control -d"
    ir=$(cat "$E2E_TMP"/hub.cg.* 2>/dev/null | awk '/^summary:/ { s += $2 } END { if (NR) printf "%.0f", s }')
    need "hub instructions (callgrind)" "$ir"
    per=$(awk -v i="$ir" -v n="$n_entered" 'BEGIN { printf "%.1f", i / n / 1e6 }') || fail "instructions per result"
    echo "hub instructions per result (callgrind, all threads): $per M ($ir over $n_entered results)"
fi
awk 'NR == FNR { e[$1] = $2; next } $1 == "C" && ($2 in e) { d = $3 - e[$2]; if (!($2 in m) || d > m[$2]) m[$2] = d } END { for (t in m) print m[t] }' \
    "$E2E_TMP/entered" "$E2E_TMP/obs" | sort -n >"$E2E_TMP/lat.res"
# the two legs of each: issued -> the hub's table/N on the venue broker
# (the console's start, connection and request, the commit, the feed
# build; the monitor's first table/N at or after the command), and that
# -> the last of the table's phones (bridge, feed broker, WebSocket)
awk -v ev="tourney/v1/feed/$EV/table/" '
    FILENAME ~ /entered$/ { e[$1] = $2; next }
    FILENAME ~ /hubfeed$/ { if (index($3, ev) == 1) { t = substr($3, length(ev) + 1); ms = $1 * 1000
                              if ((t in e) && ms >= e[t] && !(t in h)) h[t] = ms }; next }
    $1 == "C" && ($2 in e) { if (!($2 in m) || $3 > m[$2]) m[$2] = $3 }
    END { for (t in m) if (t in h) printf "%.0f %.0f\n", h[t] - e[t], m[t] - h[t] }' \
    "$E2E_TMP/entered" "$E2E_TMP/hubfeed" "$E2E_TMP/obs" >"$E2E_TMP/lat.legs"
res_med=$(awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }' "$E2E_TMP/lat.res")
res_max=$(tail -n 1 "$E2E_TMP/lat.res")
hub_med=$(cut -d ' ' -f 1 "$E2E_TMP/lat.legs" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
hub_max=$(cut -d ' ' -f 1 "$E2E_TMP/lat.legs" | sort -n | tail -n 1)
fan_med=$(cut -d ' ' -f 2 "$E2E_TMP/lat.legs" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
fan_max=$(cut -d ' ' -f 2 "$E2E_TMP/lat.legs" | sort -n | tail -n 1)
[ "$(wc -l <"$E2E_TMP/lat.legs")" -eq "$(wc -l <"$E2E_TMP/lat.res")" ] ||
    fail "the monitor saw the table/N of $(wc -l <"$E2E_TMP/lat.legs") of $(wc -l <"$E2E_TMP/lat.res") tables"
need "result -> hub median" "$hub_med"
need "result -> hub max" "$hub_max"
need "hub -> phones median" "$fan_med"
need "hub -> phones max" "$fan_max"
need "result median" "$res_med"
need "result max" "$res_max"
echo "$n_entered results entered and acknowledged in $((t_res_end - t_res)) ms; result command issued (the console's round trip included) -> the last of its table's phones: median $res_med ms, max $res_max ms (over $(wc -l <"$E2E_TMP/lat.res") tables with a phone; goal <= 500 ms)"
echo "  legs: command issued -> the hub's table/N on the venue broker median $hub_med ms, max $hub_max ms; -> the last of its phones median $fan_med ms, max $fan_max ms"
read -r per_ms run_ms idle_ms <<<"$per_res"
echo "  hub CPU per result: $per_ms ms beyond idle (goal <= 2 ms; $run_ms ms from the first result entered to the last phone's confirmation over $((t_conf - t_res)) ms, idle $idle_ms ms over $((t_idle - t_conf)) ms; load $(cut -d ' ' -f 1-3 /proc/loadavg))"
echo "  CPU during the results: hub $(((hub1 - hub0) * 1000 / tck)) ms, feed broker $(((feed1 - feed0) * 1000 / tck)) ms (system $(((fsys1 - fsys0) * 1000 / tck)) ms), the front $(((fr1 - fr0) * 1000 / tck)) ms, the phones' node $(((node1 - node0) * 1000 / tck)) ms over $((t_res_seen - t_res)) ms"
read -r in_msgs in_bytes <<<"$(in_window "$t_res" "$t_res_seen")"
echo "  the hub published $in_msgs messages ($(kb "$in_bytes")) on the feed; $ph_msgs messages ($(kb "$ph_bytes")) left the feed broker for the phones"
echo "retained document sizes (bytes, last seen):"
awk '$1 == "B" { s[$2] = $3 } END { for (k in s) print "  " k, s[k] }' "$E2E_TMP/obs" | sort
exec 9>&-
wait "$NODE"
e2e_done
