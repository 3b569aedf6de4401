/* test_rng.c - the seeded generator is reproducible and unbiased (CM-4). */
#include "testutil.h"

#include "tny/rng.h"

static void test_CM_4_same_seed_same_draws(void **state)
{
    (void)state;
    struct tny_rng a, b;
    tny_rng_derive(&a, 20041120, TNY_LOT_PAIRING, 3);
    tny_rng_derive(&b, 20041120, TNY_LOT_PAIRING, 3);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(tny_rng_next(&a), tny_rng_next(&b));
}

static void test_CM_4_streams_independent(void **state)
{
    (void)state;
    struct tny_rng a, b;
    tny_rng_derive(&a, 7, TNY_LOT_PAIRING, 1);
    tny_rng_derive(&b, 7, TNY_LOT_BYE, 1);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += tny_rng_next(&a) == tny_rng_next(&b);
    assert_true(same < 2);
}

static void test_CM_4_below_is_uniform(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 1);
    int counts[6] = {0};
    for (int i = 0; i < 60000; i++)
        counts[tny_rng_below(&rng, 6)]++;
    for (int i = 0; i < 6; i++) /* 10000 expected; 5 sigma is about 450 */
        assert_true(counts[i] > 9500 && counts[i] < 10500);
}

static void test_CM_4_shuffle_is_permutation(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 99);
    int32_t items[50];
    for (int i = 0; i < 50; i++)
        items[i] = i;
    tny_rng_shuffle_i32(&rng, items, 50);
    int seen[50] = {0};
    int moved = 0;
    for (int i = 0; i < 50; i++) {
        seen[items[i]]++;
        moved += items[i] != i;
    }
    for (int i = 0; i < 50; i++)
        assert_int_equal(seen[i], 1);
    assert_true(moved > 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CM_4_same_seed_same_draws),
        cmocka_unit_test(test_CM_4_streams_independent),
        cmocka_unit_test(test_CM_4_below_is_uniform),
        cmocka_unit_test(test_CM_4_shuffle_is_permutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
