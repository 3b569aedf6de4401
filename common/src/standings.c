/* standings.c - standings, tiebreak chains and final classification (CM-8).
 *
 * Order: points, then each criterion of the stage's chain applied to the
 * runs of players still tied on everything before it, then the lot (CM-4),
 * so the order is total and reproducible.  Criteria whose value depends on
 * the tied group are computed for that group: head-to-head of exactly two
 * (NH-6); the Tantrix mini-league over all players with the same TP total
 * (TX-8 decision: not recomputed for subgroups).  Below the ranked players:
 * the TX-6 separate list, then the disqualified (CM-3); the ranked players'
 * games against a TX-6 player are ignored (points and every tiebreak), the
 * separate list keeps its own results.  After elimination
 * rounds: the classification of NH-9 (also used for GoT); after the AG
 * final: AG-13, table by table.  Rounds of an elimination stage give no
 * points; everything else counts.
 */
#include "tny/standings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tny/bracket.h"
#include "tny/game.h"
#include "tny/rng.h"
#include "tny/score.h"

#define EPS 1e-9

struct work {
    int32_t player;
    int32_t category; /* 0 ranked, 1 TX-6 separate list, 2 DQ */
    int32_t group;    /* AG-13 final table / AG-12 group; else 0 */
    int64_t points;
    double key[TNY_MAX_TIEBREAKS];   /* sort keys, higher is better */
    double value[TNY_MAX_TIEBREAKS]; /* shown values */
    bool has[TNY_MAX_TIEBREAKS];
};

struct ctx {
    const struct tny_event *ev;
    const struct tny_records *rec;
    int32_t n_rounds;  /* rounds in rec */
    bool *in_scope;    /* rounds that count for points/tiebreaks */
    bool *excluded;    /* TX-6: players whose results the event ignores */
    bool any_excluded; /* some excluded[p]: counts() looks at opponents */
    int32_t *played;   /* per player rounds_played, once excluded is known */
    int64_t *points;   /* per player */
    int32_t *lot;      /* per player lot rank, 1 = luckiest */
    double *sos;       /* per player, computed lazily */
    bool have_sos;
};

static bool in_scope_round(const struct ctx *c, int32_t r0)
{
    return c->in_scope[r0];
}

/* Whether player p's record of round r0 counts for p's points and
 * tiebreaks: the round is in scope and, for a player on the ranked list,
 * the game was not against a TX-6 excluded player ("the event's final
 * result is determined ignoring all their results", seed 001 §7). */
static bool counts(const struct ctx *c, int32_t p, int32_t r0)
{
    if (!c->in_scope[r0])
        return false;
    if (!c->any_excluded || c->excluded[p])
        return true;
    const struct tny_record *x = tny_records_at(c->rec, p, r0);
    if (x->presence != TNY_PLAYED)
        return true;
    for (int32_t o = 0; o < x->n_opponents; o++)
        if (c->excluded[x->opponents[o]])
            return false;
    return true;
}

static int32_t rounds_played(const struct ctx *c, int32_t p)
{
    int32_t n = 0;
    if (c->played)
        return c->played[p];
    for (int32_t r = 0; r < c->n_rounds; r++)
        if (counts(c, p, r) &&
            tny_records_at(c->rec, p, r)->presence != TNY_ABSENT)
            n++;
    return n;
}

/* GT-4: mean over opponents of (their TP / their rounds played, byes
 * included); a bye is not an opponent. */
static void compute_sos(struct ctx *c)
{
    const int32_t n = c->ev->n_players;
    double *ratio = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!ratio)
        return;
    for (int32_t p = 0; p < n; p++) {
        int32_t played = rounds_played(c, p);
        ratio[p] =
            played > 0 ? (double)c->points[p] / TNY_POINT_SCALE / played : 0.0;
    }
    for (int32_t p = 0; p < n; p++) {
        double sum = 0;
        int32_t n_opp = 0;
        for (int32_t r = 0; r < c->n_rounds; r++) {
            const struct tny_record *x = tny_records_at(c->rec, p, r);
            if (!counts(c, p, r) || x->presence != TNY_PLAYED)
                continue;
            for (int32_t o = 0; o < x->n_opponents; o++) {
                sum += ratio[x->opponents[o]];
                n_opp++;
            }
        }
        c->sos[p] = n_opp > 0 ? sum / n_opp : 0.0;
    }
    free(ratio);
    c->have_sos = true;
}

static double esos_of(const struct ctx *c, int32_t p)
{
    double sum = 0;
    int32_t n_opp = 0;
    for (int32_t r = 0; r < c->n_rounds; r++) {
        const struct tny_record *x = tny_records_at(c->rec, p, r);
        if (!counts(c, p, r) || x->presence != TNY_PLAYED)
            continue;
        for (int32_t o = 0; o < x->n_opponents; o++) {
            sum += c->sos[x->opponents[o]];
            n_opp++;
        }
    }
    return n_opp > 0 ? sum / n_opp : 0.0;
}

/* Opponents' strength other than GT-4's SoS: "owp" is the mean of each
 * opponent's points / (win points x rounds played), each at least the
 * format's floor (Pokemon: 25 %); "buchholz" the sum of the opponents'
 * points; "median_buchholz" the same without the best and the worst
 * opponent (when there are at least three).  Byes are no opponent. */
static double opponents_value(const struct ctx *c, enum tny_tiebreak tb,
                              int32_t p)
{
    const struct tny_format *fmt = &c->ev->format;
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    int32_t n_opp = 0;
    for (int32_t r = 0; r < c->n_rounds; r++) {
        const struct tny_record *x = tny_records_at(c->rec, p, r);
        if (!in_scope_round(c, r) || x->presence != TNY_PLAYED)
            continue;
        for (int32_t o = 0; o < x->n_opponents; o++) {
            int32_t q = x->opponents[o];
            double v = (double)c->points[q] / TNY_POINT_SCALE;
            if (tb == TNY_TB_OWP) {
                int32_t played = rounds_played(c, q);
                double per = (double)fmt->win_points / TNY_POINT_SCALE;
                v = played > 0 && per > 0 ? v / (per * played) : 0;
                if (v < fmt->owp_floor_permille / 1000.0)
                    v = fmt->owp_floor_permille / 1000.0;
            }
            sum += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            n_opp++;
        }
    }
    if (tb == TNY_TB_OWP)
        return n_opp > 0 ? 100.0 * sum / n_opp : 0.0; /* percent */
    if (tb == TNY_TB_MEDIAN_BUCHHOLZ && n_opp >= 3)
        return sum - lo - hi;
    return sum;
}

/* What the criteria summing a player's rounds need, over the rounds
 * that count, each summed in round order. */
struct sums {
    double hq, wins, total_score, relative, success, game_points, mov;
    double firsts, seconds, thirds;
    double best_relative, best_prelim_relative; /* -INFINITY: none */
    int32_t n_rounds;                           /* not absent */
};

static bool sums_rounds(enum tny_tiebreak tb)
{
    switch (tb) {
    case TNY_TB_HQ_DIFF:
    case TNY_TB_WINS:
    case TNY_TB_TOTAL_SCORE:
    case TNY_TB_RELATIVE_SCORE:
    case TNY_TB_BEST_PRELIM_RELATIVE:
    case TNY_TB_BEST_RELATIVE:
    case TNY_TB_SUCCESS_RATE:
    case TNY_TB_GAME_POINTS:
    case TNY_TB_MOV:
    case TNY_TB_FIRSTS:
    case TNY_TB_SECONDS:
    case TNY_TB_THIRDS: return true;
    default: return false;
    }
}

static void sum_rounds(const struct ctx *c, int32_t p, struct sums *a)
{
    *a = (struct sums){.best_relative = -INFINITY,
                       .best_prelim_relative = -INFINITY};
    for (int32_t r = 0; r < c->n_rounds; r++) {
        const struct tny_record *x = tny_records_at(c->rec, p, r);
        if (!counts(c, p, r) || x->presence == TNY_ABSENT)
            continue;
        bool played = x->presence == TNY_PLAYED;
        a->hq += x->hq;
        a->wins += x->win;
        a->total_score += x->has_score ? x->score : 0;
        a->relative += played ? x->relative : 0;
        if (played && x->relative > a->best_relative)
            a->best_relative = x->relative;
        if (played && x->stage == TNY_STAGE_PRELIM &&
            x->relative > a->best_prelim_relative)
            a->best_prelim_relative = x->relative;
        a->success += x->success;
        a->n_rounds++;
        a->game_points += x->score;
        a->mov += x->mov;
        a->firsts += played && x->place == 1;
        a->seconds += played && x->place == 2;
        a->thirds += played && x->place == 3;
    }
}

/* Value of a group-independent criterion for player p; a for the
 * criteria that sum p's rounds (sums_rounds). */
static bool plain_value(struct ctx *c, enum tny_tiebreak tb, int32_t p,
                        const struct sums *a, double *value, double *key)
{
    switch (tb) {
    case TNY_TB_HQ_DIFF: *value = *key = a->hq; return true;
    case TNY_TB_WINS: *value = *key = a->wins; return true;
    case TNY_TB_TOTAL_SCORE: *value = *key = a->total_score; return true;
    case TNY_TB_RELATIVE_SCORE: *value = *key = a->relative; return true;
    case TNY_TB_GAME_POINTS: *value = *key = a->game_points; return true;
    case TNY_TB_MOV: *value = *key = a->mov; return true;
    case TNY_TB_FIRSTS: *value = *key = a->firsts; return true;
    case TNY_TB_SECONDS: *value = *key = a->seconds; return true;
    case TNY_TB_THIRDS: *value = *key = a->thirds; return true;
    case TNY_TB_BEST_RELATIVE:
    case TNY_TB_BEST_PRELIM_RELATIVE: {
        double best = tb == TNY_TB_BEST_RELATIVE ? a->best_relative
                                                 : a->best_prelim_relative;
        if (best == -INFINITY)
            return false;
        *value = *key = best;
        return true;
    }
    case TNY_TB_SUCCESS_RATE: /* CT-5: mean of the games, in percent */
        *value = *key =
            a->n_rounds > 0 ? 100.0 * a->success / a->n_rounds : 0.0;
        return true;
    case TNY_TB_SOS:
        if (!c->have_sos)
            compute_sos(c);
        *value = *key = c->sos[p];
        return true;
    case TNY_TB_ESOS:
        if (!c->have_sos)
            compute_sos(c);
        *value = *key = esos_of(c, p);
        return true;
    case TNY_TB_FINAL_PLACEMENT: { /* AG-13: place in the last game */
        /* Seed 002 T3: equal VP is an equal placement; IP and BP only seat
         * game 2 (T2(d)), so the next criterion decides. */
        for (int32_t r = c->n_rounds - 1; r >= 0; r--) {
            const struct tny_record *x = tny_records_at(c->rec, p, r);
            if (x->presence == TNY_PLAYED) {
                *value = x->score_place;
                *key = -x->score_place;
                return true;
            }
        }
        return false;
    }
    case TNY_TB_OWP:
    case TNY_TB_BUCHHOLZ:
    case TNY_TB_MEDIAN_BUCHHOLZ:
        *value = *key = opponents_value(c, tb, p);
        return true;
    case TNY_TB_LOT:
        *value = c->lot[p];
        *key = -c->lot[p];
        return true;
    default: *value = *key = 0; return true;
    }
}

/* TX-8 mini-league: TP, or score difference, in games among players with
 * the same points total. */
static double mini_league(const struct ctx *c, int32_t p, bool score_diff)
{
    double sum = 0;
    for (int32_t r = 0; r < c->n_rounds; r++) {
        const struct tny_record *x = tny_records_at(c->rec, p, r);
        if (!counts(c, p, r) || x->presence != TNY_PLAYED ||
            x->n_opponents != 1 || c->points[x->opponents[0]] != c->points[p])
            continue;
        if (score_diff)
            sum += x->has_score ? x->score - x->opp_score : 0;
        else
            sum += (double)x->tp / TNY_POINT_SCALE;
    }
    return sum;
}

/* NH-6: exactly two tied who played each other and did not draw. */
static void head_to_head(const struct ctx *c, struct work *a, struct work *b,
                         int k)
{
    double score = 0;
    int32_t met = 0;
    for (int32_t r = 0; r < c->n_rounds; r++) {
        const struct tny_record *x = tny_records_at(c->rec, a->player, r);
        if (!counts(c, a->player, r) || x->presence != TNY_PLAYED ||
            x->n_opponents != 1 || x->opponents[0] != b->player)
            continue;
        score += x->win;
        met++;
    }
    if (met == 0 || fabs(2 * score - met) < EPS)
        return; /* did not meet, or drew: the lot decides */
    a->has[k] = b->has[k] = true;
    a->value[k] = a->key[k] = 2 * score > met ? 1 : 0;
    b->value[k] = b->key[k] = 2 * score > met ? 0 : 1;
}

static bool same_before(const struct work *a, const struct work *b, int k)
{
    if (a->category != b->category || a->group != b->group ||
        a->points != b->points)
        return false;
    for (int i = 0; i < k; i++) {
        if (a->has[i] != b->has[i])
            return false;
        if (a->has[i] &&
            fabs(a->key[i] - b->key[i]) > EPS * (1 + fabs(a->key[i])))
            return false;
    }
    return true;
}

/* The two orders rank_rows sorts by.  base: category, group, points,
 * player (total).  Otherwise the chain's step: key[] and has[] indexed by
 * position, higher key first, else the position before the sort. */
struct order {
    const struct work *rows;
    const double *key;
    const bool *has;
    bool base;
};

static int cmp_order(const struct order *o, int32_t x, int32_t y)
{
    if (o->base) {
        const struct work *a = &o->rows[x], *b = &o->rows[y];
        if (a->category != b->category)
            return a->category < b->category ? -1 : 1;
        if (a->group != b->group)
            return a->group < b->group ? -1 : 1;
        if (a->points != b->points)
            return a->points > b->points ? -1 : 1;
        return a->player < b->player ? -1 : a->player > b->player;
    }
    if (o->has[x] && o->has[y] &&
        fabs(o->key[x] - o->key[y]) > EPS * (1 + fabs(o->key[x])))
        return o->key[x] > o->key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* glibc's qsort (stdlib/msort.c, the merge sort it uses whenever it can
 * allocate its buffer) on indices: the same halves (n / 2 first), the
 * same merge (the left one on a tie), so the same comparisons in the
 * same order.  The chain's comparison is not transitive (EPS), so the
 * order of the comparisons decides the result: this is the order qsort
 * gave, without its indirect sort of 200-byte rows and a call per
 * comparison (issue 17). */
static void merge_sort(const struct order *o, int32_t *b, int32_t n,
                       int32_t *tmp)
{
    if (n <= 1)
        return;
    int32_t n1 = n / 2, n2 = n - n1;
    int32_t *b1 = b, *b2 = b + n1, *t = tmp;
    merge_sort(o, b1, n1, tmp);
    merge_sort(o, b2, n2, tmp);
    while (n1 > 0 && n2 > 0) {
        if (cmp_order(o, *b1, *b2) <= 0) {
            *t++ = *b1++;
            n1--;
        } else {
            *t++ = *b2++;
            n2--;
        }
    }
    if (n1 > 0)
        memcpy(t, b1, sizeof(*b1) * (size_t)n1);
    memcpy(b, tmp, sizeof(*b) * (size_t)(n - n2));
}

void tny__standings_sort_step(const double *key, const bool *has, int32_t *pos,
                              int32_t n, int32_t *tmp)
{
    struct order step = {.key = key, .has = has};
    merge_sort(&step, pos, n, tmp);
}

/* ord: the rows (indexed by player) in rank order: category, group,
 * points, then the chain, each criterion sorting the runs still tied on
 * everything before it. */
static int rank_rows(struct ctx *c, struct work *rows, int32_t n,
                     const struct tny_stage *stage, int32_t *ord)
{
    size_t np = (size_t)(n > 0 ? n : 1);
    int32_t *pos = malloc(sizeof(*pos) * np);
    int32_t *tmp = malloc(sizeof(*tmp) * np);
    int32_t *prev = malloc(sizeof(*prev) * np);
    double *key = malloc(sizeof(*key) * np);
    bool *has = malloc(sizeof(*has) * np);
    int rc = TNY_ENOMEM;
    if (!pos || !tmp || !prev || !key || !has)
        goto out;

    /* Every row's value of every criterion (none depends on the order),
     * the ones summing the player's rounds in one pass over them. */
    bool summed = false;
    for (int k = 0; k < stage->n_tiebreaks; k++)
        summed = summed || sums_rounds(stage->tiebreaks[k]);
    for (int32_t p = 0; p < n; p++) {
        struct work *w = &rows[p];
        struct sums sums = {0};
        if (summed)
            sum_rounds(c, p, &sums);
        for (int k = 0; k < stage->n_tiebreaks; k++) {
            enum tny_tiebreak tb = stage->tiebreaks[k];
            w->has[k] = false;
            if (tb == TNY_TB_MINI_TP || tb == TNY_TB_MINI_SCORE_DIFF) {
                w->value[k] = w->key[k] =
                    mini_league(c, p, tb == TNY_TB_MINI_SCORE_DIFF);
                w->has[k] = true;
            } else if (tb != TNY_TB_HEAD_TO_HEAD) {
                w->has[k] =
                    plain_value(c, tb, p, &sums, &w->value[k], &w->key[k]);
            }
        }
    }

    for (int32_t i = 0; i < n; i++)
        ord[i] = i;
    struct order base = {.rows = rows, .base = true};
    merge_sort(&base, ord, n, tmp);
    for (int k = 0; k < stage->n_tiebreaks; k++) {
        enum tny_tiebreak tb = stage->tiebreaks[k];
        for (int32_t i = 0; i < n;) {
            int32_t j = i + 1;
            while (j < n && same_before(&rows[ord[i]], &rows[ord[j]], k))
                j++;
            if (tb == TNY_TB_HEAD_TO_HEAD && j - i == 2)
                head_to_head(c, &rows[ord[i]], &rows[ord[i + 1]], k);
            if (j - i > 1) {
                for (int32_t m = i; m < j; m++) {
                    has[m] = rows[ord[m]].has[k];
                    key[m] = rows[ord[m]].key[k];
                    pos[m] = m;
                    prev[m] = ord[m];
                }
                tny__standings_sort_step(key, has, pos + i, j - i, tmp);
                for (int32_t m = i; m < j; m++)
                    ord[m] = prev[pos[m]];
            }
            i = j;
        }
    }
    rc = TNY_OK;
out:
    free(pos);
    free(tmp);
    free(prev);
    free(key);
    free(has);
    return rc;
}

static const struct tny_stage *stage_for(const struct tny_format *fmt,
                                         enum tny_stage_kind kind)
{
    for (int32_t s = 0; s < fmt->n_stages; s++)
        if (fmt->stages[s].kind == kind)
            return &fmt->stages[s];
    return &fmt->stages[0];
}

static int32_t missed_games(const struct ctx *c, int32_t p)
{
    const struct tny_player *pl = &c->ev->players[p];
    int32_t missed = 0;
    for (int32_t r = 0; r < c->n_rounds; r++)
        if (in_scope_round(c, r) && r + 1 >= pl->first_round &&
            tny_records_at(c->rec, p, r)->presence == TNY_ABSENT)
            missed++;
    return missed;
}

void tny_standings_lot_order(const struct tny_event *ev, int32_t *order)
{
    for (int32_t i = 0; i < ev->n_players; i++)
        order[i] = i;
    struct tny_rng rng;
    tny_rng_derive(&rng, ev->seed, TNY_LOT_TIEBREAK, 0);
    tny_rng_shuffle_i32(&rng, order, ev->n_players);
}

/* Lot ranks: a seeded permutation of all players (CM-4). */
static int make_lot(const struct tny_event *ev, int32_t *lot)
{
    int32_t n = ev->n_players;
    int32_t *perm = malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    if (!perm)
        return TNY_ENOMEM;
    tny_standings_lot_order(ev, perm);
    for (int32_t i = 0; i < n; i++)
        lot[perm[i]] = i + 1;
    free(perm);
    return TNY_OK;
}

static void fill_rows_out(const struct ctx *c, const struct work *by_player,
                          const int32_t *ord, int32_t n,
                          const struct tny_stage *stage,
                          struct tny_standings *out)
{
    out->n_tiebreaks = stage->n_tiebreaks;
    memcpy(out->tiebreaks, stage->tiebreaks, sizeof(out->tiebreaks));
    for (int32_t i = 0; i < n; i++) {
        struct tny_standing_row *row = &out->rows[i];
        const struct work *w = &by_player[ord[i]];
        const struct tny_player *pl = &c->ev->players[w->player];
        row->rank = i + 1;
        row->player = w->player;
        row->points = w->points;
        for (int k = 0; k < stage->n_tiebreaks; k++) {
            row->tiebreaks[k] = w->value[k];
            row->has_tiebreak[k] = w->has[k];
        }
        row->games_played = rounds_played(c, w->player);
        row->missed_games = missed_games(c, w->player);
        row->separate_list = w->category == 1;
        row->disqualified = pl->dq_after > 0 && pl->dq_after <= c->n_rounds;
        row->dropped =
            (pl->no_show ||
             (pl->dropped_after > 0 && pl->dropped_after <= c->n_rounds)) &&
            !(pl->rejoined_from > 0 && pl->rejoined_from <= c->n_rounds + 1);
        /* decided by lot: tied with the next row on all but the lot */
        int k_lot = stage->n_tiebreaks - 1;
        row->decided_by_lot = i + 1 < n && k_lot >= 0 &&
                              stage->tiebreaks[k_lot] == TNY_TB_LOT &&
                              same_before(w, &by_player[ord[i + 1]], k_lot);
    }
}

/* Elimination outcome for the NH-9 classification: the round (1-based
 * within the stage) each player lost in, the champion, who is alive. */
static void elimination_outcome(const struct tny_event *ev,
                                const struct tny_records *rec,
                                const int32_t *swiss_rank, int32_t *lost_in,
                                bool *alive, bool *in_bracket)
{
    int32_t elim_round = 0;
    for (int32_t r = 0; r < rec->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage != TNY_STAGE_ELIMINATION)
            continue;
        elim_round++;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            for (int32_t s = 0; s < tb->n_seats; s++) {
                in_bracket[tb->seats[s]] = true;
                alive[tb->seats[s]] = true;
            }
            if (tb->is_bye || tb->n_seats != 2)
                continue;
            int32_t a = tb->seats[0], b = tb->seats[1];
            int32_t w = tny_result_winner_seat(&ev->format, &tb->result);
            if (w < 0) /* NH-8: a drawn knockout goes to the better seed */
                w = swiss_rank[a] < swiss_rank[b] ? 0 : 1;
            int32_t loser = w == 0 ? b : a;
            lost_in[loser] = elim_round;
            alive[loser] = false;
        }
    }
}

static int classify_elimination(struct ctx *c, int32_t last_swiss,
                                struct tny_standings *out,
                                struct tny_diag *diag)
{
    const struct tny_event *ev = c->ev;
    const int32_t n = ev->n_players;
    struct tny_standings swiss = {0};
    int rc = tny_standings_compute_at(ev, last_swiss, &swiss, diag);
    if (rc < 0)
        return rc;
    int32_t *swiss_rank = calloc((size_t)n + 1, sizeof(int32_t));
    int32_t *lost_in = calloc((size_t)n + 1, sizeof(int32_t));
    bool *alive = calloc((size_t)n + 1, sizeof(bool));
    bool *in_bracket = calloc((size_t)n + 1, sizeof(bool));
    struct tny_standing_row *rows = NULL;
    int32_t *swiss_ids = NULL, *order = NULL;
    struct tny_bracket_exit *exits = NULL;
    if (!swiss_rank || !lost_in || !alive || !in_bracket) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }
    for (int32_t i = 0; i < swiss.n_rows; i++)
        swiss_rank[swiss.rows[i].player] = i + 1;
    elimination_outcome(ev, c->rec, swiss_rank, lost_in, alive, in_bracket);

    /* NH-9: alive (by seed), then losers of later rounds first, each group
     * by Swiss rank, then everyone else in Swiss order. */
    swiss_ids = malloc(sizeof(*swiss_ids) * (size_t)(n > 0 ? n : 1));
    order = malloc(sizeof(*order) * (size_t)(n > 0 ? n : 1));
    exits = malloc(sizeof(*exits) * (size_t)(n > 0 ? n : 1));
    rows = malloc(sizeof(*rows) * (size_t)(n > 0 ? n : 1));
    if (!swiss_ids || !order || !exits || !rows) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }
    int32_t n_exits = 0;
    for (int32_t i = 0; i < swiss.n_rows; i++) {
        int32_t p = swiss.rows[i].player;
        swiss_ids[i] = p;
        if (in_bracket[p])
            exits[n_exits++] = (struct tny_bracket_exit){
                .id = p, .round_lost = alive[p] ? 0 : lost_in[p]};
    }
    rc = tny_bracket_final_order(swiss.n_rows, swiss_ids, n_exits, exits, true,
                                 order, diag);
    if (rc < 0)
        goto out;
    for (int32_t k = 0; k < swiss.n_rows; k++) {
        int32_t p = order[k];
        rows[k] = swiss.rows[swiss_rank[p] - 1];
        rows[k].rank = k + 1;
        rows[k].eliminated_in = lost_in[p];
        rows[k].decided_by_lot = false;
    }
    int32_t k = swiss.n_rows;
    out->n_tiebreaks = swiss.n_tiebreaks;
    memcpy(out->tiebreaks, swiss.tiebreaks, sizeof(out->tiebreaks));
    out->n_rows = k;
    out->rows = rows;
    rows = NULL;
    rc = TNY_OK;
out:
    free(rows);
    free(swiss_ids);
    free(order);
    free(exits);
    free(swiss_rank);
    free(lost_in);
    free(alive);
    free(in_bracket);
    tny_standings_release(&swiss);
    return rc;
}

/* AG-10..AG-13: group of each player in the final stage, by the final
 * rounds' tables: group A = the players of the first group_a_size/4
 * tables of final game 1; after final game 2, each player's final-2 table. */
static void agricola_groups(const struct ctx *c, struct work *rows, int32_t n,
                            bool final_complete)
{
    const struct tny_event *ev = c->ev;
    int32_t first_final = -1, last_final = -1;
    for (int32_t r = 0; r < c->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_FINAL) {
            if (first_final < 0)
                first_final = r;
            last_final = r;
        }
    if (first_final < 0)
        return;
    int32_t a_tables = ev->format.group_a_size / 4;
    for (int32_t i = 0; i < n; i++) {
        const struct tny_record *x =
            tny_records_at(c->rec, rows[i].player, first_final);
        const struct tny_record *y =
            tny_records_at(c->rec, rows[i].player, last_final);
        if (x->presence != TNY_PLAYED) {
            rows[i].group = 1000000; /* withdrew from the final stage */
            continue;
        }
        if (final_complete && y->presence == TNY_PLAYED)
            rows[i].group = ev->rounds[last_final].tables[y->table].number;
        else
            rows[i].group = x->table < a_tables ? 0 : 1;
    }
}

int tny_standings_compute_at(const struct tny_event *ev, int32_t after_round,
                             struct tny_standings *out, struct tny_diag *diag)
{
    memset(out, 0, sizeof(*out));
    const int32_t n = ev->n_players;
    struct tny_records rec = {0};
    struct ctx c = {0};
    struct work *rows = NULL;
    int32_t *ord = NULL;
    int rc = tny_records_compute(ev, after_round, &rec, diag);
    if (rc < 0)
        return rc;
    size_t np = (size_t)(n > 0 ? n : 1);
    c.ev = ev;
    c.rec = &rec;
    c.n_rounds = after_round;
    c.in_scope = calloc((size_t)after_round + 1, sizeof(bool));
    c.excluded = calloc(np, sizeof(bool));
    c.points = calloc(np, sizeof(int64_t));
    c.lot = calloc(np, sizeof(int32_t));
    c.sos = calloc(np, sizeof(double));
    rows = calloc(np, sizeof(*rows));
    if (!c.in_scope || !c.excluded || !c.points || !c.lot || !c.sos || !rows ||
        make_lot(ev, c.lot) < 0) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }
    out->after_round = after_round;
    out->stage = after_round > 0 ? ev->rounds[after_round - 1].stage
                                 : ev->format.stages[0].kind;

    int32_t last_swiss = 0;
    for (int32_t r = 0; r < after_round; r++) {
        c.in_scope[r] = ev->rounds[r].stage != TNY_STAGE_ELIMINATION;
        if (c.in_scope[r])
            last_swiss = r + 1;
    }
    /* after_round > 0: classify_elimination recurses on an earlier round,
     * so the recursion ends even for a format that opens with an
     * elimination stage (the format parser refuses those). */
    if (out->stage == TNY_STAGE_ELIMINATION && after_round > 0) {
        rc = classify_elimination(&c, last_swiss, out, diag);
        out->after_round = after_round;
        out->stage = TNY_STAGE_ELIMINATION;
        goto out;
    }

    /* TX-6: a missed game counts over the event, so a stage's missed games
     * (the seed's "or any stage of it") are included; a DQ player is CM-3's
     * list, not this one. */
    for (int32_t p = 0; p < n; p++) {
        const struct tny_player *pl = &ev->players[p];
        bool dq = pl->dq_after > 0 && pl->dq_after <= after_round;
        c.excluded[p] = !dq && ev->format.max_missed_games > 0 &&
                        missed_games(&c, p) > ev->format.max_missed_games;
        c.any_excluded = c.any_excluded || c.excluded[p];
    }
    /* Rounds played, asked for each opponent of each player (SoS, OWP)
     * and each row: counted once (issue 17: standings regressed 1.38x). */
    int32_t *played = malloc(sizeof(*played) * np);
    if (!played) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }
    for (int32_t p = 0; p < n; p++) { /* with the points: one pass */
        played[p] = 0;
        for (int32_t r = 0; r < after_round; r++) {
            const struct tny_record *x = tny_records_at(&rec, p, r);
            if (!counts(&c, p, r))
                continue;
            c.points[p] += x->tp;
            played[p] += x->presence != TNY_ABSENT;
        }
    }
    c.played = played;

    const struct tny_stage *stage = stage_for(&ev->format, out->stage);
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    bool ag_final = ops && ops->final_reranks && out->stage == TNY_STAGE_FINAL;
    int32_t final_rounds = 0;
    for (int32_t r = 0; r < after_round; r++)
        final_rounds += ev->rounds[r].stage == TNY_STAGE_FINAL;
    bool final_complete = ag_final && final_rounds >= stage->rounds;
    if (ag_final && !final_complete) /* AG-12: re-rank with AG-8 */
        stage = stage_for(&ev->format, TNY_STAGE_PRELIM);

    for (int32_t p = 0; p < n; p++) {
        const struct tny_player *pl = &ev->players[p];
        rows[p].player = p;
        rows[p].points = c.points[p];
        if (pl->dq_after > 0 && pl->dq_after <= after_round)
            rows[p].category = 2; /* CM-3 */
        else if (c.excluded[p])
            rows[p].category = 1; /* TX-6 */
    }
    if (ag_final)
        agricola_groups(&c, rows, n, final_complete);
    ord = malloc(sizeof(*ord) * np);
    if (!ord || rank_rows(&c, rows, n, stage, ord) < 0) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }

    out->rows = calloc(np, sizeof(*out->rows));
    if (!out->rows) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "standings: out of memory");
        goto out;
    }
    out->n_rows = n;
    fill_rows_out(&c, rows, ord, n, stage, out);
    out->final = final_complete;
    rc = TNY_OK;
out:
    free(rows);
    free(ord);
    free(c.in_scope);
    free(c.excluded);
    free(c.points);
    free(c.lot);
    free(c.sos);
    free(c.played);
    tny_records_release(&rec);
    if (rc < 0)
        tny_standings_release(out);
    return rc;
}

int tny_standings_compute(const struct tny_event *ev, struct tny_standings *out,
                          struct tny_diag *diag)
{
    return tny_standings_compute_at(ev, tny_event_completed_rounds(ev), out,
                                    diag);
}

void tny_standings_release(struct tny_standings *st)
{
    free(st->rows);
    memset(st, 0, sizeof(*st));
}
