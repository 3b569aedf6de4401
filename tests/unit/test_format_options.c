/* test_format_options.c - the engine's format options and event builders
 * used without JSON (format_options.h, tny_format_check,
 * tny_event_add_army): the same values and messages as the JSON adapter's,
 * since the table client and the adapter now share them (docs/formats.md
 * "Options"). */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "tny/format_options.h"
#include "tny/json_io.h"

static void preset(const char *name, struct tny_format *f)
{
    struct tny_diag d;
    if (tny_format_preset(name, f, &d) != 0)
        fail_msg("%s: %s", name, d.msg);
}

static struct tny_option_value int_value(int64_t x)
{
    struct tny_option_value v = {.type = TNY_OPTION_INT, .number = x};
    return v;
}

/* A typed option sets the same format as the same option in an event
 * file's "options". */
static void test_options_typed_equal_json(void **state)
{
    struct tny_format typed, parsed;
    struct tny_diag d;
    const struct tny_option_value rr = {.type = TNY_OPTION_NAME,
                                        .name = "round_robin"};
    (void)state;
    preset("swiss-2p", &typed);
    assert_int_equal(
        tny_format_set_option(&typed, "pairing", &rr, "options", &d), 0);
    struct tny_option_value five = int_value(5);
    assert_int_equal(
        tny_format_set_option(&typed, "swiss_rounds", &five, "options", &d), 0);
    preset("swiss-2p", &parsed);
    json_t *opts =
        json_pack("{s:s,s:i}", "pairing", "round_robin", "swiss_rounds", 5);
    assert_non_null(opts);
    assert_int_equal(tny_format_apply_options(&parsed, opts, "options", &d), 0);
    json_decref(opts);
    assert_int_equal(typed.stages[0].kind, TNY_STAGE_ROUND_ROBIN);
    assert_int_equal(typed.stages[0].rounds, 5);
    assert_memory_equal(&typed, &parsed, sizeof(typed));
}

/* Ranges and rules of docs/formats.md's option table, with the paths and
 * words of a format file's messages. */
static void test_options_refused_with_reason(void **state)
{
    struct tny_format f;
    struct tny_diag d;
    (void)state;

    preset("neuroshima-hex", &f);
    struct tny_option_value v = int_value(6);
    assert_int_equal(tny_format_set_option(&f, "cut", &v, "options", &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "options.cut: 6 is not a power of two (0 = no "
                               "elimination stage)");
    v = int_value(1001);
    assert_int_equal(
        tny_format_set_option(&f, "swiss_rounds", &v, "event.options", &d),
        TNY_EINVAL);
    assert_string_equal(
        d.msg,
        "event.options.swiss_rounds: expected an integer 0..1000, got 1001");
    v = int_value(3);
    assert_int_equal(tny_format_set_option(&f, "rounds", &v, "options", &d),
                     TNY_EINVAL);
    assert_non_null(strstr(d.msg, "options.rounds: unknown option (options "
                                  "of format \"neuroshima-hex\": "));

    /* CT-8: a Catan game is given at least 90 minutes (0 = no limit). */
    preset("catan", &f);
    v = int_value(60);
    assert_int_equal(
        tny_format_set_option(&f, "round_timer_minutes", &v, "options", &d),
        TNY_EINVAL);
    assert_string_equal(
        d.msg, "options.round_timer_minutes: expected an integer 90..1440, "
               "got 60");
    v = int_value(0);
    assert_int_equal(
        tny_format_set_option(&f, "round_timer_minutes", &v, "options", &d), 0);

    /* A name the option does not have, and a value of the wrong type. */
    preset("swiss-2p", &f);
    struct tny_option_value name = {.type = TNY_OPTION_NAME, .name = "gorn"};
    assert_int_equal(tny_format_set_option(&f, "pairing", &name, "o", &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "o.pairing: unknown pairing \"gorn\" (expected "
                               "one of: swiss, round_robin)");
    assert_int_equal(tny_format_set_option(&f, "draws", &name, "o", &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "o.draws: expected true or false");

    /* Points below the range (TNY_POINT_SCALE units). */
    struct tny_option_value pts = {.type = TNY_OPTION_POINTS,
                                   .number = -TNY_POINT_SCALE};
    assert_int_equal(tny_format_set_option(&f, "bye_points", &pts, "o", &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "o.bye_points: expected points 0..1000");
}

/* The whole-format check after options: a round robin turned back into a
 * Swiss stage without rounds is not a format. */
static void test_options_give_invalid_format(void **state)
{
    struct tny_format f;
    struct tny_diag d;
    const struct tny_option_value rr = {.type = TNY_OPTION_NAME,
                                        .name = "round_robin"},
                                  sw = {.type = TNY_OPTION_NAME,
                                        .name = "swiss"};
    (void)state;
    preset("swiss-2p", &f);
    assert_int_equal(tny_format_set_option(&f, "pairing", &rr, "options", &d),
                     0);
    assert_int_equal(tny_format_set_option(&f, "pairing", &sw, "options", &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "options: the options give an invalid format: "
                               "format.stages[0].rounds: a \"swiss\" stage "
                               "needs at least 1 round");
}

/* tny_format_check on a struct built in C: CM-4 needs a tiebreak chain
 * ending in the lot, each criterion once; AG-10 groups of 4; NH-10 lists
 * only armies of the format. */
static void test_format_check_in_c(void **state)
{
    struct tny_format f;
    struct tny_diag d;
    (void)state;
    preset("agricola", &f);
    assert_int_equal(tny_format_check(&f, "format", &d), 0);
    f.group_a_size = 6;
    assert_int_equal(tny_format_check(&f, "format", &d), TNY_EINVAL);
    assert_string_equal(d.msg, "format.agricola.group_a_size: 6 is not a "
                               "multiple of 4 (AG-10)");
    preset("swiss-2p", &f);
    f.stages[0].n_tiebreaks = 0;
    assert_int_equal(tny_format_check(&f, "event.format", &d), TNY_EINVAL);
    assert_string_equal(d.msg, "event.format.stages[0].tiebreaks: missing (a "
                               "chain ending in \"lot\")");
    /* CM-4: the chain ends in the lot, so that the order is total. */
    preset("swiss-2p", &f);
    f.stages[0].tiebreaks[f.stages[0].n_tiebreaks - 1] = TNY_TB_SOS;
    assert_int_equal(tny_format_check(&f, "format", &d), TNY_EINVAL);
    assert_string_equal(d.msg, "format.stages[0].tiebreaks: the last tiebreak "
                               "must be \"lot\" so that the order is total "
                               "(CM-4)");
    /* A criterion twice in the chain, and NH-10 base-box armies that are
     * not armies of the format. */
    preset("swiss-2p", &f);
    f.stages[0].tiebreaks[1] = f.stages[0].tiebreaks[0];
    assert_int_equal(tny_format_check(&f, "format", &d), TNY_EINVAL);
    assert_non_null(strstr(d.msg, "format.stages[0].tiebreaks[1]: \""));
    assert_non_null(strstr(d.msg, "\" listed twice"));
    preset("neuroshima-hex", &f);
    assert_true(f.n_beginner_armies > 0);
    snprintf(f.beginner_armies[0], TNY_NAME_MAX, "%s", "Not An Army");
    assert_int_equal(tny_format_check(&f, "format", &d), TNY_EINVAL);
    assert_string_equal(d.msg, "format.neuroshima_hex.beginner_armies[0]: "
                               "\"Not An Army\" is not in "
                               "neuroshima_hex.armies");
}

/* NH-10: an event built in C holds the armies by index into the format's
 * list; an army the format does not list is refused. */
static void test_event_builder_armies(void **state)
{
    struct tny_event ev;
    struct tny_diag d;
    int32_t p = -1;
    (void)state;
    tny_event_init(&ev);
    preset("neuroshima-hex", &ev.format);
    assert_int_equal(tny_event_add_player(&ev, "p1", "Ann", &p), 0);
    assert_int_equal(p, 0);
    const char *army = ev.format.armies[2];
    assert_int_equal(tny_event_add_army(&ev, p, army), 0);
    assert_int_equal(tny_event_add_army(&ev, p, "Not An Army"), TNY_ENOTFOUND);
    assert_int_equal(ev.players[0].n_armies, 1);
    assert_int_equal(ev.players[0].armies[0], 2);
    assert_int_equal(ev.players[0].first_round, 1);
    /* The builder only appends; the event's rules stay tny_event_validate's
     * (NH-10: five different armies). */
    assert_int_equal(tny_event_validate(&ev, &d), TNY_EINVAL);
    assert_string_equal(d.msg, "event.players[0].armies: expected exactly 5 "
                               "different armies, got 1 (NH-10)");
    for (int32_t a = 3; a < 7; a++)
        assert_int_equal(tny_event_add_army(&ev, p, ev.format.armies[a]), 0);
    if (tny_event_validate(&ev, &d) != 0)
        fail_msg("%s", d.msg);
    tny_event_release(&ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_typed_equal_json),
        cmocka_unit_test(test_options_refused_with_reason),
        cmocka_unit_test(test_options_give_invalid_format),
        cmocka_unit_test(test_format_check_in_c),
        cmocka_unit_test(test_event_builder_armies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
