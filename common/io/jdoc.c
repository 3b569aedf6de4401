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
 * Values live in one array; a container's children are a contiguous run
 * of pointers; an object keeps its members in document order (the first
 * unknown key named is the same as with jansson).  Strings are copied,
 * NUL-terminated, into blocks that never move.  Not for writing JSON:
 * output stays jansson's (tny__dump).
 */
#include "io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "tny/json_io.h"

/* jansson's JSON_PARSER_MAX_DEPTH. */
#define JDOC_MAX_DEPTH 2048

struct jdoc_block {
    struct jdoc_block *next;
    size_t used, cap;
    char text[];
};

struct open_container {
    uint32_t node;  /* index of the container's value */
    uint32_t start; /* its first child's place in pending */
};

struct builder {
    struct tny_jv *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *pending; /* children of the open containers, in order */
    size_t n_pending, cap_pending;
    uint32_t *kids; /* children of closed containers, runs by container */
    size_t n_kids, cap_kids;
    struct open_container *open;
    size_t depth, cap_open;
    struct jdoc_block *blocks;
    const char *key; /* the member name for the next value, or NULL */
    yajl_handle h;   /* reading text, else NULL */
    size_t end;      /* bytes of text up to the end of the top value */
    bool nomem;      /* allocation failed */
    bool decline;    /* jansson must judge this text */
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

/* A NUL-terminated copy of s[0..len) that never moves. */
static const char *copy_text(struct builder *b, const char *s, size_t len,
                             size_t block_hint)
{
    struct jdoc_block *bl = b->blocks;
    if (!bl || bl->cap - bl->used < len + 1) {
        size_t cap = len + 1 > block_hint ? len + 1 : block_hint;
        bl = malloc(sizeof(*bl) + cap);
        if (!bl) {
            b->nomem = true;
            return NULL;
        }
        bl->next = b->blocks;
        bl->used = 0;
        bl->cap = cap;
        b->blocks = bl;
    }
    char *out = bl->text + bl->used;
    memcpy(out, s, len);
    out[len] = '\0';
    bl->used += len + 1;
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
    return copy_text(b, (const char *)s, len, 64 * 1024);
}

/* A new value (a child of the open container, if any); NULL on failure. */
static struct tny_jv *add(struct builder *b, uint8_t type)
{
    if (b->n_nodes >= UINT32_MAX ||
        !grow((void **)&b->nodes, &b->cap_nodes, b->n_nodes + 1,
              sizeof(*b->nodes)) ||
        !grow((void **)&b->pending, &b->cap_pending, b->n_pending + 1,
              sizeof(*b->pending))) {
        b->nomem = true;
        return NULL;
    }
    /* jansson takes one object or array at the top. */
    if (b->depth == 0 &&
        (b->n_nodes > 0 || (type != TNY_J_OBJECT && type != TNY_J_ARRAY))) {
        b->decline = true;
        return NULL;
    }
    uint32_t i = (uint32_t)b->n_nodes++;
    struct tny_jv *v = &b->nodes[i];
    memset(v, 0, sizeof(*v));
    v->type = type;
    v->key = b->key;
    b->key = NULL;
    if (b->depth > 0)
        b->pending[b->n_pending++] = i;
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
    b->open[b->depth].node = (uint32_t)(v - b->nodes);
    b->open[b->depth].start = (uint32_t)b->n_pending;
    b->depth++;
    return true;
}

static int keycmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Two members of one object with the same name (jansson refuses them). */
static bool has_duplicate(struct builder *b, const uint32_t *kid, size_t n)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (strcmp(b->nodes[kid[i]].key, b->nodes[kid[j]].key) == 0)
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
        names[i] = b->nodes[kid[i]].key;
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
    struct tny_jv *v = &b->nodes[oc.node];
    if (v->type == TNY_J_OBJECT && has_duplicate(b, b->pending + oc.start, n)) {
        b->decline = true;
        return false;
    }
    if (!grow((void **)&b->kids, &b->cap_kids, b->n_kids + n,
              sizeof(*b->kids))) {
        b->nomem = true;
        return false;
    }
    if (n > 0) /* kids is still NULL while every container was empty */
        memcpy(b->kids + b->n_kids, b->pending + oc.start,
               n * sizeof(*b->kids));
    v->n = (uint32_t)n;
    v->u.i = (int64_t)b->n_kids; /* made a pointer by finish() */
    b->n_kids += n;
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
    if (!v)
        return 0;
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
    free(b->nodes);
    free(b->pending);
    free(b->kids);
    free(b->open);
    while (b->blocks) {
        struct jdoc_block *next = b->blocks->next;
        free(b->blocks);
        b->blocks = next;
    }
    memset(b, 0, sizeof(*b));
}

/* Moves the built values into doc: children's runs become pointers. */
static int finish(struct builder *b, struct tny_jdoc *doc)
{
    const struct tny_jv **ptr =
        malloc((b->n_kids ? b->n_kids : 1) * sizeof(*ptr));
    if (!ptr)
        return TNY_ENOMEM;
    for (size_t i = 0; i < b->n_kids; i++)
        ptr[i] = &b->nodes[b->kids[i]];
    for (size_t i = 0; i < b->n_nodes; i++) {
        struct tny_jv *v = &b->nodes[i];
        if (v->type == TNY_J_OBJECT || v->type == TNY_J_ARRAY)
            v->u.kids = ptr + v->u.i;
    }
    doc->nodes = b->nodes;
    doc->kids = ptr;
    doc->blocks = b->blocks;
    doc->root = b->nodes;
    b->nodes = NULL;
    b->blocks = NULL;
    builder_free(b);
    return TNY_OK;
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
            if (!(b->key = copy_text(b, key, strlen(key), 4096)) ||
                !copy_json(b, m))
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
            copy_text(b, json_string_value(j), json_string_length(j), 4096);
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
    int rc = finish(&b, doc);
    if (rc < 0)
        builder_free(&b);
    return rc;
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

int tny__jdoc_parse(struct tny_jdoc *doc, const char *text, size_t len,
                    const char *what, struct tny_diag *diag)
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
        /* Strings are copied with their NUL into blocks of the text's
         * size: one block for the whole file. */
        if (!copy_text(&b, "", 0, len + 1))
            goto nomem;
        b.blocks->used = 0;
        if (!(h = yajl_alloc(&callbacks, NULL, &b)))
            goto nomem;
        b.h = h;
        yajl_status st = yajl_parse(h, (const unsigned char *)text, len);
        if (st == yajl_status_ok)
            st = yajl_complete_parse(h);
        yajl_free(h);
        b.h = NULL;
        if (b.nomem)
            goto nomem;
        /* yajl leaves an unfinished token after the value unread ("{}\"");
         * jansson reads to the end: only blanks may follow. */
        for (size_t i = b.end; st == yajl_status_ok && i < len; i++)
            if (!strchr(" \t\n\r", text[i]) || text[i] == '\0')
                st = yajl_status_error;
        if (st == yajl_status_ok && b.n_nodes > 0 && b.depth == 0)
            return finish(&b, doc) < 0 ? (builder_free(&b), TNY_ENOMEM)
                                       : TNY_OK;
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

void tny__jdoc_release(struct tny_jdoc *doc)
{
    struct builder b = {.nodes = doc->nodes, .blocks = doc->blocks};
    free(doc->kids);
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
