/* elo.h - Elo rating over a chronological list of past events (AG-2, TX-12).
 *
 * Each game has 2..4 players with a game score (higher is better; equal
 * scores tie).  A game of k players counts as the k(k-1)/2 pairwise results
 * it implies (win 1, tie 0.5, loss 0); all pairwise updates of a game use
 * the ratings from before the game and are applied together.  Only the last
 * max_events events count (everyone starts at the initial rating at the
 * first of them); a player is *rated* with at least min_events of those
 * events and min_games games there.
 *
 * Not here: the rating store, player identity, event dates.  Players are
 * indices 0..n_players-1 chosen by the caller.  Pure: no state; allocates
 * one scratch array per call.
 */
#ifndef TNY_ELO_H
#define TNY_ELO_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"

#define TNY_ELO_MAX_SEATS 4

/* One game: n_players (2..4) distinct players and their game scores. */
struct tny_elo_game {
    int32_t n_players;
    int32_t player[TNY_ELO_MAX_SEATS]; /* indices 0..n_players-1 of the pool */
    int32_t score[TNY_ELO_MAX_SEATS];  /* higher is better; equal = tie */
};

/* One past event: its games in order (borrowed). */
struct tny_elo_event {
    const struct tny_elo_game *games;
    int32_t n_games;
};

struct tny_elo_params {
    double k;           /* K factor per pairwise result (default 20) */
    double initial;     /* starting rating (default 1500) */
    int32_t max_events; /* only the last max_events events count (10) */
    int32_t min_events; /* rated with at least this many of them (2) */
    int32_t min_games;  /* and at least this many games in them (5) */
};

/* Result for one player of the pool. */
struct tny_elo_rating {
    double rating;  /* initial if the player played no counted game */
    int32_t games;  /* games played in the counted events */
    int32_t events; /* counted events with at least one game */
    bool rated;     /* events >= min_events && games >= min_games */
};

/* Defaults above (AG-2: 10 events, 2 events, 5 games; K 20, 1500: the seeds
 * give no K or start value). */
void tny_elo_params_default(struct tny_elo_params *params);

/* Expected score of a player rated ra against one rated rb:
 * 1 / (1 + 10^((rb - ra) / 400)). */
double tny_elo_expected(double ra, double rb);

/* Rate a pool of n_players from events[] (n_events, oldest first; only the
 * last params->max_events count).  out[] (n_players entries) receives every
 * player's result.  Every game of a counted event affects its players'
 * ratings, rated or not.
 * Errors: TNY_EINVAL (bad params: k not > 0 and finite, initial not finite,
 * max_events < 1, min_events or min_games < 0; n_players < 0; a game with
 * fewer than 2 or more than 4 players, a player out of range or repeated,
 * n_games < 0 or games NULL with n_games > 0 — the diag names
 * events[i].games[j]), TNY_ENOMEM. */
TNY_MUST_USE int tny_elo_compute(const struct tny_elo_params *params,
                                 int32_t n_players,
                                 const struct tny_elo_event *events,
                                 int32_t n_events, struct tny_elo_rating *out,
                                 struct tny_diag *diag);

#endif
