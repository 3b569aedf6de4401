/* game.h - the engine's view of one assigned table: a minimal event built
 * from a TableAssignment (the format preset and the seated players), used
 * to read a result the players typed, to check it with the engine's own
 * tny_result_validate (the hub runs the same check) and to draw a random
 * valid result in --simulate mode.
 *
 * Not here: the state machine (core.h), MQTT, the outbox.  The table
 * cannot know the event's options or earlier rounds, so its check is the
 * format's (preset) and this table's; the hub's answer is final.
 *
 * Invariants: after tbl_game_from_assignment succeeds, ev has the format
 * (preset, options the assignment implies) and exactly the seated players
 * in seat order, no rounds; table seats players 0..n-1 in seat order.
 */
#ifndef TBL_GAME_H
#define TBL_GAME_H

#include "tny/event.h"
#include "tny/rng.h"
#include "tny/wire.h"

struct tbl_game {
    struct tny_event ev;
    struct tny_table table;
    enum tny_stage_kind stage;
    int32_t round;
};

/* Builds *out from an assignment with a table (not idle).  The format is
 * the preset named format_name when it exists and plays the assignment's
 * game, else the game's own preset; a round_robin stage turns on the
 * "pairing" option; the elimination stage's best_of_three follows the
 * assignment.  Seat armies unknown to the format are left out.
 * Errors: TNY_EINVAL (idle assignment; a stage the format lacks),
 * TNY_ENOTFOUND (no preset for the game), TNY_ENOMEM.  *out is empty
 * (releasable) on error. */
TNY_MUST_USE int tbl_game_from_assignment(const struct tny_wire_assignment *a,
                                          struct tbl_game *out,
                                          struct tny_diag *diag);

/* Frees what g owns and zeroes it (safe on a zeroed struct). */
void tbl_game_release(struct tbl_game *g);

/* Reads a result typed at the table: a JSON object in the event file's
 * result format (docs/event-file.md "Results", keyed by player id) or the
 * same in key=value form (text.h), checks it with tny_result_validate and
 * converts it to the wire form.
 * Errors: TNY_EINVAL with diag "result.vp.p7: why" (paths as in the event
 * file, with "result" for "event.rounds[0].tables[0].result"),
 * TNY_ENOMEM. */
TNY_MUST_USE int tbl_game_parse_result(const struct tbl_game *g,
                                       const char *text,
                                       struct tny_wire_result *out,
                                       struct tny_diag *diag);

/* A random valid result for the table (tny_simulate_result), in the wire
 * form.  Errors: those of tny_simulate_result and
 * tny_wire_result_from_table. */
TNY_MUST_USE int tbl_game_simulate(const struct tbl_game *g,
                                   struct tny_rng *rng,
                                   struct tny_wire_result *out,
                                   struct tny_diag *diag);

#endif
