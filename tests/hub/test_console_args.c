/* test_console_args.c - the organiser's result argument (`tourney live
 * result enter ... RESULT`, hub/cli/console_args.c): an event-file result
 * object read into a wire result with the keys, games and bounds of
 * tny/result_schema.h (issue 12).  Each input gives exactly the error
 * message or the game it gave before the schema (the messages are the
 * console's contract: "result.KEY: why"), and the keys a game may have
 * are the schema's: lots (CM-4, the table's lots) is never the
 * organiser's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "console_internal.h"
#include "tny/result_schema.h"
#include "tny/wire.h"

static void test_messages_and_games(void **state)
{
    static const struct {
        const char *json, *game;
        int rc;
        enum tny_game want_game; /* when rc is TNY_OK */
        const char *msg;         /* when rc is not */
    } cases[] = {
        {"{\"winner\": \"p1\", \"hq_diff\": 7}", NULL, TNY_OK,
         TNY_GAME_NEUROSHIMA_HEX, ""},
        {"{\"winner\": \"p1\"}", NULL, TNY_OK, TNY_GAME_GOT_LCG2, ""},
        {"{\"winner\": 3, \"hq_diff\": 7}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.winner: expected a player id"},
        {"{\"draw\": 1}", "neuroshima-hex", TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.draw: expected true or false"},
        {"{\"draw\": true}", "neuroshima-hex", TNY_OK, TNY_GAME_NEUROSHIMA_HEX,
         ""},
        {"{\"winner\": \"p1\", \"hq_diff\": 7.5}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.hq_diff: expected a whole number"},
        {"{\"winner\": \"p1\", \"hq_diff\": 2000000}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.hq_diff: expected a whole number"},
        {"{\"scores\": {\"p1\": 3, \"p2\": 1}, \"draw\": \"x\"}", "tantrix",
         TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.draw: expected true or false"},
        {"{\"default_win\": 5}", "tantrix", TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.default_win: expected a player id"},
        {"{\"default_win\": \"p2\", \"draw\": true}", "tantrix", TNY_OK,
         TNY_GAME_TANTRIX, ""},
        {"{\"vp\": {\"p1\": 3}, \"ip\": {\"p1\": 1}, \"bp\": {\"p1\": 0}}",
         NULL, TNY_OK, TNY_GAME_AGRICOLA, ""},
        {"{\"vp\": {\"p1\": 3}, \"ip\": {\"p2\": 1}, \"bp\": {\"p1\": 0}}",
         NULL, TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX, "result.vp.p2: missing"},
        {"{\"winner\": \"p1\", \"modified\": 2}", "got-lcg2", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.modified: expected true or false"},
        {"{\"games\": [\"a\",\"b\",\"a\",\"b\"]}", "got-lcg2", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.games: expected 1..3 winner ids"},
        {"{\"games\": []}", "got-lcg2", TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.games: expected 1..3 winner ids"},
        {"{\"games\": [\"a\", 3]}", "got-lcg2", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.games[1]: expected a player id"},
        {"{\"games\": [\"a\",\"a\"], \"modified\": true}", "got-lcg2", TNY_OK,
         TNY_GAME_GOT_LCG2, ""},
        {"{}", "catan", TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.vp: missing"},
        {"{\"vp\": {\"p1\": 10}}", "catan", TNY_OK, TNY_GAME_CATAN, ""},
        {"{\"scores\": {\"p1\": 3, \"p2\": 1}, \"winner\": \"p1\"}", NULL,
         TNY_OK, TNY_GAME_TWO_PLAYER, ""},
        {"{\"intentional_draw\": \"y\"}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX,
         "result.intentional_draw: expected true or false"},
        {"{\"double_loss\": true}", "two-player", TNY_OK, TNY_GAME_TWO_PLAYER,
         ""},
        {"{\"draw\": true, \"double_loss\": 5}", "two-player", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX, "result.double_loss: expected true or false"},
        {"{\"winner\": \"p1\", \"lots\": []}", "got-lcg2", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX,
         "result.lots: not a key of a got-lcg2 result"},
        {"{\"lots\": []}", NULL, TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.lots: unknown key (a result object of event-file.md, e.g. "
         "{\"winner\": \"p1\", \"hq_diff\": 5} or {\"vp\": {\"p1\": 10, "
         "\"p2\": 8}}; --game names the game)"},
        {"{\"foo\": 1}", NULL, TNY_EINVAL, TNY_GAME_NEUROSHIMA_HEX,
         "result.foo: unknown key (a result object of event-file.md, e.g. "
         "{\"winner\": \"p1\", \"hq_diff\": 5} or {\"vp\": {\"p1\": 10, "
         "\"p2\": 8}}; --game names the game)"},
        /* a typo in a Neuroshima Hex result: that game's example, not
         * Catan's (the organiser's Polish NH event) */
        {"{\"winer\": \"p3\", \"hq_diff\": 4}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX,
         "result.winer: unknown key (a result object of event-file.md, e.g. "
         "{\"winner\": \"p1\", \"hq_diff\": 5})"},
        {"{\"scores\": {\"p1\": 3}, \"winnner\": \"p1\"}", NULL, TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX,
         "result.winnner: unknown key (a result object of event-file.md, e.g. "
         "{\"scores\": {\"p1\": 25, \"p2\": 18}})"},
        {"{\"hq_diff\": 1, \"vp\": {}}", "catan", TNY_EINVAL,
         TNY_GAME_NEUROSHIMA_HEX,
         "result.hq_diff: not a key of a catan result"},
        {"{\"tp\": {\"p1\": 12.5, \"p2\": 7.5}, \"penalty\": {\"p1\": 1}}",
         NULL, TNY_OK, TNY_GAME_TANTRIX, ""},
        {"{\"clock_ms\": {\"p1\": -5}}", NULL, TNY_OK, TNY_GAME_TANTRIX, ""},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct tny_wire_result r;
        struct tny_diag d = {{0}};
        int rc =
            hub_console_result_from_json(cases[i].json, cases[i].game, &r, &d);
        if (rc != cases[i].rc)
            fail_msg("%s: rc %d, expected %d (%s)", cases[i].json, rc,
                     cases[i].rc, d.msg);
        if (rc == TNY_OK && r.game != cases[i].want_game)
            fail_msg("%s: game %d, expected %d", cases[i].json, (int)r.game,
                     (int)cases[i].want_game);
        if (rc != TNY_OK && strcmp(d.msg, cases[i].msg) != 0)
            fail_msg("%s: \"%s\", expected \"%s\"", cases[i].json, d.msg,
                     cases[i].msg);
    }
}

/* Every key of every game's schema but lots is accepted for that game
 * with --game (a wrong value type is refused naming the key, not as an
 * unknown key), and refused for a game that does not have it. */
static void test_keys_are_the_schemas(void **state)
{
    static const char *const names[] = {"neuroshima-hex", "tantrix",
                                        "agricola",       "got-lcg2",
                                        "catan",          "two-player"};
    (void)state;
    for (int g = 0; g < 6; g++)
        for (int k = 0; k < TNY_RK_COUNT; k++) {
            const char *key = tny_result_key_name((enum tny_result_key)k);
            bool has =
                k != TNY_RK_LOTS &&
                tny_result_has_key((enum tny_game)g, (enum tny_result_key)k);
            char json[96], unknown[160];
            struct tny_wire_result r;
            struct tny_diag d = {{0}};
            snprintf(json, sizeof json, "{\"%s\": null}", key);
            snprintf(unknown, sizeof unknown,
                     "result.%s: not a key of a %s result", key, names[g]);
            if (hub_console_result_from_json(json, names[g], &r, &d) == TNY_OK)
                d.msg[0] = '\0';
            if (has && strcmp(d.msg, unknown) == 0)
                fail_msg("%s: \"%s\" refused as not a key", names[g], key);
            if (!has && strcmp(d.msg, unknown) != 0)
                fail_msg("%s: \"%s\": \"%s\", expected \"%s\"", names[g], key,
                         d.msg, unknown);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages_and_games),
        cmocka_unit_test(test_keys_are_the_schemas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
