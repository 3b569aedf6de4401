/* wire_console_reply.c - the typed payloads of ConsoleReply (issue 18 item
 * 3): one message per reply shape of the commands' descriptions
 * (console_cmds.h TNY_REPLY_*), checked, built and copied here, and the
 * table of them (wire__payloads) that wire_console.c walks for the
 * ConsoleReply around them.  The records (lists, acknowledgements) are
 * one generic shape: typed values by name, flat in pre-order.
 *
 * Invariants: the same check runs before encode and after decode, so the
 * hub cannot send what a console would refuse; a decoded payload is
 * wholly malloc'd (tny_wire_reply_release frees it); an encode borrows
 * the payload's strings.
 */
#include "wire_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Tables and names a seating may hold: the console message's 4 MiB bounds
 * them long before. */
#define SEATING_MAX_TABLES WIRE_MAX_TABLE
#define SEATING_MAX_NAMES (4 * WIRE_MAX_TABLE)

/* ---- owning and freeing ------------------------------------------------ */

struct tny_wire_seating *tny_wire_seating_new(int32_t n_tables, int32_t n_names)
{
    struct tny_wire_seating *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (n_tables > 0 &&
        !(s->tables = calloc((size_t)n_tables, sizeof *s->tables)))
        goto fail;
    if (n_names > 0 && !(s->names = calloc((size_t)n_names, sizeof *s->names)))
        goto fail;
    s->n_tables = n_tables > 0 ? n_tables : 0;
    s->n_names = n_names > 0 ? n_names : 0;
    return s;
fail:
    free(s->tables);
    free(s);
    return NULL;
}

void tny_wire_seating_free(struct tny_wire_seating *s)
{
    if (!s)
        return;
    for (int32_t i = 0; s->tables && i < s->n_tables; i++) {
        struct tny_wire_seated_table *t = &s->tables[i];
        for (int k = 0; k < TNY_MAX_SEATS; k++)
            free(t->players[k]);
        free(t->sides[0]);
        free(t->sides[1]);
        free(t->first_player);
    }
    for (int32_t i = 0; s->names && i < s->n_names; i++) {
        free(s->names[i].id);
        free(s->names[i].name);
    }
    free(s->tables);
    free(s->names);
    free(s->explain);
    free(s);
}

void tny_wire_reply_drop_payload(struct tny_wire_reply *rep)
{
    for (size_t i = 0; i < wire__n_payloads; i++) {
        size_t off = wire__payloads[i].rep_off;
        wire__payloads[i].free(wire__slot_get(rep, off));
        wire__slot_set(rep, off, NULL);
    }
}

/* ---- checks ------------------------------------------------------------ */

static int time_left_check(const struct tny_wire_time_left *c, const char *p,
                           struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    if (!c->has)
        return TNY_OK;
    if (c->state != TNY_ROUND_CLOCK_READY &&
        c->state != TNY_ROUND_CLOCK_RUNNING &&
        c->state != TNY_ROUND_CLOCK_PAUSED)
        return wire__fail(diag, "%s.state: unknown clock state %d", p,
                          (int)c->state);
    WIRE_CHECK_PATH(diag, fp, "%s.left_ms", p);
    return wire__check_range(c->left_ms, -TNY_CLOCK_MAX_INSTANT_MS,
                             TNY_CLOCK_MAX_INSTANT_MS, fp, diag);
}

/* A text of the event a reply carries back: required or not, UTF-8. */
static int event_text(const char *s, bool required, const char *p,
                      struct tny_diag *diag)
{
    return wire__check_text(s, WIRE_TEXT_UTF8, required, p, diag);
}

static int table_check(const struct tny_wire_seated_table *t, const char *p,
                       struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (t->table == 0) { /* a bye */
        if (t->n_players != 1 || t->n_sides || t->first_player || t->clock.has)
            return wire__fail(diag,
                              "%s: a bye (no table number) has one player "
                              "and nothing else",
                              p);
        WIRE_CHECK_PATH(diag, fp, "%s.bye", p);
        return event_text(t->players[0], true, fp, diag);
    }
    WIRE_CHECK_PATH(diag, fp, "%s.table", p);
    if ((rc = wire__check_range(t->table, 1, WIRE_MAX_TABLE, fp, diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, fp, "%s.players", p);
    if (t->n_players < 1 || t->n_players > TNY_MAX_SEATS)
        return wire__fail(diag, "%s: expected 1..%d players, got %d", fp,
                          TNY_MAX_SEATS, (int)t->n_players);
    for (int32_t k = 0; k < t->n_players; k++) {
        WIRE_CHECK_PATH(diag, fp, "%s.players[%d]", p, (int)k);
        if ((rc = event_text(t->players[k], true, fp, diag)) < 0)
            return rc;
    }
    if (t->n_sides != 0 && t->n_sides != 2)
        return wire__fail(diag, "%s.sides: expected 0 or 2 sides, got %d", p,
                          (int)t->n_sides);
    for (int32_t k = 0; k < t->n_sides; k++) {
        WIRE_CHECK_PATH(diag, fp, "%s.sides[%d]", p, (int)k);
        if ((rc = event_text(t->sides[k], true, fp, diag)) < 0)
            return rc;
    }
    WIRE_CHECK_PATH(diag, fp, "%s.first_player", p);
    if ((rc = event_text(t->first_player, false, fp, diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, fp, "%s.clock", p);
    return time_left_check(&t->clock, fp, diag);
}

static int wire__seating_check(const struct tny_wire_seating *s,
                               const char *path, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    WIRE_CHECK_PATH(diag, p, "%s.round", path);
    if ((rc = wire__check_range(s->round, 1, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    if (s->has_stage && !wire__stage_valid(s->stage))
        return wire__fail(diag, "%s.stage: unknown stage %d", path,
                          (int)s->stage);
    if ((int)s->status < TNY_WIRE_ROUND_NONE ||
        s->status > TNY_WIRE_ROUND_CLOSED)
        return wire__fail(diag, "%s.status: unknown round status %d", path,
                          (int)s->status);
    if (s->status != TNY_WIRE_ROUND_NONE && s->explain)
        return wire__fail(diag,
                          "%s: explain is a draft's, status a published "
                          "round's: not both",
                          path);
    WIRE_CHECK_PATH(diag, p, "%s.clock", path);
    if ((rc = time_left_check(&s->clock, p, diag)) < 0)
        return rc;
    if (s->n_tables < 0 || s->n_tables > SEATING_MAX_TABLES ||
        (s->n_tables && !s->tables))
        return wire__fail(diag, "%s.tables: expected at most %d tables", path,
                          SEATING_MAX_TABLES);
    for (int32_t i = 0; i < s->n_tables; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.tables[%d]", path, (int)i);
        if ((rc = table_check(&s->tables[i], p, diag)) < 0)
            return rc;
    }
    WIRE_CHECK_PATH(diag, p, "%s.explain", path);
    if ((rc = event_text(s->explain, false, p, diag)) < 0)
        return rc;
    if (s->n_names < 0 || s->n_names > SEATING_MAX_NAMES ||
        (s->n_names && !s->names))
        return wire__fail(diag, "%s.names: expected at most %d names", path,
                          SEATING_MAX_NAMES);
    for (int32_t i = 0; i < s->n_names; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.names[%d].id", path, (int)i);
        if ((rc = event_text(s->names[i].id, true, p, diag)) < 0)
            return rc;
        WIRE_CHECK_PATH(diag, p, "%s.names[%d].name", path, (int)i);
        if ((rc = event_text(s->names[i].name, false, p, diag)) < 0)
            return rc;
    }
    if (s->republished && (s->n_tables || s->n_names || s->explain))
        return wire__fail(diag,
                          "%s.republished: a republished round carries "
                          "no seating (ask for it)",
                          path);
    return TNY_OK;
}

/* ---- encode ------------------------------------------------------------ */

static const int clock_pb[] = {
    [TNY_ROUND_CLOCK_READY] = TOURNEY__V1__CLOCK_STATE__CLOCK_NOT_STARTED,
    [TNY_ROUND_CLOCK_RUNNING] = TOURNEY__V1__CLOCK_STATE__CLOCK_RUNNING,
    [TNY_ROUND_CLOCK_PAUSED] = TOURNEY__V1__CLOCK_STATE__CLOCK_PAUSED,
};

static Tourney__V1__TimeLeft *
time_left_to_pb(const struct tny_wire_time_left *c, Tourney__V1__TimeLeft *m)
{
    if (!c->has)
        return NULL;
    tourney__v1__time_left__init(m);
    m->has_state = true;
    m->state = (Tourney__V1__ClockState)clock_pb[c->state];
    m->has_left_ms = true;
    m->left_ms = c->left_ms;
    return m;
}

/* The protobuf of a checked seating; m first (freed as one with free()). */
struct seating_pb {
    Tourney__V1__Seating m;
    Tourney__V1__TimeLeft clock;
    Tourney__V1__SeatedTable *tabs, **tp;
    Tourney__V1__TimeLeft *tl;
    Tourney__V1__PlayerName *nm, **np;
};

static void wire__seating_pb_free(Tourney__V1__Seating *m)
{
    struct seating_pb *s = (struct seating_pb *)m;
    if (!s)
        return;
    free(s->tabs);
    free(s->tp);
    free(s->tl);
    free(s->nm);
    free(s->np);
    free(s);
}

static Tourney__V1__Seating *
wire__seating_to_pb(const struct tny_wire_seating *in)
{
    struct seating_pb *s = calloc(1, sizeof *s);
    size_t nt = (size_t)in->n_tables, nn = (size_t)in->n_names;
    if (!s)
        return NULL;
    if ((nt && (!(s->tabs = calloc(nt, sizeof *s->tabs)) ||
                !(s->tp = calloc(nt, sizeof *s->tp)) ||
                !(s->tl = calloc(nt, sizeof *s->tl)))) ||
        (nn && (!(s->nm = calloc(nn, sizeof *s->nm)) ||
                !(s->np = calloc(nn, sizeof *s->np))))) {
        wire__seating_pb_free(&s->m);
        return NULL;
    }
    Tourney__V1__Seating *m = &s->m;
    tourney__v1__seating__init(m);
    m->has_round = true;
    m->round = (uint32_t)in->round;
    m->has_stage = in->has_stage;
    m->stage =
        (Tourney__V1__Stage)(in->has_stage ? wire__stage_to_pb(in->stage) : 0);
    m->has_status = in->status != TNY_WIRE_ROUND_NONE;
    m->status = (Tourney__V1__RoundStatus)in->status;
    m->clock = time_left_to_pb(&in->clock, &s->clock);
    for (size_t i = 0; i < nt; i++) {
        const struct tny_wire_seated_table *t = &in->tables[i];
        Tourney__V1__SeatedTable *x = &s->tabs[i];
        tourney__v1__seated_table__init(x);
        if (t->table == 0) {
            x->bye = t->players[0];
        } else {
            x->has_table = true;
            x->table = (uint32_t)t->table;
            x->n_players = (size_t)t->n_players;
            x->players = (char **)t->players;
            x->n_sides = (size_t)t->n_sides;
            x->sides = (char **)t->sides;
            x->first_player = t->first_player;
            x->clock = time_left_to_pb(&t->clock, &s->tl[i]);
        }
        s->tp[i] = x;
    }
    m->n_tables = nt;
    m->tables = s->tp;
    m->explain = in->explain;
    for (size_t i = 0; i < nn; i++) {
        tourney__v1__player_name__init(&s->nm[i]);
        s->nm[i].id = in->names[i].id;
        s->nm[i].name = in->names[i].name;
        s->np[i] = &s->nm[i];
    }
    m->n_names = nn;
    m->names = s->np;
    m->has_republished = in->republished;
    m->republished = in->republished;
    return m;
}

/* ---- decode ------------------------------------------------------------ */

static int time_left_from_pb(const Tourney__V1__TimeLeft *m, const char *p,
                             struct tny_wire_time_left *out,
                             struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    memset(out, 0, sizeof *out);
    if (!m)
        return TNY_OK;
    wire__path(fp, sizeof fp, "%s.state", p);
    if ((rc = wire__need(m->has_state, fp, diag)) < 0)
        return rc;
    bool known = false;
    for (int s = TNY_ROUND_CLOCK_READY; s <= TNY_ROUND_CLOCK_PAUSED; s++)
        if (clock_pb[s] == (int)m->state) {
            out->state = (enum tny_round_clock_state)s;
            known = true;
        }
    if (!known)
        return wire__fail(diag, "%s: unknown clock state %d", fp,
                          (int)m->state);
    wire__path(fp, sizeof fp, "%s.left_ms", p);
    if ((rc = wire__need(m->has_left_ms, fp, diag)) < 0)
        return rc;
    out->has = true;
    out->left_ms = m->left_ms;
    return TNY_OK;
}

static int table_from_pb(const Tourney__V1__SeatedTable *m, const char *p,
                         struct tny_wire_seated_table *t, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (m->bye) {
        if (m->has_table || m->n_players || m->n_sides || m->first_player ||
            m->clock)
            return wire__fail(diag,
                              "%s: a bye has no table number, players, "
                              "sides, first player or clock",
                              p);
        t->n_players = 1;
        return wire__dup(&t->players[0], m->bye, diag);
    }
    wire__path(fp, sizeof fp, "%s.table", p);
    if ((rc = wire__u32(m->has_table, m->table, true, fp, &t->table, diag)) < 0)
        return rc;
    if (t->table == 0)
        return wire__fail(diag, "%s: expected 1..%d, got 0", fp,
                          WIRE_MAX_TABLE);
    if (m->n_players > TNY_MAX_SEATS)
        return wire__fail(diag, "%s.players: expected 1..%d players, got %zu",
                          p, TNY_MAX_SEATS, m->n_players);
    for (size_t k = 0; k < m->n_players; k++)
        if ((rc = wire__dup(&t->players[k], m->players[k], diag)) < 0)
            return rc;
    t->n_players = (int32_t)m->n_players;
    if (m->n_sides > 2)
        return wire__fail(diag, "%s.sides: expected 0 or 2 sides, got %zu", p,
                          m->n_sides);
    for (size_t k = 0; k < m->n_sides; k++)
        if ((rc = wire__dup(&t->sides[k], m->sides[k], diag)) < 0)
            return rc;
    t->n_sides = (int32_t)m->n_sides;
    if ((rc = wire__dup(&t->first_player, m->first_player, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.clock", p);
    return time_left_from_pb(m->clock, fp, &t->clock, diag);
}

static int wire__seating_from_pb(const Tourney__V1__Seating *m,
                                 const char *path,
                                 struct tny_wire_seating **out,
                                 struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    *out = NULL;
    if (!m)
        return TNY_OK;
    if (m->n_tables > SEATING_MAX_TABLES)
        return wire__fail(diag,
                          "%s.tables: expected at most %d tables, got "
                          "%zu",
                          path, SEATING_MAX_TABLES, m->n_tables);
    if (m->n_names > SEATING_MAX_NAMES)
        return wire__fail(diag, "%s.names: expected at most %d names, got %zu",
                          path, SEATING_MAX_NAMES, m->n_names);
    struct tny_wire_seating *s =
        tny_wire_seating_new((int32_t)m->n_tables, (int32_t)m->n_names);
    if (!s)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    wire__path(p, sizeof p, "%s.round", path);
    if ((rc = wire__u32(m->has_round, m->round, true, p, &s->round, diag)) < 0)
        goto out;
    if (m->has_stage) {
        s->has_stage = true;
        if (!wire__stage_from_pb((int)m->stage, &s->stage)) {
            rc = wire__fail(diag, "%s.stage: unknown stage %d", path,
                            (int)m->stage);
            goto out;
        }
    }
    if (m->has_status) {
        if ((int)m->status < TNY_WIRE_ROUND_DRAFT ||
            (int)m->status > TNY_WIRE_ROUND_CLOSED) {
            rc = wire__fail(diag, "%s.status: unknown round status %d", path,
                            (int)m->status);
            goto out;
        }
        s->status = (enum tny_wire_round_status)m->status;
    }
    wire__path(p, sizeof p, "%s.clock", path);
    if ((rc = time_left_from_pb(m->clock, p, &s->clock, diag)) < 0)
        goto out;
    for (size_t i = 0; i < m->n_tables; i++) {
        wire__path(p, sizeof p, "%s.tables[%zu]", path, i);
        if ((rc = table_from_pb(m->tables[i], p, &s->tables[i], diag)) < 0)
            goto out;
    }
    if ((rc = wire__dup(&s->explain, m->explain, diag)) < 0)
        goto out;
    for (size_t i = 0; i < m->n_names; i++)
        if ((rc = wire__dup(&s->names[i].id, m->names[i]->id, diag)) < 0 ||
            (rc = wire__dup(&s->names[i].name, m->names[i]->name, diag)) < 0)
            goto out;
    s->republished = m->has_republished && m->republished;
    rc = TNY_OK;
out:
    if (rc < 0)
        tny_wire_seating_free(s);
    else
        *out = s;
    return rc;
}

/* ---- standings (TNY_REPLY_STANDINGS) ----------------------------------- */

/* Rows the standings may hold: more than any event's players. */
#define STANDINGS_MAX_ROWS (4 * WIRE_MAX_TABLE)

struct tny_wire_standings *tny_wire_standings_new(int32_t n_rows)
{
    struct tny_wire_standings *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (n_rows > 0 && !(s->rows = calloc((size_t)n_rows, sizeof *s->rows))) {
        free(s);
        return NULL;
    }
    s->n_rows = n_rows > 0 ? n_rows : 0;
    return s;
}

void tny_wire_standings_free(struct tny_wire_standings *s)
{
    if (!s)
        return;
    for (int32_t i = 0; s->rows && i < s->n_rows; i++) {
        free(s->rows[i].player);
        free(s->rows[i].name);
    }
    free(s->sides[0]);
    free(s->sides[1]);
    free(s->rows);
    free(s);
}

static bool tiebreak_valid(enum tny_tiebreak tb)
{
    enum tny_tiebreak back;
    const char *name = tny_tiebreak_name(tb);
    return name && tny_tiebreak_from_name(name, &back) == TNY_OK && back == tb;
}

static int wire__standings_check(const struct tny_wire_standings *s,
                                 const char *path, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    WIRE_CHECK_PATH(diag, p, "%s.after_round", path);
    if ((rc = wire__check_range(s->after_round, 0, WIRE_MAX_ROUND, p, diag)) <
        0)
        return rc;
    if (!wire__stage_valid(s->stage))
        return wire__fail(diag, "%s.stage: unknown stage %d", path,
                          (int)s->stage);
    if (s->n_tiebreaks < 0 || s->n_tiebreaks > TNY_MAX_TIEBREAKS)
        return wire__fail(diag, "%s.tiebreaks: expected at most %d, got %d",
                          path, TNY_MAX_TIEBREAKS, (int)s->n_tiebreaks);
    for (int32_t k = 0; k < s->n_tiebreaks; k++)
        if (!tiebreak_valid(s->tiebreaks[k]))
            return wire__fail(diag, "%s.tiebreaks[%d]: unknown tiebreak %d",
                              path, (int)k, (int)s->tiebreaks[k]);
    if (s->n_sides != 0 && s->n_sides != 2)
        return wire__fail(diag, "%s.sides: expected 0 or 2 sides, got %d", path,
                          (int)s->n_sides);
    for (int32_t k = 0; k < s->n_sides; k++) {
        WIRE_CHECK_PATH(diag, p, "%s.sides[%d]", path, (int)k);
        if ((rc = event_text(s->sides[k], true, p, diag)) < 0)
            return rc;
    }
    if (s->n_rows < 0 || s->n_rows > STANDINGS_MAX_ROWS ||
        (s->n_rows && !s->rows))
        return wire__fail(diag, "%s.rows: expected at most %d rows", path,
                          STANDINGS_MAX_ROWS);
    for (int32_t i = 0; i < s->n_rows; i++) {
        const struct tny_wire_standing_row *r = &s->rows[i];
        WIRE_CHECK_PATH(diag, p, "%s.rows[%d].rank", path, (int)i);
        if ((rc = wire__check_range(r->rank, 1, STANDINGS_MAX_ROWS, p, diag)) <
            0)
            return rc;
        WIRE_CHECK_PATH(diag, p, "%s.rows[%d].player", path, (int)i);
        if ((rc = event_text(r->player, true, p, diag)) < 0)
            return rc;
        WIRE_CHECK_PATH(diag, p, "%s.rows[%d].name", path, (int)i);
        if ((rc = event_text(r->name, false, p, diag)) < 0)
            return rc;
        for (int32_t k = 0; k < s->n_tiebreaks; k++)
            if (r->has_tiebreak[k] && !isfinite(r->tiebreaks[k]))
                return wire__fail(diag,
                                  "%s.rows[%d].tiebreaks[%d]: expected a "
                                  "finite number",
                                  path, (int)i, (int)k);
        for (int k = 0; k < 2; k++)
            if (r->side_games[k] < 0 || (!s->n_sides && r->side_games[k]))
                return wire__fail(diag,
                                  "%s.rows[%d].side_games: expected games "
                                  "on each of the format's sides",
                                  path, (int)i);
    }
    return TNY_OK;
}

/* The protobuf of checked standings; m first (freed as one). */
struct standings_pb {
    Tourney__V1__Standings m;
    char *tb_names[TNY_MAX_TIEBREAKS];
    Tourney__V1__StandingRow *rows, **rp;
    Tourney__V1__TiebreakValue *tv, **tp; /* n_rows * n_tiebreaks */
    uint32_t *side_games;                 /* n_rows * 2 */
};

static void wire__standings_pb_free(Tourney__V1__Standings *m)
{
    struct standings_pb *s = (struct standings_pb *)m;
    if (!s)
        return;
    free(s->rows);
    free(s->rp);
    free(s->tv);
    free(s->tp);
    free(s->side_games);
    free(s);
}

static Tourney__V1__Standings *
wire__standings_to_pb(const struct tny_wire_standings *in)
{
    struct standings_pb *s = calloc(1, sizeof *s);
    size_t nr = (size_t)in->n_rows, nt = (size_t)in->n_tiebreaks;
    if (!s)
        return NULL;
    if (nr && (!(s->rows = calloc(nr, sizeof *s->rows)) ||
               !(s->rp = calloc(nr, sizeof *s->rp)) ||
               !(s->side_games = calloc(nr * 2, sizeof *s->side_games)) ||
               (nt && (!(s->tv = calloc(nr * nt, sizeof *s->tv)) ||
                       !(s->tp = calloc(nr * nt, sizeof *s->tp)))))) {
        wire__standings_pb_free(&s->m);
        return NULL;
    }
    Tourney__V1__Standings *m = &s->m;
    tourney__v1__standings__init(m);
    m->has_after_round = true;
    m->after_round = (uint32_t)in->after_round;
    m->has_stage = true;
    m->stage = (Tourney__V1__Stage)wire__stage_to_pb(in->stage);
    for (size_t k = 0; k < nt; k++)
        s->tb_names[k] = (char *)tny_tiebreak_name(in->tiebreaks[k]);
    m->n_tiebreaks = nt;
    m->tiebreaks = s->tb_names;
    m->n_sides = (size_t)in->n_sides;
    m->sides = (char **)in->sides;
    for (size_t i = 0; i < nr; i++) {
        const struct tny_wire_standing_row *r = &in->rows[i];
        Tourney__V1__StandingRow *x = &s->rows[i];
        tourney__v1__standing_row__init(x);
        x->has_rank = true;
        x->rank = (uint32_t)r->rank;
        x->player = r->player;
        x->name = r->name;
        x->has_points_units = true;
        x->points_units = r->points_units;
        for (size_t k = 0; k < nt; k++) {
            Tourney__V1__TiebreakValue *v = &s->tv[i * nt + k];
            tourney__v1__tiebreak_value__init(v);
            v->has_value = r->has_tiebreak[k];
            v->value = r->has_tiebreak[k] ? r->tiebreaks[k] : 0.0;
            s->tp[i * nt + k] = v;
        }
        x->n_tiebreaks = nt;
        x->tiebreaks = nt ? &s->tp[i * nt] : NULL;
        x->has_dropped = r->dropped;
        x->dropped = r->dropped;
        x->has_decided_by_lot = r->decided_by_lot;
        x->decided_by_lot = r->decided_by_lot;
        x->has_disqualified = r->disqualified;
        x->disqualified = r->disqualified;
        x->has_separate_list = r->separate_list;
        x->separate_list = r->separate_list;
        if (in->n_sides == 2) {
            s->side_games[2 * i] = (uint32_t)r->side_games[0];
            s->side_games[2 * i + 1] = (uint32_t)r->side_games[1];
            x->n_side_games = 2;
            x->side_games = &s->side_games[2 * i];
        }
        s->rp[i] = x;
    }
    m->n_rows = nr;
    m->rows = s->rp;
    return m;
}

static int row_from_pb(const Tourney__V1__StandingRow *m, int32_t n_tiebreaks,
                       int32_t n_sides, const char *p,
                       struct tny_wire_standing_row *r, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.rank", p);
    if ((rc = wire__u32(m->has_rank, m->rank, true, fp, &r->rank, diag)) < 0)
        return rc;
    if ((rc = wire__dup(&r->player, m->player, diag)) < 0 ||
        (rc = wire__dup(&r->name, m->name, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.points_units", p);
    if ((rc = wire__need(m->has_points_units, fp, diag)) < 0)
        return rc;
    r->points_units = m->points_units;
    if (m->n_tiebreaks != (size_t)n_tiebreaks)
        return wire__fail(diag,
                          "%s.tiebreaks: expected %d values (one per "
                          "column), got %zu",
                          p, (int)n_tiebreaks, m->n_tiebreaks);
    for (int32_t k = 0; k < n_tiebreaks; k++) {
        r->has_tiebreak[k] = m->tiebreaks[k]->has_value;
        r->tiebreaks[k] =
            m->tiebreaks[k]->has_value ? m->tiebreaks[k]->value : 0.0;
    }
    r->dropped = m->has_dropped && m->dropped;
    r->decided_by_lot = m->has_decided_by_lot && m->decided_by_lot;
    r->disqualified = m->has_disqualified && m->disqualified;
    r->separate_list = m->has_separate_list && m->separate_list;
    if (m->n_side_games != (size_t)n_sides)
        return wire__fail(diag,
                          "%s.side_games: expected %d counts (one per "
                          "side), got %zu",
                          p, (int)n_sides, m->n_side_games);
    for (int32_t k = 0; k < n_sides; k++) {
        wire__path(fp, sizeof fp, "%s.side_games[%d]", p, (int)k);
        if ((rc = wire__u32(true, m->side_games[k], true, fp, &r->side_games[k],
                            diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

static int wire__standings_from_pb(const Tourney__V1__Standings *m,
                                   const char *path,
                                   struct tny_wire_standings **out,
                                   struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    *out = NULL;
    if (!m)
        return TNY_OK;
    if (m->n_rows > STANDINGS_MAX_ROWS)
        return wire__fail(diag, "%s.rows: expected at most %d rows, got %zu",
                          path, STANDINGS_MAX_ROWS, m->n_rows);
    if (m->n_tiebreaks > TNY_MAX_TIEBREAKS)
        return wire__fail(diag, "%s.tiebreaks: expected at most %d, got %zu",
                          path, TNY_MAX_TIEBREAKS, m->n_tiebreaks);
    if (m->n_sides != 0 && m->n_sides != 2)
        return wire__fail(diag, "%s.sides: expected 0 or 2 sides, got %zu",
                          path, m->n_sides);
    struct tny_wire_standings *s = tny_wire_standings_new((int32_t)m->n_rows);
    if (!s)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    wire__path(p, sizeof p, "%s.after_round", path);
    if ((rc = wire__u32(m->has_after_round, m->after_round, false, p,
                        &s->after_round, diag)) < 0)
        goto out;
    wire__path(p, sizeof p, "%s.stage", path);
    if ((rc = wire__need(m->has_stage, p, diag)) < 0)
        goto out;
    if (!wire__stage_from_pb((int)m->stage, &s->stage)) {
        rc = wire__fail(diag, "%s: unknown stage %d", p, (int)m->stage);
        goto out;
    }
    for (size_t k = 0; k < m->n_tiebreaks; k++)
        if (!m->tiebreaks[k] ||
            tny_tiebreak_from_name(m->tiebreaks[k], &s->tiebreaks[k]) < 0) {
            rc = wire__fail(diag,
                            "%s.tiebreaks[%zu]: unknown tiebreak \"%.40s\"",
                            path, k, m->tiebreaks[k] ? m->tiebreaks[k] : "");
            goto out;
        }
    s->n_tiebreaks = (int32_t)m->n_tiebreaks;
    for (size_t k = 0; k < m->n_sides; k++)
        if ((rc = wire__dup(&s->sides[k], m->sides[k], diag)) < 0)
            goto out;
    s->n_sides = (int32_t)m->n_sides;
    for (size_t i = 0; i < m->n_rows; i++) {
        wire__path(p, sizeof p, "%s.rows[%zu]", path, i);
        if ((rc = row_from_pb(m->rows[i], s->n_tiebreaks, s->n_sides, p,
                              &s->rows[i], diag)) < 0)
            goto out;
    }
    rc = TNY_OK;
out:
    if (rc < 0)
        tny_wire_standings_free(s);
    else
        *out = s;
    return rc;
}

/* ---- the publish summary (TNY_REPLY_PUBLISHED) ------------------------- */

struct tny_wire_published *tny_wire_published_new(int32_t n_assigned,
                                                  int32_t n_missing)
{
    struct tny_wire_published *p = calloc(1, sizeof *p);
    size_t na = n_assigned > 0 ? (size_t)n_assigned : 0;
    size_t nm = n_missing > 0 ? (size_t)n_missing : 0;
    if (!p)
        return NULL;
    p->n_assigned = (int32_t)na;
    p->n_missing = (int32_t)nm;
    if ((na && (!(p->tables = calloc(na, sizeof *p->tables)) ||
                !(p->devices = calloc(na, sizeof *p->devices)))) ||
        (nm && !(p->missing = calloc(nm, sizeof *p->missing)))) {
        p->n_assigned = 0;
        tny_wire_published_free(p);
        return NULL;
    }
    return p;
}

void tny_wire_published_free(struct tny_wire_published *p)
{
    if (!p)
        return;
    for (int32_t i = 0; p->devices && i < p->n_assigned; i++)
        free(p->devices[i]);
    free(p->tables);
    free(p->devices);
    free(p->missing);
    free(p);
}

static int wire__published_check(const struct tny_wire_published *s,
                                 const char *path, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    WIRE_CHECK_PATH(diag, p, "%s.round", path);
    if ((rc = wire__check_range(s->round, 1, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    if (s->n_assigned < 0 || s->n_assigned > WIRE_MAX_TABLE ||
        s->n_missing < 0 || s->n_missing > WIRE_MAX_TABLE ||
        (s->n_assigned && (!s->tables || !s->devices)) ||
        (s->n_missing && !s->missing))
        return wire__fail(diag, "%s: expected at most %d tables", path,
                          WIRE_MAX_TABLE);
    for (int32_t i = 0; i < s->n_assigned; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.assigned[%d].table", path, (int)i);
        if ((rc = wire__check_range(s->tables[i], 1, WIRE_MAX_TABLE, p, diag)) <
            0)
            return rc;
        WIRE_CHECK_PATH(diag, p, "%s.assigned[%d].device", path, (int)i);
        if ((rc = event_text(s->devices[i], true, p, diag)) < 0)
            return rc;
    }
    for (int32_t i = 0; i < s->n_missing; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.tables_without_device[%d]", path, (int)i);
        if ((rc = wire__check_range(s->missing[i], 1, WIRE_MAX_TABLE, p,
                                    diag)) < 0)
            return rc;
    }
    WIRE_CHECK_PATH(diag, p, "%s.idle_devices", path);
    return wire__check_range(s->idle_devices, 0, INT32_MAX, p, diag);
}

/* The protobuf of a checked summary; m first (freed as one). */
struct published_pb {
    Tourney__V1__PublishSummary m;
    Tourney__V1__DeviceAtTable *at, **ap;
    uint32_t *missing;
};

static void wire__published_pb_free(Tourney__V1__PublishSummary *m)
{
    struct published_pb *s = (struct published_pb *)m;
    if (!s)
        return;
    free(s->at);
    free(s->ap);
    free(s->missing);
    free(s);
}

static Tourney__V1__PublishSummary *
wire__published_to_pb(const struct tny_wire_published *in)
{
    struct published_pb *s = calloc(1, sizeof *s);
    size_t na = (size_t)in->n_assigned, nm = (size_t)in->n_missing;
    if (!s)
        return NULL;
    if ((na && (!(s->at = calloc(na, sizeof *s->at)) ||
                !(s->ap = calloc(na, sizeof *s->ap)))) ||
        (nm && !(s->missing = calloc(nm, sizeof *s->missing)))) {
        wire__published_pb_free(&s->m);
        return NULL;
    }
    Tourney__V1__PublishSummary *m = &s->m;
    tourney__v1__publish_summary__init(m);
    m->has_round = true;
    m->round = (uint32_t)in->round;
    for (size_t i = 0; i < na; i++) {
        tourney__v1__device_at_table__init(&s->at[i]);
        s->at[i].has_table = true;
        s->at[i].table = (uint32_t)in->tables[i];
        s->at[i].device = in->devices[i];
        s->ap[i] = &s->at[i];
    }
    m->n_assigned = na;
    m->assigned = s->ap;
    for (size_t i = 0; i < nm; i++)
        s->missing[i] = (uint32_t)in->missing[i];
    m->n_tables_without_device = nm;
    m->tables_without_device = s->missing;
    m->has_idle_devices = in->idle_devices != 0;
    m->idle_devices = (uint32_t)in->idle_devices;
    return m;
}

static int wire__published_from_pb(const Tourney__V1__PublishSummary *m,
                                   const char *path,
                                   struct tny_wire_published **out,
                                   struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    *out = NULL;
    if (!m)
        return TNY_OK;
    if (m->n_assigned > WIRE_MAX_TABLE ||
        m->n_tables_without_device > WIRE_MAX_TABLE)
        return wire__fail(diag, "%s: expected at most %d tables", path,
                          WIRE_MAX_TABLE);
    struct tny_wire_published *s = tny_wire_published_new(
        (int32_t)m->n_assigned, (int32_t)m->n_tables_without_device);
    if (!s)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    wire__path(p, sizeof p, "%s.round", path);
    rc = wire__u32(m->has_round, m->round, true, p, &s->round, diag);
    for (size_t i = 0; rc == TNY_OK && i < m->n_assigned; i++) {
        wire__path(p, sizeof p, "%s.assigned[%zu].table", path, i);
        rc = wire__u32(m->assigned[i]->has_table, m->assigned[i]->table, true,
                       p, &s->tables[i], diag);
        if (rc == TNY_OK)
            rc = wire__dup(&s->devices[i], m->assigned[i]->device, diag);
    }
    for (size_t i = 0; rc == TNY_OK && i < m->n_tables_without_device; i++) {
        wire__path(p, sizeof p, "%s.tables_without_device[%zu]", path, i);
        rc = wire__u32(true, m->tables_without_device[i], true, p,
                       &s->missing[i], diag);
    }
    wire__path(p, sizeof p, "%s.idle_devices", path);
    if (rc == TNY_OK)
        rc = wire__u32(m->has_idle_devices, m->idle_devices, false, p,
                       &s->idle_devices, diag);
    if (rc < 0)
        tny_wire_published_free(s);
    else
        *out = s;
    return rc;
}

/* ---- records (TNY_REPLY_RECORDS) --------------------------------------- */

/* Nodes a reply's records may hold: the console message's 4 MiB (a node
 * is at least 4 bytes on the wire) bounds them first. */
#define RECORDS_MAX_NODES (1 << 20)

struct tny_wire_records *tny_wire_records_new(int32_t n_nodes)
{
    struct tny_wire_records *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (n_nodes > 0 &&
        !(r->nodes = calloc((size_t)n_nodes, sizeof *r->nodes))) {
        free(r);
        return NULL;
    }
    r->n_nodes = n_nodes > 0 ? n_nodes : 0;
    return r;
}

void tny_wire_records_free(struct tny_wire_records *r)
{
    if (!r)
        return;
    for (int32_t i = 0; r->nodes && i < r->n_nodes; i++) {
        free(r->nodes[i].key);
        free(r->nodes[i].text);
    }
    free(r->nodes);
    free(r);
}

/* One node's own value (not its place in the tree). */
static int node_check(const struct tny_wire_node *v, const char *p,
                      int32_t after, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    switch (v->kind) {
    case TNY_WIRE_NODE_NULL:
    case TNY_WIRE_NODE_FLAG:
    case TNY_WIRE_NODE_INTEGER: return TNY_OK;
    case TNY_WIRE_NODE_REAL:
        return isfinite(v->real)
                   ? TNY_OK
                   : wire__fail(diag, "%s.real: expected a finite number", p);
    case TNY_WIRE_NODE_TEXT:
        WIRE_CHECK_PATH(diag, fp, "%s.text", p);
        return event_text(v->text ? v->text : "", false, fp, diag);
    case TNY_WIRE_NODE_RECORD:
    case TNY_WIRE_NODE_LIST:
        if (v->n < 0 || v->n > after)
            return wire__fail(
                diag, "%s.%s: %d children, but %d nodes follow", p,
                v->kind == TNY_WIRE_NODE_RECORD ? "record" : "list", (int)v->n,
                (int)after);
        return TNY_OK;
    }
    return wire__fail(diag, "%s: unknown value kind %d", p, (int)v->kind);
}

/* The tree's shape, walked without recursion: one root; each record's
 * or list's children follow it; a record's children have keys, a list's
 * none; at most TNY_WIRE_RECORDS_DEPTH deep. */
static int records_check(const struct tny_wire_records *r, const char *path,
                         struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int32_t left[TNY_WIRE_RECORDS_DEPTH];
    bool in_record[TNY_WIRE_RECORDS_DEPTH];
    int depth = 0, rc;
    if (r->n_nodes < 1 || r->n_nodes > RECORDS_MAX_NODES || !r->nodes)
        return wire__fail(diag, "%s.nodes: expected 1..%d nodes, got %d", path,
                          RECORDS_MAX_NODES, (int)r->n_nodes);
    for (int32_t i = 0; i < r->n_nodes; i++) {
        const struct tny_wire_node *v = &r->nodes[i];
        WIRE_CHECK_PATH(diag, p, "%s.nodes[%d]", path, (int)i);
        if (i > 0 && depth == 0)
            return wire__fail(diag,
                              "%s: after the whole root (one root, its "
                              "children after it)",
                              p);
        bool keyed = depth > 0 && in_record[depth - 1];
        if (keyed != (v->key != NULL))
            return wire__fail(diag,
                              keyed ? "%s.key: missing (a record's member)"
                                    : "%s.key: only a record's member has "
                                      "one",
                              p);
        if (v->key) {
            char kp[WIRE_PATH_MAX];
            WIRE_CHECK_PATH(diag, kp, "%s.key", p);
            if ((rc = event_text(v->key, false, kp, diag)) < 0)
                return rc;
        }
        if ((rc = node_check(v, p, r->n_nodes - i - 1, diag)) < 0)
            return rc;
        if (depth > 0)
            left[depth - 1]--;
        if (v->kind == TNY_WIRE_NODE_RECORD || v->kind == TNY_WIRE_NODE_LIST) {
            if (depth == TNY_WIRE_RECORDS_DEPTH)
                return wire__fail(diag, "%s: nested deeper than %d", p,
                                  TNY_WIRE_RECORDS_DEPTH);
            left[depth] = v->n;
            in_record[depth++] = v->kind == TNY_WIRE_NODE_RECORD;
        }
        while (depth > 0 && left[depth - 1] == 0)
            depth--;
    }
    if (depth > 0)
        return wire__fail(diag,
                          "%s.nodes: ends inside a record or list (%d "
                          "children missing)",
                          path, (int)left[depth - 1]);
    return TNY_OK;
}

/* The protobuf of checked records; m first (freed as one). */
struct records_pb {
    Tourney__V1__Records m;
    Tourney__V1__RecordNode *nodes, **np;
};

static void records_pb_free(Tourney__V1__Records *m)
{
    struct records_pb *s = (struct records_pb *)m;
    if (!s)
        return;
    free(s->nodes);
    free(s->np);
    free(s);
}

static Tourney__V1__Records *records_to_pb(const struct tny_wire_records *in)
{
    struct records_pb *s = calloc(1, sizeof *s);
    size_t n = (size_t)in->n_nodes;
    if (!s || !(s->nodes = calloc(n, sizeof *s->nodes)) ||
        !(s->np = calloc(n, sizeof *s->np))) {
        records_pb_free(s ? &s->m : NULL);
        return NULL;
    }
    tourney__v1__records__init(&s->m);
    for (size_t i = 0; i < n; i++) {
        const struct tny_wire_node *v = &in->nodes[i];
        Tourney__V1__RecordNode *x = &s->nodes[i];
        tourney__v1__record_node__init(x);
        x->key = v->key;
        switch (v->kind) {
        case TNY_WIRE_NODE_NULL:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_NULL;
            x->null = true;
            break;
        case TNY_WIRE_NODE_FLAG:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_FLAG;
            x->flag = v->flag;
            break;
        case TNY_WIRE_NODE_INTEGER:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_INTEGER;
            x->integer = v->integer;
            break;
        case TNY_WIRE_NODE_REAL:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_REAL;
            x->real = v->real;
            break;
        case TNY_WIRE_NODE_TEXT:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_TEXT;
            x->text = v->text ? v->text : (char *)"";
            break;
        case TNY_WIRE_NODE_RECORD:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_RECORD;
            x->record = (uint32_t)v->n;
            break;
        case TNY_WIRE_NODE_LIST:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_LIST;
            x->list = (uint32_t)v->n;
            break;
        }
        s->np[i] = x;
    }
    s->m.n_nodes = n;
    s->m.nodes = s->np;
    return &s->m;
}

static int records_from_pb(const Tourney__V1__Records *m, const char *path,
                           struct tny_wire_records **out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc = TNY_OK;
    *out = NULL;
    if (!m)
        return TNY_OK;
    if (m->n_nodes < 1 || m->n_nodes > RECORDS_MAX_NODES)
        return wire__fail(diag, "%s.nodes: expected 1..%d nodes, got %zu", path,
                          RECORDS_MAX_NODES, m->n_nodes);
    struct tny_wire_records *r = tny_wire_records_new((int32_t)m->n_nodes);
    if (!r)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    for (size_t i = 0; rc == TNY_OK && i < m->n_nodes; i++) {
        const Tourney__V1__RecordNode *x = m->nodes[i];
        struct tny_wire_node *v = &r->nodes[i];
        wire__path(p, sizeof p, "%s.nodes[%zu]", path, i);
        if ((rc = wire__dup(&v->key, x->key, diag)) < 0)
            break;
        switch (x->value_case) {
        case TOURNEY__V1__RECORD_NODE__VALUE_NULL:
            v->kind = TNY_WIRE_NODE_NULL;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_FLAG:
            v->kind = TNY_WIRE_NODE_FLAG;
            v->flag = x->flag;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_INTEGER:
            v->kind = TNY_WIRE_NODE_INTEGER;
            v->integer = x->integer;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_REAL:
            v->kind = TNY_WIRE_NODE_REAL;
            v->real = x->real;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_TEXT:
            v->kind = TNY_WIRE_NODE_TEXT;
            rc = wire__dup(&v->text, x->text, diag);
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_RECORD:
        case TOURNEY__V1__RECORD_NODE__VALUE_LIST: {
            bool rec = x->value_case == TOURNEY__V1__RECORD_NODE__VALUE_RECORD;
            uint32_t n = rec ? x->record : x->list;
            v->kind = rec ? TNY_WIRE_NODE_RECORD : TNY_WIRE_NODE_LIST;
            if (n > (uint32_t)RECORDS_MAX_NODES)
                rc = wire__fail(diag, "%s.%s: %u children, more than %d", p,
                                rec ? "record" : "list", (unsigned)n,
                                RECORDS_MAX_NODES);
            v->n = (int32_t)(n > (uint32_t)RECORDS_MAX_NODES ? 0 : n);
            break;
        }
        default: rc = wire__fail(diag, "%s: no value", p); break;
        }
    }
    if (rc < 0)
        tny_wire_records_free(r);
    else
        *out = r;
    return rc;
}

/* ---- the payloads' table ----------------------------------------------- */

/* Each payload's codec with the table's types (the casts are the only
 * difference). */
#define PAYLOAD(field, T, PB, prefix)                                          \
    static int field##_check_any(const void *s, const char *p,                 \
                                 struct tny_diag *diag)                        \
    {                                                                          \
        /* Without paths; a refused one again with them (issue 17). */         \
        int rc = prefix##_check((const T *)s, p, NULL);                        \
        return rc < 0 && diag ? prefix##_check((const T *)s, p, diag) : rc;    \
    }                                                                          \
    static int field##_from_any(const void *m, const char *p, void **out,      \
                                struct tny_diag *diag)                         \
    {                                                                          \
        T *o = NULL;                                                           \
        int rc = prefix##_from_pb((const PB *)m, p, &o, diag);                 \
        *out = o;                                                              \
        return rc;                                                             \
    }                                                                          \
    static void *field##_to_any(const void *s)                                 \
    {                                                                          \
        return prefix##_to_pb((const T *)s);                                   \
    }                                                                          \
    static void field##_pb_free_any(void *m)                                   \
    {                                                                          \
        prefix##_pb_free((PB *)m);                                             \
    }                                                                          \
    static void field##_free_any(void *s)                                      \
    {                                                                          \
        tny_wire_##field##_free((T *)s);                                       \
    }
PAYLOAD(seating, struct tny_wire_seating, Tourney__V1__Seating, wire__seating)
PAYLOAD(standings, struct tny_wire_standings, Tourney__V1__Standings,
        wire__standings)
PAYLOAD(published, struct tny_wire_published, Tourney__V1__PublishSummary,
        wire__published)
PAYLOAD(records, struct tny_wire_records, Tourney__V1__Records, records)
#undef PAYLOAD

#define ROW(field)                                                             \
    {                                                                          \
#field, offsetof(struct tny_wire_reply, field),                        \
            offsetof(Tourney__V1__ConsoleReply, field), field##_check_any,     \
            field##_from_any, field##_to_any, field##_pb_free_any,             \
            field##_free_any                                                   \
    }
const struct wire__payload wire__payloads[] = {ROW(seating), ROW(standings),
                                               ROW(published), ROW(records)};
#undef ROW
const size_t wire__n_payloads =
    sizeof wire__payloads / sizeof wire__payloads[0];
