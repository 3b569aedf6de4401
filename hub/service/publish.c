/* publish.c - the retained state the hub publishes to tables: each
 * device's TableAssignment, each event's RoundClock, and the wire result
 * -> event-file JSON mapping the store needs.
 *
 * An assignment is computed from the store's projection every time (no
 * copy is kept): the event's latest published round, the table whose
 * number the device is assigned to (idle when that table does not play
 * this round), the seats with the players' details (NH-11 armies not yet
 * used in the stage, TX-10 colour preferences, GT-14 faction and agenda,
 * AG-4 first seat), the table's clock with its extension, and the
 * format's time-out procedure and notes (NH-13, GT-13, CT-8, AG-14/15,
 * CT-9).  A device with no event, or whose event has no published round,
 * gets a zero-length retained message (clears the topic).
 *
 * Not here: deciding which device gets which table (console.c, publish
 * command), sending (the loop).
 */
#include "publish.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "events.h"
#include "feed_json.h"
#include "hub/log.h"
#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/procedure.h"
#include "tny/result_schema.h"
#include "tny/result_value.h"

/* ---- result JSON ------------------------------------------------------ */

/* One key's value, by the kind of value (result_schema.h). */
static void value_write(struct hub_jw *w, const struct tny_wire_result *r,
                        enum tny_result_value kind,
                        const struct tny_wire_result_val *v)
{
    switch (kind) {
    case TNY_RV_FLAG: hub_jw_bool(w, v->flag); break;
    case TNY_RV_NUMBER: hub_jw_int(w, v->number); break;
    case TNY_RV_PLAYER: hub_jw_str(w, v->id); break;
    case TNY_RV_PER_PLAYER:
    case TNY_RV_POINTS:
    case TNY_RV_ARMY:
        hub_jw_obj(w);
        for (int32_t i = 0; i < r->n_players && i < TNY_MAX_SEATS; i++) {
            if (!v->has[i])
                continue;
            hub_jw_key(w, r->players[i].player_id);
            if (kind == TNY_RV_POINTS)
                hub_jw_points(w, v->per[i]);
            else if (kind == TNY_RV_ARMY)
                hub_jw_str(w, v->army[i]);
            else
                hub_jw_int(w, v->per[i]);
        }
        hub_jw_end(w);
        break;
    case TNY_RV_PLAYERS:
    case TNY_RV_TEXTS:
        hub_jw_arr(w);
        for (int32_t i = 0; i < v->n; i++)
            hub_jw_str(w, v->items[i]);
        hub_jw_end_arr(w);
        break;
    }
}

/* A key of every player (tny_result_value_every_seat) is written only
 * when every entry has it (a clock of one player alone is not told). */
static bool every_entry_has(const struct tny_wire_result *r,
                            enum tny_result_key k,
                            const struct tny_wire_result_val *v)
{
    for (int32_t i = 0; tny_result_value_every_seat(k) && i < r->n_players &&
                        i < TNY_MAX_SEATS;
         i++)
        if (!v->has[i])
            return false;
    return true;
}

/* The game module's own keys (GameResult.values, result_schema.h struct
 * tny_result_ext) after the shared ones, in the order they came, each
 * once: a per-player key an object of the players' values, a flag
 * true/false, a number as is. */
static void ext_write(struct hub_jw *w, const struct tny_wire_result *r)
{
    for (int32_t i = 0; i < r->n_ext && i < TNY_WIRE_EXT_MAX; i++) {
        const struct tny_wire_result_ext *e = &r->ext[i];
        const struct tny_result_key_info *info;
        enum tny_result_key k;
        bool seen = false;
        for (int32_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->ext[j].key, e->key) == 0;
        if (seen)
            continue;
        info = tny_result_key_from_name(e->key, &k) ? tny_result_key_info(k)
                                                    : NULL;
        hub_jw_key(w, e->key);
        if (!e->player_id[0] && info && info->value == TNY_RV_FLAG) {
            hub_jw_bool(w, e->value != 0);
            continue;
        }
        if (!e->player_id[0]) {
            hub_jw_int(w, e->value);
            continue;
        }
        hub_jw_obj(w);
        for (int32_t j = i; j < r->n_ext && j < TNY_WIRE_EXT_MAX; j++)
            if (strcmp(r->ext[j].key, e->key) == 0) {
                hub_jw_key(w, r->ext[j].player_id);
                hub_jw_int(w, r->ext[j].value);
            }
        hub_jw_end(w);
    }
}

/* The game's keys the result has, in the written order (result_schema.h,
 * the event file's), each converted by its kind. */
int hub__result_write(struct hub_jw *w, const struct tny_wire_result *r,
                      struct tny_diag *diag)
{
    const enum tny_result_key *keys;
    int32_t n;

    if (!tny_game_shape_of(r->game))
        return tny_diag_set(diag, TNY_EINVAL, "result: unknown game %d",
                            (int)r->game);
    hub_jw_obj(w);
    n = tny_result_keys_written(r->game, &keys);
    for (int32_t i = 0; i < n; i++) {
        struct tny_wire_result_val v;
        if (TNY_RK_IS_EXT(keys[i])) /* ext_write */
            continue;
        tny_wire_result_value_get(r, keys[i], &v);
        if (!v.present || !every_entry_has(r, keys[i], &v))
            continue;
        hub_jw_key(w, tny_result_key_name(keys[i]));
        value_write(w, r, tny_result_key_info(keys[i])->value, &v);
    }
    ext_write(w, r);
    hub_jw_end(w);
    if (w->oom)
        return tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
    return TNY_OK;
}

int hub__result_json(const struct tny_wire_result *r, char **out,
                     struct tny_diag *diag)
{
    struct hub_jw w;
    int rc;
    hub_jw_init(&w);
    *out = NULL;
    if ((rc = hub__result_write(&w, r, diag)) < 0) {
        hub_jw_free(&w);
        return rc;
    }
    if (!(*out = hub_jw_take(&w)))
        return tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
    return TNY_OK;
}

/* ---- clocks -------------------------------------------------------------- */

int64_t hub__round_length_ms(const struct hub_ev *e)
{
    if (!e->loaded || e->ev.n_rounds == 0)
        return 0;
    const struct tny_round *round = &e->ev.rounds[e->ev.n_rounds - 1];
    int32_t si = e->round.stage_index;
    if (si < 0 || si >= e->ev.format.n_stages)
        return 0;
    int32_t playing = 0;
    for (int32_t t = 0; t < round->n_tables; t++)
        playing += !round->tables[t].is_bye;
    bool final_round = round->stage == TNY_STAGE_ELIMINATION && playing == 1;
    int32_t minutes = 0;
    struct tny_diag ignored;
    if (tny_stage_round_minutes(&e->ev.format.stages[si], final_round, &minutes,
                                &ignored) < 0)
        return 0;
    return (int64_t)minutes * 60000;
}

int hub__round_clock(struct hub_service *svc, struct hub_ev *e,
                     struct tny_round_clock *out, struct tny_diag *diag)
{
    int32_t r = e->ev.n_rounds;
    if (!e->loaded || r == 0)
        return tny_diag_set(diag, TNY_EINVAL, "event %s: no published round",
                            e->id);
    if (e->clock_round == r) {
        *out = e->clock;
        return TNY_OK;
    }
    int rc = hub_store_load_clock(svc->store, e->id, r, out, diag);
    if (rc == TNY_ENOTFOUND)
        rc = tny_round_clock_init(out, hub__round_length_ms(e), diag);
    if (rc == 0) {
        e->clock = *out;
        e->clock_round = r;
    }
    return rc;
}

int hub__save_clock(struct hub_service *svc, struct hub_ev *e,
                    const struct tny_round_clock *c, const char *actor,
                    struct tny_diag *diag)
{
    int32_t r = e->ev.n_rounds;
    int rc = hub_store_save_clock(svc->store, e->id, r, c, actor, diag);
    if (rc == 0) {
        e->clock = *c;
        e->clock_round = r;
        e->clock_expired_seen = false;
        e->feed_dirty = true;
    } else {
        e->clock_round = 0;
    }
    return rc;
}

static int cmp_ext(const void *a, const void *b)
{
    const struct tny_wire_table_extension *x = a, *y = b;
    return (x->table > y->table) - (x->table < y->table);
}

int hub__publish_clock(struct hub_service *svc, struct hub_ev *e,
                       int64_t now_ms, struct hub_outbox *ob,
                       struct tny_diag *diag)
{
    struct tny_wire_clock msg;
    struct tny_round_clock c;
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;

    if (!e->loaded || e->ev.n_rounds == 0)
        return TNY_OK;
    if ((rc = hub__round_clock(svc, e, &c, diag)) < 0)
        return rc;
    memset(&msg, 0, sizeof(msg));
    msg.version = hub__next_version(svc, now_ms);
    snprintf(msg.event_id, sizeof(msg.event_id), "%s", e->id);
    msg.round = e->ev.n_rounds;
    tny_round_clock_message(&c, 0, now_ms, &msg.clock);
    /* AG-14: tables start their own time; entries carry their start. */
    msg.per_table_start = hub__ev_per_table_start(e);
    msg.table_ms = c.length_ms + c.extension_ms;
#define LISTED(x)                                                              \
    ((x).round == msg.round &&                                                 \
     ((x).total_ms > 0 || (x).paused_elapsed_ms >= 0 ||                        \
      (msg.per_table_start && (x).start_delay_ms >= 0)))
    int32_t n = 0;
    for (int32_t i = 0; i < e->n_ext; i++)
        n += LISTED(e->ext[i]);
    if (n > TNY_WIRE_MAX_EXTENSIONS)
        n = TNY_WIRE_MAX_EXTENSIONS;
    if (n > 0 && !(msg.extensions = calloc((size_t)n, sizeof(*msg.extensions))))
        return TNY_ENOMEM;
    for (int32_t i = 0; i < e->n_ext && msg.n_extensions < n; i++)
        if (LISTED(e->ext[i])) {
            bool paused = false; /* a judge's pause counts until now */
            int64_t ext = hub__table_extension_now(
                e, &c, msg.round, e->ext[i].table, now_ms, &paused);
            msg.extensions[msg.n_extensions++] =
                (struct tny_wire_table_extension){
                    .table = e->ext[i].table,
                    .extension_ms =
                        ext < TNY_CLOCK_MAX_MS ? ext : TNY_CLOCK_MAX_MS,
                    .start_delay_ms = e->ext[i].start_delay_ms,
                    .paused = paused};
        }
#undef LISTED
    if (msg.n_extensions > 1)
        qsort(msg.extensions, (size_t)msg.n_extensions, sizeof(*msg.extensions),
              cmp_ext);
    rc =
        tny_wire_topic(TNY_WIRE_TOPIC_CLOCK, e->id, topic, sizeof(topic), diag);
    if (rc == 0)
        rc = tny_wire_encode_clock(&msg, &buf, &len, diag);
    free(msg.extensions);
    if (rc < 0) {
        HUB_LOG(HUB_LOG_ERROR, "clock not published event=%s round=%d: %s",
                e->id, (int)msg.round, diag ? diag->msg : tny_strerror(rc));
        return rc;
    }
    HUB_LOG(HUB_LOG_DEBUG, "clock event=%s round=%d version=%llu", e->id,
            (int)msg.round, (unsigned long long)msg.version);
    return hub_outbox_add(ob, topic, buf, len, true);
}

/* ---- assignments -----------------------------------------------------------
 */

/* NH-11: armies of player p not yet played in the current round's stage
 * (rounds of the same stage kind before the current one); in the knockout
 * the declared ones. */
static void available_armies(const struct hub_ev *e, int32_t p,
                             struct tny_wire_seat *seat)
{
    const struct tny_player *pl = &e->ev.players[p];
    const struct tny_format *f = &e->ev.format;
    int32_t cur = e->ev.n_rounds - 1;
    enum tny_stage_kind stage = e->ev.rounds[cur].stage;
    bool used[TNY_MAX_ARMIES] = {false};
    for (int32_t r = 0; r < cur; r++) {
        const struct tny_round *round = &e->ev.rounds[r];
        if (round->stage != stage)
            continue;
        for (int32_t t = 0; t < round->n_tables; t++) {
            const struct tny_table *tb = &round->tables[t];
            int32_t s = tny_table_seat_of(tb, p);
            if (tb->is_bye || s < 0 || !tb->has_result)
                continue;
            int32_t a = tb->result.army[s];
            if (a >= 0 && a < TNY_MAX_ARMIES)
                used[a] = true;
        }
    }
    /* In the knockout only the declared armies (NH-11, seed 000 5.3). */
    bool ko = stage == TNY_STAGE_ELIMINATION && pl->n_ko_armies > 0;
    const int32_t *list = ko ? pl->ko_armies : pl->armies;
    int32_t n_list = ko ? pl->n_ko_armies : pl->n_armies;
    seat->n_armies = 0;
    for (int32_t i = 0; i < n_list && seat->n_armies < TNY_MAX_ARMIES; i++) {
        int32_t a = list[i];
        if (a < 0 || a >= f->n_armies || used[a])
            continue;
        snprintf(seat->armies[seat->n_armies++], TNY_NAME_MAX, "%s",
                 f->armies[a]);
    }
}

/* snprintf(dst, size, "%s", src) without the printf machinery (the
 * seats of every table: issue 17). */
static void copy_text(char *dst, size_t size, const char *src)
{
    if (!src)
        src = "(null)"; /* as glibc's snprintf prints it */
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void fill_seat(const struct hub_ev *e, const struct tny_table *t,
                      int32_t i, int32_t first_seat, bool armies,
                      struct tny_wire_seat *s)
{
    const struct tny_player *pl = &e->ev.players[t->seats[i]];
    memset(s, 0, sizeof(*s));
    copy_text(s->player_id, sizeof(s->player_id), pl->id);
    copy_text(s->name, sizeof(s->name), pl->name);
    if (pl->club)
        copy_text(s->club, sizeof(s->club), pl->club);
    s->first_player = first_seat == i;
    if (armies && tny_game_ops_of(e->ev.format.game)->armies)
        available_armies(e, t->seats[i], s);
    for (int32_t c = 0; c < pl->n_colours && c < 2; c++)
        if (pl->colours[c])
            copy_text(s->colours[s->n_colours++], TNY_NAME_MAX, pl->colours[c]);
    s->colour_blind = pl->colour_blind;
    s->hook = pl->hook;                            /* NH-10 */
    if (t->has_sides && e->ev.format.n_sides == 2) /* issue 19 */
        copy_text(s->side, sizeof(s->side), e->ev.format.sides[t->side[i] & 1]);
    if (pl->faction)
        copy_text(s->faction, sizeof(s->faction), pl->faction);
    if (pl->agenda)
        copy_text(s->agenda, sizeof(s->agenda), pl->agenda);
}

/* The part of an assignment that is the same for every device of the
 * event (its loaded, published round): filled once per publish of the
 * event's devices. */
static void assignment_event_part(const struct hub_ev *e,
                                  struct tny_wire_assignment *a)
{
    const struct tny_format *f = &e->ev.format;
    int32_t r = e->ev.n_rounds;
    const struct tny_round *round = &e->ev.rounds[r - 1];
    int32_t si = e->round.stage_index;
    const struct tny_stage *st =
        si >= 0 && si < f->n_stages ? &f->stages[si] : NULL;

    memset(a, 0, sizeof(*a));
    snprintf(a->event_id, sizeof(a->event_id), "%s", e->id);
    snprintf(a->event_title, sizeof(a->event_title), "%s",
             e->ev.title[0] ? e->ev.title : f->title);
    snprintf(a->format_name, sizeof(a->format_name), "%s", f->name);
    /* issue 21: the table shows its words in the event's language */
    snprintf(a->language, sizeof(a->language), "%s", e->ev.language);
    a->game = f->game;
    a->round = r;
    a->stage = round->stage;
    if (st)
        snprintf(a->stage_name, sizeof(a->stage_name), "%s", st->name);
    snprintf(a->procedure, sizeof(a->procedure), "%s", f->timeout_procedure);
    for (int32_t i = 0; i < f->n_notes && i < TNY_MAX_NOTES; i++)
        if (f->notes[i][0])
            snprintf(a->notes[a->n_notes++], TNY_WIRE_NOTE_MAX, "%s",
                     f->notes[i]);
    a->best_of_three =
        st && st->best_of_three && round->stage == TNY_STAGE_ELIMINATION;
    const uint32_t clocks = tny_game_clocks(f->game);
    if (clocks & TNY_GCLOCK_CHESS) /* TX-3 */
        a->chess_clock_limit_ms = f->clock_limit_ms;
    if (clocks & TNY_GCLOCK_DRAFT) { /* AG-14 */
        a->draft_ms = (int64_t)f->draft_minutes * 60000;
        a->action_ms = (int64_t)f->action_seconds * 1000;
    }
    if (clocks & TNY_GCLOCK_TURN) /* CT-8: per-turn limit, 0 none */
        a->action_ms = (int64_t)f->action_seconds * 1000;
}

/* The organiser's result of each table, when it is the counted one: the
 * round's counted rows (the valid one not superseded) that the organiser
 * entered or overrode, one query (issue 17: not every row of the round),
 * by table number. */
struct organiser_results {
    struct hub_result_row *rows;
    int32_t n_rows;
    const struct hub_result_row **by_table; /* [number], NULL none */
    int32_t n_by_table;
};

static void organiser_results_free(struct organiser_results *o)
{
    hub_result_rows_free(o->rows, o->n_rows);
    free(o->by_table);
    memset(o, 0, sizeof(*o));
}

static int organiser_results_load(struct hub_service *svc,
                                  const struct hub_ev *e,
                                  struct organiser_results *o,
                                  struct tny_diag *diag)
{
    int rc;
    memset(o, 0, sizeof(*o));
    if ((rc =
             hub_store_list_organiser_results(svc->store, e->id, e->ev.n_rounds,
                                              &o->rows, &o->n_rows, diag)) < 0)
        return rc;
    int32_t top = 0;
    for (int32_t i = 0; i < o->n_rows; i++)
        if (o->rows[i].table > top)
            top = o->rows[i].table;
    if (o->n_rows > 0 &&
        !(o->by_table = calloc((size_t)top + 1, sizeof(*o->by_table)))) {
        organiser_results_free(o);
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    }
    o->n_by_table = o->n_rows > 0 ? top + 1 : 0;
    /* Rows by table, oldest first: the last valid one not superseded of
     * each table is its counted result. */
    const struct hub_result_row **counted = o->by_table;
    for (int32_t i = 0; i < o->n_rows; i++) {
        const struct hub_result_row *row = &o->rows[i];
        if (row->table >= 0 && row->status == HUB_RESULT_VALID &&
            !row->superseded_by)
            counted[row->table] = row;
    }
    for (int32_t t = 0; t < o->n_by_table; t++)
        if (counted[t] && counted[t]->from_device)
            counted[t] = NULL;
    return TNY_OK;
}

/* The organiser's counted result of table t (NULL: none), from the
 * round's rows in o when given, else read for that table. */
static int organiser_result(struct hub_service *svc, const struct hub_ev *e,
                            int32_t table, const struct organiser_results *o,
                            struct tny_wire_assignment *a,
                            struct tny_diag *diag)
{
    if (o) {
        const struct hub_result_row *row =
            table >= 0 && table < o->n_by_table ? o->by_table[table] : NULL;
        if (row && strlen(row->result_json) < sizeof(a->organiser_result)) {
            snprintf(a->organiser_result, sizeof(a->organiser_result), "%s",
                     row->result_json);
            snprintf(a->organiser_result_by, sizeof(a->organiser_result_by),
                     "%s", row->actor);
        }
        return TNY_OK;
    }
    struct hub_result_row *rows = NULL;
    int32_t n = 0;
    int rc = hub_store_list_results(svc->store, e->id, e->ev.n_rounds, table,
                                    &rows, &n, diag);
    if (rc < 0)
        return rc;
    for (int32_t i = n - 1; i >= 0; i--) {
        const struct hub_result_row *row = &rows[i];
        if (row->status != HUB_RESULT_VALID || row->superseded_by)
            continue;
        if (!row->from_device &&
            strlen(row->result_json) < sizeof(a->organiser_result)) {
            snprintf(a->organiser_result, sizeof(a->organiser_result), "%s",
                     row->result_json);
            snprintf(a->organiser_result_by, sizeof(a->organiser_result_by),
                     "%s", row->actor);
        }
        break;
    }
    hub_result_rows_free(rows, n);
    return TNY_OK;
}

/* Completes the assignment of device d from a's event part
 * (assignment_event_part): its table, seats, clock and the organiser's
 * result (from o when given, see organiser_result), and a new version.
 * Every field this sets is reset first, so a is reused device after
 * device. */
static int assignment_device_part(struct hub_service *svc, struct hub_ev *e,
                                  const struct hub_device *d, int64_t now_ms,
                                  const struct organiser_results *o,
                                  struct tny_wire_assignment *a,
                                  struct tny_diag *diag)
{
    const struct tny_format *f = &e->ev.format;
    int32_t r = e->ev.n_rounds;
    struct tny_round_clock c;
    int rc;

    a->table = 0;
    a->n_seats = 0;
    a->ct_board[0] = '\0';
    a->has_clock = false;
    memset(&a->clock, 0, sizeof(a->clock));
    a->organiser_result[0] = '\0';
    a->organiser_result_by[0] = '\0';
    const struct tny_table *t = hub__ev_table(e, d->table);
    if (t && tny_game_ops_of(f->game)->boards && !t->is_bye) {
        struct tny_ct_board b; /* CT-9, from the event's generator */
        tny_ct_board_generate(e->ev.seed, r, t->number, &b);
        tny_ct_board_code(&b, a->ct_board);
    }
    if (t) {
        struct hub_table_state *ts = hub__ev_table_state(e, t->number);
        a->table = t->number;
        a->n_seats = t->n_seats;
        for (int32_t i = 0; i < t->n_seats; i++)
            fill_seat(e, t, i, ts ? ts->first_seat : -1, true, &a->seats[i]);
        if ((rc = hub__round_clock(svc, e, &c, diag)) < 0)
            return rc;
        hub__table_clock(e, &c, r, t->number, now_ms, &a->clock);
        a->has_clock = true;
    }
    /* A result the organiser entered or overrode is shown at the table as
     * the organiser's (the players enter nothing more). */
    if (t && t->has_result &&
        (rc = organiser_result(svc, e, t->number, o, a, diag)) < 0)
        return rc;
    a->version = hub__next_version(svc, now_ms);
    return TNY_OK;
}

/* The device's assignment into the outbox; a (scratch) holds the event
 * part of e's assignment when filled is true. */
static int publish_one(struct hub_service *svc, struct hub_device *d,
                       struct hub_ev *e, bool filled,
                       const struct organiser_results *o, int64_t now_ms,
                       struct hub_outbox *ob, struct tny_wire_assignment *a,
                       struct tny_diag *diag)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;

    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_ASSIGN, d->id, topic, sizeof(topic),
                             diag)) < 0)
        return rc;
    bool shown = e && e->ev.n_rounds > 0 &&
                 e->round.status != HUB_ROUND_DRAFT &&
                 e->info.status != HUB_EVENT_SETUP;
    if (!shown) {
        HUB_LOG(HUB_LOG_DEBUG, "assignment cleared device=%s", d->id);
        return hub_outbox_add(ob, topic, NULL, 0, true);
    }
    if (!filled)
        assignment_event_part(e, a);
    if ((rc = assignment_device_part(svc, e, d, now_ms, o, a, diag)) < 0)
        return rc;
    if ((rc = tny_wire_encode_assignment(a, &buf, &len, diag)) < 0) {
        /* A player's data the wire refuses: log, do not stop the others. */
        HUB_LOG(HUB_LOG_ERROR,
                "assignment not published device=%s event=%s round=%d "
                "table=%d: %s",
                d->id, e->id, (int)a->round, (int)a->table,
                diag ? diag->msg : tny_strerror(rc));
        return TNY_OK;
    }
    d->version = a->version;
    HUB_LOG(HUB_LOG_DEBUG,
            "assignment device=%s event=%s round=%d table=%d version=%llu",
            d->id, e->id, (int)a->round, (int)a->table,
            (unsigned long long)a->version);
    return hub_outbox_add(ob, topic, buf, len, true);
}

int hub__publish_device(struct hub_service *svc, struct hub_device *d,
                        int64_t now_ms, struct hub_outbox *ob,
                        struct tny_diag *diag)
{
    struct hub_ev *e = NULL;
    int rc;

    if (d->event[0]) {
        rc = hub__ev_get(svc, d->event, &e, diag);
        if (rc < 0 && rc != TNY_ENOTFOUND)
            return rc;
    }
    struct tny_wire_assignment *a = malloc(sizeof(*a));
    if (!a)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    rc = publish_one(svc, d, e, false, NULL, now_ms, ob, a, diag);
    free(a);
    return rc;
}

int hub__check_plan_assignments(const struct hub_ev *e,
                                const struct tny_round_plan *plan,
                                struct tny_diag *diag)
{
    const struct tny_format *f = &e->ev.format;
    struct tny_wire_assignment *a = malloc(sizeof(*a));
    int rc = TNY_OK;
    if (!a)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    /* What build_assignment sends, but for the plan's seats: the players'
     * texts are what the wire may refuse.  Checked, not encoded (the
     * encode's only other refusal, a message over 64 KiB, cannot happen
     * with these bounded fields); the event's part is filled once. */
    memset(a, 0, sizeof(*a));
    a->version = 1; /* any valid one: nothing is sent */
    snprintf(a->event_id, sizeof(a->event_id), "%s", e->id);
    snprintf(a->event_title, sizeof(a->event_title), "%s",
             e->ev.title[0] ? e->ev.title : f->title);
    snprintf(a->format_name, sizeof(a->format_name), "%s", f->name);
    a->game = f->game;
    a->round = plan->round;
    a->stage = plan->stage;
    for (int32_t t = 0; t < plan->n_tables && rc == TNY_OK; t++) {
        const struct tny_pairing_table *pt = &plan->tables[t];
        if (pt->is_bye || pt->n_seats > TNY_MAX_SEATS)
            continue;
        struct tny_table tb = {.number = pt->number, .n_seats = pt->n_seats};
        memcpy(tb.seats, pt->seats, sizeof(tb.seats));
        a->table = pt->number;
        a->n_seats = pt->n_seats;
        for (int32_t i = 0; i < pt->n_seats; i++)
            fill_seat(e, &tb, i, -1, false, &a->seats[i]);
        struct tny_diag why = {{0}};
        if (tny_wire_check_assignment(a, &why) < 0) {
            /* "table_assignment.seats[1].name: ..." names the seat. */
            int32_t seat = -1;
            const char *at = strstr(why.msg, "seats[");
            if (at)
                seat = (int32_t)strtol(at + 6, NULL, 10);
            const struct tny_player *pl =
                seat >= 0 && seat < pt->n_seats && pt->seats[seat] >= 0 &&
                        pt->seats[seat] < e->ev.n_players
                    ? &e->ev.players[pt->seats[seat]]
                    : NULL;
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "round %d not published: table %d cannot be "
                              "sent to its device (%s%s%s%s); correct it "
                              "(player edit) and publish again",
                              (int)plan->round, (int)pt->number,
                              pl ? "player " : "", pl ? pl->id : "",
                              pl ? ": " : "", why.msg);
        }
    }
    free(a);
    return rc;
}

int hub__publish_event_devices(struct hub_service *svc, struct hub_ev *e,
                               int64_t now_ms, struct hub_outbox *ob,
                               struct tny_diag *diag)
{
    struct organiser_results o = {0};
    struct tny_wire_assignment *a = NULL;
    int32_t n = 0;
    int rc = TNY_OK;

    /* Issue 17: the event's part of the assignment built once, the
     * organiser's results read in one query, for all its devices. */
    char id[sizeof(e->id)];
    snprintf(id, sizeof(id), "%s", e->id);
    for (int32_t i = 0; i < svc->n_devices; i++)
        n += strcmp(svc->devices[i].event, id) == 0;
    if (n == 0)
        return TNY_OK;
    struct hub_ev *got = NULL; /* as hub__publish_device finds it */
    if ((rc = hub__ev_get(svc, e->id, &got, diag)) < 0 && rc != TNY_ENOTFOUND)
        return rc;
    e = got;
    rc = TNY_OK;
    if (!(a = malloc(sizeof(*a))))
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    bool shown = e && e->ev.n_rounds > 0 &&
                 e->round.status != HUB_ROUND_DRAFT &&
                 e->info.status != HUB_EVENT_SETUP;
    if (shown) {
        assignment_event_part(e, a);
        if (n > 1 && (rc = organiser_results_load(svc, e, &o, diag)) < 0)
            goto out;
    }
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (strcmp(svc->devices[i].event, id) == 0 &&
            (rc = publish_one(svc, &svc->devices[i], e, shown,
                              n > 1 && shown ? &o : NULL, now_ms, ob, a,
                              diag)) < 0)
            goto out;
out:
    organiser_results_free(&o);
    free(a);
    return rc;
}
