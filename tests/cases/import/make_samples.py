# Generates the NRTM / AesopsTables samples of tests/cases/import (issue 19).
# Usage: cd tests/cases/import && python3 make_samples.py (writes the *.json
# files and the swiss_order each is expected to import with: the order of
# the ranks the file stores, computed with Cobra's formulas: points, SoS =
# mean of opponents' points per round played, eSoS = mean of their SoS).
import json
from fractions import Fraction as F

NAMES = ["Ada Vance", "Bram Okafor", "Cleo Marsh", "Dev Patel", "Edda Lind",
         "Finn Rhee", "Gia Moretti", "Hal Brandt"]
CORPS = ["Haas-Bioroid: Precision Design", "Jinteki: Restoring Humanity",
         "NBN: Reality Plus", "Weyland Consortium: Built to Last"]
RUNNERS = ["Zahya Sadeghi: Versatile Smuggler", "Lat: Ethical Freelancer",
           "Esa Afontov: Eco-Insurrectionist", "Hoshiko Shiro: Untold Protagonist"]

def standings(ids, rounds, per_round):
    pts = {i: 0 for i in ids}; opps = {i: [] for i in ids}; played = {i: 0 for i in ids}
    for rnd in rounds:
        for (a, b, sa, sb) in rnd:
            if sa is None:
                continue
            if b is None:
                pts[a] += sa
                continue
            pts[a] += sa; pts[b] += sb
            opps[a].append(b); opps[b].append(a)
            played[a] += 1; played[b] += 1
    def ppr(i):
        return F(pts[i], played[i]) if played[i] else F(0)
    sos = {i: (sum(ppr(o) for o in opps[i]) / len(opps[i]) if opps[i] else F(0)) for i in ids}
    esos = {i: (sum(sos[o] for o in opps[i]) / len(opps[i]) if opps[i] else F(0)) for i in ids}
    order = sorted(ids, key=lambda i: (-pts[i], -sos[i], -esos[i]))
    return order, pts, sos, esos

def cobra(name, ids, rounds, per_round, cut=None, single=False):
    order, pts, sos, esos = standings(ids, rounds, per_round)
    players = []
    for i in ids:
        k = i - 1
        players.append({"id": i, "name": NAMES[k], "rank": order.index(i) + 1,
                        "corpIdentity": CORPS[k % 4], "runnerIdentity": RUNNERS[k % 4],
                        "matchPoints": pts[i],
                        "strengthOfSchedule": "%.4f" % float(sos[i]),
                        "extendedStrengthOfSchedule": "%.6f" % float(esos[i])})
    jr = []
    for rnd in rounds:
        ms = []
        t = 1
        for (a, b, sa, sb) in rnd:
            if b is None:
                ms.append({"table": None, "player1": {"id": a, "role": None, "runnerScore": None, "corpScore": None, "combinedScore": sa},
                           "player2": {"id": None, "role": None, "runnerScore": None, "corpScore": None, "combinedScore": None},
                           "intentionalDraw": False, "twoForOne": False, "eliminationGame": False})
                continue
            def seat(i, s):
                if s is None:
                    return {"id": i, "role": None, "runnerScore": None, "corpScore": None, "combinedScore": None}
                # double-sided: split into the corp and runner game
                c = min(s, 3); r = s - c
                return {"id": i, "role": None, "runnerScore": r, "corpScore": c, "combinedScore": s}
            ms.append({"table": t, "player1": seat(a, sa), "player2": seat(b, sb),
                       "intentionalDraw": False, "twoForOne": False, "eliminationGame": False})
            t += 1
        jr.append(ms)
    doc = {"name": name, "date": "2026-03-14", "cutToTop": cut or 0,
           "preliminaryRounds": len(rounds), "tournamentOrganiser": {"nrdbId": None, "nrdbUsername": None},
           "players": players, "eliminationPlayers": [], "rounds": jr, "uploadedFrom": "Cobra",
           "links": [{"rel": "schemaderivedfrom", "href": "http://steffens.org/nrtm/nrtm-schema.json"},
                     {"rel": "uploadedfrom", "href": "https://github.com/Project-NISEI/cobra"}]}
    return doc, order

# 8 players, 3 double-sided Swiss rounds (6 a sweep, 3-3 a split, 4-1 a win
# and a timed-out tie), then a top-4 double-elimination cut (roles set).
R1 = [(1, 8, 6, 0), (2, 7, 3, 3), (3, 6, 6, 0), (4, 5, 4, 1)]
R2 = [(1, 3, 3, 3), (4, 2, 6, 0), (7, 5, 6, 0), (6, 8, 3, 3)]
R3 = [(1, 4, 6, 0), (3, 7, 4, 1), (2, 6, 6, 0), (5, 8, 3, 3)]
doc, order = cobra("Store Championship (double-sided)", list(range(1, 9)), [R1, R2, R3], 6, cut=4)
top = order[:4]
def elim(a, b, winner_role_corp_a, wa):
    ra = "corp" if winner_role_corp_a else "runner"
    rb = "runner" if ra == "corp" else "corp"
    def seat(i, role, won):
        return {"id": i, "role": role, "runnerScore": (3 if won else 0) if role == "runner" else None,
                "corpScore": (3 if won else 0) if role == "corp" else None, "combinedScore": 3 if won else 0,
                "winner": won}
    return {"table": 1, "player1": seat(a, ra, wa), "player2": seat(b, rb, not wa),
            "intentionalDraw": False, "twoForOne": False, "eliminationGame": True}
doc["rounds"].append([elim(top[0], top[3], True, True), elim(top[1], top[2], False, False)])
doc["rounds"].append([elim(top[0], top[2], False, True), elim(top[3], top[1], True, True)])
doc["eliminationPlayers"] = [{"id": p, "name": NAMES[p - 1], "rank": k + 1, "seed": k + 1} for k, p in enumerate(top)]
json.dump(doc, open("cobra-dss-topcut.json", "w"), indent=2)
json.dump({"swiss_order": order}, open("cobra-dss-topcut.expect.json", "w"))

# Mid-round: 6 players, round 3 being played (one pairing reported).
M1 = [(1, 2, 6, 0), (3, 4, 3, 3), (5, 6, 4, 1)]
M2 = [(1, 3, 3, 3), (5, 4, 6, 0), (2, 6, 6, 0)]
M3 = [(1, 5, 4, 1), (3, 2, None, None), (4, 6, None, None)]
doc, order = cobra("Game Night (export taken during round 3)", list(range(1, 7)), [M1, M2], 6)
d3, _ = cobra("x", list(range(1, 7)), [M1, M2, M3], 6)
doc["rounds"] = d3["rounds"]
doc["preliminaryRounds"] = 4
# Cobra writes 0 for an unreported pairing's scores
for m in doc["rounds"][2][1:]:
    for s in ("player1", "player2"):
        m[s].update({"runnerScore": 0, "corpScore": 0, "combinedScore": 0})
json.dump(doc, open("cobra-dss-midround.json", "w"), indent=2)
json.dump({"swiss_order": order, "rounds_done": 2}, open("cobra-dss-midround.expect.json", "w"))

# Out of range: a combined score of 8 (Cobra accepted a mistyped 5+3).
O1 = [(1, 2, 8, 0), (3, 4, 3, 3)]
O2 = [(1, 3, 6, 0), (2, 4, 4, 1)]
doc, order = cobra("Regional (a stored score out of range)", [1, 2, 3, 4], [O1, O2], 6)
json.dump(doc, open("cobra-dss-out-of-range.json", "w"), indent=2)
json.dump({"swiss_order": order}, open("cobra-dss-out-of-range.expect.json", "w"))

# AesopsTables, single-sided: corpPlayer/runnerPlayer, scores as strings,
# a bye as "(BYE)"; 5 players, 4 rounds, each pair meeting once per side.
A = [[(1, 2, 3, 0), (3, 4, 0, 3), (5, None, 3, None)],
     [(4, 1, 3, 0), (2, 5, 1, 1), (3, None, 3, None)],
     [(1, 3, 3, 0), (5, 4, 0, 3), (2, None, 3, None)],
     [(2, 4, 0, 3), (3, 5, 3, 0), (1, None, 3, None)]]
order, pts, sos, esos = standings([1, 2, 3, 4, 5], A, 3)
players = [{"id": i, "name": NAMES[i - 1], "rank": order.index(i) + 1, "matchPoints": pts[i],
            "strengthOfSchedule": "%.3f" % float(sos[i]),
            "extendedStrengthOfSchedule": "%.3f" % float(esos[i])} for i in range(1, 6)]
rounds = []
for rnd in A:
    ms = []
    for t, (c, r, sc, sr) in enumerate(rnd):
        if r is None:
            ms.append({"table": t + 1, "corpPlayer": c, "runnerPlayer": "(BYE)", "corpScore": str(sc),
                       "runnerScore": "0", "eliminationGame": False})
        else:
            ms.append({"table": t + 1, "corpPlayer": c, "runnerPlayer": r, "corpScore": str(sc),
                       "runnerScore": str(sr), "eliminationGame": False})
    rounds.append(ms)
json.dump({"name": "Weekly Casual (single-sided)", "date": "2026-03-21", "cutToTop": 0,
           "preliminaryRounds": 4, "players": players, "rounds": rounds, "uploadedFrom": "AesopsTables"},
          open("aesops-sss-bye.json", "w"), indent=2)
json.dump({"swiss_order": order}, open("aesops-sss-bye.expect.json", "w"))

# Cobra, single-sided: a role on every Swiss game (the corp's score in
# corpScore, the runner's in runnerScore).  Issue 19's case: 8 players, p8
# drops after round 3, 6 of 7 rounds played, p1 leads on 18 points; the
# lowest-ranked player without a bye has met p1 once, so round 7 gives
# that player the bye only with a swapped rematch (the same event as
# tests/unit/test_sides.c test_issue19_bye_not_to_leader).
R8 = [[(1, 4), (2, 3), (5, 6), (7, 8)], [(1, 3), (2, 6), (4, 7), (5, 8)],
      [(1, 6), (2, 8), (3, 4), (5, 7)]]
R7 = [[(1, 5), (2, 7), (3, 6)], [(1, 2), (3, 7), (4, 5)], [(1, 7), (2, 5), (4, 6)]]
BYES = [4, 6, 3]
S, ROLE = [], {}
for r in range(6):
    games = R8[r] if r < 3 else R7[r - 3]
    rnd = []
    for t, (a, b) in enumerate(games):
        rnd.append((a, b, 3, 0))
        ROLE[(r, a)] = "corp" if (r + t) % 2 else "runner"
        ROLE[(r, b)] = "runner" if (r + t) % 2 else "corp"
    if r >= 3:
        rnd.append((BYES[r - 3], None, 3, None))
    S.append(rnd)
doc, order = cobra("Monthly (single-sided, round 7 next)", list(range(1, 9)), S, 3)
doc["preliminaryRounds"] = 7
for r, rnd in enumerate(doc["rounds"]):
    for m in rnd:
        if m["player2"]["id"] is None:
            continue
        for k in ("player1", "player2"):
            role, sc = ROLE[(r, m[k]["id"])], m[k]["combinedScore"]
            m[k].update({"role": role, "corpScore": sc if role == "corp" else None,
                         "runnerScore": sc if role == "runner" else None})
json.dump(doc, open("cobra-sss-roles.json", "w"), indent=2)
json.dump({"swiss_order": order}, open("cobra-sss-roles.expect.json", "w"))
print("ok")
