/* output_json.c - standings and round plans as the contract's JSON.
 *
 * Shapes are those of event-file.md "Output", plus optional keys only
 * (rows: "disqualified", "separate_list" when true, "sides" in a format
 * with sides; tables: "first_player" where the format draws a starting
 * player, "sides").  Key order is fixed by the
 * order of the set calls below; numbers print as integers when whole.
 */
#include "tny/json_io.h"

#include "io_internal.h"

static json_t *row_json(const struct tny_event *ev,
                        const struct tny_standings *st,
                        const struct tny_standing_row *row)
{
    const struct tny_player *pl = &ev->players[row->player];
    json_t *o = json_object(), *tb = json_object();
    bool ok = o && tb;
    ok = ok && tny__set(o, "rank", json_integer(row->rank));
    ok = ok && tny__set(o, "player", json_string(pl->id));
    ok = ok && tny__set(o, "name", json_string(pl->name));
    ok = ok && tny__set(o, "points", tny_json_points(row->points));
    for (int32_t i = 0; ok && i < st->n_tiebreaks; i++)
        ok = tny__set(tb, tny_tiebreak_name(st->tiebreaks[i]),
                      row->has_tiebreak[i] ? tny__number(row->tiebreaks[i])
                                           : json_null());
    if (ok) {
        ok = tny__set(o, "tiebreaks", tb);
        tb = NULL;
    }
    ok = ok && tny__set(o, "dropped", json_boolean(row->dropped));
    ok = ok && tny__set(o, "decided_by_lot", json_boolean(row->decided_by_lot));
    if (row->disqualified)
        ok = ok && tny__set(o, "disqualified", json_true());
    if (row->separate_list)
        ok = ok && tny__set(o, "separate_list", json_true());
    if (ev->format.n_sides == 2) { /* issue 19: games played on each side */
        int32_t n[2] = {0, 0};
        for (int32_t r = 0; r < st->after_round && r < ev->n_rounds; r++)
            for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
                const struct tny_table *x = &ev->rounds[r].tables[t];
                int32_t k = tny_table_seat_of(x, row->player);
                if (x->has_sides && !x->is_bye && k >= 0)
                    n[x->side[k] & 1]++;
            }
        ok = ok && tny__set(o, "sides",
                            json_pack("{sisi}", ev->format.sides[0], n[0],
                                      ev->format.sides[1], n[1]));
    }
    json_decref(tb);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int tny_standings_to_json(const struct tny_event *ev,
                          const struct tny_standings *st, char **out)
{
    json_t *o = json_object(), *rows = json_array();
    bool ok = o && rows;
    int rc = TNY_ENOMEM;
    *out = NULL;
    ok = ok && tny__set(o, "after_round", json_integer(st->after_round));
    ok =
        ok && tny__set(o, "stage", json_string(tny_stage_kind_name(st->stage)));
    for (int32_t i = 0; ok && i < st->n_rows; i++)
        ok = tny__append(rows, row_json(ev, st, &st->rows[i]));
    if (ok) {
        ok = tny__set(o, "standings", rows);
        rows = NULL;
    }
    if (ok)
        rc = tny__dump(o, out);
    json_decref(rows);
    json_decref(o);
    return rc;
}

static json_t *plan_table_json(const struct tny_event *ev,
                               const struct tny_pairing_table *t)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    if (t->is_bye) {
        ok = ok && tny__set(o, "bye", json_string(ev->players[t->seats[0]].id));
    } else {
        json_t *ps = json_array();
        for (int32_t s = 0; ps && s < t->n_seats; s++)
            if (!tny__append(ps, json_string(ev->players[t->seats[s]].id))) {
                json_decref(ps);
                ps = NULL;
            }
        ok = ok && tny__set(o, "table", json_integer(t->number));
        ok = ok && tny__set(o, "players", ps);
        if (t->has_sides && ev->format.n_sides == 2 && t->n_seats == 2)
            ok = ok &&
                 tny__set(o, "sides",
                          json_pack("[ss]", ev->format.sides[t->side[0] & 1],
                                    ev->format.sides[t->side[1] & 1]));
        if (t->first_seat >= 0 && t->first_seat < t->n_seats)
            ok = ok &&
                 tny__set(o, "first_player",
                          json_string(ev->players[t->seats[t->first_seat]].id));
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int tny_round_plan_to_json(const struct tny_event *ev,
                           const struct tny_round_plan *plan, char **out)
{
    json_t *o = json_object(), *tabs = json_array();
    bool ok = o && tabs;
    int rc = TNY_ENOMEM;
    *out = NULL;
    ok = ok && tny__set(o, "round", json_integer(plan->round));
    ok = ok &&
         tny__set(o, "stage", json_string(tny_stage_kind_name(plan->stage)));
    for (int32_t i = 0; ok && i < plan->n_tables; i++)
        ok = tny__append(tabs, plan_table_json(ev, &plan->tables[i]));
    if (ok) {
        ok = tny__set(o, "tables", tabs);
        tabs = NULL;
    }
    ok = ok && tny__set(o, "explain",
                        json_string(plan->explain ? plan->explain : ""));
    if (ok)
        rc = tny__dump(o, out);
    json_decref(tabs);
    json_decref(o);
    return rc;
}
