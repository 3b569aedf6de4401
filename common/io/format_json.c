/* format_json.c - format objects <-> struct tny_format, and the options.
 *
 * A format object (docs/formats.md) is parsed key by key into the struct,
 * then its "options" are applied, then the result is checked as a whole
 * (tny_format_check, format_check.c).  Options are names for single fields
 * of the format (swiss_rounds is the Swiss stage's rounds, ...): their
 * table, ranges and setters are the engine's (format_options.h); this file
 * only turns a JSON value into a typed option value and names paths.  In
 * a format object a value may be written in both places (options.cut and
 * stages[1].cut); they must then agree, so that an edited copy of a
 * preset never silently ignores an edit.  An event's "options" simply
 * overwrite.
 *
 * Invariants: the struct is zeroed before parsing and only written through
 * named fields, so two parses of equal text give memcmp-equal structs and
 * tny_format_to_json output parses back to an equal struct.
 */
#include "tny/json_io.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"
#include "tny/format_options.h"
#include "tny/game.h"
#include "tny/presets.h"

/* "Not given" while a format object is parsed (format_options.h). */
#define UNSET32 INT32_MIN
#define UNSET64 INT64_MIN
/* Largest points value a format may hold (whole points). */
#define POINTS_LIMIT 100000

/* Presence of keys that have no spare sentinel value. */
struct fctx {
    bool structure_given;
    bool from_start_given[TNY_MAX_STAGES];
    bool block_given[32]; /* the game's block's keys (game.h), by index */
};

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- small helpers ----------------------------------------------------- */

/* A string naming one of names[0..n) (tny_name_pick says what is wrong). */
static int pick_name(const json_t *v, const char *path, const char *noun,
                     const char *const *names, int n, int *out,
                     struct tny_diag *diag)
{
    const char *s;
    int rc;

    *out = 0; /* written on every path: gcc -O3 cannot see rc < 0 */
    rc = tny__string(v, path, 64, &s, diag);
    if (rc < 0)
        return rc;
    return tny_name_pick(s, names, n, path, noun, out, diag);
}

/* The name tables of format.h as arrays for pick_name (caller's storage,
 * so that format.c stays the one place that spells them). */
#define N_KINDS (TNY_STAGE_ROUND_ROBIN + 1)
#define N_PAIRINGS (TNY_PAIR_ROUND_ROBIN + 1)
#define N_GAMES_MAX 32 /* the registry's size, at most */
#define N_STRUCTURES (TNY_STRUCTURE_ADVANCED + 1)
#define N_GROUP_ORDERS (TNY_GROUP_ADJACENT + 1)
#define N_SCORE_GROUPS (TNY_GROUPS_WINS + 1)
#define N_BYE_RULES (TNY_BYE_LOWEST_RANKED + 1)

static void tiebreak_names(const char **names)
{
    for (int i = 0; i < TNY_TB_COUNT_; i++)
        names[i] = tny_tiebreak_name((enum tny_tiebreak)i);
}

static const char **structure_names(const char **names)
{
    for (int i = 0; i < N_STRUCTURES; i++)
        names[i] = tny_structure_name((enum tny_structure)i);
    return names;
}

static const char **group_order_names(const char **names)
{
    for (int i = 0; i < N_GROUP_ORDERS; i++)
        names[i] = tny_group_order_name((enum tny_group_order)i);
    return names;
}

static const char **score_groups_names(const char **names)
{
    for (int i = 0; i < N_SCORE_GROUPS; i++)
        names[i] = tny_score_groups_name((enum tny_score_groups)i);
    return names;
}

static const char **bye_rule_names(const char **names)
{
    for (int i = 0; i < N_BYE_RULES; i++)
        names[i] = tny_bye_rule_name((enum tny_bye_rule)i);
    return names;
}

static int pairing_stage(const struct tny_format *fmt, enum tny_pairing p)
{
    for (int i = 0; i < fmt->n_stages; i++)
        if (fmt->stages[i].pairing == p)
            return i;
    return -1;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- options ----------------------------------------------------------- */

/* An option value as JSON (new reference; NULL on allocation failure). */
static json_t *option_json(const struct tny_option_value *v)
{
    switch (v->type) {
    case TNY_OPTION_INT: return json_integer(v->number);
    case TNY_OPTION_POINTS: return tny_json_points(v->number);
    case TNY_OPTION_BOOL: return json_boolean(v->number);
    case TNY_OPTION_NAME: return json_string(v->name);
    }
    return NULL;
}

/* The JSON value v as a value of option o: only its JSON type is checked
 * here (ranges and names are tny_format_option_set's).  A name borrows
 * v's text. */
static int option_value(const struct tny_option_info *o, const json_t *v,
                        const char *path, struct tny_option_value *out,
                        struct tny_diag *diag)
{
    bool b;
    int rc;

    memset(out, 0, sizeof(*out));
    out->type = o->type;
    switch (o->type) {
    case TNY_OPTION_INT:
        if (!json_is_integer(v)) /* says "expected an integer LO..HI" */
            return tny__int(v, path, o->lo, o->hi, &out->number, diag);
        out->number = json_integer_value(v);
        return TNY_OK;
    case TNY_OPTION_POINTS:
        return tny__points(v, path, o->hi, &out->number, diag);
    case TNY_OPTION_BOOL:
        if ((rc = tny__bool(v, path, &b, diag)) < 0)
            return rc;
        out->number = b;
        return TNY_OK;
    case TNY_OPTION_NAME: return tny__string(v, path, 64, &out->name, diag);
    }
    return TNY_OK;
}

/* Whether a format object's body gave option i's value itself (options
 * whose fields have no "not given" mark keep it in ctx). */
static bool given_in_body(const struct tny_format *f, int i,
                          const struct fctx *ctx)
{
    const struct tny_game_ops *shape = tny_game_shape_of(f->game);
    const char *name = tny_format_option_info(i)->name;
    if (strcmp(name, "structure") == 0)
        return ctx->structure_given;
    if (strcmp(name, "elimination_only") == 0)
        return ctx->from_start_given[pairing_stage(f, TNY_PAIR_FOLDED)];
    /* a key of the game's block that is an option (two-player draws) */
    for (int32_t k = 0; shape && k < shape->block.n_keys && k < 32; k++)
        if ((shape->block.keys[k].flags & TNY_FKF_OPTION) &&
            strcmp(name, shape->block.keys[k].name) == 0)
            return ctx->block_given[k];
    return true;
}

/* Current value of option i as JSON; NULL when not given (ctx: by the
 * body of the format object) or on allocation failure. */
static json_t *option_get(const struct tny_format *f, int i,
                          const struct fctx *ctx)
{
    struct tny_option_value v;
    if (ctx && !given_in_body(f, i, ctx))
        return NULL;
    if (!tny_format_option_get(f, i, &v))
        return NULL;
    return option_json(&v);
}

static bool same_value(const struct tny_option_value *a,
                       const struct tny_option_value *b)
{
    if (a->type != b->type)
        return false;
    if (a->type == TNY_OPTION_NAME)
        return strcmp(a->name, b->name) == 0;
    return a->number == b->number;
}

/* ctx non-NULL: options of a format object, checked against the body. */
static int apply_options(struct tny_format *f, const json_t *opts,
                         const char *path, const struct fctx *ctx,
                         struct tny_diag *diag)
{
    int rc = tny__want_object(opts, path, diag);
    char kpath[TNY__PATH_MAX];
    struct tny_format *scratch = NULL;
    if (rc < 0)
        return rc;
    /* Every key must be an option of this format (checked up front so
     * that a typo is reported even when an earlier option also fails). */
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)opts, key, value) {
        if (tny__is_extension_key(key))
            continue;
        tny__path_key(kpath, path, key);
        if ((rc = tny_format_option_find(f, key, kpath, diag)) < 0)
            return rc;
    }
    rc = TNY_OK;
    scratch = malloc(sizeof(*scratch));
    if (!scratch)
        return TNY_ENOMEM;
    for (int i = 0; i < tny_format_option_count(); i++) {
        const struct tny_option_info *o = tny_format_option_info(i);
        struct tny_option_value want, had, now;
        json_t *v = json_object_get(opts, o->name);
        if (!v)
            continue;
        tny__path_key(kpath, path, o->name);
        /* e.g. pairing removed the stage */
        if ((rc = tny_format_option_check(f, i, kpath, diag)) < 0 ||
            (rc = option_value(o, v, kpath, &want, diag)) < 0)
            goto out;
        if (!ctx || !given_in_body(f, i, ctx) ||
            !tny_format_option_get(f, i, &had)) {
            if ((rc = tny_format_option_set(f, i, &want, kpath, diag)) < 0)
                goto out;
            continue;
        }
        /* Written twice in one format object: must say the same. */
        *scratch = *f;
        if ((rc = tny_format_option_set(scratch, i, &want, kpath, diag)) < 0)
            goto out;
        tny_format_option_get(scratch, i, &now);
        if (!same_value(&had, &now)) {
            json_t *had_json = option_json(&had);
            char *had_text =
                had_json ? json_dumps(had_json, JSON_ENCODE_ANY) : NULL;
            json_decref(had_json);
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: disagrees with %s (%s) in the same format; "
                              "change one of them",
                              kpath, o->home, had_text ? had_text : "?");
            free(had_text);
            goto out;
        }
    }
    tny_format_sync_derived(f);
out:
    free(scratch);
    return rc;
}

int tny_format_apply_options(struct tny_format *fmt, const json_t *opts,
                             const char *path, struct tny_diag *diag)
{
    int rc = apply_options(fmt, opts, path, NULL, diag);
    if (rc < 0)
        return rc;
    /* The combined result must still be a valid format (e.g. a Swiss
     * stage left without rounds). */
    return tny_format_check_options(fmt, path, diag);
}

/* ---- parsing ----------------------------------------------------------- */

/* A format object's keys: these, each game's block (game.h, registry
 * order; top_keys builds the list), then top_tail. */
static const char *const top_head[] = {"name",
                                       "title",
                                       "game",
                                       "players_per_table",
                                       "min_players",
                                       "max_players",
                                       "player_multiple",
                                       "structure",
                                       "options",
                                       "points",
                                       "bye",
                                       "stages",
                                       NULL};
static const char *const top_tail[] = {"tiebreak_data", "sides", "table", NULL};
static const char *const stage_keys[] = {
    "name",        "kind",          "pairing",
    "group_order", "score_groups",  "rounds",
    "cut",         "best_of_three", "from_start",
    "tiebreaks",   "timer_minutes", "final_timer_minutes",
    "weight",      "pairing_cost",  NULL};
static const char *const points_keys[] = {"win",
                                          "draw",
                                          "loss",
                                          "modified_win",
                                          "placement",
                                          "placement_3",
                                          "intentional_draw",
                                          "double_loss",
                                          NULL};
static const char *const tbd_keys[] = {"mov", "owp_floor", NULL};
static const char *const sides_keys[] = {"names", "balance", "swapped_rematch",
                                         NULL};
static const char *const mov_keys[] = {"base", "min", "max", "bye", NULL};
static const char *const bye_keys[] = {"rule",    "second_bye",  "points",
                                       "hq_diff", "game_points", "success_rate",
                                       NULL};
static const char *const table_keys[] = {"draft_minutes", "action_seconds",
                                         "timeout_procedure", "notes", NULL};

/* Optional integer key into an int32 field (untouched when absent). */
static int opt_i32(const json_t *obj, const char *path, const char *key,
                   int64_t lo, int64_t hi, int32_t scale, int32_t *field,
                   struct tny_diag *diag)
{
    json_t *v = json_object_get(obj, key);
    char p[TNY__PATH_MAX];
    int64_t x;
    int rc;
    if (!v)
        return TNY_OK;
    tny__path_key(p, path, key);
    if ((rc = tny__int(v, p, lo, hi, &x, diag)) < 0)
        return rc;
    *field = (int32_t)(x * scale);
    return TNY_OK;
}

static int opt_points(const json_t *obj, const char *path, const char *key,
                      int64_t *field, struct tny_diag *diag)
{
    json_t *v = json_object_get(obj, key);
    char p[TNY__PATH_MAX];
    if (!v)
        return TNY_OK;
    tny__path_key(p, path, key);
    return tny__points(v, p, POINTS_LIMIT, field, diag);
}

static int opt_bool(const json_t *obj, const char *path, const char *key,
                    bool *field, bool *given, struct tny_diag *diag)
{
    json_t *v = json_object_get(obj, key);
    char p[TNY__PATH_MAX];
    if (!v)
        return TNY_OK;
    if (given)
        *given = true;
    tny__path_key(p, path, key);
    return tny__bool(v, p, field, diag);
}

static int need(const json_t *obj, const char *path, const char *key,
                json_t **out, struct tny_diag *diag)
{
    *out = json_object_get(obj, key);
    if (!*out) {
        char p[TNY__PATH_MAX];
        tny__path_key(p, path, key);
        return tny_diag_set(diag, TNY_EINVAL, "%s: missing", p);
    }
    return TNY_OK;
}

/* A key that only some games have: present in a format of another game
 * is an error naming the key and the game. */
static int game_key(const json_t *obj, const char *path, const char *key,
                    bool fits, const struct tny_format *f, const char *which,
                    struct tny_diag *diag)
{
    char p[TNY__PATH_MAX];
    if (fits || !json_object_get(obj, key))
        return TNY_OK;
    tny__path_key(p, path, key);
    return tny_diag_set(diag, TNY_EINVAL,
                        "%s: does not apply to a \"%s\" format (only %s)", p,
                        tny_game_name(f->game), which);
}

/* The first game (registry order) whose format_keys have bit. */
static const char *first_with(uint32_t bit)
{
    const struct tny_game_ops *const *all;
    const int32_t n = tny_game_registry(&all);
    for (int32_t g = 0; g < n; g++)
        if (all[g]->flow == all[g]->game && (all[g]->format_keys & bit))
            return all[g]->name;
    return "?";
}

/* game_key for a key the game's shape takes when its format_keys have
 * bit (game.h); the message names the first game with named (bit when
 * 0). */
static int takes(const json_t *obj, const char *path, const char *key,
                 const struct tny_game_ops *shape, uint32_t bit, uint32_t named,
                 const struct tny_format *f, struct tny_diag *diag)
{
    if (!json_object_get(obj, key))
        return TNY_OK; /* first_with only for a message */
    return game_key(obj, path, key, shape && (shape->format_keys & bit), f,
                    first_with(named ? named : bit), diag);
}

static int points_list(const json_t *obj, const char *path, const char *key,
                       int64_t *dst, int max, int32_t *n_out,
                       struct tny_diag *diag)
{
    json_t *arr = json_object_get(obj, key);
    char p[TNY__PATH_MAX], ip[TNY__PATH_MAX];
    int rc;
    if (!arr)
        return TNY_OK;
    tny__path_key(p, path, key);
    if ((rc = tny__want_array(arr, p, (size_t)max, diag)) < 0)
        return rc;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        tny__path_index(ip, p, i);
        if ((rc = tny__points(json_array_get(arr, i), ip, POINTS_LIMIT, &dst[i],
                              diag)) < 0)
            return rc;
    }
    if (n_out)
        *n_out = (int32_t)json_array_size(arr);
    return TNY_OK;
}

/* An array of distinct names, each at most TNY_NAME_MAX-1 bytes; when
 * known is non-NULL every name must be one of the format's armies. */
static int name_list(const json_t *obj, const char *path, const char *key,
                     char (*dst)[TNY_NAME_MAX], int max, int32_t *n_out,
                     const struct tny_format *known, struct tny_diag *diag)
{
    json_t *arr = json_object_get(obj, key);
    char p[TNY__PATH_MAX], ip[TNY__PATH_MAX];
    int rc;
    if (!arr)
        return TNY_OK;
    tny__path_key(p, path, key);
    if ((rc = tny__want_array(arr, p, (size_t)max, diag)) < 0)
        return rc;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        tny__path_index(ip, p, i);
        if ((rc = tny__string_to(json_array_get(arr, i), ip, dst[i],
                                 TNY_NAME_MAX, diag)) < 0)
            return rc;
        if ((rc = tny_format_check_name_entry((const char(*)[TNY_NAME_MAX])dst,
                                              (int32_t)i, known, ip, diag)) < 0)
            return rc;
    }
    *n_out = (int32_t)json_array_size(arr);
    return TNY_OK;
}

static int parse_stage(const json_t *obj, const char *path,
                       struct tny_stage *st, bool *from_start_given,
                       struct tny_diag *diag)
{
    json_t *v;
    int rc, which;
    char p[TNY__PATH_MAX];
    if ((rc = tny__want_object(obj, path, diag)) < 0 ||
        (rc = tny__check_keys(obj, path, stage_keys, diag)) < 0)
        return rc;
    if ((rc = need(obj, path, "name", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "name");
    if ((rc = tny__string_to(v, p, st->name, sizeof(st->name), diag)) < 0)
        return rc;

    const char *kinds[N_KINDS], *pairings[N_PAIRINGS];
    const char *tbs[TNY_TB_COUNT_], *names[N_GROUP_ORDERS + N_SCORE_GROUPS];
    for (int i = 0; i < N_KINDS; i++)
        kinds[i] = tny_stage_kind_name((enum tny_stage_kind)i);
    for (int i = 0; i < N_PAIRINGS; i++)
        pairings[i] = tny_pairing_name((enum tny_pairing)i);
    tiebreak_names(tbs);
    if ((rc = need(obj, path, "kind", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "kind");
    if ((rc = pick_name(v, p, "stage kind", kinds, N_KINDS, &which, diag)) < 0)
        return rc;
    st->kind = (enum tny_stage_kind)which;
    if ((rc = need(obj, path, "pairing", &v, diag)) < 0)
        return rc;
    tny__path_key(p, path, "pairing");
    if ((rc = pick_name(v, p, "pairing", pairings, N_PAIRINGS, &which, diag)) <
        0)
        return rc;
    st->pairing = (enum tny_pairing)which;

    if ((v = json_object_get(obj, "group_order"))) {
        tny__path_key(p, path, "group_order");
        if ((rc = pick_name(v, p, "group order", group_order_names(names),
                            N_GROUP_ORDERS, &which, diag)) < 0)
            return rc;
        st->group_order = (enum tny_group_order)which;
    }
    if ((v = json_object_get(obj, "score_groups"))) {
        tny__path_key(p, path, "score_groups");
        if ((rc = pick_name(v, p, "score groups", score_groups_names(names),
                            N_SCORE_GROUPS, &which, diag)) < 0)
            return rc;
        st->score_groups = (enum tny_score_groups)which;
    }
    if ((v = json_object_get(obj, "pairing_cost"))) {
        const char *costs[2] = {tny_pairing_cost_name(TNY_COST_SCORE_GROUPS),
                                tny_pairing_cost_name(TNY_COST_POINTS)};
        tny__path_key(p, path, "pairing_cost");
        if ((rc = pick_name(v, p, "pairing cost", costs, 2, &which, diag)) < 0)
            return rc;
        st->pairing_cost = (enum tny_pairing_cost)which;
    }
    if ((rc = opt_i32(obj, path, "rounds", 0, 1000, 1, &st->rounds, diag)) <
            0 ||
        (rc = opt_i32(obj, path, "cut", 0, 4096, 1, &st->cut, diag)) < 0 ||
        (rc = opt_bool(obj, path, "best_of_three", &st->best_of_three, NULL,
                       diag)) < 0 ||
        (rc = opt_bool(obj, path, "from_start", &st->from_start,
                       from_start_given, diag)) < 0 ||
        (rc = opt_i32(obj, path, "timer_minutes", 0, 1440, 1,
                      &st->timer_minutes, diag)) < 0 ||
        (rc = opt_i32(obj, path, "final_timer_minutes", 0, 1440, 1,
                      &st->final_timer_minutes, diag)) < 0)
        return rc;

    if ((v = json_object_get(obj, "tiebreaks"))) {
        char ip[TNY__PATH_MAX];
        tny__path_key(p, path, "tiebreaks");
        if ((rc = tny__want_array(v, p, TNY_MAX_TIEBREAKS, diag)) < 0)
            return rc;
        for (size_t i = 0; i < json_array_size(v); i++) {
            tny__path_index(ip, p, i);
            if ((rc = pick_name(json_array_get(v, i), ip, "tiebreak", tbs,
                                TNY_TB_COUNT_, &which, diag)) < 0)
                return rc;
            st->tiebreaks[i] = (enum tny_tiebreak)which;
            if ((rc = tny_stage_check_tiebreak_entry(st, (int32_t)i, ip,
                                                     diag)) < 0)
                return rc;
        }
        st->n_tiebreaks = (int32_t)json_array_size(v);
        if ((rc = tny_stage_check_tiebreaks(st, path, diag)) < 0)
            return rc;
    }

    st->weight_num = st->weight_den = 1;
    if ((v = json_object_get(obj, "weight"))) {
        int64_t units;
        tny__path_key(p, path, "weight");
        if ((rc = tny__points(v, p, 1000, &units, diag)) < 0)
            return rc;
        if (units <= 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected a positive "
                                "number",
                                p);
        int64_t g = gcd64(units, TNY_POINT_SCALE);
        st->weight_num = units / g;
        st->weight_den = TNY_POINT_SCALE / g;
    }
    return TNY_OK;
}

/* The format object's keys (top_head, the games' blocks, top_tail) into
 * keys (NULL-terminated; room for N_OF(top_head) + N_GAMES_MAX +
 * N_OF(top_tail) entries). */
static void top_keys(const char **keys)
{
    const struct tny_game_ops *const *all;
    const int32_t n = tny_game_registry(&all);
    int k = 0;
    for (int i = 0; top_head[i]; i++)
        keys[k++] = top_head[i];
    for (int32_t g = 0; g < n && g < N_GAMES_MAX; g++)
        if (all[g]->flow == all[g]->game && all[g]->block.name)
            keys[k++] = all[g]->block.name;
    for (int i = 0; top_tail[i]; i++)
        keys[k++] = top_tail[i];
    keys[k] = NULL;
}

/* A member of f at a block key's offset. */
#define MEMBER(f, key, type) ((type *)((char *)(f) + (key)->offset))
#define COUNT(f, key) ((int32_t *)((char *)(f) + (key)->count_offset))

/* Key k of a game's block b (game.h struct tny_format_key) into f. */
static int block_key(const json_t *b, const char *p,
                     const struct tny_format_key *k, struct tny_format *f,
                     bool *given, struct tny_diag *diag)
{
    switch (k->kind) {
    case TNY_FK_INT:
        return opt_i32(b, p, k->name, k->lo, k->hi, k->scale,
                       MEMBER(f, k, int32_t), diag);
    case TNY_FK_POINTS:
        return opt_points(b, p, k->name, MEMBER(f, k, int64_t), diag);
    case TNY_FK_BOOL:
        return opt_bool(b, p, k->name, MEMBER(f, k, bool), given, diag);
    case TNY_FK_NAMES:
        return name_list(
            b, p, k->name, (char(*)[TNY_NAME_MAX])MEMBER(f, k, char), k->cap,
            COUNT(f, k), (k->flags & TNY_FKF_ARMIES) ? f : NULL, diag);
    case TNY_FK_POINTS_LIST:
        return points_list(b, p, k->name, MEMBER(f, k, int64_t), k->cap,
                           COUNT(f, k), diag);
    }
    return TNY_OK;
}

/* The game's own block (game.h block: the module of its result shape
 * declares it), each key by its kind; a block of another game is an
 * error.  A block read is followed by the game's score range check. */
static int parse_game_block(const json_t *root, const char *path,
                            struct tny_format *f, struct fctx *ctx,
                            struct tny_diag *diag)
{
    const struct tny_game_ops *const *all;
    const int32_t n = tny_game_registry(&all);
    const struct tny_game_ops *shape = tny_game_shape_of(f->game);
    const struct tny_format_block *blk = shape ? &shape->block : NULL;
    const char *names[33];
    char p[TNY__PATH_MAX];
    int rc;
    for (int32_t g = 0; g < n; g++)
        if (all[g]->flow == all[g]->game && all[g]->block.name &&
            json_object_get(root, all[g]->block.name) && all[g] != shape) {
            tny__path_key(p, path, all[g]->block.name);
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: not a key of a \"%s\" format", p,
                                tny_game_name(f->game));
        }
    if (!blk || !blk->name)
        return TNY_OK;
    for (int32_t k = 0; k < blk->n_keys; k++)
        if (blk->keys[k].flags & TNY_FKF_DEFAULT)
            *MEMBER(f, &blk->keys[k], int32_t) = blk->keys[k].dflt;
    json_t *b = json_object_get(root, blk->name);
    if (!b)
        return TNY_OK;
    int32_t nk = 0;
    for (; nk < blk->n_keys && nk < 32; nk++)
        names[nk] = blk->keys[nk].name;
    names[nk] = NULL;
    tny__path_key(p, path, blk->name);
    if ((rc = tny__want_object(b, p, diag)) < 0 ||
        (rc = tny__check_keys(b, p, names, diag)) < 0)
        return rc;
    for (int32_t k = 0; k < nk; k++)
        if ((rc = block_key(b, p, &blk->keys[k], f, &ctx->block_given[k],
                            diag)) < 0)
            return rc;
    return tny_format_check_scores(f, path, diag);
}

/* "tiebreak_data": the numbers of the tiebreaks that are formulas (MoV,
 * the OWP floor), so an organiser can state their own game's. */
static int parse_tiebreak_data(const json_t *root, const char *path,
                               struct tny_format *f, struct tny_diag *diag)
{
    json_t *b = json_object_get(root, "tiebreak_data"), *m, *v;
    char p[TNY__PATH_MAX], mp[TNY__PATH_MAX];
    int rc;
    if (!b)
        return TNY_OK;
    tny__path_key(p, path, "tiebreak_data");
    if ((rc = tny__want_object(b, p, diag)) < 0 ||
        (rc = tny__check_keys(b, p, tbd_keys, diag)) < 0)
        return rc;
    if ((m = json_object_get(b, "mov"))) {
        tny__path_key(mp, p, "mov");
        const struct tny_game_ops *shape = tny_game_shape_of(f->game);
        if (!shape || !(shape->format_keys & TNY_GFK_OUTCOMES))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: does not apply to a \"%s\" format (a "
                                "margin needs both players' scores: only "
                                "%s)",
                                mp, tny_game_name(f->game),
                                first_with(TNY_GFK_OUTCOMES));
        f->mov_min = -1000000;
        f->mov_max = 1000000;
        if ((rc = tny__want_object(m, mp, diag)) < 0 ||
            (rc = tny__check_keys(m, mp, mov_keys, diag)) < 0 ||
            (rc = opt_i32(m, mp, "base", -1000000, 1000000, 1, &f->mov_base,
                          diag)) < 0 ||
            (rc = opt_i32(m, mp, "min", -1000000, 1000000, 1, &f->mov_min,
                          diag)) < 0 ||
            (rc = opt_i32(m, mp, "max", -1000000, 1000000, 1, &f->mov_max,
                          diag)) < 0 ||
            (rc = opt_i32(m, mp, "bye", -1000000, 1000000, 1, &f->mov_bye,
                          diag)) < 0)
            return rc;
        f->has_mov = true;
        if ((rc = tny_format_check_mov(f, path, diag)) < 0)
            return rc;
    }
    if ((v = json_object_get(b, "owp_floor"))) {
        int64_t units;
        tny__path_key(mp, p, "owp_floor");
        if ((rc = tny__points(v, mp, 100, &units, diag)) < 0)
            return rc;
        if (units < 0 || (units * 10) % TNY_POINT_SCALE != 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected a percentage 0..100 in tenths",
                                mp);
        f->owp_floor_permille = (int32_t)(units * 10 / TNY_POINT_SCALE);
    }
    return TNY_OK;
}

/* "sides": {"names": [two names], "balance": N, "swapped_rematch": bool}
 * (2-player formats only). */
static int parse_sides(const json_t *root, const char *path,
                       struct tny_format *f, struct tny_diag *diag)
{
    json_t *b = json_object_get(root, "sides"), *v;
    char p[TNY__PATH_MAX], np[TNY__PATH_MAX];
    int rc;
    if (!b)
        return TNY_OK;
    tny__path_key(p, path, "sides");
    if ((rc = tny__want_object(b, p, diag)) < 0 ||
        (rc = tny__check_keys(b, p, sides_keys, diag)) < 0)
        return rc;
    if (f->players_per_table != 2)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: sides need 2 players per table, not %d", p,
                            (int)f->players_per_table);
    tny__path_key(np, p, "names");
    v = json_object_get(b, "names");
    if (!v || !json_is_array(v) || json_array_size(v) != 2)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected an array of two side names", np);
    for (size_t i = 0; i < 2; i++) {
        char ip[TNY__PATH_MAX];
        tny__path_index(ip, np, i);
        if ((rc = tny__string_to(json_array_get(v, i), ip, f->sides[i],
                                 sizeof(f->sides[i]), diag)) < 0)
            return rc;
    }
    if (strcmp(f->sides[0], f->sides[1]) == 0)
        return tny_diag_set(diag, TNY_EINVAL, "%s: \"%s\" listed twice", np,
                            f->sides[0]);
    f->n_sides = 2;
    return (rc = opt_i32(b, p, "balance", 0, 1000, 1, &f->side_balance, diag)) <
                   0
               ? rc
               : opt_bool(b, p, "swapped_rematch", &f->swapped_rematch, NULL,
                          diag);
}

static int parse_table_block(const json_t *root, const char *path,
                             struct tny_format *f, struct tny_diag *diag)
{
    json_t *b = json_object_get(root, "table"), *v;
    char p[TNY__PATH_MAX], kp[TNY__PATH_MAX], ip[TNY__PATH_MAX];
    int rc;
    if (!b)
        return TNY_OK;
    tny__path_key(p, path, "table");
    if ((rc = tny__want_object(b, p, diag)) < 0 ||
        (rc = tny__check_keys(b, p, table_keys, diag)) < 0 ||
        (rc = opt_i32(b, p, "draft_minutes", 0, 1440, 1, &f->draft_minutes,
                      diag)) < 0 ||
        (rc = opt_i32(b, p, "action_seconds", 0, 3600, 1, &f->action_seconds,
                      diag)) < 0)
        return rc;
    if ((v = json_object_get(b, "timeout_procedure"))) {
        tny__path_key(kp, p, "timeout_procedure");
        if ((rc = tny__string_to(v, kp, f->timeout_procedure,
                                 sizeof(f->timeout_procedure), diag)) < 0)
            return rc;
    }
    if ((v = json_object_get(b, "notes"))) {
        tny__path_key(kp, p, "notes");
        if ((rc = tny__want_array(v, kp, TNY_MAX_NOTES, diag)) < 0)
            return rc;
        for (size_t i = 0; i < json_array_size(v); i++) {
            tny__path_index(ip, kp, i);
            if ((rc = tny__string_to(json_array_get(v, i), ip, f->notes[i],
                                     TNY_NOTE_MAX, diag)) < 0)
                return rc;
        }
        f->n_notes = (int32_t)json_array_size(v);
    }
    return TNY_OK;
}

static void set_sentinels(struct tny_format *f)
{
    for (int i = 0; i < TNY_MAX_STAGES; i++) {
        f->stages[i].rounds = UNSET32;
        f->stages[i].cut = UNSET32;
        f->stages[i].timer_minutes = UNSET32;
        f->stages[i].final_timer_minutes = UNSET32;
    }
    f->bye_points = UNSET64;
    f->draft_minutes = UNSET32;
    f->action_seconds = UNSET32;
    f->clock_limit_ms = UNSET32;
    f->default_win_tp = UNSET64;
    f->max_missed_games = UNSET32;
    f->group_a_size = UNSET32;
}

static void clear_sentinels(struct tny_format *f)
{
    for (int i = 0; i < TNY_MAX_STAGES; i++) {
        struct tny_stage *s = &f->stages[i];
        if (s->rounds == UNSET32)
            s->rounds = 0;
        if (s->cut == UNSET32)
            s->cut = 0;
        if (s->timer_minutes == UNSET32)
            s->timer_minutes = 0;
        if (s->final_timer_minutes == UNSET32)
            s->final_timer_minutes = 0;
    }
    if (f->bye_points == UNSET64)
        f->bye_points = 0;
    if (f->draft_minutes == UNSET32)
        f->draft_minutes = 0;
    if (f->action_seconds == UNSET32)
        f->action_seconds = 0;
    if (f->clock_limit_ms == UNSET32)
        f->clock_limit_ms = 0;
    if (f->default_win_tp == UNSET64)
        f->default_win_tp = 0;
    if (f->max_missed_games == UNSET32)
        f->max_missed_games = 0;
    if (f->group_a_size == UNSET32)
        f->group_a_size = 0;
}

int tny_format_from_json(const json_t *root, const char *path,
                         struct tny_format *f, struct tny_diag *diag)
{
    struct fctx ctx;
    json_t *v;
    char p[TNY__PATH_MAX];
    const char *names[N_STRUCTURES + N_BYE_RULES];
    const char *keys[N_OF(top_head) + N_GAMES_MAX + N_OF(top_tail)];
    const struct tny_game_ops *shape;
    int rc, which;
    int64_t x;

    memset(f, 0, sizeof(*f));
    memset(&ctx, 0, sizeof(ctx));
    set_sentinels(f);
    top_keys(keys);
    if ((rc = tny__want_object(root, path, diag)) < 0 ||
        (rc = tny__check_keys(root, path, keys, diag)) < 0)
        goto out;

    if ((rc = need(root, path, "name", &v, diag)) < 0)
        goto out;
    tny__path_key(p, path, "name");
    if ((rc = tny__string_to(v, p, f->name, sizeof(f->name), diag)) < 0)
        goto out;
    if ((rc = need(root, path, "title", &v, diag)) < 0)
        goto out;
    tny__path_key(p, path, "title");
    if ((rc = tny__string_to(v, p, f->title, sizeof(f->title), diag)) < 0)
        goto out;

    const struct tny_game_ops *const *all;
    const char *games[N_GAMES_MAX];
    int n_games = (int)tny_game_registry(&all);
    for (int i = 0; i < n_games && i < N_GAMES_MAX; i++)
        games[i] = all[i]->name;
    if ((rc = need(root, path, "game", &v, diag)) < 0)
        goto out;
    tny__path_key(p, path, "game");
    if ((rc = pick_name(v, p, "game", games, n_games, &which, diag)) < 0)
        goto out;
    f->game = all[which]->game;
    shape = tny_game_shape_of(f->game);

    if ((rc = need(root, path, "players_per_table", &v, diag)) < 0)
        goto out;
    tny__path_key(p, path, "players_per_table");
    if ((rc = tny__int(v, p, 2, TNY_MAX_SEATS, &x, diag)) < 0)
        goto out;
    f->players_per_table = (int32_t)x;
    f->player_multiple = 1;
    if ((rc = opt_i32(root, path, "min_players", 0, TNY_MAX_PLAYERS, 1,
                      &f->min_players, diag)) < 0 ||
        (rc = opt_i32(root, path, "max_players", 0, TNY_MAX_PLAYERS, 1,
                      &f->max_players, diag)) < 0 ||
        (rc = opt_i32(root, path, "player_multiple", 1, 1000, 1,
                      &f->player_multiple, diag)) < 0)
        goto out;
    if ((v = json_object_get(root, "structure"))) {
        tny__path_key(p, path, "structure");
        if ((rc = pick_name(v, p, "structure", structure_names(names),
                            N_STRUCTURES, &which, diag)) < 0)
            goto out;
        f->structure = (enum tny_structure)which;
        ctx.structure_given = true;
    }

    if ((v = json_object_get(root, "points"))) {
        tny__path_key(p, path, "points");
        if ((rc = tny__want_object(v, p, diag)) < 0 ||
            (rc = tny__check_keys(v, p, points_keys, diag)) < 0 ||
            (rc = game_key(v, p, "placement", f->players_per_table > 2, f,
                           "games with more than 2 players at a table", diag)) <
                0 ||
            (rc = takes(v, p, "placement_3", shape, TNY_GFK_PLACEMENT_3, 0, f,
                        diag)) < 0 ||
            (rc = takes(v, p, "modified_win", shape, TNY_GFK_MODIFIED_WIN,
                        TNY_GFK_MODIFIED_WIN_SHOWN, f, diag)) < 0 ||
            (rc = takes(v, p, "intentional_draw", shape, TNY_GFK_OUTCOMES, 0, f,
                        diag)) < 0 ||
            (rc = takes(v, p, "double_loss", shape, TNY_GFK_OUTCOMES, 0, f,
                        diag)) < 0 ||
            (rc = opt_points(v, p, "win", &f->win_points, diag)) < 0 ||
            (rc = opt_points(v, p, "intentional_draw",
                             &f->intentional_draw_points, diag)) < 0 ||
            (rc = opt_points(v, p, "double_loss", &f->double_loss_points,
                             diag)) < 0 ||
            (rc = opt_points(v, p, "draw", &f->draw_points, diag)) < 0 ||
            (rc = opt_points(v, p, "loss", &f->loss_points, diag)) < 0 ||
            (rc = opt_points(v, p, "modified_win", &f->modified_win_points,
                             diag)) < 0 ||
            (rc = points_list(v, p, "placement", f->placement_points,
                              TNY_MAX_SEATS, NULL, diag)) < 0 ||
            (rc = points_list(v, p, "placement_3", f->placement_points_3,
                              TNY_MAX_SEATS, NULL, diag)) < 0)
            goto out;
    }

    if ((v = json_object_get(root, "bye"))) {
        json_t *r;
        tny__path_key(p, path, "bye");
        if ((rc = tny__want_object(v, p, diag)) < 0 ||
            (rc = tny__check_keys(v, p, bye_keys, diag)) < 0 ||
            (rc = takes(v, p, "hq_diff", shape, TNY_GFK_BYE_HQ_DIFF, 0, f,
                        diag)) < 0 ||
            (rc = takes(v, p, "game_points", shape, TNY_GFK_BYE_GAME_POINTS, 0,
                        f, diag)) < 0 ||
            (rc = takes(v, p, "success_rate", shape, TNY_GFK_BYE_GAME_POINTS, 0,
                        f, diag)) < 0)
            goto out;
        if ((r = json_object_get(v, "rule"))) {
            char rp[TNY__PATH_MAX];
            tny__path_key(rp, p, "rule");
            if ((rc = pick_name(r, rp, "bye rule", bye_rule_names(names),
                                N_BYE_RULES, &which, diag)) < 0)
                goto out;
            f->bye_rule = (enum tny_bye_rule)which;
        }
        if ((rc = opt_bool(v, p, "second_bye", &f->second_bye_allowed, NULL,
                           diag)) < 0 ||
            (rc = opt_points(v, p, "points", &f->bye_points, diag)) < 0 ||
            (rc = opt_i32(v, p, "hq_diff", -1000, 1000, 1, &f->bye_hq_diff,
                          diag)) < 0 ||
            (rc = opt_i32(v, p, "game_points", 0, 100000, 1,
                          &f->bye_game_points, diag)) < 0)
            goto out;
        /* The same range as options.bye_points, so that the format as
         * printed (which carries it as that option) reads back. */
        if (f->bye_points != UNSET64 &&
            (f->bye_points < 0 || f->bye_points > 1000 * TNY_POINT_SCALE)) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s.points: expected points 0..1000 (a bye "
                              "never costs points)",
                              p);
            goto out;
        }
        if ((r = json_object_get(v, "success_rate"))) {
            /* Percent, exact to a tenth: 27 -> 270 per mille (CT-6). */
            int64_t units;
            char rp[TNY__PATH_MAX];
            tny__path_key(rp, p, "success_rate");
            if ((rc = tny__points(r, rp, 100, &units, diag)) < 0)
                goto out;
            if (units < 0 || (units * 10) % TNY_POINT_SCALE != 0) {
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "%s: expected a percentage "
                                  "0..100 in tenths",
                                  rp);
                goto out;
            }
            f->bye_success_permille = (int32_t)(units * 10 / TNY_POINT_SCALE);
        }
    }

    if ((rc = need(root, path, "stages", &v, diag)) < 0)
        goto out;
    tny__path_key(p, path, "stages");
    if ((rc = tny__want_array(v, p, TNY_MAX_STAGES, diag)) < 0)
        goto out;
    if (json_array_size(v) == 0) {
        rc = tny_diag_set(diag, TNY_EINVAL, "%s: expected at least one stage",
                          p);
        goto out;
    }
    for (size_t i = 0; i < json_array_size(v); i++) {
        char sp[TNY__PATH_MAX];
        tny__path_index(sp, p, i);
        if ((rc = parse_stage(json_array_get(v, i), sp, &f->stages[i],
                              &ctx.from_start_given[i], diag)) < 0)
            goto out;
    }
    f->n_stages = (int32_t)json_array_size(v);

    if ((rc = parse_game_block(root, path, f, &ctx, diag)) < 0 ||
        (rc = parse_tiebreak_data(root, path, f, diag)) < 0 ||
        (rc = parse_sides(root, path, f, diag)) < 0 ||
        (rc = parse_table_block(root, path, f, diag)) < 0)
        goto out;

    if ((v = json_object_get(root, "options"))) {
        tny__path_key(p, path, "options");
        if ((rc = apply_options(f, v, p, &ctx, diag)) < 0)
            goto out;
    }
    clear_sentinels(f);
    tny_format_sync_derived(f);
    rc = tny_format_check(f, path, diag);
out:
    if (rc < 0) {
        memset(f, 0, sizeof(*f));
        if (rc == TNY_ENOMEM)
            tny_diag_set(diag, rc, "%s: out of memory", path);
    }
    return rc;
}

int tny_format_from_json_text(const char *text, size_t len,
                              struct tny_format *out, struct tny_diag *diag)
{
    json_t *root = NULL;
    int rc = tny__load(text, len, "format", &root, diag);
    if (rc < 0)
        return rc;
    rc = tny_format_from_json(root, "format", out, diag);
    json_decref(root);
    return rc;
}

int tny_format_preset(const char *name, struct tny_format *out,
                      struct tny_diag *diag)
{
    for (const struct tny_preset *p = tny_presets; p->name; p++) {
        if (strcmp(p->name, name) != 0)
            continue;
        struct tny_diag inner;
        int rc =
            tny_format_from_json_text(p->json, strlen(p->json), out, &inner);
        if (rc < 0)
            return tny_diag_set(diag, TNY_EINVAL, "preset \"%s\" is broken: %s",
                                name, inner.msg);
        return TNY_OK;
    }
    char list[256] = "";
    size_t used = 0;
    for (const struct tny_preset *p = tny_presets;
         p->name && used < sizeof(list); p++) {
        int w = snprintf(list + used, sizeof(list) - used, "%s%s",
                         used ? ", " : "", p->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return tny_diag_set(diag, TNY_ENOTFOUND,
                        "unknown format \"%.64s\" (presets: %s)", name, list);
}

/* ---- writing ----------------------------------------------------------- */

static json_t *points_array(const int64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (!tny__append(a, tny_json_points(v[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *names_array(const char (*names)[TNY_NAME_MAX], int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (!tny__append(a, json_string(names[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *stage_json(const struct tny_stage *s)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    const bool elim = s->kind == TNY_STAGE_ELIMINATION;
    ok = ok && tny__set(o, "name", json_string(s->name));
    ok = ok && tny__set(o, "kind", json_string(tny_stage_kind_name(s->kind)));
    ok =
        ok && tny__set(o, "pairing", json_string(tny_pairing_name(s->pairing)));
    if (s->pairing == TNY_PAIR_SWISS || s->group_order != TNY_GROUP_LOT)
        ok = ok && tny__set(o, "group_order",
                            json_string(tny_group_order_name(s->group_order)));
    if (s->pairing == TNY_PAIR_SWISS)
        ok =
            ok && tny__set(o, "score_groups",
                           json_string(tny_score_groups_name(s->score_groups)));
    if (s->pairing_cost != TNY_COST_SCORE_GROUPS)
        ok =
            ok && tny__set(o, "pairing_cost",
                           json_string(tny_pairing_cost_name(s->pairing_cost)));
    if (!elim || s->rounds)
        ok = ok && tny__set(o, "rounds", json_integer(s->rounds));
    if (elim || s->cut)
        ok = ok && tny__set(o, "cut", json_integer(s->cut));
    if (elim || s->best_of_three)
        ok = ok && tny__set(o, "best_of_three", json_boolean(s->best_of_three));
    if (s->pairing == TNY_PAIR_FOLDED || s->from_start)
        ok = ok && tny__set(o, "from_start", json_boolean(s->from_start));
    if (s->n_tiebreaks > 0) {
        json_t *a = json_array();
        for (int i = 0; a && i < s->n_tiebreaks; i++)
            if (!tny__append(a,
                             json_string(tny_tiebreak_name(s->tiebreaks[i])))) {
                json_decref(a);
                a = NULL;
            }
        ok = ok && tny__set(o, "tiebreaks", a);
    }
    ok = ok && tny__set(o, "timer_minutes", json_integer(s->timer_minutes));
    if (elim || s->final_timer_minutes)
        ok = ok && tny__set(o, "final_timer_minutes",
                            json_integer(s->final_timer_minutes));
    if (s->weight_num != s->weight_den || s->kind == TNY_STAGE_PRELIM ||
        s->kind == TNY_STAGE_FINAL)
        ok = ok && tny__set(o, "weight",
                            tny_json_points(s->weight_num * TNY_POINT_SCALE /
                                            s->weight_den));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The game's own block (game.h), its keys in order. */
static json_t *block_json(const struct tny_format *f,
                          const struct tny_format_block *blk)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    for (int32_t i = 0; ok && i < blk->n_keys; i++) {
        const struct tny_format_key *k = &blk->keys[i];
        const void *at = (const char *)f + k->offset;
        const int32_t *count =
            (const int32_t *)((const char *)f + k->count_offset);
        json_t *v = NULL;
        switch (k->kind) {
        case TNY_FK_INT:
            if ((k->flags & TNY_FKF_IF_SET) && *(const int32_t *)at <= 0)
                continue;
            v = json_integer(*(const int32_t *)at / k->scale);
            break;
        case TNY_FK_POINTS:
            if ((k->flags & TNY_FKF_IF_SET) && !*(const int64_t *)at)
                continue;
            v = tny_json_points(*(const int64_t *)at);
            break;
        case TNY_FK_BOOL:
            if ((k->flags & TNY_FKF_IF_SET) && !*(const bool *)at)
                continue;
            v = json_boolean(*(const bool *)at);
            break;
        case TNY_FK_NAMES:
            v = names_array((const char(*)[TNY_NAME_MAX])at, *count);
            break;
        case TNY_FK_POINTS_LIST:
            v = points_array((const int64_t *)at, *count);
            break;
        }
        ok = tny__set(o, k->name, v);
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *format_json(const struct tny_format *f)
{
    json_t *o = json_object(), *sub;
    bool ok = o != NULL;
    const enum tny_game g = f->game;
    const struct tny_game_ops *shape = tny_game_shape_of(g);
    const uint32_t gk = shape ? shape->format_keys : 0;
    ok = ok && tny__set(o, "name", json_string(f->name));
    ok = ok && tny__set(o, "title", json_string(f->title));
    ok = ok && tny__set(o, "game", json_string(tny_game_name(g)));
    ok = ok &&
         tny__set(o, "players_per_table", json_integer(f->players_per_table));
    ok = ok && tny__set(o, "min_players", json_integer(f->min_players));
    ok = ok && tny__set(o, "max_players", json_integer(f->max_players));
    ok = ok && tny__set(o, "player_multiple", json_integer(f->player_multiple));
    if ((gk & TNY_GFK_STRUCTURE) || f->structure != TNY_STRUCTURE_CUSTOM)
        ok = ok && tny__set(o, "structure",
                            json_string(tny_structure_name(f->structure)));

    sub = ok ? json_object() : NULL;
    for (int i = 0; sub && i < tny_format_option_count(); i++)
        if (tny_format_option_applies(f, i) &&
            !tny__set(sub, tny_format_option_info(i)->name,
                      option_get(f, i, NULL))) {
            json_decref(sub);
            sub = NULL;
        }
    ok = ok && tny__set(o, "options", sub);

    sub = ok ? json_object() : NULL;
    if (sub && f->players_per_table == 2 && !(gk & TNY_GFK_POINTS_IF_SET)) {
        ok = ok && tny__set(sub, "win", tny_json_points(f->win_points));
        if ((gk & TNY_GFK_MODIFIED_WIN_SHOWN) || f->modified_win_points)
            ok = ok && tny__set(sub, "modified_win",
                                tny_json_points(f->modified_win_points));
        ok = ok && tny__set(sub, "draw", tny_json_points(f->draw_points));
        ok = ok && tny__set(sub, "loss", tny_json_points(f->loss_points));
        if (gk & TNY_GFK_OUTCOMES) {
            ok = ok && tny__set(sub, "intentional_draw",
                                tny_json_points(f->intentional_draw_points));
            ok = ok && tny__set(sub, "double_loss",
                                tny_json_points(f->double_loss_points));
        }
    } else if (sub && (gk & TNY_GFK_POINTS_IF_SET)) {
        if (f->win_points)
            ok = ok && tny__set(sub, "win", tny_json_points(f->win_points));
        if (f->draw_points)
            ok = ok && tny__set(sub, "draw", tny_json_points(f->draw_points));
        if (f->loss_points)
            ok = ok && tny__set(sub, "loss", tny_json_points(f->loss_points));
        if (f->modified_win_points)
            ok = ok && tny__set(sub, "modified_win",
                                tny_json_points(f->modified_win_points));
    }
    if (sub && (f->players_per_table == 4 || f->placement_points[0]))
        ok = ok && tny__set(sub, "placement",
                            points_array(f->placement_points, TNY_MAX_SEATS));
    if (sub && ((gk & TNY_GFK_PLACEMENT_3) || f->placement_points_3[0]))
        ok = ok && tny__set(sub, "placement_3",
                            points_array(f->placement_points_3,
                                         f->placement_points_3[3] ? 4 : 3));
    if (sub && json_object_size(sub) == 0) {
        json_decref(sub); /* e.g. Tantrix: TP come from margin_tp */
        sub = NULL;
    } else {
        ok = ok && tny__set(o, "points", sub);
    }

    sub = ok ? json_object() : NULL;
    ok = ok &&
         tny__set(sub, "rule", json_string(tny_bye_rule_name(f->bye_rule)));
    ok = ok && tny__set(sub, "second_bye", json_boolean(f->second_bye_allowed));
    ok = ok && tny__set(sub, "points", tny_json_points(f->bye_points));
    if ((gk & TNY_GFK_BYE_HQ_DIFF) || f->bye_hq_diff)
        ok = ok && tny__set(sub, "hq_diff", json_integer(f->bye_hq_diff));
    if ((gk & TNY_GFK_BYE_GAME_POINTS) || f->bye_game_points)
        ok = ok &&
             tny__set(sub, "game_points", json_integer(f->bye_game_points));
    if ((gk & TNY_GFK_BYE_GAME_POINTS) || f->bye_success_permille)
        ok = ok && tny__set(sub, "success_rate",
                            tny_json_points((int64_t)f->bye_success_permille *
                                            TNY_POINT_SCALE / 10));
    ok = ok && tny__set(o, "bye", sub);

    sub = ok ? json_array() : NULL;
    for (int i = 0; sub && i < f->n_stages; i++)
        if (!tny__append(sub, stage_json(&f->stages[i]))) {
            json_decref(sub);
            sub = NULL;
        }
    ok = ok && tny__set(o, "stages", sub);

    if (ok && shape && shape->block.name) {
        sub = block_json(f, &shape->block);
        ok = ok && tny__set(o, shape->block.name, sub);
    }
    if (ok && (f->has_mov || f->owp_floor_permille)) {
        sub = json_object();
        if (f->has_mov) {
            json_t *m = json_object();
            ok = ok && tny__set(m, "base", json_integer(f->mov_base));
            ok = ok && tny__set(m, "min", json_integer(f->mov_min));
            ok = ok && tny__set(m, "max", json_integer(f->mov_max));
            ok = ok && tny__set(m, "bye", json_integer(f->mov_bye));
            ok = ok && tny__set(sub, "mov", m);
        }
        if (f->owp_floor_permille)
            ok = ok && tny__set(sub, "owp_floor",
                                tny_json_points((int64_t)f->owp_floor_permille *
                                                TNY_POINT_SCALE / 10));
        ok = ok && tny__set(o, "tiebreak_data", sub);
    }

    if (ok && f->n_sides == 2) {
        sub = json_object();
        json_t *names = json_array();
        ok = tny__append(names, json_string(f->sides[0])) &&
             tny__append(names, json_string(f->sides[1])) &&
             tny__set(sub, "names", names) &&
             tny__set(sub, "balance", json_integer(f->side_balance)) &&
             tny__set(sub, "swapped_rematch",
                      json_boolean(f->swapped_rematch)) &&
             tny__set(o, "sides", sub);
    }

    sub = ok ? json_object() : NULL;
    if ((gk & TNY_GFK_TABLE_DRAFT) || f->draft_minutes)
        ok = ok &&
             tny__set(sub, "draft_minutes", json_integer(f->draft_minutes));
    if ((gk & TNY_GFK_TABLE_DRAFT) || f->action_seconds)
        ok = ok &&
             tny__set(sub, "action_seconds", json_integer(f->action_seconds));
    if (f->timeout_procedure[0])
        ok = ok && tny__set(sub, "timeout_procedure",
                            json_string(f->timeout_procedure));
    if (f->n_notes > 0) {
        json_t *a = json_array();
        for (int i = 0; a && i < f->n_notes; i++)
            if (!tny__append(a, json_string(f->notes[i]))) {
                json_decref(a);
                a = NULL;
            }
        ok = ok && tny__set(sub, "notes", a);
    }
    ok = ok && tny__set(o, "table", sub);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *tny__format_json(const struct tny_format *f)
{
    return format_json(f);
}

int tny_format_to_json(const struct tny_format *fmt, char **out)
{
    *out = NULL;
    json_t *o = format_json(fmt);
    if (!o)
        return TNY_ENOMEM;
    int rc = tny__dump(o, out);
    json_decref(o);
    return rc;
}
