/* console.c - the organiser's commands (ctl/{con}/req), as one table of
 * commands built from their descriptions (tny/console_cmds.h): whether
 * the event must exist, handler cmd_NAME, in place or under a snapshot.
 *
 * Each handler validates its arguments, makes its change through the store,
 * appends the retained messages the change affects (assignments, clocks)
 * and marks the feed dirty.  Errors are replies with rc < 0 and a message
 * naming the field ("console_request.round: ...") or the store's /
 * engine's diagnostic.
 *
 * All or nothing (issue 22): hub__console_run runs each command inside one
 * store batch (every write of the command is ONE transaction, committed
 * after the handler succeeded) and puts back the service's memory (clock
 * cache, extensions, table states, devices, queued retained messages)
 * when the command is refused: a refused command changes nothing, the
 * clock included.
 *
 * The model (issue 17): the commands marked in_place (all but `code
 * player` and the check-in drops) check everything against the
 * service's event first, then write, then change the event in place (no
 * snapshot); a failure after their first write reads the event back from
 * the store (model_recover).  No command reads the event back after its
 * write; `code player` and the check-in drops run under the snapshot.
 *
 * Not here: decoding, the reply cache (requests.c), publishing (publish.c).
 * import_players stores every player in one transaction (all or none).
 * Publishing a round stores its status and clock
 * in one transaction (hub_store_publish_round).
 */
#include "console.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "hub/log.h"
#include "codes.h"
#include "devices.h"
#include "events.h"
#include "feed_json.h"
#include "model_check.h"
#include "players_csv.h"
#include "presence.h"
#include "publish.h"
#include "reply_records.h"
#include "results.h"
#include "tny/json_io.h"
#include "tny/game.h"
#include "tny/pair.h"
#include "tny/procedure.h"
#include "tny/result_schema.h"
#include "tny/standings.h"

struct ctx {
    struct hub_service *svc;
    const char *console;
    char actor[16 + TNY_WIRE_ID_MAX];
    const struct tny_wire_request *req;
    int64_t now;
    struct hub_outbox *ob;
    struct tny_wire_reply *rep;
    struct tny_diag diag;
    struct hub_ev *e; /* loaded when the command needs an event */
    bool deleted;     /* delete_event: drop e's entry once committed */
    /* Issue 17: the command began to change the model (after its checks
     * and its first write): a failure from here on reads the model back
     * from the store. */
    bool touched;
};

/* Sets the reply's error (rc < 0) and message; returns rc. */
static int fail(struct ctx *c, int rc, const char *fmt, ...) TNY_PRINTF(3, 4);
static int fail(struct ctx *c, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->rep->message, sizeof(c->rep->message), fmt, ap);
    va_end(ap);
    c->rep->rc = rc;
    return rc;
}

/* The store's / engine's diagnostic as the reply. */
static int fail_diag(struct ctx *c, int rc)
{
    return fail(c, rc, "%s", c->diag.msg[0] ? c->diag.msg : tny_strerror(rc));
}

static int reply_json(struct ctx *c, char *text)
{
    c->rep->json = text;
    return TNY_OK;
}

/* The reply's records (issue 18 item 3): v (consumed; NULL: out of
 * memory) sent typed, the console's --json writes its text. */
static int reply_records(struct ctx *c, json_t *v)
{
    int rc = hub__reply_records(c->rep, v);
    if (rc == TNY_ENOMEM)
        return fail(c, rc, "out of memory");
    return rc < 0 ? fail(c, rc, "the reply's records nest too deep") : TNY_OK;
}

static const char *round_status_name(enum hub_round_status s)
{
    static const char *const names[] = {"draft", "published", "started",
                                        "closed"};
    return s <= HUB_ROUND_CLOSED ? names[s] : "?";
}

static const char *event_status_name(enum hub_event_status s)
{
    static const char *const names[] = {"setup", "running", "finished"};
    return s <= HUB_EVENT_FINISHED ? names[s] : "?";
}

/* ---- events ------------------------------------------------------------ */

/* Issue 17 item 1: an event id the hub has is refused on the service's
 * events (every event of the store, listed at start-up) before the store
 * is called, in the store's words; the store's unique key stays the
 * last word. */
static int event_taken(struct ctx *c)
{
    if (hub__ev_find(c->svc, c->req->event_id))
        return fail(c, TNY_ECONFLICT, "event \"%s\": already exists",
                    c->req->event_id);
    return TNY_OK;
}

static int cmd_create_event(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    json_t *root = json_object(), *fmt = NULL, *opts = NULL;
    json_error_t jerr;
    char *text = NULL;
    int rc = TNY_OK;

    if (!root)
        return fail(c, TNY_ENOMEM, "out of memory");
    if (q->event_json) { /* an imported event: the file as it is */
        json_decref(root);
        if (event_taken(c) < 0)
            return c->rep->rc;
        rc = hub_store_create_event(c->svc->store, q->event_id, q->event_json,
                                    strlen(q->event_json), c->actor, &c->diag);
        if (rc < 0)
            return fail_diag(c, rc);
        struct hub_ev *e;
        if ((rc = hub__ev_add(c->svc, q->event_id, &e)) < 0)
            return fail(c, rc, "out of memory");
        snprintf(c->rep->event_id, sizeof(c->rep->event_id), "%s", q->event_id);
        HUB_LOG(HUB_LOG_INFO, "event imported event=%s", q->event_id);
        return reply_records(
            c, json_pack("{s:s, s:b}", "event", q->event_id, "imported", 1));
    }
    if (q->preset[0] && q->format_json)
        rc = fail(c, TNY_EINVAL,
                  "console_request.create_event: give preset "
                  "or format_json, not both");
    else if (q->preset[0])
        fmt = json_string(q->preset);
    else if (q->format_json) {
        fmt = json_loads(q->format_json, JSON_REJECT_DUPLICATES, &jerr);
        if (!fmt || !json_is_object(fmt))
            rc = fail(c, TNY_EINVAL,
                      "console_request.create_event.format_json: %s",
                      fmt ? "expected a JSON object" : jerr.text);
    } else
        rc = fail(c, TNY_EINVAL,
                  "console_request.create_event: preset or "
                  "format_json is required");
    if (rc == 0 && fmt)
        json_object_set_new(root, "format", fmt);
    else
        json_decref(fmt);
    if (rc == 0 && q->options_json && q->options_json[0]) {
        opts = json_loads(q->options_json, JSON_REJECT_DUPLICATES, &jerr);
        if (!opts || !json_is_object(opts)) {
            rc = fail(c, TNY_EINVAL,
                      "console_request.create_event.options_json: %s",
                      opts ? "expected a JSON object" : jerr.text);
        } else {
            /* "level" (GT-15) is an event key; accept it among options. */
            json_t *level = json_object_get(opts, "level");
            if (level) {
                json_object_set(root, "level", level);
                json_object_del(opts, "level");
            }
            json_object_set(root, "options", opts);
        }
        json_decref(opts);
    }
    uint64_t seed = q->has_seed
                        ? q->seed
                        : c->svc->opt.draw_seed(c->svc->opt.draw_seed_arg) &
                              (uint64_t)INT64_MAX;
    if (rc == 0 && seed > (uint64_t)INT64_MAX)
        rc = fail(c, TNY_EINVAL,
                  "console_request.create_event.seed: expected 0..2^63-1");
    if (rc == 0) {
        json_object_set_new(root, "seed", json_integer((json_int_t)seed));
        if (q->title[0])
            json_object_set_new(root, "title", json_string(q->title));
        /* issue 21: checked with the event (event.language) */
        if (q->language[0])
            json_object_set_new(root, "language", json_string(q->language));
        json_object_set_new(root, "players", json_array());
        if (!(text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER)))
            rc = fail(c, TNY_ENOMEM, "out of memory");
    }
    json_decref(root);
    if (rc < 0 || (rc = event_taken(c)) < 0) {
        free(text);
        return rc;
    }
    rc = hub_store_create_event(c->svc->store, q->event_id, text, strlen(text),
                                c->actor, &c->diag);
    free(text);
    if (rc < 0)
        return fail_diag(c, rc);
    struct hub_ev *e;
    if ((rc = hub__ev_add(c->svc, q->event_id, &e)) < 0)
        return fail(c, rc, "out of memory");
    snprintf(c->rep->event_id, sizeof(c->rep->event_id), "%s", q->event_id);
    HUB_LOG(HUB_LOG_INFO, "event created event=%s seed=%llu", q->event_id,
            (unsigned long long)seed);
    return reply_records(c, json_pack("{s:s, s:I}", "event", q->event_id,
                                      "seed", (json_int_t)seed));
}

static int cmd_list_events(struct ctx *c)
{
    struct hub_event_info *ev = NULL;
    int32_t n = 0;
    int rc = hub_store_list_events(c->svc->store, &ev, &n, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    json_t *arr = json_array();
    for (int32_t i = 0; arr && i < n; i++)
        json_array_append_new(
            arr,
            json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I}", "id",
                      ev[i].id, "title", ev[i].title, "format", ev[i].format,
                      "status", event_status_name(ev[i].status), "players",
                      (int)ev[i].n_players, "rounds", (int)ev[i].n_rounds,
                      "seed", (json_int_t)(ev[i].seed & INT64_MAX),
                      "created_ms", (json_int_t)ev[i].created_ms));
    free(ev);
    c->rep->count = (uint64_t)n;
    return reply_records(c, arr);
}

static int cmd_export_event(struct ctx *c)
{
    char *text = NULL;
    int rc =
        hub_store_export_event_json(c->svc->store, c->e->id, &text, &c->diag);
    /* The organiser's reasons go with the export (x_audit). */
    if (rc == 0 && (rc = hub_store_append_audit(c->svc->store, c->e->id, &text,
                                                &c->diag)) < 0)
        free(text);
    if (rc < 0)
        return fail_diag(c, rc);
    return reply_json(c, text);
}

/* A malloc'd copy of an event's text (NULL: ""); NULL when out of
 * memory. */
static char *text_dup(const char *s)
{
    return strdup(s ? s : "");
}

/* Issue 18 item 3: the standings typed from the engine's (the console
 * writes the JSON of `tourney standings`, tny_standings_to_json, from
 * them).  TNY_ENOMEM. */
static int standings_typed(const struct tny_event *ev,
                           const struct tny_standings *st,
                           struct tny_wire_standings **out)
{
    struct tny_wire_standings *w = tny_wire_standings_new(st->n_rows);
    bool ok = w != NULL;
    if (ok) {
        w->after_round = st->after_round;
        w->stage = st->stage;
        w->n_tiebreaks = st->n_tiebreaks;
        memcpy(w->tiebreaks, st->tiebreaks, sizeof w->tiebreaks);
        if (ev->format.n_sides == 2) {
            w->n_sides = 2;
            ok = (w->sides[0] = text_dup(ev->format.sides[0])) &&
                 (w->sides[1] = text_dup(ev->format.sides[1]));
        }
    }
    for (int32_t i = 0; ok && i < st->n_rows; i++) {
        const struct tny_standing_row *row = &st->rows[i];
        struct tny_wire_standing_row *r = &w->rows[i];
        const struct tny_player *pl = &ev->players[row->player];
        r->rank = row->rank;
        r->points_units = row->points;
        for (int32_t k = 0; k < st->n_tiebreaks; k++) {
            /* not applicable, or not a number (null either way) */
            r->has_tiebreak[k] =
                row->has_tiebreak[k] && isfinite(row->tiebreaks[k]);
            r->tiebreaks[k] = r->has_tiebreak[k] ? row->tiebreaks[k] : 0.0;
        }
        r->dropped = row->dropped;
        r->decided_by_lot = row->decided_by_lot;
        r->disqualified = row->disqualified;
        r->separate_list = row->separate_list;
        /* issue 19: games played on each side */
        for (int32_t rd = 0;
             w->n_sides && rd < st->after_round && rd < ev->n_rounds; rd++)
            for (int32_t t = 0; t < ev->rounds[rd].n_tables; t++) {
                const struct tny_table *x = &ev->rounds[rd].tables[t];
                int32_t k = tny_table_seat_of(x, row->player);
                if (x->has_sides && !x->is_bye && k >= 0)
                    r->side_games[x->side[k] & 1]++;
            }
        ok = (r->player = text_dup(pl->id)) && (r->name = text_dup(pl->name));
    }
    if (!ok) {
        tny_wire_standings_free(w);
        return TNY_ENOMEM;
    }
    *out = w;
    return TNY_OK;
}

static int cmd_get_standings(struct ctx *c)
{
    struct tny_standings st;
    int32_t after = c->req->round;
    int rc;
    if (after < 0 || after > c->e->ev.n_rounds)
        return fail(c, TNY_EINVAL,
                    "console_request.round: expected 0..%d, got %d",
                    (int)c->e->ev.n_rounds, (int)after);
    if (after == 0)
        rc = tny_standings_compute(&c->e->ev, &st, &c->diag);
    else
        rc = tny_standings_compute_at(&c->e->ev, after, &st, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    rc = standings_typed(&c->e->ev, &st, &c->rep->standings);
    c->rep->round = st.after_round;
    /* The JSON is `tourney standings`' byte for byte; the reply's message
     * says when they are the event's final classification. */
    if (c->e->info.status == HUB_EVENT_FINISHED &&
        st.after_round == c->e->ev.n_rounds)
        snprintf(c->rep->message, sizeof(c->rep->message), "final standings");
    tny_standings_release(&st);
    if (rc < 0)
        return fail(c, rc, "out of memory");
    return TNY_OK;
}

/* A retained topic of the event cleared (a zero-length message):
 * tourney/v1/{kind}/{event}/{doc}. */
static int clear_topic(struct ctx *c, const char *kind, const char *doc)
{
    char topic[2 * TNY_WIRE_TOPIC_MAX + 2 * TNY_WIRE_ID_MAX];
    snprintf(topic, sizeof(topic), "%s%s/%s/%s", TNY_WIRE_TOPIC_PREFIX, kind,
             c->e->id, doc);
    return hub_outbox_add(c->ob, topic, NULL, 0, true);
}

/* Issue 22: a mistyped event is deleted (only one none of whose rounds
 * was published; the store refuses otherwise), audited with the reason;
 * its devices are free, its sign-in codes gone with their broker logins
 * (the console asked for confirmation: the codes are the event's), its
 * retained clock and feed documents cleared, its entry dropped once the
 * deletion committed. */
static int cmd_delete_event(struct ctx *c)
{
    int32_t freed = 0, codes = 0, played = c->e->ev.n_rounds;
    int rc;
    /* Issue 18: decided on the model, before any write. */
    if (played > 0)
        return fail(c, TNY_ESTATE,
                    "event \"%s\" has %d published round%s: only an event "
                    "not yet played can be deleted (its results stay; correct "
                    "them instead)",
                    c->e->id, (int)played, played == 1 ? "" : "s");
    if ((c->svc->opt.codes &&
         (rc = hub__codes_drop(c->svc, c->e, &codes, c->ob, &c->diag)) < 0) ||
        (rc = hub_store_delete_event(c->svc->store, c->e->id, c->actor, &freed,
                                     &c->diag)) < 0)
        return fail_diag(c, rc);
    c->touched = true;
    for (int32_t i = 0; i < c->svc->n_devices; i++) {
        struct hub_device *d = &c->svc->devices[i];
        if (strcmp(d->event, c->e->id) != 0)
            continue;
        d->event[0] = '\0';
        d->table = 0;
        if ((rc = hub__publish_device(c->svc, d, c->now, c->ob, &c->diag)) < 0)
            return fail_diag(c, rc);
    }
    static const char *const docs[] = {"event", "pairings", "tables",
                                       "standings", "bracket"};
    rc = clear_topic(c, "event", "clock");
    for (size_t i = 0; rc == 0 && i < sizeof(docs) / sizeof(docs[0]); i++)
        rc = clear_topic(c, "feed", docs[i]);
    for (int32_t i = 0; rc == 0 && i < c->e->ev.n_players; i++) {
        char doc[16 + TNY_WIRE_ID_MAX];
        snprintf(doc, sizeof(doc), "player/%s", c->e->ev.players[i].id);
        rc = clear_topic(c, "feed", doc);
    }
    if (rc < 0)
        return fail(c, rc, "out of memory");
    HUB_LOG(HUB_LOG_INFO,
            "event deleted event=%s devices_freed=%d codes=%d%s%s", c->e->id,
            (int)freed, (int)codes, c->req->reason[0] ? " reason=" : "",
            c->req->reason);
    c->deleted = true;
    c->rep->count = (uint64_t)freed;
    return reply_records(c, json_pack("{s:s, s:b, s:i, s:i}", "event", c->e->id,
                                      "deleted", 1, "devices_freed", (int)freed,
                                      "codes_deleted", (int)codes));
}

/* ---- players ---------------------------------------------------------------
 */

/* Next round to be paired (drafts included). */
static int32_t next_round(const struct ctx *c)
{
    return c->e->info.n_rounds + 1;
}

/* The round a "0 = current" argument means: the latest published round. */
static int32_t current_round(const struct ctx *c)
{
    return c->e->ev.n_rounds;
}

static int32_t draft_number(const struct ctx *c);

/* A plan stored as the draft, in the order the store reads it back (byes
 * last, then by table number, then as paired: hs_read_round_plan), so
 * that the model's draft is the stored one: a CM-5 fixed table numbers a
 * table out of the pairing's order (issue 17; TNY_MODEL_CHECK found it).
 * A stable insertion sort: the plan is in order but for fixed tables. */
static void plan_in_store_order(struct tny_round_plan *plan)
{
    struct tny_pairing_table *t = plan->tables;
#define AFTER(x, y)                                                            \
    ((x)->is_bye != (y)->is_bye ? (x)->is_bye > (y)->is_bye                    \
                                : (x)->number > (y)->number)
    for (int32_t i = 1; i < plan->n_tables; i++) {
        if (!AFTER(&t[i - 1], &t[i]))
            continue;
        struct tny_pairing_table x = t[i];
        int32_t j = i;
        for (; j > 0 && AFTER(&t[j - 1], &x); j--)
            t[j] = t[j - 1];
        t[j] = x;
    }
#undef AFTER
}

/* A player change made while a draft existed (round `draft`, 0 = none):
 * the draft is paired again for the new field, or the organiser is told
 * why it cannot be (the stale draft is then discarded).  The reply's
 * message says which; swaps and moves made in the old draft are gone. */
static int replan_draft(struct ctx *c, int32_t draft)
{
    struct tny_round_plan plan;
    int rc;
    if (!draft)
        return TNY_OK;
    /* Issue 17: the model has the player change already (in place, or
     * read back by the caller); the draft follows in place. */
    c->touched = true;
    struct tny_diag why = {{0}};
    if ((rc = tny_pair_next(&c->e->ev, &plan, &why)) < 0) {
        if (draft_number(c) &&
            (rc = hub_store_discard_draft(c->svc->store, c->e->id, draft,
                                          c->actor, &c->diag)) < 0)
            return fail_diag(c, rc);
        snprintf(c->rep->message, sizeof(c->rep->message),
                 "the draft of round %d could not be planned again: %.300s; it "
                 "is discarded: pair round %d when the field allows",
                 (int)draft, why.msg[0] ? why.msg : tny_strerror(rc),
                 (int)draft);
        hub__ev_draft_drop(c->e);
        c->e->draft_cached = true; /* known: no draft */
        c->e->info.n_rounds = c->e->ev.n_rounds;
        c->e->feed_dirty = true;
        return TNY_OK;
    }
    plan_in_store_order(&plan);
    rc = hub_store_save_draft(c->svc->store, c->e->id, &c->e->ev, &plan,
                              c->actor, &c->diag);
    if (rc < 0) {
        tny_round_plan_release(&plan);
        return fail_diag(c, rc);
    }
    hub__ev_draft_take(c->e, &plan);
    c->e->info.n_rounds = draft;
    c->e->feed_dirty = true;
    HUB_LOG(HUB_LOG_INFO, "draft re-planned event=%s round=%d", c->e->id,
            (int)draft);
    snprintf(c->rep->message, sizeof(c->rep->message),
             "the draft of round %d was planned again for the new field "
             "(edits made to it are gone): review it with `round show`",
             (int)draft);
    return TNY_OK;
}

/* Issue 17: the player `id` of the model, or NULL with the refusal (the
 * store's words: nothing is written for an unknown player). */
static struct tny_player *model_player(struct ctx *c, const char *id)
{
    int32_t ix = tny_event_player_index(&c->e->ev, id);
    if (ix >= 0)
        return &c->e->ev.players[ix];
    fail(c, TNY_ENOTFOUND, "event \"%s\": no player \"%s\"", c->e->id, id);
    return NULL;
}

/* Issue 17 item 1: ev (the model, or a copy sharing all but its rounds)
 * with plan appended validates (tny_event_validate's rc and words in d). */
static int valid_with_plan(const struct tny_event *ev,
                           const struct tny_round_plan *plan,
                           struct tny_diag *d)
{
    struct tny_event tmp = *ev; /* shares all but the rounds array */
    int rc;
    tmp.rounds = malloc(sizeof(*tmp.rounds) * (size_t)(tmp.n_rounds + 1));
    if (!tmp.rounds)
        return tny_diag_set(d, TNY_ENOMEM, "out of memory");
    if (tmp.n_rounds > 0)
        memcpy(tmp.rounds, ev->rounds,
               sizeof(*tmp.rounds) * (size_t)tmp.n_rounds);
    if ((rc = tny_event_append_round(&tmp, plan)) == 0) {
        rc = tny_event_validate(&tmp, d);
        free(tmp.rounds[tmp.n_rounds - 1].tables);
    } else {
        rc = tny_diag_set(d, rc, "out of memory");
    }
    free(tmp.rounds);
    return rc;
}

/* Issue 17: the check a player change must pass, made on the model (with
 * the change applied) before any write (the store reads nothing back):
 * the event validates (tny_event_validate; refused: TNY_EINVAL with the
 * engine's words in the reply); *draft_ok: so does it with its draft
 * appended (false: the draft was paired for another field; the caller
 * has the store discard it with the change, and pairs again). */
static int check_player_change(struct ctx *c, bool *draft_ok)
{
    const struct tny_round_plan *draft = NULL;
    struct tny_diag ignored = {{0}};
    int rc;
    *draft_ok = true;
    if ((rc = tny_event_validate(&c->e->ev, &c->diag)) < 0)
        return fail_diag(c, rc);
    if (!draft_number(c))
        return TNY_OK;
    if ((rc = hub__ev_draft(c->svc, c->e, &draft, &c->diag)) < 0)
        return fail_diag(c, rc);
    rc = valid_with_plan(&c->e->ev, draft, &ignored);
    if (rc == TNY_ENOMEM)
        return fail(c, rc, "out of memory");
    *draft_ok = rc == TNY_OK;
    return TNY_OK;
}

/* After a player change the store committed: a draft the change made
 * invalid is gone from the store (check_player_change said so and the
 * caller had the store discard it), and from the model; replan_draft
 * pairs again. */
static void draft_gone(struct ctx *c, bool draft_ok)
{
    if (draft_ok || !draft_number(c))
        return;
    hub__ev_draft_drop(c->e);
    c->e->draft_cached = true; /* known: no draft */
    c->e->info.n_rounds = c->e->ev.n_rounds;
}

/* CM-1: a late entrant joins the draft's round when there is a draft (it
 * is planned again), else the next round; an earlier round is refused.
 * *late: the player's first round. */
static int late_round(struct ctx *c, const struct tny_wire_player *p,
                      int32_t *late)
{
    int32_t open = draft_number(c) ? draft_number(c) : next_round(c);
    *late = p->first_round ? p->first_round : open;
    if (*late < open && c->e->info.n_rounds > 0)
        return fail(c, TNY_EINVAL,
                    "player \"%s\": first_round %d is already paired; the "
                    "next round is %d (CM-1)",
                    p->id, (int)*late, (int)open);
    return TNY_OK;
}

static char *dup_text(const char *s, bool *oom)
{
    char *d = s && s[0] ? strdup(s) : NULL;
    *oom |= s && s[0] && !d;
    return d;
}

/* Issue 17: the wire player as the model keeps it and the store writes it
 * (issue 18 item 4: typed, no JSON text across the seam); decklist:
 * GT-14's deck list or NULL. */
static int player_from_wire(struct ctx *c, const struct tny_wire_player *w,
                            int32_t late, const char *decklist,
                            struct tny_player *out)
{
    const struct tny_format *fmt = &c->e->ev.format;
    bool oom = false;
    memset(out, 0, sizeof(*out));
    if (w->n_armies > 0 && fmt->n_armies == 0)
        return fail(c, TNY_EINVAL,
                    "player \"%s\": armies: format \"%s\" has no army list",
                    w->id, fmt->name);
    for (int32_t i = 0; i < w->n_armies; i++)
        if ((out->armies[i] = tny_format_army_index(fmt, w->armies[i])) < 0)
            return fail(c, TNY_EINVAL,
                        "player \"%s\": armies[%d]: unknown army \"%s\" "
                        "(see `tourney format %s`, neuroshima_hex.armies)",
                        w->id, (int)i, w->armies[i], fmt->name);
    out->n_armies = w->n_armies;
    out->id = dup_text(w->id, &oom);
    out->name = dup_text(w->name, &oom);
    out->club = dup_text(w->club, &oom);
    out->country = dup_text(w->country, &oom);
    out->external_id = dup_text(w->external_id, &oom);
    out->faction = dup_text(w->faction, &oom);
    out->agenda = dup_text(w->agenda, &oom);
    out->decklist = dup_text(decklist, &oom);
    for (int32_t i = 0; i < w->n_colours && i < 2; i++)
        out->colours[out->n_colours++] = dup_text(w->colours[i], &oom);
    out->has_rating = w->has_rating;
    out->rating = w->rating;
    out->beginner = w->beginner;
    out->colour_blind = w->colour_blind;
    out->hook = w->hook;
    out->first_round = late > 1 ? late : 1;
    if (oom || !out->id || !out->name) {
        tny_player_release(out);
        memset(out, 0, sizeof(*out));
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    return TNY_OK;
}

/* Issue 17: players registered (new ids appended, a known id's entry
 * replaced as the store's upsert does: its lifecycle kept, its fixed
 * table and knockout armies cleared), checked on the model first (CM-1's
 * open round, the armies, the event with its draft: check_player_change),
 * then stored in one transaction, the model keeping the change.  A draft
 * the new field makes invalid is discarded with them (decided here) and
 * planned again. */
static int register_players(struct ctx *c, const struct tny_wire_player *w,
                            int32_t n, const char *decklist)
{
    struct tny_event *ev = &c->e->ev;
    int32_t draft = draft_number(c), n0 = ev->n_players, n_new = 0;
    struct tny_player *typed = calloc((size_t)n + 1, sizeof(*typed));
    struct tny_player *old = calloc((size_t)n + 1, sizeof(*old));
    int32_t *at = calloc((size_t)n + 1, sizeof(*at));
    struct tny_player *rows = calloc((size_t)n + 1, sizeof(*rows));
    bool draft_ok = true;
    int32_t i, late;
    int rc = TNY_OK;
    if (!typed || !old || !at || !rows) {
        rc = fail(c, TNY_ENOMEM, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++)
        if ((rc = late_round(c, &w[i], &late)) < 0 ||
            (rc = player_from_wire(c, &w[i], late, decklist, &typed[i])) < 0)
            goto out;
    /* The change on the model (undone when refused). */
    for (i = 0; i < n; i++) {
        int32_t ix = tny_event_player_index(ev, w[i].id);
        if (ix < 0) {
            if ((rc = tny_event_add_player(ev, w[i].id, w[i].name, &ix)) < 0) {
                fail(c, rc, "out of memory");
                break;
            }
            n_new++;
            tny_player_release(&ev->players[ix]);
        } else {
            struct tny_player *p = &ev->players[ix];
            old[i] = *p;
            typed[i].dropped_after = p->dropped_after;
            typed[i].no_show = p->no_show;
            typed[i].rejoined_from = p->rejoined_from;
            typed[i].dq_after = p->dq_after;
        }
        at[i] = ix;
        ev->players[ix] = typed[i];
        /* The store's row i: entry i as given (shallow; its strings live
         * in the model, or in old[] when a later entry of the same id
         * replaced it), so that the log keeps every entry. */
        rows[i] = typed[i];
        memset(&typed[i], 0, sizeof(typed[i]));
    }
    if (rc == 0)
        rc = check_player_change(c, &draft_ok);
    if (rc < 0)
        goto undo;
    c->touched = true; /* the model has the change: a failure reads back */
    if ((rc = hub_store_put_players(c->svc->store, c->e->id, &ev->format, rows,
                                    n, draft_ok ? 0 : draft, c->actor,
                                    &c->diag)) < 0) {
        fail_diag(c, rc);
        goto out;
    }
    c->e->info.n_players = ev->n_players;
    draft_gone(c, draft_ok);
    if (draft_ok && n_new)
        hub__ev_draft_drop(c->e); /* read again: the field grew */
    c->e->feed_dirty = true;
    c->rep->count = (uint64_t)n;
    rc = replan_draft(c, draft);
    goto out;
undo:
    for (i = n - 1; i >= 0; i--)
        if (old[i].id) {
            tny_player_release(&ev->players[at[i]]);
            ev->players[at[i]] = old[i];
            memset(&old[i], 0, sizeof(old[i]));
        }
    while (ev->n_players > n0)
        tny_event_remove_player(ev, ev->n_players - 1);
out:
    for (i = 0; i < n && typed && old; i++) {
        tny_player_release(&typed[i]);
        tny_player_release(&old[i]);
    }
    free(typed);
    free(old);
    free(at);
    free(rows);
    return rc;
}

static int cmd_register_player(struct ctx *c)
{
    int rc = register_players(c, &c->req->player, 1, c->req->decklist);
    if (rc == 0)
        HUB_LOG(HUB_LOG_INFO, "player registered event=%s player=%s", c->e->id,
                c->req->player.id);
    return rc;
}

/* NH-10 (seed 000 5.1): every player registers 5 armies, or is marked a
 * beginner.  Players without either: the organiser is told on import and
 * on pairing (appended to the reply's note), since the tables can then
 * neither record the army played nor enforce NH-11. */
static void nh_armies_note(struct ctx *c)
{
    const struct tny_event *ev = &c->e->ev;
    int32_t n = 0, first = -1;
    if (!tny_game_ops_of(ev->format.game)->armies || ev->format.n_armies == 0)
        return;
    for (int32_t i = 0; i < ev->n_players; i++)
        if (!ev->players[i].beginner && ev->players[i].n_armies == 0 &&
            n++ == 0)
            first = i;
    if (n == 0)
        return;
    size_t used = strlen(c->rep->message);
    snprintf(c->rep->message + used, sizeof(c->rep->message) - used,
             "%swarning: %d of %d players have no armies listed (%s %.60s"
             "%s): NH-10 needs 5 armies per player (an armies column) or "
             "beginner; without them the tables record no army and NH-11 "
             "is not enforced",
             used ? "; " : "", (int)n, (int)ev->n_players,
             ev->players[first].id, ev->players[first].name,
             n > 1 ? ", ..." : "");
}

/* Every row is read and checked first (players_csv.c), then all players
 * are stored in one transaction: a bad row anywhere changes nothing, and
 * the import is linear in the number of players. */

/* The reply of an import: {"imported": [{id, name, club?}, ...]}. */
static int import_reply(struct ctx *c, const struct tny_wire_player *players,
                        int32_t n)
{
    json_t *root = json_object(), *list = json_array();
    bool ok = root && list;
    for (int32_t i = 0; ok && i < n; i++) {
        json_t *o = json_pack("{s:s, s:s}", "id", players[i].id, "name",
                              players[i].name);
        ok = o && (!players[i].club[0] ||
                   json_object_set_new(o, "club",
                                       json_string(players[i].club)) == 0);
        ok = ok && json_array_append_new(list, o) == 0;
    }
    ok = ok && json_object_set(root, "imported", list) == 0;
    json_decref(list);
    if (!ok) {
        json_decref(root);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    return reply_records(c, root);
}
static int cmd_import_players(struct ctx *c)
{
    struct tny_wire_player *players = NULL;
    int32_t n = 0;
    int rc;

    if (!c->req->csv || (!c->req->csv[0] && !c->req->csv_len))
        return fail(c, TNY_EINVAL, "console_request.csv: empty");
    /* csv_len is set when a NUL byte is inside: the CSV reader refuses it
     * with its line rather than reading a list cut short. */
    rc = hub_players_csv_read(
        c->req->csv, c->req->csv_len ? c->req->csv_len : strlen(c->req->csv),
        &c->e->ev, &c->e->ev.format, &players, &n, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    if ((rc = register_players(c, players, n, NULL)) == TNY_OK) {
        HUB_LOG(HUB_LOG_INFO, "players imported event=%s count=%d", c->e->id,
                (int)n);
        nh_armies_note(c);
        rc = import_reply(c, players, n);
    }
    free(players);
    return rc;
}

/* Issue 17 item 1: the event without player ix validates, checked on a
 * copy of the model before the store writes (the store reads nothing
 * back): with the draft when it does not seat them (its seats moved down
 * as the players' indices are), alone when it does (the store discards a
 * draft that seats them; the service pairs again). */
static int check_withdrawal(struct ctx *c, int32_t ix)
{
    const struct tny_round_plan *draft = NULL;
    struct tny_round_plan plan = {0};
    struct tny_event tmp;
    bool seated = false;
    int rc;
    if (draft_number(c) &&
        (rc = hub__ev_draft(c->svc, c->e, &draft, &c->diag)) < 0)
        return fail_diag(c, rc);
    for (int32_t t = 0; draft && t < draft->n_tables; t++)
        for (int32_t k = 0; k < draft->tables[t].n_seats; k++)
            seated |= draft->tables[t].seats[k] == ix;
    if ((rc = tny_event_copy(&c->e->ev, &tmp)) < 0)
        return fail(c, rc, "out of memory");
    tny_event_remove_player(&tmp, ix);
    if (draft && !seated) {
        plan = *draft;
        plan.tables =
            malloc(sizeof(*plan.tables) * (size_t)(draft->n_tables + 1));
        if (!plan.tables) {
            tny_event_release(&tmp);
            return fail(c, TNY_ENOMEM, "out of memory");
        }
        memcpy(plan.tables, draft->tables,
               sizeof(*plan.tables) * (size_t)draft->n_tables);
        for (int32_t t = 0; t < plan.n_tables; t++)
            for (int32_t k = 0; k < plan.tables[t].n_seats; k++)
                plan.tables[t].seats[k] -= plan.tables[t].seats[k] > ix;
        rc = valid_with_plan(&tmp, &plan, &c->diag);
        free(plan.tables);
    } else {
        rc = tny_event_validate(&tmp, &c->diag);
    }
    tny_event_release(&tmp);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

/* Before round 1 (a no-show): the entry is withdrawn, the draft of round 1
 * planned again without them.  CM-2 decided on the model first: a player
 * seated in a published round is dropped after it instead. */
static int withdraw(struct ctx *c, int32_t draft)
{
    const struct tny_wire_request *q = c->req;
    struct tny_event *ev = &c->e->ev;
    struct tny_player *pl = model_player(c, q->player_id);
    int rc;
    if (!pl)
        return c->rep->rc;
    int32_t ix = (int32_t)(pl - ev->players);
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++)
            if (tny_table_seat_of(&ev->rounds[r].tables[t], ix) >= 0)
                return fail(c, TNY_ESTATE,
                            "player \"%s\" is seated in round %d (%s): "
                            "drop them after a round instead (CM-2)",
                            q->player_id, (int)r + 1,
                            r + 1 == c->e->round.number
                                ? round_status_name(c->e->round.status)
                                : "closed");
    if ((rc = check_withdrawal(c, ix)) < 0)
        return rc;
    int32_t discarded = 0;
    if ((rc = hub_store_withdraw_player(c->svc->store, c->e->id, q->player_id,
                                        c->actor, &discarded, &c->diag)) < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "player withdrawn event=%s player=%s%s%s", c->e->id,
            q->player_id, q->reason[0] ? " reason=" : "", q->reason);
    /* Issue 17: in place; the store deleted a draft that seated them. */
    c->touched = true;
    if (discarded)
        draft_gone(c, false);
    else
        hub__ev_draft_drop(c->e); /* its player indices moved */
    tny_event_remove_player(ev, ix);
    c->e->info.n_players--;
    c->e->feed_dirty = true;
    return replan_draft(c, draft);
}

static int cmd_drop(struct ctx *c, bool dq)
{
    const struct tny_wire_request *q = c->req;
    int32_t after = q->round ? q->round : current_round(c);
    int32_t draft = draft_number(c);
    bool draft_ok;
    int rc;
    if (after < 1)
        return withdraw(c, draft);
    struct tny_player *pl = model_player(c, q->player_id);
    if (!pl)
        return c->rep->rc;
    /* CM-3 decided here, on the model (issue 18). */
    if (dq && pl->dq_after)
        return fail(c, TNY_ESTATE, "player \"%s\": already disqualified",
                    q->player_id);
    struct tny_player was = *pl;
    if (dq) {
        pl->dq_after = after;
    } else {
        pl->dropped_after = after;
        pl->rejoined_from = 0;
    }
    rc = check_player_change(c, &draft_ok);
    struct tny_player now = *pl;
    *pl = was;
    if (rc < 0)
        return rc;
    /* The draft the change makes invalid goes in the same transaction
     * (decided here, once: the store reads no event back). */
    int32_t stale = draft_ok ? 0 : draft;
    if (dq)
        rc = hub_store_disqualify_player(c->svc->store, c->e->id, q->player_id,
                                         after, stale, c->actor, &c->diag);
    else
        rc = hub_store_drop_player(c->svc->store, c->e->id, q->player_id, after,
                                   stale, c->actor, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    /* Issue 17: the player's lifecycle in the model; a draft the change
     * made invalid is gone (the store discarded it, the same check). */
    c->touched = true;
    *pl = now;
    draft_gone(c, draft_ok);
    c->e->feed_dirty = true;
    HUB_LOG(HUB_LOG_INFO, "player %s event=%s player=%s after_round=%d%s%s",
            dq ? "disqualified" : "dropped", c->e->id, q->player_id, (int)after,
            q->reason[0] ? " reason=" : "", q->reason);
    c->rep->round = after;
    return replan_draft(c, draft);
}

static int cmd_drop_player(struct ctx *c)
{
    return cmd_drop(c, false);
}

static int cmd_disqualify_player(struct ctx *c)
{
    return cmd_drop(c, true);
}

static int cmd_rejoin_player(struct ctx *c)
{
    int32_t draft = draft_number(c);
    int32_t from = c->req->round ? c->req->round
                   : draft       ? draft
                                 : next_round(c);
    const char *id = c->req->player_id;
    struct tny_player *pl = model_player(c, id);
    bool draft_ok;
    int rc;
    if (!pl)
        return c->rep->rc;
    /* CM-3, CM-2 and GT-11, decided here on the model (issue 18). */
    if (pl->dq_after)
        return fail(c, TNY_ESTATE,
                    "player \"%s\": disqualified players never rejoin "
                    "(CM-3)",
                    id);
    if (!pl->dropped_after)
        return fail(c, TNY_ESTATE, "player \"%s\": not dropped", id);
    if (from <= pl->dropped_after)
        return fail(c, TNY_EINVAL,
                    "player \"%s\": rejoin round %d: expected a round after "
                    "the drop (round %d)",
                    id, (int)from, (int)pl->dropped_after);
    int32_t was = pl->rejoined_from;
    pl->rejoined_from = from;
    rc = check_player_change(c, &draft_ok);
    pl->rejoined_from = was;
    if (rc < 0)
        return rc;
    if ((rc = hub_store_rejoin_player(c->svc->store, c->e->id, id, from,
                                      draft_ok ? 0 : draft, c->actor,
                                      &c->diag)) < 0)
        return fail_diag(c, rc);
    /* Issue 17: in place. */
    c->touched = true;
    pl->rejoined_from = from;
    draft_gone(c, draft_ok);
    c->e->feed_dirty = true;
    c->rep->round = from;
    return replan_draft(c, draft);
}

/* NH-11: the knockout has begun once a round of it is paired (the draft
 * counts). */
static bool knockout_begun(struct ctx *c)
{
    const struct tny_round_plan *draft = NULL;
    struct tny_diag ignored = {{0}};
    for (int32_t r = 0; r < c->e->ev.n_rounds; r++)
        if (c->e->ev.rounds[r].stage == TNY_STAGE_ELIMINATION)
            return true;
    return hub__ev_draft(c->svc, c->e, &draft, &ignored) == 0 &&
           draft->stage == TNY_STAGE_ELIMINATION;
}

/* NH-11: a qualifier's knockout armies, before the knockout (the rule is
 * decided here; the store records and validates the declaration). */
static int cmd_declare_armies(struct ctx *c)
{
    const struct tny_wire_player *p = &c->req->player;
    const char *names[TNY_MAX_ARMIES];
    if (p->n_armies < 1 || p->n_armies > TNY_MAX_ARMIES)
        return fail(c, TNY_EINVAL,
                    "player \"%s\": knockout armies: expected 1..%d "
                    "army names (NH-11)",
                    c->req->player_id, TNY_MAX_ARMIES);
    if (tny_event_player_index(&c->e->ev, c->req->player_id) >= 0 &&
        knockout_begun(c))
        return fail(c, TNY_ESTATE,
                    "player \"%s\": the knockout has begun; armies are "
                    "declared before its first round (NH-11)",
                    c->req->player_id);
    /* Issue 17: the declaration checked on the model (the armies of the
     * format, NH-11's count: tny_event_validate with the draft), then
     * written, then kept in the model. */
    const struct tny_format *fmt = &c->e->ev.format;
    struct tny_player *pl = model_player(c, c->req->player_id);
    int32_t ko[TNY_MAX_ARMIES];
    bool draft_ok;
    int rc;
    if (!pl)
        return c->rep->rc;
    int32_t ix = (int32_t)(pl - c->e->ev.players);
    if (fmt->n_armies == 0)
        return fail(c, TNY_EINVAL,
                    "event.players[%d].knockout_armies: format \"%s\" has no "
                    "army list",
                    (int)ix, fmt->name);
    for (int32_t i = 0; i < p->n_armies; i++) {
        names[i] = p->armies[i];
        if ((ko[i] = tny_format_army_index(fmt, p->armies[i])) < 0)
            return fail(c, TNY_EINVAL,
                        "event.players[%d].knockout_armies[%d]: unknown army "
                        "\"%s\" (see `tourney format %s`, "
                        "neuroshima_hex.armies)",
                        (int)ix, (int)i, p->armies[i], fmt->name);
    }
    struct tny_player was = *pl;
    pl->n_ko_armies = p->n_armies;
    memcpy(pl->ko_armies, ko, sizeof(*ko) * (size_t)p->n_armies);
    rc = check_player_change(c, &draft_ok);
    struct tny_player now = *pl;
    *pl = was;
    if (rc < 0)
        return rc;
    if (!draft_ok) /* the store's invariant: the event with its draft */
        return fail(c, TNY_EINVAL,
                    "player \"%s\": knockout armies: the draft does not "
                    "validate with them (NH-11)",
                    c->req->player_id);
    rc = hub_store_declare_armies(c->svc->store, c->e->id, c->req->player_id,
                                  names, p->n_armies, c->actor, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    c->touched = true;
    *pl = now;
    c->e->feed_dirty = true;
    c->rep->count = p->n_armies;
    return TNY_OK;
}

enum edit_kind { EDIT_KIND_SWAP, EDIT_KIND_MOVE, EDIT_KIND_FIX };
static int check_draft_edit(struct ctx *c, enum edit_kind kind);

static int cmd_fix_table(struct ctx *c)
{
    const struct tny_round_plan *draft = NULL;
    struct tny_round_plan plan = {0};
    struct tny_diag ignored = {{0}};
    bool moved = false;
    int rc = check_draft_edit(c, EDIT_KIND_FIX);
    if (rc < 0)
        return rc;
    /* Issue 18 item 4: an unknown player is refused here, on the model,
     * in the store's words (the store is not called). */
    if (!model_player(c, c->req->player_id))
        return c->rep->rc;
    /* CM-5 (issue 18: decided here): with a draft, the table holding the
     * player moves to the fixed number (a table already there takes the
     * old one), by the engine's move. */
    if (c->req->table > 0 &&
        hub__ev_draft(c->svc, c->e, &draft, &ignored) == 0) {
        int32_t p = tny_event_player_index(&c->e->ev, c->req->player_id);
        int32_t from = -1;
        for (int32_t t = 0; p >= 0 && t < draft->n_tables; t++)
            for (int32_t k = 0; k < draft->tables[t].n_seats; k++)
                if (!draft->tables[t].is_bye && draft->tables[t].seats[k] == p)
                    from = draft->tables[t].number;
        if (from >= 0 && from != c->req->table) {
            /* Issue 17: the model's draft, copied (not read back). */
            plan = *draft;
            plan.tables =
                malloc(sizeof(*plan.tables) * (size_t)(draft->n_tables + 1));
            plan.explain = draft->explain ? strdup(draft->explain) : NULL;
            if (!plan.tables || (draft->explain && !plan.explain)) {
                tny_round_plan_release(&plan);
                return fail(c, TNY_ENOMEM, "out of memory");
            }
            memcpy(plan.tables, draft->tables,
                   sizeof(*plan.tables) * (size_t)draft->n_tables);
            if ((rc = tny_round_plan_move(&plan, from, c->req->table,
                                          &c->diag)) < 0) {
                tny_round_plan_release(&plan);
                return fail_diag(c, rc);
            }
            moved = true;
            /* Issue 17 item 1: the event with the moved draft validates,
             * checked on the model before the store writes it. */
            if ((rc = valid_with_plan(&c->e->ev, &plan, &c->diag)) < 0) {
                tny_round_plan_release(&plan);
                return fail_diag(c, rc);
            }
        }
    }
    rc = hub_store_fix_player_table(c->svc->store, c->e->id, c->req->player_id,
                                    c->req->table, moved ? &plan : NULL,
                                    c->actor, &c->diag);
    if (rc < 0) {
        tny_round_plan_release(&plan);
        return fail_diag(c, rc);
    }
    /* Issue 17: the player's fixed table in the model, and the moved
     * draft in the store's order (kept in the model, not read back). */
    c->touched = true;
    int32_t ix = tny_event_player_index(&c->e->ev, c->req->player_id);
    if (ix < 0) {
        tny_round_plan_release(&plan);
        return fail(c, TNY_ESTATE, "player \"%s\" is not in the model",
                    c->req->player_id);
    }
    c->e->ev.players[ix].fixed_table = c->req->table;
    if (moved) {
        plan_in_store_order(&plan);
        hub__ev_draft_take(c->e, &plan);
    }
    c->e->feed_dirty = true;
    return TNY_OK;
}

/* ---- rounds: pairing, draft edits, publish, close ------------------------ */

/* A seating reply (issue 18 item 3: typed, no JSON text) of n_tables
 * tables with every player's name; NULL when out of memory. */
static struct tny_wire_seating *seating_new(struct ctx *c, int32_t n_tables)
{
    const struct tny_event *ev = &c->e->ev;
    struct tny_wire_seating *s = tny_wire_seating_new(n_tables, ev->n_players);
    bool ok = s != NULL;
    for (int32_t i = 0; ok && i < ev->n_players; i++)
        ok = (s->names[i].id = text_dup(ev->players[i].id)) &&
             (s->names[i].name = text_dup(ev->players[i].name));
    if (!ok) {
        tny_wire_seating_free(s);
        return NULL;
    }
    return s;
}

/* Table t's players into a seating's table (a bye: table 0, one player). */
static bool seat_players(const struct tny_event *ev, bool is_bye,
                         int32_t number, const int32_t *seats, int32_t n,
                         struct tny_wire_seated_table *st)
{
    st->table = is_bye ? 0 : number;
    st->n_players = is_bye ? 1 : n;
    for (int32_t k = 0; k < st->n_players; k++)
        if (!(st->players[k] = text_dup(ev->players[seats[k]].id)))
            return false;
    return true;
}

static int seating_reply(struct ctx *c, struct tny_wire_seating *s, bool ok)
{
    if (!ok) {
        tny_wire_seating_free(s);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    c->rep->round = s->round;
    c->rep->seating = s;
    return TNY_OK;
}

static int draft_reply(struct ctx *c, int32_t round)
{
    const struct tny_round_plan *plan = NULL;
    int rc = hub__ev_draft(c->svc, c->e, &plan, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    if (round && plan->round != round)
        return fail(c, TNY_ENOTFOUND,
                    "console_request.round: round %d is not the draft (the "
                    "draft is round %d)",
                    (int)round, (int)plan->round);
    /* Issue 18: typed from the model (the console writes the JSON of
     * tny_round_plan_to_json with the names from it). */
    const struct tny_event *ev = &c->e->ev;
    struct tny_wire_seating *s = seating_new(c, plan->n_tables);
    bool ok = s != NULL;
    if (ok) {
        s->round = plan->round;
        s->has_stage = true;
        s->stage = plan->stage;
    }
    for (int32_t i = 0; ok && i < plan->n_tables; i++) {
        const struct tny_pairing_table *t = &plan->tables[i];
        struct tny_wire_seated_table *st = &s->tables[i];
        ok = seat_players(ev, t->is_bye, t->number, t->seats, t->n_seats, st);
        if (!ok || t->is_bye)
            continue;
        if (t->has_sides && ev->format.n_sides == 2 && t->n_seats == 2) {
            st->n_sides = 2;
            ok = (st->sides[0] = text_dup(ev->format.sides[t->side[0] & 1])) &&
                 (st->sides[1] = text_dup(ev->format.sides[t->side[1] & 1]));
        }
        if (ok && t->first_seat >= 0 && t->first_seat < t->n_seats)
            ok = (st->first_player =
                      text_dup(ev->players[t->seats[t->first_seat]].id));
    }
    ok = ok && (s->explain = text_dup(plan->explain));
    return seating_reply(c, s, ok);
}

static int pair(struct ctx *c, int32_t round)
{
    struct tny_round_plan plan;
    int rc;
    int32_t want = c->e->ev.n_rounds + 1;
    if (round != 0 && round != want)
        return fail(c, TNY_EINVAL,
                    "console_request.round: the next round is %d, got %d",
                    (int)want, (int)round);
    if (c->e->ev.n_rounds > 0 && c->e->round.status != HUB_ROUND_CLOSED)
        return fail(c, TNY_ESTATE,
                    "round %d is %s: close it before pairing round %d",
                    (int)c->e->ev.n_rounds,
                    round_status_name(c->e->round.status), (int)want);
    if ((rc = tny_pair_next(&c->e->ev, &plan, &c->diag)) < 0)
        return fail_diag(c, rc);
    plan_in_store_order(&plan);
    rc = hub_store_save_draft(c->svc->store, c->e->id, &c->e->ev, &plan,
                              c->actor, &c->diag);
    HUB_LOG(HUB_LOG_INFO, "round paired event=%s round=%d tables=%d%s%s",
            c->e->id, (int)plan.round, (int)plan.n_tables,
            rc < 0 ? " not saved: " : "", rc < 0 ? c->diag.msg : "");
    if (rc < 0) {
        tny_round_plan_release(&plan);
        return fail_diag(c, rc);
    }
    /* Issue 17: the stored draft is the model's (rounds counted with the
     * draft). */
    c->touched = true;
    hub__ev_draft_take(c->e, &plan);
    c->e->info.n_rounds = want;
    c->e->feed_dirty = true;
    nh_armies_note(c);
    return draft_reply(c, want);
}

static int cmd_pair_round(struct ctx *c)
{
    return pair(c, c->req->round);
}

static int cmd_next_stage(struct ctx *c)
{
    if (!c->req->confirm)
        return fail(c, TNY_EINVAL, "console_request.confirm: must be true");
    /* tny_pair_next moves to the next stage by itself once the current one
     * is complete (Swiss -> cut -> elimination, AG prelim -> final). */
    return pair(c, 0);
}

/* Time left of a clock reading at now (negative: overtime). */
static int64_t clock_left(const struct tny_clock_msg *m, int64_t now)
{
    return m->state == TNY_ROUND_CLOCK_RUNNING ? m->deadline_ms - now
                                               : m->remaining_ms;
}

/* A clock reading as the reply shows it: its state, the time left. */
static void time_left(const struct tny_clock_msg *m, int64_t now,
                      struct tny_wire_time_left *out)
{
    out->has = true;
    out->state = m->state;
    out->left_ms = clock_left(m, now);
}

/* A published (or started, closed) round in the draft's shape, with its
 * status, the players' names and, for the round in play, the time left
 * (the round's clock, and a table's own where it differs). */
static int round_reply(struct ctx *c, int32_t round)
{
    static const enum tny_wire_round_status status[] = {
        [HUB_ROUND_DRAFT] = TNY_WIRE_ROUND_DRAFT,
        [HUB_ROUND_PUBLISHED] = TNY_WIRE_ROUND_PUBLISHED,
        [HUB_ROUND_STARTED] = TNY_WIRE_ROUND_STARTED,
        [HUB_ROUND_CLOSED] = TNY_WIRE_ROUND_CLOSED};
    const struct tny_event *ev = &c->e->ev;
    const struct tny_round *r = &ev->rounds[round - 1];
    struct tny_wire_seating *s = seating_new(c, r->n_tables);
    bool ok = s != NULL;
    if (!ok)
        return seating_reply(c, s, ok);
    s->round = round;
    s->has_stage = true;
    s->stage = r->stage;
    s->status = round == ev->n_rounds && c->e->round.status <= HUB_ROUND_CLOSED
                    ? status[c->e->round.status]
                    : TNY_WIRE_ROUND_CLOSED;
    /* Issue 22: the time left, the round's and each table's that has its
     * own (an extension, a judge's pause, an AG-14 draft start). */
    struct tny_round_clock clock;
    struct tny_clock_msg rm;
    struct tny_diag ignored = {{0}};
    bool timed = round == ev->n_rounds &&
                 hub__round_clock(c->svc, c->e, &clock, &ignored) == TNY_OK &&
                 clock.length_ms > 0;
    if (timed) {
        tny_round_clock_message(&clock, 0, c->now, &rm); /* the round's */
        time_left(&rm, c->now, &s->clock);
    }
    for (int32_t i = 0; ok && i < r->n_tables; i++) {
        const struct tny_table *t = &r->tables[i];
        struct tny_wire_seated_table *st = &s->tables[i];
        struct tny_clock_msg tm;
        if (timed && !t->is_bye) {
            hub__table_clock(c->e, &clock, round, t->number, c->now, &tm);
            if (tm.state != rm.state ||
                clock_left(&tm, c->now) != clock_left(&rm, c->now))
                time_left(&tm, c->now, &st->clock);
        }
        ok = seat_players(ev, t->is_bye, t->number, t->seats, t->n_seats, st);
    }
    return seating_reply(c, s, ok);
}

/* `round show`: the draft; with a round that is published (or closed)
 * that round; without a round and without a draft the current round. */
static int cmd_show_draft(struct ctx *c)
{
    int32_t round = c->req->round;
    const struct tny_round_plan *plan = NULL;
    if (round >= 1 && round <= c->e->ev.n_rounds)
        return round_reply(c, round);
    if (round == 0 && c->e->ev.n_rounds > 0) {
        struct tny_diag d = {{0}};
        int rc = hub__ev_draft(c->svc, c->e, &plan, &d);
        if (rc == TNY_ENOTFOUND)
            return round_reply(c, c->e->ev.n_rounds);
    }
    return draft_reply(c, round);
}

/* After a CM-5 edit: a draft answers with itself; a published round (its
 * clock not started) goes to the tables again at once, new versions, and
 * answers with the round as the event file writes it. */
static int republish_table(struct ctx *c, int32_t table);

/* The tables a swap or move changed (issue 17: only those are written
 * and sent again): their plan positions and, before and after the edit,
 * their numbers. */
struct edited {
    bool all; /* more than a swap or move changes: every table */
    int32_t n, positions[2 * TNY_MAX_SEATS], numbers[4 * TNY_MAX_SEATS];
    int32_t n_numbers;
};

static bool same_table(const struct tny_pairing_table *x,
                       const struct tny_pairing_table *y)
{
    if (x->number != y->number || x->is_bye != y->is_bye ||
        x->n_seats != y->n_seats || x->first_seat != y->first_seat ||
        x->has_sides != y->has_sides)
        return false;
    for (int32_t k = 0; k < x->n_seats; k++)
        if (x->seats[k] != y->seats[k] ||
            (x->has_sides && x->side[k] != y->side[k]))
            return false;
    return true;
}

/* The positions where plan differs from before (the same tables before
 * the edit); false when more changed than a swap or move can change. */
static bool edited_tables(const struct tny_pairing_table *before,
                          const struct tny_round_plan *plan, struct edited *ed)
{
    memset(ed, 0, sizeof(*ed));
    for (int32_t t = 0; t < plan->n_tables; t++) {
        if (same_table(&before[t], &plan->tables[t]))
            continue;
        if (ed->n ==
            (int32_t)(sizeof(ed->positions) / sizeof(ed->positions[0]))) {
            ed->all = true;
            return false;
        }
        ed->positions[ed->n++] = t;
        if (!before[t].is_bye)
            ed->numbers[ed->n_numbers++] = before[t].number;
        if (!plan->tables[t].is_bye)
            ed->numbers[ed->n_numbers++] = plan->tables[t].number;
    }
    return true;
}

static int edited_reply(struct ctx *c, int32_t round, const struct edited *ed)
{
    int rc;
    bool published = round >= 1 && round == c->e->ev.n_rounds &&
                     c->e->round.status == HUB_ROUND_PUBLISHED;
    if (!published)
        return draft_reply(c, round);
    /* Issue 17: the devices of the tables the edit changed get their
     * assignment again (a moved table's old number: none, idle). */
    if (ed->all && (rc = hub__publish_event_devices(c->svc, c->e, c->now, c->ob,
                                                    &c->diag)) < 0)
        return fail_diag(c, rc);
    for (int32_t i = 0; !ed->all && i < ed->n_numbers; i++) {
        bool again = false;
        for (int32_t j = 0; j < i; j++)
            again |= ed->numbers[j] == ed->numbers[i];
        if (!again && (rc = republish_table(c, ed->numbers[i])) < 0)
            return rc;
    }
    c->e->feed_dirty = true;
    HUB_LOG(HUB_LOG_INFO, "published round edited event=%s round=%d", c->e->id,
            (int)round);
    struct tny_wire_seating *s = tny_wire_seating_new(0, 0);
    if (s) {
        s->round = round;
        s->republished = true;
    }
    return seating_reply(c, s, s != NULL);
}

/* Issue 18 item 4: the event with round plan->round as plan (published:
 * the model's last round replaced; else the draft after the model's
 * rounds) is validated here, before the store writes the edit.  With
 * out (published), *out receives the round as the model takes it after
 * the commit (release its tables). */
static int check_edited(struct ctx *c, const struct tny_round_plan *plan,
                        bool published, struct tny_round *out)
{
    const struct tny_event *ev = &c->e->ev;
    int32_t keep = published ? ev->n_rounds - 1 : ev->n_rounds;
    if (keep < 0 || plan->round != keep + 1)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d is not the model's %s round",
                    c->e->id, (int)plan->round, published ? "current" : "next");
    struct tny_event tmp = *ev; /* shares everything but the rounds array */
    tmp.n_rounds = keep;
    tmp.rounds = malloc(sizeof(*tmp.rounds) * (size_t)(keep + 1));
    if (!tmp.rounds)
        return fail(c, TNY_ENOMEM, "out of memory");
    if (keep > 0)
        memcpy(tmp.rounds, ev->rounds, sizeof(*tmp.rounds) * (size_t)keep);
    memset(&tmp.rounds[keep], 0, sizeof(tmp.rounds[keep]));
    int rc = tny_event_append_round(&tmp, plan);
    if (rc < 0)
        rc = fail(c, rc, "out of memory");
    else if ((rc = tny_event_validate(&tmp, &c->diag)) < 0)
        rc = fail_diag(c, rc);
    if (rc == 0 && out)
        *out = tmp.rounds[keep];
    else
        free(tmp.rounds[keep].tables);
    free(tmp.rounds);
    return rc;
}

/* Issue 17: after the store committed the edit of the published round
 * (the model's last round): its tables become the model's in place, in
 * the order the store reads them (byes last, by number), a new
 * generation; its table states are the new tables' (no result, nothing
 * submitted: CM-5 edits a round without one), each with its AG-4 first
 * seat. */
static int published_edited(struct ctx *c, struct tny_round_plan *plan,
                            struct tny_round *round)
{
    struct hub_ev *e = c->e;
    struct tny_round *r = &e->ev.rounds[e->ev.n_rounds - 1];
    struct tny_table *tb = round->tables;
    c->touched = true;
    /* The store's order (plan_in_store_order's) for the tables. */
    for (int32_t i = 1; i < round->n_tables; i++) {
        struct tny_table x = tb[i];
        int32_t j = i;
        for (; j > 0 &&
               (tb[j - 1].is_bye != x.is_bye ? tb[j - 1].is_bye > x.is_bye
                                             : tb[j - 1].number > x.number);
             j--)
            tb[j] = tb[j - 1];
        tb[j] = x;
    }
    free(r->tables);
    r->tables = round->tables;
    r->n_tables = round->n_tables;
    round->tables = NULL;
    hub__ev_round_changed(e, e->ev.n_rounds);
    struct hub_table_state *ts =
        calloc((size_t)plan->n_tables + 1, sizeof(*ts));
    if (!ts)
        return fail(c, TNY_ENOMEM, "out of memory");
    free(e->tables);
    e->tables = ts;
    e->n_tables = 0;
    plan_in_store_order(plan);
    for (int32_t t = 0; t < plan->n_tables; t++) {
        if (plan->tables[t].is_bye)
            continue;
        ts[e->n_tables].number = plan->tables[t].number;
        ts[e->n_tables++].first_seat = plan->tables[t].first_seat;
    }
    e->state_round = e->ev.n_rounds;
    e->feed_dirty = true;
    return TNY_OK;
}

/* CM-5 (decided here; the store keeps the tables): "Before start the
 * organiser may edit pairings": a draft, or a published round whose clock
 * has not started and that has no result, edited by the engine's swap
 * (with the pairing's sides for the two tables, issue 19) or move.  The
 * edited event is validated here (check_edited), then stored, then
 * (issue 17) the model changes: a published round's tables in place
 * (published_edited), an edited draft read again, typed, from its rows
 * when next needed. */
static int edit_round(struct ctx *c, bool swap, struct edited *ed)
{
    const struct tny_wire_request *q = c->req;
    const struct tny_event *ev = &c->e->ev;
    struct hub_round_info info;
    struct tny_round_plan plan = {0};
    struct tny_round edited = {0};
    struct tny_pairing_table *before = NULL;
    int rc;
    if ((rc = hub_store_get_round(c->svc->store, c->e->id, q->round, &info,
                                  &c->diag)) < 0)
        return fail_diag(c, rc);
    if (info.status != HUB_ROUND_DRAFT && info.status != HUB_ROUND_PUBLISHED)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d is %s: pairings can be "
                    "edited until the round's clock starts (CM-5)",
                    c->e->id, (int)q->round, round_status_name(info.status));
    bool published = info.status == HUB_ROUND_PUBLISHED;
    if ((rc = hub_store_load_round_plan(c->svc->store, c->e->id, q->round, ev,
                                        &plan, &c->diag)) < 0)
        return fail_diag(c, rc);
    if (published && q->round <= ev->n_rounds) {
        const struct tny_round *pr = &ev->rounds[q->round - 1];
        for (int32_t t = 0; t < pr->n_tables; t++)
            if (pr->tables[t].has_result) {
                rc = fail(c, TNY_ESTATE,
                          "event \"%s\": round %d: table %d has a "
                          "result; its pairings stay (CM-5)",
                          c->e->id, (int)q->round, (int)pr->tables[t].number);
                goto out;
            }
    }
    struct hub_round_edit edit = {.swap = swap,
                                  .a = q->player_id,
                                  .b = q->other_player_id,
                                  .from = q->table,
                                  .to = q->to_table};
    if (!(before = malloc(sizeof(*before) * (size_t)(plan.n_tables + 1)))) {
        rc = fail(c, TNY_ENOMEM, "out of memory");
        goto out;
    }
    if (plan.n_tables > 0)
        memcpy(before, plan.tables, sizeof(*before) * (size_t)plan.n_tables);
    if (swap) {
        int32_t a = tny_event_player_index(ev, q->player_id);
        int32_t b = tny_event_player_index(ev, q->other_player_id);
        if (a < 0 || b < 0) {
            rc = fail(c, TNY_ENOTFOUND, "event \"%s\": no player \"%s\"",
                      c->e->id, a < 0 ? q->player_id : q->other_player_id);
            goto out;
        }
        rc = tny_round_plan_swap(&plan, a, b, &c->diag);
        for (int32_t t = 0; rc == 0 && t < plan.n_tables; t++)
            for (int32_t k = 0; k < plan.tables[t].n_seats; k++)
                if (plan.tables[t].seats[k] == a ||
                    plan.tables[t].seats[k] == b) {
                    rc = tny_round_plan_sides(ev, &plan, t, &c->diag);
                    break;
                }
    } else {
        rc = tny_round_plan_move(&plan, q->table, q->to_table, &c->diag);
    }
    if (rc < 0) {
        rc = fail_diag(c, rc);
        goto out;
    }
    if ((rc = check_edited(c, &plan, published, published ? &edited : NULL)) <
        0)
        goto out;
    /* Issue 17: only the tables the edit changed are written again. */
    if (edited_tables(before, &plan, ed)) {
        edit.changed = ed->positions;
        edit.n_changed = ed->n;
        edit.ev = ev;
        edit.before = before;
    }
    if ((rc = hub_store_save_round_edit(c->svc->store, c->e->id, q->round,
                                        &plan, &edit, c->actor, &c->diag)) <
        0) {
        rc = fail_diag(c, rc);
        goto out;
    }
    if (published) {
        rc = published_edited(c, &plan, &edited);
    } else { /* the draft alone changed */
        c->touched = true;
        hub__ev_draft_drop(c->e);
        c->e->feed_dirty = true;
    }
out:
    free(before);
    free(edited.tables);
    tny_round_plan_release(&plan);
    return rc;
}

static int cmd_swap_players(struct ctx *c)
{
    struct edited ed = {0};
    int rc = check_draft_edit(c, EDIT_KIND_SWAP);
    if (rc < 0 || (rc = edit_round(c, true, &ed)) < 0)
        return rc;
    return edited_reply(c, c->req->round, &ed);
}

static int cmd_move_table(struct ctx *c)
{
    struct edited ed = {0};
    int rc = check_draft_edit(c, EDIT_KIND_MOVE);
    if (rc < 0 || (rc = edit_round(c, false, &ed)) < 0)
        return rc;
    return edited_reply(c, c->req->round, &ed);
}

/* The clock length of the draft round once published (what
 * hub__round_length_ms gives for it then): its stage's round minutes, the
 * final's when it is an elimination round with one playing table; 0 = no
 * time limit. */
static int64_t draft_length_ms(const struct tny_event *ev,
                               const struct tny_round_plan *plan)
{
    struct tny_diag ignored;
    int32_t playing = 0, minutes = 0;
    if (plan->stage_index < 0 || plan->stage_index >= ev->format.n_stages)
        return 0;
    for (int32_t t = 0; t < plan->n_tables; t++)
        if (!plan->tables[t].is_bye)
            playing++;
    bool final = plan->stage == TNY_STAGE_ELIMINATION && playing == 1;
    if (tny_stage_round_minutes(&ev->format.stages[plan->stage_index], final,
                                &minutes, &ignored) < 0)
        return 0;
    return (int64_t)minutes * 60000;
}

static int cmd_publish_round(struct ctx *c)
{
    struct hub_service *svc = c->svc;
    const struct tny_round_plan *plan = NULL;
    struct tny_round_clock clock;
    int32_t round = c->req->round;
    int rc;

    if ((rc = hub__ev_draft(svc, c->e, &plan, &c->diag)) < 0)
        return fail_diag(c, rc);
    if (plan->round != round)
        return fail(c, TNY_ESTATE,
                    "console_request.round: round %d is not the draft (the "
                    "draft is round %d)",
                    (int)round, (int)plan->round);
    rc = tny_round_clock_init(&clock, draft_length_ms(&c->e->ev, plan),
                              &c->diag);
    /* All or nothing: a table whose assignment the wire refuses (a control
     * character in a name) stops the publish before anything changes. */
    if (rc == TNY_OK)
        rc = hub__check_plan_assignments(c->e, plan, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);

    /* The round status and its clock: one transaction, one commit. */
    if ((rc = hub_store_publish_draft(svc->store, c->e->id, round, &clock,
                                      &c->e->ev, plan, c->actor, &c->diag)) < 0)
        return fail_diag(c, rc);
    /* Issue 17: the draft becomes the model's current round in place. */
    c->touched = true;
    if ((rc = hub__ev_publish_draft(c->e)) < 0)
        return fail(c, rc, "out of memory");
    /* Cached as hub__save_clock caches a clock it saved. */
    c->e->clock = clock;
    c->e->clock_round = round;
    c->e->clock_expired_seen = false;
    c->e->feed_dirty = true;

    /* Devices: those assigned to a table of this event keep it; tables
     * without one get free registered devices in id order, never a table
     * page's web-N: that login belongs to its code's table alone (issue
     * 20; a revoked code's device stays unassigned). */
    const struct tny_round *r = &c->e->ev.rounds[round - 1];
    struct hub_device **by_table = NULL;
    int32_t n_by_table = 0, next_free = 0;
    if ((rc = hub__ev_devices_by_table(svc, c->e, &by_table, &n_by_table)) < 0)
        return fail(c, rc, "out of memory");
    for (int32_t t = 0; t < r->n_tables; t++) {
        const struct tny_table *tb = &r->tables[t];
        if (tb->is_bye ||
            (tb->number < n_by_table && by_table[tb->number] != NULL))
            continue;
        while (next_free < svc->n_devices &&
               (svc->devices[next_free].event[0] ||
                hub__device_is_web(svc->devices[next_free].id)))
            next_free++;
        if (next_free == svc->n_devices)
            break;
        struct hub_device *free_dev = &svc->devices[next_free];
        rc = hub_store_device_assign(svc->store, free_dev->id, c->e->id,
                                     tb->number, c->actor, &c->diag);
        if (rc < 0) {
            free(by_table);
            return fail_diag(c, rc);
        }
        snprintf(free_dev->event, sizeof(free_dev->event), "%s", c->e->id);
        free_dev->table = tb->number;
    }
    free(by_table);
    if ((rc = hub__publish_event_devices(svc, c->e, c->now, c->ob, &c->diag)) <
            0 ||
        (rc = hub__publish_clock(svc, c->e, c->now, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    /* Issue 20: the player codes follow their players to this round's
     * tables now, so that a table whose players sign in on their phones
     * has its page device (web-N) before the summary says who shows it
     * (the dispatcher's own follow then finds nothing changed). */
    if (svc->opt.codes && (rc = hub__codes_follow(svc, c->e, c->actor, c->now,
                                                  c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);

    /* Issue 17: the reply's lists, typed below (issue 18): each table's
     * device as it is after the publish, a Pi's or a phone page's. */
    if ((rc = hub__ev_devices_by_table(svc, c->e, &by_table, &n_by_table)) < 0)
        return fail(c, rc, "out of memory");
    int32_t n_assigned = 0, n_missing = 0;
    int32_t *numbers = malloc(sizeof(*numbers) * (size_t)(r->n_tables + 1));
    const char **devs = malloc(sizeof(*devs) * (size_t)(r->n_tables + 1));
    int32_t *missing = malloc(sizeof(*missing) * (size_t)(r->n_tables + 1));
    /* Devices of the event at no table of the round (a table number
     * marked once, not a scan of the round per device). */
    bool *playing = calloc((size_t)n_by_table + 1, sizeof(*playing));
    if (!numbers || !devs || !missing || !playing) {
        free(numbers);
        free(devs);
        free(missing);
        free(playing);
        free(by_table);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    for (int32_t t = 0; t < r->n_tables; t++) {
        const struct tny_table *tb = &r->tables[t];
        if (tb->is_bye)
            continue;
        struct hub_device *have =
            tb->number < n_by_table ? by_table[tb->number] : NULL;
        if (have) {
            numbers[n_assigned] = tb->number;
            devs[n_assigned++] = have->id;
            playing[tb->number] = true;
        } else {
            missing[n_missing++] = tb->number;
        }
    }
    free(by_table);
    int32_t idle = 0;
    for (int32_t i = 0; i < svc->n_devices; i++) {
        int32_t tn = svc->devices[i].table;
        idle += !strcmp(svc->devices[i].event, c->e->id) &&
                !(tn >= 0 && tn < n_by_table && playing[tn]);
    }
    free(playing);
    HUB_LOG(HUB_LOG_INFO,
            "round published event=%s round=%d tables=%d without_device=%d",
            c->e->id, (int)round, (int)n_assigned, (int)n_missing);
    c->rep->round = round;
    c->rep->count = (uint64_t)n_assigned;
    /* Issue 18 item 3: typed (the console writes the JSON it printed). */
    struct tny_wire_published *pub = tny_wire_published_new(n_assigned, 0);
    bool ok = pub != NULL;
    for (int32_t i = 0; ok && i < n_assigned; i++) {
        pub->tables[i] = numbers[i];
        ok = (pub->devices[i] = text_dup(devs[i])) != NULL;
    }
    if (ok) {
        pub->round = round;
        pub->missing = missing; /* taken */
        pub->n_missing = n_missing;
        pub->idle_devices = idle;
        missing = NULL;
    }
    free(numbers);
    free(devs);
    free(missing);
    if (!ok) {
        tny_wire_published_free(pub);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    c->rep->published = pub;
    return TNY_OK;
}

static int finish_if_complete(struct ctx *c);

/* CM-5, CM-6 (issue 18 item 4: decided here, on the model, before the
 * store is called; the words the store used to refuse with): only the
 * round in play (published or started) closes, once every table but a
 * bye has its counted result and no conflicting submission is open. */
static int check_close(struct ctx *c)
{
    const struct tny_event *ev = &c->e->ev;
    int32_t round = c->req->round, n = ev->n_rounds;
    const char *status = NULL;
    if (round >= 1 && round < n)
        status = "closed"; /* CM-5: a round is published after its
                              predecessor closed */
    else if (round >= 1 && round == n &&
             c->e->round.status != HUB_ROUND_PUBLISHED &&
             c->e->round.status != HUB_ROUND_STARTED)
        status = round_status_name(c->e->round.status);
    else if (round > n && round == draft_number(c))
        status = "draft";
    else if (round < 1 || round > n)
        return fail(c, TNY_ENOTFOUND, "event \"%s\": no round %d", c->e->id,
                    (int)round);
    if (status)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d is %s, cannot become closed "
                    "(CM-5)",
                    c->e->id, (int)round, status);
    int32_t missing = 0, conflict = 0;
    const struct tny_round *r = &ev->rounds[n - 1];
    for (int32_t t = 0; t < r->n_tables; t++)
        if (!r->tables[t].is_bye && !r->tables[t].has_result &&
            (!missing || r->tables[t].number < missing))
            missing = r->tables[t].number;
    if (missing)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d: table %d has no result yet",
                    c->e->id, (int)round, (int)missing);
    if (c->e->round.n_conflicts <= 0)
        return TNY_OK;
    /* Which table: the table states when they are the round's, else (or
     * when they name none) the round's result rows (a read: nothing is
     * written). */
    for (int32_t t = 0; c->e->state_round == n && t < c->e->n_tables; t++)
        if (c->e->tables[t].conflict &&
            (!conflict || c->e->tables[t].number < conflict))
            conflict = c->e->tables[t].number;
    if (!conflict) {
        struct hub_result_row *rows = NULL;
        int32_t n_rows = 0;
        int rc = hub_store_list_results(c->svc->store, c->e->id, round, 0,
                                        &rows, &n_rows, &c->diag);
        if (rc < 0)
            return fail_diag(c, rc);
        for (int32_t i = 0; i < n_rows; i++)
            if (rows[i].status == HUB_RESULT_CONFLICT && !rows[i].resolved &&
                (!conflict || rows[i].table < conflict))
                conflict = rows[i].table;
        hub_result_rows_free(rows, n_rows);
    }
    return fail(c, TNY_ESTATE,
                "event \"%s\": round %d: table %d has a conflicting result "
                "to resolve (CM-6)",
                c->e->id, (int)round, (int)conflict);
}

static int cmd_close_round(struct ctx *c)
{
    struct tny_round_clock clock;
    bool stop = false;
    int rc;

    /* First what may refuse (issue 22: a table still playing must leave
     * the clock running), decided on the model (check_close); then the
     * store closes the round. */
    if ((rc = check_close(c)) < 0)
        return rc;
    rc = hub_store_set_round_status(c->svc->store, c->e->id, c->req->round,
                                    HUB_ROUND_CLOSED, c->actor, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    c->touched = true;
    /* A closed round's clock stops where it stood (issue 8): tables, the
     * dashboard and the overlays show the time left (or over) at the
     * close, not a countdown that runs on.  Same batch as the close. */
    if (c->e->ev.n_rounds > 0 && c->req->round == c->e->ev.n_rounds &&
        hub__round_clock(c->svc, c->e, &clock, &c->diag) == TNY_OK &&
        clock.state == TNY_ROUND_CLOCK_RUNNING) {
        if ((rc = tny_round_clock_pause(&clock, c->now, &c->diag)) < 0 ||
            (rc = hub__save_clock(c->svc, c->e, &clock, c->actor, &c->diag)) <
                0)
            return fail_diag(c, rc);
        stop = true;
    }
    c->rep->round = c->req->round;
    HUB_LOG(HUB_LOG_INFO, "round closed event=%s round=%d", c->e->id,
            (int)c->req->round);
    /* Issue 17: the model's round row follows (a round before the current
     * one is not in it). */
    c->touched = true;
    if (c->req->round == c->e->round.number)
        c->e->round.status = HUB_ROUND_CLOSED;
    c->e->feed_dirty = true;
    if ((rc = finish_if_complete(c)) < 0)
        return rc;
    /* Issue 17: no table's assignment is sent again: closing changes none
     * but its clock, which the RoundClock below carries, newer (a table
     * shows the newer of the two: docs/protocol.md).  A finished event's
     * devices were cleared above.  At 2,500 tables this was 2,500
     * messages just before the next round's 2,500. */
    if (stop &&
        (rc = hub__publish_clock(c->svc, c->e, c->now, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    return TNY_OK;
}

/* ---- clock (CM-7) ---------------------------------------------------------
 */

static int need_current(struct ctx *c, int32_t round)
{
    if (c->e->ev.n_rounds == 0 || round != c->e->ev.n_rounds)
        return fail(c, TNY_EINVAL,
                    "console_request.round: round %d is not the published "
                    "round (%d)",
                    (int)round, (int)c->e->ev.n_rounds);
    if (c->e->round.status == HUB_ROUND_CLOSED)
        return fail(c, TNY_ESTATE, "round %d is closed", (int)round);
    return TNY_OK;
}

enum clock_op { CLOCK_START, CLOCK_PAUSE, CLOCK_RESUME, CLOCK_EXTEND };
static int republish_table(struct ctx *c, int32_t table);

/* "1:30:00", "-0:45": a time for a message (buf of cap bytes). */
static const char *span(int64_t ms, char *buf, size_t cap)
{
    int64_t a = ms < 0 ? -ms : ms, s = a / 1000;
    if (s >= 3600)
        snprintf(buf, cap, "%s%lld:%02lld:%02lld", ms < 0 ? "-" : "",
                 (long long)(s / 3600), (long long)(s / 60 % 60),
                 (long long)(s % 60));
    else
        snprintf(buf, cap, "%s%lld:%02lld", ms < 0 ? "-" : "",
                 (long long)(s / 60), (long long)(s % 60));
    return buf;
}

/* Issue 22: one table paused for a judge call, or resumed.  Its time
 * stands still while the round clock runs on: resuming adds the round
 * time run since the pause to the table's extension (one audited write
 * each; the hub replays both on start). */
static int table_pause(struct ctx *c, bool pause)
{
    const struct tny_wire_request *q = c->req;
    struct tny_round_clock clock;
    char a[24];
    int rc;
    if (!hub__ev_table(c->e, q->table))
        return fail(c, TNY_ENOTFOUND,
                    "console_request.table: round %d has no table %d",
                    (int)q->round, (int)q->table);
    if ((rc = hub__round_clock(c->svc, c->e, &clock, &c->diag)) < 0)
        return fail_diag(c, rc);
    int64_t at = hub__ev_paused_at(c->e, q->round, q->table);
    if (pause) {
        if (clock.length_ms == 0)
            return fail(c, TNY_ESTATE,
                        "round %d has no time limit: there is no clock to "
                        "pause",
                        (int)q->round);
        if (clock.state != TNY_ROUND_CLOCK_RUNNING)
            return fail(c, TNY_ESTATE,
                        "round %d's clock %s: a table is paused while the "
                        "round clock runs",
                        (int)q->round,
                        clock.state == TNY_ROUND_CLOCK_READY
                            ? "has not started"
                            : "is paused (every table stands still)");
        if (at >= 0)
            return fail(c, TNY_ESTATE,
                        "table %d is paused already: resume it with `clock "
                        "resume --table %d`",
                        (int)q->table, (int)q->table);
        int64_t ran = tny_round_clock_elapsed(&clock, c->now);
        if ((rc = hub_store_table_pause(c->svc->store, c->e->id, q->round,
                                        q->table, true, ran, c->actor,
                                        &c->diag)) < 0)
            return fail_diag(c, rc);
        c->touched = true;
        if ((rc = hub__ev_set_paused_at(c->e, q->round, q->table, ran)) < 0)
            return fail(c, rc, "out of memory");
    } else {
        if (at < 0)
            return fail(c, TNY_ESTATE, "table %d is not paused", (int)q->table);
        bool paused = false;
        int64_t total = hub__table_extension_now(c->e, &clock, q->round,
                                                 q->table, c->now, &paused);
        if (total > TNY_CLOCK_MAX_MS)
            return fail(c, TNY_ERANGE,
                        "table %d: paused for longer than the clock counts",
                        (int)q->table);
        if ((rc = hub_store_table_pause(c->svc->store, c->e->id, q->round,
                                        q->table, false, total, c->actor,
                                        &c->diag)) < 0)
            return fail_diag(c, rc);
        c->touched = true;
        if ((rc = hub__ev_set_extension(c->e, q->round, q->table, total)) < 0 ||
            (rc = hub__ev_set_paused_at(c->e, q->round, q->table, -1)) < 0)
            return fail(c, rc, "out of memory");
        snprintf(c->rep->message, sizeof(c->rep->message),
                 "table %d runs again; its extension is now %s", (int)q->table,
                 span(total, a, sizeof a));
    }
    HUB_LOG(HUB_LOG_INFO, "table %s event=%s round=%d table=%d",
            pause ? "paused" : "resumed", c->e->id, (int)q->round,
            (int)q->table);
    c->rep->round = q->round;
    c->e->feed_dirty = true;
    c->e->clock_expired_seen = false;
    if ((rc = hub__publish_clock(c->svc, c->e, c->now, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    return republish_table(c, q->table);
}

static int clock_cmd(struct ctx *c, enum clock_op op)
{
    struct tny_round_clock clock;
    const struct tny_wire_request *q = c->req;
    int rc;

    if ((rc = need_current(c, q->round)) < 0)
        return rc;
    if (q->table != 0 && op == CLOCK_START)
        return fail(c, TNY_EINVAL,
                    "console_request.table: the round clock starts for every "
                    "table (table 0); pause or resume one table, or give it "
                    "extra time, with its number");
    if (q->table != 0 && op != CLOCK_EXTEND)
        return table_pause(c, op == CLOCK_PAUSE);
    if (op == CLOCK_EXTEND && q->table != 0) {
        int64_t total = 0;
        if (!hub__ev_table(c->e, q->table))
            return fail(c, TNY_ENOTFOUND,
                        "console_request.table: round %d has no table %d",
                        (int)q->round, (int)q->table);
        int64_t had = hub__ev_extension(c->e, q->round, q->table);
        if (q->extra_ms < 0 && -q->extra_ms > had)
            return fail(c, TNY_EINVAL,
                        "table %d has %s of extension: %s cannot be taken "
                        "back",
                        (int)q->table, span(had, (char[24]){0}, 24),
                        span(-q->extra_ms, (char[24]){0}, 24));
        /* CM-7's bound on a table's extensions (issue 18 item 4: decided
         * here, on the model, in the words the store used). */
        if (q->extra_ms > 0 && had > TNY_CLOCK_MAX_MS - q->extra_ms)
            return fail(c, TNY_EINVAL,
                        "table %d: total extension would exceed %lld ms",
                        (int)q->table, (long long)TNY_CLOCK_MAX_MS);
        if ((rc = hub_store_extend_table(c->svc->store, c->e->id, q->round,
                                         q->table, q->extra_ms, c->actor,
                                         &total, &c->diag)) < 0)
            return fail_diag(c, rc);
        c->touched = true;
        if ((rc = hub__ev_set_extension(c->e, q->round, q->table, total)) < 0)
            return fail(c, rc, "out of memory");
        HUB_LOG(HUB_LOG_INFO,
                "table extended event=%s round=%d table=%d extra_ms=%lld "
                "total_ms=%lld",
                c->e->id, (int)q->round, (int)q->table, (long long)q->extra_ms,
                (long long)total);
        c->e->feed_dirty = true;
        c->e->clock_expired_seen = false;
        return hub__publish_clock(c->svc, c->e, c->now, c->ob, &c->diag) < 0
                   ? fail_diag(c, TNY_ESTATE)
                   : TNY_OK;
    }
    if ((rc = hub__round_clock(c->svc, c->e, &clock, &c->diag)) < 0)
        return fail_diag(c, rc);
    switch (op) {
    case CLOCK_START:
        rc = tny_round_clock_start(&clock, c->now, &c->diag);
        break;
    case CLOCK_PAUSE:
        rc = tny_round_clock_pause(&clock, c->now, &c->diag);
        break;
    case CLOCK_RESUME:
        rc = tny_round_clock_resume(&clock, c->now, &c->diag);
        break;
    case CLOCK_EXTEND:
        if (q->extra_ms > 0) {
            rc = tny_round_clock_extend(&clock, q->extra_ms, &c->diag);
            break;
        }
        /* Issue 22: a mistaken extension taken back, never into the
         * round's own time. */
        if (-q->extra_ms > clock.extension_ms)
            return fail(c, TNY_EINVAL,
                        "round %d has %s of extension: %s cannot be taken "
                        "back",
                        (int)q->round,
                        span(clock.extension_ms, (char[24]){0}, 24),
                        span(-q->extra_ms, (char[24]){0}, 24));
        if (clock.state == TNY_ROUND_CLOCK_RUNNING)
            clock.deadline_ms += q->extra_ms;
        else
            clock.remaining_ms += q->extra_ms;
        clock.extension_ms += q->extra_ms;
        break;
    }
    if (rc < 0)
        return fail_diag(c, rc);
    if (op == CLOCK_START && c->e->round.status == HUB_ROUND_PUBLISHED) {
        if ((rc = hub_store_set_round_status(c->svc->store, c->e->id, q->round,
                                             HUB_ROUND_STARTED, c->actor,
                                             &c->diag)) < 0)
            return fail_diag(c, rc);
        c->touched = true;
        c->e->round.status = HUB_ROUND_STARTED;
    }
    c->touched = true; /* the clock is cached once saved */
    if ((rc = hub__save_clock(c->svc, c->e, &clock, c->actor, &c->diag)) < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "clock %s event=%s round=%d",
            tny_wire_cmd_name(q->cmd), c->e->id, (int)q->round);
    c->rep->round = q->round;
    if ((rc = hub__publish_clock(c->svc, c->e, c->now, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    return TNY_OK;
}

static int cmd_clock_start(struct ctx *c)
{
    return clock_cmd(c, CLOCK_START);
}

/* AG-14 by hand: a table without a working device (or whose players
 * forgot the key) starts its own clock when the organiser says its draft
 * began. */
static int cmd_clock_draft(struct ctx *c)
{
    int rc;
    if ((rc = need_current(c, c->req->round)) < 0)
        return rc;
    int64_t had = hub__ev_start_delay(c->e, c->req->round, c->req->table);
    rc = hub__draft_start(c->svc, c->e, c->req->round, c->req->table, c->actor,
                          c->now, c->ob, &c->diag);
    /* hub__draft_start checks first; the model changed once it wrote. */
    c->touched = hub__ev_start_delay(c->e, c->req->round, c->req->table) != had;
    if (rc < 0)
        return fail_diag(c, rc);
    c->rep->round = c->req->round;
    return TNY_OK;
}
static int cmd_clock_pause(struct ctx *c)
{
    return clock_cmd(c, CLOCK_PAUSE);
}
static int cmd_clock_resume(struct ctx *c)
{
    return clock_cmd(c, CLOCK_RESUME);
}
static int cmd_clock_extend(struct ctx *c)
{
    return clock_cmd(c, CLOCK_EXTEND);
}

/* ---- results by the organiser ----------------------------------------------
 */

static const struct tny_table *round_table(const struct hub_ev *e,
                                           int32_t round, int32_t number)
{
    if (round < 1 || round > e->ev.n_rounds)
        return NULL;
    const struct tny_round *r = &e->ev.rounds[round - 1];
    for (int32_t t = 0; t < r->n_tables; t++)
        if (!r->tables[t].is_bye && r->tables[t].number == number)
            return &r->tables[t];
    return NULL;
}

static int republish_table(struct ctx *c, int32_t table);
static const char *who(const struct tny_event *ev, int32_t p, char *buf,
                       size_t cap);

/* The time the table has left on the round clock at c->now (its
 * extension included); false when the round has no clock to read (not
 * the current round, no time limit, the clock never started). */
static bool table_time_left(struct ctx *c, int32_t round, int32_t table,
                            int64_t *left_ms)
{
    struct tny_round_clock clock;
    struct tny_clock_msg m;
    struct tny_diag ignored = {{0}};
    if (round != c->e->ev.n_rounds ||
        hub__round_clock(c->svc, c->e, &clock, &ignored) < 0)
        return false;
    hub__table_clock(c->e, &clock, round, table, c->now, &m);
    if (m.unlimited || m.state == TNY_ROUND_CLOCK_READY)
        return false; /* no time limit, or the hub's clock not in use */
    *left_ms = m.state == TNY_ROUND_CLOCK_RUNNING ? m.deadline_ms - c->now
                                                  : m.remaining_ms;
    return true;
}

/* Issue 22 item 7: an organiser's result that contradicts itself is
 * refused with what is wrong: a winner whose score is lower than another
 * player's; a GT-13 modified win (a time-out procedure) at a table whose
 * round clock still has time left. */
static int result_contradiction(struct ctx *c, int32_t round,
                                const struct tny_table *t)
{
    const struct tny_result *r = &t->result;
    const struct tny_event *ev = &c->e->ev;
    char x[2 * TNY_WIRE_TEXT_MAX], y[2 * TNY_WIRE_TEXT_MAX];
    int64_t left = 0;
    if (r->winner >= 0 && r->winner < t->n_seats && r->has_score)
        for (int32_t s = 0; s < t->n_seats; s++)
            if (s != r->winner && r->score[s] > r->score[r->winner])
                return fail(c, TNY_EINVAL,
                            "console_request.result: the winner %s scored %d, "
                            "less than %s's %d: give the higher score to the "
                            "winner, or name the other winner",
                            who(ev, t->seats[r->winner], x, sizeof x),
                            (int)r->score[r->winner],
                            who(ev, t->seats[s], y, sizeof y),
                            (int)r->score[s]);
    if (r->modified && table_time_left(c, round, t->number, &left) && left > 0)
        return fail(c, TNY_EINVAL,
                    "console_request.result: a modified win (GT-13) is the "
                    "time-out procedure, but table %d still has %lld:%02lld "
                    "on the round clock: enter the win without \"modified\", "
                    "or wait for the time-out",
                    (int)t->number, (long long)(left / 60000),
                    (long long)(left / 1000 % 60));
    return TNY_OK;
}

/* Issue 17: after the store committed a new counted result of table t
 * (of the model) in round `round`: the result in the model, as the
 * projection reads it (the table's TX-7 penalties merged, its open
 * conflicts resolved: facts, read before the write). */
static void count_in_model(struct ctx *c, int32_t round,
                           const struct tny_table *t,
                           const struct tny_result *result,
                           const struct hub_table_facts *facts)
{
    c->touched = true;
    struct tny_table *mt = (struct tny_table *)t;
    bool had = mt->has_result;
    mt->result = *result;
    memcpy(mt->result.penalty, facts->penalty, sizeof(facts->penalty));
    mt->has_result = true;
    hub__ev_round_changed(c->e, round);
    if (round == c->e->round.number) {
        c->e->round.n_results += !had;
        c->e->round.n_conflicts -= facts->open_conflicts;
    }
    c->e->feed_dirty = true;
}

static int cmd_enter_result(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    const struct tny_table *t = round_table(c->e, q->round, q->table);
    struct tny_table mapped;
    int rc;

    if (!t)
        return fail(c, TNY_ENOTFOUND,
                    "console_request.table: round %d has no table %d",
                    (int)q->round, (int)q->table);
    if (t->has_result && !q->override)
        return fail(c, TNY_ECONFLICT,
                    "table %d of round %d already has a confirmed result: "
                    "set override to replace it (CM-6)",
                    (int)q->table, (int)q->round);
    /* Issue 22: the hub knows the event's game; a console that guessed
     * another one from the result's keys (a two-player {"winner": ...}
     * reads like a GoT result) needs no --game: the result's fields are
     * read as the event's game. */
    struct tny_wire_result res = q->result;
    res.game = c->e->ev.format.game;
    if ((rc = tny_wire_result_to_table(
             &c->e->ev, c->e->ev.rounds[q->round - 1].stage, t, &res,
             "console_request.result", &mapped, &c->diag)) < 0)
        return fail_diag(c, rc);
    if ((rc = result_contradiction(c, q->round, &mapped)) < 0)
        return rc;
    char why[512];
    if ((rc = hub__armies_check(c->e, q->round, &mapped, why, sizeof(why))) < 0)
        return rc == TNY_EINVAL ? fail(c, rc, "%s", why) : rc;
    memset(mapped.result.penalty, 0, sizeof(mapped.result.penalty));
    int64_t id = 0;
    struct hub_table_facts facts;
    if ((rc = hub_store_table_facts(c->svc->store, c->e->id, q->round, q->table,
                                    &c->e->ev, t, &facts, &c->diag)) < 0)
        return fail_diag(c, rc);
    rc = hub_store_enter_result(c->svc->store, c->e->id, q->round, q->table,
                                &c->e->ev, &mapped, c->actor, &id, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    count_in_model(c, q->round, t, &mapped.result, &facts);
    HUB_LOG(HUB_LOG_INFO, "result entered event=%s round=%d table=%d%s%s%s",
            c->e->id, (int)q->round, (int)q->table,
            q->override ? " override" : "", q->reason[0] ? " reason=" : "",
            q->reason);
    if (q->round == c->e->ev.n_rounds) {
        struct hub_table_state *ts = hub__ev_table_state(c->e, q->table);
        if (ts)
            ts->pending = ts->conflict = false;
    }
    c->rep->round = q->round;
    c->rep->count = (uint64_t)id;
    /* The table shows the organiser's result (published rounds). */
    return q->round == c->e->ev.n_rounds ? republish_table(c, q->table)
                                         : TNY_OK;
}

/* TX-7: the penalty's every rule decided here, on the model, before the
 * store is called (issue 18 item 4; issue 17: refused, nothing was
 * begun): the reason, the units' range, the round and its table, the
 * player, a counted result to penalise, the player at that table, and
 * the table's result with the penalty added valid for the game (the
 * engine's words, as the whole event's check says them).  The store then
 * only writes the rows. */
static int check_penalty(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    const struct tny_event *ev = &c->e->ev;
    const int64_t max = (int64_t)1000 * TNY_POINT_SCALE;
    if (q->points_units <= 0 || q->points_units > max)
        return fail(c, TNY_EINVAL, "penalty: %lld units: expected 1..%lld",
                    (long long)q->points_units, (long long)max);
    if (strlen(q->reason) > TNY_NOTE_MAX)
        return fail(c, TNY_EINVAL,
                    "penalty: a reason of 1..%d bytes is required "
                    "(TX-7: audited)",
                    TNY_NOTE_MAX);
    int32_t draft = draft_number(c);
    bool in_draft = false;
    const struct tny_table *t = round_table(c->e, q->round, q->table);
    if (q->round < 1 || (q->round > ev->n_rounds && q->round != draft))
        return fail(c, TNY_ENOTFOUND, "event \"%s\": no round %d", c->e->id,
                    (int)q->round);
    if (q->round == draft && draft > ev->n_rounds) {
        const struct tny_round_plan *plan = NULL;
        int rc = hub__ev_draft(c->svc, c->e, &plan, &c->diag);
        if (rc < 0)
            return fail_diag(c, rc);
        for (int32_t i = 0; plan && i < plan->n_tables; i++)
            in_draft |=
                !plan->tables[i].is_bye && plan->tables[i].number == q->table;
    }
    if (!t && !in_draft)
        return fail(c, TNY_ENOTFOUND, "event \"%s\": round %d has no table %d",
                    c->e->id, (int)q->round, (int)q->table);
    int32_t p = -1;
    if (q->player_id[0]) {
        if (!model_player(c, q->player_id))
            return c->rep->rc;
        p = tny_event_player_index(ev, q->player_id);
    }
    if (!t || !t->has_result)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d table %d has no result to "
                    "penalise yet",
                    c->e->id, (int)q->round, (int)q->table);
    struct tny_table with = *t;
    bool seated = p < 0;
    for (int32_t k = 0; k < with.n_seats; k++)
        if (p < 0 || with.seats[k] == p) {
            with.result.penalty[k] += q->points_units;
            seated = true;
        }
    if (!seated)
        return fail(c, TNY_ENOTFOUND,
                    "event \"%s\": player \"%s\" is not at round %d table %d",
                    c->e->id, q->player_id, (int)q->round, (int)q->table);
    const struct tny_round *r = &ev->rounds[q->round - 1];
    char path[96];
    snprintf(path, sizeof(path), "event.rounds[%d].tables[%d].result",
             (int)(q->round - 1), (int)(t - r->tables));
    if (!tny_result_has_key(ev->format.game, TNY_RK_PENALTY)) {
        /* TX-7 is Tantrix's: a game without the key, in the words of the
         * event file's check of its result keys. */
        const enum tny_result_key *keys;
        int32_t n = tny_result_keys(ev->format.game, &keys);
        const char *names[TNY_RK_ALL];
        char list[384];
        for (int32_t i = 0; i < n && i < TNY_RK_ALL; i++)
            names[i] = tny_result_key_name(keys[i]);
        return fail(c, TNY_EINVAL,
                    "%s.penalty: unknown key (expected one of: %s) in a "
                    "\"%s\" result",
                    path,
                    tny_key_list(list, sizeof(list), names,
                                 n < TNY_RK_ALL ? (size_t)n : TNY_RK_ALL),
                    tny_game_name(ev->format.game));
    }
    int rc = tny_result_validate(ev, r->stage, &with, path, &c->diag);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

static int cmd_penalty(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    if (!q->reason[0])
        return fail(c, TNY_EINVAL,
                    "console_request.reason: a penalty needs "
                    "a reason (TX-7)");
    int rc = check_penalty(c);
    if (rc < 0)
        return rc;
    rc = hub_store_add_penalty(c->svc->store, c->e->id, q->round, q->table,
                               q->player_id[0] ? q->player_id : NULL,
                               q->points_units, q->reason, c->actor, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO,
            "penalty event=%s round=%d table=%d player=%s units=%lld", c->e->id,
            (int)q->round, (int)q->table, q->player_id,
            (long long)q->points_units);
    /* Issue 17: in place; the projection merges penalties into a counted
     * result only (a later result brings them, hub_store_table_facts). */
    c->touched = true;
    struct tny_table *t =
        (struct tny_table *)round_table(c->e, q->round, q->table);
    for (int32_t k = 0; t && t->has_result && k < t->n_seats; k++)
        if (!q->player_id[0] ||
            strcmp(c->e->ev.players[t->seats[k]].id, q->player_id) == 0)
            t->result.penalty[k] += q->points_units;
    hub__ev_round_changed(c->e, q->round);
    c->e->feed_dirty = true;
    return TNY_OK;
}

/* ---- devices ---------------------------------------------------------------
 */

static const char *presence_name(int state)
{
    switch (state) {
    case TNY_WIRE_PRESENCE_ONLINE: return "online";
    case TNY_WIRE_PRESENCE_OFFLINE: return "offline";
    case TNY_WIRE_PRESENCE_ERROR: return "error";
    default: return "unknown";
    }
}

static int cmd_list_devices(struct ctx *c)
{
    json_t *arr = json_array();
    const char *filter = c->req->event_id;
    uint64_t n = 0;
    for (int32_t i = 0; arr && i < c->svc->n_devices; i++) {
        const struct hub_device *d = &c->svc->devices[i];
        if (filter[0] && strcmp(d->event, filter) != 0)
            continue;
        json_t *o = json_pack(
            "{s:s, s:s?, s:i, s:s, s:i, s:I, s:I, s:s, s:I, s:s}", "id", d->id,
            "event", d->event[0] ? d->event : NULL, "table", (int)d->table,
            "presence", presence_name(d->state), "queued", (int)d->queued,
            "assignment_version", (json_int_t)d->version, "shows_version",
            (json_int_t)d->shown_version, "software", d->software,
            "last_seen_ms", (json_int_t)d->last_seen_ms, "detail", d->detail);
        if (o && d->version && d->shown_version &&
            d->shown_version < d->version)
            json_object_set_new(o, "stale", json_true());
        json_array_append_new(arr, o);
        n++;
    }
    c->rep->count = n;
    return reply_records(c, arr);
}

static int cmd_assign_device(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    struct hub_device *d = hub__device_find(c->svc, q->device_id);
    int rc;
    if (q->table < 0)
        return fail(c, TNY_EINVAL, "console_request.table: expected >= 0");
    if (!d && !hub__device_login(c->svc, q->device_id))
        return fail(c, TNY_ENOTFOUND,
                    "console_request.device_id: \"%s\" is not a table "
                    "device login (%s + digits)",
                    q->device_id, c->svc->prefix);
    /* Issue 17: one device a table, checked on the service's devices
     * before any write; then the writes (a new login registered, the
     * assignment), then the devices in memory. */
    for (int32_t i = 0; q->table && i < c->svc->n_devices; i++) {
        const struct hub_device *o = &c->svc->devices[i];
        if (o != d && o->table == q->table && !strcmp(o->event, c->e->id))
            return fail(c, TNY_ECONFLICT,
                        "event \"%s\": table %d already has device \"%s\"",
                        c->e->id, (int)q->table, o->id);
    }
    if (!d && (rc = hub_store_device_register(c->svc->store, q->device_id,
                                              c->actor, &c->diag)) < 0)
        return fail_diag(c, rc);
    rc = hub_store_device_assign(c->svc->store, q->device_id,
                                 q->table ? c->e->id : NULL, q->table, c->actor,
                                 &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    c->touched = true;
    if (!d) {
        if ((rc = hub__device_insert(c->svc, q->device_id, &d)) < 0)
            return fail(c, rc, "out of memory");
        HUB_LOG(HUB_LOG_INFO, "device registered device=%s", d->id);
        if ((rc = hub__device_refresh(c->svc, d, &c->diag)) < 0)
            return fail_diag(c, rc);
    } else {
        snprintf(d->event, sizeof(d->event), "%s", q->table ? c->e->id : "");
        d->table = q->table;
    }
    HUB_LOG(HUB_LOG_INFO, "device assigned device=%s event=%s table=%d", d->id,
            c->e->id, (int)q->table);
    c->e->feed_dirty = true;
    if ((rc = hub__publish_device(c->svc, d, c->now, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    return TNY_OK;
}

/* The device's screen flashes its id and table for 10 s: a non-retained
 * message on device/{dev}/identify whose payload is the table number in
 * decimal ASCII ("0" = not assigned).  Only a device that has connected
 * to this hub can be identified: another id is a typo. */
static int cmd_identify_device(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    const struct hub_device *d = hub__device_find(c->svc, q->device_id);
    char topic[TNY_WIRE_TOPIC_MAX], text[8];
    int rc;
    if (!d)
        return fail(c, TNY_ENOTFOUND,
                    "console_request.device_id: no device \"%s\" has "
                    "connected to this hub (see `tourney live device list`)",
                    q->device_id);
    size_t n = tny_wire_encode_identify(d->table, text);
    uint8_t *buf = malloc(n);
    if (!buf)
        return fail(c, TNY_ENOMEM, "out of memory");
    memcpy(buf, text, n);
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_IDENTIFY, d->id, topic,
                             sizeof(topic), &c->diag)) < 0) {
        free(buf);
        return fail_diag(c, rc);
    }
    if ((rc = hub_outbox_add(c->ob, topic, buf, n, false)) < 0)
        return fail(c, rc, "out of memory");
    HUB_LOG(HUB_LOG_INFO, "device identify device=%s table=%d", d->id,
            (int)d->table);
    if (d->table)
        snprintf(c->rep->message, sizeof(c->rep->message),
                 "%s (table %d, %s) flashes its id for 10 s", d->id,
                 (int)d->table, presence_name(d->state));
    else
        snprintf(c->rep->message, sizeof(c->rep->message),
                 "%s (not assigned, %s) flashes its id for 10 s", d->id,
                 presence_name(d->state));
    return TNY_OK;
}

/* ---- corrections (discard, unpublish, reopen, edit, conflicts, log) ------
 *
 * Every command here is audited: the store writes its log row with the
 * organiser (actor), the time and the request's reason (hub__console_run
 * sets it).  CM-5: what is at the tables is never changed silently.
 */

/* The draft's round number, 0 = none (the draft is the stored round
 * past the projection's rounds). */
static int32_t draft_number(const struct ctx *c)
{
    return c->e->info.n_rounds > c->e->ev.n_rounds ? c->e->info.n_rounds : 0;
}

/* The device at table `table` of the event gets its assignment again
 * (it shows a result the organiser entered); no device: nothing. */
static int republish_table(struct ctx *c, int32_t table)
{
    for (int32_t i = 0; i < c->svc->n_devices; i++) {
        struct hub_device *d = &c->svc->devices[i];
        int rc;
        if (d->table != table || strcmp(d->event, c->e->id) != 0)
            continue;
        if ((rc = hub__publish_device(c->svc, d, c->now, c->ob, &c->diag)) < 0)
            return fail_diag(c, rc);
    }
    return TNY_OK;
}

/* After a round changed status: the tables' assignments and the clock
 * again (an event with no published round clears its retained clock). */
static int republish_round(struct ctx *c)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    int rc;
    /* Rebuild the table states (-1: 0 is a round number here, an
     * unpublished round 1 left round 1's states). */
    c->e->state_round = -1;
    c->e->clock_round = 0;
    c->e->clock_expired_seen = false;
    if ((rc = hub__publish_event_devices(c->svc, c->e, c->now, c->ob,
                                         &c->diag)) < 0)
        return fail_diag(c, rc);
    if (c->e->ev.n_rounds > 0) {
        if ((rc = hub__publish_clock(c->svc, c->e, c->now, c->ob, &c->diag)) <
            0)
            return fail_diag(c, rc);
        return TNY_OK;
    }
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CLOCK, c->e->id, topic,
                             sizeof(topic), &c->diag)) < 0 ||
        (rc = hub_outbox_add(c->ob, topic, NULL, 0, true)) < 0)
        return fail_diag(c, rc);
    return TNY_OK;
}

static int cmd_discard_draft(struct ctx *c)
{
    int32_t draft = draft_number(c), round = c->req->round;
    if (!draft)
        return fail(c, TNY_ENOTFOUND, "event \"%s\" has no draft to discard",
                    c->e->id);
    if (round && round != draft)
        return fail(c, TNY_EINVAL,
                    "console_request.round: round %d is not the draft (the "
                    "draft is round %d)",
                    (int)round, (int)draft);
    int rc = hub_store_discard_draft(c->svc->store, c->e->id, draft, c->actor,
                                     &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "draft discarded event=%s round=%d", c->e->id,
            (int)draft);
    c->rep->round = draft;
    /* Issue 17: in place, the model has no draft now. */
    c->touched = true;
    hub__ev_draft_drop(c->e);
    c->e->draft_cached = true;
    c->e->info.n_rounds = draft - 1;
    c->e->feed_dirty = true;
    return TNY_OK;
}

/* Issue 18: round r's status from the model (an earlier round is closed:
 * the next is paired only then, and reopened only without a later one);
 * false: the event has no round r. */
static bool model_round_status(const struct ctx *c, int32_t r,
                               enum hub_round_status *status)
{
    if (r >= 1 && r < c->e->ev.n_rounds)
        *status = HUB_ROUND_CLOSED;
    else if (r >= 1 && r == c->e->ev.n_rounds)
        *status = c->e->round.status;
    else if (r >= 1 && r == draft_number(c))
        *status = HUB_ROUND_DRAFT;
    else
        return false;
    return true;
}

/* The model's current round after its last round changed status: the
 * round row read back typed (number 0: none). */
static int current_round_info(struct ctx *c)
{
    int rc;
    memset(&c->e->round, 0, sizeof(c->e->round));
    if (c->e->ev.n_rounds > 0 &&
        (rc = hub_store_get_round(c->svc->store, c->e->id, c->e->ev.n_rounds,
                                  &c->e->round, &c->diag)) < 0)
        return fail_diag(c, rc);
    return TNY_OK;
}

/* CM-5: a published round whose clock never started goes back to a
 * draft.  The rule is decided here (issue 18): on the model's round
 * status, and on the store's answer whether a table has a result or a
 * penalty; then written; then the model's last round becomes the draft
 * (read back typed from the draft's rows when next needed). */
static int cmd_unpublish_round(struct ctx *c)
{
    int32_t round = c->req->round, table = 0;
    enum hub_round_status status;
    char who[96];
    int rc;
    if (!model_round_status(c, round, &status))
        return fail(c, TNY_ENOTFOUND, "event \"%s\": no round %d", c->e->id,
                    (int)round);
    if (status != HUB_ROUND_PUBLISHED)
        return fail(
            c, TNY_ESTATE,
            status == HUB_ROUND_DRAFT
                ? "event \"%s\": round %d is a draft, not published (discard "
                  "it instead)"
            : status == HUB_ROUND_STARTED
                ? "event \"%s\": round %d has started (its clock ran): "
                  "players may be playing, it cannot be unpublished; correct "
                  "single tables with swap/result instead"
                : "event \"%s\": round %d is closed: reopen it to correct "
                  "results; a played round cannot be unpublished",
            c->e->id, (int)round);
    /* A result or penalty already stored belongs to a round being played:
     * unpublishing would throw it away. */
    if ((rc = hub_store_round_entry(c->svc->store, c->e->id, round, &table, who,
                                    sizeof(who), &c->diag)) < 0)
        return fail_diag(c, rc);
    if (table)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d cannot be unpublished: table %d "
                    "already has a result from %s",
                    c->e->id, (int)round, (int)table, who);
    if ((rc = hub_store_unpublish_round(c->svc->store, c->e->id, round,
                                        c->actor, &c->diag)) < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "round unpublished event=%s round=%d", c->e->id,
            (int)round);
    /* Issue 17: in place. */
    c->touched = true;
    struct tny_event *ev = &c->e->ev;
    for (int32_t i = 0; i < c->e->n_ext; i++)
        if (c->e->ext[i].round == round)
            c->e->ext[i].total_ms = 0;
    free(ev->rounds[ev->n_rounds - 1].tables);
    ev->n_rounds--;
    hub__ev_draft_drop(c->e); /* the round's rows are the draft now */
    if (ev->n_rounds == 0)
        c->e->info.status = HUB_EVENT_SETUP;
    c->e->feed_dirty = true;
    if ((rc = current_round_info(c)) < 0 || (rc = republish_round(c)) < 0)
        return rc;
    return draft_reply(c, round);
}

/* A closed round is reopened to correct it; CM-5 decided here (issue 18):
 * the round is closed and no round but the draft follows it (those
 * pairings are at the tables); the draft goes with it. */
static int cmd_reopen_round(struct ctx *c)
{
    int32_t round = c->req->round, discarded = 0;
    enum hub_round_status status;
    int rc;
    if (!model_round_status(c, round, &status))
        return fail(c, TNY_ENOTFOUND, "event \"%s\": no round %d", c->e->id,
                    (int)round);
    if (status == HUB_ROUND_CLOSED && round < c->e->ev.n_rounds) {
        char later[256];
        size_t used = 0;
        int32_t n = c->e->ev.n_rounds - round;
        later[0] = '\0';
        for (int32_t r = round + 1; r <= c->e->ev.n_rounds; r++) {
            enum hub_round_status st = HUB_ROUND_CLOSED;
            (void)model_round_status(c, r, &st);
            int k = snprintf(later + used, sizeof(later) - used,
                             "%sround %d (%s)", r > round + 1 ? ", " : "",
                             (int)r, round_status_name(st));
            used += k > 0 ? (size_t)k : 0;
            if (used >= sizeof(later))
                break;
        }
        /* CM-5: those pairings came from this round's standings and are
         * at the tables; they are never changed behind the organiser's
         * back. */
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d cannot be reopened: %s %s paired "
                    "from its standings and %s never changed silently "
                    "(CM-5); correct a result of round %d with `result enter "
                    "--override` (standings follow, the later pairings "
                    "stay), or unpublish the later round first if it has not "
                    "started",
                    c->e->id, (int)round, later, n == 1 ? "was" : "were",
                    n == 1 ? "is" : "are", (int)round);
    }
    if (status != HUB_ROUND_CLOSED)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round %d is %s, not closed: its results "
                    "can be entered and corrected as it is",
                    c->e->id, (int)round, round_status_name(status));
    if ((rc = hub_store_reopen_round(c->svc->store, c->e->id, round, c->actor,
                                     &discarded, &c->diag)) < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "round reopened event=%s round=%d discarded_draft=%d",
            c->e->id, (int)round, (int)discarded);
    /* Issue 17: in place. */
    c->touched = true;
    if (discarded) {
        hub__ev_draft_drop(c->e);
        c->e->draft_cached = true; /* known: no draft */
        c->e->info.n_rounds = c->e->ev.n_rounds;
    }
    c->e->round.status = HUB_ROUND_STARTED;
    if (c->e->info.status == HUB_EVENT_FINISHED)
        c->e->info.status = HUB_EVENT_RUNNING;
    c->e->feed_dirty = true;
    if ((rc = republish_round(c)) < 0)
        return rc;
    c->rep->round = round;
    return reply_records(c, json_pack("{s:i, s:s, s:i}", "round", (int)round,
                                      "status",
                                      round_status_name(c->e->round.status),
                                      "discarded_draft", (int)discarded));
}

/* Issue 17 item 1: the event with the player's new texts validates,
 * checked on the model (the texts set in place for the check, then put
 * back) before the store writes them; refused: the engine's words. */
static int check_edit_player(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    /* Issue 18 item 4: what the store used to refuse, in its words. */
    if (q->player.name[0] == '\0' && !q->set_club && !q->set_country)
        return fail(c, TNY_EINVAL, "player \"%s\": nothing to change",
                    q->player_id);
    struct tny_player *pl = model_player(c, q->player_id), was;
    if (!pl)
        return c->rep->rc;
    was = *pl;
    if (q->player.name[0])
        pl->name = (char *)q->player.name;
    if (q->set_club)
        pl->club = q->player.club[0] ? (char *)q->player.club : NULL;
    if (q->set_country)
        pl->country = q->player.country[0] ? (char *)q->player.country : NULL;
    int rc = tny_event_validate(&c->e->ev, &c->diag);
    *pl = was;
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

static int cmd_edit_player(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    int rc = check_edit_player(c);
    if (rc < 0)
        return rc;
    rc = hub_store_edit_player(c->svc->store, c->e->id, q->player_id,
                               q->player.name[0] ? q->player.name : NULL,
                               q->set_club ? q->player.club : NULL,
                               q->set_country ? q->player.country : NULL,
                               c->actor, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "player edited event=%s player=%s", c->e->id,
            q->player_id);
    /* Issue 17: the player's texts in the model, as the store keeps them
     * (an empty club or country is none); copied first, so that running
     * out of memory leaves the model as it was. */
    c->touched = true;
    int32_t ix = tny_event_player_index(&c->e->ev, q->player_id);
    if (ix < 0)
        return fail(c, TNY_ESTATE, "player \"%s\" is not in the model",
                    q->player_id);
    const char *set[3] = {q->player.name[0] ? q->player.name : NULL,
                          q->set_club ? q->player.club : NULL,
                          q->set_country ? q->player.country : NULL};
    char *dup[3] = {NULL, NULL, NULL};
    bool oom = false;
    for (int k = 0; k < 3; k++)
        if (set[k] && set[k][0] && !(dup[k] = strdup(set[k])))
            oom = true;
    if (oom) {
        for (int k = 0; k < 3; k++)
            free(dup[k]);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    struct tny_player *pl = &c->e->ev.players[ix];
    char **field[3] = {&pl->name, &pl->club, &pl->country};
    for (int k = 0; k < 3; k++)
        if (set[k]) {
            free(*field[k]);
            *field[k] = dup[k];
        }
    c->e->feed_dirty = true;
    /* The tables show the new name now (the feed follows: dirty). */
    if ((rc = hub__publish_event_devices(c->svc, c->e, c->now, c->ob,
                                         &c->diag)) < 0)
        return fail_diag(c, rc);
    int32_t i = tny_event_player_index(&c->e->ev, q->player_id);
    const struct tny_player *p = i >= 0 ? &c->e->ev.players[i] : NULL;
    return reply_records(c, json_pack("{s:s, s:s?, s:s?, s:s?}", "player",
                                      q->player_id, "name", p ? p->name : NULL,
                                      "club", p ? p->club : NULL, "country",
                                      p ? p->country : NULL));
}

static const char *result_status_name(const struct hub_result_row *r)
{
    if (r->superseded_by)
        return "superseded";
    switch (r->status) {
    case HUB_RESULT_VALID: return "counted";
    case HUB_RESULT_PENDING: return "pending";
    case HUB_RESULT_CONFLICT:
        return r->resolved ? "conflict-resolved" : "conflict";
    }
    return "?";
}

static int cmd_show_results(struct ctx *c)
{
    struct hub_result_row *rows = NULL;
    int32_t n = 0;
    int rc = hub_store_list_results(c->svc->store, c->e->id, c->req->round,
                                    c->req->table, &rows, &n, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    json_t *arr = json_array();
    uint64_t open = 0;
    for (int32_t i = 0; arr && i < n; i++) {
        const struct hub_result_row *r = &rows[i];
        json_t *result = json_loads(r->result_json, 0, NULL);
        open += r->status == HUB_RESULT_CONFLICT && !r->resolved;
        json_array_append_new(
            arr, json_pack("{s:I, s:i, s:s, s:s, s:s, s:I, s:o}", "id",
                           (json_int_t)r->id, "table", (int)r->table, "status",
                           result_status_name(r), "by", r->actor, "source",
                           r->from_device ? "table" : "organiser", "time_ms",
                           (json_int_t)r->created_ms, "result",
                           result ? result : json_null()));
    }
    hub_result_rows_free(rows, n);
    c->rep->round = c->req->round;
    c->rep->count = open; /* open conflicts */
    return reply_records(c, json_pack("{s:i, s:o}", "round", (int)c->req->round,
                                      "results", arr));
}

/* CM-6: keep one submission of a table with an open conflict: the counted
 * one (the conflicts are resolved) or a conflicting one (it becomes the
 * counted result, entered by the organiser). */
static int cmd_resolve_conflict(struct ctx *c)
{
    const struct tny_wire_request *q = c->req;
    struct hub_result_row *rows = NULL, *keep = NULL;
    int32_t n = 0, open = 0, resolved = 0;
    int64_t id = 0;
    bool kept_counted = false;
    const struct tny_table *t = NULL;
    struct tny_result kept;
    struct hub_table_facts facts;
    int rc = hub_store_list_results(c->svc->store, c->e->id, q->round, q->table,
                                    &rows, &n, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    for (int32_t i = 0; i < n; i++) {
        open += rows[i].status == HUB_RESULT_CONFLICT && !rows[i].resolved;
        if (rows[i].id == q->result_id)
            keep = &rows[i];
    }
    if (!open)
        rc = fail(c, TNY_ESTATE,
                  "table %d of round %d has no conflict to resolve",
                  (int)q->table, (int)q->round);
    else if (!keep || keep->superseded_by ||
             keep->status == HUB_RESULT_PENDING ||
             (keep->status == HUB_RESULT_CONFLICT && keep->resolved))
        rc = fail(c, TNY_ENOTFOUND,
                  "console_request.keep: %lld is not the counted result or an "
                  "open conflict of table %d, round %d (see `result show`)",
                  (long long)q->result_id, (int)q->table, (int)q->round);
    else if ((kept_counted = keep->status == HUB_RESULT_VALID))
        rc = hub_store_keep_counted(c->svc->store, c->e->id, q->round, q->table,
                                    keep->id, c->actor, &resolved, &c->diag);
    else if (!(t = round_table(c->e, q->round, q->table)))
        rc = fail(c, TNY_ENOTFOUND,
                  "console_request.table: round %d has no table %d",
                  (int)q->round, (int)q->table);
    else {
        /* Issue 17: the kept conflict's result read typed, and what the
         * entry changes beyond it (the table's penalties, its open
         * conflicts), before the write; the model after it. */
        json_t *obj = json_loads(keep->result_json, 0, NULL);
        rc = obj ? tny_result_from_json(&c->e->ev, t, obj, "result", &kept,
                                        &c->diag)
                 : tny_diag_set(&c->diag, TNY_ESTATE,
                                "store: result %lld: text unreadable",
                                (long long)keep->id);
        json_decref(obj);
        if (rc == 0)
            rc =
                hub_store_table_facts(c->svc->store, c->e->id, q->round,
                                      q->table, &c->e->ev, t, &facts, &c->diag);
        if (rc == 0)
            rc =
                hub_store_enter_row(c->svc->store, c->e->id, q->round, q->table,
                                    keep->id, c->actor, &id, &c->diag);
    }
    hub_result_rows_free(rows, n);
    if (rc < 0)
        return c->rep->rc < 0 ? rc : fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO,
            "conflict resolved event=%s round=%d table=%d kept=%lld", c->e->id,
            (int)q->round, (int)q->table, (long long)q->result_id);
    if (q->round == c->e->ev.n_rounds) {
        struct hub_table_state *ts = hub__ev_table_state(c->e, q->table);
        if (ts)
            ts->pending = ts->conflict = false;
    }
    c->rep->round = q->round;
    c->rep->count = (uint64_t)(id ? id : q->result_id);
    if (kept_counted) {
        /* Issue 17: the counted result stays; its conflicts are resolved
         * (the model's round row counts the open ones). */
        c->touched = true;
        if (q->round == c->e->round.number)
            c->e->round.n_conflicts -= resolved;
        c->e->feed_dirty = true;
    } else { /* a conflict's result counts now */
        memset(kept.penalty, 0, sizeof(kept.penalty));
        count_in_model(c, q->round, t, &kept, &facts);
    }
    return q->round == c->e->ev.n_rounds ? republish_table(c, q->table)
                                         : TNY_OK;
}

/* The audit log of the event, from after_seq on (at most 500 rows; the
 * console pages with the last seq). */
#define LOG_PAGE 500

static int cmd_read_log(struct ctx *c)
{
    struct hub_log_entry *rows = NULL;
    int32_t n = 0;
    int rc = hub_store_read_log(c->svc->store, c->e->id, c->req->after_seq,
                                LOG_PAGE, &rows, &n, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    json_t *arr = json_array();
    for (int32_t i = 0; arr && i < n; i++) {
        json_t *detail = json_loads(rows[i].detail, 0, NULL);
        json_array_append_new(arr, json_pack("{s:I, s:I, s:s, s:s, s:o}", "seq",
                                             (json_int_t)rows[i].seq, "time_ms",
                                             (json_int_t)rows[i].time_ms,
                                             "actor", rows[i].actor, "kind",
                                             rows[i].kind, "detail",
                                             detail ? detail : json_object()));
    }
    hub_log_entries_free(rows, n);
    c->rep->count = (uint64_t)n;
    return reply_records(c, json_pack("{s:o}", "log", arr));
}

/* ---- draft edits that break a rule (refused unless forced) -------------- */

struct rule_note {
    char text[TNY_WIRE_MESSAGE_MAX / 2];
    size_t used;
    int32_t n;
};

static void note(struct rule_note *w, const char *fmt, ...) TNY_PRINTF(2, 3);
static void note(struct rule_note *w, const char *fmt, ...)
{
    va_list ap;
    if (w->used + 4 >= sizeof(w->text)) {
        w->n++;
        return;
    }
    if (w->n > 0)
        w->used += (size_t)snprintf(w->text + w->used,
                                    sizeof(w->text) - w->used, "; ");
    va_start(ap, fmt);
    int k = vsnprintf(w->text + w->used, sizeof(w->text) - w->used, fmt, ap);
    va_end(ap);
    if (k > 0)
        w->used += (size_t)k;
    if (w->used >= sizeof(w->text))
        w->used = sizeof(w->text) - 1;
    w->n++;
}

/* "p3 (Anna Novak)" */
static const char *who(const struct tny_event *ev, int32_t p, char *buf,
                       size_t cap)
{
    snprintf(buf, cap, "%s (%s)", ev->players[p].id, ev->players[p].name);
    return buf;
}

/* The earlier round in which a and b sat at one table, 0 = never. */
static int32_t met_in(const struct tny_event *ev, int32_t a, int32_t b)
{
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
            const struct tny_table *tb = &ev->rounds[r].tables[t];
            bool has_a = false, has_b = false;
            for (int32_t k = 0; !tb->is_bye && k < tb->n_seats; k++) {
                has_a |= tb->seats[k] == a;
                has_b |= tb->seats[k] == b;
            }
            if (has_a && has_b)
                return r + 1;
        }
    return 0;
}

static int32_t bye_in(const struct tny_event *ev, int32_t p)
{
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++)
            if (ev->rounds[r].tables[t].is_bye &&
                ev->rounds[r].tables[t].seats[0] == p)
                return r + 1;
    return 0;
}

/* What the edited plan breaks at the tables of the players in touched[]
 * (n_touched of them): rematches and second byes (where the stage pairs
 * by avoiding them), a changed bracket (elimination and finals are
 * seeded), fixed tables (CM-5). */
static void plan_problems(const struct tny_event *ev,
                          const struct tny_round_plan *plan,
                          const int32_t *touched, int32_t n_touched,
                          bool seats_changed, struct rule_note *w)
{
    char x[2 * TNY_WIRE_TEXT_MAX], y[2 * TNY_WIRE_TEXT_MAX];
    bool seeded =
        plan->stage == TNY_STAGE_ELIMINATION || plan->stage == TNY_STAGE_FINAL;
    if (seats_changed && seeded)
        note(w,
             "round %d is a %s round seeded from the standings: this "
             "changes who meets whom",
             (int)plan->round, tny_stage_kind_name(plan->stage));
    for (int32_t t = 0; t < plan->n_tables; t++) {
        const struct tny_pairing_table *tb = &plan->tables[t];
        bool mine = false;
        for (int32_t k = 0; k < tb->n_seats; k++)
            for (int32_t i = 0; i < n_touched; i++)
                mine |= tb->seats[k] == touched[i];
        if (!mine)
            continue;
        if (tb->is_bye) {
            int32_t r = seats_changed && !seeded ? bye_in(ev, tb->seats[0]) : 0;
            if (r)
                note(w, "%s would get a second bye (had one in round %d)",
                     who(ev, tb->seats[0], x, sizeof x), (int)r);
            continue;
        }
        for (int32_t k = 0; k < tb->n_seats; k++) {
            int32_t p = tb->seats[k];
            int32_t fixed = ev->players[p].fixed_table;
            if (fixed > 0 && fixed != tb->number)
                note(w, "%s always plays at table %d (CM-5), not %d",
                     who(ev, p, x, sizeof x), (int)fixed, (int)tb->number);
            for (int32_t j = k + 1; seats_changed && !seeded && j < tb->n_seats;
                 j++) {
                int32_t r = met_in(ev, p, tb->seats[j]);
                if (r)
                    note(w, "%s and %s already played each other in round %d",
                         who(ev, p, x, sizeof x),
                         who(ev, tb->seats[j], y, sizeof y), (int)r);
            }
        }
    }
}

/* Runs the draft edit on a copy of the draft with the engine and refuses
 * it (ECONFLICT, the problems named) when it breaks a rule, unless the
 * request says force; a forced edit's problems go into the reply's
 * message.  No draft, or an edit the engine refuses: TNY_OK here (the
 * store's own call then gives the error). */
static int check_draft_edit(struct ctx *c, enum edit_kind kind)
{
    const struct tny_wire_request *q = c->req;
    const struct tny_event *ev = &c->e->ev;
    struct tny_round_plan plan;
    struct tny_diag ignored = {{0}};
    struct rule_note w = {{0}, 0, 0};
    int32_t touched[TNY_MAX_SEATS * 2], n_touched = 0;
    if (hub_store_load_draft(c->svc->store, c->e->id, ev, &plan, &ignored) < 0)
        return TNY_OK;
    int rc = TNY_OK;
    if (kind == EDIT_KIND_SWAP) {
        int32_t a = tny_event_player_index(ev, q->player_id);
        int32_t b = tny_event_player_index(ev, q->other_player_id);
        if (a >= 0 && b >= 0 && plan.round == q->round &&
            tny_round_plan_swap(&plan, a, b, &ignored) == 0) {
            /* Everyone now at a table with a or b. */
            for (int32_t t = 0; t < plan.n_tables; t++)
                for (int32_t k = 0; k < plan.tables[t].n_seats; k++)
                    if (plan.tables[t].seats[k] == a ||
                        plan.tables[t].seats[k] == b)
                        for (int32_t m = 0; m < plan.tables[t].n_seats &&
                                            n_touched < TNY_MAX_SEATS * 2;
                             m++)
                            touched[n_touched++] = plan.tables[t].seats[m];
            plan_problems(ev, &plan, touched, n_touched, true, &w);
        }
    } else {
        int32_t from = q->table, to = q->to_table;
        if (kind == EDIT_KIND_FIX) {
            int32_t p = tny_event_player_index(ev, q->player_id);
            from = -1;
            to = q->table;
            for (int32_t t = 0; p >= 0 && t < plan.n_tables; t++)
                for (int32_t k = 0; k < plan.tables[t].n_seats; k++)
                    if (!plan.tables[t].is_bye && plan.tables[t].seats[k] == p)
                        from = plan.tables[t].number;
        }
        if (from > 0 && to > 0 && from != to &&
            (kind == EDIT_KIND_FIX || plan.round == q->round) &&
            tny_round_plan_move(&plan, from, to, &ignored) == 0) {
            /* The two tables that changed numbers. */
            for (int32_t t = 0; t < plan.n_tables; t++)
                if (!plan.tables[t].is_bye && (plan.tables[t].number == from ||
                                               plan.tables[t].number == to))
                    for (int32_t m = 0; m < plan.tables[t].n_seats &&
                                        n_touched < TNY_MAX_SEATS * 2;
                         m++)
                        touched[n_touched++] = plan.tables[t].seats[m];
            /* Fixing this player's own table is the point of `fix`. */
            if (kind == EDIT_KIND_FIX) {
                int32_t p = tny_event_player_index(ev, q->player_id);
                for (int32_t i = 0; i < n_touched; i++)
                    if (touched[i] == p)
                        touched[i] = -1;
            }
            plan_problems(ev, &plan, touched, n_touched, false, &w);
        }
    }
    tny_round_plan_release(&plan);
    if (w.n == 0)
        return rc;
    if (!q->force)
        return fail(c, TNY_ECONFLICT,
                    "refused: %s; add --force to do it anyway (CM-5)", w.text);
    snprintf(c->rep->message, sizeof(c->rep->message), "forced: %s", w.text);
    return TNY_OK;
}

/* After a round closed: an event whose every stage is played is finished
 * (its standings are the final classification) and its devices are
 * unassigned, free for the next event (issue 22). */
static int finish_if_complete(struct ctx *c)
{
    bool complete = false;
    int rc = tny_event_complete(&c->e->ev, &complete, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    if (!complete || c->e->info.status == HUB_EVENT_FINISHED)
        return TNY_OK;
    if ((rc = hub_store_set_event_status(c->svc->store, c->e->id,
                                         HUB_EVENT_FINISHED, c->actor,
                                         &c->diag)) < 0)
        return fail_diag(c, rc);
    c->touched = true;
    /* Issue 22: the event's devices are free for the next event (its
     * publish hands them out again); they wait (assignment cleared). */
    int32_t freed = 0;
    for (int32_t i = 0; i < c->svc->n_devices; i++) {
        struct hub_device *d = &c->svc->devices[i];
        if (strcmp(d->event, c->e->id) != 0)
            continue;
        if ((rc = hub_store_device_assign(c->svc->store, d->id, NULL, 0,
                                          c->actor, &c->diag)) < 0)
            return fail_diag(c, rc);
        d->event[0] = '\0';
        d->table = 0;
        freed++;
        if ((rc = hub__publish_device(c->svc, d, c->now, c->ob, &c->diag)) < 0)
            return fail_diag(c, rc);
    }
    /* Issue 20: the event's sign-in codes expire with it. */
    if (c->svc->opt.codes &&
        (rc = hub__codes_expire(c->svc, c->e, c->ob, &c->diag)) < 0)
        return fail_diag(c, rc);
    HUB_LOG(HUB_LOG_INFO, "event finished event=%s rounds=%d devices_freed=%d",
            c->e->id, (int)c->e->ev.n_rounds, (int)freed);
    if (freed > 0)
        snprintf(c->rep->message, sizeof(c->rep->message),
                 "event %s is finished; its %d device%s %s free for the next "
                 "event",
                 c->e->id, (int)freed, freed == 1 ? "" : "s",
                 freed == 1 ? "is" : "are");
    c->e->info.status = HUB_EVENT_FINISHED; /* issue 17: in place */
    c->e->feed_dirty = true;
    return TNY_OK;
}

/* ---- sign-in codes (issue 20; the work is in codes.c) ---------------------
 */

static int cmd_issue_code(struct ctx *c)
{
    int rc = hub__code_issue(c->svc, c->e, c->req, c->actor, c->now, c->ob,
                             c->rep, &c->touched, &c->diag);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

static int cmd_revoke_code(struct ctx *c)
{
    int rc = hub__code_revoke(c->svc, c->e, c->req, c->actor, c->now, c->ob,
                              c->rep, &c->touched, &c->diag);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

static int cmd_list_codes(struct ctx *c)
{
    int rc = hub__code_list(c->svc, c->e, c->rep, &c->diag);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

static int cmd_issue_player_code(struct ctx *c)
{
    int rc = hub__code_issue_player(c->svc, c->e, c->req, c->actor, c->rep,
                                    &c->diag);
    return rc < 0 ? fail_diag(c, rc) : TNY_OK;
}

/* ---- check-in and "drop me" from the players' phones (issue 20) ----------
 *
 * The requests are stored as they come (codes.c); these commands read
 * them and act through the same drop as `player drop`. */

/* The event's players (ids copied: a drop reloads the model) that
 * checked in (want true) or have not (false), active players only. */
static int checkin_split(struct ctx *c, bool want, char (**ids)[65], int32_t *n,
                         int32_t *n_in)
{
    struct hub_player_request *reqs = NULL;
    int32_t n_reqs = 0;
    int rc = hub_store_player_requests_list(c->svc->store, c->e->id, &reqs,
                                            &n_reqs, &c->diag);
    *ids = NULL;
    *n = *n_in = 0;
    if (rc < 0)
        return fail_diag(c, rc);
    *ids = calloc((size_t)c->e->ev.n_players + 1, sizeof(**ids));
    if (!*ids) {
        free(reqs);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    for (int32_t i = 0; i < c->e->ev.n_players; i++) {
        const struct tny_player *p = &c->e->ev.players[i];
        bool in = false;
        if (!tny_player_active_in(p, current_round(c) + 1))
            continue;
        for (int32_t k = 0; k < n_reqs && !in; k++)
            in = reqs[k].kind == HUB_PLAYER_CHECK_IN &&
                 strcmp(reqs[k].player_id, p->id) == 0;
        *n_in += in;
        if (in == want)
            snprintf((*ids)[(*n)++], 65, "%s", p->id);
    }
    free(reqs);
    return TNY_OK;
}

static int cmd_list_checkins(struct ctx *c)
{
    char(*ids)[65] = NULL;
    int32_t n = 0, n_in = 0;
    int rc = checkin_split(c, false, &ids, &n, &n_in);
    if (rc < 0)
        return rc;
    json_t *arr = json_array();
    for (int32_t i = 0; arr && i < c->e->ev.n_players; i++) {
        const struct tny_player *p = &c->e->ev.players[i];
        bool missing = false;
        if (!tny_player_active_in(p, current_round(c) + 1))
            continue;
        for (int32_t k = 0; k < n && !missing; k++)
            missing = strcmp(ids[k], p->id) == 0;
        json_array_append_new(arr, json_pack("{s:s, s:s, s:b}", "player", p->id,
                                             "name", p->name ? p->name : "",
                                             "checked_in", !missing));
    }
    free(ids);
    if (!arr)
        return fail(c, TNY_ENOMEM, "out of memory");
    c->rep->count = (uint64_t)n;
    snprintf(c->rep->message, sizeof(c->rep->message),
             "%d checked in, %d not yet%s", (int)n_in, (int)n,
             current_round(c) > 0 ? " (round 1 is published: check-in is over)"
                                  : "");
    return reply_records(c, arr);
}

/* Drops (or, before round 1, withdraws) each of ids through cmd_drop, with
 * the command's reason; arr gets one record each. */
static int drop_each(struct ctx *c, char (*ids)[65], int32_t n, json_t *arr)
{
    const struct tny_wire_request *orig = c->req;
    struct tny_wire_request *one = malloc(sizeof(*one));
    int rc = TNY_OK;
    if (!one)
        return fail(c, TNY_ENOMEM, "out of memory");
    for (int32_t i = 0; rc == TNY_OK && i < n; i++) {
        memcpy(one, orig, sizeof(*one));
        snprintf(one->player_id, sizeof(one->player_id), "%s", ids[i]);
        one->round = 0; /* after the current round (CM-2) */
        c->req = one;
        rc = cmd_drop(c, false);
        c->req = orig;
        if (rc == TNY_OK)
            json_array_append_new(arr, json_pack("{s:s, s:i}", "player", ids[i],
                                                 "after_round",
                                                 (int)current_round(c)));
    }
    free(one);
    return rc;
}

static int cmd_drop_no_shows(struct ctx *c)
{
    char(*ids)[65] = NULL;
    int32_t n = 0, n_in = 0;
    int rc;
    if (current_round(c) > 0)
        return fail(c, TNY_ESTATE,
                    "event \"%s\": round 1 is published, check-in is over "
                    "(drop players one by one: player drop)",
                    c->e->id);
    if ((rc = checkin_split(c, false, &ids, &n, &n_in)) < 0)
        return rc;
    if (n_in == 0 && n > 0) {
        free(ids);
        return fail(c, TNY_ESTATE,
                    "event \"%s\": nobody has checked in yet; not "
                    "withdrawing all %d players",
                    c->e->id, (int)n);
    }
    json_t *arr = json_array();
    rc = arr ? drop_each(c, ids, n, arr) : fail(c, TNY_ENOMEM, "out of memory");
    free(ids);
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    c->rep->count = (uint64_t)n;
    snprintf(c->rep->message, sizeof(c->rep->message),
             "%d no-show(s) withdrawn from %s, %d checked in", (int)n, c->e->id,
             (int)n_in);
    return reply_records(c, arr);
}

static int cmd_drop_requests(struct ctx *c)
{
    struct hub_player_request *reqs = NULL;
    int32_t n_reqs = 0, n = 0;
    int rc = hub_store_player_requests_list(c->svc->store, c->e->id, &reqs,
                                            &n_reqs, &c->diag);
    if (rc < 0)
        return fail_diag(c, rc);
    char(*ids)[65] = calloc((size_t)n_reqs + 1, sizeof(*ids));
    json_t *arr = json_array();
    if (!ids || !arr) {
        free(reqs);
        free(ids);
        json_decref(arr);
        return fail(c, TNY_ENOMEM, "out of memory");
    }
    /* Waiting: a drop not confirmed, of a player still in the event. */
    for (int32_t k = 0; k < n_reqs; k++) {
        int32_t ix = tny_event_player_index(&c->e->ev, reqs[k].player_id);
        if (reqs[k].kind != HUB_PLAYER_DROP || reqs[k].confirmed_ms || ix < 0 ||
            !tny_player_active_in(&c->e->ev.players[ix], current_round(c) + 1))
            continue;
        snprintf(ids[n++], 65, "%s", reqs[k].player_id);
        if (!c->req->confirm)
            json_array_append_new(
                arr,
                json_pack(
                    "{s:s, s:s, s:i, s:I}", "player", reqs[k].player_id, "name",
                    c->e->ev.players[ix].name ? c->e->ev.players[ix].name : "",
                    "asked_after_round", (int)reqs[k].after_round,
                    "received_ms", (json_int_t)reqs[k].received_ms));
    }
    free(reqs);
    if (c->req->confirm) {
        rc = drop_each(c, ids, n, arr);
        for (int32_t i = 0; rc == TNY_OK && i < n; i++)
            if ((rc = hub_store_drop_request_confirm(
                     c->svc->store, c->e->id, ids[i], c->actor, &c->diag)) < 0)
                rc = fail_diag(c, rc);
    }
    free(ids);
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    c->rep->count = (uint64_t)n;
    snprintf(c->rep->message, sizeof(c->rep->message),
             c->req->confirm ? "%d player(s) dropped as they asked"
                             : "%d drop request(s) waiting (--confirm drops "
                               "them)",
             (int)n);
    return reply_records(c, arr);
}

/* ---- the table of commands --------------------------------------------------
 */

struct command {
    enum tny_wire_cmd cmd;
    bool needs_event;
    int (*run)(struct ctx *c);
    /* Issue 17: the handler checks everything before its first write and
     * changes the model in place after it (or reads only): no snapshot of
     * the service's memory is taken; a failure after the first write
     * (c->touched) reads the model back from the store. */
    bool in_place;
    /* Issue 17 item 2: the command never changes the event's players;
     * after any other that succeeded the players get a new generation
     * (the feed snapshot copies them again; the model check catches a
     * change under an old one). */
    bool keeps_players;
    /* Issue 18 item 3: the records its ok reply holds. */
    enum tny_rec_shape records;
};

/* Built from the commands' descriptions (tny/console_cmds.h): the
 * handler of command NAME is cmd_NAME. */
static const struct command commands[] = {
#define W(name, ID, event, inp, players, fields, reply, recs, ...)             \
    {.cmd = TNY_WIRE_CMD_##ID,                                                 \
     .needs_event = (event) == TNY_CMD_EV_EXISTING,                            \
     .run = cmd_##name,                                                        \
     .in_place = inp,                                                          \
     .keeps_players = (players) == TNY_CMD_PL_KEPT,                            \
     .records = recs},
#define L(...)
    TNY_CONSOLE_COMMANDS(W, L)
#undef W
#undef L
};

/* Issue 18 item 3: the reply holds the records its description declares
 * (console_records.h; a walk of its nodes, run always).  A reply that
 * does not is the hub's bug: logged; with the model check (the tests) the
 * command is refused with the check's words, so a test sees it. */
static void reply_shape_check(struct ctx *c, const struct command *cmd)
{
    struct tny_diag why = {{0}};
    char path[64];
    snprintf(path, sizeof(path), "%s's records", tny_wire_cmd_name(cmd->cmd));
    if (tny_wire_records_check_shape(c->rep->records, cmd->records, path,
                                     &why) == TNY_OK)
        return;
    HUB_LOG(HUB_LOG_ERROR, "console reply: %s", why.msg);
    if (c->svc->model_check) {
        tny_wire_reply_drop_payload(c->rep);
        fail(c, TNY_EINVAL, "the hub's reply: %s", why.msg);
    }
}

/* ---- all or nothing (issue 22) -------------------------------------------
 *
 * A command runs inside one store batch (one transaction: every write it
 * makes commits together or not at all) and with a copy of what it may
 * change in memory: the outbox's length (retained messages it queued),
 * the device registry, the version reservation, the event entries and
 * the command's event's clock, extensions and table states.  A refused
 * command (reply rc < 0), or one whose commit fails, rolls the batch back
 * and puts all of those back, so refused means nothing changed: store,
 * clock, retained messages, the service's model. */
struct undo {
    bool batch;
    int32_t n_out, n_events, n_devices;
    struct hub_device *devices;
    uint64_t version_reserved;
    struct hub_ev *e;    /* the command's event (NULL: none) */
    struct hub_ev saved; /* its fields; tables and ext below are copies */
    struct hub_table_state *tables;
    struct hub_extension *ext;
};

static int undo_save(struct undo *u, struct hub_service *svc, struct hub_ev *e,
                     const struct hub_outbox *ob)
{
    memset(u, 0, sizeof(*u));
    u->n_out = ob->n;
    u->n_events = svc->n_events;
    u->n_devices = svc->n_devices;
    u->version_reserved = svc->version_reserved;
    if (svc->n_devices > 0 &&
        !(u->devices = malloc(sizeof(*u->devices) * (size_t)svc->n_devices)))
        return TNY_ENOMEM;
    if (svc->n_devices > 0)
        memcpy(u->devices, svc->devices,
               sizeof(*u->devices) * (size_t)svc->n_devices);
    if (!(u->e = e))
        return TNY_OK;
    u->saved = *e;
    if (e->n_tables > 0 &&
        !(u->tables = malloc(sizeof(*u->tables) * (size_t)e->n_tables)))
        return TNY_ENOMEM;
    if (e->n_tables > 0)
        memcpy(u->tables, e->tables, sizeof(*u->tables) * (size_t)e->n_tables);
    if (e->n_ext > 0 && !(u->ext = malloc(sizeof(*u->ext) * (size_t)e->n_ext)))
        return TNY_ENOMEM;
    if (e->n_ext > 0)
        memcpy(u->ext, e->ext, sizeof(*u->ext) * (size_t)e->n_ext);
    return TNY_OK;
}

static void undo_release(struct undo *u)
{
    free(u->devices);
    free(u->tables);
    free(u->ext);
    memset(u, 0, sizeof(*u));
}

/* Issue 17: after a failure past the first write of an in-place command
 * (the store rolled back, or part of it committed without a batch): the
 * event's model and the devices' assignments are read back from the store
 * (the recovery path, as at start-up). */
static void model_recover(struct hub_service *svc, struct hub_ev *e)
{
    struct tny_diag why = {{0}};
    struct hub_ev *f = NULL;
    if (e && hub__ev_load_fresh(svc, e->id, &f, &why) == TNY_OK) {
        if (e->loaded)
            tny_event_release(&e->ev);
        hub__ev_draft_drop(e);
        free(e->tables);
        free(e->ext);
        e->loaded = f->loaded;
        e->ev = f->ev;
        e->info = f->info;
        e->round = f->round;
        e->state_round = f->state_round;
        e->n_tables = f->n_tables;
        e->tables = f->tables;
        e->n_ext = f->n_ext;
        e->cap_ext = f->cap_ext;
        e->ext = f->ext;
        e->clock_round = f->clock_round;
        e->clock = f->clock;
        e->clock_expired_seen = false;
        e->feed_dirty = true;
        f->loaded = false;
        f->tables = NULL;
        f->ext = NULL;
        hub__ev_free(f);
        svc->stats.model_loads++;
    } else if (e) {
        HUB_LOG(HUB_LOG_ERROR, "event %s: model not read back: %s", e->id,
                why.msg);
        hub__ev_invalidate(e);
        e->state_round = 0;
        e->clock_round = 0;
    }
    for (int32_t i = 0; i < svc->n_devices; i++) {
        int rc = hub__device_refresh(svc, &svc->devices[i], &why);
        if (rc == TNY_ENOTFOUND) { /* registered by the failed command */
            memmove(&svc->devices[i], &svc->devices[i + 1],
                    sizeof(*svc->devices) * (size_t)(svc->n_devices - i - 1));
            svc->n_devices--;
            i--;
        } else if (rc < 0)
            HUB_LOG(HUB_LOG_ERROR, "device %s: not read back: %s",
                    svc->devices[i].id, why.msg);
    }
}

/* Puts back what undo_save copied (the store is rolled back already). */
static void undo_restore(struct undo *u, struct hub_service *svc,
                         struct hub_outbox *ob)
{
    for (int32_t i = u->n_out; i < ob->n; i++)
        free(ob->msgs[i].payload);
    if (ob->n > u->n_out)
        ob->n = u->n_out;
    /* Entries of events created by the command (never by a refused one,
     * but by one whose commit failed). */
    for (int32_t i = u->n_events; i < svc->n_events; i++)
        hub__ev_free(svc->events[i]);
    if (svc->n_events > u->n_events)
        svc->n_events = u->n_events;
    if (u->n_devices > 0)
        memcpy(svc->devices, u->devices,
               sizeof(*svc->devices) * (size_t)u->n_devices);
    svc->n_devices = u->n_devices;
    svc->version_reserved = u->version_reserved;
    struct hub_ev *e = u->e;
    if (!e)
        return;
    /* The projection is read again from the (unchanged) store. */
    hub__ev_invalidate(e);
    free(e->tables);
    free(e->ext);
    e->state_round = u->saved.state_round;
    e->n_tables = u->saved.n_tables;
    e->tables = u->tables;
    e->n_ext = e->cap_ext = u->saved.n_ext;
    e->ext = u->ext;
    u->tables = NULL;
    u->ext = NULL;
    e->clock_round = u->saved.clock_round;
    e->clock = u->saved.clock;
    e->clock_expired_seen = u->saved.clock_expired_seen;
    e->tick_ms = u->saved.tick_ms;
    e->feed_event_hash = u->saved.feed_event_hash;
    e->feed_event_ms = u->saved.feed_event_ms;
}

int hub__console_run(struct hub_service *svc, const char *console_id,
                     const struct tny_wire_request *req, int64_t now_ms,
                     struct hub_outbox *ob, struct tny_wire_reply *rep)
{
    struct ctx c;
    struct undo u;
    memset(&c, 0, sizeof(c));
    memset(&u, 0, sizeof(u));
    c.svc = svc;
    c.console = console_id;
    snprintf(c.actor, sizeof(c.actor), "organiser:%s", console_id);
    c.req = req;
    c.now = now_ms;
    c.ob = ob;
    c.rep = rep;
    const struct command *cmd = NULL;
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (commands[i].cmd == req->cmd)
            cmd = &commands[i];
    if (!cmd) {
        fail(&c, TNY_EINVAL, "console_request: unknown command %d",
             (int)req->cmd);
        return TNY_OK;
    }
    if (cmd->needs_event) {
        int rc = hub__ev_get(svc, req->event_id, &c.e, &c.diag);
        if (rc == TNY_ENOTFOUND) {
            fail(&c, rc, "console_request.event_id: no event \"%s\"",
                 req->event_id);
            return TNY_OK;
        }
        if (rc < 0) {
            fail_diag(&c, rc);
            return TNY_OK;
        }
        snprintf(rep->event_id, sizeof(rep->event_id), "%s", req->event_id);
    }
    /* The audit log: every log row the command writes carries its reason. */
    if (hub_store_set_reason(svc->store, req->reason) < 0) {
        fail(&c, TNY_ENOMEM, "out of memory");
        return TNY_OK;
    }
    if (cmd->in_place) {
        /* Nothing of the model is copied: only counters. */
        u.n_out = ob->n;
        u.n_events = svc->n_events;
        u.n_devices = svc->n_devices;
        u.version_reserved = svc->version_reserved;
    } else if (undo_save(&u, svc, c.e, ob) < 0) {
        undo_release(&u);
        fail(&c, TNY_ENOMEM, "out of memory");
        if (hub_store_set_reason(svc->store, NULL) < 0)
            HUB_LOG(HUB_LOG_ERROR, "store: reason not cleared");
        return TNY_OK;
    }
    /* A store that takes no batch (read-only, busy) still answers reads;
     * its writes then fail one by one, each changing nothing. */
    struct tny_diag bd = {{0}};
    u.batch = hub_store_batch_begin(svc->store, &bd) == TNY_OK;
    if (!u.batch)
        HUB_LOG(HUB_LOG_DEBUG, "console %s: no batch: %s",
                tny_wire_cmd_name(req->cmd), bd.msg);
    int rrc = cmd->run(&c); /* errors are in the reply */
    if (rrc < 0 && rep->rc == 0)
        fail(&c, rrc, "%s", c.diag.msg[0] ? c.diag.msg : tny_strerror(rrc));
    if (rep->rc == 0)
        reply_shape_check(&c, cmd);
    /* Issue 20: the sign-in codes follow the event (a player code to its
     * player's table of the round just published, a dropped player's
     * code ends, a revoked or expired code says so). */
    if (rep->rc == 0 && c.e && !c.deleted && svc->opt.codes &&
        (rrc = hub__codes_follow(svc, c.e, c.actor, now_ms, ob, &c.diag)) < 0)
        fail_diag(&c, rrc);
    if (u.batch) {
        struct tny_diag cd = {{0}};
        int erc = hub_store_batch_end(svc->store, rep->rc == 0, &cd);
        if (erc < 0) {
            free(rep->json);
            rep->json = NULL;
            tny_wire_reply_drop_payload(rep);
            fail(&c, erc, "%s; nothing was changed", cd.msg);
        }
    }
    if (rep->rc < 0 && cmd->in_place) {
        for (int32_t i = u.n_out; i < ob->n; i++)
            free(ob->msgs[i].payload);
        if (ob->n > u.n_out)
            ob->n = u.n_out;
        svc->version_reserved = u.version_reserved;
        /* Entries of events created by the command (its commit failed). */
        for (int32_t i = u.n_events; i < svc->n_events; i++)
            hub__ev_free(svc->events[i]);
        if (svc->n_events > u.n_events)
            svc->n_events = u.n_events;
        hub__codes_forget(svc); /* nothing of it went out */
        if (c.touched)
            model_recover(svc, c.e);
    } else if (rep->rc < 0) {
        undo_restore(&u, svc, ob);
        hub__codes_forget(svc); /* nothing of it went out */
    } else if (c.deleted)
        hub__ev_remove(svc, c.e);
    else if (rep->rc == 0 && c.e && !cmd->keeps_players)
        hub__ev_players_changed(c.e);
    undo_release(&u);
    if (hub_store_set_reason(svc->store, NULL) < 0) /* clearing cannot fail */
        HUB_LOG(HUB_LOG_ERROR, "store: reason not cleared");
    hub__model_check(svc, tny_wire_cmd_name(req->cmd));
    return TNY_OK;
}
