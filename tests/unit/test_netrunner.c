/* test_netrunner.c - the sixth game added through its module alone
 * (issue 18 item 2): Netrunner's rules NR-1..NR-5 (docs/formats.md), the
 * module's registration (tny/game.h) and the properties of a
 * double-sided round.  Expected values are worked out by hand in the
 * comments.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/score.h"
#include "tny/simulate.h"
#include "tny/standings.h"

#define P(x) ((int64_t)((x)*TNY_POINT_SCALE + 0.5))

#define FOUR                                                                   \
    "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},"                  \
    "{'id':'c','name':'C'},{'id':'d','name':'D'}]"

static int64_t points_of(const struct tny_event *ev,
                         const struct tny_standings *st, const char *id)
{
    int i = tu_row_of(ev, st, id);
    assert_true(i >= 0);
    return st->rows[i].points;
}

/* The module is found by value and by name, and both presets are its. */
static void test_netrunner_is_a_registered_game(void **state)
{
    (void)state;
    enum tny_game g;
    struct tny_format f;
    struct tny_diag d = {{0}};
    const struct tny_game_ops *ops = tny_game_ops_of(TNY_GAME_NETRUNNER);

    assert_non_null(ops);
    assert_string_equal(ops->name, "netrunner");
    assert_string_equal(ops->rules, "NR");
    assert_int_equal(tny_game_from_name("netrunner", &g), 0);
    assert_int_equal(g, TNY_GAME_NETRUNNER);
    assert_ptr_equal(tny_game_ops_by_name("netrunner"), ops);
    /* its results travel as the two-player result (game.h flow) */
    assert_int_equal(tny_game_flow(TNY_GAME_NETRUNNER), TNY_GAME_TWO_PLAYER);
    assert_int_equal(tny_format_preset("netrunner-sss", &f, &d), 0);
    assert_int_equal(f.game, TNY_GAME_NETRUNNER);
    assert_int_equal(tny_format_preset("netrunner-dss", &f, &d), 0);
    assert_int_equal(f.game, TNY_GAME_NETRUNNER);
    /* NR-5: SoS and ESoS apply; NH's HQ difference does not */
    assert_true(tny_tiebreak_applies(TNY_TB_SOS, TNY_GAME_NETRUNNER));
    assert_true(tny_tiebreak_applies(TNY_TB_ESOS, TNY_GAME_NETRUNNER));
    assert_false(tny_tiebreak_applies(TNY_TB_HQ_DIFF, TNY_GAME_NETRUNNER));
}

/* Every registered module: found by its value and its name, its keys end
 * in lots, its ranges are its own and name keys it has (game.h). */
static void test_registry_invariants(void **state)
{
    (void)state;
    const struct tny_game_ops *const *all;
    int32_t n = tny_game_registry(&all);

    assert_true(n >= 7);
    for (int32_t g = 0; g < n; g++) {
        const struct tny_game_ops *ops = all[g];
        assert_int_equal(ops->game, g);
        assert_ptr_equal(tny_game_ops_of(ops->game), ops);
        assert_ptr_equal(tny_game_ops_by_name(ops->name), ops);
        assert_string_equal(tny_game_name(ops->game), ops->name);
        assert_true(ops->n_keys >= 1);
        assert_int_equal(ops->keys[ops->n_keys - 1], TNY_RK_LOTS);
        for (int32_t i = 0; i < ops->n_ranges; i++) {
            assert_int_equal(ops->ranges[i].game, ops->game);
            assert_true(tny_result_has_key(
                ops->game, tny_result_field_key(ops->ranges[i].field)));
        }
        assert_non_null(ops->score_table);
        assert_non_null(ops->score_bye);
        assert_non_null(ops->validate_result);
        assert_non_null(ops->simulate);
        assert_true(ops->players_per_table == 2 || ops->players_per_table == 4);
        /* the flow is a game with its own result shape */
        assert_int_equal(tny_game_flow(ops->flow), ops->flow);
    }
}

/* NR-1, NR-2 single-sided: one game a round, won 3, tied 1, lost 0.
 * Round 1: a beats b, c and d tie.  Round 2: a beats c, d beats b.
 * a 3+3 = 6, b 0+0 = 0, c 1+0 = 1, d 1+3 = 4. */
static void test_NR_1_single_sided_worked_example(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st = {0};
    struct tny_diag d = {{0}};

    tu_load_event("{'format':'netrunner-sss'," FOUR ",'rounds':["
                  "{'stage':'swiss','tables':["
                  "{'table':1,'players':['a','b'],'sides':['corp','runner'],"
                  "'result':{'winner':'a'}},"
                  "{'table':2,'players':['c','d'],'sides':['corp','runner'],"
                  "'result':{'draw':true}}]},"
                  "{'stage':'swiss','tables':["
                  "{'table':1,'players':['c','a'],'sides':['corp','runner'],"
                  "'result':{'winner':'a'}},"
                  "{'table':2,'players':['d','b'],'sides':['corp','runner'],"
                  "'result':{'winner':'d'}}]}]}",
                  &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &d), 0);
    assert_int_equal(points_of(&ev, &st, "a"), P(6));
    assert_int_equal(points_of(&ev, &st, "b"), P(0));
    assert_int_equal(points_of(&ev, &st, "c"), P(1));
    assert_int_equal(points_of(&ev, &st, "d"), P(4));
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* NR-3 double-sided: a round's two games recorded as each player's
 * points: a beats b twice (6-0), c wins one and ties one against d (4-1);
 * round 2 with five players gives e the bye (NR-4: 6). */
static void test_NR_3_double_sided_worked_example(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st = {0};
    struct tny_diag d = {{0}};

    tu_load_event("{'format':'netrunner-dss','players':["
                  "{'id':'a','name':'A'},{'id':'b','name':'B'},"
                  "{'id':'c','name':'C'},{'id':'d','name':'D'},"
                  "{'id':'e','name':'E'}],'rounds':["
                  "{'stage':'swiss','tables':["
                  "{'table':1,'players':['a','b'],"
                  "'result':{'scores':{'a':6,'b':0}}},"
                  "{'table':2,'players':['c','d'],"
                  "'result':{'scores':{'c':4,'d':1}}},"
                  "{'bye':'e'}]}]}",
                  &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &d), 0);
    assert_int_equal(points_of(&ev, &st, "a"), P(6));
    assert_int_equal(points_of(&ev, &st, "b"), P(0));
    assert_int_equal(points_of(&ev, &st, "c"), P(4));
    assert_int_equal(points_of(&ev, &st, "d"), P(1));
    assert_int_equal(points_of(&ev, &st, "e"), P(6)); /* NR-4 */
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* NR-3: 5-1 is no pair of games' points (a win gives 3-0, a tie 1-1):
 * refused naming the rule; 2-2 (two ties) and 3-0 (one game, the other
 * cut by time) are accepted. */
static void test_NR_3_impossible_round_points_refused(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[512];
    const char *pre = "{'format':'netrunner-dss'," FOUR
                      ",'rounds':[{'stage':'swiss','tables':["
                      "{'table':1,'players':['a','b'],'result':{'scores':";
    char text[1024];

    snprintf(text, sizeof text,
             "%s{'a':5,'b':1}}},{'table':2,'players':['c','d'],"
             "'result':{'scores':{'c':3,'d':3}}}]}]}",
             pre);
    assert_int_not_equal(tu_try_event(text, &ev, msg, sizeof msg), 0);
    if (!strstr(msg, "rounds[0].tables[0].result.scores") ||
        !strstr(msg, "NR-3"))
        fail_msg("message: %s", msg);
    snprintf(text, sizeof text,
             "%s{'a':2,'b':2}}},{'table':2,'players':['c','d'],"
             "'result':{'scores':{'c':3,'d':0}}}]}]}",
             pre);
    assert_int_equal(tu_try_event(text, &ev, msg, sizeof msg), 0);
    tny_event_release(&ev);
}

/* The points two games can give, counted the long way: each game is a
 * win of either player (3-0), a tie (1-1) or not played. */
static bool two_games_give(int32_t a, int32_t b)
{
    static const int32_t ga[4] = {3, 0, 1, 0}, gb[4] = {0, 3, 1, 0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (ga[i] + ga[j] == a && gb[i] + gb[j] == b)
                return true;
    return false;
}

/* NR-3 property: any pair of points 0..6 is accepted exactly when two
 * games can give it; for two played games, the table's points sum to 6
 * less one per tied game, and each player's points are 3 a win and 1 a
 * tie. */
static void test_NR_3_property_round_points(void **state)
{
    (void)state;
    for (int32_t a = 0; a <= 6; a++)
        for (int32_t b = 0; b <= 6; b++)
            if (tny_netrunner_round_points_ok(a, b) != two_games_give(a, b))
                fail_msg("%d-%d: module says %d", (int)a, (int)b,
                         (int)tny_netrunner_round_points_ok(a, b));

    struct tny_rng rng;
    tny_rng_seed(&rng, 18);
    const int cases = tu_property_cases(300);
    for (int c = 0; c < cases; c++) {
        int wins[2] = {0, 0}, ties = 0;
        for (int g = 0; g < 2; g++) {
            uint64_t o = tny_rng_below(&rng, 3);
            if (o == 2)
                ties++;
            else
                wins[o]++;
        }
        int32_t pa = 3 * wins[0] + ties, pb = 3 * wins[1] + ties;
        char text[1024];
        struct tny_event ev;
        struct tny_records rec;
        struct tny_diag d = {{0}};
        char msg[512];
        snprintf(text, sizeof text,
                 "{'format':'netrunner-dss','players':[{'id':'a','name':'A'},"
                 "{'id':'b','name':'B'}],'rounds':[{'stage':'swiss','tables':"
                 "[{'table':1,'players':['a','b'],'result':{'scores':{'a':%d,"
                 "'b':%d}}}]}]}",
                 (int)pa, (int)pb);
        if (tu_try_event(text, &ev, msg, sizeof msg) != 0)
            fail_msg("%d-%d refused: %s", (int)pa, (int)pb, msg);
        assert_int_equal(tny_records_compute(&ev, 1, &rec, &d), 0);
        int64_t ta = tny_records_at(&rec, 0, 0)->tp;
        int64_t tb = tny_records_at(&rec, 1, 0)->tp;
        assert_int_equal(ta + tb, P(6 - ties));
        assert_int_equal(ta, P(3 * wins[0] + ties));
        assert_int_equal(tb, P(3 * wins[1] + ties));
        tny_records_release(&rec);
        tny_event_release(&ev);
    }
}

/* NR-3: a simulated double-sided event (tourney demo) records only what
 * two games give: every table's points are a pair two_games_give. */
static void test_NR_3_simulated_rounds_are_two_games(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_rng rng;
    struct tny_diag d = {{0}};
    int32_t played = 0;

    tu_load_event("{'format':'netrunner-dss','seed':5,'players':["
                  "{'id':'a','name':'A'},{'id':'b','name':'B'},"
                  "{'id':'c','name':'C'},{'id':'d','name':'D'},"
                  "{'id':'e','name':'E'},{'id':'f','name':'F'},"
                  "{'id':'g','name':'G'},{'id':'h','name':'H'}]}",
                  &ev);
    tny_rng_seed(&rng, 77);
    assert_int_equal(tny_simulate_rounds(&ev, 5, &rng, &played, &d), 0);
    assert_int_equal(played, 5);
    for (int32_t r = 0; r < ev.n_rounds; r++)
        for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
            const struct tny_table *tb = &ev.rounds[r].tables[t];
            if (tb->is_bye)
                continue;
            assert_true(tb->result.has_score);
            if (!two_games_give(tb->result.score[0], tb->result.score[1]))
                fail_msg("round %d table %d: %d-%d", (int)r + 1,
                         (int)tb->number, (int)tb->result.score[0],
                         (int)tb->result.score[1]);
        }
    assert_int_equal(tny_event_validate(&ev, &d), 0);
    tny_event_release(&ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_netrunner_is_a_registered_game),
        cmocka_unit_test(test_registry_invariants),
        cmocka_unit_test(test_NR_1_single_sided_worked_example),
        cmocka_unit_test(test_NR_3_double_sided_worked_example),
        cmocka_unit_test(test_NR_3_impossible_round_points_refused),
        cmocka_unit_test(test_NR_3_property_round_points),
        cmocka_unit_test(test_NR_3_simulated_rounds_are_two_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
