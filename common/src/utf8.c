/* utf8.c - UTF-8 display widths, cutting and padding, ASCII stand-ins
 * (tny/utf8.h).
 *
 * The width tables are ranges of code points sorted by their first one,
 * searched by bisection; they cover what names, clubs and notes use
 * (Latin, Greek, Cyrillic, Hebrew, Arabic, Thai marks; CJK, Hangul, kana,
 * fullwidth forms, the common emoji blocks).
 */
#include "tny/utf8.h"

#include <string.h>

struct range {
    uint32_t first, last;
};

/* Zero width: combining marks (Mn, Me) and invisible formatting. */
static const struct range zero_width[] = {
    {0x0300, 0x036F},   {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2},   {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F},   {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x06E7, 0x06E8},   {0x06EA, 0x06ED}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A},
    {0x0E47, 0x0E4E},   {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
    {0x202A, 0x202E},   {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D},
    {0x3099, 0x309A},   {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
    {0xE0100, 0xE01EF},
};

/* Two columns: East Asian Wide and Fullwidth. */
static const struct range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},
    {0x23E9, 0x23EC},   {0x23F0, 0x23F0},   {0x23F3, 0x23F3},
    {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},
    {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},
    {0x26F2, 0x26F3},   {0x26F5, 0x26F5},   {0x26FA, 0x26FA},
    {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},
    {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x3029},
    {0x302E, 0x303E},   {0x3041, 0x3098},   {0x309B, 0x33FF},
    {0x3400, 0x4DBF},   {0x4E00, 0xA4CF},   {0xA960, 0xA97F},
    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
    {0x16FE0, 0x16FE4}, {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
    {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320},
    {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393},
    {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0},
    {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440},
    {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E},
    {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596},
    {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
    {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7},
    {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool in_ranges(uint32_t cp, const struct range *r, size_t n)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < r[mid].first)
            hi = mid;
        else if (cp > r[mid].last)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

size_t tny_utf8_decode(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t c, min;

    *cp = TNY_UTF8_INVALID;
    if (n == 0)
        return 0;
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2, c = p[0] & 0x1fu, min = 0x80;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3, c = p[0] & 0x0fu, min = 0x800;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4, c = p[0] & 0x07u, min = 0x10000;
    } else {
        return 1; /* continuation byte, 0xc0/0xc1, 0xf5.. */
    }
    if (n < len)
        return 1;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 1;
        c = (c << 6) | (p[i] & 0x3fu);
    }
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF
     * are not UTF-8. */
    if (c < min || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        return 1;
    *cp = c;
    return len;
}

int32_t tny_utf8_cp_width(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
        return -1;
    if (cp < 0x300)
        return 1;
    if (in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(zero_width[0])))
        return 0;
    if (in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])))
        return 2;
    return 1;
}

size_t tny_utf8_next(const char *s, struct tny_utf8_glyph *g)
{
    size_t at = 0, used;
    uint32_t cp;

    memset(g, 0, sizeof(*g));
    /* Marks without a character before them are dropped. */
    for (;;) {
        size_t n = strnlen(s + at, 4);
        used = tny_utf8_decode(s + at, n, &cp);
        if (used == 0)
            return at;
        if (cp == TNY_UTF8_INVALID || tny_utf8_cp_width(cp) != 0)
            break;
        at += used;
    }
    g->cp = cp;
    if (cp == TNY_UTF8_INVALID || tny_utf8_cp_width(cp) < 0) {
        g->bytes[0] = cp == TNY_UTF8_INVALID ? '?' : ' ';
        g->width = 1;
    } else {
        memcpy(g->bytes, s + at, used);
        g->width = tny_utf8_cp_width(cp);
    }
    at += used;
    /* The combining marks that follow, while they fit. */
    for (;;) {
        size_t n = strnlen(s + at, 4), have = strlen(g->bytes);
        uint32_t mark;
        size_t m = tny_utf8_decode(s + at, n, &mark);
        if (m == 0 || mark == TNY_UTF8_INVALID || tny_utf8_cp_width(mark) != 0)
            break;
        if (have + m < sizeof(g->bytes))
            memcpy(g->bytes + have, s + at, m);
        at += m;
    }
    return at;
}

int32_t tny_utf8_width(const char *s)
{
    struct tny_utf8_glyph g;
    int32_t cols = 0;
    size_t n;

    while ((n = tny_utf8_next(s, &g)) > 0) {
        cols += g.width;
        s += n;
    }
    return cols;
}

int32_t tny_utf8_fit(const char *s, int32_t max_cols, bool ellipsis, char *out,
                     size_t size)
{
    static const char dots[] = "\xe2\x80\xa6"; /* U+2026 */
    struct tny_utf8_glyph g;
    size_t at = 0, n;
    int32_t cols = 0;
    /* Where the text stood when the ellipsis still fitted after it. */
    size_t keep_at = 0;
    int32_t keep_cols = 0;

    if (size == 0)
        return 0;
    out[0] = '\0';
    while ((n = tny_utf8_next(s, &g)) > 0) {
        size_t len = strlen(g.bytes);
        bool fits =
            (max_cols < 0 || cols + g.width <= max_cols) && at + len < size;
        if (!fits) {
            if (ellipsis && max_cols > 0 && keep_at + sizeof(dots) <= size) {
                memcpy(out + keep_at, dots, sizeof(dots));
                return keep_cols + 1;
            }
            break;
        }
        memcpy(out + at, g.bytes, len);
        at += len;
        cols += g.width;
        out[at] = '\0';
        if (max_cols < 0 || cols + 1 <= max_cols) {
            keep_at = at;
            keep_cols = cols;
        }
        s += n;
    }
    return cols;
}

int32_t tny_utf8_pad(const char *s, int32_t min_cols, int32_t max_cols,
                     char *out, size_t size)
{
    int32_t cols = tny_utf8_fit(s, max_cols, true, out, size);
    size_t at = strlen(out);

    while (cols < min_cols && at + 1 < size) {
        out[at++] = ' ';
        cols++;
    }
    if (size)
        out[at] = '\0';
    return cols;
}

/* Base letters of U+00C0..U+00FF, U+0100..U+017F and U+1EA0..U+1EF9. */
static const char latin1[] =
    "AAAAAAACEEEEIIIIDNOOOOOxOUUUUYTsaaaaaaaceeeeiiiidnooooo/ouuuuyty";
static const char latin_ext_a[] = "AaAaAaCcCcCcCcDd"
                                  "DdEeEeEeEeEeGgGg"
                                  "GgGgHhHhIiIiIiIi"
                                  "IiIiJjKkkLlLlLlL"
                                  "lLlNnNnNnnNnOoOo"
                                  "OoOoRrRrRrSsSsSs"
                                  "SsTtTtTtUuUuUuUu"
                                  "UuUuWwYyYZzZzZzs";
static const char vietnamese[] = "AaAaAaAaAaAaAa"
                                 "AaAaAaAaAa"
                                 "EeEeEeEeEeEeEeEe"
                                 "IiIi"
                                 "OoOoOoOoOoOoOo"
                                 "OoOoOoOoOo"
                                 "UuUu"
                                 "UuUuUuUuUu"
                                 "YyYyYyYy";

_Static_assert(sizeof(latin1) == 64 + 1, "U+00C0..U+00FF");
_Static_assert(sizeof(latin_ext_a) == 128 + 1, "U+0100..U+017F");
_Static_assert(sizeof(vietnamese) == 90 + 1, "U+1EA0..U+1EF9");

char tny_utf8_ascii(uint32_t cp)
{
    int32_t w = tny_utf8_cp_width(cp);

    if (w == 0)
        return '\0';
    if (w < 0 || cp == TNY_UTF8_INVALID)
        return w < 0 ? ' ' : '?';
    if (cp < 0x80)
        return (char)cp;
    if (cp >= 0xc0 && cp <= 0xff)
        return latin1[cp - 0xc0];
    if (cp >= 0x100 && cp <= 0x17f)
        return latin_ext_a[cp - 0x100];
    if (cp >= 0x1ea0 && cp <= 0x1ef9)
        return vietnamese[cp - 0x1ea0];
    switch (cp) {
    case 0x01a0: return 'O'; /* Ơ */
    case 0x01a1: return 'o';
    case 0x01af: return 'U'; /* Ư */
    case 0x01b0: return 'u';
    case 0x2018:
    case 0x2019: return '\'';
    case 0x201c:
    case 0x201d: return '"';
    case 0x2013:
    case 0x2014: return '-';
    case 0x2026: return '.';
    case 0x00a0: return ' ';
    }
    return '?';
}
