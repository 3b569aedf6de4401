/* tablewatch.h - the table's own clocks (issue 4 §3): the Tantrix chess
 * clock (TX-3, TX-4, TX-5, TX-9, TX-11) and the Agricola draft and action
 * timers (AG-14), with a one-line text form that survives a power cut.
 *
 * Pure: the caller passes its monotonic now_ms (and, to save and load, the
 * wall clock in ms, which is the only clock that runs on across a power
 * cut).  The arithmetic is common's (clock.h: tny_chess_clock_*,
 * tny_tx_clock_penalty, tny_tx_absence_phase, tny_ag_timer_view).
 *
 * Not here: the round clock (the hub's, core.h), drawing, keys.
 * Invariants: a struct tbl_chess holds a valid tny_chess_clock; a struct
 * tbl_ag_timers' instants are on the caller's monotonic clock with the
 * pauses removed (start_ms and later instants shift by each pause).
 * Threads: one owner thread per clock.
 */
#ifndef TBL_TABLEWATCH_H
#define TBL_TABLEWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/clock.h"
#include "tny/error.h"

/* ---- Tantrix chess clock ------------------------------------------------ */

/* Seed values (TX-3, TX-4, TX-9): 20 min per player, 1 TP more per further
 * started minute, stop allowed past 25 min, a wrongful pause costs 30 s. */
#define TBL_CHESS_LIMIT_MS ((int64_t)20 * 60 * 1000)
#define TBL_CHESS_STOP_EXTRA_MS ((int64_t)5 * 60 * 1000)
#define TBL_CHESS_STEP_MS ((int64_t)60 * 1000)
#define TBL_CHESS_WRONGFUL_MS ((int64_t)30 * 1000)
/* TX-5: the absent player's clock starts after 5 min, default after 10. */
#define TBL_TX_ABSENT_CLOCK_MS ((int64_t)5 * 60 * 1000)
#define TBL_TX_ABSENT_DEFAULT_MS ((int64_t)10 * 60 * 1000)
/* Longest line tbl_chess_save writes, with the NUL. */
#define TBL_CHESS_SAVE_MAX 160

/* Two player clocks counting up.  Value type. */
struct tbl_chess {
    struct tny_chess_clock cc;
    int64_t limit_ms; /* TX-3 penalty from here; 0 = no limit */
    int64_t stop_ms;  /* TX-4 alert: limit + 5 min (25 min) */
    int64_t step_ms;  /* TX-3: one more TP per further step */
    int32_t per_step; /* TX-3: whole TP per step (1) */
    bool started;     /* tbl_chess_start was called */
};

/* Both clocks at 0:00, none running.  limit_ms: the assignment's
 * chess_clock_limit_ms (<= 0: the seed's 20 min). */
void tbl_chess_init(struct tbl_chess *c, int64_t limit_ms);

/* Starts side's clock (TX-11: the non-starter starts the starter's clock;
 * TX-5: the absent player's).  Errors: TNY_EINVAL (side not 0/1),
 * TNY_ESTATE (a clock already runs, paused or stopped). */
TNY_MUST_USE int tbl_chess_start(struct tbl_chess *c, int32_t side,
                                 int64_t now_ms, struct tny_diag *d);

/* side ends its turn: its clock stops, the other side's runs.
 * Errors: TNY_EINVAL (bad side), TNY_ESTATE (side's clock is not the
 * running one), TNY_ERANGE (now_ms before the running clock started). */
TNY_MUST_USE int tbl_chess_press(struct tbl_chess *c, int32_t side,
                                 int64_t now_ms, struct tny_diag *d);

/* TX-9 pause to fix an error, and resume of the side that ran.
 * Errors: TNY_ESTATE (nothing runs / not paused), TNY_ERANGE as press. */
TNY_MUST_USE int tbl_chess_pause(struct tbl_chess *c, int64_t now_ms,
                                 struct tny_diag *d);
TNY_MUST_USE int tbl_chess_resume(struct tbl_chess *c, int64_t now_ms,
                                  struct tny_diag *d);

/* TX-9 wrongful pause, agreed while paused: side (who paused) gets 30 s
 * more used time, the other 30 s less (never below 0).
 * Errors: TNY_EINVAL (bad side), TNY_ESTATE (not paused). */
TNY_MUST_USE int tbl_chess_wrongful_pause(struct tbl_chess *c, int32_t side,
                                          int64_t now_ms, struct tny_diag *d);

/* End of the game: both clocks frozen for good.
 * Errors: TNY_ESTATE (already stopped), TNY_ERANGE as press. */
TNY_MUST_USE int tbl_chess_stop(struct tbl_chess *c, int64_t now_ms,
                                struct tny_diag *d);

struct tbl_chess_view {
    int64_t used_ms[2];
    int64_t left_ms[2]; /* limit - used (negative past the limit);
                           TNY_CLOCK_UNLIMITED without a limit */
    int32_t running;    /* -1 none */
    bool paused;
    bool stopped;
    bool alert_25min[2];        /* TX-4: past limit + 5 min */
    bool over[2];               /* TX-3: at or past the limit */
    int32_t penalty_preview[2]; /* TX-3: whole TP this reading would cost */
    int32_t stop_favours;       /* TX-4: the side the organiser may decide for,
                                   -1 none */
};

/* The clocks at now_ms. */
void tbl_chess_view(const struct tbl_chess *c, int64_t now_ms,
                    struct tbl_chess_view *out);

/* TX-5 no-show: phase from the scheduled start: 0 wait, 1 (>= 5 min)
 * start the absent player's clock, 2 (>= 10 min) ask the organiser for a
 * default.  Errors: none expected (those of tny_tx_absence_phase). */
TNY_MUST_USE int tbl_tx_absence(int64_t scheduled_ms, int64_t now_ms,
                                int32_t *phase, struct tny_diag *d);

/* Power cuts: writes the clock as one short text line (no newline, at
 * most TBL_CHESS_SAVE_MAX bytes with the NUL) into buf.  now_ms is the
 * monotonic time of the reading, wall_ms the wall clock (UTC ms) at the
 * same moment.  Errors: TNY_ERANGE (n too small). */
TNY_MUST_USE int tbl_chess_save(const struct tbl_chess *c, int64_t now_ms,
                                int64_t wall_ms, char *buf, size_t n);

/* Restores a saved line at monotonic now_ms, wall clock wall_ms: a clock
 * that was running has run on for the wall time since the save (a wall
 * clock that went backwards counts as no time).  *c is unchanged on error.
 * Errors: TNY_EINVAL (not a line tbl_chess_save wrote, or values out of
 * range). */
TNY_MUST_USE int tbl_chess_load(struct tbl_chess *c, const char *buf,
                                int64_t now_ms, int64_t wall_ms,
                                struct tny_diag *d);

/* ---- Agricola timers (AG-14) -------------------------------------------- */

/* AG-14: a draft countdown (15 min) inside the table's 105-minute game
 * clock (the round clock: the caller tells when it ran out), then speed
 * play with an action timer (30 s) restarted by a key at every action; an
 * action not taken in time passes the turn and the next one starts.
 * Value type; instants on the caller's monotonic clock (-1 = not yet). */
struct tbl_ag_timers {
    int64_t draft_ms, action_ms;
    int64_t start_ms;       /* draft started, -1 before */
    int64_t draft_end_ms;   /* draft finished, -1 while drafting */
    int64_t time_up_ms;     /* round time ran out: speed play, -1 before */
    int64_t last_action_ms; /* speed play: last action key, -1 none */
    int64_t paused_at_ms;   /* -1 unless paused */
};

/* Nothing started.  draft_ms/action_ms: the assignment's (<= 0: the seed's
 * 15 min / 30 s). */
void tbl_ag_init(struct tbl_ag_timers *t, int64_t draft_ms, int64_t action_ms);

/* The draft starts (its countdown and the game).  Errors: TNY_ESTATE
 * (already started). */
TNY_MUST_USE int tbl_ag_start_draft(struct tbl_ag_timers *t, int64_t now_ms,
                                    struct tny_diag *d);

/* The table reports the draft finished.  Errors: TNY_ESTATE (not
 * drafting). */
TNY_MUST_USE int tbl_ag_end_draft(struct tbl_ag_timers *t, int64_t now_ms,
                                  struct tny_diag *d);

/* The round clock ran out: speed play starts, the action timer counts from
 * now_ms.  Errors: TNY_ESTATE (not started, or already speed play). */
TNY_MUST_USE int tbl_ag_time_up(struct tbl_ag_timers *t, int64_t now_ms,
                                struct tny_diag *d);

/* Key: a player ended an action (speed play): the next player's 30 s start.
 * Errors: TNY_ESTATE (not speed play, or paused). */
TNY_MUST_USE int tbl_ag_next_action(struct tbl_ag_timers *t, int64_t now_ms,
                                    struct tny_diag *d);

/* The round clock paused / resumed: the timers freeze.
 * Errors: TNY_ESTATE (not started; already paused / not paused). */
TNY_MUST_USE int tbl_ag_pause(struct tbl_ag_timers *t, int64_t now_ms,
                              struct tny_diag *d);
TNY_MUST_USE int tbl_ag_resume(struct tbl_ag_timers *t, int64_t now_ms,
                               struct tny_diag *d);

struct tbl_ag_view {
    bool started;
    bool drafting;
    int64_t draft_left_ms;  /* negative once the 15 min are over */
    bool speed;             /* speed play (round time up) */
    int64_t action_left_ms; /* speed play: left for the current action */
    bool action_over;       /* speed play: at least one turn passed since the
                               last key (the 30 s ran out) */
    int64_t turns_passed;   /* turns passed by the 30 s rule since the key */
};

/* The timers at now_ms. */
void tbl_ag_view(const struct tbl_ag_timers *t, int64_t now_ms,
                 struct tbl_ag_view *out);

#endif
