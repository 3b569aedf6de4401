/* text.h - small text helpers of the table client's line protocol
 * (docs/table-protocol.md): quoting values for output lines and turning the
 * simple "key=value" result form into the JSON of the event file.
 *
 * Not here: what a result means (game.h), the commands (core.h).
 * Pure apart from allocation; no global state.
 */
#ifndef TBL_TEXT_H
#define TBL_TEXT_H

#include <stddef.h>

#include <jansson.h>

#include "tny/error.h"
#include "tny/wire.h"

/* Longest input line accepted (bytes, without the newline). */
#define TBL_LINE_MAX 65536

/* Writes in as a double-quoted string into out (size bytes, always
 * NUL-terminated; cut on a character boundary when too small): \" \\ \n
 * \r \t escaped, other bytes below 0x20 and 0x7f as \xNN, UTF-8 kept. */
void tbl_text_quote(const char *in, char *out, size_t size);

/* Parses the key=value form of a result into a JSON object (*out, a new
 * reference).  Tokens are separated by blanks; "key=value" sets key;
 * "key.sub=value" sets key.sub inside an object (the first dot only, so
 * player ids may contain dots).  Values: true/false, an integer or a
 * decimal number (points such as 12.5), a comma-separated list (an
 * array, e.g. games=p1,p2,p1), otherwise a string.
 * Errors: TNY_EINVAL ("result: expected key=value, got \"...\"", a key
 * given twice, a key both a value and an object), TNY_ENOMEM. */
TNY_MUST_USE int tbl_text_kv_to_json(const char *text, json_t **out,
                                     struct tny_diag *diag);

/* Parses a result given as JSON (text starting with '{', '[' or '"'; it
 * must be an object) or in the key=value form.  Errors: TNY_EINVAL (bad JSON:
 * "result: invalid JSON at column C: why"; not an object; the key=value errors
 * above), TNY_ENOMEM. */
TNY_MUST_USE int tbl_text_result_json(const char *text, json_t **out,
                                      struct tny_diag *diag);

/* The event-file result json of a's table (an organiser's or a resolved
 * result, ids as keys) as the players read it, with their names, in the
 * words of the overlays' resultText: "Anna [Moloch] beat Bob [Borgo] by
 * 5 HQ", "Anna beat Bob 2-1 (modified)", "Anna drew with Bob", "Anna won
 * by default against Bob", "Anna 12, Bob 9" (points, highest first).  An
 * id not at the table is shown as it is; text that is not a result
 * object gives "".  Into out (size bytes, always NUL-terminated). */
void tbl_text_result(const struct tny_wire_assignment *a, const char *json,
                     char *out, size_t size);

#endif
