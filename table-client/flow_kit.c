/* flow_kit.c - the helpers the guided flows' scripts (flow_<game>.c) are
 * built from (see flow_kit.h): starting a step, its options and range,
 * asking it (consuming the next kept answer, checked against the step, or
 * stopping there), refusing an answer, outcome lines and lots, picking a
 * seat, and finishing a RESULT flow through the engine's validation.
 *
 * The step, text, option, line and refusal formats are msgids: each helper
 * translates its format (gettext) before formatting; lots are not (the hub
 * keeps them as the table reported them).
 *
 * Not here: replaying a flow and the public API (flow.c), what each game
 * asks (the scripts), I/O.  Calls nothing else of the table client.
 */
#include "flow_kit.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "tny/game.h"
#include "tny/result_value.h"

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
    vappend(r->st.title, sizeof(r->st.title), gettext(fmt), ap);
    va_end(ap);
}

void tbl_flow__text(struct tbl_flow_run *r, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vappend(r->st.text, sizeof(r->st.text), gettext(fmt), ap);
    va_end(ap);
}

void tbl_flow__option(struct tbl_flow_run *r, const char *fmt, ...)
{
    va_list ap;

    assert(r->st.n_options < TBL_FLOW_MAX_OPTIONS);
    va_start(ap, fmt);
    vappend(r->st.options[r->st.n_options++], sizeof(r->st.options[0]),
            gettext(fmt), ap);
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
    vappend(f->lines[f->n_lines++], TBL_FLOW_LINE_MAX, gettext(fmt), ap);
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
        vappend(r->diag->msg, sizeof(r->diag->msg), gettext(fmt), ap);
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
    tbl_flow__step(r, TBL_ASK_INFO, -1, "%s", gettext(title));
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

/* The keys the game's module declares of its own (result_schema.h
 * struct tny_result_ext), after the script's: a flag as a yes/no choice,
 * a number once, a per-player number of each seat, in the module's range;
 * a line of each for the summary.  False when the flow stops here. */
static bool ask_module_keys(struct tbl_flow_run *r, struct tny_table *t)
{
    const struct tny_game_ops *ops = tny_game_ops_of(r->fmt->game);

    for (int32_t i = 0; ops && i < ops->n_ext && i < TNY_RESULT_EXT_MAX; i++) {
        const struct tny_result_ext *x = &ops->ext[i];
        const bool per = x->info.value == TNY_RV_PER_PLAYER;
        /* the module's label is a msgid (N_(), result_schema.h) */
        const char *what = x->text && x->text[0] ? _(x->text) : x->info.name;
        struct tny_result_val v;
        int32_t got;

        memset(&v, 0, sizeof v);
        v.present = true;
        if (x->info.value == TNY_RV_FLAG) {
            tbl_flow__step(r, TBL_ASK_CHOICE, -1, "%s?", what);
            tbl_flow__option(r, "No");
            tbl_flow__option(r, "Yes");
            if (!tbl_flow__ask(r, &got))
                return false;
            v.flag = got == 1;
            tbl_flow__line(r, "%s: %s", what, v.flag ? _("yes") : _("no"));
        }
        for (int32_t s = 0;
             x->info.value != TNY_RV_FLAG && s < (per ? t->n_seats : 1); s++) {
            const int64_t lo = tny_result_bound_value(r->fmt, &x->lo);
            const int64_t hi = tny_result_bound_value(r->fmt, &x->hi);
            if (per)
                tbl_flow__step(r, TBL_ASK_NUMBER, s, "%s (seat %d): %s",
                               tbl_flow__name(r, s), (int)s + 1, what);
            else
                tbl_flow__step(r, TBL_ASK_NUMBER, -1, "%s", what);
            tbl_flow__range(r, (int32_t)lo, (int32_t)hi);
            tbl_flow__text(r, "%s, %d..%d.", what, (int)lo, (int)hi);
            if (!tbl_flow__ask(r, &got))
                return false;
            v.has[s] = per;
            v.per[s] = got;
            v.number = got;
            if (per)
                tbl_flow__line(r, "%s: %s %d", what, tbl_flow__name(r, s),
                               (int)got);
            else
                tbl_flow__line(r, "%s: %d", what, (int)got);
        }
        tny_result_value_set(&t->result, TNY_RK_EXT(r->fmt->game, i), &v);
    }
    return true;
}

bool tbl_flow__finish_result(struct tbl_flow_run *r, struct tny_table *t)
{
    struct tbl_flow *f = r->f;
    struct tny_diag d;
    int rc;

    if (r->stopped || !ask_module_keys(r, t))
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
    /* A preset's text is a msgid (po/tourney-table/POTFILES extracts
     * them); an organiser's own text has no translation and stays. */
    const char *p =
        r->f->a->procedure[0] ? r->f->a->procedure : r->fmt->timeout_procedure;

    return tbl_i18n_data(p);
}
