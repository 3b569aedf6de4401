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

/* The GameResult member that carries game's results (game.h wire: its
 * shape's module names it), "?" for a game without one. */
static const char *game_member(enum tny_game g)
{
    const struct tny_game_ops *ops = tny_game_shape_of(g);
    return ops && ops->wire ? ops->wire : "?";
}

/* Name of the per-player list of game's message: its repeated message
 * field (wire.h; "armies" for NH, "players" for the others). */
static const char *entries_name(enum tny_game g)
{
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field_by_name(
            &tourney__v1__game_result__descriptor, game_member(g));
    const ProtobufCMessageDescriptor *d = f ? f->descriptor : NULL;

    for (unsigned i = 0; d && i < d->n_fields; i++)
        if (d->fields[i].label == PROTOBUF_C_LABEL_REPEATED &&
            d->fields[i].type == PROTOBUF_C_TYPE_MESSAGE)
            return d->fields[i].name;
    return "players";
}

/* What the wire adds to a message's keys (the rules between them, how
 * many entries it takes), one row per GameResult message that has such
 * rules, found by the module's wire name (shape_of); a message without a
 * row has the generic rules (check_generic). */
struct wire_shape {
    const char *member;  /* game.h wire */
    int32_t max_players; /* entries decoding takes ("players"); 0: a
                          * table's seats ("entries") */
    int (*check)(const struct tny_wire_result *r, const char *p,
                 struct tny_diag *diag);
    /* Whether every seat of the table needs an entry. */
    bool (*need_all)(const struct tny_wire_result *in);
    /* Completes r as an event file would (NULL: nothing to complete);
     * p names the message in messages.  Errors: TNY_EPROTO. */
    int (*complete)(const struct tny_format *fmt, struct tny_result *r,
                    const char *p, struct tny_diag *diag);
    bool every_player; /* a stored result lists every player (TX-7) */
};

static const struct wire_shape *shape_of(enum tny_game g);

/* ---- decode: protobuf -> struct ------------------------------------------ */

static int copy_count(size_t n, size_t cap, const char *path, const char *what,
                      struct tny_diag *diag)
{
    if (n <= cap)
        return TNY_OK;
    return wire__fail(diag, "%s: expected at most %zu %s, got %zu", path, cap,
                      what, n);
}

/* A field of a generated message, read through its descriptor. */
#define AT(msg, off, type) (*(const type *)((const char *)(msg) + (off)))

/* The field named name (a schema wire name) of message m's type. */
static const ProtobufCFieldDescriptor *field_of(const ProtobufCMessage *m,
                                                const char *name)
{
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field_by_name(m->descriptor, name);
    assert(f); /* the schema's wire names are the .proto's */
    return f;
}

/* An optional integer field: *has and its value (0 when absent). */
static int64_t int_of(const ProtobufCMessage *m, const char *name, bool *has)
{
    const ProtobufCFieldDescriptor *f = field_of(m, name);
    *has = AT(m, f->quantifier_offset, protobuf_c_boolean);
    if (f->type == PROTOBUF_C_TYPE_INT64 || f->type == PROTOBUF_C_TYPE_SINT64)
        return AT(m, f->offset, int64_t);
    return AT(m, f->offset, int32_t);
}

/* The game's per-player entries (wire.h), each key of every entry by its
 * kind in the game's key order; a key always in a result (vp, ip, bp)
 * is needed in each. */
static int entries_from_pb(const ProtobufCMessage *gm, const char *p,
                           enum tny_game game, struct tny_wire_result *out,
                           struct tny_diag *diag)
{
    const ProtobufCFieldDescriptor *ef = field_of(gm, entries_name(game));
    size_t n = AT(gm, ef->quantifier_offset, size_t);
    const ProtobufCMessage *const *arr =
        AT(gm, ef->offset, ProtobufCMessage **);
    const enum tny_result_key *keys;
    int32_t n_keys = tny_result_keys(game, &keys);
    struct tny_wire_result_val vals[TNY_RK_ALL];
    char armies[TNY_MAX_SEATS][TNY_NAME_MAX];
    char fp[WIRE_PATH_MAX];
    int rc;

    memset(vals, 0, sizeof vals);
    wire__path(fp, sizeof fp, "%s.%s", p, ef->name);
    /* A two-player game has two players, the others up to a table. */
    const int32_t max_players = shape_of(game)->max_players;
    if ((rc = max_players > 0
                  ? copy_count(n, (size_t)max_players, fp, "players", diag)
                  : copy_count(n, TNY_MAX_SEATS, fp, "entries", diag)) < 0)
        return rc;
    out->n_players = (int32_t)n;
    for (size_t i = 0; i < n; i++) {
        const ProtobufCMessage *e = arr[i];
        struct tny_wire_result_player *x = &out->players[i];
        wire__path(fp, sizeof fp, "%s.%s[%zu].player_id", p, ef->name, i);
        if ((rc = wire__copy(x->player_id, sizeof x->player_id,
                             AT(e, field_of(e, "player_id")->offset, char *),
                             fp, diag)) < 0)
            return rc;
        for (int32_t j = 0; j < n_keys; j++) {
            const struct tny_result_key_info *info =
                tny_result_key_info(keys[j]);
            struct tny_wire_result_val *v = &vals[keys[j]];
            bool has;
            if (TNY_RK_IS_EXT(keys[j]) || /* GameResult.values */
                (info->value != TNY_RV_PER_PLAYER &&
                 info->value != TNY_RV_POINTS && info->value != TNY_RV_ARMY))
                continue;
            wire__path(fp, sizeof fp, "%s.%s[%zu].%s", p, ef->name, i,
                       info->wire);
            v->present = v->has[i] = true;
            if (info->value == TNY_RV_ARMY) {
                if ((rc = wire__copy(
                         armies[i], sizeof armies[i],
                         AT(e, field_of(e, info->wire)->offset, char *), fp,
                         diag)) < 0)
                    return rc;
                v->army[i] = armies[i];
                continue;
            }
            v->per[i] = int_of(e, info->wire, &has);
            v->has[i] = has || tny_result_value_always(keys[j]);
            if (tny_result_value_always(keys[j]) &&
                (rc = wire__need(has, fp, diag)) < 0)
                return rc;
        }
    }
    for (int32_t j = 0; j < n_keys; j++)
        if (vals[keys[j]].present)
            tny_wire_result_value_set(out, keys[j], &vals[keys[j]]);
    return TNY_OK;
}

/* The game's message gm: each key by its kind, in the game's key order
 * (the per-player keys together, at the first of them). */
static int game_from_pb(const ProtobufCMessage *gm, const char *p,
                        enum tny_game game, struct tny_wire_result *out,
                        struct tny_diag *diag)
{
    const enum tny_result_key *keys;
    int32_t n_keys = tny_result_keys(game, &keys);
    bool entries = false;
    char fp[WIRE_PATH_MAX];
    int rc;

    for (int32_t j = 0; j < n_keys; j++) {
        const struct tny_result_key_info *info = tny_result_key_info(keys[j]);
        struct tny_wire_result_val v;
        char id[TNY_WIRE_ID_MAX + 1];
        char items[TNY_RESULT_LIST_MAX][TNY_WIRE_ID_MAX + 1];
        const ProtobufCFieldDescriptor *f;
        bool has;

        if (keys[j] == TNY_RK_LOTS || /* GameResult's, for every game */
            TNY_RK_IS_EXT(keys[j]))   /* GameResult.values */
            continue;
        memset(&v, 0, sizeof v);
        wire__path(fp, sizeof fp, "%s.%s", p, info->wire);
        switch (info->value) {
        case TNY_RV_PER_PLAYER:
        case TNY_RV_POINTS:
        case TNY_RV_ARMY:
            if (!entries && (rc = entries_from_pb(gm, p, game, out, diag)) < 0)
                return rc;
            entries = true;
            continue;
        case TNY_RV_FLAG:
            f = field_of(gm, info->wire);
            v.present = v.flag =
                AT(gm, f->quantifier_offset, protobuf_c_boolean) &&
                AT(gm, f->offset, protobuf_c_boolean);
            break;
        case TNY_RV_NUMBER:
            /* Always in a result, but a draw has no HQ difference. */
            v.number = int_of(gm, info->wire, &has);
            v.present = true;
            if (tny_result_value_always(keys[j]) && !out->draw &&
                (rc = wire__need(has, fp, diag)) < 0)
                return rc;
            break;
        case TNY_RV_PLAYER:
            if ((rc = wire__copy(
                     id, sizeof id,
                     AT(gm, field_of(gm, info->wire)->offset, char *), fp,
                     diag)) < 0)
                return rc;
            v.present = true;
            v.id = id;
            break;
        case TNY_RV_PLAYERS:
        case TNY_RV_TEXTS:
            f = field_of(gm, info->wire);
            if ((rc = copy_count(AT(gm, f->quantifier_offset, size_t),
                                 (size_t)info->max_items, fp, info->wire,
                                 diag)) < 0)
                return rc;
            for (size_t i = 0; i < AT(gm, f->quantifier_offset, size_t); i++) {
                wire__path(fp, sizeof fp, "%s.%s[%zu]", p, info->wire, i);
                if ((rc = wire__copy(items[i], sizeof items[i],
                                     AT(gm, f->offset, char **)[i], fp, diag)) <
                    0)
                    return rc;
                v.items[v.n++] = items[i];
            }
            v.present = v.n > 0;
            break;
        }
        if (v.present)
            tny_wire_result_value_set(out, keys[j], &v);
    }
    return TNY_OK;
}

/* GameResult.values: the game module's own keys by name (checked
 * against the event's game by tny_wire_result_to_table). */
static int ext_from_pb(const Tourney__V1__GameResult *m, const char *path,
                       struct tny_wire_result *out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;

    if ((rc = copy_count(m->n_values, TNY_WIRE_EXT_MAX, path, "values", diag)) <
        0)
        return rc;
    for (size_t i = 0; i < m->n_values; i++) {
        const Tourney__V1__ResultValue *x = m->values[i];
        struct tny_wire_result_ext *e = &out->ext[i];
        wire__path(p, sizeof p, "%s.values[%zu].key", path, i);
        if ((rc = wire__copy_id(e->key, sizeof e->key, x->key, true, p, diag)) <
            0)
            return rc;
        wire__path(p, sizeof p, "%s.values[%zu].player_id", path, i);
        if ((rc = wire__copy_id(e->player_id, sizeof e->player_id, x->player_id,
                                false, p, diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.values[%zu].value", path, i);
        if ((rc = wire__need(x->has_value, p, diag)) < 0)
            return rc;
        e->value = x->value;
        out->n_ext = (int32_t)i + 1;
    }
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
    /* The member set names the game whose shape it carries. */
    const struct tny_game_ops *const *all;
    const int32_t n_games = tny_game_registry(&all);
    char members[64] = "";
    bool found = false;
    rc = TNY_OK;
    for (int32_t i = 0; i < n_games; i++) {
        const struct tny_game_ops *ops = all[i];
        const ProtobufCFieldDescriptor *f;
        if (ops->flow != ops->game || !ops->wire)
            continue;
        snprintf(members + strlen(members), sizeof members - strlen(members),
                 "%s%s", members[0] ? ", " : "", ops->wire);
        f = protobuf_c_message_descriptor_get_field_by_name(m->base.descriptor,
                                                            ops->wire);
        if (!f || (unsigned)m->game_case != f->id)
            continue;
        found = true;
        out->game = ops->game;
        wire__path(p, sizeof p, "%s.%s", path, ops->wire);
        rc = game_from_pb(AT(m, f->offset, ProtobufCMessage *), p, out->game,
                          out, diag);
        break;
    }
    if (!found)
        return wire__fail(diag, "%s: missing (one of %s)", path, members);
    if (rc == TNY_OK && m->n_lots > TNY_MAX_LOTS)
        return wire__fail(diag, "%s.lots: expected at most %d, got %zu", path,
                          TNY_MAX_LOTS, m->n_lots);
    for (size_t i = 0; rc == TNY_OK && i < m->n_lots; i++) {
        wire__path(p, sizeof p, "%s.%s[%zu]", path, WIRE(LOTS), i);
        rc = wire__copy(out->lots[i], sizeof out->lots[i], m->lots[i], p, diag);
        out->n_lots = (int32_t)i + 1;
    }
    return rc == TNY_OK ? ext_from_pb(m, path, out, diag) : rc;
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
        /* AG-1's improvement and bonus points, where the game has them */
        if (!tny_result_has_key(r->game, TNY_RK_IP))
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

/* A message without rules of its own: up to a table's entries, each
 * player once, every number within its field's protocol bound (the
 * game's range rows, result_schema.h). */
static int check_generic(const struct tny_wire_result *r, const char *p,
                         struct tny_diag *diag)
{
    const struct tny_game_ops *ops = tny_game_shape_of(r->game);
    char fp[WIRE_PATH_MAX];
    int rc;

    if ((rc = check_entries(r, p, 0, TNY_MAX_SEATS, diag)) < 0)
        return rc;
    for (int32_t j = 0; ops && j < ops->n_ranges; j++) {
        const struct tny_result_range_info *row = &ops->ranges[j];
        const enum tny_result_key k = tny_result_field_key(row->field);
        const struct tny_result_key_info *info = tny_result_key_info(k);
        struct tny_wire_result_val v;
        tny_wire_result_value_get(r, k, &v);
        if (info->value == TNY_RV_NUMBER && v.present) {
            wire__path(fp, sizeof fp, "%s.%s", p, info->wire);
            if ((rc = wire__check_range(v.number, row->wire_lo, row->wire_hi,
                                        fp, diag)) < 0)
                return rc;
        }
        for (int32_t i = 0; info->value != TNY_RV_NUMBER && i < r->n_players;
             i++) {
            if (!v.has[i])
                continue;
            wire__path(fp, sizeof fp, "%s.%s[%d].%s", p, entries_name(r->game),
                       (int)i, info->wire);
            if ((rc = wire__check_range(v.per[i], row->wire_lo, row->wire_hi,
                                        fp, diag)) < 0)
                return rc;
        }
    }
    return TNY_OK;
}

static bool need_all_never(const struct tny_wire_result *in)
{
    (void)in;
    return false;
}

static bool need_all_always(const struct tny_wire_result *in)
{
    (void)in;
    return true;
}

/* TX: but a default's and a draw's (their entries carry penalties). */
static bool need_all_tx(const struct tny_wire_result *in)
{
    return !in->default_winner_id[0] && !in->draw;
}

/* Two-player: scores are both players'; an outcome alone has none. */
static bool need_all_tp(const struct tny_wire_result *in)
{
    return in->n_players > 0;
}

/* As in an event file: the higher score wins; equal scores are a draw
 * where the format has draws. */
static int complete_tp(const struct tny_format *fmt, struct tny_result *r,
                       const char *p, struct tny_diag *diag)
{
    if (r->winner >= 0 || r->draw || r->intentional_draw || r->double_loss ||
        !r->has_score)
        return TNY_OK;
    if (r->score[0] != r->score[1])
        r->winner = r->score[0] > r->score[1] ? 0 : 1;
    else if (fmt->draws)
        r->draw = true;
    else
        return wire__fail(diag,
                          "%s: equal scores and no winner_id, and the "
                          "format \"%s\" has no draws",
                          p, fmt->name);
    return TNY_OK;
}

static const struct wire_shape shapes[] = {
    {"nh", 0, check_nh, need_all_never, NULL, false},
    {"tx", 0, check_tx, need_all_tx, NULL, true},
    {"ag", 0, check_vp, need_all_always, NULL, false},
    {"ct", 0, check_vp, need_all_always, NULL, false},
    {"gt", 0, check_gt, need_all_never, NULL, false},
    {"tp", 2, check_tp, need_all_tp, complete_tp, false},
};

static const struct wire_shape *shape_of(enum tny_game g)
{
    static const struct wire_shape generic = {
        NULL, 0, check_generic, need_all_never, NULL, false};
    const char *member = game_member(g);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(shapes[i].member, member) == 0)
            return &shapes[i];
    return &generic;
}

/* The module keys' values (wire.h): ids, distinct, within the
 * protocol's bound. */
static int ext_check(const struct tny_wire_result *r, const char *path,
                     struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;

    if (r->n_ext < 0 || r->n_ext > TNY_WIRE_EXT_MAX)
        return wire__fail(diag, "%s.values: expected at most %d", path,
                          TNY_WIRE_EXT_MAX);
    for (int32_t i = 0; i < r->n_ext; i++) {
        const struct tny_wire_result_ext *e = &r->ext[i];
        wire__path(p, sizeof p, "%s.values[%d]", path, (int)i);
        if (strlen(e->key) > TNY_WIRE_KEY_MAX ||
            (rc = wire__check_id(e->key, true, p, diag)) < 0 ||
            (rc = wire__check_id(e->player_id, false, p, diag)) < 0 ||
            (rc = wire__check_range(e->value, -TNY_RESULT_ABS_MAX,
                                    TNY_RESULT_ABS_MAX, p, diag)) < 0)
            return strlen(e->key) > TNY_WIRE_KEY_MAX
                       ? wire__fail(diag, "%s.key: longer than %d bytes", p,
                                    TNY_WIRE_KEY_MAX)
                       : rc;
        for (int32_t j = 0; j < i; j++)
            if (strcmp(r->ext[j].key, e->key) == 0 &&
                strcmp(r->ext[j].player_id, e->player_id) == 0)
                return wire__fail(diag, "%s: \"%s\"%s%s given twice", p, e->key,
                                  e->player_id[0] ? " of " : "", e->player_id);
    }
    return TNY_OK;
}

int wire__result_check(const struct tny_wire_result *r, const char *path,
                       struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (!wire__game_valid(r->game))
        return wire__fail(diag, "%s: unknown game %d", path, (int)r->game);
    if (r->n_lots < 0 || r->n_lots > TNY_MAX_LOTS)
        return wire__fail(diag, "%s.lots: expected at most %d", path,
                          TNY_MAX_LOTS);
    for (int32_t i = 0; i < r->n_lots; i++) {
        wire__path(p, sizeof p, "%s.%s[%d]", path, WIRE(LOTS), (int)i);
        if ((rc = wire__check_text(r->lots[i], WIRE_TEXT_LINE, true, p, diag)) <
            0)
            return rc;
    }
    if ((rc = ext_check(r, path, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.%s", path, game_member(r->game));
    return shape_of(r->game)->check(r, p, diag);
}

/* ---- encode: struct -> protobuf -------------------------------------------
 */

/* A field of a generated message, written through its descriptor. */
#define SET(msg, off, type) (*(type *)((char *)(msg) + (off)))

/* Sets the optional integer field f of m (has, value). */
static void set_int(ProtobufCMessage *m, const ProtobufCFieldDescriptor *f,
                    bool has, int64_t v)
{
    SET(m, f->quantifier_offset, protobuf_c_boolean) = has;
    if (f->type == PROTOBUF_C_TYPE_INT64 || f->type == PROTOBUF_C_TYPE_SINT64)
        SET(m, f->offset, int64_t) = v;
    else
        SET(m, f->offset, int32_t) = (int32_t)v;
}

/* Each key of the game by its kind into the game's message gm (fields
 * found by the schema's wire names); entries are the per-player
 * entries' messages, initialised here. */
static void game_to_pb(const struct tny_wire_result *r, ProtobufCMessage *gm,
                       struct wire_result_pb *s)
{
    const enum tny_result_key *keys;
    int32_t n_keys = tny_result_keys(r->game, &keys);
    const ProtobufCFieldDescriptor *ef = NULL;

    for (int32_t j = 0; j < n_keys; j++) {
        const struct tny_result_key_info *info = tny_result_key_info(keys[j]);
        struct tny_wire_result_val v;
        const ProtobufCFieldDescriptor *f;

        if (keys[j] == TNY_RK_LOTS || /* GameResult's, for every game */
            TNY_RK_IS_EXT(keys[j]))   /* GameResult.values */
            continue;
        tny_wire_result_value_get(r, keys[j], &v);
        switch (info->value) {
        case TNY_RV_FLAG:
            f = field_of(gm, info->wire);
            SET(gm, f->quantifier_offset, protobuf_c_boolean) = v.flag;
            SET(gm, f->offset, protobuf_c_boolean) = v.flag;
            break;
        case TNY_RV_NUMBER:
            set_int(gm, field_of(gm, info->wire), v.present,
                    v.present ? v.number : 0);
            break;
        case TNY_RV_PLAYER:
            SET(gm, field_of(gm, info->wire)->offset, char *) =
                v.present ? (char *)v.id : NULL;
            break;
        case TNY_RV_PLAYERS:
        case TNY_RV_TEXTS:
            f = field_of(gm, info->wire);
            for (int32_t i = 0; i < v.n && i < 3; i++)
                s->items[i] = (char *)v.items[i];
            SET(gm, f->quantifier_offset, size_t) = (size_t)v.n;
            SET(gm, f->offset, char **) = s->items;
            break;
        case TNY_RV_PER_PLAYER:
        case TNY_RV_POINTS:
        case TNY_RV_ARMY:
            if (!ef) { /* the entries, each with its player id */
                ef = field_of(gm, entries_name(r->game));
                for (int32_t i = 0; i < r->n_players; i++) {
                    ProtobufCMessage *e = &s->entry[i].nh.base;
                    protobuf_c_message_init(ef->descriptor, e);
                    SET(e, field_of(e, "player_id")->offset, char *) =
                        (char *)r->players[i].player_id;
                    s->entry_p[i] = e;
                }
                SET(gm, ef->quantifier_offset, size_t) = (size_t)r->n_players;
                SET(gm, ef->offset, ProtobufCMessage **) = s->entry_p;
            }
            for (int32_t i = 0; i < r->n_players; i++) {
                ProtobufCMessage *e = s->entry_p[i];
                f = field_of(e, info->wire);
                if (info->value == TNY_RV_ARMY)
                    SET(e, f->offset, char *) =
                        v.has[i] ? (char *)v.army[i] : NULL;
                else
                    set_int(e, f, v.has[i], v.has[i] ? v.per[i] : 0);
            }
            break;
        }
    }
}

void wire__result_to_pb(const struct tny_wire_result *r,
                        struct wire_result_pb *s)
{
    const ProtobufCFieldDescriptor *f;
    tourney__v1__game_result__init(&s->gr);
    for (int32_t i = 0; i < r->n_lots && i < TNY_MAX_LOTS; i++)
        s->lots[i] = (char *)r->lots[i];
    s->gr.n_lots =
        (size_t)(r->n_lots < TNY_MAX_LOTS ? r->n_lots : TNY_MAX_LOTS);
    s->gr.lots = s->lots;
    for (int32_t i = 0; i < r->n_ext && i < TNY_WIRE_EXT_MAX; i++) {
        Tourney__V1__ResultValue *x = &s->ext[i];
        tourney__v1__result_value__init(x);
        x->key = (char *)r->ext[i].key;
        x->player_id =
            r->ext[i].player_id[0] ? (char *)r->ext[i].player_id : NULL;
        x->has_value = true;
        x->value = r->ext[i].value;
        s->ext_p[i] = x;
    }
    s->gr.n_values = (size_t)(r->n_ext < 0                  ? 0
                              : r->n_ext < TNY_WIRE_EXT_MAX ? r->n_ext
                                                            : TNY_WIRE_EXT_MAX);
    s->gr.values = s->ext_p;
    /* The game's member of GameResult's oneof (its case is its number). */
    f = protobuf_c_message_descriptor_get_field_by_name(s->gr.base.descriptor,
                                                        game_member(r->game));
    if (!f)
        return;
    protobuf_c_message_init(f->descriptor, &s->game);
    game_to_pb(r, &s->game.nh.base, s);
    SET(&s->gr, f->offset, void *) = &s->game;
    s->gr.game_case = (Tourney__V1__GameResult__GameCase)f->id;
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

/* GameResult.values onto the table: each a key the event's game
 * declares of its own (result_schema.h struct tny_result_ext), a
 * per-player key's value for each player of the table, a number's or a
 * flag's (0/1) without a player. */
static int ext_to_table(const struct tny_event *ev,
                        const struct tny_table *assigned,
                        const struct tny_wire_result *in, const char *path,
                        struct tny_result *r, struct tny_diag *diag)
{
    struct tny_result_val vals[TNY_RESULT_EXT_MAX];
    char p[WIRE_PATH_MAX];
    int rc;

    memset(vals, 0, sizeof vals);
    for (int32_t i = 0; i < in->n_ext; i++) {
        const struct tny_wire_result_ext *e = &in->ext[i];
        const struct tny_result_ext *x;
        enum tny_result_key k;
        wire__path(p, sizeof p, "%s.values[%d]", path, (int)i);
        if (!tny_result_game_key(ev->format.game, e->key, &k) ||
            !(x = tny_result_ext_of(k)))
            return wire__fail(diag,
                              "%s.key: \"%s\" is not a key of a %s "
                              "result",
                              p, e->key, tny_game_name(ev->format.game));
        struct tny_result_val *v = &vals[TNY_RK_EXT_SLOT(k)];
        const bool per = x->info.value == TNY_RV_PER_PLAYER;
        v->present = true;
        if (per != (e->player_id[0] != '\0'))
            return wire__fail(diag, "%s.player_id: %s for \"%s\"", p,
                              per ? "missing" : "not expected", e->key);
        if (x->info.value == TNY_RV_FLAG && e->value != 0 && e->value != 1)
            return wire__fail(diag, "%s.value: expected 0 or 1 for \"%s\"", p,
                              e->key);
        if (per) {
            int32_t s;
            wire__path(p, sizeof p, "%s.values[%d].player_id", path, (int)i);
            if ((rc = need_seat(ev, assigned, e->player_id, p, &s, diag)) < 0)
                return rc;
            v->has[s] = true;
            v->per[s] = e->value;
        } else {
            v->flag = e->value != 0;
            v->number = e->value;
        }
    }
    for (int32_t slot = 0; slot < TNY_RESULT_EXT_MAX; slot++) {
        const enum tny_result_key k = TNY_RK_EXT(ev->format.game, slot);
        if (!vals[slot].present)
            continue;
        for (int32_t s = 0;
             tny_result_value_every_seat(k) && s < assigned->n_seats; s++)
            if (!vals[slot].has[s])
                return wire__fail(diag, "%s.values: missing \"%s\" of \"%s\"",
                                  path, tny_result_key_name(k),
                                  ev->players[assigned->seats[s]].id);
        tny_result_value_set(r, k, &vals[slot]);
    }
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
    const struct wire_shape *shape = shape_of(in->game);
    bool need_all = shape->need_all(in);
    for (int32_t i = 0; need_all && i < assigned->n_seats; i++)
        if (!seen[i])
            return wire__fail(diag, "%s.players: missing an entry for \"%s\"",
                              p, ev->players[assigned->seats[i]].id);
    n = tny_result_keys(in->game, &keys);
    for (int32_t i = 0; i < n; i++)
        if (!TNY_RK_IS_EXT(keys[i]) && /* GameResult.values: ext_to_table */
            (rc = key_to_table(ev, assigned, in, seats, keys[i], p, r, diag)) <
                0)
            return rc;
    if ((rc = ext_to_table(ev, assigned, in, path, r, diag)) < 0)
        return rc;
    if (shape->complete && (rc = shape->complete(fmt, r, p, diag)) < 0)
        return rc;
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

/* The wire's rules for what a stored result carries (wire.h): the game's
 * (game.h result_omits: a TX-4 decision no scores, clocks or default, a
 * TX-5 default no scores or clocks, an NH draw no winner and no HQ
 * difference). */
static bool wire_omits(enum tny_game game, const struct tny_result *r,
                       enum tny_result_key k)
{
    const struct tny_game_ops *ops = tny_game_shape_of(game);
    return ops && ops->result_omits && ops->result_omits(r, k);
}

/* Seat s's entry in out (added, in the order asked, when new). */
static int entry_of(const struct tny_event *ev, const struct tny_table *t,
                    int32_t s, int32_t *entry, struct tny_wire_result *out,
                    struct tny_diag *diag)
{
    int rc;
    if (entry[s] >= 0)
        return TNY_OK;
    if ((rc = copy_id(out->players[out->n_players].player_id, ev, t->seats[s],
                      diag)) < 0)
        return rc;
    entry[s] = out->n_players++;
    return TNY_OK;
}

/* Key k of t's result, converted by its kind (seats -> ids, army indices
 * -> names) into out; entry[s] is seat s's entry in out, -1 when none. */
static int key_from_table(const struct tny_event *ev, const struct tny_table *t,
                          enum tny_result_key k, int32_t *entry,
                          struct tny_wire_result *out, struct tny_diag *diag)
{
    const struct tny_format *fmt = &ev->format;
    const struct tny_result_key_info *info = tny_result_key_info(k);
    char ids[TNY_RESULT_LIST_MAX][TNY_WIRE_ID_MAX + 1];
    struct tny_wire_result_val w;
    struct tny_result_val v;
    int rc;

    tny_result_value_get(&t->result, t->n_seats, k, &v);
    if (!v.present || wire_omits(out->game, &t->result, k))
        return TNY_OK;
    memset(&w, 0, sizeof w);
    w.present = true;
    w.flag = v.flag;
    w.number = v.number;
    switch (info->value) {
    case TNY_RV_FLAG:
    case TNY_RV_NUMBER: break;
    case TNY_RV_PLAYER:
        if (v.seat >= t->n_seats)
            return TNY_OK;
        if ((rc = copy_id(ids[0], ev, t->seats[v.seat], diag)) < 0)
            return rc;
        w.id = ids[0];
        break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY:
        for (int32_t s = 0; s < t->n_seats; s++) {
            if (!v.has[s])
                continue;
            if (info->value == TNY_RV_ARMY && v.per[s] >= fmt->n_armies)
                return wire__fail(diag, "result: army %d out of the format",
                                  (int)v.per[s]);
            if ((rc = entry_of(ev, t, s, entry, out, diag)) < 0)
                return rc;
            w.has[entry[s]] = true;
            w.per[entry[s]] = v.per[s];
            if (info->value == TNY_RV_ARMY)
                w.army[entry[s]] = fmt->armies[v.per[s]];
        }
        break;
    case TNY_RV_PLAYERS:
        for (int32_t g = 0; g < v.n && g < TNY_RESULT_LIST_MAX; g++) {
            if (v.seats[g] < 0 || v.seats[g] >= t->n_seats)
                return wire__fail(diag, "result: game %d has no winner",
                                  (int)g);
            if ((rc = copy_id(ids[g], ev, t->seats[v.seats[g]], diag)) < 0)
                return rc;
            w.items[w.n++] = ids[g];
        }
        break;
    case TNY_RV_TEXTS:
        for (int32_t i = 0; i < v.n; i++)
            w.items[w.n++] = v.texts[i];
        break;
    }
    tny_wire_result_value_set(out, k, &w);
    return TNY_OK;
}

/* The event's game module's own keys t's result has, in the game's key
 * order, into GameResult.values (a per-player key: one value per seat). */
static int ext_from_table(const struct tny_event *ev, const struct tny_table *t,
                          struct tny_wire_result *out, struct tny_diag *diag)
{
    const enum tny_result_key *keys;
    const int32_t n = tny_result_keys(ev->format.game, &keys);
    int rc;

    for (int32_t i = 0; i < n; i++) {
        const struct tny_result_ext *x = tny_result_ext_of(keys[i]);
        struct tny_result_val v;
        if (!x)
            continue;
        tny_result_value_get(&t->result, t->n_seats, keys[i], &v);
        const bool per = x->info.value == TNY_RV_PER_PLAYER;
        for (int32_t s = 0; v.present && s < (per ? t->n_seats : 1); s++) {
            struct tny_wire_result_ext *e = &out->ext[out->n_ext];
            if (out->n_ext >= TNY_WIRE_EXT_MAX)
                return wire__fail(diag, "result: more than %d values",
                                  TNY_WIRE_EXT_MAX);
            snprintf(e->key, sizeof e->key, "%s", x->info.name);
            if (per && (rc = copy_id(e->player_id, ev, t->seats[s], diag)) < 0)
                return rc;
            e->value = per                            ? v.per[s]
                       : x->info.value == TNY_RV_FLAG ? (int64_t)v.flag
                                                      : v.number;
            out->n_ext++;
        }
    }
    return TNY_OK;
}

int tny_wire_result_from_table(const struct tny_event *ev,
                               const struct tny_table *t,
                               struct tny_wire_result *out,
                               struct tny_diag *diag)
{
    const enum tny_result_key *keys;
    int32_t entry[TNY_MAX_SEATS] = {-1, -1, -1, -1};
    int32_t n;
    int rc = TNY_OK;

    _Static_assert(TNY_MAX_SEATS == 4, "entry[]'s initialiser");
    memset(out, 0, sizeof *out);
    if (!t->has_result || t->is_bye || t->n_seats < 2 ||
        t->n_seats > TNY_MAX_SEATS)
        return wire__fail(diag, "result: table %d has no result",
                          (int)t->number);
    out->game = tny_game_flow(ev->format.game); /* the result shape (game.h) */
    /* A Tantrix result lists every player (its penalties, TX-7). */
    for (int32_t s = 0; shape_of(out->game)->every_player && s < t->n_seats;
         s++)
        if ((rc = entry_of(ev, t, s, entry, out, diag)) < 0)
            return rc;
    n = tny_result_keys(out->game, &keys);
    for (int32_t i = 0; i < n; i++)
        if ((rc = key_from_table(ev, t, keys[i], entry, out, diag)) < 0)
            return rc;
    if ((rc = ext_from_table(ev, t, out, diag)) < 0)
        return rc;
    return wire__result_check(out, "result", diag);
}
