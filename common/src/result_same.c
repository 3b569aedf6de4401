/* result_same.c - when two reports of a table's result are the same one
 * (CM-6: the same result again counts once; a different one is a
 * conflict for the organiser).  Field by field, never by bytes: a struct's
 * padding and the unused seats say nothing. */
#include "tny/event.h"

#include <string.h>

static bool same_seats(const int32_t *a, const int32_t *b, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static bool same_seats64(const int64_t *a, const int64_t *b, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

bool tny_result_same(const struct tny_result *a, const struct tny_result *b,
                     int32_t n_seats)
{
    int32_t n = n_seats < 0               ? 0
                : n_seats > TNY_MAX_SEATS ? TNY_MAX_SEATS
                                          : n_seats;
    if (a->winner != b->winner || a->draw != b->draw ||
        a->intentional_draw != b->intentional_draw ||
        a->double_loss != b->double_loss || a->modified != b->modified ||
        a->hq_diff != b->hq_diff || !same_seats(a->army, b->army, n) ||
        a->has_score != b->has_score || a->has_clock != b->has_clock ||
        a->default_winner != b->default_winner || a->decided != b->decided ||
        a->n_games != b->n_games || a->n_lots != b->n_lots)
        return false;
    if (a->has_score &&
        (!same_seats(a->score, b->score, n) || !same_seats(a->ip, b->ip, n) ||
         !same_seats(a->bp, b->bp, n)))
        return false;
    if (a->has_clock && !same_seats(a->clock_ms, b->clock_ms, n))
        return false;
    if (a->decided && !same_seats64(a->decided_tp, b->decided_tp, n))
        return false;
    if (a->n_games < 0 || a->n_games > 3 || a->n_lots < 0 ||
        a->n_lots > TNY_MAX_LOTS)
        return false;
    if (!same_seats(a->games, b->games, a->n_games))
        return false;
    for (int32_t i = 0; i < a->n_lots; i++)
        if (strncmp(a->lots[i], b->lots[i], TNY_LOT_MAX) != 0)
            return false;
    /* A module's own keys (struct tny_result_ext): the slots given, every
     * seat's value (a number or a flag is seat 0's, the others 0). */
    if (a->ext_has != b->ext_has)
        return false;
    for (int32_t i = 0; i < TNY_RESULT_EXT_MAX; i++)
        if (((a->ext_has >> i) & 1u) &&
            !same_seats(a->ext[i], b->ext[i], n > 0 ? n : 1))
            return false;
    return true;
}
