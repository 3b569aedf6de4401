/* language.h - the languages Tourney ships catalogues for (po/LINGUAS plus
 * English, the source language), and the check of a language code given in
 * an event file, on the command line or in a table's settings.
 *
 * Pure: the list is compiled in (cmake/I18n.cmake passes po/LINGUAS).
 * Codes are gettext language codes as po/LINGUAS writes them ("pl", "nb").
 */
#ifndef TNY_LANGUAGE_H
#define TNY_LANGUAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "tny/error.h"

/* Longest code we accept (with its NUL): "pt_BR" fits. */
#define TNY_LANGUAGE_MAX 16

/* The number of shipped languages and the i-th code (0 is "en");
 * NULL past the end. */
size_t tny_language_count(void);
const char *tny_language_at(size_t i);

/* True when code is one of the shipped languages (exact, case-sensitive). */
bool tny_language_known(const char *code);

/* Checks code for the field named field ("event.language"): 0, or
 * TNY_EINVAL with a message naming the field, the value and the allowed
 * codes ("event.language: "xx" is not a shipped language (en, pl, ...)"). */
int tny_language_check(const char *field, const char *code, struct tny_diag *d);

#endif
