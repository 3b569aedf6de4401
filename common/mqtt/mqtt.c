/* mqtt.c - MQTT v5 client over Eclipse Paho C 1.3 (asynchronous API)
 * that turns everything Paho reports into events on a bounded queue read by
 * one owner thread.  See tny/mqtt.h for the contract.
 *
 * Not here: protocol payloads, persistence, logging, retries of publishes.
 *
 * Threads and locks.  Three kinds of thread touch a client: the owner (the
 * public API), Paho's send and receive threads (the static on_* callbacks)
 * and our reconnect thread (reconnect_main).  Everything mutable lives under
 * c->mu.  Lock order: Paho's own mutexes, then c->mu; so this file NEVER
 * calls a Paho function while holding c->mu (Paho calls our callbacks with
 * its mutex held, and its API takes that mutex).
 *
 * Paho traps this file works around (all read in the 1.3.12 sources):
 * - Automatic reconnect jitters with rand(), which only MQTTAsync_create
 *   seeds; MQTTAsync_createWithOptions (needed for v5) does not, so every
 *   device draws the same "random" delays, in whole seconds.  We run our
 *   own reconnect with tny_rng and milliseconds.
 * - With several serverURIs, losing an established connection to any but
 *   the last makes Paho connect to the next URI on its own, without our
 *   connect callbacks.  We pass one URI per attempt and rotate ourselves.
 * - Paho never sets TCP_NODELAY and exposes no socket: see set_nodelay().
 * - Publishes still queued inside Paho survive a reconnect and are sent in
 *   the new session; in-flight QoS 1/2 ones of a clean session fail with
 *   -11 (MQTTASYNC_OPERATION_INCOMPLETE) before connectionLost is called.
 * - A v5 PUBACK >= 128 arrives in onFailure5 with the reason code;
 *   onSuccess5 never carries the ack's reason code.  The failure data's
 *   packet_type is NOT usable to tell a broker's refusal from a request
 *   that ended inside Paho: for an ack, 1.3.12 reads it from the packet
 *   after MQTTProtocol_handlePubacks freed it (garbage, sometimes 0; fixed in
 *   1.3.13), and a failed write reports packet_type PUBLISH with code -1.
 *   reasonCode is reliable: >= 128 only for a refusing ack, otherwise
 *   MQTTREASONCODE_SUCCESS with the Paho error in code.
 * - Two 100 ms sleeps that no option of this API avoids, about 200 ms of
 *   every short-lived client (a `tourney live` command): the receive
 *   thread, started by MQTTAsync_connect (MQTTAsync.c:663-667) before the
 *   connect command is queued (:931), usually polls before the send
 *   thread has made the TCP connect, finds no socket and sleeps 100 ms
 *   (MQTTAsync_cycle, MQTTAsyncUtils.c:3000-3001) before it sees the
 *   connect complete and sends CONNECT (6 runs of 10 under strace); and
 *   MQTTAsync_destroy of the process's last client stops both threads in
 *   a loop that sleeps 100 ms before its first look (MQTTAsync_stop,
 *   MQTTAsyncUtils.c:2356-2360), every time, and up to 1 s more when the
 *   send thread misses the receive thread's wake-up (a condition variable
 *   without a predicate, :2314-2315 against :1806: its 1 s wait runs out;
 *   1 run of 10).
 *   Upstream master (1.3.13+) has the same.  Paho's synchronous API
 *   (MQTTClient, no callbacks, so no thread) has neither.
 *
 * Invariants: the pipe holds one byte exactly while the queue is non-empty
 * (c->signalled); q_limited/q_bytes count only MESSAGE and DROPPED nodes;
 * c->paho is valid from open to close; connect_due is only set while not
 * closing.
 */
#include "tny/mqtt.h"

#include <MQTTAsync.h>

#include <arpa/inet.h>
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "paho.h"

/* Paho's internal out-of-memory code (PAHO_MEMORY_ERROR, not in its public
 * headers). */
#define PAHO_NOMEM (-99)

/* One queued event; topic and payload (if any) follow the struct. */
struct node {
    struct node *next;
    size_t cost; /* bytes counted in q_bytes (0: not limited) */
    bool limited;
    struct tny_mqtt_message m;
};

struct sub {
    char *filter; /* owned; never freed before close, so pointers stay */
    int qos;
    bool rap; /* retain as published */
};

struct fixed {
    char *topic; /* NULL: none */
    void *payload;
    size_t len;
    int qos;
    bool retained;
};

struct tny_mqtt {
    MQTTAsync paho;
    const struct tny_paho *api; /* the Paho build (paho.h) */

    /* Options, immutable after open. */
    char *servers[TNY_MQTT_MAX_SERVERS];
    int n_servers;
    char *client_id;
    char *username; /* NULL: client_id */
    char *password;
    char *ca_file;
    char *cert_file;
    char *key_file;
    int keepalive_s;
    int connect_timeout_s;
    bool clean_start;
    uint32_t session_expiry_s;
    struct fixed will;
    struct fixed birth;
    size_t max_payload;
    int max_queued;
    size_t max_queued_bytes;
    int backoff_min_ms;
    int backoff_max_ms;
    bool tcp_nodelay;

    int pipe_rd;
    int pipe_wr;
    pthread_t thread;
    bool thread_started;
    bool mu_ok;
    bool cv_ok;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* CLOCK_MONOTONIC */

    /* Everything below is under mu. */
    struct node *head;
    struct node *tail;
    int q_limited;
    size_t q_bytes;
    bool signalled;
    struct sub subs[TNY_MQTT_MAX_SUBS];
    int n_subs;
    /* Filters taken out by tny_mqtt_unsubscribe: kept until close, since
     * the connect path may still hold their pointers (see on_connect). */
    char **retired;
    int n_retired;
    bool connected;
    bool ever_connected;
    int refused_reported; /* the CONNACK refusal last queued (0: none) */
    bool closing;
    bool connect_due;
    bool disconnect_done;
    /* Requests Paho accepted whose answer (an ack, or Paho's failure) has
     * not reached our callbacks yet; close waits for 0 (see there). */
    int in_flight;
    int pub_in_flight; /* tny_mqtt_publish's part of it (QoS > 0) */
    int receive_max;   /* the last CONNACK's (MQTT v5), 65535 if none */
    struct timespec due;
    int attempt;     /* failed attempts since the last connection */
    int server_idx;  /* server to try next */
    int resub_count; /* subscriptions sent by the latest connect */
    enum tny_mqtt_kind conn_kind;
    bool conn_session_present;
    struct tny_rng rng;
    struct tny_mqtt_stats stats;
};

/* ---- small helpers --------------------------------------------------- */

static struct timespec mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static struct timespec ts_add_ms(struct timespec t, int64_t ms)
{
    t.tv_sec += (time_t)(ms / 1000);
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static bool ts_before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec ||
           (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3u;
    }
    return h;
}

static char *dup_or_null(const char *s, bool *oom)
{
    char *d;
    if (!s)
        return NULL;
    d = strdup(s);
    if (!d)
        *oom = true;
    return d;
}

static int set_fd_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -1;
    fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

int tny_mqtt_backoff_ms(struct tny_rng *rng, int attempt, int min_ms,
                        int max_ms)
{
    int64_t cap = min_ms;
    int64_t lo;

    assert(rng && min_ms >= 1 && min_ms <= max_ms && attempt >= 0);
    for (int i = 0; i < attempt && cap < max_ms; i++)
        cap *= 2;
    if (cap > max_ms)
        cap = max_ms;
    lo = cap / 2;
    return (int)(lo + (int64_t)tny_rng_below(rng, (uint64_t)(cap - lo + 1)));
}

/* ---- the queue (all *_locked functions need c->mu) --------------------- */

static void wake_locked(struct tny_mqtt *c)
{
    if (!c->signalled) {
        char b = 1;
        /* A full pipe (impossible: one byte at most) or EINTR only means
         * the fd is already readable; nothing to undo. */
        ssize_t n = write(c->pipe_wr, &b, 1);
        (void)n;
        c->signalled = true;
    }
}

static void push_locked(struct tny_mqtt *c, struct node *n)
{
    n->next = NULL;
    if (c->tail)
        c->tail->next = n;
    else
        c->head = n;
    c->tail = n;
    if (n->limited) {
        c->q_limited++;
        c->q_bytes += n->cost;
    }
    wake_locked(c);
}

/* Queues a control event (not counted against the inbound limits). */
static void push_control_locked(struct tny_mqtt *c, struct node *n)
{
    if (!n) {
        c->stats.n_events_lost++;
        return;
    }
    n->limited = false;
    n->cost = 0;
    push_locked(c, n);
}

static struct node *control_node(enum tny_mqtt_kind kind)
{
    struct node *n = calloc(1, sizeof(*n));
    if (n) {
        n->m.kind = kind;
        n->m.mem = n;
    }
    return n;
}

/* ---- TCP_NODELAY ------------------------------------------------------ */

/* Splits "scheme://host:port" (host may be "[v6]"); port defaults to 1883
 * (8883 for ssl://, mqtts://, wss://).  0 on success. */
static int split_uri(const char *uri, char *host, size_t host_size, char *port,
                     size_t port_size)
{
    const char *p = strstr(uri, "://");
    const char *h;
    const char *colon;
    size_t hl;
    bool tls = strncmp(uri, "ssl://", 6) == 0 ||
               strncmp(uri, "mqtts://", 8) == 0 ||
               strncmp(uri, "wss://", 6) == 0;

    h = p ? p + 3 : uri;
    if (*h == '[') {
        const char *end = strchr(h, ']');
        if (!end)
            return -1;
        hl = (size_t)(end - h - 1);
        h++;
        colon = end[1] == ':' ? end + 1 : NULL;
    } else {
        colon = strchr(h, ':');
        hl = colon ? (size_t)(colon - h) : strcspn(h, "/");
    }
    if (hl == 0 || hl >= host_size)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    if (colon) {
        size_t pl = strspn(colon + 1, "0123456789");
        if (pl == 0 || pl >= port_size)
            return -1;
        memcpy(port, colon + 1, pl);
        port[pl] = '\0';
    } else {
        snprintf(port, port_size, "%s", tls ? "8883" : "1883");
    }
    return 0;
}

static bool same_peer(const struct sockaddr_storage *peer,
                      const struct addrinfo *ai)
{
    if (peer->ss_family != ai->ai_family)
        return false;
    if (ai->ai_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)peer;
        const struct sockaddr_in *b = (const struct sockaddr_in *)ai->ai_addr;
        return a->sin_port == b->sin_port &&
               a->sin_addr.s_addr == b->sin_addr.s_addr;
    }
    if (ai->ai_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)peer;
        const struct sockaddr_in6 *b = (const struct sockaddr_in6 *)ai->ai_addr;
        return a->sin6_port == b->sin6_port &&
               memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(a->sin6_addr)) == 0;
    }
    return false;
}

/* Paho 1.3.12 has no way to reach its socket, so we find it: every TCP
 * socket of this process whose peer is the broker's address and port is an
 * MQTT connection to that broker (ours, or another client's in the same
 * process, for which TCP_NODELAY is just as right).  Called right after
 * CONNACK, when our socket is certainly open, in Paho's receive thread (a
 * host name is resolved there again: use addresses or a local resolver).
 * Returns how many sockets now have TCP_NODELAY and the last one's fd; -1
 * when the URI did not resolve.
 * A socket closed and its fd reused between the peer check and setsockopt
 * can only be another TCP socket, for which the option is harmless. */
static int set_nodelay(const char *uri, int *last_fd)
{
    char host[256];
    char port[16];
    struct addrinfo hints;
    struct addrinfo *res = NULL;
    DIR *dir = NULL;
    struct dirent *de;
    int n_set = -1;

    if (!uri || split_uri(uri, host, sizeof(host), port, sizeof(port)) != 0)
        goto out;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        goto out;
    dir = opendir("/proc/self/fd");
    if (!dir)
        goto out;
    n_set = 0;
    while ((de = readdir(dir)) != NULL) {
        char *end;
        long fd = strtol(de->d_name, &end, 10);
        struct stat st;
        struct sockaddr_storage peer;
        socklen_t plen = sizeof(peer);
        int type = 0;
        socklen_t tlen = sizeof(type);
        int one = 1;
        bool match = false;

        if (*end != '\0' || end == de->d_name || fd < 0 || fd > INT_MAX ||
            fd == dirfd(dir))
            continue;
        if (fstat((int)fd, &st) != 0 || !S_ISSOCK(st.st_mode))
            continue;
        if (getsockopt((int)fd, SOL_SOCKET, SO_TYPE, &type, &tlen) != 0 ||
            type != SOCK_STREAM)
            continue;
        if (getpeername((int)fd, (struct sockaddr *)&peer, &plen) != 0)
            continue;
        for (const struct addrinfo *ai = res; ai && !match; ai = ai->ai_next)
            match = same_peer(&peer, ai);
        if (!match)
            continue;
        if (setsockopt((int)fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ==
            0) {
            n_set++;
            *last_fd = (int)fd;
        }
    }
out:
    if (dir)
        closedir(dir);
    if (res)
        freeaddrinfo(res);
    return n_set;
}

/* ---- reconnecting ----------------------------------------------------- */

static void schedule_retry_locked(struct tny_mqtt *c)
{
    int delay;

    if (c->closing)
        return;
    delay = tny_mqtt_backoff_ms(&c->rng, c->attempt, c->backoff_min_ms,
                                c->backoff_max_ms);
    if (c->attempt < 30)
        c->attempt++;
    c->stats.last_backoff_ms = delay;
    c->due = ts_add_ms(mono_now(), delay);
    c->connect_due = true;
    pthread_cond_broadcast(&c->cv);
}

static void on_connect_ok(void *ctx, MQTTAsync_successData5 *resp);
static void on_connect_fail(void *ctx, MQTTAsync_failureData5 *resp);

/* One connect attempt to servers[idx]; Paho's return code. */
static int start_connect(struct tny_mqtt *c, int idx)
{
    MQTTAsync_connectOptions co = MQTTAsync_connectOptions_initializer5;
    MQTTAsync_willOptions wo = MQTTAsync_willOptions_initializer;
    MQTTAsync_SSLOptions so = MQTTAsync_SSLOptions_initializer;
    MQTTProperties props = MQTTProperties_initializer;
    MQTTProperty prop;
    int rc;

    co.keepAliveInterval = c->keepalive_s;
    co.cleanstart = c->clean_start;
    co.connectTimeout = c->connect_timeout_s;
    co.automaticReconnect = 0;
    co.username = c->username ? c->username : c->client_id;
    co.password = c->password;
    /* One URI per attempt: see the file comment. */
    co.serverURIs = &c->servers[idx];
    co.serverURIcount = 1;
    co.onSuccess5 = on_connect_ok;
    co.onFailure5 = on_connect_fail;
    co.context = c;
    if (c->will.topic) {
        wo.topicName = c->will.topic;
        wo.message = NULL;
        wo.payload.data = c->will.payload;
        wo.payload.len = (int)c->will.len;
        wo.qos = c->will.qos;
        wo.retained = c->will.retained;
        co.will = &wo;
    }
    if (c->ca_file || c->cert_file || c->key_file ||
        strncmp(c->servers[idx], "ssl://", 6) == 0) {
        so.trustStore = c->ca_file;
        so.keyStore = c->cert_file;
        so.privateKey = c->key_file;
        so.enableServerCertAuth = 1;
        so.verify = 1; /* host name too */
        co.ssl = &so;
    }
    if (c->session_expiry_s > 0) {
        prop.identifier = MQTTPROPERTY_CODE_SESSION_EXPIRY_INTERVAL;
        prop.value.integer4 = c->session_expiry_s;
        if (c->api->properties_add(&props, &prop) != 0)
            return PAHO_NOMEM;
        co.connectProperties = &props;
    }
    rc = c->api->connect(c->paho, &co);
    c->api->properties_free(&props); /* Paho copied them */
    return rc;
}

static void *reconnect_main(void *arg)
{
    struct tny_mqtt *c = arg;

    pthread_mutex_lock(&c->mu);
    while (!c->closing) {
        struct timespec now;
        int idx;
        int rc;

        if (!c->connect_due) {
            pthread_cond_wait(&c->cv, &c->mu);
            continue;
        }
        now = mono_now();
        if (ts_before(now, c->due)) {
            pthread_cond_timedwait(&c->cv, &c->mu, &c->due);
            continue;
        }
        c->connect_due = false;
        idx = c->server_idx;
        pthread_mutex_unlock(&c->mu);
        rc = start_connect(c, idx);
        pthread_mutex_lock(&c->mu);
        if (rc == MQTTASYNC_SUCCESS) {
            c->stats.n_connect_attempts++;
        } else {
            c->stats.n_connect_failures++;
            c->stats.last_connect_rc = rc;
            c->server_idx = (c->server_idx + 1) % c->n_servers;
            schedule_retry_locked(c);
        }
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* ---- Paho callbacks (Paho's threads: copy, count, queue, nothing else) -- */

/* A request is about to go to Paho (+1) or is over: refused by Paho or
 * answered through a callback (-1).  Under c->mu; close waits on the cv
 * for 0. */
static void in_flight_locked(struct tny_mqtt *c, int delta)
{
    c->in_flight += delta;
    if (c->in_flight <= 0) {
        c->in_flight = 0;
        pthread_cond_broadcast(&c->cv);
    }
}

static void in_flight_add(struct tny_mqtt *c, int delta)
{
    pthread_mutex_lock(&c->mu);
    in_flight_locked(c, delta);
    pthread_mutex_unlock(&c->mu);
}

static void push_conn_event(struct tny_mqtt *c, int n_refused)
{
    struct node *n = control_node(TNY_MQTT_CONNECTED);

    pthread_mutex_lock(&c->mu);
    c->stats.n_subs_refused += (uint64_t)n_refused;
    if (n) {
        n->m.kind = c->conn_kind;
        n->m.n_refused = n_refused;
        n->m.session_present = c->conn_session_present;
    }
    push_control_locked(c, n);
    pthread_mutex_unlock(&c->mu);
}

static void on_resub_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    struct tny_mqtt *c = ctx;
    int refused = 0;

    /* Paho: one subscription -> reasonCode; several -> the array (which
     * it leaves NULL when its malloc failed; then only the first code). */
    if (resp->alt.sub.reasonCodeCount > 1 && resp->alt.sub.reasonCodes) {
        for (int i = 0; i < resp->alt.sub.reasonCodeCount; i++)
            refused += resp->alt.sub.reasonCodes[i] >= 128;
    } else {
        refused = resp->reasonCode >= 128;
    }
    in_flight_add(c, -1);
    push_conn_event(c, refused);
}

static void on_resub_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    struct tny_mqtt *c = ctx;
    int n;

    (void)resp;
    /* Paho calls this for a refused single subscription (reasonCode) or
     * when the request ended unanswered: either way none was made. */
    pthread_mutex_lock(&c->mu);
    n = c->resub_count;
    in_flight_locked(c, -1);
    pthread_mutex_unlock(&c->mu);
    push_conn_event(c, n);
}

static void on_birth_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    (void)resp;
    in_flight_add(ctx, -1);
}

static void on_birth_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    struct tny_mqtt *c = ctx;

    (void)resp;
    pthread_mutex_lock(&c->mu);
    c->stats.n_birth_failed++;
    in_flight_locked(c, -1);
    pthread_mutex_unlock(&c->mu);
}

/* The CONNACK's Receive Maximum (MQTT v5 3.2.2.3.3): how many QoS 1/2
 * publishes the server takes unacknowledged; absent, 65535.  Read from
 * the structure (Paho's property functions are not in our table). */
static int connack_receive_max(const MQTTProperties *props)
{
    for (int i = 0; props && i < props->count; i++)
        if (props->array[i].identifier == MQTTPROPERTY_CODE_RECEIVE_MAXIMUM &&
            props->array[i].value.integer2 > 0)
            return props->array[i].value.integer2;
    return 65535;
}

static void on_connect_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    struct tny_mqtt *c = ctx;
    char *filters[TNY_MQTT_MAX_SUBS];
    int qoss[TNY_MQTT_MAX_SUBS];
    MQTTSubscribe_options sopts[TNY_MQTT_MAX_SUBS];
    bool any_rap = false;
    int n_subs;
    bool closing;
    bool nodelay;
    int fd = -1;
    int n_set = 0;

    pthread_mutex_lock(&c->mu);
    c->connected = true;
    c->attempt = 0;
    c->refused_reported = 0;
    c->stats.n_connects++;
    c->conn_kind =
        c->ever_connected ? TNY_MQTT_RECONNECTED : TNY_MQTT_CONNECTED;
    c->conn_session_present = resp->alt.connect.sessionPresent != 0;
    c->receive_max = connack_receive_max(&resp->properties);
    c->ever_connected = true;
    closing = c->closing;
    nodelay = c->tcp_nodelay;
    /* Filter strings are never freed before close: copying the pointers is
     * enough for Paho, which copies the strings in subscribeMany. */
    n_subs = c->n_subs;
    c->resub_count = n_subs;
    for (int i = 0; i < n_subs; i++) {
        filters[i] = c->subs[i].filter;
        qoss[i] = c->subs[i].qos;
        sopts[i] = (MQTTSubscribe_options)MQTTSubscribe_options_initializer;
        sopts[i].retainAsPublished = c->subs[i].rap ? 1 : 0;
        any_rap |= c->subs[i].rap;
    }
    pthread_mutex_unlock(&c->mu);
    if (closing)
        return;

    if (nodelay) {
        n_set = set_nodelay(resp->alt.connect.serverURI, &fd);
        pthread_mutex_lock(&c->mu);
        if (n_set > 0) {
            c->stats.n_nodelay_set++;
            c->stats.nodelay_fd = fd;
        } else {
            c->stats.n_nodelay_failed++;
        }
        pthread_mutex_unlock(&c->mu);
    }

    if (c->birth.topic) {
        MQTTAsync_message m = MQTTAsync_message_initializer;
        MQTTAsync_responseOptions ro = MQTTAsync_responseOptions_initializer;
        int rc;

        m.payload = c->birth.payload;
        m.payloadlen = (int)c->birth.len;
        m.qos = c->birth.qos;
        m.retained = c->birth.retained;
        ro.onSuccess5 = on_birth_ok;
        ro.onFailure5 = on_birth_fail;
        ro.context = c;
        in_flight_add(c, 1);
        rc = c->api->sendMessage(c->paho, c->birth.topic, &m, &ro);
        if (rc != MQTTASYNC_SUCCESS) {
            pthread_mutex_lock(&c->mu);
            c->stats.n_birth_failed++;
            in_flight_locked(c, -1);
            pthread_mutex_unlock(&c->mu);
        }
    }

    if (n_subs == 0) {
        push_conn_event(c, 0);
    } else {
        MQTTAsync_responseOptions ro = MQTTAsync_responseOptions_initializer;
        int rc;

        ro.onSuccess5 = on_resub_ok;
        ro.onFailure5 = on_resub_fail;
        ro.context = c;
        if (any_rap) { /* per filter, in order */
            ro.subscribeOptionsList = sopts;
            ro.subscribeOptionsCount = n_subs;
        }
        in_flight_add(c, 1);
        rc = c->api->subscribeMany(c->paho, n_subs, filters, qoss, &ro);
        if (rc != MQTTASYNC_SUCCESS) {
            in_flight_add(c, -1);
            push_conn_event(c, n_subs);
        }
    }
}

static void on_connect_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    struct tny_mqtt *c = ctx;

    pthread_mutex_lock(&c->mu);
    c->stats.n_connect_failures++;
    /* Paho puts a refusing CONNACK's reason code (134 bad login, 135 not
     * authorised) in code, not in reasonCode. */
    c->stats.last_connect_rc = resp && resp->code < 0 ? resp->code : 0;
    c->stats.last_connect_reason = resp && resp->code > 0
                                       ? resp->code
                                       : (resp ? (int)resp->reasonCode : 0);
    /* A refusing CONNACK is queued once per change of its reason, so that
     * the program can say why it stays offline (a wrong password). */
    if (c->stats.last_connect_reason >= 128 && !c->closing &&
        c->stats.last_connect_reason != c->refused_reported) {
        struct node *n = control_node(TNY_MQTT_REFUSED);
        if (n)
            n->m.reason = c->stats.last_connect_reason;
        push_control_locked(c, n);
        c->refused_reported = c->stats.last_connect_reason;
    }
    c->server_idx = (c->server_idx + 1) % c->n_servers;
    schedule_retry_locked(c);
    pthread_mutex_unlock(&c->mu);
}

static void on_lost(void *ctx, char *cause)
{
    struct tny_mqtt *c = ctx;
    struct node *n = control_node(TNY_MQTT_LOST);

    (void)cause; /* Paho 1.3.12 always passes NULL here */
    pthread_mutex_lock(&c->mu);
    c->connected = false;
    c->stats.n_lost++;
    if (c->closing) {
        free(n);
    } else {
        push_control_locked(c, n);
        schedule_retry_locked(c);
    }
    pthread_mutex_unlock(&c->mu);
}

static int on_arrived(void *ctx, char *topic, int topic_len,
                      MQTTAsync_message *pm)
{
    struct tny_mqtt *c = ctx;
    size_t tlen = topic_len > 0 ? (size_t)topic_len : strlen(topic);
    size_t full = pm->payloadlen > 0 ? (size_t)pm->payloadlen : 0;
    bool oversize = full > c->max_payload;
    size_t plen = oversize ? 0 : full;
    struct node *n = malloc(sizeof(*n) + tlen + 1 + plen + 1);

    if (n) {
        char *data = (char *)(n + 1);
        memset(n, 0, sizeof(*n));
        n->m.kind = oversize ? TNY_MQTT_DROPPED : TNY_MQTT_MESSAGE;
        n->m.mem = n;
        n->m.topic = data;
        memcpy(data, topic, tlen);
        data[tlen] = '\0';
        if (!oversize) {
            n->m.payload = (unsigned char *)data + tlen + 1;
            if (plen > 0)
                memcpy(n->m.payload, pm->payload, plen);
            n->m.payload[plen] = '\0';
        }
        n->m.len = full;
        n->m.qos = pm->qos;
        n->m.retained = pm->retained != 0;
        struct timespec rx = mono_now();
        n->m.rx_us = (int64_t)rx.tv_sec * 1000000 + rx.tv_nsec / 1000;
        n->limited = true;
        n->cost = tlen + plen;
    }
    c->api->freeMessage(&pm);
    c->api->free(topic);

    pthread_mutex_lock(&c->mu);
    if (oversize)
        c->stats.n_dropped_oversize++;
    if (n && c->q_limited < c->max_queued &&
        c->q_bytes + n->cost <= c->max_queued_bytes) {
        push_locked(c, n);
        if (!oversize)
            c->stats.n_received++;
        n = NULL;
    } else if (!oversize) {
        c->stats.n_dropped_overflow++;
    }
    pthread_mutex_unlock(&c->mu);
    free(n);
    /* 1 = taken.  Returning 0 would make Paho keep the message in an
     * unbounded list and retry one message per receive cycle. */
    return 1;
}

static void on_pub_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    struct tny_mqtt *c = ctx;
    struct node *n = control_node(TNY_MQTT_DELIVERED);

    if (n)
        n->m.token = resp->token;
    pthread_mutex_lock(&c->mu);
    in_flight_locked(c, -1);
    c->pub_in_flight--;
    push_control_locked(c, n);
    pthread_mutex_unlock(&c->mu);
}

static void on_pub_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    struct tny_mqtt *c = ctx;
    struct node *n = control_node(TNY_MQTT_DELIVERED);
    /* Only a refusing PUBACK/PUBREC sets reasonCode (>= 128); a request
     * that ended inside Paho leaves it 0 and sets code (e.g. -11, or -1
     * for a failed write).  Never packet_type: see the file comment. */
    bool answered = (int)resp->reasonCode >= MQTTREASONCODE_UNSPECIFIED_ERROR;
    int reason = answered ? (int)resp->reasonCode : 0;
    int lib_rc = answered ? 0 : (resp->code != 0 ? resp->code : -1);

    if (n) {
        n->m.token = resp->token;
        n->m.reason = reason;
        n->m.lib_rc = lib_rc;
    }
    pthread_mutex_lock(&c->mu);
    if (answered)
        c->stats.n_delivery_refused++;
    else
        c->stats.n_delivery_failed++;
    in_flight_locked(c, -1);
    c->pub_in_flight--;
    push_control_locked(c, n);
    pthread_mutex_unlock(&c->mu);
}

static void on_sub_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    struct tny_mqtt *c = ctx;
    struct node *n = control_node(TNY_MQTT_SUBSCRIBED);

    if (n) {
        n->m.token = resp->token;
        n->m.reason = (int)resp->reasonCode;
    }
    pthread_mutex_lock(&c->mu);
    in_flight_locked(c, -1);
    push_control_locked(c, n);
    pthread_mutex_unlock(&c->mu);
}

static void on_sub_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    struct tny_mqtt *c = ctx;
    struct node *n = control_node(TNY_MQTT_SUBSCRIBED);

    if (n) {
        n->m.token = resp->token;
        /* A refusing SUBACK sets reasonCode; a request that ended without
         * one sets code only. */
        n->m.reason = (int)resp->reasonCode;
        n->m.lib_rc =
            resp->reasonCode >= 128 ? 0 : (resp->code ? resp->code : -1);
    }
    pthread_mutex_lock(&c->mu);
    c->stats.n_subs_refused++;
    in_flight_locked(c, -1);
    push_control_locked(c, n);
    pthread_mutex_unlock(&c->mu);
}

/* An unsubscribe's outcome is not reported (tny_mqtt_unsubscribe); only
 * its end counts. */
static void on_unsub_ok(void *ctx, MQTTAsync_successData5 *resp)
{
    (void)resp;
    in_flight_add(ctx, -1);
}

static void on_unsub_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    (void)resp;
    in_flight_add(ctx, -1);
}

static void on_disconnected(void *ctx, MQTTAsync_successData5 *resp)
{
    struct tny_mqtt *c = ctx;

    (void)resp;
    pthread_mutex_lock(&c->mu);
    c->disconnect_done = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static void on_disconnect_fail(void *ctx, MQTTAsync_failureData5 *resp)
{
    on_disconnected(ctx, NULL);
    (void)resp;
}

/* ---- options ---------------------------------------------------------- */

void tny_mqtt_options_init(struct tny_mqtt_options *o)
{
    memset(o, 0, sizeof(*o));
    o->keepalive_s = 30;
    o->connect_timeout_s = 10;
    o->clean_start = true;
    o->max_payload = TNY_MQTT_DEFAULT_MAX_PAYLOAD;
    o->max_queued = 10000;
    o->max_queued_bytes = (size_t)64 * 1024 * 1024;
    o->max_buffered = 1000;
    o->reconnect_min_ms = 250;
    o->reconnect_max_ms = 30000;
    o->tcp_nodelay = true;
}

static bool valid_client_id(const char *s)
{
    size_t n = 0;
    if (!s)
        return false;
    for (; s[n]; n++) {
        char ch = s[n];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '-'))
            return false;
    }
    return n >= 1 && n <= TNY_MQTT_MAX_CLIENT_ID;
}

/* Topic (wildcards false) or filter (true): 1..TNY_MQTT_MAX_TOPIC bytes. */
static bool valid_topic(const char *t, bool wildcards)
{
    size_t n;
    if (!t)
        return false;
    n = strlen(t);
    if (n == 0 || n > TNY_MQTT_MAX_TOPIC)
        return false;
    return wildcards || strpbrk(t, "+#") == NULL;
}

static int check_fixed(const struct tny_mqtt_fixed_message *f, const char *what,
                       size_t max_payload, struct tny_diag *diag)
{
    if (!f->topic)
        return 0;
    if (!valid_topic(f->topic, false))
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.%s.topic: expected 1..%d bytes without + "
                            "or #",
                            what, TNY_MQTT_MAX_TOPIC);
    if (f->qos < 0 || f->qos > 2)
        return tny_diag_set(diag, TNY_EINVAL, "mqtt.%s.qos: expected 0..2",
                            what);
    if ((f->len > 0 && !f->payload) || f->len > max_payload)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.%s.payload: expected 0..%zu bytes", what,
                            max_payload);
    return 0;
}

static int check_options(const struct tny_mqtt_options *o,
                         struct tny_diag *diag)
{
    int rc = 0;

    if (!o->servers || o->n_servers < 1 || o->n_servers > TNY_MQTT_MAX_SERVERS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.servers: expected 1..%d server URIs",
                            TNY_MQTT_MAX_SERVERS);
    for (int i = 0; i < o->n_servers; i++) {
        const char *s = o->servers[i];
        char host[256];
        char port[16];
        if (!s ||
            (strncmp(s, "tcp://", 6) != 0 && strncmp(s, "ssl://", 6) != 0 &&
             strncmp(s, "ws://", 5) != 0) ||
            split_uri(s, host, sizeof(host), port, sizeof(port)) != 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "mqtt.servers[%d]: expected tcp://host:port, "
                                "ssl://host:port or ws://host:port, got '%s'",
                                i, s ? s : "(null)");
    }
    if (!valid_client_id(o->client_id))
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.client_id: expected 1..%d characters of "
                            "[a-z0-9-], got '%s'",
                            TNY_MQTT_MAX_CLIENT_ID,
                            o->client_id ? o->client_id : "(null)");
    if (o->username && !valid_client_id(o->username))
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.username: expected 1..%d characters of "
                            "[a-z0-9-], got '%s'",
                            TNY_MQTT_MAX_CLIENT_ID, o->username);
    if (o->keepalive_s < 1 || o->keepalive_s > 3600)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.keepalive_s: expected 1..3600, got %d",
                            o->keepalive_s);
    if (o->connect_timeout_s < 1 || o->connect_timeout_s > 300)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.connect_timeout_s: expected 1..300, got %d",
                            o->connect_timeout_s);
    if (o->max_payload < 1 || o->max_payload > TNY_MQTT_MAX_PAYLOAD_LIMIT)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.max_payload: expected 1..%zu, got %zu",
                            TNY_MQTT_MAX_PAYLOAD_LIMIT, o->max_payload);
    if (o->max_queued < 1 || o->max_queued_bytes < o->max_payload)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.max_queued: expected >= 1 message and >= "
                            "max_payload bytes");
    if (o->max_buffered < 1 || o->max_buffered > 1000000)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.max_buffered: expected 1..1000000, got %d",
                            o->max_buffered);
    if (o->reconnect_min_ms < 1 || o->reconnect_max_ms < o->reconnect_min_ms ||
        o->reconnect_max_ms > 3600000)
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.reconnect_min_ms/max_ms: expected 1 <= min "
                            "<= max <= 3600000, got %d and %d",
                            o->reconnect_min_ms, o->reconnect_max_ms);
    if (o->n_subs < 0 || o->n_subs > TNY_MQTT_MAX_SUBS ||
        (o->n_subs > 0 && !o->subs))
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt.subs: expected 0..%d subscriptions",
                            TNY_MQTT_MAX_SUBS);
    for (int i = 0; i < o->n_subs; i++) {
        if (!valid_topic(o->subs[i].filter, true) || o->subs[i].qos < 0 ||
            o->subs[i].qos > 2)
            return tny_diag_set(diag, TNY_EINVAL,
                                "mqtt.subs[%d]: expected a filter of 1..%d "
                                "bytes and qos 0..2",
                                i, TNY_MQTT_MAX_TOPIC);
    }
    rc = check_fixed(&o->will, "will", o->max_payload, diag);
    if (rc == 0)
        rc = check_fixed(&o->birth, "birth", o->max_payload, diag);
    return rc;
}

static int copy_fixed(struct fixed *dst,
                      const struct tny_mqtt_fixed_message *src)
{
    if (!src->topic)
        return 0;
    dst->topic = strdup(src->topic);
    dst->payload = malloc(src->len > 0 ? src->len : 1);
    if (!dst->topic || !dst->payload)
        return TNY_ENOMEM;
    if (src->len > 0)
        memcpy(dst->payload, src->payload, src->len);
    dst->len = src->len;
    dst->qos = src->qos;
    dst->retained = src->retained;
    return 0;
}

/* ---- lifecycle -------------------------------------------------------- */

static void free_client(struct tny_mqtt *c)
{
    struct node *n;

    if (c->paho)
        c->api->destroy(&c->paho);
    /* Paho is gone: no callback can run any more. */
    n = c->head;
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
    for (int i = 0; i < c->n_subs; i++)
        free(c->subs[i].filter);
    for (int i = 0; i < c->n_retired; i++)
        free(c->retired[i]);
    free(c->retired);
    for (int i = 0; i < c->n_servers; i++)
        free(c->servers[i]);
    free(c->client_id);
    free(c->username);
    free(c->password);
    free(c->ca_file);
    free(c->cert_file);
    free(c->key_file);
    free(c->will.topic);
    free(c->will.payload);
    free(c->birth.topic);
    free(c->birth.payload);
    if (c->pipe_rd >= 0)
        close(c->pipe_rd);
    if (c->pipe_wr >= 0)
        close(c->pipe_wr);
    if (c->cv_ok)
        pthread_cond_destroy(&c->cv);
    if (c->mu_ok)
        pthread_mutex_destroy(&c->mu);
    free(c);
}

int tny_mqtt_open(const struct tny_mqtt_options *opts, struct tny_mqtt **client,
                  struct tny_diag *diag)
{
    struct tny_mqtt *c = NULL;
    MQTTAsync_createOptions cro = MQTTAsync_createOptions_initializer5;
    pthread_condattr_t ca;
    bool oom = false;
    int fds[2];
    int prc;
    int rc;

    assert(opts && client);
    *client = NULL;
    rc = check_options(opts, diag);
    if (rc != 0)
        goto out;
    c = calloc(1, sizeof(*c));
    if (!c) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "mqtt: out of memory");
        goto out;
    }
    c->pipe_rd = -1;
    c->pipe_wr = -1;
    c->stats.nodelay_fd = -1;

    for (int i = 0; i < opts->n_servers; i++)
        c->servers[i] = dup_or_null(opts->servers[i], &oom);
    c->n_servers = opts->n_servers;
    c->client_id = dup_or_null(opts->client_id, &oom);
    c->username = dup_or_null(opts->username, &oom);
    c->password = dup_or_null(opts->password, &oom);
    c->ca_file = dup_or_null(opts->ca_file, &oom);
    c->cert_file = dup_or_null(opts->cert_file, &oom);
    c->key_file = dup_or_null(opts->key_file, &oom);
    for (int i = 0; i < opts->n_subs; i++) {
        c->subs[i].filter = dup_or_null(opts->subs[i].filter, &oom);
        c->subs[i].qos = opts->subs[i].qos;
        c->subs[i].rap = (opts->retain_as_published >> i) & 1u;
        c->n_subs = i + 1;
    }
    if (copy_fixed(&c->will, &opts->will) != 0 ||
        copy_fixed(&c->birth, &opts->birth) != 0)
        oom = true;
    if (oom) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "mqtt: out of memory");
        goto out;
    }
    c->keepalive_s = opts->keepalive_s;
    c->connect_timeout_s = opts->connect_timeout_s;
    c->clean_start = opts->clean_start;
    c->session_expiry_s = opts->session_expiry_s;
    c->max_payload = opts->max_payload;
    c->max_queued = opts->max_queued;
    c->max_queued_bytes = opts->max_queued_bytes;
    c->backoff_min_ms = opts->reconnect_min_ms;
    c->backoff_max_ms = opts->reconnect_max_ms;
    c->tcp_nodelay = opts->tcp_nodelay;
    tny_rng_seed(&c->rng, opts->seed ^ fnv1a64(opts->client_id));

    if (pipe(fds) != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: pipe: %s", strerror(errno));
        goto out;
    }
    c->pipe_rd = fds[0];
    c->pipe_wr = fds[1];
    if (set_fd_flags(c->pipe_rd) != 0 || set_fd_flags(c->pipe_wr) != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: fcntl: %s", strerror(errno));
        goto out;
    }
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: mutex init failed");
        goto out;
    }
    c->mu_ok = true;
    if (pthread_condattr_init(&ca) != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: condattr init failed");
        goto out;
    }
    prc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    if (prc == 0)
        prc = pthread_cond_init(&c->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (prc != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: cond init failed");
        goto out;
    }
    c->cv_ok = true;

    /* Paho's TLS build only when a broker needs it (paho.h). */
    bool tls = false;
    for (int i = 0; i < c->n_servers; i++)
        tls = tls || strncmp(c->servers[i], "ssl://", 6) == 0;
    if ((rc = tny__paho_get(tls, &c->api, diag)) < 0)
        goto out;

    /* No persistence (the owner's store is the truth; Paho's files cost
     * throughput and break on power loss); never queue while disconnected,
     * so that publish reports the disconnection instead of buffering. */
    cro.sendWhileDisconnected = 0;
    cro.maxBufferedMessages = opts->max_buffered;
    cro.MQTTVersion = MQTTVERSION_5;
    cro.deleteOldestMessages = 0; /* would drop silently */
    prc = c->api->createWithOptions(&c->paho, c->servers[0], c->client_id,
                                    MQTTCLIENT_PERSISTENCE_NONE, NULL, &cro);
    if (prc != MQTTASYNC_SUCCESS) {
        c->paho = NULL;
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: MQTTAsync_create: %s (%d)",
                          c->api->strerror(prc), prc);
        goto out;
    }
    prc = c->api->setCallbacks(c->paho, c, on_lost, on_arrived, NULL);
    if (prc != MQTTASYNC_SUCCESS) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "mqtt: MQTTAsync_setCallbacks: %s (%d)",
                          c->api->strerror(prc), prc);
        goto out;
    }
    /* The first attempt is immediate; the thread makes it. */
    c->connect_due = true;
    c->due = mono_now();
    if (pthread_create(&c->thread, NULL, reconnect_main, c) != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "mqtt: cannot start thread");
        goto out;
    }
    c->thread_started = true;
    *client = c;
    c = NULL;
out:
    if (c)
        free_client(c);
    return rc;
}

void tny_mqtt_close(struct tny_mqtt *c)
{
    bool connected;

    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->closing = true;
    c->connect_due = false;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (c->thread_started)
        pthread_join(c->thread, NULL);

    /* Requests still in flight are answered first (at most 1 s): Paho's
     * receive thread drops, unfreed, a packet it read for a client that
     * disconnects or is destroyed meanwhile (1.3.12 and master:
     * MQTTAsync_receiveThread's "Could not find client corresponding to
     * socket" and MQTTAsync_tostop exits), so closing right after a
     * subscribe or unsubscribe leaked its SUBACK/UNSUBACK (the 610 bytes
     * LeakSanitizer once saw in test_mqtt). */
    pthread_mutex_lock(&c->mu);
    struct timespec settle = ts_add_ms(mono_now(), 1000);
    while (c->connected && c->in_flight > 0 && ts_before(mono_now(), settle))
        pthread_cond_timedwait(&c->cv, &c->mu, &settle);
    connected = c->connected;
    pthread_mutex_unlock(&c->mu);
    if (connected) {
        MQTTAsync_disconnectOptions d = MQTTAsync_disconnectOptions_initializer;
        d.struct_version = 1; /* v5 callbacks */
        d.timeout = 1000;
        d.reasonCode = MQTTREASONCODE_NORMAL_DISCONNECTION; /* no will */
        d.onSuccess5 = on_disconnected;
        d.onFailure5 = on_disconnect_fail;
        d.context = c;
        if (c->api->disconnect(c->paho, &d) == MQTTASYNC_SUCCESS) {
            struct timespec until = ts_add_ms(mono_now(), 3000);
            pthread_mutex_lock(&c->mu);
            while (!c->disconnect_done && ts_before(mono_now(), until))
                pthread_cond_timedwait(&c->cv, &c->mu, &until);
            pthread_mutex_unlock(&c->mu);
        }
    }
    /* MQTTAsync_destroy (in free_client) also sends DISCONNECT with reason
     * 0 when still connected, and fails queued requests through our
     * callbacks, which still find the queue. */
    free_client(c);
}

/* ---- owner API -------------------------------------------------------- */

int tny_mqtt_wakeup_fd(const struct tny_mqtt *c)
{
    return c->pipe_rd;
}

int tny_mqtt_next_message(struct tny_mqtt *c, struct tny_mqtt_message *msg)
{
    struct node *n;
    int rc = 0;

    memset(msg, 0, sizeof(*msg));
    pthread_mutex_lock(&c->mu);
    n = c->head;
    if (!n) {
        rc = TNY_ENOTFOUND;
        goto unlock;
    }
    c->head = n->next;
    if (!c->head)
        c->tail = NULL;
    if (n->limited) {
        c->q_limited--;
        c->q_bytes -= n->cost;
    }
    *msg = n->m;
unlock:
    if (!c->head && c->signalled) {
        char buf[16];
        while (read(c->pipe_rd, buf, sizeof(buf)) > 0)
            ;
        c->signalled = false;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

void tny_mqtt_message_release(struct tny_mqtt_message *msg)
{
    if (!msg)
        return;
    free(msg->mem);
    memset(msg, 0, sizeof(*msg));
}

/* Maps a Paho refusal to our error and message. */
static int paho_error(const struct tny_mqtt *c, int prc, const char *what,
                      struct tny_diag *diag)
{
    const char *text = c->api->strerror(prc);
    int rc;

    switch (prc) {
    case MQTTASYNC_DISCONNECTED: rc = TNY_ESTATE; break;
    case MQTTASYNC_MAX_BUFFERED_MESSAGES:
    case MQTTASYNC_NO_MORE_MSGIDS: rc = TNY_ERANGE; break;
    case MQTTASYNC_BAD_UTF8_STRING:
    case MQTTASYNC_BAD_QOS:
    case MQTTASYNC_TOPICNAME_TRUNCATED: rc = TNY_EINVAL; break;
    case PAHO_NOMEM: rc = TNY_ENOMEM; break;
    default: rc = TNY_ESTATE; break;
    }
    return tny_diag_set(diag, rc, "mqtt: %s refused by paho: %s (%d)", what,
                        text ? text : "unknown error", prc);
}

int tny_mqtt_publish(struct tny_mqtt *c, const char *topic, const void *payload,
                     size_t len, int qos, bool retained, int *token,
                     struct tny_diag *diag)
{
    MQTTAsync_message m = MQTTAsync_message_initializer;
    MQTTAsync_responseOptions ro = MQTTAsync_responseOptions_initializer;
    bool connected;
    int prc;
    int rc = 0;

    if (token)
        *token = 0;
    if (!valid_topic(topic, false)) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "mqtt: publish topic '%s': expected 1..%d bytes "
                          "without + or #",
                          topic ? topic : "(null)", TNY_MQTT_MAX_TOPIC);
        goto out;
    }
    if (qos < 0 || qos > 2 || (len > 0 && !payload)) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "mqtt: publish on '%s': bad qos %d or payload", topic,
                          qos);
        goto out;
    }
    if (len > c->max_payload) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "mqtt: publish on '%s': %zu bytes exceed "
                          "max_payload %zu",
                          topic, len, c->max_payload);
        goto out;
    }
    pthread_mutex_lock(&c->mu);
    connected = c->connected;
    pthread_mutex_unlock(&c->mu);
    if (!connected) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "mqtt: publish on '%s': not connected", topic);
        goto out;
    }
    m.payload = (void *)payload; /* Paho copies it */
    m.payloadlen = (int)len;
    m.qos = qos;
    m.retained = retained;
    if (qos > 0) {
        ro.onSuccess5 = on_pub_ok;
        ro.onFailure5 = on_pub_fail;
        ro.context = c;
        pthread_mutex_lock(&c->mu);
        in_flight_locked(c, 1);
        if (++c->pub_in_flight > c->stats.max_publishes_in_flight)
            c->stats.max_publishes_in_flight = c->pub_in_flight;
        pthread_mutex_unlock(&c->mu);
    }
    prc = c->api->sendMessage(c->paho, topic, &m, &ro);
    if (prc != MQTTASYNC_SUCCESS) {
        if (qos > 0) {
            pthread_mutex_lock(&c->mu);
            in_flight_locked(c, -1);
            c->pub_in_flight--;
            pthread_mutex_unlock(&c->mu);
        }
        rc = paho_error(c, prc, "publish", diag);
        goto out;
    }
    if (token)
        *token = ro.token;
out:
    pthread_mutex_lock(&c->mu);
    if (rc == 0)
        c->stats.n_published++;
    else
        c->stats.n_publish_refused++;
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int tny_mqtt_subscribe(struct tny_mqtt *c, const char *filter, int qos,
                       int *token, struct tny_diag *diag)
{
    MQTTAsync_responseOptions ro = MQTTAsync_responseOptions_initializer;
    bool connected;
    bool found = false;
    int prc;
    int rc = 0;

    if (token)
        *token = 0;
    if (!valid_topic(filter, true) || qos < 0 || qos > 2) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "mqtt: subscribe '%s': expected a filter of "
                          "1..%d bytes and qos 0..2",
                          filter ? filter : "(null)", TNY_MQTT_MAX_TOPIC);
        goto out;
    }
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->n_subs && !found; i++) {
        if (strcmp(c->subs[i].filter, filter) == 0) {
            c->subs[i].qos = qos;
            found = true;
        }
    }
    if (!found && c->n_subs == TNY_MQTT_MAX_SUBS) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "mqtt: subscribe '%s': already %d subscriptions",
                          filter, TNY_MQTT_MAX_SUBS);
    } else if (!found) {
        char *copy = strdup(filter);
        if (copy) {
            c->subs[c->n_subs].filter = copy;
            c->subs[c->n_subs].qos = qos;
            c->n_subs++;
        } else {
            rc = tny_diag_set(diag, TNY_ENOMEM, "mqtt: out of memory");
        }
    }
    connected = c->connected;
    pthread_mutex_unlock(&c->mu);
    if (rc != 0 || !connected)
        goto out;
    ro.onSuccess5 = on_sub_ok;
    ro.onFailure5 = on_sub_fail;
    ro.context = c;
    in_flight_add(c, 1);
    prc = c->api->subscribe(c->paho, filter, qos, &ro);
    if (prc != MQTTASYNC_SUCCESS) {
        in_flight_add(c, -1);
        rc = paho_error(c, prc, "subscribe", diag);
        goto out;
    }
    if (token)
        *token = ro.token;
out:
    return rc;
}

int tny_mqtt_unsubscribe(struct tny_mqtt *c, const char *filter,
                         struct tny_diag *diag)
{
    MQTTAsync_responseOptions ro = MQTTAsync_responseOptions_initializer;
    bool connected, found = false;
    int rc = 0;

    if (!valid_topic(filter, true))
        return tny_diag_set(diag, TNY_EINVAL,
                            "mqtt: unsubscribe '%s': expected a filter of "
                            "1..%d bytes",
                            filter ? filter : "(null)", TNY_MQTT_MAX_TOPIC);
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->n_subs && !found; i++) {
        if (strcmp(c->subs[i].filter, filter) != 0)
            continue;
        found = true;
        char **grown =
            realloc(c->retired, sizeof(*grown) * (size_t)(c->n_retired + 1));
        if (!grown) {
            rc = tny_diag_set(diag, TNY_ENOMEM, "mqtt: out of memory");
            break;
        }
        c->retired = grown;
        c->retired[c->n_retired++] = c->subs[i].filter;
        c->subs[i] = c->subs[--c->n_subs];
    }
    connected = c->connected;
    pthread_mutex_unlock(&c->mu);
    if (rc != 0 || !found || !connected)
        return rc;
    /* Paho copies the filter; the outcome is not reported (a failed
     * unsubscribe only leaves messages that the owner ignores, and the next
     * connect does not renew it); its end is counted for close. */
    ro.onSuccess5 = on_unsub_ok;
    ro.onFailure5 = on_unsub_fail;
    ro.context = c;
    in_flight_add(c, 1);
    int prc = c->api->unsubscribe(c->paho, filter, &ro);
    if (prc != MQTTASYNC_SUCCESS) {
        in_flight_add(c, -1);
        rc = paho_error(c, prc, "unsubscribe", diag);
    }
    return rc;
}

int tny_mqtt_receive_maximum(struct tny_mqtt *c)
{
    int rm;
    pthread_mutex_lock(&c->mu);
    rm = c->receive_max > 0 ? c->receive_max : 65535;
    pthread_mutex_unlock(&c->mu);
    return rm;
}

bool tny_mqtt_is_connected(struct tny_mqtt *c)
{
    bool up;
    pthread_mutex_lock(&c->mu);
    up = c->connected;
    pthread_mutex_unlock(&c->mu);
    return up;
}

const char *tny_mqtt_reason_text(int reason)
{
    switch (reason) {
    case 128: return "unspecified error";
    case 133: return "client identifier not valid";
    case 134: return "bad user name or password";
    case 135: return "not authorised";
    case 136: return "server unavailable";
    case 137: return "server busy";
    case 138: return "banned";
    case 140: return "bad authentication method";
    default: return reason >= 128 ? "refused" : "ok";
    }
}

void tny_mqtt_stats_get(struct tny_mqtt *c, struct tny_mqtt_stats *out)
{
    pthread_mutex_lock(&c->mu);
    *out = c->stats;
    pthread_mutex_unlock(&c->mu);
}
