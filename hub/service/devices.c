/* devices.c - the device registry: the table devices the hub knows
 * (sorted by id), their assignments as stored, and the version counter
 * that stamps each assignment sent.  Lowest layer with outbox.c: calls
 * only the store (layer order: docs/architecture.md).
 */
#include "devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub/log.h"

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

bool hub__device_is_web(const char *id)
{
    size_t n = strlen(HUB_WEB_DEVICE_PREFIX);
    return strncmp(id, HUB_WEB_DEVICE_PREFIX, n) == 0;
}

bool hub__device_login(const struct hub_service *svc, const char *id)
{
    size_t n = strlen(svc->prefix);
    /* Issue 20: the table pages sign in as web-N (codes.c). */
    if (hub__device_is_web(id))
        n = strlen(HUB_WEB_DEVICE_PREFIX);
    else if (strncmp(id, svc->prefix, n) != 0)
        return false;
    size_t digits = strspn(id + n, "0123456789");
    return digits >= 1 && digits <= 9 && id[n + digits] == '\0';
}

/* Inserts a registry entry in id order (no store access). */
int hub__device_insert(struct hub_service *svc, const char *id,
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
    if ((rc = hub__device_insert(svc, id, &d)) < 0)
        return tny_diag_set(diag, rc, "device \"%s\": out of memory", id);
    if ((rc = hub__device_refresh(svc, d, diag)) < 0)
        return rc;
    HUB_LOG(HUB_LOG_INFO, "device registered device=%s", id);
    *out = d;
    return TNY_OK;
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
