/* agricola.c - the Agricola module (game.h): VP, improvement and bonus
 * points per player (AG-1), placement points by VP (AG-5), relative
 * score (AG-6), the weighted final (AG-11), the lots that seat a table
 * and choose its starting player (AG-3, AG-4).
 *
 * Not here: the AG seating and group arithmetic (common/src/agricola.c,
 * tny/agricola.h), the draft procedure (procedure.c).
 */
#include <stdio.h>

#include "tny/agricola.h"
#include "tny/game.h"
#include "tny/i18n.h"

static const enum tny_result_key keys[] = {TNY_RK_VP, TNY_RK_IP, TNY_RK_BP,
                                           TNY_RK_LOTS};

static const struct tny_result_range_info ranges[] = {
    {TNY_GAME_AGRICOLA, TNY_RF_VP, TNY_BOUND_FMT(vp_min), TNY_BOUND_FMT(vp_max),
     TNY_BOUND_NONE, "AG-1", NULL, -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
    {TNY_GAME_AGRICOLA, TNY_RF_IP, TNY_BOUND_CONST(0), TNY_BOUND_FMT(ip_max),
     TNY_BOUND_NONE, "AG-1", NULL, -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
    {TNY_GAME_AGRICOLA, TNY_RF_BP, TNY_BOUND_FMT(bp_min), TNY_BOUND_FMT(bp_max),
     TNY_BOUND_NONE, "AG-1", NULL, -TNY_RESULT_ABS_MAX, TNY_RESULT_ABS_MAX},
};

static void score_table(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec)
{
    (void)elim;
    tny__score_placement(ev, round, t, false, rec);
}

static void score_bye(const struct tny_format *fmt, struct tny_record *rec)
{
    rec->tp = fmt->bye_points;
}

static int validate_result(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;

    (void)stage;
    if (!r->has_score)
        return tny_diag_set(diag, TNY_EINVAL, "%s.vp: missing", path);
    for (int32_t s = 0; s < t->n_seats; s++) {
        const char *who = tny__player_id(ev, t->seats[s]);
        if ((rc = tny__result_check_field(diag, path, who, r->score[s], fmt,
                                          TNY_RF_VP)) < 0 ||
            (rc = tny__result_check_field(diag, path, who, r->ip[s], fmt,
                                          TNY_RF_IP)) < 0 ||
            (rc = tny__result_check_field(diag, path, who, r->bp[s], fmt,
                                          TNY_RF_BP)) < 0)
            return rc;
    }
    return TNY_OK;
}

static void simulate(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w)
{
    const struct tny_format *fmt = &ev->format;
    struct tny_result *r = &table->result;

    (void)round_index;
    (void)stage;
    (void)w;
    r->has_score = true;
    for (int32_t s = 0; s < table->n_seats; s++) {
        const struct tny_player *pl = &ev->players[table->seats[s]];
        double skill = pl->has_rating ? (pl->rating - 1500) / 20 : 0;
        int64_t vlo, vhi, ilo, ihi, blo, bhi;
        tny_result_range(fmt, TNY_RF_VP, &vlo, &vhi);
        tny_result_range(fmt, TNY_RF_IP, &ilo, &ihi);
        tny_result_range(fmt, TNY_RF_BP, &blo, &bhi);
        r->score[s] = tny__sim_between(rng, 20, 55) + (int32_t)skill;
        if (r->score[s] < vlo)
            r->score[s] = (int32_t)vlo;
        if (r->score[s] > vhi)
            r->score[s] = (int32_t)vhi;
        r->ip[s] = tny__sim_between(rng, 0, ihi < 15 ? (int32_t)ihi : 15);
        r->bp[s] = tny__sim_between(rng, blo > 0 ? (int32_t)blo : 0,
                                    bhi < 5 ? (int32_t)bhi : 5);
    }
}

static int format_check(const struct tny_format *f, const char *path,
                        struct tny_diag *diag)
{
    if (f->placement_points[0] <= 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.points.placement: missing (AG-5)", path);
    if (f->group_a_size < 4 || f->group_a_size % 4 != 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.agricola.group_a_size: %d is not a "
                            "multiple of 4 (AG-10)",
                            path, (int)f->group_a_size);
    return TNY_OK;
}

static const char *round_lots_what(const struct tny_event *ev, int32_t r0,
                                   bool first_of_stage)
{
    (void)ev;
    (void)first_of_stage;
    return r0 == 0 ? "AG-3 seeding lot (purpose seeding) and seating lot"
                   : "AG-4 seating order by lot (purpose seats)";
}

static void round_lots_extra(const struct tny_event *ev, int32_t r0,
                             const struct tny_text_sink *out)
{
    const struct tny_round *round = &ev->rounds[r0];
    /* AG-4: the hub's starting-player lot follows each table's seat
     * lot in the round's seats stream (pair.c draws them in table
     * order); the seat lot's draws do not depend on who sits there. */
    struct tny_rng seats;
    tny_rng_derive(&seats, ev->seed, TNY_LOT_SEATS, (uint32_t)r0 + 1);
    out->add(out->ctx, "round %d: AG-4 starting player by lot (purpose seats):",
             (int)r0 + 1);
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        int32_t any[4] = {0, 1, 2, 3};
        if (tb->is_bye || tb->n_seats != 4)
            continue;
        tny_ag_seat_lot(&seats, any);
        int32_t first = tny_ag_starting_player(&seats);
        out->add(out->ctx, " table %d %s;", (int)tb->number,
                 ev->players[tb->seats[first]].id);
    }
    out->add(out->ctx, "\n");
}

/* "10/3/2": VP, IP and BP (AG-1). */
static void score_text(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size)
{
    (void)fmt;
    (void)w;
    snprintf(buf, size, "%d/%d/%d", (int)r->score[s], (int)r->ip[s],
             (int)r->bp[s]);
}

/* The slip: VP, IP and BP (AG-1). */
static const struct tny_slip_col slip_cols[] = {
    /* TRANSLATORS: AG-1: victory points, improvement points, bonus
       points; seed 002 writes VP, IP and BP. */
    {NC_("Agricola", "VP"), 20, false, false},
    {NC_("Agricola", "IP"), 20, false, false},
    {NC_("Agricola", "BP"), 20, false, false},
};

/* The format file's "agricola" block: group A's size (AG-10), the
 * ranges of VP, IP and BP (AG-1). */
static const struct tny_format_key block_keys[] = {
    {"group_a_size", TNY_FK_INT, TNY_FK_AT(group_a_size), 0, 0, 4, 1000, 1, 0,
     0},
    {"vp_min", TNY_FK_INT, TNY_FK_AT(vp_min), 0, 0, -100000, 100000, 1, 0, 0},
    {"vp_max", TNY_FK_INT, TNY_FK_AT(vp_max), 0, 0, -100000, 100000, 1, 0, 0},
    {"ip_max", TNY_FK_INT, TNY_FK_AT(ip_max), 0, 0, 0, 100000, 1, 0, 0},
    {"bp_min", TNY_FK_INT, TNY_FK_AT(bp_min), 0, 0, -100000, 100000, 1, 0, 0},
    {"bp_max", TNY_FK_INT, TNY_FK_AT(bp_max), 0, 0, -100000, 100000, 1, 0, 0},
};

const struct tny_game_ops tny_game_agricola = {
    .game = TNY_GAME_AGRICOLA,
    .name = "agricola",
    .rules = "AG",
    .flow = TNY_GAME_AGRICOLA,
    .players_per_table = 4,
    .min_seats = 4,
    .agricola_seating = true,
    .final_reranks = true,
    .options = TNY_GOPT_AG | TNY_GOPT_PLACEMENT,
    .tiebreaks = 1u << TNY_TB_TOTAL_SCORE | 1u << TNY_TB_RELATIVE_SCORE |
                 1u << TNY_TB_BEST_RELATIVE |
                 1u << TNY_TB_BEST_PRELIM_RELATIVE |
                 1u << TNY_TB_FINAL_PLACEMENT | 1u << TNY_TB_FIRSTS |
                 1u << TNY_TB_SECONDS | 1u << TNY_TB_THIRDS,
    .n_keys = (int32_t)(sizeof(keys) / sizeof(keys[0])),
    .keys = keys,
    .n_ranges = (int32_t)(sizeof(ranges) / sizeof(ranges[0])),
    .ranges = ranges,
    .score_table = score_table,
    .score_bye = score_bye,
    .validate_result = validate_result,
    .simulate = simulate,
    .format_check = format_check,
    .round_lots_what = round_lots_what,
    .round_lots_extra = round_lots_extra,
    .result_rules = tny__vp_result_rules,
    .score_text = score_text,
    .wire = "ag",
    .slip = {3, slip_cols, NULL, false, NULL, false},
    .result_line = tny__vp_result_line,
    .clocks = TNY_GCLOCK_DRAFT,
    .block = {"agricola", (int32_t)(sizeof block_keys / sizeof *block_keys),
              block_keys},
    .format_keys = TNY_GFK_TABLE_DRAFT,
};
