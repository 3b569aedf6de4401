/* codes.c - the table pages' sign-in codes (issue 20).  A code is a login
 * of the venue broker's table-page listener (mosquitto's dynamic security
 * plugin): username and password are the code, and its role names exactly
 * the topics of one device, web-N, which the hub assigns to one table of
 * one event like a Pi (docs/protocol.md "Table pages").  The hub's store
 * is the truth; the plugin is told through $CONTROL/dynamic-security/v1
 * (the hub's loop sends those messages on its play-admin connection, and
 * the whole set again whenever that connection comes up).  A code expires
 * with its event: once the event is finished its logins are deleted like
 * a revoked code's (hub__codes_expire, and every sync after).
 */
#include "codes.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices.h"
#include "hub/log.h"
#include "publish.h"

/* No 0/O, 1/I/L: a code read aloud or off a slip is typed right. */
static const char code_alphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
#define CODE_LEN 8

/* A new random code (CODE_LEN characters of code_alphabet, 39.6 bits). */
static int code_new(char out[CODE_LEN + 1], struct tny_diag *diag)
{
    unsigned char r[CODE_LEN * 2];
    const size_t n = sizeof(code_alphabet) - 1;
    size_t got = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tny_diag_set(diag, TNY_ESTATE, "/dev/urandom: %s",
                            strerror(errno));
    while (got < sizeof(r)) {
        ssize_t k = read(fd, r + got, sizeof(r) - got);
        if (k <= 0) {
            close(fd);
            return tny_diag_set(diag, TNY_ESTATE, "/dev/urandom: short read");
        }
        got += (size_t)k;
    }
    close(fd);
    for (int i = 0; i < CODE_LEN; i++) {
        /* 16 random bits per character: the bias is below 1/2000. */
        unsigned v = ((unsigned)r[2 * i] << 8) | r[2 * i + 1];
        out[i] = code_alphabet[v % n];
    }
    out[CODE_LEN] = '\0';
    return TNY_OK;
}

/* The code as stored: upper case, without the dash or spaces people type.
 * Errors: TNY_EINVAL naming what is wrong. */
static int code_normalise(const char *in, char out[CODE_LEN + 1],
                          struct tny_diag *diag)
{
    int n = 0;
    for (const char *p = in; *p; p++) {
        char ch = *p;
        if (ch == '-' || ch == ' ')
            continue;
        if (ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 'a' + 'A');
        if (!strchr(code_alphabet, ch) || n == CODE_LEN)
            return tny_diag_set(diag, TNY_EINVAL,
                                "console_request.revoke_code.code: \"%s\" is "
                                "not a sign-in code (%d characters of %s)",
                                in, CODE_LEN, code_alphabet);
        out[n++] = ch;
    }
    out[n] = '\0';
    if (n != CODE_LEN)
        return tny_diag_set(diag, TNY_EINVAL,
                            "console_request.revoke_code.code: \"%s\" is "
                            "not a sign-in code (%d characters of %s)",
                            in, CODE_LEN, code_alphabet);
    return TNY_OK;
}

/* "K7QX-M3PA": how people read it. */
static void code_display(const char *code, char out[CODE_LEN + 2])
{
    snprintf(out, CODE_LEN + 2, "%.4s-%.4s", code, code + 4);
}

static json_t *acl(const char *type, const char *topic)
{
    return json_pack("{s:s, s:s, s:b}", "acltype", type, "topic", topic,
                     "allow", 1);
}

/* Whether code c has expired: its event is finished (or gone). */
static bool code_expired(struct hub_service *svc, const struct hub_code *c)
{
    struct hub_event_info info;
    struct tny_diag ignored = {{0}};
    int rc = hub_store_get_event(svc->store, c->event_id, &info, &ignored);
    return rc == TNY_ENOTFOUND ||
           (rc == TNY_OK && info.status == HUB_EVENT_FINISHED);
}

/* Appends the plugin's commands that make the code a login for its
 * device (valid) or remove it (revoked or expired) to cmds. */
static int dynsec_commands(json_t *cmds, const struct hub_code *c, bool expired)
{
    char t[HUB_STORE_ID_MAX + 64];
    const char *dev = c->device_id;
    if (c->revoked_ms || expired) {
        if (json_array_append_new(cmds, json_pack("{s:s, s:s}", "command",
                                                  "deleteClient", "username",
                                                  c->code)) < 0 ||
            json_array_append_new(cmds,
                                  json_pack("{s:s, s:s}", "command",
                                            "deleteRole", "rolename", dev)) < 0)
            return TNY_ENOMEM;
        return TNY_OK;
    }
    json_t *acls = json_array();
    if (!acls)
        return TNY_ENOMEM;
    /* Written by the device: its result and presence, its time request
     * (tourney/v1/KIND/DEVICE/LEAF), and the table's draft: the result
     * being confirmed, shared by the phones signed in with the code so
     * each player can confirm on their own (docs/protocol.md "Table
     * pages"; the hub never reads it). */
    static const char *const sends[][2] = {{"device", "result"},
                                           {"device", "presence"},
                                           {"time", "req"},
                                           {"device", "draft"}};
    /* Read by the device: its own topics and the time answer. */
    static const char *const reads[][2] = {{"device", "assign"},
                                           {"device", "ack"},
                                           {"device", "identify"},
                                           {"time", "resp"},
                                           {"device", "draft"}};
    for (size_t i = 0; i < sizeof(sends) / sizeof(sends[0]); i++) {
        snprintf(t, sizeof(t), "tourney/v1/%s/%s/%s", sends[i][0], dev,
                 sends[i][1]);
        json_array_append_new(acls, acl("publishClientSend", t));
    }
    for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
        snprintf(t, sizeof(t), "tourney/v1/%s/%s/%s", reads[i][0], dev,
                 reads[i][1]);
        json_array_append_new(acls, acl("publishClientReceive", t));
        json_array_append_new(acls, acl("subscribeLiteral", t));
    }
    /* The page knows only its code: it finds its device id by subscribing
     * to every device's assignment, of which the broker delivers only its
     * own (receive is granted above for its device alone). */
    json_array_append_new(
        acls, acl("subscribeLiteral", "tourney/v1/device/+/assign"));
    json_array_append_new(acls,
                          acl("subscribeLiteral", "tourney/v1/device/+/ack"));
    /* Every login reads the hub's state and the round clocks (as the
     * venue ACL's pattern lines give every table). */
    json_array_append_new(acls,
                          acl("publishClientReceive", "tourney/v1/hub/state"));
    json_array_append_new(acls,
                          acl("subscribeLiteral", "tourney/v1/hub/state"));
    json_array_append_new(
        acls, acl("publishClientReceive", "tourney/v1/event/+/clock"));
    json_array_append_new(acls,
                          acl("subscribePattern", "tourney/v1/event/+/clock"));
    if (json_array_append_new(cmds, json_pack("{s:s, s:s, s:o}", "command",
                                              "createRole", "rolename", dev,
                                              "acls", acls)) < 0)
        return TNY_ENOMEM;
    if (json_array_append_new(
            cmds, json_pack("{s:s, s:s, s:s, s:[{s:s}]}", "command",
                            "createClient", "username", c->code, "password",
                            c->code, "roles", "rolename", dev)) < 0)
        return TNY_ENOMEM;
    return TNY_OK;
}

/* Queues one message of the plugin's commands for the codes. */
static int dynsec_send(struct hub_service *svc, const struct hub_code *codes,
                       int32_t n, struct hub_outbox *ob)
{
    json_t *cmds = json_array();
    int rc = cmds ? TNY_OK : TNY_ENOMEM;
    for (int32_t i = 0; rc == TNY_OK && i < n; i++)
        rc = dynsec_commands(cmds, &codes[i],
                             !codes[i].revoked_ms &&
                                 code_expired(svc, &codes[i]));
    json_t *root = rc == TNY_OK ? json_pack("{s:o}", "commands", cmds) : NULL;
    if (!root) {
        if (rc == TNY_OK)
            rc = TNY_ENOMEM;
        else
            json_decref(cmds);
        return rc;
    }
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!text)
        return TNY_ENOMEM;
    return hub_outbox_add(ob, HUB_DYNSEC_TOPIC, (uint8_t *)text, strlen(text),
                          false);
}

int hub_service_codes_sync(struct hub_service *svc, struct hub_outbox *ob,
                           struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    int32_t n = 0;
    int rc = hub_store_codes_list(svc->store, NULL, &codes, &n, diag);
    if (rc < 0)
        return rc;
    if (n > 0)
        rc = dynsec_send(svc, codes, n, ob);
    free(codes);
    return rc;
}

int hub__codes_expire(struct hub_service *svc, const struct hub_ev *e,
                      struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    int32_t n = 0, valid = 0;
    int rc = hub_store_codes_list(svc->store, e->id, &codes, &n, diag);
    if (rc < 0)
        return rc;
    for (int32_t i = 0; i < n; i++)
        if (!codes[i].revoked_ms)
            codes[valid++] = codes[i];
    if (valid > 0 && (rc = dynsec_send(svc, codes, valid, ob)) < 0)
        rc = tny_diag_set(diag, rc, "code: %s", tny_strerror(rc));
    else if (valid > 0)
        HUB_LOG(HUB_LOG_INFO, "codes expired event=%s codes=%d", e->id,
                (int)valid);
    free(codes);
    return rc;
}

int hub__code_issue(struct hub_service *svc, struct hub_ev *e,
                    const struct tny_wire_request *q, const char *actor,
                    int64_t now_ms, struct hub_outbox *ob,
                    struct tny_wire_reply *rep, struct tny_diag *diag)
{
    struct hub_code c = {0};
    struct hub_code *all = NULL;
    struct hub_device *d = NULL;
    char shown[CODE_LEN + 2];
    int32_t n = 0;
    int rc;
    if (!svc->opt.codes)
        return tny_diag_set(diag, TNY_ESTATE,
                            "sign-in codes need the hub's play_broker_uri "
                            "(the venue broker's table-page listener, "
                            "gen-config.sh --table-ws-port): not set");
    if (q->table < 1)
        return tny_diag_set(diag, TNY_EINVAL,
                            "console_request.issue_code.table: expected 1 or "
                            "more, got %d",
                            (int)q->table);
    if (e->info.status == HUB_EVENT_FINISHED)
        return tny_diag_set(diag, TNY_ESTATE,
                            "event \"%s\" is finished: its codes have "
                            "expired, no new one",
                            e->id);
    /* The next device login: web-1, web-2, ... (never reused). */
    if ((rc = hub_store_codes_list(svc->store, NULL, &all, &n, diag)) < 0)
        return rc;
    free(all);
    snprintf(c.device_id, sizeof(c.device_id), HUB_WEB_DEVICE_PREFIX "%d",
             (int)n + 1);
    if ((rc = code_new(c.code, diag)) < 0)
        return rc;
    snprintf(c.event_id, sizeof(c.event_id), "%s", e->id);
    c.table = q->table;
    if ((rc = hub__device_ensure(svc, c.device_id, actor, &d, diag)) < 0 ||
        (rc = hub_store_device_assign(svc->store, d->id, e->id, q->table, actor,
                                      diag)) < 0 ||
        (rc = hub__device_refresh(svc, d, diag)) < 0 ||
        (rc = hub_store_code_add(svc->store, c.code, c.device_id, e->id,
                                 q->table, actor, diag)) < 0)
        return rc;
    e->feed_dirty = true;
    if ((rc = hub__publish_device(svc, d, now_ms, ob, diag)) < 0)
        return rc;
    if ((rc = dynsec_send(svc, &c, 1, ob)) < 0)
        return tny_diag_set(diag, rc, "code: %s", tny_strerror(rc));
    code_display(c.code, shown);
    HUB_LOG(HUB_LOG_INFO, "code issued event=%s table=%d device=%s", e->id,
            (int)q->table, c.device_id);
    snprintf(rep->message, sizeof(rep->message),
             "table %d: sign-in code %s (device %s)", (int)q->table, shown,
             c.device_id);
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:s}", "code", shown, "device",
                          c.device_id, "event", e->id, "table", (int)q->table,
                          "query", c.code);
    rep->json = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return TNY_OK;
}

int hub__code_revoke(struct hub_service *svc, struct hub_ev *e,
                     const struct tny_wire_request *q, const char *actor,
                     int64_t now_ms, struct hub_outbox *ob,
                     struct tny_wire_reply *rep, struct tny_diag *diag)
{
    char code[CODE_LEN + 1], shown[CODE_LEN + 2];
    struct hub_code c;
    int rc;
    if ((rc = code_normalise(q->code, code, diag)) < 0 ||
        (rc = hub_store_code_revoke(svc->store, code, actor, &c, diag)) < 0)
        return rc;
    if (strcmp(c.event_id, e->id) != 0)
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "code \"%s\": not a code of event \"%s\"", q->code,
                            e->id);
    struct hub_device *d = hub__device_find(svc, c.device_id);
    if (d && d->event[0] && strcmp(d->event, e->id) == 0) {
        if ((rc = hub_store_device_assign(svc->store, d->id, NULL, 0, actor,
                                          diag)) < 0 ||
            (rc = hub__device_refresh(svc, d, diag)) < 0 ||
            (rc = hub__publish_device(svc, d, now_ms, ob, diag)) < 0)
            return rc;
        e->feed_dirty = true;
    }
    if ((rc = dynsec_send(svc, &c, 1, ob)) < 0)
        return tny_diag_set(diag, rc, "code: %s", tny_strerror(rc));
    code_display(c.code, shown);
    HUB_LOG(HUB_LOG_INFO, "code revoked event=%s table=%d device=%s", e->id,
            (int)c.table, c.device_id);
    snprintf(rep->message, sizeof(rep->message),
             "code %s revoked (table %d, device %s)", shown, (int)c.table,
             c.device_id);
    return TNY_OK;
}

int hub__code_list(struct hub_service *svc, struct hub_ev *e,
                   struct tny_wire_reply *rep, struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    int32_t n = 0;
    char shown[CODE_LEN + 2];
    int rc = hub_store_codes_list(svc->store, e->id, &codes, &n, diag);
    if (rc < 0)
        return rc;
    json_t *arr = json_array();
    for (int32_t i = 0; arr && i < n; i++) {
        const struct hub_code *c = &codes[i];
        const struct hub_device *d = hub__device_find(svc, c->device_id);
        code_display(c->code, shown);
        json_array_append_new(
            arr,
            json_pack("{s:s, s:i, s:s, s:s, s:I, s:s, s:b}", "code", shown,
                      "table", (int)c->table, "device", c->device_id, "state",
                      c->revoked_ms                          ? "revoked"
                      : e->info.status == HUB_EVENT_FINISHED ? "expired"
                                                             : "valid",
                      "issued_ms", (json_int_t)c->issued_ms, "issued_by",
                      c->issued_by, "online",
                      d && d->state == TNY_WIRE_PRESENCE_ONLINE));
    }
    free(codes);
    if (!arr)
        return TNY_ENOMEM;
    rep->count = (uint64_t)n;
    rep->json = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    return rep->json ? TNY_OK : TNY_ENOMEM;
}
