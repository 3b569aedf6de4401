/* wire_console.c - the console protocol: ConsoleRequest and ConsoleReply
 * (proto/console.proto).
 *
 * Not here: what a command does (the hub's command table), permissions
 * (the hub checks organiser_id against its logins), MQTT.
 *
 * Invariants: every decode unpacks, copies, checks and frees the protobuf
 * in the same function; request_check() states once which arguments each
 * command needs, for encode and decode alike.  Heap strings of a decoded
 * request or reply belong to the struct (released by the _release
 * functions); an encode only borrows them.
 */
#include "wire_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef Tourney__V1__ConsoleRequest__CommandCase pb_case;

/* Each command's description (console_cmds.h) with its oneof member, in
 * enum tny_wire_cmd order. */
static const struct {
    struct tny_wire_cmd_info info;
    pb_case pc;
} cmds[TNY_WIRE_CMD_COUNT_] = {
#define W(n, ID, ev, inp, fields, reply, ...)                                  \
    [TNY_WIRE_CMD_##ID] = {{#n, ev, inp, fields, reply},                       \
                           TOURNEY__V1__CONSOLE_REQUEST__COMMAND_##ID},
#define L(...)
    TNY_CONSOLE_COMMANDS(W, L)
#undef W
#undef L
};

/* Bytes of the import's CSV (csv_len, or up to the NUL before encode). */
static size_t csv_size(const struct tny_wire_request *q)
{
    return q->csv_len ? q->csv_len : strlen(q->csv);
}

static bool cmd_valid(enum tny_wire_cmd c)
{
    return (int)c >= 1 && (int)c < TNY_WIRE_CMD_COUNT_;
}

const char *tny_wire_cmd_name(enum tny_wire_cmd cmd)
{
    return cmd_valid(cmd) ? cmds[cmd].info.name : "?";
}

const struct tny_wire_cmd_info *tny_wire_cmd_info(enum tny_wire_cmd cmd)
{
    return cmd_valid(cmd) ? &cmds[cmd].info : NULL;
}

/* Wire name of the request's `round` argument for a command. */
static const char *round_key(enum tny_wire_cmd c)
{
    switch (c) {
    case TNY_WIRE_CMD_DROP_PLAYER:
    case TNY_WIRE_CMD_DISQUALIFY_PLAYER:
    case TNY_WIRE_CMD_GET_STANDINGS: return "after_round";
    case TNY_WIRE_CMD_REJOIN_PLAYER: return "from_round";
    default: return "round";
    }
}

static const char req_root[] = "console_request";

void tny_wire_request_release(struct tny_wire_request *req)
{
    free(req->format_json);
    free(req->event_json);
    free(req->options_json);
    free(req->csv);
    free(req->decklist);
    memset(req, 0, sizeof *req);
}

/* ---- the rules of each command ------------------------------------------ */

static int player_check(const struct tny_wire_player *pl, const char *p,
                        struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (!pl->id[0] && !pl->name[0])
        return wire__fail(diag, "%s: missing", p);
    wire__path(fp, sizeof fp, "%s.id", p);
    if ((rc = wire__check_id(pl->id, true, fp, diag)) < 0)
        return rc;
#define TEXT(field, req)                                                       \
    do {                                                                       \
        wire__path(fp, sizeof fp, "%s." #field, p);                            \
        if ((rc = wire__check_text(pl->field, WIRE_TEXT_LINE, req, fp,         \
                                   diag)) < 0)                                 \
            return rc;                                                         \
    } while (0)
    TEXT(name, true);
    TEXT(club, false);
    TEXT(country, false);
    TEXT(external_id, false);
    TEXT(faction, false);
    TEXT(agenda, false);
#undef TEXT
    wire__path(fp, sizeof fp, "%s.rating", p);
    if (pl->has_rating && !(isfinite(pl->rating) && fabs(pl->rating) <= 1e6))
        return wire__fail(diag, "%s: expected a number -1000000..1000000", fp);
    if (pl->n_armies < 0 || pl->n_armies > TNY_MAX_ARMIES)
        return wire__fail(diag,
                          "%s.armies: expected at most %d entries, got "
                          "%d",
                          p, TNY_MAX_ARMIES, (int)pl->n_armies);
    for (int32_t i = 0; i < pl->n_armies; i++) {
        wire__path(fp, sizeof fp, "%s.armies[%d]", p, (int)i);
        if ((rc = wire__check_text(pl->armies[i], WIRE_TEXT_LINE, true, fp,
                                   diag)) < 0)
            return rc;
    }
    if (pl->n_colours < 0 || pl->n_colours > 2)
        return wire__fail(diag,
                          "%s.colours: expected at most 2 entries, got "
                          "%d",
                          p, (int)pl->n_colours);
    for (int32_t i = 0; i < pl->n_colours; i++) {
        wire__path(fp, sizeof fp, "%s.colours[%d]", p, (int)i);
        if ((rc = wire__check_text(pl->colours[i], WIRE_TEXT_LINE, true, fp,
                                   diag)) < 0)
            return rc;
    }
    wire__path(fp, sizeof fp, "%s.first_round", p);
    return wire__check_range(pl->first_round, 0, WIRE_MAX_ROUND, fp, diag);
}

static int request_check(const struct tny_wire_request *q,
                         struct tny_diag *diag)
{
    const char *r = req_root;
    char p[WIRE_PATH_MAX], c[WIRE_PATH_MAX];
    int rc;

    wire__path(p, sizeof p, "%s.correlation_id", r);
    if ((rc = wire__check_id(q->correlation_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.organiser_id", r);
    if ((rc = wire__check_id(q->organiser_id, true, p, diag)) < 0)
        return rc;
    if (!cmd_valid(q->cmd))
        return wire__fail(diag, "%s.command: missing (unknown command %d)", r,
                          (int)q->cmd);
    const enum tny_wire_cmd cmd = q->cmd;
    bool need_event = cmds[cmd].info.event == TNY_CMD_EV_NEW ||
                      cmds[cmd].info.event == TNY_CMD_EV_EXISTING;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(q->event_id, need_event, p, diag)) < 0)
        return rc;
    wire__path(c, sizeof c, "%s.%s", r, cmds[cmd].info.name);

/* Checks of the command's own arguments, named by their wire fields. */
#define ID(field, key)                                                         \
    do {                                                                       \
        wire__path(p, sizeof p, "%s.%s", c, key);                              \
        if ((rc = wire__check_id(q->field, true, p, diag)) < 0)                \
            return rc;                                                         \
    } while (0)
#define RANGE(field, key, lo, hi)                                              \
    do {                                                                       \
        wire__path(p, sizeof p, "%s.%s", c, key);                              \
        if ((rc = wire__check_range(q->field, lo, hi, p, diag)) < 0)           \
            return rc;                                                         \
    } while (0)
#define REASON()                                                               \
    do {                                                                       \
        wire__path(p, sizeof p, "%s.reason", c);                               \
        if ((rc = wire__check_text(q->reason, WIRE_TEXT_MULTI, false, p,       \
                                   diag)) < 0)                                 \
            return rc;                                                         \
    } while (0)
    switch (cmd) {
    case TNY_WIRE_CMD_CREATE_EVENT:
        if (q->event_json) {
            if (q->preset[0] || q->format_json || q->options_json ||
                q->title[0] || q->has_seed || q->language[0])
                return wire__fail(diag,
                                  "%s: event_json excludes preset, "
                                  "format_json, title, seed, language and "
                                  "options_json (the event file holds them)",
                                  c);
            wire__path(p, sizeof p, "%s.event_json", c);
            return wire__check_text(q->event_json, WIRE_TEXT_MULTI, true, p,
                                    diag);
        }
        if (q->preset[0] && q->format_json)
            return wire__fail(diag,
                              "%s: preset and format_json exclude each "
                              "other",
                              c);
        if (q->preset[0]) {
            wire__path(p, sizeof p, "%s.preset", c);
            rc = wire__check_text(q->preset, WIRE_TEXT_LINE, true, p, diag);
        } else if (q->format_json) {
            wire__path(p, sizeof p, "%s.format_json", c);
            rc = wire__check_text(q->format_json, WIRE_TEXT_MULTI, true, p,
                                  diag);
        } else {
            rc = wire__fail(diag, "%s.preset: missing (or format_json)", c);
        }
        if (rc < 0)
            return rc;
        wire__path(p, sizeof p, "%s.title", c);
        if ((rc = wire__check_text(q->title, WIRE_TEXT_LINE, false, p, diag)) <
            0)
            return rc;
        wire__path(p, sizeof p, "%s.options_json", c);
        return wire__check_text(q->options_json, WIRE_TEXT_MULTI, false, p,
                                diag);
    case TNY_WIRE_CMD_IMPORT_PLAYERS:
        /* Bytes: the hub's CSV reader checks all csv_len of them and
         * answers with the line, column and advice (a NUL, a Windows code
         * page instead of UTF-8, a control character in a field: issue
         * 22 item 3), which a check here could not say. */
        wire__path(p, sizeof p, "%s.csv", c);
        return q->csv && csv_size(q) > 0 ? TNY_OK
                                         : wire__fail(diag, "%s: missing", p);
    case TNY_WIRE_CMD_REGISTER_PLAYER:
        wire__path(p, sizeof p, "%s.player", c);
        if ((rc = player_check(&q->player, p, diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.decklist", c);
        if (q->decklist && strlen(q->decklist) > TNY_WIRE_DECKLIST_MAX)
            return wire__fail(diag, "%s: longer than %d bytes", p,
                              TNY_WIRE_DECKLIST_MAX);
        return wire__check_text(q->decklist, WIRE_TEXT_MULTI, false, p, diag);
    case TNY_WIRE_CMD_DECLARE_ARMIES:
        ID(player_id, "player_id");
        if (q->player.n_armies < 1 || q->player.n_armies > TNY_MAX_ARMIES)
            return wire__fail(diag, "%s.armies: expected 1..%d names", c,
                              TNY_MAX_ARMIES);
        for (int32_t i = 0; i < q->player.n_armies; i++) {
            wire__path(p, sizeof p, "%s.armies[%d]", c, (int)i);
            if ((rc = wire__check_text(q->player.armies[i], WIRE_TEXT_LINE,
                                       true, p, diag)) < 0)
                return rc;
        }
        return TNY_OK;
    case TNY_WIRE_CMD_DROP_PLAYER:
    case TNY_WIRE_CMD_DISQUALIFY_PLAYER:
    case TNY_WIRE_CMD_REJOIN_PLAYER:
        ID(player_id, "player_id");
        RANGE(round, round_key(cmd), 0, WIRE_MAX_ROUND);
        if (cmd != TNY_WIRE_CMD_REJOIN_PLAYER)
            REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_PAIR_ROUND:
    case TNY_WIRE_CMD_SHOW_DRAFT:
    case TNY_WIRE_CMD_GET_STANDINGS:
        RANGE(round, round_key(cmd), 0, WIRE_MAX_ROUND);
        return TNY_OK;
    case TNY_WIRE_CMD_PUBLISH_ROUND:
    case TNY_WIRE_CMD_CLOSE_ROUND:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        return TNY_OK;
    case TNY_WIRE_CMD_SWAP_PLAYERS:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        ID(player_id, "player_a");
        ID(other_player_id, "player_b");
        if (strcmp(q->player_id, q->other_player_id) == 0)
            return wire__fail(diag, "%s: a player cannot swap with themself",
                              p);
        return TNY_OK;
    case TNY_WIRE_CMD_MOVE_TABLE:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        RANGE(to_table, "to_table", 1, WIRE_MAX_TABLE);
        if (q->table == q->to_table)
            return wire__fail(diag, "%s: same as table", p);
        return TNY_OK;
    case TNY_WIRE_CMD_FIX_TABLE:
        ID(player_id, "player_id");
        RANGE(table, "table", 0, WIRE_MAX_TABLE);
        return TNY_OK;
    case TNY_WIRE_CMD_CLOCK_START:
    case TNY_WIRE_CMD_CLOCK_PAUSE:
    case TNY_WIRE_CMD_CLOCK_RESUME:
    case TNY_WIRE_CMD_CLOCK_EXTEND:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 0, WIRE_MAX_TABLE);
        REASON(); /* a judge's call, an extension taken back (issue 22) */
        if (cmd == TNY_WIRE_CMD_CLOCK_EXTEND) {
            /* Negative: an extension taken back (issue 22). */
            RANGE(extra_ms, "extra_ms", -TNY_CLOCK_MAX_MS, TNY_CLOCK_MAX_MS);
            if (q->extra_ms == 0)
                return wire__fail(diag,
                                  "%s: expected a time other "
                                  "than 0",
                                  p);
        }
        return TNY_OK;
    case TNY_WIRE_CMD_ENTER_RESULT:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        REASON();
        wire__path(p, sizeof p, "%s.result", c);
        return wire__result_check(&q->result, p, diag);
    case TNY_WIRE_CMD_PENALTY:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        ID(player_id, "player_id");
        RANGE(points_units, "points_units", 1, WIRE_MAX_TP_UNITS);
        REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_ASSIGN_DEVICE:
        ID(device_id, "device_id");
        RANGE(table, "table", 0, WIRE_MAX_TABLE);
        return TNY_OK;
    case TNY_WIRE_CMD_IDENTIFY_DEVICE:
        ID(device_id, "device_id");
        return TNY_OK;
    case TNY_WIRE_CMD_ISSUE_CODE:
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        return TNY_OK;
    case TNY_WIRE_CMD_REVOKE_CODE: ID(code, "code"); return TNY_OK;
    case TNY_WIRE_CMD_ISSUE_PLAYER_CODE: /* "" = every player */
        wire__path(p, sizeof p, "%s.player_id", c);
        return wire__check_id(q->player_id, false, p, diag);
    case TNY_WIRE_CMD_DROP_NO_SHOWS: REASON(); return TNY_OK;
    case TNY_WIRE_CMD_DROP_REQUESTS:
    case TNY_WIRE_CMD_LIST_CHECKINS: return TNY_OK;
    case TNY_WIRE_CMD_CLOCK_DRAFT:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        return TNY_OK;
    case TNY_WIRE_CMD_NEXT_STAGE:
        if (!q->confirm)
            return wire__fail(diag, "%s.confirm: must be true", c);
        return TNY_OK;
    case TNY_WIRE_CMD_DISCARD_DRAFT:
        RANGE(round, "round", 0, WIRE_MAX_ROUND);
        REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_DELETE_EVENT: REASON(); return TNY_OK;
    case TNY_WIRE_CMD_UNPUBLISH_ROUND:
    case TNY_WIRE_CMD_REOPEN_ROUND:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_EDIT_PLAYER:
        ID(player_id, "player_id");
        wire__path(p, sizeof p, "%s.name", c);
        if ((rc = wire__check_text(q->player.name, WIRE_TEXT_LINE, false, p,
                                   diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.club", c);
        if ((rc = wire__check_text(q->player.club, WIRE_TEXT_LINE, false, p,
                                   diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.country", c);
        if ((rc = wire__check_text(q->player.country, WIRE_TEXT_LINE, false, p,
                                   diag)) < 0)
            return rc;
        if (!q->player.name[0] && !q->set_club && !q->set_country)
            return wire__fail(diag,
                              "%s: nothing to change (name, club or "
                              "country)",
                              c);
        REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_SHOW_RESULTS:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 0, WIRE_MAX_TABLE);
        return TNY_OK;
    case TNY_WIRE_CMD_RESOLVE_CONFLICT:
        RANGE(round, "round", 1, WIRE_MAX_ROUND);
        RANGE(table, "table", 1, WIRE_MAX_TABLE);
        RANGE(result_id, "keep", 1, INT64_MAX);
        REASON();
        return TNY_OK;
    case TNY_WIRE_CMD_READ_LOG:
        RANGE(after_seq, "after_seq", 0, INT64_MAX);
        return TNY_OK;
    case TNY_WIRE_CMD_EXPORT_EVENT:
    case TNY_WIRE_CMD_LIST_DEVICES:
    case TNY_WIRE_CMD_LIST_EVENTS:
    case TNY_WIRE_CMD_LIST_CODES:
    case TNY_WIRE_CMD_NONE_:
    case TNY_WIRE_CMD_COUNT_: return TNY_OK;
    }
#undef ID
#undef RANGE
#undef REASON
    return TNY_OK;
}

/* ---- decode -------------------------------------------------------------- */

static int player_from_pb(const Tourney__V1__PlayerEntry *m, const char *p,
                          struct tny_wire_player *pl, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    if (!m)
        return wire__fail(diag, "%s: missing", p);
#define COPY(field)                                                            \
    do {                                                                       \
        wire__path(fp, sizeof fp, "%s." #field, p);                            \
        if ((rc = wire__copy(pl->field, sizeof pl->field, m->field, fp,        \
                             diag)) < 0)                                       \
            return rc;                                                         \
    } while (0)
    COPY(id);
    COPY(name);
    COPY(club);
    COPY(country);
    COPY(external_id);
    COPY(faction);
    COPY(agenda);
#undef COPY
    pl->has_rating = m->has_rating;
    pl->rating = m->has_rating ? m->rating : 0.0;
    pl->beginner = m->has_beginner && m->beginner;
    pl->colour_blind = m->has_colour_blind && m->colour_blind;
    pl->hook = m->has_hook && m->hook;
    wire__path(fp, sizeof fp, "%s.armies", p);
    if (m->n_armies > TNY_MAX_ARMIES)
        return wire__fail(diag, "%s: expected at most %d entries, got %zu", fp,
                          TNY_MAX_ARMIES, m->n_armies);
    for (size_t i = 0; i < m->n_armies; i++) {
        wire__path(fp, sizeof fp, "%s.armies[%zu]", p, i);
        if ((rc = wire__copy(pl->armies[i], TNY_NAME_MAX, m->armies[i], fp,
                             diag)) < 0)
            return rc;
    }
    pl->n_armies = (int32_t)m->n_armies;
    wire__path(fp, sizeof fp, "%s.colours", p);
    if (m->n_colours > 2)
        return wire__fail(diag, "%s: expected at most 2 entries, got %zu", fp,
                          m->n_colours);
    for (size_t i = 0; i < m->n_colours; i++) {
        wire__path(fp, sizeof fp, "%s.colours[%zu]", p, i);
        if ((rc = wire__copy(pl->colours[i], TNY_NAME_MAX, m->colours[i], fp,
                             diag)) < 0)
            return rc;
    }
    pl->n_colours = (int32_t)m->n_colours;
    wire__path(fp, sizeof fp, "%s.first_round", p);
    return wire__u32(m->has_first_round, m->first_round, false, fp,
                     &pl->first_round, diag);
}

/* Copies a command's uint32 argument (wire name key) into *out. */
static int arg_u32(const char *c, const char *key, protobuf_c_boolean has,
                   uint32_t v, int32_t *out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    wire__path(p, sizeof p, "%s.%s", c, key);
    return wire__u32(has, v, false, p, out, diag);
}

static int arg_str(const char *c, const char *key, char *dst, size_t cap,
                   const char *src, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    wire__path(p, sizeof p, "%s.%s", c, key);
    return wire__copy(dst, cap, src, p, diag);
}

#define U32(msg, key, dst)                                                     \
    arg_u32(c, #key, (msg)->has_##key, (msg)->key, &q->dst, diag)
#define STR(msg, key, dst)                                                     \
    arg_str(c, #key, q->dst, sizeof q->dst, (msg)->key, diag)

static int command_from_pb(const Tourney__V1__ConsoleRequest *m,
                           struct tny_wire_request *q, const char *c,
                           struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc = TNY_OK;
    switch (q->cmd) {
    case TNY_WIRE_CMD_CREATE_EVENT: {
        const Tourney__V1__CreateEvent *x = m->create_event;
        if (x->format_case == TOURNEY__V1__CREATE_EVENT__FORMAT_PRESET)
            rc = STR(x, preset, preset);
        else if (x->format_case ==
                 TOURNEY__V1__CREATE_EVENT__FORMAT_FORMAT_JSON)
            rc = wire__dup(&q->format_json, x->format_json, diag);
        else if (x->format_case == TOURNEY__V1__CREATE_EVENT__FORMAT_EVENT_JSON)
            rc = wire__dup(&q->event_json, x->event_json, diag);
        if (rc == TNY_OK)
            rc = STR(x, title, title);
        if (rc == TNY_OK)
            rc = STR(x, language, language);
        q->has_seed = x->has_seed;
        q->seed = x->has_seed ? x->seed : 0;
        if (rc == TNY_OK)
            rc = wire__dup(&q->options_json, x->options_json, diag);
        return rc;
    }
    case TNY_WIRE_CMD_IMPORT_PLAYERS: {
        const ProtobufCBinaryData *b = &m->import_players->csv;
        if (!m->import_players->has_csv)
            return TNY_OK;
        if (!(q->csv = malloc(b->len + 1)))
            return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        if (b->len)
            memcpy(q->csv, b->data, b->len);
        q->csv[b->len] = '\0';
        /* Canonical: 0 unless a NUL byte hides the rest from strlen. */
        q->csv_len = strlen(q->csv) == b->len ? 0 : b->len;
        return TNY_OK;
    }
    case TNY_WIRE_CMD_REGISTER_PLAYER:
        wire__path(p, sizeof p, "%s.player", c);
        if ((rc = player_from_pb(m->register_player->player, p, &q->player,
                                 diag)) < 0)
            return rc;
        return wire__dup(&q->decklist, m->register_player->decklist, diag);
    case TNY_WIRE_CMD_DROP_PLAYER:
        if ((rc = STR(m->drop_player, player_id, player_id)) < 0 ||
            (rc = STR(m->drop_player, reason, reason)) < 0)
            return rc;
        return U32(m->drop_player, after_round, round);
    case TNY_WIRE_CMD_DISQUALIFY_PLAYER: {
        const Tourney__V1__DisqualifyPlayer *x = m->disqualify_player;
        if ((rc = STR(x, player_id, player_id)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        return U32(x, after_round, round);
    }
    case TNY_WIRE_CMD_DECLARE_ARMIES: {
        const Tourney__V1__DeclareArmies *x = m->declare_armies;
        if ((rc = STR(x, player_id, player_id)) < 0)
            return rc;
        if (x->n_armies > TNY_MAX_ARMIES)
            return wire__fail(diag, "%s.armies: expected at most %d names", c,
                              TNY_MAX_ARMIES);
        for (size_t i = 0; i < x->n_armies; i++) {
            wire__path(p, sizeof p, "%s.armies[%zu]", c, i);
            if ((rc =
                     wire__copy(q->player.armies[i], sizeof q->player.armies[i],
                                x->armies[i], p, diag)) < 0)
                return rc;
        }
        q->player.n_armies = (int32_t)x->n_armies;
        return TNY_OK;
    }
    case TNY_WIRE_CMD_REJOIN_PLAYER:
        if ((rc = STR(m->rejoin_player, player_id, player_id)) < 0)
            return rc;
        return U32(m->rejoin_player, from_round, round);
    case TNY_WIRE_CMD_PAIR_ROUND: return U32(m->pair_round, round, round);
    case TNY_WIRE_CMD_SHOW_DRAFT: return U32(m->show_draft, round, round);
    case TNY_WIRE_CMD_PUBLISH_ROUND: return U32(m->publish_round, round, round);
    case TNY_WIRE_CMD_CLOSE_ROUND: return U32(m->close_round, round, round);
    case TNY_WIRE_CMD_GET_STANDINGS:
        return U32(m->get_standings, after_round, round);
    case TNY_WIRE_CMD_SWAP_PLAYERS: {
        const Tourney__V1__SwapPlayers *x = m->swap_players;
        if ((rc = STR(x, player_a, player_id)) < 0 ||
            (rc = STR(x, player_b, other_player_id)) < 0)
            return rc;
        q->force = x->has_force && x->force;
        return U32(x, round, round);
    }
    case TNY_WIRE_CMD_MOVE_TABLE: {
        const Tourney__V1__MoveTable *x = m->move_table;
        if ((rc = U32(x, round, round)) < 0 || (rc = U32(x, table, table)) < 0)
            return rc;
        q->force = x->has_force && x->force;
        return U32(x, to_table, to_table);
    }
    case TNY_WIRE_CMD_FIX_TABLE:
        if ((rc = STR(m->fix_table, player_id, player_id)) < 0)
            return rc;
        q->force = m->fix_table->has_force && m->fix_table->force;
        return U32(m->fix_table, table, table);
    case TNY_WIRE_CMD_CLOCK_START:
    case TNY_WIRE_CMD_CLOCK_PAUSE:
    case TNY_WIRE_CMD_CLOCK_RESUME:
    case TNY_WIRE_CMD_CLOCK_DRAFT: {
        const Tourney__V1__ClockTarget *x =
            q->cmd == TNY_WIRE_CMD_CLOCK_START   ? m->clock_start
            : q->cmd == TNY_WIRE_CMD_CLOCK_PAUSE ? m->clock_pause
            : q->cmd == TNY_WIRE_CMD_CLOCK_DRAFT ? m->clock_draft
                                                 : m->clock_resume;
        if ((rc = U32(x, round, round)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        return U32(x, table, table);
    }
    case TNY_WIRE_CMD_CLOCK_EXTEND: {
        const Tourney__V1__ClockExtend *x = m->clock_extend;
        if ((rc = U32(x, round, round)) < 0 ||
            (rc = U32(x, table, table)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.extra_ms", c);
        q->extra_ms = x->extra_ms;
        return wire__need(x->has_extra_ms, p, diag);
    }
    case TNY_WIRE_CMD_ENTER_RESULT: {
        const Tourney__V1__EnterResult *x = m->enter_result;
        if ((rc = U32(x, round, round)) < 0 ||
            (rc = U32(x, table, table)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        q->override = x->has_override && x->override;
        wire__path(p, sizeof p, "%s.result", c);
        return wire__result_from_pb(x->result, p, &q->result, diag);
    }
    case TNY_WIRE_CMD_PENALTY: {
        const Tourney__V1__Penalty *x = m->penalty;
        if ((rc = U32(x, round, round)) < 0 ||
            (rc = U32(x, table, table)) < 0 ||
            (rc = STR(x, player_id, player_id)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.points_units", c);
        q->points_units = x->points_units;
        return wire__need(x->has_points_units, p, diag);
    }
    case TNY_WIRE_CMD_ASSIGN_DEVICE:
        if ((rc = STR(m->assign_device, device_id, device_id)) < 0)
            return rc;
        return U32(m->assign_device, table, table);
    case TNY_WIRE_CMD_IDENTIFY_DEVICE:
        return STR(m->identify_device, device_id, device_id);
    case TNY_WIRE_CMD_ISSUE_CODE: return U32(m->issue_code, table, table);
    case TNY_WIRE_CMD_REVOKE_CODE: return STR(m->revoke_code, code, code);
    case TNY_WIRE_CMD_ISSUE_PLAYER_CODE:
        return STR(m->issue_player_code, player_id, player_id);
    case TNY_WIRE_CMD_DROP_NO_SHOWS:
        return STR(m->drop_no_shows, reason, reason);
    case TNY_WIRE_CMD_DROP_REQUESTS:
        q->confirm = m->drop_requests->has_confirm && m->drop_requests->confirm;
        return TNY_OK;
    case TNY_WIRE_CMD_LIST_CHECKINS: return TNY_OK;
    case TNY_WIRE_CMD_NEXT_STAGE:
        q->confirm = m->next_stage->has_confirm && m->next_stage->confirm;
        return TNY_OK;
    case TNY_WIRE_CMD_DISCARD_DRAFT:
        if ((rc = STR(m->discard_draft, reason, reason)) < 0)
            return rc;
        return U32(m->discard_draft, round, round);
    case TNY_WIRE_CMD_DELETE_EVENT: return STR(m->delete_event, reason, reason);
    case TNY_WIRE_CMD_UNPUBLISH_ROUND:
        if ((rc = STR(m->unpublish_round, reason, reason)) < 0)
            return rc;
        return U32(m->unpublish_round, round, round);
    case TNY_WIRE_CMD_REOPEN_ROUND:
        if ((rc = STR(m->reopen_round, reason, reason)) < 0)
            return rc;
        return U32(m->reopen_round, round, round);
    case TNY_WIRE_CMD_EDIT_PLAYER: {
        const Tourney__V1__EditPlayer *x = m->edit_player;
        if ((rc = STR(x, player_id, player_id)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.name", c);
        if ((rc = wire__copy(q->player.name, sizeof q->player.name, x->name, p,
                             diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.club", c);
        if ((rc = wire__copy(q->player.club, sizeof q->player.club, x->club, p,
                             diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.country", c);
        if ((rc = wire__copy(q->player.country, sizeof q->player.country,
                             x->country, p, diag)) < 0)
            return rc;
        q->set_club = x->club != NULL;
        q->set_country = x->country != NULL;
        return TNY_OK;
    }
    case TNY_WIRE_CMD_SHOW_RESULTS:
        if ((rc = U32(m->show_results, round, round)) < 0)
            return rc;
        return U32(m->show_results, table, table);
    case TNY_WIRE_CMD_RESOLVE_CONFLICT: {
        const Tourney__V1__ResolveConflict *x = m->resolve_conflict;
        if ((rc = U32(x, round, round)) < 0 ||
            (rc = U32(x, table, table)) < 0 ||
            (rc = STR(x, reason, reason)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.keep", c);
        if (x->keep > (uint64_t)INT64_MAX)
            return wire__fail(diag, "%s: out of range", p);
        q->result_id = (int64_t)x->keep;
        return wire__need(x->has_keep, p, diag);
    }
    case TNY_WIRE_CMD_READ_LOG:
        wire__path(p, sizeof p, "%s.after_seq", c);
        if (m->read_log->after_seq > (uint64_t)INT64_MAX)
            return wire__fail(diag, "%s: out of range", p);
        q->after_seq = (int64_t)m->read_log->after_seq;
        return TNY_OK;
    case TNY_WIRE_CMD_EXPORT_EVENT:
    case TNY_WIRE_CMD_LIST_DEVICES:
    case TNY_WIRE_CMD_LIST_EVENTS:
    case TNY_WIRE_CMD_LIST_CODES:
    case TNY_WIRE_CMD_NONE_:
    case TNY_WIRE_CMD_COUNT_: return TNY_OK;
    }
    return TNY_OK;
}

#undef U32
#undef STR

static int request_from_pb(const Tourney__V1__ConsoleRequest *m,
                           struct tny_wire_request *q, struct tny_diag *diag)
{
    const char *r = req_root;
    char p[WIRE_PATH_MAX];
    int rc;
#define COPY(field, required)                                                  \
    do {                                                                       \
        wire__path(p, sizeof p, "%s." #field, r);                              \
        if ((rc = wire__copy_id(q->field, sizeof q->field, m->field, required, \
                                p, diag)) < 0)                                 \
            return rc;                                                         \
    } while (0)
    COPY(correlation_id, true);
    COPY(organiser_id, true);
    COPY(event_id, false); /* required or not by command: request_check */
#undef COPY
    for (int c = 1; c < TNY_WIRE_CMD_COUNT_; c++)
        if (cmds[c].pc == m->command_case)
            q->cmd = (enum tny_wire_cmd)c;
    if (!cmd_valid(q->cmd))
        return wire__fail(diag, "%s.command: missing", r);
    wire__path(p, sizeof p, "%s.%s", r, cmds[q->cmd].info.name);
    return command_from_pb(m, q, p, diag);
}

static void request_release_any(void *out)
{
    tny_wire_request_release(out);
}

static int request_decode_pb(const ProtobufCMessage *m, void *out,
                             struct tny_diag *diag)
{
    int rc = request_from_pb((const Tourney__V1__ConsoleRequest *)m, out, diag);
    return rc == TNY_OK ? request_check(out, diag) : rc;
}

int tny_wire_decode_request(const uint8_t *buf, size_t len,
                            struct tny_wire_request *out, struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__console_request__descriptor, req_root,
                        TNY_WIRE_MAX_CONSOLE_MSG, buf, len, request_decode_pb,
                        request_release_any, out, sizeof *out, diag);
}

bool tny_wire_peek_correlation_id(const uint8_t *buf, size_t len,
                                  char id[TNY_WIRE_ID_MAX + 1])
{
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field_by_name(
            &tourney__v1__console_request__descriptor, "correlation_id");
    return wire__peek_id(buf, len, f->id, id);
}

/* ---- encode -------------------------------------------------------------- */

/* Everything one request's protobuf borrows. */
struct request_pb {
    Tourney__V1__ConsoleRequest m;
    union {
        Tourney__V1__CreateEvent create_event;
        Tourney__V1__ImportPlayers import_players;
        Tourney__V1__RegisterPlayer register_player;
        Tourney__V1__DropPlayer drop_player;
        Tourney__V1__DisqualifyPlayer disqualify_player;
        Tourney__V1__RejoinPlayer rejoin_player;
        Tourney__V1__PairRound pair_round;
        Tourney__V1__ShowDraft show_draft;
        Tourney__V1__SwapPlayers swap_players;
        Tourney__V1__MoveTable move_table;
        Tourney__V1__FixTable fix_table;
        Tourney__V1__PublishRound publish_round;
        Tourney__V1__ClockTarget clock_target;
        Tourney__V1__ClockExtend clock_extend;
        Tourney__V1__EnterResult enter_result;
        Tourney__V1__Penalty penalty;
        Tourney__V1__GetStandings get_standings;
        Tourney__V1__ExportEvent export_event;
        Tourney__V1__ListDevices list_devices;
        Tourney__V1__AssignDevice assign_device;
        Tourney__V1__IssueCode issue_code;
        Tourney__V1__RevokeCode revoke_code;
        Tourney__V1__ListCodes list_codes;
        Tourney__V1__IssuePlayerCode issue_player_code;
        Tourney__V1__ListCheckins list_checkins;
        Tourney__V1__DropNoShows drop_no_shows;
        Tourney__V1__DropRequests drop_requests;
        Tourney__V1__IdentifyDevice identify_device;
        Tourney__V1__CloseRound close_round;
        Tourney__V1__NextStage next_stage;
        Tourney__V1__ListEvents list_events;
        Tourney__V1__DeclareArmies declare_armies;
        Tourney__V1__DiscardDraft discard_draft;
        Tourney__V1__DeleteEvent delete_event;
        Tourney__V1__UnpublishRound unpublish_round;
        Tourney__V1__ReopenRound reopen_round;
        Tourney__V1__EditPlayer edit_player;
        Tourney__V1__ShowResults show_results;
        Tourney__V1__ResolveConflict resolve_conflict;
        Tourney__V1__ReadLog read_log;
    } u;
    Tourney__V1__PlayerEntry player;
    char *armies[TNY_MAX_ARMIES];
    char *colours[2];
    struct wire_result_pb result;
};

static void player_to_pb(const struct tny_wire_player *pl, struct request_pb *s)
{
    Tourney__V1__PlayerEntry *x = &s->player;
    tourney__v1__player_entry__init(x);
    x->id = (char *)pl->id;
    x->name = (char *)pl->name;
    x->club = wire__opt(pl->club);
    x->country = wire__opt(pl->country);
    x->external_id = wire__opt(pl->external_id);
    x->has_rating = pl->has_rating;
    x->rating = pl->has_rating ? pl->rating : 0.0;
    for (int32_t i = 0; i < pl->n_armies; i++)
        s->armies[i] = (char *)pl->armies[i];
    x->n_armies = (size_t)pl->n_armies;
    x->armies = s->armies;
    x->has_beginner = pl->beginner;
    x->beginner = pl->beginner;
    for (int32_t i = 0; i < pl->n_colours; i++)
        s->colours[i] = (char *)pl->colours[i];
    x->n_colours = (size_t)pl->n_colours;
    x->colours = s->colours;
    x->has_colour_blind = pl->colour_blind;
    x->colour_blind = pl->colour_blind;
    x->has_hook = pl->hook;
    x->hook = pl->hook;
    x->faction = wire__opt(pl->faction);
    x->agenda = wire__opt(pl->agenda);
    x->has_first_round = pl->first_round != 0;
    x->first_round = (uint32_t)pl->first_round;
}

/* Optional uint32 argument: sent when non-zero (0 means "not given"). */
#define SET_U32(msg, key, v)                                                   \
    do {                                                                       \
        (msg)->has_##key = (v) != 0;                                           \
        (msg)->key = (uint32_t)(v);                                            \
    } while (0)

static void command_to_pb(const struct tny_wire_request *q,
                          struct request_pb *s)
{
    Tourney__V1__ConsoleRequest *m = &s->m;
    m->command_case = cmds[q->cmd].pc;
    switch (q->cmd) {
    case TNY_WIRE_CMD_CREATE_EVENT: {
        Tourney__V1__CreateEvent *x = &s->u.create_event;
        tourney__v1__create_event__init(x);
        if (q->event_json) {
            x->format_case = TOURNEY__V1__CREATE_EVENT__FORMAT_EVENT_JSON;
            x->event_json = q->event_json;
        } else if (q->preset[0]) {
            x->format_case = TOURNEY__V1__CREATE_EVENT__FORMAT_PRESET;
            x->preset = (char *)q->preset;
        } else {
            x->format_case = TOURNEY__V1__CREATE_EVENT__FORMAT_FORMAT_JSON;
            x->format_json = q->format_json;
        }
        x->title = wire__opt(q->title);
        x->language = wire__opt(q->language);
        x->has_seed = q->has_seed;
        x->seed = q->seed;
        x->options_json = q->options_json;
        m->create_event = x;
        break;
    }
    case TNY_WIRE_CMD_IMPORT_PLAYERS:
        tourney__v1__import_players__init(&s->u.import_players);
        s->u.import_players.has_csv = q->csv != NULL;
        s->u.import_players.csv.data = (uint8_t *)q->csv;
        s->u.import_players.csv.len = q->csv ? csv_size(q) : 0;
        m->import_players = &s->u.import_players;
        break;
    case TNY_WIRE_CMD_REGISTER_PLAYER:
        tourney__v1__register_player__init(&s->u.register_player);
        player_to_pb(&q->player, s);
        s->u.register_player.player = &s->player;
        s->u.register_player.decklist = q->decklist;
        m->register_player = &s->u.register_player;
        break;
    case TNY_WIRE_CMD_DROP_PLAYER:
        tourney__v1__drop_player__init(&s->u.drop_player);
        s->u.drop_player.player_id = (char *)q->player_id;
        SET_U32(&s->u.drop_player, after_round, q->round);
        s->u.drop_player.reason = wire__opt(q->reason);
        m->drop_player = &s->u.drop_player;
        break;
    case TNY_WIRE_CMD_DISQUALIFY_PLAYER:
        tourney__v1__disqualify_player__init(&s->u.disqualify_player);
        s->u.disqualify_player.player_id = (char *)q->player_id;
        SET_U32(&s->u.disqualify_player, after_round, q->round);
        s->u.disqualify_player.reason = wire__opt(q->reason);
        m->disqualify_player = &s->u.disqualify_player;
        break;
    case TNY_WIRE_CMD_DECLARE_ARMIES:
        tourney__v1__declare_armies__init(&s->u.declare_armies);
        s->u.declare_armies.player_id = (char *)q->player_id;
        for (int32_t i = 0; i < q->player.n_armies; i++)
            s->armies[i] = (char *)q->player.armies[i];
        s->u.declare_armies.n_armies = (size_t)q->player.n_armies;
        s->u.declare_armies.armies = s->armies;
        m->declare_armies = &s->u.declare_armies;
        break;
    case TNY_WIRE_CMD_REJOIN_PLAYER:
        tourney__v1__rejoin_player__init(&s->u.rejoin_player);
        s->u.rejoin_player.player_id = (char *)q->player_id;
        SET_U32(&s->u.rejoin_player, from_round, q->round);
        m->rejoin_player = &s->u.rejoin_player;
        break;
    case TNY_WIRE_CMD_PAIR_ROUND:
        tourney__v1__pair_round__init(&s->u.pair_round);
        SET_U32(&s->u.pair_round, round, q->round);
        m->pair_round = &s->u.pair_round;
        break;
    case TNY_WIRE_CMD_SHOW_DRAFT:
        tourney__v1__show_draft__init(&s->u.show_draft);
        SET_U32(&s->u.show_draft, round, q->round);
        m->show_draft = &s->u.show_draft;
        break;
    case TNY_WIRE_CMD_PUBLISH_ROUND:
        tourney__v1__publish_round__init(&s->u.publish_round);
        SET_U32(&s->u.publish_round, round, q->round);
        m->publish_round = &s->u.publish_round;
        break;
    case TNY_WIRE_CMD_CLOSE_ROUND:
        tourney__v1__close_round__init(&s->u.close_round);
        SET_U32(&s->u.close_round, round, q->round);
        m->close_round = &s->u.close_round;
        break;
    case TNY_WIRE_CMD_GET_STANDINGS:
        tourney__v1__get_standings__init(&s->u.get_standings);
        SET_U32(&s->u.get_standings, after_round, q->round);
        m->get_standings = &s->u.get_standings;
        break;
    case TNY_WIRE_CMD_SWAP_PLAYERS:
        tourney__v1__swap_players__init(&s->u.swap_players);
        SET_U32(&s->u.swap_players, round, q->round);
        s->u.swap_players.player_a = (char *)q->player_id;
        s->u.swap_players.player_b = (char *)q->other_player_id;
        s->u.swap_players.has_force = q->force;
        s->u.swap_players.force = q->force;
        m->swap_players = &s->u.swap_players;
        break;
    case TNY_WIRE_CMD_MOVE_TABLE:
        tourney__v1__move_table__init(&s->u.move_table);
        SET_U32(&s->u.move_table, round, q->round);
        SET_U32(&s->u.move_table, table, q->table);
        SET_U32(&s->u.move_table, to_table, q->to_table);
        s->u.move_table.has_force = q->force;
        s->u.move_table.force = q->force;
        m->move_table = &s->u.move_table;
        break;
    case TNY_WIRE_CMD_FIX_TABLE:
        tourney__v1__fix_table__init(&s->u.fix_table);
        s->u.fix_table.player_id = (char *)q->player_id;
        SET_U32(&s->u.fix_table, table, q->table);
        s->u.fix_table.has_force = q->force;
        s->u.fix_table.force = q->force;
        m->fix_table = &s->u.fix_table;
        break;
    case TNY_WIRE_CMD_CLOCK_START:
    case TNY_WIRE_CMD_CLOCK_PAUSE:
    case TNY_WIRE_CMD_CLOCK_RESUME:
    case TNY_WIRE_CMD_CLOCK_DRAFT:
        tourney__v1__clock_target__init(&s->u.clock_target);
        SET_U32(&s->u.clock_target, round, q->round);
        SET_U32(&s->u.clock_target, table, q->table);
        s->u.clock_target.reason = wire__opt(q->reason);
        /* The three members share the union slot of the oneof. */
        m->clock_start = &s->u.clock_target;
        break;
    case TNY_WIRE_CMD_CLOCK_EXTEND:
        tourney__v1__clock_extend__init(&s->u.clock_extend);
        SET_U32(&s->u.clock_extend, round, q->round);
        SET_U32(&s->u.clock_extend, table, q->table);
        s->u.clock_extend.has_extra_ms = true;
        s->u.clock_extend.extra_ms = q->extra_ms;
        s->u.clock_extend.reason = wire__opt(q->reason);
        m->clock_extend = &s->u.clock_extend;
        break;
    case TNY_WIRE_CMD_ENTER_RESULT:
        tourney__v1__enter_result__init(&s->u.enter_result);
        SET_U32(&s->u.enter_result, round, q->round);
        SET_U32(&s->u.enter_result, table, q->table);
        wire__result_to_pb(&q->result, &s->result);
        s->u.enter_result.result = &s->result.gr;
        s->u.enter_result.has_override = q->override;
        s->u.enter_result.override = q->override;
        s->u.enter_result.reason = wire__opt(q->reason);
        m->enter_result = &s->u.enter_result;
        break;
    case TNY_WIRE_CMD_PENALTY:
        tourney__v1__penalty__init(&s->u.penalty);
        SET_U32(&s->u.penalty, round, q->round);
        SET_U32(&s->u.penalty, table, q->table);
        s->u.penalty.player_id = (char *)q->player_id;
        s->u.penalty.has_points_units = true;
        s->u.penalty.points_units = q->points_units;
        s->u.penalty.reason = wire__opt(q->reason);
        m->penalty = &s->u.penalty;
        break;
    case TNY_WIRE_CMD_ASSIGN_DEVICE:
        tourney__v1__assign_device__init(&s->u.assign_device);
        s->u.assign_device.device_id = (char *)q->device_id;
        SET_U32(&s->u.assign_device, table, q->table);
        m->assign_device = &s->u.assign_device;
        break;
    case TNY_WIRE_CMD_IDENTIFY_DEVICE:
        tourney__v1__identify_device__init(&s->u.identify_device);
        s->u.identify_device.device_id = (char *)q->device_id;
        m->identify_device = &s->u.identify_device;
        break;
    case TNY_WIRE_CMD_NEXT_STAGE:
        tourney__v1__next_stage__init(&s->u.next_stage);
        s->u.next_stage.has_confirm = true;
        s->u.next_stage.confirm = q->confirm;
        m->next_stage = &s->u.next_stage;
        break;
    case TNY_WIRE_CMD_EXPORT_EVENT:
        tourney__v1__export_event__init(&s->u.export_event);
        m->export_event = &s->u.export_event;
        break;
    case TNY_WIRE_CMD_LIST_DEVICES:
        tourney__v1__list_devices__init(&s->u.list_devices);
        m->list_devices = &s->u.list_devices;
        break;
    case TNY_WIRE_CMD_LIST_EVENTS:
        tourney__v1__list_events__init(&s->u.list_events);
        m->list_events = &s->u.list_events;
        break;
    case TNY_WIRE_CMD_ISSUE_CODE:
        tourney__v1__issue_code__init(&s->u.issue_code);
        SET_U32(&s->u.issue_code, table, q->table);
        m->issue_code = &s->u.issue_code;
        break;
    case TNY_WIRE_CMD_REVOKE_CODE:
        tourney__v1__revoke_code__init(&s->u.revoke_code);
        s->u.revoke_code.code = (char *)q->code;
        m->revoke_code = &s->u.revoke_code;
        break;
    case TNY_WIRE_CMD_LIST_CODES:
        tourney__v1__list_codes__init(&s->u.list_codes);
        m->list_codes = &s->u.list_codes;
        break;
    case TNY_WIRE_CMD_ISSUE_PLAYER_CODE:
        tourney__v1__issue_player_code__init(&s->u.issue_player_code);
        s->u.issue_player_code.player_id = wire__opt(q->player_id);
        m->issue_player_code = &s->u.issue_player_code;
        break;
    case TNY_WIRE_CMD_LIST_CHECKINS:
        tourney__v1__list_checkins__init(&s->u.list_checkins);
        m->list_checkins = &s->u.list_checkins;
        break;
    case TNY_WIRE_CMD_DROP_NO_SHOWS:
        tourney__v1__drop_no_shows__init(&s->u.drop_no_shows);
        s->u.drop_no_shows.reason = wire__opt(q->reason);
        m->drop_no_shows = &s->u.drop_no_shows;
        break;
    case TNY_WIRE_CMD_DROP_REQUESTS:
        tourney__v1__drop_requests__init(&s->u.drop_requests);
        s->u.drop_requests.has_confirm = q->confirm;
        s->u.drop_requests.confirm = q->confirm;
        m->drop_requests = &s->u.drop_requests;
        break;
    case TNY_WIRE_CMD_DELETE_EVENT:
        tourney__v1__delete_event__init(&s->u.delete_event);
        s->u.delete_event.reason = wire__opt(q->reason);
        m->delete_event = &s->u.delete_event;
        break;
    case TNY_WIRE_CMD_DISCARD_DRAFT:
        tourney__v1__discard_draft__init(&s->u.discard_draft);
        SET_U32(&s->u.discard_draft, round, q->round);
        s->u.discard_draft.reason = wire__opt(q->reason);
        m->discard_draft = &s->u.discard_draft;
        break;
    case TNY_WIRE_CMD_UNPUBLISH_ROUND:
        tourney__v1__unpublish_round__init(&s->u.unpublish_round);
        SET_U32(&s->u.unpublish_round, round, q->round);
        s->u.unpublish_round.reason = wire__opt(q->reason);
        m->unpublish_round = &s->u.unpublish_round;
        break;
    case TNY_WIRE_CMD_REOPEN_ROUND:
        tourney__v1__reopen_round__init(&s->u.reopen_round);
        SET_U32(&s->u.reopen_round, round, q->round);
        s->u.reopen_round.reason = wire__opt(q->reason);
        m->reopen_round = &s->u.reopen_round;
        break;
    case TNY_WIRE_CMD_EDIT_PLAYER:
        tourney__v1__edit_player__init(&s->u.edit_player);
        s->u.edit_player.player_id = (char *)q->player_id;
        s->u.edit_player.name = wire__opt(q->player.name);
        s->u.edit_player.club = q->set_club ? (char *)q->player.club : NULL;
        s->u.edit_player.country =
            q->set_country ? (char *)q->player.country : NULL;
        s->u.edit_player.reason = wire__opt(q->reason);
        m->edit_player = &s->u.edit_player;
        break;
    case TNY_WIRE_CMD_SHOW_RESULTS:
        tourney__v1__show_results__init(&s->u.show_results);
        SET_U32(&s->u.show_results, round, q->round);
        SET_U32(&s->u.show_results, table, q->table);
        m->show_results = &s->u.show_results;
        break;
    case TNY_WIRE_CMD_RESOLVE_CONFLICT:
        tourney__v1__resolve_conflict__init(&s->u.resolve_conflict);
        SET_U32(&s->u.resolve_conflict, round, q->round);
        SET_U32(&s->u.resolve_conflict, table, q->table);
        s->u.resolve_conflict.has_keep = true;
        s->u.resolve_conflict.keep = (uint64_t)q->result_id;
        s->u.resolve_conflict.reason = wire__opt(q->reason);
        m->resolve_conflict = &s->u.resolve_conflict;
        break;
    case TNY_WIRE_CMD_READ_LOG:
        tourney__v1__read_log__init(&s->u.read_log);
        s->u.read_log.has_after_seq = q->after_seq != 0;
        s->u.read_log.after_seq = (uint64_t)q->after_seq;
        m->read_log = &s->u.read_log;
        break;
    case TNY_WIRE_CMD_NONE_:
    case TNY_WIRE_CMD_COUNT_: break;
    }
}

#undef SET_U32

int tny_wire_encode_request(const struct tny_wire_request *in, uint8_t **buf,
                            size_t *len, struct tny_diag *diag)
{
    struct request_pb *s = NULL;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = request_check(in, diag)) < 0)
        goto out;
    /* A few KB of borrowed pointers: the heap, not the caller's stack. */
    s = calloc(1, sizeof *s);
    if (!s) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", req_root);
        goto out;
    }
    tourney__v1__console_request__init(&s->m);
    s->m.correlation_id = (char *)in->correlation_id;
    s->m.organiser_id = (char *)in->organiser_id;
    s->m.event_id = wire__opt(in->event_id);
    command_to_pb(in, s);
    rc = wire__pack(&s->m.base, req_root, TNY_WIRE_MAX_CONSOLE_MSG, buf, len,
                    diag);
out:
    free(s);
    return rc;
}

/* ---- ConsoleReply ----------------------------------------------------------
 */

static const char reply_root[] = "console_reply";

_Static_assert(TNY_ESTORE == -8 && TNY_OK == 0,
               "ConsoleReply.error_code carries -rc (console.proto ErrorCode)");
#define MAX_ERROR_CODE 8

void tny_wire_reply_release(struct tny_wire_reply *rep)
{
    free(rep->json);
    memset(rep, 0, sizeof *rep);
}

static int reply_check(const struct tny_wire_reply *rp, struct tny_diag *diag)
{
    const char *r = reply_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.correlation_id", r);
    if ((rc = wire__check_id(rp->correlation_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.error_code", r);
    if ((rc = wire__check_range(-(int64_t)rp->rc, 0, MAX_ERROR_CODE, p, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.message", r);
    if ((rc = wire__check_text(rp->message, WIRE_TEXT_MULTI, rp->rc != 0, p,
                               diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.json", r);
    if ((rc = wire__check_text(rp->json, WIRE_TEXT_MULTI, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(rp->event_id, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    return wire__check_range(rp->round, 0, WIRE_MAX_ROUND, p, diag);
}

static int reply_from_pb(const Tourney__V1__ConsoleReply *m,
                         struct tny_wire_reply *out, struct tny_diag *diag)
{
    const char *r = reply_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.correlation_id", r);
    if ((rc = wire__copy_id(out->correlation_id, sizeof out->correlation_id,
                            m->correlation_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.ok", r);
    if ((rc = wire__need(m->has_ok, p, diag)) < 0)
        return rc;
    int code = m->has_error_code ? (int)m->error_code : 0;
    wire__path(p, sizeof p, "%s.error_code", r);
    if ((rc = wire__check_range(code, 0, MAX_ERROR_CODE, p, diag)) < 0)
        return rc;
    if (!m->ok != (code != 0))
        return wire__fail(diag, "%s.ok: %s contradicts error_code %d", r,
                          m->ok ? "true" : "false", code);
    out->rc = -code;
    wire__path(p, sizeof p, "%s.message", r);
    if ((rc = wire__copy(out->message, sizeof out->message, m->message, p,
                         diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__copy(out->event_id, sizeof out->event_id, m->event_id, p,
                         diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__u32(m->has_round, m->round, false, p, &out->round, diag)) <
        0)
        return rc;
    out->count = m->has_count ? m->count : 0;
    return wire__dup(&out->json, m->json, diag);
}

int tny_wire_encode_reply(const struct tny_wire_reply *in, uint8_t **buf,
                          size_t *len, struct tny_diag *diag)
{
    Tourney__V1__ConsoleReply m;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = reply_check(in, diag)) < 0)
        return rc;
    tourney__v1__console_reply__init(&m);
    m.correlation_id = (char *)in->correlation_id;
    m.has_ok = true;
    m.ok = in->rc == 0;
    m.has_error_code = in->rc != 0;
    m.error_code = (Tourney__V1__ErrorCode)(-in->rc);
    m.message = wire__opt(in->message);
    m.json = in->json;
    m.event_id = wire__opt(in->event_id);
    m.has_round = in->round != 0;
    m.round = (uint32_t)in->round;
    m.has_count = in->count != 0;
    m.count = in->count;
    return wire__pack(&m.base, reply_root, TNY_WIRE_MAX_CONSOLE_MSG, buf, len,
                      diag);
}

static void reply_release_any(void *out)
{
    tny_wire_reply_release(out);
}

static int reply_decode_pb(const ProtobufCMessage *m, void *out,
                           struct tny_diag *diag)
{
    int rc = reply_from_pb((const Tourney__V1__ConsoleReply *)m, out, diag);
    return rc == TNY_OK ? reply_check(out, diag) : rc;
}

int tny_wire_decode_reply(const uint8_t *buf, size_t len,
                          struct tny_wire_reply *out, struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__console_reply__descriptor, reply_root,
                        TNY_WIRE_MAX_CONSOLE_MSG, buf, len, reply_decode_pb,
                        reply_release_any, out, sizeof *out, diag);
}
