/* format.c - names of the format vocabulary and their reverse lookups.
 *
 * One constant table per enum of format.h, indexed by the enum value, so a
 * name and its value can never drift apart.  These names are the words of
 * format files, event files and output ("hq_diff", "elimination", ...).
 * No parsing of files here (that is common/io), no state, no allocation.
 * Invariant: every table has exactly one entry per enum value, in order.
 */
#include "tny/format.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tny/error.h"
#include "tny/game.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *const tiebreak_names[] = {
    [TNY_TB_HQ_DIFF] = "hq_diff",
    [TNY_TB_HEAD_TO_HEAD] = "head_to_head",
    [TNY_TB_MINI_TP] = "mini_league_tp",
    [TNY_TB_WINS] = "wins",
    [TNY_TB_MINI_SCORE_DIFF] = "mini_league_score_diff",
    [TNY_TB_TOTAL_SCORE] = "total_score",
    [TNY_TB_SOS] = "sos",
    [TNY_TB_ESOS] = "esos",
    [TNY_TB_RELATIVE_SCORE] = "relative_score",
    [TNY_TB_BEST_RELATIVE] = "best_relative_score",
    [TNY_TB_BEST_PRELIM_RELATIVE] = "best_prelim_relative_score",
    [TNY_TB_FINAL_PLACEMENT] = "final_placement",
    [TNY_TB_SUCCESS_RATE] = "success_rate",
    [TNY_TB_GAME_POINTS] = "game_points",
    [TNY_TB_FIRSTS] = "firsts",
    [TNY_TB_SECONDS] = "seconds",
    [TNY_TB_THIRDS] = "thirds",
    [TNY_TB_LOT] = "lot",
    [TNY_TB_MOV] = "mov",
    [TNY_TB_OWP] = "owp",
    [TNY_TB_BUCHHOLZ] = "buchholz",
    [TNY_TB_MEDIAN_BUCHHOLZ] = "median_buchholz",
};

static const char *const stage_kind_names[] = {
    [TNY_STAGE_SWISS] = "swiss",   [TNY_STAGE_ELIMINATION] = "elimination",
    [TNY_STAGE_PRELIM] = "prelim", [TNY_STAGE_FINAL] = "final",
    [TNY_STAGE_ROUND] = "round",   [TNY_STAGE_ROUND_ROBIN] = "round_robin",
};

static const char *const pairing_names[] = {
    [TNY_PAIR_SWISS] = "swiss",   [TNY_PAIR_RESEEDED] = "reseeded",
    [TNY_PAIR_FOLDED] = "folded", [TNY_PAIR_AGRICOLA] = "agricola",
    [TNY_PAIR_GORN] = "gorn",     [TNY_PAIR_ROUND_ROBIN] = "round_robin",
};

static const char *const structure_names[] = {
    [TNY_STRUCTURE_CUSTOM] = "custom",
    [TNY_STRUCTURE_BASIC] = "basic",
    [TNY_STRUCTURE_ADVANCED] = "advanced",
};

static const char *const group_order_names[] = {
    [TNY_GROUP_LOT] = "lot",
    [TNY_GROUP_ADJACENT] = "adjacent",
};

static const char *const score_groups_names[] = {
    [TNY_GROUPS_POINTS] = "points",
    [TNY_GROUPS_WINS] = "wins",
};
static const char *const pairing_cost_names[] = {"score_groups", "points"};

static const char *const bye_rule_names[] = {
    [TNY_BYE_LOWEST_POINTS_HQ] = "lowest_points_hq",
    [TNY_BYE_LOWEST_RANKED] = "lowest_ranked",
};

bool tny_tiebreak_applies(enum tny_tiebreak tb, enum tny_game game)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);
    switch (tb) {
    case TNY_TB_SOS: /* any game's tables have opponents and points */
    case TNY_TB_ESOS:
    case TNY_TB_OWP:
    case TNY_TB_BUCHHOLZ:
    case TNY_TB_MEDIAN_BUCHHOLZ:
    case TNY_TB_LOT:
    case TNY_TB_COUNT_: return true;
    default: /* the values the game's results have (game.h) */
        return ops && (ops->tiebreaks & (1u << tb)) != 0;
    }
}

_Static_assert(TNY_TB_COUNT_ <= 32, "a game's tiebreaks fit its bit mask");

_Static_assert(sizeof(tiebreak_names) / sizeof(tiebreak_names[0]) ==
                   TNY_TB_COUNT_,
               "one name per tiebreak");

static const char *name_at(const char *const *names, int n, int value)
{
    if (value < 0 || value >= n || !names[value])
        return "?";
    return names[value];
}

static int index_of(const char *const *names, int n, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *tny_tiebreak_name(enum tny_tiebreak tb)
{
    return name_at(tiebreak_names, COUNT(tiebreak_names), (int)tb);
}

const char *tny_stage_kind_name(enum tny_stage_kind kind)
{
    return name_at(stage_kind_names, COUNT(stage_kind_names), (int)kind);
}

const char *tny_pairing_name(enum tny_pairing pairing)
{
    return name_at(pairing_names, COUNT(pairing_names), (int)pairing);
}

const char *tny_game_name(enum tny_game game)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);
    return ops ? ops->name : "?";
}

const char *tny_structure_name(enum tny_structure st)
{
    return name_at(structure_names, COUNT(structure_names), (int)st);
}

const char *tny_group_order_name(enum tny_group_order g)
{
    return name_at(group_order_names, COUNT(group_order_names), (int)g);
}

const char *tny_score_groups_name(enum tny_score_groups g)
{
    return name_at(score_groups_names, COUNT(score_groups_names), (int)g);
}

const char *tny_bye_rule_name(enum tny_bye_rule r)
{
    return name_at(bye_rule_names, COUNT(bye_rule_names), (int)r);
}

const char *tny_pairing_cost_name(enum tny_pairing_cost c)
{
    return name_at(pairing_cost_names, COUNT(pairing_cost_names), (int)c);
}

int tny_name_pick(const char *name, const char *const *names, int n,
                  const char *path, const char *noun, int *out,
                  struct tny_diag *diag)
{
    char list[256] = "";
    size_t used = 0;
    int i = index_of(names, n, name);

    *out = 0; /* written on every path: gcc -O3 cannot see rc < 0 */
    if (i >= 0) {
        *out = i;
        return TNY_OK;
    }
    for (i = 0; i < n && used < sizeof(list); i++) {
        int w = snprintf(list + used, sizeof(list) - used, "%s%s",
                         i ? ", " : "", names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return tny_diag_set(diag, TNY_EINVAL,
                        "%s: unknown %s \"%.64s\" (expected one of: %s)", path,
                        noun, name, list);
}

int tny_tiebreak_from_name(const char *name, enum tny_tiebreak *out)
{
    int i = index_of(tiebreak_names, COUNT(tiebreak_names), name);
    if (i < 0)
        return TNY_ENOTFOUND;
    *out = (enum tny_tiebreak)i;
    return TNY_OK;
}

int tny_stage_kind_from_name(const char *name, enum tny_stage_kind *out)
{
    int i = index_of(stage_kind_names, COUNT(stage_kind_names), name);
    if (i < 0)
        return TNY_ENOTFOUND;
    *out = (enum tny_stage_kind)i;
    return TNY_OK;
}

int tny_pairing_from_name(const char *name, enum tny_pairing *out)
{
    int i = index_of(pairing_names, COUNT(pairing_names), name);
    if (i < 0)
        return TNY_ENOTFOUND;
    *out = (enum tny_pairing)i;
    return TNY_OK;
}

int tny_game_from_name(const char *name, enum tny_game *out)
{
    const struct tny_game_ops *ops = tny_game_ops_by_name(name);
    if (!ops)
        return TNY_ENOTFOUND;
    *out = ops->game;
    return TNY_OK;
}

int32_t tny_format_army_index(const struct tny_format *fmt, const char *name)
{
    if (!name)
        return -1;
    for (int32_t i = 0; i < fmt->n_armies && i < TNY_MAX_ARMIES; i++)
        if (strcmp(fmt->armies[i], name) == 0)
            return i;
    return -1;
}

int32_t tny_format_side_index(const struct tny_format *fmt, const char *name)
{
    if (!name)
        return -1;
    for (int32_t i = 0; i < fmt->n_sides && i < 2; i++)
        if (strcmp(fmt->sides[i], name) == 0)
            return i;
    return -1;
}

void tny_points_text(int64_t units, char *buf, size_t size)
{
    /* round half away from zero to hundredths of a point */
    int64_t half = units >= 0 ? TNY_POINT_SCALE / 2 : -TNY_POINT_SCALE / 2;
    int64_t hundredths = (units * 100 + half) / TNY_POINT_SCALE;
    const char *sign = hundredths < 0 ? "-" : "";
    int64_t mag = hundredths < 0 ? -hundredths : hundredths;
    if (mag % 100 == 0)
        snprintf(buf, size, "%s%lld", sign, (long long)(mag / 100));
    else if (mag % 10 == 0)
        snprintf(buf, size, "%s%lld.%lld", sign, (long long)(mag / 100),
                 (long long)(mag % 100 / 10));
    else
        snprintf(buf, size, "%s%lld.%02lld", sign, (long long)(mag / 100),
                 (long long)(mag % 100));
}
