/* fuzz_import.h - the body shared by the importer fuzz targets
 * (fuzz_import_listfortress.c, fuzz_import_cryodex.c, fuzz_import_nrtm.c):
 * other tools' JSON through tny_import, as `tourney import KIND FILE` reads
 * it, then what an accepted event drives: standings, the printed event
 * (which must read back) and both exports.  The export to the event's own
 * tool (ListFortress for ListFortress and Cryodex, both X-Wing; NRTM for
 * NRTM) must import back; the other need only not fail badly (a Netrunner
 * draw is no X-Wing result).
 */
#ifndef TNY_FUZZ_IMPORT_H
#define TNY_FUZZ_IMPORT_H

#include <string.h>

#include "fuzz.h"
#include "tny/import.h"
#include "tny/json_io.h"
#include "tny/standings.h"

/* An export of an accepted event is a file of that tool: it imports. */
static void fuzz_import_back(enum tny_import_kind kind, const char *text)
{
    struct tny_event back;
    struct tny_diag diag;
    int rc = tny_import(kind, text, strlen(text), &back, &diag);
    if (rc != 0)
        fprintf(stderr, "re-import: %s\n", diag.msg);
    fuzz_check(rc == 0);
    tny_event_release(&back);
}

static int fuzz_import(enum tny_import_kind kind, const uint8_t *data,
                       size_t size)
{
    struct tny_event ev, back;
    struct tny_diag diag;
    struct tny_standings st;
    char *text = NULL;

    if (size > 262144)
        return 0;
    if (tny_import(kind, (const char *)data, size, &ev, &diag) < 0)
        return 0;
    if (tny_standings_compute(&ev, &st, &diag) == 0)
        tny_standings_release(&st);
    fuzz_check(tny_event_to_json(&ev, &text) == 0);
    fuzz_check(tny_event_from_json_text(text, strlen(text), &back, &diag) == 0);
    tny_event_release(&back);
    free(text);
    text = NULL;
    if (tny_export_listfortress(&ev, &text, &diag) == 0) {
        if (kind != TNY_IMPORT_NRTM)
            fuzz_import_back(TNY_IMPORT_LISTFORTRESS, text);
        free(text);
    }
    text = NULL;
    if (tny_export_nrtm(&ev, &text, &diag) == 0) {
        if (kind == TNY_IMPORT_NRTM)
            fuzz_import_back(TNY_IMPORT_NRTM, text);
        free(text);
    }
    tny_event_release(&ev);
    return 0;
}

#endif
