/* lots.c - the event's lots written out for an appeal (lots.h). */
#include "tny/lots.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/game.h"
#include "tny/rng.h"
#include "tny/standings.h"

struct buf {
    char *s;
    size_t len, cap;
    bool failed;
};

static void vadd(struct buf *b, const char *fmt, va_list ap)
{
    va_list again;
    for (int pass = 0; pass < 2 && !b->failed; pass++) {
        va_copy(again, ap);
        int w = vsnprintf(b->s ? b->s + b->len : NULL,
                          b->s ? b->cap - b->len : 0, fmt, again);
        va_end(again);
        if (w < 0) {
            b->failed = true;
            return;
        }
        if (b->s && b->len + (size_t)w < b->cap) {
            b->len += (size_t)w;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)w;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->s = grown;
        b->cap = cap;
    }
}

static void add(struct buf *b, const char *fmt, ...) TNY_PRINTF(2, 3);
static void add(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(b, fmt, ap);
    va_end(ap);
}

/* A module's lines (game.h round_lots_extra) into the buffer. */
static void sink_add(void *ctx, const char *fmt, ...) TNY_PRINTF(2, 3);
static void sink_add(void *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(ctx, fmt, ap);
    va_end(ap);
}

static void tables_as_drawn(struct buf *b, const struct tny_event *ev,
                            const struct tny_round *round)
{
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye) {
            add(b, "    bye: %s\n", ev->players[tb->seats[0]].id);
            continue;
        }
        add(b, "    table %d:", (int)tb->number);
        for (int32_t s = 0; s < tb->n_seats; s++)
            add(b, " %s", ev->players[tb->seats[s]].id);
        add(b, "\n");
    }
}

/* The lots that decided round r0's seating, by format and round. */
static void round_lots(struct buf *b, const struct tny_event *ev, int32_t r0)
{
    const struct tny_round *round = &ev->rounds[r0];
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    bool first_of_stage = true;
    for (int32_t k = 0; k < r0; k++)
        first_of_stage &= ev->rounds[k].stage != round->stage;
    /* The game's own words first (game.h round_lots_what), then the
     * generic ones. */
    const char *what = ops && ops->round_lots_what
                           ? ops->round_lots_what(ev, r0, first_of_stage)
                           : NULL;
    if (!what && r0 == 0 && round->stage == TNY_STAGE_ELIMINATION)
        what = "GT-8 byes and game numbers by lot (purpose bracket)";
    else if (!what && r0 == 0)
        what = "round-1 pairings by lot (purpose pairing), a bye by lot "
               "(purpose bye)";
    if (what) {
        add(b, "round %d (%s): %s, round %d stream; as drawn:\n", (int)r0 + 1,
            tny_stage_kind_name(round->stage), what, (int)r0 + 1);
        tables_as_drawn(b, ev, round);
    }
    if (ops && ops->round_lots_extra) {
        const struct tny_text_sink sink = {sink_add, b};
        ops->round_lots_extra(ev, r0, &sink);
    }
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye || !tb->has_result)
            continue;
        for (int32_t l = 0; l < tb->result.n_lots; l++)
            add(b, "round %d table %d (drawn at the table): %s\n", (int)r0 + 1,
                (int)tb->number, tb->result.lots[l]);
    }
}

int tny_lots_text(const struct tny_event *ev, char **out, struct tny_diag *diag)
{
    struct buf b = {0};
    struct tny_standings st = {0};
    int32_t *order = NULL;
    int rc;
    *out = NULL;
    add(&b,
        "event seed %llu (CM-4): every lot below is a stream of this "
        "generator, one per purpose and round, and is reproduced from the "
        "event file\n",
        (unsigned long long)ev->seed);
    for (int32_t r = 0; r < ev->n_rounds; r++)
        round_lots(&b, ev, r);
    if ((rc = tny_standings_compute(ev, &st, diag)) < 0)
        goto out;
    order = malloc(sizeof(*order) * (size_t)(ev->n_players + 1));
    if (!order) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "lots: out of memory");
        goto out;
    }
    tny_standings_lot_order(ev, order);
    add(&b, "tiebreak lot (purpose tiebreak, CM-8), luckiest first:");
    for (int32_t i = 0; i < ev->n_players; i++)
        add(&b, " %s", ev->players[order[i]].id);
    add(&b, "\n");
    for (int32_t i = 0; i + 1 < st.n_rows; i++)
        if (st.rows[i].decided_by_lot)
            add(&b,
                "  standings: %s above %s by the lot (tied on every "
                "other criterion)\n",
                ev->players[st.rows[i].player].id,
                ev->players[st.rows[i + 1].player].id);
    if (b.failed) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "lots: out of memory");
        goto out;
    }
    *out = b.s;
    b.s = NULL;
    rc = TNY_OK;
out:
    free(b.s);
    free(order);
    tny_standings_release(&st);
    return rc;
}
