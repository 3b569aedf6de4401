/* feed_thread.h - the hub's feed builder thread (hub/hub_feed_thread.c).
 *
 * The loop hands it one event's feed snapshot at a time
 * (hub_service_feed_next) and publishes the messages it gives back; the
 * thread builds them with a service of its own over its own connection to
 * the database (hub_service_feed_build), so the loop keeps answering
 * results while a big event's standings are computed.  The thread also
 * makes the feed's non-retained `now` heartbeat (hub_feed_heartbeat).
 *
 * Not here: publishing, deciding which feed is due (the loop, the
 * service).  Threads: every function is called by the loop's thread only;
 * the builder service and its store belong to the feed thread.
 */
#ifndef HUB_FEED_THREAD_H
#define HUB_FEED_THREAD_H

#include <stdbool.h>

#include "hub/service.h"
#include "tny/error.h"

struct hub_feed_thread;

/* Opens the builder (a store on database_path, a service with opt) and
 * starts the thread.  Errors: those of hub_store_open_with and
 * hub_service_new, TNY_ENOMEM, TNY_ESTATE (no thread or pipe). */
TNY_MUST_USE int hub_feed_thread_start(const char *database_path,
                                       const struct hub_service_options *opt,
                                       struct hub_feed_thread **out,
                                       struct tny_diag *diag);
/* Readable when a build finished or a heartbeat is ready; the owner
 * clears it every time it wakes (hub_feed_thread_clear), whether or not
 * it takes the build then. */
int hub_feed_thread_fd(const struct hub_feed_thread *t);
/* Reads the wake-ups written so far: the descriptor is not readable
 * again until the thread has something new.  What is ready stays for
 * hub_feed_thread_take. */
void hub_feed_thread_clear(struct hub_feed_thread *t);
/* True while a snapshot is being built (post nothing then). */
bool hub_feed_thread_busy(const struct hub_feed_thread *t);
/* Hands snap (moved: *snap is emptied) to the thread; only when not busy. */
void hub_feed_thread_post(struct hub_feed_thread *t,
                          struct hub_feed_snapshot *snap);
/* The messages of the finished build in *ob (moved; init'ed by the caller
 * or empty), then the latest `now` heartbeat not yet taken (the thread
 * makes one about every 5 s while idle, for the events whose last build
 * had a running round clock: docs/feed.md); false when neither is ready.
 * Only a finished build ends `busy`.  A failed build gives none (logged
 * by the thread). */
bool hub_feed_thread_take(struct hub_feed_thread *t, struct hub_outbox *ob);
/* Issue 23: true once after a build that asked for whole snapshots
 * (hub_feed_snapshot.resync: call hub_service_feed_resync). */
bool hub_feed_thread_resync(struct hub_feed_thread *t);
/* Issue 17 item 2: true once after a build that left documents of its
 * event for the next build (hub_feed_snapshot.more), the event's id in
 * event[cap]: call hub_service_feed_more and build again at once. */
bool hub_feed_thread_more(struct hub_feed_thread *t, char *event, size_t cap);
/* Issue 17 item 2: true once after a build that left its event's
 * aggregate documents for later (hub_feed_snapshot.later_ms), the event's
 * id in event[cap] and the time in *at_ms: call hub_service_feed_later. */
bool hub_feed_thread_later(struct hub_feed_thread *t, char *event, size_t cap,
                           int64_t *at_ms);
/* Stops the thread (after the build under way), closes the builder. */
void hub_feed_thread_stop(struct hub_feed_thread *t);

#endif
