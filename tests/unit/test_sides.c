/* test_sides.c - sides as data and the pairing cost (issue 19 items 3, 4):
 * the netrunner-sss / netrunner-dss presets, sides in the event file and
 * their validation, the pairing's side assignment and swapped rematches
 * (never the bye onto a leader to avoid one), `pairing_cost: points`, and
 * simulated single-sided events checked against the rules stated in
 * docs/rules.md "Sides".
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/standings.h"
#include "tny/swiss.h"

#define P(x) ((int64_t)(x)*TNY_POINT_SCALE)

static void fails_with(const char *event, const char *want)
{
    struct tny_event ev;
    char msg[600];
    int rc = tu_try_event(event, &ev, msg, sizeof(msg));
    if (rc == 0) {
        tny_event_release(&ev);
        fail_msg("accepted, wanted: %s", want);
    }
    if (!strstr(msg, want))
        fail_msg("message: %s\n  wanted: %s", msg, want);
}

/* ---- presets ------------------------------------------------------------ */

/* NSG: 3 a game won, 1 a tie, 0 a loss; SoS, ESoS; single-sided: one game
 * with assigned sides, double-sided: a round's two games as 0..6. */
static void test_issue19_netrunner_presets(void **state)
{
    (void)state;
    struct tny_format f;
    struct tny_diag d = {{0}};
    assert_int_equal(tny_format_preset("netrunner-sss", &f, &d), 0);
    assert_int_equal(f.game, TNY_GAME_NETRUNNER); /* issue 18 item 2 */
    assert_int_equal(f.win_points, P(3));
    assert_int_equal(f.draw_points, P(1));
    assert_int_equal(f.loss_points, 0);
    assert_int_equal(f.bye_points, P(3));
    assert_int_equal(f.n_sides, 2);
    assert_string_equal(f.sides[0], "corp");
    assert_string_equal(f.sides[1], "runner");
    assert_int_equal(f.side_balance, 1);
    assert_true(f.swapped_rematch);
    assert_int_equal(f.stages[0].pairing_cost, TNY_COST_POINTS);
    assert_int_equal(f.stages[0].n_tiebreaks, 3);
    assert_int_equal(f.stages[0].tiebreaks[0], TNY_TB_SOS);
    assert_int_equal(f.stages[0].tiebreaks[1], TNY_TB_ESOS);
    assert_int_equal(f.stages[0].tiebreaks[2], TNY_TB_LOT);

    assert_int_equal(tny_format_preset("netrunner-dss", &f, &d), 0);
    assert_int_equal(f.n_sides, 0); /* both sides every round */
    assert_true(f.points_from_scores);
    assert_int_equal(f.score_min, 0);
    assert_int_equal(f.score_max, 6);
    assert_int_equal(f.bye_points, P(6));
    assert_int_equal(f.stages[0].tiebreaks[0], TNY_TB_SOS);
    assert_int_equal(f.stages[0].tiebreaks[1], TNY_TB_ESOS);

    /* a split (a win each, 3-3) and a win and a tie (4-1) */
    struct tny_event ev;
    struct tny_standings st = {0};
    tu_load_event(
        "{'format':'netrunner-dss','players':[{'id':'a','name':'A'},"
        "{'id':'b','name':'B'},{'id':'c','name':'C'},{'id':'d','name':"
        "'D'}],'rounds':[{'stage':'swiss','tables':["
        "{'table':1,'players':['a','b'],'result':{'scores':{'a':4,"
        "'b':1}}},{'table':2,'players':['c','d'],'result':{'scores':"
        "{'c':3,'d':3}}}]}]}",
        &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &d), 0);
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "a")].points, P(4));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "b")].points, P(1));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "c")].points, P(3));
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* The seeds' presets keep their pairing: score-group steps, no sides. */
static void test_issue19_existing_presets_unchanged(void **state)
{
    (void)state;
    static const char *const names[] = {
        "agricola", "catan",   "got-lcg2", "neuroshima-hex",
        "swiss-2p", "tantrix", "xwing-2.0"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        struct tny_format f;
        struct tny_diag d = {{0}};
        assert_int_equal(tny_format_preset(names[i], &f, &d), 0);
        assert_int_equal(f.n_sides, 0);
        for (int s = 0; s < f.n_stages; s++)
            assert_int_equal(f.stages[s].pairing_cost, TNY_COST_SCORE_GROUPS);
    }
}

/* ---- the event file ----------------------------------------------------- */

#define SSS4                                                                   \
    "{'format':'netrunner-sss','players':[{'id':'a','name':'A'},"              \
    "{'id':'b','name':'B'},{'id':'c','name':'C'},{'id':'d','name':'D'}],"      \
    "'rounds':["
#define T(n, x, y, sx, sy, w)                                                  \
    "{'table':" #n ",'players':['" x "','" y "'],'sides':['" sx "','" sy       \
    "'],'result':{'winner':'" w "'}}"

/* CM-5 with sides (tny_round_plan_sides): after an edit put new pairs at
 * a table, its sides follow the pairing's rule (docs/rules.md "Sides"):
 * a second meeting plays the other sides, else the balance; where the rule
 * leaves it to the lot the table keeps its sides. */
static void test_issue19_CM_5_plan_sides(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag d = {{0}};
    struct tny_pairing_table tabs[2];
    struct tny_round_plan plan = {
        .round = 2, .stage = TNY_STAGE_SWISS, .n_tables = 2, .tables = tabs};
    /* corp = 0, runner = 1; round 1: a runner v b corp, c corp v d runner */
    tu_load_event(SSS4 "{'stage':'swiss','tables':[" T(
                      1, "a", "b", "runner", "corp",
                      "a") "," T(2, "c", "d", "corp", "runner", "d") "]}]}",
                  &ev);
    memset(tabs, 0, sizeof(tabs));
    /* a v b again on their round 1 sides; d v c, both as in round 1 */
    tabs[0] = (struct tny_pairing_table){.number = 1,
                                         .n_seats = 2,
                                         .seats = {0, 1},
                                         .first_seat = -1,
                                         .has_sides = true,
                                         .side = {1, 0}};
    tabs[1] = (struct tny_pairing_table){.number = 2,
                                         .n_seats = 2,
                                         .seats = {3, 2},
                                         .first_seat = -1,
                                         .has_sides = true,
                                         .side = {1, 0}};
    assert_int_equal(tny_round_plan_sides(&ev, &plan, 0, &d), 0);
    assert_int_equal(tabs[0].side[0], 0); /* a: corp now */
    assert_int_equal(tabs[0].side[1], 1);
    /* d v c met too: the other sides (d corp, c runner) */
    assert_int_equal(tny_round_plan_sides(&ev, &plan, 1, &d), 0);
    assert_int_equal(tabs[1].side[0], 0);
    assert_int_equal(tabs[1].side[1], 1);
    /* a fresh pair: a (runner once) v c (corp once): balance, a corp */
    tabs[0].seats[1] = 2;
    tabs[0].side[0] = 1, tabs[0].side[1] = 0;
    assert_int_equal(tny_round_plan_sides(&ev, &plan, 0, &d), 0);
    assert_int_equal(tabs[0].side[0], 0);
    assert_int_equal(tabs[0].side[1], 1);
    /* round 1 itself: no history, the lot's sides stay as they are */
    plan.round = 1;
    for (int8_t k = 0; k < 2; k++) {
        tabs[0].side[0] = k, tabs[0].side[1] = (int8_t)(1 - k);
        assert_int_equal(tny_round_plan_sides(&ev, &plan, 0, &d), 0);
        assert_int_equal(tabs[0].side[0], k);
    }
    assert_int_equal(tny_round_plan_sides(&ev, &plan, 5, &d), TNY_EINVAL);
    tny_event_release(&ev);
}

static void test_issue19_sides_in_the_event_file(void **state)
{
    (void)state;
    struct tny_event ev, back;
    struct tny_diag d = {{0}};
    char *text = NULL;
    /* round trip: the sides stay with their seats */
    tu_load_event(SSS4 "{'stage':'swiss','tables':[" T(
                      1, "a", "b", "runner", "corp",
                      "a") "," T(2, "c", "d", "corp", "runner", "d") "]}]}",
                  &ev);
    assert_true(ev.rounds[0].tables[0].has_sides);
    assert_int_equal(ev.rounds[0].tables[0].side[0], 1);
    assert_int_equal(ev.rounds[0].tables[0].side[1], 0);
    assert_int_equal(tny_event_to_json(&ev, &text), 0);
    assert_non_null(strstr(text, "\"sides\": [\n"));
    assert_int_equal(tny_event_from_json_text(text, strlen(text), &back, &d),
                     0);
    assert_int_equal(back.rounds[0].tables[1].side[0], 0);
    assert_int_equal(back.rounds[0].tables[1].side[1], 1);
    free(text);
    /* the standings count each player's games per side */
    struct tny_standings st = {0};
    assert_int_equal(tny_standings_compute(&back, &st, &d), 0);
    assert_int_equal(tny_standings_to_json(&back, &st, &text), 0);
    assert_non_null(strstr(text, "\"player\": \"a\",\n      \"name\": "
                                 "\"A\",\n      \"points\": 3,"));
    assert_non_null(strstr(text, "\"sides\": {\n        \"corp\": 0,\n"
                                 "        \"runner\": 1\n"));
    free(text);
    tny_standings_release(&st);
    tny_event_release(&back);
    tny_event_release(&ev);

    /* an event without sides reads as before, sides or not */
    tu_load_event(SSS4 "{'stage':'swiss','tables':[{'table':1,'players':['a',"
                       "'b'],'result':{'winner':'a'}}]}]}",
                  &ev);
    assert_false(ev.rounds[0].tables[0].has_sides);
    tny_event_release(&ev);

    fails_with(SSS4 "{'stage':'swiss','tables':[" T(1, "a", "b", "corp",
                                                    "white", "a") "]}]}",
               "event.rounds[0].tables[0].sides[1]: \"white\" is not a side "
               "of format \"netrunner-sss\" (corp, runner)");
    fails_with(SSS4 "{'stage':'swiss','tables':[" T(1, "a", "b", "corp", "corp",
                                                    "a") "]}]}",
               "event.rounds[0].tables[0].sides: \"a\" and \"b\" cannot both "
               "play \"corp\"");
    fails_with(SSS4 "{'stage':'swiss','tables':[{'table':1,'players':['a','b']"
                    ",'sides':['corp'],'result':{'winner':'a'}}]}]}",
               "event.rounds[0].tables[0].sides: expected one side per player");
    /* a second meeting swaps the sides */
    fails_with(SSS4 "{'stage':'swiss','tables':[" T(
                   1, "a", "b", "corp", "runner",
                   "a") "," T(2, "c", "d", "corp", "runner",
                              "c") "]},{'stage':'swiss','tables':"
                                   "[" T(1, "b", "a", "runner", "corp",
                                         "a") "," T(2, "c", "d", "runner",
                                                    "corp", "c") "]}"
                                                                 "]}",
               "event.rounds[1].tables[0].sides: \"a\" and \"b\" meet again on "
               "the same sides as in round 1");
    fails_with("{'format':'xwing-2.0','players':[{'id':'a','name':'A'},{'id':"
               "'b','name':'B'}],'rounds':[{'stage':'swiss','tables':[" T(
                   1, "a", "b", "corp", "runner", "a") "]}]}",
               "event.rounds[0].tables[0].sides: format \"xwing-2.0\" has no "
               "sides");
}

/* ---- pairing ------------------------------------------------------------ */

/* Plays planned round: appends it and gives every table a result. */
static void play(struct tny_event *ev, const struct tny_round_plan *plan,
                 struct tny_rng *rng)
{
    assert_int_equal(tny_event_append_round(ev, plan), 0);
    struct tny_round *r = &ev->rounds[ev->n_rounds - 1];
    for (int32_t t = 0; t < r->n_tables; t++) {
        struct tny_table *tb = &r->tables[t];
        if (tb->is_bye)
            continue;
        tb->has_result = true;
        uint64_t x = tny_rng_below(rng, 10);
        tb->result.winner = x < 9 ? (int32_t)(x & 1) : -1;
        tb->result.draw = x == 9;
    }
}

/* The issue's case: a single-sided event whose leader had met every
 * player who could take the bye once.  Without swapped rematches the only
 * rematch-free pairing gives the leader the bye; with them the bye goes
 * by the bye rule (the lowest-ranked player without a bye) and the leader
 * meets someone again on the other side.  8 players, p8 dropped after
 * round 3, byes to p4, p6, p3; p1 won every game, lower ids win the rest. */
static void
test_issue19_bye_never_to_the_leader_for_a_swapped_rematch(void **state)
{
    (void)state;
    static const int r8[3][4][2] = {{{1, 4}, {2, 3}, {5, 6}, {7, 8}},
                                    {{1, 3}, {2, 6}, {4, 7}, {5, 8}},
                                    {{1, 6}, {2, 8}, {3, 4}, {5, 7}}};
    static const int r7[3][3][2] = {{{1, 5}, {2, 7}, {3, 6}},
                                    {{1, 2}, {3, 7}, {4, 5}},
                                    {{1, 7}, {2, 5}, {4, 6}}};
    static const int byes[3] = {4, 6, 3};
    char buf[8192];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof(buf) - n,
                          "{'format':'netrunner-sss','seed':7,'players':[");
    for (int p = 1; p <= 8; p++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n,
                              "%s{'id':'p%d','name':'P%d'}", p > 1 ? "," : "",
                              p, p);
    n += (size_t)snprintf(buf + n, sizeof(buf) - n,
                          "],'drops':[{'player':'p8','after_round':3}],"
                          "'rounds':[");
    for (int r = 0; r < 6; r++) {
        int nt = r < 3 ? 4 : 3;
        n += (size_t)snprintf(buf + n, sizeof(buf) - n,
                              "%s{'stage':'swiss','tables':[", r ? "," : "");
        for (int t = 0; t < nt; t++) {
            int a = r < 3 ? r8[r][t][0] : r7[r - 3][t][0];
            int b = r < 3 ? r8[r][t][1] : r7[r - 3][t][1];
            n += (size_t)snprintf(buf + n, sizeof(buf) - n,
                                  "%s{'table':%d,'players':['p%d','p%d'],"
                                  "'sides':['%s','%s'],'result':{'winner':"
                                  "'p%d'}}",
                                  t ? "," : "", t + 1, a, b,
                                  (r + t) % 2 ? "corp" : "runner",
                                  (r + t) % 2 ? "runner" : "corp", a);
        }
        if (r >= 3)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, ",{'bye':'p%d'}",
                                  byes[r - 3]);
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "]}");
    }
    snprintf(buf + n, sizeof(buf) - n, "]}");

    struct tny_event ev;
    struct tny_round_plan plan = {0};
    struct tny_standings st = {0};
    struct tny_diag d = {{0}};
    tu_load_event(buf, &ev);
    assert_int_equal(tny_standings_compute(&ev, &st, &d), 0);
    assert_int_equal(st.rows[0].player, 0); /* p1 leads, 18 points */
    assert_int_equal(st.rows[0].points, P(18));
    assert_true(st.rows[1].points < st.rows[0].points);
    /* the bye rule: the lowest-ranked active player without a bye */
    int32_t want = -1;
    for (int32_t i = 0; i < st.n_rows; i++) {
        int32_t p = st.rows[i].player;
        if (p != 7 && p != 3 && p != 5 && p != 2)
            want = p;
    }
    assert_int_not_equal(want, 0);

    /* once only: the leader must take the bye (the behaviour the issue
     * reports) */
    ev.format.swapped_rematch = false;
    assert_int_equal(tny_pair_next(&ev, &plan, &d), 0);
    assert_int_equal(plan.tables[plan.n_tables - 1].seats[0], 0);
    tny_round_plan_release(&plan);

    /* netrunner-sss: a second meeting with the sides swapped is allowed */
    ev.format.swapped_rematch = true;
    assert_int_equal(tny_pair_next(&ev, &plan, &d), 0);
    const struct tny_pairing_table *bye = &plan.tables[plan.n_tables - 1];
    assert_true(bye->is_bye);
    assert_int_equal(bye->seats[0], want);
    assert_non_null(strstr(plan.explain, "meet again with sides swapped"));
    for (int32_t t = 0; t + 1 < plan.n_tables; t++) {
        const struct tny_pairing_table *pt = &plan.tables[t];
        assert_true(pt->has_sides);
        assert_int_equal(pt->side[0] + pt->side[1], 1);
        /* a pair that met plays the other sides */
        for (int32_t r = 0; r < ev.n_rounds; r++)
            for (int32_t k = 0; k < ev.rounds[r].n_tables; k++) {
                const struct tny_table *tb = &ev.rounds[r].tables[k];
                int32_t sa = tny_table_seat_of(tb, pt->seats[0]);
                if (tb->is_bye || sa < 0 ||
                    tny_table_seat_of(tb, pt->seats[1]) < 0)
                    continue;
                assert_int_not_equal(tb->side[sa], pt->side[0]);
            }
    }
    tny_round_plan_release(&plan);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* Is there a perfect matching of the players in `left` (a bit set) that
 * avoids every pair in `forbid`? (brute force, n <= 16) */
static bool perfect_avoiding(uint32_t left, const uint32_t *forbid)
{
    if (!left)
        return true;
    int a = __builtin_ctz(left);
    for (int b = a + 1; b < 32; b++)
        if ((left >> b & 1) && !(forbid[a] >> b & 1) &&
            perfect_avoiding(left & ~(1u << a) & ~(1u << b), forbid))
            return true;
    return false;
}

/* Simulated single-sided events (n = 6..14, the preset's 7 rounds, random
 * wins and ties; odd cases also random n and a drop): after every round
 * no pair has met three times or twice on the same sides; a player whose
 * side is not free (balance 1 already) gets the side they need unless the
 * pair cannot give both theirs (a side conflict: both need the same side,
 * or a swapped rematch forces it), and the explanation counts exactly
 * those tables; with an even field and no drops (no byes) every player's
 * games on each side differ by at most 1 after every round; and the bye
 * went to the first player in the bye order (the lowest-ranked without a
 * bye) for whom the others can still be paired without a forbidden
 * rematch: never to a leader when that player exists.  (That the number
 * of side conflicts is the least possible is test_swiss's brute force.) */
static void test_issue19_sss_simulated_events(void **state)
{
    (void)state;
    struct tny_rng rng;
    tny_rng_seed(&rng, 19);
    int cases = tu_property_cases(3000) / 30;
    for (int c = 0; c < cases; c++) {
        const bool even = c % 2 == 0;
        int32_t n = 6 + (int32_t)tny_rng_below(&rng, 9);
        n -= even ? n % 2 : 0;
        char buf[2048];
        size_t len = (size_t)snprintf(buf, sizeof(buf),
                                      "{'format':'netrunner-sss','seed':%d,"
                                      "'players':[",
                                      c);
        for (int32_t p = 0; p < n; p++)
            len += (size_t)snprintf(buf + len, sizeof(buf) - len,
                                    "%s{'id':'p%d','name':'P%d'}", p ? "," : "",
                                    (int)p, (int)p);
        snprintf(buf + len, sizeof(buf) - len, "]}");
        struct tny_event ev;
        struct tny_diag d = {{0}};
        tu_load_event(buf, &ev);
        int32_t meets[16][16] = {{0}}, first_side[16][16];
        int32_t n0[16] = {0}, n1[16] = {0};
        bool had_bye[16] = {false};
        for (int32_t r = 1; r <= 7; r++) {
            struct tny_round_plan plan = {0};
            struct tny_standings st = {0};
            if (!even && r == 4 && tny_rng_below(&rng, 2)) { /* a drop */
                int32_t p = (int32_t)tny_rng_below(&rng, (uint64_t)n);
                ev.players[p].dropped_after = 3;
            }
            assert_int_equal(tny_standings_compute(&ev, &st, &d), 0);
            int rc = tny_pair_next(&ev, &plan, &d);
            if (rc)
                fail_msg("case %d round %d: %s", c, (int)r, d.msg);
            /* the bye (rounds after the first: round 1's is by lot) */
            int32_t bye = -1;
            for (int32_t t = 0; t < plan.n_tables; t++)
                if (plan.tables[t].is_bye)
                    bye = plan.tables[t].seats[0];
            if (bye >= 0 && r > 1) {
                uint32_t active = 0, forbid[16] = {0};
                for (int32_t p = 0; p < n; p++)
                    if (tny_player_active_in(&ev.players[p], r))
                        active |= 1u << p;
                for (int32_t a = 0; a < n; a++)
                    for (int32_t b = 0; b < n; b++)
                        if (meets[a][b] >= 2)
                            forbid[a] |= 1u << b;
                int32_t first = -1;
                for (int32_t i = st.n_rows - 1; i >= 0 && first < 0; i--) {
                    int32_t p = st.rows[i].player;
                    if ((active >> p & 1) && !had_bye[p] &&
                        perfect_avoiding(active & ~(1u << p), forbid))
                        first = p;
                }
                if (first >= 0 && first != bye)
                    fail_msg("case %d round %d: bye to p%d, the bye rule "
                             "gives p%d",
                             c, (int)r, (int)bye, (int)first);
            }
            play(&ev, &plan, &rng);
            int32_t broken = 0;
            const struct tny_round *rd = &ev.rounds[ev.n_rounds - 1];
            for (int32_t t = 0; t < rd->n_tables; t++) {
                const struct tny_table *tb = &rd->tables[t];
                if (tb->is_bye) {
                    had_bye[tb->seats[0]] = true;
                    continue;
                }
                int32_t a = tb->seats[0], b = tb->seats[1];
                assert_true(tb->has_sides);
                assert_int_equal(tb->side[0] + tb->side[1], 1);
                /* the side each needs: -1 free, else the one played less */
                int32_t na = n0[a] == n1[a] ? -1 : n0[a] > n1[a],
                        nb = n0[b] == n1[b] ? -1 : n0[b] > n1[b];
                bool forced = meets[a][b] == 1;
                bool breaks = (na >= 0 && tb->side[0] != na) ||
                              (nb >= 0 && tb->side[1] != nb);
                if (breaks && !forced && na != nb)
                    fail_msg("case %d round %d: p%d v p%d: sides against "
                             "the balance rule",
                             c, (int)r, (int)a, (int)b);
                broken += breaks;
                if (meets[a][b] == 1 && first_side[a][b] == tb->side[0])
                    fail_msg("case %d round %d: p%d v p%d again on the "
                             "same sides",
                             c, (int)r, (int)a, (int)b);
                if (++meets[a][b] > 2)
                    fail_msg("case %d round %d: p%d v p%d a third time", c,
                             (int)r, (int)a, (int)b);
                meets[b][a] = meets[a][b];
                first_side[a][b] = tb->side[0];
                first_side[b][a] = tb->side[1];
                (tb->side[0] ? n1 : n0)[a]++;
                (tb->side[1] ? n1 : n0)[b]++;
            }
            char want[64];
            snprintf(want, sizeof(want), "sides: %d pair", (int)broken);
            if (!strstr(plan.explain, want))
                fail_msg("case %d round %d: %d side conflicts, explained: %s",
                         c, (int)r, (int)broken, plan.explain);
            for (int32_t p = 0; even && p < n; p++)
                if (abs(n0[p] - n1[p]) > 1)
                    fail_msg("case %d round %d: p%d has %d corp and %d "
                             "runner games\n%s",
                             c, (int)r, (int)p, (int)n0[p], (int)n1[p],
                             plan.explain);
            tny_round_plan_release(&plan);
            tny_standings_release(&st);
        }
        /* the event file keeps it all */
        char *text = NULL;
        struct tny_event back;
        assert_int_equal(tny_event_to_json(&ev, &text), 0);
        if (tny_event_from_json_text(text, strlen(text), &back, &d))
            fail_msg("case %d: %s", c, d.msg);
        tny_event_release(&back);
        free(text);
        tny_event_release(&ev);
    }
}

/* ---- pairing cost (item 4) ---------------------------------------------- */

/* Scores 15, 14, 14, 13, 12, 6 with the groups 15 | 14 14 | 13 | 12 | 6
 * (the gap 12..6 is one group step); pairs met: 15-14b, 14a-6, 14b-13,
 * 14b-12, 12-6.  Squared group steps: 15 v 14a, 14b v 6, 13 v 12 costs
 * 1 + 9 + 1 = 11 (the alternative 15 v 12, 14a v 14b, 13 v 6 costs 9 + 0 +
 * 4 = 13); squared points: 1 + 64 + 1 = 66 against 9 + 0 + 49 = 58, so
 * "points" pairs 15 v 12, 14 v 14, 13 v 6 (Cobra's choice: no 8-point
 * pair-down). */
static void test_issue19_pairing_cost_points(void **state)
{
    (void)state;
    struct tny_swiss_player pl[6] = {{15, 5}, {14, 4}, {14, 3},
                                     {13, 2}, {12, 1}, {6, 0}};
    int32_t met[] = {0, 2, 1, 5, 2, 3, 2, 4, 4, 5};
    for (int cost = 0; cost < 2; cost++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            struct tny_swiss_request req = {
                .n_players = 6,
                .players = pl,
                .met = met,
                .n_met = 5,
                .seed = seed,
                .round = 4,
                .order = TNY_SWISS_LOT,
                .cost = cost ? TNY_SWISS_COST_POINTS : TNY_SWISS_COST_GROUPS};
            struct tny_swiss_pairing p;
            struct tny_diag d = {{0}};
            assert_int_equal(tny_swiss_pair(&req, &p, &d), 0);
            assert_int_equal(p.n_pairs, 3);
            static const int32_t want[2][3][2] = {{{0, 1}, {2, 5}, {3, 4}},
                                                  {{0, 4}, {1, 2}, {3, 5}}};
            for (int i = 0; i < 3; i++) {
                assert_int_equal(p.pairs[i][0], want[cost][i][0]);
                assert_int_equal(p.pairs[i][1], want[cost][i][1]);
            }
            if (cost)
                assert_non_null(strstr(p.explain, "pairing cost \"points\""));
            else
                assert_null(strstr(p.explain, "pairing cost"));
            tny_swiss_pairing_release(&p);
        }
}

/* The option in a format file: parsed, printed, checked. */
static void test_issue19_pairing_cost_in_format_files(void **state)
{
    (void)state;
    struct tny_format f;
    struct tny_diag d = {{0}};
    char *text = NULL;
    assert_int_equal(tny_format_preset("netrunner-sss", &f, &d), 0);
    assert_int_equal(tny_format_to_json(&f, &text), 0);
    assert_non_null(strstr(text, "\"pairing_cost\": \"points\""));
    free(text);
    assert_int_equal(tny_format_preset("swiss-2p", &f, &d), 0);
    assert_int_equal(tny_format_to_json(&f, &text), 0);
    assert_null(strstr(text, "pairing_cost"));
    free(text);
    fails_with("{'format':{'name':'m','title':'M','game':'two-player',"
               "'players_per_table':2,'points':{'win':1},'stages':[{'name':"
               "'S','kind':'swiss','pairing':'swiss','rounds':3,"
               "'pairing_cost':'squares','tiebreaks':['lot']}]},'players':[]}",
               "event.format.stages[0].pairing_cost: unknown pairing cost "
               "\"squares\" (expected one of: score_groups, points)");
    fails_with("{'format':{'name':'m','title':'M','game':'two-player',"
               "'players_per_table':2,'points':{'win':1},'stages':[{'name':"
               "'S','kind':'swiss','pairing':'swiss','rounds':3,'tiebreaks':"
               "['lot']}],'sides':{'names':['white','white']}},'players':[]}",
               "event.format.sides.names: \"white\" listed twice");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue19_netrunner_presets),
        cmocka_unit_test(test_issue19_existing_presets_unchanged),
        cmocka_unit_test(test_issue19_sides_in_the_event_file),
        cmocka_unit_test(test_issue19_CM_5_plan_sides),
        cmocka_unit_test(
            test_issue19_bye_never_to_the_leader_for_a_swapped_rematch),
        cmocka_unit_test(test_issue19_sss_simulated_events),
        cmocka_unit_test(test_issue19_pairing_cost_points),
        cmocka_unit_test(test_issue19_pairing_cost_in_format_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
