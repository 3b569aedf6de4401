/* console_args.c - turns what an organiser types into protocol values:
 * event-file result objects into wire results, "2.5" tournament points into
 * 1/1200 units, "90s" into milliseconds, files into text.
 *
 * What it does not do: no meaning checks that need the event (is p7 at
 * table 3, is 37 VP allowed): the hub answers those.  Structural rules
 * (2..4 players, winner xor draw) are checked again by the wire encoder,
 * whose message then names the protobuf field.
 *
 * Invariants: every value written into a fixed array fits it (checked),
 * and messages name the offending key as "result.KEY" or quote the text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "console_internal.h"
#include "tny/game.h"
#include "tny/format.h"
#include "tny/result_schema.h"

/* ---- numbers ------------------------------------------------------------ */

int hub_console_int(const char *text, int64_t min, int64_t max, int64_t *out,
                    struct tny_diag *diag)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
        return tny_diag_set(diag, TNY_EINVAL,
                            "\"%s\": expected a whole number %lld..%lld", text,
                            (long long)min, (long long)max);
    *out = v;
    return TNY_OK;
}

/* A finite decimal number, the whole text. */
static bool parse_number(const char *text, double *out, char **rest)
{
    char *end;
    if (text[0] == '\0' || text[0] == ' ')
        return false;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno != 0 || !isfinite(v))
        return false;
    /* No hex floats, infinities or exponents slipping in. */
    for (const char *c = text; c < end; c++)
        if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == '-' || *c == '+'))
            return false;
    *out = v;
    *rest = end;
    return true;
}

/* x tournament points as units; false when not a whole number of units. */
static bool to_units(double x, int64_t *units)
{
    double u = x * TNY_POINT_SCALE;
    if (fabs(u) > 1e15)
        return false;
    double r = nearbyint(u);
    if (fabs(u - r) > 1e-6)
        return false;
    *units = (int64_t)r;
    return true;
}

int hub_console_points(const char *text, int64_t max_tp, int64_t *units,
                       struct tny_diag *diag)
{
    double x;
    char *rest;
    if (!parse_number(text, &x, &rest) || *rest != '\0' ||
        !to_units(x, units) || *units <= 0 || *units > max_tp * TNY_POINT_SCALE)
        return tny_diag_set(diag, TNY_EINVAL,
                            "\"%s\": expected tournament points above 0 and "
                            "at most %lld (e.g. 1 or 0.5)",
                            text, (long long)max_tp);
    return TNY_OK;
}

int hub_console_duration_ms(const char *text, int64_t *ms,
                            struct tny_diag *diag)
{
    double x, scale = 60000.0; /* bare numbers are minutes */
    char *rest;
    if (!parse_number(text, &x, &rest))
        goto bad;
    if (strcmp(rest, "ms") == 0)
        scale = 1.0;
    else if (strcmp(rest, "s") == 0)
        scale = 1000.0;
    else if (strcmp(rest, "m") == 0 || strcmp(rest, "min") == 0 ||
             *rest == '\0')
        scale = 60000.0;
    else if (strcmp(rest, "h") == 0)
        scale = 3600000.0;
    else
        goto bad;
    double v = nearbyint(x * scale);
    if (v < 1 || v > (double)TNY_CLOCK_MAX_MS)
        goto bad;
    *ms = (int64_t)v;
    return TNY_OK;
bad:
    return tny_diag_set(diag, TNY_EINVAL,
                        "\"%s\": expected a duration: minutes (5, 2.5) or "
                        "90s, 5m, 1h; at most 30 days",
                        text);
}

/* ---- files -------------------------------------------------------------- */

int hub_console_read_file(const char *path, size_t max, char **out, size_t *len,
                          struct tny_diag *diag)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t used = 0, cap = 0;
    int rc;

    *out = NULL;
    *len = 0;
    if (!f)
        return tny_diag_set(diag, errno == ENOENT ? TNY_ENOTFOUND : TNY_EINVAL,
                            "cannot read %s: %s", path, strerror(errno));
    for (;;) {
        if (cap - used < 65536) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > max + 1)
                ncap = max + 1;
            if (ncap <= used) {
                rc = tny_diag_set(diag, TNY_ERANGE, "%s: larger than %zu bytes",
                                  path, max);
                goto out;
            }
            char *nbuf = realloc(buf, ncap + 1);
            if (!nbuf) {
                rc = tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0) {
            if (ferror(f)) {
                rc = tny_diag_set(diag, TNY_EINVAL, "cannot read %s: %s", path,
                                  strerror(errno));
                goto out;
            }
            break;
        }
    }
    if (used > max) {
        rc = tny_diag_set(diag, TNY_ERANGE, "%s: larger than %zu bytes", path,
                          max);
        goto out;
    }
    buf[used] = '\0';
    *out = buf;
    *len = used;
    buf = NULL;
    rc = TNY_OK;
out:
    free(buf);
    if (!is_stdin)
        fclose(f);
    return rc;
}

/* ---- results ------------------------------------------------------------ */

struct rparse {
    struct tny_wire_result *r;
    struct tny_diag *diag;
};

static int copy_id(char *dst, const char *src, const char *path,
                   struct tny_diag *diag)
{
    if (!tny_wire_id_valid(src))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: \"%s\" is not a player id ([A-Za-z0-9_.-], "
                            "1..64 characters)",
                            path, src);
    memcpy(dst, src, strlen(src) + 1);
    return TNY_OK;
}

static int want_id(const json_t *v, char *dst, const char *path,
                   struct tny_diag *diag)
{
    if (!json_is_string(v))
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected a player id", path);
    return copy_id(dst, json_string_value(v), path, diag);
}

/* The entry of player id in r->players, added when new. */
static int player_slot(struct rparse *rp, const char *id, const char *path,
                       struct tny_wire_result_player **out)
{
    struct tny_wire_result *r = rp->r;
    for (int32_t i = 0; i < r->n_players; i++)
        if (strcmp(r->players[i].player_id, id) == 0) {
            *out = &r->players[i];
            return TNY_OK;
        }
    if (r->n_players >= TNY_MAX_SEATS)
        return tny_diag_set(rp->diag, TNY_EINVAL, "%s: more than %d players",
                            path, TNY_MAX_SEATS);
    struct tny_wire_result_player *p = &r->players[r->n_players];
    int rc = copy_id(p->player_id, id, path, rp->diag);
    if (rc < 0)
        return rc;
    r->n_players++;
    *out = p;
    return TNY_OK;
}

/* A per-player value ({"p1": value, ...}) into v by its kind: entries
 * are added to the players' list by id as they come. */
static int player_map(struct rparse *rp, const json_t *obj, const char *path,
                      enum tny_result_value kind,
                      struct tny_wire_result_val *out)
{
    char ppath[240];
    const char *id;
    json_t *v;
    int rc;

    if (!json_is_object(obj))
        return tny_diag_set(rp->diag, TNY_EINVAL,
                            "%s: expected an object of player id -> value",
                            path);
    json_object_foreach ((json_t *)obj, id, v) {
        struct tny_wire_result_player *p = NULL;
        snprintf(ppath, sizeof ppath, "%s.%s", path, id);
        if ((rc = player_slot(rp, id, ppath, &p)) < 0)
            return rc;
        int32_t i = (int32_t)(p - rp->r->players);
        out->has[i] = true;
        if (kind == TNY_RV_ARMY) {
            if (!json_is_string(v) ||
                strlen(json_string_value(v)) >= sizeof p->army ||
                json_string_value(v)[0] == '\0')
                return tny_diag_set(rp->diag, TNY_EINVAL,
                                    "%s: expected an army name (1..%zu "
                                    "bytes)",
                                    ppath, sizeof p->army - 1);
            out->army[i] = json_string_value(v);
        } else if (kind == TNY_RV_POINTS) {
            if (!json_is_number(v) ||
                !to_units(json_number_value(v), &out->per[i]))
                return tny_diag_set(rp->diag, TNY_EINVAL,
                                    "%s: expected tournament points (a "
                                    "number such as 14 or 2.5)",
                                    ppath);
        } else {
            if (!json_is_integer(v) ||
                json_integer_value(v) < -TNY_RESULT_ABS_MAX ||
                json_integer_value(v) > TNY_RESULT_ABS_MAX)
                return tny_diag_set(rp->diag, TNY_EINVAL,
                                    "%s: expected a whole number", ppath);
            out->per[i] = json_integer_value(v);
        }
    }
    return TNY_OK;
}

/* A result key's name (result_schema.h). */
#define KEY(k) tny_result_key_name(TNY_RK_##k)

static bool has(const json_t *o, const char *key)
{
    return json_object_get(o, key) != NULL;
}

/* A result of the game the other keys point at, for an unknown key's
 * message ({"winer": "p1", "hq_diff": 3} is a Neuroshima Hex result). */
static const char *example_of(const json_t *res)
{
    if (has(res, KEY(HQ_DIFF)) || has(res, KEY(ARMIES)) || has(res, KEY(DRAW)))
        return "{\"winner\": \"p1\", \"hq_diff\": 5}";
    if (has(res, KEY(SCORES)) || has(res, KEY(CLOCK_MS)) || has(res, KEY(TP)))
        return "{\"scores\": {\"p1\": 25, \"p2\": 18}}";
    if (has(res, KEY(IP)) || has(res, KEY(BP)))
        return "{\"vp\": {\"p1\": 40, \"p2\": 35}, \"bp\": {\"p1\": 2}}";
    if (has(res, KEY(GAMES)) || has(res, KEY(MODIFIED)))
        return "{\"winner\": \"p1\", \"modified\": true}";
    if (has(res, KEY(VP)))
        return "{\"vp\": {\"p1\": 10, \"p2\": 8}}";
    return "{\"winner\": \"p1\", \"hq_diff\": 5} or {\"vp\": {\"p1\": 10, "
           "\"p2\": 8}}; --game names the game";
}

/* The console's knowledge of each result message (wire.h), found by the
 * module's wire name (game.h): the keys that point at it when --game is
 * not given (rows tried in order), a check before the keys are read, the
 * rules between its keys (what each game's result needs at least, before
 * the hub checks the rest).  A message without a row is never inferred
 * (--game names its game) and has no rules here. */
struct console_shape {
    const char *member;
    bool (*claims)(const json_t *res);
    int (*before)(struct rparse *rp, const json_t *res);
    int (*rules)(struct rparse *rp, const json_t *res);
};

/* Two-player: an outcome only it has, or scores with a winner or a draw
 * (scores alone: say --game). */
static bool claims_tp(const json_t *res)
{
    return has(res, KEY(INTENTIONAL_DRAW)) || has(res, KEY(DOUBLE_LOSS)) ||
           (has(res, KEY(SCORES)) &&
            (has(res, KEY(WINNER)) || has(res, KEY(DRAW))));
}

static bool claims_nh(const json_t *res)
{
    return has(res, KEY(HQ_DIFF)) || has(res, KEY(DRAW)) ||
           has(res, KEY(ARMIES));
}

static bool claims_tx(const json_t *res)
{
    return has(res, KEY(SCORES)) || has(res, KEY(CLOCK_MS)) ||
           has(res, KEY(TP)) || has(res, KEY(PENALTY)) ||
           has(res, KEY(DEFAULT_WIN));
}

static bool claims_ag(const json_t *res)
{
    return has(res, KEY(IP)) || has(res, KEY(BP));
}

static bool claims_gt(const json_t *res)
{
    return has(res, KEY(WINNER)) || has(res, KEY(GAMES)) ||
           has(res, KEY(MODIFIED));
}

static bool claims_ct(const json_t *res)
{
    return has(res, KEY(VP));
}

static int before_ag(struct rparse *rp, const json_t *res)
{
    if (!has(res, KEY(VP)) || !has(res, KEY(IP)) || !has(res, KEY(BP)))
        return tny_diag_set(rp->diag, TNY_EINVAL,
                            "result: an Agricola result has \"vp\", "
                            "\"ip\" and \"bp\" (AG-1)");
    return TNY_OK;
}

static int rules_nh(struct rparse *rp, const json_t *res)
{
    const struct tny_wire_result *r = rp->r;
    if (!has(res, KEY(HQ_DIFF)) && !r->draw)
        return tny_diag_set(rp->diag, TNY_EINVAL, "result.%s: missing",
                            KEY(HQ_DIFF));
    if (r->winner_id[0] == '\0' && !r->draw)
        return tny_diag_set(rp->diag, TNY_EINVAL,
                            "result: expected \"winner\" or \"draw\": "
                            "true");
    return TNY_OK;
}

static int rules_ag(struct rparse *rp, const json_t *res)
{
    const struct tny_wire_result *r = rp->r;
    (void)res;
    for (int32_t i = 0; i < r->n_players; i++)
        if (!r->players[i].has_score)
            return tny_diag_set(rp->diag, TNY_EINVAL, "result.%s.%s: missing",
                                KEY(VP), r->players[i].player_id);
    return TNY_OK;
}

static int rules_gt(struct rparse *rp, const json_t *res)
{
    (void)res;
    if (rp->r->winner_id[0] == '\0' && rp->r->n_games == 0)
        return tny_diag_set(rp->diag, TNY_EINVAL,
                            "result: expected \"winner\" or \"games\"");
    return TNY_OK;
}

static int rules_ct(struct rparse *rp, const json_t *res)
{
    (void)res;
    if (rp->r->n_players == 0)
        return tny_diag_set(rp->diag, TNY_EINVAL, "result.%s: missing",
                            KEY(VP));
    return TNY_OK;
}

static int rules_tp(struct rparse *rp, const json_t *res)
{
    const struct tny_wire_result *r = rp->r;
    (void)res;
    if (r->n_players == 0 && !r->winner_id[0] && !r->draw &&
        !r->intentional_draw && !r->double_loss)
        return tny_diag_set(rp->diag, TNY_EINVAL,
                            "result: expected \"scores\" or \"winner\" "
                            "(or draw, intentional_draw, double_loss)");
    return TNY_OK;
}

/* In the order a result's keys are tried (infer_game); TX has no rules
 * here (the hub's check). */
static const struct console_shape shapes[] = {
    {"tp", claims_tp, NULL, rules_tp}, {"nh", claims_nh, NULL, rules_nh},
    {"tx", claims_tx, NULL, NULL},     {"ag", claims_ag, before_ag, rules_ag},
    {"gt", claims_gt, NULL, rules_gt}, {"ct", claims_ct, NULL, rules_ct},
};

static const struct console_shape *shape_of(enum tny_game game)
{
    static const struct console_shape none = {NULL, NULL, NULL, NULL};
    const struct tny_game_ops *ops = tny_game_shape_of(game);
    for (size_t i = 0; ops && ops->wire && i < sizeof shapes / sizeof *shapes;
         i++)
        if (strcmp(shapes[i].member, ops->wire) == 0)
            return &shapes[i];
    return &none;
}

static int infer_game(const json_t *res, enum tny_game *game,
                      struct tny_diag *diag)
{
    const struct tny_game_ops *const *all;
    const int32_t n = tny_game_registry(&all);
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)res, key, v) {
        enum tny_result_key k;
        if (!tny_result_key_from_name(key, &k) || k == TNY_RK_LOTS)
            return tny_diag_set(diag, TNY_EINVAL,
                                "result.%s: unknown key (a result object of "
                                "event-file.md, e.g. %s)",
                                key, example_of(res));
    }
    /* The first message whose keys res has; its game the module that
     * has that message as its own. */
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        if (!shapes[i].claims(res))
            continue;
        for (int32_t g = 0; g < n; g++)
            if (all[g]->flow == all[g]->game && all[g]->wire &&
                strcmp(all[g]->wire, shapes[i].member) == 0) {
                *game = all[g]->game;
                return TNY_OK;
            }
    }
    return tny_diag_set(diag, TNY_EINVAL,
                        "result: empty (expected e.g. {\"vp\": {\"p1\": "
                        "10, \"p2\": 8}})");
}

/* Keys a game's result may have (event-file.md). */
static int check_keys(const json_t *res, enum tny_game game,
                      struct tny_diag *diag)
{
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)res, key, v) {
        enum tny_result_key k;
        if (!tny_result_game_key(game, key, &k) || k == TNY_RK_LOTS)
            return tny_diag_set(diag, TNY_EINVAL,
                                "result.%s: not a key of a %s result", key,
                                tny_game_name(game));
    }
    return TNY_OK;
}

/* A list value: PLAYERS (player ids) or TEXTS (lines). */
static int list_value(const json_t *v, const char *path, enum tny_result_key k,
                      char (*ids)[TNY_WIRE_ID_MAX + 1],
                      struct tny_wire_result_val *out, struct tny_diag *diag)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    const int most = info->max_items;
    int rc;

    if (!json_is_array(v) || json_array_size(v) < 1 ||
        json_array_size(v) > (size_t)most)
        return tny_diag_set(diag, TNY_EINVAL,
                            info->value == TNY_RV_PLAYERS
                                ? "%s: expected 1..%d winner ids"
                                : "%s: expected 1..%d lines",
                            path, most);
    for (size_t i = 0; i < json_array_size(v); i++) {
        char ipath[64];
        const json_t *x = json_array_get(v, i);
        snprintf(ipath, sizeof ipath, "%s[%zu]", path, i);
        if (info->value == TNY_RV_PLAYERS) {
            if ((rc = want_id(x, ids[i], ipath, diag)) < 0)
                return rc;
            out->items[i] = ids[i];
        } else if (!json_is_string(x) ||
                   strlen(json_string_value(x)) >= TNY_LOT_MAX) {
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected a line (at most %d bytes)", ipath,
                                TNY_LOT_MAX - 1);
        } else {
            out->items[i] = json_string_value(x);
        }
    }
    out->n = (int32_t)json_array_size(v);
    return TNY_OK;
}

/* Key k of res, when present, converted by its kind into rp->r. */
static int parse_key(struct rparse *rp, const json_t *res,
                     enum tny_result_key k)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    const json_t *v = json_object_get(res, info->name);
    struct tny_wire_result_val val;
    char id[TNY_WIRE_ID_MAX + 1], ids[TNY_MAX_LOTS + 3][TNY_WIRE_ID_MAX + 1];
    char path[48];
    int rc = TNY_OK;

    if (!v)
        return TNY_OK;
    memset(&val, 0, sizeof(val));
    val.present = true;
    snprintf(path, sizeof path, "result.%s", info->name);
    switch (info->value) {
    case TNY_RV_FLAG:
        if (!json_is_boolean(v))
            return tny_diag_set(rp->diag, TNY_EINVAL,
                                "%s: expected true or false", path);
        val.flag = json_is_true(v);
        break;
    case TNY_RV_NUMBER:
        /* The range is the format's: the hub names it (one range for a
         * negative and a too-large value). */
        if (!json_is_integer(v) ||
            json_integer_value(v) < -TNY_RESULT_ABS_MAX ||
            json_integer_value(v) > TNY_RESULT_ABS_MAX)
            return tny_diag_set(rp->diag, TNY_EINVAL,
                                "%s: expected a whole number", path);
        val.number = json_integer_value(v);
        break;
    case TNY_RV_PLAYER:
        rc = want_id(v, id, path, rp->diag);
        val.id = id;
        break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY: rc = player_map(rp, v, path, info->value, &val); break;
    case TNY_RV_PLAYERS:
    case TNY_RV_TEXTS: rc = list_value(v, path, k, ids, &val, rp->diag); break;
    }
    if (rc == TNY_OK)
        tny_wire_result_value_set(rp->r, k, &val);
    return rc;
}

/* The game's keys, each read by its kind (result_schema.h), then the rules
 * between them. */
static int parse_result(struct rparse *rp, const json_t *res)
{
    const enum tny_result_key *keys;
    int32_t n = tny_result_keys(rp->r->game, &keys);
    const struct console_shape *shape = shape_of(rp->r->game);
    int rc;

    if ((rc = check_keys(res, rp->r->game, rp->diag)) < 0)
        return rc;
    if (shape->before && (rc = shape->before(rp, res)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++)
        if ((rc = parse_key(rp, res, keys[i])) < 0)
            return rc;
    return shape->rules ? shape->rules(rp, res) : TNY_OK;
}

int hub_console_result_from_json(const char *text, const char *game,
                                 struct tny_wire_result *out,
                                 struct tny_diag *diag)
{
    json_error_t err;
    struct rparse rp = {out, diag};
    int rc;

    memset(out, 0, sizeof(*out));
    json_t *res = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!res)
        return tny_diag_set(diag, TNY_EINVAL,
                            "result: invalid JSON at column %d: %s", err.column,
                            err.text);
    if (!json_is_object(res)) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "result: expected an object such as {\"vp\": "
                          "{\"p1\": 10, \"p2\": 8}}");
        goto out;
    }
    if (game) {
        if (tny_game_from_name(game, &out->game) < 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "--game \"%s\": expected neuroshima-hex, "
                              "tantrix, agricola, got-lcg2, catan or "
                              "two-player",
                              game);
            goto out;
        }
    } else if ((rc = infer_game(res, &out->game, diag)) < 0) {
        goto out;
    }
    rc = parse_result(&rp, res);
out:
    json_decref(res);
    if (rc < 0)
        memset(out, 0, sizeof(*out));
    return rc;
}
