/* players_csv.h - an organiser's player list (CSV, docs/console.md
 * "players import") read into wire players, all rows checked before any is
 * used.  Pure: no store, no I/O; the console's import_players command
 * stores what this returns in one transaction.
 */
#ifndef HUB_PLAYERS_CSV_H
#define HUB_PLAYERS_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"
#include "tny/format.h"
#include "tny/wire.h"

/* Most players one import may carry: the import is one transaction on
 * the hub's loop (about 0.3 s for 10,000 players on the development
 * machine), during which results wait; more players come in parts. */
#define HUB_PLAYERS_CSV_MAX_ROWS 10000

/* Reads len bytes of CSV (a header row naming the columns, then one row
 * per player) into *out (malloc'd, *n entries; free() it).  Headers are
 * compared without case or diacritics and may be the names spreadsheets
 * use (Player, Player ID, Team, Nation, Elo, and the Czech, Hungarian,
 * Polish and Norwegian words of docs/console.md); a name column (or a
 * first_name and a last_name column, joined family name first when ev's
 * language is Hungarian) is required, an id column
 * optional: without one each player gets the next free "pN" of ev (may be
 * NULL: no players yet) and a name ev already has is refused.  Army names
 * are checked against fmt (NH-10).  Linear in the input (ids are checked
 * for repeats by sorting).
 * The text may start with a UTF-8 byte order mark and may separate its
 * fields with ';' instead of ',' (read from the header line).
 * Errors (diag "csv line N...: why"; *out NULL): TNY_EINVAL (a byte that
 * is not UTF-8: a Windows code page, diag says to save as "CSV UTF-8"; a
 * NUL byte, malformed CSV, no header, an unknown column (diag lists every
 * accepted header), a control character in a field (a line break or ESC
 * in a quoted name), a bad value, a repeated id),
 * TNY_ERANGE (more than HUB_PLAYERS_CSV_MAX_ROWS players), TNY_ENOMEM. */
TNY_MUST_USE int hub_players_csv_read(const char *csv, size_t len,
                                      const struct tny_event *ev,
                                      const struct tny_format *fmt,
                                      struct tny_wire_player **out, int32_t *n,
                                      struct tny_diag *diag);

#endif
