/* store_sql.c - the store's lowest layer: statements, transactions, the
 * log append, column copies, id checks and row lookups.
 *
 * Every other store file calls down into this one and nothing here calls
 * up: the files of hub/store form a DAG (store_sql.c at the bottom;
 * store_log.c, store_load.c above it; store_event.c, store_result.c,
 * store_correct.c above those; store.c, which opens and closes the
 * database, on top and called by none of them).  Helpers that can fail return
 * an engine rc and fill diag; only hs_begin / hs_finish (and the read snapshot
 * pair) begin or end a transaction.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Faults of the disk or the file, as opposed to the statement (a
 * constraint, a busy lock, an allocation). */
static bool is_storage_fault(int src)
{
    switch (src & 0xff) {
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_PERM: return true;
    default: return false;
    }
}

/* Keeps SQLite's reason and the system's error (an I/O error says only
 * "disk I/O error"; the errno says read-only file system, no space...). */
static void note_fault(struct hub_store *s, int src, const char *msg)
{
    int sys = s->db ? sqlite3_system_errno(s->db) : 0;
    s->fault = true;
    if (sys > 0 && (src & 0xff) != SQLITE_FULL)
        snprintf(s->fault_why, sizeof(s->fault_why), "%s (%s)", msg,
                 strerror(sys));
    else
        snprintf(s->fault_why, sizeof(s->fault_why), "%s", msg);
}

int hs_sqlite_error(struct hub_store *s, int src, const char *what,
                    struct tny_diag *d)
{
    int rc = (src & 0xff) == SQLITE_NOMEM ? TNY_ENOMEM
             : is_storage_fault(src)      ? TNY_ESTORE
                                          : TNY_ESTATE;
    const char *msg = s && s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(src);
    if (s && rc == TNY_ESTORE)
        note_fault(s, src, msg);
    return tny_diag_set(d, rc, "store: %s: %s", what, msg);
}

bool hub_store_write_fault(const struct hub_store *store, struct tny_diag *why)
{
    if (store->fault && why)
        tny_diag_set(why, TNY_ESTATE, "%s", store->fault_why);
    return store->fault;
}

int hub_store_probe_write(struct hub_store *store, struct tny_diag *diag)
{
    int rc = hs_begin(store, diag);
    if (rc == 0) {
        rc = hs_log(store, "hub", NULL, "store.writable", NULL, diag);
    }
    return hs_finish(store, rc, diag);
}

int hs_prepare(struct hub_store *s, const char *sql, sqlite3_stmt **st,
               struct tny_diag *d)
{
    struct hs_cached_stmt *c = NULL;
    /* The same literal is the same pointer: try that first, then the
     * text (SQL built in a buffer). */
    for (int32_t i = 0; i < s->n_stmts && !c; i++)
        if (s->stmts[i].sql == sql && !s->stmts[i].busy &&
            strcmp(sqlite3_sql(s->stmts[i].st), sql) == 0)
            c = &s->stmts[i];
    for (int32_t i = 0; i < s->n_stmts && !c; i++)
        if (!s->stmts[i].busy && strcmp(sqlite3_sql(s->stmts[i].st), sql) == 0)
            c = &s->stmts[i];
    if (c) {
        c->busy = true;
        *st = c->st;
        return TNY_OK;
    }
    bool keep = s->n_stmts < HS_STMT_CACHE;
    int src = sqlite3_prepare_v3(
        s->db, sql, -1, keep ? SQLITE_PREPARE_PERSISTENT : 0, st, NULL);
    if (src != SQLITE_OK) {
        *st = NULL;
        return hs_sqlite_error(s, src, "prepare", d);
    }
    if (keep && *st)
        s->stmts[s->n_stmts++] =
            (struct hs_cached_stmt){.sql = sql, .st = *st, .busy = true};
    return TNY_OK;
}

void hs_finalize(struct hub_store *s, sqlite3_stmt *st)
{
    if (!st)
        return;
    for (int32_t i = 0; s && i < s->n_stmts; i++)
        if (s->stmts[i].st == st) {
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            s->stmts[i].busy = false;
            return;
        }
    sqlite3_finalize(st);
}

int hs_run(struct hub_store *s, const char *sql, struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    int rc = hs_prepare(s, sql, &st, d);
    if (rc == 0) {
        int src = sqlite3_step(st);
        if (src != SQLITE_DONE && src != SQLITE_ROW)
            rc = hs_sqlite_error(s, src, "exec", d);
    }
    hs_finalize(s, st);
    return rc;
}

int hs_done(struct hub_store *s, sqlite3_stmt *st, struct tny_diag *d)
{
    int src = sqlite3_step(st);
    if (src == SQLITE_DONE || src == SQLITE_ROW)
        return TNY_OK;
    return hs_sqlite_error(s, src, "write", d);
}

void *hs_grow(void *items, int32_t count, int32_t *cap, size_t size,
              int32_t first_cap)
{
    if (count < *cap)
        return items;
    int32_t ncap = *cap > 0 ? *cap * 2 : first_cap;
    void *grown = realloc(items, size * (size_t)ncap);
    if (grown)
        *cap = ncap;
    return grown;
}

int hs_row(struct hub_store *s, sqlite3_stmt *st, bool *row, struct tny_diag *d)
{
    int src = sqlite3_step(st);
    *row = src == SQLITE_ROW;
    if (src == SQLITE_ROW || src == SQLITE_DONE)
        return TNY_OK;
    return hs_sqlite_error(s, src, "read", d);
}

int hs_exec(struct hub_store *s, const char *sql, struct tny_diag *d)
{
    int src = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    if (src != SQLITE_OK)
        return hs_sqlite_error(s, src, "exec", d);
    return TNY_OK;
}

/* BEGIN IMMEDIATE of a write or of a batch; refuses a read-only store. */
static int begin_immediate(struct hub_store *s, struct tny_diag *d)
{
    if (s->read_only)
        return tny_diag_set(d, TNY_ESTATE,
                            "store: the database is open read-only");
    s->changes_at_begin = sqlite3_total_changes64(s->db);
    return hs_run(s, "BEGIN IMMEDIATE", d);
}

static int begin_write(struct hub_store *s, struct tny_diag *d)
{
    if (s->read_only)
        return tny_diag_set(d, TNY_ESTATE,
                            "store: the database is open read-only");
    if (s->batch) {
        /* Inside a batch: a savepoint of the batch's transaction.  When
         * SQLite abandoned that transaction (full disk, I/O error) no
         * write may run on its own in autocommit mode: the batch fails. */
        if (sqlite3_get_autocommit(s->db) || s->batch_lost) {
            s->batch_lost = true;
            return tny_diag_set(d, TNY_ESTORE,
                                "store: the command's transaction was "
                                "rolled back by the database");
        }
        return hs_run(s, "SAVEPOINT hs_write", d);
    }
    return begin_immediate(s, d);
}

int hs_begin(struct hub_store *s, struct tny_diag *d)
{
    int rc = begin_write(s, d);
    if (rc == 0)
        s->stats.writes_begun++;
    return rc;
}

void hub_store_stats(const struct hub_store *store, struct hub_store_stats *out)
{
    *out = store->stats;
}

/* hs_finish proper; counted by hs_finish from its answer. */
static int finish_write(struct hub_store *s, int rc, struct tny_diag *d)
{
    if (s->batch) {
        /* The write becomes part of the batch (committed or rolled back
         * with it by hub_store_batch_end); a failed one is undone alone. */
        if (sqlite3_get_autocommit(s->db)) {
            s->batch_lost = true;
            return rc < 0 ? rc
                          : tny_diag_set(d, TNY_ESTORE,
                                         "store: the command's transaction "
                                         "was rolled back by the database");
        }
        if (rc == 0 && (rc = hs_run(s, "RELEASE hs_write", d)) == 0)
            return TNY_OK;
        if (hs_run(s, "ROLLBACK TO hs_write", NULL) < 0 ||
            hs_run(s, "RELEASE hs_write", NULL) < 0)
            s->batch_lost = true;
        return rc;
    }
    if (rc == 0) {
        sqlite3_stmt *st = NULL;
        int src = SQLITE_OK;
        if ((rc = hs_prepare(s, "COMMIT", &st, d)) == 0)
            src = sqlite3_step(st);
        hs_finalize(s, st);
        if (rc == 0 && src == SQLITE_DONE) {
            /* The storage takes writes, if this transaction wrote: a
             * console command's batch that only read commits on a full
             * or read-only disk too, and proves nothing. */
            if (sqlite3_total_changes64(s->db) > s->changes_at_begin)
                s->fault = false;
            return TNY_OK;
        }
        if (rc == 0)
            rc = hs_sqlite_error(s, src, "commit", d);
    }
    /* SQLite may already have rolled back (full disk, I/O error). */
    if (!sqlite3_get_autocommit(s->db))
        (void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* rc, counted as an end that committed (rc 0) or rolled back. */
static int ended(int rc, int64_t *committed, int64_t *rolled_back)
{
    ++*(rc == 0 ? committed : rolled_back);
    return rc;
}

int hs_finish(struct hub_store *s, int rc, struct tny_diag *d)
{
    return ended(finish_write(s, rc, d), &s->stats.writes_committed,
                 &s->stats.writes_rolled_back);
}

int hs_begin_read(struct hub_store *s, struct tny_diag *d)
{
    if (s->batch) /* the batch's transaction is the snapshot (its writes) */
        return TNY_OK;
    return hs_exec(s, "BEGIN", d);
}

void hs_end_read(struct hub_store *s)
{
    if (!s->batch && !sqlite3_get_autocommit(s->db))
        (void)sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
}

int64_t hs_now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

char *hs_dump(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

int hs_log(struct hub_store *s, const char *actor, const char *event_id,
           const char *kind, json_t *detail, struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    int rc;
    if (!detail)
        detail = json_object();
    /* The organiser's reason for what this row records (the audit log). */
    if (detail && s->reason && json_is_object(detail) &&
        !json_object_get(detail, "reason"))
        json_object_set_new(detail, "reason", json_string(s->reason));
    if (!detail || !(text = hs_dump(detail))) {
        rc = TNY_ENOMEM;
        goto out;
    }
    if ((rc = hs_prepare(s,
                         "INSERT INTO log (time_ms, actor, event_name, kind, "
                         "detail) VALUES (?, ?, ?, ?, ?)",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, hs_now_ms());
    sqlite3_bind_text(st, 2, actor, -1, SQLITE_STATIC);
    if (event_id)
        sqlite3_bind_text(st, 3, event_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
    rc = hs_done(s, st, d);
out:
    hs_finalize(s, st);
    free(text);
    json_decref(detail);
    return rc;
}

int hs_check_id(const char *what, const char *id, struct tny_diag *d)
{
    size_t n = id ? strlen(id) : 0;
    if (n < 1 || n > HUB_STORE_ID_MAX)
        return tny_diag_set(d, TNY_EINVAL,
                            "%s: expected 1..%d characters of A-Z a-z 0-9 "
                            "_ . -",
                            what, HUB_STORE_ID_MAX);
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return tny_diag_set(d, TNY_EINVAL,
                                "%s: \"%.64s\" is not an id (1..%d "
                                "characters of A-Z a-z 0-9 _ . -)",
                                what, id, HUB_STORE_ID_MAX);
    }
    return TNY_OK;
}

int hs_check_actor(const char *actor, struct tny_diag *d)
{
    if (!actor)
        return tny_diag_set(d, TNY_EINVAL, "actor: missing");
    if (strcmp(actor, "hub") == 0)
        return TNY_OK;
    if (strncmp(actor, "organiser:", 10) == 0)
        return hs_check_id("actor", actor + 10, d);
    if (strncmp(actor, "device:", 7) == 0)
        return hs_check_id("actor", actor + 7, d);
    /* Issue 20: a player's own request from their phone (a check-in, a
     * "drop me"), signed in with their code. */
    if (strncmp(actor, "player:", 7) == 0)
        return hs_check_id("actor", actor + 7, d);
    return tny_diag_set(d, TNY_EINVAL,
                        "actor: \"%.64s\": expected \"hub\", "
                        "\"organiser:LOGIN\", \"device:ID\" or \"player:ID\"",
                        actor);
}

char *hs_col_strdup(sqlite3_stmt *st, int col, bool *oom)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t)
        return NULL;
    char *copy = strdup((const char *)t);
    if (!copy)
        *oom = true;
    return copy;
}

void hs_col_copy(sqlite3_stmt *st, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static const char *const round_status_names[] = {"draft", "published",
                                                 "started", "closed"};

const char *hs_round_status_name(enum hub_round_status st)
{
    return round_status_names[st];
}

int hs_round_status_from(const char *name, enum hub_round_status *out)
{
    for (int i = 0; i < 4; i++)
        if (name && strcmp(name, round_status_names[i]) == 0) {
            *out = (enum hub_round_status)i;
            return TNY_OK;
        }
    return TNY_EINVAL;
}

int hs_event_row(struct hub_store *s, const char *event_id, int64_t *row,
                 struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool found;
    int rc;
    if ((rc = hs_check_id("event", event_id, d)) < 0 ||
        (rc = hs_prepare(s, "SELECT id FROM events WHERE name = ?", &st, d)) <
            0)
        goto out;
    sqlite3_bind_text(st, 1, event_id, -1, SQLITE_STATIC);
    if ((rc = hs_row(s, st, &found, d)) < 0)
        goto out;
    if (!found) {
        rc =
            tny_diag_set(d, TNY_ENOTFOUND, "event \"%s\": not found", event_id);
        goto out;
    }
    *row = sqlite3_column_int64(st, 0);
out:
    hs_finalize(s, st);
    return rc;
}

int hs_round_row(struct hub_store *s, int64_t ev_row, const char *event_id,
                 int32_t number, int64_t *row, enum hub_round_status *status,
                 struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool found;
    int rc;
    if ((rc = hs_prepare(s,
                         "SELECT id, status FROM rounds WHERE event_id = ? "
                         "AND number = ?",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_int(st, 2, number);
    if ((rc = hs_row(s, st, &found, d)) < 0)
        goto out;
    if (!found) {
        rc = tny_diag_set(d, TNY_ENOTFOUND, "event \"%s\": no round %d",
                          event_id, (int)number);
        goto out;
    }
    *row = sqlite3_column_int64(st, 0);
    if (status && hs_round_status_from((const char *)sqlite3_column_text(st, 1),
                                       status) < 0)
        rc = tny_diag_set(d, TNY_ESTATE, "store: round %d: bad status",
                          (int)number);
out:
    hs_finalize(s, st);
    return rc;
}

int hs_table_row(struct hub_store *s, int64_t round_row, const char *event_id,
                 int32_t round, int32_t number, int64_t *row,
                 struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool found;
    int rc;
    if ((rc = hs_prepare(s,
                         "SELECT id FROM tables WHERE round_id = ? AND "
                         "number = ? AND is_bye = 0",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, round_row);
    sqlite3_bind_int(st, 2, number);
    if ((rc = hs_row(s, st, &found, d)) < 0)
        goto out;
    if (!found) {
        rc = tny_diag_set(d, TNY_ENOTFOUND,
                          "event \"%s\": round %d has no table %d", event_id,
                          (int)round, (int)number);
        goto out;
    }
    *row = sqlite3_column_int64(st, 0);
out:
    hs_finalize(s, st);
    return rc;
}

int hs_player_row(struct hub_store *s, int64_t ev_row, const char *event_id,
                  const char *player_id, int64_t *row, struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool found;
    int rc;
    if ((rc = hs_check_id("player", player_id, d)) < 0 ||
        (rc = hs_prepare(s,
                         "SELECT id FROM players WHERE event_id = ? AND "
                         "pid = ?",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_text(st, 2, player_id, -1, SQLITE_STATIC);
    if ((rc = hs_row(s, st, &found, d)) < 0)
        goto out;
    if (!found) {
        rc = tny_diag_set(d, TNY_ENOTFOUND, "event \"%s\": no player \"%s\"",
                          event_id, player_id);
        goto out;
    }
    *row = sqlite3_column_int64(st, 0);
out:
    hs_finalize(s, st);
    return rc;
}

int hub_store_batch_begin(struct hub_store *store, struct tny_diag *diag)
{
    int rc;
    if (store->batch)
        return tny_diag_set(diag, TNY_ESTATE, "store: a batch is open");
    if ((rc = begin_immediate(store, diag)) < 0)
        return rc;
    store->stats.batches_begun++;
    store->batch = true;
    store->batch_lost = false;
    return TNY_OK;
}

int hub_store_batch_end(struct hub_store *store, bool commit,
                        struct tny_diag *diag)
{
    if (!store->batch)
        return tny_diag_set(diag, TNY_ESTATE, "store: no batch is open");
    bool lost = store->batch_lost;
    store->batch = false;
    store->batch_lost = false;
    if (!commit) {
        if (!sqlite3_get_autocommit(store->db))
            (void)sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
        store->stats.batches_rolled_back++;
        return TNY_OK;
    }
    int rc = lost ? tny_diag_set(diag, TNY_ESTATE,
                                 "store: the command's transaction was "
                                 "rolled back by the database")
                  : TNY_OK;
    return ended(finish_write(store, rc, diag), &store->stats.batches_committed,
                 &store->stats.batches_rolled_back);
}
