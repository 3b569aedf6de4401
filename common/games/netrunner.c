/* netrunner.c - the Netrunner module (game.h; docs/formats.md NR-1..NR-5,
 * after NSG's tournament rules): a game won 3, tied 1, lost 0 (NR-1);
 * single-sided Swiss, one game a round with the sides the pairing
 * assigns (NR-2); double-sided Swiss, two games a round, each player once
 * on each side, recorded as each player's points for the round (NR-3);
 * a bye wins every game of its round (NR-4); SoS and ESoS (NR-5).
 *
 * A Netrunner result has the two-player result's keys (a winner, a draw,
 * scores, ...), so its wire message, JSON mapping and table flow are the
 * two-player ones (flow); what differs is here: the game's name, its
 * score rule and NR-3's check that a round's points are those two games
 * can give.
 */
#include "tny/game.h"

/* The two-player keys but a double loss, which no NSG result is. */
static const enum tny_result_key keys[] = {TNY_RK_SCORES, TNY_RK_WINNER,
                                           TNY_RK_DRAW, TNY_RK_INTENTIONAL_DRAW,
                                           TNY_RK_LOTS};

static const struct tny_result_range_info ranges[] = {
    /* NR-2 agenda points of the game, NR-3 the round's points 0..6 */
    {TNY_GAME_NETRUNNER, TNY_RF_SCORE, TNY_BOUND_FMT(score_min),
     TNY_BOUND_FMT(score_max), TNY_BOUND_NONE, "NR-3", NULL,
     -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
};

/* NR-1 points of one game */
#define NR_WIN 3
#define NR_TIE 1

bool tny_netrunner_round_points_ok(int32_t a, int32_t b)
{
    /* NR-3: at most two games, each 3-0, 0-3 or 1-1: a = 3 wa + t,
     * b = 3 wb + t with wa + wb + t <= 2 (a game cut by time is not
     * played, NSG). */
    for (int32_t t = 0; t <= 2; t++)
        for (int32_t wa = 0; wa + t <= 2; wa++)
            for (int32_t wb = 0; wa + wb + t <= 2; wb++)
                if (a == NR_WIN * wa + NR_TIE * t &&
                    b == NR_WIN * wb + NR_TIE * t)
                    return true;
    return false;
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;

    if ((rc = tny__two_player_validate(ev, stage, t, path, diag)) < 0)
        return rc;
    /* A format whose range is wider than two games' points (an import
     * that kept what its source stored, widening the range) says so. */
    if (fmt->points_from_scores && r->has_score &&
        fmt->score_max <= 2 * NR_WIN &&
        !tny_netrunner_round_points_ok(r->score[0], r->score[1]))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.scores: %d-%d are not the points of a "
                            "double-sided round (NR-3: two games, each "
                            "won 3-0 or tied 1-1)",
                            path, (int)r->score[0], (int)r->score[1]);
    return TNY_OK;
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    struct tny_result *r = &table->result;

    if (!ev->format.points_from_scores) { /* NR-2: one game */
        tny__two_player_simulate(ev, round_index, stage, table, rng, w);
        return;
    }
    /* NR-3: two games, each a win of either player or (1 in 10) a tie */
    r->has_score = true;
    for (int g = 0; g < 2; g++) {
        if (tny__sim_uniform(rng) < 0.1) {
            r->score[0] += NR_TIE;
            r->score[1] += NR_TIE;
        } else {
            const int32_t a = table->seats[0], b = table->seats[1];
            r->score[tny__sim_uniform(rng) < tny__sim_win_chance(ev, a, b)
                         ? 0
                         : 1] += NR_WIN;
        }
    }
    if (r->score[0] != r->score[1])
        r->winner = r->score[0] > r->score[1] ? 0 : 1;
    else
        r->draw = true;
}

const struct tny_game_ops tny_game_netrunner = {
    .game = TNY_GAME_NETRUNNER,
    .name = "netrunner",
    .rules = "NR",
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
    /* NR-1, NR-4: the format's points (3/1/0, bye 3; double-sided: the
     * round's points as recorded, bye 6) */
    .score_table = tny__two_player_score,
    .score_bye = tny__two_player_bye,
    .validate_result = validate_result,
    .simulate = simulate,
    .check_scores = tny__two_player_check_scores,
};
