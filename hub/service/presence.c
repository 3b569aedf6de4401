/* presence.c - a table device's presence (online, offline, what it shows)
 * and the AG-14 draft start that starts a table's own clock, reported by
 * the device or by the organiser (console.c, clock_draft).  Calls
 * publish.c, events.c, devices.c and the store only.
 *
 * Presence is coalesced: a message updates the device in memory (what the
 * console and the feed show) and marks it to be written; the loop writes
 * every marked device's latest presence in one transaction at most every
 * HUB_PRESENCE_FLUSH_MS (hub_service_presence_flush).  One transaction
 * and fsync per presence let a flood of 50,000 from one login hold the
 * honest tables' acks back (p99 601 ms, issue 23).
 */
#include "presence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "events.h"
#include "hub/log.h"
#include "publish.h"

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
    /* Logged when the state changes or the table's queue fills or
     * empties: not per message (a flood of presence was a flood of log
     * lines). */
    bool queue_changed = (p.queued_results > 0) != (dev->queued > 0);
    if (!dev->presence_dirty)
        svc->n_presence_dirty++;
    dev->presence_dirty = true;
    dev->presence_online = online;
    dev->state = (int)p.state;
    dev->queued = p.queued_results;
    dev->shown_version = p.last_assignment_version;
    dev->device_time_ms = p.device_time_ms;
    dev->last_seen_ms = now_ms;
    snprintf(dev->software, sizeof(dev->software), "%s", p.software_version);
    snprintf(dev->detail, sizeof(dev->detail), "%s", p.detail);
    if (changed || queue_changed)
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

int32_t hub_service_presence_waiting(const struct hub_service *svc)
{
    return svc->n_presence_dirty;
}

int hub_service_presence_flush(struct hub_service *svc, struct tny_diag *diag)
{
    struct hub_presence_update *u = NULL;
    int32_t n = 0;
    int rc;
    if (svc->n_presence_dirty == 0)
        return TNY_OK;
    if (!(u = malloc(sizeof(*u) * (size_t)svc->n_presence_dirty)))
        return tny_diag_set(diag, TNY_ENOMEM, "presence: out of memory");
    for (int32_t i = 0; i < svc->n_devices && n < svc->n_presence_dirty; i++) {
        struct hub_device *d = &svc->devices[i];
        if (d->presence_dirty)
            u[n++] = (struct hub_presence_update){
                d->id,
                d->presence_online ? HUB_PRESENCE_ONLINE : HUB_PRESENCE_OFFLINE,
                d->last_seen_ms};
    }
    rc = hub_store_devices_presence(svc->store, n, u, diag);
    if (rc == 0) {
        for (int32_t i = 0; i < svc->n_devices; i++)
            svc->devices[i].presence_dirty = false;
        svc->n_presence_dirty = 0;
    }
    free(u);
    return rc;
}
