/* feed.c - the public live feed: JSON, retained, under
 * tourney/v1/feed/{ev}/ (docs/feed.md describes every topic and field).
 *
 * Five retained topics per event, each a complete document (an overlay
 * that subscribes late gets the whole picture from the retained
 * messages): event, pairings, tables, standings, bracket; per table of
 * the latest round `table/N` and per player `player/ID`, small documents
 * for the players' phones (a phone reads its own two, not the whole
 * round: measured in bench/bench_feed.sh); and the
 * non-retained heartbeat `now` (the hub's clock while a round clock runs,
 * hub_feed_heartbeat) so a late reader's countdown is right.  Built from the
 * store's projection and the service's in-memory table states; published by
 * hub_service_flush after a batch of changes.  Also which events' feeds are
 * due (marked dirty) and the snapshot the feed thread builds from.
 *
 * Not here: anything private.  The feed is public (anonymous WebSocket
 * readers): it carries names, clubs, countries and what the tables show,
 * never ratings, external ids, device credentials or organiser logins.
 */
#include "feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "devices.h"
#include "events.h"
#include "publish.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/score.h"
#include "tny/standings.h"

static int add_msg(struct hub_outbox *ob, const struct hub_ev *e,
                   const char *what, json_t *doc, bool retained)
{
    char topic[HUB_TOPIC_MAX];
    char *text;
    if (!doc)
        return TNY_ENOMEM;
    text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text)
        return TNY_ENOMEM;
    snprintf(topic, sizeof(topic), "%sfeed/%s/%s", TNY_WIRE_TOPIC_PREFIX, e->id,
             what);
    return hub_outbox_add(ob, topic, (uint8_t *)text, strlen(text), retained);
}

static int add(struct hub_outbox *ob, const struct hub_ev *e, const char *what,
               json_t *doc)
{
    return add_msg(ob, e, what, doc, true);
}

static const char *level_name(enum tny_event_level l)
{
    switch (l) {
    case TNY_LEVEL_CASUAL: return "casual";
    case TNY_LEVEL_FORMAL: return "formal";
    case TNY_LEVEL_PREMIER: return "premier";
    default: return NULL;
    }
}

static const char *round_status(const struct hub_ev *e)
{
    static const char *const names[] = {"draft", "published", "started",
                                        "closed"};
    if (e->ev.n_rounds == 0 || e->round.status > HUB_ROUND_CLOSED)
        return NULL;
    return names[e->round.status];
}

static const char *stage_name(const struct hub_ev *e)
{
    int32_t si = e->round.stage_index;
    if (e->ev.n_rounds == 0 || si < 0 || si >= e->ev.format.n_stages)
        return NULL;
    return e->ev.format.stages[si].name;
}

/* The planned number of rounds of the current round's stage (a Swiss
 * stage's rounds, GT-5 from attendance when the format has a structure),
 * 0 when the stage's size decides (elimination) or unknown. */
static int32_t stage_rounds(const struct hub_ev *e)
{
    int32_t si = e->round.stage_index, rounds = 0, cut = 0;
    const struct tny_format *f = &e->ev.format;
    struct tny_diag ignored;
    if (e->ev.n_rounds == 0 || si < 0 || si >= f->n_stages ||
        f->stages[si].kind == TNY_STAGE_ELIMINATION ||
        tny_stage_size(&e->ev, &f->stages[si], &rounds, &cut, &ignored) < 0)
        return 0;
    return rounds > 0 ? rounds : 0;
}

/* event_doc(e, now_ms): `updated_ms` is when the document's content last
 * changed (remembered in e), so an unchanged event document is equal to
 * the last one and not sent again to every phone after each result. */
static json_t *event_doc(struct hub_ev *e, int64_t now_ms)
{
    static const char *const status[] = {"setup", "running", "finished"};
    const struct tny_format *f = &e->ev.format;
    int32_t r = e->ev.n_rounds, in_stage = 0, planned = stage_rounds(e);
    for (int32_t k = 0; k < r; k++)
        in_stage += e->ev.rounds[k].stage == e->ev.rounds[r - 1].stage;
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s, s:s?, s:s, s:i, s:s?, s:s?, s:s?, s:i, s:I}",
        "id", e->id, "title", e->ev.title[0] ? e->ev.title : f->title, "format",
        f->name, "game", tny_game_name(f->game), "level",
        level_name(e->ev.level), "status",
        e->info.status <= HUB_EVENT_FINISHED ? status[e->info.status] : "?",
        "round", (int)r, "round_status", round_status(e), "stage",
        r ? tny_stage_kind_name(e->ev.rounds[r - 1].stage) : NULL, "stage_name",
        stage_name(e), "players", (int)e->ev.n_players, "updated_ms",
        (json_int_t)0);
    if (o && r > 0)
        json_object_set_new(o, "stage_round", json_integer(in_stage));
    if (o && planned > 0)
        json_object_set_new(o, "stage_rounds", json_integer(planned));
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (text) {
        uint64_t h = 14695981039346656037ull;
        for (const char *c = text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        if (h != e->feed_event_hash || !e->feed_event_ms) {
            e->feed_event_hash = h;
            e->feed_event_ms = now_ms;
        }
        free(text);
    }
    if (o)
        json_object_set_new(
            o, "updated_ms",
            json_integer(e->feed_event_ms ? e->feed_event_ms : now_ms));
    return o;
}

/* An optional text: NULL (the key is left out) when unknown or empty. */
static const char *known(const char *s)
{
    return s && s[0] ? s : NULL;
}

static json_t *player_brief(const struct hub_ev *e, int32_t p)
{
    const struct tny_player *pl = &e->ev.players[p];
    /* s* : an unknown club / country is absent, not null (docs/feed.md). */
    return json_pack("{s:s, s:s, s:s*, s:s*}", "id", pl->id, "name", pl->name,
                     "club", known(pl->club), "country", known(pl->country));
}

static json_t *seat_doc(const struct hub_ev *e, const struct tny_table *t,
                        int32_t i, int32_t first_seat)
{
    const struct tny_player *pl = &e->ev.players[t->seats[i]];
    json_t *o = player_brief(e, t->seats[i]);
    if (!o)
        return NULL;
    json_object_set_new(o, "seat", json_integer(i + 1));
    if (first_seat == i)
        json_object_set_new(o, "first", json_true());
    if (t->has_sides && e->ev.format.n_sides == 2) /* issue 19 */
        json_object_set_new(o, "side",
                            json_string(e->ev.format.sides[t->side[i] & 1]));
    if (pl->n_armies > 0) {
        json_t *a = json_array();
        for (int32_t k = 0; a && k < pl->n_armies; k++)
            if (pl->armies[k] >= 0 && pl->armies[k] < e->ev.format.n_armies)
                json_array_append_new(
                    a, json_string(e->ev.format.armies[pl->armies[k]]));
        json_object_set_new(o, "armies", a);
    }
    if (t->has_result && t->result.army[i] >= 0 &&
        t->result.army[i] < e->ev.format.n_armies)
        json_object_set_new(
            o, "army", json_string(e->ev.format.armies[t->result.army[i]]));
    if (pl->n_colours > 0) {
        json_t *a = json_array();
        for (int32_t k = 0; a && k < pl->n_colours; k++)
            json_array_append_new(a, json_string(pl->colours[k]));
        json_object_set_new(o, "colours", a);
    }
    if (pl->faction)
        json_object_set_new(o, "faction", json_string(pl->faction));
    if (pl->agenda)
        json_object_set_new(o, "agenda", json_string(pl->agenda));
    return o;
}

static json_t *pairings_doc(struct hub_ev *e)
{
    int32_t r = e->ev.n_rounds;
    json_t *tables = json_array(), *byes = json_array();
    if (r > 0) {
        const struct tny_round *round = &e->ev.rounds[r - 1];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye) {
                json_array_append_new(byes, player_brief(e, tb->seats[0]));
                continue;
            }
            struct hub_table_state *ts = hub__ev_table_state(e, tb->number);
            json_t *seats = json_array();
            for (int32_t i = 0; seats && i < tb->n_seats; i++)
                json_array_append_new(
                    seats, seat_doc(e, tb, i, ts ? ts->first_seat : -1));
            json_array_append_new(tables,
                                  json_pack("{s:i, s:o}", "table",
                                            (int)tb->number, "players", seats));
        }
    }
    return json_pack("{s:i, s:s?, s:s?, s:o, s:o}", "round", (int)r, "stage",
                     r ? tny_stage_kind_name(e->ev.rounds[r - 1].stage) : NULL,
                     "stage_name", stage_name(e), "tables", tables, "byes",
                     byes);
}

static json_t *clock_doc(const struct tny_clock_msg *m, int64_t now_ms)
{
    static const char *const states[] = {"not_started", "running", "paused"};
    json_t *o =
        json_pack("{s:s, s:b, s:I}", "state",
                  m->state <= TNY_ROUND_CLOCK_PAUSED ? states[m->state] : "?",
                  "unlimited", m->unlimited, "hub_now_ms", (json_int_t)now_ms);
    if (!o || m->unlimited)
        return o;
    if (m->state == TNY_ROUND_CLOCK_RUNNING) {
        json_object_set_new(o, "deadline_ms", json_integer(m->deadline_ms));
        json_object_set_new(o, "remaining_ms",
                            json_integer(m->deadline_ms - now_ms));
    } else {
        json_object_set_new(o, "remaining_ms", json_integer(m->remaining_ms));
    }
    return o;
}

/* The table's counted result as the event file writes it (the wire
 * conversion and the hub's result JSON writer): a new object, NULL when
 * it cannot be converted (then the table shows no result). */
static json_t *result_doc(const struct hub_ev *e, const struct tny_table *tb)
{
    struct tny_wire_result wr;
    struct tny_diag ignored;
    char *text = NULL;
    json_t *o = NULL;
    if (tny_wire_result_from_table(&e->ev, tb, &wr, &ignored) == 0 &&
        hub__result_json(&wr, &text, &ignored) == 0)
        o = json_loads(text, 0, NULL);
    free(text);
    return o;
}

/* When each table's counted result was stored (the created_ms of its
 * valid, not superseded row), in (*out)[table number] (0 = none), for
 * numbers < *n; free(*out).  One query for the round. */
static int confirmed_times(struct hub_service *svc, const struct hub_ev *e,
                           int64_t **out, int32_t *n, struct tny_diag *diag)
{
    const struct tny_round *round = &e->ev.rounds[e->ev.n_rounds - 1];
    struct hub_result_row *rows = NULL;
    int32_t n_rows = 0, max = 0;
    int rc;
    *out = NULL;
    *n = 0;
    for (int32_t t = 0; t < round->n_tables; t++)
        if (round->tables[t].number > max)
            max = round->tables[t].number;
    if ((rc = hub_store_list_results(svc->store, e->id, e->ev.n_rounds, 0,
                                     &rows, &n_rows, diag)) < 0)
        return rc == TNY_ENOTFOUND ? TNY_OK : rc;
    *out = calloc((size_t)max + 1, sizeof(**out));
    if (!*out) {
        hub_result_rows_free(rows, n_rows);
        return TNY_ENOMEM;
    }
    *n = max + 1;
    for (int32_t i = 0; i < n_rows; i++)
        if (rows[i].status == HUB_RESULT_VALID && !rows[i].superseded_by &&
            rows[i].table >= 0 && rows[i].table <= max)
            (*out)[rows[i].table] = rows[i].created_ms;
    hub_result_rows_free(rows, n_rows);
    return TNY_OK;
}

static json_t *tables_doc(struct hub_service *svc, struct hub_ev *e,
                          int64_t now_ms, struct tny_diag *diag)
{
    int32_t r = e->ev.n_rounds;
    struct tny_round_clock c;
    struct tny_diag ignored;
    bool have_clock = r > 0 && hub__round_clock(svc, e, &c, &ignored) == 0;
    json_t *tables = json_array();
    struct tny_clock_msg m;
    json_t *round_clock = NULL;
    if (have_clock) {
        tny_round_clock_message(&c, 0, now_ms, &m);
        round_clock = clock_doc(&m, now_ms);
    }
    struct hub_device **by_table = NULL;
    int32_t n_by_table = 0, n_times = 0;
    int64_t *times = NULL;
    if (r > 0 &&
        (hub__ev_devices_by_table(svc, e, &by_table, &n_by_table) < 0 ||
         confirmed_times(svc, e, &times, &n_times, diag) < 0)) {
        free(by_table);
        json_decref(tables);
        json_decref(round_clock);
        return NULL;
    }
    if (r > 0) {
        const struct tny_round *round = &e->ev.rounds[r - 1];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye)
                continue;
            struct hub_table_state *ts = hub__ev_table_state(e, tb->number);
            int64_t ext = hub__ev_extension(e, r, tb->number);
            const char *state = "waiting";
            /* The table's own clock (AG-14: from its draft start). */
            if (have_clock)
                hub__table_clock(e, &c, r, tb->number, now_ms, &m);
            if (ts && ts->conflict)
                state = "conflict";
            else if (tb->has_result)
                state = "confirmed";
            else if (ts && ts->pending)
                state = "pending_confirmation";
            else if (have_clock && c.state != TNY_ROUND_CLOCK_READY) {
                state = "playing";
                if (m.state == TNY_ROUND_CLOCK_RUNNING && !m.unlimited &&
                    m.deadline_ms <= now_ms)
                    state = "overdue";
            }
            const struct hub_device *dev =
                tb->number >= 0 && tb->number < n_by_table
                    ? by_table[tb->number]
                    : NULL;
            json_t *o = json_pack(
                "{s:i, s:s, s:s?, s:b}", "table", (int)tb->number, "state",
                state, "device", dev ? dev->id : NULL, "online",
                dev && dev->state == TNY_WIRE_PRESENCE_ONLINE);
            if (o && ext > 0)
                json_object_set_new(o, "extension_ms", json_integer(ext));
            if (o && have_clock)
                json_object_set_new(o, "clock", clock_doc(&m, now_ms));
            if (o && hub__ev_per_table_start(e)) /* AG-14 */
                json_object_set_new(
                    o, "draft_started",
                    json_boolean(hub__ev_start_delay(e, r, tb->number) >= 0));
            /* Only the counted result, never a pending or disputed one. */
            if (o && tb->has_result && tb->number >= 0 &&
                tb->number < n_times && times[tb->number] > 0)
                json_object_set_new(o, "confirmed_ms",
                                    json_integer(times[tb->number]));
            if (o && strcmp(state, "confirmed") == 0) {
                json_t *res = result_doc(e, tb);
                if (res)
                    json_object_set_new(o, "result", res);
            }
            json_array_append_new(tables, o);
        }
    }
    free(by_table);
    free(times);
    return json_pack("{s:i, s:s?, s:o?, s:o}", "round", (int)r, "round_status",
                     round_status(e), "clock", round_clock, "tables", tables);
}

static json_t *standings_doc(const struct hub_ev *e, struct tny_diag *diag)
{
    struct tny_standings st;
    char *text = NULL;
    json_t *doc = NULL;
    if (tny_standings_compute(&e->ev, &st, diag) < 0)
        return json_pack("{s:i, s:[]}", "after_round", 0, "standings");
    if (tny_standings_to_json(&e->ev, &st, &text) == 0)
        doc = json_loads(text, 0, NULL);
    free(text);
    tny_standings_release(&st);
    return doc;
}

static json_t *bracket_doc(const struct hub_ev *e)
{
    json_t *rounds = json_array();
    for (int32_t r = 0; rounds && r < e->ev.n_rounds; r++) {
        const struct tny_round *round = &e->ev.rounds[r];
        if (round->stage != TNY_STAGE_ELIMINATION)
            continue;
        json_t *tables = json_array();
        for (int32_t t = 0; tables && t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye) {
                json_array_append_new(
                    tables,
                    json_pack("{s:o}", "bye", player_brief(e, tb->seats[0])));
                continue;
            }
            json_t *players = json_array();
            for (int32_t i = 0; players && i < tb->n_seats; i++)
                json_array_append_new(players, player_brief(e, tb->seats[i]));
            const char *winner = NULL;
            if (tb->has_result) {
                int32_t w = tny_result_winner_seat(&e->ev.format, &tb->result);
                if (w >= 0 && w < tb->n_seats)
                    winner = e->ev.players[tb->seats[w]].id;
            }
            json_t *o = json_pack("{s:i, s:o, s:s?}", "table", (int)tb->number,
                                  "players", players, "winner", winner);
            if (o && tb->has_result && tb->result.n_games > 0) {
                json_t *g = json_array();
                for (int32_t k = 0; g && k < tb->result.n_games; k++) {
                    int32_t s = tb->result.games[k];
                    json_array_append_new(
                        g, s >= 0 && s < tb->n_seats
                               ? json_string(e->ev.players[tb->seats[s]].id)
                               : json_null());
                }
                json_object_set_new(o, "games", g);
            }
            json_array_append_new(tables, o);
        }
        json_array_append_new(rounds, json_pack("{s:i, s:o}", "round",
                                                (int)r + 1, "tables", tables));
    }
    return json_pack("{s:o}", "rounds", rounds);
}

/* A clock object without what changes at every publication (hub_now_ms;
 * remaining_ms of a running clock, which deadline_ms gives): a table's
 * document then changes only when the table does, and the hub does not
 * send it again (hub_loop.c). */
static json_t *steady_clock(json_t *clock)
{
    json_t *c = json_deep_copy(clock);
    if (!c)
        return NULL;
    json_object_del(c, "hub_now_ms");
    json_t *st = json_object_get(c, "state");
    if (json_is_string(st) && strcmp(json_string_value(st), "running") == 0)
        json_object_del(c, "remaining_ms");
    return c;
}

static bool topic_safe(const char *id)
{
    return id && id[0] && !strpbrk(id, "/+#") && strlen(id) <= 64;
}

/* table/N: the table's pairing (players with seats and extras) and its
 * state, clock, result (docs/feed.md). */
static int add_table_docs(struct hub_outbox *ob, const struct hub_ev *e,
                          json_t *pa, json_t *tb)
{
    json_t *state = json_object(), *t;
    size_t i;
    int rc = TNY_OK;
    char what[32];
    if (!state)
        return TNY_ENOMEM;
    json_array_foreach (json_object_get(tb, "tables"), i, t) {
        snprintf(what, sizeof what, "%d",
                 (int)json_integer_value(json_object_get(t, "table")));
        json_object_set(state, what, t);
    }
    json_array_foreach (json_object_get(pa, "tables"), i, t) {
        int n = (int)json_integer_value(json_object_get(t, "table"));
        snprintf(what, sizeof what, "%d", n);
        json_t *s = json_object_get(state, what), *doc;
        doc = s ? json_deep_copy(s) : json_pack("{s:i}", "table", n);
        if (!doc) {
            rc = TNY_ENOMEM;
            break;
        }
        if (json_object_get(doc, "clock"))
            json_object_set_new(doc, "clock",
                                steady_clock(json_object_get(doc, "clock")));
        json_object_set(doc, "round", json_object_get(pa, "round"));
        json_object_set(doc, "players", json_object_get(t, "players"));
        snprintf(what, sizeof what, "table/%d", n);
        if ((rc = add(ob, e, what, doc)) < 0)
            break;
    }
    json_decref(state);
    return rc;
}

/* history(e): player id -> [{round, table, players, result} or {round,
 * bye: true}] of every counted result and bye, oldest first; each table's
 * players and result objects are shared by its players' entries. */
static json_t *history(const struct hub_ev *e)
{
    json_t *h = json_object();
    for (int32_t r = 0; h && r < e->ev.n_rounds; r++) {
        const struct tny_round *round = &e->ev.rounds[r];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            json_t *entry = NULL;
            if (tb->is_bye) {
                entry = json_pack("{s:i, s:b}", "round", (int)r + 1, "bye", 1);
            } else if (tb->has_result) {
                json_t *players = json_array(), *res = result_doc(e, tb);
                for (int32_t i = 0; players && i < tb->n_seats; i++) {
                    json_t *pb = player_brief(e, tb->seats[i]);
                    if (pb)
                        json_object_set_new(pb, "seat", json_integer(i + 1));
                    json_array_append_new(players, pb);
                }
                entry = json_pack("{s:i, s:i, s:o?, s:o?}", "round", (int)r + 1,
                                  "table", (int)tb->number, "players", players,
                                  "result", res);
            } else {
                continue;
            }
            if (!entry) {
                json_decref(h);
                return NULL;
            }
            for (int32_t i = 0; i < (tb->is_bye ? 1 : tb->n_seats); i++) {
                const char *id = e->ev.players[tb->seats[i]].id;
                json_t *list = json_object_get(h, id);
                if (!list) {
                    list = json_array();
                    json_object_set_new(h, id, list);
                }
                json_array_append(list, entry);
            }
            json_decref(entry);
        }
    }
    return h;
}

/* player/ID: the player's seat in the latest round with the opponents,
 * the player's results so far and row of the standings (docs/feed.md). */
static int add_player_docs(struct hub_outbox *ob, const struct hub_ev *e,
                           json_t *pa, json_t *sd)
{
    json_t *seat_of = json_object(), *hist = history(e), *t, *p, *row;
    size_t i, k;
    int rc = TNY_OK;
    char what[96];
    if (!seat_of || !hist) {
        json_decref(seat_of);
        json_decref(hist);
        return TNY_ENOMEM;
    }
    json_array_foreach (json_object_get(pa, "tables"), i, t) {
        json_array_foreach (json_object_get(t, "players"), k, p) {
            const char *id = json_string_value(json_object_get(p, "id"));
            if (id)
                json_object_set_new(seat_of, id, json_pack("{s:O}", "t", t));
        }
    }
    json_array_foreach (json_object_get(pa, "byes"), i, p) {
        const char *id = json_string_value(json_object_get(p, "id"));
        if (id)
            json_object_set_new(seat_of, id, json_pack("{s:b}", "bye", 1));
    }
    json_t *rows = json_object_get(sd, "standings");
    size_t n_rows = json_array_size(rows);
    json_array_foreach (rows, i, row) {
        const char *id = json_string_value(json_object_get(row, "player"));
        if (!topic_safe(id))
            continue;
        json_t *doc = json_pack(
            "{s:s, s:O, s:O, s:i, s:b, s:O, s:I}", "id", id, "name",
            json_object_get(row, "name"), "round", json_object_get(pa, "round"),
            "table", 0, "bye", 0, "after_round",
            json_object_get(sd, "after_round"), "of", (json_int_t)n_rows);
        if (!doc) {
            rc = TNY_ENOMEM;
            break;
        }
        json_object_set(doc, "standing", row);
        json_t *mine = json_object_get(hist, id);
        json_object_set_new(doc, "results",
                            mine ? json_incref(mine) : json_array());
        json_t *where = json_object_get(seat_of, id);
        json_t *tt = where ? json_object_get(where, "t") : NULL;
        if (where && json_object_get(where, "bye"))
            json_object_set_new(doc, "bye", json_true());
        if (tt) {
            json_t *opp = json_array();
            json_object_set(doc, "table", json_object_get(tt, "table"));
            json_array_foreach (json_object_get(tt, "players"), k, p) {
                const char *pid = json_string_value(json_object_get(p, "id"));
                if (pid && strcmp(pid, id) == 0)
                    json_object_set(doc, "me", p);
                else
                    json_array_append(opp, p);
            }
            json_object_set_new(doc, "opponents", opp);
        }
        snprintf(what, sizeof what, "player/%s", id);
        if ((rc = add(ob, e, what, doc)) < 0)
            break;
    }
    json_decref(seat_of);
    json_decref(hist);
    return rc;
}

int hub_feed_publish(struct hub_service *svc, struct hub_ev *e, int64_t now_ms,
                     struct hub_outbox *ob, struct tny_diag *diag)
{
    int rc = TNY_OK;
    json_t *pa = pairings_doc(e);
    json_t *tb = tables_doc(svc, e, now_ms, diag);
    json_t *sd = standings_doc(e, diag);
    if (!pa || !tb || !sd)
        rc = TNY_ENOMEM;
    /* add() takes its document: the three shared ones are lent */
    if (rc == 0 && (rc = add_table_docs(ob, e, pa, tb)) == 0 &&
        (rc = add_player_docs(ob, e, pa, sd)) == 0 &&
        (rc = add(ob, e, "event", event_doc(e, now_ms))) == 0 &&
        (rc = add(ob, e, "pairings", json_incref(pa))) == 0 &&
        (rc = add(ob, e, "tables", json_incref(tb))) == 0 &&
        (rc = add(ob, e, "standings", json_incref(sd))) == 0)
        rc = add(ob, e, "bracket", bracket_doc(e));
    json_decref(pa);
    json_decref(tb);
    json_decref(sd);
    if (rc < 0)
        return tny_diag_set(diag, rc, "feed %s: %s", e->id, tny_strerror(rc));
    return TNY_OK;
}

int hub_feed_heartbeat(struct hub_service *svc, int64_t now_ms,
                       struct hub_outbox *ob)
{
    int rc = TNY_OK;
    for (int32_t i = 0; i < svc->n_events && rc == 0; i++) {
        const struct hub_ev *e = svc->events[i];
        int32_t r = e->ev.n_rounds;
        if (!e->loaded || r == 0 || e->round.status != HUB_ROUND_STARTED ||
            e->clock_round != r || e->clock.state != TNY_ROUND_CLOCK_RUNNING)
            continue;
        rc = add_msg(ob, e, "now",
                     json_pack("{s:I, s:i}", "hub_now_ms", (json_int_t)now_ms,
                               "round", (int)r),
                     false);
    }
    return rc;
}

/* ---- feed scheduling: which events are due -------------------------- */

/* The first event whose feed is due (marked dirty); NULL when none.  With
 * the feed off every mark is cleared. */
static struct hub_ev *next_dirty_feed(struct hub_service *svc)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        struct hub_ev *e = svc->events[i];
        if (e->feed_dirty && svc->opt.feed)
            return e;
        e->feed_dirty = false;
    }
    return NULL;
}

int hub_service_flush_step(struct hub_service *svc, int64_t now_ms,
                           struct hub_outbox *ob, bool *more,
                           struct tny_diag *diag)
{
    struct hub_ev *e = next_dirty_feed(svc);
    int rc;
    *more = false;
    if (!e)
        return TNY_OK;
    if ((rc = hub__ev_get(svc, e->id, &e, diag)) < 0 ||
        (rc = hub_feed_publish(svc, e, now_ms, ob, diag)) < 0)
        return rc;
    e->feed_dirty = false;
    *more = next_dirty_feed(svc) != NULL;
    return TNY_OK;
}

int hub_service_flush(struct hub_service *svc, int64_t now_ms,
                      struct hub_outbox *ob, struct tny_diag *diag)
{
    bool more = true;
    int rc = TNY_OK;
    while (more && rc == 0)
        rc = hub_service_flush_step(svc, now_ms, ob, &more, diag);
    return rc;
}

/* ---- the feed on another thread --------------------------------------- */

_Static_assert(HUB_FEED_ID_MAX == HUB_STORE_ID_MAX, "one id length");

void hub_feed_snapshot_release(struct hub_feed_snapshot *s)
{
    free(s->devices);
    free(s->ext);
    hub__ev_free(s->ev);
    memset(s, 0, sizeof(*s));
}

bool hub_service_feed_next(struct hub_service *svc, int64_t now_ms,
                           struct hub_feed_snapshot *out, int *rc)
{
    struct hub_ev *e = next_dirty_feed(svc);
    *rc = TNY_OK;
    memset(out, 0, sizeof(*out));
    if (!e)
        return false;
    int32_t n = 0;
    for (int32_t k = 0; k < svc->n_devices; k++)
        n += strcmp(svc->devices[k].event, e->id) == 0;
    out->devices = calloc((size_t)n + 1, sizeof(*out->devices));
    out->ext = calloc((size_t)e->n_ext + 1, sizeof(*out->ext));
    if (!out->devices || !out->ext) {
        hub_feed_snapshot_release(out);
        *rc = TNY_ENOMEM;
        return false;
    }
    for (int32_t k = 0; k < svc->n_devices; k++) {
        const struct hub_device *d = &svc->devices[k];
        if (strcmp(d->event, e->id) != 0)
            continue;
        struct hub_feed_device *o = &out->devices[out->n_devices++];
        snprintf(o->id, sizeof(o->id), "%s", d->id);
        o->table = d->table;
        o->state = d->state;
    }
    for (int32_t k = 0; k < e->n_ext; k++)
        out->ext[out->n_ext++] = (struct hub_feed_extension){
            e->ext[k].round, e->ext[k].table, e->ext[k].total_ms,
            e->ext[k].start_delay_ms};
    if (e->loaded && (*rc = hub__ev_clone(e, &out->ev)) < 0) {
        hub_feed_snapshot_release(out);
        return false;
    }
    snprintf(out->event, sizeof(out->event), "%s", e->id);
    out->now_ms = now_ms;
    e->feed_dirty = false;
    return true;
}

int hub_service_feed_build(struct hub_service *b,
                           struct hub_feed_snapshot *snap,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_ev *e = hub__ev_find(b, snap->event);
    int rc;
    if (!e && (rc = hub__ev_add(b, snap->event, &e)) < 0)
        return rc;
    hub__ev_invalidate(e);
    if (snap->ev) {
        /* The loop's state, taken whole: the event, its table flags and
         * clock; what the builder keeps across builds (which documents
         * it published) stays. */
        struct hub_ev *s = snap->ev;
        uint64_t hash = e->feed_event_hash;
        int64_t hash_ms = e->feed_event_ms;
        free(e->tables);
        free(e->ext);
        *e = *s;
        e->feed_event_hash = hash;
        e->feed_event_ms = hash_ms;
        free(s);
        snap->ev = NULL;
    } else {
        /* No state in the loop: everything from the database as it is
         * now (the event, the table flags and the clock). */
        e->state_round = 0;
        e->clock_round = 0;
    }
    e->n_ext = 0;
    for (int32_t k = 0; k < snap->n_ext; k++)
        if ((rc = hub__ev_set_extension(e, snap->ext[k].round,
                                        snap->ext[k].table,
                                        snap->ext[k].total_ms)) < 0 ||
            (rc = hub__ev_set_start_delay(e, snap->ext[k].round,
                                          snap->ext[k].table,
                                          snap->ext[k].start_delay_ms)) < 0)
            return rc;
    /* The builder's registry: the snapshot's devices for this event. */
    for (int32_t k = 0; k < b->n_devices; k++)
        if (strcmp(b->devices[k].event, e->id) == 0) {
            b->devices[k].event[0] = '\0';
            b->devices[k].table = 0;
        }
    for (int32_t k = 0; k < snap->n_devices; k++) {
        struct hub_device *d;
        if ((rc = hub__device_insert(b, snap->devices[k].id, &d)) < 0)
            return rc;
        snprintf(d->event, sizeof(d->event), "%s", e->id);
        d->table = snap->devices[k].table;
        d->state = snap->devices[k].state;
    }
    if ((rc = hub__ev_get(b, snap->event, &e, diag)) < 0)
        return rc;
    rc = hub_feed_publish(b, e, snap->now_ms, ob, diag);
    e->feed_dirty = false;
    return rc;
}
