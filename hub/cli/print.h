/* print.h - printouts for the venue: pairings (by table and by name),
 * result slips (one per table, the format's fields, signature lines),
 * standings with tiebreak values and the final classification, as HTML
 * with print CSS (A4 or Letter), and made into PDF by headless Chromium.
 * `tourney print ...` (offline, an event file) and `tourney live print
 * ...` (the hub's export, and for pairings and slips the round the hub
 * holds) share it.  See print.c. */
#ifndef TNY_CLI_PRINT_H
#define TNY_CLI_PRINT_H
#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"

enum hub_print_what {
    HUB_PRINT_PAIRINGS,
    HUB_PRINT_SLIPS,
    HUB_PRINT_STANDINGS,
    HUB_PRINT_FINAL,
    HUB_PRINT_TENTS, /* issue 20: a table tent per table code (live only) */
    HUB_PRINT_CODES, /* issue 20: the players' codes as cards (live only) */
};

/* A sign-in code of the event (the hub's `code list`, valid ones only). */
struct hub_print_code {
    const char *code;   /* as the page shows it: "K7QX-M3PA" */
    int32_t table;      /* a table code's table */
    const char *player; /* a player code's player id; NULL: a table code */
};

/* One table of the round printed: the event's player indexes by seat. */
struct hub_print_table {
    int32_t number;
    bool is_bye;
    int32_t n_seats;
    int32_t seats[TNY_MAX_SEATS];
    int32_t first_seat;              /* AG-4, -1 unknown */
    const char *side[TNY_MAX_SEATS]; /* issue 19: the seat's side, or NULL */
};

/* Where the round printed comes from: its banner says so. */
enum hub_print_origin {
    HUB_PRINT_FILE_ROUND, /* a round of the event file */
    HUB_PRINT_PLANNED,    /* offline: the next round planned from the file */
    HUB_PRINT_HUB_DRAFT,  /* live: the hub's draft, not published */
    HUB_PRINT_HUB_ROUND,  /* live: a round the hub sent to the tables */
};

/* The round of pairings and slips. */
struct hub_print_round {
    int32_t round;
    enum tny_stage_kind stage;
    enum hub_print_origin origin;
    int32_t n_tables;
    struct hub_print_table *tables; /* heap (hub_print_round_release) */
};

struct hub_print_opts {
    enum hub_print_what what;
    int32_t round;    /* pairings/slips: 0 = the round in progress, else the
                         next one; standings: after this round (0 = all) */
    const char *pdf;  /* NULL: HTML on stdout; else the PDF file to write */
    bool letter;      /* US Letter paper (else A4) */
    const char *lang; /* --lang: the printout's language (a shipped code),
                         NULL: the event's, else the locale's, else en */
    const char *url;  /* --url: the phone page (play.html), for the codes'
                         QR codes; NULL: no codes on slips */
    const struct hub_print_code *codes; /* tents, codes, slips with url */
    int32_t n_codes;
    /* live: the round the hub holds (hub_print_round_from_seating),
     * printed as it is for pairings and slips (round is then unused);
     * NULL: the round picked from the event, or planned (offline) */
    const struct hub_print_round *held;
};

struct tny_wire_seating;

/* hub_print_round_from_seating(ev, s, out, diag): the hub's reply to
 * `round show` (its draft, or a round it sent to the tables) as the
 * round to print, on ev (the hub's export: every player of s must be one
 * of ev's); a round of ev with the same seats lends its sides.  Release
 * with hub_print_round_release.  Errors: TNY_ESTATE (a player not in the
 * export, a table with no seat or too many: diag says which),
 * TNY_ENOMEM. */
TNY_MUST_USE int hub_print_round_from_seating(const struct tny_event *ev,
                                              const struct tny_wire_seating *s,
                                              struct hub_print_round *out,
                                              struct tny_diag *diag);
void hub_print_round_release(struct hub_print_round *r);

/* hub_print_what_from_name(name, out): "pairings", "slips", "standings",
 * "final", "tents", "codes"; TNY_ENOTFOUND for anything else. */
TNY_MUST_USE int hub_print_what_from_name(const char *name,
                                          enum hub_print_what *out);

/* hub_print_html(ev, o, html, diag): the printout as one HTML document
 * (heap, the caller frees), in its language (o->lang, the event's, the
 * locale's, en: the process's language is put back before it returns).  Errors:
 * TNY_EINVAL (--round out of range; tents or codes without --url),
 * TNY_ESTATE (no round to print, the event is not finished for "final",
 * no valid code for tents or codes; diag says which), TNY_ENOMEM; the pairing
 * engine's errors when the next round is planned. */
TNY_MUST_USE int hub_print_html(const struct tny_event *ev,
                                const struct hub_print_opts *o, char **html,
                                struct tny_diag *diag);

/* hub_print_output(html, o, diag): html to stdout, or (o->pdf) to a PDF
 * through headless Chromium ($TOURNEY_CHROMIUM, else chromium or
 * chromium-browser on PATH).  Errors: TNY_ENOTFOUND (no Chromium),
 * TNY_ESTATE (writing failed, Chromium failed or made no PDF). */
TNY_MUST_USE int hub_print_output(const char *html,
                                  const struct hub_print_opts *o,
                                  struct tny_diag *diag);

/* hub_print_option(name, value, po, diag): one option ("round", "pdf",
 * "paper", "lang", "url": http:// or https://, no space, quote, angle
 * bracket, backquote or '#') into po.  Errors: TNY_EINVAL (unknown option or
 * bad value, diag names it). */
TNY_MUST_USE int hub_print_option(const char *name, const char *value,
                                  struct hub_print_opts *po,
                                  struct tny_diag *diag);

/* argv[0] is "print": `tourney print WHAT EVENT.json [--round N] [--pdf
 * FILE] [--paper a4|letter] [--lang LANG]`; returns the process exit status (0
 * ok, 1 internal or PDF failure, 2 usage, 3 invalid event or nothing to print).
 */
int tny_cli_print(int argc, char **argv);

#endif
