/* error.h - the one error enum of the Tourney engine.
 *
 * Every fallible engine function returns int rc: 0 (TNY_OK) on success or a
 * negative enum tny_error.  tny_strerror() names a code in lowercase words.
 * Detail about *what* was wrong (which key, which player) travels in a
 * struct tny_diag filled by the function that found it; codes stay coarse.
 * A refusal (TNY_ESTATE, TNY_EINVAL, ...) says the request breaks a rule;
 * TNY_ESTORE says the disk or the file failed it (issue 18), so a caller
 * tells the two apart by the code alone.
 */
#ifndef TNY_ERROR_H
#define TNY_ERROR_H

#include <stddef.h>

#if defined(__GNUC__)
#define TNY_MUST_USE __attribute__((warn_unused_result))
#define TNY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TNY_MUST_USE
#define TNY_PRINTF(a, b)
#endif

enum tny_error {
    TNY_OK = 0,
    TNY_ENOMEM = -1,    /* allocation failed */
    TNY_EINVAL = -2,    /* invalid input (event, format, result, argument) */
    TNY_ENOMATCH = -3,  /* no perfect matching / seating exists */
    TNY_ESTATE = -4,    /* operation not allowed in the current state */
    TNY_ERANGE = -5,    /* value or size outside the supported range */
    TNY_ENOTFOUND = -6, /* named thing (player, preset, table) unknown */
    TNY_ECONFLICT = -7, /* conflicts with something already recorded */
    /* the storage failed (disk full, read-only file, I/O error, a file
     * that cannot be opened, corruption): not a refusal, nothing changed */
    TNY_ESTORE = -8,
};

/* Lowercase description of rc ("out of memory"); never NULL. */
const char *tny_strerror(int rc);

/* Human-readable detail for an error: "path: what is wrong".  Functions that
 * take a struct tny_diag * fill it when they fail (it may be NULL). */
struct tny_diag {
    char msg[512];
};

/* printf-style fill of diag (no-op when diag is NULL); returns rc so that
 * callers can write `return tny_diag_set(d, TNY_EINVAL, "...")`. */
int tny_diag_set(struct tny_diag *diag, int rc, const char *fmt, ...)
    TNY_PRINTF(3, 4);

/* The list of a "path.key: unknown key (expected one of: LIST)"
 * diagnostic, in one wording for every check of keys (the event file's,
 * a result's penalty): names[0..n), or up to a NULL, joined by ", " into
 * dst (cap bytes, the list cut there).  Returns dst. */
const char *tny_key_list(char *dst, size_t cap, const char *const *names,
                         size_t n);

#endif
