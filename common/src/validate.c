/* validate.c - semantic checks of an event and of single results (CM-6).
 *
 * The JSON adapter checks types and keys; this module checks meaning:
 * players exist and sit once per round, tables fit the stage, the round in
 * progress is the last one, results are complete and in range for the game,
 * NH-10/NH-11 army rules, GT-9 best-of-three shape, GT-11 rejoins in the
 * stage of the drop.  Messages name the path
 * as it appears in the event file (0-based indices) and the player id.
 * The hub validates submissions with tny_result_validate as well, so a
 * table and the hub can never disagree about what is valid.
 */
#include "tny/event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/bracket.h"
#include "tny/game.h"
#include "tny/score.h"
#include "tny/standings.h"

static const char *pid(const struct tny_event *ev, int32_t p)
{
    return ev->players[p].id;
}

const char *tny__player_id(const struct tny_event *ev, int32_t p)
{
    return pid(ev, p);
}

/* path.key.who (who NULL: path.key): the one range of the value, whether
 * it is too small or too large. */
static int check_range(struct tny_diag *diag, const char *path, const char *key,
                       const char *who, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo || v > hi)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s.%s%s%s: expected a number %lld..%lld, got %lld",
                            path, key, who ? "." : "", who ? who : "",
                            (long long)lo, (long long)hi, (long long)v);
    return TNY_OK;
}

/* check_range over field f's one range and key (result_schema.h). */
int tny__result_check_field(struct tny_diag *diag, const char *path,
                            const char *who, int64_t v,
                            const struct tny_format *fmt,
                            enum tny_result_field f)
{
    int64_t lo, hi;

    tny_result_range(fmt, f, &lo, &hi);
    return check_range(diag, path, tny_result_key_name(tny_result_field_key(f)),
                       who, v, lo, hi);
}

int tny__vp_result_rules(const struct tny_format *fmt, uint64_t present,
                         const char *path, struct tny_result *r,
                         struct tny_diag *diag)
{
    char p[256];

    (void)fmt;
    (void)present;
    if (r->has_score)
        return TNY_OK;
    tny__result_key_path(p, sizeof p, path, TNY_RK_VP);
    return tny_diag_set(diag, TNY_EINVAL, "%s: missing", p);
}

void tny__vp_result_line(const struct tny_result *r, int32_t n_seats,
                         const char *const *name, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "VP");

    (void)name;
    for (int32_t s = 0; s < n_seats && n < size; s++)
        n += (size_t)snprintf(buf + n, size - n, " %d", (int)r->score[s]);
}

bool tny__player_has_army(const struct tny_event *ev, int32_t p, int32_t army)
{
    const struct tny_player *pl = &ev->players[p];
    const struct tny_format *fmt = &ev->format;
    if (pl->beginner) { /* NH-10: the base box */
        for (int32_t i = 0; i < fmt->n_beginner_armies; i++)
            if (strcmp(fmt->beginner_armies[i], fmt->armies[army]) == 0)
                return true;
        return false;
    }
    for (int32_t i = 0; i < pl->n_armies; i++)
        if (pl->armies[i] == army)
            return true;
    return false;
}

/* The module's own keys a result has (struct tny_result_ext) within
 * their ranges, each player's of a per-player key. */
static int check_ext(const struct tny_event *ev, const struct tny_game_ops *ops,
                     const struct tny_table *t, const char *path,
                     struct tny_diag *diag)
{
    const struct tny_result *r = &t->result;
    int rc;

    for (int32_t i = 0; i < ops->n_ext && i < TNY_RESULT_EXT_MAX; i++) {
        const struct tny_result_ext *x = &ops->ext[i];
        const int64_t lo = tny_result_bound_value(&ev->format, &x->lo);
        const int64_t hi = tny_result_bound_value(&ev->format, &x->hi);
        const bool per = x->info.value == TNY_RV_PER_PLAYER;
        if (!((r->ext_has >> i) & 1u) || x->info.value == TNY_RV_FLAG)
            continue;
        for (int32_t s = 0; s < (per ? t->n_seats : 1); s++)
            if ((rc = check_range(diag, path, x->info.name,
                                  per ? tny__player_id(ev, t->seats[s]) : NULL,
                                  r->ext[i][s], lo, hi)) < 0)
                return rc;
    }
    return TNY_OK;
}

int tny_result_validate(const struct tny_event *ev, enum tny_stage_kind stage,
                        const struct tny_table *t, const char *path,
                        struct tny_diag *diag)
{
    const struct tny_game_ops *ops = tny_game_ops_of(ev->format.game);
    int rc;

    /* The result's meaning is the game's (game.h validate_result), then
     * the ranges of the module's own keys. */
    if (!ops || (rc = ops->validate_result(ev, stage, t, path, diag)) < 0)
        return ops ? rc : TNY_OK;
    return check_ext(ev, ops, t, path, diag);
}

/* The first table (index) of the round whose number an earlier table
 * (byes aside) has, -1 when none: one pass marking the numbers seen (a
 * scan of the earlier tables for each table was 24 % of `tourney pair` on
 * a 10,000-player file, issue 17 item 4); the scan only for numbers far
 * beyond the round's table count. */
static int32_t first_duplicate_number(const struct tny_round *round)
{
    int32_t max = 0, found = -1;
    bool scan = false;
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye)
            continue;
        scan = scan || tb->number < 0;
        if (tb->number > max)
            max = tb->number;
    }
    bool *seen = NULL;
    if (!scan && max <= 4 * round->n_tables + 1024)
        seen = calloc((size_t)max + 1, sizeof(*seen));
    for (int32_t t = 0; t < round->n_tables && found < 0; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye)
            continue;
        if (seen) {
            if (seen[tb->number])
                found = t;
            seen[tb->number] = true;
            continue;
        }
        for (int32_t u = 0; u < t && found < 0; u++)
            if (!round->tables[u].is_bye &&
                round->tables[u].number == tb->number)
                found = t;
    }
    free(seen);
    return found;
}

static int validate_seats(const struct tny_event *ev, int32_t r,
                          const struct tny_round *round, int32_t *seen_round,
                          struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const int32_t duplicate = first_duplicate_number(round);
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        int32_t want_min = fmt->players_per_table, want_max = want_min;
        const struct tny_game_ops *ops = tny_game_ops_of(fmt->game);
        if (ops && ops->min_seats < want_min)
            want_min = ops->min_seats; /* CT-1 remainders */
        if (!tb->is_bye && (tb->n_seats < want_min || tb->n_seats > want_max))
            return tny_diag_set(diag, TNY_EINVAL,
                                "event.rounds[%d].tables[%d].players: expected "
                                "%d players, got %d",
                                (int)r, (int)t, (int)want_max,
                                (int)tb->n_seats);
        for (int32_t s = 0; s < tb->n_seats; s++) {
            int32_t p = tb->seats[s];
            if (p < 0 || p >= ev->n_players)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "event.rounds[%d].tables[%d]: unknown "
                                    "player",
                                    (int)r, (int)t);
            if (seen_round[p] == r + 1)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "event.rounds[%d].tables[%d].players: "
                                    "\"%s\" is seated twice in round %d",
                                    (int)r, (int)t, pid(ev, p), (int)(r + 1));
            seen_round[p] = r + 1;
            if (!tny_player_active_in(&ev->players[p], r + 1))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "event.rounds[%d].tables[%d].players: "
                                    "\"%s\" is not active in round %d (late "
                                    "entry, drop or disqualification)",
                                    (int)r, (int)t, pid(ev, p), (int)(r + 1));
        }
        if (t == duplicate)
            return tny_diag_set(diag, TNY_EINVAL,
                                "event.rounds[%d].tables[%d].table: number "
                                "%d used twice",
                                (int)r, (int)t, (int)tb->number);
    }
    return TNY_OK;
}

/* NH-11: a knockout declaration (seed 000 5.3) names exactly the number
 * of armies the cut asks for, each once, each one the player registered
 * (a beginner: the base box). */
static int validate_declaration(const struct tny_event *ev, int32_t p,
                                struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_player *pl = &ev->players[p];
    int32_t need = tny_nh_knockout_army_count(ev);
    if (pl->n_ko_armies == 0)
        return TNY_OK;
    if (need == 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": knockout_armies: the format has "
                            "no knockout (NH-11)",
                            pl->id);
    if (pl->n_ko_armies != need)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": knockout_armies: expected %d "
                            "armies for this knockout, got %d (NH-11: 3 for "
                            "a top 4, 4 for a top 8)",
                            pl->id, (int)need, (int)pl->n_ko_armies);
    for (int32_t i = 0; i < pl->n_ko_armies; i++) {
        int32_t a = pl->ko_armies[i];
        for (int32_t j = 0; j < i; j++)
            if (pl->ko_armies[j] == a)
                return tny_diag_set(diag, TNY_EINVAL,
                                    "player \"%s\": knockout_armies: \"%s\" "
                                    "listed twice (NH-11)",
                                    pl->id, fmt->armies[a]);
        if (!tny__player_has_army(ev, p, a))
            return tny_diag_set(diag, TNY_EINVAL,
                                "player \"%s\": knockout_armies: \"%s\" is "
                                "not one of the player's registered armies "
                                "(NH-10, NH-11)",
                                pl->id, fmt->armies[a]);
    }
    return TNY_OK;
}

static bool declared(const struct tny_player *pl, int32_t a)
{
    for (int32_t i = 0; i < pl->n_ko_armies; i++)
        if (pl->ko_armies[i] == a)
            return true;
    return false;
}

/* NH-11: each army at most once in the Swiss stage and once in the
 * knockout; in the knockout only the declared armies (when declared). */
static int validate_army_use(const struct tny_event *ev, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    if (!tny_game_ops_of(fmt->game) || !tny_game_ops_of(fmt->game)->armies ||
        fmt->n_armies == 0)
        return TNY_OK;
    size_t cells = (size_t)ev->n_players * TNY_MAX_ARMIES * 2;
    uint8_t *used = calloc(cells ? cells : 1, 1);
    int32_t swiss_rounds = 0;
    int rc = TNY_OK;
    if (!used) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "validate: out of memory");
        goto out;
    }
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        swiss_rounds += ev->rounds[r].stage == TNY_STAGE_SWISS;
    }
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        int ko = round->stage == TNY_STAGE_ELIMINATION;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye || !tb->has_result)
                continue;
            for (int32_t s = 0; s < tb->n_seats; s++) {
                int32_t p = tb->seats[s], a = tb->result.army[s];
                if (a < 0)
                    continue;
                uint8_t *u =
                    &used[((size_t)p * TNY_MAX_ARMIES + (size_t)a) * 2 +
                          (size_t)ko];
                /* NH-12: a beginner may repeat in the last Swiss round or a
                 * knockout round. */
                bool may_repeat = ev->players[p].beginner &&
                                  (ko || (round->stage == TNY_STAGE_SWISS &&
                                          r + 1 == swiss_rounds));
                if (*u && !may_repeat) {
                    rc =
                        tny_diag_set(diag, TNY_EINVAL,
                                     "event.rounds[%d].tables[%d].result."
                                     "armies.%s: \"%s\" was already played "
                                     "in the %s stage (NH-11)",
                                     (int)r, (int)t, pid(ev, p), fmt->armies[a],
                                     ko ? "knockout" : "Swiss");
                    goto out;
                }
                if (ko && ev->players[p].n_ko_armies > 0 &&
                    !declared(&ev->players[p], a)) {
                    rc = tny_diag_set(diag, TNY_EINVAL,
                                      "event.rounds[%d].tables[%d].result."
                                      "armies.%s: \"%s\" is not one of the "
                                      "armies declared for the knockout "
                                      "(NH-11)",
                                      (int)r, (int)t, pid(ev, p),
                                      fmt->armies[a]);
                    goto out;
                }
                *u = 1;
            }
        }
    }
out:
    free(used);
    return rc;
}

static int stage_position(const struct tny_format *fmt, enum tny_stage_kind k)
{
    for (int32_t s = 0; s < fmt->n_stages; s++)
        if (fmt->stages[s].kind == k)
            return (int)s;
    return -1;
}

/* The stage of 1-based round r: the round's own when it exists, else the
 * format's plan (stage sizes as tny_stage_size resolves them; an
 * elimination stage, or a round robin of 0 rounds, runs to the end).
 * NULL: after the last planned round.  rc < 0: the plan cannot be read. */
static int stage_of_round(const struct tny_event *ev, int32_t r,
                          const struct tny_stage **out, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    int32_t first = 0, start = 1;
    *out = NULL;
    if (r <= ev->n_rounds) {
        for (int32_t s = 0; s < fmt->n_stages; s++)
            if (fmt->stages[s].kind == ev->rounds[r - 1].stage)
                *out = &fmt->stages[s];
        return TNY_OK;
    }
    for (int32_t s = 0; s < fmt->n_stages; s++) /* GT-8 skips the Swiss */
        if (fmt->stages[s].kind == TNY_STAGE_ELIMINATION &&
            fmt->stages[s].from_start)
            first = s;
    for (int32_t s = first; s < fmt->n_stages; s++) {
        const struct tny_stage *st = &fmt->stages[s];
        int32_t rounds, cut;
        int rc = tny_stage_size(ev, st, &rounds, &cut, diag);
        if (rc < 0)
            return rc;
        if (st->kind == TNY_STAGE_ELIMINATION && cut == 0 && !st->from_start)
            continue; /* no cut: no elimination stage */
        if (rounds == 0 || r < start + rounds) {
            *out = st;
            return TNY_OK;
        }
        start += rounds;
    }
    return TNY_OK;
}

/* GT-11: "a player removed for not showing up may ask to rejoin in the same
 * stage"; an elimination stage has no rejoin (GT-10 gives the opponent a
 * bye).  Refused with the stages named, never ignored. */
static int validate_rejoin(const struct tny_event *ev, int32_t p,
                           struct tny_diag *diag)
{
    const struct tny_player *pl = &ev->players[p];
    const struct tny_stage *from = NULL, *to = NULL;
    if (pl->rejoined_from <= 0 || pl->dropped_after <= 0)
        return TNY_OK;
    struct tny_diag plan_diag;
    if (stage_of_round(ev, pl->dropped_after, &from, &plan_diag) < 0 ||
        stage_of_round(ev, pl->rejoined_from, &to, &plan_diag) < 0)
        return TNY_OK; /* no plan (e.g. GT-5 attendance outside the tables):
                        * pairing refuses and says why */
    if (!to)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": rejoin round %d is after the "
                            "last round of the event (GT-11)",
                            pl->id, (int)pl->rejoined_from);
    if (to->kind == TNY_STAGE_ELIMINATION)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": rejoin round %d falls in the "
                            "%s stage (\"%s\"); a player rejoins only in the "
                            "stage they left, and elimination has no rejoin "
                            "(GT-11, GT-10)",
                            pl->id, (int)pl->rejoined_from, to->name,
                            tny_stage_kind_name(to->kind));
    if (from && from != to)
        return tny_diag_set(diag, TNY_EINVAL,
                            "player \"%s\": rejoin round %d falls in the "
                            "%s stage (\"%s\") but the drop after round %d "
                            "was in the %s stage (\"%s\"); a player rejoins "
                            "only in the same stage (GT-11)",
                            pl->id, (int)pl->rejoined_from, to->name,
                            tny_stage_kind_name(to->kind),
                            (int)pl->dropped_after, from->name,
                            tny_stage_kind_name(from->kind));
    return TNY_OK;
}

/* ---- the elimination bracket (issue 19) -------------------------------- */

struct bwalk {
    struct tny_event *ev;
    const struct tny_stage *stage;
    bool reorder;
    int32_t k;        /* the bracket of the cut (a power of two) */
    int32_t n_seeds;  /* players seeded (k, or fewer: byes, cut_seeds) */
    int32_t *seed_of; /* player -> seed, 1 = best; 0 = none */
    int32_t *seeded;  /* seed - 1 -> player */
    struct tny_bracket_game *games, *prev;
    int32_t *winners, *list, *pos;
    struct tny_table *tmp;
    struct tny_diag *diag;
};

static int32_t pow2_at_most(int32_t n)
{
    int32_t k = 1;
    while (k * 2 <= n)
        k *= 2;
    return k;
}

/* "p3" (seed 3) into buf. */
static const char *who_seed(const struct bwalk *w, int32_t p, char *buf,
                            size_t cap)
{
    if (p == TNY_BRACKET_BYE)
        snprintf(buf, cap, "a bye");
    else if (w->seed_of[p] > 0)
        snprintf(buf, cap, "\"%s\" (seed %d)", pid(w->ev, p),
                 (int)w->seed_of[p]);
    else
        snprintf(buf, cap, "\"%s\" (not seeded)", pid(w->ev, p));
    return buf;
}

static bool game_has(const struct tny_bracket_game *g, int32_t p)
{
    return g->a == p || (g->b == p && p != TNY_BRACKET_BYE);
}

/* The tables of round r against the expected games (empty ones skipped,
 * as pairing emits them); folded brackets in game order.  On success the
 * round's tables are in the games' order (reorder) or already were. */
static int bwalk_round(struct bwalk *w, int32_t r, int32_t in_stage,
                       int32_t n_games)
{
    struct tny_round *round = &w->ev->rounds[r];
    const bool ordered = w->stage->pairing == TNY_PAIR_FOLDED;
    struct tny_bracket_game *g = w->games;
    int32_t n = 0;
    char a[96], b[96], c[96], d[96];
    for (int32_t i = 0; i < n_games; i++)
        if (g[i].a != TNY_BRACKET_BYE || g[i].b != TNY_BRACKET_BYE)
            g[n++] = g[i];
    if (round->n_tables != n)
        return tny_diag_set(w->diag, TNY_EINVAL,
                            "event.rounds[%d] (elimination round %d): %d "
                            "games and byes, but the bracket of the top %d "
                            "has %d in this round",
                            (int)r, (int)in_stage, (int)round->n_tables,
                            (int)w->k, (int)n);
    for (int32_t j = 0; j < n; j++)
        w->pos[j] = -1;
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        int32_t x = tb->seats[0],
                y = tb->is_bye ? TNY_BRACKET_BYE : tb->seats[1];
        int32_t hit = -1;
        for (int32_t j = 0; j < n && hit < 0; j++)
            if (w->pos[j] < 0 && game_has(&g[j], x) &&
                (y == TNY_BRACKET_BYE ? g[j].b == TNY_BRACKET_BYE
                                      : game_has(&g[j], y)))
                hit = j;
        if (hit < 0) {
            int32_t e = -1;
            for (int32_t j = 0; j < n && e < 0; j++)
                if (game_has(&g[j], x))
                    e = j;
            if (e < 0)
                return tny_diag_set(
                    w->diag, TNY_EINVAL,
                    "event.rounds[%d].tables[%d] (elimination "
                    "round %d): %s v %s does not follow the "
                    "bracket of the top %d: %s is not in this "
                    "round of the bracket",
                    (int)r, (int)t, (int)in_stage, who_seed(w, x, a, sizeof a),
                    who_seed(w, y, b, sizeof b), (int)w->k, pid(w->ev, x));
            return tny_diag_set(w->diag, TNY_EINVAL,
                                "event.rounds[%d].tables[%d] (elimination "
                                "round %d): %s v %s does not follow the "
                                "bracket of the top %d: it has %s v %s",
                                (int)r, (int)t, (int)in_stage,
                                who_seed(w, x, a, sizeof a),
                                who_seed(w, y, b, sizeof b), (int)w->k,
                                who_seed(w, g[e].a, c, sizeof c),
                                who_seed(w, g[e].b, d, sizeof d));
        }
        if (ordered && hit != t && !w->reorder)
            return tny_diag_set(w->diag, TNY_EINVAL,
                                "event.rounds[%d].tables[%d] (elimination "
                                "round %d): %s v %s is game %d of the "
                                "bracket; a folded bracket lists its games "
                                "in order (GT-7)",
                                (int)r, (int)t, (int)in_stage,
                                who_seed(w, x, a, sizeof a),
                                who_seed(w, y, b, sizeof b), (int)hit + 1);
        w->pos[hit] = t;
    }
    if (w->reorder) {
        for (int32_t j = 0; j < n; j++)
            w->tmp[j] = round->tables[w->pos[j]];
        memcpy(round->tables, w->tmp, sizeof(*w->tmp) * (size_t)n);
    }
    return TNY_OK;
}

/* Winner of an elimination table; a draw goes to the better seed (NH-8). */
static int32_t bwalk_winner(const struct bwalk *w, const struct tny_table *tb)
{
    if (tb->is_bye)
        return tb->seats[0];
    int32_t s = tny_result_winner_seat(&w->ev->format, &tb->result);
    if (s >= 0)
        return tb->seats[s];
    int32_t x = tb->seats[0], y = tb->seats[1];
    int32_t sx = w->seed_of[x] ? w->seed_of[x] : INT32_MAX;
    int32_t sy = w->seed_of[y] ? w->seed_of[y] : INT32_MAX;
    return sx <= sy ? x : y;
}

/* The games of the round after round r (its tables in bracket order). */
static int bwalk_next(struct bwalk *w, int32_t r, int32_t *n_games)
{
    const struct tny_round *round = &w->ev->rounds[r];
    int32_t n_prev = round->n_tables, n = 0;
    *n_games = 0;
    for (int32_t t = 0; t < n_prev; t++) {
        const struct tny_table *tb = &round->tables[t];
        w->prev[t].a = tb->seats[0];
        w->prev[t].b = tb->is_bye ? TNY_BRACKET_BYE : tb->seats[1];
        w->winners[t] = bwalk_winner(w, tb);
    }
    if (w->stage->pairing == TNY_PAIR_FOLDED) {
        int32_t width = 2;
        while (width < n_prev)
            width *= 2;
        for (int32_t t = n_prev; t < width; t++) {
            w->prev[t].a = w->prev[t].b = TNY_BRACKET_BYE;
            w->winners[t] = TNY_BRACKET_BYE;
        }
        int rc = tny_bracket_folded_round(width, w->prev, w->winners, w->games,
                                          w->diag);
        if (rc < 0)
            return rc;
        n = width / 2;
    } else { /* NH-7: best remaining seed v worst, byes to the best */
        int32_t m = 0;
        for (int32_t t = 0; t < n_prev; t++)
            w->list[m++] = w->winners[t];
        for (int32_t i = 1; i < m; i++) { /* by seed, best first */
            int32_t x = w->list[i], j = i - 1;
            while (j >= 0 && w->seed_of[w->list[j]] > w->seed_of[x]) {
                w->list[j + 1] = w->list[j];
                j--;
            }
            w->list[j + 1] = x;
        }
        int32_t k = pow2_at_most(m);
        for (int32_t i = 0; i < m - k; i++)
            w->games[n++] =
                (struct tny_bracket_game){w->list[i], TNY_BRACKET_BYE};
        for (int32_t i = 0; k >= 2 && i < k / 2; i++)
            w->games[n++] = (struct tny_bracket_game){w->list[m - k + i],
                                                      w->list[m - 1 - i]};
    }
    /* GT-10: a player who left gives the opponent a bye. */
    for (int32_t i = 0; i < n; i++) {
        int32_t side[2] = {w->games[i].a, w->games[i].b};
        for (int s = 0; s < 2; s++)
            if (side[s] >= 0 &&
                !tny_player_active_in(&w->ev->players[side[s]], r + 2)) {
                int rc = tny_bracket_withdraw(n, w->games, side[s], w->diag);
                if (rc < 0)
                    return rc;
            }
    }
    *n_games = n;
    return TNY_OK;
}

/* The seeds: event.cut_seeds, or the cut of the Swiss standings after the
 * rounds before the first elimination round (first, 0-based). */
static int bwalk_seed(struct bwalk *w, int32_t first)
{
    struct tny_event *ev = w->ev;
    struct tny_standings st = {0};
    int rc = tny_standings_compute_at(ev, first, &st, w->diag);
    if (rc < 0)
        return rc;
    int32_t n = st.n_rows, active = 0;
    bool *left = calloc((size_t)n + 1, sizeof(bool));
    if (!left) {
        tny_standings_release(&st);
        return tny_diag_set(w->diag, TNY_ENOMEM, "validate: out of memory");
    }
    for (int32_t i = 0; i < n; i++) {
        w->list[i] = st.rows[i].player;
        left[i] = !tny_player_active_in(&ev->players[w->list[i]], first + 1);
        active += !left[i];
    }
    if (ev->n_cut_seeds > 0) {
        /* A cut of n seeds plays in a bracket of the next power of two,
         * the seeds past n being byes of the best seeds (a top 6: seeds 1
         * and 2 wait for the winners of 3 v 6 and 4 v 5). */
        w->n_seeds = ev->n_cut_seeds;
        w->k = 2;
        while (w->k < w->n_seeds)
            w->k *= 2;
        memcpy(w->seeded, ev->cut_seeds, sizeof(int32_t) * (size_t)w->n_seeds);
        if (w->n_seeds < 2)
            rc = tny_diag_set(w->diag, TNY_EINVAL,
                              "event.cut_seeds: %d players: expected 2 or "
                              "more",
                              (int)w->n_seeds);
    } else if (!w->stage->from_start) {
        int32_t rounds;
        rc = tny_stage_size(ev, w->stage, &rounds, &w->k, w->diag);
        if (rc == TNY_OK && w->k > active)
            w->k = pow2_at_most(active);
        if (rc == TNY_OK && w->k < 2)
            rc = tny_diag_set(w->diag, TNY_EINVAL,
                              "event.rounds[%d]: an elimination round, but "
                              "the format's cut is %d",
                              (int)first, (int)w->k);
        if (rc == TNY_OK)
            rc = tny_bracket_cut(n, w->list, left, w->k, w->seeded, w->diag);
    }
    if (ev->n_cut_seeds == 0)
        w->n_seeds = w->k;
    if (rc == TNY_OK) {
        /* Seeds beyond the cut follow the standings (draws, GT-8). */
        int32_t next = w->n_seeds;
        for (int32_t i = 0; i < w->n_seeds; i++)
            w->seed_of[w->seeded[i]] = i + 1;
        for (int32_t i = 0; i < n; i++)
            if (w->seed_of[w->list[i]] == 0)
                w->seed_of[w->list[i]] = ++next;
    }
    free(left);
    tny_standings_release(&st);
    return rc;
}

static int bracket_walk(struct tny_event *ev, bool reorder,
                        struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    struct bwalk w = {.ev = ev, .reorder = reorder, .diag = diag};
    int32_t first = -1, max_tables = 2;
    int rc = TNY_OK;
    for (int32_t r = ev->n_rounds - 1; r >= 0; r--)
        if (ev->rounds[r].stage == TNY_STAGE_ELIMINATION) {
            first = r;
            if (ev->rounds[r].n_tables > max_tables)
                max_tables = ev->rounds[r].n_tables;
        }
    for (int32_t s = 0; s < fmt->n_stages && !w.stage; s++)
        if (fmt->stages[s].kind == TNY_STAGE_ELIMINATION)
            w.stage = &fmt->stages[s];
    if (first < 0 || !w.stage)
        return TNY_OK;
    const size_t np = (size_t)ev->n_players + 2;
    const size_t ng = np + (size_t)max_tables * 2;
    w.seed_of = calloc(np, sizeof(int32_t));
    w.seeded = calloc(np, sizeof(int32_t));
    w.list = calloc(np, sizeof(int32_t));
    w.winners = calloc(ng, sizeof(int32_t));
    w.pos = calloc(ng, sizeof(int32_t));
    w.games = calloc(ng, sizeof(*w.games));
    w.prev = calloc(ng, sizeof(*w.prev));
    w.tmp = calloc(ng, sizeof(*w.tmp));
    if (!w.seed_of || !w.seeded || !w.list || !w.winners || !w.pos ||
        !w.games || !w.prev || !w.tmp) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "validate: out of memory");
        goto out;
    }
    if ((rc = bwalk_seed(&w, first)) < 0)
        goto out;
    int32_t in_stage = 0, n_games = 0, last = -1;
    for (int32_t r = first; r < ev->n_rounds; r++) {
        if (ev->rounds[r].stage != TNY_STAGE_ELIMINATION)
            continue;
        in_stage++;
        if (last < 0 && w.stage->from_start) {
            last = r; /* GT-8: by lot */
            w.k = 2 * ev->rounds[r].n_tables;
            continue;
        }
        if (last < 0) {
            n_games = w.k / 2;
            for (int32_t g = 0; g < n_games; g++) {
                int32_t b = w.k - 1 - g;
                w.games[g] = (struct tny_bracket_game){
                    w.seeded[g], b < w.n_seeds ? w.seeded[b] : TNY_BRACKET_BYE};
            }
        } else {
            const struct tny_round *pr = &ev->rounds[last];
            bool done = pr->n_tables > 0;
            for (int32_t t = 0; t < pr->n_tables; t++)
                done =
                    done && (pr->tables[t].is_bye || pr->tables[t].has_result);
            if (!done)
                break; /* the open round is last: tny_event_validate */
            if (pr->n_tables <= 1 && !pr->tables[0].is_bye) {
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "event.rounds[%d] (elimination round %d): "
                                  "a round after the final",
                                  (int)r, (int)in_stage);
                goto out;
            }
            struct tny_diag inner = {{0}};
            w.diag = &inner;
            rc = bwalk_next(&w, last, &n_games);
            w.diag = diag;
            if (rc < 0) {
                tny_diag_set(diag, rc,
                             "event.rounds[%d] (elimination round %d): the "
                             "previous round is no bracket round: %s",
                             (int)r, (int)in_stage, inner.msg);
                goto out;
            }
        }
        if ((rc = bwalk_round(&w, r, in_stage, n_games)) < 0)
            goto out;
        last = r;
    }
out:
    free(w.seed_of);
    free(w.seeded);
    free(w.list);
    free(w.winners);
    free(w.pos);
    free(w.games);
    free(w.prev);
    free(w.tmp);
    return rc;
}

int tny_event_bracket_check(const struct tny_event *ev, struct tny_diag *diag)
{
    /* Not reordering: nothing is written through the cast. */
    return bracket_walk((struct tny_event *)ev, false, diag);
}

int tny_event_bracket_reorder(struct tny_event *ev, struct tny_diag *diag)
{
    return bracket_walk(ev, true, diag);
}

/* A game with sides, as validate_sides sorts them. */
struct sided_game {
    int32_t a, b; /* players, a < b */
    int8_t side_a;
    int32_t stage, round, table;
};

static int cmp_sided(const void *x, const void *y)
{
    const struct sided_game *p = x, *q = y;
    if (p->stage != q->stage)
        return (p->stage > q->stage) - (p->stage < q->stage);
    if (p->a != q->a)
        return (p->a > q->a) - (p->a < q->a);
    if (p->b != q->b)
        return (p->b > q->b) - (p->b < q->b);
    return (p->round > q->round) - (p->round < q->round);
}

/* Sides (docs/rules.md "Sides"): only in a format with sides, one per
 * seat of a 2-player table, the two seats on different sides, and two
 * players who meet again in a stage play the other sides than before. */
static int validate_sides(const struct tny_event *ev, struct tny_diag *diag)
{
    const struct tny_format *f = &ev->format;
    int64_t n = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        n += ev->rounds[r].n_tables;
    struct sided_game *g = malloc(sizeof(*g) * (size_t)(n + 1));
    int rc = TNY_OK;
    if (!g)
        return tny_diag_set(diag, TNY_ENOMEM, "event: out of memory");
    n = 0;
    for (int32_t r = 0; r < ev->n_rounds && !rc; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables && !rc; t++) {
            const struct tny_table *tb = &ev->rounds[r].tables[t];
            if (!tb->has_sides)
                continue;
            if (f->n_sides != 2 || tb->n_seats != 2)
                rc = tny_diag_set(
                    diag, TNY_EINVAL, "event.rounds[%d].tables[%d].sides: %s",
                    (int)r, (int)t,
                    f->n_sides != 2 ? "the format has no sides"
                                    : "sides need a 2-player table");
            else if (tb->side[0] == tb->side[1] || tb->side[0] < 0 ||
                     tb->side[0] > 1 || tb->side[1] < 0 || tb->side[1] > 1)
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "event.rounds[%d].tables[%d].sides: "
                                  "\"%s\" and \"%s\" cannot both play "
                                  "\"%s\"",
                                  (int)r, (int)t, pid(ev, tb->seats[0]),
                                  pid(ev, tb->seats[1]),
                                  f->sides[tb->side[0] & 1]);
            else {
                bool sw = tb->seats[0] > tb->seats[1];
                g[n++] = (struct sided_game){sw ? tb->seats[1] : tb->seats[0],
                                             sw ? tb->seats[0] : tb->seats[1],
                                             sw ? tb->side[1] : tb->side[0],
                                             (int32_t)ev->rounds[r].stage,
                                             r,
                                             t};
            }
        }
    if (!rc)
        qsort(g, (size_t)n, sizeof(*g), cmp_sided);
    for (int64_t i = 1; i < n && !rc; i++)
        if (g[i].stage == g[i - 1].stage && g[i].a == g[i - 1].a &&
            g[i].b == g[i - 1].b && g[i].side_a == g[i - 1].side_a &&
            f->swapped_rematch)
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.rounds[%d].tables[%d].sides: \"%s\" "
                              "and \"%s\" meet again on the same sides as "
                              "in round %d (a second meeting swaps them)",
                              (int)g[i].round, (int)g[i].table, pid(ev, g[i].a),
                              pid(ev, g[i].b), (int)g[i - 1].round + 1);
    free(g);
    return rc;
}

int tny_event_validate(const struct tny_event *ev, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_game_ops *ops = tny_game_ops_of(fmt->game);
    const bool nh_armies = ops && ops->armies; /* NH-10 */
    int rc = TNY_OK;
    int32_t *seen = calloc((size_t)ev->n_players + 1, sizeof(int32_t));
    if (!seen)
        return tny_diag_set(diag, TNY_ENOMEM, "validate: out of memory");

    for (int32_t p = 0; p < ev->n_players; p++) {
        const struct tny_player *pl = &ev->players[p];
        if (nh_armies && !pl->beginner && pl->n_armies > 0 &&
            fmt->armies_per_player > 0 &&
            pl->n_armies != fmt->armies_per_player) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.players[%d].armies: expected exactly %d "
                              "different armies, got %d (NH-10)",
                              (int)p, (int)fmt->armies_per_player,
                              (int)pl->n_armies);
            goto out;
        }
        /* NH-10, seed 000 3.1: the Hook is Iron Gang's swap token. */
        int32_t iron = tny_format_army_index(fmt, "Iron Gang");
        if (pl->hook && (iron < 0 || !tny__player_has_army(ev, p, iron))) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.players[%d].hook: the Hook is the Iron "
                              "Gang swap token; \"%s\" has not registered "
                              "Iron Gang (NH-10)",
                              (int)p, pl->id);
            goto out;
        }
        for (int32_t i = 0; i < pl->n_armies; i++)
            for (int32_t j = 0; j < i; j++)
                if (pl->armies[i] == pl->armies[j]) {
                    rc = tny_diag_set(diag, TNY_EINVAL,
                                      "event.players[%d].armies: \"%s\" listed "
                                      "twice (NH-10)",
                                      (int)p, fmt->armies[pl->armies[i]]);
                    goto out;
                }
    }

    int last_stage = -1;
    bool open_round = false;
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        int pos = stage_position(fmt, round->stage);
        if (pos < 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.rounds[%d].stage: \"%s\" is not a stage "
                              "of format \"%s\"",
                              (int)r, tny_stage_kind_name(round->stage),
                              fmt->name);
            goto out;
        }
        if (pos < last_stage) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.rounds[%d].stage: \"%s\" after a later "
                              "stage",
                              (int)r, tny_stage_kind_name(round->stage));
            goto out;
        }
        last_stage = pos;
        if (open_round) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "event.rounds[%d]: round %d still lacks results, "
                              "so no later round may exist",
                              (int)(r - 1), (int)r);
            goto out;
        }
        if ((rc = validate_seats(ev, r, round, seen, diag)) < 0)
            goto out;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            if (tb->is_bye)
                continue;
            if (!tb->has_result) {
                open_round = true;
                continue;
            }
            /* The path only for the message: checked again with it. */
            char path[96];
            struct tny_diag quiet = {{0}};
            if (tny_result_validate(ev, round->stage, tb, "", &quiet) == 0)
                continue;
            snprintf(path, sizeof(path), "event.rounds[%d].tables[%d].result",
                     (int)r, (int)t);
            if ((rc = tny_result_validate(ev, round->stage, tb, path, diag)) <
                0)
                goto out;
        }
    }
    if ((rc = validate_sides(ev, diag)) < 0)
        goto out;
    for (int32_t p = 0; p < ev->n_players; p++)
        if ((rc = validate_rejoin(ev, p, diag)) < 0 ||
            (rc = validate_declaration(ev, p, diag)) < 0)
            goto out;
    if ((rc = validate_army_use(ev, diag)) < 0)
        goto out;
    rc = tny_event_bracket_check(ev, diag);
out:
    free(seen);
    return rc;
}
