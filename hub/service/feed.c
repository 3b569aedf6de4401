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

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "events.h"
#include "feed_json.h"
#include "hub/log.h"
#include "publish.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/score.h"
#include "tny/standings.h"

/* ---- what a build keeps for the next one ------------------------------ */

/* Per event and service (hub_ev.feed_cache): the fingerprints of the
 * documents the last build sent, so a build writes and sends only those
 * whose inputs changed; the standings computed from the completed rounds
 * (computed again only when those rounds or the players change); when
 * each table's counted result was stored.  A fingerprint is a hash of the
 * typed values a document is written from. */
struct hub_feed_cache {
    bool valid;
    uint64_t event_fp;
    int32_t n_players;
    uint64_t *player_fp; /* [n_players] the player/ID document; 0 none */
    int32_t n_table_fp;
    uint64_t *table_fp; /* [table number] the table/N document; 0 none */
    uint64_t pairings_fp, standings_fp, bracket_fp;
    /* the standings of standings_in (their inputs' fingerprint) */
    uint64_t standings_in;
    bool have_st;
    struct tny_standings st;
    /* Issue 17 item 2: row_fp of each row of st (NULL: not yet), so a
     * build after a result does not fingerprint 2,000 rows again. */
    uint64_t *st_row_fp;
    /* Issue 17 item 2: brief_fp of each player (pfp[n_pfp]) and the fold
     * of those and the players' lifecycle (pfp_all), for the players of
     * generation pfp_gen (hub_ev.players_gen; 0 none): computed again
     * only when the players changed (every player's strings were hashed
     * for each build). */
    uint64_t pfp_gen, pfp_all, pfp_life;
    int32_t n_pfp;
    uint64_t *pfp;
    /* Builder only (issue 17 item 2): the devices of the snapshot that
     * last set the builder's registry for this event, at the builder's
     * feed_registry_sets reg_set; a snapshot with the same devices and no
     * other set since leaves the registry as it is (it was rebuilt for
     * every build: 0.4 M instructions at 1,000 devices). */
    uint64_t reg_set;
    int32_t n_reg;
    struct hub_feed_device *reg;
    /* confirmed_ms of the latest round by table number, read when the
     * table's key (its fingerprint and flags) times_tkey[number] changed */
    uint64_t *times_tkey;
    int32_t n_times;
    int64_t *times;
    /* Issue 23: each round's table fingerprints (table_fp) as of the
     * round's generation `gen`, computed with the players' fingerprints
     * rfp_players: a round whose generation and players stayed is not
     * fingerprinted again (the soak's feed spent 29 % of the hub's CPU
     * fingerprinting every table of every round for each build). */
    uint64_t rfp_players;
    int32_t n_rfp;
    struct round_fp {
        uint64_t gen, all; /* all: the round's, from its tables' */
        int32_t n, cap;
        bool complete; /* every table has its result */
        uint64_t *t;   /* [n] table_fp by table index */
    } * rfp;
    /* Issue 23: the players' histories over the rounds before the latest
     * (h0_rounds of them, at the generations h0_gen[], with the players'
     * fingerprints h0_players, h0_n players): player p's tables
     * hist0[hist_at0[p]] .. hist0[hist_at0[p + 1] - 1] and the fold of
     * their fingerprints hist_fp0[p].  A build adds the latest round's
     * (the histories were rebuilt from every round for each build). */
    bool h0_valid;
    int32_t h0_rounds, h0_n;
    uint64_t h0_players;
    uint64_t *h0_gen, *hist_fp0;
    int32_t *hist_at0;
    struct hist_ref {
        int32_t r, t; /* round index, table index */
    } * hist0;
    /* Issue 17 item 2: each table's entry of the `tables` document by
     * table number, as written for the fingerprint fp of what it shows
     * but its clock (piece_fp): text[0, head) before the clock,
     * text[head, len) after it.  A build writes again only the entries
     * whose fingerprint changed and assembles the document from these
     * and each build's clock (every entry was written for every build:
     * 11.7 M of the 19.4 M instructions of a build after a result at
     * 2,000 players, most of it each confirmed table's result converted
     * and written again). */
    size_t tables_len; /* the last `tables` document's length */
    /* Issue 17 item 2: when the aggregate documents (`tables`,
     * `standings`, `pairings`, `bracket`) were last built (the build's
     * clock; 0 never) and the round state they were built for (agg_key):
     * a build within hub_service_options.feed_aggregate_ms of agg_ms and
     * of the same round state leaves them for the window's end. */
    int64_t agg_ms;
    uint64_t agg_key;
    /* Issue 17 item 2: serials of the standings (st) and the histories'
     * prefix (hist0), renewed when they are computed again; and what the
     * last complete pass over the players' documents read but the
     * latest round's tables (pd_key; 0 none: the next pass visits every
     * player), each of those tables' key (pd_tkey[n_pd_t]: the table's
     * fingerprint and first seat) and each player's row in st
     * (row_of[n_row_of]).  A build whose pd_key is the last one's visits
     * only the players of the tables whose key changed (it fingerprinted
     * every player's document for each build). */
    uint64_t st_serial, h0_serial, pd_key;
    int32_t n_pd_t, n_row_of;
    uint64_t *pd_tkey;
    int32_t *row_of;
    int32_t n_piece;
    struct piece {
        uint64_t fp;
        char *text;
        size_t head, len;
    } * piece;
};

static void pieces_free(struct hub_feed_cache *c)
{
    for (int32_t i = 0; i < c->n_piece; i++)
        free(c->piece[i].text);
    free(c->piece);
    c->piece = NULL;
    c->n_piece = 0;
}

void hub__feed_cache_free(struct hub_feed_cache *c)
{
    if (!c)
        return;
    free(c->player_fp);
    free(c->table_fp);
    free(c->times);
    free(c->times_tkey);
    for (int32_t r = 0; r < c->n_rfp; r++)
        free(c->rfp[r].t);
    free(c->rfp);
    free(c->h0_gen);
    free(c->hist_fp0);
    free(c->hist_at0);
    free(c->hist0);
    pieces_free(c);
    tny_standings_release(&c->st);
    free(c->st_row_fp);
    free(c->pfp);
    free(c->reg);
    free(c->pd_tkey);
    free(c->row_of);
    free(c);
}

/* Forgets which documents were sent (the next build sends all). */
static void cache_forget(struct hub_feed_cache *c)
{
    if (c->player_fp)
        memset(c->player_fp, 0, sizeof(*c->player_fp) * (size_t)c->n_players);
    if (c->table_fp)
        memset(c->table_fp, 0, sizeof(*c->table_fp) * (size_t)c->n_table_fp);
    c->event_fp = c->pairings_fp = c->standings_fp = c->bracket_fp = 0;
    c->pd_key = 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t v;
    for (; n >= 8; n -= 8, b += 8) {
        memcpy(&v, b, 8);
        h = mix(h, v);
    }
    v = 0;
    memcpy(&v, b, n);
    return mix(h, v ^ ((uint64_t)n << 56));
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return s ? hash_bytes(h, s, strlen(s)) : mix(h, 0x6e756c6cull);
}

/* ---- documents, written as text from the model (feed_json.h) ---------- */

static int add_text(struct hub_outbox *ob, const struct hub_ev *e,
                    const char *what, struct hub_jw *w, bool retained)
{
    char topic[HUB_TOPIC_MAX];
    size_t len = w->len;
    char *text = hub_jw_take(w);
    if (!text)
        return TNY_ENOMEM;
    int n = snprintf(topic, sizeof(topic), "%sfeed/%s/%s",
                     TNY_WIRE_TOPIC_PREFIX, e->id, what);
    if (n < 0 || (size_t)n >= sizeof(topic)) { /* ids are shorter */
        free(text);
        return TNY_ESTATE;
    }
    return hub_outbox_add(ob, topic, (uint8_t *)text, len, retained);
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

static void event_keys(struct hub_jw *w, const struct hub_ev *e,
                       int64_t updated_ms)
{
    static const char *const status[] = {"setup", "running", "finished"};
    const struct tny_format *f = &e->ev.format;
    int32_t r = e->ev.n_rounds, in_stage = 0, planned = stage_rounds(e);
    for (int32_t k = 0; k < r; k++)
        in_stage += e->ev.rounds[k].stage == e->ev.rounds[r - 1].stage;
    hub_jw_obj(w);
    hub_jw_kstr(w, "id", e->id);
    hub_jw_kstr(w, "title", e->ev.title[0] ? e->ev.title : f->title);
    hub_jw_kstr(w, "format", f->name);
    hub_jw_kstr(w, "game", tny_game_name(f->game));
    hub_jw_kstr(w, "level", level_name(e->ev.level));
    /* issue 21: the pages' default language (null = the browser's) */
    hub_jw_kstr(w, "language", e->ev.language[0] ? e->ev.language : NULL);
    hub_jw_kstr(w, "status",
                e->info.status <= HUB_EVENT_FINISHED ? status[e->info.status]
                                                     : "?");
    hub_jw_kint(w, "round", r);
    hub_jw_kstr(w, "round_status", round_status(e));
    hub_jw_kstr(w, "stage",
                r ? tny_stage_kind_name(e->ev.rounds[r - 1].stage) : NULL);
    hub_jw_kstr(w, "stage_name", stage_name(e));
    hub_jw_kint(w, "players", e->ev.n_players);
    hub_jw_kint(w, "updated_ms", updated_ms);
    if (r > 0)
        hub_jw_kint(w, "stage_round", in_stage);
    if (planned > 0)
        hub_jw_kint(w, "stage_rounds", planned);
    hub_jw_end(w);
}

/* event: `updated_ms` is when the document's content last changed
 * (remembered in e), so an unchanged event document is equal to the last
 * one and not sent again to every phone after each result. */
static void event_doc(struct hub_jw *w, struct hub_ev *e, int64_t now_ms)
{
    hub_jw_reset(w);
    event_keys(w, e, 0);
    uint64_t h = hash_bytes(0, w->buf ? w->buf : "", w->len);
    if (h != e->feed_event_hash || !e->feed_event_ms) {
        e->feed_event_hash = h;
        e->feed_event_ms = now_ms;
    }
    hub_jw_reset(w);
    event_keys(w, e, e->feed_event_ms ? e->feed_event_ms : now_ms);
}

/* An optional text: NULL (the key is left out) when unknown or empty. */
static const char *known(const char *s)
{
    return s && s[0] ? s : NULL;
}

/* A player object's keys (docs/feed.md): an unknown club / country is
 * absent, not null. */
static void brief_keys(struct hub_jw *w, const struct hub_ev *e, int32_t p)
{
    const struct tny_player *pl = &e->ev.players[p];
    hub_jw_kstr(w, "id", pl->id);
    hub_jw_kstr(w, "name", pl->name);
    if (known(pl->club))
        hub_jw_kstr(w, "club", pl->club);
    if (known(pl->country))
        hub_jw_kstr(w, "country", pl->country);
}

static void player_brief(struct hub_jw *w, const struct hub_ev *e, int32_t p)
{
    hub_jw_obj(w);
    brief_keys(w, e, p);
    hub_jw_end(w);
}

/* The fingerprint of what brief_keys and seat_doc write of a player. */
static uint64_t brief_fp(const struct hub_ev *e, int32_t p)
{
    const struct tny_player *pl = &e->ev.players[p];
    uint64_t h = hash_str(hash_str(0, pl->id), pl->name);
    h = hash_str(hash_str(h, known(pl->club)), known(pl->country));
    h = hash_bytes(h, pl->armies, sizeof(pl->armies[0]) * (size_t)pl->n_armies);
    h = mix(h, (uint64_t)pl->n_armies << 8 | (uint64_t)pl->n_colours);
    for (int32_t k = 0; k < pl->n_colours; k++)
        h = hash_str(h, pl->colours[k]);
    return hash_str(hash_str(h, pl->faction), pl->agenda);
}

static void seat_doc(struct hub_jw *w, const struct hub_ev *e,
                     const struct tny_table *t, int32_t i, int32_t first_seat)
{
    const struct tny_player *pl = &e->ev.players[t->seats[i]];
    const struct tny_format *f = &e->ev.format;
    hub_jw_obj(w);
    brief_keys(w, e, t->seats[i]);
    hub_jw_kint(w, "seat", i + 1);
    if (first_seat == i)
        hub_jw_kbool(w, "first", true);
    if (t->has_sides && f->n_sides == 2) /* issue 19 */
        hub_jw_kstr(w, "side", f->sides[t->side[i] & 1]);
    if (pl->n_armies > 0) {
        hub_jw_key(w, "armies");
        hub_jw_arr(w);
        for (int32_t k = 0; k < pl->n_armies; k++)
            if (pl->armies[k] >= 0 && pl->armies[k] < f->n_armies)
                hub_jw_str(w, f->armies[pl->armies[k]]);
        hub_jw_end_arr(w);
    }
    if (t->has_result && t->result.army[i] >= 0 &&
        t->result.army[i] < f->n_armies)
        hub_jw_kstr(w, "army", f->armies[t->result.army[i]]);
    if (pl->n_colours > 0) {
        hub_jw_key(w, "colours");
        hub_jw_arr(w);
        for (int32_t k = 0; k < pl->n_colours; k++)
            if (pl->colours[k])
                hub_jw_str(w, pl->colours[k]);
        hub_jw_end_arr(w);
    }
    if (pl->faction)
        hub_jw_kstr(w, "faction", pl->faction);
    if (pl->agenda)
        hub_jw_kstr(w, "agenda", pl->agenda);
    hub_jw_end(w);
}

/* One build: the event, its latest round and what is known of it. */
struct build {
    struct hub_service *svc;
    struct hub_ev *e;
    struct hub_feed_cache *c;
    int64_t now;
    int32_t r; /* latest round, 0 = none */
    const struct tny_round *round;
    /* player documents left for the next build (feed_piece_bytes) */
    bool partial;
    bool have_clock;
    struct tny_round_clock clock;
    struct hub_device **by_table;
    int32_t n_by_table;
    uint64_t *pfp;     /* [player] brief_fp */
    uint64_t *cur_fp;  /* [table index of the latest round] table_fp */
    uint64_t *hist_fp; /* [player] the results and byes so far */
    int32_t *seat_tab; /* [player] table index in the latest round, -1 */
    bool *bye;         /* [player] has the bye in the latest round */
    /* Each player's byes and counted results in the latest round (those
     * of the rounds before: c->hist0): the tables hist[hist_at[p]] ..
     * hist[hist_at[p + 1] - 1] (round, table index).  Issue 23:
     * history() read every table of every round for each player, players
     * x rounds x tables a build (the soak's turnaround and CPU grew with
     * the rounds). */
    int32_t *hist_at;
    struct hist_ref *hist;
    /* Issue 17 item 2: each table's entry of the latest round and its
     * piece_fp, made once a build (entries()) for the table/N documents
     * and the `tables` document (each made them for every table). */
    struct entry *ent;
    uint64_t *ent_fp;
    /* Issue 17 item 2: the rows of the standings whose players' documents
     * this build visits, ascending (NULL: every row; players_todo) */
    int32_t *todo, n_todo;
    struct hub_jw w, res; /* the document being written; a result */
    struct hub_jw piece;  /* a `tables` entry, its clock */
};

static int32_t first_seat_of(struct build *b, const struct tny_table *tb)
{
    struct hub_table_state *ts = hub__ev_table_state(b->e, tb->number);
    return ts ? ts->first_seat : -1;
}

/* A table's fingerprint: its seats and result as stored, its players. */
static uint64_t table_fp(const struct build *b, int32_t r,
                         const struct tny_table *tb)
{
    uint64_t h = mix((uint64_t)r, (uint64_t)(uint32_t)tb->number << 1 |
                                      (uint64_t)tb->is_bye);
    h = mix(h, (uint64_t)tb->n_seats << 1 | (uint64_t)tb->has_result);
    for (int32_t i = 0; i < tb->n_seats; i++)
        h = mix(h, b->pfp[tb->seats[i]]);
    if (tb->has_result) {
        const struct tny_result *x = &tb->result;
        h = hash_bytes(h, x, offsetof(struct tny_result, n_lots));
        for (int32_t k = 0; k < x->n_lots && k < TNY_MAX_LOTS; k++)
            h = hash_str(h, x->lots[k]);
    }
    return h;
}

/* What the pairings document writes of a table: its number, seats,
 * sides and players, and the armies its result names (NH-11); not the
 * rest of the result, so a result that names no army leaves the round's
 * pairings (150 kB at 2,000 players) unwritten (issue 17). */
static uint64_t pairing_fp(const struct build *b, const struct tny_table *tb)
{
    uint64_t h = mix((uint64_t)(uint32_t)tb->number << 1 | (uint64_t)tb->is_bye,
                     (uint64_t)tb->n_seats << 1 | (uint64_t)tb->has_sides);
    for (int32_t i = 0; i < tb->n_seats; i++) {
        int32_t army = tb->has_result ? tb->result.army[i] : -1;
        h = mix(h, b->pfp[tb->seats[i]]);
        h = mix(h, (uint64_t)(uint8_t)tb->side[i] << 32 |
                       (uint64_t)(uint32_t)(army + 1));
    }
    return h;
}

static void pairings_doc(struct build *b)
{
    struct hub_jw *w = &b->w;
    const struct hub_ev *e = b->e;
    hub_jw_reset(w);
    hub_jw_obj(w);
    hub_jw_kint(w, "round", b->r);
    hub_jw_kstr(w, "stage", b->r ? tny_stage_kind_name(b->round->stage) : NULL);
    hub_jw_kstr(w, "stage_name", stage_name(e));
    hub_jw_key(w, "tables");
    hub_jw_arr(w);
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++) {
        const struct tny_table *tb = &b->round->tables[t];
        if (tb->is_bye)
            continue;
        hub_jw_obj(w);
        hub_jw_kint(w, "table", tb->number);
        hub_jw_key(w, "players");
        hub_jw_arr(w);
        int32_t first = first_seat_of(b, tb);
        for (int32_t i = 0; i < tb->n_seats; i++)
            seat_doc(w, e, tb, i, first);
        hub_jw_end_arr(w);
        hub_jw_end(w);
    }
    hub_jw_end_arr(w);
    hub_jw_key(w, "byes");
    hub_jw_arr(w);
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++)
        if (b->round->tables[t].is_bye)
            player_brief(w, e, b->round->tables[t].seats[0]);
    hub_jw_end_arr(w);
    hub_jw_end(w);
}

/* A clock object (docs/feed.md); steady: without what changes at every
 * publication (hub_now_ms; remaining_ms of a running clock, which
 * deadline_ms gives), so a table's document changes only when the table
 * does and the hub does not send it again. */
static void clock_doc(struct hub_jw *w, const struct tny_clock_msg *m,
                      int64_t now_ms, bool steady)
{
    static const char *const states[] = {"not_started", "running", "paused"};
    bool running = m->state == TNY_ROUND_CLOCK_RUNNING;
    hub_jw_obj(w);
    hub_jw_kstr(w, "state",
                m->state <= TNY_ROUND_CLOCK_PAUSED ? states[m->state] : "?");
    hub_jw_kbool(w, "unlimited", m->unlimited);
    if (!steady)
        hub_jw_kint(w, "hub_now_ms", now_ms);
    if (!m->unlimited && running) {
        hub_jw_kint(w, "deadline_ms", m->deadline_ms);
        if (!steady)
            hub_jw_kint(w, "remaining_ms", m->deadline_ms - now_ms);
    } else if (!m->unlimited) {
        hub_jw_kint(w, "remaining_ms", m->remaining_ms);
    }
    hub_jw_end(w);
}

/* The table's counted result as the event file writes it (the wire
 * conversion and the hub's result writer) into b->res; false when it
 * cannot be converted (then the table shows no result). */
static bool result_doc(struct build *b, const struct tny_table *tb)
{
    struct tny_wire_result wr;
    struct tny_diag ignored;
    hub_jw_reset(&b->res);
    return tny_wire_result_from_table(&b->e->ev, tb, &wr, &ignored) == 0 &&
           hub__result_write(&b->res, &wr, &ignored) == 0 && !b->res.oom;
}

/* When each table's counted result was stored (the created_ms of its
 * valid, not superseded row), in c->times[table number] (0 = none): one
 * query for the round, again only when a table's result changed. */
/* The created_ms of the counted row of each of the rows' tables into
 * c->times (0 when it has none); rows of one table or of the round. */
static void times_from(struct hub_feed_cache *c, int32_t table,
                       const struct hub_result_row *rows, int32_t n_rows)
{
    if (table > 0 && table < c->n_times)
        c->times[table] = 0;
    for (int32_t i = 0; i < n_rows; i++)
        if (rows[i].status == HUB_RESULT_VALID && !rows[i].superseded_by &&
            rows[i].table >= 0 && rows[i].table < c->n_times)
            c->times[rows[i].table] = rows[i].created_ms;
}

static int confirmed_times(struct build *b, struct tny_diag *diag)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_round *round = b->round;
    struct hub_result_row *rows = NULL;
    int32_t n_rows = 0, max = 0, changed = 0;
    uint64_t key = mix(0, (uint64_t)b->r);
    int rc;
    for (int32_t t = 0; t < round->n_tables; t++)
        if (round->tables[t].number > max)
            max = round->tables[t].number;
    /* Issue 17: each table's key; a table whose key changed is read
     * again alone (one result: one table's rows, not the round's). */
    bool whole = !c->times || c->n_times != max + 1 || !c->times_tkey;
    uint64_t *tkey = calloc((size_t)max + 1, sizeof(*tkey));
    if (!tkey)
        return TNY_ENOMEM;
    for (int32_t t = 0; t < round->n_tables; t++) {
        int32_t no = round->tables[t].number;
        const struct hub_table_state *ts = hub__ev_table_state(b->e, no);
        /* a correction may count a result equal to the one before */
        uint64_t k =
            mix(key, b->cur_fp[t] ^ (ts ? (uint64_t)ts->pending << 1 |
                                              (uint64_t)ts->conflict << 2
                                        : 0));
        if (no >= 0)
            tkey[no] = k;
        changed += !whole && no >= 0 && c->times_tkey[no] != k;
    }
    if (!whole && changed <= 8) {
        for (int32_t no = 0; no <= max && true; no++) {
            if (c->times_tkey[no] == tkey[no])
                continue;
            if ((rc = hub_store_list_results(b->svc->store, b->e->id, b->r, no,
                                             &rows, &n_rows, diag)) < 0 &&
                rc != TNY_ENOTFOUND) {
                free(tkey);
                return rc;
            }
            times_from(c, no, rows, rc < 0 ? 0 : n_rows);
            hub_result_rows_free(rows, rc < 0 ? 0 : n_rows);
            rows = NULL;
            n_rows = 0;
            c->times_tkey[no] = tkey[no];
        }
        free(tkey);
        return TNY_OK;
    }
    free(c->times);
    free(c->times_tkey);
    c->times = NULL;
    c->times_tkey = NULL;
    c->n_times = 0;
    if ((rc = hub_store_list_results(b->svc->store, b->e->id, b->r, 0, &rows,
                                     &n_rows, diag)) < 0) {
        free(tkey);
        return rc == TNY_ENOTFOUND ? TNY_OK : rc;
    }
    c->times = calloc((size_t)max + 1, sizeof(*c->times));
    if (!c->times) {
        free(tkey);
        hub_result_rows_free(rows, n_rows);
        return TNY_ENOMEM;
    }
    c->n_times = max + 1;
    c->times_tkey = tkey;
    times_from(c, 0, rows, n_rows);
    hub_result_rows_free(rows, n_rows);
    return TNY_OK;
}

/* One table's object of the `tables` document (steady: the table/N
 * document's, its clock steady and the round and players added). */
/* What a table's entry (and its table/N document) shows, as typed
 * values: written by entry_write, fingerprinted by entry_fp. */
struct entry {
    const char *state;
    const struct hub_device *dev;
    int64_t ext;
    struct tny_clock_msg m; /* when b->have_clock */
    int draft;              /* AG-14 draft started: 1 / 0; -1 not shown */
    int64_t confirmed_ms;   /* 0 not shown */
};

static void entry_of(struct build *b, const struct tny_table *tb,
                     struct entry *x)
{
    struct hub_ev *e = b->e;
    struct hub_table_state *ts = hub__ev_table_state(e, tb->number);
    memset(x, 0, sizeof(*x));
    x->ext = hub__ev_extension(e, b->r, tb->number);
    x->state = "waiting";
    /* The table's own clock (AG-14: from its draft start). */
    if (b->have_clock)
        hub__table_clock(e, &b->clock, b->r, tb->number, b->now, &x->m);
    if (ts && ts->conflict)
        x->state = "conflict";
    else if (tb->has_result)
        x->state = "confirmed";
    else if (ts && ts->pending)
        x->state = "pending_confirmation";
    else if (b->have_clock && b->clock.state != TNY_ROUND_CLOCK_READY) {
        x->state = "playing";
        if (x->m.state == TNY_ROUND_CLOCK_RUNNING && !x->m.unlimited &&
            x->m.deadline_ms <= b->now)
            x->state = "overdue";
    }
    x->dev = tb->number >= 0 && tb->number < b->n_by_table
                 ? b->by_table[tb->number]
                 : NULL;
    x->draft = hub__ev_per_table_start(e) /* AG-14 */
                   ? hub__ev_start_delay(e, b->r, tb->number) >= 0
                   : -1;
    /* Only the counted result, never a pending or disputed one. */
    if (tb->has_result && tb->number >= 0 && tb->number < b->c->n_times &&
        b->c->times[tb->number] > 0)
        x->confirmed_ms = b->c->times[tb->number];
}

/* The fingerprint of what entry_write shows of a table but its clock
 * and players (t: the table's index in the latest round, whose
 * fingerprint covers its seats, players and result). */
static uint64_t piece_fp(struct build *b, int32_t t, const struct entry *x)
{
    uint64_t h = mix(b->cur_fp[t], (uint64_t)b->r);
    h = hash_str(hash_str(h, x->state), x->dev ? x->dev->id : NULL);
    h = mix(h, (uint64_t)(x->dev && x->dev->state == TNY_WIRE_PRESENCE_ONLINE));
    h = mix(mix(h, (uint64_t)x->ext), (uint64_t)x->confirmed_ms);
    return mix(h, (uint64_t)(x->draft + 1)) | 1;
}

/* The fingerprint of the table/N document entry_write(steady) writes:
 * everything it shows (t: as for piece_fp). */
static uint64_t entry_fp(struct build *b, int32_t t, const struct entry *x)
{
    const struct tny_table *tb = &b->round->tables[t];
    uint64_t h = mix(b->ent_fp[t], (uint64_t)(first_seat_of(b, tb) + 2));
    h = mix(h, (uint64_t)b->have_clock);
    if (b->have_clock) {
        bool running = x->m.state == TNY_ROUND_CLOCK_RUNNING;
        h = mix(h, (uint64_t)x->m.state << 1 | (uint64_t)x->m.unlimited);
        h = mix(h, (uint64_t)(running ? x->m.deadline_ms : x->m.remaining_ms));
    }
    return h | 1;
}

/* One table's object of the `tables` document into w (steady: the
 * table/N document's, its clock steady and the round and players added).
 * With clock_at, the clock is left out and *clock_at is where it goes
 * (after the table's first keys: `,"clock":` and its object). */
static void entry_write(struct build *b, struct hub_jw *w,
                        const struct tny_table *tb, const struct entry *x,
                        bool steady, size_t *clock_at)
{
    hub_jw_obj(w);
    hub_jw_kint(w, "table", tb->number);
    hub_jw_kstr(w, "state", x->state);
    hub_jw_kstr(w, "device", x->dev ? x->dev->id : NULL);
    hub_jw_kbool(w, "online",
                 x->dev && x->dev->state == TNY_WIRE_PRESENCE_ONLINE);
    if (x->ext > 0)
        hub_jw_kint(w, "extension_ms", x->ext);
    if (clock_at) {
        *clock_at = w->len;
    } else if (b->have_clock) {
        hub_jw_key(w, "clock");
        clock_doc(w, &x->m, b->now, steady);
    }
    if (x->draft >= 0)
        hub_jw_kbool(w, "draft_started", x->draft);
    if (x->confirmed_ms > 0)
        hub_jw_kint(w, "confirmed_ms", x->confirmed_ms);
    if (strcmp(x->state, "confirmed") == 0 && result_doc(b, tb)) {
        hub_jw_key(w, "result");
        hub_jw_raw(w, b->res.buf, b->res.len);
    }
    if (steady) {
        int32_t first = first_seat_of(b, tb);
        hub_jw_kint(w, "round", b->r);
        hub_jw_key(w, "players");
        hub_jw_arr(w);
        for (int32_t i = 0; i < tb->n_seats; i++)
            seat_doc(w, b->e, tb, i, first);
        hub_jw_end_arr(w);
    }
    hub_jw_end(w);
}

static bool clock_same(const struct tny_clock_msg *a,
                       const struct tny_clock_msg *z)
{
    return a->state == z->state && a->unlimited == z->unlimited &&
           a->deadline_ms == z->deadline_ms &&
           a->remaining_ms == z->remaining_ms;
}

/* Table t's entry of the `tables` document: its cached piece (written
 * again when piece_fp changed) around the clock of this build (*ck: the
 * clock last written into b->piece, reused by the tables showing the
 * same; *have_ck false before the first). */
static void tables_entry(struct build *b, int32_t t, struct tny_clock_msg *ck,
                         bool *have_ck)
{
    static const char clock_key[] = ",\"clock\":";
    struct hub_feed_cache *c = b->c;
    const struct tny_table *tb = &b->round->tables[t];
    struct entry x = b->ent[t];
    if (tb->number < 0 || tb->number >= c->n_piece) { /* not cached */
        entry_write(b, &b->w, tb, &x, false, NULL);
        b->svc->stats.feed_table_entries_written++;
        return;
    }
    struct piece *pc = &c->piece[tb->number];
    uint64_t fp = b->ent_fp[t];
    if (!pc->text || pc->fp != fp) {
        struct hub_jw pw;
        size_t head = 0;
        hub_jw_init(&pw);
        entry_write(b, &pw, tb, &x, false, &head);
        b->svc->stats.feed_table_entries_written++;
        size_t len = pw.len;
        char *text = hub_jw_take(&pw);
        if (!text) {
            b->w.oom = true;
            return;
        }
        free(pc->text);
        *pc = (struct piece){.fp = fp, .text = text, .head = head, .len = len};
    }
    hub_jw_raw(&b->w, pc->text, pc->head);
    if (b->have_clock) {
        if (!*have_ck || !clock_same(ck, &x.m)) {
            hub_jw_reset(&b->piece);
            clock_doc(&b->piece, &x.m, b->now, false);
            *ck = x.m;
            *have_ck = true;
        }
        hub_jw_append(&b->w, clock_key, sizeof(clock_key) - 1);
        hub_jw_append(&b->w, b->piece.buf, b->piece.len);
    }
    hub_jw_append(&b->w, pc->text + pc->head, pc->len - pc->head);
}

static void tables_doc(struct build *b)
{
    struct hub_jw *w = &b->w;
    struct hub_feed_cache *c = b->c;
    struct tny_clock_msg ck = {0};
    bool have_ck = false;
    if (c->n_piece != c->n_table_fp) {
        pieces_free(c);
        c->piece = calloc((size_t)c->n_table_fp + 1, sizeof(*c->piece));
        c->n_piece = c->piece ? c->n_table_fp : 0;
    }
    hub_jw_reset(w);
    (void)hub_jw_reserve(w, c->tables_len + c->tables_len / 8);
    hub_jw_obj(w);
    hub_jw_kint(w, "round", b->r);
    hub_jw_kstr(w, "round_status", round_status(b->e));
    hub_jw_key(w, "clock");
    if (b->have_clock) {
        struct tny_clock_msg m;
        tny_round_clock_message(&b->clock, 0, b->now, &m);
        clock_doc(w, &m, b->now, false);
    } else {
        hub_jw_null(w);
    }
    hub_jw_key(w, "tables");
    hub_jw_arr(w);
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++)
        if (!b->round->tables[t].is_bye)
            tables_entry(b, t, &ck, &have_ck);
    hub_jw_end_arr(w);
    hub_jw_end(w);
    c->tables_len = w->len;
}

/* A standings value as the contract's JSON printed it and the feed read
 * it back before (tny__number, 15 significant digits, then jansson's
 * 17): the documents stay byte for byte what they were. */
static void number15(struct hub_jw *w, double v)
{
    char text[40];
    if (isfinite(v) && fabs(v) < 9007199254740992.0 && v == floor(v)) {
        hub_jw_int(w, (int64_t)v);
        return;
    }
    if (!isfinite(v)) {
        hub_jw_null(w);
        return;
    }
    snprintf(text, sizeof(text), "%.15g", v);
    hub_jw_real(w, strtod(text, NULL));
}

static void points15(struct hub_jw *w, int64_t units)
{
    if (units % TNY_POINT_SCALE == 0)
        hub_jw_int(w, units / TNY_POINT_SCALE);
    else
        number15(w, (double)units / TNY_POINT_SCALE);
}

/* A row of tny_standings_to_json (output_json.c), written directly. */
static void standing_row(struct hub_jw *w, const struct hub_ev *e,
                         const struct tny_standings *st,
                         const struct tny_standing_row *row)
{
    const struct tny_player *pl = &e->ev.players[row->player];
    hub_jw_obj(w);
    hub_jw_kint(w, "rank", row->rank);
    hub_jw_kstr(w, "player", pl->id);
    hub_jw_kstr(w, "name", pl->name);
    hub_jw_key(w, "points");
    points15(w, row->points);
    hub_jw_key(w, "tiebreaks");
    hub_jw_obj(w);
    for (int32_t i = 0; i < st->n_tiebreaks; i++) {
        hub_jw_key(w, tny_tiebreak_name(st->tiebreaks[i]));
        if (row->has_tiebreak[i])
            number15(w, row->tiebreaks[i]);
        else
            hub_jw_null(w);
    }
    hub_jw_end(w);
    hub_jw_kbool(w, "dropped", row->dropped);
    hub_jw_kbool(w, "decided_by_lot", row->decided_by_lot);
    if (row->disqualified)
        hub_jw_kbool(w, "disqualified", true);
    if (row->separate_list)
        hub_jw_kbool(w, "separate_list", true);
    hub_jw_end(w);
}

static uint64_t row_fp(uint64_t h, const struct tny_standings *st,
                       const struct tny_standing_row *row)
{
    h = mix(h, (uint64_t)(uint32_t)row->rank << 32 | (uint32_t)row->player);
    h = mix(h, (uint64_t)row->points);
    for (int32_t i = 0; i < st->n_tiebreaks; i++) {
        uint64_t v;
        memcpy(&v, &row->tiebreaks[i], sizeof(v));
        h = mix(h, row->has_tiebreak[i] ? v : 0x7ff8dead);
    }
    return mix(h, (uint64_t)row->dropped | (uint64_t)row->decided_by_lot << 1 |
                      (uint64_t)row->disqualified << 2 |
                      (uint64_t)row->separate_list << 3);
}

/* The standings of the completed rounds, computed again only when what
 * they are computed from changed: the completed rounds' tables, the
 * players (and their lifecycle), the format. */
static int standings(struct build *b, struct tny_diag *diag)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_event *ev = &b->e->ev;
    int32_t done = 0; /* tny_event_completed_rounds, from b->c->rfp */
    while (done < ev->n_rounds && c->rfp[done].complete)
        done++;
    uint64_t h = mix(hash_str(hash_str(0, ev->format.name), b->e->id),
                     (uint64_t)done << 32 | (uint32_t)ev->n_players);
    h = mix(mix(h, ev->seed), c->pfp_life); /* the players, their lifecycle */
    for (int32_t r = 0; r < done && r < ev->n_rounds; r++)
        h = mix(h, c->rfp[r].all);
    if (c->have_st && c->standings_in == h)
        return TNY_OK;
    tny_standings_release(&c->st);
    free(c->st_row_fp);
    c->st_row_fp = NULL;
    c->have_st = false;
    c->standings_in = h;
    c->st_serial++;
    int rc = tny_standings_compute(ev, &c->st, diag);
    if (rc == TNY_ENOMEM)
        return rc;
    c->have_st = rc == 0;
    return TNY_OK;
}

/* c->st_row_fp of the standings c->st (have_st), once per computation. */
static int row_fps(struct hub_feed_cache *c)
{
    const struct tny_standings *st = &c->st;
    if (c->st_row_fp)
        return TNY_OK;
    if (!(c->st_row_fp = malloc(sizeof(uint64_t) * ((size_t)st->n_rows + 1))))
        return TNY_ENOMEM;
    for (int32_t i = 0; i < st->n_rows; i++)
        c->st_row_fp[i] = row_fp(0, st, &st->rows[i]);
    return TNY_OK;
}

static void standings_doc(struct build *b)
{
    struct hub_jw *w = &b->w;
    const struct tny_standings *st = &b->c->st;
    hub_jw_reset(w);
    hub_jw_obj(w);
    if (!b->c->have_st) {
        hub_jw_kint(w, "after_round", 0);
        hub_jw_key(w, "standings");
        hub_jw_arr(w);
        hub_jw_end_arr(w);
        hub_jw_end(w);
        return;
    }
    hub_jw_kint(w, "after_round", st->after_round);
    hub_jw_kstr(w, "stage", tny_stage_kind_name(st->stage));
    hub_jw_key(w, "standings");
    hub_jw_arr(w);
    for (int32_t i = 0; i < st->n_rows; i++)
        standing_row(w, b->e, st, &st->rows[i]);
    hub_jw_end_arr(w);
    hub_jw_end(w);
}

static uint64_t standings_fp(const struct build *b)
{
    const struct tny_standings *st = &b->c->st;
    uint64_t h = mix(0, b->c->have_st);
    if (!b->c->have_st)
        return h;
    if (row_fps(b->c) < 0)
        return mix(h, (uint64_t)b->now); /* not known: written again */
    h = mix(h, (uint64_t)st->after_round << 32 | (uint32_t)st->stage);
    h = hash_bytes(h, st->tiebreaks,
                   sizeof(st->tiebreaks[0]) * (size_t)st->n_tiebreaks);
    for (int32_t i = 0; i < st->n_rows; i++)
        h = mix(mix(h, b->c->st_row_fp[i]), b->pfp[st->rows[i].player]);
    return h;
}

static void bracket_doc(struct build *b)
{
    struct hub_jw *w = &b->w;
    const struct hub_ev *e = b->e;
    hub_jw_reset(w);
    hub_jw_obj(w);
    hub_jw_key(w, "rounds");
    hub_jw_arr(w);
    for (int32_t r = 0; r < e->ev.n_rounds; r++) {
        const struct tny_round *round = &e->ev.rounds[r];
        if (round->stage != TNY_STAGE_ELIMINATION)
            continue;
        hub_jw_obj(w);
        hub_jw_kint(w, "round", r + 1);
        hub_jw_key(w, "tables");
        hub_jw_arr(w);
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            hub_jw_obj(w);
            if (tb->is_bye) {
                hub_jw_key(w, "bye");
                player_brief(w, e, tb->seats[0]);
                hub_jw_end(w);
                continue;
            }
            const char *winner = NULL;
            if (tb->has_result) {
                int32_t s = tny_result_winner_seat(&e->ev.format, &tb->result);
                if (s >= 0 && s < tb->n_seats)
                    winner = e->ev.players[tb->seats[s]].id;
            }
            hub_jw_kint(w, "table", tb->number);
            hub_jw_key(w, "players");
            hub_jw_arr(w);
            for (int32_t i = 0; i < tb->n_seats; i++)
                player_brief(w, e, tb->seats[i]);
            hub_jw_end_arr(w);
            hub_jw_kstr(w, "winner", winner);
            if (tb->has_result && tb->result.n_games > 0) {
                hub_jw_key(w, "games");
                hub_jw_arr(w);
                for (int32_t k = 0; k < tb->result.n_games; k++) {
                    int32_t s = tb->result.games[k];
                    hub_jw_str(w, s >= 0 && s < tb->n_seats
                                      ? e->ev.players[tb->seats[s]].id
                                      : NULL);
                }
                hub_jw_end_arr(w);
            }
            hub_jw_end(w);
        }
        hub_jw_end_arr(w);
        hub_jw_end(w);
    }
    hub_jw_end_arr(w);
    hub_jw_end(w);
}

static uint64_t bracket_fp(const struct build *b)
{
    const struct tny_event *ev = &b->e->ev;
    uint64_t h = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        if (ev->rounds[r].stage == TNY_STAGE_ELIMINATION)
            h = mix(h, b->c->rfp[r].all);
    return h;
}

static bool topic_safe(const char *id)
{
    return id && id[0] && !strpbrk(id, "/+#") && strlen(id) <= 64;
}

/* A player's results so far (docs/feed.md player/ID "results"): every
 * counted result and bye, oldest first. */
static void history_of(struct build *b, const struct hist_ref *refs,
                       int32_t from, int32_t to)
{
    struct hub_jw *w = &b->w;
    const struct hub_ev *e = b->e;
    for (int32_t k = from; k < to; k++) {
        int32_t r = refs[k].r;
        const struct tny_table *tb = &e->ev.rounds[r].tables[refs[k].t];
        if (tb->is_bye) {
            hub_jw_obj(w);
            hub_jw_kint(w, "round", r + 1);
            hub_jw_kbool(w, "bye", true);
            hub_jw_end(w);
            continue;
        }
        hub_jw_obj(w);
        hub_jw_kint(w, "round", r + 1);
        hub_jw_kint(w, "table", tb->number);
        hub_jw_key(w, "players");
        hub_jw_arr(w);
        for (int32_t i = 0; i < tb->n_seats; i++) {
            hub_jw_obj(w);
            brief_keys(w, e, tb->seats[i]);
            hub_jw_kint(w, "seat", i + 1);
            hub_jw_end(w);
        }
        hub_jw_end_arr(w);
        hub_jw_key(w, "result");
        if (result_doc(b, tb))
            hub_jw_raw(w, b->res.buf, b->res.len);
        else
            hub_jw_null(w);
        hub_jw_end(w);
    }
}

static void history(struct build *b, int32_t p)
{
    const struct hub_feed_cache *c = b->c;
    hub_jw_arr(&b->w);
    history_of(b, c->hist0, c->hist_at0[p], c->hist_at0[p + 1]);
    history_of(b, b->hist, b->hist_at[p], b->hist_at[p + 1]);
    hub_jw_end_arr(&b->w);
}

/* player/ID: the player's seat in the latest round with the opponents,
 * the player's results so far and row of the standings (docs/feed.md);
 * written only for a player whose document's inputs changed. */
static int player_docs(struct build *b, struct hub_outbox *ob)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_standings *st = &c->st;
    const struct hub_ev *e = b->e;
    char what[96];
    size_t written = 0, budget = b->svc->opt.feed_piece_bytes;
    int rc;
    if (!c->have_st)
        return TNY_OK;
    uint64_t common = mix(mix((uint64_t)b->r, (uint64_t)st->after_round),
                          (uint64_t)st->n_rows);
    common = hash_bytes(common, st->tiebreaks,
                        sizeof(st->tiebreaks[0]) * (size_t)st->n_tiebreaks);
    if ((rc = row_fps(c)) < 0)
        return rc;
    for (int32_t k = 0; k < (b->todo ? b->n_todo : st->n_rows); k++) {
        const int32_t i = b->todo ? b->todo[k] : k; /* players_todo */
        const struct tny_standing_row *row = &st->rows[i];
        int32_t p = row->player, ti = b->seat_tab[p];
        const char *id = e->ev.players[p].id;
        if (!topic_safe(id))
            continue;
        const struct tny_table *tt = ti >= 0 ? &b->round->tables[ti] : NULL;
        uint64_t fp = mix(common, c->st_row_fp[i]);
        fp = mix(mix(fp, b->pfp[p]), b->hist_fp[p]);
        fp = mix(fp, tt ? b->cur_fp[ti] ^ (uint64_t)(first_seat_of(b, tt) + 2)
                        : (uint64_t)b->bye[p]);
        if (fp == 0)
            fp = 1;
        if (c->player_fp[p] == fp)
            continue;
        if (budget > 0 && written >= budget) {
            /* Issue 17 item 2: the rest in the next build, so a build
             * holds a bounded piece of the players' documents */
            b->partial = true;
            return TNY_OK;
        }
        struct hub_jw *w = &b->w;
        hub_jw_reset(w);
        hub_jw_obj(w);
        hub_jw_kstr(w, "id", id);
        hub_jw_kstr(w, "name", e->ev.players[p].name);
        hub_jw_kint(w, "round", b->r);
        hub_jw_kint(w, "table", tt ? tt->number : 0);
        hub_jw_kbool(w, "bye", b->bye[p] && !tt);
        hub_jw_kint(w, "after_round", st->after_round);
        hub_jw_kint(w, "of", st->n_rows);
        hub_jw_key(w, "standing");
        standing_row(w, e, st, row);
        hub_jw_key(w, "results");
        history(b, p);
        if (tt) {
            int32_t first = first_seat_of(b, tt);
            for (int32_t s = 0; s < tt->n_seats; s++)
                if (tt->seats[s] == p) {
                    hub_jw_key(w, "me");
                    seat_doc(w, e, tt, s, first);
                }
            hub_jw_key(w, "opponents");
            hub_jw_arr(w);
            for (int32_t s = 0; s < tt->n_seats; s++)
                if (tt->seats[s] != p)
                    seat_doc(w, e, tt, s, first);
            hub_jw_end_arr(w);
        }
        hub_jw_end(w);
        snprintf(what, sizeof what, "player/%s", id);
        written += w->len;
        if ((rc = add_text(ob, e, what, w, true)) < 0)
            return rc;
        c->player_fp[p] = fp;
        b->svc->stats.feed_player_docs_written++;
    }
    return TNY_OK;
}

/* b->ent and b->ent_fp of every table of the latest round. */
static int entries(struct build *b)
{
    int32_t n = b->round ? b->round->n_tables : 0;
    b->ent = malloc(sizeof(*b->ent) * ((size_t)n + 1));
    b->ent_fp = malloc(sizeof(*b->ent_fp) * ((size_t)n + 1));
    if (!b->ent || !b->ent_fp)
        return TNY_ENOMEM;
    for (int32_t t = 0; t < n; t++) {
        if (b->round->tables[t].is_bye)
            continue;
        entry_of(b, &b->round->tables[t], &b->ent[t]);
        b->ent_fp[t] = piece_fp(b, t, &b->ent[t]);
    }
    return TNY_OK;
}

/* table/N: the table's pairing (players with seats and extras) and its
 * state, steady clock, result (docs/feed.md); written only when it
 * differs from the one last sent. */
static int table_docs(struct build *b, struct hub_outbox *ob)
{
    struct hub_feed_cache *c = b->c;
    char what[32];
    int rc;
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++) {
        const struct tny_table *tb = &b->round->tables[t];
        if (tb->is_bye)
            continue;
        const struct entry *x = &b->ent[t];
        uint64_t fp = entry_fp(b, t, x);
        bool slot = tb->number >= 0 && tb->number < c->n_table_fp;
        if (slot && c->table_fp[tb->number] == fp)
            continue;
        hub_jw_reset(&b->w);
        entry_write(b, &b->w, tb, x, true, NULL);
        snprintf(what, sizeof what, "table/%d", (int)tb->number);
        if ((rc = add_text(ob, b->e, what, &b->w, true)) < 0)
            return rc;
        if (slot)
            c->table_fp[tb->number] = fp;
    }
    return TNY_OK;
}

/* Sizes the cache to the event (a changed player count or table range
 * forgets what was sent). */
static int cache_fit(struct hub_ev *e)
{
    struct hub_feed_cache *c = e->feed_cache;
    int32_t max = 0;
    if (!c && !(c = e->feed_cache = calloc(1, sizeof(*c))))
        return TNY_ENOMEM;
    for (int32_t t = 0;
         e->ev.n_rounds > 0 && t < e->ev.rounds[e->ev.n_rounds - 1].n_tables;
         t++)
        if (e->ev.rounds[e->ev.n_rounds - 1].tables[t].number > max)
            max = e->ev.rounds[e->ev.n_rounds - 1].tables[t].number;
    if (!c->valid || c->n_players != e->ev.n_players) {
        free(c->player_fp);
        c->n_players = e->ev.n_players;
        c->player_fp = calloc((size_t)c->n_players + 1, sizeof(uint64_t));
        if (!c->player_fp)
            return TNY_ENOMEM;
    }
    if (!c->valid || c->n_table_fp < max + 1) {
        free(c->table_fp);
        c->n_table_fp = max + 1;
        c->table_fp = calloc((size_t)c->n_table_fp, sizeof(uint64_t));
        if (!c->table_fp)
            return TNY_ENOMEM;
    }
    if (!c->valid) {
        cache_forget(c);
        pieces_free(c);
    }
    c->valid = true;
    return TNY_OK;
}

/* The table fingerprints of every round in b->c->rfp, computed for the
 * rounds whose generation (or the players' fingerprints) changed since
 * the last build (issue 23). */
static int round_fps(struct build *b, uint64_t players)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_event *ev = &b->e->ev;
    if (c->rfp_players != players)
        for (int32_t r = 0; r < c->n_rfp; r++)
            c->rfp[r].gen = 0;
    c->rfp_players = players;
    if (ev->n_rounds > c->n_rfp) {
        struct round_fp *m = realloc(c->rfp, sizeof(*m) * (size_t)ev->n_rounds);
        if (!m)
            return TNY_ENOMEM;
        memset(m + c->n_rfp, 0, sizeof(*m) * (size_t)(ev->n_rounds - c->n_rfp));
        c->rfp = m;
        c->n_rfp = ev->n_rounds;
    }
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        struct round_fp *x = &c->rfp[r];
        if (round->gen != 0 && x->gen == round->gen && x->n == round->n_tables)
            continue;
        if (x->cap < round->n_tables) {
            uint64_t *t = realloc(x->t, sizeof(*t) * (size_t)round->n_tables);
            if (!t) {
                x->gen = 0;
                return TNY_ENOMEM;
            }
            x->t = t;
            x->cap = round->n_tables;
        }
        x->all = mix((uint64_t)round->stage << 32, (uint32_t)round->n_tables);
        x->complete = true;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            x->t[t] = table_fp(b, r, tb);
            x->all = mix(x->all, x->t[t]);
            x->complete = x->complete && (tb->is_bye || tb->has_result);
        }
        x->gen = round->gen;
        x->n = round->n_tables;
        b->svc->stats.feed_rounds_fingerprinted++;
    }
    return TNY_OK;
}

/* Each player's byes and counted results in rounds [from, to), oldest
 * first: *at (players + 2) and *refs (malloc'd), player p's tables
 * (*refs)[(*at)[p]] .. (*refs)[(*at)[p + 1] - 1]; fp[p] folds in their
 * fingerprints (b->c->rfp) in that order. */
static int hist_index(const struct build *b, int32_t from, int32_t to,
                      int32_t **at_out, struct hist_ref **refs_out,
                      uint64_t *fp)
{
    const struct tny_event *ev = &b->e->ev;
    const int32_t n = ev->n_players;
    int32_t *at = calloc((size_t)n + 2, sizeof(*at));
    struct hist_ref *refs = NULL;
    *at_out = at;
    *refs_out = NULL;
    if (!at)
        return TNY_ENOMEM;
    for (int32_t r = from; r < to; r++) {
        const struct tny_round *round = &ev->rounds[r];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (!tb->is_bye && !tb->has_result)
                continue;
            for (int32_t i = 0; i < (tb->is_bye ? 1 : tb->n_seats); i++) {
                fp[tb->seats[i]] = mix(fp[tb->seats[i]], b->c->rfp[r].t[t]);
                at[tb->seats[i] + 2]++;
            }
        }
    }
    /* at[p + 2] counted player p's tables: make at[p + 1] the end of p's
     * (its start while filling, below). */
    for (int32_t p = 0; p < n; p++)
        at[p + 2] += at[p + 1];
    if (!(refs = malloc(sizeof(*refs) * ((size_t)at[n + 1] + 1))))
        return TNY_ENOMEM;
    for (int32_t r = from; r < to; r++) {
        const struct tny_round *round = &ev->rounds[r];
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (!tb->is_bye && !tb->has_result)
                continue;
            for (int32_t i = 0; i < (tb->is_bye ? 1 : tb->n_seats); i++)
                refs[at[tb->seats[i] + 1]++] = (struct hist_ref){r, t};
        }
    }
    *refs_out = refs;
    return TNY_OK;
}

/* The histories over the rounds before the latest in b->c (hist0), made
 * again only when one of those rounds or the players changed, or a
 * round was added (issue 23). */
static int hist_prefix(struct build *b)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_event *ev = &b->e->ev;
    const int32_t n = ev->n_players, want = b->r > 0 ? b->r - 1 : 0;
    bool ok = c->h0_valid && c->h0_rounds == want && c->h0_n == n &&
              c->h0_players == c->rfp_players;
    for (int32_t r = 0; ok && r < want; r++)
        ok = ev->rounds[r].gen != 0 && ev->rounds[r].gen == c->h0_gen[r];
    if (ok)
        return TNY_OK;
    c->h0_valid = false;
    free(c->h0_gen);
    free(c->hist_fp0);
    free(c->hist_at0);
    free(c->hist0);
    c->hist_at0 = NULL;
    c->hist0 = NULL;
    c->h0_gen = malloc(sizeof(*c->h0_gen) * ((size_t)want + 1));
    c->hist_fp0 = calloc((size_t)n + 1, sizeof(*c->hist_fp0));
    if (!c->h0_gen || !c->hist_fp0)
        return TNY_ENOMEM;
    int rc = hist_index(b, 0, want, &c->hist_at0, &c->hist0, c->hist_fp0);
    if (rc < 0)
        return rc;
    for (int32_t r = 0; r < want; r++)
        c->h0_gen[r] = ev->rounds[r].gen;
    c->h0_rounds = want;
    c->h0_n = n;
    c->h0_players = c->rfp_players;
    c->h0_valid = true;
    c->h0_serial++;
    return TNY_OK;
}

/* The players' fingerprints in b->c (pfp, pfp_all, pfp_life), computed
 * again only when their generation changed (issue 17 item 2); b->pfp. */
static int players_fps(struct build *b)
{
    struct hub_feed_cache *c = b->c;
    const struct hub_ev *e = b->e;
    const int32_t n = e->ev.n_players;
    if (c->pfp && c->pfp_gen != 0 && c->pfp_gen == e->players_gen &&
        c->n_pfp == n) {
        b->pfp = c->pfp;
        return TNY_OK;
    }
    c->pfp_gen = 0;
    uint64_t *m = realloc(c->pfp, sizeof(*m) * ((size_t)n + 1));
    if (!m)
        return TNY_ENOMEM;
    c->pfp = b->pfp = m;
    c->n_pfp = n;
    uint64_t players = mix(0, (uint64_t)n), life = players;
    for (int32_t p = 0; p < n; p++) {
        const struct tny_player *pl = &e->ev.players[p];
        m[p] = brief_fp(e, p);
        players = mix(players, m[p]);
        life = mix(life, m[p]);
        life = mix(life, (uint64_t)(uint32_t)pl->first_round << 32 |
                             (uint32_t)pl->dropped_after);
        life = mix(life, (uint64_t)(uint32_t)pl->rejoined_from << 32 |
                             (uint32_t)pl->dq_after);
        life = mix(life, (uint64_t)pl->no_show);
    }
    c->pfp_all = players;
    c->pfp_life = life;
    c->pfp_gen = e->players_gen;
    return TNY_OK;
}

/* What every document of the build reads: fingerprints of the players
 * and tables, where each player sits, the clock, the devices. */
static int build_begin(struct build *b, struct tny_diag *diag)
{
    struct hub_ev *e = b->e;
    const int32_t n = e->ev.n_players;
    struct tny_diag ignored;
    int rc;
    b->c = e->feed_cache;
    b->r = e->ev.n_rounds;
    b->round = b->r > 0 ? &e->ev.rounds[b->r - 1] : NULL;
    b->have_clock =
        b->r > 0 && hub__round_clock(b->svc, e, &b->clock, &ignored) == 0;
    b->hist_fp = calloc((size_t)n + 1, sizeof(*b->hist_fp));
    b->seat_tab = malloc(sizeof(*b->seat_tab) * ((size_t)n + 1));
    b->bye = calloc((size_t)n + 1, sizeof(*b->bye));
    b->cur_fp = calloc(b->round ? (size_t)b->round->n_tables + 1 : 1,
                       sizeof(*b->cur_fp));
    if (!b->hist_fp || !b->seat_tab || !b->bye || !b->cur_fp)
        return TNY_ENOMEM;
    for (int32_t p = 0; p < n; p++)
        b->seat_tab[p] = -1;
    if ((rc = players_fps(b)) < 0)
        return rc;
    if ((rc = round_fps(b, b->c->pfp_all)) < 0 || (rc = hist_prefix(b)) < 0)
        return rc;
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++)
        b->cur_fp[t] = b->c->rfp[b->r - 1].t[t];
    memcpy(b->hist_fp, b->c->hist_fp0, sizeof(*b->hist_fp) * (size_t)n);
    if ((rc = hist_index(b, b->c->h0_rounds, b->r, &b->hist_at, &b->hist,
                         b->hist_fp)) < 0)
        return rc;
    for (int32_t t = 0; b->round && t < b->round->n_tables; t++) {
        const struct tny_table *tb = &b->round->tables[t];
        for (int32_t i = 0; i < tb->n_seats; i++) {
            if (tb->is_bye)
                b->bye[tb->seats[i]] = true;
            else
                b->seat_tab[tb->seats[i]] = t;
        }
    }
    if (b->r > 0 && ((rc = hub__ev_devices_by_table(b->svc, e, &b->by_table,
                                                    &b->n_by_table)) < 0 ||
                     (rc = confirmed_times(b, diag)) < 0))
        return rc;
    return TNY_OK;
}

/* The key of what every player's document reads but the latest round's
 * tables (player_docs' fingerprint without the table's part): the round,
 * the standings and their rows, the players, their histories before the
 * latest round, where each sits and who has a bye. */
static uint64_t pd_key_of(const struct build *b)
{
    const struct hub_feed_cache *c = b->c;
    const int32_t n = b->e->ev.n_players;
    uint64_t h = mix(mix((uint64_t)b->r, c->st_serial << 1 | c->have_st),
                     mix(c->standings_in, c->pfp_all));
    h = mix(mix(h, c->h0_serial),
            (uint64_t)(uint32_t)n << 32 |
                (uint32_t)(b->round ? b->round->n_tables : 0));
    h = hash_bytes(h, b->seat_tab, sizeof(*b->seat_tab) * (size_t)n);
    h = hash_bytes(h, b->bye, sizeof(*b->bye) * (size_t)n);
    return h | 1;
}

/* A table's part of its players' documents' fingerprints. */
static uint64_t pd_tkey_of(struct build *b, int32_t t)
{
    const struct tny_table *tb = &b->round->tables[t];
    return b->cur_fp[t] ^ (uint64_t)(first_seat_of(b, tb) + 2);
}

/* Issue 17 item 2: b->todo, the rows of the players whose documents may
 * have changed since the last complete pass: those seated at a table of
 * the latest round whose key changed, when nothing else every document
 * reads did (pd_key); else NULL (every row).  A row is where player_docs
 * decides by the document's whole fingerprint, as for every row. */
static int players_todo(struct build *b)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_standings *st = &c->st;
    const int32_t n = b->e->ev.n_players;
    b->todo = NULL;
    if (!c->have_st || c->pd_key == 0 || c->pd_key != pd_key_of(b) ||
        !b->round || c->n_pd_t != b->round->n_tables || !c->row_of ||
        c->n_row_of != n)
        return TNY_OK;
    if (!(b->todo = malloc(sizeof(*b->todo) * ((size_t)n + 1))))
        return TNY_ENOMEM;
    b->n_todo = 0;
    for (int32_t t = 0; t < b->round->n_tables; t++) {
        const struct tny_table *tb = &b->round->tables[t];
        if (c->pd_tkey[t] == pd_tkey_of(b, t))
            continue;
        for (int32_t s = 0; s < tb->n_seats; s++) {
            int32_t p = tb->seats[s];
            int32_t i = p >= 0 && p < n ? c->row_of[p] : -1;
            if (i < 0 || i >= st->n_rows || b->n_todo >= n)
                continue;
            int32_t k = b->n_todo++; /* ascending: the rows' order */
            for (; k > 0 && b->todo[k - 1] > i; k--)
                b->todo[k] = b->todo[k - 1];
            b->todo[k] = i;
        }
    }
    return TNY_OK;
}

/* After a complete pass over the players' documents: what it read, for
 * the next build's players_todo. */
static void players_done(struct build *b)
{
    struct hub_feed_cache *c = b->c;
    const struct tny_standings *st = &c->st;
    const int32_t n = b->e->ev.n_players,
                  nt = b->round ? b->round->n_tables : 0;
    c->pd_key = 0;
    if (!c->have_st || !b->round)
        return;
    if (c->n_pd_t != nt) {
        free(c->pd_tkey);
        c->n_pd_t = 0;
        if (!(c->pd_tkey = malloc(sizeof(*c->pd_tkey) * ((size_t)nt + 1))))
            return;
        c->n_pd_t = nt;
    }
    if (c->n_row_of != n || !c->row_of) {
        free(c->row_of);
        c->n_row_of = 0;
        if (!(c->row_of = malloc(sizeof(*c->row_of) * ((size_t)n + 1))))
            return;
        c->n_row_of = n;
    }
    for (int32_t p = 0; p < n; p++)
        c->row_of[p] = -1;
    for (int32_t i = 0; i < st->n_rows; i++)
        if (st->rows[i].player >= 0 && st->rows[i].player < n)
            c->row_of[st->rows[i].player] = i;
    for (int32_t t = 0; t < nt; t++)
        c->pd_tkey[t] = pd_tkey_of(b, t);
    c->pd_key = pd_key_of(b);
}

static void build_end(struct build *b)
{
    free(b->todo);
    free(b->ent);
    free(b->ent_fp);
    free(b->hist_fp);
    free(b->seat_tab);
    free(b->bye);
    free(b->cur_fp);
    free(b->hist_at);
    free(b->hist);
    free(b->by_table);
    hub_jw_free(&b->w);
    hub_jw_free(&b->res);
    hub_jw_free(&b->piece);
}

/* Issue 17 item 2: whether this build writes the aggregate documents
 * (`pairings`, `tables`, `standings`, `bracket`: each O(tables) or
 * O(players) to fingerprint or write, sent whole to every overlay): at
 * most once per feed_aggregate_ms of the build's clock, coalescing every
 * result in the window, but at once for a new round, a round status or
 * round clock state of its own, a republish (cache forgotten) or a
 * clock stepped back.  Records the build when it does. */
static bool aggregates_due(struct build *b)
{
    struct hub_feed_cache *c = b->c;
    const struct hub_ev *e = b->e;
    int64_t window = b->svc->opt.feed_aggregate_ms;
    uint64_t key = mix((uint64_t)b->r << 8 | (uint64_t)e->round.status,
                       (uint64_t)e->info.status << 8 |
                           (uint64_t)(b->have_clock ? b->clock.state + 1 : 0));
    bool due = window <= 0 || b->svc->feed_agg_now || c->agg_ms == 0 ||
               c->agg_key != key || c->standings_fp == 0 ||
               b->now < c->agg_ms || b->now - c->agg_ms >= window;
    if (due) {
        c->agg_ms = b->now > 0 ? b->now : 1;
        c->agg_key = key;
    }
    return due;
}

/* A document sent only when its fingerprint changed (*last: the last
 * sent one's). */
static int add_if_changed(struct hub_outbox *ob, struct build *b,
                          const char *what, void (*write)(struct build *),
                          uint64_t fp, uint64_t *last)
{
    int rc;
    fp |= 1;
    if (*last == fp)
        return TNY_OK;
    write(b);
    if ((rc = add_text(ob, b->e, what, &b->w, true)) < 0)
        return rc;
    *last = fp;
    return TNY_OK;
}

int hub_feed_publish(struct hub_service *svc, struct hub_ev *e, int64_t now_ms,
                     struct hub_outbox *ob, struct tny_diag *diag)
{
    struct build b = {.svc = svc, .e = e, .now = now_ms};
    int rc;
    hub_jw_init(&b.w);
    hub_jw_init(&b.res);
    hub_jw_init(&b.piece);
    if ((rc = cache_fit(e)) < 0)
        goto out;
    if (e->feed_full) {
        /* everything sent and written again (a republish writes the
         * `tables` entries from the model, not from the cached text) */
        cache_forget(e->feed_cache);
        pieces_free(e->feed_cache);
        e->feed_full = false;
    }
    /* The players' documents first: after a publish a phone holding its
     * player's learns its new table from it, while each table/N sent
     * first went out to the phones still holding that number of the
     * round before (2,000 messages of the feed broker's fan-out before
     * the first player's document at 2,000 phones). */
    e->feed_more = false;
    e->feed_later_ms = 0;
    if ((rc = build_begin(&b, diag)) < 0 || (rc = entries(&b)) < 0 ||
        (rc = standings(&b, diag)) < 0 || (rc = players_todo(&b)) < 0 ||
        (rc = player_docs(&b, ob)) < 0)
        goto out;
    svc->stats.feed_player_docs_checked +=
        (uint64_t)(b.todo         ? b.n_todo
                   : b.c->have_st ? b.c->st.n_rows
                                  : 0);
    if (b.partial)
        b.c->pd_key = 0; /* the next pass visits every player */
    else if (!b.todo || b.n_todo > 0)
        players_done(&b);
    if (b.partial) {
        /* The tables' and the round's documents after every player's
         * (a phone learns its table from its player's document). */
        e->feed_more = true;
        goto out;
    }
    if ((rc = table_docs(&b, ob)) < 0)
        goto out;
    event_doc(&b.w, e, now_ms); /* small: always (the loop drops repeats) */
    if ((rc = add_text(ob, e, "event", &b.w, true)) < 0)
        goto out;
    if (!aggregates_due(&b)) {
        /* Issue 17 item 2: the aggregates at the window's end, with
         * every change until then (e->feed_later_ms: the loop's wake) */
        e->feed_later_ms = b.c->agg_ms + svc->opt.feed_aggregate_ms;
        goto out;
    }
    e->feed_later_ms = 0;
    uint64_t pfp = mix((uint64_t)b.r, hash_str(0, stage_name(e)));
    for (int32_t t = 0; b.round && t < b.round->n_tables; t++)
        pfp = mix(pfp,
                  pairing_fp(&b, &b.round->tables[t]) ^
                      (uint64_t)(first_seat_of(&b, &b.round->tables[t]) + 2));
    if ((rc = add_if_changed(ob, &b, "pairings", pairings_doc, pfp,
                             &e->feed_cache->pairings_fp)) < 0)
        goto out;
    tables_doc(&b);
    if ((rc = add_text(ob, e, "tables", &b.w, true)) < 0 ||
        (rc = add_if_changed(ob, &b, "standings", standings_doc,
                             standings_fp(&b), &e->feed_cache->standings_fp)) <
            0 ||
        (rc = add_if_changed(ob, &b, "bracket", bracket_doc, bracket_fp(&b),
                             &e->feed_cache->bracket_fp)) < 0)
        goto out;
out:
    build_end(&b);
    if (rc < 0) {
        /* what was sent is not known: the next build sends everything */
        if (e->feed_cache)
            e->feed_cache->valid = false;
        if (rc == TNY_ENOMEM || !diag->msg[0])
            return tny_diag_set(diag, rc, "feed %s: %s", e->id,
                                tny_strerror(rc));
        return rc;
    }
    return TNY_OK;
}

int hub_feed_heartbeat(struct hub_service *svc, int64_t now_ms,
                       struct hub_outbox *ob)
{
    struct hub_jw w;
    int rc = TNY_OK;
    hub_jw_init(&w);
    for (int32_t i = 0; i < svc->n_events && rc == 0; i++) {
        const struct hub_ev *e = svc->events[i];
        int32_t r = e->ev.n_rounds;
        if (!e->loaded || r == 0 || e->round.status != HUB_ROUND_STARTED ||
            e->clock_round != r || e->clock.state != TNY_ROUND_CLOCK_RUNNING)
            continue;
        hub_jw_obj(&w);
        hub_jw_kint(&w, "hub_now_ms", now_ms);
        hub_jw_kint(&w, "round", r);
        hub_jw_end(&w);
        rc = add_text(ob, e, "now", &w, false);
    }
    hub_jw_free(&w);
    return rc;
}

/* ---- feed scheduling: which events are due -------------------------- */

/* The first event whose feed is due (marked dirty); NULL when none.  With
 * the feed off every mark is cleared. */
static struct hub_ev *next_dirty_feed(struct hub_service *svc, int64_t now_ms)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        struct hub_ev *e = svc->events[i];
        /* issue 17 item 2: the aggregates left for the window's end */
        bool later = e->feed_later_ms != 0 && now_ms >= e->feed_later_ms;
        if ((e->feed_dirty || later) && svc->opt.feed)
            return e;
        e->feed_dirty = false;
        if (!svc->opt.feed)
            e->feed_later_ms = 0;
    }
    return NULL;
}

int64_t hub_service_feed_wait(const struct hub_service *svc, int64_t now_ms)
{
    int64_t wait = -1;
    for (int32_t i = 0; svc->opt.feed && i < svc->n_events; i++) {
        int64_t at = svc->events[i]->feed_later_ms;
        if (at == 0)
            continue;
        int64_t d = at > now_ms ? at - now_ms : 0;
        if (wait < 0 || d < wait)
            wait = d;
    }
    return wait;
}

void hub_service_feed_later(struct hub_service *svc, const char *event,
                            int64_t at_ms)
{
    struct hub_ev *e = hub__ev_find(svc, event);
    if (e && at_ms > 0 && (e->feed_later_ms == 0 || at_ms < e->feed_later_ms))
        e->feed_later_ms = at_ms;
}

int hub_service_flush_step(struct hub_service *svc, int64_t now_ms,
                           struct hub_outbox *ob, bool *more,
                           struct tny_diag *diag)
{
    struct hub_ev *e = next_dirty_feed(svc, now_ms);
    int rc;
    *more = false;
    if (!e)
        return TNY_OK;
    if ((rc = hub__ev_get(svc, e->id, &e, diag)) < 0 ||
        (rc = hub_feed_publish(svc, e, now_ms, ob, diag)) < 0)
        return rc;
    e->feed_dirty = e->feed_more; /* the rest of a piecewise build */
    *more = next_dirty_feed(svc, now_ms) != NULL;
    return TNY_OK;
}

int hub_service_flush(struct hub_service *svc, int64_t now_ms,
                      struct hub_outbox *ob, struct tny_diag *diag)
{
    bool more = true;
    int rc = TNY_OK;
    /* everything now: the aggregates left for later too */
    for (int32_t i = 0; i < svc->n_events; i++)
        if (svc->events[i]->feed_later_ms != 0)
            svc->events[i]->feed_dirty = true;
    svc->feed_agg_now = true;
    while (more && rc == 0)
        rc = hub_service_flush_step(svc, now_ms, ob, &more, diag);
    svc->feed_agg_now = false;
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

/* Issue 23: the rounds the snapshot s left out (tables NULL: the loop
 * sent them before) moved from the builder's event e into s; false when
 * e lacks one of them (at the same generation). */
static bool take_rounds(struct hub_ev *e, struct hub_ev *s)
{
    for (int32_t r = 0; s->loaded && r < s->ev.n_rounds; r++) {
        struct tny_round *to = &s->ev.rounds[r];
        if (to->tables || to->n_tables <= 0)
            continue;
        struct tny_round *from =
            e->loaded && r < e->ev.n_rounds ? &e->ev.rounds[r] : NULL;
        if (!from || !from->tables || from->gen != to->gen ||
            from->n_tables != to->n_tables)
            return false;
        to->tables = from->tables;
        from->tables = NULL;
        from->n_tables = 0;
    }
    return true;
}

/* Issue 17: the players the snapshot s left out (the loop sent them
 * before, at the same generation) moved from the builder's event e into
 * s; false when e lacks them. */
static bool take_players(struct hub_ev *e, struct hub_ev *s)
{
    if (!s->loaded || s->players_omitted == 0)
        return true;
    if (!e->loaded || e->players_gen != s->players_gen ||
        e->ev.n_players != s->players_omitted || s->ev.n_players != 0)
        return false;
    s->ev.players = e->ev.players;
    s->ev.strings = e->ev.strings;
    s->ev.n_players = e->ev.n_players;
    s->players_omitted = 0;
    e->ev.players = NULL;
    e->ev.strings = NULL;
    e->ev.n_players = 0;
    return true;
}

/* src into dst[n] (cut to fit): snprintf's "%s" cost 1.2 M instructions
 * a build at 1,000 devices. */
static void copy_id(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* The builder's registry: the snapshot's devices for event e (left as
 * it is when the last set was this event's with the same devices). */
static int registry_set(struct hub_service *b, struct hub_ev *e,
                        const struct hub_feed_snapshot *snap)
{
    struct hub_feed_cache *c = e->feed_cache;
    size_t bytes = sizeof(*snap->devices) * (size_t)snap->n_devices;
    int rc;
    if (c && c->reg && c->reg_set == b->feed_registry_sets &&
        c->n_reg == snap->n_devices &&
        (bytes == 0 || memcmp(c->reg, snap->devices, bytes) == 0))
        return TNY_OK;
    for (int32_t k = 0; k < b->n_devices; k++)
        if (strcmp(b->devices[k].event, e->id) == 0) {
            b->devices[k].event[0] = '\0';
            b->devices[k].table = 0;
        }
    b->feed_registry_sets++;
    for (int32_t k = 0; k < snap->n_devices; k++) {
        struct hub_device *d;
        if ((rc = hub__device_insert(b, snap->devices[k].id, &d)) < 0)
            return rc;
        copy_id(d->event, sizeof(d->event), e->id);
        d->table = snap->devices[k].table;
        d->state = snap->devices[k].state;
    }
    if (!c)
        return TNY_OK;
    struct hub_feed_device *m = realloc(c->reg, bytes + sizeof(*m));
    if (!m) {
        free(c->reg);
        c->reg = NULL;
        return TNY_OK; /* set again next time */
    }
    if (bytes)
        memcpy(m, snap->devices, bytes);
    c->reg = m;
    c->n_reg = snap->n_devices;
    c->reg_set = b->feed_registry_sets;
    return TNY_OK;
}

bool hub_service_feed_next(struct hub_service *svc, int64_t now_ms,
                           struct hub_feed_snapshot *out, int *rc)
{
    struct hub_ev *e = next_dirty_feed(svc, now_ms);
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
        copy_id(o->id, sizeof(o->id), d->id);
        o->table = d->table;
        o->state = d->state;
    }
    for (int32_t k = 0; k < e->n_ext; k++)
        out->ext[out->n_ext++] = (struct hub_feed_extension){
            e->ext[k].round, e->ext[k].table, e->ext[k].total_ms,
            e->ext[k].start_delay_ms};
    if (e->loaded &&
        (*rc = hub__ev_clone(e, e->feed_sent, e->n_feed_sent,
                             e->feed_players_sent, &out->ev)) < 0) {
        hub_feed_snapshot_release(out);
        return false;
    }
    /* Issue 17: the builder has these players now. */
    e->feed_players_sent = out->ev ? e->players_gen : 0;
    svc->stats.feed_players_copied +=
        out->ev && out->ev->loaded && out->ev->players_omitted == 0;
    /* Issue 23: the builder has these rounds now; the next snapshot
     * leaves out those whose generation is still the same.  Without an
     * event the builder reads it from the database: nothing is shared. */
    int32_t nr = out->ev ? out->ev->ev.n_rounds : 0;
    if (nr > e->n_feed_sent) {
        uint64_t *g = realloc(e->feed_sent, sizeof(*g) * (size_t)nr);
        if (g)
            e->feed_sent = g;
        else
            nr = 0; /* the next snapshot carries every round */
    }
    for (int32_t r = 0; r < nr; r++) {
        e->feed_sent[r] = out->ev->ev.rounds[r].gen;
        svc->stats.feed_rounds_copied += out->ev->ev.rounds[r].tables != NULL;
    }
    e->n_feed_sent = nr;
    out->full = e->feed_full;
    e->feed_full = false;
    snprintf(out->event, sizeof(out->event), "%s", e->id);
    out->now_ms = now_ms;
    e->feed_dirty = false;
    e->feed_later_ms = 0; /* the builder says again if it leaves them */
    return true;
}

int hub_service_feed_build(struct hub_service *b,
                           struct hub_feed_snapshot *snap,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_ev *e = hub__ev_find(b, snap->event);
    bool lacked = false;
    int rc;
    snap->resync = true; /* until the build is done */
    if (!e && (rc = hub__ev_add(b, snap->event, &e)) < 0)
        return rc;
    if (snap->ev && (!take_rounds(e, snap->ev) || !take_players(e, snap->ev))) {
        lacked = true;
        /* A round the loop took this builder to have is not here (a
         * failed build): everything from the database, and the loop sends
         * every round next time (snap->resync). */
        HUB_LOG(HUB_LOG_WARN,
                "feed %s: snapshot without a round the builder "
                "lacks: read from the database",
                e->id);
        hub__ev_free(snap->ev);
        snap->ev = NULL;
    }
    hub__ev_invalidate(e);
    if (snap->ev) {
        /* The loop's state, taken whole: the event, its table flags and
         * clock; what the builder keeps across builds (which documents
         * it published) stays. */
        struct hub_ev *s = snap->ev;
        uint64_t hash = e->feed_event_hash;
        int64_t hash_ms = e->feed_event_ms;
        struct hub_feed_cache *cache = e->feed_cache;
        free(e->tables);
        free(e->ext);
        free(e->feed_sent);
        free(e->gen_seen);
        *e = *s;
        e->feed_event_hash = hash;
        e->feed_event_ms = hash_ms;
        e->feed_cache = cache;
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
    if ((rc = registry_set(b, e, snap)) < 0)
        return rc;
    if ((rc = hub__ev_get(b, snap->event, &e, diag)) < 0)
        return rc;
    e->feed_full = e->feed_full || snap->full;
    rc = hub_feed_publish(b, e, snap->now_ms, ob, diag);
    e->feed_dirty = false;
    snap->resync = rc < 0 || lacked;
    snap->more = rc == 0 && e->feed_more;
    snap->later_ms = rc == 0 ? e->feed_later_ms : 0;
    return rc;
}

void hub_service_feed_more(struct hub_service *svc, const char *event)
{
    struct hub_ev *e = hub__ev_find(svc, event);
    if (e)
        e->feed_dirty = true;
}

void hub_service_feed_resync(struct hub_service *svc)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        svc->events[i]->n_feed_sent = 0;
        svc->events[i]->feed_players_sent = 0;
    }
}
