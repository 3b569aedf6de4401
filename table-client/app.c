/* app.c - the headless table client's event loop (see app.h).
 *
 * The loop is tny/loop.h's: it polls the signal pipe, the MQTT adapter's
 * wakeup fd and the input, and runs the timers the parts arm: the
 * outbox's resends (t_resend, at the earliest pending due), the time sync
 * (t_time), the simulated players (t_sim) and the core's and the
 * display's next change (t_display).
 *
 * Invariants: a submission is in the outbox (committed) before its first
 * publish; every pending outbox entry is in pend[] and is resent until an
 * ack with its key arrives; nothing but this thread touches the core, the
 * outbox or pend[] (the MQTT adapter's threads only fill its queue).
 */
#include "app.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tny/i18n_io.h"
#include "tny/language.h"
#include "tny/loop.h"
#include "tny/mqtt.h"
#include "tny/rng.h"
#include "tny/wire.h"

#include "core.h"
#include "outbox.h"
#include "screen.h"
#include "text.h"
#include "ui.h"

#ifndef TNY_VERSION
#define TNY_VERSION "0"
#endif

#define MAX_WAIT_MS 60000
#define TIME_RETRY_MS 3000
#define TIME_RESYNC_MS (10 * 60000)

/* The loop's watches, in the order a turn looks at them: a signal stops
 * before anything else is read. */
enum { W_SIGNAL, W_MQTT, W_INPUT };

struct pending {
    char key[TNY_WIRE_ID_MAX + 1];
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *payload;
    size_t len;
    int attempt;
    int64_t due_ms;
};

struct app {
    const struct tbl_settings *s;
    FILE *out;
    FILE *log; /* NULL: the log is dropped (the display owns the tty) */
    bool tui;  /* the full-screen display instead of the line protocol */
    struct tbl_ui *ui;
    FILE *ui_in; /* the display's keys (a dup of in_fd) */
    int empty_reads;
    struct tbl_outbox *ob;
    struct tbl_core core;
    struct tny_mqtt *mqtt;
    struct tny_rng rng;
    bool online;
    struct pending *pend;
    int32_t n_pend, cap_pend;
    char t_assign[TNY_WIRE_TOPIC_MAX], t_ack[TNY_WIRE_TOPIC_MAX];
    char t_identify[TNY_WIRE_TOPIC_MAX];
    char t_result[TNY_WIRE_TOPIC_MAX], t_presence[TNY_WIRE_TOPIC_MAX];
    char clock_event[TNY_WIRE_ID_MAX + 1];
    /* Time sync (docs/protocol.md "Time sync"): asked on every connect, again
     * when unanswered after TIME_RETRY_MS and every TIME_RESYNC_MS. */
    char t_time_req[TNY_WIRE_TOPIC_MAX], t_time_resp[TNY_WIRE_TOPIC_MAX];
    bool time_asked;
    int64_t time_sent_ms, time_due_ms;
    uint64_t time_nonce;
    bool sim_armed;
    int64_t sim_due;
    bool quit;
    /* The loop and its timers (tny/timers.h ids; see the top). */
    struct tny_loop *ev;
    int32_t t_resend, t_time, t_sim, t_display;
    bool input_open; /* still read (not at its end, not hung up) */
    uint64_t presence_version;
    int32_t presence_draft; /* draft_round in the last presence (AG-14) */
    int32_t presence_queued;
    char language[TNY_LANGUAGE_MAX]; /* the display's language now */
    bool presence_sent;
    /* input line being read */
    char *line;
    size_t line_len;
    bool line_overflow;
};

static int g_sig_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (write(g_sig_pipe[1], &b, 1) < 0) {
        /* nothing to do: the pipe is full, a stop is already pending */
    }
    errno = saved;
}

/* The two clocks (table-client/README.md "Clocks"): every wait, delay and
 * duration, and the round clock through the time-sync offset, on the
 * monotonic clock, so a stepped wall clock delays nothing; the wall clock
 * only for timestamps and the time spent powered off. */
static int64_t mono_ms(void)
{
    return tny_loop_now_ms();
}

static int64_t wall_ms(void *ctx)
{
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- logging ------------------------------------------------------------ */

static void logf_(const struct app *a, enum tbl_log_level lvl, const char *fmt,
                  ...) TNY_PRINTF(3, 4);

static void logf_(const struct app *a, enum tbl_log_level lvl, const char *fmt,
                  ...)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    va_list ap;

    if (lvl > a->s->log_level || !a->log)
        return;
    fprintf(a->log, "tourney-table[%s] %s: ", a->s->device_id, names[lvl]);
    va_start(ap, fmt);
    vfprintf(a->log, fmt, ap);
    va_end(ap);
    fputc('\n', a->log);
    fflush(a->log);
}

static void emit(void *ctx, const char *line)
{
    struct app *a = ctx;
    if (!a->tui) {
        fprintf(a->out, "%s\n", line);
        fflush(a->out);
    }
    logf_(a, TBL_LOG_DEBUG, "out: %s", line);
}

/* ---- presence and net -----------------------------------------------------
 */

static void publish_presence(struct app *a, bool force)
{
    struct tny_wire_presence p;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;

    if (!a->online)
        return;
    if (!force && a->presence_sent && a->presence_queued == a->n_pend &&
        a->presence_version == a->core.asg_version &&
        a->presence_draft == tbl_core_draft_round(&a->core))
        return;
    memset(&p, 0, sizeof(p));
    snprintf(p.device_id, sizeof(p.device_id), "%s", a->s->device_id);
    p.state = TNY_WIRE_PRESENCE_ONLINE;
    p.queued_results = a->n_pend;
    snprintf(p.software_version, sizeof(p.software_version), "%s", TNY_VERSION);
    p.last_assignment_version = a->core.asg_version;
    p.device_time_ms = wall_ms(NULL);
    p.draft_round = tbl_core_draft_round(&a->core); /* AG-14 */
    if (tny_wire_encode_presence(&p, &buf, &len, &d) < 0) {
        logf_(a, TBL_LOG_ERROR, "presence: %s", d.msg);
        return;
    }
    if (tny_mqtt_publish(a->mqtt, a->t_presence, buf, len, 1, true, NULL, &d) <
        0) {
        logf_(a, TBL_LOG_WARN, "presence not sent: %s", d.msg);
    } else {
        a->presence_sent = true;
        a->presence_queued = a->n_pend;
        a->presence_version = a->core.asg_version;
        a->presence_draft = p.draft_round;
    }
    free(buf);
}

static void update_net(struct app *a)
{
    tbl_core_set_net(&a->core, a->online, a->n_pend);
    publish_presence(a, false);
}

/* ---- the outbox's resends --------------------------------------------------
 */

static void send_pending(struct app *a, struct pending *p, int64_t now)
{
    struct tny_diag d = {{0}};

    p->due_ms = now + tbl_outbox_backoff_ms(&a->rng, p->attempt);
    if (p->attempt < 30)
        p->attempt++;
    if (!a->online)
        return;
    if (tny_mqtt_publish(a->mqtt, p->topic, p->payload, p->len, 1, false, NULL,
                         &d) < 0) {
        logf_(a, TBL_LOG_WARN, "result %s not sent: %s", p->key, d.msg);
        return;
    }
    logf_(a, TBL_LOG_INFO, "result %s sent", p->key);
}

/* Everything pending goes out now (a reconnect, the hub back online);
 * the schedule starts again from its first step. */
static void resend_all(struct app *a, int64_t now)
{
    for (int32_t i = 0; i < a->n_pend; i++) {
        a->pend[i].attempt = 0;
        send_pending(a, &a->pend[i], now);
    }
}

static int add_pending(struct app *a, const char *key, const char *topic,
                       uint8_t *payload, size_t len, struct pending **out)
{
    if (a->n_pend == a->cap_pend) {
        int32_t ncap = a->cap_pend ? a->cap_pend * 2 : 8;
        struct pending *np = realloc(a->pend, (size_t)ncap * sizeof(*np));
        if (!np)
            return TNY_ENOMEM;
        a->pend = np;
        a->cap_pend = ncap;
    }
    struct pending *p = &a->pend[a->n_pend++];
    memset(p, 0, sizeof(*p));
    snprintf(p->key, sizeof(p->key), "%s", key);
    snprintf(p->topic, sizeof(p->topic), "%s", topic);
    p->payload = payload; /* consumed */
    p->len = len;
    *out = p;
    return TNY_OK;
}

static int find_pending(const struct app *a, const char *key)
{
    for (int32_t i = 0; i < a->n_pend; i++)
        if (strcmp(a->pend[i].key, key) == 0)
            return i;
    return -1;
}

static void drop_pending(struct app *a, int32_t i)
{
    free(a->pend[i].payload);
    memmove(&a->pend[i], &a->pend[i + 1],
            (size_t)(a->n_pend - i - 1) * sizeof(*a->pend));
    a->n_pend--;
}

/* ops.submit: outbox first, then the first publish. */
static int submit(void *ctx, const struct tny_wire_submission *sub,
                  struct tny_diag *diag)
{
    struct app *a = ctx;
    uint8_t *buf = NULL;
    size_t len = 0;
    struct pending *p;
    int rc;

    if ((rc = tny_wire_encode_submission(sub, &buf, &len, diag)) < 0)
        return rc;
    rc = tbl_outbox_put(a->ob, sub->key, a->t_result, buf, len, wall_ms(NULL),
                        diag);
    if (rc < 0) {
        logf_(a, TBL_LOG_ERROR, "outbox: %s", diag ? diag->msg : "");
        free(buf);
        return rc;
    }
    if ((rc = add_pending(a, sub->key, a->t_result, buf, len, &p)) < 0) {
        free(buf);
        /* Stored: it goes out after a restart.  Say so. */
        return tny_diag_set(diag, rc, "submit: out of memory");
    }
    send_pending(a, p, mono_ms());
    logf_(a, TBL_LOG_INFO, "event %s round %d table %d: result %s stored",
          sub->event_id, (int)sub->round, (int)sub->table, sub->key);
    update_net(a);
    return TNY_OK;
}

/* ---- simulated players ------------------------------------------------- */

static void sim_check(struct app *a, int64_t now)
{
    if (!a->s->simulate)
        return;
    if (tbl_core_state(&a->core) != TBL_STATE_PLAYING || !a->core.has_game) {
        a->sim_armed = false;
        tny_timers_disarm(tny_loop_timers(a->ev), a->t_sim);
        return;
    }
    if (a->sim_armed)
        return;
    int64_t span = a->s->simulate_delay_max_ms - a->s->simulate_delay_min_ms;
    a->sim_due = now + a->s->simulate_delay_min_ms +
                 (int64_t)tny_rng_below(&a->rng, (uint64_t)span + 1);
    a->sim_armed = true;
    (void)tny_timers_arm(tny_loop_timers(a->ev), a->t_sim, a->sim_due);
}

static void sim_play(struct app *a)
{
    struct tny_wire_result r;
    struct tny_diag d = {{0}};

    a->sim_armed = false;
    if (tbl_game_simulate(&a->core.game, &a->rng, &r, &d) < 0 ||
        tbl_core_enter_result(&a->core, &r, &d) < 0) {
        logf_(a, TBL_LOG_WARN, "simulate: %s", d.msg);
        return;
    }
    for (int32_t i = 0; i < a->core.asg.n_seats; i++) {
        char id[TNY_WIRE_ID_MAX + 1];
        snprintf(id, sizeof(id), "%s", a->core.asg.seats[i].player_id);
        if (tbl_core_confirm(&a->core, id, &d) < 0) {
            logf_(a, TBL_LOG_WARN, "simulate: %s", d.msg);
            return;
        }
    }
}

/* ---- hub messages -----------------------------------------------------------
 */

/* Issue 21: the words on the screen in the event's language, else the
 * `language` setting, else the locale's, else English (a code this build
 * has no catalogue for is passed over); switched when it changes. */
static void apply_language(struct app *a)
{
    char env[TNY_LANGUAGE_MAX];
    const char *ev = a->core.has_assignment ? a->core.asg.language : "";
    const char *code = tny_language_known(ev) ? ev
                       : a->s->language[0]    ? a->s->language
                       : tny_i18n_env_language(env, sizeof env)[0] ? env
                                                                   : "en";

    if (ev[0] && !tny_language_known(ev) && strcmp(code, a->language) != 0)
        logf_(a, TBL_LOG_WARN, "event language \"%s\" not shipped here: %s", ev,
              code);
    if (strcmp(code, a->language) == 0)
        return;
    if (tny_i18n_use(code) == 0) {
        snprintf(a->language, sizeof(a->language), "%s", code);
        logf_(a, TBL_LOG_INFO, "language %s", code);
        /* Once per switch: without the catalogue gettext shows English
         * silently (a build tree without its locale/, say). */
        if (!tny_i18n_has_catalogue("tourney-table", code))
            logf_(a, TBL_LOG_WARN,
                  "language %s: no catalogue in %s; showing English", code,
                  tny_i18n_localedir());
    }
}

static void follow_event_clock(struct app *a)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    struct tny_diag d = {{0}};

    if (!a->core.has_assignment ||
        strcmp(a->clock_event, a->core.asg.event_id) == 0)
        return;
    /* The previous event's clock is of no more use (and subscriptions are
     * a bounded set). */
    if (a->clock_event[0] &&
        (tny_wire_topic(TNY_WIRE_TOPIC_CLOCK, a->clock_event, topic,
                        sizeof(topic), &d) < 0 ||
         tny_mqtt_unsubscribe(a->mqtt, topic, &d) < 0))
        logf_(a, TBL_LOG_WARN, "clock of event %s: %s", a->clock_event, d.msg);
    if (tny_wire_topic(TNY_WIRE_TOPIC_CLOCK, a->core.asg.event_id, topic,
                       sizeof(topic), &d) < 0 ||
        tny_mqtt_subscribe(a->mqtt, topic, 1, NULL, &d) < 0) {
        logf_(a, TBL_LOG_ERROR, "clock of event %s: %s", a->core.asg.event_id,
              d.msg);
        return;
    }
    snprintf(a->clock_event, sizeof(a->clock_event), "%s",
             a->core.asg.event_id);
}

static void on_ack(struct app *a, struct tny_wire_ack *ack)
{
    struct tny_diag d = {{0}};
    int32_t i;

    /* Only an ack that names one of our keys settles anything: a keyless
     * rejection (a retained or foreign message the hub could not read)
     * says nothing about our results, and taking it for the oldest one
     * would stop its resending for good (issue 13). */
    if (!ack->key[0]) {
        logf_(a, TBL_LOG_WARN,
              "ack without a key ignored (status %d reason %d): %s",
              (int)ack->status, (int)ack->reason, ack->reason_text);
        return;
    }
    i = find_pending(a, ack->key);
    if (i >= 0 && ack->status == TNY_WIRE_ACK_REJECTED)
        logf_(a, TBL_LOG_WARN, "result key=%s refused by the hub: %s", ack->key,
              ack->reason_text);
    if (i >= 0) {
        if (tbl_outbox_done(a->ob, ack->key, (int)ack->status, wall_ms(NULL),
                            NULL, &d) < 0) {
            /* Keep resending: the hub answers the same key the same way. */
            logf_(a, TBL_LOG_ERROR, "outbox: %s", d.msg);
        } else {
            drop_pending(a, i);
        }
    }
    tbl_core_ack(&a->core, ack);
    update_net(a);
}

/* Asks the hub for its time (answer: on_time). */
static void ask_time(struct app *a, int64_t now)
{
    struct tny_wire_time t = {0};
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;

    a->time_asked = true;
    a->time_sent_ms = now;
    a->time_due_ms = now + TIME_RETRY_MS;
    (void)tny_timers_arm(tny_loop_timers(a->ev), a->t_time, a->time_due_ms);
    a->time_nonce = tny_rng_next(&a->rng);
    t.client_ms = now;
    t.nonce = a->time_nonce;
    if (tny_wire_encode_time(&t, &buf, &len, &d) < 0 ||
        tny_mqtt_publish(a->mqtt, a->t_time_req, buf, len, 0, false, NULL, &d) <
            0)
        logf_(a, TBL_LOG_DEBUG, "time request not sent: %s", d.msg);
    free(buf);
}

/* The hub's answer: the offset from the round trip, if it answers our
 * latest request. */
static void on_time(struct app *a, const struct tny_mqtt_message *m,
                    int64_t now)
{
    struct tny_wire_time t;
    struct tny_diag d = {{0}};
    int64_t offset, rtt;

    if (tny_wire_decode_time(m->payload, m->len, &t, &d) < 0) {
        logf_(a, TBL_LOG_WARN, "time: %s", d.msg);
        return;
    }
    if (!a->time_asked || t.nonce != a->time_nonce ||
        t.client_ms != a->time_sent_ms)
        return; /* an older request's, or another client's of this login */
    if (tny_clock_sync_offset(t.client_ms, t.hub_ms, now, &offset, &rtt, &d) <
        0) {
        logf_(a, TBL_LOG_WARN, "time sync ignored: %s", d.msg);
        return; /* asked again at time_due_ms */
    }
    a->time_asked = false;
    a->time_due_ms = now + TIME_RESYNC_MS;
    (void)tny_timers_arm(tny_loop_timers(a->ev), a->t_time, a->time_due_ms);
    logf_(a, TBL_LOG_INFO,
          "time sync: hub - local %" PRId64 " ms, rtt %" PRId64 " ms", offset,
          rtt);
    tbl_core_time_sync(&a->core, offset, rtt, now);
}

/* `tourney live device identify`: the payload is the table number in
 * decimal ASCII (0 = not assigned; docs/protocol.md).  The display shows
 * its banner; headless prints `identify device=D table=T`. */
static void on_identify(struct app *a, const struct tny_mqtt_message *m,
                        int64_t now)
{
    char line[TNY_WIRE_ID_MAX + 64];
    struct tny_diag d = {{0}};
    int32_t table;

    if (tny_wire_decode_identify(m->payload, m->len, &table, &d) < 0) {
        emit(a, "warn identify: undecodable message ignored");
        logf_(a, TBL_LOG_WARN, "%s", d.msg);
        return;
    }
    snprintf(line, sizeof(line), "identify device=%s table=%d", a->s->device_id,
             (int)table);
    emit(a, line);
    logf_(a, TBL_LOG_INFO, "identify: showing %s (table %d) for %d s",
          a->s->device_id, (int)table, TBL_SCREEN_IDENTIFY_MS / 1000);
    if (a->ui)
        tbl_ui_identify(a->ui, table, now);
}

static void on_message(struct app *a, const struct tny_mqtt_message *m,
                       int64_t now)
{
    enum tny_wire_topic kind;
    char id[TNY_WIRE_ID_MAX + 1];
    struct tny_diag d = {{0}};

    if (tny_wire_topic_parse(m->topic, &kind, id, &d) < 0) {
        logf_(a, TBL_LOG_DEBUG, "ignored: %s", d.msg);
        return;
    }
    switch (kind) {
    case TNY_WIRE_TOPIC_ASSIGN: {
        struct tny_wire_assignment *asg;
        bool applied = false;
        if (strcmp(id, a->s->device_id) != 0)
            return;
        if (m->len == 0) {
            /* freed (the event finished, the device unassigned): the
             * table's own language again, not the last event's */
            tbl_core_clear_assignment(&a->core);
            apply_language(a);
            return;
        }
        asg = malloc(sizeof(*asg));
        if (!asg) {
            logf_(a, TBL_LOG_ERROR, "assign: out of memory");
            return;
        }
        if (tny_wire_decode_assignment(m->payload, m->len, asg, &d) < 0) {
            emit(a, "warn assign: undecodable message ignored");
            logf_(a, TBL_LOG_WARN, "assign: %s", d.msg);
        } else {
            tbl_core_assignment(&a->core, asg, now, &applied);
            if (applied) {
                logf_(a, TBL_LOG_INFO,
                      "event %s round %d table %d: assignment v%" PRIu64,
                      asg->event_id, (int)asg->round, (int)asg->table,
                      asg->version);
                follow_event_clock(a);
                apply_language(a);
                publish_presence(a, false);
            }
        }
        free(asg);
        return;
    }
    case TNY_WIRE_TOPIC_CLOCK: {
        struct tny_wire_clock c;
        if (tny_wire_decode_clock(m->payload, m->len, &c, &d) < 0) {
            logf_(a, TBL_LOG_WARN, "clock: %s", d.msg);
            return;
        }
        if (tbl_core_round_clock(&a->core, &c, now) < 0)
            logf_(a, TBL_LOG_ERROR, "clock: out of memory");
        tny_wire_clock_release(&c);
        return;
    }
    case TNY_WIRE_TOPIC_TIME_RESP:
        if (strcmp(id, a->s->device_id) == 0)
            on_time(a, m, now);
        return;
    case TNY_WIRE_TOPIC_ACK: {
        struct tny_wire_ack ack;
        if (strcmp(id, a->s->device_id) != 0)
            return;
        if (tny_wire_decode_ack(m->payload, m->len, &ack, &d) < 0) {
            logf_(a, TBL_LOG_WARN, "ack: %s", d.msg);
            return;
        }
        on_ack(a, &ack);
        return;
    }
    case TNY_WIRE_TOPIC_IDENTIFY:
        if (strcmp(id, a->s->device_id) == 0)
            on_identify(a, m, now);
        return;
    case TNY_WIRE_TOPIC_HUB_STATE:
        if (m->len == strlen(TNY_WIRE_HUB_ONLINE) &&
            memcmp(m->payload, TNY_WIRE_HUB_ONLINE, m->len) == 0) {
            bool was_down = a->core.hub_known && !a->core.hub_online;
            tbl_core_set_hub(&a->core, true);
            /* The hub restarted: every table resends what it holds, spread
             * over 2 s so a venue's tables do not all hit it at once.  The
             * retained "online" a reconnect brings is no restart: that
             * connect has just resent everything (resend_all). */
            for (int32_t i = 0; was_down && i < a->n_pend; i++) {
                a->pend[i].attempt = 0;
                a->pend[i].due_ms = now + (int64_t)tny_rng_below(&a->rng, 2000);
            }
        } else {
            tbl_core_set_hub(&a->core, false);
        }
        return;
    default: return;
    }
}

static void drain_mqtt(struct app *a)
{
    struct tny_mqtt_message m;

    while (tny_mqtt_next_message(a->mqtt, &m) == 0) {
        int64_t now = mono_ms();
        switch (m.kind) {
        case TNY_MQTT_MESSAGE: on_message(a, &m, now); break;
        case TNY_MQTT_CONNECTED:
        case TNY_MQTT_RECONNECTED:
            logf_(a, TBL_LOG_INFO, "connected to %s", a->s->broker_uri);
            a->online = true;
            tbl_core_set_net_refused(&a->core, "");
            /* Results first, then the presence: an observer that sees the
             * presence has seen every resend of this connect. */
            ask_time(a, now);
            resend_all(a, now);
            publish_presence(a, true);
            update_net(a);
            break;
        case TNY_MQTT_REFUSED:
            logf_(a, TBL_LOG_ERROR,
                  "broker refused login %s: %s (reason %d): check "
                  "device_id and mqtt_password; retrying",
                  a->s->device_id, tny_mqtt_reason_text(m.reason), m.reason);
            tbl_core_set_net_refused(&a->core, tny_mqtt_reason_text(m.reason));
            break;
        case TNY_MQTT_LOST:
            logf_(a, TBL_LOG_WARN, "connection lost; reconnecting");
            a->online = false;
            a->presence_sent = false;
            update_net(a);
            break;
        case TNY_MQTT_DELIVERED:
            if (m.lib_rc != 0 || m.reason >= 128)
                logf_(a, TBL_LOG_WARN,
                      "publish not accepted by the broker (reason %d, rc %d)",
                      m.reason, m.lib_rc);
            break;
        case TNY_MQTT_SUBSCRIBED:
            if (m.reason >= 128)
                logf_(a, TBL_LOG_WARN, "subscription refused (reason %d)",
                      m.reason);
            break;
        case TNY_MQTT_DROPPED:
            logf_(a, TBL_LOG_WARN, "oversized message on %s dropped",
                  m.topic ? m.topic : "?");
            break;
        }
        tny_mqtt_message_release(&m);
    }
}

/* ---- input -------------------------------------------------------------- */

static void on_line(struct app *a, const char *line)
{
    logf_(a, TBL_LOG_DEBUG, "in: %s", line);
    if (tbl_core_input(&a->core, line, mono_ms()) == TBL_INPUT_QUIT)
        a->quit = true;
    publish_presence(a, false); /* a draft started (AG-14) */
}

/* Reads what is there; false at end of input. */
static bool read_input(struct app *a, int fd)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof(buf));

    if (n < 0)
        return errno == EINTR || errno == EAGAIN;
    if (n == 0) {
        if (a->line_len > 0 && !a->line_overflow) {
            a->line[a->line_len] = '\0';
            on_line(a, a->line);
        }
        a->line_len = 0;
        return false;
    }
    for (ssize_t i = 0; i < n && !a->quit; i++) {
        if (buf[i] == '\n') {
            if (a->line_overflow) {
                emit(a, "error input: line longer than 65536 bytes");
            } else {
                a->line[a->line_len] = '\0';
                on_line(a, a->line);
            }
            a->line_len = 0;
            a->line_overflow = false;
        } else if (a->line_len >= TBL_LINE_MAX) {
            a->line_overflow = true;
        } else {
            a->line[a->line_len++] = buf[i];
        }
    }
    return true;
}

/* ---- setup and loop ---------------------------------------------------------
 */

static int open_mqtt(struct app *a, struct tny_diag *diag)
{
    struct tny_mqtt_options o;
    struct tny_wire_presence will;
    uint8_t *will_buf = NULL;
    size_t will_len = 0;
    const char *servers[1] = {a->s->broker_uri};
    char t_hub[TNY_WIRE_TOPIC_MAX];
    struct tny_mqtt_subscription subs[5];
    int rc;

    memset(&will, 0, sizeof(will));
    snprintf(will.device_id, sizeof(will.device_id), "%s", a->s->device_id);
    will.state = TNY_WIRE_PRESENCE_OFFLINE;
    snprintf(will.software_version, sizeof(will.software_version), "%s",
             TNY_VERSION);
    if ((rc = tny_wire_encode_presence(&will, &will_buf, &will_len, diag)) <
            0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_HUB_STATE, NULL, t_hub,
                             sizeof(t_hub), diag)) < 0)
        goto out;
    subs[0] = (struct tny_mqtt_subscription){a->t_assign, 1};
    subs[1] = (struct tny_mqtt_subscription){a->t_ack, 1};
    subs[2] = (struct tny_mqtt_subscription){t_hub, 1};
    subs[3] = (struct tny_mqtt_subscription){a->t_time_resp, 0};
    subs[4] = (struct tny_mqtt_subscription){a->t_identify, 1};
    tny_mqtt_options_init(&o);
    o.servers = servers;
    o.n_servers = 1;
    o.client_id = a->s->device_id;
    o.password = a->s->mqtt_password[0] ? a->s->mqtt_password : NULL;
    o.ca_file = a->s->tls_ca_file[0] ? a->s->tls_ca_file : NULL;
    o.keepalive_s = a->s->keepalive_s;
    o.will = (struct tny_mqtt_fixed_message){a->t_presence, will_buf, will_len,
                                             1, true};
    o.subs = subs;
    o.n_subs = 5;
    o.max_payload = TNY_WIRE_MAX_TABLE_MSG;
    o.seed = a->s->seed;
    rc = tny_mqtt_open(&o, &a->mqtt, diag);
out:
    free(will_buf);
    return rc;
}

static void publish_offline(struct app *a)
{
    struct tny_wire_presence p;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;

    if (!a->online)
        return;
    memset(&p, 0, sizeof(p));
    snprintf(p.device_id, sizeof(p.device_id), "%s", a->s->device_id);
    p.state = TNY_WIRE_PRESENCE_OFFLINE;
    p.queued_results = a->n_pend;
    snprintf(p.software_version, sizeof(p.software_version), "%s", TNY_VERSION);
    p.last_assignment_version = a->core.asg_version;
    p.device_time_ms = wall_ms(NULL);
    if (tny_wire_encode_presence(&p, &buf, &len, &d) == 0 &&
        tny_mqtt_publish(a->mqtt, a->t_presence, buf, len, 1, true, NULL, &d) ==
            0)
        logf_(a, TBL_LOG_INFO, "offline presence sent");
    free(buf);
}

/* The newest submission (done or not) is what the table showed. */
static void restore_latest(struct app *a)
{
    struct tbl_outbox_entry e;
    struct tny_wire_submission sub;
    struct tny_diag d = {{0}};
    enum tbl_sub_status st = TBL_SUB_SENT;

    if (tbl_outbox_latest(a->ob, &e, &d) < 0)
        return; /* empty (or unreadable: the pending list said why) */
    if (tny_wire_decode_submission(e.payload, e.len, &sub, &d) < 0) {
        logf_(a, TBL_LOG_WARN, "outbox entry %s: %s", e.key, d.msg);
        free(e.payload);
        return;
    }
    if (e.done) {
        switch ((enum tny_wire_ack_status)e.ack_status) {
        case TNY_WIRE_ACK_ACCEPTED:
        case TNY_WIRE_ACK_DUPLICATE: st = TBL_SUB_ACCEPTED; break;
        case TNY_WIRE_ACK_PENDING_CONFIRMATION: st = TBL_SUB_PENDING; break;
        default: st = TBL_SUB_REFUSED; break;
        }
    }
    tbl_core_restore(&a->core, &sub, st);
    free(e.payload);
}

/* An outbox entry over the table protocol's size limit (written by
 * something else than this build: it never encodes one) can never be
 * accepted, and the MQTT adapter would refuse to send it on every try:
 * it is settled here as rejected, shown and logged, instead of staying
 * queued for ever. */
static void refuse_oversize(struct app *a, const struct tbl_outbox_entry *e)
{
    struct tny_wire_ack ack;
    struct tny_diag d = {{0}};
    memset(&ack, 0, sizeof(ack));
    snprintf(ack.key, sizeof(ack.key), "%s", e->key);
    ack.status = TNY_WIRE_ACK_REJECTED;
    ack.reason = TNY_WIRE_REASON_MALFORMED;
    snprintf(ack.reason_text, sizeof(ack.reason_text),
             "result_submission: %zu bytes, over the table protocol's limit "
             "of %zu; not sent",
             e->len, TNY_WIRE_MAX_TABLE_MSG);
    logf_(a, TBL_LOG_WARN, "result key=%s refused: %s", e->key,
          ack.reason_text);
    if (tbl_outbox_done(a->ob, e->key, (int)ack.status, wall_ms(NULL), NULL,
                        &d) < 0)
        logf_(a, TBL_LOG_ERROR, "outbox: %s", d.msg);
    tbl_core_ack(&a->core, &ack);
}

/* Loads what the outbox still holds: resent on connect; the newest is the
 * core's current submission. */
static int restore(struct app *a, struct tny_diag *diag)
{
    struct tbl_outbox_entry *e = NULL;
    int32_t n = 0;
    int rc;
    struct pending *p;

    if ((rc = tbl_outbox_pending(a->ob, &e, &n, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++) {
        if (e[i].len > TNY_WIRE_MAX_TABLE_MSG) {
            refuse_oversize(a, &e[i]);
            continue;
        }
        if ((rc = add_pending(a, e[i].key, e[i].topic, e[i].payload, e[i].len,
                              &p)) < 0)
            goto out;
        e[i].payload = NULL; /* moved */
        p->due_ms = mono_ms();
    }
    if (n > 0)
        logf_(a, TBL_LOG_INFO, "%d result(s) from the outbox to resend",
              (int)n);
    restore_latest(a);
out:
    tbl_outbox_entries_free(e, n);
    return rc;
}

/* ---- the loop's timers and hooks -------------------------------------- */

/* The results pending whose resend is due (online only). */
static void on_resend(void *ctx, int32_t id, int64_t now)
{
    struct app *a = ctx;
    (void)id;
    if (a->online)
        for (int32_t i = 0; i < a->n_pend; i++)
            if (a->pend[i].due_ms <= now)
                send_pending(a, &a->pend[i], now);
}

static void on_sim(void *ctx, int32_t id, int64_t now)
{
    struct app *a = ctx;
    (void)id;
    (void)now;
    if (a->sim_armed)
        sim_play(a);
}

/* Unanswered, or the resync is due (online only: a connect asks). */
static void on_time_due(void *ctx, int32_t id, int64_t now)
{
    struct app *a = ctx;
    (void)id;
    if (a->online)
        ask_time(a, now);
}

/* Only wakes the loop: the core's tick and the display follow every turn
 * (turn_end). */
static void on_display(void *ctx, int32_t id, int64_t now)
{
    (void)ctx;
    (void)id;
    (void)now;
}

/* Before each poll: the resend timer at the earliest pending due (each
 * send moves its entry's due), the display's at the core's or the
 * display's next change. */
static void before_poll(void *ctx, int64_t now)
{
    struct app *a = ctx;
    struct tny_timers *tm = tny_loop_timers(a->ev);
    int64_t due = TNY_TIMER_NEVER, wait = MAX_WAIT_MS, t;

    if (a->online)
        for (int32_t i = 0; i < a->n_pend; i++)
            if (a->pend[i].due_ms < due)
                due = a->pend[i].due_ms;
    if (due == TNY_TIMER_NEVER)
        tny_timers_disarm(tm, a->t_resend);
    else
        (void)tny_timers_arm(tm, a->t_resend, due);
    t = tbl_core_tick(&a->core, now);
    if (t >= 0 && t < wait)
        wait = t;
    if (a->ui) {
        t = tbl_ui_next_wakeup(a->ui, &a->core, now);
        if (t < wait)
            wait = t;
    }
    (void)tny_timers_arm(tm, a->t_display, now + (wait < 0 ? 0 : wait));
}

static void on_signal_pipe(void *ctx, int fd, short revents)
{
    struct app *a = ctx;
    (void)fd;
    (void)revents;
    logf_(a, TBL_LOG_INFO, "stopping on a signal");
    tny_loop_stop(a->ev);
}

static void on_input(void *ctx, int fd, short revents)
{
    struct app *a = ctx;
    if (a->ui) {
        if (revents & POLLIN) {
            /* Readable without a key many times over: the terminal
             * is gone (end of input), stop polling it. */
            if (tbl_ui_input(a->ui, &a->core, mono_ms(), wall_ms(NULL))) {
                a->empty_reads = 0;
                publish_presence(a, false); /* a draft (AG-14) */
            } else if (++a->empty_reads > 100) {
                a->input_open = false;
                logf_(a, TBL_LOG_WARN,
                      "display: no more keys (end of "
                      "input)");
            }
        } else if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
            a->input_open = false; /* the terminal went away */
            logf_(a, TBL_LOG_WARN, "display: the terminal hung up");
        }
    } else if (revents & (POLLIN | POLLHUP | POLLERR)) {
        if (!read_input(a, fd)) {
            a->input_open = false;
            logf_(a, TBL_LOG_DEBUG, "end of input");
        }
    }
    if (!a->input_open)
        tny_loop_set_fd(a->ev, W_INPUT, -1);
}

static void drain_hook(void *ctx, int64_t now)
{
    (void)now;
    drain_mqtt(ctx);
}

static void update_display(struct app *a);

/* After each turn: the core's clock, the simulated players, the display. */
static void turn_end(struct app *a)
{
    int64_t now = mono_ms();

    (void)tbl_core_tick(&a->core, now);
    sim_check(a, now);
    update_display(a);
}

static int loop_open(struct app *a, int in_fd, struct tny_diag *diag)
{
    struct tny_timers *tm;
    int rc;

    if ((rc = tny_loop_new(&a->ev)) < 0)
        return tny_diag_set(diag, rc, "out of memory");
    tm = tny_loop_timers(a->ev);
    if ((a->t_resend = tny_timers_add(tm, on_resend, a)) < 0 ||
        (a->t_time = tny_timers_add(tm, on_time_due, a)) < 0 ||
        (a->t_sim = tny_timers_add(tm, on_sim, a)) < 0 ||
        (a->t_display = tny_timers_add(tm, on_display, a)) < 0)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    tny_loop_set_hooks(a->ev, before_poll, drain_hook, a);
    a->input_open = in_fd >= 0;
    /* W_SIGNAL and W_MQTT get their descriptors once they are open. */
    if (tny_loop_watch(a->ev, -1, POLLIN, on_signal_pipe, a) != W_SIGNAL ||
        tny_loop_watch(a->ev, -1, POLLIN, NULL, NULL) != W_MQTT ||
        tny_loop_watch(a->ev, a->input_open ? in_fd : -1, POLLIN, on_input,
                       a) != W_INPUT)
        return tny_diag_set(diag, TNY_ERANGE, "too many descriptors");
    return TNY_OK;
}

/* The display follows the core, saves its state and redraws. */
static void update_display(struct app *a)
{
    char err[TNY_CONFIG_VALUE_MAX + 64];

    if (!a->ui)
        return;
    tbl_ui_update(a->ui, &a->core, mono_ms(), wall_ms(NULL), err, sizeof(err));
    if (err[0])
        logf_(a, TBL_LOG_ERROR, "%s", err);
}

/* display = tui | headless | auto (tui when input and output are
 * terminals); the log goes to log_file, else stderr unless the display
 * owns that terminal. */
static int choose_display(struct app *a, int in_fd, struct tny_diag *diag)
{
    const struct tbl_settings *s = a->s;

    switch (s->display) {
    case TBL_DISPLAY_TUI: a->tui = true; break;
    case TBL_DISPLAY_HEADLESS: a->tui = false; break;
    case TBL_DISPLAY_AUTO:
        a->tui = in_fd >= 0 && isatty(in_fd) && isatty(fileno(a->out));
        break;
    }
    if (a->tui && (in_fd < 0 || !isatty(in_fd) || !isatty(fileno(a->out))))
        return tny_diag_set(diag, TNY_EINVAL,
                            "display=tui needs a terminal on stdin and "
                            "stdout (or display=headless)");
    a->log = stderr;
    if (s->log_file[0]) {
        a->log = fopen(s->log_file, "a");
        if (!a->log)
            return tny_diag_set(diag, TNY_EINVAL, "log_file %s: %s",
                                s->log_file, strerror(errno));
    } else if (a->tui && isatty(STDERR_FILENO)) {
        a->log = NULL;
    }
    return TNY_OK;
}

int tbl_app_run(const struct tbl_settings *s, int in_fd, FILE *out,
                struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct app *a = calloc(1, sizeof(*a));
    struct sigaction sa, old_term, old_int, old_pipe;
    bool have_signals = false;
    uint64_t seed;

    if (!a)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    a->s = s;
    a->out = out;
    a->log = stderr;
    if ((rc = choose_display(a, in_fd, diag)) < 0)
        goto out;
    a->line = malloc(TBL_LINE_MAX + 1);
    if (!a->line) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = loop_open(a, in_fd, diag)) < 0)
        goto out;
    seed = s->seed;
    if (seed == 0)
        seed = (uint64_t)wall_ms(NULL) ^ ((uint64_t)getpid() << 32) ^
               (uint64_t)mono_ms();
    tny_rng_seed(&a->rng, seed);
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_ASSIGN, s->device_id, a->t_assign,
                             sizeof(a->t_assign), diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_ACK, s->device_id, a->t_ack,
                             sizeof(a->t_ack), diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_IDENTIFY, s->device_id,
                             a->t_identify, sizeof(a->t_identify), diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_RESULT, s->device_id, a->t_result,
                             sizeof(a->t_result), diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_TIME_REQ, s->device_id,
                             a->t_time_req, sizeof(a->t_time_req), diag)) < 0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_TIME_RESP, s->device_id,
                             a->t_time_resp, sizeof(a->t_time_resp), diag)) <
            0 ||
        (rc = tny_wire_topic(TNY_WIRE_TOPIC_PRESENCE, s->device_id,
                             a->t_presence, sizeof(a->t_presence), diag)) < 0)
        goto out;
    if ((rc = tbl_outbox_open(s->outbox, &a->ob, diag)) < 0)
        goto out;

    struct tbl_core_ops ops = {a, emit, submit, wall_ms};
    tbl_core_init(&a->core, s->device_id, tbl_outbox_boot(a->ob), &ops);
    tbl_core_start(&a->core);
    if ((rc = restore(a, diag)) < 0)
        goto out;
    apply_language(a);
    update_net(a);
    if (a->tui) {
        int fd = dup(in_fd);
        a->ui_in = fd >= 0 ? fdopen(fd, "r") : NULL;
        if (!a->ui_in) {
            if (fd >= 0)
                close(fd);
            rc = tny_diag_set(diag, TNY_ESTATE, "display: %s", strerror(errno));
            goto out;
        }
        if ((rc = tbl_ui_open(a->ui_in, out, a->ob, s->device_id, &a->ui,
                              diag)) < 0)
            goto out;
        update_display(a);
    }

    if (pipe(g_sig_pipe) < 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "pipe: %s", strerror(errno));
        goto out;
    }
    (void)fcntl(g_sig_pipe[1], F_SETFL, O_NONBLOCK);
    tny_loop_set_fd(a->ev, W_SIGNAL, g_sig_pipe[0]);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGINT, &sa, &old_int);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, &old_pipe);
    have_signals = true;

    if ((rc = open_mqtt(a, diag)) < 0)
        goto out;
    tny_loop_set_fd(a->ev, W_MQTT, tny_mqtt_wakeup_fd(a->mqtt));
    logf_(a, TBL_LOG_INFO, "started: broker %s, outbox %s (boot %" PRIu64 ")%s",
          s->broker_uri, s->outbox, tbl_outbox_boot(a->ob),
          s->simulate ? ", simulating players" : "");

    while (!a->quit) {
        if ((rc = tny_loop_once(a->ev, MAX_WAIT_MS, diag)) < 0 ||
            tny_loop_stopped(a->ev))
            break;
        turn_end(a);
    }
    publish_offline(a);
out:
    tbl_ui_close(a->ui);
    if (a->ui_in)
        fclose(a->ui_in);
    if (a->log && a->log != stderr)
        fclose(a->log);
    tny_mqtt_close(a->mqtt);
    tny_loop_free(a->ev);
    if (have_signals) {
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGPIPE, &old_pipe, NULL);
    }
    for (int i = 0; i < 2; i++) {
        if (g_sig_pipe[i] >= 0)
            close(g_sig_pipe[i]);
        g_sig_pipe[i] = -1;
    }
    for (int32_t i = 0; i < a->n_pend; i++)
        free(a->pend[i].payload);
    free(a->pend);
    tbl_core_release(&a->core);
    tbl_outbox_close(a->ob);
    free(a->line);
    free(a);
    return rc;
}
