/* console.h - the organiser's commands (console.c).  Called by requests.c
 * only; calls presence.c, publish.c, events.c, devices.c, players_csv.c and
 * the store.
 */
#ifndef HUB_SERVICE_CONSOLE_H
#define HUB_SERVICE_CONSOLE_H

#include "service_internal.h"

/* Runs one decoded request for console_id; fills *rep (rep->json
 * malloc'd, the caller frees it).  Returns 0 when a reply was made (errors
 * of the command included: rep->rc); < 0 only when no reply must be sent
 * (the store failed in a way the console should retry: never, today). */
TNY_MUST_USE int hub__console_run(struct hub_service *svc,
                                  const char *console_id,
                                  const struct tny_wire_request *req,
                                  int64_t now_ms, struct hub_outbox *ob,
                                  struct tny_wire_reply *rep);

#endif
