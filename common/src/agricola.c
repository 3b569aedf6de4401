/* agricola.c - Agricola championship seating and placement points (seed 002).
 *
 * Every seating is index arithmetic on the caller's ordered lists: positions
 * in the list (rating order, game-1 placement, rank) map to (table, seat).
 * Nothing here allocates: work arrays are bounded by TNY_AG_MAX_PLAYERS.
 *
 * Invariants of every successful tny_ag_seat_* call: the output holds each
 * input id exactly once, n/4 tables of 4.  Validation happens before any
 * output is written, so bad input is answered with an error, never asserted.
 */
#include "tny/agricola.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* qsort comparator for int32_t. */
static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a;
    int32_t y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* TNY_EINVAL if any id occurs twice among ids[0..n-1] (n <= max players). */
static int check_distinct(const int32_t *ids, int32_t n, const char *what,
                          struct tny_diag *diag)
{
    int32_t sorted[TNY_AG_MAX_PLAYERS];
    int rc = TNY_OK;

    assert(n >= 0 && n <= TNY_AG_MAX_PLAYERS);
    if (n == 0)
        goto out;
    memcpy(sorted, ids, (size_t)n * sizeof(*ids));
    qsort(sorted, (size_t)n, sizeof(*sorted), cmp_i32);
    for (int32_t i = 1; i < n; i++) {
        if (sorted[i] == sorted[i - 1]) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: player %ld appears more than once", what,
                              (long)sorted[i]);
            goto out;
        }
    }
out:
    return rc;
}

/* Common size check: n a multiple of 4 within [min_n, TNY_AG_MAX_PLAYERS]. */
static int check_size(int32_t n, int32_t min_n, const char *what,
                      struct tny_diag *diag)
{
    if (n < min_n || n > TNY_AG_MAX_PLAYERS)
        return tny_diag_set(diag, TNY_ERANGE,
                            "%s: %ld players, expected %ld..%d", what, (long)n,
                            (long)min_n, TNY_AG_MAX_PLAYERS);
    if (n % 4 != 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: %ld players is not a multiple of 4 "
                            "(every table seats 4)",
                            what, (long)n);
    return TNY_OK;
}

/* Sort each table's 4 positions ascending (insertion sort). */
static void sort_table(int32_t t[4])
{
    for (int i = 1; i < 4; i++) {
        int32_t v = t[i];
        int j = i;
        for (; j > 0 && t[j - 1] > v; j--)
            t[j] = t[j - 1];
        t[j] = v;
    }
}

int tny_ag_seat_game1(int32_t n, const int32_t *by_rating, struct tny_rng *rng,
                      int32_t (*tables)[4], struct tny_diag *diag)
{
    /* pos[t][s] = index into by_rating of the player at table t, seat s */
    int32_t pos[TNY_AG_MAX_PLAYERS / 4][4];
    int32_t perm[TNY_AG_MAX_PLAYERS];
    int32_t x, bands, next;
    int rc;

    assert(by_rating && rng && tables);
    rc = check_size(n, 8, "game 1 seating", diag);
    if (rc < 0)
        goto out;
    rc = check_distinct(by_rating, n, "game 1 seating", diag);
    if (rc < 0)
        goto out;

    x = n / 4;
    /* Seeded bands of x rating places, each spread one per table by lot:
     * the top x always; the next x too when x <= 4; with 8 players all four
     * pairs (1-2, 3-4, 5-6, 7-8) are split, which is the same thing with
     * every band seeded. */
    bands = x == 2 ? 4 : (x <= 4 ? 2 : 1);
    for (int32_t b = 0; b < bands; b++) {
        for (int32_t t = 0; t < x; t++)
            perm[t] = t;
        tny_rng_shuffle_i32(rng, perm, x);
        for (int32_t i = 0; i < x; i++)
            pos[perm[i]][b] = b * x + i;
    }
    /* Everyone else by lot: a uniform shuffle filled into the open seats
     * table by table is a uniform draw of who sits where. */
    next = bands * x;
    for (int32_t i = next; i < n; i++)
        perm[i - next] = i;
    tny_rng_shuffle_i32(rng, perm, n - next);
    for (int32_t t = 0, k = 0; t < x; t++)
        for (int32_t s = bands; s < 4; s++)
            pos[t][s] = perm[k++];

    for (int32_t t = 0; t < x; t++) {
        sort_table(pos[t]);
        for (int s = 0; s < 4; s++)
            tables[t][s] = by_rating[pos[t][s]];
    }
out:
    return rc;
}

int tny_ag_seat_game2(int32_t n_tables, const int32_t (*game1_by_place)[4],
                      int32_t (*tables)[4], struct tny_diag *diag)
{
    int32_t flat[TNY_AG_MAX_PLAYERS];
    int32_t x = n_tables;
    int rc = TNY_OK;

    assert(game1_by_place && tables);
    if (x < 2 || x > TNY_AG_MAX_PLAYERS / 4) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "game 2 seating: %ld tables, expected 2..%d", (long)x,
                          TNY_AG_MAX_PLAYERS / 4);
        goto out;
    }
    for (int32_t t = 0; t < x; t++)
        memcpy(flat + 4 * t, game1_by_place[t], sizeof(flat[0]) * 4);
    rc = check_distinct(flat, 4 * x, "game 2 seating", diag);
    if (rc < 0)
        goto out;

    for (int32_t t = 0; t < x; t++) {
        int32_t from2, from3, from4;
        if (x >= 4) {
            /* Cyclic shifts 0, 1, 2, 3: table t draws its 1st..4th from
             * game-1 tables t..t+3, four different tables when x >= 4, so
             * no two players at a table were game-1 opponents. */
            from2 = (t + 1) % x;
            from3 = (t + 2) % x;
            from4 = (t + 3) % x;
        } else if (x == 3) {
            /* The rule keeps 1st and 4th together (one forced rematch per
             * table).  The 2nd and 3rd come from the two other game-1
             * tables, one each, so they meet neither each other's nor the
             * stayers' game-1 opponents: no other rematch. */
            from2 = (t + 1) % 3;
            from3 = (t + 2) % 3;
            from4 = t;
        } else {
            /* 2 tables: 1st and 4th stay, 2nd and 3rd swap tables. */
            from2 = 1 - t;
            from3 = 1 - t;
            from4 = t;
        }
        tables[t][0] = game1_by_place[t][0];
        tables[t][1] = game1_by_place[from2][1];
        tables[t][2] = game1_by_place[from3][2];
        tables[t][3] = game1_by_place[from4][3];
    }
out:
    return rc;
}

/* Rank-sum pattern (AG-9) without validation: ranking has n >= 4 players,
 * n a multiple of 4; writes n/4 tables in rank order. */
static void rank_sum_tables(int32_t n, const int32_t *ranking,
                            int32_t (*tables)[4])
{
    int32_t x = n / 4;

    if (n == 8) {
        /* The seed's 8-player tables, 1-4-5-8 and 2-3-6-7: a snake
         * (forward, reversed, forward, reversed), not the 16-player
         * pattern, which would give 1-3-6-8 and 2-4-5-7. */
        static const int32_t eight[2][4] = {{1, 4, 5, 8}, {2, 3, 6, 7}};
        for (int t = 0; t < 2; t++)
            for (int s = 0; s < 4; s++)
                tables[t][s] = ranking[eight[t][s] - 1];
        return;
    }
    /* Bands of x ranks: forward, forward, reversed, reversed.  1-based
     * ranks t+1, x+t+1, 3x-t, 4x-t sum to 8x+2 at every table. */
    for (int32_t t = 0; t < x; t++) {
        tables[t][0] = ranking[t];
        tables[t][1] = ranking[x + t];
        tables[t][2] = ranking[3 * x - 1 - t];
        tables[t][3] = ranking[4 * x - 1 - t];
    }
}

int tny_ag_seat_rank_sum(int32_t n, const int32_t *ranking,
                         int32_t (*tables)[4], struct tny_diag *diag)
{
    int rc;

    assert(ranking && tables);
    rc = check_size(n, 4, "rank-sum seating", diag);
    if (rc < 0)
        goto out;
    rc = check_distinct(ranking, n, "rank-sum seating", diag);
    if (rc < 0)
        goto out;
    rank_sum_tables(n, ranking, tables);
out:
    return rc;
}

int tny_ag_seat_final1(int32_t n, const int32_t *ranking,
                       int32_t n_event_players, int32_t (*tables)[4],
                       struct tny_diag *diag)
{
    static const int32_t group_a[2][4] = {{1, 4, 5, 8}, {2, 3, 6, 7}};
    static const int32_t only_eight[2][4] = {{1, 2, 7, 8}, {3, 4, 5, 6}};
    const int32_t(*pattern)[4];
    int rc;

    assert(ranking && tables);
    rc = check_size(n, TNY_AG_GROUP_A, "final game 1 seating", diag);
    if (rc < 0)
        goto out;
    if (n_event_players < n) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "final game 1 seating: %ld players in the final "
                          "stage but only %ld in the event",
                          (long)n, (long)n_event_players);
        goto out;
    }
    rc = check_distinct(ranking, n, "final game 1 seating", diag);
    if (rc < 0)
        goto out;

    /* With 8 players in the event, game 3 already seated 1-4-5-8 and
     * 2-3-6-7, so the seed changes group A's tables for this game. */
    pattern = n_event_players == TNY_AG_GROUP_A ? only_eight : group_a;
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 4; s++)
            tables[t][s] = ranking[pattern[t][s] - 1];
    if (n > TNY_AG_GROUP_A)
        rank_sum_tables(n - TNY_AG_GROUP_A, ranking + TNY_AG_GROUP_A,
                        tables + 2);
out:
    return rc;
}

int tny_ag_seat_final2(int32_t n_a, const int32_t *ranking_a, int32_t n_b,
                       const int32_t *ranking_b, int32_t (*tables)[4],
                       struct tny_diag *diag)
{
    int32_t flat[TNY_AG_MAX_PLAYERS];
    int32_t n;
    int rc = TNY_OK;

    assert(tables && (n_a == 0 || ranking_a) && (n_b == 0 || ranking_b));
    if (n_a < 0 || n_b < 0 || n_a > TNY_AG_MAX_PLAYERS ||
        n_b > TNY_AG_MAX_PLAYERS - n_a || n_a + n_b < 4) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "final game 2 seating: groups of %ld and %ld "
                          "players, expected 4..%d in all",
                          (long)n_a, (long)n_b, TNY_AG_MAX_PLAYERS);
        goto out;
    }
    if (n_a % 4 != 0 || n_b % 4 != 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "final game 2 seating: group %c has %ld players, "
                          "not a multiple of 4",
                          n_a % 4 != 0 ? 'A' : 'B',
                          (long)(n_a % 4 != 0 ? n_a : n_b));
        goto out;
    }
    n = n_a + n_b;
    if (n_a > 0)
        memcpy(flat, ranking_a, (size_t)n_a * sizeof(flat[0]));
    if (n_b > 0)
        memcpy(flat + n_a, ranking_b, (size_t)n_b * sizeof(flat[0]));
    rc = check_distinct(flat, n, "final game 2 seating", diag);
    if (rc < 0)
        goto out;

    /* Group A's ranks 1-4, 5-8, then group B's 1-4 (places 9-12), ... */
    for (int32_t i = 0; i < n; i++)
        tables[i / 4][i % 4] = flat[i];
out:
    return rc;
}

void tny_ag_seat_lot(struct tny_rng *rng, int32_t table[4])
{
    assert(rng && table);
    tny_rng_shuffle_i32(rng, table, 4);
}

int32_t tny_ag_starting_player(struct tny_rng *rng)
{
    assert(rng);
    return (int32_t)tny_rng_below(rng, 4);
}

void tny_ag_places(const int32_t vp[4], int32_t n_seats, int32_t above[4],
                   int32_t equal[4])
{
    assert(vp && above && equal);
    assert(n_seats >= 1 && n_seats <= 4);

    for (int32_t i = 0; i < n_seats; i++) {
        above[i] = equal[i] = 0;
        for (int32_t j = 0; j < n_seats; j++) {
            above[i] += vp[j] > vp[i];
            equal[i] += vp[j] == vp[i];
        }
    }
}

void tny_ag_places_points(const int32_t above[4], const int32_t equal[4],
                          int32_t n_seats, const int64_t base_points_1200[4],
                          int64_t out_tp_1200[4])
{
    assert(above && equal && base_points_1200 && out_tp_1200);
    assert(n_seats >= 1 && n_seats <= 4);

    for (int32_t i = 0; i < n_seats; i++) {
        int64_t sum = 0;
        /* The tied players occupy places above+1 .. above+equal. */
        for (int32_t p = above[i]; p < above[i] + equal[i]; p++)
            sum += base_points_1200[p];
        out_tp_1200[i] = sum / equal[i];
    }
    for (int32_t i = n_seats; i < 4; i++)
        out_tp_1200[i] = 0;
}

void tny_ag_placement_points(const int32_t vp[4], int32_t n_seats,
                             const int64_t base_points_1200[4],
                             int64_t out_tp_1200[4])
{
    int32_t above[4], equal[4];
    tny_ag_places(vp, n_seats, above, equal);
    tny_ag_places_points(above, equal, n_seats, base_points_1200, out_tp_1200);
}
