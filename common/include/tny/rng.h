/* rng.h - the event's seeded pseudo-random generator (CM-4).
 *
 * xoshiro256** seeded through splitmix64.  Every lot in the engine draws from
 * a generator derived from (event seed, purpose, round) with tny_rng_derive(),
 * so one draw never shifts another and every pairing is reproducible byte for
 * byte from the event file.  Pure: no global state, no clock, no I/O.
 */
#ifndef TNY_RNG_H
#define TNY_RNG_H

#include <stdint.h>

struct tny_rng {
    uint64_t s[4];
};

/* Purposes of draws, mixed into the derived stream (never renumber). */
enum tny_rng_purpose {
    TNY_LOT_PAIRING = 1,  /* round-1 pairings, order inside score groups */
    TNY_LOT_BYE = 2,      /* random bye holder (round 1) */
    TNY_LOT_SEATS = 3,    /* seat order / starting player at a table */
    TNY_LOT_TIEBREAK = 4, /* final tiebreak "lot" in standings */
    TNY_LOT_BRACKET = 5,  /* elimination numbering (GT-8) */
    TNY_LOT_ARMY = 6,     /* NH-12 equal first choices, NH-14 first player */
    TNY_LOT_SEEDING = 7,  /* AG-3 mild seeding */
    TNY_LOT_BOARD = 8,    /* CT-9 random board per table */
};

/* Seed from a 64-bit value (any value, 0 included, is fine). */
void tny_rng_seed(struct tny_rng *rng, uint64_t seed);

/* Independent stream for (seed, purpose, round); round is 1-based or 0. */
void tny_rng_derive(struct tny_rng *rng, uint64_t seed,
                    enum tny_rng_purpose purpose, uint32_t round);

uint64_t tny_rng_next(struct tny_rng *rng);

/* Uniform integer in [0, bound); bound > 0.  Unbiased (rejection). */
uint64_t tny_rng_below(struct tny_rng *rng, uint64_t bound);

/* Fisher-Yates shuffle of n 32-bit integers. */
void tny_rng_shuffle_i32(struct tny_rng *rng, int32_t *items, int32_t n);

#endif
