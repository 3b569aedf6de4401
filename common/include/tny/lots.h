/* lots.h - every lot of an event with its purpose and outcome (CM-4).
 *
 * "The seed and each draw are recorded": the engine's lots are streams of
 * the event's generator (rng.h: one per purpose and round), so the event
 * file is their record; this module writes them out for people, each with
 * what it decided: the round-1 seating (pairing, bye, AG-3 seeding, CT-1
 * and CT-2 tables), GT-8's bracket numbering, AG-4's seat orders and the
 * hub's starting players (replayed from the seats stream), the lots the
 * tables drew and
 * reported with their results (NH-12, NH-14, TX-11, CT-9, AG-4, GT first
 * player), and the standings' tiebreak lot with the rows it settled.
 * Pure: no I/O.
 */
#ifndef TNY_LOTS_H
#define TNY_LOTS_H

#include "tny/error.h"
#include "tny/event.h"

/* The lots of ev as text lines (malloc'd in *out; free()).  Errors:
 * TNY_ENOMEM, those of tny_standings_compute. */
TNY_MUST_USE int tny_lots_text(const struct tny_event *ev, char **out,
                               struct tny_diag *diag);

#endif
