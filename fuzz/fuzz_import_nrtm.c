/* fuzz_import_nrtm.c - fuzz target: `tourney import nrtm FILE`
 * (tny_import), body in fuzz_import.h.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import(TNY_IMPORT_NRTM, data, size);
}
