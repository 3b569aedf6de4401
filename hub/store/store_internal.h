/* store_internal.h - what the store's files share (not public).
 *
 * The store struct, then the helpers by the file that defines them, lowest
 * layer first: store_sql.c (SQLite error mapping, statements,
 * transactions, the log append, column copies, id checks, row lookups),
 * store_load.c (the projection builder and plan readers), store_event.c
 * (inserting a round's tables).  A file only calls helpers of the files
 * listed before it, so the store's files form a DAG with store.c (open,
 * close, migrations) on top, called by none of them.  Every helper that
 * can fail returns an engine rc and fills diag; none of them begins or
 * ends a transaction except hs_begin / hs_finish.
 */
#ifndef HUB_STORE_INTERNAL_H
#define HUB_STORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>
#include <sqlite3.h>

#include "store.h"

/* Prepared statements kept for re-use (hs_prepare / hs_finalize): the
 * hot paths run the same few dozen statements for every result, and
 * compiling them each time cost more than running them. */
#define HS_STMT_CACHE 128

struct hs_cached_stmt {
    const char *sql; /* the text as the caller passed it (pointer) */
    sqlite3_stmt *st;
    bool busy; /* handed out, not yet given back */
};

struct hs_checkpointer;

struct hub_store {
    sqlite3 *db;
    bool read_only;
    struct hs_checkpointer *ckpt; /* HUB_STORE_BACKGROUND_CHECKPOINT */
    int32_t n_stmts;
    struct hs_cached_stmt stmts[HS_STMT_CACHE];
    /* hub_store_set_reason: added as "reason" to every log row's detail
     * while set (malloc'd; NULL = none). */
    char *reason;
    /* hub_store_write_fault: set by hs_sqlite_error for a fault of the
     * storage, cleared by the next COMMIT that succeeds. */
    bool fault;
    int busy_timeout_ms; /* as opened (hub_store_checkpoint sets its own) */
    /* The WAL was written ahead (store.c wal_write_ahead): the guaranteed
     * checkpoint restarts it instead of truncating it. */
    bool wal_ahead;
    char fault_why[160];
    /* hub_store_batch_begin: every write is a savepoint of one open
     * transaction until hub_store_batch_end; batch_lost: SQLite rolled
     * that transaction back (the batch can only fail). */
    bool batch, batch_lost;
    /* sqlite3_total_changes64 at the last BEGIN: a commit that wrote
     * nothing does not clear the write fault. */
    int64_t changes_at_begin;
    struct hub_store_stats stats; /* hub_store_stats */
};

/* ---- store_sql.c --------------------------------------------------------- */

/* Maps an SQLite result code to an engine rc and says what failed:
 * "store: WHAT: sqlite message".  SQLITE_NOMEM -> TNY_ENOMEM; a fault of
 * the storage (full, read-only, I/O, cannot open, corrupt, permission)
 * -> TNY_ESTORE, which also keeps its reason for hub_store_write_fault;
 * anything else (busy, constraint, misuse) -> TNY_ESTATE. */
int hs_sqlite_error(struct hub_store *s, int src, const char *what,
                    struct tny_diag *d);

/* A statement for sql (one statement): a cached one not in use when
 * there is one (reset, no bindings), else a newly compiled one, cached
 * while there is room.  Give it back with hs_finalize. */
TNY_MUST_USE int hs_prepare(struct hub_store *s, const char *sql,
                            sqlite3_stmt **st, struct tny_diag *d);
/* Gives back a statement of hs_prepare (NULL: nothing): a cached one is
 * reset and its bindings cleared, any other finalized. */
void hs_finalize(struct hub_store *s, sqlite3_stmt *st);
/* Runs one parameterless statement through the cache (BEGIN, COMMIT,
 * SAVEPOINT ...).  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hs_run(struct hub_store *s, const char *sql,
                        struct tny_diag *d);
/* Steps a statement that returns no row (SQLITE_DONE expected). */
TNY_MUST_USE int hs_done(struct hub_store *s, sqlite3_stmt *st,
                         struct tny_diag *d);
/* Steps; *row is true when a row is ready, false at the end. */
TNY_MUST_USE int hs_row(struct hub_store *s, sqlite3_stmt *st, bool *row,
                        struct tny_diag *d);
/* Room for one more element in a growable array of count elements of
 * size bytes, *cap allocated: items itself while count < *cap, else the
 * array reallocated to twice the capacity (first_cap at first) with *cap
 * raised.  NULL when out of memory (items and *cap unchanged, still
 * valid). */
void *hs_grow(void *items, int32_t count, int32_t *cap, size_t size,
              int32_t first_cap);
/* Runs SQL without parameters or rows. */
TNY_MUST_USE int hs_exec(struct hub_store *s, const char *sql,
                         struct tny_diag *d);

/* BEGIN IMMEDIATE (the write lock now, so nothing fails half-way for
 * BUSY); refuses a read-only store.  Inside a batch: a savepoint. */
TNY_MUST_USE int hs_begin(struct hub_store *s, struct tny_diag *d);
/* rc == 0: COMMIT (a failed commit rolls back and returns its error);
 * else ROLLBACK.  Inside a batch: RELEASE / ROLLBACK TO the savepoint.
 * Returns the final rc. */
TNY_MUST_USE int hs_finish(struct hub_store *s, int rc, struct tny_diag *d);
/* A read snapshot (BEGIN; ... COMMIT). */
TNY_MUST_USE int hs_begin_read(struct hub_store *s, struct tny_diag *d);
void hs_end_read(struct hub_store *s);

/* Appends the log row (time now); detail is consumed (NULL = {}). */
TNY_MUST_USE int hs_log(struct hub_store *s, const char *actor,
                        const char *event_id, const char *kind, json_t *detail,
                        struct tny_diag *d);

TNY_MUST_USE int hs_check_id(const char *what, const char *id,
                             struct tny_diag *d);
TNY_MUST_USE int hs_check_actor(const char *actor, struct tny_diag *d);
/* Wall-clock milliseconds since the epoch (CLOCK_REALTIME): the time
 * stamped on rows (created_ms, the log's time_ms), never used for a wait. */
int64_t hs_now_ms(void);
/* Compact JSON text of v (malloc'd), NULL on allocation failure. */
char *hs_dump(const json_t *v);

/* Column text copied (NULL column -> NULL; *oom set on allocation
 * failure). */
char *hs_col_strdup(sqlite3_stmt *st, int col, bool *oom);
/* Column text copied into a fixed buffer (cut). */
void hs_col_copy(sqlite3_stmt *st, int col, char *dst, size_t cap);

TNY_MUST_USE int hs_event_row(struct hub_store *s, const char *event_id,
                              int64_t *row, struct tny_diag *d);
TNY_MUST_USE int hs_round_row(struct hub_store *s, int64_t ev_row,
                              const char *event_id, int32_t number,
                              int64_t *row, enum hub_round_status *status,
                              struct tny_diag *d);
/* A table (or the bye, number 0 is not addressable) of a round. */
TNY_MUST_USE int hs_table_row(struct hub_store *s, int64_t round_row,
                              const char *event_id, int32_t round,
                              int32_t number, int64_t *row, struct tny_diag *d);
TNY_MUST_USE int hs_player_row(struct hub_store *s, int64_t ev_row,
                               const char *event_id, const char *player_id,
                               int64_t *row, struct tny_diag *d);

const char *hs_round_status_name(enum hub_round_status st);
TNY_MUST_USE int hs_round_status_from(const char *name,
                                      enum hub_round_status *out);

/* ---- store_load.c -------------------------------------------------------- */

/* A result to project in place of a table's counted one (a candidate). */
struct hs_override {
    int64_t table_id;
    const json_t *result; /* NULL: the table has no result */
};

/* Builds the engine event of ev_row from the tables (inside the caller's
 * transaction or snapshot).  with_draft includes a draft round as the
 * in-progress last round.  validate runs tny_event_validate.  ov (may be
 * NULL) replaces one table's result.  *out is initialised here and
 * released on error. */
TNY_MUST_USE int hs_project(struct hub_store *s, int64_t ev_row,
                            bool with_draft, bool validate,
                            const struct hs_override *ov, struct tny_event *out,
                            struct tny_diag *d);
/* hs_project with validation, the event thrown away: the check on open,
 * on event create and where a caller gives no model (other
 * writes are checked by the caller on its model: issue 17 item 1). */
TNY_MUST_USE int hs_validate_event(struct hub_store *s, int64_t ev_row,
                                   bool with_draft, struct tny_diag *d);

/* The draft round as a plan over ev (inside the caller's transaction).
 * Errors: TNY_ENOTFOUND (no draft, or a seated player not in ev). */
struct tny_round_plan;
TNY_MUST_USE int hs_read_draft(struct hub_store *s, int64_t ev_row,
                               const char *event_id, const struct tny_event *ev,
                               struct tny_round_plan *out, struct tny_diag *d);
/* CM-5: round `round` (draft or published) as a plan, as hs_read_draft
 * reads the draft. */
TNY_MUST_USE int hs_read_round_plan(struct hub_store *s, int64_t ev_row,
                                    const char *event_id, int32_t round,
                                    const struct tny_event *ev,
                                    struct tny_round_plan *out,
                                    struct tny_diag *diag);

/* ---- store_event.c ------------------------------------------------------- */

/* Inserts the tables and seats of a round (rows of plan over ev).  seats
 * map engine player indices to store player rows (player_rows[i]). */
struct tny_round_plan;
TNY_MUST_USE int hs_insert_tables(struct hub_store *s, int64_t round_row,
                                  const struct tny_round_plan *plan,
                                  const int64_t *player_rows, int32_t n_players,
                                  struct tny_diag *d);

#endif
