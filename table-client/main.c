/* main.c - tourney-table: the table client, full-screen on a terminal
 * (docs/table-display.md) or headless (line protocol on stdin/stdout,
 * docs/table-protocol.md).  Reads the settings and runs the loop;
 * everything else is in the tny_table library.
 *
 * Exit status: 0 after "quit" or a signal, 2 for bad settings or usage,
 * 1 when the outbox or the MQTT client cannot be opened.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app.h"
#include "tny/i18n_io.h"
#include "settings.h"
#include "tny/crash.h"

#ifndef TNY_VERSION
#define TNY_VERSION "0"
#endif

int main(int argc, char **argv)
{
    struct tbl_settings s;
    enum tbl_settings_action action;
    char *text = NULL;
    struct tny_diag d = {{0}};
    int rc;

    tny_crash_report_install("tourney-table");
    rc = tbl_settings_load(argc - 1, argv + 1, &s, &action, &text, &d);
    if (rc < 0) {
        fprintf(stderr, "tourney-table: %s\n", d.msg);
        return 2;
    }
    switch (action) {
    case TBL_SETTINGS_DUMP:
    case TBL_SETTINGS_EXAMPLE:
    case TBL_SETTINGS_HELP:
        fputs(text, stdout);
        free(text);
        return 0;
    case TBL_SETTINGS_VERSION:
        printf("tourney-table %s\n", TNY_VERSION);
        return 0;
    case TBL_SETTINGS_RUN: break;
    }
    /* The display draws names in the locale's character set (LANG,
     * LC_ALL; the Pi unit sets C.UTF-8); numbers keep the C form so that
     * JSON and the line protocol never see a decimal comma. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* The screen's words: po/tourney-table, in the language app.c picks
     * (the event's, the `language` setting, the locale's, English). */
    tny_i18n_open("tourney-table");
    setvbuf(stdout, NULL, _IOLBF, 0);
    rc = tbl_app_run(&s, STDIN_FILENO, stdout, &d);
    if (rc < 0) {
        fprintf(stderr, "tourney-table: %s\n", d.msg);
        return 1;
    }
    return 0;
}
