/* test_config.c - the table-driven configuration (config.h): files, flags,
 * errors that name the line and the setting, all-or-nothing parsing. */
#include "testutil.h"

#include <string.h>

#include "tny/config.h"

static const struct tny_config_item items[] = {
    {"broker", TNY_CONFIG_STRING, "tcp://127.0.0.1:1883", 0, 0, NULL,
     "MQTT broker URI"},
    {"keepalive", TNY_CONFIG_INT, "20", 1, 600, NULL, "keep-alive seconds"},
    {"tls", TNY_CONFIG_BOOL, "false", 0, 0, NULL, "use TLS"},
    {"log_level", TNY_CONFIG_ENUM, "info", 0, 0, "error|warn|info|debug",
     "log level"},
};
#define N (sizeof(items) / sizeof(items[0]))

static void test_defaults_and_file(void **state)
{
    (void)state;
    struct tny_config_value v[N];
    tny_config_defaults(items, N, v);
    assert_int_equal(v[1].number, 20);
    assert_false(v[1].set);
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_config_parse(items, N, v,
                                      "# comment\n\nbroker = \"tcp://hub:1883\""
                                      "\n keepalive=60 \ntls = yes\n"
                                      "log_level = debug\n",
                                      "hub.conf", &diag),
                     0);
    assert_string_equal(v[0].text, "tcp://hub:1883");
    assert_int_equal(v[1].number, 60);
    assert_int_equal(v[2].number, 1);
    assert_int_equal(v[3].number, 3);
    assert_true(v[1].set);
}

static void test_errors_name_line_and_setting(void **state)
{
    (void)state;
    struct tny_config_value v[N];
    tny_config_defaults(items, N, v);
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_config_parse(items, N, v,
                                      "keepalive = 30\nbrokr = x\n", "hub.conf",
                                      &diag),
                     TNY_ENOTFOUND);
    assert_non_null(strstr(diag.msg, "hub.conf:2"));
    assert_non_null(strstr(diag.msg, "brokr"));
    assert_int_equal(v[1].number, 20); /* all or nothing */
    assert_int_equal(
        tny_config_parse(items, N, v, "keepalive = 0\n", "f", &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "1..600"));
    assert_int_equal(tny_config_parse(items, N, v, "tls = maybe\n", "f", &diag),
                     TNY_EINVAL);
    assert_int_equal(
        tny_config_parse(items, N, v, "log_level = loud\n", "f", &diag),
        TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "error|warn|info|debug"));
    assert_int_equal(tny_config_parse(items, N, v, "just words\n", "f", &diag),
                     TNY_EINVAL);
}

static void test_command_line_overrides(void **state)
{
    (void)state;
    struct tny_config_value v[N];
    tny_config_defaults(items, N, v);
    char *argv[] = {"--keepalive=45", "events.db", "--log-level", "warn",
                    "--other"};
    char *rest[5];
    int n_rest = 0;
    struct tny_diag diag = {{0}};
    assert_int_equal(
        tny_config_apply_args(items, N, v, 5, argv, rest, &n_rest, &diag), 0);
    assert_int_equal(v[1].number, 45);
    assert_int_equal(v[3].number, 1);
    assert_int_equal(n_rest, 2);
    assert_string_equal(rest[0], "events.db");
    assert_string_equal(rest[1], "--other");
    char *bad[] = {"--keepalive"};
    assert_int_equal(
        tny_config_apply_args(items, N, v, 1, bad, rest, &n_rest, &diag),
        TNY_EINVAL);
}

static void test_dump_round_trips(void **state)
{
    (void)state;
    struct tny_config_value v[N], w[N];
    tny_config_defaults(items, N, v);
    tny_config_defaults(items, N, w);
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_config_set(items, N, v, "keepalive", "77", &diag), 0);
    char buf[4096];
    size_t len = tny_config_dump(items, N, v, true, buf, sizeof(buf));
    assert_true(len < sizeof(buf));
    assert_non_null(strstr(buf, "# keep-alive seconds (1..600)"));
    assert_int_equal(tny_config_parse(items, N, w, buf, "dump", &diag), 0);
    for (size_t i = 0; i < N; i++)
        assert_string_equal(v[i].text, w[i].text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_file),
        cmocka_unit_test(test_errors_name_line_and_setting),
        cmocka_unit_test(test_command_line_overrides),
        cmocka_unit_test(test_dump_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
