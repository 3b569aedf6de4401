#!/usr/bin/env bash
# test_console_corrections.sh - the organiser corrects things (issue 8
# part 3) through `tourney live` against the real hub, the real venue
# broker and two real headless tables (docs/console.md "Corrections"):
# - a draft is discarded and paired again; `round show` then has none;
# - a published round whose clock never started is unpublished: the tables
#   go back to waiting (`assigned none`), the round is a draft again, and
#   publishing it brings them back; once started it is refused;
# - a player is renamed and a club fixed mid-round: the table shows the
#   new name at once, the export has it;
# - a result the organiser enters is pushed to the table, which shows it
#   as the organiser's and takes no entry of its own;
# - a conflict (the table's entry in flight while the organiser enters
#   another) shows both submissions (who, when, values); closing is
#   refused; resolving keeps the table's one, which then counts;
# - a closed round is reopened while the next round is a draft (the draft
#   goes, the reply says so), corrected with --override, closed again; once
#   round 2 is published, reopening round 1 is refused naming round 2
#   (CM-5);
# - after the last round the event is finished: `event list` says so and
#   `standings` prints "Final standings";
# - `tourney live log` shows who did what, when (local time) and why.
#
# usage: bash test_console_corrections.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
hl_hub 2
EV=corr

live 0 event create "$EV" --format neuroshima-hex --title "Corrections" --seed 7 \
    --options '{"swiss_rounds": 2, "cut": 0}'
printf 'id,name,club\np1,Player 1,A\np2,Player 2,B\np3,Player 3,C\np4,Player 4,D\n' \
    >"$E2E_TMP/players.csv"
live 0 players import "$EV" "$E2E_TMP/players.csv"
for d in table-001 table-002; do
    live 0 device assign "$d" "$EV" "${d#table-00}"
    hl_conf "$d" 'display = "headless"'
    hl_start "$d" "$TABLE"
    hl_expect "$d" 'state waiting'
done

# ---- discard a draft ------------------------------------------------------
live 0 round pair "$EV"
live 0 round discard "$EV" --reason "registration was still open"
grep -q '^discarded the draft of round 1 of corr' "$E2E_TMP/out" ||
    fail "discard: $(cat "$E2E_TMP/out")"
live 3 round show "$EV"
live 3 round discard "$EV"
grep -q 'no draft to discard' "$E2E_TMP/err" || fail "second discard: $(cat "$E2E_TMP/err")"
ok "a draft is discarded (then there is none to show or discard)"

# ---- unpublish a round that has not started ------------------------------
live 0 round pair "$EV"
live 0 round publish "$EV"
hl_assigned table-001 "$EV" 1
hl_assigned table-002 "$EV" 2
hl_mark table-001
hl_mark table-002
live 0 round unpublish "$EV" --reason "wrong table plan"
grep -q '^unpublished round 1 of corr: the tables wait again' "$E2E_TMP/out" ||
    fail "unpublish: $(cat "$E2E_TMP/out")"
grep -q '^round 1 (swiss), draft' "$E2E_TMP/out" || fail "unpublish shows no draft: $(cat "$E2E_TMP/out")"
hl_expect_new table-001 'assigned none'
hl_expect_new table-002 'assigned none'
hl_expect_new table-001 'state waiting'
live 0 round show "$EV"
ok "unpublished: both tables back to waiting, the round is a draft again"
hl_mark table-001
live 0 round publish "$EV"
hl_expect_new table-001 'state playing'
live 0 clock start "$EV"
live 3 round unpublish "$EV"
grep -q 'round 1 has started' "$E2E_TMP/err" || fail "unpublish started: $(cat "$E2E_TMP/err")"
ok "published again; a started round cannot be unpublished (exit 3, says why)"

# ---- rename a player, fix a club -----------------------------------------
seats1=$(hl_last table-001 "s/^assigned event=$EV round=1 table=1 .* seats=\([^ ]*\).*/\1/p")
seats2=$(hl_last table-002 "s/^assigned event=$EV round=1 table=2 .* seats=\([^ ]*\).*/\1/p")
a=${seats1%%,*} b=${seats1##*,} c=${seats2%%,*} e=${seats2##*,}
hl_mark table-001
live 0 player edit "$EV" "$a" --name "Anna Novak" --club "Brno" --reason "typo at registration"
grep -q "^changed $a in corr" "$E2E_TMP/out" || fail "edit: $(cat "$E2E_TMP/out")"
hl_expect_new table-001 "seat 1 id=$a name=\"Anna Novak\"" 
live 2 player edit "$EV" "$a"
live 3 player edit "$EV" nobody --name X
ok "renamed $a: table 1 shows the new name at once; nothing to change / unknown player refused"

# ---- a conflict: both submissions, resolved by keeping one ---------------
# The table's entry is on its way (the device is stopped between the two
# confirmations) when the organiser enters a different result: the
# table's submission then conflicts.
hl_say table-001 "result winner=$b hq_diff=5" "confirm $a"
hl_expect table-001 "confirmed $a need=$b"
kill -STOP "${HL_PID[table-001]}"
live 0 result enter "$EV" 1 1 "{\"winner\": \"$a\", \"hq_diff\": 3}" --reason "slip handed in"
hl_say table-001 "confirm $b"
kill -CONT "${HL_PID[table-001]}"
wait_until 30 grep -q '^ack conflict ' "$E2E_TMP/table-001.out" || fail "no conflict; $(hl_tail table-001)"
hl_expect table-001 "organiser_result by=\"organiser:o1\" result={\"winner\":\"$a\",\"hq_diff\":3}"
hl_expect table-001 'state done'
hl_say table-001 "result winner=$b hq_diff=6"
hl_expect table-001 'error result: entered by the organiser (organiser:o1); only the organiser can change it'
ok "the organiser's result is pushed to the table (shown as the organiser's, no entry taken)"
live 0 result show "$EV" 1 --table 1
grep -q 'open conflict' "$E2E_TMP/out" || fail "result show: $(cat "$E2E_TMP/out")"
grep -E -q "^  table 1 +id [0-9]+ +counted +[0-9-]+ [0-9:]+ by organiser:o1 .*\"winner\": ?\"$a\"" "$E2E_TMP/out" ||
    fail "the organiser's submission is not shown: $(cat "$E2E_TMP/out")"
line=$(grep -E "^  table 1 +id [0-9]+ +conflict +[0-9-]+ [0-9:]+ by device:table-001 .*\"winner\": ?\"$b\"" "$E2E_TMP/out") ||
    fail "the table's submission is not shown: $(cat "$E2E_TMP/out")"
keep=$(sed -E 's/^  table 1 +id ([0-9]+) .*/\1/' <<<"$line")
ok "result show: both submissions with who, when and values"
hl_say table-002 "result winner=$c hq_diff=2" "confirm $c" "confirm $e"
wait_until 30 grep -q '^ack accepted ' "$E2E_TMP/table-002.out" || fail "not accepted; $(hl_tail table-002)"
live 3 round close "$EV"
grep -q 'table 1 has a conflicting result' "$E2E_TMP/err" || fail "close with conflict: $(cat "$E2E_TMP/err")"
live 0 result resolve "$EV" 1 1 --keep "$keep" --reason "players agreed on the table's result"
# The reply names the result the organiser kept (CM-6), not only the row
# that now counts it.
grep -q "round 1 of $EV: result $keep kept, counted as result [0-9][0-9]*\$" "$E2E_TMP/out" ||
    fail "resolve's reply does not name the kept result $keep: $(cat "$E2E_TMP/out")"
live 0 result show "$EV" 1 --table 1 --json
python3 - "$E2E_TMP/out" "$b" <<'EOF' || fail "after resolve: $(cat "$E2E_TMP/out")"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
counted = [r for r in rows if r["status"] == "counted"]
assert len(counted) == 1 and counted[0]["result"]["winner"] == sys.argv[2], rows
assert counted[0]["by"] == "organiser:o1", rows
assert not [r for r in rows if r["status"] == "conflict"], rows
EOF
hl_expect table-001 "organiser_result by=\"organiser:o1\" result={\"winner\":\"$b\",\"hq_diff\":5}"
ok "resolved: the table's result counts, no conflict left; the table shows it"
live 0 round close "$EV"

# ---- reopen a closed round ----------------------------------------------
live 0 round pair "$EV"
live 0 round reopen "$EV" 1 --reason "table 2 reported the wrong HQ difference"
grep -q '^reopened round 1 of corr.*the draft of round 2 was paired from these standings and is discarded' "$E2E_TMP/out" ||
    fail "reopen: $(cat "$E2E_TMP/out")"
# No draft any more: `round show` shows the reopened round itself.
live 0 round show "$EV"
grep -q '^round 1 ' "$E2E_TMP/out" || fail "round show after reopen: $(cat "$E2E_TMP/out")"
if grep -q 'draft' "$E2E_TMP/out"; then fail "a discarded draft is still shown: $(cat "$E2E_TMP/out")"; fi
live 0 result enter "$EV" 1 2 "{\"winner\": \"$c\", \"hq_diff\": 9}" --override --reason "score slip misread"
live 0 round close "$EV"
live 0 standings "$EV" --json
python3 - "$E2E_TMP/out" "$c" <<'EOF' || fail "standings after the correction: $(cat "$E2E_TMP/out")"
import json, sys
rows = json.load(open(sys.argv[1]))["standings"]
row = [r for r in rows if r["player"] == sys.argv[2]][0]
assert row["tiebreaks"].get("hq_diff") == 9, row
EOF
ok "reopened (the draft of round 2 discarded, said so), corrected, closed: standings follow"
live 0 round pair "$EV"
live 0 round publish "$EV"
live 3 round reopen "$EV" 1
grep -q 'round 2 (published) was paired from its standings' "$E2E_TMP/err" ||
    fail "reopen under a published round: $(cat "$E2E_TMP/err")"
ok "reopening round 1 under a published round 2 is refused, naming it (CM-5)"

# ---- the event finishes ------------------------------------------------------
live 0 clock start "$EV"
live 0 export "$EV"
python3 - "$E2E_TMP/out" >"$E2E_TMP/r2" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))
for t in ev["rounds"][1]["tables"]:
    if "table" in t:
        print(t["table"], t["players"][0])
EOF
while read -r t w; do
    live 0 result enter "$EV" 2 "$t" "{\"winner\": \"$w\", \"hq_diff\": 1}"
done <"$E2E_TMP/r2"
live 0 event list --json
grep -q '"status": "running"' "$E2E_TMP/out" || fail "status before close: $(cat "$E2E_TMP/out")"
live 0 round close "$EV"
live 0 event list --json
grep -q '"status": "finished"' "$E2E_TMP/out" || fail "status after the last round: $(cat "$E2E_TMP/out")"
live 0 standings "$EV"
head -n 1 "$E2E_TMP/out" | grep -q -x 'Final standings' || fail "standings: $(cat "$E2E_TMP/out")"
live 0 standings "$EV" --after-round 1
grep -q 'Final standings' "$E2E_TMP/out" && fail "standings after round 1 called final"
live 0 export "$EV"
grep -q '"name": "Anna Novak"' "$E2E_TMP/out" && grep -q '"club": "Brno"' "$E2E_TMP/out" ||
    fail "export lacks the edit"
python3 - "$E2E_TMP/out" <<'EOF' || fail "export audit: $(tail -n 3 "$E2E_TMP/out")"
import json, sys
audit = json.load(open(sys.argv[1]))["x_audit"]
what = [(c["what"], c.get("reason")) for c in audit["corrections"]]
assert ("result.correct", "score slip misread") in what, what
assert ("result.correct", "players agreed on the table's result") in what, what
assert ("player.edit", "typo at registration") in what, what
assert all(c["by"] == "organiser:o1" and c["time_ms"] > 0 for c in audit["corrections"])
EOF
"$TOURNEY" standings "$E2E_TMP/out" >/dev/null 2>"$E2E_TMP/err" ||
    fail "the export with x_audit does not read back: $(cat "$E2E_TMP/err")"
ok "after the last round: event finished, \"Final standings\"; the export keeps who corrected what and why (x_audit) and reads back"

# ---- the audit log ------------------------------------------------------------
live 0 log "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/log.txt"
ts='[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}'
for want in \
    "round.discard .*-- reason: registration was still open" \
    "round.unpublish .*round=1 .*-- reason: wrong table plan" \
    "player.edit .*player=$a .*Anna Novak.*-- reason: typo at registration" \
    "result.enter .*table=1.*-- reason: slip handed in" \
    "result.correct .*table=1.*-- reason: players agreed on the table's result" \
    "round.reopen .*round=1 discarded_draft=2 .*-- reason: table 2 reported the wrong HQ difference" \
    "result.correct .*table=2.*-- reason: score slip misread" \
    "event.status .*finished"; do
    grep -E -q "^$ts  organiser:o1 +$want" "$E2E_TMP/log.txt" ||
        fail "log: no \"$want\": $(cat "$E2E_TMP/log.txt")"
done
grep -E -q "^$ts  device:table-001 +submit.conflict .*table=1 .*result_id=$keep " "$E2E_TMP/log.txt" ||
    fail "log: the table's submission is missing: $(cat "$E2E_TMP/log.txt")"
# Local time: the first row's time is the hub's time_ms in this TZ.
live 0 log "$EV" --json
ms=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["time_ms"])' "$E2E_TMP/out")
want=$(date -d "@$((ms / 1000))" '+%Y-%m-%d %H:%M:%S')
sed -n 2p "$E2E_TMP/log.txt" | grep -q "^$want  " || fail "log time not local ($want): $(sed -n 2p "$E2E_TMP/log.txt")"
ok "the audit log: who, what, when (local time), why"

hl_quit table-001
hl_quit table-002
e2e_done
