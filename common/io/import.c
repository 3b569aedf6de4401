/* import.c - ListFortress and Cryodex JSON into events, ListFortress out.
 *
 * ListFortress (the X-Wing results archive) publishes a tournament as
 * participants[{id, score, swiss_rank, top_cut_rank, mov, sos, dropped}]
 * and rounds[{roundtype_id (1 swiss, 2 elimination), round_number,
 * matches[{player1_id, player1_points, player2_id, player2_points, result
 * (win, bye, tie), winner_id}]}].  Cryodex exports players[{name, score,
 * mov, sos, rank{swiss, elimination}}] and rounds[{round-type,
 * round-number, matches[{player1, player1points, player2, player2points,
 * result, winner}]}] (players by name, possibly under "tournament"); it is
 * rewritten into the ListFortress shape first, so one reader checks both.
 *
 * The reader builds an event-file document on the xwing-2.0 preset (Swiss
 * rounds and cut from the file) and hands it to the event-file parser and
 * validator, so an imported event obeys every rule a written one does.
 * The data errors it finds itself are reported in the source's terms.
 * Stored standings (score, ranks, MoV, SoS) are not imported: Tourney
 * computes them from the results (the corpus test compares the two).
 */
#include "tny/import.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"
#include "io_internal.h"
#include "tny/json_io.h"
#include "tny/score.h"
#include "tny/standings.h"

int tny_import_kind_from_name(const char *name, enum tny_import_kind *out)
{
    static const char *const names[] = {"listfortress", "cryodex", "nrtm"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (enum tny_import_kind)i;
            return TNY_OK;
        }
    return TNY_ENOTFOUND;
}

/* ---- ListFortress reader ----------------------------------------------- */

static int cmp_idmap(const void *a, const void *b)
{
    const struct idmap *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Swiss rounds by number, then elimination rounds in bracket order: by the
 * number of players left, whatever the source numbers them (ListFortress
 * stores a final as 2, its semi-finals as 4; other events number on from
 * the Swiss). */
static int cmp_rref(const void *a, const void *b)
{
    const struct rref *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if (x->type == 2 && x->seated != y->seated)
        return x->seated > y->seated ? -1 : 1;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* True when participant index p is seated in matches (an array). */
static bool lf_seated_in(const struct lf *lf, const json_t *matches, int32_t p)
{
    for (size_t i = 0; i < json_array_size(matches); i++)
        for (int k = 0; k < 2; k++) {
            const json_t *v = json_object_get(json_array_get(matches, i),
                                              k ? "player2_id" : "player1_id");
            if (json_is_integer(v) && json_integer_value(v) == lf->ids[p])
                return true;
        }
    return false;
}

/* The winner (0 = a, 1 = b) of a tied elimination game as the source
 * shows it: the one who plays the next elimination round, or after the
 * final the one ranked first (top_cut_rank 1); -1 when it does not. */
static int lf_advanced(const struct lf *lf, int32_t a, int32_t b)
{
    bool in[2];
    for (int k = 0; k < 2; k++) {
        int32_t p = k ? b : a;
        in[k] = lf->next_elim ? lf_seated_in(lf, lf->next_elim, p)
                              : json_integer_value(json_object_get(
                                    json_array_get(lf->parts, (size_t)p),
                                    "top_cut_rank")) == 1;
    }
    return in[0] != in[1] ? (in[0] ? 0 : 1) : -1;
}

/* One warning line, "src: ..." (dropped when memory runs out: a warning
 * is never worth failing the import for). */
void tny__import_warn(struct lf *lf, const char *fmt, ...)
{
    char line[TNY__PATH_MAX + 400];
    va_list ap;
    if (!lf->warn)
        return;
    int k = snprintf(line, sizeof(line), "%s: ", lf->src);
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof(line) - (size_t)k, fmt, ap);
    va_end(ap);
    char **grown =
        realloc(lf->warn->lines, sizeof(char *) * (size_t)(lf->warn->n + 1));
    if (!grown)
        return;
    lf->warn->lines = grown;
    if ((grown[lf->warn->n] = strdup(line)))
        lf->warn->n++;
}

void tny_import_warnings_release(struct tny_import_warnings *w)
{
    for (int32_t i = 0; i < w->n; i++)
        free(w->lines[i]);
    free(w->lines);
    w->lines = NULL;
    w->n = 0;
}

/* Index of the participant with source id v (a JSON integer), or -1 with
 * the error set. */
static int32_t lf_player(const struct lf *lf, const json_t *v,
                         const char *where)
{
    if (!json_is_integer(v)) {
        tny_diag_set(lf->diag, TNY_EINVAL, "%s: %s: expected a participant id",
                     lf->src, where);
        return -1;
    }
    struct idmap key = {json_integer_value(v), 0};
    const struct idmap *hit =
        bsearch(&key, lf->map, (size_t)lf->n, sizeof(*lf->map), cmp_idmap);
    if (!hit) {
        tny_diag_set(lf->diag, TNY_EINVAL, "%s: %s: %lld is not a participant",
                     lf->src, where, (long long)key.id);
        return -1;
    }
    return hit->index;
}

static bool points_of(const json_t *v, int32_t *out)
{
    if (!json_is_integer(v))
        return false;
    json_int_t x = json_integer_value(v);
    if (x < INT32_MIN || x > INT32_MAX)
        return false;
    *out = (int32_t)x;
    return true;
}

/* One match as an event table (or a bye); where names it in messages. */
static int lf_match(struct lf *lf, const json_t *m, const char *where,
                    int32_t number, json_t *tables, int32_t *seat_match,
                    int32_t mi, int32_t *who, int32_t *n_who)
{
    struct tny_diag *diag = lf->diag;
    const json_t *v1 = json_object_get(m, "player1_id");
    const json_t *v2 = json_object_get(m, "player2_id");
    const json_t *vr = json_object_get(m, "result");
    const json_t *vw = json_object_get(m, "winner_id");
    const char *result = json_is_string(vr) ? json_string_value(vr) : "";
    int32_t pa = 0, pb = 0;
    bool has_a = points_of(json_object_get(m, "player1_points"), &pa);
    bool has_b = points_of(json_object_get(m, "player2_points"), &pb);
    char buf[TNY__PATH_MAX + 64];
    *n_who = 0;
    if (!json_is_object(m))
        return tny_diag_set(diag, TNY_EINVAL, "%s: %s: expected an object",
                            lf->src, where);
    if (json_is_null(v1) || !v1) { /* a lone player2 is player1 */
        const json_t *t = v1;
        v1 = v2;
        v2 = t;
        int32_t tp = pa;
        pa = pb;
        pb = tp;
        bool th = has_a;
        has_a = has_b;
        has_b = th;
    }
    if (!v1 || json_is_null(v1))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: %s: a match without players (no "
                            "player1_id or player2_id)",
                            lf->src, where);
    snprintf(buf, sizeof(buf), "%s.player1_id", where);
    int32_t a = lf_player(lf, v1, buf), b = -1, w = -1;
    if (a < 0)
        return TNY_EINVAL;
    who[(*n_who)++] = a;
    if (v2 && !json_is_null(v2)) {
        snprintf(buf, sizeof(buf), "%s.player2_id", where);
        if ((b = lf_player(lf, v2, buf)) < 0)
            return TNY_EINVAL;
        if (b == a)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: %s: participant %lld plays against "
                                "themselves",
                                lf->src, where, (long long)lf->ids[a]);
        who[(*n_who)++] = b;
    }
    for (int32_t i = 0; i < *n_who; i++) {
        int32_t p = who[i];
        if (seat_match[p] >= 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: %s: participant %lld is seated twice in "
                                "this round (also in matches[%d])",
                                lf->src, where, (long long)lf->ids[p],
                                (int)seat_match[p]);
        seat_match[p] = mi;
    }
    if (vw && !json_is_null(vw)) {
        snprintf(buf, sizeof(buf), "%s.winner_id", where);
        int32_t x = lf_player(lf, vw, buf);
        if (x < 0)
            return TNY_EINVAL;
        if (x != a && x != b)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: %s.winner_id: %lld did not play in this "
                                "match",
                                lf->src, where, (long long)lf->ids[x]);
        w = x == a ? 0 : 1;
    }

    json_t *t = json_object();
    if (!t)
        return TNY_ENOMEM;
    if (b < 0) {
        /* A bye, or a "win" whose opponent was lost: only a win of
         * player1 can stand without an opponent. */
        bool lost = w == 1 || (w < 0 && has_a && has_b && pb > pa) ||
                    strcmp(result, "tie") == 0;
        if (strcmp(result, "bye") != 0 && strcmp(result, "win") != 0)
            lost = true;
        if (lost) {
            json_decref(t);
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: %s: a game against a missing opponent "
                                "(player2_id is null, result \"%s\")",
                                lf->src, where, result);
        }
        if (!tny__set(t, "bye", json_string(lf->pid[a])) ||
            !tny__append(tables, t))
            return TNY_ENOMEM;
        return TNY_OK;
    }
    /* NRTM single-sided: the side of each seat, as the table's sides. */
    const json_t *xs = json_object_get(m, "x_sides");
    if (xs && !tny__set(t, "sides", json_copy((json_t *)xs))) {
        json_decref(t);
        return TNY_ENOMEM;
    }
    if (json_is_true(json_object_get(m, "x_unscored"))) { /* in progress */
        json_t *players = json_array();
        bool ok = players && tny__append(players, json_string(lf->pid[a])) &&
                  tny__append(players, json_string(lf->pid[b])) &&
                  tny__set(t, "table", json_integer(number));
        if (!ok || !tny__set(t, "players", players)) {
            json_decref(t);
            return TNY_ENOMEM;
        }
        return tny__append(tables, t) ? TNY_OK : TNY_ENOMEM;
    }
    struct tny_format *fmt = lf->fmt;
    bool scored = has_a && has_b;
    int64_t lo, hi;
    tny_result_range(fmt, TNY_RF_SCORE, &lo, &hi); /* result_schema.h */
    for (int s = 0; scored && s < 2; s++) {
        int32_t x = s == 0 ? pa : pb;
        if (x < lo || x > hi) { /* kept as stored: the range widens */
            const json_t *key =
                json_array_get(json_object_get(m, "x_keys"), (size_t)s);
            char lfkey[24];
            snprintf(lfkey, sizeof(lfkey), "player%d_points", s + 1);
            tny__import_warn(
                lf,
                "%s.%s: %d is outside %lld..%lld (format \"%s\"): kept "
                "as stored, the format's score range widened to take it",
                where, json_is_string(key) ? json_string_value(key) : lfkey,
                (int)x, (long long)lo, (long long)hi, fmt->name);
            if (x < fmt->score_min)
                fmt->score_min = x;
            if (x > fmt->score_max)
                fmt->score_max = x;
            lf->widened = true;
            tny_result_range(fmt, TNY_RF_SCORE, &lo, &hi);
        }
    }
    if (w < 0 && scored && pa != pb)
        w = pa > pb ? 0 : 1;
    if (w < 0 && scored && lf->in_elim && (w = lf_advanced(lf, a, b)) >= 0)
        tny__import_warn(
            lf,
            "%s: an elimination game without a winner (%d-%d, result "
            "\"%s\", no winner_id): won by participant %lld, who %s",
            where, (int)pa, (int)pb, result, (long long)lf->ids[w == 0 ? a : b],
            lf->next_elim ? "plays the next elimination round"
                          : "is ranked first (top_cut_rank 1)");
    if (w < 0 && !fmt->draws &&
        !json_is_true(json_object_get(m, "x_intentional_draw"))) {
        if (!scored && strcmp(result, "tie") != 0) {
            json_decref(t);
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: %s: no winner and no points (result "
                                "\"%s\")",
                                lf->src, where, result);
        }
        /* A tie in a format without draws: the format gains draws worth
         * its draw points (X-Wing: 0, as the source's score counts only
         * wins and byes). */
        char pts[32];
        tny_points_text(fmt->draw_points, pts, sizeof(pts));
        char score[40] = "no points";
        if (scored)
            snprintf(score, sizeof(score), "%d-%d", (int)pa, (int)pb);
        tny__import_warn(
            lf,
            "%s: a game without a winner (%s, result \"%s\", no "
            "winner_id) in format \"%s\", which has no draws: imported "
            "as a draw, %s points each (the format gains draws)",
            where, score, result, fmt->name, pts);
        lf->ties++;
    }
    json_t *players = json_array(), *res = json_object();
    bool ok = players && res && tny__append(players, json_string(lf->pid[a])) &&
              tny__append(players, json_string(lf->pid[b]));
    if (ok && scored) {
        json_t *sc = json_object();
        ok = sc && tny__set(sc, lf->pid[a], json_integer(pa)) &&
             tny__set(sc, lf->pid[b], json_integer(pb)) &&
             tny__set(res, tny_result_key_name(TNY_RK_SCORES), sc);
    }
    const bool agreed = json_is_true(json_object_get(m, "x_intentional_draw"));
    if (ok && agreed && fmt->intentional_draws)
        ok = tny__set(res, tny_result_key_name(TNY_RK_INTENTIONAL_DRAW),
                      json_true());
    else if (ok)
        ok = w >= 0
                 ? tny__set(res, tny_result_key_name(TNY_RK_WINNER),
                            json_string(lf->pid[w == 0 ? a : b]))
                 : tny__set(res, tny_result_key_name(TNY_RK_DRAW), json_true());
    ok = ok && tny__set(t, "table", json_integer(number)) &&
         tny__set(t, "players", players);
    players = NULL;
    ok = ok && tny__set(t, "result", res);
    res = NULL;
    json_decref(players);
    json_decref(res);
    if (!ok) {
        json_decref(t);
        return TNY_ENOMEM;
    }
    return tny__append(tables, t) ? TNY_OK : TNY_ENOMEM;
}

/* The ListFortress document root as an event document in *doc. */
static int lf_build(struct lf *lf, const json_t *root, json_t **doc)
{
    struct tny_diag *diag = lf->diag;
    const json_t *parts = json_object_get(root, "participants");
    const json_t *rounds = json_object_get(root, "rounds");
    struct rref *refs = NULL;
    int32_t *seat_match = NULL;
    uint8_t *played = NULL; /* played[p * n_swiss + r]: seated */
    int32_t *last = NULL;   /* last swiss round seated, 1-based */
    bool *in_elim = NULL;
    json_t *ev = NULL, *jrounds = NULL;
    int rc = TNY_ENOMEM;
    *doc = NULL;

    if (!json_is_object(root))
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected an object",
                            lf->src);
    if (!json_is_array(parts) || json_array_size(parts) == 0 ||
        json_array_size(parts) > IMPORT_MAX_PLAYERS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: participants: expected an array of 1..%d "
                            "participants",
                            lf->src, IMPORT_MAX_PLAYERS);
    if (!json_is_array(rounds) || json_array_size(rounds) > IMPORT_MAX_ROUNDS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: rounds: expected an array of at most %d "
                            "rounds",
                            lf->src, IMPORT_MAX_ROUNDS);
    lf->n = (int32_t)json_array_size(parts);
    const size_t n = (size_t)lf->n;
    lf->map = calloc(n, sizeof(*lf->map));
    lf->ids = calloc(n, sizeof(*lf->ids));
    lf->pid = calloc(n, sizeof(*lf->pid));
    seat_match = calloc(n, sizeof(*seat_match));
    last = calloc(n, sizeof(*last));
    in_elim = calloc(n, sizeof(*in_elim));
    size_t n_rounds = json_array_size(rounds);
    refs = calloc(n_rounds + 1, sizeof(*refs));
    if (!lf->map || !lf->ids || !lf->pid || !seat_match || !last || !in_elim ||
        !refs)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(parts, i);
        const json_t *id = json_object_get(p, "id");
        if (!json_is_object(p) || !json_is_integer(id)) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: participants[%zu].id: expected an "
                              "integer",
                              lf->src, i);
            goto out;
        }
        lf->ids[i] = json_integer_value(id);
        lf->map[i] = (struct idmap){lf->ids[i], (int32_t)i};
        snprintf(lf->pid[i], sizeof(lf->pid[i]), "p%lld",
                 (long long)lf->ids[i]);
    }
    qsort(lf->map, n, sizeof(*lf->map), cmp_idmap);
    for (size_t i = 1; i < n; i++)
        if (lf->map[i].id == lf->map[i - 1].id) {
            rc = tny_diag_set(
                diag, TNY_EINVAL, "%s: participants[%d].id: %lld is used twice",
                lf->src, (int)lf->map[i].index, (long long)lf->map[i].id);
            goto out;
        }

    int32_t n_swiss = 0;
    for (size_t i = 0; i < n_rounds; i++) {
        const json_t *r = json_array_get(rounds, i);
        const json_t *type = json_object_get(r, "roundtype_id");
        const json_t *num = json_object_get(r, "round_number");
        if (!json_is_object(r) || !json_is_integer(type) ||
            (json_integer_value(type) != 1 && json_integer_value(type) != 2)) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: rounds[%zu].roundtype_id: expected 1 "
                              "(swiss) or 2 (elimination)",
                              lf->src, i);
            goto out;
        }
        refs[i] = (struct rref){
            (int)json_integer_value(type),
            json_is_integer(num) ? json_integer_value(num) : 0, i, 0};
        n_swiss += refs[i].type == 1;
        const json_t *ms = json_object_get(r, "matches");
        for (size_t m = 0; refs[i].type == 2 && m < json_array_size(ms); m++)
            for (int k = 0; k < 2; k++) {
                const json_t *v = json_object_get(
                    json_array_get(ms, m), k ? "player2_id" : "player1_id");
                refs[i].seated += v && !json_is_null(v);
            }
    }
    if (n_swiss == 0) {
        rc = tny_diag_set(diag, TNY_EINVAL, "%s: rounds: no swiss round",
                          lf->src);
        goto out;
    }
    qsort(refs, n_rounds, sizeof(*refs), cmp_rref);
    played = calloc(n * (size_t)n_swiss, 1);
    jrounds = json_array();
    if (!played || !jrounds)
        goto out;

    int32_t cut = 0;
    for (size_t k = 0; k < n_rounds; k++) {
        const struct rref *ref = &refs[k];
        const json_t *r = json_array_get(rounds, ref->index);
        const json_t *matches = json_object_get(r, "matches");
        const bool elim = ref->type == 2;
        char where[TNY__PATH_MAX];
        if (!json_is_array(matches)) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: rounds[%zu].matches: expected an array",
                              lf->src, ref->index);
            goto out;
        }
        json_t *jr = json_object(), *tables = json_array();
        if (!jr || !tables ||
            !tny__set(jr, "stage",
                      json_string(elim ? "elimination" : "swiss"))) {
            json_decref(jr);
            json_decref(tables);
            goto out;
        }
        for (size_t p = 0; p < n; p++)
            seat_match[p] = -1;
        lf->in_elim = elim;
        lf->parts = parts;
        lf->next_elim =
            elim && k + 1 < n_rounds
                ? json_object_get(json_array_get(rounds, refs[k + 1].index),
                                  "matches")
                : NULL;
        int32_t seated = 0, number = 0;
        for (size_t mi = 0; mi < json_array_size(matches); mi++) {
            const json_t *m = json_array_get(matches, mi);
            int32_t who[2], n_who = 0;
            const json_t *xw = json_object_get(m, "x_where");
            if (json_is_string(xw)) /* NRTM: the source's own path */
                snprintf(where, sizeof(where), "%s (swiss round %lld)",
                         json_string_value(xw), (long long)ref->number);
            else
                snprintf(where, sizeof(where),
                         "rounds[%zu] (%s round %lld).matches[%zu]", ref->index,
                         elim ? "elimination" : "swiss", (long long)ref->number,
                         mi);
            const json_t *v2 = json_object_get(m, "player2_id");
            bool game = v2 && !json_is_null(v2) &&
                        json_object_get(m, "player1_id") &&
                        !json_is_null(json_object_get(m, "player1_id"));
            rc = lf_match(lf, m, where, game ? number + 1 : 0, tables,
                          seat_match, (int32_t)mi, who, &n_who);
            if (rc < 0) {
                json_decref(jr);
                json_decref(tables);
                goto out;
            }
            number += game;
            seated += n_who;
            for (int32_t i = 0; i < n_who; i++) {
                if (elim) {
                    in_elim[who[i]] = true;
                    continue;
                }
                int32_t sr = (int32_t)k; /* swiss rounds sort first */
                played[(size_t)who[i] * (size_t)n_swiss + (size_t)sr] = 1;
                last[who[i]] = sr + 1;
            }
        }
        if (elim && cut == 0) { /* the first elimination round's field */
            cut = 2;
            while (cut < seated)
                cut *= 2;
            lf->first_elim = *ref;
        }
        if (!tny__set(jr, "tables", tables) || !tny__append(jrounds, jr))
            goto out;
    }

    /* Drops and absences: a player who stops playing dropped after their
     * last round (0: never came); a missed round before it was an absence.
     * A player of the cut stays in to the end. */
    json_t *players = json_array(), *drops = json_array(),
           *absences = json_array();
    ev = json_object();
    if (!players || !drops || !absences || !ev) {
        json_decref(players);
        json_decref(drops);
        json_decref(absences);
        goto out;
    }
    bool ok = true;
    for (size_t p = 0; ok && p < n; p++) {
        const json_t *src = json_array_get(parts, p);
        const json_t *name = json_object_get(src, "name");
        json_t *pl = json_object();
        ok =
            pl && tny__set(pl, "id", json_string(lf->pid[p])) &&
            tny__set(pl, "name",
                     json_string(
                         json_is_string(name) && json_string_length(name) > 0 &&
                                 json_string_length(name) <= TNY_TEXT_MAX
                             ? json_string_value(name)
                             : lf->pid[p])) &&
            tny__append(players, pl);
        int32_t until = in_elim[p] ? n_swiss : last[p];
        for (int32_t r = 0; ok && r < until; r++) {
            if (played[p * (size_t)n_swiss + (size_t)r])
                continue;
            json_t *a = json_object();
            ok = a && tny__set(a, "player", json_string(lf->pid[p])) &&
                 tny__set(a, "round", json_integer(r + 1)) &&
                 tny__append(absences, a);
        }
        if (ok && until < n_swiss) {
            json_t *d = json_object();
            ok = d && tny__set(d, "player", json_string(lf->pid[p])) &&
                 tny__set(d, "after_round", json_integer(until)) &&
                 tny__append(drops, d);
        }
    }
    json_t *opts = json_object();
    const json_t *jid = json_object_get(root, "id");
    const json_t *date = json_object_get(root, "date");
    char title[128];
    snprintf(title, sizeof(title), "%s event %lld%s%s%s", lf->src,
             json_is_integer(jid) ? (long long)json_integer_value(jid) : 0LL,
             json_is_string(date) ? " (" : "",
             json_is_string(date) ? json_string_value(date) : "",
             json_is_string(date) ? ")" : "");
    if (!lf->own_format && (lf->ties > 0 || lf->widened)) {
        /* The preset as the file asked for it, with draws or a wider
         * score range: written in full. */
        json_t *o = json_object();
        struct tny_diag d;
        bool draws = lf->ties > 0;
        ok = ok && o && tny__set(o, "swiss_rounds", json_integer(n_swiss)) &&
             tny__set(o, "cut", json_integer(cut)) &&
             (!draws || tny__set(o, "draws", json_true())) &&
             tny_format_apply_options(lf->fmt, o, "import", &d) == 0;
        json_decref(o);
        lf->fmt->draws = lf->fmt->draws || draws;
        snprintf(lf->fmt->title, sizeof(lf->fmt->title),
                 "%s as imported (%s%s%s)", lf->fmt->name,
                 draws ? "ties kept as draws" : "",
                 draws && lf->widened ? ", " : "",
                 lf->widened ? "stored scores out of range kept" : "");
        lf->own_format = true;
    }
    if (lf->own_format) {
        ok = ok && tny__set(ev, "format", tny__format_json(lf->fmt));
    } else {
        ok = ok && opts &&
             tny__set(opts, "swiss_rounds", json_integer(n_swiss)) &&
             tny__set(opts, "cut", json_integer(cut));
        ok = ok && tny__set(ev, "format", json_string(lf->fmt->name)) &&
             tny__set(ev, "options", opts);
        opts = NULL;
    }
    ok = ok &&
         tny__set(
             ev, "seed",
             json_integer(json_is_integer(jid) && json_integer_value(jid) >= 0
                              ? json_integer_value(jid)
                              : 0)) &&
         tny__set(ev, "title", json_string(title)) &&
         tny__set(ev, "players", players);
    players = NULL;
    ok = ok && tny__set(ev, "drops", drops);
    drops = NULL;
    ok = ok && tny__set(ev, "rounds", jrounds);
    jrounds = NULL;
    if (ok && json_array_size(absences) > 0) {
        ok = tny__set(ev, "absences", absences);
        absences = NULL;
    }
    json_decref(opts);
    json_decref(players);
    json_decref(drops);
    json_decref(absences);
    if (!ok)
        goto out;
    *doc = ev;
    ev = NULL;
    rc = TNY_OK;
out:
    if (rc == TNY_ENOMEM)
        tny_diag_set(diag, rc, "%s: out of memory", lf->src);
    json_decref(ev);
    json_decref(jrounds);
    free(refs);
    free(seat_match);
    free(played);
    free(last);
    free(in_elim);
    return rc;
}

/* Cryodex's players-by-name JSON rewritten as ListFortress's shape. */
/* The ListFortress document both converters build: participants and
 * rounds go into lf (taken, whatever ok says, so nothing leaks on a failed
 * build); *out = lf when every step was ok. */
int tny__import_finish(json_t *lf, json_t *parts, json_t *lrounds, bool ok,
                       const char *who, json_t **out, struct tny_diag *diag)
{
    ok = tny__set(lf, "participants", parts) && ok;
    ok = tny__set(lf, "rounds", lrounds) && ok;
    if (!ok) {
        json_decref(lf);
        return tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", who);
    }
    *out = lf;
    return TNY_OK;
}

static int cryodex_to_lf(const json_t *root, json_t **out,
                         struct tny_diag *diag)
{
    const json_t *t = json_object_get(root, "tournament");
    const json_t *base = json_is_object(t) ? t : root;
    const json_t *players = json_object_get(base, "players");
    const json_t *rounds = json_object_get(base, "rounds");
    *out = NULL;
    if (!json_is_array(players) || json_array_size(players) == 0 ||
        json_array_size(players) > IMPORT_MAX_PLAYERS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "cryodex: players: expected an array of 1..%d "
                            "players",
                            IMPORT_MAX_PLAYERS);
    if (rounds && !json_is_array(rounds))
        return tny_diag_set(diag, TNY_EINVAL,
                            "cryodex: rounds: expected an array");
    json_t *lf = json_object(), *parts = json_array(), *lrounds = json_array();
    bool ok = lf && parts && lrounds;
    const size_t n = json_array_size(players);
    for (size_t i = 0; ok && i < n; i++) {
        const json_t *p = json_array_get(players, i);
        const json_t *name = json_object_get(p, "name");
        if (!json_is_string(name)) {
            json_decref(lf);
            json_decref(parts);
            json_decref(lrounds);
            return tny_diag_set(diag, TNY_EINVAL,
                                "cryodex: players[%zu].name: expected a "
                                "string",
                                i);
        }
        for (size_t j = 0; j < i; j++)
            if (json_equal(json_object_get(json_array_get(players, j), "name"),
                           name)) {
                json_decref(lf);
                json_decref(parts);
                json_decref(lrounds);
                return tny_diag_set(diag, TNY_EINVAL,
                                    "cryodex: players[%zu].name: \"%.64s\" "
                                    "is used twice",
                                    i, json_string_value(name));
            }
        json_t *q = json_object();
        ok = q && tny__set(q, "id", json_integer((json_int_t)i + 1)) &&
             tny__set(q, "name", json_copy((json_t *)name)) &&
             tny__append(parts, q);
    }
    /* A name in a match -> participant id (1-based), 0 for null/absent,
     * -1 for an unknown name. */
    for (size_t r = 0; ok && rounds && r < json_array_size(rounds); r++) {
        const json_t *jr = json_array_get(rounds, r);
        const json_t *type = json_object_get(jr, "round-type");
        const json_t *num = json_object_get(jr, "round-number");
        const json_t *matches = json_object_get(jr, "matches");
        const char *ts = json_is_string(type) ? json_string_value(type) : "";
        int tid = strcmp(ts, "swiss") == 0         ? 1
                  : strcmp(ts, "elimination") == 0 ? 2
                                                   : 0;
        json_t *lr = json_object(), *lm = json_array();
        ok =
            lr && lm && tny__set(lr, "roundtype_id", json_integer(tid)) &&
            tny__set(lr, "round_number",
                     json_integer(json_is_integer(num) ? json_integer_value(num)
                                                       : (json_int_t)r + 1));
        for (size_t m = 0;
             ok && json_is_array(matches) && m < json_array_size(matches);
             m++) {
            const json_t *jm = json_array_get(matches, m);
            static const char *const from[] = {"player1", "player2", "winner"};
            static const char *const to[] = {"player1_id", "player2_id",
                                             "winner_id"};
            json_t *x = json_object();
            ok = x != NULL;
            for (int k = 0; ok && k < 3; k++) {
                const json_t *nm = json_object_get(jm, from[k]);
                json_int_t id = 0;
                for (size_t i = 0; json_is_string(nm) && i < n && !id; i++)
                    if (json_equal(
                            json_object_get(json_array_get(players, i), "name"),
                            nm))
                        id = (json_int_t)i + 1;
                if (json_is_string(nm) && json_string_length(nm) > 0 && !id)
                    id = -1; /* reported by the reader as unknown */
                ok = tny__set(x, to[k], id ? json_integer(id) : json_null());
            }
            const json_t *p1 = json_object_get(jm, "player1points");
            const json_t *p2 = json_object_get(jm, "player2points");
            const json_t *res = json_object_get(jm, "result");
            ok = ok &&
                 tny__set(x, "player1_points",
                          p1 ? json_copy((json_t *)p1) : json_null()) &&
                 tny__set(x, "player2_points",
                          p2 ? json_copy((json_t *)p2) : json_null()) &&
                 tny__set(x, "result",
                          json_is_string(res) ? json_copy((json_t *)res)
                                              : json_string("")) &&
                 tny__append(lm, x);
        }
        ok = ok && tny__set(lr, "matches", lm) && tny__append(lrounds, lr);
    }
    return tny__import_finish(lf, parts, lrounds, ok, "cryodex", out, diag);
}

/* ---- the cut as the source seeded it ----------------------------------- */

/* Seeds 1..k in bracket-line order (top to bottom of the drawn bracket):
 * 1 2 -> 1 4 2 3 -> 1 8 4 5 2 7 3 6; the folded bracket (GT-7) of these
 * seeds plays neighbours first. */
static void bracket_line(int32_t k, int32_t *line)
{
    int32_t n = 1;
    line[0] = 1;
    while (n < k) {
        for (int32_t i = n - 1; i >= 0; i--) {
            int32_t s = line[i];
            line[2 * i] = s;
            line[2 * i + 1] = 2 * n + 1 - s;
        }
        n *= 2;
    }
}

struct tree {
    const struct tny_event *ev;
    const int32_t *pref; /* player -> preference (lower first) */
    const int32_t *elim; /* elimination round indices, in order */
    int32_t n_elim;
    int32_t *line, n_line, cap;
};

static int32_t table_winner(const struct tny_event *ev,
                            const struct tny_table *tb)
{
    if (tb->is_bye)
        return tb->seats[0];
    if (!tb->has_result)
        return -1;
    int32_t s = tny_result_winner_seat(&ev->format, &tb->result);
    return s >= 0 ? tb->seats[s] : -1;
}

/* The leaves below player p's table in elimination round j, better half
 * first. */
static bool tree_leaves(struct tree *t, int32_t j, int32_t p)
{
    const struct tny_round *round = &t->ev->rounds[t->elim[j]];
    const struct tny_table *tb = NULL;
    for (int32_t i = 0; i < round->n_tables && !tb; i++)
        if (tny_table_seat_of(&round->tables[i], p) >= 0)
            tb = &round->tables[i];
    if (!tb)
        return false;
    if (tb->is_bye) { /* a bye of the first round: a seed past the cut */
        if (j > 0 || t->n_line + 2 > t->cap)
            return false;
        t->line[t->n_line++] = tb->seats[0];
        t->line[t->n_line++] = -1;
        return true;
    }
    int32_t x = tb->seats[0], y = tb->seats[1];
    if (t->pref[y] < t->pref[x]) {
        x = tb->seats[1];
        y = tb->seats[0];
    }
    if (j == 0) {
        if (t->n_line + 2 > t->cap)
            return false;
        t->line[t->n_line++] = x;
        t->line[t->n_line++] = y;
        return true;
    }
    /* Each player of a later round won a table of the round before. */
    const struct tny_round *pr = &t->ev->rounds[t->elim[j - 1]];
    for (int k = 0; k < 2; k++) {
        int32_t q = k ? y : x, won = 0;
        for (int32_t i = 0; i < pr->n_tables; i++)
            won += table_winner(t->ev, &pr->tables[i]) == q;
        if (won != 1 || !tree_leaves(t, j - 1, q))
            return false;
    }
    return true;
}

/* Seeds under which the format's folded bracket is the source's one: the
 * source's games as a tree, each half with the better-ranked player (the
 * source's swiss_rank) on top, the leaves numbered by bracket_line. */
static int derive_cut_seeds(struct tny_event *ev, const int32_t *pref)
{
    int32_t n_elim = 0, *elim = NULL;
    int rc = TNY_EINVAL;
    struct tree t = {.ev = ev, .pref = pref};
    elim = calloc((size_t)ev->n_rounds + 1, sizeof(int32_t));
    if (!elim)
        return TNY_ENOMEM;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_ELIMINATION)
            elim[n_elim++] = r;
    t.elim = elim;
    t.n_elim = n_elim;
    int32_t k = 2 * ev->rounds[elim[0]].n_tables;
    if (k < 2 || (k & (k - 1)) != 0 ||
        ev->rounds[elim[n_elim - 1]].n_tables < 1)
        goto out;
    /* The last round's tables: the tops of subtrees, in bracket-line
     * order by their best player. */
    const struct tny_round *top = &ev->rounds[elim[n_elim - 1]];
    int32_t nt = top->n_tables;
    int32_t *best = calloc((size_t)nt + 1, sizeof(int32_t));
    int32_t *slot = calloc((size_t)nt * 2 + 2, sizeof(int32_t));
    t.cap = k;
    t.line = calloc((size_t)k, sizeof(int32_t));
    ev->cut_seeds = calloc((size_t)k, sizeof(int32_t));
    if (!best || !slot || !t.line || !ev->cut_seeds || k < 2 || nt < 1 ||
        (nt & (nt - 1)) != 0 || k % nt != 0) {
        rc = !best || !slot || !t.line || !ev->cut_seeds ? TNY_ENOMEM
                                                         : TNY_EINVAL;
        goto out2;
    }
    for (int32_t i = 0; i < nt; i++) { /* tables by their best player */
        const struct tny_table *tb = &top->tables[i];
        int32_t b = tb->seats[0];
        if (!tb->is_bye && pref[tb->seats[1]] < pref[b])
            b = tb->seats[1];
        int32_t at = i;
        while (at > 0 && pref[best[at - 1]] > pref[b]) {
            best[at] = best[at - 1];
            at--;
        }
        best[at] = b;
    }
    bracket_line(nt, slot);
    for (int32_t i = 0; i < nt; i++)
        if (!tree_leaves(&t, n_elim - 1, best[slot[i] - 1]))
            goto out2;
    if (t.n_line != k)
        goto out2;
    int32_t *grown = realloc(slot, sizeof(int32_t) * (size_t)k);
    if (!grown) {
        rc = TNY_ENOMEM;
        goto out2;
    }
    bracket_line(k, slot = grown);
    /* Byes take the seeds past the players' (the best seeds wait). */
    int32_t n_real = 0;
    for (int32_t i = 0; i < k; i++)
        n_real += t.line[i] >= 0;
    for (int32_t i = 0; i < k; i++) {
        if ((t.line[i] >= 0) != (slot[i] <= n_real))
            goto out2;
        if (t.line[i] >= 0)
            ev->cut_seeds[slot[i] - 1] = t.line[i];
    }
    ev->n_cut_seeds = n_real;
    rc = TNY_OK;
out2:
    free(best);
    free(slot);
    free(t.line);
    if (rc < 0) {
        free(ev->cut_seeds);
        ev->cut_seeds = NULL;
        ev->n_cut_seeds = 0;
    }
out:
    free(elim);
    return rc;
}

/* The elimination rounds put in the bracket's order; when Tourney's Swiss
 * standings do not seed the source's cut, the source's seeds are kept
 * (event.cut_seeds) with a warning.  A cut that is no bracket is refused. */
/* Tables of the elimination rounds numbered 1, 2, ... in bracket order
 * (an event's tables are kept in table-number order, e.g. by the hub's
 * store, and a folded bracket reads its games in that order). */
static void number_elimination(struct tny_event *ev)
{
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        struct tny_round *round = &ev->rounds[r];
        int32_t next = 0;
        if (round->stage != TNY_STAGE_ELIMINATION)
            continue;
        for (int32_t t = 0; t < round->n_tables; t++)
            if (!round->tables[t].is_bye)
                round->tables[t].number = ++next;
    }
}

static int lf_cut(struct lf *lf, const json_t *lfroot, struct tny_event *ev)
{
    struct tny_diag d1 = {{0}}, d2 = {{0}};
    if (lf->first_elim.type != 2)
        return TNY_OK;
    if (tny_event_bracket_reorder(ev, &d1) == 0) {
        number_elimination(ev);
        return TNY_OK;
    }
    const json_t *parts = json_object_get(lfroot, "participants");
    int32_t *pref = calloc((size_t)ev->n_players + 1, sizeof(int32_t));
    if (!pref)
        return tny_diag_set(lf->diag, TNY_ENOMEM, "%s: out of memory", lf->src);
    for (int32_t p = 0; p < ev->n_players; p++) {
        const json_t *sr =
            json_object_get(json_array_get(parts, (size_t)p), "swiss_rank");
        pref[p] = json_is_integer(sr) && json_integer_value(sr) > 0 &&
                          json_integer_value(sr) < INT32_MAX / 2
                      ? (int32_t)json_integer_value(sr)
                      : INT32_MAX / 2 + p;
    }
    int rc = derive_cut_seeds(ev, pref);
    free(pref);
    if (rc == TNY_ENOMEM)
        return tny_diag_set(lf->diag, rc, "%s: out of memory", lf->src);
    if (rc < 0 || (rc = tny_event_bracket_reorder(ev, &d2)) < 0)
        return tny_diag_set(lf->diag, TNY_EINVAL,
                            "%s: rounds[%zu] (elimination round %lld): the "
                            "cut is no single-elimination bracket (%s)",
                            lf->src, lf->first_elim.index,
                            (long long)lf->first_elim.number, d1.msg);
    number_elimination(ev);
    char seeds[200] = "";
    size_t used = 0;
    for (int32_t i = 0; i < ev->n_cut_seeds && used + 24 < sizeof(seeds); i++)
        used +=
            (size_t)snprintf(seeds + used, sizeof(seeds) - used, "%s%s",
                             i ? " " : "", ev->players[ev->cut_seeds[i]].id);
    tny__import_warn(
        lf,
        "rounds[%zu] (elimination round %lld): the cut is not seeded by "
        "the Swiss standings Tourney computes (%s); the source's bracket "
        "is kept with its seeds in event.cut_seeds: %s",
        lf->first_elim.index, (long long)lf->first_elim.number, d1.msg, seeds);
    return TNY_OK;
}

/* A game with sides, for lf_same_sides: players a < b, a's side. */
struct sided {
    int32_t a, b, side_a, round, table;
};

static int cmp_sided(const void *x, const void *y)
{
    const struct sided *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return (p->round > q->round) - (p->round < q->round);
}

/* Two players who meet again on the same sides (the source allowed it;
 * Tourney's second meeting swaps them, docs/rules.md "Sides"): the later
 * game is kept without sides, with a warning. */
static int lf_same_sides(struct lf *lf, struct tny_event *ev)
{
    int64_t n = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        n += ev->rounds[r].n_tables;
    struct sided *g = malloc(sizeof(*g) * (size_t)(n + 1));
    if (!g)
        return tny_diag_set(lf->diag, TNY_ENOMEM, "%s: out of memory", lf->src);
    n = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
            const struct tny_table *tb = &ev->rounds[r].tables[t];
            if (!tb->has_sides || tb->n_seats != 2)
                continue;
            bool sw = tb->seats[0] > tb->seats[1];
            g[n++] = (struct sided){sw ? tb->seats[1] : tb->seats[0],
                                    sw ? tb->seats[0] : tb->seats[1],
                                    sw ? tb->side[1] : tb->side[0], r, t};
        }
    qsort(g, (size_t)n, sizeof(*g), cmp_sided);
    for (int64_t i = 1, kept = 0; i < n; i++) {
        if (g[i].a != g[kept].a || g[i].b != g[kept].b ||
            g[i].side_a != g[kept].side_a) {
            kept = i;
            continue;
        }
        ev->rounds[g[i].round].tables[g[i].table].has_sides = false;
        tny__import_warn(lf,
                         "swiss round %d: participants %lld and %lld meet "
                         "again on the same sides as in swiss round %d (a "
                         "second meeting swaps them): the later game is "
                         "imported without sides",
                         (int)g[i].round + 1, (long long)lf->ids[g[i].a],
                         (long long)lf->ids[g[i].b], (int)g[kept].round + 1);
    }
    free(g);
    return TNY_OK;
}

int tny_import_warn(enum tny_import_kind kind, const char *text, size_t len,
                    struct tny_event *out, struct tny_import_warnings *warn,
                    struct tny_diag *diag)
{
    static const char *const names[] = {"listfortress", "cryodex", "nrtm"};
    json_t *root = NULL, *lfdoc = NULL, *doc = NULL;
    struct tny_format *fmt = calloc(1, sizeof(*fmt));
    struct lf lf = {.src = names[kind], .diag = diag, .fmt = fmt, .warn = warn};
    struct tny_diag inner = {{0}};
    const json_t *lfroot = NULL;
    int rc;
    tny_event_init(out);
    if (warn)
        *warn = (struct tny_import_warnings){0, NULL};
    if (!fmt)
        return tny_diag_set(diag, TNY_ENOMEM, "import: out of memory");
    if ((rc = tny__load(text, len, names[kind], &root, diag)) < 0)
        goto out;
    lfroot = root;
    if (kind == TNY_IMPORT_NRTM) {
        /* Netrunner: the Swiss rounds on a Netrunner preset, written in
         * full (its Swiss rounds, a widened score range). */
        if ((rc = tny__import_nrtm_to_lf(&lf, root, &lfdoc)) < 0)
            goto out;
        lf.own_format = true;
        lfroot = lfdoc;
    } else {
        if ((rc = tny_format_preset("xwing-2.0", fmt, diag)) < 0)
            goto out;
        if (kind == TNY_IMPORT_CRYODEX) {
            if ((rc = cryodex_to_lf(root, &lfdoc, diag)) < 0)
                goto out;
            lfroot = lfdoc;
        }
    }
    if ((rc = lf_build(&lf, lfroot, &doc)) < 0)
        goto out;
    rc = tny_event_from_json(doc, out, &inner);
    if (rc == 0 && ((rc = lf_cut(&lf, lfroot, out)) < 0 ||
                    (rc = lf_same_sides(&lf, out)) < 0)) {
        tny_event_release(out);
        goto out;
    }
    if (rc == 0 && (rc = tny_event_validate(out, &inner)) < 0)
        tny_event_release(out);
    if (rc < 0)
        tny_diag_set(diag, rc, "%s: the imported event is invalid: %s",
                     names[kind], inner.msg);
out:
    if (rc < 0 && warn)
        tny_import_warnings_release(warn);
    json_decref(root);
    json_decref(lfdoc);
    json_decref(doc);
    free(lf.map);
    free(lf.ids);
    free(lf.pid);
    free(fmt);
    return rc;
}

int tny_import(enum tny_import_kind kind, const char *text, size_t len,
               struct tny_event *out, struct tny_diag *diag)
{
    return tny_import_warn(kind, text, len, out, NULL, diag);
}

/* ---- ListFortress writer ----------------------------------------------- */

/* N of an id "p<N>" written as import writes it (no leading zero, at
 * most 15 digits), else -1. */
static json_int_t lf_number(const char *id)
{
    size_t n = strlen(id);
    if (id[0] != 'p' || n < 2 || n > 16 || (id[1] == '0' && n > 2))
        return -1;
    json_int_t x = 0;
    for (size_t i = 1; i < n; i++) {
        if (id[i] < '0' || id[i] > '9')
            return -1;
        x = x * 10 + (id[i] - '0');
    }
    return x;
}

/* The number in "p<N>" when every player's id has that form (distinct
 * ids, so distinct numbers), else index + 1 for everybody: a mix would
 * give two players one number ("p4" and the fourth player "p0"; found
 * by fuzz_import_listfortress). */
json_int_t tny__import_lf_id(const struct tny_event *ev, int32_t p)
{
    for (int32_t i = 0; i < ev->n_players; i++)
        if (lf_number(ev->players[i].id) < 0)
            return (json_int_t)p + 1;
    return lf_number(ev->players[p].id);
}

int32_t tny__import_tiebreak_index(const struct tny_standings *st,
                                   enum tny_tiebreak tb)
{
    for (int32_t k = 0; k < st->n_tiebreaks; k++)
        if (st->tiebreaks[k] == tb)
            return k;
    return -1;
}

int tny__import_two_player(const struct tny_event *ev, const char *tool,
                           struct tny_diag *diag)
{
    if (ev->format.players_per_table == 2)
        return TNY_OK;
    return tny_diag_set(
        diag, TNY_EINVAL, "export: %s takes 2-player events; \"%s\" seats %d",
        tool, ev->format.name, (int)ev->format.players_per_table);
}

int tny_export_listfortress(const struct tny_event *ev, char **out,
                            struct tny_diag *diag)
{
    struct tny_standings swiss = {0}, final = {0};
    json_t *root = NULL;
    int32_t *swiss_rank = NULL;
    int rc;
    *out = NULL;
    if ((rc = tny__import_two_player(ev, "ListFortress", diag)) < 0)
        return rc;
    int32_t done = tny_event_completed_rounds(ev), last_swiss = 0;
    for (int32_t r = 0; r < done; r++)
        if (ev->rounds[r].stage != TNY_STAGE_ELIMINATION)
            last_swiss = r + 1;
    if ((rc = tny_standings_compute_at(ev, last_swiss, &swiss, diag)) < 0 ||
        (rc = tny_standings_compute(ev, &final, diag)) < 0)
        goto out;
    const size_t n = (size_t)(ev->n_players > 0 ? ev->n_players : 1);
    swiss_rank = calloc(n, sizeof(*swiss_rank));
    root = json_object();
    json_t *parts = json_array(), *rounds = json_array();
    bool ok = swiss_rank && root && tny__set(root, "participants", parts) &&
              tny__set(root, "rounds", rounds);
    rc = TNY_ENOMEM;
    if (!ok)
        goto out;
    const bool elim_done = done > last_swiss;
    for (int32_t i = 0; i < swiss.n_rows; i++)
        swiss_rank[swiss.rows[i].player] = i;
    int32_t k_mov = tny__import_tiebreak_index(&swiss, TNY_TB_MOV);
    int32_t k_sos = tny__import_tiebreak_index(&swiss, TNY_TB_SOS);
    for (int32_t p = 0; ok && p < ev->n_players; p++) {
        const struct tny_standing_row *row = &swiss.rows[swiss_rank[p]];
        json_t *q = json_object();
        char sos[32];
        ok = q && tny__set(q, "id", json_integer(tny__import_lf_id(ev, p))) &&
             tny__set(q, "name", json_string(ev->players[p].name)) &&
             tny__set(q, "score",
                      tny__number((double)row->points / TNY_POINT_SCALE)) &&
             tny__set(q, "swiss_rank", json_integer(row->rank));
        int32_t top = 0;
        if (elim_done)
            for (int32_t i = 0; i < final.n_rows; i++)
                if (final.rows[i].player == p &&
                    (final.rows[i].eliminated_in > 0 || i == 0))
                    top = final.rows[i].rank;
        ok = ok &&
             tny__set(q, "top_cut_rank", top ? json_integer(top) : json_null());
        ok = ok && tny__set(q, "mov",
                            k_mov >= 0 && row->has_tiebreak[k_mov]
                                ? tny__number(row->tiebreaks[k_mov])
                                : json_null());
        snprintf(sos, sizeof(sos), "%.2f",
                 k_sos >= 0 ? row->tiebreaks[k_sos] : 0.0);
        ok = ok &&
             tny__set(q, "sos", k_sos >= 0 ? json_string(sos) : json_null()) &&
             tny__set(q, "dropped", json_boolean(row->dropped)) &&
             tny__append(parts, q);
    }
    int32_t number[2] = {0, 0};
    json_int_t match_id = 0;
    for (int32_t r = 0; ok && r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        const bool elim = round->stage == TNY_STAGE_ELIMINATION;
        json_t *jr = json_object(), *ms = json_array();
        ok = jr && ms &&
             tny__set(jr, "roundtype_id", json_integer(elim ? 2 : 1)) &&
             tny__set(jr, "round_number", json_integer(++number[elim]));
        for (int32_t t = 0; ok && t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            const struct tny_result *res = &tb->result;
            json_t *m = json_object();
            ok = m && tny__set(m, "id", json_integer(++match_id)) &&
                 tny__set(m, "player1_id",
                          json_integer(tny__import_lf_id(ev, tb->seats[0])));
            if (tb->is_bye) {
                ok =
                    ok && tny__set(m, "player1_points", json_null()) &&
                    tny__set(m, "player2_id", json_null()) &&
                    tny__set(m, "player2_points", json_null()) &&
                    tny__set(m, "result", json_string("bye")) &&
                    tny__set(m, "winner_id",
                             json_integer(tny__import_lf_id(ev, tb->seats[0])));
            } else {
                int32_t w = tb->has_result
                                ? tny_result_winner_seat(&ev->format, res)
                                : -1;
                bool scored = tb->has_result && res->has_score;
                ok = ok &&
                     tny__set(m, "player1_points",
                              scored ? json_integer(res->score[0])
                                     : json_null()) &&
                     tny__set(
                         m, "player2_id",
                         json_integer(tny__import_lf_id(ev, tb->seats[1]))) &&
                     tny__set(m, "player2_points",
                              scored ? json_integer(res->score[1])
                                     : json_null()) &&
                     tny__set(m, "result",
                              json_string(!tb->has_result ? ""
                                          : w >= 0        ? "win"
                                                          : "tie")) &&
                     tny__set(m, "winner_id",
                              w >= 0 ? json_integer(
                                           tny__import_lf_id(ev, tb->seats[w]))
                                     : json_null());
            }
            ok = ok && tny__append(ms, m);
        }
        ok = ok && tny__set(jr, "matches", ms) && tny__append(rounds, jr);
    }
    if (!ok)
        goto out;
    rc = tny__dump(root, out);
out:
    if (rc == TNY_ENOMEM)
        tny_diag_set(diag, rc, "export: out of memory");
    json_decref(root);
    free(swiss_rank);
    tny_standings_release(&swiss);
    tny_standings_release(&final);
    return rc;
}
