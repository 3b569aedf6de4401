/* roundrobin.h - all-play-all pairings from the FIDE Berger tables (TX
 * option for small groups).
 *
 * Players are Berger numbers 1..n (the caller draws or assigns them).  Odd
 * n plays on the table for n + 1, whose highest number is the bye.  Pure
 * arithmetic: no state, no allocation.  Invariants: over rounds 1..R
 * (R = n - 1 for even n, n for odd n) every pair of players meets exactly
 * once and every player plays (or has the bye) once per round; odd n gives
 * every player exactly one bye.
 */
#ifndef TNY_ROUNDROBIN_H
#define TNY_ROUNDROBIN_H

#include <stdint.h>

#include "tny/error.h"

/* Largest field accepted. */
#define TNY_ROUND_ROBIN_MAX 1024

/* Rounds of one cycle for n players (n - 1 if n is even, n if odd);
 * 0 when n is outside 2..TNY_ROUND_ROBIN_MAX. */
int32_t tny_round_robin_rounds(int32_t n);

/* Pairings of round (1-based) of the Berger table for n players,
 * 2 <= n <= TNY_ROUND_ROBIN_MAX.  pairs[] (n / 2 entries, caller's storage)
 * receives the games in table order; pairs[t][0] is the first-named player
 * (white / left side in the FIDE table).  *bye receives the player who sits
 * out (odd n) or 0 (even n).
 * Errors: TNY_ERANGE (n or round out of range). */
TNY_MUST_USE int tny_round_robin_pairs(int32_t n, int32_t round,
                                       int32_t (*pairs)[2], int32_t *bye,
                                       struct tny_diag *diag);

#endif
