/* test_jdoc.c - the event file's document reader (common/io/jdoc.c, issue
 * 17 item 4): it reads with yajl what jansson read before, so for every
 * text it must accept what jansson accepts, with the same values in the
 * same order, and refuse the rest with jansson's own message; and the event
 * parser on it gives the same event and the same messages, paths included
 * (docs/event-file.md: "one line on stderr that names the offending key or
 * value").
 */
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
    int rc_fast = tny__jdoc_parse(&fast, text, len, "event", &d_fast);
    int rc_ref = tny__load(text, len, "event", &root, &d_ref);
    if (rc_fast != rc_ref)
        fail_msg("%.60s: yajl %d (%s), jansson %d (%s)", text, rc_fast,
                 d_fast.msg, rc_ref, d_ref.msg);
    if (rc_fast < 0) {
        assert_string_equal(d_fast.msg, d_ref.msg);
        return rc_fast;
    }
    assert_int_equal(tny__jdoc_from_json(&ref, root), 0);
    if (!tny__jv_equal(fast.root, ref.root))
        fail_msg("%.60s: values differ", text);
    tny__jdoc_release(&ref);
    tny__jdoc_release(&fast);
    json_decref(root);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_as_jansson_refuses),
        cmocka_unit_test(test_accepted_values_equal),
        cmocka_unit_test(test_event_messages_name_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
