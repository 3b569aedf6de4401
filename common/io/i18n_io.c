/* i18n_io.c - the catalogue lookup and the run-time language switch of the
 * C programs (tny/i18n_io.h).  The choice of a language (event, settings,
 * locale) belongs to each program; this file only applies it.
 */
#include "tny/i18n_io.h"

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tny/language.h"

#ifndef TNY_LOCALEDIR
#define TNY_LOCALEDIR "/usr/share/locale"
#endif

/* "<directory of the running program>/../locale" when it is a directory:
 * build/hub/tourney and build/table-client/tourney-table find build/locale,
 * the catalogues of the build tree they were built in. */
static const char *build_tree_localedir(void)
{
    static char dir[PATH_MAX];
    static int looked;
    char exe[PATH_MAX];
    struct stat st;
    ssize_t n;
    char *slash;

    if (looked)
        return dir[0] ? dir : NULL;
    looked = 1;
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    if ((size_t)snprintf(dir, sizeof(dir), "%s/../locale", exe) >=
            sizeof(dir) ||
        stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        dir[0] = '\0';
        return NULL;
    }
    return dir;
}

const char *tny_i18n_localedir(void)
{
    const char *dir = getenv("TOURNEY_LOCALEDIR");
    if (dir && *dir)
        return dir;
    dir = build_tree_localedir();
    return dir ? dir : TNY_LOCALEDIR;
}

int tny_i18n_has_catalogue(const char *domain, const char *code)
{
    char path[PATH_MAX];

    if (strcmp(code, "en") == 0)
        return 1; /* the msgids */
    if ((size_t)snprintf(path, sizeof(path), "%s/%s/LC_MESSAGES/%s.mo",
                         tny_i18n_localedir(), code, domain) >= sizeof(path))
        return 0;
    return access(path, R_OK) == 0;
}

void tny_i18n_open(const char *domain)
{
    bindtextdomain(domain, tny_i18n_localedir());
    bind_textdomain_codeset(domain, "UTF-8");
    textdomain(domain);
}

int tny_i18n_use(const char *code)
{
    const char *cur;

    if (!tny_language_known(code))
        return -1;
    /* LANGUAGE outranks LC_ALL/LC_MESSAGES in gettext, but glibc ignores
     * it while LC_MESSAGES is "C"/"POSIX": C.UTF-8 is built into glibc
     * (Debian 12), so it is always there to switch to. */
    cur = setlocale(LC_MESSAGES, NULL);
    if (!cur || strcmp(cur, "C") == 0 || strcmp(cur, "POSIX") == 0)
        setlocale(LC_MESSAGES, "C.UTF-8");
    if (setenv("LANGUAGE", code, 1) != 0)
        return -1;
    /* gettext caches translations per domain: textdomain() again makes it
     * read the new language's catalogue. */
    textdomain(textdomain(NULL));
    return 0;
}

/* "pl_PL.UTF-8@euro" -> "pl" when shipped; "nb_NO" -> "nb". */
static int shipped(const char *value, size_t len, char *out, size_t size)
{
    char code[TNY_LANGUAGE_MAX];
    size_t n = 0;

    while (n < len && n + 1 < sizeof(code) && value[n] != '_' &&
           value[n] != '.' && value[n] != '@' && value[n] != ':')
        n++;
    memcpy(code, value, n);
    code[n] = '\0';
    /* Norwegian: "no" is what older systems call Bokmål. */
    if (strcmp(code, "no") == 0)
        strcpy(code, "nb");
    if (n == 0 || !tny_language_known(code) || strlen(code) >= size)
        return 0;
    strcpy(out, code);
    return 1;
}

const char *tny_i18n_env_language(char *out, size_t size)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *v = getenv("LANGUAGE");

    if (size == 0)
        return out;
    out[0] = '\0';
    /* LANGUAGE is a list "hu:en"; the first shipped entry wins. */
    while (v && *v) {
        size_t len = strcspn(v, ":");
        if (shipped(v, len, out, size))
            return out;
        v += len;
        if (*v == ':')
            v++;
    }
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        v = getenv(vars[i]);
        if (v && *v) {
            /* The first one set decides, as in setlocale(). */
            shipped(v, strlen(v), out, size);
            return out;
        }
    }
    return out;
}
