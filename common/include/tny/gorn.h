/* gorn.h - "Gorn" seating of 4-player tables for the Catan championship
 * (CT-1 table sizes, CT-2 Gorn pairing).
 *
 * Seats one round: splits the players into tables of four (3-player tables
 * for the remainder, CT-1) so that players of similar points sit together,
 * no three players who already shared a table share one again and repeated
 * pairs are as few as possible.  It does not choose the bye (the caller
 * removes the bye holder first: n % 4 == 1 is refused), compute standings,
 * record history or pick the starting player (CT-9).
 *
 * Objective, in strict priority order (a lower item never buys a higher one):
 *   1. repeated triples: no three players who already shared a table of
 *      this event share one again.  Hard: whenever a triple-free seating
 *      exists it is found (exhaustively proven for up to 64 players within a
 *      search budget, by local search with a full window for more).
 *   2. CT-1: the 3-player tables hold the players with the lowest points
 *      (the seed says "lowest points": any of several players tied at the
 *      cut may sit there).  Relaxed only to break a repeated triple.
 *   3. repeated pairs, counted with multiplicity (a pair that already shared
 *      two tables counts 2), minimised.
 *   4. points spread: the sum over tables of (max points - min points).
 *   5. standings spread: the sum over tables of (worst - best position).
 * Items 3-5 are optimised inside a window: a player sits at most
 * `pair_window` tables beyond the tables his score group (players with equal
 * points) would fill in plain sort-and-cut order.  Items 1-2 may use any
 * table.  The search starts from sort-and-cut (players 1-4, 5-8, ... in
 * standings order, 3-player tables last) and only accepts swaps of two
 * players between tables that improve the objective, so its result is never
 * worse than sort-and-cut in that order.  Round 1 (by_lot) seats a
 * random permutation instead of the standings (points ignored).
 *
 * Invariants of a result: every player sits exactly once; tables of four
 * come first, tables of three (-1 in seat 3) last; table 0 is the strongest
 * (lowest mean standings position among the 4-player tables, CM-9); seat
 * order within a table is standings order (lot order in round 1).  Pure and
 * deterministic: the same request gives the same seating byte for byte.
 */
#ifndef TNY_GORN_H
#define TNY_GORN_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"

/* Largest number of players accepted in one request. */
#define TNY_GORN_MAX_PLAYERS (1 << 22)

/* Default of tny_gorn_request.pair_window. */
#define TNY_GORN_DEFAULT_WINDOW 2

struct tny_gorn_request {
    /* Players to seat this round (the bye, if any, already removed by the
     * caller), in standings order, best first. */
    int32_t n_players;
    /* n_players values: tournament points ("similar points sit together");
     * any scale (e.g. half points * 2).  Ignored when by_lot. */
    const int64_t *points;
    /* n_history rows of 4 ints: earlier tables of this event, as indices
     * into this request's players; -1 for an empty seat or a player not in
     * this request.  May be NULL when n_history is 0. */
    const int32_t *history;
    int32_t n_history;
    /* Round 1: seating by lot (tny_rng_derive(seed, TNY_LOT_PAIRING,
     * round)); later rounds: the same stream breaks out of local optima when
     * a repeated triple resists the deterministic search. */
    uint64_t seed;
    uint32_t round;
    bool by_lot; /* true in round 1 */
    /* How many tables beyond his score group's tables a player may be moved
     * to avoid repeated pairs (objective items 3-5); 0 means
     * TNY_GORN_DEFAULT_WINDOW, negative means unlimited. */
    int32_t pair_window;
    /* Optional, for the explanation people read: how players[i] is named
     * (e.g. "p3 Jiří Šebesta") and how a points value is written in the
     * format's units; NULL: "player i" and the raw number. */
    void (*describe)(const void *ctx, int32_t i, char *buf, size_t size);
    void (*points_text)(int64_t points, char *buf, size_t size);
    const void *describe_ctx;
};

struct tny_gorn_seating {
    int32_t n_tables;
    /* Player indices in seat order, -1 in the 4th seat of a 3-player
     * table; table 0 = strongest (CM-9). */
    int32_t (*tables)[4];
    /* 3 or 4 per table. */
    int32_t *sizes;
    /* Triples that already shared a table: 0 whenever possible (hard). */
    int32_t repeated_triples;
    /* Pairs that already shared a table, counted with multiplicity. */
    int32_t repeated_pairs;
    /* Max and mean over tables of (max points - min points). */
    int64_t spread_max;
    double spread_mean;
    /* Players at a table of the wrong size for their points (CT-1): 0
     * unless that was the only way found to avoid a repeated triple. */
    int32_t ct1_violations;
    /* The same counts for plain sort-and-cut, for comparison. */
    int32_t baseline_pairs;
    int32_t baseline_triples;
    /* Largest distance, in tables, of a player from the tables his score
     * group fills in sort-and-cut. */
    int32_t max_float;
    /* repeated_triples > 0 and an exhaustive search proved that no seating
     * avoids them (only searched for up to 64 players). */
    bool triple_free_impossible;
    /* Heap text for the arbiter, one statement per line: what held, what
     * was relaxed and why, and every repeated pair or triple (up to a
     * limit) by table. */
    char *explain;
};

/* Seats one round (CT-1, CT-2) into *out, which the caller releases with
 * tny_gorn_seating_release() (also after a failure: *out is then empty).
 * Borrows req.  Errors:
 *   TNY_EINVAL  n_players < 3 or n_players % 4 == 1 (the caller must give a
 *               bye first, CT-1), NULL points (unless by_lot) or history
 *               (with n_history > 0), a history entry outside -1..n-1, a
 *               player twice in one history row, n_history < 0;
 *   TNY_ERANGE  n_players > TNY_GORN_MAX_PLAYERS;
 *   TNY_ENOMEM  allocation failed.
 * diag (may be NULL) says which input was wrong. */
TNY_MUST_USE int tny_gorn_seat(const struct tny_gorn_request *req,
                               struct tny_gorn_seating *out,
                               struct tny_diag *diag);

/* Frees what tny_gorn_seat() allocated and empties *s; NULL-safe, and safe
 * to call twice. */
void tny_gorn_seating_release(struct tny_gorn_seating *s);

/* CT-1 table sizes for n players after the bye, strongest table first:
 * fours, then one 3-player table when n % 4 == 3, two when n % 4 == 2.
 * Fills sizes (a caller array of at least n / 3 + 1 entries; may be NULL
 * to only count) and returns the number of tables, or TNY_EINVAL when
 * n < 3 or n % 4 == 1. */
int32_t tny_gorn_table_sizes(int32_t n_players, int32_t *sizes);

#endif
