/* core.c - the table client's state machine (see core.h).
 *
 * Pure apart from allocation and the callbacks: no clock is read (callers
 * pass monotonic milliseconds), nothing is stored or sent here.
 * Invariants: a "state" line is emitted exactly when the derived state
 * differs from the last one shown; an input refused with an "error" line
 * changes nothing.
 */
#include "core.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "text.h"
#include "tny/game.h"

#define LINE_MAX_ 4096

static const char *const state_names[] = {
    [TBL_STATE_WAITING] = "waiting",
    [TBL_STATE_IDLE] = "idle",
    [TBL_STATE_PLAYING] = "playing",
    [TBL_STATE_CONFIRMING] = "confirming",
    [TBL_STATE_SUBMITTED] = "submitted",
    [TBL_STATE_PENDING_CONFIRMATION] = "pending_confirmation",
    [TBL_STATE_DONE] = "done",
};

const char *tbl_state_name(enum tbl_state s)
{
    if ((int)s < 0 || (size_t)s >= sizeof(state_names) / sizeof(*state_names))
        return "?";
    return state_names[s];
}

static const char *ack_reason_name(enum tny_wire_ack_reason r)
{
    switch (r) {
    case TNY_WIRE_REASON_NONE: return "none";
    case TNY_WIRE_REASON_MALFORMED: return "malformed";
    case TNY_WIRE_REASON_UNKNOWN_EVENT: return "unknown_event";
    case TNY_WIRE_REASON_WRONG_TABLE: return "wrong_table";
    case TNY_WIRE_REASON_WRONG_ROUND: return "wrong_round";
    case TNY_WIRE_REASON_WRONG_PLAYERS: return "wrong_players";
    case TNY_WIRE_REASON_INVALID_RESULT: return "invalid_result";
    case TNY_WIRE_REASON_ALREADY_CONFIRMED: return "already_confirmed";
    case TNY_WIRE_REASON_UNCONFIRMED: return "unconfirmed";
    case TNY_WIRE_REASON_STALE_ASSIGNMENT: return "stale_assignment";
    }
    return "unknown";
}

static const char *clock_state_name(enum tny_round_clock_state s)
{
    switch (s) {
    case TNY_ROUND_CLOCK_READY: return "not_started";
    case TNY_ROUND_CLOCK_RUNNING: return "running";
    case TNY_ROUND_CLOCK_PAUSED: return "paused";
    }
    return "?";
}

static void emitf(struct tbl_core *c, const char *fmt, ...) TNY_PRINTF(2, 3);

static void emitf(struct tbl_core *c, const char *fmt, ...)
{
    char line[LINE_MAX_];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (c->ops.emit)
        c->ops.emit(c->ops.ctx, line);
}

/* ---- derived state ----------------------------------------------------- */

static bool sub_is_for_assignment(const struct tbl_core *c)
{
    return c->has_sub && c->has_assignment &&
           strcmp(c->sub.event_id, c->asg.event_id) == 0 &&
           c->sub.round == c->asg.round && c->sub.table == c->asg.table;
}

enum tbl_state tbl_core_state(const struct tbl_core *c)
{
    if (!c->has_assignment)
        return TBL_STATE_WAITING;
    if (c->asg.table == 0)
        return TBL_STATE_IDLE;
    /* The organiser entered this table's result: it is in. */
    if (c->asg.organiser_result[0])
        return TBL_STATE_DONE;
    if (sub_is_for_assignment(c)) {
        switch (c->sub_status) {
        case TBL_SUB_SENT: return TBL_STATE_SUBMITTED;
        case TBL_SUB_ACCEPTED: return TBL_STATE_DONE;
        case TBL_SUB_PENDING: return TBL_STATE_PENDING_CONFIRMATION;
        case TBL_SUB_REFUSED: break;
        }
    }
    return c->has_entry ? TBL_STATE_CONFIRMING : TBL_STATE_PLAYING;
}

static void update_state(struct tbl_core *c)
{
    enum tbl_state s = tbl_core_state(c);

    if (c->state_shown && s == c->shown)
        return;
    c->shown = s;
    c->state_shown = true;
    emitf(c, "state %s", tbl_state_name(s));
}

/* ---- lifecycle ---------------------------------------------------------- */

void tbl_core_init(struct tbl_core *c, const char *device_id, uint64_t boot,
                   const struct tbl_core_ops *ops)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->device_id, sizeof(c->device_id), "%s", device_id);
    c->boot = boot;
    c->clock_stop_ms = -1;
    if (ops)
        c->ops = *ops;
    tny_event_init(&c->game.ev);
}

void tbl_core_release(struct tbl_core *c)
{
    tbl_game_release(&c->game);
    tny_wire_clock_release(&c->round_clock);
    memset(c, 0, sizeof(*c));
}

void tbl_core_start(struct tbl_core *c)
{
    update_state(c);
}

/* ---- clock -------------------------------------------------------------- */

static void emit_clock(struct tbl_core *c, int64_t now_ms)
{
    if (!c->has_clock)
        return;
    if (c->clock.unlimited) {
        emitf(c, "clock remaining_ms=unlimited state=%s",
              clock_state_name(c->clock.state));
        return;
    }
    tbl_core_follow(c, now_ms);
    emitf(c, "clock remaining_ms=%" PRId64 " state=%s%s%s",
          tbl_core_clock_left(c, now_ms), clock_state_name(c->clock.state),
          c->clock_stop_ms >= 0 ? " stopped" : "",
          tbl_core_per_table_start(c) && c->clock.state == TNY_ROUND_CLOCK_READY
              ? " waiting_for_draft"
              : "");
}

bool tbl_core_per_table_start(const struct tbl_core *c)
{
    return c->has_assignment && c->asg.table > 0 &&
           (tny_game_clocks(c->asg.game) & TNY_GCLOCK_DRAFT) &&
           c->asg.draft_ms > 0;
}

int32_t tbl_core_draft_round(const struct tbl_core *c)
{
    return c->has_assignment && c->draft_round == c->asg.round ? c->draft_round
                                                               : 0;
}

int tbl_core_start_draft(struct tbl_core *c, struct tny_diag *diag)
{
    if (!c->has_assignment || c->asg.table == 0)
        return tny_diag_set(diag, TNY_ESTATE, _("draft: no table assigned"));
    if (!tbl_core_per_table_start(c))
        return tny_diag_set(diag, TNY_ESTATE,
                            _("draft: this table's format has no draft "
                              "(AG-14)"));
    if (tbl_core_draft_round(c) != 0)
        return tny_diag_set(diag, TNY_ESTATE,
                            _("draft: already started in round %d"),
                            (int)c->draft_round);
    c->draft_round = c->asg.round;
    emitf(c, "draft started round=%d", (int)c->draft_round);
    return TNY_OK;
}

static bool finished(const struct tbl_core *c)
{
    enum tbl_state s = tbl_core_state(c);
    return s == TBL_STATE_SUBMITTED || s == TBL_STATE_PENDING_CONFIRMATION ||
           s == TBL_STATE_DONE;
}

void tbl_core_follow(struct tbl_core *c, int64_t now_ms)
{
    if (!finished(c))
        c->clock_stop_ms = -1;
    else if (c->clock_stop_ms < 0)
        c->clock_stop_ms = now_ms;
}

int64_t tbl_core_clock_left(const struct tbl_core *c, int64_t now_ms)
{
    if (c->clock_stop_ms >= 0 && c->clock_stop_ms < now_ms)
        now_ms = c->clock_stop_ms;
    return tny_table_clock_remaining(&c->clock, now_ms);
}

void tbl_core_time_sync(struct tbl_core *c, int64_t offset_ms, int64_t rtt_ms,
                        int64_t now_ms)
{
    struct tny_diag d = {{0}};

    if (c->has_clock &&
        tny_table_clock_use_offset(&c->clock, offset_ms, &d) < 0) {
        emitf(c, "warn time sync: %s", d.msg);
        return;
    }
    c->has_sync = true;
    c->sync_offset_ms = offset_ms;
    emitf(c, "time sync offset_ms=%" PRId64 " rtt_ms=%" PRId64, offset_ms,
          rtt_ms);
    if (c->has_clock)
        emit_clock(c, now_ms);
}

/* The clock to show: the event's RoundClock for the assigned round when we
 * have one, else the assignment's own. */
static void recompute_clock(struct tbl_core *c, int64_t now_ms)
{
    struct tny_clock_msg m;
    int64_t recv;
    struct tny_table_clock tc = {0};
    struct tny_diag d = {{0}};

    if (!c->has_assignment) {
        c->has_clock = false;
        return;
    }
    /* Both carry versions from the hub's one counter: the later message
     * wins (a RoundClock kept from before an unassignment is older than
     * the clock of the assignment that follows it). */
    if (c->has_round_clock &&
        strcmp(c->round_clock.event_id, c->asg.event_id) == 0 &&
        c->round_clock.round == c->asg.round &&
        (!c->asg.has_clock || c->round_clock.version > c->asg.version)) {
        tny_wire_clock_for_table(&c->round_clock, c->asg.table, &m);
        recv = c->round_clock_recv_ms;
    } else if (c->asg.has_clock) {
        m = c->asg.clock;
        recv = c->asg_recv_ms;
    } else {
        c->has_clock = false;
        return;
    }
    /* The offset measured on the message is late by the message's age (a
     * retained one may be hours old): the time sync's wins. */
    if (tny_table_clock_apply(&tc, &m, recv, &d) < 0 ||
        (c->has_sync &&
         tny_table_clock_use_offset(&tc, c->sync_offset_ms, &d) < 0)) {
        emitf(c, "warn clock: %s", d.msg);
        c->has_clock = false;
        return;
    }
    c->clock = tc;
    c->has_clock = true;
    c->expired_shown = false;
    emit_clock(c, now_ms);
}

int64_t tbl_core_tick(struct tbl_core *c, int64_t now_ms)
{
    int64_t rem;

    if (!c->has_clock || c->clock.unlimited ||
        c->clock.state != TNY_ROUND_CLOCK_RUNNING)
        return -1;
    tbl_core_follow(c, now_ms);
    rem = tbl_core_clock_left(c, now_ms);
    if (c->clock_stop_ms >= 0)
        return -1; /* finished: the clock stands */
    if (rem > 0)
        return rem;
    if (!c->expired_shown) {
        c->expired_shown = true;
        emitf(c, "clock expired");
    }
    return -1;
}

int tbl_core_round_clock(struct tbl_core *c, const struct tny_wire_clock *in,
                         int64_t now_ms)
{
    struct tny_wire_clock copy;

    if (!c->has_assignment || strcmp(in->event_id, c->asg.event_id) != 0)
        return TNY_OK; /* another event's clock (or none assigned yet) */
    if (c->has_round_clock && in->version <= c->round_clock.version) {
        emitf(c, "stale clock version=%" PRIu64 " have=%" PRIu64, in->version,
              c->round_clock.version);
        return TNY_OK;
    }
    copy = *in;
    copy.extensions = NULL;
    if (in->n_extensions > 0) {
        copy.extensions =
            malloc((size_t)in->n_extensions * sizeof(*copy.extensions));
        if (!copy.extensions)
            return TNY_ENOMEM;
        memcpy(copy.extensions, in->extensions,
               (size_t)in->n_extensions * sizeof(*copy.extensions));
    }
    tny_wire_clock_release(&c->round_clock);
    c->round_clock = copy;
    c->has_round_clock = true;
    c->round_clock_recv_ms = now_ms;
    recompute_clock(c, now_ms);
    return TNY_OK;
}

/* ---- assignment --------------------------------------------------------- */

static bool same_table(const struct tny_wire_assignment *a,
                       const struct tny_wire_assignment *b)
{
    if (strcmp(a->event_id, b->event_id) != 0 || a->round != b->round ||
        a->table != b->table || a->n_seats != b->n_seats)
        return false;
    for (int32_t i = 0; i < a->n_seats; i++)
        if (strcmp(a->seats[i].player_id, b->seats[i].player_id) != 0)
            return false;
    return true;
}

/* "p1,p2" of the seats (those not yet confirmed when only_unconfirmed). */
static void seat_list(const struct tbl_core *c, bool only_unconfirmed,
                      char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (int32_t i = 0; i < c->asg.n_seats; i++) {
        if (only_unconfirmed && c->confirmed[i])
            continue;
        int k = snprintf(buf + n, size - n, "%s%s", n ? "," : "",
                         c->asg.seats[i].player_id);
        if (k < 0 || (size_t)k >= size - n)
            break;
        n += (size_t)k;
    }
    if (n == 0)
        snprintf(buf, size, "-");
}

static void emit_assignment(struct tbl_core *c)
{
    char seats[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 1) + 2];
    const struct tny_wire_assignment *a = &c->asg;

    seat_list(c, false, seats, sizeof(seats));
    emitf(c,
          "assigned event=%s round=%d table=%d version=%" PRIu64
          " game=%s stage=%s seats=%s",
          a->event_id, (int)a->round, (int)a->table, a->version,
          tny_game_name(a->game), tny_stage_kind_name(a->stage), seats);
    for (int32_t i = 0; i < a->n_seats; i++) {
        const struct tny_wire_seat *s = &a->seats[i];
        char name[TNY_WIRE_TEXT_MAX * 4 + 3];
        char extra[TNY_MAX_ARMIES * TNY_NAME_MAX + 64] = "";
        size_t n = 0;
        tbl_text_quote(s->name, name, sizeof(name));
        /* Army and colour names may hold blanks: quoted lists. */
        for (int32_t k = 0; k < s->n_armies && n < sizeof(extra); k++) {
            int w = snprintf(extra + n, sizeof(extra) - n, "%s%s%s",
                             k ? "," : " armies=\"", s->armies[k],
                             k + 1 == s->n_armies ? "\"" : "");
            n += w > 0 ? (size_t)w : 0;
        }
        for (int32_t k = 0; k < s->n_colours && n < sizeof(extra); k++) {
            int w = snprintf(extra + n, sizeof(extra) - n, "%s%s%s",
                             k ? "," : " colours=\"", s->colours[k],
                             k + 1 == s->n_colours ? "\"" : "");
            n += w > 0 ? (size_t)w : 0;
        }
        if (s->side[0] && n < sizeof(extra)) { /* issue 19 */
            int w =
                snprintf(extra + n, sizeof(extra) - n, " side=\"%s\"", s->side);
            n += w > 0 ? (size_t)w : 0;
        }
        emitf(c, "seat %d id=%s name=%s%s%s", (int)(i + 1), s->player_id, name,
              s->first_player ? " first" : "", extra);
    }
    if (a->organiser_result[0]) {
        char by[sizeof(a->organiser_result_by) * 4 + 3];
        tbl_text_quote(a->organiser_result_by, by, sizeof(by));
        emitf(c, "organiser_result by=%s result=%s", by, a->organiser_result);
    }
}

void tbl_core_assignment(struct tbl_core *c,
                         const struct tny_wire_assignment *a, int64_t now_ms,
                         bool *applied)
{
    struct tny_diag d = {{0}};
    bool keep_entry;

    if (applied)
        *applied = false;
    if (a->version <= c->asg_version) {
        emitf(c, "stale assign version=%" PRIu64 " have=%" PRIu64, a->version,
              c->asg_version);
        return;
    }
    keep_entry = c->has_assignment && same_table(&c->asg, a);
    if (c->has_round_clock && strcmp(c->round_clock.event_id, a->event_id)) {
        tny_wire_clock_release(&c->round_clock);
        c->has_round_clock = false;
    }
    c->asg = *a;
    c->asg_version = a->version;
    c->asg_recv_ms = now_ms;
    c->has_assignment = true;
    if (!keep_entry) {
        c->has_entry = false;
        memset(c->confirmed, 0, sizeof(c->confirmed));
    }
    tbl_game_release(&c->game);
    c->has_game = false;
    c->game_error[0] = '\0';
    if (a->table > 0) {
        if (tbl_game_from_assignment(a, &c->game, &d) == 0) {
            c->has_game = true;
        } else {
            snprintf(c->game_error, sizeof(c->game_error), "%s", d.msg);
            emitf(c, "warn %s", d.msg);
        }
    }
    if (applied)
        *applied = true;
    emit_assignment(c);
    recompute_clock(c, now_ms);
    update_state(c);
}

void tbl_core_clear_assignment(struct tbl_core *c)
{
    if (!c->has_assignment) {
        update_state(c);
        return;
    }
    c->has_assignment = false;
    c->has_entry = false;
    c->has_clock = false;
    tbl_game_release(&c->game);
    c->has_game = false;
    emitf(c, "assigned none");
    update_state(c);
}

/* ---- submissions ------------------------------------------------------- */

void tbl_core_restore(struct tbl_core *c, const struct tny_wire_submission *sub,
                      enum tbl_sub_status status)
{
    c->sub = *sub;
    c->has_sub = true;
    c->sub_status = status;
    c->sub_reason = TNY_WIRE_REASON_NONE;
    c->sub_reason_text[0] = '\0';
    update_state(c);
}

void tbl_core_ack(struct tbl_core *c, const struct tny_wire_ack *ack)
{
    char text[TNY_WIRE_NOTE_MAX * 4 + 16] = "";
    char reason[64] = "";

    if (ack->reason != TNY_WIRE_REASON_NONE)
        snprintf(reason, sizeof(reason), " reason=%s",
                 ack_reason_name(ack->reason));
    if (ack->reason_text[0]) {
        memcpy(text, " text=", 6);
        tbl_text_quote(ack->reason_text, text + 6, sizeof(text) - 6);
    }
    emitf(c, "ack %s key=%s%s%s", tny_wire_ack_status_name(ack->status),
          ack->key[0] ? ack->key : "-", reason, text);
    if (!c->has_sub || strcmp(ack->key, c->sub.key) != 0)
        return;
    switch (ack->status) {
    case TNY_WIRE_ACK_ACCEPTED:
    case TNY_WIRE_ACK_DUPLICATE: c->sub_status = TBL_SUB_ACCEPTED; break;
    case TNY_WIRE_ACK_PENDING_CONFIRMATION:
        c->sub_status = TBL_SUB_PENDING;
        break;
    case TNY_WIRE_ACK_REJECTED:
    case TNY_WIRE_ACK_CONFLICT: c->sub_status = TBL_SUB_REFUSED; break;
    }
    c->sub_reason = ack->reason;
    snprintf(c->sub_reason_text, sizeof(c->sub_reason_text), "%s",
             ack->reason_text);
    update_state(c);
}

/* Why no result can be entered now (0 when it can). */
static int check_can_enter(const struct tbl_core *c, struct tny_diag *diag)
{
    switch (tbl_core_state(c)) {
    case TBL_STATE_WAITING:
        return tny_diag_set(diag, TNY_ESTATE, _("result: no table assigned"));
    case TBL_STATE_IDLE:
        return tny_diag_set(diag, TNY_ESTATE,
                            _("result: this device has no table this round"));
    case TBL_STATE_SUBMITTED:
        return tny_diag_set(diag, TNY_ESTATE,
                            _("result: already submitted (key=%s), waiting "
                              "for the hub"),
                            c->sub.key);
    case TBL_STATE_PENDING_CONFIRMATION:
        return tny_diag_set(diag, TNY_ESTATE,
                            _("result: the hub holds it and waits for "
                              "confirmations (key=%s)"),
                            c->sub.key);
    case TBL_STATE_DONE:
        if (c->asg.organiser_result[0])
            return tny_diag_set(diag, TNY_ESTATE,
                                _("result: entered by the organiser (%s); only "
                                  "the organiser can change it"),
                                c->asg.organiser_result_by);
        return tny_diag_set(diag, TNY_ESTATE,
                            _("result: accepted by the hub (key=%s); only the "
                              "organiser can change it"),
                            c->sub.key);
    case TBL_STATE_PLAYING:
    case TBL_STATE_CONFIRMING: break;
    }
    return TNY_OK;
}

int tbl_core_enter_result(struct tbl_core *c, const struct tny_wire_result *r,
                          struct tny_diag *diag)
{
    char need[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 1) + 2];
    int rc = check_can_enter(c, diag);

    if (rc < 0)
        return rc;
    if (r->game != c->asg.game)
        return tny_diag_set(diag, TNY_EINVAL,
                            "result: a %s result at a %s table",
                            tny_game_name(r->game), tny_game_name(c->asg.game));
    c->entry = *r;
    c->has_entry = true;
    memset(c->confirmed, 0, sizeof(c->confirmed));
    seat_list(c, true, need, sizeof(need));
    emitf(c, "result entered need=%s", need);
    update_state(c);
    return TNY_OK;
}

static int seat_of(const struct tbl_core *c, const char *id)
{
    for (int32_t i = 0; i < c->asg.n_seats; i++)
        if (strcmp(c->asg.seats[i].player_id, id) == 0)
            return i;
    return -1;
}

static int check_player(const struct tbl_core *c, const char *what,
                        const char *id, int *seat, struct tny_diag *diag)
{
    char all[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 1) + 2];

    if (tbl_core_state(c) != TBL_STATE_CONFIRMING)
        return tny_diag_set(diag, TNY_ESTATE, "%s: no result to %s (state %s)",
                            what, what, tbl_state_name(tbl_core_state(c)));
    *seat = seat_of(c, id);
    if (*seat < 0) {
        seat_list(c, false, all, sizeof(all));
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "%s: \"%.64s\" is not a player of this table "
                            "(players: %s)",
                            what, id, all);
    }
    return TNY_OK;
}

static void make_submission(struct tbl_core *c, struct tny_wire_submission *s)
{
    memset(s, 0, sizeof(*s));
    c->seq++;
    /* {dev}.{boot}.{seq}: at most 40 + 1 + 20 + 1 + ... fits 64 for any
     * realistic boot and seq; cut the device part to keep it so. */
    snprintf(s->key, sizeof(s->key), "%.30s.%" PRIu64 ".%" PRIu64, c->device_id,
             c->boot, c->seq);
    snprintf(s->device_id, sizeof(s->device_id), "%s", c->device_id);
    snprintf(s->event_id, sizeof(s->event_id), "%s", c->asg.event_id);
    s->round = c->asg.round;
    s->table = c->asg.table;
    s->assignment_version = c->asg.version;
    s->result = c->entry;
    s->n_confirmed = c->asg.n_seats;
    for (int32_t i = 0; i < c->asg.n_seats; i++)
        snprintf(s->confirmed[i], sizeof(s->confirmed[i]), "%s",
                 c->asg.seats[i].player_id);
    s->table_time_ms = c->ops.wall_ms ? c->ops.wall_ms(c->ops.ctx) : 0;
}

int tbl_core_confirm(struct tbl_core *c, const char *id, struct tny_diag *diag)
{
    char need[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 1) + 2];
    struct tny_wire_submission sub;
    int seat, rc;

    if ((rc = check_player(c, "confirm", id, &seat, diag)) < 0)
        return rc;
    if (c->confirmed[seat])
        return tny_diag_set(diag, TNY_EINVAL, "confirm: %s already confirmed",
                            id);
    c->confirmed[seat] = true;
    seat_list(c, true, need, sizeof(need));
    emitf(c, "confirmed %s need=%s", id, need);
    for (int32_t i = 0; i < c->asg.n_seats; i++)
        if (!c->confirmed[i])
            return TNY_OK;
    make_submission(c, &sub);
    if (c->ops.submit && (rc = c->ops.submit(c->ops.ctx, &sub, diag)) < 0) {
        /* Not stored: the last player confirms again to retry. */
        c->confirmed[seat] = false;
        return rc;
    }
    c->sub = sub;
    c->has_sub = true;
    c->sub_status = TBL_SUB_SENT;
    c->sub_reason = TNY_WIRE_REASON_NONE;
    c->sub_reason_text[0] = '\0';
    c->has_entry = false;
    memset(c->confirmed, 0, sizeof(c->confirmed));
    emitf(c, "result pending key=%s", sub.key);
    update_state(c);
    return TNY_OK;
}

int tbl_core_reject(struct tbl_core *c, const char *id, struct tny_diag *diag)
{
    int seat, rc;

    if ((rc = check_player(c, "reject", id, &seat, diag)) < 0)
        return rc;
    c->has_entry = false;
    memset(c->confirmed, 0, sizeof(c->confirmed));
    emitf(c, "rejected %s", id);
    update_state(c);
    return TNY_OK;
}

/* ---- net and status ---------------------------------------------------- */

void tbl_core_set_hub(struct tbl_core *c, bool online)
{
    c->hub_known = true;
    c->hub_online = online;
    emitf(c, "hub %s", online ? "online" : "offline");
}

const char *tbl_core_refusal(const struct tbl_core *c, char *buf, size_t size)
{
    if (!sub_is_for_assignment(c) || c->sub_status != TBL_SUB_REFUSED)
        return NULL;
    if (c->sub_reason_text[0])
        snprintf(buf, size, "%s: %s", ack_reason_name(c->sub_reason),
                 c->sub_reason_text);
    else
        snprintf(buf, size, "%s", ack_reason_name(c->sub_reason));
    return buf;
}

void tbl_core_set_net(struct tbl_core *c, bool online, int32_t queued)
{
    if (c->net_shown && c->online == online && c->queued == queued)
        return;
    c->online = online;
    c->queued = queued;
    c->net_shown = true;
    emitf(c, "net %s queued=%d", online ? "online" : "offline", (int)queued);
}

void tbl_core_set_net_refused(struct tbl_core *c, const char *why)
{
    if (strcmp(c->net_refused, why) == 0)
        return;
    snprintf(c->net_refused, sizeof(c->net_refused), "%s", why);
    if (why[0])
        emitf(c, "net refused %s", why);
}

static const char *sub_status_name(enum tbl_sub_status s)
{
    switch (s) {
    case TBL_SUB_SENT: return "sent";
    case TBL_SUB_ACCEPTED: return "accepted";
    case TBL_SUB_PENDING: return "pending_confirmation";
    case TBL_SUB_REFUSED: return "refused";
    }
    return "?";
}

void tbl_core_status(struct tbl_core *c, int64_t now_ms)
{
    char need[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 1) + 2];

    emitf(c, "state %s", tbl_state_name(tbl_core_state(c)));
    if (c->has_assignment)
        emit_assignment(c);
    emit_clock(c, now_ms);
    if (c->has_entry) {
        seat_list(c, true, need, sizeof(need));
        emitf(c, "result entered need=%s", need);
    }
    if (c->has_sub)
        emitf(c, "submission key=%s status=%s event=%s round=%d table=%d",
              c->sub.key, sub_status_name(c->sub_status), c->sub.event_id,
              (int)c->sub.round, (int)c->sub.table);
    emitf(c, "net %s queued=%d", c->online ? "online" : "offline",
          (int)c->queued);
    emitf(c, "status end");
}

/* ---- input lines -------------------------------------------------------- */

static enum tbl_input refuse(struct tbl_core *c, const struct tny_diag *d)
{
    emitf(c, "error %s", d->msg);
    return TBL_INPUT_ERROR;
}

/* The single player id argument of confirm/reject. */
static int one_id(const char *what, const char *rest, char *id,
                  struct tny_diag *d)
{
    size_t n = strcspn(rest, " \t");

    if (n == 0)
        return tny_diag_set(d, TNY_EINVAL, "%s: missing the player id", what);
    if (rest[n + strspn(rest + n, " \t")] != '\0')
        return tny_diag_set(d, TNY_EINVAL,
                            "%s: expected one player id, got \"%.64s\"", what,
                            rest);
    if (n > TNY_WIRE_ID_MAX)
        return tny_diag_set(d, TNY_EINVAL, "%s: player id too long", what);
    memcpy(id, rest, n);
    id[n] = '\0';
    return TNY_OK;
}

enum tbl_input tbl_core_input(struct tbl_core *c, const char *line,
                              int64_t now_ms)
{
    struct tny_diag d = {{0}};
    char cmd[16];
    char id[TNY_WIRE_ID_MAX + 1];
    const char *rest;
    size_t n, len;
    char *copy = NULL;
    enum tbl_input out = TBL_INPUT_OK;

    line += strspn(line, " \t");
    len = strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' ||
                       line[len - 1] == '\t' || line[len - 1] == '\n'))
        len--;
    if (len == 0)
        return TBL_INPUT_OK;
    copy = malloc(len + 1);
    if (!copy) {
        tny_diag_set(&d, TNY_ENOMEM, "input: out of memory");
        return refuse(c, &d);
    }
    memcpy(copy, line, len);
    copy[len] = '\0';
    n = strcspn(copy, " \t");
    rest = copy + n + strspn(copy + n, " \t");
    if (n >= sizeof(cmd)) {
        tny_diag_set(&d, TNY_EINVAL,
                     "unknown command \"%.32s\" (expected one of: result, "
                     "confirm, reject, draft, status, quit, help)",
                     copy);
        out = refuse(c, &d);
        goto out;
    }
    memcpy(cmd, copy, n);
    cmd[n] = '\0';
    if (strcmp(cmd, "result") == 0) {
        struct tny_wire_result r;
        if (*rest == '\0') {
            tny_diag_set(&d, TNY_EINVAL,
                         "result: missing the result (a JSON object or "
                         "key=value pairs)");
            out = refuse(c, &d);
        } else if (check_can_enter(c, &d) < 0) {
            out = refuse(c, &d);
        } else if (!c->has_game) {
            tny_diag_set(&d, TNY_ESTATE,
                         "result: cannot check results here: %s",
                         c->game_error);
            out = refuse(c, &d);
        } else if (tbl_game_parse_result(&c->game, rest, &r, &d) < 0 ||
                   tbl_core_enter_result(c, &r, &d) < 0) {
            out = refuse(c, &d);
        }
    } else if (strcmp(cmd, "confirm") == 0) {
        if (one_id("confirm", rest, id, &d) < 0 ||
            tbl_core_confirm(c, id, &d) < 0)
            out = refuse(c, &d);
    } else if (strcmp(cmd, "reject") == 0) {
        if (one_id("reject", rest, id, &d) < 0 ||
            tbl_core_reject(c, id, &d) < 0)
            out = refuse(c, &d);
    } else if (strcmp(cmd, "draft") == 0) {
        if (tbl_core_start_draft(c, &d) < 0)
            out = refuse(c, &d);
    } else if (strcmp(cmd, "status") == 0) {
        tbl_core_status(c, now_ms);
    } else if (strcmp(cmd, "quit") == 0) {
        out = TBL_INPUT_QUIT;
    } else if (strcmp(cmd, "help") == 0) {
        emitf(c, "help commands: result {json} | result key=value ..., "
                 "confirm ID, reject ID, draft, status, quit");
    } else {
        tny_diag_set(&d, TNY_EINVAL,
                     "unknown command \"%s\" (expected one of: result, "
                     "confirm, reject, draft, status, quit, help)",
                     cmd);
        out = refuse(c, &d);
    }
out:
    free(copy);
    return out;
}
