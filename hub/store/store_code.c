/* store_code.c - the table pages' sign-in codes (issue 20): issue, revoke,
 * list, for a table or for a player; and the players' requests from their
 * phones (check-in, "drop me").  The broker's dynamic security plugin
 * holds the logins; these rows are what the hub provisions it from
 * (docs/protocol.md "Table pages").
 */
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"

/* A table code (player_id NULL, table >= 1) or a player code (table 0). */
static int code_add(struct hub_store *store, const char *code,
                    const char *device_id, const char *event_id, int32_t table,
                    const char *player_id, const char *actor,
                    struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row = 0;
    bool row;
    int rc;
    if ((rc = hs_check_id("code", code, diag)) < 0 ||
        (rc = hs_check_id("device", device_id, diag)) < 0 ||
        (rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if (!player_id && table < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "code: table %d: expected 1 or more", (int)table);
    if (player_id && (rc = hs_check_id("player", player_id, diag)) < 0)
        return rc;
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0)
        goto out;
    if (player_id) {
        int64_t prow;
        if ((rc = hs_player_row(store, ev_row, event_id, player_id, &prow,
                                diag)) < 0)
            goto out;
    }
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
                         "table_number, issued_ms, issued_by, player_id) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, device_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, ev_row);
    sqlite3_bind_int(st, 4, table);
    sqlite3_bind_int64(st, 5, hs_now_ms());
    sqlite3_bind_text(st, 6, actor, -1, SQLITE_STATIC);
    if (player_id)
        sqlite3_bind_text(st, 7, player_id, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 7);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(
        store, actor, event_id, "code.issue",
        player_id
            ? json_pack("{s:s, s:s}", "device", device_id, "player", player_id)
            : json_pack("{s:s, s:i}", "device", device_id, "table", (int)table),
        diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

int hub_store_code_add(struct hub_store *store, const char *code,
                       const char *device_id, const char *event_id,
                       int32_t table, const char *actor, struct tny_diag *diag)
{
    return code_add(store, code, device_id, event_id, table, NULL, actor, diag);
}

int hub_store_player_code_add(struct hub_store *store, const char *code,
                              const char *login_id, const char *event_id,
                              const char *player_id, const char *actor,
                              struct tny_diag *diag)
{
    return code_add(store, code, login_id, event_id, 0, player_id, actor, diag);
}

/* The code row of st's current row (columns as in CODE_COLUMNS). */
#define CODE_COLUMNS                                                           \
    "c.code, c.device_id, e.name, c.table_number, c.issued_ms, "               \
    "c.issued_by, c.revoked_ms, c.player_id FROM codes c JOIN events e ON "    \
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
    hs_col_copy(st, 7, c->player_id, sizeof(c->player_id));
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

/* ---- the players' requests from their phones ------------------------------
 */

static const char *const request_kinds[] = {"checkin", "drop"};

int hub_store_player_request_put(struct hub_store *store, const char *event_id,
                                 const char *player_id,
                                 enum hub_player_request_kind kind,
                                 const char *key, int32_t after_round,
                                 const char *actor, bool *stored,
                                 struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row = 0, prow = 0;
    bool row;
    int rc;
    *stored = false;
    if ((rc = hs_check_id("player", player_id, diag)) < 0 ||
        (rc = hs_check_id("request key", key, diag)) < 0 ||
        (rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if ((int)kind < 0 || (int)kind > 1 || after_round < 0)
        return tny_diag_set(diag, TNY_EINVAL, "player request: bad kind %d",
                            (int)kind);
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_player_row(store, ev_row, event_id, player_id, &prow, diag)) <
            0)
        goto out;
    /* One request of each kind per player: a second one (another key, a
     * phone that asked again) changes nothing; a drop confirmed before
     * (then a rejoin) may be asked again. */
    if ((rc = hs_prepare(store,
                         "SELECT 1 FROM player_requests WHERE event_id = ? "
                         "AND player_id = ? AND kind = ? AND (kind = "
                         "'checkin' OR confirmed_ms = 0)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_text(st, 2, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, request_kinds[kind], -1, SQLITE_STATIC);
    if ((rc = hs_row(store, st, &row, diag)) < 0 || row)
        goto out;
    hs_finalize(store, st);
    st = NULL;
    if ((rc = hs_prepare(store,
                         "INSERT OR REPLACE INTO player_requests (event_id, "
                         "player_id, kind, idem_key, after_round, "
                         "received_ms) VALUES (?, ?, ?, ?, ?, ?)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_text(st, 2, player_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, request_kinds[kind], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, key, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, after_round);
    sqlite3_bind_int64(st, 6, hs_now_ms());
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    *stored = true;
    rc = hs_log(store, actor, event_id,
                kind == HUB_PLAYER_CHECK_IN ? "player.checkin"
                                            : "player.drop_request",
                json_pack("{s:s, s:i}", "player", player_id, "after_round",
                          (int)after_round),
                diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

int hub_store_player_requests_list(struct hub_store *store,
                                   const char *event_id,
                                   struct hub_player_request **out, int32_t *n,
                                   struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    struct hub_player_request *v = NULL;
    int32_t count = 0, cap = 0;
    bool row;
    int rc;
    *out = NULL;
    *n = 0;
    if ((rc = hs_prepare(store,
                         "SELECT r.player_id, r.kind, r.idem_key, "
                         "r.after_round, r.received_ms, r.confirmed_ms FROM "
                         "player_requests r JOIN events e ON e.id = "
                         "r.event_id WHERE e.name = ? ORDER BY r.received_ms, "
                         "r.rowid",
                         &st, diag)) < 0)
        return rc;
    sqlite3_bind_text(st, 1, event_id, -1, SQLITE_STATIC);
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        struct hub_player_request *m = hs_grow(v, count, &cap, sizeof(*v), 16);
        if (!m) {
            rc = TNY_ENOMEM;
            goto out;
        }
        v = m;
        struct hub_player_request *r = &v[count++];
        memset(r, 0, sizeof(*r));
        hs_col_copy(st, 0, r->player_id, sizeof(r->player_id));
        const unsigned char *k = sqlite3_column_text(st, 1);
        r->kind = k && strcmp((const char *)k, "drop") == 0
                      ? HUB_PLAYER_DROP
                      : HUB_PLAYER_CHECK_IN;
        hs_col_copy(st, 2, r->key, sizeof(r->key));
        r->after_round = (int32_t)sqlite3_column_int(st, 3);
        r->received_ms = sqlite3_column_int64(st, 4);
        r->confirmed_ms = sqlite3_column_int64(st, 5);
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

int hub_store_drop_request_confirm(struct hub_store *store,
                                   const char *event_id, const char *player_id,
                                   const char *actor, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row = 0;
    int rc;
    if ((rc = hs_check_id("player", player_id, diag)) < 0 ||
        (rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0)
        goto out;
    if ((rc = hs_prepare(store,
                         "UPDATE player_requests SET confirmed_ms = ? WHERE "
                         "event_id = ? AND player_id = ? AND kind = 'drop' "
                         "AND confirmed_ms = 0",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, hs_now_ms());
    sqlite3_bind_int64(st, 2, ev_row);
    sqlite3_bind_text(st, 3, player_id, -1, SQLITE_STATIC);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(store, actor, event_id, "player.drop_request_confirmed",
                json_pack("{s:s}", "player", player_id), diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}
