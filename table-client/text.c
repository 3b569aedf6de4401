/* text.c - quoting for output lines, the key=value result form, and a
 * result in words with the players' names (the table's display).
 *
 * Does not interpret results (game.c does).  Invariant: every output is
 * NUL-terminated and bounded by the caller's size.
 */
#include "text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"

void tbl_text_quote(const char *in, char *out, size_t size)
{
    size_t o = 0;

    if (size == 0)
        return;
    if (size < 3) {
        out[0] = '\0';
        return;
    }
    out[o++] = '"';
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char esc[8];
        size_t n;
        switch (*p) {
        case '"': n = (size_t)snprintf(esc, sizeof(esc), "\\\""); break;
        case '\\': n = (size_t)snprintf(esc, sizeof(esc), "\\\\"); break;
        case '\n': n = (size_t)snprintf(esc, sizeof(esc), "\\n"); break;
        case '\r': n = (size_t)snprintf(esc, sizeof(esc), "\\r"); break;
        case '\t': n = (size_t)snprintf(esc, sizeof(esc), "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", *p);
            } else {
                esc[0] = (char)*p;
                n = 1;
            }
        }
        /* Room for this piece, the closing quote and the NUL. */
        if (o + n + 2 > size) {
            /* Do not leave half a UTF-8 character behind. */
            while (o > 1 && ((unsigned char)out[o - 1] & 0xc0) == 0x80)
                o--;
            if (o > 1 && ((unsigned char)out[o - 1] & 0xc0) == 0xc0)
                o--;
            break;
        }
        memcpy(out + o, esc, n);
        o += n;
    }
    out[o++] = '"';
    out[o] = '\0';
}

/* A number as JSON: integer when it has no point or exponent, else real.
 * NULL when text is not a number. */
static json_t *number_of(const char *text)
{
    char *end = NULL;
    const char *p = text;
    bool digits = false, point = false;

    if (*p == '-' || *p == '+')
        p++;
    for (; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits = true;
        else if (*p == '.' && !point)
            point = true;
        else
            return NULL;
    }
    if (!digits)
        return NULL;
    if (!point) {
        long long v = strtoll(text, &end, 10);
        if (end && *end == '\0')
            return json_integer((json_int_t)v);
        return NULL;
    }
    double d = strtod(text, &end);
    if (!end || *end != '\0')
        return NULL;
    return json_real(d);
}

static json_t *scalar_of(const char *text)
{
    json_t *v;

    if (strcmp(text, "true") == 0)
        return json_true();
    if (strcmp(text, "false") == 0)
        return json_false();
    if ((v = number_of(text)))
        return v;
    return json_string(text);
}

/* A value: a list when it has a comma. */
static json_t *value_of(char *text)
{
    json_t *arr;

    if (!strchr(text, ','))
        return scalar_of(text);
    arr = json_array();
    if (!arr)
        return NULL;
    for (char *item = text, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (json_array_append_new(arr, scalar_of(item)) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

int tbl_text_kv_to_json(const char *text, json_t **out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    json_t *root = json_object();
    char *copy = strdup(text);
    char *save = NULL;

    *out = NULL;
    if (!root || !copy) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
        goto out;
    }
    for (char *tok = strtok_r(copy, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || eq[1] == '\0') {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "result: expected key=value, got \"%.64s\"", tok);
            goto out;
        }
        *eq = '\0';
        char *key = tok, *sub = strchr(tok, '.');
        json_t *value = value_of(eq + 1);
        if (!value) {
            rc = tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
            goto out;
        }
        json_t *parent = root;
        if (sub) {
            *sub++ = '\0';
            if (*key == '\0' || *sub == '\0') {
                json_decref(value);
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "result: expected key.id=value, got "
                                  "\"%.64s.%.64s\"",
                                  key, sub);
                goto out;
            }
            parent = json_object_get(root, key);
            if (!parent) {
                parent = json_object();
                if (!parent || json_object_set_new(root, key, parent) != 0) {
                    json_decref(value);
                    rc =
                        tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
                    goto out;
                }
            } else if (!json_is_object(parent)) {
                json_decref(value);
                rc = tny_diag_set(diag, TNY_EINVAL,
                                  "result.%.64s: given both as a value and "
                                  "as a map",
                                  key);
                goto out;
            }
            key = sub;
        }
        if (json_object_get(parent, key)) {
            json_decref(value);
            rc = tny_diag_set(
                diag, TNY_EINVAL, "result.%.64s%s%.64s: given twice",
                parent == root ? key : tok, parent == root ? "" : ".",
                parent == root ? "" : key);
            goto out;
        }
        if (json_object_set_new(parent, key, value) != 0) {
            rc = tny_diag_set(diag, TNY_ENOMEM, "result: out of memory");
            goto out;
        }
    }
    if (json_object_size(root) == 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "result: empty (expected a JSON object or "
                          "key=value pairs)");
        goto out;
    }
    *out = root;
    root = NULL;
out:
    json_decref(root);
    free(copy);
    return rc;
}

int tbl_text_result_json(const char *text, json_t **out, struct tny_diag *diag)
{
    json_error_t err;
    json_t *root;

    *out = NULL;
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text != '{' && *text != '[' && *text != '"')
        return tbl_text_kv_to_json(text, out, diag);
    root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return tny_diag_set(diag, TNY_EINVAL,
                            "result: invalid JSON at column %d: %s", err.column,
                            err.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return tny_diag_set(diag, TNY_EINVAL, "result: expected a JSON object");
    }
    *out = root;
    return TNY_OK;
}

/* ---- a result in words ---------------------------------------------- */

struct res_text {
    char *out;
    size_t size, used;
};

static void res_put(struct res_text *t, const char *fmt, ...)
{
    va_list ap;
    if (t->used + 1 >= t->size)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(t->out + t->used, t->size - t->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used =
            t->used + (size_t)n < t->size ? t->used + (size_t)n : t->size - 1;
}

/* Seat s's name, with the army it played when the result names one. */
static void res_name(struct res_text *t, const struct tny_wire_assignment *a,
                     int32_t s, json_t *res)
{
    const struct tny_wire_seat *seat = &a->seats[s];
    const char *army = json_string_value(
        json_object_get(json_object_get(res, "armies"), seat->player_id));
    res_put(t, "%s", seat->name[0] ? seat->name : seat->player_id);
    if (army && army[0])
        res_put(t, " [%s]", army);
}

static int32_t res_seat(const struct tny_wire_assignment *a, const char *id)
{
    for (int32_t s = 0; id && s < a->n_seats; s++)
        if (strcmp(a->seats[s].player_id, id) == 0)
            return s;
    return -1;
}

/* Every seat but skip, joined with sep. */
static void res_others(struct res_text *t, const struct tny_wire_assignment *a,
                       int32_t skip, const char *sep, json_t *res)
{
    bool first = true;
    for (int32_t s = 0; s < a->n_seats; s++) {
        if (s == skip)
            continue;
        res_put(t, "%s", first ? "" : sep);
        res_name(t, a, s, res);
        first = false;
    }
}

/* "WINNER<verb>OTHERS"; returns the winner's seat (-1: not at the
 * table, shown as its id). */
static int32_t res_versus(struct res_text *t,
                          const struct tny_wire_assignment *a, const char *id,
                          const char *verb, json_t *res)
{
    int32_t w = res_seat(a, id);
    if (w >= 0)
        res_name(t, a, w, res);
    else
        res_put(t, "%s", id);
    res_put(t, "%s", verb);
    res_others(t, a, w, ", ", res);
    return w;
}

static void res_number(struct res_text *t, json_t *v)
{
    if (json_is_integer(v))
        res_put(t, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        res_put(t, "%.10g", json_real_value(v));
    else
        res_put(t, "?");
}

void tbl_text_result(const struct tny_wire_assignment *a, const char *json,
                     char *out, size_t size)
{
    struct res_text t = {out, size, 0};
    json_t *res = json_loads(json ? json : "", 0, NULL);
    if (size == 0)
        goto done;
    out[0] = '\0';
    if (!json_is_object(res))
        goto done;
    const char *winner = json_string_value(json_object_get(res, "winner"));
    const char *dflt = json_string_value(json_object_get(res, "default_win"));
    if (json_is_true(json_object_get(res, "draw")) ||
        json_is_true(json_object_get(res, "intentional_draw"))) {
        res_others(&t, a, -1, _(" drew with "), res);
        if (json_is_true(json_object_get(res, "intentional_draw")))
            res_put(&t, "%s", _(" (agreed)"));
    } else if (json_is_true(json_object_get(res, "double_loss"))) {
        res_others(&t, a, -1, _(" and "), res);
        res_put(&t, "%s", _(": both lose"));
    } else if (dflt && dflt[0]) {
        res_versus(&t, a, dflt, _(" won by default against "), res);
    } else if (winner && winner[0]) {
        int32_t w = res_versus(&t, a, winner, _(" beat "), res);
        json_t *hq = json_object_get(res, "hq_diff");
        if (json_is_number(hq)) {
            res_put(&t, "%s", _(" by "));
            res_number(&t, hq);
            res_put(&t, "%s", _(" HQ"));
        }
        json_t *games = json_object_get(res, "games");
        if (json_array_size(games) > 0) {
            size_t won = 0, n = json_array_size(games);
            for (size_t i = 0; i < n; i++) {
                const char *g = json_string_value(json_array_get(games, i));
                won += g && strcmp(g, winner) == 0;
            }
            res_put(&t, " %zu-%zu", won, n - won);
        }
        if (json_is_true(json_object_get(res, "modified")))
            res_put(&t, "%s", _(" (modified)"));
        json_t *sc = json_object_get(res, "scores");
        if (json_is_object(sc) && a->n_seats == 2 && w >= 0) {
            json_t *x = json_object_get(sc, a->seats[w].player_id);
            json_t *y = json_object_get(sc, a->seats[1 - w].player_id);
            if (json_is_number(x) && json_is_number(y)) {
                res_put(&t, " ");
                res_number(&t, x);
                res_put(&t, "-");
                res_number(&t, y);
            }
        }
    } else {
        json_t *pts = json_object_get(res, "tp");
        if (!json_is_object(pts))
            pts = json_object_get(res, "scores");
        if (!json_is_object(pts))
            pts = json_object_get(res, "vp");
        if (!json_is_object(pts))
            goto done;
        /* Highest first; seats without points last, in seat order. */
        bool shown[TNY_MAX_SEATS] = {false};
        for (int32_t k = 0; k < a->n_seats; k++) {
            int32_t best = -1;
            double bv = 0;
            for (int32_t s = 0; s < a->n_seats; s++) {
                json_t *v = json_object_get(pts, a->seats[s].player_id);
                double d = json_is_number(v) ? json_number_value(v) : -1e300;
                if (!shown[s] && (best < 0 || d > bv)) {
                    best = s;
                    bv = d;
                }
            }
            shown[best] = true;
            res_put(&t, "%s", k ? ", " : "");
            res_name(&t, a, best, res);
            res_put(&t, " ");
            res_number(&t, json_object_get(pts, a->seats[best].player_id));
        }
    }
done:
    json_decref(res);
}
