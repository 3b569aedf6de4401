/* outbox.h - the table's durable queue of result submissions: a small
 * SQLite database (WAL, synchronous=FULL) on the device.
 *
 * docs/protocol.md "Idempotency and acknowledgement": a submission is
 * stored with its idempotency key before it is published, resent with the
 * same bytes until an ack with that key arrives, and survives restarts and
 * power loss.  Acked entries are marked done (kept for the record; the
 * oldest done ones beyond TBL_OUTBOX_KEEP_DONE are pruned at open).  The
 * database also keeps a boot counter, incremented at every open, from
 * which fresh keys are made ({dev}.{boot}.{seq}), and the display's
 * small key/value state (tbl_outbox_kv_set).
 *
 * Not here: when to resend (the caller, with tbl_outbox_backoff_ms), what
 * the payload means.  All SQL of the table client lives in outbox.c.
 * Threads: one owner thread per outbox.
 */
#ifndef TBL_OUTBOX_H
#define TBL_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/rng.h"
#include "tny/wire.h"

#define TBL_OUTBOX_KEEP_DONE 1000

struct tbl_outbox; /* opaque */

/* One stored submission.  payload is malloc'd (tbl_outbox_entries_free). */
struct tbl_outbox_entry {
    int64_t seq; /* storage order, increasing */
    char key[TNY_WIRE_ID_MAX + 1];
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *payload;
    size_t len;
    bool done;
    int ack_status; /* enum tny_wire_ack_status once done, else 0 */
};

/* Opens (creating when missing) the database at path, sets WAL and
 * synchronous=FULL, creates the schema and increments the boot counter
 * (durably, before returning).
 * Errors: TNY_ESTATE (cannot open or write it: diag has SQLite's message),
 * TNY_ENOMEM. */
TNY_MUST_USE int tbl_outbox_open(const char *path, struct tbl_outbox **out,
                                 struct tny_diag *diag);

/* Closes; NULL is a no-op. */
void tbl_outbox_close(struct tbl_outbox *ob);

/* This run's boot number (1 on a fresh database). */
uint64_t tbl_outbox_boot(const struct tbl_outbox *ob);

/* Stores a pending submission, committed (fsync'd) before returning.
 * Errors: TNY_EINVAL (invalid key, empty topic, len 0 or above
 * TNY_WIRE_MAX_TABLE_MSG), TNY_ECONFLICT (the key is already stored),
 * TNY_ESTATE (SQLite failed: disk full, read-only...). */
TNY_MUST_USE int tbl_outbox_put(struct tbl_outbox *ob, const char *key,
                                const char *topic, const uint8_t *payload,
                                size_t len, int64_t wall_ms,
                                struct tny_diag *diag);

/* Marks key done with the ack's status.  *changed (may be NULL) is true
 * when it was pending.  Errors: TNY_ENOTFOUND (no such key), TNY_ESTATE. */
TNY_MUST_USE int tbl_outbox_done(struct tbl_outbox *ob, const char *key,
                                 int ack_status, int64_t wall_ms, bool *changed,
                                 struct tny_diag *diag);

/* The pending entries, oldest first, in *out (malloc'd array, NULL when
 * none) and *n.  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int tbl_outbox_pending(struct tbl_outbox *ob,
                                    struct tbl_outbox_entry **out, int32_t *n,
                                    struct tny_diag *diag);

/* One entry by key.  Errors: TNY_ENOTFOUND, TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int tbl_outbox_get(struct tbl_outbox *ob, const char *key,
                                struct tbl_outbox_entry *out,
                                struct tny_diag *diag);

/* The newest entry, done or not (what the table showed last, restored
 * after a restart).  Errors: TNY_ENOTFOUND (empty outbox), TNY_ESTATE,
 * TNY_ENOMEM. */
TNY_MUST_USE int tbl_outbox_latest(struct tbl_outbox *ob,
                                   struct tbl_outbox_entry *out,
                                   struct tny_diag *diag);

/* Number of pending entries.  Errors: TNY_ESTATE. */
TNY_MUST_USE int tbl_outbox_count(struct tbl_outbox *ob, int32_t *pending,
                                  struct tny_diag *diag);

/* Longest kv value (bytes, without the NUL). */
#define TBL_OUTBOX_KV_MAX 8192

/* The display's small durable state (screen, flow answers, chess clock:
 * ui.c) as name -> text, in the same file (table kv, schema version 2).
 * kv_set replaces the value, committed (fsync'd) before returning.
 * Errors: TNY_EINVAL (name not 1..64 bytes, value above
 * TBL_OUTBOX_KV_MAX), TNY_ESTATE (SQLite failed). */
TNY_MUST_USE int tbl_outbox_kv_set(struct tbl_outbox *ob, const char *name,
                                   const char *value, int64_t wall_ms,
                                   struct tny_diag *diag);

/* Copies the value of name into buf (size bytes with the NUL).
 * Errors: TNY_ENOTFOUND (never set), TNY_ERANGE (buf too small),
 * TNY_ESTATE. */
TNY_MUST_USE int tbl_outbox_kv_get(struct tbl_outbox *ob, const char *name,
                                   char *buf, size_t size,
                                   struct tny_diag *diag);

/* Frees the payloads and the array (NULL is fine). */
void tbl_outbox_entries_free(struct tbl_outbox_entry *e, int32_t n);

/* Delay before resend number attempt (0 = the first resend after the
 * initial send): uniform in [lo, hi] with hi = min(60 s, 5 s * 2^attempt)
 * and lo = max(1 s, hi / 5), i.e. 1-5 s, 2-10 s, 4-20 s, 8-40 s, then
 * 12-60 s (docs/protocol.md: 1-5 s doubling to 60 s; jittered at the cap
 * too, so tables that lost the network together do not resend together).
 * Pure; attempt < 0 counts as 0. */
int64_t tbl_outbox_backoff_ms(struct tny_rng *rng, int attempt);

#endif
