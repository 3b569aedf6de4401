/* loop.h - the event loop of the hub, the table client and the console:
 * poll() on a few file descriptors plus the timers registered with it
 * (tny/timers.h), as redis's ae.c.  The loop is the mechanism; each part
 * of a program registers the timers it needs and arms them (its policy).
 *
 * One turn (tny_loop_once):
 *   1. the `before` hook (work due every turn, such as a redraw);
 *   2. poll() until a watched descriptor is ready or the earliest timer's
 *      deadline (at most max_wait_ms);
 *   3. the callback of each watched descriptor that is ready;
 *   4. the `after` hook (reading queues that a ready descriptor announced);
 *   5. the timers due (tny_timers_run), on CLOCK_MONOTONIC milliseconds.
 * tny_loop_stop() from any callback or hook ends the turn after that
 * step, and tny_loop_run() after it.
 *
 * Deadlines are on tny_loop_now_ms() (CLOCK_MONOTONIC): a wall clock
 * stepped back delays none of them (docs/architecture.md "Clocks").
 * Not thread-safe: the loop belongs to the thread that runs it.
 */
#ifndef TNY_LOOP_H
#define TNY_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/timers.h"

/* Most descriptors one loop watches. */
#define TNY_LOOP_MAX_FDS 8

struct tny_loop;

/* A watched descriptor is ready: revents as poll() set them. */
typedef void (*tny_loop_fd_fn)(void *ctx, int fd, short revents);
/* A hook, with the loop's time when it runs. */
typedef void (*tny_loop_hook_fn)(void *ctx, int64_t now);

/* CLOCK_MONOTONIC in milliseconds: the clock of every deadline. */
int64_t tny_loop_now_ms(void);

/* A loop watching nothing, with an empty timer set; TNY_ENOMEM. */
int tny_loop_new(struct tny_loop **out);
void tny_loop_free(struct tny_loop *l);

/* The loop's timers: register, arm and disarm them with tny_timers_*(). */
struct tny_timers *tny_loop_timers(struct tny_loop *l);

/* Watches fd for `events` (POLLIN...); fn (NULL: none, the poll only
 * wakes the loop) runs when it is ready.  The watch's index (>= 0) for
 * tny_loop_set_fd, or TNY_ERANGE beyond TNY_LOOP_MAX_FDS. */
int tny_loop_watch(struct tny_loop *l, int fd, short events, tny_loop_fd_fn fn,
                   void *ctx);

/* Watch `w` now watches fd (-1: nothing, the watch stays). */
void tny_loop_set_fd(struct tny_loop *l, int w, int fd);

/* The hooks of every turn (either may be NULL), with their context. */
void tny_loop_set_hooks(struct tny_loop *l, tny_loop_hook_fn before,
                        tny_loop_hook_fn after, void *ctx);

/* One turn (see the top of this file).  TNY_ESTATE when poll() failed
 * (not EINTR), with its reason in diag. */
int tny_loop_once(struct tny_loop *l, int64_t max_wait_ms,
                  struct tny_diag *diag);

/* Turns until tny_loop_stop(); TNY_OK, or tny_loop_once's error. */
int tny_loop_run(struct tny_loop *l, int64_t max_wait_ms,
                 struct tny_diag *diag);

void tny_loop_stop(struct tny_loop *l);
bool tny_loop_stopped(const struct tny_loop *l);

/* Waits at most wait_ms (< 0: 0) for fd to be readable: a loop of one
 * descriptor and no timers, for a caller that only waits.  True when it
 * is (or poll was interrupted: the caller looks again). */
bool tny_loop_wait_fd(int fd, int64_t wait_ms);

#endif
