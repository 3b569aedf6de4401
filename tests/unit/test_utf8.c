/* test_utf8.c - display widths, cutting, padding and ASCII stand-ins of
 * UTF-8 names (common/include/tny/utf8.h): Czech, Polish, Hungarian,
 * Norwegian, Vietnamese (precomposed and with combining marks), CJK
 * (two columns each), invalid UTF-8; every cut ends on a glyph boundary
 * and the widths agree with the C library's wcswidth in C.UTF-8.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <locale.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tny/utf8.h"

static const struct {
    const char *name;
    int32_t cols;
} names[] = {
    {"Łukasz Wójcik", 13},
    {"Jiří Šebesta", 12},
    {"Szőke Ödön", 10},
    {"Øystein Ærø", 11},
    {"Nguyễn Thị Minh Khai", 20},
    /* "Nguyễn" with a combining circumflex and tilde (NFD). */
    {"Nguye\xcc\x82\xcc\x83n", 6},
    {"王小明", 6},
    {"Jürgen 王 Ødegård", 17},
    {"", 0},
};

static void test_widths_of_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (tny_utf8_width(names[i].name) != names[i].cols)
            fail_msg("\"%s\": %d columns, expected %d", names[i].name,
                     (int)tny_utf8_width(names[i].name), (int)names[i].cols);
}

/* The C library's own answer, when this system has C.UTF-8. */
static void test_widths_agree_with_wcswidth(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        skip();
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        wchar_t w[64];
        size_t n = mbstowcs(w, names[i].name, 64);
        assert_true(n != (size_t)-1);
        assert_int_equal(wcswidth(w, n), tny_utf8_width(names[i].name));
    }
    setlocale(LC_CTYPE, "C");
}

static void test_decode_refuses_bad_sequences(void **state)
{
    uint32_t cp;
    (void)state;
    assert_int_equal(tny_utf8_decode("\xc5\x81", 2, &cp), 2);
    assert_int_equal(cp, 0x141); /* Ł */
    assert_int_equal(tny_utf8_decode("\xe7\x8e\x8b", 3, &cp), 3);
    assert_int_equal(cp, 0x738b); /* 王 */
    /* Truncated, stray continuation, overlong '/', surrogate, too big. */
    const char *bad[] = {"\xc5",         "\x81",         "\xc0\xaf",
                         "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                         "\xff"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(tny_utf8_decode(bad[i], strlen(bad[i]), &cp), 1);
        assert_int_equal(cp, TNY_UTF8_INVALID);
    }
    assert_int_equal(tny_utf8_decode("", 0, &cp), 0);
}

static void test_invalid_bytes_and_controls_are_one_column(void **state)
{
    char out[64];
    (void)state;
    /* "Ab" + stray byte + truncated Ł + tab + "c". */
    const char *s = "Ab\x81\xc5\tc";
    assert_int_equal(tny_utf8_width(s), 6);
    assert_int_equal(tny_utf8_fit(s, -1, false, out, sizeof(out)), 6);
    assert_string_equal(out, "Ab?? c");
    /* A mark with nothing before it is dropped. */
    assert_int_equal(tny_utf8_width("\xcc\x81x"), 1);
}

static void test_fit_never_cuts_a_character(void **state)
{
    char out[64];
    (void)state;
    assert_int_equal(tny_utf8_fit("Jiří Šebesta", 4, false, out, sizeof(out)),
                     4);
    assert_string_equal(out, "Jiří");
    assert_int_equal(tny_utf8_fit("Jiří Šebesta", 7, true, out, sizeof(out)),
                     7);
    assert_string_equal(out, "Jiří Š…");
    /* 王小明 in 5 columns: two whole characters, never half of one. */
    assert_int_equal(tny_utf8_fit("王小明", 5, false, out, sizeof(out)), 4);
    assert_string_equal(out, "王小");
    assert_int_equal(tny_utf8_fit("王小明", 5, true, out, sizeof(out)), 5);
    assert_string_equal(out, "王小…");
    assert_int_equal(tny_utf8_fit("王小明", 4, true, out, sizeof(out)), 3);
    assert_string_equal(out, "王…");
    assert_int_equal(tny_utf8_fit("王小明", 6, true, out, sizeof(out)), 6);
    assert_string_equal(out, "王小明");
    assert_int_equal(tny_utf8_fit("王小明", 1, false, out, sizeof(out)), 0);
    assert_string_equal(out, "");
    /* Combining marks stay with their letter. */
    assert_int_equal(
        tny_utf8_fit("Nguye\xcc\x82\xcc\x83n", 5, false, out, sizeof(out)), 5);
    assert_string_equal(out, "Nguye\xcc\x82\xcc\x83");
    /* Too few bytes: whole characters only (Ł is two bytes). */
    assert_int_equal(tny_utf8_fit("ŁŁŁ", -1, false, out, 6), 2);
    assert_string_equal(out, "ŁŁ");
}

/* Property: every cut of every name at every width is valid UTF-8, a
 * prefix of glyphs, at most that wide. */
static void test_every_cut_is_a_glyph_prefix(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        for (int32_t w = 0; w <= 22; w++)
            for (int e = 0; e < 2; e++) {
                char out[64];
                int32_t cols =
                    tny_utf8_fit(names[i].name, w, e, out, sizeof(out));
                assert_true(cols <= w);
                assert_int_equal(cols, tny_utf8_width(out));
                size_t len = strlen(out);
                if (e && cols > 0 &&
                    strcmp(out + len - 3, "\xe2\x80\xa6") == 0 &&
                    names[i].cols > w)
                    len -= 3;
                else
                    assert_true(names[i].cols <= w
                                    ? strcmp(out, names[i].name) == 0
                                    : !e || w == 0 || cols == 0);
                assert_memory_equal(out, names[i].name, len);
                /* The cut is on a boundary: no continuation byte next. */
                assert_true(((unsigned char)names[i].name[len] & 0xc0) != 0x80);
            }
}

static void test_pad_aligns_by_columns(void **state)
{
    char a[64], b[64], c[64];
    (void)state;
    assert_int_equal(tny_utf8_pad("Łukasz Wójcik", 16, 16, a, sizeof(a)), 16);
    assert_int_equal(tny_utf8_pad("王小明", 16, 16, b, sizeof(b)), 16);
    assert_string_equal(b, "王小明          ");
    /* A very long name: cut with an ellipsis to the column. */
    assert_int_equal(tny_utf8_pad("Maximilian Alexander von Hohenzollern-"
                                  "Sigmaringen",
                                  16, 16, c, sizeof(c)),
                     16);
    assert_string_equal(c, "Maximilian Alex…");
    assert_int_equal(tny_utf8_width(a), tny_utf8_width(b));
}

static void test_ascii_stand_ins(void **state)
{
    const char *s = "Łukasz Wójcik Jiří Šebesta Szőke Ödön Øystein Ærø "
                    "Nguyễn Thị Minh Khai Ơư 王";
    char out[128];
    size_t at = 0, n;
    struct tny_utf8_glyph g;
    (void)state;
    while ((n = tny_utf8_next(s, &g)) > 0) {
        for (int32_t k = 0; k < g.width; k++)
            out[at++] = tny_utf8_ascii(g.cp);
        s += n;
    }
    out[at] = '\0';
    assert_string_equal(out, "Lukasz Wojcik Jiri Sebesta Szoke Odon Oystein "
                             "Aro Nguyen Thi Minh Khai Ou ??");
    /* One column per glyph: Æ stands as A, so columns stay aligned. */
    assert_int_equal(tny_utf8_ascii(0x301), '\0');
    assert_int_equal(tny_utf8_ascii(TNY_UTF8_INVALID), '?');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths_of_names),
        cmocka_unit_test(test_widths_agree_with_wcswidth),
        cmocka_unit_test(test_decode_refuses_bad_sequences),
        cmocka_unit_test(test_invalid_bytes_and_controls_are_one_column),
        cmocka_unit_test(test_fit_never_cuts_a_character),
        cmocka_unit_test(test_every_cut_is_a_glyph_prefix),
        cmocka_unit_test(test_pad_aligns_by_columns),
        cmocka_unit_test(test_ascii_stand_ins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
