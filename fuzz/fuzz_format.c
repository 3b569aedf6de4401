/* fuzz_format.c - fuzz target: the format-file parser
 * (tny_format_from_json_text, as `tourney` reads an event's "format" object
 * or the console's create_event format_json), and what a parsed format
 * drives: the printed format must read back, and an event of a few players
 * on it must pair, play and rank without a crash.
 */
#include <string.h>

#include "fuzz.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/standings.h"

/* Play an event of n players through to its end (or 12 rounds). */
static void play(const struct tny_format *f, int32_t n)
{
    struct tny_event ev;
    struct tny_diag diag;
    struct tny_rng rng;
    struct tny_standings st;
    int32_t played = 0;

    tny_event_init(&ev);
    ev.format = *f;
    ev.seed = 1;
    ev.players = calloc((size_t)n, sizeof(*ev.players));
    if (!ev.players)
        return;
    ev.n_players = n;
    for (int32_t p = 0; p < n; p++) {
        char id[16];
        snprintf(id, sizeof(id), "p%d", (int)p + 1);
        ev.players[p].id = strdup(id);
        ev.players[p].name = strdup(id);
        ev.players[p].first_round = 1;
        if (!ev.players[p].id || !ev.players[p].name)
            goto out;
    }
    if (tny_event_validate(&ev, &diag) < 0)
        goto out;
    tny_rng_seed(&rng, 7);
    if (tny_simulate_rounds(&ev, 12, &rng, &played, &diag) < 0)
        goto out;
    if (tny_standings_compute(&ev, &st, &diag) == 0)
        tny_standings_release(&st);
out:
    tny_event_release(&ev);
}

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
    /* 2..17 players: odd counts (byes), cuts larger than the field. */
    play(&f, 2 + (int32_t)(size % 16));
    return 0;
}
