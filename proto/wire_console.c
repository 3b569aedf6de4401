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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef Tourney__V1__ConsoleRequest__CommandCase pb_case;

/* Each command's description (console_cmds.h) with its oneof member, in
 * enum tny_wire_cmd order. */
static const struct {
    struct tny_wire_cmd_info info;
    pb_case pc;
} cmds[TNY_WIRE_CMD_COUNT_] = {
#define W(n, ID, ev, inp, players, fields, reply, records, ...)                \
    [TNY_WIRE_CMD_##                                                           \
        ID] = {{#n, ev, inp, fields, (enum tny_reply_shape)((reply)&0xff),     \
                ((reply)&TNY_REPLY_JSON_LINE) != 0,                            \
                (players) == TNY_CMD_PL_KEPT, records},                        \
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

/* ---- encode -------------------------------------------------------------- */

/* Everything one request's protobuf borrows (the command's message is
 * allocated apart, by its descriptor's size). */
struct request_pb {
    Tourney__V1__ConsoleRequest m;
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

/* ---- the description's fields (issue 18 item 2) ---------------------------
 *
 * The plain fields of the command messages (console.proto), by their wire
 * names: the TNY_WF_* bit a description names one with, where it lives in
 * struct tny_wire_request and its rule.  Checking, decoding and encoding
 * walk the command's message (protobuf-c's descriptor) and this table; a
 * command whose message holds only plain fields needs no code here. */

enum plain_kind {
    K_ID,     /* id, required unless the plain field is optional */
    K_REASON, /* optional multi-line text */
    K_U32,    /* lo..hi; lo 1 when the description sets req */
    K_I64,    /* lo..hi */
    K_FLAG,   /* a boolean */
};

static const struct plain {
    const char *name; /* the field's name in console.proto */
    unsigned wf;      /* the description's bit */
    enum plain_kind kind;
    size_t off, cap; /* the member of struct tny_wire_request */
    int64_t lo, hi;
    unsigned req;  /* K_U32: the bit that makes it >= 1 */
    bool need;     /* K_I64: present on the wire */
    bool not_zero; /* K_I64: 0 is refused */
    bool optional; /* K_ID: "" is allowed (issue 20: every player) */
    /* K_ID, K_U32: refused equal to the member at unlike (why says so);
     * K_FLAG: .req's bit makes it required true. */
    size_t unlike;
    const char *unlike_why;
} plains[] = {
#define P(n, bit, k, m, ...)                                                   \
    {                                                                          \
        .name = n, .wf = bit, .kind = k,                                       \
        .off = offsetof(struct tny_wire_request, m),                           \
        .cap = sizeof(((struct tny_wire_request *)0)->m), __VA_ARGS__          \
    }
    P("player_id", TNY_WF_PLAYER_ID, K_ID, player_id, .lo = 0),
    P("player_a", TNY_WF_PLAYER_ID, K_ID, player_id, .lo = 0),
    P("player_b", TNY_WF_OTHER_PLAYER_ID, K_ID, other_player_id,
      .unlike = offsetof(struct tny_wire_request, player_id),
      .unlike_why = "a player cannot swap with themself"),
    /* Issue 20: one player's code, or none named: every player's. */
    P("only_player_id", TNY_WF_PLAYER_ID, K_ID, player_id, .optional = true),
    P("device_id", TNY_WF_DEVICE_ID, K_ID, device_id, .lo = 0),
    P("code", TNY_WF_CODE, K_ID, code, .lo = 0),
    P("reason", TNY_WF_REASON, K_REASON, reason, .lo = 0),
    P("round", TNY_WF_ROUND, K_U32, round, .hi = WIRE_MAX_ROUND,
      .req = TNY_WF_ROUND_REQ),
    P("after_round", TNY_WF_ROUND, K_U32, round, .hi = WIRE_MAX_ROUND,
      .req = TNY_WF_ROUND_REQ),
    P("from_round", TNY_WF_ROUND, K_U32, round, .hi = WIRE_MAX_ROUND,
      .req = TNY_WF_ROUND_REQ),
    P("table", TNY_WF_TABLE, K_U32, table, .hi = WIRE_MAX_TABLE,
      .req = TNY_WF_TABLE_REQ),
    P("to_table", TNY_WF_TO_TABLE, K_U32, to_table, .lo = 1,
      .hi = WIRE_MAX_TABLE, .unlike = offsetof(struct tny_wire_request, table),
      .unlike_why = "same as table"),
    /* Negative: an extension taken back (issue 22). */
    P("extra_ms", TNY_WF_EXTRA_MS, K_I64, extra_ms, .lo = -TNY_CLOCK_MAX_MS,
      .hi = TNY_CLOCK_MAX_MS, .need = true, .not_zero = true),
    P("points_units", TNY_WF_POINTS, K_I64, points_units, .lo = 1,
      .hi = WIRE_MAX_TP_UNITS, .need = true),
    P("keep", TNY_WF_RESULT_ID, K_I64, result_id, .lo = 1, .hi = INT64_MAX,
      .need = true),
    P("after_seq", TNY_WF_AFTER_SEQ, K_I64, after_seq, .hi = INT64_MAX),
    P("force", TNY_WF_FORCE, K_FLAG, force, .lo = 0),
    P("override", TNY_WF_OVERRIDE, K_FLAG, override, .lo = 0),
    /* Moving to the next stage cannot be undone: it comes confirmed. */
    P("confirm", TNY_WF_CONFIRM, K_FLAG, confirm, .req = TNY_WF_CONFIRM_REQ),
    /* Issue 20: a list, or (true) the organiser's yes to all of it. */
    P("confirm_all", TNY_WF_CONFIRM, K_FLAG, confirm, .lo = 0),
#undef P
};

static const struct plain *plain_named(const char *name)
{
    for (size_t i = 0; i < sizeof plains / sizeof plains[0]; i++)
        if (strcmp(plains[i].name, name) == 0)
            return &plains[i];
    return NULL;
}

/* The wire type a plain field of kind k has in console.proto. */
static bool plain_type_ok(enum plain_kind k, ProtobufCType t)
{
    switch (k) {
    case K_ID:
    case K_REASON: return t == PROTOBUF_C_TYPE_STRING;
    case K_U32: return t == PROTOBUF_C_TYPE_UINT32;
    case K_I64:
        return t == PROTOBUF_C_TYPE_INT64 || t == PROTOBUF_C_TYPE_UINT64;
    case K_FLAG: return t == PROTOBUF_C_TYPE_BOOL;
    }
    return false;
}

/* The command's member of ConsoleRequest's oneof, and its message. */
static const ProtobufCFieldDescriptor *cmd_member(enum tny_wire_cmd cmd)
{
    return protobuf_c_message_descriptor_get_field_by_name(
        &tourney__v1__console_request__descriptor, cmds[cmd].info.name);
}

static const ProtobufCMessageDescriptor *cmd_message(enum tny_wire_cmd cmd)
{
    const ProtobufCFieldDescriptor *f = cmd_member(cmd);
    return f && f->type == PROTOBUF_C_TYPE_MESSAGE ? f->descriptor : NULL;
}

/* The plain field f of cmd's message when the description names it. */
static const struct plain *plain_of(enum tny_wire_cmd cmd,
                                    const ProtobufCFieldDescriptor *f)
{
    const struct plain *pl = plain_named(f->name);
    return pl && (cmds[cmd].info.fields & pl->wf) &&
                   plain_type_ok(pl->kind, f->type)
               ? pl
               : NULL;
}

static int plains_check(const struct tny_wire_request *q, const char *c,
                        struct tny_diag *diag)
{
    const ProtobufCMessageDescriptor *d = cmd_message(q->cmd);
    char p[WIRE_PATH_MAX];
    int rc = TNY_OK;
    for (unsigned i = 0; d && i < d->n_fields && rc == TNY_OK; i++) {
        const struct plain *pl = plain_of(q->cmd, &d->fields[i]);
        if (!pl)
            continue;
        const char *at = (const char *)q + pl->off;
        wire__path(p, sizeof p, "%s.%s", c, pl->name);
        switch (pl->kind) {
        case K_ID:
            rc = wire__check_id(at, !pl->optional, p, diag);
            if (rc == TNY_OK && pl->unlike_why &&
                strcmp(at, (const char *)q + pl->unlike) == 0)
                rc = wire__fail(diag, "%s: %s", p, pl->unlike_why);
            break;
        case K_REASON:
            rc = wire__check_text(at, WIRE_TEXT_MULTI, false, p, diag);
            break;
        case K_U32: {
            int32_t v;
            memcpy(&v, at, sizeof v);
            rc = wire__check_range(
                v, (cmds[q->cmd].info.fields & pl->req) ? 1 : pl->lo, pl->hi, p,
                diag);
            if (rc == TNY_OK && pl->unlike_why &&
                memcmp(at, (const char *)q + pl->unlike, sizeof v) == 0)
                rc = wire__fail(diag, "%s: %s", p, pl->unlike_why);
            break;
        }
        case K_I64: {
            int64_t v;
            memcpy(&v, at, sizeof v);
            rc = wire__check_range(v, pl->lo, pl->hi, p, diag);
            if (rc == TNY_OK && pl->not_zero && v == 0)
                rc = wire__fail(diag, "%s: expected a time other than 0", p);
            break;
        }
        case K_FLAG:
            if ((cmds[q->cmd].info.fields & pl->req) && !*(const bool *)at)
                rc = wire__fail(diag, "%s: must be true", p);
            break;
        }
    }
    return rc;
}

static int plains_from_pb(const ProtobufCMessage *x, const char *c,
                          struct tny_wire_request *q, struct tny_diag *diag)
{
    const ProtobufCMessageDescriptor *d = x->descriptor;
    char p[WIRE_PATH_MAX];
    int rc = TNY_OK;
    for (unsigned i = 0; i < d->n_fields && rc == TNY_OK; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const struct plain *pl = plain_of(q->cmd, f);
        if (!pl)
            continue;
        const char *v = (const char *)x + f->offset;
        char *dst = (char *)q + pl->off;
        protobuf_c_boolean has = true;
        if (f->quantifier_offset)
            memcpy(&has, (const char *)x + f->quantifier_offset, sizeof has);
        wire__path(p, sizeof p, "%s.%s", c, pl->name);
        switch (f->type) {
        case PROTOBUF_C_TYPE_STRING:
            rc = wire__copy(dst, pl->cap, *(char *const *)v, p, diag);
            break;
        case PROTOBUF_C_TYPE_UINT32:
            rc = wire__u32(has, *(const uint32_t *)v, false, p, (int32_t *)dst,
                           diag);
            break;
        case PROTOBUF_C_TYPE_BOOL:
            *(bool *)dst = has && *(const protobuf_c_boolean *)v;
            break;
        default: /* INT64, UINT64 (plain_type_ok): the same bits */
            if (f->type == PROTOBUF_C_TYPE_UINT64 && has &&
                *(const uint64_t *)v > (uint64_t)INT64_MAX) {
                rc = wire__fail(diag, "%s: out of range", p);
                break;
            }
            if (pl->need && (rc = wire__need(has, p, diag)) < 0)
                break;
            memcpy(dst, v, sizeof(int64_t));
            if (!has)
                memset(dst, 0, sizeof(int64_t));
            break;
        }
    }
    return rc;
}

static void plains_to_pb(const struct tny_wire_request *q, ProtobufCMessage *x)
{
    const ProtobufCMessageDescriptor *d = x->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const struct plain *pl = plain_of(q->cmd, f);
        if (!pl)
            continue;
        char *v = (char *)x + f->offset;
        const char *src = (const char *)q + pl->off;
        /* sent when given: non-zero, true, a text; or needed */
        protobuf_c_boolean has = false;
        switch (f->type) {
        case PROTOBUF_C_TYPE_STRING: *(char **)v = wire__opt(src); break;
        case PROTOBUF_C_TYPE_UINT32: {
            int32_t n;
            memcpy(&n, src, sizeof n);
            *(uint32_t *)v = (uint32_t)n;
            has = n != 0;
            break;
        }
        case PROTOBUF_C_TYPE_BOOL:
            *(protobuf_c_boolean *)v = has = *(const bool *)src;
            break;
        default: { /* INT64, UINT64: the same bits */
            int64_t n;
            memcpy(&n, src, sizeof n);
            memcpy(v, &n, sizeof n);
            has = n != 0 || pl->need;
            break;
        }
        }
        if (f->quantifier_offset)
            memcpy((char *)x + f->quantifier_offset, &has, sizeof has);
    }
}

/* ---- fields of a command's own (not plain) -------------------------------
 *
 * The few commands whose message holds more than plain fields (a choice
 * of format, a CSV, a player entry, armies, a result, an edit) or whose
 * fields have a rule together (two players, two tables): their check,
 * decode and encode of what the walk above leaves. */

static int create_check(const struct tny_wire_request *q, const char *c,
                        struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (q->event_json) {
        if (q->preset[0] || q->format_json || q->options_json || q->title[0] ||
            q->has_seed || q->language[0])
            return wire__fail(diag,
                              "%s: event_json excludes preset, "
                              "format_json, title, seed, language and "
                              "options_json (the event file holds them)",
                              c);
        wire__path(p, sizeof p, "%s.event_json", c);
        return wire__check_text(q->event_json, WIRE_TEXT_MULTI, true, p, diag);
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
        rc = wire__check_text(q->format_json, WIRE_TEXT_MULTI, true, p, diag);
    } else {
        rc = wire__fail(diag, "%s.preset: missing (or format_json)", c);
    }
    if (rc < 0)
        return rc;
    wire__path(p, sizeof p, "%s.title", c);
    if ((rc = wire__check_text(q->title, WIRE_TEXT_LINE, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.options_json", c);
    return wire__check_text(q->options_json, WIRE_TEXT_MULTI, false, p, diag);
}

static int arg_str(const char *c, const char *key, char *dst, size_t cap,
                   const char *src, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    wire__path(p, sizeof p, "%s.%s", c, key);
    return wire__copy(dst, cap, src, p, diag);
}

static int create_from_pb(const ProtobufCMessage *msg, const char *c,
                          struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__CreateEvent *x = (const Tourney__V1__CreateEvent *)msg;
    int rc = TNY_OK;
    if (x->format_case == TOURNEY__V1__CREATE_EVENT__FORMAT_PRESET)
        rc = arg_str(c, "preset", q->preset, sizeof q->preset, x->preset, diag);
    else if (x->format_case == TOURNEY__V1__CREATE_EVENT__FORMAT_FORMAT_JSON)
        rc = wire__dup(&q->format_json, x->format_json, diag);
    else if (x->format_case == TOURNEY__V1__CREATE_EVENT__FORMAT_EVENT_JSON)
        rc = wire__dup(&q->event_json, x->event_json, diag);
    if (rc == TNY_OK)
        rc = arg_str(c, "title", q->title, sizeof q->title, x->title, diag);
    if (rc == TNY_OK)
        rc = arg_str(c, "language", q->language, sizeof q->language,
                     x->language, diag);
    q->has_seed = x->has_seed;
    q->seed = x->has_seed ? x->seed : 0;
    if (rc == TNY_OK)
        rc = wire__dup(&q->options_json, x->options_json, diag);
    return rc;
}

static void create_to_pb(const struct tny_wire_request *q,
                         ProtobufCMessage *msg, struct request_pb *s)
{
    Tourney__V1__CreateEvent *x = (Tourney__V1__CreateEvent *)msg;
    (void)s;
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
}

static int import_check(const struct tny_wire_request *q, const char *c,
                        struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    /* Bytes: the hub's CSV reader checks all csv_len of them and answers
     * with the line, column and advice (a NUL, a Windows code page
     * instead of UTF-8, a control character in a field: issue 22 item
     * 3), which a check here could not say. */
    wire__path(p, sizeof p, "%s.csv", c);
    return q->csv && csv_size(q) > 0 ? TNY_OK
                                     : wire__fail(diag, "%s: missing", p);
}

static int import_from_pb(const ProtobufCMessage *msg, const char *c,
                          struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__ImportPlayers *x =
        (const Tourney__V1__ImportPlayers *)msg;
    const ProtobufCBinaryData *b = &x->csv;
    (void)c;
    if (!x->has_csv)
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

static void import_to_pb(const struct tny_wire_request *q,
                         ProtobufCMessage *msg, struct request_pb *s)
{
    Tourney__V1__ImportPlayers *x = (Tourney__V1__ImportPlayers *)msg;
    (void)s;
    x->has_csv = q->csv != NULL;
    x->csv.data = (uint8_t *)q->csv;
    x->csv.len = q->csv ? csv_size(q) : 0;
}

static int register_check(const struct tny_wire_request *q, const char *c,
                          struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.player", c);
    if ((rc = player_check(&q->player, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.decklist", c);
    if (q->decklist && strlen(q->decklist) > TNY_WIRE_DECKLIST_MAX)
        return wire__fail(diag, "%s: longer than %d bytes", p,
                          TNY_WIRE_DECKLIST_MAX);
    return wire__check_text(q->decklist, WIRE_TEXT_MULTI, false, p, diag);
}

static int register_from_pb(const ProtobufCMessage *msg, const char *c,
                            struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__RegisterPlayer *x =
        (const Tourney__V1__RegisterPlayer *)msg;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.player", c);
    if ((rc = player_from_pb(x->player, p, &q->player, diag)) < 0)
        return rc;
    return wire__dup(&q->decklist, x->decklist, diag);
}

static void register_to_pb(const struct tny_wire_request *q,
                           ProtobufCMessage *msg, struct request_pb *s)
{
    Tourney__V1__RegisterPlayer *x = (Tourney__V1__RegisterPlayer *)msg;
    player_to_pb(&q->player, s);
    x->player = &s->player;
    x->decklist = q->decklist;
}

static int armies_check(const struct tny_wire_request *q, const char *c,
                        struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (q->player.n_armies < 1 || q->player.n_armies > TNY_MAX_ARMIES)
        return wire__fail(diag, "%s.armies: expected 1..%d names", c,
                          TNY_MAX_ARMIES);
    for (int32_t i = 0; i < q->player.n_armies; i++) {
        wire__path(p, sizeof p, "%s.armies[%d]", c, (int)i);
        if ((rc = wire__check_text(q->player.armies[i], WIRE_TEXT_LINE, true, p,
                                   diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

static int armies_from_pb(const ProtobufCMessage *msg, const char *c,
                          struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__DeclareArmies *x =
        (const Tourney__V1__DeclareArmies *)msg;
    char p[WIRE_PATH_MAX];
    int rc;
    if (x->n_armies > TNY_MAX_ARMIES)
        return wire__fail(diag, "%s.armies: expected at most %d names", c,
                          TNY_MAX_ARMIES);
    for (size_t i = 0; i < x->n_armies; i++) {
        wire__path(p, sizeof p, "%s.armies[%zu]", c, i);
        if ((rc = wire__copy(q->player.armies[i], sizeof q->player.armies[i],
                             x->armies[i], p, diag)) < 0)
            return rc;
    }
    q->player.n_armies = (int32_t)x->n_armies;
    return TNY_OK;
}

static void armies_to_pb(const struct tny_wire_request *q,
                         ProtobufCMessage *msg, struct request_pb *s)
{
    Tourney__V1__DeclareArmies *x = (Tourney__V1__DeclareArmies *)msg;
    for (int32_t i = 0; i < q->player.n_armies; i++)
        s->armies[i] = (char *)q->player.armies[i];
    x->n_armies = (size_t)q->player.n_armies;
    x->armies = s->armies;
}

static int result_check(const struct tny_wire_request *q, const char *c,
                        struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    wire__path(p, sizeof p, "%s.result", c);
    return wire__result_check(&q->result, p, diag);
}

static int result_from_pb(const ProtobufCMessage *msg, const char *c,
                          struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__EnterResult *x = (const Tourney__V1__EnterResult *)msg;
    char p[WIRE_PATH_MAX];
    wire__path(p, sizeof p, "%s.result", c);
    return wire__result_from_pb(x->result, p, &q->result, diag);
}

static void result_to_pb(const struct tny_wire_request *q,
                         ProtobufCMessage *msg, struct request_pb *s)
{
    Tourney__V1__EnterResult *x = (Tourney__V1__EnterResult *)msg;
    wire__result_to_pb(&q->result, &s->result);
    x->result = &s->result.gr;
}

static int edit_check(const struct tny_wire_request *q, const char *c,
                      struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    const char *const key[3] = {"name", "club", "country"};
    const char *const val[3] = {q->player.name, q->player.club,
                                q->player.country};
    for (int i = 0; i < 3; i++) {
        wire__path(p, sizeof p, "%s.%s", c, key[i]);
        if ((rc = wire__check_text(val[i], WIRE_TEXT_LINE, false, p, diag)) < 0)
            return rc;
    }
    if (!q->player.name[0] && !q->set_club && !q->set_country)
        return wire__fail(diag,
                          "%s: nothing to change (name, club or "
                          "country)",
                          c);
    return TNY_OK;
}

static int edit_from_pb(const ProtobufCMessage *msg, const char *c,
                        struct tny_wire_request *q, struct tny_diag *diag)
{
    const Tourney__V1__EditPlayer *x = (const Tourney__V1__EditPlayer *)msg;
    int rc;
    if ((rc = arg_str(c, "name", q->player.name, sizeof q->player.name, x->name,
                      diag)) < 0 ||
        (rc = arg_str(c, "club", q->player.club, sizeof q->player.club, x->club,
                      diag)) < 0 ||
        (rc = arg_str(c, "country", q->player.country, sizeof q->player.country,
                      x->country, diag)) < 0)
        return rc;
    q->set_club = x->club != NULL;
    q->set_country = x->country != NULL;
    return TNY_OK;
}

static void edit_to_pb(const struct tny_wire_request *q, ProtobufCMessage *msg,
                       struct request_pb *s)
{
    Tourney__V1__EditPlayer *x = (Tourney__V1__EditPlayer *)msg;
    (void)s;
    x->name = wire__opt(q->player.name);
    x->club = q->set_club ? (char *)q->player.club : NULL;
    x->country = q->set_country ? (char *)q->player.country : NULL;
}

/* A command's own code: check (after the plain fields'), decode and
 * encode of its fields that are not plain (NULL: none). */
static const struct own {
    int (*check)(const struct tny_wire_request *q, const char *c,
                 struct tny_diag *diag);
    int (*from_pb)(const ProtobufCMessage *x, const char *c,
                   struct tny_wire_request *q, struct tny_diag *diag);
    void (*to_pb)(const struct tny_wire_request *q, ProtobufCMessage *x,
                  struct request_pb *s);
} owns[TNY_WIRE_CMD_COUNT_] = {
    [TNY_WIRE_CMD_CREATE_EVENT] = {create_check, create_from_pb, create_to_pb},
    [TNY_WIRE_CMD_IMPORT_PLAYERS] = {import_check, import_from_pb,
                                     import_to_pb},
    [TNY_WIRE_CMD_REGISTER_PLAYER] = {register_check, register_from_pb,
                                      register_to_pb},
    [TNY_WIRE_CMD_DECLARE_ARMIES] = {armies_check, armies_from_pb,
                                     armies_to_pb},
    [TNY_WIRE_CMD_ENTER_RESULT] = {result_check, result_from_pb, result_to_pb},
    [TNY_WIRE_CMD_EDIT_PLAYER] = {edit_check, edit_from_pb, edit_to_pb},
};

/* The plain-field bits of the description (those a message field carries
 * through the table above). */
static unsigned plain_bits(void)
{
    unsigned b = 0;
    for (size_t i = 0; i < sizeof plains / sizeof plains[0]; i++)
        b |= plains[i].wf;
    return b;
}

int tny_wire_cmd_check_message(enum tny_wire_cmd cmd, struct tny_diag *diag)
{
    if (!cmd_valid(cmd))
        return wire__fail(diag, "command %d: unknown", (int)cmd);
    const char *n = cmds[cmd].info.name;
    const ProtobufCFieldDescriptor *m = cmd_member(cmd);
    const ProtobufCMessageDescriptor *d = cmd_message(cmd);
    if (!m || !d)
        return wire__fail(diag,
                          "%s: no message of that name in ConsoleRequest's "
                          "oneof",
                          n);
    if ((int)m->id != (int)cmds[cmd].pc)
        return wire__fail(diag, "%s: its oneof case is not field %u", n, m->id);
    unsigned carried = 0, fields = cmds[cmd].info.fields;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const struct plain *pl = plain_named(f->name);
        if (pl && !(fields & pl->wf))
            return wire__fail(diag,
                              "%s.%s: a field its description does not "
                              "name",
                              n, f->name);
        if (pl && !plain_type_ok(pl->kind, f->type))
            return wire__fail(diag, "%s.%s: not of the type of a %s field", n,
                              f->name, pl->name);
        if (!pl && !owns[cmd].from_pb)
            return wire__fail(diag,
                              "%s.%s: neither a plain field nor one of the "
                              "command's own code",
                              n, f->name);
        carried |= pl ? pl->wf : 0;
    }
    unsigned missing = fields & plain_bits() & ~carried;
    if (missing)
        return wire__fail(diag,
                          "%s: its description names fields %#x its message "
                          "does not have",
                          n, missing);
    return TNY_OK;
}

/* ---- checks, decode --------------------------------------------------------
 */

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
    if ((rc = plains_check(q, c, diag)) < 0)
        return rc;
    return owns[cmd].check ? owns[cmd].check(q, c, diag) : TNY_OK;
}

/* The command's message: the walk of its plain fields, then its own. */
static int command_from_pb(const Tourney__V1__ConsoleRequest *m,
                           struct tny_wire_request *q, const char *c,
                           struct tny_diag *diag)
{
    const ProtobufCFieldDescriptor *f = cmd_member(q->cmd);
    const ProtobufCMessage *x = NULL;
    int rc;
    if (f)
        memcpy(&x, (const char *)m + f->offset, sizeof x);
    if (!x)
        return wire__fail(diag, "%s: missing", c);
    if ((rc = plains_from_pb(x, c, q, diag)) < 0)
        return rc;
    return owns[q->cmd].from_pb ? owns[q->cmd].from_pb(x, c, q, diag) : TNY_OK;
}

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

int tny_wire_encode_request(const struct tny_wire_request *in, uint8_t **buf,
                            size_t *len, struct tny_diag *diag)
{
    struct request_pb *s = NULL;
    ProtobufCMessage *x = NULL;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = request_check(in, diag)) < 0)
        goto out;
    const ProtobufCFieldDescriptor *f = cmd_member(in->cmd);
    const ProtobufCMessageDescriptor *d = cmd_message(in->cmd);
    if (!f || !d) {
        rc = wire__fail(diag, "%s.%s: no such message in console.proto",
                        req_root, cmds[in->cmd].info.name);
        goto out;
    }
    /* A few KB of borrowed pointers: the heap, not the caller's stack. */
    s = calloc(1, sizeof *s);
    x = calloc(1, d->sizeof_message);
    if (!s || !x) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", req_root);
        goto out;
    }
    tourney__v1__console_request__init(&s->m);
    s->m.correlation_id = (char *)in->correlation_id;
    s->m.organiser_id = (char *)in->organiser_id;
    s->m.event_id = wire__opt(in->event_id);
    d->message_init(x);
    plains_to_pb(in, x);
    if (owns[in->cmd].to_pb)
        owns[in->cmd].to_pb(in, x, s);
    s->m.command_case = (pb_case)f->id;
    memcpy((char *)&s->m + f->offset, &x, sizeof x);
    rc = wire__pack(&s->m.base, req_root, TNY_WIRE_MAX_CONSOLE_MSG, buf, len,
                    diag);
out:
    free(x);
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
    tny_wire_reply_drop_payload(rep);
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
    if ((rc = wire__check_range(rp->round, 0, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    int n = 0;
    for (size_t i = 0; i < wire__n_payloads; i++) {
        const struct wire__payload *w = &wire__payloads[i];
        const void *v = wire__slot_get(rp, w->rep_off);
        if (!v)
            continue;
        if (n++)
            return wire__fail(diag,
                              "%s: seating, standings, published, records: "
                              "at most one typed payload",
                              r);
        wire__path(p, sizeof p, "%s.%s", r, w->name);
        if ((rc = w->check(v, p, diag)) < 0)
            return rc;
    }
    return TNY_OK;
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
    for (size_t i = 0; i < wire__n_payloads; i++) {
        const struct wire__payload *w = &wire__payloads[i];
        void *v = NULL;
        wire__path(p, sizeof p, "%s.%s", r, w->name);
        rc = w->from_pb(wire__slot_get(m, w->pb_off), p, &v, diag);
        wire__slot_set(out, w->rep_off, v);
        if (rc < 0)
            return rc;
    }
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
    for (size_t i = 0; rc == TNY_OK && i < wire__n_payloads; i++) {
        const struct wire__payload *w = &wire__payloads[i];
        const void *v = wire__slot_get(in, w->rep_off);
        void *pm = v ? w->to_pb(v) : NULL;
        wire__slot_set(&m, w->pb_off, pm);
        if (v && !pm)
            rc =
                tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", reply_root);
    }
    if (rc == TNY_OK)
        rc = wire__pack(&m.base, reply_root, TNY_WIRE_MAX_CONSOLE_MSG, buf, len,
                        diag);
    for (size_t i = 0; i < wire__n_payloads; i++)
        wire__payloads[i].pb_free(wire__slot_get(&m, wire__payloads[i].pb_off));
    return rc;
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
