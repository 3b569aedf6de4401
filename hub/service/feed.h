/* feed.h - the public JSON feed (feed.c): its documents, the heartbeat,
 * and which events' feeds are due.  Calls publish.c, events.c, devices.c,
 * the outbox and the store only.
 */
#ifndef HUB_SERVICE_FEED_H
#define HUB_SERVICE_FEED_H

#include "service_internal.h"

/* Appends tourney/v1/feed/{ev}/{event,pairings,tables,standings,bracket}
 * (docs/feed.md).  Errors: TNY_ENOMEM, TNY_ESTATE. */
TNY_MUST_USE int hub_feed_publish(struct hub_service *svc, struct hub_ev *e,
                                  int64_t now_ms, struct hub_outbox *ob,
                                  struct tny_diag *diag);
/* Appends the non-retained tourney/v1/feed/{ev}/now heartbeat
 * {"hub_now_ms", "round"} of every event whose feed was built with its
 * round started and the round clock running (docs/feed.md).  Errors:
 * TNY_ENOMEM. */
TNY_MUST_USE int hub_feed_heartbeat(struct hub_service *svc, int64_t now_ms,
                                    struct hub_outbox *ob);

#endif
