/* names.c - a player's name split for a list "by name" (names.h): the
 * family name and the rest, by the conventions of docs/console.md
 * "Family names".  Letter case comes from the C.UTF-8 locale's tables
 * (every script a name may use) without changing the process's locale.
 */
#define _POSIX_C_SOURCE 200809L /* newlocale, iswlower_l */
#include "names.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wctype.h>

#include "tny/utf8.h"

/* is_lower / is_upper: the case of a character, from the C.UTF-8
 * locale's tables; ASCII only when that locale is missing. */
static locale_t utf8_ctype(void)
{
    static locale_t loc;
    static bool tried;
    if (!tried) {
        tried = true;
        loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    }
    return loc;
}

static bool is_lower(uint32_t cp)
{
    locale_t loc = utf8_ctype();
    return loc ? iswlower_l((wint_t)cp, loc) != 0 : cp >= 'a' && cp <= 'z';
}

static bool is_upper(uint32_t cp)
{
    locale_t loc = utf8_ctype();
    return loc ? iswupper_l((wint_t)cp, loc) != 0 : cp >= 'A' && cp <= 'Z';
}

/* caps_word(w, n): a word written in capitals ("SZŐKE", "NGUYỄN"): two
 * letters or more, none lower case; not initials ("J.R.") nor a
 * generation ("II", "IV"). */
static bool caps_word(const char *w, size_t n)
{
    int32_t upper = 0;
    bool roman = true;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = tny_utf8_decode(w + i, n - i, &cp);
        if (cp == '.' || is_lower(cp))
            return false;
        upper += is_upper(cp);
        roman = roman && (cp == 'I' || cp == 'V' || cp == 'X');
        i += k;
    }
    return upper > 1 && !roman;
}

/* cjk(s): the text has a letter of a script whose names are written
 * family name first: Hangul Jamo, Hiragana and Katakana, CJK ideographs
 * (with extension A), Hangul syllables. */
static bool cjk(const char *s)
{
    for (size_t i = 0, n = strlen(s); i < n;) {
        uint32_t cp;
        i += tny_utf8_decode(s + i, n - i, &cp);
        if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3040 && cp <= 0x30ff) ||
            (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af))
            return true;
    }
    return false;
}

static bool particle(const char *w, size_t n)
{
    static const char *const list[] = {
        "van", "von", "der", "den", "de",  "del", "della", "di",
        "da",  "du",  "la",  "le",  "ter", "ten", "af",    "zu"};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (strlen(list[i]) == n && memcmp(list[i], w, n) == 0)
            return true;
    return false;
}

bool hub_names_family_first(const char *lang)
{
    return lang && strcmp(lang, "hu") == 0;
}

void hub_family_split(const char *name, bool family_first,
                      struct hub_name_parts *np)
{
    enum { MAX_WORDS = 32 };
    const char *w[MAX_WORDS];
    size_t wl[MAX_WORDS];
    int32_t n = 0, first = -1, last = -1;
    bool plain = false, any_caps = false;
    np->family[0] = np->given[0] = '\0';
    np->as_written = false;
    const char *comma = strchr(name, ',');
    if (comma && comma != name) {
        size_t fl = (size_t)(comma - name);
        const char *g = comma + 1;
        while (*g == ' ')
            g++;
        snprintf(np->family, sizeof np->family, "%.*s", (int)fl, name);
        snprintf(np->given, sizeof np->given, "%s", g);
        return;
    }
    for (const char *p = name; *p && n < MAX_WORDS;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        w[n] = p;
        while (*p && *p != ' ')
            p++;
        wl[n] = (size_t)(p - w[n]);
        n++;
    }
    if (n < 2) {
        snprintf(np->given, sizeof np->given, "%s", name);
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        bool caps = caps_word(w[i], wl[i]);
        any_caps = any_caps || caps;
        plain = plain || !caps;
        if (caps && first < 0)
            first = last = i;
        else if (caps && last == i - 1)
            last = i;
    }
    if (cjk(name) || (family_first && !any_caps)) {
        first = last = 0; /* written family name first */
        np->as_written = true;
    } else if (first < 0 || !plain) { /* the last word, with its particles */
        first = last = n - 1;
        while (first > 1 && particle(w[first - 1], wl[first - 1]))
            first--;
    }
    for (int32_t i = 0; i < n; i++) {
        char *dst = i >= first && i <= last ? np->family : np->given;
        size_t at = strlen(dst), cap = sizeof np->family;
        if (at + (at > 0) + wl[i] <
            cap) /* a word that does not fit is left out */
            snprintf(dst + at, cap - at, "%s%.*s", at ? " " : "", (int)wl[i],
                     w[i]);
    }
}
