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

static const char *pid(const struct tny_event *ev, int32_t p)
{
    return ev->players[p].id;
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
static int check_field(struct tny_diag *diag, const char *path, const char *who,
                       int64_t v, const struct tny_format *fmt,
                       enum tny_result_field f)
{
    int64_t lo, hi;

    tny_result_range(fmt, f, &lo, &hi);
    return check_range(diag, path, tny_result_key_name(tny_result_field_key(f)),
                       who, v, lo, hi);
}

static bool player_has_army(const struct tny_event *ev, int32_t p, int32_t army)
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

static int validate_two_player(const struct tny_event *ev,
                               enum tny_stage_kind stage,
                               const struct tny_table *t, const char *path,
                               struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    const bool elim = stage == TNY_STAGE_ELIMINATION;
    int rc;
    switch (fmt->game) {
    case TNY_GAME_NEUROSHIMA_HEX:
        if (!r->draw && (r->winner < 0 || r->winner > 1))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected \"winner\" (a player of the "
                                "table) or \"draw\": true",
                                path);
        if ((rc = check_field(diag, path, NULL, r->hq_diff, fmt,
                              TNY_RF_HQ_DIFF)) < 0)
            return rc;
        for (int s = 0; s < 2; s++)
            if (r->army[s] >= 0 &&
                !player_has_army(ev, t->seats[s], r->army[s]))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.armies.%s: \"%s\" is not one of the "
                                    "player's registered armies (NH-10)",
                                    path, pid(ev, t->seats[s]),
                                    fmt->armies[r->army[s]]);
        return TNY_OK;
    case TNY_GAME_GOT_LCG2:
        if (elim && r->n_games > 0) {
            int32_t winner;
            int32_t games[3];
            for (int32_t g = 0; g < r->n_games; g++)
                games[g] = t->seats[r->games[g]];
            return tny_bracket_bo3_winner(games, r->n_games, t->seats[0],
                                          t->seats[1], &winner, diag) < 0
                       ? tny_diag_set(diag, TNY_EINVAL,
                                      "%s.games: not a finished best-of-three "
                                      "(GT-9: first to two game wins)",
                                      path)
                       : TNY_OK;
        }
        if (r->winner < 0 || r->winner > 1)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected \"winner\": a player of the "
                                "table (GT-1)",
                                path);
        return TNY_OK; /* a Bo3 may also be recorded by its winner alone */
    case TNY_GAME_TANTRIX:
        if (r->decided) {
            int64_t lo, hi_tp;
            tny_result_range(fmt, TNY_RF_DECIDED_TP, &lo, &hi_tp);
            for (int s = 0; s < 2; s++)
                if (r->decided_tp[s] < lo || r->decided_tp[s] > hi_tp) {
                    char got[32], hi[32];
                    tny_points_text(r->decided_tp[s], got, sizeof(got));
                    tny_points_text(hi_tp, hi, sizeof(hi));
                    return tny_diag_set(diag, TNY_EINVAL,
                                        "%s.%s.%s: expected points 0..%s, "
                                        "got %s",
                                        path, tny_result_key_name(TNY_RK_TP),
                                        pid(ev, t->seats[s]), hi, got);
                }
            return TNY_OK;
        }
        if (r->draw) /* seed 001 s13: the board could not be restored */
            return r->has_score || r->default_winner >= 0
                       ? tny_diag_set(diag, TNY_EINVAL,
                                      "%s.draw: a draw (the board could "
                                      "not be restored, seed 001 s13) has "
                                      "no scores and no default",
                                      path)
                       : TNY_OK;
        if (r->default_winner >= 0)
            return r->default_winner <= 1
                       ? TNY_OK
                       : tny_diag_set(diag, TNY_EINVAL,
                                      "%s.default_win: not a player of the "
                                      "table",
                                      path);
        if (!r->has_score)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected \"scores\", \"default_win\", "
                                "\"tp\" or \"draw\": true",
                                path);
        for (int s = 0; s < 2; s++) {
            if ((rc = check_field(diag, path, pid(ev, t->seats[s]), r->score[s],
                                  fmt, TNY_RF_SCORE)) < 0)
                return rc;
            if (r->has_clock &&
                (rc = check_field(diag, path, pid(ev, t->seats[s]),
                                  r->clock_ms[s], fmt, TNY_RF_CLOCK_MS)) < 0)
                return rc;
        }
        return TNY_OK;
    case TNY_GAME_TWO_PLAYER:
        if (r->winner > 1 || (r->winner < 0 && !r->draw &&
                              !r->intentional_draw && !r->double_loss))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected \"winner\" (a player of the "
                                "table) or an outcome the format allows",
                                path);
        if ((r->draw && !fmt->draws) ||
            (r->intentional_draw && !fmt->intentional_draws) ||
            (r->double_loss && !fmt->double_losses))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: an outcome the format \"%s\" does not "
                                "allow",
                                path, fmt->name);
        for (int s = 0; r->has_score && s < 2; s++)
            if ((rc = check_field(diag, path, pid(ev, t->seats[s]), r->score[s],
                                  fmt, TNY_RF_SCORE)) < 0)
                return rc;
        return TNY_OK;
    default: return TNY_OK;
    }
}

int tny_result_validate(const struct tny_event *ev, enum tny_stage_kind stage,
                        const struct tny_table *t, const char *path,
                        struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc;
    if (fmt->players_per_table == 2)
        return validate_two_player(ev, stage, t, path, diag);
    if (!r->has_score)
        return tny_diag_set(diag, TNY_EINVAL, "%s.vp: missing", path);
    for (int32_t s = 0; s < t->n_seats; s++) {
        const char *who = pid(ev, t->seats[s]);
        if ((rc = check_field(diag, path, who, r->score[s], fmt, TNY_RF_VP)) <
            0)
            return rc;
        if (fmt->game != TNY_GAME_AGRICOLA)
            continue;
        if ((rc = check_field(diag, path, who, r->ip[s], fmt, TNY_RF_IP)) < 0)
            return rc;
        if ((rc = check_field(diag, path, who, r->bp[s], fmt, TNY_RF_BP)) < 0)
            return rc;
    }
    return TNY_OK;
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
        if (fmt->game == TNY_GAME_CATAN)
            want_min = 3; /* CT-1 remainders */
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
        if (!player_has_army(ev, p, a))
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
    if (fmt->game != TNY_GAME_NEUROSHIMA_HEX || fmt->n_armies == 0)
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

int tny_event_validate(const struct tny_event *ev, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    int rc = TNY_OK;
    int32_t *seen = calloc((size_t)ev->n_players + 1, sizeof(int32_t));
    if (!seen)
        return tny_diag_set(diag, TNY_ENOMEM, "validate: out of memory");

    for (int32_t p = 0; p < ev->n_players; p++) {
        const struct tny_player *pl = &ev->players[p];
        if (fmt->game == TNY_GAME_NEUROSHIMA_HEX && !pl->beginner &&
            pl->n_armies > 0 && fmt->armies_per_player > 0 &&
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
        if (pl->hook && (iron < 0 || !player_has_army(ev, p, iron))) {
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
    for (int32_t p = 0; p < ev->n_players; p++)
        if ((rc = validate_rejoin(ev, p, diag)) < 0 ||
            (rc = validate_declaration(ev, p, diag)) < 0)
            goto out;
    rc = validate_army_use(ev, diag);
out:
    free(seen);
    return rc;
}
