/* test_clock.c - round clock, table clock sync, Tantrix chess clock and the
 * Agricola table timer (CM-7, TX-3, TX-4, TX-5, TX-9, AG-14; architecture.md
 * "Time").  Worked examples from the seeds; property tests compare random
 * operation sequences with a simple model that sums running intervals. */
#include "testutil.h"

#include <string.h>

#include "tny/clock.h"
#include "tny/json_io.h"
#include "tny/rng.h"
#include "tny/score.h"

#define SEC ((int64_t)1000)
#define MIN (60 * SEC)
/* A realistic hub reading: 2024-01-01 in UTC ms. */
#define HUB_T0 ((int64_t)1704067200000)

/* ---- CM-7 round clock --------------------------------------------------- */

static void test_CM_7_start_pause_resume_extend(void **state)
{
    (void)state;
    struct tny_round_clock c;
    struct tny_diag d = {{0}};
    const int64_t t = HUB_T0;

    assert_int_equal(tny_round_clock_init(&c, 45 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_remaining(&c, t), 45 * MIN);
    assert_false(tny_round_clock_expired(&c, t + 100 * MIN)); /* not started */
    assert_int_equal(tny_round_clock_start(&c, t, &d), 0);
    assert_int_equal(tny_round_clock_remaining(&c, t + 10 * MIN), 35 * MIN);
    assert_int_equal(tny_round_clock_pause(&c, t + 10 * MIN, &d), 0);
    /* paused for 10 minutes: nothing lost */
    assert_int_equal(tny_round_clock_remaining(&c, t + 20 * MIN), 35 * MIN);
    assert_int_equal(tny_round_clock_resume(&c, t + 20 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_remaining(&c, t + 30 * MIN), 25 * MIN);
    assert_int_equal(tny_round_clock_extend(&c, 5 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_remaining(&c, t + 30 * MIN), 30 * MIN);
    assert_int_equal(c.extension_ms, 5 * MIN);
    /* deadline: 45 + 10 paused + 5 extended = 60 minutes after the start */
    assert_false(tny_round_clock_expired(&c, t + 60 * MIN - 1));
    assert_true(tny_round_clock_expired(&c, t + 60 * MIN));
    assert_int_equal(tny_round_clock_remaining(&c, t + 62 * MIN), -2 * MIN);
    /* extend while paused, in overtime */
    assert_int_equal(tny_round_clock_pause(&c, t + 62 * MIN, &d), 0);
    assert_true(tny_round_clock_expired(&c, t + 70 * MIN));
    assert_int_equal(tny_round_clock_extend(&c, 3 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_remaining(&c, t + 70 * MIN), 1 * MIN);
    assert_false(tny_round_clock_expired(&c, t + 70 * MIN));
    assert_int_equal(c.extension_ms, 8 * MIN);
}

static void test_CM_7_invalid_transitions(void **state)
{
    (void)state;
    struct tny_round_clock c, before;
    struct tny_diag d = {{0}};
    const int64_t t = HUB_T0;

    memset(&c, 0, sizeof(c)); /* padding too: compared as memory below */
    assert_int_equal(tny_round_clock_init(&c, -1, &d), TNY_ERANGE);
    assert_int_equal(tny_round_clock_init(&c, TNY_CLOCK_MAX_MS + 1, &d),
                     TNY_ERANGE);
    assert_int_equal(tny_round_clock_init(&c, 55 * MIN, &d), 0);

    d.msg[0] = '\0';
    assert_int_equal(tny_round_clock_pause(&c, t, &d), TNY_ESTATE);
    assert_non_null(strstr(d.msg, "pause"));
    assert_int_equal(tny_round_clock_resume(&c, t, &d), TNY_ESTATE);
    assert_int_equal(tny_round_clock_start(&c, t, &d), 0);
    before = c;
    d.msg[0] = '\0';
    assert_int_equal(tny_round_clock_start(&c, t + 1, &d), TNY_ESTATE);
    assert_non_null(strstr(d.msg, "already started"));
    assert_int_equal(tny_round_clock_resume(&c, t + 1, &d), TNY_ESTATE);
    assert_int_equal(tny_round_clock_extend(&c, -1, &d), TNY_EINVAL);
    assert_int_equal(tny_round_clock_extend(&c, TNY_CLOCK_MAX_MS + 1, &d),
                     TNY_ERANGE);
    assert_memory_equal(&c, &before, sizeof(c)); /* errors change nothing */
    assert_int_equal(tny_round_clock_pause(&c, t + 1, &d), 0);
    assert_int_equal(tny_round_clock_pause(&c, t + 2, &d), TNY_ESTATE);
    assert_int_equal(tny_round_clock_start(&c, t + 2, &d), TNY_ESTATE);
    /* the total extension is bounded too */
    assert_int_equal(tny_round_clock_extend(&c, TNY_CLOCK_MAX_MS, &d), 0);
    assert_int_equal(tny_round_clock_extend(&c, 1, &d), TNY_ERANGE);
    /* instants out of range */
    assert_int_equal(tny_round_clock_resume(&c, INT64_MAX, &d), TNY_ERANGE);
    /* NULL diag is fine */
    assert_int_equal(tny_round_clock_pause(&c, t, NULL), TNY_ESTATE);
}

static void test_CM_7_no_time_limit(void **state)
{
    (void)state;
    struct tny_round_clock c;
    assert_int_equal(tny_round_clock_init(&c, 0, NULL), 0); /* NH-13 final */
    assert_int_equal(tny_round_clock_start(&c, HUB_T0, NULL), 0);
    assert_true(tny_round_clock_remaining(&c, HUB_T0 + 600 * MIN) ==
                TNY_CLOCK_UNLIMITED);
    assert_false(tny_round_clock_expired(&c, HUB_T0 + 600 * MIN));
    assert_true(tny_round_clock_table_remaining(&c, 5 * MIN, HUB_T0) ==
                TNY_CLOCK_UNLIMITED);
    struct tny_clock_msg m;
    tny_round_clock_message(&c, 0, HUB_T0, &m);
    assert_true(m.unlimited);
}

static void test_CM_7_table_extension(void **state)
{
    (void)state;
    struct tny_round_clock c;
    struct tny_diag d = {{0}};
    int64_t ext = 0;

    assert_int_equal(tny_round_clock_init(&c, 45 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_start(&c, HUB_T0, &d), 0);
    /* a judge intervention of 4 minutes at one table (NH seed 5.9) */
    assert_int_equal(tny_table_extension_add(&ext, 4 * MIN, &d), 0);
    assert_int_equal(tny_table_extension_add(&ext, 30 * SEC, &d), 0);
    assert_int_equal(tny_table_extension_add(&ext, -SEC, &d), TNY_EINVAL);
    assert_int_equal(ext, 4 * MIN + 30 * SEC);
    assert_int_equal(tny_table_extension_add(&ext, TNY_CLOCK_MAX_MS, &d),
                     TNY_ERANGE);
    assert_int_equal(ext, 4 * MIN + 30 * SEC);
    assert_int_equal(
        tny_round_clock_table_remaining(&c, ext, HUB_T0 + 45 * MIN),
        4 * MIN + 30 * SEC);
    /* every other table: the round's time */
    assert_int_equal(tny_round_clock_table_remaining(&c, 0, HUB_T0 + 45 * MIN),
                     0);
    assert_true(tny_round_clock_expired(&c, HUB_T0 + 45 * MIN));
}

/* Property: any sequence of pauses, resumes and extensions keeps
 * remaining = length + extensions - time spent running. */
static void test_CM_7_property_pause_resume_never_loses_time(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(2000);

    tny_rng_seed(&rng, 7);
    for (int k = 0; k < cases; k++) {
        struct tny_round_clock c;
        int64_t length = 1 + (int64_t)tny_rng_below(&rng, 120 * MIN);
        int64_t now = HUB_T0 + (int64_t)tny_rng_below(&rng, 1000 * MIN);
        int64_t ran = 0, ext = 0;
        bool running = true;

        assert_int_equal(tny_round_clock_init(&c, length, NULL), 0);
        assert_int_equal(tny_round_clock_start(&c, now, NULL), 0);
        for (int step = 0; step < 30; step++) {
            int64_t dt = (int64_t)tny_rng_below(&rng, 20 * MIN);
            now += dt;
            if (running)
                ran += dt;
            switch (tny_rng_below(&rng, 4)) {
            case 0:
                assert_int_equal(tny_round_clock_pause(&c, now, NULL),
                                 running ? 0 : TNY_ESTATE);
                running = false;
                break;
            case 1:
                assert_int_equal(tny_round_clock_resume(&c, now, NULL),
                                 running ? TNY_ESTATE : 0);
                running = true;
                break;
            case 2: {
                int64_t e = (int64_t)tny_rng_below(&rng, 10 * MIN);
                assert_int_equal(tny_round_clock_extend(&c, e, NULL), 0);
                ext += e;
                break;
            }
            default: break;
            }
            int64_t expect = length + ext - ran;
            assert_int_equal(tny_round_clock_remaining(&c, now), expect);
            assert_int_equal(tny_round_clock_expired(&c, now), expect <= 0);
            assert_int_equal(c.extension_ms, ext);
        }
    }
}

/* architecture.md "Time": the table converts the hub deadline with an offset
 * measured once per message; a skewed table clock and network delay change
 * what it shows by at most the delay. */
static void test_CM_7_table_sync_skewed_clock(void **state)
{
    (void)state;
    struct tny_round_clock c;
    struct tny_table_clock tc;
    struct tny_clock_msg m;
    struct tny_diag d = {{0}};
    /* the table's monotonic clock: seconds since it booted */
    const int64_t boot_skew = HUB_T0 - 3 * MIN; /* hub - local */
    const int64_t latency = 120;

    memset(&tc, 0, sizeof(tc)); /* padding too: compared as memory below */
    assert_int_equal(tny_round_clock_init(&c, 45 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_start(&c, HUB_T0, &d), 0);
    tny_round_clock_message(&c, 2 * MIN, HUB_T0 + SEC, &m);
    assert_int_equal(m.state, TNY_ROUND_CLOCK_RUNNING);
    assert_int_equal(m.deadline_ms, HUB_T0 + 47 * MIN);
    int64_t recv = HUB_T0 + SEC + latency - boot_skew;
    assert_int_equal(tny_table_clock_apply(&tc, &m, recv, &d), 0);
    assert_int_equal(tc.offset_ms, boot_skew - latency);
    /* 10 hub minutes later: hub says 37 min (+2 table extension) */
    int64_t hub_now = HUB_T0 + 10 * MIN;
    int64_t local_now = hub_now - boot_skew;
    assert_int_equal(tny_round_clock_table_remaining(&c, 2 * MIN, hub_now),
                     37 * MIN);
    assert_int_equal(tny_table_clock_remaining(&tc, local_now),
                     37 * MIN + latency);
    /* the display keeps counting without messages, into overtime */
    assert_int_equal(tny_table_clock_remaining(&tc, local_now + 40 * MIN),
                     -3 * MIN + latency);

    /* a pause arrives: the table freezes whatever its local clock says */
    assert_int_equal(tny_round_clock_pause(&c, hub_now, &d), 0);
    tny_round_clock_message(&c, 2 * MIN, hub_now, &m);
    assert_int_equal(m.state, TNY_ROUND_CLOCK_PAUSED);
    assert_int_equal(tny_table_clock_apply(&tc, &m, local_now + latency, &d),
                     0);
    assert_int_equal(tny_table_clock_remaining(&tc, local_now + 99 * MIN),
                     37 * MIN);

    /* a bad message changes nothing */
    struct tny_table_clock before = tc;
    m.state = (enum tny_round_clock_state)9;
    assert_int_equal(tny_table_clock_apply(&tc, &m, local_now, &d), TNY_EINVAL);
    m.state = TNY_ROUND_CLOCK_RUNNING;
    m.hub_now_ms = INT64_MIN;
    assert_int_equal(tny_table_clock_apply(&tc, &m, local_now, &d), TNY_ERANGE);
    assert_memory_equal(&tc, &before, sizeof(tc));
}

/* Property: with any skew and a delay under one second, every table agrees
 * with the hub to within that delay (and never shows less time). */
static void test_CM_7_property_tables_agree_within_delay(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(3000);

    tny_rng_seed(&rng, 11);
    for (int k = 0; k < cases; k++) {
        struct tny_round_clock c;
        struct tny_table_clock tc;
        struct tny_clock_msg m;
        int64_t length = MIN + (int64_t)tny_rng_below(&rng, 120 * MIN);
        int64_t start = HUB_T0 + (int64_t)tny_rng_below(&rng, 1000 * MIN);
        /* local = hub - skew, skew anywhere within +-30 years */
        int64_t skew = (int64_t)tny_rng_below(&rng, (uint64_t)1 << 41) -
                       ((int64_t)1 << 40);
        int64_t ext = (int64_t)tny_rng_below(&rng, 10 * MIN);
        int64_t delay = (int64_t)tny_rng_below(&rng, SEC);
        int64_t sent = start + (int64_t)tny_rng_below(&rng, length);

        assert_int_equal(tny_round_clock_init(&c, length, NULL), 0);
        assert_int_equal(tny_round_clock_start(&c, start, NULL), 0);
        tny_round_clock_message(&c, ext, sent, &m);
        assert_int_equal(
            tny_table_clock_apply(&tc, &m, sent + delay - skew, NULL), 0);
        for (int j = 0; j < 5; j++) {
            int64_t hub_now =
                sent + delay + (int64_t)tny_rng_below(&rng, 200 * MIN);
            int64_t diff = tny_table_clock_remaining(&tc, hub_now - skew) -
                           tny_round_clock_table_remaining(&c, ext, hub_now);
            assert_true(diff >= 0 && diff == delay);
        }
    }
}

/* ---- Tantrix chess clock ------------------------------------------------ */

static void test_TX_3_chess_clock_counts_up(void **state)
{
    (void)state;
    struct tny_chess_clock cc;
    struct tny_diag d = {{0}};
    const int64_t t = 5000;

    tny_chess_clock_init(&cc);
    assert_int_equal(tny_chess_clock_used(&cc, 0, t), 0);
    /* TX-11: the player who does not start starts the starter's clock */
    assert_int_equal(tny_chess_clock_start(&cc, 1, t, &d), 0);
    assert_int_equal(tny_chess_clock_start(&cc, 0, t, &d), TNY_ESTATE);
    assert_int_equal(tny_chess_clock_used(&cc, 1, t + 40 * SEC), 40 * SEC);
    assert_int_equal(tny_chess_clock_press(&cc, 0, t + 40 * SEC, &d),
                     TNY_ESTATE); /* not player 0's clock */
    assert_int_equal(tny_chess_clock_press(&cc, 1, t + 40 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 1, t + 90 * SEC), 40 * SEC);
    assert_int_equal(tny_chess_clock_used(&cc, 0, t + 90 * SEC), 50 * SEC);
    assert_int_equal(tny_chess_clock_press(&cc, 0, t + 30 * SEC, &d),
                     TNY_ERANGE); /* time went backwards */
    assert_int_equal(tny_chess_clock_press(&cc, 0, t + 90 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_pause(&cc, t + 100 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_press(&cc, 1, t + 100 * SEC, &d),
                     TNY_ESTATE);
    assert_int_equal(tny_chess_clock_used(&cc, 1, t + 500 * SEC), 50 * SEC);
    assert_int_equal(tny_chess_clock_resume(&cc, t + 500 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_resume(&cc, t + 500 * SEC, &d),
                     TNY_ESTATE);
    assert_int_equal(tny_chess_clock_used(&cc, 1, t + 510 * SEC), 60 * SEC);
    /* the last tile is placed: the clock is stopped, not switched */
    assert_int_equal(tny_chess_clock_stop(&cc, t + 520 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 1, t + 900 * SEC), 70 * SEC);
    assert_int_equal(tny_chess_clock_used(&cc, 0, t + 900 * SEC), 50 * SEC);
    assert_int_equal(tny_chess_clock_stop(&cc, t + 900 * SEC, &d), TNY_ESTATE);
    assert_int_equal(tny_chess_clock_start(&cc, 0, t + 900 * SEC, &d),
                     TNY_ESTATE);
    assert_int_equal(tny_chess_clock_start(&cc, 2, t, &d), TNY_EINVAL);
    assert_int_equal(tny_chess_clock_press(&cc, -1, t, &d), TNY_EINVAL);
}

/* Property: both clocks together hold exactly the running time, each side
 * exactly the time between its own start and the next press/pause. */
static void test_TX_3_property_chess_clock_sums(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(2000);

    tny_rng_seed(&rng, 3);
    for (int k = 0; k < cases; k++) {
        struct tny_chess_clock cc;
        int64_t now = (int64_t)tny_rng_below(&rng, 1000 * MIN);
        int64_t model[2] = {0, 0}, ran = 0;
        int32_t side = (int32_t)tny_rng_below(&rng, 2);
        bool paused = false;

        tny_chess_clock_init(&cc);
        assert_int_equal(tny_chess_clock_start(&cc, side, now, NULL), 0);
        for (int step = 0; step < 40; step++) {
            int64_t dt = (int64_t)tny_rng_below(&rng, 3 * MIN);
            now += dt;
            if (!paused) {
                model[side] += dt;
                ran += dt;
            }
            switch (tny_rng_below(&rng, 4)) {
            case 0:
            case 1:
                assert_int_equal(tny_chess_clock_press(&cc, side, now, NULL),
                                 paused ? TNY_ESTATE : 0);
                if (!paused)
                    side = 1 - side;
                break;
            case 2:
                assert_int_equal(tny_chess_clock_pause(&cc, now, NULL),
                                 paused ? TNY_ESTATE : 0);
                paused = true;
                break;
            default:
                assert_int_equal(tny_chess_clock_resume(&cc, now, NULL),
                                 paused ? 0 : TNY_ESTATE);
                paused = false;
                break;
            }
            int64_t u0 = tny_chess_clock_used(&cc, 0, now);
            int64_t u1 = tny_chess_clock_used(&cc, 1, now);
            assert_int_equal(u0, model[0]);
            assert_int_equal(u1, model[1]);
            assert_int_equal(u0 + u1, ran);
        }
    }
}

/* TX-3 with the preset's data: 20:00-20:59 -> 1 TP, 21:00-21:59 -> 2 TP
 * (seed 001 rule 4: "1:00-1:59 over: 2 penalty points"). */
static void test_TX_3_penalty_tp(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_diag d = {{0}};
    int64_t p = -1;
    const int64_t tp = TNY_POINT_SCALE; /* one tournament point */

    assert_int_equal(tny_format_preset("tantrix", &fmt, &d), 0);
    assert_int_equal(fmt.clock_limit_ms, 20 * MIN);
    assert_int_equal(fmt.clock_step_ms, MIN);
    assert_int_equal(fmt.clock_penalty, tp);
    const struct {
        int64_t used;
        int64_t penalty;
    } cases[] = {
        {0, 0},
        {19 * MIN + 59 * SEC + 999, 0},
        {20 * MIN, 1 * tp},
        {20 * MIN + 59 * SEC + 999, 1 * tp},
        {21 * MIN, 2 * tp},
        {21 * MIN + 59 * SEC, 2 * tp},
        {22 * MIN, 3 * tp},
        {25 * MIN + 30 * SEC, 6 * tp},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(tny_tx_clock_penalty(cases[i].used, fmt.clock_limit_ms,
                                              fmt.clock_step_ms,
                                              fmt.clock_penalty, &p, &d),
                         0);
        assert_int_equal(p, cases[i].penalty);
    }
    /* no limit: no penalty */
    assert_int_equal(tny_tx_clock_penalty(90 * MIN, 0, 0, tp, &p, &d), 0);
    assert_int_equal(p, 0);
    assert_int_equal(tny_tx_clock_penalty(-1, 20 * MIN, MIN, tp, &p, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_tx_clock_penalty(MIN, 20 * MIN, 0, tp, &p, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_tx_clock_penalty(MIN, -1, MIN, tp, &p, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_tx_clock_penalty(INT64_MAX, 1, 1, 2, &p, &d),
                     TNY_ERANGE);
}

/* Property: the penalty agrees with the scoring of a result (score.c), a
 * drawn game (10.0 each) shifted by the difference of the penalties, sums
 * to 20.0 and never goes below 0. */
static void test_TX_3_property_penalty_matches_scoring(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_rng rng;
    int cases = tu_property_cases(3000);

    assert_int_equal(tny_format_preset("tantrix", &fmt, NULL), 0);
    tny_rng_seed(&rng, 5);
    for (int k = 0; k < cases; k++) {
        struct tny_result res;
        int64_t p[2], tp[2];
        memset(&res, 0, sizeof(res));
        res.winner = -1;
        res.default_winner = -1;
        res.has_score = true;
        res.score[0] = res.score[1] = (int32_t)tny_rng_below(&rng, 60);
        res.has_clock = true;
        for (int s = 0; s < 2; s++) {
            res.clock_ms[s] = (int32_t)tny_rng_below(&rng, 40 * MIN);
            assert_int_equal(
                tny_tx_clock_penalty(res.clock_ms[s], fmt.clock_limit_ms,
                                     fmt.clock_step_ms, fmt.clock_penalty,
                                     &p[s], NULL),
                0);
        }
        tny_tantrix_tp(&fmt, &res, tp);
        int64_t expect0 = fmt.tp_per_game / 2 - p[0] + p[1];
        if (expect0 < 0)
            expect0 = 0;
        if (expect0 > fmt.tp_per_game)
            expect0 = fmt.tp_per_game;
        assert_int_equal(tp[0], expect0);
        assert_int_equal(tp[0] + tp[1], fmt.tp_per_game);
    }
}

static void test_TX_4_alert_past_25_minutes(void **state)
{
    (void)state;
    struct tny_chess_clock cc;
    const int64_t limit = 25 * MIN;

    tny_chess_clock_init(&cc);
    assert_int_equal(tny_chess_clock_start(&cc, 0, 0, NULL), 0);
    assert_int_equal(tny_chess_clock_press(&cc, 0, 25 * MIN, NULL), 0);
    /* exactly 25:00 has not passed 25 minutes */
    assert_false(tny_chess_clock_over(&cc, 0, limit, 25 * MIN));
    assert_int_equal(tny_tx_stop_favours(&cc, limit, 25 * MIN), -1);
    assert_int_equal(tny_chess_clock_press(&cc, 1, 25 * MIN + 10 * SEC, NULL),
                     0);
    assert_true(tny_chess_clock_over(&cc, 0, limit, 25 * MIN + 10 * SEC + 1));
    assert_false(tny_chess_clock_over(&cc, 1, limit, 25 * MIN + 10 * SEC + 1));
    /* the organiser may decide for player 1, who is under 25 minutes */
    assert_int_equal(tny_tx_stop_favours(&cc, limit, 25 * MIN + 10 * SEC + 1),
                     1);
    /* both past 25 minutes: nobody is favoured */
    assert_int_equal(tny_chess_clock_press(&cc, 0, 26 * MIN, NULL), 0);
    assert_int_equal(tny_tx_stop_favours(&cc, limit, 60 * MIN), -1);
}

static void test_TX_5_absence(void **state)
{
    (void)state;
    enum tny_tx_absence ph;
    int64_t next = -1;
    struct tny_diag d = {{0}};
    const int64_t sched = HUB_T0;
    const struct {
        int64_t late;
        enum tny_tx_absence phase;
        int64_t next;
    } cases[] = {
        {-MIN, TNY_TX_ABSENCE_WAIT, 6 * MIN},
        {0, TNY_TX_ABSENCE_WAIT, 5 * MIN},
        {5 * MIN - 1, TNY_TX_ABSENCE_WAIT, 1},
        {5 * MIN, TNY_TX_ABSENCE_START_CLOCK, 5 * MIN},
        {10 * MIN - 1, TNY_TX_ABSENCE_START_CLOCK, 1},
        {10 * MIN, TNY_TX_ABSENCE_DEFAULT, 0},
        {60 * MIN, TNY_TX_ABSENCE_DEFAULT, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(tny_tx_absence_phase(sched, sched + cases[i].late,
                                              5 * MIN, 10 * MIN, &ph, &next,
                                              &d),
                         0);
        assert_int_equal(ph, cases[i].phase);
        assert_int_equal(next, cases[i].next);
    }
    assert_int_equal(
        tny_tx_absence_phase(sched, sched, 10 * MIN, 5 * MIN, &ph, &next, &d),
        TNY_EINVAL);
    assert_int_equal(
        tny_tx_absence_phase(sched, sched, -1, 5 * MIN, &ph, &next, &d),
        TNY_EINVAL);

    /* the absent player's clock runs from 5 minutes after the start: at the
     * default point it shows 5 minutes used */
    struct tny_chess_clock cc;
    tny_chess_clock_init(&cc);
    assert_int_equal(tny_chess_clock_start(&cc, 1, sched + 5 * MIN, &d), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 1, sched + 10 * MIN), 5 * MIN);
    assert_int_equal(tny_chess_clock_used(&cc, 0, sched + 10 * MIN), 0);
}

static void test_TX_9_wrongful_pause(void **state)
{
    (void)state;
    struct tny_chess_clock cc;
    struct tny_diag d = {{0}};
    const int64_t pen = 30 * SEC;

    tny_chess_clock_init(&cc);
    assert_int_equal(tny_chess_clock_start(&cc, 0, 0, &d), 0);
    assert_int_equal(tny_chess_clock_press(&cc, 0, 5 * MIN, &d), 0);
    assert_int_equal(tny_chess_clock_wrongful_pause(&cc, 0, pen, &d),
                     TNY_ESTATE); /* only while paused */
    assert_int_equal(tny_chess_clock_pause(&cc, 7 * MIN, &d), 0);
    /* player 0 paused wrongfully: +30 s for 0, -30 s for 1 */
    assert_int_equal(tny_chess_clock_wrongful_pause(&cc, 0, pen, &d), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 0, 8 * MIN), 5 * MIN + pen);
    assert_int_equal(tny_chess_clock_used(&cc, 1, 8 * MIN), 2 * MIN - pen);
    assert_int_equal(cc.adjust_ms[0], pen);
    assert_int_equal(cc.adjust_ms[1], -pen);
    /* the pause resumes the side that was running */
    assert_int_equal(tny_chess_clock_resume(&cc, 8 * MIN, &d), 0);
    assert_int_equal(cc.running, 1);
    assert_int_equal(tny_chess_clock_used(&cc, 1, 9 * MIN), 2 * MIN + pen);

    /* never below 0: a clock with 10 s used is credited only 10 s */
    tny_chess_clock_init(&cc);
    assert_int_equal(tny_chess_clock_start(&cc, 0, 0, &d), 0);
    assert_int_equal(tny_chess_clock_press(&cc, 0, 10 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_press(&cc, 1, 20 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_pause(&cc, 30 * SEC, &d), 0);
    assert_int_equal(tny_chess_clock_wrongful_pause(&cc, 0, pen, &d), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 1, MIN), 0);
    assert_int_equal(tny_chess_clock_used(&cc, 0, MIN), 20 * SEC + pen);
    assert_int_equal(cc.adjust_ms[1], -10 * SEC);
    assert_int_equal(tny_chess_clock_wrongful_pause(&cc, 2, pen, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_chess_clock_wrongful_pause(&cc, 1, -1, &d),
                     TNY_EINVAL);
}

/* ---- AG-14 Agricola table timer ----------------------------------------- */

static void ag_params(struct tny_ag_timer *p)
{
    struct tny_format fmt;
    assert_int_equal(tny_format_preset("agricola", &fmt, NULL), 0);
    assert_int_equal(fmt.stages[0].timer_minutes, 105);
    assert_int_equal(fmt.draft_minutes, 15);
    assert_int_equal(fmt.action_seconds, 30);
    p->game_ms = fmt.stages[0].timer_minutes * MIN;
    p->draft_ms = fmt.draft_minutes * MIN;
    p->action_ms = fmt.action_seconds * SEC;
}

static void test_AG_14_phases(void **state)
{
    (void)state;
    struct tny_ag_timer p;
    struct tny_ag_timer_view v;
    struct tny_diag d = {{0}};
    const int64_t s = HUB_T0;

    ag_params(&p);
    assert_int_equal(tny_ag_timer_view(&p, s, -1, -1, 0, s, &v, &d), 0);
    assert_int_equal(v.phase, TNY_AG_PHASE_DRAFT);
    assert_int_equal(v.game_remaining_ms, 105 * MIN);
    assert_int_equal(v.draft_remaining_ms, 15 * MIN);
    assert_int_equal(tny_ag_timer_view(&p, s, -1, -1, 0, s + 14 * MIN, &v, &d),
                     0);
    assert_int_equal(v.phase, TNY_AG_PHASE_DRAFT);
    assert_int_equal(v.draft_remaining_ms, 1 * MIN);
    /* the draft overran by a minute, then play: its countdown stays at -1 */
    assert_int_equal(
        tny_ag_timer_view(&p, s, s + 16 * MIN, -1, 0, s + 50 * MIN, &v, &d), 0);
    assert_int_equal(v.phase, TNY_AG_PHASE_PLAY);
    assert_int_equal(v.draft_remaining_ms, -1 * MIN);
    assert_int_equal(v.game_remaining_ms, 55 * MIN);
    assert_int_equal(tny_ag_timer_view(&p, s, s + 16 * MIN, -1, 0,
                                       s + 105 * MIN - 1, &v, &d),
                     0);
    assert_int_equal(v.phase, TNY_AG_PHASE_PLAY);
    /* 105 minutes: speed play, 30 s per action */
    assert_int_equal(
        tny_ag_timer_view(&p, s, s + 16 * MIN, -1, 0, s + 105 * MIN, &v, &d),
        0);
    assert_int_equal(v.phase, TNY_AG_PHASE_SPEED);
    assert_int_equal(v.action_remaining_ms, 30 * SEC);
    assert_int_equal(v.turns_passed, 0);
    assert_int_equal(tny_ag_timer_view(&p, s, s + 16 * MIN, -1, 0,
                                       s + 105 * MIN + 29 * SEC, &v, &d),
                     0);
    assert_int_equal(v.action_remaining_ms, 1 * SEC);
    /* no worker placed in 30 s: the turn passes, the next player has 30 s */
    assert_int_equal(tny_ag_timer_view(&p, s, s + 16 * MIN, -1, 0,
                                       s + 105 * MIN + 30 * SEC, &v, &d),
                     0);
    assert_int_equal(v.turns_passed, 1);
    assert_int_equal(v.action_remaining_ms, 30 * SEC);
    /* the timer counts from the end of the previous action */
    assert_int_equal(tny_ag_timer_view(&p, s, s + 16 * MIN,
                                       s + 105 * MIN + 40 * SEC, 0,
                                       s + 105 * MIN + 50 * SEC, &v, &d),
                     0);
    assert_int_equal(v.turns_passed, 0);
    assert_int_equal(v.action_remaining_ms, 20 * SEC);
    /* an action finished before time-up does not shorten the first one */
    assert_int_equal(tny_ag_timer_view(&p, s, s + 16 * MIN, s + 104 * MIN, 0,
                                       s + 105 * MIN + 10 * SEC, &v, &d),
                     0);
    assert_int_equal(v.action_remaining_ms, 20 * SEC);
    /* still drafting when the time is up: speed play anyway */
    assert_int_equal(tny_ag_timer_view(&p, s, -1, -1, 0, s + 106 * MIN, &v, &d),
                     0);
    assert_int_equal(v.phase, TNY_AG_PHASE_SPEED);
}

static void test_AG_14_extension_and_errors(void **state)
{
    (void)state;
    struct tny_ag_timer p, bad;
    struct tny_ag_timer_view v;
    struct tny_diag d = {{0}};
    const int64_t s = HUB_T0;

    ag_params(&p);
    /* CM-7 extension of 5 minutes moves speed play to 110 minutes */
    assert_int_equal(tny_ag_timer_view(&p, s, s + 10 * MIN, -1, 5 * MIN,
                                       s + 106 * MIN, &v, &d),
                     0);
    assert_int_equal(v.phase, TNY_AG_PHASE_PLAY);
    assert_int_equal(v.game_remaining_ms, 4 * MIN);
    assert_int_equal(tny_ag_timer_view(&p, s, s + 10 * MIN, -1, 5 * MIN,
                                       s + 110 * MIN + 5 * SEC, &v, &d),
                     0);
    assert_int_equal(v.phase, TNY_AG_PHASE_SPEED);
    assert_int_equal(v.action_remaining_ms, 25 * SEC);

    assert_int_equal(tny_ag_timer_view(&p, s, -1, -1, 0, s - 1, &v, &d),
                     TNY_EINVAL);
    assert_int_equal(
        tny_ag_timer_view(&p, s, s + 5 * MIN, -1, 0, s + MIN, &v, &d),
        TNY_EINVAL); /* draft ends in the future */
    assert_int_equal(tny_ag_timer_view(&p, s, -1, s - 1, 0, s + MIN, &v, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_ag_timer_view(&p, s, -1, -1, -1, s, &v, &d),
                     TNY_EINVAL);
    bad = p;
    bad.action_ms = 0;
    assert_int_equal(tny_ag_timer_view(&bad, s, -1, -1, 0, s, &v, &d),
                     TNY_EINVAL);
    bad = p;
    bad.draft_ms = bad.game_ms + 1;
    assert_int_equal(tny_ag_timer_view(&bad, s, -1, -1, 0, s, &v, &d),
                     TNY_EINVAL);
    bad = p;
    bad.game_ms = TNY_CLOCK_MAX_MS + 1;
    bad.draft_ms = 0;
    assert_int_equal(tny_ag_timer_view(&bad, s, -1, -1, 0, s, &v, &d),
                     TNY_ERANGE);
}

/* Property: in speed play, turns_passed * action + (action - remaining) is
 * exactly the time since the action timer's base. */
static void test_AG_14_property_action_timer(void **state)
{
    (void)state;
    struct tny_ag_timer p;
    struct tny_rng rng;
    int cases = tu_property_cases(3000);

    ag_params(&p);
    tny_rng_seed(&rng, 14);
    for (int k = 0; k < cases; k++) {
        struct tny_ag_timer_view v;
        int64_t s = HUB_T0 + (int64_t)tny_rng_below(&rng, 1000 * MIN);
        int64_t ext = (int64_t)tny_rng_below(&rng, 10 * MIN);
        int64_t up = s + p.game_ms + ext;
        int64_t now = s + (int64_t)tny_rng_below(&rng, 150 * MIN);
        int64_t last = -1;
        if (now > s && tny_rng_below(&rng, 2))
            last = s + (int64_t)tny_rng_below(&rng, (uint64_t)(now - s));
        assert_int_equal(tny_ag_timer_view(&p, s, s, last, ext, now, &v, NULL),
                         0);
        assert_int_equal(v.game_remaining_ms, up - now);
        if (now < up) {
            assert_int_equal(v.phase, TNY_AG_PHASE_PLAY);
            continue;
        }
        int64_t base = last > up ? last : up;
        assert_int_equal(v.phase, TNY_AG_PHASE_SPEED);
        assert_true(v.action_remaining_ms > 0 &&
                    v.action_remaining_ms <= p.action_ms);
        assert_int_equal(v.turns_passed * p.action_ms +
                             (p.action_ms - v.action_remaining_ms),
                         now - base);
    }
}

/* Issue 8: a table that receives a retained clock message long after the
 * hub made it shows the hub's time once a time sync gave the offset. */
/* AG-14 (seed 002 S6): each table's 105 minutes start with its own draft.
 * Table 1 starts its draft with the round, table 2 ten minutes later; a
 * round pause and a round extension apply to both; table 3 waits. */
static void test_AG_14_per_table_start(void **state)
{
    (void)state;
    struct tny_round_clock c;
    struct tny_clock_msg m1, m2, m3;
    struct tny_diag d = {{0}};
    const int64_t t = HUB_T0, len = 105 * MIN;

    assert_int_equal(tny_round_clock_init(&c, len, &d), 0);
    assert_int_equal(tny_round_clock_elapsed(&c, t), 0); /* not started */
    assert_int_equal(tny_round_clock_start(&c, t, &d), 0);
    int64_t delay1 = tny_round_clock_elapsed(&c, t);
    int64_t delay2 = tny_round_clock_elapsed(&c, t + 10 * MIN);
    assert_int_equal(delay1, 0);
    assert_int_equal(delay2, 10 * MIN);

    /* 30 minutes after the round's start: 75 left at table 1, 85 at 2. */
    tny_round_clock_message(&c, 0, t + 30 * MIN, &m1);
    m2 = m3 = m1;
    tny_clock_msg_table_start(&m1, len, delay1);
    tny_clock_msg_table_start(&m2, len, delay2);
    tny_clock_msg_table_start(&m3, len, -1);
    assert_int_equal(m1.state, TNY_ROUND_CLOCK_RUNNING);
    assert_int_equal(m1.deadline_ms - (t + 30 * MIN), 75 * MIN);
    assert_int_equal(m2.deadline_ms - (t + 30 * MIN), 85 * MIN);
    /* table 3 has not drafted: its whole time waits */
    assert_int_equal(m3.state, TNY_ROUND_CLOCK_READY);
    assert_int_equal(m3.remaining_ms, len);

    /* A 5-minute pause and a 2-minute round extension: both tables keep
     * their own 105 minutes plus the 2. */
    assert_int_equal(tny_round_clock_pause(&c, t + 30 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_extend(&c, 2 * MIN, &d), 0);
    assert_int_equal(tny_round_clock_resume(&c, t + 35 * MIN, &d), 0);
    /* table 3 starts its draft at t + 40: the round ran 40 minutes less
     * the 5-minute pause */
    int64_t delay3 = tny_round_clock_elapsed(&c, t + 40 * MIN);
    assert_int_equal(delay3, 35 * MIN);
    tny_round_clock_message(&c, 0, t + 40 * MIN, &m1);
    m2 = m3 = m1;
    tny_clock_msg_table_start(&m1, len + 2 * MIN, delay1);
    tny_clock_msg_table_start(&m2, len + 2 * MIN, delay2);
    tny_clock_msg_table_start(&m3, len + 2 * MIN, delay3);
    /* used so far: table 1 35 min (40 less the pause), table 2 25 min,
     * table 3 none */
    assert_int_equal(m1.deadline_ms - (t + 40 * MIN), 107 * MIN - 35 * MIN);
    assert_int_equal(m2.deadline_ms - (t + 40 * MIN), 107 * MIN - 25 * MIN);
    assert_int_equal(m3.deadline_ms - (t + 40 * MIN), 107 * MIN);
    /* each table's time is up exactly 105 + 2 minutes of running time
     * after its own draft: table 2 ten minutes after table 1 */
    assert_int_equal(m2.deadline_ms - m1.deadline_ms, 10 * MIN);

    /* paused readings shift the remaining time the same way */
    assert_int_equal(tny_round_clock_pause(&c, t + 50 * MIN, &d), 0);
    tny_round_clock_message(&c, 0, t + 50 * MIN, &m2);
    tny_clock_msg_table_start(&m2, len + 2 * MIN, delay2);
    assert_int_equal(m2.state, TNY_ROUND_CLOCK_PAUSED);
    assert_int_equal(m2.remaining_ms, 107 * MIN - 35 * MIN);

    /* no time limit: nothing to shift, nothing waits */
    assert_int_equal(tny_round_clock_init(&c, 0, &d), 0);
    assert_int_equal(tny_round_clock_start(&c, t, &d), 0);
    assert_int_equal(tny_round_clock_elapsed(&c, t + MIN), 0);
    tny_round_clock_message(&c, 0, t + MIN, &m3);
    tny_clock_msg_table_start(&m3, 0, -1);
    assert_true(m3.unlimited);
    assert_int_equal(m3.state, TNY_ROUND_CLOCK_RUNNING);
}

static void test_sync_offset_beats_a_retained_message(void **state)
{
    struct tny_round_clock rc;
    struct tny_clock_msg msg;
    struct tny_table_clock tc;
    struct tny_diag d = {{0}};
    int64_t hub_start = 1700000000000, off, rtt;
    (void)state;
    assert_int_equal(tny_round_clock_init(&rc, 45 * 60000, &d), 0);
    assert_int_equal(tny_round_clock_start(&rc, hub_start, &d), 0);
    tny_round_clock_message(&rc, 0, hub_start, &msg);
    /* The table (monotonic clock near 5000) gets the retained message 2
     * minutes later: measured on the message, it shows 45:00. */
    int64_t local = 5000, hub_now = hub_start + 120000;
    assert_int_equal(tny_table_clock_apply(&tc, &msg, local, &d), 0);
    assert_int_equal(tny_table_clock_remaining(&tc, local), 45 * 60000);
    /* Sync: asked at local 4990, answered at hub_now - 5 (mid round trip),
     * received at local 5000. */
    assert_int_equal(
        tny_clock_sync_offset(local - 10, hub_now - 5, local, &off, &rtt, &d),
        0);
    assert_int_equal(rtt, 10);
    assert_int_equal(off, hub_now - local);
    assert_int_equal(tny_table_clock_use_offset(&tc, off, &d), 0);
    assert_true(tc.synced);
    assert_int_equal(tny_table_clock_remaining(&tc, local), 43 * 60000);
    assert_int_equal(tny_table_clock_remaining(&tc, local + 1000),
                     43 * 60000 - 1000);
    /* A paused clock keeps its frozen time whatever the offset. */
    assert_int_equal(tny_round_clock_pause(&rc, hub_now, &d), 0);
    tny_round_clock_message(&rc, 0, hub_now, &msg);
    assert_int_equal(tny_table_clock_apply(&tc, &msg, local, &d), 0);
    assert_int_equal(tny_table_clock_use_offset(&tc, off + 99999, &d), 0);
    assert_int_equal(tny_table_clock_remaining(&tc, local + 5000), 43 * 60000);
}

static void test_sync_offset_refuses_bad_round_trips(void **state)
{
    struct tny_diag d = {{0}};
    int64_t off = 7, rtt = 7;
    (void)state;
    assert_int_equal(tny_clock_sync_offset(100, 5000, 99, &off, &rtt, &d),
                     TNY_ERANGE);
    assert_int_equal(tny_clock_sync_offset(100, 5000,
                                           100 + TNY_CLOCK_SYNC_MAX_RTT_MS + 1,
                                           &off, &rtt, &d),
                     TNY_ERANGE);
    assert_non_null(strstr(d.msg, "round trip"));
    assert_int_equal(off, 7);
    assert_int_equal(rtt, 7);
    /* The hub's clock is taken at half the round trip. */
    assert_int_equal(tny_clock_sync_offset(100, 5000, 300, &off, &rtt, &d), 0);
    assert_int_equal(off, 5000 + 100 - 300);
}

/* The one clock format (table, dashboard; overlay.js formatClock). */
static void test_clock_format(void **state)
{
    static const struct {
        int64_t ms;
        const char *want;
    } cases[] = {
        {0, "0:00"},
        {1, "0:01"},
        {999, "0:01"},
        {1000, "0:01"},
        {1001, "0:02"},
        {59000, "0:59"},
        {60000, "1:00"},
        {45 * 60000, "45:00"},
        {3599000, "59:59"},
        {3600000, "1:00:00"},
        {3661001, "1:01:02"},
        {-1, "0:00"},
        {-999, "0:00"},
        /* Issue 22 item 8: overtime reads "+M:SS" on every screen. */
        {-1000, "+0:01"},
        {-61500, "+1:01"},
        {-3600000, "+1:00:00"},
        {TNY_CLOCK_UNLIMITED, "--:--"},
    };
    char buf[16];
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tny_clock_format(cases[i].ms, buf, sizeof(buf));
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("format(%lld) = %s, want %s", (long long)cases[i].ms, buf,
                     cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CM_7_start_pause_resume_extend),
        cmocka_unit_test(test_CM_7_invalid_transitions),
        cmocka_unit_test(test_CM_7_no_time_limit),
        cmocka_unit_test(test_CM_7_table_extension),
        cmocka_unit_test(test_CM_7_property_pause_resume_never_loses_time),
        cmocka_unit_test(test_CM_7_table_sync_skewed_clock),
        cmocka_unit_test(test_CM_7_property_tables_agree_within_delay),
        cmocka_unit_test(test_TX_3_chess_clock_counts_up),
        cmocka_unit_test(test_TX_3_property_chess_clock_sums),
        cmocka_unit_test(test_TX_3_penalty_tp),
        cmocka_unit_test(test_TX_3_property_penalty_matches_scoring),
        cmocka_unit_test(test_TX_4_alert_past_25_minutes),
        cmocka_unit_test(test_TX_5_absence),
        cmocka_unit_test(test_TX_9_wrongful_pause),
        cmocka_unit_test(test_AG_14_phases),
        cmocka_unit_test(test_AG_14_extension_and_errors),
        cmocka_unit_test(test_AG_14_property_action_timer),
        cmocka_unit_test(test_AG_14_per_table_start),
        cmocka_unit_test(test_sync_offset_beats_a_retained_message),
        cmocka_unit_test(test_sync_offset_refuses_bad_round_trips),
        cmocka_unit_test(test_clock_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
