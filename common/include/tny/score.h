/* score.h - what each table's result means for each seated player.
 *
 * Turns results into per-player, per-round records: tournament points and
 * every quantity a tiebreak or a pairing needs (HQ difference, game score,
 * relative score, success rate, placement, opponents).  One rule set per
 * game: NH-1..NH-4, TX-2..TX-5, TX-7, TX-13, AG-5, AG-6, AG-11, GT-1,
 * CT-3..CT-6.  Pure; results are assumed validated (tny_event_validate).
 */
#ifndef TNY_SCORE_H
#define TNY_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"

enum tny_presence {
    TNY_ABSENT = 0, /* not seated this round (late entry, drop, DQ) */
    TNY_PLAYED,     /* sat at a table with a result */
    TNY_BYE,        /* had the bye */
};

struct tny_record {
    uint8_t presence;   /* enum tny_presence */
    uint8_t stage;      /* enum tny_stage_kind of the round */
    int8_t seat;        /* seat index, -1 for bye/absent */
    int8_t place;       /* 1-based placement at the table (best of a
                         * shared place; AG: VP, IP, BP order) */
    int8_t score_place; /* 1-based placement by the game score alone, tied
                         * players sharing the best place (AG T3: equal VP
                         * is an equal placement; AG-13) */
    int8_t n_opponents;
    int32_t table; /* index into the round's tables, -1 */
    int32_t opponents[TNY_MAX_SEATS - 1];
    int64_t tp;        /* tournament points, TNY_POINT_SCALE units */
    float win;         /* 1 win, 0.5 draw, 0 loss (TX-8, NH-6) */
    bool elim_won;     /* elimination: advanced (NH-8, GT-9) */
    int32_t hq;        /* NH-1 signed HQ difference, bye +7 */
    int32_t score;     /* own game score (TX, AG VP, CT capped VP) */
    int32_t opp_score; /* 2-player: opponent's game score */
    bool has_score;    /* false for byes and TX defaults/decisions */
    int32_t mov;       /* two-player: margin of victory of the game or
                        * bye (tiebreak_data.mov), else 0 */
    double relative;   /* AG-6 */
    double success;    /* CT-5 fraction 0..1 (bye: 0.27) */
};

struct tny_records {
    int32_t n_players;
    int32_t n_rounds;       /* rounds recorded (completed ones) */
    struct tny_record *rec; /* rec[player * n_rounds + round0] */
};

static inline const struct tny_record *
tny_records_at(const struct tny_records *r, int32_t player, int32_t round0)
{
    return &r->rec[(int64_t)player * r->n_rounds + round0];
}

/* Records of rounds 1..after_round (all must be complete).  Errors:
 * TNY_ENOMEM, TNY_EINVAL (a round in range lacks results). */
TNY_MUST_USE int tny_records_compute(const struct tny_event *ev,
                                     int32_t after_round,
                                     struct tny_records *out,
                                     struct tny_diag *diag);
void tny_records_release(struct tny_records *r);

/* The tournament points (TNY_POINT_SCALE units) a bye in round index r0
 * gives: the game's bye (NH-4, TX-13, CT-6, GT-1, ...), none in an
 * elimination round. */
int64_t tny_bye_points(const struct tny_event *ev, int32_t r0);

/* TX-2/TX-3/TX-5/TX-7: each seat's TP for a 2-player Tantrix result. */
void tny_tantrix_tp(const struct tny_format *fmt, const struct tny_result *res,
                    int64_t tp[2]);

/* NH-1/NH-2: signed HQ difference for each seat (Dancer cap applied). */
void tny_neuroshima_hq(const struct tny_format *fmt,
                       const struct tny_result *res, int32_t hq[2]);

/* CT-4: the game points VP as played count for, at most the format's
 * game_points_cap (10; 0 means no cap).  The one place the cap applies:
 * standings, the success rate, the table's summary. */
int32_t tny_ct_game_points(const struct tny_format *fmt, int32_t vp);

/* Winner seat of a decided 2-player match, -1 for a draw: NH (draw in
 * elimination decided by better Swiss seed is the caller's), GT Bo3. */
int32_t tny_result_winner_seat(const struct tny_format *fmt,
                               const struct tny_result *res);

#endif
