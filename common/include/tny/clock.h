/* clock.h - round clock, table clock sync, Tantrix chess clock and the
 * Agricola table timer, as pure arithmetic on int64 milliseconds (CM-7,
 * TX-3, TX-4, TX-5, TX-9, AG-14; architecture.md "Time").
 *
 * Nothing here reads a clock: every function that needs the time takes `now`
 * from the caller (the hub passes UTC milliseconds, a table its monotonic
 * clock).  Times are int64 milliseconds; lengths, extensions and penalties
 * are bounded by TNY_CLOCK_MAX_MS and instants by TNY_CLOCK_MAX_INSTANT_MS so
 * that no sum in this module can overflow.
 *
 * Not here: what happens at time-out (procedure.h), the lengths themselves
 * (format data: struct tny_stage.timer_minutes, struct tny_format), sending
 * clock messages (hub), drawing them (table client).
 */
#ifndef TNY_CLOCK_H
#define TNY_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

/* Largest length, extension, adjustment or penalty accepted: 30 days. */
#define TNY_CLOCK_MAX_MS ((int64_t)30 * 24 * 60 * 60 * 1000)
/* Largest |instant| accepted (UTC ms or monotonic ms): about 292 years. */
#define TNY_CLOCK_MAX_INSTANT_MS ((int64_t)1 << 53)
/* What remaining() reports for a clock without a time limit. */
#define TNY_CLOCK_UNLIMITED INT64_MAX

/* ---- CM-7 round clock (hub side) -------------------------------------- */

enum tny_round_clock_state {
    TNY_ROUND_CLOCK_READY,   /* set up, not started */
    TNY_ROUND_CLOCK_RUNNING, /* counting down towards deadline_ms */
    TNY_ROUND_CLOCK_PAUSED,  /* frozen at remaining_ms */
};

/* The round clock for all tables of a round.  Value type; invariants:
 * - READY and PAUSED: remaining_ms is the time left (may be negative when
 *   paused in overtime); deadline_ms is meaningless.
 * - RUNNING: deadline_ms = instant at which the remaining time is 0;
 *   remaining_ms is meaningless.
 * - length_ms == 0 means "no time limit" (NH-13 final): remaining() is
 *   TNY_CLOCK_UNLIMITED and expired() is false in every state.
 * - extension_ms is the sum of every extend() for all tables (audit). */
struct tny_round_clock {
    enum tny_round_clock_state state;
    int64_t length_ms;
    int64_t extension_ms;
    int64_t deadline_ms;
    int64_t remaining_ms;
};

/* Sets up a READY clock of length_ms (0 = no time limit).
 * Errors: TNY_ERANGE if length_ms < 0 or > TNY_CLOCK_MAX_MS. */
TNY_MUST_USE int tny_round_clock_init(struct tny_round_clock *clock,
                                      int64_t length_ms, struct tny_diag *diag);

/* READY -> RUNNING at now_ms.  Errors: TNY_ESTATE if already started;
 * TNY_ERANGE if now_ms is outside +-TNY_CLOCK_MAX_INSTANT_MS. */
TNY_MUST_USE int tny_round_clock_start(struct tny_round_clock *clock,
                                       int64_t now_ms, struct tny_diag *diag);

/* RUNNING -> PAUSED at now_ms, freezing the remaining time.
 * Errors: TNY_ESTATE unless running; TNY_ERANGE for now_ms out of range
 * (any instant within +-TNY_CLOCK_MAX_INSTANT_MS is accepted; overtime gives
 * a negative remaining time). */
TNY_MUST_USE int tny_round_clock_pause(struct tny_round_clock *clock,
                                       int64_t now_ms, struct tny_diag *diag);

/* PAUSED -> RUNNING at now_ms with the frozen remaining time.
 * Errors: TNY_ESTATE unless paused; TNY_ERANGE for now_ms out of range. */
TNY_MUST_USE int tny_round_clock_resume(struct tny_round_clock *clock,
                                        int64_t now_ms, struct tny_diag *diag);

/* Adds extra_ms for all tables, in any state (CM-7).  A clock without a time
 * limit records the extension and stays unlimited.
 * Errors: TNY_EINVAL if extra_ms < 0; TNY_ERANGE if extra_ms or the total
 * extension would exceed TNY_CLOCK_MAX_MS. */
TNY_MUST_USE int tny_round_clock_extend(struct tny_round_clock *clock,
                                        int64_t extra_ms,
                                        struct tny_diag *diag);

/* Time left at now_ms: negative once the deadline has passed (overtime);
 * TNY_CLOCK_UNLIMITED without a time limit.  now_ms must be within
 * +-TNY_CLOCK_MAX_INSTANT_MS (asserted). */
int64_t tny_round_clock_remaining(const struct tny_round_clock *clock,
                                  int64_t now_ms);

/* True once a started, time-limited clock has no time left (remaining <= 0).
 * A READY clock is never expired. */
bool tny_round_clock_expired(const struct tny_round_clock *clock,
                             int64_t now_ms);

/* Adds a judge's extension for one table (CM-7, NH seed 5.9) to the table's
 * running total *table_extension_ms (the caller keeps one per table).
 * Errors: TNY_EINVAL if extra_ms < 0; TNY_ERANGE if the total would exceed
 * TNY_CLOCK_MAX_MS.  *table_extension_ms is unchanged on error. */
TNY_MUST_USE int tny_table_extension_add(int64_t *table_extension_ms,
                                         int64_t extra_ms,
                                         struct tny_diag *diag);

/* Time left for one table: the round's remaining time plus that table's own
 * extension (TNY_CLOCK_UNLIMITED without a time limit). */
int64_t tny_round_clock_table_remaining(const struct tny_round_clock *clock,
                                        int64_t table_extension_ms,
                                        int64_t now_ms);

/* ---- AG-14 per-table start ---------------------------------------------- */

/* AG-14: in a round whose tables start their own time with their draft, the
 * round clock still holds the round-wide length, pauses and extensions, and
 * a table's clock is the round clock shifted by the round time that had run
 * when the table's draft started (its start delay).  Pauses and extensions
 * of the round so apply to every table, and each table keeps its full time.
 *
 * Round time run at now_ms: length + round extension - time left (0 before
 * the start; 0 without a time limit). */
int64_t tny_round_clock_elapsed(const struct tny_round_clock *clock,
                                int64_t now_ms);

/* ---- clock message and table-side view (architecture.md "Time") -------- */

/* What the hub publishes for one table: its own clock reading, and either the
 * absolute deadline (running) or the frozen remaining time (paused/ready).
 * The table extension is already included in deadline/remaining. */
struct tny_clock_msg {
    enum tny_round_clock_state state;
    bool unlimited;       /* no time limit: the rest is meaningless */
    int64_t hub_now_ms;   /* hub clock (UTC ms) when the message was made */
    int64_t deadline_ms;  /* RUNNING: hub UTC ms at which time is up */
    int64_t remaining_ms; /* READY/PAUSED: frozen time left */
};

/* Builds the message for one table at hub time now_ms. */
void tny_round_clock_message(const struct tny_round_clock *clock,
                             int64_t table_extension_ms, int64_t now_ms,
                             struct tny_clock_msg *msg);

/* AG-14: turns msg, a table's reading of the round clock (its extension
 * included), into that table's own clock.  full_ms is the table's whole time
 * (length + round extension + table extension).  start_delay_ms < 0: the
 * table has not started its draft, its clock waits (READY, full_ms left);
 * else the deadline or remaining time moves by start_delay_ms.  An
 * unlimited reading is left as it is.  start_delay_ms and full_ms are at
 * most 2 * TNY_CLOCK_MAX_MS (asserted). */
void tny_clock_msg_table_start(struct tny_clock_msg *msg, int64_t full_ms,
                               int64_t start_delay_ms);

/* Offset between the hub clock and a table's monotonic clock, measured when a
 * message arrives: hub_now_ms - local_recv_ms.  Network delay makes the hub
 * reading older than the receive time, so a deadline converted with this
 * offset falls late on the table by exactly that delay (the table shows at
 * most the delay more time than the hub). */
int64_t tny_clock_offset(int64_t hub_now_ms, int64_t local_recv_ms);

/* A hub instant (UTC ms) on the table's monotonic clock: hub_ms - offset. */
int64_t tny_clock_hub_to_local(int64_t hub_ms, int64_t offset_ms);

/* Offset between the hub clock and a client's monotonic clock from a time
 * sync (docs/protocol.md "Time sync"): the client asked at local sent_ms, the
 * hub answered with its clock hub_ms, the answer arrived at local recv_ms.
 * The hub read its clock somewhere in the round trip, so the hub's time at
 * recv_ms is taken as hub_ms + (recv_ms - sent_ms) / 2, wrong by at most
 * half the round trip: *offset_ms = that - recv_ms, *rtt_ms the round trip.
 * Errors: TNY_ERANGE (an instant outside +-TNY_CLOCK_MAX_INSTANT_MS, recv_ms
 * before sent_ms, a round trip over TNY_CLOCK_SYNC_MAX_RTT_MS: too
 * uncertain to use).  Outputs unchanged on error. */
#define TNY_CLOCK_SYNC_MAX_RTT_MS 2000
TNY_MUST_USE int tny_clock_sync_offset(int64_t sent_ms, int64_t hub_ms,
                                       int64_t recv_ms, int64_t *offset_ms,
                                       int64_t *rtt_ms, struct tny_diag *diag);

/* The table's countdown, kept on its monotonic clock so the display runs on
 * without network.  Invariant: RUNNING uses local_deadline_ms (=
 * hub_deadline_ms - offset_ms), READY/PAUSED use remaining_ms. */
struct tny_table_clock {
    enum tny_round_clock_state state;
    bool unlimited;
    bool synced;       /* offset_ms came from a time sync */
    int64_t offset_ms; /* hub - local offset in use */
    int64_t hub_deadline_ms;
    int64_t local_deadline_ms;
    int64_t remaining_ms;
};

/* Applies a clock message received at local_recv_ms (monotonic), measuring
 * the offset once (architecture.md "Time").  Replaces any previous state:
 * pauses and extensions arrive as new messages.
 * Errors: TNY_EINVAL for an unknown state; TNY_ERANGE for instants outside
 * +-TNY_CLOCK_MAX_INSTANT_MS.  *tc is unchanged on error. */
TNY_MUST_USE int tny_table_clock_apply(struct tny_table_clock *tc,
                                       const struct tny_clock_msg *msg,
                                       int64_t local_recv_ms,
                                       struct tny_diag *diag);

/* Uses offset_ms from a time sync (tny_clock_sync_offset) instead of the
 * one measured on the message, which is too late by the message's age (a
 * retained message may be hours old): the deadline is placed again on the
 * local clock.  Call after every apply while a sync is known.
 * Errors: TNY_ERANGE (offset_ms out of range; *tc unchanged). */
TNY_MUST_USE int tny_table_clock_use_offset(struct tny_table_clock *tc,
                                            int64_t offset_ms,
                                            struct tny_diag *diag);

/* Time left on the table at local monotonic local_now_ms (negative in
 * overtime; TNY_CLOCK_UNLIMITED without a time limit). */
int64_t tny_table_clock_remaining(const struct tny_table_clock *tc,
                                  int64_t local_now_ms);

/* The one way a round clock's time left is written on every screen (table,
 * dashboard, overlays' formatClock, the hall and phone pages): "M:SS"
 * (seconds rounded up, so 0:00 only when the time is up), "H:MM:SS" from
 * an hour, overtime as the time past the deadline with a plus and seconds
 * rounded down ("+2:05" = 2 min 5 s over, "+2:05 overtime" where words
 * follow: TNY_CLOCK_OVERTIME); "--:--" for TNY_CLOCK_UNLIMITED.  size 16
 * suffices. */
void tny_clock_format(int64_t remaining_ms, char *buf, size_t size);

/* The word after an overtime clock ("+2:05 overtime"), on every screen. */
#define TNY_CLOCK_OVERTIME "overtime"

/* ---- Tantrix chess clock (TX-3, TX-4, TX-5, TX-9) ---------------------- */

/* Two clocks counting UP the time each player has used; at most one runs.
 * Invariants: used_ms[i] >= 0; running is -1 (none) or the side whose clock
 * runs since since_ms; when paused, paused_side is the side that will run
 * on resume; adjust_ms[] sums the TX-9 adjustments applied (audit: recorded
 * with the result). */
struct tny_chess_clock {
    int64_t used_ms[2];
    int64_t adjust_ms[2];
    int32_t running;
    int32_t paused_side;
    bool paused;
    bool stopped;
    int64_t since_ms;
};

/* Both clocks at 0:00, none running. */
void tny_chess_clock_init(struct tny_chess_clock *cc);

/* Starts side's clock at now_ms (TX-11: the player who does not start starts
 * the starter's clock; TX-5: the absent player's clock).
 * Errors: TNY_EINVAL if side is not 0 or 1; TNY_ESTATE if a clock already
 * runs, the clock is paused or stopped. */
TNY_MUST_USE int tny_chess_clock_start(struct tny_chess_clock *cc, int32_t side,
                                       int64_t now_ms, struct tny_diag *diag);

/* side ends their turn: their clock stops and the other side's starts.
 * Errors: TNY_EINVAL for a bad side; TNY_ESTATE unless side's clock runs;
 * TNY_ERANGE if now_ms is before the running clock's start. */
TNY_MUST_USE int tny_chess_clock_press(struct tny_chess_clock *cc, int32_t side,
                                       int64_t now_ms, struct tny_diag *diag);

/* Pauses the running clock (TX-9: to fix an error).
 * Errors: TNY_ESTATE unless a clock runs; TNY_ERANGE as press(). */
TNY_MUST_USE int tny_chess_clock_pause(struct tny_chess_clock *cc,
                                       int64_t now_ms, struct tny_diag *diag);

/* Resumes the side that ran before the pause.
 * Errors: TNY_ESTATE unless paused. */
TNY_MUST_USE int tny_chess_clock_resume(struct tny_chess_clock *cc,
                                        int64_t now_ms, struct tny_diag *diag);

/* End of the game: freezes both clocks for good (a running clock is stopped
 * at now_ms).  Errors: TNY_ESTATE if already stopped; TNY_ERANGE as press(). */
TNY_MUST_USE int tny_chess_clock_stop(struct tny_chess_clock *cc,
                                      int64_t now_ms, struct tny_diag *diag);

/* TX-9 wrongful pause, agreed while the clock is paused: the pausing side
 * gets penalty_ms more used time, the other side penalty_ms less (never
 * below 0).  The seed's penalty is 30 s.
 * Errors: TNY_EINVAL for a bad side or penalty_ms < 0 or > TNY_CLOCK_MAX_MS;
 * TNY_ESTATE unless paused. */
TNY_MUST_USE int tny_chess_clock_wrongful_pause(struct tny_chess_clock *cc,
                                                int32_t pausing_side,
                                                int64_t penalty_ms,
                                                struct tny_diag *diag);

/* Time side has used at now_ms (side 0 or 1, asserted). */
int64_t tny_chess_clock_used(const struct tny_chess_clock *cc, int32_t side,
                             int64_t now_ms);

/* TX-4 alert: side's used time has passed limit_ms (25 min in the seed). */
bool tny_chess_clock_over(const struct tny_chess_clock *cc, int32_t side,
                          int64_t limit_ms, int64_t now_ms);

/* TX-4: the side the organiser may decide the game for when stopping it:
 * the only side not past limit_ms while the other is past it; -1 when no
 * side or both sides are past the limit. */
int32_t tny_tx_stop_favours(const struct tny_chess_clock *cc, int64_t limit_ms,
                            int64_t now_ms);

/* TX-3 clock penalty for a final reading used_ms: 0 below limit_ms, then
 * per_step for the first step_ms started at the limit and per_step more for
 * every further full step (20:00-20:59 -> 1, 21:00-21:59 -> 2 with limit
 * 20 min, step 1 min, per_step 1 TP).  limit_ms == 0 disables the penalty.
 * Units of *penalty are those of per_step (format data: clock_penalty).
 * Errors: TNY_EINVAL if used_ms < 0, limit_ms < 0, step_ms <= 0 with a
 * limit, or per_step < 0; TNY_ERANGE if the product overflows. */
TNY_MUST_USE int tny_tx_clock_penalty(int64_t used_ms, int64_t limit_ms,
                                      int64_t step_ms, int64_t per_step,
                                      int64_t *penalty, struct tny_diag *diag);

/* TX-5 absence, relative to the scheduled start of the game. */
enum tny_tx_absence {
    TNY_TX_ABSENCE_WAIT,        /* before clock_after_ms: wait */
    TNY_TX_ABSENCE_START_CLOCK, /* the absent player's clock is started */
    TNY_TX_ABSENCE_DEFAULT, /* from default_after_ms: default may be called */
};

/* Phase of an absence at now_ms for a game scheduled at scheduled_ms (seed:
 * clock_after_ms 5 min, default_after_ms 10 min).  *next_ms receives the
 * time until the next phase (0 in the DEFAULT phase).
 * Errors: TNY_EINVAL if clock_after_ms < 0 or default_after_ms <
 * clock_after_ms, or either exceeds TNY_CLOCK_MAX_MS. */
TNY_MUST_USE int tny_tx_absence_phase(int64_t scheduled_ms, int64_t now_ms,
                                      int64_t clock_after_ms,
                                      int64_t default_after_ms,
                                      enum tny_tx_absence *phase,
                                      int64_t *next_ms, struct tny_diag *diag);

/* ---- Agricola table timer (AG-14) -------------------------------------- */

/* Lengths, from format data (stage timer_minutes, draft_minutes,
 * action_seconds): 105 min, 15 min, 30 s in the seed. */
struct tny_ag_timer {
    int64_t game_ms;
    int64_t draft_ms;
    int64_t action_ms;
};

enum tny_ag_phase {
    TNY_AG_PHASE_DRAFT, /* draft running, its countdown shown */
    TNY_AG_PHASE_PLAY,  /* draft over, game time left */
    TNY_AG_PHASE_SPEED, /* game time up: speed play, action timer shown */
};

/* What the table shows at one instant. */
struct tny_ag_timer_view {
    enum tny_ag_phase phase;
    int64_t game_remaining_ms;   /* of game_ms + extension; <= 0 in SPEED */
    int64_t draft_remaining_ms;  /* of the draft countdown (negative = over;
                                    frozen at draft_end_ms once reported) */
    int64_t action_remaining_ms; /* SPEED only: left for the current action */
    int64_t turns_passed;        /* SPEED only: turns passed by the 30 s rule
                                    since last_action_ms */
};

/* AG-14 at now_ms, for a game whose draft started at start_ms.  All instants
 * are on one clock that excludes pauses (shift start_ms by each pause).
 * draft_end_ms: when the table reported the draft finished, or -1 while
 * drafting.  last_action_ms: in speed play, when the previous player
 * finished their action, or -1 (the action timer then counts from time-up).
 * extension_ms: the table's CM-7 extension (round + table).
 * Phase: SPEED once game time is up, whatever the draft; else DRAFT until
 * draft_end_ms, else PLAY.  In SPEED an action not taken within action_ms
 * passes the turn and the next player gets a fresh action_ms.
 * Errors: TNY_EINVAL for lengths <= 0 (action, game), draft_ms < 0 or
 * > game_ms, extension_ms < 0, draft_end_ms or last_action_ms (when not -1)
 * before start_ms or after now_ms, now_ms before start_ms; TNY_ERANGE for
 * lengths above TNY_CLOCK_MAX_MS or instants out of range. */
TNY_MUST_USE int tny_ag_timer_view(const struct tny_ag_timer *params,
                                   int64_t start_ms, int64_t draft_end_ms,
                                   int64_t last_action_ms, int64_t extension_ms,
                                   int64_t now_ms,
                                   struct tny_ag_timer_view *view,
                                   struct tny_diag *diag);

#endif
