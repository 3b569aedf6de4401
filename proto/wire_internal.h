/* wire_internal.h - helpers shared by the wire module's files (private to
 * proto/; the only place besides proto/wire*.c that sees generated types).
 *
 * The decode pattern of every message: wire__unpack (size limit, bounded
 * allocator, and on failure a scan of the raw bytes that names the broken
 * field), copy the protobuf into the caller's struct with presence and
 * length checks, the message's check function (shared with encode), then
 * wire__free in the same function.  Encode: check, build protobuf structs
 * that borrow the caller's strings, wire__pack.
 */
#ifndef TNY_WIRE_INTERNAL_H
#define TNY_WIRE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "common.pb-c.h"
#include "console.pb-c.h"
#include "table.pb-c.h"
#include "tny/wire.h"

/* Room for any field path ("console_request.enter_result.result.tx..."). */
#define WIRE_PATH_MAX 192

/* Largest counts and values that hold for every format. */
#define WIRE_MAX_ROUND 10000
#define WIRE_MAX_TABLE 100000
#define WIRE_MAX_QUEUED 1000000
/* A result's numbers: result_schema.h (wire_lo, wire_hi). */
#define WIRE_MAX_TP_UNITS                                                      \
    ((int64_t)100 * TNY_POINT_SCALE) /* TX TP, penalty                         \
                                      */

/* One decode's allocator: counts bytes so that a small message cannot make
 * protobuf-c allocate without bound, and tells a refused allocation (input
 * problem) from a failed one (out of memory). */
struct wire_alloc {
    ProtobufCAllocator pc;
    size_t used, cap;
    bool over_cap, nomem;
};

/* Unpacks len bytes as desc.  root names the message in diag
 * ("result_submission").  Errors: TNY_EINVAL (over max_len, malformed:
 * diag names the field), TNY_ENOMEM.  On success *out must be given to
 * wire__free with the same *a. */
int wire__unpack(const ProtobufCMessageDescriptor *desc, const char *root,
                 const uint8_t *buf, size_t len, size_t max_len,
                 struct wire_alloc *a, ProtobufCMessage **out,
                 struct tny_diag *diag);
void wire__free(struct wire_alloc *a, ProtobufCMessage *m);

/* The decode of every message: zeroes out_size bytes at out, unpacks buf
 * as desc (wire__unpack), converts it with from_pb (the message type's
 * conversion into *out and check of its invariants: 0 or a negative error
 * with diag), frees the protobuf.
 * On error *out is released (release, when not NULL) and zeroed.
 * Errors: those of wire__unpack and from_pb. */
int wire__decode(const ProtobufCMessageDescriptor *desc, const char *root,
                 size_t max_len, const uint8_t *buf, size_t len,
                 int (*from_pb)(const ProtobufCMessage *m, void *out,
                                struct tny_diag *diag),
                 void (*release)(void *out), void *out, size_t out_size,
                 struct tny_diag *diag);

/* Packs m into a malloc'd buffer.  Errors: TNY_ERANGE (over max_len),
 * TNY_ENOMEM. */
int wire__pack(const ProtobufCMessage *m, const char *root, size_t max_len,
               uint8_t **buf, size_t *len, struct tny_diag *diag);

/* Scans the top-level fields of a protobuf message that may not decode
 * (a broken field further on, over the size limit) for length-delimited
 * field `field` and copies its last occurrence before the first
 * unparsable byte into out when it is an id (tny_wire_id_valid).  True
 * when one was found. */
bool wire__peek_id(const uint8_t *buf, size_t len, uint32_t field,
                   char out[TNY_WIRE_ID_MAX + 1]);

/* snprintf into a path buffer (truncates silently; paths are bounded). */
void wire__path(char *buf, size_t size, const char *fmt, ...) TNY_PRINTF(3, 4);

/* A check's field path, built only when there is a diag to name it in
 * (buf an array): a check runs first with diag NULL, without paths, and
 * again with the caller's diag only when it fails, for the message
 * (issue 17: the paths were most of the hub's cost of an assignment). */
#define WIRE_CHECK_PATH(diag, buf, ...)                                        \
    ((diag) ? wire__path((buf), sizeof(buf), __VA_ARGS__)                      \
            : (void)((buf)[0] = '\0'))

/* TNY_EINVAL with "path: what" (printf-style). */
int wire__fail(struct tny_diag *diag, const char *fmt, ...) TNY_PRINTF(2, 3);

/* Copies a protobuf string (NULL = absent -> "") into dst[cap].
 * Errors: TNY_EINVAL "path: longer than N bytes". */
int wire__copy(char *dst, size_t cap, const char *src, const char *path,
               struct tny_diag *diag);

/* wire__copy, then wire__check_id: ids are checked as they are copied so
 * that errors come in field order ("...key: missing" before "...round:
 * missing" for an empty message). */
int wire__copy_id(char *dst, size_t cap, const char *src, bool required,
                  const char *path, struct tny_diag *diag);

/* Copies a malloc'd duplicate of src (NULL stays NULL) into *dst.
 * Errors: TNY_ENOMEM. */
int wire__dup(char **dst, const char *src, struct tny_diag *diag);

/* A uint32 field into an int32 (absent -> 0).  Errors: TNY_EINVAL
 * "path: missing" when required and absent, "path: expected at most
 * 2147483647" when it does not fit. */
int wire__u32(protobuf_c_boolean has, uint32_t v, bool required,
              const char *path, int32_t *out, struct tny_diag *diag);

/* "path: missing" unless has. */
int wire__need(protobuf_c_boolean has, const char *path, struct tny_diag *diag);

enum wire_text {
    WIRE_TEXT_LINE,  /* UTF-8 without control characters */
    WIRE_TEXT_MULTI, /* UTF-8; tab, CR and LF allowed */
    WIRE_TEXT_ASCII, /* printable ASCII */
    WIRE_TEXT_UTF8,  /* UTF-8, any character: the event's own texts (a
                        name as imported) that a reply carries back */
};

/* Checks s: an id when kind is absent (use wire__check_id), or text.
 * Errors: TNY_EINVAL "path: missing" (required and empty), "path: not
 * valid UTF-8 at byte N", "path: control character at byte N". */
int wire__check_text(const char *s, enum wire_text kind, bool required,
                     const char *path, struct tny_diag *diag);
/* Errors: TNY_EINVAL "path: missing" (required and empty), "path:
 * expected an id ([A-Za-z0-9_.-]{1,64}), got \"...\"". */
int wire__check_id(const char *s, bool required, const char *path,
                   struct tny_diag *diag);
/* Errors: TNY_EINVAL "path: expected lo..hi, got v". */
int wire__check_range(int64_t v, int64_t lo, int64_t hi, const char *path,
                      struct tny_diag *diag);

/* Enum mappings between engine / wire.h enums and protobuf enums.  The
 * _from_pb functions return false for a value outside the protocol. */
bool wire__game_from_pb(int v, enum tny_game *out);
int wire__game_to_pb(enum tny_game g);
bool wire__game_valid(enum tny_game g);
bool wire__stage_from_pb(int v, enum tny_stage_kind *out);
int wire__stage_to_pb(enum tny_stage_kind s);
bool wire__stage_valid(enum tny_stage_kind s);

/* ClockReading <-> struct tny_clock_msg. */
int wire__clock_from_pb(const Tourney__V1__ClockReading *m, const char *path,
                        struct tny_clock_msg *out, struct tny_diag *diag);
int wire__clock_check(const struct tny_clock_msg *c, const char *path,
                      struct tny_diag *diag);
void wire__clock_to_pb(const struct tny_clock_msg *c,
                       Tourney__V1__ClockReading *m);

/* GameResult <-> struct tny_wire_result.  _from_pb copies (presence and
 * lengths) without running _check: the message's check runs it. */
struct wire_result_pb {
    Tourney__V1__GameResult gr;
    union { /* the game's message (GameResult's oneof) */
        Tourney__V1__NhResult nh;
        Tourney__V1__TxResult tx;
        Tourney__V1__AgResult ag;
        Tourney__V1__GtResult gt;
        Tourney__V1__CtResult ct;
        Tourney__V1__TpResult tp;
    } game;
    union { /* its per-player entries */
        Tourney__V1__NhArmy nh;
        Tourney__V1__TxPlayer tx;
        Tourney__V1__AgPlayer ag;
        Tourney__V1__CtPlayer ct;
        Tourney__V1__TpPlayer tp;
    } entry[TNY_MAX_SEATS];
    ProtobufCMessage *entry_p[TNY_MAX_SEATS];
    char *items[3]; /* a list key's strings (GT-9 games) */
    char *lots[TNY_MAX_LOTS];
    Tourney__V1__ResultValue ext[TNY_WIRE_EXT_MAX]; /* GameResult.values */
    Tourney__V1__ResultValue *ext_p[TNY_WIRE_EXT_MAX];
};

int wire__result_from_pb(const Tourney__V1__GameResult *m, const char *path,
                         struct tny_wire_result *out, struct tny_diag *diag);
int wire__result_check(const struct tny_wire_result *r, const char *path,
                       struct tny_diag *diag);
/* Builds s->gr from a checked result; s borrows r's strings. */
void wire__result_to_pb(const struct tny_wire_result *r,
                        struct wire_result_pb *s);

/* The typed payloads of ConsoleReply (wire_console_reply.c), one row
 * per reply shape: where it sits in struct tny_wire_reply and in the
 * message, and its codec.  check runs before encode and after decode;
 * from_pb copies (NULL m: *out NULL); to_pb borrows the strings of a
 * checked payload, NULL when out of memory, freed with pb_free; free
 * frees the struct (NULL: nothing).  wire_console.c walks the table for
 * every reply. */
struct wire__payload {
    const char *name; /* the ConsoleReply field */
    size_t rep_off;   /* its pointer in struct tny_wire_reply */
    size_t pb_off;    /* its pointer in Tourney__V1__ConsoleReply */
    int (*check)(const void *s, const char *path, struct tny_diag *diag);
    int (*from_pb)(const void *m, const char *path, void **out,
                   struct tny_diag *diag);
    void *(*to_pb)(const void *s);
    void (*pb_free)(void *m);
    void (*free)(void *s);
};
extern const struct wire__payload wire__payloads[];
extern const size_t wire__n_payloads;

/* The pointer at off in a struct (a payload's slot), by memcpy: the
 * member's type is the payload's, not void *. */
static inline void *wire__slot_get(const void *base, size_t off)
{
    void *v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

static inline void wire__slot_set(void *base, size_t off, void *v)
{
    memcpy((char *)base + off, &v, sizeof v);
}

/* Optional string for the wire: "" -> NULL (absent). */
static inline char *wire__opt(const char *s)
{
    return s && s[0] ? (char *)s : NULL;
}

#endif
