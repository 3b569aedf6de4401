/* jdoc.c - a read-only JSON document for the input parsers (issue 17
 * item 4): the event file is read into one array of values by yajl's
 * streaming parser (Debian libyajl-dev) instead of a jansson tree, whose
 * parse and free were 860 M of the 978 M instructions of loading a
 * 10,000-player file.
 *
 * The document accepts exactly what tny__load (jansson, duplicate keys
 * rejected) accepts, and says the same thing about what it refuses: where
 * the fast path sees anything jansson may judge differently (a syntax
 * error, a duplicate key, an integer out of range, a NUL or a \uD800..
 * \uDFFF escape in a string, a byte sequence yajl lets through but
 * jansson does not, \f or \v, nesting deeper than jansson's 2048), the
 * text is loaded with jansson instead: its message, or (where it accepts
 * the text) its tree copied into a document.  So every message about bad
 * JSON stays jansson's, word for word.
 *
 * Values, runs of children and copied strings are cut from blocks that
 * never move (no array that grows by copying, no second pass to turn
 * indices into pointers: issue 17, page faults were a quarter of
 * `tourney pair`); a container's children are a contiguous run of
 * pointers; an object keeps its members in document order (the first
 * unknown key named is the same as with jansson).  Strings are copied,
 * NUL-terminated; or, read in place (tny__jdoc_parse_in_place), a string
 * without escapes stays where it is in the caller's text, its closing
 * quote overwritten with the NUL, so the file is not copied a second
 * time.  Not for writing JSON: output stays jansson's (tny__dump).
 */
#include "io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "tny/json_io.h"

/* jansson's JSON_PARSER_MAX_DEPTH. */
#define JDOC_MAX_DEPTH 2048

/* The document's memory: values, children's runs and strings are cut from
 * blocks that never move (so a value's address is final when it is made),
 * each block twice the last, up to JDOC_BLOCK_MAX: memory is touched once,
 * where the values are, and not copied as an array that grows. */
#define JDOC_BLOCK_MIN 4096
#define JDOC_BLOCK_MAX (4u << 20)

struct jdoc_block {
    struct jdoc_block *next;
    size_t used, cap;
    char text[];
};

_Static_assert(offsetof(struct jdoc_block, text) % 8 == 0 &&
                   _Alignof(struct tny_jv) <= 8 &&
                   _Alignof(const struct tny_jv *) <= 8,
               "blocks hand out 8-byte aligned memory");

struct open_container {
    struct tny_jv *node; /* the container's value */
    size_t start;        /* its first child's place in pending */
};

struct builder {
    struct tny_jv *root;     /* the first value made */
    struct tny_jv **pending; /* children of the open containers, in order */
    size_t n_pending, cap_pending;
    struct open_container *open;
    size_t depth, cap_open;
    struct jdoc_block *blocks;
    const char *key; /* the member name for the next value, or NULL */
    char *place;     /* the text read in place, else NULL */
    size_t place_len;
    yajl_handle h; /* reading text, else NULL */
    size_t end;    /* bytes of text up to the end of the top value */
    bool nomem;    /* allocation failed */
    bool decline;  /* jansson must judge this text */
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *n = realloc(*p, c * size);
    if (!n)
        return false;
    *p = n;
    *cap = c;
    return true;
}

/* size bytes (aligned to align, 1 or 8) that never move; NULL when out
 * of memory. */
static void *cut(struct builder *b, size_t size, size_t align)
{
    struct jdoc_block *bl = b->blocks;
    size_t at = bl ? (bl->used + align - 1) & ~(align - 1) : 0;
    if (!bl || at > bl->cap || bl->cap - at < size) {
        size_t cap = bl ? bl->cap * 2 : JDOC_BLOCK_MIN;
        if (cap > JDOC_BLOCK_MAX)
            cap = JDOC_BLOCK_MAX;
        if (cap < size)
            cap = size;
        if (!(bl = malloc(sizeof(*bl) + cap))) {
            b->nomem = true;
            return NULL;
        }
        bl->next = b->blocks;
        bl->cap = cap;
        b->blocks = bl;
        at = 0;
    }
    bl->used = at + size;
    return bl->text + at;
}

/* A NUL-terminated copy of s[0..len) that never moves. */
static const char *copy_text(struct builder *b, const char *s, size_t len)
{
    char *out = cut(b, len + 1, 1);
    if (!out)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

/* Strict UTF-8 as jansson checks it: no overlong form, no surrogate, at
 * most U+10FFFF. */
static bool utf8_strict(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            n = 1, cp = c & 0x1F, min = 0x80;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 2, cp = c & 0x0F, min = 0x800;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 3, cp = c & 0x07, min = 0x10000;
        else
            return false;
        if (len - i <= n)
            return false;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

/* Text of a string or key as jansson would keep it, or NULL (declined or
 * out of memory). */
static const char *take_text(struct builder *b, const unsigned char *s,
                             size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] - 1u < 0x7Fu) /* ASCII but NUL */
            continue;
        /* \u0000 (jansson refuses it) or a sequence yajl lets through
         * and jansson does not. */
        if (s[i] == 0 || !utf8_strict(s + i, len - i)) {
            b->decline = true;
            return NULL;
        }
        if (memchr(s + i, '\0', len - i)) {
            b->decline = true;
            return NULL;
        }
        break;
    }
    /* yajl hands a string without escapes as it lies in the text (with
     * its closing quote at s[len]); one with escapes from its own
     * buffer. */
    if (b->place && (const char *)s >= b->place &&
        (const char *)s + len < b->place + b->place_len) {
        char *at = b->place + ((const char *)s - b->place);
        at[len] = '\0';
        return at;
    }
    return copy_text(b, (const char *)s, len);
}

/* Whether s lies in the text read in place (its NUL was a quote). */
static bool in_place(const struct builder *b, const char *s)
{
    return b->place && s >= b->place && s < b->place + b->place_len;
}

/* The quotes of v and of the values below it, as they were. */
static void give_back_value(struct builder *b, const struct tny_jv *v)
{
    if (v->key && in_place(b, v->key))
        b->place[v->key - b->place + (ptrdiff_t)strlen(v->key)] = '"';
    if (v->type == TNY_J_STRING && in_place(b, v->u.s))
        b->place[v->u.s - b->place + (ptrdiff_t)v->n] = '"';
    /* An open container has no children yet (they are in pending). */
    if ((v->type == TNY_J_ARRAY || v->type == TNY_J_OBJECT) && v->u.kids)
        for (uint32_t i = 0; i < v->n; i++)
            give_back_value(b, v->u.kids[i]);
}

/* Puts back the closing quotes overwritten in the text (before jansson
 * reads it): every string and member name kept in place, and the name
 * still waiting for its value.  Every value is below the top one once it
 * is closed, else below one of pending. */
static void give_back(struct builder *b)
{
    if (!b->place)
        return;
    if (b->root && b->depth == 0)
        give_back_value(b, b->root);
    for (size_t i = 0; i < b->n_pending; i++)
        give_back_value(b, b->pending[i]);
    if (b->key && in_place(b, b->key))
        b->place[b->key - b->place + (ptrdiff_t)strlen(b->key)] = '"';
    b->key = NULL;
}

/* A new value (a child of the open container, if any); NULL on failure. */
static struct tny_jv *add(struct builder *b, uint8_t type)
{
    /* jansson takes one object or array at the top. */
    if (b->depth == 0 &&
        (b->root || (type != TNY_J_OBJECT && type != TNY_J_ARRAY))) {
        b->decline = true;
        return NULL;
    }
    if (!grow((void **)&b->pending, &b->cap_pending, b->n_pending + 1,
              sizeof(*b->pending))) {
        b->nomem = true;
        return NULL;
    }
    struct tny_jv *v = cut(b, sizeof(*v), 8);
    if (!v)
        return NULL;
    memset(v, 0, sizeof(*v));
    v->type = type;
    v->key = b->key;
    b->key = NULL;
    if (!b->root)
        b->root = v;
    if (b->depth > 0)
        b->pending[b->n_pending++] = v;
    return v;
}

static bool open_container(struct builder *b, uint8_t type)
{
    if (b->depth + 1 > JDOC_MAX_DEPTH) {
        b->decline = true;
        return false;
    }
    if (!grow((void **)&b->open, &b->cap_open, b->depth + 1,
              sizeof(*b->open))) {
        b->nomem = true;
        return false;
    }
    struct tny_jv *v = add(b, type);
    if (!v)
        return false;
    b->open[b->depth].node = v;
    b->open[b->depth].start = b->n_pending;
    b->depth++;
    return true;
}

static int keycmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Two members of one object with the same name (jansson refuses them). */
static bool has_duplicate(struct builder *b, struct tny_jv *const *kid,
                          size_t n)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (strcmp(kid[i]->key, kid[j]->key) == 0)
                    return true;
        return false;
    }
    const char **names = malloc(n * sizeof(*names));
    bool dup = false;
    if (!names) {
        b->nomem = true;
        return true;
    }
    for (size_t i = 0; i < n; i++)
        names[i] = kid[i]->key;
    qsort(names, n, sizeof(*names), keycmp);
    for (size_t i = 1; i < n && !dup; i++)
        dup = strcmp(names[i - 1], names[i]) == 0;
    free(names);
    return dup;
}

static bool close_container(struct builder *b)
{
    struct open_container oc = b->open[--b->depth];
    size_t n = b->n_pending - oc.start;
    struct tny_jv *v = oc.node;
    if (v->type == TNY_J_OBJECT && has_duplicate(b, b->pending + oc.start, n)) {
        b->decline = true;
        return false;
    }
    if (n > 0) { /* an empty container keeps u.kids NULL */
        const struct tny_jv **run = cut(b, n * sizeof(*run), 8);
        if (!run)
            return false;
        memcpy(run, b->pending + oc.start, n * sizeof(*run));
        v->u.kids = run;
    }
    v->n = (uint32_t)n;
    b->n_pending = oc.start;
    if (b->depth == 0 && b->h) /* yajl has read up to the last bracket */
        b->end = yajl_get_bytes_consumed(b->h);
    return true;
}

/* ---- yajl callbacks ---------------------------------------------------- */

static int on_null(void *ctx)
{
    return add(ctx, TNY_J_NULL) != NULL;
}

static int on_bool(void *ctx, int value)
{
    return add(ctx, value ? TNY_J_TRUE : TNY_J_FALSE) != NULL;
}

/* As jansson's lexer: a '.', 'e' or 'E' makes a real; an integer or a
 * real out of range is its error (declined here).  A real (rare in these
 * files) is read by jansson itself: the same double, whatever the locale. */
static int on_number(void *ctx, const char *text, size_t len)
{
    struct builder *b = ctx;
    char small[64], *s = small, *end;
    bool real = false;
    struct tny_jv *v;
    int ok = 0;
    if (len >= sizeof(small) && !(s = malloc(len + 1))) {
        b->nomem = true;
        return 0;
    }
    memcpy(s, text, len);
    s[len] = '\0';
    for (size_t i = 0; i < len && !real; i++)
        real = s[i] == '.' || s[i] == 'e' || s[i] == 'E';
    errno = 0;
    if (real) {
        json_t *j = json_loadb(s, len, JSON_DECODE_ANY, NULL);
        if (!json_is_real(j))
            b->decline = true;
        else if ((v = add(b, TNY_J_REAL)))
            v->u.d = json_real_value(j), ok = 1;
        json_decref(j);
    } else {
        long long x = strtoll(s, &end, 10);
        if (errno == ERANGE || *end)
            b->decline = true;
        else if ((v = add(b, TNY_J_INT)))
            v->u.i = (int64_t)x, ok = 1;
    }
    if (s != small)
        free(s);
    return ok;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    struct builder *b = ctx;
    if (len > UINT32_MAX) {
        b->decline = true;
        return 0;
    }
    const char *text = take_text(b, s, len);
    struct tny_jv *v = text ? add(b, TNY_J_STRING) : NULL;
    if (!v) {
        if (text && in_place(b, text))
            b->place[text - b->place + (ptrdiff_t)len] = '"';
        return 0;
    }
    v->u.s = text;
    v->n = (uint32_t)len;
    return 1;
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
    struct builder *b = ctx;
    b->key = take_text(b, s, len);
    return b->key != NULL;
}

static int on_start_map(void *ctx)
{
    return open_container(ctx, TNY_J_OBJECT);
}

static int on_start_array(void *ctx)
{
    return open_container(ctx, TNY_J_ARRAY);
}

static int on_end(void *ctx)
{
    return close_container(ctx);
}

static const yajl_callbacks callbacks = {
    .yajl_null = on_null,
    .yajl_boolean = on_bool,
    .yajl_number = on_number,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_key,
    .yajl_end_map = on_end,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end,
};

/* ---- the document ------------------------------------------------------ */

static void builder_free(struct builder *b)
{
    free(b->pending);
    free(b->open);
    while (b->blocks) {
        struct jdoc_block *next = b->blocks->next;
        free(b->blocks);
        b->blocks = next;
    }
    memset(b, 0, sizeof(*b));
}

/* Moves the built values into doc. */
static void finish(struct builder *b, struct tny_jdoc *doc)
{
    doc->root = b->root;
    doc->blocks = b->blocks;
    b->blocks = NULL;
    builder_free(b);
}

/* Copies a jansson value (and its children) into the builder. */
static bool copy_json(struct builder *b, const json_t *j)
{
    struct tny_jv *v;
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *m;
        if (!open_container(b, TNY_J_OBJECT))
            return false;
        json_object_foreach ((json_t *)j, key, m) {
            if (!(b->key = copy_text(b, key, strlen(key))) || !copy_json(b, m))
                return false;
        }
        return close_container(b);
    }
    case JSON_ARRAY:
        if (!open_container(b, TNY_J_ARRAY))
            return false;
        for (size_t i = 0; i < json_array_size(j); i++)
            if (!copy_json(b, json_array_get(j, i)))
                return false;
        return close_container(b);
    case JSON_STRING: {
        const char *s =
            copy_text(b, json_string_value(j), json_string_length(j));
        if (!s || !(v = add(b, TNY_J_STRING)))
            return false;
        v->u.s = s;
        v->n = (uint32_t)json_string_length(j);
        return true;
    }
    case JSON_INTEGER:
        if (!(v = add(b, TNY_J_INT)))
            return false;
        v->u.i = (int64_t)json_integer_value(j);
        return true;
    case JSON_REAL:
        if (!(v = add(b, TNY_J_REAL)))
            return false;
        v->u.d = json_real_value(j);
        return true;
    case JSON_TRUE: return add(b, TNY_J_TRUE) != NULL;
    case JSON_FALSE: return add(b, TNY_J_FALSE) != NULL;
    case JSON_NULL: return add(b, TNY_J_NULL) != NULL;
    }
    return false;
}

/* A scalar at the top (jansson's tny__load never gives one, but
 * tny_result_from_json may be handed any value). */
static bool copy_top(struct builder *b, const json_t *j)
{
    if (json_is_object(j) || json_is_array(j))
        return copy_json(b, j);
    b->open = malloc(sizeof(*b->open));
    if (!b->open) {
        b->nomem = true;
        return false;
    }
    b->cap_open = 1;
    /* As the only child of a container that is never closed. */
    b->depth = 1;
    bool ok = copy_json(b, j);
    b->depth = 0;
    b->n_pending = 0;
    return ok;
}

int tny__jdoc_from_json(struct tny_jdoc *doc, const json_t *root)
{
    struct builder b = {0};
    memset(doc, 0, sizeof(*doc));
    if (!copy_top(&b, root)) {
        builder_free(&b);
        return TNY_ENOMEM;
    }
    finish(&b, doc);
    return TNY_OK;
}

/* Bytes of text that yajl reads differently from jansson: \f and \v as
 * blanks, a \u escape of a surrogate (yajl turns a lone one into '?'). */
static bool needs_jansson(const char *text, size_t len)
{
    if (memchr(text, '\f', len) || memchr(text, '\v', len))
        return true;
    const char *p = text, *end = text + len;
    while ((p = memchr(p, '\\', (size_t)(end - p)))) {
        if (end - p >= 4 && p[1] == 'u' && (p[2] == 'd' || p[2] == 'D') &&
            strchr("89abcdefABCDEF", p[3]) && p[3])
            return true;
        p += p + 1 < end ? 2 : 1; /* an escape's two bytes */
    }
    return false;
}

/* place: the text itself, read in place, else NULL (strings copied). */
static int parse(struct tny_jdoc *doc, const char *text, char *place,
                 size_t len, const char *what, struct tny_diag *diag)
{
    struct builder b = {0};
    yajl_handle h = NULL;
    json_t *root = NULL;
    int rc;
    memset(doc, 0, sizeof(*doc));
    if (len > TNY_JSON_MAX_BYTES)
        return tny_diag_set(diag, TNY_ERANGE,
                            "%s: too large (%zu bytes, at "
                            "most %u)",
                            what, len, TNY_JSON_MAX_BYTES);
    if (!needs_jansson(text, len)) {
        b.place = place;
        b.place_len = len;
        if (!(h = yajl_alloc(&callbacks, NULL, &b)))
            goto nomem;
        b.h = h;
        yajl_status st = yajl_parse(h, (const unsigned char *)text, len);
        if (st == yajl_status_ok)
            st = yajl_complete_parse(h);
        yajl_free(h);
        b.h = NULL;
        /* yajl leaves an unfinished token after the value unread ("{}\"");
         * jansson reads to the end: only blanks may follow. */
        for (size_t i = b.end; st == yajl_status_ok && i < len; i++)
            if (!strchr(" \t\n\r", text[i]) || text[i] == '\0')
                st = yajl_status_error;
        if (!b.nomem && st == yajl_status_ok && b.root && b.depth == 0) {
            finish(&b, doc);
            return TNY_OK;
        }
        give_back(&b); /* the text as it was, for jansson */
        if (b.nomem)
            goto nomem;
        builder_free(&b);
    }
    /* jansson judges: its message, or its tree. */
    if ((rc = tny__load(text, len, what, &root, diag)) < 0)
        return rc;
    rc = tny__jdoc_from_json(doc, root);
    json_decref(root);
    if (rc < 0)
        return tny_diag_set(diag, rc, "%s: out of memory", what);
    return TNY_OK;
nomem:
    builder_free(&b);
    return tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", what);
}

int tny__jdoc_parse(struct tny_jdoc *doc, const char *text, size_t len,
                    const char *what, struct tny_diag *diag)
{
    return parse(doc, text, NULL, len, what, diag);
}

int tny__jdoc_parse_in_place(struct tny_jdoc *doc, char *text, size_t len,
                             const char *what, struct tny_diag *diag)
{
    return parse(doc, text, text, len, what, diag);
}

void tny__jdoc_release(struct tny_jdoc *doc)
{
    struct builder b = {.blocks = doc->blocks};
    builder_free(&b);
    memset(doc, 0, sizeof(*doc));
}

const struct tny_jv *tny__jv_get(const struct tny_jv *obj, const char *key)
{
    if (obj->type != TNY_J_OBJECT)
        return NULL;
    /* Objects of the files have a handful of keys: a scan, the first
     * byte compared before the rest. */
    for (uint32_t i = 0; i < obj->n; i++) {
        const char *k = obj->u.kids[i]->key;
        if (k[0] == key[0] && strcmp(k, key) == 0)
            return obj->u.kids[i];
    }
    return NULL;
}

json_t *tny__jv_to_json(const struct tny_jv *v)
{
    json_t *out = NULL;
    switch (v->type) {
    case TNY_J_OBJECT:
        out = json_object();
        for (uint32_t i = 0; out && i < v->n; i++)
            if (!tny__set(out, v->u.kids[i]->key,
                          tny__jv_to_json(v->u.kids[i]))) {
                json_decref(out);
                out = NULL;
            }
        return out;
    case TNY_J_ARRAY:
        out = json_array();
        for (uint32_t i = 0; out && i < v->n; i++)
            if (!tny__append(out, tny__jv_to_json(v->u.kids[i]))) {
                json_decref(out);
                out = NULL;
            }
        return out;
    case TNY_J_STRING: return json_stringn_nocheck(v->u.s, v->n);
    case TNY_J_INT: return json_integer((json_int_t)v->u.i);
    case TNY_J_REAL: return json_real(v->u.d);
    case TNY_J_TRUE: return json_true();
    case TNY_J_FALSE: return json_false();
    }
    return json_null();
}

bool tny__jv_equal(const struct tny_jv *a, const struct tny_jv *b)
{
    if (a->type != b->type || a->n != b->n ||
        (a->key == NULL) != (b->key == NULL) ||
        (a->key && strcmp(a->key, b->key) != 0))
        return false;
    switch (a->type) {
    case TNY_J_INT: return a->u.i == b->u.i;
    case TNY_J_REAL: /* the same bits: both read the same text */
        return memcmp(&a->u.d, &b->u.d, sizeof(a->u.d)) == 0;
    case TNY_J_STRING: return memcmp(a->u.s, b->u.s, a->n + 1) == 0;
    case TNY_J_ARRAY:
    case TNY_J_OBJECT:
        for (uint32_t i = 0; i < a->n; i++)
            if (!tny__jv_equal(a->u.kids[i], b->u.kids[i]))
                return false;
        return true;
    }
    return true;
}
