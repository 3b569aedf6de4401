/* flow_gt.c - A Game of Thrones 2nd ed. table flows (GT-1, GT-9, GT-13,
 * GT-14).
 *
 * PREGAME: factions and agendas shown in seat order, the first player
 * (seed 003 "game setup" 1: a coin, a die or another random way; the table
 * can draw the lot; the assignment's first_player seat wins when set).
 * TIMEOUT: the GT-13 wizard: finish the round to taxation; if nobody won,
 * the criteria one at a time, asking only the facts still needed, until
 * tny_gt_timeout names the modified winner (or the first player chooses).
 * RESULT: one game (win or modified win, pre-filled from the wizard) or,
 * in a best-of-three elimination match (GT-9), each game's winner until
 * someone has two.
 *
 * Not here: the criteria themselves (procedure.c), points (score.c).
 * [decision] A best-of-three result records the games only (no modified
 * flag: elimination matches give no points).
 */
#include <ctype.h>

#include "flow_kit.h"
#include "i18n.h"

#include "tny/procedure.h"

/* Highest power a player can still need (15 power wins). */
#define MAX_POWER_NEEDED 15
/* Generous bounds for counted cards. */
#define MAX_CARDS 200

static int32_t hub_first_player(const struct tbl_flow_run *r)
{
    for (int32_t s = 0; s < 2; s++)
        if (r->f->a->seats[s].first_player)
            return s;
    return -1;
}

static void pregame(struct tbl_flow_run *r)
{
    const struct tny_stage *st = tbl_flow__stage(r);
    int32_t first = hub_first_player(r), how = -1;

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Factions and agendas (GT-14)");
    for (int32_t s = 0; s < 2; s++) {
        const struct tny_wire_seat *seat = &r->f->a->seats[s];
        tbl_flow__text(r, "%s: %s, agenda %s\n", tbl_flow__name(r, s),
                       seat->faction[0] ? seat->faction : _("(not registered)"),
                       seat->agenda[0] ? seat->agenda : _("none"));
    }
    tbl_flow__text(r, "Reveal them in player order; they are fixed for the "
                      "event.");
    if (!tbl_flow__info(r))
        return;
    if (first < 0) {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "First player");
        tbl_flow__text(r, "Decide the first player with a coin, a die or "
                          "another random way, or let the table draw.");
        tbl_flow__option(r, "%s", tbl_flow__name(r, 0));
        tbl_flow__option(r, "%s", tbl_flow__name(r, 1));
        tbl_flow__option(r, "The table draws a lot");
        if (!tbl_flow__ask(r, &how))
            return;
        first = how < 2 ? how : (int32_t)tny_rng_below(&r->rng, 2);
    }
    if (how == 2)
        tbl_flow__lot(r, "GT first player by the table's lot: %s",
                      tbl_flow__name(r, first));
    tbl_flow__line(r, "%s is the first player (%s)", tbl_flow__name(r, first),
                   how < 0    ? _("the hub's lot")
                   : how == 2 ? _("the table's lot")
                              : _("coin or die"));
    if (r->f->g->stage == TNY_STAGE_ELIMINATION && st && st->best_of_three)
        tbl_flow__line(r, "Best of three: first to two game wins (GT-9)");
    r->f->carry.has_starter = true;
    r->f->carry.starter = first;
    tbl_flow__summary_step(r, "Before the game");
}

/* A fact per player for one GT-13 criterion. */
static bool ask_pair(struct tbl_flow_run *r, enum tny_gt_timeout_step step,
                     const char *what, int32_t min, int32_t max, int32_t out[2])
{
    for (int32_t p = 0; p < 2; p++) {
        tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): %s",
                       tbl_flow__name(r, p), (int)p + 1, what);
        tbl_flow__text(r, "GT-13 %s", gettext(tny_gt_timeout_step_text(step)));
        tbl_flow__range(r, min, max);
        if (!tbl_flow__ask(r, &out[p]))
            return false;
    }
    return true;
}

/* tny_gt_timeout on the facts known so far (later ones left equal, so
 * out->decided_by is past the last criterion asked only when that one is
 * tied too). */
static bool evaluate(struct tbl_flow_run *r,
                     const struct tny_gt_timeout_facts facts[2], int32_t dom,
                     struct tny_gt_timeout_outcome *out)
{
    struct tny_diag d;

    if (tny_gt_timeout(facts, dom, 0, out, &d) < 0)
        return tbl_flow__refuse(r, TNY_EINVAL, "%s", d.msg);
    return true;
}

static const char *criterion(enum tny_gt_timeout_step s)
{
    switch (s) {
    case TNY_GT_STEP_POWER: return _("fewer power needed to win");
    case TNY_GT_STEP_DECK: return _("more cards in the draw deck");
    case TNY_GT_STEP_DOMINANCE: return _("won dominance in the last round");
    case TNY_GT_STEP_DEAD_PILE: return _("fewer characters in the dead pile");
    default: return _("chosen by the first player");
    }
}

/* GT-13 criteria 1..5 in order, each asked only while the earlier ones
 * tie; *winner the modified winner, *by the deciding criterion. */
static bool wizard(struct tbl_flow_run *r, int32_t *winner,
                   enum tny_gt_timeout_step *by)
{
    struct tny_gt_timeout_facts facts[2] = {{0, 0, 0}, {0, 0, 0}};
    struct tny_gt_timeout_outcome out;
    int32_t v[2], dom = -1, first, c;

    if (!ask_pair(r, TNY_GT_STEP_POWER, _("power needed to win"), 1,
                  MAX_POWER_NEEDED, v))
        return false;
    facts[0].power_needed = v[0];
    facts[1].power_needed = v[1];
    if (!evaluate(r, facts, dom, &out))
        return false;
    if (out.decided_by > TNY_GT_STEP_POWER) {
        if (!ask_pair(r, TNY_GT_STEP_DECK, _("cards in the draw deck"), 0,
                      MAX_CARDS, v))
            return false;
        facts[0].deck_cards = v[0];
        facts[1].deck_cards = v[1];
        if (!evaluate(r, facts, dom, &out))
            return false;
    }
    if (out.decided_by > TNY_GT_STEP_DECK) {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Dominance in the last round");
        tbl_flow__text(
            r, "GT-13 %s",
            gettext(tny_gt_timeout_step_text(TNY_GT_STEP_DOMINANCE)));
        tbl_flow__option(r, "%s", tbl_flow__name(r, 0));
        tbl_flow__option(r, "%s", tbl_flow__name(r, 1));
        tbl_flow__option(r, "Nobody");
        if (!tbl_flow__ask(r, &c))
            return false;
        dom = c < 2 ? c : -1;
        if (!evaluate(r, facts, dom, &out))
            return false;
    }
    if (out.decided_by > TNY_GT_STEP_DOMINANCE) {
        if (!ask_pair(r, TNY_GT_STEP_DEAD_PILE,
                      _("characters in the dead pile"), 0, MAX_CARDS, v))
            return false;
        facts[0].dead_characters = v[0];
        facts[1].dead_characters = v[1];
        if (!evaluate(r, facts, dom, &out))
            return false;
    }
    if (out.decided_by > TNY_GT_STEP_DEAD_PILE) {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "First player");
        tbl_flow__text(
            r, "GT-13 %s. Who is the first player?",
            gettext(tny_gt_timeout_step_text(TNY_GT_STEP_FIRST_PLAYER)));
        if (!tbl_flow__pick_seat(
                r, 0, r->f->facts.has_starter ? r->f->facts.starter : -1,
                &first))
            return false;
        tbl_flow__step(r, TBL_ASK_CHOICE, first, "%s: who gets the win?",
                       tbl_flow__name(r, first));
        tbl_flow__text(r, "GT-13 step 5: the first player chooses who gets "
                          "the modified win; the other player loses.");
        if (!tbl_flow__pick_seat(r, 0, -1, &c))
            return false;
        out.winner = c;
        out.decided_by = TNY_GT_STEP_FIRST_PLAYER;
    }
    *winner = out.winner;
    *by = out.decided_by;
    return true;
}

static void timeout(struct tbl_flow_run *r)
{
    enum tny_gt_timeout_step by;
    int32_t won, winner;

    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Time is up (GT-13)");
    /* The rule's clause is lowercase and has no full stop: capitalised
     * here and ended, so the question is a sentence of its own. */
    const char *rule =
        gettext(tny_gt_timeout_step_text(TNY_GT_STEP_FINISH_ROUND));
    tbl_flow__text(r, "%c%s. Did a player win?",
                   toupper((unsigned char)rule[0]), rule + 1);
    tbl_flow__option(r, "Nobody won: the time-out steps");
    tbl_flow__option(r, "%s won", tbl_flow__name(r, 0));
    tbl_flow__option(r, "%s won", tbl_flow__name(r, 1));
    if (!tbl_flow__ask(r, &won))
        return;
    r->f->carry.has_gt_timeout = true;
    if (won > 0) {
        r->f->carry.gt_timeout_winner = won - 1;
        r->f->carry.gt_timeout_modified = false;
        tbl_flow__line(r, "%s won the game (GT-1)", tbl_flow__name(r, won - 1));
    } else {
        if (!wizard(r, &winner, &by))
            return;
        r->f->carry.gt_timeout_winner = winner;
        r->f->carry.gt_timeout_modified = true;
        tbl_flow__line(r, "Modified win: %s (%s, GT-13 %d)",
                       tbl_flow__name(r, winner), criterion(by), (int)by);
    }
    tbl_flow__summary_step(r, "Time-out");
}

static int32_t tp(int64_t units)
{
    return (int32_t)(units / TNY_POINT_SCALE);
}

static bool one_game(struct tbl_flow_run *r, struct tny_result *res)
{
    const struct tbl_flow_facts *facts = &r->f->facts;
    int32_t how;

    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Winner (GT-1)");
    if (facts->has_gt_timeout)
        tbl_flow__text(r, "After the time-out: %s.",
                       tbl_flow__name(r, facts->gt_timeout_winner));
    if (!tbl_flow__pick_seat(
            r, 0, facts->has_gt_timeout ? facts->gt_timeout_winner : -1,
            &res->winner))
        return false;
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "How did %s win?",
                   tbl_flow__name(r, res->winner));
    tbl_flow__option(r, "Win (%d points)", (int)tp(r->fmt->win_points));
    tbl_flow__option(r, "Modified win, time-out (%d points, GT-13)",
                     (int)tp(r->fmt->modified_win_points));
    /* pre-selected: the GT-13 outcome, else a modified win when the round
     * clock ran out */
    tbl_flow__default(r, facts->has_gt_timeout
                             ? facts->gt_timeout_modified &&
                                   facts->gt_timeout_winner == res->winner
                             : facts->round_expired);
    if (!tbl_flow__ask(r, &how))
        return false;
    res->modified = how == 1;
    tbl_flow__line(
        r, "%s: %s (%d points), %s: loss (%d)", tbl_flow__name(r, res->winner),
        res->modified ? _("modified win") : _("win"),
        (int)tp(res->modified ? r->fmt->modified_win_points
                              : r->fmt->win_points),
        tbl_flow__name(r, 1 - res->winner), (int)tp(r->fmt->loss_points));
    return true;
}

/* GT-9: games until someone has two wins. */
static bool best_of_three(struct tbl_flow_run *r, struct tny_result *res)
{
    int32_t wins[2] = {0, 0}, w;

    while (wins[0] < 2 && wins[1] < 2) {
        tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Game %d: winner (GT-9)",
                       (int)res->n_games + 1);
        tbl_flow__text(r, "Best of three: %s %d, %s %d so far.",
                       tbl_flow__name(r, 0), (int)wins[0], tbl_flow__name(r, 1),
                       (int)wins[1]);
        if (!tbl_flow__pick_seat(r, 0, -1, &w))
            return false;
        res->games[res->n_games++] = w;
        wins[w]++;
        tbl_flow__line(r, "Game %d: %s", (int)res->n_games,
                       tbl_flow__name(r, w));
    }
    res->winner = wins[0] == 2 ? 0 : 1;
    tbl_flow__line(r, "%s wins the match %d-%d (GT-9)",
                   tbl_flow__name(r, res->winner), (int)wins[res->winner],
                   (int)wins[1 - res->winner]);
    return true;
}

static void result(struct tbl_flow_run *r)
{
    const struct tny_stage *st = tbl_flow__stage(r);
    struct tny_table t;
    bool bo3 =
        r->f->g->stage == TNY_STAGE_ELIMINATION && st && st->best_of_three;

    tbl_flow__table_init(r, &t);
    if (!(bo3 ? best_of_three(r, &t.result) : one_game(r, &t.result)) ||
        !tbl_flow__finish_result(r, &t))
        return;
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__gt(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
