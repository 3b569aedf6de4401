/* json_io.h - the JSON adapter: format files, event files and the offline
 * output (docs/formats.md, docs/event-file.md, shared event-file contract).
 *
 * Parses JSON (jansson) into the engine's plain structs and prints engine
 * results back as JSON.  It checks shape and types strictly: unknown keys
 * are errors (except keys starting with "x_" or "_"), strings and counts
 * have maximum sizes, and every message names the offending key as a path
 * in the document, e.g. `event.rounds[2].tables[5].result.vp.p7: expected
 * an integer` (0-based indices).  Meaning (ranges, each player once per
 * round, army rules) is the engine's tny_event_validate, which
 * tny_event_from_json_text calls after parsing; a format's whole-format
 * checks and its options are the engine's too (tny_format_check,
 * format_options.h), so C code builds formats and events without JSON.
 *
 * Points in files are written as people write them (3, 12.5, 13.3) and
 * converted exactly into TNY_POINT_SCALE units; a value that is not a whole
 * number of units is an error.  Output prints points with the fewest
 * digits (3, 12.5, 3.75) and "%.15g" when a value has no exact decimal.
 *
 * Text output is malloc'd, UTF-8, 2-space indented, keys in a fixed order,
 * with a trailing newline; the caller frees it.  All functions are pure
 * apart from allocation and may be called from any thread.
 */
#ifndef TNY_JSON_IO_H
#define TNY_JSON_IO_H

#include <stddef.h>

#include <jansson.h>

#include "tny/error.h"
#include "tny/event.h"
#include "tny/format.h"
#include "tny/pair.h"
#include "tny/standings.h"

/* Largest event file or format text accepted (bytes). */
#define TNY_JSON_MAX_BYTES (256u * 1024u * 1024u)
/* Player ids: 1..64 characters of [A-Za-z0-9_.-]. */
#define TNY_ID_MAX 64
/* Names and other free text (club, faction, ...): at most 200 bytes. */
#define TNY_TEXT_MAX 200
#define TNY_MAX_PLAYERS 1000000
#define TNY_MAX_ROUNDS 1000

/* Parses a format object (a format file, or an event file's "format"
 * object) into *out, then applies the object's own "options".  path names
 * the object in messages ("format", "event.format").  *out is fully
 * overwritten.  Errors: TNY_EINVAL (diag: "path.key: why"). */
TNY_MUST_USE int tny_format_from_json(const json_t *obj, const char *path,
                                      struct tny_format *out,
                                      struct tny_diag *diag);

/* Same from text (len bytes, need not be NUL-terminated).  Errors:
 * TNY_EINVAL (bad JSON: "format: invalid JSON at line L, column C: ..."
 * or a format error as above), TNY_ERANGE (text too large). */
TNY_MUST_USE int tny_format_from_json_text(const char *text, size_t len,
                                           struct tny_format *out,
                                           struct tny_diag *diag);

/* Loads the compiled-in preset `name` (tny_presets[]).  Errors:
 * TNY_ENOTFOUND (no such preset; diag lists the presets), TNY_EINVAL (a
 * broken preset, a build bug). */
TNY_MUST_USE int tny_format_preset(const char *name, struct tny_format *out,
                                   struct tny_diag *diag);

/* Applies an "options" object (option name -> value) to fmt with the
 * engine's option setters (format_options.h); path names the
 * object ("event.options").  Options are applied in the order of the
 * option table (docs/formats.md), so "pairing" comes before the timers.
 * Errors: TNY_EINVAL for an option the format does not have (diag lists the
 * format's options), a wrong type or a value out of range.  On error fmt
 * may be partly changed. */
TNY_MUST_USE int tny_format_apply_options(struct tny_format *fmt,
                                          const json_t *options,
                                          const char *path,
                                          struct tny_diag *diag);

/* The format as a format object (every key, "options" listing every option
 * of the format with its current value), in *out (malloc'd text; the
 * caller frees it).  Parsing it back gives an equal struct.
 * Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_format_to_json(const struct tny_format *fmt, char **out);

/* Parses an event file (event-file.md) into *out, which this initialises;
 * no semantic validation.  On error *out is released (empty).  Errors:
 * TNY_EINVAL (diag names the key), TNY_ENOTFOUND (unknown preset name,
 * diag "event.format: unknown format ..."), TNY_ERANGE (too large), TNY_ENOMEM.
 */
TNY_MUST_USE int tny_event_from_json(const json_t *root, struct tny_event *out,
                                     struct tny_diag *diag);

/* Parses one table's result object (event-file.md, a table's "result")
 * for table t of ev into *out, exactly as tny_event_from_json parses it
 * inside an event file, without parsing a format or players: t's seats
 * index ev->players, ev->format says the game.  path names the object in
 * messages (e.g. "result").  No semantic validation (ranges, NH-11: see
 * tny_result_validate).  Nothing is allocated; on error *out is unchanged.
 * Errors: TNY_EINVAL (diag "PATH.key: why"). */
TNY_MUST_USE int tny_result_from_json(const struct tny_event *ev,
                                      const struct tny_table *t,
                                      const json_t *obj, const char *path,
                                      struct tny_result *out,
                                      struct tny_diag *diag);

/* Table t's result (t->result) as a table or the organiser reports it:
 * the result object of the event file, but an NH draw without its
 * "hq_diff" (0).  A new reference; NULL on allocation failure.
 * tny_result_from_json on it gives the same result. */
json_t *tny_result_to_json(const struct tny_event *ev,
                           const struct tny_table *t);

/* Parses the text (len bytes) of an event file, then runs
 * tny_event_validate.  Errors as tny_event_from_json, plus TNY_EINVAL for
 * bad JSON ("event: invalid JSON at line L, column C: ...") and for
 * validation failures.  On error *out is released (empty). */
TNY_MUST_USE int tny_event_from_json_text(const char *text, size_t len,
                                          struct tny_event *out,
                                          struct tny_diag *diag);
/* The same, reading text in place (no copy of its strings): text is
 * changed (closing quotes become NULs) and may be freed once this
 * returns. */
TNY_MUST_USE int tny_event_from_json_buffer(char *text, size_t len,
                                            struct tny_event *out,
                                            struct tny_diag *diag);

/* The event as an event file (format written by preset name when it equals
 * that preset, else as a full object), in *out (malloc'd).  Parsing it
 * back gives an equal event.  Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_event_to_json(const struct tny_event *ev, char **out);

/* Standings output of `tourney standings` (event-file.md "Output"), in
 * *out (malloc'd).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_standings_to_json(const struct tny_event *ev,
                                       const struct tny_standings *st,
                                       char **out);

/* Pairing output of `tourney pair`, in *out (malloc'd).
 * Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_round_plan_to_json(const struct tny_event *ev,
                                        const struct tny_round_plan *plan,
                                        char **out);

/* Points (TNY_POINT_SCALE units) as a JSON number: an integer when whole,
 * else a real printed with the fewest exact digits.  New reference, NULL
 * on allocation failure. */
json_t *tny_json_points(int64_t units);

#endif
