/* test_store.c - the hub's SQLite store against real files under /tmp.
 *
 * Round trips through every write (CM-5 lifecycle, CM-6 results) compared
 * with an in-memory engine event built alongside (the expected standings
 * come from the engine on the mirror, never from the store); idempotency
 * and conflicts (CM-6); corrections that keep history; migrations; crash
 * safety with a SIGKILLed writer child; read-only and full databases; the
 * load speed of 10,000 results (printed, not asserted).
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <sqlite3.h>

#include "faultvfs.h"
#include "store.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/standings.h"

/* ---- temp files -------------------------------------------------------- */

struct tmpdb {
    char dir[64];
    char path[96];
};

static void tmpdb_make(struct tmpdb *t)
{
    snprintf(t->dir, sizeof(t->dir), "/tmp/tny-store-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    snprintf(t->path, sizeof(t->path), "%s/hub.db", t->dir);
}

static void tmpdb_remove(struct tmpdb *t)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    char p[128];
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof(p), "%s%s", t->path, suffix[i]);
        unlink(p);
    }
    rmdir(t->dir);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct hub_store *open_store(const char *path, unsigned flags)
{
    struct hub_store_options o = {.flags = flags};
    struct hub_store *s = NULL;
    struct tny_diag d = {{0}};
    int rc = hub_store_open_with(path, &o, &s, &d);
    if (rc != 0)
        fail_msg("open %s: %s", path, d.msg);
    return s;
}

/* Calls an rc function that takes `&diag`; fails the test with the
 * message when it does not return 0. */
#define OK(call)                                                               \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != 0)                                                          \
            fail_msg("%s: rc %d: %s", #call, rc_, diag.msg);                   \
    } while (0)

/* A registration as the service hands it to the store (issue 17 item 1,
 * issue 18 item 4: a typed player, no JSON text): a test's player object
 * (id, name, club, country, faction, armies by name of the event's
 * format) read into the engine's player. */
static int put_player_json(struct hub_store *s, const char *event,
                           const char *json, struct tny_diag *d)
{
    struct tny_player p;
    struct tny_event ev;
    json_t *o = json_loads(json, 0, NULL), *a;
    size_t i;
    assert_non_null(o);
    memset(&p, 0, sizeof(p));
    int rc = hub_store_load_event(s, event, &ev, d);
    if (rc == 0) {
        p.id = (char *)json_string_value(json_object_get(o, "id"));
        p.name = (char *)json_string_value(json_object_get(o, "name"));
        p.club = (char *)json_string_value(json_object_get(o, "club"));
        p.country = (char *)json_string_value(json_object_get(o, "country"));
        p.faction = (char *)json_string_value(json_object_get(o, "faction"));
        json_array_foreach (json_object_get(o, "armies"), i, a)
            p.armies[p.n_armies++] =
                tny_format_army_index(&ev.format, json_string_value(a));
        rc =
            hub_store_put_player(s, event, &ev.format, &p, "organiser:anna", d);
        tny_event_release(&ev);
    }
    json_decref(o);
    return rc;
}

/* ---- event texts ------------------------------------------------------- */

/* An event file with n players (ids p1..pn) and the given header keys. */
static char *event_text(const char *format, const char *options, int n,
                        uint64_t seed)
{
    size_t cap = 256 + (size_t)n * 64 + strlen(options);
    char *t = malloc(cap);
    assert_non_null(t);
    size_t used = (size_t)snprintf(
        t, cap,
        "{\"format\": \"%s\", \"options\": %s, \"seed\": %llu, "
        "\"players\": [",
        format, options, (unsigned long long)seed);
    for (int i = 1; i <= n; i++)
        used +=
            (size_t)snprintf(t + used, cap - used,
                             "%s{\"id\": \"p%d\", \"name\": \"Player %d\", "
                             "\"rating\": %d}",
                             i > 1 ? ", " : "", i, i, 1500 + (i * 37) % 400);
    snprintf(t + used, cap - used, "]}");
    return t;
}

/* The result objects of round r (0-based) of ev, by table index, as
 * compact JSON texts (NULL for byes and tables without result). */
static char **round_results(const struct tny_event *ev, int32_t r)
{
    char *text = NULL;
    assert_int_equal(tny_event_to_json(ev, &text), 0);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *tables = json_object_get(
        json_array_get(json_object_get(root, "rounds"), (size_t)r), "tables");
    int32_t n = ev->rounds[r].n_tables;
    char **out = calloc((size_t)n + 1, sizeof(*out));
    assert_non_null(out);
    for (int32_t t = 0; t < n; t++) {
        json_t *res =
            json_object_get(json_array_get(tables, (size_t)t), "result");
        if (res)
            out[t] = json_dumps(res, JSON_COMPACT);
    }
    json_decref(root);
    free(text);
    return out;
}

static void free_results(char **r, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        free(r[i]);
    free(r);
}

static char *standings_json(const struct tny_event *ev)
{
    struct tny_standings st;
    struct tny_diag diag = {{0}};
    char *out = NULL;
    OK(tny_standings_compute(ev, &st, &diag));
    assert_int_equal(tny_standings_to_json(ev, &st, &out), 0);
    tny_standings_release(&st);
    return out;
}

static void register_devices(struct hub_store *s, int n)
{
    struct tny_diag diag = {{0}};
    char id[32];
    for (int i = 1; i <= n; i++) {
        snprintf(id, sizeof(id), "table-%d", i);
        OK(hub_store_device_register(s, id, "organiser:anna", &diag));
    }
}

/* Records a table's submission as the service decided it (hub/service
 * decides CM-6; the store records): json is the event file's result
 * object for table `table`, parsed against ev (NULL: the stored event,
 * loaded for the call).  kind REJECTED records no result. */
static int record_json(struct hub_store *s, const struct tny_event *ev,
                       const char *event, int32_t round, int32_t table,
                       const char *dev, const char *key, const char *json,
                       bool confirmed, enum hub_submit_kind kind, bool repeats,
                       struct hub_submit_outcome *out, struct tny_diag *diag)
{
    struct tny_event loaded;
    struct tny_table tb;
    bool own = false;
    int rc;
    memset(&tb, 0, sizeof(tb));
    memset(out, 0, sizeof(*out));
    if (!ev && kind != HUB_SUBMIT_REJECTED) {
        if ((rc = hub_store_load_event(s, event, &loaded, diag)) < 0)
            return rc;
        ev = &loaded;
        own = true;
    }
    if (kind != HUB_SUBMIT_REJECTED) {
        const struct tny_round *r = &ev->rounds[round - 1];
        for (int32_t i = 0; i < r->n_tables; i++)
            if (!r->tables[i].is_bye && r->tables[i].number == table)
                tb = r->tables[i];
        json_t *j = json_loads(json, 0, NULL);
        assert_non_null(j);
        rc = tny_result_from_json(ev, &tb, j, "result", &tb.result, diag);
        json_decref(j);
        if (rc < 0)
            goto out;
        tb.has_result = true;
    }
    struct hub_submission q = {
        .event_id = event,
        .round = round,
        .table = table,
        .device_id = dev,
        .idem_key = key,
        .confirmed = confirmed,
        .kind = kind,
        .repeats_counted = repeats,
        .reason = kind == HUB_SUBMIT_CONFLICT   ? HUB_REASON_ALREADY_CONFIRMED
                  : kind == HUB_SUBMIT_REJECTED ? HUB_REASON_INVALID_RESULT
                  : confirmed                   ? HUB_REASON_NONE
                                                : HUB_REASON_UNCONFIRMED,
        .reason_text =
            kind == HUB_SUBMIT_REJECTED ? "result.winner: refused" : "",
        .ev = kind == HUB_SUBMIT_REJECTED ? NULL : ev,
        .result = kind == HUB_SUBMIT_REJECTED ? NULL : &tb,
    };
    rc = hub_store_record_submissions(s, 1, &q, out, diag);
    if (rc == 0 && out->rc < 0)
        rc = tny_diag_set(diag, out->rc, "%s", out->reason_text);
out:
    if (own)
        tny_event_release(&loaded);
    return rc;
}

/* The organiser's entry of the result object json for a table (the
 * service checks it; here it parses against the stored event). */
static int enter_json(struct hub_store *s, const char *event, int32_t round,
                      int32_t table, const char *json, int64_t *id,
                      struct tny_diag *diag)
{
    struct tny_event ev;
    struct tny_table tb;
    int rc;
    memset(&tb, 0, sizeof(tb));
    if ((rc = hub_store_load_event(s, event, &ev, diag)) < 0)
        return rc;
    const struct tny_round *r = &ev.rounds[round - 1];
    for (int32_t i = 0; i < r->n_tables; i++)
        if (!r->tables[i].is_bye && r->tables[i].number == table)
            tb = r->tables[i];
    json_t *j = json_loads(json, 0, NULL);
    assert_non_null(j);
    rc = tny_result_from_json(&ev, &tb, j, "result", &tb.result, diag);
    json_decref(j);
    tb.has_result = true;
    if (rc == 0)
        rc = hub_store_enter_result(s, event, round, table, &ev, &tb,
                                    "organiser:anna", id, diag);
    tny_event_release(&ev);
    return rc;
}

/* The usual case: accepted and confirmed. */
static int record_accepted(struct hub_store *s, const char *event,
                           int32_t round, int32_t table, const char *dev,
                           const char *key, const char *json,
                           struct hub_submit_outcome *out,
                           struct tny_diag *diag)
{
    return record_json(s, NULL, event, round, table, dev, key, json, true,
                       HUB_SUBMIT_ACCEPTED, false, out, diag);
}

/* Pairs the next round from the store's own projection, saves it as the
 * draft, publishes and starts it; the mirror gets the same round. */
static void next_round(struct hub_store *s, const char *event,
                       struct tny_event *mirror)
{
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct tny_round_plan plan, back;
    OK(hub_store_load_event(s, event, &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, event, &ev, &plan, "hub", &diag));
    /* The draft reads back as the plan it was saved from. */
    OK(hub_store_load_draft(s, event, &ev, &back, &diag));
    assert_int_equal(back.round, plan.round);
    assert_int_equal(back.n_tables, plan.n_tables);
    for (int32_t t = 0; t < plan.n_tables; t++) {
        assert_int_equal(back.tables[t].number, plan.tables[t].number);
        assert_int_equal(back.tables[t].n_seats, plan.tables[t].n_seats);
        assert_memory_equal(back.tables[t].seats, plan.tables[t].seats,
                            sizeof(int32_t) * (size_t)plan.tables[t].n_seats);
    }
    tny_round_plan_release(&back);
    /* A draft is not part of the event yet: standings unchanged. */
    OK(hub_store_set_round_status(s, event, plan.round, HUB_ROUND_PUBLISHED,
                                  "organiser:anna", &diag));
    OK(hub_store_set_round_status(s, event, plan.round, HUB_ROUND_STARTED,
                                  "organiser:anna", &diag));
    OK(tny_event_append_round(mirror, &plan));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
}

/* Simulates the mirror's last round and submits every result from its
 * table's device; closes the round. */
static void play_round(struct hub_store *s, const char *event,
                       struct tny_event *mirror, struct tny_rng *rng)
{
    struct tny_diag diag = {{0}};
    int32_t r = mirror->n_rounds - 1;
    struct tny_round *round = &mirror->rounds[r];
    for (int32_t t = 0; t < round->n_tables; t++)
        if (!round->tables[t].is_bye)
            OK(tny_simulate_result(mirror, r, round->stage, &round->tables[t],
                                   rng, &diag));
    char **res = round_results(mirror, r);
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye)
            continue;
        char dev[32], key[48];
        struct hub_submit_outcome out;
        snprintf(dev, sizeof(dev), "table-%d", (int)tb->number);
        snprintf(key, sizeof(key), "r%d-t%d", (int)r + 1, (int)tb->number);
        OK(record_accepted(s, event, r + 1, tb->number, dev, key, res[t], &out,
                           &diag));
        if (out.kind != HUB_SUBMIT_ACCEPTED)
            fail_msg("round %d table %d: %s", (int)r + 1, (int)tb->number,
                     res[t]);
    }
    free_results(res, round->n_tables);
    OK(hub_store_set_round_status(s, event, r + 1, HUB_ROUND_CLOSED,
                                  "organiser:anna", &diag));
}

/* qsort order of plan tables as the store loads them: number order, byes
 * last. */
static int cmp_table_number(const void *pa, const void *pb)
{
    const struct tny_pairing_table *a = pa, *b = pb;
    if (a->is_bye != b->is_bye)
        return a->is_bye ? 1 : -1;
    return (a->number > b->number) - (a->number < b->number);
}

/* The store's export equals the mirror, and so do the standings. */
static void assert_same_event(struct hub_store *s, const char *event,
                              const struct tny_event *mirror)
{
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    char *exported = NULL, *want = NULL;
    OK(hub_store_export_event_json(s, event, &exported, &diag));
    assert_int_equal(tny_event_to_json(mirror, &want), 0);
    assert_string_equal(exported, want);
    OK(hub_store_load_event(s, event, &ev, &diag));
    char *got_st = standings_json(&ev), *want_st = standings_json(mirror);
    assert_string_equal(got_st, want_st);
    /* `tourney standings` on the export gives the same standings. */
    struct tny_event reparsed;
    OK(tny_event_from_json_text(exported, strlen(exported), &reparsed, &diag));
    char *file_st = standings_json(&reparsed);
    assert_string_equal(file_st, want_st);
    free(file_st);
    tny_event_release(&reparsed);
    free(got_st);
    free(want_st);
    free(exported);
    free(want);
    tny_event_release(&ev);
}

static void round_trip(const char *format, const char *options, int players,
                       int rounds)
{
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror;
    struct tny_rng rng;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text(format, options, players, 20240601);
    OK(hub_store_create_event(s, "ev1", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, players / 2 + 1);
    tny_rng_seed(&rng, 99);
    for (int r = 0; r < rounds; r++) {
        next_round(s, "ev1", &mirror);
        play_round(s, "ev1", &mirror, &rng);
        assert_same_event(s, "ev1", &mirror);
    }
    /* Reopen: everything is still there. */
    hub_store_close(s);
    s = open_store(db.path, 0);
    assert_same_event(s, "ev1", &mirror);
    OK(hub_store_check(s, &diag));
    struct hub_event_info info;
    OK(hub_store_get_event(s, "ev1", &info, &diag));
    assert_int_equal(info.status, HUB_EVENT_RUNNING);
    assert_int_equal(info.n_players, players);
    assert_int_equal(info.n_rounds, rounds);
    assert_int_equal(info.seed, 20240601);
    tny_event_release(&mirror);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

static void test_CM_5_CM_6_round_trip_neuroshima(void **state)
{
    (void)state;
    round_trip("neuroshima-hex", "{\"swiss_rounds\": 3, \"cut\": 0}", 11, 3);
}

static void test_CM_5_CM_6_round_trip_catan(void **state)
{
    (void)state;
    round_trip("catan", "{\"rounds\": 3}", 14, 3);
}

static void test_CM_5_CM_6_round_trip_tantrix(void **state)
{
    (void)state;
    round_trip("tantrix", "{\"swiss_rounds\": 3}", 9, 3);
}

/* ---- idempotency, conflicts, corrections (CM-6) ------------------------ */

static int count_log(struct hub_store *s, const char *event, const char *kind)
{
    struct tny_diag diag = {{0}};
    struct hub_log_entry *e = NULL;
    int32_t n = 0, count = 0;
    OK(hub_store_read_log(s, event, 0, 100000, &e, &n, &diag));
    for (int32_t i = 0; i < n; i++)
        count += strcmp(e[i].kind, kind) == 0;
    hub_log_entries_free(e, n);
    return count;
}

/* CM-6 as the store keeps it: it records what the service decided (the
 * decisions themselves are test_service's), answers a key with the
 * recorded fields, logs a key reused for other data, never records a key
 * twice, and keeps a conflict flagged beside the counted result. */
static void test_CM_6_idempotency_and_conflicts(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror;
    struct hub_submit_outcome a, b, c;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("got-lcg2", "{}", 4, 5);
    OK(hub_store_create_event(s, "gt", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, 3);
    next_round(s, "gt", &mirror);
    const struct tny_table *t1 = &mirror.rounds[0].tables[0];
    char win_a[64], win_b[64];
    snprintf(win_a, sizeof(win_a), "{\"winner\": \"%s\"}",
             mirror.players[t1->seats[0]].id);
    snprintf(win_b, sizeof(win_b), "{\"winner\": \"%s\"}",
             mirror.players[t1->seats[1]].id);

    /* First submission: accepted and counted. */
    OK(record_accepted(s, "gt", 1, 1, "table-1", "k1", win_a, &a, &diag));
    assert_int_equal(a.kind, HUB_SUBMIT_ACCEPTED);
    assert_true(a.counted);
    assert_true(a.result_id > 0);
    /* The same key: the first answer's fields. */
    OK(hub_store_get_submission(s, "table-1", "k1", NULL, &b, &diag));
    assert_int_equal(b.kind, HUB_SUBMIT_DUPLICATE);
    assert_int_equal(b.first, HUB_SUBMIT_ACCEPTED);
    assert_true(b.counted);
    assert_int_equal(b.result_id, a.result_id);
    assert_string_equal(b.event_id, "gt");
    assert_int_equal(b.round, 1);
    assert_int_equal(b.table, 1);
    assert_int_equal(count_log(s, NULL, "duplicate.key_reused"), 0);
    /* Asked with other data (a probe): still the first answer, and the
     * reuse is logged; asked with the same data, nothing is logged. */
    struct tny_event ev;
    OK(hub_store_load_event(s, "gt", &ev, &diag));
    struct tny_table same = ev.rounds[0].tables[0], other = same;
    other.result.winner = 1 - same.result.winner;
    struct hub_submission probe = {.event_id = "gt",
                                   .round = 1,
                                   .table = 1,
                                   .device_id = "table-1",
                                   .idem_key = "k1",
                                   .confirmed = true,
                                   .ev = &ev,
                                   .result = &same};
    OK(hub_store_get_submission(s, "table-1", "k1", &probe, &b, &diag));
    assert_int_equal(count_log(s, NULL, "duplicate.key_reused"), 0);
    probe.result = &other;
    OK(hub_store_get_submission(s, "table-1", "k1", &probe, &b, &diag));
    assert_int_equal(b.first, HUB_SUBMIT_ACCEPTED);
    assert_int_equal(b.result_id, a.result_id);
    assert_int_equal(count_log(s, NULL, "duplicate.key_reused"), 1);
    tny_event_release(&ev);
    /* A key is recorded once: a second record is an error, not an answer. */
    assert_int_equal(
        record_accepted(s, "gt", 1, 1, "table-1", "k1", win_a, &b, &diag),
        TNY_ECONFLICT);
    /* The same result under a new key: no new row, it points at the
     * counted one. */
    OK(record_json(s, NULL, "gt", 1, 1, "table-1", "k2", win_a, true,
                   HUB_SUBMIT_ACCEPTED, true, &b, &diag));
    assert_int_equal(b.kind, HUB_SUBMIT_ACCEPTED);
    assert_int_equal(b.result_id, a.result_id);
    /* A conflict: stored flagged, the original kept. */
    OK(record_json(s, NULL, "gt", 1, 1, "table-1", "k3", win_b, true,
                   HUB_SUBMIT_CONFLICT, false, &c, &diag));
    assert_int_equal(c.kind, HUB_SUBMIT_CONFLICT);
    assert_int_equal(c.reason, HUB_REASON_ALREADY_CONFIRMED);
    assert_true(c.result_id > a.result_id);
    assert_int_equal(count_log(s, "gt", "submit.conflict"), 1);
    OK(hub_store_load_event(s, "gt", &ev, &diag));
    assert_true(ev.rounds[0].tables[0].has_result);
    assert_int_equal(ev.rounds[0].tables[0].result.winner, 0);
    tny_event_release(&ev);
    struct hub_round_info ri;
    OK(hub_store_get_round(s, "gt", 1, &ri, &diag));
    assert_int_equal(ri.n_conflicts, 1);
    assert_int_equal(ri.status, HUB_ROUND_STARTED);

    /* A rejection is recorded with its reason code and text, no row. */
    OK(record_json(s, NULL, "gt", 1, 2, "table-2", "k4", NULL, true,
                   HUB_SUBMIT_REJECTED, false, &b, &diag));
    assert_int_equal(b.kind, HUB_SUBMIT_REJECTED);
    assert_int_equal(b.result_id, 0);
    OK(hub_store_get_submission(s, "table-2", "k4", NULL, &b, &diag));
    assert_int_equal(b.first, HUB_SUBMIT_REJECTED);
    assert_int_equal(b.reason, HUB_REASON_INVALID_RESULT);
    assert_string_equal(b.reason_text, "result.winner: refused");
    assert_string_equal(hub_submit_reason_name(b.reason), "invalid_result");
    /* A target that does not exist, and bad keys: errors, nothing stored. */
    struct hub_submission nowhere = {.event_id = "gt",
                                     .round = 1,
                                     .table = 9,
                                     .device_id = "table-2",
                                     .idem_key = "k6",
                                     .confirmed = true,
                                     .kind = HUB_SUBMIT_ACCEPTED,
                                     .ev = &mirror,
                                     .result = t1};
    OK(hub_store_record_submissions(s, 1, &nowhere, &b, &diag));
    assert_int_equal(b.rc, TNY_ENOTFOUND);
    assert_non_null(strstr(b.reason_text, "9"));
    assert_int_equal(
        hub_store_get_submission(s, "table-2", "k6", NULL, &b, &diag),
        TNY_ENOTFOUND);
    assert_int_equal(
        record_accepted(s, "gt", 1, 1, "table-1", "bad key", win_a, &b, &diag),
        TNY_EINVAL);

    /* Closing needs the conflict resolved and every result (CM-6). */
    assert_int_equal(hub_store_set_round_status(s, "gt", 1, HUB_ROUND_CLOSED,
                                                "organiser:anna", &diag),
                     TNY_ESTATE);
    /* The organiser corrects: a new row, the old one superseded. */
    int64_t corrected;
    OK(enter_json(s, "gt", 1, 1, win_b, &corrected, &diag));
    struct hub_result_row *rows;
    int32_t n;
    OK(hub_store_list_results(s, "gt", 1, 1, &rows, &n, &diag));
    assert_int_equal(n, 3);
    assert_int_equal(rows[0].id, a.result_id);
    assert_int_equal(rows[0].superseded_by, corrected);
    assert_int_equal(rows[1].status, HUB_RESULT_CONFLICT);
    assert_true(rows[1].resolved);
    assert_int_equal(rows[2].id, corrected);
    assert_false(rows[2].from_device);
    assert_int_equal(rows[2].superseded_by, 0);
    /* Table 0: the whole round in one listing, by table, oldest first. */
    struct hub_result_row *all;
    int32_t n_all, k = 0;
    OK(hub_store_list_results(s, "gt", 1, 0, &all, &n_all, &diag));
    assert_true(n_all >= n);
    for (int32_t i = 0; i < n_all; i++) {
        assert_true(i == 0 || all[i - 1].table <= all[i].table);
        if (all[i].table == 1) {
            assert_true(k < n);
            assert_int_equal(all[i].id, rows[k].id);
            assert_int_equal(all[i].status, rows[k].status);
            k++;
        }
    }
    assert_int_equal(k, n);
    hub_result_rows_free(all, n_all);
    hub_result_rows_free(rows, n);
    assert_int_equal(count_log(s, "gt", "result.correct"), 1);
    OK(hub_store_load_event(s, "gt", &ev, &diag));
    assert_int_equal(ev.rounds[0].tables[0].result.winner, 1);
    tny_event_release(&ev);

    /* An unconfirmed result is stored but not counted. */
    const struct tny_table *t2 = &mirror.rounds[0].tables[1];
    char win_c[64];
    snprintf(win_c, sizeof(win_c), "{\"winner\": \"%s\"}",
             mirror.players[t2->seats[0]].id);
    OK(record_json(s, NULL, "gt", 1, 2, "table-2", "k7", win_c, false,
                   HUB_SUBMIT_ACCEPTED, false, &b, &diag));
    assert_int_equal(b.kind, HUB_SUBMIT_ACCEPTED);
    assert_false(b.counted);
    assert_int_equal(b.reason, HUB_REASON_UNCONFIRMED);
    assert_int_equal(hub_store_set_round_status(s, "gt", 1, HUB_ROUND_CLOSED,
                                                "organiser:anna", &diag),
                     TNY_ESTATE);
    assert_non_null(strstr(diag.msg, "table 2"));
    OK(record_accepted(s, "gt", 1, 2, "table-2", "k8", win_c, &b, &diag));
    assert_int_equal(b.kind, HUB_SUBMIT_ACCEPTED);
    assert_true(b.counted);
    OK(hub_store_set_round_status(s, "gt", 1, HUB_ROUND_CLOSED,
                                  "organiser:anna", &diag));
    OK(hub_store_check(s, &diag));
    tny_event_release(&mirror);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Group commit: one transaction for a mix of decisions, a failing item
 * rolled back alone. */
static void test_CM_6_batch_submit_mixed_outcomes(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror, ev;
    struct hub_submit_outcome out[6], again;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("got-lcg2", "{}", 6, 5);
    OK(hub_store_create_event(s, "gb", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, 3);
    next_round(s, "gb", &mirror);
    OK(hub_store_load_event(s, "gb", &ev, &diag));
    /* Table 3 already has a counted result before the batch. */
    char win[64];
    snprintf(win, sizeof(win), "{\"winner\": \"%s\"}",
             mirror.players[mirror.rounds[0].tables[2].seats[0]].id);
    OK(record_accepted(s, "gb", 1, 3, "table-3", "p1", win, &again, &diag));
    int64_t t3_id = again.result_id;
    struct tny_table tb[3][2];
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 2; k++) {
            tb[t][k] = ev.rounds[0].tables[t];
            memset(&tb[t][k].result, 0, sizeof(tb[t][k].result));
            tb[t][k].result.winner = k;
            tb[t][k].result.default_winner = -1;
            for (int i = 0; i < TNY_MAX_SEATS; i++)
                tb[t][k].result.army[i] = -1;
            tb[t][k].has_result = true;
        }
#define SUB(T, DEV, KEY, KIND, R)                                              \
    {                                                                          \
        .event_id = "gb", .round = 1, .table = T, .device_id = DEV,            \
        .idem_key = KEY, .confirmed = true, .kind = KIND, .reason_text = "",   \
        .ev = &ev, .result = R                                                 \
    }
    struct hub_submission q[6] = {
        /* 0: accepted */
        SUB(1, "table-1", "b1", HUB_SUBMIT_ACCEPTED, &tb[0][0]),
        /* 1: the same key again: a record error, rolled back alone */
        SUB(1, "table-1", "b1", HUB_SUBMIT_ACCEPTED, &tb[0][0]),
        /* 2: a conflict on table 1 */
        SUB(1, "table-1", "b2", HUB_SUBMIT_CONFLICT, &tb[0][1]),
        /* 3: bad key: an item error, rolled back alone */
        SUB(2, "table-2", "bad key", HUB_SUBMIT_ACCEPTED, &tb[1][0]),
        /* 4: accepted on table 2 after the failed item */
        SUB(2, "table-2", "b5", HUB_SUBMIT_ACCEPTED, &tb[1][1]),
        /* 5: a conflict with the result stored before the batch */
        SUB(3, "table-3", "b6", HUB_SUBMIT_CONFLICT, &tb[2][1]),
    };
#undef SUB
    q[2].reason = q[5].reason = HUB_REASON_ALREADY_CONFIRMED;
    OK(hub_store_record_submissions(s, 6, q, out, &diag));
    assert_int_equal(out[0].rc, 0);
    assert_int_equal(out[0].kind, HUB_SUBMIT_ACCEPTED);
    assert_int_equal(out[1].rc, TNY_ECONFLICT);
    assert_int_equal(out[2].kind, HUB_SUBMIT_CONFLICT);
    assert_int_equal(out[3].rc, TNY_EINVAL);
    assert_int_equal(out[4].rc, 0);
    assert_int_equal(out[4].kind, HUB_SUBMIT_ACCEPTED);
    assert_int_equal(out[5].kind, HUB_SUBMIT_CONFLICT);
    /* Everything but the failed items is stored, answered as recorded. */
    for (int i = 0; i < 6; i++) {
        if (i == 1 || i == 3)
            continue;
        OK(hub_store_get_submission(s, q[i].device_id, q[i].idem_key, NULL,
                                    &again, &diag));
        assert_int_equal(again.first, out[i].kind);
        assert_int_equal(again.result_id, out[i].result_id);
        assert_int_equal(again.reason, out[i].reason);
    }
    assert_int_equal(
        hub_store_get_submission(s, "table-2", "bad key", NULL, &again, &diag),
        TNY_EINVAL);
    assert_int_equal(count_log(s, "gb", "submit.accepted"), 3);
    assert_int_equal(count_log(s, "gb", "submit.conflict"), 2);
    /* Counted: item 0 on table 1, item 4 on table 2, the original on 3. */
    tny_event_release(&ev);
    OK(hub_store_load_event(s, "gb", &ev, &diag));
    assert_int_equal(ev.rounds[0].tables[0].result.winner, 0);
    assert_int_equal(ev.rounds[0].tables[1].result.winner, 1);
    assert_int_equal(ev.rounds[0].tables[2].result.winner, 0);
    tny_event_release(&ev);
    struct hub_round_info ri;
    OK(hub_store_get_round(s, "gb", 1, &ri, &diag));
    assert_int_equal(ri.n_results, 3);
    assert_int_equal(ri.n_conflicts, 2);
    assert_true(out[5].result_id != t3_id);
    OK(hub_store_check(s, &diag));
    /* An empty batch is a no-op. */
    OK(hub_store_record_submissions(s, 0, q, out + 0, &diag));
    tny_event_release(&mirror);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* ---- players, drafts, penalties, devices, clocks ----------------------- */

/* Issue 17 item 1 ("loading from the store happens at start-up and after
 * a restore, not per command"), issue 18 item 4 (no rule in the store):
 * a player change, a player's edit and withdrawal, an unpublish and a
 * reopen write their rows without reading the event back from them.  The stored
 * header is made unreadable behind the store's back: reading the event back (as
 * each of these did before: hs_validate_event) fails on it, the writes do not.
 */
static void test_player_changes_read_no_event_back(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    sqlite3 *raw = NULL;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("catan", "{}", 8, 2);
    struct tny_event mirror;
    struct tny_rng rng;
    int32_t discarded = 0;
    OK(hub_store_create_event(s, "rb", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    free(text);
    /* Round 1 played and closed, round 2 paired and started. */
    tny_rng_seed(&rng, 5);
    register_devices(s, 4);
    next_round(s, "rb", &mirror);
    play_round(s, "rb", &mirror, &rng);
    next_round(s, "rb", &mirror);
    tny_event_release(&mirror);
    assert_int_equal(sqlite3_open(db.path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw,
                                  "UPDATE events SET header_json = '{' "
                                  "WHERE name = 'rb'",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(raw);
    /* A read of the event does fail on it. */
    assert_int_equal(hub_store_load_event(s, "rb", &ev, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "stored event header"));
    struct tny_format catan = {.name = "catan"};
    struct tny_player late[2] = {{.id = "p9", .name = "Late"},
                                 {.id = "p10", .name = "Later"}};
    static const char *const armies[] = {"Borgo"};
    memset(&diag, 0, sizeof(diag));
    OK(hub_store_put_players(s, "rb", &catan, late, 2, 0, "organiser:anna",
                             &diag));
    OK(hub_store_drop_player(s, "rb", "p3", 1, 0, "organiser:anna", &diag));
    OK(hub_store_rejoin_player(s, "rb", "p3", 3, 0, "organiser:anna", &diag));
    OK(hub_store_disqualify_player(s, "rb", "p4", 1, 0, "organiser:anna",
                                   &diag));
    OK(hub_store_fix_player_table(s, "rb", "p5", 2, NULL, "organiser:anna",
                                  &diag));
    OK(hub_store_declare_armies(s, "rb", "p6", armies, 1, "organiser:anna",
                                &diag));
    assert_int_equal(count_log(s, "rb", "player.put"), 2);
    assert_int_equal(count_log(s, "rb", "player.drop"), 1);
    assert_int_equal(count_log(s, "rb", "player.rejoin"), 1);
    assert_int_equal(count_log(s, "rb", "player.disqualify"), 1);
    assert_int_equal(count_log(s, "rb", "player.fix"), 1);
    assert_int_equal(count_log(s, "rb", "player.declare"), 1);
    /* The corrections too (store_correct.c): a player's texts, round 2
     * back to a draft, round 1 reopened (the draft goes with it). */
    OK(hub_store_edit_player(s, "rb", "p7", "Seven", "Club", NULL,
                             "organiser:anna", &diag));
    OK(hub_store_unpublish_round(s, "rb", 2, "organiser:anna", &diag));
    OK(hub_store_reopen_round(s, "rb", 1, "organiser:anna", &discarded, &diag));
    assert_int_equal(discarded, 2);
    OK(hub_store_withdraw_player(s, "rb", "p10", "organiser:anna", &discarded,
                                 &diag));
    assert_int_equal(count_log(s, "rb", "player.withdraw"), 1);
    assert_int_equal(count_log(s, "rb", "player.edit"), 1);
    assert_int_equal(count_log(s, "rb", "round.unpublish"), 1);
    assert_int_equal(count_log(s, "rb", "round.reopen"), 1);
    hub_store_close(s);
    tmpdb_remove(&db);
}

static void test_CM_2_CM_3_CM_5_TX_7_organiser_actions(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev, mirror;
    struct tny_round_plan plan;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("tantrix", "{\"swiss_rounds\": 4}", 8, 11);
    OK(hub_store_create_event(s, "tx", text, strlen(text), "organiser:anna",
                              &diag));
    assert_int_equal(hub_store_create_event(s, "tx", text, strlen(text),
                                            "organiser:anna", &diag),
                     TNY_ECONFLICT);
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    /* CM-1: a late registration, then an update of the same player. */
    const char *late = "{\"id\": \"p9\", \"name\": \"Late\", \"club\": \"X\"}";
    OK(put_player_json(s, "tx", late, &diag));
    const char *late2 = "{\"id\": \"p9\", \"name\": \"Late Comer\"}";
    OK(put_player_json(s, "tx", late2, &diag));
    /* The store keeps its keys sound: an army index the format has not
     * (tantrix has no army list) is refused, nothing written. */
    struct tny_format no_armies = {.name = "tantrix"};
    struct tny_player bad = {.id = "p10", .name = "B", .n_armies = 1};
    assert_int_equal(hub_store_put_player(s, "tx", &no_armies, &bad,
                                          "organiser:anna", &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "armies"));
    int32_t idx;
    OK(tny_event_add_player(&mirror, "p9", "Late Comer", &idx));
    /* CM-3 and CM-2 before pairing (who may rejoin is the service's rule,
     * issue 18: test_service's test_CM_3_lifecycle_decided_on_the_model). */
    OK(hub_store_disqualify_player(s, "tx", "p2", 1, 0, "organiser:anna",
                                   &diag));
    OK(hub_store_drop_player(s, "tx", "p3", 1, 0, "organiser:anna", &diag));
    OK(hub_store_rejoin_player(s, "tx", "p3", 3, 0, "organiser:anna", &diag));
    /* GT-11's refusal of a rejoin outside the stage is the service's,
     * checked on its model (issue 17 item 1: test_service's
     * test_GT_11_rejoin_refused_on_the_model). */
    mirror.players[1].dq_after = 1;
    mirror.players[2].dropped_after = 1;
    mirror.players[2].rejoined_from = 3;

    /* CM-5 draft edits: swap, move, fix, all with the engine's edits. */
    OK(hub_store_load_event(s, "tx", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "tx", &ev, &plan, "hub", &diag));
    int32_t a = plan.tables[0].seats[0], b = plan.tables[1].seats[1];
    /* Issue 18: the service decides and edits (the engine's swap and
     * move); the store keeps the edited tables and logs the edit. */
    struct hub_round_edit sw = {
        .swap = true, .a = ev.players[a].id, .b = ev.players[b].id};
    struct hub_round_edit mv = {.from = 1, .to = 7};
    OK(tny_round_plan_swap(&plan, a, b, &diag));
    OK(hub_store_save_round_edit(s, "tx", 1, &plan, &sw, "organiser:anna",
                                 &diag));
    OK(tny_round_plan_move(&plan, 1, 7, &diag));
    OK(hub_store_save_round_edit(s, "tx", 1, &plan, &mv, "organiser:anna",
                                 &diag));
    assert_int_equal(count_log(s, "tx", "draft.swap"), 1);
    assert_int_equal(count_log(s, "tx", "draft.move"), 1);
    int32_t fixed = plan.tables[1].seats[0];
    OK(tny_round_plan_move(&plan, plan.tables[1].number, 12, &diag));
    OK(hub_store_fix_player_table(s, "tx", ev.players[fixed].id, 12, &plan,
                                  "organiser:anna", &diag));
    mirror.players[fixed].fixed_table = 12;
    struct tny_round_plan back;
    OK(hub_store_load_draft(s, "tx", &ev, &back, &diag));
    assert_int_equal(back.n_tables, plan.n_tables);
    /* The same tables, loaded in number order (CM-9; byes last) whatever
     * the order the moves left them in. */
    for (int32_t t = 0; t < plan.n_tables; t++) {
        int32_t k = 0;
        while (k < back.n_tables &&
               (back.tables[k].number != plan.tables[t].number ||
                back.tables[k].is_bye != plan.tables[t].is_bye ||
                back.tables[k].seats[0] != plan.tables[t].seats[0]))
            k++;
        assert_true(k < back.n_tables);
        assert_memory_equal(back.tables[k].seats, plan.tables[t].seats,
                            sizeof(int32_t) * (size_t)plan.tables[t].n_seats);
        if (t > 0 && !back.tables[t].is_bye)
            assert_true(back.tables[t - 1].number < back.tables[t].number);
    }
    tny_round_plan_release(&back);
    /* Drafts are not the event: standings and pairing unaffected. */
    struct tny_event ev2;
    OK(hub_store_load_event(s, "tx", &ev2, &diag));
    assert_int_equal(ev2.n_rounds, 0);
    tny_event_release(&ev2);
    /* Discard and save again works; a second plan for round 2 does not. */
    OK(hub_store_discard_draft(s, "tx", 1, "organiser:anna", &diag));
    OK(hub_store_save_draft(s, "tx", &ev, &plan, "hub", &diag));
    plan.round = 2;
    assert_int_equal(hub_store_save_draft(s, "tx", &ev, &plan, "hub", &diag),
                     TNY_EINVAL);
    plan.round = 1;
    assert_int_equal(hub_store_set_round_status(s, "tx", 1, HUB_ROUND_CLOSED,
                                                "organiser:anna", &diag),
                     TNY_ESTATE);
    OK(hub_store_set_round_status(s, "tx", 1, HUB_ROUND_PUBLISHED,
                                  "organiser:anna", &diag));
    /* A published round's plan reads back as it was stored, and an edit
     * of it (the service decides when one is allowed: CM-5,
     * test_service) is kept (and back). */
    {
        struct tny_round_plan pub;
        struct hub_round_edit there = {.from = 7, .to = 1};
        struct hub_round_edit back_again = {.from = 1, .to = 7};
        OK(hub_store_load_round_plan(s, "tx", 1, &ev, &pub, &diag));
        assert_int_equal(pub.n_tables, plan.n_tables);
        OK(tny_round_plan_move(&pub, 7, 1, &diag));
        OK(hub_store_save_round_edit(s, "tx", 1, &pub, &there, "organiser:anna",
                                     &diag));
        OK(tny_round_plan_move(&pub, 1, 7, &diag));
        OK(hub_store_save_round_edit(s, "tx", 1, &pub, &back_again,
                                     "organiser:anna", &diag));
        tny_round_plan_release(&pub);
        assert_int_equal(
            hub_store_load_round_plan(s, "tx", 9, &ev, &pub, &diag),
            TNY_ENOTFOUND);
    }
    OK(hub_store_set_round_status(s, "tx", 1, HUB_ROUND_STARTED,
                                  "organiser:anna", &diag));
    /* The store keeps a round's tables in number order (CM-9), byes
     * last, whatever order the moves left the plan in. */
    qsort(plan.tables, (size_t)plan.n_tables, sizeof(plan.tables[0]),
          cmp_table_number);
    OK(tny_event_append_round(&mirror, &plan));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);

    /* Results by the organiser, then a TX-7 penalty on table 7. */
    struct tny_rng rng;
    tny_rng_seed(&rng, 3);
    struct tny_round *round = &mirror.rounds[0];
    for (int32_t t = 0; t < round->n_tables; t++)
        if (!round->tables[t].is_bye)
            OK(tny_simulate_result(&mirror, 0, round->stage, &round->tables[t],
                                   &rng, &diag));
    char **res = round_results(&mirror, 0);
    for (int32_t t = 0; t < round->n_tables; t++)
        if (res[t])
            OK(enter_json(s, "tx", 1, round->tables[t].number, res[t], NULL,
                          &diag));
    free_results(res, round->n_tables);
    assert_int_equal(hub_store_add_penalty(s, "tx", 1, 7, NULL, 0, "late",
                                           "organiser:anna", &diag),
                     TNY_EINVAL);
    OK(hub_store_add_penalty(s, "tx", 1, 7, NULL, TNY_POINT_SCALE,
                             "result 20 minutes late", "organiser:anna",
                             &diag));
    int32_t t7 = -1;
    for (int32_t t = 0; t < round->n_tables; t++)
        if (round->tables[t].number == 7)
            t7 = t;
    assert_true(t7 >= 0);
    for (int32_t k = 0; k < round->tables[t7].n_seats; k++)
        round->tables[t7].result.penalty[k] += TNY_POINT_SCALE;
    OK(hub_store_set_round_status(s, "tx", 1, HUB_ROUND_CLOSED,
                                  "organiser:anna", &diag));
    assert_same_event(s, "tx", &mirror);

    /* Devices and clocks. */
    OK(hub_store_device_register(s, "pi-01", "organiser:anna", &diag));
    OK(hub_store_device_register(s, "pi-02", "organiser:anna", &diag));
    OK(hub_store_device_assign(s, "pi-01", "tx", 3, "organiser:anna", &diag));
    assert_int_equal(
        hub_store_device_assign(s, "pi-02", "tx", 3, "organiser:anna", &diag),
        TNY_ECONFLICT);
    OK(hub_store_device_presence(s, "pi-01", HUB_PRESENCE_ONLINE, 1000, &diag));
    OK(hub_store_device_presence(s, "pi-01", HUB_PRESENCE_ONLINE, 2000, &diag));
    struct hub_device_info dev;
    OK(hub_store_get_device(s, "pi-01", &dev, &diag));
    assert_string_equal(dev.event, "tx");
    assert_int_equal(dev.table, 3);
    assert_int_equal(dev.presence, HUB_PRESENCE_ONLINE);
    assert_int_equal(dev.last_seen_ms, 2000);
    assert_int_equal(count_log(s, NULL, "device.presence"), 1);
    struct tny_round_clock clk, got;
    OK(tny_round_clock_init(&clk, 40 * 60000, &diag));
    OK(tny_round_clock_start(&clk, 1700000000000, &diag));
    OK(hub_store_save_clock(s, "tx", 1, &clk, "hub", &diag));
    OK(hub_store_load_clock(s, "tx", 1, &got, &diag));
    /* field by field: the struct has padding after state */
    assert_int_equal(got.state, clk.state);
    assert_int_equal(got.length_ms, clk.length_ms);
    assert_int_equal(got.extension_ms, clk.extension_ms);
    assert_int_equal(got.deadline_ms, clk.deadline_ms);
    assert_int_equal(got.remaining_ms, clk.remaining_ms);
    int64_t total;
    OK(hub_store_extend_table(s, "tx", 1, 7, 60000, "organiser:anna", &total,
                              &diag));
    OK(hub_store_extend_table(s, "tx", 1, 7, 30000, "organiser:anna", &total,
                              &diag));
    assert_int_equal(total, 90000);
    /* AG-14: a negative delay is refused and writes nothing; whether the
     * round is in play is the service's rule (issue 18), the store
     * records what it is given, in its own table: read back without the
     * log, the table's later start replacing the earlier one. */
    assert_int_equal(
        hub_store_draft_start(s, "tx", 1, 7, -5, "device:pi-01", &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "delay -5 ms out of range"));
    assert_int_equal(count_log(s, NULL, "clock.draft_start"), 0);
    struct hub_draft_start *ds = NULL;
    int32_t n_ds = 0;
    OK(hub_store_draft_starts(s, "tx", &ds, &n_ds, &diag));
    assert_int_equal(n_ds, 0);
    free(ds);
    OK(hub_store_draft_start(s, "tx", 1, 7, 1000, "device:pi-01", &diag));
    OK(hub_store_draft_start(s, "tx", 1, 3, 2500, "device:pi-01", &diag));
    OK(hub_store_draft_start(s, "tx", 1, 7, 1200, "organiser:anna", &diag));
    assert_int_equal(
        hub_store_draft_start(s, "tx", 1, 99, 1000, "device:pi-01", &diag),
        TNY_ENOTFOUND);
    OK(hub_store_draft_starts(s, "tx", &ds, &n_ds, &diag));
    assert_int_equal(n_ds, 2);
    assert_int_equal(ds[0].round, 1);
    assert_int_equal(ds[0].table, 3);
    assert_int_equal(ds[0].start_delay_ms, 2500);
    assert_int_equal(ds[1].table, 7);
    assert_int_equal(ds[1].start_delay_ms, 1200);
    free(ds);
    assert_int_equal(count_log(s, NULL, "clock.draft_start"), 3);
    /* Issue 18: the devices, listed from their table in the order of
     * registration. */
    struct hub_device_info *devs = NULL;
    int32_t n_devs = 0;
    OK(hub_store_list_devices(s, &devs, &n_devs, &diag));
    assert_int_equal(n_devs, 2);
    assert_string_equal(devs[0].id, "pi-01");
    assert_string_equal(devs[0].event, "tx");
    assert_int_equal(devs[0].table, 3);
    assert_int_equal(devs[0].presence, HUB_PRESENCE_ONLINE);
    assert_string_equal(devs[1].id, "pi-02");
    assert_string_equal(devs[1].event, "");
    free(devs);
    OK(hub_store_set_event_status(s, "tx", HUB_EVENT_FINISHED, "organiser:anna",
                                  &diag));
    struct hub_event_info *list;
    int32_t n;
    OK(hub_store_list_events(s, &list, &n, &diag));
    assert_int_equal(n, 1);
    assert_int_equal(list[0].status, HUB_EVENT_FINISHED);
    free(list);
    OK(hub_store_check(s, &diag));
    tny_event_release(&mirror);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* CM-5 publish + CM-7 clock: hub_store_publish_round publishes the draft
 * and stores its clock together (both log rows, next to each other); a
 * refused publish or a bad clock writes neither. */
static void test_CM_5_CM_7_publish_round_with_clock(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct tny_round_plan plan;
    struct tny_round_clock clk, bad, got;
    struct hub_round_info info;
    struct hub_event_info einfo;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("catan", "{}", 8, 11);
    OK(hub_store_create_event(s, "pc", text, strlen(text), "organiser:anna",
                              &diag));
    OK(hub_store_load_event(s, "pc", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "pc", &ev, &plan, "hub", &diag));
    OK(tny_round_clock_init(&clk, 50 * 60000, &diag));
    bad = clk;
    bad.length_ms = -1;

    /* A bad clock: nothing written, the round stays a draft. */
    assert_int_equal(
        hub_store_publish_round(s, "pc", 1, &bad, "organiser:anna", &diag),
        TNY_EINVAL);
    /* Not a round of the event. */
    assert_int_equal(
        hub_store_publish_round(s, "pc", 2, &clk, "organiser:anna", &diag),
        TNY_ENOTFOUND);
    OK(hub_store_get_round(s, "pc", 1, &info, &diag));
    assert_int_equal(info.status, HUB_ROUND_DRAFT);
    assert_int_equal(hub_store_load_clock(s, "pc", 1, &got, &diag),
                     TNY_ENOTFOUND);
    assert_int_equal(count_log(s, "pc", "round.publish"), 0);
    assert_int_equal(count_log(s, "pc", "clock.save"), 0);

    OK(hub_store_publish_round(s, "pc", 1, &clk, "organiser:anna", &diag));
    OK(hub_store_get_round(s, "pc", 1, &info, &diag));
    assert_int_equal(info.status, HUB_ROUND_PUBLISHED);
    OK(hub_store_get_event(s, "pc", &einfo, &diag));
    assert_int_equal(einfo.status, HUB_EVENT_RUNNING);
    OK(hub_store_load_clock(s, "pc", 1, &got, &diag));
    assert_int_equal(got.state, TNY_ROUND_CLOCK_READY);
    assert_int_equal(got.length_ms, 50 * 60000);
    struct hub_log_entry *e = NULL;
    int32_t n = 0, publish_at = -1, clock_at = -1;
    OK(hub_store_read_log(s, "pc", 0, 1000, &e, &n, &diag));
    for (int32_t i = 0; i < n; i++) {
        if (!strcmp(e[i].kind, "round.publish"))
            publish_at = i;
        if (!strcmp(e[i].kind, "clock.save"))
            clock_at = i;
    }
    assert_true(publish_at >= 0);
    assert_int_equal(clock_at, publish_at + 1);
    assert_int_equal(e[clock_at].seq, e[publish_at].seq + 1);
    hub_log_entries_free(e, n);

    /* Publishing again is refused (CM-5) and leaves the stored clock. */
    struct tny_round_clock other = clk;
    other.length_ms = 10 * 60000;
    assert_int_equal(
        hub_store_publish_round(s, "pc", 1, &other, "organiser:anna", &diag),
        TNY_ESTATE);
    OK(hub_store_load_clock(s, "pc", 1, &got, &diag));
    assert_int_equal(got.length_ms, 50 * 60000);
    assert_int_equal(count_log(s, "pc", "clock.save"), 1);
    OK(hub_store_check(s, &diag));

    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* ---- migrations -------------------------------------------------------- */

static char *export_of(struct hub_store *s, const char *event);

/* Issue 8 corrections: unpublish, reopen (CM-5: refused under a later
 * published round, a later draft discarded), edit, keep the counted
 * result of a conflict, the reason in the log, the audit in the export,
 * a draft a drop invalidates deleted in the same transaction. */
static void test_CM_5_CM_6_corrections(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror, ev;
    struct tny_round_plan plan;
    struct tny_round_clock clk;
    struct hub_round_info info;
    struct hub_event_info einfo;
    struct tny_rng rng;
    int32_t discarded = -1, resolved = 0;
    tny_rng_seed(&rng, 5);
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("neuroshima-hex", "{\"swiss_rounds\": 3}", 8, 3);
    OK(hub_store_create_event(s, "co", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, 4);

    /* Unpublish: back to a draft, the event to setup; once started, no. */
    OK(hub_store_load_event(s, "co", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "co", &ev, &plan, "hub", &diag));
    OK(tny_round_clock_init(&clk, 50 * 60000, &diag));
    OK(hub_store_publish_round(s, "co", 1, &clk, "organiser:anna", &diag));
    OK(hub_store_set_reason(s, "wrong plan"));
    OK(hub_store_unpublish_round(s, "co", 1, "organiser:anna", &diag));
    OK(hub_store_set_reason(s, NULL));
    OK(hub_store_get_round(s, "co", 1, &info, &diag));
    assert_int_equal(info.status, HUB_ROUND_DRAFT);
    OK(hub_store_get_event(s, "co", &einfo, &diag));
    assert_int_equal(einfo.status, HUB_EVENT_SETUP);
    assert_int_equal(hub_store_load_clock(s, "co", 1, &clk, &diag),
                     TNY_ENOTFOUND);
    /* Which round may be unpublished or reopened is the service's rule
     * (issue 18: test_service's test_issue18_round_moves_decided_on_the_
     * model); the store answers whether a table has an entry. */
    int32_t entry = -1;
    char who[96];
    OK(hub_store_round_entry(s, "co", 1, &entry, who, sizeof(who), &diag));
    assert_int_equal(entry, 0);
    assert_int_equal(
        hub_store_round_entry(s, "co", 7, &entry, who, sizeof(who), &diag),
        TNY_ENOTFOUND);
    OK(hub_store_discard_draft(s, "co", 1, "organiser:anna", &diag));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    next_round(s, "co", &mirror);
    play_round(s, "co", &mirror, &rng);
    OK(hub_store_round_entry(s, "co", 1, &entry, who, sizeof(who), &diag));
    assert_true(entry >= 1);
    assert_true(who[0] != '\0');

    /* Rename and club: the projection has them, the log the old values. */
    OK(hub_store_edit_player(s, "co", "p2",
                             "J\xc5\x99\xc3\xad \xc5\xa0"
                             "ebesta",
                             "Brno", NULL, "organiser:anna", &diag));
    OK(hub_store_load_event(s, "co", &ev, &diag));
    assert_string_equal(ev.players[1].name, "J\xc5\x99\xc3\xad \xc5\xa0"
                                            "ebesta");
    assert_string_equal(ev.players[1].club, "Brno");
    tny_event_release(&ev);
    assert_int_equal(hub_store_edit_player(s, "co", "p2", "", NULL, NULL,
                                           "organiser:anna", &diag),
                     TNY_EINVAL);
    assert_int_equal(hub_store_edit_player(s, "co", "zz", "X", NULL, NULL,
                                           "organiser:anna", &diag),
                     TNY_ENOTFOUND);

    /* Reopen with the next round a draft: the draft goes. */
    OK(hub_store_load_event(s, "co", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "co", &ev, &plan, "hub", &diag));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    OK(hub_store_reopen_round(s, "co", 1, "organiser:anna", &discarded, &diag));
    assert_int_equal(discarded, 2);
    OK(hub_store_get_round(s, "co", 1, &info, &diag));
    assert_int_equal(info.status, HUB_ROUND_STARTED);
    assert_int_equal(hub_store_get_round(s, "co", 2, &info, &diag),
                     TNY_ENOTFOUND);
    /* A conflict at table 1, the counted result kept. */
    struct hub_result_row *rows = NULL;
    int32_t n = 0;
    OK(hub_store_list_results(s, "co", 1, 1, &rows, &n, &diag));
    assert_int_equal(n, 1);
    int64_t counted = rows[0].id;
    hub_result_rows_free(rows, n);
    /* NH: a draw differs from every played result of the simulation
     * unless it drew; then a win for the first seat. */
    const struct tny_table *t1 = &mirror.rounds[0].tables[0];
    char other[160];
    if (t1->result.draw)
        snprintf(other, sizeof other, "{\"winner\": \"%s\", \"hq_diff\": 4}",
                 mirror.players[t1->seats[0]].id);
    else
        snprintf(other, sizeof other, "{\"draw\": true}");
    struct hub_submit_outcome out;
    OK(record_json(s, NULL, "co", 1, 1, "table-1", "late-1", other, true,
                   HUB_SUBMIT_CONFLICT, false, &out, &diag));
    assert_int_equal(out.kind, HUB_SUBMIT_CONFLICT);
    assert_int_equal(hub_store_keep_counted(s, "co", 1, 1, counted + 1000,
                                            "organiser:anna", NULL, &diag),
                     TNY_ENOTFOUND);
    OK(hub_store_set_reason(s, "the slip agrees"));
    OK(hub_store_keep_counted(s, "co", 1, 1, counted, "organiser:anna",
                              &resolved, &diag));
    OK(hub_store_set_reason(s, NULL));
    assert_int_equal(resolved, 1);
    assert_int_equal(hub_store_keep_counted(s, "co", 1, 1, counted,
                                            "organiser:anna", NULL, &diag),
                     TNY_ESTATE);
    OK(hub_store_set_round_status(s, "co", 1, HUB_ROUND_CLOSED,
                                  "organiser:anna", &diag));
    next_round(s, "co", &mirror);
    play_round(s, "co", &mirror, &rng);

    /* A drop that invalidates the draft of round 3 deletes it with it. */
    OK(hub_store_load_event(s, "co", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "co", &ev, &plan, "hub", &diag));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    /* Issue 17 item 1: the service found it invalid on its model and
     * names it; a draft that is not stored is refused, nothing written. */
    assert_int_equal(
        hub_store_drop_player(s, "co", "p5", 2, 4, "organiser:anna", &diag),
        TNY_ENOTFOUND);
    assert_non_null(strstr(diag.msg, "no draft of round 4"));
    OK(hub_store_get_round(s, "co", 3, &info, &diag));
    OK(hub_store_drop_player(s, "co", "p5", 2, 3, "organiser:anna", &diag));
    assert_int_equal(hub_store_get_round(s, "co", 3, &info, &diag),
                     TNY_ENOTFOUND);

    /* The reasons are in the log and in the export's x_audit. */
    struct hub_log_entry *log = NULL;
    int32_t nl = 0;
    bool unpub = false, keep = false;
    OK(hub_store_read_log(s, "co", 0, 1000, &log, &nl, &diag));
    for (int32_t i = 0; i < nl; i++) {
        unpub |= !strcmp(log[i].kind, "round.unpublish") &&
                 strstr(log[i].detail, "\"reason\":\"wrong plan\"");
        keep |= !strcmp(log[i].kind, "conflict.keep") &&
                strstr(log[i].detail, "\"reason\":\"the slip agrees\"");
        if (!strcmp(log[i].kind, "round.draft"))
            assert_null(strstr(log[i].detail, "reason"));
    }
    hub_log_entries_free(log, nl);
    assert_true(unpub && keep);
    char *exported = export_of(s, "co");
    OK(hub_store_append_audit(s, "co", &exported, &diag));
    assert_non_null(strstr(exported, "\"x_audit\": {"));
    assert_non_null(strstr(exported, "the slip agrees"));
    OK(tny_event_from_json_text(exported, strlen(exported), &ev, &diag));
    assert_string_equal(ev.players[1].club, "Brno");
    tny_event_release(&ev);
    free(exported);
    OK(hub_store_check(s, &diag));

    tny_event_release(&mirror);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

static void set_user_version(const char *path, uint32_t v)
{
    unsigned char be[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 8), (unsigned char)v};
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    /* The SQLite header keeps user_version at byte offset 60. */
    assert_int_equal(pwrite(fd, be, 4, 60), 4);
    close(fd);
}

/* Counters never go down and survive a reopen; a version 1 database (no
 * counters table) is migrated to version 2 with its data kept. */
/* NH-11: a knockout declaration is stored, checked (3 armies of the
 * player's for a top 4) and exported; when it may be made is the
 * service's rule (test_service). */
static void test_NH_11_declare_armies(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text =
        event_text("neuroshima-hex", "{\"swiss_rounds\": 2, \"cut\": 4}", 0, 5);
    OK(hub_store_create_event(s, "nh", text, strlen(text), "organiser:anna",
                              &diag));
    free(text);
    for (int i = 1; i <= 8; i++) {
        char p[256];
        snprintf(p, sizeof(p),
                 "{\"id\": \"p%d\", \"name\": \"P%d\", \"armies\": "
                 "[\"Borgo\", \"Moloch\", \"Hegemony\", \"Outpost\", "
                 "\"Vegas\"]}",
                 i, i);
        OK(put_player_json(s, "nh", p, &diag));
    }
    static const char *const three[] = {"Borgo", "Moloch", "Vegas"};
    /* NH-11's count (3 for a cut of 4) is the service's check, on its
     * model (test_service's test_NH_11_knockout_armies_on_the_model). */
    assert_int_equal(hub_store_declare_armies(s, "nh", "nobody", three, 3,
                                              "organiser:anna", &diag),
                     TNY_ENOTFOUND);
    OK(hub_store_declare_armies(s, "nh", "p1", three, 3, "organiser:anna",
                                &diag));
    OK(hub_store_load_event(s, "nh", &ev, &diag));
    assert_int_equal(ev.players[0].n_ko_armies, 3);
    assert_string_equal(ev.format.armies[ev.players[0].ko_armies[2]], "Vegas");
    assert_int_equal(ev.players[1].n_ko_armies, 0);
    tny_event_release(&ev);
    char *json = NULL;
    OK(hub_store_export_event_json(s, "nh", &json, &diag));
    assert_non_null(strstr(json, "\"knockout_armies\""));
    free(json);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 18: a database of schema 6 (draft starts only in the log, as the
 * hubs before kept them) opens, migrates to 7, and its draft starts are
 * in their table, the last of a table counting. */
static void test_store_migration_6_to_7_draft_starts(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct hub_store *s;
    sqlite3 *raw = NULL;
    int32_t version;
    tmpdb_make(&db);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("catan", "{}", 8, 2);
    OK(hub_store_create_event(s, "ag", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &ev, &diag));
    free(text);
    next_round(s, "ag", &ev);
    hub_store_close(s);
    /* Schema 6 as an older hub wrote it: no draft_starts table, the
     * starts in the log only (the log is append-only: insert). */
    assert_int_equal(sqlite3_open(db.path, &raw), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(raw,
                     "DROP TABLE draft_starts;"
                     "INSERT INTO log (time_ms, actor, event_name, kind, "
                     "detail) VALUES "
                     "(1, 'device:t1', 'ag', 'clock.draft_start', "
                     "'{\"round\": 1, \"table\": 2, \"start_delay_ms\": 900}'),"
                     "(2, 'device:t1', 'ag', 'clock.draft_start', "
                     "'{\"round\": 1, \"table\": 1, \"start_delay_ms\": 40}'),"
                     "(3, 'organiser:a', 'ag', 'clock.draft_start', "
                     "'{\"round\": 1, \"table\": 2, \"start_delay_ms\": 700}'),"
                     "(4, 'device:t1', 'zz', 'clock.draft_start', "
                     "'{\"round\": 1, \"table\": 3, \"start_delay_ms\": 5}');"
                     "PRAGMA user_version = 6;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(raw);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    OK(hub_store_schema_version(s, &version, &diag));
    assert_int_equal(version, HUB_STORE_SCHEMA_VERSION);
    assert_int_equal(version, 8);
    struct hub_draft_start *ds = NULL;
    int32_t n = 0;
    OK(hub_store_draft_starts(s, "ag", &ds, &n, &diag));
    assert_int_equal(n, 2);
    assert_int_equal(ds[0].table, 1);
    assert_int_equal(ds[0].start_delay_ms, 40);
    assert_int_equal(ds[1].table, 2);
    assert_int_equal(ds[1].start_delay_ms, 700);
    free(ds);
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    tny_event_release(&ev);
    tmpdb_remove(&db);
}

/* Issue 17 item 1: hub_store_stats counts each write begun and how it
 * ended (committed, or rolled back: a refusal inside the store), and the
 * batches apart from the writes inside them (savepoints). */
static void test_issue17_store_counts_writes(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct hub_store_stats st;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    hub_store_stats(s, &st);
    const struct hub_store_stats base = st;
    OK(hub_store_device_register(s, "table-1", "hub", &diag));
    hub_store_stats(s, &st);
    assert_int_equal(st.writes_begun - base.writes_begun, 1);
    assert_int_equal(st.writes_committed - base.writes_committed, 1);
    assert_int_equal(st.writes_rolled_back, base.writes_rolled_back);
    /* Refused after its write began (no such event): rolled back. */
    assert_int_equal(
        hub_store_discard_draft(s, "nope", 1, "organiser:anna", &diag),
        TNY_ENOTFOUND);
    hub_store_stats(s, &st);
    assert_int_equal(st.writes_begun - base.writes_begun, 2);
    assert_int_equal(st.writes_rolled_back - base.writes_rolled_back, 1);
    /* Refused before anything began (the caller's contract). */
    assert_int_equal(hub_store_add_penalty(s, "nope", 1, 1, NULL, 0, "late",
                                           "organiser:anna", &diag),
                     TNY_EINVAL);
    hub_store_stats(s, &st);
    assert_int_equal(st.writes_begun - base.writes_begun, 2);
    /* A batch: its writes are counted as writes, it as a batch. */
    OK(hub_store_batch_begin(s, &diag));
    OK(hub_store_device_register(s, "table-2", "hub", &diag));
    OK(hub_store_batch_end(s, false, &diag));
    OK(hub_store_batch_begin(s, &diag));
    OK(hub_store_batch_end(s, true, &diag));
    hub_store_stats(s, &st);
    assert_int_equal(st.writes_begun - base.writes_begun, 3);
    assert_int_equal(st.writes_committed - base.writes_committed, 2);
    assert_int_equal(st.batches_begun - base.batches_begun, 2);
    assert_int_equal(st.batches_committed - base.batches_committed, 1);
    assert_int_equal(st.batches_rolled_back - base.batches_rolled_back, 1);
    hub_store_close(s);
    tmpdb_remove(&db);
}

static void test_store_counters_and_migration_1_to_2(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct hub_store *s;
    int64_t v;
    int32_t version;
    tmpdb_make(&db);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    OK(hub_store_counter_get(s, "version", &v, &diag));
    assert_int_equal(v, 0);
    OK(hub_store_counter_raise(s, "version", 100, &diag));
    OK(hub_store_counter_raise(s, "version", 50, &diag));
    OK(hub_store_counter_get(s, "version", &v, &diag));
    assert_int_equal(v, 100);
    OK(hub_store_counter_raise(s, "version", 200, &diag));
    assert_int_equal(hub_store_counter_raise(s, "", 1, &diag), TNY_EINVAL);
    OK(hub_store_device_register(s, "table-1", "hub", &diag));
    hub_store_close(s);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    OK(hub_store_counter_get(s, "version", &v, &diag));
    assert_int_equal(v, 200);
    hub_store_close(s);

    /* Back to what a version 1 hub wrote. */
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(db.path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw,
                                  "DROP TABLE draft_starts; DROP TABLE codes; "
                                  "DROP TABLE counters; ALTER TABLE players "
                                  "DROP COLUMN decklist; ALTER TABLE players "
                                  "DROP COLUMN knockout_armies_json; ALTER "
                                  "TABLE players DROP COLUMN hook; "
                                  "ALTER TABLE submissions DROP COLUMN "
                                  "reason_code; ALTER TABLE submissions DROP "
                                  "COLUMN counted; ALTER TABLE seats DROP "
                                  "COLUMN side; ALTER TABLE submissions "
                                  "ADD COLUMN answer TEXT NOT NULL DEFAULT "
                                  "''; "
                                  /* answers as hubs before 4 kept them */
                                  "INSERT INTO submissions VALUES ('table-1', "
                                  "'old-1', 'e', 1, 1, '{}', 1, 'accepted', "
                                  "NULL, '', 1, '{\"status\": \"accepted\", "
                                  "\"counted\": true}'); "
                                  "INSERT INTO submissions VALUES ('table-1', "
                                  "'old-2', 'e', 1, 1, '{}', 0, 'accepted', "
                                  "NULL, '', 1, '{\"status\": \"accepted\", "
                                  "\"counted\": false}'); "
                                  "INSERT INTO submissions VALUES ('table-1', "
                                  "'old-3', 'e', 2, 1, '{}', 1, 'rejected', "
                                  "NULL, 'round 2 is closed: results come in "
                                  "between publish and close (CM-5); ask the "
                                  "organiser', 1, '{\"status\": "
                                  "\"rejected\"}'); "
                                  "INSERT INTO log (time_ms, actor, kind, "
                                  "detail) SELECT 1, 'device:table-1', "
                                  "'submit.accepted', '{}' FROM submissions; "
                                  "PRAGMA user_version = 1",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(raw);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    OK(hub_store_schema_version(s, &version, &diag));
    /* 1 -> 2 counters, 2 -> 3 deck lists, 3 -> 4 answers as fields, 4 -> 5
     * sides, 5 -> 6 sign-in codes, 6 -> 7 draft starts, 7 -> 8 player codes */
    assert_int_equal(version, 8);
    struct hub_submit_outcome o;
    OK(hub_store_get_submission(s, "table-1", "old-1", NULL, &o, &diag));
    assert_int_equal(o.first, HUB_SUBMIT_ACCEPTED);
    assert_true(o.counted);
    assert_int_equal(o.reason, HUB_REASON_NONE);
    OK(hub_store_get_submission(s, "table-1", "old-2", NULL, &o, &diag));
    assert_false(o.counted);
    assert_int_equal(o.reason, HUB_REASON_UNCONFIRMED);
    OK(hub_store_get_submission(s, "table-1", "old-3", NULL, &o, &diag));
    assert_int_equal(o.first, HUB_SUBMIT_REJECTED);
    assert_int_equal(o.reason, HUB_REASON_WRONG_ROUND);
    assert_int_equal(o.round, 2);
    OK(hub_store_counter_get(s, "version", &v, &diag));
    assert_int_equal(v, 0);
    OK(hub_store_counter_raise(s, "version", 7, &diag));
    struct hub_device_info info;
    OK(hub_store_get_device(s, "table-1", &info, &diag));
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 19 item 3: a round's sides are kept.  A netrunner-sss event
 * played three rounds through the store reads back with every table's
 * sides as paired (so the next pairing sees the swapped rematch and the
 * balance), the export carries them; a version 4 database (no side
 * column) migrates to 5 keeping its rounds, their tables without sides. */
static void test_issue19_store_sides(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror, ev;
    struct tny_round_plan plan;
    struct tny_rng rng;
    int32_t version;
    tny_rng_seed(&rng, 19);
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("netrunner-sss", "{}", 7, 19);
    OK(hub_store_create_event(s, "nr", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    free(text);
    register_devices(s, 4);
    for (int r = 0; r < 3; r++) {
        next_round(s, "nr", &mirror);
        play_round(s, "nr", &mirror, &rng);
    }
    OK(hub_store_load_event(s, "nr", &ev, &diag));
    assert_int_equal(ev.n_rounds, 3);
    int32_t sided = 0;
    for (int32_t r = 0; r < 3; r++)
        for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
            const struct tny_table *a = &ev.rounds[r].tables[t];
            const struct tny_table *b = &mirror.rounds[r].tables[t];
            assert_int_equal(a->number, b->number);
            assert_int_equal(a->has_sides, b->has_sides);
            assert_int_equal(a->has_sides, !a->is_bye);
            if (!a->has_sides)
                continue;
            sided++;
            assert_int_equal(a->side[0], b->side[0]);
            assert_int_equal(a->side[1], b->side[1]);
            assert_int_equal(a->side[0] + a->side[1], 1);
        }
    assert_int_equal(sided, 9);
    OK(tny_event_validate(&ev, &diag));
    /* The draft keeps its sides too (hub_store_load_draft). */
    OK(tny_pair_next(&ev, &plan, &diag));
    OK(hub_store_save_draft(s, "nr", &ev, &plan, "hub", &diag));
    struct tny_round_plan back;
    OK(hub_store_load_draft(s, "nr", &ev, &back, &diag));
    for (int32_t t = 0; t < plan.n_tables; t++) {
        assert_int_equal(back.tables[t].has_sides, plan.tables[t].has_sides);
        if (plan.tables[t].has_sides)
            assert_memory_equal(back.tables[t].side, plan.tables[t].side, 2);
    }
    tny_round_plan_release(&back);
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    char *json = NULL;
    OK(hub_store_export_event_json(s, "nr", &json, &diag));
    assert_non_null(strstr(json, "\"sides\""));
    assert_non_null(strstr(json, "\"corp\""));
    /* An event file with sides imported into the hub keeps them. */
    OK(hub_store_create_event(s, "nr2", json, strlen(json), "organiser:anna",
                              &diag));
    free(json);
    OK(hub_store_load_event(s, "nr2", &ev, &diag));
    assert_int_equal(ev.n_rounds, 3);
    for (int32_t r = 0; r < 3; r++)
        for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
            const struct tny_table *a = &ev.rounds[r].tables[t];
            const struct tny_table *b = &mirror.rounds[r].tables[t];
            assert_int_equal(a->has_sides, b->has_sides);
            if (a->has_sides)
                assert_memory_equal(a->side, b->side, 2);
        }
    tny_event_release(&ev);
    hub_store_close(s);

    /* Back to what a version 4 hub wrote: no side column. */
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(db.path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw,
                                  "DROP TABLE draft_starts; DROP TABLE codes; "
                                  "ALTER TABLE seats DROP COLUMN side; "
                                  "PRAGMA user_version = 4",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(raw);
    s = open_store(db.path, HUB_STORE_NO_SYNC);
    OK(hub_store_schema_version(s, &version, &diag));
    assert_int_equal(version, 8);
    OK(hub_store_load_event(s, "nr", &ev, &diag));
    assert_int_equal(ev.n_rounds, 3);
    for (int32_t r = 0; r < 3; r++) {
        assert_int_equal(ev.rounds[r].n_tables, mirror.rounds[r].n_tables);
        for (int32_t t = 0; t < ev.rounds[r].n_tables; t++)
            assert_false(ev.rounds[r].tables[t].has_sides);
    }
    tny_event_release(&ev);
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    tny_event_release(&mirror);
    tmpdb_remove(&db);
}

/* Issue 19 item 3, CM-5: a swap on a sided draft that would replay a
 * round 1 meeting on the same sides (the seats keeping their sides; the
 * validator refuses that) gives the touched tables their sides by the
 * pairing's rule: the swapped rematch plays the other sides. */
static void test_issue19_CM_5_swap_recomputes_sides(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror, ev;
    struct tny_round_plan plan, back;
    struct tny_rng rng;
    tny_rng_seed(&rng, 7);
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("netrunner-sss", "{}", 4, 7);
    OK(hub_store_create_event(s, "nr", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    free(text);
    register_devices(s, 2);
    next_round(s, "nr", &mirror);
    play_round(s, "nr", &mirror, &rng);
    /* Round 1: A v B and C v D, A on side a1. */
    const struct tny_round *r1 = &mirror.rounds[0];
    int32_t A = r1->tables[0].seats[0], B = r1->tables[0].seats[1];
    int32_t C = r1->tables[1].seats[0], D = r1->tables[1].seats[1];
    int8_t a1 = r1->tables[0].side[0];
    assert_true(r1->tables[0].has_sides);
    /* A crafted draft: A (a1 again) v C, B v D; valid (no rematch). */
    OK(hub_store_load_event(s, "nr", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    assert_int_equal(plan.n_tables, 2);
    plan.tables[0].seats[0] = A, plan.tables[0].seats[1] = C;
    plan.tables[0].side[0] = a1, plan.tables[0].side[1] = (int8_t)(1 - a1);
    plan.tables[1].seats[0] = B, plan.tables[1].seats[1] = D;
    plan.tables[0].has_sides = plan.tables[1].has_sides = true;
    OK(hub_store_save_draft(s, "nr", &ev, &plan, "hub", &diag));
    /* B takes C's seat: A v B again, B on 1 - a1 as in round 1 if the
     * seat kept its side. */
    /* The service's edit (issue 18): the engine's swap, then the
     * pairing's sides for the tables it touched; the store keeps them. */
    struct hub_round_edit sw = {
        .swap = true, .a = ev.players[C].id, .b = ev.players[B].id};
    OK(tny_round_plan_swap(&plan, C, B, &diag));
    for (int32_t t = 0; t < plan.n_tables; t++)
        OK(tny_round_plan_sides(&ev, &plan, t, &diag));
    OK(hub_store_save_round_edit(s, "nr", 2, &plan, &sw, "organiser:anna",
                                 &diag));
    OK(hub_store_load_draft(s, "nr", &ev, &back, &diag));
    bool seen = false;
    for (int32_t t = 0; t < back.n_tables; t++) {
        const struct tny_pairing_table *pt = &back.tables[t];
        if (pt->seats[0] != A && pt->seats[1] != A)
            continue;
        seen = true;
        assert_true(pt->has_sides);
        int32_t ai = pt->seats[0] == A ? 0 : 1;
        assert_int_equal(pt->seats[1 - ai], B);
        assert_int_equal(pt->side[ai], 1 - a1);
        assert_int_equal(pt->side[1 - ai], a1);
    }
    assert_true(seen);
    tny_round_plan_release(&back);
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    tny_event_release(&mirror);
    hub_store_close(s);
    tmpdb_remove(&db);
}

static void test_store_migrations(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct hub_store *s = NULL;
    int32_t v;
    tmpdb_make(&db);
    /* An empty file is a database at user_version 0. */
    int fd = open(db.path, O_CREAT | O_WRONLY, 0644);
    assert_true(fd >= 0);
    close(fd);
    s = open_store(db.path, 0);
    OK(hub_store_schema_version(s, &v, &diag));
    assert_int_equal(v, HUB_STORE_SCHEMA_VERSION);
    assert_int_equal(count_log(s, NULL, "store.migrate"),
                     HUB_STORE_SCHEMA_VERSION);
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    /* Opening again migrates nothing. */
    s = open_store(db.path, 0);
    assert_int_equal(count_log(s, NULL, "store.migrate"),
                     HUB_STORE_SCHEMA_VERSION);
    hub_store_close(s);
    /* A database from the future is refused, and left alone. */
    set_user_version(db.path, HUB_STORE_SCHEMA_VERSION + 7);
    assert_int_equal(hub_store_open(db.path, &s, &diag), TNY_ESTATE);
    assert_null(s);
    char want[64];
    snprintf(want, sizeof(want), "schema version %d",
             HUB_STORE_SCHEMA_VERSION + 7);
    assert_non_null(strstr(diag.msg, want));
    snprintf(want, sizeof(want), "knows up to %d", HUB_STORE_SCHEMA_VERSION);
    assert_non_null(strstr(diag.msg, want));
    /* Not a database at all. */
    fd = open(db.path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "hello, this is not sqlite at all, no....", 40),
                     40);
    close(fd);
    assert_int_equal(hub_store_open(db.path, &s, &diag), TNY_ESTORE);
    assert_non_null(strstr(diag.msg, "cannot open"));
    tmpdb_remove(&db);
}

/* ---- crash safety ------------------------------------------------------ */

static void crash_child(const char *path, int wfd, int iter, int n_tables,
                        char **res, const int32_t *numbers)
{
    struct hub_store *s = NULL;
    struct tny_diag diag = {{0}};
    if (hub_store_open(path, &s, &diag) != 0)
        _exit(3);
    for (int32_t i = 0;; i++) {
        int t = i % n_tables;
        char dev[32], key[48];
        struct hub_submit_outcome out;
        snprintf(dev, sizeof(dev), "table-%d", (int)numbers[t]);
        snprintf(key, sizeof(key), "it%d-%d", iter, (int)i);
        if (record_json(s, NULL, "big", 1, numbers[t], dev, key, res[t], true,
                        HUB_SUBMIT_ACCEPTED, false, &out, &diag) != 0)
            _exit(4);
        /* Reported only after the commit returned. */
        if (write(wfd, &i, sizeof(i)) != (ssize_t)sizeof(i))
            _exit(5);
    }
}

static void test_store_crash_safety(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror;
    struct tny_rng rng;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text("neuroshima-hex", "{\"swiss_rounds\": 3}", 60, 1);
    OK(hub_store_create_event(s, "big", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, 31);
    next_round(s, "big", &mirror);
    hub_store_close(s);
    tny_rng_seed(&rng, 20240602);
    struct tny_round *round = &mirror.rounds[0];
    for (int32_t t = 0; t < round->n_tables; t++)
        OK(tny_simulate_result(&mirror, 0, round->stage, &round->tables[t],
                               &rng, &diag));
    char **all = round_results(&mirror, 0);
    /* Only real tables (no byes with 60 players, but keep it general). */
    char **res = calloc((size_t)round->n_tables, sizeof(*res));
    int32_t *numbers = calloc((size_t)round->n_tables, sizeof(*numbers));
    int n_tables = 0;
    for (int32_t t = 0; t < round->n_tables; t++)
        if (all[t]) {
            res[n_tables] = all[t];
            numbers[n_tables++] = round->tables[t].number;
        }
    int64_t total = 0;
    for (int iter = 0; iter < 4; iter++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            crash_child(db.path, fds[1], iter, n_tables, res, numbers);
        }
        close(fds[1]);
        /* The kill lands after the child's first acknowledged commit (a
         * blocking read, not a guess of how long opening the store takes
         * on a loaded machine), then at a random point of the rest. */
        int32_t *keys = NULL, n = 0, cap = 0, k;
        if (read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k)) {
            cap = 256;
            keys = malloc(sizeof(*keys) * (size_t)cap);
            assert_non_null(keys);
            keys[n++] = k;
        }
        struct timespec nap = {0, (long)(30 + tny_rng_below(&rng, 170)) *
                                      1000000L};
        nanosleep(&nap, NULL);
        assert_int_equal(kill(pid, SIGKILL), 0);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        /* Every key the child reported as committed. */
        while (read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k)) {
            if (n == cap) {
                cap = cap ? cap * 2 : 256;
                keys = realloc(keys, sizeof(*keys) * (size_t)cap);
                assert_non_null(keys);
            }
            keys[n++] = k;
        }
        close(fds[0]);
        s = open_store(db.path, 0);
        OK(hub_store_check(s, &diag));
        for (int32_t i = 0; i < n; i++) {
            char dev[32], key[48];
            struct hub_submit_outcome out;
            snprintf(dev, sizeof(dev), "table-%d",
                     (int)numbers[keys[i] % n_tables]);
            snprintf(key, sizeof(key), "it%d-%d", iter, (int)keys[i]);
            OK(hub_store_get_submission(s, dev, key, NULL, &out, &diag));
            assert_int_equal(out.first, HUB_SUBMIT_ACCEPTED);
        }
        /* Counted results are whole rows that parse and validate. */
        struct tny_event ev;
        OK(hub_store_load_event(s, "big", &ev, &diag));
        OK(tny_event_validate(&ev, &diag));
        tny_event_release(&ev);
        hub_store_close(s);
        print_message("crash %d: killed after %d acknowledged submissions\n",
                      iter, (int)n);
        total += n;
        free(keys);
    }
    assert_true(total > 0);
    free_results(all, round->n_tables);
    free(res);
    free(numbers);
    tny_event_release(&mirror);
    free(text);
    tmpdb_remove(&db);
}

/* ---- read-only and full databases -------------------------------------- */

static char *export_of(struct hub_store *s, const char *event)
{
    struct tny_diag diag = {{0}};
    char *text = NULL;
    OK(hub_store_export_event_json(s, event, &text, &diag));
    return text;
}

/* Every kind of write fails with TNY_ESTATE and says why. */
static int try_writes(struct hub_store *s, const char *why)
{
    struct tny_diag d = {{0}};
    struct hub_submit_outcome out;
    const char *pl = "{\"id\": \"zz\", \"name\": \"Z\"}";
    if (put_player_json(s, "ev", pl, &d) != TNY_ESTATE || !strstr(d.msg, why))
        return 1;
    memset(&d, 0, sizeof(d));
    if (hub_store_device_register(s, "pi-9", "hub", &d) != TNY_ESTATE ||
        !strstr(d.msg, why))
        return 2;
    memset(&d, 0, sizeof(d));
    if (record_json(s, NULL, "ev", 1, 1, "table-1", "x1", NULL, true,
                    HUB_SUBMIT_REJECTED, false, &out, &d) != TNY_ESTATE ||
        !strstr(d.msg, why))
        return 3;
    return 0;
}

static void test_store_read_only(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text("catan", "{}", 8, 4);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    char *before = export_of(s, "ev");
    hub_store_close(s);

    /* Opened read-only by flag. */
    s = open_store(db.path, HUB_STORE_READ_ONLY);
    assert_int_equal(try_writes(s, "read-only"), 0);
    char *after = export_of(s, "ev");
    assert_string_equal(after, before);
    free(after);
    hub_store_close(s);

    /* The file without write permission (as an unprivileged user: root
     * ignores permissions). */
    assert_int_equal(chmod(db.path, 0444), 0);
    assert_int_equal(chmod(db.dir, 0777), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct hub_store *c = NULL;
        struct tny_diag d = {{0}};
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(10);
        if (hub_store_open(db.path, &c, &d) != 0) {
            fprintf(stderr, "child open: %s\n", d.msg);
            _exit(11);
        }
        int r = try_writes(c, "read-only");
        char *t = NULL;
        if (r == 0 && hub_store_export_event_json(c, "ev", &t, &d) != 0)
            r = 12;
        if (r == 0 && strcmp(t, before) != 0)
            r = 13;
        free(t);
        hub_store_close(c);
        _exit(r);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(chmod(db.path, 0644), 0);
    s = open_store(db.path, 0);
    after = export_of(s, "ev");
    assert_string_equal(after, before);
    OK(hub_store_check(s, &diag));
    free(after);
    hub_store_close(s);
    free(before);
    free(text);
    tmpdb_remove(&db);
}

/* Issue 13: HUB_STORE_MUST_EXIST never creates; hub_store_probe finds a
 * read-only store; hub_store_backup copies what is committed, with no WAL
 * beside it, and never overwrites; after hub_store_checkpoint the
 * database file alone holds every commit. */
static void test_store_must_exist_probe_backup(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct hub_store *s = NULL;
    struct hub_store_options must = {.flags = HUB_STORE_MUST_EXIST};
    char path[160];
    tmpdb_make(&db);

    assert_int_equal(hub_store_open_with(db.path, &must, &s, &diag),
                     TNY_ENOTFOUND);
    assert_null(s);
    assert_non_null(strstr(diag.msg, db.path));
    assert_int_equal(access(db.path, F_OK), -1); /* nothing created */
    FILE *f = fopen(db.path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(hub_store_open_with(db.path, &must, &s, &diag),
                     TNY_ENOTFOUND);
    assert_non_null(strstr(diag.msg, "not a Tourney hub database (empty"));
    unlink(db.path);

    s = open_store(db.path, 0);
    OK(hub_store_probe(s, &diag));
    char *text = event_text("catan", "{}", 8, 4);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    free(text);
    char *before = export_of(s, "ev");

    /* A backup while this connection is open, then one onto it: refused. */
    snprintf(path, sizeof(path), "%s/backup.db", db.dir);
    OK(hub_store_backup(db.path, path, &diag));
    assert_int_equal(hub_store_backup(db.path, path, &diag), TNY_ECONFLICT);
    char wal[192];
    snprintf(wal, sizeof(wal), "%s-wal", path);
    assert_int_equal(access(wal, F_OK), -1);
    struct hub_store *b = open_store(path, HUB_STORE_MUST_EXIST);
    char *copy = export_of(b, "ev");
    assert_string_equal(copy, before);
    free(copy);
    hub_store_close(b);
    unlink(path);

    /* After a checkpoint the WAL can go: the file alone has the event. */
    OK(hub_store_checkpoint(s, &diag));
    snprintf(path, sizeof(path), "%s/copy.db", db.dir);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "cp %s %s", db.path, path);
    assert_int_equal(system(cmd), 0);
    b = open_store(path, HUB_STORE_MUST_EXIST);
    copy = export_of(b, "ev");
    assert_string_equal(copy, before);
    free(copy);
    hub_store_close(b);
    unlink(path);
    snprintf(cmd, sizeof(cmd), "%s/copy.db-wal", db.dir);
    unlink(cmd);
    snprintf(cmd, sizeof(cmd), "%s/copy.db-shm", db.dir);
    unlink(cmd);
    hub_store_close(s);

    s = open_store(db.path, HUB_STORE_READ_ONLY);
    assert_int_equal(hub_store_probe(s, &diag), TNY_ESTATE);
    assert_non_null(strstr(diag.msg, "read-only"));
    hub_store_close(s);
    free(before);
    tmpdb_remove(&db);
}

/* True when a copy of the database file alone (no WAL) has event ev. */
static bool file_alone_has(const struct tmpdb *db, const char *ev)
{
    char copy[160], cmd[1024];
    struct hub_store *c = NULL;
    struct hub_store_options o = {.flags = HUB_STORE_MUST_EXIST};
    struct hub_event_info info;
    struct tny_diag d = {{0}};
    snprintf(copy, sizeof(copy), "%s/alone.db", db->dir);
    snprintf(cmd, sizeof(cmd), "rm -f %s %s-wal %s-shm && cp %s %s", copy, copy,
             copy, db->path, copy);
    if (system(cmd) != 0)
        return false;
    bool has = hub_store_open_with(copy, &o, &c, &d) == 0 &&
               hub_store_get_event(c, ev, &info, &d) == 0;
    hub_store_close(c);
    snprintf(cmd, sizeof(cmd), "rm -f %s %s-wal %s-shm", copy, copy, copy);
    assert_int_equal(system(cmd), 0);
    return has;
}

/* Issue 13: hub_store_checkpoint_soon has the store's thread copy what
 * was committed into the database file (the hub calls it on a timer). */
static void test_store_checkpoint_soon(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_BACKGROUND_CHECKPOINT);
    /* (The migrations' commits came before the thread's WAL hook; the
     * event below is far under the 256-page threshold: no checkpoint
     * happens until asked.) */
    char *text = event_text("catan", "{}", 8, 4);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    free(text);
    assert_false(file_alone_has(&db, "ev")); /* in the WAL only */
    assert_true(hub_store_checkpoint_soon(s));
    bool has = false;
    for (int i = 0; i < 500 && !has; i++) { /* the thread's turn: <= 10 s */
        has = file_alone_has(&db, "ev");
        if (!has)
            nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    assert_true(has);
    assert_false(hub_store_checkpoint_soon(s)); /* nothing new committed */
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 17 (b): the hub's store writes its WAL ahead (zeros) when it
 * opens, so a commit writes over existing blocks and its fdatasync need
 * not journal a new file size; the guaranteed checkpoint restarts the WAL
 * instead of truncating it, so the next round's commits do not grow it
 * again.  Frames written over the zeros are what a crash leaves: a copy
 * of the database and its WAL taken while the store is open (the state
 * after a killed hub) has every commit. */
static void test_store_wal_written_ahead(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct stat st;
    char wal[192], cmd[1024];
    tmpdb_make(&db);
    snprintf(wal, sizeof(wal), "%s-wal", db.path);
    struct hub_store *s = open_store(db.path, HUB_STORE_BACKGROUND_CHECKPOINT);
    assert_int_equal(stat(wal, &st), 0);
    const off_t ahead = st.st_size;
    assert_true(ahead >= 4 << 20);
    char *text = event_text("catan", "{}", 8, 4);
    OK(hub_store_create_event(s, "ev1", text, strlen(text), "organiser:anna",
                              &diag));
    assert_int_equal(stat(wal, &st), 0);
    assert_int_equal(st.st_size, ahead); /* written over, not appended */
    OK(hub_store_checkpoint(s, &diag));
    assert_true(file_alone_has(&db, "ev1"));
    assert_int_equal(stat(wal, &st), 0);
    assert_int_equal(st.st_size, ahead); /* restarted, not truncated */
    OK(hub_store_create_event(s, "ev2", text, strlen(text), "organiser:anna",
                              &diag));
    free(text);
    assert_false(file_alone_has(&db, "ev2")); /* in the WAL only */
    /* The files as a killed hub leaves them, opened elsewhere. */
    snprintf(cmd, sizeof(cmd),
             "rm -f %s/k.db %s/k.db-wal %s/k.db-shm && cp %s %s/k.db && "
             "cp %s %s/k.db-wal",
             db.dir, db.dir, db.dir, db.path, db.dir, wal, db.dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "%s/k.db", db.dir);
    struct hub_store *k = open_store(cmd, HUB_STORE_MUST_EXIST);
    struct hub_event_info info;
    OK(hub_store_get_event(k, "ev1", &info, &diag));
    OK(hub_store_get_event(k, "ev2", &info, &diag));
    assert_int_equal(hub_store_get_event(k, "ev3", &info, &diag),
                     TNY_ENOTFOUND);
    hub_store_close(k);
    snprintf(cmd, sizeof(cmd), "rm -f %s/k.db %s/k.db-wal %s/k.db-shm", db.dir,
             db.dir, db.dir);
    assert_int_equal(system(cmd), 0);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 23: the guaranteed checkpoint (round publish and close) against
 * a reader of its own connection.  A reader on the latest snapshot keeps
 * the WAL from being truncated but not its frames from being copied: the
 * checkpoint succeeds (the old code waited out the busy timeout and said
 * "database is locked").  A reader on an older snapshot keeps frames out
 * of the file: after its bounded retries the checkpoint fails and sets
 * the write fault that raises the hub's store alarm (the old code only
 * returned the error, which the round close logged and answered OK);
 * the reader gone, it succeeds, and the next commit clears the fault. */
static void test_store_checkpoint_with_reader(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}}, why = {{0}};
    sqlite3 *reader = NULL;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text("catan", "{}", 8, 2);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    assert_int_equal(
        sqlite3_open_v2(db.path, &reader, SQLITE_OPEN_READONLY, NULL),
        SQLITE_OK);
    /* 1. A read transaction on the latest snapshot. */
    assert_int_equal(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM events",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    memset(&diag, 0, sizeof(diag));
    OK(hub_store_checkpoint(s, &diag));
    assert_false(hub_store_write_fault(s, NULL));
    assert_true(file_alone_has(&db, "ev"));
    assert_int_equal(sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL),
                     SQLITE_OK);
    /* 2. A read transaction on an older snapshot than the last commit. */
    assert_int_equal(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM events",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    const char *late = "{\"id\": \"late\", \"name\": \"Late\"}";
    OK(put_player_json(s, "ev", late, &diag));
    memset(&diag, 0, sizeof(diag));
    assert_int_equal(hub_store_checkpoint(s, &diag), TNY_ESTORE);
    assert_non_null(strstr(diag.msg, "checkpoint"));
    assert_true(hub_store_write_fault(s, &why));
    assert_non_null(strstr(why.msg, "checkpoint:"));
    assert_non_null(strstr(why.msg, "WAL frames copied"));
    /* The reader gone: the checkpoint goes through, a commit clears the
     * fault. */
    assert_int_equal(sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL),
                     SQLITE_OK);
    OK(hub_store_checkpoint(s, &diag));
    OK(hub_store_probe_write(s, &diag));
    assert_false(hub_store_write_fault(s, NULL));
    sqlite3_close(reader);
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 12: the write fault the hub's alarm reads.  Set by a write the
 * storage refuses (a full disk, a failing fsync, through the VFS shim),
 * kept by reads and by a probe that fails, cleared by the first commit;
 * the probe that commits leaves one "store.writable" log row. */
static void test_store_write_fault_set_and_cleared(void **state)
{
    (void)state;
    static const struct {
        enum faultvfs_fault fault;
        const char *reason;
    } cases[] = {{FAULTVFS_FULL, "database or disk is full"},
                 {FAULTVFS_FSYNC, "disk I/O error"}};
    struct tmpdb db;
    struct tny_diag diag = {{0}}, why = {{0}};
    assert_int_equal(faultvfs_install(), 0);
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text("catan", "{}", 8, 2);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    assert_false(hub_store_write_fault(s, &why));
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char player[128];
        snprintf(player, sizeof(player),
                 "{\"id\": \"late%d\", \"name\": \"Late %d\"}", (int)k, (int)k);
        faultvfs_set(cases[k].fault);
        memset(&diag, 0, sizeof(diag));
        /* Issue 18: the storage's code, not a refusal's. */
        assert_int_equal(put_player_json(s, "ev", player, &diag), TNY_ESTORE);
        memset(&why, 0, sizeof(why));
        assert_true(hub_store_write_fault(s, &why));
        assert_non_null(strstr(why.msg, cases[k].reason));
        /* A failing probe keeps it; a read does not clear it. */
        assert_int_equal(hub_store_probe_write(s, &diag), TNY_ESTORE);
        assert_true(hub_store_write_fault(s, NULL));
        char *exported = export_of(s, "ev");
        free(exported);
        assert_true(hub_store_write_fault(s, NULL));
        faultvfs_set(FAULTVFS_NONE);
        OK(hub_store_probe_write(s, &diag));
        assert_false(hub_store_write_fault(s, &why));
        /* The refused player was not stored; a retry is. */
        OK(put_player_json(s, "ev", player, &diag));
    }
    struct hub_log_entry *e = NULL;
    int32_t n = 0, probes = 0;
    OK(hub_store_read_log(s, NULL, 0, 1000, &e, &n, &diag));
    for (int32_t i = 0; i < n; i++)
        probes += strcmp(e[i].kind, "store.writable") == 0;
    assert_int_equal(probes, 2);
    hub_log_entries_free(e, n);
    OK(hub_store_check(s, &diag));
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
    faultvfs_uninstall();
}

static void test_store_full_database(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event mirror;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, 0);
    char *text = event_text("catan", "{}", 16, 4);
    OK(hub_store_create_event(s, "ev", text, strlen(text), "organiser:anna",
                              &diag));
    OK(tny_event_from_json_text(text, strlen(text), &mirror, &diag));
    register_devices(s, 4);
    next_round(s, "ev", &mirror);
    hub_store_close(s);
    struct stat sb;
    assert_int_equal(stat(db.path, &sb), 0);
    /* Room for a few more pages only: writes soon hit "full". */
    struct hub_store_options o = {.max_pages = sb.st_size / 4096 + 3};
    s = NULL;
    OK(hub_store_open_with(db.path, &o, &s, &diag));
    char name[201], player[1200];
    memset(name, 'n', sizeof(name) - 1);
    name[200] = '\0';
    int ok = 0, rc = 0;
    char *last = export_of(s, "ev");
    for (int i = 0; i < 2000; i++) {
        snprintf(player, sizeof(player),
                 "{\"id\": \"late%d\", \"name\": \"%s\", \"club\": \"%s\", "
                 "\"country\": \"%s\", \"faction\": \"%s\"}",
                 i, name, name, name, name);
        memset(&diag, 0, sizeof(diag));
        rc = put_player_json(s, "ev", player, &diag);
        if (rc != 0)
            break;
        ok++;
        free(last);
        last = export_of(s, "ev");
    }
    print_message("full after %d players: %s\n", ok, diag.msg);
    assert_int_equal(rc, TNY_ESTORE); /* issue 18: not a refusal */
    assert_non_null(strstr(diag.msg, "full"));
    /* The failed write changed nothing; the store still works for reads. */
    char *now = export_of(s, "ev");
    assert_string_equal(now, last);
    free(now);
    /* A submission on a full database: an error, no answer, nothing
     * stored (the table retries later). */
    struct hub_submit_outcome out;
    const struct tny_table *t1 = &mirror.rounds[0].tables[0];
    char vp[256];
    snprintf(vp, sizeof(vp),
             "{\"vp\": {\"%s\": 10, \"%s\": 8, \"%s\": 7, \"%s\": 6}}",
             mirror.players[t1->seats[0]].id, mirror.players[t1->seats[1]].id,
             mirror.players[t1->seats[2]].id, mirror.players[t1->seats[3]].id);
    for (int i = 0; i < 50; i++) /* use up what room is left */
        if (hub_store_device_register(s, "pi-x", "hub", &diag) != 0)
            break;
    rc = record_json(s, NULL, "ev", 1, t1->number, "table-1", "full-1", vp,
                     true, HUB_SUBMIT_ACCEPTED, false, &out, &diag);
    if (rc == 0) {
        /* It fitted: then it must be stored. */
        OK(hub_store_get_submission(s, "table-1", "full-1", NULL, &out, &diag));
    } else {
        assert_int_equal(rc, TNY_ESTORE);
        assert_int_equal(out.result_id, 0);
        assert_int_equal(
            hub_store_get_submission(s, "table-1", "full-1", NULL, &out, &diag),
            TNY_ENOTFOUND);
    }
    hub_store_close(s);
    s = open_store(db.path, 0);
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    free(last);
    tny_event_release(&mirror);
    free(text);
    tmpdb_remove(&db);
}

/* ---- load speed -------------------------------------------------------- */

static void test_store_load_10000_results(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev, loaded;
    struct tny_rng rng;
    tmpdb_make(&db);
    struct hub_store *s = open_store(
        db.path, getenv("TNY_STORE_NO_SYNC") ? HUB_STORE_NO_SYNC : 0);
    char *text = event_text("neuroshima-hex",
                            "{\"swiss_rounds\": 11, \"cut\": 0}", 2000, 77);
    OK(tny_event_from_json_text(text, strlen(text), &ev, &diag));
    tny_rng_seed(&rng, 5);
    double t0 = now_s();
    int32_t played;
    OK(tny_simulate_rounds(&ev, 11, &rng, &played, &diag));
    assert_int_equal(played, 11);
    /* Round 11 stays in progress, so results can be submitted into it. */
    struct tny_round *last = &ev.rounds[10];
    for (int32_t t = 0; t < last->n_tables; t++)
        last->tables[t].has_result = false;
    char *file = NULL;
    assert_int_equal(tny_event_to_json(&ev, &file), 0);
    for (int32_t t = 0; t < last->n_tables; t++)
        last->tables[t].has_result = true;
    double t1 = now_s();
    OK(hub_store_create_event(s, "huge", file, strlen(file), "organiser:anna",
                              &diag));
    double t2 = now_s();
    OK(hub_store_load_event(s, "huge", &loaded, &diag));
    double t3 = now_s();
    int64_t n_results = 0;
    for (int32_t r = 0; r < loaded.n_rounds; r++)
        for (int32_t t = 0; t < loaded.rounds[r].n_tables; t++)
            n_results += loaded.rounds[r].tables[t].has_result;
    assert_true(n_results >= 10000);
    double tv = now_s();
    OK(tny_event_validate(&loaded, &diag));
    tv = now_s() - tv;
    char *st_a = standings_json(&loaded);
    double t4 = now_s();
    tny_event_release(&loaded);
    /* Submissions into round 11 of the big event (the first one fills the
     * store's projection cache). */
    char **res = round_results(&ev, 10);
    register_devices(s, 100);
    int submitted = 0;
    int32_t last_single = -1;
    double t5 = now_s(), t6 = t5;
    for (int32_t t = 0; t < last->n_tables && submitted < 50; t++) {
        if (!res[t] || last->tables[t].number > 100)
            continue;
        char dev[32], key[32];
        struct hub_submit_outcome out;
        snprintf(dev, sizeof(dev), "table-%d", (int)last->tables[t].number);
        snprintf(key, sizeof(key), "k%d", (int)t);
        OK(record_json(s, &ev, "huge", 11, last->tables[t].number, dev, key,
                       res[t], true, HUB_SUBMIT_ACCEPTED, false, &out, &diag));
        assert_int_equal(out.kind, HUB_SUBMIT_ACCEPTED);
        last_single = t;
        if (submitted++ == 0)
            t6 = now_s();
    }
    double t7 = now_s();
    /* The other tables 1..100 as one group commit. */
    struct hub_submission reqs[100];
    struct hub_submit_outcome outs[100];
    char keys[100][32], devs[100][32];
    int32_t nb = 0;
    for (int32_t t = 0; t < last->n_tables; t++) {
        int32_t num = last->tables[t].number;
        if (!res[t] || num > 100 || nb == 100 || t <= last_single)
            continue; /* tables up to last_single went one by one */
        snprintf(keys[nb], sizeof(keys[nb]), "b%d", (int)t);
        snprintf(devs[nb], sizeof(devs[nb]), "table-%d", (int)num);
        reqs[nb] = (struct hub_submission){.event_id = "huge",
                                           .round = 11,
                                           .table = num,
                                           .device_id = devs[nb],
                                           .idem_key = keys[nb],
                                           .confirmed = true,
                                           .kind = HUB_SUBMIT_ACCEPTED,
                                           .reason_text = "",
                                           .ev = &ev,
                                           .result = &last->tables[t]};
        nb++;
    }
    double t8 = now_s();
    OK(hub_store_record_submissions(s, nb, reqs, outs, &diag));
    double t9 = now_s();
    for (int32_t i = 0; i < nb; i++) {
        assert_int_equal(outs[i].rc, 0);
        assert_int_equal(outs[i].kind, HUB_SUBMIT_ACCEPTED);
    }
    free_results(res, last->n_tables);
    print_message("10k results: simulate %.3f s, import (one transaction) "
                  "%.3f s, load_event %.3f s (%lld results), standings "
                  "%.3f s, first submit %.1f ms, then %.2f ms each (%d, "
                  "synchronous=%s; tny_event_validate %.2f ms); a batch of "
                  "%d in one transaction %.2f ms (%.3f ms each)\n",
                  t1 - t0, t2 - t1, t3 - t2, (long long)n_results, t4 - t3,
                  (t6 - t5) * 1000.0,
                  (t7 - t6) * 1000.0 / (submitted > 1 ? submitted - 1 : 1),
                  submitted, getenv("TNY_STORE_NO_SYNC") ? "OFF" : "FULL",
                  tv * 1000.0, (int)nb, (t9 - t8) * 1000.0,
                  (t9 - t8) * 1000.0 / (nb > 0 ? nb : 1));
    /* The loaded event's standings equal the file's (rounds 1..10). */
    for (int32_t t = 0; t < last->n_tables; t++)
        last->tables[t].has_result = false;
    char *st_b = standings_json(&ev);
    assert_string_equal(st_a, st_b);
    free(st_a);
    free(st_b);
    free(file);
    free(text);
    tny_event_release(&ev);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 22: a batch makes several writes one transaction: rolled back,
 * none of them is stored; a write refused inside it is undone alone (the
 * others stay); committed, all are; reads inside see the batch's writes;
 * a second batch cannot open inside the first. */
static void test_issue22_batch_all_or_nothing(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct hub_event_info info;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("catan", "{}", 4, 1);
    OK(hub_store_batch_begin(s, &diag));
    assert_int_equal(hub_store_batch_begin(s, &diag), TNY_ESTATE);
    OK(hub_store_create_event(s, "b1", text, strlen(text), "hub", &diag));
    OK(hub_store_get_event(s, "b1", &info, &diag)); /* its own write */
    OK(hub_store_set_event_status(s, "b1", HUB_EVENT_RUNNING, "hub", &diag));
    OK(hub_store_batch_end(s, false, &diag));
    assert_int_equal(hub_store_get_event(s, "b1", &info, &diag), TNY_ENOTFOUND);
    assert_int_equal(count_log(s, "b1", "event.create"), 0);

    OK(hub_store_batch_begin(s, &diag));
    OK(hub_store_create_event(s, "b1", text, strlen(text), "hub", &diag));
    /* Refused inside the batch (the id exists): undone alone. */
    assert_int_equal(
        hub_store_create_event(s, "b1", text, strlen(text), "hub", &diag),
        TNY_ECONFLICT);
    OK(hub_store_set_event_status(s, "b1", HUB_EVENT_RUNNING, "hub", &diag));
    OK(hub_store_batch_end(s, true, &diag));
    OK(hub_store_get_event(s, "b1", &info, &diag));
    assert_int_equal(info.status, HUB_EVENT_RUNNING);
    assert_int_equal(count_log(s, "b1", "event.create"), 1);
    assert_int_equal(hub_store_batch_end(s, true, &diag), TNY_ESTATE);
    OK(hub_store_check(s, &diag));
    free(text);
    hub_store_close(s);
    tmpdb_remove(&db);
}

/* Issue 17: a draft is checked on the caller's model in memory (the event
 * with the plan appended) as reading the rows back would: a plan with a
 * player alone at a table is refused naming it and nothing is stored; a
 * publish of another round than the model's draft is refused. */
static void test_issue17_draft_checked_on_the_model(void **state)
{
    (void)state;
    struct tmpdb db;
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct tny_round_plan plan, back;
    struct tny_round_clock clk;
    tmpdb_make(&db);
    struct hub_store *s = open_store(db.path, HUB_STORE_NO_SYNC);
    char *text = event_text("got-lcg2", "{}", 8, 5);
    OK(hub_store_create_event(s, "dm", text, strlen(text), "organiser:anna",
                              &diag));
    free(text);
    OK(hub_store_load_event(s, "dm", &ev, &diag));
    OK(tny_pair_next(&ev, &plan, &diag));
    int32_t keep = plan.tables[0].n_seats;
    plan.tables[0].n_seats = 1; /* one player alone at a table */
    int rc = hub_store_save_draft(s, "dm", &ev, &plan, "hub", &diag);
    assert_int_equal(rc, TNY_EINVAL);
    assert_int_equal(hub_store_load_draft(s, "dm", &ev, &back, &diag),
                     TNY_ENOTFOUND);
    plan.tables[0].n_seats = keep;
    OK(hub_store_save_draft(s, "dm", &ev, &plan, "hub", &diag));
    OK(tny_round_clock_init(&clk, 0, &diag));
    /* Publishing another round than the model's draft is refused. */
    assert_int_equal(hub_store_publish_draft(s, "dm", 2, &clk, &ev, &plan,
                                             "organiser:anna", &diag),
                     TNY_EINVAL);
    OK(hub_store_publish_draft(s, "dm", 1, &clk, &ev, &plan, "organiser:anna",
                               &diag));
    struct hub_round_info info;
    OK(hub_store_get_round(s, "dm", 1, &info, &diag));
    assert_int_equal(info.status, HUB_ROUND_PUBLISHED);
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    hub_store_close(s);
    tmpdb_remove(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CM_5_CM_6_round_trip_neuroshima),
        cmocka_unit_test(test_issue17_draft_checked_on_the_model),
        cmocka_unit_test(test_CM_5_CM_6_round_trip_catan),
        cmocka_unit_test(test_CM_5_CM_6_round_trip_tantrix),
        cmocka_unit_test(test_CM_6_idempotency_and_conflicts),
        cmocka_unit_test(test_CM_6_batch_submit_mixed_outcomes),
        cmocka_unit_test(test_CM_2_CM_3_CM_5_TX_7_organiser_actions),
        cmocka_unit_test(test_player_changes_read_no_event_back),
        cmocka_unit_test(test_store_migrations),
        cmocka_unit_test(test_issue19_store_sides),
        cmocka_unit_test(test_issue19_CM_5_swap_recomputes_sides),
        cmocka_unit_test(test_issue17_store_counts_writes),
        cmocka_unit_test(test_store_counters_and_migration_1_to_2),
        cmocka_unit_test(test_NH_11_declare_armies),
        cmocka_unit_test(test_store_migration_6_to_7_draft_starts),
        cmocka_unit_test(test_store_crash_safety),
        cmocka_unit_test(test_CM_5_CM_7_publish_round_with_clock),
        cmocka_unit_test(test_CM_5_CM_6_corrections),
        cmocka_unit_test(test_store_read_only),
        cmocka_unit_test(test_store_full_database),
        cmocka_unit_test(test_store_write_fault_set_and_cleared),
        cmocka_unit_test(test_issue22_batch_all_or_nothing),
        cmocka_unit_test(test_store_must_exist_probe_backup),
        cmocka_unit_test(test_store_checkpoint_soon),
        cmocka_unit_test(test_store_checkpoint_with_reader),
        cmocka_unit_test(test_store_wal_written_ahead),
        cmocka_unit_test(test_store_load_10000_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
