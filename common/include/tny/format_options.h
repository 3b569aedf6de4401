/* format_options.h - the options of a format: named single values an event
 * (or a format object) sets on a preset (docs/formats.md "Options").
 *
 * An option is a name for one field of the format ("swiss_rounds" is the
 * Swiss stage's rounds, "pairing" turns the one Swiss stage into a round
 * robin, ...).  One table in format_options.c lists them in application
 * order with their type, range and the formats they apply to; every
 * reader of options (the JSON adapter, the table client) goes through
 * these functions, so a value is checked the same way wherever it comes
 * from.  Pure: no I/O, no allocation.
 *
 * Option indices are 0..tny_format_option_count()-1, in application order:
 * "pairing" first, since it changes which stage kinds (and so which timer
 * options) a format has.
 */
#ifndef TNY_FORMAT_OPTIONS_H
#define TNY_FORMAT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/format.h"

enum tny_option_type {
    TNY_OPTION_INT,    /* a whole number in lo..hi (minutes, rounds, ...) */
    TNY_OPTION_POINTS, /* points in lo..hi whole points */
    TNY_OPTION_BOOL,
    TNY_OPTION_NAME, /* one of a few names ("swiss", "round_robin") */
};

struct tny_option_value {
    enum tny_option_type type;
    /* INT: the value as written (minutes, not ms); POINTS: TNY_POINT_SCALE
     * units; BOOL: 0 or 1. */
    int64_t number;
    const char *name; /* NAME: borrowed */
};

struct tny_option_info {
    const char *name; /* "swiss_rounds" */
    enum tny_option_type type;
    int64_t lo, hi;   /* INT: range; POINTS: range in whole points */
    const char *home; /* where else a format object holds the value */
};

/* Number of options; the table never changes at run time. */
int tny_format_option_count(void);

/* Option i (0 <= i < tny_format_option_count()); never NULL. */
const struct tny_option_info *tny_format_option_info(int i);

/* Whether option i is an option of fmt as it is now (e.g. "cut" needs an
 * elimination stage; "pairing" a single 2-player Swiss or round robin
 * stage). */
bool tny_format_option_applies(const struct tny_format *fmt, int i);

/* The index of the option called name that applies to fmt.  Errors:
 * TNY_EINVAL, diag "PATH: unknown option (options of format \"NAME\":
 * a, b, ...)" (path names the option, e.g. "event.options.cut"). */
TNY_MUST_USE int tny_format_option_find(const struct tny_format *fmt,
                                        const char *name, const char *path,
                                        struct tny_diag *diag);

/* TNY_OK when option i still applies to fmt, else TNY_EINVAL with diag
 * "PATH: not an option of this format after the options before it
 * (options: ...)": an option applied before it (e.g. "pairing") removed
 * the stage it sets. */
TNY_MUST_USE int tny_format_option_check(const struct tny_format *fmt, int i,
                                         const char *path,
                                         struct tny_diag *diag);

/* Sets option i of fmt to *v after tny_format_option_check and the
 * option's own checks: the type, the range ("PATH: expected an integer
 * LO..HI, got X", "PATH: expected points LO..HI"), a name of the option
 * ("PATH: unknown pairing \"x\" (expected one of: ...)"), a power of two
 * for "cut", at least 90 minutes for a Catan timer (CT-8).  Does not
 * check the format as a whole (tny_format_check_options) nor sync the
 * fields that mirror bye_points (tny_format_sync_derived).
 * Errors: TNY_EINVAL (diag names path); fmt unchanged on error. */
TNY_MUST_USE int tny_format_option_set(struct tny_format *fmt, int i,
                                       const struct tny_option_value *v,
                                       const char *path, struct tny_diag *diag);

/* The current value of option i of fmt (which must apply) in *out; false
 * when its field holds the INT32_MIN / INT64_MIN "not given" mark a parser
 * uses while filling a format. */
bool tny_format_option_get(const struct tny_format *fmt, int i,
                           struct tny_option_value *out);

/* TNY_OK when fmt is still a valid format after its options were applied
 * (tny_format_check), else TNY_EINVAL with diag "PATH: the options give
 * an invalid format: WHY" (path names the options, e.g. "event.options"). */
TNY_MUST_USE int tny_format_check_options(const struct tny_format *fmt,
                                          const char *path,
                                          struct tny_diag *diag);

/* One option by name, as an event's "options" sets it: find, set, sync
 * the derived fields and check the whole format.  path names the options
 * object ("options"); messages name the option as PATH.NAME.  Errors: as
 * tny_format_option_find, tny_format_option_set and
 * tny_format_check_options; fmt may be changed when the last one fails. */
TNY_MUST_USE int tny_format_set_option(struct tny_format *fmt, const char *name,
                                       const struct tny_option_value *v,
                                       const char *path, struct tny_diag *diag);

#endif
