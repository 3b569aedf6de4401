/* swiss.h - 2-player Swiss pairing (NH-4, NH-5, GT-2, GT-3, TX Swiss).
 *
 * One global minimum-cost perfect matching over all active players (plus a
 * bye vertex when needed), never a greedy group-by-group procedure.  The
 * pairing minimises, in strict lexicographic priority:
 *   1. the number of rematches (pairs listed in `met`): 0 whenever a
 *      rematch-free pairing exists for some choice of the bye;
 *   2. the bye (odd n): the eligible player (bye_rank >= 0) with the smallest
 *      bye_rank among those compatible with 1; if no eligible player is, the
 *      ineligible one lowest in standings (bye_rule_relaxed is set);
 *   3. the sum over pairs of (score-group index difference)^2, groups
 *      numbered 0, 1, ... from the highest points down: an odd group sends
 *      one player to the NEXT group, not further (GT-2, NH-5 "equal or
 *      nearest points"), and floats cascade group by group (1 | 2 | 1
 *      players gives two pair-downs to adjacent groups, not one across two);
 *   4. the number of pair-downs (pairs whose players have different points);
 *   5. the sum over pairs of (line distance)^2.  The line lists score groups
 *      top to bottom; inside a group the players are in a seeded random
 *      order (TNY_SWISS_LOT, lot = tny_rng_derive(seed, TNY_LOT_PAIRING,
 *      round), one Fisher-Yates shuffle per group, top group first) or in
 *      standings order (TNY_SWISS_ADJACENT).  The line distance of two
 *      players of one group is the difference of their line positions; for
 *      players of different groups the players of the groups strictly
 *      between them are not counted [decision: their distance is already
 *      charged by 3], i.e. it is (players of the upper group below the
 *      upper player) + (players of the lower group above the lower player)
 *      + 1.  Unconstrained, partners are line neighbours 1v2, 3v4: a random
 *      pairing inside each group (LOT) or Monrad order (ADJACENT).
 * Round 1 (all on 0 points, nobody met) is thus a pairing by lot, the bye
 * by bye_rank (the caller passes random bye ranks for round 1).
 *
 * Pair-down cost (level 3), cost = TNY_SWISS_COST_POINTS: the squared
 * points difference instead of the squared group steps (points divided by
 * the greatest common divisor of the differences, so 3/1/0 points count
 * 1, 2, 3, ... per point); where no score group is empty both agree.
 *
 * Sides (a request with `side` or `again`): a pair listed in `again` met
 * once and may meet again with the sides swapped (not a rematch at level
 * 1); the sides of such a pair are forced (the other ones than at the
 * first meeting).  Between levels 2 and 3 the pairing then minimises side
 * conflicts: pairs whose sides cannot both be what the players need
 * (side[i] = 0 or 1: the side player i must play to stay within the
 * format's balance, -1 either); and between levels 4 and 5 the number of
 * pairs taken from `again` (a fresh opponent first).  With sides the
 * candidate graph is every pair that is not a rematch (the exchange bounds
 * of swiss.c do not hold for side conflicts), the weights are the
 * universal ones and a line distance (level 5) beyond 64 counts as 64:
 * fields up to about 1,000 players (TNY_ERANGE beyond).
 * The bye (level 2) is settled before sides: a leader never takes the bye
 * to avoid a side conflict or a swapped rematch.
 *
 * Not here: standings, points, who is active, table numbers (pairs come in
 * board order, CM-9), colours/seats.  Pure: no I/O, no global state.
 */
#ifndef TNY_SWISS_H
#define TNY_SWISS_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/matching.h"

struct tny_swiss_player {
    int64_t points;   /* tournament points (any integer unit); equal points =
                         same score group */
    int32_t bye_rank; /* -1: not eligible for the bye (already had one); else
                         0 = first in line by the format's bye rule, 1 = next,
                         ... (distinct) */
};

enum tny_swiss_order {
    TNY_SWISS_LOT = 0,     /* inside a score group partners are drawn by lot
                              (GT-2, NH-5) */
    TNY_SWISS_ADJACENT = 1 /* inside a score group: standings order, 1v2, 3v4
                              (Monrad) */
};

enum tny_swiss_cost {
    TNY_SWISS_COST_GROUPS = 0, /* (score-group index difference)^2 */
    TNY_SWISS_COST_POINTS = 1  /* (points difference / their gcd)^2 */
};

struct tny_swiss_request {
    int32_t n_players;                      /* active players to pair, >= 1 */
    const struct tny_swiss_player *players; /* in current standings order,
                                               best first */
    const int32_t *met; /* n_met pairs (2*n_met ints): indices into players[]
                           that already met in this stage (duplicates ok) */
    int64_t n_met;
    uint64_t seed;
    uint32_t round; /* lot = tny_rng_derive(seed, TNY_LOT_PAIRING, round) */
    enum tny_swiss_order order;
    bool keep_graph; /* fill tny_swiss_pairing.graph* (benchmarks, audits) */
    /* Optional: how the explanation names players[i] for people (e.g.
     * "p3 Jiří Šebesta, 3 points"); NULL: "player i". */
    void (*describe)(const void *ctx, int32_t i, char *buf, size_t size);
    const void *describe_ctx;
    enum tny_swiss_cost cost; /* level 3: group steps (0) or points */
    /* Sides (optional, see above): side[i] in {-1, 0, 1} per player (NULL:
     * no side needs); again: n_again triples (a, b, side a must play) of
     * pairs that may meet once more with sides swapped (each pair listed
     * once; not also in met). */
    const int8_t *side;
    const int32_t *again;
    int64_t n_again;
};

struct tny_swiss_pairing {
    int32_t n_pairs;
    int32_t (*pairs)[2];      /* indices into players[]; better-standing player
                                 first; pairs sorted by their first player's
                                 standing (CM-9: top boards get low numbers) */
    int32_t bye;              /* index of the bye holder, or -1 */
    int32_t n_rematches;      /* > 0 only when no rematch-free pairing exists */
    int32_t n_pair_downs;     /* pairs across score groups */
    int32_t n_side_conflicts; /* pairs whose sides break a need (sides) */
    int32_t n_again;          /* pairs taken from `again` (swapped sides) */
    int8_t *pair_side;        /* with sides: side (0/1) of pairs[i][0], or
                                 -1 when free (the caller decides) */
    bool bye_rule_relaxed;    /* bye went to a player with bye_rank -1 because
                                 nobody eligible could take it */
    char *explain; /* heap, NUL-terminated English for the arbiter: which
                      constraints held, which were relaxed and why */
    /* diagnostics */
    int64_t n_candidate_edges; /* edges of the final matching graph */
    /* the final weighted graph (only with keep_graph): vertices are
     * graph_player[v] (a player index, or -1 for the bye vertex) */
    int32_t graph_n_vertices;
    int32_t *graph_player;
    struct tny_match_edge *graph_edges;
    int64_t graph_cost; /* optimum cost on that graph */
};

/* Pairs one round.  out is overwritten (release it with
 * tny_swiss_pairing_release()).  Deterministic: the same request gives a
 * byte-identical result.
 * Errors: TNY_EINVAL (n < 1, NULL arrays, met index out of range or a
 * player paired with themself, bye_rank < -1 or duplicate bye ranks),
 * TNY_ERANGE (the lexicographic weights do not fit the matcher's 2^58 cost
 * range: only for pathological inputs where a player has met about half the
 * field or more and the field is large), TNY_ENOMEM.  n == 1 is not an
 * error: that player gets the bye. */
TNY_MUST_USE int tny_swiss_pair(const struct tny_swiss_request *req,
                                struct tny_swiss_pairing *out,
                                struct tny_diag *diag);

/* Frees what tny_swiss_pair() allocated and zeroes *p (NULL-safe). */
void tny_swiss_pairing_release(struct tny_swiss_pairing *p);

#endif
