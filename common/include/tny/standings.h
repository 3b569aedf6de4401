/* standings.h - standings and final classification of an event (CM-8).
 *
 * Computed from the event's completed rounds only (a round in progress is
 * ignored).  During a stage: that stage's standings by points and the
 * stage's tiebreak chain.  After an elimination stage: the final
 * classification (NH-9); after the AG final stage: AG-13.  The order is
 * total and stable: the last criterion is always the seeded lot (CM-4),
 * and rows settled by it say so (decided_by_lot).
 */
#ifndef TNY_STANDINGS_H
#define TNY_STANDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"
#include "tny/format.h"

struct tny_standing_row {
    int32_t rank;   /* 1-based; equal only never (lot decides) */
    int32_t player; /* index into ev->players */
    int64_t points; /* TNY_POINT_SCALE units */
    double tiebreaks[TNY_MAX_TIEBREAKS];  /* in the order of ->tiebreaks */
    bool has_tiebreak[TNY_MAX_TIEBREAKS]; /* false: not applicable (null) */
    int32_t games_played;
    int32_t missed_games;  /* TX-6 */
    bool separate_list;    /* TX-6: ranked below everyone else */
    bool dropped;          /* CM-2 */
    bool disqualified;     /* CM-3 */
    bool decided_by_lot;   /* order against the next row set by lot */
    int32_t eliminated_in; /* elimination round lost (0 = not / won) */
};

struct tny_standings {
    int32_t after_round;       /* completed rounds taken into account */
    enum tny_stage_kind stage; /* stage of the last completed round */
    bool final;                /* the event is complete */
    int32_t n_tiebreaks;
    enum tny_tiebreak tiebreaks[TNY_MAX_TIEBREAKS];
    int32_t n_rows;
    struct tny_standing_row *rows; /* rank order */
};

/* Standings after the completed rounds of ev.  Errors: TNY_ENOMEM,
 * TNY_EINVAL (ev not validated).  Release with tny_standings_release. */
TNY_MUST_USE int tny_standings_compute(const struct tny_event *ev,
                                       struct tny_standings *out,
                                       struct tny_diag *diag);

/* Standings of one stage after its first `after_round` rounds of the event
 * (used by pairing, cuts and the final classification). */
TNY_MUST_USE int tny_standings_compute_at(const struct tny_event *ev,
                                          int32_t after_round,
                                          struct tny_standings *out,
                                          struct tny_diag *diag);

void tny_standings_release(struct tny_standings *st);

/* CM-4: the tiebreak lot (the last criterion of every chain) as an order
 * of all players, luckiest first: order[k] is a player index; order must
 * hold ev->n_players entries. */
void tny_standings_lot_order(const struct tny_event *ev, int32_t *order);

/* Internal (standings.c and its test): the sort of one step of the
 * chain.  pos[0..n) are positions, ascending on entry; they end ordered
 * by key[pos] (higher first) where both rows have one (has[pos]) and the
 * two differ by more than the standings' tolerance, else by position:
 * the order glibc's qsort gave with that comparison.  tmp: n ints. */
void tny__standings_sort_step(const double *key, const bool *has, int32_t *pos,
                              int32_t n, int32_t *tmp);

#endif
