/* test_roundrobin.c - Berger tables (TX round-robin option): the FIDE
 * tables for 6 and 8 players, and cycle properties for 2..40 players. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tny/roundrobin.h"

/* FIDE Handbook C.05 Annex 1, "5 or 6 players". */
static const int32_t berger6[5][3][2] = {
    {{1, 6}, {2, 5}, {3, 4}}, {{6, 4}, {5, 3}, {1, 2}},
    {{2, 6}, {3, 1}, {4, 5}}, {{6, 5}, {1, 4}, {2, 3}},
    {{3, 6}, {4, 2}, {5, 1}},
};

/* FIDE Handbook C.05 Annex 1, "7 or 8 players". */
static const int32_t berger8[7][4][2] = {
    {{1, 8}, {2, 7}, {3, 6}, {4, 5}}, {{8, 5}, {6, 4}, {7, 3}, {1, 2}},
    {{2, 8}, {3, 1}, {4, 7}, {5, 6}}, {{8, 6}, {7, 5}, {1, 4}, {2, 3}},
    {{3, 8}, {4, 2}, {5, 1}, {6, 7}}, {{8, 7}, {1, 6}, {2, 5}, {3, 4}},
    {{4, 8}, {5, 3}, {6, 2}, {7, 1}},
};

static void test_TX_round_robin_berger_6(void **state)
{
    (void)state;
    int32_t pairs[3][2], bye = -1;
    assert_int_equal(tny_round_robin_rounds(6), 5);
    for (int32_t r = 1; r <= 5; r++) {
        assert_int_equal(tny_round_robin_pairs(6, r, pairs, &bye, NULL), 0);
        assert_int_equal(bye, 0);
        assert_memory_equal(pairs, berger6[r - 1], sizeof(pairs));
    }
}

static void test_TX_round_robin_berger_8(void **state)
{
    (void)state;
    int32_t pairs[4][2], bye = -1;
    assert_int_equal(tny_round_robin_rounds(8), 7);
    for (int32_t r = 1; r <= 7; r++) {
        assert_int_equal(tny_round_robin_pairs(8, r, pairs, &bye, NULL), 0);
        assert_int_equal(bye, 0);
        assert_memory_equal(pairs, berger8[r - 1], sizeof(pairs));
    }
}

/* 7 players use the 8-player table; whoever meets 8 sits out. */
static void test_TX_round_robin_berger_7_bye(void **state)
{
    (void)state;
    int32_t pairs[3][2], bye = -1;
    assert_int_equal(tny_round_robin_rounds(7), 7);
    for (int32_t r = 1; r <= 7; r++) {
        assert_int_equal(tny_round_robin_pairs(7, r, pairs, &bye, NULL), 0);
        int32_t want_bye = berger8[r - 1][0][0] == 8 ? berger8[r - 1][0][1]
                                                     : berger8[r - 1][0][0];
        assert_int_equal(bye, want_bye);
        assert_memory_equal(pairs, &berger8[r - 1][1], sizeof(pairs));
    }
}

/* n = 2..40: every pair exactly once per cycle, everyone once per round,
 * odd n: one bye each; first-named counts differ by at most one per player
 * for even n (FIDE colour balance). */
static void test_TX_round_robin_properties(void **state)
{
    (void)state;
    int32_t pairs[20][2];
    for (int32_t n = 2; n <= 40; n++) {
        int32_t rounds = tny_round_robin_rounds(n);
        assert_int_equal(rounds, n % 2 ? n : n - 1);
        unsigned char *met = calloc((size_t)(n + 1) * (size_t)(n + 1), 1);
        int32_t byes[41] = {0}, firsts[41] = {0};
        assert_non_null(met);
        for (int32_t r = 1; r <= rounds; r++) {
            int32_t bye = -1, seen[41] = {0};
            assert_int_equal(tny_round_robin_pairs(n, r, pairs, &bye, NULL), 0);
            if (n % 2) {
                assert_true(bye >= 1 && bye <= n);
                seen[bye]++;
                byes[bye]++;
            } else {
                assert_int_equal(bye, 0);
            }
            for (int32_t t = 0; t < n / 2; t++) {
                int32_t a = pairs[t][0], b = pairs[t][1];
                assert_true(a >= 1 && a <= n && b >= 1 && b <= n && a != b);
                seen[a]++;
                seen[b]++;
                firsts[a]++;
                met[a * (n + 1) + b]++;
                met[b * (n + 1) + a]++;
            }
            for (int32_t p = 1; p <= n; p++)
                assert_int_equal(seen[p], 1);
        }
        for (int32_t a = 1; a <= n; a++) {
            for (int32_t b = 1; b <= n; b++)
                assert_int_equal(met[a * (n + 1) + b], a != b);
            if (n % 2)
                assert_int_equal(byes[a], 1);
            else
                assert_true(abs(2 * firsts[a] - (n - 1)) <= 1);
        }
        free(met);
    }
}

static void test_TX_round_robin_ranges(void **state)
{
    (void)state;
    struct tny_diag diag;
    int32_t pairs[4][2], bye;
    assert_int_equal(tny_round_robin_pairs(1, 1, pairs, &bye, &diag),
                     TNY_ERANGE);
    assert_int_equal(tny_round_robin_pairs(8, 0, pairs, &bye, &diag),
                     TNY_ERANGE);
    assert_int_equal(tny_round_robin_pairs(8, 8, pairs, &bye, &diag),
                     TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "1..7"));
    assert_int_equal(tny_round_robin_pairs(7, 7, pairs, &bye, &diag), 0);
    assert_int_equal(tny_round_robin_rounds(TNY_ROUND_ROBIN_MAX + 1), 0);
    assert_int_equal(tny_round_robin_pairs(2, 1, pairs, &bye, &diag), 0);
    assert_int_equal(pairs[0][0], 1);
    assert_int_equal(pairs[0][1], 2);
}

/* The largest field still forms a valid last round (no overflow). */
static void test_TX_round_robin_largest(void **state)
{
    (void)state;
    static int32_t pairs[TNY_ROUND_ROBIN_MAX / 2][2];
    static unsigned char seen[TNY_ROUND_ROBIN_MAX + 1];
    int32_t n = TNY_ROUND_ROBIN_MAX, bye;
    int32_t r = tny_round_robin_rounds(n);
    assert_int_equal(tny_round_robin_pairs(n, r, pairs, &bye, NULL), 0);
    for (int32_t t = 0; t < n / 2; t++) {
        seen[pairs[t][0]]++;
        seen[pairs[t][1]]++;
    }
    for (int32_t p = 1; p <= n; p++)
        assert_int_equal(seen[p], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_TX_round_robin_berger_6),
        cmocka_unit_test(test_TX_round_robin_berger_8),
        cmocka_unit_test(test_TX_round_robin_berger_7_bye),
        cmocka_unit_test(test_TX_round_robin_properties),
        cmocka_unit_test(test_TX_round_robin_ranges),
        cmocka_unit_test(test_TX_round_robin_largest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
