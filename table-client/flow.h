/* flow.h - the guided steps at a game table (issue 4 §2): what the players
 * decide before play (PREGAME), what they do when the round time is up
 * (TIMEOUT) and the entry of a result (RESULT), as a sequence of questions
 * the display asks one at a time (a CHOICE among options, a NUMBER in a
 * range, an INFO text to read) until DONE.
 *
 * Pure logic: no I/O, no ncurses, no clock, no malloc.  Every lot draws
 * from a struct tny_rng derived from the seed given to tbl_flow_begin
 * (CM-4), so a flow is a function of (inputs, seed, answers): replaying the
 * answers after tbl_flow_begin restores it exactly, lots included.  The
 * decisions are the engine's (procedure.h, clock.h, score.h); a RESULT
 * flow's result is checked by tny_result_validate exactly as
 * tbl_game_parse_result checks a typed one, so a flow never produces a
 * result the table would refuse.
 *
 * Not here: drawing the steps and reading keys (the display), the table's
 * own clocks (tablewatch.h), sending results (core.h).
 *
 * Invariants: f->n_answers answers were each accepted by the step they
 * answered; f->step is the step after them (DONE at the end); the
 * assignment and game passed to tbl_flow_begin are borrowed and must stay
 * unchanged while the flow is used (a new assignment: begin again).
 * Threads: one owner thread per flow.
 */
#ifndef TBL_FLOW_H
#define TBL_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/wire.h"

#include "game.h"

enum tbl_flow_kind {
    TBL_FLOW_PREGAME, /* before play: NH-12 secret army choice + lot, NH-14
                         first player lot and exceptions; TX-10 colours
                         shown, TX-11 tile draw -> starter; CT-9 dice rolls
                         -> starter (tied players re-roll); AG-4 seat order
                         and starting player shown (hub's lot, from the
                         assignment); GT-14 faction/agenda shown */
    TBL_FLOW_TIMEOUT, /* time is up: NH-13 termination steps (or "play
                         on"/none per tny_nh_timeout_rule), GT-13 wizard
                         (facts per player -> modified winner; its outcome
                         pre-fills the result flow), CT-8 "finish the round
                         + two more rounds" with the number of turns left,
                         AG-14/TX-3: the format's text */
    TBL_FLOW_RESULT,  /* result entry: NH-1 win/draw + HQ difference with the
                         NH-2 Dancer cap, NH-11 army played per player; TX-1
                         scores + TX-3 clock times (pre-filled from the chess
                         clock) with the penalty previewed, TX-5 default win,
                         seed 001 s13 board not restorable (a draw, or a
                         restart: DONE with restart and no result);
                         AG-1 VP/IP/BP per seat; GT-9 each game of a Bo3 or
                         GT-1 one game, win or modified win; CT-4 game points
                         per seat capped at 10.  Last step before DONE: a
                         summary (ASK_INFO) of the whole result */
};

enum tbl_ask {
    TBL_ASK_CHOICE, /* one of n_options (keys 1..n) */
    TBL_ASK_NUMBER, /* an integer min..max typed, then Enter */
    TBL_ASK_INFO,   /* text to read; Enter goes on (answer 0) */
    TBL_ASK_DONE,   /* finished (RESULT: tbl_flow_result gives the result) */
};

#define TBL_FLOW_MAX_OPTIONS 9
/* Most answers a flow keeps (a flow never asks more; a tie-heavy lot
 * sequence that would is ended by an INFO step asking for the organiser). */
#define TBL_FLOW_MAX_ANSWERS 96
/* Outcome lines kept for tbl_flow_summary. */
#define TBL_FLOW_MAX_LINES 16
#define TBL_FLOW_LINE_MAX 96

/* One question.  Strings are NUL-terminated UTF-8, truncated to fit. */
struct tbl_flow_step {
    enum tbl_ask ask;
    bool secret;       /* hide the answer on screen (NH-12 secret choice): the
                          display shows "*" */
    bool no_back;      /* going back from here leaves the steps (NH-12: the
                          previous player's secret choices stay hidden) */
    int32_t seat;      /* 0-based seat this step is for, -1 = the whole table */
    char title[96];    /* short: "Anna (seat 1): army played" */
    char text[512];    /* instructions, the rule applied with its ID, may
                          contain '\n' */
    int32_t n_options; /* CHOICE: 1..TBL_FLOW_MAX_OPTIONS */
    char options[TBL_FLOW_MAX_OPTIONS][48];
    int32_t min, max; /* NUMBER: the accepted range */
    bool has_default;
    int32_t default_value; /* pre-filled value (NUMBER) or option (CHOICE,
                              0-based) */
};

/* What the table knows besides the assignment.  Zero it, then set what is
 * known; tbl_flow_carry fills the fields a finished PREGAME or TIMEOUT flow
 * decided so the next flow can use them. */
struct tbl_flow_facts {
    bool has_chess;                /* TX: the chess clock was used */
    int64_t chess_used_ms[2];      /* per seat */
    int64_t chess_limit_ms;        /* informational: the TX-3 preview uses the
                                      format's limit, as the hub scores */
    bool round_expired;            /* the round clock ran out before the result
                                      (GT: pre-selects a modified win) */
    bool has_starter;              /* starter is known */
    int32_t starter;               /* seat that took the first turn (NH-14,
                                      TX-11, CT-9, AG-4) */
    bool has_nh_armies;            /* NH-12 outcome known */
    char nh_army[2][TNY_NAME_MAX]; /* army each seat plays ("" unknown):
                                      pre-selects the army played */
    bool nh_beginner_repeat[2];    /* NH-12 beginner exception applied to
                                      this seat: its army may be one the
                                      assignment no longer lists */
    bool has_gt_timeout;           /* GT-13 outcome known */
    int32_t gt_timeout_winner;     /* seat that won after the time-out */
    bool gt_timeout_modified;      /* by the GT-13 steps (a modified win), not
                                      by winning in the last round */
    int32_t n_lots;                /* CM-4: lots drawn at this table so far
                                      (purpose and outcome), reported with
                                      the result */
    char lots[TNY_MAX_LOTS][TNY_LOT_MAX];
};

/* A flow in progress.  Callers allocate it (fixed size, no heap); only the
 * functions below touch it.  The fields after `answers` are derived by
 * replaying the answers and are private to flow.c. */
struct tbl_flow {
    enum tbl_flow_kind kind;
    const struct tbl_game *g;            /* borrowed */
    const struct tny_wire_assignment *a; /* borrowed */
    struct tbl_flow_facts facts;
    uint64_t seed;
    int32_t n_answers;
    int32_t answers[TBL_FLOW_MAX_ANSWERS];
    /* derived */
    struct tbl_flow_step step;
    bool has_result;
    struct tny_wire_result result;
    bool restart; /* RESULT done without a result: the game starts again
                     (Tantrix, seed 001 s13: the board could not be restored
                     and the clocks together show at most 10 minutes) */
    struct tbl_flow_facts carry; /* what this flow decided */
    int32_t n_lines;
    char lines[TBL_FLOW_MAX_LINES][TBL_FLOW_LINE_MAX];
};

/* Starts a flow of kind for the table described by g (game.h: the table's
 * format and seated players) and the assignment a it was built from (both
 * borrowed, see the invariants).  facts may be NULL (nothing known).
 * seed: the lots' seed (the UI passes a value derived from event id, round,
 * table, assignment version, so a restarted table draws the same lots).
 * Errors: TNY_EINVAL (no table, a kind not applicable, e.g. TIMEOUT with
 * more than 2 seats at a 2-player game), TNY_ENOMEM.  *f is released
 * (step DONE, no result) on error. */
TNY_MUST_USE int tbl_flow_begin(struct tbl_flow *f, enum tbl_flow_kind kind,
                                const struct tbl_game *g,
                                const struct tny_wire_assignment *a,
                                const struct tbl_flow_facts *facts,
                                uint64_t seed, struct tny_diag *diag);

/* Forgets everything (safe on a zeroed or released flow). */
void tbl_flow_release(struct tbl_flow *f);

/* The current step (ask DONE when finished or released). */
void tbl_flow_step(const struct tbl_flow *f, struct tbl_flow_step *out);

/* Answers the current step: option index (0-based) for CHOICE, the number
 * for NUMBER, 0 for INFO.  Refused on the spot (nothing changes) with a
 * message naming what is wrong: TNY_ERANGE (out of range: "HQ difference
 * 0..20, got 25"), TNY_EINVAL (an army not available, a score that makes
 * an impossible result...), TNY_ESTATE (the flow is DONE), TNY_ERANGE when
 * TBL_FLOW_MAX_ANSWERS answers are kept already. */
TNY_MUST_USE int tbl_flow_answer(struct tbl_flow *f, int32_t value,
                                 struct tny_diag *diag);

/* Goes back one step, forgetting the last answer (returns false at the
 * first step). */
bool tbl_flow_back(struct tbl_flow *f);

/* The answers so far (*answers borrowed from f until it changes); returns
 * their count.  To persist: replaying them with tbl_flow_answer after
 * tbl_flow_begin with the same inputs and seed restores the flow exactly,
 * lots included. */
int32_t tbl_flow_answers(const struct tbl_flow *f, const int32_t **answers);

/* RESULT flows at DONE: the entered result, validated by tbl_game's check
 * (tny_result_validate, then tny_wire_result_from_table).
 * Errors: TNY_ESTATE (not a RESULT flow, not done, or done with restart:
 * the game starts again and there is no result), TNY_EINVAL (diag;
 * not expected: every answer was checked). */
TNY_MUST_USE int tbl_flow_result(const struct tbl_flow *f,
                                 struct tny_wire_result *out,
                                 struct tny_diag *diag);

/* Outcome lines for the screen (e.g. "Anna plays Moloch (lot)", "Ben starts
 * (tile 41 > 17)", "Modified win: Anna (fewer power needed, GT-13)"), at
 * most max_lines copied; returns how many.  PREGAME/TIMEOUT: after DONE
 * (what was decided so far before); RESULT: the summary's lines. */
int32_t tbl_flow_summary(const struct tbl_flow *f,
                         char lines[][TBL_FLOW_LINE_MAX], int32_t max_lines);

/* After a PREGAME or TIMEOUT flow is DONE: sets in *facts what it decided
 * that later flows use (starter, NH armies, GT-13 modified winner); other
 * fields of *facts are kept.  Nothing changes for other flows. */
void tbl_flow_carry(const struct tbl_flow *f, struct tbl_flow_facts *facts);

/* ---- internal: shared by flow.c and flow_<format>.c only ---------------
 * A flow is a script run from its first step on every change: each ask
 * consumes the next kept answer (checked against the step's range) or, when
 * none is left, becomes the current step and the script stops.  Not for
 * callers. */
#ifdef TBL_FLOW_INTERNAL

struct tbl_flow_run {
    struct tbl_flow *f;
    const struct tny_format *fmt; /* the table's format (f->g->ev.format) */
    int32_t n_seats;
    int32_t pos;  /* next answer to consume */
    bool stopped; /* at the current step, or an answer was refused */
    int rc;       /* the refusal, 0 otherwise */
    struct tny_diag *diag;
    struct tny_rng rng;      /* the lots, derived from f->seed */
    struct tbl_flow_step st; /* the step being built */
    char why[96]; /* rule shown with a range refusal ("NH-2 Dancer cap") */
};

/* Player name of seat s (the id when the assignment has no name). */
const char *tbl_flow__name(const struct tbl_flow_run *r, int32_t s);
/* Starts building a step (clears st); title is printf-style. */
void tbl_flow__step(struct tbl_flow_run *r, enum tbl_ask ask, int32_t seat,
                    const char *fmt, ...) TNY_PRINTF(4, 5);
/* Appends to the step's text (truncated to fit). */
void tbl_flow__text(struct tbl_flow_run *r, const char *fmt, ...)
    TNY_PRINTF(2, 3);
/* Adds a CHOICE option. */
void tbl_flow__option(struct tbl_flow_run *r, const char *fmt, ...)
    TNY_PRINTF(2, 3);
/* NUMBER range and optional pre-filled value. */
void tbl_flow__range(struct tbl_flow_run *r, int32_t min, int32_t max);
/* NUMBER range of a result field: the engine's (tny_result_range), the one
 * the hub checks. */
void tbl_flow__field_range(struct tbl_flow_run *r, enum tny_result_field f);
void tbl_flow__default(struct tbl_flow_run *r, int32_t value);
/* Asks the built step: true with *value (option index, number, 0 for
 * INFO) when an answer is kept; false when the script must stop here. */
bool tbl_flow__ask(struct tbl_flow_run *r, int32_t *value);
/* INFO step: true when read. */
bool tbl_flow__info(struct tbl_flow_run *r);
/* Refuses the answer just consumed (rc, message); returns false. */
bool tbl_flow__refuse(struct tbl_flow_run *r, int rc, const char *fmt, ...)
    TNY_PRINTF(3, 4);
/* CM-4: records a lot drawn at the table (purpose and outcome, printf
 * style) in the facts carried to the result, which reports it to the hub;
 * beyond TNY_MAX_LOTS the earliest are kept. */
void tbl_flow__lot(struct tbl_flow_run *r, const char *fmt, ...)
    TNY_PRINTF(2, 3);
/* Adds an outcome line. */
void tbl_flow__line(struct tbl_flow_run *r, const char *fmt, ...)
    TNY_PRINTF(2, 3);
/* One of n names (a CHOICE, or a NUMBER 1..n listing them in the text when
 * there are more than TBL_FLOW_MAX_OPTIONS); the step must be started with
 * tbl_flow__step(CHOICE) and may have text.  def: pre-selected index or
 * -1.  True with *index. */
bool tbl_flow__pick(struct tbl_flow_run *r, const char *const *names, int32_t n,
                    int32_t def, int32_t *index);
/* A seat: CHOICE among the players' names (seats of mask, or all when mask
 * is 0), *seat the chosen seat. */
bool tbl_flow__pick_seat(struct tbl_flow_run *r, uint32_t mask, int32_t def,
                         int32_t *seat);
/* The last steps of every flow: an INFO listing the outcome lines. */
bool tbl_flow__summary_step(struct tbl_flow_run *r, const char *title);
/* RESULT: checks the table's result as tbl_game_parse_result does
 * (tny_result_validate, tny_wire_result_from_table) and keeps it; refuses
 * the last answer when the engine does.  t: result filled, seats set by
 * this function. */
bool tbl_flow__finish_result(struct tbl_flow_run *r, struct tny_table *t);
/* A table with no result yet (seats 0..n-1, winner/default -1, armies
 * -1). */
void tbl_flow__table_init(const struct tbl_flow_run *r, struct tny_table *t);
/* Place 1..n of seat p by score (equal scores share the better place). */
int32_t tbl_flow__place(const struct tny_result *res, int32_t n, int32_t p);
/* The stage of the table in the format (NULL when absent). */
const struct tny_stage *tbl_flow__stage(const struct tbl_flow_run *r);
/* The time-out text: the assignment's procedure, else the format's. */
const char *tbl_flow__procedure(const struct tbl_flow_run *r);

/* The scripts, one per game. */
void tbl_flow__nh(struct tbl_flow_run *r);
void tbl_flow__tx(struct tbl_flow_run *r);
void tbl_flow__ag(struct tbl_flow_run *r);
void tbl_flow__gt(struct tbl_flow_run *r);
void tbl_flow__ct(struct tbl_flow_run *r);
void tbl_flow__tp(struct tbl_flow_run *r);

#endif /* TBL_FLOW_INTERNAL */

#endif
