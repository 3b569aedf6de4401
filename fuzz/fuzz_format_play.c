/* fuzz_format_play.c - fuzz target: what a format file drives.  Each input
 * is parsed as fuzz_format.c parses it (tny_format_from_json_text), and an
 * accepted format gets an event of 2-17 players paired, played and ranked
 * on it to its end (at most 12 rounds): the stages, cuts, byes, scoring
 * and tiebreaks a format can declare must never crash the engine.  Slower
 * than the parser's target by the play, hence a target of its own.
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
    struct tny_format f;
    struct tny_diag diag;

    if (size > 65536)
        return 0;
    if (tny_format_from_json_text((const char *)data, size, &f, &diag) < 0)
        return 0;
    /* 2..17 players: odd counts (byes), cuts larger than the field. */
    play(&f, 2 + (int32_t)(size % 16));
    return 0;
}
