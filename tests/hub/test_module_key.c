/* test_module_key.c - a result key a game module declares of its own
 * (issue 18 item 1, "Done when": a new game with a new result field is
 * its module, one preset and one flow row; result_schema.h struct
 * tny_result_ext).  A test double game, registered only in this binary
 * (common/games/games.c compiled here with TNY_GAME_TEST_DOUBLE, game
 * value TNY_GAME_COUNT), declares three keys no shared key has: "rounds"
 * (a number 1..20), "bonus" (a number per player 0..5) and "overtime" (a
 * flag), besides the two-player result it uses (flow).  Each key must:
 * - be found by the schema's lookups and by the game's name, nowhere else;
 * - round-trip through the event file (read, validated, written back the
 *   same), out of range or missing a player refused naming the key;
 * - round-trip through the wire (table -> GameResult.values ->
 *   ResultSubmission bytes -> table, the same result), a value the game
 *   does not declare refused naming the value;
 * - come from the console's result argument (--game NAME) as the same
 *   result;
 * - be asked by the table's guided flow after the result's script (the
 *   module's range, a refusal out of it) and sent in GameResult.values;
 * - count in result equality (CM-6: another value is a conflict);
 * - be asked by the flow and printed on the slip by its label in the
 *   table's and the printout's language (the label a msgid, N_()).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "console_internal.h"
#include "flow.h"
#include "game.h"
#include "module_key_double.h"
#include "print.h"
#include "tny/event.h"
#include "tny/game.h"
#include "tny/i18n_io.h"
#include "tny/json_io.h"
#include "tny/result_schema.h"
#include "tny/result_value.h"
#include "tny/wire.h"

/* A format of the double: swiss-2p's text with the double's game. */
static const char *const fmt_text =
    "{\"name\": \"module-key-test\", \"title\": \"t\", "
    "\"game\": \"module-key-test\", \"players_per_table\": 2, "
    "\"min_players\": 2, \"max_players\": 0, \"player_multiple\": 1, "
    "\"options\": {\"pairing\": \"swiss\", \"swiss_rounds\": 3, "
    "\"bye_points\": 3, \"draws\": true}, "
    "\"points\": {\"win\": 3, \"draw\": 1, \"loss\": 0}, "
    "\"bye\": {\"rule\": \"lowest_ranked\", \"second_bye\": false, "
    "\"points\": 3}, "
    "\"stages\": [{\"name\": \"Swiss\", \"kind\": \"swiss\", "
    "\"pairing\": \"swiss\", \"group_order\": \"lot\", "
    "\"score_groups\": \"points\", \"rounds\": 3, "
    "\"tiebreaks\": [\"wins\", \"lot\"]}], "
    "\"two_player\": {\"draws\": true, \"intentional_draws\": false, "
    "\"double_losses\": false, \"score_min\": 0, \"score_max\": 400}, "
    "\"table\": {}}";

#define FULL                                                                   \
    "{\"scores\": {\"p1\": 7, \"p2\": 3}, \"winner\": \"p1\", \"rounds\": "    \
    "9, \"bonus\": {\"p1\": 2, \"p2\": 0}, \"overtime\": true}"

/* An event of format (a format object's text or a preset's name in
 * quotes), two players, one table with result. */
static int load(const char *format, const char *result, struct tny_event *ev,
                struct tny_diag *d)
{
    char buf[4096];
    int n = snprintf(buf, sizeof buf,
                     "{\"format\": %s, \"seed\": 1, \"players\": "
                     "[{\"id\": \"p1\", \"name\": \"P1\"}, {\"id\": \"p2\", "
                     "\"name\": \"P2\"}], \"rounds\": [{\"stage\": "
                     "\"swiss\", \"tables\": [{\"table\": 1, \"players\": "
                     "[\"p1\", \"p2\"], \"result\": %s}]}]}",
                     format, result);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    return tny_event_from_json_text(buf, strlen(buf), ev, d);
}

static void load_ok(const char *result, struct tny_event *ev)
{
    struct tny_diag d = {{0}};
    if (load(fmt_text, result, ev, &d) != 0)
        fail_msg("%s: %s", result, d.msg);
}

/* The first table's result object of an event file's text. */
static json_t *result_of(const char *text)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err), *r;
    assert_non_null(root);
    r = json_object_get(
        json_array_get(
            json_object_get(json_array_get(json_object_get(root, "rounds"), 0),
                            "tables"),
            0),
        "result");
    assert_non_null(r);
    json_incref(r);
    json_decref(root);
    return r;
}

static void test_lookups(void **state)
{
    enum tny_result_key k;
    (void)state;
    assert_ptr_equal(tny_game_ops_of(DOUBLE), &tny_test_double_game);
    assert_string_equal(tny_result_key_name(K_ROUNDS), "rounds");
    assert_int_equal(tny_result_key_info(K_BONUS)->value, TNY_RV_PER_PLAYER);
    assert_string_equal(tny_result_ext_of(K_OVERTIME)->text, "Overtime");
    assert_null(tny_result_ext_of(TNY_RK_SCORES));
    assert_true(tny_result_game_key(DOUBLE, "bonus", &k));
    assert_int_equal(k, K_BONUS);
    assert_true(tny_result_has_key(DOUBLE, K_ROUNDS));
    /* the double's key is its own: no other game has it */
    assert_false(tny_result_game_key(TNY_GAME_TWO_PLAYER, "rounds", &k));
    assert_false(tny_result_has_key(TNY_GAME_TWO_PLAYER, K_ROUNDS));
    /* every shipped module's own keys are named once, apart from the
     * shared keys (the wire and the console find a key by its name) */
    for (int32_t a = 0; a < TNY_RK_ALL; a++)
        for (int32_t b = 0; b < a; b++) {
            const struct tny_result_key_info *x =
                tny_result_key_info((enum tny_result_key)a);
            const struct tny_result_key_info *y =
                tny_result_key_info((enum tny_result_key)b);
            if (x && y && strcmp(x->name, y->name) == 0)
                fail_msg("key %d and key %d are both \"%s\"", (int)a, (int)b,
                         x->name);
        }
}

static void test_event_file_round_trip(void **state)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    char *text = NULL;
    json_error_t err;
    (void)state;

    load_ok(FULL, &ev);
    const struct tny_result *r = &ev.rounds[0].tables[0].result;
    assert_int_equal(r->ext_has, 7u);
    assert_int_equal(r->ext[0][0], 9);
    assert_int_equal(r->ext[1][0], 2);
    assert_int_equal(r->ext[1][1], 0);
    assert_int_equal(r->ext[2][0], 1);
    assert_int_equal(tny_result_validate(&ev, TNY_STAGE_SWISS,
                                         &ev.rounds[0].tables[0], "r", &d),
                     0);
    assert_int_equal(tny_event_to_json(&ev, &text), 0);
    json_t *back = result_of(text), *want = json_loads(FULL, 0, &err);
    char *b = json_dumps(back, JSON_SORT_KEYS);
    char *w = json_dumps(want, JSON_SORT_KEYS);
    assert_string_equal(b, w);
    free(b);
    free(w);
    json_decref(back);
    json_decref(want);
    free(text);
    tny_event_release(&ev);

    /* optional: a result without them has none */
    load_ok("{\"winner\": \"p2\"}", &ev);
    assert_int_equal(ev.rounds[0].tables[0].result.ext_has, 0u);
    tny_event_release(&ev);
}

static void refused(const char *format, const char *result, const char *want)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    if (load(format, result, &ev, &d) == 0)
        fail_msg("%s: accepted", result);
    if (!strstr(d.msg, want))
        fail_msg("%s: \"%s\" does not say \"%s\"", result, d.msg, want);
}

static void test_event_file_refusals(void **state)
{
    (void)state;
    refused(fmt_text, "{\"winner\": \"p1\", \"rounds\": 21}",
            "result.rounds: expected a number 1..20, got 21");
    refused(fmt_text, "{\"winner\": \"p1\", \"rounds\": 0}",
            "result.rounds: expected a number 1..20, got 0");
    refused(fmt_text, "{\"winner\": \"p1\", \"bonus\": {\"p1\": 6, \"p2\": 0}}",
            "result.bonus.p1: expected a number 0..5, got 6");
    refused(fmt_text, "{\"winner\": \"p1\", \"bonus\": {\"p1\": 1}}",
            "result.bonus: missing a value for \"p2\"");
    refused(fmt_text, "{\"winner\": \"p1\", \"overtime\": 1}",
            "result.overtime");
    /* another game's event has no such key */
    refused("\"swiss-2p\"", "{\"winner\": \"p1\", \"rounds\": 3}", "rounds");
}

/* t's result through the wire: GameResult, ResultSubmission bytes,
 * decoded, mapped back onto the table. */
static int through_wire(const struct tny_event *ev, const struct tny_table *t,
                        struct tny_wire_result *sent, struct tny_table *out,
                        struct tny_diag *d)
{
    struct tny_wire_submission sub, back;
    struct tny_table assigned = *t;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;

    memset(&sub, 0, sizeof sub);
    snprintf(sub.key, sizeof sub.key, "k1");
    snprintf(sub.device_id, sizeof sub.device_id, "table-001");
    snprintf(sub.event_id, sizeof sub.event_id, "e");
    sub.round = 1;
    sub.table = 1;
    sub.result = *sent;
    if ((rc = tny_wire_encode_submission(&sub, &buf, &len, d)) != 0 ||
        (rc = tny_wire_decode_submission(buf, len, &back, d)) != 0) {
        free(buf);
        return rc;
    }
    free(buf);
    assigned.has_result = false;
    return tny_wire_result_to_table(ev, TNY_STAGE_SWISS, &assigned,
                                    &back.result, "result", out, d);
}

static void test_wire_round_trip(void **state)
{
    struct tny_event ev;
    struct tny_wire_result w;
    struct tny_table out;
    struct tny_diag d = {{0}};
    (void)state;

    load_ok(FULL, &ev);
    const struct tny_table *t = &ev.rounds[0].tables[0];
    assert_int_equal(tny_wire_result_from_table(&ev, t, &w, &d), 0);
    /* GameResult.values: rounds, bonus of each player, overtime */
    assert_int_equal(w.game, TNY_GAME_TWO_PLAYER);
    assert_int_equal(w.n_ext, 4);
    assert_string_equal(w.ext[0].key, "rounds");
    assert_string_equal(w.ext[0].player_id, "");
    assert_int_equal(w.ext[0].value, 9);
    assert_string_equal(w.ext[1].key, "bonus");
    assert_string_equal(w.ext[1].player_id, "p1");
    assert_int_equal(w.ext[1].value, 2);
    assert_string_equal(w.ext[3].key, "overtime");
    assert_int_equal(w.ext[3].value, 1);
    if (through_wire(&ev, t, &w, &out, &d) != 0)
        fail_msg("through the wire: %s", d.msg);
    assert_true(tny_result_same(&out.result, &t->result, 2));
    assert_int_equal(out.result.ext[0][0], 9);

    /* refusals, each naming the value */
    struct tny_wire_result bad = w;
    snprintf(bad.ext[0].key, sizeof bad.ext[0].key, "nope");
    assert_int_not_equal(through_wire(&ev, t, &bad, &out, &d), 0);
    assert_non_null(strstr(d.msg, "values[0].key: \"nope\" is not a key"));
    bad = w;
    snprintf(bad.ext[0].player_id, sizeof bad.ext[0].player_id, "p1");
    assert_int_not_equal(through_wire(&ev, t, &bad, &out, &d), 0);
    assert_non_null(strstr(d.msg, "values[0].player_id: not expected"));
    bad = w;
    bad.ext[2] = bad.ext[3];
    bad.n_ext = 3; /* bonus of p2 missing */
    assert_int_not_equal(through_wire(&ev, t, &bad, &out, &d), 0);
    assert_non_null(strstr(d.msg, "missing \"bonus\" of \"p2\""));
    bad = w;
    bad.ext[0].value = 30;
    assert_int_not_equal(through_wire(&ev, t, &bad, &out, &d), 0);
    assert_non_null(strstr(d.msg, "rounds: expected a number 1..20, got 30"));
    bad = w;
    bad.ext[3].value = 2; /* a flag is 0 or 1 */
    assert_int_not_equal(through_wire(&ev, t, &bad, &out, &d), 0);
    assert_non_null(strstr(d.msg, "expected 0 or 1"));
    tny_event_release(&ev);

    /* a game without keys of its own sends no values */
    assert_int_equal(
        load("\"swiss-2p\"", "{\"scores\": {\"p1\": 7, \"p2\": 3}}", &ev, &d),
        0);
    assert_int_equal(
        tny_wire_result_from_table(&ev, &ev.rounds[0].tables[0], &w, &d), 0);
    assert_int_equal(w.n_ext, 0);
    tny_event_release(&ev);
}

static void test_console_argument(void **state)
{
    struct tny_event ev;
    struct tny_wire_result w;
    struct tny_table out;
    struct tny_diag d = {{0}};
    (void)state;

    load_ok(FULL, &ev);
    if (hub_console_result_from_json(FULL, "module-key-test", &w, &d) != 0)
        fail_msg("console: %s", d.msg);
    if (through_wire(&ev, &ev.rounds[0].tables[0], &w, &out, &d) != 0)
        fail_msg("console's result: %s", d.msg);
    assert_true(
        tny_result_same(&out.result, &ev.rounds[0].tables[0].result, 2));
    /* the key is the double's, not the two-player game's */
    assert_int_not_equal(
        hub_console_result_from_json(FULL, "two-player", &w, &d), 0);
    assert_non_null(strstr(d.msg, "result.rounds: not a key of a two-player"));
    tny_event_release(&ev);
}

static void test_result_same_counts_them(void **state)
{
    struct tny_event a, b;
    (void)state;
    load_ok(FULL, &a);
    load_ok("{\"scores\": {\"p1\": 7, \"p2\": 3}, \"winner\": \"p1\", "
            "\"rounds\": 10, \"bonus\": {\"p1\": 2, \"p2\": 0}, "
            "\"overtime\": true}",
            &b);
    assert_false(tny_result_same(&a.rounds[0].tables[0].result,
                                 &b.rounds[0].tables[0].result, 2));
    tny_event_release(&b);
    load_ok("{\"scores\": {\"p1\": 7, \"p2\": 3}, \"winner\": \"p1\", "
            "\"rounds\": 9, \"bonus\": {\"p1\": 2, \"p2\": 1}, "
            "\"overtime\": true}",
            &b);
    assert_false(tny_result_same(&a.rounds[0].tables[0].result,
                                 &b.rounds[0].tables[0].result, 2));
    tny_event_release(&b);
    load_ok(FULL, &b);
    assert_true(tny_result_same(&a.rounds[0].tables[0].result,
                                &b.rounds[0].tables[0].result, 2));
    tny_event_release(&b);
    tny_event_release(&a);
}

/* The table's RESULT flow of a two-player table of the double (its
 * format swiss-2p's, its game the double's) begun on *gp, *fp; the flow
 * keeps *ap. */
static void begin_result_flow(struct tny_wire_assignment *ap,
                              struct tbl_game *gp, struct tbl_flow *fp)
{
    struct tny_wire_assignment a;
    struct tny_diag d = {{0}};

    memset(&a, 0, sizeof a);
    a.version = 1;
    snprintf(a.event_id, sizeof a.event_id, "ev");
    a.game = TNY_GAME_TWO_PLAYER;
    snprintf(a.format_name, sizeof a.format_name, "swiss-2p");
    a.round = 1;
    a.stage = TNY_STAGE_SWISS;
    a.table = 1;
    a.n_seats = 2;
    for (int i = 0; i < 2; i++) {
        snprintf(a.seats[i].player_id, sizeof a.seats[i].player_id, "p%d",
                 i + 1);
        snprintf(a.seats[i].name, sizeof a.seats[i].name, "P%d", i + 1);
    }
    *ap = a;
    if (tbl_game_from_assignment(ap, gp, &d) != 0)
        fail_msg("game: %s", d.msg);
    gp->ev.format.game = DOUBLE;
    if (tbl_flow_begin(fp, TBL_FLOW_RESULT, gp, ap, NULL, 1, &d) != 0)
        fail_msg("begin: %s", d.msg);
}

/* The double's table's RESULT flow: the two-player script, then the
 * module's keys in their order. */
static void test_table_flow_asks_them(void **state)
{
    struct tny_wire_assignment a;
    struct tbl_game g;
    struct tbl_flow f;
    struct tbl_flow_step st;
    struct tny_diag d = {{0}};
    const int32_t answers[] = {0 /* both scores */, 7, 3, 9, 2, 0, 1 /* yes */};
    (void)state;

    begin_result_flow(&a, &g, &f);
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        tbl_flow_step(&f, &st);
        if (i == 3) {
            assert_int_equal(st.ask, TBL_ASK_NUMBER);
            assert_non_null(strstr(st.title, "Rounds played"));
            assert_int_equal(st.min, 1);
            assert_int_equal(st.max, 20);
            assert_int_not_equal(tbl_flow_answer(&f, 21, &d), 0);
        }
        if (i == 4)
            assert_non_null(strstr(st.title, "P1 (seat 1): Bonus"));
        if (i == 6)
            assert_non_null(strstr(st.title, "Overtime?"));
        if (tbl_flow_answer(&f, answers[i], &d) != 0)
            fail_msg("answer %d to \"%s\": %s", (int)answers[i], st.title,
                     d.msg);
    }
    tbl_flow_step(&f, &st);
    assert_int_equal(st.ask, TBL_ASK_INFO); /* the summary */
    assert_true(f.has_result);
    assert_int_equal(f.result.n_ext, 4);
    assert_string_equal(f.result.ext[0].key, "rounds");
    assert_int_equal(f.result.ext[0].value, 9);
    assert_string_equal(f.result.ext[2].player_id, "p2");
    assert_string_equal(f.result.ext[3].key, "overtime");
    assert_int_equal(f.result.ext[3].value, 1);
    tbl_flow_release(&f);
    tbl_game_release(&g);
}

/* Issue 18 item 1: a module's key labels are msgids (N_()), shown in the
 * table's language: the flow of the double's table in Polish asks
 * "Rozegrane rundy", "Premia" and "Dogrywka" (tests/hub/module_key_po),
 * the flow's own words in Polish around them, no English label left. */
static void test_table_flow_in_polish(void **state)
{
    struct tny_wire_assignment a;
    struct tbl_game g;
    struct tbl_flow f;
    struct tbl_flow_step st;
    struct tny_diag d = {{0}};
    const int32_t answers[] = {0, 7, 3, 9, 2, 0, 1};
    (void)state;

    setenv("TOURNEY_LOCALEDIR", TNY_TEST_LOCALEDIR, 1);
    tny_i18n_open("tourney-table");
    assert_int_equal(tny_i18n_use("pl"), 0);
    begin_result_flow(&a, &g, &f);
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        tbl_flow_step(&f, &st);
        if (i == 3) {
            assert_non_null(strstr(st.title, "Rozegrane rundy"));
            assert_null(strstr(st.title, "Rounds played"));
            assert_non_null(strstr(st.text, "Rozegrane rundy, 1..20."));
        }
        if (i == 4) /* the flow's "seat" in Polish, the label too */
            assert_non_null(strstr(st.title, "P1 (miejsce 1): Premia"));
        if (i == 6)
            assert_non_null(strstr(st.title, "Dogrywka?"));
        if (tbl_flow_answer(&f, answers[i], &d) != 0)
            fail_msg("answer %d to \"%s\": %s", (int)answers[i], st.title,
                     d.msg);
    }
    tbl_flow_step(&f, &st);
    assert_int_equal(st.ask, TBL_ASK_INFO); /* the summary, in Polish */
    assert_non_null(strstr(st.text, "Rozegrane rundy: 9"));
    assert_non_null(strstr(st.text, "Dogrywka: tak"));
    assert_null(strstr(st.text, "Overtime"));
    /* the wire keeps the key's name, not its label */
    assert_string_equal(f.result.ext[0].key, "rounds");
    tbl_flow_release(&f);
    tbl_game_release(&g);
    assert_int_equal(tny_i18n_use("en"), 0);
}

/* Issue 18 item 1: the printed slip of the double's table in Polish
 * (print.c): the per-player key a column headed "Premia", the number and
 * the flag lines under the table, the slip's own words in Polish. */
static void test_slip_in_polish(void **state)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    struct hub_print_opts po;
    char *html = NULL, buf[4096];
    (void)state;

    int n = snprintf(buf, sizeof buf,
                     "{\"format\": %s, \"seed\": 1, \"players\": "
                     "[{\"id\": \"p1\", \"name\": \"P1\"}, {\"id\": \"p2\", "
                     "\"name\": \"P2\"}], \"rounds\": [{\"stage\": "
                     "\"swiss\", \"tables\": [{\"table\": 1, \"players\": "
                     "[\"p1\", \"p2\"]}]}]}",
                     fmt_text);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    if (tny_event_from_json_text(buf, strlen(buf), &ev, &d) != 0)
        fail_msg("event: %s", d.msg);
    setenv("TOURNEY_LOCALEDIR", TNY_TEST_LOCALEDIR, 1);
    tny_i18n_open("tourney");
    memset(&po, 0, sizeof po);
    po.what = HUB_PRINT_SLIPS;
    po.lang = "pl";
    if (hub_print_html(&ev, &po, &html, &d) != 0)
        fail_msg("print: %s", d.msg);
    assert_non_null(strstr(html, "Premia"));
    assert_non_null(strstr(html, "Rozegrane rundy ________"));
    assert_non_null(strstr(html, "Dogrywka&nbsp;&#9744;"));
    assert_non_null(strstr(html, "Podpis")); /* the slip's own words */
    assert_null(strstr(html, "Rounds played"));
    assert_null(strstr(html, "Overtime"));
    assert_null(strstr(html, "Bonus"));
    free(html);
    tny_event_release(&ev);
}

/* Issue 18 item 1, second part: a set of one result's keys (the uint64_t
 * of tny_game_ops.result_rules) has a bit per key of that game
 * (TNY_RK_BIT), not per key id, so key ids past 63 (a 12th game's own
 * keys on) fit: every registered game's keys (the double's too) have
 * distinct bits under 64, and a module's own key of any game number,
 * however far past today's list, has the bit of its slot. */
static void test_key_bits_per_game(void **state)
{
    const struct tny_game_ops *const *all = NULL;
    const int32_t n = tny_game_registry(&all);
    (void)state;

    assert_int_equal(n, TNY_GAME_COUNT + 1); /* the double registered */
    for (int32_t g = 0; g < n; g++) {
        const enum tny_result_key *keys;
        const int32_t nk = tny_result_keys(all[g]->game, &keys);
        uint64_t seen = 0;
        for (int32_t i = 0; i < nk; i++) {
            const int bit = TNY_RK_BIT(keys[i]);
            assert_in_range(bit, 0, 63);
            assert_false((seen >> bit) & 1u); /* one bit a key */
            seen |= 1ull << bit;
            assert_true(TNY__HAS_KEY(seen, keys[i]));
        }
    }
    for (int g = 0; g < 200; g++)
        for (int slot = 0; slot < TNY_RESULT_EXT_MAX; slot++) {
            const enum tny_result_key k = TNY_RK_EXT(g, slot);
            const uint64_t present = 1ull << TNY_RK_BIT(k);
            assert_int_equal(TNY_RK_BIT(k), TNY_RK_COUNT + slot);
            assert_true(TNY__HAS_KEY(present, k));
            assert_false(TNY__HAS_KEY(present, TNY_RK_WINNER));
            assert_false(TNY__HAS_KEY(
                present, TNY_RK_EXT(g, (slot + 1) % TNY_RESULT_EXT_MAX)));
        }
    /* a key id past 63 (game 20's own keys: 17 + 80 + slot) */
    assert_true((int)TNY_RK_EXT(20, 3) > 63);
    assert_true(TNY__HAS_KEY(1ull << (TNY_RK_COUNT + 3), TNY_RK_EXT(20, 3)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_event_file_round_trip),
        cmocka_unit_test(test_event_file_refusals),
        cmocka_unit_test(test_wire_round_trip),
        cmocka_unit_test(test_console_argument),
        cmocka_unit_test(test_result_same_counts_them),
        cmocka_unit_test(test_table_flow_asks_them),
        cmocka_unit_test(test_table_flow_in_polish),
        cmocka_unit_test(test_slip_in_polish),
        cmocka_unit_test(test_key_bits_per_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
