/* store_log.c - reading the append-only log back (hub_store_read_log).
 *
 * Rows are appended by hs_log (store_sql.c) inside the write that they
 * record; this file only reads them, in seq order, for the console's
 * audit view and `tourney live log`.  Not here: appending.
 */
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

void hub_log_entries_free(struct hub_log_entry *entries, int32_t n)
{
    for (int32_t i = 0; entries && i < n; i++)
        free(entries[i].detail);
    free(entries);
}

int hub_store_read_log(struct hub_store *store, const char *event_id,
                       int64_t after_seq, int32_t max,
                       struct hub_log_entry **out, int32_t *n,
                       struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    struct hub_log_entry *rows = NULL;
    int32_t count = 0;
    bool row, oom = false;
    int rc;
    *out = NULL;
    *n = 0;
    if (max <= 0)
        return TNY_OK;
    if ((rc = hs_prepare(store,
                         "SELECT seq, time_ms, actor, event_name, kind, "
                         "detail FROM log WHERE seq > ?1 AND (?2 IS NULL OR "
                         "event_name = ?2) ORDER BY seq LIMIT ?3",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, after_seq);
    if (event_id)
        sqlite3_bind_text(st, 2, event_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, max);
    rows = calloc((size_t)max < 4096 ? (size_t)max : 4096, sizeof(*rows));
    int32_t cap = max < 4096 ? max : 4096;
    if (!rows) {
        rc = TNY_ENOMEM;
        goto out;
    }
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        if (count == cap) {
            struct hub_log_entry *grown =
                realloc(rows, sizeof(*rows) * (size_t)cap * 2);
            if (!grown) {
                rc = TNY_ENOMEM;
                goto out;
            }
            rows = grown;
            cap *= 2;
        }
        struct hub_log_entry *e = &rows[count++];
        memset(e, 0, sizeof(*e));
        e->seq = sqlite3_column_int64(st, 0);
        e->time_ms = sqlite3_column_int64(st, 1);
        hs_col_copy(st, 2, e->actor, sizeof(e->actor));
        hs_col_copy(st, 3, e->event, sizeof(e->event));
        hs_col_copy(st, 4, e->kind, sizeof(e->kind));
        e->detail = hs_col_strdup(st, 5, &oom);
        if (oom) {
            rc = TNY_ENOMEM;
            goto out;
        }
    }
    *out = rows;
    *n = count;
    rows = NULL;
out:
    hs_finalize(store, st);
    hub_log_entries_free(rows, count);
    return rc;
}
