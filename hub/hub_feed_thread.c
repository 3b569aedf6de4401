/* hub_feed_thread.c - builds the public feed on a thread of its own (see
 * hub/include/hub/feed_thread.h): one snapshot at a time, handed over
 * under a mutex, the finished messages handed back the same way and
 * announced by a byte on a pipe the loop polls.
 *
 * While idle the thread also makes the feed's `now` heartbeat every
 * HEARTBEAT_MS (hub_feed_heartbeat: events whose last build had a running
 * round clock), handed back the same way; a heartbeat not yet taken is
 * replaced by the next one.
 *
 * Not here: what the feed contains (hub/service/feed.c), publishing (the loop).
 * Invariants: `busy` is true from post until the build's messages were
 * taken (a heartbeat does not end it); the builder service and store are
 * used by the thread only, and closed after it was joined.
 */
#include "hub/feed_thread.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hub/clock.h"
#include "hub/log.h"
#include "service/feed.h"
#include "store.h"

/* The `now` heartbeat period (docs/feed.md). */
#define HEARTBEAT_MS 5000

/* The heartbeat is scheduled on CLOCK_MONOTONIC (the condition variable
 * waits on it too), so a wall clock stepped back does not stop it; the
 * time it publishes is the hub's clock (hub/clock.h), the tables' time. */
static int64_t mono_ms(void)
{
    return hub_clock_mono_ms();
}

struct hub_feed_thread {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int pipe[2];
    struct hub_store *store;
    struct hub_service *builder;
    bool stop, has_job, has_done, busy;
    bool resync; /* a build asked for whole snapshots (issue 23) */
    /* Issue 17 item 2: the last build left documents of this event for
     * the next one (hub_feed_snapshot.more); "" none */
    char more[HUB_FEED_ID_MAX + 1];
    /* Issue 17 item 2: the last build left this event's aggregate
     * documents for a build at later_ms (hub_feed_snapshot.later_ms) */
    char later[HUB_FEED_ID_MAX + 1];
    int64_t later_ms;
    struct hub_feed_snapshot job;
    struct hub_outbox done;
    struct hub_outbox beat; /* the latest heartbeat, not yet taken */
};

static void wake_loop(struct hub_feed_thread *t)
{
    char b = 1;
    ssize_t w = write(t->pipe[1], &b, 1);
    (void)w; /* a full pipe already wakes the loop */
}

/* Waits (t->mu held) for a job or stop; every HEARTBEAT_MS without one
 * makes a heartbeat (the lock released meanwhile). */
static void wait_for_job(struct hub_feed_thread *t, int64_t *next_beat)
{
    while (!t->has_job && !t->stop) {
        int64_t now = mono_ms();
        if (now < *next_beat) {
            struct timespec until = {.tv_sec = (time_t)(*next_beat / 1000),
                                     .tv_nsec =
                                         (long)(*next_beat % 1000) * 1000000};
            pthread_cond_timedwait(&t->cv, &t->mu, &until);
            continue;
        }
        *next_beat = now + HEARTBEAT_MS;
        struct hub_outbox ob;
        hub_outbox_init(&ob);
        pthread_mutex_unlock(&t->mu);
        if (hub_feed_heartbeat(t->builder, hub_clock_ms(), &ob) < 0)
            hub_outbox_release(&ob);
        pthread_mutex_lock(&t->mu);
        if (ob.n > 0) {
            hub_outbox_release(&t->beat);
            t->beat = ob;
            wake_loop(t);
        } else {
            hub_outbox_release(&ob);
        }
    }
}

static void *feed_main(void *arg)
{
    struct hub_feed_thread *t = arg;
    int64_t next_beat = mono_ms() + HEARTBEAT_MS;
    for (;;) {
        struct hub_feed_snapshot snap;
        struct hub_outbox ob;
        struct tny_diag diag = {{0}};
        pthread_mutex_lock(&t->mu);
        wait_for_job(t, &next_beat);
        if (t->stop) {
            pthread_mutex_unlock(&t->mu);
            return NULL;
        }
        snap = t->job;
        memset(&t->job, 0, sizeof(t->job));
        t->has_job = false;
        pthread_mutex_unlock(&t->mu);

        hub_outbox_init(&ob);
        if (hub_service_feed_build(t->builder, &snap, &ob, &diag) < 0) {
            HUB_LOG(HUB_LOG_ERROR, "feed not built event=%s: %s", snap.event,
                    diag.msg);
            hub_outbox_release(&ob);
        }
        bool resync = snap.resync;
        char more[sizeof(t->more)] = "";
        if (snap.more && sizeof(snap.event) == sizeof(more))
            memcpy(more, snap.event, sizeof(more));
        more[sizeof(more) - 1] = '\0';
        int64_t later_ms = snap.later_ms;
        char later[sizeof(t->later)];
        memcpy(later, snap.event, sizeof(later));
        later[sizeof(later) - 1] = '\0';
        hub_feed_snapshot_release(&snap);

        pthread_mutex_lock(&t->mu);
        t->resync = t->resync || resync;
        memcpy(t->more, more, sizeof(more));
        memcpy(t->later, later, sizeof(later));
        t->later_ms = later_ms;
        t->done = ob;
        t->has_done = true;
        pthread_mutex_unlock(&t->mu);
        wake_loop(t);
    }
}

int hub_feed_thread_start(const char *database_path,
                          const struct hub_service_options *opt,
                          struct hub_feed_thread **out, struct tny_diag *diag)
{
    struct hub_feed_thread *t = calloc(1, sizeof(*t));
    int rc;
    *out = NULL;
    if (!t)
        return TNY_ENOMEM;
    t->pipe[0] = t->pipe[1] = -1;
    hub_outbox_init(&t->done);
    hub_outbox_init(&t->beat);
    if ((rc = hub_store_open(database_path, &t->store, diag)) < 0 ||
        (rc = hub_service_new(t->store, opt, &t->builder, diag)) < 0)
        goto fail;
    if (pipe(t->pipe) < 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "feed thread: pipe: %s",
                          strerror(errno));
        goto fail;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(t->pipe[i], F_SETFL, fcntl(t->pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(t->pipe[i], F_SETFD, FD_CLOEXEC);
    }
    pthread_mutex_init(&t->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&t->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&t->thread, NULL, feed_main, t) != 0) {
        pthread_mutex_destroy(&t->mu);
        pthread_cond_destroy(&t->cv);
        rc = tny_diag_set(diag, TNY_ESTATE, "feed thread: cannot start");
        goto fail;
    }
    *out = t;
    return TNY_OK;
fail:
    for (int i = 0; i < 2; i++)
        if (t->pipe[i] >= 0)
            close(t->pipe[i]);
    hub_service_free(t->builder);
    hub_store_close(t->store);
    free(t);
    return rc;
}

int hub_feed_thread_fd(const struct hub_feed_thread *t)
{
    return t->pipe[0];
}

bool hub_feed_thread_busy(const struct hub_feed_thread *t)
{
    return t->busy;
}

void hub_feed_thread_post(struct hub_feed_thread *t,
                          struct hub_feed_snapshot *snap)
{
    pthread_mutex_lock(&t->mu);
    t->job = *snap;
    t->has_job = true;
    t->busy = true;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    memset(snap, 0, sizeof(*snap));
}

void hub_feed_thread_clear(struct hub_feed_thread *t)
{
    char buf[64];
    while (read(t->pipe[0], buf, sizeof(buf)) > 0)
        ;
}

bool hub_feed_thread_take(struct hub_feed_thread *t, struct hub_outbox *ob)
{
    hub_feed_thread_clear(t);
    pthread_mutex_lock(&t->mu);
    bool ready = t->has_done || t->beat.n > 0;
    if (t->has_done) {
        *ob = t->done;
        hub_outbox_init(&t->done);
        t->has_done = false;
        t->busy = false;
    }
    /* The heartbeat after the build's messages (payloads moved). */
    for (int32_t i = 0; i < t->beat.n; i++) {
        struct hub_msg *m = &t->beat.msgs[i];
        if (hub_outbox_add(ob, m->topic, m->payload, m->len, m->retained) < 0)
            HUB_LOG(HUB_LOG_WARN, "feed heartbeat dropped: out of memory");
        m->payload = NULL;
    }
    hub_outbox_release(&t->beat);
    pthread_mutex_unlock(&t->mu);
    return ready;
}

bool hub_feed_thread_resync(struct hub_feed_thread *t)
{
    pthread_mutex_lock(&t->mu);
    bool r = t->resync;
    t->resync = false;
    pthread_mutex_unlock(&t->mu);
    return r;
}

bool hub_feed_thread_more(struct hub_feed_thread *t, char *event, size_t cap)
{
    pthread_mutex_lock(&t->mu);
    bool r = t->more[0] != '\0' && cap > 0;
    if (r) {
        size_t n = strnlen(t->more, cap - 1);
        memcpy(event, t->more, n);
        event[n] = '\0';
    }
    t->more[0] = '\0';
    pthread_mutex_unlock(&t->mu);
    return r;
}

bool hub_feed_thread_later(struct hub_feed_thread *t, char *event, size_t cap,
                           int64_t *at_ms)
{
    pthread_mutex_lock(&t->mu);
    bool r = t->later_ms != 0 && cap > 0;
    if (r) {
        size_t n = strnlen(t->later, cap - 1);
        memcpy(event, t->later, n);
        event[n] = '\0';
        *at_ms = t->later_ms;
    }
    t->later_ms = 0;
    pthread_mutex_unlock(&t->mu);
    return r;
}

void hub_feed_thread_stop(struct hub_feed_thread *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->stop = true;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    hub_feed_snapshot_release(&t->job);
    hub_outbox_release(&t->done);
    hub_outbox_release(&t->beat);
    close(t->pipe[0]);
    close(t->pipe[1]);
    hub_service_free(t->builder);
    hub_store_close(t->store);
    free(t);
}
