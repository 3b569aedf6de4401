/* flow_nh.c - Neuroshima Hex! table flows (NH-1, NH-2, NH-11..NH-14).
 *
 * PREGAME: each player's secret first and second choice among their
 * still-available armies (the assignment's seat armies, NH-11), revealed,
 * the lot on equal first choices (tny_nh_army_choice), the NH-12 beginner
 * exception when both have only the same army left, then NH-14 (Dancer
 * sets up first, else a lot picks the player who decides).  TIMEOUT: the
 * NH-13 rule of the stage.  RESULT: armies played, win/draw, HQ difference
 * within the NH-2 cap.
 *
 * Not here: the lot and rule arithmetic (procedure.c, score.c), NH-11
 * across rounds (the hub's event has the history; the table has only the
 * seat armies the hub sends, which are the still-available ones).
 */
#include "flow_kit.h"
#include "i18n.h"

#include <stdio.h>
#include <string.h>

#include "tny/procedure.h"
#include "tny/score.h"

/* A seat's armies: the assignment's known to the format.  *listed false
 * when the seat lists none (then the format's whole list, NH-10). */
static int32_t seat_armies(const struct tbl_flow_run *r, int32_t s,
                           const char **names, bool *listed)
{
    const struct tny_wire_seat *seat = &r->f->a->seats[s];
    int32_t n = 0;

    for (int32_t k = 0; k < seat->n_armies && n < TNY_MAX_ARMIES; k++)
        if (tny_format_army_index(r->fmt, seat->armies[k]) >= 0)
            names[n++] = seat->armies[k];
    *listed = n > 0;
    for (int32_t k = 0; n == 0 && k < r->fmt->n_armies; k++)
        names[k] = r->fmt->armies[k];
    return *listed ? n : r->fmt->n_armies;
}

/* An army as the players read it: the format's names are msgids
 * (po/tourney-table/PRESETFIELDS; seed 000 writes "Hegemonia", "Nowy
 * Jork"); the flow keeps and compares the format's own names. */
#define ARMY(s) tbl_i18n_data(s)

/* names[0..n) as shown, into shown[]. */
static const char *const *shown_armies(const char *const *names, int32_t n,
                                       const char **shown)
{
    for (int32_t i = 0; i < n; i++)
        shown[i] = ARMY(names[i]);
    return shown;
}

static int32_t find_name(const char *const *names, int32_t n, const char *x)
{
    for (int32_t i = 0; i < n; i++)
        if (strcmp(names[i], x) == 0)
            return i;
    return -1;
}

static bool is_capped(const struct tny_format *fmt, const char *army)
{
    for (int32_t c = 0; c < fmt->n_capped_armies; c++)
        if (strcmp(fmt->capped_armies[c], army) == 0)
            return true;
    return false;
}

/* NH-12 secret first and second choice of seat p.  The second-choice
 * screen lists the same armies as the first (a list without the first
 * choice would show it to anyone looking); picking the first again is
 * refused. */
static bool secret_choice(struct tbl_flow_run *r, int32_t p,
                          const char *const *avail, int32_t n,
                          const char **first, const char **second)
{
    const char *shown[TNY_MAX_ARMIES];
    int32_t i, j;

    tbl_flow__step(r, TBL_ASK_CHOICE, p, "%s (seat %d): first choice",
                   tbl_flow__name(r, p), (int)p + 1);
    r->st.secret = true;
    tbl_flow__text(r, "NH-12: secretly pick your first choice among your "
                      "still-available armies (NH-11).");
    if (!tbl_flow__pick(r, shown_armies(avail, n, shown), n, -1, &i))
        return false;
    *first = avail[i];
    *second = NULL;
    if (n < 2)
        return true; /* one army left: no second choice */
    tbl_flow__step(r, TBL_ASK_CHOICE, p, "%s (seat %d): second choice",
                   tbl_flow__name(r, p), (int)p + 1);
    r->st.secret = true;
    tbl_flow__text(r, "NH-12: secretly pick your second choice, another "
                      "army than your first; played if both first choices "
                      "are the same army and the lot falls on you.");
    if (!tbl_flow__pick(r, shown_armies(avail, n, shown), n, -1, &j))
        return false;
    if (j == i)
        return tbl_flow__refuse(r, TNY_EINVAL,
                                "%s (seat %d): the second choice must be "
                                "another army than the first (NH-12)",
                                tbl_flow__name(r, p), (int)p + 1);
    *second = avail[j];
    return true;
}

/* NH-12 beginner exception: both players have only army x left.  The
 * beginner fields another army of the base box.  False with army[] unset
 * when nobody is a beginner (the organiser decides). */
static bool beginner_exception(struct tbl_flow_run *r, const char *x,
                               const char **army, bool *decided)
{
    const char *box[8], *shown[8];
    int32_t b, n = 0, i;

    *decided = false;
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Same army: beginner exception");
    tbl_flow__text(r,
                   "Both players have only %s left and both cannot field it "
                   "(NH-12). A beginner may field an army already used in "
                   "the last Swiss round or a knockout round. Who is the "
                   "beginner fielding another army?",
                   ARMY(x));
    tbl_flow__option(r, "%s", tbl_flow__name(r, 0));
    tbl_flow__option(r, "%s", tbl_flow__name(r, 1));
    tbl_flow__option(r, "Neither: call the organiser");
    if (!tbl_flow__ask(r, &b))
        return false;
    if (b == 2) {
        tbl_flow__line(r,
                       "Both have only %s left: the organiser decides "
                       "(NH-12)",
                       ARMY(x));
        return true;
    }
    for (int32_t k = 0; k < r->fmt->n_beginner_armies && n < 8; k++)
        if (strcmp(r->fmt->beginner_armies[k], x) != 0 &&
            tny_format_army_index(r->fmt, r->fmt->beginner_armies[k]) >= 0)
            box[n++] = r->fmt->beginner_armies[k];
    if (n == 0) {
        tbl_flow__line(r, "No other base-box army: the organiser decides "
                          "(NH-12)");
        return true;
    }
    tbl_flow__step(r, TBL_ASK_CHOICE, b, "%s (seat %d): army to field",
                   tbl_flow__name(r, b), (int)b + 1);
    tbl_flow__text(r,
                   "NH-12 beginner exception: a base-box army (NH-10) "
                   "other than %s.",
                   ARMY(x));
    if (!tbl_flow__pick(r, shown_armies(box, n, shown), n, -1, &i))
        return false;
    army[b] = box[i];
    army[1 - b] = x;
    r->f->carry.nh_beginner_repeat[b] = true;
    tbl_flow__line(r, "%s plays %s (NH-12 beginner exception)",
                   tbl_flow__name(r, b), ARMY(army[b]));
    tbl_flow__line(r, "%s plays %s", tbl_flow__name(r, 1 - b), ARMY(x));
    *decided = true;
    return true;
}

/* NH-14: who deploys the HQ first (and takes the first turn). */
static bool first_player(struct tbl_flow_run *r, const char *const *army)
{
    struct tny_nh_first_player fp;
    struct tny_diag d;
    int32_t starter;

    if (tny_nh_first_player(r->fmt, army[0], army[1], &r->rng, &fp, &d) < 0)
        return tbl_flow__refuse(r, TNY_EINVAL, "%s", d.msg);
    if (fp.first >= 0) {
        tbl_flow__step(r, TBL_ASK_INFO, -1, "First player (NH-14)");
        tbl_flow__text(r,
                       "%s plays %s: %s sets up the HQ first and takes "
                       "the first turn.",
                       tbl_flow__name(r, fp.first), ARMY(army[fp.first]),
                       tbl_flow__name(r, fp.first));
        starter = fp.first;
    } else {
        tbl_flow__step(r, TBL_ASK_CHOICE, fp.decider,
                       "%s (seat %d): who deploys first?",
                       tbl_flow__name(r, fp.decider), (int)fp.decider + 1);
        tbl_flow__text(r,
                       "The lot (NH-14) picked %s to decide who deploys "
                       "the HQ first; that player also takes the first "
                       "turn.",
                       tbl_flow__name(r, fp.decider));
    }
    if (fp.vegas_note)
        tbl_flow__text(r, "\nVegas plays: its own setup rule applies "
                          "(NH-14).");
    if (fp.first >= 0) {
        if (!tbl_flow__info(r))
            return false;
        tbl_flow__line(r, "%s deploys first (%s, NH-14)",
                       tbl_flow__name(r, starter), ARMY(army[starter]));
    } else {
        if (!tbl_flow__pick_seat(r, 0, -1, &starter))
            return false;
        tbl_flow__line(r, "%s deploys first (chosen by %s, NH-14 lot)",
                       tbl_flow__name(r, starter),
                       tbl_flow__name(r, fp.decider));
        tbl_flow__lot(r, "NH-14 lot: %s decides who deploys first",
                      tbl_flow__name(r, fp.decider));
    }
    if (fp.vegas_note)
        tbl_flow__line(r, "Vegas: its own setup rule applies (NH-14)");
    r->f->carry.has_starter = true;
    r->f->carry.starter = starter;
    return true;
}

static void pregame(struct tbl_flow_run *r)
{
    const char *avail[2][TNY_MAX_ARMIES], *first[2], *second[2];
    const char *army[2] = {NULL, NULL};
    int32_t n[2], loser = -1;
    bool listed[2], decided = true;
    struct tny_diag d;

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Army choice (NH-12)");
    tbl_flow__text(r, "Each player in turn secretly picks a first and a "
                      "second choice among their still-available armies; "
                      "the screen hides the choices. Then both are "
                      "revealed.");
    if (!tbl_flow__info(r))
        return;
    for (int32_t p = 0; p < 2; p++) {
        if (p == 1) { /* a clear screen between the players */
            tbl_flow__step(r, TBL_ASK_INFO, 1, "Hand the table to %s",
                           tbl_flow__name(r, 1));
            r->st.no_back = true;
            tbl_flow__text(r,
                           "%s has chosen; the choices stay hidden (NH-12). "
                           "%s: press Enter when only you see the screen.",
                           tbl_flow__name(r, 0), tbl_flow__name(r, 1));
            if (!tbl_flow__info(r))
                return;
        }
        n[p] = seat_armies(r, p, avail[p], &listed[p]);
        if (!secret_choice(r, p, avail[p], n[p], &first[p], &second[p]))
            return;
    }
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Choices revealed (NH-12)");
    for (int32_t p = 0; p < 2; p++)
        tbl_flow__text(r, "%s: %s, then %s\n", tbl_flow__name(r, p),
                       ARMY(first[p]),
                       second[p] ? ARMY(second[p]) : _("(none)"));
    if (strcmp(first[0], first[1]) == 0 && !second[0] && !second[1]) {
        if (!tbl_flow__info(r) ||
            !beginner_exception(r, first[0], army, &decided))
            return;
    } else {
        if (tny_nh_army_choice(r->fmt, first[0], second[0], first[1], second[1],
                               &r->rng, &army[0], &army[1], &loser, &d) < 0) {
            tbl_flow__refuse(r, TNY_EINVAL, "%s", d.msg);
            return;
        }
        if (loser >= 0)
            tbl_flow__text(r,
                           "Same first choice: %s plays the second "
                           "choice, %s (%s).",
                           tbl_flow__name(r, loser), ARMY(army[loser]),
                           second[1 - loser]
                               ? _("lot")
                               : _("the only one with a second choice"));
        else
            tbl_flow__text(r, "Different first choices: each plays their "
                              "first.");
        if (!tbl_flow__info(r))
            return;
        for (int32_t p = 0; p < 2; p++)
            tbl_flow__line(
                r, "%s plays %s%s", tbl_flow__name(r, p), ARMY(army[p]),
                p == loser
                    ? (second[1 - p] ? _(" (lot)") : _(" (second choice)"))
                    : "");
        if (loser >= 0 && second[1 - loser])
            tbl_flow__lot(r,
                          "NH-12 lot (same first choice): %s plays the "
                          "second choice %s",
                          tbl_flow__name(r, loser), army[loser]);
    }
    if (decided) {
        r->f->carry.has_nh_armies = true;
        for (int32_t p = 0; p < 2; p++)
            snprintf(r->f->carry.nh_army[p], TNY_NAME_MAX, "%s", army[p]);
        /* NH-10, seed 000 3.1 and 5.5 3): a declared Hook is swapped in
         * now, before the tiles are shuffled. */
        for (int32_t p = 0; p < 2; p++) {
            if (!r->f->a->seats[p].hook || strcmp(army[p], "Iron Gang") != 0)
                continue;
            tbl_flow__step(r, TBL_ASK_INFO, p, "%s: the Hook (NH-10)",
                           tbl_flow__name(r, p));
            tbl_flow__text(r,
                           "%s declared the Iron Gang swap token Hook: swap "
                           "one Iron Gang tile for the blank one now and "
                           "tell %s; the blank is played as the Hook when "
                           "drawn. Then shuffle the tiles.",
                           tbl_flow__name(r, p), tbl_flow__name(r, 1 - p));
            if (!tbl_flow__info(r))
                return;
            tbl_flow__line(r, "%s: Iron Gang with the Hook swap token (NH-10)",
                           tbl_flow__name(r, p));
        }
        if (!first_player(r, army))
            return;
    }
    tbl_flow__summary_step(r, "Before the game");
}

static void timeout(struct tbl_flow_run *r)
{
    const struct tny_wire_assignment *a = r->f->a;
    bool final_round =
        a->stage == TNY_STAGE_ELIMINATION && a->has_clock && a->clock.unlimited;
    const char *const *steps;
    int32_t n;

    switch (tny_nh_timeout_rule(a->stage, final_round, true)) {
    case TNY_NH_TIMEOUT_TERMINATION:
        steps = tny_nh_termination_steps(&n);
        for (int32_t i = 0; i < n; i++) {
            tbl_flow__step(r, TBL_ASK_INFO, -1, "Termination (NH-13) %d/%d",
                           (int)i + 1, (int)n);
            tbl_flow__text(r, "%s", gettext(steps[i]));
            if (!tbl_flow__info(r))
                return;
        }
        tbl_flow__line(r, "Termination (NH-13): the Final Battle decides the "
                          "match");
        break;
    case TNY_NH_TIMEOUT_PLAY_ON:
        tbl_flow__step(r, TBL_ASK_INFO, -1, "Time is up (NH-13)");
        tbl_flow__text(r, "Knockout round: play on until the match is "
                          "decided.");
        if (!tbl_flow__info(r))
            return;
        tbl_flow__line(r, "Knockout: play on (NH-13)");
        break;
    case TNY_NH_TIMEOUT_NONE:
        tbl_flow__step(r, TBL_ASK_INFO, -1, "No time limit (NH-13)");
        tbl_flow__text(r, "The final has no time limit: play on.");
        if (!tbl_flow__info(r))
            return;
        tbl_flow__line(r, "Final: no time limit (NH-13)");
        break;
    }
    tbl_flow__summary_step(r, "Time-out");
}

/* NH-11 army played by seat p; *army_name NULL when not recorded. */
static bool army_played(struct tbl_flow_run *r, int32_t p, int32_t other,
                        const char **army_name)
{
    const struct tbl_flow_facts *facts = &r->f->facts;
    const char *names[TNY_MAX_ARMIES + 1], *shown[TNY_MAX_ARMIES + 1];
    int32_t n, i, def = -1;
    bool listed;

    *army_name = NULL;
    n = seat_armies(r, p, names, &listed);
    if (!listed) {
        tbl_flow__line(r, "%s: army not recorded (none listed)",
                       tbl_flow__name(r, p));
        return true;
    }
    if (facts->has_nh_armies)
        def = find_name(names, n, facts->nh_army[p]);
    if (facts->nh_beginner_repeat[p]) {
        names[n] = _("Another army (NH-12 beginner exception)");
        if (def < 0)
            def = n;
        n++;
    }
    tbl_flow__step(r, TBL_ASK_CHOICE, p, "%s (seat %d): army played",
                   tbl_flow__name(r, p), (int)p + 1);
    tbl_flow__text(r, "NH-11: one of the player's still-available armies.");
    if (!tbl_flow__pick(r, shown_armies(names, n, shown), n, def, &i))
        return false;
    if (facts->nh_beginner_repeat[p] && i == n - 1) {
        tbl_flow__line(r, "%s: army not recorded (NH-12 beginner exception)",
                       tbl_flow__name(r, p));
        return true;
    }
    if (other >= 0 && strcmp(r->fmt->armies[other], names[i]) == 0)
        return tbl_flow__refuse(r, TNY_EINVAL,
                                "%s (seat %d): army played: %s is %s's army; "
                                "both players never field the same army "
                                "(NH-12)",
                                tbl_flow__name(r, p), (int)p + 1,
                                ARMY(names[i]), tbl_flow__name(r, 1 - p));
    *army_name = names[i];
    tbl_flow__line(r, "%s played %s", tbl_flow__name(r, p), ARMY(names[i]));
    return true;
}

static void result(struct tbl_flow_run *r)
{
    struct tny_table t;
    struct tny_result *res = &t.result;
    const char *army;
    int32_t outcome, d, max, hq[2];
    int64_t cap;
    bool capped = false;

    tbl_flow__table_init(r, &t);
    for (int32_t p = 0; p < 2; p++) {
        if (!army_played(r, p, p ? res->army[0] : -1, &army))
            return;
        if (army) {
            res->army[p] = tny_format_army_index(r->fmt, army);
            capped = capped || is_capped(r->fmt, army);
        }
    }
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Result (NH-1)");
    tbl_flow__text(r, "Win, loss or draw.");
    if (r->f->g->stage == TNY_STAGE_ELIMINATION)
        tbl_flow__text(r, " NH-8: a drawn knockout match goes to the player "
                          "with the better Swiss rank.");
    tbl_flow__option(r, "%s won", tbl_flow__name(r, 0));
    tbl_flow__option(r, "%s won", tbl_flow__name(r, 1));
    tbl_flow__option(r, "Draw");
    if (!tbl_flow__ask(r, &outcome))
        return;
    if (outcome == 2) {
        res->draw = true;
        res->hq_diff = 0; /* NH-1: a draw records 0 for both */
    } else {
        res->winner = outcome;
        tbl_flow__step(r, TBL_ASK_NUMBER, -1, "HQ difference");
        tbl_flow__field_range(r, TNY_RF_HQ_DIFF);
        max = r->st.max;
        if (capped && tny_result_cap(r->fmt, TNY_RF_HQ_DIFF, &cap) && cap < max)
            max = (int32_t)cap; /* NH-2 (result_schema.h) */
        tbl_flow__text(r, "NH-1: the winner's HQ toughness minus the "
                          "loser's at the end.");
        if (capped) {
            tbl_flow__text(r, " NH-2: Dancer in the match, at most %d.",
                           (int)max);
            snprintf(r->why, sizeof(r->why), "%s",
                     _("(NH-2: Dancer in the match)"));
        }
        r->st.max = max; /* NH-2 narrows the engine's range */
        if (!tbl_flow__ask(r, &d))
            return;
        res->hq_diff = d;
    }
    if (!tbl_flow__finish_result(r, &t))
        return;
    tny_neuroshima_hq(r->fmt, res, hq);
    if (res->draw)
        tbl_flow__line(r, "Draw: HQ difference 0 for both");
    else
        tbl_flow__line(r, "%s won: %s %+d, %s %+d HQ",
                       tbl_flow__name(r, res->winner), tbl_flow__name(r, 0),
                       (int)hq[0], tbl_flow__name(r, 1), (int)hq[1]);
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__nh(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
