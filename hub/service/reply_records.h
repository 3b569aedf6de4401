/* reply_records.h - a console reply's records (issue 18 item 3): the
 * lists and acknowledgements the hub builds as jansson values, sent as
 * the protocol's typed records (console.proto Records), not as JSON text.
 */
#ifndef HUB_REPLY_RECORDS_H
#define HUB_REPLY_RECORDS_H

#include <jansson.h>

#include "tny/error.h"
#include "tny/wire.h"

/* rep->records from root (consumed, NULL: out of memory): objects become
 * records (members in their order), arrays lists, the rest typed values.
 * Errors: TNY_ENOMEM; TNY_EINVAL when nested deeper than
 * TNY_WIRE_RECORDS_DEPTH (the hub's own values never are). */
TNY_MUST_USE int hub__reply_records(struct tny_wire_reply *rep, json_t *root);

#endif
