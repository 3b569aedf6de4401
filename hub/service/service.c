/* service.c - the service's top: construction from the store (every
 * event, device and extension), teardown, the dispatch of an incoming
 * message to results.c, presence.c or requests.c (hub_service_handle),
 * and the tick that notices a round's or a table's time running out.
 *
 * Layers, top to bottom (a file calls only files of lower layers;
 * docs/architecture.md): service.c; requests.c, republish.c; console.c;
 * results.c, presence.c, feed.c; publish.c; events.c, devices.c, outbox.c,
 * players_csv.c.
 */
#include "hub/service.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "codes.h"
#include "devices.h"
#include "events.h"
#include "hub/log.h"
#include "publish.h"

static uint64_t urandom_seed(void *arg)
{
    (void)arg;
    uint64_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
            v = 0;
        close(fd);
    }
    if (v == 0) { /* no urandom: still something different per call */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        v = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
            ((uint64_t)getpid() << 32);
    }
    return v;
}

void hub_service_options_init(struct hub_service_options *o)
{
    memset(o, 0, sizeof(*o));
    o->device_prefix = "table-";
    o->feed = true;
    o->reply_cache = 1024;
    o->draw_seed = urandom_seed;
    o->codes = true;
    o->feed_piece_bytes = 1u << 20;
}

void hub_service_free(struct hub_service *svc)
{
    if (!svc)
        return;
    for (int32_t i = 0; i < svc->n_events; i++)
        hub__ev_free(svc->events[i]);
    free(svc->events);
    free(svc->devices);
    for (int32_t i = 0; i < svc->n_replies; i++)
        free(svc->replies[i].bytes);
    free(svc->replies);
    free(svc->code_seen);
    free(svc);
}

/* Start-up: every event, every registered device (the store's list), the
 * AG-14 draft starts (the store's table of them) and every table
 * extension and judge's pause (from the log). */
static int rebuild(struct hub_service *svc, struct tny_diag *diag)
{
    struct hub_event_info *events = NULL;
    struct hub_device_info *devices = NULL;
    int32_t n_events = 0, n_devices = 0;
    int64_t after = 0;
    int rc;

    if ((rc = hub_store_list_events(svc->store, &events, &n_events, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n_events && rc == 0; i++) {
        struct hub_ev *e;
        if ((rc = hub__ev_add(svc, events[i].id, &e)) == 0)
            rc = hub__ev_load_draft_starts(svc, e, diag);
    }
    free(events);
    if (rc < 0)
        return rc;
    if ((rc = hub_store_list_devices(svc->store, &devices, &n_devices, diag)) <
        0)
        return rc;
    for (int32_t i = 0; i < n_devices && rc == 0; i++) {
        struct hub_device *dev;
        if (tny_wire_id_valid(devices[i].id))
            rc = hub__device_insert(svc, devices[i].id, &dev);
    }
    free(devices);
    if (rc < 0)
        return rc;
    for (;;) {
        struct hub_log_entry *log = NULL;
        int32_t n = 0;
        if ((rc = hub_store_read_log(svc->store, NULL, after, 4096, &log, &n,
                                     diag)) < 0)
            return rc;
        for (int32_t i = 0; i < n && rc == 0; i++) {
            after = log[i].seq;
            if (log[i].event[0]) {
                struct hub_ev *e = hub__ev_find(svc, log[i].event);
                if (e)
                    rc = hub__ev_apply_log(e, &log[i]);
            }
        }
        hub_log_entries_free(log, n);
        if (rc < 0)
            return rc;
        if (n < 4096)
            break;
    }
    for (int32_t i = 0; i < svc->n_devices; i++)
        if ((rc = hub__device_refresh(svc, &svc->devices[i], diag)) < 0)
            return rc;
    return TNY_OK;
}

int hub_service_new(struct hub_store *store,
                    const struct hub_service_options *opt,
                    struct hub_service **out, struct tny_diag *diag)
{
    struct hub_service *svc = NULL;
    struct hub_service_options defaults;
    int rc;

    *out = NULL;
    if (!opt) {
        hub_service_options_init(&defaults);
        opt = &defaults;
    }
    if (!opt->device_prefix || !opt->device_prefix[0] ||
        strlen(opt->device_prefix) >= 32 || opt->reply_cache < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "service: device_prefix must be 1..31 bytes and "
                            "reply_cache >= 1");
    if (!(svc = calloc(1, sizeof(*svc))))
        return TNY_ENOMEM;
    svc->store = store;
    svc->opt = *opt;
    svc->model_check = opt->model_check;
    if (!svc->opt.draw_seed)
        svc->opt.draw_seed = urandom_seed;
    snprintf(svc->prefix, sizeof(svc->prefix), "%s", opt->device_prefix);
    svc->opt.device_prefix = svc->prefix;
    svc->replies = calloc((size_t)opt->reply_cache, sizeof(*svc->replies));
    if (!svc->replies) {
        rc = TNY_ENOMEM;
        goto out;
    }
    int64_t reserved = 0;
    if ((rc = hub_store_counter_get(store, "version", &reserved, diag)) < 0)
        goto out;
    svc->last_version = svc->version_reserved =
        reserved > 0 ? (uint64_t)reserved : 0;
    rc = rebuild(svc, diag);
out:
    if (rc < 0)
        hub_service_free(svc);
    else
        *out = svc;
    return rc;
}

void hub_service_stats_get(const struct hub_service *svc,
                           struct hub_service_stats *out)
{
    *out = svc->stats;
}

int hub_service_handle(struct hub_service *svc, const char *topic,
                       const uint8_t *payload, size_t len, int64_t now_ms,
                       struct hub_outbox *ob, struct tny_diag *diag)
{
    enum tny_wire_topic kind;
    char id[TNY_WIRE_ID_MAX + 1];
    struct tny_diag why;
    if (tny_wire_topic_parse(topic, &kind, id, &why) < 0) {
        svc->stats.ignored++;
        return TNY_OK;
    }
    switch (kind) {
    case TNY_WIRE_TOPIC_RESULT:
        return hub_service_on_result(svc, id, payload, len, now_ms, ob, diag);
    case TNY_WIRE_TOPIC_PRESENCE:
        return hub_service_on_presence(svc, id, payload, len, now_ms, ob, diag);
    case TNY_WIRE_TOPIC_CTL_REQ:
        return hub_service_on_request(svc, id, payload, len, now_ms, ob, diag);
    case TNY_WIRE_TOPIC_CODE_REQ: /* issue 20: a player's phone */
        return hub_service_on_player_request(svc, id, payload, len, now_ms, ob,
                                             diag);
    case TNY_WIRE_TOPIC_CODE_PRESENCE: /* issue 20: a player signed in */
        return hub_service_on_code_presence(svc, id, payload, len);
    default: svc->stats.ignored++; return TNY_OK;
    }
}

int hub_service_preload(struct hub_service *svc, struct tny_diag *diag)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        struct hub_ev *e;
        int rc = hub__ev_get(svc, svc->events[i]->id, &e, diag);
        if (rc < 0)
            return rc;
    }
    return TNY_OK;
}

void hub_service_tick(struct hub_service *svc, int64_t now_ms, int64_t *next_ms)
{
    int64_t next = INT64_MAX;
    for (int32_t i = 0; i < svc->n_events; i++) {
        struct hub_ev *e = svc->events[i];
        struct tny_round_clock c;
        struct tny_diag ignored;
        int64_t since = e->tick_ms;
        e->tick_ms = now_ms;
        if (!e->loaded || e->round.number == 0 ||
            e->round.status != HUB_ROUND_STARTED ||
            (e->clock_expired_seen && !hub__ev_per_table_start(e)))
            continue;
        if (hub__round_clock(svc, e, &c, &ignored) < 0 ||
            c.state != TNY_ROUND_CLOCK_RUNNING || c.length_ms == 0)
            continue;
        if (hub__ev_per_table_start(e)) {
            /* AG-14: each started table's own deadline; one that passed
             * since the last tick makes the feed show it overdue. */
            for (int32_t k = 0; k < e->n_ext; k++) {
                const struct hub_extension *x = &e->ext[k];
                if (x->round != e->round.number || x->start_delay_ms < 0)
                    continue;
                int64_t dl = c.deadline_ms + x->total_ms + x->start_delay_ms;
                if (dl <= now_ms && dl > since) {
                    e->feed_dirty = true;
                    HUB_LOG(HUB_LOG_INFO,
                            "table time is up event=%s round=%d table=%d",
                            e->id, (int)e->round.number, (int)x->table);
                } else if (dl > now_ms && dl < next) {
                    next = dl;
                }
            }
            continue;
        }
        if (c.deadline_ms <= now_ms) {
            e->clock_expired_seen = true; /* the feed shows overdue tables */
            e->feed_dirty = true;
            HUB_LOG(HUB_LOG_INFO, "round time is up event=%s round=%d", e->id,
                    (int)e->round.number);
        } else if (c.deadline_ms < next) {
            next = c.deadline_ms;
        }
    }
    *next_ms = next;
}
