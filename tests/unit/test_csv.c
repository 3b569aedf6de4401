/* test_csv.c - CSV reading (RFC 4180 through libcsv) and the standings and
 * results CSV writers, read back with the same reader.
 *
 * Worked examples for quoting, line numbers in messages and limits;
 * properties over simulated events of every preset: the results CSV has
 * one row per seated player per round with the right ids, names with
 * commas, quotes and line breaks survive the round trip, and the standings
 * CSV lists every standing row in rank order with the points of the
 * standings (CM-8).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/csv_io.h"
#include "tny/json_io.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/standings.h"

static void parse_ok(const char *text, struct tny_csv_table *t)
{
    struct tny_diag diag = {{0}};
    int rc = tny_csv_parse(text, strlen(text), 100, 10, t, &diag);
    if (rc != 0)
        fail_msg("csv refused: %s", diag.msg);
}

static void test_csv_quoting_and_lines(void **state)
{
    (void)state;
    struct tny_csv_table t;
    parse_ok("id,name,club\r\n"
             "p1,\"Nowak, Anna\",\"The \"\"Hex\"\" Club\"\r\n"
             "\n"
             "p2,\"two\nlines\", spaced \n"
             "p3,,\n",
             &t);
    assert_int_equal(t.n_rows, 4);
    assert_int_equal(t.rows[0].line, 1);
    assert_string_equal(t.rows[1].fields[1], "Nowak, Anna");
    assert_string_equal(t.rows[1].fields[2], "The \"Hex\" Club");
    /* the blank line 3 is skipped; row 3 starts on line 4 */
    assert_int_equal(t.rows[2].line, 4);
    assert_string_equal(t.rows[2].fields[1], "two\nlines");
    assert_string_equal(t.rows[2].fields[2], "spaced");
    assert_int_equal(t.rows[3].line, 6);
    assert_int_equal(t.rows[3].n_fields, 3);
    assert_string_equal(t.rows[3].fields[2], "");
    tny_csv_release(&t);
    /* no final newline */
    parse_ok("a,b", &t);
    assert_int_equal(t.n_rows, 1);
    assert_int_equal(t.rows[0].n_fields, 2);
    tny_csv_release(&t);
}

static void test_csv_errors_name_the_line(void **state)
{
    (void)state;
    struct tny_csv_table t;
    struct tny_diag diag;
    static const struct {
        const char *text;
        int rc;
        const char *want;
    } cases[] = {
        {"id,name\np1,\"open\n", TNY_EINVAL, "csv line 2"},
        {"id,name\np1,\"x\"y\n", TNY_EINVAL, "csv line 2"},
        {"a,b,c,d,e,f,g,h,i,j,k\n", TNY_ERANGE, "more than 10 fields"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(tny_csv_parse(cases[i].text, strlen(cases[i].text),
                                       100, 10, &t, &diag),
                         cases[i].rc);
        assert_non_null(strstr(diag.msg, cases[i].want));
        assert_int_equal(t.n_rows, 0); /* nothing kept */
    }
    char many[64] = "";
    for (int i = 0; i < 4; i++)
        strcat(many, "x\n");
    assert_int_equal(tny_csv_parse(many, strlen(many), 3, 10, &t, &diag),
                     TNY_ERANGE);
    assert_non_null(strstr(diag.msg, "more than 3 rows"));
    const char nul[] = "a,b\0c\n";
    assert_int_equal(tny_csv_parse(nul, sizeof nul - 1, 3, 10, &t, &diag),
                     TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "NUL"));
}

/* Issue 22 item 3: Excel's files: a UTF-8 byte order mark is not part of
 * the first field; ';' files are told from the header line (quotes and
 * the rows below do not count). */
static void test_csv_excel_bom_and_semicolons(void **state)
{
    (void)state;
    struct tny_csv_table t;
    struct tny_diag diag;
    const char bom[] = "\xef\xbb\xbfname,club\r\nAnn,X\r\n";
    assert_int_equal(tny_csv_parse(bom, strlen(bom), 10, 10, &t, &diag), 0);
    assert_string_equal(t.rows[0].fields[0], "name");
    tny_csv_release(&t);
    const char semi[] = "\xef\xbb\xbfname;club;\"a,b,c\"\nAnn;\"X;Y\";1,5\n";
    assert_int_equal(tny_csv_delimiter(semi, strlen(semi)), ';');
    assert_int_equal(
        tny_csv_parse_delim(semi, strlen(semi), ';', 10, 10, &t, &diag), 0);
    assert_int_equal(t.n_rows, 2);
    assert_int_equal(t.rows[0].n_fields, 3);
    assert_string_equal(t.rows[0].fields[0], "name");
    assert_string_equal(t.rows[0].fields[2], "a,b,c");
    assert_string_equal(t.rows[1].fields[1], "X;Y");
    assert_string_equal(t.rows[1].fields[2], "1,5");
    tny_csv_release(&t);
    assert_int_equal(tny_csv_delimiter("name,\"a;b;c\"\nx;y;z;w\n", 20), ',');
    assert_int_equal(tny_csv_delimiter("name\n", 5), ',');
    assert_int_equal(tny_csv_delimiter("", 0), ',');
}

/* An event of preset `format` with n players whose names need quoting. */
static void make_event(const char *format, int n, uint64_t seed,
                       struct tny_event *ev, struct tny_rng *rng)
{
    static const char *const odd[] = {"Nowak, Anna", "The \\\"Kid\\\"",
                                      "line\\nbreak", "Ærø Øst", "plain"};
    size_t cap = 512 + (size_t)n * 200;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(
        text, cap, "{\"format\":\"%s\",\"seed\":%llu,\"players\":[", format,
        (unsigned long long)seed);
    for (int i = 0; i < n; i++) {
        const char *armies =
            strcmp(format, "neuroshima-hex") == 0
                ? ",\"armies\":[\"Borgo\",\"Moloch\",\"Hegemony\","
                  "\"Outpost\",\"Vegas\"]"
                : "";
        len += (size_t)snprintf(
            text + len, cap - len,
            "%s{\"id\":\"p%d\",\"name\":\"%s %d\",\"club\":\"C, %d\"%s}",
            i ? "," : "", i + 1, odd[tny_rng_below(rng, 5)], i + 1, i % 3,
            armies);
    }
    snprintf(text + len, cap - len, "]}");
    struct tny_diag diag = {{0}};
    if (tny_event_from_json_text(text, strlen(text), ev, &diag) != 0)
        fail_msg("event refused: %s", diag.msg);
    free(text);
}

static int32_t player_index(const struct tny_event *ev, const char *id)
{
    for (int32_t p = 0; p < ev->n_players; p++)
        if (strcmp(ev->players[p].id, id) == 0)
            return p;
    return -1;
}

static void check_results_csv(const struct tny_event *ev)
{
    char *csv = NULL;
    struct tny_csv_table t;
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_results_to_csv(ev, &csv), 0);
    if (tny_csv_parse(csv, strlen(csv), 1000000, 16, &t, &diag) != 0)
        fail_msg("own results CSV refused: %s", diag.msg);
    int32_t seated = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t k = 0; k < ev->rounds[r].n_tables; k++)
            seated += ev->rounds[r].tables[k].n_seats;
    assert_int_equal(t.n_rows, seated + 1);
    assert_string_equal(t.rows[0].fields[0], "round");
    int32_t row = 1;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t k = 0; k < ev->rounds[r].n_tables; k++) {
            const struct tny_table *tb = &ev->rounds[r].tables[k];
            for (int32_t s = 0; s < tb->n_seats; s++, row++) {
                const struct tny_csv_row *x = &t.rows[row];
                assert_int_equal(x->n_fields, 8);
                assert_int_equal(atoi(x->fields[0]), r + 1);
                const struct tny_player *pl = &ev->players[tb->seats[s]];
                assert_string_equal(x->fields[4], pl->id);
                assert_string_equal(x->fields[5], pl->name);
                assert_true(x->fields[6][0] != '\0'); /* played: a result */
                assert_true(x->fields[7][0] != '\0'); /* complete: points */
            }
        }
    tny_csv_release(&t);
    free(csv);
}

static void check_standings_csv(const struct tny_event *ev)
{
    struct tny_standings st = {0};
    struct tny_diag diag = {{0}};
    struct tny_csv_table t;
    char *csv = NULL;
    assert_int_equal(tny_standings_compute(ev, &st, &diag), 0);
    assert_int_equal(tny_standings_to_csv(ev, &st, &csv), 0);
    if (tny_csv_parse(csv, strlen(csv), 1000000, 32, &t, &diag) != 0)
        fail_msg("own standings CSV refused: %s", diag.msg);
    assert_int_equal(t.n_rows, st.n_rows + 1);
    assert_int_equal(t.rows[0].n_fields, 8 + st.n_tiebreaks);
    for (int32_t i = 0; i < st.n_rows; i++) {
        const struct tny_csv_row *x = &t.rows[i + 1];
        char pts[32];
        assert_int_equal(atoi(x->fields[0]), st.rows[i].rank);
        assert_int_equal(player_index(ev, x->fields[1]), st.rows[i].player);
        assert_string_equal(x->fields[2], ev->players[st.rows[i].player].name);
        tny_points_text(st.rows[i].points, pts, sizeof pts);
        assert_string_equal(x->fields[4], pts);
        for (int32_t k = 0; k < st.n_tiebreaks; k++)
            if (st.rows[i].has_tiebreak[k])
                assert_true(
                    fabs(atof(x->fields[5 + k]) - st.rows[i].tiebreaks[k]) <=
                    1e-6 * (1 + fabs(st.rows[i].tiebreaks[k])));
            else
                assert_string_equal(x->fields[5 + k], "");
    }
    tny_csv_release(&t);
    tny_standings_release(&st);
    free(csv);
}

static void test_CM_8_csv_exports_every_preset(void **state)
{
    (void)state;
    static const char *const presets[] = {"neuroshima-hex", "tantrix",
                                          "agricola", "got-lcg2", "catan"};
    int cases = tu_property_cases(10);
    for (int c = 0; c < cases; c++)
        for (size_t f = 0; f < sizeof presets / sizeof presets[0]; f++) {
            struct tny_rng rng;
            struct tny_event ev;
            struct tny_diag diag = {{0}};
            tny_rng_seed(&rng, 4000 + (uint64_t)c * 7 + f);
            make_event(presets[f], 4 * (2 + (int)tny_rng_below(&rng, 5)),
                       1 + (uint64_t)c, &ev, &rng);
            int32_t played = 0;
            if (tny_simulate_rounds(&ev, 3, &rng, &played, &diag) != 0)
                fail_msg("%s: %s", presets[f], diag.msg);
            assert_true(played >= 1);
            check_results_csv(&ev);
            check_standings_csv(&ev);
            tny_event_release(&ev);
        }
}

/* Issue 22 item 10: names and clubs that a spreadsheet would run as a
 * formula (OWASP "CSV injection": = + - @ tab CR first) are written with
 * a leading '; other text and the numbers stay as they are. */
static void test_csv_formulas_neutralised(void **state)
{
    (void)state;
    static const char *const names[] = {
        "=HYPERLINK(\\\"http://x.example\\\",\\\"win\\\")",
        "@SUM(A1:A9)",
        "+1",
        "-1+1",
        "\\tTab",
        "\\rCR",
        "Ann O'Neil",
        "Bob"};
    enum { N = 8 };
    char text[2048];
    size_t len = (size_t)snprintf(
        text, sizeof text, "{\"format\":\"catan\",\"seed\":7,\"players\":[");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%s{\"id\":\"p%d\",\"name\":\"%s\","
                                "\"club\":\"=1+%d\"}",
                                i ? "," : "", i + 1, names[i], i);
    snprintf(text + len, sizeof text - len, "]}");
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    struct tny_rng rng;
    struct tny_standings st = {0};
    struct tny_csv_table t;
    char *csv = NULL;
    int32_t played = 0;
    if (tny_event_from_json_text(text, strlen(text), &ev, &diag) != 0)
        fail_msg("event refused: %s", diag.msg);
    tny_rng_seed(&rng, 22);
    assert_int_equal(tny_simulate_rounds(&ev, 1, &rng, &played, &diag), 0);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(tny_standings_to_csv(&ev, &st, &csv), 0);
    assert_int_equal(tny_csv_parse(csv, strlen(csv), 100, 32, &t, &diag), 0);
    for (int32_t r = 1; r < t.n_rows; r++) {
        int32_t p = player_index(&ev, t.rows[r].fields[1]);
        const char *name = ev.players[p].name;
        char want[128];
        snprintf(want, sizeof want, "%s%s",
                 strchr("=+-@\t\r", name[0]) ? "'" : "", name);
        assert_string_equal(t.rows[r].fields[2], want);
        assert_true(t.rows[r].fields[3][0] == '\''); /* club "=1+i" */
        assert_true(t.rows[r].fields[4][0] != '\''); /* points: a number */
    }
    tny_csv_release(&t);
    free(csv);
    assert_int_equal(tny_results_to_csv(&ev, &csv), 0);
    assert_non_null(strstr(csv, "\"'=HYPERLINK("));
    assert_non_null(strstr(csv, "\"'@SUM(A1:A9)\""));
    assert_non_null(strstr(csv, "\"Ann O'Neil\""));
    assert_null(strstr(csv, "\"=HYPERLINK("));
    free(csv);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* The exports are for Excel, which reads a CSV opened with a double
 * click as UTF-8 only after a byte order mark (else "Ærø" turns into
 * "Ã†rÃ¸"): standings and results start with EF BB BF, once, and read
 * back through the reader (which skips it) with their names intact. */
static void test_csv_exports_start_with_a_bom_and_read_back(void **state)
{
    (void)state;
    struct tny_rng rng;
    struct tny_event ev;
    struct tny_standings st = {0};
    struct tny_diag diag = {{0}};
    struct tny_csv_table t;
    char *csv = NULL;
    int32_t played = 0;
    tny_rng_seed(&rng, 91);
    make_event("catan", 8, 5, &ev, &rng);
    assert_int_equal(tny_simulate_rounds(&ev, 2, &rng, &played, &diag), 0);
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    for (int which = 0; which < 2; which++) {
        if (which == 0)
            assert_int_equal(tny_standings_to_csv(&ev, &st, &csv), 0);
        else
            assert_int_equal(tny_results_to_csv(&ev, &csv), 0);
        assert_memory_equal(csv, "\xef\xbb\xbf", 3);
        assert_int_equal(csv[3], '"'); /* one mark, then the header */
        assert_null(strstr(csv + 3, "\xef\xbb\xbf"));
        assert_int_equal(tny_csv_parse(csv, strlen(csv), 1000, 32, &t, &diag),
                         0);
        assert_string_equal(t.rows[0].fields[0], which ? "round" : "rank");
        /* the names read back as written, accents and all */
        int32_t name_col = which ? 5 : 2;
        for (int32_t r = 1; r < t.n_rows; r++) {
            int32_t p = player_index(&ev, t.rows[r].fields[which ? 4 : 1]);
            assert_true(p >= 0);
            assert_string_equal(t.rows[r].fields[name_col], ev.players[p].name);
        }
        tny_csv_release(&t);
        free(csv);
    }
    tny_standings_release(&st);
    tny_event_release(&ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoting_and_lines),
        cmocka_unit_test(test_csv_errors_name_the_line),
        cmocka_unit_test(test_csv_excel_bom_and_semicolons),
        cmocka_unit_test(test_CM_8_csv_exports_every_preset),
        cmocka_unit_test(test_csv_formulas_neutralised),
        cmocka_unit_test(test_csv_exports_start_with_a_bom_and_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
