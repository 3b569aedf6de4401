/* testutil.h - small helpers shared by the cmocka unit tests. */
#ifndef TNY_TESTUTIL_H
#define TNY_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Number of random cases property tests run: env TNY_PROPERTY_CASES, else
 * default_cases capped by env TNY_PROPERTY_CASES_MAX. */
int tu_property_cases(int default_cases);

#include "tny/event.h"

/* Returns a heap copy of text with every ' turned into " (JSON in C tests
 * without escapes).  Freed by the next call's caller: use tu_free. */
char *tu_json(const char *text);

/* Parses an event (single-quoted JSON, see tu_json) and validates it;
 * fails the test with the diagnostic if either step fails. */
void tu_load_event(const char *single_quoted_json, struct tny_event *ev);

/* Parses and validates; returns the rc and copies the message to msg. */
int tu_try_event(const char *single_quoted_json, struct tny_event *ev,
                 char *msg, size_t msg_size);

/* Index of the player id in the standings rows (-1 when absent). */
struct tny_standings;
int tu_row_of(const struct tny_event *ev, const struct tny_standings *st,
              const char *id);
#endif
