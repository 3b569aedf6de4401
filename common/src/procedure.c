/* procedure.c - table decisions: NH-12, NH-13, NH-14, TX-10, TX-11, GT-12,
 * GT-13, CT-8, CT-9 (see procedure.h).
 *
 * Every function validates all of its input before it writes an output or
 * draws from the rng, so a refused call changes nothing and consumes no
 * randomness.  Step texts are static const data (no mutable state), in
 * English and marked N_() (tny/i18n.h): the table client shows them
 * through its catalogue (po/tourney-table).
 */
#include "tny/procedure.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "tny/i18n.h"

/* ---- round lengths ------------------------------------------------------ */

int tny_stage_round_minutes(const struct tny_stage *st, bool final_round,
                            int32_t *minutes, struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t m;

    assert(st && minutes);
    /* NH-13, GT-12: only an elimination stage has a separate final length. */
    m = (final_round && st->kind == TNY_STAGE_ELIMINATION)
            ? st->final_timer_minutes
            : st->timer_minutes;
    if (m < 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "stage \"%s\": round length %ld minutes is negative",
                          st->name, (long)m);
        goto out;
    }
    *minutes = m;
out:
    return rc;
}

/* ---- Neuroshima Hex! ---------------------------------------------------- */

static bool is_name(const char *s)
{
    return s && s[0] != '\0';
}

/* TNY_ENOTFOUND unless name is one of fmt's armies (fmt NULL: any name). */
static int check_army(const struct tny_format *fmt, const char *name,
                      const char *what, struct tny_diag *diag)
{
    if (!fmt || tny_format_army_index(fmt, name) >= 0)
        return TNY_OK;
    return tny_diag_set(diag, TNY_ENOTFOUND, "%s: unknown army \"%s\"", what,
                        name);
}

int tny_nh_army_choice(const struct tny_format *fmt, const char *first_a,
                       const char *second_a, const char *first_b,
                       const char *second_b, struct tny_rng *rng,
                       const char **army_a, const char **army_b,
                       int32_t *lot_loser, struct tny_diag *diag)
{
    int rc = TNY_OK;
    const char *firsts[2] = {first_a, first_b};
    const char *seconds[2] = {second_a, second_b};
    const char *chosen[2];
    int32_t loser = -1;

    assert(army_a && army_b && lot_loser);
    for (int i = 0; i < 2; i++) {
        const char *who =
            i == 0 ? "army choice: player a" : "army choice: player b";
        if (!is_name(firsts[i])) {
            rc =
                tny_diag_set(diag, TNY_EINVAL, "%s: first choice missing", who);
            goto out;
        }
        if (seconds[i] && seconds[i][0] == '\0')
            seconds[i] = NULL; /* an empty second choice is no choice */
        if (seconds[i] && strcmp(firsts[i], seconds[i]) == 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "%s: first and second choice are both \"%s\"",
                              who, firsts[i]);
            goto out;
        }
        rc = check_army(fmt, firsts[i], who, diag);
        if (rc < 0)
            goto out;
        if (seconds[i]) {
            rc = check_army(fmt, seconds[i], who, diag);
            if (rc < 0)
                goto out;
        }
    }
    chosen[0] = firsts[0];
    chosen[1] = firsts[1];
    if (strcmp(firsts[0], firsts[1]) == 0) {
        if (!seconds[0] && !seconds[1]) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "army choice: both first choices are \"%s\" "
                              "and neither player has a second choice",
                              firsts[0]);
            goto out;
        }
        if (seconds[0] && seconds[1]) {
            assert(rng);
            loser = (int32_t)tny_rng_below(rng, 2); /* NH-12 lot */
        } else {
            loser = seconds[0] ? 0 : 1; /* [decision] no lot needed */
        }
        chosen[loser] = seconds[loser];
    }
    *army_a = chosen[0];
    *army_b = chosen[1];
    *lot_loser = loser;
out:
    return rc;
}

bool tny_nh_beginner_may_repeat(bool beginner, enum tny_nh_round round,
                                bool knockout_allowed, int32_t n_available,
                                const char *const *available,
                                const char *opponent_army)
{
    if (!beginner || !is_name(opponent_army) || n_available < 1 || !available)
        return false;
    if (round == TNY_NH_ROUND_SWISS)
        return false;
    if (round == TNY_NH_ROUND_KNOCKOUT && !knockout_allowed)
        return false;
    if (round != TNY_NH_ROUND_SWISS_LAST && round != TNY_NH_ROUND_KNOCKOUT)
        return false;
    /* "only when otherwise both would field the same army" */
    for (int32_t i = 0; i < n_available; i++)
        if (!available[i] || strcmp(available[i], opponent_army) != 0)
            return false;
    return true;
}

int tny_nh_first_player(const struct tny_format *fmt, const char *army_a,
                        const char *army_b, struct tny_rng *rng,
                        struct tny_nh_first_player *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    const char *armies[2] = {army_a, army_b};
    struct tny_nh_first_player fp = {-1, -1, false};

    assert(out);
    for (int i = 0; i < 2; i++) {
        const char *who =
            i == 0 ? "first player: player a" : "first player: player b";
        if (!is_name(armies[i])) {
            rc = tny_diag_set(diag, TNY_EINVAL, "%s: army missing", who);
            goto out;
        }
        rc = check_army(fmt, armies[i], who, diag);
        if (rc < 0)
            goto out;
    }
    if (strcmp(army_a, army_b) == 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "first player: both players field \"%s\"", army_a);
        goto out;
    }
    fp.vegas_note =
        strcmp(army_a, TNY_NH_VEGAS) == 0 || strcmp(army_b, TNY_NH_VEGAS) == 0;
    if (strcmp(army_a, TNY_NH_DANCER) == 0) {
        fp.first = 0;
    } else if (strcmp(army_b, TNY_NH_DANCER) == 0) {
        fp.first = 1;
    } else {
        assert(rng);
        fp.decider = (int32_t)tny_rng_below(rng, 2);
    }
    *out = fp;
out:
    return rc;
}

enum tny_nh_timeout tny_nh_timeout_rule(enum tny_stage_kind kind,
                                        bool final_round,
                                        bool termination_in_knockout)
{
    if (kind != TNY_STAGE_ELIMINATION)
        return TNY_NH_TIMEOUT_TERMINATION;
    if (final_round)
        return TNY_NH_TIMEOUT_NONE;
    return termination_in_knockout ? TNY_NH_TIMEOUT_TERMINATION
                                   : TNY_NH_TIMEOUT_PLAY_ON;
}

static const char *const nh_termination[] = {
    N_("time is up: the player whose turn it is finishes that turn"),
    N_("if the match is not decided yet, resolve the Final Battle"),
    N_("the result of the Final Battle is the result of the match"),
};

const char *const *tny_nh_termination_steps(int32_t *n)
{
    assert(n);
    *n = (int32_t)(sizeof(nh_termination) / sizeof(nh_termination[0]));
    return nh_termination;
}

/* ---- Tantrix ------------------------------------------------------------ */

const char *tny_tx_colour_name(enum tny_tx_colour c)
{
    switch (c) {
    case TNY_TX_NONE: return "none";
    case TNY_TX_RED: return N_("red");
    case TNY_TX_YELLOW: return N_("yellow");
    case TNY_TX_BLUE: return N_("blue");
    case TNY_TX_GREEN: return N_("green");
    case TNY_TX_WHITE: return N_("white");
    }
    return "unknown";
}

static bool colour_ok(enum tny_tx_colour c)
{
    return c >= TNY_TX_NONE && c <= TNY_TX_WHITE;
}

/* Validates one registration and returns it as read in the colour set that
 * will be used (colour-blind set: green becomes white).  *q is written on
 * every path (no preference on error), so the caller never reads an
 * uninitialised value even where the compiler cannot follow rc. */
static int read_pref(const struct tny_tx_colour_pref *p, const char *who,
                     bool colour_blind_set, struct tny_tx_colour_pref *q,
                     struct tny_diag *diag)
{
    int rc = TNY_OK;

    *q = (struct tny_tx_colour_pref){TNY_TX_NONE, TNY_TX_NONE, false};
    if (!colour_ok(p->first) || !colour_ok(p->second)) {
        rc = tny_diag_set(diag, TNY_EINVAL, "colours: %s: unknown colour", who);
        goto out;
    }
    if (p->first == TNY_TX_NONE && p->second != TNY_TX_NONE) {
        rc =
            tny_diag_set(diag, TNY_EINVAL,
                         "colours: %s: second preference without a first", who);
        goto out;
    }
    if (p->first != TNY_TX_NONE && p->first == p->second) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "colours: %s: first and second preference are both "
                          "%s",
                          who, tny_tx_colour_name(p->first));
        goto out;
    }
    if (!p->colour_blind &&
        (p->first == TNY_TX_WHITE || p->second == TNY_TX_WHITE)) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "colours: %s: white is only in the colour-blind set",
                          who);
        goto out;
    }
    *q = *p;
    if (colour_blind_set) {
        if (q->first == TNY_TX_GREEN)
            q->first = TNY_TX_WHITE;
        if (q->second == TNY_TX_GREEN)
            q->second = TNY_TX_WHITE;
    }
    if (q->first != TNY_TX_NONE && q->first == q->second) {
        /* green and white given as the two choices of a colour-blind player */
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "colours: %s: green and white are the same colour "
                          "in the colour-blind set",
                          who);
        goto out;
    }
out:
    return rc;
}

int tny_tx_colours(const struct tny_tx_colour_pref *a,
                   const struct tny_tx_colour_pref *b,
                   struct tny_tx_colours *out, struct tny_diag *diag)
{
    int rc;
    struct tny_tx_colour_pref p[2];
    struct tny_tx_colours r = {
        TNY_TX_COLOURS_SET, {TNY_TX_NONE, TNY_TX_NONE}, false, -1};

    assert(a && b && out);
    r.colour_blind_set = a->colour_blind || b->colour_blind;
    rc = read_pref(a, "player a", r.colour_blind_set, &p[0], diag);
    if (rc < 0)
        goto out;
    rc = read_pref(b, "player b", r.colour_blind_set, &p[1], diag);
    if (rc < 0)
        goto out;

    if (a->colour_blind != b->colour_blind) {
        /* Seed rule 11: so that the colour-blind player does not always get
         * their first preference, the other player chooses both colours. */
        r.outcome = TNY_TX_COLOURS_CHOOSER;
        r.chooser = a->colour_blind ? 1 : 0;
    } else if (p[0].first == TNY_TX_NONE && p[1].first == TNY_TX_NONE) {
        r.outcome = TNY_TX_COLOURS_AGREE_OR_ORGANISER;
    } else if (p[0].first != p[1].first) {
        /* Different firsts, or only one preference: a player without one
         * cannot stop the other from using theirs (colour NONE: free). */
        r.outcome = TNY_TX_COLOURS_SET;
        r.colour[0] = p[0].first;
        r.colour[1] = p[1].first;
    } else if (p[0].second == p[1].second) {
        /* Equal seconds, or neither has one: agree, else the organiser. */
        r.outcome = TNY_TX_COLOURS_AGREE_OR_ORGANISER;
    } else {
        r.outcome = TNY_TX_COLOURS_AGREE_ELSE;
        r.colour[0] = p[0].second;
        r.colour[1] = p[1].second;
    }
    *out = r;
out:
    return rc;
}

int tny_tx_starter(int32_t tile_a, int32_t tile_b, int32_t *starter,
                   struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(starter);
    if (tile_a < 1 || tile_a > TNY_TX_TILES || tile_b < 1 ||
        tile_b > TNY_TX_TILES) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "start: tile numbers %ld and %ld: expected 1..%d",
                          (long)tile_a, (long)tile_b, TNY_TX_TILES);
        goto out;
    }
    *starter = tile_a > tile_b ? 0 : tile_b > tile_a ? 1 : -1;
out:
    return rc;
}

/* ---- A Game of Thrones -------------------------------------------------- */

int tny_gt_timeout(const struct tny_gt_timeout_facts facts[2],
                   int32_t dominance_winner, int32_t first_player,
                   struct tny_gt_timeout_outcome *out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    const struct tny_gt_timeout_facts *f0, *f1;
    struct tny_gt_timeout_outcome r = {-1, -1, TNY_GT_STEP_FIRST_PLAYER};

    assert(facts && out);
    f0 = &facts[0];
    f1 = &facts[1];
    for (int i = 0; i < 2; i++) {
        if (facts[i].power_needed < 0 || facts[i].deck_cards < 0 ||
            facts[i].dead_characters < 0) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "time-out: player %d: power needed, deck cards "
                              "and dead characters must be >= 0",
                              i);
            goto out;
        }
    }
    if (dominance_winner < -1 || dominance_winner > 1 || first_player < 0 ||
        first_player > 1) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "time-out: dominance winner %ld (expected -1, 0, 1), "
                          "first player %ld (expected 0, 1)",
                          (long)dominance_winner, (long)first_player);
        goto out;
    }
    /* GT-13 criteria in the seed's order; each decides only if it differs. */
    if (f0->power_needed != f1->power_needed) {
        r.winner = f0->power_needed < f1->power_needed ? 0 : 1;
        r.decided_by = TNY_GT_STEP_POWER;
    } else if (f0->deck_cards != f1->deck_cards) {
        r.winner = f0->deck_cards > f1->deck_cards ? 0 : 1;
        r.decided_by = TNY_GT_STEP_DECK;
    } else if (dominance_winner >= 0) {
        r.winner = dominance_winner;
        r.decided_by = TNY_GT_STEP_DOMINANCE;
    } else if (f0->dead_characters != f1->dead_characters) {
        r.winner = f0->dead_characters < f1->dead_characters ? 0 : 1;
        r.decided_by = TNY_GT_STEP_DEAD_PILE;
    } else {
        r.chooser = first_player;
    }
    *out = r;
out:
    return rc;
}

static const char *const gt_steps[TNY_GT_STEP_COUNT_] = {
    N_("time is up: finish the current round up to its taxation phase; if a "
       "player has won, record a normal win"),
    N_("1. the player who needs fewer power to win gets the modified win; if "
       "equal, go to step 2"),
    N_("2. the player with more cards left in their draw deck gets the "
       "modified "
       "win; if equal, go to step 3"),
    N_("3. the player who won dominance in the last round gets the modified "
       "win; "
       "if nobody won it, go to step 4"),
    N_("4. the player with fewer characters in their dead pile gets the "
       "modified "
       "win; if equal, go to step 5"),
    N_("5. the first player chooses who gets the modified win; the opponent "
       "loses"),
};

const char *tny_gt_timeout_step_text(enum tny_gt_timeout_step step)
{
    if ((int)step < 0 || step >= TNY_GT_STEP_COUNT_)
        return "";
    return gt_steps[step];
}

/* ---- Catan -------------------------------------------------------------- */

int tny_ct_time_limit_check(int32_t minutes, struct tny_diag *diag)
{
    int rc = TNY_OK;

    if (minutes > 1440) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "time limit: %ld minutes is more than a day",
                          (long)minutes);
    } else if (minutes != 0 && minutes < TNY_CT_MIN_LIMIT_MINUTES) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "time limit: %ld minutes: expected 0 (none) or at "
                          "least %d",
                          (long)minutes, TNY_CT_MIN_LIMIT_MINUTES);
    }
    return rc;
}

const char *tny_ct_timeout_text(void)
{
    return N_("time is up: finish the round in progress, then play two more "
              "full rounds; the game ends in the state reached after them");
}

int tny_ct_turns_after_timeout(int32_t n_players, int32_t starter_seat,
                               int32_t active_seat, int32_t *turns,
                               struct tny_diag *diag)
{
    int rc = TNY_OK;
    int32_t done;

    assert(turns);
    if (n_players < 2 || n_players > TNY_MAX_SEATS || starter_seat < 0 ||
        starter_seat >= n_players || active_seat < 0 ||
        active_seat >= n_players) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "time-out: %ld players, starter seat %ld, active "
                          "seat %ld",
                          (long)n_players, (long)starter_seat,
                          (long)active_seat);
        goto out;
    }
    /* Turns of the current round taken, the active one included. */
    done = (active_seat - starter_seat + n_players) % n_players + 1;
    *turns = (n_players - done) + 2 * n_players;
out:
    return rc;
}

static int check_table(int32_t n, struct tny_diag *diag)
{
    if (n >= 2 && n <= TNY_MAX_SEATS)
        return TNY_OK;
    return tny_diag_set(diag, TNY_EINVAL,
                        "starting player: %ld players, expected 2..%d", (long)n,
                        TNY_MAX_SEATS);
}

/* Highest among rolls[i] with bit i of among set; *tied gets the seats that
 * share it.  Returns the single best seat or -1. */
static int32_t highest(int32_t n, const int32_t *rolls, uint32_t among,
                       uint32_t *tied)
{
    int32_t best = -1;
    uint32_t mask = 0;

    for (int32_t i = 0; i < n; i++) {
        if (!(among & (1u << i)))
            continue;
        if (best < 0 || rolls[i] > rolls[best]) {
            best = i;
            mask = 1u << i;
        } else if (rolls[i] == rolls[best]) {
            mask |= 1u << i;
        }
    }
    if ((mask & (mask - 1)) != 0) { /* more than one bit: a tie */
        *tied = mask;
        return -1;
    }
    *tied = 0;
    return best;
}

int tny_ct_starting_player(int32_t n, const int32_t *rolls, int32_t *starter,
                           uint32_t *tied, struct tny_diag *diag)
{
    int rc;

    assert(starter && tied);
    rc = check_table(n, diag);
    if (rc < 0)
        goto out;
    assert(rolls);
    for (int32_t i = 0; i < n; i++) {
        if (rolls[i] < 2 || rolls[i] > 12) {
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "starting player: seat %ld rolled %ld, expected "
                              "2..12",
                              (long)i, (long)rolls[i]);
            goto out;
        }
    }
    *starter = highest(n, rolls, (1u << n) - 1, tied);
out:
    return rc;
}

int tny_ct_roll_starting_player(struct tny_rng *rng, int32_t n,
                                int32_t *starter, struct tny_diag *diag)
{
    int rc;
    int32_t rolls[TNY_MAX_SEATS] = {0};
    uint32_t among;
    int32_t best = -1;

    assert(rng && starter);
    rc = check_table(n, diag);
    if (rc < 0)
        goto out;
    among = (1u << n) - 1;
    while (best < 0) {
        for (int32_t i = 0; i < n; i++)
            if (among & (1u << i))
                rolls[i] = 2 + (int32_t)tny_rng_below(rng, 6) +
                           (int32_t)tny_rng_below(rng, 6);
        best = highest(n, rolls, among, &among);
    }
    *starter = best;
out:
    return rc;
}
