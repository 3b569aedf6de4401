/* flow_kit.h - what the guided table flows (flow.h) are built from: the
 * run of a script over the kept answers (struct tbl_flow_run) and the
 * helpers a game's script (flow_<game>.c) asks its steps with, checks
 * answers and finishes a result with.
 *
 * A flow is a script run from its first step on every change: each ask
 * consumes the next kept answer (checked against the step's range) or, when
 * none is left, becomes the current step and the script stops.
 *
 * Layering (no cycle): flow_kit.c depends on nothing else of the table
 * client; the scripts flow_<game>.c call the kit only; the dispatcher
 * flow.c (the public flow.h API) runs the scripts over a struct
 * tbl_flow_run.  Internal to those files: not for other callers.
 */
#ifndef TBL_FLOW_KIT_H
#define TBL_FLOW_KIT_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/rng.h"

#include "flow.h"

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

/* The scripts, one per game (flow_<game>.c), each built from the helpers
 * above only; the dispatcher (flow.c) runs the table's. */
void tbl_flow__nh(struct tbl_flow_run *r);
void tbl_flow__tx(struct tbl_flow_run *r);
void tbl_flow__ag(struct tbl_flow_run *r);
void tbl_flow__gt(struct tbl_flow_run *r);
void tbl_flow__ct(struct tbl_flow_run *r);
void tbl_flow__tp(struct tbl_flow_run *r);

#endif
