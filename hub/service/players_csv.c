/* players_csv.c - an organiser's player list (CSV) read into wire players
 * (players_csv.h).  Every row is checked before any is returned, so a bad
 * row anywhere refuses the whole list with its line and reason.
 *
 * Spreadsheet files as Excel writes them are read: "CSV UTF-8" (a byte
 * order mark first: skipped) and the semicolon-separated CSV of locales
 * whose decimal mark is a comma (the delimiter is read from the header
 * line).  A file in a Windows code page (Windows-1250/1252, Excel's plain
 * "CSV") is refused at its first byte that is not UTF-8, with the advice
 * to save it as "CSV UTF-8": 1250 and 1252 give the same bytes different
 * letters (0xE8 is "č" in one and "è" in the other), so a guess would
 * store wrong names silently.  A control character in any field (a line
 * break or ESC inside a quoted name) is refused: names go to every screen
 * and table, where such bytes break the layout or the terminal.
 *
 * Not here: storing the players (console.c, one store transaction), CSV
 * syntax (common/io/csv_io.c, RFC 4180).
 */
#include "players_csv.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/csv_io.h"
#include "tny/utf8.h"

/* Columns beyond the 14 known ones are refused anyway; the limit keeps a
 * hostile header from allocating. */
#define CSV_MAX_FIELDS 48

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!*s || !strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "false")) {
        *out = false;
        return true;
    }
    if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "true")) {
        *out = true;
        return true;
    }
    return false;
}

/* Splits "a;b" lists (armies, colours) into dst (cap entries). */
static int split_list(char *s, char dst[][TNY_NAME_MAX], int32_t cap,
                      int32_t *n)
{
    char *save = NULL;
    for (char *t = strtok_r(s, ";|", &save); t;
         t = strtok_r(NULL, ";|", &save)) {
        t = trim(t);
        if (!*t)
            continue;
        if (*n >= cap || strlen(t) >= TNY_NAME_MAX)
            return -1;
        snprintf(dst[(*n)++], TNY_NAME_MAX, "%s", t);
    }
    return 0;
}

/* The one table of accepted headers: the column names, then the
 * spreadsheet names that mean one of them.  The message for an unknown
 * header lists the English ones from here. */
static const char *const csv_columns[] = {
    "id",           "name",      "club",        "country",     "rating",
    "armies",       "army",      "external_id", "beginner",    "colours",
    "colour_blind", "faction",   "agenda",      "first_round", "hook",
    "first_name",   "last_name", NULL};

enum { COL_ID = 0, COL_NAME = 1, COL_FIRST = 15, COL_LAST = 16 };

/* Headers as organisers' spreadsheets have them (compared without case
 * and without diacritics, so "PŘÍJMENÍ" and "Prijmeni" are "Příjmení"):
 * the column they mean in csv_columns.  lang: "" for English (listed in
 * the unknown-column message), else the language of the events the seeds
 * ran (Czech, Hungarian, Polish, Norwegian).  alone: the column a header
 * means when the file has no family-name column (Czech "Jméno" is the
 * given name beside "Příjmení", the whole name without it). */
static const struct {
    const char *header;
    const char *column;
    const char *lang;
    const char *alone;
} csv_aliases[] = {
    {"Player ID", "id", "", NULL},
    {"player_id", "id", "", NULL},
    {"Player", "name", "", NULL},
    {"Player name", "name", "", NULL},
    {"Full name", "name", "", NULL},
    {"Team", "club", "", NULL},
    {"Nation", "country", "", NULL},
    {"Elo", "rating", "", NULL},
    {"First name", "first_name", "", NULL},
    {"Given name", "first_name", "", NULL},
    {"Last name", "last_name", "", NULL},
    {"Surname", "last_name", "", NULL},
    {"Family name", "last_name", "", NULL},
    /* Czech */
    {"Jméno", "first_name", "cs", "name"},
    {"Křestní jméno", "first_name", "cs", NULL},
    {"Příjmení", "last_name", "cs", NULL},
    {"Jméno a příjmení", "name", "cs", NULL},
    {"Hráč", "name", "cs", NULL},
    {"Klub", "club", "cs", NULL},
    {"Oddíl", "club", "cs", NULL},
    {"Země", "country", "cs", NULL},
    {"Stát", "country", "cs", NULL},
    /* Hungarian */
    {"Keresztnév", "first_name", "hu", NULL},
    {"Utónév", "first_name", "hu", NULL},
    {"Vezetéknév", "last_name", "hu", NULL},
    {"Családnév", "last_name", "hu", NULL},
    {"Név", "name", "hu", NULL},
    {"Játékos", "name", "hu", NULL},
    {"Egyesület", "club", "hu", NULL},
    {"Ország", "country", "hu", NULL},
    /* Polish */
    {"Imię", "first_name", "pl", NULL},
    {"Nazwisko", "last_name", "pl", NULL},
    {"Imię i nazwisko", "name", "pl", NULL},
    {"Gracz", "name", "pl", NULL},
    {"Zawodnik", "name", "pl", NULL},
    {"Drużyna", "club", "pl", NULL},
    {"Kraj", "country", "pl", NULL},
    {"Ranking", "rating", "pl", NULL},
    /* Norwegian */
    {"Fornavn", "first_name", "nb", NULL},
    {"Etternavn", "last_name", "nb", NULL},
    {"Navn", "name", "nb", NULL},
    {"Spiller", "name", "nb", NULL},
    {"Klubb", "club", "nb", NULL},
    {"Land", "country", "nb", NULL},
};

#define N_ALIASES (sizeof(csv_aliases) / sizeof(csv_aliases[0]))

/* "id, name, ...; also Player ID, ...; ..." into buf: every column and
 * English header csv_column_of accepts, then where the others are told. */
static void accepted_headers(char *buf, size_t size)
{
    size_t at = 0;
    bool first = true;
    buf[0] = '\0';
    for (int k = 0; csv_columns[k] && at < size; k++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? ", " : "",
                               csv_columns[k]);
    for (size_t a = 0; a < N_ALIASES && at < size; a++) {
        if (csv_aliases[a].lang[0])
            continue;
        at += (size_t)snprintf(buf + at, size - at, "%s%s",
                               first ? "; also " : ", ", csv_aliases[a].header);
        first = false;
    }
    if (at < size)
        snprintf(buf + at, size - at,
                 "; their Czech, Hungarian, Polish and Norwegian names "
                 "(docs/console.md); any case");
}

/* The first byte of text that is not UTF-8: TNY_EINVAL naming its line
 * and its byte within the line, with what to do about it. */
static int check_utf8(const char *text, size_t len, struct tny_diag *diag)
{
    int32_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = tny_utf8_decode(text + i, len - i, &cp);
        if (cp == TNY_UTF8_INVALID && n == 1)
            return tny_diag_set(
                diag, TNY_EINVAL,
                "csv line %d, byte %zu: not UTF-8 (byte 0x%02X; the file is "
                "likely in a Windows code page such as Windows-1250 or "
                "1252): in Excel save it as \"CSV UTF-8 (Comma delimited)\", "
                "or convert it, e.g. iconv -f WINDOWS-1250 -t UTF-8",
                (int)line, i - line_start + 1,
                (unsigned)(unsigned char)text[i]);
        if (text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
        i += n;
    }
    return TNY_OK;
}

/* A control character in field v (C0, DEL or C1: a line break, a tab or
 * ESC inside quotes): TNY_EINVAL naming the row's line, the column and
 * the character. */
static int check_controls(const char *v, int line, const char *column,
                          struct tny_diag *diag)
{
    size_t len = strlen(v);
    int32_t at = 1; /* characters, for the message */
    for (size_t i = 0; i < len; at++) {
        uint32_t cp;
        size_t n = tny_utf8_decode(v + i, len - i, &cp);
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
            const char *what = cp == '\n' || cp == '\r' ? "a line break"
                               : cp == 0x1b             ? "an escape (ESC)"
                               : cp == '\t'             ? "a tab"
                                                        : "a control character";
            return tny_diag_set(diag, TNY_EINVAL,
                                "csv line %d, column %s: %s (U+%04X) at "
                                "character %d; a value must be one line of "
                                "printable text",
                                line, column, what, (unsigned)cp, (int)at);
        }
        i += n;
    }
    return TNY_OK;
}

/* h folded for comparison into out: lower-case ASCII, letters without
 * their diacritics (tny_utf8_ascii), combining marks dropped; false if it
 * does not fit. */
static bool fold_header(const char *h, char *out, size_t size)
{
    size_t len = strlen(h), at = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += tny_utf8_decode(h + i, len - i, &cp);
        char c = tny_utf8_ascii(cp);
        if (!c)
            continue;
        if (at + 1 >= size)
            return false;
        out[at++] = (char)tolower((unsigned char)c);
    }
    out[at] = '\0';
    return true;
}

static int column_index(const char *column)
{
    for (int k = 0; csv_columns[k]; k++)
        if (strcmp(column, csv_columns[k]) == 0)
            return k;
    return -1;
}

/* Index in csv_columns of header h (any case, diacritics optional,
 * aliases), or -1; *alias: the alias's index in csv_aliases, or -1. */
static int csv_column_of(const char *h, int *alias)
{
    char want[64], have[64];
    *alias = -1;
    if (!fold_header(h, want, sizeof want))
        return -1;
    for (int k = 0; csv_columns[k]; k++)
        if (strcmp(want, csv_columns[k]) == 0)
            return k;
    for (size_t a = 0; a < N_ALIASES; a++)
        if (fold_header(csv_aliases[a].header, have, sizeof have) &&
            strcmp(want, have) == 0) {
            *alias = (int)a;
            return column_index(csv_aliases[a].column);
        }
    return -1;
}

/* The header row's first/last-name columns: a given-name column and a
 * family-name column come together and never beside a name column; a
 * Czech "Jméno" without "Příjmení" is the name column.  TNY_EINVAL naming
 * the columns otherwise. */
static int check_name_columns(int *col, const int *alias, char **hdr, int ncol,
                              int line, struct tny_diag *diag)
{
    int at[sizeof(csv_columns) / sizeof(csv_columns[0])];
    for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++)
        at[k] = -1;
    for (int i = 0; i < ncol; i++)
        at[col[i]] = i;
    if (at[COL_FIRST] >= 0 && at[COL_LAST] < 0) {
        int a = alias[at[COL_FIRST]];
        if (a >= 0 && csv_aliases[a].alone && at[COL_NAME] < 0) {
            col[at[COL_FIRST]] = column_index(csv_aliases[a].alone);
            return TNY_OK;
        }
    }
    if ((at[COL_FIRST] >= 0) != (at[COL_LAST] >= 0)) {
        int i = at[COL_FIRST] >= 0 ? at[COL_FIRST] : at[COL_LAST];
        return tny_diag_set(diag, TNY_EINVAL,
                            "csv line %d: column %d \"%.40s\" (%s) needs a "
                            "%s column beside it, or one name column",
                            line, i + 1, hdr[i], csv_columns[col[i]],
                            col[i] == COL_FIRST ? "family-name (last_name)"
                                                : "given-name (first_name)");
    }
    if (at[COL_FIRST] >= 0 && at[COL_NAME] >= 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "csv line %d: columns %d \"%.40s\" (name) and "
                            "%d \"%.40s\" (first_name) both give the name",
                            line, at[COL_NAME] + 1, hdr[at[COL_NAME]],
                            at[COL_FIRST] + 1, hdr[at[COL_FIRST]]);
    return TNY_OK;
}

static bool text_to(char *dst, size_t cap, const char *v)
{
    size_t n = strlen(v);
    if (n >= cap || n > TNY_WIRE_TEXT_MAX)
        return false;
    memcpy(dst, v, n + 1);
    return true;
}

/* The name from a given-name and a family-name field: "Anna Nowak", or
 * family name first ("Szőke Ödön") when the event is in Hungarian, as
 * the family-name rules read a Hungarian list (docs/console.md, "Family
 * names"); either alone when the other is empty. */
static bool compose_name(char *dst, size_t cap, const char *given,
                         const char *family, bool family_first)
{
    const char *a = family_first ? family : given;
    const char *b = family_first ? given : family;
    int n = snprintf(dst, cap, "%s%s%s", a, *a && *b ? " " : "", b);
    return n >= 0 && (size_t)n < cap && (size_t)n <= TNY_WIRE_TEXT_MAX;
}

static int row_player(const struct tny_format *fmt, char **f, int nf,
                      const int *col, bool want_id, bool family_first, int line,
                      struct tny_wire_player *p, struct tny_diag *diag)
{
    const char *given = NULL, *family = NULL;
    memset(p, 0, sizeof(*p));
    for (int i = 0; i < nf; i++) {
        char *v = trim(f[i]);
        const char *name = csv_columns[col[i]];
        char *end = NULL;
        bool bad = false;
        int rc = check_controls(v, line, name, diag);
        if (rc < 0)
            return rc;
        if (!*v && strcmp(name, "id") != 0 && strcmp(name, "name") != 0)
            continue;
        if (col[i] == COL_FIRST)
            given = v;
        else if (col[i] == COL_LAST)
            family = v;
        else if (!strcmp(name, "id"))
            bad = !tny_wire_id_valid(v) || !text_to(p->id, sizeof(p->id), v);
        else if (!strcmp(name, "name"))
            bad = !*v || !text_to(p->name, sizeof(p->name), v);
        else if (!strcmp(name, "club"))
            bad = !text_to(p->club, sizeof(p->club), v);
        else if (!strcmp(name, "country"))
            bad = !text_to(p->country, sizeof(p->country), v);
        else if (!strcmp(name, "external_id"))
            bad = !text_to(p->external_id, sizeof(p->external_id), v);
        else if (!strcmp(name, "faction"))
            bad = !text_to(p->faction, sizeof(p->faction), v);
        else if (!strcmp(name, "agenda"))
            bad = !text_to(p->agenda, sizeof(p->agenda), v);
        else if (!strcmp(name, "rating")) {
            /* A decimal comma (Excel in locales that write ';' files). */
            char *comma = strchr(v, ',');
            if (comma && !strchr(comma + 1, ',') && !strchr(v, '.'))
                *comma = '.';
            p->rating = strtod(v, &end);
            p->has_rating = true;
            bad = *end != '\0' || p->rating != p->rating || p->rating > 1e6 ||
                  p->rating < -1e6;
        } else if (!strcmp(name, "armies") || !strcmp(name, "army"))
            bad = split_list(v, p->armies, TNY_MAX_ARMIES, &p->n_armies) < 0;
        else if (!strcmp(name, "colours"))
            bad = split_list(v, p->colours, 2, &p->n_colours) < 0;
        else if (!strcmp(name, "beginner"))
            bad = !parse_bool(v, &p->beginner);
        else if (!strcmp(name, "colour_blind"))
            bad = !parse_bool(v, &p->colour_blind);
        else if (!strcmp(name, "hook")) /* NH-10 Iron Gang */
            bad = !parse_bool(v, &p->hook);
        else if (!strcmp(name, "first_round")) {
            long r = strtol(v, &end, 10);
            bad = *end != '\0' || r < 0 || r > 10000;
            p->first_round = (int32_t)r;
        }
        if (bad)
            return tny_diag_set(diag, TNY_EINVAL,
                                "csv line %d, column %s: invalid value "
                                "\"%.60s\"",
                                line, name, v);
        if (!strcmp(name, "armies") || !strcmp(name, "army"))
            for (int32_t a = 0; a < p->n_armies; a++)
                if (tny_format_army_index(fmt, p->armies[a]) < 0)
                    return tny_diag_set(diag, TNY_EINVAL,
                                        "csv line %d, column %s: "
                                        "\"%s\" is not an army of %s (NH-10)",
                                        line, name, p->armies[a], fmt->name);
    }
    if ((given || family) &&
        !compose_name(p->name, sizeof(p->name), given ? given : "",
                      family ? family : "", family_first))
        return tny_diag_set(diag, TNY_EINVAL,
                            "csv line %d, columns first_name and last_name: "
                            "the name is too long",
                            line);
    if ((want_id && !p->id[0]) || !p->name[0])
        return tny_diag_set(diag, TNY_EINVAL, "csv line %d: %s required", line,
                            want_id ? "id and name are" : "a name is");
    return TNY_OK;
}

struct id_line {
    const char *id;
    int32_t line;
};

static int by_id_then_line(const void *a, const void *b)
{
    const struct id_line *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* A repeated id: the repeat on the earliest line is reported. */
static int check_repeats(const struct tny_wire_player *players,
                         const struct tny_csv_table *csv, int32_t n,
                         struct tny_diag *diag)
{
    if (n < 2)
        return TNY_OK;
    struct id_line *ids = malloc((size_t)n * sizeof(*ids));
    if (!ids)
        return tny_diag_set(diag, TNY_ENOMEM, "csv: out of memory");
    for (int32_t i = 0; i < n; i++)
        ids[i] = (struct id_line){players[i].id, csv->rows[i + 1].line};
    qsort(ids, (size_t)n, sizeof(*ids), by_id_then_line);
    int32_t worst = -1; /* index in ids of the earliest repeating line */
    for (int32_t i = 1; i < n; i++)
        if (strcmp(ids[i].id, ids[i - 1].id) == 0 &&
            (worst < 0 || ids[i].line < ids[worst].line))
            worst = i;
    int rc = TNY_OK;
    if (worst >= 0) {
        int32_t first = worst;
        while (first > 0 && strcmp(ids[first - 1].id, ids[worst].id) == 0)
            first--;
        rc = tny_diag_set(
            diag, TNY_EINVAL, "csv line %d: id \"%s\" repeats line %d",
            (int)ids[worst].line, ids[worst].id, (int)ids[first].line);
    }
    free(ids);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A file without an id column: each new player gets "pN", numbered on from
 * the event's largest such id; a name already in the event is refused (a
 * file imported twice must not register everybody twice).  Linear apart
 * from one sort of the event's names. */
static int make_ids(const struct tny_event *ev, struct tny_wire_player *p,
                    const struct tny_csv_table *csv, int32_t n,
                    struct tny_diag *diag)
{
    long next = 1;
    int32_t m = ev ? ev->n_players : 0;
    const char **names = NULL;
    int rc = TNY_OK;
    for (int32_t i = 0; i < m; i++) {
        const char *id = ev->players[i].id;
        char *end = NULL;
        long k = (id[0] == 'p' && id[1] >= '1' && id[1] <= '9')
                     ? strtol(id + 1, &end, 10)
                     : 0;
        if (end && !*end && k >= next)
            next = k + 1;
    }
    if (m > 0) {
        if (!(names = malloc((size_t)m * sizeof(*names))))
            return tny_diag_set(diag, TNY_ENOMEM, "csv: out of memory");
        for (int32_t i = 0; i < m; i++)
            names[i] = ev->players[i].name;
        qsort(names, (size_t)m, sizeof(*names), by_name);
    }
    for (int32_t i = 0; i < n && rc == TNY_OK; i++) {
        const char *key = p[i].name;
        const char **hit =
            m ? bsearch(&key, names, (size_t)m, sizeof(*names), by_name) : NULL;
        if (hit) {
            const char *id = "";
            for (int32_t k = 0; k < m; k++)
                if (ev->players[k].name == *hit)
                    id = ev->players[k].id;
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "csv line %d: \"%.80s\" is already a player "
                              "(%s); without an id column names must be new",
                              (int)csv->rows[i + 1].line, p[i].name, id);
        } else
            snprintf(p[i].id, sizeof(p[i].id), "p%ld", next++);
    }
    free(names);
    return rc;
}

int hub_players_csv_read(const char *text, size_t len,
                         const struct tny_event *ev,
                         const struct tny_format *fmt,
                         struct tny_wire_player **out, int32_t *n_out,
                         struct tny_diag *diag)
{
    struct tny_csv_table csv = {0};
    int col[CSV_MAX_FIELDS], alias[CSV_MAX_FIELDS], ncol = 0, rc;
    char *hdr[CSV_MAX_FIELDS];
    bool family_first = ev && strcmp(ev->language, "hu") == 0;
    struct tny_wire_player *players = NULL;
    int32_t n = 0;

    *out = NULL;
    *n_out = 0;
    if ((rc = check_utf8(text, len, diag)) < 0)
        return rc;
    /* One more row than allowed, so that "too many" is told apart. */
    rc = tny_csv_parse_delim(text, len, tny_csv_delimiter(text, len),
                             HUB_PLAYERS_CSV_MAX_ROWS + 2, CSV_MAX_FIELDS, &csv,
                             diag);
    if (rc < 0)
        return rc;
    if (csv.n_rows == 0) {
        rc = tny_diag_set(diag, TNY_EINVAL, "csv: no header row");
        goto out;
    }
    const struct tny_csv_row *header = &csv.rows[0];
    ncol = header->n_fields;
    bool have_id = false, have_name = false;
    for (int i = 0; i < ncol; i++) {
        const char *h = trim(header->fields[i]);
        if ((rc = check_controls(h, (int)header->line, "header", diag)) < 0)
            goto out;
        hdr[i] = (char *)h;
        col[i] = csv_column_of(h, &alias[i]);
        if (col[i] < 0) {
            char expected[512];
            accepted_headers(expected, sizeof expected);
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "csv line %d: unknown column \"%.40s\" "
                              "(expected %s)",
                              (int)header->line, h, expected);
            goto out;
        }
        for (int k = 0; k < i; k++)
            if (col[k] == col[i]) {
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "csv line %d: columns %d and %d are both %s",
                                  (int)header->line, k + 1, i + 1,
                                  csv_columns[col[i]]);
                goto out;
            }
        have_id |= col[i] == COL_ID;
    }
    if ((rc = check_name_columns(col, alias, hdr, ncol, (int)header->line,
                                 diag)) < 0)
        goto out;
    for (int i = 0; i < ncol; i++)
        have_name |= col[i] == COL_NAME || col[i] == COL_FIRST;
    if (!have_name) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "csv line %d: the header needs a name column (name "
                          "or player), or first_name and last_name",
                          (int)header->line);
        goto out;
    }
    if (csv.n_rows - 1 > HUB_PLAYERS_CSV_MAX_ROWS) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "csv: more than %d players (import them in parts)",
                          HUB_PLAYERS_CSV_MAX_ROWS);
        goto out;
    }
    /* Excel writes formatted but empty rows as bare delimiters (";;;"):
     * rows whose every field is blank are no players.  The others move
     * up in order (rows[1..n_rows-1]; the skipped ones after them are still
     * released), so rows[i + 1] stays player i's row. */
    int32_t n_rows = 1;
    for (int32_t r = 1; r < csv.n_rows; r++) {
        bool blank = true;
        for (int32_t f = 0; f < csv.rows[r].n_fields && blank; f++)
            blank = !trim(csv.rows[r].fields[f])[0];
        if (blank)
            continue;
        struct tny_csv_row keep = csv.rows[r];
        csv.rows[r] = csv.rows[n_rows];
        csv.rows[n_rows++] = keep;
    }
    players = calloc((size_t)csv.n_rows, sizeof(*players));
    if (!players) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "csv: out of memory");
        goto out;
    }
    for (int32_t r = 1; r < n_rows; r++, n++) {
        const struct tny_csv_row *row = &csv.rows[r];
        if (row->n_fields > ncol) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "csv line %d: %d fields, the header has %d",
                              (int)row->line, (int)row->n_fields, ncol);
            goto out;
        }
        if ((rc = row_player(fmt, row->fields, row->n_fields, col, have_id,
                             family_first, (int)row->line, &players[n], diag)) <
            0)
            goto out;
    }
    if (have_id)
        rc = check_repeats(players, &csv, n, diag);
    else
        rc = make_ids(ev, players, &csv, n, diag);
    if (rc < 0)
        goto out;
    *out = players;
    *n_out = n;
    players = NULL;
out:
    free(players);
    tny_csv_release(&csv);
    return rc;
}
