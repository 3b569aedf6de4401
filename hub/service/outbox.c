/* outbox.c - the outbox: the messages a service call produced, in order,
 * for the loop to send after the call returns (hub/include/hub/service.h).
 * Bottom layer: calls nothing else of the hub.
 */
#include "hub/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hub_outbox_init(struct hub_outbox *ob)
{
    memset(ob, 0, sizeof(*ob));
}

void hub_outbox_release(struct hub_outbox *ob)
{
    for (int32_t i = 0; i < ob->n; i++)
        free(ob->msgs[i].payload);
    free(ob->msgs);
    memset(ob, 0, sizeof(*ob));
}

int hub_outbox_add(struct hub_outbox *ob, const char *topic, uint8_t *payload,
                   size_t len, bool retained)
{
    if (strlen(topic) >= HUB_TOPIC_MAX) {
        free(payload);
        return TNY_EINVAL;
    }
    if (ob->n == ob->cap) {
        int32_t cap = ob->cap ? ob->cap * 2 : 16;
        struct hub_msg *m = realloc(ob->msgs, sizeof(*m) * (size_t)cap);
        if (!m) {
            free(payload);
            return TNY_ENOMEM;
        }
        ob->msgs = m;
        ob->cap = cap;
    }
    struct hub_msg *m = &ob->msgs[ob->n++];
    memset(m, 0, sizeof(*m));
    snprintf(m->topic, sizeof(m->topic), "%s", topic);
    m->payload = payload;
    m->len = len;
    m->retained = retained;
    return TNY_OK;
}
