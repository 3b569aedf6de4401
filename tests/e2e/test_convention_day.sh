#!/usr/bin/env bash
# test_convention_day.sh - a convention day as the hall lives it (issue 8,
# "Done when"): two events at once on one hub, players with names in
# Czech, Polish, Hungarian, Norwegian, Vietnamese, Chinese and a very long
# one, imported from spreadsheets; real broker, real hub, three headless
# tables, the organiser's dashboard in tmux.
# - the names arrive at the tables byte for byte and stand on the
#   dashboard whole (display width, not bytes);
# - a table killed mid-round and the hub restarted mid-round: the tables'
#   clocks within 1 s of the hub's remaining time;
# - corrections: a rename while the round runs reaches the table at once;
#   a result the organiser enters is pushed to its table as the
#   organiser's; a disqualification while a draft exists re-plans the
#   draft; every change is in the audit log with its reason;
# - both events finish: "Final standings", the DQ marked, and the export
#   keeps names and reasons and reads back offline.
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
source "$E2E_SRC/tests/e2e/live_hub.sh"
need_binaries TOURNEY HUB TABLE
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
command -v sqlite3 >/dev/null || fail "no sqlite3 command (deploy/install-deps.sh)"

LONG='Maximilian Alexander Ferdinand Wolfgang von Hohenzollern-Sigmaringen'
start_broker --no-ws --tables 3 --organisers o1
live_hub_config 'feed = true' 'feed_interval_ms = 50'
hub_create
hub_launch
live 0 wait-hub --timeout 20

# --- two events from the organisers' spreadsheets --------------------------
live 0 event create praha --format neuroshima-hex --title 'Praha Open 2026' --seed 11 \
    --options '{"swiss_rounds": 2, "cut": 0}'
# A spreadsheet's own headers, no id column: ids are made (p1..).
printf 'Player,Team\nJiří Šebesta,Brno\nŁukasz Wójcik,Łódź\nSzőke Ödön,Győr\nØystein Ærø,Tromsø\n' \
    >"$E2E_TMP/praha.csv"
live 0 players import praha "$E2E_TMP/praha.csv"
live 0 event create oslo --format catan --title 'Oslo Catan Cup' --seed 12 --options '{"rounds": 2}'
printf 'id,name\nc1,Nguyễn Thị Minh Khai\nc2,王小明\nc3,Zoë Brontë\nc4,%s\n' "$LONG" >"$E2E_TMP/oslo.csv"
live 0 players import oslo "$E2E_TMP/oslo.csv"
live 0 players list praha
for n in 'Jiří Šebesta' 'Łukasz Wójcik' 'Szőke Ödön' 'Øystein Ærø'; do
    grep -q -F "$n" "$E2E_TMP/out" || fail "players list praha: no \"$n\": $(cat "$E2E_TMP/out")"
done
ok "two events, eight players with non-ASCII names imported from spreadsheets"

for d in table-001 table-002 table-003; do
    hl_conf "$d"
    hl_start "$d" "$TABLE"
    hl_expect "$d" "net online queued=0"
done
live 0 device assign table-001 praha 1
live 0 device assign table-002 praha 2
live 0 device assign table-003 oslo 1
for ev in praha oslo; do
    live 0 round pair "$ev"
    live 0 round publish "$ev"
    live 0 clock start "$ev"
done
hl_assigned table-001 praha 1
hl_assigned table-002 praha 2
hl_assigned table-003 oslo 1
for n in 'Nguyễn Thị Minh Khai' '王小明' 'Zoë Brontë' "$LONG"; do
    grep -q -F "name=\"$n\"" "$E2E_TMP/table-003.out" ||
        fail "table-003 does not show \"$n\"; $(hl_tail table-003)"
done
ok "round 1 of both events published and started; the names reach the tables as entered"

# --- clocks: within 1 s of the hub's remaining time --------------------------
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# hub_remaining EVENT ASK GOT: the event's stored deadline minus the true
# time halfway between ASK and GOT.
hub_remaining() {
    local dl
    dl=$(sqlite3 "$E2E_TMP/hub.db" "SELECT c.deadline_ms FROM clocks c JOIN rounds r ON r.id = c.round_id
        JOIN events e ON e.id = r.event_id WHERE e.name = '$1' ORDER BY r.number DESC LIMIT 1;" \
        2>"$E2E_TMP/sq.err") || fail "sqlite3: $(cat "$E2E_TMP/sq.err")"
    echo $((dl - ($2 + $3) / 2))
}
# check_clock DEVICE EVENT WHAT: the device's running clock (`status`)
# within 1 s of the hub's.
check_clock() {
    local d=$1 ask got tab hub diff
    ask=$(now_ms)
    hl_say "$d" status
    hl_expect_new "$d" "status end" 10
    got=$(now_ms)
    tab=$(tail -n +"$((HL_MARK[$d] + 1))" "$E2E_TMP/$d.out" |
        sed -n 's/^clock remaining_ms=\([0-9-]*\) state=running$/\1/p' | tail -n 1)
    [ -n "$tab" ] || fail "$3: $d shows no running clock; $(hl_tail "$d")"
    hub=$(hub_remaining "$2" "$ask" "$got")
    diff=$((tab - hub))
    [ "${diff#-}" -le 1000 ] || fail "$3: $d shows $tab ms, the hub $hub ms (off by $diff ms)"
    ok "$3: $d shows $tab ms, the hub $hub ms (diff $diff ms)"
}
sleep 2
check_clock table-001 praha "running"
kill -KILL "${HL_PID[table-001]}"
wait "${HL_PID[table-001]}" 2>/dev/null
eval "exec ${HL_FD[table-001]}>&-"
rm -f "$E2E_TMP/table-001.in"
hl_start table-001 "$TABLE"
hl_expect table-001 "net online queued=0"
hl_assigned table-001 praha 1
wait_until 10 grep -q '^time sync offset_ms=' "$E2E_TMP/table-001.out" ||
    fail "table-001: no time sync after its restart; $(hl_tail table-001)"
check_clock table-001 praha "table killed and started again mid-round"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
for d in table-001 table-002 table-003; do hl_mark "$d"; done
hub_launch
live 0 wait-hub --timeout 20
for d in table-001 table-002 table-003; do hl_expect_new "$d" "hub online" 20; done
check_clock table-002 praha "hub restarted mid-round"
check_clock table-003 oslo "hub restarted mid-round"

# --- the dashboard: names whole, by display width ---------------------------
SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
printf '%s\n' "export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 TERM=screen" \
    "exec '$TOURNEY' live console oslo 2>'$E2E_TMP/console.err'" >"$E2E_TMP/pane.sh"
tm -f /dev/null new-session -d -s tui -x 100 -y 30 "bash '$E2E_TMP/pane.sh'" || fail "tmux"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
wait_until 20 bash -c "tmux -S '$SOCK' capture-pane -p -t tui | grep -q 'Oslo Catan Cup'" ||
    fail "the dashboard did not come up: $(screen); $(cat "$E2E_TMP/console.err")"

# --- corrections -------------------------------------------------------------------
# A rename while the round runs reaches the table at once.
live 0 player edit praha p4 --name 'Øystein Ærø-Hansen' --reason 'spelling on the entry form'
wait_until 20 grep -q -F 'name="Øystein Ærø-Hansen"' "$E2E_TMP/table-001.out" "$E2E_TMP/table-002.out" ||
    fail "the renamed player does not reach the table; $(hl_tail table-001) $(hl_tail table-002)"
ok "a rename mid-round reaches the table at once"

# Table 1 enters its result; table 2's the organiser enters (a lost slip):
# it is pushed to table-002 as the organiser's.
seats() { # DEVICE: the seat ids of its last assignment
    sed -n 's/^assigned event=[a-z]* round=[0-9]* table=[0-9]* .*seats=\([^ ]*\).*/\1/p' \
        "$E2E_TMP/$1.out" | tail -n 1 | tr ',' ' '
}
read -r a b < <(seats table-001)
hl_mark table-001
hl_say table-001 "result winner=$a hq_diff=4" "confirm $a" "confirm $b"
hl_expect_new table-001 "state done" 30
read -r c d < <(seats table-002)
live 0 result enter praha 1 2 "{\"winner\": \"$d\", \"hq_diff\": 2}" --reason 'slip handed to the desk'
hl_expect table-002 "organiser_result by=\"organiser:o1\" result={\"winner\":\"$d\",\"hq_diff\":2}"
ok "a table's own result accepted; the organiser's entry pushed to its table"
live 0 result enter oslo 1 1 '{"vp": {"c1": 11, "c2": 8, "c3": 6, "c4": 4}}'
for ev in praha oslo; do live 0 round close "$ev"; done
wait_until 20 bash -c "tmux -S '$SOCK' capture-pane -p -t tui | grep -q '王小明'" ||
    fail "the dashboard does not show 王小明: $(screen)"
screen >"$E2E_TMP/dash.txt"
for n in 'Nguyễn Thị Minh Khai' '王小明' 'Zoë Brontë'; do
    grep -q -F "$n" "$E2E_TMP/dash.txt" || fail "the dashboard does not show \"$n\": $(cat "$E2E_TMP/dash.txt")"
done
grep -q -F '…' "$E2E_TMP/dash.txt" || fail "the long name is not cut with …: $(cat "$E2E_TMP/dash.txt")"
# The points column lines up whatever the names' scripts: the same
# display column on every standings row (perl counts East Asian width).
cols=$(grep -E '^ +[0-9]+\. ' "$E2E_TMP/dash.txt" | perl -CSD -ne '
    use Unicode::GCString; chomp; if (/^(.*?\S)\s+(\d+(\.\d+)?)\s*(DQ|dropped)?\s*$/) {
        print Unicode::GCString->new($1)->columns, "\n" }' 2>/dev/null | sort -u | wc -l)
if perl -MUnicode::GCString -e 1 2>/dev/null; then
    [ "$cols" -le 1 ] || fail "standings columns do not line up: $(cat "$E2E_TMP/dash.txt")"
fi
ok "round 1 closed in both events; the dashboard shows every name whole or cut with …"
# A 4K screen with a small font: 480 x 135 cells, the whole frame drawn.
tm resize-window -t tui -x 480 -y 135 || fail "tmux resize-window"
wait_until 20 bash -c "tmux -S '$SOCK' capture-pane -p -t tui | tail -n 1 | grep -q 'q quit'" ||
    fail "the dashboard at 480x135 has no key line: $(screen | tail -n 3)"
screen | grep -q -F '王小明' || fail "the dashboard at 480x135 lost the names"
[ "$(screen | wc -l)" -ge 135 ] || fail "the dashboard at 480x135 is not full height"
tm resize-window -t tui -x 100 -y 30
ok "the dashboard fills a 480x135 terminal (4K) and still shows the names and keys"

# A disqualification while round 2's draft exists: the draft is planned
# again, never an engine message.
live 0 round pair praha
live 0 player dq praha p3 --reason 'unsporting conduct'
grep -q 'planned again' "$E2E_TMP/out" "$E2E_TMP/err" ||
    fail "DQ with a draft: $(cat "$E2E_TMP/out") $(cat "$E2E_TMP/err")"
live 0 round show praha
grep -q -E '(^| )p3( |$)' "$E2E_TMP/out" && fail "the re-planned draft still seats p3: $(cat "$E2E_TMP/out")"
ok "a disqualification while a draft exists re-plans the draft"
live 0 round publish praha
live 0 round show praha --round 2
grep '^  table ' "$E2E_TMP/out" >"$E2E_TMP/r2"
[ -s "$E2E_TMP/r2" ] || fail "round 2 of praha has no tables: $(cat "$E2E_TMP/out")"
while read -r _ t players; do
    # "ID Name - ID Name": the first word is the first seat's id.
    w=${players%% *}
    live 0 result enter praha 2 "$t" "{\"winner\": \"$w\", \"hq_diff\": 1}"
done <"$E2E_TMP/r2"
live 0 round close praha
live 0 round pair oslo
live 0 round publish oslo
live 0 result enter oslo 2 1 '{"vp": {"c1": 5, "c2": 10, "c3": 7, "c4": 9}}'
live 0 round close oslo

# --- both events finished ---------------------------------------------------------
live 0 standings praha
grep -q 'Final standings' "$E2E_TMP/out" || fail "praha: no Final standings: $(cat "$E2E_TMP/out")"
grep -q 'Szőke Ödön (disqualified)' "$E2E_TMP/out" || fail "praha: the DQ is not marked: $(cat "$E2E_TMP/out")"
live 0 standings oslo
grep -q 'Final standings' "$E2E_TMP/out" || fail "oslo: no Final standings: $(cat "$E2E_TMP/out")"
live 0 log praha
for why in 'spelling on the entry form' 'slip handed to the desk' 'unsporting conduct'; do
    grep -q -F "$why" "$E2E_TMP/out" || fail "the audit log lacks \"$why\": $(cat "$E2E_TMP/out")"
done
live 0 export praha
cp "$E2E_TMP/out" "$E2E_TMP/praha.json"
for n in 'Jiří Šebesta' 'Łukasz Wójcik' 'Øystein Ærø-Hansen'; do
    grep -q -F "$n" "$E2E_TMP/praha.json" || fail "the export lost \"$n\""
done
grep -q -F 'unsporting conduct' "$E2E_TMP/praha.json" || fail "the export lost the DQ reason"
"$TOURNEY" standings "$E2E_TMP/praha.json" >"$E2E_TMP/offline.json" 2>"$E2E_TMP/offline.err" ||
    fail "the export does not read back offline: $(cat "$E2E_TMP/offline.err")"
ok "both events finished: Final standings, DQ marked, reasons in the log and the export, which reads back"
e2e_done
