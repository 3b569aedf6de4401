#!/usr/bin/env bash
# test_console_judge_day.sh - a head judge's ordinary mistakes (issue 22),
# made on purpose through `tourney live` against the real hub, the real
# venue broker and two real headless tables:
# - `round close` while table 2 still plays is refused and changes
#   nothing: no clock row in the audit log, `round show` and table 2 keep
#   the clock running, and so does a hub restarted afterwards (item 1);
# - a judge call pauses table 2 alone (`clock pause --table 2`): it shows
#   PAUSED while table 1 runs on; resumed, it has its time back; a 90
#   minute extension meant as seconds is taken back with --undo, and more
#   than was given cannot be; `round show` prints the time left (item 6);
# - a reason with a newline cannot forge a line of `tourney live log`;
#   `players list` prints an imported name's ESC as \x1b; the standings CSV
#   of a player named =1+1 has '=1+1 (item 10);
# - the last round's close frees both devices (the event is finished);
#   a played event cannot be deleted, a mistyped one can (audited, the id
#   is free again); `lots` says an edited round 1 is not as drawn (item 9).
#
# usage: bash test_console_judge_day.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
hl_hub 2
EV=day

# hl_new_has_re DEVICE REGEX: a line after the mark matches REGEX.
hl_new_has_re() {
    tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" | grep -q -E -e "$2"
}

hl_nh_round "$EV" 7 table-001 table-002
for d in table-001 table-002; do
    hl_conf "$d" 'display = "headless"'
    hl_start "$d" "$TABLE"
done
hl_assigned table-001 "$EV" 1
s1=$HL_SEATS
hl_assigned table-002 "$EV" 2
a=${s1%%,*} b=${s1##*,}
live 0 player edit "$EV" "$a" --name '=1+1' --reason 'a joker at registration'
live 0 clock start "$EV"
wait_until 30 grep -q 'state=running' "$E2E_TMP/table-002.out" || fail "no running clock; $(hl_tail table-002)"

# ---- item 1: a refused close changes nothing --------------------------------
hl_say table-001 "result winner=$a hq_diff=5" "confirm $a" "confirm $b"
wait_until 30 grep -q '^ack accepted ' "$E2E_TMP/table-001.out" || fail "not accepted; $(hl_tail table-001)"
live 0 log "$EV" --json
saves=$(grep -c '"clock.save"' "$E2E_TMP/out")
hl_mark table-002
live 3 round close "$EV"
grep -q 'table 2 has no result yet' "$E2E_TMP/err" || fail "close: $(cat "$E2E_TMP/err")"
live 0 log "$EV" --json
[ "$(grep -c '"clock.save"' "$E2E_TMP/out")" = "$saves" ] ||
    fail "the refused close saved the clock: $(grep -A3 clock.save "$E2E_TMP/out" | tail -n 8)"
live 0 round show "$EV" --json
python3 - "$E2E_TMP/out" <<'EOF' || fail "round show after the refused close: $(cat "$E2E_TMP/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "started" and r["clock"]["state"] == "running", r
EOF
sleep 1
if tail -n +"$((HL_MARK[table-002] + 1))" "$E2E_TMP/table-002.out" | grep -q 'state=paused'; then
    fail "table 2 shows a paused clock after the refused close; $(hl_tail table-002)"
fi
kill_wait "$HUB_PID"
hub_launch
live 0 wait-hub --timeout 20
live 0 round show "$EV" --json
python3 - "$E2E_TMP/out" <<'EOF' || fail "after a restart: $(cat "$E2E_TMP/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["clock"]["state"] == "running", r
EOF
ok "round close with table 2 playing: refused, no clock saved, still running (after a restart too)"

# ---- item 6: one table paused for a judge call; an extension taken back ----
hl_mark table-001
hl_mark table-002
live 0 clock pause "$EV" --table 2 --reason 'judge call: rules question'
wait_until 30 hl_new_has_re table-002 'state=paused' || fail "table 2 not paused; $(hl_tail table-002)"
live 0 round show "$EV"
grep -q '^  clock .* left (running)$' "$E2E_TMP/out" || fail "round show: no round time left: $(cat "$E2E_TMP/out")"
grep -E -q '^  table 2 .*clock [0-9]+:[0-9]{2} left \(paused\)$' "$E2E_TMP/out" ||
    fail "round show: table 2 not paused: $(cat "$E2E_TMP/out")"
if tail -n +"$((HL_MARK[table-001] + 1))" "$E2E_TMP/table-001.out" | grep -q 'state=paused'; then
    fail "table 1 was paused too; $(hl_tail table-001)"
fi
sleep 3
hl_mark table-002
live 0 clock resume "$EV" --table 2
wait_until 30 hl_new_has_re table-002 'state=running' || fail "table 2 not resumed; $(hl_tail table-002)"
live 0 round show "$EV" --json
python3 - "$E2E_TMP/out" <<'EOF' || fail "after the resume: $(cat "$E2E_TMP/out")"
import json, sys
r = json.load(open(sys.argv[1]))
t2 = [t for t in r["tables"] if t.get("table") == 2][0]
# Table 2 got the paused seconds back: more time left than the round.
assert t2["clock"]["state"] == "running", t2
assert t2["clock"]["left_ms"] - r["clock"]["left_ms"] >= 2500, (t2, r["clock"])
EOF
ok "judge call: table 2 paused alone, resumed with its time back"
live 0 clock extend "$EV" 90 --table 2
live 0 round show "$EV" --json
before=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([t for t in r["tables"] if t.get("table")==2][0]["clock"]["left_ms"])' "$E2E_TMP/out")
live 0 clock extend "$EV" 90 --table 2 --undo --reason 'meant 90 seconds'
grep -q '^took back' "$E2E_TMP/out" || fail "undo: $(cat "$E2E_TMP/out")"
live 0 round show "$EV" --json
after=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([t for t in r["tables"] if t.get("table")==2][0]["clock"]["left_ms"])' "$E2E_TMP/out")
[ $((before - after)) -ge $((90 * 60000 - 5000)) ] || fail "90 minutes not taken back: $before then $after"
live 3 clock extend "$EV" 10 --table 2 --undo
grep -q 'cannot be taken back' "$E2E_TMP/err" || fail "undo too much: $(cat "$E2E_TMP/err")"
ok "a mistaken 90-minute extension taken back with --undo; more than was given is refused"

# ---- item 10: a reason cannot forge a log line --------------------------------
seats2=$(hl_last table-002 "s/^assigned event=$EV round=1 table=2 .* seats=\([^ ]*\).*/\1/p")
c=${seats2%%,*}
live 0 result enter "$EV" 1 2 "{\"winner\": \"$c\", \"hq_diff\": 3}" \
    --reason $'slip handed in\n2001-01-01 00:00:00  organiser:o9  result.forged  table=2'
live 0 log "$EV"
if grep -q '^2001-01-01' "$E2E_TMP/out"; then fail "a reason forged a log line: $(cat "$E2E_TMP/out")"; fi
grep -q -F 'slip handed in\n2001-01-01' "$E2E_TMP/out" || fail "the reason is not shown escaped: $(cat "$E2E_TMP/out")"
ok "a reason with a newline prints on its own log line, escaped"

# ---- item 9: the last close frees the devices ----------------------------------
live 0 round close "$EV"
grep -q 'its 2 devices are free for the next event' "$E2E_TMP/out" "$E2E_TMP/err" ||
    fail "close of the last round: $(cat "$E2E_TMP/out" "$E2E_TMP/err")"
live 0 devices --json
python3 - "$E2E_TMP/out" <<'EOF' || fail "devices after the event finished: $(cat "$E2E_TMP/out")"
import json, sys
devs = json.load(open(sys.argv[1]))
assert devs and all(d.get("event") is None for d in devs), devs
EOF
hl_expect table-001 'assigned none'
ok "the finished event's devices are free (tables wait)"
live 0 standings "$EV" --csv
grep -q -F "\"'=1+1\"" "$E2E_TMP/out" || fail "standings CSV: the formula is not neutralised: $(cat "$E2E_TMP/out")"
if grep -q -F '"=1+1"' "$E2E_TMP/out"; then fail "standings CSV has a formula: $(cat "$E2E_TMP/out")"; fi
ok "standings CSV: a name =1+1 is written '=1+1"
live 3 event delete "$EV"
grep -q 'only an event not yet played can be deleted' "$E2E_TMP/err" || fail "delete a played event: $(cat "$E2E_TMP/err")"

# ---- a mistyped event: names with ESC, then deleted ------------------------------
printf '{"format": "catan", "seed": 3, "players": [{"id": "e1", "name": "\\u001b[31mRed\\u001b[0m"}, {"id": "e2", "name": "Bo"}, {"id": "e3", "name": "Cy"}, {"id": "e4", "name": "Di"}]}\n' \
    >"$E2E_TMP/esc.json"
live 0 event import typo "$E2E_TMP/esc.json"
live 0 players list typo
if grep -q $'\x1b' "$E2E_TMP/out"; then fail "players list printed a raw ESC"; fi
grep -q -F '\x1b[31mRed\x1b[0m' "$E2E_TMP/out" || fail "players list: $(cat -v "$E2E_TMP/out")"
ok "players list prints an imported ESC as \\x1b"
live 0 event delete typo --reason 'imported into the wrong event'
live 0 event list
if grep -q typo "$E2E_TMP/out"; then fail "deleted event still listed: $(cat "$E2E_TMP/out")"; fi
live 0 event create typo --format catan --seed 1
live 0 log typo # the log keeps the deleted event's rows under its id
grep -q 'event.delete.*-- reason: imported into the wrong event' "$E2E_TMP/out" || fail "log of the deleted event: $(cat "$E2E_TMP/out")"
ok "a mistyped event is deleted (audited) and its id used again"

# ---- lots: an edited round 1 is not "as drawn" ---------------------------------
live 0 event create ed --format neuroshima-hex --seed 5 --options '{"swiss_rounds": 1, "cut": 0}'
printf 'id,name\nq1,Q One\nq2,Q Two\nq3,Q Three\nq4,Q Four\n' >"$E2E_TMP/ed.csv"
live 0 players import ed "$E2E_TMP/ed.csv"
live 0 round pair ed --json
read -r x y < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); t=[t for t in r["tables"] if "table" in t]; print(t[0]["players"][0], t[1]["players"][0])' "$E2E_TMP/out")
live 0 round swap ed 1 "$x" "$y"
live 0 round publish ed
live 0 lots ed
grep -q '^round 1 (swiss): .*as published, EDITED after the draw' "$E2E_TMP/out" || fail "lots: $(cat "$E2E_TMP/out")"
grep -q "^round 1 edited by organiser:o1: swap $x and $y\$" "$E2E_TMP/out" ||
    fail "lots does not list the edit: $(cat "$E2E_TMP/out")"
if grep -q 'as drawn:' "$E2E_TMP/out"; then fail "lots calls the edited round as drawn: $(cat "$E2E_TMP/out")"; fi
ok "lots: the edited round 1 is as published, with the swap listed"
e2e_done
