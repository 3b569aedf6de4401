/* results.h - what results.c offers the layer above it (the organiser's
 * entries in console.c): the NH-11 part of CM-6 on a candidate result. */
#ifndef HUB_SERVICE_RESULTS_H
#define HUB_SERVICE_RESULTS_H

#include "service_internal.h"

/* NH-11 for a candidate result's players (army use spans rounds), the
 * candidate (table mapped, of round `round`) put in e's event for the
 * check: the rest of the event is valid, so the candidate's own checks
 * (the wire mapping runs tny_result_validate) and this are the whole of
 * CM-6.  TNY_EINVAL with why "result.armies.<player>: ..." when refused. */
int hub__armies_check(struct hub_ev *e, int32_t round,
                      const struct tny_table *mapped, char *why, size_t cap);

#endif
