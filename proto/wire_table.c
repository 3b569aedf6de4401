/* wire_table.c - the table protocol's messages: TableAssignment,
 * RoundClock, ResultSubmission, ResultAck, Presence (proto/table.proto).
 *
 * Not here: results (wire_result.c), the console protocol
 * (wire_console.c), plumbing (wire_util.c).  Nothing here touches MQTT.
 *
 * Invariants: every decode unpacks, copies, checks and frees the protobuf
 * in the same function; every encode checks with the same function first.
 * A protobuf built for encoding only borrows the caller's strings.
 */
#include "wire_internal.h"

#include <stdlib.h>
#include <string.h>

_Static_assert((int)TNY_WIRE_ACK_ACCEPTED ==
                       TOURNEY__V1__ACK_STATUS__ACK_ACCEPTED &&
                   (int)TNY_WIRE_ACK_PENDING_CONFIRMATION ==
                       TOURNEY__V1__ACK_STATUS__ACK_PENDING_CONFIRMATION,
               "wire.h ack statuses follow table.proto");
_Static_assert((int)TNY_WIRE_REASON_STALE_ASSIGNMENT ==
                   TOURNEY__V1__ACK_REASON__ACK_REASON_STALE_ASSIGNMENT,
               "wire.h ack reasons follow table.proto");
_Static_assert((int)TNY_WIRE_PRESENCE_ERROR ==
                   TOURNEY__V1__PRESENCE_STATE__PRESENCE_ERROR,
               "wire.h presence states follow table.proto");

#define MAX_STATUS ((int)TNY_WIRE_ACK_PENDING_CONFIRMATION)
#define MAX_REASON ((int)TNY_WIRE_REASON_STALE_ASSIGNMENT)
#define MAX_PRESENCE ((int)TNY_WIRE_PRESENCE_ERROR)

/* "path: missing" for a zero version (versions start at 1). */
static int check_version(uint64_t v, const char *path, struct tny_diag *diag)
{
    return v ? TNY_OK : wire__fail(diag, "%s: missing", path);
}

static int check_names(const char (*names)[TNY_NAME_MAX], int32_t n,
                       int32_t max, const char *path, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (n < 0 || n > max)
        return wire__fail(diag, "%s: expected at most %d entries, got %d", path,
                          (int)max, (int)n);
    for (int32_t i = 0; i < n; i++) {
        WIRE_CHECK_PATH(diag, p, "%s[%d]", path, (int)i);
        if ((rc = wire__check_text(names[i], WIRE_TEXT_LINE, true, p, diag)) <
            0)
            return rc;
    }
    return TNY_OK;
}

static int copy_names(char (*dst)[TNY_NAME_MAX], int32_t *n, size_t max,
                      char *const *src, size_t n_src, const char *path,
                      struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (n_src > max)
        return wire__fail(diag, "%s: expected at most %zu entries, got %zu",
                          path, max, n_src);
    for (size_t i = 0; i < n_src; i++) {
        wire__path(p, sizeof p, "%s[%zu]", path, i);
        if ((rc = wire__copy(dst[i], TNY_NAME_MAX, src[i], p, diag)) < 0)
            return rc;
    }
    *n = (int32_t)n_src;
    return TNY_OK;
}

/* ---- TableAssignment --------------------------------------------------- */

static const char assign_root[] = "table_assignment";

static int seat_from_pb(const Tourney__V1__Seat *m, const char *p,
                        struct tny_wire_seat *s, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
#define COPY(field, src)                                                       \
    do {                                                                       \
        wire__path(fp, sizeof fp, "%s." #src, p);                              \
        if ((rc = wire__copy(s->field, sizeof s->field, m->src, fp, diag)) <   \
            0)                                                                 \
            return rc;                                                         \
    } while (0)
    COPY(player_id, player_id);
    COPY(name, name);
    COPY(club, club);
    COPY(faction, faction);
    COPY(agenda, agenda);
    COPY(side, side);
#undef COPY
    s->first_player = m->has_first_player && m->first_player;
    s->colour_blind = m->has_colour_blind && m->colour_blind;
    s->hook = m->has_hook && m->hook;
    wire__path(fp, sizeof fp, "%s.armies", p);
    if ((rc = copy_names(s->armies, &s->n_armies, TNY_MAX_ARMIES, m->armies,
                         m->n_armies, fp, diag)) < 0)
        return rc;
    wire__path(fp, sizeof fp, "%s.colours", p);
    return copy_names(s->colours, &s->n_colours, 2, m->colours, m->n_colours,
                      fp, diag);
}

static int assignment_from_pb(const Tourney__V1__TableAssignment *m,
                              struct tny_wire_assignment *out,
                              struct tny_diag *diag)
{
    const char *r = assign_root;
    char p[WIRE_PATH_MAX];
    bool placed[TNY_MAX_SEATS] = {false};
    int rc;

    wire__path(p, sizeof p, "%s.version", r);
    if ((rc = wire__need(m->has_version, p, diag)) < 0)
        return rc;
    out->version = m->version;
#define COPY(field, src)                                                       \
    do {                                                                       \
        wire__path(p, sizeof p, "%s." #src, r);                                \
        if ((rc = wire__copy(out->field, sizeof out->field, m->src, p,         \
                             diag)) < 0)                                       \
            return rc;                                                         \
    } while (0)
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__copy_id(out->event_id, sizeof out->event_id, m->event_id,
                            true, p, diag)) < 0)
        return rc;
    COPY(event_title, event_title);
    COPY(format_name, format_name);
    COPY(stage_name, stage_name);
    COPY(procedure, procedure);
#undef COPY
    wire__path(p, sizeof p, "%s.game", r);
    if ((rc = wire__need(m->has_game, p, diag)) < 0)
        return rc;
    if (!wire__game_from_pb(m->game, &out->game))
        return wire__fail(diag, "%s: unknown game %d", p, (int)m->game);
    wire__path(p, sizeof p, "%s.stage", r);
    if ((rc = wire__need(m->has_stage, p, diag)) < 0)
        return rc;
    if (!wire__stage_from_pb(m->stage, &out->stage))
        return wire__fail(diag, "%s: unknown stage %d", p, (int)m->stage);
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__u32(m->has_round, m->round, true, p, &out->round, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__u32(m->has_table, m->table, false, p, &out->table, diag)) <
        0)
        return rc;

    wire__path(p, sizeof p, "%s.seats", r);
    if (m->n_seats > TNY_MAX_SEATS)
        return wire__fail(diag, "%s: expected 2..%d seats, got %zu", p,
                          TNY_MAX_SEATS, m->n_seats);
    out->n_seats = (int32_t)m->n_seats;
    for (size_t i = 0; i < m->n_seats; i++) {
        const Tourney__V1__Seat *sm = m->seats[i];
        wire__path(p, sizeof p, "%s.seats[%zu].seat", r, i);
        if ((rc = wire__need(sm->has_seat, p, diag)) < 0)
            return rc;
        if (sm->seat < 1 || sm->seat > m->n_seats)
            return wire__fail(diag, "%s: expected 1..%zu, got %lu", p,
                              m->n_seats, (unsigned long)sm->seat);
        if (placed[sm->seat - 1])
            return wire__fail(diag, "%s: seat %lu given twice", p,
                              (unsigned long)sm->seat);
        placed[sm->seat - 1] = true;
        wire__path(p, sizeof p, "%s.seats[%zu]", r, i);
        if ((rc = seat_from_pb(sm, p, &out->seats[sm->seat - 1], diag)) < 0)
            return rc;
    }
    if (m->clock) {
        out->has_clock = true;
        wire__path(p, sizeof p, "%s.clock", r);
        if ((rc = wire__clock_from_pb(m->clock, p, &out->clock, diag)) < 0)
            return rc;
    }
    wire__path(p, sizeof p, "%s.notes", r);
    if (m->n_notes > TNY_MAX_NOTES)
        return wire__fail(diag, "%s: expected at most %d notes, got %zu", p,
                          TNY_MAX_NOTES, m->n_notes);
    out->n_notes = (int32_t)m->n_notes;
    for (size_t i = 0; i < m->n_notes; i++) {
        wire__path(p, sizeof p, "%s.notes[%zu]", r, i);
        if ((rc = wire__copy(out->notes[i], sizeof out->notes[i], m->notes[i],
                             p, diag)) < 0)
            return rc;
    }
    out->best_of_three = m->has_best_of_three && m->best_of_three;
    out->chess_clock_limit_ms =
        m->has_chess_clock_limit_ms ? m->chess_clock_limit_ms : 0;
    out->draft_ms = m->has_draft_ms ? m->draft_ms : 0;
    out->action_ms = m->has_action_ms ? m->action_ms : 0;
    wire__path(p, sizeof p, "%s.ct_board", r);
    if ((rc = wire__copy(out->ct_board, sizeof out->ct_board, m->ct_board, p,
                         diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.organiser_result_json", r);
    if ((rc = wire__copy(out->organiser_result, sizeof out->organiser_result,
                         m->organiser_result_json, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.organiser_result_by", r);
    if ((rc = wire__copy(out->organiser_result_by,
                         sizeof out->organiser_result_by,
                         m->organiser_result_by, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.language", r);
    return wire__copy(out->language, sizeof out->language, m->language, p,
                      diag);
}

/* Seats are named by seat index (seat number - 1) in messages. */
static int seat_check(const struct tny_wire_seat *s, const char *p,
                      struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    int rc;
    WIRE_CHECK_PATH(diag, fp, "%s.player_id", p);
    if ((rc = wire__check_id(s->player_id, true, fp, diag)) < 0)
        return rc;
#define TEXT(field, req)                                                       \
    do {                                                                       \
        WIRE_CHECK_PATH(diag, fp, "%s." #field, p);                            \
        if ((rc = wire__check_text(s->field, WIRE_TEXT_LINE, req, fp, diag)) < \
            0)                                                                 \
            return rc;                                                         \
    } while (0)
    TEXT(name, true);
    TEXT(club, false);
    TEXT(faction, false);
    TEXT(agenda, false);
    TEXT(side, false);
#undef TEXT
    WIRE_CHECK_PATH(diag, fp, "%s.armies", p);
    if ((rc = check_names(s->armies, s->n_armies, TNY_MAX_ARMIES, fp, diag)) <
        0)
        return rc;
    WIRE_CHECK_PATH(diag, fp, "%s.colours", p);
    return check_names(s->colours, s->n_colours, 2, fp, diag);
}

/* A language code, not text (a table looks it up as a file name): letters
 * and '_' only, "" = unset.  root names the message in the error. */
static int check_language(const char *lang, const char *root,
                          struct tny_diag *diag)
{
    for (const char *c = lang; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              *c == '_'))
            return wire__fail(diag,
                              "%s.language: \"%s\" is not a language code "
                              "(letters and '_')",
                              root, lang);
    return TNY_OK;
}

static int assignment_check_at(const struct tny_wire_assignment *a,
                               struct tny_diag *diag)
{
    const char *r = assign_root;
    char p[WIRE_PATH_MAX];
    int32_t firsts = 0;
    int rc;

    WIRE_CHECK_PATH(diag, p, "%s.version", r);
    if ((rc = check_version(a->version, p, diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, p, "%s.event_id", r);
    if ((rc = wire__check_id(a->event_id, true, p, diag)) < 0)
        return rc;
#define TEXT(field, kind)                                                      \
    do {                                                                       \
        WIRE_CHECK_PATH(diag, p, "%s." #field, r);                             \
        if ((rc = wire__check_text(a->field, kind, false, p, diag)) < 0)       \
            return rc;                                                         \
    } while (0)
    TEXT(event_title, WIRE_TEXT_LINE);
    TEXT(format_name, WIRE_TEXT_LINE);
    TEXT(stage_name, WIRE_TEXT_LINE);
    TEXT(procedure, WIRE_TEXT_MULTI);
#undef TEXT
    if (!wire__game_valid(a->game))
        return wire__fail(diag, "%s.game: unknown game %d", r, (int)a->game);
    if (!wire__stage_valid(a->stage))
        return wire__fail(diag, "%s.stage: unknown stage %d", r, (int)a->stage);
    WIRE_CHECK_PATH(diag, p, "%s.round", r);
    if ((rc = wire__check_range(a->round, 1, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, p, "%s.table", r);
    if ((rc = wire__check_range(a->table, 0, WIRE_MAX_TABLE, p, diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, p, "%s.seats", r);
    if (a->table == 0 && a->n_seats != 0)
        return wire__fail(diag,
                          "%s: an idle assignment (table 0) has no "
                          "seats",
                          p);
    if (a->table != 0 && (a->n_seats < 2 || a->n_seats > TNY_MAX_SEATS))
        return wire__fail(diag, "%s: expected 2..%d seats, got %d", p,
                          TNY_MAX_SEATS, (int)a->n_seats);
    for (int32_t i = 0; i < a->n_seats; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.seats[%d]", r, (int)i);
        if ((rc = seat_check(&a->seats[i], p, diag)) < 0)
            return rc;
        for (int32_t j = 0; j < i; j++)
            if (strcmp(a->seats[i].player_id, a->seats[j].player_id) == 0)
                return wire__fail(diag, "%s.player_id: \"%s\" seated twice", p,
                                  a->seats[i].player_id);
        firsts += a->seats[i].first_player;
    }
    if (firsts > 1)
        return wire__fail(diag, "%s.seats: %d first players", r, (int)firsts);
    WIRE_CHECK_PATH(diag, p, "%s.clock", r);
    if (a->has_clock && (rc = wire__clock_check(&a->clock, p, diag)) < 0)
        return rc;
    if (a->n_notes < 0 || a->n_notes > TNY_MAX_NOTES)
        return wire__fail(diag, "%s.notes: expected at most %d notes, got %d",
                          r, TNY_MAX_NOTES, (int)a->n_notes);
    for (int32_t i = 0; i < a->n_notes; i++) {
        WIRE_CHECK_PATH(diag, p, "%s.notes[%d]", r, (int)i);
        if ((rc = wire__check_text(a->notes[i], WIRE_TEXT_MULTI, true, p,
                                   diag)) < 0)
            return rc;
    }
#define LENGTH(field)                                                          \
    do {                                                                       \
        WIRE_CHECK_PATH(diag, p, "%s." #field, r);                             \
        if ((rc = wire__check_range(a->field, 0, TNY_CLOCK_MAX_MS, p, diag)) < \
            0)                                                                 \
            return rc;                                                         \
    } while (0)
    LENGTH(chess_clock_limit_ms);
    LENGTH(draft_ms);
    LENGTH(action_ms);
#undef LENGTH
    if (a->ct_board[0]) { /* CT-9: a board the engine can read */
        struct tny_ct_board b;
        struct tny_diag inner = {{0}};
        WIRE_CHECK_PATH(diag, p, "%s.ct_board", r);
        if (tny_ct_board_parse(a->ct_board, &b, &inner) < 0)
            return wire__fail(diag, "%s: %s", p, inner.msg);
    }
    WIRE_CHECK_PATH(diag, p, "%s.organiser_result_json", r);
    if ((rc = wire__check_text(a->organiser_result, WIRE_TEXT_MULTI, false, p,
                               diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, p, "%s.organiser_result_by", r);
    if ((rc = wire__check_text(a->organiser_result_by, WIRE_TEXT_LINE, false, p,
                               diag)) < 0)
        return rc;
    if (a->organiser_result[0] && a->table < 1)
        return wire__fail(diag, "%s.organiser_result_json: no table", r);
    return check_language(a->language, r, diag);
}

/* Checked without paths; a refused one again with them for its message. */
static int assignment_check(const struct tny_wire_assignment *a,
                            struct tny_diag *diag)
{
    int rc = assignment_check_at(a, NULL);
    return rc < 0 && diag ? assignment_check_at(a, diag) : rc;
}

int tny_wire_check_assignment(const struct tny_wire_assignment *a,
                              struct tny_diag *diag)
{
    return assignment_check(a, diag);
}

int tny_wire_encode_assignment(const struct tny_wire_assignment *in,
                               uint8_t **buf, size_t *len,
                               struct tny_diag *diag)
{
    Tourney__V1__TableAssignment m;
    Tourney__V1__Seat seat[TNY_MAX_SEATS], *seat_p[TNY_MAX_SEATS];
    char *armies[TNY_MAX_SEATS][TNY_MAX_ARMIES];
    char *colours[TNY_MAX_SEATS][2];
    char *notes[TNY_MAX_NOTES];
    Tourney__V1__ClockReading clock;
    int rc;

    *buf = NULL;
    *len = 0;
    if ((rc = assignment_check(in, diag)) < 0)
        return rc;
    tourney__v1__table_assignment__init(&m);
    m.has_version = true;
    m.version = in->version;
    m.event_id = (char *)in->event_id;
    m.event_title = wire__opt(in->event_title);
    m.format_name = wire__opt(in->format_name);
    m.has_game = true;
    m.game = (Tourney__V1__Game)wire__game_to_pb(in->game);
    m.has_round = true;
    m.round = (uint32_t)in->round;
    m.has_stage = true;
    m.stage = (Tourney__V1__Stage)wire__stage_to_pb(in->stage);
    m.stage_name = wire__opt(in->stage_name);
    m.has_table = true;
    m.table = (uint32_t)in->table;
    for (int32_t i = 0; i < in->n_seats; i++) {
        const struct tny_wire_seat *s = &in->seats[i];
        Tourney__V1__Seat *x = &seat[i];
        tourney__v1__seat__init(x);
        x->player_id = (char *)s->player_id;
        x->name = (char *)s->name;
        x->has_seat = true;
        x->seat = (uint32_t)i + 1;
        x->has_first_player = s->first_player;
        x->first_player = s->first_player;
        for (int32_t k = 0; k < s->n_armies; k++)
            armies[i][k] = (char *)s->armies[k];
        x->n_armies = (size_t)s->n_armies;
        x->armies = armies[i];
        for (int32_t k = 0; k < s->n_colours; k++)
            colours[i][k] = (char *)s->colours[k];
        x->n_colours = (size_t)s->n_colours;
        x->colours = colours[i];
        x->has_colour_blind = s->colour_blind;
        x->colour_blind = s->colour_blind;
        x->has_hook = s->hook;
        x->hook = s->hook;
        x->faction = wire__opt(s->faction);
        x->agenda = wire__opt(s->agenda);
        x->side = wire__opt(s->side);
        x->club = wire__opt(s->club);
        seat_p[i] = x;
    }
    m.n_seats = (size_t)in->n_seats;
    m.seats = seat_p;
    if (in->has_clock) {
        wire__clock_to_pb(&in->clock, &clock);
        m.clock = &clock;
    }
    m.procedure = wire__opt(in->procedure);
    for (int32_t i = 0; i < in->n_notes; i++)
        notes[i] = (char *)in->notes[i];
    m.n_notes = (size_t)in->n_notes;
    m.notes = notes;
    m.has_best_of_three = in->best_of_three;
    m.best_of_three = in->best_of_three;
    m.has_chess_clock_limit_ms = in->chess_clock_limit_ms != 0;
    m.chess_clock_limit_ms = in->chess_clock_limit_ms;
    m.has_draft_ms = in->draft_ms != 0;
    m.draft_ms = in->draft_ms;
    m.has_action_ms = in->action_ms != 0;
    m.action_ms = in->action_ms;
    m.ct_board = wire__opt(in->ct_board);
    m.organiser_result_json = wire__opt(in->organiser_result);
    m.organiser_result_by = wire__opt(in->organiser_result_by);
    m.language = wire__opt(in->language);
    return wire__pack(&m.base, assign_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int assignment_decode_pb(const ProtobufCMessage *m, void *out,
                                struct tny_diag *diag)
{
    int rc =
        assignment_from_pb((const Tourney__V1__TableAssignment *)m, out, diag);
    return rc == TNY_OK ? assignment_check(out, diag) : rc;
}

int tny_wire_decode_assignment(const uint8_t *buf, size_t len,
                               struct tny_wire_assignment *out,
                               struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__table_assignment__descriptor, assign_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, assignment_decode_pb,
                        NULL, out, sizeof *out, diag);
}

/* ---- RoundClock -------------------------------------------------------- */

static const char clock_root[] = "round_clock";

void tny_wire_clock_release(struct tny_wire_clock *c)
{
    free(c->extensions);
    memset(c, 0, sizeof *c);
}

void tny_wire_clock_for_table(const struct tny_wire_clock *c, int32_t table,
                              struct tny_clock_msg *out)
{
    int32_t lo = 0, hi = c->n_extensions;
    int64_t ext = 0;
    *out = c->clock;
    while (lo < hi) { /* extensions are sorted by table (clock_check) */
        int32_t mid = lo + (hi - lo) / 2;
        if (c->extensions[mid].table < table)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t delay = -1;
    bool paused = false;
    if (lo < c->n_extensions && c->extensions[lo].table == table) {
        ext = c->extensions[lo].extension_ms;
        delay = c->extensions[lo].start_delay_ms;
        paused = c->extensions[lo].paused;
    }
    if (out->unlimited)
        return;
    if (out->state == TNY_ROUND_CLOCK_RUNNING)
        out->deadline_ms += ext;
    else
        out->remaining_ms += ext;
    if (c->per_table_start && table > 0) /* table 0: the round itself */
        tny_clock_msg_table_start(out, c->table_ms + ext, delay);
    if (paused && out->state == TNY_ROUND_CLOCK_RUNNING) {
        /* The judge's pause: frozen at what it had left when the hub
         * wrote the message (extension_ms counts the pause until then). */
        out->state = TNY_ROUND_CLOCK_PAUSED;
        out->remaining_ms = out->deadline_ms - out->hub_now_ms;
        out->deadline_ms = 0;
    }
}

static int clock_check(const struct tny_wire_clock *c, struct tny_diag *diag)
{
    const char *r = clock_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.version", r);
    if ((rc = check_version(c->version, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(c->event_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__check_range(c->round, 1, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.clock", r);
    if ((rc = wire__clock_check(&c->clock, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.extensions", r);
    if (c->n_extensions < 0 || c->n_extensions > TNY_WIRE_MAX_EXTENSIONS)
        return wire__fail(diag, "%s: expected at most %d entries, got %d", p,
                          TNY_WIRE_MAX_EXTENSIONS, (int)c->n_extensions);
    if (c->n_extensions > 0 && !c->extensions)
        return wire__fail(diag, "%s: no array for %d entries", p,
                          (int)c->n_extensions);
    for (int32_t i = 0; i < c->n_extensions; i++) {
        const struct tny_wire_table_extension *e = &c->extensions[i];
        wire__path(p, sizeof p, "%s.extensions[%d].table", r, (int)i);
        if ((rc = wire__check_range(e->table, 1, WIRE_MAX_TABLE, p, diag)) < 0)
            return rc;
        if (i > 0 && e->table <= c->extensions[i - 1].table)
            return wire__fail(diag,
                              "%s: tables must be in increasing order "
                              "(%d after %d)",
                              p, (int)e->table,
                              (int)c->extensions[i - 1].table);
        wire__path(p, sizeof p, "%s.extensions[%d].extension_ms", r, (int)i);
        if ((rc = wire__check_range(e->extension_ms, 0, TNY_CLOCK_MAX_MS, p,
                                    diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.extensions[%d].start_delay_ms", r, (int)i);
        if ((rc = wire__check_range(e->start_delay_ms, -1, 2 * TNY_CLOCK_MAX_MS,
                                    p, diag)) < 0)
            return rc;
    }
    wire__path(p, sizeof p, "%s.table_ms", r);
    return wire__check_range(c->table_ms, 0, 2 * TNY_CLOCK_MAX_MS, p, diag);
}

static int clock_from_pb(const Tourney__V1__RoundClock *m,
                         struct tny_wire_clock *out, struct tny_diag *diag)
{
    const char *r = clock_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.version", r);
    if ((rc = wire__need(m->has_version, p, diag)) < 0)
        return rc;
    out->version = m->version;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__copy_id(out->event_id, sizeof out->event_id, m->event_id,
                            true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__u32(m->has_round, m->round, true, p, &out->round, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.clock", r);
    if ((rc = wire__clock_from_pb(m->clock, p, &out->clock, diag)) < 0)
        return rc;
    out->per_table_start = m->has_per_table_start && m->per_table_start;
    out->table_ms = m->has_table_ms ? m->table_ms : 0;
    wire__path(p, sizeof p, "%s.extensions", r);
    if (m->n_extensions > TNY_WIRE_MAX_EXTENSIONS)
        return wire__fail(diag, "%s: expected at most %d entries, got %zu", p,
                          TNY_WIRE_MAX_EXTENSIONS, m->n_extensions);
    if (m->n_extensions == 0)
        return TNY_OK;
    out->extensions = calloc(m->n_extensions, sizeof *out->extensions);
    if (!out->extensions)
        return tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", r);
    out->n_extensions = (int32_t)m->n_extensions;
    for (size_t i = 0; i < m->n_extensions; i++) {
        const Tourney__V1__TableExtension *e = m->extensions[i];
        wire__path(p, sizeof p, "%s.extensions[%zu].table", r, i);
        if ((rc = wire__u32(e->has_table, e->table, true, p,
                            &out->extensions[i].table, diag)) < 0)
            return rc;
        wire__path(p, sizeof p, "%s.extensions[%zu].extension_ms", r, i);
        if ((rc = wire__need(e->has_extension_ms, p, diag)) < 0)
            return rc;
        out->extensions[i].extension_ms = e->extension_ms;
        out->extensions[i].start_delay_ms =
            e->has_start_delay_ms ? e->start_delay_ms : -1;
        out->extensions[i].paused = e->has_paused && e->paused;
    }
    return TNY_OK;
}

int tny_wire_encode_clock(const struct tny_wire_clock *in, uint8_t **buf,
                          size_t *len, struct tny_diag *diag)
{
    Tourney__V1__RoundClock m;
    Tourney__V1__ClockReading clock;
    Tourney__V1__TableExtension *ext = NULL, **ext_p = NULL;
    int rc;

    *buf = NULL;
    *len = 0;
    if ((rc = clock_check(in, diag)) < 0)
        goto out;
    tourney__v1__round_clock__init(&m);
    m.has_version = true;
    m.version = in->version;
    m.event_id = (char *)in->event_id;
    m.has_round = true;
    m.round = (uint32_t)in->round;
    wire__clock_to_pb(&in->clock, &clock);
    m.clock = &clock;
    if (in->n_extensions > 0) {
        ext = calloc((size_t)in->n_extensions, sizeof *ext);
        ext_p = calloc((size_t)in->n_extensions, sizeof *ext_p);
        if (!ext || !ext_p) {
            rc =
                tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", clock_root);
            goto out;
        }
    }
    for (int32_t i = 0; i < in->n_extensions; i++) {
        tourney__v1__table_extension__init(&ext[i]);
        ext[i].has_table = true;
        ext[i].table = (uint32_t)in->extensions[i].table;
        ext[i].has_extension_ms = true;
        ext[i].extension_ms = in->extensions[i].extension_ms;
        ext[i].has_start_delay_ms =
            in->per_table_start && in->extensions[i].start_delay_ms >= 0;
        ext[i].start_delay_ms = in->extensions[i].start_delay_ms;
        ext[i].has_paused = in->extensions[i].paused;
        ext[i].paused = in->extensions[i].paused;
        ext_p[i] = &ext[i];
    }
    m.n_extensions = (size_t)in->n_extensions;
    m.extensions = ext_p;
    m.has_per_table_start = in->per_table_start;
    m.per_table_start = in->per_table_start;
    m.has_table_ms = in->per_table_start;
    m.table_ms = in->table_ms;
    rc =
        wire__pack(&m.base, clock_root, TNY_WIRE_MAX_TABLE_MSG, buf, len, diag);
out:
    free(ext);
    free(ext_p);
    return rc;
}

static void clock_release_any(void *out)
{
    tny_wire_clock_release(out);
}

static int clock_decode_pb(const ProtobufCMessage *m, void *out,
                           struct tny_diag *diag)
{
    int rc = clock_from_pb((const Tourney__V1__RoundClock *)m, out, diag);
    return rc == TNY_OK ? clock_check(out, diag) : rc;
}

int tny_wire_decode_clock(const uint8_t *buf, size_t len,
                          struct tny_wire_clock *out, struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__round_clock__descriptor, clock_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, clock_decode_pb,
                        clock_release_any, out, sizeof *out, diag);
}

/* ---- ResultSubmission ---------------------------------------------------- */

static const char sub_root[] = "result_submission";

static int submission_check(const struct tny_wire_submission *s,
                            struct tny_diag *diag)
{
    const char *r = sub_root;
    char p[WIRE_PATH_MAX];
    int rc;
#define ID(field, name)                                                        \
    do {                                                                       \
        wire__path(p, sizeof p, "%s." name, r);                                \
        if ((rc = wire__check_id(s->field, true, p, diag)) < 0)                \
            return rc;                                                         \
    } while (0)
    ID(key, "idempotency_key");
    ID(device_id, "device_id");
    ID(event_id, "event_id");
#undef ID
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__check_range(s->round, 1, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__check_range(s->table, 1, WIRE_MAX_TABLE, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.result", r);
    if ((rc = wire__result_check(&s->result, p, diag)) < 0)
        return rc;
    if (s->n_confirmed < 0 || s->n_confirmed > TNY_MAX_SEATS)
        return wire__fail(diag,
                          "%s.confirmed_by: expected at most %d ids, "
                          "got %d",
                          r, TNY_MAX_SEATS, (int)s->n_confirmed);
    for (int32_t i = 0; i < s->n_confirmed; i++) {
        wire__path(p, sizeof p, "%s.confirmed_by[%d]", r, (int)i);
        if ((rc = wire__check_id(s->confirmed[i], true, p, diag)) < 0)
            return rc;
        for (int32_t j = 0; j < i; j++)
            if (strcmp(s->confirmed[i], s->confirmed[j]) == 0)
                return wire__fail(diag, "%s: \"%s\" given twice", p,
                                  s->confirmed[i]);
    }
    wire__path(p, sizeof p, "%s.table_time_ms", r);
    return wire__check_range(s->table_time_ms, 0, TNY_CLOCK_MAX_INSTANT_MS, p,
                             diag);
}

static int submission_from_pb(const Tourney__V1__ResultSubmission *m,
                              struct tny_wire_submission *out,
                              struct tny_diag *diag)
{
    const char *r = sub_root;
    char p[WIRE_PATH_MAX];
    int rc;
#define COPY(field, src)                                                       \
    do {                                                                       \
        wire__path(p, sizeof p, "%s." #src, r);                                \
        if ((rc = wire__copy_id(out->field, sizeof out->field, m->src, true,   \
                                p, diag)) < 0)                                 \
            return rc;                                                         \
    } while (0)
    COPY(key, idempotency_key);
    COPY(device_id, device_id);
    COPY(event_id, event_id);
#undef COPY
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__u32(m->has_round, m->round, true, p, &out->round, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__u32(m->has_table, m->table, true, p, &out->table, diag)) <
        0)
        return rc;
    out->assignment_version =
        m->has_assignment_version ? m->assignment_version : 0;
    wire__path(p, sizeof p, "%s.result", r);
    if ((rc = wire__result_from_pb(m->result, p, &out->result, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.confirmed_by", r);
    if (m->n_confirmed_by > TNY_MAX_SEATS)
        return wire__fail(diag, "%s: expected at most %d ids, got %zu", p,
                          TNY_MAX_SEATS, m->n_confirmed_by);
    out->n_confirmed = (int32_t)m->n_confirmed_by;
    for (size_t i = 0; i < m->n_confirmed_by; i++) {
        wire__path(p, sizeof p, "%s.confirmed_by[%zu]", r, i);
        if ((rc = wire__copy(out->confirmed[i], sizeof out->confirmed[i],
                             m->confirmed_by[i], p, diag)) < 0)
            return rc;
    }
    out->table_time_ms = m->has_table_time_ms ? m->table_time_ms : 0;
    return TNY_OK;
}

int tny_wire_encode_submission(const struct tny_wire_submission *in,
                               uint8_t **buf, size_t *len,
                               struct tny_diag *diag)
{
    Tourney__V1__ResultSubmission m;
    struct wire_result_pb res;
    char *confirmed[TNY_MAX_SEATS];
    int rc;

    *buf = NULL;
    *len = 0;
    if ((rc = submission_check(in, diag)) < 0)
        return rc;
    tourney__v1__result_submission__init(&m);
    m.idempotency_key = (char *)in->key;
    m.device_id = (char *)in->device_id;
    m.event_id = (char *)in->event_id;
    m.has_round = m.has_table = true;
    m.round = (uint32_t)in->round;
    m.table = (uint32_t)in->table;
    m.has_assignment_version = in->assignment_version != 0;
    m.assignment_version = in->assignment_version;
    wire__result_to_pb(&in->result, &res);
    m.result = &res.gr;
    for (int32_t i = 0; i < in->n_confirmed; i++)
        confirmed[i] = (char *)in->confirmed[i];
    m.n_confirmed_by = (size_t)in->n_confirmed;
    m.confirmed_by = confirmed;
    m.has_table_time_ms = in->table_time_ms != 0;
    m.table_time_ms = in->table_time_ms;
    return wire__pack(&m.base, sub_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int submission_decode_pb(const ProtobufCMessage *m, void *out,
                                struct tny_diag *diag)
{
    int rc =
        submission_from_pb((const Tourney__V1__ResultSubmission *)m, out, diag);
    return rc == TNY_OK ? submission_check(out, diag) : rc;
}

int tny_wire_decode_submission(const uint8_t *buf, size_t len,
                               struct tny_wire_submission *out,
                               struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__result_submission__descriptor, sub_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, submission_decode_pb,
                        NULL, out, sizeof *out, diag);
}

bool tny_wire_peek_submission_key(const uint8_t *buf, size_t len,
                                  char key[TNY_WIRE_ID_MAX + 1])
{
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field_by_name(
            &tourney__v1__result_submission__descriptor, "idempotency_key");
    return wire__peek_id(buf, len, f->id, key);
}

/* ---- ResultAck ------------------------------------------------------------
 */

static const char ack_root[] = "result_ack";

static int ack_check(const struct tny_wire_ack *k, struct tny_diag *diag)
{
    const char *r = ack_root;
    char p[WIRE_PATH_MAX];
    int rc;
    if ((int)k->status < 1 || (int)k->status > MAX_STATUS)
        return wire__fail(diag, "%s.status: unknown status %d", r,
                          (int)k->status);
    if ((int)k->reason < 0 || (int)k->reason > MAX_REASON)
        return wire__fail(diag, "%s.reason: unknown reason %d", r,
                          (int)k->reason);
    /* A submission that did not decode may have no readable key. */
    bool keyless = k->status == TNY_WIRE_ACK_REJECTED &&
                   k->reason == TNY_WIRE_REASON_MALFORMED;
    wire__path(p, sizeof p, "%s.idempotency_key", r);
    if ((rc = wire__check_id(k->key, !keyless, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.reason", r);
    if ((k->status == TNY_WIRE_ACK_ACCEPTED ||
         k->status == TNY_WIRE_ACK_DUPLICATE) &&
        k->reason != TNY_WIRE_REASON_NONE)
        return wire__fail(diag, "%s: not allowed with status %d", p,
                          (int)k->status);
    if ((k->status == TNY_WIRE_ACK_REJECTED ||
         k->status == TNY_WIRE_ACK_CONFLICT) &&
        k->reason == TNY_WIRE_REASON_NONE)
        return wire__fail(diag, "%s: missing", p);
    wire__path(p, sizeof p, "%s.reason_text", r);
    if ((rc = wire__check_text(k->reason_text, WIRE_TEXT_MULTI, false, p,
                               diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(k->event_id, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__check_range(k->round, 0, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__check_range(k->table, 0, WIRE_MAX_TABLE, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.stored", r);
    if (k->has_stored && (rc = wire__result_check(&k->stored, p, diag)) < 0)
        return rc;
    return TNY_OK;
}

static int ack_from_pb(const Tourney__V1__ResultAck *m,
                       struct tny_wire_ack *out, struct tny_diag *diag)
{
    const char *r = ack_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.idempotency_key", r);
    if ((rc = wire__copy(out->key, sizeof out->key, m->idempotency_key, p,
                         diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.status", r);
    if ((rc = wire__need(m->has_status, p, diag)) < 0)
        return rc;
    if ((int)m->status < 1 || (int)m->status > MAX_STATUS)
        return wire__fail(diag, "%s: unknown status %d", p, (int)m->status);
    out->status = (enum tny_wire_ack_status)m->status;
    wire__path(p, sizeof p, "%s.reason", r);
    if (m->has_reason && ((int)m->reason < 0 || (int)m->reason > MAX_REASON))
        return wire__fail(diag, "%s: unknown reason %d", p, (int)m->reason);
    out->reason = m->has_reason ? (enum tny_wire_ack_reason)m->reason
                                : TNY_WIRE_REASON_NONE;
    wire__path(p, sizeof p, "%s.reason_text", r);
    if ((rc = wire__copy(out->reason_text, sizeof out->reason_text,
                         m->reason_text, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__copy(out->event_id, sizeof out->event_id, m->event_id, p,
                         diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__u32(m->has_round, m->round, false, p, &out->round, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__u32(m->has_table, m->table, false, p, &out->table, diag)) <
        0)
        return rc;
    if (m->stored) {
        out->has_stored = true;
        wire__path(p, sizeof p, "%s.stored", r);
        if ((rc = wire__result_from_pb(m->stored, p, &out->stored, diag)) < 0)
            return rc;
    }
    return TNY_OK;
}

const char *tny_wire_ack_status_name(enum tny_wire_ack_status s)
{
    switch (s) {
    case TNY_WIRE_ACK_ACCEPTED: return "accepted";
    case TNY_WIRE_ACK_REJECTED: return "rejected";
    case TNY_WIRE_ACK_DUPLICATE: return "duplicate";
    case TNY_WIRE_ACK_CONFLICT: return "conflict";
    case TNY_WIRE_ACK_PENDING_CONFIRMATION: return "pending_confirmation";
    }
    return "?";
}

int tny_wire_encode_ack(const struct tny_wire_ack *in, uint8_t **buf,
                        size_t *len, struct tny_diag *diag)
{
    Tourney__V1__ResultAck m;
    struct wire_result_pb res;
    int rc;

    *buf = NULL;
    *len = 0;
    if ((rc = ack_check(in, diag)) < 0)
        return rc;
    tourney__v1__result_ack__init(&m);
    m.idempotency_key = (char *)in->key;
    m.has_status = true;
    m.status = (Tourney__V1__AckStatus)in->status;
    m.has_reason = in->reason != TNY_WIRE_REASON_NONE;
    m.reason = (Tourney__V1__AckReason)in->reason;
    m.reason_text = wire__opt(in->reason_text);
    m.event_id = wire__opt(in->event_id);
    m.has_round = in->round != 0;
    m.round = (uint32_t)in->round;
    m.has_table = in->table != 0;
    m.table = (uint32_t)in->table;
    if (in->has_stored) {
        wire__result_to_pb(&in->stored, &res);
        m.stored = &res.gr;
    }
    return wire__pack(&m.base, ack_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int ack_decode_pb(const ProtobufCMessage *m, void *out,
                         struct tny_diag *diag)
{
    int rc = ack_from_pb((const Tourney__V1__ResultAck *)m, out, diag);
    return rc == TNY_OK ? ack_check(out, diag) : rc;
}

int tny_wire_decode_ack(const uint8_t *buf, size_t len,
                        struct tny_wire_ack *out, struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__result_ack__descriptor, ack_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, ack_decode_pb, NULL,
                        out, sizeof *out, diag);
}

/* ---- Presence -------------------------------------------------------------
 */

static const char presence_root[] = "presence";

static int presence_check(const struct tny_wire_presence *s,
                          struct tny_diag *diag)
{
    const char *r = presence_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.device_id", r);
    if ((rc = wire__check_id(s->device_id, true, p, diag)) < 0)
        return rc;
    if ((int)s->state < 1 || (int)s->state > MAX_PRESENCE)
        return wire__fail(diag, "%s.state: unknown state %d", r, (int)s->state);
    wire__path(p, sizeof p, "%s.queued_results", r);
    if ((rc = wire__check_range(s->queued_results, 0, WIRE_MAX_QUEUED, p,
                                diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.software_version", r);
    if ((rc = wire__check_text(s->software_version, WIRE_TEXT_ASCII, false, p,
                               diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.device_time_ms", r);
    if ((rc = wire__check_range(s->device_time_ms, 0, TNY_CLOCK_MAX_INSTANT_MS,
                                p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.draft_round", r);
    if ((rc = wire__check_range(s->draft_round, 0, WIRE_MAX_ROUND, p, diag)) <
        0)
        return rc;
    wire__path(p, sizeof p, "%s.detail", r);
    return wire__check_text(s->detail, WIRE_TEXT_LINE, false, p, diag);
}

static int presence_from_pb(const Tourney__V1__Presence *m,
                            struct tny_wire_presence *out,
                            struct tny_diag *diag)
{
    const char *r = presence_root;
    char p[WIRE_PATH_MAX];
    int rc;
#define COPY(field)                                                            \
    do {                                                                       \
        wire__path(p, sizeof p, "%s." #field, r);                              \
        if ((rc = wire__copy(out->field, sizeof out->field, m->field, p,       \
                             diag)) < 0)                                       \
            return rc;                                                         \
    } while (0)
    wire__path(p, sizeof p, "%s.device_id", r);
    if ((rc = wire__copy_id(out->device_id, sizeof out->device_id, m->device_id,
                            true, p, diag)) < 0)
        return rc;
    COPY(software_version);
    COPY(detail);
#undef COPY
    wire__path(p, sizeof p, "%s.state", r);
    if ((rc = wire__need(m->has_state, p, diag)) < 0)
        return rc;
    if ((int)m->state < 1 || (int)m->state > MAX_PRESENCE)
        return wire__fail(diag, "%s: unknown state %d", p, (int)m->state);
    out->state = (enum tny_wire_presence_state)m->state;
    wire__path(p, sizeof p, "%s.queued_results", r);
    if ((rc = wire__u32(m->has_queued_results, m->queued_results, false, p,
                        &out->queued_results, diag)) < 0)
        return rc;
    out->last_assignment_version =
        m->has_last_assignment_version ? m->last_assignment_version : 0;
    out->device_time_ms = m->has_device_time_ms ? m->device_time_ms : 0;
    wire__path(p, sizeof p, "%s.draft_round", r);
    if ((rc = wire__u32(m->has_draft_round, m->draft_round, false, p,
                        &out->draft_round, diag)) < 0)
        return rc;
    return TNY_OK;
}

int tny_wire_encode_presence(const struct tny_wire_presence *in, uint8_t **buf,
                             size_t *len, struct tny_diag *diag)
{
    Tourney__V1__Presence m;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = presence_check(in, diag)) < 0)
        return rc;
    tourney__v1__presence__init(&m);
    m.device_id = (char *)in->device_id;
    m.has_state = true;
    m.state = (Tourney__V1__PresenceState)in->state;
    m.has_queued_results = true;
    m.queued_results = (uint32_t)in->queued_results;
    m.software_version = wire__opt(in->software_version);
    m.has_last_assignment_version = in->last_assignment_version != 0;
    m.last_assignment_version = in->last_assignment_version;
    m.has_device_time_ms = in->device_time_ms != 0;
    m.device_time_ms = in->device_time_ms;
    m.detail = wire__opt(in->detail);
    m.has_draft_round = in->draft_round > 0;
    m.draft_round = (uint32_t)in->draft_round;
    return wire__pack(&m.base, presence_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int presence_decode_pb(const ProtobufCMessage *m, void *out,
                              struct tny_diag *diag)
{
    int rc = presence_from_pb((const Tourney__V1__Presence *)m, out, diag);
    return rc == TNY_OK ? presence_check(out, diag) : rc;
}

int tny_wire_decode_presence(const uint8_t *buf, size_t len,
                             struct tny_wire_presence *out,
                             struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__presence__descriptor, presence_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, presence_decode_pb,
                        NULL, out, sizeof *out, diag);
}

/* ---- TimeSync ------------------------------------------------------------
 * client_ms is required (a monotonic reading, any sign); hub_ms is 0 in a
 * request.  Both within +-TNY_CLOCK_MAX_INSTANT_MS.
 */

static const char time_root[] = "time_sync";

static int time_check(const struct tny_wire_time *s, struct tny_diag *diag)
{
    int rc = wire__check_range(s->client_ms, -TNY_CLOCK_MAX_INSTANT_MS,
                               TNY_CLOCK_MAX_INSTANT_MS, "time_sync.client_ms",
                               diag);
    if (rc < 0)
        return rc;
    return wire__check_range(s->hub_ms, 0, TNY_CLOCK_MAX_INSTANT_MS,
                             "time_sync.hub_ms", diag);
}

int tny_wire_encode_time(const struct tny_wire_time *in, uint8_t **buf,
                         size_t *len, struct tny_diag *diag)
{
    Tourney__V1__TimeSync m;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = time_check(in, diag)) < 0)
        return rc;
    tourney__v1__time_sync__init(&m);
    m.has_client_ms = true;
    m.client_ms = in->client_ms;
    m.has_nonce = true;
    m.nonce = in->nonce;
    m.has_hub_ms = in->hub_ms != 0;
    m.hub_ms = in->hub_ms;
    return wire__pack(&m.base, time_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int time_decode_pb(const ProtobufCMessage *pm, void *out,
                          struct tny_diag *diag)
{
    const Tourney__V1__TimeSync *m = (const Tourney__V1__TimeSync *)pm;
    struct tny_wire_time *t = out;
    int rc = wire__need(m->has_client_ms, "time_sync.client_ms", diag);
    if (rc < 0)
        return rc;
    t->client_ms = m->client_ms;
    t->nonce = m->has_nonce ? m->nonce : 0;
    t->hub_ms = m->has_hub_ms ? m->hub_ms : 0;
    return time_check(t, diag);
}

int tny_wire_decode_time(const uint8_t *buf, size_t len,
                         struct tny_wire_time *out, struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__time_sync__descriptor, time_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, time_decode_pb, NULL,
                        out, sizeof *out, diag);
}

/* ---- a sign-in code's own messages (issue 20) -----------------------------
 */

static const char status_root[] = "code_status";

int tny_wire_encode_code_status(const struct tny_wire_code_status *in,
                                uint8_t **buf, size_t *len,
                                struct tny_diag *diag)
{
    const char *r = status_root;
    char p[WIRE_PATH_MAX];
    Tourney__V1__CodeStatus m;
    int rc;
    *buf = NULL;
    *len = 0;
    if (in->version < 1)
        return wire__fail(diag, "%s.version: expected 1 or more", r);
    if ((int)in->state < TNY_WIRE_CODE_VALID ||
        (int)in->state > TNY_WIRE_CODE_DROPPED)
        return wire__fail(diag, "%s.state: unknown state %d", r,
                          (int)in->state);
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(in->event_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.player_id", r);
    if ((rc = wire__check_id(in->player_id, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.table_device", r);
    if ((rc = wire__check_id(in->table_device, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.event_title", r);
    if ((rc = wire__check_text(in->event_title, WIRE_TEXT_LINE, false, p,
                               diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.name", r);
    if ((rc = wire__check_text(in->name, WIRE_TEXT_LINE, false, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.round", r);
    if ((rc = wire__check_range(in->round, 0, WIRE_MAX_ROUND, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.table", r);
    if ((rc = wire__check_range(in->table, 0, WIRE_MAX_TABLE, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.seat", r);
    if ((rc = wire__check_range(in->seat, 0, TNY_MAX_SEATS, p, diag)) < 0)
        return rc;
    if ((rc = check_language(in->language, r, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.bye_points", r);
    if ((rc = wire__check_range(in->bye_points, 0, 1000 * TNY_POINT_SCALE, p,
                                diag)) < 0)
        return rc;
    if ((in->bye || in->bye_points) && (in->table || in->round < 1))
        return wire__fail(diag, "%s.bye: a bye has a round and no table", r);
    tourney__v1__code_status__init(&m);
    m.has_version = true;
    m.version = in->version;
    m.has_state = true;
    m.state = (Tourney__V1__CodeState)in->state;
    m.event_id = (char *)in->event_id;
    m.event_title = wire__opt(in->event_title);
    m.player_id = wire__opt(in->player_id);
    m.name = wire__opt(in->name);
    m.has_round = in->round > 0;
    m.round = (uint32_t)in->round;
    m.has_table = in->table > 0;
    m.table = (uint32_t)in->table;
    m.has_seat = in->seat > 0;
    m.seat = (uint32_t)in->seat;
    m.has_checked_in = in->checked_in;
    m.checked_in = in->checked_in;
    m.has_drop_requested = in->drop_requested;
    m.drop_requested = in->drop_requested;
    m.table_device = wire__opt(in->table_device);
    m.language = wire__opt(in->language);
    m.has_bye = in->bye;
    m.bye = in->bye;
    m.has_bye_points = in->bye_points > 0;
    m.bye_points = in->bye_points;
    return wire__pack(&m.base, status_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static const char preq_root[] = "player_request";

static int preq_check(const struct tny_wire_player_request *q,
                      struct tny_diag *diag)
{
    const char *r = preq_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.idempotency_key", r);
    if ((rc = wire__check_id(q->idempotency_key, true, p, diag)) < 0)
        return rc;
    if ((int)q->kind < TNY_WIRE_PLAYER_CHECK_IN ||
        (int)q->kind > TNY_WIRE_PLAYER_DROP)
        return wire__fail(diag, "%s.kind: unknown kind %d", r, (int)q->kind);
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__check_id(q->event_id, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.player_id", r);
    return wire__check_id(q->player_id, true, p, diag);
}

int tny_wire_encode_player_request(const struct tny_wire_player_request *in,
                                   uint8_t **buf, size_t *len,
                                   struct tny_diag *diag)
{
    Tourney__V1__PlayerRequest m;
    int rc;
    *buf = NULL;
    *len = 0;
    if ((rc = preq_check(in, diag)) < 0)
        return rc;
    tourney__v1__player_request__init(&m);
    m.idempotency_key = (char *)in->idempotency_key;
    m.has_kind = true;
    m.kind = (Tourney__V1__PlayerRequestKind)in->kind;
    m.event_id = (char *)in->event_id;
    m.player_id = (char *)in->player_id;
    return wire__pack(&m.base, preq_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}

static int preq_decode_pb(const ProtobufCMessage *pm, void *out,
                          struct tny_diag *diag)
{
    const Tourney__V1__PlayerRequest *m =
        (const Tourney__V1__PlayerRequest *)pm;
    struct tny_wire_player_request *q = out;
    const char *r = preq_root;
    char p[WIRE_PATH_MAX];
    int rc;
    wire__path(p, sizeof p, "%s.idempotency_key", r);
    if ((rc = wire__copy_id(q->idempotency_key, sizeof q->idempotency_key,
                            m->idempotency_key, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.kind", r);
    if ((rc = wire__need(m->has_kind, p, diag)) < 0)
        return rc;
    if ((int)m->kind < TNY_WIRE_PLAYER_CHECK_IN ||
        (int)m->kind > TNY_WIRE_PLAYER_DROP)
        return wire__fail(diag, "%s: unknown kind %d", p, (int)m->kind);
    q->kind = (enum tny_wire_player_request_kind)m->kind;
    wire__path(p, sizeof p, "%s.event_id", r);
    if ((rc = wire__copy_id(q->event_id, sizeof q->event_id, m->event_id, true,
                            p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.player_id", r);
    if ((rc = wire__copy_id(q->player_id, sizeof q->player_id, m->player_id,
                            true, p, diag)) < 0)
        return rc;
    return preq_check(q, diag);
}

int tny_wire_decode_player_request(const uint8_t *buf, size_t len,
                                   struct tny_wire_player_request *out,
                                   struct tny_diag *diag)
{
    return wire__decode(&tourney__v1__player_request__descriptor, preq_root,
                        TNY_WIRE_MAX_TABLE_MSG, buf, len, preq_decode_pb, NULL,
                        out, sizeof *out, diag);
}

static const char pack_root[] = "player_ack";

int tny_wire_encode_player_ack(const struct tny_wire_player_ack *in,
                               uint8_t **buf, size_t *len,
                               struct tny_diag *diag)
{
    const char *r = pack_root;
    char p[WIRE_PATH_MAX];
    Tourney__V1__PlayerAck m;
    int rc;
    *buf = NULL;
    *len = 0;
    wire__path(p, sizeof p, "%s.idempotency_key", r);
    if ((rc = wire__check_id(in->idempotency_key, true, p, diag)) < 0)
        return rc;
    wire__path(p, sizeof p, "%s.reason_text", r);
    if ((rc = wire__check_text(in->reason_text, WIRE_TEXT_MULTI, false, p,
                               diag)) < 0)
        return rc;
    tourney__v1__player_ack__init(&m);
    m.idempotency_key = (char *)in->idempotency_key;
    m.has_accepted = true;
    m.accepted = in->accepted;
    m.reason_text = wire__opt(in->reason_text);
    return wire__pack(&m.base, pack_root, TNY_WIRE_MAX_TABLE_MSG, buf, len,
                      diag);
}
