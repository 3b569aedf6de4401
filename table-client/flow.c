/* flow.c - guided table flows (see flow.h): the driver that replays the
 * kept answers through a format's script, and the helpers the scripts
 * (flow_nh.c, flow_tx.c, flow_ag.c, flow_gt.c, flow_ct.c) build steps
 * with.
 *
 * A flow's state is never updated in place: every change (begin, answer,
 * back) clears the derived fields and runs the script again from its first
 * step over the kept answers.  That makes replay after a restart, going
 * back and refusing an answer the same operation, and keeps the lots
 * reproducible: the rng is derived from the seed afresh on every run, so
 * the n-th lot of a flow always draws the same numbers.
 *
 * Not here: what each format asks (the scripts), I/O.
 */
#define TBL_FLOW_INTERNAL
#include "flow.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Appends printf output to buf (size n), truncating silently. */
static void vappend(char *buf, size_t n, const char *fmt, va_list ap)
{
    size_t used = strnlen(buf, n);

    if (used + 1 >= n)
        return;
    vsnprintf(buf + used, n - used, fmt, ap);
}

const char *tbl_flow__name(const struct tbl_flow_run *r, int32_t s)
{
    const struct tny_wire_seat *seat = &r->f->a->seats[s];

    return seat->name[0] ? seat->name : seat->player_id;
}

void tbl_flow__step(struct tbl_flow_run *r, enum tbl_ask ask, int32_t seat,
                    const char *fmt, ...)
{
    va_list ap;

    memset(&r->st, 0, sizeof(r->st));
    r->why[0] = '\0';
    r->st.ask = ask;
    r->st.seat = seat;
    va_start(ap, fmt);
    vappend(r->st.title, sizeof(r->st.title), fmt, ap);
    va_end(ap);
}

void tbl_flow__text(struct tbl_flow_run *r, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vappend(r->st.text, sizeof(r->st.text), fmt, ap);
    va_end(ap);
}

void tbl_flow__option(struct tbl_flow_run *r, const char *fmt, ...)
{
    va_list ap;

    assert(r->st.n_options < TBL_FLOW_MAX_OPTIONS);
    va_start(ap, fmt);
    vappend(r->st.options[r->st.n_options++], sizeof(r->st.options[0]), fmt,
            ap);
    va_end(ap);
}

void tbl_flow__range(struct tbl_flow_run *r, int32_t min, int32_t max)
{
    r->st.min = min;
    r->st.max = max;
}

void tbl_flow__field_range(struct tbl_flow_run *r, enum tny_result_field f)
{
    int64_t lo, hi;

    tny_result_range(r->fmt, f, &lo, &hi);
    r->st.min = lo < INT32_MIN ? INT32_MIN : (int32_t)lo;
    r->st.max = hi > INT32_MAX ? INT32_MAX : (int32_t)hi;
}

void tbl_flow__default(struct tbl_flow_run *r, int32_t value)
{
    r->st.has_default = true;
    r->st.default_value = value;
}

void tbl_flow__line(struct tbl_flow_run *r, const char *fmt, ...)
{
    struct tbl_flow *f = r->f;
    va_list ap;

    if (f->n_lines >= TBL_FLOW_MAX_LINES)
        return;
    f->lines[f->n_lines][0] = '\0';
    va_start(ap, fmt);
    vappend(f->lines[f->n_lines++], TBL_FLOW_LINE_MAX, fmt, ap);
    va_end(ap);
}

bool tbl_flow__refuse(struct tbl_flow_run *r, int rc, const char *fmt, ...)
{
    va_list ap;

    assert(rc < 0);
    r->stopped = true;
    r->rc = rc;
    if (r->diag) {
        r->diag->msg[0] = '\0';
        va_start(ap, fmt);
        vappend(r->diag->msg, sizeof(r->diag->msg), fmt, ap);
        va_end(ap);
    }
    return false;
}

/* The kept answer v checked against the step's kind and range. */
static bool check_answer(struct tbl_flow_run *r, int32_t v)
{
    const struct tbl_flow_step *st = &r->st;

    switch (st->ask) {
    case TBL_ASK_CHOICE:
        if (v < 0 || v >= st->n_options)
            return tbl_flow__refuse(
                r, TNY_ERANGE, "%s: choose one of 1..%d, got %lld", st->title,
                (int)st->n_options, (long long)v + 1);
        return true;
    case TBL_ASK_NUMBER:
        if (v < st->min || v > st->max)
            return tbl_flow__refuse(r, TNY_ERANGE,
                                    "%s: expected %d..%d%s%s, got %d",
                                    st->title, (int)st->min, (int)st->max,
                                    r->why[0] ? " " : "", r->why, (int)v);
        return true;
    case TBL_ASK_INFO:
        if (v != 0)
            return tbl_flow__refuse(r, TNY_ERANGE,
                                    "%s: press Enter (answer 0), got %d",
                                    st->title, (int)v);
        return true;
    case TBL_ASK_DONE: break;
    }
    return tbl_flow__refuse(r, TNY_ESTATE, "flow: already done");
}

bool tbl_flow__ask(struct tbl_flow_run *r, int32_t *value)
{
    struct tbl_flow *f = r->f;

    if (r->stopped)
        return false;
    if (r->pos < f->n_answers) {
        int32_t v = f->answers[r->pos];
        if (!check_answer(r, v))
            return false;
        r->pos++;
        *value = v;
        return true;
    }
    f->step = r->st;
    r->stopped = true;
    return false;
}

bool tbl_flow__info(struct tbl_flow_run *r)
{
    int32_t v;

    return tbl_flow__ask(r, &v);
}

bool tbl_flow__pick(struct tbl_flow_run *r, const char *const *names, int32_t n,
                    int32_t def, int32_t *index)
{
    int32_t v;

    assert(n >= 1);
    if (n <= TBL_FLOW_MAX_OPTIONS) {
        for (int32_t i = 0; i < n; i++)
            tbl_flow__option(r, "%s", names[i]);
        if (def >= 0)
            tbl_flow__default(r, def);
        if (!tbl_flow__ask(r, &v))
            return false;
        *index = v;
        return true;
    }
    /* Too many for keys 1..9: type the number shown in the list. */
    r->st.ask = TBL_ASK_NUMBER;
    for (int32_t i = 0; i < n; i++)
        tbl_flow__text(r, "%s%d %s", i ? ", " : "\n", (int)i + 1, names[i]);
    tbl_flow__range(r, 1, n);
    if (def >= 0)
        tbl_flow__default(r, def + 1);
    if (!tbl_flow__ask(r, &v))
        return false;
    *index = v - 1;
    return true;
}

bool tbl_flow__pick_seat(struct tbl_flow_run *r, uint32_t mask, int32_t def,
                         int32_t *seat)
{
    const char *names[TNY_MAX_SEATS];
    int32_t seats[TNY_MAX_SEATS], n = 0, d = -1, idx;

    for (int32_t s = 0; s < r->n_seats; s++) {
        if (mask && !(mask & (1u << s)))
            continue;
        if (s == def)
            d = n;
        seats[n] = s;
        names[n++] = tbl_flow__name(r, s);
    }
    if (!tbl_flow__pick(r, names, n, d, &idx))
        return false;
    *seat = seats[idx];
    return true;
}

bool tbl_flow__summary_step(struct tbl_flow_run *r, const char *title)
{
    tbl_flow__step(r, TBL_ASK_INFO, -1, "%s", title);
    for (int32_t i = 0; i < r->f->n_lines; i++)
        tbl_flow__text(r, "%s%s", i ? "\n" : "", r->f->lines[i]);
    return tbl_flow__info(r);
}

void tbl_flow__table_init(const struct tbl_flow_run *r, struct tny_table *t)
{
    memset(t, 0, sizeof(*t));
    *t = r->f->g->table;
    memset(&t->result, 0, sizeof(t->result));
    t->has_result = false;
    t->result.winner = -1;
    t->result.default_winner = -1;
    for (int32_t s = 0; s < TNY_MAX_SEATS; s++)
        t->result.army[s] = -1;
}

void tbl_flow__lot(struct tbl_flow_run *r, const char *fmt, ...)
{
    struct tbl_flow_facts *c = &r->f->carry;
    va_list ap;

    if (c->n_lots >= TNY_MAX_LOTS)
        return;
    va_start(ap, fmt);
    vsnprintf(c->lots[c->n_lots], TNY_LOT_MAX, fmt, ap);
    va_end(ap);
    c->n_lots++;
}

bool tbl_flow__finish_result(struct tbl_flow_run *r, struct tny_table *t)
{
    struct tbl_flow *f = r->f;
    struct tny_diag d;
    int rc;

    if (r->stopped)
        return false;
    t->has_result = true;
    /* The check of tbl_game_parse_result, on the table directly. */
    rc = tny_result_validate(&f->g->ev, f->g->stage, t, "result", &d);
    /* CM-4: the lots the table drew before the result go with it. */
    t->result.n_lots = f->facts.n_lots;
    memcpy(t->result.lots, f->facts.lots, sizeof(t->result.lots));
    if (rc >= 0)
        rc = tny_wire_result_from_table(&f->g->ev, t, &f->result, &d);
    if (rc < 0) {
        memset(&f->result, 0, sizeof(f->result));
        return tbl_flow__refuse(r, rc, "%s", d.msg);
    }
    f->has_result = true;
    return true;
}

int32_t tbl_flow__place(const struct tny_result *res, int32_t n, int32_t p)
{
    int32_t place = 1;

    for (int32_t q = 0; q < n; q++)
        place += res->score[q] > res->score[p];
    return place;
}

const struct tny_stage *tbl_flow__stage(const struct tbl_flow_run *r)
{
    for (int32_t s = 0; s < r->fmt->n_stages; s++)
        if (r->fmt->stages[s].kind == r->f->g->stage)
            return &r->fmt->stages[s];
    return NULL;
}

const char *tbl_flow__procedure(const struct tbl_flow_run *r)
{
    return r->f->a->procedure[0] ? r->f->a->procedure
                                 : r->fmt->timeout_procedure;
}

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
                   r.fmt->game == TNY_GAME_NEUROSHIMA_HEX ? TNY_LOT_ARMY
                                                          : TNY_LOT_SEATS,
                   (uint32_t)(f->a->round > 0 ? f->a->round : 0));
    memset(&f->step, 0, sizeof(f->step));
    memset(&f->result, 0, sizeof(f->result));
    f->has_result = false;
    f->restart = false;
    f->carry = f->facts;
    f->n_lines = 0;
    memset(f->lines, 0, sizeof(f->lines)); /* a replay is byte-identical */
    switch (r.fmt->game) {
    case TNY_GAME_NEUROSHIMA_HEX: tbl_flow__nh(&r); break;
    case TNY_GAME_TANTRIX: tbl_flow__tx(&r); break;
    case TNY_GAME_AGRICOLA: tbl_flow__ag(&r); break;
    case TNY_GAME_GOT_LCG2: tbl_flow__gt(&r); break;
    case TNY_GAME_CATAN: tbl_flow__ct(&r); break;
    case TNY_GAME_TWO_PLAYER: tbl_flow__tp(&r); break;
    }
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
