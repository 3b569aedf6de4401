/* output_json.c - standings and round plans as the contract's JSON.
 *
 * Shapes are those of event-file.md "Output", plus optional keys only
 * (rows: "disqualified", "separate_list" when true, "sides" in a format
 * with sides; tables: "first_player" where the format draws a starting
 * player, "sides").  Key order is fixed by the
 * order of the set calls below; numbers print as integers when whole.
 */
#include "tny/json_io.h"

#include "io_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tny/utf8.h"

static json_t *row_json(const struct tny_event *ev,
                        const struct tny_standings *st,
                        const struct tny_standing_row *row)
{
    const struct tny_player *pl = &ev->players[row->player];
    json_t *o = json_object(), *tb = json_object();
    bool ok = o && tb;
    ok = ok && tny__set(o, "rank", json_integer(row->rank));
    ok = ok && tny__set(o, "player", json_string(pl->id));
    ok = ok && tny__set(o, "name", json_string(pl->name));
    ok = ok && tny__set(o, "points", tny_json_points(row->points));
    for (int32_t i = 0; ok && i < st->n_tiebreaks; i++)
        ok = tny__set(tb, tny_tiebreak_name(st->tiebreaks[i]),
                      row->has_tiebreak[i] ? tny__number(row->tiebreaks[i])
                                           : json_null());
    if (ok) {
        ok = tny__set(o, "tiebreaks", tb);
        tb = NULL;
    }
    ok = ok && tny__set(o, "dropped", json_boolean(row->dropped));
    ok = ok && tny__set(o, "decided_by_lot", json_boolean(row->decided_by_lot));
    if (row->disqualified)
        ok = ok && tny__set(o, "disqualified", json_true());
    if (row->separate_list)
        ok = ok && tny__set(o, "separate_list", json_true());
    if (ev->format.n_sides == 2) { /* issue 19: games played on each side */
        int32_t n[2] = {0, 0};
        for (int32_t r = 0; r < st->after_round && r < ev->n_rounds; r++)
            for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
                const struct tny_table *x = &ev->rounds[r].tables[t];
                int32_t k = tny_table_seat_of(x, row->player);
                if (x->has_sides && !x->is_bye && k >= 0)
                    n[x->side[k] & 1]++;
            }
        ok = ok && tny__set(o, "sides",
                            json_pack("{sisi}", ev->format.sides[0], n[0],
                                      ev->format.sides[1], n[1]));
    }
    json_decref(tb);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int tny_standings_to_json(const struct tny_event *ev,
                          const struct tny_standings *st, char **out)
{
    json_t *o = json_object(), *rows = json_array();
    bool ok = o && rows;
    int rc = TNY_ENOMEM;
    *out = NULL;
    ok = ok && tny__set(o, "after_round", json_integer(st->after_round));
    ok =
        ok && tny__set(o, "stage", json_string(tny_stage_kind_name(st->stage)));
    for (int32_t i = 0; ok && i < st->n_rows; i++)
        ok = tny__append(rows, row_json(ev, st, &st->rows[i]));
    if (ok) {
        ok = tny__set(o, "standings", rows);
        rows = NULL;
    }
    if (ok)
        rc = tny__dump(o, out);
    json_decref(rows);
    json_decref(o);
    return rc;
}

/* Issue 17: a round plan (10,000 players: 5,000 tables) is written
 * straight into one buffer in jansson's layout (JSON_INDENT(2), keys in
 * the order below), not built as a tree of 30,000 values and dumped: that
 * was a tenth of `tourney pair`.  Strings are escaped as jansson does
 * (\\ \" \b \f \n \r \t, other bytes below 0x20 as \\u00XX,
 * everything else as is); text that is not UTF-8 is refused as jansson's
 * json_string refused it (TNY_ENOMEM, as before). */
struct pw {
    char *b;
    size_t n, cap;
    bool bad; /* out of memory or not UTF-8 */
};

static void pw_put(struct pw *w, const char *s, size_t n)
{
    if (w->bad)
        return;
    if (w->n + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (w->n + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(w->b, cap);
        if (!grown) {
            w->bad = true;
            return;
        }
        w->b = grown;
        w->cap = cap;
    }
    memcpy(w->b + w->n, s, n);
    w->n += n;
    w->b[w->n] = '\0';
}

static void pw_lit(struct pw *w, const char *s)
{
    pw_put(w, s, strlen(s));
}

static void pw_indent(struct pw *w, int depth)
{
    static const char spaces[] = "\n                ";
    pw_put(w, spaces, 1 + (size_t)(2 * depth));
}

static void pw_str(struct pw *w, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0, i = 0;
    pw_put(w, "\"", 1);
    while (u[i]) {
        unsigned c = u[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            run++;
            continue;
        }
        if (c >= 0x80) { /* a whole UTF-8 character, copied */
            uint32_t cp;
            size_t n = tny_utf8_decode((const char *)u + i, 4, &cp);
            if (cp == TNY_UTF8_INVALID &&
                !(n == 3 && u[i] == 0xef && u[i + 1] == 0xbf &&
                  u[i + 2] == 0xbd)) {
                w->bad = true;
                return;
            }
            i += n;
            run += n;
            continue;
        }
        pw_put(w, (const char *)u + i - run, run);
        run = 0;
        char esc[7] = {'\\', 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        pw_put(w, esc, n);
        i++;
    }
    pw_put(w, (const char *)u + i - run, run);
    pw_put(w, "\"", 1);
}

static void pw_key(struct pw *w, int depth, const char *key, bool first)
{
    if (!first)
        pw_put(w, ",", 1);
    pw_indent(w, depth);
    pw_str(w, key);
    pw_put(w, ": ", 2);
}

static void pw_int(struct pw *w, int64_t v)
{
    char num[24];
    int n = snprintf(num, sizeof(num), "%" PRId64, v);
    pw_put(w, num, (size_t)n);
}

static void plan_table(struct pw *w, const struct tny_event *ev,
                       const struct tny_pairing_table *t)
{
    pw_put(w, "{", 1);
    if (t->is_bye) {
        pw_key(w, 3, "bye", true);
        pw_str(w, ev->players[t->seats[0]].id);
    } else {
        pw_key(w, 3, "table", true);
        pw_int(w, t->number);
        pw_key(w, 3, "players", false);
        pw_put(w, "[", 1);
        for (int32_t s = 0; s < t->n_seats; s++) {
            if (s)
                pw_put(w, ",", 1);
            pw_indent(w, 4);
            pw_str(w, ev->players[t->seats[s]].id);
        }
        if (t->n_seats > 0)
            pw_indent(w, 3);
        pw_put(w, "]", 1);
        if (t->has_sides && ev->format.n_sides == 2 && t->n_seats == 2) {
            pw_key(w, 3, "sides", false);
            pw_put(w, "[", 1);
            pw_indent(w, 4);
            pw_str(w, ev->format.sides[t->side[0] & 1]);
            pw_put(w, ",", 1);
            pw_indent(w, 4);
            pw_str(w, ev->format.sides[t->side[1] & 1]);
            pw_indent(w, 3);
            pw_put(w, "]", 1);
        }
        if (t->first_seat >= 0 && t->first_seat < t->n_seats) {
            pw_key(w, 3, "first_player", false);
            pw_str(w, ev->players[t->seats[t->first_seat]].id);
        }
    }
    pw_indent(w, 2);
    pw_put(w, "}", 1);
}

int tny_round_plan_to_json(const struct tny_event *ev,
                           const struct tny_round_plan *plan, char **out)
{
    struct pw w = {0};
    *out = NULL;
    pw_put(&w, "{", 1);
    pw_key(&w, 1, "round", true);
    pw_int(&w, plan->round);
    pw_key(&w, 1, "stage", false);
    pw_str(&w, tny_stage_kind_name(plan->stage));
    pw_key(&w, 1, "tables", false);
    pw_put(&w, "[", 1);
    for (int32_t i = 0; i < plan->n_tables; i++) {
        if (i)
            pw_put(&w, ",", 1);
        pw_indent(&w, 2);
        plan_table(&w, ev, &plan->tables[i]);
    }
    if (plan->n_tables > 0)
        pw_indent(&w, 1);
    pw_put(&w, "]", 1);
    pw_key(&w, 1, "explain", false);
    pw_str(&w, plan->explain ? plan->explain : "");
    pw_lit(&w, "\n}\n");
    if (w.bad) {
        free(w.b);
        return TNY_ENOMEM;
    }
    *out = w.b;
    return TNY_OK;
}
