/* test_jdoc.c - the event file's document reader (common/io/jdoc.c, issue
 * 17 item 4): it reads with yajl what jansson read before, so for every
 * text it must accept what jansson accepts, with the same values in the
 * same order, and refuse the rest with jansson's own message; and the event
 * parser on it gives the same event and the same messages, paths included
 * (docs/event-file.md: "one line on stderr that names the offending key or
 * value").  Read in place (the CLI's file buffer, no copy of its strings),
 * it must give the same values and messages, and a refused text back as it
 * was, for jansson to read.
 */
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"
#include "testutil.h"
#include "tny/json_io.h"

/* Reads text both ways; asserts they agree; returns the rc. */
static int both_ways(const char *text, size_t len)
{
    struct tny_jdoc fast, ref;
    struct tny_diag d_fast = {{0}}, d_ref = {{0}};
    json_t *root = NULL;
    struct tny_jdoc placed;
    struct tny_diag d_placed = {{0}};
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    copy[len] = '\0';
    int rc_fast = tny__jdoc_parse(&fast, text, len, "event", &d_fast);
    int rc_ref = tny__load(text, len, "event", &root, &d_ref);
    int rc_placed =
        tny__jdoc_parse_in_place(&placed, copy, len, "event", &d_placed);
    if (rc_fast != rc_ref || rc_placed != rc_ref)
        fail_msg("%.60s: yajl %d (%s), in place %d, jansson %d (%s)", text,
                 rc_fast, d_fast.msg, rc_placed, rc_ref, d_ref.msg);
    if (rc_fast < 0) {
        assert_string_equal(d_fast.msg, d_ref.msg);
        assert_string_equal(d_placed.msg, d_ref.msg);
        if (memcmp(copy, text, len) != 0) /* given back as it was */
            fail_msg("%.60s: text changed by a refused parse", text);
        free(copy);
        return rc_fast;
    }
    assert_int_equal(tny__jdoc_from_json(&ref, root), 0);
    if (!tny__jv_equal(fast.root, ref.root) ||
        !tny__jv_equal(placed.root, ref.root))
        fail_msg("%.60s: values differ", text);
    tny__jdoc_release(&ref);
    tny__jdoc_release(&fast);
    tny__jdoc_release(&placed);
    json_decref(root);
    free(copy);
    return 0;
}

#define BOTH(lit) both_ways(lit, sizeof(lit) - 1)

/* yajl reads these differently from jansson (it lets them through, or
 * reads them otherwise): each must be refused with jansson's message. */
static void test_refused_as_jansson_refuses(void **state)
{
    (void)state;
    assert_true(BOTH("{\"a\": 1, \"b\": 2, \"a\": 3}") < 0); /* duplicate */
    assert_true(BOTH("[\"\\ud800\"]") < 0);  /* lone surrogate escape */
    assert_true(BOTH("[\"\\udc00x\"]") < 0); /* lone low surrogate */
    assert_true(BOTH("[\"a\\u0000\"]") < 0); /* NUL */
    assert_true(BOTH("{\"a\\u0000\": 1}") < 0);
    assert_true(BOTH("[\"\xc0\x80\"]") < 0);         /* overlong */
    assert_true(BOTH("[\"\xed\xa0\x80\"]") < 0);     /* UTF-8 surrogate */
    assert_true(BOTH("[\"\xf4\x90\x80\x80\"]") < 0); /* > U+10FFFF */
    assert_true(BOTH("[1,\f2]") < 0);                /* \f is no blank */
    assert_true(BOTH("[1,\v2]") < 0);
    assert_true(BOTH("[9223372036854775808]") < 0);
    assert_true(BOTH("[-9223372036854775809]") < 0);
    assert_true(BOTH("[1e400]") < 0);
    assert_true(BOTH("1") < 0); /* jansson wants an object or array */
    assert_true(BOTH("\"x\"") < 0);
    assert_true(BOTH("[1] [2]") < 0);
    assert_true(BOTH("[1,]") < 0);
    assert_true(BOTH("{\"a\": [1, 2") < 0);
    assert_true(BOTH("") < 0);
    assert_true(BOTH("[1 /* c */]") < 0);
    assert_true(BOTH("[01]") < 0);
    assert_true(BOTH("[\"a\x01\"]") < 0);
    assert_true(BOTH("[NaN]") < 0);
    /* Refused after strings and names were read in place: the text
     * jansson reads must be the original one. */
    assert_true(BOTH("{\"a\": \"x\", \"b\": [\"y\", \"z\"], \"a\": 1}") < 0);
    assert_true(
        BOTH("{\"a\": \"x\", \"b\": [\"y\", \"z\"], \"c\": \"\\ud800\"}") < 0);
    assert_true(BOTH("{\"a\": \"x\", \"k\": \"\xc0\x80\"}") < 0);
    assert_true(BOTH("{\"a\": \"x\", \"k\xc0\x80\": 1}") < 0);
    assert_true(BOTH("{\"a\": [\"x\", 1e400]}") < 0);
    assert_true(BOTH("{\"a\": [\"x\"], \"b\": \"y\"} \"z\"") < 0);
    /* An unfinished token after the value: yajl leaves it unread. */
    assert_true(BOTH("{\r\n\"a\":\t1\r\n}\"") < 0);
    assert_true(BOTH("[1] \"x") < 0);
    assert_true(BOTH("{} tru") < 0);
    assert_true(BOTH("[1] -") < 0);

    /* Deeper than jansson's 2048 nested containers. */
    char deep[2 * 2049 + 1];
    memset(deep, '[', 2049);
    memset(deep + 2049, ']', 2049);
    assert_true(both_ways(deep, 2 * 2049) < 0);
    assert_int_equal(both_ways(deep + 1, 2 * 2048), 0);
}

static void test_accepted_values_equal(void **state)
{
    (void)state;
    /* Many keys: the duplicate check sorts them. */
    char big[2048] = "{";
    for (int i = 0; i < 40; i++)
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s\"k%d\": %d",
                 i ? ", " : "", i, i);
    strcat(big, "}");
    assert_int_equal(both_ways(big, strlen(big)), 0);
    assert_int_equal(BOTH("[9223372036854775807, -9223372036854775808, -0]"),
                     0);
    assert_int_equal(BOTH("[1e-400, 2.5, -0.0, 1E5, 12.5e-1, 0.1, 3.0]"), 0);
    assert_int_equal(BOTH("[\"\\ud83d\\ude00\", \"\\u00e9\", \"\\\\ud800\"]"),
                     0);
    assert_int_equal(BOTH("{\"name\": \"Zo\xc3\xab \xe6\x97\xa5 "
                          "\xf0\x9f\x98\x80\"}"),
                     0);
    assert_int_equal(BOTH("{\"s\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\": "
                          "null, \"t\": true, \"f\": false, \"o\": {}, "
                          "\"a\": []}"),
                     0);
    assert_int_equal(BOTH("{\r\n\"b\":\t1, \"a\": 2\r\n}\r\n"), 0);
    assert_int_equal(BOTH("[1]  \n\t\r "), 0);
}

/* The event parser on the new reader: the same messages, with the path of
 * the bad field, as the old one gave on jansson's tree (cli tests and
 * bench/compare_outputs.sh hold the rest). */
static void test_event_messages_name_the_path(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[512];
    assert_int_not_equal(
        tu_try_event("{'format': 'catan', 'players': [{'id': 'p1', 'name': "
                     "'A'}, {'id': 'p2', 'name': 'B', 'rating': 'x'}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_string_equal(msg, "event.players[1].rating: expected a number "
                             "-1000000..1000000");
    assert_int_not_equal(
        tu_try_event("{'format': 'got-lcg2', 'players': [{'id': 'p1', "
                     "'name': 'A'}, {'id': 'p2', 'name': 'B'}], 'rounds': "
                     "[{'stage': 'swiss', 'tables': [{'table': 1, 'players': "
                     "['p1', 'p2'], 'result': {'winner': 'p3'}}]}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_string_equal(msg, "event.rounds[0].tables[0].result.winner: \"p3\" "
                             "is not a player of this table");
    assert_int_not_equal(tu_try_event("{'format': 'catan', 'players': [], "
                                      "'players': []}",
                                      &ev, msg, sizeof(msg)),
                         0);
    assert_non_null(strstr(msg, "duplicate object key"));
}

/* The CLI reads its file in place (tny_event_from_json_buffer): the same
 * event and messages as from a copy; ids past the player index's inline
 * head (ID_HEAD, 11 bytes) that share it are told apart. */
static void test_event_in_place_same(void **state)
{
    (void)state;
    static const char *const files[] = {
        "{'format': 'got-lcg2', 'players': [{'id': 'player-0000000001', "
        "'name': 'A \\u00e9'}, {'id': 'player-0000000002', 'name': 'B'}, "
        "{'id': 'p3', 'name': 'C'}, {'id': 'player-000000000', 'name': 'D'}], "
        "'rounds': [{'stage': 'swiss', 'tables': [{'table': 1, 'players': "
        "['player-0000000002', 'player-0000000001'], 'result': {'winner': "
        "'player-0000000001'}}, {'table': 2, 'players': ['p3', "
        "'player-000000000']}]}]}",
        /* unknown: the same head, another tail */
        "{'format': 'got-lcg2', 'players': [{'id': 'player-0000000001', "
        "'name': 'A'}, {'id': 'p2', 'name': 'B'}], 'rounds': [{'stage': "
        "'swiss', 'tables': [{'table': 1, 'players': ['p2', "
        "'player-0000000003']}]}]}",
        /* duplicate long id */
        "{'format': 'got-lcg2', 'players': [{'id': 'player-0000000001', "
        "'name': 'A'}, {'id': 'player-0000000001', 'name': 'B'}]}",
        "{'format': 'catan', 'players': [{'id': 'p1', 'name': 'A'}], "
        "'title': 5}",
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char *text = tu_json(files[i]);
        size_t len = strlen(text);
        char *buf = strdup(text);
        struct tny_event a, b;
        struct tny_diag da = {{0}}, db = {{0}};
        assert_non_null(buf);
        int ra = tny_event_from_json_text(text, len, &a, &da);
        int rb = tny_event_from_json_buffer(buf, len, &b, &db);
        assert_int_equal(ra, rb);
        assert_string_equal(da.msg, db.msg);
        if (ra == 0) {
            char *ja = NULL, *jb = NULL;
            assert_int_equal(tny_event_to_json(&a, &ja), 0);
            assert_int_equal(tny_event_to_json(&b, &jb), 0);
            assert_string_equal(ja, jb);
            free(ja);
            free(jb);
            tny_event_release(&a);
            tny_event_release(&b);
        }
        free(text);
        free(buf);
    }
    struct tny_event ev;
    char msg[512];
    assert_int_equal(tu_try_event(files[0], &ev, msg, sizeof(msg)), 0);
    assert_int_equal(ev.rounds[0].tables[0].seats[0], 1);
    assert_int_equal(ev.rounds[0].tables[0].seats[1], 0);
    assert_int_equal(ev.rounds[0].tables[0].result.winner, 1);
    assert_int_equal(ev.rounds[0].tables[1].seats[1], 3);
    tny_event_release(&ev);
    assert_int_not_equal(tu_try_event(files[1], &ev, msg, sizeof(msg)), 0);
    assert_string_equal(msg, "event.rounds[0].tables[0].players[1]: unknown "
                             "player \"player-0000000003\"");
    assert_int_not_equal(tu_try_event(files[2], &ev, msg, sizeof(msg)), 0);
    assert_string_equal(msg, "event.players[1].id: duplicate player id "
                             "\"player-0000000001\" (also event.players[0])");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_as_jansson_refuses),
        cmocka_unit_test(test_accepted_values_equal),
        cmocka_unit_test(test_event_messages_name_the_path),
        cmocka_unit_test(test_event_in_place_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
