/* flow_tx.c - Tantrix table flows (TX-1..TX-5, TX-10, TX-11).
 *
 * PREGAME: the colours to use from the seats' registered preferences
 * (tny_tx_colours), then the tile draw (typed numbers or the table's lot;
 * equal numbers draw again) and who starts the clocks.  TIMEOUT: the
 * format's text with the chess clock's readings.  RESULT: scores and clock
 * times (pre-filled from the chess clock) with the TX-3 penalty and the TP
 * previewed, a TX-5 default win, or seed 001 section 13's board that
 * cannot be restored: a draw, or a restart when the two clocks together
 * show at most 10 minutes (then no result).  [decision] A TX-4 organiser's
 * decision is not offered: the players are told to ask the organiser, who
 * enters it at the console (the hub refuses it from a table).
 *
 * Not here: the TP arithmetic (score.c), the clock itself (tablewatch.c).
 */
#include "flow_kit.h"
#include "i18n.h"

#include <stdio.h>
#include <strings.h>

#include "tny/clock.h"
#include "tny/procedure.h"
#include "tny/score.h"

/* Typed tile draws before the table's lot decides (equal numbers cannot
 * happen with one set; a table typing them again and again is stuck). */
#define MAX_DRAWS 8
/* Longest clock reading a result may carry, in whole minutes: the TX-3
 * range of result_schema.h (4 h). */
static int32_t max_clock_min(const struct tbl_flow_run *r)
{
    int64_t lo, hi;

    tny_result_range(r->fmt, TNY_RF_CLOCK_MS, &lo, &hi);
    return (int32_t)(hi / 60000);
}
/* Seed 001 s13: "kivéve, ha a két játékos együttes ideje nem haladja meg a
 * 10 percet" (unless the two players' time together is at most 10 min). */
#define RESTART_MAX_MS (10 * 60000)

/* TP in TNY_POINT_SCALE units as "15.3". */
static const char *tp_text(int64_t units, char *buf, size_t n)
{
    int64_t tenths = units * 10 / TNY_POINT_SCALE;

    /* TRANSLATORS: tournament points with one decimal (15.3): write your
     * language's decimal separator in place of the point. */
    snprintf(buf, n, _("%s%lld.%lld"), tenths < 0 ? "-" : "",
             (long long)(tenths < 0 ? -tenths : tenths) / 10,
             (long long)(tenths < 0 ? -tenths : tenths) % 10);
    return buf;
}

static const char *clock_text(int64_t ms, char *buf, size_t n)
{
    snprintf(buf, n, "%lld:%02lld", (long long)(ms / 60000),
             (long long)(ms / 1000 % 60));
    return buf;
}

static enum tny_tx_colour colour_of(const char *name)
{
    for (int c = TNY_TX_RED; c <= TNY_TX_WHITE; c++)
        if (strcasecmp(name, tny_tx_colour_name((enum tny_tx_colour)c)) == 0)
            return (enum tny_tx_colour)c;
    return TNY_TX_NONE;
}

static const char *colour_or_free(enum tny_tx_colour c)
{
    return c == TNY_TX_NONE ? _("any colour the other does not use")
                            : gettext(tny_tx_colour_name(c));
}

/* TX-10: the colours shown at the table. */
static bool colours(struct tbl_flow_run *r)
{
    struct tny_tx_colour_pref pref[2];
    struct tny_tx_colours out;
    struct tny_diag d;

    for (int32_t p = 0; p < 2; p++) {
        const struct tny_wire_seat *s = &r->f->a->seats[p];
        pref[p].first = s->n_colours > 0 ? colour_of(s->colours[0]) : 0;
        pref[p].second = s->n_colours > 1 ? colour_of(s->colours[1]) : 0;
        pref[p].colour_blind = s->colour_blind;
    }
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Colours (TX-10)");
    if (tny_tx_colours(&pref[0], &pref[1], &out, &d) < 0) {
        /* Registrations the engine cannot read: the players agree. */
        tbl_flow__text(r, "Agree on colours; if you do not, the organiser "
                          "decides.");
        tbl_flow__line(r, "Colours: agree, else the organiser (TX-10)");
        return tbl_flow__info(r);
    }
    if (out.colour_blind_set)
        tbl_flow__text(r, "Use the colour-blind set (white replaces "
                          "green).\n");
    switch (out.outcome) {
    case TNY_TX_COLOURS_SET:
        for (int32_t p = 0; p < 2; p++)
            tbl_flow__text(r, "%s plays %s.\n", tbl_flow__name(r, p),
                           colour_or_free(out.colour[p]));
        tbl_flow__line(r, "Colours: %s %s, %s %s (TX-10)", tbl_flow__name(r, 0),
                       gettext(tny_tx_colour_name(out.colour[0])),
                       tbl_flow__name(r, 1),
                       gettext(tny_tx_colour_name(out.colour[1])));
        break;
    case TNY_TX_COLOURS_AGREE_ELSE:
        tbl_flow__text(r,
                       "Same first preference: agree on colours; if you "
                       "do not, %s plays %s and %s plays %s.",
                       tbl_flow__name(r, 0), colour_or_free(out.colour[0]),
                       tbl_flow__name(r, 1), colour_or_free(out.colour[1]));
        tbl_flow__line(
            r, "Colours: agree, else %s %s, %s %s (TX-10)",
            tbl_flow__name(r, 0), gettext(tny_tx_colour_name(out.colour[0])),
            tbl_flow__name(r, 1), gettext(tny_tx_colour_name(out.colour[1])));
        break;
    case TNY_TX_COLOURS_AGREE_OR_ORGANISER:
        tbl_flow__text(r, "Agree on colours; if you do not, the organiser "
                          "decides.");
        tbl_flow__line(r, "Colours: agree, else the organiser (TX-10)");
        break;
    case TNY_TX_COLOURS_CHOOSER:
        tbl_flow__text(r,
                       "%s chooses both colours (the other player is "
                       "colour blind).",
                       tbl_flow__name(r, out.chooser));
        tbl_flow__line(r, "Colours: %s chooses both, colour-blind set (TX-10)",
                       tbl_flow__name(r, out.chooser));
        break;
    }
    return tbl_flow__info(r);
}

/* TX-11: tiles drawn, typed or by the table's lot; *starter, tiles[]. */
static bool tile_draw(struct tbl_flow_run *r, int32_t *starter,
                      int32_t tiles[2])
{
    int32_t how, draws = 0;
    struct tny_diag d;

    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Start (TX-11)");
    tbl_flow__text(r, "Each player draws a tile; the higher number starts.");
    tbl_flow__option(r, "Draw tiles, type the numbers");
    tbl_flow__option(r, "The table draws for us (lot)");
    if (!tbl_flow__ask(r, &how))
        return false;
    *starter = -1;
    while (*starter < 0 && how == 0 && draws++ < MAX_DRAWS) {
        for (int32_t p = 0; p < 2; p++) {
            tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): tile number",
                           tbl_flow__name(r, p), (int)p + 1);
            tbl_flow__text(r, "The number on the back of the tile drawn "
                              "(TX-11).");
            tbl_flow__range(r, 1, TNY_TX_TILES);
            if (!tbl_flow__ask(r, &tiles[p]))
                return false;
        }
        if (tny_tx_starter(tiles[0], tiles[1], starter, &d) < 0)
            return tbl_flow__refuse(r, TNY_ERANGE, "%s", d.msg);
        if (*starter >= 0)
            break;
        tbl_flow__step(r, TBL_ASK_INFO, -1, "Equal numbers");
        tbl_flow__text(r, "Both drew %d: draw again (TX-11).", (int)tiles[0]);
        if (draws == MAX_DRAWS)
            tbl_flow__text(r, "\nThe table draws by lot now.");
        if (!tbl_flow__info(r))
            return false;
    }
    if (*starter < 0) { /* the table's lot: two distinct tiles */
        tiles[0] = 1 + (int32_t)tny_rng_below(&r->rng, TNY_TX_TILES);
        tiles[1] = 1 + (int32_t)tny_rng_below(&r->rng, TNY_TX_TILES - 1);
        if (tiles[1] >= tiles[0])
            tiles[1]++;
        *starter = tiles[0] > tiles[1] ? 0 : 1;
        tbl_flow__lot(r,
                      "TX-11 tile draw by the table's lot: %d v %d, %s "
                      "starts",
                      (int)tiles[0], (int)tiles[1],
                      tbl_flow__name(r, *starter));
    }
    return true;
}

static void pregame(struct tbl_flow_run *r)
{
    int32_t starter, tiles[2];

    if (!colours(r) || !tile_draw(r, &starter, tiles))
        return;
    tbl_flow__step(r, TBL_ASK_INFO, -1, "%s starts",
                   tbl_flow__name(r, starter));
    tbl_flow__text(r,
                   "%s starts (tile %d > %d). %s starts %s's clock (TX-11).\n"
                   "%s, on the left of the pairing, is on the left of the "
                   "result sheet.",
                   tbl_flow__name(r, starter), (int)tiles[starter],
                   (int)tiles[1 - starter], tbl_flow__name(r, 1 - starter),
                   tbl_flow__name(r, starter), tbl_flow__name(r, 0));
    r->f->carry.has_starter = true;
    r->f->carry.starter = starter;
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r, "%s starts (tile %d > %d)", tbl_flow__name(r, starter),
                   (int)tiles[starter], (int)tiles[1 - starter]);
    tbl_flow__line(r, "%s starts %s's clock (TX-11)",
                   tbl_flow__name(r, 1 - starter), tbl_flow__name(r, starter));
    tbl_flow__summary_step(r, "Before the game");
}

/* Lines for two clock readings with their TX-3 penalties. */
static void clock_lines(struct tbl_flow_run *r, const int64_t used[2])
{
    char c[24], t[24];

    for (int32_t p = 0; p < 2; p++) {
        int64_t pen = 0; /* TX-3, as score.c applies it */
        if (r->fmt->clock_limit_ms > 0 &&
            tny_tx_clock_penalty(used[p], r->fmt->clock_limit_ms,
                                 r->fmt->clock_step_ms, r->fmt->clock_penalty,
                                 &pen, NULL) == TNY_OK &&
            pen > 0)
            tbl_flow__line(r, "%s clock %s: %s TP to %s (TX-3)",
                           tbl_flow__name(r, p), clock_text(used[p], c, 24),
                           tp_text(pen, t, 24), tbl_flow__name(r, 1 - p));
        else
            tbl_flow__line(r, "%s clock %s: no penalty (TX-3)",
                           tbl_flow__name(r, p), clock_text(used[p], c, 24));
    }
}

static void timeout(struct tbl_flow_run *r)
{
    const struct tbl_flow_facts *facts = &r->f->facts;

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Time is up");
    tbl_flow__text(r, "%s", tbl_flow__procedure(r));
    if (!tbl_flow__info(r))
        return;
    if (facts->has_chess)
        clock_lines(r, facts->chess_used_ms);
    else
        tbl_flow__line(r, "Finish as the procedure says (TX-3, TX-4)");
    tbl_flow__summary_step(r, "Time-out");
}

/* TX-1 scores and TX-3 clock readings into t. */
static bool played(struct tbl_flow_run *r, struct tny_table *t)
{
    const struct tbl_flow_facts *facts = &r->f->facts;
    struct tny_result *res = &t->result;
    int32_t how, v;
    int64_t used[2];
    char c[2][24];

    for (int32_t p = 0; p < 2; p++) {
        tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): score",
                       tbl_flow__name(r, p), (int)p + 1);
        tbl_flow__text(r, "TX-1: the player's line and loop score.");
        tbl_flow__field_range(r, TNY_RF_SCORE);
        if (!tbl_flow__ask(r, &res->score[p]))
            return false;
    }
    res->has_score = true;
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Clock times (TX-3)");
    if (facts->has_chess) {
        tbl_flow__text(
            r, "The chess clock shows %s %s, %s %s.", tbl_flow__name(r, 0),
            clock_text(facts->chess_used_ms[0], c[0], 24), tbl_flow__name(r, 1),
            clock_text(facts->chess_used_ms[1], c[1], 24));
        tbl_flow__option(r, "Use the chess clock's times");
    } else {
        tbl_flow__text(r, "20:00 or more costs 1 TP, and 1 more for every "
                          "further full minute.");
        tbl_flow__option(r, "No chess clock was used");
    }
    tbl_flow__option(r, "Type the minutes shown");
    tbl_flow__default(r, 0);
    if (!tbl_flow__ask(r, &how))
        return false;
    if (how == 0 && !facts->has_chess)
        return true;
    for (int32_t p = 0; p < 2; p++) {
        if (how == 0) {
            used[p] = facts->chess_used_ms[p];
            continue;
        }
        tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): clock minutes",
                       tbl_flow__name(r, p), (int)p + 1);
        tbl_flow__text(r, "Whole minutes shown on the player's clock "
                          "(20:59 is 20).");
        tbl_flow__range(r, 0, max_clock_min(r));
        if (facts->has_chess && facts->chess_used_ms[p] >= 0 &&
            facts->chess_used_ms[p] / 60000 <= max_clock_min(r))
            tbl_flow__default(r, (int32_t)(facts->chess_used_ms[p] / 60000));
        if (!tbl_flow__ask(r, &v))
            return false;
        used[p] = (int64_t)v * 60000;
    }
    for (int32_t p = 0; p < 2; p++) {
        if (used[p] < 0 || used[p] > (int64_t)max_clock_min(r) * 60000)
            return tbl_flow__refuse(r, TNY_ERANGE,
                                    "%s: clock time 0..%d minutes, got %s; "
                                    "type the minutes",
                                    tbl_flow__name(r, p), (int)max_clock_min(r),
                                    clock_text(used[p], c[p], 24));
        res->clock_ms[p] = (int32_t)used[p];
    }
    res->has_clock = true;
    clock_lines(r, used);
    return true;
}

/* Seed 001 s13: the board cannot be restored (knocked over, or an
 * illegal move the players cannot undo): a draw, or with both clocks
 * together at most 10 minutes a restart with the organiser's consent.
 * True with t's draw set, or with f->restart (no result). */
static bool board_lost(struct tbl_flow_run *r, struct tny_table *t)
{
    const struct tbl_flow_facts *facts = &r->f->facts;
    int64_t together;
    int32_t v;
    char c[24];

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Board cannot be restored");
    tbl_flow__text(r, "Seed 001 section 13: a board that cannot be restored "
                      "ends the game in a draw (10.0-10.0 TP), unless both "
                      "clocks together show at most 10 minutes: then the "
                      "game may be restarted with the organiser's consent. "
                      "The organiser may still penalise a player to blame "
                      "(TX-7).");
    if (!tbl_flow__info(r))
        return false;
    if (facts->has_chess) {
        together = facts->chess_used_ms[0] + facts->chess_used_ms[1];
    } else {
        tbl_flow__step(r, TBL_ASK_NUMBER, -1, "Both clocks together");
        tbl_flow__text(r, "Full minutes used by both players together (add "
                          "the two clocks: 4:40 + 5:10 = 9:50 is 9).");
        tbl_flow__range(r, 0, 2 * max_clock_min(r));
        if (!tbl_flow__ask(r, &v))
            return false;
        /* Full minutes: v is v:00..v:59, so take the most it can be (9 may
         * restart, 10 may be 10:59 and is a draw). */
        together = (int64_t)v * 60000 + 59000;
    }
    if (together <= RESTART_MAX_MS) {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Restart or draw (section 13)");
        tbl_flow__text(r,
                       "Together %s: at most 10 minutes. With the "
                       "organiser's consent the game starts again; "
                       "otherwise it is a draw.",
                       clock_text(together, c, 24));
        tbl_flow__option(r, "Restart (the organiser agreed)");
        tbl_flow__option(r, "Draw");
        if (!tbl_flow__ask(r, &v))
            return false;
        if (v == 0) {
            tbl_flow__step(r, TBL_ASK_INFO, -1, "Restart the game");
            tbl_flow__text(r, "Nothing is recorded. Set both clocks back, "
                              "return the tiles to the bag and start again "
                              "with the tile draw (TX-11).");
            if (!tbl_flow__info(r))
                return false;
            tbl_flow__line(r,
                           "Board lost, clocks together %s: restart "
                           "(seed 001 s13)",
                           clock_text(together, c, 24));
            r->f->restart = true;
            return true;
        }
    }
    t->result.draw = true;
    tbl_flow__line(r, "Board lost, clocks together %s: draw (seed 001 s13)",
                   clock_text(together, c, 24));
    return true;
}

static void result(struct tbl_flow_run *r)
{
    struct tny_table t;
    int32_t how;
    int64_t tp[2];
    char a[24], b[24];

    tbl_flow__table_init(r, &t);
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "How did the game end?");
    tbl_flow__text(r, "Stopped at 25 minutes (TX-4)? Ask the organiser: the "
                      "organiser enters that decision.");
    tbl_flow__option(r, "Played: enter the scores");
    tbl_flow__option(r, "Default win (TX-5): %s", tbl_flow__name(r, 0));
    tbl_flow__option(r, "Default win (TX-5): %s", tbl_flow__name(r, 1));
    tbl_flow__option(r, "Board cannot be restored (s13)");
    tbl_flow__default(r, 0);
    if (!tbl_flow__ask(r, &how))
        return;
    if (how == 3 && (!board_lost(r, &t) || r->f->restart))
        return;
    if (how == 0 && !played(r, &t))
        return;
    if (how == 1 || how == 2) {
        t.result.default_winner = how - 1;
        tbl_flow__line(r, "Default win for %s (TX-5)",
                       tbl_flow__name(r, how - 1));
    }
    if (!tbl_flow__finish_result(r, &t))
        return;
    if (how == 0)
        tbl_flow__line(r, "Scores: %s %d, %s %d (margin %d)",
                       tbl_flow__name(r, 0), (int)t.result.score[0],
                       tbl_flow__name(r, 1), (int)t.result.score[1],
                       (int)(t.result.score[0] > t.result.score[1]
                                 ? t.result.score[0] - t.result.score[1]
                                 : t.result.score[1] - t.result.score[0]));
    tny_tantrix_tp(r->fmt, &t.result, tp);
    tbl_flow__line(r, "TP: %s %s, %s %s", tbl_flow__name(r, 0),
                   tp_text(tp[0], a, 24), tbl_flow__name(r, 1),
                   tp_text(tp[1], b, 24));
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__tx(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
