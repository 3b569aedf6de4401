/* hub_loop.c - the hub's one thread that owns state: its loop (tny/loop.h)
 * polls the MQTT adapter's wakeup fd, a signal pipe and the feed thread's,
 * and runs the timers registered below; every received message
 * goes through the service, and everything the service appends is
 * published here, with its return code checked.
 *
 * Publishing: at most publish_window of the hub's publishes (hub.conf)
 * await the broker's acknowledgement at once; every other one waits in
 * `waiting`, in order, and goes out as deliveries free the window
 * (send_waiting: every publisher, assignments, acks, replies and the
 * feed, goes through this one rule).  A publish the adapter refuses (not
 * connected, Paho's buffer full) waits in `pending` and is retried every
 * RETRY_MS while connected and after each reconnect, ahead of `waiting`
 * (a hub without its broker does not retry: it waits for the reconnect);
 * a QoS 1 publish stays in `inflight` (by token) until the adapter's
 * DELIVERED event says the broker has it, and goes back to `pending`
 * when the delivery failed.  Retained state does not
 * depend on this: every (re)connect republishes all of it from the database, in
 * steps (16 assignments, or one event's clock, or one event's feed per
 * turn of the loop) with the messages received in between handled first,
 * so results are answered while thousands of assignments go out.  The
 * feed (standings and the rest, tens of ms for a big event) is built on a
 * thread of its own (hub_feed_thread.c), one event at a time, and
 * published here when it is ready.
 *
 * An unchanged feed document is not published again (feed_same): the
 * feed is rebuilt whole after every batch of changes, but most of its
 * documents (pairings, standings, bracket) do not change with a result,
 * and every copy goes to every reader of the public feed (measured with
 * 200 WebSocket readers and 100 tables: the feed broker spent 11 s of CPU
 * on 100 results, and readers got a result up to 42 s late;
 * bench/bench_feed.sh).  A (re)connect forgets what was sent, so the
 * republish sends everything.
 *
 * Results are group-committed: drain() takes every message waiting in the
 * adapter's queue; result messages go to a queue fair between devices
 * (fairq.h: at most RESULTS_PER_DEVICE waiting per device, the excess
 * dropped and logged, the device resends what is not acknowledged), and
 * the oldest of each device (up to BATCH_MAX, round robin) go to the
 * service as one batch, one store transaction; their acks are published
 * after that commit, then the adapter's queue is read again.  So one table
 * login flooding results delays another table's result by at most one
 * batch, which carries one of the flood's results, not its backlog.  A console
 * request first commits every result waiting before it; presence (kept in
 * memory, written for every device at most once a second: presence.c),
 * delivery and connection events do not wait.
 *
 * Shutdown (SIGINT, SIGTERM): publish hub/state "offline" (retained), wait
 * up to 2 s for it, checkpoint the WAL into the database file, disconnect
 * cleanly, close the database.  While running, the store's thread
 * checkpoints every checkpoint_interval_s when anything was committed.  A
 * SIGKILL leaves the broker to publish the last will (offline) and the database
 * to its WAL: nothing acknowledged is lost, because nothing is
 * acknowledged before its commit.
 *
 * One hub per broker login (docs/architecture.md "One hub"): the broker
 * gives a login's connection to the newest client (use_username_as_clientid),
 * so a second hub would take the first one's connection and the two would
 * knock each other off.  Each hub holds a retained lease,
 * tourney/v1/hub/lease ("pid N on host H instance X"), republished on
 * every connect.  A starting hub publishes its lease and, until it has
 * seen its own lease come back, handles nothing: what arrives meanwhile
 * (the retained messages the broker replays at subscription among it) is
 * kept and handled once the lease is its own, dropped if it is refused.  When
 * the lease it found before its own was another live hub's, it waits
 * LEASE_PROBATION_MS: a hub already serving takes its connection back at once
 * (its reconnect), and a starting hub that loses its connection while waiting
 * exits 1 naming the other hub's pid and host, without publishing anything
 * more. A lease left by a hub that died (SIGKILL, power) costs a restart
 * LEASE_PROBATION_MS, or nothing when the lease names a pid of this host
 * that is gone.
 *
 * The loop is tny/loop.h's (poll and timers, as redis's ae.c): each part
 * of this file registers the timers it needs and arms them when it has
 * work later (the retry, the feed interval, malloc_trim, the round
 * clocks' deadlines, the checkpoint, the presence flush, the lease's
 * probation, the store alarm's probe, the republish's and the feed
 * build's next steps); the loop sleeps until the earliest.  Timers run on
 * CLOCK_MONOTONIC; the service gets the wall clock as its `now`, because
 * what it does with it is published (docs/architecture.md "Clocks").
 *
 * Not here: use cases (service/), configuration parsing (hub_config.c).
 */
#include "hub/hub.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hub/clock.h"
#include "hub/fairq.h"
#include "hub/feed_thread.h"
#include "hub/log.h"
#include "hub/service.h"
#include "hub/store_alarm.h"
#include "store.h"
#include "tny/loop.h"
#include "tny/mqtt.h"
#include "tny/wire.h"

#define RETRY_MS 250
/* malloc_trim at most this often (struct loop's t_trim) */
#define HUB_TRIM_MS 1000
/* Bound of the messages waiting for a retry; beyond it the oldest
 * non-retained ones are dropped (tables and consoles resend) and logged. */
#define PENDING_MAX 200000
/* Most result messages committed in one transaction. */
#define BATCH_MAX 2048

/* The retained lease of the hub serving the broker login, and how long a
 * starting hub waits for a live holder of it to take its connection back
 * (a running hub reconnects within a second; the adapter's first retry
 * comes after 250 ms). */
#define LEASE_TOPIC TNY_WIRE_TOPIC_PREFIX "hub/lease"
#define LEASE_PROBATION_MS 3000

enum lease_state {
    LEASE_PROBING, /* ours published, not yet seen back */
    LEASE_WAITING, /* another hub's was there: its holder may come back */
    LEASE_HELD,    /* serving */
    LEASE_REFUSED  /* another hub took the login back: exit */
};

/* Results one device may have waiting in the hub (an honest table has
 * one, or its outbox's backlog after a reconnect, sent one at a time). */
#define RESULTS_PER_DEVICE 16

struct pending_msg {
    struct hub_msg m;
    int token; /* inflight only */
};

struct queue {
    struct pending_msg *items;
    int32_t n, cap;
};

/* The last payload published on a feed topic, as a hash; an open
 * addressing table (topic[0] == 0: free) at most half full. */
struct feed_sent {
    char topic[HUB_TOPIC_MAX];
    uint64_t hash;
    size_t len;
};

struct loop {
    const struct hub_config *cfg;
    struct hub_store *store;
    struct hub_service *svc;
    struct tny_mqtt *mqtt;
    /* Issue 20: the login play-admin on the table-page listener, where
     * the hub provisions the sign-in codes ($CONTROL/dynamic-security/v1;
     * NULL: play_broker_uri not set). */
    struct tny_mqtt *play;
    struct queue pending, inflight;
    /* Publishes beyond the window, in order: waiting.items[wait_at..n)
     * (send_waiting); window: publish_window. */
    struct queue waiting;
    int32_t wait_at;
    int32_t window;     /* in force: publish_window, below the broker's */
    int32_t window_cfg; /* publish_window (hub.conf) */
    /* The loop (poll and timers) and the timers of this file's parts,
     * each armed by the part that has work later (tny/timers.h ids). */
    struct tny_loop *ev;
    int32_t t_retry;     /* pending publishes again (RETRY_MS) */
    int32_t t_feed;      /* the next feed build (feed_interval_ms) */
    int32_t t_slice;     /* the next slice of a feed build */
    int32_t t_republish; /* the republish's next step */
    int32_t t_trim;      /* malloc_trim (issue 23, below) */
    int32_t t_clock;     /* the service's next round clock deadline */
    int32_t t_ckpt;      /* the checkpoint, every checkpoint_interval_s */
    int32_t t_presence;  /* the presence flush (HUB_PRESENCE_FLUSH_MS) */
    int32_t t_lease;     /* the lease's probation ends (lease_until_ms) */
    int32_t t_alarm;     /* the store alarm's next probe */
    int64_t next_feed_ms;
    /* The earliest next build for a change (the last build plus
     * feed_interval_ms): a change made while the aggregates wait for
     * their window (next_feed_ms later) goes out at this time, not with
     * them (issue 17: result -> its table's phones) */
    int64_t next_change_ms;
    bool feed_due; /* a feed build waits (at next_feed_ms) */
    /* Issue 23: a console command and a feed build each hold copies of a
     * whole event for a moment (they grow with its rounds); glibc keeps
     * the freed pages of every such peak (the hub grew 1.7 MB a round
     * past a fresh hub on the same database).  t_trim is armed when
     * memory was freed; malloc_trim runs at most once per HUB_TRIM_MS
     * (next_trim_ms) and gives those pages back to the system. */
    int64_t next_trim_ms;
    int64_t next_presence_ms; /* the presence flush, at most this often */
    bool connected;
    bool republishing; /* a republish is under way (republish_step) */
    /* Builds the feed off this thread (NULL: built here, in turns). */
    struct hub_feed_thread *feeder;
    struct hub_fairq *results;    /* result messages waiting for a commit */
    struct hub_fairq_item *batch; /* BATCH_MAX: the one being committed */
    int64_t n_refused;            /* results dropped since the last log */
    int64_t refused_log_ms;
    struct feed_sent *sent; /* feed topics published on this connection */
    int32_t n_sent, cap_sent;
    struct hub_store_alarm alarm; /* the database stopped taking writes */
    /* A finished feed build being published, FEED_SLICE messages a turn
     * (feed_at: the next one), so results waiting are handled between
     * slices instead of behind a whole build's documents. */
    struct hub_outbox feed_out;
    int32_t feed_at;
    /* One hub per broker login (see the top of this file). */
    enum lease_state lease_state;
    char lease[200];        /* ours: "pid N on host H instance X" */
    char lease_other[200];  /* another hub's, found while starting */
    int64_t lease_until_ms; /* LEASE_WAITING: serving from then on */
    /* Messages received before the lease was held (the retained ones
     * the broker replays at subscription among them): handled once it
     * is, dropped if the hub is refused.  At most HELD_MAX. */
    struct tny_mqtt_message *held;
    int32_t n_held, cap_held;
};

#define HELD_MAX 200000

/* Feed documents published per turn of the loop (a few ms). */
#define FEED_SLICE 64
/* The publish window (publish_window; send_waiting), issue 17.  Paho
 * walks its queued commands, in-flight messages and pending responses
 * once per message sent (the free message id) and per acknowledgement,
 * so each send costs what is outstanding: a round's assignments
 * (thousands, sent at once by `round publish`) and the feed's documents
 * each paid for all the others.  And Paho keeps at most the broker's
 * receive maximum (max_inflight_messages) in flight; the rest wait in
 * its queue until the next publish or its send thread's 1 s timeout (an
 * acknowledgement does not wake it: Paho 1.3.12, MQTTAsync_sendThread),
 * so a burst above that maximum could stall up to a second.  The
 * window keeps Paho's lists short and below that maximum; a slice of
 * feed documents is built into it only when nothing waits (on_slice). */

static int sig_pipe[2] = {-1, -1};
static volatile sig_atomic_t sig_seen;

static void on_signal(int sig)
{
    int saved = errno;
    sig_seen = sig;
    if (sig_pipe[1] >= 0) {
        char b = 1;
        ssize_t w = write(sig_pipe[1], &b, 1);
        (void)w;
    }
    errno = saved;
}

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Two clocks (docs/architecture.md "Clocks"): mono_ms for every wait,
 * interval and deadline of this loop, so a wall clock stepped back (NTP,
 * an organiser fixing the date) delays nothing; wall_ms, the hub's clock
 * (hub/clock.h: the wall clock at start-up moved on by the monotonic one),
 * where a wall time is the meaning: the service's `now` (clock deadlines,
 * versions and feed times as published) and time sync answers, so a wall
 * clock stepped while the hub runs moves none of them (issue 23). */
static int64_t mono_ms(void)
{
    return tny_loop_now_ms();
}

static struct tny_timers *timers(struct loop *l)
{
    return tny_loop_timers(l->ev);
}

/* Pending publishes go again RETRY_MS from now (unless already due),
 * while the adapter is connected: without a broker they wait for the
 * reconnect (on_connected retries them), they are not tried again every
 * RETRY_MS (a hub whose broker was gone spun at 58 % of a core doing
 * that, thousands of feed documents pending). */
static void retry_soon(struct loop *l)
{
    if (tny_mqtt_is_connected(l->mqtt))
        (void)tny_timers_arm_by(timers(l), l->t_retry, mono_ms() + RETRY_MS);
}

/* The feed's timer follows its state: due, not while a republish is
 * under way (it ends by asking for every feed) nor while the feed
 * thread builds (its descriptor wakes the loop: feed_done). */
static void feed_rearm(struct loop *l)
{
    if (l->feed_due && !l->republishing &&
        !(l->feeder && hub_feed_thread_busy(l->feeder)))
        (void)tny_timers_arm_by(timers(l), l->t_feed, l->next_feed_ms);
    else
        tny_timers_disarm(timers(l), l->t_feed);
}

static void feed_soon(struct loop *l)
{
    l->feed_due = true;
    if (l->next_feed_ms > l->next_change_ms)
        l->next_feed_ms = l->next_change_ms;
    feed_rearm(l);
}

/* Memory was freed: malloc_trim, at most once per HUB_TRIM_MS. */
static void trim_soon(struct loop *l)
{
    int64_t now = mono_ms();
    (void)tny_timers_arm_by(timers(l), l->t_trim,
                            l->next_trim_ms > now ? l->next_trim_ms : now);
}

/* The service's state changed: its round clocks' next deadline may have
 * too (on_clock looks again at once). */
static void clock_recheck(struct loop *l)
{
    (void)tny_timers_arm_by(timers(l), l->t_clock, mono_ms());
}

static int64_t wall_ms(void)
{
    return hub_clock_ms();
}

static int queue_push(struct queue *q, struct hub_msg *m, int token)
{
    if (q->n == q->cap) {
        int32_t cap = q->cap ? q->cap * 2 : 64;
        struct pending_msg *n = realloc(q->items, sizeof(*n) * (size_t)cap);
        if (!n)
            return TNY_ENOMEM;
        q->items = n;
        q->cap = cap;
    }
    q->items[q->n].m = *m;
    q->items[q->n].token = token;
    q->n++;
    memset(m, 0, sizeof(*m)); /* moved */
    return TNY_OK;
}

static void queue_release(struct queue *q)
{
    for (int32_t i = 0; i < q->n; i++)
        free(q->items[i].m.payload);
    free(q->items);
    memset(q, 0, sizeof(*q));
}

/* A newer retained message for a topic replaces a waiting older one. */
static void pending_drop_topic(struct queue *q, const char *topic)
{
    int32_t w = 0;
    for (int32_t i = 0; i < q->n; i++) {
        if (q->items[i].m.retained && strcmp(q->items[i].m.topic, topic) == 0) {
            free(q->items[i].m.payload);
            continue;
        }
        q->items[w++] = q->items[i];
    }
    q->n = w;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* A feed document's hash, 8 bytes a step (fnv1a's byte at a time was
 * about 1 M instructions for the `tables` document of 500 tables, after
 * every result: issue 17 item 2). */
static uint64_t payload_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037ull ^ (uint64_t)n, v;
    for (; n >= 8; n -= 8, p += 8) {
        memcpy(&v, p, 8);
        h = (h ^ v) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    v = 0;
    if (n) /* an empty document (a cleared topic) may have no buffer */
        memcpy(&v, p, n);
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
}

/* feed_same(l, m): m is a retained feed document equal to the last one
 * published on its topic since the connection began; otherwise it is
 * remembered as the last one (a failed remember only costs a resend). */
static bool feed_same(struct loop *l, const struct hub_msg *m)
{
    static const char feed[] = TNY_WIRE_TOPIC_PREFIX "feed/";
    size_t tl = strlen(m->topic);
    if (!m->retained || strncmp(m->topic, feed, sizeof(feed) - 1) != 0 ||
        tl >= HUB_TOPIC_MAX)
        return false;
    if ((l->n_sent + 1) * 2 > l->cap_sent) {
        int32_t cap = l->cap_sent ? l->cap_sent * 2 : 256;
        struct feed_sent *n = calloc((size_t)cap, sizeof(*n));
        if (!n)
            return false;
        for (int32_t i = 0; i < l->cap_sent; i++) {
            if (!l->sent[i].topic[0])
                continue;
            uint64_t j = fnv1a((const uint8_t *)l->sent[i].topic,
                               strlen(l->sent[i].topic));
            while (n[j & (uint64_t)(cap - 1)].topic[0])
                j++;
            n[j & (uint64_t)(cap - 1)] = l->sent[i];
        }
        free(l->sent);
        l->sent = n;
        l->cap_sent = cap;
    }
    uint64_t h = payload_hash(m->payload, m->len);
    uint64_t j = fnv1a((const uint8_t *)m->topic, tl);
    struct feed_sent *f;
    for (;; j++) {
        f = &l->sent[j & (uint64_t)(l->cap_sent - 1)];
        if (!f->topic[0]) {
            memcpy(f->topic, m->topic, tl + 1);
            l->n_sent++;
            break;
        }
        if (strcmp(f->topic, m->topic) == 0) {
            if (f->hash == h && f->len == m->len)
                return true;
            break;
        }
    }
    f->hash = h;
    f->len = m->len;
    return false;
}

/* Issue 20: a message for the broker's dynamic security plugin (consumed)
 * goes out on the play-admin connection.  Not connected: dropped, since
 * every (re)connect sends the whole set of codes again (play_sync). */
static void play_publish(struct loop *l, struct hub_msg *m)
{
    struct tny_diag diag = {{0}};
    if (!l->play)
        HUB_LOG(HUB_LOG_WARN,
                "codes: play_broker_uri is not set: the broker was not told "
                "(configure the table-page listener)");
    else if (tny_mqtt_publish(l->play, m->topic, m->payload, m->len, 1, false,
                              NULL, &diag) < 0)
        HUB_LOG(HUB_LOG_WARN,
                "codes: not sent now (%s); sent again when the "
                "table-page listener is back",
                diag.msg[0] ? diag.msg : "not connected");
    free(m->payload);
    memset(m, 0, sizeof(*m));
}

/* Hands m (consumed) to the adapter.  Refused: into pending for a retry. */
static void send_now(struct loop *l, struct hub_msg *m)
{
    struct tny_diag diag = {{0}};
    int token = 0;
    if (m->retained)
        pending_drop_topic(&l->pending, m->topic);
    int rc = tny_mqtt_publish(l->mqtt, m->topic, m->payload, m->len, 1,
                              m->retained, &token, &diag);
    if (rc == 0) {
        if (queue_push(&l->inflight, m, token) < 0) {
            free(m->payload); /* the publish went out; only tracking lost */
            memset(m, 0, sizeof(*m));
        }
        return;
    }
    if (rc == TNY_EINVAL) {
        HUB_LOG(HUB_LOG_ERROR, "publish refused topic=%s: %s", m->topic,
                diag.msg);
        free(m->payload);
        memset(m, 0, sizeof(*m));
        return;
    }
    HUB_LOG(rc == TNY_ESTATE ? HUB_LOG_DEBUG : HUB_LOG_WARN,
            "publish deferred topic=%s: %s", m->topic,
            diag.msg[0] ? diag.msg : tny_strerror(rc));
    if (l->pending.n >= PENDING_MAX) {
        HUB_LOG(HUB_LOG_ERROR, "publish queue full: dropped topic=%s",
                m->topic);
        free(m->payload);
        memset(m, 0, sizeof(*m));
        return;
    }
    if (queue_push(&l->pending, m, 0) < 0) {
        free(m->payload);
        memset(m, 0, sizeof(*m));
    }
    retry_soon(l);
}

/* The window has room and nothing waits for it. */
static bool window_room(const struct loop *l)
{
    return l->inflight.n < l->window && l->wait_at == l->waiting.n;
}

/* Sends the waiting publishes, in order, while the window has room and
 * the adapter is connected (else they wait for the reconnect). */
static void send_waiting(struct loop *l)
{
    while (l->wait_at < l->waiting.n && l->inflight.n < l->window &&
           tny_mqtt_is_connected(l->mqtt))
        send_now(l, &l->waiting.items[l->wait_at++].m);
    if (l->wait_at == l->waiting.n)
        l->waiting.n = l->wait_at = 0;
}

/* Publishes m (consumed): now when the window has room, else after the
 * publishes waiting before it. */
static void publish(struct loop *l, struct hub_msg *m)
{
    if (strncmp(m->topic, "$CONTROL/", 9) == 0) {
        play_publish(l, m);
        return;
    }
    if (window_room(l)) {
        send_now(l, m);
        return;
    }
    if (queue_push(&l->waiting, m, 0) < 0) { /* out of memory: at once */
        HUB_LOG(HUB_LOG_WARN, "publish window: out of memory, sent at once");
        send_now(l, m);
    }
}

/* Puts q's messages (moved) in front of the waiting ones, in order. */
static void waiting_prepend(struct loop *l, struct queue *q)
{
    int32_t rest = l->waiting.n - l->wait_at;
    if (q->n == 0)
        return;
    if (l->wait_at >= q->n) { /* room before the waiting ones */
        l->wait_at -= q->n;
        memcpy(&l->waiting.items[l->wait_at], q->items,
               sizeof(*q->items) * (size_t)q->n);
        q->n = 0;
        return;
    }
    for (int32_t i = 0; i < rest; i++) /* behind q's, then q moves over */
        if (queue_push(q, &l->waiting.items[l->wait_at + i].m, 0) < 0)
            free(l->waiting.items[l->wait_at + i].m.payload);
    free(l->waiting.items);
    l->waiting = *q;
    l->wait_at = 0;
    memset(q, 0, sizeof(*q));
}

/* Publishes what the service appended, but no feed document equal to
 * the one already sent (retries of pending messages do not come here). */
static void publish_outbox(struct loop *l, struct hub_outbox *ob)
{
    for (int32_t i = 0; i < ob->n; i++) {
        if (feed_same(l, &ob->msgs[i])) {
            free(ob->msgs[i].payload);
            memset(&ob->msgs[i], 0, sizeof(ob->msgs[i]));
            continue;
        }
        publish(l, &ob->msgs[i]);
    }
    hub_outbox_release(ob);
}

/* Publishes the pending messages again, in order, ahead of the waiting
 * ones (every pending one is older) and within the window; once the
 * adapter is not connected (the broker went away meanwhile) the rest wait
 * untried, for the reconnect. */
static void retry_pending(struct loop *l)
{
    tny_timers_disarm(timers(l), l->t_retry);
    if (!tny_mqtt_is_connected(l->mqtt))
        return;
    waiting_prepend(l, &l->pending);
    send_waiting(l);
}

static void on_delivered(struct loop *l, const struct tny_mqtt_message *ev)
{
    for (int32_t i = 0; i < l->inflight.n; i++) {
        if (l->inflight.items[i].token != ev->token)
            continue;
        struct hub_msg m = l->inflight.items[i].m;
        l->inflight.items[i] = l->inflight.items[--l->inflight.n];
        send_waiting(l);
        if (window_room(l) && l->feed_out.n > 0)
            (void)tny_timers_arm(timers(l), l->t_slice, mono_ms());
        if (ev->lib_rc == 0 && ev->reason < 128) {
            free(m.payload);
            return;
        }
        HUB_LOG(HUB_LOG_WARN,
                "delivery failed topic=%s reason=%d lib_rc=%d: retrying",
                m.topic, ev->reason, ev->lib_rc);
        if (ev->reason >= 128 && ev->lib_rc == 0) {
            free(m.payload); /* the broker refused it (ACL): no retry */
            return;
        }
        if (queue_push(&l->pending, &m, 0) < 0)
            free(m.payload);
        retry_soon(l);
        return;
    }
}

/* Publishes a retained text message (QoS 1); at_once: ahead of the
 * window (the lease: the hub does not serve before it is back). */
static void publish_text(struct loop *l, const char *topic, const char *text,
                         bool at_once)
{
    struct hub_msg m = {.retained = true, .len = strlen(text)};
    snprintf(m.topic, sizeof(m.topic), "%s", topic);
    if (!(m.payload = malloc(m.len ? m.len : 1))) {
        HUB_LOG(HUB_LOG_ERROR, "out of memory: %s not published", topic);
        return;
    }
    memcpy(m.payload, text, m.len);
    if (at_once)
        send_now(l, &m);
    else
        publish(l, &m);
}

/* The retained tourney/v1/hub/store: "ok", or "failing: REASON" while
 * the database takes no writes (store_alarm.h). */
static void publish_store_status(struct loop *l)
{
    char status[300];
    hub_store_alarm_status(&l->alarm, status, sizeof(status));
    publish_text(l, TNY_WIRE_HUB_STORE_TOPIC, status, false);
}

/* Acts on a change of the store alarm: the status topic follows it, and
 * once the database takes writes again hub/state "online" is said again,
 * so every table resends what it holds at once (within 2 s, as after a
 * hub restart) instead of after its back-off of up to a minute. */
static void store_alarm_changed(struct loop *l,
                                enum hub_store_alarm_change change)
{
    /* While raised, the alarm probes the database every
     * HUB_STORE_PROBE_MS (on_alarm). */
    if (l->alarm.raised)
        (void)tny_timers_arm_by(timers(l), l->t_alarm, l->alarm.next_probe_ms);
    else
        tny_timers_disarm(timers(l), l->t_alarm);
    if (change == HUB_STORE_ALARM_SAME)
        return;
    publish_store_status(l);
    if (change == HUB_STORE_ALARM_CLEARED) {
        char topic[TNY_WIRE_TOPIC_MAX];
        struct tny_diag diag = {{0}};
        if (tny_wire_topic(TNY_WIRE_TOPIC_HUB_STATE, NULL, topic, sizeof(topic),
                           &diag) == 0)
            publish_text(l, topic, TNY_WIRE_HUB_ONLINE, false);
    }
}

/* After a call that may have written: rc (or the outbox's store_rc) is
 * TNY_ESTORE when the storage failed it (issue 18: a refusal has another
 * code), which raises the store alarm.  True when it did. */
static bool store_failed(struct loop *l, int rc, const struct hub_outbox *ob,
                         const struct tny_diag *diag)
{
    if (rc != TNY_ESTORE && (!ob || ob->store_rc != TNY_ESTORE))
        return false;
    store_alarm_changed(
        l, hub_store_alarm_failed(&l->alarm, l->store, diag, mono_ms()));
    return true;
}

/* The lease's probation: serving LEASE_PROBATION_MS from now unless
 * the lease's holder takes the login back (on_lease). */
static void lease_wait(struct loop *l)
{
    l->lease_until_ms = mono_ms() + LEASE_PROBATION_MS;
    (void)tny_timers_arm(timers(l), l->t_lease, l->lease_until_ms);
}

/* Republishes the retained state in steps between received messages
 * (republish_step, one a turn: on_republish). */
static void republish_begin(struct loop *l)
{
    hub_service_republish_begin(l->svc);
    l->republishing = true;
    (void)tny_timers_arm(timers(l), l->t_republish, mono_ms());
    feed_rearm(l);
}

static void on_connected(struct loop *l, bool again)
{
    l->connected = true;
    /* the republish sends every feed document */
    if (l->sent)
        memset(l->sent, 0, (size_t)l->cap_sent * sizeof(*l->sent));
    l->n_sent = 0;
    HUB_LOG(HUB_LOG_INFO, "broker %s: %s", again ? "reconnected" : "connected",
            l->lease_state == LEASE_HELD
                ? "republishing retained state"
                : "checking that no other hub holds the login");
    /* Deliveries outstanding on the old connection are in doubt: send
     * them again (QoS 1 receivers deduplicate), before the pending ones
     * (newer). */
    {
        struct queue q = l->inflight;
        for (int32_t i = 0; i < l->pending.n; i++)
            if (queue_push(&q, &l->pending.items[i].m, 0) < 0)
                free(l->pending.items[i].m.payload);
        free(l->pending.items);
        l->pending = q;
        memset(&l->inflight, 0, sizeof(l->inflight));
    }
    /* Below the broker's Receive Maximum, with room for the lease sent
     * at once and the adapter's birth message: Paho holds a publish
     * beyond it for up to a second (the window's comment). */
    int rm = tny_mqtt_receive_maximum(l->mqtt) - 1;
    l->window = rm - 1 < l->window_cfg ? (rm > 1 ? rm - 1 : 1) : l->window_cfg;
    if (l->window < l->window_cfg)
        HUB_LOG(HUB_LOG_INFO,
                "publish window %d, not publish_window %d: the broker takes "
                "%d unacknowledged publishes (its max_inflight_messages)",
                (int)l->window, (int)l->window_cfg, rm + 1);
    if (l->feed_out.n > 0) /* on_slice waited for deliveries */
        (void)tny_timers_arm(timers(l), l->t_slice, mono_ms());
    publish_text(l, LEASE_TOPIC, l->lease, true);
    if (l->lease_state != LEASE_HELD) {
        /* lease_seen starts serving; should our lease not come back (a
         * broker that drops it), the hub serves after the probation. */
        if (l->lease_state == LEASE_PROBING)
            lease_wait(l);
        return;
    }
    retry_pending(l);
    publish_store_status(l);
    republish_begin(l);
}

static void dispatch(struct loop *l, struct tny_mqtt_message *ev);

/* Keeps a message received before the lease is held (ev consumed). */
static void hold(struct loop *l, struct tny_mqtt_message *ev)
{
    if (l->n_held == l->cap_held) {
        int32_t cap = l->cap_held ? l->cap_held * 2 : 256;
        struct tny_mqtt_message *n =
            cap <= HELD_MAX ? realloc(l->held, sizeof(*n) * (size_t)cap) : NULL;
        if (!n) { /* unanswered: the sender resends */
            tny_mqtt_message_release(ev);
            return;
        }
        l->held = n;
        l->cap_held = cap;
    }
    l->held[l->n_held++] = *ev;
}

static void held_release(struct loop *l)
{
    for (int32_t i = 0; i < l->n_held; i++)
        tny_mqtt_message_release(&l->held[i]);
    free(l->held);
    l->held = NULL;
    l->n_held = l->cap_held = 0;
}

/* The lease is ours: the hub serves (retained state republished, the
 * messages held meanwhile handled, in order, then every message). */
static void lease_take(struct loop *l)
{
    l->lease_state = LEASE_HELD;
    HUB_LOG(HUB_LOG_INFO, "broker login %s: serving (%s)%s%s",
            l->cfg->v[HUB_CFG_USERNAME].text, l->lease,
            l->lease_other[0] ? "; the lease's last holder did not come "
                                "back: "
                              : "",
            l->lease_other);
    if (l->connected) { /* else on_connected does it */
        retry_pending(l);
        publish_store_status(l);
        republish_begin(l);
    }
    struct tny_mqtt_message *held = l->held;
    int32_t n = l->n_held;
    l->held = NULL;
    l->n_held = l->cap_held = 0;
    for (int32_t i = 0; i < n; i++)
        dispatch(l, &held[i]);
    free(held);
}

/* A lease naming a pid of this host that no longer runs is stale. */
static bool lease_stale(const char *lease)
{
    char host[256] = "", other[256];
    long pid = 0;
    if (sscanf(lease, "pid %ld on host %255s", &pid, other) != 2 || pid <= 0)
        return false;
    (void)gethostname(host, sizeof(host) - 1);
    return strcmp(host, other) == 0 && kill((pid_t)pid, 0) != 0 &&
           errno == ESRCH;
}

/* A message on the lease topic: ours back (the lease found before it, if
 * any, is another hub's), or another hub's while serving. */
static void lease_seen(struct loop *l, const struct tny_mqtt_message *ev)
{
    char text[sizeof(l->lease)];
    snprintf(text, sizeof(text), "%.*s",
             (int)(ev->len < sizeof(text) ? ev->len : sizeof(text) - 1),
             (const char *)ev->payload);
    bool ours = strcmp(text, l->lease) == 0;
    if (l->lease_state == LEASE_HELD) {
        if (ours || !text[0])
            return;
        /* A hub starting with our login took the connection for a moment
         * (the adapter has reconnected: its lease is what we read); it
         * sees ours again and exits. */
        HUB_LOG(HUB_LOG_WARN,
                "broker login %s: another tourney-hub connected with it "
                "(%s); it is refused and the connection taken back",
                l->cfg->v[HUB_CFG_USERNAME].text, text);
        publish_text(l, LEASE_TOPIC, l->lease, true);
        return;
    }
    if (!ours) {
        if (text[0] && !lease_stale(text))
            snprintf(l->lease_other, sizeof(l->lease_other), "%s", text);
        return;
    }
    if (l->lease_state != LEASE_PROBING)
        return;
    if (!l->lease_other[0]) {
        lease_take(l);
        return;
    }
    l->lease_state = LEASE_WAITING;
    lease_wait(l);
    HUB_LOG(HUB_LOG_INFO,
            "broker login %s: the lease names another tourney-hub (%s); "
            "waiting %d ms for it to take the connection back",
            l->cfg->v[HUB_CFG_USERNAME].text, l->lease_other,
            LEASE_PROBATION_MS);
}

/* One step of the republish begun on (re)connect; results and other
 * messages are handled between steps (drain runs first in every turn). */
static void republish_step(struct loop *l)
{
    struct hub_outbox ob;
    struct tny_diag diag = {{0}};
    bool done = false;
    hub_outbox_init(&ob);
    int rc = hub_service_republish_step(l->svc, wall_ms(), &ob, &done, &diag);
    if (rc < 0) {
        HUB_LOG(HUB_LOG_ERROR, "republish failed: %s", diag.msg);
        done = true; /* the next reconnect tries again */
    }
    publish_outbox(l, &ob);
    if (done) {
        l->republishing = false;
        l->next_feed_ms = 0;
        feed_soon(l); /* every feed, one event per turn */
        HUB_LOG(HUB_LOG_INFO, "retained state republished");
    }
}

static void on_message(struct loop *l, const struct tny_mqtt_message *ev)
{
    struct hub_outbox ob;
    struct tny_diag diag = {{0}};
    hub_outbox_init(&ob);
    int rc = hub_service_handle(l->svc, ev->topic, ev->payload, ev->len,
                                wall_ms(), &ob, &diag);
    bool failing = store_failed(l, rc, &ob, &diag);
    if (rc < 0) {
        /* Nothing was answered: the peer resends (tables, consoles).  A
         * database that takes no writes was reported once (the alarm). */
        HUB_LOG(failing ? HUB_LOG_DEBUG : HUB_LOG_ERROR,
                "message not handled topic=%s: %s", ev->topic,
                diag.msg[0] ? diag.msg : tny_strerror(rc));
        hub_outbox_release(&ob);
        return;
    }
    publish_outbox(l, &ob);
    feed_soon(l);
    trim_soon(l);
    clock_recheck(l);
    if (hub_service_presence_waiting(l->svc) > 0) /* at most once a flush */
        (void)tny_timers_arm_by(
            timers(l), l->t_presence,
            l->next_presence_ms > mono_ms() ? l->next_presence_ms : mono_ms());
}

/* Answers a time sync request (docs/protocol.md "Time sync") at once, outside
 * the service: the hub's clock is read just before the answer leaves, so
 * the asker's round trip bounds the error.  QoS 0, never retained: a lost
 * answer is asked again.  False when ev is something else. */
static bool answer_time(struct loop *l, const struct tny_mqtt_message *ev)
{
    enum tny_wire_topic kind;
    char login[TNY_WIRE_ID_MAX + 1], topic[TNY_WIRE_TOPIC_MAX];
    struct tny_diag diag = {{0}};
    struct tny_wire_time t;
    uint8_t *buf = NULL;
    size_t len = 0;
    if (ev->kind != TNY_MQTT_MESSAGE ||
        tny_wire_topic_parse(ev->topic, &kind, login, &diag) < 0 ||
        kind != TNY_WIRE_TOPIC_TIME_REQ)
        return false;
    if (tny_wire_decode_time(ev->payload, ev->len, &t, &diag) < 0 ||
        tny_wire_topic(TNY_WIRE_TOPIC_TIME_RESP, login, topic, sizeof(topic),
                       &diag) < 0) {
        HUB_LOG(HUB_LOG_WARN, "time request refused topic=%s: %s", ev->topic,
                diag.msg);
        return true;
    }
    t.hub_ms = wall_ms();
    if (tny_wire_encode_time(&t, &buf, &len, &diag) < 0 ||
        tny_mqtt_publish(l->mqtt, topic, buf, len, 0, false, NULL, &diag) < 0)
        HUB_LOG(HUB_LOG_DEBUG, "time answer not sent topic=%s: %s", topic,
                diag.msg);
    free(buf);
    return true;
}

/* Hands the oldest waiting result of each device (up to BATCH_MAX, round
 * robin) to the service as one batch and publishes the acks (after the
 * commit). */
static void flush_batch(struct loop *l)
{
    struct hub_outbox ob;
    struct tny_diag diag = {{0}};
    struct hub_result_msg msgs[BATCH_MAX];
    if (!l->results || hub_fairq_count(l->results) == 0)
        return;
    int64_t batch_us = mono_us();
    int32_t n = hub_fairq_take(l->results, l->batch, BATCH_MAX);
    if (l->alarm.raised) {
        /* Nothing can be committed, so nothing is answered: the tables
         * keep these and resend them (at once when the alarm clears). */
        HUB_LOG(HUB_LOG_DEBUG,
                "results not taken (%d): the database takes no writes", (int)n);
        for (int32_t i = 0; i < n; i++)
            tny_mqtt_message_release(&l->batch[i].ev);
        return;
    }
    for (int32_t i = 0; i < n; i++)
        msgs[i] = (struct hub_result_msg){
            l->batch[i].device, l->batch[i].ev.payload, l->batch[i].ev.len};
    hub_outbox_init(&ob);
    int rc = hub_service_on_results(l->svc, n, msgs, wall_ms(), &ob, &diag);
    bool failing = store_failed(l, rc, &ob, &diag);
    if (rc < 0) /* those without an ack resend */
        HUB_LOG(failing ? HUB_LOG_DEBUG : HUB_LOG_ERROR,
                "results not all handled (%d in batch): %s", (int)n,
                diag.msg[0] ? diag.msg : tny_strerror(rc));
    int64_t done_us = mono_us();
    publish_outbox(l, &ob);
    feed_soon(l);
    clock_recheck(l);
    /* The result trace (log_level debug; bench_live reads it): each
     * stage's end on CLOCK_MONOTONIC, microseconds.  rx: the adapter took
     * it from Paho; queued: in the fair queue; batch: its batch began;
     * done: validated, stored, committed (fsync); pub: its ack handed to
     * the adapter. */
    if (HUB_LOG_DEBUG <= hub_log_level) {
        int64_t pub_us = mono_us();
        for (int32_t i = 0; i < n; i++)
            HUB_LOG(HUB_LOG_DEBUG,
                    "result trace device=%s batch_size=%d rx=%lld queued=%lld "
                    "batch=%lld done=%lld pub=%lld",
                    l->batch[i].device, (int)n, (long long)l->batch[i].ev.rx_us,
                    (long long)l->batch[i].pushed_us, (long long)batch_us,
                    (long long)done_us, (long long)pub_us);
    }
    for (int32_t i = 0; i < n; i++)
        tny_mqtt_message_release(&l->batch[i].ev);
}

/* A retained message on a device's result topic would be replayed to the
 * hub at every (re)subscription, long after its table moved on: results
 * are never retained (mosquitto 2.0 cannot refuse the retain flag per
 * topic, so the hub deletes it with an empty retained message, which it
 * then ignores).  The hub subscribes to results with "retain as
 * published", so a result published with the retain flag is cleared as
 * it arrives, not only at the next subscription.  The message itself is
 * handled as any other. */
static void clear_retained_result(struct loop *l, const char *topic,
                                  const char *device)
{
    struct hub_msg m;
    memset(&m, 0, sizeof(m));
    snprintf(m.topic, sizeof(m.topic), "%s", topic);
    m.retained = true;
    HUB_LOG(HUB_LOG_WARN,
            "retained result message device=%s: cleared (results must not "
            "be retained)",
            device);
    publish(l, &m);
}

/* Commits every result waiting (before a message of another kind). */
static void flush_results(struct loop *l)
{
    while (l->results && hub_fairq_count(l->results) > 0)
        flush_batch(l);
}

/* Keeps a result message for a batch; false when ev is something else
 * (then the caller handles it, after flushing the results).  A device's
 * result beyond RESULTS_PER_DEVICE waiting is dropped, and the drops are
 * logged at most once a second. */
static bool batch_result(struct loop *l, struct tny_mqtt_message *ev)
{
    enum tny_wire_topic kind;
    char id[TNY_WIRE_ID_MAX + 1];
    struct tny_diag why = {{0}};
    if (ev->kind != TNY_MQTT_MESSAGE ||
        tny_wire_topic_parse(ev->topic, &kind, id, &why) < 0 ||
        kind != TNY_WIRE_TOPIC_RESULT)
        return false;
    if (ev->retained && ev->len > 0)
        clear_retained_result(l, ev->topic, id);
    if (!l->results &&
        (hub_fairq_new(RESULTS_PER_DEVICE, &l->results) < 0 ||
         (!l->batch && !(l->batch = calloc(BATCH_MAX, sizeof(*l->batch)))))) {
        hub_fairq_free(l->results);
        l->results = NULL;
        return false; /* out of memory: one at a time */
    }
    if (hub_fairq_push(l->results, id, ev))
        return true;
    l->n_refused++;
    int64_t now = mono_ms();
    if (now - l->refused_log_ms >= 1000) {
        HUB_LOG(HUB_LOG_WARN,
                "results dropped count=%lld last_device=%s: more than %d "
                "waiting from one device (unacknowledged: it resends)",
                (long long)l->n_refused, id, RESULTS_PER_DEVICE);
        l->n_refused = 0;
        l->refused_log_ms = now;
    }
    tny_mqtt_message_release(ev);
    return true;
}

/* Presence is kept in memory and written in batches (presence.c), so a
 * presence message needs no commit of the results before it. */
static bool is_presence(const struct tny_mqtt_message *ev)
{
    enum tny_wire_topic kind;
    char id[TNY_WIRE_ID_MAX + 1];
    struct tny_diag why = {{0}};
    return tny_wire_topic_parse(ev->topic, &kind, id, &why) == 0 &&
           kind == TNY_WIRE_TOPIC_PRESENCE;
}

/* Writes the presence received since the last call (one transaction). */
static void flush_presence(struct loop *l)
{
    struct tny_diag diag = {{0}};
    if (l->alarm.raised || hub_service_presence_waiting(l->svc) == 0)
        return;
    int rc = hub_service_presence_flush(l->svc, &diag);
    bool failing = store_failed(l, rc, NULL, &diag);
    if (rc < 0)
        HUB_LOG(failing ? HUB_LOG_DEBUG : HUB_LOG_ERROR,
                "presence not written (%d devices): %s",
                (int)hub_service_presence_waiting(l->svc), diag.msg);
    clock_recheck(l);
}

/* Reads the adapter's queue until it is empty: results wait in the fair
 * queue, anything else is handled at once (after the results before it). */
static void pull(struct loop *l)
{
    struct tny_mqtt_message ev;
    while (tny_mqtt_next_message(l->mqtt, &ev) == 0) {
        if (ev.kind == TNY_MQTT_MESSAGE && strcmp(ev.topic, LEASE_TOPIC) == 0) {
            lease_seen(l, &ev);
            tny_mqtt_message_release(&ev);
        } else if (l->lease_state != LEASE_HELD &&
                   ev.kind == TNY_MQTT_MESSAGE) {
            hold(l, &ev); /* handled once the lease is ours */
        } else {
            dispatch(l, &ev);
        }
    }
}

/* Handles one event of the adapter (consumed). */
static void dispatch(struct loop *l, struct tny_mqtt_message *evp)
{
    struct tny_mqtt_message ev = *evp;
    if (batch_result(l, &ev))
        return; /* owned by the fair queue, or dropped */
    if (answer_time(l, &ev)) {
        tny_mqtt_message_release(&ev);
        return;
    }
    /* A console request sees every result received before it
     * committed (presence waits for no commit: presence.c).
     * Delivery and connection events do not
     * depend on results: committing the waiting results for each of
     * them (one fsync per ack delivered) held results back for
     * seconds during a flood. */
    if (ev.kind == TNY_MQTT_MESSAGE && !is_presence(&ev))
        flush_results(l);
    switch (ev.kind) {
    case TNY_MQTT_MESSAGE: on_message(l, &ev); break;
    case TNY_MQTT_DROPPED:
        HUB_LOG(HUB_LOG_WARN,
                "message dropped topic=%s len=%zu: too "
                "large",
                ev.topic, ev.len);
        break;
    case TNY_MQTT_DELIVERED: on_delivered(l, &ev); break;
    case TNY_MQTT_SUBSCRIBED:
        if (ev.reason >= 128 || ev.lib_rc)
            HUB_LOG(HUB_LOG_ERROR,
                    "subscription refused reason=%d "
                    "lib_rc=%d",
                    ev.reason, ev.lib_rc);
        break;
    case TNY_MQTT_CONNECTED:
    case TNY_MQTT_RECONNECTED:
        if (ev.n_refused > 0)
            HUB_LOG(HUB_LOG_ERROR,
                    "broker refused %d subscriptions "
                    "(check the ACL for login %s)",
                    ev.n_refused, l->cfg->v[HUB_CFG_USERNAME].text);
        on_connected(l, ev.kind == TNY_MQTT_RECONNECTED);
        break;
    case TNY_MQTT_LOST:
        l->connected = false;
        if (l->lease_state == LEASE_WAITING ||
            (l->lease_state == LEASE_PROBING && l->lease_other[0])) {
            /* The other hub took its login back: it is alive. */
            HUB_LOG(HUB_LOG_ERROR,
                    "broker login %s is in use by another tourney-hub "
                    "(%s): it took the connection back; one hub per "
                    "login, not going online",
                    l->cfg->v[HUB_CFG_USERNAME].text, l->lease_other);
            l->lease_state = LEASE_REFUSED;
            break;
        }
        HUB_LOG(HUB_LOG_WARN, "broker connection lost: reconnecting");
        break;
    case TNY_MQTT_REFUSED:
        /* docs/troubleshooting.md: the log says why the hub stays off */
        HUB_LOG(HUB_LOG_ERROR,
                "broker refused login %s: %s (reason %d): check username "
                "and password_file against the broker's users.cred; retrying",
                l->cfg->v[HUB_CFG_USERNAME].text,
                tny_mqtt_reason_text(ev.reason), ev.reason);
        break;
    }
    tny_mqtt_message_release(&ev);
}

/* Pull, commit one fair batch, pull again: a flood waits its turn. */
static void drain(struct loop *l)
{
    pull(l);
    while (l->results && hub_fairq_count(l->results) > 0) {
        flush_batch(l);
        pull(l);
    }
}

/* The feed's next turn: at once when `more` is due, else after the
 * interval while a build's aggregate documents wait for their window
 * (issue 17 item 2: hub_service_feed_wait), else when something changes
 * (feed_soon: after the interval, however long the aggregates wait). */
static void feed_wait(struct loop *l, int64_t now, int64_t mono,
                      int64_t interval, bool more)
{
    int64_t wait = more ? 0 : hub_service_feed_wait(l->svc, now);
    l->feed_due = wait >= 0;
    l->next_change_ms = more ? mono : mono + interval;
    l->next_feed_ms = more ? mono : mono + (wait > interval ? wait : interval);
    feed_rearm(l);
}

/* Publishes the feed of one changed event (all of them when `all`); the
 * next event's comes in the next turn, after the messages waiting.  With
 * the feed thread, hands it the next event's snapshot instead (its
 * messages are published by feed_done). */
static void flush_feed(struct loop *l, bool all)
{
    const int64_t now = wall_ms(), mono = mono_ms();
    const int64_t interval = l->cfg->v[HUB_CFG_FEED_INTERVAL_MS].number;
    struct hub_outbox ob;
    struct tny_diag diag = {{0}};
    bool more = false;
    int rc;
    if (l->feeder && !all) {
        struct hub_feed_snapshot snap;
        if (hub_feed_thread_busy(l->feeder))
            return; /* feed_done comes back here */
        if (hub_service_feed_next(l->svc, now, &snap, &rc)) {
            hub_feed_thread_post(l->feeder, &snap);
            return;
        }
        if (rc < 0)
            HUB_LOG(HUB_LOG_ERROR, "feed not built: %s", tny_strerror(rc));
        feed_wait(l, now, mono, interval, false);
        return;
    }
    hub_outbox_init(&ob);
    if (all)
        rc = hub_service_flush(l->svc, now, &ob, &diag);
    else
        rc = hub_service_flush_step(l->svc, now, &ob, &more, &diag);
    if (rc < 0)
        HUB_LOG(HUB_LOG_ERROR, "feed not built: %s", diag.msg);
    publish_outbox(l, &ob);
    feed_wait(l, now, mono, interval, more);
}

/* Publishes the next slice of the feed build in l->feed_out; true while
 * some of it is left. */
static bool feed_slice(struct loop *l, int32_t max)
{
    struct hub_outbox *ob = &l->feed_out;
    int32_t end = ob->n - l->feed_at > max ? l->feed_at + max : ob->n;
    for (; l->feed_at < end; l->feed_at++) {
        struct hub_msg *m = &ob->msgs[l->feed_at];
        if (feed_same(l, m)) {
            free(m->payload);
            memset(m, 0, sizeof(*m));
            continue;
        }
        publish(l, m);
    }
    if (l->feed_at < ob->n)
        return true;
    hub_outbox_release(ob);
    l->feed_at = 0;
    return false;
}

/* The feed thread finished a build: its documents go out a slice a turn
 * (feed_slice); the build is taken only once the one before is out, so
 * a newer document never goes before an older one of the same topic,
 * and the thread builds the next event's only after that. */
static void feed_done(struct loop *l)
{
    if (l->feed_out.n > 0)
        return;
    if (!hub_feed_thread_take(l->feeder, &l->feed_out))
        return;
    if (hub_feed_thread_resync(l->feeder))
        hub_service_feed_resync(l->svc);
    char more[HUB_FEED_ID_MAX + 1];
    if (hub_feed_thread_more(l->feeder, more, sizeof more)) {
        /* the rest of the players' documents: built now, not after the
         * feed interval (issue 17 item 2) */
        hub_service_feed_more(l->svc, more);
        l->next_feed_ms = mono_ms();
    }
    int64_t later_ms = 0;
    if (hub_feed_thread_later(l->feeder, more, sizeof more, &later_ms))
        hub_service_feed_later(l->svc, more, later_ms);
    l->feed_at = 0;
    (void)tny_timers_arm(timers(l), l->t_slice, mono_ms());
    feed_soon(l); /* flush_feed looks for the next dirty event */
    trim_soon(l);
}

/* Publishes hub/state offline and waits (up to 2 s) for the broker's
 * acknowledgement before the clean disconnect. */
static void say_offline(struct loop *l)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    struct tny_diag diag = {{0}};
    int token = 0;
    if (!tny_mqtt_is_connected(l->mqtt) ||
        tny_wire_topic(TNY_WIRE_TOPIC_HUB_STATE, NULL, topic, sizeof(topic),
                       &diag) < 0 ||
        tny_mqtt_publish(l->mqtt, topic, TNY_WIRE_HUB_OFFLINE,
                         strlen(TNY_WIRE_HUB_OFFLINE), 1, true, &token,
                         &diag) < 0) {
        HUB_LOG(HUB_LOG_WARN, "could not publish hub/state offline%s%s",
                diag.msg[0] ? ": " : "", diag.msg);
        return;
    }
    int64_t until = mono_ms() + 2000;
    while (mono_ms() < until) {
        (void)tny_loop_wait_fd(tny_mqtt_wakeup_fd(l->mqtt), 100);
        struct tny_mqtt_message ev;
        while (tny_mqtt_next_message(l->mqtt, &ev) == 0) {
            bool done = ev.kind == TNY_MQTT_DELIVERED && ev.token == token;
            tny_mqtt_message_release(&ev);
            if (done)
                return;
        }
    }
}

static int open_mqtt(struct loop *l, struct tny_diag *diag)
{
    const struct hub_config *cfg = l->cfg;
    char uris[TNY_CONFIG_VALUE_MAX];
    const char *servers[TNY_MQTT_MAX_SERVERS];
    char *save = NULL;
    int n = 0;
    char t_state[TNY_WIRE_TOPIC_MAX];
    static const char *const filters[] = {
        TNY_WIRE_TOPIC_PREFIX "device/+/result",
        TNY_WIRE_TOPIC_PREFIX "device/+/presence",
        TNY_WIRE_TOPIC_PREFIX "ctl/+/req", TNY_WIRE_TOPIC_PREFIX "time/+/req",
        LEASE_TOPIC,
        /* Issue 20: the players' requests from their phones, and
         * whether each player code's pages are signed in. */
        TNY_WIRE_TOPIC_PREFIX "code/+/req",
        TNY_WIRE_TOPIC_PREFIX "code/+/presence"};
    struct tny_mqtt_subscription subs[7];
    struct tny_mqtt_options o;

    snprintf(uris, sizeof(uris), "%s", cfg->v[HUB_CFG_BROKER_URI].text);
    for (char *u = strtok_r(uris, ",", &save); u && n < TNY_MQTT_MAX_SERVERS;
         u = strtok_r(NULL, ",", &save)) {
        while (*u == ' ')
            u++;
        servers[n++] = u;
    }
    int rc = tny_wire_topic(TNY_WIRE_TOPIC_HUB_STATE, NULL, t_state,
                            sizeof(t_state), diag);
    if (rc < 0)
        return rc;
    for (int i = 0; i < 7; i++)
        subs[i] =
            (struct tny_mqtt_subscription){.filter = filters[i], .qos = 1};
    tny_mqtt_options_init(&o);
    o.servers = servers;
    o.n_servers = n;
    o.client_id = cfg->v[HUB_CFG_USERNAME].text;
    o.password = cfg->password[0] ? cfg->password : NULL;
    o.ca_file = cfg->v[HUB_CFG_TLS_CA_FILE].text[0]
                    ? cfg->v[HUB_CFG_TLS_CA_FILE].text
                    : NULL;
    o.cert_file = cfg->v[HUB_CFG_TLS_CERT_FILE].text[0]
                      ? cfg->v[HUB_CFG_TLS_CERT_FILE].text
                      : NULL;
    o.key_file = cfg->v[HUB_CFG_TLS_KEY_FILE].text[0]
                     ? cfg->v[HUB_CFG_TLS_KEY_FILE].text
                     : NULL;
    o.keepalive_s = (int)cfg->v[HUB_CFG_KEEPALIVE_S].number;
    o.will =
        (struct tny_mqtt_fixed_message){.topic = t_state,
                                        .payload = TNY_WIRE_HUB_OFFLINE,
                                        .len = strlen(TNY_WIRE_HUB_OFFLINE),
                                        .qos = 1,
                                        .retained = true};
    o.birth =
        (struct tny_mqtt_fixed_message){.topic = t_state,
                                        .payload = TNY_WIRE_HUB_ONLINE,
                                        .len = strlen(TNY_WIRE_HUB_ONLINE),
                                        .qos = 1,
                                        .retained = true};
    o.subs = subs;
    o.n_subs = 7;
    /* Results (subs[0]): a live publish with the retain flag keeps it, so
     * the hub clears it at once (clear_retained_result), not at its next
     * subscription. */
    o.retain_as_published = 1u << 0;
    o.max_payload = HUB_MAX_MESSAGE;
    o.max_buffered = 100000;
    /* The adapter's queue drops what overflows whoever sent it; the fair
     * queue (batch_result) drops only a flooding device's excess.  So the
     * adapter's count bound is well above a burst from one device (the
     * default 10,000 was not); 64 MiB of payloads and about 200 bytes of
     * bookkeeping each keep it below 110 MiB. */
    o.max_queued = 200000;
    o.seed = (uint64_t)wall_ms() ^ ((uint64_t)getpid() << 32);
    return tny_mqtt_open(&o, &l->mqtt, diag);
}

/* Issue 20: the play-admin connection's events.  Each (re)connect sends
 * every code's state from the store; the plugin's answers are logged
 * when a command failed for another reason than being done already. */
static void play_drain(struct loop *l)
{
    struct tny_mqtt_message ev;
    while (l->play && tny_mqtt_next_message(l->play, &ev) == 0) {
        if (ev.kind == TNY_MQTT_CONNECTED || ev.kind == TNY_MQTT_RECONNECTED) {
            struct hub_outbox ob;
            struct tny_diag diag = {{0}};
            hub_outbox_init(&ob);
            if (hub_service_codes_sync(l->svc, &ob, &diag) < 0)
                HUB_LOG(HUB_LOG_ERROR, "codes: not synced: %s",
                        diag.msg[0] ? diag.msg : "error");
            int32_t n_ctl = 0;
            for (int32_t i = 0; i < ob.n; i++)
                n_ctl += strncmp(ob.msgs[i].topic, "$CONTROL/", 9) == 0;
            HUB_LOG(HUB_LOG_INFO,
                    "codes: table-page listener connected, %d "
                    "message(s) of codes sent, %d status(es)",
                    (int)n_ctl, (int)(ob.n - n_ctl));
            /* The plugin's commands on this connection, the codes'
             * statuses (code/{login}/status) on the venue connection. */
            for (int32_t i = 0; i < ob.n; i++)
                publish(l, &ob.msgs[i]);
            hub_outbox_release(&ob);
        } else if (ev.kind == TNY_MQTT_MESSAGE && ev.payload) {
            const char *t = (const char *)ev.payload;
            if (strstr(t, "\"error\"") && !strstr(t, "already exists") &&
                !strstr(t, "not found"))
                HUB_LOG(HUB_LOG_WARN, "codes: the broker answered %.400s", t);
            else
                HUB_LOG(HUB_LOG_DEBUG, "codes: the broker answered %.400s", t);
        } else if (ev.kind == TNY_MQTT_LOST) {
            HUB_LOG(HUB_LOG_WARN, "codes: table-page listener lost");
        }
        tny_mqtt_message_release(&ev);
    }
}

/* Issue 20: the play-admin connection (play_broker_uri set). */
static int open_play(struct loop *l, struct tny_diag *diag)
{
    const struct hub_config *cfg = l->cfg;
    static const struct tny_mqtt_subscription sub = {
        .filter = "$CONTROL/dynamic-security/v1/response", .qos = 1};
    const char *servers[1] = {cfg->v[HUB_CFG_PLAY_BROKER_URI].text};
    struct tny_mqtt_options o;
    if (!servers[0][0])
        return TNY_OK;
    tny_mqtt_options_init(&o);
    o.servers = servers;
    o.n_servers = 1;
    o.client_id = "hub-codes";
    o.username = cfg->v[HUB_CFG_PLAY_USERNAME].text;
    o.password = cfg->play_password;
    o.keepalive_s = (int)cfg->v[HUB_CFG_KEEPALIVE_S].number;
    o.subs = &sub;
    o.n_subs = 1;
    o.max_payload = HUB_MAX_MESSAGE;
    o.seed = (uint64_t)wall_ms() ^ ((uint64_t)getpid() << 24);
    return tny_mqtt_open(&o, &l->play, diag);
}

/* ---- The timers' callbacks: each part's work when its deadline came ---- */

static void on_retry(void *ctx, int32_t id, int64_t now)
{
    (void)id;
    (void)now;
    retry_pending(ctx);
}

/* The next feed build, unless a republish or a build is under way
 * (feed_rearm arms it again after them). */
static void on_feed(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    (void)id;
    (void)now;
    if (l->feed_due && !l->republishing)
        flush_feed(l, false);
}

/* The next FEED_SLICE documents of a finished build, one slice a turn. */
static void on_slice(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    if (l->feed_out.n > 0 && !window_room(l))
        return; /* on_delivered (or on_connected) arms it again */
    if (l->feed_out.n > 0 && !feed_slice(l, FEED_SLICE))
        feed_done(l); /* a build that waited for this one */
    if (l->feed_out.n > 0)
        (void)tny_timers_arm(timers(l), id, now);
}

static void on_republish(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    if (!l->republishing)
        return;
    republish_step(l);
    if (l->republishing)
        (void)tny_timers_arm(timers(l), id, now);
}

static void on_trim(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    (void)id;
    (void)malloc_trim(0);
    l->next_trim_ms = now + HUB_TRIM_MS;
}

/* The service's tick works in wall time (a round clock's deadline is a
 * wall instant, as the tables show it); its next deadline becomes a delay
 * from now on the monotonic clock (at most 60 s: it looks again then). */
static void on_clock(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    int64_t wall = wall_ms(), next = INT64_MAX;
    hub_service_tick(l->svc, wall, &next);
    if (next != INT64_MAX)
        (void)tny_timers_arm(timers(l), id,
                             now + (next <= wall          ? 0
                                    : next - wall > 60000 ? 60000
                                                          : next - wall));
}

/* Results committed since the last checkpoint go into the database file
 * (on the store's thread; no ack waits). */
static void on_checkpoint(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    (void)hub_store_checkpoint_soon(l->store);
    (void)tny_timers_arm(
        timers(l), id,
        now + (int64_t)l->cfg->v[HUB_CFG_CHECKPOINT_INTERVAL_S].number * 1000);
}

static void on_presence(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    flush_presence(l);
    l->next_presence_ms = now + HUB_PRESENCE_FLUSH_MS;
    if (hub_service_presence_waiting(l->svc) > 0) /* not written: later */
        (void)tny_timers_arm(timers(l), id, l->next_presence_ms);
}

/* The probation ended without the lease's holder taking the login back. */
static void on_lease(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    (void)id;
    if ((l->lease_state == LEASE_WAITING || l->lease_state == LEASE_PROBING) &&
        l->connected && l->lease_until_ms > 0 && now >= l->lease_until_ms)
        lease_take(l);
}

static void on_alarm(void *ctx, int32_t id, int64_t now)
{
    struct loop *l = ctx;
    (void)id;
    store_alarm_changed(l, hub_store_alarm_probe(&l->alarm, l->store, now));
}

/* Every turn, after poll: the adapters' queues (their descriptors are
 * readable while they hold anything), then a finished feed build. */
static void after_poll(void *ctx, int64_t now)
{
    struct loop *l = ctx;
    (void)now;
    if (sig_seen) {
        tny_loop_stop(l->ev);
        return;
    }
    play_drain(l);
    drain(l);
    if (l->lease_state == LEASE_REFUSED) {
        tny_loop_stop(l->ev);
        return;
    }
    if (l->feeder) {
        /* Cleared whether or not the build is taken now: one finished
         * while the previous build's documents wait for deliveries
         * (on_slice takes it once they are out) left the descriptor
         * readable, and the loop spun on it (a second of a core at
         * 2,500 tables' round publish, bench_live (d)). */
        hub_feed_thread_clear(l->feeder);
        feed_done(l);
    }
    feed_rearm(l); /* the feed thread may have finished */
}

/* The loop: the descriptors that wake it (the adapters' queues, the
 * signal pipe, the feed thread's builds) and the timers of the parts. */
static int loop_open(struct loop *l, struct tny_diag *diag)
{
    int rc;
    if ((rc = tny_loop_new(&l->ev)) < 0)
        return tny_diag_set(diag, rc, "out of memory");
    struct tny_loop *ev = l->ev;
    struct tny_timers *tm = timers(l);
    if ((rc = tny_loop_watch(ev, tny_mqtt_wakeup_fd(l->mqtt), POLLIN, NULL,
                             NULL)) < 0 ||
        (rc = tny_loop_watch(ev, sig_pipe[0], POLLIN, NULL, NULL)) < 0 ||
        (rc = tny_loop_watch(ev, l->feeder ? hub_feed_thread_fd(l->feeder) : -1,
                             POLLIN, NULL, NULL)) < 0 ||
        (rc = tny_loop_watch(ev, l->play ? tny_mqtt_wakeup_fd(l->play) : -1,
                             POLLIN, NULL, NULL)) < 0)
        return tny_diag_set(diag, rc, "too many descriptors");
    tny_loop_set_hooks(ev, NULL, after_poll, l);
    if ((l->t_retry = tny_timers_add(tm, on_retry, l)) < 0 ||
        (l->t_feed = tny_timers_add(tm, on_feed, l)) < 0 ||
        (l->t_slice = tny_timers_add(tm, on_slice, l)) < 0 ||
        (l->t_republish = tny_timers_add(tm, on_republish, l)) < 0 ||
        (l->t_trim = tny_timers_add(tm, on_trim, l)) < 0 ||
        (l->t_clock = tny_timers_add(tm, on_clock, l)) < 0 ||
        (l->t_ckpt = tny_timers_add(tm, on_checkpoint, l)) < 0 ||
        (l->t_presence = tny_timers_add(tm, on_presence, l)) < 0 ||
        (l->t_lease = tny_timers_add(tm, on_lease, l)) < 0 ||
        (l->t_alarm = tny_timers_add(tm, on_alarm, l)) < 0)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    int64_t now = mono_ms();
    l->next_presence_ms = now + HUB_PRESENCE_FLUSH_MS;
    clock_recheck(l); /* the round clocks running at start */
    (void)tny_timers_arm(
        tm, l->t_ckpt,
        now + (int64_t)l->cfg->v[HUB_CFG_CHECKPOINT_INTERVAL_S].number * 1000);
    return TNY_OK;
}

int hub_run(const struct hub_config *cfg)
{
    struct loop l;
    struct tny_diag diag = {{0}};
    struct hub_service_options so;
    int status = 1, lock_fd = -1;

    memset(&l, 0, sizeof(l));
    l.cfg = cfg;
    l.window = l.window_cfg = (int32_t)cfg->v[HUB_CFG_PUBLISH_WINDOW].number;
    hub_log_setup((enum hub_log_level)cfg->v[HUB_CFG_LOG_LEVEL].number,
                  cfg->v[HUB_CFG_LOG_TIMESTAMPS].number != 0);
    if (pipe(sig_pipe) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "pipe: %s", strerror(errno));
        return 1;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* One hub per database, before it is opened (hub_db_lock): a second
     * hub on it exits here, never online. */
    if (hub_db_lock(cfg, &lock_fd, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "database %s: %s; not going online",
                cfg->v[HUB_CFG_DATABASE].text, diag.msg);
        goto out;
    }
    /* Checked before anything is published: a database that cannot serve
     * (missing, corrupt, read-only) never shows the hub online. */
    if (hub_db_open(cfg, HUB_STORE_BACKGROUND_CHECKPOINT, &l.store, &diag) <
        0) {
        HUB_LOG(HUB_LOG_ERROR, "database %s: %s; not going online",
                cfg->v[HUB_CFG_DATABASE].text, diag.msg);
        goto out;
    }
    hub_store_alarm_init(&l.alarm, cfg->v[HUB_CFG_DATABASE].text);
    hub_service_options_init(&so);
    so.device_prefix = cfg->v[HUB_CFG_DEVICE_PREFIX].text;
    so.feed = cfg->v[HUB_CFG_FEED].number != 0;
    so.reply_cache = (int32_t)cfg->v[HUB_CFG_REPLY_CACHE].number;
    so.feed_piece_bytes = (size_t)cfg->v[HUB_CFG_FEED_PIECE_KB].number * 1024;
    so.feed_aggregate_ms = cfg->v[HUB_CFG_FEED_AGGREGATE_MS].number;
    so.codes = cfg->v[HUB_CFG_PLAY_BROKER_URI].text[0] != '\0';
    const char *check = getenv("TNY_MODEL_CHECK"); /* the tests' check */
    so.model_check = check && strcmp(check, "1") == 0;
    if (hub_service_new(l.store, &so, &l.svc, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "database %s: %s", cfg->v[HUB_CFG_DATABASE].text,
                diag.msg);
        goto out;
    }
    if (so.feed && hub_feed_thread_start(cfg->v[HUB_CFG_DATABASE].text, &so,
                                         &l.feeder, &diag) < 0)
        HUB_LOG(HUB_LOG_WARN, "feed built on the main thread: %s", diag.msg);
    if (hub_service_preload(l.svc, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "database %s: %s", cfg->v[HUB_CFG_DATABASE].text,
                diag.msg);
        goto out;
    }
    {
        char host[256] = "";
        uint64_t rnd = (uint64_t)mono_us() ^ ((uint64_t)getpid() << 40) ^
                       (uint64_t)wall_ms() * 0x9E3779B97F4A7C15ull;
        (void)gethostname(host, sizeof(host) - 1);
        snprintf(l.lease, sizeof(l.lease),
                 "pid %ld on host %.64s instance %016llx", (long)getpid(),
                 host[0] ? host : "?", (unsigned long long)rnd);
    }
    if (open_mqtt(&l, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "mqtt: %s", diag.msg);
        goto out;
    }
    if (open_play(&l, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "play_broker_uri: %s", diag.msg);
        goto out;
    }
    HUB_LOG(HUB_LOG_INFO, "hub started database=%s broker=%s login=%s",
            cfg->v[HUB_CFG_DATABASE].text, cfg->v[HUB_CFG_BROKER_URI].text,
            cfg->v[HUB_CFG_USERNAME].text);

    if (loop_open(&l, &diag) < 0) {
        HUB_LOG(HUB_LOG_ERROR, "loop: %s", diag.msg);
        goto out;
    }
    while (!sig_seen && !tny_loop_stopped(l.ev)) {
        if (tny_loop_once(l.ev, 60000, &diag) < 0) {
            HUB_LOG(HUB_LOG_ERROR, "%s", diag.msg);
            break;
        }
    }
    if (l.lease_state == LEASE_REFUSED)
        goto out; /* nothing more published: the login is another's */
    HUB_LOG(HUB_LOG_INFO, "shutting down (signal %d)", (int)sig_seen);
    {
        /* The adapter's own count, before the flush below (tests read it:
         * test_hub_publish_window.sh). */
        struct tny_mqtt_stats st;
        tny_mqtt_stats_get(l.mqtt, &st);
        HUB_LOG(HUB_LOG_INFO,
                "publishes: %llu sent, at most %d awaiting their "
                "acknowledgement at once (publish_window %d)",
                (unsigned long long)st.n_published, st.max_publishes_in_flight,
                (int)l.window);
    }
    if (l.feeder) { /* its last build (up to 2 s), then the rest here */
        for (int i = 0; i < 200 && hub_feed_thread_busy(l.feeder); i++) {
            (void)tny_loop_wait_fd(hub_feed_thread_fd(l.feeder), 10);
            feed_done(&l);
            while (feed_slice(&l, FEED_SLICE))
                ;
        }
        while (l.feed_out.n > 0 && feed_slice(&l, FEED_SLICE))
            ;
        hub_feed_thread_stop(l.feeder);
        l.feeder = NULL;
    }
    flush_feed(&l, true);
    l.window = INT32_MAX; /* what waits goes to Paho before the offline */
    send_waiting(&l);
    flush_presence(&l);
    say_offline(&l);
    /* Everything committed into the database file and the WAL emptied,
     * so a copy of hub.db alone is complete after a clean stop. */
    if (hub_store_checkpoint(l.store, &diag) < 0)
        HUB_LOG(HUB_LOG_WARN, "database %s: final checkpoint: %s",
                cfg->v[HUB_CFG_DATABASE].text, diag.msg);
    status = 0;
out:
    hub_feed_thread_stop(l.feeder);
    tny_loop_free(l.ev);
    tny_mqtt_close(l.play);
    tny_mqtt_close(l.mqtt);
    hub_outbox_release(&l.feed_out);
    queue_release(&l.pending);
    queue_release(&l.inflight);
    queue_release(&l.waiting);
    hub_fairq_free(l.results);
    held_release(&l);
    free(l.batch);
    free(l.sent);
    hub_service_free(l.svc);
    hub_store_close(l.store);
    if (lock_fd >= 0)
        close(lock_fd); /* the database closed first, then the lock */
    for (int i = 0; i < 2; i++) {
        if (sig_pipe[i] >= 0)
            close(sig_pipe[i]);
        sig_pipe[i] = -1;
    }
    return status;
}
