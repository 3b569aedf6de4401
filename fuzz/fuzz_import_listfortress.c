/* fuzz_import_listfortress.c - fuzz target: `tourney import listfortress FILE`
 * (tny_import), body in fuzz_import.h.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import(TNY_IMPORT_LISTFORTRESS, data, size);
}
