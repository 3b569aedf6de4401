#!/usr/bin/env bash
# test_device_identify.sh - `tourney live device identify DEVICE` (issue 8
# part 8, "Setting up the hall"): real broker (generated ACL), real hub,
# three headless tables (table-001 and table-002 on tables 1 and 2 of a
# published round, table-003 not assigned).
# - identify table-002: the console says which table it is; table-002
#   prints `identify device=table-002 table=2`; the others print nothing;
# - identify table-003 (not assigned): `table=0`, the console says so;
# - an id no device has connected with: exit 3, one clear error line,
#   nothing published;
# - the message is not retained (a subscriber that comes later gets
#   nothing) and only the hub may publish it: table-004 (a device login no table runs under: a second connection would take over the login) and organiser o1
#   publishing on table-002's identify topic reach nobody (ACL).
#
# usage: bash test_device_identify.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
# hl_hub, with a read-only monitor login m1 watching the broker.
start_broker --no-ws --tables 4 --organisers o1 --monitors m1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20
hl_nh_round ev 7 table-001 table-002
for d in table-001 table-002 table-003; do
    hl_conf "$d"
    hl_start "$d" "$TABLE"
done
hl_assigned table-001 ev 1
hl_assigned table-002 ev 2
hl_expect table-003 "net online queued=0"
# Every identify message the broker routes, seen by a monitor.
e2e_sub_start watch m1 'tourney/v1/device/+/identify'
ok "three tables up"

live 0 device identify table-002
grep -q -x -F 'table-002 (table 2, online) flashes its id for 10 s' "$E2E_TMP/out" ||
    fail "identify table-002: console printed: $(cat "$E2E_TMP/out")"
hl_expect table-002 "identify device=table-002 table=2"
ok "table-002 identifies as table 2"

live 0 device identify table-003
grep -q -x -F 'table-003 (not assigned, online) flashes its id for 10 s' "$E2E_TMP/out" ||
    fail "identify table-003: console printed: $(cat "$E2E_TMP/out")"
hl_expect table-003 "identify device=table-003 table=0"
ok "an unassigned device identifies with table 0"

live 3 device identify table-099
[ "$(wc -l <"$E2E_TMP/err")" = 1 ] &&
    grep -q -F 'no device "table-099" has connected to this hub' "$E2E_TMP/err" ||
    fail "unknown device: stderr: $(cat "$E2E_TMP/err")"
[ -s "$E2E_TMP/out" ] && fail "unknown device: stdout: $(cat "$E2E_TMP/out")"
live 2 device identify 'table 2'
ok "an unknown device is a clear error"

# Only the hub may publish there: a table and an organiser cannot.
e2e_pub table-004 tourney/v1/device/table-002/identify 9
e2e_pub o1 tourney/v1/device/table-002/identify 8
# The hub's messages so far: table-002 and table-003, one each (and only
# the hub's: the two payloads above never reached the watcher).
live 0 device identify table-001
hl_expect table-001 "identify device=table-001 table=1"
wait_until 10 test "$(e2e_messages watch | wc -l)" -ge 3 ||
    fail "watcher saw $(e2e_messages watch | tr '\n' '|')"
got=$(e2e_messages watch | tr '\n' '|')
[ "$got" = "0 tourney/v1/device/table-002/identify 2|0 tourney/v1/device/table-003/identify 0|0 tourney/v1/device/table-001/identify 1|" ] ||
    fail "identify messages on the broker: $got"
for d in table-001 table-002 table-003; do
    [ "$(grep -c '^identify ' "$E2E_TMP/$d.out")" = 1 ] ||
        fail "$d identified $(grep -c '^identify ' "$E2E_TMP/$d.out") times; $(hl_tail "$d")"
done
ok "only the hub publishes identify; each table saw its own message once"

# Not retained: a subscriber that comes now gets nothing stored.
auth_args m1
timeout 10 mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
    "${AUTH[@]}" -t 'tourney/v1/device/+/identify' --retained-only -W 2 \
    -F '%t %p' >"$E2E_TMP/retained.out" 2>/dev/null
[ -s "$E2E_TMP/retained.out" ] && fail "identify is retained: $(cat "$E2E_TMP/retained.out")"
ok "identify is not retained"

for d in table-001 table-002 table-003; do hl_quit "$d"; done
e2e_done
