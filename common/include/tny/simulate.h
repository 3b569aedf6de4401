/* simulate.h - random but valid results, for demos, load tests and
 * property tests.
 *
 * Draws a result for a seated table that tny_result_validate accepts:
 * NH wins/draws with HQ differences and armies the players still have
 * (NH-11), Tantrix scores and clocks, Agricola VP/IP/BP, GoT winners (Bo3
 * games in elimination), Catan VP with a 10-point winner.  A stronger
 * rating wins more often.  Pure: randomness only from the rng passed in.
 */
#ifndef TNY_SIMULATE_H
#define TNY_SIMULATE_H

#include "tny/event.h"
#include "tny/rng.h"

/* Fills table->result (and has_result) for round_index (0-based) of ev,
 * whose tables already hold the seats.  The round need not be appended to
 * ev->rounds yet when round_index == ev->n_rounds.  Errors: TNY_EINVAL
 * (a table the format cannot hold). */
TNY_MUST_USE int
tny_simulate_result(const struct tny_event *ev, int32_t round_index,
                    enum tny_stage_kind stage, struct tny_table *table,
                    struct tny_rng *rng, struct tny_diag *diag);

/* NH-11: every player who registered armies (not a beginner) and has not
 * declared knockout armies yet declares tny_nh_knockout_army_count of
 * them, drawn from rng; nothing once a knockout round exists or when the
 * format has no knockout.  What an organiser records for a simulated
 * event before its first knockout round. */
void tny_simulate_declarations(struct tny_event *ev, struct tny_rng *rng);

/* Plays up to n_rounds more rounds of ev (declarations included, see
 * tny_simulate_declarations): pairs each with tny_pair_next,
 * appends it and fills every table with tny_simulate_result.  Stops early,
 * returning TNY_OK, when the event is complete; *played (may be NULL)
 * receives the number of rounds added.  Errors: those of tny_pair_next and
 * tny_simulate_result. */
TNY_MUST_USE int tny_simulate_rounds(struct tny_event *ev, int32_t n_rounds,
                                     struct tny_rng *rng, int32_t *played,
                                     struct tny_diag *diag);

#endif
