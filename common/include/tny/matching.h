/* matching.h - minimum-cost perfect matching on a general sparse graph.
 *
 * Edmonds' weighted blossom algorithm (primal-dual), written for the pairing
 * engine: int64 edge costs, any sign, ties allowed.  The solver grows one
 * alternating tree at a time from a greedy jump start (feasible duals plus a
 * greedy matching on tight edges), with an event heap per tree so that one
 * augmentation touches only the vertices it reaches.  A solver object can be
 * solved, given more edges and solved again: the second solve starts from the
 * previous matching and duals (made feasible again), which is what column
 * generation ("pricing") in the Swiss pairing needs.
 *
 * Not here: anything about players or tournaments; maximum-weight (non
 * perfect) matching; parallelism.  Pure: no I/O, no global state.
 *
 * Invariants after a successful solve: mate[] is a perfect matching of the
 * graph, every edge has non-negative reduced cost
 *   2*cost(u,v) - dual2(u) - dual2(v) + 2 * sum of z over the blossoms that
 * contain both u and v  >= 0,
 * matched edges have reduced cost 0, so the matching is optimal.  dual2() is
 * twice the LP dual ("effective" vertex potential including the duals of the
 * blossoms around the vertex); since blossom duals are >= 0,
 * 2*cost - dual2(u) - dual2(v) >= 0 is a conservative (sufficient) test that
 * an edge not in the graph cannot improve the matching.
 */
#ifndef TNY_MATCHING_H
#define TNY_MATCHING_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"

/* Largest |cost| accepted.  Internally costs are doubled and duals kept
 * within +-2^60; a solve whose duals would leave that range stops with
 * TNY_ERANGE instead of overflowing. */
#define TNY_MATCH_COST_MAX ((int64_t)1 << 58)

struct tny_match_edge {
    int32_t u, v; /* distinct vertices in [0, n_vertices) */
    int64_t cost; /* |cost| <= TNY_MATCH_COST_MAX */
};

/* One-shot: minimum-cost perfect matching of the graph (parallel edges are
 * allowed, the cheapest counts).  mate[v] receives v's partner (caller's
 * array of n_vertices), *total_cost the sum of the matched edges' costs.
 * Errors: TNY_EINVAL (n < 0, endpoint out of range, u == v, |cost| too large,
 * NULL pointer), TNY_ENOMATCH (no perfect matching exists, e.g. n odd),
 * TNY_ERANGE (duals or the total cost would overflow), TNY_ENOMEM. */
TNY_MUST_USE int tny_matching_min_cost_perfect(
    int32_t n_vertices, const struct tny_match_edge *edges, int64_t n_edges,
    int32_t *mate, int64_t *total_cost, struct tny_diag *diag);

/* Reusable solver (opaque). */
struct tny_matching;

/* New solver for n_vertices vertices and no edges.  Errors: TNY_EINVAL,
 * TNY_ENOMEM. */
TNY_MUST_USE int tny_matching_new(int32_t n_vertices, struct tny_matching **out,
                                  struct tny_diag *diag);

/* Frees the solver (NULL is fine). */
void tny_matching_free(struct tny_matching *m);

/* Appends edges (copied).  Errors: TNY_EINVAL (as above), TNY_ERANGE (more
 * than INT32_MAX edges), TNY_ENOMEM. */
TNY_MUST_USE int tny_matching_add_edges(struct tny_matching *m,
                                        const struct tny_match_edge *edges,
                                        int64_t n_edges, struct tny_diag *diag);

/* Solves on all edges added so far; a second solve warm-starts from the
 * previous result.  Errors: TNY_ENOMATCH, TNY_ERANGE, TNY_ENOMEM. */
TNY_MUST_USE int tny_matching_solve(struct tny_matching *m,
                                    struct tny_diag *diag);

/* After a successful solve: partner of v, index (in order of addition) of
 * the matched edge at v, twice the effective dual of v, and the total cost
 * (TNY_ERANGE if it does not fit int64). */
int32_t tny_matching_mate(const struct tny_matching *m, int32_t v);
int64_t tny_matching_mate_edge(const struct tny_matching *m, int32_t v);
int64_t tny_matching_dual2(const struct tny_matching *m, int32_t v);
TNY_MUST_USE int tny_matching_total_cost(const struct tny_matching *m,
                                         int64_t *total);

/* Number of edges added so far, and edge i (as given). */
int64_t tny_matching_n_edges(const struct tny_matching *m);
struct tny_match_edge tny_matching_edge(const struct tny_matching *m,
                                        int64_t i);

#endif
