/* cli_lang.h - the language of what players and judges read from the
 * tourney program (printouts, the dashboard's hall texts): which language,
 * switching to it for one printout, and numbers, dates and stage names in
 * that language's conventions.  The words come from the `tourney` message
 * catalogue (po/tourney/); the conventions (decimal separator, percent
 * sign, date order, month names) are entries of that catalogue too, so a
 * new language needs a .po file and no code.
 *
 * Not here: the organiser's command line, log lines and protocol text stay
 * English (README "Languages").  Main thread only: switching changes LANGUAGE
 * and the LC_MESSAGES locale of the process (tny/i18n_io.h).
 */
#ifndef TNY_CLI_LANG_H
#define TNY_CLI_LANG_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "tny/language.h"

/* The text domain of the tourney program. */
#define HUB_LANG_DOMAIN "tourney"

/* pgettext(ctx, id) (gettext.h's, which glibc does not install): id in
 * the context ctx, "ctx\004id" in the catalogue; id untranslated. */
const char *hub_lang_pgettext(const char *ctx_id, const char *id)
    __attribute__((format_arg(2)));
#define pgettext(ctx, id) hub_lang_pgettext(ctx "\004" id, id)

/* hub_lang_pick(option, event, out, size): the language of a printout:
 * option (--lang) if given, else event (the event's "language"), else the
 * locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when shipped, else "en".
 * option and event are checked by the caller; returns out. */
const char *hub_lang_pick(const char *option, const char *event, char *out,
                          size_t size);

/* The state hub_lang_enter changed, for hub_lang_leave. */
struct hub_lang_saved {
    bool had_language;
    char language[256]; /* LANGUAGE before */
    char messages[64];  /* setlocale(LC_MESSAGES, NULL) before */
};

/* hub_lang_enter(code, saved): translates into code (a shipped language)
 * until hub_lang_leave(saved) puts back the language before (the
 * dashboard runs `print` inside its own process). */
void hub_lang_enter(const char *code, struct hub_lang_saved *saved);
void hub_lang_leave(const struct hub_lang_saved *saved);

/* hub_plain_number(v, buf, size): v with at most two decimals, no
 * trailing zeros, a decimal point whatever the language ("12.33" for
 * 12.333333, "1.5", "2"): the console's text tables. */
void hub_plain_number(double v, char *buf, size_t size);

/* hub_lang_number(v, buf, size): v with at most two decimals, no trailing
 * zeros, the current language's decimal separator ("1,5" in Polish). */
void hub_lang_number(double v, char *buf, size_t size);

/* hub_lang_percent(v, buf, size): v per cent as the language writes it
 * ("31,25 %" in Czech). */
void hub_lang_percent(double v, char *buf, size_t size);

/* hub_lang_date(t, utc, buf, size): the date and time of t (local time,
 * or UTC) as the language writes it ("27 listopada 2026, 18:05"). */
void hub_lang_date(time_t t, bool utc, char *buf, size_t size);

/* hub_lang_stage(name): a stage's name as players read it: the presets'
 * names ("Swiss", "Knockout": the formats/ directory) translated, an
 * organiser's own name as it is. */
const char *hub_lang_stage(const char *name);

#endif
