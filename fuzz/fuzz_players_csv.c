/* fuzz_players_csv.c - fuzz target: the organiser's player list import
 * (hub/service/players_csv.c over common/io/csv_io.c), as the hub reads
 * an import_players request's CSV for a Neuroshima Hex! event (whose army
 * column is checked against the format).  Every player it accepts must be
 * one the store would take: an id and a name.
 */
#include <string.h>

#include "fuzz.h"
#include "players_csv.h"
#include "tny/json_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tny_format fmt;
    static int have_fmt;
    struct tny_wire_player *players = NULL;
    struct tny_diag diag;
    int32_t n = 0;

    if (!have_fmt) {
        fuzz_check(tny_format_preset("neuroshima-hex", &fmt, &diag) == 0);
        have_fmt = 1;
    }
    if (size > 1u << 20)
        return 0;
    if (hub_players_csv_read((const char *)data, size, NULL, &fmt, &players, &n,
                             &diag) == 0) {
        fuzz_check(memchr(data, '\0', size) == NULL);
        for (int32_t i = 0; i < n; i++)
            fuzz_check(tny_wire_id_valid(players[i].id) && players[i].name[0]);
        free(players);
    }
    return 0;
}
