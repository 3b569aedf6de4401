/* test_names.c - a name split for a list "by name" (hub/cli/names.c,
 * docs/console.md "Family names") against the one table of names the
 * hall page is checked against too (tests/hub/family_names.tsv;
 * tests/e2e/pages_check.js), and properties over random names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

#ifndef TNY_SOURCE_DIR
#define TNY_SOURCE_DIR "."
#endif

/* list_text(name, np): the name as the printout's list shows it. */
static void list_text(const char *name, const struct hub_name_parts *np,
                      char *out, size_t size)
{
    if (!np->family[0])
        snprintf(out, size, "%s", name);
    else if (np->as_written)
        snprintf(out, size, "%s %s", np->family, np->given);
    else
        snprintf(out, size, "%s, %s", np->family, np->given);
}

static void test_the_table_of_names(void **state)
{
    (void)state;
    FILE *f = fopen(TNY_SOURCE_DIR "/tests/hub/family_names.tsv", "r");
    assert_non_null(f);
    char line[1024];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *col[5] = {0};
        int n = 0;
        for (char *p = line; n < 5; n++) {
            col[n] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                n++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        assert_int_equal(n, 5);
        struct hub_name_parts np;
        char text[600];
        hub_family_split(col[1], hub_names_family_first(col[0]), &np);
        list_text(col[1], &np, text, sizeof text);
        if (strcmp(np.family, col[2]) || strcmp(np.given, col[3]) ||
            strcmp(text, col[4]))
            fail_msg("%s \"%s\": family \"%s\" given \"%s\" shown \"%s\"; "
                     "the table says \"%s\" \"%s\" \"%s\"",
                     col[0], col[1], np.family, np.given, text, col[2], col[3],
                     col[4]);
        rows++;
    }
    fclose(f);
    assert_true(rows >= 20);
}

/* Random names of 1-5 words: the split loses no word and adds none (the
 * family words and the rest are the name's words), and a comma-free
 * name of one word has no family name. */
static void test_split_keeps_every_word(void **state)
{
    (void)state;
    static const char *const words[] = {
        "Anna", "NOWAK", "van", "Dijk", "Ödön",   "SZŐKE", "王", "小明",
        "J.R.", "II",    "de",  "la",   "Łukasz", "ĆWIK",  "김", "Árpád"};
    uint32_t seed = 12345;
    for (int iter = 0; iter < 5000; iter++) {
        char name[256] = "";
        int n = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 5;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            const char *w =
                words[(seed >> 16) % (sizeof words / sizeof *words)];
            strcat(name, i ? " " : "");
            strcat(name, w);
        }
        for (int ff = 0; ff < 2; ff++) {
            struct hub_name_parts np;
            hub_family_split(name, ff, &np);
            if (n == 1) {
                assert_string_equal(np.family, "");
                assert_string_equal(np.given, name);
                continue;
            }
            assert_true(np.family[0] != '\0');
            /* every word of the name is in exactly one of the parts, in
             * order: the two parts' words, merged by position, are the
             * name's (checked by length: no word lost or doubled) */
            assert_int_equal(strlen(np.family) + strlen(np.given) +
                                 (np.given[0] ? 1 : 0),
                             strlen(name));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_table_of_names),
        cmocka_unit_test(test_split_keeps_every_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
