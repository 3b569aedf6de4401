/* event_json.c - event files <-> struct tny_event (docs/event-file.md).
 *
 * Parses the event file of the offline contract strictly: every object has
 * a fixed set of keys (plus "x_"/"_" extension keys), every value is type
 * checked, and a problem is reported once, as "event.<path>: why" with
 * 0-based indices.  Player ids are resolved through a hash index built
 * once, so a 100,000-player file parses in linear time.  Meaning (ranges,
 * each player once per round, army rules) is left to tny_event_validate,
 * which tny_event_from_json_text runs afterwards.
 *
 * The writer emits the same shape; parse(write(ev)) equals ev.
 */
#include "tny/game.h"
#include "tny/json_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"
#include "tny/language.h"
#include "tny/result_value.h"

/* ---- player id index ---------------------------------------------------
 * Open addressing; a slot holds the id's length and first bytes beside
 * the player, so a look-up of an id of up to ID_HEAD bytes reads one slot
 * and not the player's string too (issue 17: 100,000 look-ups in a
 * 10,000-player file, each two dependent cache misses before). */

#define ID_HEAD 11

/* An id as a slot keeps it: its first ID_HEAD bytes, zero-padded, then its
 * length; compared as two words. */
struct id_key {
    unsigned char k[ID_HEAD + 1];
};

struct id_slot {
    struct id_key key;
    int32_t player; /* index into players[], or -1 */
};

struct id_index {
    struct id_slot *slots; /* capacity mask + 1 */
    size_t mask;
};

/* id's key and hash (FNV-1a) in one pass; len at most TNY_ID_MAX. */
static uint64_t key_of(const char *id, size_t len, struct id_key *key)
{
    uint64_t h = 1469598103934665603ULL;
    memset(key, 0, sizeof(*key));
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)id[i];
        h *= 1099511628211ULL;
        if (i < ID_HEAD)
            key->k[i] = (unsigned char)id[i];
    }
    key->k[ID_HEAD] = (unsigned char)len;
    return h;
}

static bool key_equal(const struct id_key *a, const struct id_key *b)
{
    uint64_t a0, b0;
    uint32_t a1, b1;
    memcpy(&a0, a->k, 8);
    memcpy(&b0, b->k, 8);
    memcpy(&a1, a->k + 8, 4);
    memcpy(&b1, b->k + 8, 4);
    return a0 == b0 && a1 == b1;
}

static int index_init(struct id_index *ix, int32_t n)
{
    size_t cap = 16;
    while (cap < (size_t)n + (size_t)n / 2)
        cap <<= 1;
    ix->slots = malloc(cap * sizeof(*ix->slots));
    if (!ix->slots)
        return TNY_ENOMEM;
    for (size_t i = 0; i < cap; i++)
        ix->slots[i].player = -1;
    ix->mask = cap - 1;
    return TNY_OK;
}

/* Slot of id (len bytes, at most TNY_ID_MAX): holds its player, or -1
 * where it would go. */
static struct id_slot *index_slot(const struct id_index *ix,
                                  const struct tny_event *ev, const char *id,
                                  size_t len)
{
    struct id_key key;
    size_t i = (size_t)key_of(id, len, &key) & ix->mask;
    for (;; i = (i + 1) & ix->mask) {
        struct id_slot *s = &ix->slots[i];
        if (s->player < 0 ||
            (key_equal(&s->key, &key) &&
             (len <= ID_HEAD || memcmp(ev->players[s->player].id + ID_HEAD,
                                       id + ID_HEAD, len - ID_HEAD) == 0)))
            return s;
    }
}

/* The player whose id is id (len bytes), or -1. */
static int32_t index_find(const struct id_index *ix, const struct tny_event *ev,
                          const char *id, size_t len)
{
    return len <= TNY_ID_MAX ? index_slot(ix, ev, id, len)->player : -1;
}

/* ---- parse context ----------------------------------------------------- */

struct eparse {
    struct tny_event *ev;
    struct id_index ids;
    struct tny_diag *diag;
};

/* What the result parsers read: the event (format, player ids), never
 * written. */
struct rparse {
    const struct tny_event *ev;
    const struct id_index *ids; /* the file's players, or NULL */
    struct tny_diag *diag;
};

static const char *const top_keys[] = {
    "format", "options",      "seed",   "title",    "level",     "players",
    "drops",  "disqualified", "rounds", "absences", "cut_seeds", "language",
    NULL};
static const char *const absence_keys[] = {"player", "round", NULL};
static const char *const level_names[] = {"", "casual", "formal", "premier"};
static const char *const player_keys[] = {"id",          "name",
                                          "club",        "country",
                                          "external_id", "rating",
                                          "armies",      "beginner",
                                          "colours",     "colour_blind",
                                          "faction",     "agenda",
                                          "decklist",    "late_from_round",
                                          "fixed_table", "knockout_armies",
                                          "hook",        NULL};
static const char *const drop_keys[] = {"player", "after_round", "rejoin_round",
                                        NULL};
static const char *const dq_keys[] = {"player", "after_round", NULL};
static const char *const round_keys[] = {"stage", "tables", NULL};
static const char *const table_keys[] = {"table", "players", "sides", "result",
                                         NULL};
static const char *const bye_keys[] = {"bye", NULL};
static bool valid_id(const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

static int dup_string(const struct tny_jv *v, const char *path, size_t max,
                      char **out, struct tny_diag *diag)
{
    const char *s;
    int rc = tny__v_string(v, path, max, &s, diag);
    if (rc < 0)
        return rc;
    *out = strdup(s);
    if (!*out)
        return TNY_ENOMEM;
    return TNY_OK;
}

/* Optional string key into *out (heap). */
static int opt_string(const struct tny_jv *obj, const char *path,
                      const char *key, char **out, struct tny_diag *diag)
{
    const struct tny_jv *v = tny__jv_get(obj, key);
    char p[TNY__PATH_MAX];
    if (!v)
        return TNY_OK;
    tny__path_key(p, path, key);
    return dup_string(v, p, TNY_TEXT_MAX, out, diag);
}

/* A player id string that names a known player. */
static int player_ref(const struct eparse *ep, const struct tny_jv *v,
                      const char *path, int32_t *out)
{
    const char *id;
    int rc = tny__v_string(v, path, TNY_ID_MAX, &id, ep->diag);
    if (rc < 0)
        return rc;
    /* A checked string: v->n is its length, at most TNY_ID_MAX. */
    int32_t p = index_find(&ep->ids, ep->ev, id, v->n);
    if (p < 0)
        return tny_diag_set(ep->diag, TNY_EINVAL, "%s: unknown player \"%s\"",
                            path, id);
    *out = p;
    return TNY_OK;
}

static int need(const struct tny_jv *obj, const char *path, const char *key,
                const struct tny_jv **out, struct tny_diag *diag)
{
    *out = tny__jv_get(obj, key);
    if (!*out) {
        char p[TNY__PATH_MAX];
        tny__path_key(p, path, key);
        return tny_diag_set(diag, TNY_EINVAL, "%s: missing", p);
    }
    return TNY_OK;
}

/* ---- players ----------------------------------------------------------- */

/* An array of army names of the format (NH-10, NH-11) into indices. */
static int army_list(const struct tny_format *fmt, const struct tny_jv *v,
                     const char *p, int32_t *out, int32_t *n,
                     struct tny_diag *diag)
{
    char ip[TNY__PATH_MAX];
    int rc;
    if (fmt->n_armies == 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: format \"%s\" has no army list", p, fmt->name);
    if ((rc = tny__v_want_array(v, p, TNY_MAX_ARMIES, diag)) < 0)
        return rc;
    for (size_t i = 0; i < (size_t)v->n; i++) {
        const char *name;
        tny__path_index(ip, p, i);
        if ((rc = tny__v_string(v->u.kids[i], ip, TNY_NAME_MAX, &name, diag)) <
            0)
            return rc;
        int32_t a = tny_format_army_index(fmt, name);
        if (a < 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: unknown army \"%s\" (see `tourney "
                                "format %s`, neuroshima_hex.armies)",
                                ip, name, fmt->name);
        out[i] = a;
    }
    *n = (int32_t)(size_t)v->n;
    return TNY_OK;
}

static int parse_player(struct eparse *ep, const struct tny_jv *obj,
                        const char *path, struct tny_player *pl)
{
    struct tny_diag *diag = ep->diag;
    const struct tny_format *fmt = &ep->ev->format;
    char p[TNY__PATH_MAX], ip[TNY__PATH_MAX];
    const struct tny_jv *v;
    int64_t x;
    int rc;

    if ((rc = tny__v_want_object(obj, path, diag)) < 0 ||
        (rc = tny__v_check_keys(obj, path, player_keys, diag)) < 0 ||
        (rc = need(obj, path, "id", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "id");
    if ((rc = dup_string(v, p, TNY_ID_MAX, &pl->id, diag)) < 0)
        return rc;
    if (!valid_id(pl->id))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: \"%s\" is not an id (1..%d characters of "
                            "A-Z a-z 0-9 _ . -)",
                            p, pl->id, TNY_ID_MAX);
    if ((rc = need(obj, path, "name", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "name");
    if ((rc = dup_string(v, p, TNY_TEXT_MAX, &pl->name, diag)) < 0 ||
        (rc = opt_string(obj, path, "club", &pl->club, diag)) < 0 ||
        (rc = opt_string(obj, path, "country", &pl->country, diag)) < 0 ||
        (rc = opt_string(obj, path, "external_id", &pl->external_id, diag)) <
            0 ||
        (rc = opt_string(obj, path, "faction", &pl->faction, diag)) < 0 ||
        (rc = opt_string(obj, path, "agenda", &pl->agenda, diag)) < 0)
        return rc;
    if ((v = tny__jv_get(obj, "decklist"))) { /* GT-14, judges only */
        tny__path_key(p, path, "decklist");
        if ((rc = dup_string(v, p, TNY_DECKLIST_MAX, &pl->decklist, diag)) < 0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "rating"))) {
        tny__path_key(p, path, "rating");
        double r = v->type == TNY_J_INT ? (double)v->u.i : v->u.d;
        if ((v->type != TNY_J_INT && v->type != TNY_J_REAL) || !isfinite(r) ||
            fabs(r) > 1e6)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected a number -1000000..1000000", p);
        pl->has_rating = true;
        pl->rating = r;
    }
    if ((v = tny__jv_get(obj, "armies"))) {
        tny__path_key(p, path, "armies");
        if ((rc = army_list(fmt, v, p, pl->armies, &pl->n_armies, diag)) < 0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "knockout_armies"))) { /* NH-11 */
        tny__path_key(p, path, "knockout_armies");
        if ((rc = army_list(fmt, v, p, pl->ko_armies, &pl->n_ko_armies, diag)) <
            0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "hook"))) { /* NH-10 swap token */
        tny__path_key(p, path, "hook");
        if ((rc = tny__v_bool(v, p, &pl->hook, diag)) < 0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "beginner"))) {
        tny__path_key(p, path, "beginner");
        if ((rc = tny__v_bool(v, p, &pl->beginner, diag)) < 0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "colour_blind"))) {
        tny__path_key(p, path, "colour_blind");
        if ((rc = tny__v_bool(v, p, &pl->colour_blind, diag)) < 0)
            return rc;
    }
    if ((v = tny__jv_get(obj, "colours"))) {
        tny__path_key(p, path, "colours");
        if ((rc = tny__v_want_array(v, p, 2, diag)) < 0)
            return rc;
        for (size_t i = 0; i < (size_t)v->n; i++) {
            tny__path_index(ip, p, i);
            if ((rc = dup_string(v->u.kids[i], ip, 32, &pl->colours[i], diag)) <
                0)
                return rc;
            pl->n_colours = (int32_t)i + 1;
        }
    }
    pl->first_round = 1;
    if ((v = tny__jv_get(obj, "late_from_round"))) {
        tny__path_key(p, path, "late_from_round");
        if ((rc = tny__v_int(v, p, 1, TNY_MAX_ROUNDS, &x, diag)) < 0)
            return rc;
        pl->first_round = (int32_t)x;
    }
    if ((v = tny__jv_get(obj, "fixed_table"))) {
        tny__path_key(p, path, "fixed_table");
        if ((rc = tny__v_int(v, p, 1, TNY_MAX_PLAYERS, &x, diag)) < 0)
            return rc;
        pl->fixed_table = (int32_t)x;
    }
    return TNY_OK;
}

static int parse_players(struct eparse *ep, const struct tny_jv *arr)
{
    struct tny_event *ev = ep->ev;
    char p[TNY__PATH_MAX];
    int rc;
    if ((rc = tny__v_want_array(arr, "event.players", TNY_MAX_PLAYERS,
                                ep->diag)) < 0)
        return rc;
    size_t n = (size_t)arr->n;
    ev->players = calloc(n ? n : 1, sizeof(*ev->players));
    if (!ev->players || index_init(&ep->ids, (int32_t)n) < 0)
        return TNY_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        struct tny_player *pl = &ev->players[i];
        ev->n_players = (int32_t)i + 1; /* so release frees what we have */
        tny__path_index(p, "event.players", i);
        if ((rc = parse_player(ep, arr->u.kids[i], p, pl)) < 0)
            return rc;
        size_t len = strlen(pl->id); /* at most TNY_ID_MAX: checked */
        struct id_slot *slot = index_slot(&ep->ids, ev, pl->id, len);
        if (slot->player >= 0)
            return tny_diag_set(ep->diag, TNY_EINVAL,
                                "%s.id: duplicate player id \"%s\" (also "
                                "event.players[%d])",
                                p, pl->id, (int)slot->player);
        key_of(pl->id, len, &slot->key);
        slot->player = (int32_t)i;
    }
    return TNY_OK;
}

static int parse_lifecycle(struct eparse *ep, const struct tny_jv *arr,
                           const char *path, bool dq)
{
    char p[TNY__PATH_MAX], kp[TNY__PATH_MAX];
    const struct tny_jv *v;
    int64_t x;
    int32_t who = -1;
    int rc;
    if ((rc = tny__v_want_array(arr, path, TNY_MAX_PLAYERS, ep->diag)) < 0)
        return rc;
    for (size_t i = 0; i < (size_t)arr->n; i++) {
        const struct tny_jv *o = arr->u.kids[i];
        tny__path_index(p, path, i);
        if ((rc = tny__v_want_object(o, p, ep->diag)) < 0 ||
            (rc = tny__v_check_keys(o, p, dq ? dq_keys : drop_keys, ep->diag)) <
                0 ||
            (rc = need(o, p, "player", &v, ep->diag)) < 0)
            return rc;
        tny__path_key(kp, p, "player");
        if ((rc = player_ref(ep, v, kp, &who)) < 0)
            return rc;
        struct tny_player *pl = &ep->ev->players[who];
        if (dq ? pl->dq_after : pl->dropped_after || pl->no_show)
            return tny_diag_set(ep->diag, TNY_EINVAL,
                                "%s: \"%s\" is listed "
                                "twice",
                                kp, pl->id);
        if ((rc = need(o, p, "after_round", &v, ep->diag)) < 0)
            return rc;
        tny__path_key(kp, p, "after_round");
        /* A drop after round 0 is a registered player who never came. */
        if ((rc = tny__v_int(v, kp, dq ? 1 : 0, TNY_MAX_ROUNDS, &x, ep->diag)) <
            0)
            return rc;
        pl->no_show = !dq && x == 0;
        if (dq) {
            pl->dq_after = (int32_t)x;
            continue;
        }
        pl->dropped_after = (int32_t)x;
        if ((v = tny__jv_get(o, "rejoin_round"))) {
            tny__path_key(kp, p, "rejoin_round");
            if ((rc = tny__v_int(v, kp, x + 1, TNY_MAX_ROUNDS, &x, ep->diag)) <
                0)
                return rc;
            pl->rejoined_from = (int32_t)x;
        }
    }
    return TNY_OK;
}

/* ---- results ----------------------------------------------------------- */

static int seat_of_id(const struct rparse *ep, const struct tny_table *t,
                      const char *id, size_t len)
{
    if (ep->ids) { /* one slot read, not each seat's player and id */
        int32_t p = index_find(ep->ids, ep->ev, id, len);
        for (int s = 0; p >= 0 && s < t->n_seats; s++)
            if (t->seats[s] == p)
                return s;
        return -1;
    }
    for (int s = 0; s < t->n_seats; s++)
        if (strcmp(ep->ev->players[t->seats[s]].id, id) == 0)
            return s;
    return -1;
}

/* A seat given by player id ("winner": "p1"). */
static int seat_ref(const struct rparse *ep, const struct tny_jv *v,
                    const char *path, const struct tny_table *t, int32_t *out)
{
    const char *id;
    int rc = tny__v_string(v, path, TNY_ID_MAX, &id, ep->diag);
    if (rc < 0)
        return rc;
    int s = seat_of_id(ep, t, id, v->n);
    if (s < 0)
        return tny_diag_set(ep->diag, TNY_EINVAL,
                            "%s: \"%s\" is not a player of this table", path,
                            id);
    *out = s;
    return TNY_OK;
}

/* A per-player value: an object keyed by the table's player ids
 * ({"p1": 45, "p2": 38}), converted by kind (PER_PLAYER any integer,
 * POINTS, ARMY a name of the format); a key of every seat must name each
 * player (tny_result_value_every_seat). */
static int seat_map(const struct rparse *ep, const struct tny_jv *map,
                    const char *p, enum tny_result_key k,
                    const struct tny_table *t, struct tny_result_val *out)
{
    const enum tny_result_value kind = tny_result_key_info(k)->value;
    char kp[TNY__PATH_MAX];
    int rc;
    if ((rc = tny__v_want_object(map, p, ep->diag)) < 0)
        return rc;
    for (uint32_t i = 0; i < map->n; i++) {
        const struct tny_jv *v = map->u.kids[i];
        const char *id = v->key;
        tny__path_key(kp, p, id);
        int s = seat_of_id(ep, t, id, strlen(id));
        if (s < 0)
            return tny_diag_set(ep->diag, TNY_EINVAL,
                                "%s: \"%.64s\" is not a player of this table",
                                kp, id);
        out->has[s] = true;
        if (kind == TNY_RV_PER_PLAYER) {
            if ((rc = tny__v_int(v, kp, INT32_MIN, INT32_MAX, &out->per[s],
                                 ep->diag)) < 0)
                return rc;
        } else if (kind == TNY_RV_POINTS) {
            if ((rc = tny__v_points(v, kp, 100000, &out->per[s], ep->diag)) < 0)
                return rc;
        } else {
            const char *name;
            if ((rc = tny__v_string(v, kp, TNY_NAME_MAX, &name, ep->diag)) < 0)
                return rc;
            out->per[s] = tny_format_army_index(&ep->ev->format, name);
            if (out->per[s] < 0)
                return tny_diag_set(ep->diag, TNY_EINVAL,
                                    "%s: unknown army \"%s\"", kp, name);
        }
    }
    for (int s = 0; tny_result_value_every_seat(k) && s < t->n_seats; s++)
        if (!out->has[s])
            return tny_diag_set(ep->diag, TNY_EINVAL,
                                "%s: missing a value for \"%s\"", p,
                                ep->ev->players[t->seats[s]].id);
    return TNY_OK;
}

/* A list: PLAYERS (a player id per item) or TEXTS (lines). */
static int list_value(const struct rparse *ep, const struct tny_jv *v,
                      const char *p, enum tny_result_key k,
                      const struct tny_table *t, struct tny_result_val *out)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    char ip[TNY__PATH_MAX];
    int rc;
    if ((rc = tny__v_want_array(v, p, info->max_items, ep->diag)) < 0)
        return rc;
    for (size_t i = 0; i < (size_t)v->n; i++) {
        tny__path_index(ip, p, i);
        if (info->value == TNY_RV_PLAYERS) {
            rc = seat_ref(ep, v->u.kids[i], ip, t, &out->seats[i]);
        } else {
            const char *s;
            rc = tny__v_string(v->u.kids[i], ip, TNY_LOT_MAX - 1, &s, ep->diag);
            if (rc == TNY_OK)
                out->texts[i] = s;
        }
        if (rc < 0)
            return rc;
    }
    out->n = (int32_t)(size_t)v->n;
    return TNY_OK;
}

/* Key k of res, when present, converted by its kind into t's result. */
static int parse_key(const struct rparse *ep, const struct tny_jv *res,
                     const char *path, enum tny_result_key k,
                     struct tny_table *t)
{
    const char *name = tny_result_key_name(k);
    const struct tny_jv *v = tny__jv_get(res, name);
    struct tny_result_val val;
    char p[TNY__PATH_MAX];
    bool flag = false; /* set only when the value is a boolean */
    int rc = TNY_OK;

    if (!v)
        return TNY_OK;
    memset(&val, 0, sizeof(val));
    val.present = true;
    tny__path_key(p, path, name);
    switch (tny_result_key_info(k)->value) {
    case TNY_RV_FLAG:
        rc = tny__v_bool(v, p, &flag, ep->diag);
        val.flag = flag;
        break;
    case TNY_RV_NUMBER:
        /* Any integer here: the range is the format's, checked (one
         * message for both ends) by tny_result_validate. */
        rc = tny__v_int(v, p, INT32_MIN, INT32_MAX, &val.number, ep->diag);
        break;
    case TNY_RV_PLAYER: rc = seat_ref(ep, v, p, t, &val.seat); break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY: rc = seat_map(ep, v, p, k, t, &val); break;
    case TNY_RV_PLAYERS:
    case TNY_RV_TEXTS: rc = list_value(ep, v, p, k, t, &val); break;
    }
    if (rc == TNY_OK)
        tny_result_value_set(&t->result, k, &val);
    return rc;
}

/* A result key's name in the event file (result_schema.h). */
#define KEY(k) tny_result_key_name(TNY_RK_##k)

/* The result keys of the event's game (result_schema.h); an unknown key
 * names the game. */
static int result_keys(const struct rparse *ep, const struct tny_jv *res,
                       const char *path)
{
    const enum tny_result_key *keys;
    int32_t n = tny_result_keys(ep->ev->format.game, &keys);
    const char *names[TNY_RK_ALL + 1];
    for (int32_t i = 0; i < n; i++)
        names[i] = tny_result_key_name(keys[i]);
    names[n] = NULL;
    int rc = tny__v_check_keys(res, path, names, ep->diag);
    if (rc < 0 && ep->diag) {
        char msg[sizeof(ep->diag->msg)];
        memcpy(msg, ep->diag->msg, sizeof(msg));
        tny_diag_set(ep->diag, rc, "%s in a \"%s\" result", msg,
                     tny_game_name(ep->ev->format.game));
    }
    return rc;
}

/* The event file's rules between a result's keys (event-file.md, "result"),
 * after every key was read by its kind: the game's (game.h result_rules).
 * Ranges are tny_result_validate's. */
static int result_rules(const struct rparse *ep, const struct tny_jv *res,
                        const char *path, struct tny_table *t)
{
    const struct tny_format *fmt = &ep->ev->format;
    const struct tny_game_ops *shape = tny_game_shape_of(fmt->game);
    const enum tny_result_key *keys;
    int32_t n = tny_result_keys(fmt->game, &keys);
    uint64_t present = 0;

    if (!shape || !shape->result_rules)
        return TNY_OK;
    for (int32_t i = 0; i < n; i++)
        if (tny__jv_get(res, tny_result_key_name(keys[i])))
            present |= 1ull << TNY_RK_BIT(keys[i]);
    return shape->result_rules(fmt, present, path, &t->result, ep->diag);
}

/* The table's lots first (CM-4, any game), then the game's keys, each read
 * by its kind (result_schema.h), then the rules between them. */
static int parse_result(const struct rparse *ep, const struct tny_jv *res,
                        const char *path, struct tny_table *t)
{
    const enum tny_result_key *keys;
    int32_t n = tny_result_keys(ep->ev->format.game, &keys);
    int rc;

    if ((rc = tny__v_want_object(res, path, ep->diag)) < 0 ||
        (rc = parse_key(ep, res, path, TNY_RK_LOTS, t)) < 0 ||
        (rc = result_keys(ep, res, path)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++)
        if (keys[i] != TNY_RK_LOTS &&
            (rc = parse_key(ep, res, path, keys[i], t)) < 0)
            return rc;
    return result_rules(ep, res, path, t);
}

/* An empty result: no winner, no default, no armies. */
static void result_reset(struct tny_result *r)
{
    memset(r, 0, sizeof(*r));
    r->winner = -1;
    r->default_winner = -1;
    for (int s = 0; s < TNY_MAX_SEATS; s++)
        r->army[s] = -1;
}

int tny_result_from_json(const struct tny_event *ev, const struct tny_table *t,
                         const json_t *obj, const char *path,
                         struct tny_result *out, struct tny_diag *diag)
{
    struct rparse rp = {.ev = ev, .diag = diag};
    struct tny_table tb = *t;
    struct tny_jdoc doc;
    int rc;
    if ((rc = tny__jdoc_from_json(&doc, obj)) < 0)
        return tny_diag_set(diag, rc, "%s: out of memory", path);
    result_reset(&tb.result);
    if ((rc = parse_result(&rp, doc.root, path, &tb)) == 0)
        *out = tb.result;
    tny__jdoc_release(&doc);
    return rc;
}

/* ---- rounds ------------------------------------------------------------ */

static int parse_table(const struct eparse *ep, const struct tny_jv *obj,
                       const char *path, struct tny_table *t)
{
    struct tny_diag *diag = ep->diag;
    char p[TNY__PATH_MAX], ip[TNY__PATH_MAX];
    const struct tny_jv *v;
    int64_t x;
    int rc;

    result_reset(&t->result);
    if ((rc = tny__v_want_object(obj, path, diag)) < 0)
        return rc;
    if ((v = tny__jv_get(obj, "bye"))) {
        if ((rc = tny__v_check_keys(obj, path, bye_keys, diag)) < 0)
            return rc;
        tny__path_key(p, path, "bye");
        t->is_bye = true;
        t->n_seats = 1;
        return player_ref(ep, v, p, &t->seats[0]);
    }
    if ((rc = tny__v_check_keys(obj, path, table_keys, diag)) < 0 ||
        (rc = need(obj, path, "table", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "table");
    if ((rc = tny__v_int(v, p, 1, TNY_MAX_PLAYERS, &x, diag)) < 0)
        return rc;
    t->number = (int32_t)x;
    if ((rc = need(obj, path, "players", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "players");
    if ((rc = tny__v_want_array(v, p, TNY_MAX_SEATS, diag)) < 0)
        return rc;
    if ((size_t)v->n < 2)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected 2..%d players "
                            "(a bye is {\"bye\": id})",
                            p, TNY_MAX_SEATS);
    for (size_t s = 0; s < (size_t)v->n; s++) {
        tny__path_index(ip, p, s);
        if ((rc = player_ref(ep, v->u.kids[s], ip, &t->seats[s])) < 0)
            return rc;
        for (size_t u = 0; u < s; u++)
            if (t->seats[u] == t->seats[s])
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s: \"%s\" sits twice "
                                    "at this table",
                                    ip, ep->ev->players[t->seats[s]].id);
    }
    t->n_seats = (int32_t)(size_t)v->n;
    if ((v = tny__jv_get(obj, "sides"))) {
        const struct tny_format *f = &ep->ev->format;
        tny__path_key(p, path, "sides");
        if ((rc = tny__v_want_array(v, p, TNY_MAX_SEATS, diag)) < 0)
            return rc;
        if (f->n_sides != 2 || (size_t)v->n != (size_t)t->n_seats)
            return tny_diag_set(diag, TNY_EINVAL,
                                f->n_sides != 2
                                    ? "%s: format \"%s\" has no sides"
                                    : "%s: expected one side per player "
                                      "(format \"%s\")",
                                p, f->name);
        for (size_t s = 0; s < (size_t)v->n; s++) {
            const char *name;
            tny__path_index(ip, p, s);
            if ((rc = tny__v_string(v->u.kids[s], ip, TNY_NAME_MAX, &name,
                                    diag)) < 0)
                return rc;
            int32_t k = tny_format_side_index(f, name);
            if (k < 0)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s: \"%s\" is not a side of format "
                                    "\"%s\" (%s, %s)",
                                    ip, name, f->name, f->sides[0],
                                    f->sides[1]);
            t->side[s] = (int8_t)k;
        }
        t->has_sides = true;
    }
    if ((v = tny__jv_get(obj, "result"))) {
        struct rparse rp = {.ev = ep->ev, .ids = &ep->ids, .diag = diag};
        tny__path_key(p, path, "result");
        if ((rc = parse_result(&rp, v, p, t)) < 0)
            return rc;
        t->has_result = true;
    }
    return TNY_OK;
}

static int parse_rounds(struct eparse *ep, const struct tny_jv *arr)
{
    struct tny_event *ev = ep->ev;
    char p[TNY__PATH_MAX], kp[TNY__PATH_MAX], tp[TNY__PATH_MAX];
    const struct tny_jv *v;
    int rc;
    if ((rc = tny__v_want_array(arr, "event.rounds", TNY_MAX_ROUNDS,
                                ep->diag)) < 0)
        return rc;
    size_t n = (size_t)arr->n;
    ev->rounds = calloc(n ? n : 1, sizeof(*ev->rounds));
    if (!ev->rounds)
        return TNY_ENOMEM;
    for (size_t r = 0; r < n; r++) {
        const struct tny_jv *obj = arr->u.kids[r];
        struct tny_round *round = &ev->rounds[r];
        ev->n_rounds = (int32_t)r + 1;
        tny__path_index(p, "event.rounds", r);
        if ((rc = tny__v_want_object(obj, p, ep->diag)) < 0 ||
            (rc = tny__v_check_keys(obj, p, round_keys, ep->diag)) < 0 ||
            (rc = need(obj, p, "stage", &v, ep->diag)) < 0)
            return rc;
        const char *name;
        tny__path_key(kp, p, "stage");
        if ((rc = tny__v_string(v, kp, 64, &name, ep->diag)) < 0)
            return rc;
        if (tny_stage_kind_from_name(name, &round->stage) < 0) {
            char list[200] = "";
            size_t used = 0;
            for (int i = 0; i < ev->format.n_stages; i++) {
                int w = snprintf(
                    list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
                    tny_stage_kind_name(ev->format.stages[i].kind));
                if (w < 0 || (size_t)w >= sizeof(list) - used)
                    break;
                used += (size_t)w;
            }
            return tny_diag_set(ep->diag, TNY_EINVAL,
                                "%s: unknown stage \"%.64s\" (stages of format "
                                "\"%s\": %s)",
                                kp, name, ev->format.name, list);
        }
        if ((rc = need(obj, p, "tables", &v, ep->diag)) < 0)
            return rc;
        tny__path_key(kp, p, "tables");
        if ((rc = tny__v_want_array(v, kp, TNY_MAX_PLAYERS, ep->diag)) < 0)
            return rc;
        size_t nt = (size_t)v->n;
        round->tables = calloc(nt ? nt : 1, sizeof(*round->tables));
        if (!round->tables)
            return TNY_ENOMEM;
        round->n_tables = (int32_t)nt;
        for (size_t t = 0; t < nt; t++) {
            tny__path_index(tp, kp, t);
            if ((rc = parse_table(ep, v->u.kids[t], tp, &round->tables[t])) < 0)
                return rc;
        }
    }
    return TNY_OK;
}

/* ---- the file ---------------------------------------------------------- */

/* "absences": [{"player": "p3", "round": 2}]: a round the player missed
 * without leaving the event; the player must not sit in that round. */
static int parse_absences(struct eparse *ep, const struct tny_jv *arr)
{
    const char *path = "event.absences";
    char p[TNY__PATH_MAX], kp[TNY__PATH_MAX];
    struct tny_event *ev = ep->ev;
    const struct tny_jv *v;
    int64_t x;
    int32_t who = -1;
    int rc;
    if ((rc = tny__v_want_array(arr, path, TNY_MAX_PLAYERS, ep->diag)) < 0)
        return rc;
    size_t n = (size_t)arr->n;
    ev->absences = calloc(n > 0 ? n : 1, sizeof(*ev->absences));
    if (!ev->absences)
        return TNY_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const struct tny_jv *o = arr->u.kids[i];
        tny__path_index(p, path, i);
        if ((rc = tny__v_want_object(o, p, ep->diag)) < 0 ||
            (rc = tny__v_check_keys(o, p, absence_keys, ep->diag)) < 0 ||
            (rc = need(o, p, "player", &v, ep->diag)) < 0)
            return rc;
        tny__path_key(kp, p, "player");
        if ((rc = player_ref(ep, v, kp, &who)) < 0 ||
            (rc = need(o, p, "round", &v, ep->diag)) < 0)
            return rc;
        tny__path_key(kp, p, "round");
        if ((rc = tny__v_int(v, kp, 1, TNY_MAX_ROUNDS, &x, ep->diag)) < 0)
            return rc;
        if (x <= ev->n_rounds) {
            const struct tny_round *round = &ev->rounds[x - 1];
            for (int32_t t = 0; t < round->n_tables; t++)
                if (tny_table_seat_of(&round->tables[t], who) >= 0)
                    return tny_diag_set(ep->diag, TNY_EINVAL,
                                        "%s: \"%s\" is seated in round %d", p,
                                        ev->players[who].id, (int)x);
        }
        ev->absences[ev->n_absences++] =
            (struct tny_absence){.player = who, .round = (int32_t)x};
    }
    return TNY_OK;
}

/* "cut_seeds": ["p3", "p1", ...]: the elimination stage's seeds as
 * another tool recorded them (issue 19), each player once. */
static int parse_cut_seeds(struct eparse *ep, const struct tny_jv *arr)
{
    const char *path = "event.cut_seeds";
    char p[TNY__PATH_MAX];
    struct tny_event *ev = ep->ev;
    int rc;
    if ((rc = tny__v_want_array(arr, path, TNY_MAX_PLAYERS, ep->diag)) < 0)
        return rc;
    size_t n = (size_t)arr->n;
    ev->cut_seeds = calloc(n > 0 ? n : 1, sizeof(*ev->cut_seeds));
    if (!ev->cut_seeds)
        return TNY_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        int32_t who = -1;
        tny__path_index(p, path, i);
        if ((rc = player_ref(ep, arr->u.kids[i], p, &who)) < 0)
            return rc;
        for (int32_t j = 0; j < ev->n_cut_seeds; j++)
            if (ev->cut_seeds[j] == who)
                return tny_diag_set(ep->diag, TNY_EINVAL,
                                    "%s: \"%s\" is seeded twice", p,
                                    ev->players[who].id);
        ev->cut_seeds[ev->n_cut_seeds++] = who;
    }
    return TNY_OK;
}

static int event_from_json(const struct tny_jv *root, struct tny_event *ev,
                           struct tny_diag *diag)
{
    struct eparse ep = {.ev = ev, .ids = {NULL, 0}, .diag = diag};
    const struct tny_jv *v;
    int64_t x;
    int rc;

    tny_event_init(ev);
    if ((rc = tny__v_want_object(root, "event", diag)) < 0 ||
        (rc = tny__v_check_keys(root, "event", top_keys, diag)) < 0 ||
        (rc = need(root, "event", "format", &v, diag)) < 0)
        goto out;
    if (v->type == TNY_J_STRING) {
        struct tny_diag inner;
        rc = tny_format_preset(v->u.s, &ev->format, &inner);
        if (rc < 0) {
            tny_diag_set(diag, rc, "event.format: %s", inner.msg);
            goto out;
        }
    } else if (v->type == TNY_J_OBJECT) {
        /* A few hundred values at most: format_json.c reads jansson. */
        json_t *j = tny__jv_to_json(v);
        rc = j ? tny_format_from_json(j, "event.format", &ev->format, diag)
               : TNY_ENOMEM;
        json_decref(j);
        if (rc < 0)
            goto out;
    } else {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "event.format: expected a preset "
                          "name or a format object");
        goto out;
    }
    if ((v = tny__jv_get(root, "options"))) {
        json_t *j = tny__jv_to_json(v);
        rc = j ? tny_format_apply_options(&ev->format, j, "event.options", diag)
               : TNY_ENOMEM;
        json_decref(j);
        if (rc < 0)
            goto out;
    }
    if ((v = tny__jv_get(root, "seed"))) {
        if ((rc = tny__v_int(v, "event.seed", 0, INT64_MAX, &x, diag)) < 0)
            goto out;
        ev->seed = (uint64_t)x;
    }
    if ((v = tny__jv_get(root, "title")) &&
        (rc = tny__v_string_to(v, "event.title", ev->title, sizeof(ev->title),
                               diag)) < 0)
        goto out;
    /* issue 21: one of the shipped languages, refused otherwise. */
    if ((v = tny__jv_get(root, "language")) &&
        ((rc = tny__v_string_to(v, "event.language", ev->language,
                                sizeof(ev->language), diag)) < 0 ||
         (rc = tny_language_check("event.language", ev->language, diag)) < 0))
        goto out;
    if ((v = tny__jv_get(root, "level"))) { /* GT-15 */
        const char *name = (v->type == TNY_J_STRING) ? v->u.s : "";
        int which = 0;
        for (int i = 1; i < 4; i++)
            if (strcmp(name, level_names[i]) == 0)
                which = i;
        if (which == 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.level: expected \"casual\", \"formal\" "
                              "or \"premier\" (GT-15)");
            goto out;
        }
        ev->level = (enum tny_event_level)which;
    }
    if ((rc = need(root, "event", "players", &v, diag)) < 0 ||
        (rc = parse_players(&ep, v)) < 0)
        goto out;
    if ((v = tny__jv_get(root, "drops")) &&
        (rc = parse_lifecycle(&ep, v, "event.drops", false)) < 0)
        goto out;
    if ((v = tny__jv_get(root, "disqualified")) &&
        (rc = parse_lifecycle(&ep, v, "event.disqualified", true)) < 0)
        goto out;
    if ((v = tny__jv_get(root, "rounds")) && (rc = parse_rounds(&ep, v)) < 0)
        goto out;
    if ((v = tny__jv_get(root, "absences")) &&
        (rc = parse_absences(&ep, v)) < 0)
        goto out;
    if ((v = tny__jv_get(root, "cut_seeds")) &&
        (rc = parse_cut_seeds(&ep, v)) < 0)
        goto out;
out:
    free(ep.ids.slots);
    if (rc < 0) {
        if (rc == TNY_ENOMEM)
            tny_diag_set(diag, rc, "event: out of memory");
        tny_event_release(ev);
    }
    return rc;
}

/* Parsed once without paths (they are for a message only); a refused
 * file is parsed again with them, and that pass's message (the same first
 * problem: parsing is deterministic) is the one given. */
static int event_from_doc(const struct tny_jv *root, struct tny_event *ev,
                          struct tny_diag *diag)
{
    struct tny_diag quiet = {{0}};
    bool was = tny__paths_quiet(true);
    int rc = event_from_json(root, ev, &quiet);
    tny__paths_quiet(was);
    if (rc >= 0 || was)
        return rc >= 0 ? rc : tny_diag_set(diag, rc, "%s", quiet.msg);
    return event_from_json(root, ev, diag);
}

int tny_event_from_json(const json_t *root, struct tny_event *ev,
                        struct tny_diag *diag)
{
    struct tny_jdoc doc;
    int rc = tny__jdoc_from_json(&doc, root);
    if (rc < 0) {
        tny_event_init(ev);
        return tny_diag_set(diag, rc, "event: out of memory");
    }
    rc = event_from_doc(doc.root, ev, diag);
    tny__jdoc_release(&doc);
    return rc;
}

/* The file is read into a jdoc (yajl, no jansson tree: issue 17 item 4),
 * walked once into the event, then validated on the parsed values. */
static int event_from_text(const char *text, char *place, size_t len,
                           struct tny_event *out, struct tny_diag *diag)
{
    struct tny_jdoc doc;
    int rc = place ? tny__jdoc_parse_in_place(&doc, place, len, "event", diag)
                   : tny__jdoc_parse(&doc, text, len, "event", diag);
    if (rc < 0) {
        tny_event_init(out);
        return rc;
    }
    rc = event_from_doc(doc.root, out, diag);
    tny__jdoc_release(&doc);
    if (rc < 0)
        return rc;
    if ((rc = tny_event_validate(out, diag)) < 0)
        tny_event_release(out);
    return rc;
}

int tny_event_from_json_text(const char *text, size_t len,
                             struct tny_event *out, struct tny_diag *diag)
{
    return event_from_text(text, NULL, len, out, diag);
}

int tny_event_from_json_buffer(char *text, size_t len, struct tny_event *out,
                               struct tny_diag *diag)
{
    return event_from_text(text, text, len, out, diag);
}

/* ---- writing ----------------------------------------------------------- */

static const char *seat_id(const struct tny_event *ev,
                           const struct tny_table *t, int32_t seat)
{
    return ev->players[t->seats[seat]].id;
}

/* One key's value as JSON, by the kind of value (result_schema.h). */
static json_t *value_json(const struct tny_event *ev, const struct tny_table *t,
                          enum tny_result_key k, const struct tny_result_val *v)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    json_t *o = NULL;

    switch (info->value) {
    case TNY_RV_FLAG: return json_boolean(v->flag);
    case TNY_RV_NUMBER: return json_integer(v->number);
    case TNY_RV_PLAYER: return json_string(seat_id(ev, t, v->seat));
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY:
        o = json_object();
        for (int32_t s = 0; o && s < t->n_seats; s++) {
            json_t *x;
            if (!v->has[s])
                continue;
            if (info->value == TNY_RV_POINTS)
                x = tny_json_points(v->per[s]);
            else if (info->value == TNY_RV_ARMY)
                x = json_string(ev->format.armies[v->per[s]]);
            else
                x = json_integer(v->per[s]);
            if (!tny__set(o, seat_id(ev, t, s), x)) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    case TNY_RV_PLAYERS:
    case TNY_RV_TEXTS:
        o = json_array();
        for (int32_t i = 0; o && i < v->n; i++)
            if (!tny__append(o,
                             info->value == TNY_RV_TEXTS
                                 ? json_string(v->texts[i])
                                 : json_string(seat_id(ev, t, v->seats[i])))) {
                json_decref(o);
                return NULL;
            }
        return o;
    }
    return NULL;
}

/* The game's keys the result has, in the written order (result_schema.h),
 * each converted by its kind. */
static json_t *result_json(const struct tny_event *ev,
                           const struct tny_table *t)
{
    const enum tny_result_key *keys;
    int32_t n = tny_result_keys_written(ev->format.game, &keys);
    json_t *o = json_object();
    bool ok = o != NULL;

    for (int32_t i = 0; ok && i < n; i++) {
        struct tny_result_val v;
        tny_result_value_get(&t->result, t->n_seats, keys[i], &v);
        if (v.present)
            ok = tny__set(o, tny_result_key_name(keys[i]),
                          value_json(ev, t, keys[i], &v));
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *tny_result_to_json(const struct tny_event *ev,
                           const struct tny_table *t)
{
    const struct tny_game_ops *shape = tny_game_shape_of(ev->format.game);
    json_t *o = result_json(ev, t);
    /* As a table and the organiser report it: the keys a draw does not
     * tell (NH-1: no HQ difference; the event file writes its 0). */
    for (int32_t k = 0; o && t->result.draw && shape && shape->result_omits &&
                        k < TNY_RK_COUNT;
         k++)
        if (shape->result_omits(&t->result, (enum tny_result_key)k))
            json_object_del(o, tny_result_key_name((enum tny_result_key)k));
    return o;
}

static json_t *player_json(const struct tny_player *pl,
                           const struct tny_format *fmt)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    ok = ok && tny__set(o, "id", json_string(pl->id));
    ok = ok && tny__set(o, "name", json_string(pl->name));
    if (pl->club)
        ok = ok && tny__set(o, "club", json_string(pl->club));
    if (pl->country)
        ok = ok && tny__set(o, "country", json_string(pl->country));
    if (pl->external_id)
        ok = ok && tny__set(o, "external_id", json_string(pl->external_id));
    if (pl->has_rating)
        ok = ok && tny__set(o, "rating", tny__number(pl->rating));
    if (pl->n_armies > 0) {
        json_t *a = json_array();
        for (int i = 0; a && i < pl->n_armies; i++)
            if (!tny__append(a, json_string(fmt->armies[pl->armies[i]]))) {
                json_decref(a);
                a = NULL;
            }
        ok = ok && tny__set(o, "armies", a);
    }
    if (pl->n_ko_armies > 0) { /* NH-11 declaration */
        json_t *a = json_array();
        for (int i = 0; a && i < pl->n_ko_armies; i++)
            if (!tny__append(a, json_string(fmt->armies[pl->ko_armies[i]]))) {
                json_decref(a);
                a = NULL;
            }
        ok = ok && tny__set(o, "knockout_armies", a);
    }
    if (pl->beginner)
        ok = ok && tny__set(o, "beginner", json_true());
    if (pl->hook)
        ok = ok && tny__set(o, "hook", json_true());
    if (pl->n_colours > 0) {
        json_t *a = json_array();
        for (int i = 0; a && i < pl->n_colours; i++)
            if (!tny__append(a, json_string(pl->colours[i]))) {
                json_decref(a);
                a = NULL;
            }
        ok = ok && tny__set(o, "colours", a);
    }
    if (pl->colour_blind)
        ok = ok && tny__set(o, "colour_blind", json_true());
    if (pl->faction)
        ok = ok && tny__set(o, "faction", json_string(pl->faction));
    if (pl->agenda)
        ok = ok && tny__set(o, "agenda", json_string(pl->agenda));
    if (pl->decklist)
        ok = ok && tny__set(o, "decklist", json_string(pl->decklist));
    if (pl->first_round > 1)
        ok =
            ok && tny__set(o, "late_from_round", json_integer(pl->first_round));
    if (pl->fixed_table > 0)
        ok = ok && tny__set(o, "fixed_table", json_integer(pl->fixed_table));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *format_ref_json(const struct tny_format *fmt)
{
    struct tny_format *preset = malloc(sizeof(*preset));
    json_t *out = NULL;
    if (!preset)
        return NULL;
    /* By name when the event runs the preset unchanged: files stay short
     * and pick up nothing else from a later preset edit than the name. */
    if (tny_format_preset(fmt->name, preset, NULL) == TNY_OK &&
        memcmp(preset, fmt, sizeof(*fmt)) == 0)
        out = json_string(fmt->name);
    else
        out = tny__format_json(fmt);
    free(preset);
    return out;
}

int tny_event_to_json(const struct tny_event *ev, char **out)
{
    json_t *o = json_object(), *a;
    bool ok = o != NULL;
    int rc = TNY_ENOMEM;
    *out = NULL;
    ok = ok && tny__set(o, "format", format_ref_json(&ev->format));
    ok = ok && tny__set(o, "seed", json_integer((json_int_t)ev->seed));
    if (ev->title[0])
        ok = ok && tny__set(o, "title", json_string(ev->title));
    if (ev->level != TNY_LEVEL_NONE)
        ok = ok && tny__set(o, "level", json_string(level_names[ev->level]));
    if (ev->language[0])
        ok = ok && tny__set(o, "language", json_string(ev->language));

    a = ok ? json_array() : NULL;
    for (int32_t i = 0; a && i < ev->n_players; i++)
        if (!tny__append(a, player_json(&ev->players[i], &ev->format))) {
            json_decref(a);
            a = NULL;
        }
    ok = ok && tny__set(o, "players", a);

    a = ok ? json_array() : NULL;
    for (int32_t i = 0; a && i < ev->n_players; i++) {
        const struct tny_player *pl = &ev->players[i];
        if (!pl->dropped_after && !pl->no_show)
            continue;
        json_t *d = json_object();
        bool dok = d && tny__set(d, "player", json_string(pl->id)) &&
                   tny__set(d, "after_round", json_integer(pl->dropped_after));
        if (dok && pl->rejoined_from)
            dok = tny__set(d, "rejoin_round", json_integer(pl->rejoined_from));
        if (!dok) {
            json_decref(d);
            d = NULL;
        }
        if (!tny__append(a, d)) {
            json_decref(a);
            a = NULL;
        }
    }
    ok = ok && tny__set(o, "drops", a);

    a = ok ? json_array() : NULL;
    for (int32_t i = 0; a && i < ev->n_players; i++) {
        const struct tny_player *pl = &ev->players[i];
        if (!pl->dq_after)
            continue;
        json_t *d = json_object();
        bool dok = d && tny__set(d, "player", json_string(pl->id)) &&
                   tny__set(d, "after_round", json_integer(pl->dq_after));
        if (!dok) {
            json_decref(d);
            d = NULL;
        }
        if (!tny__append(a, d)) {
            json_decref(a);
            a = NULL;
        }
    }
    ok = ok && tny__set(o, "disqualified", a);

    a = ok ? json_array() : NULL;
    for (int32_t r = 0; a && r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        json_t *ro = json_object(), *tabs = json_array();
        bool rok = ro && tabs &&
                   tny__set(ro, "stage",
                            json_string(tny_stage_kind_name(round->stage)));
        for (int32_t t = 0; rok && t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            json_t *to = json_object();
            bool tok = to != NULL;
            if (tb->is_bye) {
                tok =
                    tok && tny__set(to, "bye", json_string(seat_id(ev, tb, 0)));
            } else {
                json_t *ps = json_array();
                for (int32_t s = 0; ps && s < tb->n_seats; s++)
                    if (!tny__append(ps, json_string(seat_id(ev, tb, s)))) {
                        json_decref(ps);
                        ps = NULL;
                    }
                tok = tok && tny__set(to, "table", json_integer(tb->number));
                tok = tok && tny__set(to, "players", ps);
                if (tb->has_sides && ev->format.n_sides == 2) {
                    json_t *sd = json_array();
                    for (int32_t s = 0; sd && s < tb->n_seats; s++)
                        if (!tny__append(
                                sd, json_string(
                                        ev->format.sides[tb->side[s] & 1]))) {
                            json_decref(sd);
                            sd = NULL;
                        }
                    tok = tok && tny__set(to, "sides", sd);
                }
                if (tb->has_result)
                    tok = tok && tny__set(to, "result", result_json(ev, tb));
            }
            if (!tok) {
                json_decref(to);
                to = NULL;
            }
            rok = tny__append(tabs, to);
        }
        if (rok) {
            rok = tny__set(ro, "tables", tabs);
            tabs = NULL;
        }
        json_decref(tabs);
        if (!rok) {
            json_decref(ro);
            ro = NULL;
        }
        if (!tny__append(a, ro)) {
            json_decref(a);
            a = NULL;
        }
    }
    ok = ok && tny__set(o, "rounds", a);
    if (ok && ev->n_absences > 0) {
        a = json_array();
        for (int32_t i = 0; a && i < ev->n_absences; i++) {
            json_t *d = json_object();
            const struct tny_absence *ab = &ev->absences[i];
            bool dok = d &&
                       tny__set(d, "player",
                                json_string(ev->players[ab->player].id)) &&
                       tny__set(d, "round", json_integer(ab->round));
            if (!dok) {
                json_decref(d);
                d = NULL;
            }
            if (!tny__append(a, d)) {
                json_decref(a);
                a = NULL;
            }
        }
        ok = tny__set(o, "absences", a);
    }
    if (ok && ev->n_cut_seeds > 0) {
        a = json_array();
        for (int32_t i = 0; a && i < ev->n_cut_seeds; i++)
            if (!tny__append(a,
                             json_string(ev->players[ev->cut_seeds[i]].id))) {
                json_decref(a);
                a = NULL;
            }
        ok = tny__set(o, "cut_seeds", a);
    }
    if (ok)
        rc = tny__dump(o, out);
    json_decref(o);
    return rc;
}
