/* fuzz.h - the entry point every fuzz target in fuzz/ defines.
 *
 * Built with TNY_FUZZ=ON (clang, -fsanitize=fuzzer) the target is a
 * libFuzzer program; in every other build it links replay.c, a main that
 * feeds it the files of its seed corpus (tests/fuzz/<target>/), so that the
 * corpus, and every crash ever found, runs as a ctest entry.
 *
 * A target returns 0 for any input; a bug is a crash, a sanitizer report,
 * a leak or an abort() on a broken invariant (fuzz_check).
 */
#ifndef TNY_FUZZ_H
#define TNY_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant the code under test promises for every input it accepts
 * (a printed event reads back, a decoded message re-encodes): failing it
 * is a bug, reported like a crash. */
#define fuzz_check(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__,    \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* A writable copy of the input (for a reader that works in place), at
 * least one byte; NULL when out of memory. */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (copy && size)
        memcpy(copy, data, size);
    return copy;
}

#endif
