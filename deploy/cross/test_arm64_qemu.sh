#!/usr/bin/env bash
# test_arm64_qemu.sh - the cross-built arm64 tourney-table (the binary the
# tables' Raspberry Pis run; deploy/cross/build-arm64.sh) under qemu-aarch64
# user-mode emulation, headless (docs/table-protocol.md), against a real
# local mosquitto and the real NATIVE (amd64) tourney-hub driven by
# `tourney live`, through one full round:
# - the arm64 table logs in ("net online queued=0") and the hub lists it;
# - the organiser creates a Neuroshima Hex! event, assigns the device to
#   table 1, pairs, publishes and starts the clock: the table shows the
#   assignment and a running clock;
# - the players type a result and both confirm it (line protocol): the
#   table sends it, the hub answers ACCEPTED with its key ("ack accepted",
#   "state done", queue 0);
# - the hub's export has exactly that result at table 1 of round 1;
# - "quit" exits 0.
# So the wire format, the engine's result parser and the Paho/pthread
# stack work on arm64.
#
# It does not build anything and does not test the arm64 hub.
#
# Where the arm64 build is: $TNY_ARM64_BUILD, else SOURCE_DIR/build-arm64.
# When it or qemu-aarch64 is missing the test cannot run: with
# TNY_REQUIRE_ARM64=1 (CI, deploy/test.sh) that is a failure; otherwise it
# prints "NOT RUN: ..." and exits 0, so a developer without the cross
# toolchain is not blocked (deploy/install-deps.sh --cross &&
# deploy/cross/build-arm64.sh make it run).
#
# The arm64 runtime is Debian's multiarch one (libc6:arm64 and the :arm64
# libraries, which --cross installs): qemu runs with -L / so that the
# loader /lib/ld-linux-aarch64.so.1 and libc.so.6 come from the SAME
# package.  -L /usr/aarch64-linux-gnu (the cross toolchain's libc, an
# older Debian revision) takes ld.so from there but libc.so.6 from
# /lib/aarch64-linux-gnu through ld.so.cache; that mix hangs in the first
# pthread_create at 100% CPU (the table then never connects).
#
# usage: bash test_arm64_qemu.sh SOURCE_DIR BUILD_DIR   (BUILD_DIR: native)
source "$(dirname -- "${BASH_SOURCE[0]}")/../../tests/e2e/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"

ARM_BUILD=${TNY_ARM64_BUILD:-$E2E_SRC/build-arm64}
ARM_TABLE=$ARM_BUILD/table-client/tourney-table
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/}
export QEMU_LD_PREFIX

not_run() {
    if [ "${TNY_REQUIRE_ARM64:-0}" = 1 ]; then
        fail "$* (TNY_REQUIRE_ARM64=1; run deploy/install-deps.sh --cross && deploy/cross/build-arm64.sh)"
    fi
    echo "NOT RUN: $E2E_NAME: $* -- run deploy/install-deps.sh --cross && deploy/cross/build-arm64.sh (set TNY_REQUIRE_ARM64=1 to make this a failure)"
    exit 0
}
[ -n "$QEMU" ] || not_run "qemu-aarch64 not found (Debian package qemu-user)"
[ -x "$ARM_TABLE" ] || not_run "arm64 table client $ARM_TABLE not built"
[ -e "$QEMU_LD_PREFIX/lib/ld-linux-aarch64.so.1" ] ||
    not_run "$QEMU_LD_PREFIX/lib/ld-linux-aarch64.so.1 missing (Debian package libc6:arm64)"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
machine=$(od -A n -t x1 -j 18 -N 2 "$ARM_TABLE" | tr -d ' ')
[ "$machine" = "b700" ] || fail "$ARM_TABLE is not an aarch64 ELF (e_machine $machine)"
"$QEMU" "$ARM_TABLE" --version >"$E2E_TMP/version.out" 2>&1 ||
    fail "the arm64 binary does not start under $QEMU: $(head -n 5 "$E2E_TMP/version.out")"
ok "arm64 tourney-table runs under $QEMU ($(head -n 1 "$E2E_TMP/version.out"))"

hl_hub 1
ok "native hub online"

hl_conf table-001
t0=$(date +%s%N)
hl_start table-001 "$QEMU" "$ARM_TABLE"
hl_expect table-001 "net online queued=0"
t1=$(date +%s%N)
ok "arm64 table-001 online after $(((t1 - t0) / 1000000)) ms under qemu"

EV="ev-arm"
hl_nh_round "$EV" 5 table-001
live 0 clock start "$EV"
hl_assigned table-001 "$EV" 1
seats=$HL_SEATS
[ "$seats" = "p1,p2" ] || [ "$seats" = "p2,p1" ] || fail "seats \"$seats\", expected p1 and p2"
hl_expect table-001 "state playing"
wait_until 30 grep -q '^clock remaining_ms=[0-9]* state=running$' "$E2E_TMP/table-001.out" ||
    fail "no running clock on the arm64 table; $(hl_tail table-001)"
ok "assignment (seats $seats) and the running round clock shown"

hl_say table-001 "result winner=p2 hq_diff=6" "confirm p1" "confirm p2"
hl_expect_new table-001 "state submitted"
key=$(hl_last table-001 's/^result pending key=//p')
[ -n "$key" ] || fail "no \"result pending\" line"
hl_expect_new table-001 "ack accepted key=$key"
hl_expect_new table-001 "state done"
hl_expect_new table-001 "net online queued=0"
t2=$(date +%s%N)
ok "result $key entered, confirmed by both, ACCEPTED by the hub ($(((t2 - t1) / 1000000)) ms from online)"

live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.json"
n=$(grep -c '"result":' "$E2E_TMP/export.json")
[ "$n" -eq 1 ] || fail "the export has $n results, expected 1: $(head -c 600 "$E2E_TMP/export.json")"
tr -d ' \n' <"$E2E_TMP/export.json" | grep -q '"result":{[^}]*"winner":"p2"' ||
    fail "the export's result is not the table's (winner p2): $(head -c 600 "$E2E_TMP/export.json")"
tr -d ' \n' <"$E2E_TMP/export.json" | grep -q '"result":{[^}]*"hq_diff":6' ||
    fail "the export's result is not the table's (hq_diff 6): $(head -c 600 "$E2E_TMP/export.json")"
live 0 round close "$EV"
ok "the hub stored exactly the arm64 table's result and closed the round"

hl_quit table-001
ok "quit: exit 0"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
