/* testutil.c - helpers shared by the unit tests; see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include("tny/json_io.h")
#define TU_HAVE_JSON_IO 1
#include "tny/json_io.h"
#endif
#include "tny/standings.h"

int tu_property_cases(int default_cases)
{
    const char *env = getenv("TNY_PROPERTY_CASES");
    if (env && atoi(env) > 0)
        return atoi(env);
    /* at most this many (the valgrind runs, cmake/Memcheck.cmake): fewer
     * cases, never more than the test asks for */
    env = getenv("TNY_PROPERTY_CASES_MAX");
    if (env && atoi(env) > 0 && atoi(env) < default_cases)
        return atoi(env);
    return default_cases;
}

char *tu_json(const char *text)
{
    char *copy = strdup(text);
    assert_non_null(copy);
    for (char *c = copy; *c; c++)
        if (*c == '\'')
            *c = '"';
    return copy;
}

#ifdef TU_HAVE_JSON_IO
int tu_try_event(const char *single_quoted_json, struct tny_event *ev,
                 char *msg, size_t msg_size)
{
    char *text = tu_json(single_quoted_json);
    struct tny_diag diag = {{0}};
    int rc = tny_event_from_json_text(text, strlen(text), ev, &diag);
    free(text);
    if (msg)
        snprintf(msg, msg_size, "%s", diag.msg);
    return rc;
}

void tu_load_event(const char *single_quoted_json, struct tny_event *ev)
{
    char msg[600];
    int rc = tu_try_event(single_quoted_json, ev, msg, sizeof(msg));
    if (rc != 0)
        fail_msg("event did not load: %s", msg);
}

#endif

int tu_row_of(const struct tny_event *ev, const struct tny_standings *st,
              const char *id)
{
    for (int i = 0; i < st->n_rows; i++)
        if (strcmp(ev->players[st->rows[i].player].id, id) == 0)
            return i;
    return -1;
}
