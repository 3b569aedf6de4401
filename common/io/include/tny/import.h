/* import.h - other tournament tools' files as Tourney events, and back.
 *
 * An organiser moving to Tourney brings events from other tools: X-Wing
 * events as ListFortress publishes them (the JSON Cryodex exports for it is
 * read too) and Netrunner events as Cobra exports them (NRTM JSON, the file
 * AlwaysBeRunning takes).  Import turns such a file into an event file's
 * event (docs/event-file.md) on a preset (`xwing-2.0`, `swiss-2p`), checked
 * like any event file; export writes a Tourney event in the other tool's
 * schema with the numbers Tourney computes.
 *
 * Real data is dirty.  What cannot be an event (a player seated twice in a
 * round, a game against a missing opponent, a cut that is no bracket) is
 * refused with one message naming the place in the source file
 * ("listfortress: rounds[2] (swiss round 3).matches[4]: ...").  What can be
 * represented is kept, with a warning where Tourney would not have done it
 * so: a tie in a format without draws (the format gains draws, worth what
 * the source gave: 0 in X-Wing), a stored score out of range (the range
 * widens), a cut seeded otherwise than by Tourney's standings
 * (event.cut_seeds).  A player who stops playing is dropped after their
 * last round (after round 0: a no-show), a round missed in between is an
 * explicit absence.  Elimination rounds are read in bracket order by the
 * number of players left (ListFortress numbers a final 2, its semi-finals
 * 4), their tables in the bracket's game order.
 *
 * Pure apart from allocation; any thread.
 */
#ifndef TNY_IMPORT_H
#define TNY_IMPORT_H

#include <stddef.h>

#include "tny/error.h"
#include "tny/event.h"

enum tny_import_kind {
    TNY_IMPORT_LISTFORTRESS, /* "listfortress": ListFortress tournament */
    TNY_IMPORT_CRYODEX,      /* "cryodex": Cryodex's JSON export */
    TNY_IMPORT_NRTM,         /* "nrtm": Cobra / NRTM JSON (Netrunner) */
};

/* "listfortress", "cryodex", "nrtm" -> kind.  Errors: TNY_ENOTFOUND. */
TNY_MUST_USE int tny_import_kind_from_name(const char *name,
                                           enum tny_import_kind *out);

/* What an import kept although Tourney would not have done it so (a tie in
 * a format without draws, a stored value out of range, a cut seeded
 * otherwise than by Tourney's standings), one line each naming the place
 * in the source file ("listfortress: rounds[3] (swiss round 4).matches[2]:
 * ..."). */
struct tny_import_warnings {
    int32_t n;
    char **lines;
};

/* Frees the lines; w may then be reused. */
void tny_import_warnings_release(struct tny_import_warnings *w);

/* tny_import, and the warnings into *warn (initialised here; may be NULL:
 * not kept).  The CLI prints them on stderr and exits 0. */
TNY_MUST_USE int tny_import_warn(enum tny_import_kind kind, const char *text,
                                 size_t len, struct tny_event *out,
                                 struct tny_import_warnings *warn,
                                 struct tny_diag *diag);

/* Parses len bytes of the other tool's JSON into *out (initialised here;
 * release with tny_event_release), validated as an event file would be.
 * Errors: TNY_EINVAL (diag: one line naming the source's key or the data
 * error), TNY_ERANGE (too large), TNY_ENOMEM. */
TNY_MUST_USE int tny_import(enum tny_import_kind kind, const char *text,
                            size_t len, struct tny_event *out,
                            struct tny_diag *diag);

/* The event as ListFortress JSON (participants with score, swiss_rank,
 * top_cut_rank, mov, sos, dropped; rounds with their matches), malloc'd
 * text in *out.  Player ids "p<N>" keep N when every id has that form;
 * otherwise every player is numbered in registration order.
 * Errors: TNY_EINVAL (not a 2-player format), TNY_ENOMEM. */
TNY_MUST_USE int tny_export_listfortress(const struct tny_event *ev, char **out,
                                         struct tny_diag *diag);

/* The event as NRTM JSON (Cobra's export for AlwaysBeRunning): players
 * with rank, matchPoints and strength of schedule, rounds of matches.
 * Errors as tny_export_listfortress. */
TNY_MUST_USE int tny_export_nrtm(const struct tny_event *ev, char **out,
                                 struct tny_diag *diag);

#endif
