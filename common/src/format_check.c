/* format_check.c - a format as a whole is one the engine can run
 * (tny_format_check, format.h).
 *
 * The checks that span fields: the table size fits the game, the stages
 * fit together (kinds, strategies for the table size, elimination never
 * first, one stage per kind), every stage that ranks has a tiebreak chain
 * that means something for the game, and the game's own numbers are
 * present and consistent.  Single values (types, ranges of one field) are
 * the parser's or the option setter's; what is one game's alone is its
 * module's (game.h format_check).  Pure: no allocation, no state.
 */
#include "tny/format.h"

#include <stdio.h>
#include <string.h>

#include "tny/game.h"

/* Longest path named in a message (as the JSON adapter's). */
#define PATH_MAX_ 256

static bool is_power_of_two(int32_t x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

int tny_format_check_name_entry(const char (*names)[TNY_NAME_MAX], int32_t i,
                                const struct tny_format *known,
                                const char *path, struct tny_diag *diag)
{
    for (int32_t j = 0; j < i; j++)
        if (strcmp(names[j], names[i]) == 0)
            return tny_diag_set(diag, TNY_EINVAL, "%s: \"%s\" listed twice",
                                path, names[i]);
    if (known && tny_format_army_index(known, names[i]) < 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: \"%s\" is not in neuroshima_hex.armies", path,
                            names[i]);
    return TNY_OK;
}

int tny_stage_check_tiebreak_entry(const struct tny_stage *s, int32_t i,
                                   const char *path, struct tny_diag *diag)
{
    for (int32_t j = 0; j < i; j++)
        if (s->tiebreaks[j] == s->tiebreaks[i])
            return tny_diag_set(diag, TNY_EINVAL, "%s: \"%s\" listed twice",
                                path, tny_tiebreak_name(s->tiebreaks[i]));
    return TNY_OK;
}

/* NH-10 army lists: each name once, the beginners' and capped ones among
 * the armies. */
static int check_army_lists(const struct tny_format *f, const char *path,
                            struct tny_diag *diag)
{
    const struct {
        const char *key;
        const char (*names)[TNY_NAME_MAX];
        int32_t n;
        const struct tny_format *known;
    } lists[] = {
        {"armies", f->armies, f->n_armies, NULL},
        {"beginner_armies", f->beginner_armies, f->n_beginner_armies, f},
        {"capped_armies", f->capped_armies, f->n_capped_armies, f},
    };
    char ep[PATH_MAX_];
    int rc;
    for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
        for (int32_t i = 0; i < lists[l].n; i++) {
            snprintf(ep, sizeof(ep), "%s.neuroshima_hex.%s[%d]", path,
                     lists[l].key, (int)i);
            if ((rc = tny_format_check_name_entry(
                     lists[l].names, i, lists[l].known, ep, diag)) < 0)
                return rc;
        }
    return TNY_OK;
}

int tny_stage_check_tiebreaks(const struct tny_stage *s, const char *path,
                              struct tny_diag *diag)
{
    if (s->n_tiebreaks > 0 && s->tiebreaks[s->n_tiebreaks - 1] != TNY_TB_LOT)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.tiebreaks: the last tiebreak must be \"lot\" "
                            "so that the order is total (CM-4)",
                            path);
    return TNY_OK;
}

int tny_format_check_scores(const struct tny_format *f, const char *path,
                            struct tny_diag *diag)
{
    const struct tny_game_ops *ops = tny_game_ops_of(f->game);
    return ops && ops->check_scores ? ops->check_scores(f, path, diag) : TNY_OK;
}

int tny_format_check_mov(const struct tny_format *f, const char *path,
                         struct tny_diag *diag)
{
    if (f->has_mov && f->mov_min > f->mov_max)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.tiebreak_data.mov.max: less than min", path);
    return TNY_OK;
}

int tny_format_check(const struct tny_format *f, const char *path,
                     struct tny_diag *diag)
{
    int rc;
    if ((rc = check_army_lists(f, path, diag)) < 0 ||
        (rc = tny_format_check_scores(f, path, diag)) < 0 ||
        (rc = tny_format_check_mov(f, path, diag)) < 0)
        return rc;
    const bool two = f->players_per_table == 2;
    const struct tny_game_ops *ops = tny_game_ops_of(f->game);
    if (!ops)
        return tny_diag_set(diag, TNY_EINVAL, "%s.game: unknown game", path);
    /* GT-5: the rounds come from attendance */
    const bool gt_table = (ops->options & TNY_GOPT_STRUCTURE) &&
                          f->structure != TNY_STRUCTURE_CUSTOM;
    if (ops->players_per_table == 4) {
        if (f->players_per_table != 4)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.players_per_table: \"%s\" is played by 4 "
                                "at a table",
                                path, tny_game_name(f->game));
    } else if (!two) {
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.players_per_table: \"%s\" is a 2-player game",
                            path, tny_game_name(f->game));
    }
    if (f->max_players > 0 && f->max_players < f->min_players)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.max_players: less than min_players", path);
    if (f->n_sides != 0 &&
        (f->n_sides != 2 || !two || !f->sides[0][0] || !f->sides[1][0] ||
         strcmp(f->sides[0], f->sides[1]) == 0))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.sides.names: expected two different names "
                            "(a 2-player format)",
                            path);
    for (int i = 0; i < f->n_stages; i++) {
        const struct tny_stage *s = &f->stages[i];
        char sp[PATH_MAX_];
        snprintf(sp, sizeof(sp), "%s.stages[%d]", path, i);
        for (int k = 0; k < s->n_tiebreaks; k++) {
            char tp[PATH_MAX_ + 32];
            snprintf(tp, sizeof(tp), "%s.tiebreaks[%d]", sp, k);
            if ((rc = tny_stage_check_tiebreak_entry(s, k, tp, diag)) < 0)
                return rc;
        }
        if ((rc = tny_stage_check_tiebreaks(s, sp, diag)) < 0)
            return rc;
        bool elim_kind = s->kind == TNY_STAGE_ELIMINATION;
        bool elim_pair =
            s->pairing == TNY_PAIR_RESEEDED || s->pairing == TNY_PAIR_FOLDED;
        bool four_pair =
            s->pairing == TNY_PAIR_AGRICOLA || s->pairing == TNY_PAIR_GORN;
        if (elim_kind != elim_pair)
            return tny_diag_set(
                diag, TNY_EINVAL,
                "%s.pairing: \"%s\" does not fit a \"%s\" stage "
                "(elimination stages pair \"reseeded\" or "
                "\"folded\", no other stage does)",
                sp, tny_pairing_name(s->pairing), tny_stage_kind_name(s->kind));
        if (four_pair == two)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.pairing: \"%s\" does not seat %d players "
                                "at a table",
                                sp, tny_pairing_name(s->pairing),
                                (int)f->players_per_table);
        if (s->pairing == TNY_PAIR_AGRICOLA && !ops->agricola_seating)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.pairing: \"agricola\" seating needs the "
                                "agricola game",
                                sp);
        if (elim_kind && i == 0)
            /* The cut (and GT-8's bracket, which skips that stage's
             * rounds) is seeded from the standings of a stage before. */
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.kind: an elimination stage cannot come "
                                "first (it cuts from the standings of the "
                                "stage before it, NH-7, GT-7; \"from_start\" "
                                "skips that stage's rounds, GT-8)",
                                sp);
        for (int j = 0; j < i; j++)
            if (f->stages[j].kind == s->kind)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.kind: a second \"%s\" stage", sp,
                                    tny_stage_kind_name(s->kind));
        if (elim_kind) {
            if (s->cut != 0 && (!is_power_of_two(s->cut) || s->cut < 2))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.cut: %d is not a power of two "
                                    "(0 = no elimination stage)",
                                    sp, (int)s->cut);
        } else {
            bool rounds_free = s->kind == TNY_STAGE_ROUND_ROBIN ||
                               (s->kind == TNY_STAGE_SWISS && gt_table);
            if (s->rounds < 1 && !rounds_free)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.rounds: a \"%s\" stage needs at least "
                                    "1 round",
                                    sp, tny_stage_kind_name(s->kind));
            if (s->n_tiebreaks == 0)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.tiebreaks: missing (a chain ending in "
                                    "\"lot\")",
                                    sp);
        }
        for (int k = 0; k < s->n_tiebreaks; k++) {
            enum tny_tiebreak tb = s->tiebreaks[k];
            if (!tny_tiebreak_applies(tb, f->game))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.tiebreaks[%d]: \"%s\" does not apply "
                                    "to a \"%s\" game (its results have no "
                                    "such value; every player would tie)",
                                    sp, k, tny_tiebreak_name(tb),
                                    tny_game_name(f->game));
            if (tb == TNY_TB_MOV && !f->has_mov)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.tiebreaks[%d]: \"mov\" needs "
                                    "tiebreak_data.mov (the margin formula)",
                                    sp, k);
        }
        if (s->timer_minutes > 0 && s->timer_minutes < ops->min_timer_minutes)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.timer_minutes: at least %d minutes per "
                                "game (%s), or 0 for no limit",
                                sp, (int)ops->min_timer_minutes,
                                ops->timer_rule);
    }
    /* the game's own data (game.h format_check) */
    if (ops->format_check && (rc = ops->format_check(f, path, diag)) < 0)
        return rc;
    return TNY_OK;
}
