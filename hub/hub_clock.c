/* hub_clock.c - the hub's clock (hub/include/hub/clock.h): the wall
 * clock at the first call plus the monotonic time since.
 */
#include "hub/clock.h"

#include <pthread.h>
#include <time.h>

static pthread_once_t anchor_once = PTHREAD_ONCE_INIT;
static int64_t anchor_wall_ms, anchor_mono_ms;

int64_t hub_clock_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void anchor(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    anchor_mono_ms = hub_clock_mono_ms();
    anchor_wall_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t hub_clock_ms(void)
{
    pthread_once(&anchor_once, anchor);
    return anchor_wall_ms + (hub_clock_mono_ms() - anchor_mono_ms);
}
