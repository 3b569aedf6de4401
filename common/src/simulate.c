/* simulate.c - random valid results per game (simulate.h). */
#include "tny/simulate.h"

#include <math.h>
#include <string.h>

#include "tny/pair.h"

/* Chance that a beats b from ratings (Elo curve; 50 % when unrated). */
static double win_chance(const struct tny_event *ev, int32_t a, int32_t b)
{
    const struct tny_player *pa = &ev->players[a], *pb = &ev->players[b];
    if (!pa->has_rating || !pb->has_rating)
        return 0.5;
    return 1.0 / (1.0 + pow(10.0, (pb->rating - pa->rating) / 400.0));
}

static double uniform(struct tny_rng *rng)
{
    return (double)(tny_rng_next(rng) >> 11) / 9007199254740992.0;
}

static int32_t between(struct tny_rng *rng, int32_t lo, int32_t hi)
{
    return lo + (int32_t)tny_rng_below(rng, (uint64_t)(hi - lo + 1));
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
    const bool elim = stage == TNY_STAGE_ELIMINATION;
    if (fmt->players_per_table == 2 && n != 2)
        return tny_diag_set(diag, TNY_EINVAL,
                            "simulate: %d seats at a "
                            "2-player table",
                            (int)n);
    int32_t a = table->seats[0], b = n > 1 ? table->seats[1] : -1;
    int32_t w = uniform(rng) < win_chance(ev, a, b) ? 0 : 1;

    switch (fmt->game) {
    case TNY_GAME_NEUROSHIMA_HEX:
        if (!elim && uniform(rng) < 0.08) {
            r->draw = true;
        } else {
            r->winner = w;
            /* hq_diff_max 0 (a format without the NH block): every win
             * is by 0, and the range must not be empty. */
            int64_t lo_d, hi_d;
            tny_result_range(fmt, TNY_RF_HQ_DIFF, &lo_d, &hi_d);
            int32_t hi = hi_d < 20 ? (int32_t)hi_d : 20;
            r->hq_diff = between(rng, hi > 0 ? 1 : 0, hi);
        }
        if (fmt->n_armies > 0)
            for (int s = 0; s < 2; s++)
                r->army[s] =
                    fresh_army(ev, round_index, stage, table->seats[s], rng);
        break;
    case TNY_GAME_GOT_LCG2:
        if (elim) { /* GT-9: first to two game wins */
            int wins[2] = {0, 0};
            while (wins[0] < 2 && wins[1] < 2) {
                int g = uniform(rng) < win_chance(ev, a, b) ? 0 : 1;
                r->games[r->n_games++] = g;
                wins[g]++;
            }
            r->winner = wins[0] == 2 ? 0 : 1;
        } else {
            r->winner = w;
            r->modified = uniform(rng) < 0.15;
        }
        break;
    case TNY_GAME_TWO_PLAYER: {
        int64_t lo_s, hi_s;
        tny_result_range(fmt, TNY_RF_SCORE, &lo_s, &hi_s);
        int32_t hi = hi_s < 200 ? (int32_t)hi_s : 200;
        int32_t lo = (int32_t)lo_s;
        r->has_score = true;
        r->winner = w;
        r->score[w] = between(rng, lo + (hi - lo) / 2, hi);
        r->score[1 - w] = between(rng, lo, r->score[w] - (r->score[w] > lo));
        break;
    }
    case TNY_GAME_TANTRIX: {
        r->has_score = true;
        int32_t win_score = between(rng, 20, 45);
        int32_t lose_score = win_score - between(rng, 0, 20);
        if (lose_score < 0)
            lose_score = 0;
        r->score[w] = win_score;
        r->score[1 - w] = lose_score;
        r->has_clock = true;
        for (int s = 0; s < 2; s++) /* mostly inside 20 minutes */
            r->clock_ms[s] = between(rng, 600000, 1260000);
        break;
    }
    case TNY_GAME_AGRICOLA:
    case TNY_GAME_CATAN:
        r->has_score = true;
        for (int32_t s = 0; s < n; s++) {
            if (fmt->game == TNY_GAME_CATAN) {
                r->score[s] = between(rng, 3, 9);
            } else {
                double skill =
                    ev->players[table->seats[s]].has_rating
                        ? (ev->players[table->seats[s]].rating - 1500) / 20
                        : 0;
                int64_t vlo, vhi, ilo, ihi, blo, bhi;
                tny_result_range(fmt, TNY_RF_VP, &vlo, &vhi);
                tny_result_range(fmt, TNY_RF_IP, &ilo, &ihi);
                tny_result_range(fmt, TNY_RF_BP, &blo, &bhi);
                r->score[s] = between(rng, 20, 55) + (int32_t)skill;
                if (r->score[s] < vlo)
                    r->score[s] = (int32_t)vlo;
                if (r->score[s] > vhi)
                    r->score[s] = (int32_t)vhi;
                r->ip[s] = between(rng, 0, ihi < 15 ? (int32_t)ihi : 15);
                r->bp[s] = between(rng, blo > 0 ? (int32_t)blo : 0,
                                   bhi < 5 ? (int32_t)bhi : 5);
            }
        }
        if (fmt->game == TNY_GAME_CATAN) /* somebody reached 10 */
            r->score[tny_rng_below(rng, (uint64_t)n)] = between(rng, 10, 11);
        break;
    }
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
