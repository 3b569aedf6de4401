/* i18n.h - the table client's words through GNU gettext (text domain
 * "tourney-table", po/tourney-table/): _() for a message, ngettext() for a
 * count.  The language is chosen by app.c (the event's language, the
 * `language` setting, the locale; tny/i18n_io.h).
 *
 * Not translated: log lines, the line protocol's keywords and keys, the
 * lots and results sent to the hub.  The flow helpers (flow_kit.c)
 * translate their printf formats themselves (po/tourney-table/POTFILES
 * names them as xgettext keywords).
 */
#ifndef TBL_I18N_H
#define TBL_I18N_H

#include <libintl.h>

#include "tny/i18n.h"

#define TBL_TEXT_DOMAIN "tourney-table"
#define _(s) gettext(s)

/* A text that comes with the format or the event (a time-out procedure, a
 * note): the presets' texts are msgids (po/tourney-table/PRESETFIELDS), an
 * organiser's own text has no translation and is shown as written. */
static inline const char *tbl_i18n_data(const char *s)
{
    if (!s)
        return "";
    return s[0] ? gettext(s) : s; /* gettext("") is the header */
}

#endif
