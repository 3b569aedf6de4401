/* publish.h - the retained state the hub publishes to tables (publish.c):
 * assignments, round clocks, and the wire result -> event-file JSON
 * mapping.  Calls events.c, devices.c, the outbox and the store only.
 */
#ifndef HUB_SERVICE_PUBLISH_H
#define HUB_SERVICE_PUBLISH_H

#include "service_internal.h"

/* The round clock of the event's current round: the stored one, or a
 * READY clock of the stage's length when none was saved.  Errors:
 * TNY_ESTATE, TNY_EINVAL (no current round). */
TNY_MUST_USE int hub__round_clock(struct hub_service *svc, struct hub_ev *e,
                                  struct tny_round_clock *out,
                                  struct tny_diag *diag);
/* Saves the current round's clock (and caches it).  Errors: those of
 * hub_store_save_clock. */
TNY_MUST_USE int hub__save_clock(struct hub_service *svc, struct hub_ev *e,
                                 const struct tny_round_clock *c,
                                 const char *actor, struct tny_diag *diag);
/* The round's length in ms from the format (0 = no limit). */
int64_t hub__round_length_ms(const struct hub_ev *e);
/* Appends the device's assignment: seated or idle when its event has a
 * published round, else a zero-length retained message (clears it). */
TNY_MUST_USE int hub__publish_device(struct hub_service *svc,
                                     struct hub_device *d, int64_t now_ms,
                                     struct hub_outbox *ob,
                                     struct tny_diag *diag);
/* Checks, before the draft round plan of e is published, that every
 * playing table's assignment can be sent (the wire refuses a control
 * character or bad UTF-8 in a player's name, club, faction...): publishing
 * is then all or nothing.  Errors: TNY_EINVAL ("round N not published:
 * table T cannot be sent to its device (player ID: why)"), TNY_ENOMEM. */
TNY_MUST_USE int hub__check_plan_assignments(const struct hub_ev *e,
                                             const struct tny_round_plan *plan,
                                             struct tny_diag *diag);

/* Every device of the event. */
TNY_MUST_USE int hub__publish_event_devices(struct hub_service *svc,
                                            struct hub_ev *e, int64_t now_ms,
                                            struct hub_outbox *ob,
                                            struct tny_diag *diag);
/* The event's RoundClock (nothing when it has no published round). */
TNY_MUST_USE int hub__publish_clock(struct hub_service *svc, struct hub_ev *e,
                                    int64_t now_ms, struct hub_outbox *ob,
                                    struct tny_diag *diag);
/* The event-file result object of a wire result (ids kept), malloc'd
 * compact JSON.  Errors: TNY_ENOMEM, TNY_EINVAL (a game it cannot
 * carry). */
struct hub_jw;
/* The same object written to w (feed_json.h) as a value. */
TNY_MUST_USE int hub__result_write(struct hub_jw *w,
                                   const struct tny_wire_result *r,
                                   struct tny_diag *diag);
TNY_MUST_USE int hub__result_json(const struct tny_wire_result *r, char **out,
                                  struct tny_diag *diag);

#endif
