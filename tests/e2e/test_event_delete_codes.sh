#!/usr/bin/env bash
# test_event_delete_codes.sh - `tourney live event delete` of an event
# with sign-in codes (issue 20 codes, issue 22 delete; docs/console.md
# "event delete"): a real venue broker with the table-page listener
# (mosquitto's dynamic security plugin) and the hub provisioning the codes
# through it (play_broker_hub, tests/e2e/lib.sh):
# - event "typo" (A Game of Thrones, 4 players, round 1 a draft) with two
#   table codes (one of them revoked) and every player's own code, and
#   event "keep" with a table code; every valid code signs in on the
#   broker (CONNACK 0);
# - `event delete typo` succeeds (the old store failed "FOREIGN KEY
#   constraint failed" on the codes), and afterwards the broker refuses
#   every code of typo (valid or revoked: their logins are gone from the
#   plugin's file, with their roles), while keep's code still signs in;
#   `code list typo` finds no event; the id can be used again and gets
#   fresh codes.
#
# Skips (exit 77) without node or deploy/overlays/install.sh's npm
# packages (deploy/test.sh installs both).
#
# usage: bash test_event_delete_codes.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
OVL=$E2E_SRC/deploy/overlays
if ! command -v node >/dev/null || [ ! -f "$OVL/node_modules/mqtt/package.json" ]; then
    echo "SKIP: $E2E_NAME: no node or no $OVL/node_modules/mqtt (deploy/overlays/install.sh)"
    exit 77
fi
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
play_broker_hub
DS=$BROKER_DIR/dynsec/dynamic-security.json

# try_code CODE: 0 when the table-page listener lets CODE sign in, else
# the broker's reason code (134 bad user name or password, 135 not
# authorised) or the client's error.
try_code() {
    NODE_PATH=$OVL/node_modules node -e '
const mqtt = require("mqtt");
const c = mqtt.connect(process.argv[1], {username: process.argv[2], password: process.argv[2],
    protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000});
c.on("connect", () => { console.log(0); c.end(true); });
c.on("error", (e) => { console.log(e.code || e.message); process.exit(0); });' "ws://$BROKER_HOST:$TWS/mqtt" "$1"
}

for ev in typo keep; do
    live 0 event create $ev --format got-lcg2 --seed 3
    printf 'id,name\n%s1,Ann\n%s2,Bo\n%s3,Cy\n%s4,Di\n' $ev $ev $ev $ev >"$E2E_TMP/$ev.csv"
    live 0 players import $ev "$E2E_TMP/$ev.csv"
    live 0 round pair $ev
done
for t in 1 2; do
    live 0 --json code issue typo $t
    jq -r .query "$E2E_TMP/out" >>"$E2E_TMP/typo.codes"
done
live 0 code revoke typo "$(sed -n 2p "$E2E_TMP/typo.codes")"
live 0 --json code player typo
jq -r '.[].query' "$E2E_TMP/out" >>"$E2E_TMP/typo.codes"
[ "$(wc -l <"$E2E_TMP/typo.codes")" -eq 6 ] || fail "typo's codes: $(cat "$E2E_TMP/typo.codes")"
live 0 --json code issue keep 1
keep=$(jq -r .query "$E2E_TMP/out")
# every valid code signs in (the hub's commands reach the plugin)
n=0
while read -r c; do
    n=$((n + 1))
    [ "$n" -eq 2 ] && continue # revoked
    wait_for 20 "[ \"\$(try_code '$c')\" = 0 ]" || fail "typo's code $n does not sign in before the delete: $(try_code "$c")"
done <"$E2E_TMP/typo.codes"
wait_for 20 "[ \"\$(try_code '$keep')\" = 0 ]" || fail "keep's code does not sign in: $(try_code "$keep")"
ok "typo: 2 table codes (one revoked) and 4 player codes, keep: 1 table code; the valid ones sign in"

live 0 event delete typo --reason 'wrong format'
grep -q 'deleted event typo (.*, 6 sign-in codes ended)' "$E2E_TMP/out" || fail "event delete: $(cat "$E2E_TMP/out")"
grep -q 'codes deleted with their event event=typo logins=6' "$E2E_TMP/hub.log" ||
    fail "the hub did not delete typo's 6 logins: $(grep -E 'codes|delete' "$E2E_TMP/hub.log" | tail -n 5)"
n=0
while read -r c; do
    n=$((n + 1))
    wait_for 20 "[ \"\$(try_code '$c')\" != 0 ]" || fail "typo's code $n still signs in after the delete"
    jq -e --arg c "$c" '[.clients[] | select(.username == $c)] | length == 0' "$DS" >/dev/null ||
        fail "typo's code $n is still a login of the plugin: $(jq -c --arg c "$c" '.clients[] | select(.username == $c)' "$DS")"
done <"$E2E_TMP/typo.codes"
[ "$(try_code "$keep")" = 0 ] || fail "keep's code no longer signs in after typo was deleted: $(try_code "$keep")"
live 3 code list typo
ok "event delete typo: done with its codes; the broker refuses all 6, none left in its file; keep's code signs in"

live 0 event create typo --format got-lcg2 --seed 4
live 0 players import typo "$E2E_TMP/typo.csv"
live 0 --json code player typo
jq -r '.[].query' "$E2E_TMP/out" >"$E2E_TMP/typo2.codes"
[ "$(wc -l <"$E2E_TMP/typo2.codes")" -eq 4 ] || fail "typo again, code player: $(cat "$E2E_TMP/out")"
c=$(head -n 1 "$E2E_TMP/typo2.codes")
wait_for 20 "[ \"\$(try_code '$c')\" = 0 ]" || fail "the new typo's player code does not sign in: $(try_code "$c")"
ok "typo again: new player codes sign in"
e2e_done
