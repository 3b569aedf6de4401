#!/usr/bin/env bash
# test_table_clock_skew.sh - tables whose system clocks are wrong still
# show the hub's round clock: two headless tourney-table devices run under
# libfaketime (LD_PRELOAD, on the table processes only): table-001 two
# hours ahead (FAKETIME=+2h), table-002 37 minutes behind (FAKETIME=-37m);
# broker, hub and organiser run on the true clock.
# - libfaketime really skews a process (date under it is off by the skew);
# - round 1 of a Neuroshima Hex! event is published and its clock started:
#   each table's `status` shows remaining_ms within 1 s of the hub's
#   RoundClock deadline minus the true now (both taken at the moment of the
#   status request: the hub's clock row read from its database, sqlite3);
# - paused: each table shows the hub's stored remaining time (within 1 s);
# - resumed (a new deadline, a new offset measured): again within 1 s.
# Without the offset measured on each clock message (tny_table_clock_apply)
# the tables would be 2 h and 37 min off.
#
# Under AddressSanitizer the preload order is relaxed
# (verify_asan_link_order=0); if a sanitized table still cannot start
# under libfaketime the test prints "SKIP: ..." and exits 77 (ctest
# SKIP_RETURN_CODE), as it does without libfaketime or sqlite3.
#
# usage: bash test_table_clock_skew.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-180}

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
e2e_faketime_lib
command -v sqlite3 >/dev/null || skip "no sqlite3 command (Debian package sqlite3; deploy/install-deps.sh)"
declare -A SKEW=([table-001]=+2h [table-002]=-37m) SKEW_S=([table-001]=7200 [table-002]=-2220)

# skewed DEVICE COMMAND...: COMMAND under libfaketime with DEVICE's skew
# (env execs COMMAND: its pid is the one started).
skewed() {
    local d=$1
    shift
    exec env LD_PRELOAD="$FT" FAKETIME="${SKEW[$d]}" \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
for d in table-001 table-002; do
    off=$(($(skewed "$d" date +%s) - $(date +%s)))
    [ "$off" -ge $((SKEW_S[$d] - 5)) ] && [ "$off" -le $((SKEW_S[$d] + 5)) ] ||
        fail "libfaketime ${SKEW[$d]}: date is off by $off s, expected ${SKEW_S[$d]}"
done
if ! (skewed table-001 "$TABLE" --version) >"$E2E_TMP/v.out" 2>&1; then
    if grep -q -i 'asan\|addresssanitizer' "$E2E_TMP/v.out"; then
        skip "the sanitizer build does not run under libfaketime: $(head -n 2 "$E2E_TMP/v.out" | tr '\n' ' ')"
    fi
    fail "tourney-table --version under libfaketime: $(head -n 5 "$E2E_TMP/v.out")"
fi
ok "libfaketime skews table-001 by ${SKEW[table-001]}, table-002 by ${SKEW[table-002]}"

hl_hub 2
for d in table-001 table-002; do
    hl_conf "$d"
    hl_start "$d" skewed "$d" "$TABLE"
done
for d in table-001 table-002; do
    hl_expect "$d" "net online queued=0"
    grep -q faketime "/proc/${HL_PID[$d]}/maps" || fail "$d runs without libfaketime"
done
ok "hub on the true clock; both skewed tables (libfaketime loaded) online"

EV=skew
hl_nh_round "$EV" 3 table-001 table-002
for t in 1 2; do
    hl_assigned "table-00$t" "$EV" "$t"
done

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}
# hub_clock COLUMN: the hub's stored clock value (its only clock row).
hub_clock() {
    sqlite3 "$E2E_TMP/hub.db" "SELECT $1 FROM clocks;" 2>"$E2E_TMP/sq.err" ||
        fail "sqlite3 on the hub database: $(cat "$E2E_TMP/sq.err")"
}
# table_clock D STATE: TAB = remaining_ms of the clock line of a fresh
# `status` of device D, which must be in STATE; T_ASK/T_GOT: the true time
# (ms) around the request.
table_clock() {
    T_ASK=$(now_ms)
    hl_say "$1" status
    hl_expect_new "$1" "status end" 10
    T_GOT=$(now_ms)
    TAB=$(tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" |
        sed -n "s/^clock remaining_ms=\([0-9-]*\) state=$2\$/\1/p" | tail -n 1)
}
# compare STATE: each table's remaining time against the hub's, within 1 s.
compare() {
    local d tab hub diff what
    for d in table-001 table-002; do
        if [ "$1" = running ]; then
            what="hub deadline - now"
            table_clock "$d" running
            tab=$TAB
            [ -n "$tab" ] || fail "$d: no running clock in status; $(hl_tail "$d")"
            hub=$(($(hub_clock deadline_ms) - (T_ASK + T_GOT) / 2))
        else
            what="hub remaining"
            table_clock "$d" paused
            tab=$TAB
            [ -n "$tab" ] || fail "$d: no paused clock in status; $(hl_tail "$d")"
            hub=$(hub_clock remaining_ms)
        fi
        diff=$((tab - hub))
        [ "${diff#-}" -le 1000 ] ||
            fail "$d (clock ${SKEW[$d]}): shows $tab ms, $what is $hub ms (off by $diff ms)"
        ok "$d (clock ${SKEW[$d]}), $1: shows $tab ms, $what $hub ms (diff $diff ms)"
    done
}
wait_clock() { # wait_clock STATE: both tables printed a clock line in STATE
    local d
    for d in table-001 table-002; do
        wait_until 30 eval "tail -n +\$((HL_MARK[$d] + 1)) \"\$E2E_TMP/$d.out\" | grep -q '^clock remaining_ms=[0-9]* state=$1\$'" ||
            fail "$d: no $1 clock; $(hl_tail "$d")"
    done
}

for d in table-001 table-002; do hl_mark "$d"; done
live 0 clock start "$EV"
wait_clock running
[ "$(hub_clock state)" = running ] || fail "the hub's clock is not running: $(hub_clock state)"
compare running

for d in table-001 table-002; do hl_mark "$d"; done
live 0 clock pause "$EV"
wait_clock paused
compare paused

sleep 1
for d in table-001 table-002; do hl_mark "$d"; done
live 0 clock resume "$EV"
wait_clock running
compare running

for d in table-001 table-002; do hl_quit "$d"; done
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
