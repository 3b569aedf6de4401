/* print_qr.h - a QR code as inline SVG for the printouts (print.c): the
 * sign-in codes' links on the table tents, the players' cards and the
 * result slips (issue 20).  See print_qr.c. */
#ifndef TNY_CLI_PRINT_QR_H
#define TNY_CLI_PRINT_QR_H

#include "tny/error.h"

/* hub_qr_svg(text, svg, diag): text (a URL) as a QR code (error
 * correction M, byte mode), one <svg> element (heap, the caller frees):
 * a <path> of the dark modules, a quiet zone of 4 modules, scaled by
 * CSS.  Errors: TNY_EINVAL (text too long for a QR code), TNY_ENOMEM. */
TNY_MUST_USE int hub_qr_svg(const char *text, char **svg,
                            struct tny_diag *diag);

#endif
