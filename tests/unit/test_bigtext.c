/* test_bigtext.c - the large-digit font (common/include/tny/bigtext.h):
 * widths, exact glyph shapes written out by hand, that every glyph is
 * distinct (a clock reading can be read back), spacing between glyphs and
 * the refusals (unknown characters, small buffers, bad scales).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "tny/bigtext.h"
#include "tny/rng.h"

#define STRIDE 256

static void render_ok(const char *text, int32_t scale,
                      char rows[TNY_BIGTEXT_ROWS][STRIDE])
{
    struct tny_diag d = {{0}};
    if (tny_bigtext_render(text, scale, &rows[0][0], STRIDE, &d) < 0)
        fail_msg("render \"%s\": %s", text, d.msg);
}

static void test_width_digits_colon_spacing(void **state)
{
    (void)state;
    /* 3-pixel digits, 1-pixel colon, one pixel of space between glyphs. */
    assert_int_equal(tny_bigtext_width("", 1), 0);
    assert_int_equal(tny_bigtext_width("8", 1), 3);
    assert_int_equal(tny_bigtext_width("88", 1), 7);
    assert_int_equal(tny_bigtext_width("45:00", 1),
                     3 + 1 + 3 + 1 + 1 + 1 + 3 + 1 + 3);
    assert_int_equal(tny_bigtext_width("45:00", 2), 2 * 17);
    assert_int_equal(tny_bigtext_width("4x", 1), -1);
    assert_int_equal(tny_bigtext_width("4", 0), -1);
    assert_int_equal(tny_bigtext_width("4", 5), -1);
}

static void test_glyph_shapes_by_hand(void **state)
{
    char rows[TNY_BIGTEXT_ROWS][STRIDE];
    (void)state;
    render_ok("1:0", 1, rows);
    assert_string_equal(rows[0], " #    ###");
    assert_string_equal(rows[1], "##  # # #");
    assert_string_equal(rows[2], " #    # #");
    assert_string_equal(rows[3], " #  # # #");
    assert_string_equal(rows[4], "###   ###");
    render_ok("7", 2, rows);
    assert_string_equal(rows[0], "######");
    assert_string_equal(rows[1], "    ##");
    assert_string_equal(rows[4], "    ##");
    render_ok("-", 1, rows);
    assert_string_equal(rows[0], "   ");
    assert_string_equal(rows[2], "###");
}

/* Reads rendered scale-1 rows back into characters by comparing each
 * 3-column cell with the single-glyph renderings. */
static void test_every_reading_reads_back(void **state)
{
    static const char alphabet[] = "0123456789-+ ";
    char glyph[sizeof(alphabet)][TNY_BIGTEXT_ROWS][STRIDE];
    struct tny_rng rng;
    int cases = tu_property_cases(2000);
    (void)state;
    /* the bytes after each row's end are compared too (valgrind) */
    memset(glyph, 0, sizeof(glyph));
    for (size_t i = 0; i + 1 < sizeof(alphabet); i++) {
        char one[2] = {alphabet[i], 0};
        render_ok(one, 1, glyph[i]);
    }
    /* Distinct shapes: otherwise a reading could not be read back. */
    for (size_t i = 0; i + 1 < sizeof(alphabet); i++)
        for (size_t j = i + 1; j + 1 < sizeof(alphabet); j++)
            assert_true(memcmp(glyph[i], glyph[j], sizeof(glyph[i])) != 0);
    tny_rng_seed(&rng, 42);
    for (int c = 0; c < cases; c++) {
        char text[12], rows[TNY_BIGTEXT_ROWS][STRIDE], back[12];
        int n = 1 + (int)tny_rng_below(&rng, 10);
        for (int k = 0; k < n; k++)
            text[k] = alphabet[tny_rng_below(&rng, sizeof(alphabet) - 1)];
        text[n] = '\0';
        render_ok(text, 1, rows);
        assert_int_equal((int)strlen(rows[0]), 4 * n - 1);
        for (int k = 0; k < n; k++) {
            back[k] = '?';
            for (size_t i = 0; i + 1 < sizeof(alphabet); i++) {
                bool same = true;
                for (int r = 0; r < TNY_BIGTEXT_ROWS; r++)
                    if (memcmp(rows[r] + 4 * k, glyph[i][r], 3) != 0)
                        same = false;
                if (same)
                    back[k] = alphabet[i];
            }
            /* The gap column is paper. */
            if (k + 1 < n)
                for (int r = 0; r < TNY_BIGTEXT_ROWS; r++)
                    assert_int_equal(rows[r][4 * k + 3], TNY_BIGTEXT_PAPER);
        }
        back[n] = '\0';
        assert_string_equal(back, text);
    }
}

static void test_refusals_write_nothing(void **state)
{
    char rows[TNY_BIGTEXT_ROWS][STRIDE];
    struct tny_diag d = {{0}};
    (void)state;
    memset(rows, 'z', sizeof(rows));
    assert_int_equal(tny_bigtext_render("12a", 1, &rows[0][0], STRIDE, &d),
                     TNY_EINVAL);
    assert_non_null(strstr(d.msg, "'a'"));
    assert_int_equal(rows[0][0], 'z');
    assert_int_equal(tny_bigtext_render("1234", 2, &rows[0][0], 30, &d),
                     TNY_ERANGE);
    assert_int_equal(rows[0][0], 'z');
    /* Exactly enough: the width plus the NUL. */
    assert_int_equal(tny_bigtext_render("12", 1, &rows[0][0], 8, &d), 0);
    assert_string_equal(rows[0], " #  ###");
    assert_int_equal(tny_bigtext_render("1", 9, &rows[0][0], STRIDE, &d),
                     TNY_EINVAL);
    assert_true(tny_bigtext_has_glyph(':'));
    assert_false(tny_bigtext_has_glyph('x'));
    assert_false(tny_bigtext_has_glyph('\0'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width_digits_colon_spacing),
        cmocka_unit_test(test_glyph_shapes_by_hand),
        cmocka_unit_test(test_every_reading_reads_back),
        cmocka_unit_test(test_refusals_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
