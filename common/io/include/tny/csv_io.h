/* csv_io.h - CSV in and out, for spreadsheets: reading a CSV text into
 * rows of fields (organisers' player lists) and writing standings and
 * results as CSV (what organisers paste into their federation's forms).
 *
 * Reading is RFC 4180 through libcsv in strict mode (quotes, "" inside
 * quotes, CRLF or LF, fields may span lines inside quotes); spaces around
 * unquoted fields are dropped and blank lines are skipped; a UTF-8 byte
 * order mark at the start is skipped.  Writing starts with that mark
 * (TNY_CSV_BOM: Excel then reads the file as UTF-8 on a double click)
 * and quotes every text field, so names with commas, quotes or newlines
 * survive.
 *
 * Not here: what the columns mean on import (the hub's player import), the
 * standings themselves (standings.h).
 */
#ifndef TNY_CSV_IO_H
#define TNY_CSV_IO_H

#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"
#include "tny/standings.h"

/* The UTF-8 byte order mark every written CSV starts with. */
#define TNY_CSV_BOM "\xef\xbb\xbf"

/* One record: its fields (NUL-terminated, owned by the table) and the
 * input line it starts on (1-based). */
struct tny_csv_row {
    int32_t line;
    int32_t n_fields;
    char **fields;
};

/* A parsed CSV text. */
struct tny_csv_table {
    int32_t n_rows;
    struct tny_csv_row *rows;
};

/* Parses len bytes of text into *out (empty on error).  At most max_rows
 * records of at most max_fields fields each.
 * Errors: TNY_EINVAL ("csv line N: why": an unterminated quote, text after
 * a closing quote, a NUL byte), TNY_ERANGE (more rows or fields than
 * allowed: diag names the limit), TNY_ENOMEM.  Release with
 * tny_csv_release. */
TNY_MUST_USE int tny_csv_parse(const char *text, size_t len, int32_t max_rows,
                               int32_t max_fields, struct tny_csv_table *out,
                               struct tny_diag *diag);

/* As tny_csv_parse with fields separated by delim (',' or ';').  Both
 * skip a UTF-8 byte order mark at the start of text. */
TNY_MUST_USE int tny_csv_parse_delim(const char *text, size_t len, char delim,
                                     int32_t max_rows, int32_t max_fields,
                                     struct tny_csv_table *out,
                                     struct tny_diag *diag);

/* The delimiter of a CSV text read from its first (header) line: ';' when
 * it has more semicolons than commas outside quotes (what Excel writes in
 * Czech, Polish, German... locales), else ','. */
char tny_csv_delimiter(const char *text, size_t len);

/* Frees what the table owns and zeroes it (safe on a zeroed table). */
void tny_csv_release(struct tny_csv_table *t);

/* Standings as CSV in *out (malloc'd): a header row "rank,player,name,
 * club,points,<one column per tiebreak>,dropped,disqualified,
 * decided_by_lot", then one row per standing in rank order.  Points and
 * tiebreaks print as numbers (points rounded to hundredths), a tiebreak
 * that does not apply is empty, flags are "yes" or empty.
 * Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_standings_to_csv(const struct tny_event *ev,
                                      const struct tny_standings *st,
                                      char **out);

/* Every played table of ev as CSV in *out (malloc'd): one row per seated
 * player: round,stage,table,seat,player,name,score,points, where score is
 * the game's own measure (NH: "win +7"/"loss -7"/"draw", TX: TP of the
 * game, AG: VP/IP/BP, GT: "win"/"modified win"/"loss", CT: victory
 * points) and points the tournament points of that game (empty when the
 * table has no result yet).  A bye is one row with table "bye".
 * Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_results_to_csv(const struct tny_event *ev, char **out);

#endif
