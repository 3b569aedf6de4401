/* bigtext.h - a large-digit font for terminal screens read from a
 * distance: the table display's table number and clocks, the organiser
 * dashboard's round clock; TNY_BIGTEXT_ROWS rows high.
 *
 * What it does: renders a string of digits, ':', '-', '+', '.' and ' '
 * into rows of text where '#' is ink and ' ' is paper (the display paints
 * ink cells as solid blocks).  Each glyph is a 3x5 pixel pattern drawn
 * `scale` columns per pixel (2 makes it roughly square on a terminal,
 * whose cells are twice as tall as wide); ':' , '.' are one pixel wide;
 * glyphs are separated by `scale` blank columns.
 *
 * Not here: colours, blinking, where on the screen (the callers).
 * Pure: no I/O, no allocation, no global mutable state.
 */
#ifndef TNY_BIGTEXT_H
#define TNY_BIGTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

#define TNY_BIGTEXT_ROWS 5
/* The ink and paper characters of rendered rows. */
#define TNY_BIGTEXT_INK '#'
#define TNY_BIGTEXT_PAPER ' '

/* True when c has a glyph. */
bool tny_bigtext_has_glyph(char c);

/* Columns text takes at scale (1..4), or -1 when a character has no
 * glyph or scale is out of range.  "" is 0 wide. */
int32_t tny_bigtext_width(const char *text, int32_t scale);

/* Renders text into TNY_BIGTEXT_ROWS rows of rows (row r starts at
 * rows + r * stride; each is NUL-terminated, exactly width characters of
 * ink and paper).
 * Errors: TNY_EINVAL (a character without a glyph, scale not 1..4: diag
 * names it), TNY_ERANGE (stride too small for the width and the NUL).
 * Nothing is written on error. */
TNY_MUST_USE int tny_bigtext_render(const char *text, int32_t scale, char *rows,
                                    size_t stride, struct tny_diag *diag);

#endif
