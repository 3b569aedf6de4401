/* two_player.c - the generic two-player module (game.h): any 2-player
 * game recorded by both scores and/or a winner, with the draws,
 * intentional draws and double losses the format allows (X-Wing,
 * Pokemon, chess-like; CM-6), margin of victory as tiebreak data.
 *
 * Its scoring, validation and simulation are shared with the games that
 * record the same result (tny__two_player_*: Netrunner).
 */
#include <stdio.h>

#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {
    TNY_RK_SCORES,           TNY_RK_WINNER,      TNY_RK_DRAW,
    TNY_RK_INTENTIONAL_DRAW, TNY_RK_DOUBLE_LOSS, TNY_RK_LOTS};

static const struct tny_result_range_info ranges[] = {
    {TNY_GAME_TWO_PLAYER, TNY_RF_SCORE, TNY_BOUND_FMT(score_min),
     TNY_BOUND_FMT(score_max), TNY_BOUND_NONE, "CM-6", NULL,
     -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
};

void tny__two_player_score(const struct tny_event *ev,
                           const struct tny_round *round,
                           const struct tny_table *t, bool elim,
                           struct tny_record *const *rec)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *res = &t->result;

    (void)round;
    /* A winner, or a draw, an intentional draw or a double loss (the
     * parser derived the winner from the scores when none was given). */
    const int32_t w = res->winner;
    for (int s = 0; s < 2; s++) {
        const bool won = w == s, lost = w == 1 - s || res->double_loss;
        rec[s]->win = won ? 1.0f : (lost ? 0.0f : 0.5f);
        rec[s]->place = (int8_t)(lost ? 2 : 1);
        rec[s]->score_place = rec[s]->place;
        rec[s]->elim_won = elim && won;
        rec[s]->has_score = res->has_score;
        rec[s]->score = res->has_score ? res->score[s] : 0;
        rec[s]->opp_score = res->has_score ? res->score[1 - s] : 0;
        int64_t m = (int64_t)fmt->mov_base + rec[s]->score - rec[s]->opp_score;
        rec[s]->mov = (int32_t)(m < fmt->mov_min   ? fmt->mov_min
                                : m > fmt->mov_max ? fmt->mov_max
                                                   : m);
        if (elim)
            continue;
        if (fmt->points_from_scores && res->has_score)
            rec[s]->tp = (int64_t)res->score[s] * TNY_POINT_SCALE;
        else if (res->double_loss)
            rec[s]->tp = fmt->double_loss_points;
        else if (res->intentional_draw)
            rec[s]->tp = fmt->intentional_draw_points;
        else if (w < 0)
            rec[s]->tp = fmt->draw_points;
        else
            rec[s]->tp = won ? fmt->win_points : fmt->loss_points;
    }
}

void tny__two_player_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    rec->tp = fmt->bye_points;
    rec->mov = fmt->mov_bye;
}

int tny__two_player_validate(const struct tny_event *ev,
                             enum tny_stage_kind stage,
                             const struct tny_table *t, const char *path,
                             struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;

    (void)stage;
    if (r->winner > 1 ||
        (r->winner < 0 && !r->draw && !r->intentional_draw && !r->double_loss))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"winner\" (a player of the "
                            "table) or an outcome the format allows",
                            path);
    if ((r->draw && !fmt->draws) ||
        (r->intentional_draw && !fmt->intentional_draws) ||
        (r->double_loss && !fmt->double_losses))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: an outcome the format \"%s\" does not "
                            "allow",
                            path, fmt->name);
    for (int s = 0; r->has_score && s < 2; s++)
        if ((rc = tny__result_check_field(diag, path,
                                          tny__player_id(ev, t->seats[s]),
                                          r->score[s], fmt, TNY_RF_SCORE)) < 0)
            return rc;
    return TNY_OK;
}

void tny__two_player_simulate(const struct tny_event *ev, int32_t round_index,
                              enum tny_stage_kind stage,
                              struct tny_table *table, struct tny_rng *rng,
                              int32_t w)
{
    struct tny_result *r = &table->result;
    int64_t lo_s, hi_s;

    (void)round_index;
    (void)stage;
    tny_result_range(&ev->format, TNY_RF_SCORE, &lo_s, &hi_s);
    int32_t hi = hi_s < 200 ? (int32_t)hi_s : 200;
    int32_t lo = (int32_t)lo_s;
    r->has_score = true;
    r->winner = w;
    r->score[w] = tny__sim_between(rng, lo + (hi - lo) / 2, hi);
    r->score[1 - w] =
        tny__sim_between(rng, lo, r->score[w] - (r->score[w] > lo));
}

int tny__two_player_check_scores(const struct tny_format *f, const char *path,
                                 struct tny_diag *diag)
{
    if (f->score_min > f->score_max)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.two_player.score_max: less than score_min",
                            path);
    return TNY_OK;
}

/* Scores and/or one outcome, each allowed by the format; without an
 * outcome the higher score wins, equal scores are a draw where the format
 * has draws. */
static int result_rules(const struct tny_format *fmt, uint64_t present,
                        const char *path, struct tny_result *r,
                        struct tny_diag *diag)
{
    static const enum tny_result_key flags[] = {
        TNY_RK_DRAW, TNY_RK_INTENTIONAL_DRAW, TNY_RK_DOUBLE_LOSS};
    static const char *const allow[] = {"draws", "intentional_draws",
                                        "double_losses"};
    const bool field[] = {r->draw, r->intentional_draw, r->double_loss};
    const bool allowed[] = {fmt->draws, fmt->intentional_draws,
                            fmt->double_losses};
    char p[256];
    int outcomes = r->winner >= 0;

    (void)present;
    for (int i = 0; i < 3; i++) {
        if (!field[i])
            continue;
        tny__result_key_path(p, sizeof p, path, flags[i]);
        if (!allowed[i])
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: the format \"%s\" does not allow it "
                                "(two_player.%s is false)",
                                p, fmt->name, allow[i]);
        outcomes++;
    }
    if (outcomes > 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected one of \"winner\", \"draw\", "
                            "\"intentional_draw\", \"double_loss\"",
                            path);
    if (outcomes == 1)
        return TNY_OK;
    if (!r->has_score)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"scores\" or \"winner\" (or an "
                            "outcome the format allows)",
                            path);
    if (r->score[0] != r->score[1])
        r->winner = r->score[0] > r->score[1] ? 0 : 1;
    else if (fmt->draws)
        r->draw = true;
    else
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: equal scores and no \"winner\", and the "
                            "format \"%s\" has no draws (two_player.draws)",
                            path, fmt->name);
    return TNY_OK;
}

/* "win 3-1", "intentional draw": the outcome and the scores. */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    const char *outcome = w < 0 ? "draw" : w == s ? "win" : "loss";

    (void)fmt;
    if (r->intentional_draw)
        outcome = "intentional draw";
    else if (r->double_loss)
        outcome = "loss";
    if (r->has_score)
        snprintf(buf, size, "%s %d-%d", outcome, (int)r->score[s],
                 (int)r->score[1 - s]);
    else
        snprintf(buf, size, "%s", outcome);
}

/* "21 : 17 Anna wins", "double loss", "draw". */
static void result_line(const struct tny_result *r, int32_t n_seats,
                        const char *const *name, char *buf, size_t size)
{
    size_t n = 0;

    (void)n_seats;
    buf[0] = '\0';
    if (r->has_score)
        n = (size_t)snprintf(buf, size, "%d : %d ", (int)r->score[0],
                             (int)r->score[1]);
    if (n >= size)
        return;
    if (r->winner >= 0)
        snprintf(buf + n, size - n, "%s wins", name[r->winner]);
    else
        snprintf(buf + n, size - n, "%s",
                 r->double_loss ? "double loss" : "draw");
}

/* The slip: the scores, the winner; the draw where the format has
 * draws. */
static const struct tny_slip_col slip_cols[] = {
    {NULL, N_("Score"), 20, false, false},
    {NULL, N_("Winner"), 17, true, false},
};

/* The format file's "two_player" block: the outcomes the format allows
 * (also options), the score range (none unless the format gives one),
 * points from scores. */
static const struct tny_format_key block_keys[] = {
    {"draws", TNY_FK_BOOL, TNY_FK_AT(draws), 0, 0, 0, 0, 0, 0, TNY_FKF_OPTION},
    {"intentional_draws", TNY_FK_BOOL, TNY_FK_AT(intentional_draws), 0, 0, 0, 0,
     0, 0, TNY_FKF_OPTION},
    {"double_losses", TNY_FK_BOOL, TNY_FK_AT(double_losses), 0, 0, 0, 0, 0, 0,
     TNY_FKF_OPTION},
    {"score_min", TNY_FK_INT, TNY_FK_AT(score_min), 0, 0, -1000000, 1000000, 1,
     0, 0},
    {"score_max", TNY_FK_INT, TNY_FK_AT(score_max), 0, 0, -1000000, 1000000, 1,
     1000000, TNY_FKF_DEFAULT},
    {"points_from_scores", TNY_FK_BOOL, TNY_FK_AT(points_from_scores), 0, 0, 0,
     0, 0, 0, TNY_FKF_IF_SET},
};

const struct tny_game_ops tny_game_two_player = {
    .game = TNY_GAME_TWO_PLAYER,
    .name = "two-player",
    .rules = "CM",
    .flow = TNY_GAME_TWO_PLAYER,
    .players_per_table = 2,
    .min_seats = 2,
    .options = TNY_GOPT_BYE_POINTS | TNY_GOPT_TWO_PLAYER,
    .tiebreaks = 1u << TNY_TB_HEAD_TO_HEAD | 1u << TNY_TB_WINS |
                 1u << TNY_TB_MINI_SCORE_DIFF | 1u << TNY_TB_TOTAL_SCORE |
                 1u << TNY_TB_MOV,
    .n_keys = (int32_t)(sizeof(keys) / sizeof(keys[0])),
    .keys = keys,
    .n_ranges = (int32_t)(sizeof(ranges) / sizeof(ranges[0])),
    .ranges = ranges,
    .score_table = tny__two_player_score,
    .score_bye = tny__two_player_bye,
    .validate_result = tny__two_player_validate,
    .simulate = tny__two_player_simulate,
    .check_scores = tny__two_player_check_scores,
    .result_rules = result_rules,
    .score_text = score_text,
    .wire = "tp",
    .slip = {2, slip_cols, NULL, false, N_("Draw"), true},
    .result_line = result_line,
    .block = {"two_player", (int32_t)(sizeof block_keys / sizeof *block_keys),
              block_keys},
    .format_keys = TNY_GFK_OUTCOMES,
};
