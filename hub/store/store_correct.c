/* store_correct.c - the organiser's corrections: unpublish a round that
 * has not started, reopen a closed round, rename a player or fix a club,
 * resolve a table's conflicts by keeping its counted result, and the
 * reason that goes with every log row of a command (the audit log).
 *
 * Each write is one transaction with its log row, like every store write
 * (store.h).  CM-5: a published round is never changed silently: reopening
 * a round refuses while a later round is published, and names it.
 *
 * Not here: what the hub republishes after a correction (the service).
 */
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

int hub_store_set_reason(struct hub_store *store, const char *reason)
{
    char *copy = NULL;
    if (reason && reason[0] && !(copy = strdup(reason)))
        return TNY_ENOMEM;
    free(store->reason);
    store->reason = copy;
    return TNY_OK;
}

/* Rounds of the event numbered above `round` that are not drafts: their
 * numbers and statuses as "round 3 (published), round 4 (started)" in
 * text (cap bytes); *n receives how many.  *draft receives the draft's
 * number (0 = none). */
static int later_rounds(struct hub_store *s, int64_t ev_row, int32_t round,
                        char *text, size_t cap, int32_t *n, int32_t *draft,
                        struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    size_t used = 0;
    *n = 0;
    *draft = 0;
    text[0] = '\0';
    if ((rc = hs_prepare(s,
                         "SELECT number, status FROM rounds WHERE event_id = "
                         "? AND number > ? ORDER BY number",
                         &st, d)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_int(st, 2, round);
    while ((rc = hs_row(s, st, &row, d)) == 0 && row) {
        int32_t number = sqlite3_column_int(st, 0);
        const char *status = (const char *)sqlite3_column_text(st, 1);
        if (status && strcmp(status, "draft") == 0) {
            *draft = number;
            continue;
        }
        if (used < cap) {
            int k =
                snprintf(text + used, cap - used, "%sround %d (%s)",
                         *n ? ", " : "", (int)number, status ? status : "?");
            used += k > 0 ? (size_t)k : 0;
        }
        (*n)++;
    }
    hs_finalize(s, st);
    return rc;
}

/* Runs one statement binding (ev_row or round_row) as ?1. */
static int run_with_row(struct hub_store *s, const char *sql, int64_t row,
                        struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    int rc = hs_prepare(s, sql, &st, d);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, row);
    rc = hs_done(s, st, d);
    hs_finalize(s, st);
    return rc;
}

int hub_store_round_entry(struct hub_store *store, const char *event_id,
                          int32_t round, int32_t *table, char *actor,
                          size_t cap, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row, round_row;
    bool row;
    int rc;
    *table = 0;
    if (cap)
        actor[0] = '\0';
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_round_row(store, ev_row, event_id, round, &round_row, NULL,
                           diag)) < 0 ||
        (rc = hs_prepare(store,
                         "SELECT t.number, r.actor FROM results r JOIN tables "
                         "t ON t.id = r.table_id WHERE t.round_id = ?1 UNION "
                         "ALL SELECT t.number, p.actor FROM penalties p JOIN "
                         "tables t ON t.id = p.table_id WHERE t.round_id = ?1 "
                         "LIMIT 1",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, round_row);
    if ((rc = hs_row(store, st, &row, diag)) < 0 || !row)
        goto out;
    *table = sqlite3_column_int(st, 0);
    if (cap)
        snprintf(actor, cap, "%s", (const char *)sqlite3_column_text(st, 1));
out:
    hs_finalize(store, st);
    hs_end_read(store);
    return rc;
}

int hub_store_unpublish_round(struct hub_store *store, const char *event_id,
                              int32_t round, const char *actor,
                              struct tny_diag *diag)
{
    int64_t ev_row, round_row;
    int rc;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    /* Which round may be unpublished (published, its clock never
     * started, no later round, no result or penalty) is the service's
     * rule (issue 18); the store writes. */
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_round_row(store, ev_row, event_id, round, &round_row, NULL,
                           diag)) < 0)
        goto out;
    if ((rc = run_with_row(store, "DELETE FROM clocks WHERE round_id = ?1",
                           round_row, diag)) < 0 ||
        (rc = run_with_row(store,
                           "UPDATE tables SET extension_ms = 0 WHERE round_id "
                           "= ?1",
                           round_row, diag)) < 0 ||
        (rc = run_with_row(store,
                           "UPDATE rounds SET status = 'draft' WHERE id = ?1",
                           round_row, diag)) < 0 ||
        (rc = run_with_row(store,
                           "UPDATE events SET status = 'setup' WHERE id = ?1 "
                           "AND NOT EXISTS (SELECT 1 FROM rounds WHERE "
                           "event_id = ?1 AND status <> 'draft')",
                           ev_row, diag)) < 0)
        goto out;
    /* Issue 17 item 1: no read back; the event's rounds are the same
     * (the round is the draft now), the service's model checked them. */
    rc = hs_log(store, actor, event_id, "round.unpublish",
                json_pack("{s:i}", "round", (int)round), diag);
out:
    return hs_finish(store, rc, diag);
}

int hub_store_reopen_round(struct hub_store *store, const char *event_id,
                           int32_t round, const char *actor,
                           int32_t *discarded_draft, struct tny_diag *diag)
{
    int64_t ev_row, round_row;
    char later[256];
    int32_t n_later, draft = 0;
    int rc;
    if (discarded_draft)
        *discarded_draft = 0;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    /* Which round may be reopened (closed, no later round but the draft:
     * CM-5) is the service's rule (issue 18); the store writes. */
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_round_row(store, ev_row, event_id, round, &round_row, NULL,
                           diag)) < 0)
        goto out;
    if ((rc = later_rounds(store, ev_row, round, later, sizeof later, &n_later,
                           &draft, diag)) < 0)
        goto out;
    /* The draft of the next round was paired from the standings being
     * corrected: it goes (the reply says so), to be paired again. */
    if (draft > 0 &&
        (rc = run_with_row(store,
                           "DELETE FROM rounds WHERE event_id = ?1 AND status "
                           "= 'draft'",
                           ev_row, diag)) < 0)
        goto out;
    if ((rc = run_with_row(store,
                           "UPDATE rounds SET status = 'started' WHERE id = "
                           "?1",
                           round_row, diag)) < 0 ||
        (rc = run_with_row(store,
                           "UPDATE events SET status = 'running' WHERE id = "
                           "?1 AND status = 'finished'",
                           ev_row, diag)) < 0)
        goto out;
    /* Issue 17 item 1: no read back; the published rounds are the same
     * (a status changed, the draft gone), the service's model checked
     * them. */
    rc = hs_log(store, actor, event_id, "round.reopen",
                json_pack("{s:i, s:i}", "round", (int)round, "discarded_draft",
                          (int)draft),
                diag);
out:
    rc = hs_finish(store, rc, diag);
    if (rc == 0 && discarded_draft)
        *discarded_draft = draft;
    return rc;
}

int hub_store_edit_player(struct hub_store *store, const char *event_id,
                          const char *player_id, const char *name,
                          const char *club, const char *country,
                          const char *actor, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row, prow;
    json_t *detail = NULL;
    bool row;
    int rc;
    if ((rc = hs_check_actor(actor, diag)) < 0)
        return rc;
    if (name && !name[0])
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": a name cannot be empty", player_id);
    if (!name && !club && !country)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": nothing to change", player_id);
    if ((rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_player_row(store, ev_row, event_id, player_id, &prow, diag)) <
            0 ||
        (rc = hs_prepare(store,
                         "SELECT name, club, country FROM players WHERE id = ?",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, prow);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    detail = json_pack("{s:s}", "player", player_id);
    if (!detail) {
        rc = TNY_ENOMEM;
        goto out;
    }
    /* The log keeps what was there and what replaced it. */
    static const char *const keys[] = {"name", "club", "country"};
    const char *now[] = {name, club, country};
    for (int i = 0; i < 3; i++) {
        if (!now[i])
            continue;
        const char *was = (const char *)sqlite3_column_text(st, i);
        json_object_set_new(detail, keys[i],
                            json_pack("{s:s?, s:s?}", "from", was, "to",
                                      now[i][0] ? now[i] : NULL));
    }
    hs_finalize(store, st);
    st = NULL;
    if ((rc = hs_prepare(store,
                         "UPDATE players SET name = coalesce(?2, name), club = "
                         "CASE WHEN ?3 IS NULL THEN club ELSE nullif(?3, '') "
                         "END, country = CASE WHEN ?4 IS NULL THEN country "
                         "ELSE nullif(?4, '') END WHERE id = ?1",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, prow);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    if (club)
        sqlite3_bind_text(st, 3, club, -1, SQLITE_STATIC);
    if (country)
        sqlite3_bind_text(st, 4, country, -1, SQLITE_STATIC);
    /* Issue 17 item 1: the event with the new texts was checked on the
     * service's model before this transaction; no read back. */
    if ((rc = hs_done(store, st, diag)) < 0)
        goto out;
    rc = hs_log(store, actor, event_id, "player.edit", detail, diag);
    detail = NULL;
out:
    hs_finalize(store, st);
    json_decref(detail);
    return hs_finish(store, rc, diag);
}

int hub_store_keep_counted(struct hub_store *store, const char *event_id,
                           int32_t round, int32_t table, int64_t counted_id,
                           const char *actor, int32_t *n_resolved,
                           struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row, round_row, table_row;
    enum hub_round_status status;
    bool row;
    int rc;
    if (n_resolved)
        *n_resolved = 0;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_round_row(store, ev_row, event_id, round, &round_row, &status,
                           diag)) < 0 ||
        (rc = hs_table_row(store, round_row, event_id, round, table, &table_row,
                           diag)) < 0 ||
        (rc = hs_prepare(store,
                         "SELECT 1 FROM results WHERE id = ? AND table_id = ? "
                         "AND status = 'valid' AND superseded_by IS NULL",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, counted_id);
    sqlite3_bind_int64(st, 2, table_row);
    if ((rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row) {
        rc = tny_diag_set(diag, TNY_ENOTFOUND,
                          "store: event \"%s\": result %lld is not the "
                          "counted result of table %d, round %d",
                          event_id, (long long)counted_id, (int)table,
                          (int)round);
        goto out;
    }
    hs_finalize(store, st);
    st = NULL;
    if ((rc = run_with_row(store,
                           "UPDATE results SET resolved = 1 WHERE table_id = "
                           "?1 AND status = 'conflict' AND resolved = 0",
                           table_row, diag)) < 0)
        goto out;
    int resolved = sqlite3_changes(store->db);
    if (resolved == 0) {
        /* Issue 18 item 4: the service refuses first (CM-6, on the
         * round's rows); this is the store's integrity assertion. */
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "store: event \"%s\": table %d of round %d: no "
                          "open conflict",
                          event_id, (int)table, (int)round);
        goto out;
    }
    rc = hs_log(store, actor, event_id, "conflict.keep",
                json_pack("{s:i, s:i, s:I, s:i}", "round", (int)round, "table",
                          (int)table, "kept", (json_int_t)counted_id,
                          "conflicts_resolved", resolved),
                diag);
    if (rc == 0 && n_resolved)
        *n_resolved = resolved;
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}

/* One audit entry of the export from a log row, or NULL when the row is
 * not one the export keeps. */
static json_t *audit_entry(const struct hub_log_entry *row, bool *is_dq)
{
    static const char *const kept[] = {
        "player.disqualify", "result.enter", "result.correct",
        "conflict.keep",     "round.reopen", "player.edit",
        "player.withdraw",   "draft.swap",   "draft.move"}; /* CM-4/5 */
    bool keep = false;
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
        keep |= strcmp(row->kind, kept[i]) == 0;
    if (!keep || strncmp(row->actor, "organiser:", 10) != 0)
        return NULL;
    json_t *detail = json_loads(row->detail, 0, NULL);
    json_t *o = json_pack("{s:s, s:s, s:I}", "what", row->kind, "by",
                          row->actor, "time_ms", (json_int_t)row->time_ms);
    if (!o || !json_is_object(detail)) {
        json_decref(o);
        json_decref(detail);
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach (detail, key, v)
        if (strcmp(key, "result_id") != 0 && strcmp(key, "supersedes") != 0)
            /* "value": line-based readers of exports look for "result" */
            json_object_set(o, strcmp(key, "result") ? key : "value", v);
    json_decref(detail);
    *is_dq = strcmp(row->kind, "player.disqualify") == 0;
    return o;
}

/* A round paired again (a new draft): the edits of its earlier drafts
 * are not part of what the tables got (CM-4: the round is as drawn until
 * edited again), so they leave the audit's list. */
static void forget_draft_edits(json_t *changes, const char *detail)
{
    json_t *d = json_loads(detail ? detail : "{}", 0, NULL);
    json_int_t round = json_integer_value(json_object_get(d, "round"));
    json_decref(d);
    for (size_t i = json_array_size(changes); i-- > 0;) {
        const json_t *c = json_array_get(changes, i);
        const char *what = json_string_value(json_object_get(c, "what"));
        if (what && strncmp(what, "draft.", 6) == 0 &&
            json_integer_value(json_object_get(c, "round")) == round)
            json_array_remove(changes, i);
    }
}

int hub_store_append_audit(struct hub_store *s, const char *event_id,
                           char **text, struct tny_diag *d)
{
    json_t *dq = json_array(), *changes = json_array();
    struct hub_log_entry *rows = NULL;
    int64_t after = 0;
    int32_t n = 0;
    char *extra = NULL;
    int rc = TNY_OK;
    if (!dq || !changes) {
        rc = TNY_ENOMEM;
        goto out;
    }
    do {
        if ((rc = hub_store_read_log(s, event_id, after, 1000, &rows, &n, d)) <
            0)
            goto out;
        for (int32_t i = 0; i < n; i++) {
            bool is_dq = false;
            if (strcmp(rows[i].kind, "round.draft") == 0)
                forget_draft_edits(changes, rows[i].detail);
            json_t *e = audit_entry(&rows[i], &is_dq);
            if (e)
                json_array_append_new(is_dq ? dq : changes, e);
            after = rows[i].seq;
        }
        hub_log_entries_free(rows, n);
        rows = NULL;
    } while (n == 1000);
    if (json_array_size(dq) == 0 && json_array_size(changes) == 0)
        goto out;
    json_t *audit = json_pack("{s:O, s:O}", "disqualifications", dq,
                              "corrections", changes);
    extra =
        audit ? json_dumps(audit, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(audit);
    /* The event file ends in "}\n": the member goes before that brace, so
     * the rest of the file keeps the engine writer's bytes. */
    size_t len = strlen(*text), add = extra ? strlen(extra) : 0;
    char *end = len ? strrchr(*text, '}') : NULL;
    if (!extra || !end) {
        rc = extra ? tny_diag_set(d, TNY_ESTATE, "export: not an object")
                   : TNY_ENOMEM;
        goto out;
    }
    size_t at = (size_t)(end - *text);
    while (at > 0 && ((*text)[at - 1] == '\n' || (*text)[at - 1] == ' '))
        at--;
    char *grown = malloc(len + add + 32);
    if (!grown) {
        rc = TNY_ENOMEM;
        goto out;
    }
    snprintf(grown, len + add + 32, "%.*s,\n  \"x_audit\": %s\n}\n", (int)at,
             *text, extra);
    free(*text);
    *text = grown;
out:
    free(extra);
    json_decref(dq);
    json_decref(changes);
    return rc;
}

int hub_store_withdraw_player(struct hub_store *store, const char *event_id,
                              const char *player_id, const char *actor,
                              int32_t *discarded_draft, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row, prow;
    int32_t draft = 0;
    bool row;
    int rc;
    if (discarded_draft)
        *discarded_draft = 0;
    if ((rc = hs_check_actor(actor, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_player_row(store, ev_row, event_id, player_id, &prow, diag)) <
            0 ||
        (rc = hs_prepare(store,
                         "SELECT u.number, u.status FROM seats s JOIN rounds "
                         "u ON u.id = s.round_id WHERE s.player_id = ? "
                         "ORDER BY u.number",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, prow);
    while ((rc = hs_row(store, st, &row, diag)) == 0 && row) {
        const char *status = (const char *)sqlite3_column_text(st, 1);
        if (!status || strcmp(status, "draft") != 0) {
            /* Issue 18 item 4: CM-2 is the service's (withdraw(), on
             * its model); this is the store's integrity assertion. */
            rc = tny_diag_set(diag, TNY_ESTATE,
                              "store: player \"%s\" is seated in round %d "
                              "(%s): not withdrawn",
                              player_id, sqlite3_column_int(st, 0),
                              status ? status : "?");
            goto out;
        }
        draft = sqlite3_column_int(st, 0);
    }
    if (rc < 0)
        goto out;
    hs_finalize(store, st);
    st = NULL;
    /* The draft seats them: it goes (the service pairs again). */
    if (draft > 0 &&
        (rc = run_with_row(store,
                           "DELETE FROM rounds WHERE event_id = ?1 AND status "
                           "= 'draft'",
                           ev_row, diag)) < 0)
        goto out;
    /* Issue 17 item 1: the event without them was checked on the
     * service's model (with the draft that stays); no read back. */
    if ((rc = run_with_row(store, "DELETE FROM players WHERE id = ?1", prow,
                           diag)) < 0)
        goto out;
    rc = hs_log(store, actor, event_id, "player.withdraw",
                json_pack("{s:s, s:i}", "player", player_id, "discarded_draft",
                          (int)draft),
                diag);
out:
    hs_finalize(store, st);
    rc = hs_finish(store, rc, diag);
    if (rc == 0 && discarded_draft)
        *discarded_draft = draft;
    return rc;
}
