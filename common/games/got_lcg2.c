/* got_lcg2.c - the A Game of Thrones LCG 2nd edition module (game.h): a
 * winner, a modified win (GT-1, GT-13), best-of-three elimination
 * matches (GT-9), the structure from attendance (GT-5).
 *
 * Not here: the bracket (bracket.c), GT-11 rejoins (validate.c).
 */
#include <stdio.h>

#include "tny/bracket.h"
#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {TNY_RK_WINNER, TNY_RK_MODIFIED,
                                           TNY_RK_GAMES, TNY_RK_LOTS};

static void score_table(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec)
{
    (void)round;
    tny__score_win_draw(&ev->format,
                        tny_result_winner_seat(&ev->format, &t->result),
                        t->result.modified, elim, rec);
}

static void score_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    rec->tp = fmt->bye_points;
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_result *r = &t->result;

    (void)ev;
    if (stage == TNY_STAGE_ELIMINATION && r->n_games > 0) {
        int32_t winner;
        int32_t games[3];
        for (int32_t g = 0; g < r->n_games; g++)
            games[g] = t->seats[r->games[g]];
        return tny_bracket_bo3_winner(games, r->n_games, t->seats[0],
                                      t->seats[1], &winner, diag) < 0
                   ? tny_diag_set(diag, TNY_EINVAL,
                                  "%s.games: not a finished best-of-three "
                                  "(GT-9: first to two game wins)",
                                  path)
                   : TNY_OK;
    }
    if (r->winner < 0 || r->winner > 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"winner\": a player of the "
                            "table (GT-1)",
                            path);
    return TNY_OK; /* a Bo3 may also be recorded by its winner alone */
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    struct tny_result *r = &table->result;
    const int32_t a = table->seats[0], b = table->seats[1];

    (void)round_index;
    if (stage == TNY_STAGE_ELIMINATION) { /* GT-9: first to two game wins */
        int wins[2] = {0, 0};
        while (wins[0] < 2 && wins[1] < 2) {
            int g =
                tny__sim_uniform(rng) < tny__sim_win_chance(ev, a, b) ? 0 : 1;
            r->games[r->n_games++] = g;
            wins[g]++;
        }
        r->winner = wins[0] == 2 ? 0 : 1;
    } else {
        r->winner = w;
        r->modified = tny__sim_uniform(rng) < 0.15;
    }
}

/* A winner or the games of a best of three (GT-1, GT-9). */
static int result_rules(const struct tny_format *fmt, uint64_t present,
                        const char *path, struct tny_result *r,
                        struct tny_diag *diag)
{
    (void)fmt;
    (void)present;
    if (r->winner < 0 && r->n_games == 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected \"winner\" or \"games\"", path);
    return TNY_OK;
}

/* "win 2-1" for a best of three, else "modified win" (GT-13) or the
 * outcome. */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    const char *outcome = w < 0 ? "draw" : w == s ? "win" : "loss";

    (void)fmt;
    if (r->n_games > 1) {
        int won = 0;
        for (int32_t g = 0; g < r->n_games; g++)
            won += r->games[g] == s;
        snprintf(buf, size, "%s %d-%d", outcome, won, (int)r->n_games - won);
    } else {
        snprintf(buf, size, "%s%s", r->modified && w >= 0 ? "modified " : "",
                 outcome);
    }
}

/* "games Anna Ben Anna" (GT-9), "Anna wins (modified)" (GT-13). */
static void result_line(const struct tny_result *r, int32_t n_seats,
                        const char *const *name, char *buf, size_t size)
{
    (void)n_seats;
    if (r->n_games > 0) {
        size_t n = (size_t)snprintf(buf, size, "games");
        for (int32_t g = 0; g < r->n_games && n < size; g++)
            n += (size_t)snprintf(buf + n, size - n, " %s", name[r->games[g]]);
    } else {
        snprintf(buf, size, "%s %s", name[r->winner],
                 r->modified ? "wins (modified)" : "wins");
    }
}

/* The slip: the games of a best of three (GT-9), the winner; under the
 * table the modified win (GT-13). */
static const struct tny_slip_col slip_cols[] = {
    /* TRANSLATORS: GT-9: the games of a best-of-three match. */
    {NULL, N_("Game %d"), 17, true, true},
    {NULL, N_("Winner"), 17, true, false},
};

const struct tny_game_ops tny_game_got_lcg2 = {
    .game = TNY_GAME_GOT_LCG2,
    .name = "got-lcg2",
    .rules = "GT",
    .flow = TNY_GAME_GOT_LCG2,
    .players_per_table = 2,
    .min_seats = 2,
    .options = TNY_GOPT_STRUCTURE | TNY_GOPT_BYE_POINTS,
    .tiebreaks = 1u << TNY_TB_HEAD_TO_HEAD | 1u << TNY_TB_WINS,
    .n_keys = (int32_t)(sizeof(keys) / sizeof(keys[0])),
    .keys = keys,
    .score_table = score_table,
    .score_bye = score_bye,
    .validate_result = validate_result,
    .simulate = simulate,
    .result_rules = result_rules,
    .score_text = score_text,
    .wire = "gt",
    .slip = {2, slip_cols, NULL, false,
             /* TRANSLATORS: GT-1, GT-13: won by the time-out procedure
                (seed 003 "zmodyfikowane zwycięstwo"). */
             N_("Modified win"), false},
    .result_line = result_line,
    .format_keys =
        TNY_GFK_STRUCTURE | TNY_GFK_MODIFIED_WIN | TNY_GFK_MODIFIED_WIN_SHOWN,
};
