/* pair.c - plans the next round of an event (pair.h).
 *
 * Finds the stage the next round belongs to (moving on by itself when the
 * previous stage is complete), gathers what the stage's strategy needs from
 * the event (standings order, who met whom, byes, bracket so far) and calls
 * it: Swiss matching (swiss.h), re-seeded or folded elimination
 * (bracket.h), Agricola seating (agricola.h), Gorn tables (gorn.h), Berger
 * round robin (roundrobin.h).  Then numbers the tables (CM-9, fixed tables
 * of CM-5) and writes the explanation an arbiter reads.  Every lot is drawn
 * from the event seed (CM-4).
 */
#include "tny/pair.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/agricola.h"
#include "tny/bracket.h"
#include "tny/gorn.h"
#include "tny/rng.h"
#include "tny/roundrobin.h"
#include "tny/score.h"
#include "tny/standings.h"
#include "tny/swiss.h"

#define EXPLAIN_MAX (64 * 1024)

/* Growable explanation text with a maximum size. */
struct text {
    char *buf;
    size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...) TNY_PRINTF(2, 3);

static void text_add(struct text *t, const char *fmt, ...)
{
    /* Measured first, then written whole: a line is never cut (a cut could
     * split a name's UTF-8 character, and JSON output refuses that). */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t add = (size_t)n;
    if (t->len + add + 1 > EXPLAIN_MAX)
        return;
    if (t->len + add + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->len + add + 1)
            cap *= 2;
        char *nb = realloc(t->buf, cap);
        if (!nb)
            return;
        t->buf = nb;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, add + 1, fmt, ap);
    va_end(ap);
    t->len += add;
}

/* Everything a strategy gets. */
struct plan_ctx {
    const struct tny_event *ev;
    const struct tny_stage *stage;
    int32_t stage_index;
    int32_t round;           /* 1-based number being planned */
    int32_t round_in_stage;  /* 1-based within the stage */
    int32_t stage_cut;       /* resolved cut (GT-5) */
    struct tny_standings st; /* after the completed rounds */
    struct tny_records rec;
    struct text explain;
    struct tny_round_plan *out;
    struct tny_diag *diag;
};

static int add_table(struct plan_ctx *c, const int32_t *seats, int32_t n,
                     bool is_bye)
{
    struct tny_round_plan *p = c->out;
    struct tny_pairing_table *nt =
        realloc(p->tables, sizeof(*nt) * (size_t)(p->n_tables + 1));
    if (!nt)
        return tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
    p->tables = nt;
    struct tny_pairing_table *t = &p->tables[p->n_tables++];
    memset(t, 0, sizeof(*t));
    t->is_bye = is_bye;
    t->n_seats = n;
    t->first_seat = -1;
    for (int32_t s = 0; s < n; s++)
        t->seats[s] = seats[s];
    return TNY_OK;
}

static int add_bye(struct plan_ctx *c, int32_t player)
{
    return add_table(c, &player, 1, true);
}

static bool is_active(const struct plan_ctx *c, int32_t p)
{
    return tny_player_active_in(&c->ev->players[p], c->round);
}

/* Active players in standings order (best first). */
static int32_t active_in_standings(const struct plan_ctx *c, int32_t *out)
{
    int32_t n = 0;
    for (int32_t i = 0; i < c->st.n_rows; i++)
        if (is_active(c, c->st.rows[i].player))
            out[n++] = c->st.rows[i].player;
    return n;
}

static bool had_bye(const struct plan_ctx *c, int32_t p)
{
    for (int32_t r = 0; r < c->rec.n_rounds; r++)
        if (tny_records_at(&c->rec, p, r)->presence == TNY_BYE)
            return true;
    return false;
}

/* ---- Stage resolution ------------------------------------------------ */

static int32_t rounds_of_kind(const struct tny_event *ev, enum tny_stage_kind k)
{
    int32_t n = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        n += ev->rounds[r].stage == k;
    return n;
}

/* The last elimination round was a single game and no bye: the final. */
static bool elimination_done(const struct tny_event *ev)
{
    for (int32_t r = ev->n_rounds - 1; r >= 0; r--) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage != TNY_STAGE_ELIMINATION)
            continue;
        return round->n_tables <= 1;
    }
    return false;
}

static int find_stage(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    const struct tny_format *fmt = &ev->format;
    int32_t first = 0; /* GT-8: elimination from the start skips the Swiss */
    for (int32_t s = 0; s < fmt->n_stages; s++)
        if (fmt->stages[s].kind == TNY_STAGE_ELIMINATION &&
            fmt->stages[s].from_start)
            first = s;
    for (int32_t s = first; s < fmt->n_stages; s++) {
        const struct tny_stage *st = &fmt->stages[s];
        int32_t rounds, cut;
        int rc = tny_stage_size(ev, st, &rounds, &cut, c->diag);
        if (rc < 0)
            return rc;
        int32_t done = rounds_of_kind(ev, st->kind);
        bool complete;
        if (st->kind == TNY_STAGE_ELIMINATION) {
            if (cut == 0 && !st->from_start)
                continue; /* no cut: the event ends after the Swiss */
            complete = done > 0 && elimination_done(ev);
        } else if (st->kind == TNY_STAGE_ROUND_ROBIN && rounds == 0) {
            int32_t active = 0;
            for (int32_t p = 0; p < ev->n_players; p++)
                active += tny_player_active_in(&ev->players[p], 1);
            complete = done >= tny_round_robin_rounds(active);
        } else {
            complete = done >= rounds;
        }
        if (!complete) {
            c->stage = st;
            c->stage_index = s;
            c->round_in_stage = done + 1;
            c->stage_cut = cut;
            return TNY_OK;
        }
    }
    return tny_diag_set(c->diag, TNY_ESTATE,
                        "event is complete: every stage of format \"%s\" has "
                        "been played (%d rounds)",
                        fmt->name, (int)ev->n_rounds);
}

/* ---- 2-player Swiss (NH-4, NH-5, GT-2, GT-3, TX) --------------------- */

/* How the Swiss explanation names a player: id, name and standings points
 * in the format's units (never an index or 1/1200ths). */
struct describe_ctx {
    const struct tny_event *ev;
    const int32_t *order;  /* line index -> player */
    const int64_t *points; /* line index -> standings points */
};

static void describe_player(const void *ctx, int32_t i, char *buf, size_t size)
{
    const struct describe_ctx *d = ctx;
    const struct tny_player *pl = &d->ev->players[d->order[i]];
    char pts[32];
    tny_points_text(d->points[i], pts, sizeof pts);
    snprintf(buf, size, "%s %s, %s point%s", pl->id, pl->name, pts,
             strcmp(pts, "1") == 0 ? "" : "s");
}

/* ---- Sides (docs/rules.md "Sides") ------------------------------------ */

/* A player's sides in the Swiss stage so far (per line index): games on
 * each side, and the side of each stage round (-1: none) for the
 * alternation rule. */
struct side_history {
    int32_t n0, n1;
    int8_t *last; /* per stage round: side played or -1 */
};

struct meeting {
    int32_t a, b;  /* line indices, a < b */
    int8_t side_a; /* side a played, -1 unknown */
};

static int cmp_meeting(const void *x, const void *y)
{
    const struct meeting *p = x, *q = y;
    if (p->a != q->a)
        return (p->a > q->a) - (p->a < q->a);
    return (p->b > q->b) - (p->b < q->b);
}

/* The balance rule: who plays side 0 of a pair (line indices a, b; sides
 * history h over n_r stage rounds): the player with fewer games on side 0
 * than on side 1 (relative to the other); equal balances: the one who
 * played side 1 in the latest round where they differ; else by lot. */
static int8_t side_of_first(const struct side_history *h, int32_t a, int32_t b,
                            int32_t n_r, struct tny_rng *lot, const char **why)
{
    int32_t ba = h[a].n0 - h[a].n1, bb = h[b].n0 - h[b].n1;
    int8_t coin = (int8_t)tny_rng_below(lot, 2); /* one draw every table */
    *why = "balance";
    if (ba != bb)
        return ba < bb ? 0 : 1;
    *why = "alternation";
    for (int32_t r = n_r - 1; r >= 0; r--) {
        int8_t sa = h[a].last[r], sb = h[b].last[r];
        if (sa >= 0 && sb >= 0 && sa != sb)
            return sa == 1 ? 0 : 1;
    }
    *why = "lot";
    return coin;
}

/* Sides for the Swiss request: each player's history and need, and the
 * meetings split into rematches (met, rewritten in place) and pairs that may
 * meet again with the sides swapped (again: a, b, side a plays). */
static int swiss_sides(struct plan_ctx *c, const int32_t *pos, int32_t n,
                       int32_t *met, int64_t *n_met, int32_t **again,
                       int64_t *n_again, struct side_history **sh, int8_t **buf,
                       int8_t **need, int32_t *n_sr)
{
    const struct tny_event *ev = c->ev;
    const struct tny_format *f = &ev->format;
    int32_t nr = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        nr += ev->rounds[r].stage == c->stage->kind;
    *sh = calloc((size_t)n + 1, sizeof(**sh));
    *buf = malloc((size_t)(n + 1) * (size_t)(nr + 1));
    *need = malloc((size_t)n + 1);
    struct meeting *m = malloc(sizeof(*m) * (size_t)(*n_met + 1));
    *again = malloc(sizeof(int32_t) * 3 * (size_t)(*n_met + 1));
    if (!*sh || !*buf || !*need || !m || !*again) {
        free(m);
        return tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
    }
    memset(*buf, -1, (size_t)(n + 1) * (size_t)(nr + 1));
    for (int32_t i = 0; i < n; i++)
        (*sh)[i].last = *buf + (size_t)i * (size_t)(nr + 1);
    int64_t k = 0;
    for (int32_t r = 0, sr = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage != c->stage->kind)
            continue;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye || tb->n_seats != 2)
                continue;
            int32_t a = pos[tb->seats[0]], b = pos[tb->seats[1]];
            for (int s = 0; s < 2 && tb->has_sides; s++) {
                int32_t i = s ? b : a;
                if (i < 0)
                    continue;
                (*sh)[i].last[sr] = tb->side[s];
                if (tb->side[s] == 0)
                    (*sh)[i].n0++;
                else
                    (*sh)[i].n1++;
            }
            if (a < 0 || b < 0)
                continue;
            int8_t sa = tb->has_sides ? tb->side[0] : -1;
            if (a > b) {
                int32_t x = a;
                a = b, b = x;
                sa = sa >= 0 ? (int8_t)(1 - sa) : sa;
            }
            m[k++] = (struct meeting){a, b, sa};
        }
        sr++;
    }
    *n_sr = nr;
    qsort(m, (size_t)k, sizeof(*m), cmp_meeting);
    *n_met = 0;
    *n_again = 0;
    for (int64_t i = 0; i < k;) {
        int64_t j = i;
        while (j < k && m[j].a == m[i].a && m[j].b == m[i].b)
            j++;
        if (f->swapped_rematch && j - i == 1 && m[i].side_a >= 0) {
            int32_t *x = *again + 3 * (*n_again)++;
            x[0] = m[i].a, x[1] = m[i].b, x[2] = 1 - m[i].side_a;
        } else {
            met[2 * *n_met] = m[i].a;
            met[2 * *n_met + 1] = m[i].b;
            (*n_met)++;
        }
        i = j;
    }
    free(m);
    for (int32_t i = 0; i < n; i++) {
        int32_t bal = (*sh)[i].n0 - (*sh)[i].n1;
        (*need)[i] = f->side_balance <= 0      ? -1
                     : bal >= f->side_balance  ? 1
                     : -bal >= f->side_balance ? 0
                                               : -1;
    }
    return TNY_OK;
}

static int pair_swiss(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    const int32_t np = ev->n_players;
    int rc = TNY_OK;
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(np + 1));
    int32_t *pos = malloc(sizeof(int32_t) * (size_t)(np + 1));
    int32_t *bye_order = malloc(sizeof(int32_t) * (size_t)(np + 1));
    struct tny_swiss_player *sp = calloc((size_t)np + 1, sizeof(*sp));
    int64_t *shown_points = calloc((size_t)np + 1, sizeof(int64_t));
    int32_t *met = NULL;
    int64_t n_met = 0, cap_met = 0;
    struct tny_swiss_pairing sw = {0};
    const bool sided = ev->format.n_sides == 2;
    struct side_history *sh = NULL;
    int8_t *sides_buf = NULL, *need = NULL;
    int32_t *again = NULL;
    int64_t n_again = 0;
    int32_t n_sr = 0; /* stage rounds so far */
    if (!order || !pos || !bye_order || !sp || !shown_points) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    int32_t n = active_in_standings(c, order);
    if (n < 2) {
        rc = tny_diag_set(c->diag, TNY_EINVAL,
                          "round %d: %d active player(s), at least 2 needed",
                          (int)c->round, (int)n);
        goto out;
    }
    for (int32_t p = 0; p < np; p++)
        pos[p] = -1;
    for (int32_t i = 0; i < n; i++)
        pos[order[i]] = i;

    /* Points and HQ sums of the stage so far, per active player. */
    int64_t *hq = calloc((size_t)np + 1, sizeof(int64_t));
    if (!hq) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    for (int32_t i = 0; i < c->st.n_rows; i++) {
        int32_t p = c->st.rows[i].player;
        if (pos[p] >= 0)
            sp[pos[p]].points = c->st.rows[i].points;
    }
    for (int32_t p = 0; p < np; p++)
        for (int32_t r = 0; r < c->rec.n_rounds; r++)
            hq[p] += tny_records_at(&c->rec, p, r)->hq;
    if (c->stage->score_groups == TNY_GROUPS_WINS) {
        /* Group key: wins in half units (draws 1/2, byes count). */
        for (int32_t i = 0; i < n; i++) {
            int64_t halves = 0;
            for (int32_t r = 0; r < c->rec.n_rounds; r++) {
                const struct tny_record *x =
                    tny_records_at(&c->rec, order[i], r);
                if (x->presence != TNY_ABSENT &&
                    x->stage != TNY_STAGE_ELIMINATION)
                    halves += (int64_t)(2 * x->win + 0.5f);
            }
            sp[i].points = halves;
        }
    }

    /* Bye line (only matters for odd n): eligible players, first in line
     * first.  Round 1 by lot (NH-4, GT-3); later NH-4: fewest points, then
     * lowest HQ sum; GT-3/CT-1/TX: lowest ranked.  Ties: lower ranked. */
    int32_t n_line = 0;
    if (c->round_in_stage == 1 && c->round == 1) {
        for (int32_t i = 0; i < n; i++)
            bye_order[n_line++] = i;
        struct tny_rng rng;
        tny_rng_derive(&rng, ev->seed, TNY_LOT_BYE, (uint32_t)c->round);
        tny_rng_shuffle_i32(&rng, bye_order, n_line);
    } else {
        for (int32_t i = n - 1; i >= 0; i--)
            bye_order[n_line++] = i;
        if (ev->format.bye_rule == TNY_BYE_LOWEST_POINTS_HQ) {
            /* insertion sort keeps "lower ranked first" among equals */
            for (int32_t a = 1; a < n_line; a++) {
                int32_t x = bye_order[a], b = a - 1;
                while (b >= 0 && (sp[bye_order[b]].points > sp[x].points ||
                                  (sp[bye_order[b]].points == sp[x].points &&
                                   hq[order[bye_order[b]]] > hq[order[x]]))) {
                    bye_order[b + 1] = bye_order[b];
                    b--;
                }
                bye_order[b + 1] = x;
            }
        }
    }
    int32_t rank = 0;
    for (int32_t i = 0; i < n; i++)
        sp[i].bye_rank = -1;
    for (int32_t k = 0; k < n_line; k++) {
        int32_t i = bye_order[k];
        if (!ev->format.second_bye_allowed && had_bye(c, order[i]))
            continue;
        sp[i].bye_rank = rank++;
    }
    free(hq);

    /* Who met whom in this stage (NH-5, GT-2: no rematch within a stage). */
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage != c->stage->kind)
            continue;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye || tb->n_seats != 2)
                continue;
            int32_t a = pos[tb->seats[0]], b = pos[tb->seats[1]];
            if (a < 0 || b < 0)
                continue;
            if (n_met == cap_met) {
                cap_met = cap_met ? cap_met * 2 : 1024;
                int32_t *nm =
                    realloc(met, sizeof(int32_t) * 2 * (size_t)cap_met);
                if (!nm) {
                    rc = tny_diag_set(c->diag, TNY_ENOMEM,
                                      "pair: out of memory");
                    goto out;
                }
                met = nm;
            }
            met[2 * n_met] = a;
            met[2 * n_met + 1] = b;
            n_met++;
        }
    }

    if (sided && (rc = swiss_sides(c, pos, n, met, &n_met, &again, &n_again,
                                   &sh, &sides_buf, &need, &n_sr)) < 0)
        goto out;
    for (int32_t i = 0; i < c->st.n_rows; i++)
        if (pos[c->st.rows[i].player] >= 0)
            shown_points[pos[c->st.rows[i].player]] = c->st.rows[i].points;
    struct describe_ctx dc = {ev, order, shown_points};
    struct tny_swiss_request req = {
        .describe = describe_player,
        .describe_ctx = &dc,
        .n_players = n,
        .players = sp,
        .met = met,
        .n_met = n_met,
        .seed = ev->seed,
        .round = (uint32_t)c->round,
        .order = c->stage->group_order == TNY_GROUP_ADJACENT
                     ? TNY_SWISS_ADJACENT
                     : TNY_SWISS_LOT,
        .cost = c->stage->pairing_cost == TNY_COST_POINTS
                    ? TNY_SWISS_COST_POINTS
                    : TNY_SWISS_COST_GROUPS,
        .side = need,
        .again = again,
        .n_again = n_again,
    };
    rc = tny_swiss_pair(&req, &sw, c->diag);
    if (rc < 0)
        goto out;
    if (sw.explain)
        text_add(&c->explain, "%s\n", sw.explain);
    struct tny_rng lot;
    tny_rng_derive(&lot, ev->seed, TNY_LOT_SEATS, (uint32_t)c->round);
    for (int32_t i = 0; i < sw.n_pairs; i++) {
        int32_t seats[2] = {order[sw.pairs[i][0]], order[sw.pairs[i][1]]};
        if ((rc = add_table(c, seats, 2, false)) < 0)
            goto out;
        if (sided) {
            struct tny_pairing_table *t = &c->out->tables[c->out->n_tables - 1];
            const char *why = "swapped from their first meeting";
            int8_t s0 = sw.pair_side[i];
            if (s0 < 0)
                s0 = side_of_first(sh, sw.pairs[i][0], sw.pairs[i][1], n_sr,
                                   &lot, &why);
            t->has_sides = true;
            t->side[0] = s0;
            t->side[1] = (int8_t)(1 - s0);
            text_add(&c->explain, "%s%s %s v %s %s (%s)",
                     i ? ", "
                       : "sides (fewer games on a side plays it, "
                         "equal: alternation, else lot): ",
                     ev->players[seats[s0 == 0 ? 0 : 1]].id,
                     ev->format.sides[0],
                     ev->players[seats[s0 == 0 ? 1 : 0]].id,
                     ev->format.sides[1], why);
        }
    }
    if (sided && sw.n_pairs > 0)
        text_add(&c->explain, "\n");
    if (sw.bye >= 0 && (rc = add_bye(c, order[sw.bye])) < 0)
        goto out;
    if (sw.bye >= 0)
        text_add(&c->explain, "bye: %s %s (%s)\n",
                 ev->players[order[sw.bye]].id, ev->players[order[sw.bye]].name,
                 sw.bye_rule_relaxed
                     ? "a second bye: nobody without one could take it"
                 : c->round == 1 ? "round 1: by lot"
                 : ev->format.bye_rule == TNY_BYE_LOWEST_POINTS_HQ
                     ? "fewest points, then lowest HQ difference, no bye yet"
                     : "lowest ranked without a bye");
out:
    tny_swiss_pairing_release(&sw);
    free(sh);
    free(sides_buf);
    free(again);
    free(need);
    free(order);
    free(pos);
    free(bye_order);
    free(sp);
    free(shown_points);
    free(met);
    return rc;
}

/* ---- Elimination (NH-7, NH-8, GT-6..GT-10) ---------------------------- */

/* Swiss rank (1 = best) of every player, from the standings. */
static void swiss_seeds(const struct plan_ctx *c, int32_t *seed_of)
{
    for (int32_t p = 0; p < c->ev->n_players; p++)
        seed_of[p] = 0;
    for (int32_t i = 0; i < c->st.n_rows; i++)
        seed_of[c->st.rows[i].player] = i + 1;
}

static int32_t largest_pow2_at_most(int32_t n)
{
    int32_t k = 1;
    while (k * 2 <= n)
        k *= 2;
    return k;
}

/* Emits games in order: played games get tables, byes stay in game order
 * (GT-7 folding reads the order back from the event file). */
static int emit_games(struct plan_ctx *c, const struct tny_bracket_game *games,
                      int32_t n_games, const int32_t *id_of)
{
    for (int32_t g = 0; g < n_games; g++) {
        const struct tny_bracket_game *gm = &games[g];
        if (gm->a == TNY_BRACKET_BYE && gm->b == TNY_BRACKET_BYE)
            continue;
        if (tny_bracket_game_is_bye(gm)) {
            int rc = add_bye(c, id_of ? id_of[gm->a] : gm->a);
            if (rc < 0)
                return rc;
            continue;
        }
        int32_t seats[2] = {id_of ? id_of[gm->a] : gm->a,
                            id_of ? id_of[gm->b] : gm->b};
        int rc = add_table(c, seats, 2, false);
        if (rc < 0)
            return rc;
    }
    return TNY_OK;
}

/* Winner of a finished elimination table; a draw goes to the better Swiss
 * seed (NH-8). */
static int32_t elim_winner(const struct plan_ctx *c, const struct tny_table *t,
                           const int32_t *seed_of)
{
    if (t->is_bye)
        return t->seats[0];
    int32_t w = tny_result_winner_seat(&c->ev->format, &t->result);
    if (w < 0) {
        int32_t a = t->seats[0], b = t->seats[1];
        int32_t sa = seed_of[a] ? seed_of[a] : 1 << 30;
        int32_t sb = seed_of[b] ? seed_of[b] : 1 << 30;
        return tny_bracket_draw_winner(sa, sb) == sa ? a : b;
    }
    return t->seats[w];
}

/* NH-11: before the first knockout round every qualifier who registered
 * armies (a beginner plays the base box) has declared the knockout ones. */
static int check_nh_declarations(struct plan_ctx *c, const int32_t *seeded,
                                 int32_t k)
{
    const struct tny_event *ev = c->ev;
    int32_t need = tny_nh_knockout_army_count(ev), missing = 0;
    char names[400] = "";
    size_t used = 0;
    if (need == 0)
        return TNY_OK;
    for (int32_t i = 0; i < k; i++) {
        const struct tny_player *pl = &ev->players[seeded[i]];
        if (pl->beginner || pl->n_armies == 0 || pl->n_ko_armies > 0)
            continue;
        missing++;
        if (used < sizeof(names) - 1) {
            int w = snprintf(names + used, sizeof(names) - used, "%s%s",
                             used ? ", " : "", pl->id);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    if (missing == 0)
        return TNY_OK;
    return tny_diag_set(c->diag, TNY_EINVAL,
                        "round %d: NH-11: before the first knockout round "
                        "each qualifier declares %d of their armies (top "
                        "%d); %d have not: %s (tourney live player declare)",
                        (int)c->round, (int)need, (int)k, (int)missing, names);
}

static int pair_elimination(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    const int32_t np = ev->n_players;
    int rc = TNY_OK;
    int32_t *seed_of = calloc((size_t)np + 1, sizeof(int32_t));
    int32_t *list = calloc((size_t)np + 1, sizeof(int32_t));
    bool *left = calloc((size_t)np + 1, sizeof(bool));
    struct tny_bracket_game *games = calloc((size_t)np + 2, sizeof(*games));
    struct tny_bracket_game *prev = calloc((size_t)np + 2, sizeof(*prev));
    int32_t *winners = calloc((size_t)np + 2, sizeof(int32_t));
    if (!seed_of || !list || !left || !games || !prev || !winners) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    swiss_seeds(c, seed_of);
    bool folded = c->stage->pairing == TNY_PAIR_FOLDED;

    if (c->round_in_stage == 1) {
        if (c->stage->from_start) {
            /* GT-8: byes to random players, games numbered at random. */
            int32_t n = 0;
            for (int32_t p = 0; p < np; p++)
                if (is_active(c, p))
                    list[n++] = p;
            struct tny_rng rng;
            tny_rng_derive(&rng, ev->seed, TNY_LOT_BRACKET, (uint32_t)c->round);
            int32_t n_games = 0;
            rc =
                tny_bracket_open_round(n, list, &rng, games, &n_games, c->diag);
            if (rc < 0)
                goto out;
            text_add(&c->explain,
                     "elimination from the start (GT-8): %d players, %d byes "
                     "by lot, games numbered by lot\n",
                     (int)n, (int)(2 * n_games - n));
            rc = emit_games(c, games, n_games, NULL);
            goto out;
        }
        /* The cut (NH-7, GT-6): top K of the Swiss standings; a qualifier
         * who left is replaced by the next player, who joins as the lowest
         * seed. */
        int32_t n = c->st.n_rows, active = 0;
        for (int32_t i = 0; i < n; i++) {
            list[i] = c->st.rows[i].player;
            left[i] = !is_active(c, list[i]);
            active += !left[i];
        }
        int32_t k = c->stage_cut;
        if (k > active) {
            int32_t k2 = largest_pow2_at_most(active);
            text_add(&c->explain,
                     "cut reduced from top %d to top %d: only %d players "
                     "remain\n",
                     (int)k, (int)k2, (int)active);
            k = k2;
        }
        if (k < 2) {
            rc = tny_diag_set(c->diag, TNY_EINVAL,
                              "round %d: an elimination needs at least 2 "
                              "players (%d remain)",
                              (int)c->round, (int)active);
            goto out;
        }
        int32_t *seeded = calloc((size_t)k, sizeof(int32_t));
        int32_t *seeds = calloc((size_t)k, sizeof(int32_t));
        if (!seeded || !seeds) {
            free(seeded);
            free(seeds);
            rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
            goto out;
        }
        rc = tny_bracket_cut(n, list, left, k, seeded, c->diag);
        if (rc == TNY_OK)
            rc = check_nh_declarations(c, seeded, k);
        if (rc == TNY_OK) {
            for (int32_t i = 0; i < k; i++) {
                seeds[i] = i + 1;
                if (seed_of[seeded[i]] != i + 1)
                    text_add(&c->explain,
                             "seed %d: %s (Swiss rank %d) replaces a "
                             "qualifier who left (GT-6)\n",
                             (int)(i + 1), ev->players[seeded[i]].id,
                             (int)seed_of[seeded[i]]);
            }
            rc = tny_bracket_reseeded_round(k, seeds, games, c->diag);
        }
        if (rc == TNY_OK) {
            for (int32_t g = 0; g < k / 2; g++) { /* seeds -> players */
                games[g].a = seeded[games[g].a - 1];
                games[g].b = seeded[games[g].b - 1];
            }
            text_add(&c->explain, "top %d cut: 1 v %d, 2 v %d, ... (%s)\n",
                     (int)k, (int)k, (int)(k - 1), folded ? "GT-7" : "NH-7");
            rc = emit_games(c, games, k / 2, NULL);
        }
        free(seeded);
        free(seeds);
        goto out;
    }

    /* Later rounds: the previous elimination round, in game order. */
    const struct tny_round *last = NULL;
    for (int32_t r = ev->n_rounds - 1; r >= 0 && !last; r--)
        if (ev->rounds[r].stage == TNY_STAGE_ELIMINATION)
            last = &ev->rounds[r];
    int32_t n_prev = 0;
    for (int32_t t = 0; t < last->n_tables; t++) {
        const struct tny_table *tb = &last->tables[t];
        prev[n_prev].a = tb->seats[0];
        prev[n_prev].b = tb->is_bye ? TNY_BRACKET_BYE : tb->seats[1];
        winners[n_prev] = elim_winner(c, tb, seed_of);
        n_prev++;
    }
    int32_t n_games = 0;
    if (folded) { /* GT-7: winner of #k plays winner of #(n+1-k) */
        int32_t width = 1;
        while (width < n_prev)
            width *= 2;
        for (int32_t g = n_prev; g < width; g++) { /* empty games */
            prev[g].a = prev[g].b = TNY_BRACKET_BYE;
            winners[g] = TNY_BRACKET_BYE;
        }
        rc = tny_bracket_folded_round(width, prev, winners, games, c->diag);
        if (rc < 0)
            goto out;
        n_games = width / 2;
        text_add(&c->explain, "bracket folded from %d games (GT-7)\n",
                 (int)n_prev);
    } else { /* NH-7: re-seeded, best remaining seed v worst */
        int32_t n = 0;
        for (int32_t g = 0; g < n_prev; g++)
            if (winners[g] >= 0)
                list[n++] = seed_of[winners[g]];
        int32_t k = largest_pow2_at_most(n);
        /* sort seeds ascending (small n: insertion sort) */
        for (int32_t a = 1; a < n; a++) {
            int32_t x = list[a], b = a - 1;
            while (b >= 0 && list[b] > x) {
                list[b + 1] = list[b];
                b--;
            }
            list[b + 1] = x;
        }
        int32_t *player_of_seed = calloc((size_t)np + 2, sizeof(int32_t));
        if (!player_of_seed) {
            rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
            goto out;
        }
        for (int32_t p = 0; p < np; p++)
            if (seed_of[p] > 0)
                player_of_seed[seed_of[p]] = p;
        /* Not a power of two (someone left): the best seeds get byes. */
        for (int32_t i = 0; i < n - k; i++) {
            games[n_games].a = player_of_seed[list[i]];
            games[n_games].b = TNY_BRACKET_BYE;
            n_games++;
        }
        if (k >= 2) {
            rc = tny_bracket_reseeded_round(k, list + (n - k), games + n_games,
                                            c->diag);
            if (rc < 0) {
                free(player_of_seed);
                goto out;
            }
            for (int32_t g = n_games; g < n_games + k / 2; g++) {
                games[g].a = player_of_seed[games[g].a];
                games[g].b = player_of_seed[games[g].b];
            }
            n_games += k / 2;
        }
        free(player_of_seed);
        text_add(&c->explain, "re-seeded by Swiss rank (NH-7)\n");
    }
    /* GT-10: a player who left gives the opponent a bye. */
    for (int32_t g = 0; g < n_games; g++) {
        int32_t side[2] = {games[g].a, games[g].b};
        for (int s = 0; s < 2; s++) {
            if (side[s] < 0 || is_active(c, side[s]))
                continue;
            text_add(&c->explain,
                     "%s left the elimination: opponent gets a "
                     "bye (GT-10)\n",
                     ev->players[side[s]].id);
            rc = tny_bracket_withdraw(n_games, games, side[s], c->diag);
            if (rc < 0)
                goto out;
        }
    }
    rc = emit_games(c, games, n_games, NULL);
out:
    free(seed_of);
    free(list);
    free(left);
    free(games);
    free(prev);
    free(winners);
    return rc;
}

/* ---- Agricola (AG-3, AG-4, AG-7, AG-9..AG-12) ------------------------- */

static int32_t first_round_of(const struct tny_event *ev, enum tny_stage_kind k)
{
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == k)
            return r;
    return -1;
}

static int pair_agricola(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    const int32_t np = ev->n_players;
    int rc = TNY_OK;
    int32_t *list = calloc((size_t)np + 1, sizeof(int32_t));
    int32_t *list_b = calloc((size_t)np + 1, sizeof(int32_t));
    int32_t(*tables)[4] = calloc((size_t)np / 4 + 2, sizeof(*tables));
    if (!list || !list_b || !tables) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    int32_t n = active_in_standings(c, list);
    if (n % 4 != 0 || n < 8) {
        rc = tny_diag_set(c->diag, TNY_EINVAL,
                          "agricola seats tables of 4: %d active players is "
                          "not a multiple of 4 of at least 8 (register or "
                          "withdraw players in blocks of 4)",
                          (int)n);
        goto out;
    }
    const bool final = c->stage->kind == TNY_STAGE_FINAL;
    const int32_t g = c->round_in_stage;
    if (!final && g == 1) { /* AG-3: mild seeding by rating */
        struct tny_rng lot;
        tny_rng_derive(&lot, ev->seed, TNY_LOT_SEEDING, 0);
        int32_t *key = calloc((size_t)np + 1, sizeof(int32_t));
        if (!key) {
            rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
            goto out;
        }
        for (int32_t i = 0; i < np; i++)
            key[i] = (int32_t)tny_rng_below(&lot, 1u << 30);
        for (int32_t a = 1; a < n; a++) { /* rating desc, unrated last */
            int32_t x = list[a], b = a - 1;
            for (; b >= 0; b--) {
                const struct tny_player *pb = &ev->players[list[b]];
                const struct tny_player *px = &ev->players[x];
                bool x_first =
                    (px->has_rating && !pb->has_rating) ||
                    (px->has_rating == pb->has_rating &&
                     (px->rating > pb->rating ||
                      (px->rating == pb->rating && key[x] < key[list[b]])));
                if (!x_first)
                    break;
                list[b + 1] = list[b];
            }
            list[b + 1] = x;
        }
        free(key);
        struct tny_rng rng;
        tny_rng_derive(&rng, ev->seed, TNY_LOT_SEEDING, (uint32_t)c->round);
        rc = tny_ag_seat_game1(n, list, &rng, tables, c->diag);
        text_add(&c->explain, "game 1: mild seeding by rating (AG-3)\n");
    } else if (!final && g == 2) { /* AG-7 from game-1 placements */
        int32_t r1 = first_round_of(ev, TNY_STAGE_PRELIM);
        const struct tny_round *round = &ev->rounds[r1];
        int32_t nt = 0;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye || tb->n_seats != 4)
                continue;
            for (int32_t s = 0; s < 4; s++) { /* by place (VP, IP, BP) */
                int32_t p = tb->seats[s];
                int32_t place = tny_records_at(&c->rec, p, r1)->place;
                int32_t slot = place - 1;
                while (tables[nt][slot] != 0 && slot < 3)
                    slot++; /* equal places: seat order */
                tables[nt][slot] = p + 1;
            }
            for (int32_t s = 0; s < 4; s++)
                tables[nt][s] -= 1;
            nt++;
        }
        int32_t(*out2)[4] = calloc((size_t)nt + 1, sizeof(*out2));
        if (!out2) {
            rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
            goto out;
        }
        rc = tny_ag_seat_game2(nt, (const int32_t(*)[4])tables, out2, c->diag);
        memcpy(tables, out2, sizeof(*out2) * (size_t)nt);
        free(out2);
        text_add(&c->explain, "game 2: game-1 winners stay, places spread "
                              "(AG-7)\n");
    } else if (!final) { /* AG-9: rank sum by the ranking after game 2 */
        rc = tny_ag_seat_rank_sum(n, list, tables, c->diag);
        text_add(&c->explain, "game 3: equal rank sums (AG-9)\n");
    } else if (g == 1) { /* AG-10, AG-11 */
        rc = tny_ag_seat_final1(n, list, np, tables, c->diag);
        text_add(&c->explain,
                 "final game 1: top %d in group A (AG-10, "
                 "AG-11)\n",
                 (int)ev->format.group_a_size);
    } else { /* AG-12: re-ranked within the groups */
        int32_t r1 = first_round_of(ev, TNY_STAGE_FINAL);
        int32_t a_tables = ev->format.group_a_size / 4;
        int32_t n_a = 0, n_b = 0;
        for (int32_t i = 0; i < n; i++) {
            const struct tny_record *x = tny_records_at(&c->rec, list[i], r1);
            if (x->presence == TNY_PLAYED && x->table < a_tables)
                list[n_a++] = list[i];
            else
                list_b[n_b++] = list[i];
        }
        rc = tny_ag_seat_final2(n_a, list, n_b, list_b, tables, c->diag);
        text_add(&c->explain, "final game 2: ranks 1-4, 5-8, ... within "
                              "each group (AG-12)\n");
    }
    if (rc < 0)
        goto out;
    struct tny_rng seats;
    tny_rng_derive(&seats, ev->seed, TNY_LOT_SEATS, (uint32_t)c->round);
    for (int32_t t = 0; t < n / 4; t++) {
        tny_ag_seat_lot(&seats, tables[t]); /* AG-4 */
        if ((rc = add_table(c, tables[t], 4, false)) < 0)
            goto out;
        c->out->tables[c->out->n_tables - 1].first_seat =
            tny_ag_starting_player(&seats);
    }
out:
    free(list);
    free(list_b);
    free(tables);
    return rc;
}

/* ---- Catan Gorn (CT-1, CT-2) ------------------------------------------ */

static int pair_gorn(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    const int32_t np = ev->n_players;
    int rc = TNY_OK;
    int32_t *list = calloc((size_t)np + 1, sizeof(int32_t));
    int32_t *pos = calloc((size_t)np + 1, sizeof(int32_t));
    int64_t *points = calloc((size_t)np + 1, sizeof(int64_t));
    int32_t *history = NULL;
    struct tny_gorn_seating gs = {0};
    if (!list || !pos || !points) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    int32_t n = active_in_standings(c, list);
    if (n % 4 == 1) { /* CT-1: a bye; round 1 by lot, later the lowest
                         ranked who has not had one */
        int32_t pick = -1;
        if (c->round == 1) {
            struct tny_rng rng;
            tny_rng_derive(&rng, ev->seed, TNY_LOT_BYE, 1);
            pick = (int32_t)tny_rng_below(&rng, (uint64_t)n);
        } else {
            for (int32_t i = n - 1; i >= 0 && pick < 0; i--)
                if (!had_bye(c, list[i]))
                    pick = i;
            if (pick < 0)
                pick = n - 1;
        }
        int32_t bye = list[pick];
        memmove(list + pick, list + pick + 1,
                sizeof(int32_t) * (size_t)(n - pick - 1));
        n--;
        text_add(&c->explain, "bye: %s %s (CT-1: %s)\n", ev->players[bye].id,
                 ev->players[bye].name,
                 c->round == 1 ? "round 1, by lot"
                               : "lowest ranked without a bye");
        if ((rc = add_bye(c, bye)) < 0)
            goto out;
    }
    if (n < 3) {
        rc = tny_diag_set(c->diag, TNY_EINVAL,
                          "round %d: %d players cannot fill a table of 3 or 4",
                          (int)c->round, (int)n);
        goto out;
    }
    for (int32_t p = 0; p < np; p++)
        pos[p] = -1;
    for (int32_t i = 0; i < n; i++)
        pos[list[i]] = i;
    for (int32_t i = 0; i < c->st.n_rows; i++) {
        int32_t p = c->st.rows[i].player;
        if (pos[p] >= 0)
            points[pos[p]] = c->st.rows[i].points;
    }
    int32_t n_hist = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        n_hist += ev->rounds[r].n_tables;
    history = malloc(sizeof(int32_t) * 4 * (size_t)(n_hist + 1));
    if (!history) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    n_hist = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
            const struct tny_table *tb = &ev->rounds[r].tables[t];
            if (tb->is_bye)
                continue;
            for (int32_t s = 0; s < 4; s++)
                history[4 * n_hist + s] =
                    s < tb->n_seats ? pos[tb->seats[s]] : -1;
            n_hist++;
        }
    struct describe_ctx dc = {ev, list, points};
    struct tny_gorn_request req = {
        .describe = describe_player,
        .points_text = tny_points_text,
        .describe_ctx = &dc,
        .n_players = n,
        .points = points,
        .history = history,
        .n_history = n_hist,
        .seed = ev->seed,
        .round = (uint32_t)c->round,
        .by_lot = c->round == 1,
    };
    rc = tny_gorn_seat(&req, &gs, c->diag);
    if (rc < 0)
        goto out;
    for (int32_t t = 0; t < gs.n_tables; t++) {
        int32_t seats[4];
        for (int32_t s = 0; s < gs.sizes[t]; s++)
            seats[s] = list[gs.tables[t][s]];
        if ((rc = add_table(c, seats, gs.sizes[t], false)) < 0)
            goto out;
    }
    if (gs.explain)
        text_add(&c->explain, "%s\n", gs.explain);
    /* Byes go last in the plan. */
    if (c->out->n_tables > 0 && c->out->tables[0].is_bye) {
        struct tny_pairing_table b = c->out->tables[0];
        memmove(c->out->tables, c->out->tables + 1,
                sizeof(b) * (size_t)(c->out->n_tables - 1));
        c->out->tables[c->out->n_tables - 1] = b;
    }
out:
    tny_gorn_seating_release(&gs);
    free(list);
    free(pos);
    free(points);
    free(history);
    return rc;
}

/* ---- Round robin (TX option) ------------------------------------------ */

static int pair_round_robin(struct plan_ctx *c)
{
    const struct tny_event *ev = c->ev;
    int rc = TNY_OK;
    int32_t *list = calloc((size_t)ev->n_players + 1, sizeof(int32_t));
    int32_t(*pairs)[2] = calloc((size_t)ev->n_players / 2 + 1, sizeof(*pairs));
    if (!list || !pairs) {
        rc = tny_diag_set(c->diag, TNY_ENOMEM, "pair: out of memory");
        goto out;
    }
    /* Berger numbers follow registration order of the starting field. */
    int32_t n = 0;
    for (int32_t p = 0; p < ev->n_players; p++)
        if (tny_player_active_in(&ev->players[p], 1))
            list[n++] = p;
    int32_t cycle = tny_round_robin_rounds(n);
    if (cycle <= 0) {
        rc = tny_diag_set(c->diag, TNY_EINVAL,
                          "round robin needs 2..%d players, not %d",
                          TNY_ROUND_ROBIN_MAX, (int)n);
        goto out;
    }
    int32_t bye = 0;
    int32_t rr = (c->round_in_stage - 1) % cycle + 1;
    rc = tny_round_robin_pairs(n, rr, pairs, &bye, c->diag);
    if (rc < 0)
        goto out;
    for (int32_t i = 0; i < n / 2; i++) {
        int32_t seats[2] = {list[pairs[i][0] - 1], list[pairs[i][1] - 1]};
        if (!is_active(c, seats[0]) || !is_active(c, seats[1])) {
            int32_t stays = is_active(c, seats[0]) ? seats[0] : seats[1];
            if (is_active(c, stays) && (rc = add_bye(c, stays)) < 0)
                goto out;
            continue;
        }
        if ((rc = add_table(c, seats, 2, false)) < 0)
            goto out;
    }
    if (bye > 0 && is_active(c, list[bye - 1]) &&
        (rc = add_bye(c, list[bye - 1])) < 0)
        goto out;
    text_add(&c->explain, "round robin: Berger table round %d of %d\n", (int)rr,
             (int)cycle);
out:
    free(list);
    free(pairs);
    return rc;
}

/* ---- Table numbers (CM-9, CM-5 fixed tables) --------------------------- */

static void number_tables(struct plan_ctx *c)
{
    struct tny_round_plan *p = c->out;
    const struct tny_event *ev = c->ev;
    int32_t n_games = 0;
    for (int32_t t = 0; t < p->n_tables; t++)
        n_games += !p->tables[t].is_bye;
    bool *used =
        calloc((size_t)n_games + 2 + (size_t)ev->n_players, sizeof(bool));
    if (!used) { /* numbering by order still works */
        for (int32_t t = 0, k = 0; t < p->n_tables; t++)
            p->tables[t].number = p->tables[t].is_bye ? 0 : ++k;
        return;
    }
    int32_t limit = n_games + 1 + ev->n_players;
    for (int32_t t = 0; t < p->n_tables; t++) {
        struct tny_pairing_table *tb = &p->tables[t];
        tb->number = 0;
        if (tb->is_bye)
            continue;
        for (int32_t s = 0; s < tb->n_seats; s++) {
            int32_t fixed = ev->players[tb->seats[s]].fixed_table;
            if (fixed > 0 && fixed < limit && !used[fixed]) {
                tb->number = fixed;
                used[fixed] = true;
                text_add(&c->explain, "table %d fixed for %s (CM-5)\n",
                         (int)fixed, ev->players[tb->seats[s]].id);
                break;
            }
        }
    }
    int32_t next = 1;
    for (int32_t t = 0; t < p->n_tables; t++) {
        struct tny_pairing_table *tb = &p->tables[t];
        if (tb->is_bye || tb->number > 0)
            continue;
        while (used[next])
            next++;
        tb->number = next;
        used[next] = true;
    }
    free(used);
}

int tny_pair_next(const struct tny_event *ev, struct tny_round_plan *out,
                  struct tny_diag *diag)
{
    memset(out, 0, sizeof(*out));
    struct plan_ctx c = {0};
    c.ev = ev;
    c.out = out;
    c.diag = diag;
    int32_t done = tny_event_completed_rounds(ev);
    if (done < ev->n_rounds)
        return tny_diag_set(diag, TNY_ESTATE,
                            "event.rounds[%d]: round %d is in progress (a "
                            "table has no result); pair refuses to pair past "
                            "it",
                            (int)done, (int)(done + 1));
    c.round = ev->n_rounds + 1;
    int rc = find_stage(&c);
    if (rc < 0)
        return rc;
    if ((rc = tny_standings_compute_at(ev, done, &c.st, diag)) < 0)
        return rc;
    if ((rc = tny_records_compute(ev, done, &c.rec, diag)) < 0)
        goto out;
    out->round = c.round;
    out->stage = c.stage->kind;
    out->stage_index = c.stage_index;
    /* "round 2: round 2 of the stage \"Gorn rounds\"" (it said "Gorn
     * rounds round 2": a stage's name is not always a word before
     * "round", tryout of session 14) */
    text_add(&c.explain, "round %d: round %d of the stage \"%s\"\n",
             (int)c.round, (int)c.round_in_stage, c.stage->name);
    switch (c.stage->pairing) {
    case TNY_PAIR_SWISS: rc = pair_swiss(&c); break;
    case TNY_PAIR_RESEEDED:
    case TNY_PAIR_FOLDED: rc = pair_elimination(&c); break;
    case TNY_PAIR_AGRICOLA: rc = pair_agricola(&c); break;
    case TNY_PAIR_GORN: rc = pair_gorn(&c); break;
    case TNY_PAIR_ROUND_ROBIN: rc = pair_round_robin(&c); break;
    }
    if (rc < 0)
        goto out;
    number_tables(&c);
    out->explain = c.explain.buf ? c.explain.buf : calloc(1, 1);
    c.explain.buf = NULL;
    if (!out->explain)
        rc = tny_diag_set(diag, TNY_ENOMEM, "pair: out of memory");
out:
    free(c.explain.buf);
    tny_standings_release(&c.st);
    tny_records_release(&c.rec);
    if (rc < 0)
        tny_round_plan_release(out);
    return rc;
}

void tny_round_plan_release(struct tny_round_plan *plan)
{
    free(plan->tables);
    free(plan->explain);
    memset(plan, 0, sizeof(*plan));
}

static bool find_seat(struct tny_round_plan *plan, int32_t player,
                      int32_t **slot)
{
    for (int32_t t = 0; t < plan->n_tables; t++)
        for (int32_t s = 0; s < plan->tables[t].n_seats; s++)
            if (plan->tables[t].seats[s] == player) {
                *slot = &plan->tables[t].seats[s];
                return true;
            }
    return false;
}

int tny_round_plan_swap(struct tny_round_plan *plan, int32_t a, int32_t b,
                        struct tny_diag *diag)
{
    int32_t *sa = NULL, *sb = NULL;
    if (a == b)
        return tny_diag_set(diag, TNY_EINVAL, "swap: the same player twice");
    if (!find_seat(plan, a, &sa) || !find_seat(plan, b, &sb))
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "swap: player %d is not in round %d",
                            (int)(sa ? b : a), (int)plan->round);
    *sa = b;
    *sb = a;
    return TNY_OK;
}

int tny_round_plan_sides(const struct tny_event *ev,
                         struct tny_round_plan *plan, int32_t t,
                         struct tny_diag *diag)
{
    if (t < 0 || t >= plan->n_tables)
        return tny_diag_set(diag, TNY_EINVAL, "sides: no table index %d",
                            (int)t);
    struct tny_pairing_table *pt = &plan->tables[t];
    if (ev->format.n_sides != 2 || pt->is_bye || pt->n_seats != 2)
        return TNY_OK;
    /* The rounds before the planned one (an edited published round is in
     * ev already), of the planned round's stage, as swiss_sides reads
     * them: h[0] is seats[0]'s history, h[1] seats[1]'s. */
    int32_t nr =
        plan->round - 1 < ev->n_rounds ? plan->round - 1 : ev->n_rounds;
    if (nr < 0)
        nr = 0;
    struct side_history h[2] = {{0, 0, NULL}, {0, 0, NULL}};
    int8_t *buf = malloc(2 * ((size_t)nr + 1));
    if (!buf)
        return tny_diag_set(diag, TNY_ENOMEM, "sides: out of memory");
    memset(buf, -1, 2 * ((size_t)nr + 1));
    h[0].last = buf;
    h[1].last = buf + nr + 1;
    int32_t sr = 0, n_met = 0;
    int8_t met_side = -1; /* side seats[0] played at their meeting */
    for (int32_t r = 0; r < nr; r++) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage != plan->stage)
            continue;
        for (int32_t k = 0; k < round->n_tables; k++) {
            const struct tny_table *tb = &round->tables[k];
            if (tb->is_bye || tb->n_seats != 2)
                continue;
            int32_t at[2] = {-1, -1}; /* seat of pt's player i at tb */
            for (int s = 0; s < 2; s++)
                for (int i = 0; i < 2; i++)
                    if (tb->seats[s] == pt->seats[i]) {
                        at[i] = s;
                        if (tb->has_sides) {
                            h[i].last[sr] = tb->side[s];
                            h[i].n0 += tb->side[s] == 0;
                            h[i].n1 += tb->side[s] == 1;
                        }
                    }
            if (at[0] >= 0 && at[1] >= 0) {
                n_met++;
                met_side = tb->has_sides ? tb->side[at[0]] : -1;
            }
        }
        sr++;
    }
    int8_t s0 = -1;
    const char *why = NULL;
    if (n_met == 1 && ev->format.swapped_rematch && met_side >= 0) {
        s0 = (int8_t)(1 - met_side);
    } else if (n_met == 0) {
        struct tny_rng lot;
        tny_rng_derive(&lot, ev->seed, TNY_LOT_PAIRING, (uint32_t)plan->round);
        s0 = side_of_first(h, 0, 1, sr, &lot, &why);
        if (strcmp(why, "lot") == 0 && pt->has_sides)
            s0 = pt->side[0];
    }
    free(buf);
    if (s0 >= 0) {
        pt->has_sides = true;
        pt->side[0] = s0;
        pt->side[1] = (int8_t)(1 - s0);
    }
    return TNY_OK;
}

int tny_round_plan_move(struct tny_round_plan *plan, int32_t from, int32_t to,
                        struct tny_diag *diag)
{
    if (to < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "move: table number %d: expected 1 or more",
                            (int)to);
    struct tny_pairing_table *src = NULL;
    for (int32_t t = 0; t < plan->n_tables; t++)
        if (!plan->tables[t].is_bye && plan->tables[t].number == from)
            src = &plan->tables[t];
    if (!src)
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "move: round %d has no table %d", (int)plan->round,
                            (int)from);
    for (int32_t t = 0; t < plan->n_tables; t++)
        if (!plan->tables[t].is_bye && plan->tables[t].number == to)
            plan->tables[t].number = from;
    src->number = to;
    return TNY_OK;
}

int tny_event_complete(const struct tny_event *ev, bool *complete,
                       struct tny_diag *diag)
{
    struct plan_ctx c = {0};
    struct tny_diag ignored;
    *complete = false;
    if (tny_event_completed_rounds(ev) < ev->n_rounds)
        return TNY_OK; /* a round in progress */
    c.ev = ev;
    c.diag = &ignored;
    c.round = ev->n_rounds + 1;
    int rc = find_stage(&c);
    if (rc == TNY_ESTATE) { /* every stage played: find_stage's only ESTATE */
        *complete = true;
        return TNY_OK;
    }
    if (rc < 0)
        return tny_diag_set(diag, rc, "%s", ignored.msg);
    return TNY_OK;
}

int tny_event_append_round(struct tny_event *ev,
                           const struct tny_round_plan *plan)
{
    if (plan->round != ev->n_rounds + 1)
        return TNY_EINVAL;
    struct tny_round *nr =
        realloc(ev->rounds, sizeof(*nr) * (size_t)(ev->n_rounds + 1));
    if (!nr)
        return TNY_ENOMEM;
    ev->rounds = nr;
    struct tny_round *round = &ev->rounds[ev->n_rounds];
    memset(round, 0, sizeof(*round));
    round->stage = plan->stage;
    round->tables = calloc((size_t)(plan->n_tables > 0 ? plan->n_tables : 1),
                           sizeof(*round->tables));
    if (!round->tables)
        return TNY_ENOMEM;
    round->n_tables = plan->n_tables;
    for (int32_t t = 0; t < plan->n_tables; t++) {
        const struct tny_pairing_table *src = &plan->tables[t];
        struct tny_table *dst = &round->tables[t];
        dst->number = src->number;
        dst->is_bye = src->is_bye;
        dst->n_seats = src->n_seats;
        memcpy(dst->seats, src->seats, sizeof(dst->seats));
        dst->has_sides = src->has_sides;
        memcpy(dst->side, src->side, sizeof(dst->side));
        dst->result.winner = -1;
        dst->result.default_winner = -1;
        for (int s = 0; s < TNY_MAX_SEATS; s++)
            dst->result.army[s] = -1;
    }
    ev->n_rounds++;
    return TNY_OK;
}
