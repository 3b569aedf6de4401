/* log.h - the hub's log: one line per event on stderr, levels checked
 * before formatting (HUB_LOG), journald friendly.
 *
 * A line is "LEVEL: message" where the message carries its identifiers as
 * key=value pairs (event=nh-1 round=2 table=5 device=table-005), so one
 * grep finds everything about a table.  No timestamps unless asked for:
 * journald stamps every line.  Not here: rotation, files, syslog.
 *
 * Threads: the level is set once at start-up by the owner thread; writing
 * a line is one write(2) of a formatted buffer, safe from any thread.
 */
#ifndef HUB_LOG_H
#define HUB_LOG_H

#include <stdbool.h>

#include "tny/error.h"

enum hub_log_level {
    HUB_LOG_ERROR,
    HUB_LOG_WARN,
    HUB_LOG_INFO,
    HUB_LOG_DEBUG,
};

/* The current level (lines above it are not even formatted). */
extern enum hub_log_level hub_log_level;

/* Sets the level and whether lines start with an ISO-8601 UTC time. */
void hub_log_setup(enum hub_log_level level, bool timestamps);

/* Formats and writes one line (a newline is added; the line is cut at
 * 1 KiB).  Use HUB_LOG so that the level is checked first. */
void hub_log_write(enum hub_log_level level, const char *fmt, ...)
    TNY_PRINTF(2, 3);

#define HUB_LOG(level, ...)                                                    \
    do {                                                                       \
        if ((level) <= hub_log_level)                                          \
            hub_log_write((level), __VA_ARGS__);                               \
    } while (0)

#endif
