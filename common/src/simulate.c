/* simulate.c - random valid results per game (simulate.h): the generic
 * part (a cleared result, a rating-weighted winner, rounds played in a
 * loop); each game's result is its module's (game.h simulate). */
#include "tny/simulate.h"

#include <math.h>
#include <string.h>

#include "tny/game.h"
#include "tny/pair.h"

/* Chance that a beats b from ratings (Elo curve; 50 % when unrated). */
double tny__sim_win_chance(const struct tny_event *ev, int32_t a, int32_t b)
{
    const struct tny_player *pa = &ev->players[a], *pb = &ev->players[b];
    if (!pa->has_rating || !pb->has_rating)
        return 0.5;
    return 1.0 / (1.0 + pow(10.0, (pb->rating - pa->rating) / 400.0));
}

double tny__sim_uniform(struct tny_rng *rng)
{
    return (double)(tny_rng_next(rng) >> 11) / 9007199254740992.0;
}

int32_t tny__sim_between(struct tny_rng *rng, int32_t lo, int32_t hi)
{
    return lo + (int32_t)tny_rng_below(rng, (uint64_t)(hi - lo + 1));
}

int tny_simulate_result(const struct tny_event *ev, int32_t round_index,
                        enum tny_stage_kind stage, struct tny_table *table,
                        struct tny_rng *rng, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    struct tny_result *r = &table->result;
    memset(r, 0, sizeof(*r));
    r->winner = -1;
    r->default_winner = -1;
    for (int s = 0; s < TNY_MAX_SEATS; s++)
        r->army[s] = -1;
    if (table->is_bye)
        return TNY_OK;
    const int32_t n = table->n_seats;
    if (fmt->players_per_table == 2 && n != 2)
        return tny_diag_set(diag, TNY_EINVAL,
                            "simulate: %d seats at a "
                            "2-player table",
                            (int)n);
    int32_t a = table->seats[0], b = n > 1 ? table->seats[1] : -1;
    int32_t w = tny__sim_uniform(rng) < tny__sim_win_chance(ev, a, b) ? 0 : 1;

    const struct tny_game_ops *ops = tny_game_ops_of(fmt->game);
    if (ops) /* the result's shape is the game's (game.h simulate) */
        ops->simulate(ev, round_index, stage, table, rng, w);
    table->has_result = true;
    return TNY_OK;
}

void tny_simulate_declarations(struct tny_event *ev, struct tny_rng *rng)
{
    int32_t need = tny_nh_knockout_army_count(ev);
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_ELIMINATION)
            return;
    for (int32_t p = 0; need > 0 && p < ev->n_players; p++) {
        struct tny_player *pl = &ev->players[p];
        if (pl->beginner || pl->n_ko_armies > 0 || pl->n_armies < need)
            continue;
        int32_t pick[TNY_MAX_ARMIES];
        memcpy(pick, pl->armies, sizeof(int32_t) * (size_t)pl->n_armies);
        tny_rng_shuffle_i32(rng, pick, pl->n_armies);
        memcpy(pl->ko_armies, pick, sizeof(int32_t) * (size_t)need);
        pl->n_ko_armies = need;
    }
}

int tny_simulate_rounds(struct tny_event *ev, int32_t n_rounds,
                        struct tny_rng *rng, int32_t *played,
                        struct tny_diag *diag)
{
    int32_t done = 0;
    int rc = TNY_OK;
    for (; done < n_rounds; done++) {
        struct tny_round_plan plan;
        tny_simulate_declarations(ev, rng);
        rc = tny_pair_next(ev, &plan, diag);
        if (rc == TNY_ESTATE) {
            rc = TNY_OK;
            break;
        }
        if (rc < 0)
            break;
        rc = tny_event_append_round(ev, &plan);
        tny_round_plan_release(&plan);
        if (rc < 0)
            break;
        struct tny_round *round = &ev->rounds[ev->n_rounds - 1];
        for (int32_t t = 0; t < round->n_tables && rc == TNY_OK; t++)
            rc = tny_simulate_result(ev, ev->n_rounds - 1, round->stage,
                                     &round->tables[t], rng, diag);
        if (rc < 0)
            break;
    }
    if (played)
        *played = done;
    return rc;
}
