/* console_conn.c - the console's side of the console protocol: one MQTT
 * session as the organiser's login, one request at a time, each answered
 * by the ConsoleReply with the same correlation id (docs/protocol.md).
 *
 * What it does: connects through the MQTT adapter (common/mqtt), with the
 * login's reply topic and tourney/v1/hub/state subscribed before anything
 * is sent; publishes a request (QoS 1) and resends the same bytes every
 * retry_s seconds and after a reconnect until its reply arrives or the
 * timeout passes; ignores replies to other ids (a previous run's late
 * answers) and replies that do not decode; watches the hub's state so that
 * a timeout can say whether the hub was online.
 *
 * A request's resends and its timeout are two timers of a loop
 * (tny/loop.h) polling the adapter's wakeup fd (hub_console_call).
 *
 * What it does not do: no printing (diag carries one line), no retries of
 * a refused login (a wrong password does not get better by waiting), no
 * concurrency: one request in flight, from the program's only thread.
 *
 * Invariants: correlation ids are LOGIN24.MS.PID.N (login cut to 24
 * characters, wall-clock milliseconds at the call, process id, a counter
 * per process): unique per request of a login across processes and
 * machines sharing that login (mosquitto allows one connection per login
 * at a time anyway), and at most 64 characters of [A-Za-z0-9_.-].
 */
#include <assert.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "console_internal.h"
#include "tny/loop.h"
#include "tny/mqtt.h"

/* Poll granularity while waiting: connection refusals are only visible in
 * the adapter's counters, so they are looked at this often. */
#define TICK_MS 100

struct hub_console_conn {
    struct hub_console_settings s;
    struct tny_mqtt *mqtt;
    uint32_t connects; /* (re)connections so far */
    /* LOGIN-PID-RANDOM: the broker's console listener keeps it, so one
     * login may hold several connections; the other listeners replace
     * it with the login (one connection per login there). */
    char client_id[TNY_WIRE_ID_MAX + 40];
    char req_topic[TNY_WIRE_TOPIC_MAX];
    char resp_topic[TNY_WIRE_TOPIC_MAX];
    char state_topic[TNY_WIRE_TOPIC_MAX];
    bool connected;
    char hub_state[16];     /* "" = never seen */
    char hub_store[300];    /* tourney/v1/hub/store; "" = never seen */
    uint64_t failures_seen; /* n_connect_failures already examined */
    unsigned counter;       /* correlation ids issued */
    int n_bad_replies;      /* replies on our topic that did not decode */
    char bad_reply[TNY_WIRE_MESSAGE_MAX];
    struct hub_console_watch watch; /* n_filters 0: none */
};

static int64_t mono_ms(void)
{
    return tny_loop_now_ms();
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* CONNACK reason codes that no retry can cure (MQTT v5 3.2.2.2). */
static const char *fatal_reason(int reason)
{
    switch (reason) {
    case 133: return "client identifier not valid";
    case 134: return "bad user name or password";
    case 135: return "not authorised";
    case 138: return "banned";
    case 140: return "bad authentication method";
    default: return NULL;
    }
}

/* TNY_EINVAL when the broker refused a connect attempt since the last
 * look for a reason no retry can cure. */
static int check_refused(struct hub_console_conn *c, struct tny_diag *diag)
{
    struct tny_mqtt_stats st;
    tny_mqtt_stats_get(c->mqtt, &st);
    if (st.n_connect_failures == c->failures_seen)
        return TNY_OK;
    c->failures_seen = st.n_connect_failures;
    const char *why = fatal_reason(st.last_connect_reason);
    if (!why)
        return TNY_OK;
    return tny_diag_set(diag, TNY_EINVAL,
                        "the broker refused login \"%s\": %s (reason %d): "
                        "check --user and the password",
                        c->s.user, why, st.last_connect_reason);
}

/* Waits at most wait_ms for the next adapter event.  0 and *m filled, or
 * TNY_ENOTFOUND when nothing came. */
static int next_event(struct hub_console_conn *c, int64_t wait_ms,
                      struct tny_mqtt_message *m)
{
    int rc = tny_mqtt_next_message(c->mqtt, m);
    if (rc != TNY_ENOTFOUND)
        return rc;
    (void)tny_loop_wait_fd(tny_mqtt_wakeup_fd(c->mqtt),
                           wait_ms > TICK_MS ? TICK_MS : wait_ms);
    return tny_mqtt_next_message(c->mqtt, m);
}

/* A retained status text into buf, printable ASCII (a zero-length
 * retained message clears it). */
static void copy_text(char *buf, size_t cap, const struct tny_mqtt_message *m)
{
    size_t n = m->len < cap - 1 ? m->len : cap - 1;
    memcpy(buf, m->payload, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e)
            buf[i] = '?';
}

/* Bookkeeping every event gets: connection state and the hub's state. */
static void note(struct hub_console_conn *c, const struct tny_mqtt_message *m)
{
    switch (m->kind) {
    case TNY_MQTT_CONNECTED:
    case TNY_MQTT_RECONNECTED:
        c->connected = true;
        c->connects++;
        break;
    case TNY_MQTT_LOST: c->connected = false; break;
    case TNY_MQTT_MESSAGE:
        if (strcmp(m->topic, c->state_topic) == 0) {
            copy_text(c->hub_state, sizeof(c->hub_state), m);
        } else if (strcmp(m->topic, TNY_WIRE_HUB_STORE_TOPIC) == 0) {
            copy_text(c->hub_store, sizeof(c->hub_store), m);
        } else if (c->watch.on_message &&
                   strcmp(m->topic, c->resp_topic) != 0) {
            c->watch.on_message(c->watch.ctx, m->topic, m->payload, m->len);
        }
        break;
    default: break;
    }
}

static const char *hub_state_text(const struct hub_console_conn *c)
{
    return c->hub_state[0] ? c->hub_state : "never announced on this broker";
}

int hub_console_open(const struct hub_console_settings *s,
                     struct hub_console_conn **out, struct tny_diag *diag)
{
    return hub_console_open_watch(s, NULL, out, diag);
}

int hub_console_open_watch(const struct hub_console_settings *s,
                           const struct hub_console_watch *w,
                           struct hub_console_conn **out, struct tny_diag *diag)
{
    struct hub_console_conn *c = calloc(1, sizeof(*c));
    struct tny_mqtt_options o;
    struct tny_mqtt_subscription subs[3 + HUB_CONSOLE_MAX_WATCH];
    struct tny_mqtt_message m = {0};
    int rc;

    *out = NULL;
    if (!c)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    c->s = *s;
    if (w) {
        assert(w->n_filters >= 0 && w->n_filters <= HUB_CONSOLE_MAX_WATCH);
        c->watch = *w;
    }
    /* The copied servers must point into the copy's buffer. */
    for (int i = 0; i < s->n_servers; i++)
        c->s.servers[i] = c->s.server_buf + (s->servers[i] - s->server_buf);
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CTL_REQ, s->user, c->req_topic,
                             sizeof c->req_topic, diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_CTL_RESP, s->user, c->resp_topic,
                             sizeof c->resp_topic, diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_HUB_STATE, NULL, c->state_topic,
                             sizeof c->state_topic, diag)) < 0)
        goto out;

    tny_mqtt_options_init(&o);
    o.servers = c->s.servers;
    o.n_servers = c->s.n_servers;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    snprintf(
        c->client_id, sizeof c->client_id, "%.40s-%ld-%08lx", s->user,
        (long)getpid(),
        (unsigned long)((uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 20)) &
            0xffffffffUL);
    /* Client ids are [a-z0-9-] (tny_mqtt). */
    for (char *p = c->client_id; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
        else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            *p = '-';
    o.client_id = c->client_id;
    o.username = c->s.user;
    o.password = c->s.password[0] ? c->s.password : NULL;
    o.ca_file = c->s.tls_ca[0] ? c->s.tls_ca : NULL;
    o.connect_timeout_s = c->s.timeout_s < 10 ? c->s.timeout_s : 10;
    o.keepalive_s = 30;
    subs[0].filter = c->resp_topic;
    subs[0].qos = 1;
    subs[1].filter = c->state_topic;
    subs[1].qos = 1;
    subs[2].filter = TNY_WIRE_HUB_STORE_TOPIC;
    subs[2].qos = 1;
    for (int i = 0; i < c->watch.n_filters; i++) {
        subs[3 + i].filter = c->watch.filters[i];
        subs[3 + i].qos = 1;
    }
    o.subs = subs;
    o.n_subs = 3 + c->watch.n_filters;
    /* A reply carries up to a whole event export. */
    o.max_payload = TNY_WIRE_MAX_CONSOLE_MSG + 64 * 1024;
    /* A person is waiting: retry the broker often, not every 30 s. */
    o.reconnect_min_ms = 250;
    o.reconnect_max_ms = 2000;
    o.seed = (uint64_t)wall_ms() ^ ((uint64_t)getpid() << 32);
    if ((rc = tny_mqtt_open(&o, &c->mqtt, diag)) < 0)
        goto out;

    int64_t deadline = mono_ms() + (int64_t)c->s.timeout_s * 1000;
    while (!c->connected) {
        if ((rc = check_refused(c, diag)) < 0)
            goto out;
        int64_t left = deadline - mono_ms();
        if (left <= 0) {
            struct tny_mqtt_stats st;
            tny_mqtt_stats_get(c->mqtt, &st);
            rc = tny_diag_set(
                diag, TNY_ESTATE,
                "no connection to the broker %s within %d s (%llu "
                "attempts; last: %s %d)",
                c->s.broker_list, c->s.timeout_s,
                (unsigned long long)st.n_connect_attempts,
                st.last_connect_reason ? "the broker answered reason"
                                       : "unreachable, Paho code",
                st.last_connect_reason ? st.last_connect_reason
                                       : st.last_connect_rc);
            goto out;
        }
        if (next_event(c, left, &m) == TNY_OK) {
            note(c, &m);
            if (m.kind == TNY_MQTT_CONNECTED && m.n_refused > 0) {
                tny_mqtt_message_release(&m);
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "the broker refused the subscription to %s%s",
                                  c->resp_topic,
                                  c->watch.n_filters ? " or a watched topic"
                                                     : "");
                goto out;
            }
            tny_mqtt_message_release(&m);
        }
    }
    *out = c;
    c = NULL;
    rc = TNY_OK;
out:
    hub_console_close(c);
    return rc;
}

void hub_console_close(struct hub_console_conn *c)
{
    if (!c)
        return;
    tny_mqtt_close(c->mqtt);
    memset(c->s.password, 0, sizeof c->s.password);
    free(c);
}

/* One request in flight (hub_console_call) and its loop. */
struct call {
    struct hub_console_conn *c;
    struct tny_loop *ev;
    const struct tny_wire_request *req;
    struct tny_wire_reply *rep;
    const uint8_t *buf;
    size_t len;
    struct tny_diag *diag;
    int32_t t_resend, t_timeout;
    int token, n_sent, rc;
    bool send_now; /* due: sent once connected */
};

/* The request goes out when due and connected (else on the next connect
 * or resend), then again every retry_s. */
static void call_send(struct call *k, int64_t now)
{
    struct hub_console_conn *c = k->c;
    struct tny_diag d = {{0}};
    if (!k->send_now || !c->connected)
        return;
    int rc = tny_mqtt_publish(c->mqtt, c->req_topic, k->buf, k->len, 1, false,
                              &k->token, &d);
    if (rc == TNY_ENOMEM) {
        k->rc = tny_diag_set(k->diag, rc, "out of memory");
        tny_loop_stop(k->ev);
        return;
    }
    /* Not connected or Paho's buffer full: tried again on the next
     * reconnect or resend. */
    if (rc == TNY_OK)
        k->n_sent++;
    k->send_now = false;
    (void)tny_timers_arm(tny_loop_timers(k->ev), k->t_resend,
                         now + (int64_t)c->s.retry_s * 1000);
}

/* Before each wait: send if due; a refused login ends the call. */
static void call_before(void *ctx, int64_t now)
{
    struct call *k = ctx;
    int rc;
    call_send(k, now);
    if (k->rc == TNY_OK && (rc = check_refused(k->c, k->diag)) < 0) {
        k->rc = rc;
        tny_loop_stop(k->ev);
    }
}

/* After each wait: the adapter's events, until the reply. */
static void call_after(void *ctx, int64_t now)
{
    struct call *k = ctx;
    struct hub_console_conn *c = k->c;
    struct tny_mqtt_message m = {0};
    struct tny_diag d = {{0}};
    (void)now;
    while (!tny_loop_stopped(k->ev) &&
           tny_mqtt_next_message(c->mqtt, &m) == TNY_OK) {
        note(c, &m);
        switch (m.kind) {
        case TNY_MQTT_RECONNECTED:
            k->send_now = true; /* the session is new: resend at once */
            break;
        case TNY_MQTT_DELIVERED:
            if (m.token == k->token && m.lib_rc == 0 && m.reason >= 128) {
                k->rc = tny_diag_set(k->diag, TNY_EINVAL,
                                     "the broker refused the request on %s "
                                     "(reason %d%s): is \"%s\" an organiser "
                                     "login?",
                                     c->req_topic, m.reason,
                                     m.reason == 135 ? ", not authorised" : "",
                                     c->s.user);
                tny_loop_stop(k->ev);
            }
            break;
        case TNY_MQTT_MESSAGE:
            if (strcmp(m.topic, c->resp_topic) != 0)
                break;
            if (tny_wire_decode_reply(m.payload, m.len, k->rep, &d) < 0) {
                c->n_bad_replies++;
                snprintf(c->bad_reply, sizeof c->bad_reply, "%s", d.msg);
                memset(k->rep, 0, sizeof(*k->rep));
                break;
            }
            if (strcmp(k->rep->correlation_id, k->req->correlation_id) == 0)
                tny_loop_stop(k->ev); /* answered */
            else
                tny_wire_reply_release(k->rep); /* someone else's, or late */
            break;
        default: break;
        }
        tny_mqtt_message_release(&m);
    }
}

static void on_resend(void *ctx, int32_t id, int64_t now)
{
    struct call *k = ctx;
    (void)id;
    (void)now;
    k->send_now = true;
}

static void on_timeout(void *ctx, int32_t id, int64_t now)
{
    struct call *k = ctx;
    struct hub_console_conn *c = k->c;
    (void)id;
    (void)now;
    if (k->n_sent == 0)
        k->rc = tny_diag_set(k->diag, TNY_ESTATE,
                             "no connection to the broker %s within %d "
                             "s: the request was never sent",
                             c->s.broker_list, c->s.timeout_s);
    else
        k->rc = tny_diag_set(
            k->diag, TNY_ESTATE,
            "no answer from the hub within %d s (%s sent %d time%s; "
            "hub state: %s)%s%s",
            c->s.timeout_s, tny_wire_cmd_name(k->req->cmd), k->n_sent,
            k->n_sent == 1 ? "" : "s", hub_state_text(c),
            c->n_bad_replies ? "; ignored an undecodable reply: " : "",
            c->n_bad_replies ? c->bad_reply : "");
    tny_loop_stop(k->ev);
}

int hub_console_call(struct hub_console_conn *c, struct tny_wire_request *req,
                     struct tny_wire_reply *rep, struct tny_diag *diag)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    struct tny_diag d = {{0}};
    struct call k = {.c = c,
                     .req = req,
                     .rep = rep,
                     .diag = diag,
                     .token = -1,
                     .send_now = true};
    int rc;

    memset(rep, 0, sizeof(*rep));
    snprintf(req->correlation_id, sizeof req->correlation_id,
             "%.24s.%lld.%ld.%u", c->s.user, (long long)wall_ms(),
             (long)getpid(), ++c->counter);
    snprintf(req->organiser_id, sizeof req->organiser_id, "%s", c->s.user);
    if ((rc = tny_wire_encode_request(req, &buf, &len, &d)) < 0) {
        rc = tny_diag_set(diag, rc == TNY_ENOMEM ? TNY_ENOMEM : TNY_EINVAL,
                          "%s", d.msg[0] ? d.msg : tny_strerror(rc));
        goto out;
    }
    k.buf = buf;
    k.len = len;
    /* The loop waits on the adapter at most TICK_MS at a time (refusals
     * show in its counters only: call_before looks). */
    if ((rc = tny_loop_new(&k.ev)) < 0 ||
        (rc = tny_loop_watch(k.ev, tny_mqtt_wakeup_fd(c->mqtt), POLLIN, NULL,
                             NULL)) < 0 ||
        (rc = k.t_resend =
             tny_timers_add(tny_loop_timers(k.ev), on_resend, &k)) < 0 ||
        (rc = k.t_timeout =
             tny_timers_add(tny_loop_timers(k.ev), on_timeout, &k)) < 0) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    tny_loop_set_hooks(k.ev, call_before, call_after, &k);
    (void)tny_timers_arm(tny_loop_timers(k.ev), k.t_timeout,
                         mono_ms() + (int64_t)c->s.timeout_s * 1000);
    while (!tny_loop_stopped(k.ev))
        (void)tny_loop_once(k.ev, TICK_MS, NULL); /* poll's errors: again */
    rc = k.rc;
out:
    tny_loop_free(k.ev);
    free(buf);
    return rc;
}

int hub_console_wait_hub(struct hub_console_conn *c, struct tny_diag *diag)
{
    struct tny_mqtt_message m = {0};
    int64_t deadline = mono_ms() + (int64_t)c->s.timeout_s * 1000;
    int rc;
    while (strcmp(c->hub_state, TNY_WIRE_HUB_ONLINE) != 0) {
        if ((rc = check_refused(c, diag)) < 0)
            return rc;
        int64_t left = deadline - mono_ms();
        if (left <= 0)
            return tny_diag_set(diag, TNY_ESTATE,
                                "the hub is not online after %d s (hub "
                                "state: %s)",
                                c->s.timeout_s, hub_state_text(c));
        if (next_event(c, left, &m) == TNY_OK) {
            note(c, &m);
            tny_mqtt_message_release(&m);
        }
    }
    return TNY_OK;
}

bool hub_console_pump(struct hub_console_conn *c)
{
    struct tny_mqtt_message m = {0};
    while (tny_mqtt_next_message(c->mqtt, &m) == TNY_OK) {
        note(c, &m);
        tny_mqtt_message_release(&m);
    }
    return c->connected;
}

uint32_t hub_console_connects(const struct hub_console_conn *c)
{
    return c->connects;
}

int hub_console_publish(struct hub_console_conn *c, const char *topic,
                        const void *payload, size_t len, struct tny_diag *diag)
{
    return tny_mqtt_publish(c->mqtt, topic, payload, len, 0, false, NULL, diag);
}

const char *hub_console_hub_state(const struct hub_console_conn *c)
{
    return c->hub_state;
}

const char *hub_console_hub_store(const struct hub_console_conn *c)
{
    return c->hub_store;
}

int hub_console_wakeup_fd(const struct hub_console_conn *c)
{
    return tny_mqtt_wakeup_fd(c->mqtt);
}
