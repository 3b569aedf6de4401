/* test_elo.c - Elo ratings over past events (AG-2, TX-12): hand-computed
 * updates, pairwise multi-player games, conservation and symmetry,
 * eligibility window (10 events, 2 events, 5 games). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tny/elo.h"
#include "tny/rng.h"

#define EPS 1e-9

static struct tny_elo_game duel(int32_t a, int32_t sa, int32_t b, int32_t sb)
{
    struct tny_elo_game g = {.n_players = 2};
    g.player[0] = a;
    g.score[0] = sa;
    g.player[1] = b;
    g.score[1] = sb;
    return g;
}

static void test_AG_2_defaults(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    assert_true(p.k == 20.0 && p.initial == 1500.0);
    assert_int_equal(p.max_events, 10);
    assert_int_equal(p.min_events, 2);
    assert_int_equal(p.min_games, 5);
    assert_true(fabs(tny_elo_expected(1500, 1500) - 0.5) < EPS);
    /* 200 points below: 1 / (1 + 10^0.5) = 0.240253... */
    assert_true(fabs(tny_elo_expected(1400, 1600) - 0.2402530733520421) <
                1e-12);
}

/* Two 1500 players, K = 20: the winner gets 1510, the loser 1490; a second
 * win of the same player: expected 1/(1+10^(-20/400)) = 0.52875056, so
 * +9.42498872 (1519.42498872 / 1480.57501128). */
static void test_TX_12_two_player_updates(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    struct tny_elo_game games[2] = {duel(0, 31, 1, 12), duel(1, 5, 0, 20)};
    struct tny_elo_event ev = {games, 1};
    struct tny_elo_rating out[2];
    assert_int_equal(tny_elo_compute(&p, 2, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[0].rating - 1510.0) < EPS);
    assert_true(fabs(out[1].rating - 1490.0) < EPS);
    ev.n_games = 2;
    assert_int_equal(tny_elo_compute(&p, 2, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[0].rating - 1519.4249887221547) < 1e-9);
    assert_true(fabs(out[1].rating - 1480.5750112778453) < 1e-9);
    assert_int_equal(out[0].games, 2);
    assert_int_equal(out[0].events, 1);
}

/* Equal game scores are a draw (0.5): after 1510/1490 a draw moves the
 * favourite down by 20 * 0.02875056 = 0.57501128. */
static void test_TX_12_draw(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    struct tny_elo_game games[2] = {duel(0, 3, 1, 1), duel(0, 17, 1, 17)};
    struct tny_elo_event ev = {games, 2};
    struct tny_elo_rating out[2];
    assert_int_equal(tny_elo_compute(&p, 2, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[0].rating - 1509.4249887221547) < 1e-9);
    assert_true(fabs(out[1].rating - 1490.5750112778453) < 1e-9);
}

/* AG-2 decision: a 4-player game is its 6 pairwise results.  All at 1500,
 * VP 40, 30, 30, 10: the winner beats 3 (+10 each), the two seconds draw
 * each other and split 1-1 (0), the last loses 3 (-30).  A second game, all
 * tied, from 1530/1500/1500/1470: 1526.56736675, 1500, 1500, 1473.43263325
 * (each pair 20 * (0.5 - expected), applied together). */
static void test_AG_2_four_player_game_is_six_pairs(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    struct tny_elo_game games[2] = {
        {.n_players = 4, .player = {3, 1, 0, 2}, .score = {40, 30, 30, 10}},
        {.n_players = 4, .player = {0, 1, 2, 3}, .score = {5, 5, 5, 5}},
    };
    struct tny_elo_event ev = {games, 1};
    struct tny_elo_rating out[4];
    assert_int_equal(tny_elo_compute(&p, 4, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[3].rating - 1530.0) < EPS);
    assert_true(fabs(out[1].rating - 1500.0) < EPS);
    assert_true(fabs(out[0].rating - 1500.0) < EPS);
    assert_true(fabs(out[2].rating - 1470.0) < EPS);
    ev.n_games = 2;
    assert_int_equal(tny_elo_compute(&p, 4, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[3].rating - 1526.5673667456754) < 1e-9);
    assert_true(fabs(out[1].rating - 1500.0) < 1e-9);
    assert_true(fabs(out[0].rating - 1500.0) < 1e-9);
    assert_true(fabs(out[2].rating - 1473.4326332543246) < 1e-9);
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i].games, 2);
}

/* A 3-player game is 3 pairs; K 10 from 1000 each: 1st beats two (+5 +5),
 * 2nd splits (0), 3rd loses two (-10). */
static void test_AG_2_three_player_game(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    p.k = 10;
    p.initial = 1000;
    struct tny_elo_game g = {
        .n_players = 3, .player = {2, 0, 1}, .score = {7, 9, 8}};
    struct tny_elo_event ev = {&g, 1};
    struct tny_elo_rating out[3];
    assert_int_equal(tny_elo_compute(&p, 3, &ev, 1, out, NULL), 0);
    assert_true(fabs(out[0].rating - 1010.0) < EPS);
    assert_true(fabs(out[1].rating - 1000.0) < EPS);
    assert_true(fabs(out[2].rating - 990.0) < EPS);
}

/* Random histories: the sum of ratings is conserved, renaming players
 * renames the results, and seat order inside a game does not matter. */
static void test_AG_2_conservation_and_symmetry(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 2002);
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    int cases = tu_property_cases(300);
    enum { NP = 24, NE = 14, NG = 12 };
    static struct tny_elo_game games[NE][NG], renamed[NE][NG];
    struct tny_elo_event ev[NE], ev2[NE];
    struct tny_elo_rating a[NP], b[NP];
    int32_t perm[NP];
    for (int c = 0; c < cases; c++) {
        for (int32_t i = 0; i < NP; i++)
            perm[i] = i;
        tny_rng_shuffle_i32(&rng, perm, NP);
        int32_t n_events = 1 + (int32_t)tny_rng_below(&rng, NE);
        for (int32_t e = 0; e < n_events; e++) {
            int32_t n_games = (int32_t)tny_rng_below(&rng, NG + 1);
            for (int32_t j = 0; j < n_games; j++) {
                int32_t ids[NP];
                for (int32_t i = 0; i < NP; i++)
                    ids[i] = i;
                tny_rng_shuffle_i32(&rng, ids, NP);
                struct tny_elo_game *g = &games[e][j];
                g->n_players = 2 + (int32_t)tny_rng_below(&rng, 3);
                for (int32_t s = 0; s < g->n_players; s++) {
                    g->player[s] = ids[s];
                    g->score[s] = (int32_t)tny_rng_below(&rng, 4);
                }
                /* Renamed copy with the seats in reverse order. */
                struct tny_elo_game *h = &renamed[e][j];
                h->n_players = g->n_players;
                for (int32_t s = 0; s < g->n_players; s++) {
                    int32_t from = g->n_players - 1 - s;
                    h->player[s] = perm[g->player[from]];
                    h->score[s] = g->score[from];
                }
            }
            ev[e] = (struct tny_elo_event){games[e], n_games};
            ev2[e] = (struct tny_elo_event){renamed[e], n_games};
        }
        assert_int_equal(tny_elo_compute(&p, NP, ev, n_events, a, NULL), 0);
        assert_int_equal(tny_elo_compute(&p, NP, ev2, n_events, b, NULL), 0);
        double sum = 0;
        for (int32_t i = 0; i < NP; i++) {
            sum += a[i].rating;
            assert_true(fabs(a[i].rating - b[perm[i]].rating) < 1e-6);
            assert_int_equal(a[i].games, b[perm[i]].games);
            assert_int_equal(a[i].events, b[perm[i]].events);
            assert_int_equal(a[i].rated, b[perm[i]].rated);
            assert_int_equal(a[i].rated, a[i].events >= 2 && a[i].games >= 5);
        }
        assert_true(fabs(sum - NP * 1500.0) < 1e-6);
    }
}

/* Eligibility: at least 2 of the counted events and at least 5 games. */
static void test_AG_2_eligibility_boundaries(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    /* Player 0 plays players 1..; only player 0's flags are checked. */
    struct tny_elo_game e1[6], e2[6];
    for (int32_t j = 0; j < 6; j++) {
        e1[j] = duel(0, 1, 1 + j, 0);
        e2[j] = duel(0, 0, 1 + j, 1);
    }
    struct tny_elo_rating out[7];

    /* One event, 6 games: not rated. */
    struct tny_elo_event one[1] = {{e1, 6}};
    assert_int_equal(tny_elo_compute(&p, 7, one, 1, out, NULL), 0);
    assert_int_equal(out[0].games, 6);
    assert_int_equal(out[0].events, 1);
    assert_false(out[0].rated);

    /* Two events, 4 games: not rated. */
    struct tny_elo_event four[2] = {{e1, 2}, {e2, 2}};
    assert_int_equal(tny_elo_compute(&p, 7, four, 2, out, NULL), 0);
    assert_int_equal(out[0].games, 4);
    assert_int_equal(out[0].events, 2);
    assert_false(out[0].rated);

    /* Two events, 5 games: rated. */
    struct tny_elo_event five[2] = {{e1, 2}, {e2, 3}};
    assert_int_equal(tny_elo_compute(&p, 7, five, 2, out, NULL), 0);
    assert_int_equal(out[0].games, 5);
    assert_true(out[0].rated);
    assert_false(out[1].rated); /* 2 games in 2 events */

    /* An event where the player has no game does not count for them. */
    struct tny_elo_event empty[3] = {{e1, 5}, {NULL, 0}, {e2 + 5, 1}};
    assert_int_equal(tny_elo_compute(&p, 7, empty, 2, out, NULL), 0);
    assert_int_equal(out[0].events, 1);
    assert_false(out[0].rated);
    assert_int_equal(tny_elo_compute(&p, 7, empty, 3, out, NULL), 0);
    assert_int_equal(out[0].events, 2);
    assert_int_equal(out[6].events, 1);
    assert_true(out[0].rated);
}

/* Only the last 10 events count: an 11th event pushes the first out, and
 * ratings restart from the initial value at the first counted event. */
static void test_AG_2_eleventh_event_pushes_first_out(void **state)
{
    (void)state;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    /* Event 0: player 0 wins 4 games against player 1.  Events 1..9:
     * players 2 and 3 play one game each.  Event 10: player 0 beats 1. */
    struct tny_elo_game first[4], filler[1] = {duel(2, 1, 3, 0)};
    for (int j = 0; j < 4; j++)
        first[j] = duel(0, 1, 1, 0);
    struct tny_elo_game last[1] = {duel(0, 1, 1, 0)};
    struct tny_elo_event ev[11];
    ev[0] = (struct tny_elo_event){first, 4};
    for (int e = 1; e < 10; e++)
        ev[e] = (struct tny_elo_event){filler, 1};
    ev[10] = (struct tny_elo_event){last, 1};
    struct tny_elo_rating out[4];

    /* Events 0..9 only: player 0 has 4 games in 1 event. */
    assert_int_equal(tny_elo_compute(&p, 4, ev, 10, out, NULL), 0);
    assert_int_equal(out[0].games, 4);
    assert_int_equal(out[0].events, 1);
    assert_true(out[0].rating > 1530.0);

    /* Eleven events: event 0 drops out; player 0 has 1 game, 1 event, and
     * the rating is that of one win from 1500. */
    assert_int_equal(tny_elo_compute(&p, 4, ev, 11, out, NULL), 0);
    assert_int_equal(out[0].games, 1);
    assert_int_equal(out[0].events, 1);
    assert_false(out[0].rated);
    assert_true(fabs(out[0].rating - 1510.0) < EPS);
    assert_int_equal(out[2].events, 9);
    assert_int_equal(out[2].games, 9);
    assert_true(out[2].rated);

    /* A smaller window by parameter. */
    p.max_events = 1;
    assert_int_equal(tny_elo_compute(&p, 4, ev, 11, out, NULL), 0);
    assert_int_equal(out[2].games, 0);
    assert_true(out[2].rating == 1500.0);
}

/* TX-12: a bad game in an ignored (older than the window) event is not
 * looked at; a bad game in a counted one is refused with its path. */
static void test_TX_12_errors(void **state)
{
    (void)state;
    struct tny_diag diag;
    struct tny_elo_params p;
    tny_elo_params_default(&p);
    struct tny_elo_rating out[3];
    struct tny_elo_game bad_index[1] = {duel(0, 1, 3, 0)};
    struct tny_elo_event ev = {bad_index, 1};
    assert_int_equal(tny_elo_compute(&p, 3, &ev, 1, out, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "events[0].games[0].player[1]"));
    struct tny_elo_game twice[1] = {duel(2, 1, 2, 0)};
    ev.games = twice;
    assert_int_equal(tny_elo_compute(&p, 3, &ev, 1, out, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "repeated"));
    struct tny_elo_game five = {.n_players = 5};
    ev.games = &five;
    assert_int_equal(tny_elo_compute(&p, 3, &ev, 1, out, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "n_players"));
    struct tny_elo_game solo = {.n_players = 1};
    ev.games = &solo;
    assert_int_equal(tny_elo_compute(&p, 3, &ev, 1, out, &diag), TNY_EINVAL);

    struct tny_elo_event window[2] = {{&solo, 1}, {twice, 0}};
    p.max_events = 1;
    assert_int_equal(tny_elo_compute(&p, 3, window, 2, out, &diag), 0);

    p.k = 0;
    assert_int_equal(tny_elo_compute(&p, 3, window, 2, out, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "elo.k"));
    p.k = 20;
    p.max_events = 0;
    assert_int_equal(tny_elo_compute(&p, 3, window, 2, out, &diag), TNY_EINVAL);
    p.max_events = 10;
    p.initial = NAN;
    assert_int_equal(tny_elo_compute(&p, 3, window, 2, out, &diag), TNY_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_AG_2_defaults),
        cmocka_unit_test(test_TX_12_two_player_updates),
        cmocka_unit_test(test_TX_12_draw),
        cmocka_unit_test(test_AG_2_four_player_game_is_six_pairs),
        cmocka_unit_test(test_AG_2_three_player_game),
        cmocka_unit_test(test_AG_2_conservation_and_symmetry),
        cmocka_unit_test(test_AG_2_eligibility_boundaries),
        cmocka_unit_test(test_AG_2_eleventh_event_pushes_first_out),
        cmocka_unit_test(test_TX_12_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
