#!/usr/bin/env bash
# test_console_replan.sh - player changes and draft edits while a draft
# exists (issue 8 part 3), through `tourney live` against the real hub
# and broker (docs/console.md "Corrections"):
# - a swap that creates a rematch is refused (exit 3) naming both players
#   by id and name and the round they met; --force does it and says so;
# - a move that takes a player off the table fixed for them (CM-5) is
#   refused naming the player;
# - a drop, a disqualification and a late entry while a draft exists: the
#   draft is planned again for the new field (the reply says so) and holds
#   exactly the players who play;
# - a no-show before round 1 is withdrawn and the round-1 draft re-planned;
# - NH-7/GT-6: a qualifier who leaves after the cut's round was published
#   and unpublished (not started): the next player in the standings takes
#   the place in the final.
#
# usage: bash test_console_replan.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
need_binaries TOURNEY HUB
start_broker --no-ws --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config
hub_launch
live 0 wait-hub --timeout 20
EV=rp

live 0 event create "$EV" --format neuroshima-hex --title Replan --seed 11 \
    --options '{"swiss_rounds": 2, "cut": 2}'
{
    echo 'id,name'
    for i in 1 2 3 4 5 6 7 8; do echo "p$i,Player $i"; done
} >"$E2E_TMP/players.csv"
live 0 players import "$EV" "$E2E_TMP/players.csv"

# tables ROUND: "TABLE P1 P2" per table of round ROUND (the export).
tables() {
    live 0 export "$EV"
    python3 - "$E2E_TMP/out" "$1" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))
for t in ev["rounds"][int(sys.argv[2]) - 1]["tables"]:
    if "table" in t:
        print(t["table"], *t["players"])
EOF
}
# draft_players: the ids seated in the draft, sorted, one line.
draft_players() {
    live 0 round show "$EV" --json
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(sorted([p for t in d["tables"] for p in t.get("players", [])] + [t["bye"] for t in d["tables"] if "bye" in t])))' "$E2E_TMP/out"
}
# play ROUND: the first seat wins every table by 3; closes the round.
play() {
    local t a b
    live 0 clock start "$EV"
    tables "$1" >"$E2E_TMP/r$1"
    while read -r t a b; do
        live 0 result enter "$EV" "$1" "$t" "{\"winner\": \"$a\", \"hq_diff\": 3}"
    done <"$E2E_TMP/r$1"
    live 0 round close "$EV"
}

# ---- a no-show before round 1: withdrawn, the draft planned again ---------
live 0 player add "$EV" p10 "No Show"
live 0 round pair "$EV"
live 0 player drop "$EV" p10 --reason "did not turn up"
grep -q '^the draft of round 1 was planned again' "$E2E_TMP/out" || fail "no-show: $(cat "$E2E_TMP/out")"
[ "$(draft_players)" = "p1 p2 p3 p4 p5 p6 p7 p8" ] || fail "round 1 draft after the no-show: $(draft_players)"
live 0 export "$EV"
python3 -c 'import json,sys; ev=json.load(open(sys.argv[1])); assert "p10" not in [p["id"] for p in ev["players"]]; assert [c for c in ev["x_audit"]["corrections"] if c["what"] == "player.withdraw" and c["reason"] == "did not turn up"]' "$E2E_TMP/out" ||
    fail "the no-show is still registered or unaudited: $(tail -n 3 "$E2E_TMP/out")"
ok "a no-show before round 1 is withdrawn (audited) and the draft of round 1 planned again without them"
live 0 round publish "$EV"
play 1

# ---- a rematch is refused unless forced ------------------------------------
live 0 round pair "$EV"
read -r _ a b <"$E2E_TMP/r1" # they met at table 1 of round 1
live 0 round show "$EV" --json
other=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a, b = sys.argv[2], sys.argv[3]
for t in d["tables"]:
    ps = t.get("players", [])
    if b in ps and a not in ps:
        print([p for p in ps if p != b][0])
        break' "$E2E_TMP/out" "$a" "$b")
# Swapping a with b's opponent seats a against b again.
[ -n "$other" ] || fail "no opponent of $b in the draft"
live 3 round swap "$EV" 2 "$a" "$other"
grep -q "refused: .*$a (Player ${a#p}) and $b (Player ${b#p}) already played each other in round 1.*add --force" "$E2E_TMP/err" ||
    grep -q "refused: .*$b (Player ${b#p}) and $a (Player ${a#p}) already played each other in round 1.*add --force" "$E2E_TMP/err" ||
    fail "rematch swap: $(cat "$E2E_TMP/err")"
live 0 round show "$EV" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert not [t for t in d["tables"] if sys.argv[2] in t.get("players",[]) and sys.argv[3] in t.get("players",[])]' \
    "$E2E_TMP/out" "$a" "$b" || fail "the refused swap changed the draft"
live 0 round swap "$EV" 2 "$a" "$other" --force
grep -q "^forced: .*already played each other in round 1" "$E2E_TMP/out" || fail "forced swap: $(cat "$E2E_TMP/out")"
ok "a swap creating a rematch is refused naming $a and $b (exit 3, draft unchanged); --force does it and says so"
live 0 round discard "$EV"
live 0 round pair "$EV"

# ---- a move that breaks a fixed table (CM-5) ---------------------------------
live 0 round fix "$EV" p5 1
live 3 round move "$EV" 2 1 3
grep -q 'refused: p5 (Player 5) always plays at table 1 (CM-5), not 3' "$E2E_TMP/err" ||
    fail "move off a fixed table: $(cat "$E2E_TMP/err")"
live 0 round fix "$EV" p5 0
ok "a move taking p5 off their fixed table is refused naming p5"

# ---- drop, DQ, late entry while the draft exists: re-planned -----------------
[ "$(draft_players)" = "p1 p2 p3 p4 p5 p6 p7 p8" ] || fail "draft before: $(draft_players)"
live 0 player drop "$EV" p6
grep -q '^the draft of round 2 was planned again for the new field' "$E2E_TMP/out" || fail "drop: $(cat "$E2E_TMP/out")"
[ "$(draft_players)" = "p1 p2 p3 p4 p5 p7 p8" ] || fail "draft after the drop: $(draft_players)"
live 0 player dq "$EV" p7 --reason "unsporting conduct"
grep -q '^the draft of round 2 was planned again' "$E2E_TMP/out" || fail "dq: $(cat "$E2E_TMP/out")"
[ "$(draft_players)" = "p1 p2 p3 p4 p5 p8" ] || fail "draft after the DQ: $(draft_players)"
live 0 player add "$EV" p9 "Late Comer"
grep -q '^the draft of round 2 was planned again' "$E2E_TMP/out" || fail "late entry: $(cat "$E2E_TMP/out")"
[ "$(draft_players)" = "p1 p2 p3 p4 p5 p8 p9" ] || fail "draft after the late entry: $(draft_players)"
ok "drop, DQ and a late entry while a draft exists: the draft is planned again with exactly the players who play"
live 0 export "$EV"
python3 - "$E2E_TMP/out" <<'EOF' || fail "export: DQ reason: $(tail -n 3 "$E2E_TMP/out")"
import json, sys
ev = json.load(open(sys.argv[1]))
assert ev["disqualified"] == [{"player": "p7", "after_round": 1}], ev["disqualified"]
dq = ev["x_audit"]["disqualifications"]
assert [(d["player"], d["reason"], d["by"]) for d in dq] == [("p7", "unsporting conduct", "organiser:o1")], dq
EOF
ok "the export keeps the disqualification's reason (x_audit)"
live 0 round publish "$EV"
play 2

# ---- GT-6 / NH-7: a qualifier leaves before the final starts ----------------
live 0 standings "$EV" --json
mapfile -t top < <(python3 -c 'import json,sys; print("\n".join(r["player"] for r in json.load(open(sys.argv[1]))["standings"][:3]))' "$E2E_TMP/out")
live 0 round pair "$EV"
[ "$(draft_players)" = "$(printf '%s\n' "${top[0]}" "${top[1]}" | sort | tr '\n' ' ' | sed 's/ $//')" ] ||
    fail "the final is not the top 2 (${top[*]}): $(draft_players)"
live 0 round publish "$EV"
live 0 round unpublish "$EV" --reason "${top[0]} has to leave"
live 0 player drop "$EV" "${top[0]}"
grep -q '^the draft of round 3 was planned again' "$E2E_TMP/out" || fail "qualifier drop: $(cat "$E2E_TMP/out")"
[ "$(draft_players)" = "$(printf '%s\n' "${top[1]}" "${top[2]}" | sort | tr '\n' ' ' | sed 's/ $//')" ] ||
    fail "after ${top[0]} left the final is not ${top[1]} and ${top[2]}: $(draft_players)"
ok "a qualifier who leaves before the final starts is replaced by the next player (GT-6, NH-7)"
e2e_done
