/* fuzz_import_cryodex.c - fuzz target: `tourney import cryodex FILE`
 * (tny_import), body in fuzz_import.h.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import(TNY_IMPORT_CRYODEX, data, size);
}
