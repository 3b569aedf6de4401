/* tantrix.c - the Tantrix module (game.h): game scores with chess-clock
 * times, a default win, an organiser's decision, penalties and the
 * unrestorable-board draw (TX-1..TX-7, seed 001 s13), TP by margin
 * (TX-2, score.c's tny_tantrix_tp), mini-league tiebreaks (TX-8).
 *
 * Not here: the TX-3 clock arithmetic (clock.c), TX-6 missed games
 * (standings.c).
 */
#include <stdio.h>

#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {
    TNY_RK_SCORES,  TNY_RK_CLOCK_MS, TNY_RK_DEFAULT_WIN, TNY_RK_TP,
    TNY_RK_PENALTY, TNY_RK_DRAW,     TNY_RK_LOTS};

/* The protocol's structural bounds: a score 0..10^5, TP 0..100 TP. */
#define WIRE_SCORE 100000
#define WIRE_TP ((int64_t)100 * TNY_POINT_SCALE)
#define CLOCK_MAX_MS ((int64_t)4 * 3600 * 1000)

static const struct tny_result_range_info ranges[] = {
    /* A Tantrix score is never negative, whatever score_min says. */
    {TNY_GAME_TANTRIX, TNY_RF_SCORE, TNY_BOUND_CONST(0),
     TNY_BOUND_FMT(score_max), TNY_BOUND_NONE, "TX-1", NULL, 0, WIRE_SCORE},
    {TNY_GAME_TANTRIX, TNY_RF_CLOCK_MS, TNY_BOUND_CONST(0),
     TNY_BOUND_CONST(CLOCK_MAX_MS), TNY_BOUND_NONE, "TX-3", NULL, 0, INT32_MAX},
    {TNY_GAME_TANTRIX, TNY_RF_DECIDED_TP, TNY_BOUND_CONST(0),
     TNY_BOUND_FMT(tp_per_game), TNY_BOUND_NONE, "TX-4", NULL, 0, WIRE_TP},
};

static void score_table(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec)
{
    const struct tny_result *res = &t->result;
    int64_t tp[2];

    (void)round;
    tny_tantrix_tp(&ev->format, res, tp);
    int32_t w; /* TX-8: the game is won by the higher game score */
    if (res->draw)
        w = -1;
    else if (res->decided)
        w = tp[0] == tp[1] ? -1 : (tp[0] > tp[1] ? 0 : 1);
    else if (res->default_winner >= 0)
        w = res->default_winner;
    else
        w = res->score[0] == res->score[1]
                ? -1
                : (res->score[0] > res->score[1] ? 0 : 1);
    bool scored = !res->decided && !res->draw && res->default_winner < 0;
    for (int s = 0; s < 2; s++) {
        rec[s]->tp = tp[s];
        rec[s]->win = w < 0 ? 0.5f : (w == s ? 1.0f : 0.0f);
        rec[s]->place = (int8_t)(w < 0 || w == s ? 1 : 2);
        rec[s]->score_place = rec[s]->place;
        rec[s]->elim_won = elim && w == s;
        rec[s]->has_score = scored;
        rec[s]->score = scored ? res->score[s] : 0;
        rec[s]->opp_score = scored ? res->score[1 - s] : 0;
    }
}

static void score_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    rec->tp = fmt->bye_tp; /* TX-13 */
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;

    (void)stage;
    if (r->decided) {
        int64_t lo, hi_tp;
        tny_result_range(fmt, TNY_RF_DECIDED_TP, &lo, &hi_tp);
        for (int s = 0; s < 2; s++)
            if (r->decided_tp[s] < lo || r->decided_tp[s] > hi_tp) {
                char got[32], hi[32];
                tny_points_text(r->decided_tp[s], got, sizeof(got));
                tny_points_text(hi_tp, hi, sizeof(hi));
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.%s.%s: expected points 0..%s, "
                                    "got %s",
                                    path, tny_result_key_name(TNY_RK_TP),
                                    tny__player_id(ev, t->seats[s]), hi, got);
            }
        return TNY_OK;
    }
    if (r->draw) /* seed 001 s13: the board could not be restored */
        return r->has_score || r->default_winner >= 0
                   ? tny_diag_set(diag, TNY_EINVAL,
                                  "%s.draw: a draw (the board could "
                                  "not be restored, seed 001 s13) has "
                                  "no scores and no default",
                                  path)
                   : TNY_OK;
    if (r->default_winner >= 0)
        return r->default_winner <= 1
                   ? TNY_OK
                   : tny_diag_set(diag, TNY_EINVAL,
                                  "%s.default_win: not a player of the "
                                  "table",
                                  path);
    if (!r->has_score)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"scores\", \"default_win\", "
                            "\"tp\" or \"draw\": true",
                            path);
    for (int s = 0; s < 2; s++) {
        const char *who = tny__player_id(ev, t->seats[s]);
        if ((rc = tny__result_check_field(diag, path, who, r->score[s], fmt,
                                          TNY_RF_SCORE)) < 0)
            return rc;
        if (r->has_clock &&
            (rc = tny__result_check_field(diag, path, who, r->clock_ms[s], fmt,
                                          TNY_RF_CLOCK_MS)) < 0)
            return rc;
    }
    return TNY_OK;
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    struct tny_result *r = &table->result;

    (void)ev;
    (void)round_index;
    (void)stage;
    r->has_score = true;
    int32_t win_score = tny__sim_between(rng, 20, 45);
    int32_t lose_score = win_score - tny__sim_between(rng, 0, 20);
    if (lose_score < 0)
        lose_score = 0;
    r->score[w] = win_score;
    r->score[1 - w] = lose_score;
    r->has_clock = true;
    for (int s = 0; s < 2; s++) /* mostly inside 20 minutes */
        r->clock_ms[s] = tny__sim_between(rng, 600000, 1260000);
}

/* The event file writes a result's keys in this order, not the key
 * check's (event-file.md's examples). */
static const enum tny_result_key keys_written[] = {
    TNY_RK_SCORES, TNY_RK_CLOCK_MS, TNY_RK_DEFAULT_WIN, TNY_RK_TP,
    TNY_RK_DRAW,   TNY_RK_PENALTY,  TNY_RK_LOTS};

static int format_check(const struct tny_format *f, const char *path,
                        struct tny_diag *diag)
{
    if (f->tp_per_game <= 0 || f->n_margins < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.tantrix: needs tp_per_game and margin_tp "
                            "(TX-2)",
                            path);
    for (int i = 0; i < f->n_margins; i++)
        if (f->margin_tp[i] < 0 || f->margin_tp[i] > f->tp_per_game)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.tantrix.margin_tp[%d]: outside "
                                "0..tp_per_game",
                                path, i);
    if (f->default_win_tp > f->tp_per_game)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.tantrix.default_win_tp: more than "
                            "tp_per_game",
                            path);
    if (f->clock_limit_ms > 0 && f->clock_step_ms <= 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.tantrix.clock_step_seconds: missing", path);
    return TNY_OK;
}

static void sync_derived(struct tny_format *f)
{
    f->bye_tp = f->bye_points;
}

/* Scores, an organiser's TP (TX-4), a default (TX-5) or a draw (seed
 * 001 s13: the board could not be restored), one of them. */
static int result_rules(const struct tny_format *fmt, uint64_t present,
                        const char *path, struct tny_result *r,
                        struct tny_diag *diag)
{
    char p[256];

    (void)fmt;
    (void)present;
    if (r->draw && (r->has_score || r->decided || r->default_winner >= 0)) {
        tny__result_key_path(p, sizeof p, path, TNY_RK_DRAW);
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: a draw (the board could not be "
                            "restored, seed 001 s13) has no "
                            "\"scores\", \"tp\" or \"default_win\"",
                            p);
    }
    if (r->default_winner >= 0 && (r->has_score || r->decided)) {
        tny__result_key_path(p, sizeof p, path, TNY_RK_DEFAULT_WIN);
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: a default has no "
                            "\"scores\" or \"tp\" (TX-5)",
                            p);
    }
    if (!r->has_score && !r->decided && r->default_winner < 0 && !r->draw)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"scores\", \"default_win\", "
                            "\"tp\" or \"draw\": true",
                            path);
    if (r->has_clock && !r->has_score)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.clock_ms: only with \"scores\"", path);
    return TNY_OK;
}

/* A TX-4 decision has no scores, clocks or default, a TX-5 default no
 * scores or clocks. */
static bool result_omits(const struct tny_result *r, enum tny_result_key k)
{
    const bool score = k == TNY_RK_SCORES || k == TNY_RK_CLOCK_MS;
    return (r->decided && (score || k == TNY_RK_DEFAULT_WIN)) ||
           (r->default_winner >= 0 && score);
}

/* For the ratings: the scores, else who got more TP (a default, a
 * decision). */
static void seat_scores(const struct tny_format *fmt,
                        const struct tny_result *r, int32_t n_seats,
                        int32_t *score)
{
    int64_t tp[2];

    if (r->has_score) {
        for (int32_t s = 0; s < n_seats; s++)
            score[s] = r->score[s];
        return;
    }
    tny_tantrix_tp(fmt, r, tp);
    score[0] = tp[0] > tp[1];
    score[1] = tp[1] > tp[0];
}

/* The score (TX-1), or a default's outcome. */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    (void)fmt;
    (void)w;
    if (r->has_score)
        snprintf(buf, size, "%d", (int)r->score[s]);
    else if (r->default_winner >= 0)
        snprintf(buf, size, "%s by default",
                 r->default_winner == s ? "win" : "loss");
}

/* "25 : 18". */
static void result_line(const struct tny_result *r, int32_t n_seats,
                        const char *const *name, char *buf, size_t size)
{
    (void)n_seats;
    (void)name;
    snprintf(buf, size, "%d : %d", (int)r->score[0], (int)r->score[1]);
}

/* The slip: the score (TX-1), the chess clock's time left (TX-3). */
static const struct tny_slip_col slip_cols[] = {
    /* TRANSLATORS: TX-1: the player's game score (line or loop). */
    {NULL, N_("Score"), 20, false, false},
    /* TRANSLATORS: TX-3: what the player's chess clock shows at the
       end of the game. */
    {NULL, N_("Clock time left"), 30, false, false},
};

/* The format file's "tantrix" block: TP a game and by margin (TX-2), the
 * chess clock (TX-3), the default (TX-5), missed games (TX-6), the score
 * range. */
static const struct tny_format_key block_keys[] = {
    {"tp_per_game", TNY_FK_POINTS, TNY_FK_AT(tp_per_game), 0, 0, 0, 0, 0, 0, 0},
    {"margin_tp", TNY_FK_POINTS_LIST, TNY_FK_AT(margin_tp),
     TNY_FK_AT(n_margins), 64, 0, 0, 0, 0, 0},
    {"clock_minutes", TNY_FK_INT, TNY_FK_AT(clock_limit_ms), 0, 0, 0, 1440,
     60000, 0, 0},
    /* absent without a chess clock: 0 is not a step the parser takes, and
     * the printed format must read back */
    {"clock_step_seconds", TNY_FK_INT, TNY_FK_AT(clock_step_ms), 0, 0, 1, 3600,
     1000, 0, TNY_FKF_IF_SET},
    {"clock_penalty", TNY_FK_POINTS, TNY_FK_AT(clock_penalty), 0, 0, 0, 0, 0, 0,
     0},
    {"default_win_tp", TNY_FK_POINTS, TNY_FK_AT(default_win_tp), 0, 0, 0, 0, 0,
     0, 0},
    {"max_missed_games", TNY_FK_INT, TNY_FK_AT(max_missed_games), 0, 0, 0, 1000,
     1, 0, 0},
    {"score_max", TNY_FK_INT, TNY_FK_AT(score_max), 0, 0, 0, 100000, 1, 0, 0},
};

const struct tny_game_ops tny_game_tantrix = {
    .game = TNY_GAME_TANTRIX,
    .name = "tantrix",
    .rules = "TX",
    .flow = TNY_GAME_TANTRIX,
    .players_per_table = 2,
    .min_seats = 2,
    .options = TNY_GOPT_BYE_POINTS | TNY_GOPT_TX,
    .tiebreaks = 1u << TNY_TB_HEAD_TO_HEAD | 1u << TNY_TB_WINS |
                 1u << TNY_TB_MINI_TP | 1u << TNY_TB_MINI_SCORE_DIFF |
                 1u << TNY_TB_TOTAL_SCORE,
    .n_keys = (int32_t)(sizeof(keys) / sizeof(keys[0])),
    .keys = keys,
    .n_ranges = (int32_t)(sizeof(ranges) / sizeof(ranges[0])),
    .ranges = ranges,
    .score_table = score_table,
    .score_bye = score_bye,
    .validate_result = validate_result,
    .simulate = simulate,
    .format_check = format_check,
    .sync_derived = sync_derived,
    .n_keys_written = (int32_t)(sizeof keys_written / sizeof keys_written[0]),
    .keys_written = keys_written,
    .result_rules = result_rules,
    .score_text = score_text,
    .result_omits = result_omits,
    .wire = "tx",
    .slip = {2, slip_cols,
             N_("Clock times as M:SS when the game used a chess clock."), false,
             NULL, false},
    .result_line = result_line,
    .clocks = TNY_GCLOCK_CHESS,
    .seat_scores = seat_scores,
    .block = {"tantrix", (int32_t)(sizeof block_keys / sizeof *block_keys),
              block_keys},
    .format_keys = TNY_GFK_MODIFIED_WIN | TNY_GFK_POINTS_IF_SET,
};
