/* csv_io.c - CSV reading (libcsv, strict RFC 4180) and the standings and
 * results CSV writers (csv_io.h).
 *
 * Reading feeds libcsv one input line at a time so that every record knows
 * the line it starts on for messages; a leading UTF-8 byte order mark
 * (Excel's "CSV UTF-8") is skipped, and the delimiter may be ';' (Excel
 * in locales whose decimal mark is a comma).  Writing goes through an
 * open_memstream with libcsv's csv_fwrite, which quotes every field; a
 * text field that a spreadsheet would run as a formula (= + - @ tab CR
 * first) is written with a leading ' (formula injection, issue 22).
 */
#include "tny/csv_io.h"

#include <csv.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/format.h"
#include "tny/game.h"
#include "tny/score.h"

/* ---- reading ------------------------------------------------------------ */

struct reader {
    struct tny_csv_table *out;
    int32_t max_rows, max_fields;
    int32_t line;     /* input line being fed */
    int32_t cap_rows; /* allocated rows */
    int32_t cap_fields;
    bool in_record; /* the last row takes more fields */
    int rc;
    struct tny_diag *diag;
};

static struct tny_csv_row *row_open(struct reader *r)
{
    struct tny_csv_table *t = r->out;
    if (r->in_record)
        return &t->rows[t->n_rows - 1];
    if (t->n_rows == r->max_rows) {
        r->rc =
            tny_diag_set(r->diag, TNY_ERANGE, "csv line %d: more than %d rows",
                         (int)r->line, (int)r->max_rows);
        return NULL;
    }
    if (t->n_rows == r->cap_rows) {
        int32_t cap = r->cap_rows ? 2 * r->cap_rows : 16;
        struct tny_csv_row *rows =
            realloc(t->rows, sizeof(*rows) * (size_t)cap);
        if (!rows) {
            r->rc = tny_diag_set(r->diag, TNY_ENOMEM, "csv: out of memory");
            return NULL;
        }
        t->rows = rows;
        r->cap_rows = cap;
    }
    struct tny_csv_row *row = &t->rows[t->n_rows++];
    *row = (struct tny_csv_row){.line = r->line};
    row->fields = calloc((size_t)r->max_fields, sizeof(char *));
    if (!row->fields) {
        t->n_rows--;
        r->rc = tny_diag_set(r->diag, TNY_ENOMEM, "csv: out of memory");
        return NULL;
    }
    r->in_record = true;
    return row;
}

static void on_field(void *data, size_t len, void *ctx)
{
    struct reader *r = ctx;
    if (r->rc < 0)
        return;
    bool first = !r->in_record;
    struct tny_csv_row *row = row_open(r);
    if (!row)
        return;
    /* libcsv reports a field once it ends: a first field with line breaks
     * inside its quotes started that many lines earlier. */
    for (size_t i = 0; first && data && i < len; i++)
        row->line -= ((const char *)data)[i] == '\n';
    if (row->n_fields == r->max_fields) {
        r->rc = tny_diag_set(r->diag, TNY_ERANGE,
                             "csv line %d: more than %d fields", (int)row->line,
                             (int)r->max_fields);
        return;
    }
    if (data && memchr(data, '\0', len)) {
        r->rc = tny_diag_set(r->diag, TNY_EINVAL,
                             "csv line %d, field %d: contains a NUL byte",
                             (int)row->line, (int)row->n_fields + 1);
        return;
    }
    char *f = malloc(len + 1);
    if (!f) {
        r->rc = tny_diag_set(r->diag, TNY_ENOMEM, "csv: out of memory");
        return;
    }
    if (len)
        memcpy(f, data, len);
    f[len] = '\0';
    row->fields[row->n_fields++] = f;
}

static void on_record(int terminator, void *ctx)
{
    (void)terminator;
    struct reader *r = ctx;
    if (r->rc < 0)
        return;
    /* A record without any field callback cannot happen in libcsv (blank
     * lines are skipped), but keep rows well-formed either way. */
    if (!r->in_record && !row_open(r))
        return;
    r->in_record = false;
}

static int parse_error(struct reader *r, struct csv_parser *p)
{
    int e = csv_error(p);
    if (e == CSV_ENOMEM || e == CSV_ETOOBIG)
        return tny_diag_set(r->diag, TNY_ENOMEM, "csv: out of memory");
    /* libcsv's strict mode refuses a quote inside an unquoted field, text
     * after a closing quote and (at the end) an unterminated quote. */
    return tny_diag_set(r->diag, TNY_EINVAL,
                        "csv line %d: malformed (a stray quote, text after a "
                        "closing quote, or a quote never closed)",
                        (int)r->line);
}

/* A UTF-8 byte order mark, as Excel's "CSV UTF-8" writes it first. */
static const char utf8_bom[] = "\xef\xbb\xbf";

char tny_csv_delimiter(const char *text, size_t len)
{
    size_t commas = 0, semicolons = 0;
    bool quoted = false;
    if (len >= 3 && memcmp(text, utf8_bom, 3) == 0) {
        text += 3;
        len -= 3;
    }
    /* The header line only: names of columns hold neither character, so
     * whichever separates them is the file's delimiter. */
    for (size_t i = 0; i < len && (quoted || text[i] != '\n'); i++) {
        if (text[i] == '"')
            quoted = !quoted;
        else if (!quoted && text[i] == ',')
            commas++;
        else if (!quoted && text[i] == ';')
            semicolons++;
    }
    return semicolons > commas ? ';' : ',';
}

int tny_csv_parse(const char *text, size_t len, int32_t max_rows,
                  int32_t max_fields, struct tny_csv_table *out,
                  struct tny_diag *diag)
{
    return tny_csv_parse_delim(text, len, ',', max_rows, max_fields, out, diag);
}

int tny_csv_parse_delim(const char *text, size_t len, char delim,
                        int32_t max_rows, int32_t max_fields,
                        struct tny_csv_table *out, struct tny_diag *diag)
{
    struct csv_parser p;
    struct reader r = {.out = out,
                       .max_rows = max_rows,
                       .max_fields = max_fields > 0 ? max_fields : 1,
                       .line = 1,
                       .diag = diag};
    memset(out, 0, sizeof *out);
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return tny_diag_set(diag, TNY_ENOMEM, "csv: out of memory");
    csv_set_delim(&p, (unsigned char)delim);
    size_t pos = 0;
    if (len >= 3 && memcmp(text, utf8_bom, 3) == 0)
        pos = 3; /* not part of the first column's name */
    while (pos < len && r.rc == TNY_OK) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        if (csv_parse(&p, text + pos, n, on_field, on_record, &r) != n &&
            r.rc == TNY_OK)
            r.rc = parse_error(&r, &p);
        pos += n;
        r.line++;
    }
    if (r.rc == TNY_OK) {
        r.line--; /* the end of the text is on the last line */
        if (csv_fini(&p, on_field, on_record, &r) != 0 && r.rc == TNY_OK)
            r.rc = parse_error(&r, &p);
    }
    csv_free(&p);
    if (r.rc < 0)
        tny_csv_release(out);
    return r.rc;
}

void tny_csv_release(struct tny_csv_table *t)
{
    for (int32_t i = 0; i < t->n_rows; i++) {
        for (int32_t f = 0; f < t->rows[i].n_fields; f++)
            free(t->rows[i].fields[f]);
        free(t->rows[i].fields);
    }
    free(t->rows);
    memset(t, 0, sizeof *t);
}

/* ---- writing ------------------------------------------------------------ */

struct writer {
    FILE *f;
    char *buf;
    size_t len;
    bool row_started;
    bool ok;
};

/* Every CSV written starts with a UTF-8 byte order mark: the files are
 * for spreadsheets, and Excel reads a CSV opened with a double click in
 * the Windows code page unless the mark is there ("Jiří" becomes
 * "JiĹ™Ă­"). */
static bool writer_open(struct writer *w)
{
    *w = (struct writer){0};
    w->f = open_memstream(&w->buf, &w->len);
    w->ok = w->f != NULL && fputs(TNY_CSV_BOM, w->f) >= 0;
    return w->ok;
}

/* A text cell a spreadsheet would run as a formula (issue 22, OWASP "CSV
 * injection"): one that starts with = + - @, a tab or a carriage return. */
static bool formula_like(const char *s)
{
    return s && s[0] && strchr("=+-@\t\r", s[0]) != NULL;
}

/* A text field, quoted; a formula-like one gets a leading ' so that a
 * spreadsheet shows it as text ("'=1+1") instead of running it.  Numbers
 * go through put_plain and are never touched. */
static void put_field(struct writer *w, const char *s)
{
    if (!w->ok)
        return;
    if (w->row_started && fputc(',', w->f) == EOF)
        w->ok = false;
    if (w->ok && formula_like(s)) {
        size_t n = strlen(s);
        char *t = malloc(n + 2);
        if (!t) {
            w->ok = false;
            return;
        }
        t[0] = '\'';
        memcpy(t + 1, s, n + 1);
        if (csv_fwrite(w->f, t, n + 1) != 0)
            w->ok = false;
        free(t);
    } else if (w->ok && csv_fwrite(w->f, s ? s : "", s ? strlen(s) : 0) != 0)
        w->ok = false;
    w->row_started = true;
}

/* Numbers and flags go unquoted: spreadsheets read them as numbers. */
static void put_plain(struct writer *w, const char *s)
{
    if (!w->ok)
        return;
    if (fprintf(w->f, "%s%s", w->row_started ? "," : "", s) < 0)
        w->ok = false;
    w->row_started = true;
}

static void put_int(struct writer *w, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    put_plain(w, b);
}

static void put_points(struct writer *w, int64_t units)
{
    char b[32];
    tny_points_text(units, b, sizeof b);
    put_plain(w, b);
}

static void end_row(struct writer *w)
{
    if (w->ok && fputs("\r\n", w->f) == EOF)
        w->ok = false;
    w->row_started = false;
}

static int writer_close(struct writer *w, char **out)
{
    if (w->f && fclose(w->f) != 0)
        w->ok = false;
    if (!w->ok) {
        free(w->buf);
        *out = NULL;
        return TNY_ENOMEM;
    }
    *out = w->buf;
    return TNY_OK;
}

int tny_standings_to_csv(const struct tny_event *ev,
                         const struct tny_standings *st, char **out)
{
    struct writer w;
    *out = NULL;
    if (!writer_open(&w))
        return TNY_ENOMEM;
    put_field(&w, "rank");
    put_field(&w, "player");
    put_field(&w, "name");
    put_field(&w, "club");
    put_field(&w, "points");
    for (int32_t i = 0; i < st->n_tiebreaks; i++)
        put_field(&w, tny_tiebreak_name(st->tiebreaks[i]));
    put_field(&w, "dropped");
    put_field(&w, "disqualified");
    put_field(&w, "decided_by_lot");
    end_row(&w);
    for (int32_t r = 0; r < st->n_rows; r++) {
        const struct tny_standing_row *row = &st->rows[r];
        const struct tny_player *pl = &ev->players[row->player];
        put_int(&w, row->rank);
        put_field(&w, pl->id);
        put_field(&w, pl->name);
        put_field(&w, pl->club);
        put_points(&w, row->points);
        for (int32_t i = 0; i < st->n_tiebreaks; i++) {
            char b[40] = "";
            if (row->has_tiebreak[i])
                snprintf(b, sizeof b, "%.10g", row->tiebreaks[i]);
            put_plain(&w, b);
        }
        put_plain(&w, row->dropped ? "yes" : "");
        put_plain(&w, row->disqualified ? "yes" : "");
        put_plain(&w, row->decided_by_lot ? "yes" : "");
        end_row(&w);
    }
    return writer_close(&w, out);
}

/* The game's own measure of seat s's result, for people (game.h
 * score_text). */
static void score_text(const struct tny_event *ev, const struct tny_table *t,
                       int32_t s, char *buf, size_t size)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_game_ops *shape = tny_game_shape_of(fmt->game);
    int32_t w = t->n_seats == 2 ? tny_result_winner_seat(fmt, &t->result) : -1;
    buf[0] = '\0';
    if (shape && shape->score_text)
        shape->score_text(fmt, &t->result, s, w, buf, size);
}

static bool round_complete(const struct tny_round *r)
{
    for (int32_t t = 0; t < r->n_tables; t++)
        if (!r->tables[t].is_bye && !r->tables[t].has_result)
            return false;
    return true;
}

int tny_results_to_csv(const struct tny_event *ev, char **out)
{
    struct writer w;
    struct tny_records rec = {0};
    struct tny_diag diag;
    int32_t complete = 0;
    *out = NULL;
    while (complete < ev->n_rounds && round_complete(&ev->rounds[complete]))
        complete++;
    /* Points come from the records of the completed rounds; a round still
     * being played shows its results without points. */
    int rc = tny_records_compute(ev, complete, &rec, &diag);
    if (rc < 0)
        return rc == TNY_ENOMEM ? rc : TNY_EINVAL;
    if (!writer_open(&w)) {
        tny_records_release(&rec);
        return TNY_ENOMEM;
    }
    static const char *const head[] = {"round",  "stage", "table",  "seat",
                                       "player", "name",  "result", "points"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        put_field(&w, head[i]);
    end_row(&w);
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            for (int32_t s = 0; s < tb->n_seats; s++) {
                int32_t p = tb->seats[s];
                char score[96] = "";
                put_int(&w, r + 1);
                put_field(&w, tny_stage_kind_name(round->stage));
                if (tb->is_bye)
                    put_field(&w, "bye");
                else
                    put_int(&w, tb->number);
                put_int(&w, s + 1);
                put_field(&w, ev->players[p].id);
                put_field(&w, ev->players[p].name);
                if (tb->is_bye)
                    snprintf(score, sizeof score, "bye");
                else if (tb->has_result)
                    score_text(ev, tb, s, score, sizeof score);
                put_field(&w, score);
                if (r < complete)
                    put_points(&w, tny_records_at(&rec, p, r)->tp);
                else
                    put_plain(&w, "");
                end_row(&w);
            }
        }
    }
    tny_records_release(&rec);
    return writer_close(&w, out);
}
