/* neuroshima_hex.c - the Neuroshima Hex module (game.h): a winner or a
 * draw with the HQ difference and the armies played (NH-1, NH-2, NH-10,
 * NH-11), 2-player Swiss and re-seeded elimination, HQ-difference
 * tiebreaks (NH-6), the +7 bye (NH-4).
 *
 * Not here: the armies' registration and NH-11's knockout declarations
 * (validate.c, event.c: they are the players', not a result's).
 */
#include <stdio.h>

#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {
    TNY_RK_WINNER, TNY_RK_DRAW, TNY_RK_HQ_DIFF, TNY_RK_ARMIES, TNY_RK_LOTS};

static const struct tny_result_range_info ranges[] = {
    {TNY_GAME_NEUROSHIMA_HEX, TNY_RF_HQ_DIFF, TNY_BOUND_CONST(0),
     TNY_BOUND_FMT(hq_diff_max), TNY_BOUND_FMT(capped_hq_diff), "NH-1", "NH-2",
     -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
};

static void score_table(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec)
{
    const struct tny_format *fmt = &ev->format;
    int32_t hq[2] = {0, 0};

    (void)round;
    tny_neuroshima_hq(fmt, &t->result, hq);
    tny__score_win_draw(fmt, tny_result_winner_seat(fmt, &t->result),
                        t->result.modified, elim, rec);
    for (int s = 0; s < 2; s++)
        rec[s]->hq = hq[s];
}

static void score_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    rec->tp = fmt->bye_points;
    rec->hq = fmt->bye_hq_diff; /* NH-4 */
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;

    (void)stage;
    if (!r->draw && (r->winner < 0 || r->winner > 1))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"winner\" (a player of the "
                            "table) or \"draw\": true",
                            path);
    if ((rc = tny__result_check_field(diag, path, NULL, r->hq_diff, fmt,
                                      TNY_RF_HQ_DIFF)) < 0)
        return rc;
    for (int s = 0; s < 2; s++)
        if (r->army[s] >= 0 &&
            !tny__player_has_army(ev, t->seats[s], r->army[s]))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.armies.%s: \"%s\" is not one of the "
                                "player's registered armies (NH-10)",
                                path, tny__player_id(ev, t->seats[s]),
                                fmt->armies[r->army[s]]);
    return TNY_OK;
}

/* An army the player has not used in this kind of stage yet (NH-11). */
static int32_t fresh_army(const struct tny_event *ev, int32_t round_index,
                          enum tny_stage_kind stage, int32_t p,
                          struct tny_rng *rng)
{
    const struct tny_player *pl = &ev->players[p];
    const struct tny_format *fmt = &ev->format;
    int32_t candidates[TNY_MAX_ARMIES], n = 0;
    if (pl->beginner) {
        for (int32_t i = 0; i < fmt->n_beginner_armies; i++) {
            int32_t a = tny_format_army_index(fmt, fmt->beginner_armies[i]);
            if (a >= 0)
                candidates[n++] = a;
        }
    } else if (stage == TNY_STAGE_ELIMINATION && pl->n_ko_armies > 0) {
        for (int32_t i = 0; i < pl->n_ko_armies; i++) /* NH-11 declared */
            candidates[n++] = pl->ko_armies[i];
    } else {
        for (int32_t i = 0; i < pl->n_armies; i++)
            candidates[n++] = pl->armies[i];
    }
    bool ko = stage == TNY_STAGE_ELIMINATION;
    int32_t usable[TNY_MAX_ARMIES], n_usable = 0;
    for (int32_t i = 0; i < n; i++) {
        bool used = false;
        for (int32_t r = 0; r < round_index && r < ev->n_rounds && !used; r++) {
            const struct tny_round *round = &ev->rounds[r];
            if ((round->stage == TNY_STAGE_ELIMINATION) != ko)
                continue;
            for (int32_t t = 0; t < round->n_tables && !used; t++) {
                int32_t s = tny_table_seat_of(&round->tables[t], p);
                used = s >= 0 && round->tables[t].has_result &&
                       round->tables[t].result.army[s] == candidates[i];
            }
        }
        if (!used)
            usable[n_usable++] = candidates[i];
    }
    if (n_usable == 0)
        return -1; /* leave the army unrecorded rather than break NH-11 */
    return usable[tny_rng_below(rng, (uint64_t)n_usable)];
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    const struct tny_format *fmt = &ev->format;
    struct tny_result *r = &table->result;

    if (stage != TNY_STAGE_ELIMINATION && tny__sim_uniform(rng) < 0.08) {
        r->draw = true;
    } else {
        r->winner = w;
        /* hq_diff_max 0 (a format without the NH block): every win
         * is by 0, and the range must not be empty. */
        int64_t lo_d, hi_d;
        tny_result_range(fmt, TNY_RF_HQ_DIFF, &lo_d, &hi_d);
        int32_t hi = hi_d < 20 ? (int32_t)hi_d : 20;
        r->hq_diff = tny__sim_between(rng, hi > 0 ? 1 : 0, hi);
    }
    if (fmt->n_armies > 0)
        for (int s = 0; s < 2; s++)
            r->army[s] =
                fresh_army(ev, round_index, stage, table->seats[s], rng);
}

/* NH-1: a winner or a draw, the HQ difference of a win (a draw's is 0). */
static int result_rules(const struct tny_format *fmt, uint64_t present,
                        const char *path, struct tny_result *r,
                        struct tny_diag *diag)
{
    char p[256];

    (void)fmt;
    tny__result_key_path(p, sizeof p, path, TNY_RK_DRAW);
    if (r->draw && r->winner >= 0)
        return tny_diag_set(diag, TNY_EINVAL, "%s: a draw has no winner", p);
    if (r->winner < 0 && !r->draw)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"winner\" or \"draw\": true", path);
    tny__result_key_path(p, sizeof p, path, TNY_RK_HQ_DIFF);
    if (TNY__HAS_KEY(present, TNY_RK_HQ_DIFF) && r->draw && r->hq_diff != 0)
        return tny_diag_set(diag, TNY_EINVAL, "%s: a draw records 0 (NH-1)", p);
    if (!TNY__HAS_KEY(present, TNY_RK_HQ_DIFF) && !r->draw)
        return tny_diag_set(diag, TNY_EINVAL, "%s: missing", p);
    return TNY_OK;
}

/* NH-1: a draw has no winner and no HQ difference to tell. */
static bool result_omits(const struct tny_result *r, enum tny_result_key k)
{
    return r->draw && (k == TNY_RK_WINNER || k == TNY_RK_HQ_DIFF);
}

/* "win +5 Moloch": the outcome, the HQ difference (NH-6), the army. */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    int32_t hq[2];
    const char *outcome = w < 0 ? "draw" : w == s ? "win" : "loss";
    const char *army = r->army[s] >= 0 && r->army[s] < fmt->n_armies
                           ? fmt->armies[r->army[s]]
                           : "";

    tny_neuroshima_hq(fmt, r, hq);
    snprintf(buf, size, "%s %+d%s%s", outcome, (int)hq[s], army[0] ? " " : "",
             army);
}

/* "Anna wins, HQ +5" or "draw". */
static void result_line(const struct tny_result *r, int32_t n_seats,
                        const char *const *name, char *buf, size_t size)
{
    (void)n_seats;
    if (r->draw)
        snprintf(buf, size, "draw");
    else
        snprintf(buf, size, "%s wins, HQ +%d", name[r->winner],
                 (int)r->hq_diff);
}

/* The slip: the army played (NH-11), the winner; under the table the HQ
 * difference and the draw (NH-1). */
static const struct tny_slip_col slip_cols[] = {
    /* TRANSLATORS: NH-11: the army each player played in this match
       (seed 000 has the player mark it on the "karta turniejowa"). */
    {NULL, N_("Army played"), 45, false, false},
    /* TRANSLATORS: a box the winner of the match ticks. */
    {NULL, N_("Winner"), 17, true, false},
};

/* The format file's "neuroshima_hex" block: the legal armies (NH-10),
 * the base box, the capped armies and their cap (NH-2), the HQ range. */
static const struct tny_format_key block_keys[] = {
    {"armies", TNY_FK_NAMES, TNY_FK_AT(armies), TNY_FK_AT(n_armies),
     TNY_MAX_ARMIES, 0, 0, 0, 0, 0},
    {"armies_per_player", TNY_FK_INT, TNY_FK_AT(armies_per_player), 0, 0, 0,
     TNY_MAX_ARMIES, 1, 0, 0},
    {"beginner_armies", TNY_FK_NAMES, TNY_FK_AT(beginner_armies),
     TNY_FK_AT(n_beginner_armies), 8, 0, 0, 0, 0, TNY_FKF_ARMIES},
    {"capped_armies", TNY_FK_NAMES, TNY_FK_AT(capped_armies),
     TNY_FK_AT(n_capped_armies), 4, 0, 0, 0, 0, TNY_FKF_ARMIES},
    {"capped_hq_diff", TNY_FK_INT, TNY_FK_AT(capped_hq_diff), 0, 0, 0, 1000, 1,
     0, 0},
    {"hq_diff_max", TNY_FK_INT, TNY_FK_AT(hq_diff_max), 0, 0, 0, 1000, 1, 0, 0},
};

const struct tny_game_ops tny_game_neuroshima_hex = {
    .game = TNY_GAME_NEUROSHIMA_HEX,
    .name = "neuroshima-hex",
    .rules = "NH",
    .flow = TNY_GAME_NEUROSHIMA_HEX,
    .players_per_table = 2,
    .min_seats = 2,
    .armies = true,
    .options = TNY_GOPT_BYE_POINTS,
    .tiebreaks =
        1u << TNY_TB_HQ_DIFF | 1u << TNY_TB_HEAD_TO_HEAD | 1u << TNY_TB_WINS,
    .n_keys = (int32_t)(sizeof(keys) / sizeof(keys[0])),
    .keys = keys,
    .n_ranges = (int32_t)(sizeof(ranges) / sizeof(ranges[0])),
    .ranges = ranges,
    .score_table = score_table,
    .score_bye = score_bye,
    .validate_result = validate_result,
    .simulate = simulate,
    .result_rules = result_rules,
    .result_omits = result_omits,
    .wire = "nh",
    .slip = {2, slip_cols,
             /* TRANSLATORS: NH-1, seed 000 "różnica wytrzymałości
                sztabów": written on the line after it. */
             N_("HQ difference (winner's HQ minus loser's):"), true,
             /* TRANSLATORS: a box ticked when the match ended in a
                draw. */
             N_("Draw"), false},
    .result_line = result_line,
    .block = {"neuroshima_hex",
              (int32_t)(sizeof block_keys / sizeof *block_keys), block_keys},
    .format_keys = TNY_GFK_BYE_HQ_DIFF,
    .score_text = score_text,
};
