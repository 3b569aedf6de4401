/* republish.c - republishing every retained message (after the hub
 * starts or the broker comes back): each device's assignment and each
 * event's clock, in chunks, then every event's feed.  Calls feed.c,
 * publish.c and events.c only.
 */
#include "hub/service.h"

#include "events.h"
#include "feed.h"
#include "publish.h"

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
        svc->events[i]->feed_dirty = svc->events[i]->feed_full = true;
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
