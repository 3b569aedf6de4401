/* jsonu.c - typed JSON getters with path messages, loading and dumping.
 *
 * Every check here answers a bad value with TNY_EINVAL and a one-line
 * message "path: what was expected"; nothing is asserted about input.
 * Loading caps the size; dumping fixes the layout of every output.
 */
#include "io_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/format.h"
#include "tny/json_io.h"

/* While quiet (tny__paths_quiet), a path is not built: the event
 * parser's first pass needs none (issue 17 item 4: an snprintf per field
 * was 11 % of `tourney pair` on a 10,000-player file). */
static _Thread_local bool paths_quiet;

bool tny__paths_quiet(bool on)
{
    bool was = paths_quiet;
    paths_quiet = on;
    return was;
}

void tny__path_key(char *dst, const char *base, const char *key)
{
    if (paths_quiet) {
        dst[0] = '\0';
        return;
    }
    snprintf(dst, TNY__PATH_MAX, "%s.%.64s", base, key);
}

void tny__path_index(char *dst, const char *base, size_t i)
{
    if (paths_quiet) {
        dst[0] = '\0';
        return;
    }
    snprintf(dst, TNY__PATH_MAX, "%s[%zu]", base, i);
}

bool tny__is_extension_key(const char *key)
{
    return key[0] == '_' || (key[0] == 'x' && key[1] == '_');
}

/* "path.key: unknown key (expected one of: ...)". */
static int unknown_key(const char *path, const char *key,
                       const char *const *allowed, struct tny_diag *diag)
{
    char list[384];
    return tny_diag_set(
        diag, TNY_EINVAL, "%s.%.64s: unknown key (expected one of: %s)", path,
        key, tny_key_list(list, sizeof(list), allowed, SIZE_MAX));
}

static bool key_allowed(const char *key, const char *const *allowed)
{
    if (tny__is_extension_key(key))
        return true;
    for (size_t i = 0; allowed[i]; i++)
        if (allowed[i][0] == key[0] && strcmp(allowed[i], key) == 0)
            return true;
    return false;
}

int tny__v_check_keys(const struct tny_jv *obj, const char *path,
                      const char *const *allowed, struct tny_diag *diag)
{
    for (uint32_t i = 0; obj->type == TNY_J_OBJECT && i < obj->n; i++)
        if (!key_allowed(obj->u.kids[i]->key, allowed))
            return unknown_key(path, obj->u.kids[i]->key, allowed, diag);
    return TNY_OK;
}

int tny__check_keys(const json_t *obj, const char *path,
                    const char *const *allowed, struct tny_diag *diag)
{
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)obj, key, value) {
        if (!key_allowed(key, allowed))
            return unknown_key(path, key, allowed, diag);
    }
    return TNY_OK;
}

static const char *type_name(const struct tny_jv *v)
{
    switch (v->type) {
    case TNY_J_OBJECT: return "an object";
    case TNY_J_ARRAY: return "an array";
    case TNY_J_STRING: return "a string";
    case TNY_J_INT: return "an integer";
    case TNY_J_REAL: return "a number";
    case TNY_J_TRUE:
    case TNY_J_FALSE: return "a boolean";
    case TNY_J_NULL: return "null";
    }
    return "?";
}

/* A jansson value seen as a document value (children not filled in): the
 * checks below are written once, for both. */
static struct tny_jv view(const json_t *j)
{
    struct tny_jv v = {0};
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        v.type = TNY_J_OBJECT;
        v.n = (uint32_t)json_object_size(j);
        break;
    case JSON_ARRAY:
        v.type = TNY_J_ARRAY;
        /* The count as the checks compare it, capped to fit. */
        v.n = json_array_size(j) > UINT32_MAX ? UINT32_MAX
                                              : (uint32_t)json_array_size(j);
        break;
    case JSON_STRING:
        v.type = TNY_J_STRING;
        v.u.s = json_string_value(j);
        v.n = json_string_length(j) > UINT32_MAX
                  ? UINT32_MAX
                  : (uint32_t)json_string_length(j);
        break;
    case JSON_INTEGER:
        v.type = TNY_J_INT;
        v.u.i = (int64_t)json_integer_value(j);
        break;
    case JSON_REAL:
        v.type = TNY_J_REAL;
        v.u.d = json_real_value(j);
        break;
    case JSON_TRUE: v.type = TNY_J_TRUE; break;
    case JSON_FALSE: v.type = TNY_J_FALSE; break;
    case JSON_NULL: v.type = TNY_J_NULL; break;
    }
    return v;
}

int tny__v_want_object(const struct tny_jv *v, const char *path,
                       struct tny_diag *diag)
{
    if (v->type != TNY_J_OBJECT)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected an object, got %s",
                            path, type_name(v));
    return TNY_OK;
}

int tny__want_object(const json_t *j, const char *path, struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_want_object(&v, path, diag);
}

int tny__v_want_array(const struct tny_jv *v, const char *path, size_t max,
                      struct tny_diag *diag)
{
    if (v->type != TNY_J_ARRAY)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected an array, got %s",
                            path, type_name(v));
    if (v->n > max)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: too many entries (%zu, at most %zu)", path,
                            (size_t)v->n, max);
    return TNY_OK;
}

int tny__want_array(const json_t *j, const char *path, size_t max,
                    struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_want_array(&v, path, max, diag);
}

int tny__v_int(const struct tny_jv *v, const char *path, int64_t lo, int64_t hi,
               int64_t *out, struct tny_diag *diag)
{
    if (v->type != TNY_J_INT)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected an integer %lld..%lld, got %s", path,
                            (long long)lo, (long long)hi, type_name(v));
    int64_t x = v->u.i;
    if (x < lo || x > hi)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected an integer %lld..%lld, got %lld",
                            path, (long long)lo, (long long)hi, (long long)x);
    *out = x;
    return TNY_OK;
}

int tny__int(const json_t *j, const char *path, int64_t lo, int64_t hi,
             int64_t *out, struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_int(&v, path, lo, hi, out, diag);
}

int tny__v_points(const struct tny_jv *v, const char *path, int64_t limit,
                  int64_t *out, struct tny_diag *diag)
{
    if (v->type == TNY_J_INT) {
        int64_t x = v->u.i;
        if (x < -limit || x > limit)
            return tny_diag_set(
                diag, TNY_EINVAL, "%s: expected points -%lld..%lld, got %lld",
                path, (long long)limit, (long long)limit, (long long)x);
        *out = x * TNY_POINT_SCALE;
        return TNY_OK;
    }
    if (v->type != TNY_J_REAL)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected a number, got %s",
                            path, type_name(v));
    double x = v->u.d;
    if (!(x >= (double)-limit && x <= (double)limit))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected points -%lld..%lld, got %g", path,
                            (long long)limit, (long long)limit, x);
    /* Decimal text such as 13.3 is not exact in binary: round to the unit
     * and accept only a value that was (within float noise) on a unit. */
    double scaled = x * TNY_POINT_SCALE;
    double units = nearbyint(scaled);
    if (fabs(scaled - units) > 1e-6 * fmax(1.0, fabs(scaled)))
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: %.17g is not an exact number of points "
                            "(tenths, hundredths, halves, thirds, quarters: "
                            "multiples of 1/%d)",
                            path, x, TNY_POINT_SCALE);
    *out = (int64_t)units;
    return TNY_OK;
}

int tny__points(const json_t *j, const char *path, int64_t limit, int64_t *out,
                struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_points(&v, path, limit, out, diag);
}

int tny__v_bool(const struct tny_jv *v, const char *path, bool *out,
                struct tny_diag *diag)
{
    if (v->type != TNY_J_TRUE && v->type != TNY_J_FALSE)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: expected true or false, got %s", path,
                            type_name(v));
    *out = v->type == TNY_J_TRUE;
    return TNY_OK;
}

int tny__bool(const json_t *j, const char *path, bool *out,
              struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_bool(&v, path, out, diag);
}

int tny__v_string(const struct tny_jv *v, const char *path, size_t max,
                  const char **out, struct tny_diag *diag)
{
    if (v->type != TNY_J_STRING)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected a string, got %s",
                            path, type_name(v));
    size_t len = v->n;
    const char *s = v->u.s;
    if (len == 0)
        return tny_diag_set(diag, TNY_EINVAL, "%s: expected a non-empty string",
                            path);
    if (len > max)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: string too long (%zu bytes, at most %zu)",
                            path, len, max);
    if (strlen(s) != len)
        return tny_diag_set(diag, TNY_EINVAL, "%s: string contains NUL", path);
    *out = s;
    return TNY_OK;
}

int tny__string(const json_t *j, const char *path, size_t max, const char **out,
                struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_string(&v, path, max, out, diag);
}

int tny__v_string_to(const struct tny_jv *v, const char *path, char *dst,
                     size_t cap, struct tny_diag *diag)
{
    const char *s = NULL; /* gcc -O3 cannot see that rc < 0 leaves it unread */
    int rc = tny__v_string(v, path, cap - 1, &s, diag);
    if (rc < 0)
        return rc;
    memset(dst, 0, cap);
    memcpy(dst, s, strlen(s));
    return TNY_OK;
}

int tny__string_to(const json_t *j, const char *path, char *dst, size_t cap,
                   struct tny_diag *diag)
{
    struct tny_jv v = view(j);
    return tny__v_string_to(&v, path, dst, cap, diag);
}

int tny__load(const char *text, size_t len, const char *what, json_t **out,
              struct tny_diag *diag)
{
    json_error_t err;
    *out = NULL;
    if (len > TNY_JSON_MAX_BYTES)
        return tny_diag_set(diag, TNY_ERANGE,
                            "%s: too large (%zu bytes, at "
                            "most %u)",
                            what, len, TNY_JSON_MAX_BYTES);
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: invalid JSON at line %d, column %d: %s", what,
                            err.line, err.column, err.text);
    *out = root;
    return TNY_OK;
}

int tny__dump(const json_t *root, char **out)
{
    *out = NULL;
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                      JSON_REAL_PRECISION(15));
    if (!text)
        return TNY_ENOMEM;
    size_t len = strlen(text);
    char *with_nl = realloc(text, len + 2);
    if (!with_nl) {
        free(text);
        return TNY_ENOMEM;
    }
    with_nl[len] = '\n';
    with_nl[len + 1] = '\0';
    *out = with_nl;
    return TNY_OK;
}

bool tny__set(json_t *obj, const char *key, json_t *value)
{
    if (!value)
        return false;
    return json_object_set_new(obj, key, value) == 0;
}

bool tny__append(json_t *arr, json_t *value)
{
    if (!value)
        return false;
    return json_array_append_new(arr, value) == 0;
}

json_t *tny__number(double v)
{
    /* Whole values print as integers ("3", not "3.0"). */
    if (isfinite(v) && fabs(v) < 9007199254740992.0 && v == floor(v))
        return json_integer((json_int_t)v);
    if (!isfinite(v))
        return json_null();
    return json_real(v);
}

json_t *tny_json_points(int64_t units)
{
    if (units % TNY_POINT_SCALE == 0)
        return json_integer((json_int_t)(units / TNY_POINT_SCALE));
    /* "%.15g" of the double prints exact tenths/hundredths with the fewest
     * digits (12.5, 13.3, 3.75) and thirds as 6.33333333333333. */
    return json_real((double)units / TNY_POINT_SCALE);
}
