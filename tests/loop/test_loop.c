/* test_loop.c - the event loop (tny/loop.h, issue 18 item 5): one turn runs
 * the before hook, poll, the ready descriptors' callbacks, the after hook
 * and the due timers, in that order; a stop ends the turn where it is;
 * a watch without a descriptor is not polled.  No timed assertion: every
 * deadline here has passed already or is an hour away. */
#include "testutil.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tny/crash.h"
#include "tny/loop.h"

struct trace {
    char steps[256];
    struct tny_loop *ev;
    bool stop_in_fd;
};

static void step(struct trace *tr, const char *what)
{
    size_t n = strlen(tr->steps);
    snprintf(tr->steps + n, sizeof(tr->steps) - n, "%s%s", n ? " " : "", what);
}

static void before(void *ctx, int64_t now)
{
    (void)now;
    step(ctx, "before");
}

static void after(void *ctx, int64_t now)
{
    (void)now;
    step(ctx, "after");
}

static void on_fd(void *ctx, int fd, short revents)
{
    struct trace *tr = ctx;
    char b;
    assert_true(revents & POLLIN);
    assert_int_equal(read(fd, &b, 1), 1);
    step(tr, "fd");
    if (tr->stop_in_fd)
        tny_loop_stop(tr->ev);
}

static void on_timer(void *ctx, int32_t id, int64_t now)
{
    (void)id;
    (void)now;
    step(ctx, "timer");
}

struct fixture {
    struct trace tr;
    int p[2];
    int w;
    int32_t t;
};

static void setup_loop(struct fixture *f)
{
    memset(f, 0, sizeof(*f));
    assert_int_equal(pipe(f->p), 0);
    assert_int_equal(tny_loop_new(&f->tr.ev), TNY_OK);
    f->w = tny_loop_watch(f->tr.ev, f->p[0], POLLIN, on_fd, &f->tr);
    assert_true(f->w >= 0);
    tny_loop_set_hooks(f->tr.ev, before, after, &f->tr);
    f->t = tny_timers_add(tny_loop_timers(f->tr.ev), on_timer, &f->tr);
    assert_true(f->t > 0);
}

static void teardown_loop(struct fixture *f)
{
    tny_loop_free(f->tr.ev);
    close(f->p[0]);
    close(f->p[1]);
}

static void test_turn_order(void **state)
{
    (void)state;
    struct fixture f;
    struct tny_diag d = {{0}};
    setup_loop(&f);
    assert_int_equal(write(f.p[1], "x", 1), 1);
    tny_timers_arm(tny_loop_timers(f.tr.ev), f.t, tny_loop_now_ms() - 1);
    assert_int_equal(tny_loop_once(f.tr.ev, 60000, &d), TNY_OK);
    assert_string_equal(f.tr.steps, "before fd after timer");
    /* nothing ready, the timer an hour away: a turn with no wait */
    f.tr.steps[0] = '\0';
    tny_timers_arm(tny_loop_timers(f.tr.ev), f.t, tny_loop_now_ms() + 3600000);
    assert_int_equal(tny_loop_once(f.tr.ev, 0, &d), TNY_OK);
    assert_string_equal(f.tr.steps, "before after");
    teardown_loop(&f);
}

static void test_stop_ends_the_turn(void **state)
{
    (void)state;
    struct fixture f;
    struct tny_diag d = {{0}};
    setup_loop(&f);
    f.tr.stop_in_fd = true;
    assert_int_equal(write(f.p[1], "xy", 2), 2);
    tny_timers_arm(tny_loop_timers(f.tr.ev), f.t, tny_loop_now_ms() - 1);
    /* run: stops after the first turn's callback; no after, no timer */
    assert_int_equal(tny_loop_run(f.tr.ev, 60000, &d), TNY_OK);
    assert_true(tny_loop_stopped(f.tr.ev));
    assert_string_equal(f.tr.steps, "before fd");
    assert_true(tny_timers_armed(tny_loop_timers(f.tr.ev), f.t));
    teardown_loop(&f);
}

static void test_watch_without_fd(void **state)
{
    (void)state;
    struct fixture f;
    struct tny_diag d = {{0}};
    setup_loop(&f);
    assert_int_equal(write(f.p[1], "x", 1), 1);
    tny_loop_set_fd(f.tr.ev, f.w, -1);
    assert_int_equal(tny_loop_once(f.tr.ev, 0, &d), TNY_OK);
    assert_string_equal(f.tr.steps, "before after");
    tny_loop_set_fd(f.tr.ev, f.w, f.p[0]);
    f.tr.steps[0] = '\0';
    assert_int_equal(tny_loop_once(f.tr.ev, 60000, &d), TNY_OK);
    assert_string_equal(f.tr.steps, "before fd after");
    teardown_loop(&f);
}

static void test_watch_limit_and_wait_fd(void **state)
{
    (void)state;
    struct tny_loop *ev = NULL;
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(tny_loop_new(&ev), TNY_OK);
    for (int i = 0; i < TNY_LOOP_MAX_FDS; i++)
        assert_int_equal(tny_loop_watch(ev, -1, POLLIN, NULL, NULL), i);
    assert_int_equal(tny_loop_watch(ev, -1, POLLIN, NULL, NULL), TNY_ERANGE);
    tny_loop_free(ev);
    assert_false(tny_loop_wait_fd(p[0], 0)); /* empty */
    assert_int_equal(write(p[1], "x", 1), 1);
    assert_true(tny_loop_wait_fd(p[0], 60000));
    close(p[0]);
    close(p[1]);
}

/* tny/crash.h: a crashing child writes its name, the signal and a
 * backtrace to stderr and still dies of that signal.  Sanitizer builds
 * install nothing (their own reports are better): skipped there. */
static void test_crash_report_names_the_signal(void **state)
{
    int fds[2];
    pid_t pid;
    int status = 0;
    char out[8192];
    size_t n = 0;
    ssize_t r;

    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        tny_crash_report_install("crash-child");
        raise(SIGSEGV);
        _exit(0); /* not reached when the report re-raises */
    }
    close(fds[1]);
    while (n < sizeof(out) - 1 &&
           (r = read(fds[0], out + n, sizeof(out) - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
    assert_non_null(
        strstr(out, "crash-child: crashed on signal SIGSEGV; backtrace"));
    assert_non_null(strstr(out, "test_loop")); /* a frame of this program */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn_order),
        cmocka_unit_test(test_stop_ends_the_turn),
        cmocka_unit_test(test_watch_without_fd),
        cmocka_unit_test(test_watch_limit_and_wait_fd),
        cmocka_unit_test(test_crash_report_names_the_signal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
