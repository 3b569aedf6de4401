/* test_result_flow.c - a result key flows through every adapter by its
 * kind alone (issue 18 item 1): random results built from the schema
 * (tny/result_schema.h: each game's keys, each key's kind, each number's
 * range) through tny/result_value.h, kept when tny_result_validate accepts
 * them, go
 * - through the event file's JSON (tny_result_to_json, tny_result_from_json),
 * - through the wire (table -> wire result -> ResultSubmission bytes ->
 *   decoded -> table),
 * - through the hub's result JSON and the console's result argument
 *   (hub__result_json, hub_console_result_from_json -> table),
 * and come back the same result; every key of every game (a module's
 * own keys too, in their row's range) is present in some accepted
 * result, and every game of the registry has a sample.  Nothing here names a
 * key: a key added to the schema (and to result_value.c's get/set) is
 * generated, carried and checked by this test without a change to it or to the
 * adapters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "console_internal.h"
#include "service/publish.h"
#include "tny/event.h"
#include "tny/json_io.h"
#include "tny/result_schema.h"
#include "tny/result_value.h"
#include "tny/wire.h"

/* One game: a preset, its stage, its seats and a result to load it. */
struct sample {
    enum tny_game game;
    const char *preset, *stage;
    int seats;
    const char *result;
};

static const struct sample samples[] = {
    {TNY_GAME_NEUROSHIMA_HEX, "neuroshima-hex", "swiss", 2,
     "{\"winner\": \"p2\", \"hq_diff\": 7}"},
    {TNY_GAME_TANTRIX, "tantrix", "swiss", 2, "{\"default_win\": \"p1\"}"},
    {TNY_GAME_AGRICOLA, "agricola", "prelim", 4,
     "{\"vp\": {\"p1\": 1, \"p2\": 2, \"p3\": 3, \"p4\": 4}, \"ip\": {\"p1\": "
     "0, \"p2\": 0, \"p3\": 0, \"p4\": 0}, \"bp\": {\"p1\": 0, \"p2\": 0, "
     "\"p3\": 0, \"p4\": 0}}"},
    {TNY_GAME_GOT_LCG2, "got-lcg2", "swiss", 2, "{\"winner\": \"p1\"}"},
    {TNY_GAME_CATAN, "catan", "round", 4,
     "{\"vp\": {\"p1\": 10, \"p2\": 8, \"p3\": 7, \"p4\": 5}}"},
    {TNY_GAME_TWO_PLAYER, "swiss-2p", "swiss", 2, "{\"winner\": \"p1\"}"},
    {TNY_GAME_NETRUNNER, "netrunner-sss", "swiss", 2, "{\"winner\": \"p1\"}"},
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t next(uint32_t n) /* 0..n-1 */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (uint32_t)(rng_state % n) : 0;
}

static void load(const struct sample *s, struct tny_event *ev)
{
    char buf[2048];
    int n = snprintf(buf, sizeof buf, "{\"format\": \"%s\", \"players\": [",
                     s->preset);
    for (int p = 1; p <= s->seats; p++)
        n += snprintf(buf + n, sizeof buf - (size_t)n,
                      "%s{\"id\": \"p%d\", \"name\": \"P%d\"%s}",
                      p > 1 ? ", " : "", p, p,
                      s->game == TNY_GAME_NEUROSHIMA_HEX
                          ? ", \"armies\": [\"Borgo\", \"Moloch\", "
                            "\"Vegas\", \"Smart\", \"Dancer\"]"
                          : "");
    n += snprintf(buf + n, sizeof buf - (size_t)n,
                  "], \"rounds\": [{\"stage\": \"%s\", \"tables\": "
                  "[{\"table\": 1, \"players\": [",
                  s->stage);
    for (int p = 1; p <= s->seats; p++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s\"p%d\"",
                      p > 1 ? ", " : "", p);
    n += snprintf(buf + n, sizeof buf - (size_t)n, "], \"result\": %s}]}]}",
                  s->result);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    struct tny_diag d = {{0}};
    if (tny_event_from_json_text(buf, strlen(buf), ev, &d) != 0)
        fail_msg("%s: %s", s->preset, d.msg);
}

/* A number in key k's range in fmt (the schema's row), else 0..100 (points:
 * 0..10 TP). */
static int64_t number_of(const struct tny_format *fmt, enum tny_result_key k)
{
    int64_t lo = 0, hi = 100;
    if (tny_result_key_info(k)->value == TNY_RV_POINTS)
        hi = 10 * TNY_POINT_SCALE; /* no range row: a few TP */
    const struct tny_result_ext *x = tny_result_ext_of(k);
    if (x) { /* a module's own key: its row's range */
        lo = tny_result_bound_value(fmt, &x->lo);
        hi = tny_result_bound_value(fmt, &x->hi);
    }
    for (int f = 0; f < TNY_RF_COUNT; f++)
        if (tny_result_field_key((enum tny_result_field)f) == k &&
            tny_result_range_info(fmt->game, (enum tny_result_field)f))
            tny_result_range(fmt, (enum tny_result_field)f, &lo, &hi);
    if (hi - lo > 1000000)
        hi = lo + 1000000;
    int64_t v = lo + (int64_t)next((uint32_t)(hi - lo + 1));
    if (tny_result_key_info(k)->value == TNY_RV_POINTS)
        v -= v % (TNY_POINT_SCALE / 2); /* a half point at most */
    return v;
}

static const char *const lines[] = {"first player: p1", "seats", "x",
                                    "dice: p2 starts"};

/* A random value of key k by its kind: the only place values are made. */
static void random_value(const struct tny_event *ev, int32_t n_seats,
                         enum tny_result_key k, struct tny_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    memset(v, 0, sizeof(*v));
    v->present = true;
    switch (info->value) {
    case TNY_RV_FLAG: v->flag = true; break;
    case TNY_RV_NUMBER: v->number = number_of(&ev->format, k); break;
    case TNY_RV_PLAYER: v->seat = (int32_t)next((uint32_t)n_seats); break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY:
        for (int32_t s = 0; s < n_seats; s++) {
            v->has[s] = tny_result_value_every_seat(k) || next(2);
            v->per[s] = info->value == TNY_RV_ARMY
                            ? (int64_t)next((uint32_t)ev->format.n_armies)
                            : number_of(&ev->format, k);
        }
        break;
    case TNY_RV_PLAYERS:
    case TNY_RV_TEXTS:
        v->n = 1 + (int32_t)next((uint32_t)info->max_items);
        for (int32_t i = 0; i < v->n; i++) {
            v->seats[i] = (int32_t)next((uint32_t)n_seats);
            v->texts[i] = lines[i % 4];
        }
        break;
    }
}

static bool same(const struct tny_result *a, const struct tny_result *b,
                 int32_t n_seats)
{
    if (!tny_result_same(a, b, n_seats))
        return false;
    for (int32_t s = 0; s < n_seats; s++)
        if (a->penalty[s] != b->penalty[s])
            return false;
    return true;
}

/* The event file (its writer and its parser) and back: false when the
 * event file's rules between keys refuse the result (tny_result_validate
 * checks ranges, the parser the rest: such a result is not valid and goes
 * no further). */
static bool through_json(struct tny_event *ev, const struct tny_table *t)
{
    struct tny_table keep = ev->rounds[0].tables[0];
    struct tny_event back;
    struct tny_diag d = {{0}};
    char *text = NULL;
    int rc;

    ev->rounds[0].tables[0] = *t;
    rc = tny_event_to_json(ev, &text);
    ev->rounds[0].tables[0] = keep;
    assert_int_equal(rc, 0);
    if (tny_event_from_json_text(text, strlen(text), &back, &d) != 0) {
        free(text);
        return false;
    }
    if (!same(&back.rounds[0].tables[0].result, &t->result, t->n_seats))
        fail_msg("%s %s: another result back", ev->format.name, text);
    tny_event_release(&back);
    free(text);
    return true;
}

/* false when the wire's own rules between keys refuse the result (GT-9: a
 * winner who won two of the games; the event file does not check it). */
static bool through_wire(const struct tny_event *ev, const struct tny_table *t)
{
    struct tny_wire_submission sub, back;
    struct tny_table assigned = *t, out;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;

    memset(&sub, 0, sizeof sub);
    snprintf(sub.key, sizeof sub.key, "k1");
    snprintf(sub.device_id, sizeof sub.device_id, "table-001");
    snprintf(sub.event_id, sizeof sub.event_id, "e");
    sub.round = 1;
    sub.table = 1;
    if (tny_wire_result_from_table(ev, t, &sub.result, &d) != 0 ||
        tny_wire_encode_submission(&sub, &buf, &len, &d) != 0 ||
        tny_wire_decode_submission(buf, len, &back, &d) != 0)
        fail_msg("%s: %s", ev->format.name, d.msg);
    free(buf);
    assigned.has_result = false;
    if (tny_wire_result_to_table(ev, ev->rounds[0].stage, &assigned,
                                 &back.result, "result", &out, &d) != 0)
        return false;
    if (!same(&out.result, &t->result, t->n_seats)) {
        json_t *o = tny_result_to_json(ev, t);
        char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
        fail_msg("%s %s: another result back from the wire", ev->format.name,
                 text ? text : "?");
    }
    return true;
}

/* The console: an organiser's result has no lots (CM-4: lots are drawn
 * at the table), so the table's are left out. */
static void through_console(const struct tny_event *ev,
                            const struct tny_table *table)
{
    struct tny_wire_result wr, back;
    struct tny_table organiser = *table, assigned = *table, out;
    const struct tny_table *t = &organiser;
    struct tny_diag d = {{0}};
    char *text = NULL;

    organiser.result.n_lots = 0;
    if (tny_wire_result_from_table(ev, t, &wr, &d) != 0 ||
        hub__result_json(&wr, &text, &d) != 0)
        fail_msg("%s: %s", ev->format.name, d.msg);
    if (hub_console_result_from_json(text, tny_game_name(ev->format.game),
                                     &back, &d) != 0)
        fail_msg("%s %s: the console refuses: %s", ev->format.name, text,
                 d.msg);
    assigned.has_result = false;
    if (tny_wire_result_to_table(ev, ev->rounds[0].stage, &assigned, &back,
                                 "result", &out, &d) != 0)
        fail_msg("%s %s: %s", ev->format.name, text, d.msg);
    if (!same(&out.result, &t->result, t->n_seats))
        fail_msg("%s %s: another result back from the console", ev->format.name,
                 text);
    free(text);
}

static void test_every_key_flows(void **state)
{
    (void)state;
    /* Every game of the registry has a sample (a new game's keys, its own
     * included, are carried here once its row is added). */
    for (int g = 0; g < TNY_GAME_COUNT; g++) {
        size_t i = 0;
        while (i < sizeof samples / sizeof *samples &&
               (int)samples[i].game != g)
            i++;
        if (i == sizeof samples / sizeof *samples)
            fail_msg("game \"%s\" has no sample here: add its preset, "
                     "stage, seats and a result",
                     tny_game_name((enum tny_game)g));
    }
    for (size_t g = 0; g < sizeof samples / sizeof *samples; g++) {
        const struct sample *s = &samples[g];
        const enum tny_result_key *keys;
        int32_t n_keys = tny_result_keys(s->game, &keys);
        int32_t seen[TNY_RK_ALL] = {0}, accepted = 0;
        struct tny_event ev;

        load(s, &ev);
        for (int iter = 0; iter < 500; iter++) {
            struct tny_table t = ev.rounds[0].tables[0];
            struct tny_diag d = {{0}};
            tny_result_value_reset(&t.result);
            for (int32_t i = 0; i < n_keys; i++) {
                struct tny_result_val v;
                if (next(3) == 0)
                    continue;
                random_value(&ev, t.n_seats, keys[i], &v);
                tny_result_value_set(&t.result, keys[i], &v);
            }
            t.has_result = true;
            if (tny_result_validate(&ev, ev.rounds[0].stage, &t, "result",
                                    &d) != 0)
                continue;
            if (!through_json(&ev, &t))
                continue;
            /* NEEDSWORK: an event file's TX-4 decision may keep the game's
             * scores (event-file.md), the wire carries the decision alone
             * (wire.h): one statement of that rule would let this go. */
            if ((t.result.decided && t.result.has_score) ||
                !through_wire(&ev, &t))
                continue;
            accepted++;
            for (int32_t i = 0; i < n_keys; i++) {
                struct tny_result_val v;
                tny_result_value_get(&t.result, t.n_seats, keys[i], &v);
                seen[keys[i]] += v.present;
            }
            through_console(&ev, &t);
        }
        for (int32_t i = 0; i < n_keys; i++)
            if (seen[keys[i]] == 0)
                fail_msg("%s: no accepted result has \"%s\" (of %d)", s->preset,
                         tny_result_key_name(keys[i]), (int)accepted);
        tny_event_release(&ev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_flows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
