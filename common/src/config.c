/* config.c - table-driven configuration: parse, override, dump (config.h).
 */
#include "tny/config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tny_config_find(const struct tny_config_item *items, size_t n,
                    const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(items[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Index of text in a |-separated choice list, or -1. */
static int choice_index(const char *choices, const char *text)
{
    size_t len = strlen(text);
    int idx = 0;
    for (const char *p = choices; *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, text, n) == 0)
            return idx;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

static int parse_value(const struct tny_config_item *it, const char *text,
                       struct tny_config_value *out, struct tny_diag *diag)
{
    if (strlen(text) >= TNY_CONFIG_VALUE_MAX)
        return tny_diag_set(diag, TNY_EINVAL, "%s: value longer than %d bytes",
                            it->name, TNY_CONFIG_VALUE_MAX - 1);
    int64_t number = 0;
    switch (it->type) {
    case TNY_CONFIG_STRING: break;
    case TNY_CONFIG_INT: {
        char *end = NULL;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (!*text || *end || errno || v < it->min || v > it->max)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected an integer %lld..%lld, got "
                                "\"%s\"",
                                it->name, (long long)it->min,
                                (long long)it->max, text);
        number = v;
        break;
    }
    case TNY_CONFIG_BOOL: {
        static const char *const yes[] = {"true", "yes", "on", "1"};
        static const char *const no[] = {"false", "no", "off", "0"};
        int found = -1;
        for (int i = 0; i < 4; i++) {
            if (strcmp(text, yes[i]) == 0)
                found = 1;
            if (strcmp(text, no[i]) == 0)
                found = 0;
        }
        if (found < 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected true or false, got \"%s\"",
                                it->name, text);
        number = found;
        break;
    }
    case TNY_CONFIG_ENUM: {
        int idx = choice_index(it->choices, text);
        if (idx < 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s: expected one of %s, got \"%s\"", it->name,
                                it->choices, text);
        number = idx;
        break;
    }
    }
    snprintf(out->text, sizeof(out->text), "%s", text);
    out->number = number;
    return TNY_OK;
}

void tny_config_defaults(const struct tny_config_item *items, size_t n,
                         struct tny_config_value *values)
{
    for (size_t i = 0; i < n; i++) {
        int rc = parse_value(&items[i], items[i].fallback, &values[i], NULL);
        assert(rc == TNY_OK && "config default must be valid");
        (void)rc;
        values[i].set = false;
    }
}

int tny_config_set(const struct tny_config_item *items, size_t n,
                   struct tny_config_value *values, const char *name,
                   const char *text, struct tny_diag *diag)
{
    int i = tny_config_find(items, n, name);
    if (i < 0) {
        char known[1024] = "";
        size_t len = 0;
        for (size_t k = 0; k < n && len < sizeof(known); k++)
            len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
                                    k ? ", " : "", items[k].name);
        return tny_diag_set(diag, TNY_ENOTFOUND,
                            "unknown setting \"%s\" (known: %s)", name, known);
    }
    struct tny_config_value v;
    int rc = parse_value(&items[i], text, &v, diag);
    if (rc < 0)
        return rc;
    v.set = true;
    values[i] = v;
    return TNY_OK;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int tny_config_parse(const struct tny_config_item *items, size_t n,
                     struct tny_config_value *values, const char *text,
                     const char *origin, struct tny_diag *diag)
{
    struct tny_config_value *work = malloc(sizeof(*work) * (n ? n : 1));
    if (!work)
        return tny_diag_set(diag, TNY_ENOMEM, "%s: out of memory", origin);
    memcpy(work, values, sizeof(*work) * n);
    int rc = TNY_OK;
    int line_no = 0;
    const char *p = text;
    while (*p && rc == TNY_OK) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[TNY_CONFIG_VALUE_MAX + 128];
        line_no++;
        if (len >= sizeof(line)) {
            rc = tny_diag_set(diag, TNY_EINVAL, "%s:%d: line too long", origin,
                              line_no);
            break;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p = nl ? nl + 1 : p + len;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s:%d: expected \"name = value\"", origin,
                              line_no);
            break;
        }
        *eq = '\0';
        char *name = trim(s), *value = trim(eq + 1);
        size_t vlen = strlen(value);
        if (vlen >= 2 && value[0] == '"' && value[vlen - 1] == '"') {
            value[vlen - 1] = '\0';
            value++;
        }
        struct tny_diag inner = {{0}};
        rc = tny_config_set(items, n, work, name, value, &inner);
        if (rc < 0)
            tny_diag_set(diag, rc, "%s:%d: %s", origin, line_no, inner.msg);
    }
    if (rc == TNY_OK)
        memcpy(values, work, sizeof(*work) * n);
    free(work);
    return rc;
}

int tny_config_apply_args(const struct tny_config_item *items, size_t n,
                          struct tny_config_value *values, int argc,
                          char **argv, char **rest, int *n_rest,
                          struct tny_diag *diag)
{
    *n_rest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            rest[(*n_rest)++] = argv[i];
            continue;
        }
        char name[128];
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (len >= sizeof(name)) {
            rest[(*n_rest)++] = argv[i];
            continue;
        }
        memcpy(name, a + 2, len);
        name[len] = '\0';
        for (char *c = name; *c; c++)
            if (*c == '-')
                *c = '_';
        if (tny_config_find(items, n, name) < 0) {
            rest[(*n_rest)++] = argv[i];
            continue;
        }
        const char *value = eq ? eq + 1 : NULL;
        if (!value) {
            if (i + 1 >= argc)
                return tny_diag_set(diag, TNY_EINVAL, "--%s: missing value",
                                    name);
            value = argv[++i];
        }
        int rc = tny_config_set(items, n, values, name, value, diag);
        if (rc < 0)
            return rc;
    }
    return TNY_OK;
}

size_t tny_config_dump(const struct tny_config_item *items, size_t n,
                       const struct tny_config_value *values, bool annotated,
                       char *buf, size_t size)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tny_config_item *it = &items[i];
        char line[2048];
        int k;
        if (annotated) {
            char range[160] = "";
            if (it->type == TNY_CONFIG_INT)
                snprintf(range, sizeof(range), " (%lld..%lld)",
                         (long long)it->min, (long long)it->max);
            else if (it->type == TNY_CONFIG_ENUM)
                snprintf(range, sizeof(range), " (%s)", it->choices);
            else if (it->type == TNY_CONFIG_BOOL)
                snprintf(range, sizeof(range), " (true|false)");
            k = snprintf(line, sizeof(line),
                         "%s# %s%s; default \"%s\"\n%s = \"%s\"\n",
                         i ? "\n" : "", it->help, range, it->fallback, it->name,
                         values[i].text);
        } else {
            k = snprintf(line, sizeof(line), "%s = \"%s\"\n", it->name,
                         values[i].text);
        }
        if (k < 0)
            continue;
        if (len + (size_t)k < size)
            memcpy(buf + len, line, (size_t)k + 1);
        len += (size_t)k;
    }
    if (size > 0 && len >= size)
        buf[size - 1] = '\0';
    return len;
}
