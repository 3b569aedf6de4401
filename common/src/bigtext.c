/* bigtext.c - the large-digit font (bigtext.h).
 *
 * Invariants: every glyph is TNY_BIGTEXT_ROWS rows of the same width
 * (3 pixels, 1 for ':' and '.'); rows are written only after the whole
 * text was checked, so an error writes nothing.
 */
#include "tny/bigtext.h"

#include <string.h>

struct glyph {
    char c;
    int32_t width;                      /* pixels */
    const char *rows[TNY_BIGTEXT_ROWS]; /* 'X' ink, '.' paper */
};

static const struct glyph glyphs[] = {
    {'0', 3, {"XXX", "X.X", "X.X", "X.X", "XXX"}},
    {'1', 3, {".X.", "XX.", ".X.", ".X.", "XXX"}},
    {'2', 3, {"XXX", "..X", "XXX", "X..", "XXX"}},
    {'3', 3, {"XXX", "..X", "XXX", "..X", "XXX"}},
    {'4', 3, {"X.X", "X.X", "XXX", "..X", "..X"}},
    {'5', 3, {"XXX", "X..", "XXX", "..X", "XXX"}},
    {'6', 3, {"XXX", "X..", "XXX", "X.X", "XXX"}},
    {'7', 3, {"XXX", "..X", "..X", "..X", "..X"}},
    {'8', 3, {"XXX", "X.X", "XXX", "X.X", "XXX"}},
    {'9', 3, {"XXX", "X.X", "XXX", "..X", "XXX"}},
    {':', 1, {".", "X", ".", "X", "."}},
    {'.', 1, {".", ".", ".", ".", "X"}},
    {'-', 3, {"...", "...", "XXX", "...", "..."}},
    {'+', 3, {"...", ".X.", "XXX", ".X.", "..."}},
    {' ', 3, {"...", "...", "...", "...", "..."}},
};

static const struct glyph *find(char c)
{
    for (size_t i = 0; i < sizeof(glyphs) / sizeof(*glyphs); i++)
        if (glyphs[i].c == c)
            return &glyphs[i];
    return NULL;
}

bool tny_bigtext_has_glyph(char c)
{
    return c != '\0' && find(c) != NULL;
}

int32_t tny_bigtext_width(const char *text, int32_t scale)
{
    int32_t w = 0;

    if (scale < 1 || scale > 4)
        return -1;
    for (size_t i = 0; text[i]; i++) {
        const struct glyph *g = find(text[i]);
        if (!g)
            return -1;
        w += (i > 0 ? scale : 0) + g->width * scale;
    }
    return w;
}

int tny_bigtext_render(const char *text, int32_t scale, char *rows,
                       size_t stride, struct tny_diag *diag)
{
    int32_t w;

    if (scale < 1 || scale > 4)
        return tny_diag_set(diag, TNY_EINVAL, "bigtext: scale 1..4, got %d",
                            (int)scale);
    for (size_t i = 0; text[i]; i++)
        if (!find(text[i]))
            return tny_diag_set(diag, TNY_EINVAL,
                                "bigtext: no glyph for '%c' in \"%.32s\"",
                                text[i], text);
    w = tny_bigtext_width(text, scale);
    if ((size_t)w + 1 > stride)
        return tny_diag_set(diag, TNY_ERANGE,
                            "bigtext: \"%.32s\" needs %d columns, have %zu",
                            text, (int)w, stride ? stride - 1 : 0);
    for (int32_t r = 0; r < TNY_BIGTEXT_ROWS; r++) {
        char *out = rows + (size_t)r * stride;
        int32_t x = 0;
        for (size_t i = 0; text[i]; i++) {
            const struct glyph *g = find(text[i]);
            if (i > 0)
                for (int32_t k = 0; k < scale; k++)
                    out[x++] = TNY_BIGTEXT_PAPER;
            for (int32_t p = 0; p < g->width; p++)
                for (int32_t k = 0; k < scale; k++)
                    out[x++] = g->rows[r][p] == 'X' ? TNY_BIGTEXT_INK
                                                    : TNY_BIGTEXT_PAPER;
        }
        out[x] = '\0';
    }
    return TNY_OK;
}
