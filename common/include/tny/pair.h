/* pair.h - the next round of an event: pairings, seating, table numbers.
 *
 * Picks the stage (moving Swiss -> cut -> elimination, AG prelim -> final
 * groups, by itself once the previous stage is complete), then the stage's
 * strategy: Swiss matching, re-seeded or folded elimination, Agricola
 * seating, Gorn tables, round robin.  Table numbers follow CM-9 (top of the
 * standings on table 1).  Every lot comes from the event seed (CM-4), so the
 * same event gives the same round byte for byte.  The result explains which
 * constraints held and which were relaxed, for the arbiter.
 */
#ifndef TNY_PAIR_H
#define TNY_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"

struct tny_pairing_table {
    int32_t number; /* CM-9, 1-based; 0 for a bye */
    bool is_bye;
    int32_t n_seats;
    int32_t seats[TNY_MAX_SEATS]; /* seat order (AG-4 lot applied) */
    int32_t first_seat;           /* AG-4 starting player seat, else -1 */
    bool has_sides;               /* format with sides: side[] is set */
    int8_t side[TNY_MAX_SEATS];   /* seat i plays format.sides[side[i]] */
};

struct tny_round_plan {
    int32_t round; /* 1-based number of the round planned */
    enum tny_stage_kind stage;
    int32_t stage_index; /* index into format.stages */
    int32_t n_tables;
    struct tny_pairing_table *tables; /* tables by number, byes last */
    char *explain; /* heap text: constraints held / relaxed */
};

/* Plans round ev->n_rounds + 1.  Errors: TNY_ESTATE (a round is still in
 * progress, or the event is complete: diag says which), TNY_EINVAL (the
 * field cannot be seated: e.g. AG needs a multiple of 4 players, diag says
 * why), TNY_ENOMEM. */
TNY_MUST_USE int tny_pair_next(const struct tny_event *ev,
                               struct tny_round_plan *out,
                               struct tny_diag *diag);

void tny_round_plan_release(struct tny_round_plan *plan);

/* Appends the planned round (seats and table numbers, no results) as the
 * event's next round.  Errors: TNY_ENOMEM, TNY_EINVAL (plan->round is not
 * ev->n_rounds + 1). */
TNY_MUST_USE int tny_event_append_round(struct tny_event *ev,
                                        const struct tny_round_plan *plan);

/* *complete: every round of ev has its results and every stage of the
 * format has been played (tny_pair_next would refuse: "event is
 * complete"); the standings are then the final classification.  Errors:
 * those of tny_stage_size (an attendance outside the GT-5 table). */
TNY_MUST_USE int tny_event_complete(const struct tny_event *ev, bool *complete,
                                    struct tny_diag *diag);

/* CM-5 pre-publish edits.  Swaps the seats of two players (at different
 * tables, the same table, or with the bye).  Errors: TNY_ENOTFOUND (a
 * player is not in the plan), TNY_EINVAL (a == b). */
TNY_MUST_USE int tny_round_plan_swap(struct tny_round_plan *plan, int32_t a,
                                     int32_t b, struct tny_diag *diag);

/* CM-5 with sides (issue 19): after a swap put new opponents at table
 * index t of plan (a round planned for ev), sets the table's sides by the
 * pairing's rule (docs/rules.md "Sides"): a pair that met once before
 * with sides, where the format allows the swapped rematch, plays the
 * other sides; else the balance, then the alternation rule; where those
 * do not decide, the table keeps the sides it had (its lot).  A pair that
 * met otherwise is left as it is (the validator names the rematch).
 * Nothing for a format without sides, a bye or a table of other than 2.
 * Errors: TNY_EINVAL (t outside the plan), TNY_ENOMEM. */
TNY_MUST_USE int tny_round_plan_sides(const struct tny_event *ev,
                                      struct tny_round_plan *plan, int32_t t,
                                      struct tny_diag *diag);

/* CM-5: gives the table numbered `from` the number `to`; a table already
 * numbered `to` takes `from` (numbers stay unique).  Errors: TNY_ENOTFOUND
 * (no table `from`), TNY_EINVAL (to < 1). */
TNY_MUST_USE int tny_round_plan_move(struct tny_round_plan *plan, int32_t from,
                                     int32_t to, struct tny_diag *diag);

#endif
