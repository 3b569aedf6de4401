/* text.c - quoting for output lines and the key=value result form.
 *
 * Does not interpret results (game.c does).  Invariant: every output is
 * NUL-terminated and bounded by the caller's size.
 */
#include "text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
