/* test_import_corpus.c - real events from other tools, read at test time
 * from tests/data (a copy of the shared real-event corpus, see its README).
 *
 * ListFortress corpus (308 X-Wing 2.0 events): every event imports, or is
 * refused with one message naming a real data error.  The standings of each
 * imported event on the xwing-2.0 preset are compared with the stored
 * score, swiss_rank, MoV and SoS.  The explanation of a disagreement is
 * checked, not assumed: an independent recount from the file's own matches
 * with the formulas of tests/data/README.md (score 1 per win or bye; MoV
 * 200 + own - opponent's per game in 0..400, 300 per bye; SoS the mean of
 * the opponents' score per round played) must agree with Tourney, so that
 * a stored value that differs contradicts its own file (dirty data, named
 * in the output).  A disagreement that the recount does not explain fails
 * the test.
 *
 * Every imported event also exports to ListFortress and imports back to
 * the same Swiss standings.
 *
 * TOM events: the Pokemon event files load, their completed rounds and
 * tables are the recorded ones, and they export to ListFortress and import
 * back with the same results.
 */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tny/import.h"
#include "tny/json_io.h"
#include "tny/standings.h"

#define DATA TNY_SOURCE_DIR "/tests/data/external"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s (the corpus lives in tests/data)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of dir's *.json files (ending in suffix). */
static int32_t list_dir(const char *dir, const char *suffix, char ***out)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (the corpus lives in tests/data)", dir);
    int32_t n = 0, cap = 512;
    char **names = malloc(sizeof(char *) * (size_t)cap);
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < sl || strcmp(e->d_name + l - sl, suffix) != 0)
            continue;
        if (n == cap)
            names = realloc(names, sizeof(char *) * (size_t)(cap *= 2));
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    *out = names;
    return n;
}

/* ---- the independent recount (README formulas) ------------------------- */

struct recount {
    int32_t n;
    json_int_t *id;
    double *score, *mov, *played, *sos, *sos_stored;
    int32_t **opp;
    int32_t *n_opp;
    int32_t n_swiss;
    double **score_at, **mov_at; /* after each Swiss round, in order */
};

static int32_t rc_index(const struct recount *r, const json_t *v)
{
    if (!json_is_integer(v))
        return -1;
    for (int32_t i = 0; i < r->n; i++)
        if (r->id[i] == json_integer_value(v))
            return i;
    return -1;
}

static double clamp_mov(double x)
{
    return x < 0 ? 0 : x > 400 ? 400 : x;
}

static void recount(const json_t *root, struct recount *r)
{
    const json_t *parts = json_object_get(root, "participants");
    r->n = (int32_t)json_array_size(parts);
    size_t n = (size_t)r->n;
    r->id = calloc(n, sizeof(*r->id));
    r->score = calloc(n, sizeof(double));
    r->mov = calloc(n, sizeof(double));
    r->played = calloc(n, sizeof(double));
    r->sos = calloc(n, sizeof(double));
    r->sos_stored = calloc(n, sizeof(double));
    r->opp = calloc(n, sizeof(int32_t *));
    r->n_opp = calloc(n, sizeof(int32_t));
    for (size_t i = 0; i < n; i++) {
        r->id[i] =
            json_integer_value(json_object_get(json_array_get(parts, i), "id"));
        r->opp[i] = calloc(64, sizeof(int32_t));
    }
    const json_t *rounds = json_object_get(root, "rounds");
    /* Swiss rounds in round_number order (the file's order may differ). */
    size_t order[1000], n_sw = 0;
    for (size_t k = 0; k < json_array_size(rounds) && n_sw < 1000; k++) {
        const json_t *jr = json_array_get(rounds, k);
        if (json_integer_value(json_object_get(jr, "roundtype_id")) != 1)
            continue;
        json_int_t num =
            json_integer_value(json_object_get(jr, "round_number"));
        size_t at = n_sw++;
        while (at > 0 && json_integer_value(json_object_get(
                             json_array_get(rounds, order[at - 1]),
                             "round_number")) > num) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    r->n_swiss = (int32_t)n_sw;
    r->score_at = calloc(n_sw + 1, sizeof(double *));
    r->mov_at = calloc(n_sw + 1, sizeof(double *));
    for (size_t q = 0; q < n_sw; q++) {
        const json_t *jr = json_array_get(rounds, order[q]);
        const json_t *ms = json_object_get(jr, "matches");
        for (size_t i = 0; i < json_array_size(ms); i++) {
            const json_t *m = json_array_get(ms, i);
            int32_t a = rc_index(r, json_object_get(m, "player1_id"));
            int32_t b = rc_index(r, json_object_get(m, "player2_id"));
            int32_t w = rc_index(r, json_object_get(m, "winner_id"));
            double pa =
                json_integer_value(json_object_get(m, "player1_points"));
            double pb =
                json_integer_value(json_object_get(m, "player2_points"));
            if (a < 0 || b < 0) { /* a bye */
                int32_t p = a >= 0 ? a : b;
                r->score[p] += 1;
                r->mov[p] += 300;
                r->played[p] += 1;
                continue;
            }
            if (w < 0 && pa != pb)
                w = pa > pb ? a : b;
            if (w >= 0)
                r->score[w] += 1;
            r->mov[a] += clamp_mov(200 + pa - pb);
            r->mov[b] += clamp_mov(200 + pb - pa);
            r->played[a] += 1;
            r->played[b] += 1;
            if (r->n_opp[a] < 64)
                r->opp[a][r->n_opp[a]++] = b;
            if (r->n_opp[b] < 64)
                r->opp[b][r->n_opp[b]++] = a;
        }
        r->score_at[q] = malloc(sizeof(double) * (n ? n : 1));
        r->mov_at[q] = malloc(sizeof(double) * (n ? n : 1));
        memcpy(r->score_at[q], r->score, sizeof(double) * n);
        memcpy(r->mov_at[q], r->mov, sizeof(double) * n);
    }
    /* SoS from the recounted scores, and from the stored ones (which shows
     * whether a stored SoS follows from hand-edited stored scores). */
    for (int32_t p = 0; p < r->n; p++) {
        double s = 0, t = 0;
        for (int32_t k = 0; k < r->n_opp[p]; k++) {
            int32_t o = r->opp[p][k];
            const json_t *so =
                json_object_get(json_array_get(parts, o), "score");
            if (r->played[o] > 0) {
                s += r->score[o] / r->played[o];
                t +=
                    (json_is_integer(so) ? (double)json_integer_value(so) : 0) /
                    r->played[o];
            }
        }
        r->sos[p] = r->n_opp[p] ? s / r->n_opp[p] : 0;
        r->sos_stored[p] = r->n_opp[p] ? t / r->n_opp[p] : 0;
    }
}

static void recount_free(struct recount *r)
{
    for (int32_t k = 0; k < r->n_swiss; k++) {
        free(r->score_at[k]);
        free(r->mov_at[k]);
    }
    free(r->score_at);
    free(r->mov_at);
    for (int32_t i = 0; i < r->n; i++)
        free(r->opp[i]);
    free(r->opp);
    free(r->n_opp);
    free(r->id);
    free(r->score);
    free(r->mov);
    free(r->played);
    free(r->sos);
    free(r->sos_stored);
}

/* ---- the comparison ---------------------------------------------------- */

enum why {
    WHY_STALE,          /* stored score and MoV are those after an earlier
                         * round: stats not updated after the last rounds */
    WHY_SWAPPED,        /* stored score and MoV are another player's */
    WHY_SCORE_EDITED,   /* stored score contradicts the file's matches */
    WHY_MOV_EDITED,     /* stored MoV contradicts them, score agrees */
    WHY_MOV_WITH_SCORE, /* stored MoV and score both contradict them */
    WHY_STATS_ZERO,     /* the event's stored stats are all 0 (never
                         * computed by the uploading tool) */
    WHY_SOS_FROM_STORED_SCORES, /* stored SoS = SoS of the stored
                                 * (edited) scores */
    WHY_SOS_EDITED,             /* stored SoS contradicts the file otherwise */
    WHY_RANK_UNSORTED,   /* stored ranks not in stored score/MoV/SoS order */
    WHY_RANK_FROM_STATS, /* rank follows the disagreeing stored stats */
    WHY_RANK_LOT,        /* tied on score, MoV and SoS: the lot decides */
    WHY_COUNT_
};

static const char *const why_text[] = {
    [WHY_STALE] = "stored score and MoV are the ones after an earlier Swiss "
                  "round (stats not updated after the last round)",
    [WHY_SWAPPED] = "stored score and MoV belong to another participant "
                    "(stats attached to the wrong player)",
    [WHY_SCORE_EDITED] = "stored score contradicts the file's own matches "
                         "(hand-edited score)",
    [WHY_MOV_EDITED] = "stored MoV contradicts the file's own match points "
                       "(score agrees: points edited after the stats)",
    [WHY_MOV_WITH_SCORE] = "stored MoV contradicts the matches together "
                           "with the score (hand-edited results)",
    [WHY_STATS_ZERO] = "the event's stored score and MoV are all null or "
                       "zero (never computed by the uploading tool)",
    [WHY_SOS_FROM_STORED_SCORES] = "stored SoS follows from the stored "
                                   "(hand-edited) opponent scores",
    [WHY_SOS_EDITED] = "stored SoS contradicts the file's own matches and "
                       "its stored scores",
    [WHY_RANK_UNSORTED] = "stored swiss_rank is not in the order of the "
                          "stored score, MoV and SoS (ranks edited)",
    [WHY_RANK_FROM_STATS] = "order follows stored stats that contradict "
                            "the matches (above)",
    [WHY_RANK_LOT] = "tied on score, MoV and SoS: Tourney's lot decides",
};

struct tally {
    int32_t events, imported, refused, agree;
    int32_t cut_events, cut_champion, cut_right; /* issue 19 */
    int32_t cut_incomplete, cut_contradicts;
    int32_t why[WHY_COUNT_];
    int32_t unexplained;
};

static double stored_sos(const json_t *p, bool *has)
{
    const json_t *v = json_object_get(p, "sos");
    *has = true;
    if (json_is_string(v))
        return atof(json_string_value(v));
    if (json_is_number(v))
        return json_number_value(v);
    *has = false;
    return 0;
}

static void note(struct tally *t, const char *file, enum why w, const char *fmt,
                 ...)
{
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    t->why[w]++;
    printf("  %s: %s: %s\n", file, detail, why_text[w]);
}

static void unexplained(struct tally *t, const char *file, const char *fmt, ...)
{
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    t->unexplained++;
    printf("  %s: %s: UNEXPLAINED\n", file, detail);
}

static void compare_event(const char *file, const json_t *root,
                          const struct tny_event *ev, struct tally *t)
{
    const json_t *parts = json_object_get(root, "participants");
    struct recount rc = {0};
    struct tny_standings st = {0};
    struct tny_diag diag = {{0}};
    int32_t last_swiss = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_SWISS)
            last_swiss = r + 1;
    if (tny_standings_compute_at(ev, last_swiss, &st, &diag) != 0)
        fail_msg("%s: standings: %s", file, diag.msg);
    assert_int_equal(st.tiebreaks[0], TNY_TB_MOV);
    assert_int_equal(st.tiebreaks[1], TNY_TB_SOS);
    recount(root, &rc);
    const int32_t n = rc.n;
    int32_t *row_of = calloc((size_t)n, sizeof(int32_t));
    bool *stat_bad = calloc((size_t)n, sizeof(bool));
    bool all_zero = true, any_bad = false;
    for (int32_t p = 0; p < n; p++) {
        char id[32];
        snprintf(id, sizeof(id), "p%lld", (long long)rc.id[p]);
        row_of[p] = tu_row_of(ev, &st, id);
        assert_true(row_of[p] >= 0);
        const json_t *jp = json_array_get(parts, (size_t)p);
        if (json_integer_value(json_object_get(jp, "score")) != 0 ||
            json_integer_value(json_object_get(jp, "mov")) != 0)
            all_zero = false;
    }
    for (int32_t p = 0; p < n; p++) {
        const json_t *jp = json_array_get(parts, (size_t)p);
        const struct tny_standing_row *row = &st.rows[row_of[p]];
        double ours_score = (double)row->points / TNY_POINT_SCALE;
        double ours_mov = row->tiebreaks[0], ours_sos = row->tiebreaks[1];
        /* Tourney must equal the recount, or nothing below explains. */
        if (ours_score != rc.score[p] || ours_mov != rc.mov[p] ||
            fabs(ours_sos - rc.sos[p]) > 1e-9) {
            unexplained(t, file,
                        "p%lld: Tourney %g/%g/%.4f, recount %g/%g/%.4f",
                        (long long)rc.id[p], ours_score, ours_mov, ours_sos,
                        rc.score[p], rc.mov[p], rc.sos[p]);
            continue;
        }
        const json_t *js = json_object_get(jp, "score");
        const json_t *jm = json_object_get(jp, "mov");
        bool has_sos;
        double ssos = stored_sos(jp, &has_sos);
        bool score_bad =
            json_is_integer(js) && (double)json_integer_value(js) != ours_score;
        bool mov_bad =
            json_is_integer(jm) && (double)json_integer_value(jm) != ours_mov;
        /* Specific causes first: stale stats, another player's stats. */
        int why = -1;
        double ss = (double)json_integer_value(js);
        double sm = (double)json_integer_value(jm);
        for (int32_t k = 0;
             (score_bad || mov_bad) && why < 0 && k + 1 < rc.n_swiss; k++)
            if (rc.score_at[k][p] == ss && rc.mov_at[k][p] == sm)
                why = WHY_STALE;
        for (int32_t q = 0; (score_bad || mov_bad) && why < 0 && q < n; q++)
            if (q != p && rc.score[q] == ss && rc.mov[q] == sm &&
                json_integer_value(json_object_get(
                    json_array_get(parts, (size_t)q), "mov")) == ours_mov)
                why = WHY_SWAPPED;
        if (why >= 0)
            note(t, file, (enum why)why,
                 "p%lld score/MoV stored %g/%g, matches %g/%g",
                 (long long)rc.id[p], ss, sm, ours_score, ours_mov);
        if (score_bad && why < 0)
            note(t, file, all_zero ? WHY_STATS_ZERO : WHY_SCORE_EDITED,
                 "p%lld score stored %lld, matches %g", (long long)rc.id[p],
                 (long long)json_integer_value(js), ours_score);
        if (mov_bad && why < 0)
            note(t, file,
                 all_zero    ? WHY_STATS_ZERO
                 : score_bad ? WHY_MOV_WITH_SCORE
                             : WHY_MOV_EDITED,
                 "p%lld MoV stored %lld, matches %g", (long long)rc.id[p],
                 (long long)json_integer_value(jm), ours_mov);
        bool sos_bad = has_sos && fabs(ssos - ours_sos) > 0.005 + 1e-9;
        if (sos_bad)
            note(t, file,
                 all_zero ? WHY_STATS_ZERO
                 : fabs(ssos - rc.sos_stored[p]) <= 0.005 + 1e-9
                     ? WHY_SOS_FROM_STORED_SCORES
                     : WHY_SOS_EDITED,
                 "p%lld SoS stored %.2f, matches %.4f", (long long)rc.id[p],
                 ssos, ours_sos);
        stat_bad[p] =
            score_bad || sos_bad ||
            (json_is_integer(jm) && (double)json_integer_value(jm) != ours_mov);
        any_bad = any_bad || stat_bad[p];
    }

    /* Ranks: the stored order of ranked players against Tourney's. */
    int32_t *by_stored = calloc((size_t)n, sizeof(int32_t)), m = 0;
    for (int32_t rank = 1; rank <= n * 4 && m < n; rank++)
        for (int32_t p = 0; p < n; p++)
            if (json_integer_value(json_object_get(
                    json_array_get(parts, (size_t)p), "swiss_rank")) == rank)
                by_stored[m++] = p;
    bool rank_ok = true;
    for (int32_t i = 0; i + 1 < m; i++)
        if (row_of[by_stored[i]] > row_of[by_stored[i + 1]])
            rank_ok = false;
    if (!rank_ok) {
        /* Is the stored order the order of the stored values? */
        bool sorted = true;
        for (int32_t i = 0; i + 1 < m && sorted; i++) {
            const json_t *a = json_array_get(parts, (size_t)by_stored[i]);
            const json_t *b = json_array_get(parts, (size_t)by_stored[i + 1]);
            bool ha, hb;
            double ka[3] = {
                (double)json_integer_value(json_object_get(a, "score")),
                (double)json_integer_value(json_object_get(a, "mov")),
                stored_sos(a, &ha)};
            double kb[3] = {
                (double)json_integer_value(json_object_get(b, "score")),
                (double)json_integer_value(json_object_get(b, "mov")),
                stored_sos(b, &hb)};
            for (int k = 0; k < 3; k++) {
                if (ka[k] > kb[k] + 1e-9)
                    break;
                if (ka[k] < kb[k] - 1e-9) {
                    sorted = false;
                    break;
                }
            }
        }
        if (all_zero) {
            note(t, file, WHY_STATS_ZERO, "swiss_rank (placeholder order)");
        } else if (!sorted) {
            note(t, file, WHY_RANK_UNSORTED, "swiss_rank");
        } else if (any_bad) {
            note(t, file, WHY_RANK_FROM_STATS, "swiss_rank");
        } else {
            /* Only ties on all three may be ordered differently. */
            bool ties_only = true;
            for (int32_t i = 0; i + 1 < m; i++) {
                const struct tny_standing_row *x =
                    &st.rows[row_of[by_stored[i]]];
                const struct tny_standing_row *y =
                    &st.rows[row_of[by_stored[i + 1]]];
                if (row_of[by_stored[i]] > row_of[by_stored[i + 1]] &&
                    (x->points != y->points ||
                     x->tiebreaks[0] != y->tiebreaks[0] ||
                     fabs(x->tiebreaks[1] - y->tiebreaks[1]) > 0.005 + 1e-9))
                    ties_only = false;
            }
            if (ties_only)
                note(t, file, WHY_RANK_LOT, "swiss_rank");
            else
                unexplained(t, file, "swiss_rank order differs");
        }
    }
    if (rank_ok && !any_bad)
        t->agree++;
    free(by_stored);
    free(row_of);
    free(stat_bad);
    recount_free(&rc);
    tny_standings_release(&st);
}

/* The band of a final place: 1, 2, 3-4 (4), 5-8 (8), ... */
static int32_t band_of(int32_t rank)
{
    int32_t b = 1;
    while (b < rank)
        b *= 2;
    return b;
}

/* The file's own reading of its cut, independent of Tourney: elimination
 * rounds by the number of players seated (largest first); a player who
 * loses a game of a round of S players is in band S, the winner of the
 * last game (winner_id, else the higher points) band 1.  band[i] is for
 * participants[i]; 0 = not in the cut.  Returns the games of the last
 * elimination round (1: the file has its final). */
static int32_t recount_cut(const json_t *root, int32_t *band)
{
    const json_t *parts = json_object_get(root, "participants");
    const json_t *rounds = json_object_get(root, "rounds");
    size_t np = json_array_size(parts);
    const json_t *el[64];
    size_t ne = 0;
    int32_t seated[64];
    for (size_t k = 0; k < json_array_size(rounds) && ne < 64; k++) {
        const json_t *r = json_array_get(rounds, k);
        if (json_integer_value(json_object_get(r, "roundtype_id")) != 2)
            continue;
        const json_t *ms = json_object_get(r, "matches");
        int32_t n = 0;
        for (size_t i = 0; i < json_array_size(ms); i++)
            for (int s = 0; s < 2; s++)
                n += json_is_integer(json_object_get(
                    json_array_get(ms, i), s ? "player2_id" : "player1_id"));
        size_t at = ne++;
        while (at > 0 && seated[at - 1] < n) {
            el[at] = el[at - 1];
            seated[at] = seated[at - 1];
            at--;
        }
        el[at] = r;
        seated[at] = n;
    }
    for (size_t i = 0; i < np; i++)
        band[i] = 0;
    int32_t last_games = 0;
    for (size_t q = 0; q < ne; q++) {
        const json_t *ms = json_object_get(el[q], "matches");
        last_games = (int32_t)json_array_size(ms);
        for (size_t i = 0; i < json_array_size(ms); i++) {
            const json_t *m = json_array_get(ms, i);
            json_int_t a = json_integer_value(json_object_get(m, "player1_id"));
            json_int_t b = json_integer_value(json_object_get(m, "player2_id"));
            const json_t *wv = json_object_get(m, "winner_id");
            json_int_t pa =
                json_integer_value(json_object_get(m, "player1_points"));
            json_int_t pb =
                json_integer_value(json_object_get(m, "player2_points"));
            json_int_t w = json_is_integer(wv) ? json_integer_value(wv)
                           : pa != pb          ? (pa > pb ? a : b)
                                               : 0;
            for (size_t j = 0; j < np; j++) {
                json_int_t id = json_integer_value(
                    json_object_get(json_array_get(parts, j), "id"));
                if (id != a && id != b)
                    continue;
                if (id != w)
                    band[j] = seated[q];
                else if (q + 1 == ne && last_games == 1)
                    band[j] = 1;
            }
        }
    }
    return last_games;
}

/* Issue 19: an event with a cut and a recorded champion (top_cut_rank 1)
 * gets the source's final classification: the same champion, every cut
 * player in the source's band (1, 2, 3-4, 5-8, ...).  Tourney must equal
 * the file's own reading of its games (recount_cut), or nothing explains a
 * disagreement; a stored top_cut_rank that differs from the games is
 * explained only by what the file shows: a cut that stops before its
 * final, or a stored rank that contradicts the file's own games. */
static void compare_cut(const char *file, const json_t *root,
                        const struct tny_event *ev, struct tally *t)
{
    const json_t *parts = json_object_get(root, "participants");
    const size_t np = json_array_size(parts);
    bool has_elim = false, has_champion = false;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        has_elim = has_elim || ev->rounds[r].stage == TNY_STAGE_ELIMINATION;
    for (size_t i = 0; i < np; i++)
        has_champion =
            has_champion || json_integer_value(json_object_get(
                                json_array_get(parts, i), "top_cut_rank")) == 1;
    if (!has_elim || !has_champion)
        return;
    t->cut_events++;
    struct tny_standings st = {0};
    struct tny_diag diag = {{0}};
    if (tny_standings_compute(ev, &st, &diag) != 0)
        fail_msg("%s: standings: %s", file, diag.msg);
    int32_t *band = calloc(np + 1, sizeof(int32_t));
    int32_t last_games = recount_cut(root, band);
    bool champion = false, bands = true;
    for (size_t i = 0; i < np; i++) {
        const json_t *p = json_array_get(parts, i);
        const json_t *tc = json_object_get(p, "top_cut_rank");
        char id[32];
        snprintf(id, sizeof(id), "p%lld",
                 (long long)json_integer_value(json_object_get(p, "id")));
        int k = tu_row_of(ev, &st, id);
        assert_true(k >= 0);
        int32_t ours = st.rows[k].rank;
        /* Tourney's band is the file's own, for everyone in the cut's
         * recorded games. */
        if (band[i] > 0 && band_of(ours) != band[i] &&
            !(last_games > 1 && band_of(ours) <= last_games))
            unexplained(t, file, "%s: final place %d, its games say band %d",
                        id, (int)ours, (int)band[i]);
        if (!json_is_integer(tc))
            continue;
        int32_t theirs = (int32_t)json_integer_value(tc);
        if (theirs == 1 && ours == 1)
            champion = true;
        if (band_of(ours) != band_of(theirs))
            bands = false;
    }
    if (!champion || !bands) {
        if (last_games > 1) {
            t->cut_incomplete++;
            printf("  %s: top_cut_rank: the file's cut stops before its "
                   "final (%d games in its last elimination round): the "
                   "stored ranks come from games the file does not have\n",
                   file, (int)last_games);
        } else {
            t->cut_contradicts++;
            printf("  %s: top_cut_rank: the stored champion or bands "
                   "contradict the file's own elimination games "
                   "(winner_id)\n",
                   file);
        }
    }
    t->cut_champion += champion;
    t->cut_right += champion && bands;
    free(band);
    tny_standings_release(&st);
}

/* Export to ListFortress and import back: the same Swiss standings (the
 * exported stats are Tourney's, the import ignores them). */
static void export_round_trip(const char *file, const struct tny_event *ev)
{
    char *lf = NULL;
    struct tny_diag d = {{0}};
    struct tny_event back;
    struct tny_standings a = {0}, b = {0};
    if (tny_export_listfortress(ev, &lf, &d) != 0)
        fail_msg("%s: export: %s", file, d.msg);
    if (tny_import(TNY_IMPORT_LISTFORTRESS, lf, strlen(lf), &back, &d) != 0)
        fail_msg("%s: import of the export: %s", file, d.msg);
    int32_t last = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_SWISS)
            last = r + 1;
    assert_int_equal(back.n_rounds, ev->n_rounds);
    assert_int_equal(tny_standings_compute_at(ev, last, &a, &d), 0);
    assert_int_equal(tny_standings_compute_at(&back, last, &b, &d), 0);
    assert_int_equal(a.n_rows, b.n_rows);
    /* Player by player (the lot is seeded by the event id, which the
     * export does not carry: only lot-decided order may differ). */
    for (int32_t i = 0; i < a.n_rows; i++) {
        const struct tny_standing_row *x = &a.rows[i];
        const char *id = ev->players[x->player].id;
        int k = tu_row_of(&back, &b, id);
        assert_true(k >= 0);
        const struct tny_standing_row *y = &b.rows[k];
        if (x->points != y->points || x->tiebreaks[0] != y->tiebreaks[0] ||
            x->tiebreaks[1] != y->tiebreaks[1] || x->dropped != y->dropped ||
            (x->rank != y->rank && !x->decided_by_lot &&
             !(i > 0 && a.rows[i - 1].decided_by_lot)))
            fail_msg("%s: %s differs after export and import", file, id);
    }
    tny_standings_release(&a);
    tny_standings_release(&b);
    tny_event_release(&back);
    free(lf);
}

/* The data errors an import may be refused for (issue 10, data README). */
static bool is_data_error(const char *msg)
{
    static const char *const kinds[] = {
        "is seated twice in this round", "plays against themselves",
        "a game without a winner", "a game against a missing opponent",
        "is outside 0..200"};
    if (strncmp(msg, "listfortress: rounds[", 21) != 0)
        return false;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strstr(msg, kinds[i]))
            return true;
    return false;
}

static void test_listfortress_corpus_xwing_2_0(void **state)
{
    (void)state;
    char **files;
    int32_t n = list_dir(DATA "/listfortress", ".json", &files);
    struct tally t = {0};
    assert_int_equal(n, 308);
    printf("ListFortress corpus: %d events\n", (int)n);
    for (int32_t i = 0; i < n; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof(path), DATA "/listfortress/%s", files[i]);
        char *text = slurp(path, &len);
        struct tny_event ev;
        struct tny_diag diag = {{0}};
        t.events++;
        if (tny_import(TNY_IMPORT_LISTFORTRESS, text, len, &ev, &diag) != 0) {
            if (!is_data_error(diag.msg))
                fail_msg("%s: refused for a reason that is not a data "
                         "error: %s",
                         files[i], diag.msg);
            printf("  %s: refused: %s\n", files[i], diag.msg);
            t.refused++;
        } else {
            json_error_t err;
            json_t *root = json_loadb(text, len, 0, &err);
            assert_non_null(root);
            t.imported++;
            compare_event(files[i], root, &ev, &t);
            compare_cut(files[i], root, &ev, &t);
            export_round_trip(files[i], &ev);
            json_decref(root);
            tny_event_release(&ev);
        }
        free(text);
        free(files[i]);
    }
    free(files);
    printf("summary: %d events, %d imported (%d agree with every stored "
           "score, MoV, SoS and swiss_rank), %d refused for data errors\n",
           (int)t.events, (int)t.imported, (int)t.agree, (int)t.refused);
    for (int w = 0; w < WHY_COUNT_; w++)
        printf("  %4d x %s\n", (int)t.why[w], why_text[w]);
    printf("  %4d unexplained\n", (int)t.unexplained);
    printf("cut: %d imported events with a cut and a recorded champion; "
           "%d name the source's champion, %d have every cut player in the "
           "source's band\n",
           (int)t.cut_events, (int)t.cut_champion, (int)t.cut_right);
    assert_int_equal(t.unexplained, 0);
    printf("     %d x the file's cut stops before its final; %d x stored "
           "top_cut_rank contradicts the file's elimination games\n",
           (int)t.cut_incomplete, (int)t.cut_contradicts);
    assert_int_equal(t.cut_right + t.cut_incomplete + t.cut_contradicts,
                     t.cut_events);
    assert_int_equal(t.imported + t.refused, 308);
}

static void test_tom_events_load_and_round_trip(void **state)
{
    (void)state;
    char **files;
    int32_t n = list_dir(DATA "/tom", ".event.json", &files);
    assert_true(n >= 2);
    for (int32_t i = 0; i < n; i++) {
        char path[512], tpath[512];
        size_t len, tlen;
        snprintf(path, sizeof(path), DATA "/tom/%s", files[i]);
        snprintf(tpath, sizeof(tpath), "%.*s.truth.json",
                 (int)(strlen(path) - strlen(".event.json")), path);
        char *text = slurp(path, &len), *truth = slurp(tpath, &tlen);
        struct tny_event ev, back;
        struct tny_diag diag = {{0}};
        if (tny_event_from_json_text(text, len, &ev, &diag) != 0)
            fail_msg("%s: %s", files[i], diag.msg);
        json_error_t err;
        json_t *tr = json_loadb(truth, tlen, 0, &err);
        assert_non_null(tr);
        /* The completed rounds and every table are the recorded ones. */
        assert_int_equal(
            tny_event_completed_rounds(&ev),
            json_integer_value(json_object_get(tr, "completed_swiss_rounds")));
        const json_t *rr = json_object_get(tr, "real_rounds");
        assert_int_equal(json_array_size(rr), ev.n_rounds);
        for (int32_t r = 0; r < ev.n_rounds; r++) {
            const json_t *tabs = json_array_get(rr, (size_t)r);
            assert_int_equal(json_array_size(tabs), ev.rounds[r].n_tables);
            for (int32_t k = 0; k < ev.rounds[r].n_tables; k++) {
                const struct tny_table *tb = &ev.rounds[r].tables[k];
                const json_t *x = json_array_get(tabs, (size_t)k);
                if (tb->is_bye) {
                    assert_string_equal(
                        json_string_value(json_object_get(x, "bye")),
                        ev.players[tb->seats[0]].id);
                    continue;
                }
                const json_t *ps = json_object_get(x, "players");
                for (int s = 0; s < 2; s++)
                    assert_string_equal(
                        json_string_value(json_array_get(ps, (size_t)s)),
                        ev.players[tb->seats[s]].id);
                const char *o =
                    json_string_value(json_object_get(x, "outcome"));
                int want = tb->has_result ? tb->result.winner + 1 : 0;
                assert_int_equal(atoi(o), want);
            }
        }
        /* Export to ListFortress and import back: the same results. */
        if (tny_event_completed_rounds(&ev) == ev.n_rounds) {
            char *lf = NULL;
            if (tny_export_listfortress(&ev, &lf, &diag) != 0)
                fail_msg("%s: export: %s", files[i], diag.msg);
            if (tny_import(TNY_IMPORT_LISTFORTRESS, lf, strlen(lf), &back,
                           &diag) != 0)
                fail_msg("%s: import of the export: %s", files[i], diag.msg);
            assert_int_equal(back.n_rounds, ev.n_rounds);
            for (int32_t r = 0; r < ev.n_rounds; r++)
                for (int32_t k = 0; k < ev.rounds[r].n_tables; k++) {
                    const struct tny_table *a = &ev.rounds[r].tables[k];
                    const struct tny_table *b = &back.rounds[r].tables[k];
                    assert_int_equal(a->is_bye, b->is_bye);
                    for (int32_t s = 0; s < a->n_seats; s++)
                        assert_string_equal(ev.players[a->seats[s]].id,
                                            back.players[b->seats[s]].id);
                    if (!a->is_bye)
                        assert_int_equal(a->result.winner, b->result.winner);
                }
            tny_event_release(&back);
            free(lf);
        }
        printf("%s: %d players, %d rounds (%d complete): as recorded\n",
               files[i], (int)ev.n_players, (int)ev.n_rounds,
               (int)tny_event_completed_rounds(&ev));
        json_decref(tr);
        tny_event_release(&ev);
        free(text);
        free(truth);
        free(files[i]);
    }
    free(files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listfortress_corpus_xwing_2_0),
        cmocka_unit_test(test_tom_events_load_and_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
