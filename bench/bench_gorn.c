/* bench_gorn.c - speed and quality of Gorn seating (CT-2), not a test.
 *
 * Simulates Catan events with a fixed seed: every round is seated by
 * tny_gorn_seat(), each table gets random victory points (one winner at 10,
 * the others 2..9, ties possible) and placement points 4/3/2/1 with shared
 * ties (CT-3, kept in half points).  Then it times the next round's seating
 * and compares it with plain sort-and-cut (1-4, 5-8, ... by standings, CT-1
 * threes last) on the same history: repeated triples and pairs (recounted
 * here, not taken from the engine), mean and max points spread per table.
 * Prints one table; exits non-zero only on an engine error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tny/gorn.h"
#include "tny/rng.h"

struct sim {
    int32_t n;
    int64_t *points; /* half points, by player id */
    int64_t *vp;     /* total game points, by player id */
    int32_t *hist;   /* rows of 4 player ids */
    int32_t n_hist, cap_hist;
    struct tny_rng rng;
};

struct quality {
    long triples, pairs;
    double spread_mean;
    long spread_max;
};

static struct sim *sim_ids; /* qsort has no context argument */

static int by_standings(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    const struct sim *s = sim_ids;
    if (s->points[x] != s->points[y])
        return s->points[x] > s->points[y] ? -1 : 1;
    if (s->vp[x] != s->vp[y])
        return s->vp[x] > s->vp[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Standings order and the request history in standings indices. */
static void prepare(struct sim *s, int32_t *ord, int32_t *inv, int64_t *pts,
                    int32_t *hist)
{
    for (int32_t i = 0; i < s->n; i++)
        ord[i] = i;
    sim_ids = s;
    qsort(ord, (size_t)s->n, sizeof(*ord), by_standings);
    for (int32_t q = 0; q < s->n; q++) {
        inv[ord[q]] = q;
        pts[q] = s->points[ord[q]];
    }
    for (int32_t r = 0; r < 4 * s->n_hist; r++)
        hist[r] = s->hist[r] < 0 ? -1 : inv[s->hist[r]];
}

/* Play one table: VP, CT-3 placement points (half points), history row. */
static void play(struct sim *s, const int32_t *ids, int32_t size)
{
    int64_t v[4];
    int32_t w = (int32_t)tny_rng_below(&s->rng, (uint64_t)size);
    for (int32_t i = 0; i < size; i++)
        v[i] = i == w ? 10 : 2 + (int64_t)tny_rng_below(&s->rng, 8);
    for (int32_t i = 0; i < size; i++) {
        int32_t better = 0, tied = 0;
        for (int32_t j = 0; j < size; j++) {
            better += v[j] > v[i];
            tied += v[j] == v[i];
        }
        /* places better+1 .. better+tied share 4,3,2,1 points: in half
         * points 2 * (4 - place + 1), averaged */
        int64_t sum = 0;
        for (int32_t p = better + 1; p <= better + tied; p++)
            sum += 2 * (5 - p);
        s->points[ids[i]] += sum / tied;
        s->vp[ids[i]] += v[i];
    }
    if (s->n_hist == s->cap_hist) {
        s->cap_hist = s->cap_hist ? 2 * s->cap_hist : 256;
        s->hist = realloc(s->hist, (size_t)s->cap_hist * 4 * sizeof(int32_t));
        if (!s->hist)
            abort();
    }
    for (int32_t i = 0; i < 4; i++)
        s->hist[4 * s->n_hist + i] = i < size ? ids[i] : -1;
    s->n_hist++;
}

/* Repeats of a seating given in request indices, counted from scratch. */
static struct quality measure(int32_t n, const int64_t *pts,
                              const int32_t *hist, int32_t n_hist,
                              const int32_t (*tables)[4], const int32_t *sizes,
                              int32_t nt)
{
    struct quality q = {0, 0, 0.0, 0};
    int32_t *start = calloc((size_t)n + 1, sizeof(*start));
    int32_t *rows = malloc(((size_t)4 * n_hist + 1) * sizeof(*rows));
    int32_t *fill = malloc((size_t)n * sizeof(*fill));
    if (!start || !rows || !fill)
        abort();
    for (int32_t k = 0; k < 4 * n_hist; k++)
        if (hist[k] >= 0)
            start[hist[k] + 1]++;
    for (int32_t p = 0; p < n; p++) {
        start[p + 1] += start[p];
        fill[p] = start[p];
    }
    for (int32_t k = 0; k < 4 * n_hist; k++)
        if (hist[k] >= 0)
            rows[fill[hist[k]]++] = k / 4;
    long spread_sum = 0;
    for (int32_t t = 0; t < nt; t++) {
        const int32_t *m = tables[t];
        int32_t sz = sizes[t];
        int64_t lo = pts[m[0]], hi = pts[m[0]];
        for (int32_t i = 0; i < sz; i++) {
            lo = pts[m[i]] < lo ? pts[m[i]] : lo;
            hi = pts[m[i]] > hi ? pts[m[i]] : hi;
            for (int32_t j = i + 1; j < sz; j++)
                for (int32_t k = start[m[i]]; k < start[m[i] + 1]; k++) {
                    const int32_t *r = hist + 4 * rows[k];
                    for (int c = 0; c < 4; c++)
                        q.pairs += r[c] == m[j];
                }
            for (int32_t j = i + 1; j < sz; j++)
                for (int32_t l = j + 1; l < sz; l++) {
                    int met = 0;
                    for (int32_t k = start[m[i]]; k < start[m[i] + 1]; k++) {
                        const int32_t *r = hist + 4 * rows[k];
                        int hj = 0, hl = 0;
                        for (int c = 0; c < 4; c++) {
                            hj |= r[c] == m[j];
                            hl |= r[c] == m[l];
                        }
                        met |= hj && hl;
                    }
                    q.triples += met;
                }
        }
        spread_sum += (long)(hi - lo);
        if (hi - lo > q.spread_max)
            q.spread_max = (long)(hi - lo);
    }
    q.spread_mean = (double)spread_sum / nt;
    free(start);
    free(rows);
    free(fill);
    return q;
}

struct round_out {
    struct quality ours, cut;
    double ms_min, ms_median;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seat one round of s (timed `reps` times when measuring), play it. */
static int round_seat(struct sim *s, uint32_t round, uint64_t seed, int reps,
                      struct round_out *ro)
{
    int32_t n = s->n;
    int32_t *ord = malloc((size_t)n * sizeof(*ord));
    int32_t *inv = malloc((size_t)n * sizeof(*inv));
    int64_t *pts = malloc((size_t)n * sizeof(*pts));
    int32_t *hist = malloc(((size_t)4 * s->n_hist + 4) * sizeof(*hist));
    if (!ord || !inv || !pts || !hist)
        abort();
    prepare(s, ord, inv, pts, hist);
    struct tny_gorn_request req = {.n_players = n,
                                   .points = pts,
                                   .history = hist,
                                   .n_history = s->n_hist,
                                   .seed = seed,
                                   .round = round,
                                   .by_lot = round == 1,
                                   .pair_window = 0};
    struct tny_gorn_seating seat = {0};
    struct tny_diag diag = {{0}};
    double times[16];
    if (reps > 16)
        reps = 16;
    int rc = 0;
    for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
        tny_gorn_seating_release(&seat);
        double t0 = now_ms();
        rc = tny_gorn_seat(&req, &seat, &diag);
        times[r] = now_ms() - t0;
        if (rc != 0) {
            fprintf(stderr, "bench_gorn: %s: %s\n", tny_strerror(rc), diag.msg);
            goto out;
        }
    }
    if (ro) {
        qsort(times, (size_t)reps, sizeof(*times), cmp_double);
        ro->ms_min = times[0];
        ro->ms_median = times[reps / 2];
        ro->ours =
            measure(n, pts, hist, s->n_hist, (const int32_t(*)[4])seat.tables,
                    seat.sizes, seat.n_tables);
        int32_t nt = tny_gorn_table_sizes(n, NULL);
        int32_t(*cut)[4] = malloc((size_t)nt * sizeof(*cut));
        int32_t *sizes = malloc((size_t)nt * sizeof(*sizes));
        if (!cut || !sizes)
            abort();
        tny_gorn_table_sizes(n, sizes);
        for (int32_t t = 0, q = 0; t < nt; t++)
            for (int32_t i = 0; i < 4; i++)
                cut[t][i] = i < sizes[t] ? q++ : -1;
        ro->cut = measure(n, pts, hist, s->n_hist, (const int32_t(*)[4])cut,
                          sizes, nt);
        free(cut);
        free(sizes);
    }
    for (int32_t t = 0; t < seat.n_tables; t++) {
        int32_t ids[4];
        for (int32_t i = 0; i < seat.sizes[t]; i++)
            ids[i] = ord[seat.tables[t][i]];
        play(s, ids, seat.sizes[t]);
    }
out:
    tny_gorn_seating_release(&seat);
    free(ord);
    free(inv);
    free(pts);
    free(hist);
    return rc;
}

/* Play `rounds` rounds of an n-player event, then measure round+1. */
static int bench_event(int32_t n, int rounds, uint64_t seed, int reps,
                       struct round_out *ro)
{
    struct sim s = {0};
    int rc = 0;
    s.n = n;
    s.points = calloc((size_t)n, sizeof(*s.points));
    s.vp = calloc((size_t)n, sizeof(*s.vp));
    if (!s.points || !s.vp)
        abort();
    tny_rng_seed(&s.rng, seed ^ 0x5eed);
    for (int r = 1; r <= rounds && rc == 0; r++)
        rc = round_seat(&s, (uint32_t)r, seed, 0, NULL);
    if (rc == 0)
        rc = round_seat(&s, (uint32_t)rounds + 1, seed, reps, ro);
    free(s.points);
    free(s.vp);
    free(s.hist);
    return rc;
}

static void print_row(const char *what, int32_t n, int rounds, int events,
                      const struct quality *q, double ms_min, double ms_med)
{
    printf("%-13s %6d %6d %6d %9.2f %9.2f %8.2f %8.2f %9.3f %7.1f\n", what,
           (int)n, rounds + 1, events, ms_min, ms_med,
           (double)q->triples / events, (double)q->pairs / events,
           q->spread_mean / events / 2.0, (double)q->spread_max / 2.0);
}

int main(void)
{
    printf("Gorn seating (CT-2): time and quality of round R after R-1 "
           "simulated rounds\n");
    printf("spread in placement points; triples/pairs/spread are means over "
           "events, max spread the worst table over all events\n\n");
    printf("%-13s %6s %6s %6s %9s %9s %8s %8s %9s %7s\n", "method", "N",
           "round", "events", "ms(min)", "ms(med)", "triples", "pairs",
           "spr.mean", "spr.max");
    struct {
        int32_t n;
        int rounds, events, reps;
    } cases[] = {{40, 9, 50, 3},
                 {40, 6, 50, 3},
                 {64, 9, 20, 3},
                 {1000, 6, 3, 7},
                 {10000, 6, 1, 5}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct quality ours = {0, 0, 0.0, 0}, cut = {0, 0, 0.0, 0};
        double mmin = 1e30, mmed = 0;
        for (int e = 0; e < cases[c].events; e++) {
            struct round_out ro;
            if (bench_event(cases[c].n, cases[c].rounds,
                            20041120 + (uint64_t)e * 7919, cases[c].reps,
                            &ro) != 0)
                return 1;
            ours.triples += ro.ours.triples;
            ours.pairs += ro.ours.pairs;
            ours.spread_mean += ro.ours.spread_mean;
            if (ro.ours.spread_max > ours.spread_max)
                ours.spread_max = ro.ours.spread_max;
            cut.triples += ro.cut.triples;
            cut.pairs += ro.cut.pairs;
            cut.spread_mean += ro.cut.spread_mean;
            if (ro.cut.spread_max > cut.spread_max)
                cut.spread_max = ro.cut.spread_max;
            mmin = ro.ms_min < mmin ? ro.ms_min : mmin;
            mmed = ro.ms_median > mmed ? ro.ms_median : mmed;
        }
        print_row("gorn", cases[c].n, cases[c].rounds, cases[c].events, &ours,
                  mmin, mmed);
        print_row("sort-and-cut", cases[c].n, cases[c].rounds, cases[c].events,
                  &cut, 0, 0);
    }
    printf("\nms(med): the worst per-event median; targets: N=1000 <= 20 ms, "
           "N=10000 <= 100 ms\n");
    return 0;
}
