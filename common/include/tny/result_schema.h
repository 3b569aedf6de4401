/* result_schema.h - what a game's result is made of, declared once: its
 * keys (the event file's names, the wire's field names, the kind of
 * value), the accepted range of each number (from the format, with the
 * rule it comes from) and the caps scoring applies (NH-2, CT-4).
 *
 * Every adapter of a result reads it from here instead of spelling keys
 * and limits: the JSON adapter (common/io/event_json.c: the keys a game's
 * result may have, in the event file's order), the wire mapping
 * (proto/wire_result.c: field names in messages, the protocol's
 * structural bounds), the console's result argument
 * (hub/cli/console_args.c) and the table's flows (table-client/flow_*.c:
 * the range and cap a number is asked in).  tny_result_validate checks
 * the ranges declared here, so a table, the hub and every file agree.
 *
 * Pure data and lookups: no I/O, no allocation.  Not here: the rules
 * between keys (a draw has no winner, a default has no scores: the
 * adapters and tny_result_validate), scoring (score.h).
 */
#ifndef TNY_RESULT_SCHEMA_H
#define TNY_RESULT_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/format.h"

/* The largest magnitude of a result's VP, IP, BP, HQ difference or
 * two-player score that the protocol and the console carry, whatever the
 * format (a format's own range is narrower: tny_result_range). */
#define TNY_RESULT_ABS_MAX 1000000

/* Every key any game's result has (event-file.md, "result"). */
enum tny_result_key {
    TNY_RK_WINNER,           /* a player of the table (NH-1, GT-1, 2p) */
    TNY_RK_DRAW,             /* true: NH-1 draw, TX seed 001 s13, 2p */
    TNY_RK_HQ_DIFF,          /* NH-1 HQ difference */
    TNY_RK_ARMIES,           /* NH-11 army played, per player */
    TNY_RK_SCORES,           /* TX-1 game score; a two-player game's score */
    TNY_RK_CLOCK_MS,         /* TX-3 chess clock time used, per player */
    TNY_RK_DEFAULT_WIN,      /* TX-5 the player who wins by default */
    TNY_RK_TP,               /* TX-4 organiser's decision, per player */
    TNY_RK_PENALTY,          /* TX-7 penalty, per player */
    TNY_RK_VP,               /* AG-1, CT-4 victory points, per player */
    TNY_RK_IP,               /* AG-1 improvement points, per player */
    TNY_RK_BP,               /* AG-1 bonus points, per player */
    TNY_RK_MODIFIED,         /* GT-13 a modified win */
    TNY_RK_GAMES,            /* GT-9 each game's winner of a best of three */
    TNY_RK_INTENTIONAL_DRAW, /* 2p: intentional draw */
    TNY_RK_DOUBLE_LOSS,      /* 2p: double loss */
    TNY_RK_LOTS,             /* CM-4 lots drawn at the table */
    TNY_RK_COUNT             /* the shared keys above; a module's own
                              * keys follow (TNY_RK_EXT) */
};

/* The key id of slot `slot` of game's own keys (struct tny_result_ext,
 * game.h tny_game_ops.ext): ids past the shared keys, one block of
 * TNY_RESULT_EXT_MAX per game of tny/games.def and one more for a module
 * registered beyond the list (a test double, tests/CMakeLists.txt), so a
 * module lists its keys statically and every lookup by key works without
 * the game. */
#define TNY_RK_EXT(game, slot)                                                 \
    ((enum tny_result_key)(TNY_RK_COUNT + (int)(game)*TNY_RESULT_EXT_MAX +     \
                           (slot)))
/* Every key id, shared and the modules' (arrays indexed by key).  No
 * limit on the number of games: a set of one result's keys has a bit per
 * key of that game only (TNY_RK_BIT), not per key id. */
#define TNY_RK_ALL (TNY_RK_COUNT + (TNY_GAME_COUNT + 1) * TNY_RESULT_EXT_MAX)

/* Whether k is a module's own key (TNY_RK_EXT). */
#define TNY_RK_IS_EXT(k) ((int)(k) >= TNY_RK_COUNT && (int)(k) < TNY_RK_ALL)
/* Its slot in struct tny_result's ext[]. */
#define TNY_RK_EXT_SLOT(k) (((int)(k)-TNY_RK_COUNT) % TNY_RESULT_EXT_MAX)

/* Key k's bit in a set of one game's result keys (a uint64_t,
 * tny_game_ops.result_rules' present): a shared key's id, a module's own
 * key TNY_RK_COUNT + its slot, whatever the game, so the set holds the
 * shared keys and one game's own ones. */
#define TNY_RK_BIT(k)                                                          \
    ((int)(k) >= TNY_RK_COUNT ? TNY_RK_COUNT + TNY_RK_EXT_SLOT(k) : (int)(k))
_Static_assert(TNY_RK_COUNT + TNY_RESULT_EXT_MAX <= 64,
               "a set of a result's keys is a uint64_t (TNY_RK_BIT): more "
               "shared keys or slots of a module's own keys need a wider "
               "set in tny_game_ops.result_rules and event_json.c");

/* What a key's value is. */
enum tny_result_value {
    TNY_RV_PLAYER,     /* one player of the table, by id */
    TNY_RV_FLAG,       /* true or false */
    TNY_RV_NUMBER,     /* one integer */
    TNY_RV_PER_PLAYER, /* an integer per player ({"p1": 45, ...}) */
    TNY_RV_POINTS,     /* points per player ("12.5"), TNY_POINT_SCALE */
    TNY_RV_ARMY,       /* an army name per player */
    TNY_RV_PLAYERS,    /* a list of players (one per game) */
    TNY_RV_TEXTS,      /* a list of lines */
};

struct tny_result_key_info {
    const char *name; /* event file and console: "hq_diff" */
    const char *wire; /* GameResult field (proto/tourney/v1): "hq_diff" */
    enum tny_result_value value;
    int32_t max_items; /* PLAYERS, TEXTS: the longest list; else 0 */
};

/* The key's names and kind: a shared key's, or a module's own key's
 * (TNY_RK_EXT); NULL for an id no key has. */
const struct tny_result_key_info *tny_result_key_info(enum tny_result_key k);

/* The event file's name of k ("hq_diff"). */
const char *tny_result_key_name(enum tny_result_key k);

/* The key named name (event file's spelling): a shared key, else the
 * first module's own key of that name (registry order); false when none
 * is.  A caller that knows the game asks tny_result_game_key. */
bool tny_result_key_from_name(const char *name, enum tny_result_key *k);

/* The key named name among game's keys (tny_result_keys); false when
 * game's result has none of that name. */
bool tny_result_game_key(enum tny_game game, const char *name,
                         enum tny_result_key *k);

/* The keys game's result may have, in the event file's order (the order
 * of event-file.md and of the JSON adapter's key check), lots last:
 * *keys borrowed, static; returns their count. */
int32_t tny_result_keys(enum tny_game game, const enum tny_result_key **keys);

/* The keys game's result may have in the order the writers emit them
 * (the event file's JSON, the hub's result JSON): tny_result_keys's order
 * except that a Tantrix draw comes before its penalties, as event files
 * have always been written.  *keys borrowed, static; returns their count. */
int32_t tny_result_keys_written(enum tny_game game,
                                const enum tny_result_key **keys);

/* Whether game's result may have key k. */
bool tny_result_has_key(enum tny_game game, enum tny_result_key k);

/* The numeric fields of a result that a table's flow asks for and the
 * hub checks. */
enum tny_result_field {
    TNY_RF_SCORE,      /* TX-1 score; a two-player game's score */
    TNY_RF_VP,         /* AG-1 VP; CT-4 VP as played (the cap is scoring's) */
    TNY_RF_IP,         /* AG-1 improvement points */
    TNY_RF_BP,         /* AG-1 bonus points */
    TNY_RF_HQ_DIFF,    /* NH-1 HQ difference (NH-2 narrows it with Dancer) */
    TNY_RF_DECIDED_TP, /* TX-4 organiser decision, TNY_POINT_SCALE units */
    TNY_RF_CLOCK_MS,   /* TX-3 chess clock time used */
    TNY_RF_COUNT
};

/* The key a field is the value of (TNY_RF_SCORE: "scores"). */
enum tny_result_key tny_result_field_key(enum tny_result_field f);

/* One numeric key of one game: where its range comes from. */
struct tny_result_bound {
    int64_t value;   /* size 0: the bound itself */
    uint16_t offset; /* size 4 or 8: an int32_t/int64_t of struct
                        tny_format at this offset */
    uint8_t size;
};

struct tny_result_range_info {
    enum tny_game game;
    enum tny_result_field field;
    struct tny_result_bound lo, hi; /* what tny_result_validate accepts */
    struct tny_result_bound cap;    /* size 0 and value 0: no cap */
    const char *rule;               /* the rule the range comes from */
    const char *cap_rule;           /* the cap's rule, NULL without one */
    int64_t wire_lo, wire_hi;       /* structural bounds the protocol
                                       and the console accept for any
                                       format (the format's range is
                                       tny_result_validate's) */
};

/* A key a game module declares of its own (game.h tny_game_ops.ext,
 * issue 18): its value lives in struct tny_result's ext slot (the index
 * in the module's ext[]), travels on the wire in GameResult.values by
 * name (docs/protocol.md) and is read and written by every adapter
 * through this row: the event file, the hub's result JSON, the console's
 * key=value, the exported schema, the table's flow.  A new game's new
 * key is a row of its module, nothing else. */
struct tny_result_ext {
    /* name: event file, console, wire (ResultValue.key); wire: the same
     * name; value: TNY_RV_FLAG, TNY_RV_NUMBER or TNY_RV_PER_PLAYER (every
     * player of the table has one); max_items 0. */
    struct tny_result_key_info info;
    struct tny_result_bound lo, hi; /* NUMBER, PER_PLAYER: accepted range */
    const char *rule;               /* the rule the key and range come from */
    /* For people: the table's question, the slip's heading or line
     * ("Rounds played").  A msgid marked N_() (tny/i18n.h): the table's
     * flow and the printout translate it, so every label of a module in
     * the registry is in po/tourney and po/tourney-table
     * (tests/unit/module_labels.sh checks it). */
    const char *text;
};

/* Module key k's row, NULL for a shared key or an id no module has. */
const struct tny_result_ext *tny_result_ext_of(enum tny_result_key k);

/* Every numeric key of every game (static, *rows borrowed); returns the
 * count. */
int32_t tny_result_ranges(const struct tny_result_range_info **rows);

/* The row of field f in game's results, NULL when game has no such
 * field. */
const struct tny_result_range_info *
tny_result_range_info(enum tny_game game, enum tny_result_field f);

/* A bound's value in fmt. */
int64_t tny_result_bound_value(const struct tny_format *fmt,
                               const struct tny_result_bound *b);

/* The one accepted range *lo..*hi of field f in a result of fmt: what
 * tny_result_validate accepts and what the table's flows offer, so a
 * table, the hub and everything showing a stored result agree.  A field
 * fmt's game does not have: 0..0. */
void tny_result_range(const struct tny_format *fmt, enum tny_result_field f,
                      int64_t *lo, int64_t *hi);

/* The cap scoring applies to field f in fmt (NH-2: the HQ difference with
 * a capped army; CT-4: game points counted at most 10): true with *cap
 * when there is one (a format's 0 means none). */
bool tny_result_cap(const struct tny_format *fmt, enum tny_result_field f,
                    int64_t *cap);

#endif
