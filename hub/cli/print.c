/* print.c - printouts for the venue (print.h): pairings by table and by
 * name, result slips with the format's fields and signature lines,
 * standings with tiebreak values, the final classification; with the
 * hub's sign-in codes (issue 20, `tourney live print`): a table tent per
 * table code and cut-out cards of the players' codes, each with a QR
 * code of the phone page's link (print_qr.c), and the table's code on
 * its slip.  Never on the pairings: they hang on the wall.
 *
 * One HTML document per printout, with print CSS (@page A4 or Letter):
 * a printer, a browser's "print" or headless Chromium (--pdf) lays it
 * out.  Offline, the round printed is the one in progress (a table
 * without a result) or else the next one, planned by the pairing engine
 * exactly as `tourney pair` would (a draft until the organiser publishes
 * it).  Live, it is the round the hub holds (`round show`: its draft with
 * the organiser's edits, or the round it sent to the tables), never one
 * planned here (hub_print_round_from_seating).
 *
 * Every word on the paper is in the printout's language (--lang, else the
 * event's "language", else the locale's, else English: cli_lang.h), from
 * the `tourney` catalogue (po/tourney/); numbers and the date as that
 * language writes them.  Long words (Hungarian, Czech) wrap inside their
 * column, never run into the next one.  The organiser's messages (usage,
 * errors on stderr) stay English.
 *
 * Invariants: every string from the event file (names, clubs, title,
 * armies, factions) goes through html_text(); the document is built in
 * one bounded buffer (PRINT_MAX_BYTES); the engine is only read.
 * Not here: reading the event (tourney.c, console.c do).
 */
#define _POSIX_C_SOURCE 200809L
#include "print.h"

#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wctype.h>

#include "cli_lang.h"
#include "cli_out.h"
#include "names.h"
#include "print_qr.h"
#include "tny/game.h"
#include "tny/format.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/standings.h"
#include "tny/utf8.h"
#include "tny/wire.h"

#define _(s) gettext(s)

#define PRINT_MAX_BYTES (64u << 20)
#define CHROMIUM_TIMEOUT_S 120

/* ---- a bounded growable string ------------------------------------- */

struct out {
    char *buf;
    size_t len, cap;
    int rc; /* first failure: TNY_ENOMEM or TNY_ERANGE */
};

static void put_n(struct out *o, const char *s, size_t n)
{
    if (o->rc)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t ncap = o->cap ? o->cap : 16384;
        while (ncap < o->len + n + 1)
            ncap *= 2;
        if (ncap > PRINT_MAX_BYTES) {
            o->rc = TNY_ERANGE;
            return;
        }
        char *nb = realloc(o->buf, ncap);
        if (!nb) {
            o->rc = TNY_ENOMEM;
            return;
        }
        o->buf = nb;
        o->cap = ncap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void put(struct out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

static void putf(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(struct out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    put_n(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* html_text(o, s): s as HTML text (element content or a quoted
 * attribute); NULL is empty. */
static void html_text(struct out *o, const char *s)
{
    if (!s)
        return;
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '&': put(o, "&amp;"); break;
        case '<': put(o, "&lt;"); break;
        case '>': put(o, "&gt;"); break;
        case '"': put(o, "&quot;"); break;
        case '\'': put(o, "&#39;"); break;
        default: put_n(o, p, 1);
        }
    }
}

/* ---- names --------------------------------------------------------- */

/* Latin letters U+00C0..U+017F without their accents, for sorting. */
static const char fold_c0[] = "AAAAAAACEEEEIIIIDNOOOOO*OUUUUYTs"
                              "aaaaaaaceeeeiiiidnooooo/ouuuuyty";
static const char fold_100[] = "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHh"
                               "IiIiIiIiIiJjJjKkkLlLlLlLlLlNnNnNnnNnOoOo"
                               "OoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYy"
                               "YZzZzZzs";
_Static_assert(sizeof fold_c0 == 65, "U+00C0..U+00FF");
_Static_assert(sizeof fold_100 == 129, "U+0100..U+017F");

/* fold_key(s, key, n): s lower case without accents (UTF-8 in, ASCII
 * and untouched other characters out), NUL-terminated in key[n]. */
static void fold_key(const char *s, char *key, size_t n)
{
    size_t k = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && k + 1 < n) {
        unsigned cp = 0;
        if (p[0] >= 0xC3 && p[0] <= 0xC5 && (p[1] & 0xC0) == 0x80) {
            cp = ((unsigned)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
            p += 2;
            char c = cp >= 0x100  ? fold_100[cp - 0x100]
                     : cp >= 0xC0 ? fold_c0[cp - 0xC0]
                                  : '?';
            key[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            continue;
        }
        unsigned char c = *p++;
        key[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    key[k] = '\0';
}

/* ---- the round to print ---------------------------------------------- */

static bool round_in_progress(const struct tny_round *r)
{
    for (int32_t i = 0; i < r->n_tables; i++)
        if (!r->tables[i].is_bye && !r->tables[i].has_result)
            return true;
    return false;
}

/* pick_round(ev, want, pr, diag): round `want` (0: the one in progress,
 * else the next) into pr (pr->tables on the heap). */
static int pick_round(const struct tny_event *ev, int32_t want,
                      struct hub_print_round *pr, struct tny_diag *diag)
{
    memset(pr, 0, sizeof *pr);
    if (want < 0 || want > ev->n_rounds + 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "--round %d: the event has rounds 1..%d (%d = "
                            "the next one)",
                            (int)want, (int)ev->n_rounds,
                            (int)ev->n_rounds + 1);
    if (want == 0)
        want =
            ev->n_rounds > 0 && round_in_progress(&ev->rounds[ev->n_rounds - 1])
                ? ev->n_rounds
                : ev->n_rounds + 1;
    if (want <= ev->n_rounds) {
        const struct tny_round *r = &ev->rounds[want - 1];
        pr->round = want;
        pr->stage = r->stage;
        pr->tables = calloc((size_t)r->n_tables + 1, sizeof *pr->tables);
        if (!pr->tables)
            return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        for (int32_t i = 0; i < r->n_tables; i++) {
            struct hub_print_table *t = &pr->tables[i];
            t->number = r->tables[i].number;
            t->is_bye = r->tables[i].is_bye;
            t->n_seats = r->tables[i].n_seats;
            memcpy(t->seats, r->tables[i].seats, sizeof t->seats);
            t->first_seat = -1;
            for (int32_t s = 0; r->tables[i].has_sides && s < 2; s++)
                t->side[s] = ev->format.sides[r->tables[i].side[s] & 1];
        }
        pr->n_tables = r->n_tables;
        return TNY_OK;
    }
    struct tny_round_plan plan;
    memset(&plan, 0, sizeof plan);
    int rc = tny_pair_next(ev, &plan, diag);
    if (rc < 0)
        return rc;
    pr->round = plan.round;
    pr->stage = plan.stage;
    pr->origin = HUB_PRINT_PLANNED;
    pr->tables = calloc((size_t)plan.n_tables + 1, sizeof *pr->tables);
    if (!pr->tables) {
        tny_round_plan_release(&plan);
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    }
    for (int32_t i = 0; i < plan.n_tables; i++) {
        struct hub_print_table *t = &pr->tables[i];
        t->number = plan.tables[i].number;
        t->is_bye = plan.tables[i].is_bye;
        t->n_seats = plan.tables[i].n_seats;
        memcpy(t->seats, plan.tables[i].seats, sizeof t->seats);
        t->first_seat = plan.tables[i].first_seat;
        for (int32_t s = 0; plan.tables[i].has_sides && s < 2; s++)
            t->side[s] = ev->format.sides[plan.tables[i].side[s] & 1];
    }
    pr->n_tables = plan.n_tables;
    tny_round_plan_release(&plan);
    return TNY_OK;
}

void hub_print_round_release(struct hub_print_round *r)
{
    free(r->tables);
    memset(r, 0, sizeof *r);
}

/* seats_from_ids(ev, ids, n, t, round, diag): t's seats, the players of
 * ids by their index in ev. */
static int seats_from_ids(const struct tny_event *ev, char *const *ids,
                          int32_t n, struct hub_print_table *t, int32_t round,
                          struct tny_diag *diag)
{
    if (n < 1 || n > TNY_MAX_SEATS)
        return tny_diag_set(diag, TNY_ESTATE,
                            "the hub's round %d: table %d has %d seats",
                            (int)round, (int)t->number, (int)n);
    for (int32_t s = 0; s < n; s++) {
        int32_t p = ids[s] ? tny_event_player_index(ev, ids[s]) : -1;
        if (p < 0)
            return tny_diag_set(diag, TNY_ESTATE,
                                "the hub's round %d seats \"%s\", who is "
                                "not in its export of the event (print "
                                "again)",
                                (int)round, ids[s] ? ids[s] : "");
        t->seats[s] = p;
    }
    t->n_seats = n;
    return TNY_OK;
}

/* same_seats(r, t): the event's round r has table t as it is (number and
 * seats), whose sides it lends. */
static const struct tny_table *same_seats(const struct tny_round *r,
                                          const struct hub_print_table *t)
{
    for (int32_t i = 0; r && i < r->n_tables; i++) {
        const struct tny_table *x = &r->tables[i];
        if (x->is_bye != t->is_bye || x->n_seats != t->n_seats ||
            (!t->is_bye && x->number != t->number))
            continue;
        if (memcmp(x->seats, t->seats, sizeof(int32_t) * (size_t)t->n_seats) ==
            0)
            return x;
    }
    return NULL;
}

int hub_print_round_from_seating(const struct tny_event *ev,
                                 const struct tny_wire_seating *s,
                                 struct hub_print_round *out,
                                 struct tny_diag *diag)
{
    int rc = TNY_OK;
    memset(out, 0, sizeof *out);
    out->round = s->round;
    out->stage = s->stage;
    out->origin =
        s->status == TNY_WIRE_ROUND_NONE || s->status == TNY_WIRE_ROUND_DRAFT
            ? HUB_PRINT_HUB_DRAFT
            : HUB_PRINT_HUB_ROUND;
    out->tables = calloc((size_t)s->n_tables + 1, sizeof *out->tables);
    if (!out->tables)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    const struct tny_round *in_file = s->round >= 1 && s->round <= ev->n_rounds
                                          ? &ev->rounds[s->round - 1]
                                          : NULL;
    for (int32_t i = 0; i < s->n_tables && rc == TNY_OK; i++) {
        const struct tny_wire_seated_table *w = &s->tables[i];
        struct hub_print_table *t = &out->tables[i];
        t->number = w->table;
        t->is_bye = w->table == 0;
        t->first_seat = -1;
        if ((rc = seats_from_ids(ev, w->players, w->n_players, t, s->round,
                                 diag)) < 0)
            break;
        for (int32_t k = 0; w->first_player && k < t->n_seats; k++)
            if (strcmp(ev->players[t->seats[k]].id, w->first_player) == 0)
                t->first_seat = k;
        /* The side names are the format's (they outlive the reply). */
        for (int32_t k = 0; w->n_sides == 2 && k < 2 && k < t->n_seats; k++)
            for (int32_t f = 0; f < 2; f++)
                if (w->sides[k] &&
                    strcmp(w->sides[k], ev->format.sides[f]) == 0)
                    t->side[k] = ev->format.sides[f];
        const struct tny_table *x = w->n_sides ? NULL : same_seats(in_file, t);
        for (int32_t k = 0; x && x->has_sides && k < 2; k++)
            t->side[k] = ev->format.sides[x->side[k] & 1];
        out->n_tables++;
    }
    if (rc < 0)
        hub_print_round_release(out);
    return rc;
}

/* ---- the document ------------------------------------------------------ */

static const char *event_title(const struct tny_event *ev)
{
    return ev->title[0] ? ev->title : ev->format.name;
}

/* stage_label(ev, kind): the stage's name as players read it. */
static const char *stage_label(const struct tny_event *ev,
                               enum tny_stage_kind kind)
{
    for (int32_t s = 0; s < ev->format.n_stages; s++)
        if (ev->format.stages[s].kind == kind && ev->format.stages[s].name[0])
            return hub_lang_stage(ev->format.stages[s].name);
    static const char *const by_kind[] = {
        [TNY_STAGE_SWISS] = "Swiss",
        [TNY_STAGE_ELIMINATION] = "Elimination",
        [TNY_STAGE_PRELIM] = "Preliminary",
        [TNY_STAGE_FINAL] = "Final",
        [TNY_STAGE_ROUND] = "Rounds",
        [TNY_STAGE_ROUND_ROBIN] = "Round robin",
    };
    return (size_t)kind < sizeof by_kind / sizeof by_kind[0] && by_kind[kind]
               ? hub_lang_stage(by_kind[kind])
               : tny_stage_kind_name(kind);
}

static void head(struct out *o, const struct tny_event *ev,
                 const struct hub_print_opts *po, const char *lang,
                 const char *what)
{
    put(o, "<!DOCTYPE html>\n<html lang=\"");
    html_text(o, lang);
    put(o, "\"><head><meta charset=\"utf-8\"><title>");
    html_text(o, event_title(ev));
    put(o, " - ");
    html_text(o, what);
    put(o, "</title>\n<style>\n");
    putf(o, "@page { size: %s; margin: 12mm 12mm 14mm; }\n",
         po->letter ? "letter" : "A4");
    /* a tent fills its page (A4 271 mm, Letter 253 mm inside the margins) */
    putf(o, ".tent { height: %dmm; }\n", po->letter ? 248 : 266);
    put(o,
        /* CJK names: WenQuanYi Micro Hei (fonts-wqy-microhei, a
         * dependency of the packages, issue 22 item 4) */
        "body { font-family: \"DejaVu Sans\", \"Liberation Sans\", Arial, "
        "\"WenQuanYi Micro Hei\", \"Noto Sans CJK SC\", sans-serif; "
        "font-size: 10.5pt; color: #000; margin: 0; }\n"
        "h1 { font-size: 16pt; margin: 0 0 2mm; }\n"
        "h2 { font-size: 12.5pt; margin: 5mm 0 2mm; }\n"
        ".sub { color: #333; margin: 0 0 4mm; }\n"
        "table.list { border-collapse: collapse; width: 100%; }\n"
        /* fixed widths (issue 24): every seat column as wide as the next,
         * every slip's columns where the last slip had them */
        "table.fixed, .slip table { table-layout: fixed; }\n"
        "table.fixed td, .slip td { overflow-wrap: anywhere; }\n"
        "table.list th, table.list td { border-bottom: 0.3mm solid #999; "
        "padding: 1.2mm 2mm; text-align: left; vertical-align: top; }\n"
        "table.list th { border-bottom: 0.5mm solid #000; font-size: 9pt; }\n"
        /* Headings in every language (issue 21): a long Hungarian or
         * Czech word wraps inside its column (hyphenated where the
         * browser knows the language, else broken), never past it. */
        "th { white-space: normal; hyphens: auto; overflow-wrap: break-word; "
        "}\n"
        "table.list thead { display: table-header-group; }\n"
        "table.list tr { break-inside: avoid; page-break-inside: avoid; }\n"
        "table.list .n, .n { text-align: right; white-space: nowrap; "
        "font-variant-numeric: tabular-nums; }\n"
        "table.list th.n { white-space: normal; }\n"
        /* the standings' names keep their room beside long headings */
        "table.list th.pl { width: 35%; }\n"
        "td.t { font-weight: bold; font-size: 12pt; white-space: nowrap; }\n"
        ".cl { color: #444; font-size: 8.5pt; }\n"
        ".ex { color: #222; font-size: 8.5pt; font-style: italic; }\n"
        ".newpage { break-before: page; page-break-before: always; }\n"
        ".cols { column-count: 2; column-gap: 8mm; }\n"
        ".cols table.list td { padding: 0.8mm 1.5mm; }\n"
        ".slip { border: 0.5mm solid #000; padding: 3mm 4mm; margin: 0 0 5mm; "
        "break-inside: avoid; page-break-inside: avoid; }\n"
        ".slip h2 { margin: 0 0 2mm; display: flex; justify-content: "
        "space-between; gap: 4mm; }\n"
        ".slip table { border-collapse: collapse; width: 100%; }\n"
        ".slip th, .slip td { border: 0.3mm solid #555; padding: 1.5mm 2mm; "
        "text-align: left; vertical-align: top; }\n"
        ".slip th { font-size: 8.5pt; background: #eee; }\n"
        ".slip td.box { width: 18mm; height: 7mm; }\n"
        ".slip td.chk { width: 12mm; text-align: center; font-size: 13pt; }\n"
        ".slip .more { margin: 2mm 0 0; }\n"
        ".slip .sig { display: flex; gap: 6mm; margin-top: 6mm; }\n"
        ".slip .sig div { flex: 1; border-top: 0.3mm solid #000; "
        "padding-top: 1mm; font-size: 8pt; }\n"
        ".draft { color: #b00; font-weight: bold; }\n"
        ".flag { font-size: 8pt; border: 0.3mm solid #000; padding: 0 1mm; }\n"
        /* issue 20: the sign-in codes (tents, cards, slips) */
        ".code { font-family: \"DejaVu Sans Mono\", \"Liberation Mono\", "
        "monospace; font-weight: bold; letter-spacing: 0.08em; "
        "white-space: nowrap; }\n"
        "svg.qr { display: block; }\n"
        /* a tent: an A4 (Letter) page folded across the middle, the top
         * half upside down so that each side reads from its own chair */
        ".tent { display: flex; flex-direction: column; "
        "break-after: page; page-break-after: always; }\n"
        ".tent:last-child { break-after: auto; page-break-after: auto; }\n"
        ".tent .half { flex: 1; display: flex; flex-direction: column; "
        "align-items: center; justify-content: center; text-align: center; "
        "overflow: hidden; }\n"
        ".tent .half.top { transform: rotate(180deg); }\n"
        ".tent .half.fold { border-top: 0.3mm dashed #888; }\n"
        ".tent .tn { font-size: 44pt; font-weight: bold; margin: 0; }\n"
        ".tent svg.qr { width: 58mm; height: 58mm; margin: 2mm 0; }\n"
        ".tent .code { font-size: 34pt; }\n"
        ".tent .how { font-size: 13pt; margin: 2mm 8mm 0; "
        "overflow-wrap: anywhere; }\n"
        ".tent .ev { font-size: 9pt; color: #333; margin: 1mm 8mm 0; "
        "overflow-wrap: anywhere; }\n"
        /* the players' cards: cut along the dashed lines */
        ".cards { display: flex; flex-wrap: wrap; }\n"
        /* at least 64 mm: a long name or language grows its card (and
         * its row) rather than being cut at the card's top and bottom */
        ".card { width: 50%; box-sizing: border-box; min-height: 64mm; "
        "border: 0.3mm dashed #888; padding: 3mm 4mm; display: flex; "
        "gap: 4mm; align-items: center; break-inside: avoid; "
        "page-break-inside: avoid; overflow: hidden; }\n"
        ".card svg.qr { width: 38mm; height: 38mm; flex: none; }\n"
        ".card .who { min-width: 0; }\n"
        ".card .nm { font-size: 13pt; font-weight: bold; margin: 0 0 2mm; "
        "overflow-wrap: anywhere; }\n"
        ".card .code { font-size: 19pt; }\n"
        ".card .how { font-size: 9pt; margin: 2mm 0 0; "
        "overflow-wrap: anywhere; }\n"
        ".card .ev { font-size: 8pt; color: #333; margin: 1mm 0 0; "
        "overflow-wrap: anywhere; }\n"
        ".slip .signin .how { margin: 1mm 0 0; overflow-wrap: anywhere; }\n"
        ".slip .signin { display: flex; gap: 4mm; align-items: center; "
        "margin-top: 3mm; font-size: 9pt; }\n"
        ".slip .signin svg.qr { width: 24mm; height: 24mm; flex: none; }\n"
        ".slip .signin .code { font-size: 14pt; }\n"
        "</style></head><body>\n");
}

static void player_cell(struct out *o, const struct tny_event *ev, int32_t p)
{
    const struct tny_player *pl = &ev->players[p];
    put(o, "<b>");
    html_text(o, pl->name);
    put(o, "</b>");
    if (pl->club || pl->country) {
        put(o, " <span class=\"cl\">");
        html_text(o, pl->club);
        if (pl->club && pl->country)
            put(o, ", ");
        html_text(o, pl->country);
        put(o, "</span>");
    }
}

/* extras(o, ev, p): the player's format extras: NH registered armies,
 * TX colours, GT faction and agenda. */
/* preset_word(s): a word of the presets players read (an NH army:
 * po/tourney/PRESETFIELDS extracts them) in the printout's language; a
 * name the organiser gave as it is. */
static const char *preset_word(const char *s)
{
    return s[0] ? gettext(s) : s; /* ("" is the catalogue's header) */
}

/* tx_colour(s): a Tantrix colour of the event file (TX-10) as the
 * language names it; anything else as it is. */
static const char *tx_colour(const char *s)
{
    /* TRANSLATORS: Tantrix tile colours (TX-10) on the printouts. */
    if (strcmp(s, "red") == 0)
        return pgettext("Tantrix colour", "red");
    if (strcmp(s, "yellow") == 0)
        return pgettext("Tantrix colour", "yellow");
    if (strcmp(s, "blue") == 0)
        return pgettext("Tantrix colour", "blue");
    if (strcmp(s, "green") == 0)
        return pgettext("Tantrix colour", "green");
    if (strcmp(s, "white") == 0)
        return pgettext("Tantrix colour", "white");
    return s;
}

static void extras(struct out *o, const struct tny_event *ev, int32_t p)
{
    const struct tny_player *pl = &ev->players[p];
    const char *sep = "";
    put(o, "<span class=\"ex\">");
    for (int32_t a = 0; a < pl->n_armies; a++) {
        if (pl->armies[a] >= 0 && pl->armies[a] < ev->format.n_armies) {
            put(o, sep);
            html_text(o, preset_word(ev->format.armies[pl->armies[a]]));
            sep = " / ";
        }
    }
    for (int32_t c = 0; c < pl->n_colours; c++) {
        put(o, sep);
        html_text(o, tx_colour(pl->colours[c]));
        sep = " / ";
    }
    if (pl->faction) {
        put(o, sep);
        html_text(o, pl->faction);
        if (pl->agenda) {
            put(o, " / ");
            html_text(o, pl->agenda);
        }
    }
    put(o, "</span>");
}

/* sub_line_end(o, stamp): the date of the printout, then the line's end. */
static void sub_line_end(struct out *o, const char *stamp)
{
    put(o, " &middot; ");
    /* TRANSLATORS: when the printout was made; %s is a date and time. */
    char printed[200];
    snprintf(printed, sizeof printed, _("printed %s"), stamp);
    html_text(o, printed);
    put(o, "</p>\n");
}

static void round_heading(struct out *o, const struct tny_event *ev,
                          const struct hub_print_round *pr, const char *what,
                          const char *stamp)
{
    char line[300];
    put(o, "<h1>");
    html_text(o, event_title(ev));
    put(o, "</h1><p class=\"sub\">");
    html_text(o, what);
    put(o, " &middot; ");
    /* TRANSLATORS: the round's number, then the stage's name
       ("round 2 (Swiss)"). */
    snprintf(line, sizeof line, _("round %d (%s)"), (int)pr->round,
             stage_label(ev, pr->stage));
    html_text(o, line);
    if (pr->origin == HUB_PRINT_PLANNED) {
        put(o, " &middot; <span class=\"draft\">");
        html_text(o, _("DRAFT: the next round as planned from this file, "
                       "not published"));
        put(o, "</span>");
    } else if (pr->origin == HUB_PRINT_HUB_DRAFT) {
        put(o, " &middot; <span class=\"draft\">");
        /* TRANSLATORS: `tourney live print`: the round printed is the
           draft the hub holds (the organiser's edits included). */
        html_text(o, _("DRAFT: the hub's draft of this round, not "
                       "published"));
        put(o, "</span>");
    }
    sub_line_end(o, stamp);
}

struct by_name {
    int32_t player, table, seat; /* table 0 = bye */
    char key[160];
};

static int by_name_cmp(const void *a, const void *b)
{
    const struct by_name *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : x->player - y->player;
}

/* th(o, cls, text): a column heading (class cls unless NULL). */
static void th(struct out *o, const char *cls, const char *text)
{
    put(o, cls ? "<th class=\"" : "<th>");
    if (cls) {
        put(o, cls);
        put(o, "\">");
    }
    html_text(o, text);
    put(o, "</th>");
}

/* text_with(o, fmt, s): fmt (a translation with one "%s") with s in it,
 * as HTML text; s may be of any length. */
static void text_with(struct out *o, const char *fmt, const char *s)
{
    const char *at = strstr(fmt, "%s");
    if (!at) { /* msgfmt --check-format keeps the %s: not reached */
        html_text(o, fmt);
        return;
    }
    char *head = strndup(fmt, (size_t)(at - fmt));
    if (!head) {
        o->rc = o->rc ? o->rc : TNY_ENOMEM;
        return;
    }
    html_text(o, head);
    html_text(o, s);
    html_text(o, at + 2);
    free(head);
}

/* flag(o, text): a small boxed word beside a name. */
static void flag(struct out *o, const char *text)
{
    put(o, " <span class=\"flag\">");
    html_text(o, text);
    put(o, "</span>");
}

/* A column of a result slip: its heading, least width, the empty cell. */
struct slip_col {
    const char *head;
    int mm;
    const char *cell;
};

/* col_for(o, mm, head): a fixed column at least mm wide and as wide as
 * the longest word of its heading (in ch, the width of a digit in the
 * body's font, larger than the heading's: a word of n letters fits in
 * n ch), plus the cell's padding. */
static void col_for(struct out *o, int mm, const char *head)
{
    int32_t longest = 0;
    for (const char *p = head; *p;) {
        size_t n = strcspn(p, " -/");
        char word[128];
        snprintf(word, sizeof word, "%.*s",
                 (int)(n < sizeof word ? n : sizeof word - 1), p);
        int32_t w = tny_utf8_width(word);
        longest = w > longest ? w : longest;
        p += n + (p[n] != '\0');
    }
    putf(o, "<col style=\"width:max(%dmm, calc(%dch + 5mm))\">", mm,
         (int)longest);
}

static int print_pairings(struct out *o, const struct tny_event *ev,
                          bool family_first, const struct hub_print_round *pr,
                          const char *stamp)
{
    char buf[120];
    round_heading(o, ev, pr, _("Pairings by table"), stamp);
    int32_t max_seats = 1;
    for (int32_t i = 0; i < pr->n_tables; i++)
        if (!pr->tables[i].is_bye && pr->tables[i].n_seats > max_seats)
            max_seats = pr->tables[i].n_seats;
    /* The table number's column fixed, the seats sharing the rest
     * equally, whatever the names. */
    const char *table = _("Table");
    put(o, "<table class=\"list fixed\"><colgroup>");
    col_for(o, 16, table);
    for (int32_t s = 0; s < max_seats; s++)
        put(o, "<col>");
    put(o, "</colgroup><thead><tr>");
    th(o, "n", table);
    for (int32_t s = 0; s < max_seats; s++) {
        /* TRANSLATORS: a column of the pairings: the players in seat 1,
           2, ... of every table. */
        snprintf(buf, sizeof buf, _("Seat %d"), (int)s + 1);
        th(o, NULL, buf);
    }
    put(o, "</tr></thead><tbody>\n");
    int32_t n_entries = 0;
    for (int32_t i = 0; i < pr->n_tables; i++) {
        const struct hub_print_table *t = &pr->tables[i];
        n_entries += t->n_seats;
        if (t->is_bye)
            continue;
        putf(o, "<tr><td class=\"n t\">%d</td>", (int)t->number);
        for (int32_t s = 0; s < max_seats; s++) {
            put(o, "<td>");
            if (s < t->n_seats) {
                player_cell(o, ev, t->seats[s]);
                if (t->first_seat == s)
                    /* TRANSLATORS: beside the starting player's name
                       (AG-4). */
                    flag(o, _("starts"));
                if (t->side[s]) /* issue 19 */
                    flag(o, t->side[s]);
                put(o, "<br>");
                extras(o, ev, t->seats[s]);
            }
            put(o, "</td>");
        }
        put(o, "</tr>\n");
    }
    put(o, "</tbody></table>\n");
    for (int32_t i = 0; i < pr->n_tables; i++) {
        if (!pr->tables[i].is_bye)
            continue;
        put(o, "<p><b>");
        /* TRANSLATORS: before the name of the player without a game this
           round (seed 000 keeps "Bye"). */
        html_text(o, _("Bye:"));
        put(o, "</b> ");
        player_cell(o, ev, pr->tables[i].seats[0]);
        put(o, "</p>\n");
    }

    /* by name: family name order (hub_family_split), accents ignored */
    struct by_name *bn = calloc((size_t)n_entries + 1, sizeof *bn);
    if (!bn)
        return TNY_ENOMEM;
    int32_t n = 0;
    for (int32_t i = 0; i < pr->n_tables; i++) {
        const struct hub_print_table *t = &pr->tables[i];
        for (int32_t s = 0; s < t->n_seats; s++) {
            struct by_name *e = &bn[n++];
            struct hub_name_parts np;
            hub_family_split(ev->players[t->seats[s]].name, family_first, &np);
            char a[80], b[80];
            fold_key(np.family[0] ? np.family : np.given, a, sizeof a);
            fold_key(np.family[0] ? np.given : "", b, sizeof b);
            snprintf(e->key, sizeof e->key, "%s\x01%s", a, b);
            e->player = t->seats[s];
            e->table = t->is_bye ? 0 : t->number;
            e->seat = s + 1;
        }
    }
    qsort(bn, (size_t)n, sizeof *bn, by_name_cmp);
    put(o, "<div class=\"newpage\"></div>");
    round_heading(o, ev, pr, _("Pairings by name"), stamp);
    put(o, "<div class=\"cols\"><table class=\"list\"><thead><tr>");
    th(o, NULL, _("Player"));
    th(o, "n", _("Table"));
    th(o, "n", _("Seat"));
    put(o, "</tr></thead><tbody>\n");
    for (int32_t i = 0; i < n; i++) {
        struct hub_name_parts np;
        hub_family_split(ev->players[bn[i].player].name, family_first, &np);
        put(o, "<tr><td><b>");
        html_text(o, np.family[0] ? np.family : np.given);
        put(o, "</b>");
        if (np.as_written) { /* "Lőrincz Árpád", "山田 太郎" */
            put(o, " ");
            html_text(o, np.given);
        } else if (np.family[0] && np.given[0]) {
            put(o, ", ");
            html_text(o, np.given);
        }
        if (bn[i].table)
            putf(o,
                 "</td><td class=\"n t\">%d</td><td class=\"n\">%d</td></tr>\n",
                 (int)bn[i].table, (int)bn[i].seat);
        else {
            put(o, "</td><td class=\"n\">");
            /* TRANSLATORS: in the table column of the list by name: the
               player has no game this round. */
            html_text(o, _("bye"));
            put(o, "</td><td></td></tr>\n");
        }
    }
    put(o, "</tbody></table></div>\n");
    free(bn);
    return TNY_OK;
}

/* A slip column's heading in the reader's language (game.h: a msgid,
 * with pgettext's context or none). */
static const char *slip_text(const struct tny_slip_col *c)
{
    char ctx_id[128];
    if (!c->context)
        return _(c->head);
    snprintf(ctx_id, sizeof ctx_id, "%s\004%s", c->context, c->head);
    return hub_lang_pgettext(ctx_id, c->head);
}

/* A game module's own key's label in the reader's language
 * (result_schema.h struct tny_result_ext: a msgid), else its name. */
static const char *ext_text(const struct tny_result_ext *x)
{
    return x->text && x->text[0] ? _(x->text) : x->info.name;
}

/* A per-game heading ("Game %d", translated) with its %d replaced by
 * game k: the msgid comes from the game's module, not a literal the
 * compiler could check as a format. */
static void per_game_head(char *dst, size_t size, const char *head, int k)
{
    const char *d = strstr(head, "%d");
    if (!d)
        snprintf(dst, size, "%s", head);
    else
        snprintf(dst, size, "%.*s%d%s", (int)(d - head), head, k, d + 2);
}

/* One result slip: the players in seat order with the format's boxes
 * (NH-1 winner, draw, HQ difference, NH-11 army played; TX-3 scores and
 * clock times; AG-1 VP / IP / BP; GT-1 winner, modified win, GT-9 games;
 * CT VP), then a signature line per player. */
/* table_code(po, table): the table's valid sign-in code, NULL if none. */
static const char *table_code(const struct hub_print_opts *po, int32_t table)
{
    for (int32_t i = 0; po->url && i < po->n_codes; i++)
        if (!po->codes[i].player && po->codes[i].table == table)
            return po->codes[i].code;
    return NULL;
}

/* code_qr(o, po, code, diag): the QR code of the phone page signed in
 * with code: "URL?code=CODE" (or "URL&code=CODE" when the URL has a
 * query already). */
static int code_qr(struct out *o, const struct hub_print_opts *po,
                   const char *code, struct tny_diag *diag)
{
    char link[1200], *svg = NULL;
    int n = snprintf(link, sizeof link, "%s%scode=%s", po->url,
                     strchr(po->url, '?') ? "&" : "?", code);
    if (n < 0 || (size_t)n >= sizeof link)
        return tny_diag_set(diag, TNY_EINVAL, "--url: longer than %d bytes",
                            (int)sizeof link - 32);
    int rc = hub_qr_svg(link, &svg, diag);
    if (rc < 0)
        return rc;
    put(o, svg);
    free(svg);
    return TNY_OK;
}

/* code_how(o, po, fmt): a line of instruction with the page's address. */
static void code_how(struct out *o, const struct hub_print_opts *po,
                     const char *fmt)
{
    put(o, "<p class=\"how\">");
    text_with(o, fmt, po->url);
    put(o, "</p>");
}

static void slip(struct out *o, const struct tny_event *ev,
                 const struct hub_print_round *pr,
                 const struct hub_print_table *t,
                 const struct hub_print_opts *po, struct tny_diag *diag)
{
    enum tny_game g = ev->format.game;
    char buf[200], games[3][64];
    bool bo3 = false;
    for (int32_t s = 0; s < ev->format.n_stages; s++)
        if (ev->format.stages[s].kind == pr->stage &&
            ev->format.stages[s].best_of_three)
            bo3 = true;
    putf(o, "<div class=\"slip\" data-table=\"%d\"><h2><span>", (int)t->number);
    /* TRANSLATORS: the heading of a result slip: the table's number. */
    snprintf(buf, sizeof buf, _("Table %d"), (int)t->number);
    html_text(o, buf);
    put(o, "</span><span>");
    html_text(o, event_title(ev));
    put(o, " &middot; ");
    /* TRANSLATORS: on a result slip, after the event's title. */
    snprintf(buf, sizeof buf, _("round %d"), (int)pr->round);
    html_text(o, buf);
    put(o, "</span></h2>\n<table>");
    /* The format's columns after Seat and Player: heading, least width,
     * the empty cell a player fills in. */
    static const char *const box = "<td class=\"box\"></td>";
    static const char *const chk = "<td class=\"chk\">&#9744;</td>";
    const struct tny_game_ops *shape = tny_game_shape_of(g);
    const struct tny_slip *sl = shape ? &shape->slip : NULL;
    struct slip_col col[8];
    int n = 0, n_games = 0;
    for (int32_t i = 0; sl && i < sl->n_cols; i++) {
        const struct tny_slip_col *c = &sl->cols[i];
        const char *cell = c->tick ? chk : box;
        for (int32_t k = 0; c->per_game && bo3 && k < 3 && n < 8 && n_games < 3;
             k++) {
            per_game_head(games[n_games], sizeof games[n_games], slip_text(c),
                          (int)k + 1);
            col[n++] = (struct slip_col){games[n_games++], (int)c->mm, cell};
        }
        if (!c->per_game && n < 8)
            col[n++] = (struct slip_col){slip_text(c), (int)c->mm, cell};
    }
    /* The game module's own keys (result_schema.h struct tny_result_ext):
     * a per-player one a column, a number or a flag a line under the
     * table; their text is a msgid (N_(), result_schema.h), shown in the
     * printout's language. */
    const struct tny_game_ops *own = tny_game_ops_of(g);
    for (int32_t i = 0; own && i < own->n_ext && n < 8; i++)
        if (own->ext[i].info.value == TNY_RV_PER_PLAYER)
            col[n++] = (struct slip_col){ext_text(&own->ext[i]), 18, box};
    /* Fixed columns, the same on every slip of the event (issue 24): Seat
     * and the format's boxes as wide as their heading's longest word (a
     * translation never breaks inside a word), the name takes the rest. */
    const char *seat = _("Seat"), *player = _("Player");
    put(o, "<colgroup>");
    col_for(o, 13, seat);
    put(o, "<col>");
    for (int i = 0; i < n; i++)
        col_for(o, col[i].mm, col[i].head);
    put(o, "</colgroup><tr>");
    th(o, NULL, seat);
    th(o, NULL, player);
    for (int i = 0; i < n; i++)
        th(o, NULL, col[i].head);
    put(o, "</tr>\n");
    for (int32_t s = 0; s < t->n_seats; s++) {
        putf(o, "<tr><td class=\"n\">%d</td><td>", (int)s + 1);
        player_cell(o, ev, t->seats[s]);
        if (t->first_seat == s)
            flag(o, _("starts"));
        if (t->side[s]) /* issue 19 */
            flag(o, t->side[s]);
        put(o, "<br>");
        extras(o, ev, t->seats[s]);
        put(o, "</td>");
        for (int i = 0; i < n; i++)
            put(o, col[i].cell);
        put(o, "</tr>\n");
    }
    put(o, "</table>\n");
    /* Under the table: the game's note, a blank after it, a box. */
    const bool tick =
        sl && sl->tick && (!sl->tick_if_draws || ev->format.draws);
    if (sl && (sl->note || tick))
        put(o, "<p class=\"more\">");
    if (sl && sl->note)
        html_text(o, _(sl->note));
    if (sl && sl->note && sl->note_blank)
        put(o, " ________ &nbsp;&nbsp; ");
    if (tick) {
        html_text(o, _(sl->tick));
        put(o, "&nbsp;&#9744;");
    }
    if (sl && (sl->note || tick))
        put(o, "</p>\n");
    for (int32_t i = 0; own && i < own->n_ext; i++) {
        const struct tny_result_ext *x = &own->ext[i];
        if (x->info.value == TNY_RV_PER_PLAYER)
            continue;
        put(o, "<p class=\"more\">");
        html_text(o, ext_text(x));
        put(o, x->info.value == TNY_RV_FLAG ? "&nbsp;&#9744;</p>\n"
                                            : " ________</p>\n");
    }
    put(o, "<div class=\"sig\">");
    for (int32_t s = 0; s < t->n_seats; s++) {
        put(o, "<div>");
        /* TRANSLATORS: the line a player signs the slip on; %s is the
           player's name. */
        text_with(o, _("Signature: %s"), ev->players[t->seats[s]].name);
        put(o, "</div>");
    }
    put(o, "</div>");
    /* issue 20: the table's sign-in code (the slip stays at the table) */
    const char *code = table_code(po, t->number);
    if (code) {
        put(o, "<div class=\"signin\">");
        if (code_qr(o, po, code, diag) < 0)
            o->rc = o->rc ? o->rc : TNY_EINVAL;
        put(o, "<div><span class=\"code\">");
        html_text(o, code);
        put(o, "</span>");
        /* TRANSLATORS: on a result slip and a table tent, beside the
           table's QR code and sign-in code. */
        const char *how = _("Scan to report your table's results, or open "
                            "%s and enter the code.");
        code_how(o, po, how);
        put(o, "</div></div>");
    }
    put(o, "</div>\n");
}

static void print_slips(struct out *o, const struct tny_event *ev,
                        const struct hub_print_round *pr, const char *stamp,
                        const struct hub_print_opts *po, struct tny_diag *diag)
{
    round_heading(o, ev, pr, _("Result slips"), stamp);
    for (int32_t i = 0; i < pr->n_tables; i++)
        if (!pr->tables[i].is_bye)
            slip(o, ev, pr, &pr->tables[i], po, diag);
}

static int code_by_table(const void *a, const void *b)
{
    const struct hub_print_code *x = *(const struct hub_print_code *const *)a;
    const struct hub_print_code *y = *(const struct hub_print_code *const *)b;
    return (x->table > y->table) - (x->table < y->table);
}

/* issue 20: one page per table code, folded into a tent: the table's
 * number, the QR code of its page, the code, how to use it. */
static int print_tents(struct out *o, const struct tny_event *ev,
                       const struct hub_print_opts *po, struct tny_diag *diag)
{
    const struct hub_print_code **by =
        calloc((size_t)po->n_codes + 1, sizeof *by);
    int32_t n = 0;
    int rc = TNY_OK;
    if (!by)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    for (int32_t i = 0; i < po->n_codes; i++)
        if (!po->codes[i].player && po->codes[i].table > 0)
            by[n++] = &po->codes[i];
    if (n == 0) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "no valid table code (tourney live code issue "
                          "EVENT TABLE issues one)");
        goto out;
    }
    qsort(by, (size_t)n, sizeof *by, code_by_table);
    for (int32_t i = 0; i < n && rc == TNY_OK; i++) {
        char tn[64];
        snprintf(tn, sizeof tn, _("Table %d"), (int)by[i]->table);
        put(o, "<div class=\"tent\" data-table=\"");
        putf(o, "%d\" data-code=\"", (int)by[i]->table);
        html_text(o, by[i]->code);
        put(o, "\">");
        for (int half = 0; half < 2 && rc == TNY_OK; half++) {
            put(o, half ? "<div class=\"half fold\">"
                        : "<div class=\"half top\">");
            put(o, "<p class=\"tn\">");
            html_text(o, tn);
            put(o, "</p>");
            rc = code_qr(o, po, by[i]->code, diag);
            put(o, "<div class=\"code\">");
            html_text(o, by[i]->code);
            put(o, "</div>");
            code_how(o, po,
                     _("Scan to report your table's results, or open %s "
                       "and enter the code."));
            put(o, "<p class=\"ev\">");
            html_text(o, event_title(ev));
            put(o, "</p></div>");
        }
        put(o, "</div>\n");
    }
out:
    free(by);
    return rc;
}

/* player_of(ev, id): the player's index, -1 if not in the event. */
static int32_t player_of(const struct tny_event *ev, const char *id)
{
    for (int32_t p = 0; p < ev->n_players; p++)
        if (ev->players[p].id && strcmp(ev->players[p].id, id) == 0)
            return p;
    return -1;
}

/* issue 20: the players' own codes as cards to cut out and hand over at
 * check-in: name, QR code, code, how to use it; sorted by name. */
static int print_codes(struct out *o, const struct tny_event *ev,
                       const struct hub_print_opts *po, struct tny_diag *diag)
{
    struct card {
        const struct hub_print_code *c;
        int32_t p;
        char key[160];
    } *cards = calloc((size_t)po->n_codes + 1, sizeof *cards);
    int32_t n = 0;
    int rc = TNY_OK;
    if (!cards)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    for (int32_t i = 0; i < po->n_codes; i++) {
        int32_t p =
            po->codes[i].player ? player_of(ev, po->codes[i].player) : -1;
        if (p < 0)
            continue;
        cards[n].c = &po->codes[i];
        cards[n].p = p;
        fold_key(ev->players[p].name ? ev->players[p].name : "", cards[n].key,
                 sizeof cards[n].key);
        n++;
    }
    if (n == 0) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "no valid player code (tourney live code player "
                          "EVENT issues them)");
        goto out;
    }
    for (int32_t i = 1; i < n; i++) /* by name (insertion: a few hundred) */
        for (int32_t j = i; j > 0 && strcmp(cards[j - 1].key, cards[j].key) > 0;
             j--) {
            struct card tmp = cards[j];
            cards[j] = cards[j - 1];
            cards[j - 1] = tmp;
        }
    put(o, "<h1>");
    html_text(o, event_title(ev));
    put(o, " &middot; ");
    html_text(o, _("Sign-in codes"));
    put(o, "</h1>\n<div class=\"cards\">\n");
    for (int32_t i = 0; i < n && rc == TNY_OK; i++) {
        put(o, "<div class=\"card\" data-player=\"");
        html_text(o, cards[i].c->player);
        put(o, "\" data-code=\"");
        html_text(o, cards[i].c->code);
        put(o, "\">");
        rc = code_qr(o, po, cards[i].c->code, diag);
        put(o, "<div class=\"who\"><p class=\"nm\">");
        html_text(o, ev->players[cards[i].p].name);
        put(o, "</p><div class=\"code\">");
        html_text(o, cards[i].c->code);
        put(o, "</div>");
        /* TRANSLATORS: on a player's card, beside their QR code and
           sign-in code. */
        const char *how = _("Scan to sign in on your phone: your table, "
                            "your results, check-in. Or open %s and enter "
                            "the code.");
        code_how(o, po, how);
        put(o, "<p class=\"ev\">");
        html_text(o, event_title(ev));
        put(o, "</p></div></div>\n");
    }
    put(o, "</div>\n");
out:
    free(cards);
    return rc;
}

/* tiebreak_label(tb): the column heading, as the rules write it (and in
 * the printout's language as that country's rules write it). */
static const char *tiebreak_label(enum tny_tiebreak tb)
{
    /* TRANSLATORS: the tiebreaks are the columns of the standings after
       the points; translate them with the words of the venue's rules
       (seeds 000-004): a column wraps, so full words are fine. */
    switch (tb) {
    /* TRANSLATORS: NH-6: total HQ difference (seed 000 "różnica
       wytrzymałości sztabów"). */
    case TNY_TB_HQ_DIFF: return _("HQ diff");
    /* TRANSLATORS: the result of the game between the tied players. */
    case TNY_TB_HEAD_TO_HEAD: return _("Head to head");
    /* TRANSLATORS: GT-4 strength of schedule (seed 003 "Siła Tabeli"). */
    case TNY_TB_SOS: return _("SoS");
    /* TRANSLATORS: GT-4 extended strength of schedule (seed 003
       "Rozszerzona Siła Tabeli"). */
    case TNY_TB_ESOS: return _("ESoS");
    /* TRANSLATORS: TX-8: tournament points in games among the tied
       players. */
    case TNY_TB_MINI_TP: return _("Mini-league TP");
    /* TRANSLATORS: TX-8: score difference in games among the tied
       players. */
    case TNY_TB_MINI_SCORE_DIFF: return _("Mini-league score diff");
    /* TRANSLATORS: TX-8: the player's game scores over the event. */
    case TNY_TB_TOTAL_SCORE: return _("Total score");
    /* TRANSLATORS: AG-6, AG-8 (seed 002 "relativ skår"). */
    case TNY_TB_RELATIVE_SCORE: return _("Relative score");
    /* TRANSLATORS: AG-8: the highest relative score in one game. */
    case TNY_TB_BEST_RELATIVE: return _("Best relative score");
    /* TRANSLATORS: AG-13: the highest relative score in one preliminary
       game. */
    case TNY_TB_BEST_PRELIM_RELATIVE: return _("Best prelim relative score");
    /* TRANSLATORS: AG-13: the place in the last final game. */
    case TNY_TB_FINAL_PLACEMENT: return _("Final placement");
    /* TRANSLATORS: CT-5 (seed 004 "úspěšnost"), a percentage. */
    case TNY_TB_SUCCESS_RATE: return _("Success rate");
    /* TRANSLATORS: CT-4 (seed 004 "herní body"). */
    case TNY_TB_GAME_POINTS: return _("Game points");
    /* TRANSLATORS: TX-8: number of games won. */
    case TNY_TB_WINS: return _("Wins");
    /* TRANSLATORS: CT-7: number of first places (seed 004 "počet prvních
       míst"). */
    case TNY_TB_FIRSTS: return _("Firsts");
    case TNY_TB_SECONDS: return _("Seconds");
    case TNY_TB_THIRDS: return _("Thirds");
    /* TRANSLATORS: the last tiebreak: drawing lots. */
    case TNY_TB_LOT: return _("Lot");
    /* TRANSLATORS: margin of victory (X-Wing). */
    case TNY_TB_MOV: return _("MoV");
    /* TRANSLATORS: opponents' win percentage. */
    case TNY_TB_OWP: return _("OWP");
    case TNY_TB_BUCHHOLZ: return _("Buchholz");
    case TNY_TB_MEDIAN_BUCHHOLZ: return _("Median Buchholz");
    default: break;
    }
    return tny_tiebreak_name(tb);
}

/* number(o, v): at most two decimals, no trailing zeros, in the
 * printout's language. */
static void number(struct out *o, double v)
{
    char b[80];
    hub_lang_number(v, b, sizeof b);
    put(o, b);
}

/* event_finished(ev): every stage has been played: no round in
 * progress, and the pairing engine says the event is complete. */
static bool event_finished(const struct tny_event *ev)
{
    struct tny_round_plan plan;
    struct tny_diag d = {{0}};
    if (ev->n_rounds == 0 || round_in_progress(&ev->rounds[ev->n_rounds - 1]))
        return false;
    memset(&plan, 0, sizeof plan);
    int rc = tny_pair_next(ev, &plan, &d);
    if (rc == TNY_OK)
        tny_round_plan_release(&plan);
    return rc == TNY_ESTATE;
}

static int print_standings(struct out *o, const struct tny_event *ev,
                           const struct hub_print_opts *po, const char *stamp,
                           struct tny_diag *diag)
{
    char buf[300];
    struct tny_standings st;
    memset(&st, 0, sizeof st);
    int rc = po->round > 0 ? tny_standings_compute_at(ev, po->round, &st, diag)
                           : tny_standings_compute(ev, &st, diag);
    if (rc < 0)
        return rc;
    if (po->what == HUB_PRINT_FINAL && !event_finished(ev)) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "%s is not finished (rounds played: %d): no final "
                          "classification yet; `print standings` prints the "
                          "standings so far",
                          event_title(ev), (int)ev->n_rounds);
        tny_standings_release(&st);
        return rc;
    }
    put(o, "<h1>");
    html_text(o, event_title(ev));
    put(o, "</h1><p class=\"sub\">");
    if (po->what == HUB_PRINT_FINAL) {
        /* TRANSLATORS: the title of the final standings (seed 000
           "końcowa klasyfikacja turnieju"). */
        html_text(o, _("Final classification"));
        put(o, " &middot; ");
        snprintf(buf, sizeof buf,
                 ngettext("%d player", "%d players", (unsigned long)st.n_rows),
                 (int)st.n_rows);
        html_text(o, buf);
    } else if (st.after_round > 0) {
        /* TRANSLATORS: the round's number, then the stage's name. */
        snprintf(buf, sizeof buf, _("Standings after round %d (%s)"),
                 (int)st.after_round, stage_label(ev, st.stage));
        html_text(o, buf);
    } else {
        html_text(o, _("Standings: no round complete yet"));
    }
    sub_line_end(o, stamp);
    put(o, "<table class=\"list\"><thead><tr>");
    /* TRANSLATORS: the heading of the place column of the standings. */
    th(o, "n", _("Rank"));
    th(o, "pl", _("Player"));
    /* TRANSLATORS: the column of the standings' points: the points the
       rules rank by (seed 000 "Punkty Turniejowe", seed 001
       "versenypont", seed 002 "turneringspoeng", seed 004 "body"). */
    th(o, "n", _("Points"));
    for (int32_t k = 0; k < st.n_tiebreaks; k++)
        if (st.tiebreaks[k] != TNY_TB_LOT)
            th(o, "n", tiebreak_label(st.tiebreaks[k]));
    put(o, "</tr></thead><tbody>\n");
    for (int32_t i = 0; i < st.n_rows; i++) {
        const struct tny_standing_row *r = &st.rows[i];
        putf(o, "<tr><td class=\"n t\">%d</td><td>", (int)r->rank);
        player_cell(o, ev, r->player);
        if (r->disqualified)
            /* TRANSLATORS: CM-3, beside the name in the standings. */
            flag(o, _("disqualified"));
        else if (r->dropped)
            /* TRANSLATORS: CM-2: left the event, beside the name. */
            flag(o, _("dropped"));
        put(o, "</td><td class=\"n\"><b>");
        number(o, (double)r->points / TNY_POINT_SCALE);
        put(o, "</b></td>");
        for (int32_t k = 0; k < st.n_tiebreaks; k++) {
            if (st.tiebreaks[k] == TNY_TB_LOT)
                continue;
            put(o, "<td class=\"n\">");
            if (r->has_tiebreak[k] &&
                (st.tiebreaks[k] == TNY_TB_SUCCESS_RATE ||
                 st.tiebreaks[k] == TNY_TB_OWP)) { /* CT-5: per cent */
                hub_lang_percent(r->tiebreaks[k], buf, sizeof buf);
                html_text(o, buf);
            } else if (r->has_tiebreak[k])
                number(o, r->tiebreaks[k]);
            else
                put(o, "&ndash;");
            put(o, "</td>");
        }
        put(o, "</tr>\n");
    }
    put(o, "</tbody></table>\n");
    tny_standings_release(&st);
    return TNY_OK;
}

int hub_print_what_from_name(const char *name, enum hub_print_what *out)
{
    static const char *const names[] = {"pairings", "slips", "standings",
                                        "final",    "tents", "codes"};
    for (int i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (enum hub_print_what)i;
            return TNY_OK;
        }
    return TNY_ENOTFOUND;
}

/* print_stamp(buf, size): when this printout is made, in its language:
 * now (local time), or $SOURCE_DATE_EPOCH (UTC) for a printout that is
 * the same on every run (reproducible-builds.org; the tests use it). */
static void print_stamp(char *buf, size_t size)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    long long v = sde && *sde ? strtoll(sde, &end, 10) : -1;
    if (end && !*end && v >= 0)
        hub_lang_date((time_t)v, true, buf, size);
    else
        hub_lang_date(time(NULL), false, buf, size);
}

/* event_language(ev): the event's "language" (issue 21), NULL if unset. */
static const char *event_language(const struct tny_event *ev)
{
    return ev->language[0] ? ev->language : NULL;
}

int hub_print_html(const struct tny_event *ev, const struct hub_print_opts *po,
                   char **html, struct tny_diag *diag)
{
    struct out o = {0};
    struct hub_print_round pr;
    struct hub_lang_saved saved;
    char lang[TNY_LANGUAGE_MAX], stamp[160];
    int rc = TNY_OK;
    memset(&pr, 0, sizeof pr);
    *html = NULL;
    hub_lang_pick(po->lang, event_language(ev), lang, sizeof lang);
    hub_lang_enter(lang, &saved);
    const char *const titles[] = {_("Pairings"),    _("Result slips"),
                                  _("Standings"),   _("Final classification"),
                                  _("Table tents"), _("Sign-in codes")};
    print_stamp(stamp, sizeof stamp);
    head(&o, ev, po, lang, titles[po->what]);
    switch (po->what) {
    case HUB_PRINT_PAIRINGS:
    case HUB_PRINT_SLIPS:
        if (po->held) { /* live: the hub's round as it is */
            pr = *po->held;
            pr.tables = calloc((size_t)pr.n_tables + 1, sizeof *pr.tables);
            if (!pr.tables) {
                rc = TNY_ENOMEM;
                goto out;
            }
            memcpy(pr.tables, po->held->tables,
                   sizeof *pr.tables * (size_t)pr.n_tables);
        } else if ((rc = pick_round(ev, po->round, &pr, diag)) < 0) {
            goto out;
        }
        if (po->what == HUB_PRINT_PAIRINGS)
            rc = print_pairings(&o, ev, hub_names_family_first(lang), &pr,
                                stamp);
        else
            print_slips(&o, ev, &pr, stamp, po, diag);
        break;
    case HUB_PRINT_TENTS:
    case HUB_PRINT_CODES:
        if (!po->url) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "--url is required for %s (the phone page, "
                              "e.g. http://HUB:9002/play.html)",
                              po->what == HUB_PRINT_TENTS ? "tents" : "codes");
            goto out;
        }
        rc = po->what == HUB_PRINT_TENTS ? print_tents(&o, ev, po, diag)
                                         : print_codes(&o, ev, po, diag);
        break;
    case HUB_PRINT_STANDINGS:
    case HUB_PRINT_FINAL:
        if (po->round < 0 || po->round > ev->n_rounds) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "--round %d: the event has rounds 1..%d",
                              (int)po->round, (int)ev->n_rounds);
            goto out;
        }
        rc = print_standings(&o, ev, po, stamp, diag);
        break;
    }
    if (rc < 0)
        goto out;
    put(&o, "</body></html>\n");
    if (o.rc) {
        rc = tny_diag_set(diag, o.rc,
                          o.rc == TNY_ERANGE ? "printout larger than %u bytes"
                                             : "out of memory",
                          PRINT_MAX_BYTES);
        goto out;
    }
    *html = o.buf;
    o.buf = NULL;
out:
    if (rc == TNY_ENOMEM && !diag->msg[0])
        tny_diag_set(diag, rc, "out of memory");
    free(pr.tables);
    free(o.buf);
    hub_lang_leave(&saved);
    return rc;
}

/* ---- output -------------------------------------------------------------- */

static char *find_chromium(void)
{
    const char *env = getenv("TOURNEY_CHROMIUM");
    if (env && *env)
        return strdup(env);
    const char *path = getenv("PATH");
    static const char *const names[] = {"chromium", "chromium-browser"};
    if (!path)
        path = "/usr/bin:/bin";
    for (size_t i = 0; i < 2; i++) {
        const char *p = path;
        while (*p) {
            const char *colon = strchr(p, ':');
            size_t dl = colon ? (size_t)(colon - p) : strlen(p);
            char cand[4096];
            if (dl > 0 && dl + strlen(names[i]) + 2 < sizeof cand) {
                snprintf(cand, sizeof cand, "%.*s/%s", (int)dl, p, names[i]);
                if (access(cand, X_OK) == 0)
                    return strdup(cand);
            }
            p = colon ? colon + 1 : p + dl;
        }
    }
    return NULL;
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

static void remove_tree(const char *dir)
{
    /* Chromium's profile: remove it with rm -rf (not worth a recursive
     * walk here); the path is our own mkdtemp result. */
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", 0);
        if (fd >= 0) {
            dup2(fd, 2);
            dup2(fd, 1);
        }
        execlp("rm", "rm", "-rf", "--", dir, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
}

/* to_pdf(html, pdf, diag): headless Chromium prints html (written to a
 * private temporary directory) to a new file beside pdf, which then
 * replaces pdf (rename): pdf is never lost to a print that failed. */
static int to_pdf(const char *html, const char *pdf, struct tny_diag *diag)
{
    char dir[512], file[600], profile[600], arg_pdf[4200], arg_prof[640];
    char url[640], temp_pdf[4150] = "";
    char *chromium = find_chromium();
    int rc = TNY_OK, fd = -1;
    bool made = false;
    if (!chromium)
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "--pdf needs Chromium: apt-get install chromium "
                            "(or set TOURNEY_CHROMIUM to its path)");
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tourney-print-XXXXXX",
             tmp && *tmp && strlen(tmp) < 400 ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "cannot make a temporary directory: %s",
                          strerror(errno));
        goto out;
    }
    made = true;
    snprintf(file, sizeof file, "%s/print.html", dir);
    snprintf(profile, sizeof profile, "%s/profile", dir);
    fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || write_all(fd, html, strlen(html)) < 0 || close(fd) < 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "cannot write %s: %s", file,
                          strerror(errno));
        goto out;
    }
    if (strlen(pdf) > 4000) {
        rc = tny_diag_set(diag, TNY_EINVAL, "--pdf: file name too long");
        goto out;
    }
    /* Chromium prints into a new file beside pdf, renamed over pdf only
     * once it printed (issue 22): a failed print leaves an existing pdf
     * as it was.  A relative --pdf is the caller's, not Chromium's working
     * directory. */
    {
        char cwd[2048] = "", at[4100];
        const char *slash = strrchr(pdf, '/');
        if (pdf[0] != '/' && !getcwd(cwd, sizeof cwd)) {
            rc = tny_diag_set(diag, TNY_ESTATE, "getcwd: %s", strerror(errno));
            goto out;
        }
        snprintf(at, sizeof at, "%s%s%.*s", cwd, cwd[0] ? "/" : "",
                 slash ? (int)(slash - pdf + 1) : 0, pdf);
        snprintf(temp_pdf, sizeof temp_pdf, "%s.tourney-print-XXXXXX", at);
        int tfd = mkstemp(temp_pdf);
        if (tfd < 0) {
            rc = tny_diag_set(diag, TNY_ESTATE, "cannot write beside %s: %s",
                              pdf, strerror(errno));
            temp_pdf[0] = '\0';
            goto out;
        }
        mode_t mask = umask(0); /* the PDF as a plain new file would be */
        umask(mask);
        (void)fchmod(tfd, 0666 & ~mask);
        close(tfd);
        snprintf(arg_pdf, sizeof arg_pdf, "--print-to-pdf=%s", temp_pdf);
    }
    snprintf(arg_prof, sizeof arg_prof, "--user-data-dir=%s", profile);
    snprintf(url, sizeof url, "file://%s", file);
    pid_t pid = fork();
    if (pid < 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 1);
            dup2(nul, 2);
        }
        execl(chromium, chromium, "--headless", "--no-sandbox", "--disable-gpu",
              "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-pdf-header-footer", arg_prof, arg_pdf,
              url, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    time_t end = time(NULL) + CHROMIUM_TIMEOUT_S;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = -1;
            break;
        }
        if (time(NULL) > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            rc = tny_diag_set(diag, TNY_ESTATE,
                              "%s took more than %d s to "
                              "print the PDF",
                              chromium, CHROMIUM_TIMEOUT_S);
            goto out;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    struct stat sb;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        stat(temp_pdf, &sb) < 0 || sb.st_size == 0)
        rc = tny_diag_set(
            diag, TNY_ESTATE, "%s did not print %s (exit %d)%s", chromium, pdf,
            WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            access(pdf, F_OK) == 0 ? "; it is left as it was" : "");
    else if (rename(temp_pdf, pdf) < 0)
        rc = tny_diag_set(diag, TNY_ESTATE, "cannot write %s: %s", pdf,
                          strerror(errno));
    else
        temp_pdf[0] = '\0'; /* it is pdf now */
out:
    if (temp_pdf[0])
        unlink(temp_pdf);
    if (made)
        remove_tree(dir);
    free(chromium);
    return rc;
}

int hub_print_output(const char *html, const struct hub_print_opts *po,
                     struct tny_diag *diag)
{
    if (po->pdf)
        return to_pdf(html, po->pdf, diag);
    if ((fputs(html, stdout) == EOF || fflush(stdout) == EOF) &&
        !tny_cli_reader_gone(stdout, errno))
        return tny_diag_set(diag, TNY_ESTATE, "cannot write output: %s",
                            strerror(errno));
    return TNY_OK;
}

/* ---- tourney print ------------------------------------------------------ */

static void print_usage(FILE *to)
{
    fputs("usage: tourney print pairings|slips|standings|final EVENT.json "
          "[--round N] [--pdf FILE] [--paper a4|letter] [--lang LANG]\n"
          "  pairings, slips: the round in progress, else the next round "
          "(a draft); --round N: that round\n"
          "  standings: after the completed rounds (--round N: after round "
          "N); final: the final classification\n"
          "  HTML on stdout; --pdf FILE: a PDF made by headless Chromium\n"
          "  --lang LANG: the printout's language (en, pl, hu, nb, cs); "
          "default: the event's\n"
          "  \"language\", else the locale's, else en\n",
          to);
}

int hub_print_option(const char *name, const char *value,
                     struct hub_print_opts *po, struct tny_diag *diag)
{
    if (strcmp(name, "round") == 0) {
        char *end;
        errno = 0;
        long r = strtol(value, &end, 10);
        if (errno || *end || end == value || r < 1 || r > 100000)
            return tny_diag_set(diag, TNY_EINVAL,
                                "--round: expected a round number 1.., got "
                                "\"%s\"",
                                value);
        po->round = (int32_t)r;
    } else if (strcmp(name, "pdf") == 0) {
        if (!*value)
            return tny_diag_set(diag, TNY_EINVAL,
                                "--pdf: expected a file name");
        po->pdf = value;
    } else if (strcmp(name, "lang") == 0) {
        if (tny_language_check("--lang", value, diag) < 0)
            return TNY_EINVAL;
        po->lang = value;
    } else if (strcmp(name, "url") == 0) {
        /* issue 20: the phone page the QR codes open, printed as text
         * and put in a URL: nothing that ends or breaks either ('#'
         * would hide the code from the page's query) */
        size_t scheme = strncmp(value, "http://", 7) == 0    ? 7
                        : strncmp(value, "https://", 8) == 0 ? 8
                                                             : 0;
        const char *bad =
            value + scheme + strcspn(value + scheme, " \"'<>`#\\");
        for (const char *c = value; c < bad; c++)
            if ((unsigned char)*c < 0x21 || (unsigned char)*c == 0x7f) {
                bad = c;
                break;
            }
        if (!scheme || !value[scheme] || value[scheme] == '/')
            return tny_diag_set(diag, TNY_EINVAL,
                                "--url: expected the phone page's address, "
                                "http://HOST[:PORT]/play.html (or https://), "
                                "got \"%.200s\"",
                                value);
        if (*bad)
            return tny_diag_set(diag, TNY_EINVAL,
                                "--url: no spaces, quotes, angle brackets, "
                                "backquotes, backslashes, '#' or control "
                                "characters, got \"%.200s\"",
                                value);
        if (strlen(value) > 1000)
            return tny_diag_set(diag, TNY_EINVAL,
                                "--url: longer than 1000 bytes");
        po->url = value;
    } else if (strcmp(name, "paper") == 0) {
        if (strcmp(value, "a4") == 0 || strcmp(value, "A4") == 0)
            po->letter = false;
        else if (strcmp(value, "letter") == 0)
            po->letter = true;
        else
            return tny_diag_set(diag, TNY_EINVAL,
                                "--paper: expected a4 or letter, got \"%s\"",
                                value);
    } else {
        return tny_diag_set(diag, TNY_EINVAL, "unknown option \"--%s\"", name);
    }
    return TNY_OK;
}

int tny_cli_print(int argc, char **argv)
{
    struct hub_print_opts po = {.what = HUB_PRINT_PAIRINGS};
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    char *html = NULL, *text = NULL;
    FILE *f = NULL;
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0, status = 2;
    tny_event_init(&ev);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_usage(stdout);
            return 0;
        }
        if (strncmp(a, "--", 2) == 0 && a[2]) {
            char name[32];
            const char *eq = strchr(a, '=');
            size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (nl >= sizeof name || !value) {
                fprintf(stderr,
                        "tourney print: %s: %s (try tourney print "
                        "--help)\n",
                        a, value ? "unknown option" : "expected a value");
                return 2;
            }
            memcpy(name, a + 2, nl);
            name[nl] = '\0';
            if (hub_print_option(name, value, &po, &diag) < 0) {
                fprintf(stderr,
                        "tourney print: %s (try tourney print --help)\n",
                        diag.msg);
                return 2;
            }
            continue;
        }
        if (n_pos == 2) {
            fprintf(stderr, "tourney print: unexpected argument \"%s\"\n", a);
            return 2;
        }
        pos[n_pos++] = a;
    }
    if (n_pos < 2) {
        print_usage(stderr);
        return 2;
    }
    if (hub_print_what_from_name(pos[0], &po.what) < 0) {
        fprintf(stderr,
                "tourney print: unknown printout \"%s\" (expected "
                "pairings, slips, standings or final)\n",
                pos[0]);
        return 2;
    }
    if (po.what == HUB_PRINT_TENTS || po.what == HUB_PRINT_CODES) {
        fprintf(stderr,
                "tourney print: %s need the hub's sign-in codes: "
                "tourney live print EVENT_ID %s --url URL\n",
                pos[0], pos[0]);
        return 2;
    }
    struct stat in_st, pdf_st;
    if (po.pdf && strcmp(pos[1], "-") != 0 && stat(pos[1], &in_st) == 0 &&
        stat(po.pdf, &pdf_st) == 0 && in_st.st_dev == pdf_st.st_dev &&
        in_st.st_ino == pdf_st.st_ino) { /* issue 22 */
        fprintf(stderr,
                "tourney print: --pdf %s is the event file being printed: "
                "give the PDF another name\n",
                po.pdf);
        return 2;
    }
    f = strcmp(pos[1], "-") == 0 ? stdin : fopen(pos[1], "rb");
    if (!f) {
        fprintf(stderr, "tourney: cannot read %s: %s\n", pos[1],
                strerror(errno));
        return 2;
    }
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            if (cap >= TNY_JSON_MAX_BYTES) {
                fprintf(stderr, "tourney: %s: larger than %u bytes\n", pos[1],
                        TNY_JSON_MAX_BYTES);
                goto out;
            }
            char *nt = realloc(text, cap + 65536 + 1);
            if (!nt) {
                fprintf(stderr, "tourney: out of memory\n");
                status = 1;
                goto out;
            }
            text = nt;
            cap += 65536;
        }
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "tourney: cannot read %s: %s\n", pos[1],
                strerror(errno));
        goto out;
    }
    text[len] = '\0';
    int rc = tny_event_from_json_text(text, len, &ev, &diag);
    if (rc < 0) {
        fprintf(stderr, "%s\n", diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = rc == TNY_ENOMEM ? 1 : 3;
        goto out;
    }
    rc = hub_print_html(&ev, &po, &html, &diag);
    if (rc < 0) {
        fprintf(stderr, "tourney print: %s\n",
                diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = rc == TNY_ENOMEM ? 1 : rc == TNY_EINVAL ? 2 : 3;
        goto out;
    }
    rc = hub_print_output(html, &po, &diag);
    if (rc < 0) {
        fprintf(stderr, "tourney print: %s\n", diag.msg);
        status = rc == TNY_ENOTFOUND ? 2 : 1;
        goto out;
    }
    if (po.pdf)
        fprintf(stderr, "tourney print: wrote %s\n", po.pdf);
    status = 0;
out:
    if (f && f != stdin)
        fclose(f);
    free(text);
    free(html);
    tny_event_release(&ev);
    return status;
}
