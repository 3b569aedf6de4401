/* module_key_double.h - a test double game with result keys of its own
 * (issue 18; module_key_double.c): the two-player result and "rounds" (a
 * number 1..20, T-1), "bonus" (a number per player 0..5, T-2), "overtime"
 * (a flag, T-3).  A test binary registers it by compiling
 * common/games/games.c with TNY_GAME_TEST_DOUBLE=tny_test_double_game: it
 * is then game TNY_GAME_COUNT, named "module-key-test".
 */
#ifndef TNY_TEST_MODULE_KEY_DOUBLE_H
#define TNY_TEST_MODULE_KEY_DOUBLE_H

#include "tny/game.h"

#define DOUBLE ((enum tny_game)TNY_GAME_COUNT)
#define K_ROUNDS TNY_RK_EXT(TNY_GAME_COUNT, 0)
#define K_BONUS TNY_RK_EXT(TNY_GAME_COUNT, 1)
#define K_OVERTIME TNY_RK_EXT(TNY_GAME_COUNT, 2)

extern const struct tny_game_ops tny_test_double_game;

#endif
