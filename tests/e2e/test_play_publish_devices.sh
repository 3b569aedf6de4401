#!/usr/bin/env bash
# test_play_publish_devices.sh - issue 20, the newcomer trial's gaps: a
# venue broker with the table-page listener, the real hub, one Pi table
# (a headless tourney-table, table-001) and an A Game of Thrones event of
# 8 players, all with their own phone codes (`code player`):
# - `round publish`'s summary says which device shows each table as it is
#   after the publish: table 1 the Pi, the three others the page devices
#   (web-N) their players' codes gave them; none "NO DEVICE" (the old hub
#   built it before the player codes followed their players: "1 table at
#   a device, 3 without one");
# - `code issue` for a table its players' phones already show: the table
#   code joins that page device (a shared phone next to theirs), the
#   broker's login holds that device's role; a second table code for it
#   is refused naming its code, and a table code for the Pi's table is
#   refused saying why and what to do instead; each refusal changes
#   nothing (`code list`).
#
# usage: bash test_play_publish_devices.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
play_setup --tables 1
hl_conf table-001
hl_start table-001 "$TABLE"
hl_expect table-001 'net online queued=0' 20

EV=mixed
live 0 event create $EV --format got-lcg2 --title 'Gra o Tron — Kraków' --seed 5 --language pl
for i in 1 2 3 4 5 6 7 8; do
    live 0 player add $EV "p$i" "Gracz Łódź $i"
done
live 0 --json code player $EV
cp "$E2E_TMP/out" "$E2E_TMP/players.json"
live 0 round pair $EV
live 0 round publish $EV
cp "$E2E_TMP/out" "$E2E_TMP/publish"
sed 's/^/    /' "$E2E_TMP/publish"
grep -q -x '  4 tables at a device, 0 without one' "$E2E_TMP/publish" ||
    fail "round publish: not 4 tables at a device: $(cat "$E2E_TMP/publish")"
grep -q -x '  table 1    device table-001 (Pi)' "$E2E_TMP/publish" ||
    fail "round publish: table 1 not on the Pi: $(cat "$E2E_TMP/publish")"
for t in 2 3 4; do
    grep -q -E -x "  table $t    device web-[0-9]+ \(phone page\)" "$E2E_TMP/publish" ||
        fail "round publish: table $t not on a phone page: $(cat "$E2E_TMP/publish")"
done
! grep -q 'NO DEVICE' "$E2E_TMP/publish" || fail "round publish: a table without a device: $(cat "$E2E_TMP/publish")"
# The summary is what the hub did: each table's device in `devices`.
live 0 --json devices
for t in 2 3 4; do
    d=$(sed -n "s/^  table $t    device \(web-[0-9]*\) .*/\1/p" "$E2E_TMP/publish")
    jq -e --arg d "$d" --arg ev $EV --argjson t $t '[.[] | select(.id == $d and .event == $ev and .table == $t)] | length == 1' \
        "$E2E_TMP/out" >/dev/null || fail "device $d is not at table $t: $(cat "$E2E_TMP/out")"
done
ok "round publish: table 1 on the Pi, tables 2-4 on their players' phone pages, none without a device"

WEB2=$(sed -n 's/^  table 2    device \(web-[0-9]*\) .*/\1/p' "$E2E_TMP/publish")
live 0 --json code list $EV
cp "$E2E_TMP/out" "$E2E_TMP/list.before"
live 3 code issue $EV 1
grep -q 'table 1 already has device "table-001" (a table device, not a phone)' "$E2E_TMP/err" &&
    grep -q 'device assign table-001' "$E2E_TMP/err" ||
    fail "code issue for the Pi's table: $(cat "$E2E_TMP/err")"
live 0 --json code list $EV
cmp -s "$E2E_TMP/out" "$E2E_TMP/list.before" || fail "a refused code issue changed the codes: $(cat "$E2E_TMP/out")"
live 0 --json code issue $EV 2
cp "$E2E_TMP/out" "$E2E_TMP/t2.json"
jq -e --arg d "$WEB2" '.table == 2 and .device == $d' "$E2E_TMP/t2.json" >/dev/null ||
    fail "code issue for table 2 (shown by $WEB2): $(cat "$E2E_TMP/t2.json")"
T2=$(jq -r .code "$E2E_TMP/t2.json")
live 3 code issue $EV 2
grep -q "table 2 already has device \"$WEB2\" with code $T2: a second phone signs in with the same code" "$E2E_TMP/err" ||
    fail "a second table code for table 2: $(cat "$E2E_TMP/err")"
live 0 --json code list $EV
jq -e --arg d "$WEB2" '([.[] | select(.player == null)] | length) == 1 and
       ([.[] | select(.table == 2 and .state == "valid")] | all(.device == $d))' "$E2E_TMP/out" >/dev/null ||
    fail "code list after table 2's code: $(cat "$E2E_TMP/out")"
# The broker: the table code's login holds the players' page device role.
DS=$BROKER_DIR/dynsec/dynamic-security.json
wait_for 10 "jq -e --arg c '$(jq -r .query "$E2E_TMP/t2.json")' --arg r '$WEB2' \
    '[.clients[] | select(.username == \$c) | .roles[].rolename] == [\$r]' '$DS' >/dev/null" ||
    fail "the broker's login of table 2's code: $(jq -c --arg c "$(jq -r .query "$E2E_TMP/t2.json")" '.clients[] | select(.username == $c)' "$DS")"
ok "code issue: table 2's code joins $WEB2 (its players' page device); a second one and one for the Pi's table refused, saying why"
e2e_done
