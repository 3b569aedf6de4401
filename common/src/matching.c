/* matching.c - minimum-cost perfect matching (Edmonds, primal-dual); see
 * tny/matching.h.
 *
 * Dual convention (Kolmogorov's Blossom V): every node i (vertex or blossom)
 * has a dual y_i, blossom duals are >= 0, and the reduced cost of edge uv is
 * cost - sum of y over the nodes that contain exactly one of u and v.  We keep
 * for each vertex eff(v) = y_v + sum of y_B over blossoms B around v; then an
 * edge between two different top-level nodes has slack C - eff(u) - eff(v).
 * All arithmetic is on doubled costs C = 2*cost: with integer costs every
 * value stays an integer, and all vertices joined by tight edges have eff of
 * the same parity, so the slack of an edge between two "+" nodes of one tree
 * is even and the dual step slack/2 is exact.
 *
 * One alternating tree at a time: only the tree's nodes change duals, by
 * +delta ("+" nodes, y and eff of their vertices grow) or -delta ("-"
 * nodes).  Changes are lazy: a tree node stores the tree clock D at which it
 * was labelled and its true value is stored + label * (D - tjoin); values are
 * written back ("materialised") when the node's label or structure changes
 * and when the tree ends.  Events (an edge becoming tight, a "-" blossom's
 * dual reaching zero) sit in a binary heap keyed by the clock time at which
 * they happen; stale events are recognised on pop and dropped.
 *
 * Two things keep a blossom formation proportional to what it absorbs, not
 * to the blossom's size (a tree sweeping a large score group forms nested
 * blossoms over and over): the new blossom inherits the time base (tjoin) of
 * its largest "+" child, whose vertices then need no rewrite; and inb[v] is
 * only a hint (v or some blossom around v) resolved by top_of() through the
 * parent links with path compression, so vertices are not relabelled at
 * formation; an expansion resets inb of the vertices it releases.
 *
 * Not here: a multi-tree variant, fractional costs.
 */
#include "tny/matching.h"

#include <stdlib.h>
#include <string.h>

#define DUAL_LIMIT ((int64_t)1 << 60)
#define TIME_LIMIT ((int64_t)1 << 60)

enum { EV_EDGE = 0, EV_EXPAND = 1 };

struct event {
    int64_t time;
    int32_t kind;
    int32_t id;
    uint32_t stamp;
};

struct blossom {
    int32_t k;   /* number of children (odd, >= 3) */
    int32_t *ch; /* children in cycle order, ch[0] holds the base */
    int32_t *ex; /* ex[i]: endpoint in ch[i] of the link to ch[i+1] */
    int32_t *ey; /* ey[i]: endpoint in ch[i+1] */
    int32_t *ce; /* ce[i]: edge index of that link */
};

struct tny_matching {
    int32_t n;
    int64_t m, cap;
    int32_t *eu, *ev;
    int64_t *cost; /* as given (|cost| <= 2^58, so doubling is exact) */
    int64_t *adj_start;
    int32_t *adj; /* edge indices, grouped by vertex */
    int64_t adj_built_for;

    /* nodes 0..n-1 are vertices, n..2n-1 blossoms */
    int32_t *parent, *inb, *base, *label, *size;
    int32_t *lab_s, *lab_t, *lab_e;
    uint32_t *stamp;
    int64_t *eff;       /* per vertex */
    int64_t *z;         /* per node */
    int64_t *tjoin;     /* per node */
    struct blossom *bl; /* index node - n */
    int32_t *free_ids;
    int32_t n_free;
    int32_t *medge; /* matched edge per vertex or -1 */

    /* scratch */
    int32_t *tree;
    int64_t n_tree, cap_tree;
    struct event *heap;
    int64_t n_heap, cap_heap;
    int32_t *leaves, *stk;
    uint32_t *mark;
    uint32_t mark_stamp;
    int32_t *path_a, *path_b, *tmp;
    int64_t D;
    bool solved;
};

/* Edge e's cost doubled (the duals are kept doubled, so they stay
 * integers); computed, not stored: 8 bytes an edge less to touch. */
static inline int64_t c2(const struct tny_matching *m, int64_t e)
{
    return 2 * m->cost[e];
}

/* ---------------------------------------------------------------- helpers */

static int32_t other(const struct tny_matching *m, int32_t e, int32_t v)
{
    return m->eu[e] == v ? m->ev[e] : m->eu[e];
}

/* Vertices of node b into m->leaves; returns their number. */
static int32_t collect_leaves(struct tny_matching *m, int32_t b)
{
    int32_t n_out = 0, top = 0;
    m->stk[top++] = b;
    while (top > 0) {
        int32_t x = m->stk[--top];
        if (x < m->n) {
            m->leaves[n_out++] = x;
            continue;
        }
        const struct blossom *B = &m->bl[x - m->n];
        for (int32_t i = 0; i < B->k; i++)
            m->stk[top++] = B->ch[i];
    }
    return n_out;
}

/* Top-level node containing vertex v.  inb[v] is always v or a blossom
 * around v; walk up and compress.  Blossom formation thus costs nothing
 * for the vertices inside; an expansion resets inb of its vertices. */
static int32_t top_of(struct tny_matching *m, int32_t v)
{
    int32_t x = m->inb[v];
    while (m->parent[x] != -1)
        x = m->parent[x];
    m->inb[v] = x;
    return x;
}

static int64_t eff_at(struct tny_matching *m, int32_t v, int64_t t)
{
    int32_t top = top_of(m, v);
    return m->eff[v] + (int64_t)m->label[top] * (t - m->tjoin[top]);
}

/* Writes node b's lazy dual change back (b must be top-level). */
static int materialise(struct tny_matching *m, int32_t b)
{
    int64_t d = (int64_t)m->label[b] * (m->D - m->tjoin[b]);
    if (d == 0)
        return 0;
    if (b >= m->n)
        m->z[b] += d;
    int32_t k = collect_leaves(m, b);
    for (int32_t i = 0; i < k; i++) {
        int32_t v = m->leaves[i];
        m->eff[v] += d;
        if (m->eff[v] > DUAL_LIMIT || m->eff[v] < -DUAL_LIMIT)
            return TNY_ERANGE;
    }
    m->tjoin[b] = m->D;
    return 0;
}

static int heap_push(struct tny_matching *m, int64_t time, int32_t kind,
                     int32_t id, uint32_t stamp)
{
    if (m->n_heap == m->cap_heap) {
        int64_t cap = m->cap_heap ? 2 * m->cap_heap : 64;
        struct event *h = realloc(m->heap, (size_t)cap * sizeof(*h));
        if (!h)
            return TNY_ENOMEM;
        m->heap = h;
        m->cap_heap = cap;
    }
    struct event e = {time, kind, id, stamp};
    int64_t i = m->n_heap++;
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (m->heap[p].time <= time)
            break;
        m->heap[i] = m->heap[p];
        i = p;
    }
    m->heap[i] = e;
    return 0;
}

static struct event heap_pop(struct tny_matching *m)
{
    struct event top = m->heap[0];
    struct event last = m->heap[--m->n_heap];
    int64_t i = 0, n = m->n_heap;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && m->heap[c + 1].time < m->heap[c].time)
            c++;
        if (m->heap[c].time >= last.time)
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n > 0)
        m->heap[i] = last;
    return top;
}

static int tree_add(struct tny_matching *m, int32_t b)
{
    if (m->n_tree == m->cap_tree) {
        int64_t cap = m->cap_tree ? 2 * m->cap_tree : 64;
        int32_t *t = realloc(m->tree, (size_t)cap * sizeof(*t));
        if (!t)
            return TNY_ENOMEM;
        m->tree = t;
        m->cap_tree = cap;
    }
    m->tree[m->n_tree++] = b;
    return 0;
}

/* Pushes the events of the edges leaving the vertices of node c, whose
 * top-level node is a "+" node of the tree. */
static int scan_plus(struct tny_matching *m, int32_t c)
{
    int32_t k = collect_leaves(m, c);
    for (int32_t i = 0; i < k; i++) {
        int32_t x = m->leaves[i];
        int32_t X = top_of(m, x);
        int64_t ex = eff_at(m, x, m->D);
        for (int64_t a = m->adj_start[x]; a < m->adj_start[x + 1]; a++) {
            int32_t e = m->adj[a];
            int32_t y = other(m, e, x);
            int32_t Y = top_of(m, y);
            if (Y == X || m->label[Y] < 0)
                continue;
            int64_t s = c2(m, e) - ex - eff_at(m, y, m->D);
            int rc;
            if (m->label[Y] > 0)
                rc = heap_push(m, m->D + s / 2, EV_EDGE, e, 0);
            else
                rc = heap_push(m, m->D + s, EV_EDGE, e, 0);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Pushes the events of edges from "+" nodes into the vertices of node c,
 * which has just become an outside node (blossom expansion). */
static int scan_into(struct tny_matching *m, int32_t c)
{
    int32_t k = collect_leaves(m, c);
    for (int32_t i = 0; i < k; i++) {
        int32_t x = m->leaves[i];
        for (int64_t a = m->adj_start[x]; a < m->adj_start[x + 1]; a++) {
            int32_t e = m->adj[a];
            int32_t y = other(m, e, x);
            if (m->label[top_of(m, y)] <= 0)
                continue;
            int64_t s = c2(m, e) - m->eff[x] - eff_at(m, y, m->D);
            int rc = heap_push(m, m->D + s, EV_EDGE, e, 0);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static void set_top(struct tny_matching *m, int32_t b, int32_t top)
{
    int32_t k = collect_leaves(m, b);
    for (int32_t i = 0; i < k; i++)
        m->inb[m->leaves[i]] = top;
}

static int label_minus(struct tny_matching *m, int32_t c, int32_t s, int32_t t,
                       int32_t e)
{
    m->label[c] = -1;
    m->tjoin[c] = m->D;
    m->lab_s[c] = s;
    m->lab_t[c] = t;
    m->lab_e[c] = e;
    m->stamp[c]++;
    int rc = tree_add(m, c);
    if (!rc && c >= m->n)
        rc = heap_push(m, m->D + m->z[c], EV_EXPAND, c, m->stamp[c]);
    return rc;
}

static int label_plus(struct tny_matching *m, int32_t c, int32_t t)
{
    m->label[c] = 1;
    m->tjoin[c] = m->D;
    m->lab_t[c] = t;
    m->stamp[c]++;
    return tree_add(m, c);
}

/* ------------------------------------------------------------- blossoms */

static int32_t plus_parent(struct tny_matching *m, int32_t X)
{
    if (m->lab_t[X] < 0)
        return -1;
    int32_t T = top_of(m, m->lab_t[X]);
    return top_of(m, m->lab_s[T]);
}

static int form_blossom(struct tny_matching *m, int32_t e, int32_t u, int32_t v)
{
    int32_t U = top_of(m, u), V = top_of(m, v);
    int32_t lca = -1;
    if (++m->mark_stamp == 0) {
        memset(m->mark, 0, 2 * (size_t)m->n * sizeof(*m->mark));
        m->mark_stamp = 1;
    }
    for (int32_t a = U, b = V; lca < 0;) {
        if (a >= 0) {
            if (m->mark[a] == m->mark_stamp) {
                lca = a;
                break;
            }
            m->mark[a] = m->mark_stamp;
            a = plus_parent(m, a);
        }
        if (b >= 0) {
            if (m->mark[b] == m->mark_stamp) {
                lca = b;
                break;
            }
            m->mark[b] = m->mark_stamp;
            b = plus_parent(m, b);
        }
    }
    /* paths U..lca and V..lca, alternating + and - nodes */
    int32_t la = 0, lb = 0;
    for (int32_t x = U;;) {
        m->path_a[la++] = x;
        if (x == lca)
            break;
        int32_t T = top_of(m, m->lab_t[x]);
        m->path_a[la++] = T;
        x = top_of(m, m->lab_s[T]);
    }
    for (int32_t x = V;;) {
        m->path_b[lb++] = x;
        if (x == lca)
            break;
        int32_t T = top_of(m, m->lab_t[x]);
        m->path_b[lb++] = T;
        x = top_of(m, m->lab_s[T]);
    }
    int32_t k = la + lb - 1;
    int32_t id = m->free_ids[--m->n_free];
    struct blossom *B = &m->bl[id - m->n];
    B->k = k;
    B->ch = malloc((size_t)k * sizeof(int32_t));
    B->ex = malloc((size_t)k * sizeof(int32_t));
    B->ey = malloc((size_t)k * sizeof(int32_t));
    B->ce = malloc((size_t)k * sizeof(int32_t));
    if (!B->ch || !B->ex || !B->ey || !B->ce) {
        free(B->ch), free(B->ex), free(B->ey), free(B->ce);
        B->ch = B->ex = B->ey = B->ce = NULL;
        m->n_free++;
        return TNY_ENOMEM;
    }
    for (int32_t i = 0; i < la; i++)
        B->ch[i] = m->path_a[la - 1 - i];
    for (int32_t i = 0; i < lb - 1; i++)
        B->ch[la + i] = m->path_b[i];
    for (int32_t i = 0; i < k; i++) {
        if (i < la - 1) { /* ch[i] is the tree parent of ch[i+1] */
            int32_t c = B->ch[i + 1];
            if (m->label[c] < 0) {
                B->ex[i] = m->lab_s[c], B->ey[i] = m->lab_t[c];
                B->ce[i] = m->lab_e[c];
            } else {
                B->ex[i] = m->lab_t[c], B->ey[i] = m->base[c];
                B->ce[i] = m->medge[m->base[c]];
            }
        } else if (i == la - 1) {
            B->ex[i] = u, B->ey[i] = v, B->ce[i] = e;
        } else { /* ch[i] is a tree child of ch[i+1] */
            int32_t c = B->ch[i];
            if (m->label[c] < 0) {
                B->ex[i] = m->lab_t[c], B->ey[i] = m->lab_s[c];
                B->ce[i] = m->lab_e[c];
            } else {
                B->ex[i] = m->base[c], B->ey[i] = m->lab_t[c];
                B->ce[i] = m->medge[m->base[c]];
            }
        }
    }
    /* The largest "+" child keeps its time base: the new blossom inherits
     * its tjoin, so only the other children's vertices are rewritten and a
     * blossom growing through a big tree costs only what it absorbs. */
    int32_t big = -1;
    int64_t total = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = B->ch[i];
        total += m->size[c];
        if (m->label[c] > 0 && (big < 0 || m->size[c] > m->size[big]))
            big = c;
    }
    int64_t base_shift = m->D - m->tjoin[big];
    if (big >= m->n)
        m->z[big] += base_shift;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = B->ch[i];
        if (c == big)
            continue;
        int64_t d = (int64_t)m->label[c] * (m->D - m->tjoin[c]);
        if (c >= m->n)
            m->z[c] += d;
        int32_t nl = collect_leaves(m, c);
        for (int32_t j = 0; j < nl; j++)
            m->eff[m->leaves[j]] += d - base_shift;
    }
    int rc = 0;
    m->parent[id] = -1;
    m->base[id] = m->base[lca];
    m->z[id] = -base_shift; /* true value 0 now */
    m->size[id] = (int32_t)total;
    m->lab_t[id] = m->lab_t[lca];
    for (int32_t i = 0; i < k; i++)
        m->parent[B->ch[i]] = id;
    m->label[id] = 1;
    m->tjoin[id] = m->tjoin[big];
    m->stamp[id]++;
    rc = tree_add(m, id);
    for (int32_t i = 0; i < k && !rc; i++) {
        int32_t c = B->ch[i];
        int was_minus = m->label[c] < 0;
        m->label[c] = 0;
        m->stamp[c]++;
        if (was_minus)
            rc = scan_plus(m, c);
    }
    return rc;
}

static int32_t wrap(int32_t j, int32_t k)
{
    return ((j % k) + k) % k;
}

static void rotate(int32_t *a, int32_t *tmp, int32_t k, int32_t i)
{
    memcpy(tmp, a + i, (size_t)(k - i) * sizeof(*a));
    memcpy(tmp + (k - i), a, (size_t)i * sizeof(*a));
    memcpy(a, tmp, (size_t)k * sizeof(*a));
}

/* Rematches the inside of blossom b so that vertex v becomes its base. */
static void augment_blossom(struct tny_matching *m, int32_t b, int32_t v)
{
    struct blossom *B = &m->bl[b - m->n];
    int32_t t = v;
    while (m->parent[t] != b)
        t = m->parent[t];
    if (t >= m->n)
        augment_blossom(m, t, v);
    int32_t k = B->k, i = 0;
    while (B->ch[i] != t)
        i++;
    int32_t j = i, step;
    if (i & 1) {
        j = i - k;
        step = 1;
    } else {
        step = -1;
    }
    while (j != 0) {
        int32_t x, y, e;
        j += step;
        if (step == 1) {
            x = B->ex[wrap(j, k)], y = B->ey[wrap(j, k)], e = B->ce[wrap(j, k)];
        } else {
            x = B->ey[wrap(j - 1, k)], y = B->ex[wrap(j - 1, k)];
            e = B->ce[wrap(j - 1, k)];
        }
        t = B->ch[wrap(j, k)];
        if (t >= m->n)
            augment_blossom(m, t, x);
        j += step;
        t = B->ch[wrap(j, k)];
        if (t >= m->n)
            augment_blossom(m, t, y);
        m->medge[x] = m->medge[y] = e;
    }
    rotate(B->ch, m->tmp, k, i);
    rotate(B->ex, m->tmp, k, i);
    rotate(B->ey, m->tmp, k, i);
    rotate(B->ce, m->tmp, k, i);
    m->base[b] = v;
}

static int expand(struct tny_matching *m, int32_t b)
{
    int rc = materialise(m, b);
    if (rc)
        return rc;
    struct blossom *B = &m->bl[b - m->n];
    int32_t k = B->k;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = B->ch[i];
        m->parent[c] = -1;
        m->label[c] = 0;
        set_top(m, c, c);
    }
    int32_t entry = top_of(m, m->lab_t[b]);
    int32_t j = 0;
    while (B->ch[j] != entry)
        j++;
    int32_t step = (j & 1) ? 1 : -1;
    int32_t s = m->lab_s[b], t = m->lab_t[b], e = m->lab_e[b];
    int32_t cur = j;
    rc = label_minus(m, entry, s, t, e);
    while (!rc && cur != 0) {
        int32_t nx = wrap(cur + step, k), nx2 = wrap(cur + 2 * step, k);
        int32_t in_cur, in_nx, in_nx2, e2;
        if (step == 1) {
            in_cur = B->ex[cur];
            in_nx = B->ex[nx], in_nx2 = B->ey[nx], e2 = B->ce[nx];
        } else {
            in_cur = B->ey[nx];
            in_nx = B->ey[nx2], in_nx2 = B->ex[nx2], e2 = B->ce[nx2];
        }
        rc = label_plus(m, B->ch[nx], in_cur);
        if (!rc)
            rc = label_minus(m, B->ch[nx2], in_nx, in_nx2, e2);
        cur = nx2;
    }
    for (int32_t i = 0; i < k && !rc; i++) {
        int32_t c = B->ch[i];
        if (m->label[c] > 0)
            rc = scan_plus(m, c);
        else if (m->label[c] == 0)
            rc = scan_into(m, c);
    }
    free(B->ch), free(B->ex), free(B->ey), free(B->ce);
    B->ch = B->ex = B->ey = B->ce = NULL;
    m->label[b] = 0;
    m->stamp[b]++;
    m->free_ids[m->n_free++] = b;
    return rc;
}

/* Augments along the tree path from "+" vertex u plus edge e to free v. */
static void augment(struct tny_matching *m, int32_t e, int32_t u, int32_t v)
{
    m->medge[v] = e;
    int32_t s = u, me = e;
    for (;;) {
        int32_t X = top_of(m, s);
        if (X >= m->n)
            augment_blossom(m, X, s);
        m->medge[s] = me;
        if (m->lab_t[X] < 0)
            break;
        int32_t Y = top_of(m, m->lab_t[X]);
        int32_t s2 = m->lab_s[Y], j = m->lab_t[Y], e2 = m->lab_e[Y];
        if (Y >= m->n)
            augment_blossom(m, Y, j);
        m->medge[j] = e2;
        s = s2;
        me = e2;
    }
}

static int finish_tree(struct tny_matching *m)
{
    int rc = 0;
    for (int64_t i = 0; i < m->n_tree && !rc; i++) {
        int32_t b = m->tree[i];
        if (m->label[b] == 0 || m->parent[b] != -1)
            continue;
        rc = materialise(m, b);
        m->label[b] = 0;
        m->stamp[b]++;
    }
    m->n_tree = 0;
    m->n_heap = 0;
    return rc;
}

/* Grows one tree from free vertex r until it augments. */
static int grow_tree(struct tny_matching *m, int32_t r, struct tny_diag *diag)
{
    m->D = 0;
    m->n_heap = 0;
    m->n_tree = 0;
    int rc = label_plus(m, r, -1);
    if (!rc)
        rc = scan_plus(m, r);
    while (!rc) {
        if (m->n_heap == 0) {
            rc =
                tny_diag_set(diag, TNY_ENOMATCH,
                             "no perfect matching: vertex %d cannot be matched "
                             "(Tutte obstruction found)",
                             (int)r);
            break;
        }
        struct event ev = heap_pop(m);
        if (ev.time > TIME_LIMIT) {
            rc = tny_diag_set(diag, TNY_ERANGE, "matching duals out of range");
            break;
        }
        if (ev.kind == EV_EXPAND) {
            int32_t b = ev.id;
            if (m->parent[b] != -1 || m->label[b] >= 0 ||
                m->stamp[b] != ev.stamp)
                continue;
            m->D = ev.time;
            rc = expand(m, b);
            continue;
        }
        int32_t e = ev.id, u = m->eu[e], v = m->ev[e];
        int32_t U = top_of(m, u), V = top_of(m, v);
        if (U == V)
            continue;
        if (m->label[U] <= 0) {
            int32_t t = u;
            u = v, v = t, t = U, U = V, V = t;
        }
        if (m->label[U] <= 0 || m->label[V] < 0)
            continue;
        if (c2(m, e) - eff_at(m, u, ev.time) - eff_at(m, v, ev.time) != 0)
            continue; /* stale */
        m->D = ev.time;
        if (m->label[V] > 0) {
            rc = form_blossom(m, e, u, v);
        } else if (V < m->n && m->medge[v] < 0) {
            augment(m, e, u, v);
            return finish_tree(m);
        } else {
            int32_t b = m->base[V];
            int32_t w = other(m, m->medge[b], b);
            rc = label_minus(m, V, u, v, e);
            if (!rc)
                rc = label_plus(m, top_of(m, w), b);
            if (!rc)
                rc = scan_plus(m, top_of(m, w));
        }
    }
    int rc2 = finish_tree(m);
    return rc ? rc : rc2;
}

/* ------------------------------------------------------------ public API */

static int check_edges(int32_t n, const struct tny_match_edge *edges,
                       int64_t n_edges, struct tny_diag *diag)
{
    if (n_edges < 0 || (n_edges > 0 && !edges))
        return tny_diag_set(diag, TNY_EINVAL, "matching: bad edge array");
    for (int64_t i = 0; i < n_edges; i++) {
        const struct tny_match_edge *e = &edges[i];
        if (e->u < 0 || e->u >= n || e->v < 0 || e->v >= n || e->u == e->v)
            return tny_diag_set(diag, TNY_EINVAL,
                                "matching: edges[%lld]: bad endpoints %d, %d",
                                (long long)i, (int)e->u, (int)e->v);
        if (e->cost > TNY_MATCH_COST_MAX || e->cost < -TNY_MATCH_COST_MAX)
            return tny_diag_set(diag, TNY_EINVAL,
                                "matching: edges[%lld]: |cost| above 2^58",
                                (long long)i);
    }
    return 0;
}

void tny_matching_free(struct tny_matching *m)
{
    if (!m)
        return;
    if (m->bl)
        for (int32_t i = 0; i < m->n; i++) {
            free(m->bl[i].ch), free(m->bl[i].ex);
            free(m->bl[i].ey), free(m->bl[i].ce);
        }
    free(m->eu), free(m->ev), free(m->cost);
    free(m->adj_start), free(m->adj);
    free(m->parent), free(m->inb), free(m->base), free(m->label);
    free(m->size);
    free(m->lab_s), free(m->lab_t), free(m->lab_e), free(m->stamp);
    free(m->eff), free(m->z), free(m->tjoin), free(m->bl), free(m->free_ids);
    free(m->medge), free(m->tree), free(m->heap), free(m->leaves);
    free(m->stk), free(m->mark), free(m->path_a), free(m->path_b);
    free(m->tmp);
    free(m);
}

int tny_matching_new(int32_t n, struct tny_matching **out,
                     struct tny_diag *diag)
{
    if (!out || n < 0 || n > INT32_MAX / 2 - 1)
        return tny_diag_set(diag, TNY_EINVAL, "matching: bad vertex count");
    *out = NULL;
    struct tny_matching *m = calloc(1, sizeof(*m));
    if (!m)
        return tny_diag_set(diag, TNY_ENOMEM, "matching: out of memory");
    size_t nn = 2 * (size_t)n + 1, n1 = (size_t)n + 1;
    m->n = n;
    m->adj_built_for = -1;
    m->parent = malloc(nn * sizeof(int32_t));
    m->inb = malloc(n1 * sizeof(int32_t));
    m->base = malloc(nn * sizeof(int32_t));
    m->label = calloc(nn, sizeof(int32_t));
    m->size = calloc(nn, sizeof(int32_t));
    m->lab_s = malloc(nn * sizeof(int32_t));
    m->lab_t = malloc(nn * sizeof(int32_t));
    m->lab_e = malloc(nn * sizeof(int32_t));
    m->stamp = calloc(nn, sizeof(uint32_t));
    m->eff = calloc(n1, sizeof(int64_t));
    m->z = calloc(nn, sizeof(int64_t));
    m->tjoin = calloc(nn, sizeof(int64_t));
    m->bl = calloc(n1, sizeof(struct blossom));
    m->free_ids = malloc(n1 * sizeof(int32_t));
    m->medge = malloc(n1 * sizeof(int32_t));
    m->leaves = malloc(n1 * sizeof(int32_t));
    m->stk = malloc(nn * sizeof(int32_t));
    m->mark = calloc(nn, sizeof(uint32_t));
    m->path_a = malloc(nn * sizeof(int32_t));
    m->path_b = malloc(nn * sizeof(int32_t));
    m->tmp = malloc(n1 * sizeof(int32_t));
    m->adj_start = calloc(n1, sizeof(int64_t));
    if (!m->parent || !m->inb || !m->base || !m->label || !m->size ||
        !m->lab_s || !m->lab_t || !m->lab_e || !m->stamp || !m->eff || !m->z ||
        !m->tjoin || !m->bl || !m->free_ids || !m->medge || !m->leaves ||
        !m->stk || !m->mark || !m->path_a || !m->path_b || !m->tmp ||
        !m->adj_start) {
        tny_matching_free(m);
        return tny_diag_set(diag, TNY_ENOMEM, "matching: out of memory");
    }
    for (int32_t v = 0; v < n; v++)
        m->medge[v] = -1;
    *out = m;
    return 0;
}

int tny_matching_add_edges(struct tny_matching *m,
                           const struct tny_match_edge *edges, int64_t n_edges,
                           struct tny_diag *diag)
{
    int rc = check_edges(m->n, edges, n_edges, diag);
    if (rc)
        return rc;
    if (n_edges > INT32_MAX - m->m)
        return tny_diag_set(diag, TNY_ERANGE, "matching: too many edges");
    if (m->m + n_edges > m->cap) {
        int64_t cap = m->cap ? m->cap : 256;
        while (cap < m->m + n_edges)
            cap *= 2;
        int32_t *eu = realloc(m->eu, (size_t)cap * sizeof(*eu));
        if (eu)
            m->eu = eu;
        int32_t *ev = realloc(m->ev, (size_t)cap * sizeof(*ev));
        if (ev)
            m->ev = ev;
        int64_t *c = realloc(m->cost, (size_t)cap * sizeof(*c));
        if (c)
            m->cost = c;
        if (!eu || !ev || !c)
            return tny_diag_set(diag, TNY_ENOMEM, "matching: out of memory");
        m->cap = cap;
    }
    for (int64_t i = 0; i < n_edges; i++) {
        m->eu[m->m] = edges[i].u;
        m->ev[m->m] = edges[i].v;
        m->cost[m->m] = edges[i].cost;
        m->m++;
    }
    return 0;
}

static int build_adj(struct tny_matching *m)
{
    if (m->adj_built_for == m->m)
        return 0;
    free(m->adj);
    m->adj = malloc((size_t)(2 * m->m + 1) * sizeof(int32_t));
    if (!m->adj)
        return TNY_ENOMEM;
    memset(m->adj_start, 0, ((size_t)m->n + 1) * sizeof(int64_t));
    for (int64_t e = 0; e < m->m; e++) {
        m->adj_start[m->eu[e] + 1]++;
        m->adj_start[m->ev[e] + 1]++;
    }
    for (int32_t v = 0; v < m->n; v++)
        m->adj_start[v + 1] += m->adj_start[v];
    /* fill using a moving cursor kept in tmp-free fashion: second pass */
    int64_t *pos = malloc(((size_t)m->n + 1) * sizeof(int64_t));
    if (!pos)
        return TNY_ENOMEM;
    memcpy(pos, m->adj_start, ((size_t)m->n + 1) * sizeof(int64_t));
    for (int64_t e = 0; e < m->m; e++) {
        m->adj[pos[m->eu[e]]++] = (int32_t)e;
        m->adj[pos[m->ev[e]]++] = (int32_t)e;
    }
    free(pos);
    m->adj_built_for = m->m;
    return 0;
}

/* Feasible duals and a greedy matching on tight edges.  From scratch: eff(v)
 * = min incident cost; warm: the previous duals, lowered where an edge is
 * violated.  Then each free vertex raises its dual to its smallest slack and
 * takes a tight edge to a free neighbour. */
static int jump_start(struct tny_matching *m, struct tny_diag *diag)
{
    int32_t n = m->n;
    for (int32_t i = 0; i < n; i++) { /* dissolve every blossom */
        free(m->bl[i].ch), free(m->bl[i].ex);
        free(m->bl[i].ey), free(m->bl[i].ce);
        memset(&m->bl[i], 0, sizeof(m->bl[i]));
        m->free_ids[i] = 2 * n - 1 - i;
    }
    m->n_free = n;
    for (int32_t i = 0; i < 2 * n; i++) {
        m->parent[i] = -1;
        m->base[i] = i < n ? i : -1;
        m->size[i] = i < n ? 1 : 0;
        m->label[i] = 0;
        m->z[i] = 0;
        m->tjoin[i] = 0;
    }
    for (int32_t v = 0; v < n; v++) {
        m->inb[v] = v;
        if (m->adj_start[v] == m->adj_start[v + 1])
            return tny_diag_set(diag, TNY_ENOMATCH,
                                "no perfect matching: vertex %d has no edge",
                                (int)v);
    }
    if (!m->solved) {
        for (int32_t v = 0; v < n; v++) {
            int64_t lo = INT64_MAX;
            for (int64_t a = m->adj_start[v]; a < m->adj_start[v + 1]; a++)
                if (m->cost[m->adj[a]] < lo)
                    lo = m->cost[m->adj[a]];
            m->eff[v] = lo;
            m->medge[v] = -1;
        }
    } else {
        for (int32_t v = 0; v < n; v++)
            for (int64_t a = m->adj_start[v]; a < m->adj_start[v + 1]; a++) {
                int32_t e = m->adj[a], u = other(m, e, v);
                if (c2(m, e) - m->eff[v] - m->eff[u] < 0)
                    m->eff[v] = c2(m, e) - m->eff[u];
            }
        for (int32_t v = 0; v < n; v++) {
            if (m->eff[v] > DUAL_LIMIT || m->eff[v] < -DUAL_LIMIT)
                return tny_diag_set(diag, TNY_ERANGE,
                                    "matching duals out of range");
            int32_t e = m->medge[v];
            if (e >= 0 && c2(m, e) - m->eff[v] - m->eff[other(m, e, v)] != 0) {
                m->medge[other(m, e, v)] = -1;
                m->medge[v] = -1;
            }
        }
    }
    for (int32_t v = 0; v < n; v++) {
        if (m->medge[v] >= 0)
            continue;
        int64_t lo = INT64_MAX;
        for (int64_t a = m->adj_start[v]; a < m->adj_start[v + 1]; a++) {
            int32_t e = m->adj[a];
            int64_t s = c2(m, e) - m->eff[v] - m->eff[other(m, e, v)];
            if (s < lo)
                lo = s;
        }
        m->eff[v] += lo;
        for (int64_t a = m->adj_start[v]; a < m->adj_start[v + 1]; a++) {
            int32_t e = m->adj[a], u = other(m, e, v);
            if (m->medge[u] < 0 && c2(m, e) - m->eff[v] - m->eff[u] == 0) {
                m->medge[u] = m->medge[v] = e;
                break;
            }
        }
    }
    return 0;
}

int tny_matching_solve(struct tny_matching *m, struct tny_diag *diag)
{
    int rc = build_adj(m);
    if (rc)
        return tny_diag_set(diag, rc, "matching: out of memory");
    if (m->n & 1) {
        m->solved = false;
        return tny_diag_set(diag, TNY_ENOMATCH,
                            "no perfect matching: odd number of vertices");
    }
    rc = jump_start(m, diag);
    for (int32_t r = 0; r < m->n && !rc; r++)
        if (m->medge[r] < 0)
            rc = grow_tree(m, r, diag);
    m->solved = rc == 0;
    if (rc == TNY_ENOMEM)
        tny_diag_set(diag, rc, "matching: out of memory");
    return rc;
}

int32_t tny_matching_mate(const struct tny_matching *m, int32_t v)
{
    int32_t e = m->medge[v];
    return e < 0 ? -1 : other(m, e, v);
}

int64_t tny_matching_mate_edge(const struct tny_matching *m, int32_t v)
{
    return m->medge[v];
}

int64_t tny_matching_dual2(const struct tny_matching *m, int32_t v)
{
    return m->eff[v];
}

int tny_matching_total_cost(const struct tny_matching *m, int64_t *total)
{
    int64_t sum = 0;
    for (int32_t v = 0; v < m->n; v++) {
        int32_t e = m->medge[v];
        if (e < 0 || m->eu[e] != v)
            continue;
        int64_t c = m->cost[e];
        if ((c > 0 && sum > INT64_MAX - c) || (c < 0 && sum < INT64_MIN - c))
            return TNY_ERANGE;
        sum += c;
    }
    *total = sum;
    return 0;
}

int64_t tny_matching_n_edges(const struct tny_matching *m)
{
    return m->m;
}

struct tny_match_edge tny_matching_edge(const struct tny_matching *m, int64_t i)
{
    struct tny_match_edge e = {m->eu[i], m->ev[i], m->cost[i]};
    return e;
}

int tny_matching_min_cost_perfect(int32_t n, const struct tny_match_edge *edges,
                                  int64_t n_edges, int32_t *mate,
                                  int64_t *total_cost, struct tny_diag *diag)
{
    struct tny_matching *m = NULL;
    if (!mate || !total_cost)
        return tny_diag_set(diag, TNY_EINVAL, "matching: NULL output");
    int rc = tny_matching_new(n, &m, diag);
    if (!rc)
        rc = tny_matching_add_edges(m, edges, n_edges, diag);
    if (!rc)
        rc = tny_matching_solve(m, diag);
    if (!rc)
        rc = tny_matching_total_cost(m, total_cost);
    if (rc == TNY_ERANGE)
        tny_diag_set(diag, rc, "matching: total cost does not fit 64 bits");
    if (!rc)
        for (int32_t v = 0; v < n; v++)
            mate[v] = tny_matching_mate(m, v);
    tny_matching_free(m);
    return rc;
}
