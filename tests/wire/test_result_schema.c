/* test_result_schema.c - the per-game result schema (tny/result_schema.h,
 * issue 12) against the adapters that use it and the engine that enforces
 * it:
 * - every key of every game's result round-trips through the JSON adapter
 *   (event file out and back, the same keys, the same text) and through
 *   the wire mapping (table -> wire result -> ResultSubmission bytes ->
 *   table: the same event file), and the samples together use every key
 *   the schema lists for the game;
 * - every range row is what tny_result_validate enforces: both bounds are
 *   accepted, one past each bound is refused with the key named and the
 *   range in the message (the rule IDs: NH-1, TX-1, TX-3, TX-4, AG-1,
 *   CT-4, CM-6 for a two-player game);
 * - every row's structural bound is what the wire mapping enforces (one
 *   past it: the encoder refuses naming the GameResult field);
 * - the caps are scoring's: NH-2 (a Dancer match counts at most the cap),
 *   CT-4 (VP above the cap count as the cap).
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

#include "testutil.h"
#include "tny/event.h"
#include "tny/json_io.h"
#include "tny/result_schema.h"
#include "tny/score.h"
#include "tny/wire.h"

#define OK(x)                                                                  \
    do {                                                                       \
        struct tny_diag d_ = {{0}};                                            \
        (void)d_;                                                              \
        int rc_ = (x);                                                         \
        if (rc_ != 0)                                                          \
            fail_msg("%s: rc %d", #x, rc_);                                    \
    } while (0)

/* One game: a preset, its stage, seats, and result objects that together
 * use every key of the game. */
struct sample {
    enum tny_game game;
    const char *preset, *stage;
    int seats;
    const char *results[6];
};

static const struct sample samples[] = {
    {TNY_GAME_NEUROSHIMA_HEX,
     "neuroshima-hex",
     "swiss",
     2,
     {"{\"winner\": \"p2\", \"hq_diff\": 7, \"armies\": {\"p1\": \"Borgo\", "
      "\"p2\": \"Dancer\"}, \"lots\": [\"first player: p1\"]}",
      "{\"draw\": true, \"hq_diff\": 0}", NULL}},
    {TNY_GAME_TANTRIX,
     "tantrix",
     "swiss",
     2,
     {"{\"scores\": {\"p1\": 31, \"p2\": 22}, \"clock_ms\": {\"p1\": 1250000, "
      "\"p2\": 900000}, \"penalty\": {\"p1\": 1}, \"lots\": [\"tiles: p2 "
      "starts\"]}",
      "{\"default_win\": \"p1\"}", "{\"tp\": {\"p1\": 12.5, \"p2\": 7.5}}",
      "{\"draw\": true}", NULL}},
    {TNY_GAME_AGRICOLA,
     "agricola",
     "prelim",
     4,
     {"{\"vp\": {\"p1\": 41, \"p2\": 38, \"p3\": 30, \"p4\": 12}, \"ip\": "
      "{\"p1\": 9, \"p2\": 8, \"p3\": 7, \"p4\": 1}, \"bp\": {\"p1\": 2, "
      "\"p2\": 0, \"p3\": 1, \"p4\": 0}, \"lots\": [\"seats\"]}",
      NULL}},
    {TNY_GAME_GOT_LCG2,
     "got-lcg2",
     "swiss",
     2,
     {"{\"winner\": \"p1\", \"modified\": true, \"lots\": [\"x\"]}",
      "{\"winner\": \"p2\", \"games\": [\"p2\", \"p1\", \"p2\"]}", NULL}},
    {TNY_GAME_CATAN,
     "catan",
     "round",
     4,
     {"{\"vp\": {\"p1\": 10, \"p2\": 8, \"p3\": 7, \"p4\": 11}, "
      "\"lots\": [\"dice: p4 starts\"]}",
      NULL}},
    {TNY_GAME_TWO_PLAYER,
     "swiss-2p",
     "swiss",
     2,
     {"{\"scores\": {\"p1\": 3, \"p2\": 1}, \"lots\": [\"colour\"]}",
      "{\"scores\": {\"p1\": 2, \"p2\": 2}, \"winner\": \"p2\"}",
      "{\"draw\": true}", "{\"intentional_draw\": true}",
      "{\"double_loss\": true}", NULL}},
    /* Issue 18 item 2: Netrunner's module declares the two-player keys
     * with its own range row (NR-3); a double loss is no NSG outcome. */
    {TNY_GAME_NETRUNNER,
     "netrunner-sss",
     "swiss",
     2,
     {"{\"scores\": {\"p1\": 7, \"p2\": 3}, \"lots\": [\"sides\"]}",
      "{\"winner\": \"p2\"}", "{\"draw\": true}",
      "{\"intentional_draw\": true}", NULL}},
};

/* An event file of the sample's preset: seats players (NH: each with five
 * registered armies, NH-10), one round, one table with result. */
static char *event_text(const struct sample *s, const char *result)
{
    char buf[4096];
    int n = snprintf(buf, sizeof buf,
                     "{\"format\": \"%s\", \"seed\": 1, "
                     "\"players\": [",
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
                  result);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    return strdup(buf);
}

static void load(const struct sample *s, const char *result,
                 struct tny_event *ev)
{
    struct tny_diag d = {{0}};
    char *text = event_text(s, result);
    if (tny_event_from_json_text(text, strlen(text), ev, &d) != 0)
        fail_msg("%s %s: %s", s->preset, result, d.msg);
    free(text);
}

/* The first table's result object of an event file's text. */
static json_t *result_of(const char *text)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err), *r;
    assert_non_null(root);
    r = json_object_get(
        json_array_get(
            json_object_get(json_array_get(json_object_get(root, "rounds"), 0),
                            "tables"),
            0),
        "result");
    assert_non_null(r);
    json_incref(r);
    json_decref(root);
    return r;
}

static char *to_text(const struct tny_event *ev)
{
    char *out = NULL;
    OK(tny_event_to_json(ev, &out));
    return out;
}

/* A table's result through the wire: wire result, ResultSubmission bytes,
 * decoded, mapped back onto the table. */
static void through_wire(const struct tny_event *ev, struct tny_table *t)
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
        fail_msg("%s: back from the wire: %s", ev->format.name, d.msg);
    *t = out;
}

/* Every sample: the same keys and text out of the JSON adapter, the same
 * event file after the wire; every key of the game used. */
static void test_every_key_round_trips(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof samples / sizeof *samples; g++) {
        const struct sample *s = &samples[g];
        const enum tny_result_key *keys;
        int32_t n_keys = tny_result_keys(s->game, &keys);
        bool used[TNY_RK_COUNT] = {false};

        for (int i = 0; s->results[i]; i++) {
            struct tny_event ev, ev2;
            json_error_t err;
            json_t *in = json_loads(s->results[i], 0, &err), *out;
            const char *key;
            json_t *v;
            char *text, *text2, *text3;

            assert_non_null(in);
            load(s, s->results[i], &ev);
            text = to_text(&ev);
            out = result_of(text);
            /* The JSON adapter writes back every key read, and only keys
             * of the game (a two-player result's winner is derived from
             * its scores and written too). */
            json_object_foreach (in, key, v) {
                if (!json_object_get(out, key))
                    fail_msg("%s %s: \"%s\" not written back", s->preset,
                             s->results[i], key);
            }
            json_object_foreach (out, key, v) {
                enum tny_result_key k;
                if (!tny_result_key_from_name(key, &k) ||
                    !tny_result_has_key(s->game, k))
                    fail_msg("%s: wrote \"%s\", not a key of the game",
                             s->preset, key);
                used[k] = true;
            }
            /* Read back, the same text. */
            {
                struct tny_diag d = {{0}};
                if (tny_event_from_json_text(text, strlen(text), &ev2, &d))
                    fail_msg("%s: %s", s->preset, d.msg);
            }
            text2 = to_text(&ev2);
            assert_string_equal(text, text2);
            /* Through the wire and back: the same event file. */
            through_wire(&ev2, &ev2.rounds[0].tables[0]);
            text3 = to_text(&ev2);
            if (strcmp(text, text3) != 0)
                fail_msg("%s %s: changed by the wire:\n%s\n%s", s->preset,
                         s->results[i], text, text3);
            free(text);
            free(text2);
            free(text3);
            json_decref(in);
            json_decref(out);
            tny_event_release(&ev);
            tny_event_release(&ev2);
        }
        for (int32_t k = 0; k < n_keys; k++)
            if (!used[keys[k]])
                fail_msg("%s: no sample uses \"%s\"", s->preset,
                         tny_result_key_name(keys[k]));
    }
}

static const struct sample *sample_of(enum tny_game game)
{
    for (size_t g = 0; g < sizeof samples / sizeof *samples; g++)
        if (samples[g].game == game)
            return &samples[g];
    fail_msg("no sample for game %d", (int)game);
    return NULL;
}

/* Sets field f of t's result (every seat) to v, with what f needs. */
static void set_field(struct tny_table *t, enum tny_result_field f, int64_t v)
{
    struct tny_result *r = &t->result;
    for (int32_t s = 0; s < t->n_seats; s++)
        switch (f) {
        case TNY_RF_SCORE:
        case TNY_RF_VP: r->score[s] = (int32_t)v; break;
        case TNY_RF_IP: r->ip[s] = (int32_t)v; break;
        case TNY_RF_BP: r->bp[s] = (int32_t)v; break;
        case TNY_RF_HQ_DIFF: r->hq_diff = (int32_t)v; break;
        case TNY_RF_DECIDED_TP:
            r->has_score = false;
            r->has_clock = false;
            r->decided = true;
            r->decided_tp[s] = v;
            break;
        case TNY_RF_CLOCK_MS: r->clock_ms[s] = (int32_t)v; break;
        case TNY_RF_COUNT: break;
        }
}

/* tny_result_validate on t with field f set to v: 0, or the message. */
static int validate_with(const struct tny_event *ev, enum tny_result_field f,
                         int64_t v, char *msg, size_t n)
{
    struct tny_table t = ev->rounds[0].tables[0];
    struct tny_diag d = {{0}};
    int rc;

    set_field(&t, f, v);
    rc = tny_result_validate(ev, ev->rounds[0].stage, &t, "result", &d);
    snprintf(msg, n, "%s", d.msg);
    return rc;
}

/* CM-6 and each row's rule: the bounds are accepted, one past each is
 * refused naming the key and the range. */
static void test_ranges_are_what_validation_enforces(void **state)
{
    const struct tny_result_range_info *rows;
    int32_t n = tny_result_ranges(&rows);
    (void)state;

    assert_true(n > 0);
    for (int32_t i = 0; i < n; i++) {
        const struct tny_result_range_info *row = &rows[i];
        const struct sample *s = sample_of(row->game);
        const char *key = tny_result_key_name(tny_result_field_key(row->field));
        struct tny_event ev;
        int64_t lo, hi;
        char msg[512], want_key[64], want_range[96];
        const int64_t past[2] = {-1, 1};

        assert_non_null(row->rule);
        assert_true(
            tny_result_has_key(row->game, tny_result_field_key(row->field)));
        load(s, s->results[0], &ev);
        tny_result_range(&ev.format, row->field, &lo, &hi);
        assert_true(lo <= hi);
        for (int b = 0; b < 2; b++) {
            int64_t edge = b ? hi : lo;
            if (validate_with(&ev, row->field, edge, msg, sizeof msg) != 0)
                fail_msg("%s %s (%s): %lld refused: %s", s->preset, key,
                         row->rule, (long long)edge, msg);
            if (validate_with(&ev, row->field, edge + past[b], msg,
                              sizeof msg) == 0)
                fail_msg("%s %s (%s): %lld accepted, range %lld..%lld",
                         s->preset, key, row->rule, (long long)(edge + past[b]),
                         (long long)lo, (long long)hi);
            snprintf(want_key, sizeof want_key, "result.%s", key);
            if (row->field == TNY_RF_DECIDED_TP) {
                char h[32];
                tny_points_text(hi, h, sizeof h);
                snprintf(want_range, sizeof want_range, "points 0..%s", h);
            } else {
                snprintf(want_range, sizeof want_range, "%lld..%lld",
                         (long long)lo, (long long)hi);
            }
            if (!strstr(msg, want_key) || !strstr(msg, want_range))
                fail_msg("%s (%s): \"%s\" lacks \"%s\" or \"%s\"", s->preset,
                         row->rule, msg, want_key, want_range);
        }
        tny_event_release(&ev);
    }
}

/* The protocol's structural bounds: the wire bound is accepted by the
 * encoder, one past it refused naming the GameResult field. */
static void test_wire_bounds_are_the_encoders(void **state)
{
    const struct tny_result_range_info *rows;
    int32_t n = tny_result_ranges(&rows);
    (void)state;

    for (int32_t i = 0; i < n; i++) {
        const struct tny_result_range_info *row = &rows[i];
        const struct sample *s = sample_of(row->game);
        const struct tny_result_key_info *k =
            tny_result_key_info(tny_result_field_key(row->field));
        struct tny_event ev;
        struct tny_wire_submission sub;
        struct tny_table t;
        struct tny_diag d = {{0}};
        uint8_t *buf = NULL;
        size_t len = 0;
        const int64_t past[2] = {-1, 1};

        load(s, s->results[0], &ev);
        for (int b = 0; b < 2; b++) {
            int64_t edge = b ? row->wire_hi : row->wire_lo;
            for (int over = 0; over < 2; over++) {
                int64_t v = edge + (over ? past[b] : 0);
                int rc;
                t = ev.rounds[0].tables[0];
                memset(&sub, 0, sizeof sub);
                snprintf(sub.key, sizeof sub.key, "k1");
                snprintf(sub.device_id, sizeof sub.device_id, "table-001");
                snprintf(sub.event_id, sizeof sub.event_id, "e");
                sub.round = 1;
                sub.table = 1;
                OK(tny_wire_result_from_table(&ev, &t, &sub.result, &d));
                for (int32_t p = 0; p < sub.result.n_players; p++) {
                    struct tny_wire_result_player *e = &sub.result.players[p];
                    switch (row->field) {
                    case TNY_RF_SCORE:
                    case TNY_RF_VP: e->score = (int32_t)v; break;
                    case TNY_RF_IP: e->ip = (int32_t)v; break;
                    case TNY_RF_BP: e->bp = (int32_t)v; break;
                    case TNY_RF_DECIDED_TP:
                        e->has_score = e->has_clock = false;
                        e->has_tp = true;
                        e->tp_units = v;
                        break;
                    case TNY_RF_CLOCK_MS: e->clock_ms = v; break;
                    default: break;
                    }
                }
                if (row->field == TNY_RF_HQ_DIFF)
                    sub.result.hq_diff = (int32_t)v;
                /* An int32 field cannot hold one past INT32_MAX. */
                if (v > INT32_MAX && row->field != TNY_RF_DECIDED_TP)
                    continue;
                rc = tny_wire_encode_submission(&sub, &buf, &len, &d);
                free(buf);
                buf = NULL;
                if (!over && rc != 0)
                    fail_msg("%s %s: %lld refused by the encoder: %s",
                             s->preset, k->wire, (long long)v, d.msg);
                if (over && rc == 0)
                    fail_msg("%s %s: %lld accepted, wire bound %lld..%lld",
                             s->preset, k->wire, (long long)v,
                             (long long)row->wire_lo, (long long)row->wire_hi);
                if (over && !strstr(d.msg, k->wire))
                    fail_msg("%s: \"%s\" does not name %s", s->preset, d.msg,
                             k->wire);
            }
        }
        tny_event_release(&ev);
    }
}

/* NH-2 and CT-4: the caps the schema declares are the ones scoring
 * applies. */
static void test_NH_2_CT_4_caps_are_scorings(void **state)
{
    struct tny_event ev;
    int64_t cap;
    int32_t hq[2];
    (void)state;

    load(sample_of(TNY_GAME_NEUROSHIMA_HEX),
         sample_of(TNY_GAME_NEUROSHIMA_HEX)->results[0], &ev);
    assert_true(tny_result_cap(&ev.format, TNY_RF_HQ_DIFF, &cap));
    assert_int_equal(cap, 20); /* NH-2: |d| capped at 20 with Dancer */
    {
        struct tny_result r = ev.rounds[0].tables[0].result; /* Dancer */
        r.hq_diff = (int32_t)cap + 1;
        tny_neuroshima_hq(&ev.format, &r, hq);
        assert_int_equal(hq[r.winner], cap);
    }
    assert_false(tny_result_cap(&ev.format, TNY_RF_SCORE, &cap));
    tny_event_release(&ev);

    load(sample_of(TNY_GAME_CATAN), sample_of(TNY_GAME_CATAN)->results[0], &ev);
    assert_true(tny_result_cap(&ev.format, TNY_RF_VP, &cap));
    assert_int_equal(cap, 10); /* CT-4: at most 10 game points */
    assert_int_equal(tny_ct_game_points(&ev.format, (int32_t)cap + 1), cap);
    assert_int_equal(tny_ct_game_points(&ev.format, (int32_t)cap), cap);
    tny_event_release(&ev);
}

/* TX-4: an organiser's decision shares out the game's TP, which are 20
 * (TX-2: the loser gets 20 - the winner's), so each player's is 0..20. */
static void test_TX_4_decided_tp_within_a_games_points(void **state)
{
    struct tny_event ev;
    int64_t lo, hi;
    (void)state;

    load(sample_of(TNY_GAME_TANTRIX), sample_of(TNY_GAME_TANTRIX)->results[0],
         &ev);
    tny_result_range(&ev.format, TNY_RF_DECIDED_TP, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 20 * TNY_POINT_SCALE);
    tny_event_release(&ev);
}

/* The lookups: names back to keys; every game's keys end with lots. */
static void test_schema_lookups(void **state)
{
    (void)state;
    for (int k = 0; k < TNY_RK_COUNT; k++) {
        enum tny_result_key back;
        const struct tny_result_key_info *i =
            tny_result_key_info((enum tny_result_key)k);
        assert_non_null(i);
        assert_true(tny_result_key_from_name(i->name, &back));
        assert_int_equal(back, k);
    }
    assert_false(tny_result_key_from_name("hq", &(enum tny_result_key){0}));
    for (size_t g = 0; g < sizeof samples / sizeof *samples; g++) {
        const enum tny_result_key *keys;
        int32_t n = tny_result_keys(samples[g].game, &keys);
        for (int32_t i = 0; i < n; i++)
            assert_true(tny_result_has_key(samples[g].game, keys[i]));
        assert_int_equal(keys[n - 1], TNY_RK_LOTS); /* CM-4, every game */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_round_trips),
        cmocka_unit_test(test_ranges_are_what_validation_enforces),
        cmocka_unit_test(test_wire_bounds_are_the_encoders),
        cmocka_unit_test(test_NH_2_CT_4_caps_are_scorings),
        cmocka_unit_test(test_TX_4_decided_tp_within_a_games_points),
        cmocka_unit_test(test_schema_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
