/* store_load.c - the engine's view of a stored event: the projection.
 *
 * Builds the event file's JSON tree straight from the rows (header, players
 * in entry order, drops, disqualifications, rounds with seats and each
 * table's counted result, TX-7 penalties merged into the result's
 * "penalty" object) and hands it to the JSON adapter, so the hub and
 * `tourney` read events through one parser.  A handful of queries for the
 * whole event, no per-table query: 10,000 results load in tens of ms.
 *
 * Not here: writing.  Invariant: the same rows always give the same event
 * (ORDER BY everywhere), so pairings and standings are reproducible.
 */
#include "store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"

struct table_ref {
    int64_t id;
    json_t *obj; /* borrowed from the tree */
    /* issue 19: where the table lands in the parsed event (rounds and
     * tables in the tree's order) and its seats' sides (-1 none). */
    int32_t round_ix, table_ix, n_seats;
    int8_t side[TNY_MAX_SEATS];
};

static int cmp_table_ref(const void *a, const void *b)
{
    const struct table_ref *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static bool set_new(json_t *obj, const char *key, json_t *v)
{
    return v && json_object_set_new(obj, key, v) == 0;
}

static bool set_text(json_t *obj, sqlite3_stmt *st, int col, const char *key)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t)
        return true;
    return set_new(obj, key, json_string((const char *)t));
}

/* A JSON column (armies, colours) parsed into obj[key]. */
static bool set_json(json_t *obj, sqlite3_stmt *st, int col, const char *key)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t)
        return true;
    return set_new(obj, key, json_loads((const char *)t, 0, NULL));
}

static int add_players(struct hub_store *s, int64_t ev_row, json_t *root,
                       struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    json_t *players = json_array(), *drops = json_array(), *dqs = json_array();
    bool row;
    int rc;
    if (!players || !drops || !dqs ||
        json_object_set(root, "players", players) < 0 ||
        json_object_set(root, "drops", drops) < 0 ||
        json_object_set(root, "disqualified", dqs) < 0) {
        rc = TNY_ENOMEM;
        goto out;
    }
    if ((rc = hs_prepare(s,
                         "SELECT pid, name, club, country, external_id, "
                         "rating, armies_json, beginner, colours_json, "
                         "colour_blind, faction, agenda, late_from_round, "
                         "fixed_table, dropped_after, rejoin_round, dq_after, "
                         "decklist, knockout_armies_json, hook FROM players "
                         "WHERE "
                         "event_id = ? ORDER BY id",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    for (;;) {
        if ((rc = hs_row(s, st, &row, d)) < 0)
            goto out;
        if (!row)
            break;
        json_t *p = json_object();
        bool ok = p && json_array_append_new(players, p) == 0;
        ok = ok && set_text(p, st, 0, "id") && set_text(p, st, 1, "name") &&
             set_text(p, st, 2, "club") && set_text(p, st, 3, "country") &&
             set_text(p, st, 4, "external_id");
        if (ok && sqlite3_column_type(st, 5) != SQLITE_NULL) {
            double r = sqlite3_column_double(st, 5);
            ok = set_new(p, "rating",
                         r == floor(r) && fabs(r) < 1e15
                             ? json_integer((json_int_t)r)
                             : json_real(r));
        }
        ok = ok && set_json(p, st, 6, "armies");
        if (ok && sqlite3_column_int(st, 7))
            ok = set_new(p, "beginner", json_true());
        ok = ok && set_json(p, st, 8, "colours");
        if (ok && sqlite3_column_int(st, 9))
            ok = set_new(p, "colour_blind", json_true());
        ok = ok && set_text(p, st, 10, "faction") &&
             set_text(p, st, 11, "agenda") && set_text(p, st, 17, "decklist") &&
             set_json(p, st, 18, "knockout_armies");
        if (ok && sqlite3_column_int(st, 19))
            ok = set_new(p, "hook", json_true());
        if (ok && sqlite3_column_int(st, 12) > 0)
            ok = set_new(p, "late_from_round",
                         json_integer(sqlite3_column_int(st, 12)));
        if (ok && sqlite3_column_int(st, 13) > 0)
            ok = set_new(p, "fixed_table",
                         json_integer(sqlite3_column_int(st, 13)));
        if (ok && sqlite3_column_int(st, 14) != 0) {
            /* -1: a no-show, "after_round": 0 in the event file */
            int after = sqlite3_column_int(st, 14);
            json_t *o = json_object();
            ok = o && json_array_append_new(drops, o) == 0 &&
                 set_text(o, st, 0, "player") &&
                 set_new(o, "after_round", json_integer(after > 0 ? after : 0));
            if (ok && sqlite3_column_int(st, 15) > 0)
                ok = set_new(o, "rejoin_round",
                             json_integer(sqlite3_column_int(st, 15)));
        }
        if (ok && sqlite3_column_int(st, 16) > 0) {
            json_t *o = json_object();
            ok = o && json_array_append_new(dqs, o) == 0 &&
                 set_text(o, st, 0, "player") &&
                 set_new(o, "after_round",
                         json_integer(sqlite3_column_int(st, 16)));
        }
        if (!ok) {
            rc = TNY_ENOMEM;
            goto out;
        }
    }
out:
    hs_finalize(s, st);
    json_decref(players);
    json_decref(drops);
    json_decref(dqs);
    return rc;
}

static int add_rounds(struct hub_store *s, int64_t ev_row, bool with_draft,
                      const struct hs_override *ov, json_t *root,
                      struct table_ref **refs_out, size_t *n_refs_out,
                      struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    json_t *rounds = json_array(), *tables = NULL, *players = NULL;
    struct table_ref *refs = NULL;
    int32_t n_refs = 0, cap = 0, round_ix = -1, table_ix = -1;
    int64_t cur_round = -1, cur_table = -1;
    bool row;
    int rc;
    if (!rounds || json_object_set(root, "rounds", rounds) < 0) {
        rc = TNY_ENOMEM;
        goto out;
    }
    if ((rc = hs_prepare(
             s,
             "SELECT r.number, r.stage, t.id, t.number, t.is_bye, p.pid, "
             "res.result_json, s.side FROM rounds r "
             "JOIN tables t ON t.round_id = r.id "
             "JOIN seats s ON s.table_id = t.id "
             "JOIN players p ON p.id = s.player_id "
             "LEFT JOIN results res ON res.table_id = t.id AND "
             "res.status = 'valid' AND res.superseded_by IS NULL "
             "WHERE r.event_id = ?1 AND (?2 OR r.status <> 'draft') "
             /* CM-9: tables in number order, also after a move; byes
              * last. */
             "ORDER BY r.number, t.is_bye, t.number, t.position, s.seat",
             &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_int(st, 2, with_draft);
    for (;;) {
        if ((rc = hs_row(s, st, &row, d)) < 0)
            goto out;
        if (!row)
            break;
        int64_t number = sqlite3_column_int64(st, 0);
        int64_t table_id = sqlite3_column_int64(st, 2);
        const char *pid = (const char *)sqlite3_column_text(st, 5);
        bool ok = true;
        if (number != cur_round) {
            json_t *r = json_object();
            tables = json_array();
            ok = r && tables && json_array_append_new(rounds, r) == 0 &&
                 set_text(r, st, 1, "stage") &&
                 json_object_set_new(r, "tables", tables) == 0;
            if (!ok && r == NULL)
                json_decref(tables);
            cur_round = number;
            cur_table = -1;
            round_ix++;
            table_ix = -1;
        }
        if (ok && table_id != cur_table) {
            json_t *t = json_object();
            ok = t && json_array_append_new(tables, t) == 0;
            cur_table = table_id;
            if (ok) {
                struct table_ref *grown =
                    hs_grow(refs, n_refs, &cap, sizeof(*refs), 256);
                ok = grown != NULL;
                if (ok)
                    refs = grown;
            }
            if (ok) {
                refs[n_refs++] = (struct table_ref){table_id,   t, round_ix,
                                                    ++table_ix, 0, {0}};
                memset(refs[n_refs - 1].side, -1, TNY_MAX_SEATS);
            }
            if (ok && sqlite3_column_int(st, 4)) {
                ok = set_new(t, "bye", json_string(pid));
                players = NULL;
            } else if (ok) {
                players = json_array();
                ok = set_new(t, "table",
                             json_integer(sqlite3_column_int(st, 3))) &&
                     set_new(t, "players", players);
                const unsigned char *res = sqlite3_column_text(st, 6);
                if (ov && ov->table_id == table_id) {
                    res = NULL;
                    if (ov->result)
                        ok = ok &&
                             set_new(t, "result", json_deep_copy(ov->result));
                }
                if (ok && res) {
                    json_error_t err;
                    json_t *r = json_loads((const char *)res, 0, &err);
                    if (!r) {
                        rc = tny_diag_set(d, TNY_EINVAL,
                                          "store: round %lld table %d: stored "
                                          "result is not JSON: %s",
                                          (long long)number,
                                          sqlite3_column_int(st, 3), err.text);
                        goto out;
                    }
                    ok = set_new(t, "result", r);
                }
            }
        }
        if (ok && players)
            ok = json_array_append_new(players, json_string(pid)) == 0;
        if (ok && n_refs > 0 && refs[n_refs - 1].n_seats < TNY_MAX_SEATS) {
            struct table_ref *ref = &refs[n_refs - 1];
            ref->side[ref->n_seats++] = (int8_t)sqlite3_column_int(st, 7);
        }
        if (!ok) {
            rc = TNY_ENOMEM;
            goto out;
        }
    }
    if (n_refs > 1)
        qsort(refs, (size_t)n_refs, sizeof(*refs), cmp_table_ref);
    *refs_out = refs;
    *n_refs_out = (size_t)n_refs;
    refs = NULL;
out:
    hs_finalize(s, st);
    json_decref(rounds);
    free(refs);
    return rc;
}

/* TX-7: penalty entries add up into result.penalty (points). */
static int add_penalties(struct hub_store *s, int64_t ev_row, bool with_draft,
                         const struct table_ref *refs, size_t n_refs,
                         struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    if ((rc = hs_prepare(s,
                         "SELECT pe.table_id, p.pid, SUM(pe.units) FROM "
                         "penalties pe JOIN players p ON p.id = pe.player_id "
                         "JOIN tables t ON t.id = pe.table_id "
                         "JOIN rounds r ON r.id = t.round_id "
                         "WHERE r.event_id = ?1 AND (?2 OR r.status <> "
                         "'draft') GROUP BY pe.table_id, p.pid "
                         "ORDER BY pe.table_id, p.pid",
                         &st, d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_int(st, 2, with_draft);
    for (;;) {
        if ((rc = hs_row(s, st, &row, d)) < 0)
            goto out;
        if (!row)
            break;
        struct table_ref key = {.id = sqlite3_column_int64(st, 0)};
        const struct table_ref *ref =
            n_refs ? bsearch(&key, refs, n_refs, sizeof(*refs), cmp_table_ref)
                   : NULL;
        json_t *result = ref ? json_object_get(ref->obj, "result") : NULL;
        if (!result || !json_is_object(result))
            continue; /* applies once a result is counted */
        json_t *pen = json_object_get(result, "penalty");
        if (!pen) {
            pen = json_object();
            if (!set_new(result, "penalty", pen)) {
                rc = TNY_ENOMEM;
                goto out;
            }
        }
        const char *pid = (const char *)sqlite3_column_text(st, 1);
        int64_t units = sqlite3_column_int64(st, 2);
        json_t *have = json_is_object(pen) ? json_object_get(pen, pid) : NULL;
        if (have && json_is_number(have))
            units +=
                (int64_t)llround(json_number_value(have) * TNY_POINT_SCALE);
        if (json_is_object(pen) && !set_new(pen, pid, tny_json_points(units))) {
            rc = TNY_ENOMEM;
            goto out;
        }
    }
out:
    hs_finalize(s, st);
    return rc;
}

/* Issue 19: the seats' stored sides onto the parsed event (the sides are
 * indices into the format's sides, so they bypass the tree's names).  A
 * table has sides when every seat has one. */
static int apply_sides(const struct table_ref *refs, size_t n_refs,
                       struct tny_event *ev, struct tny_diag *d)
{
    for (size_t i = 0; i < n_refs; i++) {
        const struct table_ref *ref = &refs[i];
        bool all = ref->n_seats > 0;
        for (int32_t k = 0; k < ref->n_seats; k++)
            all = all && (ref->side[k] == 0 || ref->side[k] == 1);
        if (!all)
            continue;
        if (ev->format.n_sides != 2 || ref->round_ix < 0 ||
            ref->round_ix >= ev->n_rounds ||
            ref->table_ix >= ev->rounds[ref->round_ix].n_tables ||
            ev->rounds[ref->round_ix].tables[ref->table_ix].n_seats !=
                ref->n_seats)
            return tny_diag_set(d, TNY_ESTATE,
                                "store: round %d: stored sides do not fit "
                                "the event (format \"%s\")",
                                (int)ref->round_ix + 1, ev->format.name);
        struct tny_table *t = &ev->rounds[ref->round_ix].tables[ref->table_ix];
        t->has_sides = true;
        memcpy(t->side, ref->side, sizeof(t->side));
    }
    return TNY_OK;
}

int hs_project(struct hub_store *s, int64_t ev_row, bool with_draft,
               bool validate, const struct hs_override *ov,
               struct tny_event *out, struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    json_t *root = NULL;
    struct table_ref *refs = NULL;
    size_t n_refs = 0;
    json_error_t err;
    bool row;
    int rc;

    tny_event_init(out);
    if ((rc = hs_prepare(s, "SELECT header_json FROM events WHERE id = ?", &st,
                         d)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    if ((rc = hs_row(s, st, &row, d)) < 0)
        goto out;
    if (!row) {
        rc = tny_diag_set(d, TNY_ENOTFOUND, "store: event row %lld: not found",
                          (long long)ev_row);
        goto out;
    }
    root = json_loads((const char *)sqlite3_column_text(st, 0), 0, &err);
    if (!root) {
        rc = tny_diag_set(d, TNY_EINVAL, "store: stored event header: %s",
                          err.text);
        goto out;
    }
    if ((rc = add_players(s, ev_row, root, d)) < 0 ||
        (rc = add_rounds(s, ev_row, with_draft, ov, root, &refs, &n_refs, d)) <
            0 ||
        (rc = add_penalties(s, ev_row, with_draft, refs, n_refs, d)) < 0 ||
        (rc = tny_event_from_json(root, out, d)) < 0 ||
        (rc = apply_sides(refs, n_refs, out, d)) < 0)
        goto out;
    if (validate)
        rc = tny_event_validate(out, d);
out:
    hs_finalize(s, st);
    json_decref(root);
    free(refs);
    if (rc < 0)
        tny_event_release(out);
    return rc;
}

int hs_validate_event(struct hub_store *s, int64_t ev_row, bool with_draft,
                      struct tny_diag *d)
{
    struct tny_event ev;
    int rc = hs_project(s, ev_row, with_draft, true, NULL, &ev, d);
    if (rc == 0)
        tny_event_release(&ev);
    return rc;
}

int hub_store_load_event(struct hub_store *store, const char *event_id,
                         struct tny_event *out, struct tny_diag *diag)
{
    int64_t ev_row;
    int rc;
    tny_event_init(out);
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) == 0)
        /* Validated when written: the adapter's parse is enough here.
         * The engine functions the hub calls next validate what they use. */
        rc = hs_project(store, ev_row, false, false, NULL, out, diag);
    hs_end_read(store);
    return rc;
}

int hub_store_export_event_json(struct hub_store *store, const char *event_id,
                                char **text, struct tny_diag *diag)
{
    struct tny_event ev;
    int rc;
    *text = NULL;
    if ((rc = hub_store_load_event(store, event_id, &ev, diag)) < 0)
        return rc;
    rc = tny_event_to_json(&ev, text);
    tny_event_release(&ev);
    return rc;
}

int hub_store_load_draft(struct hub_store *store, const char *event_id,
                         const struct tny_event *ev, struct tny_round_plan *out,
                         struct tny_diag *diag)
{
    int64_t ev_row;
    int rc;
    memset(out, 0, sizeof(*out));
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) == 0)
        rc = hs_read_draft(store, ev_row, event_id, ev, out, diag);
    hs_end_read(store);
    return rc;
}

int hub_store_first_seats(struct hub_store *store, const char *event_id,
                          int32_t round, int32_t **first_seat, int32_t *n,
                          struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int64_t ev_row, round_row;
    int32_t *a = NULL, cap = 0;
    bool row;
    int rc;
    *first_seat = NULL;
    *n = 0;
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = hs_event_row(store, event_id, &ev_row, diag)) < 0 ||
        (rc = hs_round_row(store, ev_row, event_id, round, &round_row, NULL,
                           diag)) < 0 ||
        (rc = hs_prepare(store,
                         "SELECT number, first_seat FROM tables WHERE "
                         "round_id = ? AND is_bye = 0 ORDER BY number",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, round_row);
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        int32_t number = sqlite3_column_int(st, 0);
        if (number < 1)
            continue;
        if (number >= cap) {
            int32_t ncap = number + 64;
            int32_t *grown = realloc(a, sizeof(*a) * (size_t)ncap);
            if (!grown) {
                rc = TNY_ENOMEM;
                goto out;
            }
            for (int32_t i = cap; i < ncap; i++)
                grown[i] = -1;
            a = grown;
            cap = ncap;
        }
        a[number] = sqlite3_column_int(st, 1);
        if (number + 1 > *n)
            *n = number + 1;
    }
    *first_seat = a;
    a = NULL;
out:
    hs_finalize(store, st);
    hs_end_read(store);
    free(a);
    if (rc < 0)
        *n = 0;
    return rc;
}

int hs_read_draft(struct hub_store *store, int64_t ev_row, const char *event_id,
                  const struct tny_event *ev, struct tny_round_plan *out,
                  struct tny_diag *diag)
{
    return hs_read_round_plan(store, ev_row, event_id, 0, ev, out, diag);
}

/* A player's index in the event by id: the event's players sorted by id
 * once, each seat found by bsearch (issue 17: a linear search per seat
 * was 412 M of the 473 M instructions of a published round's swap at
 * 5,000 players). */
struct player_ref {
    const char *id;
    int32_t ix;
};

static int cmp_player_ref(const void *a, const void *b)
{
    return strcmp(((const struct player_ref *)a)->id,
                  ((const struct player_ref *)b)->id);
}

static struct player_ref *players_by_id(const struct tny_event *ev)
{
    struct player_ref *refs =
        malloc(sizeof(*refs) * (size_t)(ev->n_players > 0 ? ev->n_players : 1));
    if (!refs)
        return NULL;
    for (int32_t i = 0; i < ev->n_players; i++)
        refs[i] = (struct player_ref){.id = ev->players[i].id, .ix = i};
    if (ev->n_players > 1)
        qsort(refs, (size_t)ev->n_players, sizeof(*refs), cmp_player_ref);
    return refs;
}

static int32_t player_ix(const struct player_ref *refs, int32_t n,
                         const char *id)
{
    struct player_ref key = {.id = id};
    const struct player_ref *r =
        n > 0 ? bsearch(&key, refs, (size_t)n, sizeof(*refs), cmp_player_ref)
              : NULL;
    return r ? r->ix : -1;
}

int hs_read_round_plan(struct hub_store *store, int64_t ev_row,
                       const char *event_id, int32_t round,
                       const struct tny_event *ev, struct tny_round_plan *out,
                       struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    struct player_ref *by_id = NULL;
    int64_t cur = -1;
    int32_t cap = 0;
    bool row, oom = false;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!(by_id = players_by_id(ev)))
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    if ((rc = hs_prepare(
             store,
             "SELECT r.number, r.stage, r.stage_index, r.explain, "
             "t.id, t.number, t.is_bye, t.first_seat, p.pid, "
             "s.side FROM rounds r JOIN tables t ON t.round_id = r.id "
             "JOIN seats s ON s.table_id = t.id "
             "JOIN players p ON p.id = s.player_id "
             "WHERE r.event_id = ?1 AND ((?2 = 0 AND r.status = "
             "'draft') OR r.number = ?2) "
             "ORDER BY t.is_bye, t.number, t.position, s.seat",
             &st, diag)) < 0)
        goto out;
    sqlite3_bind_int64(st, 1, ev_row);
    sqlite3_bind_int(st, 2, round);
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        if (cur == -1) {
            out->round = sqlite3_column_int(st, 0);
            if (tny_stage_kind_from_name(
                    (const char *)sqlite3_column_text(st, 1), &out->stage) <
                0) {
                rc = tny_diag_set(diag, TNY_ESTATE, "store: bad stage");
                goto out;
            }
            out->stage_index = sqlite3_column_int(st, 2);
            out->explain = hs_col_strdup(st, 3, &oom);
        }
        if (sqlite3_column_int64(st, 4) != cur) {
            cur = sqlite3_column_int64(st, 4);
            struct tny_pairing_table *grown =
                hs_grow(out->tables, out->n_tables, &cap, sizeof(*grown), 64);
            if (!grown) {
                rc = TNY_ENOMEM;
                goto out;
            }
            out->tables = grown;
            struct tny_pairing_table *t = &out->tables[out->n_tables++];
            memset(t, 0, sizeof(*t));
            t->number = sqlite3_column_int(st, 5);
            t->is_bye = sqlite3_column_int(st, 6) != 0;
            t->first_seat = sqlite3_column_int(st, 7);
        }
        struct tny_pairing_table *t = &out->tables[out->n_tables - 1];
        const char *pid = (const char *)sqlite3_column_text(st, 8);
        int32_t idx = pid ? player_ix(by_id, ev->n_players, pid) : -1;
        if (idx < 0) {
            rc = tny_diag_set(diag, TNY_ENOTFOUND,
                              "event \"%s\": draft player \"%s\" is not in "
                              "the event given",
                              event_id, pid);
            goto out;
        }
        if (t->n_seats >= TNY_MAX_SEATS) {
            rc = tny_diag_set(diag, TNY_ESTATE, "store: too many seats");
            goto out;
        }
        /* issue 19: the seat's side (-1 none: a format without sides) */
        int side = sqlite3_column_int(st, 9);
        if (side == 0 || side == 1) {
            t->has_sides = true;
            t->side[t->n_seats] = (int8_t)side;
        }
        t->seats[t->n_seats++] = idx;
    }
    if (oom)
        rc = TNY_ENOMEM;
    else if (cur == -1)
        rc = tny_diag_set(diag, TNY_ENOTFOUND, "event \"%s\": no draft round",
                          event_id);
out:
    hs_finalize(store, st);
    free(by_id);
    if (rc < 0)
        tny_round_plan_release(out);
    return rc;
}
