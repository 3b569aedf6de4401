/* score.c - per-player records from table results (score.h).
 *
 * The generic part: each seat's presence, table and opponents, byes,
 * elimination rounds; each game's rules are its module's (game.h
 * score_table, score_bye: NH-1..NH-4, TX-2..TX-5, TX-7, TX-13, AG-5,
 * AG-6, AG-11, GT-1, CT-3..CT-6), with the helpers shared by games
 * that score alike (tny__score_win_draw, tny__score_placement) and the
 * NH, TX and CT arithmetic other modules call (score.h).  Elimination rounds
 * give no tournament points (their outcome is the bracket); Swiss/prelim/final
 * and Gorn rounds do.  Results are assumed validated.
 */
#include "tny/score.h"

#include <stdlib.h>
#include <string.h>

#include "tny/agricola.h"
#include "tny/clock.h"
#include "tny/game.h"

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}
static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

int32_t tny_result_winner_seat(const struct tny_format *fmt,
                               const struct tny_result *res)
{
    (void)fmt;
    if (res->n_games > 0) { /* GT-9: first to two game wins */
        int wins[2] = {0, 0};
        for (int32_t g = 0; g < res->n_games; g++)
            if (res->games[g] >= 0 && res->games[g] < 2)
                wins[res->games[g]]++;
        return wins[0] >= 2 ? 0 : wins[1] >= 2 ? 1 : -1;
    }
    if (res->draw)
        return -1;
    return res->winner;
}

void tny_neuroshima_hq(const struct tny_format *fmt,
                       const struct tny_result *res, int32_t hq[2])
{
    hq[0] = hq[1] = 0;
    if (res->draw || res->winner < 0)
        return; /* NH-1: a draw records 0 for both */
    int32_t d = res->hq_diff;
    int64_t cap = 0;
    /* NH-2: Dancer caps |d| (the cap of result_schema.h) */
    bool has_cap = tny_result_cap(fmt, TNY_RF_HQ_DIFF, &cap);
    for (int s = 0; has_cap && s < 2; s++) {
        if (res->army[s] < 0)
            continue;
        for (int32_t c = 0; c < fmt->n_capped_armies; c++)
            if (strcmp(fmt->armies[res->army[s]], fmt->capped_armies[c]) == 0 &&
                d > cap)
                d = (int32_t)cap;
    }
    hq[res->winner] = d;
    hq[1 - res->winner] = -d;
}

/* TX-3: TP lost to the opponent for a clock reading (validated input). */
static int64_t clock_penalty(const struct tny_format *fmt, int32_t clock_ms)
{
    int64_t penalty = 0;
    if (fmt->clock_limit_ms <= 0 ||
        tny_tx_clock_penalty(clock_ms, fmt->clock_limit_ms, fmt->clock_step_ms,
                             fmt->clock_penalty, &penalty, NULL) < 0)
        return 0;
    return penalty;
}

void tny_tantrix_tp(const struct tny_format *fmt, const struct tny_result *res,
                    int64_t tp[2])
{
    const int64_t total = fmt->tp_per_game;
    if (res->decided) { /* TX-4: organiser decision, TP by hand */
        tp[0] = res->decided_tp[0];
        tp[1] = res->decided_tp[1];
    } else if (res->draw) { /* seed 001 s13: board not restorable */
        tp[0] = total / 2;
        tp[1] = total - tp[0];
    } else if (res->default_winner >= 0) { /* TX-5 */
        tp[res->default_winner] = fmt->default_win_tp;
        tp[1 - res->default_winner] = total - fmt->default_win_tp;
    } else { /* TX-2 by margin, then TX-3 clock penalties */
        int32_t margin = abs(res->score[0] - res->score[1]);
        int32_t idx = margin < fmt->n_margins ? margin : fmt->n_margins - 1;
        int64_t winner_tp = fmt->margin_tp[idx];
        int w = res->score[0] >= res->score[1] ? 0 : 1;
        tp[w] = winner_tp;
        tp[1 - w] = total - winner_tp;
        if (res->has_clock) {
            int64_t p0 = clock_penalty(fmt, res->clock_ms[0]);
            int64_t p1 = clock_penalty(fmt, res->clock_ms[1]);
            int64_t t0 = max64(0, min64(total, tp[0] - p0 + p1));
            tp[0] = t0;
            tp[1] = total - t0; /* the game still shares 20.0 */
        }
    }
    tp[0] -= res->penalty[0]; /* TX-7: audited late-result deduction */
    tp[1] -= res->penalty[1];
}

/* Placement 1..n of each seat: by score (above: the seats with a better
 * one, tny_ag_places), then (AG-7, seed 002 T2(d): only to seat game 2)
 * the tie scores.  score_place counts score alone, so players with equal
 * VP share a place (T3, AG-13). */
static void placements(const struct tny_table *t, bool ag_order,
                       const int32_t *above, int8_t *place, int8_t *score_place)
{
    const struct tny_result *r = &t->result;
    for (int32_t i = 0; i < t->n_seats; i++) {
        int p = 1 + above[i];
        for (int32_t j = 0; ag_order && j < t->n_seats; j++)
            p += j != i && r->score[j] == r->score[i] &&
                 (r->ip[j] > r->ip[i] ||
                  (r->ip[j] == r->ip[i] && r->bp[j] > r->bp[i]));
        place[i] = (int8_t)p;
        score_place[i] = (int8_t)(1 + above[i]);
    }
}

static const struct tny_stage *stage_of_kind(const struct tny_format *fmt,
                                             enum tny_stage_kind kind)
{
    for (int32_t s = 0; s < fmt->n_stages; s++)
        if (fmt->stages[s].kind == kind)
            return &fmt->stages[s];
    return NULL;
}

/* NH-3, GT-1: a win of seat w (-1 a draw) with the format's points. */
void tny__score_win_draw(const struct tny_format *fmt, int32_t w, bool modified,
                         bool elim, struct tny_record *const *rec)
{
    for (int s = 0; s < 2; s++) {
        rec[s]->win = w < 0 ? 0.5f : (w == s ? 1.0f : 0.0f);
        rec[s]->place = (int8_t)(w < 0 ? 1 : (w == s ? 1 : 2));
        rec[s]->score_place = rec[s]->place;
        rec[s]->elim_won = elim && w == s;
        if (elim)
            continue; /* the bracket, not points, counts */
        if (w < 0)
            rec[s]->tp = fmt->draw_points;
        else if (w == s)
            rec[s]->tp = modified ? fmt->modified_win_points : fmt->win_points;
        else
            rec[s]->tp = fmt->loss_points;
    }
}

void tny__score_placement(const struct tny_event *ev,
                          const struct tny_round *round,
                          const struct tny_table *t, bool catan,
                          struct tny_record *const *rec)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *res = &t->result;
    int32_t score[TNY_MAX_SEATS];
    int64_t sum = 0, cap = 0;
    /* CT-4 as tny_ct_game_points, the cap looked up once per table */
    bool capped = catan && tny_result_cap(fmt, TNY_RF_VP, &cap) && cap > 0;
    for (int32_t s = 0; s < t->n_seats; s++) {
        score[s] = capped && res->score[s] > cap ? (int32_t)cap : res->score[s];
        sum += score[s];
    }
    /* AG-11 weights the final stage; CT-3 3-player tables give 4,3,2. */
    const struct tny_stage *st = stage_of_kind(fmt, round->stage);
    int64_t num = st && st->weight_den > 0 ? st->weight_num : 1;
    int64_t den = st && st->weight_den > 0 ? st->weight_den : 1;
    const int64_t *base = catan && t->n_seats == 3 ? fmt->placement_points_3
                                                   : fmt->placement_points;
    int64_t weighted[TNY_MAX_SEATS], tp[TNY_MAX_SEATS];
    if (num != den) {
        for (int i = 0; i < TNY_MAX_SEATS; i++)
            weighted[i] = base[i] * num / den;
        base = weighted;
    }
    /* Placement by the game's own VP; the CT-4 cap only limits game
     * points and the success rate. */
    int32_t above[TNY_MAX_SEATS], equal[TNY_MAX_SEATS];
    tny_ag_places(res->score, t->n_seats, above, equal);
    tny_ag_places_points(above, equal, t->n_seats, base, tp);
    int8_t place[TNY_MAX_SEATS], score_place[TNY_MAX_SEATS];
    placements(t, !catan, above, place, score_place);
    double mean = (double)sum / t->n_seats;
    for (int32_t s = 0; s < t->n_seats; s++) {
        rec[s]->tp = tp[s];
        rec[s]->score = score[s];
        rec[s]->has_score = true;
        rec[s]->place = place[s];
        rec[s]->score_place = score_place[s];
        rec[s]->relative = score[s] - mean;                     /* AG-6 */
        rec[s]->success = sum > 0 ? (double)score[s] / sum : 0; /* CT-5 */
    }
}

/* The generic part of a table's records; the game's module does the
 * rest (game.h score_table). */
static void score_table(const struct tny_event *ev,
                        const struct tny_round *round, int32_t ti, int32_t r0,
                        struct tny_records *out)
{
    const struct tny_table *t = &round->tables[ti];
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    struct tny_record *rec[TNY_MAX_SEATS];

    for (int32_t s = 0; s < t->n_seats; s++) {
        rec[s] = &out->rec[(int64_t)t->seats[s] * out->n_rounds + r0];
        rec[s]->presence = TNY_PLAYED;
        rec[s]->seat = (int8_t)s;
        rec[s]->table = ti;
        rec[s]->n_opponents = (int8_t)(t->n_seats - 1);
        for (int32_t o = 0, k = 0; o < t->n_seats; o++)
            if (o != s)
                rec[s]->opponents[k++] = t->seats[o];
    }
    if (ops)
        ops->score_table(ev, round, t, round->stage == TNY_STAGE_ELIMINATION,
                         rec);
}

int64_t tny_bye_points(const struct tny_event *ev, int32_t r0)
{
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    struct tny_record rec;
    memset(&rec, 0, sizeof(rec));
    if (!ops || (r0 >= 0 && r0 < ev->n_rounds &&
                 ev->rounds[r0].stage == TNY_STAGE_ELIMINATION))
        return 0;
    ops->score_bye(&ev->format, &rec);
    return rec.tp;
}

static void score_bye(const struct tny_event *ev, int32_t player, int32_t r0,
                      struct tny_records *out)
{
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    struct tny_record *rec = &out->rec[(int64_t)player * out->n_rounds + r0];
    rec->presence = TNY_BYE;
    rec->win = 1.0f;      /* NH-4, GT-1, TX-8/TX-13: a bye counts as a win */
    rec->elim_won = true; /* GT-8/GT-10: a bye advances */
    if (ops)
        ops->score_bye(&ev->format, rec);
    rec->tp = tny_bye_points(ev, r0);
}

int tny_records_compute(const struct tny_event *ev, int32_t after_round,
                        struct tny_records *out, struct tny_diag *diag)
{
    memset(out, 0, sizeof(*out));
    if (after_round < 0 || after_round > ev->n_rounds)
        return tny_diag_set(diag, TNY_EINVAL, "records: round %d out of range",
                            (int)after_round);
    out->n_players = ev->n_players;
    out->n_rounds = after_round;
    size_t n =
        (size_t)ev->n_players * (size_t)(after_round > 0 ? after_round : 1);
    /* Not calloc: every record is written once below, whole, which is
     * the one pass over the 7 MB of a 10,000 x 10 event (calloc zeroed
     * them first: 8 M of the 59 M instructions of its standings). */
    out->rec = malloc(n * sizeof(*out->rec));
    if (!out->rec)
        return tny_diag_set(diag, TNY_ENOMEM, "records: out of memory");
    if (after_round == 0)
        memset(out->rec, 0, n * sizeof(*out->rec));
    for (int32_t r0 = 0; r0 < after_round; r0++) {
        const struct tny_round *round = &ev->rounds[r0];
        const struct tny_record blank = {
            .stage = (uint8_t)round->stage, .seat = -1, .table = -1};
        for (int32_t p = 0; p < ev->n_players; p++)
            out->rec[(int64_t)p * after_round + r0] = blank;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *table = &round->tables[t];
            if (table->is_bye) {
                score_bye(ev, table->seats[0], r0, out);
                continue;
            }
            if (!table->has_result) {
                tny_records_release(out);
                return tny_diag_set(diag, TNY_EINVAL,
                                    "event.rounds[%d].tables[%d]: no result",
                                    (int)r0, (int)t);
            }
            score_table(ev, round, t, r0, out);
        }
    }
    return TNY_OK;
}

void tny_records_release(struct tny_records *r)
{
    free(r->rec);
    memset(r, 0, sizeof(*r));
}

int32_t tny_ct_game_points(const struct tny_format *fmt, int32_t vp)
{
    int64_t cap;

    /* CT-4: the cap of result_schema.h; a format's 0 means none */
    return tny_result_cap(fmt, TNY_RF_VP, &cap) && cap > 0 && vp > cap
               ? (int32_t)cap
               : vp;
}
