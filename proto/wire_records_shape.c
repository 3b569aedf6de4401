/* wire_records_shape.c - the console commands' declared records (issue 18
 * item 3): the shapes of console_records.h as tables, records checked
 * against them (the hub, before it replies; the tests, on every reply)
 * and written as docs/protocol.md lists them.
 *
 * Not here: the records' codec (wire_console_reply.c), which checks any
 * tree whatever its members.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tny/wire.h"

enum { SHAPE_RECORD, SHAPE_LIST };

struct shape {
    const char *id;
    int root; /* SHAPE_RECORD, SHAPE_LIST */
    const struct tny_rec_member *members;
    int n;
};

#define S(ID, ROOT, ...)                                                       \
    static const struct tny_rec_member m_##ID[] = {__VA_ARGS__};
TNY_RECORD_SHAPES(S)
#undef S

static const struct shape shapes[TNY_RECS_COUNT_] = {
#define S(ID, ROOT, ...)                                                       \
    [TNY_RECS_##ID] = {#ID, SHAPE_##ROOT, m_##ID,                              \
                       (int)(sizeof(m_##ID) / sizeof(m_##ID[0]))},
    TNY_RECORD_SHAPES(S)
#undef S
};

static const char *kind_name(enum tny_wire_node_kind k)
{
    static const char *const names[] = {"null", "flag",   "integer", "real",
                                        "text", "record", "list"};
    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static unsigned kind_bit(enum tny_wire_node_kind k)
{
    switch (k) {
    case TNY_WIRE_NODE_NULL: return TNY_REC_NULL;
    case TNY_WIRE_NODE_FLAG: return TNY_REC_FLAG;
    case TNY_WIRE_NODE_INTEGER: return TNY_REC_INT;
    case TNY_WIRE_NODE_REAL: return TNY_REC_REAL;
    case TNY_WIRE_NODE_TEXT: return TNY_REC_TEXT;
    case TNY_WIRE_NODE_LIST: return TNY_REC_LIST;
    case TNY_WIRE_NODE_RECORD: return 0; /* only as ANY, or a list's item */
    }
    return 0;
}

/* The index after the subtree at nodes[at] (the tree is a checked one:
 * the codec's check, or the hub's own). */
static int32_t skip(const struct tny_wire_records *r, int32_t at)
{
    int32_t pending = 1;
    while (pending > 0 && at < r->n_nodes) {
        const struct tny_wire_node *x = &r->nodes[at++];
        pending--;
        if (x->kind == TNY_WIRE_NODE_RECORD || x->kind == TNY_WIRE_NODE_LIST)
            pending += x->n;
    }
    return at;
}

static int check_record(const struct tny_wire_records *r, int32_t *at,
                        const struct shape *s, const char *path,
                        struct tny_diag *diag);

/* The list at nodes[*at]: records of shape s. */
static int check_list(const struct tny_wire_records *r, int32_t *at,
                      const struct shape *s, const char *path,
                      struct tny_diag *diag)
{
    const struct tny_wire_node *x = &r->nodes[(*at)++];
    char sub[160];
    if (x->kind != TNY_WIRE_NODE_LIST)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected a list of records, got %s", path,
                            kind_name(x->kind));
    for (int32_t i = 0; i < x->n; i++) {
        snprintf(sub, sizeof sub, "%.120s[%d]", path, (int)i);
        int rc = check_record(r, at, s, sub, diag);
        if (rc < 0)
            return rc;
    }
    return TNY_OK;
}

/* The record at nodes[*at]: exactly s's members in s's order. */
static int check_record(const struct tny_wire_records *r, int32_t *at,
                        const struct shape *s, const char *path,
                        struct tny_diag *diag)
{
    if (*at >= r->n_nodes)
        return tny_diag_set(diag, TNY_EINVAL, "%s: missing", path);
    const struct tny_wire_node *x = &r->nodes[(*at)++];
    char sub[160];
    int m = 0;
    if (x->kind != TNY_WIRE_NODE_RECORD)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected a record, got %s",
                            path, kind_name(x->kind));
    for (int32_t i = 0; i < x->n; i++) {
        if (*at >= r->n_nodes)
            return tny_diag_set(diag, TNY_EINVAL, "%s: a member missing", path);
        const struct tny_wire_node *v = &r->nodes[*at];
        const char *key = v->key ? v->key : "";
        int k = m;
        while (k < s->n && strcmp(s->members[k].name, key) != 0)
            k++;
        if (k == s->n) {
            bool earlier = false;
            for (int j = 0; j < m && !earlier; j++)
                earlier = strcmp(s->members[j].name, key) == 0;
            return tny_diag_set(
                diag, TNY_EINVAL,
                earlier ? "%s.%.64s: out of the declared order (%s)"
                        : "%s.%.64s: not a member of its declared shape (%s)",
                path, key, s->id);
        }
        for (; m < k; m++)
            if (!(s->members[m].kinds & TNY_REC_OPT))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.%s: missing (declared in %s)", path,
                                    s->members[m].name, s->id);
        const struct tny_rec_member *d = &s->members[m++];
        snprintf(sub, sizeof sub, "%.90s.%.64s", path, key);
        int rc = TNY_OK;
        if (d->kinds & TNY_REC_ANY)
            *at = skip(r, *at);
        else if (!(d->kinds & kind_bit(v->kind)))
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: kind %s, not one its shape (%s) declares",
                              sub, kind_name(v->kind), s->id);
        else if (v->kind == TNY_WIRE_NODE_LIST)
            rc = check_list(r, at, &shapes[d->of], sub, diag);
        else
            (*at)++;
        if (rc < 0)
            return rc;
    }
    for (; m < s->n; m++)
        if (!(s->members[m].kinds & TNY_REC_OPT))
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s.%s: missing (declared in %s)", path,
                                s->members[m].name, s->id);
    return TNY_OK;
}

int tny_wire_records_check_shape(const struct tny_wire_records *r,
                                 enum tny_rec_shape shape, const char *path,
                                 struct tny_diag *diag)
{
    bool none = !r || r->n_nodes == 0;
    if ((unsigned)shape >= TNY_RECS_COUNT_)
        return tny_diag_set(diag, TNY_EINVAL, "%s: no shape %d", path,
                            (int)shape);
    if (shape == TNY_RECS_NONE)
        return none ? TNY_OK
                    : tny_diag_set(diag, TNY_EINVAL,
                                   "%s: records where none are declared", path);
    if (none)
        return tny_diag_set(diag, TNY_EINVAL, "%s: missing (declared %s)", path,
                            shapes[shape].id);
    int32_t at = 0;
    const struct shape *s = &shapes[shape];
    int rc = s->root == SHAPE_LIST ? check_list(r, &at, s, path, diag)
                                   : check_record(r, &at, s, path, diag);
    if (rc == TNY_OK && at != r->n_nodes)
        rc = tny_diag_set(diag, TNY_EINVAL, "%s: %d nodes after its root", path,
                          (int)(r->n_nodes - at));
    return rc;
}

int tny_wire_records_shapes_check(struct tny_diag *diag)
{
    const unsigned kinds = TNY_REC_NULL | TNY_REC_FLAG | TNY_REC_INT |
                           TNY_REC_REAL | TNY_REC_TEXT | TNY_REC_LIST |
                           TNY_REC_ANY | TNY_REC_OPT;
    for (int i = 1; i < TNY_RECS_COUNT_; i++) {
        const struct shape *s = &shapes[i];
        if (!s->id || s->n < 1)
            return tny_diag_set(diag, TNY_EINVAL, "shape %d: no members", i);
        for (int k = 0; k < s->n; k++) {
            const struct tny_rec_member *d = &s->members[k];
            for (int j = 0; j < k; j++)
                if (strcmp(s->members[j].name, d->name) == 0)
                    return tny_diag_set(diag, TNY_EINVAL,
                                        "%s.%s: declared twice", s->id,
                                        d->name);
            if (!(d->kinds & ~(unsigned)TNY_REC_OPT) || (d->kinds & ~kinds))
                return tny_diag_set(diag, TNY_EINVAL, "%s.%s: no kind", s->id,
                                    d->name);
            bool list = (d->kinds & TNY_REC_LIST) != 0;
            if (list != (d->of != TNY_RECS_NONE) ||
                (list && ((unsigned)d->of >= TNY_RECS_COUNT_ ||
                          shapes[d->of].root != SHAPE_LIST)))
                return tny_diag_set(diag, TNY_EINVAL,
                                    "%s.%s: a list names a LIST shape, "
                                    "nothing else does",
                                    s->id, d->name);
        }
    }
    return TNY_OK;
}

/* Appends to dst (cap) at *used; false once it does not fit. */
static bool put(char *dst, size_t cap, size_t *used, const char *fmt, ...)
    TNY_PRINTF(4, 5);
static bool put(char *dst, size_t cap, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = *used < cap ? vsnprintf(dst + *used, cap - *used, fmt, ap) : -1;
    va_end(ap);
    if (n < 0 || (size_t)n >= cap - *used)
        return false;
    *used += (size_t)n;
    return true;
}

static bool shape_text(const struct shape *s, char *dst, size_t cap,
                       size_t *used)
{
    static const struct {
        unsigned bit;
        const char *name;
    } kinds[] = {{TNY_REC_TEXT, "text"}, {TNY_REC_INT, "integer"},
                 {TNY_REC_REAL, "real"}, {TNY_REC_FLAG, "flag"},
                 {TNY_REC_ANY, "any"},   {TNY_REC_NULL, "null"}};
    bool ok = put(dst, cap, used, "%s{", s->root == SHAPE_LIST ? "[" : "");
    for (int k = 0; ok && k < s->n; k++) {
        const struct tny_rec_member *d = &s->members[k];
        ok = put(dst, cap, used, "%s%s%s: ", k ? ", " : "", d->name,
                 d->kinds & TNY_REC_OPT ? "?" : "");
        if (ok && (d->kinds & TNY_REC_LIST))
            ok = shape_text(&shapes[d->of], dst, cap, used);
        const char *sep = "";
        for (size_t i = 0; ok && i < sizeof(kinds) / sizeof(kinds[0]); i++)
            if (d->kinds & kinds[i].bit) {
                ok = put(dst, cap, used, "%s%s", sep, kinds[i].name);
                sep = "|";
            }
    }
    return ok && put(dst, cap, used, "}%s", s->root == SHAPE_LIST ? "]" : "");
}

int tny_wire_records_shape_text(enum tny_rec_shape shape, char *dst, size_t cap)
{
    size_t used = 0;
    if (cap > 0)
        dst[0] = '\0';
    if ((unsigned)shape >= TNY_RECS_COUNT_)
        return TNY_EINVAL;
    bool ok = shape == TNY_RECS_NONE
                  ? put(dst, cap, &used, "none")
                  : shape_text(&shapes[shape], dst, cap, &used);
    return ok ? (int)used : TNY_ERANGE;
}
