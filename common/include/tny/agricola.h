/* agricola.h - table seating and placement points of the Agricola national
 * championship (AG-3, AG-4, AG-5, AG-7, AG-9, AG-10, AG-11, AG-12; seed 002).
 *
 * Pure index arithmetic over player ids chosen by the caller.  These functions
 * never look at results: the event engine computes placements, rankings and
 * the rating order and passes them in already ordered.  Every random decision
 * draws from the struct tny_rng the caller derived (CM-4).
 *
 * Tables are arrays of 4 player ids in seat order; tables[0] is table number
 * 1.  The seat order returned by the tny_ag_seat_* functions is the order the
 * rule names (rating order, game-1 placement order, rank order); the caller
 * draws the real seat order with tny_ag_seat_lot() afterwards (AG-4).
 *
 * Sizes: n players is a multiple of 4 with 8 <= n <= TNY_AG_MAX_PLAYERS
 * (the seed caps the event at 32; larger fields are supported for
 * robustness).  Player ids inside one call must be distinct.
 *
 * Not here: ratings (AG-2), rankings and tiebreaks (AG-8, AG-13), who
 * withdraws and who replaces them (AG-10: the caller passes the final-stage
 * ranking with replacements already made).
 */
#ifndef TNY_AGRICOLA_H
#define TNY_AGRICOLA_H

#include <stdint.h>

#include "tny/error.h"
#include "tny/rng.h"

/* Largest field the seating functions accept. */
#define TNY_AG_MAX_PLAYERS 400

/* Size of final group A, the players who play for places 1-8 (AG-10). */
#define TNY_AG_GROUP_A 8

/* Tournament points are fixed point in units of 1/TNY_AG_TP_UNIT point, so
 * that 3.75 (final weight 1.25) and (10+6+3)/3 are exact. */
#define TNY_AG_TP_UNIT 1200

/* AG-3: seating of preliminary game 1 ("mild seeding").
 *
 * by_rating holds the n players ordered by rating, best first (the caller
 * puts unrated players last and orders rating ties by lot).  With x = n/4
 * tables the x best rated are spread one per table by lot; when x <= 4 the
 * next x are spread the same way; everyone else is seated by lot.  With 8
 * players (x = 2) the players form 4 pairs by rating (1-2, 3-4, 5-6, 7-8)
 * and each pair is split between the two tables by lot.
 *
 * Writes n/4 tables; each table lists its players in rating order (best
 * first).  rng (borrowed, advanced) should be derived for TNY_LOT_SEEDING.
 *
 * Errors: TNY_EINVAL if n is not a multiple of 4 or an id repeats;
 * TNY_ERANGE if n < 8 or n > TNY_AG_MAX_PLAYERS.  On error tables is
 * unspecified and diag (may be NULL) says why. */
TNY_MUST_USE int tny_ag_seat_game1(int32_t n, const int32_t *by_rating,
                                   struct tny_rng *rng, int32_t (*tables)[4],
                                   struct tny_diag *diag);

/* AG-7: seating of preliminary game 2.
 *
 * game1_by_place[t] = the 4 players of game-1 table t ordered by their game-1
 * placement, 1st to 4th (equal VP already ordered by IP, then BP, by the
 * caller).  Game-1 winners stay at their table number.
 *   - n_tables >= 4: table t gets the 2nd of game-1 table t+1, the 3rd of
 *     t+2 and the 4th of t+3 (mod n_tables), so every table holds a 1st, 2nd,
 *     3rd and 4th from four different game-1 tables and nobody meets a game-1
 *     opponent.
 *   - n_tables == 3: the 4th-placed stay as well; table t gets the 2nd of
 *     t+1 and the 3rd of t+2 (mod 3).  The only game-1 opponents who meet
 *     again are the 1st and 4th of each table, whom the rule keeps together.
 *   - n_tables == 2: 1st and 4th stay; the 2nd and 3rd of each table move
 *     together to the other table.
 * Writes n_tables tables, each in the order 1st, 2nd, 3rd, 4th of game 1.
 *
 * Errors: TNY_ERANGE if n_tables < 2 or 4 * n_tables > TNY_AG_MAX_PLAYERS;
 * TNY_EINVAL if an id repeats. */
TNY_MUST_USE int tny_ag_seat_game2(int32_t n_tables,
                                   const int32_t (*game1_by_place)[4],
                                   int32_t (*tables)[4], struct tny_diag *diag);

/* AG-9: rank-sum seating of a ranked list (preliminary game 3; group B of
 * final game 1).  ranking[0] is rank 1.  With x = n/4 tables, table t
 * (0-based) gets ranks t+1, x+t+1, 3x-t and 4x-t: bands of x ranks seated
 * forward, forward, reversed, reversed, so every table's rank sum is 8x+2
 * (16 players: 1-5-12-16, 2-6-11-15, 3-7-10-14, 4-8-9-13).  With exactly 8
 * players the seed's own tables apply instead: 1-4-5-8 and 2-3-6-7 (also
 * sum 18).  A single table (n == 4) holds ranks 1-4.
 * Writes n/4 tables, each in rank order.
 *
 * Errors: TNY_EINVAL if n is not a multiple of 4 or an id repeats;
 * TNY_ERANGE if n < 4 or n > TNY_AG_MAX_PLAYERS. */
TNY_MUST_USE int tny_ag_seat_rank_sum(int32_t n, const int32_t *ranking,
                                      int32_t (*tables)[4],
                                      struct tny_diag *diag);

/* AG-10 / AG-11: final game 1 for the whole final stage.
 *
 * ranking = the n players of the final stage in preliminary-ranking order,
 * withdrawn players already removed and group-A seats already refilled by
 * the caller (AG-10).  Group A = ranking[0..7], group B = the rest.
 * n_event_players = the number of players in the event (preliminary stage);
 * the seed's "if there are only 8 players" refers to it (with 8 players,
 * game 3 already used 1-4-5-8 / 2-3-6-7).
 *   - group A, table 1 = ranks 1, 4, 5, 8; table 2 = ranks 2, 3, 6, 7;
 *     when n_event_players == 8: table 1 = 1, 2, 7, 8; table 2 = 3, 4, 5, 6;
 *   - group B (ranks 9..n) by tny_ag_seat_rank_sum() within the group,
 *     on tables 3 onwards.
 * Writes n/4 tables, each in rank order.
 *
 * Errors: TNY_EINVAL if n is not a multiple of 4, an id repeats, or
 * n_event_players < n; TNY_ERANGE if n < 8 or n > TNY_AG_MAX_PLAYERS. */
TNY_MUST_USE int tny_ag_seat_final1(int32_t n, const int32_t *ranking,
                                    int32_t n_event_players,
                                    int32_t (*tables)[4],
                                    struct tny_diag *diag);

/* AG-12: final game 2.  ranking_a / ranking_b = group A and group B each
 * re-ranked by the caller (AG-8 criteria; nobody changes group).  Tables of
 * 4 consecutive ranks (1-4, 5-8, 9-12, ...) within each group, group A's
 * tables first.  Writes (n_a + n_b)/4 tables, each in rank order.  A group
 * may be empty (n == 0, its ranking may then be NULL).
 *
 * Errors: TNY_EINVAL if n_a or n_b is not a multiple of 4 or an id repeats
 * (within or across the groups); TNY_ERANGE if n_a or n_b is negative, the
 * total is below 4 or above TNY_AG_MAX_PLAYERS. */
TNY_MUST_USE int tny_ag_seat_final2(int32_t n_a, const int32_t *ranking_a,
                                    int32_t n_b, const int32_t *ranking_b,
                                    int32_t (*tables)[4],
                                    struct tny_diag *diag);

/* AG-4: seat order at a table by lot; shuffles the 4 ids in place
 * (uniform over the 24 orders).  rng: derive for TNY_LOT_SEATS. */
void tny_ag_seat_lot(struct tny_rng *rng, int32_t table[4]);

/* AG-4: the starting player by lot, drawn after the draft: an index 0..3
 * into the table as seated by tny_ag_seat_lot().  The player to the right
 * of the starting player is second, and so on; the 4th player gets one
 * extra food at the start of round 5 (display only, not computed here). */
int32_t tny_ag_starting_player(struct tny_rng *rng);

/* AG-5 / AG-11 (and CT-3): points per seat from VP, ties shared.
 *
 * The player at seat i (i < n_seats) takes place p = 1 + the number of
 * players with more VP; k players with equal VP share the points of the k
 * places they occupy: out[i] = (base[p-1] + ... + base[p+k-2]) / k.
 * base_points_1200[j] = the points of place j+1 in units of 1/TNY_AG_TP_UNIT
 * (e.g. AG-5 preliminary {12000, 7200, 3600, 1200}; final, weight 1.25,
 * {15000, 9000, 4500, 1500}; CT-3 {4800, 3600, 2400, 1200}, 3 seats).
 * The share is exact whenever every base value is a multiple of 12 (all of
 * these are); otherwise it is rounded toward zero.
 *
 * n_seats is 1..4 (programmer error otherwise); vp[i] and
 * base_points_1200[i] for i >= n_seats are not read and out_tp_1200[i] for
 * i >= n_seats is set to 0. */
void tny_ag_placement_points(const int32_t vp[4], int32_t n_seats,
                             const int64_t base_points_1200[4],
                             int64_t out_tp_1200[4]);

/* The two halves of tny_ag_placement_points, for a caller that needs the
 * places too (score.c): above[i] = the players with more VP than seat i,
 * equal[i] = those with the same VP, seat i included; then the points of
 * those places. */
void tny_ag_places(const int32_t vp[4], int32_t n_seats, int32_t above[4],
                   int32_t equal[4]);
void tny_ag_places_points(const int32_t above[4], const int32_t equal[4],
                          int32_t n_seats, const int64_t base_points_1200[4],
                          int64_t out_tp_1200[4]);

#endif
