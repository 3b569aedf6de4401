#!/usr/bin/env bash
# test_console_import.sh - `tourney live event import` (issue 10): events
# from other tools continue on the real tourney-hub over the real venue
# broker.  A real ListFortress event (tests/data/external)
# and a real Pokemon TOM event file are imported with their players, drops
# and rounds; the hub's standings are then those Tourney computes offline
# from the same file, and its export loads back to the same standings.  A
# file with a data error is refused before it leaves (one line naming the
# place in the source), and an existing id is refused by the hub.
#
# usage: bash test_console_import.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-180}
e2e_init "$@"

need_binaries TOURNEY HUB
DATA=$E2E_SRC/tests/data/external
[ -d "$DATA/listfortress" ] || fail "no $DATA/listfortress"

start_broker --no-ws --organisers o1
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20

# same_standings EVENT_ID FILE.json: the hub's standings JSON equals the
# offline standings of FILE (an event file).
same_standings() {
    live 0 standings "$1" --json
    "$TOURNEY" standings "$2" >"$E2E_TMP/offline.json" 2>"$E2E_TMP/err" ||
        fail "offline standings of $2: $(cat "$E2E_TMP/err")"
    cmp -s "$E2E_TMP/out" "$E2E_TMP/offline.json" ||
        fail "$1: hub standings $(head -c 300 "$E2E_TMP/out") != offline $(head -c 300 "$E2E_TMP/offline.json")"
}

# A ListFortress event (14 players, 4 Swiss rounds) on xwing-2.0.
LF=$DATA/listfortress/1000.json
"$TOURNEY" import listfortress "$LF" >"$E2E_TMP/lf.json" ||
    fail "offline import of $LF failed"
live 0 event import lf1000 "$LF" --from listfortress
grep -q "imported event lf1000" "$E2E_TMP/out" || fail "no confirmation: $(cat "$E2E_TMP/out")"
same_standings lf1000 "$E2E_TMP/lf.json"
live 0 export lf1000
cp "$E2E_TMP/out" "$E2E_TMP/lf-export.json"
"$TOURNEY" standings "$E2E_TMP/lf-export.json" | cmp -s - "$E2E_TMP/offline.json" ||
    fail "the hub's export of lf1000 gives other standings"
grep -q '"mov": 1299' "$E2E_TMP/offline.json" || fail "lf1000: the leader's stored MoV 1299 is not Tourney's"
ok "ListFortress event imported: hub standings == offline standings == export's"

# The convention continues in Tourney: the same event with a fifth Swiss
# round, paired and published by the hub, results (two-player: scores and a
# winner) entered at the console, closed; then hub == offline again.
sed -e 's/"swiss_rounds": 4/"swiss_rounds": 5/' -e 's/"rounds": 4,/"rounds": 5,/' \
    "$E2E_TMP/lf.json" >"$E2E_TMP/lf5.json"
grep -q '"swiss_rounds": 5' "$E2E_TMP/lf5.json" || fail "could not make a 5-round copy"
live 0 event import lf5 "$E2E_TMP/lf5.json"
live 0 round pair lf5
grep -q '^paired round 5 of lf5 as a draft' "$E2E_TMP/out" || fail "pair round 5: $(cat "$E2E_TMP/out")"
grep '^  table ' "$E2E_TMP/out" >"$E2E_TMP/tables5"
[ "$(grep -c . "$E2E_TMP/tables5")" -eq 7 ] || fail "14 players, 7 tables expected: $(cat "$E2E_TMP/out")"
live 0 round publish lf5
while read -r _ table players; do
    # "ID Name - ID Name": the first word of each side is the id.
    a=${players%% - *}
    b=${players#* - }
    ids=("${a%% *}" "${b%% *}")
    live 0 result enter lf5 5 "$table" "{\"scores\": {\"${ids[0]}\": 150, \"${ids[1]}\": 60}, \"winner\": \"${ids[0]}\"}"
done <"$E2E_TMP/tables5"
live 0 round close lf5
live 0 export lf5
cp "$E2E_TMP/out" "$E2E_TMP/lf5-export.json"
same_standings lf5 "$E2E_TMP/lf5-export.json"
grep -q '"after_round": 5' "$E2E_TMP/offline.json" || fail "lf5: standings not after round 5"
"$TOURNEY" results "$E2E_TMP/lf5-export.json" | tr -d '\r' >"$E2E_TMP/lf5.csv"
[ "$(grep -c '^5,"swiss",[0-9]*,1,.*,"win 150-60",1$' "$E2E_TMP/lf5.csv")" -eq 7 ] &&
    [ "$(grep -c '^5,"swiss",[0-9]*,2,.*,"loss 60-150",0$' "$E2E_TMP/lf5.csv")" -eq 7 ] ||
    fail "round 5 results in the export: $(grep '^5,' "$E2E_TMP/lf5.csv")"
ok "imported event continued: round 5 paired, published, 7 two-player results entered, closed; hub == offline"

# A registered player who never played (a no-show, after_round 0) stays
# one on the hub: not paired, in the export as such.
NS=$DATA/listfortress/679.json
"$TOURNEY" import listfortress "$NS" >"$E2E_TMP/ns.json" || fail "offline import of $NS"
grep -q '"after_round": 0' "$E2E_TMP/ns.json" || fail "679.json has no no-show any more"
live 0 event import ns679 "$NS" --from listfortress
same_standings ns679 "$E2E_TMP/ns.json"
live 0 export ns679
grep -q '"after_round": 0' "$E2E_TMP/out" || fail "the hub lost the no-show: $(grep -A3 '"drops"' "$E2E_TMP/out")"
ok "a no-show imported stays a no-show on the hub"

# Issue 19: a ListFortress top cut whose source seeded it otherwise than
# Tourney's standings (its seeds kept in cut_seeds, with a warning on
# stderr) and a Cobra export taken mid-round (the round in progress, which
# the hub continues) come in as offline.
CS=$DATA/listfortress/1001.json
"$TOURNEY" import listfortress "$CS" >"$E2E_TMP/cs.json" 2>/dev/null || fail "offline import of $CS"
grep -q '"cut_seeds"' "$E2E_TMP/cs.json" || fail "1001.json no longer needs cut_seeds"
live 0 event import cs1001 "$CS" --from listfortress
grep -q 'warning: listfortress: rounds\[[0-9]*\] (elimination round [0-9]*): the cut is not seeded' "$E2E_TMP/err" ||
    fail "cs1001: no warning: $(cat "$E2E_TMP/err")"
same_standings cs1001 "$E2E_TMP/cs.json"
live 0 export cs1001
grep -q '"cut_seeds"' "$E2E_TMP/out" || fail "the hub lost cut_seeds"
MID=$E2E_SRC/tests/cases/import/cobra-dss-midround.json
"$TOURNEY" import nrtm "$MID" >"$E2E_TMP/mid.json" 2>/dev/null || fail "offline import of $MID"
live 0 event import mid "$MID" --from nrtm
same_standings mid "$E2E_TMP/mid.json"
grep -q '"after_round": 2' "$E2E_TMP/offline.json" || fail "mid: standings not after round 2"
# The hub continues the round in progress: its two open tables' results
# entered at the console, the round closed, standings after round 3.
live 0 result enter mid 3 2 '{"scores": {"p3": 6, "p2": 0}, "winner": "p3"}'
live 0 result enter mid 3 3 '{"scores": {"p4": 3, "p6": 3}, "draw": true}'
live 0 round close mid
live 0 standings mid --json
grep -q '"after_round": 3' "$E2E_TMP/out" || fail "mid: round 3 not closed: $(head -c 300 "$E2E_TMP/out")"
ok "a cut with the source's seeds and a Cobra round in progress imported: hub == offline; the hub finishes the round"

# A Pokemon TOM event file as it is (no --from).
TOM=$DATA/tom/vg19.event.json
live 0 event import vg19 "$TOM"
same_standings vg19 "$TOM"
ok "TOM event file imported: hub standings == offline standings"

# Refused before sending: a real data error, one line naming the place.
live 2 event import lf1002 "$DATA/listfortress/1002.json" --from listfortress
grep -q '^tourney: listfortress: rounds\[0\] (swiss round 1).matches\[7\]: participant 16 is seated twice' "$E2E_TMP/err" ||
    grep -q 'listfortress: rounds\[0\] (swiss round 1).matches\[7\]: participant 16 is seated twice' "$E2E_TMP/err" ||
    fail "1002.json: $(cat "$E2E_TMP/err")"
[ "$(grep -c . "$E2E_TMP/err")" -eq 1 ] || fail "more than one line: $(cat "$E2E_TMP/err")"
live 0 event list
grep -q lf1002 "$E2E_TMP/out" && fail "a refused import created lf1002"
# Refused by the hub: the id exists.
live 3 event import lf1000 "$LF" --from listfortress
grep -q 'already exists' "$E2E_TMP/err" || fail "second import: $(cat "$E2E_TMP/err")"
ok "data errors refused with one line; an existing id refused by the hub"
