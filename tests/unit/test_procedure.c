/* test_procedure.c - table decisions: NH-12, NH-13, NH-14, TX-10, TX-11,
 * GT-12, GT-13, CT-8, CT-9.  Worked examples from the seeds (000, 001, 003,
 * 004) and the shipped presets; property tests check lot fairness,
 * symmetry under swapping the players and that refused calls draw nothing. */
#include "testutil.h"

#include <string.h>

#include "tny/json_io.h"
#include "tny/procedure.h"
#include "tny/rng.h"

static void load(const char *name, struct tny_format *fmt)
{
    struct tny_diag d = {{0}};
    int rc = tny_format_preset(name, fmt, &d);
    if (rc != 0)
        fail_msg("preset %s: %s", name, d.msg);
}

static const struct tny_stage *stage_of(const struct tny_format *fmt,
                                        enum tny_stage_kind kind)
{
    for (int32_t i = 0; i < fmt->n_stages; i++)
        if (fmt->stages[i].kind == kind)
            return &fmt->stages[i];
    fail_msg("no stage of kind %d", (int)kind);
    return NULL;
}

/* ---- NH-12 army choice -------------------------------------------------- */

static void test_NH_12_different_first_choices(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_rng rng, before;
    const char *a = NULL, *b = NULL;
    int32_t loser = 7;

    load("neuroshima-hex", &fmt);
    tny_rng_seed(&rng, 1);
    before = rng;
    assert_int_equal(tny_nh_army_choice(&fmt, "Moloch", "Borgo", "Hegemony",
                                        "Outpost", &rng, &a, &b, &loser, NULL),
                     0);
    assert_string_equal(a, "Moloch");
    assert_string_equal(b, "Hegemony");
    assert_int_equal(loser, -1);
    assert_memory_equal(&rng, &before, sizeof(rng)); /* no lot drawn */
    /* a first choice equal to the other's second is not a clash */
    assert_int_equal(tny_nh_army_choice(&fmt, "Moloch", "Borgo", "Borgo",
                                        "Moloch", &rng, &a, &b, &loser, NULL),
                     0);
    assert_string_equal(a, "Moloch");
    assert_string_equal(b, "Borgo");
}

/* Same first choice: a lot decides who plays the second choice; over many
 * seeds both players lose the lot about half the time. */
static void test_NH_12_same_first_choice_lot(void **state)
{
    (void)state;
    struct tny_format fmt;
    int cases = tu_property_cases(4000);
    int lost[2] = {0, 0};

    load("neuroshima-hex", &fmt);
    for (int k = 0; k < cases; k++) {
        struct tny_rng rng;
        const char *a = NULL, *b = NULL;
        int32_t loser = -1;
        tny_rng_derive(&rng, (uint64_t)k, TNY_LOT_ARMY, 1);
        assert_int_equal(tny_nh_army_choice(&fmt, "Vegas", "Smart", "Vegas",
                                            "Uranopolis", &rng, &a, &b, &loser,
                                            NULL),
                         0);
        assert_true(loser == 0 || loser == 1);
        lost[loser]++;
        if (loser == 0) {
            assert_string_equal(a, "Smart");
            assert_string_equal(b, "Vegas");
        } else {
            assert_string_equal(a, "Vegas");
            assert_string_equal(b, "Uranopolis");
        }
        assert_string_not_equal(a, b);
        /* reproducible: the same stream gives the same lot */
        struct tny_rng again;
        int32_t loser2 = -1;
        tny_rng_derive(&again, (uint64_t)k, TNY_LOT_ARMY, 1);
        assert_int_equal(tny_nh_army_choice(&fmt, "Vegas", "Smart", "Vegas",
                                            "Uranopolis", &again, &a, &b,
                                            &loser2, NULL),
                         0);
        assert_int_equal(loser2, loser);
    }
    assert_true(lost[0] > cases * 45 / 100 && lost[1] > cases * 45 / 100);
}

static void test_NH_12_missing_second_and_errors(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_rng rng, before;
    struct tny_diag d = {{0}};
    const char *a = "x", *b = "y";
    int32_t loser = 9;

    load("neuroshima-hex", &fmt);
    tny_rng_seed(&rng, 2);
    before = rng;
    /* [decision] only player b has a second choice: b plays it, no lot */
    assert_int_equal(tny_nh_army_choice(&fmt, "Borgo", NULL, "Borgo", "Moloch",
                                        &rng, &a, &b, &loser, &d),
                     0);
    assert_string_equal(a, "Borgo");
    assert_string_equal(b, "Moloch");
    assert_int_equal(loser, 1);
    assert_memory_equal(&rng, &before, sizeof(rng));

    a = b = NULL;
    loser = 9;
    assert_int_equal(tny_nh_army_choice(&fmt, "Borgo", NULL, "Borgo", "", &rng,
                                        &a, &b, &loser, &d),
                     TNY_EINVAL);
    assert_non_null(strstr(d.msg, "Borgo"));
    assert_null(a); /* nothing written on error */
    assert_int_equal(loser, 9);
    assert_int_equal(tny_nh_army_choice(&fmt, "Borgo", "Borgo", "Moloch", NULL,
                                        &rng, &a, &b, &loser, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_nh_army_choice(&fmt, NULL, "Borgo", "Moloch", NULL,
                                        &rng, &a, &b, &loser, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_nh_army_choice(&fmt, "Borgo", "Tortuga", "Moloch",
                                        NULL, &rng, &a, &b, &loser, &d),
                     TNY_ENOTFOUND);
    assert_non_null(strstr(d.msg, "Tortuga"));
    assert_memory_equal(&rng, &before, sizeof(rng));
    /* without a format any name is accepted */
    assert_int_equal(tny_nh_army_choice(NULL, "Tortuga", NULL, "Moloch", NULL,
                                        &rng, &a, &b, &loser, &d),
                     0);
    assert_string_equal(a, "Tortuga");
}

/* Beginner exception (seed 000 5.5(2)): only a beginner, only the last Swiss
 * round (knockout: configurable), only when otherwise both would field the
 * same army. */
static void test_NH_12_beginner_may_repeat(void **state)
{
    (void)state;
    const char *one[] = {"Outpost"};
    const char *two[] = {"Outpost", "Moloch"};

    assert_true(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS_LAST, false,
                                           1, one, "Outpost"));
    /* not a beginner */
    assert_false(tny_nh_beginner_may_repeat(false, TNY_NH_ROUND_SWISS_LAST,
                                            true, 1, one, "Outpost"));
    /* not the last Swiss round */
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS, true, 1,
                                            one, "Outpost"));
    /* knockout only when allowed */
    assert_true(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_KNOCKOUT, true, 1,
                                           one, "Outpost"));
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_KNOCKOUT, false,
                                            1, one, "Outpost"));
    /* no clash: the opponent fields another army */
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS_LAST, true,
                                            1, one, "Moloch"));
    /* another army is still available, so no need to repeat */
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS_LAST, true,
                                            2, two, "Outpost"));
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS_LAST, true,
                                            0, one, "Outpost"));
    assert_false(tny_nh_beginner_may_repeat(true, TNY_NH_ROUND_SWISS_LAST, true,
                                            1, one, NULL));
}

/* ---- NH-13 timers and termination --------------------------------------- */

static void test_NH_13_timers_and_termination(void **state)
{
    (void)state;
    struct tny_format fmt;
    int32_t m = -1, n = 0;
    struct tny_diag d = {{0}};

    load("neuroshima-hex", &fmt);
    const struct tny_stage *swiss = stage_of(&fmt, TNY_STAGE_SWISS);
    const struct tny_stage *ko = stage_of(&fmt, TNY_STAGE_ELIMINATION);
    assert_int_equal(tny_stage_round_minutes(swiss, false, &m, &d), 0);
    assert_int_equal(m, 45);
    /* the last Swiss round is still a Swiss round */
    assert_int_equal(tny_stage_round_minutes(swiss, true, &m, &d), 0);
    assert_int_equal(m, 45);
    assert_int_equal(tny_stage_round_minutes(ko, false, &m, &d), 0);
    assert_int_equal(m, 55);
    assert_int_equal(tny_stage_round_minutes(ko, true, &m, &d), 0);
    assert_int_equal(m, 0); /* the final has no time limit */

    assert_int_equal(tny_nh_timeout_rule(TNY_STAGE_SWISS, false, true),
                     TNY_NH_TIMEOUT_TERMINATION);
    assert_int_equal(tny_nh_timeout_rule(TNY_STAGE_SWISS, true, false),
                     TNY_NH_TIMEOUT_TERMINATION);
    assert_int_equal(tny_nh_timeout_rule(TNY_STAGE_ELIMINATION, true, true),
                     TNY_NH_TIMEOUT_NONE);
    assert_int_equal(tny_nh_timeout_rule(TNY_STAGE_ELIMINATION, false, true),
                     TNY_NH_TIMEOUT_TERMINATION);
    assert_int_equal(tny_nh_timeout_rule(TNY_STAGE_ELIMINATION, false, false),
                     TNY_NH_TIMEOUT_PLAY_ON);

    const char *const *steps = tny_nh_termination_steps(&n);
    assert_int_equal(n, 3);
    assert_non_null(strstr(steps[0], "finishes"));
    assert_non_null(strstr(steps[1], "Final Battle"));

    struct tny_stage bad = *swiss;
    bad.timer_minutes = -1;
    assert_int_equal(tny_stage_round_minutes(&bad, false, &m, &d), TNY_EINVAL);
}

/* ---- NH-14 first player ------------------------------------------------- */

static void test_NH_14_dancer_sets_up_first(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_rng rng, before;
    struct tny_nh_first_player fp;

    load("neuroshima-hex", &fmt);
    tny_rng_seed(&rng, 14);
    before = rng;
    assert_int_equal(
        tny_nh_first_player(&fmt, "Dancer", "Moloch", &rng, &fp, NULL), 0);
    assert_int_equal(fp.first, 0);
    assert_int_equal(fp.decider, -1);
    assert_false(fp.vegas_note);
    assert_int_equal(
        tny_nh_first_player(&fmt, "Vegas", "Dancer", &rng, &fp, NULL), 0);
    assert_int_equal(fp.first, 1);
    assert_int_equal(fp.decider, -1);
    assert_true(fp.vegas_note);
    assert_memory_equal(&rng, &before, sizeof(rng)); /* no lot */
}

static void test_NH_14_lot_picks_decider(void **state)
{
    (void)state;
    struct tny_format fmt;
    int cases = tu_property_cases(4000);
    int picked[2] = {0, 0};

    load("neuroshima-hex", &fmt);
    for (int k = 0; k < cases; k++) {
        struct tny_rng rng;
        struct tny_nh_first_player fp;
        tny_rng_derive(&rng, (uint64_t)k, TNY_LOT_ARMY, 3);
        bool vegas = k % 2 == 0;
        assert_int_equal(tny_nh_first_player(&fmt, vegas ? "Vegas" : "Smart",
                                             "Borgo", &rng, &fp, NULL),
                         0);
        assert_int_equal(fp.first, -1);
        assert_true(fp.decider == 0 || fp.decider == 1);
        assert_int_equal(fp.vegas_note, vegas);
        picked[fp.decider]++;
    }
    assert_true(picked[0] > cases * 45 / 100 && picked[1] > cases * 45 / 100);
}

static void test_NH_14_errors(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_rng rng;
    struct tny_nh_first_player fp = {5, 5, true};
    struct tny_diag d = {{0}};

    load("neuroshima-hex", &fmt);
    tny_rng_seed(&rng, 1);
    assert_int_equal(
        tny_nh_first_player(&fmt, "Moloch", "Moloch", &rng, &fp, &d),
        TNY_EINVAL);
    assert_int_equal(tny_nh_first_player(&fmt, "", "Moloch", &rng, &fp, &d),
                     TNY_EINVAL);
    assert_int_equal(
        tny_nh_first_player(&fmt, "Moloch", "Atlantis", &rng, &fp, &d),
        TNY_ENOTFOUND);
    assert_non_null(strstr(d.msg, "Atlantis"));
    assert_int_equal(fp.decider, 5); /* untouched */
}

/* ---- TX-10 colours ------------------------------------------------------ */

static struct tny_tx_colour_pref pref(enum tny_tx_colour f,
                                      enum tny_tx_colour s, bool cb)
{
    struct tny_tx_colour_pref p = {f, s, cb};
    return p;
}

static void colours(struct tny_tx_colour_pref a, struct tny_tx_colour_pref b,
                    struct tny_tx_colours *out)
{
    struct tny_diag d = {{0}};
    int rc = tny_tx_colours(&a, &b, out, &d);
    if (rc != 0)
        fail_msg("tny_tx_colours: %s", d.msg);
}

static void test_TX_10_different_firsts(void **state)
{
    (void)state;
    struct tny_tx_colours c;
    colours(pref(TNY_TX_RED, TNY_TX_BLUE, false),
            pref(TNY_TX_BLUE, TNY_TX_RED, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_SET);
    assert_int_equal(c.colour[0], TNY_TX_RED);
    assert_int_equal(c.colour[1], TNY_TX_BLUE);
    assert_false(c.colour_blind_set);
    assert_int_equal(c.chooser, -1);
}

static void test_TX_10_same_first_agree_else_seconds(void **state)
{
    (void)state;
    struct tny_tx_colours c;
    colours(pref(TNY_TX_GREEN, TNY_TX_YELLOW, false),
            pref(TNY_TX_GREEN, TNY_TX_RED, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_ELSE);
    assert_int_equal(c.colour[0], TNY_TX_YELLOW);
    assert_int_equal(c.colour[1], TNY_TX_RED);
}

static void test_TX_10_same_seconds_organiser(void **state)
{
    (void)state;
    struct tny_tx_colours c;
    colours(pref(TNY_TX_GREEN, TNY_TX_RED, false),
            pref(TNY_TX_GREEN, TNY_TX_RED, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_OR_ORGANISER);
    /* same first and neither has a second */
    colours(pref(TNY_TX_BLUE, TNY_TX_NONE, false),
            pref(TNY_TX_BLUE, TNY_TX_NONE, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_OR_ORGANISER);
    /* nobody has a preference */
    colours(pref(TNY_TX_NONE, TNY_TX_NONE, false),
            pref(TNY_TX_NONE, TNY_TX_NONE, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_OR_ORGANISER);
}

static void test_TX_10_no_preference_cannot_block(void **state)
{
    (void)state;
    struct tny_tx_colours c;
    colours(pref(TNY_TX_NONE, TNY_TX_NONE, false),
            pref(TNY_TX_YELLOW, TNY_TX_RED, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_SET);
    assert_int_equal(c.colour[0], TNY_TX_NONE); /* free choice */
    assert_int_equal(c.colour[1], TNY_TX_YELLOW);
    /* same first, only one has a second: [decision] the other picks freely */
    colours(pref(TNY_TX_RED, TNY_TX_BLUE, false),
            pref(TNY_TX_RED, TNY_TX_NONE, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_ELSE);
    assert_int_equal(c.colour[0], TNY_TX_BLUE);
    assert_int_equal(c.colour[1], TNY_TX_NONE);
}

static void test_TX_10_colour_blind(void **state)
{
    (void)state;
    struct tny_tx_colours c;
    /* the other player chooses both colours, from the colour-blind set */
    colours(pref(TNY_TX_WHITE, TNY_TX_RED, true),
            pref(TNY_TX_RED, TNY_TX_BLUE, false), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_CHOOSER);
    assert_int_equal(c.chooser, 1);
    assert_true(c.colour_blind_set);
    colours(pref(TNY_TX_NONE, TNY_TX_NONE, false),
            pref(TNY_TX_NONE, TNY_TX_NONE, true), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_CHOOSER);
    assert_int_equal(c.chooser, 0);
    /* both colour blind: the normal rule in the colour-blind set, where a
     * registered green is white */
    colours(pref(TNY_TX_GREEN, TNY_TX_RED, true),
            pref(TNY_TX_WHITE, TNY_TX_BLUE, true), &c);
    assert_true(c.colour_blind_set);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_AGREE_ELSE);
    assert_int_equal(c.colour[0], TNY_TX_RED);
    assert_int_equal(c.colour[1], TNY_TX_BLUE);
    colours(pref(TNY_TX_GREEN, TNY_TX_NONE, true),
            pref(TNY_TX_YELLOW, TNY_TX_NONE, true), &c);
    assert_int_equal(c.outcome, TNY_TX_COLOURS_SET);
    assert_int_equal(c.colour[0], TNY_TX_WHITE);
    assert_int_equal(c.colour[1], TNY_TX_YELLOW);
}

static void test_TX_10_errors(void **state)
{
    (void)state;
    struct tny_tx_colours c = {
        TNY_TX_COLOURS_CHOOSER, {TNY_TX_RED, TNY_TX_RED}, true, 7};
    struct tny_diag d = {{0}};
    struct tny_tx_colour_pref ok = pref(TNY_TX_RED, TNY_TX_NONE, false);
    const struct tny_tx_colour_pref bad[] = {
        pref(TNY_TX_NONE, TNY_TX_RED, false),   /* second without a first */
        pref(TNY_TX_BLUE, TNY_TX_BLUE, false),  /* first == second */
        pref(TNY_TX_WHITE, TNY_TX_NONE, false), /* white, not colour blind */
        pref(TNY_TX_GREEN, TNY_TX_WHITE, true), /* the same colour when CB */
        pref((enum tny_tx_colour)42, TNY_TX_NONE, false),
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(tny_tx_colours(&bad[i], &ok, &c, &d), TNY_EINVAL);
        assert_int_equal(tny_tx_colours(&ok, &bad[i], &c, &d), TNY_EINVAL);
    }
    assert_int_equal(c.chooser, 7); /* untouched */
    assert_string_equal(tny_tx_colour_name(TNY_TX_WHITE), "white");
}

/* Property: swapping the players swaps the decision; the colours decided
 * never clash; the outcome always follows from the preferences. */
static void test_TX_10_property_symmetry(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(4000);
    int seen[4] = {0};

    tny_rng_seed(&rng, 10);
    for (int k = 0; k < cases; k++) {
        struct tny_tx_colour_pref p[2];
        for (int i = 0; i < 2; i++) {
            p[i].colour_blind = tny_rng_below(&rng, 6) == 0;
            p[i].first = (enum tny_tx_colour)tny_rng_below(&rng, 5);
            p[i].second = p[i].first == TNY_TX_NONE
                              ? TNY_TX_NONE
                              : (enum tny_tx_colour)tny_rng_below(&rng, 5);
            if (p[i].second == p[i].first)
                p[i].second = TNY_TX_NONE;
        }
        struct tny_tx_colours x, y;
        assert_int_equal(tny_tx_colours(&p[0], &p[1], &x, NULL), 0);
        assert_int_equal(tny_tx_colours(&p[1], &p[0], &y, NULL), 0);
        seen[x.outcome]++;
        assert_int_equal(x.outcome, y.outcome);
        assert_int_equal(x.colour[0], y.colour[1]);
        assert_int_equal(x.colour[1], y.colour[0]);
        assert_int_equal(x.colour_blind_set, y.colour_blind_set);
        if (x.outcome == TNY_TX_COLOURS_CHOOSER) {
            assert_int_equal(x.chooser, 1 - y.chooser);
            assert_false(p[x.chooser].colour_blind);
        }
        if (x.colour[0] != TNY_TX_NONE)
            assert_int_not_equal(x.colour[0], x.colour[1]);
        /* a player's registered first is played when nobody contests it */
        if (x.outcome == TNY_TX_COLOURS_SET && !x.colour_blind_set &&
            p[0].first != TNY_TX_NONE)
            assert_int_equal(x.colour[0], p[0].first);
    }
    for (int o = 0; o < 4; o++)
        assert_true(seen[o] > 0); /* every branch was exercised */
}

/* ---- TX-11 start -------------------------------------------------------- */

static void test_TX_11_higher_tile_starts(void **state)
{
    (void)state;
    int32_t s = 9;
    struct tny_diag d = {{0}};

    assert_int_equal(tny_tx_starter(41, 7, &s, &d), 0);
    assert_int_equal(s, 0);
    assert_int_equal(tny_tx_starter(1, 56, &s, &d), 0);
    assert_int_equal(s, 1);
    assert_int_equal(tny_tx_starter(23, 23, &s, &d), 0);
    assert_int_equal(s, -1); /* draw again */
    s = 9;
    assert_int_equal(tny_tx_starter(0, 5, &s, &d), TNY_ERANGE);
    assert_int_equal(tny_tx_starter(5, 57, &s, &d), TNY_ERANGE);
    assert_int_equal(s, 9);
}

/* ---- GT-12 timers, GT-13 time-out --------------------------------------- */

static void test_GT_12_timer_selection(void **state)
{
    (void)state;
    struct tny_format fmt;
    int32_t m = -1;

    load("got-lcg2", &fmt);
    const struct tny_stage *swiss = stage_of(&fmt, TNY_STAGE_SWISS);
    const struct tny_stage *elim = stage_of(&fmt, TNY_STAGE_ELIMINATION);
    assert_int_equal(tny_stage_round_minutes(swiss, false, &m, NULL), 0);
    assert_int_equal(m, 55);
    assert_int_equal(tny_stage_round_minutes(elim, false, &m, NULL), 0);
    assert_int_equal(m, 55);
    assert_int_equal(tny_stage_round_minutes(elim, true, &m, NULL), 0);
    assert_int_equal(m, 120);
}

static struct tny_gt_timeout_facts facts(int32_t power, int32_t deck,
                                         int32_t dead)
{
    struct tny_gt_timeout_facts f = {power, deck, dead};
    return f;
}

/* Seed 003's example: Daniel 11 power, Emilia 13 (15 wins): Emilia needs 2,
 * Daniel 4; Emilia gets the modified win. */
static void test_GT_13_seed_example(void **state)
{
    (void)state;
    struct tny_gt_timeout_facts f[2] = {facts(15 - 11, 20, 5),
                                        facts(15 - 13, 3, 9)};
    struct tny_gt_timeout_outcome o;
    assert_int_equal(tny_gt_timeout(f, 0, 0, &o, NULL), 0);
    assert_int_equal(o.winner, 1);
    assert_int_equal(o.decided_by, TNY_GT_STEP_POWER);
}

/* Each criterion decides only when all earlier ones are equal, and then
 * wins against every later criterion pointing at the other player. */
static void test_GT_13_each_criterion_in_order(void **state)
{
    (void)state;
    struct tny_gt_timeout_outcome o;
    struct tny_gt_timeout_facts f[2];

    /* 2: power equal; more deck cards wins over dominance and dead pile */
    f[0] = facts(3, 10, 9);
    f[1] = facts(3, 9, 0);
    assert_int_equal(tny_gt_timeout(f, 1, 1, &o, NULL), 0);
    assert_int_equal(o.winner, 0);
    assert_int_equal(o.decided_by, TNY_GT_STEP_DECK);
    /* 3: power and deck equal; dominance wins over the dead pile */
    f[0] = facts(3, 10, 9);
    f[1] = facts(3, 10, 0);
    assert_int_equal(tny_gt_timeout(f, 0, 1, &o, NULL), 0);
    assert_int_equal(o.winner, 0);
    assert_int_equal(o.decided_by, TNY_GT_STEP_DOMINANCE);
    /* 4: nobody won dominance; fewer dead characters wins */
    assert_int_equal(tny_gt_timeout(f, -1, 0, &o, NULL), 0);
    assert_int_equal(o.winner, 1);
    assert_int_equal(o.decided_by, TNY_GT_STEP_DEAD_PILE);
    /* 5: all equal: the first player chooses */
    f[0] = facts(3, 10, 2);
    f[1] = facts(3, 10, 2);
    assert_int_equal(tny_gt_timeout(f, -1, 1, &o, NULL), 0);
    assert_int_equal(o.winner, -1);
    assert_int_equal(o.chooser, 1);
    assert_int_equal(o.decided_by, TNY_GT_STEP_FIRST_PLAYER);
    /* 1: power beats everything after it */
    f[0] = facts(1, 0, 20);
    f[1] = facts(2, 30, 0);
    assert_int_equal(tny_gt_timeout(f, 1, 1, &o, NULL), 0);
    assert_int_equal(o.winner, 0);
    assert_int_equal(o.decided_by, TNY_GT_STEP_POWER);
}

static void test_GT_13_steps_and_errors(void **state)
{
    (void)state;
    struct tny_gt_timeout_outcome o = {7, 7, TNY_GT_STEP_POWER};
    struct tny_gt_timeout_facts f[2] = {facts(1, 1, 1), facts(1, 1, 1)};
    struct tny_diag d = {{0}};

    assert_non_null(
        strstr(tny_gt_timeout_step_text(TNY_GT_STEP_FINISH_ROUND), "taxation"));
    assert_non_null(
        strstr(tny_gt_timeout_step_text(TNY_GT_STEP_POWER), "fewer power"));
    assert_non_null(
        strstr(tny_gt_timeout_step_text(TNY_GT_STEP_DECK), "draw deck"));
    assert_non_null(
        strstr(tny_gt_timeout_step_text(TNY_GT_STEP_DOMINANCE), "dominance"));
    assert_non_null(
        strstr(tny_gt_timeout_step_text(TNY_GT_STEP_DEAD_PILE), "dead pile"));
    assert_non_null(strstr(tny_gt_timeout_step_text(TNY_GT_STEP_FIRST_PLAYER),
                           "first player chooses"));
    assert_string_equal(tny_gt_timeout_step_text(TNY_GT_STEP_COUNT_), "");

    assert_int_equal(tny_gt_timeout(f, 2, 0, &o, &d), TNY_EINVAL);
    assert_int_equal(tny_gt_timeout(f, -1, -1, &o, &d), TNY_EINVAL);
    f[1].deck_cards = -1;
    assert_int_equal(tny_gt_timeout(f, -1, 0, &o, &d), TNY_EINVAL);
    assert_int_equal(o.winner, 7);
}

/* Property: swapping the players (and dominance, first player) swaps the
 * modified winner; the first player only chooses when all facts tie. */
static void test_GT_13_property_symmetry(void **state)
{
    (void)state;
    struct tny_rng rng;
    int cases = tu_property_cases(4000);

    tny_rng_seed(&rng, 13);
    for (int k = 0; k < cases; k++) {
        struct tny_gt_timeout_facts f[2], g[2];
        for (int i = 0; i < 2; i++)
            f[i] = facts((int32_t)tny_rng_below(&rng, 3),
                         (int32_t)tny_rng_below(&rng, 3),
                         (int32_t)tny_rng_below(&rng, 3));
        int32_t dom = (int32_t)tny_rng_below(&rng, 3) - 1;
        int32_t fp = (int32_t)tny_rng_below(&rng, 2);
        g[0] = f[1];
        g[1] = f[0];
        struct tny_gt_timeout_outcome x, y;
        assert_int_equal(tny_gt_timeout(f, dom, fp, &x, NULL), 0);
        assert_int_equal(
            tny_gt_timeout(g, dom < 0 ? -1 : 1 - dom, 1 - fp, &y, NULL), 0);
        assert_int_equal(x.decided_by, y.decided_by);
        if (x.winner < 0) {
            assert_int_equal(y.winner, -1);
            assert_int_equal(x.chooser, fp);
            assert_true(f[0].power_needed == f[1].power_needed &&
                        f[0].deck_cards == f[1].deck_cards && dom < 0 &&
                        f[0].dead_characters == f[1].dead_characters);
        } else {
            assert_int_equal(x.winner, 1 - y.winner);
        }
    }
}

/* ---- CT-8 time limit, CT-9 starting player ------------------------------ */

static void test_CT_8_time_limit(void **state)
{
    (void)state;
    struct tny_format fmt;
    struct tny_diag d = {{0}};

    load("catan", &fmt);
    assert_int_equal(tny_ct_time_limit_check(fmt.stages[0].timer_minutes, &d),
                     0);
    assert_int_equal(tny_ct_time_limit_check(90, &d), 0);
    assert_int_equal(tny_ct_time_limit_check(0, &d), 0); /* none announced */
    assert_int_equal(tny_ct_time_limit_check(89, &d), TNY_EINVAL);
    assert_non_null(strstr(d.msg, "90"));
    assert_int_equal(tny_ct_time_limit_check(-5, &d), TNY_EINVAL);
    assert_int_equal(tny_ct_time_limit_check(1441, &d), TNY_ERANGE);
    assert_non_null(strstr(tny_ct_timeout_text(), "two more full rounds"));
}

static void test_CT_8_two_more_full_rounds(void **state)
{
    (void)state;
    int32_t turns = -1;
    struct tny_diag d = {{0}};

    /* 4 players, seat 0 started; time up in seat 1's turn: seats 2 and 3
     * finish the round, then 2 x 4 turns */
    assert_int_equal(tny_ct_turns_after_timeout(4, 0, 1, &turns, &d), 0);
    assert_int_equal(turns, 2 + 8);
    /* time up in the last seat's turn: just the two rounds */
    assert_int_equal(tny_ct_turns_after_timeout(4, 2, 1, &turns, &d), 0);
    assert_int_equal(turns, 8);
    /* time up in the starter's turn: 3 players, 2 more in this round */
    assert_int_equal(tny_ct_turns_after_timeout(3, 1, 1, &turns, &d), 0);
    assert_int_equal(turns, 2 + 6);
    assert_int_equal(tny_ct_turns_after_timeout(5, 0, 0, &turns, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_ct_turns_after_timeout(4, 4, 0, &turns, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_ct_turns_after_timeout(4, 0, -1, &turns, &d),
                     TNY_EINVAL);
}

static void test_CT_9_highest_roll_starts(void **state)
{
    (void)state;
    int32_t s = 9;
    uint32_t tied = 99;
    struct tny_diag d = {{0}};
    const int32_t unique[4] = {8, 12, 5, 11};
    const int32_t tie[4] = {8, 11, 5, 11};
    const int32_t three[3] = {7, 2, 6};
    const int32_t bad[4] = {8, 13, 5, 11};

    assert_int_equal(tny_ct_starting_player(4, unique, &s, &tied, &d), 0);
    assert_int_equal(s, 1);
    assert_int_equal(tied, 0);
    assert_int_equal(tny_ct_starting_player(4, tie, &s, &tied, &d), 0);
    assert_int_equal(s, -1);
    assert_int_equal(tied, (1u << 1) | (1u << 3)); /* seats 1 and 3 re-roll */
    assert_int_equal(tny_ct_starting_player(3, three, &s, &tied, &d), 0);
    assert_int_equal(s, 0);
    s = 9;
    assert_int_equal(tny_ct_starting_player(4, bad, &s, &tied, &d), TNY_EINVAL);
    assert_int_equal(tny_ct_starting_player(1, unique, &s, &tied, &d),
                     TNY_EINVAL);
    assert_int_equal(tny_ct_starting_player(5, unique, &s, &tied, &d),
                     TNY_EINVAL);
    assert_int_equal(s, 9);
}

/* Property: virtual dice give every seat the start about equally often and
 * the same stream gives the same starter. */
static void test_CT_9_property_roll_fair(void **state)
{
    (void)state;
    int cases = tu_property_cases(4000);
    int count[4] = {0};

    for (int k = 0; k < cases; k++) {
        struct tny_rng rng, again;
        int32_t s = -1, s2 = -2;
        int32_t n = 3 + k % 2;
        tny_rng_derive(&rng, (uint64_t)k, TNY_LOT_SEATS, 2);
        again = rng;
        assert_int_equal(tny_ct_roll_starting_player(&rng, n, &s, NULL), 0);
        assert_int_equal(tny_ct_roll_starting_player(&again, n, &s2, NULL), 0);
        assert_int_equal(s, s2);
        assert_true(s >= 0 && s < n);
        if (n == 4)
            count[s]++;
    }
    for (int i = 0; i < 4; i++)
        assert_true(count[i] > (cases / 2) / 4 * 85 / 100);
    struct tny_rng rng;
    int32_t s = 7;
    tny_rng_seed(&rng, 1);
    assert_int_equal(tny_ct_roll_starting_player(&rng, 1, &s, NULL),
                     TNY_EINVAL);
    assert_int_equal(s, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_12_different_first_choices),
        cmocka_unit_test(test_NH_12_same_first_choice_lot),
        cmocka_unit_test(test_NH_12_missing_second_and_errors),
        cmocka_unit_test(test_NH_12_beginner_may_repeat),
        cmocka_unit_test(test_NH_13_timers_and_termination),
        cmocka_unit_test(test_NH_14_dancer_sets_up_first),
        cmocka_unit_test(test_NH_14_lot_picks_decider),
        cmocka_unit_test(test_NH_14_errors),
        cmocka_unit_test(test_TX_10_different_firsts),
        cmocka_unit_test(test_TX_10_same_first_agree_else_seconds),
        cmocka_unit_test(test_TX_10_same_seconds_organiser),
        cmocka_unit_test(test_TX_10_no_preference_cannot_block),
        cmocka_unit_test(test_TX_10_colour_blind),
        cmocka_unit_test(test_TX_10_errors),
        cmocka_unit_test(test_TX_10_property_symmetry),
        cmocka_unit_test(test_TX_11_higher_tile_starts),
        cmocka_unit_test(test_GT_12_timer_selection),
        cmocka_unit_test(test_GT_13_seed_example),
        cmocka_unit_test(test_GT_13_each_criterion_in_order),
        cmocka_unit_test(test_GT_13_steps_and_errors),
        cmocka_unit_test(test_GT_13_property_symmetry),
        cmocka_unit_test(test_CT_8_time_limit),
        cmocka_unit_test(test_CT_8_two_more_full_rounds),
        cmocka_unit_test(test_CT_9_highest_roll_starts),
        cmocka_unit_test(test_CT_9_property_roll_fair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
