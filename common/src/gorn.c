/* gorn.c - Gorn seating for 4-player tables (CT-1, CT-2); see tny/gorn.h.
 *
 * How: seat sort-and-cut (or the lot order in round 1), then improve by
 * swapping two players between tables, accepting a swap only when it lowers
 * the objective tuple (triples, CT-1, pairs, points spread, standings
 * spread) compared lexicographically.  The search is driven by tables that
 * still have a problem and looks at neighbouring tables first, widening in
 * phases.  A repeated triple that survives is attacked with an exact
 * bitset search over at most 64 players (the whole event when it is that
 * small, otherwise the troubled table and its neighbours).
 *
 * Not here: byes, standings, history bookkeeping, seat lots.
 *
 * Invariants: g->where[p] is the table holding p; every table slot
 * 0..size-1 holds a player and slot 3 of a 3-player table holds -1;
 * g->tc[t] is the cost of table t.  Table indices stay put during the
 * search (they are the sort-and-cut frame the window is measured in) and
 * are reordered only when the result is written.
 */
#include "tny/gorn.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/rng.h"

/* Swap evaluations allowed per player seated (bounds the local search). */
#define EVALS_PER_PLAYER 4000
/* Node budget of one exact search (a few tens of milliseconds) and of all
 * exact searches of one call. */
#define EXACT_BUDGET 20000000L
#define EXACT_BUDGET_TOTAL 60000000L
/* Players in one exact search (one 64-bit mask). */
#define EXACT_MAX 64
/* Neighbourhoods tried per surviving triple when n > EXACT_MAX. */
#define EXACT_TRIES 8
/* Most repeated pairs / triples listed one by one in the explanation. */
#define EXPLAIN_LIST 24
/* Upper bound of the explanation text. */
#define EXPLAIN_MAX (64 * 1024)

/* The objective of one table or a whole seating, compared in this order. */
struct cost {
    int64_t triples;
    int64_t ct1;
    int64_t pairs;
    int64_t spread;  /* max - min points */
    int64_t rspread; /* worst - best standings position */
};

struct gorn {
    int32_t n, nt, n4;
    const int64_t *points; /* NULL when by lot: everybody equal */
    int32_t *pos;          /* player -> standings (or lot) position */
    int32_t *ord;          /* position -> player */
    const int32_t (*hist)[4];
    int32_t *hstart; /* CSR: history rows of player p are */
    int32_t *hrows;  /* hrows[hstart[p] .. hstart[p + 1]) */
    int32_t (*tab)[4];
    int32_t *size;
    int32_t *where;
    int32_t *grp_lo, *grp_hi; /* sort-and-cut tables of p's score group */
    struct cost *tc;
    int32_t *queue; /* FIFO of tables with a problem */
    bool *queued;
    bool has3;
    int64_t cut; /* CT-1: the highest points a 3-player table may hold */
    int64_t evals_left;
    struct tny_rng rng;
    /* What happened, for the explanation. */
    int32_t widest_pair_window;
    bool used_full_window;
    int32_t exact_runs, exact_found, exact_impossible, exact_budget_out;
    long exact_left; /* nodes left for all exact searches of this call */
    bool whole_proved_impossible;
};

static int64_t pts(const struct gorn *g, int32_t p)
{
    return g->points ? g->points[p] : 0;
}

static int32_t hlen(const struct gorn *g, int32_t p)
{
    return g->hstart[p + 1] - g->hstart[p];
}

static bool row_has(const int32_t *r, int32_t p)
{
    return r[0] == p || r[1] == p || r[2] == p || r[3] == p;
}

/* Earlier tables shared by a and b. */
static int32_t pair_count(const struct gorn *g, int32_t a, int32_t b)
{
    if (hlen(g, a) > hlen(g, b)) {
        int32_t t = a;
        a = b;
        b = t;
    }
    int32_t c = 0;
    for (int32_t k = g->hstart[a]; k < g->hstart[a + 1]; k++)
        c += row_has(g->hist[g->hrows[k]], b);
    return c;
}

/* Did a, b and c share an earlier table? */
static bool triple_met(const struct gorn *g, int32_t a, int32_t b, int32_t c)
{
    if (hlen(g, b) < hlen(g, a)) {
        int32_t t = a;
        a = b;
        b = t;
    }
    if (hlen(g, c) < hlen(g, a)) {
        int32_t t = a;
        a = c;
        c = t;
    }
    for (int32_t k = g->hstart[a]; k < g->hstart[a + 1]; k++) {
        const int32_t *r = g->hist[g->hrows[k]];
        if (row_has(r, b) && row_has(r, c))
            return true;
    }
    return false;
}

/* Is p at a table of the wrong size for his points (CT-1)? */
static int32_t ct1_bad(const struct gorn *g, int32_t p, int32_t size)
{
    if (!g->has3)
        return 0;
    return size == 4 ? pts(g, p) < g->cut : pts(g, p) > g->cut;
}

static void table_cost(const struct gorn *g, const int32_t *m, int32_t s,
                       struct cost *c)
{
    memset(c, 0, sizeof(*c));
    int64_t pmin = pts(g, m[0]), pmax = pmin;
    int32_t rmin = g->pos[m[0]], rmax = rmin;
    for (int32_t i = 0; i < s; i++) {
        int32_t a = m[i];
        c->ct1 += ct1_bad(g, a, s);
        if (pts(g, a) < pmin)
            pmin = pts(g, a);
        if (pts(g, a) > pmax)
            pmax = pts(g, a);
        if (g->pos[a] < rmin)
            rmin = g->pos[a];
        if (g->pos[a] > rmax)
            rmax = g->pos[a];
        for (int32_t j = i + 1; j < s; j++) {
            int32_t pc = pair_count(g, a, m[j]);
            c->pairs += pc;
            /* A triple needs every one of its pairs to have met. */
            if (pc == 0)
                continue;
            for (int32_t k = j + 1; k < s; k++)
                c->triples += triple_met(g, a, m[j], m[k]);
        }
    }
    c->spread = pmax - pmin;
    c->rspread = rmax - rmin;
}

static void cost_add(struct cost *a, const struct cost *b, int sign)
{
    a->triples += sign * b->triples;
    a->ct1 += sign * b->ct1;
    a->pairs += sign * b->pairs;
    a->spread += sign * b->spread;
    a->rspread += sign * b->rspread;
}

/* <0, 0, >0 as a is better than, equal to, worse than b. */
static int cost_cmp(const struct cost *a, const struct cost *b, bool hard)
{
    const int64_t av[5] = {a->triples, a->ct1, a->pairs, a->spread, a->rspread};
    const int64_t bv[5] = {b->triples, b->ct1, b->pairs, b->spread, b->rspread};
    int k = hard ? 2 : 5;
    for (int i = 0; i < k; i++)
        if (av[i] != bv[i])
            return av[i] < bv[i] ? -1 : 1;
    return 0;
}

static bool has_problem(const struct cost *c, bool hard)
{
    return c->triples > 0 || c->ct1 > 0 || (!hard && c->pairs > 0);
}

static struct cost total_cost(const struct gorn *g)
{
    struct cost t;
    memset(&t, 0, sizeof(t));
    for (int32_t i = 0; i < g->nt; i++)
        cost_add(&t, &g->tc[i], 1);
    return t;
}

/* Home table of standings position q in sort-and-cut. */
static int32_t home_table(const struct gorn *g, int32_t q)
{
    return q < 4 * g->n4 ? q / 4 : g->n4 + (q - 4 * g->n4) / 3;
}

/* Tables p would be moved beyond his score group by sitting at t. */
static int32_t float_dist(const struct gorn *g, int32_t p, int32_t t)
{
    if (t < g->grp_lo[p])
        return g->grp_lo[p] - t;
    if (t > g->grp_hi[p])
        return t - g->grp_hi[p];
    return 0;
}

/* A player may go to table to when it is inside his window, or at least
 * no farther from his score group than where he sits now. */
static bool admissible(const struct gorn *g, int32_t p, int32_t to,
                       int32_t window)
{
    int32_t d = float_dist(g, p, to);
    return d <= window || d <= float_dist(g, p, g->where[p]);
}

static void push(struct gorn *g, int32_t t, int32_t *qtail)
{
    if (g->queued[t])
        return;
    g->queued[t] = true;
    g->queue[*qtail % g->nt] = t;
    (*qtail)++;
}

static void apply_swap(struct gorn *g, int32_t ta, int32_t ia, int32_t tb,
                       int32_t ib, const struct cost *ca, const struct cost *cb)
{
    int32_t x = g->tab[ta][ia], y = g->tab[tb][ib];
    g->tab[ta][ia] = y;
    g->tab[tb][ib] = x;
    g->where[y] = ta;
    g->where[x] = tb;
    g->tc[ta] = *ca;
    g->tc[tb] = *cb;
}

/* Best improving swap between table a and some table within scan of it;
 * applies it and returns true, or returns false. */
static bool best_swap(struct gorn *g, int32_t a, int32_t scan, int32_t window,
                      bool hard, int32_t *tb_out)
{
    struct cost best;
    memset(&best, 0, sizeof(best));
    int32_t bt = -1, bi = -1, bj = -1;
    struct cost bca, bcb;
    int32_t lo = a - scan < 0 ? 0 : a - scan;
    int32_t hi = a + scan >= g->nt ? g->nt - 1 : a + scan;
    int32_t sa = g->size[a];
    for (int32_t b = lo; b <= hi; b++) {
        if (b == a)
            continue;
        int32_t sb = g->size[b];
        struct cost old = g->tc[a];
        cost_add(&old, &g->tc[b], 1);
        for (int32_t i = 0; i < sa; i++) {
            int32_t x = g->tab[a][i];
            if (!admissible(g, x, b, window))
                continue;
            for (int32_t j = 0; j < sb; j++) {
                int32_t y = g->tab[b][j];
                if (!admissible(g, y, a, window))
                    continue;
                if (g->evals_left <= 0)
                    goto done;
                g->evals_left--;
                int32_t ma[4], mb[4];
                memcpy(ma, g->tab[a], sizeof(ma));
                memcpy(mb, g->tab[b], sizeof(mb));
                ma[i] = y;
                mb[j] = x;
                struct cost ca, cb, d;
                table_cost(g, ma, sa, &ca);
                table_cost(g, mb, sb, &cb);
                d = ca;
                cost_add(&d, &cb, 1);
                cost_add(&d, &old, -1);
                struct cost zero;
                memset(&zero, 0, sizeof(zero));
                if (cost_cmp(&d, &zero, hard) >= 0)
                    continue;
                if (bt < 0 || cost_cmp(&d, &best, false) < 0) {
                    best = d;
                    bt = b;
                    bi = i;
                    bj = j;
                    bca = ca;
                    bcb = cb;
                }
            }
        }
    }
done:
    if (bt < 0)
        return false;
    apply_swap(g, a, bi, bt, bj, &bca, &bcb);
    *tb_out = bt;
    return true;
}

/* Hill climbing driven by tables with a problem (see has_problem()). */
static void improve(struct gorn *g, int32_t scan, int32_t window, bool hard)
{
    int32_t qhead = 0, qtail = 0;
    memset(g->queued, 0, (size_t)g->nt * sizeof(*g->queued));
    for (int32_t t = 0; t < g->nt; t++)
        if (has_problem(&g->tc[t], hard))
            push(g, t, &qtail);
    while (qhead < qtail && g->evals_left > 0) {
        int32_t a = g->queue[qhead % g->nt];
        qhead++;
        g->queued[a] = false;
        if (!has_problem(&g->tc[a], hard))
            continue;
        int32_t b;
        if (!best_swap(g, a, scan, window, hard, &b))
            continue;
        if (has_problem(&g->tc[a], hard))
            push(g, a, &qtail);
        if (has_problem(&g->tc[b], hard))
            push(g, b, &qtail);
    }
}

/* Swaps between neighbouring tables that lower the objective at all,
 * mostly the spread left behind by earlier moves. */
static void polish(struct gorn *g, int32_t window)
{
    for (int pass = 0; pass < 4; pass++) {
        bool changed = false;
        for (int32_t a = 0; a + 1 < g->nt; a++) {
            int32_t b;
            /* scan 1 from a also looks back at a - 1: harmless */
            while (g->evals_left > 0 && best_swap(g, a, 1, window, false, &b))
                changed = true;
        }
        if (!changed)
            break;
    }
}

/* --- exact search for a triple-free seating of at most 64 players --- */

struct exact {
    int32_t n;
    const uint64_t *tri; /* tri[i * n + j]: k with (i, j, k) met before */
    int32_t n4, n3;      /* tables left to fill */
    int32_t *out;        /* chosen tables, 4 slots each, -1 padded */
    int32_t n_out;
    long budget;
};

static int lowbit(uint64_t m)
{
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

/* 1: found, 0: none exists below this node, -1: budget exhausted. */
static int exact_dfs(struct exact *e, uint64_t free)
{
    if (free == 0)
        return 1;
    int a = lowbit(free);
    free &= free - 1;
    const uint64_t *ta = e->tri + (size_t)a * (size_t)e->n;
    for (int s = 4; s >= 3; s--) {
        int32_t *left = s == 4 ? &e->n4 : &e->n3;
        if (*left == 0)
            continue;
        (*left)--;
        int32_t *slot = e->out + 4 * e->n_out;
        e->n_out++;
        for (uint64_t mb = free; mb; mb &= mb - 1) {
            int b = lowbit(mb);
            uint64_t above_b = mb & (mb - 1);
            uint64_t mc_all = above_b & ~ta[b];
            const uint64_t *tb = e->tri + (size_t)b * (size_t)e->n;
            for (uint64_t mc = mc_all; mc; mc &= mc - 1) {
                if (--e->budget < 0)
                    return -1;
                int c = lowbit(mc);
                uint64_t rest = free & ~(1ULL << b) & ~(1ULL << c);
                slot[0] = a;
                slot[1] = b;
                slot[2] = c;
                slot[3] = -1;
                int r;
                if (s == 3) {
                    r = exact_dfs(e, rest);
                    if (r != 0)
                        return r;
                    continue;
                }
                uint64_t md = (mc & (mc - 1)) & ~ta[c] & ~tb[c];
                for (; md; md &= md - 1) {
                    if (--e->budget < 0)
                        return -1;
                    int d = lowbit(md);
                    slot[3] = d;
                    r = exact_dfs(e, rest & ~(1ULL << d));
                    if (r != 0)
                        return r;
                }
            }
        }
        e->n_out--;
        (*left)++;
    }
    return 0;
}

/* Seat the given tables (ids, count k) again, triple-free if possible.
 * *proved_impossible is set when exhaustive search says no triple-free
 * seating of those players into those table sizes exists. */
static int exact_region(struct gorn *g, const int32_t *tables, int32_t k,
                        bool *found, bool *proved_impossible)
{
    int rc = TNY_OK;
    int32_t players[EXACT_MAX];
    int32_t m = 0, n4 = 0, n3 = 0;
    uint64_t *tri = NULL;
    int32_t *out = NULL;
    *found = false;
    *proved_impossible = false;
    for (int32_t i = 0; i < k; i++) {
        int32_t t = tables[i];
        if (g->size[t] == 4)
            n4++;
        else
            n3++;
        for (int32_t s = 0; s < g->size[t]; s++)
            players[m++] = g->tab[t][s];
    }
    assert(m <= EXACT_MAX);
    /* Standings order, so that the first solution found stays close to
     * sort-and-cut. */
    for (int32_t i = 1; i < m; i++)
        for (int32_t j = i;
             j > 0 && g->pos[players[j - 1]] > g->pos[players[j]]; j--) {
            int32_t t = players[j];
            players[j] = players[j - 1];
            players[j - 1] = t;
        }
    tri = calloc((size_t)m * (size_t)m, sizeof(*tri));
    out = malloc((size_t)(n4 + n3) * 4 * sizeof(*out));
    if (!tri || !out) {
        rc = TNY_ENOMEM;
        goto out;
    }
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = i + 1; j < m; j++) {
            if (pair_count(g, players[i], players[j]) == 0)
                continue;
            for (int32_t l = j + 1; l < m; l++)
                if (triple_met(g, players[i], players[j], players[l])) {
                    tri[i * m + j] |= 1ULL << l;
                    tri[j * m + i] |= 1ULL << l;
                    tri[i * m + l] |= 1ULL << j;
                    tri[l * m + i] |= 1ULL << j;
                    tri[j * m + l] |= 1ULL << i;
                    tri[l * m + j] |= 1ULL << i;
                }
        }
    long budget = g->exact_left < EXACT_BUDGET ? g->exact_left : EXACT_BUDGET;
    struct exact e = {.n = m,
                      .tri = tri,
                      .n4 = n4,
                      .n3 = n3,
                      .out = out,
                      .n_out = 0,
                      .budget = budget};
    uint64_t all = m == 64 ? ~0ULL : (1ULL << m) - 1;
    int r = exact_dfs(&e, all);
    g->exact_left -= budget - (e.budget > 0 ? e.budget : 0);
    g->exact_runs++;
    if (r < 0) {
        g->exact_budget_out++;
        goto out;
    }
    if (r == 0) {
        g->exact_impossible++;
        *proved_impossible = true;
        goto out;
    }
    g->exact_found++;
    *found = true;
    /* Tables of four back into the region's 4-player slots, in the order
     * found (roughly standings order), threes into the 3-player slots. */
    int32_t i4 = 0, i3 = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t t = tables[i];
        int32_t want = g->size[t];
        const int32_t *src = NULL;
        int32_t *ix = want == 4 ? &i4 : &i3;
        for (; *ix < e.n_out; (*ix)++) {
            const int32_t *cand = out + 4 * *ix;
            if ((cand[3] >= 0 ? 4 : 3) == want) {
                src = cand;
                (*ix)++;
                break;
            }
        }
        assert(src);
        for (int32_t s = 0; s < want; s++) {
            g->tab[t][s] = players[src[s]];
            g->where[players[src[s]]] = t;
        }
        table_cost(g, g->tab[t], want, &g->tc[t]);
    }
out:
    free(tri);
    free(out);
    return rc;
}

/* Breaks surviving repeated triples with exact searches: the whole event
 * when it is small, else neighbourhoods around each troubled table. */
static int break_triples(struct gorn *g)
{
    int rc = TNY_OK;
    int32_t *ids = NULL;
    bool found, impossible;
    if (g->n <= EXACT_MAX) {
        ids = malloc((size_t)g->nt * sizeof(*ids));
        if (!ids)
            return TNY_ENOMEM;
        for (int32_t t = 0; t < g->nt; t++)
            ids[t] = t;
        rc = exact_region(g, ids, g->nt, &found, &impossible);
        g->whole_proved_impossible = rc == TNY_OK && impossible;
        goto out;
    }
    ids = malloc((size_t)(EXACT_MAX / 3) * sizeof(*ids));
    if (!ids)
        return TNY_ENOMEM;
    for (int32_t a = 0; a < g->nt; a++) {
        if (g->tc[a].triples == 0)
            continue;
        for (int32_t attempt = 0; attempt < EXACT_TRIES && g->exact_left > 0;
             attempt++) {
            /* First the neighbours, then random tables (seeded). */
            int32_t k = 0, m = g->size[a];
            ids[k++] = a;
            for (int32_t d = 1; attempt == 0 && d < g->nt; d++) {
                for (int side = -1; side <= 1; side += 2) {
                    int32_t t = a + side * d;
                    if (t < 0 || t >= g->nt || m + g->size[t] > EXACT_MAX)
                        continue;
                    ids[k++] = t;
                    m += g->size[t];
                }
                if (m + 3 > EXACT_MAX)
                    break;
            }
            for (int32_t tries = 0;
                 attempt > 0 && m + 4 <= EXACT_MAX && tries < 4 * EXACT_MAX;
                 tries++) {
                int32_t t = (int32_t)tny_rng_below(&g->rng, (uint64_t)g->nt);
                bool dup = false;
                for (int32_t i = 0; i < k; i++)
                    dup |= ids[i] == t;
                if (dup)
                    continue;
                ids[k++] = t;
                m += g->size[t];
            }
            rc = exact_region(g, ids, k, &found, &impossible);
            if (rc != TNY_OK || found)
                break;
        }
        if (rc != TNY_OK)
            break;
    }
out:
    free(ids);
    return rc;
}

/* --- explanation text --- */

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void text_add(struct text *t, const char *fmt, ...) TNY_PRINTF(2, 3);
static void text_add(struct text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(t->buf ? t->buf + t->len : NULL,
                          t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (w < 0) {
            t->failed = true;
            return;
        }
        if (t->buf && t->len + (size_t)w < t->cap) {
            t->len += (size_t)w;
            return;
        }
        size_t need = t->len + (size_t)w + 1;
        if (need > EXPLAIN_MAX)
            return; /* silently cut: the text is advisory */
        size_t cap = t->cap ? t->cap : 256;
        while (cap < need)
            cap *= 2;
        char *nb = realloc(t->buf, cap);
        if (!nb) {
            t->failed = true;
            return;
        }
        t->buf = nb;
        t->cap = cap;
    }
}

/* --- public API --- */

int32_t tny_gorn_table_sizes(int32_t n_players, int32_t *sizes)
{
    if (n_players < 3 || n_players % 4 == 1)
        return TNY_EINVAL;
    int32_t n3 = n_players % 4 == 3 ? 1 : n_players % 4 == 2 ? 2 : 0;
    int32_t n4 = (n_players - 3 * n3) / 4;
    if (sizes) {
        for (int32_t i = 0; i < n4; i++)
            sizes[i] = 4;
        for (int32_t i = 0; i < n3; i++)
            sizes[n4 + i] = 3;
    }
    return n4 + n3;
}

void tny_gorn_seating_release(struct tny_gorn_seating *s)
{
    if (!s)
        return;
    free(s->tables);
    free(s->sizes);
    free(s->explain);
    memset(s, 0, sizeof(*s));
}

static int validate(const struct tny_gorn_request *req, struct tny_diag *diag)
{
    int32_t n = req->n_players;
    if (n > TNY_GORN_MAX_PLAYERS)
        return tny_diag_set(diag, TNY_ERANGE,
                            "gorn: n_players: %d exceeds the maximum %d",
                            (int)n, TNY_GORN_MAX_PLAYERS);
    if (n < 3 || n % 4 == 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "gorn: n_players: %d cannot be seated in tables "
                            "of 4 and 3 (give a bye first when n %% 4 == 1)",
                            (int)n);
    if (!req->by_lot && !req->points)
        return tny_diag_set(diag, TNY_EINVAL, "gorn: points: missing");
    if (req->n_history < 0 || (req->n_history > 0 && !req->history))
        return tny_diag_set(diag, TNY_EINVAL,
                            "gorn: history: %d rows but no data",
                            (int)req->n_history);
    for (int32_t r = 0; r < req->n_history; r++) {
        const int32_t *row = req->history + 4 * (size_t)r;
        for (int i = 0; i < 4; i++) {
            if (row[i] < -1 || row[i] >= n)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "gorn: history[%d][%d]: expected -1 or a "
                                    "player index 0..%d, got %d",
                                    (int)r, i, (int)n - 1, (int)row[i]);
            for (int j = 0; j < i; j++)
                if (row[i] >= 0 && row[i] == row[j])
                    return tny_diag_set(diag, TNY_EINVAL,
                                        "gorn: history[%d]: player %d "
                                        "appears twice",
                                        (int)r, (int)row[i]);
        }
    }
    return TNY_OK;
}

static void gorn_free(struct gorn *g)
{
    free(g->pos);
    free(g->ord);
    free(g->hstart);
    free(g->hrows);
    free(g->tab);
    free(g->size);
    free(g->where);
    free(g->grp_lo);
    free(g->grp_hi);
    free(g->tc);
    free(g->queue);
    free(g->queued);
}

static int gorn_init(struct gorn *g, const struct tny_gorn_request *req)
{
    int32_t n = req->n_players;
    size_t un = (size_t)n;
    memset(g, 0, sizeof(*g));
    g->n = n;
    g->nt = tny_gorn_table_sizes(n, NULL);
    g->n4 = (n - 3 * (g->nt * 4 - n)) / 4;
    g->points = req->by_lot ? NULL : req->points;
    g->hist = (const int32_t(*)[4])req->history;
    g->pos = malloc(un * sizeof(*g->pos));
    g->ord = malloc(un * sizeof(*g->ord));
    g->hstart = calloc(un + 1, sizeof(*g->hstart));
    g->tab = malloc((size_t)g->nt * sizeof(*g->tab));
    g->size = malloc((size_t)g->nt * sizeof(*g->size));
    g->where = malloc(un * sizeof(*g->where));
    g->grp_lo = malloc(un * sizeof(*g->grp_lo));
    g->grp_hi = malloc(un * sizeof(*g->grp_hi));
    g->tc = malloc((size_t)g->nt * sizeof(*g->tc));
    g->queue = malloc((size_t)g->nt * sizeof(*g->queue));
    g->queued = malloc((size_t)g->nt * sizeof(*g->queued));
    if (!g->pos || !g->ord || !g->hstart || !g->tab || !g->size || !g->where ||
        !g->grp_lo || !g->grp_hi || !g->tc || !g->queue || !g->queued)
        return TNY_ENOMEM;

    /* History rows per player (CSR). */
    size_t total = 0;
    for (int32_t r = 0; r < req->n_history; r++)
        for (int i = 0; i < 4; i++)
            if (g->hist[r][i] >= 0) {
                g->hstart[g->hist[r][i] + 1]++;
                total++;
            }
    for (int32_t p = 0; p < n; p++)
        g->hstart[p + 1] += g->hstart[p];
    g->hrows = malloc((total ? total : 1) * sizeof(*g->hrows));
    if (!g->hrows)
        return TNY_ENOMEM;
    for (int32_t p = 0; p < n; p++)
        g->where[p] = g->hstart[p]; /* fill cursor, overwritten below */
    for (int32_t r = 0; r < req->n_history; r++)
        for (int i = 0; i < 4; i++)
            if (g->hist[r][i] >= 0)
                g->hrows[g->where[g->hist[r][i]]++] = r;

    /* Order: standings, or the lot in round 1 (CT-2). */
    for (int32_t q = 0; q < n; q++)
        g->ord[q] = q;
    tny_rng_derive(&g->rng, req->seed, TNY_LOT_PAIRING, req->round);
    if (req->by_lot)
        tny_rng_shuffle_i32(&g->rng, g->ord, n);
    for (int32_t q = 0; q < n; q++)
        g->pos[g->ord[q]] = q;

    /* Sort-and-cut tables (CT-1: threes last). */
    tny_gorn_table_sizes(n, g->size);
    for (int32_t t = 0; t < g->nt; t++)
        g->tab[t][3] = -1;
    for (int32_t q = 0; q < n; q++) {
        int32_t t = home_table(g, q);
        int32_t first = t < g->n4 ? 4 * t : 4 * g->n4 + 3 * (t - g->n4);
        g->tab[t][q - first] = g->ord[q];
        g->where[g->ord[q]] = t;
    }

    /* Score groups: runs of equal points in standings order. */
    for (int32_t q = 0; q < n;) {
        int32_t e = q;
        while (e + 1 < n && pts(g, g->ord[e + 1]) == pts(g, g->ord[q]))
            e++;
        for (int32_t i = q; i <= e; i++) {
            g->grp_lo[g->ord[i]] = home_table(g, q);
            g->grp_hi[g->ord[i]] = home_table(g, e);
        }
        q = e + 1;
    }

    /* CT-1 cut: the highest points among the players the 3-player tables
     * would hold in sort-and-cut, taken as the k lowest values. */
    g->has3 = g->nt > g->n4;
    if (g->has3) {
        int32_t k = n - 4 * g->n4;
        /* k-th lowest point value: k <= 6, so a small selection. */
        int64_t low[6] = {0};
        int32_t nl = 0;
        for (int32_t p = 0; p < n; p++) {
            int64_t v = pts(g, p);
            if (nl < k) {
                low[nl++] = v;
            } else {
                int32_t w = 0;
                for (int32_t i = 1; i < nl; i++)
                    if (low[i] > low[w])
                        w = i;
                if (v < low[w])
                    low[w] = v;
            }
        }
        g->cut = low[0];
        for (int32_t i = 1; i < nl; i++)
            if (low[i] > g->cut)
                g->cut = low[i];
    }
    for (int32_t t = 0; t < g->nt; t++)
        table_cost(g, g->tab[t], g->size[t], &g->tc[t]);
    g->evals_left = (int64_t)EVALS_PER_PLAYER * n;
    g->exact_left = EXACT_BUDGET_TOTAL;
    return TNY_OK;
}

static int32_t table_pos_sum(const struct gorn *g, int32_t t)
{
    int32_t s = 0;
    for (int32_t i = 0; i < g->size[t]; i++)
        s += g->pos[g->tab[t][i]];
    return s;
}

/* players[i] as the explanation names them: the caller's words when it
 * gave a describe function, else "player i". */
static const char *gorn_who(const struct tny_gorn_request *req, int32_t i,
                            char *buf, size_t size)
{
    if (req->describe)
        req->describe(req->describe_ctx, i, buf, size);
    else
        snprintf(buf, size, "player %d", (int)i);
    return buf;
}

static int write_result(struct gorn *g, const struct tny_gorn_request *req,
                        const struct cost *base, int32_t pair_window,
                        struct tny_gorn_seating *out)
{
    int32_t nt = g->nt;
    int32_t *perm = malloc((size_t)nt * sizeof(*perm));
    int64_t *key = malloc((size_t)nt * sizeof(*key));
    out->tables = malloc((size_t)nt * sizeof(*out->tables));
    out->sizes = malloc((size_t)nt * sizeof(*out->sizes));
    if (!perm || !key || !out->tables || !out->sizes) {
        free(perm);
        free(key);
        return TNY_ENOMEM;
    }
    /* CM-9: fours before threes (CT-1), then by mean standings position
     * (sizes are equal inside each class, so the sum will do), then by the
     * best position in the table. */
    for (int32_t t = 0; t < nt; t++) {
        int32_t best = g->n;
        for (int32_t i = 0; i < g->size[t]; i++)
            if (g->pos[g->tab[t][i]] < best)
                best = g->pos[g->tab[t][i]];
        key[t] = ((int64_t)(g->size[t] == 3) << 62) |
                 ((int64_t)table_pos_sum(g, t) << 24) | best;
        perm[t] = t;
    }
    /* Insertion sort would be quadratic at 2500 tables; shell sort. */
    for (int32_t gap = nt / 2; gap > 0; gap /= 2)
        for (int32_t i = gap; i < nt; i++)
            for (int32_t j = i; j >= gap && key[perm[j - gap]] > key[perm[j]];
                 j -= gap) {
                int32_t t = perm[j];
                perm[j] = perm[j - gap];
                perm[j - gap] = t;
            }
    struct cost tot = total_cost(g);
    int64_t smax = 0;
    int32_t fmax = 0;
    for (int32_t o = 0; o < nt; o++) {
        int32_t t = perm[o];
        int32_t m[4];
        memcpy(m, g->tab[t], sizeof(m));
        for (int32_t i = 1; i < g->size[t]; i++)
            for (int32_t j = i; j > 0 && g->pos[m[j - 1]] > g->pos[m[j]]; j--) {
                int32_t x = m[j];
                m[j] = m[j - 1];
                m[j - 1] = x;
            }
        memcpy(out->tables[o], m, sizeof(m));
        out->sizes[o] = g->size[t];
        if (g->tc[t].spread > smax)
            smax = g->tc[t].spread;
        for (int32_t i = 0; i < g->size[t]; i++) {
            int32_t f = float_dist(g, m[i], t);
            if (f > fmax)
                fmax = f;
        }
    }
    free(key);
    out->n_tables = nt;
    out->repeated_triples = (int32_t)tot.triples;
    out->repeated_pairs = (int32_t)tot.pairs;
    out->ct1_violations = (int32_t)tot.ct1;
    out->spread_max = smax;
    out->spread_mean = (double)tot.spread / (double)nt;
    out->baseline_pairs = (int32_t)base->pairs;
    out->baseline_triples = (int32_t)base->triples;
    out->max_float = fmax;
    out->triple_free_impossible = tot.triples > 0 && g->whole_proved_impossible;

    struct text tx = {0};
    text_add(&tx,
             "round %u: %d players at %d tables (%d of 4, %d of 3, CT-1)\n",
             (unsigned)req->round, (int)g->n, (int)nt, (int)g->n4,
             (int)(nt - g->n4));
    if (req->by_lot)
        text_add(&tx, "round 1: seated by lot (seed %llu)\n",
                 (unsigned long long)req->seed);
    text_add(&tx,
             "start: sort-and-cut by %s had %d repeated triples and %d "
             "repeated pairs\n",
             req->by_lot ? "lot order" : "standings", (int)base->triples,
             (int)base->pairs);
    if (tot.triples == 0)
        text_add(&tx, "repeated triples: none (CT-2 hard constraint held)\n");
    else if (out->triple_free_impossible)
        text_add(&tx,
                 "repeated triples: %d; relaxed: exhaustive search proved "
                 "that no seating of these players avoids every repeated "
                 "triple\n",
                 (int)tot.triples);
    else
        text_add(&tx,
                 "repeated triples: %d; relaxed: the search found no "
                 "triple-free seating within its budget (one may exist)\n",
                 (int)tot.triples);
    if (g->exact_runs > 0)
        text_add(&tx,
                 "exact search: %d runs (%d found a triple-free seating, %d "
                 "proved none exists, %d ran out of budget)\n",
                 (int)g->exact_runs, (int)g->exact_found,
                 (int)g->exact_impossible, (int)g->exact_budget_out);
    if (!g->has3)
        text_add(&tx, "CT-1: every table has 4 players\n");
    else if (tot.ct1 == 0)
        text_add(&tx,
                 "CT-1: the 3-player tables hold the %d players with the "
                 "lowest points\n",
                 (int)(g->n - 4 * g->n4));
    else
        text_add(&tx,
                 "CT-1: relaxed for %d players to avoid repeated triples\n",
                 (int)tot.ct1);
    text_add(&tx, "repeated pairs: %d (sort-and-cut: %d)\n", (int)tot.pairs,
             (int)base->pairs);
    if (req->points_text) { /* the format's units */
        char a[32], b[32], m[32];
        req->points_text(smax, a, sizeof a);
        req->points_text((int64_t)llround(out->spread_mean), b, sizeof b);
        req->points_text((int64_t)llround((double)base->spread / (double)nt), m,
                         sizeof m);
        text_add(&tx,
                 "points spread per table: max %s, mean %s (sort-and-cut: "
                 "mean %s)\n",
                 a, b, m);
    } else
        text_add(&tx,
                 "points spread per table: max %lld, mean %.3f (sort-and-cut: "
                 "mean %.3f)\n",
                 (long long)smax, out->spread_mean,
                 (double)base->spread / (double)nt);
    text_add(&tx,
             "window: players moved at most %d tables beyond their score "
             "group's tables (allowed %d for pairs%s)\n",
             (int)fmax, (int)pair_window,
             g->used_full_window ? ", any table for triples and CT-1" : "");
    int listed = 0;
    if (tot.pairs > 0 && !req->describe)
        text_add(&tx, "players are named by request index (0 = first in "
                      "standings), tables from 1\n");
    char w1[160], w2[160], w3[160];
    for (int32_t o = 0; o < nt; o++) {
        const int32_t *m = out->tables[o];
        int32_t s = out->sizes[o];
        for (int32_t i = 0; i < s; i++)
            for (int32_t j = i + 1; j < s; j++) {
                int32_t pc = pair_count(g, m[i], m[j]);
                if (pc == 0)
                    continue;
                for (int32_t k = j + 1; k < s; k++)
                    if (triple_met(g, m[i], m[j], m[k]) &&
                        listed++ < EXPLAIN_LIST)
                        text_add(&tx,
                                 "table %d: %s, %s and %s shared a table "
                                 "before\n",
                                 (int)o + 1, gorn_who(req, m[i], w1, sizeof w1),
                                 gorn_who(req, m[j], w2, sizeof w2),
                                 gorn_who(req, m[k], w3, sizeof w3));
                if (listed++ < EXPLAIN_LIST)
                    text_add(&tx,
                             "table %d: %s and %s shared %d table%s before\n",
                             (int)o + 1, gorn_who(req, m[i], w1, sizeof w1),
                             gorn_who(req, m[j], w2, sizeof w2), (int)pc,
                             pc == 1 ? "" : "s");
            }
    }
    if (listed > EXPLAIN_LIST)
        text_add(&tx, "(%d more repeats not listed)\n", listed - EXPLAIN_LIST);
    free(perm);
    if (tx.failed || !tx.buf) {
        free(tx.buf);
        return TNY_ENOMEM;
    }
    out->explain = tx.buf;
    return TNY_OK;
}

int tny_gorn_seat(const struct tny_gorn_request *req,
                  struct tny_gorn_seating *out, struct tny_diag *diag)
{
    int rc;
    struct gorn g;
    bool inited = false;
    assert(req && out);
    memset(out, 0, sizeof(*out));
    rc = validate(req, diag);
    if (rc != TNY_OK)
        goto out;
    inited = true;
    rc = gorn_init(&g, req);
    if (rc != TNY_OK)
        goto out;

    struct cost base = total_cost(&g);
    int32_t window = req->pair_window == 0  ? TNY_GORN_DEFAULT_WINDOW
                     : req->pair_window < 0 ? g.nt
                                            : req->pair_window;
    if (window > g.nt)
        window = g.nt;

    /* 1. Everything, near the start, widening up to the pair window. */
    for (int32_t w = 1;; w *= 2) {
        if (w > window)
            w = window;
        g.widest_pair_window = w;
        improve(&g, w < 1 ? 1 : w, w, false);
        struct cost t = total_cost(&g);
        if (!has_problem(&t, false) || w >= window)
            break;
    }
    /* 2. Triples and CT-1 only, any table. */
    struct cost t = total_cost(&g);
    if (t.triples > 0 || t.ct1 > 0) {
        g.used_full_window = true;
        for (int32_t w = 4;; w *= 4) {
            if (w > g.nt)
                w = g.nt;
            improve(&g, w, g.nt, true);
            t = total_cost(&g);
            if (!has_problem(&t, true) || w >= g.nt)
                break;
        }
    }
    /* 3. Exact search against surviving triples. */
    if (t.triples > 0) {
        rc = break_triples(&g);
        if (rc != TNY_OK)
            goto out;
        improve(&g, g.nt, g.nt, true);
    }
    /* 4. Pairs and spread again after the hard moves, then tidy up. */
    improve(&g, window < 1 ? 1 : window, window, false);
    polish(&g, window);

    rc = write_result(&g, req, &base, window, out);
out:
    if (inited)
        gorn_free(&g);
    if (rc != TNY_OK)
        tny_gorn_seating_release(out);
    return rc;
}
