/* game.h - one game, one module: the registry of games (issue 18).
 *
 * Everything the engine knows about one game lives in one module,
 * common/games/<game>.c, which fills one struct tny_game_ops (a table of
 * data and function pointers, as sqlite's VFS or mosquitto's plugins):
 * its name, its result schema (the keys a result has and the range of
 * each number, result_schema.h's accessors read them from here), which
 * tiebreaks apply, scoring (score.c calls score_table and score_bye),
 * result validation (validate.c), simulated results (simulate.c), the
 * format's game-specific checks, options and derived fields
 * (format_check.c, format_options.c) and the lots it writes out
 * (lots.c).  The generic code calls through tny_game_ops_of(); a new game
 * is a new module and one line in the list of games (tny/games.def).
 * The adapters (common/io, proto, hub, table-client) name no game either:
 * they read what they need of one here, from the module of its result
 * shape (tny_game_shape_of): the rules between a result's keys, the keys
 * a result does not report, the written key order, the texts for people,
 * the GameResult member, the printed slip, the format file's block and
 * game-only keys, the clocks, the boards (docs/architecture.md, "Adding a
 * game"; engine_layers checks that no adapter names a game).
 *
 * Not here: the adapters' own per-message rows (the wire's checks, the
 * console's inference, the table's scripts table-client/flow_*.c), found
 * by the module's wire name.
 *
 * Invariants: tny_game_ops_of(g)->game == g for every registered g; a
 * module's keys list lots last; its ranges name its own game.  Pure data
 * and functions of their arguments: no I/O, no allocation, no state.
 */
#ifndef TNY_GAME_H
#define TNY_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/event.h"
#include "tny/format.h"
#include "tny/result_schema.h"
#include "tny/rng.h"
#include "tny/score.h"

/* Option groups (format_options.c) a game offers besides the generic
 * ones: bit flags of tny_game_ops.options. */
enum tny_game_option {
    TNY_GOPT_STRUCTURE = 1u << 0,  /* GT-5 "structure" */
    TNY_GOPT_BYE_POINTS = 1u << 1, /* "bye_points" (AG has none) */
    TNY_GOPT_AG = 1u << 2,         /* AG-14 draft and action times, ... */
    TNY_GOPT_PLACEMENT = 1u << 3,  /* placement points (AG, CT) */
    TNY_GOPT_TX = 1u << 4,         /* TX-2..TX-6 options */
    TNY_GOPT_TWO_PLAYER = 1u << 5, /* draws, intentional draws, double
                                    * losses (two-player outcomes) */
};

/* A range row's bounds (struct tny_result_bound): a constant, or an
 * int32_t/int64_t field of struct tny_format. */
#define TNY_BOUND_CONST(v)                                                     \
    {                                                                          \
        (v), 0, 0                                                              \
    }
#define TNY_BOUND_FMT(member)                                                  \
    {                                                                          \
        0, (uint16_t)offsetof(struct tny_format, member),                      \
            (uint8_t)sizeof(((struct tny_format *)0)->member)                  \
    }
#define TNY_BOUND_NONE TNY_BOUND_CONST(0)

/* Keys of the format file outside the game's own block that only some
 * games take or always write (format_json.c): bit flags of
 * tny_game_ops.format_keys.  A key a game does not take is an error
 * naming the first module (registry order) that takes it (for
 * points.modified_win: that always writes it). */
enum tny_game_format_key {
    TNY_GFK_STRUCTURE = 1u << 0,    /* "structure" always written (GT-5) */
    TNY_GFK_MODIFIED_WIN = 1u << 1, /* points.modified_win (GT-13, TX) */
    TNY_GFK_MODIFIED_WIN_SHOWN = 1u << 2, /* ... always written (GT) */
    TNY_GFK_OUTCOMES = 1u << 3,        /* points.intentional_draw, double_loss;
                                        * tiebreak_data.mov (two-player) */
    TNY_GFK_POINTS_IF_SET = 1u << 4,   /* points.win, draw, loss written only
                                        * where set (TX: TP by margins) */
    TNY_GFK_PLACEMENT_3 = 1u << 5,     /* points.placement_3 (CT-3) */
    TNY_GFK_BYE_HQ_DIFF = 1u << 6,     /* bye.hq_diff (NH-4) */
    TNY_GFK_BYE_GAME_POINTS = 1u << 7, /* bye.game_points, success_rate
                                        * (CT-1) */
    TNY_GFK_TABLE_DRAFT = 1u << 8,     /* table.draft_minutes, action_seconds
                                        * always written (AG-14) */
};

/* The clocks a table of the game keeps besides the round's (the hub's
 * assignment, the table's screen): bit flags of tny_game_ops.clocks. */
enum tny_game_clock {
    TNY_GCLOCK_CHESS = 1u << 0, /* TX-3: a chess clock, clock_limit_ms */
    TNY_GCLOCK_DRAFT = 1u << 1, /* AG-14: the draft and each action's
                                 * time, draft_minutes, action_seconds;
                                 * the draft starts the table's time */
    TNY_GCLOCK_TURN = 1u << 2,  /* CT-8: a turn limit, action_seconds */
};

/* The kind of a key of a game's own block of the format file. */
enum tny_format_key_kind {
    TNY_FK_INT,         /* an int32_t member: the file's lo..hi, times scale */
    TNY_FK_POINTS,      /* an int64_t member: points (tny_json_points) */
    TNY_FK_BOOL,        /* a bool member */
    TNY_FK_NAMES,       /* char [cap][TNY_NAME_MAX] with an int32_t count */
    TNY_FK_POINTS_LIST, /* int64_t [cap] with an int32_t count */
};

/* Flags of a block key. */
enum tny_format_key_flag {
    TNY_FKF_ARMIES = 1u << 0,  /* names: each one of the format's armies */
    TNY_FKF_IF_SET = 1u << 1,  /* written only when not 0 / false */
    TNY_FKF_OPTION = 1u << 2,  /* also an option (format_options.c)
                                * reported only when the file gave it */
    TNY_FKF_DEFAULT = 1u << 3, /* set to dflt before the block is read */
};

/* A key of a game's own block of the format file (docs/format-file.md),
 * read and written by format_json.c in this order. */
struct tny_format_key {
    const char *name;
    enum tny_format_key_kind kind;
    uint16_t offset;       /* the struct tny_format member */
    uint16_t count_offset; /* lists: their count's member */
    int32_t cap;           /* lists: at most */
    int32_t lo, hi, scale; /* TNY_FK_INT */
    int32_t dflt;          /* TNY_FKF_DEFAULT */
    uint32_t flags;        /* enum tny_format_key_flag */
};

#define TNY_FK_AT(member) (uint16_t) offsetof(struct tny_format, member)

/* A game's own block of the format file ("neuroshima_hex": {...}). */
struct tny_format_block {
    const char *name; /* NULL: the game has none */
    int32_t n_keys;
    const struct tny_format_key *keys;
};

/* A column of the printed result slip after Seat and Player (the
 * tourney CLI's print.c): its heading, a msgid (tny/i18n.h: context
 * NULL, or pgettext's), its least width, and the cell a player fills
 * in. */
struct tny_slip_col {
    const char *context;
    const char *head;
    int32_t mm;
    bool tick;     /* a box to tick, else an empty box to write in */
    bool per_game; /* one per game of a best of three (GT-9), head a
                    * format of the game's number ("Game %d") */
};

/* The printed result slip's fields (msgids; print.c translates them). */
struct tny_slip {
    int32_t n_cols;
    const struct tny_slip_col *cols;
    /* Under the table: a line of text (NULL: none), then a blank to
     * write on after it, then a box to tick (NULL: none), the box only
     * where the format has draws when tick_if_draws. */
    const char *note;
    bool note_blank;
    const char *tick;
    bool tick_if_draws;
};

/* Where a module writes the lines lots.c prints (lots_text's buffer). */
struct tny_text_sink {
    void (*add)(void *ctx, const char *fmt, ...) TNY_PRINTF(2, 3);
    void *ctx;
};

struct tny_game_ops {
    enum tny_game game;
    const char *name;  /* the format file's spelling: "neuroshima-hex" */
    const char *rules; /* rule-ID prefix in docs/formats.md: "NH" */
    /* The game whose result message (wire), JSON mapping and table flow
     * this game's results use: itself for a game with its own result
     * shape; a game whose result has another's keys names that one
     * (Netrunner: the two-player result). */
    enum tny_game flow;
    int32_t players_per_table; /* what every format of the game seats */
    int32_t min_seats;         /* fewest at a non-bye table (CT-1: 3) */
    bool agricola_seating;     /* TNY_PAIR_AGRICOLA seats this game */
    int32_t min_timer_minutes; /* a round's least timer but 0 (CT-8) */
    const char *timer_rule;    /* the rule of min_timer_minutes */
    bool armies;        /* NH-10, NH-11: players register armies, a result
                         * names the army played, the army rules apply */
    bool final_reranks; /* AG-12: until the final stage is complete its
                         * standings rank by the stage before's chain */
    uint32_t options;   /* enum tny_game_option bits */
    uint32_t tiebreaks; /* 1u << enum tny_tiebreak that apply */

    /* The result schema (result_schema.h): keys in the event file's
     * order, lots last; one range row per numeric field. */
    int32_t n_keys;
    const enum tny_result_key *keys;
    int32_t n_ranges;
    const struct tny_result_range_info *ranges;
    /* The module's own keys (result_schema.h, struct tny_result_ext):
     * ext[i] is key TNY_RK_EXT(game, i), listed in keys where the event
     * file has it; at most TNY_RESULT_EXT_MAX. */
    int32_t n_ext;
    const struct tny_result_ext *ext;

    /* score.c: fills rec[0..n_seats) (presence, seat, table, opponents
     * already set) from table t's validated result in round. */
    void (*score_table)(const struct tny_event *ev,
                        const struct tny_round *round,
                        const struct tny_table *t, bool elim,
                        struct tny_record *const *rec);
    /* score.c: a bye's points and data (rec->win, elim_won set; an
     * elimination round zeroes tp afterwards). */
    void (*score_bye)(const struct tny_format *fmt, struct tny_record *rec);

    /* validate.c: a 2-player or multi-player result's meaning beyond its
     * keys (CM-6); path names the result in messages.  Errors:
     * TNY_EINVAL. */
    int (*validate_result)(const struct tny_event *ev,
                           enum tny_stage_kind stage, const struct tny_table *t,
                           const char *path, struct tny_diag *diag);

    /* simulate.c: a valid random result for table (seats set, result
     * cleared, winner/default_winner and armies -1); w is the seat a
     * rating-weighted coin made the winner. */
    void (*simulate)(const struct tny_event *ev, int32_t round_index,
                     enum tny_stage_kind stage, struct tny_table *table,
                     struct tny_rng *rng, int32_t w);

    /* format_check.c: the game's own data present and consistent (NULL:
     * nothing to check).  Errors: TNY_EINVAL. */
    int (*format_check)(const struct tny_format *f, const char *path,
                        struct tny_diag *diag);
    /* The score range a parser checks as soon as it has read it (NULL:
     * none).  Errors: TNY_EINVAL. */
    int (*check_scores)(const struct tny_format *f, const char *path,
                        struct tny_diag *diag);
    /* Fields that mirror bye_points (tny_format_sync_derived; NULL:
     * none). */
    void (*sync_derived)(struct tny_format *f);

    /* lots.c: what round r0's lots decided when the generic text does not
     * say it (NULL: the generic text), and lines after the tables as
     * drawn (NULL: none). */
    const char *(*round_lots_what)(const struct tny_event *ev, int32_t r0,
                                   bool first_of_stage);
    void (*round_lots_extra)(const struct tny_event *ev, int32_t r0,
                             const struct tny_text_sink *out);

    /* What the adapters (common/io, proto, hub, table-client) read from
     * the game instead of naming it (issue 18): */

    /* The keys in the order the event file writes them (NULL: keys). */
    int32_t n_keys_written;
    const enum tny_result_key *keys_written;
    /* The event file's rules between a result's keys (event-file.md,
     * "result"), after every key was read by its kind; present has bit
     * TNY_RK_BIT(k) for each key k given (TNY__HAS_KEY).  May complete r
     * (two-player: the winner by the scores).  NULL: none.  Errors:
     * TNY_EINVAL. */
    int (*result_rules)(const struct tny_format *fmt, uint64_t present,
                        const char *path, struct tny_result *r,
                        struct tny_diag *diag);
    /* Whether a stored result's key k goes unreported to a table and the
     * organiser (the wire; the console's JSON for a draw): NH-1 a draw's
     * winner and HQ difference, TX-4/TX-5 a decision's or a default's
     * scores.  NULL: none. */
    bool (*result_omits)(const struct tny_result *r, enum tny_result_key k);
    /* The member of the protocol's GameResult that carries the result
     * (proto/game.proto: "nh"); a game whose flow is another's uses that
     * one's. */
    const char *wire;
    /* The game's own measure of seat s's result, for people ("win +5",
     * "10/3/2"); w is the winning seat, -1 none. */
    void (*score_text)(const struct tny_format *fmt, const struct tny_result *r,
                       int32_t s, int32_t w, char *buf, size_t size);
    /* The printed result slip (print.c). */
    struct tny_slip slip;
    /* The format file (format_json.c): the game's own block, which other
     * keys it takes or always writes (enum tny_game_format_key). */
    struct tny_format_block block;
    uint32_t format_keys;
    uint32_t clocks; /* enum tny_game_clock bits */
    bool boards;     /* CT-9: the event draws a board for each table */
    /* Seat scores of a finished table for the ratings, higher is better
     * (NULL: a 2-player table's winner 1, else each seat's score). */
    void (*seat_scores)(const struct tny_format *fmt,
                        const struct tny_result *r, int32_t n_seats,
                        int32_t *score);
    /* One line of a table's result for people, players by name (the
     * demo's "Anna wins, HQ +5"); name[s] is seat s's. */
    void (*result_line)(const struct tny_result *r, int32_t n_seats,
                        const char *const *name, char *buf, size_t size);
};

/* The module of game, NULL for a value no module has. */
const struct tny_game_ops *tny_game_ops_of(enum tny_game game);

/* The module named name (the format file's spelling), NULL when none. */
const struct tny_game_ops *tny_game_ops_by_name(const char *name);

/* Every registered module (static, *all borrowed), in enum order;
 * returns their count. */
int32_t tny_game_registry(const struct tny_game_ops *const **all);

/* The game whose result shape and flow game uses (ops->flow); game
 * itself for a value no module has. */
enum tny_game tny_game_flow(enum tny_game game);

/* The clocks a table of game keeps (tny_game_ops.clocks; 0 for a value
 * no module has). */
uint32_t tny_game_clocks(enum tny_game game);

/* The module of game's result shape (tny_game_ops_of(tny_game_flow(game))):
 * where the adapters read what a result of game looks like (its rules
 * between keys, wire message, format block, slip, table flow); NULL for a
 * value no module has. */
const struct tny_game_ops *tny_game_shape_of(enum tny_game game);

/* Modules' shared helpers (common/src/score.c, validate.c, simulate.c);
 * for the modules only. */

/* CM-6: path.key.who (who NULL: path.key) within field f's one range
 * (result_schema.h).  Errors: TNY_EINVAL. */
int tny__result_check_field(struct tny_diag *diag, const char *path,
                            const char *who, int64_t v,
                            const struct tny_format *fmt,
                            enum tny_result_field f);
/* NH-10: whether player p registered army (a beginner: the base box). */
bool tny__player_has_army(const struct tny_event *ev, int32_t p, int32_t army);
/* The player id of index p. */
const char *tny__player_id(const struct tny_event *ev, int32_t p);
/* A win of seat w (-1 a draw) scored with fmt's win/draw/loss points
 * (NH-3, GT-1); modified: GT-13's modified win. */
void tny__score_win_draw(const struct tny_format *fmt, int32_t w, bool modified,
                         bool elim, struct tny_record *const *rec);
/* AG-5, AG-6, AG-11 / CT-3..CT-5: placement points by the game's own VP,
 * weighted by the stage; catan: CT-4 capped game points, CT-3 3-player
 * table points and no AG-7 tie order. */
void tny__score_placement(const struct tny_event *ev,
                          const struct tny_round *round,
                          const struct tny_table *t, bool catan,
                          struct tny_record *const *rec);
/* dst = "path.<name of k>" (the adapters' paths, result_schema.h). */
void tny__result_key_path(char *dst, size_t size, const char *path,
                          enum tny_result_key k);
/* AG-1, CT-4: a result of every player's "vp" (result_rules). */
int tny__vp_result_rules(const struct tny_format *fmt, uint64_t present,
                         const char *path, struct tny_result *r,
                         struct tny_diag *diag);
/* AG-1, CT-4: "VP 10 8 7 5" (result_line). */
void tny__vp_result_line(const struct tny_result *r, int32_t n_seats,
                         const char *const *name, char *buf, size_t size);
/* Whether present (tny_game_ops.result_rules) has key k. */
#define TNY__HAS_KEY(present, k) (((present) >> TNY_RK_BIT(k)) & 1u)
/* Simulation: a uniform double in [0,1), an integer lo..hi, the chance
 * (Elo curve, 0.5 unrated) that player a beats player b. */
double tny__sim_uniform(struct tny_rng *rng);
int32_t tny__sim_between(struct tny_rng *rng, int32_t lo, int32_t hi);
double tny__sim_win_chance(const struct tny_event *ev, int32_t a, int32_t b);

/* The two-player module's operations, shared by the games that record
 * the same result (two_player.c). */
void tny__two_player_score(const struct tny_event *ev,
                           const struct tny_round *round,
                           const struct tny_table *t, bool elim,
                           struct tny_record *const *rec);
void tny__two_player_bye(const struct tny_format *fmt, struct tny_record *rec);
int tny__two_player_validate(const struct tny_event *ev,
                             enum tny_stage_kind stage,
                             const struct tny_table *t, const char *path,
                             struct tny_diag *diag);
void tny__two_player_simulate(const struct tny_event *ev, int32_t round_index,
                              enum tny_stage_kind stage,
                              struct tny_table *table, struct tny_rng *rng,
                              int32_t w);
int tny__two_player_check_scores(const struct tny_format *f, const char *path,
                                 struct tny_diag *diag);

/* The modules (common/games/<game>.c), one per line of tny/games.def. */
#define TNY_GAME_DEF(e, module)                                                \
    extern const struct tny_game_ops tny_game_##module;
#include "tny/games.def"
#undef TNY_GAME_DEF

/* NR-3: whether a and b are each player's points of a double-sided
 * Netrunner round: at most two games, each won 3-0 or tied 1-1
 * (netrunner.c). */
bool tny_netrunner_round_points_ok(int32_t a, int32_t b);

#endif
