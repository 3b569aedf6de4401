/* screen.c - the table display's model: binding to the assigned table,
 * the keys of every screen, the guided flows, confirmations, the table's
 * own clocks and the saved state (screen.h).  Drawing is screen_draw.c.
 *
 * Pure: no I/O, no clock read (now and wall milliseconds come in), no
 * allocation.  A key either changes the model (and sets dirty) or leaves
 * a message saying why it was refused.
 * Invariants: in_flow implies bound and a game at the core; view FLOW
 * implies in_flow; view CONFIRM is left as soon as the core is no longer
 * confirming.
 */
#include "screen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tny/game.h"

static const char *const view_names[] = {
    [TBL_VIEW_MAIN] = "main",       [TBL_VIEW_FLOW] = "flow",
    [TBL_VIEW_OUTCOME] = "outcome", [TBL_VIEW_CONFIRM] = "confirm",
    [TBL_VIEW_CHESS] = "chess",     [TBL_VIEW_NOTES] = "notes",
};

const char *tbl_view_name(enum tbl_view v)
{
    if ((int)v < 0 || (size_t)v >= sizeof(view_names) / sizeof(*view_names))
        return "?";
    return view_names[v];
}

static void say(struct tbl_screen *s, bool error, const char *fmt, ...)
    TNY_PRINTF(3, 4);

static void say(struct tbl_screen *s, bool error, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    /* fmt is a msgid (po/tourney-table/POTFILES: keyword say). */
    vsnprintf(s->message, sizeof(s->message), gettext(fmt), ap);
    va_end(ap);
    s->message_error = error;
}

/* The table's state as a player reads it (tbl_state_name is the
 * protocol's word). */
static const char *state_words(enum tbl_state st)
{
    switch (st) {
    case TBL_STATE_WAITING: return _("waiting for the round");
    case TBL_STATE_IDLE: return _("no table this round");
    case TBL_STATE_PLAYING: return _("playing");
    case TBL_STATE_CONFIRMING: return _("waiting for confirmations");
    case TBL_STATE_SUBMITTED: return _("result sent");
    case TBL_STATE_PENDING_CONFIRMATION:
        return _("the hub waits for confirmations");
    case TBL_STATE_DONE: return _("result accepted");
    }
    return "?";
}

static void quiet(struct tbl_screen *s)
{
    s->message[0] = '\0';
    s->message_error = false;
}

/* Everything but a pending restore. */
static void reset(struct tbl_screen *s)
{
    bool has_pending = s->has_pending_load;
    char pending[TBL_SCREEN_SAVE_MAX];
    int64_t identify_until = s->identify_until_ms;
    int32_t identify_table = s->identify_table;

    memcpy(pending, s->pending_load, sizeof(pending));
    tbl_flow_release(&s->flow);
    memset(s, 0, sizeof(*s));
    tbl_flow_release(&s->flow);
    s->view = TBL_VIEW_MAIN;
    s->round_start_ms = -1;
    s->turn_start_ms = -1;
    s->identify_until_ms = identify_until;
    s->identify_table = identify_table;
    s->has_pending_load = has_pending;
    memcpy(s->pending_load, pending, sizeof(pending));
    s->dirty = true;
}

void tbl_screen_init(struct tbl_screen *s)
{
    memset(s, 0, sizeof(*s));
    reset(s);
    s->dirty = false;
}

void tbl_screen_identify(struct tbl_screen *s, int32_t table, int64_t now_ms)
{
    s->identify_until_ms = now_ms + TBL_SCREEN_IDENTIFY_MS;
    if (s->identify_until_ms == 0)
        s->identify_until_ms = 1;
    s->identify_table = table;
}

/* ---- flows ------------------------------------------------------------ */

/* The lots' seed: the table's identity (event, round, table), so a
 * restarted table and a new assignment version draw the same lots. */
static uint64_t flow_seed(const struct tny_wire_assignment *a)
{
    uint64_t h = 1469598103934665603ull;

    for (const char *p = a->event_id; *p; p++)
        h = (h ^ (uint8_t)*p) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)a->round) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)a->table) * 1099511628211ull;
    return h;
}

static void typed_from_step(struct tbl_screen *s)
{
    struct tbl_flow_step st;

    s->typed[0] = '\0';
    if (!s->in_flow)
        return;
    tbl_flow_step(&s->flow, &st);
    if (st.ask == TBL_ASK_NUMBER && st.has_default)
        snprintf(s->typed, sizeof(s->typed), "%d", (int)st.default_value);
}

/* Facts for a new flow: the table's clocks and what finished flows
 * decided (replayed from their answers). */
static void build_facts(struct tbl_screen *s, const struct tbl_core *core,
                        int64_t now_ms, struct tbl_flow_facts *out)
{
    memset(out, 0, sizeof(*out));
    out->gt_timeout_winner = -1;
    out->round_expired = s->expired_seen;
    if (s->has_chess && s->chess.started) {
        struct tbl_chess_view v;
        tbl_chess_view(&s->chess, now_ms, &v);
        out->has_chess = true;
        out->chess_used_ms[0] = v.used_ms[0];
        out->chess_used_ms[1] = v.used_ms[1];
        out->chess_limit_ms = s->chess.limit_ms;
    }
    if (!core->has_game)
        return;
    for (int k = TBL_FLOW_PREGAME; k <= TBL_FLOW_TIMEOUT; k++) {
        const struct tbl_screen_answers *ans = &s->done[k];
        struct tbl_flow f;
        struct tny_diag d = {{0}};
        struct tbl_flow_step st;
        if (!ans->has)
            continue;
        if (tbl_flow_begin(&f, (enum tbl_flow_kind)k, &core->game, &core->asg,
                           out, flow_seed(&core->asg), &d) < 0)
            continue;
        for (int32_t i = 0; i < ans->n; i++)
            if (tbl_flow_answer(&f, ans->v[i], &d) < 0)
                break;
        tbl_flow_step(&f, &st);
        if (st.ask == TBL_ASK_DONE)
            tbl_flow_carry(&f, out);
        tbl_flow_release(&f);
    }
}

/* Begins a flow of kind and replays n answers of replay (may be NULL). */
static int start_flow(struct tbl_screen *s, struct tbl_core *core,
                      enum tbl_flow_kind kind, const int32_t *replay, int32_t n,
                      int64_t now_ms, struct tny_diag *d)
{
    int rc;

    if (!core->has_game)
        return tny_diag_set(
            d, TNY_ESTATE, _("no guided steps at this table: %s"),
            core->game_error[0] ? core->game_error : _("no table"));
    tbl_flow_release(&s->flow);
    s->in_flow = false;
    build_facts(s, core, now_ms, &s->facts);
    if ((rc = tbl_flow_begin(&s->flow, kind, &core->game, &core->asg, &s->facts,
                             flow_seed(&core->asg), d)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++) {
        struct tny_diag ignored = {{0}};
        if (tbl_flow_answer(&s->flow, replay[i], &ignored) < 0)
            break; /* the rest no longer applies: ask again from here */
    }
    s->in_flow = true;
    s->view = TBL_VIEW_FLOW;
    s->dirty = true;
    typed_from_step(s);
    return TNY_OK;
}

static void end_flow(struct tbl_screen *s)
{
    tbl_flow_release(&s->flow);
    s->in_flow = false;
    s->typed[0] = '\0';
    s->dirty = true;
}

static void keep_answers(struct tbl_screen *s, enum tbl_flow_kind kind)
{
    const int32_t *ans;
    struct tbl_screen_answers *a = &s->done[kind];

    a->n = tbl_flow_answers(&s->flow, &ans);
    if (a->n > TBL_FLOW_MAX_ANSWERS)
        a->n = TBL_FLOW_MAX_ANSWERS;
    memcpy(a->v, ans, (size_t)a->n * sizeof(*ans));
    a->has = true;
}

/* Back to the RESULT flow with the last result's answers, on its summary
 * step (all but the summary's own answer). */
static void correct_result(struct tbl_screen *s, struct tbl_core *core,
                           int64_t now_ms)
{
    struct tny_diag d = {{0}};
    const struct tbl_screen_answers *a = &s->done[TBL_FLOW_RESULT];
    int32_t n = a->has && a->n > 0 ? a->n - 1 : 0;

    if (start_flow(s, core, TBL_FLOW_RESULT, a->v, n, now_ms, &d) < 0)
        say(s, true, "%s", d.msg);
}

/* A finished flow: PREGAME/TIMEOUT show their outcome; RESULT goes to
 * the core and the confirmations. */
static void flow_done(struct tbl_screen *s, struct tbl_core *core)
{
    struct tny_diag d = {{0}};
    enum tbl_flow_kind kind = s->flow.kind;
    struct tny_wire_result r;

    keep_answers(s, kind);
    s->n_outcome = tbl_flow_summary(&s->flow, s->outcome, TBL_FLOW_MAX_LINES);
    s->outcome_kind = kind;
    if (kind != TBL_FLOW_RESULT) {
        tbl_flow_carry(&s->flow, &s->facts);
        end_flow(s);
        s->view = TBL_VIEW_OUTCOME;
        return;
    }
    if (s->flow.restart) {
        /* Tantrix seed 001 s13: no result; the game starts again, so the
         * chess clock goes back to 0:00 and the tile draw is done anew. */
        s->done[TBL_FLOW_RESULT].has = false;
        s->done[TBL_FLOW_PREGAME].has = false;
        s->done[TBL_FLOW_TIMEOUT].has = false;
        if (s->has_chess)
            tbl_chess_init(&s->chess, core->asg.chess_clock_limit_ms);
        end_flow(s);
        s->view = TBL_VIEW_OUTCOME;
        say(s, false, "restart: nothing recorded (seed 001 section 13)");
        return;
    }
    if (tbl_flow_result(&s->flow, &r, &d) < 0 ||
        tbl_core_enter_result(core, &r, &d) < 0) {
        /* Stay on the summary so the players see what was refused. */
        (void)tbl_flow_back(&s->flow);
        typed_from_step(s);
        say(s, true, "%s", d.msg);
        return;
    }
    end_flow(s);
    s->view = TBL_VIEW_CONFIRM;
    say(s, false, "result entered: every player confirms it");
}

static void answer(struct tbl_screen *s, struct tbl_core *core, int32_t v)
{
    struct tny_diag d = {{0}};
    struct tbl_flow_step st;

    if (tbl_flow_answer(&s->flow, v, &d) < 0) {
        say(s, true, "%s", d.msg);
        return;
    }
    quiet(s);
    s->dirty = true;
    tbl_flow_step(&s->flow, &st);
    if (st.ask == TBL_ASK_DONE)
        flow_done(s, core);
    else
        typed_from_step(s);
}

static void flow_back(struct tbl_screen *s)
{
    quiet(s);
    s->dirty = true;
    if (!tbl_flow_back(&s->flow)) {
        end_flow(s);
        s->view = TBL_VIEW_MAIN;
        say(s, false, "left the steps");
        return;
    }
    typed_from_step(s);
}

static void key_number(struct tbl_screen *s, struct tbl_core *core,
                       const struct tbl_flow_step *st, int key)
{
    size_t n = strlen(s->typed);
    char *end = NULL;
    long v;

    if (key >= '0' && key <= '9') {
        if (n + 1 >= sizeof(s->typed) || n >= 9) {
            say(s, true, "too many digits (%d..%d)", (int)st->min,
                (int)st->max);
            return;
        }
        s->typed[n] = (char)key;
        s->typed[n + 1] = '\0';
        quiet(s);
        return;
    }
    if (key == '-' && n == 0 && st->min < 0) {
        s->typed[0] = '-';
        s->typed[1] = '\0';
        return;
    }
    if (key == TBL_KEY_BACKSPACE && n > 0) {
        s->typed[n - 1] = '\0';
        return;
    }
    if (key == TBL_KEY_BACKSPACE || key == '-') {
        flow_back(s);
        return;
    }
    if (key == TBL_KEY_ENTER) {
        if (n == 0 || strcmp(s->typed, "-") == 0) {
            say(s, true, "type a number %d..%d, then Enter", (int)st->min,
                (int)st->max);
            return;
        }
        v = strtol(s->typed, &end, 10);
        if (*end || v < INT32_MIN || v > INT32_MAX) {
            say(s, true, "\"%s\" is not a number", s->typed);
            return;
        }
        answer(s, core, (int32_t)v);
        return;
    }
    if (key == '/') {
        end_flow(s);
        s->view = TBL_VIEW_MAIN;
        say(s, false, "steps cancelled");
        return;
    }
    if (key > ' ' && key < 0x7f)
        say(s, true, "'%c' refused: a number is digits only (%d..%d)",
            (char)key, (int)st->min, (int)st->max);
}

static void key_flow(struct tbl_screen *s, struct tbl_core *core, int key)
{
    struct tbl_flow_step st;

    tbl_flow_step(&s->flow, &st);
    if (st.ask == TBL_ASK_NUMBER) {
        key_number(s, core, &st, key);
        return;
    }
    if (key == '/') {
        end_flow(s);
        s->view = TBL_VIEW_MAIN;
        say(s, false, "steps cancelled");
    } else if (key == '-' || key == TBL_KEY_BACKSPACE) {
        flow_back(s);
    } else if (st.ask == TBL_ASK_INFO && key == TBL_KEY_ENTER) {
        answer(s, core, 0);
    } else if (st.ask == TBL_ASK_CHOICE && key >= '1' && key <= '9') {
        if (key - '1' >= st.n_options)
            say(s, true, "%c refused: choose 1..%d", (char)key,
                (int)st.n_options);
        else
            answer(s, core, key - '1');
    } else if (st.ask == TBL_ASK_CHOICE && key == TBL_KEY_ENTER) {
        if (st.has_default)
            answer(s, core, st.default_value);
        else
            say(s, true, "choose with a key 1..%d", (int)st.n_options);
    } else if (st.ask == TBL_ASK_CHOICE && key > ' ' && key < 0x7f) {
        say(s, true, "'%c' refused: choose 1..%d", (char)key,
            (int)st.n_options);
    } else if (st.ask == TBL_ASK_INFO && key > ' ' && key < 0x7f) {
        say(s, true, "Enter goes on, - goes back");
    }
}

/* ---- confirmations --------------------------------------------------- */

static int32_t next_to_confirm(const struct tbl_core *core)
{
    for (int32_t i = 0; i < core->asg.n_seats; i++)
        if (!core->confirmed[i])
            return i;
    return -1;
}

static void confirm_seat(struct tbl_screen *s, struct tbl_core *core,
                         int32_t seat)
{
    struct tny_diag d = {{0}};
    char id[TNY_WIRE_ID_MAX + 1];

    snprintf(id, sizeof(id), "%s", core->asg.seats[seat].player_id);
    if (tbl_core_confirm(core, id, &d) < 0) {
        say(s, true, "%s", d.msg);
        return;
    }
    s->dirty = true;
    if (tbl_core_state(core) == TBL_STATE_CONFIRMING)
        say(s, false, "%s confirmed", core->asg.seats[seat].name);
    else {
        s->view = TBL_VIEW_MAIN;
        say(s, false, "confirmed by every player: result stored and sent");
    }
}

static void key_confirm(struct tbl_screen *s, struct tbl_core *core, int key,
                        int64_t now_ms)
{
    int32_t cur = next_to_confirm(core);
    struct tny_diag d = {{0}};
    char id[TNY_WIRE_ID_MAX + 1];

    if (cur < 0)
        return;
    if (key == TBL_KEY_ENTER) {
        confirm_seat(s, core, cur);
    } else if (key >= '1' && key <= '9') {
        int32_t seat = key - '1';
        if (seat >= core->asg.n_seats)
            say(s, true, "no seat %c at this table (1..%d)", (char)key,
                (int)core->asg.n_seats);
        else if (core->confirmed[seat])
            say(s, true, "seat %c already confirmed", (char)key);
        else
            confirm_seat(s, core, seat);
    } else if (key == '/' || key == '-' || key == TBL_KEY_BACKSPACE) {
        snprintf(id, sizeof(id), "%s", core->asg.seats[cur].player_id);
        if (tbl_core_reject(core, id, &d) < 0) {
            say(s, true, "%s", d.msg);
            return;
        }
        s->dirty = true;
        correct_result(s, core, now_ms);
        say(s, true, "%s rejected the result: correct it (- goes back)",
            core->asg.seats[cur].name);
    } else if (key > ' ' && key < 0x7f) {
        say(s, true, "'%c': Enter or the seat's number confirms, / rejects",
            (char)key);
    }
}

/* ---- the chess clock (TX) --------------------------------------------- */

/* Seat 1 plays on the left (TX-11), its keys on the keypad's left
 * column; seat 2 on the right column (and '2'). */
static int32_t chess_side(int key)
{
    if (key == '1' || key == '4' || key == '7')
        return 0;
    if (key == '2' || key == '3' || key == '6' || key == '9')
        return 1;
    return -1;
}

static void key_chess(struct tbl_screen *s, struct tbl_core *core, int key,
                      int64_t now_ms)
{
    struct tbl_chess_view v;
    struct tny_diag d = {{0}};
    int32_t side = chess_side(key);
    int rc = TNY_OK;

    tbl_chess_view(&s->chess, now_ms, &v);
    quiet(s);
    if (key == '-' || key == TBL_KEY_BACKSPACE) {
        s->view = TBL_VIEW_MAIN;
        s->dirty = true;
        return;
    }
    if (key == TBL_KEY_ENTER) {
        if (!v.stopped && s->chess.started)
            rc = tbl_chess_stop(&s->chess, now_ms, &d);
        if (rc == 0) {
            s->dirty = true;
            if (tbl_core_state(core) == TBL_STATE_PLAYING)
                correct_result(s, core, now_ms);
        }
    } else if (key == '5' || key == '.') {
        if (v.paused)
            rc = tbl_chess_resume(&s->chess, now_ms, &d);
        else
            rc = tbl_chess_pause(&s->chess, now_ms, &d);
    } else if (side >= 0 && !s->chess.started) {
        /* TX-11: the non-starter starts the starter's clock. */
        rc = tbl_chess_start(&s->chess, 1 - side, now_ms, &d);
    } else if (side >= 0 && v.paused) {
        rc = tbl_chess_wrongful_pause(&s->chess, side, now_ms, &d);
        if (rc == 0)
            say(s, false, "TX-9: %s paused wrongfully: 30 s moved",
                core->asg.seats[side].name);
    } else if (side >= 0) {
        rc = tbl_chess_press(&s->chess, side, now_ms, &d);
    } else if (key > ' ' && key < 0x7f) {
        say(s, true, "'%c': not a chess clock key", (char)key);
    }
    if (rc < 0)
        say(s, true, "%s", d.msg);
    else
        s->dirty = true;
}

/* ---- the main screen ---------------------------------------------------- */

static void key_main(struct tbl_screen *s, struct tbl_core *core, int key,
                     int64_t now_ms)
{
    struct tny_diag d = {{0}};
    enum tbl_state st = tbl_core_state(core);
    bool playing = st == TBL_STATE_PLAYING;
    const uint32_t clocks = tny_game_clocks(core->asg.game);

    quiet(s);
    if (key == '.') {
        s->view = TBL_VIEW_NOTES;
        return;
    }
    if (st == TBL_STATE_CONFIRMING &&
        (key == TBL_KEY_ENTER || (key >= '1' && key <= '9'))) {
        s->view = TBL_VIEW_CONFIRM;
        return;
    }
    if (!playing) {
        if (key > ' ' || key == TBL_KEY_ENTER)
            say(s, true, "nothing to do here now (%s)", state_words(st));
        return;
    }
    if (key == TBL_KEY_ENTER) {
        if (s->done[TBL_FLOW_RESULT].has)
            correct_result(s, core, now_ms);
        else if (start_flow(s, core, TBL_FLOW_RESULT, NULL, 0, now_ms, &d) < 0)
            say(s, true, "%s", d.msg);
    } else if (key == '+') {
        if (start_flow(s, core, TBL_FLOW_PREGAME, NULL, 0, now_ms, &d) < 0)
            say(s, true, "%s", d.msg);
    } else if (key == '*') {
        if (start_flow(s, core, TBL_FLOW_TIMEOUT, NULL, 0, now_ms, &d) < 0)
            say(s, true, "%s", d.msg);
    } else if (key == '/' && (clocks & TNY_GCLOCK_CHESS) && s->has_chess) {
        s->view = TBL_VIEW_CHESS;
    } else if (key == '/' && (clocks & TNY_GCLOCK_DRAFT) && s->has_ag) {
        struct tbl_ag_view v;
        tbl_ag_view(&s->ag, now_ms, &v);
        int rc = v.started ? tbl_ag_end_draft(&s->ag, now_ms, &d)
                           : tbl_ag_start_draft(&s->ag, now_ms, &d);
        /* AG-14: the hub starts this table's time with its draft. */
        if (rc == TNY_OK && !v.started && tbl_core_per_table_start(core) &&
            tbl_core_draft_round(core) == 0)
            rc = tbl_core_start_draft(core, &d);
        if (rc < 0)
            say(s, true, "%s", d.msg);
        else
            say(s, false, "%s",
                v.started ? _("draft finished") : _("draft started"));
        s->dirty = true;
    } else if (key == '0' && (clocks & TNY_GCLOCK_DRAFT) && s->has_ag) {
        if (tbl_ag_next_action(&s->ag, now_ms, &d) < 0)
            say(s, true, "%s", d.msg);
        s->dirty = true;
    } else if (key == '0' && (clocks & TNY_GCLOCK_TURN) && s->turn_ms > 0) {
        /* CT-8: the next player's turn starts its limit. */
        if (!s->expired_seen) {
            say(s, true,
                "the turn limit starts when the round time is up "
                "(CT-8)");
        } else {
            s->turn_start_ms = now_ms;
            say(s, false, "next turn (CT-8)");
        }
        s->dirty = true;
    } else if (key > ' ' && key < 0x7f) {
        say(s, true, "'%c': not used here (see the keys below)", (char)key);
    }
}

void tbl_screen_key(struct tbl_screen *s, struct tbl_core *core, int key,
                    int64_t now_ms, int64_t wall_ms)
{
    (void)wall_ms;
    s->pairing_changed = false; /* CM-5: seen */
    switch (s->view) {
    case TBL_VIEW_MAIN: key_main(s, core, key, now_ms); break;
    case TBL_VIEW_FLOW:
        if (s->in_flow)
            key_flow(s, core, key);
        else
            s->view = TBL_VIEW_MAIN;
        break;
    case TBL_VIEW_OUTCOME:
    case TBL_VIEW_NOTES:
        if (key == TBL_KEY_ENTER || key == '-' || key == TBL_KEY_BACKSPACE ||
            key == '.') {
            s->view = TBL_VIEW_MAIN;
            s->dirty = true;
        }
        break;
    case TBL_VIEW_CONFIRM: key_confirm(s, core, key, now_ms); break;
    case TBL_VIEW_CHESS: key_chess(s, core, key, now_ms); break;
    }
}

/* ---- following the core ------------------------------------------------- */

/* CM-5: the players of an assignment, in seat order, as one string. */
static void seats_sig(const struct tny_wire_assignment *a, char *buf,
                      size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < a->n_seats && at < size; i++) {
        int w = snprintf(buf + at, size - at, "%s ", a->seats[i].player_id);
        at += w > 0 ? (size_t)w : 0;
    }
}

static bool same_table(const struct tbl_screen *s,
                       const struct tny_wire_assignment *a)
{
    return s->bound && strcmp(s->event_id, a->event_id) == 0 &&
           s->round == a->round && s->table == a->table;
}

static void bind(struct tbl_screen *s, const struct tbl_core *core)
{
    const struct tny_wire_assignment *a = &core->asg;

    reset(s);
    s->bound = true;
    seats_sig(a, s->seats_sig, sizeof(s->seats_sig));
    snprintf(s->event_id, sizeof(s->event_id), "%s", a->event_id);
    s->round = a->round;
    s->table = a->table;
    s->version = a->version;
    const uint32_t clocks = tny_game_clocks(a->game);
    if (clocks & TNY_GCLOCK_CHESS) { /* TX-3 */
        tbl_chess_init(&s->chess, a->chess_clock_limit_ms);
        s->has_chess = true;
    }
    if (clocks & TNY_GCLOCK_DRAFT) { /* AG-14 */
        tbl_ag_init(&s->ag, a->draft_ms, a->action_ms);
        s->has_ag = true;
    }
    if (clocks & TNY_GCLOCK_TURN)
        s->turn_ms = a->action_ms; /* CT-8, 0 = none announced */
}

static void apply_pending(struct tbl_screen *s, struct tbl_core *core,
                          int64_t now_ms, int64_t wall_ms);

static void follow_assignment(struct tbl_screen *s, struct tbl_core *core,
                              int64_t now_ms, int64_t wall_ms)
{
    const struct tny_wire_assignment *a = &core->asg;

    if (!core->has_assignment || a->table == 0) {
        if (s->bound || s->in_flow)
            reset(s);
        return;
    }
    if (!same_table(s, a)) {
        bind(s, core);
        apply_pending(s, core, now_ms, wall_ms);
        return;
    }
    if (s->version != a->version) {
        char sig[sizeof(s->seats_sig)];
        seats_sig(a, sig, sizeof(sig));
        if (strcmp(sig, s->seats_sig) != 0) {
            /* CM-5: the organiser changed the pairing before the clock
             * started: other players here, nothing of the old one holds. */
            bind(s, core);
            s->pairing_changed = true;
            say(s, false,
                "the organiser changed this table's pairing "
                "(CM-5): check the players");
            return;
        }
        /* Same table, new version: the flow borrowed the old assignment;
         * begin it again on the new one with the same answers. */
        s->version = a->version;
        if (s->in_flow) {
            const int32_t *ans;
            int32_t replay[TBL_FLOW_MAX_ANSWERS];
            int32_t n = tbl_flow_answers(&s->flow, &ans);
            enum tbl_flow_kind kind = s->flow.kind;
            struct tny_diag d = {{0}};
            memcpy(replay, ans, (size_t)n * sizeof(*ans));
            if (start_flow(s, core, kind, replay, n, now_ms, &d) < 0) {
                end_flow(s);
                s->view = TBL_VIEW_MAIN;
                say(s, true, "%s", d.msg);
            }
        }
    }
}

static void follow_clocks(struct tbl_screen *s, const struct tbl_core *core,
                          int64_t now_ms)
{
    struct tny_diag d = {{0}};
    bool running, expired;

    if (!s->bound || !core->has_clock || core->clock.unlimited)
        return;
    running = core->clock.state == TNY_ROUND_CLOCK_RUNNING;
    expired = running && core->clock_stop_ms < 0 &&
              tbl_core_clock_left(core, now_ms) <= 0;
    if (running && s->round_start_ms < 0)
        s->round_start_ms = now_ms;
    if (s->has_ag) {
        struct tbl_ag_view v;
        tbl_ag_view(&s->ag, now_ms, &v);
        /* AG-14: the table's time starts with the draft. */
        int rc = TNY_OK;
        if (running && !v.started)
            rc = tbl_ag_start_draft(&s->ag, now_ms, &d);
        else if (running && s->ag.paused_at_ms >= 0)
            rc = tbl_ag_resume(&s->ag, now_ms, &d);
        else if (core->clock.state == TNY_ROUND_CLOCK_PAUSED && v.started &&
                 s->ag.paused_at_ms < 0)
            rc = tbl_ag_pause(&s->ag, now_ms, &d);
        else if (expired && v.started && !v.speed)
            rc = tbl_ag_time_up(&s->ag, now_ms, &d);
        if (rc < 0)
            say(s, true, "AG-14 timers: %s", d.msg);
    }
    if (expired && !s->expired_seen) {
        s->expired_seen = true;
        s->dirty = true;
        if (s->turn_ms > 0) /* CT-8: the turn in progress is the first */
            s->turn_start_ms = now_ms;
        /* Offer the time-out steps once, unless the players are busy. */
        if (s->view == TBL_VIEW_MAIN &&
            tbl_core_state(core) == TBL_STATE_PLAYING) {
            struct tny_diag fd = {{0}};
            if (start_flow(s, (struct tbl_core *)core, TBL_FLOW_TIMEOUT, NULL,
                           0, now_ms, &fd) == 0)
                say(s, true, "time is up: the time-out steps");
        }
    }
}

void tbl_screen_sync(struct tbl_screen *s, struct tbl_core *core,
                     int64_t now_ms, int64_t wall_ms)
{
    enum tbl_state st;

    tbl_core_follow(core, now_ms);
    follow_assignment(s, core, now_ms, wall_ms);
    follow_clocks(s, core, now_ms);
    st = tbl_core_state(core);
    if (s->view == TBL_VIEW_CONFIRM && st != TBL_STATE_CONFIRMING)
        s->view = TBL_VIEW_MAIN;
    if (s->in_flow && st != TBL_STATE_PLAYING &&
        s->flow.kind == TBL_FLOW_RESULT) {
        /* Entered elsewhere or already with the hub. */
        end_flow(s);
        if (s->view == TBL_VIEW_FLOW)
            s->view = TBL_VIEW_MAIN;
    }
    if (s->view == TBL_VIEW_FLOW && !s->in_flow)
        s->view = TBL_VIEW_MAIN;
    if (!s->bound && s->view != TBL_VIEW_MAIN && s->view != TBL_VIEW_NOTES)
        s->view = TBL_VIEW_MAIN;
}

/* ---- saving and restoring ------------------------------------------------ */

static int put(char *buf, size_t n, size_t *at, const char *fmt, ...)
    TNY_PRINTF(4, 5);

static int put(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (*at >= n)
        return TNY_ERANGE;
    va_start(ap, fmt);
    k = vsnprintf(buf + *at, n - *at, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= n - *at)
        return TNY_ERANGE;
    *at += (size_t)k;
    return TNY_OK;
}

static int put_list(char *buf, size_t n, size_t *at, const char *name,
                    const int32_t *v, int32_t count, bool has)
{
    int rc = put(buf, n, at, " %s=", name);

    if (rc == 0 && !has)
        rc = put(buf, n, at, "-");
    for (int32_t i = 0; rc == 0 && has && i < count; i++)
        rc = put(buf, n, at, "%s%d", i ? "," : "", (int)v[i]);
    if (rc == 0 && has && count == 0)
        rc = put(buf, n, at, ".");
    return rc;
}

/* An instant on the monotonic clock as an offset from now (or "-"). */
static int put_instant(char *buf, size_t n, size_t *at, int64_t t,
                       int64_t now_ms, bool first)
{
    if (t < 0)
        return put(buf, n, at, "%s-", first ? "" : ",");
    return put(buf, n, at, "%s%" PRId64, first ? "" : ",", t - now_ms);
}

int tbl_screen_save(const struct tbl_screen *s, int64_t now_ms, int64_t wall_ms,
                    char *buf, size_t n)
{
    static const char *const kinds[] = {"pre", "tmo", "res"};
    size_t at = 0;
    int rc;
    const int32_t *ans = NULL;
    int32_t n_ans = s->in_flow ? tbl_flow_answers(&s->flow, &ans) : 0;
    int32_t conf[TNY_MAX_SEATS] = {0};

    if (n > 0)
        buf[0] = '\0';
    rc = put(buf, n, &at, "v=1 wall=%" PRId64 " view=%s", wall_ms,
             tbl_view_name(s->view));
    if (rc == 0 && s->bound)
        rc = put(buf, n, &at, " ev=%s r=%d t=%d", s->event_id, (int)s->round,
                 (int)s->table);
    if (rc == 0 && s->in_flow)
        rc = put(buf, n, &at, " kind=%d", (int)s->flow.kind);
    if (rc == 0)
        rc = put_list(buf, n, &at, "ans", ans, n_ans, s->in_flow);
    for (int k = 0; rc == 0 && k < 3; k++)
        rc = put_list(buf, n, &at, kinds[k], s->done[k].v, s->done[k].n,
                      s->done[k].has);
    if (rc == 0)
        rc = put(buf, n, &at, " exp=%d", s->expired_seen ? 1 : 0);
    (void)conf;
    if (rc == 0 && s->has_ag) {
        rc = put(buf, n, &at, " ag=");
        const int64_t t[5] = {s->ag.start_ms, s->ag.draft_end_ms,
                              s->ag.time_up_ms, s->ag.last_action_ms,
                              s->ag.paused_at_ms};
        for (int i = 0; rc == 0 && i < 5; i++)
            rc = put_instant(buf, n, &at, t[i], now_ms, i == 0);
    }
    if (rc == 0 && s->has_chess) {
        char line[TBL_CHESS_SAVE_MAX];
        rc = tbl_chess_save(&s->chess, now_ms, wall_ms, line, sizeof(line));
        /* Last: the chess clock's own line runs to the end. */
        if (rc == 0)
            rc = put(buf, n, &at, " chess=%s", line);
    }
    if (rc < 0 && n > 0)
        buf[0] = '\0';
    return rc < 0 ? TNY_ERANGE : TNY_OK;
}

int tbl_screen_load(struct tbl_screen *s, const char *line,
                    struct tny_diag *diag)
{
    if (strncmp(line, "v=1 ", 4) != 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "display state: not a saved line: \"%.40s\"", line);
    if (strlen(line) >= sizeof(s->pending_load))
        return tny_diag_set(diag, TNY_ERANGE, "display state: too long");
    snprintf(s->pending_load, sizeof(s->pending_load), "%s", line);
    s->has_pending_load = true;
    return TNY_OK;
}

/* The value of " name=" in line (up to the next blank, or to the end for
 * "chess"), copied into out. */
static bool field(const char *line, const char *name, char *out, size_t size)
{
    char pat[24];
    const char *p;
    size_t len;

    snprintf(pat, sizeof(pat), " %s=", name);
    p = strstr(line, pat);
    if (!p)
        return false;
    p += strlen(pat);
    len = strcmp(name, "chess") == 0 ? strlen(p) : strcspn(p, " ");
    if (len >= size)
        return false;
    memcpy(out, p, len);
    out[len] = '\0';
    return true;
}

static bool parse_list(const char *text, struct tbl_screen_answers *a)
{
    const char *p = text;
    char *end;

    memset(a, 0, sizeof(*a));
    if (strcmp(text, "-") == 0)
        return true;
    a->has = true;
    if (strcmp(text, ".") == 0)
        return true;
    while (*p && a->n < TBL_FLOW_MAX_ANSWERS) {
        long v = strtol(p, &end, 10);
        if (end == p || v < INT32_MIN || v > INT32_MAX)
            return false;
        a->v[a->n++] = (int32_t)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return true;
}

static void apply_pending(struct tbl_screen *s, struct tbl_core *core,
                          int64_t now_ms, int64_t wall_ms)
{
    static const char *const kinds[] = {"pre", "tmo", "res"};
    char v[TBL_SCREEN_SAVE_MAX], ev[TNY_WIRE_ID_MAX + 1] = "", buf[64];
    const char *line = s->pending_load;
    struct tbl_screen_answers ans;
    int64_t saved_wall = 0, gone;
    enum tbl_view view = TBL_VIEW_MAIN;
    int kind = -1;
    struct tny_diag d = {{0}};

    if (!s->has_pending_load)
        return;
    s->has_pending_load = false; /* once, at the first binding */
    if (!field(line, "ev", ev, sizeof(ev)) || strcmp(ev, s->event_id) != 0 ||
        !field(line, "r", buf, sizeof(buf)) || atoi(buf) != s->round ||
        !field(line, "t", buf, sizeof(buf)) || atoi(buf) != s->table)
        return; /* another table's state */
    if (field(line, "wall", buf, sizeof(buf)))
        saved_wall = strtoll(buf, NULL, 10);
    gone = wall_ms > saved_wall ? wall_ms - saved_wall : 0;
    for (int k = 0; k < 3; k++)
        if (field(line, kinds[k], v, sizeof(v)) && parse_list(v, &ans))
            s->done[k] = ans;
    if (field(line, "exp", buf, sizeof(buf)))
        s->expired_seen = atoi(buf) != 0;
    if (s->has_chess && field(line, "chess", v, sizeof(v)) &&
        tbl_chess_load(&s->chess, v, now_ms, wall_ms, &d) < 0)
        say(s, true, "chess clock not restored: %s", d.msg);
    if (s->has_ag && field(line, "ag", v, sizeof(v))) {
        int64_t *t[5] = {&s->ag.start_ms, &s->ag.draft_end_ms,
                         &s->ag.time_up_ms, &s->ag.last_action_ms,
                         &s->ag.paused_at_ms};
        char *p = v;
        for (int i = 0; i < 5 && *p; i++) {
            if (*p == '-' && (p[1] == ',' || !p[1])) {
                *t[i] = -1;
                p++;
            } else {
                /* The time that passed while the power was off. */
                *t[i] = now_ms + strtoll(p, &p, 10) - gone;
            }
            if (*p == ',')
                p++;
        }
    }
    if (field(line, "view", buf, sizeof(buf)))
        for (int i = 0; i <= TBL_VIEW_NOTES; i++)
            if (strcmp(buf, tbl_view_name((enum tbl_view)i)) == 0)
                view = (enum tbl_view)i;
    if (field(line, "kind", buf, sizeof(buf)))
        kind = atoi(buf);
    build_facts(s, core, now_ms, &s->facts);
    if (view == TBL_VIEW_FLOW && kind >= TBL_FLOW_PREGAME &&
        kind <= TBL_FLOW_RESULT && field(line, "ans", v, sizeof(v)) &&
        parse_list(v, &ans) && tbl_core_state(core) == TBL_STATE_PLAYING) {
        if (start_flow(s, core, (enum tbl_flow_kind)kind, ans.v, ans.n, now_ms,
                       &d) < 0)
            say(s, true, "%s", d.msg);
    } else if (view == TBL_VIEW_CONFIRM && s->done[TBL_FLOW_RESULT].has &&
               tbl_core_state(core) == TBL_STATE_PLAYING) {
        /* The entry was in memory only: enter it again from the answers
         * (the confirmations start afresh: every player confirms what the
         * screen shows now). */
        const struct tbl_screen_answers *a = &s->done[TBL_FLOW_RESULT];
        if (start_flow(s, core, TBL_FLOW_RESULT, a->v, a->n, now_ms, &d) < 0)
            say(s, true, "%s", d.msg);
        else if (s->in_flow) {
            struct tbl_flow_step st;
            tbl_flow_step(&s->flow, &st);
            if (st.ask == TBL_ASK_DONE)
                flow_done(s, core);
        }
    } else if (view == TBL_VIEW_CHESS || view == TBL_VIEW_OUTCOME ||
               view == TBL_VIEW_NOTES) {
        s->view = view;
        if (view == TBL_VIEW_OUTCOME) {
            /* Rebuild the outcome lines of the last finished flow. */
            for (int k = TBL_FLOW_TIMEOUT; k >= TBL_FLOW_PREGAME; k--) {
                struct tbl_flow f;
                const struct tbl_screen_answers *a = &s->done[k];
                if (!a->has ||
                    tbl_flow_begin(&f, (enum tbl_flow_kind)k, &core->game,
                                   &core->asg, &s->facts, flow_seed(&core->asg),
                                   &d) < 0)
                    continue;
                for (int32_t i = 0; i < a->n; i++)
                    if (tbl_flow_answer(&f, a->v[i], &d) < 0)
                        break;
                s->n_outcome =
                    tbl_flow_summary(&f, s->outcome, TBL_FLOW_MAX_LINES);
                s->outcome_kind = (enum tbl_flow_kind)k;
                tbl_flow_release(&f);
                break;
            }
        }
    }
    s->dirty = true;
}
