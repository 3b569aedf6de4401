/* flow_tp.c - table flows of the two-player game (any 2-player game whose
 * format is data: xwing-2.0, swiss-2p and organisers' own, docs/formats.md).
 *
 * PREGAME: the format's notes, if any.  TIMEOUT: the format's time-out
 * procedure.  RESULT: how the game ended, among what the format allows
 * (both scores; a player won; a draw, an intentional draw or a double loss
 * where the format's two_player block allows them); with scores the higher
 * one wins, and equal scores in a format without draws ask who won (the
 * game's own tie rule, e.g. X-Wing's).
 *
 * Not here: points and margin of victory (score.c), the checks
 * (tny_result_validate through tbl_flow__finish_result).
 */
#include "flow_kit.h"
#include "i18n.h"

static void pregame(struct tbl_flow_run *r)
{
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Before the game");
    if (r->fmt->n_notes == 0)
        tbl_flow__text(r, "Play the game; record both scores at the end.");
    for (int32_t i = 0; i < r->fmt->n_notes; i++)
        tbl_flow__text(r, "%s\n", tbl_i18n_data(r->fmt->notes[i]));
    if (!tbl_flow__info(r))
        return;
    tbl_flow__summary_step(r, "Ready");
}

static void timeout(struct tbl_flow_run *r)
{
    const char *how = tbl_flow__procedure(r);
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Time is up");
    tbl_flow__text(r, "%s",
                   how[0] ? how
                          : _("Finish as the game's rules say, then record "
                              "the result."));
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r, "Time-out: %s",
                   how[0] ? _("procedure shown") : _("no rule"));
    tbl_flow__summary_step(r, "Time-out");
}

enum end { END_SCORES, END_WIN_0, END_WIN_1, END_DRAW, END_ID, END_DL };

static bool scores(struct tbl_flow_run *r, struct tny_result *res)
{
    const struct tny_format *fmt = r->fmt;
    for (int32_t s = 0; s < 2; s++) {
        tbl_flow__step(r, TBL_ASK_NUMBER, s, "%s (seat %d): score",
                       tbl_flow__name(r, s), (int)s + 1);
        tbl_flow__field_range(r, TNY_RF_SCORE);
        tbl_flow__text(r, "The score of %s, %d..%d.", tbl_flow__name(r, s),
                       (int)r->st.min, (int)r->st.max);
        if (!tbl_flow__ask(r, &res->score[s]))
            return false;
    }
    res->has_score = true;
    if (res->score[0] != res->score[1]) {
        res->winner = res->score[0] > res->score[1] ? 0 : 1;
        return true;
    }
    if (fmt->draws) {
        res->draw = true;
        return true;
    }
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "Equal scores: who won?");
    tbl_flow__text(r, "\"%s\" has no draws: the game's tie rule decides.",
                   fmt->name);
    return tbl_flow__pick_seat(r, 0, -1, &res->winner);
}

static void result(struct tbl_flow_run *r)
{
    const struct tny_format *fmt = r->fmt;
    struct tny_table t;
    struct tny_result *res = &t.result;
    enum end ends[6];
    int32_t n = 0, how;

    tbl_flow__table_init(r, &t);
    tbl_flow__step(r, TBL_ASK_CHOICE, -1, "How did the game end?");
    tbl_flow__option(r, "Type both scores");
    ends[n++] = END_SCORES;
    for (int32_t s = 0; s < 2; s++) {
        tbl_flow__option(r, "%s won (no scores)", tbl_flow__name(r, s));
        ends[n++] = s == 0 ? END_WIN_0 : END_WIN_1;
    }
    if (fmt->draws) {
        tbl_flow__option(r, "A draw");
        ends[n++] = END_DRAW;
    }
    if (fmt->intentional_draws) {
        tbl_flow__option(r, "An intentional draw (agreed)");
        ends[n++] = END_ID;
    }
    if (fmt->double_losses) {
        tbl_flow__option(r, "A double loss (both lose)");
        ends[n++] = END_DL;
    }
    if (!tbl_flow__ask(r, &how))
        return;
    switch (ends[how]) {
    case END_SCORES:
        if (!scores(r, res))
            return;
        break;
    case END_WIN_0:
    case END_WIN_1: res->winner = ends[how] == END_WIN_0 ? 0 : 1; break;
    case END_DRAW: res->draw = true; break;
    case END_ID: res->intentional_draw = true; break;
    case END_DL: res->double_loss = true; break;
    }
    if (!tbl_flow__finish_result(r, &t))
        return;
    if (res->has_score)
        tbl_flow__line(r, "%s %d, %s %d", tbl_flow__name(r, 0),
                       (int)res->score[0], tbl_flow__name(r, 1),
                       (int)res->score[1]);
    if (res->winner >= 0)
        tbl_flow__line(r, "%s wins", tbl_flow__name(r, res->winner));
    else
        tbl_flow__line(r, "%s",
                       res->double_loss        ? _("Both lose")
                       : res->intentional_draw ? _("Intentional draw")
                                               : _("Draw"));
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__tp(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
