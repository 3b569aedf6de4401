/* event_table.c - NH-11 army use checked for the players of one table.
 *
 * Mirrors validate_army_use in validate.c, restricted to the seats of one
 * table: an army repeat involving the table is reported when the later of
 * the two rounds does not allow a beginner repeat (NH-12), and a knockout
 * army must be one the player declared (when declared).  Not here: any
 * other rule.  No allocation, no state.
 */
#include "tny/event_table.h"

#include <stdbool.h>

#include "tny/game.h"

static bool may_repeat(const struct tny_event *ev, int32_t p, int32_t r,
                       int32_t swiss_rounds)
{
    const struct tny_round *round = &ev->rounds[r];
    return ev->players[p].beginner &&
           (round->stage == TNY_STAGE_ELIMINATION ||
            (round->stage == TNY_STAGE_SWISS && r + 1 == swiss_rounds));
}

/* The army player p used at tb, or -1 (not seated, no result). */
static int32_t army_at(const struct tny_table *tb, int32_t p)
{
    if (tb->is_bye || !tb->has_result)
        return -1;
    for (int32_t s = 0; s < tb->n_seats; s++)
        if (tb->seats[s] == p)
            return tb->result.army[s];
    return -1;
}

int tny_event_validate_table_armies(const struct tny_event *ev, int32_t r,
                                    int32_t t, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    int rc = TNY_OK;
    if (r < 0 || r >= ev->n_rounds || t < 0 || t >= ev->rounds[r].n_tables)
        return tny_diag_set(diag, TNY_ERANGE, "event: no table %d in round %d",
                            (int)t, (int)r);
    const struct tny_table *me = &ev->rounds[r].tables[t];
    const struct tny_game_ops *ops = tny_game_ops_of(fmt->game);
    if (!ops || !ops->armies || fmt->n_armies == 0 || me->is_bye ||
        !me->has_result)
        return TNY_OK;
    int32_t swiss_rounds = 0;
    for (int32_t k = 0; k < ev->n_rounds; k++)
        swiss_rounds += ev->rounds[k].stage == TNY_STAGE_SWISS;
    bool my_ko = ev->rounds[r].stage == TNY_STAGE_ELIMINATION;
    for (int32_t s = 0; s < me->n_seats; s++) {
        int32_t p = me->seats[s], a = me->result.army[s];
        if (a < 0 || p < 0 || p >= ev->n_players)
            continue;
        for (int32_t k = 0; k < ev->n_rounds; k++) {
            const struct tny_round *round = &ev->rounds[k];
            bool ko = round->stage == TNY_STAGE_ELIMINATION;
            for (int32_t u = 0; u < round->n_tables; u++) {
                int32_t b = army_at(&round->tables[u], p);
                if (b < 0 || b >= TNY_MAX_ARMIES)
                    continue;
                if (k == r || b != a || ko != my_ko)
                    continue;
                int32_t later = k > r ? k : r;
                if (!may_repeat(ev, p, later, swiss_rounds)) {
                    rc = tny_diag_set(diag, TNY_EINVAL,
                                      "event.rounds[%d].tables[%d].result."
                                      "armies.%s: \"%s\" was already played "
                                      "in the %s stage (NH-11)",
                                      (int)r, (int)t, ev->players[p].id,
                                      fmt->armies[a],
                                      my_ko ? "knockout" : "Swiss");
                    goto out;
                }
            }
        }
        const struct tny_player *pl = &ev->players[p];
        bool declared = pl->n_ko_armies == 0;
        for (int32_t i = 0; i < pl->n_ko_armies; i++)
            declared |= pl->ko_armies[i] == a;
        if (my_ko && !declared) { /* NH-11: only the declared armies */
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.rounds[%d].tables[%d].result.armies.%s: "
                              "\"%s\" is not one of the armies declared for "
                              "the knockout (NH-11)",
                              (int)r, (int)t, pl->id, fmt->armies[a]);
            goto out;
        }
    }
out:
    return rc;
}
