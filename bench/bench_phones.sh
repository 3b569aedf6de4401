#!/usr/bin/env bash
# bench_phones.sh - a round reported from phones at hall scale (issue 20,
# "Tests and figures"): 500 tables of A Game of Thrones (1,000 players),
# each with its table's sign-in code, and 1,000 simulated phones (two per
# table, bench/phone_clients.js: play.html's protocol over MQTT over
# WebSocket on the venue broker's table-page listener, in one node
# process) signing in and reporting the round: the first phone of a table
# enters the result and its player confirms, the second phone's player
# confirms there and it submits; both phones wait for "stored by the hub".
# Against a real venue broker (dynamic security, table-page listener) and
# hub on this machine (tests/e2e/lib.sh, live_hub.sh).
#
# Prints: the time to sign in 1,000 phones and give them their tables;
# p50/p99/max of entry (the first phone's draft) -> "stored by the hub"
# on the phone that submitted and on the other phone, and of submission
# -> ack; the venue broker's and the hub's CPU (utime + stime from
# /proc/PID/stat) over the sign-in and over the round.
# Exit 0 only when every phone saw its table's result stored and every
# figure was measured; non-zero otherwise.
#
# usage: bench/bench_phones.sh [--build=DIR] [--tables=N] [--spread-ms=MS]
#   --tables=N      tables (2 phones each; default 500)
#   --spread-ms=MS  the entries start at random times over MS (default
#                   10000: every table of the hall within 10 s)
set -u -o pipefail
here=$(cd "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"
src=$(cd "$here/.." && pwd)
build=$src/build
tables=500
spread=10000
bench_args "[--build=DIR] [--tables=N] [--spread-ms=MS]" build=build tables=tables spread-ms=spread -- "$@"
build=$(cd "$build" && pwd) || exit 2
OVL=$src/deploy/overlays
bench_need_overlays "$OVL" protobufjs

E2E_TIMEOUT=1800
source "$src/tests/e2e/lib.sh"
E2E_NAME=bench_phones
e2e_init "$src" "$build"
source "$src/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
# the venue broker with its table-page listener (no pages: the phones are
# node clients) and the hub provisioning the codes, as the play tests
play_broker_hub --no-ws --tables 1 --wait 60

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # clock ticks
tck=$(getconf CLK_TCK)
now_ms() { date +%s%3N; }
need() {
    [ -n "$2" ] || fail "no figure for $1: nothing was measured"
}

EV=hall
players=$((2 * tables))
live 0 event create "$EV" --format got-lcg2 --title 'Phone Hall Open' --seed 9 --options '{"swiss_rounds": 1, "cut": 0}'
{
    echo 'id,name'
    for ((i = 1; i <= players; i++)); do echo "p$i,Player Number $i"; done
} >"$E2E_TMP/p.csv"
live 0 players import "$EV" "$E2E_TMP/p.csv"
t0=$(now_ms)
: >"$E2E_TMP/codes"
for ((t = 1; t <= tables; t++)); do
    live 0 --json code issue "$EV" "$t"
    echo "$t $(jq -r .code "$E2E_TMP/out")" >>"$E2E_TMP/codes"
done
echo "issued $tables sign-in codes in $(($(now_ms) - t0)) ms (one \`tourney live code issue\` each)"
timeout 300 "$TOURNEY" live round pair "$EV" >/dev/null 2>"$E2E_TMP/err" || fail "pair: $(cat "$E2E_TMP/err")"
live 0 round publish "$EV"
live 0 clock start "$EV"

b0=$(cpu "$BROKER_PID") h0=$(cpu "$HUB_PID") t0=$(now_ms)
node "$here/phone_clients.js" --overlays "$OVL" --proto "$src/proto" --broker "ws://$BROKER_HOST:$TWS/mqtt" \
    --codes "$E2E_TMP/codes" --per-table 2 --go "$E2E_TMP/go" --spread-ms "$spread" --timeout-s 600 \
    --out "$E2E_TMP/obs.json" >"$E2E_TMP/phones.out" 2>&1 &
NODE=$!
e2e_track "$NODE"
wait_until 700 grep -q -E '^(ready|FAIL)' "$E2E_TMP/phones.out"
grep -q '^ready' "$E2E_TMP/phones.out" || fail "phones: $(tail -n 5 "$E2E_TMP/phones.out")"
b1=$(cpu "$BROKER_PID") h1=$(cpu "$HUB_PID") t1=$(now_ms)
echo "$(cat "$E2E_TMP/phones.out")"
echo "  CPU over the sign-in ($((t1 - t0)) ms): venue broker $(((b1 - b0) * 1000 / tck)) ms, hub $(((h1 - h0) * 1000 / tck)) ms"

touch "$E2E_TMP/go"
wait "$NODE"
st=$?
b2=$(cpu "$BROKER_PID") h2=$(cpu "$HUB_PID") t2=$(now_ms)
tail -n 1 "$E2E_TMP/phones.out"
[ -s "$E2E_TMP/obs.json" ] || fail "phone_clients.js wrote no figures: $(tail -n 5 "$E2E_TMP/phones.out")"
[ "$st" -eq 0 ] || fail "not every result was stored: $(jq -c '{error, errors}' "$E2E_TMP/obs.json")"

# latencies in ms: entry -> the first and the last phone's "stored",
# submission -> the first ack
jq -r '.tables_detail[] | "\((.acks | min) - .entry) \((.acks | max) - .entry) \((.acks | min) - .submit)"' \
    "$E2E_TMP/obs.json" >"$E2E_TMP/lat"
[ "$(wc -l <"$E2E_TMP/lat")" -eq "$tables" ] || fail "figures for $(wc -l <"$E2E_TMP/lat") of $tables tables"
pct() { # COLUMN: p50 p99 max
    awk -v c="$1" '{ print $c }' "$E2E_TMP/lat" | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) printf "p50 %d ms, p99 %d ms, max %d ms", a[int(NR * 0.50 + 0.5)], a[int(NR * 0.99 + 0.5)], a[NR] }'
}
first=$(pct 1) last=$(pct 2) sub=$(pct 3)
need "entry -> stored" "$first"
need "entry -> stored on both" "$last"
need "submission -> ack" "$sub"
span=$(jq '.end - .start' "$E2E_TMP/obs.json")
echo "round reported by $players phones at $tables tables (entries over $spread ms; the last phone's \"stored\" $span ms after the first entry could start):"
echo "  entry -> \"stored by the hub\" on the phone that submitted: $first"
echo "  entry -> \"stored by the hub\" on both phones of the table:  $last"
echo "  submission -> ack:                                       $sub"
echo "  CPU over the round ($((t2 - t1)) ms): venue broker $(((b2 - b1) * 1000 / tck)) ms, hub $(((h2 - h1) * 1000 / tck)) ms"
echo "  venue broker peak memory: $(awk '/VmHWM/ { print $2, $3 }' "/proc/$BROKER_PID/status")"
n_acc=$(grep -c -E "^info: result accepted device=web-[0-9]+ key=[^ ]+ event=$EV " "$E2E_TMP/hub.log")
[ "$n_acc" -eq "$tables" ] || fail "the hub accepted $n_acc results, expected $tables (one per table)"
echo "  the hub accepted $n_acc results, one per table"
e2e_done
