/* crash.c - the crash reporter of tny/crash.h: an alternate signal stack
 * (a stack overflow still reports), backtrace(3) written with
 * backtrace_symbols_fd (no malloc in the handler), then the default action
 * of the same signal. Only async-signal-safe calls after the first
 * backtrace(), which is made at install time so that libgcc is loaded
 * before any crash. */
#define _GNU_SOURCE
#include "tny/crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TNY_CRASH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) ||                                        \
    __has_feature(undefined_behavior_sanitizer)
#define TNY_CRASH_SANITIZED 1
#endif
#endif

#ifndef TNY_CRASH_SANITIZED
static const char *crash_prog = "tourney";

static void put(const char *s)
{
    size_t n = strlen(s);

    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
    }
}

static void on_crash(int sig)
{
    void *frames[64];
    int n;

    put(crash_prog);
    put(": crashed on signal ");
    put(sig_name(sig));
    put("; backtrace (addr2line -e the program resolves the offsets):\n");
    n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

#endif

void tny_crash_report_install(const char *prog)
{
#ifdef TNY_CRASH_SANITIZED
    (void)prog;
#else
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    static char alt[64 * 1024];
    stack_t ss;
    struct sigaction sa;
    void *warm[1];

    if (prog)
        crash_prog = prog;
    (void)backtrace(warm, 1); /* loads libgcc now, not in the handler */
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp = alt;
    ss.ss_size = sizeof(alt);
    (void)sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        (void)sigaction(sigs[i], &sa, NULL);
#endif
}
