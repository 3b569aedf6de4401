/* wire_result_value.c - each result key's place in struct tny_wire_result
 * (wire.h, tny_wire_result_value_get): one case per shared key, a game
 * module's own keys by name in GameResult.values, nothing per game,
 * so the hub's result JSON is written by walking a game's keys.
 *
 * Invariants: an entry's value is read only when the entry carries it
 * (has_score, has_clock, has_tp, a penalty above 0, an army name).
 */
#include "wire_internal.h"

#include <stdio.h>
#include <string.h>

/* Every entry's int32_t at offset off of struct tny_wire_result_player. */
static void every_entry(const struct tny_wire_result *r, size_t off,
                        struct tny_wire_result_val *v)
{
    for (int32_t i = 0; i < r->n_players && i < TNY_MAX_SEATS; i++) {
        int32_t x;
        memcpy(&x, (const char *)&r->players[i] + off, sizeof(x));
        v->has[i] = true;
        v->per[i] = x;
    }
}

/* A game module's own key (GameResult.values) by its name: a
 * per-player value goes to the entry of its player (one with no entry is
 * not seen here), a number or flag to number and flag. */
static void ext_get(const struct tny_wire_result *r, enum tny_result_key k,
                    struct tny_wire_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);

    for (int32_t i = 0; info && i < r->n_ext && i < TNY_WIRE_EXT_MAX; i++) {
        const struct tny_wire_result_ext *e = &r->ext[i];
        if (strcmp(e->key, info->name) != 0)
            continue;
        v->present = true;
        v->number = e->value;
        v->flag = e->value != 0;
        for (int32_t j = 0;
             e->player_id[0] && j < r->n_players && j < TNY_MAX_SEATS; j++)
            if (strcmp(r->players[j].player_id, e->player_id) == 0) {
                v->has[j] = true;
                v->per[j] = e->value;
            }
    }
}

/* The reverse: k's values appended to GameResult.values (a per-player
 * key's of each entry with a value), those beyond TNY_WIRE_EXT_MAX
 * dropped (wire__result_check counts them). */
static void ext_set(struct tny_wire_result *r, enum tny_result_key k,
                    const struct tny_wire_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    const bool per = info && info->value == TNY_RV_PER_PLAYER;

    for (int32_t i = 0; info && i < (per ? r->n_players : 1) &&
                        i < TNY_MAX_SEATS && r->n_ext < TNY_WIRE_EXT_MAX;
         i++) {
        struct tny_wire_result_ext *e = &r->ext[r->n_ext];
        if (per && !v->has[i])
            continue;
        snprintf(e->key, sizeof e->key, "%s", info->name);
        snprintf(e->player_id, sizeof e->player_id, "%s",
                 per ? r->players[i].player_id : "");
        e->value = per                          ? v->per[i]
                   : info->value == TNY_RV_FLAG ? (int64_t)v->flag
                                                : v->number;
        r->n_ext++;
    }
}

void tny_wire_result_value_get(const struct tny_wire_result *r,
                               enum tny_result_key k,
                               struct tny_wire_result_val *v)
{
    const int32_t n =
        r->n_players < TNY_MAX_SEATS ? r->n_players : TNY_MAX_SEATS;
    memset(v, 0, sizeof(*v));
    switch (k) {
    case TNY_RK_WINNER:
        v->present = r->winner_id[0] != '\0';
        v->id = r->winner_id;
        break;
    case TNY_RK_DEFAULT_WIN:
        v->present = r->default_winner_id[0] != '\0';
        v->id = r->default_winner_id;
        break;
    case TNY_RK_DRAW: v->present = v->flag = r->draw; break;
    case TNY_RK_INTENTIONAL_DRAW:
        v->present = v->flag = r->intentional_draw;
        break;
    case TNY_RK_DOUBLE_LOSS: v->present = v->flag = r->double_loss; break;
    case TNY_RK_MODIFIED: v->present = v->flag = r->modified; break;
    case TNY_RK_HQ_DIFF: /* a wire draw carries no HQ difference */
        v->present = !r->draw;
        v->number = r->hq_diff;
        break;
    case TNY_RK_ARMIES:
        for (int32_t i = 0; i < n; i++)
            if (r->players[i].army[0]) {
                v->present = v->has[i] = true;
                v->army[i] = r->players[i].army;
            }
        break;
    case TNY_RK_PENALTY:
        for (int32_t i = 0; i < n; i++)
            if (r->players[i].penalty_units > 0) {
                v->present = v->has[i] = true;
                v->per[i] = r->players[i].penalty_units;
            }
        break;
    case TNY_RK_SCORES:
        for (int32_t i = 0; i < n; i++)
            if (r->players[i].has_score) {
                v->present = v->has[i] = true;
                v->per[i] = r->players[i].score;
            }
        break;
    case TNY_RK_TP:
        for (int32_t i = 0; i < n; i++)
            if (r->players[i].has_tp) {
                v->present = v->has[i] = true;
                v->per[i] = r->players[i].tp_units;
            }
        break;
    case TNY_RK_CLOCK_MS:
        for (int32_t i = 0; i < n; i++)
            if (r->players[i].has_clock) {
                v->present = v->has[i] = true;
                v->per[i] = r->players[i].clock_ms;
            }
        break;
    case TNY_RK_VP:
        v->present = true;
        every_entry(r, offsetof(struct tny_wire_result_player, score), v);
        break;
    case TNY_RK_IP:
        v->present = true;
        every_entry(r, offsetof(struct tny_wire_result_player, ip), v);
        break;
    case TNY_RK_BP:
        v->present = true;
        every_entry(r, offsetof(struct tny_wire_result_player, bp), v);
        break;
    case TNY_RK_GAMES:
        v->present = r->n_games > 0;
        for (int32_t g = 0; g < r->n_games && g < 3; g++)
            v->items[v->n++] = r->games[g];
        break;
    case TNY_RK_LOTS:
        v->present = r->n_lots > 0;
        for (int32_t i = 0; i < r->n_lots && i < TNY_MAX_LOTS; i++)
            v->items[v->n++] = r->lots[i];
        break;
    default: ext_get(r, k, v); break;
    }
}

void tny_wire_result_value_set(struct tny_wire_result *r, enum tny_result_key k,
                               const struct tny_wire_result_val *v)
{
    for (int32_t i = 0; i < r->n_players && i < TNY_MAX_SEATS; i++) {
        struct tny_wire_result_player *e = &r->players[i];
        if (!v->has[i])
            continue;
        switch (k) {
        case TNY_RK_ARMIES:
            snprintf(e->army, sizeof e->army, "%s", v->army[i]);
            break;
        case TNY_RK_PENALTY: e->penalty_units = v->per[i]; break;
        case TNY_RK_SCORES:
        case TNY_RK_VP:
            e->has_score = true;
            e->score = (int32_t)v->per[i];
            break;
        case TNY_RK_TP:
            e->has_tp = true;
            e->tp_units = v->per[i];
            break;
        case TNY_RK_CLOCK_MS:
            e->has_clock = true;
            e->clock_ms = (int32_t)v->per[i];
            break;
        case TNY_RK_IP: e->ip = (int32_t)v->per[i]; break;
        case TNY_RK_BP: e->bp = (int32_t)v->per[i]; break;
        default: break;
        }
    }
    switch (k) {
    case TNY_RK_WINNER:
        snprintf(r->winner_id, sizeof r->winner_id, "%s", v->id);
        break;
    case TNY_RK_DEFAULT_WIN:
        snprintf(r->default_winner_id, sizeof r->default_winner_id, "%s",
                 v->id);
        break;
    case TNY_RK_DRAW: r->draw = v->flag; break;
    case TNY_RK_INTENTIONAL_DRAW: r->intentional_draw = v->flag; break;
    case TNY_RK_DOUBLE_LOSS: r->double_loss = v->flag; break;
    case TNY_RK_MODIFIED: r->modified = v->flag; break;
    case TNY_RK_HQ_DIFF: r->hq_diff = (int32_t)v->number; break;
    case TNY_RK_GAMES:
        r->n_games = 0;
        for (int32_t g = 0; g < v->n && g < 3; g++)
            snprintf(r->games[r->n_games++], sizeof r->games[0], "%s",
                     v->items[g]);
        break;
    case TNY_RK_LOTS:
        r->n_lots = 0;
        for (int32_t i = 0; i < v->n && i < TNY_MAX_LOTS; i++)
            snprintf(r->lots[r->n_lots++], sizeof r->lots[0], "%s",
                     v->items[i]);
        break;
    default:
        if (TNY_RK_IS_EXT(k))
            ext_set(r, k, v);
        break;
    }
}
