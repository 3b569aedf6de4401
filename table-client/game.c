/* game.c - a minimal engine event for one assigned table (see game.h).
 *
 * The event is written as event-file JSON and parsed by the engine's own
 * JSON adapter, so a typed result goes through exactly the parser and
 * messages of `tourney` (docs/event-file.md).  Does not talk to anything.
 */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/simulate.h"

#include "text.h"

#define RESULT_PATH "event.rounds[0].tables[0].result"

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
    if (rc < 0 || fmt->game != a->game) {
        rc = tny_format_preset(tny_game_name(a->game), fmt, diag);
        if (rc < 0)
            return rc;
    }
    s = stage_index(fmt, a->stage);
    if (s < 0 && a->stage == TNY_STAGE_ROUND_ROBIN) {
        json_t *opts = json_pack("{s:s}", "pairing", "round_robin");
        if (!opts)
            return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        rc = tny_format_apply_options(fmt, opts, "options", diag);
        json_decref(opts);
        if (rc < 0)
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

static json_t *players_json(const struct tny_wire_assignment *a,
                            const struct tny_format *fmt)
{
    json_t *arr = json_array();

    if (!arr)
        return NULL;
    for (int32_t i = 0; i < a->n_seats; i++) {
        const struct tny_wire_seat *s = &a->seats[i];
        json_t *p = json_pack("{s:s,s:s}", "id", s->player_id, "name",
                              s->name[0] ? s->name : s->player_id);
        if (!p || json_array_append_new(arr, p) != 0)
            goto fail;
        if (fmt->n_armies > 0 && s->n_armies > 0) {
            json_t *armies = json_array();
            if (!armies || json_object_set_new(p, "armies", armies) != 0)
                goto fail;
            for (int32_t k = 0; k < s->n_armies; k++) {
                if (tny_format_army_index(fmt, s->armies[k]) < 0)
                    continue; /* unknown to the preset: not checkable */
                if (json_array_append_new(armies, json_string(s->armies[k])) !=
                    0)
                    goto fail;
            }
            if (json_array_size(armies) == 0)
                json_object_del(p, "armies");
        }
    }
    return arr;
fail:
    json_decref(arr);
    return NULL;
}

int tbl_game_from_assignment(const struct tny_wire_assignment *a,
                             struct tbl_game *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct tny_format fmt;
    char *fmt_text = NULL;
    json_t *fmt_json = NULL, *players = NULL;

    memset(out, 0, sizeof(*out));
    tny_event_init(&out->ev);
    if (a->table <= 0 || a->n_seats < 2) {
        rc = tny_diag_set(diag, TNY_EINVAL, "assignment: no table (idle)");
        goto out;
    }
    if ((rc = load_format(a, &fmt, diag)) < 0)
        goto out;
    if ((rc = tny_format_to_json(&fmt, &fmt_text)) < 0) {
        tny_diag_set(diag, rc, "out of memory");
        goto out;
    }
    fmt_json = json_loads(fmt_text, 0, NULL);
    players = players_json(a, &fmt);
    out->base = json_object();
    if (!fmt_json || !players || !out->base ||
        json_object_set(out->base, "format", fmt_json) != 0 ||
        json_object_set(out->base, "players", players) != 0) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = tny_event_from_json(out->base, &out->ev, diag)) < 0)
        goto out;
    out->stage = a->stage;
    out->round = a->round;
    out->table.number = a->table;
    out->table.n_seats = a->n_seats;
    for (int32_t i = 0; i < a->n_seats; i++)
        out->table.seats[i] = i;
out:
    free(fmt_text);
    json_decref(fmt_json);
    json_decref(players);
    if (rc < 0)
        tbl_game_release(out);
    return rc;
}

void tbl_game_release(struct tbl_game *g)
{
    if (!g)
        return;
    tny_event_release(&g->ev);
    json_decref(g->base);
    memset(g, 0, sizeof(*g));
    tny_event_init(&g->ev);
}

/* "event.rounds[0].tables[0].result..." -> "result..." in diag. */
static void shorten_path(struct tny_diag *diag)
{
    const size_t n = sizeof(RESULT_PATH) - 1, k = sizeof("result") - 1;

    if (!diag || strncmp(diag->msg, RESULT_PATH, n) != 0)
        return;
    memmove(diag->msg + k, diag->msg + n, strlen(diag->msg + n) + 1);
    memcpy(diag->msg, "result", k);
}

int tbl_game_parse_result(const struct tbl_game *g, const char *text,
                          struct tny_wire_result *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    json_t *result = NULL, *root = NULL, *ids = NULL, *rounds = NULL;
    struct tny_event ev;
    bool have_ev = false;

    tny_event_init(&ev);
    memset(out, 0, sizeof(*out));
    if ((rc = tbl_text_result_json(text, &result, diag)) < 0)
        goto out;
    root = json_deep_copy(g->base);
    ids = json_array();
    if (!root || !ids) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    for (int32_t i = 0; i < g->ev.n_players; i++)
        if (json_array_append_new(ids, json_string(g->ev.players[i].id)))
            goto nomem;
    rounds = json_pack("[{s:s,s:[{s:i,s:O,s:O}]}]", "stage",
                       tny_stage_kind_name(g->stage), "tables", "table",
                       (int)g->table.number, "players", ids, "result", result);
    if (!rounds || json_object_set_new(root, "rounds", rounds) != 0)
        goto nomem;
    if ((rc = tny_event_from_json(root, &ev, diag)) < 0) {
        shorten_path(diag);
        goto out;
    }
    have_ev = true;
    if (ev.n_rounds != 1 || ev.rounds[0].n_tables != 1) {
        rc = tny_diag_set(diag, TNY_EINVAL, "result: not a table result");
        goto out;
    }
    if ((rc = tny_result_validate(&ev, g->stage, &ev.rounds[0].tables[0],
                                  "result", diag)) < 0)
        goto out;
    rc = tny_wire_result_from_table(&ev, &ev.rounds[0].tables[0], out, diag);
    goto out;
nomem:
    rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
out:
    if (have_ev)
        tny_event_release(&ev);
    json_decref(result);
    json_decref(root);
    json_decref(ids);
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
