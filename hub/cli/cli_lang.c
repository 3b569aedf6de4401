/* cli_lang.c - the players' language in the tourney program (cli_lang.h):
 * the choice of a printout's language, the switch for one printout, and
 * the language's conventions for numbers, per cents and dates, which are
 * catalogue entries (msgctxt "decimal separator", "percent", "date",
 * "month") so that a translator sets them with the words.
 *
 * Not here: the catalogue lookup itself (tny/i18n_io.h), the texts (the
 * files that show them mark them).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_lang.h"

#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/i18n_io.h"

const char *hub_lang_pgettext(const char *ctx_id, const char *id)
{
    const char *t = dgettext(HUB_LANG_DOMAIN, ctx_id);
    return t == ctx_id ? id : t;
}

const char *hub_lang_pick(const char *option, const char *event, char *out,
                          size_t size)
{
    if (size == 0)
        return out;
    if (option && *option)
        snprintf(out, size, "%s", option);
    else if (event && *event)
        snprintf(out, size, "%s", event);
    else if (!tny_i18n_env_language(out, size)[0])
        snprintf(out, size, "en");
    return out;
}

/* Once per language: without the catalogue gettext shows English
 * silently (a build tree without its locale/, say). */
static void warn_no_catalogue(const char *code)
{
    static char warned[16];

    if (strcmp(warned, code) == 0 ||
        tny_i18n_has_catalogue(HUB_LANG_DOMAIN, code))
        return;
    snprintf(warned, sizeof warned, "%s", code);
    fprintf(stderr,
            "tourney: language %s: no catalogue in %s; showing English\n", code,
            tny_i18n_localedir());
}

void hub_lang_enter(const char *code, struct hub_lang_saved *saved)
{
    const char *lang = getenv("LANGUAGE");
    const char *msgs = setlocale(LC_MESSAGES, NULL);
    memset(saved, 0, sizeof *saved);
    saved->had_language = lang != NULL;
    snprintf(saved->language, sizeof saved->language, "%s", lang ? lang : "");
    snprintf(saved->messages, sizeof saved->messages, "%s", msgs ? msgs : "C");
    if (tny_i18n_use(code) < 0)
        tny_i18n_use("en");
    else
        warn_no_catalogue(code);
}

void hub_lang_leave(const struct hub_lang_saved *saved)
{
    if (saved->had_language)
        setenv("LANGUAGE", saved->language, 1);
    else
        unsetenv("LANGUAGE");
    setlocale(LC_MESSAGES, saved->messages);
    /* gettext's cache holds the printout's language: flushed */
    textdomain(textdomain(NULL));
}

/* "1.50" -> "1.5", "2.00" -> "2", "-0" -> "0" (LC_NUMERIC is "C": tourney.c) */
void hub_plain_number(double v, char *b, size_t size)
{
    snprintf(b, size, "%.2f", v);
    char *e = b + strlen(b);
    while (e > b && strchr(b, '.') && e[-1] == '0')
        *--e = '\0';
    if (e > b && e[-1] == '.')
        *--e = '\0';
    if (strcmp(b, "-0") == 0)
        snprintf(b, size, "0");
}

/* fill(pattern, names, values, n, buf, size): pattern with each of the
 * upper-case words names[i] replaced by values[i] (a convention of the
 * catalogue: "DAY MONTH YEAR, HH:MM"); the rest as it is. */
static void fill(const char *pattern, const char *const *names,
                 const char *const *values, size_t n, char *buf, size_t size)
{
    size_t at = 0;
    if (size == 0)
        return;
    for (const char *p = pattern; *p && at + 1 < size;) {
        size_t i = 0;
        while (i < n && strncmp(p, names[i], strlen(names[i])) != 0)
            i++;
        const char *piece = i < n ? values[i] : p;
        size_t len = i < n ? strlen(values[i]) : 1;
        if (len > size - 1 - at)
            len = size - 1 - at;
        memcpy(buf + at, piece, len);
        at += len;
        p += i < n ? strlen(names[i]) : 1;
    }
    buf[at] = '\0';
}

void hub_lang_number(double v, char *buf, size_t size)
{
    static const char *const names[] = {"INTEGER", "FRACTION"};
    char b[64];
    hub_plain_number(v, b, sizeof b);
    char *dot = strchr(b, '.');
    if (!dot) {
        snprintf(buf, size, "%s", b);
        return;
    }
    *dot = '\0';
    const char *values[] = {b, dot + 1};
    /* TRANSLATORS: a number with decimals (1.5 points): INTEGER and
       FRACTION are replaced; "INTEGER,FRACTION" in Polish, Hungarian,
       Norwegian and Czech. */
    fill(pgettext("number", "INTEGER.FRACTION"), names, values, 2, buf, size);
}

void hub_lang_percent(double v, char *buf, size_t size)
{
    static const char *const names[] = {"NUMBER"};
    char n[80];
    hub_lang_number(v, n, sizeof n);
    const char *values[] = {n};
    /* TRANSLATORS: a percentage: NUMBER is the number ("31.25"); with a
       no-break space (U+00A0) before the sign where the language spaces
       it ("NUMBER %" in Czech and Norwegian). */
    /* xgettext:no-c-format */
    fill(pgettext("percent", "NUMBER%"), names, values, 1, buf, size);
}

/* The month's name as a date writes it. */
static const char *month_name(int m)
{
    /* TRANSLATORS: a month in a date ("27 November 2026"), in the form a
       date uses: the genitive in Polish and Czech ("listopada",
       "listopadu"), lower case where the language writes it so. */
    switch (m) {
    case 0: return pgettext("month", "January");
    case 1: return pgettext("month", "February");
    case 2: return pgettext("month", "March");
    case 3: return pgettext("month", "April");
    case 4: return pgettext("month", "May");
    case 5: return pgettext("month", "June");
    case 6: return pgettext("month", "July");
    case 7: return pgettext("month", "August");
    case 8: return pgettext("month", "September");
    case 9: return pgettext("month", "October");
    case 10: return pgettext("month", "November");
    default: return pgettext("month", "December");
    }
}

void hub_lang_date(time_t t, bool utc, char *buf, size_t size)
{
    /* (MONTH before MM: the longer word first) */
    static const char *const names[] = {"MONTH", "DAY", "YEAR", "HH", "MM"};
    struct tm tm;
    char day[16], year[16], hh[16], mm[16];
    if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm))) {
        snprintf(buf, size, "?");
        return;
    }
    snprintf(day, sizeof day, "%d", tm.tm_mday);
    snprintf(year, sizeof year, "%d", tm.tm_year + 1900);
    snprintf(hh, sizeof hh, "%02d", tm.tm_hour);
    snprintf(mm, sizeof mm, "%02d", tm.tm_min);
    const char *values[] = {month_name(tm.tm_mon), day, year, hh, mm};
    /* TRANSLATORS: a date and time as the language writes them: DAY,
       MONTH (its name), YEAR, HH:MM (24 hours) are replaced; reorder
       and punctuate ("YEAR. MONTH DAY., HH:MM" in Hungarian). */
    fill(pgettext("date", "DAY MONTH YEAR, HH:MM"), names, values, 5, buf,
         size);
}

const char *hub_lang_stage(const char *name)
{
    /* The stage names of the presets (formats/), as players read them;
     * a stage the organiser named is shown as named. */
    /* TRANSLATORS: the name of a stage of a tournament, as the venue's
       rules call it (seed 000: "rundy eliminacyjne w systemie
       szwajcarskim", "system pucharowy"). */
    if (strcmp(name, "Swiss") == 0)
        return pgettext("stage", "Swiss");
    if (strcmp(name, "Knockout") == 0)
        return pgettext("stage", "Knockout");
    if (strcmp(name, "Elimination") == 0)
        return pgettext("stage", "Elimination");
    if (strcmp(name, "Top cut") == 0)
        return pgettext("stage", "Top cut");
    if (strcmp(name, "Preliminary") == 0)
        return pgettext("stage", "Preliminary");
    if (strcmp(name, "Final") == 0)
        return pgettext("stage", "Final");
    if (strcmp(name, "Gorn rounds") == 0)
        return pgettext("stage", "Gorn rounds");
    /* (the stage kinds, for a stage without a name) */
    if (strcmp(name, "Rounds") == 0)
        return pgettext("stage", "Rounds");
    if (strcmp(name, "Round robin") == 0)
        return pgettext("stage", "Round robin");
    return name;
}
