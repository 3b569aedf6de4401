/* io_internal.h - helpers shared by the JSON adapter's files (not public).
 *
 * Typed getters that check one JSON value and say what is wrong with it
 * using the document path ("event.players[3].name: expected a string"),
 * the unknown-key check, exact point conversion and the one dump routine
 * that gives every output the same layout.  Nothing here keeps state.
 */
#ifndef TNY_IO_INTERNAL_H
#define TNY_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "tny/error.h"

/* ---- read-only documents (jdoc.c) --------------------------------------
 * What the input parsers walk: one value of a parsed document.  A
 * container's children are u.kids[0..n); an object's child carries its
 * member name in key (document order, no two alike).  Strings are
 * NUL-terminated and hold no NUL (n is their length in bytes). */
enum tny_jtype {
    TNY_J_NULL,
    TNY_J_FALSE,
    TNY_J_TRUE,
    TNY_J_INT,
    TNY_J_REAL,
    TNY_J_STRING,
    TNY_J_ARRAY,
    TNY_J_OBJECT
};

struct tny_jv {
    const char *key; /* member name within an object, else NULL */
    union {
        int64_t i;
        double d;
        const char *s;
        const struct tny_jv *const *kids;
    } u;
    uint32_t n; /* string bytes, or number of children */
    uint8_t type;
};

struct jdoc_block;
struct tny_jdoc {
    const struct tny_jv *root;
    struct jdoc_block *blocks; /* the values, runs of children, strings */
};

/* Parses len bytes of JSON into doc, accepting and refusing exactly what
 * tny__load does, with its messages (what names the document).  Errors:
 * TNY_EINVAL, TNY_ERANGE (too large), TNY_ENOMEM. */
TNY_MUST_USE int tny__jdoc_parse(struct tny_jdoc *doc, const char *text,
                                 size_t len, const char *what,
                                 struct tny_diag *diag);
/* The same, reading text in place: a string without escapes is left in
 * text (its closing quote becomes its NUL), so text must outlive doc.
 * When the text is refused, or out of memory, text is given back as it
 * was. */
TNY_MUST_USE int tny__jdoc_parse_in_place(struct tny_jdoc *doc, char *text,
                                          size_t len, const char *what,
                                          struct tny_diag *diag);
/* A document holding a copy of root (any value).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny__jdoc_from_json(struct tny_jdoc *doc, const json_t *root);
void tny__jdoc_release(struct tny_jdoc *doc);
/* The member key of obj, NULL when obj is no object or has none. */
const struct tny_jv *tny__jv_get(const struct tny_jv *obj, const char *key);
/* A jansson copy of v (new reference), NULL on allocation failure. */
json_t *tny__jv_to_json(const struct tny_jv *v);
/* Same values, member names and order (for tests and fuzz targets). */
bool tny__jv_equal(const struct tny_jv *a, const struct tny_jv *b);

/* The typed checks below, on a document's value: same messages. */
TNY_MUST_USE int tny__v_check_keys(const struct tny_jv *obj, const char *path,
                                   const char *const *allowed,
                                   struct tny_diag *diag);
TNY_MUST_USE int tny__v_want_object(const struct tny_jv *v, const char *path,
                                    struct tny_diag *diag);
TNY_MUST_USE int tny__v_want_array(const struct tny_jv *v, const char *path,
                                   size_t max, struct tny_diag *diag);
TNY_MUST_USE int tny__v_int(const struct tny_jv *v, const char *path,
                            int64_t lo, int64_t hi, int64_t *out,
                            struct tny_diag *diag);
TNY_MUST_USE int tny__v_points(const struct tny_jv *v, const char *path,
                               int64_t limit, int64_t *out,
                               struct tny_diag *diag);
TNY_MUST_USE int tny__v_bool(const struct tny_jv *v, const char *path,
                             bool *out, struct tny_diag *diag);
TNY_MUST_USE int tny__v_string(const struct tny_jv *v, const char *path,
                               size_t max, const char **out,
                               struct tny_diag *diag);
TNY_MUST_USE int tny__v_string_to(const struct tny_jv *v, const char *path,
                                  char *dst, size_t cap, struct tny_diag *diag);

/* Longest path we name in a message; longer ones are cut. */
#define TNY__PATH_MAX 256

/* dst = "base.key" (key cut to 64 characters). */
void tny__path_key(char *dst, const char *base, const char *key);
/* dst = "base[i]". */
void tny__path_index(char *dst, const char *base, size_t i);
/* Sets whether the two above build nothing (dst = ""), for a pass whose
 * messages are not shown; returns the previous setting.  Per thread. */
bool tny__paths_quiet(bool on);

/* True for keys every object ignores: "x_..." and "_...". */
bool tny__is_extension_key(const char *key);

/* Fails on a key of obj that is not in allowed (NULL-terminated) and does
 * not start with "x_" or "_": "path.key: unknown key (expected one of: ...)".
 */
TNY_MUST_USE int tny__check_keys(const json_t *obj, const char *path,
                                 const char *const *allowed,
                                 struct tny_diag *diag);

/* Checks that v is an object / array; path names it. */
TNY_MUST_USE int tny__want_object(const json_t *v, const char *path,
                                  struct tny_diag *diag);
TNY_MUST_USE int tny__want_array(const json_t *v, const char *path, size_t max,
                                 struct tny_diag *diag);

/* An integer in [lo, hi] (a JSON integer; 3.0 is not one). */
TNY_MUST_USE int tny__int(const json_t *v, const char *path, int64_t lo,
                          int64_t hi, int64_t *out, struct tny_diag *diag);
/* A number of points, exact in TNY_POINT_SCALE units, |value| <= limit. */
TNY_MUST_USE int tny__points(const json_t *v, const char *path, int64_t limit,
                             int64_t *out, struct tny_diag *diag);
TNY_MUST_USE int tny__bool(const json_t *v, const char *path, bool *out,
                           struct tny_diag *diag);
/* A string of 1..max bytes (no NUL inside); *out borrows v's text. */
TNY_MUST_USE int tny__string(const json_t *v, const char *path, size_t max,
                             const char **out, struct tny_diag *diag);
/* Copies a 1..cap-1 byte string into a fixed array of cap bytes. */
TNY_MUST_USE int tny__string_to(const json_t *v, const char *path, char *dst,
                                size_t cap, struct tny_diag *diag);

/* Loads len bytes of JSON (duplicate keys rejected); what names the
 * document in messages ("event", "format").  Errors: TNY_EINVAL with
 * "what: invalid JSON at line L, column C: why", TNY_ERANGE (too large). */
TNY_MUST_USE int tny__load(const char *text, size_t len, const char *what,
                           json_t **out, struct tny_diag *diag);

/* Dumps root in the house style (2-space indent, order kept, "%.15g" reals,
 * trailing newline) into *out (malloc'd).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny__dump(const json_t *root, char **out);

/* Sets key to value in obj, consuming value; false when value is NULL or
 * the set failed (allocation). */
bool tny__set(json_t *obj, const char *key, json_t *value);
/* Appends value to arr, consuming it; false on failure. */
bool tny__append(json_t *arr, json_t *value);

/* A double as a JSON number: an integer when it is one, else a real. */
json_t *tny__number(double v);

struct tny_format;
/* The format object of f (new reference), NULL on allocation failure. */
json_t *tny__format_json(const struct tny_format *f);

#endif
