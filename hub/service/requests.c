/* requests.c - the organiser console's requests (ctl/{con}/req): decode,
 * answer a repeated correlation id from the reply cache, run the command
 * (console.c), checkpoint after a round is published or closed, encode and
 * remember the reply.  Calls console.c, the outbox and the store only.
 */
#include "hub/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "hub/log.h"

static struct hub_reply_entry *reply_find(struct hub_service *svc,
                                          const char *console, const char *corr)
{
    for (int32_t i = 0; i < svc->n_replies; i++)
        if (svc->replies[i].bytes && strcmp(svc->replies[i].corr, corr) == 0 &&
            strcmp(svc->replies[i].console, console) == 0)
            return &svc->replies[i];
    return NULL;
}

/* The reply cache holds at most this many bytes, and no reply above a
 * sixteenth of it: the count bound alone (reply_cache, 1024) let it grow
 * through a day by every large reply (a round's pairing, an export of up
 * to 4 MiB; issue 23).  A large reply is a read's (export, standings,
 * log): asked again, it is answered again, the same. */
#define REPLY_CACHE_BYTES ((size_t)16 << 20)

static void reply_drop(struct hub_service *svc, struct hub_reply_entry *e)
{
    svc->reply_bytes -= e->len;
    free(e->bytes);
    e->bytes = NULL;
    e->len = 0;
    e->corr[0] = '\0';
    e->console[0] = '\0';
}

static void reply_remember(struct hub_service *svc, const char *console,
                           const char *corr, const uint8_t *bytes, size_t len)
{
    if (len > REPLY_CACHE_BYTES / 16)
        return;
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return; /* only a cache */
    memcpy(copy, bytes, len);
    /* Oldest first (the ring starts at next_reply once full, at 0 before)
     * until the new one fits. */
    for (int32_t k = 0;
         k < svc->n_replies && svc->reply_bytes + len > REPLY_CACHE_BYTES; k++)
        reply_drop(svc, &svc->replies[(svc->next_reply + k) % svc->n_replies]);
    struct hub_reply_entry *slot;
    if (svc->n_replies < svc->opt.reply_cache) {
        slot = &svc->replies[svc->n_replies++];
    } else {
        slot = &svc->replies[svc->next_reply];
        svc->next_reply = (svc->next_reply + 1) % svc->opt.reply_cache;
        reply_drop(svc, slot);
    }
    svc->reply_bytes += len;
    snprintf(slot->console, sizeof(slot->console), "%s", console);
    snprintf(slot->corr, sizeof(slot->corr), "%s", corr);
    slot->bytes = copy;
    slot->len = len;
}

int hub_service_on_request(struct hub_service *svc, const char *console_id,
                           const uint8_t *payload, size_t len, int64_t now_ms,
                           struct hub_outbox *ob, struct tny_diag *diag)
{
    struct tny_wire_request req;
    struct tny_wire_reply rep;
    struct tny_diag why = {{0}};
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t blen = 0;
    int rc;

    svc->stats.requests++;
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CTL_RESP, console_id, topic,
                             sizeof(topic), diag)) < 0)
        return rc;
    if ((rc = tny_wire_decode_request(payload, len, &req, &why)) < 0) {
        /* Answered with the reason whenever its correlation id can be
         * read, so the console says what was wrong instead of timing out.
         * Not remembered: the same bytes get the same answer again. */
        memset(&rep, 0, sizeof(rep));
        if (!tny_wire_peek_correlation_id(payload, len, rep.correlation_id)) {
            HUB_LOG(HUB_LOG_WARN,
                    "console request ignored console=%s: %s (no readable "
                    "correlation_id to answer)",
                    console_id, why.msg);
            svc->stats.ignored++;
            return TNY_OK;
        }
        HUB_LOG(HUB_LOG_WARN, "console request refused console=%s id=%s: %s",
                console_id, rep.correlation_id, why.msg);
        rep.rc = rc == TNY_ENOMEM ? TNY_ENOMEM : TNY_EINVAL;
        snprintf(rep.message, sizeof(rep.message), "%s",
                 why.msg[0] ? why.msg : tny_strerror(rep.rc));
        rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
        if (rc == TNY_EINVAL) { /* the diagnostic quoted unprintable bytes */
            snprintf(rep.message, sizeof(rep.message),
                     "console_request: malformed (%zu bytes that do not "
                     "decode)",
                     len);
            rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
        }
        if (rc < 0)
            return tny_diag_set(diag, rc, "%s", why.msg);
        return hub_outbox_add(ob, topic, buf, blen, false);
    }
    struct hub_reply_entry *seen =
        reply_find(svc, console_id, req.correlation_id);
    if (seen) {
        svc->stats.replies_cached++;
        HUB_LOG(HUB_LOG_INFO, "console repeat console=%s id=%s: stored reply",
                console_id, req.correlation_id);
        uint8_t *copy = malloc(seen->len ? seen->len : 1);
        if (!copy) {
            tny_wire_request_release(&req);
            return TNY_ENOMEM;
        }
        memcpy(copy, seen->bytes, seen->len);
        tny_wire_request_release(&req);
        return hub_outbox_add(ob, topic, copy, seen->len, false);
    }
    memset(&rep, 0, sizeof(rep));
    snprintf(rep.correlation_id, sizeof(rep.correlation_id), "%s",
             req.correlation_id);
    if (strcmp(req.organiser_id, console_id) != 0) {
        rep.rc = TNY_EINVAL;
        snprintf(rep.message, sizeof(rep.message),
                 "console_request.organiser_id: \"%s\" is not this console's "
                 "login \"%s\"",
                 req.organiser_id, console_id);
    } else if ((rc = hub__console_run(svc, console_id, &req, now_ms, ob,
                                      &rep)) < 0) {
        tny_wire_request_release(&req);
        tny_wire_reply_release(&rep);
        return rc;
    }
    if (rep.rc == 0 && (req.cmd == TNY_WIRE_CMD_PUBLISH_ROUND ||
                        req.cmd == TNY_WIRE_CMD_CLOSE_ROUND)) {
        /* A round's results go from the WAL into the database file before
         * the organiser hears the round is closed (or the next one is
         * out): from then on they survive a lost WAL (architecture.md
         * "Durability").  A failure loses nothing (the WAL has it). */
        struct tny_diag cw = {{0}};
        int crc = hub_store_checkpoint(svc->store, &cw);
        if (crc < 0)
            HUB_LOG(HUB_LOG_WARN, "checkpoint after %s event=%s: %s",
                    tny_wire_cmd_name(req.cmd), req.event_id, cw.msg);
        if (crc == TNY_ESTORE)
            ob->store_rc = crc;
    }
    if (rep.rc == TNY_ESTORE)
        ob->store_rc = rep.rc;
    if (rep.rc < 0 && !rep.message[0])
        snprintf(rep.message, sizeof(rep.message), "%s", tny_strerror(rep.rc));
    HUB_LOG(rep.rc < 0 ? HUB_LOG_WARN : HUB_LOG_INFO,
            "console %s console=%s id=%s event=%s%s%s",
            tny_wire_cmd_name(req.cmd), console_id, req.correlation_id,
            req.event_id, rep.rc < 0 ? " failed: " : " ok",
            rep.rc < 0 ? rep.message : "");
    rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
    if (rc == TNY_ERANGE || rc == TNY_EINVAL) {
        /* Too large (an export past 4 MiB) or a text the wire refuses:
         * say so instead of staying silent. */
        free(rep.json);
        rep.json = NULL;
        tny_wire_reply_drop_payload(&rep);
        rep.rc = rc;
        snprintf(rep.message, sizeof(rep.message), "reply: %.400s", why.msg);
        rc = tny_wire_encode_reply(&rep, &buf, &blen, &why);
    }
    tny_wire_reply_release(&rep);
    if (rc < 0) {
        tny_wire_request_release(&req);
        return tny_diag_set(diag, rc, "%s", why.msg);
    }
    reply_remember(svc, console_id, req.correlation_id, buf, blen);
    tny_wire_request_release(&req);
    return hub_outbox_add(ob, topic, buf, blen, false);
}
