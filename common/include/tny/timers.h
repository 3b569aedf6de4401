/* timers.h - timers registered with an event loop: the mechanism, with
 * no clock and no I/O.
 *
 * A part of a program that needs to run at some instant (a retry, a
 * periodic flush, a round clock's deadline) registers a timer once with a
 * callback, then arms it at a deadline, re-arms it, or disarms it; the
 * loop asks tny_timers_next() how long it may sleep and calls
 * tny_timers_run() with the time when it wakes.  Deadlines are plain
 * int64 milliseconds on whatever monotonic clock the caller reads (the
 * loop reads CLOCK_MONOTONIC: common/loop); this module never reads a
 * clock, so it is tested with any time line.
 *
 * Invariants:
 * - A timer is one-shot: it is disarmed just before its callback runs;
 *   a periodic timer re-arms itself from its callback.
 * - tny_timers_run(now) runs every timer whose deadline is <= now, each at
 *   most once, in deadline order; equal deadlines run in the order they
 *   were armed.  Time that went past several deadlines of one periodic
 *   timer runs it once (its callback decides its next deadline).
 * - A callback may add, arm, disarm or remove any timer, itself included.
 *   A timer armed during a run (even at a deadline already passed) runs
 *   in the next run, not this one, so a timer re-armed at `now` cannot
 *   starve the loop; a timer disarmed or re-armed later by a callback
 *   before its turn in this run does not run in it.
 * - Ids are positive and stay valid until tny_timers_remove(); a removed
 *   timer's id may be given to a later tny_timers_add().
 *
 * Arming is O(log n) (a binary heap keyed by deadline and arming order).
 */
#ifndef TNY_TIMERS_H
#define TNY_TIMERS_H

#include <stdbool.h>
#include <stdint.h>

/* No deadline: what tny_timers_next() and tny_timers_due() return for
 * nothing armed. */
#define TNY_TIMER_NEVER INT64_MAX

struct tny_timers;

/* The callback of timer `id`, run with the `now` given to
 * tny_timers_run(). */
typedef void (*tny_timer_fn)(void *ctx, int32_t id, int64_t now);

/* A set with no timers; TNY_ENOMEM. */
int tny_timers_new(struct tny_timers **out);
void tny_timers_free(struct tny_timers *ts);

/* Registers a disarmed timer; its id (> 0) or TNY_ENOMEM. */
int32_t tny_timers_add(struct tny_timers *ts, tny_timer_fn fn, void *ctx);

/* Unregisters timer id (armed or not); an unknown id is ignored. */
void tny_timers_remove(struct tny_timers *ts, int32_t id);

/* Arms timer id at deadline `due` (re-arms it when armed: the new
 * deadline replaces the old one, earlier or later).  TNY_EINVAL for an
 * unknown id or due == TNY_TIMER_NEVER. */
int tny_timers_arm(struct tny_timers *ts, int32_t id, int64_t due);

/* Arms timer id at `due` unless it is armed already at or before it:
 * "run no later than due". */
int tny_timers_arm_by(struct tny_timers *ts, int32_t id, int64_t due);

/* Disarms timer id; a disarmed or unknown id is ignored. */
void tny_timers_disarm(struct tny_timers *ts, int32_t id);

bool tny_timers_armed(const struct tny_timers *ts, int32_t id);

/* Timer id's deadline, TNY_TIMER_NEVER when disarmed or unknown. */
int64_t tny_timers_due(const struct tny_timers *ts, int32_t id);

/* The earliest deadline armed, TNY_TIMER_NEVER when none. */
int64_t tny_timers_next(const struct tny_timers *ts);

/* How long a loop at `now` may sleep before the next deadline, in
 * [0, max_ms]: 0 when a deadline has passed, max_ms when none is armed
 * or it is further away. */
int64_t tny_timers_wait_ms(const struct tny_timers *ts, int64_t now,
                           int64_t max_ms);

/* Runs the timers due at `now` (see the invariants above); the number of
 * callbacks run.  A call from inside a callback runs nothing and returns
 * 0. */
int32_t tny_timers_run(struct tny_timers *ts, int64_t now);

#endif
