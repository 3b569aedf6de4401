/* presence.h - a table device's presence and AG-14 draft start
 * (presence.c).  Calls publish.c, events.c, devices.c and the store only.
 */
#ifndef HUB_SERVICE_PRESENCE_H
#define HUB_SERVICE_PRESENCE_H

#include "service_internal.h"

/* AG-14: table `table` of e started its draft in `round` (reported by the
 * table's device or by an organiser's clock_draft command). */
TNY_MUST_USE int hub__draft_start(struct hub_service *svc, struct hub_ev *e,
                                  int32_t round, int32_t table,
                                  const char *actor, int64_t now_ms,
                                  struct hub_outbox *ob, struct tny_diag *diag);

#endif
