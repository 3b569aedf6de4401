/* test_flow.c - the guided table flows (flow.h): each format's PREGAME,
 * TIMEOUT and RESULT steps against the rules they cite (NH, TX, AG, GT,
 * CT), worked examples from the seeds, refusals at the keypad, going back,
 * and randomised properties: random answers never produce a result the
 * hub's check refuses, replaying the answers restores the flow, lots are
 * fair over many seeds.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/procedure.h"
#include "tny/wire.h"
#include "tny/score.h"

#include "flow.h"
#include "game.h"

static const char *const NAMES[] = {"Anna", "Ben", "Cid", "Dan"};

/* ---- fixture --------------------------------------------------------- */

struct fx {
    struct tny_wire_assignment a;
    struct tbl_game g;
    struct tbl_flow f;
    struct tbl_flow_facts facts;
    bool have_game;
};

static struct fx *fx_new(const char *game, const char *stage, int n)
{
    struct fx *x = calloc(1, sizeof(*x));

    assert_non_null(x);
    x->a.version = 1;
    snprintf(x->a.event_id, sizeof(x->a.event_id), "ev");
    assert_int_equal(tny_game_from_name(game, &x->a.game), 0);
    snprintf(x->a.format_name, sizeof(x->a.format_name), "%s", game);
    x->a.round = 2;
    assert_int_equal(tny_stage_kind_from_name(stage, &x->a.stage), 0);
    x->a.table = 3;
    x->a.n_seats = n;
    for (int i = 0; i < n; i++) {
        snprintf(x->a.seats[i].player_id, sizeof(x->a.seats[i].player_id),
                 "p%d", i + 1);
        snprintf(x->a.seats[i].name, sizeof(x->a.seats[i].name), "%s",
                 NAMES[i]);
    }
    return x;
}

static void fx_armies(struct fx *x, int seat, const char *list)
{
    char buf[512];
    struct tny_wire_seat *s = &x->a.seats[seat];

    snprintf(buf, sizeof(buf), "%s", list);
    s->n_armies = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        snprintf(s->armies[s->n_armies++], TNY_NAME_MAX, "%s", t);
}

static void fx_game(struct fx *x)
{
    struct tny_diag d = {{0}};

    if (!x->have_game) {
        if (tbl_game_from_assignment(&x->a, &x->g, &d) != 0)
            fail_msg("game: %s", d.msg);
        x->have_game = true;
    }
}

static void fx_begin(struct fx *x, enum tbl_flow_kind kind, uint64_t seed)
{
    struct tny_diag d = {{0}};

    fx_game(x);
    if (tbl_flow_begin(&x->f, kind, &x->g, &x->a, &x->facts, seed, &d) != 0)
        fail_msg("begin: %s", d.msg);
}

static void fx_free(struct fx *x)
{
    tbl_flow_release(&x->f);
    tbl_game_release(&x->g);
    free(x);
}

static struct tbl_flow_step step_of(const struct fx *x)
{
    struct tbl_flow_step st;

    tbl_flow_step(&x->f, &st);
    return st;
}

static void ok(struct fx *x, int32_t v)
{
    struct tny_diag d = {{0}};
    struct tbl_flow_step st = step_of(x);

    if (tbl_flow_answer(&x->f, v, &d) != 0)
        fail_msg("answer %d to \"%s\": %s", (int)v, st.title, d.msg);
}

static void oks(struct fx *x, const int32_t *v, int n)
{
    for (int i = 0; i < n; i++)
        ok(x, v[i]);
}

/* The answer is refused with rc and a message containing want; the flow is
 * unchanged. */
static void refused(struct fx *x, int32_t v, int rc, const char *want)
{
    struct tny_diag d = {{0}};
    struct tbl_flow before = x->f;
    int got = tbl_flow_answer(&x->f, v, &d);

    if (got != rc)
        fail_msg("answer %d: rc %d, expected %d (%s)", (int)v, got, rc, d.msg);
    if (want && !strstr(d.msg, want))
        fail_msg("message \"%s\" lacks \"%s\"", d.msg, want);
    assert_int_equal(x->f.n_answers, before.n_answers);
    assert_memory_equal(&x->f.step, &before.step, sizeof(before.step));
}

static void expect(const struct fx *x, enum tbl_ask ask, const char *title)
{
    struct tbl_flow_step st = step_of(x);

    if (st.ask != ask || (title && !strstr(st.title, title)))
        fail_msg("step \"%s\" (ask %d), expected \"%s\" (ask %d)", st.title,
                 (int)st.ask, title ? title : "", (int)ask);
}

static bool has_line(const struct fx *x, const char *want)
{
    char lines[TBL_FLOW_MAX_LINES][TBL_FLOW_LINE_MAX];
    int32_t n = tbl_flow_summary(&x->f, lines, TBL_FLOW_MAX_LINES);

    for (int32_t i = 0; i < n; i++)
        if (strstr(lines[i], want))
            return true;
    return false;
}

static void expect_line(const struct fx *x, const char *want)
{
    char lines[TBL_FLOW_MAX_LINES][TBL_FLOW_LINE_MAX];
    int32_t n = tbl_flow_summary(&x->f, lines, TBL_FLOW_MAX_LINES);

    if (!has_line(x, want)) {
        for (int32_t i = 0; i < n; i++)
            print_message("line: %s\n", lines[i]);
        fail_msg("no outcome line with \"%s\"", want);
    }
}

/* Answers INFO steps until another kind of step. */
static void skip_info(struct fx *x)
{
    while (step_of(x).ask == TBL_ASK_INFO)
        ok(x, 0);
}

/* The result at DONE, checked the hub's way (tny_wire_result_to_table). */
static struct tny_wire_result done_result(struct fx *x)
{
    struct tny_wire_result r;
    struct tny_table t;
    struct tny_diag d = {{0}};

    skip_info(x);
    expect(x, TBL_ASK_DONE, NULL);
    if (tbl_flow_result(&x->f, &r, &d) != 0)
        fail_msg("result: %s", d.msg);
    if (tny_wire_result_to_table(&x->g.ev, x->g.stage, &x->g.table, &r,
                                 "result", &t, &d) != 0)
        fail_msg("hub refuses the flow's result: %s", d.msg);
    return r;
}

static int option_of(const struct fx *x, const char *text)
{
    struct tbl_flow_step st = step_of(x);

    for (int i = 0; i < st.n_options; i++)
        if (strstr(st.options[i], text))
            return i;
    fail_msg("step \"%s\" has no option \"%s\"", st.title, text);
    return -1;
}

/* ---- Neuroshima Hex! --------------------------------------------------- */

static struct fx *nh(const char *stage, const char *a0, const char *a1)
{
    struct fx *x = fx_new("neuroshima-hex", stage, 2);

    fx_armies(x, 0, a0);
    fx_armies(x, 1, a1);
    return x;
}

/* PREGAME up to the reveal: first/second choices as option texts. */
static void nh_choose(struct fx *x, const char *f0, const char *s0,
                      const char *f1, const char *s1)
{
    const char *pick[4] = {f0, s0, f1, s1};

    expect(x, TBL_ASK_INFO, "Army choice");
    ok(x, 0);
    for (int i = 0; i < 4; i++) {
        struct tbl_flow_step st;
        if (i == 2) { /* NH-12: a clear screen before the second player */
            expect(x, TBL_ASK_INFO, "Hand the table to Ben");
            assert_true(step_of(x).no_back);
            ok(x, 0);
        }
        st = step_of(x);
        if (!pick[i])
            continue;
        assert_true(st.secret); /* NH-12: secret */
        assert_int_equal(st.seat, i / 2);
        ok(x, option_of(x, pick[i]));
    }
    expect(x, TBL_ASK_INFO, "revealed");
    ok(x, 0);
}

static void test_NH_12_different_first_choices_each_plays_first(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo,Hegemony", "Outpost,Moloch,Smart");

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    nh_choose(x, "Moloch", "Borgo", "Outpost", "Smart");
    expect_line(x, "Anna plays Moloch");
    expect_line(x, "Ben plays Outpost");
    assert_true(x->f.carry.has_nh_armies);
    assert_string_equal(x->f.carry.nh_army[0], "Moloch");
    assert_string_equal(x->f.carry.nh_army[1], "Outpost");
    fx_free(x);
}

/* NH-10: a player who declared the Iron Gang Hook and plays Iron Gang is
 * told to swap the token before the tiles are shuffled; the other player,
 * without the Hook, is not. */
/* NH-12 "each player secretly picks": nothing the second player can see
 * shows the first player's first choice: Anna's second-choice screen lists
 * the same armies as her first (her first choice again is refused), the
 * table is handed over on a screen naming no army, and going back from
 * there leaves the steps instead of showing Anna's screens. */
static void test_NH_12_first_choice_hidden_from_the_second_player(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo,Hegemony", "Outpost,Smart,Vegas");
    struct tbl_flow_step first, second, hand;

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    ok(x, 0);
    first = step_of(x);
    ok(x, option_of(x, "Borgo"));
    second = step_of(x);
    assert_true(second.secret);
    assert_int_equal(second.n_options, first.n_options);
    for (int i = 0; i < first.n_options; i++)
        assert_string_equal(second.options[i], first.options[i]);
    assert_null(strstr(second.text, "Borgo"));
    refused(x, option_of(x, "Borgo"), TNY_EINVAL, "another army");
    ok(x, option_of(x, "Moloch"));
    hand = step_of(x);
    expect(x, TBL_ASK_INFO, "Hand the table to Ben");
    static const char *const armies[] = {"Moloch", "Borgo", "Hegemony"};
    for (int i = 0; i < 3; i++) {
        assert_null(strstr(hand.title, armies[i]));
        assert_null(strstr(hand.text, armies[i]));
    }
    assert_false(tbl_flow_back(&x->f)); /* leaves the steps */
    ok(x, 0);
    expect(x, TBL_ASK_CHOICE, "Ben (seat 2): first choice");
    assert_true(tbl_flow_back(&x->f)); /* back to the hand-over only */
    expect(x, TBL_ASK_INFO, "Hand the table to Ben");
    fx_free(x);
}

static void test_NH_10_hook_swap_token_before_shuffle(void **s)
{
    struct fx *x = nh("swiss", "Iron Gang,Borgo", "Outpost,Smart");

    (void)s;
    x->a.seats[0].hook = true;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    nh_choose(x, "Iron Gang", "Borgo", "Outpost", "Smart");
    skip_info(x);
    expect_line(x, "Anna: Iron Gang with the Hook swap token (NH-10)");
    assert_false(has_line(x, "Ben: Iron Gang"));
    fx_free(x);
    /* With the Hook but another army: no swap step. */
    x = nh("swiss", "Iron Gang,Borgo", "Outpost,Smart");
    x->a.seats[0].hook = true;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    nh_choose(x, "Borgo", "Iron Gang", "Outpost", "Smart");
    skip_info(x);
    assert_false(has_line(x, "Hook"));
    fx_free(x);
}

static void test_NH_11_only_available_armies_offered(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo,Hegemony", "Outpost,Smart");
    struct tbl_flow_step st;

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    ok(x, 0);
    st = step_of(x);
    assert_int_equal(st.n_options, 3);
    assert_string_equal(st.options[0], "Moloch");
    assert_string_equal(st.options[2], "Hegemony");
    refused(x, 3, TNY_ERANGE, "1..3");
    ok(x, 0);
    st = step_of(x); /* the second choice: the same available armies (the
                        first is refused, not left out: NH-12 secret) */
    assert_int_equal(st.n_options, 3);
    assert_string_equal(st.options[1], "Borgo");
    fx_free(x);
}

static void test_NH_12_same_first_choice_lot_fair(void **s)
{
    int n = tu_property_cases(2000), second[2] = {0, 0};

    (void)s;
    for (int i = 0; i < n; i++) {
        struct fx *x = nh("swiss", "Moloch,Borgo", "Moloch,Smart");
        fx_begin(x, TBL_FLOW_PREGAME, (uint64_t)i * 7919u);
        nh_choose(x, "Moloch", "Borgo", "Moloch", "Smart");
        /* exactly one plays the second choice, the other Moloch */
        bool a_moloch = strcmp(x->f.carry.nh_army[0], "Moloch") == 0;
        bool b_moloch = strcmp(x->f.carry.nh_army[1], "Moloch") == 0;
        assert_true(a_moloch != b_moloch);
        if (!a_moloch)
            assert_string_equal(x->f.carry.nh_army[0], "Borgo");
        if (!b_moloch)
            assert_string_equal(x->f.carry.nh_army[1], "Smart");
        assert_true(has_line(x, "(lot)"));
        second[a_moloch ? 1 : 0]++;
        fx_free(x);
    }
    /* CM-4 lot: each player loses about half of the lots */
    assert_true(second[0] > n * 40 / 100 && second[1] > n * 40 / 100);
}

static void test_NH_12_only_one_with_second_choice_plays_it(void **s)
{
    struct fx *x = nh("swiss", "Moloch", "Moloch,Smart");

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 5);
    nh_choose(x, "Moloch", NULL, "Moloch", "Smart");
    assert_string_equal(x->f.carry.nh_army[0], "Moloch");
    assert_string_equal(x->f.carry.nh_army[1], "Smart");
    fx_free(x);
}

static void test_NH_12_beginner_exception_both_last_army(void **s)
{
    struct fx *x = nh("swiss", "Moloch", "Moloch");
    struct tbl_flow_step st;

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 5);
    nh_choose(x, "Moloch", NULL, "Moloch", NULL);
    expect(x, TBL_ASK_CHOICE, "beginner");
    ok(x, 1); /* Ben is the beginner */
    st = step_of(x);
    assert_int_equal(st.seat, 1);
    /* NH-10 base box without Moloch */
    assert_int_equal(st.n_options, 3);
    for (int i = 0; i < st.n_options; i++)
        assert_string_not_equal(st.options[i], "Moloch");
    ok(x, option_of(x, "Borgo"));
    assert_string_equal(x->f.carry.nh_army[1], "Borgo");
    assert_true(x->f.carry.nh_beginner_repeat[1]);
    expect_line(x, "NH-12 beginner exception");
    fx_free(x);
}

static void test_NH_14_dancer_sets_up_first(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo", "Dancer,Smart");

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 9);
    nh_choose(x, "Moloch", "Borgo", "Dancer", "Smart");
    expect(x, TBL_ASK_INFO, "First player");
    ok(x, 0);
    assert_true(x->f.carry.has_starter);
    assert_int_equal(x->f.carry.starter, 1);
    expect_line(x, "Ben deploys first (Dancer");
    skip_info(x);
    expect(x, TBL_ASK_DONE, NULL);
    fx_free(x);
}

static void test_NH_14_lot_picks_decider_who_chooses(void **s)
{
    int n = tu_property_cases(2000), decider[2] = {0, 0};

    (void)s;
    for (int i = 0; i < n; i++) {
        struct fx *x = nh("swiss", "Moloch,Borgo", "Vegas,Smart");
        struct tbl_flow_step st;
        fx_begin(x, TBL_FLOW_PREGAME, (uint64_t)i);
        nh_choose(x, "Moloch", "Borgo", "Vegas", "Smart");
        st = step_of(x);
        assert_int_equal(st.ask, TBL_ASK_CHOICE);
        assert_true(st.seat == 0 || st.seat == 1); /* the decider */
        assert_non_null(strstr(st.text, "Vegas")); /* NH-14 note */
        decider[st.seat]++;
        ok(x, 1 - st.seat); /* lets the other deploy first */
        assert_int_equal(x->f.carry.starter, 1 - st.seat);
        assert_true(has_line(x, "Vegas"));
        fx_free(x);
    }
    assert_true(decider[0] > n * 40 / 100 && decider[1] > n * 40 / 100);
}

static void test_NH_13_swiss_termination_steps(void **s)
{
    struct fx *x = nh("swiss", "Moloch", "Borgo");
    int32_t n;

    (void)s;
    tny_nh_termination_steps(&n);
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    for (int32_t i = 0; i < n; i++) {
        expect(x, TBL_ASK_INFO, "Termination (NH-13)");
        ok(x, 0);
    }
    expect_line(x, "Final Battle");
    skip_info(x);
    expect(x, TBL_ASK_DONE, NULL);
    fx_free(x);
}

static void test_NH_13_final_has_no_time_limit(void **s)
{
    struct fx *x = nh("elimination", "Moloch", "Borgo");

    (void)s;
    x->a.has_clock = true;
    x->a.clock.unlimited = true;
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_INFO, "No time limit");
    x->a.clock.unlimited = false; /* another knockout round: termination */
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_INFO, "Termination");
    fx_free(x);
}

static void test_NH_1_win_records_hq_difference_and_armies(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo", "Outpost,Smart");
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    expect(x, TBL_ASK_CHOICE, "Anna (seat 1): army played");
    ok(x, option_of(x, "Borgo"));
    ok(x, option_of(x, "Smart"));
    expect(x, TBL_ASK_CHOICE, "Result");
    ok(x, option_of(x, "Ben won"));
    expect(x, TBL_ASK_NUMBER, "HQ difference");
    assert_int_equal(step_of(x).max, 40); /* no Dancer: the format's range */
    ok(x, 7);
    expect(x, TBL_ASK_INFO, "Result");
    /* NH-1: the winner records +d, the loser -d */
    expect_line(x, "Ben won: Anna -7, Ben +7");
    r = done_result(x);
    assert_string_equal(r.winner_id, "p2");
    assert_false(r.draw);
    assert_int_equal(r.hq_diff, 7);
    assert_int_equal(r.n_players, 2);
    assert_string_equal(r.players[0].army, "Borgo");
    assert_string_equal(r.players[1].army, "Smart");
    fx_free(x);
}

static void test_NH_1_draw_records_zero(void **s)
{
    struct fx *x = nh("swiss", "Moloch", "Outpost");
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, 0);
    ok(x, 0);
    ok(x, option_of(x, "Draw"));
    expect(x, TBL_ASK_INFO, "Result"); /* no HQ difference asked */
    r = done_result(x);
    assert_true(r.draw);
    assert_int_equal(r.hq_diff, 0);
    assert_string_equal(r.winner_id, "");
    fx_free(x);
}

static void test_NH_2_dancer_caps_hq_difference_entry(void **s)
{
    struct fx *x = nh("swiss", "Dancer,Borgo", "Outpost,Smart");
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Dancer"));
    ok(x, option_of(x, "Smart"));
    ok(x, option_of(x, "Anna won"));
    expect(x, TBL_ASK_NUMBER, "HQ difference");
    refused(x, 25, TNY_ERANGE, "0..20");
    refused(x, -1, TNY_ERANGE, "got -1");
    ok(x, 20);
    r = done_result(x);
    assert_int_equal(r.hq_diff, 20);
    fx_free(x);
}

static void test_NH_12_both_never_field_the_same_army(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo", "Moloch,Smart");

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Moloch"));
    refused(x, option_of(x, "Moloch"), TNY_EINVAL, "Moloch");
    ok(x, option_of(x, "Smart"));
    expect(x, TBL_ASK_CHOICE, "Result");
    fx_free(x);
}

static void test_NH_11_pregame_outcome_prefills_army_played(void **s)
{
    struct fx *x = nh("swiss", "Moloch,Borgo", "Outpost,Smart");
    struct tbl_flow_step st;

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    nh_choose(x, "Borgo", "Moloch", "Smart", "Outpost");
    while (step_of(x).ask != TBL_ASK_DONE)
        ok(x, 0);
    tbl_flow_carry(&x->f, &x->facts);
    assert_true(x->facts.has_starter);
    fx_begin(x, TBL_FLOW_RESULT, 1);
    st = step_of(x);
    assert_true(st.has_default);
    assert_string_equal(st.options[st.default_value], "Borgo");
    ok(x, st.default_value);
    st = step_of(x);
    assert_string_equal(st.options[st.default_value], "Smart");
    fx_free(x);
}

/* ---- Tantrix ------------------------------------------------------------ */

static void test_TX_11_higher_tile_starts(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    expect(x, TBL_ASK_INFO, "Colours");
    ok(x, 0);
    ok(x, option_of(x, "type the numbers"));
    expect(x, TBL_ASK_NUMBER, "Anna (seat 1): tile");
    refused(x, 57, TNY_ERANGE, "1..56");
    refused(x, 0, TNY_ERANGE, "1..56");
    ok(x, 17);
    ok(x, 41);
    expect(x, TBL_ASK_INFO, "Ben starts");
    assert_non_null(strstr(step_of(x).text, "Anna starts Ben's clock"));
    ok(x, 0);
    expect_line(x, "Ben starts (tile 41 > 17)");
    assert_int_equal(x->f.carry.starter, 1);
    fx_free(x);
}

static void test_TX_11_equal_tiles_draw_again(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    ok(x, 0);
    ok(x, 0);
    ok(x, 20);
    ok(x, 20);
    expect(x, TBL_ASK_INFO, "Equal");
    ok(x, 0);
    expect(x, TBL_ASK_NUMBER, "tile");
    ok(x, 30);
    ok(x, 2);
    assert_int_equal(x->f.carry.starter, 0);
    fx_free(x);
}

static void test_TX_11_table_draw_fair(void **s)
{
    int n = tu_property_cases(2000), starts[2] = {0, 0};

    (void)s;
    for (int i = 0; i < n; i++) {
        struct fx *x = fx_new("tantrix", "swiss", 2);
        fx_begin(x, TBL_FLOW_PREGAME, (uint64_t)i);
        ok(x, 0);
        ok(x, option_of(x, "lot"));
        expect(x, TBL_ASK_INFO, "starts");
        starts[x->f.carry.starter]++;
        fx_free(x);
    }
    assert_true(starts[0] > n * 40 / 100 && starts[1] > n * 40 / 100);
}

/* CM-4: a lot drawn at the table (TX-11's tile draw by the table) is
 * carried to the result flow and reported with the result; a typed draw
 * is no lot and reports nothing. */
static void test_CM_4_table_lot_reported_with_result(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 5);
    ok(x, 0);
    ok(x, option_of(x, "lot"));
    skip_info(x);
    expect(x, TBL_ASK_DONE, NULL);
    tbl_flow_carry(&x->f, &x->facts);
    assert_int_equal(x->facts.n_lots, 1);
    assert_non_null(strstr(x->facts.lots[0], "TX-11 tile draw by the "
                                             "table's lot"));
    fx_begin(x, TBL_FLOW_RESULT, 5);
    ok(x, option_of(x, "Default win (TX-5): Ben"));
    r = done_result(x);
    assert_int_equal(r.n_lots, 1);
    assert_string_equal(r.lots[0], x->facts.lots[0]);
    fx_free(x);

    x = fx_new("tantrix", "swiss", 2);
    fx_begin(x, TBL_FLOW_PREGAME, 5);
    ok(x, 0);
    ok(x, option_of(x, "type the numbers"));
    ok(x, 30);
    ok(x, 12);
    skip_info(x);
    tbl_flow_carry(&x->f, &x->facts);
    assert_int_equal(x->facts.n_lots, 0);
    fx_free(x);
}

static void test_TX_10_colours_shown(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);

    (void)s;
    x->a.seats[0].n_colours = 2;
    snprintf(x->a.seats[0].colours[0], TNY_NAME_MAX, "red");
    snprintf(x->a.seats[0].colours[1], TNY_NAME_MAX, "blue");
    x->a.seats[1].n_colours = 1;
    snprintf(x->a.seats[1].colours[0], TNY_NAME_MAX, "yellow");
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    assert_non_null(strstr(step_of(x).text, "Anna plays red"));
    assert_non_null(strstr(step_of(x).text, "Ben plays yellow"));
    /* colour blind: the other player chooses both colours */
    x->a.seats[1].colour_blind = true;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    assert_non_null(strstr(step_of(x).text, "Anna chooses both colours"));
    assert_non_null(strstr(step_of(x).text, "colour-blind set"));
    fx_free(x);
}

static void test_TX_3_clock_prefilled_penalty_previewed(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;

    (void)s;
    x->facts.has_chess = true;
    x->facts.chess_used_ms[0] = (20 * 60 + 13) * 1000 + 400; /* 20:13.4 */
    x->facts.chess_used_ms[1] = (18 * 60 + 42) * 1000;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Played"));
    refused(x, 201, TNY_ERANGE, "0..200");
    ok(x, 30);
    ok(x, 24);
    expect(x, TBL_ASK_CHOICE, "Clock");
    assert_non_null(strstr(step_of(x).text, "20:13"));
    ok(x, option_of(x, "chess clock"));
    /* TX-3: 20:13 costs 1 TP; TX-2 margin 6 gives 15.3 - 1 = 14.3 */
    expect_line(x, "Anna clock 20:13: 1.0 TP to Ben");
    expect_line(x, "Ben clock 18:42: no penalty");
    expect_line(x, "TP: Anna 14.3, Ben 5.7");
    r = done_result(x);
    assert_true(r.players[0].has_clock);
    assert_int_equal(r.players[0].clock_ms, (20 * 60 + 13) * 1000 + 400);
    assert_int_equal(r.players[1].score, 24);
    fx_free(x);
}

static void test_TX_3_typed_minutes(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, 0);
    ok(x, 10);
    ok(x, 10);
    ok(x, option_of(x, "Type"));
    refused(x, 241, TNY_ERANGE, "0..240");
    ok(x, 19);
    ok(x, 21); /* TX-3: 21:00-21:59 costs 2 TP */
    expect_line(x, "Ben clock 21:00: 2.0 TP to Anna");
    /* margin 0: 10.0 each, then 2 TP from Ben to Anna */
    expect_line(x, "TP: Anna 12.0, Ben 8.0");
    r = done_result(x);
    assert_int_equal(r.players[1].clock_ms, 21 * 60000);
    fx_free(x);
}

static void test_TX_5_default_win(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Default win (TX-5): Ben"));
    expect_line(x, "TP: Anna 5.0, Ben 15.0");
    r = done_result(x);
    assert_string_equal(r.default_winner_id, "p2");
    assert_false(r.players[0].has_score);
    fx_free(x);
}

/* TX-4: "the organiser may stop the game and decide the result": the
 * players cannot pick an organiser's decision at the table (no option, no
 * TP entry); the first step tells them to ask the organiser. */
static void test_TX_4_organiser_decision_not_at_the_table(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tbl_flow_step st;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    st = step_of(x);
    expect(x, TBL_ASK_CHOICE, "How did the game end?");
    assert_int_equal(st.n_options, 4); /* played, 2 defaults, board lost */
    for (int i = 0; i < st.n_options; i++)
        if (strstr(st.options[i], "TX-4") || strstr(st.options[i], "rganiser"))
            fail_msg("option \"%s\" offers the organiser's decision",
                     st.options[i]);
    assert_non_null(strstr(st.text, "Ask the organiser"));
    /* No path through the flow asks for TP: every option leads to scores,
     * a default or the board rule. */
    for (int i = 0; i < st.n_options; i++) {
        fx_begin(x, TBL_FLOW_RESULT, 1);
        ok(x, i);
        for (int n = 0; n < 40 && step_of(x).ask != TBL_ASK_DONE; n++) {
            struct tbl_flow_step k = step_of(x);
            if (strstr(k.title, "TP"))
                fail_msg("option %d asks \"%s\"", i, k.title);
            ok(x, k.ask == TBL_ASK_NUMBER ? k.min : 0);
        }
        if (x->f.has_result)
            assert_false(x->f.result.players[0].has_tp);
    }
    fx_free(x);
}

/* TX seed 001 section 13: a board that cannot be restored is a draw when
 * both clocks together show more than 10 minutes (here 6:00 + 4:01). */
static void test_TX_s13_board_lost_draw(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;
    struct tny_table t;
    int64_t tp[2];
    struct tny_diag d = {{0}};

    (void)s;
    x->facts.has_chess = true;
    x->facts.chess_used_ms[0] = 6 * 60000;
    x->facts.chess_used_ms[1] = 4 * 60000 + 1000;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Board cannot be restored"));
    expect(x, TBL_ASK_INFO, "Board cannot be restored");
    ok(x, 0);
    /* over 10 minutes: no restart offered, straight to the summary */
    expect(x, TBL_ASK_INFO, "Result");
    expect_line(x, "clocks together 10:01: draw (seed 001 s13)");
    expect_line(x, "TP: Anna 10.0, Ben 10.0");
    r = done_result(x);
    assert_true(r.draw);
    assert_false(r.players[0].has_score);
    assert_int_equal(tny_wire_result_to_table(&x->g.ev, x->g.stage, &x->g.table,
                                              &r, "result", &t, &d),
                     0);
    assert_true(t.result.draw);
    tny_tantrix_tp(&x->g.ev.format, &t.result, tp);
    assert_int_equal(tp[0], 10 * TNY_POINT_SCALE);
    assert_int_equal(tp[1], 10 * TNY_POINT_SCALE);
    fx_free(x);
}

/* Seed 001 section 13: with both clocks together at most 10 minutes the
 * game may be restarted (the organiser agreeing): the flow ends with no
 * result; declining it is the draw. */
static void test_TX_s13_board_lost_restart_at_most_10_minutes(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tny_wire_result r;

    (void)s;
    x->facts.has_chess = true;
    x->facts.chess_used_ms[0] = 6 * 60000;
    x->facts.chess_used_ms[1] = 4 * 60000; /* together exactly 10:00 */
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Board cannot be restored"));
    ok(x, 0);
    expect(x, TBL_ASK_CHOICE, "Restart or draw");
    assert_non_null(strstr(step_of(x).text, "10:00"));
    ok(x, option_of(x, "Restart"));
    expect(x, TBL_ASK_INFO, "Restart the game");
    ok(x, 0);
    expect(x, TBL_ASK_DONE, NULL);
    assert_true(x->f.restart);
    expect_line(x, "restart (seed 001 s13)");
    assert_int_equal(tbl_flow_result(&x->f, &r, NULL), TNY_ESTATE);
    fx_free(x);

    /* No chess clock: the players type the full minutes together; 9 (up
     * to 9:59) may restart, here they choose the draw; 10 (up to 10:59)
     * is a draw without the choice. */
    x = fx_new("tantrix", "swiss", 2);
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Board cannot be restored"));
    ok(x, 0);
    expect(x, TBL_ASK_NUMBER, "Both clocks together");
    ok(x, 9);
    ok(x, option_of(x, "Draw"));
    r = done_result(x);
    assert_true(r.draw);
    fx_free(x);
    x = fx_new("tantrix", "swiss", 2);
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "Board cannot be restored"));
    ok(x, 0);
    ok(x, 10);
    expect(x, TBL_ASK_INFO, "Result");
    r = done_result(x);
    assert_true(r.draw);
    fx_free(x);
}

static void test_TX_3_timeout_shows_clock_penalties(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);

    (void)s;
    x->facts.has_chess = true;
    x->facts.chess_used_ms[0] = 19 * 60000 + 59999;
    x->facts.chess_used_ms[1] = 20 * 60000; /* 20:00 is already over */
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    assert_non_null(strstr(step_of(x).text, "20 minutes"));
    ok(x, 0);
    expect_line(x, "Anna clock 19:59: no penalty");
    expect_line(x, "Ben clock 20:00: 1.0 TP to Anna");
    fx_free(x);
}

/* ---- Agricola ----------------------------------------------------------- */

static void test_AG_4_seats_and_start_from_assignment(void **s)
{
    struct fx *x = fx_new("agricola", "prelim", 4);
    struct tbl_flow_step st;

    (void)s;
    x->a.seats[2].first_player = true;
    x->a.n_notes = 2;
    snprintf(x->a.notes[0], TNY_WIRE_NOTE_MAX, "Banned: Lover");
    snprintf(x->a.notes[1], TNY_WIRE_NOTE_MAX, "Draft 10 cards");
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    st = step_of(x);
    assert_non_null(strstr(st.text, "Seat 4: Dan"));
    ok(x, 0);
    /* AG-15: the assignment's notes (banned cards, draft) come before the
     * starting player, who is drawn after the draft (seed S1) */
    expect(x, TBL_ASK_INFO, "Note 1/2");
    assert_string_equal(step_of(x).text, "Banned: Lover");
    ok(x, 0);
    expect(x, TBL_ASK_INFO, "Note 2/2");
    ok(x, 0);
    st = step_of(x);
    /* AG-4: Cid starts, then to the right; the 4th player gets food */
    assert_non_null(strstr(st.text, "Cid starts (the hub's lot)"));
    assert_non_null(strstr(st.text, "Dan, Anna, Ben."));
    assert_non_null(strstr(st.text, "Ben plays last and gets 1 extra food"));
    ok(x, 0);
    expect_line(x, "Ben: 1 extra food at the start of round 5");
    assert_int_equal(x->f.carry.starter, 2);
    fx_free(x);
}

static void test_AG_1_vp_ip_bp_per_seat(void **s)
{
    struct fx *x = fx_new("agricola", "prelim", 4);
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    expect(x, TBL_ASK_NUMBER, "Anna (seat 1): victory points");
    refused(x, 201, TNY_ERANGE, "-50..200");
    refused(x, -51, TNY_ERANGE, "-50..200");
    ok(x, 45);
    expect(x, TBL_ASK_NUMBER, "improvement points");
    refused(x, -1, TNY_ERANGE, "0..100");
    ok(x, 8);
    expect(x, TBL_ASK_NUMBER, "bonus points");
    ok(x, 3);
    for (int p = 1; p < 4; p++) {
        ok(x, 40 - p);
        ok(x, p);
        ok(x, 0);
    }
    expect_line(x, "Anna: 45 VP, 8 IP, 3 BP (place 1)");
    expect_line(x, "Dan: 37 VP, 3 IP, 0 BP (place 4)");
    r = done_result(x);
    assert_int_equal(r.n_players, 4);
    assert_int_equal(r.players[0].score, 45);
    assert_int_equal(r.players[0].ip, 8);
    assert_int_equal(r.players[0].bp, 3);
    fx_free(x);
}

static void test_AG_14_timeout_speed_play(void **s)
{
    struct fx *x = fx_new("agricola", "prelim", 4);

    (void)s;
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    assert_non_null(strstr(step_of(x).text, "speed play"));
    ok(x, 0);
    expect_line(x, "30 s per action");
    fx_free(x);
}

/* ---- A Game of Thrones ----------------------------------------------------
 */

/* GT-13 wizard answers after "nobody won". */
static void gt_timeout(struct fx *x, const int32_t *v, int n)
{
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_CHOICE, "Time is up");
    ok(x, option_of(x, "Nobody won"));
    oks(x, v, n);
}

/* Issue 24: the time-up screen's rule and question are two sentences (it
 * read "record a normal win Then: did a player win?"). */
static void test_GT_13_time_up_text_is_two_sentences(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);

    (void)s;
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_CHOICE, "Time is up");
    assert_string_equal(step_of(x).text,
                        "Time is up: finish the current round up to its "
                        "taxation phase; if a player has won, record a normal "
                        "win. Did a player win?");
    fx_free(x);
}

static void test_GT_13_seed_example_fewer_power_needed(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);

    (void)s;
    snprintf(x->a.seats[0].name, TNY_WIRE_TEXT_MAX, "Daniel");
    snprintf(x->a.seats[1].name, TNY_WIRE_TEXT_MAX, "Emilia");
    /* seed 003: Daniel has 11 power (needs 4), Emilia 13 (needs 2) */
    gt_timeout(x, (const int32_t[]){4, 2}, 2);
    expect(x, TBL_ASK_INFO, "Time-out"); /* nothing more asked */
    expect_line(x, "Modified win: Emilia (fewer power needed");
    assert_true(x->f.carry.has_gt_timeout);
    assert_int_equal(x->f.carry.gt_timeout_winner, 1);
    assert_true(x->f.carry.gt_timeout_modified);
    fx_free(x);
}

static void test_GT_13_each_criterion_in_order(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);

    (void)s;
    /* 2: more cards in the draw deck */
    gt_timeout(x, (const int32_t[]){3, 3, 20, 25}, 4);
    expect(x, TBL_ASK_INFO, "Time-out");
    expect_line(x, "Modified win: Ben (more cards");
    /* 3: dominance in the last round */
    gt_timeout(x, (const int32_t[]){3, 3, 20, 20, 0}, 5);
    expect_line(x, "Modified win: Anna (won dominance");
    /* 4: fewer characters in the dead pile (nobody won dominance) */
    gt_timeout(x, (const int32_t[]){3, 3, 20, 20, 2, 5, 4}, 7);
    expect_line(x, "Modified win: Ben (fewer characters");
    /* 5: the first player chooses */
    gt_timeout(x, (const int32_t[]){3, 3, 20, 20, 2, 4, 4}, 7);
    expect(x, TBL_ASK_CHOICE, "First player");
    ok(x, 1);
    expect(x, TBL_ASK_CHOICE, "Ben: who gets the win");
    assert_int_equal(step_of(x).seat, 1);
    ok(x, 0);
    expect_line(x, "Modified win: Anna (chosen by the first player");
    fx_free(x);
}

static void test_GT_13_ranges_refused(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);

    (void)s;
    gt_timeout(x, NULL, 0);
    expect(x, TBL_ASK_NUMBER, "power needed");
    refused(x, 0, TNY_ERANGE, "1..15");
    refused(x, 16, TNY_ERANGE, "1..15");
    fx_free(x);
}

static void test_GT_1_modified_win_prefilled_from_timeout(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);
    struct tbl_flow_step st;
    struct tny_wire_result r;

    (void)s;
    gt_timeout(x, (const int32_t[]){4, 2}, 2);
    ok(x, 0);
    tbl_flow_carry(&x->f, &x->facts);
    fx_begin(x, TBL_FLOW_RESULT, 1);
    st = step_of(x);
    assert_true(st.has_default);
    assert_int_equal(st.default_value, 1);
    ok(x, st.default_value);
    st = step_of(x);
    assert_int_equal(st.default_value, 1); /* modified win */
    ok(x, st.default_value);
    expect_line(x, "Ben: modified win (4 points), Anna: loss (0)");
    r = done_result(x);
    assert_true(r.modified);
    assert_string_equal(r.winner_id, "p2");
    fx_free(x);
}

static void test_GT_9_best_of_three_until_two_wins(void **s)
{
    struct fx *x = fx_new("got-lcg2", "elimination", 2);
    struct tny_wire_result r;

    (void)s;
    x->a.best_of_three = true;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    expect(x, TBL_ASK_CHOICE, "Game 1");
    ok(x, 0);
    expect(x, TBL_ASK_CHOICE, "Game 2");
    ok(x, 1);
    expect(x, TBL_ASK_CHOICE, "Game 3");
    ok(x, 0);
    expect_line(x, "Anna wins the match 2-1");
    r = done_result(x);
    assert_int_equal(r.n_games, 3);
    assert_string_equal(r.games[1], "p2");
    assert_string_equal(r.winner_id, "p1");
    /* 2-0 ends after two games */
    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, 1);
    ok(x, 1);
    r = done_result(x);
    assert_int_equal(r.n_games, 2);
    assert_string_equal(r.winner_id, "p2");
    fx_free(x);
}

static void test_GT_14_factions_and_first_player(void **s)
{
    struct fx *x = fx_new("got-lcg2", "swiss", 2);

    (void)s;
    snprintf(x->a.seats[0].faction, TNY_WIRE_TEXT_MAX, "House Stark");
    snprintf(x->a.seats[1].agenda, TNY_WIRE_TEXT_MAX,
             "The Lord of the "
             "Crossing");
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    assert_non_null(strstr(step_of(x).text, "Anna: House Stark"));
    assert_non_null(strstr(step_of(x).text, "agenda The Lord of the Crossing"));
    ok(x, 0);
    expect(x, TBL_ASK_CHOICE, "First player");
    ok(x, 1);
    expect_line(x, "Ben is the first player (coin or die)");
    x->a.seats[0].first_player = true; /* the hub's lot wins */
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    ok(x, 0);
    expect_line(x, "Anna is the first player (the hub's lot)");
    fx_free(x);
}

/* ---- Catan --------------------------------------------------------------- */

static void test_CT_9_tied_highest_reroll_only_tied(void **s)
{
    struct fx *x = fx_new("catan", "round", 4);

    (void)s;
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    ok(x, option_of(x, "type"));
    refused(x, 1, TNY_ERANGE, "2..12");
    refused(x, 13, TNY_ERANGE, "2..12");
    oks(x, (const int32_t[]){9, 11, 11, 5}, 4);
    expect(x, TBL_ASK_INFO, "Dice");
    assert_non_null(strstr(step_of(x).text, "Ben and Cid roll again"));
    ok(x, 0);
    assert_int_equal(step_of(x).seat, 1); /* only the tied players */
    ok(x, 6);
    assert_int_equal(step_of(x).seat, 2);
    ok(x, 8);
    ok(x, 0);
    expect(x, TBL_ASK_INFO, "Cid starts");
    assert_non_null(strstr(step_of(x).text, "Cid, Dan, Anna, Ben."));
    assert_int_equal(x->f.carry.starter, 2);
    fx_free(x);
}

static void test_CT_9_virtual_dice_fair(void **s)
{
    int n = tu_property_cases(2000), starts[4] = {0};

    (void)s;
    for (int i = 0; i < n; i++) {
        struct fx *x = fx_new("catan", "round", 4);
        fx_begin(x, TBL_FLOW_PREGAME, (uint64_t)i);
        ok(x, option_of(x, "virtual"));
        while (!x->f.carry.has_starter)
            ok(x, 0);
        starts[x->f.carry.starter]++;
        fx_free(x);
    }
    for (int k = 0; k < 4; k++)
        assert_true(starts[k] > n * 20 / 100);
}

static void test_CT_8_turns_after_timeout(void **s)
{
    struct fx *x = fx_new("catan", "round", 4);

    (void)s;
    x->facts.has_starter = true;
    x->facts.starter = 0;
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_CHOICE, "Whose turn");
    ok(x, 2);
    /* Cid's turn: Dan finishes the round, then two rounds of 4 */
    assert_non_null(strstr(step_of(x).text, "9 more turns"));
    ok(x, 0);
    expect_line(x, "9 more turns after Cid's");
    /* no starter known: asked first */
    x->facts.has_starter = false;
    fx_begin(x, TBL_FLOW_TIMEOUT, 1);
    expect(x, TBL_ASK_CHOICE, "first turn");
    ok(x, 1);
    ok(x, 0); /* Anna's turn, Ben started: round ends after Anna */
    ok(x, 0);
    expect_line(x, "8 more turns");
    fx_free(x);
}

/* CT-4 "counted at most 10" (seed 004: a player with more than 10 game
 * points counts 10): the VP as played are entered in the engine's range
 * and recorded, 11 is shown as counting 10. */
static void test_CT_4_game_points_at_most_10(void **s)
{
    struct fx *x = fx_new("catan", "round", 3);
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    expect(x, TBL_ASK_NUMBER, "Anna (seat 1): victory points");
    refused(x, 21, TNY_ERANGE, "0..20");
    refused(x, -1, TNY_ERANGE, "CT-4");
    oks(x, (const int32_t[]){11, 7, 8}, 3);
    expect_line(x, "Anna: 11 VP, counted 10 game points (place 1)");
    expect_line(x, "Ben: 7 game points (place 3)");
    r = done_result(x);
    assert_int_equal(r.n_players, 3);
    assert_int_equal(r.players[0].score, 11);
    assert_int_equal(r.players[2].score, 8);
    fx_free(x);
}

/* The field a NUMBER step of a RESULT flow asks for, by its title; -1 for
 * a step that is not a result field (clock minutes, army numbers). */
static int field_of(const char *title)
{
    static const struct {
        const char *suffix;
        enum tny_result_field f;
    } map[] = {{": score", TNY_RF_SCORE},
               {": victory points", TNY_RF_VP},
               {": improvement points", TNY_RF_IP},
               {": bonus points", TNY_RF_BP},
               {"HQ difference", TNY_RF_HQ_DIFF}};

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strstr(title, map[i].suffix))
            return (int)map[i].f;
    return -1;
}

/* CM-6, issue 8 part 7: every numeric result field a table asks for has
 * exactly the engine's range (tny_result_range, which the hub checks), for
 * every game: walked through each game's RESULT flow, the first option of
 * each choice, the lowest number. */
static void test_CM_6_table_ranges_are_the_engines(void **s)
{
    static const struct {
        const char *game, *preset, *stage;
        int seats;
        unsigned want; /* fields that must be asked (1 << field) */
    } cases[] = {
        {"catan", "catan", "round", 4, 1u << TNY_RF_VP},
        {"agricola", "agricola", "prelim", 4,
         1u << TNY_RF_VP | 1u << TNY_RF_IP | 1u << TNY_RF_BP},
        {"tantrix", "tantrix", "swiss", 2, 1u << TNY_RF_SCORE},
        {"neuroshima-hex", "neuroshima-hex", "swiss", 2, 1u << TNY_RF_HQ_DIFF},
        {"two-player", "xwing-2.0", "swiss", 2, 1u << TNY_RF_SCORE},
        {"two-player", "swiss-2p", "swiss", 2, 1u << TNY_RF_SCORE},
    };

    (void)s;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct fx *x = fx_new(cases[c].game, cases[c].stage, cases[c].seats);
        unsigned seen = 0;
        snprintf(x->a.format_name, sizeof(x->a.format_name), "%s",
                 cases[c].preset);
        fx_begin(x, TBL_FLOW_RESULT, 1);
        for (int n = 0; n < 64 && step_of(x).ask != TBL_ASK_DONE; n++) {
            struct tbl_flow_step st = step_of(x);
            int f = st.ask == TBL_ASK_NUMBER ? field_of(st.title) : -1;
            if (f >= 0) {
                int64_t lo, hi;
                tny_result_range(&x->g.ev.format, (enum tny_result_field)f, &lo,
                                 &hi);
                if (st.min != lo || st.max != hi)
                    fail_msg("%s \"%s\": table %d..%d, engine %lld..%lld",
                             cases[c].preset, st.title, (int)st.min,
                             (int)st.max, (long long)lo, (long long)hi);
                seen |= 1u << f;
            }
            ok(x, st.ask == TBL_ASK_NUMBER ? st.min : 0);
        }
        if ((seen & cases[c].want) != cases[c].want)
            fail_msg("%s: fields asked 0x%x, expected 0x%x", cases[c].preset,
                     seen, cases[c].want);
        fx_free(x);
    }
}

/* ---- all flows ------------------------------------------------------------
 */

static void test_flow_back_and_done(void **s)
{
    struct fx *x = fx_new("catan", "round", 4);
    struct tny_wire_result r;
    struct tny_diag d;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    assert_false(tbl_flow_back(&x->f));
    ok(x, 5);
    ok(x, 6);
    assert_true(tbl_flow_back(&x->f));
    expect(x, TBL_ASK_NUMBER, "Ben");
    assert_int_equal(tbl_flow_result(&x->f, &r, &d), TNY_ESTATE);
    oks(x, (const int32_t[]){9, 10, 4}, 3);
    expect(x, TBL_ASK_INFO, "Result");
    refused(x, 1, TNY_ERANGE, "Enter");
    ok(x, 0);
    expect(x, TBL_ASK_DONE, NULL);
    refused(x, 0, TNY_ESTATE, "done");
    assert_int_equal(done_result(x).players[1].score, 9);
    /* a PREGAME flow has no result */
    fx_begin(x, TBL_FLOW_PREGAME, 1);
    assert_int_equal(tbl_flow_result(&x->f, &r, &d), TNY_ESTATE);
    fx_free(x);
}

static void test_flow_begin_refuses_idle_table(void **s)
{
    struct fx *x = fx_new("tantrix", "swiss", 2);
    struct tbl_flow f;
    struct tny_diag d;
    struct tny_wire_assignment idle;

    (void)s;
    fx_game(x);
    idle = x->a;
    idle.table = 0;
    idle.n_seats = 0;
    assert_int_equal(
        tbl_flow_begin(&f, TBL_FLOW_RESULT, &x->g, &idle, NULL, 1, &d),
        TNY_EINVAL);
    assert_int_equal(f.step.ask, TBL_ASK_DONE);
    fx_free(x);
}

/* A random table of a random format, ready for any flow. */
static struct fx *random_table(struct tny_rng *rng)
{
    static const char *const games[] = {"neuroshima-hex", "tantrix", "agricola",
                                        "got-lcg2", "catan"};
    int gi = (int)tny_rng_below(rng, 5);
    struct fx *x;
    struct tny_format fmt;

    switch (gi) {
    case 0:
    case 1:
    case 3:
        x = fx_new(games[gi],
                   gi == 1 || tny_rng_below(rng, 3) ? "swiss" : "elimination",
                   2);
        break;
    case 2: x = fx_new(games[gi], "prelim", 4); break;
    default: x = fx_new(games[gi], "round", 3 + (int)tny_rng_below(rng, 2));
    }
    x->a.best_of_three = tny_rng_below(rng, 2);
    if (gi == 0) {
        assert_int_equal(tny_format_preset("neuroshima-hex", &fmt, NULL), 0);
        for (int p = 0; p < 2; p++) {
            int32_t idx[TNY_MAX_ARMIES];
            for (int32_t k = 0; k < fmt.n_armies; k++)
                idx[k] = k;
            tny_rng_shuffle_i32(rng, idx, fmt.n_armies);
            x->a.seats[p].n_armies = 1 + (int32_t)tny_rng_below(rng, 5);
            if (tny_rng_below(rng, 4) == 0)
                x->a.seats[p].n_armies = (int32_t)tny_rng_below(rng, 2);
            for (int32_t k = 0; k < x->a.seats[p].n_armies; k++)
                snprintf(x->a.seats[p].armies[k], TNY_NAME_MAX, "%s",
                         fmt.armies[tny_rng_below(rng, 3) ? idx[k] : k]);
        }
        x->a.has_clock = tny_rng_below(rng, 2);
        x->a.clock.unlimited = tny_rng_below(rng, 2);
    }
    if (gi == 1) {
        static const char *const col[] = {"red", "yellow", "blue", "green",
                                          "white"};
        for (int p = 0; p < 2; p++) {
            x->a.seats[p].n_colours = (int32_t)tny_rng_below(rng, 3);
            for (int k = 0; k < x->a.seats[p].n_colours; k++)
                snprintf(x->a.seats[p].colours[k], TNY_NAME_MAX, "%s",
                         col[tny_rng_below(rng, 5)]);
            x->a.seats[p].colour_blind = tny_rng_below(rng, 4) == 0;
        }
        x->facts.has_chess = tny_rng_below(rng, 2);
        for (int p = 0; p < 2; p++)
            x->facts.chess_used_ms[p] = (int64_t)tny_rng_below(rng, 30 * 60000);
    }
    if (tny_rng_below(rng, 2))
        x->a.seats[tny_rng_below(rng, (uint64_t)x->a.n_seats)].first_player =
            true;
    x->facts.has_starter = tny_rng_below(rng, 2);
    x->facts.starter = (int32_t)tny_rng_below(rng, (uint64_t)x->a.n_seats);
    x->facts.has_gt_timeout = tny_rng_below(rng, 2);
    x->facts.gt_timeout_winner = (int32_t)tny_rng_below(rng, 2);
    x->facts.gt_timeout_modified = tny_rng_below(rng, 2);
    return x;
}

/* A random answer to st: mostly in range, sometimes not. */
static int32_t random_answer(struct tny_rng *rng,
                             const struct tbl_flow_step *st)
{
    bool wild = tny_rng_below(rng, 8) == 0;

    switch (st->ask) {
    case TBL_ASK_CHOICE:
        return wild ? (int32_t)tny_rng_below(rng, 12) - 2
                    : (int32_t)tny_rng_below(rng, (uint64_t)st->n_options);
    case TBL_ASK_NUMBER:
        if (wild)
            return st->min - 3 +
                   (int32_t)tny_rng_below(rng,
                                          (uint64_t)(st->max - st->min + 7));
        if (tny_rng_below(rng, 3) == 0)
            return tny_rng_below(rng, 2) ? st->min : st->max;
        return st->min +
               (int32_t)tny_rng_below(rng, (uint64_t)(st->max - st->min + 1));
    default: return wild ? 1 : 0;
    }
}

static void assert_same_flow(const struct tbl_flow *a, const struct tbl_flow *b)
{
    assert_int_equal(a->n_answers, b->n_answers);
    assert_memory_equal(a->answers, b->answers,
                        sizeof(int32_t) * (size_t)a->n_answers);
    if (memcmp(&a->step, &b->step, sizeof(a->step)) != 0)
        fail_msg("step \"%s\" / \"%s\" text \"%s\" / \"%s\"", a->step.title,
                 b->step.title, a->step.text, b->step.text);
    assert_int_equal(a->has_result, b->has_result);
    assert_memory_equal(&a->result, &b->result, sizeof(a->result));
    assert_int_equal(a->n_lines, b->n_lines);
    assert_memory_equal(a->lines, b->lines,
                        sizeof(a->lines[0]) * (size_t)a->n_lines);
    assert_int_equal(a->carry.has_starter, b->carry.has_starter);
    assert_int_equal(a->carry.starter, b->carry.starter);
    assert_memory_equal(a->carry.nh_army, b->carry.nh_army,
                        sizeof(a->carry.nh_army));
    assert_int_equal(a->carry.gt_timeout_winner, b->carry.gt_timeout_winner);
}

/* CM-6: random keypad input never yields a result the hub refuses; every
 * refused answer leaves the flow as it was; replaying the kept answers
 * with the same seed restores the flow exactly (lots included). */
static void test_CM_6_random_answers_valid_results_and_replay(void **s)
{
    int n = tu_property_cases(3000), done = 0;
    struct tny_rng rng;

    (void)s;
    tny_rng_seed(&rng, 20240611);
    for (int i = 0; i < n; i++) {
        struct fx *x = random_table(&rng);
        enum tbl_flow_kind kind = (enum tbl_flow_kind)tny_rng_below(&rng, 3);
        uint64_t seed = tny_rng_next(&rng);
        struct tbl_flow *again;
        const int32_t *ans;
        int32_t n_ans;

        fx_begin(x, kind, seed);
        for (int k = 0; k < 300 && x->f.step.ask != TBL_ASK_DONE; k++) {
            struct tny_diag d = {{0}};
            struct tbl_flow before = x->f;
            if (tny_rng_below(&rng, 10) == 0) {
                (void)tbl_flow_back(&x->f);
                continue;
            }
            int32_t v = random_answer(&rng, &x->f.step);
            int rc = tbl_flow_answer(&x->f, v, &d);
            if (rc < 0) {
                assert_true(rc == TNY_ERANGE || rc == TNY_EINVAL);
                assert_true(d.msg[0] != '\0');
                assert_same_flow(&x->f, &before);
            }
        }
        if (x->f.step.ask == TBL_ASK_DONE && kind == TBL_FLOW_RESULT &&
            x->f.restart) { /* TX seed 001 s13: no result by design */
            struct tny_wire_result r;
            assert_int_equal(tbl_flow_result(&x->f, &r, NULL), TNY_ESTATE);
        } else if (x->f.step.ask == TBL_ASK_DONE && kind == TBL_FLOW_RESULT) {
            (void)done_result(x);
            done++;
        }
        again = calloc(1, sizeof(*again));
        assert_non_null(again);
        assert_int_equal(
            tbl_flow_begin(again, kind, &x->g, &x->a, &x->facts, seed, NULL),
            0);
        n_ans = tbl_flow_answers(&x->f, &ans);
        for (int32_t k = 0; k < n_ans; k++)
            assert_int_equal(tbl_flow_answer(again, ans[k], NULL), 0);
        assert_same_flow(again, &x->f);
        free(again);
        fx_free(x);
    }
    assert_true(done > n / 20); /* the walk does reach results */
}

/* ---- the two-player game (issue 10) ------------------------------------ */

static struct fx *tp(const char *preset)
{
    struct fx *x = fx_new("two-player", "swiss", 2);
    snprintf(x->a.format_name, sizeof(x->a.format_name), "%s", preset);
    return x;
}

/* xwing-2.0: both scores, the higher wins; equal scores ask who won (no
 * draws); the format's range; only the outcomes the format allows. */
static void test_two_player_scores_and_the_format_outcomes(void **s)
{
    struct fx *x = tp("xwing-2.0");
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    expect(x, TBL_ASK_CHOICE, "How did the game end?");
    assert_int_equal(step_of(x).n_options, 5); /* scores, 2 wins, ID, DL */
    option_of(x, "An intentional draw");
    option_of(x, "A double loss");
    ok(x, option_of(x, "Type both scores"));
    expect(x, TBL_ASK_NUMBER, "Anna (seat 1): score");
    refused(x, 201, TNY_ERANGE, "0..200");
    ok(x, 83);
    ok(x, 200);
    expect_line(x, "Ben wins");
    r = done_result(x);
    assert_string_equal(r.winner_id, "p2");
    assert_int_equal(r.players[0].score, 83);

    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, 0);
    ok(x, 100);
    ok(x, 100);
    expect(x, TBL_ASK_CHOICE, "Equal scores: who won?");
    ok(x, 0);
    r = done_result(x);
    assert_string_equal(r.winner_id, "p1");

    fx_begin(x, TBL_FLOW_RESULT, 1);
    ok(x, option_of(x, "An intentional draw"));
    r = done_result(x);
    assert_true(r.intentional_draw);
    fx_free(x);
}

/* swiss-2p allows draws: equal scores are a draw, and "A draw" is offered. */
static void test_two_player_equal_scores_draw_where_allowed(void **s)
{
    struct fx *x = tp("swiss-2p");
    struct tny_wire_result r;

    (void)s;
    fx_begin(x, TBL_FLOW_RESULT, 1);
    option_of(x, "A draw");
    ok(x, 0);
    ok(x, 7);
    ok(x, 7);
    expect_line(x, "Draw");
    r = done_result(x);
    assert_true(r.draw);
    fx_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_12_different_first_choices_each_plays_first),
        cmocka_unit_test(test_NH_12_first_choice_hidden_from_the_second_player),
        cmocka_unit_test(test_NH_11_only_available_armies_offered),
        cmocka_unit_test(test_NH_10_hook_swap_token_before_shuffle),
        cmocka_unit_test(test_NH_12_same_first_choice_lot_fair),
        cmocka_unit_test(test_NH_12_only_one_with_second_choice_plays_it),
        cmocka_unit_test(test_NH_12_beginner_exception_both_last_army),
        cmocka_unit_test(test_NH_14_dancer_sets_up_first),
        cmocka_unit_test(test_NH_14_lot_picks_decider_who_chooses),
        cmocka_unit_test(test_NH_13_swiss_termination_steps),
        cmocka_unit_test(test_NH_13_final_has_no_time_limit),
        cmocka_unit_test(test_NH_1_win_records_hq_difference_and_armies),
        cmocka_unit_test(test_NH_1_draw_records_zero),
        cmocka_unit_test(test_NH_2_dancer_caps_hq_difference_entry),
        cmocka_unit_test(test_NH_12_both_never_field_the_same_army),
        cmocka_unit_test(test_NH_11_pregame_outcome_prefills_army_played),
        cmocka_unit_test(test_TX_11_higher_tile_starts),
        cmocka_unit_test(test_TX_11_equal_tiles_draw_again),
        cmocka_unit_test(test_TX_11_table_draw_fair),
        cmocka_unit_test(test_TX_10_colours_shown),
        cmocka_unit_test(test_TX_3_clock_prefilled_penalty_previewed),
        cmocka_unit_test(test_TX_3_typed_minutes),
        cmocka_unit_test(test_TX_5_default_win),
        cmocka_unit_test(test_TX_4_organiser_decision_not_at_the_table),
        cmocka_unit_test(test_TX_3_timeout_shows_clock_penalties),
        cmocka_unit_test(test_AG_4_seats_and_start_from_assignment),
        cmocka_unit_test(test_AG_1_vp_ip_bp_per_seat),
        cmocka_unit_test(test_AG_14_timeout_speed_play),
        cmocka_unit_test(test_GT_13_time_up_text_is_two_sentences),
        cmocka_unit_test(test_GT_13_seed_example_fewer_power_needed),
        cmocka_unit_test(test_GT_13_each_criterion_in_order),
        cmocka_unit_test(test_GT_13_ranges_refused),
        cmocka_unit_test(test_GT_1_modified_win_prefilled_from_timeout),
        cmocka_unit_test(test_GT_9_best_of_three_until_two_wins),
        cmocka_unit_test(test_two_player_scores_and_the_format_outcomes),
        cmocka_unit_test(test_two_player_equal_scores_draw_where_allowed),
        cmocka_unit_test(test_GT_14_factions_and_first_player),
        cmocka_unit_test(test_CT_9_tied_highest_reroll_only_tied),
        cmocka_unit_test(test_CT_9_virtual_dice_fair),
        cmocka_unit_test(test_CT_8_turns_after_timeout),
        cmocka_unit_test(test_CT_4_game_points_at_most_10),
        cmocka_unit_test(test_CM_6_table_ranges_are_the_engines),
        cmocka_unit_test(test_flow_back_and_done),
        cmocka_unit_test(test_flow_begin_refuses_idle_table),
        cmocka_unit_test(test_CM_6_random_answers_valid_results_and_replay),
        cmocka_unit_test(test_TX_s13_board_lost_draw),
        cmocka_unit_test(test_CM_4_table_lot_reported_with_result),
        cmocka_unit_test(test_TX_s13_board_lost_restart_at_most_10_minutes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
