/* hub_log.c - the hub's stderr log (see hub/include/hub/log.h).
 *
 * Formats the whole line into a stack buffer and writes it with one
 * write(2), so lines from different threads never interleave.  Does not
 * buffer, rotate or retry short writes beyond EINTR.
 */
#include "hub/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum hub_log_level hub_log_level = HUB_LOG_INFO;
static bool log_timestamps;

static const char *const level_names[] = {"error", "warn", "info", "debug"};

void hub_log_setup(enum hub_log_level level, bool timestamps)
{
    hub_log_level = level;
    log_timestamps = timestamps;
}

void hub_log_write(enum hub_log_level level, const char *fmt, ...)
{
    char line[1024];
    size_t used = 0;
    va_list ap;

    if (log_timestamps) {
        struct timespec ts;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &ts);
        gmtime_r(&ts.tv_sec, &tm);
        used = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%S", &tm);
        used += (size_t)snprintf(line + used, sizeof(line) - used, ".%03ldZ ",
                                 ts.tv_nsec / 1000000);
    }
    int n = snprintf(line + used, sizeof(line) - used,
                     "%s: ", level_names[level <= HUB_LOG_DEBUG ? level : 0]);
    if (n > 0)
        used += (size_t)n;
    va_start(ap, fmt);
    n = vsnprintf(line + used, sizeof(line) - used, fmt, ap);
    va_end(ap);
    if (n > 0)
        used += (size_t)n;
    if (used > sizeof(line) - 2)
        used = sizeof(line) - 2; /* cut: keep room for the newline */
    line[used++] = '\n';
    size_t off = 0;
    while (off < used) {
        ssize_t w = write(STDERR_FILENO, line + off, used - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}
