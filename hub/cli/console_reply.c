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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h" /* tny_json_points */

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

/* A tiebreak's value as tny_standings_to_json writes it: whole values as
 * integers. */
static json_t *tiebreak_json(bool has, double v)
{
    if (!has)
        return json_null();
    if (fabs(v) < 9007199254740992.0 && v == floor(v))
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *standing_row_json(const struct tny_wire_standings *s,
                                 const struct tny_wire_standing_row *r)
{
    json_t *o = json_object(), *tb = json_object();
    bool ok = o && tb;
    ok = ok && set(o, "rank", json_integer(r->rank));
    ok = ok && set(o, "player", json_string(r->player));
    ok = ok && set(o, "name", json_string(r->name ? r->name : ""));
    ok = ok && set(o, "points", tny_json_points(r->points_units));
    for (int32_t k = 0; ok && k < s->n_tiebreaks; k++)
        ok = set(tb, tny_tiebreak_name(s->tiebreaks[k]),
                 tiebreak_json(r->has_tiebreak[k], r->tiebreaks[k]));
    if (ok) {
        ok = set(o, "tiebreaks", tb);
        tb = NULL;
    }
    ok = ok && set(o, "dropped", json_boolean(r->dropped));
    ok = ok && set(o, "decided_by_lot", json_boolean(r->decided_by_lot));
    if (ok && r->disqualified)
        ok = set(o, "disqualified", json_true());
    if (ok && r->separate_list)
        ok = set(o, "separate_list", json_true());
    if (ok && s->n_sides == 2) /* issue 19: games played on each side */
        ok = set(o, "sides",
                 json_pack("{sisi}", s->sides[0], (int)r->side_games[0],
                           s->sides[1], (int)r->side_games[1]));
    json_decref(tb);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *hub_console_standings_json(const struct tny_wire_standings *s)
{
    json_t *o = json_object(), *rows = json_array();
    char *text = NULL;
    bool ok = o && rows;
    ok = ok && set(o, "after_round", json_integer(s->after_round));
    ok = ok && set(o, "stage", json_string(tny_stage_kind_name(s->stage)));
    for (int32_t i = 0; ok && i < s->n_rows; i++)
        ok =
            json_array_append_new(rows, standing_row_json(s, &s->rows[i])) == 0;
    if (ok) {
        ok = set(o, "standings", rows);
        rows = NULL;
    }
    if (ok)
        text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                 JSON_REAL_PRECISION(15));
    json_decref(rows);
    json_decref(o);
    if (!text)
        return NULL;
    /* a line of its own, as `tourney standings` ends */
    size_t len = strlen(text);
    char *nl = realloc(text, len + 2);
    if (!nl) {
        free(text);
        return NULL;
    }
    nl[len] = '\n';
    nl[len + 1] = '\0';
    return nl;
}

/* The subtree at nodes[*at] (a checked tree: children follow). */
static json_t *node_tree(const struct tny_wire_records *r, int32_t *at)
{
    const struct tny_wire_node *x = &r->nodes[(*at)++];
    json_t *v = NULL;
    switch (x->kind) {
    case TNY_WIRE_NODE_NULL: return json_null();
    case TNY_WIRE_NODE_FLAG: return json_boolean(x->flag);
    case TNY_WIRE_NODE_INTEGER: return json_integer((json_int_t)x->integer);
    case TNY_WIRE_NODE_REAL: return json_real(x->real);
    case TNY_WIRE_NODE_TEXT: return json_string(x->text ? x->text : "");
    case TNY_WIRE_NODE_RECORD: v = json_object(); break;
    case TNY_WIRE_NODE_LIST: v = json_array(); break;
    }
    for (int32_t k = 0; v && k < x->n; k++) {
        const char *key = r->nodes[*at].key;
        json_t *m = node_tree(r, at);
        int rc = json_is_object(v) ? json_object_set_new(v, key ? key : "", m)
                                   : json_array_append_new(v, m);
        if (!m || rc < 0) {
            json_decref(v);
            v = NULL;
        }
    }
    return v;
}

json_t *hub_console_records_tree(const struct tny_wire_records *r)
{
    int32_t at = 0;
    return r && r->n_nodes > 0 ? node_tree(r, &at) : NULL;
}

static char *records_json(const struct tny_wire_records *r,
                          enum tny_wire_cmd cmd)
{
    const struct tny_wire_cmd_info *info = tny_wire_cmd_info(cmd);
    json_t *root = hub_console_records_tree(r);
    char *text =
        root ? json_dumps(root, info && info->json_line
                                    ? JSON_COMPACT
                                    : JSON_INDENT(2) | JSON_PRESERVE_ORDER)
             : NULL;
    json_decref(root);
    return text;
}

char *hub_console_reply_json(const struct tny_wire_reply *rep,
                             enum tny_wire_cmd cmd)
{
    if (rep->records)
        return records_json(rep->records, cmd);
    if (rep->seating)
        return hub_console_seating_json(rep->seating);
    if (rep->standings)
        return hub_console_standings_json(rep->standings);
    if (rep->published)
        return hub_console_published_json(rep->published);
    return rep->json ? strdup(rep->json) : NULL;
}

char *hub_console_published_json(const struct tny_wire_published *p)
{
    json_t *a = json_array(), *m = json_array();
    char *text = NULL;
    bool ok = a && m;
    for (int32_t i = 0; ok && i < p->n_assigned; i++)
        ok = json_array_append_new(a, json_pack("{s:i, s:s}", "table",
                                                (int)p->tables[i], "device",
                                                p->devices[i])) == 0;
    for (int32_t i = 0; ok && i < p->n_missing; i++)
        ok = json_array_append_new(m, json_integer(p->missing[i])) == 0;
    json_t *o = ok ? json_pack("{s:i, s:o, s:o, s:i}", "round", (int)p->round,
                               "assigned", a, "tables_without_device", m,
                               "idle_devices", (int)p->idle_devices)
                   : NULL;
    if (o) {
        text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(o);
    } else {
        json_decref(a);
        json_decref(m);
    }
    return text;
}
