/* results.c - a table's results (CM-6): decode, decide, record,
 * acknowledge; the one owner of whether a table's result counts.
 *
 * A result goes: decode (malformed: REJECTED MALFORMED) -> the wire result
 * mapped onto the table the hub assigned (tny_wire_result_to_table: the
 * engine's tny_result, validated by tny_result_validate) -> a key seen
 * before gets its first answer (looked up once; a key reused for other
 * data is logged) -> the device must be assigned to that event and table
 * (WRONG_TABLE), the round must be the current one and in play
 * (WRONG_ROUND), the result must name the table's players (WRONG_PLAYERS /
 * INVALID_RESULT naming the field) -> decided on the engine's result in
 * the service's event: NH-11 (rejected, recorded), the same result again
 * (accepted, no new row), another result than the counted one (conflict),
 * else accepted, pending until every seated player confirmed ->
 * hub_store_record_submissions, one transaction for the batch -> the ack,
 * built from the recorded fields, only after the commit.  Rejections
 * decided before the decision store nothing (protocol.md: REJECTED means
 * nothing stored); recorded ones are answered again by their key.
 *
 * Calls publish.c, events.c, devices.c, the outbox and the store only.
 */
#include "hub/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "events.h"
#include "model_check.h"
#include "hub/log.h"
#include "publish.h"
#include "results.h"
#include "tny/event_table.h"
#include "tny/result_schema.h"

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

/* The wire's reason for a recorded reason. */
static enum tny_wire_ack_reason wire_reason(enum hub_submit_reason r)
{
    switch (r) {
    case HUB_REASON_WRONG_ROUND: return TNY_WIRE_REASON_WRONG_ROUND;
    case HUB_REASON_WRONG_TABLE: return TNY_WIRE_REASON_WRONG_TABLE;
    case HUB_REASON_WRONG_PLAYERS: return TNY_WIRE_REASON_WRONG_PLAYERS;
    case HUB_REASON_UNKNOWN_EVENT: return TNY_WIRE_REASON_UNKNOWN_EVENT;
    case HUB_REASON_UNCONFIRMED: return TNY_WIRE_REASON_UNCONFIRMED;
    case HUB_REASON_ALREADY_CONFIRMED: return TNY_WIRE_REASON_ALREADY_CONFIRMED;
    case HUB_REASON_NONE:
    case HUB_REASON_INVALID_RESULT: break;
    }
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

/* The ack of a recorded submission: the same for every submission of its
 * key, as it is built from the recorded fields only.  duplicate: the live
 * submission repeated the counted result under a new key. */
static void ack_from_outcome(struct hub_service *svc,
                             const struct hub_submit_outcome *o,
                             const char *key, bool duplicate,
                             struct tny_wire_ack *ack)
{
    memset(ack, 0, sizeof(*ack));
    snprintf(ack->key, sizeof(ack->key), "%s", key);
    snprintf(ack->event_id, sizeof(ack->event_id), "%s",
             tny_wire_id_valid(o->event_id) ? o->event_id : "");
    ack->round = o->round > 0 ? o->round : 0;
    ack->table = o->table > 0 ? o->table : 0;
    switch (o->first) {
    case HUB_SUBMIT_ACCEPTED:
        if (o->counted) {
            ack->status =
                duplicate ? TNY_WIRE_ACK_DUPLICATE : TNY_WIRE_ACK_ACCEPTED;
        } else {
            ack->status = TNY_WIRE_ACK_PENDING_CONFIRMATION;
            ack->reason = TNY_WIRE_REASON_UNCONFIRMED;
            snprintf(ack->reason_text, sizeof(ack->reason_text),
                     "stored, not final: every player at the table must "
                     "confirm it, or the organiser (CM-6)");
        }
        break;
    case HUB_SUBMIT_CONFLICT:
        ack->status = TNY_WIRE_ACK_CONFLICT;
        ack->reason = TNY_WIRE_REASON_ALREADY_CONFIRMED;
        break;
    case HUB_SUBMIT_DUPLICATE:
    case HUB_SUBMIT_REJECTED:
        ack->status = TNY_WIRE_ACK_REJECTED;
        ack->reason = wire_reason(o->reason);
        break;
    }
    if (o->first != HUB_SUBMIT_ACCEPTED && o->reason_text[0])
        snprintf(ack->reason_text, sizeof(ack->reason_text), "%s",
                 o->reason_text);
    if (ack->status == TNY_WIRE_ACK_CONFLICT ||
        ack->status == TNY_WIRE_ACK_DUPLICATE) {
        struct hub_ev *e;
        struct tny_diag ignored;
        if (ack->event_id[0] &&
            hub__ev_get(svc, ack->event_id, &e, &ignored) == 0)
            echo_counted(e, ack->table, ack);
    }
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

/* A submission the service decided, waiting for the store to record it. */
struct result_job {
    char device_id[HUB_STORE_ID_MAX + 1];
    struct tny_wire_submission sub;
    struct hub_submission rec; /* the decision (points into this job) */
    char reason[512];
    bool had_counted;
    /* The result in the assigned table's seats (TX-7 penalties zero). */
    struct tny_table mapped;
    /* A counted result entered the service's event at decision time (so
     * a later job of the batch sees it); undone if the commit fails. */
    bool applied;
};

/* "event.rounds[2].tables[5].result.vp.p7: ..." -> "result.vp.p7: ...". */
static void reason_from(char *dst, size_t cap, const char *msg)
{
    const char *r = NULL;
    if (strncmp(msg, "event.rounds[", 13) == 0)
        r = strstr(msg, ".result");
    snprintf(dst, cap, "%s", r ? r + 1 : msg);
}

int hub__armies_check(struct hub_ev *e, int32_t round,
                      const struct tny_table *mapped, char *why, size_t cap)
{
    struct tny_round *r = &e->ev.rounds[round - 1];
    for (int32_t i = 0; i < r->n_tables; i++) {
        struct tny_table *tb = &r->tables[i];
        if (tb->is_bye || tb->number != mapped->number)
            continue;
        struct tny_table keep = *tb;
        struct tny_diag inner = {{0}};
        *tb = *mapped;
        int rc = tny_event_validate_table_armies(&e->ev, round - 1, i, &inner);
        *tb = keep;
        if (rc == TNY_EINVAL || rc == TNY_ERANGE || rc == TNY_ENOTFOUND) {
            reason_from(why, cap, inner.msg);
            return TNY_EINVAL;
        }
        return rc;
    }
    return TNY_OK;
}

/* The result's key seen before: its first answer, whatever the payload
 * says now (the store logs a key reused for other data: probe). */
static int answer_again(struct hub_service *svc, const char *device_id,
                        const char *key, const struct hub_submission *probe,
                        struct hub_outbox *ob, bool *answered,
                        struct tny_diag *diag)
{
    struct hub_submit_outcome o;
    struct tny_wire_ack ack;
    struct tny_diag why = {{0}};
    int rc =
        hub_store_get_submission(svc->store, device_id, key, probe, &o, &why);
    *answered = false;
    if (rc == TNY_ENOTFOUND)
        return TNY_OK;
    if (rc < 0)
        return tny_diag_set(diag, rc, "%s", why.msg);
    ack_from_outcome(svc, &o, key, false, &ack);
    *answered = true;
    if (probe)
        HUB_LOG(HUB_LOG_INFO,
                "result repeated device=%s key=%s event=%s round=%d "
                "table=%d: %s again",
                device_id, key, probe->event_id, (int)probe->round,
                (int)probe->table, tny_wire_ack_status_name(ack.status));
    return send_ack(svc, device_id, &ack, ob, diag);
}

/* Decides a table's result (CM-6), once, on the engine's result in the
 * service's event: what the hub refuses outright is answered here (acks
 * to ob, nothing recorded); a decision to record (accepted, conflict, or
 * a rejection by the format's checks) is described in *job and *queued
 * set. */
static int result_prepare(struct hub_service *svc, const char *device_id,
                          const uint8_t *payload, size_t len, int64_t now_ms,
                          struct hub_outbox *ob, struct result_job *job,
                          bool *queued, struct tny_diag *diag)
{
    struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    struct tny_diag why = {{0}};
    struct hub_device *dev;
    struct hub_ev *e = NULL;
    char text[TNY_WIRE_NOTE_MAX];
    char actor[16 + HUB_STORE_ID_MAX];
    bool answered = false;
    int rc;

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
         * a key already recorded gets its first answer, as always. */
        struct tny_wire_submission *peek = NULL;
        memset(&sub, 0, sizeof(sub));
        if (tny_wire_peek_submission_key(payload, len, sub.key)) {
            peek = &sub;
            if ((rc = answer_again(svc, device_id, sub.key, NULL, ob, &answered,
                                   diag)) < 0 ||
                answered)
                return rc;
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

    /* The result in the engine's terms, when the hub knows its table; the
     * key's lookup below compares it with what the key first carried. */
    struct hub_submission *rec = &job->rec;
    *rec = (struct hub_submission){
        .event_id = sub.event_id,
        .round = sub.round,
        .table = sub.table,
        .device_id = job->device_id,
        .idem_key = sub.key,
    };
    snprintf(job->device_id, sizeof(job->device_id), "%s", device_id);
    struct tny_diag map_why = {{0}};
    struct tny_table *assigned = NULL;
    int map_rc = TNY_ENOTFOUND;
    int32_t n_confirmed_seated = 0;
    rc = hub__ev_get(svc, sub.event_id, &e, &why);
    if (rc < 0 && rc != TNY_ENOTFOUND)
        return tny_diag_set(diag, rc, "%s", why.msg);
    if (rc == 0 && sub.round >= 1 && sub.round == e->ev.n_rounds &&
        (assigned = hub__ev_table(e, sub.table)) != NULL) {
        enum tny_stage_kind stage = e->ev.rounds[sub.round - 1].stage;
        map_rc = tny_wire_result_to_table(&e->ev, stage, assigned, &sub.result,
                                          "result_submission.result",
                                          &job->mapped, &map_why);
        if (map_rc == 0) {
            memset(job->mapped.result.penalty, 0,
                   sizeof(job->mapped.result.penalty));
            for (int32_t i = 0; i < sub.n_confirmed; i++)
                if (seated(e, assigned, sub.confirmed[i]))
                    n_confirmed_seated++;
            /* confirmed_by ids are distinct (decode checks), so a count
             * equal to the seats means every seated player confirmed. */
            rec->confirmed = n_confirmed_seated == assigned->n_seats;
            rec->ev = &e->ev;
            rec->result = &job->mapped;
        }
    }

    /* Same key -> the first answer, whatever the payload says now. */
    if ((rc = answer_again(svc, device_id, sub.key, map_rc == 0 ? rec : NULL,
                           ob, &answered, diag)) < 0 ||
        answered)
        return rc;

    if (!e) {
        snprintf(text, sizeof(text),
                 "result_submission.event_id: no event "
                 "\"%s\" on this hub",
                 sub.event_id);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_UNKNOWN_EVENT, text,
                      ob, diag);
    }
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
    if (!assigned) {
        snprintf(text, sizeof(text),
                 "result_submission.table: round %d has "
                 "no table %d",
                 (int)sub.round, (int)sub.table);
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_TABLE, text,
                      ob, diag);
    }
    if (map_rc < 0)
        return reject(svc, device_id, &sub,
                      names_stranger(e, assigned, &sub.result)
                          ? TNY_WIRE_REASON_WRONG_PLAYERS
                          : TNY_WIRE_REASON_INVALID_RESULT,
                      map_why.msg, ob, diag);
    if (job->mapped.result.decided) /* TX-4: the organiser decides */
        return reject(svc, device_id, &sub, TNY_WIRE_REASON_INVALID_RESULT,
                      "result_submission.result.tp: a TX-4 organiser's "
                      "decision is entered by the organiser (tourney live "
                      "result enter), not at a table",
                      ob, diag);
    for (int32_t i = 0; i < sub.n_confirmed; i++) {
        if (!seated(e, assigned, sub.confirmed[i])) {
            snprintf(text, sizeof(text),
                     "result_submission.confirmed_by[%d]: \"%s\" is not a "
                     "player of table %d",
                     (int)i, sub.confirmed[i], (int)sub.table);
            return reject(svc, device_id, &sub, TNY_WIRE_REASON_WRONG_PLAYERS,
                          text, ob, diag);
        }
    }

    /* CM-6: the decision, recorded with its reason. */
    job->had_counted = assigned->has_result;
    rec->reason_text = job->reason;
    rc = hub__armies_check(e, sub.round, &job->mapped, job->reason,
                           sizeof(job->reason));
    if (rc == TNY_EINVAL) {
        rec->kind = HUB_SUBMIT_REJECTED;
        rec->reason = HUB_REASON_INVALID_RESULT;
    } else if (rc < 0) {
        return tny_diag_set(diag, rc, "NH-11 check of table %d failed",
                            (int)sub.table);
    } else if (assigned->has_result &&
               tny_result_same(&assigned->result, &job->mapped.result,
                               assigned->n_seats)) {
        rec->kind = HUB_SUBMIT_ACCEPTED; /* the same result is a no-op */
        rec->repeats_counted = true;
    } else if (assigned->has_result) {
        int64_t counted_id = 0;
        if ((rc = hub_store_counted_id(svc->store, e->id, sub.round, sub.table,
                                       &counted_id, &why)) < 0)
            return tny_diag_set(diag, rc, "%s", why.msg);
        rec->kind = HUB_SUBMIT_CONFLICT;
        rec->reason = HUB_REASON_ALREADY_CONFIRMED;
        snprintf(job->reason, sizeof(job->reason),
                 "table %d already has a different confirmed result "
                 "(result %lld): flagged for the organiser (CM-6)",
                 (int)sub.table, (long long)counted_id);
    } else {
        rec->kind = HUB_SUBMIT_ACCEPTED;
        if (!rec->confirmed)
            rec->reason = HUB_REASON_UNCONFIRMED;
        else {
            /* Counted from now on: the service's event follows its
             * decisions (a commit that fails rebuilds it). */
            assigned->result = job->mapped.result;
            assigned->has_result = true;
            hub__ev_round_changed(e, e->ev.n_rounds);
            e->round.n_results++;
            job->applied = true;
        }
    }
    *queued = true;
    return TNY_OK;
#undef sub
}

/* After the commit: the table flags, the ack.  *invalidate is set when the
 * event cache must be rebuilt (the caller does it once per batch):
 * Tantrix tables may carry organiser penalties (TX-7) that the store
 * merges into the counted result. */
static int result_finish(struct hub_service *svc, struct result_job *job,
                         const struct hub_submit_outcome *outcome,
                         bool *invalidate, struct hub_outbox *ob,
                         struct tny_diag *diag)
{
    const struct tny_wire_submission *subp = &job->sub;
#define sub (*subp)
    const char *device_id = job->device_id;
    bool confirmed = job->rec.confirmed, had_counted = job->had_counted;
    struct tny_wire_ack ack;
    struct hub_ev *e = hub__ev_find(svc, sub.event_id);
    if (!e)
        return tny_diag_set(diag, TNY_ESTATE, "event %s left the cache",
                            sub.event_id);
    struct hub_table_state *ts = hub__ev_table_state(e, sub.table);
    if (outcome->kind == HUB_SUBMIT_ACCEPTED && ts) {
        if (confirmed)
            ts->pending = false;
        else if (!had_counted)
            ts->pending = true;
    }
    if (outcome->kind == HUB_SUBMIT_CONFLICT && ts)
        ts->conflict = true;
    if (outcome->kind == HUB_SUBMIT_CONFLICT && sub.round == e->round.number)
        e->round.n_conflicts++; /* one more unresolved row (issue 17) */
    if (job->applied && tny_result_has_key(e->ev.format.game, TNY_RK_PENALTY))
        *invalidate = true;
    e->feed_dirty = true;
    ack_from_outcome(svc, outcome, sub.key,
                     had_counted && outcome->kind == HUB_SUBMIT_ACCEPTED, &ack);
    HUB_LOG(HUB_LOG_INFO,
            "result %s device=%s key=%s event=%s round=%d table=%d%s%s",
            tny_wire_ack_status_name(ack.status), device_id, sub.key,
            sub.event_id, (int)sub.round, (int)sub.table,
            ack.reason_text[0] ? ": " : "", ack.reason_text);
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

/* Records jobs[0..n-1] in one transaction, then answers each.  A decision
 * applied to the service's event that did not commit is undone by
 * rebuilding that event from the store. */
static int result_commit(struct hub_service *svc, struct result_job *jobs,
                         int32_t n, struct hub_outbox *ob,
                         struct tny_diag *diag)
{
    struct hub_submission *recs = calloc((size_t)n, sizeof(*recs));
    struct hub_submit_outcome *outs = calloc((size_t)n, sizeof(*outs));
    int rc = TNY_OK;
    if (!recs || !outs) {
        rc = TNY_ENOMEM;
        for (int32_t i = 0; i < n; i++) {
            struct hub_ev *e = hub__ev_find(svc, jobs[i].sub.event_id);
            if (jobs[i].applied && e)
                hub__ev_invalidate(e);
        }
        goto out;
    }
    for (int32_t i = 0; i < n; i++)
        recs[i] = jobs[i].rec;
    rc = hub_store_record_submissions(svc->store, n, recs, outs, diag);
    if (rc < 0)
        HUB_LOG(HUB_LOG_WARN, "%d results not stored: %s", (int)n,
                diag ? diag->msg : tny_strerror(rc));
    for (int32_t i = 0; i < n; i++) {
        struct tny_diag one = {{0}};
        bool invalidate = false;
        int irc;
        if (outs[i].rc < 0) {
            irc = outs[i].rc;
            invalidate = jobs[i].applied;
            tny_diag_set(&one, irc, "%s", outs[i].reason_text);
        } else {
            irc = result_finish(svc, &jobs[i], &outs[i], &invalidate, ob, &one);
        }
        if (irc < 0 && rc == 0) {
            HUB_LOG(HUB_LOG_ERROR,
                    "result not stored device=%s key=%s event=%s round=%d "
                    "table=%d: %s",
                    jobs[i].device_id, jobs[i].sub.key, jobs[i].sub.event_id,
                    (int)jobs[i].sub.round, (int)jobs[i].sub.table, one.msg);
            rc = irc;
            tny_diag_set(diag, irc, "%s", one.msg);
        }
        struct hub_ev *e = hub__ev_find(svc, jobs[i].sub.event_id);
        if (invalidate && e)
            hub__ev_invalidate(e);
    }
out:
    free(recs);
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
        /* Decide until a device repeats: its second message must see the
         * first one's outcome (its key recorded), so it waits a batch. */
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
            /* rec points into its job: fix the pointers after the copy. */
            for (int32_t k = 0; k < nq; k++) {
                jobs[k].rec.device_id = jobs[k].device_id;
                jobs[k].rec.idem_key = jobs[k].sub.key;
                jobs[k].rec.event_id = jobs[k].sub.event_id;
                jobs[k].rec.reason_text = jobs[k].reason;
                if (jobs[k].rec.result)
                    jobs[k].rec.result = &jobs[k].mapped;
            }
            int crc = result_commit(svc, jobs, nq, ob, &one);
            if (crc < 0 && rc == 0) {
                rc = crc;
                tny_diag_set(diag, crc, "%s", one.msg);
            }
        }
    }
    free(jobs);
    hub__model_check(svc, "results");
    return rc;
}
