#!/usr/bin/env bash
# test_table_netns.sh - two headless tourney-table devices in their own
# network namespace lose their network mid-round, as a table whose cable
# is pulled, while broker, hub and organiser stay up outside:
# - the namespace reaches the host only through a private veth pair
#   (10.213.X.0/30); the venue broker listens ONLY on the host end of it,
#   and hub and organiser reach it there over loopback.  Nothing else on
#   the machine carries the test's traffic;
# - round 1 of a Neuroshima Hex! event is paired, published and its clock
#   started: both tables show their assignment and a running clock;
# - the link goes down (ip link set HOST_END down): both tables show
#   "net offline queued=0"; the players enter and confirm results: each
#   table shows "result pending" and "net offline queued=1", and the hub
#   has no result yet;
# - offline, the round clock keeps counting: two `status` 2 s apart show
#   remaining_ms smaller by about 2 s; once a table's result is entered
#   its clock stands ("stopped": a finished table's clock stops);
# - the link comes back: each table shows "ack accepted" for its key
#   exactly once, "state done", queue 0, and no rejected or conflict
#   answer; the hub's export has exactly one result per table, the one
#   entered at it.
#
# Needs root and `ip netns`; without them it prints "SKIP: ..." and exits
# 77 (ctest SKIP_RETURN_CODE).  CI runs as root.
#
# usage: bash test_table_netns.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}

skip() {
    echo "SKIP: $(basename -- "$0" .sh): $*"
    exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root (ip netns, veth)"
command -v ip >/dev/null || skip "no ip command (Debian package iproute2)"

e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
# --- the namespace and the veth pair ---------------------------------------
NS=tny-e2e-$$
VH=tnyh$$ # host end (interface names: at most 15 characters)
VN=tnyn$$ # namespace end
NET_UP=0
netns_cleanup() {
    [ "$NET_UP" = 1 ] || return 0
    ip link del "$VH" 2>/dev/null
    ip netns del "$NS" 2>/dev/null
}
trap 'ns_rc=$?; netns_cleanup; (exit $ns_rc); e2e_cleanup' EXIT
ip netns add "$NS" 2>"$E2E_TMP/ns.err" || skip "ip netns add failed: $(cat "$E2E_TMP/ns.err")"
NET_UP=1
x=$(($$ % 250))
for ((i = 0; i < 250; i++)); do
    ip -4 addr show | grep -q " 10\.213\.$x\." || break
    x=$(((x + 1) % 250))
done
NET=10.213.$x
{
    ip link add "$VH" type veth peer name "$VN" &&
        ip link set "$VN" netns "$NS" &&
        ip addr add "$NET.1/30" dev "$VH" &&
        ip link set "$VH" up &&
        ip -n "$NS" link set lo up &&
        ip -n "$NS" addr add "$NET.2/30" dev "$VN" &&
        ip -n "$NS" link set "$VN" up
} 2>"$E2E_TMP/ns.err" || fail "veth setup: $(cat "$E2E_TMP/ns.err")"
ok "namespace $NS: $VN $NET.2 <-> host $VH $NET.1"

BROKER_HOST=$NET.1
hl_hub 2
ns_reaches_broker() {
    ip netns exec "$NS" bash -c "exec 3<>/dev/tcp/$NET.1/$BROKER_PORT" 2>/dev/null
}
wait_until 10 ns_reaches_broker || fail "the namespace does not reach $NET.1:$BROKER_PORT"
for d in table-001 table-002; do
    hl_conf "$d"
    hl_start "$d" ip netns exec "$NS" "$TABLE"
done
for d in table-001 table-002; do
    hl_expect "$d" "net online queued=0"
done
ip netns exec "$NS" ss -tn state established | grep -q "$NET.1:$BROKER_PORT" ||
    fail "the tables' connections are not on the veth pair"
ok "broker on $NET.1:$BROKER_PORT only; hub outside; tables online from inside the namespace"

EV=ns
hl_nh_round "$EV" 11 table-001 table-002
live 0 clock start "$EV"
declare -A SEATS=()
for t in 1 2; do
    d=table-00$t
    hl_assigned "$d" "$EV" "$t"
    SEATS[$d]=$HL_SEATS
    wait_until 30 grep -q '^clock remaining_ms=[0-9]* state=running$' "$E2E_TMP/$d.out" ||
        fail "no running clock on $d; $(hl_tail "$d")"
done
ok "round 1 published, clock running: table 1 ${SEATS[table-001]}, table 2 ${SEATS[table-002]}"

# --- the link goes down ------------------------------------------------------
for d in table-001 table-002; do hl_mark "$d"; done
ip link set "$VH" down || fail "ip link set $VH down"
for d in table-001 table-002; do
    hl_expect_new "$d" "net offline queued=0" 20
done
ok "link down: both tables offline"

# remaining_ms D: REM = remaining_ms of the clock line of a fresh
# `status` of device D (empty unless running); the status block is new.
remaining_ms() {
    hl_say "$1" status
    hl_expect_new "$1" "status end" 10
    REM=$(tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" |
        sed -n 's/^clock remaining_ms=\([0-9]*\) state=running$/\1/p' | tail -n 1)
}
remaining_ms table-001
r1=$REM
s1=$(date +%s%N)
sleep 2
remaining_ms table-001
r2=$REM
s2=$(date +%s%N)
[ -n "$r1" ] && [ -n "$r2" ] || fail "no running clock in status; $(hl_tail table-001)"
el=$(((s2 - s1) / 1000000))
d=$((r1 - r2))
[ "$d" -ge $((el - 300)) ] && [ "$d" -le $((el + 300)) ] && [ "$r2" -gt 0 ] ||
    fail "offline clock: remaining $r1 then $r2 ms, $el ms apart"
ok "offline, the clock counts: remaining $r1 -> $r2 ms over $el ms"

declare -A KEY=() WINNER=()
for d in table-001 table-002; do
    w=${SEATS[$d]%%,*}
    l=${SEATS[$d]#*,}
    WINNER[$d]=$w
    hl_say "$d" "result winner=$w hq_diff=4" "confirm $w" "confirm $l"
    hl_expect_new "$d" "state submitted"
    hl_expect_new "$d" "net offline queued=1"
    KEY[$d]=$(hl_last "$d" 's/^result pending key=//p')
    [ -n "${KEY[$d]}" ] || fail "$d: no result pending line"
done
live 0 export "$EV"
[ "$(grep -c '"result":' "$E2E_TMP/out")" -eq 0 ] ||
    fail "the hub has a result although the tables are cut off"
ok "results entered offline are queued (${KEY[table-001]}, ${KEY[table-002]}); the hub has none"

# A finished table's clock stands (issue 8): after its result was
# entered, two `status` 2 s apart show the same remaining time, "stopped".
stopped_ms() {
    hl_say "$1" status
    hl_expect_new "$1" "status end" 10
    REM=$(tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" |
        sed -n 's/^clock remaining_ms=\([0-9]*\) state=running stopped$/\1/p' | tail -n 1)
}
stopped_ms table-001
r1=$REM
sleep 2
stopped_ms table-001
r2=$REM
[ -n "$r1" ] && [ "$r1" = "$r2" ] ||
    fail "finished table's clock: '$r1' then '$r2' (expected equal, stopped); $(hl_tail table-001)"
hl_new_has table-001 "submission key=${KEY[table-001]} status=sent event=$EV round=1 table=1" ||
    fail "status does not list the pending submission; $(hl_tail table-001)"
ok "finished offline: the table's clock stands at $r1 ms"

# --- the link comes back -----------------------------------------------------
ip link set "$VH" up || fail "ip link set $VH up"
for d in table-001 table-002; do
    hl_expect_new "$d" "ack accepted key=${KEY[$d]}" 60
    hl_expect_new "$d" "state done"
    hl_expect_new "$d" "net online queued=0"
done
sleep 1 # a late resend's answer would show now
n_dup=0
for d in table-001 table-002; do
    n=$(grep -c -x -F "ack accepted key=${KEY[$d]}" "$E2E_TMP/$d.out")
    [ "$n" -eq 1 ] || fail "$d: $n \"ack accepted\" lines for ${KEY[$d]}"
    bad=$(grep -E '^ack (rejected|conflict|pending_confirmation) ' "$E2E_TMP/$d.out")
    [ -z "$bad" ] || fail "$d: unexpected answers: $(printf '%s' "$bad" | tr '\n' '|')"
    n_dup=$((n_dup + $(grep -c "^ack duplicate key=" "$E2E_TMP/$d.out")))
done
live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.json"
n=$(grep -c '"result":' "$E2E_TMP/export.json")
[ "$n" -eq 2 ] || fail "the export has $n results, expected 2 (one per table)"
flat=$(tr -d ' \n' <"$E2E_TMP/export.json")
for t in 1 2; do
    d=table-00$t
    grep -q "\"table\":$t,\"players\":\[[^]]*\],\"result\":{\"winner\":\"${WINNER[$d]}\",\"hq_diff\":4}" <<<"$flat" ||
        fail "table $t's result in the export is not the one entered (winner ${WINNER[$d]}): $(head -c 800 "$E2E_TMP/export.json")"
done
live 0 round close "$EV"
ok "link up: each result accepted once ($n_dup duplicate answers to resends), one result per table at the hub"

for d in table-001 table-002; do hl_quit "$d"; done
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
