/* outbox.c - the table's durable submission queue in SQLite (outbox.h).
 *
 * Every write is one transaction with synchronous=FULL in WAL mode, so a
 * successful tbl_outbox_put is on disk when it returns.  Column pointers
 * are copied before the next step.  Does not decide about resends.
 */
#include "outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

struct tbl_outbox {
    sqlite3 *db;
    uint64_t boot;
};

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS meta ("
    " name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS outbox ("
    " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
    " key TEXT NOT NULL UNIQUE,"
    " topic TEXT NOT NULL,"
    " payload BLOB NOT NULL,"
    " stored_ms INTEGER NOT NULL,"
    " done INTEGER NOT NULL DEFAULT 0,"
    " ack_status INTEGER NOT NULL DEFAULT 0,"
    " done_ms INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(done, seq);";

/* Migrations by PRAGMA user_version: version 1 is the schema above (a
 * database from before the versioning has 0 and the same tables); version
 * 2 adds the display's key/value state (kv). */
static const char *const migrations[] = {
    /* 0 -> 1 */ "",
    /* 1 -> 2 */
    "CREATE TABLE IF NOT EXISTS kv ("
    " name TEXT PRIMARY KEY, value TEXT NOT NULL, stored_ms INTEGER NOT NULL"
    " DEFAULT 0) WITHOUT ROWID;",
};

static int db_error(struct tbl_outbox *ob, struct tny_diag *diag,
                    const char *what)
{
    return tny_diag_set(diag, TNY_ESTATE, "outbox: %s: %s", what,
                        ob && ob->db ? sqlite3_errmsg(ob->db) : "no database");
}

static int exec(struct tbl_outbox *ob, const char *sql, struct tny_diag *diag)
{
    if (sqlite3_exec(ob->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_error(ob, diag, sql);
    return TNY_OK;
}

static int migrate(struct tbl_outbox *ob, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;
    int version;
    const int n = (int)(sizeof(migrations) / sizeof(*migrations));
    char sql[64];

    if ((rc = exec(ob, "BEGIN IMMEDIATE", diag)) < 0)
        return rc;
    if (sqlite3_prepare_v2(ob->db, "PRAGMA user_version", -1, &st, NULL) !=
            SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        rc = db_error(ob, diag, "reading the schema version");
        goto out;
    }
    version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (version > n) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "outbox: schema version %d is newer than this "
                          "program's %d",
                          version, n);
        goto out;
    }
    for (; version < n; version++)
        if (migrations[version][0] &&
            (rc = exec(ob, migrations[version], diag)) < 0)
            goto out;
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", n);
    if ((rc = exec(ob, sql, diag)) < 0)
        goto out;
    rc = exec(ob, "COMMIT", diag);
out:
    sqlite3_finalize(st);
    if (rc < 0)
        (void)sqlite3_exec(ob->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

static int bump_boot(struct tbl_outbox *ob, struct tny_diag *diag)
{
    int rc;
    sqlite3_stmt *st = NULL;

    if ((rc = exec(ob, "BEGIN IMMEDIATE", diag)) < 0)
        return rc;
    if ((rc = exec(ob,
                   "INSERT INTO meta(name, value) VALUES('boot', 1) "
                   "ON CONFLICT(name) DO UPDATE SET value = value + 1",
                   diag)) < 0)
        goto out;
    if (sqlite3_prepare_v2(ob->db, "SELECT value FROM meta WHERE name='boot'",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        rc = db_error(ob, diag, "reading the boot counter");
        goto out;
    }
    ob->boot = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    /* Keep the newest done entries only (the record of what was acked). */
    char prune[256];
    snprintf(prune, sizeof(prune),
             "DELETE FROM outbox WHERE done = 1 AND seq NOT IN "
             "(SELECT seq FROM outbox WHERE done = 1 ORDER BY seq DESC "
             "LIMIT %d)",
             TBL_OUTBOX_KEEP_DONE);
    if ((rc = exec(ob, prune, diag)) < 0)
        goto out;
    rc = exec(ob, "COMMIT", diag);
out:
    sqlite3_finalize(st);
    if (rc < 0)
        (void)sqlite3_exec(ob->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int tbl_outbox_open(const char *path, struct tbl_outbox **out,
                    struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct tbl_outbox *ob = calloc(1, sizeof(*ob));

    *out = NULL;
    if (!ob)
        return tny_diag_set(diag, TNY_ENOMEM, "outbox: out of memory");
    if (sqlite3_open_v2(path, &ob->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        rc = tny_diag_set(diag, TNY_ESTATE, "outbox: cannot open \"%s\": %s",
                          path,
                          ob->db ? sqlite3_errmsg(ob->db) : "out of memory");
        goto out;
    }
    sqlite3_busy_timeout(ob->db, 5000);
    if ((rc = exec(ob, "PRAGMA journal_mode=WAL", diag)) < 0 ||
        (rc = exec(ob, "PRAGMA synchronous=FULL", diag)) < 0 ||
        (rc = exec(ob, schema_sql, diag)) < 0 || (rc = migrate(ob, diag)) < 0 ||
        (rc = bump_boot(ob, diag)) < 0)
        goto out;
    *out = ob;
    ob = NULL;
out:
    tbl_outbox_close(ob);
    return rc;
}

void tbl_outbox_close(struct tbl_outbox *ob)
{
    if (!ob)
        return;
    sqlite3_close(ob->db);
    free(ob);
}

uint64_t tbl_outbox_boot(const struct tbl_outbox *ob)
{
    return ob->boot;
}

int tbl_outbox_put(struct tbl_outbox *ob, const char *key, const char *topic,
                   const uint8_t *payload, size_t len, int64_t wall_ms,
                   struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;

    if (!tny_wire_id_valid(key))
        return tny_diag_set(diag, TNY_EINVAL, "outbox: invalid key \"%.80s\"",
                            key);
    if (!topic || !topic[0] || strlen(topic) >= TNY_WIRE_TOPIC_MAX)
        return tny_diag_set(diag, TNY_EINVAL, "outbox: invalid topic");
    if (!payload || len == 0 || len > TNY_WIRE_MAX_TABLE_MSG)
        return tny_diag_set(diag, TNY_EINVAL,
                            "outbox: payload of %zu bytes (expected "
                            "1..%zu)",
                            len, TNY_WIRE_MAX_TABLE_MSG);
    if (sqlite3_prepare_v2(ob->db,
                           "INSERT INTO outbox(key, topic, payload, stored_ms)"
                           " VALUES(?1, ?2, ?3, ?4)",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(ob, diag, "preparing the insert");
        goto out;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, topic, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 3, payload, (int)len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, wall_ms);
    switch (sqlite3_step(st)) {
    case SQLITE_DONE: break;
    case SQLITE_CONSTRAINT:
        rc = tny_diag_set(diag, TNY_ECONFLICT,
                          "outbox: key \"%s\" is already stored", key);
        break;
    default: rc = db_error(ob, diag, "storing a submission"); break;
    }
out:
    sqlite3_finalize(st);
    return rc;
}

int tbl_outbox_done(struct tbl_outbox *ob, const char *key, int ack_status,
                    int64_t wall_ms, bool *changed, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;
    struct tbl_outbox_entry e = {0};

    if (changed)
        *changed = false;
    if ((rc = tbl_outbox_get(ob, key, &e, diag)) < 0)
        goto out;
    if (e.done)
        goto out;
    if (sqlite3_prepare_v2(ob->db,
                           "UPDATE outbox SET done = 1, ack_status = ?2, "
                           "done_ms = ?3 WHERE key = ?1 AND done = 0",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(ob, diag, "preparing the update");
        goto out;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, ack_status);
    sqlite3_bind_int64(st, 3, wall_ms);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = db_error(ob, diag, "marking a submission done");
        goto out;
    }
    if (changed)
        *changed = sqlite3_changes(ob->db) > 0;
out:
    free(e.payload);
    sqlite3_finalize(st);
    return rc;
}

/* Copies the current row (seq, key, topic, payload, done, ack_status). */
static int read_row(sqlite3_stmt *st, struct tbl_outbox_entry *e,
                    struct tny_diag *diag)
{
    const void *blob = sqlite3_column_blob(st, 3);
    int len = sqlite3_column_bytes(st, 3);
    const unsigned char *key = sqlite3_column_text(st, 1);
    const unsigned char *topic = sqlite3_column_text(st, 2);

    memset(e, 0, sizeof(*e));
    e->seq = sqlite3_column_int64(st, 0);
    snprintf(e->key, sizeof(e->key), "%s", key ? (const char *)key : "");
    snprintf(e->topic, sizeof(e->topic), "%s",
             topic ? (const char *)topic : "");
    e->done = sqlite3_column_int(st, 4) != 0;
    e->ack_status = sqlite3_column_int(st, 5);
    if (len > 0) {
        e->payload = malloc((size_t)len);
        if (!e->payload)
            return tny_diag_set(diag, TNY_ENOMEM, "outbox: out of memory");
        memcpy(e->payload, blob, (size_t)len);
        e->len = (size_t)len;
    }
    return TNY_OK;
}

#define ROW_COLUMNS "seq, key, topic, payload, done, ack_status"

int tbl_outbox_get(struct tbl_outbox *ob, const char *key,
                   struct tbl_outbox_entry *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;

    memset(out, 0, sizeof(*out));
    if (sqlite3_prepare_v2(ob->db,
                           "SELECT " ROW_COLUMNS " FROM outbox WHERE key = ?1",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(ob, diag, "preparing a lookup");
        goto out;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    switch (sqlite3_step(st)) {
    case SQLITE_ROW: rc = read_row(st, out, diag); break;
    case SQLITE_DONE:
        rc = tny_diag_set(diag, TNY_ENOTFOUND, "outbox: no key \"%.80s\"", key);
        break;
    default: rc = db_error(ob, diag, "looking up a key"); break;
    }
out:
    sqlite3_finalize(st);
    return rc;
}

int tbl_outbox_latest(struct tbl_outbox *ob, struct tbl_outbox_entry *out,
                      struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;

    memset(out, 0, sizeof(*out));
    if (sqlite3_prepare_v2(ob->db,
                           "SELECT " ROW_COLUMNS
                           " FROM outbox ORDER BY seq DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(ob, diag, "preparing a lookup");
        goto out;
    }
    switch (sqlite3_step(st)) {
    case SQLITE_ROW: rc = read_row(st, out, diag); break;
    case SQLITE_DONE:
        rc = tny_diag_set(diag, TNY_ENOTFOUND, "outbox: empty");
        break;
    default: rc = db_error(ob, diag, "reading the newest entry"); break;
    }
out:
    sqlite3_finalize(st);
    return rc;
}

int tbl_outbox_pending(struct tbl_outbox *ob, struct tbl_outbox_entry **out,
                       int32_t *n, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;
    struct tbl_outbox_entry *arr = NULL;
    int32_t count = 0, cap = 0;
    int step;

    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(ob->db,
                           "SELECT " ROW_COLUMNS
                           " FROM outbox WHERE done = 0 ORDER BY seq",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(ob, diag, "preparing the pending list");
        goto out;
    }
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            int32_t ncap = cap ? cap * 2 : 8;
            struct tbl_outbox_entry *na =
                realloc(arr, (size_t)ncap * sizeof(*arr));
            if (!na) {
                rc = tny_diag_set(diag, TNY_ENOMEM, "outbox: out of memory");
                goto out;
            }
            arr = na;
            cap = ncap;
        }
        if ((rc = read_row(st, &arr[count], diag)) < 0)
            goto out;
        count++;
    }
    if (step != SQLITE_DONE) {
        rc = db_error(ob, diag, "reading the pending list");
        goto out;
    }
    *out = arr;
    *n = count;
    arr = NULL;
    count = 0;
out:
    tbl_outbox_entries_free(arr, count);
    sqlite3_finalize(st);
    return rc;
}

int tbl_outbox_count(struct tbl_outbox *ob, int32_t *pending,
                     struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;

    *pending = 0;
    if (sqlite3_prepare_v2(ob->db, "SELECT count(*) FROM outbox WHERE done = 0",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        rc = db_error(ob, diag, "counting pending submissions");
        goto out;
    }
    *pending = (int32_t)sqlite3_column_int64(st, 0);
out:
    sqlite3_finalize(st);
    return rc;
}

void tbl_outbox_entries_free(struct tbl_outbox_entry *e, int32_t n)
{
    for (int32_t i = 0; e && i < n; i++)
        free(e[i].payload);
    free(e);
}

int64_t tbl_outbox_backoff_ms(struct tny_rng *rng, int attempt)
{
    int64_t hi = 5000, lo;

    for (int i = 0; i < attempt && hi < 60000; i++)
        hi *= 2;
    if (hi > 60000)
        hi = 60000;
    lo = hi / 5 < 1000 ? 1000 : hi / 5;
    return lo + (int64_t)tny_rng_below(rng, (uint64_t)(hi - lo + 1));
}

int tbl_outbox_kv_set(struct tbl_outbox *ob, const char *name,
                      const char *value, int64_t wall_ms, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;

    if (!name[0] || strlen(name) > 64 || strlen(value) > TBL_OUTBOX_KV_MAX)
        return tny_diag_set(diag, TNY_EINVAL,
                            "outbox: kv \"%.64s\": name 1..64 bytes, value "
                            "at most %d bytes",
                            name, TBL_OUTBOX_KV_MAX);
    if (sqlite3_prepare_v2(ob->db,
                           "INSERT INTO kv(name, value, stored_ms) "
                           "VALUES(?, ?, ?) ON CONFLICT(name) DO UPDATE SET "
                           "value = excluded.value, "
                           "stored_ms = excluded.stored_ms",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(ob, diag, "kv set");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, wall_ms);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = db_error(ob, diag, "kv set");
    sqlite3_finalize(st);
    return rc;
}

int tbl_outbox_kv_get(struct tbl_outbox *ob, const char *name, char *buf,
                      size_t size, struct tny_diag *diag)
{
    int rc = TNY_OK;
    sqlite3_stmt *st = NULL;
    const unsigned char *v;
    int len;

    if (sqlite3_prepare_v2(ob->db, "SELECT value FROM kv WHERE name = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return db_error(ob, diag, "kv get");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    switch (sqlite3_step(st)) {
    case SQLITE_ROW:
        v = sqlite3_column_text(st, 0);
        len = sqlite3_column_bytes(st, 0);
        if (!v || (size_t)len >= size) {
            rc = tny_diag_set(diag, TNY_ERANGE,
                              "outbox: kv \"%.64s\": %d bytes do not fit", name,
                              len);
            break;
        }
        memcpy(buf, v, (size_t)len);
        buf[len] = '\0';
        break;
    case SQLITE_DONE:
        rc = tny_diag_set(diag, TNY_ENOTFOUND, "outbox: kv \"%.64s\" not set",
                          name);
        break;
    default: rc = db_error(ob, diag, "kv get"); break;
    }
    sqlite3_finalize(st);
    return rc;
}
