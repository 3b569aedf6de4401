/* store_alarm.h - the hub's alarm for a database that stops taking writes
 * while the hub runs (a full disk, a file system turned read-only, I/O
 * errors).
 *
 * A call that returns TNY_ESTORE (the storage failed it, not a refusal:
 * issue 18) raises the alarm (hub_store_alarm_failed): one ERROR line naming
 * the file and SQLite's reason, and the retained status topic
 * tourney/v1/hub/store says "failing: REASON".  While it is raised the
 * loop hands no result to the service (nothing could be committed, so
 * nothing is acknowledged; the tables keep their results and resend
 * them), and probes the database with a one-row write every
 * HUB_STORE_PROBE_MS (hub_store_alarm_probe).  The first probe that
 * commits again, with HUB_STORE_MIN_FREE bytes free on the file system,
 * clears it: one line "store writable again", hub/store "ok".  Not
 * thread-safe: the loop's
 * thread owns it.  Times are CLOCK_MONOTONIC milliseconds.
 */
#ifndef HUB_STORE_ALARM_H
#define HUB_STORE_ALARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

struct hub_store;

/* How often a failing database is tried again. */
#define HUB_STORE_PROBE_MS 1000
/* Free space the database's file system must have for the alarm to clear
 * (the WAL's checkpoint threshold, docs/architecture.md "Durability"). */
#define HUB_STORE_MIN_FREE (1024 * 1024)

struct hub_store_alarm {
    const char *path; /* the database file, for the log (borrowed) */
    bool raised;
    int64_t next_probe_ms;
    char reason[256]; /* SQLite's reason while raised */
};

enum hub_store_alarm_change {
    HUB_STORE_ALARM_SAME,
    HUB_STORE_ALARM_RAISED,
    HUB_STORE_ALARM_CLEARED,
};

/* Not raised; path is borrowed for the log lines. */
void hub_store_alarm_init(struct hub_store_alarm *a, const char *path);

/* A call returned TNY_ESTORE (diag: its message, may be NULL): raises the
 * alarm unless it is raised, with SQLite's reason as the store kept it
 * (hub_store_write_fault; else diag's message), logged.  now: monotonic
 * ms.  RAISED or SAME. */
enum hub_store_alarm_change hub_store_alarm_failed(struct hub_store_alarm *a,
                                                   struct hub_store *store,
                                                   const struct tny_diag *diag,
                                                   int64_t now);

/* While raised and a probe is due (now >= next_probe_ms) and the file
 * system has room: one probe write; when it commits the alarm clears
 * (logged, CLEARED).  SAME when nothing changed. */
enum hub_store_alarm_change hub_store_alarm_probe(struct hub_store_alarm *a,
                                                  struct hub_store *store,
                                                  int64_t now);

/* The hub/store payload for the present state into buf: "ok" or
 * "failing: REASON". */
void hub_store_alarm_status(const struct hub_store_alarm *a, char *buf,
                            size_t cap);

#endif
