#!/usr/bin/env bash
# test_console_tui_devices.sh - issue 20 item 6, mixed venues: one event
# (Catan, 16 players, 4 tables) whose tables 1 and 2 have Pis (real
# headless tourney-table devices table-001 and table-002) and tables 3 and
# 4 sign-in codes for phones (web-N on the venue broker's table-page
# listener).  The organiser's dashboard (`tourney live console`, in tmux,
# real hub with the feed on) shows each table's device kind and whether
# it is connected, its players signed in:
#   T1  Pi          the Pi is online
#   T2  Pi OFFLINE  its Pi is not running
#   T3  phone       a phone is signed in with table 3's code
#   T4  no phone    nobody is signed in with table 4's code
# then table-002 starts ("T2 Pi") and a phone signs in with table 4's
# code ("T4 phone"); tables without a device show only their state (as
# before: tests/e2e/test_console_tui.sh).  The phones are
# bench/phone_clients.js (play.html's protocol over MQTT over WebSocket:
# the code as login, the assignment, a retained online Presence).
# Then every player gets their own code (`code player`) and whether the
# players are signed in is shown beside the device, over the table's
# seats: two players of table 1 (the Pi's) and one of table 3 sign in on
# their own phones (play.html in chromium, tests/e2e/play_signin.js):
#   T1  Pi 2/4      T3  phone 1/4      T2  Pi 0/4      T4  phone 0/4
# (item 3: the players at the Pi's table see their table and seat, are
# told to enter the result on the Pi, and the broker refuses their codes
# on the Pi's topics); one of table 1's phones is closed without a
# goodbye: its last will says so, "T1 Pi 1/4"; then the Pi is taken away
# (`device assign table-001 mix 0`): the player codes of table 1 get a
# page device of the table and the phone still signed in there shows the
# table and its result form, "T1 phone 1/4".  Then, the clock running
# and table 2's Pi gone, the grid in Czech at 100 and 80 columns: every
# table's state whole ("hraje se"), two blanks between cells, at 100
# columns "T2 Pi ODPOJEN 0/4 hraje se" whole.
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# packages.
#
# usage: bash test_console_tui_devices.sh SOURCE_DIR BUILD_DIR
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

skip() {
    echo "SKIP: $E2E_NAME: $*"
    exit 77
}
e2e_init "$@"
OVL=$E2E_SRC/deploy/overlays
command -v node >/dev/null || skip "no node (deploy/install-deps.sh)"
[ -f "$OVL/node_modules/mqtt/package.json" ] && [ -f "$OVL/node_modules/protobufjs/package.json" ] ||
    skip "no $OVL/node_modules: run deploy/overlays/install.sh"
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || skip "no $CHROMIUM (deploy/install-deps.sh)"
[ -f "$OVL/node_modules/playwright-core/package.json" ] || skip "no $OVL/node_modules/playwright-core: run deploy/overlays/install.sh"
source "$(dirname -- "${BASH_SOURCE[0]}")/headless.sh"
need_binaries TOURNEY HUB TABLE
WWW=$E2E_TMP/www
mkdir -p "$WWW"
cp "$OVL"/*.html "$OVL"/*.js "$OVL"/*.css "$WWW"/
cp -r "$OVL/vendor" "$OVL/locale" "$WWW"/
"$TOURNEY" result-schema --js >"$WWW/vendor/result-schema.js" || fail "tourney result-schema --js failed"
start_broker --no-ws --tables 2 --organisers o1,o2 --table-ws-port auto --http-dir "$E2E_TMP/www"
TWS=$BROKER_TABLE_WS_PORT
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
cred play-admin >"$E2E_TMP/play.pw"
cred o2 >"$E2E_TMP/o2.pw"
live_hub_config 'feed = true' 'feed_interval_ms = 50' "play_broker_uri = \"ws://$BROKER_HOST:$TWS\"" \
    "play_password_file = \"$E2E_TMP/play.pw\""
hub_launch
live 0 wait-hub --timeout 20
wait_for 20 "grep -q 'codes: table-page listener connected' '$E2E_TMP/hub.log'" ||
    fail "the hub did not connect to the table-page listener: $(tail -n 5 "$E2E_TMP/hub.log")"

live 0 event create mix --format catan --title 'Mixed Hall' --seed 7 --options '{"rounds": 2}'
{
    echo 'id,name'
    for i in $(seq 1 16); do echo "p$i,Player $i"; done
} >"$E2E_TMP/players.csv"
live 0 players import mix "$E2E_TMP/players.csv"
live 0 device assign table-001 mix 1
live 0 device assign table-002 mix 2
for t in 3 4; do
    live 0 --json code issue mix "$t"
    echo "$t $(jq -r .code "$E2E_TMP/out")" >"$E2E_TMP/code.$t"
done
hl_conf table-001
hl_start table-001 "$TABLE"
hl_expect table-001 'net online queued=0' 20
live 0 round pair mix
live 0 round publish mix
ok "event mix: tables 1-2 Pis (table-001 running, table-002 not), tables 3-4 sign-in codes"

# phone TABLE: a phone signs in with the table's code (kept running).
phone() {
    node "$E2E_SRC/bench/phone_clients.js" --overlays "$OVL" --proto "$E2E_SRC/proto" \
        --broker "ws://$BROKER_HOST:$TWS/mqtt" --codes "$E2E_TMP/code.$1" --per-table 1 \
        --go "$E2E_TMP/never" --timeout-s 60 --out "$E2E_TMP/phone.$1.json" \
        >"$E2E_TMP/phone.$1.out" 2>&1 &
    e2e_track $!
    wait_until 60 grep -q -E '^(ready|FAIL)' "$E2E_TMP/phone.$1.out"
    grep -q '^ready' "$E2E_TMP/phone.$1.out" || fail "the phone of table $1: $(cat "$E2E_TMP/phone.$1.out")"
}
phone 3

SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
cat >"$E2E_TMP/pane.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C
unset TOURNEY_PASSWORD
'$TOURNEY' live console mix 2>'$E2E_TMP/console.err'
exec sleep 600
EOF
tm -f /dev/null new-session -d -s tui -x 132 -y 40 "bash '$E2E_TMP/pane.sh'" || fail "tmux new-session"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen: $(screen); stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
expect 20 ' Mixed Hall ' "title"
expect 20 'T1 +Pi waiting' "table 1: its Pi online"
expect 20 'T2 +Pi OFFLINE waiting' "table 2: its Pi not running"
expect 20 'T3 +phone waiting' "table 3: a phone signed in"
expect 20 'T4 +no phone waiting' "table 4: nobody signed in"
ok "the dashboard: T1 Pi, T2 Pi OFFLINE, T3 phone, T4 no phone: $(screen | grep -o -E 'T[1-4] +[A-Za-z ]+waiting' | tr -s ' ' | paste -sd '|')"

hl_conf table-002
hl_start table-002 "$TABLE"
hl_expect table-002 'net online queued=0' 20
phone 4
expect 20 'T2 +Pi waiting' "table 2: its Pi now online"
expect 20 'T4 +phone waiting' "table 4: a phone now signed in"
grep_screen 'OFFLINE|no phone' && fail "a table still shown without its device: $(screen)"
ok "table-002 started and a phone signed in at table 4: T2 Pi, T4 phone"

# Item 6: the players on their own phones.  Every player's code; two
# players of table 1 (a Pi) and one of table 3 (a phone with the table's
# code) sign in.
live 0 --json code player mix
cp "$E2E_TMP/out" "$E2E_TMP/players.json"
jq -e 'length == 16' "$E2E_TMP/players.json" >/dev/null || fail "code player: $(cat "$E2E_TMP/players.json")"
live 0 --json code list mix
jq -e '[.[] | select(.player)] | length == 16 and all(.[]; .signed_in == false and .seats == 4)' "$E2E_TMP/out" >/dev/null ||
    fail "code list: 16 player codes, none signed in, 4 seats each: $(cat "$E2E_TMP/out")"
jq --slurpfile p "$E2E_TMP/players.json" '[.[] | select(.player) | . as $c |
        ($p[0][] | select(.player == $c.player)) as $x |
        {player: $c.player, name: $x.name, code: $x.query, table: $c.table, seat: $c.seat} |
        if .table == 1 then . + {pi: "table-001"} else . end] |
      ([.[] | select(.table == 1)] | sort_by(.seat) | .[0:2]) + ([.[] | select(.table == 3)] | sort_by(.seat) | .[0:1])'     "$E2E_TMP/out" >"$E2E_TMP/signin.json"
jq -e 'length == 3' "$E2E_TMP/signin.json" >/dev/null || fail "players of tables 1 and 3: $(cat "$E2E_TMP/signin.json")"
expect 20 'T1 +Pi 0/4 waiting' "table 1: its players' codes, none signed in"
expect 20 'T3 +phone 0/4 waiting' "table 3: its players' codes, none signed in"
CTL=$E2E_TMP/ctl
mkdir -p "$CTL"
node "$E2E_SRC/tests/e2e/play_signin.js" --overlays "$OVL" --base "http://$BROKER_HOST:$TWS" --chromium "$CHROMIUM" \
    --players "$E2E_TMP/signin.json" --ctl "$CTL" >"$E2E_TMP/signin.out" 2>&1 &
e2e_track $!
wait_until 120 grep -q -E '^(ready|FAIL)' "$E2E_TMP/signin.out"
grep -q '^ready' "$E2E_TMP/signin.out" || fail "the players' phones: $(cat "$E2E_TMP/signin.out")"
sed 's/^/    /' "$E2E_TMP/signin.out"
expect 20 'T1 +Pi 2/4 waiting' "table 1: two players signed in on their phones"
expect 20 'T3 +phone 1/4 waiting' "table 3: one player signed in on their phone"
expect 20 'T2 +Pi 0/4 waiting' "table 2: no player signed in"
expect 20 'T4 +phone 0/4 waiting' "table 4: no player signed in (its table code's phone is)"
live 0 devices --json
jq -e '[.[] | select(.id == "table-001")][0] | .table == 1 and .event == "mix"' "$E2E_TMP/out" >/dev/null ||
    fail "table-001 no longer table 1's device: $(cat "$E2E_TMP/out")"
ok "players on their phones: $(screen | grep -o -E 'T[1-4] +[A-Za-z ]+[0-9]/[0-9] waiting' | tr -s ' ' | paste -sd '|'); the Pi stays table 1's device"
first=$(jq -r '.[0].player' "$E2E_TMP/signin.json")
touch "$CTL/close.$first"
wait_until 20 grep -q "^closed $first" "$E2E_TMP/signin.out" || fail "$first's phone not closed: $(cat "$E2E_TMP/signin.out")"
expect 30 'T1 +Pi 1/4 waiting' "table 1: $first's phone closed without a goodbye (last will)"
ok "$first's phone closed without a goodbye: T1 Pi 1/4"

# The Pi taken away (broken): table 1's players' codes get a page device
# of the table, the phone still signed in there becomes the table.
second=$(jq -r '.[1].player' "$E2E_TMP/signin.json")
live 0 device assign table-001 mix 0
live 0 --json code list mix
jq -e '[.[] | select(.player and .table == 1)] | length == 4 and all(.[]; .device | test("^web-[0-9]+$"))' "$E2E_TMP/out" >/dev/null ||
    fail "table 1 without its Pi: its players' codes are not at a page device: $(cat "$E2E_TMP/out")"
touch "$CTL/table.$second"
wait_until 40 grep -q -E "^(at-table $second|FAIL)" "$E2E_TMP/signin.out"
grep -q "^at-table $second" "$E2E_TMP/signin.out" || fail "$second's phone at table 1 without its Pi: $(cat "$E2E_TMP/signin.out")"
expect 20 'T1 +phone 1/4 waiting' "table 1 without its Pi: $second's phone is the table"
ok "the Pi taken away: table 1's player codes re-pointed at $(jq -r '[.[] | select(.player and .table == 1)][0].device' "$E2E_TMP/out"), $second's phone shows the table and its result form: T1 phone 1/4"
touch "$CTL/quit"

# The grid in Czech (the tryout of session 14: "T1   bez mobilu 0/4
# hraj… T2"): the clock running, table 2's Pi gone: at 100 columns every
# cell whole ("Pi ODPOJEN 0/4 hraje se"), at 80 the state whole in each
# cell (the device's word gives way); two blanks between cells.
live 0 clock start mix
hl_quit table-002
# (as o2, one at a time: two dashboards of one login were seen taking
# turns on the broker, "DISCONNECTED" each in turn)
cat >"$E2E_TMP/pane-cs.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 LANGUAGE=cs TERM=screen
export TOURNEY_LOCALEDIR='$E2E_BUILD/locale'
unset TOURNEY_PASSWORD
'$TOURNEY' live --user o2 --password-file '$E2E_TMP/o2.pw' console mix 2>'$E2E_TMP/console-cs.err'
exec sleep 600
EOF
cs() { tm capture-pane -p -t cs 2>/dev/null | sed -n '/^ STOLY/,/^ *$/p'; }
declare -A grid
for w in 100 80; do
    tm kill-session -t cs 2>/dev/null
    tm new-session -d -s cs -x "$w" -y 40 "bash '$E2E_TMP/pane-cs.sh'" || fail "tmux new-session cs ($w)"
    wait_for 20 '[ "$(cs | grep -o "T[1-4] [^T]*hraje se" | wc -l)" -eq 4 ]' ||
        fail "Czech grid at $w columns: not 4 tables whole \"hraje se\": $(cs)"
    wait_for 20 'cs | grep -q -E "T2 +Pi (ODPOJEN|OD…) 0/4 hraje se"' ||
        fail "Czech grid at $w columns: table 2's Pi not offline: $(cs)"
    cs | grep -E '[^ ] ?T[0-9]' && fail "Czech grid at $w columns: cells run together: $(cs)"
    [ "$w" != 100 ] || cs | grep -q -E 'T2 +Pi ODPOJEN 0/4 hraje se' ||
        fail "Czech grid at 100 columns: table 2 not whole: $(cs)"
    grid[$w]=$(cs | grep -o -E 'T2 [^T]*hraje se' | tr -s ' ')
done
ok "the grid in Czech: ${grid[100]}; at 80 columns: ${grid[80]}"

tm send-keys -t tui q
hl_quit table-001
e2e_done
