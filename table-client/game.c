/* game.c - a minimal engine event for one assigned table (see game.h).
 *
 * The event is built with the engine's builders (the preset, the options
 * the assignment implies, the seated players), and a typed result is read
 * by the engine's own JSON adapter for one result (tny_result_from_json)
 * and checked by tny_result_validate, so it goes through exactly the
 * parser and messages of `tourney` (docs/event-file.md).  Does not talk to
 * anything.
 */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "tny/format_options.h"
#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/simulate.h"

#include "text.h"

static int stage_index(const struct tny_format *fmt, enum tny_stage_kind k)
{
    for (int32_t s = 0; s < fmt->n_stages; s++)
        if (fmt->stages[s].kind == k)
            return s;
    return -1;
}

/* The preset for the assignment, adjusted to its stage. */
static int load_format(const struct tny_wire_assignment *a,
                       struct tny_format *fmt, struct tny_diag *diag)
{
    int rc;
    int s;

    rc = a->format_name[0] ? tny_format_preset(a->format_name, fmt, NULL)
                           : TNY_ENOTFOUND;
    if (rc < 0 || tny_game_flow(fmt->game) != a->game) {
        rc = tny_format_preset(tny_game_name(a->game), fmt, diag);
        if (rc < 0)
            return rc;
    }
    s = stage_index(fmt, a->stage);
    if (s < 0 && a->stage == TNY_STAGE_ROUND_ROBIN) {
        const struct tny_option_value rr = {.type = TNY_OPTION_NAME,
                                            .name = "round_robin"};
        if ((rc = tny_format_set_option(fmt, "pairing", &rr, "options", diag)) <
            0)
            return rc;
        s = stage_index(fmt, a->stage);
    }
    if (s < 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "assignment: format \"%s\" has no stage \"%s\"",
                            fmt->name, tny_stage_kind_name(a->stage));
    if (fmt->stages[s].kind == TNY_STAGE_ELIMINATION)
        fmt->stages[s].best_of_three = a->best_of_three;
    return TNY_OK;
}

/* The seated players in seat order, with the armies the format knows
 * (the wire decoder checked ids, names and sizes). */
static int add_players(const struct tny_wire_assignment *a,
                       struct tny_event *ev, struct tny_diag *diag)
{
    for (int32_t i = 0; i < a->n_seats; i++) {
        const struct tny_wire_seat *s = &a->seats[i];
        int32_t p;
        int rc = tny_event_add_player(ev, s->player_id,
                                      s->name[0] ? s->name : s->player_id, &p);
        if (rc < 0)
            return tny_diag_set(diag, rc, "out of memory");
        for (int32_t k = 0; ev->format.n_armies > 0 && k < s->n_armies; k++) {
            rc = tny_event_add_army(ev, p, s->armies[k]);
            if (rc < 0 && rc != TNY_ENOTFOUND) /* unknown: not checkable */
                return tny_diag_set(diag, rc, "seat %d: too many armies",
                                    (int)i);
        }
    }
    return TNY_OK;
}

int tbl_game_from_assignment(const struct tny_wire_assignment *a,
                             struct tbl_game *out, struct tny_diag *diag)
{
    int rc = TNY_OK;

    memset(out, 0, sizeof(*out));
    tny_event_init(&out->ev);
    if (a->table <= 0 || a->n_seats < 2) {
        rc = tny_diag_set(diag, TNY_EINVAL, "assignment: no table (idle)");
        goto out;
    }
    if ((rc = load_format(a, &out->ev.format, diag)) < 0 ||
        (rc = add_players(a, &out->ev, diag)) < 0)
        goto out;
    out->stage = a->stage;
    out->round = a->round;
    out->table.number = a->table;
    out->table.n_seats = a->n_seats;
    for (int32_t i = 0; i < a->n_seats; i++)
        out->table.seats[i] = i;
out:
    if (rc < 0)
        tbl_game_release(out);
    return rc;
}

void tbl_game_release(struct tbl_game *g)
{
    if (!g)
        return;
    tny_event_release(&g->ev);
    memset(g, 0, sizeof(*g));
    tny_event_init(&g->ev);
}

int tbl_game_parse_result(const struct tbl_game *g, const char *text,
                          struct tny_wire_result *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    json_t *result = NULL;
    struct tny_table t = g->table;

    memset(out, 0, sizeof(*out));
    if ((rc = tbl_text_result_json(text, &result, diag)) < 0 ||
        (rc = tny_result_from_json(&g->ev, &t, result, "result", &t.result,
                                   diag)) < 0)
        goto out;
    t.has_result = true;
    if ((rc = tny_result_validate(&g->ev, g->stage, &t, "result", diag)) < 0)
        goto out;
    rc = tny_wire_result_from_table(&g->ev, &t, out, diag);
out:
    json_decref(result);
    if (rc < 0)
        memset(out, 0, sizeof(*out));
    return rc;
}

int tbl_game_simulate(const struct tbl_game *g, struct tny_rng *rng,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    int rc;
    struct tny_table t = g->table;

    memset(out, 0, sizeof(*out));
    rc = tny_simulate_result(&g->ev, g->ev.n_rounds, g->stage, &t, rng, diag);
    if (rc < 0)
        return rc;
    return tny_wire_result_from_table(&g->ev, &t, out, diag);
}
