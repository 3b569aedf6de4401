/* fuzz_format.c - fuzz target: the format-file parser
 * (tny_format_from_json_text, as `tourney` reads an event's "format" object
 * or the console's create_event format_json) and its printer: an accepted
 * format, printed, must read back.  What a parsed format drives (an event
 * paired, played and ranked on it) is fuzz_format_play.c's, so that this
 * target's executions are the parser's.
 */
#include <string.h>

#include "fuzz.h"
#include "tny/json_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tny_format f, back;
    struct tny_diag diag;
    char *text = NULL;

    if (size > 65536)
        return 0;
    if (tny_format_from_json_text((const char *)data, size, &f, &diag) < 0)
        return 0;
    fuzz_check(tny_format_to_json(&f, &text) == 0);
    fuzz_check(tny_format_from_json_text(text, strlen(text), &back, &diag) ==
               0);
    free(text);
    return 0;
}
