/* testutil.h - small helpers shared by the cmocka unit tests. */
#ifndef TNY_TESTUTIL_H
#define TNY_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Number of random cases property tests run (env TNY_PROPERTY_CASES). */
int tu_property_cases(int default_cases);

#endif
