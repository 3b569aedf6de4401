/* result_schema.c - the per-game result schema (see result_schema.h): three
 * tables, the keys, each game's keys, each game's numeric ranges and caps,
 * and the lookups over them.
 *
 * Invariants: keys[] is indexed by enum tny_result_key; every game lists
 * lots last; a game has at most one range row per field; a bound that
 * reads the format names a field of the size it declares
 * (_Static_assert below).
 */
#include "tny/result_schema.h"

#include <stddef.h>
#include <string.h>

#include "tny/event.h" /* TNY_MAX_LOTS */

#define ARRAY_LEN(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

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

/* Each game's keys in the event file's order (event-file.md), lots last. */
struct game_keys {
    int32_t n;
    enum tny_result_key k[8];
};

#define GAME_KEYS_MAX 6
static const struct game_keys game_keys[GAME_KEYS_MAX] = {
    [TNY_GAME_NEUROSHIMA_HEX] = {5,
                                 {TNY_RK_WINNER, TNY_RK_DRAW, TNY_RK_HQ_DIFF,
                                  TNY_RK_ARMIES, TNY_RK_LOTS}},
    [TNY_GAME_TANTRIX] = {7,
                          {TNY_RK_SCORES, TNY_RK_CLOCK_MS, TNY_RK_DEFAULT_WIN,
                           TNY_RK_TP, TNY_RK_PENALTY, TNY_RK_DRAW,
                           TNY_RK_LOTS}},
    [TNY_GAME_AGRICOLA] = {4, {TNY_RK_VP, TNY_RK_IP, TNY_RK_BP, TNY_RK_LOTS}},
    [TNY_GAME_GOT_LCG2] = {4,
                           {TNY_RK_WINNER, TNY_RK_MODIFIED, TNY_RK_GAMES,
                            TNY_RK_LOTS}},
    [TNY_GAME_CATAN] = {2, {TNY_RK_VP, TNY_RK_LOTS}},
    [TNY_GAME_TWO_PLAYER] = {6,
                             {TNY_RK_SCORES, TNY_RK_WINNER, TNY_RK_DRAW,
                              TNY_RK_INTENTIONAL_DRAW, TNY_RK_DOUBLE_LOSS,
                              TNY_RK_LOTS}},
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

/* Bounds: a constant, or an int32_t/int64_t field of the format. */
#define CONST(v)                                                               \
    {                                                                          \
        (v), 0, 0                                                              \
    }
#define FMT(member)                                                            \
    {                                                                          \
        0, (uint16_t)offsetof(struct tny_format, member),                      \
            (uint8_t)sizeof(((struct tny_format *)0)->member)                  \
    }
#define NO_CAP CONST(0)

/* The protocol's structural bounds, the same for every format
 * (docs/protocol.md): VP, IP, BP and HQ difference within +-10^6, a
 * Tantrix score 0..10^5, TP and penalties 0..100 TP. */
#define WIRE_ABS TNY_RESULT_ABS_MAX
#define WIRE_SCORE 100000
#define WIRE_TP ((int64_t)100 * TNY_POINT_SCALE)
#define CLOCK_MAX_MS ((int64_t)4 * 3600 * 1000)

static const struct tny_result_range_info ranges[] = {
    {TNY_GAME_NEUROSHIMA_HEX, TNY_RF_HQ_DIFF, CONST(0), FMT(hq_diff_max),
     FMT(capped_hq_diff), "NH-1", "NH-2", -WIRE_ABS, WIRE_ABS},
    /* A Tantrix score is never negative, whatever score_min says. */
    {TNY_GAME_TANTRIX, TNY_RF_SCORE, CONST(0), FMT(score_max), NO_CAP, "TX-1",
     NULL, 0, WIRE_SCORE},
    {TNY_GAME_TANTRIX, TNY_RF_CLOCK_MS, CONST(0), CONST(CLOCK_MAX_MS), NO_CAP,
     "TX-3", NULL, 0, INT32_MAX},
    {TNY_GAME_TANTRIX, TNY_RF_DECIDED_TP, CONST(0), FMT(tp_per_game), NO_CAP,
     "TX-4", NULL, 0, WIRE_TP},
    {TNY_GAME_AGRICOLA, TNY_RF_VP, FMT(vp_min), FMT(vp_max), NO_CAP, "AG-1",
     NULL, -WIRE_ABS, WIRE_ABS},
    {TNY_GAME_AGRICOLA, TNY_RF_IP, CONST(0), FMT(ip_max), NO_CAP, "AG-1", NULL,
     -WIRE_ABS, WIRE_ABS},
    {TNY_GAME_AGRICOLA, TNY_RF_BP, FMT(bp_min), FMT(bp_max), NO_CAP, "AG-1",
     NULL, -WIRE_ABS, WIRE_ABS},
    /* CT-4: the VP as played; "counted at most 10" is scoring's cap. */
    {TNY_GAME_CATAN, TNY_RF_VP, FMT(vp_min), FMT(vp_max), FMT(game_points_cap),
     "CT-4", "CT-4", -WIRE_ABS, WIRE_ABS},
    {TNY_GAME_TWO_PLAYER, TNY_RF_SCORE, FMT(score_min), FMT(score_max), NO_CAP,
     "CM-6", NULL, -WIRE_ABS, WIRE_ABS},
};

_Static_assert(sizeof(((struct tny_format *)0)->hq_diff_max) == 4 &&
                   sizeof(((struct tny_format *)0)->tp_per_game) == 8,
               "bounds read int32_t or int64_t format fields");

const struct tny_result_key_info *tny_result_key_info(enum tny_result_key k)
{
    return (int)k >= 0 && k < TNY_RK_COUNT ? &keys[k] : NULL;
}

const char *tny_result_key_name(enum tny_result_key k)
{
    return (int)k >= 0 && k < TNY_RK_COUNT ? keys[k].name : "?";
}

bool tny_result_key_from_name(const char *name, enum tny_result_key *k)
{
    for (int32_t i = 0; i < TNY_RK_COUNT; i++)
        if (strcmp(keys[i].name, name) == 0) {
            *k = (enum tny_result_key)i;
            return true;
        }
    return false;
}

static const struct game_keys *of_game(enum tny_game game)
{
    static const struct game_keys none = {0, {TNY_RK_LOTS}};
    return (int)game >= 0 && (int)game < GAME_KEYS_MAX ? &game_keys[game]
                                                       : &none;
}

int32_t tny_result_keys(enum tny_game game, const enum tny_result_key **out)
{
    const struct game_keys *g = of_game(game);
    *out = g->k;
    return g->n;
}

int32_t tny_result_keys_written(enum tny_game game,
                                const enum tny_result_key **out)
{
    /* The one game whose written order differs from the key check's. */
    static const enum tny_result_key tx[] = {
        TNY_RK_SCORES, TNY_RK_CLOCK_MS, TNY_RK_DEFAULT_WIN, TNY_RK_TP,
        TNY_RK_DRAW,   TNY_RK_PENALTY,  TNY_RK_LOTS};

    if (game != TNY_GAME_TANTRIX)
        return tny_result_keys(game, out);
    *out = tx;
    return ARRAY_LEN(tx);
}

bool tny_result_has_key(enum tny_game game, enum tny_result_key k)
{
    const struct game_keys *g = of_game(game);
    for (int32_t i = 0; i < g->n; i++)
        if (g->k[i] == k)
            return true;
    return false;
}

enum tny_result_key tny_result_field_key(enum tny_result_field f)
{
    return (int)f >= 0 && f < TNY_RF_COUNT ? field_keys[f] : TNY_RK_COUNT;
}

int32_t tny_result_ranges(const struct tny_result_range_info **rows)
{
    *rows = ranges;
    return ARRAY_LEN(ranges);
}

const struct tny_result_range_info *
tny_result_range_info(enum tny_game game, enum tny_result_field f)
{
    for (int32_t i = 0; i < ARRAY_LEN(ranges); i++)
        if (ranges[i].game == game && ranges[i].field == f)
            return &ranges[i];
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
