/* hub_store_alarm.c - the alarm for a database that stops taking writes
 * while the hub runs (see hub/include/hub/store_alarm.h): raised by a call
 * that returned TNY_ESTORE, cleared by the probe write that commits,
 * logged once each way.
 *
 * Not here: what the loop does while it is raised (hub_loop.c), the
 * fault's detection (the store maps SQLite's codes to TNY_ESTORE).
 */
#include "hub/store_alarm.h"

#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "hub/log.h"
#include "store.h"
#include "tny/wire.h"

/* A database that failed for a full disk is writable again only with room
 * to spare: a one-row probe fits in the space the failed write's WAL
 * frames left behind while a result's few pages do not, and clearing on
 * it would raise the alarm again with the next result. */
static bool room_to_write(const char *path)
{
    struct statvfs v;
    if (statvfs(path, &v) != 0)
        return true; /* cannot tell: the commit decides */
    return (uint64_t)v.f_bavail * v.f_frsize >= HUB_STORE_MIN_FREE;
}

void hub_store_alarm_init(struct hub_store_alarm *a, const char *path)
{
    memset(a, 0, sizeof(*a));
    a->path = path;
}

enum hub_store_alarm_change hub_store_alarm_failed(struct hub_store_alarm *a,
                                                   struct hub_store *store,
                                                   const struct tny_diag *diag,
                                                   int64_t now)
{
    struct tny_diag why = {{0}};
    if (a->raised)
        return HUB_STORE_ALARM_SAME;
    /* SQLite's reason with the system's ("disk I/O error (Read-only file
     * system)"), else the call's message. */
    if (!hub_store_write_fault(store, &why) && diag)
        snprintf(why.msg, sizeof(why.msg), "%s", diag->msg);
    a->raised = true;
    a->next_probe_ms = now + HUB_STORE_PROBE_MS;
    snprintf(a->reason, sizeof(a->reason), "%.255s", why.msg);
    HUB_LOG(HUB_LOG_ERROR,
            "database %s: writes failing: %s; results are not "
            "acknowledged (the tables keep and resend them) and "
            "console changes are refused until it takes writes again",
            a->path, a->reason);
    return HUB_STORE_ALARM_RAISED;
}

enum hub_store_alarm_change hub_store_alarm_probe(struct hub_store_alarm *a,
                                                  struct hub_store *store,
                                                  int64_t now)
{
    struct tny_diag ignored = {{0}};
    if (!a->raised || now < a->next_probe_ms)
        return HUB_STORE_ALARM_SAME;
    a->next_probe_ms = now + HUB_STORE_PROBE_MS;
    if (!room_to_write(a->path)) /* no row written while it cannot clear */
        return HUB_STORE_ALARM_SAME;
    if (hub_store_probe_write(store, &ignored) < 0) {
        HUB_LOG(HUB_LOG_DEBUG, "database %s: still failing: %s", a->path,
                ignored.msg);
        return HUB_STORE_ALARM_SAME;
    }
    a->raised = false;
    a->reason[0] = '\0';
    HUB_LOG(HUB_LOG_INFO, "database %s: store writable again", a->path);
    return HUB_STORE_ALARM_CLEARED;
}

void hub_store_alarm_status(const struct hub_store_alarm *a, char *buf,
                            size_t cap)
{
    if (a->raised)
        snprintf(buf, cap, "%s%s", TNY_WIRE_HUB_STORE_FAILING, a->reason);
    else
        snprintf(buf, cap, "%s", TNY_WIRE_HUB_STORE_OK);
}
