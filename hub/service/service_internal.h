/* service_internal.h - what the service's files share (not public): the
 * device registry, the per-event cache and the helpers that publish
 * retained state.  hub/include/hub/service.h is the contract.
 *
 * Invariants: devices[] is sorted by id (free devices are handed out in
 * that order); an event entry exists for every event of the store (made
 * at start-up and by create_event) and is never removed, so struct
 * hub_ev pointers stay valid for the service's life; e->loaded means e->ev
 * and e->info are the store's projection as of the last write.
 */
#ifndef HUB_SERVICE_INTERNAL_H
#define HUB_SERVICE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hub/service.h"
#include "store.h"
#include "tny/event.h"
#include "tny/wire.h"

struct hub_device {
    char id[HUB_STORE_ID_MAX + 1];
    char event[HUB_STORE_ID_MAX + 1]; /* "" = not assigned */
    int32_t table;                    /* physical table; 0 = none */
    int state;                        /* enum tny_wire_presence_state, 0 */
    int32_t queued;                   /* Presence.queued_results */
    uint64_t shown_version;           /* Presence.last_assignment_version */
    uint64_t version;                 /* last assignment version sent */
    char software[TNY_WIRE_ID_MAX + 1];
    char detail[TNY_WIRE_TEXT_MAX + 1];
    int64_t last_seen_ms;
    int64_t device_time_ms;
};

/* In-memory facts about one table of an event's current round that the
 * engine event does not carry. */
struct hub_table_state {
    int32_t number;
    int32_t first_seat; /* AG-4, -1 none/unknown */
    bool pending;       /* an unconfirmed result is stored */
    bool conflict;      /* a conflicting submission waits for the organiser */
};

struct hub_extension {
    int32_t round, table;
    int64_t total_ms;
    int64_t start_delay_ms; /* AG-14: round time run at the table's draft
                               start, -1 = not started */
};

struct hub_ev {
    char id[HUB_STORE_ID_MAX + 1];
    bool loaded;
    struct tny_event ev;         /* valid when loaded */
    struct hub_event_info info;  /* valid when loaded */
    struct hub_round_info round; /* current round (ev.n_rounds); number 0
                                    when none */
    /* Table states of round state_round (0 = not built). */
    int32_t state_round;
    int32_t n_tables;
    struct hub_table_state *tables;
    int32_t n_ext, cap_ext;
    struct hub_extension *ext;
    /* The current round's clock as last read or saved (clock_round = the
     * round it belongs to, 0 = not cached). */
    int32_t clock_round;
    struct tny_round_clock clock;
    bool feed_dirty;
    bool clock_expired_seen; /* tick: overdue already flagged */
    int64_t tick_ms;         /* the last tick (AG-14 table deadlines) */
    /* The feed's event document: a hash of its content and when that
     * content last changed (its updated_ms; feed.c). */
    uint64_t feed_event_hash;
    int64_t feed_event_ms;
};

struct hub_reply_entry {
    char console[TNY_WIRE_ID_MAX + 1];
    char corr[TNY_WIRE_ID_MAX + 1];
    uint8_t *bytes;
    size_t len;
};

struct hub_service {
    struct hub_store *store;
    struct hub_service_options opt;
    char prefix[32];
    int32_t n_devices, cap_devices;
    struct hub_device *devices;
    int32_t n_events, cap_events;
    struct hub_ev **events;
    int32_t n_replies, next_reply;
    struct hub_reply_entry *replies;
    uint64_t last_version;
    /* Versions up to this one are reserved in the store (counter
     * "version"): a restarted hub starts above it. */
    uint64_t version_reserved;
    struct hub_service_stats stats;
    /* Incremental republish (hub_service_republish_step): phase 0 devices
     * from rp_next, phase 1 event clocks from rp_next. */
    bool rp_active;
    int32_t rp_phase, rp_next;
};

/* ---- registry and cache (service.c) ---------------------------------- */

struct hub_device *hub__device_find(struct hub_service *svc, const char *id);
/* True when id is a device login (prefix + 1..9 digits). */
bool hub__device_login(const struct hub_service *svc, const char *id);
/* Registers id in the store (if new) and the registry.  Errors: those of
 * hub_store_device_register, TNY_ENOMEM. */
TNY_MUST_USE int hub__device_ensure(struct hub_service *svc, const char *id,
                                    const char *actor, struct hub_device **out,
                                    struct tny_diag *diag);
/* Re-reads the device's assignment from the store. */
TNY_MUST_USE int hub__device_refresh(struct hub_service *svc,
                                     struct hub_device *d,
                                     struct tny_diag *diag);

struct hub_ev *hub__ev_find(struct hub_service *svc, const char *id);
/* Adds an entry for a new event (not loaded).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_add(struct hub_service *svc, const char *id,
                             struct hub_ev **out);
/* The event, loaded.  Errors: TNY_ENOTFOUND (no such event), TNY_ESTATE,
 * TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_get(struct hub_service *svc, const char *id,
                             struct hub_ev **out, struct tny_diag *diag);
/* Drops the projection after a write (the next hub__ev_get reloads) and
 * marks the feed dirty. */
void hub__ev_invalidate(struct hub_ev *e);
/* The table of the current round numbered `number`, or NULL. */
struct tny_table *hub__ev_table(struct hub_ev *e, int32_t number);
struct hub_table_state *hub__ev_table_state(struct hub_ev *e, int32_t number);
/* The event's devices by table number: (*out)[t] is the device assigned to
 * table t (NULL: none), for t < *n; free(*out).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_devices_by_table(struct hub_service *svc,
                                          const struct hub_ev *e,
                                          struct hub_device ***out, int32_t *n);
/* The total judge's extension of a table in a round (0 = none). */
int64_t hub__ev_extension(const struct hub_ev *e, int32_t round, int32_t table);
TNY_MUST_USE int hub__ev_set_extension(struct hub_ev *e, int32_t round,
                                       int32_t table, int64_t total_ms);

/* AG-14: each table's clock starts with its own draft (an Agricola format
 * with a draft). */
bool hub__ev_per_table_start(const struct hub_ev *e);
/* AG-14: the table's start delay in a round (-1 = draft not started). */
int64_t hub__ev_start_delay(const struct hub_ev *e, int32_t round,
                            int32_t table);
TNY_MUST_USE int hub__ev_set_start_delay(struct hub_ev *e, int32_t round,
                                         int32_t table, int64_t delay_ms);
/* One table's clock reading at now_ms: the round clock c with the table's
 * extension and, in an AG-14 round, shifted by its draft start. */
void hub__table_clock(const struct hub_ev *e, const struct tny_round_clock *c,
                      int32_t round, int32_t table, int64_t now_ms,
                      struct tny_clock_msg *out);

uint64_t hub__next_version(struct hub_service *svc, int64_t now_ms);

/* ---- retained state (publish.c) -------------------------------------- */

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
/* Every device of the event. */
TNY_MUST_USE int hub__publish_event_devices(struct hub_service *svc,
                                            struct hub_ev *e, int64_t now_ms,
                                            struct hub_outbox *ob,
                                            struct tny_diag *diag);
/* The event's RoundClock (nothing when it has no published round). */
/* AG-14: table `table` of e started its draft in `round` (service.c). */
TNY_MUST_USE int hub__draft_start(struct hub_service *svc, struct hub_ev *e,
                                  int32_t round, int32_t table,
                                  const char *actor, int64_t now_ms,
                                  struct hub_outbox *ob, struct tny_diag *diag);
TNY_MUST_USE int hub__publish_clock(struct hub_service *svc, struct hub_ev *e,
                                    int64_t now_ms, struct hub_outbox *ob,
                                    struct tny_diag *diag);
/* The event-file result object of a wire result (ids kept), malloc'd
 * compact JSON.  Errors: TNY_ENOMEM, TNY_EINVAL (a game it cannot
 * carry). */
TNY_MUST_USE int hub__result_json(const struct tny_wire_result *r, char **out,
                                  struct tny_diag *diag);

/* ---- console (console.c) --------------------------------------------- */

/* Runs one decoded request for console_id; fills *rep (rep->json
 * malloc'd, the caller frees it).  Returns 0 when a reply was made (errors
 * of the command included: rep->rc); < 0 only when no reply must be sent
 * (the store failed in a way the console should retry: never, today). */
TNY_MUST_USE int hub__console_run(struct hub_service *svc,
                                  const char *console_id,
                                  const struct tny_wire_request *req,
                                  int64_t now_ms, struct hub_outbox *ob,
                                  struct tny_wire_reply *rep);

/* ---- feed (hub/feed.c) ----------------------------------------------- */

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

/* NH-11 for a candidate result's players (army use spans rounds), the
 * candidate (table mapped, of round `round`) put in e's event for the
 * check: the rest of the event is valid, so the candidate's own checks
 * (the wire mapping runs tny_result_validate) and this are the whole of
 * CM-6.  TNY_EINVAL with why "result.armies.<player>: ..." when refused. */
int hub__armies_check(struct hub_ev *e, int32_t round,
                      const struct tny_table *mapped, char *why, size_t cap);

#endif
