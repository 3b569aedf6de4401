/* schema.c - `tourney result-schema [--js]`: every game's result schema
 * (tny/result_schema.h) as one JSON document, so the table page
 * (deploy/overlays/play.html) builds its result form from the engine's
 * declaration instead of a copy: each game's keys in the event file's
 * order with their wire name, kind and list length, the protocol's
 * structural range and rule of each numeric key (a module's own key:
 * "module", its range, rule and text), and each shipped
 * preset's own range and cap of those keys (and, for a two-player
 * preset, which of draw, intentional draw and double loss it allows).  --js
 * wraps it as `window.TOURNEY_RESULT_SCHEMA = ...;` (what
 * deploy/overlays/install.sh writes to vendor/result-schema.js).
 *
 * Exit status: 0 done; 1 out of memory or stdout unwritable; 2 usage.
 */
#include "schema.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_out.h"
#include "tny/error.h"
#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/presets.h"
#include "tny/result_schema.h"

/* What each enum tny_result_value is called in the document. */
static const char *const kind_names[] = {
    [TNY_RV_PLAYER] = "player",   [TNY_RV_FLAG] = "flag",
    [TNY_RV_NUMBER] = "number",   [TNY_RV_PER_PLAYER] = "per_player",
    [TNY_RV_POINTS] = "points",   [TNY_RV_ARMY] = "army",
    [TNY_RV_PLAYERS] = "players", [TNY_RV_TEXTS] = "texts",
};

/* The range row of key k in game, NULL when k is not numeric there. */
static const struct tny_result_range_info *row_of(enum tny_game game,
                                                  enum tny_result_key k)
{
    for (int f = 0; f < TNY_RF_COUNT; f++)
        if (tny_result_field_key((enum tny_result_field)f) == k)
            return tny_result_range_info(game, (enum tny_result_field)f);
    return NULL;
}

/* "neuroshima-hex" -> "GAME_NEUROSHIMA_HEX": the Game enum of
 * proto/common.proto, whose names follow the engine's. */
static void wire_game(enum tny_game g, char *out, size_t size)
{
    const char *name = tny_game_name(g);
    size_t n = (size_t)snprintf(out, size, "GAME_");
    for (const char *p = name; *p && n + 1 < size; p++)
        out[n++] = *p == '-'                  ? '_'
                   : (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A')
                                              : *p;
    out[n] = '\0';
}

static json_t *game_doc(enum tny_game g)
{
    const enum tny_result_key *keys = NULL;
    int32_t n = tny_result_keys(g, &keys);
    char wire[64];
    json_t *arr = json_array();
    wire_game(tny_game_flow(g), wire, sizeof(wire)); /* its message's */
    for (int32_t i = 0; arr && i < n; i++) {
        const struct tny_result_key_info *ki = tny_result_key_info(keys[i]);
        const struct tny_result_range_info *row = row_of(g, keys[i]);
        const struct tny_result_ext *x = tny_result_ext_of(keys[i]);
        json_t *k = json_pack("{s:s, s:s, s:s, s:i}", "name", ki->name, "wire",
                              ki->wire, "kind", kind_names[ki->value],
                              "max_items", (int)ki->max_items);
        /* A module's own key travels in GameResult.values by name; its
         * range is the module's, the same for every format of the game
         * (a bound read from the format: the protocol's). */
        if (k && x &&
            json_object_set_new(
                k, "module",
                json_pack(
                    "{s:I, s:I, s:s?, s:s?}", "lo",
                    (json_int_t)(x->lo.size ? -TNY_RESULT_ABS_MAX
                                            : x->lo.value),
                    "hi",
                    (json_int_t)(x->hi.size ? TNY_RESULT_ABS_MAX : x->hi.value),
                    "rule", x->rule, "text", x->text)) < 0) {
            json_decref(k);
            k = NULL;
        }
        if (k && row &&
            json_object_set_new(k, "wire_range",
                                json_pack("{s:I, s:I, s:s, s:s?}", "lo",
                                          (json_int_t)row->wire_lo, "hi",
                                          (json_int_t)row->wire_hi, "rule",
                                          row->rule, "cap_rule",
                                          row->cap_rule)) < 0) {
            json_decref(k);
            k = NULL;
        }
        if (!k || json_array_append_new(arr, k) < 0) {
            json_decref(arr);
            return NULL;
        }
    }
    if (!arr)
        return NULL;
    if (tny_game_flow(g) != g)
        return json_pack("{s:s, s:s, s:s, s:o}", "game", tny_game_name(g),
                         "shape", tny_game_name(tny_game_flow(g)), "wire_game",
                         wire, "keys", arr);
    return json_pack("{s:s, s:s, s:o}", "game", tny_game_name(g), "wire_game",
                     wire, "keys", arr);
}

/* A preset's own ranges: {"hq_diff": {"lo": 0, "hi": 20, "cap": 20}}. */
static json_t *format_doc(const struct tny_format *fmt)
{
    json_t *ranges = json_object();
    for (int f = 0; ranges && f < TNY_RF_COUNT; f++) {
        if (!tny_result_range_info(fmt->game, (enum tny_result_field)f))
            continue;
        int64_t lo, hi, cap;
        tny_result_range(fmt, (enum tny_result_field)f, &lo, &hi);
        json_t *r =
            json_pack("{s:I, s:I}", "lo", (json_int_t)lo, "hi", (json_int_t)hi);
        if (r && tny_result_cap(fmt, (enum tny_result_field)f, &cap) &&
            cap > 0 && json_object_set_new(r, "cap", json_integer(cap)) < 0) {
            json_decref(r);
            r = NULL;
        }
        const char *key =
            tny_result_key_name(tny_result_field_key((enum tny_result_field)f));
        if (!r || json_object_set_new(ranges, key, r) < 0) {
            json_decref(ranges);
            return NULL;
        }
    }
    if (!ranges)
        return NULL;
    json_t *doc = json_pack("{s:s, s:s, s:i, s:o}", "format", fmt->name, "game",
                            tny_game_name(fmt->game), "players_per_table",
                            (int)fmt->players_per_table, "ranges", ranges);
    /* A two-player format says which outcome keys its results may have
     * besides a win (the other games' outcomes are their rules'). */
    if (doc && (tny_game_ops_of(fmt->game)->format_keys & TNY_GFK_OUTCOMES) &&
        json_object_set_new(doc, "outcomes",
                            json_pack("{s:b, s:b, s:b}", "draw", fmt->draws,
                                      "intentional_draw",
                                      fmt->intentional_draws, "double_loss",
                                      fmt->double_losses)) < 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

static json_t *schema_doc(void)
{
    json_t *gs = json_array(), *fs = json_array();
    struct tny_format *fmt = malloc(sizeof(*fmt));
    json_t *doc = NULL;
    const struct tny_game_ops *const *all;
    const int32_t n = tny_game_registry(&all);
    if (!gs || !fs || !fmt)
        goto out;
    /* Every result shape the engine has: each module with its own (a game
     * with another's result is that one's), in registry order, and each
     * module with another's message and keys of its own ("shape": the
     * message's game). */
    for (int32_t i = 0; i < n; i++)
        if ((all[i]->flow == all[i]->game || all[i]->n_ext > 0) &&
            json_array_append_new(gs, game_doc(all[i]->game)) < 0)
            goto out;
    for (const struct tny_preset *p = tny_presets; p->name; p++) {
        struct tny_diag diag = {{0}};
        if (tny_format_preset(p->name, fmt, &diag) < 0) {
            fprintf(stderr, "tourney: result-schema: preset %s: %s\n", p->name,
                    diag.msg);
            goto out;
        }
        if (json_array_append_new(fs, format_doc(fmt)) < 0)
            goto out;
    }
    doc =
        json_pack("{s:i, s:O, s:O}", "version", 1, "games", gs, "formats", fs);
out:
    json_decref(gs);
    json_decref(fs);
    free(fmt);
    return doc;
}

int tny_cli_result_schema(int argc, char **argv)
{
    bool js = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--js") == 0) {
            js = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            js = false;
        } else {
            fprintf(stderr,
                    "tourney: result-schema: unknown argument \"%s\" "
                    "(expected --json or --js)\n",
                    argv[i]);
            return 2;
        }
    }
    json_t *doc = schema_doc();
    char *text = doc ? json_dumps(doc, JSON_INDENT(1)) : NULL;
    json_decref(doc);
    if (!text) {
        fprintf(stderr, "tourney: result-schema: %s\n",
                tny_strerror(TNY_ENOMEM));
        return 1;
    }
    int w = js ? printf("/* generated by `tourney result-schema --js` from "
                        "tny/result_schema.h: do not edit */\n"
                        "window.TOURNEY_RESULT_SCHEMA = %s;\n",
                        text)
               : printf("%s\n", text);
    free(text);
    if ((w < 0 || fflush(stdout) == EOF) &&
        !tny_cli_reader_gone(stdout, errno)) {
        fprintf(stderr, "tourney: cannot write output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
