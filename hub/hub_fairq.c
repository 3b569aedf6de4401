/* hub_fairq.c - per-device bounded FIFOs taken round robin (fairq.h).
 *
 * Devices with results waiting sit in `dev` in the order they first had
 * one; a device whose FIFO empties leaves the list, so the list is never
 * longer than the devices with something waiting.  `next` is the device
 * the next take starts with.  The last device pushed to is remembered:
 * a flood comes from one device, and its pushes skip the search.
 */
#include "hub/fairq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fifo {
    char device[TNY_WIRE_ID_MAX + 1];
    struct hub_fairq_item *items; /* ring of per_device_max */
    int32_t head, n;
};

struct hub_fairq {
    int32_t per_device_max;
    struct fifo *dev;
    int32_t n_dev, cap_dev;
    int32_t next;
    int32_t last; /* index of the last device pushed to, or -1 */
    int32_t count;
};

int hub_fairq_new(int32_t per_device_max, struct hub_fairq **out)
{
    *out = NULL;
    if (per_device_max < 1)
        return TNY_EINVAL;
    struct hub_fairq *q = calloc(1, sizeof(*q));
    if (!q)
        return TNY_ENOMEM;
    q->per_device_max = per_device_max;
    q->last = -1;
    *out = q;
    return TNY_OK;
}

void hub_fairq_free(struct hub_fairq *q)
{
    if (!q)
        return;
    for (int32_t d = 0; d < q->n_dev; d++) {
        struct fifo *f = &q->dev[d];
        for (int32_t i = 0; i < f->n; i++)
            tny_mqtt_message_release(
                &f->items[(f->head + i) % q->per_device_max].ev);
        free(f->items);
    }
    free(q->dev);
    free(q);
}

static struct fifo *find_or_add(struct hub_fairq *q, const char *device)
{
    if (q->last >= 0 && q->last < q->n_dev &&
        strcmp(q->dev[q->last].device, device) == 0)
        return &q->dev[q->last];
    for (int32_t d = 0; d < q->n_dev; d++)
        if (strcmp(q->dev[d].device, device) == 0) {
            q->last = d;
            return &q->dev[d];
        }
    if (q->n_dev == q->cap_dev) {
        int32_t cap = q->cap_dev ? 2 * q->cap_dev : 16;
        struct fifo *dev = realloc(q->dev, (size_t)cap * sizeof(*dev));
        if (!dev)
            return NULL;
        q->dev = dev;
        q->cap_dev = cap;
    }
    struct fifo *f = &q->dev[q->n_dev];
    memset(f, 0, sizeof(*f));
    f->items = malloc((size_t)q->per_device_max * sizeof(*f->items));
    if (!f->items)
        return NULL;
    snprintf(f->device, sizeof(f->device), "%s", device);
    q->last = q->n_dev++;
    return f;
}

bool hub_fairq_push(struct hub_fairq *q, const char *device,
                    struct tny_mqtt_message *ev)
{
    struct fifo *f = find_or_add(q, device);
    if (!f || f->n == q->per_device_max)
        return false;
    struct hub_fairq_item *it = &f->items[(f->head + f->n) % q->per_device_max];
    it->ev = *ev;
    memcpy(it->device, f->device, sizeof(it->device));
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    it->pushed_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    f->n++;
    q->count++;
    return true;
}

/* Removes the empty device d, keeping the others' order. */
static void remove_device(struct hub_fairq *q, int32_t d)
{
    free(q->dev[d].items);
    memmove(&q->dev[d], &q->dev[d + 1],
            (size_t)(q->n_dev - d - 1) * sizeof(*q->dev));
    q->n_dev--;
    if (q->next > d)
        q->next--;
    q->last = -1;
}

int32_t hub_fairq_take(struct hub_fairq *q, struct hub_fairq_item *out,
                       int32_t max)
{
    int32_t n = 0;
    /* One turn: each device listed now at most once (a device emptied by
     * this take leaves the list, so count the turn down instead). */
    int32_t turn = q->n_dev;
    while (n < max && q->count > 0 && turn-- > 0) {
        if (q->next >= q->n_dev)
            q->next = 0;
        struct fifo *f = &q->dev[q->next];
        out[n++] = f->items[f->head];
        f->head = (f->head + 1) % q->per_device_max;
        f->n--;
        q->count--;
        if (f->n == 0)
            remove_device(q, q->next); /* next now names the following */
        else
            q->next++;
    }
    return n;
}

int32_t hub_fairq_count(const struct hub_fairq *q)
{
    return q->count;
}
