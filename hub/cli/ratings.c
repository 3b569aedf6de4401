/* ratings.c - `tourney ratings PAST_EVENT.json...`: Elo from past events.
 *
 * Reads event files oldest first, identifies a player across events by
 * "external_id" when given, else by "id", turns every finished table into
 * a game with per-seat scores (a 2-player winner 1 / loser 0, a draw equal;
 * Tantrix by game score whatever the clock, TX-8; Agricola and Catan by
 * VP), and rates the pool with tny_elo_compute (AG-2 eligibility: only the
 * last 10 events; rated with >= 2 events and >= 5 games).  Prints JSON whose
 * "players" entries can be merged into an event file's players by id.
 */
#include "ratings.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/elo.h"
#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/score.h"

struct pool {
    char **keys; /* external id or id */
    char **names;
    int32_t n, cap;
};

static int32_t pool_index(struct pool *pool, const char *key, const char *name)
{
    for (int32_t i = 0; i < pool->n; i++)
        if (strcmp(pool->keys[i], key) == 0)
            return i;
    if (pool->n == pool->cap) {
        int32_t cap = pool->cap ? pool->cap * 2 : 64;
        char **k = realloc(pool->keys, sizeof(char *) * (size_t)cap);
        if (!k)
            return -1;
        pool->keys = k;
        char **nm = realloc(pool->names, sizeof(char *) * (size_t)cap);
        if (!nm)
            return -1;
        pool->names = nm;
        pool->cap = cap;
    }
    pool->keys[pool->n] = strdup(key);
    pool->names[pool->n] = strdup(name);
    if (!pool->keys[pool->n] || !pool->names[pool->n])
        return -1;
    return pool->n++;
}

/* Seat scores of a finished table, higher is better. */
static void seat_scores(const struct tny_event *ev, const struct tny_table *t,
                        int32_t *score)
{
    const struct tny_result *r = &t->result;
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    if (ops && ops->seat_scores) {
        ops->seat_scores(&ev->format, r, t->n_seats, score);
        return;
    }
    if (ev->format.players_per_table == 2) {
        int32_t w = tny_result_winner_seat(&ev->format, r);
        score[0] = w == 0 ? 1 : 0;
        score[1] = w == 1 ? 1 : 0;
        if (w < 0)
            score[0] = score[1] = 0;
        return;
    }
    for (int32_t s = 0; s < t->n_seats; s++)
        score[s] = r->score[s];
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= ((size_t)256 << 20)) {
            free(buf);
            buf = NULL;
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

int tny_cli_ratings(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: tourney ratings PAST_EVENT.json... (oldest first)\n");
        return argc < 2 ? 2 : 0;
    }
    int status = 0;
    int32_t n_events = argc - 1;
    struct pool pool = {0};
    struct tny_elo_event *events = calloc((size_t)n_events, sizeof(*events));
    struct tny_elo_game **games = calloc((size_t)n_events, sizeof(*games));
    struct tny_elo_rating *out = NULL;
    json_t *root = NULL;
    if (!events || !games) {
        status = 1;
        goto out;
    }
    for (int32_t e = 0; e < n_events; e++) {
        const char *path = argv[e + 1];
        size_t len = 0;
        char *text = read_file(path, &len);
        if (!text) {
            fprintf(stderr, "tourney ratings: cannot read %s\n", path);
            status = 2;
            goto out;
        }
        struct tny_event ev;
        struct tny_diag diag = {{0}};
        int rc = tny_event_from_json_text(text, len, &ev, &diag);
        free(text);
        if (rc != 0) {
            fprintf(stderr, "tourney ratings: %s: %s\n", path, diag.msg);
            status = 3;
            goto out;
        }
        int32_t *slot = malloc(sizeof(int32_t) * (size_t)(ev.n_players + 1));
        int32_t n_tables = 0;
        for (int32_t r = 0; r < ev.n_rounds; r++)
            n_tables += ev.rounds[r].n_tables;
        games[e] = calloc((size_t)n_tables + 1, sizeof(**games));
        if (!slot || !games[e]) {
            free(slot);
            tny_event_release(&ev);
            status = 1;
            goto out;
        }
        for (int32_t p = 0; p < ev.n_players; p++) {
            const struct tny_player *pl = &ev.players[p];
            slot[p] = pool_index(
                &pool, pl->external_id ? pl->external_id : pl->id, pl->name);
        }
        int32_t k = 0;
        for (int32_t r = 0; r < ev.n_rounds; r++)
            for (int32_t t = 0; t < ev.rounds[r].n_tables; t++) {
                const struct tny_table *tb = &ev.rounds[r].tables[t];
                if (tb->is_bye || !tb->has_result)
                    continue;
                struct tny_elo_game *g = &games[e][k++];
                g->n_players = tb->n_seats;
                for (int32_t s = 0; s < tb->n_seats; s++)
                    g->player[s] = slot[tb->seats[s]];
                seat_scores(&ev, tb, g->score);
            }
        events[e].games = games[e];
        events[e].n_games = k;
        free(slot);
        tny_event_release(&ev);
    }
    struct tny_elo_params params;
    tny_elo_params_default(&params);
    out = calloc((size_t)pool.n + 1, sizeof(*out));
    struct tny_diag diag = {{0}};
    if (!out ||
        tny_elo_compute(&params, pool.n, events, n_events, out, &diag)) {
        fprintf(stderr, "tourney ratings: %s\n", diag.msg);
        status = 3;
        goto out;
    }
    root = json_object();
    json_t *players = json_array();
    json_object_set_new(root, "players", players);
    for (int32_t i = 0; i < pool.n; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "id", json_string(pool.keys[i]));
        json_object_set_new(p, "name", json_string(pool.names[i]));
        if (out[i].rated) /* AG-2: only eligible players get a rating */
            json_object_set_new(
                p, "rating", json_integer((json_int_t)(out[i].rating + 0.5)));
        json_object_set_new(p, "elo", json_real(out[i].rating));
        json_object_set_new(p, "games", json_integer(out[i].games));
        json_object_set_new(p, "events", json_integer(out[i].events));
        json_object_set_new(p, "rated", json_boolean(out[i].rated));
        json_array_append_new(players, p);
    }
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (text) {
        puts(text);
        free(text);
    }
out:
    json_decref(root);
    for (int32_t e = 0; games && e < n_events; e++)
        free(games[e]);
    free(games);
    free(events);
    free(out);
    for (int32_t i = 0; i < pool.n; i++) {
        free(pool.keys[i]);
        free(pool.names[i]);
    }
    free(pool.keys);
    free(pool.names);
    return status;
}
