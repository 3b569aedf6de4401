/* module_key_double.c - the test double game of module_key_double.h: a
 * module whose result is the two-player one plus three keys of its own.
 */
#include "module_key_double.h"

#include "tny/i18n.h"

static const enum tny_result_key keys[] = {
    TNY_RK_SCORES, TNY_RK_WINNER, TNY_RK_DRAW, K_ROUNDS,
    K_BONUS,       K_OVERTIME,    TNY_RK_LOTS};

static const struct tny_result_ext ext[] = {
    {{"rounds", "rounds", TNY_RV_NUMBER, 0},
     TNY_BOUND_CONST(1),
     TNY_BOUND_CONST(20),
     "T-1",
     N_("Rounds played")},
    {{"bonus", "bonus", TNY_RV_PER_PLAYER, 0},
     TNY_BOUND_CONST(0),
     TNY_BOUND_CONST(5),
     "T-2",
     N_("Bonus")},
    {{"overtime", "overtime", TNY_RV_FLAG, 0},
     TNY_BOUND_NONE,
     TNY_BOUND_NONE,
     "T-3",
     N_("Overtime")},
};

static const struct tny_result_range_info ranges[] = {
    {DOUBLE, TNY_RF_SCORE, TNY_BOUND_FMT(score_min), TNY_BOUND_FMT(score_max),
     TNY_BOUND_NONE, "T-1", NULL, -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
};

const struct tny_game_ops tny_test_double_game = {
    .game = DOUBLE,
    .name = "module-key-test",
    .rules = "T",
    .flow = TNY_GAME_TWO_PLAYER,
    .players_per_table = 2,
    .min_seats = 2,
    .options = TNY_GOPT_BYE_POINTS | TNY_GOPT_TWO_PLAYER,
    .tiebreaks = 1u << TNY_TB_WINS,
    .n_keys = (int32_t)(sizeof keys / sizeof keys[0]),
    .keys = keys,
    .n_ranges = (int32_t)(sizeof ranges / sizeof ranges[0]),
    .ranges = ranges,
    .n_ext = (int32_t)(sizeof ext / sizeof ext[0]),
    .ext = ext,
    .score_table = tny__two_player_score,
    .score_bye = tny__two_player_bye,
    .validate_result = tny__two_player_validate,
    .simulate = tny__two_player_simulate,
    .check_scores = tny__two_player_check_scores,
};
