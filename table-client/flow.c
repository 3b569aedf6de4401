/* flow.c - guided table flows (see flow.h): the dispatcher that replays
 * the kept answers through the table's game script (flow_nh.c,
 * flow_tx.c, flow_ag.c, flow_gt.c, flow_ct.c, flow_tp.c) and the public
 * API.  The scripts build their steps with the helpers of flow_kit.c.
 *
 * A flow's state is never updated in place: every change (begin, answer,
 * back) clears the derived fields and runs the script again from its first
 * step over the kept answers.  That makes replay after a restart, going
 * back and refusing an answer the same operation, and keeps the lots
 * reproducible: the rng is derived from the seed afresh on every run, so
 * the n-th lot of a flow always draws the same numbers.
 *
 * Not here: what each format asks (the scripts), the step helpers
 * (flow_kit.c), I/O.
 */
#include "flow_kit.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "tny/game.h"

/* The script of each result message (game.h wire: the module of a game's
 * result shape names it; a game whose flow is another's uses that one's
 * script).  A new script is a file flow_<x>.c and a line here. */
static const struct {
    const char *wire;
    void (*run)(struct tbl_flow_run *r);
} scripts[] = {
    {"nh", tbl_flow__nh}, {"tx", tbl_flow__tx}, {"ag", tbl_flow__ag},
    {"gt", tbl_flow__gt}, {"ct", tbl_flow__ct}, {"tp", tbl_flow__tp},
};

/* Clears the derived fields and runs the script over the kept answers. */
static int replay(struct tbl_flow *f, struct tny_diag *diag)
{
    struct tbl_flow_run r;

    memset(&r, 0, sizeof(r));
    r.f = f;
    r.fmt = &f->g->ev.format;
    r.n_seats = f->g->table.n_seats;
    r.diag = diag;
    tny_rng_derive(&r.rng, f->seed,
                   tny_game_ops_of(r.fmt->game)->armies ? TNY_LOT_ARMY
                                                        : TNY_LOT_SEATS,
                   (uint32_t)(f->a->round > 0 ? f->a->round : 0));
    memset(&f->step, 0, sizeof(f->step));
    memset(&f->result, 0, sizeof(f->result));
    f->has_result = false;
    f->restart = false;
    f->carry = f->facts;
    f->n_lines = 0;
    memset(f->lines, 0, sizeof(f->lines)); /* a replay is byte-identical */
    const struct tny_game_ops *shape = tny_game_shape_of(r.fmt->game);
    for (size_t i = 0;
         shape && shape->wire && i < sizeof scripts / sizeof *scripts; i++)
        if (strcmp(scripts[i].wire, shape->wire) == 0)
            scripts[i].run(&r);
    if (r.rc < 0)
        return r.rc;
    if (!r.stopped) {
        if (r.pos < f->n_answers)
            return tny_diag_set(diag, TNY_ESTATE, "flow: already done");
        memset(&f->step, 0, sizeof(f->step));
        f->step.ask = TBL_ASK_DONE;
        f->step.seat = -1;
    }
    return TNY_OK;
}

int tbl_flow_begin(struct tbl_flow *f, enum tbl_flow_kind kind,
                   const struct tbl_game *g,
                   const struct tny_wire_assignment *a,
                   const struct tbl_flow_facts *facts, uint64_t seed,
                   struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t per_table;

    tbl_flow_release(f);
    if (!g || !a || a->table <= 0 || g->table.n_seats < 2 ||
        g->table.n_seats != a->n_seats) {
        rc = tny_diag_set(diag, TNY_EINVAL, "flow: no table to guide (idle)");
        goto out;
    }
    per_table = g->ev.format.players_per_table;
    if (per_table == 2 && g->table.n_seats != 2) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "flow: %s is a 2-player game, the table has %d "
                          "seats",
                          g->ev.format.name, (int)g->table.n_seats);
        goto out;
    }
    if (kind != TBL_FLOW_PREGAME && kind != TBL_FLOW_TIMEOUT &&
        kind != TBL_FLOW_RESULT) {
        rc = tny_diag_set(diag, TNY_EINVAL, "flow: unknown kind %d", (int)kind);
        goto out;
    }
    f->kind = kind;
    f->g = g;
    f->a = a;
    f->seed = seed;
    if (facts)
        f->facts = *facts;
    rc = replay(f, diag);
out:
    if (rc < 0)
        tbl_flow_release(f);
    return rc;
}

void tbl_flow_release(struct tbl_flow *f)
{
    memset(f, 0, sizeof(*f));
    f->step.ask = TBL_ASK_DONE;
    f->step.seat = -1;
}

void tbl_flow_step(const struct tbl_flow *f, struct tbl_flow_step *out)
{
    *out = f->step;
}

int tbl_flow_answer(struct tbl_flow *f, int32_t value, struct tny_diag *diag)
{
    struct tbl_flow backup;
    int rc;

    if (!f->g || f->step.ask == TBL_ASK_DONE)
        return tny_diag_set(diag, TNY_ESTATE, "flow: already done");
    if (f->n_answers >= TBL_FLOW_MAX_ANSWERS)
        return tny_diag_set(diag, TNY_ERANGE,
                            "flow: more than %d answers; call the organiser",
                            TBL_FLOW_MAX_ANSWERS);
    backup = *f;
    f->answers[f->n_answers++] = value;
    rc = replay(f, diag);
    if (rc < 0)
        *f = backup;
    return rc;
}

bool tbl_flow_back(struct tbl_flow *f)
{
    int rc;

    if (!f->g || f->n_answers == 0 || f->step.no_back)
        return false;
    f->n_answers--;
    /* A prefix of accepted answers is accepted: each check looks only at
     * earlier answers. */
    rc = replay(f, NULL);
    assert(rc == TNY_OK);
    (void)rc;
    return true;
}

int32_t tbl_flow_answers(const struct tbl_flow *f, const int32_t **answers)
{
    *answers = f->answers;
    return f->n_answers;
}

int tbl_flow_result(const struct tbl_flow *f, struct tny_wire_result *out,
                    struct tny_diag *diag)
{
    memset(out, 0, sizeof(*out));
    if (f->kind != TBL_FLOW_RESULT || !f->g)
        return tny_diag_set(diag, TNY_ESTATE, "flow: not a result flow");
    if (f->step.ask == TBL_ASK_DONE && f->restart)
        return tny_diag_set(diag, TNY_ESTATE,
                            "flow: the game restarts, no result (seed 001 "
                            "section 13)");
    if (f->step.ask != TBL_ASK_DONE || !f->has_result)
        return tny_diag_set(diag, TNY_ESTATE, "flow: result not complete");
    *out = f->result;
    return TNY_OK;
}

int32_t tbl_flow_summary(const struct tbl_flow *f,
                         char lines[][TBL_FLOW_LINE_MAX], int32_t max_lines)
{
    int32_t n = 0;

    for (; n < f->n_lines && n < max_lines; n++)
        memcpy(lines[n], f->lines[n], TBL_FLOW_LINE_MAX);
    return n;
}

void tbl_flow_carry(const struct tbl_flow *f, struct tbl_flow_facts *facts)
{
    if (!f->g || f->step.ask != TBL_ASK_DONE || f->kind == TBL_FLOW_RESULT)
        return;
    if (f->carry.has_starter) {
        facts->has_starter = true;
        facts->starter = f->carry.starter;
    }
    if (f->carry.has_nh_armies) {
        facts->has_nh_armies = true;
        memcpy(facts->nh_army, f->carry.nh_army, sizeof(facts->nh_army));
        memcpy(facts->nh_beginner_repeat, f->carry.nh_beginner_repeat,
               sizeof(facts->nh_beginner_repeat));
    }
    if (f->carry.has_gt_timeout) {
        facts->has_gt_timeout = true;
        facts->gt_timeout_winner = f->carry.gt_timeout_winner;
        facts->gt_timeout_modified = f->carry.gt_timeout_modified;
    }
    /* carry started from the facts, so it holds the earlier lots too */
    facts->n_lots = f->carry.n_lots;
    memcpy(facts->lots, f->carry.lots, sizeof(facts->lots));
}
