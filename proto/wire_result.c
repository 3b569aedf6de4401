/* wire_result.c - GameResult: protobuf <-> struct tny_wire_result (players
 * by id) and struct tny_wire_result <-> the engine's struct tny_table
 * (players by seat).
 *
 * Not here: whether a value is allowed by the event's format (that is
 * tny_result_validate, which tny_wire_result_to_table calls) or who may
 * submit a result for a table (the hub).
 *
 * Invariants: wire__result_check is the single statement of what a wire
 * result may look like (wire.h, struct tny_wire_result); decode runs it
 * after copying, encode before building, so both sides agree.
 */
#include "wire_internal.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "tny/game.h"
#include "tny/result_schema.h"
#include "tny/result_value.h"

/* A result key's GameResult field name (result_schema.h). */
#define WIRE(k) tny_result_key_info(TNY_RK_##k)->wire

_Static_assert(TNY_POINT_SCALE == 1200,
               "the wire carries points in 1/1200 TP units: a new engine "
               "scale needs a conversion here, not a silent protocol change");

static const char *game_member(enum tny_game g)
{
    switch (tny_game_flow(g)) {
    case TNY_GAME_NEUROSHIMA_HEX: return "nh";
    case TNY_GAME_TANTRIX: return "tx";
    case TNY_GAME_AGRICOLA: return "ag";
    case TNY_GAME_GOT_LCG2: return "gt";
    case TNY_GAME_CATAN: return "ct";
    case TNY_GAME_NETRUNNER: /* flows as the two-player result (game.h) */
    case TNY_GAME_TWO_PLAYER: return "tp";
    }
    return "?";
}

/* Name of the per-player list of each game's message. */
static const char *entries_name(enum tny_game g)
{
    return g == TNY_GAME_NEUROSHIMA_HEX ? "armies" : "players";
}

/* ---- decode: protobuf -> struct ------------------------------------------ */

static int copy_count(size_t n, size_t cap, const char *path, const char *what,
                      struct tny_diag *diag)
{
    if (n <= cap)
        return TNY_OK;
    return wire__fail(diag, "%s: expected at most %zu %s, got %zu", path, cap,
                      what, n);
}

static int nh_from_pb(const Tourney__V1__NhResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__copy(out->winner_id, sizeof out->winner_id, m->winner_id,
                         fp, diag)) < 0)
        return rc;
    out->draw = m->has_draw && m->draw;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(HQ_DIFF));
    if (!out->draw && (rc = wire__need(m->has_hq_diff, fp, diag)) < 0)
        return rc;
    out->hq_diff = m->has_hq_diff ? m->hq_diff : 0;
    wire__path(fp, sizeof fp, "%s.armies", p);
    if ((rc = copy_count(m->n_armies, TNY_MAX_SEATS, fp, "entries", diag)) < 0)
        return rc;
    out->n_players = (int32_t)m->n_armies;
    for (size_t i = 0; i < m->n_armies; i++) {
        struct tny_wire_result_player *e = &out->players[i];
        wire__path(fp, sizeof fp, "%s.armies[%zu].player_id", p, i);
        if ((rc = wire__copy(e->player_id, sizeof e->player_id,
                             m->armies[i]->player_id, fp, diag)) < 0)
            return rc;
        wire__path(fp, sizeof fp, "%s.armies[%zu].%s", p, i, WIRE(ARMIES));
        if ((rc = wire__copy(e->army, sizeof e->army, m->armies[i]->army, fp,
                             diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

static int tx_from_pb(const Tourney__V1__TxResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(DEFAULT_WIN));
    if ((rc = wire__copy(out->default_winner_id, sizeof out->default_winner_id,
                         m->default_winner_id, fp, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.players", p);
    if ((rc = copy_count(m->n_players, TNY_MAX_SEATS, fp, "entries", diag)) < 0)
        return rc;
    out->n_players = (int32_t)m->n_players;
    out->draw = m->has_draw && m->draw;
    for (size_t i = 0; i < m->n_players; i++) {
        const Tourney__V1__TxPlayer *x = m->players[i];
        struct tny_wire_result_player *e = &out->players[i];
        wire__path(fp, sizeof fp, "%s.players[%zu].player_id", p, i);
        if ((rc = wire__copy(e->player_id, sizeof e->player_id, x->player_id,
                             fp, diag)) < 0)
            return rc;
        e->has_score = x->has_score;
        e->score = x->has_score ? x->score : 0;
        e->has_clock = x->has_clock_ms;
        e->clock_ms = x->has_clock_ms ? x->clock_ms : 0;
        e->has_tp = x->has_tp_units;
        e->tp_units = x->has_tp_units ? x->tp_units : 0;
        e->penalty_units = x->has_penalty_units ? x->penalty_units : 0;
    }
    return TNY_OK;
}

/* AG and CT: every entry needs its numbers. */
static int vp_from_pb(const char *p, size_t i, const char *key,
                      protobuf_c_boolean has, int32_t v, int32_t *out,
                      struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    wire__path(fp, sizeof fp, "%s.players[%zu].%s", p, i, key);
    *out = v;
    return wire__need(has, fp, diag);
}

static int ag_from_pb(const Tourney__V1__AgResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.players", p);
    if ((rc = copy_count(m->n_players, TNY_MAX_SEATS, fp, "entries", diag)) < 0)
        return rc;
    out->n_players = (int32_t)m->n_players;
    for (size_t i = 0; i < m->n_players; i++) {
        const Tourney__V1__AgPlayer *x = m->players[i];
        struct tny_wire_result_player *e = &out->players[i];
        wire__path(fp, sizeof fp, "%s.players[%zu].player_id", p, i);
        if ((rc = wire__copy(e->player_id, sizeof e->player_id, x->player_id,
                             fp, diag)) < 0 ||
            (rc = vp_from_pb(p, i, WIRE(VP), x->has_vp, x->vp, &e->score,
                             diag)) < 0 ||
            (rc = vp_from_pb(p, i, WIRE(IP), x->has_ip, x->ip, &e->ip, diag)) <
                0 ||
            (rc = vp_from_pb(p, i, WIRE(BP), x->has_bp, x->bp, &e->bp, diag)) <
                0)
            return rc;
        e->has_score = true;
    }
    return TNY_OK;
}

static int ct_from_pb(const Tourney__V1__CtResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.players", p);
    if ((rc = copy_count(m->n_players, TNY_MAX_SEATS, fp, "entries", diag)) < 0)
        return rc;
    out->n_players = (int32_t)m->n_players;
    for (size_t i = 0; i < m->n_players; i++) {
        const Tourney__V1__CtPlayer *x = m->players[i];
        struct tny_wire_result_player *e = &out->players[i];
        wire__path(fp, sizeof fp, "%s.players[%zu].player_id", p, i);
        if ((rc = wire__copy(e->player_id, sizeof e->player_id, x->player_id,
                             fp, diag)) < 0 ||
            (rc = vp_from_pb(p, i, WIRE(VP), x->has_vp, x->vp, &e->score,
                             diag)) < 0)
            return rc;
        e->has_score = true;
    }
    return TNY_OK;
}

static int gt_from_pb(const Tourney__V1__GtResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__copy(out->winner_id, sizeof out->winner_id, m->winner_id,
                         fp, diag)) < 0)
        return rc;
    out->modified = m->has_modified && m->modified;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(GAMES));
    if ((rc = copy_count(m->n_games, 3, fp, "games", diag)) < 0)
        return rc;
    out->n_games = (int32_t)m->n_games;
    for (size_t g = 0; g < m->n_games; g++) {
        wire__path(fp, sizeof fp, "%s.%s[%zu]", p, WIRE(GAMES), g);
        if ((rc = wire__copy(out->games[g], sizeof out->games[g], m->games[g],
                             fp, diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

static int tp_from_pb(const Tourney__V1__TpResult *m, const char *p,
                      struct tny_wire_result *out, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    wire__path(fp, sizeof fp, "%s.players", p);
    if ((rc = copy_count(m->n_players, 2, fp, "players", diag)) < 0)
        return rc;
    out->n_players = (int32_t)m->n_players;
    for (size_t i = 0; i < m->n_players; i++) {
        const Tourney__V1__TpPlayer *x = m->players[i];
        struct tny_wire_result_player *e = &out->players[i];
        wire__path(fp, sizeof fp, "%s.players[%zu].player_id", p, i);
        if ((rc = wire__copy(e->player_id, sizeof e->player_id, x->player_id,
                             fp, diag)) < 0)
            return rc;
        e->has_score = x->has_score;
        e->score = x->score;
    }
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__copy(out->winner_id, sizeof out->winner_id, m->winner_id,
                         fp, diag)) < 0)
        return rc;
    out->draw = m->has_draw && m->draw;
    out->intentional_draw = m->has_intentional_draw && m->intentional_draw;
    out->double_loss = m->has_double_loss && m->double_loss;
    return TNY_OK;
}

int wire__result_from_pb(const Tourney__V1__GameResult *m, const char *path,
                         struct tny_wire_result *out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    memset(out, 0, sizeof *out);
    if (!m)
        return wire__fail(diag, "%s: missing", path);
    switch (m->game_case) {
    case TOURNEY__V1__GAME_RESULT__GAME_NH:
        out->game = TNY_GAME_NEUROSHIMA_HEX;
        wire__path(p, sizeof p, "%s.nh", path);
        rc = nh_from_pb(m->nh, p, out, diag);
        break;
    case TOURNEY__V1__GAME_RESULT__GAME_TX:
        out->game = TNY_GAME_TANTRIX;
        wire__path(p, sizeof p, "%s.tx", path);
        rc = tx_from_pb(m->tx, p, out, diag);
        break;
    case TOURNEY__V1__GAME_RESULT__GAME_AG:
        out->game = TNY_GAME_AGRICOLA;
        wire__path(p, sizeof p, "%s.ag", path);
        rc = ag_from_pb(m->ag, p, out, diag);
        break;
    case TOURNEY__V1__GAME_RESULT__GAME_GT:
        out->game = TNY_GAME_GOT_LCG2;
        wire__path(p, sizeof p, "%s.gt", path);
        rc = gt_from_pb(m->gt, p, out, diag);
        break;
    case TOURNEY__V1__GAME_RESULT__GAME_CT:
        out->game = TNY_GAME_CATAN;
        wire__path(p, sizeof p, "%s.ct", path);
        rc = ct_from_pb(m->ct, p, out, diag);
        break;
    case TOURNEY__V1__GAME_RESULT__GAME_TP:
        out->game = TNY_GAME_TWO_PLAYER;
        wire__path(p, sizeof p, "%s.tp", path);
        rc = tp_from_pb(m->tp, p, out, diag);
        break;
    default:
        return wire__fail(diag, "%s: missing (one of nh, tx, ag, gt, ct, tp)",
                          path);
    }
    if (rc == TNY_OK && m->n_lots > TNY_MAX_LOTS)
        return wire__fail(diag, "%s.lots: expected at most %d, got %zu", path,
                          TNY_MAX_LOTS, m->n_lots);
    for (size_t i = 0; rc == TNY_OK && i < m->n_lots; i++) {
        wire__path(p, sizeof p, "%s.%s[%zu]", path, WIRE(LOTS), i);
        rc = wire__copy(out->lots[i], sizeof out->lots[i], m->lots[i], p, diag);
        out->n_lots = (int32_t)i + 1;
    }
    return rc;
}

/* ---- the rules of a wire result ------------------------------------------ */

/* v within the protocol's structural bounds of field f of game's results
 * (result_schema.h: the same for every format; the format's own range is
 * tny_result_validate's). */
static int check_bound(int64_t v, enum tny_game game, enum tny_result_field f,
                       const char *fp, struct tny_diag *diag)
{
    const struct tny_result_range_info *row = tny_result_range_info(game, f);

    assert(row); /* every numeric field a game's message carries has one */
    return wire__check_range(v, row->wire_lo, row->wire_hi, fp, diag);
}

static int check_entries(const struct tny_wire_result *r, const char *p,
                         int32_t lo, int32_t hi, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    const char *list = entries_name(r->game);
    if (r->n_players < lo || r->n_players > hi) {
        wire__path(fp, sizeof fp, "%s.%s", p, list);
        if (lo == hi)
            return wire__fail(diag, "%s: expected %d entries, got %d", fp,
                              (int)lo, (int)r->n_players);
        return wire__fail(diag, "%s: expected %d..%d entries, got %d", fp,
                          (int)lo, (int)hi, (int)r->n_players);
    }
    for (int32_t i = 0; i < r->n_players; i++) {
        wire__path(fp, sizeof fp, "%s.%s[%d].player_id", p, list, (int)i);
        if ((rc = wire__check_id(r->players[i].player_id, true, fp, diag)) < 0)
            return rc;
        for (int32_t j = 0; j < i; j++)
            if (strcmp(r->players[i].player_id, r->players[j].player_id) == 0)
                return wire__fail(diag, "%s: \"%s\" given twice", fp,
                                  r->players[i].player_id);
    }
    return TNY_OK;
}

static int check_nh(const struct tny_wire_result *r, const char *p,
                    struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if ((rc = check_entries(r, p, 0, 2, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < r->n_players; i++) {
        wire__path(fp, sizeof fp, "%s.armies[%d].%s", p, (int)i, WIRE(ARMIES));
        if ((rc = wire__check_text(r->players[i].army, WIRE_TEXT_LINE, true, fp,
                                   diag)) < 0)
            return rc;
    }
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__check_id(r->winner_id, false, fp, diag)) < 0)
        return rc;
    if (r->draw && r->winner_id[0])
        return wire__fail(diag, "%s: a draw has no winner", fp);
    if (!r->draw && !r->winner_id[0])
        return wire__fail(diag, "%s: missing (or draw: true)", fp);
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(HQ_DIFF));
    /* Structural bound only: the format's range (one message for both
     * ends) is tny_result_validate's. */
    if ((rc = check_bound(r->hq_diff, r->game, TNY_RF_HQ_DIFF, fp, diag)) < 0)
        return rc;
    if (r->draw && r->hq_diff != 0)
        return wire__fail(diag, "%s: a draw records 0 (NH-1)", fp);
    return TNY_OK;
}

static int check_tx(const struct tny_wire_result *r, const char *p,
                    struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int32_t n_score = 0, n_tp = 0;
    int rc;
    if ((rc = check_entries(r, p, 0, 2, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(DEFAULT_WIN));
    if ((rc = wire__check_id(r->default_winner_id, false, fp, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < r->n_players; i++) {
        const struct tny_wire_result_player *e = &r->players[i];
        n_score += e->has_score;
        n_tp += e->has_tp;
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(SCORES));
        if (e->has_score &&
            (rc = check_bound(e->score, r->game, TNY_RF_SCORE, fp, diag)) < 0)
            return rc;
        if (e->has_score && r->default_winner_id[0])
            return wire__fail(diag,
                              "%s: a default (default_winner_id) has no "
                              "scores (TX-5)",
                              fp);
        if ((e->has_score || e->has_tp) && r->draw)
            return wire__fail(diag,
                              "%s: a draw (the board could not be restored, "
                              "seed 001 s13) has no scores and no tp",
                              fp);
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i,
                   WIRE(CLOCK_MS));
        if (e->has_clock && !e->has_score)
            return wire__fail(diag, "%s: only with a score", fp);
        if (e->has_clock && (rc = check_bound(e->clock_ms, r->game,
                                              TNY_RF_CLOCK_MS, fp, diag)) < 0)
            return rc;
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(TP));
        if (e->has_tp && (rc = check_bound(e->tp_units, r->game,
                                           TNY_RF_DECIDED_TP, fp, diag)) < 0)
            return rc;
        if (e->has_tp && (e->has_score || r->default_winner_id[0]))
            return wire__fail(diag,
                              "%s: an organiser decision (TX-4) has no "
                              "scores and no default",
                              fp);
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i,
                   WIRE(PENALTY));
        if ((rc = wire__check_range(e->penalty_units, 0, WIRE_MAX_TP_UNITS, fp,
                                    diag)) < 0)
            return rc;
    }
    if (r->default_winner_id[0] && r->draw)
        return wire__fail(diag, "%s.draw: a default (TX-5) is not a draw", p);
    if (r->default_winner_id[0])
        return TNY_OK;
    if (r->draw) /* entries only carry penalties (TX-7) */
        return TNY_OK;
    if (n_score == 0 && n_tp == 0)
        return wire__fail(diag,
                          "%s: expected scores, tp_units or "
                          "default_winner_id",
                          p);
    if ((rc = check_entries(r, p, 2, 2, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < r->n_players; i++) {
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i,
                   n_score ? WIRE(SCORES) : WIRE(TP));
        if (n_score ? !r->players[i].has_score : !r->players[i].has_tp)
            return wire__fail(diag, "%s: missing", fp);
    }
    return TNY_OK;
}

static int check_vp(const struct tny_wire_result *r, const char *p,
                    struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if ((rc = check_entries(r, p, 2, TNY_MAX_SEATS, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < r->n_players; i++) {
        const struct tny_wire_result_player *e = &r->players[i];
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(VP));
        if (!e->has_score)
            return wire__fail(diag, "%s: missing", fp);
        if ((rc = check_bound(e->score, r->game, TNY_RF_VP, fp, diag)) < 0)
            return rc;
        if (r->game != TNY_GAME_AGRICOLA)
            continue;
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(IP));
        if ((rc = check_bound(e->ip, r->game, TNY_RF_IP, fp, diag)) < 0)
            return rc;
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(BP));
        if ((rc = check_bound(e->bp, r->game, TNY_RF_BP, fp, diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

static int check_gt(const struct tny_wire_result *r, const char *p,
                    struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (r->n_players != 0)
        return wire__fail(diag, "%s: has no per-player entries", p);
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__check_id(r->winner_id, false, fp, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(GAMES));
    if (r->n_games < 0 || r->n_games > 3)
        return wire__fail(diag, "%s: expected at most 3 games, got %d", fp,
                          (int)r->n_games);
    for (int32_t g = 0; g < r->n_games; g++) {
        wire__path(fp, sizeof fp, "%s.%s[%d]", p, WIRE(GAMES), (int)g);
        if ((rc = wire__check_id(r->games[g], true, fp, diag)) < 0)
            return rc;
    }
    if (!r->winner_id[0] && r->n_games == 0)
        return wire__fail(diag, "%s.winner_id: missing (or games)", p);
    return TNY_OK;
}

static int check_tp(const struct tny_wire_result *r, const char *p,
                    struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (r->n_players != 0 && r->n_players != 2)
        return wire__fail(diag, "%s.players: expected 0 or 2 entries, got %d",
                          p, (int)r->n_players);
    if ((rc = check_entries(r, p, 0, 2, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < r->n_players; i++) {
        wire__path(fp, sizeof fp, "%s.players[%d].%s", p, (int)i, WIRE(SCORES));
        if (!r->players[i].has_score)
            return wire__fail(diag, "%s: missing", fp);
        if ((rc = check_bound(r->players[i].score, r->game, TNY_RF_SCORE, fp,
                              diag)) < 0)
            return rc;
    }
    wire__path(fp, sizeof fp, "%s.%s", p, WIRE(WINNER));
    if ((rc = wire__check_id(r->winner_id, false, fp, diag)) < 0)
        return rc;
    int outcomes =
        (r->winner_id[0] != 0) + r->draw + r->intentional_draw + r->double_loss;
    if (outcomes > 1)
        return wire__fail(diag,
                          "%s: at most one of winner_id, draw, "
                          "intentional_draw, double_loss",
                          p);
    if (outcomes == 0 && r->n_players == 0)
        return wire__fail(diag, "%s: expected players' scores or an outcome",
                          p);
    return TNY_OK;
}

int wire__result_check(const struct tny_wire_result *r, const char *path,
                       struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    if (!wire__game_valid(r->game))
        return wire__fail(diag, "%s: unknown game %d", path, (int)r->game);
    if (r->n_lots < 0 || r->n_lots > TNY_MAX_LOTS)
        return wire__fail(diag, "%s.lots: expected at most %d", path,
                          TNY_MAX_LOTS);
    for (int32_t i = 0; i < r->n_lots; i++) {
        int rc;
        wire__path(p, sizeof p, "%s.%s[%d]", path, WIRE(LOTS), (int)i);
        if ((rc = wire__check_text(r->lots[i], WIRE_TEXT_LINE, true, p, diag)) <
            0)
            return rc;
    }
    wire__path(p, sizeof p, "%s.%s", path, game_member(r->game));
    switch (tny_game_flow(r->game)) {
    case TNY_GAME_NEUROSHIMA_HEX: return check_nh(r, p, diag);
    case TNY_GAME_TANTRIX: return check_tx(r, p, diag);
    case TNY_GAME_AGRICOLA:
    case TNY_GAME_CATAN: return check_vp(r, p, diag);
    case TNY_GAME_GOT_LCG2: return check_gt(r, p, diag);
    case TNY_GAME_NETRUNNER: /* flows as the two-player result (game.h) */
    case TNY_GAME_TWO_PLAYER: return check_tp(r, p, diag);
    }
    return TNY_OK;
}

/* ---- encode: struct -> protobuf -------------------------------------------
 */

void wire__result_to_pb(const struct tny_wire_result *r,
                        struct wire_result_pb *s)
{
    size_t n = (size_t)r->n_players;
    tourney__v1__game_result__init(&s->gr);
    for (int32_t i = 0; i < r->n_lots && i < TNY_MAX_LOTS; i++)
        s->lots[i] = (char *)r->lots[i];
    s->gr.n_lots =
        (size_t)(r->n_lots < TNY_MAX_LOTS ? r->n_lots : TNY_MAX_LOTS);
    s->gr.lots = s->lots;
    switch (tny_game_flow(r->game)) {
    case TNY_GAME_NETRUNNER: /* flows as the two-player result (game.h) */
    case TNY_GAME_TWO_PLAYER:
        tourney__v1__tp_result__init(&s->tp);
        s->tp.winner_id = wire__opt(r->winner_id);
        s->tp.has_draw = r->draw;
        s->tp.draw = r->draw;
        s->tp.has_intentional_draw = r->intentional_draw;
        s->tp.intentional_draw = r->intentional_draw;
        s->tp.has_double_loss = r->double_loss;
        s->tp.double_loss = r->double_loss;
        for (size_t i = 0; i < n; i++) {
            Tourney__V1__TpPlayer *x = &s->tp_player[i];
            tourney__v1__tp_player__init(x);
            x->player_id = (char *)r->players[i].player_id;
            x->has_score = r->players[i].has_score;
            x->score = r->players[i].score;
            s->tp_player_p[i] = x;
        }
        s->tp.n_players = n;
        s->tp.players = s->tp_player_p;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_TP;
        s->gr.tp = &s->tp;
        break;
    case TNY_GAME_NEUROSHIMA_HEX:
        tourney__v1__nh_result__init(&s->nh);
        s->nh.winner_id = wire__opt(r->winner_id);
        s->nh.has_draw = r->draw;
        s->nh.draw = r->draw;
        s->nh.has_hq_diff = !r->draw;
        s->nh.hq_diff = r->draw ? 0 : r->hq_diff;
        for (size_t i = 0; i < n; i++) {
            tourney__v1__nh_army__init(&s->nh_army[i]);
            s->nh_army[i].player_id = (char *)r->players[i].player_id;
            s->nh_army[i].army = (char *)r->players[i].army;
            s->nh_army_p[i] = &s->nh_army[i];
        }
        s->nh.n_armies = n;
        s->nh.armies = s->nh_army_p;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_NH;
        s->gr.nh = &s->nh;
        break;
    case TNY_GAME_TANTRIX:
        tourney__v1__tx_result__init(&s->tx);
        s->tx.default_winner_id = wire__opt(r->default_winner_id);
        s->tx.has_draw = r->draw;
        s->tx.draw = r->draw;
        for (size_t i = 0; i < n; i++) {
            const struct tny_wire_result_player *e = &r->players[i];
            Tourney__V1__TxPlayer *x = &s->tx_player[i];
            tourney__v1__tx_player__init(x);
            x->player_id = (char *)e->player_id;
            x->has_score = e->has_score;
            x->score = e->has_score ? e->score : 0;
            x->has_clock_ms = e->has_clock;
            x->clock_ms = e->has_clock ? e->clock_ms : 0;
            x->has_tp_units = e->has_tp;
            x->tp_units = e->has_tp ? e->tp_units : 0;
            x->has_penalty_units = e->penalty_units != 0;
            x->penalty_units = e->penalty_units;
            s->tx_player_p[i] = x;
        }
        s->tx.n_players = n;
        s->tx.players = s->tx_player_p;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_TX;
        s->gr.tx = &s->tx;
        break;
    case TNY_GAME_AGRICOLA:
        tourney__v1__ag_result__init(&s->ag);
        for (size_t i = 0; i < n; i++) {
            const struct tny_wire_result_player *e = &r->players[i];
            Tourney__V1__AgPlayer *x = &s->ag_player[i];
            tourney__v1__ag_player__init(x);
            x->player_id = (char *)e->player_id;
            x->has_vp = x->has_ip = x->has_bp = true;
            x->vp = e->score;
            x->ip = e->ip;
            x->bp = e->bp;
            s->ag_player_p[i] = x;
        }
        s->ag.n_players = n;
        s->ag.players = s->ag_player_p;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_AG;
        s->gr.ag = &s->ag;
        break;
    case TNY_GAME_CATAN:
        tourney__v1__ct_result__init(&s->ct);
        for (size_t i = 0; i < n; i++) {
            Tourney__V1__CtPlayer *x = &s->ct_player[i];
            tourney__v1__ct_player__init(x);
            x->player_id = (char *)r->players[i].player_id;
            x->has_vp = true;
            x->vp = r->players[i].score;
            s->ct_player_p[i] = x;
        }
        s->ct.n_players = n;
        s->ct.players = s->ct_player_p;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_CT;
        s->gr.ct = &s->ct;
        break;
    case TNY_GAME_GOT_LCG2:
        tourney__v1__gt_result__init(&s->gt);
        s->gt.winner_id = wire__opt(r->winner_id);
        s->gt.has_modified = r->modified;
        s->gt.modified = r->modified;
        for (int32_t g = 0; g < r->n_games; g++)
            s->games[g] = (char *)r->games[g];
        s->gt.n_games = (size_t)r->n_games;
        s->gt.games = s->games;
        s->gr.game_case = TOURNEY__V1__GAME_RESULT__GAME_GT;
        s->gr.gt = &s->gt;
        break;
    }
}

/* ---- ids <-> seats ------------------------------------------------------- */

/* Seat of player id at table t, or -1. */
static int32_t seat_of(const struct tny_event *ev, const struct tny_table *t,
                       const char *id)
{
    int32_t p = tny_event_player_index(ev, id);
    return p < 0 ? -1 : tny_table_seat_of(t, p);
}

static int need_seat(const struct tny_event *ev, const struct tny_table *t,
                     const char *id, const char *path, int32_t *seat,
                     struct tny_diag *diag)
{
    *seat = seat_of(ev, t, id);
    if (*seat >= 0)
        return TNY_OK;
    return wire__fail(diag, "%s: \"%s\" is not a player of table %d", path, id,
                      (int)t->number);
}

/* Key k of wire result in, converted by its kind (ids -> seats, army
 * names -> the format's indices) into r; seats[i] is entry i's seat. */
static int key_to_table(const struct tny_event *ev,
                        const struct tny_table *assigned,
                        const struct tny_wire_result *in, const int32_t *seats,
                        enum tny_result_key k, const char *p,
                        struct tny_result *r, struct tny_diag *diag)
{
    const struct tny_result_key_info *info = tny_result_key_info(k);
    struct tny_wire_result_val w;
    struct tny_result_val v;
    char fp[WIRE_PATH_MAX];
    int rc;

    tny_wire_result_value_get(in, k, &w);
    if (!w.present)
        return TNY_OK;
    memset(&v, 0, sizeof v);
    v.present = true;
    v.flag = w.flag;
    v.number = w.number;
    switch (info->value) {
    case TNY_RV_FLAG:
    case TNY_RV_NUMBER: break;
    case TNY_RV_PLAYER:
        wire__path(fp, sizeof fp, "%s.%s", p, info->wire);
        if ((rc = need_seat(ev, assigned, w.id, fp, &v.seat, diag)) < 0)
            return rc;
        break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY:
        for (int32_t i = 0; i < in->n_players; i++) {
            if (!w.has[i])
                continue;
            v.has[seats[i]] = true;
            v.per[seats[i]] = w.per[i];
            if (info->value != TNY_RV_ARMY)
                continue;
            wire__path(fp, sizeof fp, "%s.%s[%d].%s", p, entries_name(in->game),
                       (int)i, info->wire);
            v.per[seats[i]] = tny_format_army_index(&ev->format, w.army[i]);
            if (v.per[seats[i]] < 0)
                return wire__fail(diag, "%s: unknown army \"%s\"", fp,
                                  w.army[i]);
        }
        break;
    case TNY_RV_PLAYERS:
        v.n = w.n;
        for (int32_t i = 0; i < w.n; i++) {
            wire__path(fp, sizeof fp, "%s.%s[%d]", p, info->wire, (int)i);
            if ((rc = need_seat(ev, assigned, w.items[i], fp, &v.seats[i],
                                diag)) < 0)
                return rc;
        }
        break;
    case TNY_RV_TEXTS:
        v.n = w.n;
        for (int32_t i = 0; i < w.n; i++)
            v.texts[i] = w.items[i];
        break;
    }
    tny_result_value_set(r, k, &v);
    return TNY_OK;
}

int tny_wire_result_to_table(const struct tny_event *ev,
                             enum tny_stage_kind stage,
                             const struct tny_table *assigned,
                             const struct tny_wire_result *in, const char *path,
                             struct tny_table *out, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    char p[WIRE_PATH_MAX], fp[WIRE_PATH_MAX];
    bool seen[TNY_MAX_SEATS] = {false};
    int32_t seats[TNY_MAX_SEATS] = {0};
    const enum tny_result_key *keys;
    int32_t n;
    int rc;

    if ((rc = wire__result_check(in, path, diag)) < 0)
        return rc;
    if (tny_game_flow(in->game) != tny_game_flow(fmt->game))
        return wire__fail(diag, "%s: a %s result for a %s event", path,
                          tny_game_name(in->game), tny_game_name(fmt->game));
    if (assigned->is_bye || assigned->n_seats < 2 ||
        assigned->n_seats > TNY_MAX_SEATS)
        return wire__fail(diag, "%s: table %d takes no result", path,
                          (int)assigned->number);
    *out = *assigned;
    struct tny_result *r = &out->result;
    tny_result_value_reset(r);
    out->has_result = true;

    wire__path(p, sizeof p, "%s.%s", path, game_member(in->game));
    for (int32_t i = 0; i < in->n_players; i++) {
        wire__path(fp, sizeof fp, "%s.%s[%d].player_id", p,
                   entries_name(in->game), (int)i);
        if ((rc = need_seat(ev, assigned, in->players[i].player_id, fp,
                            &seats[i], diag)) < 0)
            return rc;
        seen[seats[i]] = true;
    }
    /* Per-player games need every seat once (NH armies, TX penalties and
     * TX defaults may name fewer). */
    bool need_all =
        in->game == TNY_GAME_AGRICOLA || in->game == TNY_GAME_CATAN ||
        (tny_game_flow(in->game) == TNY_GAME_TWO_PLAYER && in->n_players > 0) ||
        (in->game == TNY_GAME_TANTRIX && !in->default_winner_id[0] &&
         !in->draw);
    for (int32_t i = 0; need_all && i < assigned->n_seats; i++)
        if (!seen[i])
            return wire__fail(diag, "%s.players: missing an entry for \"%s\"",
                              p, ev->players[assigned->seats[i]].id);
    n = tny_result_keys(in->game, &keys);
    for (int32_t i = 0; i < n; i++)
        if ((rc = key_to_table(ev, assigned, in, seats, keys[i], p, r, diag)) <
            0)
            return rc;
    if (tny_game_flow(in->game) == TNY_GAME_TWO_PLAYER && r->winner < 0 &&
        !r->draw && !r->intentional_draw && !r->double_loss && r->has_score) {
        /* As in an event file: the higher score wins; equal scores are a
         * draw where the format has draws. */
        if (r->score[0] != r->score[1])
            r->winner = r->score[0] > r->score[1] ? 0 : 1;
        else if (fmt->draws)
            r->draw = true;
        else
            return wire__fail(diag,
                              "%s: equal scores and no winner_id, and the "
                              "format \"%s\" has no draws",
                              p, fmt->name);
    }
    if (in->n_games > 0 && r->winner >= 0) {
        int32_t wins = 0;
        for (int32_t g = 0; g < in->n_games; g++)
            wins += r->games[g] == r->winner;
        if (wins < 2)
            return wire__fail(diag,
                              "%s.winner_id: \"%s\" did not win two "
                              "games (GT-9)",
                              p, in->winner_id);
    }
    return tny_result_validate(ev, stage, out, path, diag);
}

static int copy_id(char *dst, const struct tny_event *ev, int32_t player,
                   struct tny_diag *diag)
{
    if (player < 0 || player >= ev->n_players ||
        !tny_wire_id_valid(ev->players[player].id))
        return wire__fail(diag, "result: player %d has no wire id",
                          (int)player);
    snprintf(dst, TNY_WIRE_ID_MAX + 1, "%s", ev->players[player].id);
    return TNY_OK;
}

int tny_wire_result_from_table(const struct tny_event *ev,
                               const struct tny_table *t,
                               struct tny_wire_result *out,
                               struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result *r = &t->result;
    int rc = TNY_OK;
    memset(out, 0, sizeof *out);
    if (!t->has_result || t->is_bye || t->n_seats < 2 ||
        t->n_seats > TNY_MAX_SEATS)
        return wire__fail(diag, "result: table %d has no result",
                          (int)t->number);
    out->game = tny_game_flow(fmt->game); /* the result shape (game.h) */
    out->n_lots = r->n_lots;              /* CM-4 */
    memcpy(out->lots, r->lots, sizeof(out->lots));
    const bool two = t->n_seats == 2;
    switch (tny_game_flow(fmt->game)) {
    case TNY_GAME_NETRUNNER: /* flows as the two-player result (game.h) */
    case TNY_GAME_TWO_PLAYER:
        for (int32_t s = 0; s < 2 && two && r->has_score && rc == TNY_OK; s++) {
            struct tny_wire_result_player *e = &out->players[out->n_players++];
            rc = copy_id(e->player_id, ev, t->seats[s], diag);
            e->has_score = true;
            e->score = r->score[s];
        }
        out->draw = r->draw;
        out->intentional_draw = r->intentional_draw;
        out->double_loss = r->double_loss;
        if (rc == TNY_OK && r->winner >= 0 && r->winner < 2 && two)
            rc = copy_id(out->winner_id, ev, t->seats[r->winner], diag);
        break;
    case TNY_GAME_NEUROSHIMA_HEX:
        for (int32_t s = 0; s < 2 && two; s++) {
            if (r->army[s] < 0)
                continue;
            if (r->army[s] >= fmt->n_armies)
                return wire__fail(diag, "result: army %d out of the format",
                                  (int)r->army[s]);
            struct tny_wire_result_player *e = &out->players[out->n_players++];
            if ((rc = copy_id(e->player_id, ev, t->seats[s], diag)) < 0)
                return rc;
            snprintf(e->army, sizeof e->army, "%s", fmt->armies[r->army[s]]);
        }
        out->draw = r->draw;
        out->hq_diff = r->draw ? 0 : r->hq_diff;
        if (!r->draw && r->winner >= 0 && r->winner < 2 && two)
            rc = copy_id(out->winner_id, ev, t->seats[r->winner], diag);
        break;
    case TNY_GAME_TANTRIX:
        for (int32_t s = 0; s < t->n_seats && rc == TNY_OK; s++) {
            struct tny_wire_result_player *e = &out->players[out->n_players++];
            rc = copy_id(e->player_id, ev, t->seats[s], diag);
            e->penalty_units = r->penalty[s];
            if (r->decided) {
                e->has_tp = true;
                e->tp_units = r->decided_tp[s];
            } else if (r->default_winner < 0 && r->has_score) {
                e->has_score = true;
                e->score = r->score[s];
                e->has_clock = r->has_clock;
                e->clock_ms = r->has_clock ? r->clock_ms[s] : 0;
            }
        }
        out->draw = r->draw;
        if (rc == TNY_OK && !r->decided && r->default_winner >= 0 &&
            r->default_winner < t->n_seats)
            rc = copy_id(out->default_winner_id, ev,
                         t->seats[r->default_winner], diag);
        break;
    case TNY_GAME_AGRICOLA:
    case TNY_GAME_CATAN:
        for (int32_t s = 0; s < t->n_seats && rc == TNY_OK; s++) {
            struct tny_wire_result_player *e = &out->players[out->n_players++];
            rc = copy_id(e->player_id, ev, t->seats[s], diag);
            e->has_score = true;
            e->score = r->score[s];
            if (fmt->game == TNY_GAME_AGRICOLA) {
                e->ip = r->ip[s];
                e->bp = r->bp[s];
            }
        }
        break;
    case TNY_GAME_GOT_LCG2:
        out->modified = r->modified;
        if (r->winner >= 0 && r->winner < t->n_seats)
            rc = copy_id(out->winner_id, ev, t->seats[r->winner], diag);
        for (int32_t g = 0; g < r->n_games && g < 3 && rc == TNY_OK; g++) {
            if (r->games[g] < 0 || r->games[g] >= t->n_seats)
                return wire__fail(diag, "result: game %d has no winner",
                                  (int)g);
            rc = copy_id(out->games[g], ev, t->seats[r->games[g]], diag);
            out->n_games = g + 1;
        }
        break;
    }
    if (rc < 0)
        return rc;
    return wire__result_check(out, "result", diag);
}
