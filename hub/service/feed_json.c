/* feed_json.c - the feed's JSON text writer (feed_json.h). */
#include "feed_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/format.h"

void hub_jw_init(struct hub_jw *w)
{
    memset(w, 0, sizeof(*w));
    w->first[0] = true;
}

void hub_jw_reset(struct hub_jw *w)
{
    w->len = 0;
    w->oom = false;
    w->depth = 0;
    w->first[0] = true;
    w->after_key = false;
    if (w->buf)
        w->buf[0] = '\0';
}

void hub_jw_free(struct hub_jw *w)
{
    free(w->buf);
    hub_jw_init(w);
}

char *hub_jw_take(struct hub_jw *w)
{
    char *text = NULL;
    if (!w->oom && w->buf)
        text = w->buf;
    else if (!w->oom)
        text = calloc(1, 1);
    else
        free(w->buf);
    hub_jw_init(w);
    return text;
}

static bool reserve(struct hub_jw *w, size_t n)
{
    if (w->oom)
        return false;
    if (w->len + n + 1 <= w->cap)
        return true;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + n + 1)
        cap *= 2;
    char *b = realloc(w->buf, cap);
    if (!b) {
        w->oom = true;
        return false;
    }
    w->buf = b;
    w->cap = cap;
    return true;
}

bool hub_jw_reserve(struct hub_jw *w, size_t n)
{
    return reserve(w, n);
}

static void put(struct hub_jw *w, const char *s, size_t n)
{
    if (!reserve(w, n))
        return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void putc1(struct hub_jw *w, char c)
{
    if (!reserve(w, 1))
        return;
    w->buf[w->len++] = c;
    w->buf[w->len] = '\0';
}

/* Before a value: the comma between array items. */
static void value_start(struct hub_jw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth > 0 && !w->first[w->depth])
        putc1(w, ',');
    w->first[w->depth] = false;
}

/* jansson's dump_string: '"', '\\' and control characters escaped (short
 * forms where JSON has one, else \u00XX), everything else as it is. */
static void put_string(struct hub_jw *w, const char *s)
{
    const char *run = s;
    putc1(w, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *esc = NULL;
        char seq[8];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(w, run, (size_t)(s - run));
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: snprintf(seq, sizeof(seq), "\\u%04X", (unsigned)c); esc = seq;
        }
        put(w, esc, strlen(esc));
        run = s + 1;
    }
    put(w, run, (size_t)(s - run));
    putc1(w, '"');
}

static void open_level(struct hub_jw *w, char c)
{
    value_start(w);
    putc1(w, c);
    if (w->depth + 1 < HUB_JW_DEPTH)
        w->depth++;
    else
        w->oom = true; /* deeper than any feed document */
    w->first[w->depth] = true;
}

void hub_jw_obj(struct hub_jw *w)
{
    open_level(w, '{');
}

void hub_jw_arr(struct hub_jw *w)
{
    open_level(w, '[');
}

void hub_jw_end(struct hub_jw *w)
{
    putc1(w, '}');
    if (w->depth > 0)
        w->depth--;
}

void hub_jw_end_arr(struct hub_jw *w)
{
    putc1(w, ']');
    if (w->depth > 0)
        w->depth--;
}

void hub_jw_key(struct hub_jw *w, const char *key)
{
    if (!w->first[w->depth])
        putc1(w, ',');
    w->first[w->depth] = false;
    put_string(w, key);
    putc1(w, ':');
    w->after_key = true;
}

void hub_jw_str(struct hub_jw *w, const char *s)
{
    if (!s) {
        hub_jw_null(w);
        return;
    }
    value_start(w);
    put_string(w, s);
}

/* "%lld" without snprintf (a feed build writes tens of thousands). */
void hub_jw_int(struct hub_jw *w, int64_t v)
{
    char b[24];
    char *e = b + sizeof(b), *p = e;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *--p = '-';
    value_start(w);
    put(w, p, (size_t)(e - p));
}

void hub_jw_bool(struct hub_jw *w, bool v)
{
    value_start(w);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
}

void hub_jw_null(struct hub_jw *w)
{
    value_start(w);
    put(w, "null", 4);
}

/* jansson's dtostr with its default precision (17): "%.17g", ".0" added
 * when neither '.' nor 'e' is there, the exponent without '+' and
 * leading zeros. */
void hub_jw_real(struct hub_jw *w, double v)
{
    char b[64];
    if (!isfinite(v)) {
        hub_jw_null(w);
        return;
    }
    int n = snprintf(b, sizeof(b) - 3, "%.17g", v);
    if (n < 0 || n >= (int)sizeof(b) - 3) {
        w->oom = true;
        return;
    }
    if (!strchr(b, '.') && !strchr(b, 'e')) {
        memcpy(b + n, ".0", 3);
        n += 2;
    }
    char *e = strchr(b, 'e');
    if (e) {
        char *start = e + 1, *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, strlen(end) + 1);
            n = (int)strlen(b);
        }
    }
    value_start(w);
    put(w, b, (size_t)n);
}

void hub_jw_raw(struct hub_jw *w, const char *text, size_t n)
{
    value_start(w);
    put(w, text, n);
}

void hub_jw_append(struct hub_jw *w, const char *text, size_t n)
{
    put(w, text, n);
}

void hub_jw_kstr(struct hub_jw *w, const char *key, const char *s)
{
    hub_jw_key(w, key);
    hub_jw_str(w, s);
}

void hub_jw_kint(struct hub_jw *w, const char *key, int64_t v)
{
    hub_jw_key(w, key);
    hub_jw_int(w, v);
}

void hub_jw_kbool(struct hub_jw *w, const char *key, bool v)
{
    hub_jw_key(w, key);
    hub_jw_bool(w, v);
}

void hub_jw_points(struct hub_jw *w, int64_t units)
{
    if (units % TNY_POINT_SCALE == 0)
        hub_jw_int(w, units / TNY_POINT_SCALE);
    else
        hub_jw_real(w, (double)units / TNY_POINT_SCALE);
}
