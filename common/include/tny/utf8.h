/* utf8.h - UTF-8 text on a terminal grid: how many columns a name takes,
 * cutting it to a width without splitting a character, padding it for a
 * column, and an ASCII stand-in for terminals without a UTF-8 locale.
 * Used by the table display and the organiser dashboard so that names
 * such as "Jiří Šebesta", "Nguyễn Thị Minh Khai" or "王小明" are shown as
 * entered and columns line up.
 *
 * Widths follow wcwidth(3) for a UTF-8 locale (Unicode East Asian Width:
 * CJK, Hangul, fullwidth forms and most emoji take 2 columns; combining
 * marks and zero-width characters 0) from a table of our own, so a
 * layout does not depend on the process's locale.
 *
 * A glyph is one character with the combining marks that follow it: the
 * unit a grid cell holds.  Bytes that are not valid UTF-8 (stray or
 * truncated sequences, overlong forms, surrogates, beyond U+10FFFF) are
 * shown as '?', control characters as ' ', one column each; combining
 * marks with no character before them are dropped.
 *
 * Not here: the grids themselves, curses, locales (the callers).
 * Pure: no I/O, no allocation, no global mutable state.
 */
#ifndef TNY_UTF8_H
#define TNY_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes a glyph may take (a character and its combining marks, NUL
 * included); marks beyond this are dropped. */
#define TNY_UTF8_GLYPH_MAX 16

/* Code point stored for bytes that are not valid UTF-8. */
#define TNY_UTF8_INVALID 0xFFFDu

struct tny_utf8_glyph {
    char bytes[TNY_UTF8_GLYPH_MAX]; /* valid UTF-8, NUL-terminated */
    uint32_t cp;                    /* the base character */
    int32_t width;                  /* 1 or 2 columns */
};

/* Decodes one character of s (at most n bytes) into *cp; returns the
 * bytes it takes (1 for an invalid byte, with *cp = TNY_UTF8_INVALID;
 * 0 when n is 0). */
size_t tny_utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Columns cp takes: 0 (combining mark, zero-width), 1, 2 (wide), or -1
 * for a control character (U+0000..U+001F, U+007F..U+009F). */
int32_t tny_utf8_cp_width(uint32_t cp);

/* Reads the next glyph of the NUL-terminated s into *g; returns the bytes
 * consumed (0 at the end of s, *g then empty). */
size_t tny_utf8_next(const char *s, struct tny_utf8_glyph *g);

/* Columns s takes on the screen (the sum of its glyphs' widths). */
int32_t tny_utf8_width(const char *s);

/* Copies the glyphs of s that fit in max_cols columns into out (size
 * bytes, always NUL-terminated, never ending inside a glyph: a glyph that
 * does not fit whole, in columns or in bytes, is left out).  When s is
 * cut and ellipsis is true the last column is "…".  The copy is clean
 * (invalid bytes '?', control characters ' ').  Returns the columns of
 * out.  max_cols < 0 means no limit. */
int32_t tny_utf8_fit(const char *s, int32_t max_cols, bool ellipsis, char *out,
                     size_t size);

/* tny_utf8_fit with an ellipsis into max_cols (< 0: no limit), then
 * blanks up to min_cols: text for a left-aligned column.  Returns the
 * columns of out. */
int32_t tny_utf8_pad(const char *s, int32_t min_cols, int32_t max_cols,
                     char *out, size_t size);

/* A one-column ASCII stand-in for cp on a terminal without UTF-8: the
 * base letter of Latin letters with diacritics ('L' for U+0141 Ł, 'e'
 * for U+1EC7 ệ), ASCII kept, '?' for anything else.  Combining marks
 * give '\0' (drop them). */
char tny_utf8_ascii(uint32_t cp);

#endif
