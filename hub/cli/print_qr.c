/* print_qr.c - a QR code as inline SVG (print_qr.h): libqrencode makes
 * the symbol, this file writes its dark modules as one <path>, a
 * horizontal run of modules as one rectangle ("M x y h n v 1 h -n z"),
 * inside a 4-module quiet zone (ISO/IEC 18004).  The SVG has no size of
 * its own (viewBox only): the printout's CSS gives it one.
 * Not here: what the code says (print.c makes the URL). */
#define _POSIX_C_SOURCE 200809L
#include "print_qr.h"

#include <errno.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QR_QUIET 4

int hub_qr_svg(const char *text, char **svg, struct tny_diag *diag)
{
    *svg = NULL;
    QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!qr)
        return errno == ENOMEM
                   ? tny_diag_set(diag, TNY_ENOMEM, "out of memory")
                   : tny_diag_set(diag, TNY_EINVAL,
                                  "\"%.60s\": too long for a QR code", text);
    int w = qr->width, full = w + 2 * QR_QUIET;
    /* the worst case: every other module dark, each its own run */
    size_t cap = 256 + (size_t)w * (size_t)(w / 2 + 1) * 40;
    char *buf = malloc(cap);
    int rc = TNY_OK;
    if (!buf) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    size_t len = (size_t)snprintf(
        buf, cap,
        "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" "
        "viewBox=\"0 0 %d %d\" shape-rendering=\"crispEdges\">"
        "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/><path fill=\"#000\" "
        "d=\"",
        full, full, full, full);
    for (int y = 0; y < w; y++) {
        for (int x = 0; x < w;) {
            if (!(qr->data[y * w + x] & 1)) {
                x++;
                continue;
            }
            int run = 1;
            while (x + run < w && (qr->data[y * w + x + run] & 1))
                run++;
            len += (size_t)snprintf(buf + len, cap - len, "M%d %dh%dv1h-%dz",
                                    x + QR_QUIET, y + QR_QUIET, run, run);
            x += run;
        }
    }
    snprintf(buf + len, cap - len, "\"/></svg>");
    *svg = buf;
out:
    QRcode_free(qr);
    return rc;
}
