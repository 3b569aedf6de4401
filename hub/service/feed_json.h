/* feed_json.h - a JSON text writer for the feed (feed_json.c): typed
 * values written straight to compact text, byte for byte what jansson's
 * json_dumps(JSON_COMPACT | JSON_PRESERVE_ORDER) prints for the same
 * values (strings escaped as jansson does, reals as its "%.17g" form), so
 * the feed's documents are built without a JSON tree and without printing
 * text to parse it back (issue 17 item 2).
 *
 * Not here: what the documents contain (feed.c, the schema
 * docs/feed.schema.json).  Out of memory is sticky (w->oom), checked once
 * when the text is taken.
 */
#ifndef HUB_SERVICE_FEED_JSON_H
#define HUB_SERVICE_FEED_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HUB_JW_DEPTH 32

struct hub_jw {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;                /* open objects and arrays */
    bool first[HUB_JW_DEPTH]; /* nothing written yet at that level */
    bool after_key;           /* a key was written, its value is next */
};

void hub_jw_init(struct hub_jw *w);
/* Empties the text (the buffer is kept). */
void hub_jw_reset(struct hub_jw *w);
void hub_jw_free(struct hub_jw *w);
/* The text (NUL-terminated, w->len bytes) moved out, malloc'd; NULL when
 * out of memory.  The writer is empty afterwards. */
char *hub_jw_take(struct hub_jw *w);
/* Room for n more bytes at once (a document about as long as the last
 * one is written without growing the buffer step by step); false when
 * out of memory (w->oom). */
bool hub_jw_reserve(struct hub_jw *w, size_t n);

void hub_jw_obj(struct hub_jw *w);
void hub_jw_end(struct hub_jw *w); /* closes the innermost object */
void hub_jw_arr(struct hub_jw *w);
void hub_jw_end_arr(struct hub_jw *w);
void hub_jw_key(struct hub_jw *w, const char *key);
/* Values; a NULL string is null. */
void hub_jw_str(struct hub_jw *w, const char *s);
void hub_jw_int(struct hub_jw *w, int64_t v);
void hub_jw_bool(struct hub_jw *w, bool v);
void hub_jw_null(struct hub_jw *w);
/* A real as jansson prints it (non-finite: null). */
void hub_jw_real(struct hub_jw *w, double v);
/* A value already written as JSON text (n bytes). */
void hub_jw_raw(struct hub_jw *w, const char *text, size_t n);
/* n bytes of text appended as they are, continuing the value written
 * last (e.g. the rest of an object hub_jw_raw began): no comma, the
 * writer's state unchanged. */
void hub_jw_append(struct hub_jw *w, const char *text, size_t n);

/* key: value in one call */
void hub_jw_kstr(struct hub_jw *w, const char *key, const char *s);
void hub_jw_kint(struct hub_jw *w, const char *key, int64_t v);
void hub_jw_kbool(struct hub_jw *w, const char *key, bool v);

/* Tournament points (TNY_POINT_SCALE units) as tny_json_points gives them:
 * an integer when whole, else a real. */
void hub_jw_points(struct hub_jw *w, int64_t units);

#endif
