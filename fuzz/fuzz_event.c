/* fuzz_event.c - fuzz target: the event-file parser
 * (tny_event_from_json_text, as `tourney standings|pair|results` and the
 * hub's store read an event), then what an accepted event drives:
 * standings, the next round's pairing, the CSV and JSON outputs, and the
 * printed event, which must read back; read in place
 * (tny_event_from_json_buffer, as the CLI reads its file), the same event
 * or the same message.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tny/csv_io.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/standings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tny_event ev, back;
    struct tny_diag diag;
    struct tny_standings st;
    struct tny_round_plan plan;
    char *text = NULL;

    if (size > 262144)
        return 0;
    struct tny_diag diag_placed = {{0}};
    char *copy = fuzz_copy(data, size);
    if (!copy)
        return 0;
    memset(&diag, 0, sizeof(diag));
    int rc = tny_event_from_json_text((const char *)data, size, &ev, &diag);
    int rc_placed = tny_event_from_json_buffer(copy, size, &back, &diag_placed);
    free(copy);
    fuzz_check(rc == rc_placed);
    fuzz_check(strcmp(diag.msg, diag_placed.msg) == 0);
    if (rc < 0)
        return 0;
    char *placed_json = NULL;
    fuzz_check(tny_event_to_json(&back, &placed_json) == 0);
    tny_event_release(&back);
    fuzz_check(tny_event_to_json(&ev, &text) == 0);
    fuzz_check(strcmp(text, placed_json) == 0);
    free(placed_json);
    free(text);
    text = NULL;
    if (tny_standings_compute(&ev, &st, &diag) == 0) {
        if (tny_standings_to_json(&ev, &st, &text) == 0)
            free(text);
        text = NULL;
        if (tny_standings_to_csv(&ev, &st, &text) == 0)
            free(text);
        text = NULL;
        tny_standings_release(&st);
    }
    if (tny_results_to_csv(&ev, &text) == 0)
        free(text);
    text = NULL;
    if (tny_pair_next(&ev, &plan, &diag) == 0)
        tny_round_plan_release(&plan);
    fuzz_check(tny_event_to_json(&ev, &text) == 0);
    fuzz_check(tny_event_from_json_text(text, strlen(text), &back, &diag) == 0);
    tny_event_release(&back);
    free(text);
    tny_event_release(&ev);
    return 0;
}
