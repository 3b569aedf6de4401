#!/usr/bin/env bash
# test_event_sides.sh - issue 19 item 3 end to end: a netrunner-sss event
# (single-sided Swiss, sides corp/runner, balance 1) played four rounds by
# the real programs: mosquitto, tourney-hub on a temp database, four
# tourney-table devices in --simulate mode, the organiser's `tourney live`.
# Every round: each table's device shows a side for each of its two seats
# (seat lines `side="..."`, docs/table-protocol.md), the two differ; every
# player's balance (corp games - runner games) stays within 1 after every
# round (docs/rules.md "Sides": the format's balance); a second meeting
# plays the other sides.  The hub keeps the sides between rounds (its
# store) and exports them: the export's tables carry exactly the sides the
# devices showed, `tourney standings` accepts it (the validator refuses a
# second meeting on the same sides) and equals `tourney live standings`
# byte for byte (test_service checks the feed's sides).
#
# usage: bash test_event_sides.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"

need_binaries TOURNEY HUB TABLE
command -v python3 >/dev/null || fail "python3 is needed to read the export"
N_DEV=4
EV=nr
ROUNDS=4

start_broker --no-ws --tables $N_DEV --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config

hub_launch
live 0 wait-hub --timeout 20

source "$(dirname -- "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "20-150" 1900
ok "hub and $N_DEV simulated tables online"

# seat_sides DEVICE ROUND TABLE: "PLAYER SIDE" per seat, from the device's
# last assignment to that table of that round ("-" for a seat without).
seat_sides() {
    awk -v want="assigned event=$EV round=$2 table=$3 " '
        index($0, want) == 1 { seen = 1; n = 0; next }
        /^assigned / { seen = 0; next }
        seen && /^seat [0-9]+ id=/ {
            id = $3; sub(/^id=/, "", id)
            side = "-"
            if (match($0, / side="[^"]*"/))
                side = substr($0, RSTART + 7, RLENGTH - 8)
            line[++n] = id " " side
            last = n
        }
        END { for (i = 1; i <= last; i++) print line[i] }' "$E2E_TMP/$1.out"
}

live 0 event create "$EV" --format netrunner-sss --title "Sides" --seed 19 \
    --options "{\"swiss_rounds\": $ROUNDS}"
{
    echo 'id,name'
    for ((i = 1; i <= 8; i++)); do echo "$EV-p$i,Player $i"; done
} >"$E2E_TMP/$EV.csv"
live 0 players import "$EV" "$E2E_TMP/$EV.csv"
for ((i = 1; i <= N_DEV; i++)); do
    live 0 device assign "$(printf 'table-%03d' "$i")" "$EV" "$i"
done

: >"$E2E_TMP/shown"
for ((r = 1; r <= ROUNDS; r++)); do
    live 0 round pair "$EV"
    grep '^  table ' "$E2E_TMP/out" | awk '{ print $2 }' >"$E2E_TMP/tables"
    [ "$(wc -l <"$E2E_TMP/tables")" -eq 4 ] ||
        fail "round $r: expected 4 tables: $(cat "$E2E_TMP/out")"
    live 0 round publish "$EV"
    live 0 clock start "$EV"
    while read -r t; do
        d=$(printf 'table-%03d' "$t")
        wait_until 30 table_done "$d" "$EV" "$r" "$t" ||
            fail "round $r table $t: $d did not finish: $(tail -n 12 "$E2E_TMP/$d.out" | tr '\n' '|')"
        seat_sides "$d" "$r" "$t" >"$E2E_TMP/seats"
        [ "$(wc -l <"$E2E_TMP/seats")" -eq 2 ] ||
            fail "round $r table $t: $d shows $(wc -l <"$E2E_TMP/seats") seats: $(tail -n 12 "$E2E_TMP/$d.out" | tr '\n' '|')"
        # ROUND TABLE SEAT PLAYER SIDE
        awk -v r="$r" -v t="$t" '{ print r, t, NR, $1, $2 }' "$E2E_TMP/seats" >>"$E2E_TMP/shown"
    done <"$E2E_TMP/tables"
    live 0 round close "$EV"
done

# Every seat has a side of the format, the two seats of a table differ,
# every player plays every round, balance within 1 after every round, a
# second meeting plays the other sides.
awk -v rounds="$ROUNDS" '
    $5 != "corp" && $5 != "runner" { print "round " $1 " table " $2 ": " $4 " has no side (" $5 ")"; bad = 1 }
    {
        key = $1 " " $2
        if (key in side) {
            if (side[key] == $5) { print "round " $1 " table " $2 ": both seats " $5; bad = 1 }
            a = other[key]; b = $4
            pair = a < b ? a " " b : b " " a
            sa = (a < b) ? side[key] : $5   # side of the smaller id
            if (pair in met) {
                if (met[pair] == sa) { print "round " $1 ": " pair " meet again on the same sides"; bad = 1 }
                again++
            }
            met[pair] = sa
        } else { side[key] = $5; other[key] = $4 }
        bal[$4] += $5 == "corp" ? 1 : -1
        games[$4]++
        if (bal[$4] > 1 || bal[$4] < -1) { print "round " $1 ": " $4 " balance " bal[$4]; bad = 1 }
    }
    END {
        n = 0
        for (p in games) { n++; if (games[p] != rounds) { print p " played " games[p] " rounds"; bad = 1 } }
        if (n != 8) { print n " players seen, expected 8"; bad = 1 }
        print "second meetings: " again + 0 > "/dev/stderr"
        exit bad
    }' "$E2E_TMP/shown" >"$E2E_TMP/check" 2>"$E2E_TMP/again" ||
    fail "sides shown by the tables: $(head -n 8 "$E2E_TMP/check" | tr '\n' '|')"
ok "$ROUNDS rounds: every table showed a side per seat, balanced within 1, $(cat "$E2E_TMP/again")"

# The export carries the sides the tables showed; it validates and its
# standings are the hub's.
live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.json"
python3 - "$E2E_TMP/export.json" >"$E2E_TMP/exported" <<'PY' || fail "export: $(cat "$E2E_TMP/exported")"
import json, sys
ev = json.load(open(sys.argv[1]))
for r, rnd in enumerate(ev["rounds"], 1):
    for t in rnd["tables"]:
        if "bye" in t:
            continue
        if "sides" not in t:
            print("round %d table %d: no sides" % (r, t["table"]))
            sys.exit(1)
        for seat, (p, s) in enumerate(zip(t["players"], t["sides"]), 1):
            print(r, t["table"], seat, p, s)
PY
sort "$E2E_TMP/shown" >"$E2E_TMP/shown.sorted"
sort "$E2E_TMP/exported" >"$E2E_TMP/exported.sorted"
cmp -s "$E2E_TMP/shown.sorted" "$E2E_TMP/exported.sorted" ||
    fail "export's sides differ from the tables': $(diff "$E2E_TMP/shown.sorted" "$E2E_TMP/exported.sorted" | head -n 6 | tr '\n' '|')"
live 0 standings "$EV" --json
cp "$E2E_TMP/out" "$E2E_TMP/hub.json"
"$TOURNEY" standings "$E2E_TMP/export.json" >"$E2E_TMP/offline.json" 2>"$E2E_TMP/err" ||
    fail "offline standings of the export (validation): $(cat "$E2E_TMP/err")"
cmp -s "$E2E_TMP/offline.json" "$E2E_TMP/hub.json" ||
    fail "standings differ: hub $(head -c 300 "$E2E_TMP/hub.json") offline $(head -c 300 "$E2E_TMP/offline.json")"
grep -q "\"after_round\": $ROUNDS" "$E2E_TMP/hub.json" ||
    fail "standings not after round $ROUNDS: $(head -c 200 "$E2E_TMP/hub.json")"
# Four rounds within balance 1: every row two games on each side.
python3 - "$E2E_TMP/hub.json" >"$E2E_TMP/rows" <<'PY' || fail "standings rows' games per side: $(cat "$E2E_TMP/rows")"
import json, sys
rows = json.load(open(sys.argv[1]))["standings"]
bad = [r for r in rows if r.get("sides") != {"corp": 2, "runner": 2}]
if len(rows) != 8 or bad:
    print(len(rows), "rows;", bad[:2])
    sys.exit(1)
PY
ok "export: the tables' sides, valid; hub standings == tourney standings of the export"

kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
