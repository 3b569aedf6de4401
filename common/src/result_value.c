/* result_value.c - each result key's place in struct tny_result (see
 * result_value.h): one case per shared key in get and in set, a module's
 * own keys by their kind in its slot (ext_get, ext_set), nothing per game.
 *
 * Invariants: set(get(r)) is r for every key; a per-player key of every
 * player (scores, clock_ms, tp, vp, ip, bp) has all n_seats seats, armies
 * the seats with an army, penalty the seats with one.
 */
#include "tny/result_value.h"

#include <stdio.h>
#include <string.h>

/* Seats 0..n_seats-1 all have the value of arr. */
static void every_seat(struct tny_result_val *v, int32_t n_seats,
                       const int32_t *i32, const int64_t *i64)
{
    for (int32_t s = 0; s < n_seats && s < TNY_MAX_SEATS; s++) {
        v->has[s] = true;
        v->per[s] = i32 ? i32[s] : i64[s];
    }
}

static void put_seats(const struct tny_result_val *v, int32_t *i32,
                      int64_t *i64);

/* A module's own key (result_schema.h, struct tny_result_ext): slot
 * TNY_RK_EXT_SLOT(k) of r->ext, by the key's kind. */
static void ext_get(const struct tny_result *r, int32_t n_seats,
                    enum tny_result_key k, struct tny_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    const int32_t slot = TNY_RK_EXT_SLOT(k);

    if (!info || !((r->ext_has >> slot) & 1u))
        return;
    v->present = true;
    if (info->value == TNY_RV_PER_PLAYER)
        every_seat(v, n_seats, r->ext[slot], NULL);
    else if (info->value == TNY_RV_FLAG)
        v->flag = r->ext[slot][0] != 0;
    else
        v->number = r->ext[slot][0];
}

static void ext_set(struct tny_result *r, enum tny_result_key k,
                    const struct tny_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    const int32_t slot = TNY_RK_EXT_SLOT(k);

    if (!info)
        return;
    r->ext_has |= 1u << slot;
    if (info->value == TNY_RV_PER_PLAYER)
        put_seats(v, r->ext[slot], NULL);
    else if (info->value == TNY_RV_FLAG)
        r->ext[slot][0] = v->flag;
    else
        r->ext[slot][0] = (int32_t)v->number;
}

void tny_result_value_get(const struct tny_result *r, int32_t n_seats,
                          enum tny_result_key k, struct tny_result_val *v)
{
    memset(v, 0, sizeof(*v));
    v->seat = -1;
    if (n_seats > TNY_MAX_SEATS)
        n_seats = TNY_MAX_SEATS;
    switch (k) {
    case TNY_RK_WINNER:
        v->present = r->winner >= 0;
        v->seat = r->winner;
        break;
    case TNY_RK_DEFAULT_WIN:
        v->present = r->default_winner >= 0;
        v->seat = r->default_winner;
        break;
    case TNY_RK_DRAW: v->present = v->flag = r->draw; break;
    case TNY_RK_INTENTIONAL_DRAW:
        v->present = v->flag = r->intentional_draw;
        break;
    case TNY_RK_DOUBLE_LOSS: v->present = v->flag = r->double_loss; break;
    case TNY_RK_MODIFIED: v->present = v->flag = r->modified; break;
    case TNY_RK_HQ_DIFF:
        v->present = true;
        v->number = r->hq_diff;
        break;
    case TNY_RK_ARMIES:
        for (int32_t s = 0; s < n_seats; s++)
            if (r->army[s] >= 0) {
                v->present = v->has[s] = true;
                v->per[s] = r->army[s];
            }
        break;
    case TNY_RK_PENALTY:
        for (int32_t s = 0; s < n_seats; s++)
            if (r->penalty[s] != 0) {
                v->present = v->has[s] = true;
                v->per[s] = r->penalty[s];
            }
        break;
    case TNY_RK_SCORES:
        v->present = r->has_score;
        every_seat(v, n_seats, r->score, NULL);
        break;
    case TNY_RK_VP:
        v->present = true;
        every_seat(v, n_seats, r->score, NULL);
        break;
    case TNY_RK_IP:
        v->present = true;
        every_seat(v, n_seats, r->ip, NULL);
        break;
    case TNY_RK_BP:
        v->present = true;
        every_seat(v, n_seats, r->bp, NULL);
        break;
    case TNY_RK_CLOCK_MS:
        v->present = r->has_clock;
        every_seat(v, n_seats, r->clock_ms, NULL);
        break;
    case TNY_RK_TP:
        v->present = r->decided;
        every_seat(v, n_seats, NULL, r->decided_tp);
        break;
    case TNY_RK_GAMES:
        v->present = r->n_games > 0;
        v->n = r->n_games;
        for (int32_t g = 0; g < r->n_games && g < 3; g++)
            v->seats[g] = r->games[g];
        break;
    case TNY_RK_LOTS:
        v->present = r->n_lots > 0;
        for (int32_t i = 0; i < r->n_lots && i < TNY_MAX_LOTS; i++)
            v->texts[v->n++] = r->lots[i];
        break;
    default: ext_get(r, n_seats, k, v); break;
    }
}

/* The seats v has a value for, into i32 or i64. */
static void put_seats(const struct tny_result_val *v, int32_t *i32,
                      int64_t *i64)
{
    for (int32_t s = 0; s < TNY_MAX_SEATS; s++) {
        if (!v->has[s])
            continue;
        if (i32)
            i32[s] = (int32_t)v->per[s];
        else
            i64[s] = v->per[s];
    }
}

void tny_result_value_set(struct tny_result *r, enum tny_result_key k,
                          const struct tny_result_val *v)
{
    switch (k) {
    case TNY_RK_WINNER: r->winner = v->seat; break;
    case TNY_RK_DEFAULT_WIN: r->default_winner = v->seat; break;
    case TNY_RK_DRAW: r->draw = v->flag; break;
    case TNY_RK_INTENTIONAL_DRAW: r->intentional_draw = v->flag; break;
    case TNY_RK_DOUBLE_LOSS: r->double_loss = v->flag; break;
    case TNY_RK_MODIFIED: r->modified = v->flag; break;
    case TNY_RK_HQ_DIFF: r->hq_diff = (int32_t)v->number; break;
    case TNY_RK_ARMIES: put_seats(v, r->army, NULL); break;
    case TNY_RK_PENALTY: put_seats(v, NULL, r->penalty); break;
    case TNY_RK_SCORES:
    case TNY_RK_VP:
        r->has_score = true;
        put_seats(v, r->score, NULL);
        break;
    case TNY_RK_IP: put_seats(v, r->ip, NULL); break;
    case TNY_RK_BP: put_seats(v, r->bp, NULL); break;
    case TNY_RK_CLOCK_MS:
        r->has_clock = true;
        put_seats(v, r->clock_ms, NULL);
        break;
    case TNY_RK_TP:
        r->decided = true;
        put_seats(v, NULL, r->decided_tp);
        break;
    case TNY_RK_GAMES:
        r->n_games = v->n;
        for (int32_t g = 0; g < v->n && g < 3; g++)
            r->games[g] = v->seats[g];
        break;
    case TNY_RK_LOTS:
        r->n_lots = v->n;
        for (int32_t i = 0; i < v->n && i < TNY_MAX_LOTS; i++)
            snprintf(r->lots[i], TNY_LOT_MAX, "%s", v->texts[i]);
        break;
    default: ext_set(r, k, v); break;
    }
}

bool tny_result_value_every_seat(enum tny_result_key k)
{
    const struct tny_result_ext *x = tny_result_ext_of(k);
    if (x)
        return x->info.value == TNY_RV_PER_PLAYER;
    switch (k) {
    case TNY_RK_SCORES:
    case TNY_RK_CLOCK_MS:
    case TNY_RK_TP:
    case TNY_RK_VP:
    case TNY_RK_IP:
    case TNY_RK_BP: return true;
    default: return false;
    }
}

bool tny_result_value_always(enum tny_result_key k)
{
    return k == TNY_RK_HQ_DIFF || k == TNY_RK_VP || k == TNY_RK_IP ||
           k == TNY_RK_BP;
}

void tny_result_value_reset(struct tny_result *r)
{
    memset(r, 0, sizeof(*r));
    r->winner = -1;
    r->default_winner = -1;
    for (int32_t s = 0; s < TNY_MAX_SEATS; s++)
        r->army[s] = -1;
}
