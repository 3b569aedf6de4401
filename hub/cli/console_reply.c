/* console_reply.c - the typed replies of the console protocol (issue 18
 * item 3) as the command line's --json prints them: the JSON text is
 * written here, at the edge, from the typed values (proto/include/tny/
 * wire.h), byte for byte what the hub sent as JSON text before replies
 * were typed (bench/compare_outputs.sh compares them).  And the lookups
 * the printers need (a player's name in a seating).
 *
 * Not here: printing for people (console.c), the wire (proto/).
 */
#include "console_internal.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* {"state": "running", "left_ms": 2640000} */
static json_t *time_left_json(const struct tny_wire_time_left *c)
{
    static const char *const names[] = {"ready", "running", "paused"};
    return json_pack("{s:s, s:I}", "state",
                     c->state <= TNY_ROUND_CLOCK_PAUSED ? names[c->state] : "?",
                     "left_ms", (json_int_t)c->left_ms);
}

static bool set(json_t *o, const char *key, json_t *v)
{
    return v && json_object_set_new(o, key, v) == 0;
}

static json_t *table_json(const struct tny_wire_seated_table *t)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    if (ok && t->clock.has)
        ok = set(o, "clock", time_left_json(&t->clock));
    if (ok && t->table == 0)
        return set(o, "bye", json_string(t->players[0])) ? o : NULL;
    ok = ok && set(o, "table", json_integer(t->table));
    json_t *ps = ok ? json_array() : NULL;
    for (int32_t k = 0; ps && k < t->n_players; k++)
        if (json_array_append_new(ps, json_string(t->players[k])) < 0) {
            json_decref(ps);
            ps = NULL;
        }
    ok = ok && set(o, "players", ps);
    if (ok && t->n_sides == 2)
        ok = set(o, "sides", json_pack("[ss]", t->sides[0], t->sides[1]));
    if (ok && t->first_player)
        ok = set(o, "first_player", json_string(t->first_player));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static const char *round_status_name(enum tny_wire_round_status s)
{
    static const char *const names[] = {"", "draft", "published", "started",
                                        "closed"};
    return s <= TNY_WIRE_ROUND_CLOSED ? names[s] : "?";
}

char *hub_console_seating_json(const struct tny_wire_seating *s)
{
    json_t *o = json_object();
    char *text = NULL;
    bool ok = o && set(o, "round", json_integer(s->round));
    if (s->republished) { /* an edited published round: the short form */
        ok = ok && set(o, "republished", json_true());
        text = ok ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
        json_decref(o);
        return text;
    }
    if (ok && s->has_stage)
        ok = set(o, "stage", json_string(tny_stage_kind_name(s->stage)));
    if (ok && s->status != TNY_WIRE_ROUND_NONE)
        ok = set(o, "status", json_string(round_status_name(s->status)));
    if (ok && s->clock.has)
        ok = set(o, "clock", time_left_json(&s->clock));
    json_t *tables = ok ? json_array() : NULL;
    for (int32_t i = 0; tables && i < s->n_tables; i++)
        if (json_array_append_new(tables, table_json(&s->tables[i])) < 0) {
            json_decref(tables);
            tables = NULL;
        }
    ok = ok && set(o, "tables", tables);
    if (ok && s->explain)
        ok = set(o, "explain", json_string(s->explain));
    json_t *names = ok ? json_object() : NULL;
    for (int32_t i = 0; names && i < s->n_names; i++)
        if (json_object_set_new(
                names, s->names[i].id,
                json_string(s->names[i].name ? s->names[i].name : "")) < 0) {
            json_decref(names);
            names = NULL;
        }
    ok = ok && set(o, "names", names);
    if (ok)
        text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

const char *hub_console_seating_name(const struct tny_wire_seating *s,
                                     const char *id)
{
    const char *name = NULL;
    for (int32_t i = 0; id && i < s->n_names; i++)
        if (strcmp(s->names[i].id, id) == 0)
            name = s->names[i].name; /* the last, as a JSON object's key */
    return name;
}
