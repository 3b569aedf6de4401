/* test_agricola.c - Agricola championship seating and placement points
 * (AG-3, AG-4, AG-5, AG-7, AG-9, AG-10, AG-11, AG-12; CT-3 shares AG-5's
 * placement points).  Worked examples come from seed 002; property tests run
 * every field size 8..96 with random player ids. */
#include "testutil.h"

#include <string.h>

#include "tny/agricola.h"

#define MAXN 96 /* largest field of the property tests */
#define MAXT (MAXN / 4)

/* ---- helpers ------------------------------------------------------------ */

/* n distinct, scattered ids (negative ones too), in random order. */
static void random_ids(struct tny_rng *rng, int32_t n, int32_t *ids)
{
    int32_t pool[4 * MAXN];
    for (int32_t i = 0; i < 4 * MAXN; i++)
        pool[i] = 7 * i - 500;
    tny_rng_shuffle_i32(rng, pool, 4 * MAXN);
    memcpy(ids, pool, (size_t)n * sizeof(*ids));
}

/* 1-based position of id in list[0..n-1]; 0 if absent. */
static int32_t rank_of(const int32_t *list, int32_t n, int32_t id)
{
    for (int32_t i = 0; i < n; i++)
        if (list[i] == id)
            return i + 1;
    return 0;
}

/* Every id of ids[0..n-1] is seated exactly once at tables[0..n/4-1]. */
static void assert_each_once(const int32_t (*tables)[4], const int32_t *ids,
                             int32_t n)
{
    int seen[MAXN * 5] = {0};
    assert_true(n <= MAXN * 5);
    for (int32_t t = 0; t < n / 4; t++) {
        for (int s = 0; s < 4; s++) {
            int32_t r = rank_of(ids, n, tables[t][s]);
            assert_true(r >= 1);
            seen[r - 1]++;
        }
    }
    for (int32_t i = 0; i < n; i++)
        assert_int_equal(seen[i], 1);
}

/* Table index (0-based) of id; -1 if absent. */
static int32_t table_of(const int32_t (*tables)[4], int32_t n_tables,
                        int32_t id)
{
    for (int32_t t = 0; t < n_tables; t++)
        for (int s = 0; s < 4; s++)
            if (tables[t][s] == id)
                return t;
    return -1;
}

/* tables[t] must equal ranking[ranks[t][0..3] - 1] seat by seat. */
static void assert_tables_ranks(const int32_t (*tables)[4],
                                const int32_t *ranking,
                                const int32_t (*ranks)[4], int32_t n_tables)
{
    for (int32_t t = 0; t < n_tables; t++)
        for (int s = 0; s < 4; s++)
            assert_int_equal(tables[t][s], ranking[ranks[t][s] - 1]);
}

static void seat_game1(int32_t n, const int32_t *ids, uint64_t seed,
                       int32_t (*tables)[4])
{
    struct tny_rng rng;
    struct tny_diag diag = {{0}};
    tny_rng_derive(&rng, seed, TNY_LOT_SEEDING, 1);
    assert_int_equal(tny_ag_seat_game1(n, ids, &rng, tables, &diag), TNY_OK);
}

/* ---- AG-3 game 1: mild seeding ----------------------------------------- */

static void test_AG_3_seeded_bands_on_distinct_tables(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(4000);
    tny_rng_seed(&rng, 3);
    for (int c = 0; c < cases; c++) {
        int32_t n = 8 + 4 * (int32_t)tny_rng_below(&rng, (MAXN - 8) / 4 + 1);
        int32_t x = n / 4, ids[MAXN], tables[MAXT][4];
        random_ids(&rng, n, ids);
        seat_game1(n, ids, tny_rng_next(&rng), tables);
        assert_each_once((const int32_t(*)[4])tables, ids, n);

        /* The x best rated: one per table.  x <= 4: the next x as well.
         * 8 players: every rating pair (1-2, 3-4, 5-6, 7-8) split. */
        int32_t seeded = x == 2 ? 8 : (x <= 4 ? 2 * x : x);
        for (int32_t band = 0; band < seeded / x; band++) {
            int per_table[MAXT] = {0};
            for (int32_t i = band * x; i < (band + 1) * x; i++)
                per_table[table_of((const int32_t(*)[4])tables, x, ids[i])]++;
            for (int32_t t = 0; t < x; t++)
                assert_int_equal(per_table[t], 1);
        }
        /* Each table lists its players in rating order. */
        for (int32_t t = 0; t < x; t++)
            for (int s = 1; s < 4; s++)
                assert_true(rank_of(ids, n, tables[t][s - 1]) <
                            rank_of(ids, n, tables[t][s]));
    }
}

static void test_AG_3_8_players_pairs_split_by_lot(void **state)
{
    (void)state;
    int32_t ids[8] = {11, 12, 13, 14, 15, 16, 17, 18};
    int first_at_table0[4] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        int32_t tables[2][4];
        seat_game1(8, ids, seed, tables);
        for (int p = 0; p < 4; p++) {
            int32_t a = table_of((const int32_t(*)[4])tables, 2, ids[2 * p]);
            int32_t b =
                table_of((const int32_t(*)[4])tables, 2, ids[2 * p + 1]);
            assert_int_not_equal(a, b);
            first_at_table0[p] += a == 0;
        }
    }
    /* By lot: each pair's better player lands on either table (binomial
     * 400 x 1/2, 200 +- 50 is over 5 sigma). */
    for (int p = 0; p < 4; p++)
        assert_true(first_at_table0[p] > 150 && first_at_table0[p] < 250);
}

static void test_AG_3_seeded_lot_is_uniform(void **state)
{
    (void)state;
    /* 16 players, x = 4: rating places 1 and 5 are seeded by lot; each
     * lands on each table 1000 times of 4000 (sigma 27). */
    int32_t ids[16];
    int count1[4] = {0}, count5[4] = {0};
    for (int32_t i = 0; i < 16; i++)
        ids[i] = 100 + i;
    for (uint64_t seed = 0; seed < 4000; seed++) {
        int32_t tables[4][4];
        seat_game1(16, ids, seed, tables);
        count1[table_of((const int32_t(*)[4])tables, 4, ids[0])]++;
        count5[table_of((const int32_t(*)[4])tables, 4, ids[4])]++;
    }
    for (int t = 0; t < 4; t++) {
        assert_true(count1[t] > 860 && count1[t] < 1140);
        assert_true(count5[t] > 860 && count5[t] < 1140);
    }
}

static void test_AG_3_others_by_lot(void **state)
{
    (void)state;
    /* 40 players, x = 10 > 4: only the top 10 are seeded.  Unseeded players
     * are free: rating places 11 and 12 share a table sometimes (2/29 of
     * the time when uniform) and place 11 reaches every table.  16 players:
     * places 9 and 10 (unseeded) share a table sometimes (1/7). */
    int32_t ids[40];
    int together40 = 0, together16 = 0, where11[10] = {0};
    for (int32_t i = 0; i < 40; i++)
        ids[i] = i;
    for (uint64_t seed = 0; seed < 2000; seed++) {
        int32_t t40[10][4], t16[4][4];
        seat_game1(40, ids, seed, t40);
        seat_game1(16, ids, seed, t16);
        int32_t a = table_of((const int32_t(*)[4])t40, 10, 10);
        together40 += a == table_of((const int32_t(*)[4])t40, 10, 11);
        where11[a]++;
        together16 += table_of((const int32_t(*)[4])t16, 4, 8) ==
                      table_of((const int32_t(*)[4])t16, 4, 9);
    }
    assert_true(together40 > 80 && together40 < 200);  /* ~138 */
    assert_true(together16 > 200 && together16 < 380); /* ~286 */
    for (int t = 0; t < 10; t++)
        assert_true(where11[t] > 120 && where11[t] < 280); /* ~200 */
}

static void test_AG_3_deterministic_and_seed_dependent(void **state)
{
    (void)state;
    for (int32_t n = 8; n <= MAXN; n += 4) {
        int32_t ids[MAXN];
        static int32_t out[100][MAXT][4];
        int distinct = 0;
        for (int32_t i = 0; i < n; i++)
            ids[i] = 1000 - 3 * i;
        for (uint64_t seed = 0; seed < 100; seed++) {
            int32_t again[MAXT][4];
            seat_game1(n, ids, seed, out[seed]);
            seat_game1(n, ids, seed, again);
            assert_memory_equal(out[seed], again,
                                sizeof(int32_t) * 4 * (size_t)(n / 4));
            int fresh = 1;
            for (uint64_t k = 0; k < seed && fresh; k++)
                fresh = memcmp(out[k], out[seed],
                               sizeof(int32_t) * 4 * (size_t)(n / 4)) != 0;
            distinct += fresh;
        }
        /* 8 players have 16 possible seatings; 12 players 3240; more
         * players far more. */
        assert_true(distinct >= (n == 8 ? 12 : 90));
    }
}

static void test_AG_3_rejects_invalid_fields(void **state)
{
    (void)state;
    struct tny_rng rng;
    struct tny_diag diag = {{0}};
    int32_t ids[TNY_AG_MAX_PLAYERS + 4];
    static int32_t tables[(TNY_AG_MAX_PLAYERS + 4) / 4][4];
    for (int32_t i = 0; i < TNY_AG_MAX_PLAYERS + 4; i++)
        ids[i] = i;
    tny_rng_seed(&rng, 1);
    assert_int_equal(tny_ag_seat_game1(10, ids, &rng, tables, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "multiple of 4"));
    assert_int_equal(tny_ag_seat_game1(4, ids, &rng, tables, NULL), TNY_ERANGE);
    assert_int_equal(tny_ag_seat_game1(0, ids, &rng, tables, NULL), TNY_ERANGE);
    assert_int_equal(
        tny_ag_seat_game1(TNY_AG_MAX_PLAYERS + 4, ids, &rng, tables, NULL),
        TNY_ERANGE);
    assert_int_equal(
        tny_ag_seat_game1(TNY_AG_MAX_PLAYERS, ids, &rng, tables, NULL), TNY_OK);
    ids[5] = 2;
    assert_int_equal(tny_ag_seat_game1(8, ids, &rng, tables, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "player 2 "));
}

/* ---- AG-4 seat and start ------------------------------------------------ */

static void test_AG_4_seat_lot_uniform_over_orders(void **state)
{
    (void)state;
    struct tny_rng rng;
    int count[24] = {0};
    tny_rng_derive(&rng, 4, TNY_LOT_SEATS, 1);
    for (int i = 0; i < 24000; i++) {
        int32_t table[4] = {10, 20, 30, 40};
        int code = 0, seen[4] = {0};
        tny_ag_seat_lot(&rng, table);
        /* Lehmer code of the order identifies it among the 24. */
        for (int s = 0; s < 4; s++) {
            int v = table[s] / 10 - 1, smaller = 0;
            assert_true(v >= 0 && v < 4);
            seen[v]++;
            for (int u = 0; u < v; u++)
                smaller += !seen[u];
            code = code * (4 - s) + smaller;
        }
        for (int v = 0; v < 4; v++)
            assert_int_equal(seen[v], 1);
        count[code]++;
    }
    for (int k = 0; k < 24; k++) /* 1000 each, sigma 31 */
        assert_true(count[k] > 840 && count[k] < 1160);
}

static void test_AG_4_starting_player_by_lot(void **state)
{
    (void)state;
    struct tny_rng a, b;
    int count[4] = {0};
    tny_rng_derive(&a, 44, TNY_LOT_SEATS, 2);
    tny_rng_derive(&b, 44, TNY_LOT_SEATS, 2);
    for (int i = 0; i < 4000; i++) {
        int32_t p = tny_ag_starting_player(&a);
        assert_true(p >= 0 && p < 4);
        assert_int_equal(p, tny_ag_starting_player(&b)); /* reproducible */
        count[p]++;
    }
    for (int k = 0; k < 4; k++) /* 1000 each, sigma 27 */
        assert_true(count[k] > 860 && count[k] < 1140);
}

/* ---- AG-5 / CT-3 placement points --------------------------------------- */

#define U TNY_AG_TP_UNIT

static void assert_points(int32_t v0, int32_t v1, int32_t v2, int32_t v3,
                          int32_t n_seats, const int64_t base[4], double e0,
                          double e1, double e2, double e3)
{
    const int32_t vp[4] = {v0, v1, v2, v3};
    const double expect[4] = {e0, e1, e2, e3};
    int64_t out[4];
    tny_ag_placement_points(vp, n_seats, base, out);
    for (int i = 0; i < 4; i++) /* expected values are exact in 1/1200 */
        assert_int_equal(out[i], (int64_t)(expect[i] * U + 0.5));
}

static const int64_t prelim[4] = {10 * U, 6 * U, 3 * U, 1 * U};

static void test_AG_5_shared_ties(void **state)
{
    (void)state;
    /* No ties, in any seat order: 10, 6, 3, 1. */
    assert_points(30, 52, 21, 44, 4, prelim, 3, 10, 1, 6);
    /* The seed's examples: two tied first 8 each, two tied second 4.5 each,
     * two tied third 2 each. */
    assert_points(50, 40, 50, 30, 4, prelim, 8, 3, 8, 1);
    assert_points(50, 40, 30, 40, 4, prelim, 10, 4.5, 1, 4.5);
    assert_points(50, 30, 40, 30, 4, prelim, 10, 2, 6, 2);
    /* Two pairs: (10+6)/2 and (3+1)/2. */
    assert_points(45, 30, 45, 30, 4, prelim, 8, 2, 8, 2);
    /* Three-way ties: (10+6+3)/3 = 19/3 and (6+3+1)/3 = 10/3. */
    assert_points(40, 40, 40, 20, 4, prelim, 19.0 / 3, 19.0 / 3, 19.0 / 3, 1);
    assert_points(40, 35, 35, 35, 4, prelim, 10, 10.0 / 3, 10.0 / 3, 10.0 / 3);
    /* Four-way tie: 20/4. */
    assert_points(33, 33, 33, 33, 4, prelim, 5, 5, 5, 5);
    /* Final stage, weight 1.25: 12.5, 7.5, 3.75, 1.25. */
    const int64_t final[4] = {10 * U * 5 / 4, 6 * U * 5 / 4, 3 * U * 5 / 4,
                              1 * U * 5 / 4};
    assert_points(60, 50, 40, 30, 4, final, 12.5, 7.5, 3.75, 1.25);
    assert_points(60, 50, 50, 50, 4, final, 12.5, 12.5 / 3, 12.5 / 3, 12.5 / 3);
}

static void test_AG_5_table_total_is_constant(void **state)
{
    (void)state;
    /* Shared ties redistribute, never create or lose points: every table
     * hands out 10+6+3+1 = 20 TP (exact in 1/1200 units). */
    struct tny_rng rng;
    int cases = tu_property_cases(5000);
    tny_rng_seed(&rng, 5);
    for (int c = 0; c < cases; c++) {
        int32_t vp[4];
        int64_t out[4], sum = 0;
        for (int i = 0; i < 4; i++)
            vp[i] = (int32_t)tny_rng_below(&rng, 6) + 40;
        tny_ag_placement_points(vp, 4, prelim, out);
        for (int i = 0; i < 4; i++) {
            sum += out[i];
            for (int j = 0; j < 4; j++) {
                if (vp[i] > vp[j])
                    assert_true(out[i] > out[j]);
                if (vp[i] == vp[j])
                    assert_int_equal(out[i], out[j]);
            }
        }
        assert_int_equal(sum, 20 * U);
    }
}

static void test_CT_3_placement_points_4_and_3_players(void **state)
{
    (void)state;
    const int64_t catan[4] = {4 * U, 3 * U, 2 * U, 1 * U};
    assert_points(10, 8, 7, 6, 4, catan, 4, 3, 2, 1);
    assert_points(10, 8, 8, 6, 4, catan, 4, 2.5, 2.5, 1); /* tied 2nd-3rd */
    /* 3-player table gives 4, 3, 2; the 4th seat is unused and zero. */
    assert_points(7, 10, 8, 99, 3, catan, 2, 4, 3, 0);
    assert_points(10, 8, 8, 99, 3, catan, 4, 2.5, 2.5, 0);
    assert_points(9, 9, 9, 99, 3, catan, 3, 3, 3, 0);
}

/* ---- AG-7 game 2 -------------------------------------------------------- */

/* Seat game 2 from random game-1 tables; checks the AG-7 rule for x >= 4. */
static void test_AG_7_16_or_more_players(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(4000);
    tny_rng_seed(&rng, 7);
    for (int c = 0; c < cases; c++) {
        int32_t n = 16 + 4 * (int32_t)tny_rng_below(&rng, (MAXN - 16) / 4 + 1);
        int32_t x = n / 4, ids[MAXN], g1[MAXT][4], g2[MAXT][4];
        random_ids(&rng, n, ids);
        memcpy(g1, ids, sizeof(int32_t) * (size_t)n);
        assert_int_equal(
            tny_ag_seat_game2(x, (const int32_t(*)[4])g1, g2, NULL), TNY_OK);
        assert_each_once((const int32_t(*)[4])g2, ids, n);
        for (int32_t t = 0; t < x; t++) {
            int32_t from[4];
            /* The winner stays at their table. */
            assert_int_equal(g2[t][0], g1[t][0]);
            for (int s = 0; s < 4; s++) {
                /* seat s holds a game-1 (s+1)th, from game-1 table from[s] */
                from[s] = table_of((const int32_t(*)[4])g1, x, g2[t][s]);
                assert_int_equal(g1[from[s]][s], g2[t][s]);
            }
            /* Four different game-1 tables, hence no game-1 opponents. */
            for (int s = 0; s < 4; s++)
                for (int u = s + 1; u < 4; u++)
                    assert_int_not_equal(from[s], from[u]);
        }
    }
}

/* Pairs of players who sat together in both a and b. */
static int repeated_pairs(const int32_t (*a)[4], const int32_t (*b)[4],
                          int32_t x)
{
    int count = 0;
    for (int32_t t = 0; t < x; t++)
        for (int s = 0; s < 4; s++)
            for (int u = s + 1; u < 4; u++)
                count += table_of(a, x, b[t][s]) == table_of(a, x, b[t][u]);
    return count;
}

static void test_AG_7_3_tables_fourth_stays(void **state)
{
    (void)state;
    int32_t g1[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int32_t g2[3][4];
    const int32_t ids[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    assert_int_equal(tny_ag_seat_game2(3, (const int32_t(*)[4])g1, g2, NULL),
                     TNY_OK);
    assert_each_once((const int32_t(*)[4])g2, ids, 12);
    for (int32_t t = 0; t < 3; t++) {
        /* Winners and 4th-placed stay; 2nd and 3rd move elsewhere. */
        assert_int_equal(table_of((const int32_t(*)[4])g2, 3, g1[t][0]), t);
        assert_int_equal(table_of((const int32_t(*)[4])g2, 3, g1[t][3]), t);
        assert_int_not_equal(table_of((const int32_t(*)[4])g2, 3, g1[t][1]), t);
        assert_int_not_equal(table_of((const int32_t(*)[4])g2, 3, g1[t][2]), t);
        /* Every table again has a 1st, 2nd, 3rd and 4th of game 1. */
        for (int s = 0; s < 4; s++)
            assert_int_equal((g2[t][s] - 1) % 4, s);
    }
    /* The only rematches are the three 1st-4th pairs the rule keeps. */
    assert_int_equal(
        repeated_pairs((const int32_t(*)[4])g1, (const int32_t(*)[4])g2, 3), 3);
}

static void test_AG_7_2_tables_second_third_swap(void **state)
{
    (void)state;
    int32_t g1[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    int32_t g2[2][4];
    /* Seed: 1st and 4th stay, 2nd and 3rd swap tables. */
    const int32_t expect[2][4] = {{1, 6, 7, 4}, {5, 2, 3, 8}};
    assert_int_equal(tny_ag_seat_game2(2, (const int32_t(*)[4])g1, g2, NULL),
                     TNY_OK);
    assert_memory_equal(g2, expect, sizeof(expect));
}

static void test_AG_7_rejects_invalid_input(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    int32_t g1[4][4] = {
        {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 3}};
    int32_t g2[4][4];
    assert_int_equal(tny_ag_seat_game2(4, (const int32_t(*)[4])g1, g2, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "player 3 "));
    assert_int_equal(tny_ag_seat_game2(1, (const int32_t(*)[4])g1, g2, NULL),
                     TNY_ERANGE);
    assert_int_equal(tny_ag_seat_game2(TNY_AG_MAX_PLAYERS / 4 + 1,
                                       (const int32_t(*)[4])g1, g2, NULL),
                     TNY_ERANGE);
}

/* ---- AG-9 game 3: rank sum ---------------------------------------------- */

/* ranking = ids in a scrambled order so that rank and id differ. */
static void scrambled_ranking(int32_t n, uint64_t seed, int32_t *ranking)
{
    struct tny_rng rng;
    tny_rng_seed(&rng, seed);
    random_ids(&rng, n, ranking);
}

static void test_AG_9_16_players(void **state)
{
    (void)state;
    int32_t ranking[16], tables[4][4];
    /* Seed 002, T5. */
    const int32_t expect[4][4] = {
        {1, 5, 12, 16}, {2, 6, 11, 15}, {3, 7, 10, 14}, {4, 8, 9, 13}};
    scrambled_ranking(16, 9, ranking);
    assert_int_equal(tny_ag_seat_rank_sum(16, ranking, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect, 4);
    for (int t = 0; t < 4; t++) /* the seed: "sum 34" */
        assert_int_equal(
            expect[t][0] + expect[t][1] + expect[t][2] + expect[t][3], 34);
}

static void test_AG_9_8_players(void **state)
{
    (void)state;
    int32_t ranking[8], tables[2][4];
    /* Seed 002, T5: "Bord 1: 1-4-5-8 og bord 2: 2-3-6-7" (not the 16-player
     * band pattern, which would give 1-3-6-8 and 2-4-5-7). */
    const int32_t expect[2][4] = {{1, 4, 5, 8}, {2, 3, 6, 7}};
    scrambled_ranking(8, 8, ranking);
    assert_int_equal(tny_ag_seat_rank_sum(8, ranking, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect, 2);
}

static void test_AG_9_12_players(void **state)
{
    (void)state;
    int32_t ranking[12], tables[3][4];
    /* The 16-player pattern with bands of 3: forward, forward, reversed,
     * reversed; every sum 26. */
    const int32_t expect[3][4] = {{1, 4, 9, 12}, {2, 5, 8, 11}, {3, 6, 7, 10}};
    scrambled_ranking(12, 12, ranking);
    assert_int_equal(tny_ag_seat_rank_sum(12, ranking, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect, 3);
}

static void test_AG_9_other_sizes_equal_rank_sums(void **state)
{
    (void)state;
    for (int32_t n = 4; n <= MAXN; n += 4) {
        int32_t x = n / 4, ranking[MAXN], tables[MAXT][4];
        scrambled_ranking(n, (uint64_t)n, ranking);
        assert_int_equal(tny_ag_seat_rank_sum(n, ranking, tables, NULL),
                         TNY_OK);
        assert_each_once((const int32_t(*)[4])tables, ranking, n);
        for (int32_t t = 0; t < x; t++) {
            int32_t sum = 0;
            for (int s = 0; s < 4; s++) {
                int32_t r = rank_of(ranking, n, tables[t][s]);
                sum += r;
                if (s > 0) /* rank order at the table */
                    assert_true(rank_of(ranking, n, tables[t][s - 1]) < r);
                if (n != 8) { /* one player from each band of x ranks */
                    assert_int_equal((r - 1) / x, s);
                }
            }
            /* Total of ranks 1..n is n(n+1)/2, spread over n/4 tables. */
            assert_int_equal(sum, 2 * (n + 1));
            /* Table 1 holds rank 1, table 2 rank 2, ... */
            assert_int_equal(rank_of(ranking, n, tables[t][0]), t + 1);
        }
    }
}

static void test_AG_9_rejects_invalid_input(void **state)
{
    (void)state;
    int32_t ranking[8] = {1, 2, 3, 4, 5, 6, 7, 1};
    int32_t tables[2][4];
    assert_int_equal(tny_ag_seat_rank_sum(8, ranking, tables, NULL),
                     TNY_EINVAL);
    assert_int_equal(tny_ag_seat_rank_sum(6, ranking, tables, NULL),
                     TNY_EINVAL);
    assert_int_equal(tny_ag_seat_rank_sum(0, ranking, tables, NULL),
                     TNY_ERANGE);
}

/* ---- AG-10 / AG-11 final game 1 ----------------------------------------- */

static void test_AG_10_group_split_by_index(void **state)
{
    (void)state;
    for (int32_t n = 8; n <= MAXN; n += 4) {
        int32_t ranking[MAXN], tables[MAXT][4];
        scrambled_ranking(n, 10 + (uint64_t)n, ranking);
        assert_int_equal(tny_ag_seat_final1(n, ranking, n, tables, NULL),
                         TNY_OK);
        assert_each_once((const int32_t(*)[4])tables, ranking, n);
        /* The top 8 of the ranking play on tables 1 and 2, the rest on
         * tables 3 onwards. */
        for (int32_t i = 0; i < n; i++) {
            int32_t t =
                table_of((const int32_t(*)[4])tables, n / 4, ranking[i]);
            assert_true(i < TNY_AG_GROUP_A ? t < 2 : t >= 2);
        }
    }
}

static void test_AG_11_group_a_and_b_16_players(void **state)
{
    (void)state;
    int32_t ranking[16], tables[4][4];
    /* Group A: 1-4-5-8, 2-3-6-7 (T8).  Group B (ranks 9-16) by the game-3
     * principle (T9) on 8 players: 1-4-5-8, 2-3-6-7 of the group. */
    const int32_t expect[4][4] = {
        {1, 4, 5, 8}, {2, 3, 6, 7}, {9, 12, 13, 16}, {10, 11, 14, 15}};
    scrambled_ranking(16, 11, ranking);
    assert_int_equal(tny_ag_seat_final1(16, ranking, 16, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect, 4);
}

static void test_AG_11_only_8_players(void **state)
{
    (void)state;
    int32_t ranking[8], tables[2][4];
    /* Seed T8: with 8 players in the event, 1-2-7-8 and 3-4-5-6. */
    const int32_t expect8[2][4] = {{1, 2, 7, 8}, {3, 4, 5, 6}};
    /* 8 left in the final stage of a 12-player event: the usual tables. */
    const int32_t expect12[2][4] = {{1, 4, 5, 8}, {2, 3, 6, 7}};
    scrambled_ranking(8, 118, ranking);
    assert_int_equal(tny_ag_seat_final1(8, ranking, 8, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect8, 2);
    assert_int_equal(tny_ag_seat_final1(8, ranking, 12, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect12, 2);
}

static void test_AG_11_group_b_rank_sum(void **state)
{
    (void)state;
    int32_t ranking[32], tables[8][4], r12[12], t12[3][4];
    /* 32 players: group B = ranks 9..32, 24 players, bands of 6 within the
     * group (local 1-7-18-24 ... 6-12-13-19), i.e. 9-15-26-32 ...
     * 14-20-21-27. */
    const int32_t expect[8][4] = {
        {1, 4, 5, 8},     {2, 3, 6, 7},     {9, 15, 26, 32},  {10, 16, 25, 31},
        {11, 17, 24, 30}, {12, 18, 23, 29}, {13, 19, 22, 28}, {14, 20, 21, 27}};
    /* 12 players: group B is one table, ranks 9-12. */
    const int32_t expect12[3][4] = {
        {1, 4, 5, 8}, {2, 3, 6, 7}, {9, 10, 11, 12}};
    scrambled_ranking(32, 32, ranking);
    assert_int_equal(tny_ag_seat_final1(32, ranking, 32, tables, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])tables, ranking, expect, 8);
    scrambled_ranking(12, 1212, r12);
    assert_int_equal(tny_ag_seat_final1(12, r12, 12, t12, NULL), TNY_OK);
    assert_tables_ranks((const int32_t(*)[4])t12, r12, expect12, 3);
}

static void test_AG_11_final_points_weighted(void **state)
{
    (void)state;
    /* Final stage TP x 1.25, ties shared as in AG-5: tied 3rd-4th get
     * (3.75 + 1.25) / 2 = 2.5, tied 1st-2nd (12.5 + 7.5) / 2 = 10. */
    const int64_t final[4] = {15000, 9000, 4500, 1500};
    assert_int_equal(final[0], 12.5 * U);
    assert_int_equal(final[2], 3.75 * U);
    assert_points(40, 40, 30, 20, 4, final, 10, 10, 3.75, 1.25);
    assert_points(40, 30, 20, 20, 4, final, 12.5, 7.5, 2.5, 2.5);
}

static void test_AG_11_rejects_invalid_input(void **state)
{
    (void)state;
    int32_t ranking[16], tables[4][4];
    struct tny_diag diag = {{0}};
    scrambled_ranking(16, 1, ranking);
    assert_int_equal(tny_ag_seat_final1(16, ranking, 12, tables, &diag),
                     TNY_EINVAL);
    assert_int_equal(tny_ag_seat_final1(4, ranking, 4, tables, NULL),
                     TNY_ERANGE);
    assert_int_equal(tny_ag_seat_final1(14, ranking, 16, tables, NULL),
                     TNY_EINVAL);
    ranking[15] = ranking[0];
    assert_int_equal(tny_ag_seat_final1(16, ranking, 16, tables, NULL),
                     TNY_EINVAL);
}

/* ---- AG-12 final game 2 ------------------------------------------------- */

static void test_AG_12_consecutive_ranks_per_group(void **state)
{
    (void)state;
    const int32_t a[8] = {80, 81, 82, 83, 84, 85, 86, 87};
    const int32_t b[12] = {-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12};
    int32_t tables[5][4];
    /* 1-4 and 5-8 of group A, then 9-12, 13-16, 17-20 (group B's 1-4, 5-8,
     * 9-12). */
    const int32_t expect[5][4] = {{80, 81, 82, 83},
                                  {84, 85, 86, 87},
                                  {-1, -2, -3, -4},
                                  {-5, -6, -7, -8},
                                  {-9, -10, -11, -12}};
    assert_int_equal(tny_ag_seat_final2(8, a, 12, b, tables, NULL), TNY_OK);
    assert_memory_equal(tables, expect, sizeof(expect));
    /* An 8-player event has no group B. */
    assert_int_equal(tny_ag_seat_final2(8, a, 0, NULL, tables, NULL), TNY_OK);
    assert_memory_equal(tables, expect, 2 * sizeof(expect[0]));
}

static void test_AG_12_rejects_invalid_input(void **state)
{
    (void)state;
    const int32_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int32_t b[4] = {9, 10, 11, 1};
    int32_t tables[3][4];
    struct tny_diag diag = {{0}};
    /* Nobody may be in both groups. */
    assert_int_equal(tny_ag_seat_final2(8, a, 4, b, tables, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "player 1 "));
    assert_int_equal(tny_ag_seat_final2(8, a, 3, b, tables, NULL), TNY_EINVAL);
    assert_int_equal(tny_ag_seat_final2(0, NULL, 0, NULL, tables, NULL),
                     TNY_ERANGE);
    assert_int_equal(tny_ag_seat_final2(-4, a, 8, a, tables, NULL), TNY_ERANGE);
}

/* ---- a whole event ------------------------------------------------------ */

/* Shuffle each table's players: a random game result, 1st..4th. */
static void random_places(struct tny_rng *rng, int32_t x,
                          const int32_t (*in)[4], int32_t (*out)[4])
{
    memcpy(out, in, sizeof(int32_t) * 4 * (size_t)x);
    for (int32_t t = 0; t < x; t++)
        tny_rng_shuffle_i32(rng, out[t], 4);
}

static void test_AG_3_7_9_11_12_each_player_once_per_game(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(4000);
    tny_rng_seed(&rng, 2016);
    for (int c = 0; c < cases; c++) {
        int32_t n = 8 + 4 * (int32_t)tny_rng_below(&rng, (MAXN - 8) / 4 + 1);
        int32_t x = n / 4, ids[MAXN], rank[MAXN];
        int32_t g1[MAXT][4], p1[MAXT][4], g2[MAXT][4], g3[MAXT][4];
        int32_t f1[MAXT][4], f2[MAXT][4];
        random_ids(&rng, n, ids);

        seat_game1(n, ids, tny_rng_next(&rng), g1);
        assert_each_once((const int32_t(*)[4])g1, ids, n);

        random_places(&rng, x, (const int32_t(*)[4])g1, p1);
        assert_int_equal(
            tny_ag_seat_game2(x, (const int32_t(*)[4])p1, g2, NULL), TNY_OK);
        assert_each_once((const int32_t(*)[4])g2, ids, n);
        if (n >= 16) /* AG-7: nobody meets a game-1 opponent */
            assert_int_equal(repeated_pairs((const int32_t(*)[4])g1,
                                            (const int32_t(*)[4])g2, x),
                             0);

        memcpy(rank, ids, sizeof(int32_t) * (size_t)n);
        tny_rng_shuffle_i32(&rng, rank, n);
        assert_int_equal(tny_ag_seat_rank_sum(n, rank, g3, NULL), TNY_OK);
        assert_each_once((const int32_t(*)[4])g3, ids, n);

        tny_rng_shuffle_i32(&rng, rank, n);
        assert_int_equal(tny_ag_seat_final1(n, rank, n, f1, NULL), TNY_OK);
        assert_each_once((const int32_t(*)[4])f1, ids, n);

        /* Re-rank inside each group only (AG-12). */
        tny_rng_shuffle_i32(&rng, rank, TNY_AG_GROUP_A);
        tny_rng_shuffle_i32(&rng, rank + TNY_AG_GROUP_A, n - TNY_AG_GROUP_A);
        assert_int_equal(tny_ag_seat_final2(TNY_AG_GROUP_A, rank,
                                            n - TNY_AG_GROUP_A,
                                            rank + TNY_AG_GROUP_A, f2, NULL),
                         TNY_OK);
        assert_each_once((const int32_t(*)[4])f2, ids, n);
        for (int32_t i = 0; i < n; i++) /* rank i+1 at table (i/4)+1 */
            assert_int_equal(table_of((const int32_t(*)[4])f2, x, rank[i]),
                             i / 4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_AG_3_seeded_bands_on_distinct_tables),
        cmocka_unit_test(test_AG_3_8_players_pairs_split_by_lot),
        cmocka_unit_test(test_AG_3_seeded_lot_is_uniform),
        cmocka_unit_test(test_AG_3_others_by_lot),
        cmocka_unit_test(test_AG_3_deterministic_and_seed_dependent),
        cmocka_unit_test(test_AG_3_rejects_invalid_fields),
        cmocka_unit_test(test_AG_4_seat_lot_uniform_over_orders),
        cmocka_unit_test(test_AG_4_starting_player_by_lot),
        cmocka_unit_test(test_AG_5_shared_ties),
        cmocka_unit_test(test_AG_5_table_total_is_constant),
        cmocka_unit_test(test_CT_3_placement_points_4_and_3_players),
        cmocka_unit_test(test_AG_7_16_or_more_players),
        cmocka_unit_test(test_AG_7_3_tables_fourth_stays),
        cmocka_unit_test(test_AG_7_2_tables_second_third_swap),
        cmocka_unit_test(test_AG_7_rejects_invalid_input),
        cmocka_unit_test(test_AG_9_16_players),
        cmocka_unit_test(test_AG_9_8_players),
        cmocka_unit_test(test_AG_9_12_players),
        cmocka_unit_test(test_AG_9_other_sizes_equal_rank_sums),
        cmocka_unit_test(test_AG_9_rejects_invalid_input),
        cmocka_unit_test(test_AG_10_group_split_by_index),
        cmocka_unit_test(test_AG_11_group_a_and_b_16_players),
        cmocka_unit_test(test_AG_11_only_8_players),
        cmocka_unit_test(test_AG_11_group_b_rank_sum),
        cmocka_unit_test(test_AG_11_final_points_weighted),
        cmocka_unit_test(test_AG_11_rejects_invalid_input),
        cmocka_unit_test(test_AG_12_consecutive_ranks_per_group),
        cmocka_unit_test(test_AG_12_rejects_invalid_input),
        cmocka_unit_test(test_AG_3_7_9_11_12_each_player_once_per_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
