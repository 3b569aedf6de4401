/* format_options.c - the option table and its setters (format_options.h).
 *
 * One row per option: its name, type, range, where else a format object
 * holds it, which formats have it and the field it names.  Values arrive
 * typed (struct tny_option_value); turning JSON into them is the JSON
 * adapter's, so that a C caller (the table client) sets an option without
 * writing JSON.  Messages say what is wrong with the value at the caller's
 * path, exactly as a format file reports it.
 *
 * Invariant: the table is in application order ("pairing" first) and a
 * row's field function is only called when the row applies, so the stage
 * it looks up exists.
 */
#include "tny/format_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tny/game.h"

#define UNSET32 INT32_MIN
#define UNSET64 INT64_MIN
#define PATH_MAX_ 256

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int find_stage(const struct tny_format *fmt, enum tny_stage_kind kind)
{
    for (int i = 0; i < fmt->n_stages; i++)
        if (fmt->stages[i].kind == kind)
            return i;
    return -1;
}

static int swiss_stage(const struct tny_format *fmt)
{
    for (int i = 0; i < fmt->n_stages; i++)
        if (fmt->stages[i].kind == TNY_STAGE_SWISS ||
            fmt->stages[i].kind == TNY_STAGE_ROUND_ROBIN)
            return i;
    return -1;
}

static int pairing_stage(const struct tny_format *fmt, enum tny_pairing p)
{
    for (int i = 0; i < fmt->n_stages; i++)
        if (fmt->stages[i].pairing == p)
            return i;
    return -1;
}

struct option {
    struct tny_option_info info;
    int arg; /* stage kind for per-stage options; for fd_format the
              * field's offsetof(struct tny_format, ...) */
    bool (*applies)(const struct option *o, const struct tny_format *fmt);
    /* Address of the field, or NULL (NAME options and elimination_only,
     * handled by name below). */
    void *(*field)(const struct option *o, struct tny_format *fmt);
    int32_t scale; /* INT: field = value * scale */
};

/* Whether f's game offers the options of group (game.h options). */
static bool game_offers(const struct tny_format *f, enum tny_game_option group)
{
    const struct tny_game_ops *ops = tny_game_ops_of(f->game);
    return ops && (ops->options & group) != 0;
}

static bool ap_pairing(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return f->n_stages == 1 && f->players_per_table == 2 &&
           (f->stages[0].pairing == TNY_PAIR_SWISS ||
            f->stages[0].pairing == TNY_PAIR_ROUND_ROBIN);
}
static bool ap_structure(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_STRUCTURE);
}
static bool ap_folded(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return pairing_stage(f, TNY_PAIR_FOLDED) >= 0;
}
static bool ap_swiss(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return swiss_stage(f) >= 0;
}
static bool ap_kind(const struct option *o, const struct tny_format *f)
{
    return find_stage(f, (enum tny_stage_kind)o->arg) >= 0;
}
static bool ap_four(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return f->players_per_table == 4;
}
static bool ap_not_ag(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_BYE_POINTS);
}
static bool ap_ag(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_AG);
}
static bool ap_ag_ct(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_PLACEMENT);
}
static bool ap_tx(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_TX);
}
static bool ap_tp(const struct option *o, const struct tny_format *f)
{
    (void)o;
    return game_offers(f, TNY_GOPT_TWO_PLAYER);
}

static void *fd_swiss_rounds(const struct option *o, struct tny_format *f)
{
    (void)o;
    return &f->stages[swiss_stage(f)].rounds;
}
static void *fd_kind_rounds(const struct option *o, struct tny_format *f)
{
    return &f->stages[find_stage(f, (enum tny_stage_kind)o->arg)].rounds;
}
static void *fd_cut(const struct option *o, struct tny_format *f)
{
    (void)o;
    return &f->stages[find_stage(f, TNY_STAGE_ELIMINATION)].cut;
}
static void *fd_timer(const struct option *o, struct tny_format *f)
{
    return &f->stages[find_stage(f, (enum tny_stage_kind)o->arg)].timer_minutes;
}
static void *fd_final_timer(const struct option *o, struct tny_format *f)
{
    (void)o;
    return &f->stages[find_stage(f, TNY_STAGE_ELIMINATION)].final_timer_minutes;
}
/* A format-level field: o->arg is its byte offset in struct tny_format. */
static void *fd_format(const struct option *o, struct tny_format *f)
{
    return (char *)f + o->arg;
}

#define INT_ TNY_OPTION_INT
#define POINTS_ TNY_OPTION_POINTS
#define BOOL_ TNY_OPTION_BOOL
#define NAME_ TNY_OPTION_NAME

/* In application order: "pairing" first, since it changes which stage
 * kinds (and so which timer options) exist. */
static const struct option options[] = {
    {{"pairing", NAME_, 0, 0, "stages[0].kind/pairing"},
     0,
     ap_pairing,
     NULL,
     0},
    {{"structure", NAME_, 0, 0, "structure"}, 0, ap_structure, NULL, 0},
    {{"elimination_only", BOOL_, 0, 0, "the elimination stage's from_start"},
     0,
     ap_folded,
     NULL,
     0},
    {{"swiss_rounds", INT_, 0, 1000, "the swiss stage's rounds"},
     0,
     ap_swiss,
     fd_swiss_rounds,
     1},
    {{"cut", INT_, 0, 4096, "the elimination stage's cut"},
     TNY_STAGE_ELIMINATION,
     ap_kind,
     fd_cut,
     1},
    {{"rounds", INT_, 1, 1000, "the round stage's rounds"},
     TNY_STAGE_ROUND,
     ap_kind,
     fd_kind_rounds,
     1},
    {{"players_per_table", INT_, 4, 4, "players_per_table"},
     offsetof(struct tny_format, players_per_table),
     ap_four,
     fd_format,
     1},
    {{"bye_points", POINTS_, 0, 1000, "bye.points"},
     offsetof(struct tny_format, bye_points),
     ap_not_ag,
     fd_format,
     0},
    {{"score_groups", NAME_, 0, 0, "the swiss stage's score_groups"},
     0,
     ap_swiss,
     NULL,
     0},
    {{"swiss_timer_minutes", INT_, 0, 1440, "the swiss stage's timer_minutes"},
     TNY_STAGE_SWISS,
     ap_kind,
     fd_timer,
     1},
    {{"round_robin_timer_minutes", INT_, 0, 1440,
      "the round_robin stage's timer_minutes"},
     TNY_STAGE_ROUND_ROBIN,
     ap_kind,
     fd_timer,
     1},
    {{"elimination_timer_minutes", INT_, 0, 1440,
      "the elimination stage's timer_minutes"},
     TNY_STAGE_ELIMINATION,
     ap_kind,
     fd_timer,
     1},
    {{"elimination_final_timer_minutes", INT_, 0, 1440,
      "the elimination stage's final_timer_minutes"},
     TNY_STAGE_ELIMINATION,
     ap_kind,
     fd_final_timer,
     1},
    {{"prelim_timer_minutes", INT_, 0, 1440,
      "the prelim stage's timer_minutes"},
     TNY_STAGE_PRELIM,
     ap_kind,
     fd_timer,
     1},
    {{"final_timer_minutes", INT_, 0, 1440, "the final stage's timer_minutes"},
     TNY_STAGE_FINAL,
     ap_kind,
     fd_timer,
     1},
    {{"round_timer_minutes", INT_, 0, 1440, "the round stage's timer_minutes"},
     TNY_STAGE_ROUND,
     ap_kind,
     fd_timer,
     1},
    {{"draft_minutes", INT_, 0, 1440, "table.draft_minutes"},
     offsetof(struct tny_format, draft_minutes),
     ap_ag,
     fd_format,
     1},
    {{"action_seconds", INT_, 0, 3600, "table.action_seconds"},
     offsetof(struct tny_format, action_seconds),
     ap_ag_ct,
     fd_format,
     1},
    {{"clock_minutes", INT_, 0, 1440, "tantrix.clock_minutes"},
     offsetof(struct tny_format, clock_limit_ms),
     ap_tx,
     fd_format,
     60000},
    {{"default_win_tp", POINTS_, 0, 1000, "tantrix.default_win_tp"},
     offsetof(struct tny_format, default_win_tp),
     ap_tx,
     fd_format,
     0},
    {{"max_missed_games", INT_, 0, 1000, "tantrix.max_missed_games"},
     offsetof(struct tny_format, max_missed_games),
     ap_tx,
     fd_format,
     1},
    {{"group_a_size", INT_, 4, 1000, "agricola.group_a_size"},
     offsetof(struct tny_format, group_a_size),
     ap_ag,
     fd_format,
     1},
    /* two-player: which outcomes a result may record */
    {{"draws", BOOL_, 0, 0, "two_player.draws"},
     offsetof(struct tny_format, draws),
     ap_tp,
     fd_format,
     0},
    {{"intentional_draws", BOOL_, 0, 0, "two_player.intentional_draws"},
     offsetof(struct tny_format, intentional_draws),
     ap_tp,
     fd_format,
     0},
    {{"double_losses", BOOL_, 0, 0, "two_player.double_losses"},
     offsetof(struct tny_format, double_losses),
     ap_tp,
     fd_format,
     0},
};

int tny_format_option_count(void)
{
    return N_OF(options);
}

const struct tny_option_info *tny_format_option_info(int i)
{
    return &options[i].info;
}

bool tny_format_option_applies(const struct tny_format *fmt, int i)
{
    return options[i].applies(&options[i], fmt);
}

static void list_options(const struct tny_format *f, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_OF(options) && used < cap; i++) {
        if (!tny_format_option_applies(f, i))
            continue;
        int w = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
                         options[i].info.name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int tny_format_option_find(const struct tny_format *fmt, const char *name,
                           const char *path, struct tny_diag *diag)
{
    char list[400];
    for (int i = 0; i < N_OF(options); i++)
        if (strcmp(options[i].info.name, name) == 0 &&
            tny_format_option_applies(fmt, i))
            return i;
    list_options(fmt, list, sizeof(list));
    return tny_diag_set(diag, TNY_EINVAL,
                        "%s: unknown option (options of format \"%s\": %s)",
                        path, fmt->name, list);
}

int tny_format_option_check(const struct tny_format *fmt, int i,
                            const char *path, struct tny_diag *diag)
{
    char list[400];
    if (tny_format_option_applies(fmt, i))
        return TNY_OK;
    list_options(fmt, list, sizeof(list));
    return tny_diag_set(diag, TNY_EINVAL,
                        "%s: not an option of this format after the "
                        "options before it (options: %s)",
                        path, list);
}

/* The NAME options: which names, what to call them in a message. */
static int pick_option_name(const struct option *o, const char *name,
                            const char *path, int *which, struct tny_diag *diag)
{
    const char *names[3];
    if (strcmp(o->info.name, "pairing") == 0) {
        names[0] = "swiss";
        names[1] = "round_robin";
        return tny_name_pick(name, names, 2, path, "pairing", which, diag);
    }
    if (strcmp(o->info.name, "structure") == 0) {
        for (int k = 0; k < 3; k++)
            names[k] = tny_structure_name((enum tny_structure)k);
        return tny_name_pick(name, names, 3, path, "structure", which, diag);
    }
    for (int k = 0; k < 2; k++)
        names[k] = tny_score_groups_name((enum tny_score_groups)k);
    return tny_name_pick(name, names, 2, path, "score groups", which, diag);
}

static void set_name(const struct option *o, struct tny_format *f, int which)
{
    if (strcmp(o->info.name, "pairing") == 0) {
        struct tny_stage *st = &f->stages[0];
        if (which == 1 && st->pairing != TNY_PAIR_ROUND_ROBIN) {
            st->kind = TNY_STAGE_ROUND_ROBIN;
            st->pairing = TNY_PAIR_ROUND_ROBIN;
            st->rounds = 0; /* a full cycle unless swiss_rounds says */
        } else if (which == 0 && st->pairing != TNY_PAIR_SWISS) {
            st->kind = TNY_STAGE_SWISS;
            st->pairing = TNY_PAIR_SWISS;
        }
    } else if (strcmp(o->info.name, "structure") == 0) {
        f->structure = (enum tny_structure)which;
    } else {
        f->stages[swiss_stage(f)].score_groups = (enum tny_score_groups)which;
    }
}

static int set_int(const struct option *o, struct tny_format *f, int64_t x,
                   const char *path, struct tny_diag *diag)
{
    int64_t lo = o->info.lo;
    /* CT-8: a Catan game is given at least 90 minutes (0 = no limit). */
    const struct tny_game_ops *ops = tny_game_ops_of(f->game);
    if (ops && ops->min_timer_minutes > 0 && o->field == fd_timer && x != 0)
        lo = ops->min_timer_minutes;
    if (x < lo || x > o->info.hi)
        return tny_diag_set(
            diag, TNY_EINVAL, "%s: expected an integer %lld..%lld, got %lld",
            path, (long long)lo, (long long)o->info.hi, (long long)x);
    if (o->field == fd_cut && x != 0 && (x < 2 || (x & (x - 1)) != 0))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: %lld is not a power of two (0 = no "
                            "elimination stage)",
                            path, (long long)x);
    *(int32_t *)o->field(o, f) = (int32_t)(x * o->scale);
    return TNY_OK;
}

int tny_format_option_set(struct tny_format *fmt, int i,
                          const struct tny_option_value *v, const char *path,
                          struct tny_diag *diag)
{
    static const char *const expected[] = {
        [TNY_OPTION_INT] = "an integer",
        [TNY_OPTION_POINTS] = "points",
        [TNY_OPTION_BOOL] = "true or false",
        [TNY_OPTION_NAME] = "a name",
    };
    const struct option *o = &options[i];
    int rc, which;

    if ((rc = tny_format_option_check(fmt, i, path, diag)) < 0)
        return rc;
    if (v->type != o->info.type || (v->type == TNY_OPTION_NAME && !v->name))
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected %s", path,
                            expected[o->info.type]);
    switch (o->info.type) {
    case TNY_OPTION_NAME:
        if ((rc = pick_option_name(o, v->name, path, &which, diag)) < 0)
            return rc;
        set_name(o, fmt, which);
        return TNY_OK;
    case TNY_OPTION_BOOL:
        if (!o->field) /* elimination_only */
            fmt->stages[pairing_stage(fmt, TNY_PAIR_FOLDED)].from_start =
                v->number != 0;
        else
            *(bool *)o->field(o, fmt) = v->number != 0;
        return TNY_OK;
    case TNY_OPTION_POINTS:
        if (v->number < o->info.lo * TNY_POINT_SCALE ||
            v->number > o->info.hi * TNY_POINT_SCALE)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected points %lld..%lld", path,
                                (long long)o->info.lo, (long long)o->info.hi);
        *(int64_t *)o->field(o, fmt) = v->number;
        return TNY_OK;
    case TNY_OPTION_INT: return set_int(o, fmt, v->number, path, diag);
    }
    return TNY_OK;
}

bool tny_format_option_get(const struct tny_format *fmt, int i,
                           struct tny_option_value *out)
{
    const struct option *o = &options[i];
    struct tny_format *mf = (struct tny_format *)fmt; /* field() computes */

    memset(out, 0, sizeof(*out));
    out->type = o->info.type;
    if (strcmp(o->info.name, "pairing") == 0) {
        out->name = tny_pairing_name(fmt->stages[0].pairing);
    } else if (strcmp(o->info.name, "structure") == 0) {
        out->name = tny_structure_name(fmt->structure);
    } else if (strcmp(o->info.name, "score_groups") == 0) {
        out->name =
            tny_score_groups_name(fmt->stages[swiss_stage(fmt)].score_groups);
    } else if (o->info.type == TNY_OPTION_BOOL) {
        out->number =
            o->field
                ? *(bool *)o->field(o, mf)
                : fmt->stages[pairing_stage(fmt, TNY_PAIR_FOLDED)].from_start;
    } else if (o->info.type == TNY_OPTION_POINTS) {
        out->number = *(int64_t *)o->field(o, mf);
        return out->number != UNSET64;
    } else {
        int32_t x = *(int32_t *)o->field(o, mf);
        out->number = x / o->scale;
        return x != UNSET32;
    }
    return true;
}

int tny_format_check_options(const struct tny_format *fmt, const char *path,
                             struct tny_diag *diag)
{
    struct tny_diag inner;
    int rc = tny_format_check(fmt, "format", &inner);
    if (rc < 0)
        return tny_diag_set(diag, rc,
                            "%s: the options give an invalid "
                            "format: %s",
                            path, inner.msg);
    return TNY_OK;
}

int tny_format_set_option(struct tny_format *fmt, const char *name,
                          const struct tny_option_value *v, const char *path,
                          struct tny_diag *diag)
{
    char kpath[PATH_MAX_];
    int rc, i;

    snprintf(kpath, sizeof(kpath), "%s.%.64s", path, name);
    if ((rc = i = tny_format_option_find(fmt, name, kpath, diag)) < 0 ||
        (rc = tny_format_option_set(fmt, i, v, kpath, diag)) < 0)
        return rc;
    tny_format_sync_derived(fmt);
    return tny_format_check_options(fmt, path, diag);
}

void tny_format_sync_derived(struct tny_format *f)
{
    const struct tny_game_ops *ops = tny_game_ops_of(f->game);
    if (ops && ops->sync_derived) /* TX bye_tp, CT bye_placement_points */
        ops->sync_derived(f);
}
