/* result_schema.c - the result schema (see result_schema.h): the table of
 * keys and the lookups over what each game's module declares (game.h:
 * its keys, its numeric ranges and caps).
 *
 * Invariants: keys[] is indexed by enum tny_result_key (the shared keys;
 * a module's own keys are its ext[] rows, TNY_RK_EXT); every game lists
 * lots last; a game has at most one range row per field; a bound that
 * reads the format names a field of the size it declares
 * (_Static_assert below).
 */
#include "tny/result_schema.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tny/event.h" /* TNY_MAX_LOTS */
#include "tny/game.h"

static const struct tny_result_key_info keys[TNY_RK_COUNT] = {
    [TNY_RK_WINNER] = {"winner", "winner_id", TNY_RV_PLAYER, 0},
    [TNY_RK_DRAW] = {"draw", "draw", TNY_RV_FLAG, 0},
    [TNY_RK_HQ_DIFF] = {"hq_diff", "hq_diff", TNY_RV_NUMBER, 0},
    [TNY_RK_ARMIES] = {"armies", "army", TNY_RV_ARMY, 0},
    [TNY_RK_SCORES] = {"scores", "score", TNY_RV_PER_PLAYER, 0},
    [TNY_RK_CLOCK_MS] = {"clock_ms", "clock_ms", TNY_RV_PER_PLAYER, 0},
    [TNY_RK_DEFAULT_WIN] = {"default_win", "default_winner_id", TNY_RV_PLAYER,
                            0},
    [TNY_RK_TP] = {"tp", "tp_units", TNY_RV_POINTS, 0},
    [TNY_RK_PENALTY] = {"penalty", "penalty_units", TNY_RV_POINTS, 0},
    [TNY_RK_VP] = {"vp", "vp", TNY_RV_PER_PLAYER, 0},
    [TNY_RK_IP] = {"ip", "ip", TNY_RV_PER_PLAYER, 0},
    [TNY_RK_BP] = {"bp", "bp", TNY_RV_PER_PLAYER, 0},
    [TNY_RK_MODIFIED] = {"modified", "modified", TNY_RV_FLAG, 0},
    [TNY_RK_GAMES] = {"games", "games", TNY_RV_PLAYERS, 3}, /* GT-9 */
    [TNY_RK_INTENTIONAL_DRAW] = {"intentional_draw", "intentional_draw",
                                 TNY_RV_FLAG, 0},
    [TNY_RK_DOUBLE_LOSS] = {"double_loss", "double_loss", TNY_RV_FLAG, 0},
    [TNY_RK_LOTS] = {"lots", "lots", TNY_RV_TEXTS, TNY_MAX_LOTS}, /* CM-4 */
};

static const enum tny_result_key field_keys[TNY_RF_COUNT] = {
    [TNY_RF_SCORE] = TNY_RK_SCORES,
    [TNY_RF_VP] = TNY_RK_VP,
    [TNY_RF_IP] = TNY_RK_IP,
    [TNY_RF_BP] = TNY_RK_BP,
    [TNY_RF_HQ_DIFF] = TNY_RK_HQ_DIFF,
    [TNY_RF_DECIDED_TP] = TNY_RK_TP,
    [TNY_RF_CLOCK_MS] = TNY_RK_CLOCK_MS,
};

_Static_assert(sizeof(((struct tny_format *)0)->hq_diff_max) == 4 &&
                   sizeof(((struct tny_format *)0)->tp_per_game) == 8,
               "bounds read int32_t or int64_t format fields");

const struct tny_result_ext *tny_result_ext_of(enum tny_result_key k)
{
    if (!TNY_RK_IS_EXT(k))
        return NULL;
    const int32_t slot = TNY_RK_EXT_SLOT(k);
    const struct tny_game_ops *ops = tny_game_ops_of(
        (enum tny_game)(((int)k - TNY_RK_COUNT) / TNY_RESULT_EXT_MAX));
    return ops && slot < ops->n_ext ? &ops->ext[slot] : NULL;
}

const struct tny_result_key_info *tny_result_key_info(enum tny_result_key k)
{
    const struct tny_result_ext *x;
    if ((int)k >= 0 && k < TNY_RK_COUNT)
        return &keys[k];
    x = tny_result_ext_of(k);
    return x ? &x->info : NULL;
}

const char *tny_result_key_name(enum tny_result_key k)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    return info ? info->name : "?";
}

bool tny_result_key_from_name(const char *name, enum tny_result_key *k)
{
    for (int32_t i = 0; i < TNY_RK_ALL; i++) {
        const struct tny_result_key_info *info =
            tny_result_key_info((enum tny_result_key)i);
        if (info && strcmp(info->name, name) == 0) {
            *k = (enum tny_result_key)i;
            return true;
        }
    }
    return false;
}

bool tny_result_game_key(enum tny_game game, const char *name,
                         enum tny_result_key *k)
{
    const enum tny_result_key *keys_of;
    const int32_t n = tny_result_keys(game, &keys_of);
    for (int32_t i = 0; i < n; i++)
        if (strcmp(tny_result_key_name(keys_of[i]), name) == 0) {
            *k = keys_of[i];
            return true;
        }
    return false;
}

int32_t tny_result_keys(enum tny_game game, const enum tny_result_key **out)
{
    static const enum tny_result_key none[] = {TNY_RK_LOTS};
    const struct tny_game_ops *ops = tny_game_ops_of(game);

    *out = ops ? ops->keys : none;
    return ops ? ops->n_keys : 0;
}

void tny__result_key_path(char *dst, size_t size, const char *path,
                          enum tny_result_key k)
{
    snprintf(dst, size, "%s.%.64s", path, tny_result_key_name(k));
}

int32_t tny_result_keys_written(enum tny_game game,
                                const enum tny_result_key **out)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);

    if (!ops || !ops->keys_written)
        return tny_result_keys(game, out);
    *out = ops->keys_written;
    return ops->n_keys_written;
}

bool tny_result_has_key(enum tny_game game, enum tny_result_key k)
{
    const enum tny_result_key *keys_of;
    const int32_t n = tny_result_keys(game, &keys_of);
    for (int32_t i = 0; i < n; i++)
        if (keys_of[i] == k)
            return true;
    return false;
}

enum tny_result_key tny_result_field_key(enum tny_result_field f)
{
    return (int)f >= 0 && f < TNY_RF_COUNT ? field_keys[f] : TNY_RK_COUNT;
}

/* Every module's rows, gathered once: the registry is static, so every
 * gathering writes the same rows (RANGES_MAX bounds them, asserted). */
#define RANGES_MAX 64
static struct tny_result_range_info all_ranges[RANGES_MAX];
static int32_t n_all_ranges = -1;

int32_t tny_result_ranges(const struct tny_result_range_info **rows)
{
    if (n_all_ranges < 0) {
        const struct tny_game_ops *const *games;
        const int32_t n_games = tny_game_registry(&games);
        int32_t n = 0;
        for (int32_t g = 0; g < n_games; g++)
            for (int32_t i = 0; i < games[g]->n_ranges && n < RANGES_MAX; i++)
                all_ranges[n++] = games[g]->ranges[i];
        n_all_ranges = n;
    }
    *rows = all_ranges;
    return n_all_ranges;
}

const struct tny_result_range_info *
tny_result_range_info(enum tny_game game, enum tny_result_field f)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);
    for (int32_t i = 0; ops && i < ops->n_ranges; i++)
        if (ops->ranges[i].field == f)
            return &ops->ranges[i];
    return NULL;
}

int64_t tny_result_bound_value(const struct tny_format *fmt,
                               const struct tny_result_bound *b)
{
    const char *base = (const char *)fmt + b->offset;
    int32_t v32;
    int64_t v64;

    switch (b->size) {
    case sizeof(int32_t): memcpy(&v32, base, sizeof(v32)); return v32;
    case sizeof(int64_t): memcpy(&v64, base, sizeof(v64)); return v64;
    default: return b->value;
    }
}

void tny_result_range(const struct tny_format *fmt, enum tny_result_field f,
                      int64_t *lo, int64_t *hi)
{
    const struct tny_result_range_info *row =
        tny_result_range_info(fmt->game, f);

    *lo = row ? tny_result_bound_value(fmt, &row->lo) : 0;
    *hi = row ? tny_result_bound_value(fmt, &row->hi) : 0;
}

bool tny_result_cap(const struct tny_format *fmt, enum tny_result_field f,
                    int64_t *cap)
{
    const struct tny_result_range_info *row =
        tny_result_range_info(fmt->game, f);

    if (!row || !row->cap_rule)
        return false;
    *cap = tny_result_bound_value(fmt, &row->cap);
    return true;
}
