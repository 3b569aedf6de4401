/* console_tui.h - `tourney live console EVENT_ID`: the organiser's live
 * full-screen dashboard (ncurses).  See console_tui.c.
 */
#ifndef TNY_CLI_CONSOLE_TUI_H
#define TNY_CLI_CONSOLE_TUI_H

#include "console_internal.h"

/* Runs one `tourney live` command over an open connection (words as for
 * hub_console_run_words) into a result (hub_console_run); returns its
 * exit status. */
typedef int hub_console_run_words_fn(struct hub_console_conn *c, int n,
                                     char **words,
                                     struct hub_console_result *res);

/* Runs the dashboard for event_id (a valid id) with settings s (complete,
 * as for hub_console_open) until q or SIGINT/SIGTERM; its keys and typed
 * commands run through run_words (console.c passes hub_console_run:
 * the dashboard takes it as an argument so that console.c, which starts
 * the dashboard, and console_tui.c never call each other); stdout must be a
 * terminal (the caller checks).  Returns the exit status (console.h): 0
 * after q or a signal, 2 when the broker refused the login or a
 * subscription, 4 no connection within the timeout, 1 internal (out of
 * memory, no terminal capabilities).  Reported on stderr after the
 * terminal is restored. */
int hub_console_tui(const struct hub_console_settings *s, const char *event_id,
                    hub_console_run_words_fn *run_words);

#endif
