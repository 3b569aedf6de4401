/* devices.h - the device registry (devices.c): the table devices the hub
 * knows, their assignments as stored, and the assignment version counter.
 * Lowest layer with outbox.c: calls only the store.
 */
#ifndef HUB_SERVICE_DEVICES_H
#define HUB_SERVICE_DEVICES_H

#include "service_internal.h"

/* Device logins of the table pages (issue 20, codes.c): this prefix and
 * 1..9 digits, whatever the configured device prefix. */
#define HUB_WEB_DEVICE_PREFIX "web-"
/* A player code's own login (issue 20, codes.c): ply-N, never a device. */
#define HUB_PLAYER_LOGIN_PREFIX "ply-"

struct hub_device *hub__device_find(struct hub_service *svc, const char *id);
/* A table page's login (web-N, issue 20): only its code assigns it. */
bool hub__device_is_web(const char *id);
/* True when id is a device login (prefix + 1..9 digits, or a table
 * page's web- + 1..9 digits). */
bool hub__device_login(const struct hub_service *svc, const char *id);
/* Inserts a registry entry in id order (no store access); *out is the
 * entry (the existing one when id is known).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__device_insert(struct hub_service *svc, const char *id,
                                    struct hub_device **out);
/* Registers id in the store (if new) and the registry.  Errors: those of
 * hub_store_device_register, TNY_ENOMEM. */
TNY_MUST_USE int hub__device_ensure(struct hub_service *svc, const char *id,
                                    const char *actor, struct hub_device **out,
                                    struct tny_diag *diag);
/* Re-reads the device's assignment from the store. */
TNY_MUST_USE int hub__device_refresh(struct hub_service *svc,
                                     struct hub_device *d,
                                     struct tny_diag *diag);

uint64_t hub__next_version(struct hub_service *svc, int64_t now_ms);

#endif
