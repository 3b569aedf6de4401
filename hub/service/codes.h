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
 * message in diag.  Errors: TNY_EINVAL, TNY_ENOTFOUND, TNY_ECONFLICT,
 * TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub__code_issue(struct hub_service *svc, struct hub_ev *e,
                                 const struct tny_wire_request *q,
                                 const char *actor, int64_t now_ms,
                                 struct hub_outbox *ob,
                                 struct tny_wire_reply *rep,
                                 struct tny_diag *diag);
TNY_MUST_USE int hub__code_revoke(struct hub_service *svc, struct hub_ev *e,
                                  const struct tny_wire_request *q,
                                  const char *actor, int64_t now_ms,
                                  struct hub_outbox *ob,
                                  struct tny_wire_reply *rep,
                                  struct tny_diag *diag);
TNY_MUST_USE int hub__code_list(struct hub_service *svc, struct hub_ev *e,
                                struct tny_wire_reply *rep,
                                struct tny_diag *diag);

/* Issue 20: the codes of e, whose event has just finished, expire: the
 * broker's logins of its valid codes are deleted (commands in ob), as
 * every sync does from then on.  Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub__codes_expire(struct hub_service *svc,
                                   const struct hub_ev *e,
                                   struct hub_outbox *ob,
                                   struct tny_diag *diag);

#endif
