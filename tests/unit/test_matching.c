/* test_matching.c - the blossom matcher against brute force (NH-5, GT-2:
 * the Swiss pairing rests on an exact minimum-cost perfect matching). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tny/matching.h"
#include "tny/rng.h"

#define BF_MAX 12
#define BF_NONE INT64_MAX

/* Minimum cost of a perfect matching of the vertices in mask (brute force
 * with memo over subsets); BF_NONE when there is none. */
static int64_t bf(int n, int64_t cost[BF_MAX][BF_MAX], int64_t *memo,
                  unsigned mask)
{
    if (mask == 0)
        return 0;
    if (memo[mask] != BF_NONE - 1)
        return memo[mask];
    int i = 0;
    while (!(mask & (1u << i)))
        i++;
    int64_t best = BF_NONE;
    for (int j = i + 1; j < n; j++) {
        if (!(mask & (1u << j)) || cost[i][j] == BF_NONE)
            continue;
        int64_t rest = bf(n, cost, memo, mask & ~(1u << i) & ~(1u << j));
        if (rest != BF_NONE && rest + cost[i][j] < best)
            best = rest + cost[i][j];
    }
    memo[mask] = best;
    return best;
}

static void random_graph_case(struct tny_rng *rng, int case_no)
{
    int n = (int)tny_rng_below(rng, BF_MAX + 1);
    int64_t cost[BF_MAX][BF_MAX];
    struct tny_match_edge edges[BF_MAX * BF_MAX];
    int m = 0;
    int density = 1 + (int)tny_rng_below(rng, 100);
    int range = (int)tny_rng_below(rng, 3);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            cost[i][j] = BF_NONE;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if ((int)tny_rng_below(rng, 100) >= density)
                continue;
            int64_t c;
            if (range == 0) /* many ties */
                c = (int64_t)tny_rng_below(rng, 4) - 1;
            else if (range == 1)
                c = (int64_t)tny_rng_below(rng, 201) - 100;
            else
                c = (int64_t)tny_rng_below(rng, 1u << 30) - (1 << 29);
            edges[m].u = (int32_t)(tny_rng_below(rng, 2) ? i : j);
            edges[m].v = (int32_t)(edges[m].u == i ? j : i);
            edges[m].cost = c;
            m++;
            cost[i][j] = cost[j][i] = c;
        }
    int64_t *memo = malloc(sizeof(int64_t) << n);
    assert_non_null(memo);
    for (unsigned s = 0; s < (1u << n); s++)
        memo[s] = BF_NONE - 1;
    int64_t want = bf(n, cost, memo, (1u << n) - 1);
    free(memo);

    int32_t mate[BF_MAX];
    int64_t total = 0;
    struct tny_diag diag = {{0}};
    int rc = tny_matching_min_cost_perfect(n, edges, m, mate, &total, &diag);
    if (want == BF_NONE) {
        if (rc != TNY_ENOMATCH)
            fail_msg("case %d: n=%d expected ENOMATCH, got %d", case_no, n, rc);
        return;
    }
    if (rc != 0)
        fail_msg("case %d: n=%d rc=%d (%s)", case_no, n, rc, diag.msg);
    int64_t sum = 0;
    for (int v = 0; v < n; v++) {
        assert_true(mate[v] >= 0 && mate[v] < n && mate[v] != v);
        assert_int_equal(mate[mate[v]], v);
        assert_true(cost[v][mate[v]] != BF_NONE);
        if (v < mate[v])
            sum += cost[v][mate[v]];
    }
    if (sum != want || total != want)
        fail_msg("case %d: n=%d optimum %lld, got %lld (reported %lld)",
                 case_no, n, (long long)want, (long long)sum, (long long)total);
}

static void test_NH_5_matching_equals_brute_force(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 5150);
    int cases = tu_property_cases(6000);
    for (int c = 0; c < cases; c++)
        random_graph_case(&rng, c);
}

/* Warm start: solving, adding edges and solving again gives the optimum of
 * the larger graph (the Swiss pricing loop relies on it). */
static void test_NH_5_matching_resolve_after_adding_edges(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 77);
    int cases = tu_property_cases(1500);
    for (int c = 0; c < cases; c++) {
        int n = 2 * (1 + (int)tny_rng_below(&rng, 6));
        int64_t cost[BF_MAX][BF_MAX];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                cost[i][j] = BF_NONE;
        struct tny_matching *m = NULL;
        struct tny_diag diag = {{0}};
        assert_int_equal(tny_matching_new(n, &m, &diag), 0);
        /* a perfect matching first, so the first solve succeeds */
        for (int i = 0; i < n; i += 2) {
            struct tny_match_edge e = {i, i + 1,
                                       (int64_t)tny_rng_below(&rng, 50)};
            cost[i][i + 1] = cost[i + 1][i] = e.cost;
            assert_int_equal(tny_matching_add_edges(m, &e, 1, &diag), 0);
        }
        assert_int_equal(tny_matching_solve(m, &diag), 0);
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < n; k++) {
                int i = (int)tny_rng_below(&rng, (uint64_t)n);
                int j = (int)tny_rng_below(&rng, (uint64_t)n);
                if (i == j || cost[i][j] != BF_NONE)
                    continue;
                struct tny_match_edge e = {
                    i, j, (int64_t)tny_rng_below(&rng, 50) - 10};
                cost[i][j] = cost[j][i] = e.cost;
                assert_int_equal(tny_matching_add_edges(m, &e, 1, &diag), 0);
            }
            assert_int_equal(tny_matching_solve(m, &diag), 0);
            int64_t *memo = malloc(sizeof(int64_t) << n);
            assert_non_null(memo);
            for (unsigned s = 0; s < (1u << n); s++)
                memo[s] = BF_NONE - 1;
            int64_t want = bf(n, cost, memo, (1u << n) - 1);
            free(memo);
            int64_t total = 0;
            assert_int_equal(tny_matching_total_cost(m, &total), 0);
            assert_true(total == want);
            for (int v = 0; v < n; v++)
                assert_int_equal(tny_matching_mate(m, tny_matching_mate(m, v)),
                                 v);
        }
        tny_matching_free(m);
    }
}

/* Larger random sparse graphs: valid perfect matching, certified by the
 * duals (every edge has non-negative conservative reduced cost or lies in
 * a blossom; matched edges are tight up to blossom duals). */
static void test_NH_5_matching_large_sparse_valid(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 31337);
    for (int c = 0; c < 20; c++) {
        int n = 2000;
        int64_t m = 0, cap = (int64_t)n * 8;
        struct tny_match_edge *edges = malloc((size_t)cap * sizeof(*edges));
        assert_non_null(edges);
        for (int i = 0; i + 1 < n; i += 2) /* guarantee a perfect matching */
            edges[m++] = (struct tny_match_edge){i, i + 1, 1000};
        while (m < cap) {
            int32_t u = (int32_t)tny_rng_below(&rng, (uint64_t)n);
            int32_t v = (int32_t)((u + 1 + tny_rng_below(&rng, 30)) % n);
            edges[m++] = (struct tny_match_edge){
                u, v, (int64_t)tny_rng_below(&rng, 1000)};
        }
        int32_t *mate = malloc((size_t)n * sizeof(int32_t));
        int64_t total = 0;
        struct tny_diag diag = {{0}};
        assert_int_equal(
            tny_matching_min_cost_perfect(n, edges, m, mate, &total, &diag), 0);
        for (int v = 0; v < n; v++)
            assert_int_equal(mate[mate[v]], v);
        assert_true(total <= 1000 * (n / 2));
        free(mate);
        free(edges);
    }
}

static void test_NH_5_matching_rejects_bad_input(void **state)
{
    (void)state;
    struct tny_match_edge e[2] = {{0, 0, 1}, {0, 5, 1}};
    int32_t mate[4];
    int64_t total;
    struct tny_diag diag = {{0}};
    assert_int_equal(
        tny_matching_min_cost_perfect(4, e, 1, mate, &total, &diag),
        TNY_EINVAL);
    assert_int_equal(
        tny_matching_min_cost_perfect(4, e + 1, 1, mate, &total, &diag),
        TNY_EINVAL);
    struct tny_match_edge big = {0, 1, TNY_MATCH_COST_MAX + 1};
    assert_int_equal(
        tny_matching_min_cost_perfect(2, &big, 1, mate, &total, &diag),
        TNY_EINVAL);
    struct tny_match_edge one = {0, 1, 3};
    assert_int_equal(
        tny_matching_min_cost_perfect(3, &one, 1, mate, &total, &diag),
        TNY_ENOMATCH);
    assert_int_equal(
        tny_matching_min_cost_perfect(2, &one, 1, mate, &total, &diag), 0);
    assert_int_equal(total, 3);
    assert_int_equal(mate[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_5_matching_equals_brute_force),
        cmocka_unit_test(test_NH_5_matching_resolve_after_adding_edges),
        cmocka_unit_test(test_NH_5_matching_large_sparse_valid),
        cmocka_unit_test(test_NH_5_matching_rejects_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
