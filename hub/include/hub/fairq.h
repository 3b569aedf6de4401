/* fairq.h - the hub's queue of received results, fair between devices:
 * one FIFO per device, each bounded (a device's excess is refused, for the
 * caller to drop and log), taken round robin, so one table login flooding
 * results cannot delay another table's result by more than one turn of the
 * devices.  Not thread-safe: the hub's loop thread owns it.
 */
#ifndef HUB_FAIRQ_H
#define HUB_FAIRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/mqtt.h"
#include "tny/wire.h"

struct hub_fairq;

struct hub_fairq_item {
    struct tny_mqtt_message ev;
    char device[TNY_WIRE_ID_MAX + 1];
    int64_t pushed_us; /* CLOCK_MONOTONIC when pushed (the result trace) */
};

/* per_device_max >= 1.  Errors: TNY_EINVAL, TNY_ENOMEM. */
TNY_MUST_USE int hub_fairq_new(int32_t per_device_max, struct hub_fairq **out);
/* Releases every waiting message and the queue (NULL is a no-op). */
void hub_fairq_free(struct hub_fairq *q);

/* Appends ev (moved in: the queue owns it on success) to device's FIFO.
 * Returns false, ev untouched, when that device already has
 * per_device_max results waiting or memory runs out. */
bool hub_fairq_push(struct hub_fairq *q, const char *device,
                    struct tny_mqtt_message *ev);

/* Moves into out[] the oldest item of each device with one waiting, in
 * turn (round robin, continuing where the last take stopped), at most max
 * and at most one per device: one batch never carries a device's backlog
 * in front of another device's result.  Returns how many; the caller owns
 * (releases) them. */
int32_t hub_fairq_take(struct hub_fairq *q, struct hub_fairq_item *out,
                       int32_t max);

/* Results waiting, all devices. */
int32_t hub_fairq_count(const struct hub_fairq *q);

#endif
