/* error.c - names for engine error codes and the diagnostic helper. */
#include "tny/error.h"

#include <stdarg.h>
#include <stdio.h>

const char *tny_strerror(int rc)
{
    switch (rc) {
    case TNY_OK: return "success";
    case TNY_ENOMEM: return "out of memory";
    case TNY_EINVAL: return "invalid input";
    case TNY_ENOMATCH: return "no valid pairing or seating exists";
    case TNY_ESTATE: return "not allowed in the current state";
    case TNY_ERANGE: return "value out of range";
    case TNY_ENOTFOUND: return "not found";
    case TNY_ECONFLICT: return "conflicts with a recorded value";
    case TNY_ESTORE: return "the storage failed";
    }
    return "unknown error";
}

int tny_diag_set(struct tny_diag *diag, int rc, const char *fmt, ...)
{
    if (diag) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->msg, sizeof(diag->msg), fmt, ap);
        va_end(ap);
    }
    return rc;
}

const char *tny_key_list(char *dst, size_t cap, const char *const *names,
                         size_t n)
{
    size_t used = 0;
    if (cap > 0)
        dst[0] = '\0';
    for (size_t i = 0; i < n && names[i] && used < cap; i++) {
        int w =
            snprintf(dst + used, cap - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return dst;
}
