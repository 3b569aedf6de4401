/* i18n_io.h - opening a program's message catalogue (GNU gettext, in glibc)
 * and choosing its language at run time.
 *
 * Catalogues are looked up in $TOURNEY_LOCALEDIR (the tests point it at the
 * build tree's locale/), else in <directory of the program>/../locale when
 * it exists (a program run from a build tree: build/locale), else in the
 * installed locale directory (share/locale).  A missing catalogue is not an
 * error: gettext then returns the English msgid (the programs say so once:
 * tny_i18n_has_catalogue).  Main thread only: tny_i18n_use() changes the
 * process environment (LANGUAGE) and the LC_MESSAGES locale.
 */
#ifndef TNY_I18N_IO_H
#define TNY_I18N_IO_H

#include <stddef.h>

/* The directory catalogues are read from (see above). */
const char *tny_i18n_localedir(void);

/* 1 when domain's catalogue for code ("pl") is in tny_i18n_localedir()
 * (always for "en"), else 0. */
int tny_i18n_has_catalogue(const char *domain, const char *code);

/* Binds domain ("tourney-table") to tny_i18n_localedir() with UTF-8
 * output and makes it the default domain.  Call after setlocale(). */
void tny_i18n_open(const char *domain);

/* Translates from now on into code ("pl"; "en" = the msgids).  Works in
 * the "C" locale too (gettext ignores LANGUAGE there, so LC_MESSAGES
 * becomes C.UTF-8).  Returns 0, or -1 when code is not a shipped language
 * (tny/language.h; nothing changes). */
int tny_i18n_use(const char *code);

/* The shipped language the environment asks for (LANGUAGE's first shipped
 * entry, else LC_ALL, LC_MESSAGES, LANG: "pl_PL.UTF-8" -> "pl") into out,
 * or "" when it names none; returns out. */
const char *tny_i18n_env_language(char *out, size_t size);

#endif
