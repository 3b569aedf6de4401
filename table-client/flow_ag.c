/* flow_ag.c - Agricola table flows (AG-1, AG-4, AG-14, AG-15).
 *
 * PREGAME: the seat order (before the draft, seed S1), the notes (the
 * assignment's, else the format's: the preset's banned cards and draft
 * steps, AG-15), then the starting player after the draft (the hub's lot,
 * from the assignment's first_player seat; the table's own lot when the
 * assignment has none) with the round-5 food reminder for the 4th player.
 * TIMEOUT: the format's AG-14 text.  RESULT: VP, IP and BP per seat within the
 * format's ranges.
 *
 * Not here: the timers (tablewatch.c), TP and relative scores (score.c).
 * [decision] Play goes round in seat-number order: the player "to the
 * right" of seat k is seat k+1.
 */
#include "flow_kit.h"
#include "i18n.h"

static int32_t starting_seat(const struct tbl_flow_run *r)
{
    for (int32_t s = 0; s < r->n_seats; s++)
        if (r->f->a->seats[s].first_player)
            return s;
    return -1;
}

static void pregame(struct tbl_flow_run *r)
{
    const struct tny_wire_assignment *a = r->f->a;
    int32_t start = starting_seat(r), last, n_notes;
    bool lot = start < 0;

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Seats (AG-4)");
    tbl_flow__text(r, "A lot decided the seating order:");
    for (int32_t s = 0; s < r->n_seats; s++)
        tbl_flow__text(r, "\nSeat %d: %s", (int)s + 1, tbl_flow__name(r, s));
    if (!tbl_flow__info(r))
        return;
    /* AG-15: banned cards and the draft, before the starting player (seed
     * S1: "etter draft, før spillet starter"). */
    n_notes = a->n_notes > 0 ? a->n_notes : r->fmt->n_notes;
    for (int32_t i = 0; i < n_notes && i < TNY_MAX_NOTES; i++) {
        tbl_flow__step(r, TBL_ASK_INFO, -1, "Note %d/%d (AG-15)", (int)i + 1,
                       (int)n_notes);
        tbl_flow__text(
            r, "%s",
            tbl_i18n_data(a->n_notes > 0 ? a->notes[i] : r->fmt->notes[i]));
        if (!tbl_flow__info(r))
            return;
    }
    if (lot) {
        start = (int32_t)tny_rng_below(&r->rng, (uint64_t)r->n_seats);
        tbl_flow__lot(r, "AG-4 starting player by the table's lot: %s",
                      tbl_flow__name(r, start));
    }
    last = (start + r->n_seats - 1) % r->n_seats;
    tbl_flow__step(r, TBL_ASK_INFO, -1, "Starting player (AG-4)");
    tbl_flow__text(r, "After the draft %s starts (%s). Then, to the right:",
                   tbl_flow__name(r, start),
                   lot ? _("the table's lot") : _("the hub's lot"));
    for (int32_t k = 1; k < r->n_seats; k++)
        tbl_flow__text(r, " %s%s", tbl_flow__name(r, (start + k) % r->n_seats),
                       k + 1 < r->n_seats ? "," : ".");
    tbl_flow__text(r,
                   "\n%s plays last and gets 1 extra food at the start of "
                   "round 5.",
                   tbl_flow__name(r, last));
    r->f->carry.has_starter = true;
    r->f->carry.starter = start;
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r, "%s starts after the draft (%s, AG-4)",
                   tbl_flow__name(r, start),
                   lot ? _("table's lot") : _("hub's lot"));
    tbl_flow__line(r, "%s: 1 extra food at the start of round 5 (AG-4)",
                   tbl_flow__name(r, last));
    tbl_flow__summary_step(r, "Before the game");
}

static void timeout(struct tbl_flow_run *r)
{
    int64_t action_ms = r->f->a->action_ms > 0
                            ? r->f->a->action_ms
                            : (int64_t)r->fmt->action_seconds * 1000;

    tbl_flow__step(r, TBL_ASK_INFO, -1, "Time is up: speed play (AG-14)");
    tbl_flow__text(r, "%s", tbl_flow__procedure(r));
    if (!tbl_flow__info(r))
        return;
    tbl_flow__line(r,
                   "Speed play: %lld s per action, the turn passes when "
                   "time runs out (AG-14)",
                   (long long)(action_ms / 1000));
    tbl_flow__summary_step(r, "Time-out");
}

/* One AG-1 value of seat p. */
static bool ask_value(struct tbl_flow_run *r, int32_t p, const char *what,
                      enum tny_result_field f, int32_t *v)
{
    tbl_flow__step(r, TBL_ASK_NUMBER, p, "%s (seat %d): %s",
                   tbl_flow__name(r, p), (int)p + 1, what);
    tbl_flow__field_range(r, f);
    tbl_flow__text(r, "AG-1: %s, %d..%d.", what, (int)r->st.min,
                   (int)r->st.max);
    return tbl_flow__ask(r, v);
}

static void result(struct tbl_flow_run *r)
{
    struct tny_table t;
    struct tny_result *res = &t.result;

    tbl_flow__table_init(r, &t);
    for (int32_t p = 0; p < r->n_seats; p++)
        if (!ask_value(r, p, _("victory points (VP)"), TNY_RF_VP,
                       &res->score[p]) ||
            !ask_value(r, p, _("improvement points (IP)"), TNY_RF_IP,
                       &res->ip[p]) ||
            !ask_value(r, p, _("bonus points (BP)"), TNY_RF_BP, &res->bp[p]))
            return;
    res->has_score = true;
    if (!tbl_flow__finish_result(r, &t))
        return;
    for (int32_t p = 0; p < r->n_seats; p++)
        tbl_flow__line(r, "%s: %d VP, %d IP, %d BP (place %d)",
                       tbl_flow__name(r, p), (int)res->score[p],
                       (int)res->ip[p], (int)res->bp[p],
                       (int)tbl_flow__place(res, r->n_seats, p));
    tbl_flow__summary_step(r, "Result: check, then confirm");
}

void tbl_flow__ag(struct tbl_flow_run *r)
{
    switch (r->f->kind) {
    case TBL_FLOW_PREGAME: pregame(r); break;
    case TBL_FLOW_TIMEOUT: timeout(r); break;
    case TBL_FLOW_RESULT: result(r); break;
    }
}
