/* test_catan_board.c - CT-9: the random board per table, from seed 004's
 * words: a new random board per game (the desert too), the number tokens
 * by their letters in a counterclockwise spiral from a corner.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "tny/catan_board.h"

/* Rows of 3, 4, 5, 4, 3: (row, column) of each position. */
static void rc_of(int pos, int *row, int *col)
{
    static const int start[6] = {0, 3, 7, 12, 16, 19};
    for (int r = 0; r < 5; r++)
        if (pos < start[r + 1]) {
            *row = r;
            *col = pos - start[r];
            return;
        }
}

/* Hex neighbours in the 3-4-5-4-3 layout (doubled-width coordinates). */
static bool adjacent(int a, int b)
{
    int ra = 0, ca = 0, rb = 0, cb = 0;
    rc_of(a, &ra, &ca);
    rc_of(b, &rb, &cb);
    static const int len[5] = {3, 4, 5, 4, 3};
    int xa = 2 * ca + (5 - len[ra]), xb = 2 * cb + (5 - len[rb]);
    int dr = ra - rb, dx = xa - xb;
    return (dr == 0 && (dx == 2 || dx == -2)) ||
           ((dr == 1 || dr == -1) && (dx == 1 || dx == -1));
}

/* Seed 004: the classic spiral from the top-left corner with the desert in
 * the centre: A..L around the edge counterclockwise, M..R inside. */
static void test_CT_9_spiral_from_corner(void **state)
{
    (void)state;
    struct tny_ct_board b;
    struct tny_diag d = {{0}};
    /* terrain: desert at 9, the rest in count order */
    const char *terrain = "FFFFPPPPWDWWWHHHMMM";
    char code[TNY_CT_CODE_LEN + 1];
    static const int spiral[18] = {0, 3, 7, 12, 16, 17, 18, 15, 11,
                                   6, 2, 1, 4,  8,  13, 14, 10, 5};
    static const int token[18] = {5, 2, 6,  3, 8, 10, 9, 12, 11,
                                  4, 8, 10, 9, 4, 5,  6, 3,  11};
    snprintf(code, sizeof(code), "%s", terrain);
    for (int i = 0; i < TNY_CT_HEXES; i++)
        code[TNY_CT_HEXES + i] = '-';
    for (int k = 0; k < 18; k++)
        code[TNY_CT_HEXES + spiral[k]] = (char)('A' + k);
    code[2 * TNY_CT_HEXES] = ':';
    code[2 * TNY_CT_HEXES + 1] = '0';
    code[TNY_CT_CODE_LEN] = '\0';
    assert_int_equal(tny_ct_board_parse(code, &b, &d), 0);
    for (int k = 0; k < 18; k++) {
        assert_int_equal(b.letter[spiral[k]], 'A' + k);
        assert_int_equal(b.number[spiral[k]], token[k]);
        if (k > 0) /* a spiral: each token next to the one before */
            assert_true(adjacent(spiral[k - 1], spiral[k]));
    }
    assert_int_equal(b.number[9], 0);
    /* a wrong letter is refused with the spiral's */
    code[TNY_CT_HEXES + 0] = 'B';
    assert_int_equal(tny_ct_board_parse(code, &b, &d), TNY_EINVAL);
    assert_non_null(strstr(d.msg, "spiral"));
    assert_int_equal(tny_ct_board_parse("FFF", &b, &d), TNY_EINVAL);
}

/* Seed 004: "čistě náhodně, včetně umístění území pouště": over many
 * tables every generated board has the base game's hexes and tokens, the
 * tokens follow a spiral from the drawn corner, the desert lands on every
 * position and every corner is drawn; the same (seed, round, table) gives
 * the same board and the code round-trips. */
static void test_CT_9_random_boards_valid_and_reproducible(void **state)
{
    (void)state;
    int desert_at[TNY_CT_HEXES] = {0}, corners[6] = {0};
    int n = tu_property_cases(3000), differ = 0;
    for (int i = 0; i < n; i++) {
        struct tny_ct_board b, again, parsed;
        struct tny_diag d = {{0}};
        char code[TNY_CT_CODE_LEN + 1];
        int count[6] = {0}, tokens = 0, last = -1;
        tny_ct_board_generate(42, 1 + i / 50, 1 + i % 50, &b);
        tny_ct_board_generate(42, 1 + i / 50, 1 + i % 50, &again);
        assert_memory_equal(&b, &again, sizeof(b));
        tny_ct_board_generate(43, 1 + i / 50, 1 + i % 50, &again);
        differ += memcmp(&b, &again, sizeof(b)) != 0;
        for (int p = 0; p < TNY_CT_HEXES; p++) {
            count[b.terrain[p]]++;
            if (b.terrain[p] == TNY_CT_DESERT) {
                desert_at[p]++;
                assert_int_equal(b.number[p], 0);
            } else {
                assert_true(b.number[p] >= 2 && b.number[p] <= 12 &&
                            b.number[p] != 7);
                tokens |= 1 << (b.letter[p] - 'A');
            }
        }
        assert_int_equal(count[TNY_CT_DESERT], 1);
        assert_int_equal(count[TNY_CT_FOREST], 4);
        assert_int_equal(count[TNY_CT_PASTURE], 4);
        assert_int_equal(count[TNY_CT_FIELDS], 4);
        assert_int_equal(count[TNY_CT_HILLS], 3);
        assert_int_equal(count[TNY_CT_MOUNTAINS], 3);
        assert_int_equal(tokens, (1 << 18) - 1);
        corners[b.corner]++;
        /* letters in order walk the board hex by hex, except across the
         * desert (two steps) */
        for (char l = 'A'; l <= 'R'; l++) {
            int p = -1;
            for (int q = 0; q < TNY_CT_HEXES; q++)
                if (b.letter[q] == l)
                    p = q;
            if (last >= 0 && !adjacent(last, p)) {
                bool via_desert = false;
                for (int q = 0; q < TNY_CT_HEXES; q++)
                    via_desert |= b.terrain[q] == TNY_CT_DESERT &&
                                  adjacent(last, q) && adjacent(q, p);
                assert_true(via_desert);
            }
            last = p;
        }
        tny_ct_board_code(&b, code);
        assert_int_equal(tny_ct_board_parse(code, &parsed, &d), 0);
        assert_memory_equal(&b, &parsed, sizeof(b));
    }
    for (int p = 0; p < TNY_CT_HEXES; p++)
        assert_true(desert_at[p] > 0);
    for (int c = 0; c < 6; c++)
        assert_true(corners[c] > 0);
    assert_true(differ > n * 9 / 10);
}

/* The drawing for the table and the printer: 5 rows, the legend, the
 * corner named; fits 48 columns. */
static void test_CT_9_board_text(void **state)
{
    (void)state;
    struct tny_ct_board b;
    char text[1024];
    for (int c = 0; c < 6; c++) { /* every corner's legend fits */
        tny_ct_board_generate(7, 2, 3, &b);
        b.corner = (uint8_t)c;
        tny_ct_board_text(&b, text, sizeof(text));
        for (const char *s = text; *s;) {
            const char *e = strchr(s, '\n');
            assert_non_null(e);
            assert_true(e - s <= 60);
            assert_true(e == s || e[-1] != ' '); /* no trailing blanks */
            s = e + 1;
        }
    }
    tny_ct_board_generate(7, 2, 3, &b);
    size_t n = tny_ct_board_text(&b, text, sizeof(text));
    assert_int_equal(n, strlen(text));
    assert_non_null(strstr(text, "De --"));
    assert_non_null(strstr(text, "counterclockwise"));
    int lines = 0;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        assert_non_null(e);
        assert_true(e - s <= 60);
        lines++;
        s = e + 1;
    }
    assert_int_equal(lines, 9);
    /* truncated: still NUL-terminated, the needed length returned */
    char small[16];
    assert_int_equal(tny_ct_board_text(&b, small, sizeof(small)), n);
    assert_int_equal(strlen(small), sizeof(small) - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CT_9_spiral_from_corner),
        cmocka_unit_test(test_CT_9_random_boards_valid_and_reproducible),
        cmocka_unit_test(test_CT_9_board_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
