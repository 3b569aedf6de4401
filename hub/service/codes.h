/* codes.h - the table pages' sign-in codes (codes.c, issue 20): the
 * console's code commands and the broker's dynamic security commands
 * that make each code a login for exactly one table device.
 */
#ifndef HUB_SERVICE_CODES_H
#define HUB_SERVICE_CODES_H

#include "service_internal.h"

/* The broker's dynamic security plugin's command topic. */
#define HUB_DYNSEC_TOPIC "$CONTROL/dynamic-security/v1"

/* The console's code commands, run inside the command's transaction:
 * e is the request's event.  On success rep->message (and rep->json) say
 * what was done and the broker's commands are in ob; an error leaves its
 * message in diag.  Issue 17: every refusal is decided before the first
 * write, and *touched is set just before it (a failure after it reads the
 * service's registry back: console.c's model_recover).  Errors:
 * TNY_EINVAL, TNY_ENOTFOUND, TNY_ECONFLICT, TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub__code_issue(struct hub_service *svc, struct hub_ev *e,
                                 const struct tny_wire_request *q,
                                 const char *actor, int64_t now_ms,
                                 struct hub_outbox *ob,
                                 struct tny_wire_reply *rep, bool *touched,
                                 struct tny_diag *diag);
TNY_MUST_USE int hub__code_revoke(struct hub_service *svc, struct hub_ev *e,
                                  const struct tny_wire_request *q,
                                  const char *actor, int64_t now_ms,
                                  struct hub_outbox *ob,
                                  struct tny_wire_reply *rep, bool *touched,
                                  struct tny_diag *diag);
TNY_MUST_USE int hub__code_list(struct hub_service *svc, struct hub_ev *e,
                                struct tny_wire_reply *rep,
                                struct tny_diag *diag);

/* A player's own code (issue 20): q->player_id's, or one for every
 * active player without a valid one ("" player_id); rep->json lists them
 * (player, name, code, login, query).  Errors: TNY_ENOTFOUND (player),
 * TNY_ESTATE (finished event, a player who left), TNY_ENOMEM. */
TNY_MUST_USE int
hub__code_issue_player(struct hub_service *svc, struct hub_ev *e,
                       const struct tny_wire_request *q, const char *actor,
                       struct tny_wire_reply *rep, struct tny_diag *diag);

/* After every console command on e (and a player's request): each code
 * of e whose state, rights or status changed is told to the broker (the
 * plugin's commands in ob: a player code re-pointed at its player's table
 * of the current round, whose page device is made when it has none) and
 * to its pages (code/{login}/status, retained).  Errors: TNY_ENOMEM,
 * those of the store. */
TNY_MUST_USE int hub__codes_follow(struct hub_service *svc, struct hub_ev *e,
                                   const char *actor, int64_t now_ms,
                                   struct hub_outbox *ob,
                                   struct tny_diag *diag);
/* Forgets what the broker and the pages were told (the next follow or
 * sync tells everything again). */
void hub__codes_forget(struct hub_service *svc);

/* A PlayerRequest on code/{login}/req (a check-in before round 1, a "drop
 * me" after a round): stored, then answered on code/{login}/ack (refused
 * with the reason when the login is not that player's valid code).  A
 * message that does not decode is logged and ignored.  Errors: those of
 * the store (nothing answered: the page resends). */
TNY_MUST_USE int hub_service_on_player_request(
    struct hub_service *svc, const char *login, const uint8_t *payload,
    size_t len, int64_t now_ms, struct hub_outbox *ob, struct tny_diag *diag);

/* Issue 20 item 6: a player code's pages say on code/{login}/presence
 * whether one of them is signed in (online; their last will: offline):
 * remembered for `code list` ("signed_in").  A message that does not
 * decode, or names another login, is logged and ignored. */
TNY_MUST_USE int hub_service_on_code_presence(struct hub_service *svc,
                                              const char *login,
                                              const uint8_t *payload,
                                              size_t len);

/* The codes of e, whose event is being deleted (its store rows go with
 * it, hub_store_delete_event): each login is deleted on the broker with
 * its roles, nothing left to sign in with, and its retained status
 * cleared (commands in ob, call before the store's deletion; *n_codes:
 * how many); the hub forgets what it told the broker of them.  Errors:
 * TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub__codes_drop(struct hub_service *svc,
                                 const struct hub_ev *e, int32_t *n_codes,
                                 struct hub_outbox *ob, struct tny_diag *diag);

/* Issue 20: the codes of e, whose event has just finished, expire: the
 * broker's logins of its valid codes are deleted (commands in ob), as
 * every sync does from then on.  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub__codes_expire(struct hub_service *svc,
                                   const struct hub_ev *e,
                                   struct hub_outbox *ob,
                                   struct tny_diag *diag);

#endif
