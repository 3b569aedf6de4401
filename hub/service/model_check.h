/* model_check.h - issue 17's checking mode (model_check.c): the model of
 * an event against a fresh load from the store. */
#ifndef HUB_SERVICE_MODEL_CHECK_H
#define HUB_SERVICE_MODEL_CHECK_H

#include <stddef.h>

#include "service_internal.h"

/* Compares e (when loaded) with a fresh load of its event: players,
 * drops, rounds, tables, seats, results, the event and round rows, table
 * states, extensions, the current round's clock and the cached draft.
 * TNY_OK: the same (msg ""); TNY_ESTATE: msg (cap bytes) names the first
 * difference; other errors: the fresh load failed (msg says why). */
TNY_MUST_USE int hub__model_compare(struct hub_service *svc, struct hub_ev *e,
                                    char *msg, size_t cap);
/* With the service's model_check option (TNY_MODEL_CHECK=1 in the hub's
 * environment): compares every
 * loaded event and aborts on the first difference (after: what just ran,
 * for the message).  Otherwise does nothing. */
void hub__model_check(struct hub_service *svc, const char *after);

#endif
