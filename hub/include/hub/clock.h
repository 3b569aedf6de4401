/* clock.h - the hub's clock (hub/hub_clock.c): the one time the hub
 * publishes and computes round clocks with (the service's `now`, time
 * sync answers, the feed's hub_now_ms and its `now` heartbeat).
 *
 * It is the wall clock read once, at the first call, and moved on by
 * CLOCK_MONOTONIC from then on: a wall clock stepped while the hub runs
 * (NTP, an organiser setting the time) moves none of what the hub has
 * told the tables and the feed, so the feed, the tables and the stored
 * deadlines stay on one time line (issue 23).  A restart reads the wall
 * clock again.
 *
 * Threads: callable from any thread.
 */
#ifndef HUB_CLOCK_H
#define HUB_CLOCK_H

#include <stdint.h>

/* UTC milliseconds on the hub's clock (above). */
int64_t hub_clock_ms(void);
/* CLOCK_MONOTONIC in milliseconds: for waits, intervals and deadlines. */
int64_t hub_clock_mono_ms(void);

#endif
