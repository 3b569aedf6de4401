/* catan.c - the Catan module (game.h): VP per player as played (CT-4,
 * counted at most 10 by scoring), placement points with 3-player tables
 * (CT-3), success rate and game points (CT-5, CT-7), the bye (CT-6), at
 * least 90 minutes a game (CT-8), round 1 by lot (CT-2).
 *
 * Not here: the Gorn seating (gorn.c), the board's lots (catan_board.c).
 */
#include <stdio.h>

#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {TNY_RK_VP, TNY_RK_LOTS};

static const struct tny_result_range_info ranges[] = {
    /* CT-4: the VP as played; "counted at most 10" is scoring's cap. */
    {TNY_GAME_CATAN, TNY_RF_VP, TNY_BOUND_FMT(vp_min), TNY_BOUND_FMT(vp_max),
     TNY_BOUND_FMT(game_points_cap), "CT-4", "CT-4", -TNY_RESULT_ABS_MAX,
     TNY_RESULT_ABS_MAX},
};

static void score_table(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec)
{
    (void)elim;
    tny__score_placement(ev, round, t, true, rec);
}

static void score_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    /* CT-6 */
    rec->tp = fmt->bye_placement_points;
    rec->score = fmt->bye_game_points;
    rec->success = fmt->bye_success_permille / 1000.0;
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_result *r = &t->result;
    int rc;

    (void)stage;
    if (!r->has_score)
        return tny_diag_set(diag, TNY_EINVAL, "%s.vp: missing", path);
    for (int32_t s = 0; s < t->n_seats; s++)
        if ((rc = tny__result_check_field(
                 diag, path, tny__player_id(ev, t->seats[s]), r->score[s],
                 &ev->format, TNY_RF_VP)) < 0)
            return rc;
    return TNY_OK;
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    struct tny_result *r = &table->result;
    const int32_t n = table->n_seats;

    (void)ev;
    (void)round_index;
    (void)stage;
    (void)w;
    r->has_score = true;
    for (int32_t s = 0; s < n; s++)
        r->score[s] = tny__sim_between(rng, 3, 9);
    /* somebody reached 10 */
    r->score[tny_rng_below(rng, (uint64_t)n)] = tny__sim_between(rng, 10, 11);
}

static int format_check(const struct tny_format *f, const char *path,
                        struct tny_diag *diag)
{
    if (f->placement_points[0] <= 0 || f->placement_points_3[0] <= 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.points: needs placement and placement_3 "
                            "(CT-3)",
                            path);
    return TNY_OK;
}

static void sync_derived(struct tny_format *f)
{
    f->bye_placement_points = f->bye_points;
}

static const char *round_lots_what(const struct tny_event *ev, int32_t r0,
                                   bool first_of_stage)
{
    (void)first_of_stage;
    return r0 == 0 && ev->rounds[0].stage != TNY_STAGE_ELIMINATION
               ? "CT-2 round-1 tables by lot (purpose pairing); CT-1 bye by "
                 "lot"
               : NULL;
}

/* The VP (CT-4). */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    (void)fmt;
    (void)w;
    snprintf(buf, size, "%d", (int)r->score[s]);
}

/* The slip: the VP (CT-4). */
static const struct tny_slip_col slip_cols[] = {
    /* TRANSLATORS: CT-4: the player's victory points in this game,
       at most 10 (seed 004 calls them "herní body"). */
    {NC_("Catan", "VP"), 20, false, false},
};

/* The format file's "catan" block: the game points' cap (CT-4), the VP
 * range. */
static const struct tny_format_key block_keys[] = {
    {"game_points_cap", TNY_FK_INT, TNY_FK_AT(game_points_cap), 0, 0, 0, 100000,
     1, 0, 0},
    {"vp_min", TNY_FK_INT, TNY_FK_AT(vp_min), 0, 0, -100000, 100000, 1, 0, 0},
    {"vp_max", TNY_FK_INT, TNY_FK_AT(vp_max), 0, 0, -100000, 100000, 1, 0, 0},
};

const struct tny_game_ops tny_game_catan = {
    .game = TNY_GAME_CATAN,
    .name = "catan",
    .rules = "CT",
    .flow = TNY_GAME_CATAN,
    .players_per_table = 4,
    .min_seats = 3, /* CT-1 remainders */
    .min_timer_minutes = 90,
    .timer_rule = "CT-8",
    .options = TNY_GOPT_BYE_POINTS | TNY_GOPT_PLACEMENT,
    .tiebreaks = 1u << TNY_TB_TOTAL_SCORE | 1u << TNY_TB_RELATIVE_SCORE |
                 1u << TNY_TB_BEST_RELATIVE | 1u << TNY_TB_SUCCESS_RATE |
                 1u << TNY_TB_GAME_POINTS | 1u << TNY_TB_FIRSTS |
                 1u << TNY_TB_SECONDS | 1u << TNY_TB_THIRDS,
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
    .round_lots_what = round_lots_what,
    .result_rules = tny__vp_result_rules,
    .score_text = score_text,
    .wire = "ct",
    .slip = {1, slip_cols, NULL, false, NULL, false},
    .result_line = tny__vp_result_line,
    .clocks = TNY_GCLOCK_TURN,
    .boards = true,
    .block = {"catan", (int32_t)(sizeof block_keys / sizeof *block_keys),
              block_keys},
    .format_keys = TNY_GFK_PLACEMENT_3 | TNY_GFK_BYE_GAME_POINTS,
};
