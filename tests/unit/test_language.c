/* test_language.c - issue 21: the shipped languages (tny/language.h, from
 * po/LINGUAS), the event's optional "language" (refused with the field and
 * the allowed codes when it is not one of them, written back when set),
 * the language the environment asks for (tny_i18n_env_language) and the
 * run-time switch of the catalogue (tny_i18n_use, the build tree's
 * po/tourney-table catalogues).
 */
#include "testutil.h"

#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/i18n_io.h"
#include "tny/json_io.h"
#include "tny/language.h"

static void test_shipped_languages(void **state)
{
    (void)state;
    assert_int_equal(tny_language_count(), 5);
    assert_string_equal(tny_language_at(0), "en");
    assert_null(tny_language_at(5));
    assert_true(tny_language_known("pl"));
    assert_true(tny_language_known("hu"));
    assert_true(tny_language_known("nb"));
    assert_true(tny_language_known("cs"));
    assert_true(tny_language_known("en"));
    assert_false(tny_language_known("PL"));
    assert_false(tny_language_known("no"));
    assert_false(tny_language_known(""));
    assert_false(tny_language_known(NULL));
}

static int parse(const char *text, struct tny_event *ev, struct tny_diag *d)
{
    return tny_event_from_json_text(text, strlen(text), ev, d);
}

static void test_event_language_kept_and_written(void **state)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    char *out = NULL;
    (void)state;
    assert_int_equal(parse("{\"format\": \"tantrix\", \"language\": \"hu\", "
                           "\"players\": []}",
                           &ev, &d),
                     TNY_OK);
    assert_string_equal(ev.language, "hu");
    assert_int_equal(tny_event_to_json(&ev, &out), TNY_OK);
    assert_non_null(strstr(out, "\"language\": \"hu\""));
    tny_event_release(&ev);
    free(out);
    /* Unset: nothing written (the field is optional and additive). */
    assert_int_equal(parse("{\"format\": \"catan\", \"players\": []}", &ev, &d),
                     TNY_OK);
    assert_string_equal(ev.language, "");
    assert_int_equal(tny_event_to_json(&ev, &out), TNY_OK);
    assert_null(strstr(out, "language"));
    tny_event_release(&ev);
    free(out);
}

static void test_event_language_refused(void **state)
{
    struct tny_event ev;
    struct tny_diag d = {{0}};
    (void)state;
    assert_int_equal(parse("{\"format\": \"tantrix\", \"language\": \"xx\", "
                           "\"players\": []}",
                           &ev, &d),
                     TNY_EINVAL);
    assert_string_equal(d.msg, "event.language: \"xx\" is not a shipped "
                               "language (one of en, pl, hu, nb, cs)");
    assert_int_equal(parse("{\"format\": \"tantrix\", \"language\": 5, "
                           "\"players\": []}",
                           &ev, &d),
                     TNY_EINVAL);
    assert_non_null(strstr(d.msg, "event.language"));
    assert_int_equal(parse("{\"format\": \"tantrix\", \"language\": \"\", "
                           "\"players\": []}",
                           &ev, &d),
                     TNY_EINVAL);
    assert_non_null(strstr(d.msg, "event.language"));
}

static const char *env_language(const char *language, const char *lc_all,
                                const char *lang)
{
    static char out[TNY_LANGUAGE_MAX];
    const char *vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    const char *vals[] = {language, lc_all, NULL, lang};
    for (int i = 0; i < 4; i++) {
        if (vals[i])
            setenv(vars[i], vals[i], 1);
        else
            unsetenv(vars[i]);
    }
    return tny_i18n_env_language(out, sizeof(out));
}

static void test_env_language(void **state)
{
    (void)state;
    assert_string_equal(env_language("de:hu:en", NULL, NULL), "hu");
    assert_string_equal(env_language(NULL, NULL, "nb_NO.UTF-8"), "nb");
    assert_string_equal(env_language(NULL, NULL, "no_NO.UTF-8"), "nb");
    assert_string_equal(env_language(NULL, "pl_PL.UTF-8", "cs_CZ.UTF-8"), "pl");
    assert_string_equal(env_language(NULL, "C.UTF-8", "cs_CZ.UTF-8"), "");
    assert_string_equal(env_language(NULL, NULL, "de_DE.UTF-8"), "");
    assert_string_equal(env_language(NULL, NULL, NULL), "");
}

/* The catalogue switched at run time, from the "C" locale on. */
static void test_use_switches_the_catalogue(void **state)
{
    (void)state;
    unsetenv("LANGUAGE");
    setenv("TOURNEY_LOCALEDIR", TNY_TEST_LOCALEDIR, 1);
    setlocale(LC_ALL, "C");
    tny_i18n_open("tourney-table");
    assert_string_equal(gettext("Draw"), "Draw");
    assert_int_equal(tny_i18n_use("pl"), 0);
    assert_string_equal(gettext("Draw"), "Remis");
    assert_string_equal(gettext("Army choice (NH-12)"), "Wybór armii (NH-12)");
    assert_int_equal(tny_i18n_use("cs"), 0);
    assert_string_equal(gettext("Draw"), "Remíza");
    assert_string_equal(
        ngettext("| %d result queued%s ", "| %d results queued%s ", 3),
        "| %d výsledky ve frontě%s ");
    assert_string_equal(
        ngettext("| %d result queued%s ", "| %d results queued%s ", 5),
        "| %d výsledků ve frontě%s ");
    assert_int_equal(tny_i18n_use("xx"), -1);
    assert_string_equal(gettext("Draw"), "Remíza"); /* unchanged */
    assert_int_equal(tny_i18n_use("en"), 0);
    assert_string_equal(gettext("Draw"), "Draw");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_languages),
        cmocka_unit_test(test_event_language_kept_and_written),
        cmocka_unit_test(test_event_language_refused),
        cmocka_unit_test(test_env_language),
        cmocka_unit_test(test_use_switches_the_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
