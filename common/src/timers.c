/* timers.c - timers registered with an event loop (timers.h): a binary
 * min-heap of armed timers keyed by (deadline, arming order), over a
 * table of registered timers whose free entries are chained for reuse.
 *
 * A run first takes every due timer off the heap into `fire`, in order,
 * marking each FIRING; it then calls them one by one, skipping any that
 * an earlier callback disarmed, re-armed or removed (its state is no
 * longer FIRING).  So a run calls each timer at most once, and whatever a
 * callback arms goes on the heap for the next run.
 */
#include "tny/timers.h"

#include <stdlib.h>

#include "tny/error.h"

/* Most timers registered at once (every growable buffer has a bound). */
#define TIMERS_MAX (1 << 22)

enum slot_state { SLOT_FREE, SLOT_IDLE, SLOT_ARMED, SLOT_FIRING };

struct slot {
    tny_timer_fn fn;
    void *ctx;
    int64_t due;
    uint64_t seq;      /* arming order: ties of due */
    int32_t pos;       /* index in heap while SLOT_ARMED */
    int32_t next_free; /* SLOT_FREE: the next free slot, -1 ends */
    enum slot_state state;
};

struct tny_timers {
    struct slot *slots;
    int32_t n_slots, cap;
    int32_t free_head;
    int32_t *heap; /* slot indices; cap entries */
    int32_t n_heap;
    int32_t *fire; /* the run's due timers; cap entries */
    int32_t n_fire;
    uint64_t seq;
    bool running;
};

int tny_timers_new(struct tny_timers **out)
{
    struct tny_timers *ts = calloc(1, sizeof(*ts));
    *out = NULL;
    if (!ts)
        return TNY_ENOMEM;
    ts->free_head = -1;
    *out = ts;
    return TNY_OK;
}

void tny_timers_free(struct tny_timers *ts)
{
    if (!ts)
        return;
    free(ts->slots);
    free(ts->heap);
    free(ts->fire);
    free(ts);
}

static bool before(const struct tny_timers *ts, int32_t a, int32_t b)
{
    const struct slot *x = &ts->slots[a], *y = &ts->slots[b];
    return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

static void heap_set(struct tny_timers *ts, int32_t pos, int32_t idx)
{
    ts->heap[pos] = idx;
    ts->slots[idx].pos = pos;
}

static void sift_up(struct tny_timers *ts, int32_t pos)
{
    int32_t idx = ts->heap[pos];
    while (pos > 0) {
        int32_t parent = (pos - 1) / 2;
        if (!before(ts, idx, ts->heap[parent]))
            break;
        heap_set(ts, pos, ts->heap[parent]);
        pos = parent;
    }
    heap_set(ts, pos, idx);
}

static void sift_down(struct tny_timers *ts, int32_t pos)
{
    int32_t idx = ts->heap[pos];
    for (;;) {
        int32_t c = 2 * pos + 1;
        if (c >= ts->n_heap)
            break;
        if (c + 1 < ts->n_heap && before(ts, ts->heap[c + 1], ts->heap[c]))
            c++;
        if (!before(ts, ts->heap[c], idx))
            break;
        heap_set(ts, pos, ts->heap[c]);
        pos = c;
    }
    heap_set(ts, pos, idx);
}

/* Takes slot idx (SLOT_ARMED) off the heap. */
static void heap_remove(struct tny_timers *ts, int32_t idx)
{
    int32_t pos = ts->slots[idx].pos;
    int32_t last = ts->heap[--ts->n_heap];
    ts->slots[idx].pos = -1;
    if (pos == ts->n_heap)
        return;
    heap_set(ts, pos, last);
    sift_up(ts, pos);
    sift_down(ts, ts->slots[last].pos);
}

static int grow(struct tny_timers *ts)
{
    if (ts->cap >= TIMERS_MAX)
        return TNY_ENOMEM;
    int32_t cap = ts->cap ? ts->cap * 2 : 16;
    struct slot *s = realloc(ts->slots, sizeof(*s) * (size_t)cap);
    if (!s)
        return TNY_ENOMEM;
    ts->slots = s;
    int32_t *h = realloc(ts->heap, sizeof(*h) * (size_t)cap);
    if (!h)
        return TNY_ENOMEM;
    ts->heap = h;
    int32_t *f = realloc(ts->fire, sizeof(*f) * (size_t)cap);
    if (!f)
        return TNY_ENOMEM;
    ts->fire = f;
    ts->cap = cap;
    return TNY_OK;
}

int32_t tny_timers_add(struct tny_timers *ts, tny_timer_fn fn, void *ctx)
{
    int32_t idx;
    if (ts->free_head >= 0) {
        idx = ts->free_head;
        ts->free_head = ts->slots[idx].next_free;
    } else {
        if (ts->n_slots == ts->cap && grow(ts) < 0)
            return TNY_ENOMEM;
        idx = ts->n_slots++;
    }
    ts->slots[idx] = (struct slot){.fn = fn,
                                   .ctx = ctx,
                                   .due = TNY_TIMER_NEVER,
                                   .pos = -1,
                                   .next_free = -1,
                                   .state = SLOT_IDLE};
    return idx + 1;
}

/* The slot of id, NULL when id names no registered timer. */
static struct slot *slot_of(const struct tny_timers *ts, int32_t id)
{
    if (id <= 0 || id > ts->n_slots || ts->slots[id - 1].state == SLOT_FREE)
        return NULL;
    return &ts->slots[id - 1];
}

void tny_timers_disarm(struct tny_timers *ts, int32_t id)
{
    struct slot *s = slot_of(ts, id);
    if (!s)
        return;
    if (s->state == SLOT_ARMED)
        heap_remove(ts, id - 1);
    s->state = SLOT_IDLE;
    s->due = TNY_TIMER_NEVER;
}

void tny_timers_remove(struct tny_timers *ts, int32_t id)
{
    struct slot *s = slot_of(ts, id);
    if (!s)
        return;
    tny_timers_disarm(ts, id);
    s->state = SLOT_FREE;
    s->fn = NULL;
    s->ctx = NULL;
    s->next_free = ts->free_head;
    ts->free_head = id - 1;
}

int tny_timers_arm(struct tny_timers *ts, int32_t id, int64_t due)
{
    struct slot *s = slot_of(ts, id);
    if (!s || due == TNY_TIMER_NEVER)
        return TNY_EINVAL;
    if (s->state == SLOT_ARMED)
        heap_remove(ts, id - 1);
    s->due = due;
    s->seq = ts->seq++;
    s->state = SLOT_ARMED;
    s->pos = ts->n_heap++;
    ts->heap[s->pos] = id - 1; /* cap >= n_slots >= n_heap */
    sift_up(ts, s->pos);
    return TNY_OK;
}

int tny_timers_arm_by(struct tny_timers *ts, int32_t id, int64_t due)
{
    struct slot *s = slot_of(ts, id);
    if (!s || due == TNY_TIMER_NEVER)
        return TNY_EINVAL;
    if ((s->state == SLOT_ARMED || s->state == SLOT_FIRING) && s->due <= due)
        return TNY_OK;
    return tny_timers_arm(ts, id, due);
}

bool tny_timers_armed(const struct tny_timers *ts, int32_t id)
{
    const struct slot *s = slot_of(ts, id);
    return s && (s->state == SLOT_ARMED || s->state == SLOT_FIRING);
}

int64_t tny_timers_due(const struct tny_timers *ts, int32_t id)
{
    return tny_timers_armed(ts, id) ? ts->slots[id - 1].due : TNY_TIMER_NEVER;
}

int64_t tny_timers_next(const struct tny_timers *ts)
{
    int64_t next = ts->n_heap ? ts->slots[ts->heap[0]].due : TNY_TIMER_NEVER;
    if (ts->running) /* called from a callback: the run's rest are due too */
        for (int32_t i = 0; i < ts->n_fire; i++) {
            const struct slot *s = &ts->slots[ts->fire[i]];
            if (s->state == SLOT_FIRING && s->due < next)
                next = s->due;
        }
    return next;
}

int64_t tny_timers_wait_ms(const struct tny_timers *ts, int64_t now,
                           int64_t max_ms)
{
    int64_t next = tny_timers_next(ts);
    if (next == TNY_TIMER_NEVER)
        return max_ms;
    if (next <= now)
        return 0;
    /* next - now cannot overflow: next > now */
    return (uint64_t)next - (uint64_t)now > (uint64_t)max_ms ? max_ms
                                                             : next - now;
}

int32_t tny_timers_run(struct tny_timers *ts, int64_t now)
{
    int32_t n_run = 0;
    if (ts->running)
        return 0;
    ts->running = true;
    ts->n_fire = 0;
    while (ts->n_heap > 0 && ts->slots[ts->heap[0]].due <= now) {
        int32_t idx = ts->heap[0];
        heap_remove(ts, idx);
        ts->slots[idx].state = SLOT_FIRING;
        ts->fire[ts->n_fire++] = idx;
    }
    /* ts->slots and ts->fire may move while a callback adds timers. */
    for (int32_t i = 0; i < ts->n_fire; i++) {
        int32_t idx = ts->fire[i];
        struct slot *s = &ts->slots[idx];
        if (s->state != SLOT_FIRING)
            continue;
        s->state = SLOT_IDLE;
        s->due = TNY_TIMER_NEVER;
        tny_timer_fn fn = s->fn;
        void *ctx = s->ctx;
        fn(ctx, idx + 1, now);
        n_run++;
    }
    ts->n_fire = 0;
    ts->running = false;
    return n_run;
}
