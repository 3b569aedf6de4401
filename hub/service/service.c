/* service.c - the service's core: the outbox, the device registry, the
 * event cache, and the table-side use cases (results CM-6, presence).
 *
 * A result goes: decode (malformed: REJECTED MALFORMED) -> a key seen
 * before gets its stored answer -> the device must be assigned to that
 * event and table (WRONG_TABLE), the round must be the current one and in
 * play (WRONG_ROUND) -> the wire result is mapped onto the table
 * (tny_wire_result_to_table: WRONG_PLAYERS / INVALID_RESULT naming the
 * field) -> every seated player must have confirmed, else the result is
 * stored pending (PENDING_CONFIRMATION) -> hub_store_submit_result, one
 * transaction -> the ack, built from the stored answer, only after the
 * commit.  Rejections decided here store nothing (protocol.md: REJECTED
 * means nothing stored); those the store decides are stored with the key.
 *
 * Not here: console commands (console.c), building assignments and clocks
 * (publish.c), the feed (hub/feed.c), MQTT.
 */
#include "service_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "hub/log.h"
#include "tny/event_table.h"
#include "tny/json_io.h"

/* ---- outbox ----------------------------------------------------------- */

void hub_outbox_init(struct hub_outbox *ob)
{
    memset(ob, 0, sizeof(*ob));
}

void hub_outbox_release(struct hub_outbox *ob)
{
    for (int32_t i = 0; i < ob->n; i++)
        free(ob->msgs[i].payload);
    free(ob->msgs);
    memset(ob, 0, sizeof(*ob));
}

int hub_outbox_add(struct hub_outbox *ob, const char *topic, uint8_t *payload,
                   size_t len, bool retained)
{
    if (strlen(topic) >= HUB_TOPIC_MAX) {
        free(payload);
        return TNY_EINVAL;
    }
    if (ob->n == ob->cap) {
        int32_t cap = ob->cap ? ob->cap * 2 : 16;
        struct hub_msg *m = realloc(ob->msgs, sizeof(*m) * (size_t)cap);
        if (!m) {
            free(payload);
            return TNY_ENOMEM;
        }
        ob->msgs = m;
        ob->cap = cap;
    }
    struct hub_msg *m = &ob->msgs[ob->n++];
    memset(m, 0, sizeof(*m));
    snprintf(m->topic, sizeof(m->topic), "%s", topic);
    m->payload = payload;
    m->len = len;
    m->retained = retained;
    return TNY_OK;
}

/* ---- options, lifecycle ------------------------------------------------ */

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
}

static void ev_free(struct hub_ev *e)
{
    if (!e)
        return;
    if (e->loaded)
        tny_event_release(&e->ev);
    free(e->tables);
    free(e->ext);
    free(e);
}

void hub_service_free(struct hub_service *svc)
{
    if (!svc)
        return;
    for (int32_t i = 0; i < svc->n_events; i++)
        ev_free(svc->events[i]);
    free(svc->events);
    free(svc->devices);
    for (int32_t i = 0; i < svc->n_replies; i++)
        free(svc->replies[i].bytes);
    free(svc->replies);
    free(svc);
}

/* ---- registry ----------------------------------------------------------- */

struct hub_device *hub__device_find(struct hub_service *svc, const char *id)
{
    int32_t lo = 0, hi = svc->n_devices - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(svc->devices[mid].id, id);
        if (c == 0)
            return &svc->devices[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

bool hub__device_login(const struct hub_service *svc, const char *id)
{
    size_t n = strlen(svc->prefix);
    if (strncmp(id, svc->prefix, n) != 0)
        return false;
    size_t digits = strspn(id + n, "0123456789");
    return digits >= 1 && digits <= 9 && id[n + digits] == '\0';
}

/* Inserts a registry entry in id order (no store access). */
static int device_insert(struct hub_service *svc, const char *id,
                         struct hub_device **out)
{
    struct hub_device *d = hub__device_find(svc, id);
    if (d) {
        *out = d;
        return TNY_OK;
    }
    if (svc->n_devices == svc->cap_devices) {
        int32_t cap = svc->cap_devices ? svc->cap_devices * 2 : 64;
        struct hub_device *m = realloc(svc->devices, sizeof(*m) * (size_t)cap);
        if (!m)
            return TNY_ENOMEM;
        svc->devices = m;
        svc->cap_devices = cap;
    }
    int32_t at = 0;
    while (at < svc->n_devices && strcmp(svc->devices[at].id, id) < 0)
        at++;
    memmove(&svc->devices[at + 1], &svc->devices[at],
            sizeof(*svc->devices) * (size_t)(svc->n_devices - at));
    svc->n_devices++;
    d = &svc->devices[at];
    memset(d, 0, sizeof(*d));
    snprintf(d->id, sizeof(d->id), "%s", id);
    *out = d;
    return TNY_OK;
}

int hub__device_refresh(struct hub_service *svc, struct hub_device *d,
                        struct tny_diag *diag)
{
    struct hub_device_info info;
    int rc = hub_store_get_device(svc->store, d->id, &info, diag);
    if (rc < 0)
        return rc;
    snprintf(d->event, sizeof(d->event), "%s", info.event);
    d->table = info.event[0] ? info.table : 0;
    if (!d->last_seen_ms)
        d->last_seen_ms = info.last_seen_ms;
    return TNY_OK;
}

int hub__device_ensure(struct hub_service *svc, const char *id,
                       const char *actor, struct hub_device **out,
                       struct tny_diag *diag)
{
    struct hub_device *d = hub__device_find(svc, id);
    int rc;
    if (d) {
        *out = d;
        return TNY_OK;
    }
    if ((rc = hub_store_device_register(svc->store, id, actor, diag)) < 0)
        return rc;
    if ((rc = device_insert(svc, id, &d)) < 0)
        return tny_diag_set(diag, rc, "device \"%s\": out of memory", id);
    if ((rc = hub__device_refresh(svc, d, diag)) < 0)
        return rc;
    HUB_LOG(HUB_LOG_INFO, "device registered device=%s", id);
    *out = d;
    return TNY_OK;
}

/* ---- event cache ----------------------------------------------------------
 */

struct hub_ev *hub__ev_find(struct hub_service *svc, const char *id)
{
    for (int32_t i = 0; i < svc->n_events; i++)
        if (strcmp(svc->events[i]->id, id) == 0)
            return svc->events[i];
    return NULL;
}

int hub__ev_add(struct hub_service *svc, const char *id, struct hub_ev **out)
{
    struct hub_ev *e = hub__ev_find(svc, id);
    if (e) {
        *out = e;
        return TNY_OK;
    }
    if (svc->n_events == svc->cap_events) {
        int32_t cap = svc->cap_events ? svc->cap_events * 2 : 8;
        struct hub_ev **m = realloc(svc->events, sizeof(*m) * (size_t)cap);
        if (!m)
            return TNY_ENOMEM;
        svc->events = m;
        svc->cap_events = cap;
    }
    if (!(e = calloc(1, sizeof(*e))))
        return TNY_ENOMEM;
    snprintf(e->id, sizeof(e->id), "%s", id);
    e->feed_dirty = true;
    svc->events[svc->n_events++] = e;
    *out = e;
    return TNY_OK;
}

void hub__ev_invalidate(struct hub_ev *e)
{
    if (e->loaded)
        tny_event_release(&e->ev);
    e->loaded = false;
    e->feed_dirty = true;
}

/* Rebuilds the table states when the current round changed: pending and
 * conflict flags from the store's result rows (once per round; afterwards
 * the service keeps them up to date itself). */
static int ev_sync_tables(struct hub_service *svc, struct hub_ev *e,
                          struct tny_diag *diag)
{
    int32_t r = e->ev.n_rounds;
    int rc = TNY_OK;
    if (e->state_round == r && e->tables)
        return TNY_OK;
    free(e->tables);
    e->tables = NULL;
    e->n_tables = 0;
    e->state_round = r;
    e->clock_expired_seen = false;
    if (r == 0)
        return TNY_OK;
    const struct tny_round *round = &e->ev.rounds[r - 1];
    e->tables = calloc((size_t)round->n_tables + 1, sizeof(*e->tables));
    if (!e->tables)
        return TNY_ENOMEM;
    /* AG-4 starting seats as the pairing drew them (kept by the store). */
    int32_t *first = NULL, n_first = 0;
    if ((rc = hub_store_first_seats(svc->store, e->id, r, &first, &n_first,
                                    diag)) < 0)
        return rc;
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        struct hub_table_state *ts = &e->tables[e->n_tables];
        if (tb->is_bye)
            continue;
        ts->number = tb->number;
        ts->first_seat =
            tb->number >= 0 && tb->number < n_first ? first[tb->number] : -1;
        e->n_tables++;
    }
    free(first);
    /* The flags from the round's result rows, one query for the round. */
    struct hub_result_row *rows = NULL;
    int32_t n = 0;
    if ((rc = hub_store_list_results(svc->store, e->id, r, 0, &rows, &n,
                                     diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++) {
        struct hub_table_state *ts = hub__ev_table_state(e, rows[i].table);
        if (!ts || rows[i].superseded_by)
            continue;
        if (rows[i].status == HUB_RESULT_PENDING)
            ts->pending = true;
        if (rows[i].status == HUB_RESULT_CONFLICT && !rows[i].resolved)
            ts->conflict = true;
    }
    hub_result_rows_free(rows, n);
    return TNY_OK;
}

int hub__ev_get(struct hub_service *svc, const char *id, struct hub_ev **out,
                struct tny_diag *diag)
{
    struct hub_ev *e = hub__ev_find(svc, id);
    int rc;
    *out = NULL;
    if (e && e->loaded) {
        *out = e;
        return TNY_OK;
    }
    struct hub_event_info info;
    if ((rc = hub_store_get_event(svc->store, id, &info, diag)) < 0)
        return rc;
    if (!e && (rc = hub__ev_add(svc, id, &e)) < 0)
        return rc;
    if ((rc = hub_store_load_event(svc->store, id, &e->ev, diag)) < 0)
        return rc;
    e->info = info;
    e->loaded = true;
    memset(&e->round, 0, sizeof(e->round));
    if (e->ev.n_rounds > 0 &&
        (rc = hub_store_get_round(svc->store, id, e->ev.n_rounds, &e->round,
                                  diag)) < 0)
        goto fail;
    if ((rc = ev_sync_tables(svc, e, diag)) < 0)
        goto fail;
    *out = e;
    return TNY_OK;
fail:
    hub__ev_invalidate(e);
    return rc;
}

struct tny_table *hub__ev_table(struct hub_ev *e, int32_t number)
{
    if (!e->loaded || e->ev.n_rounds == 0 || number < 1)
        return NULL;
    struct tny_round *round = &e->ev.rounds[e->ev.n_rounds - 1];
    /* Tables are usually numbered 1..n in order: try that slot first. */
    if (number <= round->n_tables && !round->tables[number - 1].is_bye &&
        round->tables[number - 1].number == number)
        return &round->tables[number - 1];
    for (int32_t t = 0; t < round->n_tables; t++)
        if (!round->tables[t].is_bye && round->tables[t].number == number)
            return &round->tables[t];
    return NULL;
}

struct hub_table_state *hub__ev_table_state(struct hub_ev *e, int32_t number)
{
    if (number >= 1 && number <= e->n_tables &&
        e->tables[number - 1].number == number)
        return &e->tables[number - 1];
    for (int32_t i = 0; i < e->n_tables; i++)
        if (e->tables[i].number == number)
            return &e->tables[i];
    return NULL;
}

int hub__ev_devices_by_table(struct hub_service *svc, const struct hub_ev *e,
                             struct hub_device ***out, int32_t *n)
{
    int32_t max = 0;
    *out = NULL;
    *n = 0;
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (svc->devices[i].table > max &&
            strcmp(svc->devices[i].event, e->id) == 0)
            max = svc->devices[i].table;
    struct hub_device **a = calloc((size_t)max + 1, sizeof(*a));
    if (!a)
        return TNY_ENOMEM;
    for (int32_t i = 0; i < svc->n_devices; i++) {
        struct hub_device *d = &svc->devices[i];
        if (d->table >= 1 && d->table <= max && strcmp(d->event, e->id) == 0)
            a[d->table] = d; /* the last one, as a scan would find */
    }
    *out = a;
    *n = max + 1;
    return TNY_OK;
}

int64_t hub__ev_extension(const struct hub_ev *e, int32_t round, int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return e->ext[i].total_ms;
    return 0;
}

static struct hub_extension *ext_entry(struct hub_ev *e, int32_t round,
                                       int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return &e->ext[i];
    if (e->n_ext == e->cap_ext) {
        int32_t cap = e->cap_ext ? e->cap_ext * 2 : 16;
        struct hub_extension *m = realloc(e->ext, sizeof(*m) * (size_t)cap);
        if (!m)
            return NULL;
        e->ext = m;
        e->cap_ext = cap;
    }
    e->ext[e->n_ext] = (struct hub_extension){
        .round = round, .table = table, .start_delay_ms = -1};
    return &e->ext[e->n_ext++];
}

int hub__ev_set_extension(struct hub_ev *e, int32_t round, int32_t table,
                          int64_t total_ms)
{
    struct hub_extension *x = ext_entry(e, round, table);
    if (!x)
        return TNY_ENOMEM;
    x->total_ms = total_ms;
    return TNY_OK;
}

bool hub__ev_per_table_start(const struct hub_ev *e)
{
    return e->loaded && e->ev.format.game == TNY_GAME_AGRICOLA &&
           e->ev.format.draft_minutes > 0;
}

int64_t hub__ev_start_delay(const struct hub_ev *e, int32_t round,
                            int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return e->ext[i].start_delay_ms;
    return -1;
}

int hub__ev_set_start_delay(struct hub_ev *e, int32_t round, int32_t table,
                            int64_t delay_ms)
{
    struct hub_extension *x = ext_entry(e, round, table);
    if (!x)
        return TNY_ENOMEM;
    x->start_delay_ms = delay_ms;
    return TNY_OK;
}

void hub__table_clock(const struct hub_ev *e, const struct tny_round_clock *c,
                      int32_t round, int32_t table, int64_t now_ms,
                      struct tny_clock_msg *out)
{
    int64_t ext = hub__ev_extension(e, round, table);
    tny_round_clock_message(c, ext, now_ms, out);
    if (hub__ev_per_table_start(e))
        tny_clock_msg_table_start(out, c->length_ms + c->extension_ms + ext,
                                  hub__ev_start_delay(e, round, table));
}

/* Versions reserved in the store at a time: one write per this many (or
 * per this many ms, as versions follow the clock). */
#define VERSION_BLOCK ((uint64_t)1 << 20)

uint64_t hub__next_version(struct hub_service *svc, int64_t now_ms)
{
    uint64_t v = svc->last_version + 1;
    if (now_ms > 0 && (uint64_t)now_ms > v)
        v = (uint64_t)now_ms;
    if (v > svc->version_reserved) {
        struct tny_diag why = {{0}};
        uint64_t to = v + VERSION_BLOCK;
        if (hub_store_counter_raise(svc->store, "version", (int64_t)to, &why) ==
            0)
            svc->version_reserved = to;
        else /* still time-based: only a clock going back can repeat */
            HUB_LOG(HUB_LOG_ERROR, "version counter not saved: %s", why.msg);
    }
    svc->last_version = v;
    return v;
}

/* Start-up: every event, every registered device and every table
 * extension, from the store (the log is the only listing of devices and
 * extensions the store offers). */
static int rebuild(struct hub_service *svc, struct tny_diag *diag)
{
    struct hub_event_info *events = NULL;
    int32_t n_events = 0;
    int64_t after = 0;
    int rc;

    if ((rc = hub_store_list_events(svc->store, &events, &n_events, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n_events && rc == 0; i++) {
        struct hub_ev *e;
        rc = hub__ev_add(svc, events[i].id, &e);
    }
    free(events);
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
            bool reg = strcmp(log[i].kind, "device.register") == 0;
            bool ext = strcmp(log[i].kind, "clock.extend_table") == 0;
            bool draft = strcmp(log[i].kind, "clock.draft_start") == 0;
            if (!reg && !ext && !draft)
                continue;
            json_t *d =
                json_loads(log[i].detail ? log[i].detail : "{}", 0, NULL);
            if (reg) {
                const char *id =
                    json_string_value(json_object_get(d, "device"));
                struct hub_device *dev;
                if (id && tny_wire_id_valid(id))
                    rc = device_insert(svc, id, &dev);
            } else {
                struct hub_ev *e = hub__ev_find(svc, log[i].event);
                json_int_t r = json_integer_value(json_object_get(d, "round"));
                json_int_t t = json_integer_value(json_object_get(d, "table"));
                json_int_t tot =
                    json_integer_value(json_object_get(d, "total_ms"));
                json_int_t delay =
                    json_integer_value(json_object_get(d, "start_delay_ms"));
                if (e && ext)
                    rc = hub__ev_set_extension(e, (int32_t)r, (int32_t)t,
                                               (int64_t)tot);
                else if (e)
                    rc = hub__ev_set_start_delay(e, (int32_t)r, (int32_t)t,
                                                 (int64_t)delay);
            }
            json_decref(d);
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

/* ---- results ------------------------------------------------------------ */

/* Appends the ack on device/{dev}/ack (encoded; not retained). */
static int send_ack(struct hub_service *svc, const char *device_id,
                    const struct tny_wire_ack *ack, struct hub_outbox *ob,
                    struct tny_diag *diag)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_ACK, device_id, topic,
                             sizeof(topic), diag)) < 0 ||
        (rc = tny_wire_encode_ack(ack, &buf, &len, diag)) < 0)
        return rc;
    switch (ack->status) {
    case TNY_WIRE_ACK_ACCEPTED: svc->stats.acks_accepted++; break;
    case TNY_WIRE_ACK_REJECTED: svc->stats.acks_rejected++; break;
    case TNY_WIRE_ACK_DUPLICATE: svc->stats.acks_duplicate++; break;
    case TNY_WIRE_ACK_CONFLICT: svc->stats.acks_conflict++; break;
    case TNY_WIRE_ACK_PENDING_CONFIRMATION: svc->stats.acks_pending++; break;
    }
    return hub_outbox_add(ob, topic, buf, len, false);
}

static const char *ack_status_name(enum tny_wire_ack_status s)
{
    switch (s) {
    case TNY_WIRE_ACK_ACCEPTED: return "accepted";
    case TNY_WIRE_ACK_REJECTED: return "rejected";
    case TNY_WIRE_ACK_DUPLICATE: return "duplicate";
    case TNY_WIRE_ACK_CONFLICT: return "conflict";
    case TNY_WIRE_ACK_PENDING_CONFIRMATION: return "pending_confirmation";
    }
    return "?";
}

/* A rejection decided by the hub itself (nothing stored). */
static int reject(struct hub_service *svc, const char *device_id,
                  const struct tny_wire_submission *sub,
                  enum tny_wire_ack_reason reason, const char *text,
                  struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_wire_ack ack;
    memset(&ack, 0, sizeof(ack));
    ack.status = TNY_WIRE_ACK_REJECTED;
    ack.reason = reason;
    if (sub) {
        snprintf(ack.key, sizeof(ack.key), "%s", sub->key);
        snprintf(ack.event_id, sizeof(ack.event_id), "%s", sub->event_id);
        ack.round = sub->round;
        ack.table = sub->table;
    }
    snprintf(ack.reason_text, sizeof(ack.reason_text), "%s", text);
    HUB_LOG(HUB_LOG_WARN,
            "result rejected device=%s key=%s event=%s round=%d table=%d: %s",
            device_id, sub ? sub->key : "", sub ? sub->event_id : "",
            sub ? (int)sub->round : 0, sub ? (int)sub->table : 0, text);
    int rc = send_ack(svc, device_id, &ack, ob, diag);
    if (rc == TNY_EINVAL) {
        /* The reason quoted bytes the wire refuses as text (a malformed
         * payload's): answer all the same, without the quote. */
        snprintf(ack.reason_text, sizeof(ack.reason_text),
                 "result_submission: %s (the details are not printable "
                 "text)",
                 reason == TNY_WIRE_REASON_MALFORMED ? "does not decode"
                                                     : "refused");
        rc = send_ack(svc, device_id, &ack, ob, diag);
    }
    return rc;
}

/* The wire's reason for a recorded reason. */
static enum tny_wire_ack_reason wire_reason(enum hub_submit_reason r)
{
    switch (r) {
    case HUB_REASON_WRONG_ROUND: return TNY_WIRE_REASON_WRONG_ROUND;
    case HUB_REASON_WRONG_TABLE: return TNY_WIRE_REASON_WRONG_TABLE;
    case HUB_REASON_WRONG_PLAYERS: return TNY_WIRE_REASON_WRONG_PLAYERS;
    case HUB_REASON_UNKNOWN_EVENT: return TNY_WIRE_REASON_UNKNOWN_EVENT;
    case HUB_REASON_UNCONFIRMED: return TNY_WIRE_REASON_UNCONFIRMED;
    case HUB_REASON_ALREADY_CONFIRMED: return TNY_WIRE_REASON_ALREADY_CONFIRMED;
    case HUB_REASON_NONE:
    case HUB_REASON_INVALID_RESULT: break;
    }
    return TNY_WIRE_REASON_INVALID_RESULT;
}

/* The counted result of a table as a wire result (ack echo). */
static void echo_counted(struct hub_ev *e, int32_t table,
                         struct tny_wire_ack *ack)
{
    struct tny_table *t = hub__ev_table(e, table);
    struct tny_diag ignored;
    if (t && t->has_result &&
        tny_wire_result_from_table(&e->ev, t, &ack->stored, &ignored) == 0)
        ack->has_stored = true;
}

/* The ack of a recorded submission: the same for every submission of its
 * key, as it is built from the recorded fields only.  duplicate: the live
 * submission repeated the counted result under a new key. */
static void ack_from_outcome(struct hub_service *svc,
                             const struct hub_submit_outcome *o,
                             const char *key, bool duplicate,
                             struct tny_wire_ack *ack)
{
    memset(ack, 0, sizeof(*ack));
    snprintf(ack->key, sizeof(ack->key), "%s", key);
    snprintf(ack->event_id, sizeof(ack->event_id), "%s",
             tny_wire_id_valid(o->event_id) ? o->event_id : "");
    ack->round = o->round > 0 ? o->round : 0;
    ack->table = o->table > 0 ? o->table : 0;
    switch (o->first) {
    case HUB_SUBMIT_ACCEPTED:
        if (o->counted) {
            ack->status =
                duplicate ? TNY_WIRE_ACK_DUPLICATE : TNY_WIRE_ACK_ACCEPTED;
        } else {
            ack->status = TNY_WIRE_ACK_PENDING_CONFIRMATION;
            ack->reason = TNY_WIRE_REASON_UNCONFIRMED;
            snprintf(ack->reason_text, sizeof(ack->reason_text),
                     "stored, not final: every player at the table must "
                     "confirm it, or the organiser (CM-6)");
        }
        break;
    case HUB_SUBMIT_CONFLICT:
        ack->status = TNY_WIRE_ACK_CONFLICT;
        ack->reason = TNY_WIRE_REASON_ALREADY_CONFIRMED;
        break;
    case HUB_SUBMIT_DUPLICATE:
    case HUB_SUBMIT_REJECTED:
        ack->status = TNY_WIRE_ACK_REJECTED;
        ack->reason = wire_reason(o->reason);
        break;
    }
    if (o->first != HUB_SUBMIT_ACCEPTED && o->reason_text[0])
        snprintf(ack->reason_text, sizeof(ack->reason_text), "%s",
                 o->reason_text);
    if (ack->status == TNY_WIRE_ACK_CONFLICT ||
        ack->status == TNY_WIRE_ACK_DUPLICATE) {
        struct hub_ev *e;
        struct tny_diag ignored;
        if (ack->event_id[0] &&
            hub__ev_get(svc, ack->event_id, &e, &ignored) == 0)
            echo_counted(e, ack->table, ack);
    }
}

/* True when id is one of the table's players. */
static bool seated(const struct hub_ev *e, const struct tny_table *t,
                   const char *id)
{
    for (int32_t i = 0; i < t->n_seats; i++)
        if (strcmp(e->ev.players[t->seats[i]].id, id) == 0)
            return true;
    return false;
}

/* A result naming someone who is not at the table is WRONG_PLAYERS. */
static bool names_stranger(const struct hub_ev *e, const struct tny_table *t,
                           const struct tny_wire_result *r)
{
    for (int32_t i = 0; i < r->n_players; i++)
        if (!seated(e, t, r->players[i].player_id))
            return true;
    if (r->winner_id[0] && !seated(e, t, r->winner_id))
        return true;
    if (r->default_winner_id[0] && !seated(e, t, r->default_winner_id))
        return true;
    for (int32_t i = 0; i < r->n_games; i++)
        if (!seated(e, t, r->games[i]))
            return true;
    return false;
}

/* A submission the service decided, waiting for the store to record it. */
struct result_job {
    char device_id[HUB_STORE_ID_MAX + 1];
    struct tny_wire_submission sub;
    struct hub_submission rec; /* the decision (points into this job) */
    char reason[512];
    bool had_counted;
    /* The result in the assigned table's seats (TX-7 penalties zero). */
    struct tny_table mapped;
    /* A counted result entered the service's event at decision time (so
     * a later job of the batch sees it); undone if the commit fails. */
    bool applied;
};

/* "event.rounds[2].tables[5].result.vp.p7: ..." -> "result.vp.p7: ...". */
static void reason_from(char *dst, size_t cap, const char *msg)
{
    const char *r = NULL;
    if (strncmp(msg, "event.rounds[", 13) == 0)
        r = strstr(msg, ".result");
    snprintf(dst, cap, "%s", r ? r + 1 : msg);
}

int hub__armies_check(struct hub_ev *e, int32_t round,
                      const struct tny_table *mapped, char *why, size_t cap)
{
    struct tny_round *r = &e->ev.rounds[round - 1];
    for (int32_t i = 0; i < r->n_tables; i++) {
        struct tny_table *tb = &r->tables[i];
        if (tb->is_bye || tb->number != mapped->number)
            continue;
        struct tny_table keep = *tb;
        struct tny_diag inner = {{0}};
        *tb = *mapped;
        int rc = tny_event_validate_table_armies(&e->ev, round - 1, i, &inner);
        *tb = keep;
        if (rc == TNY_EINVAL || rc == TNY_ERANGE || rc == TNY_ENOTFOUND) {
            reason_from(why, cap, inner.msg);
            return TNY_EINVAL;
        }
        return rc;
    }
    return TNY_OK;
}

/* The result's key seen before: its first answer, whatever the payload
 * says now (the store logs a key reused for other data: probe). */
static int answer_again(struct hub_service *svc, const char *device_id,
                        const char *key, const struct hub_submission *probe,
                        struct hub_outbox *ob, bool *answered,
                        struct tny_diag *diag)
{
    struct hub_submit_outcome o;
    struct tny_wire_ack ack;
    struct tny_diag why = {{0}};
    int rc =
        hub_store_get_submission(svc->store, device_id, key, probe, &o, &why);
    *answered = false;
    if (rc == TNY_ENOTFOUND)
        return TNY_OK;
    if (rc < 0)
        return tny_diag_set(diag, rc, "%s", why.msg);
    ack_from_outcome(svc, &o, key, false, &ack);
    *answered = true;
    if (probe)
        HUB_LOG(HUB_LOG_INFO,
                "result repeated device=%s key=%s event=%s round=%d "
                "table=%d: %s again",
                device_id, key, probe->event_id, (int)probe->round,
                (int)probe->table, ack_status_name(ack.status));
    return send_ack(svc, device_id, &ack, ob, diag);
}

/* Decides a table's result (CM-6), once, on the engine's result in the
 * service's event: what the hub refuses outright is answered here (acks
 * to ob, nothing recorded); a decision to record (accepted, conflict, or
 * a rejection by the format's checks) is described in *job and *queued
 * set. */
static int result_prepare(struct hub_service *svc, const char *device_id,
                          const uint8_t *payload, size_t len, int64_t now_ms,
                          struct hub_outbox *ob, struct result_job *job,
                          bool *queued, struct tny_diag *diag)
{
    struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    struct tny_diag why = {{0}};
    struct hub_device *dev;
    struct hub_ev *e = NULL;
    char text[TNY_WIRE_NOTE_MAX];
    char actor[16 + HUB_STORE_ID_MAX];
    bool answered = false;
    int rc;

    svc->stats.results++;
    if (len == 0) {
        /* An empty message deletes a retained one (the hub clears results
         * a table left retained, hub_loop.c): nothing to answer. */
        svc->stats.ignored++;
        HUB_LOG(HUB_LOG_DEBUG, "empty result message ignored device=%s",
                device_id);
        return TNY_OK;
    }
    if (!hub__device_login(svc, device_id)) {
        svc->stats.ignored++;
        HUB_LOG(HUB_LOG_DEBUG, "result ignored: not a device login device=%s",
                device_id);
        return TNY_OK;
    }
    snprintf(actor, sizeof(actor), "device:%s", device_id);
    if ((rc = hub__device_ensure(svc, device_id, actor, &dev, diag)) < 0)
        return rc;
    dev->last_seen_ms = now_ms;
    if (tny_wire_decode_submission(payload, len, &sub, &why) < 0) {
        /* Answered by its key when the key can be read (the table applies
         * only an ack naming one of its keys, and stops resending it);
         * a key already recorded gets its first answer, as always. */
        struct tny_wire_submission *peek = NULL;
        memset(&sub, 0, sizeof(sub));
        if (tny_wire_peek_submission_key(payload, len, sub.key)) {
            peek = &sub;
            if ((rc = answer_again(svc, device_id, sub.key, NULL, ob, &answered,
                                   diag)) < 0 ||
                answered)
                return rc;
        }
        return reject(svc, device_id, peek, TNY_WIRE_REASON_MALFORMED, why.msg,
                      ob, diag);
    }
    if (strcmp(sub.device_id, device_id) != 0) {
        snprintf(text, sizeof(text),
                 "result_submission.device_id: \"%s\" is not the sending "
                 "device \"%s\"",
                 sub.device_id, device_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }

    /* The result in the engine's terms, when the hub knows its table; the
     * key's lookup below compares it with what the key first carried. */
    struct hub_submission *rec = &job->rec;
    *rec = (struct hub_submission){
        .event_id = sub.event_id,
        .round = sub.round,
        .table = sub.table,
        .device_id = job->device_id,
        .idem_key = sub.key,
    };
    snprintf(job->device_id, sizeof(job->device_id), "%s", device_id);
    struct tny_diag map_why = {{0}};
    struct tny_table *assigned = NULL;
    int map_rc = TNY_ENOTFOUND;
    int32_t n_confirmed_seated = 0;
    rc = hub__ev_get(svc, sub.event_id, &e, &why);
    if (rc < 0 && rc != TNY_ENOTFOUND)
        return tny_diag_set(diag, rc, "%s", why.msg);
    if (rc == 0 && sub.round >= 1 && sub.round == e->ev.n_rounds &&
        (assigned = hub__ev_table(e, sub.table)) != NULL) {
        enum tny_stage_kind stage = e->ev.rounds[sub.round - 1].stage;
        map_rc = tny_wire_result_to_table(&e->ev, stage, assigned, &sub.result,
                                          "result_submission.result",
                                          &job->mapped, &map_why);
        if (map_rc == 0) {
            memset(job->mapped.result.penalty, 0,
                   sizeof(job->mapped.result.penalty));
            for (int32_t i = 0; i < sub.n_confirmed; i++)
                if (seated(e, assigned, sub.confirmed[i]))
                    n_confirmed_seated++;
            /* confirmed_by ids are distinct (decode checks), so a count
             * equal to the seats means every seated player confirmed. */
            rec->confirmed = n_confirmed_seated == assigned->n_seats;
            rec->ev = &e->ev;
            rec->result = &job->mapped;
        }
    }

    /* Same key -> the first answer, whatever the payload says now. */
    if ((rc = answer_again(svc, device_id, sub.key, map_rc == 0 ? rec : NULL,
                           ob, &answered, diag)) < 0 ||
        answered)
        return rc;

    if (!e) {
        snprintf(text, sizeof(text),
                 "result_submission.event_id: no event "
                 "\"%s\" on this hub",
                 sub.event_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_UNKNOWN_EVENT, text,
                      ob, diag);
    }
    if (strcmp(dev->event, sub.event_id) != 0 || dev->table != sub.table) {
        if (dev->event[0])
            snprintf(text, sizeof(text),
                     "result_submission.table: device %s is assigned to "
                     "table %d of event %s, not table %d of event %s",
                     device_id, (int)dev->table, dev->event, (int)sub.table,
                     sub.event_id);
        else
            snprintf(text, sizeof(text),
                     "result_submission.table: device %s is not assigned to "
                     "a table (it sent table %d of event %s)",
                     device_id, (int)sub.table, sub.event_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }
    if (sub.round != e->ev.n_rounds ||
        (e->round.status != HUB_ROUND_PUBLISHED &&
         e->round.status != HUB_ROUND_STARTED)) {
        if (e->ev.n_rounds == 0)
            snprintf(text, sizeof(text),
                     "result_submission.round: event %s "
                     "has no published round",
                     e->id);
        else if (sub.round == e->ev.n_rounds)
            snprintf(text, sizeof(text),
                     "result_submission.round: round %d "
                     "is closed; ask the organiser",
                     (int)sub.round);
        else
            snprintf(text, sizeof(text),
                     "result_submission.round: round %d "
                     "is not in play (the current round is %d)",
                     (int)sub.round, (int)e->ev.n_rounds);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_ROUND, text,
                      ob, diag);
    }
    if (!assigned) {
        snprintf(text, sizeof(text),
                 "result_submission.table: round %d has "
                 "no table %d",
                 (int)sub.round, (int)sub.table);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }
    if (map_rc < 0)
        return reject(svc, device_id, &sub,
                      names_stranger(e, assigned, &sub.result)
                          ? TNY_WIRE_REASON_WRONG_PLAYERS
                          : TNY_WIRE_REASON_INVALID_RESULT,
                      map_why.msg, ob, diag);
    if (job->mapped.result.decided) /* TX-4: the organiser decides */
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_INVALID_RESULT,
                      "result_submission.result.tp: a TX-4 organiser's "
                      "decision is entered by the organiser (tourney live "
                      "result enter), not at a table",
                      ob, diag);
    for (int32_t i = 0; i < sub.n_confirmed; i++) {
        if (!seated(e, assigned, sub.confirmed[i])) {
            snprintf(text, sizeof(text),
                     "result_submission.confirmed_by[%d]: \"%s\" is not a "
                     "player of table %d",
                     (int)i, sub.confirmed[i], (int)sub.table);
            return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_PLAYERS,
                          text, ob, diag);
        }
    }

    /* CM-6: the decision, recorded with its reason. */
    job->had_counted = assigned->has_result;
    rec->reason_text = job->reason;
    rc = hub__armies_check(e, sub.round, &job->mapped, job->reason,
                           sizeof(job->reason));
    if (rc == TNY_EINVAL) {
        rec->kind = HUB_SUBMIT_REJECTED;
        rec->reason = HUB_REASON_INVALID_RESULT;
    } else if (rc < 0) {
        return tny_diag_set(diag, rc, "NH-11 check of table %d failed",
                            (int)sub.table);
    } else if (assigned->has_result &&
               tny_result_same(&assigned->result, &job->mapped.result,
                               assigned->n_seats)) {
        rec->kind = HUB_SUBMIT_ACCEPTED; /* the same result is a no-op */
        rec->repeats_counted = true;
    } else if (assigned->has_result) {
        rec->kind = HUB_SUBMIT_CONFLICT;
        rec->reason = HUB_REASON_ALREADY_CONFIRMED;
        snprintf(job->reason, sizeof(job->reason),
                 "table %d already has a different confirmed result: "
                 "flagged for the organiser (CM-6)",
                 (int)sub.table);
    } else {
        rec->kind = HUB_SUBMIT_ACCEPTED;
        if (!rec->confirmed)
            rec->reason = HUB_REASON_UNCONFIRMED;
        else {
            /* Counted from now on: a later job of this batch for the same
             * table must see it (a conflict, or the same again). */
            assigned->result = job->mapped.result;
            assigned->has_result = true;
            e->round.n_results++;
            job->applied = true;
        }
    }
    *queued = true;
    return TNY_OK;
#undef sub
}

/* After the commit: the table flags, the ack.  *invalidate is set when the
 * event cache must be rebuilt (the caller does it once per batch):
 * Tantrix tables may carry organiser penalties (TX-7) that the store
 * merges into the counted result. */
static int result_finish(struct hub_service *svc, struct result_job *job,
                         const struct hub_submit_outcome *outcome,
                         bool *invalidate, struct hub_outbox *ob,
                         struct tny_diag *diag)
{
    const struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    const char *device_id = job->device_id;
    bool confirmed = job->rec.confirmed, had_counted = job->had_counted;
    struct tny_wire_ack ack;
    struct hub_ev *e = hub__ev_find(svc, sub.event_id);
    if (!e)
        return tny_diag_set(diag, TNY_ESTATE, "event %s left the cache",
                            sub.event_id);
    struct hub_table_state *ts = hub__ev_table_state(e, sub.table);
    if (outcome->kind == HUB_SUBMIT_ACCEPTED && ts) {
        if (confirmed)
            ts->pending = false;
        else if (!had_counted)
            ts->pending = true;
    }
    if (outcome->kind == HUB_SUBMIT_CONFLICT && ts)
        ts->conflict = true;
    if (job->applied && e->ev.format.game == TNY_GAME_TANTRIX)
        *invalidate = true;
    e->feed_dirty = true;
    ack_from_outcome(svc, outcome, sub.key,
                     had_counted && outcome->kind == HUB_SUBMIT_ACCEPTED, &ack);
    HUB_LOG(HUB_LOG_INFO,
            "result %s device=%s key=%s event=%s round=%d table=%d%s%s",
            ack_status_name(ack.status), device_id, sub.key, sub.event_id,
            (int)sub.round, (int)sub.table, ack.reason_text[0] ? ": " : "",
            ack.reason_text);
    return send_ack(svc, device_id, &ack, ob, diag);
#undef sub
}

int hub_service_on_result(struct hub_service *svc, const char *device_id,
                          const uint8_t *payload, size_t len, int64_t now_ms,
                          struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_result_msg m = {device_id, payload, len};
    return hub_service_on_results(svc, 1, &m, now_ms, ob, diag);
}

/* Records jobs[0..n-1] in one transaction, then answers each.  A decision
 * applied to the service's event that did not commit is undone by
 * rebuilding that event from the store. */
static int result_commit(struct hub_service *svc, struct result_job *jobs,
                         int32_t n, struct hub_outbox *ob,
                         struct tny_diag *diag)
{
    struct hub_submission *recs = calloc((size_t)n, sizeof(*recs));
    struct hub_submit_outcome *outs = calloc((size_t)n, sizeof(*outs));
    int rc = TNY_OK;
    if (!recs || !outs) {
        rc = TNY_ENOMEM;
        for (int32_t i = 0; i < n; i++) {
            struct hub_ev *e = hub__ev_find(svc, jobs[i].sub.event_id);
            if (jobs[i].applied && e)
                hub__ev_invalidate(e);
        }
        goto out;
    }
    for (int32_t i = 0; i < n; i++)
        recs[i] = jobs[i].rec;
    rc = hub_store_record_submissions(svc->store, n, recs, outs, diag);
    if (rc < 0)
        HUB_LOG(HUB_LOG_ERROR, "%d results not stored: %s", (int)n,
                diag ? diag->msg : tny_strerror(rc));
    for (int32_t i = 0; i < n; i++) {
        struct tny_diag one = {{0}};
        bool invalidate = false;
        int irc;
        if (outs[i].rc < 0) {
            irc = outs[i].rc;
            invalidate = jobs[i].applied;
            tny_diag_set(&one, irc, "%s", outs[i].reason_text);
        } else {
            irc = result_finish(svc, &jobs[i], &outs[i], &invalidate, ob, &one);
        }
        if (irc < 0 && rc == 0) {
            HUB_LOG(HUB_LOG_ERROR,
                    "result not stored device=%s key=%s event=%s round=%d "
                    "table=%d: %s",
                    jobs[i].device_id, jobs[i].sub.key, jobs[i].sub.event_id,
                    (int)jobs[i].sub.round, (int)jobs[i].sub.table, one.msg);
            rc = irc;
            tny_diag_set(diag, irc, "%s", one.msg);
        }
        struct hub_ev *e = hub__ev_find(svc, jobs[i].sub.event_id);
        if (invalidate && e)
            hub__ev_invalidate(e);
    }
out:
    free(recs);
    free(outs);
    return rc;
}

int hub_service_on_results(struct hub_service *svc, int32_t n,
                           const struct hub_result_msg *msgs, int64_t now_ms,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct result_job *jobs = n > 0 ? calloc((size_t)n, sizeof(*jobs)) : NULL;
    int32_t i = 0, nq = 0;
    int rc = TNY_OK;
    if (n > 0 && !jobs)
        return TNY_ENOMEM;
    while (i < n) {
        /* Decide until a device repeats: its second message must see the
         * first one's outcome (its key recorded), so it waits a batch. */
        nq = 0;
        for (; i < n; i++) {
            bool seen = false, queued = false;
            for (int32_t k = 0; k < nq && !seen; k++)
                seen = strcmp(jobs[k].device_id, msgs[i].device_id) == 0;
            if (seen)
                break;
            struct tny_diag one = {{0}};
            memset(&jobs[nq], 0, sizeof(jobs[nq]));
            int irc = result_prepare(svc, msgs[i].device_id, msgs[i].payload,
                                     msgs[i].len, now_ms, ob, &jobs[nq],
                                     &queued, &one);
            if (queued)
                nq++;
            if (irc < 0 && rc == 0) {
                rc = irc;
                tny_diag_set(diag, irc, "%s", one.msg);
            }
        }
        if (nq > 0) {
            struct tny_diag one = {{0}};
            /* rec points into its job: fix the pointers after the copy. */
            for (int32_t k = 0; k < nq; k++) {
                jobs[k].rec.device_id = jobs[k].device_id;
                jobs[k].rec.idem_key = jobs[k].sub.key;
                jobs[k].rec.event_id = jobs[k].sub.event_id;
                jobs[k].rec.reason_text = jobs[k].reason;
                if (jobs[k].rec.result)
                    jobs[k].rec.result = &jobs[k].mapped;
            }
            int crc = result_commit(svc, jobs, nq, ob, &one);
            if (crc < 0 && rc == 0) {
                rc = crc;
                tny_diag_set(diag, crc, "%s", one.msg);
            }
        }
    }
    free(jobs);
    return rc;
}

/* ---- presence ------------------------------------------------------------ */

/* AG-14: table `table` of event e started its draft in round `round`: its
 * clock starts now (docs/protocol.md "Per-table clocks"), once per table
 * and round; actor says who reported it (the table's device or an
 * organiser).  Errors name the reason in diag: TNY_ESTATE (the event does
 * not start tables on their own, the round is not the one in play, or this
 * table's draft already started), TNY_ENOTFOUND (no such table). */
int hub__draft_start(struct hub_service *svc, struct hub_ev *e, int32_t round,
                     int32_t table, const char *actor, int64_t now_ms,
                     struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_round_clock c;
    int rc;

    if (!hub__ev_per_table_start(e))
        return tny_diag_set(diag, TNY_ESTATE,
                            "event %s: its tables do not start their clocks "
                            "with their own draft (AG-14 needs an Agricola "
                            "format with draft_minutes)",
                            e->id);
    if (hub__ev_start_delay(e, round, table) >= 0)
        return tny_diag_set(diag, TNY_ESTATE,
                            "round %d, table %d: its draft already started",
                            (int)round, (int)table);
    if (round != e->round.number || (e->round.status != HUB_ROUND_PUBLISHED &&
                                     e->round.status != HUB_ROUND_STARTED))
        return tny_diag_set(diag, TNY_ESTATE,
                            "round %d is not the round in play", (int)round);
    if (!hub__ev_table(e, table))
        return tny_diag_set(diag, TNY_ENOTFOUND, "round %d has no table %d",
                            (int)round, (int)table);
    if ((rc = hub__round_clock(svc, e, &c, diag)) < 0)
        return rc;
    /* Before the round clock starts the delay is 0: the table's time
     * starts with the round clock. */
    int64_t delay = tny_round_clock_elapsed(&c, now_ms);
    if (delay < 0)
        delay = 0;
    if ((rc = hub_store_draft_start(svc->store, e->id, round, table, delay,
                                    actor, diag)) < 0)
        return rc;
    if ((rc = hub__ev_set_start_delay(e, round, table, delay)) < 0)
        return tny_diag_set(diag, rc, "out of memory");
    HUB_LOG(HUB_LOG_INFO,
            "draft started event=%s round=%d table=%d start_delay_ms=%lld "
            "by=%s",
            e->id, (int)round, (int)table, (long long)delay, actor);
    e->feed_dirty = true;
    e->clock_expired_seen = false;
    /* The table's device(s): their assignment carries the table's clock. */
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (svc->devices[i].table == table &&
            strcmp(svc->devices[i].event, e->id) == 0 &&
            (rc = hub__publish_device(svc, &svc->devices[i], now_ms, ob,
                                      diag)) < 0)
            return rc;
    return hub__publish_clock(svc, e, now_ms, ob, diag);
}

/* The presence of a device whose table started its draft: its clock
 * starts (hub__draft_start); a repeated or misplaced report is logged and
 * changes nothing. */
static int draft_started(struct hub_service *svc, struct hub_device *dev,
                         int32_t draft_round, int64_t now_ms,
                         struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_ev *e = NULL;
    struct tny_diag why = {{0}};
    char actor[16 + HUB_STORE_ID_MAX];

    if (!dev->event[0] || hub__ev_get(svc, dev->event, &e, &why) < 0)
        return TNY_OK;
    if (!hub__ev_per_table_start(e) || dev->table <= 0)
        return TNY_OK;
    if (hub__ev_start_delay(e, draft_round, dev->table) >= 0)
        return TNY_OK; /* already recorded: presence is resent */
    snprintf(actor, sizeof(actor), "device:%s", dev->id);
    int rc = hub__draft_start(svc, e, draft_round, dev->table, actor, now_ms,
                              ob, &why);
    if (rc == TNY_ENOMEM)
        return tny_diag_set(diag, rc, "%s", why.msg);
    if (rc < 0)
        HUB_LOG(HUB_LOG_WARN,
                "draft start refused device=%s event=%s round=%d table=%d: %s",
                dev->id, e->id, (int)draft_round, (int)dev->table, why.msg);
    return TNY_OK;
}

int hub_service_on_presence(struct hub_service *svc, const char *device_id,
                            const uint8_t *payload, size_t len, int64_t now_ms,
                            struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_wire_presence p;
    struct tny_diag why = {{0}};
    struct hub_device *dev;
    char actor[16 + HUB_STORE_ID_MAX];
    int rc;

    svc->stats.presences++;
    if (!hub__device_login(svc, device_id) || len == 0) {
        svc->stats.ignored++; /* a cleared retained presence, or a stranger */
        return TNY_OK;
    }
    if (tny_wire_decode_presence(payload, len, &p, &why) < 0) {
        HUB_LOG(HUB_LOG_WARN, "presence ignored device=%s: %s", device_id,
                why.msg);
        svc->stats.ignored++;
        return TNY_OK;
    }
    if (strcmp(p.device_id, device_id) != 0) {
        HUB_LOG(HUB_LOG_WARN,
                "presence ignored device=%s: presence.device_id is \"%s\"",
                device_id, p.device_id);
        svc->stats.ignored++;
        return TNY_OK;
    }
    snprintf(actor, sizeof(actor), "device:%s", device_id);
    if ((rc = hub__device_ensure(svc, device_id, actor, &dev, diag)) < 0)
        return rc;
    bool online = p.state != TNY_WIRE_PRESENCE_OFFLINE;
    bool changed = dev->state != (int)p.state;
    if ((rc = hub_store_device_presence(svc->store, device_id,
                                        online ? HUB_PRESENCE_ONLINE
                                               : HUB_PRESENCE_OFFLINE,
                                        now_ms, diag)) < 0)
        return rc;
    dev->state = (int)p.state;
    dev->queued = p.queued_results;
    dev->shown_version = p.last_assignment_version;
    dev->device_time_ms = p.device_time_ms;
    dev->last_seen_ms = now_ms;
    snprintf(dev->software, sizeof(dev->software), "%s", p.software_version);
    snprintf(dev->detail, sizeof(dev->detail), "%s", p.detail);
    if (changed || p.queued_results > 0)
        HUB_LOG(HUB_LOG_INFO,
                "presence device=%s event=%s table=%d state=%s "
                "queued=%d shows=%llu%s%s",
                device_id, dev->event, (int)dev->table,
                p.state == TNY_WIRE_PRESENCE_ONLINE    ? "online"
                : p.state == TNY_WIRE_PRESENCE_OFFLINE ? "offline"
                                                       : "error",
                (int)p.queued_results,
                (unsigned long long)p.last_assignment_version,
                p.detail[0] ? " detail=" : "", p.detail);
    if (dev->event[0]) {
        struct hub_ev *e = hub__ev_find(svc, dev->event);
        if (e)
            e->feed_dirty = true;
    }
    if (p.draft_round > 0 && online)
        return draft_started(svc, dev, p.draft_round, now_ms, ob, diag);
    return TNY_OK;
}

/* ---- console requests -------------------------------------------------- */

static struct hub_reply_entry *reply_find(struct hub_service *svc,
                                          const char *console, const char *corr)
{
    for (int32_t i = 0; i < svc->n_replies; i++)
        if (strcmp(svc->replies[i].corr, corr) == 0 &&
            strcmp(svc->replies[i].console, console) == 0)
            return &svc->replies[i];
    return NULL;
}

static void reply_remember(struct hub_service *svc, const char *console,
                           const char *corr, const uint8_t *bytes, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return; /* only a cache */
    memcpy(copy, bytes, len);
    struct hub_reply_entry *slot;
    if (svc->n_replies < svc->opt.reply_cache) {
        slot = &svc->replies[svc->n_replies++];
    } else {
        slot = &svc->replies[svc->next_reply];
        svc->next_reply = (svc->next_reply + 1) % svc->opt.reply_cache;
        free(slot->bytes);
    }
    snprintf(slot->console, sizeof(slot->console), "%s", console);
    snprintf(slot->corr, sizeof(slot->corr), "%s", corr);
    slot->bytes = copy;
    slot->len = len;
}

int hub_service_on_request(struct hub_service *svc, const char *console_id,
                           const uint8_t *payload, size_t len, int64_t now_ms,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_wire_request req;
    struct tny_wire_reply rep;
    struct tny_diag why = {{0}};
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t blen = 0;
    int rc;

    svc->stats.requests++;
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CTL_RESP, console_id, topic,
                             sizeof(topic), diag)) < 0)
        return rc;
    if ((rc = tny_wire_decode_request(payload, len, &req, &why)) < 0) {
        /* Answered with the reason whenever its correlation id can be
         * read, so the console says what was wrong instead of timing out.
         * Not remembered: the same bytes get the same answer again. */
        memset(&rep, 0, sizeof(rep));
        if (!tny_wire_peek_correlation_id(payload, len, rep.correlation_id)) {
            HUB_LOG(HUB_LOG_WARN,
                    "console request ignored console=%s: %s (no readable "
                    "correlation_id to answer)",
                    console_id, why.msg);
            svc->stats.ignored++;
            return TNY_OK;
        }
        HUB_LOG(HUB_LOG_WARN, "console request refused console=%s id=%s: %s",
                console_id, rep.correlation_id, why.msg);
        rep.rc = rc == TNY_ENOMEM ? TNY_ENOMEM : TNY_EINVAL;
        snprintf(rep.message, sizeof(rep.message), "%s",
                 why.msg[0] ? why.msg : tny_strerror(rep.rc));
        rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
        if (rc == TNY_EINVAL) { /* the diagnostic quoted unprintable bytes */
            snprintf(rep.message, sizeof(rep.message),
                     "console_request: malformed (%zu bytes that do not "
                     "decode)",
                     len);
            rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
        }
        if (rc < 0)
            return tny_diag_set(diag, rc, "%s", why.msg);
        return hub_outbox_add(ob, topic, buf, blen, false);
    }
    struct hub_reply_entry *seen =
        reply_find(svc, console_id, req.correlation_id);
    if (seen) {
        svc->stats.replies_cached++;
        HUB_LOG(HUB_LOG_INFO, "console repeat console=%s id=%s: stored reply",
                console_id, req.correlation_id);
        uint8_t *copy = malloc(seen->len ? seen->len : 1);
        if (!copy) {
            tny_wire_request_release(&req);
            return TNY_ENOMEM;
        }
        memcpy(copy, seen->bytes, seen->len);
        tny_wire_request_release(&req);
        return hub_outbox_add(ob, topic, copy, seen->len, false);
    }
    memset(&rep, 0, sizeof(rep));
    snprintf(rep.correlation_id, sizeof(rep.correlation_id), "%s",
             req.correlation_id);
    if (strcmp(req.organiser_id, console_id) != 0) {
        rep.rc = TNY_EINVAL;
        snprintf(rep.message, sizeof(rep.message),
                 "console_request.organiser_id: \"%s\" is not this console's "
                 "login \"%s\"",
                 req.organiser_id, console_id);
    } else if ((rc = hub__console_run(svc, console_id, &req, now_ms, ob,
                                      &rep)) < 0) {
        tny_wire_request_release(&req);
        free(rep.json);
        return rc;
    }
    if (rep.rc == 0 && (req.cmd == TNY_WIRE_CMD_PUBLISH_ROUND ||
                        req.cmd == TNY_WIRE_CMD_CLOSE_ROUND)) {
        /* A round's results go from the WAL into the database file before
         * the organiser hears the round is closed (or the next one is
         * out): from then on they survive a lost WAL (architecture.md
         * "Durability").  A failure loses nothing (the WAL has it). */
        struct tny_diag cw = {{0}};
        if (hub_store_checkpoint(svc->store, &cw) < 0)
            HUB_LOG(HUB_LOG_WARN, "checkpoint after %s event=%s: %s",
                    tny_wire_cmd_name(req.cmd), req.event_id, cw.msg);
    }
    if (rep.rc < 0 && !rep.message[0])
        snprintf(rep.message, sizeof(rep.message), "%s", tny_strerror(rep.rc));
    HUB_LOG(rep.rc < 0 ? HUB_LOG_WARN : HUB_LOG_INFO,
            "console %s console=%s id=%s event=%s%s%s",
            tny_wire_cmd_name(req.cmd), console_id, req.correlation_id,
            req.event_id, rep.rc < 0 ? " failed: " : " ok",
            rep.rc < 0 ? rep.message : "");
    rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
    if (rc == TNY_ERANGE || rc == TNY_EINVAL) {
        /* Too large (an export past 4 MiB) or a text the wire refuses:
         * say so instead of staying silent. */
        free(rep.json);
        rep.json = NULL;
        rep.rc = rc;
        snprintf(rep.message, sizeof(rep.message), "reply: %.400s", why.msg);
        rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
    }
    free(rep.json);
    if (rc < 0) {
        tny_wire_request_release(&req);
        return tny_diag_set(diag, rc, "%s", why.msg);
    }
    reply_remember(svc, console_id, req.correlation_id, buf, blen);
    tny_wire_request_release(&req);
    return hub_outbox_add(ob, topic, buf, blen, false);
}

/* ---- dispatch, republish, flush, tick ---------------------------------- */

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

void hub_service_republish_begin(struct hub_service *svc)
{
    svc->rp_active = true;
    svc->rp_phase = 0;
    svc->rp_next = 0;
}

int hub_service_republish_step(struct hub_service *svc, int64_t now_ms,
                               struct hub_outbox *ob, bool *done,
                               struct tny_diag *diag)
{
    int rc;
    *done = !svc->rp_active;
    if (*done)
        return TNY_OK;
    if (svc->rp_phase == 0) {
        int32_t end = svc->rp_next + HUB_REPUBLISH_CHUNK;
        for (; svc->rp_next < svc->n_devices && svc->rp_next < end;
             svc->rp_next++)
            if ((rc = hub__publish_device(svc, &svc->devices[svc->rp_next],
                                          now_ms, ob, diag)) < 0)
                return rc;
        if (svc->rp_next < svc->n_devices)
            return TNY_OK;
        svc->rp_phase = 1;
        svc->rp_next = 0;
    }
    if (svc->rp_next < svc->n_events) {
        struct hub_ev *e;
        if ((rc = hub__ev_get(svc, svc->events[svc->rp_next]->id, &e, diag)) <
                0 ||
            (rc = hub__publish_clock(svc, e, now_ms, ob, diag)) < 0)
            return rc;
        svc->rp_next++;
    }
    if (svc->rp_next < svc->n_events)
        return TNY_OK;
    for (int32_t i = 0; i < svc->n_events; i++)
        svc->events[i]->feed_dirty = true;
    svc->rp_active = false;
    *done = true;
    return TNY_OK;
}

int hub_service_republish(struct hub_service *svc, int64_t now_ms,
                          struct hub_outbox *ob, struct tny_diag *diag)
{
    bool done = false;
    int rc;
    hub_service_republish_begin(svc);
    while (!done)
        if ((rc = hub_service_republish_step(svc, now_ms, ob, &done, diag)) <
            0) {
            svc->rp_active = false;
            return rc;
        }
    return hub_service_flush(svc, now_ms, ob, diag);
}

/* The first event whose feed is due (marked dirty); NULL when none.  With
 * the feed off every mark is cleared. */
static struct hub_ev *next_dirty_feed(struct hub_service *svc)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        struct hub_ev *e = svc->events[i];
        if (e->feed_dirty && svc->opt.feed)
            return e;
        e->feed_dirty = false;
    }
    return NULL;
}

int hub_service_flush_step(struct hub_service *svc, int64_t now_ms,
                           struct hub_outbox *ob, bool *more,
                           struct tny_diag *diag)
{
    struct hub_ev *e = next_dirty_feed(svc);
    int rc;
    *more = false;
    if (!e)
        return TNY_OK;
    if ((rc = hub__ev_get(svc, e->id, &e, diag)) < 0 ||
        (rc = hub_feed_publish(svc, e, now_ms, ob, diag)) < 0)
        return rc;
    e->feed_dirty = false;
    *more = next_dirty_feed(svc) != NULL;
    return TNY_OK;
}

int hub_service_flush(struct hub_service *svc, int64_t now_ms,
                      struct hub_outbox *ob, struct tny_diag *diag)
{
    bool more = true;
    int rc = TNY_OK;
    while (more && rc == 0)
        rc = hub_service_flush_step(svc, now_ms, ob, &more, diag);
    return rc;
}

/* ---- the feed on another thread --------------------------------------- */

_Static_assert(HUB_FEED_ID_MAX == HUB_STORE_ID_MAX, "one id length");

void hub_feed_snapshot_release(struct hub_feed_snapshot *s)
{
    free(s->devices);
    free(s->ext);
    memset(s, 0, sizeof(*s));
}

bool hub_service_feed_next(struct hub_service *svc, int64_t now_ms,
                           struct hub_feed_snapshot *out, int *rc)
{
    struct hub_ev *e = next_dirty_feed(svc);
    *rc = TNY_OK;
    memset(out, 0, sizeof(*out));
    if (!e)
        return false;
    int32_t n = 0;
    for (int32_t k = 0; k < svc->n_devices; k++)
        n += strcmp(svc->devices[k].event, e->id) == 0;
    out->devices = calloc((size_t)n + 1, sizeof(*out->devices));
    out->ext = calloc((size_t)e->n_ext + 1, sizeof(*out->ext));
    if (!out->devices || !out->ext) {
        hub_feed_snapshot_release(out);
        *rc = TNY_ENOMEM;
        return false;
    }
    for (int32_t k = 0; k < svc->n_devices; k++) {
        const struct hub_device *d = &svc->devices[k];
        if (strcmp(d->event, e->id) != 0)
            continue;
        struct hub_feed_device *o = &out->devices[out->n_devices++];
        snprintf(o->id, sizeof(o->id), "%s", d->id);
        o->table = d->table;
        o->state = d->state;
    }
    for (int32_t k = 0; k < e->n_ext; k++)
        out->ext[out->n_ext++] = (struct hub_feed_extension){
            e->ext[k].round, e->ext[k].table, e->ext[k].total_ms,
            e->ext[k].start_delay_ms};
    snprintf(out->event, sizeof(out->event), "%s", e->id);
    out->now_ms = now_ms;
    e->feed_dirty = false;
    return true;
}

int hub_service_feed_build(struct hub_service *b,
                           const struct hub_feed_snapshot *snap,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_ev *e = hub__ev_find(b, snap->event);
    int rc;
    if (!e && (rc = hub__ev_add(b, snap->event, &e)) < 0)
        return rc;
    /* Everything from the database as it is now: the event, the table
     * flags and the clock are read again. */
    hub__ev_invalidate(e);
    e->state_round = 0;
    e->clock_round = 0;
    e->n_ext = 0;
    for (int32_t k = 0; k < snap->n_ext; k++)
        if ((rc = hub__ev_set_extension(e, snap->ext[k].round,
                                        snap->ext[k].table,
                                        snap->ext[k].total_ms)) < 0 ||
            (rc = hub__ev_set_start_delay(e, snap->ext[k].round,
                                          snap->ext[k].table,
                                          snap->ext[k].start_delay_ms)) < 0)
            return rc;
    /* The builder's registry: the snapshot's devices for this event. */
    for (int32_t k = 0; k < b->n_devices; k++)
        if (strcmp(b->devices[k].event, e->id) == 0) {
            b->devices[k].event[0] = '\0';
            b->devices[k].table = 0;
        }
    for (int32_t k = 0; k < snap->n_devices; k++) {
        struct hub_device *d;
        if ((rc = device_insert(b, snap->devices[k].id, &d)) < 0)
            return rc;
        snprintf(d->event, sizeof(d->event), "%s", e->id);
        d->table = snap->devices[k].table;
        d->state = snap->devices[k].state;
    }
    if ((rc = hub__ev_get(b, snap->event, &e, diag)) < 0)
        return rc;
    rc = hub_feed_publish(b, e, snap->now_ms, ob, diag);
    e->feed_dirty = false;
    return rc;
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
