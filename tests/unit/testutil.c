/* testutil.c - helpers shared by the unit tests; see testutil.h. */
#include "testutil.h"

#include <stdlib.h>

int tu_property_cases(int default_cases)
{
    const char *env = getenv("TNY_PROPERTY_CASES");
    if (env && atoi(env) > 0)
        return atoi(env);
    return default_cases;
}
