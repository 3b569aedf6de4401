/* bracket.c - single-elimination rounds: re-seeding (NH-7), folding (GT-7),
 * random start with byes (GT-8), cut with replacement (GT-6), withdrawals
 * (GT-10), draws (NH-8), best-of-three (GT-9), final order (NH-9).
 *
 * Pure functions over caller arrays; see bracket.h for the contract.  Does
 * not keep rounds, results or standings.  Invariant of every output round:
 * each input player appears exactly once, byes sit in slot b.
 */
#include "tny/bracket.h"

#include <assert.h>
#include <stdlib.h>

static bool is_pow2(int32_t n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

int tny_bracket_reseeded_round(int32_t n, const int32_t *seeds,
                               struct tny_bracket_game *games,
                               struct tny_diag *diag)
{
    int rc = TNY_OK;

    if (n < 2 || n > TNY_BRACKET_MAX || !is_pow2(n)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "bracket: %d players: expected a power of two "
                          "2..%d",
                          (int)n, TNY_BRACKET_MAX);
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        if (seeds[i] <= 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "bracket.seeds[%d]: %d: expected a seed >= 1",
                              (int)i, (int)seeds[i]);
            goto out;
        }
    }
    /* Rank every seed among the others (n is small; no allocation): rank r
     * (0 = best) sits in game r as a, rank n-1-r in game r as b. */
    for (int32_t i = 0; i < n; i++) {
        int32_t rank = 0;
        for (int32_t j = 0; j < n; j++) {
            if (j != i && seeds[j] == seeds[i]) {
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "bracket.seeds[%d]: seed %d repeated", (int)j,
                                  (int)seeds[i]);
                goto out;
            }
            rank += seeds[j] < seeds[i];
        }
        if (rank < n / 2)
            games[rank].a = seeds[i];
        else
            games[n - 1 - rank].b = seeds[i];
    }
out:
    return rc;
}

/* Check that winner may be the winner of g (index i, for messages). */
static int check_winner(const struct tny_bracket_game *g, int32_t winner,
                        int32_t i, struct tny_diag *diag)
{
    if (g->a == TNY_BRACKET_BYE) {
        if (g->b != TNY_BRACKET_BYE)
            return tny_diag_set(diag, TNY_EINVAL,
                                "bracket.games[%d]: bye in slot a with %d in "
                                "slot b",
                                (int)i, (int)g->b);
        if (winner != TNY_BRACKET_BYE)
            return tny_diag_set(diag, TNY_EINVAL,
                                "bracket.winners[%d]: %d: game is empty, "
                                "expected no winner",
                                (int)i, (int)winner);
        return TNY_OK;
    }
    if (g->a < 0 || (g->b < 0 && g->b != TNY_BRACKET_BYE) || g->a == g->b)
        return tny_diag_set(diag, TNY_EINVAL,
                            "bracket.games[%d]: malformed game %d vs %d",
                            (int)i, (int)g->a, (int)g->b);
    if (g->b == TNY_BRACKET_BYE && winner != g->a)
        return tny_diag_set(diag, TNY_EINVAL,
                            "bracket.winners[%d]: %d: game is a bye for %d",
                            (int)i, (int)winner, (int)g->a);
    if (winner != g->a && winner != g->b)
        return tny_diag_set(diag, TNY_EINVAL,
                            "bracket.winners[%d]: %d is not a player of "
                            "game #%d (%d vs %d)",
                            (int)i, (int)winner, (int)i + 1, (int)g->a,
                            (int)g->b);
    return TNY_OK;
}

int tny_bracket_folded_round(int32_t n_prev,
                             const struct tny_bracket_game *prev,
                             const int32_t *winners,
                             struct tny_bracket_game *games,
                             struct tny_diag *diag)
{
    int rc = TNY_OK;

    if (n_prev < 2 || n_prev > TNY_BRACKET_MAX / 2 || !is_pow2(n_prev)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "bracket: %d games in the previous round: expected "
                          "a power of two 2..%d",
                          (int)n_prev, TNY_BRACKET_MAX / 2);
        goto out;
    }
    for (int32_t i = 0; i < n_prev; i++) {
        rc = check_winner(&prev[i], winners[i], i, diag);
        if (rc < 0)
            goto out;
    }
    /* Fold: Game #k meets Game #(n_prev + 1 - k). */
    for (int32_t k = 0; k < n_prev / 2; k++) {
        int32_t x = winners[k];
        int32_t y = winners[n_prev - 1 - k];
        if (x == TNY_BRACKET_BYE) {
            x = y;
            y = TNY_BRACKET_BYE;
        }
        games[k].a = x;
        games[k].b = y;
    }
out:
    return rc;
}

/* Reject negative ids and repeats (O(n log n) on a sorted copy). */
static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa;
    int32_t b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

int tny_bracket_open_round(int32_t n, const int32_t *ids, struct tny_rng *rng,
                           struct tny_bracket_game *games, int32_t *n_games,
                           struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t *players = NULL;
    int32_t *number = NULL;
    int32_t size = 2;

    if (n < 2 || n > TNY_BRACKET_MAX) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "bracket: %d players: expected 2..%d", (int)n,
                          TNY_BRACKET_MAX);
        goto out;
    }
    while (size < n)
        size *= 2;
    players = malloc((size_t)n * sizeof(*players));
    number = malloc((size_t)(size / 2) * sizeof(*number));
    if (!players || !number) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "bracket: out of memory");
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        if (ids[i] < 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "bracket.ids[%d]: %d: expected an id >= 0",
                              (int)i, (int)ids[i]);
            goto out;
        }
        players[i] = ids[i];
    }
    qsort(players, (size_t)n, sizeof(*players), cmp_i32);
    for (int32_t i = 1; i < n; i++) {
        if (players[i] == players[i - 1]) {
            rc = tny_diag_set(diag, TNY_EINVAL, "bracket.ids: id %d repeated",
                              (int)players[i]);
            goto out;
        }
    }
    /* Work from the caller's order, not the sorted one, so that the lot
     * depends on the input order exactly as documented. */
    for (int32_t i = 0; i < n; i++)
        players[i] = ids[i];

    int32_t n_byes = size - n;
    int32_t half = size / 2;
    /* One shuffle decides the bye holders (the first n_byes) and the
     * matches (consecutive pairs of the rest)... */
    tny_rng_shuffle_i32(rng, players, n);
    /* ...and one shuffle numbers all games from Game #1. */
    for (int32_t g = 0; g < half; g++)
        number[g] = g;
    tny_rng_shuffle_i32(rng, number, half);
    for (int32_t g = 0; g < half; g++) {
        struct tny_bracket_game *dst = &games[number[g]];
        if (g < n_byes) {
            dst->a = players[g];
            dst->b = TNY_BRACKET_BYE;
        } else {
            int32_t p = n_byes + 2 * (g - n_byes);
            dst->a = players[p];
            dst->b = players[p + 1];
        }
    }
    *n_games = half;
out:
    free(players);
    free(number);
    return rc;
}

int tny_bracket_cut(int32_t n, const int32_t *standings, const bool *left,
                    int32_t k, int32_t *seeded, struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t taken = 0;

    if (n < 0) {
        rc = tny_diag_set(diag, TNY_EINVAL, "cut: %d players", (int)n);
        goto out;
    }
    if (k < 1) {
        rc = tny_diag_set(diag, TNY_ERANGE, "cut: top %d: expected >= 1",
                          (int)k);
        goto out;
    }
    /* Taking the first k who stayed, in standings order, is exactly the
     * seed's rule: everyone below a leaver moves up one seed and the next
     * player of the standings comes in as the lowest seed. */
    for (int32_t i = 0; i < n && taken < k; i++) {
        if (left && left[i])
            continue;
        seeded[taken++] = standings[i];
    }
    if (taken < k)
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "cut: top %d: only %d players stayed", (int)k,
                          (int)taken);
out:
    return rc;
}

int tny_bracket_withdraw(int32_t n_games, struct tny_bracket_game *games,
                         int32_t player, struct tny_diag *diag)
{
    int rc = TNY_OK;

    if (player < 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "bracket: withdraw %d: expected a player id >= 0",
                          (int)player);
        goto out;
    }
    for (int32_t i = 0; i < n_games; i++) {
        struct tny_bracket_game *g = &games[i];
        if (g->a == player) {
            g->a = g->b; /* the opponent, or BYE if player held a bye */
            g->b = TNY_BRACKET_BYE;
            goto out;
        }
        if (g->b == player) {
            g->b = TNY_BRACKET_BYE;
            goto out;
        }
    }
    rc =
        tny_diag_set(diag, TNY_ENOTFOUND,
                     "bracket: withdraw %d: player is in no game", (int)player);
out:
    return rc;
}

int32_t tny_bracket_draw_winner(int32_t seed_a, int32_t seed_b)
{
    assert(seed_a > 0 && seed_b > 0 && seed_a != seed_b);
    return seed_a < seed_b ? seed_a : seed_b;
}

int tny_bracket_bo3_winner(const int32_t *game_winners, int32_t n_games,
                           int32_t a, int32_t b, int32_t *winner,
                           struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t wins_a = 0, wins_b = 0;

    if (a == b) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "bo3: player %d cannot play themselves", (int)a);
        goto out;
    }
    for (int32_t i = 0; i < n_games; i++) {
        if (wins_a == 2 || wins_b == 2) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "bo3.games[%d]: match was already won %d-%d "
                              "after %d games",
                              (int)i, (int)(wins_a > wins_b ? wins_a : wins_b),
                              (int)(wins_a > wins_b ? wins_b : wins_a), (int)i);
            goto out;
        }
        if (game_winners[i] == a) {
            wins_a++;
        } else if (game_winners[i] == b) {
            wins_b++;
        } else {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "bo3.games[%d]: winner %d is not a player of "
                              "the match (%d vs %d)",
                              (int)i, (int)game_winners[i], (int)a, (int)b);
            goto out;
        }
    }
    if (wins_a < 2 && wins_b < 2) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "bo3: match not finished: %d-%d after %d games",
                          (int)wins_a, (int)wins_b, (int)n_games);
        goto out;
    }
    *winner = wins_a == 2 ? a : b;
out:
    return rc;
}

struct exit_key {
    int32_t round_lost;
    int32_t swiss_pos;
    int32_t id;
};

static int cmp_exit(const void *pa, const void *pb)
{
    const struct exit_key *x = pa, *y = pb;
    /* Champion or the alive (round_lost 0) first, then later rounds
     * first. */
    int32_t rx = x->round_lost == 0 ? INT32_MAX : x->round_lost;
    int32_t ry = y->round_lost == 0 ? INT32_MAX : y->round_lost;
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return (x->swiss_pos > y->swiss_pos) - (x->swiss_pos < y->swiss_pos);
}

struct pos_entry {
    int32_t id;
    int32_t pos;
};

static int cmp_pos_entry(const void *pa, const void *pb)
{
    const struct pos_entry *x = pa, *y = pb;
    return (x->id > y->id) - (x->id < y->id);
}

int tny_bracket_final_order(int32_t n, const int32_t *swiss, int32_t n_exits,
                            const struct tny_bracket_exit *exits,
                            bool in_progress, int32_t *order,
                            struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct pos_entry *index = NULL;
    struct exit_key *keys = NULL;
    bool *in_ko = NULL;
    int32_t champions = 0;

    if (n < 0 || n_exits < 0 || n_exits > n) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "final order: %d knockout players among %d",
                          (int)n_exits, (int)n);
        goto out;
    }
    if (n == 0)
        goto out;
    index = malloc((size_t)n * sizeof(*index));
    in_ko = calloc((size_t)n, sizeof(*in_ko));
    keys = malloc((size_t)(n_exits > 0 ? n_exits : 1) * sizeof(*keys));
    if (!index || !in_ko || !keys) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "final order: out of memory");
        goto out;
    }
    /* Sorted (id -> Swiss position) index for lookups. */
    for (int32_t i = 0; i < n; i++) {
        index[i].id = swiss[i];
        index[i].pos = i;
    }
    qsort(index, (size_t)n, sizeof(*index), cmp_pos_entry);
    for (int32_t i = 1; i < n; i++) {
        if (index[i].id == index[i - 1].id) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "final order.swiss: id %d repeated",
                              (int)index[i].id);
            goto out;
        }
    }
    for (int32_t e = 0; e < n_exits; e++) {
        struct pos_entry probe = {.id = exits[e].id, .pos = 0};
        const struct pos_entry *hit =
            bsearch(&probe, index, (size_t)n, sizeof(*index), cmp_pos_entry);
        if (!hit) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "final order.exits[%d]: player %d is not in "
                              "the standings",
                              (int)e, (int)exits[e].id);
            goto out;
        }
        if (in_ko[hit->pos]) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "final order.exits[%d]: player %d repeated",
                              (int)e, (int)exits[e].id);
            goto out;
        }
        if (exits[e].round_lost < 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "final order.exits[%d].round_lost: %d: "
                              "expected 0 (champion) or a round >= 1",
                              (int)e, (int)exits[e].round_lost);
            goto out;
        }
        champions += exits[e].round_lost == 0;
        in_ko[hit->pos] = true;
        keys[e].round_lost = exits[e].round_lost;
        keys[e].swiss_pos = hit->pos;
        keys[e].id = exits[e].id;
    }
    if (n_exits > 0 && !in_progress && champions != 1) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "final order: %d champions: expected exactly one",
                          (int)champions);
        goto out;
    }
    if (n_exits > 0 && in_progress && champions < 1) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "final order: nobody left in the bracket");
        goto out;
    }
    qsort(keys, (size_t)n_exits, sizeof(*keys), cmp_exit);
    int32_t out_n = 0;
    for (int32_t e = 0; e < n_exits; e++)
        order[out_n++] = keys[e].id;
    for (int32_t i = 0; i < n; i++)
        if (!in_ko[i])
            order[out_n++] = swiss[i];
    assert(out_n == n);
out:
    free(index);
    free(keys);
    free(in_ko);
    return rc;
}
