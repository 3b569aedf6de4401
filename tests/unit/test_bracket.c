/* test_bracket.c - elimination brackets: NH-7 re-seeding, NH-8 draws, NH-9
 * final classification, GT-6 cut with replacement, GT-7 folding, GT-8 byes
 * and random numbering, GT-9 best of three, GT-10 withdrawals. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tny/bracket.h"
#include "tny/rng.h"

#define BYE TNY_BRACKET_BYE

static void expect_games(const struct tny_bracket_game *got,
                         const int32_t (*want)[2], int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        assert_int_equal(got[i].a, want[i][0]);
        assert_int_equal(got[i].b, want[i][1]);
    }
}

/* ---- NH-7 ------------------------------------------------------------ */

static void test_NH_7_reseed_top8(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_bracket_game g[4];
    /* Any input order: the function ranks the seeds itself. */
    const int32_t top8[8] = {5, 3, 8, 1, 2, 7, 4, 6};
    assert_int_equal(tny_bracket_reseeded_round(8, top8, g, &diag), 0);
    const int32_t r1[4][2] = {{1, 8}, {2, 7}, {3, 6}, {4, 5}};
    expect_games(g, r1, 4);

    /* 1, 7, 3 and 5 win: re-seeded, best remaining vs worst remaining. */
    const int32_t alive[4] = {1, 7, 3, 5};
    assert_int_equal(tny_bracket_reseeded_round(4, alive, g, &diag), 0);
    const int32_t sf[2][2] = {{1, 7}, {3, 5}};
    expect_games(g, sf, 2);

    const int32_t finalists[2] = {7, 3};
    assert_int_equal(tny_bracket_reseeded_round(2, finalists, g, &diag), 0);
    assert_int_equal(g[0].a, 3);
    assert_int_equal(g[0].b, 7);
}

static void test_NH_7_reseed_top4_and_errors(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_bracket_game g[4];
    const int32_t top4[4] = {1, 2, 3, 4};
    assert_int_equal(tny_bracket_reseeded_round(4, top4, g, &diag), 0);
    const int32_t want[2][2] = {{1, 4}, {2, 3}};
    expect_games(g, want, 2);

    const int32_t six[6] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(tny_bracket_reseeded_round(6, six, g, &diag), TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "power of two"));
    assert_int_equal(tny_bracket_reseeded_round(1, six, g, &diag), TNY_ERANGE);
    const int32_t dup[4] = {1, 2, 2, 4};
    assert_int_equal(tny_bracket_reseeded_round(4, dup, g, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "repeated"));
    const int32_t zero[4] = {0, 2, 3, 4};
    assert_int_equal(tny_bracket_reseeded_round(4, zero, g, &diag), TNY_EINVAL);
}

static int cmp_int32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* NH-7 property: for random remaining fields, game i is the i-th best
 * remaining seed against the i-th worst. */
static void test_NH_7_reseed_property(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 7007);
    int cases = tu_property_cases(2000);
    int32_t pool[200], sorted[64];
    struct tny_bracket_game g[32];
    for (int c = 0; c < cases; c++) {
        int32_t n = (int32_t)1 << (1 + tny_rng_below(&rng, 6)); /* 2..64 */
        for (int32_t i = 0; i < 200; i++)
            pool[i] = i + 1;
        tny_rng_shuffle_i32(&rng, pool, 200);
        memcpy(sorted, pool, (size_t)n * sizeof(int32_t));
        qsort(sorted, (size_t)n, sizeof(int32_t), cmp_int32);
        assert_int_equal(tny_bracket_reseeded_round(n, pool, g, NULL), 0);
        for (int32_t i = 0; i < n / 2; i++) {
            assert_int_equal(g[i].a, sorted[i]);
            assert_int_equal(g[i].b, sorted[n - 1 - i]);
        }
    }
}

/* ---- NH-8 ------------------------------------------------------------ */

static void test_NH_8_draw_better_swiss_rank_wins(void **state)
{
    (void)state;
    assert_int_equal(tny_bracket_draw_winner(3, 6), 3);
    assert_int_equal(tny_bracket_draw_winner(6, 3), 3);
    assert_int_equal(tny_bracket_draw_winner(2, 1), 1);
}

/* ---- NH-9 ------------------------------------------------------------ */

static void test_NH_9_top4(void **state)
{
    (void)state;
    struct tny_diag diag;
    /* Swiss order: ids 101 (1st) .. 110 (10th).  Semis 101-104, 102-103;
     * 104 and 102 win; final: 102 beats 104. */
    int32_t swiss[10];
    for (int32_t i = 0; i < 10; i++)
        swiss[i] = 101 + i;
    const struct tny_bracket_exit exits[4] = {
        {103, 1}, {104, 2}, {101, 1}, {102, 0}};
    int32_t order[10];
    assert_int_equal(
        tny_bracket_final_order(10, swiss, 4, exits, false, order, &diag), 0);
    /* 1st final winner, 2nd final loser, 3-4 semi losers by Swiss rank,
     * then everyone else in Swiss order. */
    const int32_t want[10] = {102, 104, 101, 103, 105, 106, 107, 108, 109, 110};
    assert_memory_equal(order, want, sizeof(want));
}

static void test_NH_9_top8(void **state)
{
    (void)state;
    struct tny_diag diag;
    int32_t swiss[12];
    for (int32_t i = 0; i < 12; i++)
        swiss[i] = i + 1; /* id = Swiss rank */
    /* QF: 1-8, 2-7, 3-6, 4-5 won by 8, 7, 3, 4.  SF (re-seeded): 3-8, 4-7
     * won by 8 and 4.  Final: 4 beats 8. */
    const struct tny_bracket_exit exits[8] = {{1, 1}, {2, 1}, {6, 1}, {5, 1},
                                              {3, 2}, {7, 2}, {8, 3}, {4, 0}};
    int32_t order[12];
    assert_int_equal(
        tny_bracket_final_order(12, swiss, 8, exits, false, order, &diag), 0);
    const int32_t want[12] = {4, 8, 3, 7, 1, 2, 5, 6, 9, 10, 11, 12};
    assert_memory_equal(order, want, sizeof(want));
}

static void test_NH_9_in_progress(void **state)
{
    (void)state;
    struct tny_diag diag;
    int32_t swiss[12];
    for (int32_t i = 0; i < 12; i++)
        swiss[i] = i + 1; /* id = Swiss rank */
    /* Top 8 after the quarter-finals: 8, 7, 3, 4 still in (listed out of
     * Swiss order on purpose); 1, 2, 6, 5 lost in round 1.  NH-9 while the
     * bracket runs: the alive by Swiss rank, then the round-1 losers by
     * Swiss rank, then the rest. */
    const struct tny_bracket_exit exits[8] = {{8, 0}, {1, 1}, {7, 0}, {2, 1},
                                              {3, 0}, {6, 1}, {4, 0}, {5, 1}};
    int32_t order[12];
    assert_int_equal(
        tny_bracket_final_order(12, swiss, 8, exits, true, order, &diag), 0);
    const int32_t want[12] = {3, 4, 7, 8, 1, 2, 5, 6, 9, 10, 11, 12};
    assert_memory_equal(order, want, sizeof(want));
    /* Finished-bracket mode refuses four "champions"; in progress needs
     * someone alive. */
    assert_int_equal(
        tny_bracket_final_order(12, swiss, 8, exits, false, order, &diag),
        TNY_EINVAL);
    const struct tny_bracket_exit all_out[2] = {{1, 1}, {2, 1}};
    assert_int_equal(
        tny_bracket_final_order(12, swiss, 2, all_out, true, order, &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "nobody"));
}

static void test_NH_9_errors(void **state)
{
    (void)state;
    struct tny_diag diag;
    const int32_t swiss[4] = {1, 2, 3, 4};
    int32_t order[4];
    const struct tny_bracket_exit two_champs[2] = {{1, 0}, {2, 0}};
    assert_int_equal(
        tny_bracket_final_order(4, swiss, 2, two_champs, false, order, &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "champions"));
    const struct tny_bracket_exit stranger[2] = {{1, 0}, {9, 1}};
    assert_int_equal(
        tny_bracket_final_order(4, swiss, 2, stranger, false, order, &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "9"));
    const struct tny_bracket_exit twice[2] = {{1, 0}, {1, 1}};
    assert_int_equal(
        tny_bracket_final_order(4, swiss, 2, twice, false, order, &diag),
        TNY_EINVAL);
    const int32_t dup[4] = {1, 2, 2, 4};
    const struct tny_bracket_exit ok[2] = {{1, 0}, {2, 1}};
    assert_int_equal(
        tny_bracket_final_order(4, dup, 2, ok, false, order, &diag),
        TNY_EINVAL);
}

/* ---- GT-6 ------------------------------------------------------------ */

static void test_GT_6_replacement(void **state)
{
    (void)state;
    struct tny_diag diag;
    /* Seed 003: Stefan finished 6th and made the top 8, then left before
     * elimination.  Ewa (9th) joins as the 8th; the old 8th becomes 7th
     * and the old 7th becomes 6th. */
    enum { STEFAN = 6, EWA = 9 };
    int32_t standings[12];
    bool left[12] = {false};
    for (int32_t i = 0; i < 12; i++)
        standings[i] = i + 1; /* id = Swiss rank */
    left[STEFAN - 1] = true;
    int32_t seeded[8];
    assert_int_equal(tny_bracket_cut(12, standings, left, 8, seeded, &diag), 0);
    const int32_t want[8] = {1, 2, 3, 4, 5, 7, 8, EWA};
    assert_memory_equal(seeded, want, sizeof(want));
    assert_int_equal(seeded[7], EWA); /* the lowest seed */

    /* "Organizers pair all 8 players based on the new classification":
     * Game #1 = seed 1 vs Ewa. */
    int32_t seeds[8];
    for (int32_t i = 0; i < 8; i++)
        seeds[i] = i + 1;
    struct tny_bracket_game g[4];
    assert_int_equal(tny_bracket_reseeded_round(8, seeds, g, &diag), 0);
    assert_int_equal(seeded[g[0].b - 1], EWA);
    assert_int_equal(seeded[g[0].a - 1], 1);
}

static void test_GT_6_cut_edge_cases(void **state)
{
    (void)state;
    struct tny_diag diag;
    const int32_t standings[6] = {40, 41, 42, 43, 44, 45};
    int32_t seeded[4];
    /* Nobody left. */
    assert_int_equal(tny_bracket_cut(6, standings, NULL, 4, seeded, &diag), 0);
    const int32_t plain[4] = {40, 41, 42, 43};
    assert_memory_equal(seeded, plain, sizeof(plain));
    /* Seed 1 and the first replacement both left: the next one comes in. */
    const bool left[6] = {true, false, false, false, true, false};
    assert_int_equal(tny_bracket_cut(6, standings, left, 4, seeded, &diag), 0);
    const int32_t want[4] = {41, 42, 43, 45};
    assert_memory_equal(seeded, want, sizeof(want));
    /* Not enough players stayed. */
    const bool many[6] = {true, true, true, false, false, false};
    assert_int_equal(tny_bracket_cut(6, standings, many, 4, seeded, &diag),
                     TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "only 3"));
    assert_int_equal(tny_bracket_cut(6, standings, NULL, 0, seeded, &diag),
                     TNY_ERANGE);
}

/* ---- GT-7 ------------------------------------------------------------ */

static void test_GT_7_fold(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_bracket_game r1[4], r2[2], fin[1];
    const int32_t seeds[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(tny_bracket_reseeded_round(8, seeds, r1, &diag), 0);
    const int32_t want1[4][2] = {{1, 8}, {2, 7}, {3, 6}, {4, 5}};
    expect_games(r1, want1, 4);
    /* Winner of G1 vs winner of G4 (new G1), G2 vs G3 (new G2). */
    const int32_t w1[4] = {8, 2, 6, 4};
    assert_int_equal(tny_bracket_folded_round(4, r1, w1, r2, &diag), 0);
    const int32_t want2[2][2] = {{8, 4}, {2, 6}};
    expect_games(r2, want2, 2);
    const int32_t w2[2] = {4, 6};
    assert_int_equal(tny_bracket_folded_round(2, r2, w2, fin, &diag), 0);
    assert_int_equal(fin[0].a, 4);
    assert_int_equal(fin[0].b, 6);

    /* Top 16, seeds winning: round 2 is 1-8, 2-7, 3-6, 4-5 (folding). */
    int32_t s16[16];
    struct tny_bracket_game g16[8], g8[4];
    for (int32_t i = 0; i < 16; i++)
        s16[i] = i + 1;
    assert_int_equal(tny_bracket_reseeded_round(16, s16, g16, &diag), 0);
    int32_t w16[8];
    for (int32_t i = 0; i < 8; i++)
        w16[i] = g16[i].a;
    assert_int_equal(tny_bracket_folded_round(8, g16, w16, g8, &diag), 0);
    const int32_t want8[4][2] = {{1, 8}, {2, 7}, {3, 6}, {4, 5}};
    expect_games(g8, want8, 4);
}

static void test_GT_7_fold_rejects_bad_winners(void **state)
{
    (void)state;
    struct tny_diag diag;
    const struct tny_bracket_game prev[2] = {{1, 4}, {2, BYE}};
    struct tny_bracket_game next[1];
    const int32_t stranger[2] = {3, 2};
    assert_int_equal(tny_bracket_folded_round(2, prev, stranger, next, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "winners[0]"));
    const int32_t bye_lost[2] = {1, BYE};
    assert_int_equal(tny_bracket_folded_round(2, prev, bye_lost, next, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "bye for 2"));
    const int32_t ok[2] = {4, 2};
    assert_int_equal(tny_bracket_folded_round(3, prev, ok, next, &diag),
                     TNY_ERANGE);
    assert_int_equal(tny_bracket_folded_round(2, prev, ok, next, &diag), 0);
    assert_int_equal(next[0].a, 4);
    assert_int_equal(next[0].b, 2);
}

/* Winner of a game chosen at random (byes and empty games are forced). */
static int32_t random_winner(struct tny_rng *rng,
                             const struct tny_bracket_game *g)
{
    if (g->b == BYE)
        return g->a;
    return tny_rng_below(rng, 2) ? g->a : g->b;
}

/* GT-7 property, any results: in a round with N players left no game holds
 * two of the top N/2 seeds (so seeds 1 and 2 can meet only in the final,
 * 1-4 only from the semi-finals, ...); each round halves the field; when
 * the better seed always wins, folding gives the NH-7 re-seeded rounds. */
static void test_GT_7_fold_property(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 7);
    int cases = tu_property_cases(3000);
    struct tny_bracket_game cur[64], next[64], reseed[64];
    int32_t winners[64], alive[128];
    for (int c = 0; c < cases; c++) {
        int32_t k = (int32_t)1 << (1 + tny_rng_below(&rng, 7)); /* 2..128 */
        bool seeds_win = c % 4 == 0;
        int32_t seeds[128];
        for (int32_t i = 0; i < k; i++)
            seeds[i] = i + 1;
        assert_int_equal(tny_bracket_reseeded_round(k, seeds, cur, NULL), 0);
        int32_t n_games = k / 2;
        int32_t rounds = 0;
        while (true) {
            int32_t n_left = 2 * n_games;
            for (int32_t i = 0; i < n_games; i++) {
                assert_true(cur[i].a > 0 && cur[i].b > 0);
                assert_false(cur[i].a <= n_left / 2 && cur[i].b <= n_left / 2);
            }
            if (seeds_win) {
                int32_t m = 0;
                for (int32_t i = 0; i < n_games; i++) {
                    alive[m++] = cur[i].a;
                    alive[m++] = cur[i].b;
                }
                assert_int_equal(
                    tny_bracket_reseeded_round(m, alive, reseed, NULL), 0);
                for (int32_t i = 0; i < n_games; i++) {
                    assert_int_equal(cur[i].a, reseed[i].a);
                    assert_int_equal(cur[i].b, reseed[i].b);
                }
            }
            for (int32_t i = 0; i < n_games; i++) {
                int32_t lo = cur[i].a < cur[i].b ? cur[i].a : cur[i].b;
                winners[i] = seeds_win ? lo : random_winner(&rng, &cur[i]);
            }
            rounds++;
            if (n_games == 1)
                break;
            assert_int_equal(
                tny_bracket_folded_round(n_games, cur, winners, next, NULL), 0);
            n_games /= 2;
            memcpy(cur, next, (size_t)n_games * sizeof(cur[0]));
        }
        assert_int_equal((int32_t)1 << rounds, k); /* log2(k) rounds */
        if (seeds_win)
            assert_int_equal(winners[0], 1);
    }
}

/* ---- GT-8 ------------------------------------------------------------ */

static int32_t next_pow2(int32_t n)
{
    int32_t s = 1;
    while (s < n)
        s *= 2;
    return s;
}

/* Play a bracket out with random results (and, if withdraw_rate > 0,
 * random GT-10 withdrawals between rounds).  Checks every round: the games
 * halve, each remaining player is in exactly one game, nobody eliminated or
 * withdrawn comes back.  Returns the champion (BYE if everyone left). */
static int32_t play_out(struct tny_rng *rng, struct tny_bracket_game *cur,
                        int32_t n_games, int32_t max_id, int withdraw_pct)
{
    struct tny_bracket_game next[2048];
    int32_t winners[2048];
    int32_t *seen = calloc((size_t)max_id + 1, sizeof(int32_t));
    bool *out = calloc((size_t)max_id + 1, sizeof(bool));
    int32_t round = 0;
    int32_t champion = BYE;
    assert_non_null(seen);
    assert_non_null(out);
    while (true) {
        round++;
        if (withdraw_pct > 0) {
            for (int32_t i = 0; i < n_games; i++) {
                int32_t slot[2] = {cur[i].a, cur[i].b};
                for (int s = 0; s < 2; s++) {
                    if (slot[s] == BYE ||
                        (int)tny_rng_below(rng, 100) >= withdraw_pct)
                        continue;
                    assert_int_equal(
                        tny_bracket_withdraw(n_games, cur, slot[s], NULL), 0);
                    out[slot[s]] = true;
                }
            }
        }
        for (int32_t i = 0; i < n_games; i++) {
            int32_t slot[2] = {cur[i].a, cur[i].b};
            if (slot[0] == BYE)
                assert_int_equal(slot[1], BYE);
            for (int s = 0; s < 2; s++) {
                if (slot[s] == BYE)
                    continue;
                assert_true(slot[s] >= 0 && slot[s] <= max_id);
                assert_false(out[slot[s]]);
                assert_int_not_equal(seen[slot[s]], round); /* once/round */
                seen[slot[s]] = round;
            }
            winners[i] = slot[0] == BYE ? BYE : random_winner(rng, &cur[i]);
            if (cur[i].b != BYE)
                out[winners[i] == cur[i].a ? cur[i].b : cur[i].a] = true;
        }
        if (n_games == 1) {
            champion = winners[0];
            break;
        }
        assert_int_equal(
            tny_bracket_folded_round(n_games, cur, winners, next, NULL), 0);
        n_games /= 2;
        memcpy(cur, next, (size_t)n_games * sizeof(cur[0]));
    }
    /* Unique champion: the only player never eliminated nor withdrawn. */
    int32_t standing = 0;
    for (int32_t id = 0; id <= max_id; id++)
        standing += seen[id] > 0 && !out[id];
    if (champion != BYE) {
        assert_int_equal(standing, 1);
        assert_false(out[champion]);
    } else {
        assert_int_equal(standing, 0);
    }
    free(seen);
    free(out);
    return champion;
}

static void test_GT_8_byes(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_bracket_game g[32], h[32];
    int32_t ids[33];
    for (int32_t p = 2; p <= 33; p++) {
        for (int32_t i = 0; i < p; i++)
            ids[i] = 1000 + 3 * i; /* arbitrary caller ids */
        int32_t n_games = -1;
        struct tny_rng rng;
        tny_rng_derive(&rng, 42, TNY_LOT_BRACKET, 1);
        assert_int_equal(
            tny_bracket_open_round(p, ids, &rng, g, &n_games, &diag), 0);
        int32_t s = next_pow2(p);
        assert_int_equal(n_games, s / 2);
        int32_t byes = 0;
        int32_t count[33] = {0};
        for (int32_t i = 0; i < n_games; i++) {
            assert_true(g[i].a >= 1000);
            if (g[i].b == BYE)
                byes++;
            int32_t slot[2] = {g[i].a, g[i].b};
            for (int k = 0; k < 2; k++) {
                if (slot[k] == BYE)
                    continue;
                assert_int_equal((slot[k] - 1000) % 3, 0);
                int32_t idx = (slot[k] - 1000) / 3;
                assert_true(idx >= 0 && idx < p);
                count[idx]++;
            }
        }
        assert_int_equal(byes, s - p); /* next power of two - players */
        for (int32_t i = 0; i < p; i++)
            assert_int_equal(count[i], 1); /* exactly one game or bye */

        /* Determinism: same seed, same bracket. */
        struct tny_rng again;
        int32_t n2 = 0;
        tny_rng_derive(&again, 42, TNY_LOT_BRACKET, 1);
        assert_int_equal(tny_bracket_open_round(p, ids, &again, h, &n2, &diag),
                         0);
        assert_int_equal(n2, n_games);
        assert_memory_equal(g, h, (size_t)n_games * sizeof(g[0]));
    }
}

/* GT-8: the numbering is random: over seeds, Game #1 is sometimes a bye
 * and sometimes a match, and each player is sometimes a bye holder. */
static void test_GT_8_numbering_varies_with_seed(void **state)
{
    (void)state;
    const int32_t ids[5] = {0, 1, 2, 3, 4}; /* 3 byes, 1 match, 4 games */
    int bye_position[4] = {0};
    int holder[5] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        struct tny_rng rng;
        struct tny_bracket_game g[4];
        int32_t n_games = 0;
        tny_rng_derive(&rng, seed, TNY_LOT_BRACKET, 1);
        assert_int_equal(
            tny_bracket_open_round(5, ids, &rng, g, &n_games, NULL), 0);
        for (int32_t i = 0; i < n_games; i++) {
            if (g[i].b == BYE) {
                bye_position[i]++;
                holder[g[i].a]++;
            }
        }
    }
    /* Expected 300 byes per game number and 240 per player. */
    for (int i = 0; i < 4; i++)
        assert_true(bye_position[i] > 220 && bye_position[i] < 380);
    for (int i = 0; i < 5; i++)
        assert_true(holder[i] > 170 && holder[i] < 310);
}

static void test_GT_8_errors(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_rng rng;
    struct tny_bracket_game g[4];
    int32_t n_games = 0;
    tny_rng_seed(&rng, 1);
    const int32_t one[1] = {5};
    assert_int_equal(tny_bracket_open_round(1, one, &rng, g, &n_games, &diag),
                     TNY_ERANGE);
    const int32_t dup[3] = {5, 6, 5};
    assert_int_equal(tny_bracket_open_round(3, dup, &rng, g, &n_games, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "repeated"));
    const int32_t neg[3] = {5, -6, 7};
    assert_int_equal(tny_bracket_open_round(3, neg, &rng, g, &n_games, &diag),
                     TNY_EINVAL);
}

/* GT-8 property: random fields 2..300, random results: every round halves
 * and ends with one champion. */
static void test_GT_8_play_out_property(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 8);
    int cases = tu_property_cases(1500);
    static struct tny_bracket_game g[256];
    int32_t ids[300];
    for (int c = 0; c < cases; c++) {
        int32_t p = 2 + (int32_t)tny_rng_below(&rng, 299);
        for (int32_t i = 0; i < p; i++)
            ids[i] = i;
        tny_rng_shuffle_i32(&rng, ids, p);
        int32_t n_games = 0;
        assert_int_equal(
            tny_bracket_open_round(p, ids, &rng, g, &n_games, NULL), 0);
        int32_t champion = play_out(&rng, g, n_games, p - 1, 0);
        assert_true(champion >= 0 && champion < p);
    }
}

/* ---- GT-9 ------------------------------------------------------------ */

static void test_GT_9_bo3(void **state)
{
    (void)state;
    struct tny_diag diag;
    int32_t w = 0;
    const int32_t two_nil[2] = {7, 7};
    assert_int_equal(tny_bracket_bo3_winner(two_nil, 2, 3, 7, &w, &diag), 0);
    assert_int_equal(w, 7);
    const int32_t decider[3] = {3, 7, 3};
    assert_int_equal(tny_bracket_bo3_winner(decider, 3, 3, 7, &w, &diag), 0);
    assert_int_equal(w, 3);
    const int32_t decider_b[3] = {7, 3, 7};
    assert_int_equal(tny_bracket_bo3_winner(decider_b, 3, 3, 7, &w, &diag), 0);
    assert_int_equal(w, 7);

    w = -99;
    /* A third game after 2-0: the match had stopped. */
    const int32_t extra[3] = {3, 3, 7};
    assert_int_equal(tny_bracket_bo3_winner(extra, 3, 3, 7, &w, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "already won 2-0"));
    /* Unfinished: one game, or 1-1. */
    assert_int_equal(tny_bracket_bo3_winner(extra, 1, 3, 7, &w, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "not finished: 1-0"));
    const int32_t even[2] = {3, 7};
    assert_int_equal(tny_bracket_bo3_winner(even, 2, 3, 7, &w, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "1-1"));
    assert_int_equal(tny_bracket_bo3_winner(even, 0, 3, 7, &w, &diag),
                     TNY_EINVAL);
    /* Four games. */
    const int32_t four[4] = {3, 7, 3, 7};
    assert_int_equal(tny_bracket_bo3_winner(four, 4, 3, 7, &w, &diag),
                     TNY_EINVAL);
    /* A winner who is not in the match. */
    const int32_t stranger[2] = {3, 9};
    assert_int_equal(tny_bracket_bo3_winner(stranger, 2, 3, 7, &w, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "winner 9"));
    assert_int_equal(tny_bracket_bo3_winner(two_nil, 2, 7, 7, &w, &diag),
                     TNY_EINVAL);
    assert_int_equal(w, -99); /* untouched on error */
}

/* ---- GT-10 ----------------------------------------------------------- */

static void test_GT_10_leaver_bye(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_bracket_game r1[4], r2[2], fin[1];
    const int32_t seeds[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(tny_bracket_reseeded_round(8, seeds, r1, &diag), 0);

    /* Seed 7 is removed during round 1: seed 2 gets a bye in that game. */
    assert_int_equal(tny_bracket_withdraw(4, r1, 7, &diag), 0);
    assert_int_equal(r1[1].a, 2);
    assert_int_equal(r1[1].b, BYE);
    assert_true(tny_bracket_game_is_bye(&r1[1]));
    assert_false(tny_bracket_game_is_bye(&r1[0]));
    const int32_t w1[4] = {1, 2, 6, 5};
    assert_int_equal(tny_bracket_folded_round(4, r1, w1, r2, &diag), 0);
    const int32_t want2[2][2] = {{1, 5}, {2, 6}};
    expect_games(r2, want2, 2);

    /* Seed 1 is removed between rounds: the next opponent (5) gets a bye,
     * listed in slot a. */
    assert_int_equal(tny_bracket_withdraw(2, r2, 1, &diag), 0);
    assert_int_equal(r2[0].a, 5);
    assert_int_equal(r2[0].b, BYE);
    const int32_t w2[2] = {5, 6};
    assert_int_equal(tny_bracket_folded_round(2, r2, w2, fin, &diag), 0);
    assert_int_equal(fin[0].a, 5);
    assert_int_equal(fin[0].b, 6);

    /* Unknown player. */
    assert_int_equal(tny_bracket_withdraw(1, fin, 3, &diag), TNY_ENOTFOUND);
    assert_int_equal(tny_bracket_withdraw(1, fin, BYE, &diag), TNY_EINVAL);
}

static void test_GT_10_bye_holder_leaves(void **state)
{
    (void)state;
    struct tny_diag diag;
    /* GT-8 with 5 players: Game #1 a bye for 10, Game #2 11 vs 12, Game #3
     * a bye for 13, Game #4 a bye for 14. */
    struct tny_bracket_game r1[4] = {{10, BYE}, {11, 12}, {13, BYE}, {14, BYE}};
    struct tny_bracket_game r2[2], fin[1];
    /* 14 leaves before round 1 is over: game 4 is empty. */
    assert_int_equal(tny_bracket_withdraw(4, r1, 14, &diag), 0);
    assert_int_equal(r1[3].a, BYE);
    assert_int_equal(r1[3].b, BYE);
    const int32_t bad[4] = {10, 12, 13, 14};
    assert_int_equal(tny_bracket_folded_round(4, r1, bad, r2, &diag),
                     TNY_EINVAL);
    const int32_t w1[4] = {10, 12, 13, BYE};
    assert_int_equal(tny_bracket_folded_round(4, r1, w1, r2, &diag), 0);
    /* Winner of G1 would have met winner of G4: nobody, so 10 has a bye. */
    const int32_t want2[2][2] = {{10, BYE}, {12, 13}};
    expect_games(r2, want2, 2);
    const int32_t w2[2] = {10, 13};
    assert_int_equal(tny_bracket_folded_round(2, r2, w2, fin, &diag), 0);
    assert_int_equal(fin[0].a, 10);
    assert_int_equal(fin[0].b, 13);
}

/* GT-10 property: random withdrawals in random GT-7 and GT-8 brackets keep
 * every round well-formed and leave at most one champion. */
static void test_GT_10_withdraw_property(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 10);
    int cases = tu_property_cases(1500);
    static struct tny_bracket_game g[128];
    int32_t ids[256];
    int champions = 0;
    for (int c = 0; c < cases; c++) {
        int32_t p = 2 + (int32_t)tny_rng_below(&rng, 199);
        int32_t n_games = 0;
        for (int32_t i = 0; i < p; i++)
            ids[i] = i + 1;
        if (c % 2) {
            assert_int_equal(
                tny_bracket_open_round(p, ids, &rng, g, &n_games, NULL), 0);
        } else {
            p = next_pow2(p);
            for (int32_t i = 0; i < p; i++)
                ids[i] = i + 1;
            assert_int_equal(tny_bracket_reseeded_round(p, ids, g, NULL), 0);
            n_games = p / 2;
        }
        int32_t champ = play_out(&rng, g, n_games, p, 1 + c % 20);
        champions += champ != BYE;
    }
    assert_true(champions > cases / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_7_reseed_top8),
        cmocka_unit_test(test_NH_7_reseed_top4_and_errors),
        cmocka_unit_test(test_NH_7_reseed_property),
        cmocka_unit_test(test_NH_8_draw_better_swiss_rank_wins),
        cmocka_unit_test(test_NH_9_top4),
        cmocka_unit_test(test_NH_9_top8),
        cmocka_unit_test(test_NH_9_in_progress),
        cmocka_unit_test(test_NH_9_errors),
        cmocka_unit_test(test_GT_6_replacement),
        cmocka_unit_test(test_GT_6_cut_edge_cases),
        cmocka_unit_test(test_GT_7_fold),
        cmocka_unit_test(test_GT_7_fold_rejects_bad_winners),
        cmocka_unit_test(test_GT_7_fold_property),
        cmocka_unit_test(test_GT_8_byes),
        cmocka_unit_test(test_GT_8_numbering_varies_with_seed),
        cmocka_unit_test(test_GT_8_errors),
        cmocka_unit_test(test_GT_8_play_out_property),
        cmocka_unit_test(test_GT_9_bo3),
        cmocka_unit_test(test_GT_10_leaver_bye),
        cmocka_unit_test(test_GT_10_bye_holder_leaves),
        cmocka_unit_test(test_GT_10_withdraw_property),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
