/* test_tablewatch.c - the table's own clocks (tablewatch.h): the Tantrix
 * chess clock (TX-3, TX-4, TX-5, TX-9, TX-11), its save line across power
 * cuts, and the Agricola draft and action timers (AG-14).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "tny/rng.h"

#include "tablewatch.h"

#define MIN ((int64_t)60000)
#define SEC ((int64_t)1000)

static struct tbl_chess_view view(const struct tbl_chess *c, int64_t now)
{
    struct tbl_chess_view v;

    tbl_chess_view(c, now, &v);
    return v;
}

static void test_TX_11_non_starter_starts_starters_clock(void **s)
{
    struct tbl_chess c;
    struct tny_diag d;

    (void)s;
    tbl_chess_init(&c, 20 * MIN);
    /* Ben (side 1) starts: Anna starts Ben's clock */
    assert_int_equal(tbl_chess_start(&c, 1, 1000, &d), 0);
    assert_int_equal(view(&c, 1000).running, 1);
    assert_int_equal(tbl_chess_start(&c, 0, 1000, &d), TNY_ESTATE);
    assert_int_equal(tbl_chess_press(&c, 0, 5000, &d), TNY_ESTATE);
    assert_int_equal(tbl_chess_press(&c, 1, 61000, &d), 0);
    assert_int_equal(view(&c, 91000).used_ms[1], MIN);
    assert_int_equal(view(&c, 91000).used_ms[0], 30 * SEC);
    assert_int_equal(view(&c, 91000).running, 0);
    assert_int_equal(view(&c, 91000).left_ms[0], 20 * MIN - 30 * SEC);
    assert_int_equal(tbl_chess_stop(&c, 100000, &d), 0);
    assert_true(view(&c, 999999).stopped);
    assert_int_equal(view(&c, 999999).used_ms[0], 39 * SEC);
    assert_int_equal(tbl_chess_stop(&c, 100000, &d), TNY_ESTATE);
}

/* side 0 has used exactly used_ms, side 1 nothing. */
static void used(struct tbl_chess *c, int64_t used_ms)
{
    tbl_chess_init(c, 0);
    assert_int_equal(tbl_chess_start(c, 0, 0, NULL), 0);
    assert_int_equal(tbl_chess_pause(c, used_ms, NULL), 0);
}

static void test_TX_3_over_at_20_minutes_and_penalty_preview(void **s)
{
    struct tbl_chess c;

    (void)s;
    used(&c, 20 * MIN - 1);
    assert_false(view(&c, 0).over[0]);
    assert_int_equal(view(&c, 0).penalty_preview[0], 0);
    used(&c, 20 * MIN); /* 20:00 is already over: 1 TP */
    assert_true(view(&c, 0).over[0]);
    assert_int_equal(view(&c, 0).penalty_preview[0], 1);
    assert_int_equal(view(&c, 0).left_ms[0], 0);
    used(&c, 21 * MIN - 1); /* 20:59.999 */
    assert_int_equal(view(&c, 0).penalty_preview[0], 1);
    used(&c, 21 * MIN); /* 21:00 -> 2 */
    assert_int_equal(view(&c, 0).penalty_preview[0], 2);
    assert_int_equal(view(&c, 0).penalty_preview[1], 0);
}

static void test_TX_4_alert_past_25_minutes(void **s)
{
    struct tbl_chess c;

    (void)s;
    used(&c, 25 * MIN);
    assert_false(view(&c, 0).alert_25min[0]);
    assert_int_equal(view(&c, 0).stop_favours, -1);
    used(&c, 25 * MIN + 1);
    assert_true(view(&c, 0).alert_25min[0]);
    /* the organiser may decide for the player under 25 minutes */
    assert_int_equal(view(&c, 0).stop_favours, 1);
}

static void test_TX_9_wrongful_pause_30_seconds(void **s)
{
    struct tbl_chess c;
    struct tny_diag d;

    (void)s;
    tbl_chess_init(&c, 0);
    assert_int_equal(tbl_chess_wrongful_pause(&c, 0, 0, &d), TNY_ESTATE);
    assert_int_equal(tbl_chess_start(&c, 0, 0, &d), 0);
    assert_int_equal(tbl_chess_press(&c, 0, 2 * MIN, &d), 0);
    assert_int_equal(tbl_chess_pause(&c, 2 * MIN + 10 * SEC, &d), 0);
    /* side 1 paused wrongfully: +30 s for side 1, -30 s for side 0 */
    assert_int_equal(tbl_chess_wrongful_pause(&c, 1, 0, &d), 0);
    assert_int_equal(view(&c, 0).used_ms[1], 40 * SEC);
    assert_int_equal(view(&c, 0).used_ms[0], 90 * SEC);
    assert_true(view(&c, 0).paused);
    assert_int_equal(tbl_chess_resume(&c, 5 * MIN, &d), 0);
    assert_int_equal(view(&c, 5 * MIN + SEC).used_ms[1], 41 * SEC);
    /* never below 0 */
    tbl_chess_init(&c, 0);
    assert_int_equal(tbl_chess_start(&c, 0, 0, &d), 0);
    assert_int_equal(tbl_chess_pause(&c, 10 * SEC, &d), 0);
    assert_int_equal(tbl_chess_wrongful_pause(&c, 0, 0, &d), 0);
    assert_int_equal(view(&c, 0).used_ms[1], 0);
    assert_int_equal(tbl_chess_wrongful_pause(&c, 2, 0, &d), TNY_EINVAL);
}

static void test_TX_5_absence_phases(void **s)
{
    int32_t phase;

    (void)s;
    assert_int_equal(tbl_tx_absence(1000, 1000 + 5 * MIN - 1, &phase, NULL), 0);
    assert_int_equal(phase, 0);
    assert_int_equal(tbl_tx_absence(1000, 1000 + 5 * MIN, &phase, NULL), 0);
    assert_int_equal(phase, 1); /* start the absent player's clock */
    assert_int_equal(tbl_tx_absence(1000, 1000 + 10 * MIN, &phase, NULL), 0);
    assert_int_equal(phase, 2); /* a default may be called */
}

static void test_TX_3_save_load_running_clock_across_power_cut(void **s)
{
    struct tbl_chess c, back;
    char line[TBL_CHESS_SAVE_MAX];
    struct tny_diag d;

    (void)s;
    tbl_chess_init(&c, 20 * MIN);
    assert_int_equal(tbl_chess_start(&c, 1, 0, &d), 0);
    assert_int_equal(tbl_chess_press(&c, 1, 3 * MIN, &d), 0);
    /* saved at 4:00 (side 0 has run 1 min), wall clock 1e12 */
    assert_int_equal(
        tbl_chess_save(&c, 4 * MIN, 1000000000000, line, sizeof(line)), 0);
    assert_true(strlen(line) < TBL_CHESS_SAVE_MAX);
    /* power back 2 min later on the wall clock; monotonic restarts at 5 */
    assert_int_equal(
        tbl_chess_load(&back, line, 5, 1000000000000 + 2 * MIN, &d), 0);
    assert_int_equal(view(&back, 5).used_ms[0], 3 * MIN);
    assert_int_equal(view(&back, 5).used_ms[1], 3 * MIN);
    assert_int_equal(view(&back, 5).running, 0);
    assert_int_equal(view(&back, 5 + SEC).used_ms[0], 3 * MIN + SEC);
    assert_int_equal(tbl_chess_press(&back, 0, 5 + SEC, &d), 0);
    /* a wall clock that went backwards counts as no time */
    assert_int_equal(tbl_chess_load(&back, line, 0, 5, &d), 0);
    assert_int_equal(view(&back, 0).used_ms[0], MIN);
    /* a paused clock stays as it was */
    assert_int_equal(tbl_chess_pause(&c, 4 * MIN, &d), 0);
    assert_int_equal(tbl_chess_save(&c, 4 * MIN, 0, line, sizeof(line)), 0);
    assert_int_equal(tbl_chess_load(&back, line, 0, 10 * MIN, &d), 0);
    assert_true(view(&back, 9 * MIN).paused);
    assert_int_equal(view(&back, 9 * MIN).used_ms[0], MIN);
    assert_int_equal(tbl_chess_resume(&back, 9 * MIN, &d), 0);
    assert_int_equal(view(&back, 9 * MIN).running, 0);
    /* too small a buffer */
    assert_int_equal(tbl_chess_save(&c, 0, 0, line, 8), TNY_ERANGE);
}

static void test_TX_3_load_refuses_bad_lines(void **s)
{
    static const char *const bad[] = {
        "",
        "tbl-chess 2 0 0 0 0 -1 -1 0 0 0 1200000 0",
        "tbl-chess 1 0 0 0 0 -1 -1 0 0 0 1200000",
        "tbl-chess 1 0 0 0 0 -1 -1 0 0 0 1200000 0 7",
        "tbl-chess 1 -5 0 0 0 -1 -1 0 0 0 1200000 0",
        "tbl-chess 1 0 0 0 0 2 -1 0 0 0 1200000 0",
        "tbl-chess 1 0 0 0 0 0 -1 1 0 1 1200000 0",
        "tbl-chess 1 0 0 0 0 -1 -1 1 0 1 1200000 0",
        "tbl-chess 1 0 0 0 0 -1 -1 0 3 0 1200000 0",
        "tbl-chess 1 0 0 0 0 -1 -1 0 0 0 0 0",
    };
    struct tbl_chess c, before;
    struct tny_diag d;

    (void)s;
    tbl_chess_init(&c, 0);
    before = c;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (tbl_chess_load(&c, bad[i], 0, 0, &d) != TNY_EINVAL)
            fail_msg("accepted \"%s\"", bad[i]);
        assert_memory_equal(&c, &before, sizeof(c));
    }
    assert_int_equal(tbl_chess_load(&c,
                                    "tbl-chess 1 0 0 0 0 -1 -1 0 0 0 1200000 0",
                                    0, 0, &d),
                     0);
}

/* Random key sequences: saving and loading at the same wall time gives
 * the same readings, then and later. */
static void test_TX_3_save_load_roundtrip_random(void **s)
{
    int n = tu_property_cases(2000);
    struct tny_rng rng;

    (void)s;
    tny_rng_seed(&rng, 77);
    for (int i = 0; i < n; i++) {
        struct tbl_chess c, back;
        char line[TBL_CHESS_SAVE_MAX];
        int64_t now = (int64_t)tny_rng_below(&rng, 1000000), wall;
        tbl_chess_init(&c, (int64_t)tny_rng_below(&rng, 3) * 10 * MIN);
        for (int k = 0; k < 12; k++) {
            int32_t side = (int32_t)tny_rng_below(&rng, 2);
            now += (int64_t)tny_rng_below(&rng, 3 * MIN);
            int rc;
            switch (tny_rng_below(&rng, 6)) {
            case 0: rc = tbl_chess_start(&c, side, now, NULL); break;
            case 1:
            case 2: rc = tbl_chess_press(&c, side, now, NULL); break;
            case 3: rc = tbl_chess_pause(&c, now, NULL); break;
            case 4: rc = tbl_chess_resume(&c, now, NULL); break;
            default: rc = tbl_chess_wrongful_pause(&c, side, now, NULL);
            }
            assert_true(rc == 0 || rc == TNY_ESTATE || rc == TNY_EINVAL);
        }
        wall = (int64_t)tny_rng_below(&rng, (uint64_t)1 << 40);
        assert_int_equal(tbl_chess_save(&c, now, wall, line, sizeof(line)), 0);
        assert_int_equal(tbl_chess_load(&back, line, 17, wall, NULL), 0);
        for (int64_t later = 0; later <= 2 * MIN; later += MIN) {
            struct tbl_chess_view a = view(&c, now + later),
                                  b = view(&back, 17 + later);
            assert_memory_equal(a.used_ms, b.used_ms, sizeof(a.used_ms));
            assert_int_equal(a.running, b.running);
            assert_int_equal(a.paused, b.paused);
            assert_memory_equal(a.penalty_preview, b.penalty_preview,
                                sizeof(a.penalty_preview));
        }
    }
}

static struct tbl_ag_view ag(const struct tbl_ag_timers *t, int64_t now)
{
    struct tbl_ag_view v;

    tbl_ag_view(t, now, &v);
    return v;
}

static void test_AG_14_draft_countdown(void **s)
{
    struct tbl_ag_timers t;
    struct tny_diag d;

    (void)s;
    tbl_ag_init(&t, 0, 0); /* the seed's 15 min and 30 s */
    assert_false(ag(&t, 0).started);
    assert_int_equal(tbl_ag_end_draft(&t, 0, &d), TNY_ESTATE);
    assert_int_equal(tbl_ag_start_draft(&t, 1000, &d), 0);
    assert_int_equal(tbl_ag_start_draft(&t, 1000, &d), TNY_ESTATE);
    assert_true(ag(&t, 1000).drafting);
    assert_int_equal(ag(&t, 1000 + 5 * MIN).draft_left_ms, 10 * MIN);
    assert_int_equal(ag(&t, 1000 + 16 * MIN).draft_left_ms, -MIN);
    /* a pause of the round freezes the countdown */
    assert_int_equal(tbl_ag_pause(&t, 1000 + 6 * MIN, &d), 0);
    assert_int_equal(ag(&t, 1000 + 9 * MIN).draft_left_ms, 9 * MIN);
    assert_int_equal(tbl_ag_resume(&t, 1000 + 10 * MIN, &d), 0);
    assert_int_equal(ag(&t, 1000 + 11 * MIN).draft_left_ms, 8 * MIN);
    assert_int_equal(tbl_ag_end_draft(&t, 1000 + 14 * MIN, &d), 0);
    assert_false(ag(&t, 1000 + 20 * MIN).drafting);
    assert_int_equal(ag(&t, 1000 + 20 * MIN).draft_left_ms, 5 * MIN);
    assert_false(ag(&t, 1000 + 20 * MIN).speed);
}

static void test_AG_14_speed_play_30_second_actions(void **s)
{
    struct tbl_ag_timers t;
    struct tny_diag d;
    const int64_t up = 105 * MIN;

    (void)s;
    tbl_ag_init(&t, 15 * MIN, 30 * SEC);
    assert_int_equal(tbl_ag_start_draft(&t, 0, &d), 0);
    assert_int_equal(tbl_ag_end_draft(&t, 12 * MIN, &d), 0);
    assert_int_equal(tbl_ag_next_action(&t, 50 * MIN, &d), TNY_ESTATE);
    assert_int_equal(tbl_ag_time_up(&t, up, &d), 0);
    assert_int_equal(tbl_ag_time_up(&t, up, &d), TNY_ESTATE);
    assert_true(ag(&t, up).speed);
    assert_int_equal(ag(&t, up + 29 * SEC).action_left_ms, SEC);
    assert_false(ag(&t, up + 29 * SEC).action_over);
    /* not placed in 30 s: the turn passes, the next player has 30 s */
    assert_true(ag(&t, up + 31 * SEC).action_over);
    assert_int_equal(ag(&t, up + 31 * SEC).turns_passed, 1);
    assert_int_equal(ag(&t, up + 31 * SEC).action_left_ms, 29 * SEC);
    /* a key restarts the timer */
    assert_int_equal(tbl_ag_next_action(&t, up + 40 * SEC, &d), 0);
    assert_int_equal(ag(&t, up + 50 * SEC).action_left_ms, 20 * SEC);
    assert_false(ag(&t, up + 50 * SEC).action_over);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_TX_11_non_starter_starts_starters_clock),
        cmocka_unit_test(test_TX_3_over_at_20_minutes_and_penalty_preview),
        cmocka_unit_test(test_TX_4_alert_past_25_minutes),
        cmocka_unit_test(test_TX_9_wrongful_pause_30_seconds),
        cmocka_unit_test(test_TX_5_absence_phases),
        cmocka_unit_test(test_TX_3_save_load_running_clock_across_power_cut),
        cmocka_unit_test(test_TX_3_load_refuses_bad_lines),
        cmocka_unit_test(test_TX_3_save_load_roundtrip_random),
        cmocka_unit_test(test_AG_14_draft_countdown),
        cmocka_unit_test(test_AG_14_speed_play_30_second_actions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
