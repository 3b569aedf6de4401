/* cli_out.h - the tourney program's output when its reader stops reading:
 * `tourney live lots EV | head -1` closes the pipe after one line, which
 * is what the user asked for, not an error.  The program ignores SIGPIPE
 * (Paho does anyway, for its sockets), so a write to the closed pipe
 * fails with EPIPE; the output paths ask here before saying "cannot write
 * output" and end quietly with exit 0 instead (docs/console.md, exit
 * statuses).
 *
 * Not here: what is printed, other write errors (a full disk: exit 1).
 */
#ifndef TNY_CLI_OUT_H
#define TNY_CLI_OUT_H
#include <stdbool.h>
#include <stdio.h>

/* True when the write to f that just failed (errno as it left it) failed
 * because nobody reads f any more: EPIPE, or f a pipe whose read end is
 * closed. */
bool tny_cli_reader_gone(FILE *f, int err);

#endif
