/* ui.h - the table's full-screen display on a terminal (ncurses): paints
 * the frames screen.c draws, reads the keyboard or USB numeric keypad and
 * keeps the display's state in the outbox's SQLite file so a power cut
 * brings back the same screen (docs/table-display.md).
 *
 * What it does: opens the terminal (newterm on stdin/stdout: cbreak, no
 * echo, keypad codes), maps keys (a keypad without NumLock sends arrows,
 * Home, End, PgUp, PgDn, Ins, Del: they count as the digits printed on
 * them), follows the core (tbl_screen_sync), saves the state whenever it
 * changed (tbl_outbox_kv_set "ui"), redraws at least twice a second for
 * the clocks, and restores the terminal on close.
 *
 * Not here: what is shown and what keys do (screen.h), the loop (app.c).
 * Threads: the app loop's thread only.
 */
#ifndef TBL_UI_H
#define TBL_UI_H

#include <stdint.h>
#include <stdio.h>

#include "tny/error.h"

#include "core.h"
#include "outbox.h"

struct tbl_ui; /* opaque */

/* Takes over the terminal on in (keys) and out (screen) and loads the
 * saved state from ob (borrowed; used for saving until close).
 * Errors: TNY_ESTATE (not a usable terminal: diag names TERM),
 * TNY_ENOMEM. */
TNY_MUST_USE int tbl_ui_open(FILE *in, FILE *out, struct tbl_outbox *ob,
                             const char *device_id, struct tbl_ui **ui,
                             struct tny_diag *diag);

/* Gives the terminal back as it was; NULL is a no-op. */
void tbl_ui_close(struct tbl_ui *ui);

/* Reads every pending key and applies it; returns how many were read. */
int32_t tbl_ui_input(struct tbl_ui *ui, struct tbl_core *core, int64_t now_ms,
                     int64_t wall_ms);

/* Follows the core, saves the state when it changed and redraws.  A save
 * that fails is reported once in *error_out (may be NULL) as text. */
void tbl_ui_update(struct tbl_ui *ui, struct tbl_core *core, int64_t now_ms,
                   int64_t wall_ms, char *error_out, size_t error_size);

/* Shows the identify banner (tbl_screen_identify) from now_ms; the next
 * tbl_ui_update draws it. */
void tbl_ui_identify(struct tbl_ui *ui, int32_t table, int64_t now_ms);

/* Milliseconds until the next redraw is due. */
int64_t tbl_ui_next_wakeup(const struct tbl_ui *ui, const struct tbl_core *core,
                           int64_t now_ms);

#endif
