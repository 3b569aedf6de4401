/* results.c - a table's results (CM-6): decode, check, store, acknowledge.
 *
 * A result goes: decode (malformed: REJECTED MALFORMED) -> a key seen
 * before gets its stored answer -> the device must be assigned to that
 * event and table (WRONG_TABLE), the round must be the current one and in
 * play (WRONG_ROUND) -> the wire result is mapped onto the table
 * (tny_wire_result_to_table: WRONG_PLAYERS / INVALID_RESULT naming the
 * field) -> every seated player must have confirmed, else the result is
 * stored pending (PENDING_CONFIRMATION) -> hub_store_submit_result, one
 * transaction -> the ack, built from the stored answer, only after the
 * commit.  Rejections decided here store nothing (protocol.md: REJECTED
 * means nothing stored); those the store decides are stored with the key.
 *
 * Calls publish.c, events.c, devices.c, the outbox and the store only.
 */
#include "hub/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "devices.h"
#include "events.h"
#include "hub/log.h"
#include "publish.h"

/* Appends the ack on device/{dev}/ack (encoded; not retained). */
static int send_ack(struct hub_service *svc, const char *device_id,
                    const struct tny_wire_ack *ack, struct hub_outbox *ob,
                    struct tny_diag *diag)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_ACK, device_id, topic,
                             sizeof(topic), diag)) < 0 ||
        (rc = tny_wire_encode_ack(ack, &buf, &len, diag)) < 0)
        return rc;
    switch (ack->status) {
    case TNY_WIRE_ACK_ACCEPTED: svc->stats.acks_accepted++; break;
    case TNY_WIRE_ACK_REJECTED: svc->stats.acks_rejected++; break;
    case TNY_WIRE_ACK_DUPLICATE: svc->stats.acks_duplicate++; break;
    case TNY_WIRE_ACK_CONFLICT: svc->stats.acks_conflict++; break;
    case TNY_WIRE_ACK_PENDING_CONFIRMATION: svc->stats.acks_pending++; break;
    }
    return hub_outbox_add(ob, topic, buf, len, false);
}

static const char *ack_status_name(enum tny_wire_ack_status s)
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

/* A rejection decided by the hub itself (nothing stored). */
static int reject(struct hub_service *svc, const char *device_id,
                  const struct tny_wire_submission *sub,
                  enum tny_wire_ack_reason reason, const char *text,
                  struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_wire_ack ack;
    memset(&ack, 0, sizeof(ack));
    ack.status = TNY_WIRE_ACK_REJECTED;
    ack.reason = reason;
    if (sub) {
        snprintf(ack.key, sizeof(ack.key), "%s", sub->key);
        snprintf(ack.event_id, sizeof(ack.event_id), "%s", sub->event_id);
        ack.round = sub->round;
        ack.table = sub->table;
    }
    snprintf(ack.reason_text, sizeof(ack.reason_text), "%s", text);
    HUB_LOG(HUB_LOG_WARN,
            "result rejected device=%s key=%s event=%s round=%d table=%d: %s",
            device_id, sub ? sub->key : "", sub ? sub->event_id : "",
            sub ? (int)sub->round : 0, sub ? (int)sub->table : 0, text);
    int rc = send_ack(svc, device_id, &ack, ob, diag);
    if (rc == TNY_EINVAL) {
        /* The reason quoted bytes the wire refuses as text (a malformed
         * payload's): answer all the same, without the quote. */
        snprintf(ack.reason_text, sizeof(ack.reason_text),
                 "result_submission: %s (the details are not printable "
                 "text)",
                 reason == TNY_WIRE_REASON_MALFORMED ? "does not decode"
                                                     : "refused");
        rc = send_ack(svc, device_id, &ack, ob, diag);
    }
    return rc;
}

/* The reason of a rejection the store decided, from its text. */
static enum tny_wire_ack_reason store_reason(const char *text)
{
    if (strstr(text, "not registered"))
        return TNY_WIRE_REASON_WRONG_TABLE;
    if (strstr(text, "not published") || strstr(text, "closed"))
        return TNY_WIRE_REASON_WRONG_ROUND;
    if (strstr(text, "event \"") && strstr(text, "not found"))
        return TNY_WIRE_REASON_UNKNOWN_EVENT;
    if (strstr(text, "table") && strstr(text, "not found"))
        return TNY_WIRE_REASON_WRONG_TABLE;
    return TNY_WIRE_REASON_INVALID_RESULT;
}

/* The counted result of a table as a wire result (ack echo). */
static void echo_counted(struct hub_ev *e, int32_t table,
                         struct tny_wire_ack *ack)
{
    struct tny_table *t = hub__ev_table(e, table);
    struct tny_diag ignored;
    if (t && t->has_result &&
        tny_wire_result_from_table(&e->ev, t, &ack->stored, &ignored) == 0)
        ack->has_stored = true;
}

/* Builds the ack from the store's answer (the same bytes for every
 * submission of the key, so a repeated key gets the same ack).  duplicate:
 * the live submission repeated the counted result under a new key. */
static int ack_from_answer(struct hub_service *svc, const char *answer,
                           bool duplicate, struct tny_wire_ack *ack,
                           struct tny_diag *diag)
{
    json_t *a = json_loads(answer, 0, NULL);
    memset(ack, 0, sizeof(*ack));
    if (!a || !json_is_object(a)) {
        json_decref(a);
        return tny_diag_set(diag, TNY_ESTATE, "store: unreadable answer");
    }
    const char *status = json_string_value(json_object_get(a, "status"));
    const char *key = json_string_value(json_object_get(a, "key"));
    const char *event = json_string_value(json_object_get(a, "event"));
    const char *reason = json_string_value(json_object_get(a, "reason"));
    snprintf(ack->key, sizeof(ack->key), "%s", key ? key : "");
    snprintf(ack->event_id, sizeof(ack->event_id), "%s",
             event && tny_wire_id_valid(event) ? event : "");
    ack->round = (int32_t)json_integer_value(json_object_get(a, "round"));
    ack->table = (int32_t)json_integer_value(json_object_get(a, "table"));
    if (ack->round < 0)
        ack->round = 0;
    if (ack->table < 0)
        ack->table = 0;
    status = status ? status : "rejected";
    if (strcmp(status, "accepted") == 0) {
        if (json_is_true(json_object_get(a, "counted"))) {
            ack->status =
                duplicate ? TNY_WIRE_ACK_DUPLICATE : TNY_WIRE_ACK_ACCEPTED;
        } else {
            ack->status = TNY_WIRE_ACK_PENDING_CONFIRMATION;
            ack->reason = TNY_WIRE_REASON_UNCONFIRMED;
            snprintf(ack->reason_text, sizeof(ack->reason_text),
                     "stored, not final: every player at the table must "
                     "confirm it, or the organiser (CM-6)");
        }
    } else if (strcmp(status, "conflict") == 0) {
        ack->status = TNY_WIRE_ACK_CONFLICT;
        ack->reason = TNY_WIRE_REASON_ALREADY_CONFIRMED;
    } else {
        ack->status = TNY_WIRE_ACK_REJECTED;
        ack->reason = store_reason(reason ? reason : "");
    }
    if (reason && reason[0] && !ack->reason_text[0])
        snprintf(ack->reason_text, sizeof(ack->reason_text), "%s", reason);
    json_decref(a);
    if (ack->status == TNY_WIRE_ACK_CONFLICT ||
        ack->status == TNY_WIRE_ACK_DUPLICATE) {
        struct hub_ev *e;
        struct tny_diag ignored;
        if (ack->event_id[0] &&
            hub__ev_get(svc, ack->event_id, &e, &ignored) == 0)
            echo_counted(e, ack->table, ack);
    }
    return TNY_OK;
}

/* True when id is one of the table's players. */
static bool seated(const struct hub_ev *e, const struct tny_table *t,
                   const char *id)
{
    for (int32_t i = 0; i < t->n_seats; i++)
        if (strcmp(e->ev.players[t->seats[i]].id, id) == 0)
            return true;
    return false;
}

/* A result naming someone who is not at the table is WRONG_PLAYERS. */
static bool names_stranger(const struct hub_ev *e, const struct tny_table *t,
                           const struct tny_wire_result *r)
{
    for (int32_t i = 0; i < r->n_players; i++)
        if (!seated(e, t, r->players[i].player_id))
            return true;
    if (r->winner_id[0] && !seated(e, t, r->winner_id))
        return true;
    if (r->default_winner_id[0] && !seated(e, t, r->default_winner_id))
        return true;
    for (int32_t i = 0; i < r->n_games; i++)
        if (!seated(e, t, r->games[i]))
            return true;
    return false;
}

/* A result that passed the service's checks and waits for the store. */
struct result_job {
    char device_id[HUB_STORE_ID_MAX + 1];
    struct tny_wire_submission sub;
    char *json; /* the result as the store takes it (malloc'd) */
    bool confirmed, had_counted;
    struct tny_table mapped; /* the result in the assigned table's seats */
};

/* Everything before the store: answers what the service decides itself
 * (acks to ob); a result for the store is described in *job and *queued
 * set (release job->json). */
static int result_prepare(struct hub_service *svc, const char *device_id,
                          const uint8_t *payload, size_t len, int64_t now_ms,
                          struct hub_outbox *ob, struct result_job *job,
                          bool *queued, struct tny_diag *diag)
{
    struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    struct tny_diag why = {{0}}, ignored_why = {{0}};
    struct hub_submit_outcome outcome;
    struct tny_wire_ack ack;
    struct hub_device *dev;
    struct hub_ev *e = NULL;
    char text[TNY_WIRE_NOTE_MAX];
    char actor[16 + HUB_STORE_ID_MAX];
    char *json = NULL;
    int rc;

    memset(&outcome, 0, sizeof(outcome));
    svc->stats.results++;
    if (len == 0) {
        /* An empty message deletes a retained one (the hub clears results
         * a table left retained, hub_loop.c): nothing to answer. */
        svc->stats.ignored++;
        HUB_LOG(HUB_LOG_DEBUG, "empty result message ignored device=%s",
                device_id);
        return TNY_OK;
    }
    if (!hub__device_login(svc, device_id)) {
        svc->stats.ignored++;
        HUB_LOG(HUB_LOG_DEBUG, "result ignored: not a device login device=%s",
                device_id);
        return TNY_OK;
    }
    snprintf(actor, sizeof(actor), "device:%s", device_id);
    if ((rc = hub__device_ensure(svc, device_id, actor, &dev, diag)) < 0)
        return rc;
    dev->last_seen_ms = now_ms;
    if (tny_wire_decode_submission(payload, len, &sub, &why) < 0) {
        /* Answered by its key when the key can be read (the table applies
         * only an ack naming one of its keys, and stops resending it);
         * a key already stored gets its first answer, as always. */
        struct tny_wire_submission *peek = NULL;
        memset(&sub, 0, sizeof(sub));
        if (tny_wire_peek_submission_key(payload, len, sub.key)) {
            peek = &sub;
            rc = hub_store_get_submission(svc->store, device_id, sub.key,
                                          &outcome, &ignored_why);
            if (rc == 0) {
                rc = ack_from_answer(svc, outcome.answer, false, &ack, diag);
                hub_submit_outcome_release(&outcome);
                if (rc == 0)
                    rc = send_ack(svc, device_id, &ack, ob, diag);
                return rc;
            }
            if (rc != TNY_ENOTFOUND)
                return tny_diag_set(diag, rc, "%s", ignored_why.msg);
        }
        return reject(svc, device_id, peek, TNY_WIRE_REASON_MALFORMED, why.msg,
                      ob, diag);
    }
    if (strcmp(sub.device_id, device_id) != 0) {
        snprintf(text, sizeof(text),
                 "result_submission.device_id: \"%s\" is not the sending "
                 "device \"%s\"",
                 sub.device_id, device_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }

    /* Same key -> the first answer, whatever the payload says now. */
    rc = hub_store_get_submission(svc->store, device_id, sub.key, &outcome,
                                  &why);
    if (rc == 0) {
        rc = ack_from_answer(svc, outcome.answer, false, &ack, diag);
        hub_submit_outcome_release(&outcome);
        if (rc == 0) {
            HUB_LOG(HUB_LOG_INFO,
                    "result repeated device=%s key=%s event=%s round=%d "
                    "table=%d: %s again",
                    device_id, sub.key, sub.event_id, (int)sub.round,
                    (int)sub.table, ack_status_name(ack.status));
            rc = send_ack(svc, device_id, &ack, ob, diag);
        }
        return rc;
    }
    if (rc != TNY_ENOTFOUND)
        return tny_diag_set(diag, rc, "%s", why.msg);

    rc = hub__ev_get(svc, sub.event_id, &e, &why);
    if (rc == TNY_ENOTFOUND) {
        snprintf(text, sizeof(text),
                 "result_submission.event_id: no event "
                 "\"%s\" on this hub",
                 sub.event_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_UNKNOWN_EVENT, text,
                      ob, diag);
    }
    if (rc < 0)
        return tny_diag_set(diag, rc, "%s", why.msg);
    if (strcmp(dev->event, sub.event_id) != 0 || dev->table != sub.table) {
        if (dev->event[0])
            snprintf(text, sizeof(text),
                     "result_submission.table: device %s is assigned to "
                     "table %d of event %s, not table %d of event %s",
                     device_id, (int)dev->table, dev->event, (int)sub.table,
                     sub.event_id);
        else
            snprintf(text, sizeof(text),
                     "result_submission.table: device %s is not assigned to "
                     "a table (it sent table %d of event %s)",
                     device_id, (int)sub.table, sub.event_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }
    if (sub.round != e->ev.n_rounds ||
        (e->round.status != HUB_ROUND_PUBLISHED &&
         e->round.status != HUB_ROUND_STARTED)) {
        if (e->ev.n_rounds == 0)
            snprintf(text, sizeof(text),
                     "result_submission.round: event %s "
                     "has no published round",
                     e->id);
        else if (sub.round == e->ev.n_rounds)
            snprintf(text, sizeof(text),
                     "result_submission.round: round %d "
                     "is closed; ask the organiser",
                     (int)sub.round);
        else
            snprintf(text, sizeof(text),
                     "result_submission.round: round %d "
                     "is not in play (the current round is %d)",
                     (int)sub.round, (int)e->ev.n_rounds);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_ROUND, text,
                      ob, diag);
    }
    struct tny_table *assigned = hub__ev_table(e, sub.table);
    if (!assigned) {
        snprintf(text, sizeof(text),
                 "result_submission.table: round %d has "
                 "no table %d",
                 (int)sub.round, (int)sub.table);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }
    enum tny_stage_kind stage = e->ev.rounds[sub.round - 1].stage;
    struct tny_table mapped;
    if (tny_wire_result_to_table(&e->ev, stage, assigned, &sub.result,
                                 "result_submission.result", &mapped, &why) < 0)
        return reject(svc, device_id, &sub,
                      names_stranger(e, assigned, &sub.result)
                          ? TNY_WIRE_REASON_WRONG_PLAYERS
                          : TNY_WIRE_REASON_INVALID_RESULT,
                      why.msg, ob, diag);
    if (mapped.result.decided) /* TX-4: the organiser decides, not a table */
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_INVALID_RESULT,
                      "result_submission.result.tp: a TX-4 organiser's "
                      "decision is entered by the organiser (tourney live "
                      "result enter), not at a table",
                      ob, diag);
    int32_t n_confirmed_seated = 0;
    for (int32_t i = 0; i < sub.n_confirmed; i++) {
        if (!seated(e, assigned, sub.confirmed[i])) {
            snprintf(text, sizeof(text),
                     "result_submission.confirmed_by[%d]: \"%s\" is not a "
                     "player of table %d",
                     (int)i, sub.confirmed[i], (int)sub.table);
            return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_PLAYERS,
                          text, ob, diag);
        }
        n_confirmed_seated++;
    }
    /* confirmed_by ids are distinct (decode checks), so a count equal to
     * the seats means every seated player confirmed. */
    bool confirmed = n_confirmed_seated == assigned->n_seats;
    bool had_counted = assigned->has_result;
    if ((rc = hub__result_json(&sub.result, &json, diag)) < 0)
        return rc;
    snprintf(job->device_id, sizeof(job->device_id), "%s", device_id);
    job->json = json;
    job->mapped = mapped;
    job->confirmed = confirmed;
    job->had_counted = had_counted;
    *queued = true;
    return TNY_OK;
#undef sub
}

/* A newly counted result enters the cached event in place (what a reload
 * would give, without reloading the whole event per result); Tantrix
 * tables may carry organiser penalties (TX-7) that the store merges into
 * the counted result, so there the cache is rebuilt. */
static void counted_in_cache(struct hub_ev *e, const struct result_job *job,
                             bool *invalidate)
{
    struct tny_table *tb = e->loaded && job->sub.round == e->ev.n_rounds
                               ? hub__ev_table(e, job->sub.table)
                               : NULL;
    if (!tb || e->ev.format.game == TNY_GAME_TANTRIX || tb->has_result ||
        tb->n_seats != job->mapped.n_seats ||
        memcmp(tb->seats, job->mapped.seats, sizeof(tb->seats)) != 0) {
        *invalidate = true;
        return;
    }
    tb->result = job->mapped.result;
    tb->has_result = true;
    e->round.n_results++;
}

/* After the commit: the table flags, the ack.  *invalidate is set when the
 * event cache must be rebuilt (the caller does it once per batch). */
static int result_finish(struct hub_service *svc, struct result_job *job,
                         struct hub_submit_outcome *outcome, bool *invalidate,
                         struct hub_outbox *ob, struct tny_diag *diag)
{
    const struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    const char *device_id = job->device_id;
    bool confirmed = job->confirmed, had_counted = job->had_counted;
    struct tny_wire_ack ack;
    struct hub_ev *e = hub__ev_find(svc, sub.event_id);
    int rc;
    if (!e) {
        hub_submit_outcome_release(outcome);
        return tny_diag_set(diag, TNY_ESTATE, "event %s left the cache",
                            sub.event_id);
    }
    /* Committed: keep the cache and the table flags in step. */
    struct hub_table_state *ts = hub__ev_table_state(e, sub.table);
    if (outcome->kind == HUB_SUBMIT_ACCEPTED && ts) {
        if (confirmed)
            ts->pending = false;
        else if (!had_counted)
            ts->pending = true;
    }
    if (outcome->kind == HUB_SUBMIT_CONFLICT && ts)
        ts->conflict = true;
    if (outcome->kind == HUB_SUBMIT_ACCEPTED && confirmed && !had_counted)
        counted_in_cache(e, job, invalidate);
    e->feed_dirty = true;
    rc = ack_from_answer(svc, outcome->answer,
                         had_counted && outcome->kind == HUB_SUBMIT_ACCEPTED,
                         &ack, diag);
    hub_submit_outcome_release(outcome);
    if (rc < 0)
        return rc;
    HUB_LOG(HUB_LOG_INFO,
            "result %s device=%s key=%s event=%s round=%d table=%d%s%s",
            ack_status_name(ack.status), device_id, sub.key, sub.event_id,
            (int)sub.round, (int)sub.table, ack.reason_text[0] ? ": " : "",
            ack.reason_text);
    return send_ack(svc, device_id, &ack, ob, diag);
#undef sub
}

int hub_service_on_result(struct hub_service *svc, const char *device_id,
                          const uint8_t *payload, size_t len, int64_t now_ms,
                          struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_result_msg m = {device_id, payload, len};
    return hub_service_on_results(svc, 1, &m, now_ms, ob, diag);
}

/* Submits jobs[0..n-1] in one transaction, then answers each. */
static int result_commit(struct hub_service *svc, struct result_job *jobs,
                         int32_t n, struct hub_outbox *ob,
                         struct tny_diag *diag)
{
    struct hub_submit_request *reqs = calloc((size_t)n, sizeof(*reqs));
    struct hub_submit_outcome *outs = calloc((size_t)n, sizeof(*outs));
    int rc = TNY_OK;
    if (!reqs || !outs) {
        rc = TNY_ENOMEM;
        goto out;
    }
    for (int32_t i = 0; i < n; i++)
        reqs[i] = (struct hub_submit_request){
            .event_id = jobs[i].sub.event_id,
            .round = jobs[i].sub.round,
            .table = jobs[i].sub.table,
            .device_id = jobs[i].device_id,
            .idem_key = jobs[i].sub.key,
            .result_json = jobs[i].json,
            .len = strlen(jobs[i].json),
            .confirmed = jobs[i].confirmed,
        };
    rc = hub_store_submit_results(svc->store, n, reqs, outs, diag);
    if (rc < 0) {
        HUB_LOG(HUB_LOG_ERROR, "%d results not stored: %s", (int)n,
                diag ? diag->msg : tny_strerror(rc));
        goto out;
    }
    for (int32_t i = 0; i < n; i++) {
        struct tny_diag one = {{0}};
        bool invalidate = false;
        int irc;
        if (outs[i].rc < 0) {
            irc = outs[i].rc;
            tny_diag_set(&one, irc, "%s", outs[i].reason);
        } else {
            irc = result_finish(svc, &jobs[i], &outs[i], &invalidate, ob, &one);
        }
        if (irc < 0) {
            HUB_LOG(HUB_LOG_ERROR,
                    "result not stored device=%s key=%s event=%s round=%d "
                    "table=%d: %s",
                    jobs[i].device_id, jobs[i].sub.key, jobs[i].sub.event_id,
                    (int)jobs[i].sub.round, (int)jobs[i].sub.table, one.msg);
            if (rc == 0) {
                rc = irc;
                tny_diag_set(diag, irc, "%s", one.msg);
            }
        }
        struct hub_ev *e = hub__ev_find(svc, jobs[i].sub.event_id);
        if (invalidate && e)
            hub__ev_invalidate(e);
    }
out:
    for (int32_t i = 0; outs && i < n; i++)
        hub_submit_outcome_release(&outs[i]);
    free(reqs);
    free(outs);
    return rc;
}

int hub_service_on_results(struct hub_service *svc, int32_t n,
                           const struct hub_result_msg *msgs, int64_t now_ms,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct result_job *jobs = n > 0 ? calloc((size_t)n, sizeof(*jobs)) : NULL;
    int32_t i = 0, nq = 0;
    int rc = TNY_OK;
    if (n > 0 && !jobs)
        return TNY_ENOMEM;
    while (i < n) {
        /* Prepare until a device repeats: its second message must see the
         * first one's outcome (service state), so it waits a batch. */
        nq = 0;
        for (; i < n; i++) {
            bool seen = false, queued = false;
            for (int32_t k = 0; k < nq && !seen; k++)
                seen = strcmp(jobs[k].device_id, msgs[i].device_id) == 0;
            if (seen)
                break;
            struct tny_diag one = {{0}};
            memset(&jobs[nq], 0, sizeof(jobs[nq]));
            int irc = result_prepare(svc, msgs[i].device_id, msgs[i].payload,
                                     msgs[i].len, now_ms, ob, &jobs[nq],
                                     &queued, &one);
            if (queued)
                nq++;
            if (irc < 0 && rc == 0) {
                rc = irc;
                tny_diag_set(diag, irc, "%s", one.msg);
            }
        }
        if (nq > 0) {
            struct tny_diag one = {{0}};
            int crc = result_commit(svc, jobs, nq, ob, &one);
            if (crc < 0 && rc == 0) {
                rc = crc;
                tny_diag_set(diag, crc, "%s", one.msg);
            }
            for (int32_t k = 0; k < nq; k++)
                free(jobs[k].json);
        }
    }
    free(jobs);
    return rc;
}
