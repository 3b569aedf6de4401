/* reply_records.c - a console reply's records (issue 18 item 3): the
 * hub's jansson values as the protocol's typed records, flat in
 * pre-order (struct tny_wire_records); the console writes its --json text
 * back from them at its edge (hub/cli/console_reply.c).
 */
#include "reply_records.h"

#include <stdlib.h>
#include <string.h>

/* Nodes of v's tree, or -1 when deeper than depth allows. */
static int64_t count_nodes(const json_t *v, int depth)
{
    int64_t n = 1;
    if (json_is_object(v) || json_is_array(v)) {
        if (depth >= TNY_WIRE_RECORDS_DEPTH)
            return -1;
        const char *key;
        json_t *x;
        size_t i;
        if (json_is_object(v)) {
            json_object_foreach ((json_t *)v, key, x) {
                int64_t k = count_nodes(x, depth + 1);
                if (k < 0)
                    return -1;
                n += k;
            }
        } else {
            json_array_foreach (v, i, x) {
                int64_t k = count_nodes(x, depth + 1);
                if (k < 0)
                    return -1;
                n += k;
            }
        }
    }
    return n;
}

/* v and its subtree from nodes[*at] on, v's key (NULL: none). */
static int fill(struct tny_wire_records *r, int32_t *at, const char *key,
                const json_t *v)
{
    struct tny_wire_node *x = &r->nodes[(*at)++];
    if (key && !(x->key = strdup(key)))
        return TNY_ENOMEM;
    switch (json_typeof(v)) {
    case JSON_NULL: x->kind = TNY_WIRE_NODE_NULL; return TNY_OK;
    case JSON_TRUE:
    case JSON_FALSE:
        x->kind = TNY_WIRE_NODE_FLAG;
        x->flag = json_is_true(v);
        return TNY_OK;
    case JSON_INTEGER:
        x->kind = TNY_WIRE_NODE_INTEGER;
        x->integer = (int64_t)json_integer_value(v);
        return TNY_OK;
    case JSON_REAL:
        x->kind = TNY_WIRE_NODE_REAL;
        x->real = json_real_value(v);
        return TNY_OK;
    case JSON_STRING:
        x->kind = TNY_WIRE_NODE_TEXT;
        return (x->text = strdup(json_string_value(v))) ? TNY_OK : TNY_ENOMEM;
    case JSON_OBJECT: {
        const char *k;
        json_t *m;
        int rc = TNY_OK;
        x->kind = TNY_WIRE_NODE_RECORD;
        x->n = (int32_t)json_object_size(v);
        json_object_foreach ((json_t *)v, k, m) {
            if ((rc = fill(r, at, k, m)) < 0)
                break;
        }
        return rc;
    }
    case JSON_ARRAY: {
        size_t i;
        json_t *m;
        int rc = TNY_OK;
        x->kind = TNY_WIRE_NODE_LIST;
        x->n = (int32_t)json_array_size(v);
        json_array_foreach (v, i, m) {
            if ((rc = fill(r, at, NULL, m)) < 0)
                break;
        }
        return rc;
    }
    }
    return TNY_EINVAL;
}

int hub__reply_records(struct tny_wire_reply *rep, json_t *root)
{
    if (!root)
        return TNY_ENOMEM;
    int64_t n = count_nodes(root, 0);
    int rc = TNY_EINVAL;
    struct tny_wire_records *r =
        n > 0 && n <= INT32_MAX ? tny_wire_records_new((int32_t)n) : NULL;
    if (r) {
        int32_t at = 0;
        rc = fill(r, &at, NULL, root);
    } else if (n > 0) {
        rc = TNY_ENOMEM;
    }
    json_decref(root);
    if (rc < 0) {
        tny_wire_records_free(r);
        return rc;
    }
    tny_wire_records_free(rep->records);
    rep->records = r;
    return TNY_OK;
}
