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
/* Bytes of one line: two names of the longest the wire carries and the
 * words around them ("A won: A +5, B -5 HQ"), so that a line is never
 * cut in the middle of the result the players confirm (issue 22 item 8). */
#define TBL_FLOW_LINE_MAX (2 * TNY_WIRE_TEXT_MAX + 112)

/* One question.  Strings are NUL-terminated UTF-8, truncated to fit. */
struct tbl_flow_step {
    enum tbl_ask ask;
    bool secret;  /* hide the answer on screen (NH-12 secret choice): the
                     display shows "*" */
    bool no_back; /* going back from here leaves the steps (NH-12: the
                     previous player's secret choices stay hidden) */
    int32_t seat; /* 0-based seat this step is for, -1 = the whole table */
    /* Sizes hold the longest names the wire carries (issue 22 item 8: a
     * long or CJK name never cuts "won" off an option or a summary line
     * off the RESULT summary). */
    char title[2 * TNY_WIRE_TEXT_MAX]; /* "Anna (seat 1): army played" */
    char text[4096];   /* instructions, the rule applied with its ID, the
                          summary's lines; may contain '\n' */
    int32_t n_options; /* CHOICE: 1..TBL_FLOW_MAX_OPTIONS */
    char options[TBL_FLOW_MAX_OPTIONS][TNY_WIRE_TEXT_MAX + 48];
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
 * replaying the answers and are private to flow.c and the scripts'
 * kit (flow_kit.h). */
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

#endif
