/* roundrobin.c - FIDE Berger tables in closed form.
 *
 * With m = n (n even) or n + 1 (n odd) and players 1..m, round r (1-based)
 * has, at table t (1-based), for t >= 2:
 *   first  = ((r - 1) * m/2 + t - 1) mod (m - 1) + 1
 *   second = the player x in 1..m-1 with first + x == r + 1 (mod m - 1)
 * and at table 1 player m against p = ((r - 1) * m/2) mod (m - 1) + 1, with p
 * named first in odd rounds and m first in even rounds.  This reproduces the
 * FIDE Handbook (C.05 Annex 1) tables; with odd n, player m is the bye and
 * table 1 is dropped.  No state, no allocation.
 */
#include "tny/roundrobin.h"

int32_t tny_round_robin_rounds(int32_t n)
{
    if (n < 2 || n > TNY_ROUND_ROBIN_MAX)
        return 0;
    return n % 2 == 0 ? n - 1 : n;
}

int tny_round_robin_pairs(int32_t n, int32_t round, int32_t (*pairs)[2],
                          int32_t *bye, struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t rounds = tny_round_robin_rounds(n);

    if (rounds == 0) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round robin: %d players: expected 2..%d", (int)n,
                          TNY_ROUND_ROBIN_MAX);
        goto out;
    }
    if (round < 1 || round > rounds) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round robin: round %d: expected 1..%d for %d "
                          "players",
                          (int)round, (int)rounds, (int)n);
        goto out;
    }
    int32_t m = n % 2 == 0 ? n : n + 1;
    int32_t mod = m - 1;
    int32_t base = (round - 1) * (m / 2); /* < 1024 * 513, no overflow */
    int32_t p = base % mod + 1;
    int32_t out_t = 0;

    if (m == n) {
        if (round % 2 == 1) {
            pairs[out_t][0] = p;
            pairs[out_t][1] = m;
        } else {
            pairs[out_t][0] = m;
            pairs[out_t][1] = p;
        }
        out_t++;
        *bye = 0;
    } else {
        *bye = p; /* p meets the dummy m */
    }
    for (int32_t t = 2; t <= m / 2; t++) {
        int32_t first = (base + t - 1) % mod + 1;
        /* second == r + 1 - first (mod m - 1), in 1..m-1 */
        int32_t second = ((round + 1 - first) % mod + mod) % mod;
        if (second == 0)
            second = mod;
        pairs[out_t][0] = first;
        pairs[out_t][1] = second;
        out_t++;
    }
out:
    return rc;
}
