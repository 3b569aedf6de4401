/* test_structure.c - GT-5 structure tables, every row boundary checked
 * against seed 003 ("Struktura podstawowa", "Struktura zaawansowana"). */
#include "testutil.h"

#include <string.h>

#include "tny/structure.h"

struct expect {
    int32_t attendance;
    int32_t rounds;
    int32_t cut; /* 0 = no cut */
};

static void check(enum tny_gt_structure_kind kind, const struct expect *rows,
                  size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct tny_diag diag;
        int32_t rounds = -1, cut = -1;
        int rc = tny_gt_structure_lookup(rows[i].attendance, kind, &rounds,
                                         &cut, &diag);
        if (rc != 0)
            fail_msg("%d players: %s", (int)rows[i].attendance, diag.msg);
        if (rounds != rows[i].rounds || cut != rows[i].cut)
            fail_msg("%d players: got %d rounds top %d, want %d top %d",
                     (int)rows[i].attendance, (int)rounds, (int)cut,
                     (int)rows[i].rounds, (int)rows[i].cut);
    }
}

static void test_GT_5_basic_boundaries(void **state)
{
    (void)state;
    /* 4-8 3 No Cut; 9-16 4 No Cut; 17-24 4 Top 4; 25-40 5 Top 4;
     * 41-44 5 Top 8; 45-76 6 Top 8; 77-148 6 Top 16; 149+ 7 Top 16. */
    const struct expect rows[] = {
        {4, 3, 0},          {8, 3, 0},    {9, 4, 0},    {16, 4, 0},
        {17, 4, 4},         {24, 4, 4},   {25, 5, 4},   {40, 5, 4},
        {41, 5, 8},         {44, 5, 8},   {45, 6, 8},   {76, 6, 8},
        {77, 6, 16},        {148, 6, 16}, {149, 7, 16}, {1000, 7, 16},
        {INT32_MAX, 7, 16},
    };
    check(TNY_GT_STRUCTURE_BASIC, rows, sizeof(rows) / sizeof(rows[0]));
}

static void test_GT_5_advanced_boundaries(void **state)
{
    (void)state;
    /* 9-12 4 Top 4; 13-24 4 Top 8; 25-40 5 Top 8; 41-76 6 Top 8;
     * 77-148 6 Top 16; 149-288 6 Top 32; 289-512 7 Top 32; 513+ 8 Top 32. */
    const struct expect rows[] = {
        {9, 4, 4},    {12, 4, 4},   {13, 4, 8},   {24, 4, 8},
        {25, 5, 8},   {40, 5, 8},   {41, 6, 8},   {76, 6, 8},
        {77, 6, 16},  {148, 6, 16}, {149, 6, 32}, {288, 6, 32},
        {289, 7, 32}, {512, 7, 32}, {513, 8, 32}, {5000, 8, 32},
    };
    check(TNY_GT_STRUCTURE_ADVANCED, rows, sizeof(rows) / sizeof(rows[0]));
}

/* Every attendance of the tables' span: rounds never decrease and the cut
 * never shrinks as attendance grows, and the cut is a power of two. */
static void test_GT_5_monotonic(void **state)
{
    (void)state;
    const enum tny_gt_structure_kind kinds[2] = {TNY_GT_STRUCTURE_BASIC,
                                                 TNY_GT_STRUCTURE_ADVANCED};
    for (int k = 0; k < 2; k++) {
        int32_t prev_rounds = 0, prev_cut = 0;
        for (int32_t a = kinds[k] == TNY_GT_STRUCTURE_BASIC ? 4 : 9; a <= 600;
             a++) {
            int32_t rounds, cut;
            assert_int_equal(
                tny_gt_structure_lookup(a, kinds[k], &rounds, &cut, NULL), 0);
            assert_true(rounds >= prev_rounds && cut >= prev_cut);
            assert_true(cut == 0 || (cut & (cut - 1)) == 0);
            assert_true(cut < a); /* a cut always leaves someone out */
            prev_rounds = rounds;
            prev_cut = cut;
        }
    }
}

static void test_GT_5_below_table(void **state)
{
    (void)state;
    struct tny_diag diag;
    int32_t rounds = -1, cut = -1;
    assert_int_equal(tny_gt_structure_lookup(3, TNY_GT_STRUCTURE_BASIC, &rounds,
                                             &cut, &diag),
                     TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "at least 4"));
    assert_int_equal(tny_gt_structure_lookup(8, TNY_GT_STRUCTURE_ADVANCED,
                                             &rounds, &cut, &diag),
                     TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "at least 9"));
    assert_int_equal(tny_gt_structure_lookup(-5, TNY_GT_STRUCTURE_BASIC,
                                             &rounds, &cut, &diag),
                     TNY_ERANGE);
    assert_int_equal(tny_gt_structure_lookup(20, (enum tny_gt_structure_kind)9,
                                             &rounds, &cut, &diag),
                     TNY_EINVAL);
    assert_int_equal(rounds, -1); /* untouched on error */
    assert_int_equal(cut, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GT_5_basic_boundaries),
        cmocka_unit_test(test_GT_5_advanced_boundaries),
        cmocka_unit_test(test_GT_5_monotonic),
        cmocka_unit_test(test_GT_5_below_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
