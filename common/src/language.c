/* language.c - the shipped languages (po/LINGUAS, compiled in from the
 * list cmake/I18n.cmake writes) and the check of a code against them.
 */
#include "tny/language.h"

#include <string.h>

/* "en", "pl", ...: written by cmake/I18n.cmake from po/LINGUAS. */
static const char *const list[] = {
#include "tny_languages.inc"
};
static const size_t n = sizeof(list) / sizeof(list[0]);

size_t tny_language_count(void)
{
    return n;
}

const char *tny_language_at(size_t i)
{
    return i < n ? list[i] : NULL;
}

bool tny_language_known(const char *code)
{
    if (!code)
        return false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], code) == 0)
            return true;
    return false;
}

int tny_language_check(const char *field, const char *code, struct tny_diag *d)
{
    char allowed[128];
    size_t o = 0;

    if (tny_language_known(code))
        return 0;
    allowed[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(list[i]);
        if (o + len + 3 > sizeof(allowed))
            break;
        if (i > 0) {
            memcpy(allowed + o, ", ", 2);
            o += 2;
        }
        memcpy(allowed + o, list[i], len);
        o += len;
        allowed[o] = '\0';
    }
    return tny_diag_set(d, TNY_EINVAL,
                        "%s: \"%.*s\" is not a shipped language (one of %s)",
                        field, 32, code ? code : "", allowed);
}
