/* service_internal.h - the service's state (not public): the device
 * registry, the per-event cache and the console reply cache, shared by the
 * files of hub/service/.  hub/include/hub/service.h is the contract; the
 * functions of each layer are declared in that layer's header (devices.h,
 * events.h, publish.h, presence.h, console.h, feed.h; layer order in
 * docs/architecture.md).
 *
 * Invariants: devices[] is sorted by id (free devices are handed out in
 * that order); an event entry exists for every event of the store (made
 * at start-up and by create_event) and is removed only once the event's
 * deletion committed (issue 22, hub__ev_remove at the end of the console
 * command), so struct hub_ev pointers stay valid for the service's life
 * otherwise; e->loaded means e->ev
 * and e->info are the store's projection as of the last write.
 */
#ifndef HUB_SERVICE_INTERNAL_H
#define HUB_SERVICE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hub/service.h"
#include "store.h"
#include "tny/event.h"
#include "tny/pair.h"
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
    /* Presence received but not yet written (hub_service_presence_flush):
     * online or not, at last_seen_ms. */
    bool presence_dirty;
    bool presence_online;
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
    /* Issue 22: the judge paused this table when the round clock had run
     * this long (tny_round_clock_elapsed), -1 = not paused.  Its time
     * stands still: resuming adds the round time run since to total_ms. */
    int64_t paused_elapsed_ms;
};

struct hub_feed_cache; /* feed.c */

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
    /* What this service's feed last built for the event (feed.c): only
     * documents whose content changed are built again; feed_full: the
     * next build sends every document (after a reconnect). */
    struct hub_feed_cache *feed_cache;
    bool feed_full;
    /* Issue 23: the generation of each round (by index) in the last
     * snapshot handed to the feed builder (hub_service_feed_next), whose
     * copy of them the next snapshot need not carry again. */
    int32_t n_feed_sent;
    uint64_t *feed_sent;
    /* Issue 17 item 2: the players' generation (a new value after every
     * change of ev.players: hub__ev_players_changed, a load), and the one
     * the last feed snapshot carried (0: none), so a snapshot copies the
     * 2,000 players only when they changed (2.2 M instructions a build
     * after each result).  players_omitted: in a snapshot whose players
     * were left out, their number (ev.n_players is then 0; the builder
     * moves its own copy in). */
    uint64_t players_gen, feed_players_sent;
    /* The last feed build left player documents for the next one
     * (hub_service_options.feed_piece_bytes). */
    bool feed_more;
    /* Issue 17 item 2: the event's feed is due at this time (hub clock;
     * 0 none) whether or not it is dirty: the aggregate documents a build
     * left for the end of its window (hub_service_options.
     * feed_aggregate_ms). */
    int64_t feed_later_ms;
    int32_t players_omitted;
    /* Model check only: players_gen and a hash of the players at the last
     * check (changed players under the same generation: a missed
     * hub__ev_players_changed). */
    uint64_t players_seen_gen, players_seen_hash;
    /* Issue 23, model check only: each round's generation and content
     * hash at the last check (a round whose content changed under the
     * same generation is a change the feed would miss). */
    int32_t n_gen_seen;
    struct hub_gen_seen {
        uint64_t gen, hash;
    } * gen_seen;
    /* Issue 17: the draft round as stored (draft_cached; round 0 and no
     * tables = no draft), kept so that show, edits and publish need not
     * read it back; dropped with the projection. */
    bool draft_cached;
    struct tny_round_plan draft;
};

/* Frees what feed.c keeps of an event's last build (NULL: nothing). */
void hub__feed_cache_free(struct hub_feed_cache *c);

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
    /* Feed builder only (issue 17 item 2): counts the builds that set
     * the registry from a snapshot's devices (feed.c). */
    uint64_t feed_registry_sets;
    /* Issue 17 item 2: while true (hub_service_flush) a feed build writes
     * the aggregate documents whatever their window (feed.c). */
    bool feed_agg_now;
    int32_t n_events, cap_events;
    struct hub_ev **events;
    int32_t n_replies, next_reply;
    struct hub_reply_entry *replies;
    size_t reply_bytes; /* held by replies[].bytes (REPLY_CACHE_BYTES) */
    uint64_t last_version;
    /* Versions up to this one are reserved in the store (counter
     * "version"): a restarted hub starts above it. */
    uint64_t version_reserved;
    struct hub_service_stats stats;
    /* Incremental republish (hub_service_republish_step): phase 0 devices
     * from rp_next, phase 1 event clocks from rp_next. */
    bool rp_active;
    int32_t rp_phase, rp_next;
    int32_t n_presence_dirty; /* devices with presence_dirty */
    /* Issue 17: options.model_check (tests): the model is compared with a
     * fresh load after every console command and result batch. */
    bool model_check;
    /* Issue 20: what the broker and the pages were last told of each
     * sign-in code (codes.c). */
    struct hub_code_seen *code_seen;
    int32_t n_code_seen, cap_code_seen;
};

#endif
