/* procedure.h - decisions taken at a game table: army choice and first
 * player (NH-12, NH-14), time-out procedures and round lengths (NH-13,
 * GT-12, GT-13, CT-8), Tantrix colours and start (TX-10, TX-11), Catan
 * starting player (CT-9).
 *
 * Both the table client and the hub apply these rules, so they live here as
 * pure functions: the facts come in (choices, preferences, drawn numbers,
 * the state of the game at time-out), a decision comes out, and every random
 * decision draws from a struct tny_rng the caller derived (CM-4, purpose
 * TNY_LOT_ARMY or TNY_LOT_SEATS).  Step texts are constant data for table
 * wizards; the format's own timeout_procedure/notes texts stay in format
 * data.
 *
 * Not here: clocks and countdowns (clock.h), which armies a player still has
 * (NH-11 is the validator's), scoring a modified win (GT-1, score.c).
 * Players are indices 0 and 1 (a table's seats 0..n-1 for CT-9).
 */
#ifndef TNY_PROCEDURE_H
#define TNY_PROCEDURE_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/format.h"
#include "tny/rng.h"

/* ---- round lengths (CM-7, NH-13, GT-12, CT-8) ------------------------- */

/* Minutes of a round of stage st (format data): timer_minutes, except the
 * last round (final) of an elimination stage, which uses
 * final_timer_minutes (NH-13: none; GT-12: 120).  0 means no time limit.
 * Errors: TNY_EINVAL if the stored length is negative. */
TNY_MUST_USE int tny_stage_round_minutes(const struct tny_stage *st,
                                         bool final_round, int32_t *minutes,
                                         struct tny_diag *diag);

/* ---- Neuroshima Hex! (NH-12, NH-13, NH-14) ----------------------------- */

#define TNY_NH_DANCER "Dancer"
#define TNY_NH_VEGAS "Vegas"

/* NH-12 army choice.  first_x/second_x are army names (borrowed); a second
 * choice may be NULL (a beginner with one army left).  When fmt is not NULL
 * every name must be in fmt->armies.
 * Different first choices: each plays their first (*lot_loser = -1).  Same
 * first choice: a lot (one rng draw) picks the player who plays their
 * second choice (*lot_loser = that player).  [decision] If exactly one of
 * them has a second choice, that player plays it without a lot
 * (*lot_loser = that player, no draw).
 * *army_a / *army_b point at the chosen input strings.
 * Errors: TNY_EINVAL if a first choice is NULL or empty, a player's two
 * choices are the same army, or both first choices are equal and neither
 * has a second choice; TNY_ENOTFOUND for an army not in fmt->armies. */
TNY_MUST_USE int tny_nh_army_choice(const struct tny_format *fmt,
                                    const char *first_a, const char *second_a,
                                    const char *first_b, const char *second_b,
                                    struct tny_rng *rng, const char **army_a,
                                    const char **army_b, int32_t *lot_loser,
                                    struct tny_diag *diag);

/* Where a round stands for the NH-12 beginner exception. */
enum tny_nh_round {
    TNY_NH_ROUND_SWISS,      /* a Swiss round but not the last */
    TNY_NH_ROUND_SWISS_LAST, /* the last Swiss round */
    TNY_NH_ROUND_KNOCKOUT,   /* any knockout round */
};

/* NH-12 beginner exception: may a beginner field an army they already used?
 * Only a beginner, only in the last Swiss round (or a knockout round when
 * knockout_allowed: formats.md says yes, seed 000 5.5(2) names only the last
 * Swiss round), and only when otherwise both players would field the same
 * army: every army the beginner still has (available[0..n_available-1],
 * n_available >= 1) is opponent_army.  False for any other input (NULL
 * names included); never fails. */
bool tny_nh_beginner_may_repeat(bool beginner, enum tny_nh_round round,
                                bool knockout_allowed, int32_t n_available,
                                const char *const *available,
                                const char *opponent_army);

/* NH-14 who deploys the HQ first. */
struct tny_nh_first_player {
    int32_t decider; /* chosen by lot: decides who deploys first; -1 when
                        a Dancer player is fixed as first */
    int32_t first;   /* the Dancer player, who sets up first; -1 when the
                        decider chooses */
    bool vegas_note; /* Vegas plays: show its own setup rule as a note */
};

/* NH-14: with a Dancer army in the match its player sets up first (no lot
 * drawn); otherwise one rng draw picks the deciding player.  Vegas adds the
 * note flag in either case.  The player who deploys the HQ first also takes
 * the first turn (seed 000 5.5(5)).  When fmt is not NULL both names must be
 * in fmt->armies.
 * Errors: TNY_EINVAL for a NULL/empty name or both armies the same (NH-12
 * never lets both field one army); TNY_ENOTFOUND for an unknown army. */
TNY_MUST_USE int tny_nh_first_player(const struct tny_format *fmt,
                                     const char *army_a, const char *army_b,
                                     struct tny_rng *rng,
                                     struct tny_nh_first_player *out,
                                     struct tny_diag *diag);

/* What a table does when the round time is up (NH-13). */
enum tny_nh_timeout {
    TNY_NH_TIMEOUT_NONE,        /* no time limit (the final) */
    TNY_NH_TIMEOUT_TERMINATION, /* active player finishes the turn, then the
                                   Final Battle decides the match */
    TNY_NH_TIMEOUT_PLAY_ON,     /* knockout without termination: play on */
};

/* NH-13: Swiss rounds end in termination; the final has no time limit;
 * [decision] other knockout rounds (55 min, the seed names no procedure)
 * use termination when termination_in_knockout (default true), else play
 * on.  Never fails. */
enum tny_nh_timeout tny_nh_timeout_rule(enum tny_stage_kind kind,
                                        bool final_round,
                                        bool termination_in_knockout);

/* Step texts of the NH-13 termination for a table wizard (static storage,
 * *n receives the count). */
const char *const *tny_nh_termination_steps(int32_t *n);

/* ---- Tantrix (TX-10, TX-11) -------------------------------------------- */

enum tny_tx_colour {
    TNY_TX_NONE = 0, /* no preference / free choice */
    TNY_TX_RED,
    TNY_TX_YELLOW,
    TNY_TX_BLUE,
    TNY_TX_GREEN, /* normal set only */
    TNY_TX_WHITE, /* colour-blind set only: replaces green */
};

/* Lowercase colour name ("red", ..., "none"); never NULL. */
const char *tny_tx_colour_name(enum tny_tx_colour c);

/* A player's registration: preferences (second only with a first) and the
 * colour-blind flag.  A colour-blind player's GREEN is read as WHITE. */
struct tny_tx_colour_pref {
    enum tny_tx_colour first;
    enum tny_tx_colour second;
    bool colour_blind;
};

enum tny_tx_colour_outcome {
    TNY_TX_COLOURS_SET,                /* colour[] is what each plays */
    TNY_TX_COLOURS_AGREE_ELSE,         /* same first preference: the players may
                                          agree; if they do not, colour[] */
    TNY_TX_COLOURS_AGREE_OR_ORGANISER, /* players agree on colours, else the
                                          organiser decides */
    TNY_TX_COLOURS_CHOOSER, /* player `chooser` chooses both colours */
};

/* The decision.  colour[i] == TNY_TX_NONE means player i freely picks any
 * colour of the set the other player does not use. */
struct tny_tx_colours {
    enum tny_tx_colour_outcome outcome;
    enum tny_tx_colour colour[2];
    bool colour_blind_set; /* play with the colour-blind set */
    int32_t chooser;       /* TNY_TX_COLOURS_CHOOSER only, else -1 */
};

/* TX-10 (seed 001 rules 2 and 11):
 * - one player colour blind: colour-blind set, the other player chooses
 *   both colours (CHOOSER);
 * - both colour blind: colour-blind set, then the rules below;
 * - different first preferences: each their first (SET);
 * - only one player has a preference: they play it, the other picks freely
 *   (SET, colour NONE): a player without one cannot block the other;
 * - same first preference: AGREE_ELSE with both second preferences; a
 *   player without a second picks freely [decision]; equal second
 *   preferences, or neither has one: AGREE_OR_ORGANISER;
 * - no preferences at all: AGREE_OR_ORGANISER.
 * Errors: TNY_EINVAL for a colour outside the enum, a second preference
 * without a first, a player's first equal to their second, WHITE from a
 * player who is not colour blind. */
TNY_MUST_USE int tny_tx_colours(const struct tny_tx_colour_pref *a,
                                const struct tny_tx_colour_pref *b,
                                struct tny_tx_colours *out,
                                struct tny_diag *diag);

/* Number of Tantrix tiles (numbered 1..56). */
#define TNY_TX_TILES 56

/* TX-11: each player draws a tile; the higher number starts (*starter 0 or
 * 1); equal numbers (not possible with one set, allowed for manual entry)
 * give *starter = -1: draw again.  The player who does not start starts
 * the starter's clock.  Errors: TNY_ERANGE for a number outside
 * 1..TNY_TX_TILES. */
TNY_MUST_USE int tny_tx_starter(int32_t tile_a, int32_t tile_b,
                                int32_t *starter, struct tny_diag *diag);

/* ---- A Game of Thrones 2nd ed. (GT-13) --------------------------------- */

/* One player's state after the taxation phase of the last round. */
struct tny_gt_timeout_facts {
    int32_t power_needed;    /* power still needed to win (15 - power) */
    int32_t deck_cards;      /* cards left in the draw deck */
    int32_t dead_characters; /* characters in the dead pile */
};

/* The wizard's steps; the criteria 1..5 in the seed's order. */
enum tny_gt_timeout_step {
    TNY_GT_STEP_FINISH_ROUND = 0, /* play to the taxation phase */
    TNY_GT_STEP_POWER = 1,        /* fewer power needed to win */
    TNY_GT_STEP_DECK = 2,         /* more cards in the draw deck */
    TNY_GT_STEP_DOMINANCE = 3,    /* won dominance in the last round */
    TNY_GT_STEP_DEAD_PILE = 4,    /* fewer characters in the dead pile */
    TNY_GT_STEP_FIRST_PLAYER = 5, /* the first player chooses the winner */
    TNY_GT_STEP_COUNT_
};

struct tny_gt_timeout_outcome {
    int32_t winner;                      /* 0/1; -1: the first player chooses */
    int32_t chooser;                     /* first player when winner == -1 */
    enum tny_gt_timeout_step decided_by; /* POWER .. FIRST_PLAYER */
};

/* GT-13: the modified winner after time-out when nobody has won.
 * dominance_winner: player who won dominance in the last round, -1 none.
 * first_player: the first player at the end of the game.
 * Errors: TNY_EINVAL for a negative fact, dominance_winner not -1/0/1,
 * first_player not 0/1. */
TNY_MUST_USE int tny_gt_timeout(const struct tny_gt_timeout_facts facts[2],
                                int32_t dominance_winner, int32_t first_player,
                                struct tny_gt_timeout_outcome *out,
                                struct tny_diag *diag);

/* Text of a wizard step (static storage); "" for an unknown step. */
const char *tny_gt_timeout_step_text(enum tny_gt_timeout_step step);

/* ---- Catan (CT-8, CT-9) ------------------------------------------------ */

/* CT-8: the shortest time limit the head judge may announce. */
#define TNY_CT_MIN_LIMIT_MINUTES 90

/* CT-8: a per-game time limit announced at the round start: 0 (none) or at
 * least TNY_CT_MIN_LIMIT_MINUTES.  Errors: TNY_EINVAL otherwise (negative
 * included), TNY_ERANGE above 1440. */
TNY_MUST_USE int tny_ct_time_limit_check(int32_t minutes,
                                         struct tny_diag *diag);

/* CT-8 procedure text for the table (static storage). */
const char *tny_ct_timeout_text(void);

/* CT-8 "two more full rounds": turns still to play after the current turn
 * when time is up during active_seat's turn, seats 0..n_players-1 in
 * playing order, starter_seat took the first turn of the game.  [decision]
 * The round in progress is finished first (up to the seat before the
 * starter), then two full rounds, each starting with starter_seat.
 * Errors: TNY_EINVAL unless 2 <= n_players <= TNY_MAX_SEATS and both seats
 * are in range. */
TNY_MUST_USE int tny_ct_turns_after_timeout(int32_t n_players,
                                            int32_t starter_seat,
                                            int32_t active_seat, int32_t *turns,
                                            struct tny_diag *diag);

/* CT-9: each player at the table rolls two dice (rolls[i] in 2..12); the
 * single highest roll starts (*starter).  A tie for the highest gives
 * *starter = -1 and *tied the bit mask (bit i = seat i) of the players who
 * roll again [decision: only the tied players re-roll].  *tied is 0 when a
 * starter was found.  Errors: TNY_EINVAL unless 2 <= n <= TNY_MAX_SEATS and
 * every roll is 2..12. */
TNY_MUST_USE int tny_ct_starting_player(int32_t n, const int32_t *rolls,
                                        int32_t *starter, uint32_t *tied,
                                        struct tny_diag *diag);

/* CT-9 with virtual dice: rolls 2d6 (rng) for every seat, then again for
 * the tied players only, until one is highest.  rng: derive for
 * TNY_LOT_SEATS.  Errors: TNY_EINVAL unless 2 <= n <= TNY_MAX_SEATS. */
TNY_MUST_USE int tny_ct_roll_starting_player(struct tny_rng *rng, int32_t n,
                                             int32_t *starter,
                                             struct tny_diag *diag);

#endif
