/* store_result.c - results: table submissions as the service decided
 * them, organiser entries and corrections, conflicts, TX-7 penalties.
 *
 * A table's submission arrives decided (hub/service/results.c decides
 * CM-6 once, on the engine's result): the store writes the rows the
 * decision implies in one transaction with its log row, and answers with
 * fields (an enum outcome and a reason code), never text to be parsed.  A
 * key is looked up once, by the service, before it decides
 * (hub_store_get_submission); the submissions table's primary key makes a
 * second record of a key an error, never a second answer.  The result row
 * holds the result as the event file writes it (the engine's result
 * printed by the JSON adapter: JSON is the row's format on disk).
 *
 * Organiser entries (hub_store_enter_result) still come as event-file
 * result objects from the console and are checked here against the
 * store's projection of the event.
 *
 * Not here: sending the answer.  Invariants: result rows are never
 * rewritten or deleted (triggers); a correction is a new row and the old
 * one points to it through superseded_by; at most one counted row per
 * table (partial unique index).
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "tny/event_table.h"
#include "tny/json_io.h"

static const char *const kind_names[] = {"accepted", "duplicate", "conflict",
                                         "rejected"};

/* The table's counted result row (0 = none). */
static int counted_result(struct hub_store *s, int64_t table_row, int64_t *id,
                          struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    *id = 0;
    if ((rc = hs_prepare(s,
                         "SELECT id FROM results WHERE table_id = ? AND "
                         "status = 'valid' AND superseded_by IS NULL",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, table_row);
    if ((rc = hs_row(s, st, &row, d)) < 0 || !row)
        goto out;
    *id = sqlite3_column_int64(st, 0);
out:
    hs_finalize(s, st);
    return rc;
}

/* Inserts a result row.  A counted row first marks the rows it replaces
 * (the counted one and open pending ones) as superseded by its id-to-be;
 * the foreign key is deferred to the commit for that. */
static int insert_result(struct hub_store *s, int64_t table_row,
                         const char *text, bool from_device, const char *actor,
                         bool confirmed, const char *status, int64_t *id,
                         struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    if ((rc = hs_prepare(s, "SELECT coalesce(max(id), 0) + 1 FROM results", &st,
                         d)) < 0 ||
        (rc = hs_row(s, st, &row, d)) < 0)
        goto out;
    *id = sqlite3_column_int64(st, 0);
    hs_finalize(s, st);
    st = NULL;
    if (strcmp(status, "valid") == 0) {
        if ((rc = hs_prepare(s,
                             "UPDATE results SET superseded_by = ? WHERE "
                             "table_id = ? AND status IN ('valid', "
                             "'pending') AND superseded_by IS NULL",
                             &st, d)) < 0)
            goto out;
        sqlite3_bind_int64(st, 1, *id);
        sqlite3_bind_int64(st, 2, table_row);
        if ((rc = hs_done(s, st, d)) < 0)
            goto out;
        hs_finalize(s, st);
        st = NULL;
    }
    if ((rc = hs_prepare(s,
                         "INSERT INTO results (id, table_id, result_json, "
                         "source, actor, confirmed, status, created_ms) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, *id);
    sqlite3_bind_int64(st, 2, table_row);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, from_device ? "device" : "organiser", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(st, 5, actor, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, confirmed);
    sqlite3_bind_text(st, 7, status, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, hs_now_ms());
    rc = hs_done(s, st, d);
out:
    hs_finalize(s, st);
    return rc;
}

struct target {
    int64_t ev_row, round_row, table_row;
    int32_t round, table;
    enum hub_round_status status;
};

/* Finds event, round and table; TNY_ENOTFOUND etc. with the message. */
static int find_target(struct hub_store *s, const char *event_id, int32_t round,
                       int32_t table, struct target *t, struct tny_diag *d)
{
    int rc;
    t->round = round;
    t->table = table;
    if ((rc = hs_event_row(s, event_id, &t->ev_row, d)) < 0 ||
        (rc = hs_round_row(s, t->ev_row, event_id, round, &t->round_row,
                           &t->status, d)) < 0 ||
        (rc = hs_table_row(s, t->round_row, event_id, round, table,
                           &t->table_row, d)) < 0)
        return rc;
    return TNY_OK;
}

static const char *const reason_names[] = {
    "none",          "invalid_result", "wrong_round", "wrong_table",
    "wrong_players", "unknown_event",  "unconfirmed", "already_confirmed",
};

const char *hub_submit_reason_name(enum hub_submit_reason r)
{
    return (unsigned)r < sizeof(reason_names) / sizeof(reason_names[0])
               ? reason_names[r]
               : "none";
}

/* Columns outcome, counted, reason_code, reason, event_name, round,
 * table_number, result_id from col on. */
static void outcome_from_row(sqlite3_stmt *st, int col,
                             struct hub_submit_outcome *out)
{
    const char *kind = (const char *)sqlite3_column_text(st, col);
    const char *code = (const char *)sqlite3_column_text(st, col + 2);
    out->kind = HUB_SUBMIT_DUPLICATE;
    out->first = HUB_SUBMIT_REJECTED;
    for (int i = 0; i < 4; i++)
        if (kind && strcmp(kind, kind_names[i]) == 0)
            out->first = (enum hub_submit_kind)i;
    out->counted = sqlite3_column_int(st, col + 1) != 0;
    out->reason = HUB_REASON_NONE;
    for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]); i++)
        if (code && strcmp(code, reason_names[i]) == 0)
            out->reason = (enum hub_submit_reason)i;
    hs_col_copy(st, col + 3, out->reason_text, sizeof(out->reason_text));
    hs_col_copy(st, col + 4, out->event_id, sizeof(out->event_id));
    out->round = sqlite3_column_int(st, col + 5);
    out->table = sqlite3_column_int(st, col + 6);
    out->result_id = sqlite3_column_int64(st, col + 7);
}

/* The submission's result as the row's text (malloc'd; "" without one). */
static int request_text(const struct hub_submission *q, char **out)
{
    *out = NULL;
    if (!q->ev || !q->result || !q->result->has_result) {
        *out = strdup("");
        return *out ? TNY_OK : TNY_ENOMEM;
    }
    json_t *j = tny_result_to_json(q->ev, q->result);
    *out = j ? hs_dump(j) : NULL;
    json_decref(j);
    return *out ? TNY_OK : TNY_ENOMEM;
}

/* One decided submission inside the caller's transaction
 * (hub_store_record_submissions wraps it in a savepoint). */
static int record_one(struct hub_store *store, const struct hub_submission *q,
                      struct hub_submit_outcome *out, struct tny_diag *diag)
{
    const char *event_id = q->event_id ? q->event_id : "";
    struct target t = {0};
    sqlite3_stmt *st = NULL;
    char *request = NULL;
    char actor[16 + HUB_STORE_ID_MAX];
    int64_t result_id = 0;
    bool counted = false;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = hs_check_id("device", q->device_id, diag)) < 0 ||
        (rc = hs_check_id("idempotency key", q->idem_key, diag)) < 0)
        return rc;
    if (q->kind == HUB_SUBMIT_DUPLICATE)
        return tny_diag_set(diag, TNY_EINVAL,
                            "store: a duplicate is answered, not recorded");
    if ((rc = request_text(q, &request)) < 0)
        return rc;
    snprintf(actor, sizeof(actor), "device:%s", q->device_id);
    if (q->kind != HUB_SUBMIT_REJECTED) {
        if ((rc = find_target(store, event_id, q->round, q->table, &t, diag)) <
            0)
            goto out;
        if (q->kind == HUB_SUBMIT_ACCEPTED && q->repeats_counted) {
            rc = counted_result(store, t.table_row, &result_id, diag);
            if (rc == 0 && !result_id)
                rc = tny_diag_set(diag, TNY_ESTATE,
                                  "store: table %d has no counted result to "
                                  "repeat",
                                  (int)q->table);
            if (rc < 0)
                goto out;
            counted = true;
        } else {
            const char *status = q->kind == HUB_SUBMIT_CONFLICT ? "conflict"
                                 : q->confirmed                 ? "valid"
                                                                : "pending";
            if ((rc = insert_result(store, t.table_row, request, true, actor,
                                    q->confirmed, status, &result_id, diag)) <
                0)
                goto out;
            counted = q->kind == HUB_SUBMIT_ACCEPTED && q->confirmed;
        }
    }
    const char *reason_text = q->reason_text ? q->reason_text : "";
    if ((rc = hs_prepare(store,
                         "INSERT INTO submissions (device_id, idem_key, "
                         "event_name, round, table_number, request, "
                         "confirmed, outcome, result_id, reason, "
                         "reason_code, counted, created_ms) VALUES (?, ?, ?, "
                         "?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, q->device_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, q->idem_key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, event_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, q->round);
    sqlite3_bind_int(st, 5, q->table);
    sqlite3_bind_text(st, 6, request, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, q->confirmed);
    sqlite3_bind_text(st, 8, kind_names[q->kind], -1, SQLITE_STATIC);
    if (result_id)
        sqlite3_bind_int64(st, 9, result_id);
    sqlite3_bind_text(st, 10, reason_text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, hub_submit_reason_name(q->reason), -1,
                      SQLITE_STATIC);
    sqlite3_bind_int(st, 12, counted);
    sqlite3_bind_int64(st, 13, hs_now_ms());
    if ((rc = hs_done(store, st, diag)) < 0) {
        if (sqlite3_extended_errcode(store->db) == SQLITE_CONSTRAINT_PRIMARYKEY)
            rc = tny_diag_set(diag, TNY_ECONFLICT,
                              "device \"%s\": submission \"%s\" is "
                              "recorded already",
                              q->device_id, q->idem_key);
        goto out;
    }
    char log_kind[32];
    snprintf(log_kind, sizeof(log_kind), "submit.%s", kind_names[q->kind]);
    rc = hs_log(store, actor,
                q->reason == HUB_REASON_UNKNOWN_EVENT ? NULL : event_id,
                log_kind,
                json_pack("{s:s, s:s, s:i, s:i, s:b, s:I, s:s, s:s}", "device",
                          q->device_id, "key", q->idem_key, "round",
                          (int)q->round, "table", (int)q->table, "confirmed",
                          q->confirmed, "result_id", (json_int_t)result_id,
                          "reason", reason_text, "result", request),
                diag);
    if (rc == 0) {
        out->kind = q->kind;
        out->first = q->kind;
        out->counted = counted;
        out->reason = q->reason;
        snprintf(out->reason_text, sizeof(out->reason_text), "%s", reason_text);
        snprintf(out->event_id, sizeof(out->event_id), "%s", event_id);
        out->round = q->round;
        out->table = q->table;
        out->result_id = result_id;
    }
out:
    hs_finalize(store, st);
    free(request);
    return rc;
}

/* Runs one item under a savepoint: an item that fails is rolled back alone
 * (its outcome carries the error), unless SQLite abandoned the whole
 * transaction (then the batch fails: *fatal). */
static int record_item(struct hub_store *store, const struct hub_submission *q,
                       struct hub_submit_outcome *out, bool *fatal,
                       struct tny_diag *diag)
{
    struct tny_diag inner = {{0}};
    int rc;
    *fatal = false;
    if ((rc = hs_run(store, "SAVEPOINT submit_item", diag)) < 0) {
        *fatal = true;
        return rc;
    }
    rc = record_one(store, q, out, &inner);
    if (rc == 0) {
        if ((rc = hs_run(store, "RELEASE submit_item", diag)) < 0)
            *fatal = true;
        return rc;
    }
    memset(out, 0, sizeof(*out));
    out->rc = rc;
    snprintf(out->reason_text, sizeof(out->reason_text), "%s",
             inner.msg[0] ? inner.msg : tny_strerror(rc));
    if (sqlite3_get_autocommit(store->db) ||
        hs_run(store, "ROLLBACK TO submit_item", NULL) < 0 ||
        hs_run(store, "RELEASE submit_item", NULL) < 0) {
        *fatal = true;
        tny_diag_set(diag, rc, "%s", out->reason_text);
    }
    return rc;
}

int hub_store_record_submissions(struct hub_store *store, int32_t n,
                                 const struct hub_submission *subs,
                                 struct hub_submit_outcome *outs,
                                 struct tny_diag *diag)
{
    bool fatal = false;
    int rc;
    for (int32_t i = 0; i < n; i++)
        memset(&outs[i], 0, sizeof(outs[i]));
    if (n <= 0)
        return TNY_OK;
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n && !fatal; i++) {
        int irc = record_item(store, &subs[i], &outs[i], &fatal, diag);
        if (fatal)
            rc = irc < 0 ? irc : TNY_ESTATE;
    }
    rc = hs_finish(store, rc, diag);
    if (rc < 0)
        for (int32_t i = 0; i < n; i++) {
            memset(&outs[i], 0, sizeof(outs[i]));
            outs[i].rc = rc;
        }
    return rc;
}

int hub_store_get_submission(struct hub_store *store, const char *device_id,
                             const char *idem_key,
                             const struct hub_submission *probe,
                             struct hub_submit_outcome *out,
                             struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    char *request = NULL;
    bool row, reused = false;
    int rc;
    memset(out, 0, sizeof(*out));
    if ((rc = hs_check_id("device", device_id, diag)) < 0 ||
        (rc = hs_check_id("idempotency key", idem_key, diag)) < 0)
        return rc;
    if (probe && (rc = request_text(probe, &request)) < 0)
        return rc;
    if ((rc = hs_prepare(store,
                         "SELECT event_name = ?3 AND round = ?4 AND "
                         "table_number = ?5 AND request = ?6 AND confirmed = "
                         "?7, outcome, counted, reason_code, reason, "
                         "event_name, round, table_number, result_id FROM "
                         "submissions WHERE device_id = ?1 AND idem_key = ?2",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, device_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, idem_key, -1, SQLITE_STATIC);
    if (probe) {
        sqlite3_bind_text(st, 3, probe->event_id ? probe->event_id : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_int(st, 4, probe->round);
        sqlite3_bind_int(st, 5, probe->table);
        sqlite3_bind_text(st, 6, request, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 7, probe->confirmed);
    }
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row) {
        rc = tny_diag_set(diag, TNY_ENOTFOUND,
                          "device \"%s\": no submission \"%s\"", device_id,
                          idem_key);
        goto out;
    }
    outcome_from_row(st, 1, out);
    reused = probe && sqlite3_column_int(st, 0) == 0;
out:
    hs_finalize(store, st);
    if (rc == 0 && reused) {
        /* A table reusing a key for other data: say so in the log. */
        char actor[16 + HUB_STORE_ID_MAX];
        snprintf(actor, sizeof(actor), "device:%s", device_id);
        if ((rc = hs_begin(store, diag)) == 0) {
            rc = hs_log(store, actor, NULL, "duplicate.key_reused",
                        json_pack("{s:s, s:s, s:i, s:i}", "device", device_id,
                                  "key", idem_key, "round", (int)probe->round,
                                  "table", (int)probe->table),
                        diag);
            rc = hs_finish(store, rc, diag);
        }
    }
    if (rc < 0)
        memset(out, 0, sizeof(*out));
    free(request);
    return rc;
}

/* Enters the row text as the table's new counted result, resolving its
 * open conflicts (one transaction with the log row). */
static int enter_text(struct hub_store *store, const char *event_id,
                      int32_t round, int32_t table, const char *text,
                      int64_t row_id, const char *actor, int64_t *result_id,
                      struct tny_diag *diag)
{
    struct target t = {0};
    sqlite3_stmt *st = NULL;
    char *kept = NULL;
    int64_t id = 0, counted_id = 0;
    int rc;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = find_target(store, event_id, round, table, &t, diag)) < 0)
        goto out;
    if (t.status == HUB_ROUND_DRAFT) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "event \"%s\": round %d is not published", event_id,
                          (int)round);
        goto out;
    }
    if (!text) { /* the kept row's text */
        bool row, oom = false;
        if ((rc = hs_prepare(store,
                             "SELECT result_json FROM results WHERE id = ? "
                             "AND table_id = ?",
                             &st, diag)) < 0)
            goto out;
        sqlite3_bind_int64(st, 1, row_id);
        sqlite3_bind_int64(st, 2, t.table_row);
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row) {
            rc = tny_diag_set(diag, TNY_ENOTFOUND,
                              "result %lld is not a result of table %d",
                              (long long)row_id, (int)table);
            goto out;
        }
        kept = hs_col_strdup(st, 0, &oom);
        hs_finalize(store, st);
        st = NULL;
        if (!kept) {
            rc = TNY_ENOMEM;
            goto out;
        }
        text = kept;
    }
    json_t *parsed = json_loads(text, 0, NULL);
    if (!parsed) {
        rc = tny_diag_set(diag, TNY_ESTATE, "store: result text unreadable");
        goto out;
    }
    if ((rc = counted_result(store, t.table_row, &counted_id, diag)) < 0 ||
        (rc = insert_result(store, t.table_row, text, false, actor, true,
                            "valid", &id, diag)) < 0 ||
        (rc = hs_prepare(store,
                         "UPDATE results SET resolved = 1 WHERE table_id = ? "
                         "AND status = 'conflict' AND resolved = 0",
                         &st, diag)) < 0) {
        json_decref(parsed);
        goto out;
    }
    sqlite3_bind_int64(st, 1, t.table_row);
    if ((rc = hs_done(store, st, diag)) < 0) {
        json_decref(parsed);
        goto out;
    }
    int resolved = sqlite3_changes(store->db);
    /* Standings move with a correction; published pairings never do. */
    rc = hs_log(store, actor, event_id,
                counted_id ? "result.correct" : "result.enter",
                json_pack("{s:i, s:i, s:I, s:I, s:i, s:o}", "round", (int)round,
                          "table", (int)table, "result_id", (json_int_t)id,
                          "supersedes", (json_int_t)counted_id,
                          "conflicts_resolved", resolved, "result", parsed),
                diag);
out:
    hs_finalize(store, st);
    rc = hs_finish(store, rc, diag);
    if (rc == 0 && result_id)
        *result_id = id;
    free(kept);
    return rc;
}

int hub_store_counted_id(struct hub_store *store, const char *event_id,
                         int32_t round, int32_t table, int64_t *id,
                         struct tny_diag *diag)
{
    struct target t = {0};
    int rc;
    *id = 0;
    if ((rc = find_target(store, event_id, round, table, &t, diag)) < 0)
        return rc;
    return counted_result(store, t.table_row, id, diag);
}

int hub_store_enter_result(struct hub_store *store, const char *event_id,
                           int32_t round, int32_t table,
                           const struct tny_event *ev,
                           const struct tny_table *result, const char *actor,
                           int64_t *result_id, struct tny_diag *diag)
{
    json_t *j = tny_result_to_json(ev, result);
    char *text = j ? hs_dump(j) : NULL;
    json_decref(j);
    if (!text)
        return TNY_ENOMEM;
    int rc = enter_text(store, event_id, round, table, text, 0, actor,
                        result_id, diag);
    free(text);
    return rc;
}

int hub_store_table_facts(struct hub_store *store, const char *event_id,
                          int32_t round, int32_t table,
                          const struct tny_event *ev,
                          const struct tny_table *tb,
                          struct hub_table_facts *out, struct tny_diag *diag)
{
    struct target t = {0};
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    memset(out, 0, sizeof(*out));
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = find_target(store, event_id, round, table, &t, diag)) < 0 ||
        (rc = hs_prepare(store,
                         "SELECT count(*) FROM results WHERE table_id = ? AND "
                         "status = 'conflict' AND resolved = 0",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, t.table_row);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    out->open_conflicts = row ? sqlite3_column_int(st, 0) : 0;
    hs_finalize(store, st);
    st = NULL;
    if ((rc = hs_prepare(store,
                         "SELECT p.pid, SUM(pe.units) FROM penalties pe JOIN "
                         "players p ON p.id = pe.player_id WHERE pe.table_id "
                         "= ? GROUP BY p.pid",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, t.table_row);
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        const char *pid = (const char *)sqlite3_column_text(st, 0);
        for (int32_t k = 0; pid && k < tb->n_seats; k++)
            if (strcmp(ev->players[tb->seats[k]].id, pid) == 0)
                out->penalty[k] += sqlite3_column_int64(st, 1);
    }
out:
    hs_finalize(store, st);
    hs_end_read(store);
    return rc;
}

int hub_store_enter_row(struct hub_store *store, const char *event_id,
                        int32_t round, int32_t table, int64_t row_id,
                        const char *actor, int64_t *result_id,
                        struct tny_diag *diag)
{
    return enter_text(store, event_id, round, table, NULL, row_id, actor,
                      result_id, diag);
}

int hub_store_dismiss_conflict(struct hub_store *store, const char *event_id,
                               int64_t result_id, const char *actor,
                               struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row;
    bool row;
    int rc;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_prepare(store,
                         "SELECT r.resolved FROM results r JOIN tables t ON "
                         "t.id = r.table_id JOIN rounds u ON u.id = "
                         "t.round_id WHERE r.id = ? AND u.event_id = ? AND "
                         "r.status = 'conflict'",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, result_id);
    sqlite3_bind_int64(st, 2, ev_row);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row) {
        rc = tny_diag_set(diag, TNY_ENOTFOUND,
                          "event \"%s\": no conflicting result %lld", event_id,
                          (long long)result_id);
        goto out;
    }
    if (sqlite3_column_int(st, 0)) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "event \"%s\": conflict %lld is already resolved",
                          event_id, (long long)result_id);
        goto out;
    }
    hs_finalize(store, st);
    st = NULL;
    if ((rc = hs_prepare(store, "UPDATE results SET resolved = 1 WHERE id = ?",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, result_id);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(store, actor, event_id, "result.dismiss_conflict",
                json_pack("{s:I}", "result_id", (json_int_t)result_id), diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

void hub_result_rows_free(struct hub_result_row *rows, int32_t n)
{
    for (int32_t i = 0; rows && i < n; i++)
        free(rows[i].result_json);
    free(rows);
}

/* The rows of st (columns as hub_store_list_results selects them) into
 * *rows / *n. */
static int read_result_rows(struct hub_store *store, sqlite3_stmt *st,
                            struct hub_result_row **rows, int32_t *n,
                            struct tny_diag *diag)
{
    struct hub_result_row *a = NULL;
    int32_t count = 0, cap = 0;
    bool row, oom = false;
    int rc;
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        struct hub_result_row *grown = hs_grow(a, count, &cap, sizeof(*a), 8);
        if (!grown) {
            rc = TNY_ENOMEM;
            goto out;
        }
        a = grown;
        struct hub_result_row *r = &a[count++];
        memset(r, 0, sizeof(*r));
        r->id = sqlite3_column_int64(st, 0);
        r->result_json = hs_col_strdup(st, 1, &oom);
        hs_col_copy(st, 2, r->actor, sizeof(r->actor));
        r->from_device =
            strcmp((const char *)sqlite3_column_text(st, 3), "device") == 0;
        r->confirmed = sqlite3_column_int(st, 4) != 0;
        const char *status = (const char *)sqlite3_column_text(st, 5);
        r->status = strcmp(status, "valid") == 0     ? HUB_RESULT_VALID
                    : strcmp(status, "pending") == 0 ? HUB_RESULT_PENDING
                                                     : HUB_RESULT_CONFLICT;
        r->superseded_by = sqlite3_column_int64(st, 6);
        r->resolved = sqlite3_column_int(st, 7) != 0;
        r->created_ms = sqlite3_column_int64(st, 8);
        r->table = sqlite3_column_int(st, 9);
        if (oom) {
            rc = TNY_ENOMEM;
            goto out;
        }
    }
    *rows = a;
    *n = count;
    a = NULL;
out:
    hub_result_rows_free(a, count);
    return rc;
}

/* The rows sql selects (columns as read_result_rows reads them) for one
 * table (?1 its row, ?2 its number) or, table 0, for the round (?1). */
static int list_rows(struct hub_store *store, const char *event_id,
                     int32_t round, int32_t table, const char *sql,
                     struct hub_result_row **rows, int32_t *n,
                     struct tny_diag *diag)
{
    struct target t = {0};
    sqlite3_stmt *st = NULL;
    int rc;
    *rows = NULL;
    *n = 0;
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if (table != 0)
        rc = find_target(store, event_id, round, table, &t, diag);
    else if ((rc = hs_event_row(store, event_id, &t.ev_row, diag)) == 0)
        rc = hs_round_row(store, t.ev_row, event_id, round, &t.round_row, NULL,
                          diag);
    if (rc < 0)
        goto out;
    if ((rc = hs_prepare(store, sql, &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, table == 0 ? t.round_row : t.table_row);
    if (table != 0)
        sqlite3_bind_int(st, 2, table);
    rc = read_result_rows(store, st, rows, n, diag);
out:
    hs_finalize(store, st);
    hs_end_read(store);
    return rc;
}

int hub_store_list_results(struct hub_store *store, const char *event_id,
                           int32_t round, int32_t table,
                           struct hub_result_row **rows, int32_t *n,
                           struct tny_diag *diag)
{
    return list_rows(
        store, event_id, round, table,
        table == 0 ? "SELECT r.id, r.result_json, r.actor, r.source, "
                     "r.confirmed, r.status, r.superseded_by, r.resolved, "
                     "r.created_ms, t.number FROM results r JOIN tables t ON "
                     "t.id = r.table_id WHERE t.round_id = ?1 ORDER BY "
                     "t.number, r.id"
                   : "SELECT id, result_json, actor, source, confirmed, "
                     "status, superseded_by, resolved, created_ms, ?2 FROM "
                     "results WHERE table_id = ?1 ORDER BY id",
        rows, n, diag);
}

int hub_store_list_organiser_results(struct hub_store *store,
                                     const char *event_id, int32_t round,
                                     struct hub_result_row **rows, int32_t *n,
                                     struct tny_diag *diag)
{
    /* The round's tables in number order, each joined to its counted row
     * (results_counted: at most one); only the organiser's are kept. */
    return list_rows(store, event_id, round, 0,
                     "SELECT r.id, r.result_json, r.actor, r.source, "
                     "r.confirmed, r.status, r.superseded_by, r.resolved, "
                     "r.created_ms, t.number FROM tables t JOIN results r ON "
                     "r.table_id = t.id AND r.status = 'valid' AND "
                     "r.superseded_by IS NULL WHERE t.round_id = ?1 AND "
                     "r.source = 'organiser' ORDER BY t.number",
                     rows, n, diag);
}

int hub_store_add_penalty(struct hub_store *store, const char *event_id,
                          int32_t round, int32_t table, const char *player_id,
                          int64_t units, const char *reason, const char *actor,
                          struct tny_diag *diag)
{
    struct target t = {0};
    sqlite3_stmt *st = NULL;
    int64_t prow = 0;
    int rc;
    /* Issue 18 item 4: TX-7's rules (the range, a result to penalise, the
     * player at the table, the game taking penalties) are the service's
     * (console.c check_penalty); what is left here is the caller's
     * contract, checked before anything begins. */
    if (units <= 0 || !reason || !*reason)
        return tny_diag_set(diag, TNY_EINVAL,
                            "store: penalty: positive units and a reason "
                            "expected");
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = find_target(store, event_id, round, table, &t, diag)) < 0 ||
        (player_id && (rc = hs_player_row(store, t.ev_row, event_id, player_id,
                                          &prow, diag)) < 0))
        goto out;
    if ((rc = hs_prepare(store,
                         "INSERT INTO penalties (table_id, player_id, units, "
                         "reason, actor, created_ms) SELECT ?1, player_id, "
                         "?2, ?3, ?4, ?5 FROM seats WHERE table_id = ?1 AND "
                         "(?6 IS NULL OR player_id = ?6)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, t.table_row);
    sqlite3_bind_int64(st, 2, units);
    sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, actor, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, hs_now_ms());
    if (player_id)
        sqlite3_bind_int64(st, 6, prow);
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    if (sqlite3_changes(store->db) == 0) {
        rc = tny_diag_set(diag, TNY_ENOTFOUND,
                          "event \"%s\": player \"%s\" is not at round %d "
                          "table %d",
                          event_id, player_id ? player_id : "", (int)round,
                          (int)table);
        goto out;
    }
    rc = hs_log(store, actor, event_id, "result.penalty",
                json_pack("{s:i, s:i, s:s?, s:I, s:s}", "round", (int)round,
                          "table", (int)table, "player", player_id, "units",
                          (json_int_t)units, "reason", reason),
                diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}
