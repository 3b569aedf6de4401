/* wire_console_reply.c - the typed payloads of ConsoleReply (issue 18 item
 * 3): one message per reply shape of the commands' descriptions
 * (console_cmds.h TNY_REPLY_*), and the table of them (wire__payloads)
 * that wire_console.c walks for the ConsoleReply around them.  The
 * seating, the standings and the publish summary are each described by
 * tables of their fields by wire name (the description below), which one
 * walk over protobuf-c's descriptors checks, decodes, encodes and frees;
 * the records (lists, acknowledgements) are one generic shape: typed
 * values by name, flat in pre-order.
 *
 * Invariants: the same check runs before encode and after decode, so the
 * hub cannot send what a console would refuse; a decoded payload is
 * wholly malloc'd (tny_wire_reply_release frees it); an encode borrows
 * the payload's strings.
 */
#include "wire_internal.h"

#include "tny/wire_reply.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts a reply may hold: the console message's 4 MiB bounds them long
 * before. */
#define SEATING_MAX_TABLES WIRE_MAX_TABLE
#define SEATING_MAX_NAMES (4 * WIRE_MAX_TABLE)
#define STANDINGS_MAX_ROWS (4 * WIRE_MAX_TABLE)

/* A text of the event a reply carries back: required or not, UTF-8. */
static int event_text(const char *s, bool required, const char *p,
                      struct tny_diag *diag)
{
    return wire__check_text(s, WIRE_TEXT_UTF8, required, p, diag);
}

/* ---- the description of the typed replies ------------------------------
 *
 * A message is a table of its fields by their names in console.proto: the
 * kind of value, where it lives in its wire.h struct, its rule.  Checking,
 * decoding, encoding and freeing walk the table and protobuf-c's
 * descriptor of the message, so a field of a known kind is one row.  A
 * message's own code is its hooks: a variant (a bye) and rules across its
 * fields. */

enum rk {
    RK_INT,  /* int32_t (uint32 on the wire), RF_64 int64_t (sint64) */
    RK_REAL, /* double, present when the bool at has_off is (RF_HAS) */
    RK_FLAG, /* bool, sent when true */
    RK_TEXT, /* char *, UTF-8: the event's own texts */
    RK_ENUM, /* an enum by its map (struct renum) */
    RK_NAME, /* an enum sent as its name (a string) */
    RK_MSG,  /* a struct: a message of its own table */
};

enum {
    RF_NEED = 1,   /* present on the wire (decode: "missing") */
    RF_ALWAYS = 2, /* sent even when 0 (else when not 0) */
    RF_64 = 4,     /* RK_INT: int64_t */
    RF_PTR = 8,    /* the member points to the value (a list's first) */
    RF_LIST = 16,  /* repeated: n_off counts them, n_lo..n_hi */
    RF_PAIR = 32,  /* RF_LIST: 0 or n_hi of them */
    RF_OUTER = 64, /* RF_LIST: the outer struct's n_off, exactly */
    RF_HAS = 128,  /* present when the bool at has_off is */
};

/* An enum of a wire.h struct and the protocol's. */
struct renum {
    const char *noun; /* "stage": in "unknown stage 9" */
    bool (*valid)(int v);
    int (*to_pb)(int v);
    bool (*from_pb)(int pb, int *v);
    const char *(*name)(int v);               /* RK_NAME */
    bool (*from_name)(const char *s, int *v); /* RK_NAME */
};

struct rmsg;

struct rf {
    const char *name; /* the field in console.proto */
    enum rk kind;
    unsigned flags;
    size_t off;             /* the member (a list's: its first value) */
    int64_t lo, hi;         /* RK_INT: each value's range */
    size_t n_off;           /* RF_LIST: its int32_t count */
    int32_t n_lo, n_hi;     /* RF_LIST: the count's range (inline: its room) */
    size_t has_off;         /* RF_HAS: its bool */
    const struct rmsg *msg; /* RK_MSG */
    const struct renum *en; /* RK_ENUM, RK_NAME */
    const char *what;       /* RF_LIST: what it counts (default: name) */
};

struct rmsg {
    const ProtobufCMessageDescriptor *pb;
    size_t size;  /* its struct (an element of a list of them) */
    bool columns; /* its fields are columns of the outer struct (one
                     element each), not a struct */
    const struct rf *f;
    size_t n;
    const char *own; /* the fields its hooks handle, not in f */
    /* A variant of its own: > 0 handled, 0 walk the fields, < 0 error. */
    int (*own_check)(const void *s, const char *path, struct tny_diag *diag);
    bool (*own_to_pb)(const void *s, ProtobufCMessage *m);
    int (*own_from_pb)(const ProtobufCMessage *m, void *s, const char *path,
                       struct tny_diag *diag);
    /* Rules across its fields (after theirs); outer is the struct that
     * holds it. */
    int (*rule)(const void *s, const void *outer, const char *path,
                struct tny_diag *diag);
};

/* Where a message's values are: its struct, or (columns) the outer
 * struct and the element's index. */
struct place {
    char *base;
    size_t idx;
    const char *outer;
};

static size_t value_size(const struct rf *f)
{
    switch (f->kind) {
    case RK_INT: return f->flags & RF_64 ? sizeof(int64_t) : sizeof(int32_t);
    case RK_REAL: return sizeof(double);
    case RK_FLAG: return sizeof(bool);
    case RK_TEXT: return sizeof(char *);
    case RK_ENUM:
    case RK_NAME: return sizeof(int);
    case RK_MSG: return f->msg->size;
    }
    return 0;
}

/* The address of member off (a column's element with columns). */
static char *member(const struct rmsg *m, const struct place *pl, size_t off,
                    bool ptr, size_t size)
{
    char *at = pl->base + off;
    if (ptr) {
        char *to;
        memcpy(&to, at, sizeof to);
        at = to;
    }
    return m->columns && at ? at + pl->idx * size : at;
}

/* The value of f (a list's first). */
static char *value_at(const struct rmsg *m, const struct place *pl,
                      const struct rf *f)
{
    return member(m, pl, f->off, (f->flags & RF_PTR) != 0, value_size(f));
}

static bool has_at(const struct rmsg *m, const struct place *pl,
                   const struct rf *f)
{
    return *(const bool *)member(m, pl, f->has_off, false, sizeof(bool));
}

static int32_t list_n(const struct place *pl, const struct rf *f)
{
    int32_t n;
    memcpy(&n, (f->flags & RF_OUTER ? pl->outer : pl->base) + f->n_off,
           sizeof n);
    return n;
}

static int64_t int_get(const struct rf *f, const char *at)
{
    if (f->flags & RF_64) {
        int64_t v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    int32_t v;
    memcpy(&v, at, sizeof v);
    return v;
}

static int enum_get(const char *at)
{
    int v;
    memcpy(&v, at, sizeof v);
    return v;
}

/* The place of the message a value of f at `at` holds (element j of a
 * list: its columns'). */
static struct place sub_place(const struct rf *f, const struct place *pl,
                              char *at, size_t j)
{
    if (f->msg->columns)
        return (struct place){pl->base, j, pl->base};
    return (struct place){at, 0, pl->base};
}

/* Whether a single value is sent (and checked, for an enum). */
static bool is_present(const struct rmsg *m, const struct place *pl,
                       const struct rf *f, const char *at)
{
    if (f->flags & RF_HAS)
        return has_at(m, pl, f);
    if (f->flags & (RF_ALWAYS | RF_NEED))
        return true;
    switch (f->kind) {
    case RK_INT: return int_get(f, at) != 0;
    case RK_FLAG: return *(const bool *)at;
    case RK_ENUM: return enum_get(at) != 0;
    default: return true;
    }
}

/* ---- check ------------------------------------------------------------- */

static int msg_check(const struct rmsg *m, const struct place *pl,
                     const char *path, struct tny_diag *diag);

static int value_check(const struct rmsg *m, const struct place *pl,
                       const struct rf *f, char *at, size_t j, const char *p,
                       struct tny_diag *diag)
{
    switch (f->kind) {
    case RK_INT:
        return wire__check_range(int_get(f, at), f->lo, f->hi, p, diag);
    case RK_REAL: {
        double v;
        memcpy(&v, at, sizeof v);
        return isfinite(v)
                   ? TNY_OK
                   : wire__fail(diag, "%s: expected a finite number", p);
    }
    case RK_FLAG: return TNY_OK;
    case RK_TEXT: {
        const char *s;
        memcpy(&s, at, sizeof s);
        return event_text(s, (f->flags & RF_NEED) != 0, p, diag);
    }
    case RK_ENUM:
    case RK_NAME:
        return f->en->valid(enum_get(at))
                   ? TNY_OK
                   : wire__fail(diag, "%s: unknown %s %d", p, f->en->noun,
                                enum_get(at));
    case RK_MSG: {
        struct place sp = sub_place(f, pl, at, j);
        (void)m;
        return msg_check(f->msg, &sp, p, diag);
    }
    }
    return TNY_OK;
}

/* A list's count and room: 0 when they hold. */
static int list_check(const struct rmsg *m, const struct place *pl,
                      const struct rf *f, const char *p, struct tny_diag *diag)
{
    int32_t n = list_n(pl, f);
    const char *what = f->what ? f->what : f->name;
    if (f->flags & RF_OUTER)
        return TNY_OK; /* the outer's own count, checked there */
    if (n < f->n_lo || n > f->n_hi ||
        ((f->flags & RF_PAIR) && n != 0 && n != f->n_hi))
        return f->flags & RF_PAIR
                   ? wire__fail(diag, "%s: expected 0 or %d %s, got %d", p,
                                (int)f->n_hi, what, (int)n)
                   : wire__fail(diag, "%s: expected %d..%d %s, got %d", p,
                                (int)f->n_lo, (int)f->n_hi, what, (int)n);
    if (n == 0)
        return TNY_OK;
    bool none = (f->flags & RF_PTR) && !value_at(m, pl, f);
    for (size_t k = 0; f->kind == RK_MSG && f->msg->columns && k < f->msg->n;
         k++) {
        const struct rf *c = &f->msg->f[k];
        const char *col;
        memcpy(&col, pl->base + c->off, sizeof col);
        none |= (c->flags & RF_PTR) && !col;
    }
    return none ? wire__fail(diag, "%s: %d %s, none given", p, (int)n, what)
                : TNY_OK;
}

static int msg_check(const struct rmsg *m, const struct place *pl,
                     const char *path, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX], ep[WIRE_PATH_MAX];
    int rc;
    if (m->own_check && (rc = m->own_check(pl->base, path, diag)) != 0)
        return rc < 0 ? rc : TNY_OK;
    for (size_t i = 0; i < m->n; i++) {
        const struct rf *f = &m->f[i];
        char *at = value_at(m, pl, f);
        WIRE_CHECK_PATH(diag, p, "%s.%s", path, f->name);
        if (!(f->flags & RF_LIST)) {
            if (is_present(m, pl, f, at) &&
                (rc = value_check(m, pl, f, at, 0, p, diag)) < 0)
                return rc;
            continue;
        }
        if ((rc = list_check(m, pl, f, p, diag)) < 0)
            return rc;
        int32_t n = list_n(pl, f);
        for (int32_t j = 0; j < n; j++) {
            WIRE_CHECK_PATH(diag, ep, "%s[%d]", p, (int)j);
            if ((rc = value_check(m, pl, f, at + (size_t)j * value_size(f),
                                  (size_t)j, ep, diag)) < 0)
                return rc;
        }
    }
    return m->rule ? m->rule(pl->base, pl->outer, path, diag) : TNY_OK;
}

/* ---- free -------------------------------------------------------------- */

/* Frees what the values of m at pl own (not the struct itself). */
static void msg_free(const struct rmsg *m, const struct place *pl)
{
    for (size_t i = 0; i < m->n; i++) {
        const struct rf *f = &m->f[i];
        char *at = value_at(m, pl, f);
        bool list = (f->flags & RF_LIST) != 0;
        /* an inline list of texts holds its room, others their count */
        int32_t n = !list ? 1
                    : f->kind == RK_TEXT && !(f->flags & RF_PTR)
                        ? f->n_hi
                        : list_n(pl, f);
        if (f->kind == RK_TEXT)
            for (int32_t j = 0; at && j < n; j++) {
                char *s;
                memcpy(&s, at + (size_t)j * sizeof s, sizeof s);
                free(s);
            }
        if (f->kind == RK_MSG)
            for (int32_t j = 0; (at || f->msg->columns) && j < n; j++) {
                struct place sp =
                    sub_place(f, pl, at ? at + (size_t)j * f->msg->size : NULL,
                              (size_t)j);
                msg_free(f->msg, &sp);
            }
        if (f->kind == RK_MSG && f->msg->columns && list)
            for (size_t k = 0; k < f->msg->n; k++)
                if (f->msg->f[k].flags & RF_PTR) {
                    void *col;
                    memcpy(&col, pl->base + f->msg->f[k].off, sizeof col);
                    free(col);
                }
        if ((f->flags & RF_PTR) && !m->columns)
            free(at);
    }
}

static void reply_free(const struct rmsg *m, void *s)
{
    if (!s)
        return;
    struct place pl = {s, 0, NULL};
    msg_free(m, &pl);
    free(s);
}

/* ---- encode ------------------------------------------------------------ */

static const ProtobufCFieldDescriptor *pb_field(const struct rmsg *m,
                                                const struct rf *f)
{
    return protobuf_c_message_descriptor_get_field_by_name(m->pb, f->name);
}

/* Frees a message msg_to_pb built (its strings are borrowed). */
static void pb_free(ProtobufCMessage *x)
{
    if (!x)
        return;
    const ProtobufCMessageDescriptor *d = x->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        char *v = (char *)x + f->offset;
        void *p = NULL;
        if (f->label == PROTOBUF_C_LABEL_REPEATED ||
            f->type == PROTOBUF_C_TYPE_MESSAGE)
            memcpy(&p, v, sizeof p);
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n;
            memcpy(&n, (char *)x + f->quantifier_offset, sizeof n);
            for (size_t j = 0; p && f->type == PROTOBUF_C_TYPE_MESSAGE && j < n;
                 j++)
                pb_free(((ProtobufCMessage **)p)[j]);
            free(p);
        } else if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
            pb_free(p);
        }
    }
    free(x);
}

static size_t pb_size(const ProtobufCFieldDescriptor *d)
{
    switch (d->type) {
    case PROTOBUF_C_TYPE_UINT32: return sizeof(uint32_t);
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_DOUBLE: return sizeof(int64_t);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_ENUM: return sizeof(int);
    default: return sizeof(void *); /* STRING, MESSAGE */
    }
}

static ProtobufCMessage *msg_to_pb(const struct rmsg *m,
                                   const struct place *pl);

/* One value of f at `at` into the protobuf's at v: false when out of
 * memory. */
static bool value_to_pb(const struct rf *f, const struct place *pl, char *at,
                        size_t j, char *v)
{
    switch (f->kind) {
    case RK_INT:
        if (f->flags & RF_64) {
            int64_t n = int_get(f, at);
            memcpy(v, &n, sizeof n);
        } else {
            uint32_t n = (uint32_t)int_get(f, at);
            memcpy(v, &n, sizeof n);
        }
        return true;
    case RK_REAL: memcpy(v, at, sizeof(double)); return true;
    case RK_FLAG: {
        protobuf_c_boolean b = *(const bool *)at;
        memcpy(v, &b, sizeof b);
        return true;
    }
    case RK_TEXT: {
        const char *t;
        memcpy(&t, at, sizeof t);
        memcpy(v, &t, sizeof t);
        return true;
    }
    case RK_ENUM: {
        int e = f->en->to_pb(enum_get(at));
        memcpy(v, &e, sizeof e);
        return true;
    }
    case RK_NAME: {
        const char *s = f->en->name(enum_get(at));
        memcpy(v, &s, sizeof s);
        return true;
    }
    case RK_MSG: {
        struct place sp = sub_place(f, pl, at, j);
        ProtobufCMessage *x = msg_to_pb(f->msg, &sp);
        memcpy(v, &x, sizeof x);
        return x != NULL;
    }
    }
    return false;
}

static ProtobufCMessage *msg_to_pb(const struct rmsg *m, const struct place *pl)
{
    ProtobufCMessage *x = calloc(1, m->pb->sizeof_message);
    if (!x)
        return NULL;
    m->pb->message_init(x);
    if (m->own_to_pb && m->own_to_pb(pl->base, x))
        return x;
    for (size_t i = 0; i < m->n; i++) {
        const struct rf *f = &m->f[i];
        const ProtobufCFieldDescriptor *d = pb_field(m, f);
        if (!d) /* a row not of console.proto (test_wire.c) */
            goto fail;
        char *at = value_at(m, pl, f), *v = (char *)x + d->offset;
        if (!(f->flags & RF_LIST)) {
            protobuf_c_boolean has = is_present(m, pl, f, at);
            if (has && !value_to_pb(f, pl, at, 0, v))
                goto fail;
            if (d->quantifier_offset)
                memcpy((char *)x + d->quantifier_offset, &has, sizeof has);
            continue;
        }
        size_t n = (size_t)list_n(pl, f), sz = pb_size(d);
        if (n == 0)
            continue;
        char *arr = calloc(n, sz);
        if (!arr)
            goto fail;
        memcpy(v, &arr, sizeof arr);
        memcpy((char *)x + d->quantifier_offset, &n, sizeof n);
        for (size_t j = 0; j < n; j++)
            if (!value_to_pb(f, pl, at + j * value_size(f), j, arr + j * sz))
                goto fail;
    }
    return x;
fail:
    pb_free(x);
    return NULL;
}

/* ---- decode ------------------------------------------------------------ */

static int msg_from_pb(const struct rmsg *m, const ProtobufCMessage *x,
                       const struct place *pl, const char *path,
                       struct tny_diag *diag);

/* One value of the protobuf's at v (present) into f's at `at`. */
static int value_from_pb(const struct rf *f, const struct place *pl,
                         const char *v, char *at, size_t j, const char *p,
                         struct tny_diag *diag)
{
    int rc, e;
    switch (f->kind) {
    case RK_INT:
        if (f->flags & RF_64) {
            int64_t n;
            memcpy(&n, v, sizeof n);
            memcpy(at, &n, sizeof n);
        } else {
            uint32_t u;
            int32_t n;
            memcpy(&u, v, sizeof u);
            if ((rc = wire__u32(true, u, true, p, &n, diag)) < 0)
                return rc;
            memcpy(at, &n, sizeof n);
        }
        return wire__check_range(int_get(f, at), f->lo, f->hi, p, diag);
    case RK_REAL: memcpy(at, v, sizeof(double)); return TNY_OK;
    case RK_FLAG: {
        protobuf_c_boolean b;
        memcpy(&b, v, sizeof b);
        *(bool *)at = b;
        return TNY_OK;
    }
    case RK_TEXT: {
        const char *s;
        memcpy(&s, v, sizeof s);
        return wire__dup((char **)(void *)at, s, diag);
    }
    case RK_ENUM:
        if (!f->en->from_pb(enum_get(v), &e))
            return wire__fail(diag, "%s: unknown %s %d", p, f->en->noun,
                              enum_get(v));
        memcpy(at, &e, sizeof e);
        return TNY_OK;
    case RK_NAME: {
        const char *s;
        memcpy(&s, v, sizeof s);
        if (!s || !f->en->from_name(s, &e))
            return wire__fail(diag, "%s: unknown %s \"%.40s\"", p, f->en->noun,
                              s ? s : "");
        memcpy(at, &e, sizeof e);
        return TNY_OK;
    }
    case RK_MSG: {
        const ProtobufCMessage *x;
        memcpy(&x, v, sizeof x);
        struct place sp = sub_place(f, pl, at, j);
        return msg_from_pb(f->msg, x, &sp, p, diag);
    }
    }
    return TNY_OK;
}

/* The room of a decoded list when its member points to it. */
static int make_room(const struct rf *c, size_t n, char *base,
                     struct tny_diag *diag)
{
    if (!(c->flags & RF_PTR))
        return TNY_OK;
    void *arr = calloc(n, value_size(c));
    if (!arr)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    memcpy(base + c->off, &arr, sizeof arr);
    return TNY_OK;
}

/* A list's count from the wire, its room made: 0 or an error. */
static int list_from_pb(const struct rf *f, size_t n, const struct place *pl,
                        const char *p, struct tny_diag *diag)
{
    const char *what = f->what ? f->what : f->name;
    int rc = TNY_OK;
    if (f->flags & RF_OUTER) {
        int32_t want = list_n(pl, f);
        return n == (size_t)want
                   ? TNY_OK
                   : wire__fail(diag, "%s: expected %d %s, got %zu", p,
                                (int)want, what, n);
    }
    if (n < (size_t)f->n_lo || n > (size_t)f->n_hi ||
        ((f->flags & RF_PAIR) && n != 0 && n != (size_t)f->n_hi))
        return f->flags & RF_PAIR
                   ? wire__fail(diag, "%s: expected 0 or %d %s, got %zu", p,
                                (int)f->n_hi, what, n)
                   : wire__fail(diag, "%s: expected %d..%d %s, got %zu", p,
                                (int)f->n_lo, (int)f->n_hi, what, n);
    if (n && f->kind == RK_MSG && f->msg->columns)
        for (size_t k = 0; rc == TNY_OK && k < f->msg->n; k++)
            rc = make_room(&f->msg->f[k], n, pl->base, diag);
    else if (n)
        rc = make_room(f, n, pl->base, diag);
    int32_t n32 = (int32_t)n;
    if (rc == TNY_OK)
        memcpy(pl->base + f->n_off, &n32, sizeof n32);
    return rc;
}

static int msg_from_pb(const struct rmsg *m, const ProtobufCMessage *x,
                       const struct place *pl, const char *path,
                       struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX], ep[WIRE_PATH_MAX];
    int rc;
    if (m->own_from_pb && (rc = m->own_from_pb(x, pl->base, path, diag)) != 0)
        return rc < 0 ? rc : TNY_OK;
    for (size_t i = 0; i < m->n; i++) {
        const struct rf *f = &m->f[i];
        const ProtobufCFieldDescriptor *d = pb_field(m, f);
        if (!d)
            return wire__fail(diag, "%s.%s: not a field of %s", path, f->name,
                              m->pb->name);
        const char *v = (const char *)x + d->offset;
        protobuf_c_boolean has = true;
        size_t n = 1;
        wire__path(p, sizeof p, "%s.%s", path, f->name);
        if (d->label == PROTOBUF_C_LABEL_REPEATED) {
            memcpy(&n, (const char *)x + d->quantifier_offset, sizeof n);
            if ((rc = list_from_pb(f, n, pl, p, diag)) < 0)
                return rc;
            const char *arr;
            memcpy(&arr, v, sizeof arr);
            char *at = value_at(m, pl, f);
            for (size_t j = 0; j < n; j++) {
                wire__path(ep, sizeof ep, "%s[%zu]", p, j);
                if ((rc = value_from_pb(f, pl, arr + j * pb_size(d),
                                        at + j * value_size(f), j, ep, diag)) <
                    0)
                    return rc;
            }
            continue;
        }
        if (d->quantifier_offset)
            memcpy(&has, (const char *)x + d->quantifier_offset, sizeof has);
        else if (d->type == PROTOBUF_C_TYPE_MESSAGE ||
                 d->type == PROTOBUF_C_TYPE_STRING)
            has = *(void *const *)v != NULL;
        if (!has) {
            if (f->flags & RF_NEED)
                return wire__fail(diag, "%s: missing", p);
            continue;
        }
        if ((rc = value_from_pb(f, pl, v, value_at(m, pl, f), 0, p, diag)) < 0)
            return rc;
        if (f->flags & RF_HAS)
            *(bool *)member(m, pl, f->has_off, false, sizeof(bool)) = true;
    }
    return TNY_OK;
}

/* A payload's decode: NULL x (absent) gives NULL. */
static int reply_from_pb(const struct rmsg *m, const ProtobufCMessage *x,
                         const char *path, void **out, struct tny_diag *diag)
{
    *out = NULL;
    if (!x)
        return TNY_OK;
    void *s = calloc(1, m->size);
    if (!s)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    struct place pl = {s, 0, NULL};
    int rc = msg_from_pb(m, x, &pl, path, diag);
    if (rc < 0)
        reply_free(m, s);
    else
        *out = s;
    return rc;
}

/* ---- the enums ---------------------------------------------------------- */

static bool stage_valid(int v)
{
    return wire__stage_valid((enum tny_stage_kind)v);
}
static int stage_to_pb(int v)
{
    return wire__stage_to_pb((enum tny_stage_kind)v);
}
static bool stage_from_pb(int pb, int *v)
{
    enum tny_stage_kind s;
    if (!wire__stage_from_pb(pb, &s))
        return false;
    *v = (int)s;
    return true;
}
static const struct renum stage_enum = {"stage",       stage_valid, stage_to_pb,
                                        stage_from_pb, NULL,        NULL};

static const int clock_pb[] = {
    [TNY_ROUND_CLOCK_READY] = TOURNEY__V1__CLOCK_STATE__CLOCK_NOT_STARTED,
    [TNY_ROUND_CLOCK_RUNNING] = TOURNEY__V1__CLOCK_STATE__CLOCK_RUNNING,
    [TNY_ROUND_CLOCK_PAUSED] = TOURNEY__V1__CLOCK_STATE__CLOCK_PAUSED,
};
static bool clock_valid(int v)
{
    return v >= TNY_ROUND_CLOCK_READY && v <= TNY_ROUND_CLOCK_PAUSED;
}
static int clock_to_pb(int v)
{
    return clock_pb[v];
}
static bool clock_from_pb(int pb, int *v)
{
    for (int s = TNY_ROUND_CLOCK_READY; s <= TNY_ROUND_CLOCK_PAUSED; s++)
        if (clock_pb[s] == pb) {
            *v = s;
            return true;
        }
    return false;
}
static const struct renum clock_enum = {"clock state", clock_valid, clock_to_pb,
                                        clock_from_pb, NULL,        NULL};

/* RoundStatus is wire.h's enum; NONE (a draft) is the field absent. */
static bool status_valid(int v)
{
    return v >= TNY_WIRE_ROUND_NONE && v <= TNY_WIRE_ROUND_CLOSED;
}
static int status_to_pb(int v)
{
    return v;
}
static bool status_from_pb(int pb, int *v)
{
    *v = pb;
    return pb >= TNY_WIRE_ROUND_DRAFT && pb <= TNY_WIRE_ROUND_CLOSED;
}
static const struct renum status_enum = {
    "round status", status_valid, status_to_pb, status_from_pb, NULL, NULL};

static const char *tiebreak_name(int v)
{
    return tny_tiebreak_name((enum tny_tiebreak)v);
}
static bool tiebreak_from_name(const char *s, int *v)
{
    enum tny_tiebreak tb;
    if (tny_tiebreak_from_name(s, &tb) < 0)
        return false;
    *v = (int)tb;
    return true;
}
static bool tiebreak_valid(int v)
{
    int back;
    const char *name = tiebreak_name(v);
    return name && tiebreak_from_name(name, &back) && back == v;
}
static const struct renum tiebreak_enum = {
    "tiebreak", tiebreak_valid, NULL, NULL, tiebreak_name, tiebreak_from_name};

_Static_assert(sizeof(enum tny_stage_kind) == sizeof(int) &&
                   sizeof(enum tny_round_clock_state) == sizeof(int) &&
                   sizeof(enum tny_wire_round_status) == sizeof(int) &&
                   sizeof(enum tny_tiebreak) == sizeof(int),
               "an enum member is read as an int");

/* ---- the messages ------------------------------------------------------- */

#define F(T, wire, k, fl, m, ...)                                              \
    {                                                                          \
        .name = wire, .kind = k, .flags = fl, .off = offsetof(T, m),           \
        __VA_ARGS__                                                            \
    }
#define LIST(T, n, lo, hi) .n_off = offsetof(T, n), .n_lo = lo, .n_hi = hi
/* A message's description: its fields' table m_f, its hooks. */
#define MSG(m, ...)                                                            \
    static const struct rmsg m##_m = {.pb = &tourney__v1__##m##__descriptor,   \
                                      .f = m##_f,                              \
                                      .n = sizeof m##_f / sizeof m##_f[0],     \
                                      __VA_ARGS__}

/* TimeLeft: a clock as the reply shows it. */
#define T struct tny_wire_time_left
static const struct rf time_left_f[] = {
    F(T, "state", RK_ENUM, RF_NEED | RF_ALWAYS, state, .en = &clock_enum),
    F(T, "left_ms", RK_INT, RF_NEED | RF_ALWAYS | RF_64, left_ms,
      .lo = -TNY_CLOCK_MAX_INSTANT_MS, .hi = TNY_CLOCK_MAX_INSTANT_MS),
};
#undef T
MSG(time_left, .size = sizeof(struct tny_wire_time_left));

/* SeatedTable: a table, or a bye (table 0): the bye's own code. */
static int bye_check(const void *sv, const char *p, struct tny_diag *diag)
{
    const struct tny_wire_seated_table *t = sv;
    char fp[WIRE_PATH_MAX];
    if (t->table != 0)
        return 0;
    if (t->n_players != 1 || t->n_sides || t->first_player || t->clock.has)
        return wire__fail(diag,
                          "%s: a bye (no table number) has one player "
                          "and nothing else",
                          p);
    WIRE_CHECK_PATH(diag, fp, "%s.bye", p);
    int rc = event_text(t->players[0], true, fp, diag);
    return rc < 0 ? rc : 1;
}

static bool bye_to_pb(const void *sv, ProtobufCMessage *x)
{
    const struct tny_wire_seated_table *t = sv;
    if (t->table != 0)
        return false;
    ((Tourney__V1__SeatedTable *)(void *)x)->bye = t->players[0];
    return true;
}

static int bye_from_pb(const ProtobufCMessage *x, void *sv, const char *p,
                       struct tny_diag *diag)
{
    const Tourney__V1__SeatedTable *m = (const void *)x;
    struct tny_wire_seated_table *t = sv;
    if (!m->bye)
        return 0;
    if (m->has_table || m->n_players || m->n_sides || m->first_player ||
        m->clock)
        return wire__fail(diag,
                          "%s: a bye has no table number, players, "
                          "sides, first player or clock",
                          p);
    t->n_players = 1;
    int rc = wire__dup(&t->players[0], m->bye, diag);
    return rc < 0 ? rc : 1;
}

#define T struct tny_wire_seated_table
static const struct rf seated_table_f[] = {
    F(T, "table", RK_INT, RF_NEED | RF_ALWAYS, table, .lo = 1,
      .hi = WIRE_MAX_TABLE),
    F(T, "players", RK_TEXT, RF_NEED | RF_LIST, players,
      LIST(T, n_players, 1, TNY_MAX_SEATS)),
    F(T, "sides", RK_TEXT, RF_NEED | RF_LIST | RF_PAIR, sides,
      LIST(T, n_sides, 0, 2)),
    F(T, "first_player", RK_TEXT, 0, first_player, .lo = 0),
    F(T, "clock", RK_MSG, RF_HAS, clock, .has_off = offsetof(T, clock.has),
      .msg = &time_left_m),
};
#undef T
MSG(seated_table, .size = sizeof(struct tny_wire_seated_table), .own = "bye",
    .own_check = bye_check, .own_to_pb = bye_to_pb, .own_from_pb = bye_from_pb);

#define T struct tny_wire_player_name
static const struct rf player_name_f[] = {
    F(T, "id", RK_TEXT, RF_NEED, id, .lo = 0),
    F(T, "name", RK_TEXT, 0, name, .lo = 0),
};
#undef T
MSG(player_name, .size = sizeof(struct tny_wire_player_name));

/* Seating: a draft (explain) or a round sent (status); republished: only
 * the round. */
static int seating_rule(const void *sv, const void *outer, const char *path,
                        struct tny_diag *diag)
{
    const struct tny_wire_seating *s = sv;
    (void)outer;
    if (s->status != TNY_WIRE_ROUND_NONE && s->explain)
        return wire__fail(diag,
                          "%s: explain is a draft's, status a published "
                          "round's: not both",
                          path);
    if (s->republished && (s->n_tables || s->n_names || s->explain))
        return wire__fail(diag,
                          "%s.republished: a republished round carries "
                          "no seating (ask for it)",
                          path);
    return TNY_OK;
}

#define T struct tny_wire_seating
static const struct rf seating_f[] = {
    F(T, "round", RK_INT, RF_NEED | RF_ALWAYS, round, .lo = 1,
      .hi = WIRE_MAX_ROUND),
    F(T, "stage", RK_ENUM, RF_HAS, stage, .has_off = offsetof(T, has_stage),
      .en = &stage_enum),
    F(T, "status", RK_ENUM, 0, status, .en = &status_enum),
    F(T, "clock", RK_MSG, RF_HAS, clock, .has_off = offsetof(T, clock.has),
      .msg = &time_left_m),
    F(T, "tables", RK_MSG, RF_LIST | RF_PTR, tables,
      LIST(T, n_tables, 0, SEATING_MAX_TABLES), .msg = &seated_table_m),
    F(T, "explain", RK_TEXT, 0, explain, .lo = 0),
    F(T, "names", RK_MSG, RF_LIST | RF_PTR, names,
      LIST(T, n_names, 0, SEATING_MAX_NAMES), .msg = &player_name_m),
    F(T, "republished", RK_FLAG, 0, republished, .lo = 0),
};
#undef T
MSG(seating, .size = sizeof(struct tny_wire_seating), .rule = seating_rule);

/* TiebreakValue: a row's columns has_tiebreak[k], tiebreaks[k]. */
#define T struct tny_wire_standing_row
static const struct rf tiebreak_value_f[] = {
    F(T, "value", RK_REAL, RF_HAS, tiebreaks,
      .has_off = offsetof(T, has_tiebreak)),
};
MSG(tiebreak_value, .columns = true);

/* A row's games on each side: none without sides. */
static int row_rule(const void *rv, const void *outer, const char *p,
                    struct tny_diag *diag)
{
    const struct tny_wire_standing_row *r = rv;
    const struct tny_wire_standings *s = outer;
    for (int k = 0; k < 2; k++)
        if (!s->n_sides && r->side_games[k])
            return wire__fail(diag,
                              "%s.side_games: expected games on each of "
                              "the format's sides",
                              p);
    return TNY_OK;
}

static const struct rf standing_row_f[] = {
    F(T, "rank", RK_INT, RF_NEED | RF_ALWAYS, rank, .lo = 1,
      .hi = STANDINGS_MAX_ROWS),
    F(T, "player", RK_TEXT, RF_NEED, player, .lo = 0),
    F(T, "name", RK_TEXT, 0, name, .lo = 0),
    F(T, "points_units", RK_INT, RF_NEED | RF_ALWAYS | RF_64, points_units,
      .lo = INT64_MIN, .hi = INT64_MAX),
    F(T, "tiebreaks", RK_MSG, RF_LIST | RF_OUTER, tiebreaks,
      .n_off = offsetof(struct tny_wire_standings, n_tiebreaks),
      .n_hi = TNY_MAX_TIEBREAKS, .msg = &tiebreak_value_m,
      .what = "values (one per column)"),
    F(T, "dropped", RK_FLAG, 0, dropped, .lo = 0),
    F(T, "decided_by_lot", RK_FLAG, 0, decided_by_lot, .lo = 0),
    F(T, "disqualified", RK_FLAG, 0, disqualified, .lo = 0),
    F(T, "separate_list", RK_FLAG, 0, separate_list, .lo = 0),
    F(T, "side_games", RK_INT, RF_LIST | RF_OUTER, side_games, .hi = INT32_MAX,
      .n_off = offsetof(struct tny_wire_standings, n_sides), .n_hi = 2,
      .what = "counts (one per side)"),
};
#undef T
MSG(standing_row, .size = sizeof(struct tny_wire_standing_row),
    .rule = row_rule);

#define T struct tny_wire_standings
static const struct rf standings_f[] = {
    F(T, "after_round", RK_INT, RF_ALWAYS, after_round, .hi = WIRE_MAX_ROUND),
    F(T, "stage", RK_ENUM, RF_NEED | RF_ALWAYS, stage, .en = &stage_enum),
    F(T, "tiebreaks", RK_NAME, RF_LIST, tiebreaks,
      LIST(T, n_tiebreaks, 0, TNY_MAX_TIEBREAKS), .en = &tiebreak_enum),
    F(T, "sides", RK_TEXT, RF_NEED | RF_LIST | RF_PAIR, sides,
      LIST(T, n_sides, 0, 2)),
    F(T, "rows", RK_MSG, RF_LIST | RF_PTR, rows,
      LIST(T, n_rows, 0, STANDINGS_MAX_ROWS), .msg = &standing_row_m),
};
#undef T
MSG(standings, .size = sizeof(struct tny_wire_standings));

/* DeviceAtTable: the summary's columns tables[i], devices[i]. */
#define T struct tny_wire_published
static const struct rf device_at_table_f[] = {
    F(T, "table", RK_INT, RF_NEED | RF_ALWAYS | RF_PTR, tables, .lo = 1,
      .hi = WIRE_MAX_TABLE),
    F(T, "device", RK_TEXT, RF_NEED | RF_PTR, devices, .lo = 0),
};
MSG(device_at_table, .columns = true);

static const struct rf publish_summary_f[] = {
    F(T, "round", RK_INT, RF_NEED | RF_ALWAYS, round, .lo = 1,
      .hi = WIRE_MAX_ROUND),
    F(T, "assigned", RK_MSG, RF_LIST, n_assigned,
      LIST(T, n_assigned, 0, WIRE_MAX_TABLE), .msg = &device_at_table_m,
      .what = "tables"),
    F(T, "tables_without_device", RK_INT, RF_LIST | RF_PTR, missing, .lo = 1,
      .hi = WIRE_MAX_TABLE, LIST(T, n_missing, 0, WIRE_MAX_TABLE),
      .what = "tables"),
    F(T, "idle_devices", RK_INT, 0, idle_devices, .hi = INT32_MAX),
};
#undef T
MSG(publish_summary, .size = sizeof(struct tny_wire_published));
#undef F
#undef LIST
#undef MSG

/* ---- owning and freeing -------------------------------------------------- */

struct tny_wire_seating *tny_wire_seating_new(int32_t n_tables, int32_t n_names)
{
    struct tny_wire_seating *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (n_tables > 0 &&
        !(s->tables = calloc((size_t)n_tables, sizeof *s->tables)))
        goto fail;
    if (n_names > 0 && !(s->names = calloc((size_t)n_names, sizeof *s->names)))
        goto fail;
    s->n_tables = n_tables > 0 ? n_tables : 0;
    s->n_names = n_names > 0 ? n_names : 0;
    return s;
fail:
    free(s->tables);
    free(s);
    return NULL;
}

void tny_wire_seating_free(struct tny_wire_seating *s)
{
    reply_free(&seating_m, s);
}

struct tny_wire_standings *tny_wire_standings_new(int32_t n_rows)
{
    struct tny_wire_standings *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (n_rows > 0 && !(s->rows = calloc((size_t)n_rows, sizeof *s->rows))) {
        free(s);
        return NULL;
    }
    s->n_rows = n_rows > 0 ? n_rows : 0;
    return s;
}

void tny_wire_standings_free(struct tny_wire_standings *s)
{
    reply_free(&standings_m, s);
}

struct tny_wire_published *tny_wire_published_new(int32_t n_assigned,
                                                  int32_t n_missing)
{
    struct tny_wire_published *p = calloc(1, sizeof *p);
    size_t na = n_assigned > 0 ? (size_t)n_assigned : 0;
    size_t nm = n_missing > 0 ? (size_t)n_missing : 0;
    if (!p)
        return NULL;
    p->n_assigned = (int32_t)na;
    p->n_missing = (int32_t)nm;
    if ((na && (!(p->tables = calloc(na, sizeof *p->tables)) ||
                !(p->devices = calloc(na, sizeof *p->devices)))) ||
        (nm && !(p->missing = calloc(nm, sizeof *p->missing)))) {
        p->n_assigned = 0;
        tny_wire_published_free(p);
        return NULL;
    }
    return p;
}

void tny_wire_published_free(struct tny_wire_published *p)
{
    reply_free(&publish_summary_m, p);
}

void tny_wire_reply_drop_payload(struct tny_wire_reply *rep)
{
    for (size_t i = 0; i < wire__n_payloads; i++) {
        size_t off = wire__payloads[i].rep_off;
        wire__payloads[i].free(wire__slot_get(rep, off));
        wire__slot_set(rep, off, NULL);
    }
}

/* ---- records (TNY_REPLY_RECORDS) --------------------------------------- */

/* Nodes a reply's records may hold: the console message's 4 MiB (a node
 * is at least 4 bytes on the wire) bounds them first. */
#define RECORDS_MAX_NODES (1 << 20)

struct tny_wire_records *tny_wire_records_new(int32_t n_nodes)
{
    struct tny_wire_records *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (n_nodes > 0 &&
        !(r->nodes = calloc((size_t)n_nodes, sizeof *r->nodes))) {
        free(r);
        return NULL;
    }
    r->n_nodes = n_nodes > 0 ? n_nodes : 0;
    return r;
}

void tny_wire_records_free(struct tny_wire_records *r)
{
    if (!r)
        return;
    for (int32_t i = 0; r->nodes && i < r->n_nodes; i++) {
        free(r->nodes[i].key);
        free(r->nodes[i].text);
    }
    free(r->nodes);
    free(r);
}

/* One node's own value (not its place in the tree). */
static int node_check(const struct tny_wire_node *v, const char *p,
                      int32_t after, struct tny_diag *diag)
{
    char fp[WIRE_PATH_MAX];
    switch (v->kind) {
    case TNY_WIRE_NODE_NULL:
    case TNY_WIRE_NODE_FLAG:
    case TNY_WIRE_NODE_INTEGER: return TNY_OK;
    case TNY_WIRE_NODE_REAL:
        return isfinite(v->real)
                   ? TNY_OK
                   : wire__fail(diag, "%s.real: expected a finite number", p);
    case TNY_WIRE_NODE_TEXT:
        WIRE_CHECK_PATH(diag, fp, "%s.text", p);
        return event_text(v->text ? v->text : "", false, fp, diag);
    case TNY_WIRE_NODE_RECORD:
    case TNY_WIRE_NODE_LIST:
        if (v->n < 0 || v->n > after)
            return wire__fail(
                diag, "%s.%s: %d children, but %d nodes follow", p,
                v->kind == TNY_WIRE_NODE_RECORD ? "record" : "list", (int)v->n,
                (int)after);
        return TNY_OK;
    }
    return wire__fail(diag, "%s: unknown value kind %d", p, (int)v->kind);
}

/* The tree's shape, walked without recursion: one root; each record's
 * or list's children follow it; a record's children have keys, a list's
 * none; at most TNY_WIRE_RECORDS_DEPTH deep. */
static int records_check(const struct tny_wire_records *r, const char *path,
                         struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int32_t left[TNY_WIRE_RECORDS_DEPTH];
    bool in_record[TNY_WIRE_RECORDS_DEPTH];
    int depth = 0, rc;
    if (r->n_nodes < 1 || r->n_nodes > RECORDS_MAX_NODES || !r->nodes)
        return wire__fail(diag, "%s.nodes: expected 1..%d nodes, got %d", path,
                          RECORDS_MAX_NODES, (int)r->n_nodes);
    for (int32_t i = 0; i < r->n_nodes; i++) {
        const struct tny_wire_node *v = &r->nodes[i];
        WIRE_CHECK_PATH(diag, p, "%s.nodes[%d]", path, (int)i);
        if (i > 0 && depth == 0)
            return wire__fail(diag,
                              "%s: after the whole root (one root, its "
                              "children after it)",
                              p);
        bool keyed = depth > 0 && in_record[depth - 1];
        if (keyed != (v->key != NULL))
            return wire__fail(diag,
                              keyed ? "%s.key: missing (a record's member)"
                                    : "%s.key: only a record's member has "
                                      "one",
                              p);
        if (v->key) {
            char kp[WIRE_PATH_MAX];
            WIRE_CHECK_PATH(diag, kp, "%s.key", p);
            if ((rc = event_text(v->key, false, kp, diag)) < 0)
                return rc;
        }
        if ((rc = node_check(v, p, r->n_nodes - i - 1, diag)) < 0)
            return rc;
        if (depth > 0)
            left[depth - 1]--;
        if (v->kind == TNY_WIRE_NODE_RECORD || v->kind == TNY_WIRE_NODE_LIST) {
            if (depth == TNY_WIRE_RECORDS_DEPTH)
                return wire__fail(diag, "%s: nested deeper than %d", p,
                                  TNY_WIRE_RECORDS_DEPTH);
            left[depth] = v->n;
            in_record[depth++] = v->kind == TNY_WIRE_NODE_RECORD;
        }
        while (depth > 0 && left[depth - 1] == 0)
            depth--;
    }
    if (depth > 0)
        return wire__fail(diag,
                          "%s.nodes: ends inside a record or list (%d "
                          "children missing)",
                          path, (int)left[depth - 1]);
    return TNY_OK;
}

/* The protobuf of checked records; m first (freed as one). */
struct records_pb {
    Tourney__V1__Records m;
    Tourney__V1__RecordNode *nodes, **np;
};

static void records_pb_free(Tourney__V1__Records *m)
{
    struct records_pb *s = (struct records_pb *)m;
    if (!s)
        return;
    free(s->nodes);
    free(s->np);
    free(s);
}

static Tourney__V1__Records *records_to_pb(const struct tny_wire_records *in)
{
    struct records_pb *s = calloc(1, sizeof *s);
    size_t n = (size_t)in->n_nodes;
    if (!s || !(s->nodes = calloc(n, sizeof *s->nodes)) ||
        !(s->np = calloc(n, sizeof *s->np))) {
        records_pb_free(s ? &s->m : NULL);
        return NULL;
    }
    tourney__v1__records__init(&s->m);
    for (size_t i = 0; i < n; i++) {
        const struct tny_wire_node *v = &in->nodes[i];
        Tourney__V1__RecordNode *x = &s->nodes[i];
        tourney__v1__record_node__init(x);
        x->key = v->key;
        switch (v->kind) {
        case TNY_WIRE_NODE_NULL:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_NULL;
            x->null = true;
            break;
        case TNY_WIRE_NODE_FLAG:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_FLAG;
            x->flag = v->flag;
            break;
        case TNY_WIRE_NODE_INTEGER:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_INTEGER;
            x->integer = v->integer;
            break;
        case TNY_WIRE_NODE_REAL:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_REAL;
            x->real = v->real;
            break;
        case TNY_WIRE_NODE_TEXT:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_TEXT;
            x->text = v->text ? v->text : (char *)"";
            break;
        case TNY_WIRE_NODE_RECORD:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_RECORD;
            x->record = (uint32_t)v->n;
            break;
        case TNY_WIRE_NODE_LIST:
            x->value_case = TOURNEY__V1__RECORD_NODE__VALUE_LIST;
            x->list = (uint32_t)v->n;
            break;
        }
        s->np[i] = x;
    }
    s->m.n_nodes = n;
    s->m.nodes = s->np;
    return &s->m;
}

static int records_from_pb(const Tourney__V1__Records *m, const char *path,
                           struct tny_wire_records **out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc = TNY_OK;
    *out = NULL;
    if (!m)
        return TNY_OK;
    if (m->n_nodes < 1 || m->n_nodes > RECORDS_MAX_NODES)
        return wire__fail(diag, "%s.nodes: expected 1..%d nodes, got %zu", path,
                          RECORDS_MAX_NODES, m->n_nodes);
    struct tny_wire_records *r = tny_wire_records_new((int32_t)m->n_nodes);
    if (!r)
        return tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    for (size_t i = 0; rc == TNY_OK && i < m->n_nodes; i++) {
        const Tourney__V1__RecordNode *x = m->nodes[i];
        struct tny_wire_node *v = &r->nodes[i];
        wire__path(p, sizeof p, "%s.nodes[%zu]", path, i);
        if ((rc = wire__dup(&v->key, x->key, diag)) < 0)
            break;
        switch (x->value_case) {
        case TOURNEY__V1__RECORD_NODE__VALUE_NULL:
            v->kind = TNY_WIRE_NODE_NULL;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_FLAG:
            v->kind = TNY_WIRE_NODE_FLAG;
            v->flag = x->flag;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_INTEGER:
            v->kind = TNY_WIRE_NODE_INTEGER;
            v->integer = x->integer;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_REAL:
            v->kind = TNY_WIRE_NODE_REAL;
            v->real = x->real;
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_TEXT:
            v->kind = TNY_WIRE_NODE_TEXT;
            rc = wire__dup(&v->text, x->text, diag);
            break;
        case TOURNEY__V1__RECORD_NODE__VALUE_RECORD:
        case TOURNEY__V1__RECORD_NODE__VALUE_LIST: {
            bool rec = x->value_case == TOURNEY__V1__RECORD_NODE__VALUE_RECORD;
            uint32_t n = rec ? x->record : x->list;
            v->kind = rec ? TNY_WIRE_NODE_RECORD : TNY_WIRE_NODE_LIST;
            if (n > (uint32_t)RECORDS_MAX_NODES)
                rc = wire__fail(diag, "%s.%s: %u children, more than %d", p,
                                rec ? "record" : "list", (unsigned)n,
                                RECORDS_MAX_NODES);
            v->n = (int32_t)(n > (uint32_t)RECORDS_MAX_NODES ? 0 : n);
            break;
        }
        default: rc = wire__fail(diag, "%s: no value", p); break;
        }
    }
    if (rc < 0)
        tny_wire_records_free(r);
    else
        *out = r;
    return rc;
}

/* ---- the payloads' table ----------------------------------------------- */

/* A described payload's codec: the walks with its message's table. */
#define DESCRIBED(field, T, desc)                                              \
    static int field##_check_any(const void *s, const char *p,                 \
                                 struct tny_diag *diag)                        \
    {                                                                          \
        struct place pl = {(char *)s, 0, NULL};                                \
        /* Without paths; a refused one again with them (issue 17). */         \
        int rc = msg_check(&desc, &pl, p, NULL);                               \
        return rc < 0 && diag ? msg_check(&desc, &pl, p, diag) : rc;           \
    }                                                                          \
    static int field##_from_any(const void *m, const char *p, void **out,      \
                                struct tny_diag *diag)                         \
    {                                                                          \
        return reply_from_pb(&desc, m, p, out, diag);                          \
    }                                                                          \
    static void *field##_to_any(const void *s)                                 \
    {                                                                          \
        struct place pl = {(char *)s, 0, NULL};                                \
        return msg_to_pb(&desc, &pl);                                          \
    }                                                                          \
    static void field##_pb_free_any(void *m)                                   \
    {                                                                          \
        pb_free(m);                                                            \
    }                                                                          \
    static void field##_free_any(void *s)                                      \
    {                                                                          \
        reply_free(&desc, s);                                                  \
    }
DESCRIBED(seating, struct tny_wire_seating, seating_m)
DESCRIBED(standings, struct tny_wire_standings, standings_m)
DESCRIBED(published, struct tny_wire_published, publish_summary_m)
#undef DESCRIBED

/* The records' codec (one generic shape, above). */
static int records_check_any(const void *s, const char *p,
                             struct tny_diag *diag)
{
    int rc = records_check(s, p, NULL);
    return rc < 0 && diag ? records_check(s, p, diag) : rc;
}
static int records_from_any(const void *m, const char *p, void **out,
                            struct tny_diag *diag)
{
    struct tny_wire_records *o = NULL;
    int rc = records_from_pb(m, p, &o, diag);
    *out = o;
    return rc;
}
static void *records_to_any(const void *s)
{
    return records_to_pb(s);
}
static void records_pb_free_any(void *m)
{
    records_pb_free(m);
}
static void records_free_any(void *s)
{
    tny_wire_records_free(s);
}

#define ROW(field)                                                             \
    {                                                                          \
#field, offsetof(struct tny_wire_reply, field),                        \
            offsetof(Tourney__V1__ConsoleReply, field), field##_check_any,     \
            field##_from_any, field##_to_any, field##_pb_free_any,             \
            field##_free_any                                                   \
    }
const struct wire__payload wire__payloads[] = {ROW(seating), ROW(standings),
                                               ROW(published), ROW(records)};
#undef ROW
const size_t wire__n_payloads =
    sizeof wire__payloads / sizeof wire__payloads[0];

/* ---- the description against console.proto ------------------------------ */

static bool kind_fits(const struct rf *f, const ProtobufCFieldDescriptor *d)
{
    bool list = (f->flags & RF_LIST) != 0;
    if (list != (d->label == PROTOBUF_C_LABEL_REPEATED))
        return false;
    switch (f->kind) {
    case RK_INT:
        return d->type == (f->flags & RF_64 ? PROTOBUF_C_TYPE_SINT64
                                            : PROTOBUF_C_TYPE_UINT32);
    case RK_REAL: return d->type == PROTOBUF_C_TYPE_DOUBLE;
    case RK_FLAG: return d->type == PROTOBUF_C_TYPE_BOOL;
    case RK_TEXT:
    case RK_NAME: return d->type == PROTOBUF_C_TYPE_STRING;
    case RK_ENUM: return d->type == PROTOBUF_C_TYPE_ENUM;
    case RK_MSG:
        return d->type == PROTOBUF_C_TYPE_MESSAGE &&
               d->descriptor == f->msg->pb;
    }
    return false;
}

/* Whether name is a word of the space-separated own. */
static bool owns(const char *own, const char *name)
{
    size_t n = strlen(name);
    for (const char *w = own; w && *w;) {
        size_t k = strcspn(w, " ");
        if (k == n && strncmp(w, name, n) == 0)
            return true;
        w += k + (w[k] == ' ');
    }
    return false;
}

static int msg_tables_check(const struct rmsg *m, struct tny_diag *diag)
{
    int rc;
    for (size_t i = 0; i < m->n; i++) {
        const struct rf *f = &m->f[i];
        const ProtobufCFieldDescriptor *d = pb_field(m, f);
        if (!d)
            return wire__fail(diag, "%s.%s: not a field of the message",
                              m->pb->name, f->name);
        if (!kind_fits(f, d))
            return wire__fail(diag, "%s.%s: its kind is not the field's type",
                              m->pb->name, f->name);
        if (f->kind == RK_MSG && (rc = msg_tables_check(f->msg, diag)) < 0)
            return rc;
    }
    for (unsigned k = 0; k < m->pb->n_fields; k++) {
        const char *name = m->pb->fields[k].name;
        bool named = owns(m->own, name);
        for (size_t i = 0; !named && i < m->n; i++)
            named = strcmp(m->f[i].name, name) == 0;
        if (!named)
            return wire__fail(diag, "%s.%s: not described", m->pb->name, name);
    }
    return TNY_OK;
}

int tny_wire_reply_check_messages(struct tny_diag *diag)
{
    const struct rmsg *all[] = {&seating_m, &standings_m, &publish_summary_m};
    int rc = TNY_OK;
    for (size_t i = 0; rc == TNY_OK && i < sizeof all / sizeof all[0]; i++)
        rc = msg_tables_check(all[i], diag);
    return rc;
}
