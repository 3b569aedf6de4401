/* games.c - the registry of game modules (game.h): one entry per line of
 * tny/games.def, in enum tny_game order; the lookups by value and by name.
 *
 * Invariant: all[g]->game == g (checked by test_games).
 */
#include <string.h>

#include "tny/game.h"

#ifdef TNY_GAME_TEST_DOUBLE
/* A test binary's own module (tests: compiled into that binary with this
 * file), registered after the list as game TNY_GAME_COUNT, the value
 * TNY_RK_EXT keeps a block of keys for. */
extern const struct tny_game_ops TNY_GAME_TEST_DOUBLE;
#endif

static const struct tny_game_ops *const all[] = {
#define TNY_GAME_DEF(e, module) [TNY_GAME_##e] = &tny_game_##module,
#include "tny/games.def"
#undef TNY_GAME_DEF
#ifdef TNY_GAME_TEST_DOUBLE
    [TNY_GAME_COUNT] = &TNY_GAME_TEST_DOUBLE,
#endif
};

#define N_ALL ((int32_t)(sizeof(all) / sizeof(all[0])))

const struct tny_game_ops *tny_game_ops_of(enum tny_game game)
{
    return (int)game >= 0 && (int)game < N_ALL ? all[game] : NULL;
}

const struct tny_game_ops *tny_game_ops_by_name(const char *name)
{
    for (int32_t i = 0; name && i < N_ALL; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

int32_t tny_game_registry(const struct tny_game_ops *const **out)
{
    *out = all;
    return N_ALL;
}

uint32_t tny_game_clocks(enum tny_game game)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);
    return ops ? ops->clocks : 0;
}

const struct tny_game_ops *tny_game_shape_of(enum tny_game game)
{
    return tny_game_ops_of(tny_game_flow(game));
}

enum tny_game tny_game_flow(enum tny_game game)
{
    const struct tny_game_ops *ops = tny_game_ops_of(game);
    return ops ? ops->flow : game;
}
