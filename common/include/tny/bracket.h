/* bracket.h - single-elimination brackets, one round at a time (NH-7..9,
 * GT-6..10).
 *
 * The event engine owns the rounds; every function here turns plain arrays
 * (who is left, who won the games of the previous round) into the games of
 * one round, or the final order.  Players are int32_t ids chosen by the
 * caller: Swiss seeds (1 = best) where a function says "seed", any
 * non-negative id otherwise.  TNY_BRACKET_BYE (negative) marks an empty
 * slot of a game.
 *
 * Not here: timers, results storage, army choice, Swiss standings.  Nothing
 * here allocates except where a function documents TNY_ENOMEM; nothing keeps
 * state between calls.
 *
 * Invariants of a round's games (struct tny_bracket_game array):
 *   - games are listed in game-number order (games[0] is Game #1, which is
 *     also table order);
 *   - every player appears in at most one game;
 *   - a = TNY_BRACKET_BYE implies b = TNY_BRACKET_BYE (a bye holder always
 *     sits in slot a; a game with both slots empty is an "empty game", left
 *     when both of its players were removed, GT-10).
 */
#ifndef TNY_BRACKET_H
#define TNY_BRACKET_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/rng.h"

/* Empty slot of a game: the other player has a bye. */
#define TNY_BRACKET_BYE (-1)

/* Largest bracket these functions accept (players in one round). */
#define TNY_BRACKET_MAX 4096

/* One game (two-player match) of an elimination round.  a is listed first
 * (the better seed in a re-seeded round; the winner of the lower-numbered
 * game in a folded round; the bye holder in a bye). */
struct tny_bracket_game {
    int32_t a;
    int32_t b; /* TNY_BRACKET_BYE: a has a bye (wins without playing) */
};

/* True if the game is a bye for a (or an empty game). */
static inline bool tny_bracket_game_is_bye(const struct tny_bracket_game *g)
{
    return g->b == TNY_BRACKET_BYE;
}

/* NH-7 (every round) and GT-7 (first round after the cut): pair the n
 * remaining players outside-in by seed: best remaining seed vs worst
 * remaining, second best vs second worst, ...  seeds[] (n entries, borrowed)
 * are the remaining players' Swiss seeds (1 = best), distinct and positive,
 * in any order.  games[] (n / 2 entries, caller's storage) receives the
 * games ordered by their better seed, which sits in slot a.
 * n must be a power of two, 2 <= n <= TNY_BRACKET_MAX.
 * Errors: TNY_ERANGE (n), TNY_EINVAL (a seed <= 0 or repeated). */
TNY_MUST_USE int tny_bracket_reseeded_round(int32_t n, const int32_t *seeds,
                                            struct tny_bracket_game *games,
                                            struct tny_diag *diag);

/* GT-7 / GT-8 later rounds (bracket folding, no re-seeding).  prev[]
 * (n_prev entries, game-number order) are the previous round's games and
 * winners[i] the winner of prev[i]: a or b of a played game, a of a bye, and
 * TNY_BRACKET_BYE for an empty game.  games[] (n_prev / 2 entries) receives
 * the next round: new Game #k (k = 1..n_prev/2) is the winner of Game #k vs
 * the winner of Game #(n_prev + 1 - k), in that slot order; when one side
 * is TNY_BRACKET_BYE the remaining player moves to slot a (a bye).
 * n_prev must be a power of two, 2 <= n_prev <= TNY_BRACKET_MAX / 2.
 * Errors: TNY_ERANGE (n_prev), TNY_EINVAL (a winner who is not a player of
 * that game, or a malformed game). */
TNY_MUST_USE int tny_bracket_folded_round(int32_t n_prev,
                                          const struct tny_bracket_game *prev,
                                          const int32_t *winners,
                                          struct tny_bracket_game *games,
                                          struct tny_diag *diag);

/* GT-8 elimination from the start.  ids[] (n entries, distinct,
 * non-negative, borrowed) are the players.  With S the smallest power of two
 * >= n, S - n random players get a bye, the others are paired at random, and
 * all games (matches and byes) are numbered at random from Game #1.
 * games[] (S / 2 entries) receives them; *n_games = S / 2.  Randomness: one
 * tny_rng_shuffle_i32 of the players, then one of the game numbers, both
 * from rng (derive it with TNY_LOT_BRACKET).  2 <= n <= TNY_BRACKET_MAX.
 * Errors: TNY_ERANGE (n), TNY_EINVAL (negative or repeated id),
 * TNY_ENOMEM. */
TNY_MUST_USE int tny_bracket_open_round(int32_t n, const int32_t *ids,
                                        struct tny_rng *rng,
                                        struct tny_bracket_game *games,
                                        int32_t *n_games,
                                        struct tny_diag *diag);

/* GT-6 cut with replacement.  standings[] (n entries, best first, distinct
 * ids) is the final Swiss order; left[i] (may be NULL: nobody left) says
 * that standings[i] left before elimination started.  seeded[] (k entries)
 * receives the top k players who did not leave, in standings order, so
 * seeded[j] has seed j + 1: players below a leaver move up one seed each and
 * the next player of the standings joins as the lowest seed (seed 003's
 * example: 6th leaves, 7th -> 6, 8th -> 7, 9th -> 8).
 * Errors: TNY_ERANGE (k < 1, or fewer than k players stayed; the diag says
 * how many), TNY_EINVAL (n < 0). */
TNY_MUST_USE int tny_bracket_cut(int32_t n, const int32_t *standings,
                                 const bool *left, int32_t k, int32_t *seeded,
                                 struct tny_diag *diag);

/* GT-10: player is removed after elimination began.  In games[] (n_games
 * entries, modified in place) the game holding player becomes a bye for the
 * opponent (current round: record the opponent as winner; next round: call
 * this on the folded games before publishing them).  If player held a bye,
 * the game becomes empty (both slots TNY_BRACKET_BYE) and folding passes the
 * bye on.  Errors: TNY_ENOTFOUND (player in no game), TNY_EINVAL (player is
 * TNY_BRACKET_BYE or negative). */
TNY_MUST_USE int tny_bracket_withdraw(int32_t n_games,
                                      struct tny_bracket_game *games,
                                      int32_t player, struct tny_diag *diag);

/* NH-8: the winner of a drawn knockout match is the better Swiss seed (the
 * smaller number).  seed_a != seed_b, both > 0 (asserted: the engine computes
 * seeds itself). */
int32_t tny_bracket_draw_winner(int32_t seed_a, int32_t seed_b);

/* GT-9: winner of a best-of-three elimination match between players a and b
 * from the winners of its games, in order (n_games entries).  Valid only as
 * 2-0 (two games, same winner) or 1-1 then a decider (three games): a match
 * stops as soon as someone has two wins.  Errors: TNY_EINVAL with a diag
 * saying why (a == b, unknown winner, unfinished match, games after the
 * match was decided). */
TNY_MUST_USE int tny_bracket_bo3_winner(const int32_t *game_winners,
                                        int32_t n_games, int32_t a, int32_t b,
                                        int32_t *winner, struct tny_diag *diag);

/* How a knockout player's run ended (or stands). */
struct tny_bracket_exit {
    int32_t id;
    int32_t round_lost; /* elimination round (1-based) lost; 0 = champion,
                           or still alive while the bracket is in progress */
};

/* NH-9 final classification (also used for GT: see below).  swiss[]
 * (n entries, best first, distinct ids) is the Swiss order of all players;
 * exits[] (n_exits entries) describes every player who took part in the
 * knockout.  order[] (n entries) receives: the champion (while in_progress:
 * every player still alive, in Swiss order), then the losers of the latest
 * round, then of each earlier round, later rounds first, each group in
 * Swiss order; then everybody not in exits[] in Swiss order.  For GT (seed
 * silent beyond the champion) the same order is used; for elimination from
 * the start the caller passes its seeding order (or registration order) as
 * swiss[].
 * Errors: TNY_EINVAL (an exit id not in swiss[] or repeated, round_lost < 0,
 * not exactly one champion when !in_progress, none alive when in_progress,
 * n_exits > n), TNY_ENOMEM. */
TNY_MUST_USE int tny_bracket_final_order(int32_t n, const int32_t *swiss,
                                         int32_t n_exits,
                                         const struct tny_bracket_exit *exits,
                                         bool in_progress, int32_t *order,
                                         struct tny_diag *diag);

#endif
