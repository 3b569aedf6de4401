/* elo.c - Elo ratings from past events (AG-2, TX-12); see elo.h.
 *
 * Validates every counted event first, so a bad input changes nothing in
 * out[].  Per game: deltas accumulate from pre-game ratings over all pairs,
 * then apply, so the sum of ratings is conserved (up to rounding).
 */
#include "tny/elo.h"

#include <math.h>
#include <stdlib.h>

void tny_elo_params_default(struct tny_elo_params *params)
{
    params->k = 20.0;
    params->initial = 1500.0;
    params->max_events = 10;
    params->min_events = 2;
    params->min_games = 5;
}

double tny_elo_expected(double ra, double rb)
{
    return 1.0 / (1.0 + pow(10.0, (rb - ra) / 400.0));
}

static int check_params(const struct tny_elo_params *p, struct tny_diag *diag)
{
    if (!(p->k > 0.0) || !isfinite(p->k))
        return tny_diag_set(diag, TNY_EINVAL,
                            "elo.k: %g: expected a finite number > 0", p->k);
    if (!isfinite(p->initial))
        return tny_diag_set(diag, TNY_EINVAL,
                            "elo.initial: expected a finite number");
    if (p->max_events < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "elo.max_events: %d: expected >= 1",
                            (int)p->max_events);
    if (p->min_events < 0 || p->min_games < 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "elo.min_events/min_games: expected >= 0");
    return TNY_OK;
}

static int check_game(const struct tny_elo_game *g, int32_t n_players,
                      int32_t e, int32_t j, struct tny_diag *diag)
{
    if (g->n_players < 2 || g->n_players > TNY_ELO_MAX_SEATS)
        return tny_diag_set(diag, TNY_EINVAL,
                            "events[%d].games[%d].n_players: %d: expected "
                            "2..%d",
                            (int)e, (int)j, (int)g->n_players,
                            TNY_ELO_MAX_SEATS);
    for (int32_t s = 0; s < g->n_players; s++) {
        if (g->player[s] < 0 || g->player[s] >= n_players)
            return tny_diag_set(diag, TNY_EINVAL,
                                "events[%d].games[%d].player[%d]: %d: "
                                "expected 0..%d",
                                (int)e, (int)j, (int)s, (int)g->player[s],
                                (int)n_players - 1);
        for (int32_t t = 0; t < s; t++)
            if (g->player[t] == g->player[s])
                return tny_diag_set(diag, TNY_EINVAL,
                                    "events[%d].games[%d].player[%d]: "
                                    "player %d repeated",
                                    (int)e, (int)j, (int)s, (int)g->player[s]);
    }
    return TNY_OK;
}

int tny_elo_compute(const struct tny_elo_params *params, int32_t n_players,
                    const struct tny_elo_event *events, int32_t n_events,
                    struct tny_elo_rating *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t *last_event = NULL; /* last counted event index seen per player */

    rc = check_params(params, diag);
    if (rc < 0)
        goto out;
    if (n_players < 0 || n_events < 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "elo: %d players, %d events: expected >= 0",
                          (int)n_players, (int)n_events);
        goto out;
    }
    int32_t first =
        n_events > params->max_events ? n_events - params->max_events : 0;
    for (int32_t e = first; e < n_events; e++) {
        if (events[e].n_games < 0 ||
            (events[e].n_games > 0 && !events[e].games)) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "events[%d]: %d games without a game list",
                              (int)e, (int)events[e].n_games);
            goto out;
        }
        for (int32_t j = 0; j < events[e].n_games; j++) {
            rc = check_game(&events[e].games[j], n_players, e, j, diag);
            if (rc < 0)
                goto out;
        }
    }
    if (n_players == 0)
        goto out;
    last_event = malloc((size_t)n_players * sizeof(*last_event));
    if (!last_event) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "elo: out of memory");
        goto out;
    }
    for (int32_t i = 0; i < n_players; i++) {
        out[i].rating = params->initial;
        out[i].games = 0;
        out[i].events = 0;
        out[i].rated = false;
        last_event[i] = -1;
    }
    for (int32_t e = first; e < n_events; e++) {
        for (int32_t j = 0; j < events[e].n_games; j++) {
            const struct tny_elo_game *g = &events[e].games[j];
            double delta[TNY_ELO_MAX_SEATS] = {0};
            /* Every pair of the game is one result, all from the pre-game
             * ratings (AG-2: a 4-player game is 6 pairwise results). */
            for (int32_t s = 0; s < g->n_players; s++) {
                for (int32_t t = s + 1; t < g->n_players; t++) {
                    double rs = out[g->player[s]].rating;
                    double rt = out[g->player[t]].rating;
                    double actual = g->score[s] > g->score[t]   ? 1.0
                                    : g->score[s] < g->score[t] ? 0.0
                                                                : 0.5;
                    double d = params->k * (actual - tny_elo_expected(rs, rt));
                    delta[s] += d;
                    delta[t] -= d;
                }
            }
            for (int32_t s = 0; s < g->n_players; s++) {
                int32_t p = g->player[s];
                out[p].rating += delta[s];
                out[p].games++;
                if (last_event[p] != e) {
                    last_event[p] = e;
                    out[p].events++;
                }
            }
        }
    }
    for (int32_t i = 0; i < n_players; i++)
        out[i].rated = out[i].events >= params->min_events &&
                       out[i].games >= params->min_games;
out:
    free(last_event);
    return rc;
}
