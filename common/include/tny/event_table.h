/* event_table.h - checks of one table of an event against the rest of the
 * event, for callers that validate a single new result (the hub) and must
 * not pay for tny_event_validate on the whole event per submission.
 *
 * Not here: the result's own shape and ranges (tny_result_validate), seats,
 * stage order (tny_event_validate).  Pure: reads the event, no allocation.
 * Invariant: on an event where tny_event_validate accepted every table but
 * (r, t), a table passes tny_result_validate and this check exactly when
 * the NH-11 part of tny_event_validate accepts the event.
 */
#ifndef TNY_EVENT_TABLE_H
#define TNY_EVENT_TABLE_H

#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"

/* NH-11 army use for the players of table t (0-based) of round r (0-based)
 * only, with that table's result in place: none of them played the same
 * army twice in the same kind of stage (Swiss / knockout) unless the NH-12
 * beginner exception covers the later of the two rounds, and no non-beginner
 * uses more than (knockout rounds + 1) distinct knockout armies.  A table
 * without result, a bye, a game other than Neuroshima Hex or a format
 * without armies passes.  Cost: one pass over the event's tables, no
 * allocation.  Errors: TNY_EINVAL with diag
 * "event.rounds[R].tables[T].result.armies.<player>: ... (NH-11)" (R, T of
 * the checked table), TNY_ERANGE when r or t is outside the event. */
TNY_MUST_USE int tny_event_validate_table_armies(const struct tny_event *ev,
                                                 int32_t r, int32_t t,
                                                 struct tny_diag *diag);

#endif
