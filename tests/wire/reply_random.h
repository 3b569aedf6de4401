/* reply_random.h - random typed console replies (seating, standings,
 * publish summary) that the reply's check accepts, for test_wire.c's
 * round-trip property (issue 18 item 3).  Each is malloc'd as a decode
 * makes it (free with tny_wire_*_free); every value the wire does not
 * carry is left zero, so that a decoded copy compares equal. */
#ifndef TNY_TEST_REPLY_RANDOM_H
#define TNY_TEST_REPLY_RANDOM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/rng.h"
#include "tny/wire.h"

static int64_t rr_in(struct tny_rng *g, int64_t lo, int64_t hi)
{
    return lo + (int64_t)tny_rng_below(g, (uint64_t)(hi - lo) + 1);
}

static bool rr_coin(struct tny_rng *g)
{
    return tny_rng_below(g, 2) == 0;
}

/* A text of the event: ASCII, Polish, an escape, a CJK name; required
 * ones non-empty. */
static char *rr_text(struct tny_rng *g, bool required)
{
    static const char *const words[] = {"p1",
                                        "Anna",
                                        "\u0141ukasz \u0106wik",
                                        "Dan \x1b[31mLi",
                                        "\u5f20\u4f1f",
                                        "table-001",
                                        "Corp",
                                        "Runner",
                                        "a\nb",
                                        "x"};
    char buf[64];
    int n = (int)rr_in(g, required ? 1 : 0, 3);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        strcat(buf, words[tny_rng_below(g, sizeof words / sizeof words[0])]);
        if (i + 1 < n)
            strcat(buf, " ");
    }
    char *s = strdup(buf);
    if (!s)
        abort();
    return s;
}

static struct tny_wire_time_left rr_clock(struct tny_rng *g)
{
    struct tny_wire_time_left c = {0};
    if (rr_coin(g))
        return c;
    c.has = true;
    c.state = (enum tny_round_clock_state)rr_in(g, TNY_ROUND_CLOCK_READY,
                                                TNY_ROUND_CLOCK_PAUSED);
    c.left_ms = rr_in(g, -TNY_CLOCK_MAX_INSTANT_MS, TNY_CLOCK_MAX_INSTANT_MS);
    return c;
}

static struct tny_wire_seating *rr_seating(struct tny_rng *g)
{
    bool republished = tny_rng_below(g, 8) == 0;
    int32_t nt = republished ? 0 : (int32_t)rr_in(g, 0, 6);
    int32_t nn = republished ? 0 : (int32_t)rr_in(g, 0, 6);
    struct tny_wire_seating *s = tny_wire_seating_new(nt, nn);
    if (!s)
        abort();
    s->round = (int32_t)rr_in(g, 1, 10000);
    if ((s->has_stage = rr_coin(g)))
        s->stage = (enum tny_stage_kind)rr_in(g, TNY_STAGE_SWISS,
                                              TNY_STAGE_ROUND_ROBIN);
    s->status = (enum tny_wire_round_status)rr_in(g, TNY_WIRE_ROUND_NONE,
                                                  TNY_WIRE_ROUND_CLOSED);
    s->clock = rr_clock(g);
    for (int32_t i = 0; i < nt; i++) {
        struct tny_wire_seated_table *t = &s->tables[i];
        if (tny_rng_below(g, 5) == 0) { /* a bye */
            t->n_players = 1;
            t->players[0] = rr_text(g, true);
            continue;
        }
        t->table = (int32_t)rr_in(g, 1, 100000);
        t->n_players = (int32_t)rr_in(g, 1, TNY_MAX_SEATS);
        for (int32_t k = 0; k < t->n_players; k++)
            t->players[k] = rr_text(g, true);
        if (rr_coin(g)) {
            t->n_sides = 2;
            t->sides[0] = rr_text(g, true);
            t->sides[1] = rr_text(g, true);
        }
        if (rr_coin(g))
            t->first_player = rr_text(g, false);
        t->clock = rr_clock(g);
    }
    if (!republished && s->status == TNY_WIRE_ROUND_NONE && rr_coin(g))
        s->explain = rr_text(g, false);
    for (int32_t i = 0; i < nn; i++) {
        s->names[i].id = rr_text(g, true);
        if (rr_coin(g))
            s->names[i].name = rr_text(g, false);
    }
    s->republished = republished;
    return s;
}

static struct tny_wire_standings *rr_standings(struct tny_rng *g)
{
    int32_t nr = (int32_t)rr_in(g, 0, 6);
    struct tny_wire_standings *s = tny_wire_standings_new(nr);
    if (!s)
        abort();
    s->after_round = (int32_t)rr_in(g, 0, 10000);
    s->stage =
        (enum tny_stage_kind)rr_in(g, TNY_STAGE_SWISS, TNY_STAGE_ROUND_ROBIN);
    s->n_tiebreaks = (int32_t)rr_in(g, 0, TNY_MAX_TIEBREAKS);
    for (int32_t k = 0; k < s->n_tiebreaks; k++)
        for (;;) { /* one with a name (the wire carries names) */
            enum tny_tiebreak tb, back;
            tb = (enum tny_tiebreak)rr_in(g, 0, TNY_TB_COUNT_ - 1);
            const char *name = tny_tiebreak_name(tb);
            if (name && tny_tiebreak_from_name(name, &back) == 0 &&
                back == tb) {
                s->tiebreaks[k] = tb;
                break;
            }
        }
    if (rr_coin(g)) {
        s->n_sides = 2;
        s->sides[0] = rr_text(g, true);
        s->sides[1] = rr_text(g, true);
    }
    for (int32_t i = 0; i < nr; i++) {
        struct tny_wire_standing_row *r = &s->rows[i];
        r->rank = (int32_t)rr_in(g, 1, 400000);
        r->player = rr_text(g, true);
        if (rr_coin(g))
            r->name = rr_text(g, false);
        r->points_units = (int64_t)tny_rng_next(g);
        for (int32_t k = 0; k < s->n_tiebreaks; k++)
            if ((r->has_tiebreak[k] = rr_coin(g)))
                r->tiebreaks[k] = (double)rr_in(g, -100000, 100000) / 8.0;
        r->dropped = rr_coin(g);
        r->decided_by_lot = rr_coin(g);
        r->disqualified = rr_coin(g);
        r->separate_list = rr_coin(g);
        for (int k = 0; s->n_sides && k < 2; k++)
            r->side_games[k] = (int32_t)rr_in(g, 0, INT32_MAX);
    }
    return s;
}

static struct tny_wire_published *rr_published(struct tny_rng *g)
{
    struct tny_wire_published *p = tny_wire_published_new(
        (int32_t)rr_in(g, 0, 5), (int32_t)rr_in(g, 0, 5));
    if (!p)
        abort();
    p->round = (int32_t)rr_in(g, 1, 10000);
    for (int32_t i = 0; i < p->n_assigned; i++) {
        p->tables[i] = (int32_t)rr_in(g, 1, 100000);
        p->devices[i] = rr_text(g, true);
    }
    for (int32_t i = 0; i < p->n_missing; i++)
        p->missing[i] = (int32_t)rr_in(g, 1, 100000);
    if (rr_coin(g))
        p->idle_devices = (int32_t)rr_in(g, 0, INT32_MAX);
    return p;
}

#endif
