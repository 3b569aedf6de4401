/* swiss.c - 2-player Swiss pairing as one minimum-cost perfect matching; see
 * tny/swiss.h for the objective (levels 1-5).
 *
 * Not here: the matching algorithm itself (matching.c), standings, tables.
 *
 * How the lexicographic objective becomes one int64 cost per pair.
 * Let M* be a lexicographic optimum and d the largest number of distinct
 * opponents a player has met (the "met degree").  Levels are non-negative
 * integers L1..L5; with weights W5 = 1 and W_k > sum_{j>k} W_j * U_j, where
 * U_j >= L_j(M*), every minimiser of sum_k W_k L_k is lexicographically
 * optimal (if M were lexicographically worse than M* first at level k, then
 * cost(M) - cost(M*) >= W_k - sum_{j>k} W_j L_j(M*) > 0).  So the weights only
 * need bounds on the OPTIMUM's lower levels, which exchange arguments give:
 *
 * (E1) Case A, n >= 2d + 2: the graph of not-yet-met pairs has minimum degree
 *      >= n - 1 - d >= n/2, so it is Hamiltonian (Dirac); removing any one
 *      player leaves a Hamiltonian path, hence a rematch-free perfect
 *      matching.  So L1(M*) = 0 and the bye goes to the first player in bye
 *      order: levels 1 and 2 are settled before matching, rematch pairs are
 *      left out and the bye holder is removed from the graph.
 * Below, group indices and line positions are points on a line, and the
 * quadrangle identity (x1-x2)^2 + (x3-x4)^2 - (x1-x4)^2 - (x3-x2)^2 =
 * 2 (x1-x3)(x4-x2) says when re-pairing {x1 x2, x3 x4} as {x1 x4, x3 x2}
 * strictly lowers a sum of squares.  Line distance is such a metric for a
 * fixed pair of groups: for x in group g and y in group h != g it is
 * |pos(x) - pos(y)| minus the players strictly between g and h, so y acts
 * as a point y' outside g's stretch of the line (above it if h < g, below
 * it if h > g).  Every swap below leaves the bye holder alone and would be
 * an improvement, so in M* it must create a rematch (forbidden, L1(M*) = 0):
 * we count the players it can be blocked by.  Levels: L3 = sum dg^2,
 * L4 = pair-downs, L5 = sum dl^2.
 * (E2) In M*, a same-group pair (a, b) has at most 4d + 1 players between
 *      a and b on the line: such a c (partner e) is in the same group, the
 *      swaps {ac, be} / {ae, cb} keep the multiset of group pairs (so L3, L4)
 *      and one of them strictly lowers L5 (a < c < b: the first if e' > a,
 *      the second if e' < b), so a-c, b-e, a-e or c-b met: at most d
 *      players c each; plus the bye holder.  Same group line distance
 *      <= D1 = 4d + 2.
 * (E3) In M*, a cross pair (a in group g above, b in group h > g below) has
 *      at most T = 4d + 1 players of g below a: for such a c (partner e in
 *      group k), if k <= g the swap {ae, cb} keeps the group pairs and
 *      lowers L5 (2 (a-c)(e'-b') > 0 as e' < b'), if k > g the swap
 *      {ac, be} lowers L3 by 2 (h-g)(k-g) > 0.  Likewise at most T players
 *      of h above b.  The level-5 distance is then <= 2T + 1.
 * (E4) In M*, at most T players lie in the groups strictly between g and h
 *      for a cross pair (a in g, b in h): for such a c (group j, g < j < h;
 *      partner e in group k) {ac, be} lowers L3 by 2 (k-g)(h-j) when k > g
 *      and {ae, cb} lowers it by 2 (j-g)(h-k) when k < h, and one of the
 *      two holds.  So dg <= T + 1 in M*.  [Under the old order, pair-downs
 *      before L3, this did not hold; now far floats are not candidates.]
 * (E5) In M*, at most 2d + 1 pairs cross the boundary between two
 *      consecutive groups: for two crossing pairs (a1 b1), (a2 b2) the swap
 *      {a1 a2, b1 b2} strictly lowers L3 (2 (x1 - y2)(x2 - y1) > 0 for the
 *      group indices x1, x2 above, y1, y2 below the boundary), so a1-a2 or
 *      b1-b2 must be met; k crossing pairs need k(k-1)/2 such rematches
 *      but have at most k d / 2 met pairs among the upper and k d / 2 among
 *      the lower players: k <= 2d + 1.  A cross pair crosses
 *      at least one boundary, so L4(M*) <= (2d+1)(G-1).
 * Level 3 is the top level of the weighted cost in case A (1 and 2 are
 * settled), so it needs no bound; with P = floor(players/2):
 * U4 = min(P, (2d+1)(G-1)), U5 = P D1^2 + U4 (2T+1)^2; W4 = U5 + 1,
 * W3 = W4 U4 + U5 + 1; pair cost W3 dg^2 + W4 [dg > 0] + dl^2.  The largest
 * candidate cost is W3 DG^2 + W4 + max dl^2, DG the largest dg in K* (<=
 * T + 1 by E4).  Example n = 1,000,000, 5 rounds played (d = 5), 16 groups:
 * U5 ~ 2.4e8, U4 = 165, W3 ~ 4e10, the largest pair cost (DG <= 15) ~ 9e12
 * < 2^44: far below the matcher's 2^58.  Every pair of M* lies in the set K*
 * allowed by E2-E4 (not met, same group within D1, or cross with both tails
 * <= T and at most T players of groups in between), a band of O(n d + G d^2)
 * pairs.
 *
 * Case B, n < 2d + 2 (a player met half the field: tiny events): the full
 * objective with a bye vertex, rematch pairs included at weight W1, on the
 * complete graph, with the universal bounds U2 = n - 1, U3 = P (G-1)^2,
 * U4 = P, U5 = P (n-1)^2 (W4, W3 as above, W2 = W3 (U3 + 1), W1 = W2 n).
 * TNY_ERANGE when that overflows 2^58 (n beyond a few hundred) or n > 3000.
 *
 * Solving case A: one matching on exactly the pairs of K* (no rematch pairs,
 * no bye vertex).  Since every optimal pairing lies in K* (E2-E4) and the
 * weights order the optimum correctly (above), the matcher's optimum on K*
 * is the lexicographic optimum over all pairings: the exchange lemmas are the
 * optimality certificate for the pairs left out.  [A narrow line-neighbour
 * graph plus dual pricing of K*'s other pairs was tried first: the duals
 * after a pair-down tree are far from central, pricing pulled in nearly all
 * of K* over 3 re-solves and took 1.4 s instead of 0.011 s for 1,000
 * players, so K* is built up front.]
 *
 * The points cost (issue 19) replaces the group index in level 3 by the
 * player's points coordinate (sval); E3-E5 only use that group coordinates
 * are points on a line ordered as the groups, so they hold as written, with
 * DG the largest coordinate difference of a K* pair.  Sides (swiss.h) add
 * levels the exchange lemmas do not bound (a side conflict can block any
 * swap), so a sided request matches on every pair but rematches (case A,
 * the bye still settled by E1 on the rematch graph) or on the complete
 * graph (case B), with the universal bounds of case B for every level.
 */
#include "tny/swiss.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/rng.h"

#define CASE_B_MAX_PLAYERS 3000
/* With sides: line distances beyond this count as this (swiss.h). */
#define SIDED_LINE_CAP 64

struct ctx {
    const struct tny_swiss_request *req;
    int32_t n, G;
    int32_t *grp;    /* player -> score group (0 = most points) */
    int32_t *gstart; /* group -> first line position; gstart[G] = n */
    int32_t *line;   /* line position -> player */
    int32_t *pos;    /* player -> line position */
    int64_t *met_start;
    int32_t *met_adj; /* sorted, distinct */
    int32_t dmax;
    int64_t *sval; /* player -> level-3 coordinate (group or points) */
    int64_t span;  /* largest sval */
    bool sided;    /* a request with sides (swiss.h) */
    int64_t *ag_start;
    int32_t *ag_adj; /* `again` partners, sorted */
    int8_t *ag_side; /* the side this player must play against them */
    int64_t Wc, Wr;  /* sides: conflict and swapped-rematch weights */
    bool case_a;
    int32_t bye;    /* case A: predetermined bye holder or -1 */
    int32_t *brank; /* case B: bye order (0 first) */
    int64_t W1, W2, W3, W4;
    int32_t D1, T;
    int32_t *vid; /* player -> vertex or -1 */
    int32_t *pid; /* vertex -> player, -1 for the bye vertex */
    int32_t nv, bye_vertex;
    struct tny_match_edge *pend;
    int64_t n_pend, cap_pend;
    /* Where pend goes when it holds PEND_CHUNK edges (set while the
     * edges are listed), so it stays small and is written once. */
    struct tny_matching *sink;
    struct tny_diag *diag;
};

/* Edges listed before they are handed to the matching (issue 17: one
 * buffer of every edge was a tenth of `tourney pair`'s page faults). */
#define PEND_CHUNK 4096

struct strbuf {
    char *s;
    size_t len, cap;
    bool failed;
};

TNY_PRINTF(2, 3) static void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
    if (sb->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(sb->s ? sb->s + sb->len : NULL,
                          sb->s ? sb->cap - sb->len : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            sb->failed = true;
            return;
        }
        if (sb->s && sb->len + (size_t)k < sb->cap) {
            sb->len += (size_t)k;
            return;
        }
        size_t cap = sb->cap ? sb->cap : 256;
        while (cap <= sb->len + (size_t)k)
            cap *= 2;
        char *s = realloc(sb->s, cap);
        if (!s) {
            sb->failed = true;
            return;
        }
        sb->s = s;
        sb->cap = cap;
    }
}

/* --------------------------------------------------------- preparation */

struct keyed {
    int64_t points;
    int32_t idx;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->points != y->points)
        return x->points > y->points ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int build_line(struct ctx *c)
{
    int32_t n = c->n;
    struct keyed *k = malloc((size_t)n * sizeof(*k));
    if (!k)
        return TNY_ENOMEM;
    for (int32_t i = 0; i < n; i++)
        k[i] = (struct keyed){c->req->players[i].points, i};
    qsort(k, (size_t)n, sizeof(*k), cmp_keyed);
    c->G = 0;
    for (int32_t p = 0; p < n; p++) {
        if (p == 0 || k[p].points != k[p - 1].points)
            c->gstart[c->G++] = p;
        c->line[p] = k[p].idx;
        c->grp[k[p].idx] = c->G - 1;
    }
    c->gstart[c->G] = n;
    free(k);
    if (c->req->order == TNY_SWISS_LOT) {
        struct tny_rng rng;
        tny_rng_derive(&rng, c->req->seed, TNY_LOT_PAIRING, c->req->round);
        for (int32_t g = 0; g < c->G; g++)
            tny_rng_shuffle_i32(&rng, c->line + c->gstart[g],
                                c->gstart[g + 1] - c->gstart[g]);
    }
    for (int32_t p = 0; p < n; p++)
        c->pos[c->line[p]] = p;
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Level-3 coordinates: the score group, or the points below the top
 * group divided by the gcd of all such differences (TNY_SWISS_COST_POINTS). */
static void build_sval(struct ctx *c)
{
    const struct tny_swiss_player *pl = c->req->players;
    int64_t top = pl[c->line[0]].points, g = 0;
    for (int32_t i = 0; i < c->n; i++)
        if (c->req->cost == TNY_SWISS_COST_POINTS)
            g = gcd64(g, top - pl[i].points);
    c->span = 0;
    for (int32_t i = 0; i < c->n; i++) {
        c->sval[i] = c->req->cost == TNY_SWISS_COST_POINTS
                         ? (g ? (top - pl[i].points) / g : 0)
                         : c->grp[i];
        if (c->sval[i] > c->span)
            c->span = c->sval[i];
    }
}

/* `again` as sorted adjacency lists with the side each end must play. */
static int build_again(struct ctx *c)
{
    int32_t n = c->n;
    const int32_t *a = c->req->again;
    int64_t na = c->req->n_again;
    c->ag_start = calloc((size_t)n + 1, sizeof(int64_t));
    c->ag_adj = malloc((size_t)(2 * na + 1) * sizeof(int32_t));
    c->ag_side = malloc((size_t)(2 * na + 1));
    int64_t *fill = malloc(((size_t)n + 1) * sizeof(int64_t));
    if (!c->ag_start || !c->ag_adj || !c->ag_side || !fill) {
        free(fill);
        return TNY_ENOMEM;
    }
    for (int64_t i = 0; i < na; i++) {
        c->ag_start[a[3 * i] + 1]++;
        c->ag_start[a[3 * i + 1] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        c->ag_start[v + 1] += c->ag_start[v];
    memcpy(fill, c->ag_start, ((size_t)n + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < na; i++) {
        int64_t x = fill[a[3 * i]]++, y = fill[a[3 * i + 1]]++;
        c->ag_adj[x] = a[3 * i + 1];
        c->ag_side[x] = (int8_t)a[3 * i + 2];
        c->ag_adj[y] = a[3 * i];
        c->ag_side[y] = (int8_t)(1 - a[3 * i + 2]);
    }
    free(fill);
    /* insertion sort per list (lists are as long as rounds played) */
    for (int32_t v = 0; v < n; v++)
        for (int64_t i = c->ag_start[v] + 1; i < c->ag_start[v + 1]; i++)
            for (int64_t j = i;
                 j > c->ag_start[v] && c->ag_adj[j - 1] > c->ag_adj[j]; j--) {
                int32_t t = c->ag_adj[j];
                int8_t ts = c->ag_side[j];
                c->ag_adj[j] = c->ag_adj[j - 1];
                c->ag_side[j] = c->ag_side[j - 1];
                c->ag_adj[j - 1] = t;
                c->ag_side[j - 1] = ts;
            }
    return 0;
}

/* The side u must play against v when they may meet again, else -1. */
static int again_side(const struct ctx *c, int32_t u, int32_t v)
{
    if (!c->ag_start)
        return -1;
    for (int64_t i = c->ag_start[u]; i < c->ag_start[u + 1]; i++)
        if (c->ag_adj[i] == v)
            return c->ag_side[i];
    return -1;
}

/* Sides: the pair cannot give both players the side they need. */
static bool side_conflict(const struct ctx *c, int32_t u, int32_t v)
{
    const int8_t *need = c->req->side;
    int su = again_side(c, u, v);
    if (!need)
        return false;
    if (su >= 0)
        return (need[u] >= 0 && need[u] != su) ||
               (need[v] >= 0 && need[v] != 1 - su);
    return need[u] >= 0 && need[u] == need[v];
}

static int build_met(struct ctx *c)
{
    int32_t n = c->n;
    const int32_t *met = c->req->met;
    int64_t nm = c->req->n_met;
    c->met_start = calloc((size_t)n + 1, sizeof(int64_t));
    c->met_adj = malloc((size_t)(2 * nm + 1) * sizeof(int32_t));
    int64_t *fill = malloc(((size_t)n + 1) * sizeof(int64_t));
    if (!c->met_start || !c->met_adj || !fill) {
        free(fill);
        return TNY_ENOMEM;
    }
    for (int64_t i = 0; i < nm; i++) {
        c->met_start[met[2 * i] + 1]++;
        c->met_start[met[2 * i + 1] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        c->met_start[v + 1] += c->met_start[v];
    memcpy(fill, c->met_start, ((size_t)n + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < nm; i++) {
        c->met_adj[fill[met[2 * i]]++] = met[2 * i + 1];
        c->met_adj[fill[met[2 * i + 1]]++] = met[2 * i];
    }
    /* sort and deduplicate each list, compacting in place */
    int64_t out = 0;
    c->dmax = 0;
    for (int32_t v = 0; v < n; v++) {
        int64_t a = c->met_start[v], b = fill[v];
        qsort(c->met_adj + a, (size_t)(b - a), sizeof(int32_t), cmp_i32);
        int64_t start = out;
        for (int64_t i = a; i < b; i++)
            if (i == a || c->met_adj[i] != c->met_adj[i - 1])
                c->met_adj[out++] = c->met_adj[i];
        c->met_start[v] = start;
        if (out - start > c->dmax)
            c->dmax = (int32_t)(out - start);
    }
    c->met_start[n] = out;
    free(fill);
    return 0;
}

static bool is_met(const struct ctx *c, int32_t u, int32_t v)
{
    int64_t lo = c->met_start[u], hi = c->met_start[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (c->met_adj[mid] == v)
            return true;
        if (c->met_adj[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Level-5 distance of two players (see swiss.h). */
static int64_t line_dist(const struct ctx *c, int32_t u, int32_t v)
{
    int32_t pu = c->pos[u], pv = c->pos[v];
    if (pu > pv) {
        int32_t t = pu;
        pu = pv, pv = t;
        t = u, u = v, v = t;
    }
    int32_t gu = c->grp[u], gv = c->grp[v];
    if (gu == gv)
        return pv - pu;
    return (int64_t)(c->gstart[gu + 1] - 1 - pu) + (pv - c->gstart[gv]) + 1;
}

static int64_t pair_cost(const struct ctx *c, int32_t u, int32_t v)
{
    int64_t dg = c->sval[u] - c->sval[v], dl = line_dist(c, u, v);
    if (c->sided && dl > SIDED_LINE_CAP)
        dl = SIDED_LINE_CAP;
    int64_t cost =
        dl * dl + c->W3 * dg * dg + (c->grp[u] != c->grp[v] ? c->W4 : 0);
    if (c->sided) {
        cost += again_side(c, u, v) >= 0 ? c->Wr : 0;
        cost += side_conflict(c, u, v) ? c->Wc : 0;
    }
    if (!c->case_a && is_met(c, u, v))
        cost += c->W1;
    return cost;
}

/* a * b + add <= TNY_MATCH_COST_MAX (all >= 0), else false. */
static bool lim_mul_add(int64_t a, int64_t b, int64_t add, int64_t *out)
{
    const int64_t lim = TNY_MATCH_COST_MAX;
    if (a != 0 && b > lim / a)
        return false;
    if (a * b > lim - add)
        return false;
    *out = a * b + add;
    return true;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Largest level-3 difference (group steps h - g, or points) of a K* pair (E4):
 * at most T players in the groups strictly between g and h.  Two pointers: the
 * farthest group reachable from g never moves up as g moves down. */
static int64_t max_reach(const struct ctx *c)
{
    int64_t dg = 0;
    int32_t h = 0;
    for (int32_t g = 0; g + 1 < c->G; g++) {
        if (h < g + 1)
            h = g + 1;
        while (h + 1 < c->G && c->gstart[h + 1] - c->gstart[g + 1] <= c->T)
            h++;
        int64_t d =
            c->sval[c->line[c->gstart[h]]] - c->sval[c->line[c->gstart[g]]];
        if (d > dg)
            dg = d;
    }
    return dg;
}

/* One level of a lexicographic cost, bottom up: *w = *sum + 1, then *sum
 * += *w * u (sum: the largest total of the levels so far). */
static bool level(int64_t *sum, int64_t u, int64_t *w)
{
    *w = *sum + 1;
    return lim_mul_add(*w, u, *sum, sum);
}

/* Sides (swiss.h): universal bounds on the complete graph.  Levels from
 * the bottom: line distance, swapped rematches, pair-downs, level 3, side
 * conflicts, and in case B the bye and rematches. */
static bool set_weights_sided(struct ctx *c, int64_t *maxc)
{
    int64_t P = c->nv / 2, n1 = c->n - 1, sum = 0, u3, sq = c->span * c->span;
    int64_t l7 = min64(n1, SIDED_LINE_CAP) * min64(n1, SIDED_LINE_CAP);
    bool ok = lim_mul_add(P, l7, 0, &sum) && level(&sum, P, &c->Wr) &&
              level(&sum, P, &c->W4) && lim_mul_add(P, sq, 0, &u3) &&
              level(&sum, u3, &c->W3);
    c->Wc = sum + 1; /* case A: the top level, no bound needed */
    if (ok && !c->case_a)
        ok = level(&sum, P, &c->Wc) && level(&sum, n1, &c->W2) &&
             level(&sum, P, &c->W1);
    /* the largest edge: every level at its largest */
    ok = ok && lim_mul_add(c->W3, sq, l7 + c->Wr + c->W4, maxc) &&
         lim_mul_add(1, *maxc, c->Wc, maxc);
    if (ok && !c->case_a)
        ok = lim_mul_add(1, *maxc, c->W1, maxc) &&
             lim_mul_add(c->W2, n1, 0, &u3);
    return ok;
}

static int set_weights(struct ctx *c, struct tny_diag *diag)
{
    int64_t P = c->nv / 2, g1 = c->span, n1 = c->n - 1;
    int64_t g1sq;
    bool ok = g1 < ((int64_t)1 << 28);
    g1sq = ok ? g1 * g1 : 0;
    int64_t U3 = 0, U4 = 0, U5 = 0, L5max, maxc = 0;
    if (ok && c->sided) {
        ok = set_weights_sided(c, &maxc);
    } else if (ok && c->case_a) {
        int64_t dd = 2 * (int64_t)c->dmax + 1;
        c->D1 = (int32_t)min64(4 * (int64_t)c->dmax + 2, n1);
        c->T = (int32_t)min64(4 * (int64_t)c->dmax + 1, n1);
        int64_t tail = min64(2 * (int64_t)c->T + 1, n1);
        int64_t d1sq = (int64_t)c->D1 * c->D1, tsq = tail * tail;
        int64_t dg = max_reach(c);
        L5max = d1sq > tsq ? d1sq : tsq;
        U4 = min64(P, dd * (c->G - 1)); /* pair-downs (E5) */
        ok = lim_mul_add(U4, tsq, 0, &U5) && lim_mul_add(P, d1sq, U5, &U5);
        c->W4 = U5 + 1;
        ok = ok && lim_mul_add(c->W4, U4, U5 + 1, &c->W3) &&
             lim_mul_add(c->W3, dg * dg, c->W4, &maxc) &&
             lim_mul_add(1, maxc, L5max, &maxc);
    } else if (ok) {
        L5max = n1 * n1;
        U4 = P;
        ok = lim_mul_add(P, g1sq, 0, &U3) && lim_mul_add(P, L5max, 0, &U5);
        c->W4 = U5 + 1;
        ok = ok && lim_mul_add(c->W4, U4, U5 + 1, &c->W3) &&
             lim_mul_add(c->W3, U3 + 1, 0, &c->W2) &&
             lim_mul_add(c->W2, n1 + 1, 0, &c->W1) &&
             lim_mul_add(c->W3, g1sq, c->W4 + c->W1, &maxc) &&
             lim_mul_add(1, maxc, L5max, &maxc) &&
             lim_mul_add(c->W2, n1, 0, &maxc);
    }
    if (!ok)
        return tny_diag_set(diag, TNY_ERANGE,
                            "swiss: %d players with up to %d opponents met "
                            "each%s: pairing weights exceed the 2^58 cost "
                            "range",
                            (int)c->n, (int)c->dmax,
                            c->sided ? " and sides" : "");
    return 0;
}

/* ----------------------------------------------------- candidate graph */

static int flush(struct ctx *c, struct tny_matching *m, struct tny_diag *diag);

static int pend_add(struct ctx *c, int32_t a, int32_t b, int64_t cost)
{
    if (c->n_pend == PEND_CHUNK && c->sink) {
        int rc = flush(c, c->sink, c->diag);
        if (rc)
            return rc;
    }
    if (c->n_pend == c->cap_pend) {
        int64_t cap = c->cap_pend ? 2 * c->cap_pend : 1024;
        struct tny_match_edge *p = realloc(c->pend, (size_t)cap * sizeof(*p));
        if (!p)
            return TNY_ENOMEM;
        c->pend = p;
        c->cap_pend = cap;
    }
    c->pend[c->n_pend++] = (struct tny_match_edge){a, b, cost};
    return 0;
}

static int consider(struct ctx *c, int32_t u, int32_t v)
{
    if (v == c->bye || is_met(c, u, v))
        return 0;
    return pend_add(c, c->vid[u], c->vid[v], pair_cost(c, u, v));
}

/* Lists every pair of K* once (case A; see the file comment): the players
 * after u on the line in u's group within D1, and, when u is among the last
 * T + 1 of its group, the first T + 1 players of every lower group with at
 * most T players in the groups in between (E3, E4). */
static int scan_kstar(struct ctx *c)
{
    int rc = 0;
    for (int32_t p = 0; p < c->n && !rc; p++) {
        int32_t u = c->line[p];
        if (u == c->bye)
            continue;
        int32_t g = c->grp[u], end = c->gstart[g + 1];
        int32_t lim = (int32_t)min64((int64_t)p + c->D1, end - 1);
        for (int32_t q = p + 1; q <= lim && !rc; q++)
            rc = consider(c, u, c->line[q]);
        if (end - 1 - p > c->T)
            continue;
        for (int32_t h = g + 1; h < c->G && c->gstart[h] - end <= c->T && !rc;
             h++) {
            int32_t hs = c->gstart[h], he = c->gstart[h + 1];
            int32_t qlim = (int32_t)min64((int64_t)hs + c->T, he - 1);
            for (int32_t q = hs; q <= qlim && !rc; q++)
                rc = consider(c, u, c->line[q]);
        }
    }
    return rc;
}

/* Sides, case A: every pair but rematches and the bye holder. */
static int scan_all(struct ctx *c)
{
    int rc = 0;
    for (int32_t p = 0; p < c->n && !rc; p++)
        for (int32_t q = p + 1; q < c->n && !rc; q++)
            if (c->line[p] != c->bye)
                rc = consider(c, c->line[p], c->line[q]);
    return rc;
}

static int flush(struct ctx *c, struct tny_matching *m, struct tny_diag *diag)
{
    int rc = tny_matching_add_edges(m, c->pend, c->n_pend, diag);
    c->n_pend = 0;
    return rc;
}

/* Case B: complete graph with rematches and a bye vertex. */
static int build_full(struct ctx *c, struct tny_matching *m,
                      struct tny_diag *diag)
{
    int rc = 0;
    c->sink = m;
    c->diag = diag;
    for (int32_t u = 0; u < c->n && !rc; u++) {
        for (int32_t v = u + 1; v < c->n && !rc; v++)
            rc = pend_add(c, c->vid[u], c->vid[v], pair_cost(c, u, v));
        if (!rc && c->bye_vertex >= 0)
            rc = pend_add(c, c->vid[u], c->bye_vertex, c->W2 * c->brank[u]);
    }
    if (!rc)
        rc = flush(c, m, diag);
    return rc;
}

/* Bye order: eligible players by bye_rank, then the others from the bottom
 * of the standings (NH-4, GT-3). */
static int bye_order(struct ctx *c)
{
    int32_t n = c->n;
    struct keyed *k = malloc((size_t)n * sizeof(*k));
    if (!k)
        return TNY_ENOMEM;
    for (int32_t i = 0; i < n; i++) {
        int32_t r = c->req->players[i].bye_rank;
        /* ascending key, negated because cmp_keyed sorts descending */
        int64_t key = r >= 0 ? r : ((int64_t)1 << 40) + (n - 1 - i);
        k[i].points = -key;
        k[i].idx = i;
    }
    qsort(k, (size_t)n, sizeof(*k), cmp_keyed);
    for (int32_t i = 0; i < n; i++)
        c->brank[k[i].idx] = i;
    free(k);
    return 0;
}

static int validate(const struct tny_swiss_request *req, struct tny_diag *diag)
{
    if (!req || req->n_players < 1 || !req->players || req->n_met < 0 ||
        (req->n_met > 0 && !req->met))
        return tny_diag_set(diag, TNY_EINVAL,
                            "swiss: request needs n_players >= 1 and arrays");
    if (req->order != TNY_SWISS_LOT && req->order != TNY_SWISS_ADJACENT)
        return tny_diag_set(diag, TNY_EINVAL, "swiss: unknown order %d",
                            (int)req->order);
    int32_t n = req->n_players;
    for (int64_t i = 0; i < 2 * req->n_met; i++)
        if (req->met[i] < 0 || req->met[i] >= n)
            return tny_diag_set(diag, TNY_EINVAL,
                                "swiss: met[%lld]: player %d out of range",
                                (long long)(i / 2), (int)req->met[i]);
    for (int64_t i = 0; i < req->n_met; i++)
        if (req->met[2 * i] == req->met[2 * i + 1])
            return tny_diag_set(diag, TNY_EINVAL,
                                "swiss: met[%lld]: player %d met themself",
                                (long long)i, (int)req->met[2 * i]);
    if (req->n_again < 0 || (req->n_again > 0 && !req->again))
        return tny_diag_set(diag, TNY_EINVAL, "swiss: again: NULL array");
    for (int64_t i = 0; i < req->n_again; i++) {
        const int32_t *a = req->again + 3 * i;
        if (a[0] < 0 || a[0] >= n || a[1] < 0 || a[1] >= n || a[0] == a[1] ||
            (a[2] != 0 && a[2] != 1))
            return tny_diag_set(diag, TNY_EINVAL,
                                "swiss: again[%lld]: expected two players "
                                "and a side 0 or 1",
                                (long long)i);
    }
    for (int32_t i = 0; req->side && i < n; i++)
        if (req->side[i] < -1 || req->side[i] > 1)
            return tny_diag_set(diag, TNY_EINVAL,
                                "swiss: side[%d]: expected -1, 0 or 1", (int)i);
    int32_t *seen = malloc((size_t)n * sizeof(int32_t));
    if (!seen)
        return tny_diag_set(diag, TNY_ENOMEM, "swiss: out of memory");
    int rc = 0;
    for (int32_t i = 0; i < n; i++)
        seen[i] = -1;
    for (int32_t i = 0; i < n && !rc; i++) {
        int32_t r = req->players[i].bye_rank;
        if (r < -1)
            rc = tny_diag_set(
                diag, TNY_EINVAL,
                "swiss: players[%d].bye_rank: expected -1 or more", (int)i);
        else if (r >= 0 && r < n && seen[r] >= 0)
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "swiss: players[%d].bye_rank: %d also held by "
                              "players[%d]",
                              (int)i, (int)r, (int)seen[r]);
        else if (r >= 0 && r < n)
            seen[r] = i;
    }
    /* ranks >= n: check distinctness by sorting */
    if (!rc) {
        int32_t k = 0;
        for (int32_t i = 0; i < n; i++)
            if (req->players[i].bye_rank >= n)
                seen[k++] = req->players[i].bye_rank;
        qsort(seen, (size_t)k, sizeof(int32_t), cmp_i32);
        for (int32_t i = 1; i < k && !rc; i++)
            if (seen[i] == seen[i - 1])
                rc =
                    tny_diag_set(diag, TNY_EINVAL,
                                 "swiss: bye_rank %d held twice", (int)seen[i]);
    }
    free(seen);
    return rc;
}

/* --------------------------------------------------------------- result */

static int cmp_pair(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* players[i] as the explanation names them: the caller's words when it
 * gave a describe function, else "player i". */
static const char *who(const struct ctx *c, int32_t i, char *buf, size_t size)
{
    if (c->req->describe)
        c->req->describe(c->req->describe_ctx, i, buf, size);
    else
        snprintf(buf, size, "player %d", (int)i);
    return buf;
}

static void explain(const struct ctx *c, struct tny_swiss_pairing *out,
                    int32_t bye_brank, struct strbuf *sb)
{
    char wa[160], wb[160];
    const struct tny_swiss_request *req = c->req;
    sb_addf(sb,
            "round %u: %d players in %d score group%s; inside a score "
            "group partners are %s",
            (unsigned)req->round, (int)c->n, (int)c->G, c->G == 1 ? "" : "s",
            req->order == TNY_SWISS_LOT ? "drawn by lot"
                                        : "adjacent in standings order");
    sb_addf(sb, "; optimal over all pairings (global minimum-cost matching)");
    if (out->bye >= 0) {
        int32_t r = req->players[out->bye].bye_rank;
        if (out->bye_rule_relaxed)
            sb_addf(sb,
                    ". bye: %s although they already had one: no "
                    "player without a bye could take it%s",
                    who(c, out->bye, wa, sizeof wa),
                    out->n_rematches ? "" : " without forcing a rematch");
        else if (bye_brank == 0)
            sb_addf(sb,
                    ". bye: %s, first in the bye order (bye rank "
                    "%d)",
                    who(c, out->bye, wa, sizeof wa), (int)r);
        else
            sb_addf(sb,
                    ". bye: %s (bye rank %d): the %d player%s "
                    "before them in the bye order could not take it "
                    "without a rematch",
                    who(c, out->bye, wa, sizeof wa), (int)r, (int)bye_brank,
                    bye_brank == 1 ? "" : "s");
    }
    if (out->n_rematches == 0) {
        sb_addf(sb, ". no rematches");
    } else {
        sb_addf(sb,
                ". no rematch-free pairing exists (the players below have "
                "already met everyone else left in reach): %d rematch%s:",
                (int)out->n_rematches, out->n_rematches == 1 ? "" : "es");
        int32_t shown = 0;
        for (int32_t i = 0; i < out->n_pairs && shown < 10; i++)
            if (is_met(c, out->pairs[i][0], out->pairs[i][1])) {
                sb_addf(sb, "%s %s and %s", shown ? "," : "",
                        who(c, out->pairs[i][0], wa, sizeof wa),
                        who(c, out->pairs[i][1], wb, sizeof wb));
                shown++;
            }
        if (out->n_rematches > shown)
            sb_addf(sb, " ...");
    }
    if (out->n_pair_downs == 0) {
        sb_addf(sb, ". no pair-downs");
    } else {
        sb_addf(sb, ". %d pair-down%s (%s):", (int)out->n_pair_downs,
                out->n_pair_downs == 1 ? "" : "s",
                req->cost == TNY_SWISS_COST_POINTS
                    ? "pairing cost \"points\": the smallest sum of squared "
                      "points differences"
                    : "odd score groups send one player to the nearest "
                      "group they can play");
        int32_t shown = 0;
        for (int32_t i = 0; i < out->n_pairs && shown < 10; i++) {
            int32_t a = out->pairs[i][0], b = out->pairs[i][1];
            if (c->grp[a] == c->grp[b])
                continue;
            sb_addf(sb, "%s %s (group %d) v %s (group %d)", shown ? "," : "",
                    who(c, a, wa, sizeof wa), (int)c->grp[a] + 1,
                    who(c, b, wb, sizeof wb), (int)c->grp[b] + 1);
            shown++;
        }
        if (out->n_pair_downs > shown)
            sb_addf(sb, " ...");
    }
    if (c->sided) {
        sb_addf(sb,
                ". sides: %d pair%s cannot keep both players' sides "
                "balanced",
                (int)out->n_side_conflicts,
                out->n_side_conflicts == 1 ? "" : "s");
        int32_t shown = 0;
        for (int32_t i = 0; i < out->n_pairs && shown < 10; i++)
            if (out->pair_side[i] >= 0) {
                sb_addf(sb, "%s %s and %s meet again with sides swapped",
                        shown ? "," : ";",
                        who(c, out->pairs[i][0], wa, sizeof wa),
                        who(c, out->pairs[i][1], wb, sizeof wb));
                shown++;
            }
        if (out->n_again > shown)
            sb_addf(sb, " ...");
    }
    sb_addf(sb, "\n");
}

static void ctx_release(struct ctx *c)
{
    free(c->grp), free(c->gstart), free(c->line), free(c->pos);
    free(c->met_start), free(c->met_adj), free(c->brank);
    free(c->sval), free(c->ag_start), free(c->ag_adj), free(c->ag_side);
    free(c->vid), free(c->pid), free(c->pend);
}

/* Case A: the matching on K*, which holds every optimal pairing. */
static int solve_case_a(struct ctx *c, struct tny_matching *m,
                        struct tny_diag *diag)
{
    c->sink = m;
    c->diag = diag;
    int rc = c->sided ? scan_all(c) : scan_kstar(c);
    if (!rc)
        rc = flush(c, m, diag);
    if (!rc)
        rc = tny_matching_solve(m, diag);
    if (rc == TNY_ENOMATCH) /* K* always holds the optimum: a bug */
        rc = tny_diag_set(diag, TNY_ENOMATCH,
                          "swiss: internal error: candidate set has no "
                          "perfect matching");
    return rc;
}

int tny_swiss_pair(const struct tny_swiss_request *req,
                   struct tny_swiss_pairing *out, struct tny_diag *diag)
{
    struct ctx c;
    struct tny_matching *m = NULL;
    struct strbuf sb = {0};
    memset(&c, 0, sizeof(c));
    if (!out)
        return tny_diag_set(diag, TNY_EINVAL, "swiss: NULL output");
    memset(out, 0, sizeof(*out));
    out->bye = -1;
    int rc = validate(req, diag);
    if (rc)
        return rc;
    int32_t n = req->n_players;
    c.req = req;
    c.n = n;
    c.bye = -1;
    c.bye_vertex = -1;
    c.grp = malloc((size_t)n * sizeof(int32_t));
    c.gstart = malloc(((size_t)n + 1) * sizeof(int32_t));
    c.line = malloc((size_t)n * sizeof(int32_t));
    c.pos = malloc((size_t)n * sizeof(int32_t));
    c.brank = malloc((size_t)n * sizeof(int32_t));
    c.vid = malloc((size_t)n * sizeof(int32_t));
    c.pid = malloc(((size_t)n + 1) * sizeof(int32_t));
    c.sval = malloc((size_t)n * sizeof(int64_t));
    c.sided = req->side != NULL || req->n_again > 0;
    out->pairs = malloc(((size_t)n / 2 + 1) * sizeof(*out->pairs));
    out->pair_side = c.sided ? malloc((size_t)n / 2 + 1) : NULL;
    if (!c.grp || !c.gstart || !c.line || !c.pos || !c.brank || !c.vid ||
        !c.pid || !c.sval || !out->pairs || (c.sided && !out->pair_side)) {
        rc = TNY_ENOMEM;
        goto out;
    }
    rc = build_line(&c);
    if (!rc) {
        build_sval(&c);
        rc = build_met(&c);
    }
    if (!rc && c.sided)
        rc = build_again(&c);
    if (!rc)
        rc = bye_order(&c);
    if (rc)
        goto out;
    c.case_a = (int64_t)n >= 2 * (int64_t)c.dmax + 2;
    if (!c.case_a && n > CASE_B_MAX_PLAYERS) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "swiss: %d players and one has met %d of them: "
                          "too dense for the pairing engine",
                          (int)n, (int)c.dmax);
        goto out;
    }
    if (c.case_a && (n & 1))
        for (int32_t i = 0; i < n; i++)
            if (c.brank[i] == 0)
                c.bye = i;
    /* vertices in line order: the matcher's greedy start then pairs line
     * neighbours 1v2, 3v4, which is most of the optimum */
    c.nv = 0;
    for (int32_t q = 0; q < n; q++) {
        int32_t i = c.line[q];
        c.vid[i] = i == c.bye ? -1 : c.nv;
        if (i != c.bye)
            c.pid[c.nv++] = i;
    }
    if (!c.case_a && (n & 1)) {
        c.bye_vertex = c.nv;
        c.pid[c.nv++] = -1;
    }
    rc = set_weights(&c, diag);
    if (rc)
        goto out;
    if (c.nv > 0) {
        rc = tny_matching_new(c.nv, &m, diag);
        if (rc)
            goto out;
        rc = c.case_a ? solve_case_a(&c, m, diag) : build_full(&c, m, diag);
        if (!rc && !c.case_a)
            rc = tny_matching_solve(m, diag);
        if (rc)
            goto out;
    }
    /* read the pairing */
    out->bye = c.bye;
    for (int32_t v = 0; v < c.nv; v++) {
        int32_t w = tny_matching_mate(m, v);
        int32_t a = c.pid[v], b = c.pid[w];
        if (a < 0 || b < 0) {
            if (a >= 0)
                out->bye = a;
            continue;
        }
        if (a > b)
            continue;
        out->pairs[out->n_pairs][0] = a;
        out->pairs[out->n_pairs][1] = b;
        out->n_pairs++;
        out->n_rematches += is_met(&c, a, b);
        out->n_pair_downs += c.grp[a] != c.grp[b];
    }
    qsort(out->pairs, (size_t)out->n_pairs, sizeof(*out->pairs), cmp_pair);
    for (int32_t i = 0; c.sided && i < out->n_pairs; i++) {
        int32_t a = out->pairs[i][0], b = out->pairs[i][1];
        out->pair_side[i] = (int8_t)again_side(&c, a, b);
        out->n_again += out->pair_side[i] >= 0;
        out->n_side_conflicts += side_conflict(&c, a, b);
    }
    if (out->bye >= 0)
        out->bye_rule_relaxed = req->players[out->bye].bye_rank < 0;
    out->n_candidate_edges = m ? tny_matching_n_edges(m) : 0;
    if (m && req->keep_graph) {
        int64_t ne = tny_matching_n_edges(m);
        out->graph_n_vertices = c.nv;
        out->graph_player = malloc((size_t)c.nv * sizeof(int32_t));
        out->graph_edges = malloc((size_t)(ne + 1) * sizeof(*out->graph_edges));
        if (!out->graph_player || !out->graph_edges) {
            rc = TNY_ENOMEM;
            goto out;
        }
        memcpy(out->graph_player, c.pid, (size_t)c.nv * sizeof(int32_t));
        for (int64_t i = 0; i < ne; i++)
            out->graph_edges[i] = tny_matching_edge(m, i);
        rc = tny_matching_total_cost(m, &out->graph_cost);
        if (rc)
            goto out;
    }
    explain(&c, out, out->bye >= 0 ? c.brank[out->bye] : 0, &sb);
    if (sb.failed) {
        rc = TNY_ENOMEM;
        goto out;
    }
    out->explain = sb.s;
    sb.s = NULL;
out:
    if (rc == TNY_ENOMEM)
        tny_diag_set(diag, rc, "swiss: out of memory");
    if (rc)
        tny_swiss_pairing_release(out);
    free(sb.s);
    tny_matching_free(m);
    ctx_release(&c);
    return rc;
}

void tny_swiss_pairing_release(struct tny_swiss_pairing *p)
{
    if (!p)
        return;
    free(p->pairs);
    free(p->pair_side);
    free(p->explain);
    free(p->graph_player);
    free(p->graph_edges);
    memset(p, 0, sizeof(*p));
    p->bye = -1;
}
