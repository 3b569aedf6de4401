/* config.h - one table per program drives its configuration.
 *
 * A program (hub, table client) describes every setting once: name, type,
 * range, default and help.  The same table then parses the config file
 * ("name = value" lines, # comments), applies command-line overrides
 * (--name=value), validates ranges, prints the effective configuration
 * (--dump-config) and the annotated example file shipped in deploy/.
 * Pure: text in, values out; reading the file is the caller's job.
 */
#ifndef TNY_CONFIG_H
#define TNY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

enum tny_config_type {
    TNY_CONFIG_STRING, /* any text up to TNY_CONFIG_VALUE_MAX - 1 bytes */
    TNY_CONFIG_INT,    /* integer in [min, max] */
    TNY_CONFIG_BOOL,   /* true/false, yes/no, on/off, 1/0 */
    TNY_CONFIG_ENUM,   /* one of choices (a |-separated list) */
};

#define TNY_CONFIG_VALUE_MAX 512

struct tny_config_item {
    const char *name; /* [a-z0-9_]+ */
    enum tny_config_type type;
    const char *fallback; /* default, as text ("" = empty / unset) */
    int64_t min, max;     /* TNY_CONFIG_INT range */
    const char *choices;  /* TNY_CONFIG_ENUM: "error|warn|info|debug" */
    const char *help;     /* one line */
};

/* Values parallel to the table: text as given, and the parsed integer for
 * INT, BOOL (0/1) and ENUM (index into choices). */
struct tny_config_value {
    char text[TNY_CONFIG_VALUE_MAX];
    int64_t number;
    bool set; /* given in the file or on the command line */
};

/* Fills values with the defaults (which must be valid: programmer error
 * otherwise, asserted). */
void tny_config_defaults(const struct tny_config_item *items, size_t n,
                         struct tny_config_value *values);

/* Sets one item from text.  Errors: TNY_ENOTFOUND (unknown name: diag
 * lists the known names), TNY_EINVAL (bad value: diag says the type and
 * range). */
TNY_MUST_USE int tny_config_set(const struct tny_config_item *items, size_t n,
                                struct tny_config_value *values,
                                const char *name, const char *text,
                                struct tny_diag *diag);

/* Parses a config file's text ("name = value" per line, blank lines and
 * lines starting with # ignored, values may be "quoted").  origin names
 * the file in messages: "hub.conf:12: unknown setting \"brokr\"".
 * Changes nothing on error (all or nothing). */
TNY_MUST_USE int tny_config_parse(const struct tny_config_item *items, size_t n,
                                  struct tny_config_value *values,
                                  const char *text, const char *origin,
                                  struct tny_diag *diag);

/* Applies "--name=value" / "--name value" arguments; argv entries that are
 * not settings are left for the caller (*n_rest, rest[] in order).
 * Errors as tny_config_set, and TNY_EINVAL for a missing value. */
TNY_MUST_USE int tny_config_apply_args(const struct tny_config_item *items,
                                       size_t n,
                                       struct tny_config_value *values,
                                       int argc, char **argv, char **rest,
                                       int *n_rest, struct tny_diag *diag);

/* Writes the effective configuration (annotated = with help, type and
 * default as comments, the form of deploy/'s example files) into buf
 * (NUL-terminated, truncated at size).  Returns the length needed. */
size_t tny_config_dump(const struct tny_config_item *items, size_t n,
                       const struct tny_config_value *values, bool annotated,
                       char *buf, size_t size);

/* Index of name in items, or -1. */
int tny_config_find(const struct tny_config_item *items, size_t n,
                    const char *name);

#endif
