/* import_nrtm.c - Netrunner events from Cobra's NRTM JSON and
 * AesopsTables' dialect of it into events (through the ListFortress-shaped
 * reader of import.c), and events back out as NRTM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"
#include "io_internal.h"
#include "tny/json_io.h"
#include "tny/score.h"
#include "tny/standings.h"

/* ---- NRTM (Cobra) ------------------------------------------------------ */

/* Cobra's export (the NRTM JSON AlwaysBeRunning takes): players[{id, name,
 * rank, matchPoints, strengthOfSchedule, extendedStrengthOfSchedule, ...}],
 * rounds: an array per round of pairings {table, player1: {id, role,
 * corpScore, runnerScore, combinedScore}, player2: {...}, intentionalDraw,
 * twoForOne, eliminationGame}.  A player's combinedScore is the match
 * points they took from the pairing (double-sided: 0..6, a win 3 per game,
 * a tie 1; single-sided, with a role: 0..3).  The Swiss rounds become an
 * event on the netrunner-dss preset, whose points are those scores
 * (points_from_scores), or on netrunner-sss, each game a result (3-0 a
 * win, 1-1 a draw) with each seat's side (corp/runner); ranked by SoS and
 * eSoS as Cobra does; the double-elimination top cut (eliminationGame) has
 * no Tourney stage and is left out. */

static json_t *opt_int_json(const json_t *v)
{
    if (json_is_integer(v))
        return json_integer(json_integer_value(v));
    if (json_is_string(v) && json_string_value(v)[0]) {
        char *end;
        long long x = strtoll(json_string_value(v), &end, 10);
        if (*end == '\0')
            return json_integer(x);
    }
    return json_null();
}

static json_t *nrtm_points(const json_t *seat)
{
    json_t *v = opt_int_json(json_object_get(seat, "combinedScore"));
    if (!json_is_null(v))
        return v;
    json_decref(v);
    const json_t *cs = json_object_get(seat, "corpScore");
    const json_t *rs = json_object_get(seat, "runnerScore");
    if (json_is_integer(cs) || json_is_integer(rs))
        return json_integer(json_integer_value(cs) + json_integer_value(rs));
    return json_null();
}

/* One side of a pairing in LF terms: id, points and side.  Cobra:
 * player1 / player2 objects, the side their `role` or, without one, the
 * one score of corpScore / runnerScore the seat has; AesopsTables:
 * corpPlayer / runnerPlayer ids (or "(BYE)") with corpScore / runnerScore,
 * numbers or strings, the points of the corp player and of the runner
 * player. */
struct nrtm_seat {
    json_t *id, *points; /* new references; null when absent */
    int side;            /* 0 corp, 1 runner, -1 not known */
};

static int nrtm_side(const json_t *seat)
{
    const json_t *role = json_object_get(seat, "role");
    if (json_is_string(role))
        return strcmp(json_string_value(role), "corp") == 0     ? 0
               : strcmp(json_string_value(role), "runner") == 0 ? 1
                                                                : -1;
    const json_t *cs = json_object_get(seat, "corpScore");
    const json_t *rs = json_object_get(seat, "runnerScore");
    bool c = cs && !json_is_null(cs), r = rs && !json_is_null(rs);
    return c != r ? (c ? 0 : 1) : -1;
}

static void nrtm_seats(const json_t *m, bool aesops, struct nrtm_seat s[2])
{
    for (int k = 0; k < 2; k++) {
        if (aesops) {
            const json_t *id =
                json_object_get(m, k ? "runnerPlayer" : "corpPlayer");
            bool bye = json_is_string(id) &&
                       strcmp(json_string_value(id), "(BYE)") == 0;
            s[k].id = bye ? json_null() : opt_int_json(id);
            s[k].points = bye ? json_null()
                              : opt_int_json(json_object_get(
                                    m, k ? "runnerScore" : "corpScore"));
            s[k].side = k;
        } else {
            const json_t *seat = json_object_get(m, k ? "player2" : "player1");
            s[k].id = opt_int_json(json_object_get(seat, "id"));
            s[k].points = nrtm_points(seat);
            s[k].side = nrtm_side(seat);
        }
    }
}

static void nrtm_seats_release(struct nrtm_seat s[2])
{
    for (int k = 0; k < 2; k++) {
        json_decref(s[k].id);
        json_decref(s[k].points);
    }
}

static json_t *nrtm_where(size_t r, size_t i)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "rounds[%zu][%zu]", r, i);
    return json_string(buf);
}

int tny__import_nrtm_to_lf(struct lf *lfs, const json_t *root, json_t **out)
{
    struct tny_diag *diag = lfs->diag;
    struct tny_format *fmt = lfs->fmt;
    const json_t *players = json_object_get(root, "players");
    const json_t *rounds = json_object_get(root, "rounds");
    *out = NULL;
    if (!json_is_object(root))
        return tny_diag_set(diag, TNY_EINVAL, "nrtm: expected an object");
    if (!json_is_array(players) || json_array_size(players) == 0 ||
        json_array_size(players) > IMPORT_MAX_PLAYERS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "nrtm: players: expected an array of 1..%d "
                            "players",
                            IMPORT_MAX_PLAYERS);
    if (!json_is_array(rounds) || json_array_size(rounds) > IMPORT_MAX_ROUNDS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "nrtm: rounds: expected an array of at most %d "
                            "rounds",
                            IMPORT_MAX_ROUNDS);
    /* Single- or double-sided from the whole file: the source's own flag
     * when it has one, else the Swiss scores (a double-sided pairing gives
     * 4..6 points between the two players, a single-sided game 2..3), else
     * a role on Swiss games; AesopsTables' dialect (a corp and a runner
     * player per game) is single-sided. */
    bool aesops = false, single = false, decided = false, role = false;
    int32_t n_swiss = 0;
    const json_t *flag = json_object_get(root, "swissFormat");
    if (json_is_string(flag)) {
        const char *f = json_string_value(flag);
        if (strstr(f, "single") || strstr(f, "double")) {
            single = strstr(f, "single") != NULL;
            decided = true;
        }
    }
    for (size_t r = 0; r < json_array_size(rounds); r++) {
        const json_t *jr = json_array_get(rounds, r);
        if (!json_is_array(jr))
            return tny_diag_set(diag, TNY_EINVAL,
                                "nrtm: rounds[%zu]: expected an array of "
                                "pairings",
                                r);
        for (size_t i = 0; i < json_array_size(jr); i++) {
            const json_t *m = json_array_get(jr, i);
            if (json_object_get(m, "corpPlayer") ||
                json_object_get(m, "runnerPlayer"))
                aesops = true;
        }
    }
    int32_t max_sum = -1;
    for (size_t r = 0; r < json_array_size(rounds); r++) {
        const json_t *jr = json_array_get(rounds, r);
        bool swiss = false;
        for (size_t i = 0; i < json_array_size(jr); i++) {
            const json_t *m = json_array_get(jr, i);
            if (json_is_true(json_object_get(m, "eliminationGame")))
                continue;
            swiss = true;
            struct nrtm_seat s[2];
            nrtm_seats(m, aesops, s);
            if (!json_is_null(s[0].id) && !json_is_null(s[1].id) &&
                json_is_integer(s[0].points) && json_is_integer(s[1].points)) {
                json_int_t sum = json_integer_value(s[0].points) +
                                 json_integer_value(s[1].points);
                if (sum > max_sum && sum < INT32_MAX)
                    max_sum = (int32_t)sum;
            }
            if (!aesops)
                role = role || json_is_string(json_object_get(
                                   json_object_get(m, "player1"), "role"));
            nrtm_seats_release(s);
        }
        n_swiss += swiss;
    }
    if (!decided)
        single = aesops || (max_sum > 0 ? max_sum <= 3 : role);
    size_t last_round = 0; /* the last round with Swiss pairings */
    for (size_t r = 0; r < json_array_size(rounds); r++) {
        const json_t *jr = json_array_get(rounds, r);
        for (size_t i = 0; i < json_array_size(jr); i++)
            if (!json_is_true(
                    json_object_get(json_array_get(jr, i), "eliminationGame")))
                last_round = r;
    }
    /* The Netrunner preset (NSG: 3 a game won, 1 a tie); the Swiss stage
     * has the rounds the file plans (preliminaryRounds), at least those it
     * has, so an event moved mid-way goes on to its last round. */
    int rc = tny_format_preset(single ? "netrunner-sss" : "netrunner-dss", fmt,
                               diag);
    if (rc < 0)
        return rc;
    json_t *planned = opt_int_json(json_object_get(root, "preliminaryRounds"));
    int32_t n_rounds = n_swiss > 0 ? n_swiss : 1;
    if (json_is_integer(planned) && json_integer_value(planned) > n_rounds &&
        json_integer_value(planned) <= IMPORT_MAX_ROUNDS)
        n_rounds = (int32_t)json_integer_value(planned);
    json_decref(planned);
    fmt->stages[0].rounds = n_rounds;

    json_t *lf = json_object(), *parts = json_array(), *lrounds = json_array();
    bool ok = lf && parts && lrounds, told_cut = false;
    for (size_t i = 0; ok && i < json_array_size(players); i++) {
        const json_t *p = json_array_get(players, i);
        const json_t *name = json_object_get(p, "name");
        json_t *q = json_object();
        ok = q && tny__set(q, "id", opt_int_json(json_object_get(p, "id"))) &&
             (!json_is_string(name) ||
              tny__set(q, "name", json_copy((json_t *)name))) &&
             tny__append(parts, q);
    }
    int32_t number = 0, no_sides = 0;
    size_t first_r = 0, first_i = 0;
    for (size_t r = 0; ok && r < json_array_size(rounds); r++) {
        const json_t *jr = json_array_get(rounds, r);
        json_t *lr = json_object(), *lm = json_array();
        bool any = false;
        int32_t open = 0;
        ok = lr && lm;
        for (size_t i = 0; ok && i < json_array_size(jr); i++) {
            const json_t *m = json_array_get(jr, i);
            if (json_is_true(json_object_get(m, "eliminationGame"))) {
                if (!told_cut)
                    tny__import_warn(
                        lfs,
                        "rounds[%zu][%zu]: the top cut (eliminationGame, "
                        "double elimination) has no Tourney stage: the "
                        "Swiss rounds are imported, the cut is not",
                        r, i);
                told_cut = true;
                continue;
            }
            any = true;
            struct nrtm_seat s[2];
            nrtm_seats(m, aesops, s);
            json_t *x = json_object();
            bool bye = json_is_null(s[0].id) || json_is_null(s[1].id);
            bool agreed = json_is_true(json_object_get(m, "intentionalDraw"));
            /* Not yet reported (an export taken mid-round): in the last
             * round, no points or 0-0, which no played Netrunner game
             * gives.  Elsewhere a missing score is 0. */
            bool unscored = !bye && !agreed && r == last_round &&
                            json_integer_value(s[0].points) == 0 &&
                            json_integer_value(s[1].points) == 0;
            for (int k = 0; !bye && !agreed && !unscored && k < 2; k++)
                if (json_is_null(s[k].points)) {
                    json_decref(s[k].points);
                    s[k].points = json_integer(0);
                }
            open += unscored;
            /* Single-sided: one game, its result from the points (3-0 a
             * win, 1-1 a tie) and each seat's side; the points are not
             * stored (the preset's scores are the game's own). */
            const bool game1 = single && !bye && !unscored;
            const char *result = bye ? "bye" : agreed ? "tie" : "win";
            json_t *winner = json_null(), *sides = NULL;
            if (game1 && !agreed) {
                json_int_t pa = json_integer_value(s[0].points);
                json_int_t pb = json_integer_value(s[1].points);
                if (pa != pb) {
                    json_decref(winner);
                    winner = json_integer(json_integer_value(s[pa < pb].id));
                } else {
                    result = "tie";
                }
                if (!((pa == 3 && pb == 0) || (pa == 0 && pb == 3) ||
                      (pa == 1 && pb == 1)))
                    tny__import_warn(
                        lfs,
                        "rounds[%zu][%zu]: %lld-%lld is no single-sided "
                        "game's points (3-0, 1-1 or 0-3): imported as %s",
                        r, i, (long long)pa, (long long)pb,
                        pa == pb  ? "a tie (1 point each)"
                        : pa > pb ? "a win of player1 (3-0)"
                                  : "a win of player2 (0-3)");
            }
            if (single && !bye) {
                if (s[0].side >= 0 && s[1].side >= 0 && s[0].side != s[1].side)
                    sides = json_pack("[ss]", fmt->sides[s[0].side],
                                      fmt->sides[s[1].side]);
                else if (no_sides++ == 0)
                    first_r = r, first_i = i;
            }
            ok = x && tny__set(x, "player1_id", s[0].id) &&
                 tny__set(x, "player1_points",
                          unscored || game1 ? json_null() : s[0].points) &&
                 tny__set(x, "player2_id", s[1].id) &&
                 tny__set(x, "player2_points",
                          unscored || game1 ? json_null() : s[1].points) &&
                 tny__set(x, "result", json_string(result)) &&
                 tny__set(x, "winner_id", winner) &&
                 (!sides || tny__set(x, "x_sides", sides)) &&
                 (!agreed || tny__set(x, "x_intentional_draw", json_true())) &&
                 (!unscored || tny__set(x, "x_unscored", json_true())) &&
                 tny__set(x, "x_where", nrtm_where(r, i)) &&
                 tny__set(x, "x_keys",
                          aesops ? json_pack("[ss]", "corpScore", "runnerScore")
                                 : json_pack("[ss]", "player1.combinedScore",
                                             "player2.combinedScore")) &&
                 tny__append(lm, x);
            if (unscored || game1) { /* the references went unused */
                json_decref(s[0].points);
                json_decref(s[1].points);
            }
        }
        if (open > 0)
            tny__import_warn(
                lfs,
                "rounds[%zu]: %d pairing%s without a result (no scores "
                "or 0-0): the round is imported as in progress",
                r, (int)open, open == 1 ? "" : "s");
        if (!any) {
            json_decref(lr);
            json_decref(lm);
            continue;
        }
        ok = ok && tny__set(lr, "roundtype_id", json_integer(1)) &&
             tny__set(lr, "round_number", json_integer(++number)) &&
             tny__set(lr, "matches", lm) && tny__append(lrounds, lr);
    }
    if (no_sides > 0)
        tny__import_warn(lfs,
                         "rounds[%zu][%zu]: %d single-sided game%s without "
                         "a corp and a runner player (role, or one of "
                         "corpScore and runnerScore): imported without sides",
                         first_r, first_i, (int)no_sides,
                         no_sides == 1 ? "" : "s");
    return tny__import_finish(lf, parts, lrounds, ok, "nrtm", out, diag);
}

int tny_export_nrtm(const struct tny_event *ev, char **out,
                    struct tny_diag *diag)
{
    struct tny_standings st = {0};
    struct tny_records rec = {0};
    json_t *root = NULL;
    int rc;
    *out = NULL;
    if ((rc = tny__import_two_player(ev, "NRTM", diag)) < 0)
        return rc;
    const int32_t done = tny_event_completed_rounds(ev);
    int32_t n_swiss = 0, cut = 0;
    for (int32_t r = 0; r < done; r++)
        n_swiss += ev->rounds[r].stage != TNY_STAGE_ELIMINATION;
    /* preliminaryRounds: the Swiss rounds planned (at least those
     * played), so an event exported mid-way imports back with them. */
    int32_t planned = n_swiss;
    for (int32_t s = 0; s < ev->format.n_stages; s++) {
        if (ev->format.stages[s].kind == TNY_STAGE_ELIMINATION)
            cut = ev->format.stages[s].cut;
        if (ev->format.stages[s].kind == TNY_STAGE_SWISS &&
            ev->format.stages[s].rounds > planned)
            planned = ev->format.stages[s].rounds;
    }
    /* The round in progress goes out too, as Cobra writes one: its
     * reported pairings with their points (records of a copy without the
     * unreported tables), the others without scores. */
    const int32_t n_out = ev->n_rounds;
    if ((rc = tny_standings_compute(ev, &st, diag)) < 0)
        goto out;
    if (done < n_out) {
        struct tny_event part;
        if ((rc = tny_event_copy(ev, &part)) < 0) {
            tny_diag_set(diag, rc, "export: out of memory");
            goto out;
        }
        struct tny_round *open = &part.rounds[n_out - 1];
        int32_t kept = 0;
        for (int32_t t = 0; t < open->n_tables; t++)
            if (open->tables[t].is_bye || open->tables[t].has_result)
                open->tables[kept++] = open->tables[t];
        open->n_tables = kept;
        rc = tny_records_compute(&part, n_out, &rec, diag);
        tny_event_release(&part);
    } else {
        rc = tny_records_compute(ev, n_out, &rec, diag);
    }
    if (rc < 0)
        goto out;
    rc = TNY_ENOMEM;
    int32_t k_sos = tny__import_tiebreak_index(&st, TNY_TB_SOS);
    int32_t k_esos = tny__import_tiebreak_index(&st, TNY_TB_ESOS);
    root = json_object();
    json_t *players = json_array(), *rounds = json_array();
    bool ok =
        root &&
        tny__set(root, "name",
                 json_string(ev->title[0] ? ev->title : ev->format.title)) &&
        tny__set(root, "cutToTop", json_integer(cut)) &&
        tny__set(root, "preliminaryRounds", json_integer(planned)) &&
        tny__set(root, "players", players) &&
        tny__set(root, "rounds", rounds) &&
        tny__set(root, "uploadedFrom", json_string("Tourney"));
    for (int32_t i = 0; ok && i < st.n_rows; i++) {
        const struct tny_standing_row *row = &st.rows[i];
        char sos[32], esos[32];
        snprintf(sos, sizeof(sos), "%.4f",
                 k_sos >= 0 ? row->tiebreaks[k_sos] : 0.0);
        snprintf(esos, sizeof(esos), "%.6f",
                 k_esos >= 0 ? row->tiebreaks[k_esos] : 0.0);
        json_t *p = json_object();
        ok = p &&
             tny__set(p, "id",
                      json_integer(tny__import_lf_id(ev, row->player))) &&
             tny__set(p, "name", json_string(ev->players[row->player].name)) &&
             tny__set(p, "rank", json_integer(row->rank)) &&
             tny__set(p, "matchPoints",
                      tny__number((double)row->points / TNY_POINT_SCALE)) &&
             tny__set(p, "strengthOfSchedule", json_string(sos)) &&
             tny__set(p, "extendedStrengthOfSchedule", json_string(esos)) &&
             tny__append(players, p);
    }
    for (int32_t r = 0; ok && r < n_out; r++) {
        const struct tny_round *round = &ev->rounds[r];
        const bool elim = round->stage == TNY_STAGE_ELIMINATION;
        json_t *jr = json_array();
        ok = jr != NULL;
        for (int32_t t = 0; ok && t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            json_t *m = json_object(), *s[2];
            for (int k = 0; k < 2; k++) {
                s[k] = json_object();
                if (!s[k]) {
                    ok = false;
                    continue;
                }
                if (k >= tb->n_seats) {
                    ok = ok && tny__set(s[k], "id", json_null()) &&
                         tny__set(s[k], "combinedScore", json_null());
                    continue;
                }
                int32_t p = tb->seats[k];
                const struct tny_record *x = tny_records_at(&rec, p, r);
                const bool open = !tb->is_bye && !tb->has_result;
                ok = ok &&
                     tny__set(s[k], "id",
                              json_integer(tny__import_lf_id(ev, p))) &&
                     tny__set(
                         s[k], "combinedScore",
                         open ? json_null()
                              : tny__number((double)x->tp / TNY_POINT_SCALE));
                if (elim)
                    ok = ok &&
                         tny__set(s[k], "winner", json_boolean(x->elim_won));
                if (tb->has_sides && ev->format.n_sides == 2) /* its side */
                    ok = ok && tny__set(s[k], "role",
                                        json_string(
                                            ev->format.sides[tb->side[k] & 1]));
            }
            ok = ok && m &&
                 tny__set(m, "table",
                          json_integer(tb->is_bye ? 0 : tb->number)) &&
                 tny__set(m, "player1", s[0]) && tny__set(m, "player2", s[1]) &&
                 tny__set(m, "intentionalDraw",
                          json_boolean(!tb->is_bye &&
                                       tb->result.intentional_draw)) &&
                 tny__set(m, "twoForOne", json_false()) &&
                 tny__set(m, "eliminationGame", json_boolean(elim)) &&
                 tny__append(jr, m);
            if (!ok) {
                json_decref(m);
                json_decref(s[0]);
                json_decref(s[1]);
            }
        }
        ok = ok && tny__append(rounds, jr);
    }
    if (!ok)
        goto out;
    rc = tny__dump(root, out);
out:
    if (rc == TNY_ENOMEM)
        tny_diag_set(diag, rc, "export: out of memory");
    json_decref(root);
    tny_standings_release(&st);
    tny_records_release(&rec);
    return rc;
}
