/* wire_util.c - the wire module's plumbing: bounded unpack with error
 * location, pack, text and id checks, enum maps, clock readings, topics.
 *
 * Not here: any message's fields (wire_table.c, wire_console.c,
 * wire_result.c).
 *
 * Error location: protobuf-c says only "no" to a malformed buffer.  When
 * it does, scan_message() walks the raw bytes with the generated
 * descriptors (field names, types) and reports the first field whose key,
 * length or wire type is wrong, recursing into sub-messages, so that every
 * decode error names a field.  It runs only on failure.
 */
#include "wire_internal.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/game.h"

/* ---- allocation and unpack --------------------------------------------- */

/* Memory one decode may use: generous for any real message (the largest
 * expansion of a real message is a few times its size), small enough that
 * a hostile 4 MiB buffer cannot take the hub down. */
#define WIRE_ALLOC_FACTOR 16
#define WIRE_ALLOC_BASE ((size_t)1 << 20)
#define WIRE_ALLOC_CEILING ((size_t)64 << 20)

static void *alloc_fn(void *data, size_t size)
{
    struct wire_alloc *a = data;
    if (size > a->cap - a->used) {
        a->over_cap = true;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (!p) {
        a->nomem = true;
        return NULL;
    }
    a->used += size;
    return p;
}

static void free_fn(void *data, void *p)
{
    (void)data;
    free(p);
}

static bool read_varint(const uint8_t *p, size_t len, uint64_t *v, size_t *n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < len && i < 10; i++) {
        x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *v = x;
            *n = i + 1;
            return true;
        }
    }
    return false;
}

static unsigned wire_type_of(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT: return 5;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 1;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE: return 2;
    default: return 0;
    }
}

#define SCAN_MAX_DEPTH 16
#define SCAN_MAX_FIELDS 64

/* Reports the first malformed field of a desc message in p[0..len). */
static int scan_message(const ProtobufCMessageDescriptor *desc,
                        const uint8_t *p, size_t len, const char *path,
                        int depth, struct tny_diag *diag)
{
    unsigned seen[SCAN_MAX_FIELDS] = {0};
    size_t pos = 0;
    int rc = TNY_OK;
    if (depth > SCAN_MAX_DEPTH)
        return wire__fail(diag, "%s: nested too deeply", path);
    while (pos < len && rc == TNY_OK) {
        uint64_t key, v;
        size_t n, start = pos;
        char fp[WIRE_PATH_MAX];
        if (!read_varint(p + pos, len - pos, &key, &n))
            return wire__fail(diag, "%s: truncated field key at byte %zu", path,
                              start);
        pos += n;
        uint64_t tag = key >> 3;
        unsigned wt = (unsigned)(key & 7);
        if (tag == 0 || tag > 536870911u)
            return wire__fail(diag, "%s: invalid field number %llu at byte %zu",
                              path, (unsigned long long)tag, start);
        const ProtobufCFieldDescriptor *f =
            protobuf_c_message_descriptor_get_field(desc, (unsigned)tag);
        if (!f) {
            wire__path(fp, sizeof fp, "%s.#%llu", path,
                       (unsigned long long)tag);
        } else if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t i = (size_t)(f - desc->fields);
            unsigned k = i < SCAN_MAX_FIELDS ? seen[i]++ : 0;
            wire__path(fp, sizeof fp, "%s.%s[%u]", path, f->name, k);
        } else {
            wire__path(fp, sizeof fp, "%s.%s", path, f->name);
        }
        size_t flen = 0;
        switch (wt) {
        case 0:
            if (!read_varint(p + pos, len - pos, &v, &n))
                return wire__fail(diag, "%s: truncated varint", fp);
            pos += n;
            break;
        case 1:
        case 5:
            flen = wt == 1 ? 8 : 4;
            if (len - pos < flen)
                return wire__fail(diag,
                                  "%s: truncated (%zu bytes needed, "
                                  "%zu left)",
                                  fp, flen, len - pos);
            pos += flen;
            break;
        case 2:
            if (!read_varint(p + pos, len - pos, &v, &n))
                return wire__fail(diag, "%s: truncated length", fp);
            pos += n;
            if (v > len - pos)
                return wire__fail(diag,
                                  "%s: truncated (length %llu, %zu "
                                  "bytes left)",
                                  fp, (unsigned long long)v, len - pos);
            flen = (size_t)v;
            break;
        case 3:
        case 4:
            return wire__fail(diag, "%s: wire type %u (group) not supported",
                              fp, wt);
        default: return wire__fail(diag, "%s: invalid wire type %u", fp, wt);
        }
        if (f) {
            unsigned want = wire_type_of(f->type);
            bool packed =
                wt == 2 && want != 2 && f->label == PROTOBUF_C_LABEL_REPEATED;
            if (wt != want && !packed)
                return wire__fail(diag, "%s: wrong wire type %u (expected %u)",
                                  fp, wt, want);
            if (f->type == PROTOBUF_C_TYPE_MESSAGE)
                rc = scan_message(f->descriptor, p + pos, flen, fp, depth + 1,
                                  diag);
            else if (packed && want == 0) {
                for (size_t q = 0; q < flen; q += n)
                    if (!read_varint(p + pos + q, flen - q, &v, &n))
                        return wire__fail(diag, "%s: truncated packed varint",
                                          fp);
            } else if (packed && flen % (want == 1 ? 8 : 4) != 0)
                return wire__fail(diag,
                                  "%s: packed length %zu is not a "
                                  "multiple of %u",
                                  fp, flen, want == 1 ? 8u : 4u);
        }
        pos += wt == 2 ? flen : 0;
    }
    return rc;
}

int wire__unpack(const ProtobufCMessageDescriptor *desc, const char *root,
                 const uint8_t *buf, size_t len, size_t max_len,
                 struct wire_alloc *a, ProtobufCMessage **out,
                 struct tny_diag *diag)
{
    static const uint8_t empty[1] = {0};
    int rc = TNY_OK;
    *out = NULL;
    memset(a, 0, sizeof *a);
    a->pc.alloc = alloc_fn;
    a->pc.free = free_fn;
    a->pc.allocator_data = a;
    if (len > max_len)
        return wire__fail(diag,
                          "%s: message of %zu bytes exceeds the limit "
                          "of %zu bytes",
                          root, len, max_len);
    if (!buf)
        buf = empty; /* a zero-length payload is an empty message */
    a->cap = len > (WIRE_ALLOC_CEILING - WIRE_ALLOC_BASE) / WIRE_ALLOC_FACTOR
                 ? WIRE_ALLOC_CEILING
                 : WIRE_ALLOC_BASE + WIRE_ALLOC_FACTOR * len;
    *out = protobuf_c_message_unpack(desc, &a->pc, len, buf);
    if (*out)
        return TNY_OK;
    if (a->nomem)
        rc = tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", root);
    else if (a->over_cap)
        rc = wire__fail(diag, "%s: message needs more than %zu bytes of memory",
                        root, a->cap);
    else if ((rc = scan_message(desc, buf, len, root, 0, diag)) == TNY_OK)
        rc = wire__fail(diag, "%s: malformed message", root);
    return rc;
}

void wire__free(struct wire_alloc *a, ProtobufCMessage *m)
{
    if (m)
        protobuf_c_message_free_unpacked(m, &a->pc);
}

int wire__decode(const ProtobufCMessageDescriptor *desc, const char *root,
                 size_t max_len, const uint8_t *buf, size_t len,
                 int (*from_pb)(const ProtobufCMessage *m, void *out,
                                struct tny_diag *diag),
                 void (*release)(void *out), void *out, size_t out_size,
                 struct tny_diag *diag)
{
    struct wire_alloc a;
    ProtobufCMessage *pm = NULL;
    memset(out, 0, out_size);
    int rc = wire__unpack(desc, root, buf, len, max_len, &a, &pm, diag);
    if (rc == TNY_OK)
        rc = from_pb(pm, out, diag);
    wire__free(&a, pm);
    if (rc < 0) {
        if (release)
            release(out);
        memset(out, 0, out_size);
    }
    return rc;
}

int wire__pack(const ProtobufCMessage *m, const char *root, size_t max_len,
               uint8_t **buf, size_t *len, struct tny_diag *diag)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    *buf = NULL;
    *len = 0;
    if (n > max_len)
        return tny_diag_set(diag, TNY_ERANGE,
                            "%s: encoded message of %zu bytes exceeds the "
                            "limit of %zu bytes",
                            root, n, max_len);
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        return tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", root);
    size_t packed = protobuf_c_message_pack(m, b);
    assert(packed == n);
    (void)packed;
    *buf = b;
    *len = n;
    return TNY_OK;
}

/* ---- paths, copies, checks --------------------------------------------- */

void wire__path(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

int wire__fail(struct tny_diag *diag, const char *fmt, ...)
{
    if (diag) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
        va_end(ap);
    }
    return TNY_EINVAL;
}

/* NEEDSWORK: protobuf-c hands strings over NUL-terminated, so a string
 * with an embedded NUL arrives cut at it (and is then checked as cut).
 * Declaring the fields `bytes` would let us refuse it, at the cost of a
 * less readable schema. */
int wire__copy(char *dst, size_t cap, const char *src, const char *path,
               struct tny_diag *diag)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap)
        return wire__fail(diag, "%s: longer than %zu bytes", path, cap - 1);
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
    return TNY_OK;
}

int wire__copy_id(char *dst, size_t cap, const char *src, bool required,
                  const char *path, struct tny_diag *diag)
{
    int rc = wire__copy(dst, cap, src, path, diag);
    return rc < 0 ? rc : wire__check_id(dst, required, path, diag);
}

int wire__dup(char **dst, const char *src, struct tny_diag *diag)
{
    *dst = NULL;
    if (!src)
        return TNY_OK;
    *dst = strdup(src);
    return *dst ? TNY_OK : tny_diag_set(diag, TNY_ENOMEM, "out of memory");
}

int wire__u32(protobuf_c_boolean has, uint32_t v, bool required,
              const char *path, int32_t *out, struct tny_diag *diag)
{
    *out = 0;
    if (!has)
        return required ? wire__fail(diag, "%s: missing", path) : TNY_OK;
    if (v > INT32_MAX)
        return wire__fail(diag, "%s: expected at most %d, got %lu", path,
                          INT32_MAX, (unsigned long)v);
    *out = (int32_t)v;
    return TNY_OK;
}

int wire__need(protobuf_c_boolean has, const char *path, struct tny_diag *diag)
{
    return has ? TNY_OK : wire__fail(diag, "%s: missing", path);
}

/* Length of the UTF-8 sequence at s (valid, shortest form, no surrogates,
 * at most U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Eight bytes of printable ASCII (0x20..0x7e) at p?  A byte below 0x80
 * is at least 0x20 when adding 0x60 sets its high bit, and at most 0x7e
 * when adding 1 does not (no carry crosses bytes below 0x80). */
static bool printable8(const unsigned char *p)
{
    const uint64_t high = 0x8080808080808080ULL;
    uint64_t w;
    memcpy(&w, p, sizeof(w));
    return (w & high) == 0 && ((w + 0x6060606060606060ULL) & high) == high &&
           ((w + 0x0101010101010101ULL) & high) == 0;
}

int wire__check_text(const char *s, enum wire_text kind, bool required,
                     const char *path, struct tny_diag *diag)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!s || !s[0])
        return required ? wire__fail(diag, "%s: missing", path) : TNY_OK;
    /* Issue 17: printable ASCII eight bytes a step (every assignment of a
     * publish carries the round's procedure text). */
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        if (i + 8 <= len && printable8(u + i)) {
            i += 8;
            continue;
        }
        unsigned c = u[i];
        if (c >= 0x20 && c < 0x7f) { /* printable ASCII: always allowed */
            i++;
            continue;
        }
        bool ws = c == '\t' || c == '\n' || c == '\r';
        if (c < 0x20 || c == 0x7f) {
            if (!(ws && kind == WIRE_TEXT_MULTI) && kind != WIRE_TEXT_UTF8)
                return wire__fail(diag, "%s: control character at byte %zu",
                                  path, i);
        }
        if (c >= 0x80 && kind == WIRE_TEXT_ASCII)
            return wire__fail(diag,
                              "%s: expected printable ASCII, byte %zu "
                              "is not",
                              path, i);
        size_t n = utf8_len(u + i);
        if (!n)
            return wire__fail(diag, "%s: not valid UTF-8 at byte %zu", path, i);
        i += n;
    }
    return TNY_OK;
}

/* One varint at p[*pos..len); false when truncated or over 10 bytes. */
static bool peek_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < 10 && *pos < len; i++) {
        uint8_t b = p[(*pos)++];
        *v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return true;
    }
    return false;
}

bool wire__peek_id(const uint8_t *buf, size_t len, uint32_t field,
                   char out[TNY_WIRE_ID_MAX + 1])
{
    size_t pos = 0;
    bool found = false;
    out[0] = '\0';
    while (buf && pos < len) {
        uint64_t tag, n;
        if (!peek_varint(buf, len, &pos, &tag) || (tag >> 3) == 0)
            break;
        switch (tag & 7) {
        case 0:
            if (!peek_varint(buf, len, &pos, &n))
                return found;
            continue;
        case 1: n = 8; break;
        case 5: n = 4; break;
        case 2:
            if (!peek_varint(buf, len, &pos, &n))
                return found;
            break;
        default: return found; /* groups (never used here) or garbage */
        }
        if (n > len - pos)
            break;
        if ((tag & 7) == 2 && (tag >> 3) == field) {
            /* The last occurrence wins, as protobuf decodes it. */
            char id[TNY_WIRE_ID_MAX + 1];
            found = false;
            out[0] = '\0';
            if (n >= 1 && n <= TNY_WIRE_ID_MAX) {
                memcpy(id, buf + pos, n);
                id[n] = '\0';
                if (strlen(id) == n && tny_wire_id_valid(id)) {
                    memcpy(out, id, n + 1);
                    found = true;
                }
            }
        }
        pos += n;
    }
    return found;
}

bool tny_wire_id_valid(const char *s)
{
    size_t n = 0;
    if (!s)
        return false;
    for (; s[n]; n++) {
        char c = s[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
        if (!ok || n >= TNY_WIRE_ID_MAX)
            return false;
    }
    return n > 0;
}

/* Untrusted text for a message, as printable ASCII: other bytes as \xNN,
 * at most QUOTE_MAX input bytes, "..." when cut.  Messages travel on (as
 * ResultAck.reason_text, ConsoleReply.message), so they must stay valid
 * text whatever the input was. */
#define QUOTE_MAX 64
#define QUOTE_SIZE (QUOTE_MAX * 4 + 4)

static const char *quote(char dst[QUOTE_SIZE], const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0, i = 0;
    for (; s[i] && i < QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
            dst[o++] = (char)c;
        } else {
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        }
    }
    if (s[i])
        for (int k = 0; k < 3; k++)
            dst[o++] = '.';
    dst[o] = '\0';
    return dst;
}

int wire__check_id(const char *s, bool required, const char *path,
                   struct tny_diag *diag)
{
    char q[QUOTE_SIZE];
    if (!s || !s[0])
        return required ? wire__fail(diag, "%s: missing", path) : TNY_OK;
    if (tny_wire_id_valid(s))
        return TNY_OK;
    return wire__fail(diag,
                      "%s: expected an id ([A-Za-z0-9_.-]{1,%d}), got "
                      "\"%s\"",
                      path, TNY_WIRE_ID_MAX, quote(q, s));
}

int wire__check_range(int64_t v, int64_t lo, int64_t hi, const char *path,
                      struct tny_diag *diag)
{
    if (v >= lo && v <= hi)
        return TNY_OK;
    return wire__fail(diag, "%s: expected %lld..%lld, got %lld", path,
                      (long long)lo, (long long)hi, (long long)v);
}

/* ---- enums -------------------------------------------------------------- */

/* Protocol numbers are their own (common.proto), never the engine's enum
 * values, so the engine may reorder its enums freely.  A game's number is
 * the Game value named after its module ("neuroshima-hex":
 * GAME_NEUROSHIMA_HEX); only a game with its own result shape has one (a
 * game with another's result travels as that one, game.h flow). */
static int game_pb(const struct tny_game_ops *ops)
{
    char name[64] = "GAME_";
    size_t n = strlen(name);
    const ProtobufCEnumValue *v;

    if (ops->flow != ops->game)
        return 0;
    for (const char *c = ops->name; *c && n + 1 < sizeof name; c++)
        name[n++] = *c == '-'                ? '_'
                    : *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A')
                                             : *c; /* ASCII, any locale */
    name[n] = '\0';
    v = protobuf_c_enum_descriptor_get_value_by_name(
        &tourney__v1__game__descriptor, name);
    return v ? v->value : 0;
}

static const struct {
    enum tny_stage_kind stage;
    int pb;
} stages[] = {
    {TNY_STAGE_SWISS, TOURNEY__V1__STAGE__STAGE_SWISS},
    {TNY_STAGE_ELIMINATION, TOURNEY__V1__STAGE__STAGE_ELIMINATION},
    {TNY_STAGE_PRELIM, TOURNEY__V1__STAGE__STAGE_PRELIM},
    {TNY_STAGE_FINAL, TOURNEY__V1__STAGE__STAGE_FINAL},
    {TNY_STAGE_ROUND, TOURNEY__V1__STAGE__STAGE_ROUND},
    {TNY_STAGE_ROUND_ROBIN, TOURNEY__V1__STAGE__STAGE_ROUND_ROBIN},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

bool wire__game_from_pb(int v, enum tny_game *out)
{
    const struct tny_game_ops *const *all;
    int32_t n = tny_game_registry(&all);

    for (int32_t i = 0; v != 0 && i < n; i++)
        if (game_pb(all[i]) == v) {
            *out = all[i]->game;
            return true;
        }
    return false;
}

int wire__game_to_pb(enum tny_game g)
{
    /* a game with another's result travels as it */
    const struct tny_game_ops *ops = tny_game_shape_of(g);
    return ops ? game_pb(ops) : 0;
}

bool wire__game_valid(enum tny_game g)
{
    return wire__game_to_pb(g) != 0;
}

bool wire__stage_from_pb(int v, enum tny_stage_kind *out)
{
    for (size_t i = 0; i < N_OF(stages); i++)
        if (stages[i].pb == v) {
            *out = stages[i].stage;
            return true;
        }
    return false;
}

int wire__stage_to_pb(enum tny_stage_kind s)
{
    for (size_t i = 0; i < N_OF(stages); i++)
        if (stages[i].stage == s)
            return stages[i].pb;
    return 0;
}

bool wire__stage_valid(enum tny_stage_kind s)
{
    return wire__stage_to_pb(s) != 0;
}

/* ---- clock readings ------------------------------------------------------ */

static bool uses_deadline(const struct tny_clock_msg *c)
{
    return !c->unlimited && c->state == TNY_ROUND_CLOCK_RUNNING;
}

static bool uses_remaining(const struct tny_clock_msg *c)
{
    return !c->unlimited && c->state != TNY_ROUND_CLOCK_RUNNING;
}

int wire__clock_from_pb(const Tourney__V1__ClockReading *m, const char *path,
                        struct tny_clock_msg *out, struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    memset(out, 0, sizeof *out);
    if (!m)
        return wire__fail(diag, "%s: missing", path);
    wire__path(p, sizeof p, "%s.state", path);
    if ((rc = wire__need(m->has_state, p, diag)) < 0)
        return rc;
    switch (m->state) {
    case TOURNEY__V1__CLOCK_STATE__CLOCK_NOT_STARTED:
        out->state = TNY_ROUND_CLOCK_READY;
        break;
    case TOURNEY__V1__CLOCK_STATE__CLOCK_RUNNING:
        out->state = TNY_ROUND_CLOCK_RUNNING;
        break;
    case TOURNEY__V1__CLOCK_STATE__CLOCK_PAUSED:
        out->state = TNY_ROUND_CLOCK_PAUSED;
        break;
    default:
        return wire__fail(diag, "%s: unknown clock state %d", p, (int)m->state);
    }
    out->unlimited = m->has_unlimited && m->unlimited;
    wire__path(p, sizeof p, "%s.hub_now_ms", path);
    if ((rc = wire__need(m->has_hub_now_ms, p, diag)) < 0)
        return rc;
    out->hub_now_ms = m->hub_now_ms;
    if (uses_deadline(out)) {
        wire__path(p, sizeof p, "%s.deadline_ms", path);
        if ((rc = wire__need(m->has_deadline_ms, p, diag)) < 0)
            return rc;
        out->deadline_ms = m->deadline_ms;
    }
    if (uses_remaining(out)) {
        wire__path(p, sizeof p, "%s.remaining_ms", path);
        if ((rc = wire__need(m->has_remaining_ms, p, diag)) < 0)
            return rc;
        out->remaining_ms = m->remaining_ms;
    }
    return TNY_OK;
}

int wire__clock_check(const struct tny_clock_msg *c, const char *path,
                      struct tny_diag *diag)
{
    char p[WIRE_PATH_MAX];
    int rc;
    if (c->state != TNY_ROUND_CLOCK_READY &&
        c->state != TNY_ROUND_CLOCK_RUNNING &&
        c->state != TNY_ROUND_CLOCK_PAUSED)
        return wire__fail(diag, "%s.state: unknown clock state %d", path,
                          (int)c->state);
    WIRE_CHECK_PATH(diag, p, "%s.hub_now_ms", path);
    if ((rc = wire__check_range(c->hub_now_ms, 0, TNY_CLOCK_MAX_INSTANT_MS, p,
                                diag)) < 0)
        return rc;
    WIRE_CHECK_PATH(diag, p, "%s.deadline_ms", path);
    if (uses_deadline(c) &&
        (rc = wire__check_range(c->deadline_ms, 0, TNY_CLOCK_MAX_INSTANT_MS, p,
                                diag)) < 0)
        return rc;
    /* A paused clock may be in overtime (negative); a clock not started
     * yet holds a whole round length. */
    WIRE_CHECK_PATH(diag, p, "%s.remaining_ms", path);
    if (uses_remaining(c) &&
        (rc = wire__check_range(
             c->remaining_ms,
             c->state == TNY_ROUND_CLOCK_READY ? 0 : -TNY_CLOCK_MAX_INSTANT_MS,
             c->state == TNY_ROUND_CLOCK_READY ? TNY_CLOCK_MAX_MS
                                               : TNY_CLOCK_MAX_INSTANT_MS,
             p, diag)) < 0)
        return rc;
    return TNY_OK;
}

void wire__clock_to_pb(const struct tny_clock_msg *c,
                       Tourney__V1__ClockReading *m)
{
    tourney__v1__clock_reading__init(m);
    m->has_state = true;
    m->state = c->state == TNY_ROUND_CLOCK_RUNNING
                   ? TOURNEY__V1__CLOCK_STATE__CLOCK_RUNNING
               : c->state == TNY_ROUND_CLOCK_PAUSED
                   ? TOURNEY__V1__CLOCK_STATE__CLOCK_PAUSED
                   : TOURNEY__V1__CLOCK_STATE__CLOCK_NOT_STARTED;
    m->has_unlimited = c->unlimited;
    m->unlimited = c->unlimited;
    m->has_hub_now_ms = true;
    m->hub_now_ms = c->hub_now_ms;
    m->has_deadline_ms = uses_deadline(c);
    m->deadline_ms = uses_deadline(c) ? c->deadline_ms : 0;
    m->has_remaining_ms = uses_remaining(c);
    m->remaining_ms = uses_remaining(c) ? c->remaining_ms : 0;
}

/* ---- topics ---------------------------------------------------------------
 */

static const struct {
    const char *group, *leaf;
} topics[] = {
    [TNY_WIRE_TOPIC_HUB_STATE] = {"hub", "state"},
    [TNY_WIRE_TOPIC_PRESENCE] = {"device", "presence"},
    [TNY_WIRE_TOPIC_ASSIGN] = {"device", "assign"},
    [TNY_WIRE_TOPIC_RESULT] = {"device", "result"},
    [TNY_WIRE_TOPIC_ACK] = {"device", "ack"},
    [TNY_WIRE_TOPIC_CLOCK] = {"event", "clock"},
    [TNY_WIRE_TOPIC_CTL_REQ] = {"ctl", "req"},
    [TNY_WIRE_TOPIC_CTL_RESP] = {"ctl", "resp"},
    [TNY_WIRE_TOPIC_TIME_REQ] = {"time", "req"},
    [TNY_WIRE_TOPIC_TIME_RESP] = {"time", "resp"},
    [TNY_WIRE_TOPIC_IDENTIFY] = {"device", "identify"},
    [TNY_WIRE_TOPIC_CODE_STATUS] = {"code", "status"},
    [TNY_WIRE_TOPIC_CODE_REQ] = {"code", "req"},
    [TNY_WIRE_TOPIC_CODE_ACK] = {"code", "ack"},
    [TNY_WIRE_TOPIC_CODE_PRESENCE] = {"code", "presence"},
};

int tny_wire_topic(enum tny_wire_topic kind, const char *id, char *buf,
                   size_t size, struct tny_diag *diag)
{
    char q[QUOTE_SIZE];
    int n;
    if ((unsigned)kind >= N_OF(topics))
        return wire__fail(diag, "topic: unknown kind %d", (int)kind);
    if (kind == TNY_WIRE_TOPIC_HUB_STATE)
        n = snprintf(buf, size, TNY_WIRE_TOPIC_PREFIX "hub/state");
    else if (!tny_wire_id_valid(id))
        return wire__fail(diag,
                          "topic: expected an id ([A-Za-z0-9_.-]{1,%d}), "
                          "got \"%s\"",
                          TNY_WIRE_ID_MAX, quote(q, id ? id : ""));
    else
        n = snprintf(buf, size, TNY_WIRE_TOPIC_PREFIX "%s/%s/%s",
                     topics[kind].group, id, topics[kind].leaf);
    if (n < 0 || (size_t)n >= size)
        return tny_diag_set(diag, TNY_ERANGE,
                            "topic: buffer of %zu bytes too small", size);
    return TNY_OK;
}

size_t tny_wire_encode_identify(int32_t table, char buf[8])
{
    if (table < 0 || table > TNY_WIRE_IDENTIFY_TABLE_MAX)
        table = 0;
    return (size_t)snprintf(buf, 8, "%d", (int)table);
}

int tny_wire_decode_identify(const uint8_t *buf, size_t len, int32_t *table,
                             struct tny_diag *diag)
{
    int32_t v = 0;
    if (len == 0 || len > 6 || (buf[0] == '0' && len > 1))
        return wire__fail(diag,
                          "identify: expected a table number, got %zu "
                          "bytes",
                          len);
    for (size_t i = 0; i < len; i++) {
        if (buf[i] < '0' || buf[i] > '9')
            return wire__fail(diag,
                              "identify: expected a table number, byte %zu "
                              "is not a digit",
                              i);
        v = v * 10 + (buf[i] - '0');
    }
    if (v > TNY_WIRE_IDENTIFY_TABLE_MAX)
        return wire__fail(diag, "identify: table %d above %d", (int)v,
                          TNY_WIRE_IDENTIFY_TABLE_MAX);
    *table = v;
    return TNY_OK;
}

int tny_wire_topic_parse(const char *topic, enum tny_wire_topic *kind,
                         char id[TNY_WIRE_ID_MAX + 1], struct tny_diag *diag)
{
    const size_t plen = strlen(TNY_WIRE_TOPIC_PREFIX);
    char q[QUOTE_SIZE];
    id[0] = '\0';
    if (strncmp(topic, TNY_WIRE_TOPIC_PREFIX, plen) != 0)
        goto bad;
    const char *rest = topic + plen;
    if (strcmp(rest, "hub/state") == 0) {
        *kind = TNY_WIRE_TOPIC_HUB_STATE;
        return TNY_OK;
    }
    for (size_t k = 1; k < N_OF(topics); k++) {
        size_t glen = strlen(topics[k].group);
        if (strncmp(rest, topics[k].group, glen) != 0 || rest[glen] != '/')
            continue;
        const char *ids = rest + glen + 1, *slash = strchr(ids, '/');
        if (!slash || (size_t)(slash - ids) > TNY_WIRE_ID_MAX ||
            strcmp(slash + 1, topics[k].leaf) != 0)
            continue;
        memcpy(id, ids, (size_t)(slash - ids));
        id[slash - ids] = '\0';
        if (!tny_wire_id_valid(id))
            break;
        *kind = (enum tny_wire_topic)k;
        return TNY_OK;
    }
bad:
    id[0] = '\0';
    return wire__fail(diag, "topic: \"%s\" is not a tourney/v1 topic",
                      quote(q, topic));
}
