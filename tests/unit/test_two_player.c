/* test_two_player.c - the format language for any Swiss game (issue 10):
 * the generic two-player result, its outcomes and points, margin of victory
 * as data, the SoS variants, tiebreaks and keys checked against the game,
 * no-shows, absences, and error messages that name one real path and one
 * range.  Expected values are worked out by hand in the comments.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/standings.h"

#define P(x) ((int64_t)((x)*TNY_POINT_SCALE + 0.5))

#define FOUR                                                                   \
    "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},"                  \
    "{'id':'c','name':'C'},{'id':'d','name':'D'}]"

/* A result between x and y: the JSON of "result" in single quotes. */
#define GAME(n, x, y, res)                                                     \
    "{'table':" #n ",'players':['" x "','" y "'],'result':" res "}"

static void fails_with(const char *event, const char *want)
{
    struct tny_event ev;
    char msg[600];
    int rc = tu_try_event(event, &ev, msg, sizeof(msg));
    if (rc == 0) {
        tny_event_release(&ev);
        fail_msg("accepted, wanted: %s", want);
    }
    if (!strstr(msg, want))
        fail_msg("message: %s\n  wanted: %s", msg, want);
}

static const struct tny_standing_row *
row(const struct tny_event *ev, const struct tny_standings *st, const char *id)
{
    int i = tu_row_of(ev, st, id);
    assert_true(i >= 0);
    return &st->rows[i];
}

/* A preset's format object with one change, as single-quote-free JSON text
 * for an event: set key (a top-level key or "tiebreaks" of stage 0). */
static char *format_with(const char *preset, const char *key,
                         const char *json_value)
{
    struct tny_format f;
    struct tny_diag d = {{0}};
    char *text = NULL;
    assert_int_equal(tny_format_preset(preset, &f, &d), 0);
    assert_int_equal(tny_format_to_json(&f, &text), 0);
    json_error_t err;
    json_t *o = json_loads(text, 0, &err),
           *v = json_loads(json_value, JSON_DECODE_ANY, &err);
    assert_non_null(o);
    assert_non_null(v);
    free(text);
    if (strcmp(key, "tiebreaks") == 0)
        json_object_set_new(json_array_get(json_object_get(o, "stages"), 0),
                            "tiebreaks", v);
    else
        json_object_set_new(o, key, v);
    json_object_del(o, "table"); /* its texts hold apostrophes */
    text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    for (char *c = text; *c; c++) /* back to the tests' single quotes */
        if (*c == '"')
            *c = '\'';
    return text;
}

/* Scores decide when no winner is given; an explicit winner stands; the
 * format's outcomes give their points (swiss-2p: 3/1/0, ID 1, DL 0). */
static void test_two_player_outcomes_and_points(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st;
    struct tny_diag diag;
    tu_load_event(
        "{'format':'swiss-2p','seed':1," FOUR ",'rounds':["
        "{'stage':'swiss','tables':[" GAME(1, "a", "b", "{'scores':{'a':150,'b':80}}") "," GAME(
            2, "c", "d",
            "{'scores':{'c':"
            "5,'d':5}}") "]},"
                         "{'"
                         "sta"
                         "ge'"
                         ":'"
                         "swi"
                         "ss'"
                         ",'"
                         "tab"
                         "les"
                         "':[" GAME(1, "a", "c", "{'scores':{'a':10,'c':90},'winner':'a'}") "," GAME(
                             2, "b", "d",
                             "{'intentional_draw':true}") "]},"
                                                          "{'stage':"
                                                          "'swiss','"
                                                          "tables':[" GAME(
                                                              1, "a", "d",
                                                              "{'double_"
                                                              "loss':"
                                                              "true}") "," GAME(2,
                                                                                "b",
                                                                                "c",
                                                                                "{'winner':'c'}") "]}]}",
        &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    /* a: win 3 + win (explicit, lower score) 3 + double loss 0 = 6;
     * b: loss 0 + ID 1 + loss 0 = 1; c: draw 1 + loss 0 + win 3 = 4;
     * d: draw 1 + ID 1 + double loss 0 = 2. */
    assert_int_equal(row(&ev, &st, "a")->points, P(6));
    assert_int_equal(row(&ev, &st, "b")->points, P(1));
    assert_int_equal(row(&ev, &st, "c")->points, P(4));
    assert_int_equal(row(&ev, &st, "d")->points, P(2));
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* What the format does not allow is refused by name. */
static void test_two_player_outcomes_the_format_refuses(void **state)
{
    (void)state;
    /* xwing-2.0 has no draws: equal scores need a winner. */
    fails_with(
        "{'format':'xwing-2.0'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'scores':{'a':100,'b':100}}") "]}]}",
        "event.rounds[0].tables[0].result: equal scores and no "
        "\"winner\", and the format \"xwing-2.0\" has no draws");
    fails_with("{'format':'xwing-2.0'," FOUR ",'rounds':[{'stage':'swiss',"
               "'tables':[" GAME(1, "a", "b", "{'draw':true}") "]}]}",
               "event.rounds[0].tables[0].result.draw: the format "
               "\"xwing-2.0\" does not allow it (two_player.draws is false)");
    fails_with(
        "{'format':'swiss-2p'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'winner':'a','draw':true}") "]}]}",
        "event.rounds[0].tables[0].result: expected one of "
        "\"winner\", \"draw\"");
    /* One range, whichever end is crossed. */
    fails_with(
        "{'format':'xwing-2.0'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'scores':{'a':201,'b':0}}") "]}]}",
        "event.rounds[0].tables[0].result.scores.a: expected a number "
        "0..200, got 201");
    fails_with(
        "{'format':'xwing-2.0'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'scores':{'a':-1,'b':0}}") "]}]}",
        "event.rounds[0].tables[0].result.scores.a: expected a number "
        "0..200, got -1");
    /* A key of another game's result names the game. */
    fails_with(
        "{'format':'got-lcg2'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'winner':'a','score':{'a':3}}") "]}]}",
        "event.rounds[0].tables[0].result.score: unknown key "
        "(expected one of: winner, modified, games, lots) in a \"got-lcg2\" "
        "result");
}

/* NH-1 range: the path is the key itself, and the same range for a
 * negative and a too-large value (was "hq_diff.value", 0..1000000). */
static void test_NH_1_hq_diff_one_path_one_range(void **state)
{
    (void)state;
#define NH_EVENT(d)                                                            \
    "{'format':'neuroshima-hex'," FOUR                                         \
    ",'rounds':[{'stage':'swiss','tables':[" GAME(                             \
        1, "a", "b", "{'winner':'a','hq_diff':" #d "}") "]}]}"
    fails_with(NH_EVENT(-1), "event.rounds[0].tables[0].result.hq_diff: "
                             "expected a number 0..40, got -1");
    /* TX-4: an organiser decision's TP, in points, one range. */
    fails_with("{'format':'tantrix'," FOUR ",'rounds':[{'stage':'swiss',"
               "'tables':[" GAME(1, "a", "b", "{'tp':{'a':25,'b':0}}") "]}]}",
               "event.rounds[0].tables[0].result.tp.a: expected points 0..20, "
               "got 25");
    fails_with(
        "{'format':'tantrix'," FOUR ",'rounds':[{'stage':'swiss',"
        "'tables':[" GAME(1, "a", "b", "{'tp':{'a':-0.5,'b':20.5}}") "]}]}",
        "event.rounds[0].tables[0].result.tp.a: expected points 0..20, "
        "got -0.5");
    fails_with(NH_EVENT(41),
               "event.rounds[0].tables[0].result.hq_diff: expected a "
               "number 0..40, got 41");
}

/* Margin of victory as data: per game clamp(base + own - opponent's, min,
 * max), a bye worth `bye`.  xwing-2.0: 200, 0..400, bye 300. */
static void test_mov_formula_and_bye(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st;
    struct tny_diag diag;
    tu_load_event(
        "{'format':'xwing-2.0','options':{'swiss_rounds':2,'cut':0},"
        "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},{'id':'c',"
        "'name':'C'}],'rounds':[{'stage':'swiss','tables':[" GAME(
            1, "a", "b",
            "{'scores':{'a':200,'b':50}}") ",{'bye':'c'}]},"
                                           "{'stage':'swiss','"
                                           "tables':[" GAME(1, "c", "a",
                                                            "{'scores':{'c':0,"
                                                            "'a':200}}") ",{"
                                                                         "'bye'"
                                                                         ":'b'}"
                                                                         "]}]}",
        &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(st.tiebreaks[0], TNY_TB_MOV);
    /* a: (200+200-50) + (200+200-0) = 350 + 400 = 750; b: 50 + bye 300;
     * c: bye 300 + (200+0-200) = 300. */
    assert_true(row(&ev, &st, "a")->tiebreaks[0] == 750);
    assert_true(row(&ev, &st, "b")->tiebreaks[0] == 350);
    assert_true(row(&ev, &st, "c")->tiebreaks[0] == 300);
    tny_standings_release(&st);
    tny_event_release(&ev);

    /* The cap is data: max 300 turns a's 350 and 400 into 300 + 300. */
    char *fmt = format_with("xwing-2.0", "tiebreak_data",
                            "{\"mov\":{\"base\":200,\"min\":100,\"max\":300,"
                            "\"bye\":250}}");
    char text[8192];
    snprintf(text, sizeof(text),
             "{'format':%s,'options':{'swiss_rounds':2,'cut':0},"
             "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},{'id':"
             "'c','name':'C'}],'rounds':[{'stage':'swiss','tables':[" GAME(
                 1, "a", "b",
                 "{'scores':{'a':200,'b':50}}") ",{'bye':'c'}]},"
                                                "{'stage':'"
                                                "swiss','"
                                                "tables':[" GAME(1, "c", "a",
                                                                 "{'scores':{"
                                                                 "'c':0,'a':"
                                                                 "200}}") ",{"
                                                                          "'by"
                                                                          "e':"
                                                                          "'b'"
                                                                          "}]}"
                                                                          "]}",
             fmt);
    free(fmt);
    tu_load_event(text, &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    /* a: 300 + 300; b: max(100, 50) + 250 = 350; c: 250 + 100. */
    assert_true(row(&ev, &st, "a")->tiebreaks[0] == 600);
    assert_true(row(&ev, &st, "b")->tiebreaks[0] == 350);
    assert_true(row(&ev, &st, "c")->tiebreaks[0] == 350);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* SoS variants: a round robin of four, a > b > c > d (swiss-2p 3/1/0).
 * Points a 9, b 6, c 3, d 0. */
static void test_sos_variants_buchholz_median_owp_and_GT_4(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st;
    struct tny_diag diag;
    const char *rounds =
        "'rounds':[{'stage':'swiss','tables':[" GAME(1, "a", "b", "{'winner':'a'}") "," GAME(
            2, "c", "d",
            "{'winner':'c'}") "]},"
                              "{'"
                              "stage'"
                              ":'"
                              "swiss'"
                              ",'"
                              "tables"
                              "':[" GAME(
                                  1, "a", "c",
                                  "{'"
                                  "winn"
                                  "er':"
                                  "'a'"
                                  "}") "," GAME(2, "b", "d",
                                                "{'winner':'b'}") "]},"
                                                                  "{'stage':'"
                                                                  "swiss','"
                                                                  "tables':"
                                                                  "[" GAME(
                                                                      1, "a",
                                                                      "d",
                                                                      "{'"
                                                                      "winner':"
                                                                      "'a'}") "," GAME(2,
                                                                                       "b",
                                                                                       "c",
                                                                                       "{'"
                                                                                       "winner':"
                                                                                       "'b'}") "]}]}";
    char text[4096];
    snprintf(text, sizeof(text), "{'format':'swiss-2p','seed':2," FOUR ",%s",
             rounds);
    tu_load_event(text, &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(st.tiebreaks[0], TNY_TB_MEDIAN_BUCHHOLZ);
    assert_int_equal(st.tiebreaks[1], TNY_TB_BUCHHOLZ);
    assert_int_equal(st.tiebreaks[2], TNY_TB_OWP);
    const struct tny_standing_row *a = row(&ev, &st, "a");
    const struct tny_standing_row *d = row(&ev, &st, "d");
    /* Buchholz a = 6 + 3 + 0 = 9; median drops the best (6) and the worst
     * (0): 3.  d: 9 + 6 + 3 = 18, median 6. */
    assert_true(a->tiebreaks[1] == 9 && a->tiebreaks[0] == 3);
    assert_true(d->tiebreaks[1] == 18 && d->tiebreaks[0] == 6);
    /* OWP, floor 25 %: a's opponents b 6/9, c 3/9, d 0/9 -> 25 %:
     * (66.67 + 33.33 + 25) / 3 = 41.67 %. */
    assert_true(fabs(a->tiebreaks[2] - 125.0 / 3) < 1e-9);
    tny_standings_release(&st);
    tny_event_release(&ev);

    /* GT-4 "sos" on the same games: mean over opponents of points per
     * round played; a: (6/3 + 3/3 + 0/3) / 3 = 1. */
    char *fmt = format_with("swiss-2p", "tiebreaks", "[\"sos\",\"lot\"]");
    char text2[8192];
    snprintf(text2, sizeof(text2), "{'format':%s,'seed':2," FOUR ",%s", fmt,
             rounds);
    free(fmt);
    tu_load_event(text2, &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_true(fabs(row(&ev, &st, "a")->tiebreaks[0] - 1.0) < 1e-9);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* A tiebreak, a points key or a block that cannot apply to the game is an
 * error naming the key and the game (it used to rank everyone equal). */
static void test_keys_checked_against_the_game(void **state)
{
    (void)state;
    static const struct {
        const char *preset, *key, *value, *want;
    } cases[] = {
        {"got-lcg2", "tiebreaks", "[\"hq_diff\",\"lot\"]",
         "event.format.stages[0].tiebreaks[0]: \"hq_diff\" does not apply to "
         "a \"got-lcg2\" game"},
        {"got-lcg2", "tiebreaks", "[\"sos\",\"total_score\",\"lot\"]",
         "event.format.stages[0].tiebreaks[1]: \"total_score\" does not "
         "apply to a \"got-lcg2\" game"},
        {"got-lcg2", "tiebreaks", "[\"success_rate\",\"lot\"]",
         "event.format.stages[0].tiebreaks[0]: \"success_rate\" does not "
         "apply to a \"got-lcg2\" game"},
        {"neuroshima-hex", "tiebreaks", "[\"mov\",\"lot\"]",
         "\"mov\" does not apply to a \"neuroshima-hex\" game"},
        {"swiss-2p", "tiebreaks", "[\"mov\",\"lot\"]",
         "event.format.stages[0].tiebreaks[0]: \"mov\" needs "
         "tiebreak_data.mov"},
        {"got-lcg2", "points", "{\"win\":5,\"loss\":0,\"placement\":[3,2,1,0]}",
         "event.format.points.placement: does not apply to a \"got-lcg2\" "
         "format"},
        {"got-lcg2", "two_player", "{\"draws\":true}",
         "event.format.two_player: not a key of a \"got-lcg2\" format"},
        {"got-lcg2", "tiebreak_data", "{\"mov\":{\"base\":200}}",
         "event.format.tiebreak_data.mov: does not apply to a \"got-lcg2\" "
         "format"},
        {"swiss-2p", "bye", "{\"points\":3,\"hq_diff\":7}",
         "event.format.bye.hq_diff: does not apply to a \"two-player\" "
         "format"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *fmt = format_with(cases[i].preset, cases[i].key, cases[i].value);
        char text[8192];
        snprintf(text, sizeof(text), "{'format':%s," FOUR "}", fmt);
        free(fmt);
        fails_with(text, cases[i].want);
    }
}

/* A registered player who never came: a drop after round 0.  Not paired,
 * listed as dropped, written back as after_round 0. */
static void test_no_show_after_round_0(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_round_plan plan;
    struct tny_diag diag = {{0}};
    tu_load_event("{'format':'swiss-2p','seed':3," FOUR
                  ",'drops':[{'player':'d','after_round':0}]}",
                  &ev);
    assert_int_equal(tny_pair_next(&ev, &plan, &diag), 0);
    int32_t d = tny_event_player_index(&ev, "d");
    for (int32_t t = 0; t < plan.n_tables; t++)
        for (int32_t s = 0; s < plan.tables[t].n_seats; s++)
            assert_int_not_equal(plan.tables[t].seats[s], d);
    tny_round_plan_release(&plan);
    char *text = NULL;
    assert_int_equal(tny_event_to_json(&ev, &text), 0);
    assert_non_null(
        strstr(text, "\"player\": \"d\",\n      \"after_round\": 0"));
    free(text);
    tny_event_release(&ev);
    /* Seated although a no-show: refused. */
    fails_with("{'format':'swiss-2p'," FOUR
               ",'drops':[{'player':'d','after_round':0}],'rounds':[{'stage':"
               "'swiss','tables':[" GAME(1, "a", "d", "{'winner':'a'}") "]}]}",
               "\"d\" is not active in round 1");
}

/* A player missing from a completed round without a drop is reported;
 * listed in event.absences, it is not. */
static void test_absence_explicit_or_warned(void **state)
{
    (void)state;
    struct tny_event ev;
    char buf[512];
    const char *games = "'rounds':[{'stage':'swiss','tables':[" GAME(
        1, "a", "b", "{'winner':'a'}") ","
                                       "{'bye':"
                                       "'c'}]}"
                                       "]";
    char text[2048];
    snprintf(text, sizeof(text), "{'format':'swiss-2p'," FOUR ",%s}", games);
    tu_load_event(text, &ev);
    assert_int_equal(tny_event_unexplained_absences(&ev, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "event.rounds[0]: \"d\" is not seated but "
                             "neither dropped nor listed in event.absences\n");
    tny_event_release(&ev);
    snprintf(text, sizeof(text),
             "{'format':'swiss-2p'," FOUR
             ",%s,'absences':[{'player':'d','round':1}]}",
             games);
    tu_load_event(text, &ev);
    assert_int_equal(tny_event_unexplained_absences(&ev, buf, sizeof(buf)), 0);
    char *out = NULL;
    assert_int_equal(tny_event_to_json(&ev, &out), 0);
    assert_non_null(strstr(out, "\"absences\""));
    free(out);
    tny_event_release(&ev);
    snprintf(text, sizeof(text),
             "{'format':'swiss-2p'," FOUR
             ",%s,'absences':[{'player':'a','round':1}]}",
             games);
    fails_with(text, "event.absences[0]: \"a\" is seated in round 1");
}

/* docs/formats.md's "A format for a new game" example is a valid format
 * (the docs are what an organiser writes from). */
static void test_docs_new_game_example_parses(void **state)
{
    (void)state;
    FILE *f = fopen(TNY_SOURCE_DIR "/docs/formats.md", "rb");
    assert_non_null(f);
    static char doc[1 << 17];
    size_t n = fread(doc, 1, sizeof(doc) - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *sec = strstr(doc, "## A format for a new game");
    assert_non_null(sec);
    char *start = strstr(sec, "```json\n");
    assert_non_null(start);
    start += strlen("```json\n");
    char *end = strstr(start, "```");
    assert_non_null(end);
    struct tny_format fmt;
    struct tny_diag d = {{0}};
    if (tny_format_from_json_text(start, (size_t)(end - start), &fmt, &d) != 0)
        fail_msg("docs example: %s", d.msg);
    assert_int_equal(fmt.game, TNY_GAME_TWO_PLAYER);
    assert_int_equal(fmt.stages[0].tiebreaks[0], TNY_TB_OWP);
    assert_int_equal(fmt.owp_floor_permille, 333);
}

/* Draws, intentional draws and double losses are options of a two-player
 * format: an event turns them on or off; other games do not have them. */
static void test_outcomes_are_options(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_standings st;
    struct tny_diag diag;
    tu_load_event("{'format':'xwing-2.0','options':{'draws':true}," FOUR
                  ",'rounds':[{'stage':'swiss','tables':[" GAME(
                      1, "a", "b", "{'scores':{'a':100,'b':100}}") "]}]}",
                  &ev);
    assert_true(ev.rounds[0].tables[0].result.draw);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(row(&ev, &st, "a")->points, 0); /* draw: 0 points */
    tny_standings_release(&st);
    tny_event_release(&ev);
    fails_with("{'format':'swiss-2p','options':{'double_losses':false}," FOUR
               ",'rounds':[{'stage':'swiss','tables':[" GAME(
                   1, "a", "b", "{'double_loss':true}") "]}]}",
               "result.double_loss: the format \"swiss-2p\" does not allow it");
    fails_with("{'format':'got-lcg2','options':{'draws':true}," FOUR "}",
               "event.options.draws: unknown option (options of format "
               "\"got-lcg2\":");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_player_outcomes_and_points),
        cmocka_unit_test(test_two_player_outcomes_the_format_refuses),
        cmocka_unit_test(test_NH_1_hq_diff_one_path_one_range),
        cmocka_unit_test(test_mov_formula_and_bye),
        cmocka_unit_test(test_sos_variants_buchholz_median_owp_and_GT_4),
        cmocka_unit_test(test_keys_checked_against_the_game),
        cmocka_unit_test(test_no_show_after_round_0),
        cmocka_unit_test(test_absence_explicit_or_warned),
        cmocka_unit_test(test_docs_new_game_example_parses),
        cmocka_unit_test(test_outcomes_are_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
