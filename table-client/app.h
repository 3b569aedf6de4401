/* app.h - the table client's loop: one thread that owns the core state
 * machine, the outbox and the MQTT connection and polls stdin, the MQTT
 * adapter's wakeup fd and a signal pipe.  stdin carries the line protocol
 * (headless) or the keys of the full-screen display (ui.h), as the
 * display setting says.
 *
 * What it does: decodes hub messages for the core (assign, ack, the
 * event's clock, hub state); stores every submission in the outbox before
 * publishing it and resends it with tbl_outbox_backoff_ms until the ack
 * with its key arrives (at once on every reconnect; within a random 2 s
 * when the hub comes back online); publishes a retained Presence (online,
 * queued count, assignment version) on every connect and change, with an
 * offline Presence as last will and on a clean exit; in simulate mode plays
 * every assigned game after a random delay.  Reconnecting (jittered) and
 * resubscribing are the MQTT adapter's.
 *
 * Not here: the display's screens (screen.h, ui.h), the state machine
 * (core.h), storage (outbox.h).
 */
#ifndef TBL_APP_H
#define TBL_APP_H

#include <stdio.h>

#include "tny/error.h"

#include "settings.h"

/* Runs until "quit" on in_fd, SIGINT or SIGTERM.  in_fd < 0: no input
 * (simulate-only devices); end of input stops reading, not the program.
 * Headless: output lines go to out; display: the screen is drawn on out
 * (a terminal) and in_fd gives the keys.  Returns 0 after a clean stop.
 * Errors: TNY_ESTATE (outbox, MQTT client or terminal could not be
 * opened: diag), TNY_EINVAL (display=tui without terminals, log_file
 * not writable). */
TNY_MUST_USE int tbl_app_run(const struct tbl_settings *s, int in_fd, FILE *out,
                             struct tny_diag *diag);

#endif
