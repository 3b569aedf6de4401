/* store_code.c - the table pages' sign-in codes (issue 20): issue, revoke,
 * list.  The broker's dynamic security plugin holds the logins; these
 * rows are what the hub provisions it from (docs/protocol.md "Table
 * pages").
 */
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"

int hub_store_code_add(struct hub_store *store, const char *code,
                       const char *device_id, const char *event_id,
                       int32_t table, const char *actor, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row = 0;
    bool row;
    int rc;
    if ((rc = hs_check_id("code", code, diag)) < 0 ||
        (rc = hs_check_id("device", device_id, diag)) < 0 ||
        (rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if (table < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "code: table %d: expected 1 or more", (int)table);
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0)
        goto out;
    if ((rc = hs_prepare(store,
                         "SELECT 1 FROM codes WHERE code = ? OR device_id = ?",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, device_id, -1, SQLITE_STATIC);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (row) {
        rc = tny_diag_set(diag, TNY_ECONFLICT,
                          "code: the code or device \"%s\" is already issued",
                          device_id);
        goto out;
    }
    hs_finalize(store, st);
    st = NULL;
    if ((rc = hs_prepare(store,
                         "INSERT INTO codes (code, device_id, event_id, "
                         "table_number, issued_ms, issued_by) VALUES "
                         "(?, ?, ?, ?, ?, ?)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, device_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, ev_row);
    sqlite3_bind_int(st, 4, table);
    sqlite3_bind_int64(st, 5, hs_now_ms());
    sqlite3_bind_text(st, 6, actor, -1, SQLITE_STATIC);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(
        store, actor, event_id, "code.issue",
        json_pack("{s:s, s:i}", "device", device_id, "table", (int)table),
        diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

/* The code row of st's current row (columns as in CODE_COLUMNS). */
#define CODE_COLUMNS                                                           \
    "c.code, c.device_id, e.name, c.table_number, c.issued_ms, "               \
    "c.issued_by, c.revoked_ms FROM codes c JOIN events e ON "                 \
    "e.id = c.event_id"

static void code_read(sqlite3_stmt *st, struct hub_code *c)
{
    memset(c, 0, sizeof(*c));
    hs_col_copy(st, 0, c->code, sizeof(c->code));
    hs_col_copy(st, 1, c->device_id, sizeof(c->device_id));
    hs_col_copy(st, 2, c->event_id, sizeof(c->event_id));
    c->table = (int32_t)sqlite3_column_int(st, 3);
    c->issued_ms = sqlite3_column_int64(st, 4);
    hs_col_copy(st, 5, c->issued_by, sizeof(c->issued_by));
    c->revoked_ms = sqlite3_column_int64(st, 6);
}

int hub_store_code_revoke(struct hub_store *store, const char *code,
                          const char *actor, struct hub_code *out,
                          struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    if ((rc = hs_check_id("code", code, diag)) < 0 ||
        (rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_prepare(store, "SELECT " CODE_COLUMNS " WHERE c.code = ?", &st,
                         diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row) {
        rc = tny_diag_set(diag, TNY_ENOTFOUND, "code \"%s\": no such code",
                          code);
        goto out;
    }
    code_read(st, out);
    hs_finalize(store, st);
    st = NULL;
    if (out->revoked_ms) {
        rc = tny_diag_set(diag, TNY_ESTATE, "code \"%s\": already revoked",
                          code);
        goto out;
    }
    out->revoked_ms = hs_now_ms();
    if ((rc =
             hs_prepare(store, "UPDATE codes SET revoked_ms = ? WHERE code = ?",
                        &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, out->revoked_ms);
    sqlite3_bind_text(st, 2, code, -1, SQLITE_STATIC);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(store, actor, out->event_id, "code.revoke",
                json_pack("{s:s, s:i}", "device", out->device_id, "table",
                          (int)out->table),
                diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

int hub_store_codes_list(struct hub_store *store, const char *event_id,
                         struct hub_code **out, int32_t *n,
                         struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    struct hub_code *v = NULL;
    int32_t count = 0, cap = 0;
    bool row;
    int rc;
    *out = NULL;
    *n = 0;
    if ((rc = hs_prepare(store,
                         event_id ? "SELECT " CODE_COLUMNS
                                    " WHERE e.name = ? ORDER BY c.rowid"
                                  : "SELECT " CODE_COLUMNS " ORDER BY c.rowid",
                         &st, diag)) < 0)
        return rc;
    if (event_id)
        sqlite3_bind_text(st, 1, event_id, -1, SQLITE_STATIC);
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        struct hub_code *m = hs_grow(v, count, &cap, sizeof(*v), 16);
        if (!m) {
            rc = TNY_ENOMEM;
            goto out;
        }
        v = m;
        code_read(st, &v[count++]);
    }
    *out = v;
    *n = count;
    v = NULL;
    rc = TNY_OK;
out:
    hs_finalize(store, st);
    free(v);
    return rc;
}
