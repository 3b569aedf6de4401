/* flow_ct.c - Catan table flows (CT-4, CT-8, CT-9).
 *
 * PREGAME: the starting player by the highest roll of two dice (typed
 * totals, or virtual dice from the table's lot); tied highest players roll
 * again, only they.  TIMEOUT: CT-8 with the number of turns still to play
 * (tny_ct_turns_after_timeout) from the starter and the active seat.
 * RESULT: game points per seat, counted at most 10 (CT-4).
 *
 * Not here: the roll rule (procedure.c), placement points (score.c).
 * [decision] Turns go round in seat-number order from the starter.
 * [decision] After 8 typed tie rolls in a row the table's lot picks among
 * the tied players (a table cannot keep a flow going forever).
 * [decision] CT-4 "counted at most 10" (seed 004: "Pokud má hráč více než
 * 10 herních bodů, počítá se mu jen 10"): the VP as played are entered and
 * recorded (the engine's range, tny_result_range, as the hub checks), and
 * count as at most 10 game points (tny_ct_game_points), as the hub scores.
 */
#include "flow_kit.h"
#include "i18n.h"

#include <stdio.h>

#include "tny/procedure.h"
#include "tny/score.h"

#define MAX_ROLLS 8
/* Virtual re-rolls before the lot (a tie this long has odds below 1e-30). */
#define MAX_VIRTUAL_ROLLS 64

static int32_t popcount(uint32_t m)
{
    int32_t n = 0;

    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The seats in mask joined as "Anna, Ben and Cid" into the step text. */
static void text_seats(struct tbl_flow_run *r, uint32_t mask)
{
    int32_t k = 0, n = popcount(mask);

    for (int32_t s = 0; s < r->n_seats; s++)
        if (mask & (1u << s)) {
            tbl_flow__text(r, "%s%s",
                           k == 0 ? "" : (k + 1 == n ? _(" and ") : ", "),
                           tbl_flow__name(r, s));
            k++;
        }
}

/* One roll of every seat in mask, typed or virtual, into rolls[].  True
 * with *starter (or -1 and *mask the tied seats). */
static bool roll_once(struct tbl_flow_run *r, bool typed, uint32_t *mask,
                      int32_t rolls[TNY_MAX_SEATS], int32_t *starter)
{
    int32_t sub[TNY_MAX_SEATS], seat_of[TNY_MAX_SEATS], n = 0, w;
    uint32_t tied;
    struct tny_diag d;

    for (int32_t s = 0; s < r->n_seats; s++) {
        if (!(*mask & (1u << s)))
            continue;
        if (typed) {
            tbl_flow__step(r, TBL_ASK_NUMBER, s, "%s (seat %d): dice total",
                           tbl_flow__name(r, s), (int)s + 1);
            tbl_flow__text(r, "CT-9: the total of two dice.");
            tbl_flow__range(r, 2, 12);
            if (!tbl_flow__ask(r, &rolls[s]))
                return false;
        } else {
            rolls[s] = 2 + (int32_t)tny_rng_below(&r->rng, 6) +
                       (int32_t)tny_rng_below(&r->rng, 6);
        }
        seat_of[n] = s;
        sub[n++] = rolls[s];
    }
    if (n == 1) { /* the lot left one player */
        *starter = seat_of[0];
        return true;
    }
    if (tny_ct_starting_player(n, sub, &w, &tied, &d) < 0)
        return tbl_flow__refuse(r, TNY_EINVAL, "%s", d.msg);
    *starter = w >= 0 ? seat_of[w] : -1;
    *mask = 0;
    for (int32_t i = 0; i < n; i++)
        if (tied & (1u << i))
            *mask |= 1u << seat_of[i];
    return true;
}

static void pregame(struct tbl_flow_run *r)
{
    uint32_t mask = (1u << r->n_seats) - 1;
    int32_t how, starter = -1, rolls[TNY_MAX_SEATS] = {0}, tries = 0, k;

    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Starting player (CT-9)");
    tbl_flow__text(r, "The highest roll of two dice starts; tied players "
                      "roll again.");
    tbl_flow__option(r, "Roll real dice, type each total");
    tbl_flow__option(r, "The table rolls virtual dice");
    if (!tbl_flow__ask(r, &how))
        return;
    while (starter < 0 &&
           tries++ < (how == 0 ? MAX_ROLLS : MAX_VIRTUAL_ROLLS)) {
        uint32_t rolled = mask;
        if (!roll_once(r, how == 0, &mask, rolls, &starter))
            return;
        tbl_flow__step(r, TBL_ASK_INFO, -1, "Dice (CT-9)");
        for (int32_t s = 0; s < r->n_seats; s++)
            if (rolled & (1u << s))
                tbl_flow__text(r, "%s: %d\n", tbl_flow__name(r, s),
                               (int)rolls[s]);
        if (starter >= 0) {
            tbl_flow__text(r, "%s starts.", tbl_flow__name(r, starter));
        } else {
            tbl_flow__text(r, "Tie for the highest: ");
            text_seats(r, mask);
            tbl_flow__text(r, " roll again.");
        }
        if (!tbl_flow__info(r))
            return;
    }
    if (starter < 0) { /* the lot among the still tied players */
        k = (int32_t)tny_rng_below(&r->rng, (uint64_t)popcount(mask));
        for (int32_t s = 0; s < r->n_seats && starter < 0; s++)
            if ((mask & (1u << s)) && k-- == 0)
                starter = s;
        tbl_flow__lot(r, "CT-9 lot after tied rolls: %s starts",
                      tbl_flow__name(r, starter));
    } else if (how != 0) {
        tbl_flow__lot(r,
                      "CT-9 virtual dice (the table's lot): %s starts "
                      "with %d",
                      tbl_flow__name(r, starter), (int)rolls[starter]);
    }
    tbl_flow__step(r, TBL_ASK_INFO, -1, "%s starts",
                   tbl_flow__name(r, starter));
    tbl_flow__text(
        r, "%s starts (%s %d, CT-9). Turn order:", tbl_flow__name(r, starter),
        tries > (how == 0 ? MAX_ROLLS : MAX_VIRTUAL_ROLLS)
            ? _("lot after tied rolls of")
            : _("highest roll"),
        (int)rolls[starter]);
    for (int32_t i = 0; i < r->n_seats; i++)
        tbl_flow__text(r, " %s%s",
                       tbl_flow__name(r, (starter + i) % r->n_seats),
                       i + 1 < r->n_seats ? "," : ".");
    tbl_flow__text(r, "\nBuild the board at random; place the number tokens "
                      "alphabetically in a spiral (CT-9).");
    r->f->carry.has_starter = true;
    r->f->carry.starter = starter;
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r, "%s starts (roll %d, CT-9)", tbl_flow__name(r, starter),
                   (int)rolls[starter]);
    tbl_flow__summary_step(r, "Before the game");
}

static void timeout(struct tbl_flow_run *r)
{
    const struct tbl_flow_facts *facts = &r->f->facts;
    int32_t starter, active, turns;
    struct tny_diag d;

    if (facts->has_starter && facts->starter >= 0 &&
        facts->starter < r->n_seats) {
        starter = facts->starter;
    } else {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Who took the first turn?");
        tbl_flow__text(r, "CT-8: the rounds are counted from the starting "
                          "player.");
        if (!tbl_flow__pick_seat(r, 0, -1, &starter))
            return;
    }
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Whose turn is it now?");
    tbl_flow__text(r, "%s", gettext(tny_ct_timeout_text()));
    if (!tbl_flow__pick_seat(r, 0, -1, &active))
        return;
    if (tny_ct_turns_after_timeout(r->n_seats, starter, active, &turns, &d) <
        0) {
        tbl_flow__refuse(r, TNY_EINVAL, "%s", d.msg);
        return;
    }
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Time is up (CT-8)");
    tbl_flow__text(r,
                   "%s\nAfter %s's turn: %d more turns (finish this "
                   "round, then two full rounds from %s). Then the game "
                   "ends as it stands.",
                   tbl_flow__procedure(r), tbl_flow__name(r, active),
                   (int)turns, tbl_flow__name(r, starter));
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r, "%d more turns after %s's (CT-8)", (int)turns,
                   tbl_flow__name(r, active));
    tbl_flow__summary_step(r, "Time-out");
}

static void result(struct tbl_flow_run *r)
{
    const struct tny_format *fmt = r->fmt;
    struct tny_table t;
    struct tny_result *res = &t.result;
    int64_t cap = 0;

    /* CT-4 "counted at most 10": the cap result_schema.h declares. */
    (void)tny_result_cap(fmt, TNY_RF_VP, &cap);
    tbl_flow__table_init(r, &t);
    for (int32_t p = 0; p < r->n_seats; p++) {
        tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): victory points",
                       tbl_flow__name(r, p), (int)p + 1);
        tbl_flow__field_range(r, TNY_RF_VP);
        tbl_flow__text(r,
                       "CT-4: the victory points as played, unrevealed VP "
                       "cards included; at most %d count as game points.",
                       (int)cap);
        snprintf(r->why, sizeof(r->why), "%s",
                 _("(CT-4: victory points as played)"));
        if (!tbl_flow__ask(r, &res->score[p]))
            return;
    }
    res->has_score = true;
    if (!tbl_flow__finish_result(r, &t))
        return;
    for (int32_t p = 0; p < r->n_seats; p++)
        if (tny_ct_game_points(fmt, res->score[p]) != res->score[p])
            tbl_flow__line(r, "%s: %d VP, counted %d game points (place %d)",
                           tbl_flow__name(r, p), (int)res->score[p],
                           (int)tny_ct_game_points(fmt, res->score[p]),
                           (int)tbl_flow__place(res, r->n_seats, p));
        else
            tbl_flow__line(r, "%s: %d game points (place %d)",
                           tbl_flow__name(r, p), (int)res->score[p],
                           (int)tbl_flow__place(res, r->n_seats, p));
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__ct(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
