/* loop.c - the event loop (loop.h): poll() over the watched descriptors
 * with the timeout the timer set computes, then the callbacks, the hooks
 * and the due timers.  The only I/O here is poll() and the clock; what a
 * timer is and when it runs is common/src/timers.c's (pure, tested with
 * any time line). */
#include "tny/loop.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct watch {
    tny_loop_fd_fn fn;
    void *ctx;
};

struct tny_loop {
    struct tny_timers *timers;
    struct pollfd fds[TNY_LOOP_MAX_FDS];
    struct watch watches[TNY_LOOP_MAX_FDS];
    int n_fds;
    tny_loop_hook_fn before, after;
    void *hook_ctx;
    bool stopped;
};

int64_t tny_loop_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int tny_loop_new(struct tny_loop **out)
{
    int rc;
    struct tny_loop *l = calloc(1, sizeof(*l));
    *out = NULL;
    if (!l)
        return TNY_ENOMEM;
    if ((rc = tny_timers_new(&l->timers)) < 0) {
        free(l);
        return rc;
    }
    *out = l;
    return TNY_OK;
}

void tny_loop_free(struct tny_loop *l)
{
    if (!l)
        return;
    tny_timers_free(l->timers);
    free(l);
}

struct tny_timers *tny_loop_timers(struct tny_loop *l)
{
    return l->timers;
}

int tny_loop_watch(struct tny_loop *l, int fd, short events, tny_loop_fd_fn fn,
                   void *ctx)
{
    if (l->n_fds == TNY_LOOP_MAX_FDS)
        return TNY_ERANGE;
    l->fds[l->n_fds] = (struct pollfd){.fd = fd, .events = events};
    l->watches[l->n_fds] = (struct watch){.fn = fn, .ctx = ctx};
    return l->n_fds++;
}

void tny_loop_set_fd(struct tny_loop *l, int w, int fd)
{
    if (w >= 0 && w < l->n_fds)
        l->fds[w].fd = fd;
}

void tny_loop_set_hooks(struct tny_loop *l, tny_loop_hook_fn before,
                        tny_loop_hook_fn after, void *ctx)
{
    l->before = before;
    l->after = after;
    l->hook_ctx = ctx;
}

int tny_loop_once(struct tny_loop *l, int64_t max_wait_ms,
                  struct tny_diag *diag)
{
    if (l->before)
        l->before(l->hook_ctx, tny_loop_now_ms());
    if (l->stopped)
        return TNY_OK;
    int64_t wait = tny_timers_wait_ms(l->timers, tny_loop_now_ms(),
                                      max_wait_ms < 0 ? 0 : max_wait_ms);
    for (int i = 0; i < l->n_fds; i++)
        l->fds[i].revents = 0;
    if (poll(l->fds, (nfds_t)l->n_fds, (int)wait) < 0 && errno != EINTR)
        return tny_diag_set(diag, TNY_ESTATE, "poll: %s", strerror(errno));
    for (int i = 0; i < l->n_fds && !l->stopped; i++)
        if (l->fds[i].revents && l->watches[i].fn)
            l->watches[i].fn(l->watches[i].ctx, l->fds[i].fd,
                             l->fds[i].revents);
    if (l->stopped)
        return TNY_OK;
    if (l->after)
        l->after(l->hook_ctx, tny_loop_now_ms());
    if (l->stopped)
        return TNY_OK;
    (void)tny_timers_run(l->timers, tny_loop_now_ms());
    return TNY_OK;
}

int tny_loop_run(struct tny_loop *l, int64_t max_wait_ms, struct tny_diag *diag)
{
    int rc = TNY_OK;
    while (!l->stopped && (rc = tny_loop_once(l, max_wait_ms, diag)) == TNY_OK)
        ;
    return rc;
}

void tny_loop_stop(struct tny_loop *l)
{
    l->stopped = true;
}

bool tny_loop_stopped(const struct tny_loop *l)
{
    return l->stopped;
}

bool tny_loop_wait_fd(int fd, int64_t wait_ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1,
                 wait_ms < 0       ? 0
                 : wait_ms > 60000 ? 60000
                                   : (int)wait_ms);
    return n != 0;
}
