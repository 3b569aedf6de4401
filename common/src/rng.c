/* rng.c - xoshiro256** with splitmix64 seeding; see tny/rng.h (CM-4). */
#include "tny/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void tny_rng_seed(struct tny_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

void tny_rng_derive(struct tny_rng *rng, uint64_t seed,
                    enum tny_rng_purpose purpose, uint32_t round)
{
    uint64_t x = seed;
    uint64_t mixed = splitmix64(&x);
    mixed ^= ((uint64_t)purpose << 32) | round;
    tny_rng_seed(rng, mixed);
}

uint64_t tny_rng_next(struct tny_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t tny_rng_below(struct tny_rng *rng, uint64_t bound)
{
    /* Reject the top partial bucket so every value is equally likely. */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
    uint64_t r;
    do {
        r = tny_rng_next(rng);
    } while (r >= limit);
    return r % bound;
}

void tny_rng_shuffle_i32(struct tny_rng *rng, int32_t *items, int32_t n)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tny_rng_below(rng, (uint64_t)i + 1);
        int32_t tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
    }
}
