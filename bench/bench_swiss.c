/* bench_swiss.c - times Swiss pairing of round 6 (NH-5, GT-2).
 *
 * For N = 1,000 / 10,000 / 100,000 (argv may give other sizes): random
 * ratings, five rounds paired by tny_swiss_pair() with results from a
 * rating-weighted coin (10% draws, 3/1/0 points, a bye worth 3), then round 6
 * is paired and timed (best of a few runs for small N).  Prints wall time,
 * peak RSS growth, candidate edges, rematches, pair-downs.
 * Not a test: prints numbers, never fails on them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tny/rng.h"
#include "tny/swiss.h"

struct event {
    int32_t n;
    int64_t *points;
    double *rating;
    int32_t *had_bye;
    int32_t *met; /* player ids */
    int64_t n_met;
    int32_t *order; /* standings position -> id */
    int32_t *rank;  /* id -> standings position */
    struct tny_swiss_player *pl;
    int32_t *met_req;
};

static const struct event *g_ev; /* qsort context (bench only) */

static int cmp_standing(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    if (g_ev->points[x] != g_ev->points[y])
        return g_ev->points[x] > g_ev->points[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Builds the request of the next round (standings order, bye ranks). */
static void make_request(struct event *ev, struct tny_rng *rng, uint32_t round,
                         struct tny_swiss_request *req)
{
    int32_t n = ev->n;
    for (int32_t i = 0; i < n; i++)
        ev->order[i] = i;
    g_ev = ev;
    qsort(ev->order, (size_t)n, sizeof(int32_t), cmp_standing);
    for (int32_t i = 0; i < n; i++)
        ev->rank[ev->order[i]] = i;
    int32_t next = 0;
    for (int32_t i = n - 1; i >= 0; i--) {
        int32_t id = ev->order[i];
        ev->pl[i].points = ev->points[id];
        ev->pl[i].bye_rank = ev->had_bye[id] ? -1 : next++;
    }
    if (round == 1) {
        for (int32_t i = 0; i < n; i++)
            ev->met_req[i] = i; /* scratch permutation */
        tny_rng_shuffle_i32(rng, ev->met_req, n);
        for (int32_t i = 0; i < n; i++)
            ev->pl[i].bye_rank = ev->met_req[i];
    }
    for (int64_t i = 0; i < 2 * ev->n_met; i++)
        ev->met_req[i] = ev->rank[ev->met[i]];
    memset(req, 0, sizeof(*req));
    req->n_players = n;
    req->players = ev->pl;
    req->met = ev->met_req;
    req->n_met = ev->n_met;
    req->seed = 20240601;
    req->round = round;
    req->order = TNY_SWISS_LOT;
}

static void play(struct event *ev, struct tny_rng *rng,
                 const struct tny_swiss_pairing *p)
{
    for (int32_t i = 0; i < p->n_pairs; i++) {
        int32_t a = ev->order[p->pairs[i][0]], b = ev->order[p->pairs[i][1]];
        double pa =
            1.0 / (1.0 + pow(10.0, (ev->rating[b] - ev->rating[a]) / 400));
        double x = (double)tny_rng_below(rng, 1000000) / 1e6;
        if (x < 0.1)
            ev->points[a] += 1, ev->points[b] += 1;
        else if (x < 0.1 + 0.9 * pa)
            ev->points[a] += 3;
        else
            ev->points[b] += 3;
        ev->met[2 * ev->n_met] = a;
        ev->met[2 * ev->n_met + 1] = b;
        ev->n_met++;
    }
    if (p->bye >= 0) {
        ev->points[ev->order[p->bye]] += 3;
        ev->had_bye[ev->order[p->bye]] = 1;
    }
}

static int bench(int32_t n)
{
    struct event ev = {0};
    struct tny_rng rng;
    struct tny_diag diag = {{0}};
    struct tny_swiss_request req;
    struct tny_swiss_pairing p;
    int rc = 0;
    tny_rng_seed(&rng, 1000003u * (uint64_t)n);
    ev.n = n;
    ev.points = calloc((size_t)n, sizeof(int64_t));
    ev.rating = malloc((size_t)n * sizeof(double));
    ev.had_bye = calloc((size_t)n, sizeof(int32_t));
    ev.met = malloc((size_t)n * 7 * sizeof(int32_t));
    ev.order = malloc((size_t)n * sizeof(int32_t));
    ev.rank = malloc((size_t)n * sizeof(int32_t));
    ev.pl = malloc((size_t)n * sizeof(*ev.pl));
    ev.met_req = malloc((size_t)n * 7 * sizeof(int32_t));
    if (!ev.points || !ev.rating || !ev.had_bye || !ev.met || !ev.order ||
        !ev.rank || !ev.pl || !ev.met_req) {
        fprintf(stderr, "bench_swiss: out of memory\n");
        return 1;
    }
    for (int32_t i = 0; i < n; i++)
        ev.rating[i] = 1000 + (double)tny_rng_below(&rng, 1400);
    double setup = 0;
    for (uint32_t r = 1; r <= 5; r++) {
        make_request(&ev, &rng, r, &req);
        double t0 = now();
        rc = tny_swiss_pair(&req, &p, &diag);
        setup += now() - t0;
        if (rc) {
            fprintf(stderr, "bench_swiss: round %u: %s\n", r, diag.msg);
            return 1;
        }
        play(&ev, &rng, &p);
        tny_swiss_pairing_release(&p);
    }
    make_request(&ev, &rng, 6, &req);
    int runs = n <= 10000 ? 5 : 1;
    double best = 1e30;
    long rss0 = max_rss_kib();
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        rc = tny_swiss_pair(&req, &p, &diag);
        double t = now() - t0;
        if (rc) {
            fprintf(stderr, "bench_swiss: round 6: %s\n", diag.msg);
            return 1;
        }
        if (t < best)
            best = t;
        if (k + 1 < runs)
            tny_swiss_pairing_release(&p);
    }
    long rss1 = max_rss_kib();
    printf("%9d %10.4f %10.1f %12lld %9d %10d %9.3f\n", (int)n, best,
           (double)(rss1 - rss0) / 1024.0, (long long)p.n_candidate_edges,
           (int)p.n_rematches, (int)p.n_pair_downs, setup / 5);
    tny_swiss_pairing_release(&p);
    free(ev.points), free(ev.rating), free(ev.had_bye), free(ev.met);
    free(ev.order), free(ev.rank), free(ev.pl), free(ev.met_req);
    return 0;
}

int main(int argc, char **argv)
{
    static const int32_t sizes[] = {1000, 10000, 100000};
    printf("%9s %10s %10s %12s %9s %10s %9s\n", "players", "round6_s",
           "peakMiB+", "cand_edges", "rematches", "pairdowns", "r1-5_avg_s");
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (bench((int32_t)atol(argv[i])))
                return 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (bench(sizes[i]))
            return 1;
    return 0;
}
