/* lots.c - the event's lots written out for an appeal (lots.h). */
#include "tny/lots.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/agricola.h"
#include "tny/rng.h"
#include "tny/standings.h"

struct buf {
    char *s;
    size_t len, cap;
    bool failed;
};

static void add(struct buf *b, const char *fmt, ...) TNY_PRINTF(2, 3);
static void add(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (int pass = 0; pass < 2 && !b->failed; pass++) {
        va_start(ap, fmt);
        int w = vsnprintf(b->s ? b->s + b->len : NULL,
                          b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
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
    const struct tny_format *fmt = &ev->format;
    bool first_of_stage = true;
    for (int32_t k = 0; k < r0; k++)
        first_of_stage &= ev->rounds[k].stage != round->stage;
    const char *what = NULL;
    if (r0 == 0 && fmt->game == TNY_GAME_AGRICOLA)
        what = "AG-3 seeding lot (purpose seeding) and seating lot";
    else if (r0 == 0 && round->stage == TNY_STAGE_ELIMINATION)
        what = "GT-8 byes and game numbers by lot (purpose bracket)";
    else if (r0 == 0 && fmt->game == TNY_GAME_CATAN)
        what = "CT-2 round-1 tables by lot (purpose pairing); CT-1 bye by lot";
    else if (r0 == 0)
        what = "round-1 pairings by lot (purpose pairing), a bye by lot "
               "(purpose bye)";
    else if (first_of_stage && round->stage == TNY_STAGE_FINAL)
        what = NULL; /* AG-11: by rank, no lot */
    if (!what && fmt->game == TNY_GAME_AGRICOLA)
        what = "AG-4 seating order by lot (purpose seats)";
    if (what) {
        add(b, "round %d (%s): %s, round %d stream; as drawn:\n", (int)r0 + 1,
            tny_stage_kind_name(round->stage), what, (int)r0 + 1);
        tables_as_drawn(b, ev, round);
    }
    if (fmt->game == TNY_GAME_AGRICOLA) {
        /* AG-4: the hub's starting-player lot follows each table's seat
         * lot in the round's seats stream (pair.c draws them in table
         * order); the seat lot's draws do not depend on who sits there. */
        struct tny_rng seats;
        tny_rng_derive(&seats, ev->seed, TNY_LOT_SEATS, (uint32_t)r0 + 1);
        add(b, "round %d: AG-4 starting player by lot (purpose seats):",
            (int)r0 + 1);
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            int32_t any[4] = {0, 1, 2, 3};
            if (tb->is_bye || tb->n_seats != 4)
                continue;
            tny_ag_seat_lot(&seats, any);
            int32_t first = tny_ag_starting_player(&seats);
            add(b, " table %d %s;", (int)tb->number,
                ev->players[tb->seats[first]].id);
        }
        add(b, "\n");
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
