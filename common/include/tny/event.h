/* event.h - the event model: players, rounds, tables, results (CM-1..CM-3).
 *
 * An event is its format (options applied), its seed, its players and the
 * rounds played so far, exactly what an event file holds (event-file.md).
 * Everything else (standings, the next round) is derived from it, so the
 * same event always gives the same answers (CM-4, CM-8).
 *
 * Players are referred to by index into players[] everywhere in the engine;
 * ids and names are only for people.  Strings are owned by the event (freed
 * by tny_event_release).  Rounds are in play order; round r (1-based) is
 * rounds[r-1].  A round with a table lacking a result is "in progress" and
 * only allowed as the last round.
 */
#ifndef TNY_EVENT_H
#define TNY_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/format.h"
#include "tny/result_schema.h"

/* CM-4: lots a table reports with a result, each a line of text. */
#define TNY_MAX_LOTS 4
#define TNY_LOT_MAX 96

/* GT-14: the longest deck list accepted (bytes). */
#define TNY_DECKLIST_MAX 16384

struct tny_player {
    char *id; /* unique, from the event file */
    char *name;
    char *club, *country, *external_id; /* optional, may be NULL */
    bool has_rating;
    double rating;

    /* NH-10: indices into format.armies; beginners play the base box. */
    int32_t n_armies;
    int32_t armies[TNY_MAX_ARMIES];
    bool beginner;
    bool hook; /* NH-10: declared the Iron Gang "Hook" swap token */
    /* NH-11: the armies declared for the knockout (indices), 0 = none */
    int32_t n_ko_armies;
    int32_t ko_armies[TNY_MAX_ARMIES];
    /* TX-10 */
    int32_t n_colours;
    char *colours[2];
    bool colour_blind;
    /* GT-14; the deck list (at most TNY_DECKLIST_MAX bytes, lines of text)
     * is for judges: the public feed and the tables never carry it */
    char *faction, *agenda, *decklist;

    /* Lifecycle, all as 1-based round numbers; 0 = never. */
    int32_t first_round;   /* CM-1 late entry: plays from this round (1) */
    int32_t dropped_after; /* CM-2: not paired after this round */
    bool no_show;          /* registered, never played ("after_round": 0) */
    int32_t rejoined_from; /* GT-11: paired again from this round */
    int32_t dq_after;      /* CM-3: disqualified after this round */
    int32_t fixed_table;   /* CM-5: always seated at this table; 0 none */
};

/* A table's result, in the table's seat order (seat i = players[i]).  Which
 * fields are used depends on the game (event-file.md's result table). */
struct tny_result {
    /* NH, GT 2-player matches, TX defaults: seat index of the winner or -1 */
    int32_t winner;
    bool draw;             /* NH Swiss draw; two-player draw; TX: seed 001 s13,
                            * the board could not be restored (10.0-10.0, no
                            * scores) */
    bool intentional_draw; /* two-player: agreed draw */
    bool double_loss;      /* two-player: both players lose */
    bool modified;         /* GT-1 modified win (GT-13) */
    int32_t hq_diff;       /* NH-1: d >= 0 */
    int32_t army[TNY_MAX_SEATS]; /* NH-11: army index per seat, -1 */

    /* TX scores, AG VP, CT VP per seat */
    bool has_score;
    int32_t score[TNY_MAX_SEATS];
    int32_t ip[TNY_MAX_SEATS], bp[TNY_MAX_SEATS]; /* AG-1 */
    bool has_clock;
    int32_t clock_ms[TNY_MAX_SEATS];   /* TX-3 */
    int32_t default_winner;            /* TX-5: seat index, -1 */
    bool decided;                      /* TX-4 organiser decision */
    int64_t decided_tp[TNY_MAX_SEATS]; /* TNY_POINT_SCALE units */
    int64_t penalty[TNY_MAX_SEATS];    /* TX-7 late-result deduction */

    /* GT-9 elimination match: seat index that won each game */
    int32_t n_games;
    int32_t games[3];

    /* CM-4: lots drawn at the table (NH-12, NH-14, TX-11, CT-9, AG-4, GT
     * first player), reported with the result: purpose and outcome. */
    int32_t n_lots;
    char lots[TNY_MAX_LOTS][TNY_LOT_MAX];

    /* The module's own keys (result_schema.h, struct tny_result_ext):
     * bit i of ext_has when key slot i is given, its value in ext[i][0]
     * (a number, a flag 0/1) or ext[i][seat] (per player). */
    uint32_t ext_has;
    int32_t ext[TNY_RESULT_EXT_MAX][TNY_MAX_SEATS];
};

struct tny_table {
    int32_t number;  /* CM-9, from 1; 0 for a bye */
    bool is_bye;     /* seats[0] has the bye */
    int32_t n_seats; /* 2..4; 1 for a bye */
    int32_t seats[TNY_MAX_SEATS];
    bool has_sides;             /* a format with sides: side[] is set */
    int8_t side[TNY_MAX_SEATS]; /* seat i plays format.sides[side[i]] */
    bool has_result;
    struct tny_result result;
};

struct tny_round {
    enum tny_stage_kind stage;
    int32_t n_tables;
    struct tny_table *tables;
    /* The hub's change generation of the round (issue 23): a new value
     * after every change of its tables, so the feed rebuilds and copies
     * only the rounds that changed; 0 = unknown (always rebuilt).  The
     * engine neither reads nor sets it (copies keep it). */
    uint64_t gen;
};

/* GT-15: the event's level, shown to players; none for other games. */
enum tny_event_level {
    TNY_LEVEL_NONE,
    TNY_LEVEL_CASUAL,
    TNY_LEVEL_FORMAL,
    TNY_LEVEL_PREMIER,
};

/* A player known to have missed a round without leaving the event (so an
 * unseated, active player is not reported as a gap in the data). */
struct tny_absence {
    int32_t player; /* index into players[] */
    int32_t round;  /* 1-based */
};

struct tny_event {
    struct tny_format format; /* preset with the event's options applied */
    char title[128];          /* optional display title ("" = format's) */
    /* The language of the players' screens (issue 21): a shipped code of
     * tny/language.h, "" = unset (each program's own fallback). */
    char language[16];
    enum tny_event_level level; /* GT-15 */
    uint64_t seed;              /* CM-4 */
    int32_t n_players;
    struct tny_player *players;
    /* A frozen copy's player strings, one block (tny_event_copy_frozen);
     * NULL in any other event, whose strings are each its own. */
    char *strings;
    int32_t n_rounds;
    struct tny_round *rounds;
    int32_t n_absences;
    struct tny_absence *absences;
    /* The elimination stage's seeds as another tool recorded them (player
     * indices, seed 1 first; issue 19): the bracket is checked against
     * these instead of the Swiss standings.  0 = seeded by the standings. */
    int32_t n_cut_seeds;
    int32_t *cut_seeds;
};

/* Initialise an empty event (caller's storage). */
void tny_event_init(struct tny_event *ev);
/* Free every string and array the event owns; ev may then be re-initialised. */
void tny_event_release(struct tny_event *ev);

/* A deep copy of src into dst (dst's storage is overwritten, not
 * released): nothing is shared, so the copy may go to another thread.
 * Errors: TNY_ENOMEM (dst left empty). */
TNY_MUST_USE int tny_event_copy(const struct tny_event *src,
                                struct tny_event *dst);
/* The same copy, read-only: every player string in one block (freed by
 * tny_event_release at once), so a snapshot of 2,000 players is two
 * allocations, not 6,000.  Nothing may change or free a player string of
 * it (no tny_event_add_player, no renaming). */
TNY_MUST_USE int tny_event_copy_frozen(const struct tny_event *src,
                                       struct tny_event *dst);

/* Frees the strings a player owns (not a frozen copy's); *p may then be
 * cleared and reused. */
void tny_player_release(struct tny_player *p);

/* Removes player ix (a withdrawal before the player was seated: no table
 * may seat them); later players move down one index in every table,
 * absence and cut seed.  Nothing for an index out of range or a frozen
 * copy. */
void tny_event_remove_player(struct tny_event *ev, int32_t ix);

/* Index of the player with this id, or -1. */
int32_t tny_event_player_index(const struct tny_event *ev, const char *id);

/* True when player p may be paired in round r (1-based): entered, not
 * dropped/disqualified before it, or rejoined (CM-1, CM-2, CM-3, GT-11). */
bool tny_player_active_in(const struct tny_player *p, int32_t round);

/* Number of rounds whose every table has a result. */
int32_t tny_event_completed_rounds(const struct tny_event *ev);

/* Completed rounds (not elimination) in which an active player
 * (tny_player_active_in) sat at no table, had no bye and is not listed in
 * absences: gaps in the data that the organiser should explain.  Writes one
 * line per gap into buf
 * ("event.rounds[1]: \"p7\" is not seated ..."), at most cap bytes,
 * always NUL-terminated when cap > 0; returns the number of gaps. */
int32_t tny_event_unexplained_absences(const struct tny_event *ev, char *buf,
                                       size_t cap);

/* Seat index of player p at table t, or -1. */
int32_t tny_table_seat_of(const struct tny_table *t, int32_t player);

/* Appends a player with copies of id and name (other fields zero, plays
 * from round 1); *index (may be NULL) receives its index.  The caller keeps
 * ids unique (the event-file parser checks them).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int tny_event_add_player(struct tny_event *ev, const char *id,
                                      const char *name, int32_t *index);

/* Appends army `name` (one of ev->format.armies, NH-10) to the armies of
 * player p (an index into players[]).  With tny_event_add_player and the
 * format set directly (ev->format = ..., a preset with options applied,
 * format_options.h) this builds an event without an event file.
 * Errors: TNY_ENOTFOUND (not an army of the format), TNY_ERANGE (the
 * player already has TNY_MAX_ARMIES). */
TNY_MUST_USE int tny_event_add_army(struct tny_event *ev, int32_t p,
                                    const char *name);

/* The planned size of stage s of ev: *rounds (0 = until done: elimination,
 * or a round robin's own count) and *cut, with the GT-5 structure resolved
 * from the number of registered players when the format uses one.
 * Errors: those of tny_gt_structure_lookup (an attendance outside the
 * table). */
TNY_MUST_USE int tny_stage_size(const struct tny_event *ev,
                                const struct tny_stage *s, int32_t *rounds,
                                int32_t *cut, struct tny_diag *diag);

/* NH-11: how many armies a knockout qualifier declares (seed 000 5.3: 3
 * for a top 4, 4 for a top 8; in general log2(cut) + 1), or 0 when the
 * format has no Neuroshima knockout or its size cannot be resolved. */
int32_t tny_nh_knockout_army_count(const struct tny_event *ev);

/* Checks everything an event file can get wrong beyond JSON types: players
 * referenced exist and sit once per round, table sizes fit the stage, the
 * in-progress round is last, results are complete and in range for the
 * game (CM-6), NH-11 army use, GT-9 Bo3 shape, stage order.  On failure
 * returns TNY_EINVAL and diag says "event.rounds[2].tables[5].result...: why"
 * (0-based indices, as in the file).  Elimination rounds follow the
 * format's bracket (tny_event_bracket_check). */
TNY_MUST_USE int tny_event_validate(const struct tny_event *ev,
                                    struct tny_diag *diag);

/* Issue 19: the elimination rounds of ev against the format's bracket, as
 * pairing would build it: the first round seeds 1 v K, 2 v K-1, ... of the
 * cut (the Swiss standings with GT-6 replacements, or event.cut_seeds),
 * later rounds the winners as the bracket folds them (GT-7, games in order)
 * or re-seeds them (NH-7), a player who left giving a bye (GT-10).  The
 * first round of an elimination from the start (GT-8, by lot) is taken as
 * played.  Errors: TNY_EINVAL naming the round, the table and the players
 * ("event.rounds[6].tables[0] (elimination round 1): \"p1\" v \"p2\" does
 * not follow the bracket of the top 8: ..."), TNY_ENOMEM. */
TNY_MUST_USE int tny_event_bracket_check(const struct tny_event *ev,
                                         struct tny_diag *diag);

/* As tny_event_bracket_check, but the tables of each elimination round are
 * first put in the bracket's game order (an import whose source lists them
 * otherwise). */
TNY_MUST_USE int tny_event_bracket_reorder(struct tny_event *ev,
                                           struct tny_diag *diag);

/* Validates one table's result against the format (CM-6); path is the
 * prefix to name in diag, e.g. "event.rounds[2].tables[5].result".
 * stage is the round's stage (draws are Swiss-only, Bo3 in elimination).
 * Used by the event-file check and by the hub for submissions. */
TNY_MUST_USE int tny_result_validate(const struct tny_event *ev,
                                     enum tny_stage_kind stage,
                                     const struct tny_table *table,
                                     const char *path, struct tny_diag *diag);

/* CM-6: true when a and b, results of a table of n_seats seats, say the
 * same thing as a table reports it: every field but the organiser's TX-7
 * penalties (merged in by the hub, never sent by a table). */
bool tny_result_same(const struct tny_result *a, const struct tny_result *b,
                     int32_t n_seats);

#endif
