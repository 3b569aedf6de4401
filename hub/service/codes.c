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
#include "reply_records.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "devices.h"
#include "events.h"
#include "hub/log.h"
#include "publish.h"
#include "tny/score.h"

/* No 0/O, 1/I/L: a code read aloud or off a slip is typed right. */
static const char code_alphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
#define CODE_LEN 8

/* A new random code (CODE_LEN characters of code_alphabet, 39.6 bits)
 * from the kernel's random source (getrandom: no descriptor to open). */
static int code_new(char out[CODE_LEN + 1], struct tny_diag *diag)
{
    unsigned char r[CODE_LEN * 2];
    const size_t n = sizeof(code_alphabet) - 1;
    size_t got = 0;
    while (got < sizeof(r)) {
        ssize_t k = getrandom(r + got, sizeof(r) - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return tny_diag_set(diag, TNY_ESTATE, "getrandom: %s",
                                k < 0 ? strerror(errno) : "no bytes");
        got += (size_t)k;
    }
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

/* ---- what a code is now ---------------------------------------------------
 *
 * A code's target: its state (valid, revoked, expired with its event, or
 * a player code of a dropped player), the device whose role it holds (a
 * table code: its own web-N; a player code: the page device of the
 * player's table in the event's current round, made when the table has
 * none, or none) and the CodeStatus its pages read.  The hub remembers
 * what it last told the broker and the pages of each login (svc's
 * code_seen) and sends only what changed: a player code is re-pointed
 * when the round moves its player, which signs its pages out and in
 * again (the broker drops a deleted client's connections). */

struct hub_code_seen {
    char login[32];
    char role_dev[HUB_STORE_ID_MAX + 1];
    int state;
    uint64_t status_hash;
    /* A player code's pages: one of them is signed in (their own
     * code/{login}/presence, not the shared table device's). */
    bool online;
};

void hub__codes_forget(struct hub_service *svc)
{
    /* Told again in full next time (state 0: fresh); whether the pages
     * are signed in is the broker's news, kept. */
    for (int32_t i = 0; i < svc->n_code_seen; i++) {
        svc->code_seen[i].state = 0;
        svc->code_seen[i].role_dev[0] = '\0';
        svc->code_seen[i].status_hash = 0;
    }
}

static struct hub_code_seen *seen_find(struct hub_service *svc,
                                       const char *login)
{
    for (int32_t i = 0; i < svc->n_code_seen; i++)
        if (strcmp(svc->code_seen[i].login, login) == 0)
            return &svc->code_seen[i];
    return NULL;
}

static struct hub_code_seen *seen_get(struct hub_service *svc,
                                      const char *login)
{
    struct hub_code_seen *x = seen_find(svc, login);
    if (x)
        return x;
    if (svc->n_code_seen == svc->cap_code_seen) {
        int32_t cap = svc->cap_code_seen ? svc->cap_code_seen * 2 : 32;
        struct hub_code_seen *m =
            realloc(svc->code_seen, sizeof(*m) * (size_t)cap);
        if (!m)
            return NULL;
        svc->code_seen = m;
        svc->cap_code_seen = cap;
    }
    x = &svc->code_seen[svc->n_code_seen++];
    memset(x, 0, sizeof(*x));
    snprintf(x->login, sizeof(x->login), "%s", login);
    return x;
}

/* The next web-N: above every code's number and every web device. */
static int32_t next_web_number(struct hub_service *svc, int32_t n_codes)
{
    int32_t top = n_codes;
    size_t plen = strlen(HUB_WEB_DEVICE_PREFIX);
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (hub__device_is_web(svc->devices[i].id)) {
            long v = strtol(svc->devices[i].id + plen, NULL, 10);
            if (v > top && v < INT32_MAX)
                top = (int32_t)v;
        }
    return top + 1;
}

/* The device at table `table` of event e, or NULL. */
static struct hub_device *table_device(struct hub_service *svc,
                                       const struct hub_ev *e, int32_t table)
{
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (svc->devices[i].table == table &&
            strcmp(svc->devices[i].event, e->id) == 0)
            return &svc->devices[i];
    return NULL;
}

/* Whether player p of e (NULL: withdrawn) can no longer use a code: gone,
 * or dropped / disqualified with the current round behind them (a player
 * dropped after the round being played keeps the code until it closes:
 * their table's result needs them). */
static bool player_gone(const struct hub_ev *e, const struct tny_player *p)
{
    int32_t cur = e->ev.n_rounds;
    if (!p)
        return true;
    if (tny_player_active_in(p, cur + 1))
        return false;
    if (cur == 0)
        return true; /* a no-show withdrawn or dropped before round 1 */
    return !tny_player_active_in(p, cur) || e->round.status == HUB_ROUND_CLOSED;
}

/* A player's seat in round r of e: *table (0 = a bye or not seated),
 * *seat (1-based) and *bye (the player has the round's bye). */
static void player_seat(const struct hub_ev *e, int32_t r, int32_t ix,
                        int32_t *table, int32_t *seat, bool *bye)
{
    *table = *seat = 0;
    *bye = false;
    if (r < 1 || r > e->ev.n_rounds)
        return;
    const struct tny_round *rd = &e->ev.rounds[r - 1];
    for (int32_t t = 0; t < rd->n_tables; t++) {
        const struct tny_table *tb = &rd->tables[t];
        for (int32_t s = 0; s < tb->n_seats; s++)
            if (tb->seats[s] == ix && tb->is_bye) {
                *bye = true;
                return;
            } else if (tb->seats[s] == ix) {
                *table = tb->number;
                *seat = s + 1;
                return;
            }
    }
}

/* The seats of table `table` in round r of e (0: no such table). */
static int32_t table_seats(const struct hub_ev *e, int32_t r, int32_t table)
{
    if (r < 1 || r > e->ev.n_rounds || table < 1)
        return 0;
    const struct tny_round *rd = &e->ev.rounds[r - 1];
    for (int32_t t = 0; t < rd->n_tables; t++)
        if (rd->tables[t].number == table && !rd->tables[t].is_bye)
            return rd->tables[t].n_seats;
    return 0;
}

/* Computes c's target: *st (version left 0), role_dev (a device id or "").
 * create: a player's table without a device gets a page device (web-N,
 * assigned to that table and published: ob); otherwise it has none yet.
 * reqs: the event's player requests. */
static int code_target(struct hub_service *svc, const struct hub_code *c,
                       const struct hub_player_request *reqs, int32_t n_reqs,
                       int32_t n_codes, bool create, const char *actor,
                       int64_t now_ms, struct hub_outbox *ob,
                       struct tny_wire_code_status *st,
                       char role_dev[HUB_STORE_ID_MAX + 1],
                       struct tny_diag *diag)
{
    struct hub_ev *e = NULL;
    int rc = hub__ev_get(svc, c->event_id, &e, diag);
    memset(st, 0, sizeof(*st));
    role_dev[0] = '\0';
    snprintf(st->event_id, sizeof(st->event_id), "%s", c->event_id);
    if (rc == TNY_ENOTFOUND) {
        st->state = TNY_WIRE_CODE_EXPIRED;
        return TNY_OK;
    }
    if (rc < 0)
        return rc;
    snprintf(st->event_title, sizeof(st->event_title), "%s",
             e->info.title[0] ? e->info.title : "");
    /* the page's words in the event's language from the sign-in on */
    snprintf(st->language, sizeof(st->language), "%s", e->ev.language);
    st->round = e->ev.n_rounds;
    st->state = c->revoked_ms                          ? TNY_WIRE_CODE_REVOKED
                : e->info.status == HUB_EVENT_FINISHED ? TNY_WIRE_CODE_EXPIRED
                                                       : TNY_WIRE_CODE_VALID;
    if (!c->player_id[0]) {
        st->table = c->table;
        if (st->state == TNY_WIRE_CODE_VALID)
            snprintf(role_dev, HUB_STORE_ID_MAX + 1, "%s", c->device_id);
        return TNY_OK;
    }
    int32_t ix = tny_event_player_index(&e->ev, c->player_id);
    const struct tny_player *p = ix >= 0 ? &e->ev.players[ix] : NULL;
    snprintf(st->player_id, sizeof(st->player_id), "%s", c->player_id);
    if (p && p->name)
        snprintf(st->name, sizeof(st->name), "%s", p->name);
    for (int32_t i = 0; i < n_reqs; i++)
        if (strcmp(reqs[i].player_id, c->player_id) == 0) {
            if (reqs[i].kind == HUB_PLAYER_CHECK_IN)
                st->checked_in = true;
            else if (!reqs[i].confirmed_ms)
                st->drop_requested = true;
        }
    if (st->state == TNY_WIRE_CODE_VALID && player_gone(e, p))
        st->state = TNY_WIRE_CODE_DROPPED;
    if (st->state != TNY_WIRE_CODE_VALID)
        return TNY_OK;
    player_seat(e, st->round, ix, &st->table, &st->seat, &st->bye);
    if (st->bye)
        st->bye_points = tny_bye_points(&e->ev, st->round - 1);
    if (!st->table)
        return TNY_OK;
    struct hub_device *d = table_device(svc, e, st->table);
    if (d && !hub__device_is_web(d->id)) {
        /* A Pi's table: its results go through the Pi. */
        snprintf(st->table_device, sizeof(st->table_device), "%s", d->id);
        return TNY_OK;
    }
    if (!d && create) {
        char id[HUB_STORE_ID_MAX + 1];
        snprintf(id, sizeof(id), HUB_WEB_DEVICE_PREFIX "%d",
                 (int)next_web_number(svc, n_codes));
        if ((rc = hub__device_ensure(svc, id, actor, &d, diag)) < 0 ||
            (rc = hub_store_device_assign(svc->store, d->id, e->id, st->table,
                                          actor, diag)) < 0 ||
            (rc = hub__device_refresh(svc, d, diag)) < 0 ||
            (rc = hub__publish_device(svc, d, now_ms, ob, diag)) < 0)
            return rc;
        e->feed_dirty = true;
        HUB_LOG(HUB_LOG_INFO,
                "page device made event=%s table=%d device=%s (player codes)",
                e->id, (int)st->table, d->id);
    }
    if (d)
        snprintf(role_dev, HUB_STORE_ID_MAX + 1, "%s", d->id);
    return TNY_OK;
}

/* Appends createRole for device dev's role (its table's topics). */
static int device_role(json_t *cmds, const char *dev)
{
    char t[HUB_STORE_ID_MAX + 64];
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
    return TNY_OK;
}

/* Appends createRole for the code's own role: "login-ID" (a valid player
 * code: its status, its requests and their answers) or "ended-ID" (a code
 * that no longer works: its status alone, which says why). */
static int login_role(json_t *cmds, const char *role, const char *login,
                      bool requests)
{
    char t[HUB_STORE_ID_MAX + 64];
    json_t *acls = json_array();
    if (!acls)
        return TNY_ENOMEM;
    snprintf(t, sizeof(t), "tourney/v1/code/%s/status", login);
    json_array_append_new(acls, acl("publishClientReceive", t));
    json_array_append_new(acls, acl("subscribeLiteral", t));
    /* As device/+/assign: the page learns its login from its status. */
    json_array_append_new(acls,
                          acl("subscribeLiteral", "tourney/v1/code/+/status"));
    if (requests) {
        snprintf(t, sizeof(t), "tourney/v1/code/%s/req", login);
        json_array_append_new(acls, acl("publishClientSend", t));
        snprintf(t, sizeof(t), "tourney/v1/code/%s/ack", login);
        json_array_append_new(acls, acl("publishClientReceive", t));
        json_array_append_new(acls, acl("subscribeLiteral", t));
        json_array_append_new(acls,
                              acl("subscribeLiteral", "tourney/v1/code/+/ack"));
        /* Signed in or not (item 6): the pages' own presence and will. */
        snprintf(t, sizeof(t), "tourney/v1/code/%s/presence", login);
        json_array_append_new(acls, acl("publishClientSend", t));
    }
    if (json_array_append_new(cmds, json_pack("{s:s, s:s, s:o}", "command",
                                              "createRole", "rolename", role,
                                              "acls", acls)) < 0)
        return TNY_ENOMEM;
    return TNY_OK;
}

static int plain(json_t *cmds, const char *command, const char *key,
                 const char *value)
{
    return json_array_append_new(cmds, json_pack("{s:s, s:s}", "command",
                                                 command, key, value)) < 0
               ? TNY_ENOMEM
               : TNY_OK;
}

/* Appends createClient: the code's login with that one role. */
static int client_with_role(json_t *cmds, const char *code, const char *role)
{
    return json_array_append_new(
               cmds, json_pack("{s:s, s:s, s:s, s:[{s:s}]}", "command",
                               "createClient", "username", code, "password",
                               code, "roles", "rolename", role)) < 0
               ? TNY_ENOMEM
               : TNY_OK;
}

/* Appends the plugin's commands that make code c's login what its target
 * says.  fresh: the broker may hold an older login for it (a sync, or a
 * change): it is deleted first, which signs its pages out (they sign in
 * again at once and read their new rights).  A valid table code is only
 * created (an existing one is already right: its rights never change). */
static int dynsec_commands(json_t *cmds, const struct hub_code *c, int state,
                           const char *role_dev)
{
    char role[HUB_STORE_ID_MAX + 16];
    int rc = TNY_OK;
    const char *login = c->device_id;
    if (state == TNY_WIRE_CODE_VALID && !c->player_id[0]) {
        if ((rc = device_role(cmds, login)) < 0)
            return rc;
        return client_with_role(cmds, c->code, login);
    }
    if ((rc = plain(cmds, "deleteClient", "username", c->code)) < 0)
        return rc;
    if (state != TNY_WIRE_CODE_VALID) {
        /* Its table's role goes with a table code (a player code's pages
         * at that table lose it too: hub__codes_follow points them at a
         * new page device). */
        if (!c->player_id[0] &&
            (rc = plain(cmds, "deleteRole", "rolename", login)) < 0)
            return rc;
        snprintf(role, sizeof(role), "login-%s", login);
        if (c->player_id[0] &&
            (rc = plain(cmds, "deleteRole", "rolename", role)) < 0)
            return rc;
        snprintf(role, sizeof(role), "ended-%s", login);
        if ((rc = login_role(cmds, role, login, false)) < 0)
            return rc;
        return client_with_role(cmds, c->code, role);
    }
    snprintf(role, sizeof(role), "login-%s", login);
    if ((rc = login_role(cmds, role, login, true)) < 0)
        return rc;
    /* A login role made before code/{login}/presence existed is kept by
     * createRole ("already exists"): the ACL added to it (an existing
     * one: "already exists" too). */
    char t[HUB_STORE_ID_MAX + 64];
    snprintf(t, sizeof(t), "tourney/v1/code/%s/presence", login);
    if (json_array_append_new(
            cmds, json_pack("{s:s, s:s, s:s, s:s, s:b}", "command",
                            "addRoleACL", "rolename", role, "acltype",
                            "publishClientSend", "topic", t, "allow", 1)) < 0)
        return TNY_ENOMEM;
    if (role_dev[0] && (rc = device_role(cmds, role_dev)) < 0)
        return rc;
    json_t *roles = role_dev[0] ? json_pack("[{s:s}, {s:s}]", "rolename", role,
                                            "rolename", role_dev)
                                : json_pack("[{s:s}]", "rolename", role);
    if (!roles || json_array_append_new(
                      cmds, json_pack("{s:s, s:s, s:s, s:o}", "command",
                                      "createClient", "username", c->code,
                                      "password", c->code, "roles", roles)) < 0)
        return TNY_ENOMEM;
    return TNY_OK;
}

/* Queues cmds (consumed) as one message of the plugin's commands. */
static int dynsec_queue(json_t *cmds, struct hub_outbox *ob)
{
    if (json_array_size(cmds) == 0) {
        json_decref(cmds);
        return TNY_OK;
    }
    json_t *root = json_pack("{s:o}", "commands", cmds);
    if (!root)
        return TNY_ENOMEM;
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!text)
        return TNY_ENOMEM;
    return hub_outbox_add(ob, HUB_DYNSEC_TOPIC, (uint8_t *)text, strlen(text),
                          false);
}

static uint64_t status_hash(const struct tny_wire_code_status *st)
{
    uint64_t h = 1469598103934665603ull;
    char buf[1024];
    int n = snprintf(
        buf, sizeof(buf), "%d|%s|%s|%s|%s|%d|%d|%d|%d|%d|%s|%s|%d|%lld",
        (int)st->state, st->event_id, st->event_title, st->player_id, st->name,
        (int)st->round, (int)st->table, (int)st->seat, (int)st->checked_in,
        (int)st->drop_requested, st->table_device, st->language, (int)st->bye,
        (long long)st->bye_points);
    for (int i = 0; i < n && i < (int)sizeof(buf); i++)
        h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
    return h;
}

/* Publishes st (retained) on the code's status topic. */
static int status_publish(struct hub_service *svc, const char *login,
                          struct tny_wire_code_status *st, int64_t now_ms,
                          struct hub_outbox *ob, struct tny_diag *diag)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    st->version = hub__next_version(svc, now_ms);
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CODE_STATUS, login, topic,
                             sizeof(topic), diag)) < 0 ||
        (rc = tny_wire_encode_code_status(st, &buf, &len, diag)) < 0)
        return rc;
    return hub_outbox_add(ob, topic, buf, len, true);
}

/* The codes of event_id (NULL: all): each one whose target changed since
 * the hub last said (all: every one) is told to the broker and its pages. */
static int codes_update(struct hub_service *svc, const char *event_id, bool all,
                        bool create, const char *actor, int64_t now_ms,
                        struct hub_outbox *ob, struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    struct hub_player_request *reqs = NULL;
    int32_t n = 0, n_reqs = 0, n_all = 0, changed = 0;
    char req_event[HUB_STORE_ID_MAX + 1] = "";
    json_t *cmds = json_array();
    int rc = cmds ? TNY_OK : TNY_ENOMEM;
    if (rc == TNY_OK)
        rc = hub_store_codes_list(svc->store, event_id, &codes, &n, diag);
    if (rc == TNY_OK && event_id && n > 0) {
        struct hub_code *every = NULL;
        rc = hub_store_codes_list(svc->store, NULL, &every, &n_all, diag);
        free(every);
    } else {
        n_all = n;
    }
    for (int32_t i = 0; rc == TNY_OK && i < n; i++) {
        const struct hub_code *c = &codes[i];
        struct tny_wire_code_status st;
        char role_dev[HUB_STORE_ID_MAX + 1];
        if (c->player_id[0] && strcmp(req_event, c->event_id) != 0) {
            free(reqs);
            reqs = NULL;
            n_reqs = 0;
            snprintf(req_event, sizeof(req_event), "%s", c->event_id);
            if ((rc = hub_store_player_requests_list(svc->store, c->event_id,
                                                     &reqs, &n_reqs, diag)) < 0)
                break;
        }
        if ((rc = code_target(svc, c, reqs, c->player_id[0] ? n_reqs : 0, n_all,
                              create, actor, now_ms, ob, &st, role_dev, diag)) <
            0)
            break;
        struct hub_code_seen *seen = seen_get(svc, c->device_id);
        if (!seen) {
            rc = TNY_ENOMEM;
            break;
        }
        bool fresh = seen->state == 0;
        if (all || fresh || seen->state != (int)st.state ||
            strcmp(seen->role_dev, role_dev) != 0) {
            if ((rc = dynsec_commands(cmds, c, (int)st.state, role_dev)) < 0)
                break;
            changed++;
        }
        uint64_t h = status_hash(&st);
        if (all || fresh || h != seen->status_hash) {
            if ((rc = status_publish(svc, c->device_id, &st, now_ms, ob,
                                     diag)) < 0)
                break;
        }
        seen->state = (int)st.state;
        seen->status_hash = h;
        snprintf(seen->role_dev, sizeof(seen->role_dev), "%s", role_dev);
    }
    free(codes);
    free(reqs);
    if (rc < 0) {
        json_decref(cmds);
        hub__codes_forget(svc); /* told again in full next time */
        return rc;
    }
    if ((rc = dynsec_queue(cmds, ob)) < 0)
        return tny_diag_set(diag, rc, "code: %s", tny_strerror(rc));
    if (changed && event_id)
        HUB_LOG(HUB_LOG_INFO, "codes updated event=%s logins=%d", event_id,
                (int)changed);
    return TNY_OK;
}

int hub_service_codes_sync(struct hub_service *svc, struct hub_outbox *ob,
                           struct tny_diag *diag)
{
    return codes_update(svc, NULL, true, false, "hub", 0, ob, diag);
}

int hub__codes_follow(struct hub_service *svc, struct hub_ev *e,
                      const char *actor, int64_t now_ms, struct hub_outbox *ob,
                      struct tny_diag *diag)
{
    return codes_update(svc, e->id, false, true, actor, now_ms, ob, diag);
}

int hub__codes_expire(struct hub_service *svc, const struct hub_ev *e,
                      struct hub_outbox *ob, struct tny_diag *diag)
{
    HUB_LOG(HUB_LOG_INFO, "codes expire event=%s", e->id);
    return codes_update(svc, e->id, false, false, "hub", 0, ob, diag);
}

int hub__codes_drop(struct hub_service *svc, const struct hub_ev *e,
                    int32_t *n_codes, struct hub_outbox *ob,
                    struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    int32_t n = 0;
    json_t *cmds = json_array();
    int rc = cmds ? TNY_OK : TNY_ENOMEM;
    if (rc == TNY_OK)
        rc = hub_store_codes_list(svc->store, e->id, &codes, &n, diag);
    for (int32_t i = 0; rc == TNY_OK && i < n; i++) {
        const char *login = codes[i].device_id;
        char role[HUB_STORE_ID_MAX + 16], topic[TNY_WIRE_TOPIC_MAX];
        /* Its login; its rights: a table code's web-N role or a player
         * code's own one, and the status-only role of an ended code
         * (a role it never had is refused by the plugin, harmlessly). */
        rc = plain(cmds, "deleteClient", "username", codes[i].code);
        if (rc == TNY_OK && !codes[i].player_id[0])
            rc = plain(cmds, "deleteRole", "rolename", login);
        snprintf(role, sizeof(role), "login-%s", login);
        if (rc == TNY_OK && codes[i].player_id[0])
            rc = plain(cmds, "deleteRole", "rolename", role);
        snprintf(role, sizeof(role), "ended-%s", login);
        if (rc == TNY_OK)
            rc = plain(cmds, "deleteRole", "rolename", role);
        if (rc == TNY_OK &&
            (rc = tny_wire_topic(TNY_WIRE_TOPIC_CODE_STATUS, login, topic,
                                 sizeof(topic), diag)) == TNY_OK)
            rc = hub_outbox_add(ob, topic, NULL, 0, true);
        struct hub_code_seen *seen = seen_find(svc, login);
        if (seen) { /* a login made again later is told in full */
            seen->state = 0;
            seen->role_dev[0] = '\0';
            seen->status_hash = 0;
            seen->online = false;
        }
    }
    free(codes);
    if (rc < 0) {
        json_decref(cmds);
        return diag->msg[0] ? rc : tny_diag_set(diag, rc, "out of memory");
    }
    if ((rc = dynsec_queue(cmds, ob)) < 0)
        return tny_diag_set(diag, rc, "code: %s", tny_strerror(rc));
    *n_codes = n;
    if (n > 0)
        HUB_LOG(HUB_LOG_INFO,
                "codes deleted with their event event=%s logins=%d", e->id,
                (int)n);
    return TNY_OK;
}

int hub__code_issue(struct hub_service *svc, struct hub_ev *e,
                    const struct tny_wire_request *q, const char *actor,
                    int64_t now_ms, struct hub_outbox *ob,
                    struct tny_wire_reply *rep, bool *touched,
                    struct tny_diag *diag)
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
    /* Issue 17: every refusal below comes before the first write (the
     * command changes the service's memory in place). */
    if ((rc = hub_store_codes_list(svc->store, NULL, &all, &n, diag)) < 0)
        return rc;
    /* A table already shown by a page device (web-N) its players' own
     * codes made: the table code joins that device (a shared phone at the
     * table next to the players' phones, every seat confirmable on it).
     * A Pi's table, or one that has its table code, is refused by what
     * each needs instead. */
    struct hub_device *shown_by = table_device(svc, e, q->table);
    for (int32_t i = 0; shown_by && i < n; i++)
        if (strcmp(all[i].device_id, shown_by->id) == 0) {
            code_display(all[i].code, shown);
            rc = tny_diag_set(
                diag, TNY_ECONFLICT,
                "event \"%s\": table %d already has device \"%s\" with "
                "code %s%s: %s",
                e->id, (int)q->table, shown_by->id, shown,
                all[i].revoked_ms ? " (revoked)" : "",
                all[i].revoked_ms ? "unassign the device first (`device "
                                    "assign DEVICE EVENT 0`)"
                                  : "a second phone signs in with the same "
                                    "code; to replace it, revoke it first");
            break;
        }
    free(all);
    if (rc < 0)
        return rc;
    if (shown_by && !hub__device_is_web(shown_by->id))
        return tny_diag_set(
            diag, TNY_ECONFLICT,
            "event \"%s\": table %d already has device \"%s\" (a table "
            "device, not a phone): its results go through it; to put a "
            "phone there instead, unassign it first (`device assign %s %s "
            "0`)",
            e->id, (int)q->table, shown_by->id, shown_by->id, e->id);
    /* The next device login: web-1, web-2, ... (never reused; the page
     * devices made for player codes count too); or the players' one. */
    if (shown_by)
        snprintf(c.device_id, sizeof(c.device_id), "%.*s",
                 (int)sizeof(c.device_id) - 1, shown_by->id);
    else
        snprintf(c.device_id, sizeof(c.device_id), HUB_WEB_DEVICE_PREFIX "%d",
                 (int)next_web_number(svc, n));
    if ((rc = code_new(c.code, diag)) < 0)
        return rc;
    snprintf(c.event_id, sizeof(c.event_id), "%s", e->id);
    c.table = q->table;
    *touched = true; /* from here a failure reads the registry back */
    if ((rc = hub__device_ensure(svc, c.device_id, actor, &d, diag)) < 0 ||
        (rc = hub_store_device_assign(svc->store, d->id, e->id, q->table, actor,
                                      diag)) < 0 ||
        (rc = hub__device_refresh(svc, d, diag)) < 0 ||
        (rc = hub_store_code_add(svc->store, c.code, c.device_id, e->id,
                                 q->table, actor, diag)) < 0)
        return rc;
    e->feed_dirty = true;
    /* The broker's login: hub__codes_follow, after the command. */
    if ((rc = hub__publish_device(svc, d, now_ms, ob, diag)) < 0)
        return rc;
    code_display(c.code, shown);
    HUB_LOG(HUB_LOG_INFO, "code issued event=%s table=%d device=%s", e->id,
            (int)q->table, c.device_id);
    snprintf(rep->message, sizeof(rep->message),
             "table %d: sign-in code %s (device %s)", (int)q->table, shown,
             c.device_id);
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:s}", "code", shown, "device",
                          c.device_id, "event", e->id, "table", (int)q->table,
                          "query", c.code);
    return hub__reply_records(rep, o);
}

int hub__code_revoke(struct hub_service *svc, struct hub_ev *e,
                     const struct tny_wire_request *q, const char *actor,
                     int64_t now_ms, struct hub_outbox *ob,
                     struct tny_wire_reply *rep, bool *touched,
                     struct tny_diag *diag)
{
    char code[CODE_LEN + 1], shown[CODE_LEN + 2];
    struct hub_code c, *all = NULL;
    int32_t n = 0, at = -1;
    int rc;
    /* Issue 17: refused before the first write, in the order the store
     * refuses (no such code, already revoked), then another event's. */
    if ((rc = code_normalise(q->code, code, diag)) < 0 ||
        (rc = hub_store_codes_list(svc->store, NULL, &all, &n, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n && at < 0; i++)
        if (strcmp(all[i].code, code) == 0)
            at = i;
    rc = at < 0 ? tny_diag_set(diag, TNY_ENOTFOUND, "code \"%s\": no such code",
                               code)
         : all[at].revoked_ms
             ? tny_diag_set(diag, TNY_ESTATE, "code \"%s\": already revoked",
                            code)
         : strcmp(all[at].event_id, e->id) != 0
             ? tny_diag_set(diag, TNY_ENOTFOUND,
                            "code \"%s\": not a code of event \"%s\"", q->code,
                            e->id)
             : TNY_OK;
    free(all);
    if (rc < 0)
        return rc;
    *touched = true; /* from here a failure reads the registry back */
    if ((rc = hub_store_code_revoke(svc->store, code, actor, &c, diag)) < 0)
        return rc;
    struct hub_device *d = hub__device_find(svc, c.device_id);
    if (d && d->event[0] && strcmp(d->event, e->id) == 0) {
        if ((rc = hub_store_device_assign(svc->store, d->id, NULL, 0, actor,
                                          diag)) < 0 ||
            (rc = hub__device_refresh(svc, d, diag)) < 0 ||
            (rc = hub__publish_device(svc, d, now_ms, ob, diag)) < 0)
            return rc;
        e->feed_dirty = true;
    }
    /* The broker's login ends: hub__codes_follow, after the command. */
    code_display(c.code, shown);
    HUB_LOG(HUB_LOG_INFO, "code revoked event=%s table=%d device=%s", e->id,
            (int)c.table, c.device_id);
    snprintf(rep->message, sizeof(rep->message),
             "code %s revoked (table %d, device %s)", shown, (int)c.table,
             c.device_id);
    return TNY_OK;
}

static const char *const state_names[] = {"", "valid", "revoked", "expired",
                                          "dropped"};

int hub__code_list(struct hub_service *svc, struct hub_ev *e,
                   struct tny_wire_reply *rep, struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    struct hub_player_request *reqs = NULL;
    int32_t n = 0, n_reqs = 0;
    char shown[CODE_LEN + 2];
    int rc = hub_store_codes_list(svc->store, e->id, &codes, &n, diag);
    if (rc == TNY_OK)
        rc = hub_store_player_requests_list(svc->store, e->id, &reqs, &n_reqs,
                                            diag);
    json_t *arr = rc == TNY_OK ? json_array() : NULL;
    for (int32_t i = 0; arr && i < n; i++) {
        const struct hub_code *c = &codes[i];
        struct tny_wire_code_status st;
        char role_dev[HUB_STORE_ID_MAX + 1];
        /* create false: nothing is written, a table without a page
         * device yet shows none. */
        if ((rc = code_target(svc, c, reqs, n_reqs, n, false, "hub", 0, NULL,
                              &st, role_dev, diag)) < 0)
            break;
        const struct hub_device *d =
            hub__device_find(svc, c->player_id[0] ? role_dev : c->device_id);
        code_display(c->code, shown);
        json_t *o = json_pack(
            "{s:s, s:i, s:s, s:s, s:I, s:s, s:b}", "code", shown, "table",
            (int)st.table, "device", c->player_id[0] ? role_dev : c->device_id,
            "state", state_names[st.state], "issued_ms",
            (json_int_t)c->issued_ms, "issued_by", c->issued_by, "online",
            d && d->state == TNY_WIRE_PRESENCE_ONLINE);
        if (o && c->player_id[0]) {
            const struct hub_code_seen *seen = seen_find(svc, c->device_id);
            json_object_set_new(o, "player", json_string(c->player_id));
            json_object_set_new(o, "login", json_string(c->device_id));
            /* Item 6: this player's own phone is signed in (not the
             * table's shared device), and the seats of their table. */
            json_object_set_new(o, "signed_in",
                                json_boolean(seen && seen->online &&
                                             st.state == TNY_WIRE_CODE_VALID));
            json_object_set_new(o, "seat", json_integer(st.seat));
            json_object_set_new(
                o, "seats", json_integer(table_seats(e, st.round, st.table)));
        }
        json_array_append_new(arr, o);
    }
    free(codes);
    free(reqs);
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    if (!arr)
        return TNY_ENOMEM;
    rep->count = (uint64_t)n;
    return hub__reply_records(rep, arr);
}

/* One player code for player ix of e: recorded, and its record (player,
 * name, code, login, query) appended to arr. */
static int player_code_issue(struct hub_service *svc, struct hub_ev *e,
                             int32_t ix, int32_t n_codes, const char *actor,
                             json_t *arr, struct tny_diag *diag)
{
    char code[CODE_LEN + 1], login[32], shown[CODE_LEN + 2];
    const struct tny_player *p = &e->ev.players[ix];
    int rc;
    snprintf(login, sizeof(login), HUB_PLAYER_LOGIN_PREFIX "%d",
             (int)n_codes + 1);
    if ((rc = code_new(code, diag)) < 0 ||
        (rc = hub_store_player_code_add(svc->store, code, login, e->id, p->id,
                                        actor, diag)) < 0)
        return rc;
    code_display(code, shown);
    HUB_LOG(HUB_LOG_INFO, "code issued event=%s player=%s login=%s", e->id,
            p->id, login);
    if (json_array_append_new(
            arr, json_pack("{s:s, s:s, s:s, s:s, s:s}", "player", p->id, "name",
                           p->name ? p->name : "", "code", shown, "login",
                           login, "query", code)) < 0)
        return TNY_ENOMEM;
    return TNY_OK;
}

int hub__code_issue_player(struct hub_service *svc, struct hub_ev *e,
                           const struct tny_wire_request *q, const char *actor,
                           struct tny_wire_reply *rep, struct tny_diag *diag)
{
    struct hub_code *codes = NULL;
    int32_t n = 0, made = 0;
    int rc;
    if (!svc->opt.codes)
        return tny_diag_set(diag, TNY_ESTATE,
                            "sign-in codes need the hub's play_broker_uri "
                            "(the venue broker's table-page listener, "
                            "gen-config.sh --table-ws-port): not set");
    if (e->info.status == HUB_EVENT_FINISHED)
        return tny_diag_set(diag, TNY_ESTATE,
                            "event \"%s\" is finished: its codes have "
                            "expired, no new one",
                            e->id);
    if ((rc = hub_store_codes_list(svc->store, NULL, &codes, &n, diag)) < 0)
        return rc;
    /* ply-N above every player login left (a deleted event's codes are
     * gone from the count: N never repeats a login in use). */
    int32_t top = n;
    size_t plen = strlen(HUB_PLAYER_LOGIN_PREFIX);
    for (int32_t i = 0; i < n; i++) {
        long v = strncmp(codes[i].device_id, HUB_PLAYER_LOGIN_PREFIX, plen) == 0
                     ? strtol(codes[i].device_id + plen, NULL, 10)
                     : 0;
        if (v > top && v < INT32_MAX)
            top = (int32_t)v;
    }
    json_t *arr = json_array();
    if (!arr)
        rc = TNY_ENOMEM;
    if (rc == TNY_OK && q->player_id[0]) {
        int32_t ix = tny_event_player_index(&e->ev, q->player_id);
        if (ix < 0)
            rc = tny_diag_set(diag, TNY_ENOTFOUND,
                              "console_request.issue_player_code.player_id: "
                              "no player \"%s\" in event \"%s\"",
                              q->player_id, e->id);
        else if (player_gone(e, &e->ev.players[ix]))
            rc = tny_diag_set(diag, TNY_ESTATE,
                              "player \"%s\" has left event \"%s\": no code",
                              q->player_id, e->id);
        else
            rc = player_code_issue(svc, e, ix, top, actor, arr, diag);
        made = rc == TNY_OK;
    }
    /* Every active player without a valid code of this event. */
    for (int32_t ix = 0;
         rc == TNY_OK && !q->player_id[0] && ix < e->ev.n_players; ix++) {
        const struct tny_player *p = &e->ev.players[ix];
        bool has = false;
        for (int32_t i = 0; i < n && !has; i++)
            has = !codes[i].revoked_ms &&
                  strcmp(codes[i].player_id, p->id) == 0 &&
                  strcmp(codes[i].event_id, e->id) == 0;
        if (has || player_gone(e, p))
            continue;
        rc = player_code_issue(svc, e, ix, top + made, actor, arr, diag);
        made += rc == TNY_OK;
    }
    free(codes);
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    rep->count = (uint64_t)made;
    snprintf(rep->message, sizeof(rep->message),
             "%d player code(s) issued for event %s (each follows its "
             "player to their table)",
             (int)made, e->id);
    return hub__reply_records(rep, arr);
}

/* ---- a player's request from their phone ----------------------------------
 */

/* Sends the answer to key on the login's ack topic. */
static int player_ack(const char *login, const char *key, bool accepted,
                      const char *why, struct hub_outbox *ob,
                      struct tny_diag *diag)
{
    char topic[TNY_WIRE_TOPIC_MAX];
    struct tny_wire_player_ack a;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    memset(&a, 0, sizeof(a));
    snprintf(a.idempotency_key, sizeof(a.idempotency_key), "%s", key);
    a.accepted = accepted;
    snprintf(a.reason_text, sizeof(a.reason_text), "%s", why ? why : "");
    if ((rc = tny_wire_topic(TNY_WIRE_TOPIC_CODE_ACK, login, topic,
                             sizeof(topic), diag)) < 0 ||
        (rc = tny_wire_encode_player_ack(&a, &buf, &len, diag)) < 0)
        return rc;
    return hub_outbox_add(ob, topic, buf, len, false);
}

int hub_service_on_player_request(struct hub_service *svc, const char *login,
                                  const uint8_t *payload, size_t len,
                                  int64_t now_ms, struct hub_outbox *ob,
                                  struct tny_diag *diag)
{
    struct tny_wire_player_request q;
    struct tny_diag why = {{0}};
    struct hub_code *codes = NULL;
    const struct hub_code *c = NULL;
    struct hub_ev *e = NULL;
    int32_t n = 0;
    bool stored = false;
    char actor[16 + TNY_WIRE_ID_MAX];
    int rc;
    if (len == 0)
        return TNY_OK;
    if (tny_wire_decode_player_request(payload, len, &q, &why) < 0) {
        /* No key to answer: the page's message is broken, logged. */
        HUB_LOG(HUB_LOG_WARN, "player request refused login=%s: %s", login,
                why.msg);
        return TNY_OK;
    }
    if ((rc = hub_store_codes_list(svc->store, NULL, &codes, &n, diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n && !c; i++)
        if (strcmp(codes[i].device_id, login) == 0)
            c = &codes[i];
    if (!c || !c->player_id[0] || c->revoked_ms ||
        strcmp(c->player_id, q.player_id) != 0 ||
        strcmp(c->event_id, q.event_id) != 0) {
        snprintf(why.msg, sizeof(why.msg),
                 "player_request: login %s is not player \"%s\"'s code of "
                 "event \"%s\"",
                 login, q.player_id, q.event_id);
        goto refuse;
    }
    if ((rc = hub__ev_get(svc, q.event_id, &e, diag)) < 0)
        goto out;
    int32_t ix = tny_event_player_index(&e->ev, q.player_id);
    if (e->info.status == HUB_EVENT_FINISHED || ix < 0 ||
        player_gone(e, &e->ev.players[ix])) {
        snprintf(why.msg, sizeof(why.msg),
                 "player_request: player \"%s\" is no longer in event \"%s\"",
                 q.player_id, q.event_id);
        goto refuse;
    }
    if (q.kind == TNY_WIRE_PLAYER_CHECK_IN && e->ev.n_rounds > 0) {
        snprintf(why.msg, sizeof(why.msg),
                 "player_request.kind: check-in is over (round %d is "
                 "published)",
                 (int)e->ev.n_rounds);
        goto refuse;
    }
    if (q.kind == TNY_WIRE_PLAYER_DROP && e->ev.n_rounds == 0) {
        snprintf(why.msg, sizeof(why.msg),
                 "player_request.kind: no round has been played: ask the "
                 "organiser to withdraw you");
        goto refuse;
    }
    snprintf(actor, sizeof(actor), "player:%s", q.player_id);
    if ((rc = hub_store_player_request_put(
             svc->store, q.event_id, q.player_id,
             q.kind == TNY_WIRE_PLAYER_CHECK_IN ? HUB_PLAYER_CHECK_IN
                                                : HUB_PLAYER_DROP,
             q.idempotency_key, e->ev.n_rounds, actor, &stored, diag)) < 0)
        goto out;
    HUB_LOG(HUB_LOG_INFO, "player %s event=%s player=%s key=%s%s",
            q.kind == TNY_WIRE_PLAYER_CHECK_IN ? "checked in" : "asked to drop",
            q.event_id, q.player_id, q.idempotency_key,
            stored ? "" : " (again)");
    /* The status (checked in, drop asked) first, then the answer. */
    if ((rc = hub__codes_follow(svc, e, actor, now_ms, ob, diag)) < 0 ||
        (rc = player_ack(login, q.idempotency_key, true, NULL, ob, diag)) < 0)
        goto out;
    rc = TNY_OK;
    goto out;
refuse:
    HUB_LOG(HUB_LOG_WARN, "player request refused login=%s key=%s: %s", login,
            q.idempotency_key, why.msg);
    rc = player_ack(login, q.idempotency_key, false, why.msg, ob, diag);
out:
    free(codes);
    return rc;
}

int hub_service_on_code_presence(struct hub_service *svc, const char *login,
                                 const uint8_t *payload, size_t len)
{
    struct tny_wire_presence p;
    struct tny_diag why = {{0}};
    if (len == 0)
        return TNY_OK; /* a retained presence cleared */
    if (tny_wire_decode_presence(payload, len, &p, &why) < 0 ||
        strcmp(p.device_id, login) != 0) {
        HUB_LOG(HUB_LOG_WARN, "code presence ignored login=%s: %s", login,
                why.msg[0] ? why.msg : "names another login");
        return TNY_OK;
    }
    struct hub_code_seen *seen = seen_get(svc, login);
    if (!seen)
        return TNY_ENOMEM;
    bool online = p.state == TNY_WIRE_PRESENCE_ONLINE;
    if (seen->online != online)
        HUB_LOG(HUB_LOG_INFO, "code %s login=%s",
                online ? "signed in" : "signed out", login);
    seen->online = online;
    return TNY_OK;
}
