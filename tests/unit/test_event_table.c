/* test_event_table.c - NH-11 army use checked for one table
 * (tny_event_validate_table_armies) against the whole-event check.
 *
 * A worked example (an army repeated in the Swiss stage, and the NH-12
 * beginner exception in the last Swiss round), and a property test:
 * Neuroshima Hex events played with simulated (valid) results, one table's
 * army changed at random; the one-table check plus tny_result_validate
 * must agree with tny_event_validate on the whole event every time.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/event_table.h"
#include "tny/json_io.h"
#include "tny/rng.h"
#include "tny/simulate.h"

static const char *const armies5 =
    "[\"Borgo\",\"Moloch\",\"Hegemony\",\"Outpost\",\"Vegas\"]";

/* n players, every third one a beginner when `beginners`. */
static void make_event(int n, bool beginners, uint64_t seed,
                       struct tny_event *ev)
{
    struct tny_diag diag = {{0}};
    size_t cap = 256 + (size_t)n * 160;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap,
                                  "{\"format\":\"neuroshima-hex\",\"seed\":"
                                  "%llu,\"players\":[",
                                  (unsigned long long)seed);
    for (int i = 0; i < n; i++) {
        bool beginner = beginners && i % 3 == 2;
        char extra[128];
        if (beginner)
            snprintf(extra, sizeof(extra), "\"beginner\":true");
        else
            snprintf(extra, sizeof(extra), "\"armies\":%s", armies5);
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"P%d\","
                                "\"rating\":%d,%s}",
                                i ? "," : "", i + 1, i + 1,
                                1300 + (int)((i * 7919u) % 500), extra);
    }
    snprintf(text + len, cap - len, "]}");
    int rc = tny_event_from_json_text(text, strlen(text), ev, &diag);
    if (rc != 0)
        fail_msg("event rejected: %s\n%s", diag.msg, text);
    free(text);
}

static int32_t seat_of(const struct tny_table *tb, int32_t p)
{
    for (int32_t s = 0; s < tb->n_seats; s++)
        if (tb->seats[s] == p)
            return s;
    return -1;
}

/* The (round, table) index of player p in round r, or -1. */
static int32_t table_of(const struct tny_event *ev, int32_t r, int32_t p)
{
    for (int32_t t = 0; t < ev->rounds[r].n_tables; t++)
        if (!ev->rounds[r].tables[t].is_bye &&
            seat_of(&ev->rounds[r].tables[t], p) >= 0)
            return t;
    return -1;
}

static void test_NH_11_swiss_repeat_refused_for_the_table(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_rng rng;
    struct tny_diag diag = {{0}};
    int32_t played = 0;
    make_event(16, false, 11, &ev);
    tny_rng_seed(&rng, 11);
    assert_int_equal(tny_simulate_rounds(&ev, 2, &rng, &played, &diag), 0);
    assert_int_equal(played, 2);
    assert_int_equal(ev.rounds[1].stage, TNY_STAGE_SWISS);
    /* Player 0 fields in round 2 the army they played in round 1. */
    int32_t t1 = table_of(&ev, 0, 0), t2 = table_of(&ev, 1, 0);
    assert_true(t1 >= 0 && t2 >= 0);
    struct tny_table *a = &ev.rounds[0].tables[t1];
    struct tny_table *b = &ev.rounds[1].tables[t2];
    int32_t used = a->result.army[seat_of(a, 0)];
    assert_true(used >= 0);
    int32_t s2 = seat_of(b, 0);
    b->result.army[s2] = used;
    if (b->result.army[1 - s2] == used) /* keep the table itself legal */
        b->result.army[1 - s2] = b->result.army[1 - s2] == 0 ? 1 : 0;
    assert_int_equal(tny_event_validate_table_armies(&ev, 1, t2, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "(NH-11)"));
    assert_non_null(strstr(diag.msg, "armies.p1"));
    assert_int_equal(tny_event_validate(&ev, &diag), TNY_EINVAL);
    /* Round 1's table is checked from the other side: same verdict. */
    assert_int_equal(tny_event_validate_table_armies(&ev, 0, t1, &diag),
                     TNY_EINVAL);
    /* Tables not involving player 0 pass. */
    int32_t other = t2 == 0 ? 1 : 0;
    assert_int_equal(tny_event_validate_table_armies(&ev, 1, other, &diag), 0);
    assert_int_equal(tny_event_validate_table_armies(&ev, 2, 0, &diag),
                     TNY_ERANGE);
    tny_event_release(&ev);
}

static void test_NH_11_NH_12_one_table_agrees_with_whole_event(void **state)
{
    (void)state;
    int cases = tu_property_cases(2000);
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x7ab1e);
    int refused = 0, accepted = 0;
    for (int c = 0; c < cases; c++) {
        struct tny_event ev;
        struct tny_diag diag = {{0}};
        int32_t played = 0;
        int n = 8 + (int)tny_rng_below(&rng, 17);
        make_event(n, tny_rng_below(&rng, 2) == 0,
                   tny_rng_below(&rng, 1u << 30), &ev);
        int32_t rounds = 1 + (int32_t)tny_rng_below(&rng, 9);
        assert_int_equal(tny_simulate_rounds(&ev, rounds, &rng, &played, &diag),
                         0);
        assert_int_equal(tny_event_validate(&ev, &diag), 0);
        int32_t r = (int32_t)tny_rng_below(&rng, (uint64_t)ev.n_rounds);
        struct tny_round *round = &ev.rounds[r];
        int32_t t = (int32_t)tny_rng_below(&rng, (uint64_t)round->n_tables);
        struct tny_table *tb = &round->tables[t];
        if (tb->is_bye) /* byes carry no result to check */
            t = t == 0 ? 1 : t - 1;
        tb = &round->tables[t];
        assert_false(tb->is_bye);
        if (tb->has_result) {
            int32_t s = (int32_t)tny_rng_below(&rng, (uint64_t)tb->n_seats);
            const struct tny_player *p = &ev.players[tb->seats[s]];
            tb->result.army[s] =
                p->n_armies > 0
                    ? p->armies[tny_rng_below(&rng, (uint64_t)p->n_armies)]
                    : (int32_t)tny_rng_below(&rng, 4);
        }
        bool whole = tny_event_validate(&ev, &diag) == 0;
        bool one = tny_result_validate(&ev, round->stage, tb, "t", &diag) == 0;
        if (one) {
            int rc = tny_event_validate_table_armies(&ev, r, t, &diag);
            assert_true(rc == 0 || rc == TNY_EINVAL);
            one = rc == 0;
        }
        if (whole != one)
            fail_msg("case %d: whole event %s, one table %s (round %d "
                     "table %d): %s",
                     c, whole ? "valid" : "invalid", one ? "valid" : "invalid",
                     (int)r + 1, (int)t, diag.msg);
        refused += !whole;
        accepted += whole;
        tny_event_release(&ev);
    }
    /* Both verdicts occur, so the comparison means something. */
    if (cases >= 100) {
        assert_true(refused > 0);
        assert_true(accepted > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_11_swiss_repeat_refused_for_the_table),
        cmocka_unit_test(test_NH_11_NH_12_one_table_agrees_with_whole_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
