/* test_json_io.c - the JSON adapter: presets, format files, event files,
 * output shapes, and the error messages that name the offending key.
 *
 * Expected values come from formats.md / event-file.md (the rule tables),
 * never from the code under test; round-trip properties run over seeded
 * random events.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/presets.h"
#include "tny/rng.h"

#define P(x) ((int64_t)((x)*TNY_POINT_SCALE))

/* Presets that must ship (a new one needs no change here: the tests
 * below walk tny_presets). */
static const char *const preset_names[] = {
    "agricola",       "catan",    "got-lcg2", "netrunner-dss", "netrunner-sss",
    "neuroshima-hex", "swiss-2p", "tantrix",  "xwing-2.0"};
#define N_PRESETS 9

/* The shipped presets' count (tny_presets). */
static size_t n_shipped(void)
{
    size_t n = 0;
    while (tny_presets[n].name)
        n++;
    return n;
}

static struct tny_format *preset(const char *name)
{
    struct tny_format *f = calloc(1, sizeof(*f));
    struct tny_diag d = {{0}};
    assert_non_null(f);
    int rc = tny_format_preset(name, f, &d);
    if (rc != 0)
        fail_msg("preset %s: %s", name, d.msg);
    return f;
}

static int parse_format(const char *text, struct tny_format *f,
                        struct tny_diag *d)
{
    return tny_format_from_json_text(text, strlen(text), f, d);
}

/* Expects text to fail as a format with a message starting with want. */
static void format_fails(const char *text, const char *want)
{
    struct tny_format *f = calloc(1, sizeof(*f));
    struct tny_diag d = {{0}};
    assert_non_null(f);
    int rc = parse_format(text, f, &d);
    if (rc >= 0 || strncmp(d.msg, want, strlen(want)) != 0)
        fail_msg("format %s\n  rc %d, message: %s\n  wanted: %s...", text, rc,
                 d.msg, want);
    free(f);
}

/* Event parse without semantic validation (shape only). */
static int parse_event(const char *text, struct tny_event *ev,
                       struct tny_diag *d)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("test JSON broken: %s: %s", err.text, text);
    int rc = tny_event_from_json(root, ev, d);
    json_decref(root);
    return rc;
}

static void event_fails(const char *text, const char *want)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    int rc = tny_event_from_json_text(text, strlen(text), &ev, &d);
    if (rc >= 0 || strstr(d.msg, want) != d.msg)
        fail_msg("event %s\n  rc %d, message: %s\n  wanted: %s...", text, rc,
                 d.msg, want);
    assert_int_equal(ev.n_players, 0); /* released on error */
}

/* ---- presets ----------------------------------------------------------- */

/* Sorted by name, each of preset_names among them, every game of the
 * registry with a preset (issue 18: a new game is its module and its
 * preset). */
static void test_presets_shipped_sorted(void **state)
{
    (void)state;
    const struct tny_game_ops *const *all;
    int32_t n_games = tny_game_registry(&all);
    bool has[TNY_GAME_COUNT] = {false};
    size_t n = n_shipped();
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(tny_presets[i - 1].name, tny_presets[i].name) >= 0)
            fail_msg("presets not sorted: %s before %s",
                     tny_presets[i - 1].name, tny_presets[i].name);
        struct tny_format *f = preset(tny_presets[i].name);
        if ((int)f->game >= 0 && (int)f->game < (int)TNY_GAME_COUNT)
            has[f->game] = true;
        free(f);
    }
    for (size_t k = 0; k < N_PRESETS; k++) {
        size_t i = 0;
        while (i < n && strcmp(tny_presets[i].name, preset_names[k]) != 0)
            i++;
        if (i == n)
            fail_msg("preset %s not shipped", preset_names[k]);
    }
    for (int32_t g = 0; g < n_games; g++)
        if (!has[all[g]->game])
            fail_msg("game %s has no preset", all[g]->name);
}

static void test_NH_preset_swiss_and_knockout(void **state)
{
    (void)state;
    struct tny_format *f = preset("neuroshima-hex");
    assert_int_equal(f->game, TNY_GAME_NEUROSHIMA_HEX);
    assert_int_equal(f->players_per_table, 2);
    assert_int_equal(f->n_stages, 2);
    /* NH-5/NH-6: Swiss, 4 rounds, HQ difference, head to head, lot. */
    assert_int_equal(f->stages[0].kind, TNY_STAGE_SWISS);
    assert_int_equal(f->stages[0].rounds, 4);
    assert_int_equal(f->stages[0].n_tiebreaks, 3);
    assert_int_equal(f->stages[0].tiebreaks[0], TNY_TB_HQ_DIFF);
    assert_int_equal(f->stages[0].tiebreaks[1], TNY_TB_HEAD_TO_HEAD);
    assert_int_equal(f->stages[0].tiebreaks[2], TNY_TB_LOT);
    /* NH-7: top 8, re-seeded. */
    assert_int_equal(f->stages[1].kind, TNY_STAGE_ELIMINATION);
    assert_int_equal(f->stages[1].pairing, TNY_PAIR_RESEEDED);
    assert_int_equal(f->stages[1].cut, 8);
    /* NH-3, NH-4 */
    assert_int_equal(f->win_points, P(3));
    assert_int_equal(f->draw_points, P(1));
    assert_int_equal(f->loss_points, 0);
    assert_int_equal(f->bye_points, P(3));
    assert_int_equal(f->bye_hq_diff, 7);
    assert_int_equal(f->bye_rule, TNY_BYE_LOWEST_POINTS_HQ);
    assert_false(f->second_bye_allowed);
    /* NH-13 timers */
    assert_int_equal(f->stages[0].timer_minutes, 45);
    assert_int_equal(f->stages[1].timer_minutes, 55);
    assert_int_equal(f->stages[1].final_timer_minutes, 0);
    free(f);
}

static void test_NH_10_army_list_and_base_box(void **state)
{
    (void)state;
    static const char *const legal[] = {
        "Borgo",        "Beasts",     "Dancer",   "Death Breath",
        "Hegemony",     "Iron Gang",  "Mephisto", "Mississippi",
        "Moloch",       "Neojungle",  "New York", "Outpost",
        "Sand Runners", "Sharrash",   "Smart",    "Steel Police",
        "Troglodytes",  "Uranopolis", "Vegas"};
    struct tny_format *f = preset("neuroshima-hex");
    assert_int_equal(f->n_armies, 19);
    for (int i = 0; i < 19; i++)
        assert_true(tny_format_army_index(f, legal[i]) >= 0);
    assert_int_equal(tny_format_army_index(f, "Doomsday Machine"), -1);
    assert_int_equal(f->armies_per_player, 5);
    assert_int_equal(f->n_beginner_armies, 4);
    static const char *const base[] = {"Borgo", "Hegemony", "Moloch",
                                       "Outpost"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(f->beginner_armies[i], base[i]);
    /* NH-2 */
    assert_int_equal(f->n_capped_armies, 1);
    assert_string_equal(f->capped_armies[0], "Dancer");
    assert_int_equal(f->capped_hq_diff, 20);
    free(f);
}

static void test_TX_2_margin_table_exact_tenths(void **state)
{
    (void)state;
    static const int tenths[] = {
        100, 133, 139, 143, 147, 150, 153, 155, 158, 160, 162, 164, 166,
        168, 170, 172, 173, 175, 177, 178, 180, 181, 183, 184, 185, 187,
        188, 189, 191, 192, 193, 194, 195, 197, 198, 199, 200};
    struct tny_format *f = preset("tantrix");
    assert_int_equal(f->n_margins, 37);
    for (int i = 0; i < 37; i++)
        assert_int_equal(f->margin_tp[i],
                         (int64_t)tenths[i] * TNY_POINT_SCALE / 10);
    assert_int_equal(f->tp_per_game, P(20));
    /* TX-3: 20 minutes, +1 per further full minute, 1 TP */
    assert_int_equal(f->clock_limit_ms, 20 * 60 * 1000);
    assert_int_equal(f->clock_step_ms, 60 * 1000);
    assert_int_equal(f->clock_penalty, P(1));
    /* TX-5, TX-13, TX-6 */
    assert_int_equal(f->default_win_tp, P(15));
    assert_int_equal(f->bye_tp, P(15));
    assert_int_equal(f->max_missed_games, 2);
    /* TX-8 chain */
    static const enum tny_tiebreak chain[] = {TNY_TB_MINI_TP, TNY_TB_WINS,
                                              TNY_TB_MINI_SCORE_DIFF,
                                              TNY_TB_TOTAL_SCORE, TNY_TB_LOT};
    assert_int_equal(f->stages[0].n_tiebreaks, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(f->stages[0].tiebreaks[i], chain[i]);
    assert_int_equal(f->stages[0].group_order, TNY_GROUP_ADJACENT);
    free(f);
}

static void test_AG_5_AG_11_placement_points_and_weight(void **state)
{
    (void)state;
    struct tny_format *f = preset("agricola");
    assert_int_equal(f->players_per_table, 4);
    assert_int_equal(f->player_multiple, 4);
    assert_int_equal(f->placement_points[0], P(10));
    assert_int_equal(f->placement_points[1], P(6));
    assert_int_equal(f->placement_points[2], P(3));
    assert_int_equal(f->placement_points[3], P(1));
    assert_int_equal(f->n_stages, 2);
    assert_int_equal(f->stages[0].kind, TNY_STAGE_PRELIM);
    assert_int_equal(f->stages[0].rounds, 3);
    assert_int_equal(f->stages[1].kind, TNY_STAGE_FINAL);
    assert_int_equal(f->stages[1].rounds, 2);
    /* AG-11: x1.25 gives 12.5, 7.5, 3.75, 1.25 */
    assert_int_equal(f->stages[1].weight_num * 4, f->stages[1].weight_den * 5);
    assert_int_equal(f->placement_points[2] * f->stages[1].weight_num /
                         f->stages[1].weight_den,
                     P(3.75));
    assert_int_equal(f->group_a_size, 8); /* AG-10 */
    assert_int_equal(f->stages[0].tiebreaks[0],
                     TNY_TB_RELATIVE_SCORE); /* AG-8 */
    assert_int_equal(f->stages[0].tiebreaks[1], TNY_TB_BEST_RELATIVE);
    assert_int_equal(f->stages[1].tiebreaks[0],
                     TNY_TB_FINAL_PLACEMENT); /* AG-13 */
    assert_int_equal(f->stages[1].tiebreaks[2], TNY_TB_BEST_PRELIM_RELATIVE);
    /* AG-14 */
    assert_int_equal(f->stages[0].timer_minutes, 105);
    assert_int_equal(f->draft_minutes, 15);
    assert_int_equal(f->action_seconds, 30);
    free(f);
}

static void test_GT_preset_structure_and_points(void **state)
{
    (void)state;
    struct tny_format *f = preset("got-lcg2");
    assert_int_equal(f->structure, TNY_STRUCTURE_BASIC); /* GT-5 */
    assert_int_equal(f->win_points, P(5));               /* GT-1 */
    assert_int_equal(f->modified_win_points, P(4));
    assert_int_equal(f->bye_points, P(5));
    assert_int_equal(f->stages[1].pairing, TNY_PAIR_FOLDED); /* GT-7 */
    assert_true(f->stages[1].best_of_three);                 /* GT-9 */
    assert_false(f->stages[1].from_start);                   /* GT-8 off */
    assert_int_equal(f->stages[0].tiebreaks[0], TNY_TB_SOS); /* GT-4 */
    assert_int_equal(f->stages[0].tiebreaks[1], TNY_TB_ESOS);
    /* GT-12 */
    assert_int_equal(f->stages[0].timer_minutes, 55);
    assert_int_equal(f->stages[1].timer_minutes, 55);
    assert_int_equal(f->stages[1].final_timer_minutes, 120);
    free(f);
}

static void test_CT_preset_points_bye_and_chain(void **state)
{
    (void)state;
    struct tny_format *f = preset("catan");
    assert_int_equal(f->stages[0].kind, TNY_STAGE_ROUND);
    assert_int_equal(f->stages[0].pairing, TNY_PAIR_GORN);
    assert_int_equal(f->stages[0].rounds, 5);
    /* CT-3 */
    assert_int_equal(f->placement_points[0], P(4));
    assert_int_equal(f->placement_points[3], P(1));
    assert_int_equal(f->placement_points_3[0], P(4));
    assert_int_equal(f->placement_points_3[2], P(2));
    assert_int_equal(f->game_points_cap, 10); /* CT-4 */
    /* CT-6 */
    assert_int_equal(f->bye_placement_points, P(4));
    assert_int_equal(f->bye_game_points, 10);
    assert_int_equal(f->bye_success_permille, 270);
    /* CT-7 */
    static const enum tny_tiebreak chain[] = {
        TNY_TB_SUCCESS_RATE, TNY_TB_GAME_POINTS, TNY_TB_FIRSTS,
        TNY_TB_SECONDS,      TNY_TB_THIRDS,      TNY_TB_LOT};
    for (int i = 0; i < 6; i++)
        assert_int_equal(f->stages[0].tiebreaks[i], chain[i]);
    assert_int_equal(f->stages[0].timer_minutes, 90); /* CT-8 */
    free(f);
}

/* ---- format files ------------------------------------------------------ */

static void test_format_round_trip_every_preset(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_shipped(); i++) {
        struct tny_format *f = preset(tny_presets[i].name);
        struct tny_format *g = calloc(1, sizeof(*g));
        struct tny_diag d = {{0}};
        char *text = NULL;
        assert_int_equal(tny_format_to_json(f, &text), 0);
        if (parse_format(text, g, &d) != 0)
            fail_msg("%s: %s\n%s", tny_presets[i].name, d.msg, text);
        assert_memory_equal(f, g, sizeof(*f));
        /* every option is listed with its default */
        assert_non_null(strstr(text, "\"options\": {"));
        free(text);
        free(f);
        free(g);
    }
}

static json_t *loads(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    if (!j)
        fail_msg("test JSON: %s", err.text);
    return j;
}

static void test_options_override_and_round_trip(void **state)
{
    (void)state;
    struct tny_format *f = preset("neuroshima-hex");
    struct tny_format *g = calloc(1, sizeof(*g));
    struct tny_diag d = {{0}};
    char *text = NULL;
    json_t *o = loads("{\"swiss_rounds\": 5, \"cut\": 4, \"bye_points\": 2.5,"
                      " \"swiss_timer_minutes\": 50, \"_why\": \"long day\"}");
    assert_int_equal(tny_format_apply_options(f, o, "event.options", &d), 0);
    json_decref(o);
    assert_int_equal(f->stages[0].rounds, 5);
    assert_int_equal(f->stages[1].cut, 4);
    assert_int_equal(f->bye_points, P(2.5));
    assert_int_equal(f->stages[0].timer_minutes, 50);
    assert_int_equal(tny_format_to_json(f, &text), 0);
    assert_int_equal(parse_format(text, g, &d), 0);
    assert_memory_equal(f, g, sizeof(*f));
    assert_non_null(strstr(text, "\"bye_points\": 2.5"));
    free(text);
    free(f);
    free(g);
}

static void test_TX_option_round_robin(void **state)
{
    (void)state;
    struct tny_format *f = preset("tantrix");
    struct tny_diag d = {{0}};
    json_t *o = loads("{\"pairing\": \"round_robin\"}");
    assert_int_equal(tny_format_apply_options(f, o, "event.options", &d), 0);
    json_decref(o);
    assert_int_equal(f->stages[0].kind, TNY_STAGE_ROUND_ROBIN);
    assert_int_equal(f->stages[0].pairing, TNY_PAIR_ROUND_ROBIN);
    assert_int_equal(f->stages[0].rounds, 0); /* a full cycle */
    free(f);
}

static void test_GT_8_option_elimination_only(void **state)
{
    (void)state;
    struct tny_format *f = preset("got-lcg2");
    struct tny_diag d = {{0}};
    json_t *o = loads("{\"elimination_only\": true, \"structure\": \"custom\","
                      " \"swiss_rounds\": 5, \"cut\": 8}");
    assert_int_equal(tny_format_apply_options(f, o, "event.options", &d), 0);
    json_decref(o);
    assert_true(f->stages[1].from_start);
    assert_int_equal(f->structure, TNY_STRUCTURE_CUSTOM);
    assert_int_equal(f->stages[0].rounds, 5);
    assert_int_equal(f->stages[1].cut, 8);
    free(f);
}

static void option_fails(const char *name, const char *opts, const char *want)
{
    struct tny_format *f = preset(name);
    struct tny_diag d = {{0}};
    json_t *o = loads(opts);
    int rc = tny_format_apply_options(f, o, "event.options", &d);
    json_decref(o);
    if (rc >= 0 || strstr(d.msg, want) != d.msg)
        fail_msg("options %s: rc %d: %s (wanted %s...)", opts, rc, d.msg, want);
    free(f);
}

static void test_option_errors_name_the_option(void **state)
{
    (void)state;
    option_fails("neuroshima-hex", "{\"swiss_round\": 5}",
                 "event.options.swiss_round: unknown option (options of "
                 "format \"neuroshima-hex\": swiss_rounds, cut, bye_points,");
    option_fails("catan", "{\"cut\": 8}", "event.options.cut: unknown option");
    option_fails("neuroshima-hex", "{\"swiss_rounds\": \"5\"}",
                 "event.options.swiss_rounds: expected an integer 0..1000, "
                 "got a string");
    option_fails("neuroshima-hex", "{\"cut\": 6}",
                 "event.options.cut: 6 is not a power of two");
    option_fails("neuroshima-hex", "{\"bye_points\": 0.0001}",
                 "event.options.bye_points: 0.0001 is not an exact number");
    option_fails("catan", "{\"round_timer_minutes\": 60}",
                 "event.options.round_timer_minutes: expected an integer "
                 "90..1440"); /* CT-8 */
    option_fails("got-lcg2", "{\"structure\": \"huge\"}",
                 "event.options.structure: unknown structure \"huge\" "
                 "(expected one of: custom, basic, advanced)");
    option_fails("got-lcg2", "{\"structure\": \"custom\"}",
                 "event.options: the options give an invalid format: "
                 "format.stages[0].rounds:");
}

/* A minimal valid 2-player format; %s is spliced into the stage. */
static char *format_with(const char *stage_extra, const char *top_extra)
{
    char *buf = malloc(4096);
    assert_non_null(buf);
    snprintf(buf, 4096,
             "{\"name\": \"t\", \"title\": \"T\", \"game\": \"got-lcg2\", "
             "\"players_per_table\": 2, %s"
             "\"points\": {\"win\": 5, \"loss\": 0},"
             "\"stages\": [{\"name\": \"S\", \"kind\": \"swiss\", "
             "\"pairing\": \"swiss\", \"rounds\": 3 %s}]}",
             top_extra, stage_extra);
    return buf;
}

static void test_format_errors_name_the_key(void **state)
{
    (void)state;
    char *t;
    t = format_with(", \"tiebreaks\": [\"sos\", \"sos2\", \"lot\"]", "");
    format_fails(t, "format.stages[0].tiebreaks[1]: unknown tiebreak \"sos2\" "
                    "(expected one of: hq_diff, head_to_head,");
    free(t);
    t = format_with(", \"tiebreaks\": [\"sos\"]", "");
    format_fails(t, "format.stages[0].tiebreaks: the last tiebreak must be "
                    "\"lot\"");
    free(t);
    format_fails("{\"name\": \"t\", \"title\": \"T\", \"game\": \"got-lcg2\", "
                 "\"players_per_table\": 2, \"stages\": [{\"name\": \"S\", "
                 "\"kind\": \"swis\", \"pairing\": \"swiss\"}]}",
                 "format.stages[0].kind: unknown stage kind \"swis\" (expected "
                 "one of: swiss, elimination, prelim, final, round, "
                 "round_robin)");
    t = format_with(", \"tiebreaks\": [\"lot\"]",
                    "\"bye\": {\"points\": 0.3333},");
    format_fails(t, "format.bye.points: 0.33329999999999999 is not an exact "
                    "number of points");
    free(t);
    format_fails("{\"name\": \"t\", \"title\": \"T\", \"game\": \"got-lcg2\", "
                 "\"players_per_table\": 2}",
                 "format.stages: missing");
    format_fails("{\"name\": \"t\", \"title\": \"T\", \"game\": \"got-lcg2\", "
                 "\"players_per_table\": \"2\", \"stages\": []}",
                 "format.players_per_table: expected an integer 2..4, got a "
                 "string");
    t = format_with(", \"tiebreaks\": [\"lot\"], \"round\": 3", "");
    format_fails(t, "format.stages[0].round: unknown key (expected one of: "
                    "name, kind, pairing,");
    free(t);
    t = format_with(", \"tiebreaks\": [\"lot\"]", "\"catan\": {},");
    format_fails(t, "format.catan: not a key of a \"got-lcg2\" format");
    free(t);
    format_fails("{\"name\": \"t\",", "format: invalid JSON at line 1, column");
}

static void test_format_options_must_agree_with_body(void **state)
{
    (void)state;
    char *t = format_with(", \"tiebreaks\": [\"lot\"], \"timer_minutes\": 50",
                          "\"options\": {\"swiss_timer_minutes\": 55},");
    format_fails(t, "format.options.swiss_timer_minutes: disagrees with the "
                    "swiss stage's timer_minutes (50)");
    free(t);
    /* the same value in both places is fine; an option alone sets it */
    struct tny_format *f = calloc(1, sizeof(*f));
    struct tny_diag d = {{0}};
    t = format_with(", \"tiebreaks\": [\"lot\"], \"timer_minutes\": 50",
                    "\"options\": {\"swiss_timer_minutes\": 50, \"bye_points\""
                    ": 4.5},");
    assert_int_equal(parse_format(t, f, &d), 0);
    assert_int_equal(f->stages[0].timer_minutes, 50);
    assert_int_equal(f->bye_points, P(4.5));
    free(t);
    free(f);
}

static void test_points_exact_units(void **state)
{
    (void)state;
    /* TX-2 13.3 is not exact in binary yet exact in units; AG-11 3.75. */
    struct tny_format *f = calloc(1, sizeof(*f));
    struct tny_diag d = {{0}};
    char *t =
        strdup("{\"name\": \"t\", \"title\": \"T\", \"game\": \"got-lcg2\", "
               "\"players_per_table\": 2, \"points\": {\"win\": 13.3, "
               "\"modified_win\": 3.75, \"draw\": 0.25, \"loss\": -1.5}, "
               "\"stages\": [{\"name\": \"S\", \"kind\": \"swiss\", "
               "\"pairing\": \"swiss\", \"rounds\": 3, \"tiebreaks\": "
               "[\"lot\"]}]}");
    assert_int_equal(parse_format(t, f, &d), 0);
    assert_int_equal(f->win_points, 15960);
    assert_int_equal(f->modified_win_points, 4500);
    assert_int_equal(f->draw_points, 300);
    assert_int_equal(f->loss_points, -1800);
    free(t);
    free(f);
}

static void dump_has(json_t *j, const char *want)
{
    char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
    json_decref(j);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
}

static void test_points_printed_with_fewest_digits(void **state)
{
    (void)state;
    dump_has(tny_json_points(P(3)), "3");
    dump_has(tny_json_points(P(12.5)), "12.5");
    dump_has(tny_json_points(15960), "13.3");
    dump_has(tny_json_points(P(3.75)), "3.75");
    dump_has(tny_json_points(-1800), "-1.5");
    dump_has(tny_json_points(7600), "6.33333333333333"); /* 19/3 */
}

/* ---- event files ------------------------------------------------------- */

static const char nh_event[] =
    "{\"format\": \"neuroshima-hex\", \"seed\": 20041120, \"x_note\": 1,"
    " \"players\": ["
    "  {\"id\": \"p1\", \"name\": \"Anna Nowak\", \"rating\": 1612,"
    "   \"armies\": [\"Borgo\", \"Moloch\", \"Vegas\", \"Smart\", \"Dancer\"]},"
    "  {\"id\": \"p2\", \"name\": \"Bob\", \"club\": \"K\", \"beginner\": "
    "true},"
    "  {\"id\": \"p3\", \"name\": \"Cyd\", \"late_from_round\": 2},"
    "  {\"id\": \"p4\", \"name\": \"Dee\", \"_comment\": \"x\"}],"
    " \"drops\": [{\"player\": \"p4\", \"after_round\": 1}],"
    " \"rounds\": ["
    "  {\"stage\": \"swiss\", \"tables\": ["
    "    {\"table\": 1, \"players\": [\"p1\", \"p2\"], \"result\": "
    "{\"winner\": "
    "     \"p1\", \"hq_diff\": 7, \"armies\": {\"p1\": \"Dancer\", \"p2\": "
    "     \"Borgo\"}}},"
    "    {\"bye\": \"p4\"}]},"
    "  {\"stage\": \"swiss\", \"tables\": ["
    "    {\"table\": 1, \"players\": [\"p1\", \"p3\"], \"result\": {\"draw\": "
    "     true, \"_x\": 0}},"
    "    {\"table\": 2, \"players\": [\"p2\", \"p4\"]}]}]}";

static void test_event_parses_contract_shape(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    /* p4 dropped after round 1 yet seated in round 2: shape is fine */
    assert_int_equal(parse_event(nh_event, &ev, &d), 0);
    assert_int_equal(ev.seed, 20041120);
    assert_int_equal(ev.n_players, 4);
    assert_string_equal(ev.players[1].club, "K");
    assert_true(ev.players[1].beginner);
    assert_true(ev.players[0].has_rating);
    assert_int_equal(ev.players[0].n_armies, 5);
    assert_int_equal(ev.players[0].armies[4],
                     tny_format_army_index(&ev.format, "Dancer"));
    assert_int_equal(ev.players[2].first_round, 2);   /* CM-1 */
    assert_int_equal(ev.players[3].dropped_after, 1); /* CM-2 */
    assert_int_equal(ev.n_rounds, 2);
    const struct tny_table *t = &ev.rounds[0].tables[0];
    assert_int_equal(t->number, 1);
    assert_int_equal(t->seats[0], 0);
    assert_int_equal(t->seats[1], 1);
    assert_true(t->has_result);
    assert_int_equal(t->result.winner, 0);
    assert_int_equal(t->result.hq_diff, 7);
    assert_int_equal(t->result.army[0],
                     tny_format_army_index(&ev.format, "Dancer"));
    assert_true(ev.rounds[0].tables[1].is_bye);
    assert_int_equal(ev.rounds[0].tables[1].seats[0], 3);
    assert_true(ev.rounds[1].tables[0].result.draw);
    assert_false(ev.rounds[1].tables[1].has_result); /* round in progress */
    tny_event_release(&ev);
}

static void test_event_round_trip(void **state)
{
    (void)state;
    struct tny_event ev, ev2;
    struct tny_diag d = {{0}};
    char *a = NULL, *b = NULL;
    assert_int_equal(parse_event(nh_event, &ev, &d), 0);
    assert_int_equal(tny_event_to_json(&ev, &a), 0);
    assert_non_null(strstr(a, "\"format\": \"neuroshima-hex\""));
    if (parse_event(a, &ev2, &d) != 0)
        fail_msg("%s\n%s", d.msg, a);
    assert_int_equal(tny_event_to_json(&ev2, &b), 0);
    assert_string_equal(a, b);
    assert_int_equal(ev2.players[3].dropped_after, 1);
    assert_int_equal(ev2.players[2].first_round, 2);
    free(a);
    free(b);
    tny_event_release(&ev);
    tny_event_release(&ev2);
}

#define EV_HEAD(fmt)                                                           \
    "{\"format\": \"" fmt "\", \"players\": [{\"id\": \"p1\", \"name\": "      \
    "\"A\"}, {\"id\": \"p2\", \"name\": \"B\"}, {\"id\": \"p3\", \"name\": "   \
    "\"C\"}, {\"id\": \"p4\", \"name\": \"D\"}, {\"id\": \"p5\", \"name\": "   \
    "\"E\"}]"

static void test_event_errors_name_the_key(void **state)
{
    (void)state;
    event_fails("{\"format\": \"catan\",\n \"players\": [}",
                "event: invalid JSON at line 2, column");
    char want[512];
    int used = snprintf(want, sizeof want,
                        "event.format: unknown format \"chess\" (presets: ");
    for (size_t i = 0; i < n_shipped(); i++)
        used += snprintf(want + used, sizeof want - (size_t)used, "%s%s",
                         i ? ", " : "", tny_presets[i].name);
    snprintf(want + used, sizeof want - (size_t)used, ")");
    event_fails("{\"format\": \"chess\", \"players\": []}", want);
    event_fails("{\"format\": \"catan\", \"players\": [], \"round\": []}",
                "event.round: unknown key (expected one of: format, options, "
                "seed, title, level, players, drops, disqualified, rounds, "
                "absences, cut_seeds, language)");
    event_fails("{\"format\": \"catan\", \"players\": [{\"id\": \"p1\", "
                "\"name\": \"A\"}, {\"id\": \"p1\", \"name\": \"B\"}]}",
                "event.players[1].id: duplicate player id \"p1\"");
    event_fails("{\"format\": \"catan\", \"players\": [{\"id\": \"p 1\", "
                "\"name\": \"A\"}]}",
                "event.players[0].id: \"p 1\" is not an id");
    event_fails("{\"format\": \"catan\", \"players\": [{\"id\": \"p1\"}]}",
                "event.players[0].name: missing");
    event_fails("{\"format\": \"catan\", \"players\": [{\"id\": \"p1\", "
                "\"name\": 7}]}",
                "event.players[0].name: expected a string, got an integer");
    event_fails("{\"format\": \"catan\", \"seed\": -1, \"players\": []}",
                "event.seed: expected an integer 0..");
    event_fails(EV_HEAD("catan") ", \"rounds\": [{\"stage\": \"round\", "
                                 "\"tables\": [{\"table\": 1, \"players\": "
                                 "[\"p1\", \"p2\", "
                                 "\"p3\", \"p9\"]}]}]}",
                "event.rounds[0].tables[0].players[3]: unknown player \"p9\"");
    event_fails(EV_HEAD("catan") ", \"rounds\": [{\"stage\": \"round\", "
                                 "\"tables\": [{\"table\": 1, \"players\": "
                                 "[\"p1\", \"p2\", "
                                 "\"p3\", \"p4\"], \"result\": {\"vp\": "
                                 "{\"p1\": 10, \"p2\": 8, "
                                 "\"p3\": 7, \"p5\": 6}}}]}]}",
                "event.rounds[0].tables[0].result.vp.p5: \"p5\" is not a "
                "player of this table");
    event_fails(EV_HEAD("catan") ", \"rounds\": [{\"stage\": \"round\", "
                                 "\"tables\": [{\"table\": 1, \"players\": "
                                 "[\"p1\", \"p2\", "
                                 "\"p3\", \"p4\"], \"result\": {\"vp\": "
                                 "{\"p1\": 10, \"p2\": 8, "
                                 "\"p3\": 7}}}]}]}",
                "event.rounds[0].tables[0].result.vp: missing a value for "
                "\"p4\"");
    event_fails(EV_HEAD("catan") ", \"rounds\": [{\"stage\": \"round\", "
                                 "\"tables\": [{\"table\": 1, \"players\": "
                                 "[\"p1\", \"p2\", "
                                 "\"p3\", \"p4\"], \"result\": {\"vp\": "
                                 "{\"p1\": 10, \"p2\": 8, "
                                 "\"p3\": 7.5, \"p4\": 1}}}]}]}",
                "event.rounds[0].tables[0].result.vp.p3: expected an integer");
    event_fails(
        EV_HEAD("catan") ", \"rounds\": [{\"stage\": \"round\", "
                         "\"tables\": [{\"table\": 1, \"players\": [\"p1\", "
                         "\"p2\", "
                         "\"p3\", \"p4\"], \"result\": {\"vp\": {\"p1\": 10, "
                         "\"p2\": 8, "
                         "\"p3\": 7, \"p4\": 1}, \"winner\": \"p1\"}}]}]}",
        "event.rounds[0].tables[0].result.winner: unknown key");
    event_fails(EV_HEAD("neuroshima-hex") ", \"rounds\": [{\"stage\": "
                                          "\"swiss\", \"tables\": [{\"table\": "
                                          "1, \"players\": [\"p1\", "
                                          "\"p2\"], \"result\": {\"winner\": "
                                          "\"p3\", \"hq_diff\": 3}}]}]}",
                "event.rounds[0].tables[0].result.winner: \"p3\" is not a "
                "player of this table");
    event_fails(
        EV_HEAD(
            "neuroshima-hex") ", \"rounds\": [{\"stage\": "
                              "\"swiss\", \"tables\": [{\"table\": 1, "
                              "\"players\": [\"p1\", "
                              "\"p2\"], \"result\": {\"winner\": \"p1\"}}]}]}",
        "event.rounds[0].tables[0].result.hq_diff: missing");
    event_fails(EV_HEAD("neuroshima-hex") ", \"rounds\": [{\"stage\": "
                                          "\"swis\", \"tables\": []}]}",
                "event.rounds[0].stage: unknown stage \"swis\" (stages of "
                "format \"neuroshima-hex\": swiss, elimination)");
    event_fails(EV_HEAD("neuroshima-hex") ", \"drops\": [{\"player\": \"p2\","
                                          " \"after\": 1}]}",
                "event.drops[0].after: unknown key");
    event_fails(EV_HEAD("catan") ", \"options\": {\"cut\": 4}}",
                "event.options.cut: unknown option (options of format "
                "\"catan\": rounds, players_per_table, bye_points, "
                "round_timer_minutes, action_seconds)");
    event_fails("{\"format\": \"catan\", \"players\": [{\"id\": \"p1\", "
                "\"name\": \"A\", \"armies\": [\"Borgo\"]}]}",
                "event.players[0].armies: format \"catan\" has no army list");
    event_fails("{\"format\": \"neuroshima-hex\", \"players\": [{\"id\": "
                "\"p1\", \"name\": \"A\", \"armies\": [\"Borg\"]}]}",
                "event.players[0].armies[0]: unknown army \"Borg\"");
    event_fails("{\"format\": {\"name\": \"x\"}, \"players\": []}",
                "event.format.title: missing");
    event_fails(EV_HEAD("got-lcg2") ", \"rounds\": [{\"stage\": \"swiss\", "
                                    "\"tables\": [{\"table\": 1, \"players\": "
                                    "[\"p1\", \"p2\"], "
                                    "\"result\": {\"winner\": \"p1\", "
                                    "\"modified\": \"yes\"}}]}]}",
                "event.rounds[0].tables[0].result.modified: expected true or "
                "false");
}

static void test_TX_results_decision_default_penalty(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    const char *text = EV_HEAD(
        "tantrix") ", \"rounds\": [{\"stage\": \"swiss\", \"tables\": ["
                   "{\"table\": 1, \"players\": [\"p1\", \"p2\"], \"result\": "
                   "{\"scores\":"
                   " {\"p1\": 25, \"p2\": 18}, \"clock_ms\": {\"p1\": 1140000, "
                   "\"p2\": "
                   "1265000}, \"penalty\": {\"p2\": 1.0}}},"
                   "{\"table\": 2, \"players\": [\"p3\", \"p4\"], \"result\": "
                   "{\"default_win\": \"p4\"}},"
                   "{\"table\": 3, \"players\": [\"p5\", \"p1\"], \"result\": "
                   "{\"tp\": "
                   "{\"p5\": 14.0, \"p1\": 6.0}}}]}]}";
    assert_int_equal(parse_event(text, &ev, &d), 0);
    const struct tny_table *t = ev.rounds[0].tables;
    assert_true(t[0].result.has_score);
    assert_int_equal(t[0].result.score[1], 18);
    assert_true(t[0].result.has_clock);
    assert_int_equal(t[0].result.clock_ms[1], 1265000); /* TX-3 */
    assert_int_equal(t[0].result.penalty[1], P(1));     /* TX-7 */
    assert_int_equal(t[0].result.penalty[0], 0);
    assert_int_equal(t[1].result.default_winner, 1); /* TX-5 */
    assert_true(t[2].result.decided);                /* TX-4 */
    assert_int_equal(t[2].result.decided_tp[0], P(14));
    assert_int_equal(t[2].result.decided_tp[1], P(6));
    char *a = NULL;
    assert_int_equal(tny_event_to_json(&ev, &a), 0);
    assert_non_null(strstr(a, "\"penalty\": {\n"));
    tny_event_release(&ev);
    free(a);
}

static void test_GT_9_games_and_GT_11_rejoin(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    const char *text =
        EV_HEAD("got-lcg2") ", \"drops\": [{\"player\": \"p5\", \"after_round\""
                            ": 1, \"rejoin_round\": 3}], \"disqualified\": "
                            "[{\"player\": \"p4\", "
                            "\"after_round\": 2}], \"rounds\": [{\"stage\": "
                            "\"elimination\", "
                            "\"tables\": [{\"table\": 1, \"players\": [\"p1\", "
                            "\"p2\"], \"result\":"
                            " {\"games\": [\"p2\", \"p1\", \"p1\"]}}]}]}";
    assert_int_equal(parse_event(text, &ev, &d), 0);
    const struct tny_result *r = &ev.rounds[0].tables[0].result;
    assert_int_equal(r->n_games, 3);
    assert_int_equal(r->games[0], 1);
    assert_int_equal(r->games[2], 0);
    assert_int_equal(r->winner, -1);
    assert_int_equal(ev.players[4].dropped_after, 1);
    assert_int_equal(ev.players[4].rejoined_from, 3);
    assert_int_equal(ev.players[3].dq_after, 2); /* CM-3 */
    tny_event_release(&ev);
}

static void test_event_format_object_with_copied_preset(void **state)
{
    (void)state;
    /* An organiser's copy of `tourney format catan`, loaded inline. */
    struct tny_format *f = preset("catan");
    char *ftext = NULL;
    assert_int_equal(tny_format_to_json(f, &ftext), 0);
    size_t cap = strlen(ftext) + 256;
    char *text = malloc(cap);
    snprintf(text, cap,
             "{\"format\": %s, \"options\": {\"rounds\": 6}, "
             "\"players\": []}",
             ftext);
    struct tny_event ev;
    struct tny_diag d = {{0}};
    if (tny_event_from_json_text(text, strlen(text), &ev, &d) != 0)
        fail_msg("%s", d.msg);
    assert_int_equal(ev.format.stages[0].rounds, 6);
    /* written back as an object (it differs from the preset now) */
    char *out = NULL;
    assert_int_equal(tny_event_to_json(&ev, &out), 0);
    assert_non_null(strstr(out, "\"format\": {"));
    free(out);
    tny_event_release(&ev);
    free(text);
    free(ftext);
    free(f);
}

/* ---- output ------------------------------------------------------------ */

static void test_standings_output_shape(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    assert_int_equal(parse_event(EV_HEAD("agricola") "}", &ev, &d), 0);
    struct tny_standing_row rows[2];
    memset(rows, 0, sizeof(rows));
    rows[0].rank = 1;
    rows[0].player = 1;
    rows[0].points = P(12.5);
    rows[0].tiebreaks[0] = 1;
    rows[0].has_tiebreak[0] = true;
    rows[0].tiebreaks[1] = -3.25;
    rows[0].has_tiebreak[1] = true;
    rows[0].decided_by_lot = true;
    rows[1].rank = 2;
    rows[1].player = 0;
    rows[1].points = P(3.75);
    rows[1].dropped = true;
    rows[1].disqualified = true;
    struct tny_standings st = {
        .after_round = 4,
        .stage = TNY_STAGE_FINAL,
        .n_tiebreaks = 2,
        .tiebreaks = {TNY_TB_FINAL_PLACEMENT, TNY_TB_RELATIVE_SCORE},
        .n_rows = 2,
        .rows = rows};
    char *out = NULL;
    assert_int_equal(tny_standings_to_json(&ev, &st, &out), 0);
    assert_string_equal(out, "{\n"
                             "  \"after_round\": 4,\n"
                             "  \"stage\": \"final\",\n"
                             "  \"standings\": [\n"
                             "    {\n"
                             "      \"rank\": 1,\n"
                             "      \"player\": \"p2\",\n"
                             "      \"name\": \"B\",\n"
                             "      \"points\": 12.5,\n"
                             "      \"tiebreaks\": {\n"
                             "        \"final_placement\": 1,\n"
                             "        \"relative_score\": -3.25\n"
                             "      },\n"
                             "      \"dropped\": false,\n"
                             "      \"decided_by_lot\": true\n"
                             "    },\n"
                             "    {\n"
                             "      \"rank\": 2,\n"
                             "      \"player\": \"p1\",\n"
                             "      \"name\": \"A\",\n"
                             "      \"points\": 3.75,\n"
                             "      \"tiebreaks\": {\n"
                             "        \"final_placement\": null,\n"
                             "        \"relative_score\": null\n"
                             "      },\n"
                             "      \"dropped\": true,\n"
                             "      \"decided_by_lot\": false,\n"
                             "      \"disqualified\": true\n"
                             "    }\n"
                             "  ]\n"
                             "}\n");
    free(out);
    tny_event_release(&ev);
}

static void test_AG_4_round_plan_output_shape(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    assert_int_equal(parse_event(EV_HEAD("agricola") "}", &ev, &d), 0);
    struct tny_pairing_table tables[2] = {
        {.number = 1, .n_seats = 4, .seats = {3, 0, 2, 1}, .first_seat = 2},
        {.number = 0,
         .is_bye = true,
         .n_seats = 1,
         .seats = {4},
         .first_seat = -1}};
    char explain[] = "seated by lot (AG-3)";
    struct tny_round_plan plan = {.round = 1,
                                  .stage = TNY_STAGE_PRELIM,
                                  .n_tables = 2,
                                  .tables = tables,
                                  .explain = explain};
    char *out = NULL;
    assert_int_equal(tny_round_plan_to_json(&ev, &plan, &out), 0);
    assert_string_equal(out, "{\n"
                             "  \"round\": 1,\n"
                             "  \"stage\": \"prelim\",\n"
                             "  \"tables\": [\n"
                             "    {\n"
                             "      \"table\": 1,\n"
                             "      \"players\": [\n"
                             "        \"p4\",\n"
                             "        \"p1\",\n"
                             "        \"p3\",\n"
                             "        \"p2\"\n"
                             "      ],\n"
                             "      \"first_player\": \"p3\"\n"
                             "    },\n"
                             "    {\n"
                             "      \"bye\": \"p5\"\n"
                             "    }\n"
                             "  ],\n"
                             "  \"explain\": \"seated by lot (AG-3)\"\n"
                             "}\n");
    free(out);
    tny_event_release(&ev);
}

/* Issue 17: the round plan is written straight into a buffer; it must be
 * jansson's dump of the tree the output was built from before, byte for
 * byte (JSON_INDENT(2), the same escapes), and text jansson refused (not
 * UTF-8) is still refused.  Random plans over ids and explanations made
 * of quotes, backslashes, control bytes, DEL, UTF-8 of every length, the
 * replacement character, and bytes that are not UTF-8. */
static json_t *ref_table(const struct tny_event *ev,
                         const struct tny_pairing_table *t)
{
    json_t *o = json_object();
    if (t->is_bye)
        return json_object_set_new(o, "bye",
                                   json_string(ev->players[t->seats[0]].id))
                   ? (json_decref(o), NULL)
                   : o;
    json_t *ps = json_array();
    for (int32_t k = 0; k < t->n_seats; k++)
        if (json_array_append_new(ps,
                                  json_string(ev->players[t->seats[k]].id))) {
            json_decref(ps);
            json_decref(o);
            return NULL;
        }
    json_object_set_new(o, "table", json_integer(t->number));
    json_object_set_new(o, "players", ps);
    if (t->first_seat >= 0 && t->first_seat < t->n_seats &&
        json_object_set_new(
            o, "first_player",
            json_string(ev->players[t->seats[t->first_seat]].id))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static char *ref_plan(const struct tny_event *ev,
                      const struct tny_round_plan *plan)
{
    json_t *o = json_object(), *tabs = json_array();
    json_object_set_new(o, "round", json_integer(plan->round));
    json_object_set_new(o, "stage",
                        json_string(tny_stage_kind_name(plan->stage)));
    bool ok = true;
    for (int32_t i = 0; ok && i < plan->n_tables; i++)
        ok = json_array_append_new(tabs, ref_table(ev, &plan->tables[i])) == 0;
    json_object_set_new(o, "tables", tabs);
    ok = ok &&
         json_object_set_new(o, "explain", json_string(plan->explain)) == 0;
    char *text = ok ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                        JSON_REAL_PRECISION(15))
                    : NULL;
    json_decref(o);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *with_nl = realloc(text, n + 2);
    assert_non_null(with_nl);
    with_nl[n] = '\n';
    with_nl[n + 1] = '\0';
    return with_nl;
}

static void random_text(struct tny_rng *rng, char *out, int max)
{
    static const char *const pieces[] = {"a",
                                         "Z",
                                         "0",
                                         "-",
                                         " ",
                                         "\"",
                                         "\\",
                                         "/",
                                         "\x01",
                                         "\x1f",
                                         "\b",
                                         "\f",
                                         "\n",
                                         "\r",
                                         "\t",
                                         "\x7f",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80",
                                         "\xef\xbf\xbd",
                                         "\xff",
                                         "\x80",
                                         "\xc3",
                                         "\xed\xa0\x80",
                                         "\xc0\xaf",
                                         "p1"};
    int n = (int)tny_rng_below(rng, 6), len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *p = pieces[tny_rng_below(
            rng, (uint32_t)(sizeof(pieces) / sizeof(pieces[0])))];
        /* Mostly valid text: a byte that is not UTF-8 one time in four. */
        if ((unsigned char)p[0] >= 0x80 && p[0] != (char)0xc3 &&
            p[0] != (char)0xe2 && p[0] != (char)0xf0 && p[0] != (char)0xef &&
            tny_rng_below(rng, 4) != 0)
            p = "b";
        if (strcmp(p, "\xc3") == 0 && tny_rng_below(rng, 4) != 0)
            p = "c";
        if (len + (int)strlen(p) >= max)
            break;
        strcpy(out + len, p);
        len += (int)strlen(p);
    }
}

static void test_issue17_round_plan_text_is_janssons(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    assert_int_equal(parse_event(EV_HEAD("agricola") "}", &ev, &d), 0);
    char *saved[5], ids[5][32], explain[32];
    for (int i = 0; i < 5; i++)
        saved[i] = ev.players[i].id;
    struct tny_rng rng;
    tny_rng_seed(&rng, 17);
    int refused = 0, written = 0;
    for (int trial = 0; trial < 3000; trial++) {
        for (int i = 0; i < 5; i++) {
            random_text(&rng, ids[i], sizeof(ids[i]));
            ev.players[i].id = ids[i];
        }
        random_text(&rng, explain, sizeof(explain));
        struct tny_pairing_table tables[3];
        int32_t n = (int32_t)tny_rng_below(&rng, 4);
        for (int32_t t = 0; t < n; t++) {
            memset(&tables[t], 0, sizeof(tables[t]));
            tables[t].is_bye = tny_rng_below(&rng, 4) == 0;
            tables[t].number = tables[t].is_bye ? 0 : t + 1;
            tables[t].n_seats =
                tables[t].is_bye ? 1 : 2 + (int32_t)tny_rng_below(&rng, 3);
            for (int32_t k = 0; k < tables[t].n_seats; k++)
                tables[t].seats[k] = (int32_t)tny_rng_below(&rng, 5);
            tables[t].first_seat = (int32_t)tny_rng_below(&rng, 6) - 1;
        }
        struct tny_round_plan plan = {.round = 1 + trial % 12,
                                      .stage = TNY_STAGE_PRELIM,
                                      .n_tables = n,
                                      .tables = tables,
                                      .explain = explain};
        char *want = ref_plan(&ev, &plan), *got = NULL;
        int rc = tny_round_plan_to_json(&ev, &plan, &got);
        if (!want) {
            assert_int_equal(rc, TNY_ENOMEM);
            assert_null(got);
            refused++;
        } else {
            assert_int_equal(rc, 0);
            assert_string_equal(got, want);
            written++;
        }
        free(want);
        free(got);
    }
    assert_true(refused > 100 && written > 1000);
    for (int i = 0; i < 5; i++)
        ev.players[i].id = saved[i];
    tny_event_release(&ev);
}

/* ---- properties -------------------------------------------------------- */

/* A random event of the given preset (shape-valid, not necessarily
 * meaningful), built as a struct. */
static void random_event(struct tny_rng *rng, const char *name,
                         struct tny_event *ev)
{
    struct tny_diag d = {{0}};
    char buf[32];
    tny_event_init(ev);
    assert_int_equal(tny_format_preset(name, &ev->format, &d), 0);
    const struct tny_format *f = &ev->format;
    ev->seed = tny_rng_next(rng) >> 1;
    int32_t n = 4 + (int32_t)tny_rng_below(rng, 20);
    ev->n_players = n;
    ev->players = calloc((size_t)n, sizeof(*ev->players));
    for (int32_t i = 0; i < n; i++) {
        struct tny_player *p = &ev->players[i];
        snprintf(buf, sizeof(buf), "id-%d.%u", (int)i,
                 (unsigned)tny_rng_below(rng, 1000));
        p->id = strdup(buf);
        p->name = strdup("N\xc3\xa9meth \"Q\"");
        p->first_round = 1 + (int32_t)tny_rng_below(rng, 2);
        if (tny_rng_below(rng, 2)) {
            p->has_rating = true;
            p->rating = (double)tny_rng_below(rng, 30000) / 10.0;
        }
        if (tny_rng_below(rng, 3) == 0)
            p->club = strdup("Club");
        if (f->n_armies && tny_rng_below(rng, 2)) {
            p->n_armies = 5;
            for (int a = 0; a < 5; a++)
                p->armies[a] =
                    (int32_t)tny_rng_below(rng, (uint64_t)f->n_armies);
        }
        if (tny_rng_below(rng, 4) == 0)
            p->dropped_after = 1 + (int32_t)tny_rng_below(rng, 3);
        if (p->dropped_after && tny_rng_below(rng, 2))
            p->rejoined_from = p->dropped_after + 1;
        if (tny_rng_below(rng, 8) == 0)
            p->dq_after = 1 + (int32_t)tny_rng_below(rng, 3);
        if (tny_rng_below(rng, 4) == 0) {
            p->n_colours = 1;
            p->colours[0] = strdup("red");
        }
    }
    int32_t seats = f->players_per_table;
    ev->n_rounds = (int32_t)tny_rng_below(rng, 4);
    ev->rounds = calloc((size_t)ev->n_rounds + 1, sizeof(*ev->rounds));
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        struct tny_round *round = &ev->rounds[r];
        int32_t *order = malloc((size_t)n * sizeof(int32_t));
        for (int32_t i = 0; i < n; i++)
            order[i] = i;
        tny_rng_shuffle_i32(rng, order, n);
        round->stage =
            f->stages[tny_rng_below(rng, (uint64_t)f->n_stages)].kind;
        round->n_tables = n / seats + (n % seats != 0);
        round->tables = calloc((size_t)round->n_tables, sizeof(*round->tables));
        for (int32_t t = 0; t < round->n_tables; t++) {
            struct tny_table *tb = &round->tables[t];
            struct tny_result *res = &tb->result;
            int32_t left = n - t * seats;
            res->winner = res->default_winner = -1;
            for (int s = 0; s < TNY_MAX_SEATS; s++)
                res->army[s] = -1;
            if (left < 2) {
                tb->is_bye = true;
                tb->n_seats = 1;
                tb->seats[0] = order[t * seats];
                continue;
            }
            tb->number = t + 1;
            tb->n_seats = left < seats ? left : seats;
            for (int32_t s = 0; s < tb->n_seats; s++)
                tb->seats[s] = order[t * seats + s];
            tb->has_result = tny_rng_below(rng, 5) != 0;
            if (!tb->has_result)
                continue;
            int32_t ns = tb->n_seats;
            /* By the result's shape: a game on another's result (its flow,
             * tny_game_flow) needs no case of its own. */
            switch (tny_game_flow(f->game)) {
            case TNY_GAME_NEUROSHIMA_HEX:
                res->draw = tny_rng_below(rng, 4) == 0;
                res->winner = res->draw ? -1 : (int32_t)tny_rng_below(rng, 2);
                res->hq_diff = res->draw ? 0 : (int32_t)tny_rng_below(rng, 21);
                if (tny_rng_below(rng, 2))
                    res->army[1] =
                        (int32_t)tny_rng_below(rng, (uint64_t)f->n_armies);
                break;
            case TNY_GAME_TANTRIX:
                switch (tny_rng_below(rng, 3)) {
                case 0:
                    res->default_winner = (int32_t)tny_rng_below(rng, 2);
                    break;
                case 1:
                    res->decided = true;
                    res->decided_tp[0] = (int64_t)tny_rng_below(rng, 201) * 120;
                    res->decided_tp[1] = P(20) - res->decided_tp[0];
                    break;
                default:
                    res->has_score = true;
                    res->has_clock = tny_rng_below(rng, 2);
                    for (int s = 0; s < 2; s++) {
                        res->score[s] = (int32_t)tny_rng_below(rng, 60);
                        if (res->has_clock)
                            res->clock_ms[s] =
                                (int32_t)tny_rng_below(rng, 1800000);
                    }
                    if (tny_rng_below(rng, 3) == 0)
                        res->penalty[tny_rng_below(rng, 2)] = P(0.5);
                }
                break;
            case TNY_GAME_GOT_LCG2:
                res->winner = (int32_t)tny_rng_below(rng, 2);
                res->modified = tny_rng_below(rng, 3) == 0;
                if (tny_rng_below(rng, 3) == 0) {
                    res->n_games = 2 + (int32_t)tny_rng_below(rng, 2);
                    for (int g = 0; g < res->n_games; g++)
                        res->games[g] = (int32_t)tny_rng_below(rng, 2);
                }
                break;
            case TNY_GAME_TWO_PLAYER:
                /* written back as parsed: explicit winner or outcome */
                res->has_score = tny_rng_below(rng, 3) != 0;
                for (int s = 0; res->has_score && s < 2; s++)
                    res->score[s] = (int32_t)tny_rng_below(rng, 201);
                switch (tny_rng_below(rng, 4)) {
                case 0: res->draw = f->draws; break;
                case 1: res->intentional_draw = f->intentional_draws; break;
                case 2: res->double_loss = f->double_losses; break;
                }
                if (!res->draw && !res->intentional_draw && !res->double_loss)
                    res->winner = (int32_t)tny_rng_below(rng, 2);
                break;
            case TNY_GAME_AGRICOLA:
            case TNY_GAME_CATAN:
                res->has_score = true;
                for (int s = 0; s < ns; s++) {
                    res->score[s] = (int32_t)tny_rng_below(rng, 60) - 5;
                    if (f->game == TNY_GAME_AGRICOLA) {
                        res->ip[s] = (int32_t)tny_rng_below(rng, 15);
                        res->bp[s] = (int32_t)tny_rng_below(rng, 9) - 3;
                    }
                }
                break;
            default: /* a game on another's result is never a flow */
                fail_msg("%s: no random result of game %s here", f->name,
                         tny_game_name(f->game));
            }
        }
        free(order);
    }
}

static void assert_events_equal(const struct tny_event *a,
                                const struct tny_event *b)
{
    assert_memory_equal(&a->format, &b->format, sizeof(a->format));
    assert_int_equal(a->seed, b->seed);
    assert_int_equal(a->n_players, b->n_players);
    for (int32_t i = 0; i < a->n_players; i++) {
        const struct tny_player *p = &a->players[i], *q = &b->players[i];
        assert_string_equal(p->id, q->id);
        assert_string_equal(p->name, q->name);
        assert_int_equal(p->club != NULL, q->club != NULL);
        assert_int_equal(p->has_rating, q->has_rating);
        assert_true(p->rating == q->rating);
        assert_int_equal(p->n_armies, q->n_armies);
        assert_memory_equal(p->armies, q->armies, sizeof(p->armies));
        assert_int_equal(p->first_round, q->first_round);
        assert_int_equal(p->dropped_after, q->dropped_after);
        assert_int_equal(p->rejoined_from, q->rejoined_from);
        assert_int_equal(p->dq_after, q->dq_after);
        assert_int_equal(p->n_colours, q->n_colours);
    }
    assert_int_equal(a->n_rounds, b->n_rounds);
    for (int32_t r = 0; r < a->n_rounds; r++) {
        assert_int_equal(a->rounds[r].stage, b->rounds[r].stage);
        assert_int_equal(a->rounds[r].n_tables, b->rounds[r].n_tables);
        for (int32_t t = 0; t < a->rounds[r].n_tables; t++) {
            const struct tny_table *x = &a->rounds[r].tables[t];
            const struct tny_table *y = &b->rounds[r].tables[t];
            assert_int_equal(x->number, y->number);
            assert_int_equal(x->is_bye, y->is_bye);
            assert_int_equal(x->n_seats, y->n_seats);
            assert_memory_equal(x->seats, y->seats,
                                sizeof(x->seats[0]) * (size_t)x->n_seats);
            assert_int_equal(x->has_result, y->has_result);
            if (x->has_result)
                assert_memory_equal(&x->result, &y->result, sizeof(x->result));
        }
    }
}

static void test_CM_4_event_round_trip_random(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x6a736f6e);
    int cases = tu_property_cases(600);
    for (int c = 0; c < cases; c++) {
        struct tny_event ev, back;
        struct tny_diag d = {{0}};
        char *a = NULL, *b = NULL;
        random_event(&rng, tny_presets[(size_t)c % n_shipped()].name, &ev);
        assert_int_equal(tny_event_to_json(&ev, &a), 0);
        json_error_t err;
        json_t *root = json_loads(a, 0, &err);
        assert_non_null(root);
        if (tny_event_from_json(root, &back, &d) != 0)
            fail_msg("case %d: %s\n%s", c, d.msg, a);
        json_decref(root);
        assert_events_equal(&ev, &back);
        assert_int_equal(tny_event_to_json(&back, &b), 0);
        assert_string_equal(a, b);
        free(a);
        free(b);
        tny_event_release(&ev);
        tny_event_release(&back);
    }
}

/* tny_event_copy and tny_event_copy_frozen: the copy writes the same
 * event file, and shares nothing with the original (the original is
 * released first; ASan sees any shared byte, and a frozen copy's string
 * freed on its own). */
static void test_event_copy_random(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x636f7079);
    int cases = tu_property_cases(300);
    for (int c = 0; c < cases; c++) {
        struct tny_event ev, copy;
        char *a = NULL, *b = NULL;
        random_event(&rng, tny_presets[(size_t)c % n_shipped()].name, &ev);
        /* every other case the frozen copy (one block of strings) */
        if (c % 2)
            assert_int_equal(tny_event_copy_frozen(&ev, &copy), 0);
        else
            assert_int_equal(tny_event_copy(&ev, &copy), 0);
        assert_true((copy.strings != NULL) == (c % 2 && ev.n_players > 0));
        assert_events_equal(&ev, &copy);
        assert_int_equal(tny_event_to_json(&ev, &a), 0);
        tny_event_release(&ev);
        assert_int_equal(tny_event_to_json(&copy, &b), 0);
        assert_string_equal(a, b);
        free(a);
        free(b);
        tny_event_release(&copy);
    }
}

/* CM-6: a stored result row (tny_result_to_json) reads back as the same
 * result (tny_result_same), and a result that differs in one field a
 * table reports is not the same. */
static void test_CM_6_result_row_round_trip_and_same_random(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x73616d65);
    int cases = tu_property_cases(300);
    for (int c = 0; c < cases; c++) {
        struct tny_event ev;
        random_event(&rng, tny_presets[(size_t)c % n_shipped()].name, &ev);
        for (int32_t r = 0; r < ev.n_rounds; r++)
            for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
                const struct tny_table *tb = &ev.rounds[r].tables[t];
                if (tb->is_bye || !tb->has_result)
                    continue;
                struct tny_diag d = {{0}};
                struct tny_table back = *tb;
                json_t *row = tny_result_to_json(&ev, tb);
                assert_non_null(row);
                /* As tables report it: an NH draw tells no HQ difference. */
                if (ev.format.game == TNY_GAME_NEUROSHIMA_HEX &&
                    tb->result.draw)
                    assert_null(json_object_get(row, "hq_diff"));
                if (tny_result_from_json(&ev, tb, row, "result", &back.result,
                                         &d) != 0)
                    fail_msg("case %d: %s", c, d.msg);
                json_decref(row);
                assert_true(
                    tny_result_same(&tb->result, &back.result, tb->n_seats));
                back.result.hq_diff++;
                assert_false(
                    tny_result_same(&tb->result, &back.result, tb->n_seats));
                back.result = tb->result;
                back.result.penalty[0] += 1; /* the organiser's, not the
                                                table's */
                assert_true(
                    tny_result_same(&tb->result, &back.result, tb->n_seats));
            }
        tny_event_release(&ev);
    }
}

/* tny_result_from_json parses a table's result object alone exactly as
 * the event file parse does: every result of random events of every
 * preset, parsed on its own and put back, writes the same event file. */
static void test_CM_6_result_alone_parses_as_in_event_random(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x72657375);
    int cases = tu_property_cases(600);
    for (int c = 0; c < cases; c++) {
        struct tny_event ev;
        struct tny_diag d = {{0}};
        char *a = NULL, *b = NULL;
        json_error_t err;
        random_event(&rng, tny_presets[(size_t)c % n_shipped()].name, &ev);
        assert_int_equal(tny_event_to_json(&ev, &a), 0);
        json_t *root = json_loads(a, 0, &err);
        assert_non_null(root);
        json_t *rounds = json_object_get(root, "rounds");
        for (int32_t r = 0; r < ev.n_rounds; r++) {
            json_t *tables =
                json_object_get(json_array_get(rounds, (size_t)r), "tables");
            for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
                struct tny_table *tb = &ev.rounds[r].tables[t];
                json_t *obj = json_object_get(json_array_get(tables, (size_t)t),
                                              "result");
                assert_int_equal(obj != NULL, tb->has_result);
                if (!obj)
                    continue;
                struct tny_result out;
                memset(&out, 0x5a, sizeof(out));
                if (tny_result_from_json(&ev, tb, obj, "result", &out, &d) != 0)
                    fail_msg("case %d: %s\n%s", c, d.msg, a);
                memset(&tb->result, 0x5a, sizeof(tb->result));
                tb->result = out;
            }
        }
        json_decref(root);
        assert_int_equal(tny_event_to_json(&ev, &b), 0);
        assert_string_equal(a, b);
        free(a);
        free(b);
        tny_event_release(&ev);
    }
}

/* Worked example (TX-3, TX-5, TX-7 shapes): the table's players by id,
 * errors named from the given path, *out untouched on error. */
static void test_TX_7_result_alone_worked_example_and_errors(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    struct tny_result out;
    json_error_t err;
    const char *text =
        EV_HEAD("tantrix") ", \"rounds\": [{\"stage\": \"swiss\", \"tables\": ["
                           "{\"table\": 1, \"players\": [\"p3\", \"p1\"]}]}]}";
    assert_int_equal(parse_event(text, &ev, &d), 0);
    const struct tny_table *tb = &ev.rounds[0].tables[0];
    json_t *res = json_loads("{\"scores\": {\"p1\": 25, \"p3\": 18}, "
                             "\"clock_ms\": {\"p1\": 1140000, \"p3\": "
                             "1265000}, \"penalty\": {\"p3\": 1.5}}",
                             0, &err);
    assert_non_null(res);
    assert_int_equal(tny_result_from_json(&ev, tb, res, "result", &out, &d), 0);
    /* seat 0 is p3, seat 1 is p1 */
    assert_true(out.has_score);
    assert_int_equal(out.score[0], 18);
    assert_int_equal(out.score[1], 25);
    assert_true(out.has_clock);
    assert_int_equal(out.clock_ms[0], 1265000); /* TX-3 */
    assert_int_equal(out.penalty[0], P(1.5));   /* TX-7 */
    assert_int_equal(out.penalty[1], 0);
    assert_int_equal(out.winner, -1);
    assert_int_equal(out.default_winner, -1);
    json_decref(res);

    res = json_loads("{\"default_win\": \"p1\"}", 0, &err);
    assert_int_equal(tny_result_from_json(&ev, tb, res, "result", &out, &d), 0);
    assert_int_equal(out.default_winner, 1); /* TX-5 */
    assert_false(out.has_score);
    json_decref(res);

    struct tny_result before = out;
    res = json_loads("{\"scores\": {\"p1\": 25, \"p2\": 18}}", 0, &err);
    assert_int_equal(tny_result_from_json(&ev, tb, res, "result", &out, &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "result.scores.p2: \"p2\" is not a player of "
                               "this table");
    assert_memory_equal(&before, &out, sizeof(out));
    json_decref(res);
    res = json_loads("{\"vp\": {\"p1\": 2}}", 0, &err);
    assert_int_equal(tny_result_from_json(&ev, tb, res, "r", &out, &d),
                     TNY_EINVAL);
    assert_true(strncmp(d.msg, "r.vp: unknown key", 17) == 0);
    json_decref(res);
    tny_event_release(&ev);
}

/* Truncating a valid event file anywhere gives an error, never a crash,
 * and the message names the document. */
static void test_truncated_event_files_fail_cleanly(void **state)
{
    (void)state;
    size_t len = strlen(nh_event);
    for (size_t cut = 0; cut < len; cut += 7) {
        struct tny_event ev;
        struct tny_diag d = {{0}};
        assert_true(tny_event_from_json_text(nh_event, cut, &ev, &d) < 0);
        assert_true(strncmp(d.msg, "event", 5) == 0);
    }
}

/* Random byte edits of valid files: an error with a message or a valid
 * parse, never a crash or a leak (ASan run). */
static void test_parsers_survive_mutations(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 0x6d757461);
    const char *alphabet = "{}[]\",:0123456789.-e truefalsnul\\p";
    size_t alen = strlen(alphabet);
    int cases = tu_property_cases(2000);
    for (int c = 0; c < cases; c++) {
        const char *src = c % 2 ? nh_event : tny_presets[c % 5].json;
        size_t len = strlen(src);
        char *buf = malloc(len + 1);
        memcpy(buf, src, len + 1);
        int edits = 1 + (int)tny_rng_below(&rng, 4);
        for (int e = 0; e < edits; e++)
            buf[tny_rng_below(&rng, len)] = alphabet[tny_rng_below(&rng, alen)];
        struct tny_diag d = {{0}};
        if (c % 2) {
            struct tny_event ev;
            if (tny_event_from_json_text(buf, len, &ev, &d) == 0)
                tny_event_release(&ev);
            else
                assert_true(d.msg[0] != '\0');
        } else {
            struct tny_format *f = malloc(sizeof(*f));
            if (tny_format_from_json_text(buf, len, f, &d) != 0)
                assert_true(strncmp(d.msg, "format", 6) == 0);
            free(f);
        }
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_shipped_sorted),
        cmocka_unit_test(test_NH_preset_swiss_and_knockout),
        cmocka_unit_test(test_NH_10_army_list_and_base_box),
        cmocka_unit_test(test_TX_2_margin_table_exact_tenths),
        cmocka_unit_test(test_AG_5_AG_11_placement_points_and_weight),
        cmocka_unit_test(test_GT_preset_structure_and_points),
        cmocka_unit_test(test_CT_preset_points_bye_and_chain),
        cmocka_unit_test(test_format_round_trip_every_preset),
        cmocka_unit_test(test_options_override_and_round_trip),
        cmocka_unit_test(test_TX_option_round_robin),
        cmocka_unit_test(test_GT_8_option_elimination_only),
        cmocka_unit_test(test_option_errors_name_the_option),
        cmocka_unit_test(test_format_errors_name_the_key),
        cmocka_unit_test(test_format_options_must_agree_with_body),
        cmocka_unit_test(test_points_exact_units),
        cmocka_unit_test(test_points_printed_with_fewest_digits),
        cmocka_unit_test(test_event_parses_contract_shape),
        cmocka_unit_test(test_event_round_trip),
        cmocka_unit_test(test_event_errors_name_the_key),
        cmocka_unit_test(test_TX_results_decision_default_penalty),
        cmocka_unit_test(test_GT_9_games_and_GT_11_rejoin),
        cmocka_unit_test(test_event_format_object_with_copied_preset),
        cmocka_unit_test(test_standings_output_shape),
        cmocka_unit_test(test_AG_4_round_plan_output_shape),
        cmocka_unit_test(test_issue17_round_plan_text_is_janssons),
        cmocka_unit_test(test_CM_4_event_round_trip_random),
        cmocka_unit_test(test_CM_6_result_alone_parses_as_in_event_random),
        cmocka_unit_test(test_event_copy_random),
        cmocka_unit_test(test_CM_6_result_row_round_trip_and_same_random),
        cmocka_unit_test(test_TX_7_result_alone_worked_example_and_errors),
        cmocka_unit_test(test_truncated_event_files_fail_cleanly),
        cmocka_unit_test(test_parsers_survive_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
