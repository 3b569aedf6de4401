/* format.h - a tournament format as data: stages, points, tiebreaks, timers.
 *
 * A format is what a preset file (formats/<name>.json) describes, after the
 * event's "options" were applied.  The engine never hard-codes a number that
 * an organiser may want to change: points, rounds, cut size, tiebreak order,
 * timer lengths and table notes all live here.  What stays in C is the set of
 * strategies a format picks by name (the game's result schema and scoring,
 * the pairing/seating strategy of each stage, each tiebreak criterion).
 *
 * Points are integers in units of 1/TNY_POINT_SCALE of a tournament point so
 * that shared placements (AG-5 thirds, AG-11 x1.25) and Tantrix tenths
 * (TX-2) stay exact; equality of points is exact equality.
 *
 * This header is the data and its whole-format checks (format_check.c);
 * the options that change a format are format_options.h; parsing and
 * printing files live in common/io.
 */
#ifndef TNY_FORMAT_H
#define TNY_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

/* 1 tournament point = 1200 units (divisible by 2, 3, 4, 10 and 100/1.25). */
#define TNY_POINT_SCALE 1200
#define TNY_MAX_SEATS 4
#define TNY_MAX_STAGES 4
#define TNY_MAX_TIEBREAKS 12
#define TNY_MAX_ARMIES 32
#define TNY_MAX_NOTES 8
#define TNY_NAME_MAX 48
#define TNY_NOTE_MAX 512

/* The game: selects the result schema and the scoring rules (NH, TX, AG, GT,
 * CT sections of formats.md); one value per line of tny/games.def. */
enum tny_game {
#define TNY_GAME_DEF(e, module) TNY_GAME_##e,
#include "tny/games.def"
#undef TNY_GAME_DEF
};

/* How many games tny/games.def lists. */
enum {
    TNY_GAME_COUNT = 0
#define TNY_GAME_DEF(e, module) +1
#include "tny/games.def"
#undef TNY_GAME_DEF
};

/* The most result keys a game module declares of its own
 * (result_schema.h, struct tny_result_ext). */
#define TNY_RESULT_EXT_MAX 4

/* Stage kinds, as named in the event file's rounds[].stage. */
enum tny_stage_kind {
    TNY_STAGE_SWISS,       /* "swiss" */
    TNY_STAGE_ELIMINATION, /* "elimination" */
    TNY_STAGE_PRELIM,      /* "prelim" (AG games 1-3) */
    TNY_STAGE_FINAL,       /* "final" (AG final games 1-2) */
    TNY_STAGE_ROUND,       /* "round" (CT Gorn rounds) */
    TNY_STAGE_ROUND_ROBIN, /* "round_robin" (TX option) */
};

/* How a stage forms its tables. */
enum tny_pairing {
    TNY_PAIR_SWISS,       /* 2-player min-cost matching (NH-5, GT-2, TX) */
    TNY_PAIR_RESEEDED,    /* elimination, re-seeded every round (NH-7) */
    TNY_PAIR_FOLDED,      /* elimination, bracket folding (GT-7, GT-8) */
    TNY_PAIR_AGRICOLA,    /* AG-3, AG-7, AG-9 / AG-11, AG-12 */
    TNY_PAIR_GORN,        /* CT-1, CT-2 */
    TNY_PAIR_ROUND_ROBIN, /* Berger tables */
};

/* Who gets the bye in a 2-player Swiss stage (and CT-1 remainder 1). */
enum tny_bye_rule {
    TNY_BYE_LOWEST_POINTS_HQ, /* NH-4: fewest points, then lowest HQ sum */
    TNY_BYE_LOWEST_RANKED,    /* GT-3, CT-1, TX: lowest in the standings */
};

/* Tiebreak criteria, in the order a stage lists them (after points). */
enum tny_tiebreak {
    TNY_TB_HQ_DIFF,         /* "hq_diff": sum of HQ differences (NH-6) */
    TNY_TB_HEAD_TO_HEAD,    /* "head_to_head": two tied who met (NH-6) */
    TNY_TB_MINI_TP,         /* "mini_league_tp": TP among the tied (TX-8) */
    TNY_TB_WINS,            /* "wins": draws 1/2, byes count (TX-8) */
    TNY_TB_MINI_SCORE_DIFF, /* "mini_league_score_diff" (TX-8) */
    TNY_TB_TOTAL_SCORE,     /* "total_score": sum of own scores (TX-8) */
    TNY_TB_SOS,             /* "sos" (GT-4) */
    TNY_TB_ESOS,            /* "esos" (GT-4) */
    TNY_TB_RELATIVE_SCORE,  /* "relative_score": sum (AG-6, AG-8) */
    TNY_TB_BEST_RELATIVE,   /* "best_relative_score" (AG-8) */
    TNY_TB_BEST_PRELIM_RELATIVE, /* "best_prelim_relative_score" (AG-13) */
    TNY_TB_FINAL_PLACEMENT, /* "final_placement": place in last game (AG-13) */
    TNY_TB_SUCCESS_RATE,    /* "success_rate" in percent (CT-5, CT-7) */
    TNY_TB_GAME_POINTS,     /* "game_points": total capped VP (CT-7) */
    TNY_TB_FIRSTS,          /* "firsts" (CT-7) */
    TNY_TB_SECONDS,         /* "seconds" (CT-7) */
    TNY_TB_THIRDS,          /* "thirds" (CT-7) */
    TNY_TB_LOT,             /* "lot": the seeded lot, always last (CM-4) */
    TNY_TB_MOV,             /* "mov": margin of victory, tiebreak_data.mov */
    TNY_TB_OWP,             /* "owp": mean opponents' win %, floored */
    TNY_TB_BUCHHOLZ,        /* "buchholz": sum of opponents' points */
    TNY_TB_MEDIAN_BUCHHOLZ, /* "median_buchholz": without best and worst */
    TNY_TB_COUNT_
};

/* Within a Swiss score group: partners by lot or standings order. */
enum tny_group_order {
    TNY_GROUP_LOT,      /* "lot" (GT-2, NH-5) */
    TNY_GROUP_ADJACENT, /* "adjacent": 1v2, 3v4 (Monrad) */
};

/* What a Swiss pair-down costs (swiss.h level 3). */
enum tny_pairing_cost {
    TNY_COST_SCORE_GROUPS, /* "score_groups": (score-group steps)^2, the
                            * seeds' rule (GT-2, NH-5: the nearest group) */
    TNY_COST_POINTS,       /* "points": (points difference)^2, as Cobra and
                            * most 2-player Swiss software weigh it */
};

/* What makes a Swiss score group. */
enum tny_score_groups {
    TNY_GROUPS_POINTS, /* "points": equal tournament points (NH, GT, TX) */
    TNY_GROUPS_WINS,   /* "wins": equal wins, draws 1/2 (a TX option:
                        * coarser groups than TP; standings order inside
                        * the group still follows TP) */
};

struct tny_stage {
    char name[TNY_NAME_MAX]; /* shown to players, e.g. "Swiss" */
    enum tny_stage_kind kind;
    enum tny_pairing pairing;
    enum tny_group_order group_order;   /* TNY_PAIR_SWISS only */
    enum tny_score_groups score_groups; /* TNY_PAIR_SWISS only */
    enum tny_pairing_cost pairing_cost; /* TNY_PAIR_SWISS only */
    int32_t rounds;     /* rounds in the stage; 0 = from size (elimination) */
    int32_t cut;        /* elimination: players advancing; 0 = no stage */
    bool best_of_three; /* GT-9 elimination matches */
    bool from_start;    /* GT-8: elimination without a Swiss stage */
    int32_t n_tiebreaks;
    enum tny_tiebreak tiebreaks[TNY_MAX_TIEBREAKS];
    int32_t timer_minutes;          /* round length; 0 = no limit (CM-7) */
    int32_t final_timer_minutes;    /* elimination final; 0 = no limit */
    int64_t weight_num, weight_den; /* placement-point weight (AG-11 5/4) */
};

struct tny_format {
    char name[TNY_NAME_MAX]; /* preset name, e.g. "neuroshima-hex" */
    char title[128];
    enum tny_game game;
    int32_t players_per_table;        /* 2 or 4 */
    int32_t min_players, max_players; /* 0 = no limit */
    int32_t player_multiple;          /* AG: players must be a multiple of 4 */

    int32_t n_stages;
    struct tny_stage stages[TNY_MAX_STAGES];
    /* GT-5: Swiss rounds and cut from attendance ("structure" option);
     * CUSTOM keeps the stages' own rounds and cut. */
    enum tny_structure {
        TNY_STRUCTURE_CUSTOM,
        TNY_STRUCTURE_BASIC,
        TNY_STRUCTURE_ADVANCED
    } structure;

    /* 2-player points (NH-3, GT-1, TX byes), in TNY_POINT_SCALE units. */
    int64_t win_points, draw_points, loss_points, modified_win_points;
    int64_t bye_points;
    enum tny_bye_rule bye_rule;
    bool second_bye_allowed; /* NH-4 decision: false */

    /* NH */
    int32_t bye_hq_diff; /* NH-4: +7 */
    int32_t hq_diff_max; /* validation range of |d| */
    int32_t n_armies;
    char armies[TNY_MAX_ARMIES][TNY_NAME_MAX]; /* NH-10 legal list */
    int32_t n_capped_armies;
    char capped_armies[4][TNY_NAME_MAX]; /* NH-2: Dancer */
    int32_t capped_hq_diff;              /* NH-2: 20 */
    int32_t armies_per_player;           /* NH-10: 5 */
    int32_t n_beginner_armies;
    char beginner_armies[8][TNY_NAME_MAX]; /* NH-10 base box */

    /* TX (tenths of TP are TNY_POINT_SCALE/10 units) */
    int64_t tp_per_game; /* TX-2: 20.0 */
    int32_t n_margins;
    int64_t margin_tp[64];    /* TX-2: winner's TP by margin index */
    int32_t clock_limit_ms;   /* TX-3: 20 min */
    int32_t clock_step_ms;    /* TX-3: 1 more TP per further minute */
    int64_t clock_penalty;    /* TX-3: 1 TP */
    int64_t default_win_tp;   /* TX-5: 15.0 */
    int64_t bye_tp;           /* TX-13: 15.0 */
    int32_t max_missed_games; /* TX-6: more than 2 -> separate list */
    int32_t score_max;        /* result validation: game score range */

    /* AG / CT placement points (TNY_POINT_SCALE units), by place 1..4 */
    int64_t placement_points[TNY_MAX_SEATS];
    int64_t placement_points_3[TNY_MAX_SEATS];      /* CT-3: 3-player table */
    int32_t vp_min, vp_max, ip_max, bp_min, bp_max; /* AG/CT validation */
    int32_t game_points_cap;                        /* CT-4: 10 */
    int64_t bye_placement_points;                   /* CT-6: 4 */
    int32_t bye_game_points;                        /* CT-6: 10 */
    int32_t bye_success_permille;                   /* CT-6: 270 */
    int32_t group_a_size;                           /* AG-10: 8 */

    /* Table procedures and notes, shown at the table (AG-15, CT-9, NH-13). */
    int32_t draft_minutes;  /* AG-14 */
    int32_t action_seconds; /* AG-14 speed play */
    int32_t n_notes;
    char notes[TNY_MAX_NOTES][TNY_NOTE_MAX];
    char timeout_procedure[TNY_NOTE_MAX];

    /* Two-player game (TNY_GAME_TWO_PLAYER): which outcomes a result may
     * record besides a win, their points, the accepted score range. */
    bool draws, intentional_draws, double_losses;
    int64_t intentional_draw_points, double_loss_points;
    int32_t score_min;       /* score_max above is shared with TX */
    bool points_from_scores; /* a player's points are their score (match
                              * points already, e.g. Netrunner's combined
                              * score of a double-sided round) */

    /* Sides (docs/formats.md "sides"): each seat of a 2-player Swiss game
     * plays one of two named sides (corp/runner, white/black), assigned by
     * the pairing; n_sides 0 = no sides.  side_balance: the largest
     * |games on side 0 - games on side 1| the pairing aims to keep (0 = no
     * limit); swapped_rematch: two players may meet a second time (never a
     * third) when they play the other sides than at their first meeting. */
    int32_t n_sides;
    char sides[2][TNY_NAME_MAX];
    int32_t side_balance;
    bool swapped_rematch;

    /* Tiebreak data (docs/formats.md "tiebreak_data"). */
    bool has_mov; /* "mov" may be used only with it */
    /* Per game: clamp(base + own score - opponent's, min, max); a bye
     * counts bye; a game recorded without scores counts base. */
    int32_t mov_base, mov_min, mov_max, mov_bye;
    int32_t owp_floor_permille; /* "owp": each opponent's win rate at least
                                 * this (Pokemon 250 = 25 %) */
};

/* Whether a tiebreak can mean anything for a game (hq_diff needs HQ
 * differences, ...): a format that lists one that cannot is refused. */
bool tny_tiebreak_applies(enum tny_tiebreak tb, enum tny_game game);

/* Names used in format files and output ("hq_diff", "swiss", ...). */
const char *tny_tiebreak_name(enum tny_tiebreak tb);
const char *tny_stage_kind_name(enum tny_stage_kind kind);
const char *tny_pairing_name(enum tny_pairing pairing);
const char *tny_game_name(enum tny_game game);
/* Reverse lookups: 0 and the value on success, TNY_ENOTFOUND otherwise. */
int tny_tiebreak_from_name(const char *name, enum tny_tiebreak *out);
int tny_stage_kind_from_name(const char *name, enum tny_stage_kind *out);
int tny_pairing_from_name(const char *name, enum tny_pairing *out);
int tny_game_from_name(const char *name, enum tny_game *out);
/* Names of the smaller enums ("basic", "adjacent", "wins",
 * "lowest_ranked"); "?" for a value out of range. */
const char *tny_structure_name(enum tny_structure s);
const char *tny_group_order_name(enum tny_group_order g);
const char *tny_score_groups_name(enum tny_score_groups g);
const char *tny_bye_rule_name(enum tny_bye_rule r);
const char *tny_pairing_cost_name(enum tny_pairing_cost c);

/* Looks name up in names[0..n) (NULL entries never match): 0 and *out =
 * its index, else TNY_EINVAL with diag "PATH: unknown NOUN \"NAME\"
 * (expected one of: a, b, ...)" (the list cut at 255 bytes). */
TNY_MUST_USE int tny_name_pick(const char *name, const char *const *names,
                               int n, const char *path, const char *noun,
                               int *out, struct tny_diag *diag);

/* Points (TNY_POINT_SCALE units) as text for people: rounded to
 * hundredths, without trailing zeros ("3", "2.5", "0.33", "-1.25").
 * Always NUL-terminates when size > 0 (truncates if size is short). */
void tny_points_text(int64_t units, char *buf, size_t size);

/* Index of an army name in fmt->armies, or -1. */
int32_t tny_format_army_index(const struct tny_format *fmt, const char *name);

/* The format as a whole (format_check.c): the table size fits the game,
 * the stage layout (kinds, strategies that fit the table size, elimination
 * never first, one stage per kind, Swiss rounds, a tiebreak chain that
 * applies to the game and ends in "lot"), and the game's own data present
 * and consistent (TX-2 margins, AG-5/AG-10, CT-3, CT-8, the two-player
 * score range, the MoV clamp).  Checks what a format file, an
 * event's options or a builder can get wrong beyond single values; path
 * names the format in messages ("format", "event.format").
 * Errors: TNY_EINVAL (diag "PATH.stages[1].cut: why"). */
TNY_MUST_USE int tny_format_check(const struct tny_format *fmt,
                                  const char *path, struct tny_diag *diag);

/* Parts of tny_format_check that a parser runs as soon as it has read
 * the fields, so that its first message is about them: entry i of an
 * NH-10 name list (names[0..i]) is no repeat and, with known, one of
 * known->armies ("PATH: \"NAME\" listed twice", "PATH: \"NAME\" is not
 * in neuroshima_hex.armies"; path names the entry); tiebreak i of a stage
 * is no repeat ("PATH: \"sos\" listed twice"); CM-4 a stage's
 * tiebreak chain ends in "lot" (path names the stage:
 * "PATH.tiebreaks: ..."); a two-player score range is not empty
 * ("PATH.two_player.score_max: less than score_min"); the MoV clamp is
 * not empty ("PATH.tiebreak_data.mov.max: less than min").  path names
 * the format except for the stage's.  Errors: TNY_EINVAL. */
TNY_MUST_USE int tny_format_check_name_entry(const char (*names)[TNY_NAME_MAX],
                                             int32_t i,
                                             const struct tny_format *known,
                                             const char *path,
                                             struct tny_diag *diag);
TNY_MUST_USE int tny_stage_check_tiebreak_entry(const struct tny_stage *s,
                                                int32_t i, const char *path,
                                                struct tny_diag *diag);
TNY_MUST_USE int tny_stage_check_tiebreaks(const struct tny_stage *s,
                                           const char *path,
                                           struct tny_diag *diag);
TNY_MUST_USE int tny_format_check_scores(const struct tny_format *fmt,
                                         const char *path,
                                         struct tny_diag *diag);
TNY_MUST_USE int tny_format_check_mov(const struct tny_format *fmt,
                                      const char *path, struct tny_diag *diag);

/* Index of side name in fmt->sides, or -1. */
int32_t tny_format_side_index(const struct tny_format *fmt, const char *name);

/* Recomputes the fields that mirror bye_points for the games that read
 * them (TX bye_tp, CT bye_placement_points); call after setting it. */
void tny_format_sync_derived(struct tny_format *fmt);

#endif
