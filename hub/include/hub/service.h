/* service.h - the hub's use cases: table results (CM-6), device presence,
 * organiser console commands, and the retained state the hub publishes
 * (table assignments, round clocks, the JSON feed), as functions from
 * decoded inputs to messages to publish (docs/protocol.md, docs/feed.md).
 *
 * A service owns no connection: every entry point takes the received
 * topic and payload and appends what must be published to a struct
 * hub_outbox, so the whole hub can be driven without a broker (tests, the
 * loop in hub_loop.c).  Every change goes through the store (one
 * transaction each, hub/store/store.h) and the answer is appended only
 * after its commit: an outbox message never promises what is not on disk.
 * When the store fails (disk full, I/O) the entry point returns the error
 * and appends no answer; the peer's resend tries again.
 *
 * Not here: MQTT, sockets, timers, signals, configuration files.
 *
 * Threads: a service belongs to the one thread that owns state (the hub
 * loop); nothing here is thread-safe.  The store passed to hub_service_new
 * is borrowed and must outlive the service.
 *
 * Invariants: a device is in the registry iff the store has it; the event
 * cache is the store's projection (dropped after every write to the
 * event); assignment and clock versions never decrease, also across
 * restarts: each is max(previous + 1, now_ms on the hub's UTC clock), and
 * the service reserves them in the store in blocks of 2^20 (a store
 * counter, one small write per block), starting after the last reserved
 * block when it starts, so a wall clock that went back does not make a
 * restarted hub publish versions the tables already passed.
 */
#ifndef HUB_SERVICE_H
#define HUB_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

struct hub_store;

/* Longest device or event id in a feed snapshot (the store's ids). */
#define HUB_FEED_ID_MAX 64

/* Longest topic the service publishes (feed topics included), with NUL. */
#define HUB_TOPIC_MAX 160

/* One message to publish (QoS 1).  payload is malloc'd (NULL with len 0:
 * a zero-length retained message clears the topic). */
struct hub_msg {
    char topic[HUB_TOPIC_MAX];
    uint8_t *payload;
    size_t len;
    bool retained;
};

/* A growable list of messages, in publishing order. */
struct hub_outbox {
    struct hub_msg *msgs;
    int32_t n, cap;
    /* TNY_ESTORE when the call answered a storage failure (a console
     * command the store failed: its reply says so) or met one after it
     * answered (the checkpoint after a round's close); 0 else.  With the
     * call's own TNY_ESTORE it raises the hub's store alarm. */
    int store_rc;
};

void hub_outbox_init(struct hub_outbox *ob);
/* Frees every payload and the array; *ob is then empty (re-usable). */
void hub_outbox_release(struct hub_outbox *ob);
/* Appends a message; payload is consumed (freed on error too).
 * Errors: TNY_ENOMEM, TNY_EINVAL (topic longer than HUB_TOPIC_MAX - 1). */
TNY_MUST_USE int hub_outbox_add(struct hub_outbox *ob, const char *topic,
                                uint8_t *payload, size_t len, bool retained);

struct hub_service_options {
    /* Device logins the hub registers on their first message: the prefix
     * followed by 1..9 digits ("table-" + "001").  Anything else on a
     * device topic is ignored (organisers and monitors could write
     * device/<their login>/... under the broker's pattern ACL). */
    const char *device_prefix;
    bool feed;           /* publish tourney/v1/feed/{ev}/... */
    int32_t reply_cache; /* console replies remembered per hub (1..) */
    /* Seed for create_event without one (CM-4: recorded with the event);
     * NULL: read /dev/urandom. */
    uint64_t (*draw_seed)(void *arg);
    void *draw_seed_arg;
    /* Issue 20: the hub has a table-page listener to provision sign-in
     * codes on (play_broker_uri); false: code issue is refused, naming
     * the setting.  Default true. */
    bool codes;
    /* Issue 17, for tests: compare the model with a fresh load from the
     * store after every command and result batch (model_check.h); the
     * hub sets it from TNY_MODEL_CHECK=1 in its environment.  Default
     * false. */
    bool model_check;
    /* Issue 17 item 2: the most bytes of player/ID documents one feed
     * build writes (at least one document); the others wait for the next
     * build, which comes at once (hub_feed_snapshot.more).  A round's
     * publication or completion changes every player's document, each
     * with the player's whole history: written all at once, players x
     * rounds of text were held in one build.  Default 1 MiB; 0 = no
     * limit. */
    size_t feed_piece_bytes;
    /* Issue 17 item 2: the aggregate documents (`tables`, `standings`,
     * `pairings`, `bracket`) are built at most once per this many ms of
     * the build's clock, coalescing every change in the window; a build
     * within it writes the table/N, player/ID and event documents only
     * and leaves the aggregates for a build at the window's end
     * (hub_feed_snapshot.later_ms).  A new round, a round status or clock
     * state change, a republish and hub_service_flush build them at
     * once.  Default 0: with every build. */
    int64_t feed_aggregate_ms;
};

/* Fills defaults: prefix "table-", feed on, 1024 replies, /dev/urandom,
 * codes on. */
void hub_service_options_init(struct hub_service_options *o);

struct hub_service;

/* Creates the service over store (borrowed) and rebuilds the in-memory
 * registry from it (devices, table extensions, results pending or in
 * conflict of the rounds in play).  Errors: TNY_ESTATE (the store failed),
 * TNY_ENOMEM, TNY_EINVAL (bad options). */
TNY_MUST_USE int hub_service_new(struct hub_store *store,
                                 const struct hub_service_options *opt,
                                 struct hub_service **out,
                                 struct tny_diag *diag);
void hub_service_free(struct hub_service *svc);

/* Issue 20: appends to ob one message on $CONTROL/dynamic-security/v1
 * holding the broker's commands for every sign-in code in the store
 * (create the valid ones' logins, delete the revoked ones'): the hub's
 * loop sends it whenever its play-admin connection comes up, so the
 * broker's logins follow the store whatever was lost.  Nothing when
 * there is no code.  Errors: TNY_ENOMEM, TNY_ESTATE (the store). */
TNY_MUST_USE int hub_service_codes_sync(struct hub_service *svc,
                                        struct hub_outbox *ob,
                                        struct tny_diag *diag);

/* Handles one received message (topic as received): device result or
 * presence, console request; other topics are ignored (0).  Appends the
 * ack / reply and every retained message the change affects (assignments,
 * clocks) to ob; the feed is only marked dirty (hub_service_flush).
 * now_ms: the hub's UTC clock.  Returns 0 when the message was dealt with
 * (a rejection is dealt with: its ack is in ob).  Errors (nothing appended
 * for this message): TNY_ESTORE (the store failed: the peer resends),
 * TNY_ENOMEM.  A console command the store failed is answered (rc 0,
 * ob->store_rc TNY_ESTORE). */
TNY_MUST_USE int hub_service_handle(struct hub_service *svc, const char *topic,
                                    const uint8_t *payload, size_t len,
                                    int64_t now_ms, struct hub_outbox *ob,
                                    struct tny_diag *diag);

/* The same entry points by kind (hub_service_handle parses the topic and
 * calls these).  device_id / console_id come from the topic, never from
 * the payload. */
TNY_MUST_USE int hub_service_on_result(struct hub_service *svc,
                                       const char *device_id,
                                       const uint8_t *payload, size_t len,
                                       int64_t now_ms, struct hub_outbox *ob,
                                       struct tny_diag *diag);
/* One result message of a batch (borrowed for the call). */
struct hub_result_msg {
    const char *device_id; /* from the topic */
    const uint8_t *payload;
    size_t len;
};

/* Group commit: handles n result messages as hub_service_on_result would
 * one after the other, but every result that reaches the store is stored in
 * one transaction (hub_store_record_submissions; a device that appears twice
 * starts a new transaction for its second message), and the acks of those
 * are appended to ob only after that commit.  Acks the service decides by
 * itself (rejections, repeated keys) are appended as the messages are read.
 * ob receives every ack decided, also when an error is returned: publish
 * it.  Errors: the first message's error (logged; that message has no ack
 * and the device resends), e.g. TNY_ESTORE when the store failed. */
TNY_MUST_USE int hub_service_on_results(struct hub_service *svc, int32_t n,
                                        const struct hub_result_msg *msgs,
                                        int64_t now_ms, struct hub_outbox *ob,
                                        struct tny_diag *diag);
TNY_MUST_USE int hub_service_on_presence(struct hub_service *svc,
                                         const char *device_id,
                                         const uint8_t *payload, size_t len,
                                         int64_t now_ms, struct hub_outbox *ob,
                                         struct tny_diag *diag);
/* Presence is kept in memory as it arrives (hub_service_on_presence
 * writes nothing, but for a device's first message or an AG-14 draft
 * start) and written by this call: every device's latest presence in one
 * transaction.  The loop calls it every HUB_PRESENCE_FLUSH_MS and at
 * shutdown.  A crash loses at most that much presence (a table says it
 * again on every reconnect).  Errors: TNY_ESTORE (the commit failed: the
 * devices stay to be written). */
#define HUB_PRESENCE_FLUSH_MS 1000
TNY_MUST_USE int hub_service_presence_flush(struct hub_service *svc,
                                            struct tny_diag *diag);
/* Devices whose presence waits for hub_service_presence_flush. */
int32_t hub_service_presence_waiting(const struct hub_service *svc);

TNY_MUST_USE int hub_service_on_request(struct hub_service *svc,
                                        const char *console_id,
                                        const uint8_t *payload, size_t len,
                                        int64_t now_ms, struct hub_outbox *ob,
                                        struct tny_diag *diag);

/* Appends every retained message from the store: each known device's
 * assignment (seated, idle or cleared), the clock of every running
 * event's current round, and the feed of every event, all at once.  The
 * hub does the same on every (re)connect in steps (_begin/_step below),
 * so nothing depends on the broker keeping retained messages.  Errors:
 * TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_service_republish(struct hub_service *svc, int64_t now_ms,
                                       struct hub_outbox *ob,
                                       struct tny_diag *diag);

/* Loads every event into the service's cache (the hub calls it before
 * it goes online, so the first results and the republish do not wait for
 * event loads).  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_service_preload(struct hub_service *svc,
                                     struct tny_diag *diag);

/* The same in small steps, so the loop answers results in between (a
 * hub coming online with thousands of devices must not make the first
 * results wait behind its republish).  _begin starts over (also when a
 * republish is under way).  Each _step appends the next part: the
 * assignments of up to HUB_REPUBLISH_CHUNK devices (about 1 ms), or one event's
 * clock; after the last part every event's feed is marked dirty (for
 * hub_service_flush_step) and *done is set.  A failed step can be called
 * again.  Errors: TNY_ESTATE, TNY_ENOMEM. */
#define HUB_REPUBLISH_CHUNK 16
void hub_service_republish_begin(struct hub_service *svc);
TNY_MUST_USE int hub_service_republish_step(struct hub_service *svc,
                                            int64_t now_ms,
                                            struct hub_outbox *ob, bool *done,
                                            struct tny_diag *diag);

/* Appends the feed topics of events changed since the last flush (the
 * loop calls it after a batch of messages, so a burst of results gives
 * one feed update).  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_service_flush(struct hub_service *svc, int64_t now_ms,
                                   struct hub_outbox *ob,
                                   struct tny_diag *diag);
/* hub_service_flush for at most one event; *more is set when other
 * events' feeds still wait.  Errors: those of hub_service_flush. */
TNY_MUST_USE int hub_service_flush_step(struct hub_service *svc, int64_t now_ms,
                                        struct hub_outbox *ob, bool *more,
                                        struct tny_diag *diag);

/* ---- the feed built on another thread -------------------------------------
 * Building an event's feed (standings, pairings, tables) takes tens of ms
 * for a big event; the hub builds it on a thread of its own (hub loop) so
 * results are never answered late because of it.  That thread owns a
 * second service (the builder) over its own store connection to the same
 * database, which has every committed fact; what only the hub's memory
 * knows travels in a snapshot: the event's devices with their presence and
 * the judge's table extensions. */

struct hub_feed_device {
    char id[HUB_FEED_ID_MAX + 1];
    int32_t table;
    int state; /* enum tny_wire_presence_state, 0 = never seen */
};

struct hub_feed_extension {
    int32_t round, table;
    int64_t total_ms;
    int64_t start_delay_ms; /* AG-14, -1 = draft not started */
};

struct hub_ev;

struct hub_feed_snapshot {
    char event[HUB_FEED_ID_MAX + 1];
    int64_t now_ms;
    int32_t n_devices, n_ext;
    struct hub_feed_device *devices; /* malloc'd */
    struct hub_feed_extension *ext;  /* malloc'd */
    /* A deep copy of the loop's event state (the projection, its table
     * states and clock), taken by the builder (NULL: the loop had none
     * loaded; the builder then reads the event from the database). */
    struct hub_ev *ev;
    /* Every document of the event, not only those that changed since the
     * builder's last build (a republish after a reconnect). */
    bool full;
    /* Issue 23: ev leaves out the rounds the builder has (at the same
     * generation).  Set by the builder when it may not have what the loop
     * thinks (a failed build, a round it lacked): the loop then calls
     * hub_service_feed_resync. */
    bool resync;
    /* Issue 17 item 2: set by the builder when it left documents for the
     * next build (feed_piece_bytes): the loop builds the event's feed
     * again at once (hub_service_feed_more). */
    bool more;
    /* Issue 17 item 2: set by the builder when it left the aggregate
     * documents for a build at or after this time (hub clock, ms; 0 none):
     * the loop calls hub_service_feed_later. */
    int64_t later_ms;
};

void hub_feed_snapshot_release(struct hub_feed_snapshot *s);

/* Takes the next event whose feed is due (marked dirty; the mark is
 * cleared) and fills *out for it; false when none is due (or the feed is
 * off: then every mark is cleared).  Errors (false, *rc < 0): TNY_ENOMEM,
 * the mark stays. */
bool hub_service_feed_next(struct hub_service *svc, int64_t now_ms,
                           struct hub_feed_snapshot *out, int *rc);

/* In the builder service: appends the feed of snap->event from the
 * snapshot's copy of the event (taken: snap->ev becomes NULL), with
 * snap's devices and extensions; the current round's result rows are
 * read from the database.  Errors: TNY_ENOTFOUND (no such event),
 * TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_service_feed_build(struct hub_service *builder,
                                        struct hub_feed_snapshot *snap,
                                        struct hub_outbox *ob,
                                        struct tny_diag *diag);

/* Issue 23: the next snapshot of every event carries every round (the
 * builder may have lost some: hub_feed_snapshot.resync). */
void hub_service_feed_resync(struct hub_service *svc);

/* Issue 17 item 2: the feed of event `event` is due again (its last
 * build left documents for the next one: hub_feed_snapshot.more). */
void hub_service_feed_more(struct hub_service *svc, const char *event);

/* Issue 17 item 2: the feed of event `event` is due at at_ms (hub clock)
 * whatever changes until then (hub_feed_snapshot.later_ms: the builder
 * left its aggregate documents for then). */
void hub_service_feed_later(struct hub_service *svc, const char *event,
                            int64_t at_ms);

/* Issue 17 item 2: ms from now_ms until the earliest feed left for later
 * (hub_service_feed_later, or a build of this service's own) is due, 0 if
 * one is due now; -1 when none waits (or the feed is off). */
int64_t hub_service_feed_wait(const struct hub_service *svc, int64_t now_ms);

/* Time-driven work: marks the tables feed of events whose round clock ran
 * out since the last call (overdue tables).  *next_ms receives the next
 * instant this wants to run (INT64_MAX: none).  Never fails. */
void hub_service_tick(struct hub_service *svc, int64_t now_ms,
                      int64_t *next_ms);

/* Counters for logs and tests. */
struct hub_service_stats {
    uint64_t results, acks_accepted, acks_rejected, acks_pending, acks_conflict,
        acks_duplicate, requests, replies_cached, presences, ignored;
    /* Issue 17: loads of an event's model from the store (start-up, after
     * a refused command's restore or a store failure, and the console
     * commands not converted to change the model in place). */
    uint64_t model_loads;
    /* Issue 23: rounds whose tables a feed build fingerprinted, and
     * rounds whose tables a feed snapshot copied (both only when the
     * round changed since the last build, or the players did). */
    uint64_t feed_rounds_fingerprinted, feed_rounds_copied;
    /* Issue 17 item 2: entries of the feed's `tables` document written
     * from the model (the others are a build's cached text: only a table
     * whose entry changed but for its clock is written again). */
    uint64_t feed_table_entries_written;
    /* Issue 17 item 2: feed snapshots that carried the event's players
     * (copied only when they changed since the last snapshot). */
    uint64_t feed_players_copied;
    /* Issue 17 item 2: player/ID documents written (only a player whose
     * document's content changed). */
    uint64_t feed_player_docs_written;
    /* Issue 17 item 2: players whose document's fingerprint a build
     * looked at (after a result only the players of the tables whose
     * fingerprint changed, unless the standings, the players or the
     * seating changed too: then every player). */
    uint64_t feed_player_docs_checked;
};
void hub_service_stats_get(const struct hub_service *svc,
                           struct hub_service_stats *out);

#endif
