// lemon_compare.cpp - our blossom matcher against LEMON on the Swiss graph.
//
// For N = 1,000 / 10,000 / 100,000 (or argv): simulates five Swiss rounds
// exactly as bench_swiss.c does (same seeds), asks tny_swiss_pair() for round
// 6 with keep_graph, then solves that final weighted graph again with
// tny_matching_min_cost_perfect() and with LEMON's MaxWeightedPerfectMatching
// (weights negated), checks the optimum values agree and prints both times
// and the ratio ours/LEMON.  Bench only: never part of the test run.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

extern "C" {
#include "tny/matching.h"
#include "tny/rng.h"
#include "tny/swiss.h"
}

namespace
{

struct Event {
    int32_t n = 0;
    std::vector<int64_t> points;
    std::vector<double> rating;
    std::vector<int32_t> had_bye, met, order, rank, met_req;
    std::vector<tny_swiss_player> pl;
};

double now()
{
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void make_request(Event &ev, tny_rng *rng, uint32_t round,
                  tny_swiss_request *req)
{
    int32_t n = ev.n;
    for (int32_t i = 0; i < n; i++)
        ev.order[i] = i;
    std::stable_sort(ev.order.begin(), ev.order.end(),
                     [&](int32_t x, int32_t y) {
                         if (ev.points[x] != ev.points[y])
                             return ev.points[x] > ev.points[y];
                         return x < y;
                     });
    for (int32_t i = 0; i < n; i++)
        ev.rank[ev.order[i]] = i;
    int32_t next = 0;
    for (int32_t i = n - 1; i >= 0; i--) {
        int32_t id = ev.order[i];
        ev.pl[i].points = ev.points[id];
        ev.pl[i].bye_rank = ev.had_bye[id] ? -1 : next++;
    }
    if (round == 1) {
        for (int32_t i = 0; i < n; i++)
            ev.met_req[i] = i;
        tny_rng_shuffle_i32(rng, ev.met_req.data(), n);
        for (int32_t i = 0; i < n; i++)
            ev.pl[i].bye_rank = ev.met_req[i];
    }
    size_t n_met = ev.met.size() / 2;
    for (size_t i = 0; i < 2 * n_met; i++)
        ev.met_req[i] = ev.rank[ev.met[i]];
    std::memset(req, 0, sizeof(*req));
    req->n_players = n;
    req->players = ev.pl.data();
    req->met = ev.met_req.data();
    req->n_met = (int64_t)n_met;
    req->seed = 20240601;
    req->round = round;
    req->order = TNY_SWISS_LOT;
}

void play(Event &ev, tny_rng *rng, const tny_swiss_pairing *p)
{
    for (int32_t i = 0; i < p->n_pairs; i++) {
        int32_t a = ev.order[p->pairs[i][0]], b = ev.order[p->pairs[i][1]];
        double pa =
            1.0 / (1.0 + std::pow(10.0, (ev.rating[b] - ev.rating[a]) / 400));
        double x = (double)tny_rng_below(rng, 1000000) / 1e6;
        if (x < 0.1)
            ev.points[a] += 1, ev.points[b] += 1;
        else if (x < 0.1 + 0.9 * pa)
            ev.points[a] += 3;
        else
            ev.points[b] += 3;
        ev.met.push_back(a);
        ev.met.push_back(b);
    }
    if (p->bye >= 0) {
        ev.points[ev.order[p->bye]] += 3;
        ev.had_bye[ev.order[p->bye]] = 1;
    }
}

int compare(int32_t n)
{
    Event ev;
    tny_rng rng;
    tny_diag diag{};
    tny_swiss_request req;
    tny_swiss_pairing p;
    tny_rng_seed(&rng, 1000003u * (uint64_t)n);
    ev.n = n;
    ev.points.assign(n, 0);
    ev.rating.resize(n);
    ev.had_bye.assign(n, 0);
    ev.order.resize(n);
    ev.rank.resize(n);
    ev.pl.resize(n);
    ev.met_req.resize((size_t)n * 7);
    for (int32_t i = 0; i < n; i++)
        ev.rating[i] = 1000 + (double)tny_rng_below(&rng, 1400);
    for (uint32_t r = 1; r <= 6; r++) {
        make_request(ev, &rng, r, &req);
        req.keep_graph = r == 6;
        if (tny_swiss_pair(&req, &p, &diag) != 0) {
            std::fprintf(stderr, "lemon_compare: round %u: %s\n", r, diag.msg);
            return 1;
        }
        if (r < 6) {
            play(ev, &rng, &p);
            tny_swiss_pairing_release(&p);
        }
    }
    int32_t nv = p.graph_n_vertices;
    int64_t m = p.n_candidate_edges;
    const tny_match_edge *e = p.graph_edges;

    // ours: build + solve, best of a few runs
    int runs = n <= 10000 ? 5 : 2;
    double ours = 1e30;
    int64_t our_cost = 0;
    std::vector<int32_t> mate(nv);
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        int rc = tny_matching_min_cost_perfect(nv, e, m, mate.data(), &our_cost,
                                               &diag);
        double t = now() - t0;
        if (rc != 0) {
            std::fprintf(stderr, "lemon_compare: ours: %s\n", diag.msg);
            return 1;
        }
        ours = std::min(ours, t);
    }

    // LEMON: build + run, maximise the negated cost
    double lemon = 1e30, lemon_run = 1e30;
    long long lemon_cost = 0;
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        lemon::SmartGraph g;
        g.reserveNode(nv);
        g.reserveEdge((int)m);
        std::vector<lemon::SmartGraph::Node> nodes(nv);
        for (int32_t v = 0; v < nv; v++)
            nodes[v] = g.addNode();
        lemon::SmartGraph::EdgeMap<long long> w(g);
        for (int64_t i = 0; i < m; i++) {
            lemon::SmartGraph::Edge ed =
                g.addEdge(nodes[e[i].u], nodes[e[i].v]);
            w[ed] = -(long long)e[i].cost;
        }
        double t1 = now();
        lemon::MaxWeightedPerfectMatching<lemon::SmartGraph,
                                          lemon::SmartGraph::EdgeMap<long long>>
            mwpm(g, w);
        if (!mwpm.run()) {
            std::fprintf(stderr,
                         "lemon_compare: LEMON found no perfect matching\n");
            return 1;
        }
        double t2 = now();
        lemon_cost = -mwpm.matchingWeight();
        lemon = std::min(lemon, t2 - t0);
        lemon_run = std::min(lemon_run, t2 - t1);
    }
    bool same = lemon_cost == our_cost && our_cost == p.graph_cost;
    std::printf("%9d %10d %11lld %10.4f %10.4f %10.4f %8.3f %6s\n", (int)n,
                (int)nv, (long long)m, ours, lemon, lemon_run, ours / lemon,
                same ? "yes" : "NO");
    tny_swiss_pairing_release(&p);
    return same ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    std::printf("%9s %10s %11s %10s %10s %10s %8s %6s\n", "players", "vertices",
                "edges", "ours_s", "lemon_s", "lemon_run", "ratio", "equal");
    int bad = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            bad |= compare((int32_t)std::atol(argv[i]));
        return bad;
    }
    for (int32_t n : {1000, 10000, 100000})
        bad |= compare(n);
    return bad;
}
