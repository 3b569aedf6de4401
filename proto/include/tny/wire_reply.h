/* wire_reply.h - the description of the console's typed replies (issue 18
 * item 3): the check a test runs of the tables in wire_console_reply.c
 * against console.proto. */
#ifndef TNY_WIRE_REPLY_H
#define TNY_WIRE_REPLY_H

#include "tny/error.h"

/* Checks that each typed reply's table (seating, standings, publish
 * summary and the messages in them) names exactly its message's fields
 * with kinds of their types.  Errors: TNY_EINVAL "Message.field: what". */
int tny_wire_reply_check_messages(struct tny_diag *diag);

#endif
