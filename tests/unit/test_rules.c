/* test_rules.c - event-level rules: entries, drops, edits, table numbers,
 * result validation and the Agricola rankings, from the rule text.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/standings.h"

#define P(x) ((int64_t)((x)*TNY_POINT_SCALE + 0.5))

static int32_t idx(const struct tny_event *ev, const char *id)
{
    int32_t i = tny_event_player_index(ev, id);
    assert_true(i >= 0);
    return i;
}

static void plan(const struct tny_event *ev, struct tny_round_plan *out)
{
    struct tny_diag diag = {{0}};
    if (tny_pair_next(ev, out, &diag) != 0)
        fail_msg("pair failed: %s", diag.msg);
}

static const struct tny_pairing_table *table_of(const struct tny_round_plan *p,
                                                int32_t player)
{
    for (int32_t t = 0; t < p->n_tables; t++)
        for (int32_t s = 0; s < p->tables[t].n_seats; s++)
            if (p->tables[t].seats[s] == player)
                return &p->tables[t];
    return NULL;
}

#define SIX_GT                                                                 \
    "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},"                  \
    "{'id':'c','name':'C'},{'id':'d','name':'D'},{'id':'e','name':'E'},"       \
    "{'id':'f','name':'F'}]"

/* CM-1: a late entrant is paired from their first round; the rounds they
 * missed count as losses with no points. */
static void test_CM_1_late_entry(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'got-lcg2','seed':4,'options':{'structure':"
                  "'custom','swiss_rounds':3,'cut':0},'players':["
                  "{'id':'a','name':'A'},{'id':'b','name':'B'},"
                  "{'id':'c','name':'C'},{'id':'d','name':'D'},"
                  "{'id':'e','name':'E','late_from_round':2}],'rounds':["
                  "{'stage':'swiss','tables':["
                  "{'table':1,'players':['a','b'],'result':{'winner':'a'}},"
                  "{'table':2,'players':['c','d'],'result':{'winner':'c'}}]}]}",
                  &ev);
    struct tny_round_plan p;
    plan(&ev, &p);
    assert_non_null(table_of(&p, idx(&ev, "e"))); /* plays round 2 */
    tny_round_plan_release(&p);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    int r = tu_row_of(&ev, &st, "e");
    assert_int_equal(st.rows[r].points, 0);
    assert_int_equal(st.rows[r].games_played, 0);
    tny_standings_release(&st);
    tny_event_release(&ev);

    /* A late entrant may not appear in a round before their first. */
    char msg[600];
    assert_int_not_equal(
        tu_try_event("{'format':'got-lcg2','seed':4,'players':["
                     "{'id':'a','name':'A'},{'id':'e','name':'E',"
                     "'late_from_round':2}],'rounds':[{'stage':'swiss',"
                     "'tables':[{'table':1,'players':['a','e'],'result':"
                     "{'winner':'a'}}]}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_non_null(strstr(msg, "\"e\""));
}

/* CM-2: a dropped player is not paired from the next round on. GT-11: a
 * rejoined player is paired again. CM-3: a DQ'd player never again. */
static void test_CM_2_GT_11_drop_and_rejoin(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'got-lcg2','seed':4,'options':{'structure':"
                  "'custom','swiss_rounds':4,'cut':0}," SIX_GT ","
                  "'drops':[{'player':'a','after_round':1,'rejoin_round':3},"
                  "{'player':'b','after_round':1}],"
                  "'disqualified':[{'player':'c','after_round':1}],'rounds':["
                  "{'stage':'swiss','tables':["
                  "{'table':1,'players':['a','b'],'result':{'winner':'a'}},"
                  "{'table':2,'players':['c','d'],'result':{'winner':'c'}},"
                  "{'table':3,'players':['e','f'],'result':{'winner':'e'}}]}]}",
                  &ev);
    struct tny_round_plan p;
    plan(&ev, &p);
    assert_null(table_of(&p, idx(&ev, "a")));
    assert_null(table_of(&p, idx(&ev, "b")));
    assert_null(table_of(&p, idx(&ev, "c")));
    assert_non_null(table_of(&p, idx(&ev, "d")));
    assert_true(tny_player_active_in(&ev.players[idx(&ev, "a")], 3));
    assert_false(tny_player_active_in(&ev.players[idx(&ev, "c")], 3));
    tny_round_plan_release(&p);
    tny_event_release(&ev);
}

/* GT-11: "may ask to rejoin in the same stage": a rejoin round in the
 * elimination stage (custom: 3 Swiss rounds, top 4) is refused naming
 * both stages, never ignored; one in the Swiss stage is kept. */
static void test_GT_11_rejoin_in_another_stage_refused(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[600];
    int rc = tu_try_event(
        "{'format':'got-lcg2','seed':4,'options':{'structure':'custom',"
        "'swiss_rounds':3,'cut':4}," SIX_GT ","
        "'drops':[{'player':'a','after_round':1,'rejoin_round':4}]}",
        &ev, msg, sizeof(msg));
    assert_int_equal(rc, TNY_EINVAL);
    assert_non_null(strstr(msg, "player \"a\": rejoin round 4"));
    assert_non_null(strstr(msg, "elimination"));
    assert_non_null(strstr(msg, "GT-11"));
    rc = tu_try_event(
        "{'format':'got-lcg2','seed':4,'options':{'structure':'custom',"
        "'swiss_rounds':3,'cut':0}," SIX_GT ","
        "'drops':[{'player':'a','after_round':1,'rejoin_round':4}]}",
        &ev, msg, sizeof(msg));
    assert_int_equal(rc, TNY_EINVAL);
    assert_non_null(strstr(msg, "after the last round"));
    tu_load_event("{'format':'got-lcg2','seed':4,'options':{'structure':"
                  "'custom','swiss_rounds':3,'cut':4}," SIX_GT ","
                  "'drops':[{'player':'a','after_round':1,'rejoin_round':3}]}",
                  &ev);
    assert_int_equal(ev.players[0].rejoined_from, 3);
    tny_event_release(&ev);
}

/* CM-9: the top of the standings plays on table 1; CM-5: a fixed table
 * overrides the numbering, and pre-publish edits swap and move. */
static void test_CM_9_CM_5_table_numbers_and_edits(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event(
        "{'format':'got-lcg2','seed':9,'options':{'structure':"
        "'custom','swiss_rounds':4,'cut':0},'players':["
        "{'id':'a','name':'A'},{'id':'b','name':'B'},"
        "{'id':'c','name':'C'},{'id':'d','name':'D'},"
        "{'id':'e','name':'E'},{'id':'f','name':'F','fixed_table':7}],"
        "'rounds':[{'stage':'swiss','tables':["
        "{'table':1,'players':['a','b'],'result':{'winner':'a'}},"
        "{'table':2,'players':['c','d'],'result':{'winner':'c'}},"
        "{'table':3,'players':['e','f'],'result':{'winner':'e'}}]}]}",
        &ev);
    struct tny_round_plan p;
    plan(&ev, &p);
    /* f has the fixed table 7 */
    assert_int_equal(table_of(&p, idx(&ev, "f"))->number, 7);
    /* the winners' group (a, c, e: 5 points) sits on the lowest numbers
     * that are not fixed: the best-ranked pairing is on table 1 */
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    const struct tny_pairing_table *top = table_of(&p, st.rows[0].player);
    if (top->number != 7)
        assert_int_equal(top->number, 1);
    tny_standings_release(&st);

    /* swap two players of different tables */
    const struct tny_pairing_table *ta = table_of(&p, idx(&ev, "a"));
    int32_t a_table = ta->number;
    int32_t other = -1;
    for (int32_t t = 0; t < p.n_tables && other < 0; t++)
        if (p.tables[t].number != a_table && !p.tables[t].is_bye)
            other = p.tables[t].seats[0];
    int32_t other_table = table_of(&p, other)->number;
    assert_int_equal(tny_round_plan_swap(&p, idx(&ev, "a"), other, &diag), 0);
    assert_int_equal(table_of(&p, idx(&ev, "a"))->number, other_table);
    assert_int_equal(table_of(&p, other)->number, a_table);
    assert_int_equal(
        tny_round_plan_swap(&p, idx(&ev, "a"), idx(&ev, "a"), &diag),
        TNY_EINVAL);
    /* move a table to number 12, then onto 12's spot from another */
    assert_int_equal(tny_round_plan_move(&p, a_table, 12, &diag), 0);
    assert_int_equal(table_of(&p, other)->number, 12);
    assert_int_equal(tny_round_plan_move(&p, 99, 1, &diag), TNY_ENOTFOUND);
    tny_round_plan_release(&p);
    tny_event_release(&ev);
}

/* CM-6: a result is accepted only if complete and in range; the error
 * names the path and the player. */
static void test_CM_6_result_validation(void **state)
{
    (void)state;
    struct {
        const char *event;
        const char *expect;
    } cases[] = {
        {"{'format':'catan','seed':1,'players':[{'id':'a','name':'A'},"
         "{'id':'b','name':'B'},{'id':'c','name':'C'}],'rounds':[{'stage':"
         "'round','tables':[{'table':1,'players':['a','b','c'],'result':"
         "{'vp':{'a':10,'b':-1,'c':3}}}]}]}",
         "vp.b"},
        {"{'format':'neuroshima-hex','seed':1,'players':[{'id':'a','name':"
         "'A'},{'id':'b','name':'B'}],'rounds':[{'stage':'swiss','tables':"
         "[{'table':1,'players':['a','b'],'result':{'winner':'a','hq_diff':"
         "99}}]}]}",
         "hq_diff"},
        {"{'format':'tantrix','seed':1,'players':[{'id':'a','name':'A'},"
         "{'id':'b','name':'B'}],'rounds':[{'stage':'swiss','tables':["
         "{'table':1,'players':['a','b'],'result':{'scores':{'a':10,"
         "'b':9999}}}]}]}",
         "scores.b"},
        {"{'format':'got-lcg2','seed':1,'players':[{'id':'a','name':'A'},"
         "{'id':'b','name':'B'},{'id':'c','name':'C'}],'rounds':[{'stage':"
         "'swiss','tables':[{'table':1,'players':['a','b'],'result':"
         "{'winner':'c'}}]}]}",
         "winner"},
        {"{'format':'got-lcg2','seed':1,'players':[{'id':'a','name':'A'},"
         "{'id':'b','name':'B'}],'rounds':[{'stage':'swiss','tables':["
         "{'table':1,'players':['a','b'],'result':{'winner':'a'}},"
         "{'table':2,'players':['b','a'],'result':{'winner':'a'}}]}]}",
         "twice"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tny_event ev;
        char msg[600];
        int rc = tu_try_event(cases[i].event, &ev, msg, sizeof(msg));
        if (rc == 0) {
            tny_event_release(&ev);
            fail_msg("case %zu accepted", i);
        }
        if (!strstr(msg, cases[i].expect))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, msg,
                     cases[i].expect);
    }
}

#define NH_ARMIES(x)                                                           \
    "{'id':'" x "','name':'" x "','armies':['Borgo','Moloch','Hegemony',"      \
    "'Outpost','Vegas']}"

/* NH-11: an army is played in at most one Swiss match; NH-10 armies are
 * the player's own. */
static void test_NH_11_army_used_twice_refused(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[600];
    int rc = tu_try_event(
        "{'format':'neuroshima-hex','seed':1,'players':[" NH_ARMIES(
            "a") "," NH_ARMIES("b") "],'rounds':["
                                    "{'stage':'swiss','tables':[{'table':1,'"
                                    "players':['a','b'],'result':"
                                    "{'winner':'a','hq_diff':3,'armies':{'a':'"
                                    "Borgo','b':'Moloch'}}}]},"
                                    "{'stage':'swiss','tables':[{'table':1,'"
                                    "players':['a','b'],'result':"
                                    "{'winner':'b','hq_diff':3,'armies':{'a':'"
                                    "Borgo','b':'Vegas'}}}]}]}",
        &ev, msg, sizeof(msg));
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(msg, "Borgo"));
    assert_non_null(strstr(msg, "NH-11"));

    rc = tu_try_event(
        "{'format':'neuroshima-hex','seed':1,'players':[" NH_ARMIES(
            "a") "," NH_ARMIES("b") "],'rounds':["
                                    "{'stage':'swiss','tables':[{'table':1,'"
                                    "players':['a','b'],'result':"
                                    "{'winner':'a','hq_diff':3,'armies':{'a':'"
                                    "Dancer','b':'Moloch'}}}]}]}",
        &ev, msg, sizeof(msg));
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(msg, "Dancer"));
}

#define NH_TOP4_EVENT(decl_a)                                                  \
    "{'format':'neuroshima-hex','seed':5,'options':{'swiss_rounds':2,"         \
    "'cut':4},'players':[{'id':'a','name':'a','armies':['Borgo','Moloch',"     \
    "'Hegemony','Outpost','Vegas']" decl_a                                     \
    "}," NH_ARMIES("b") "," NH_ARMIES("c") "," NH_ARMIES("d") "," NH_ARMIES(   \
        "e") "," NH_ARMIES("f") "," NH_ARMIES("g") "," NH_ARMIES("h") "]}"

/* NH-11, seed 000 5.3: "Gdy Gracz awansuje do rund finałowych musi ze
 * swoich armii wybrać ... trzy (Top 4) ... cztery (Top 8)": a declaration
 * names exactly that many of the player's armies; the first knockout round
 * is not paired while a qualifier has not declared; in the knockout only
 * declared armies are accepted. */
static void test_NH_11_knockout_declaration(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_round_plan p;
    struct tny_diag diag = {{0}};
    struct tny_rng rng;
    char msg[600];

    tu_load_event(NH_TOP4_EVENT(""), &ev);
    assert_int_equal(tny_nh_knockout_army_count(&ev), 3);
    tny_event_release(&ev);
    tu_load_event("{'format':'neuroshima-hex','seed':5,'players':[]}", &ev);
    assert_int_equal(tny_nh_knockout_army_count(&ev), 4); /* top 8 preset */
    tny_event_release(&ev);

    assert_int_equal(tu_try_event(NH_TOP4_EVENT(",'knockout_armies':['Borgo',"
                                                "'Moloch']"),
                                  &ev, msg, sizeof(msg)),
                     TNY_EINVAL);
    assert_non_null(strstr(msg, "expected 3 armies"));
    assert_int_equal(
        tu_try_event(NH_TOP4_EVENT(",'knockout_armies':['Borgo','Moloch',"
                                   "'Dancer']"),
                     &ev, msg, sizeof(msg)),
        TNY_EINVAL);
    assert_non_null(strstr(msg, "\"Dancer\" is not one of the player's"));
    assert_int_equal(
        tu_try_event(NH_TOP4_EVENT(",'knockout_armies':['Borgo','Borgo',"
                                   "'Vegas']"),
                     &ev, msg, sizeof(msg)),
        TNY_EINVAL);
    assert_non_null(strstr(msg, "twice"));

    /* Two Swiss rounds, then the knockout: refused until all declare. */
    tu_load_event(NH_TOP4_EVENT(""), &ev);
    tny_rng_seed(&rng, 3);
    for (int r = 0; r < 2; r++) {
        assert_int_equal(tny_pair_next(&ev, &p, &diag), 0);
        assert_int_equal(tny_event_append_round(&ev, &p), 0);
        tny_round_plan_release(&p);
        struct tny_round *round = &ev.rounds[ev.n_rounds - 1];
        for (int32_t t = 0; t < round->n_tables; t++)
            assert_int_equal(
                tny_simulate_result(&ev, ev.n_rounds - 1, round->stage,
                                    &round->tables[t], &rng, &diag),
                0);
    }
    assert_int_equal(tny_pair_next(&ev, &p, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "NH-11"));
    assert_non_null(strstr(diag.msg, "declares 3"));
    assert_non_null(strstr(diag.msg, "4 have not"));
    tny_simulate_declarations(&ev, &rng);
    for (int32_t i = 0; i < ev.n_players; i++)
        assert_int_equal(ev.players[i].n_ko_armies, 3);
    assert_int_equal(tny_event_validate(&ev, &diag), 0);
    assert_int_equal(tny_pair_next(&ev, &p, &diag), 0);
    assert_int_equal(tny_event_append_round(&ev, &p), 0);
    tny_round_plan_release(&p);
    /* A knockout result with an army the player did not declare. */
    struct tny_table *tb = &ev.rounds[2].tables[0];
    const struct tny_player *pl = &ev.players[tb->seats[0]];
    int32_t undeclared = -1;
    for (int32_t i = 0; i < pl->n_armies && undeclared < 0; i++) {
        bool in = false;
        for (int32_t k = 0; k < pl->n_ko_armies; k++)
            in |= pl->ko_armies[k] == pl->armies[i];
        if (!in)
            undeclared = pl->armies[i];
    }
    assert_true(undeclared >= 0);
    assert_int_equal(
        tny_simulate_result(&ev, 2, TNY_STAGE_ELIMINATION, tb, &rng, &diag), 0);
    assert_int_equal(tny_event_validate(&ev, &diag), 0); /* declared ones */
    tb->result.army[0] = undeclared;
    assert_int_equal(tny_event_validate(&ev, &diag), TNY_EINVAL);
    assert_non_null(strstr(diag.msg, "not one of the armies declared"));
    tny_event_release(&ev);
}

/* NH-10, seed 000 5.1: "Jeśli Gracz planuje wykorzystywać podczas gier
 * żetony wymienne do tych armii także zgłasza ten fakt": the Iron Gang
 * Hook is recorded at registration, only with Iron Gang, and written back. */
static void test_NH_10_hook_recorded_at_registration(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[600], *text = NULL;
    tu_load_event("{'format':'neuroshima-hex','seed':1,'players':[{'id':'a',"
                  "'name':'A','armies':['Borgo','Moloch','Iron Gang',"
                  "'Outpost','Vegas'],'hook':true}]}",
                  &ev);
    assert_true(ev.players[0].hook);
    assert_int_equal(tny_event_to_json(&ev, &text), 0);
    assert_non_null(strstr(text, "\"hook\": true"));
    free(text);
    tny_event_release(&ev);
    assert_int_equal(tu_try_event("{'format':'neuroshima-hex','seed':1,"
                                  "'players':[" NH_ARMIES("a") "]}",
                                  &ev, msg, sizeof(msg)),
                     0);
    assert_false(ev.players[0].hook);
    tny_event_release(&ev);
    assert_int_equal(tu_try_event("{'format':'neuroshima-hex','seed':1,"
                                  "'players':[{'id':'a','name':'A','armies':"
                                  "['Borgo','Moloch','Hegemony','Outpost',"
                                  "'Vegas'],'hook':true}]}",
                                  &ev, msg, sizeof(msg)),
                     TNY_EINVAL);
    assert_non_null(strstr(msg, "players[0].hook"));
    assert_non_null(strstr(msg, "Iron Gang"));
}

/* NH-10: exactly 5 different armies from the legal list. */
static void test_NH_10_army_list(void **state)
{
    (void)state;
    struct tny_event ev;
    char msg[600];
    assert_int_not_equal(
        tu_try_event("{'format':'neuroshima-hex','seed':1,'players':[{'id':"
                     "'a','name':'A','armies':['Borgo','Moloch']}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_non_null(strstr(msg, "armies"));
    assert_int_not_equal(
        tu_try_event("{'format':'neuroshima-hex','seed':1,'players':[{'id':"
                     "'a','name':'A','armies':['Borgo','Moloch','Hegemony',"
                     "'Outpost','Atlantis']}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_non_null(strstr(msg, "Atlantis"));
}

/* TX-4: an organiser decision enters TP by hand; TX-7: a late-result
 * penalty deducts TP from both players. TX-1: the margin is winner score
 * minus loser score. */
static void test_TX_4_TX_7_TX_1_decisions_and_penalties(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'tantrix','seed':1,'players':[{'id':'a','name':"
                  "'A'},{'id':'b','name':'B'},{'id':'c','name':'C'},{'id':'d',"
                  "'name':'D'}],'rounds':[{'stage':'swiss','tables':["
                  "{'table':1,'players':['a','b'],'result':{'tp':{'a':14.0,"
                  "'b':6.0}}},"
                  "{'table':2,'players':['c','d'],'result':{'scores':{'c':20,"
                  "'d':20},'penalty':{'c':1.0,'d':1.0}}}]}]}",
                  &ev);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "a")].points, P(14));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "b")].points, P(6));
    /* margin 0 -> 10.0 each, minus the 1.0 penalty */
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "c")].points, P(9));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "d")].points, P(9));
    tny_standings_release(&st);
    tny_event_release(&ev);
}

#define AG8                                                                    \
    "'players':[{'id':'a','name':'A'},{'id':'b','name':'B'},"                  \
    "{'id':'c','name':'C'},{'id':'d','name':'D'},{'id':'e','name':'E'},"       \
    "{'id':'f','name':'F'},{'id':'g','name':'G'},{'id':'h','name':'H'}]"
#define AG_T(n, p1, p2, p3, p4, v1, v2, v3, v4)                                \
    "{'table':" #n ",'players':['" p1 "','" p2 "','" p3 "','" p4 "'],"         \
    "'result':{'vp':{'" p1 "':" #v1 ",'" p2 "':" #v2 ",'" p3 "':" #v3 ",'" p4  \
    "':" #v4 "},'ip':{'" p1 "':0,'" p2 "':0,'" p3 "':0,'" p4 "':0},'bp':{'" p1 \
    "':0,'" p2 "':0,'" p3 "':0,'" p4 "':0}}}"

/* AG-1 + AG-8: total TP, then total relative score, then the best single
 * relative score. */
static void test_AG_8_AG_1_ranking(void **state)
{
    (void)state;
    struct tny_event ev;
    /* Game 1: a 40 (10), b 30 (6), c 20 (3), d 10 (1); mean 25.
     *         e 60 (10), f 30 (6), g 20 (3), h 10 (1); mean 30.
     * Game 2: a 30 (3), e 50 (10), b 40 (6), f 20 (1) mean 35;
     *         c 45 (10), g 35 (6), d 25 (3), h 15 (1) mean 30.
     * TP: a 13, b 12, c 13, d 4, e 20, f 7, g 9, h 2.
     * Relative: a 15 - 5 = 10, c -5 + 15 = 10: equal; best single:
     * a 15, c 15: equal -> lot between a and c.  b: 5 + 5 = 10. */
    tu_load_event("{'format':'agricola','seed':3," AG8 ",'rounds':["
                  "{'stage':'prelim','tables':[" AG_T(
                      1, "a", "b", "c", "d", 40, 30, 20,
                      10) "," AG_T(2, "e", "f", "g", "h", 60, 30, 20,
                                   10) "]},"
                                       "{'stage':'prelim','tables':[" AG_T(
                                           1, "a", "e", "b", "f", 30, 50, 40,
                                           20) "," AG_T(2, "c", "g", "d", "h",
                                                        45, 35, 25, 15) "]}]}",
                  &ev);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(st.rows[0].player, idx(&ev, "e"));
    int ra = tu_row_of(&ev, &st, "a"), rc = tu_row_of(&ev, &st, "c");
    assert_true((ra == 1 && rc == 2) || (ra == 2 && rc == 1));
    assert_true(st.rows[1].decided_by_lot);
    assert_int_equal(tu_row_of(&ev, &st, "b"), 3);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* AG-13: after the final, players are ranked table by table of final game
 * 2; within a table by total TP, then placement in the final game. */
static void test_AG_13_final_ranking_by_table(void **state)
{
    (void)state;
    struct tny_event ev;
    /* An 8-player event: the final tables hold all players.  Whoever sits
     * at final-2 table 1 ranks 1-4 whatever their TP. */
    tu_load_event(
        "{'format':'agricola','seed':3," AG8 ",'rounds':["
        "{'stage':'prelim','tables':[" AG_T(1, "a", "b", "c", "d", 40, 30, 20, 10) "," AG_T(
            2, "e", "f", "g", "h", 40, 30, 20,
            10) "]},"
                "{'stage':'prelim','tables':[" AG_T(1, "a", "f", "c", "h", 40, 30, 20, 10) "," AG_T(
                    2, "e", "b",
                    "g", "d", 40, 30, 20,
                    10) "]},"
                        "{'stage':'prelim','tables':[" AG_T(
                            1, "a", "f",
                            "g", "d", 40, 30, 20,
                            10) "," AG_T(2, "e", "b", "c", "h", 40, 30, 20,
                                         10) "]},"
                                             "{'stage':'final','tables':"
                                             "[" AG_T(1, "a", "b", "g", "h", 40, 30, 20, 10) "," AG_T(
                                                 2, "e",
                                                 "f", "c", "d", 40, 30, 20,
                                                 10) "]},"
                                                     "{'stage':'final','"
                                                     "tables':[" AG_T(
                                                         1, "d", "c",
                                                         "h", "b", 40, 30,
                                                         20,
                                                         10) "," AG_T(2, "a",
                                                                      "e", "f",
                                                                      "g", 40,
                                                                      30, 20,
                                                                      10) "]}]"
                                                                          "}",
        &ev);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    /* table 1 of final game 2: d, c, h, b -> ranks 1..4 */
    const char *table1[] = {"b", "c", "d", "h"};
    for (int i = 0; i < 4; i++)
        assert_true(tu_row_of(&ev, &st, table1[i]) < 4);
    /* Within table 1, total TP: b 6+6+6+7.5+1.25 = 26.75, c 3+3+3+3.75+7.5
     * = 20.25, d 1+1+1+1.25+12.5 = 16.75, h 1+1+1+1.25+3.75 = 8: the final
     * game's winner d is third. */
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "d")].points, P(16.75));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "b")].points, P(26.75));
    assert_int_equal(tu_row_of(&ev, &st, "b"), 0);
    assert_int_equal(tu_row_of(&ev, &st, "c"), 1);
    assert_int_equal(tu_row_of(&ev, &st, "d"), 2);
    assert_int_equal(tu_row_of(&ev, &st, "h"), 3);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* One Agricola table where the first two players have IP i1 and i2. */
#define AG_TI(n, p1, p2, p3, p4, v1, v2, v3, v4, i1, i2)                       \
    "{'table':" #n ",'players':['" p1 "','" p2 "','" p3 "','" p4 "'],"         \
    "'result':{'vp':{'" p1 "':" #v1 ",'" p2 "':" #v2 ",'" p3 "':" #v3 ",'" p4  \
    "':" #v4 "},'ip':{'" p1 "':" #i1 ",'" p2 "':" #i2 ",'" p3 "':0,'" p4       \
    "':0},'bp':{'" p1 "':0,'" p2 "':0,'" p3 "':0,'" p4 "':0}}}"

/* AG-13 (seed 002 T3, T11): a and b end on equal TP at final table 1 and
 * score equal VP in the final game, b with more IP.  Equal VP is an equal
 * placement (T3: "spillere med samme antall VP i et spill"); IP and BP only
 * seat game 2 (T2(d)), so the final placement does not separate them and
 * T11(b), the total relative score, puts a (who won game 1 by more) first. */
static void test_AG_13_equal_vp_in_final_share_placement(void **state)
{
    (void)state;
    struct tny_event ev;
    const char *text = "{'format':'agricola','seed':3," AG8 ",'rounds':["
                       "{'stage':'prelim','tables':["   /* game 1 */
        AG_T(1, "a", "c", "d", "e", 50, 30, 20, 10) "," /* a +22.5 */
        AG_T(2, "b", "f", "g", "h", 40, 30, 20,
             10) "]},"                                  /* b +15 */
                 "{'stage':'prelim','tables':["         /* game 2 */
        AG_T(1, "a", "f", "c", "h", 40, 30, 20, 10) "," /* a +15 */
        AG_T(2, "b", "e", "g", "d", 40, 30, 20,
             10) "]},"                                  /* b +15 */
                 "{'stage':'prelim','tables':["         /* game 3 */
        AG_T(1, "a", "f", "g", "d", 40, 30, 20, 10) "," /* a +15 */
        AG_T(2, "b", "e", "c", "h", 40, 30, 20,
             10) "]},"                                  /* b +15 */
                 "{'stage':'final','tables':["          /* final 1 */
        AG_T(1, "a", "b", "g", "h", 40, 40, 20, 10) "," /* shared 1st */
        AG_T(2, "e", "f", "c", "d", 40, 30, 20,
             10) "]},"
                 "{'stage':'final','tables':["                 /* final 2 */
        AG_TI(1, "a", "b", "c", "d", 40, 40, 20, 10, 3, 9) "," /* b more IP */
        AG_T(2, "e", "f", "g", "h", 40, 30, 20, 10) "]}]}";
    tu_load_event(text, &ev);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    int ra = tu_row_of(&ev, &st, "a"), rb = tu_row_of(&ev, &st, "b");
    /* Equal TP: 3 x 10 + 2 x (10 + 6) / 2 x 1.25 = 50 each. */
    assert_int_equal(st.rows[ra].points, P(50));
    assert_int_equal(st.rows[rb].points, P(50));
    /* The same final placement (shared 1st), so relative score decides:
     * a 22.5 + 15 + 15 + 12.5 + 12.5 > b 15 + 15 + 15 + 12.5 + 12.5. */
    assert_int_equal(st.tiebreaks[0], TNY_TB_FINAL_PLACEMENT);
    assert_true(st.rows[ra].tiebreaks[0] == 1 && st.rows[rb].tiebreaks[0] == 1);
    assert_int_equal(ra, 0);
    assert_int_equal(rb, 1);
    assert_false(st.rows[0].decided_by_lot);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* CT-6: a bye gives 4 points, 10 game points, 27 %; CT-7 ranks by points,
 * success rate, game points, firsts, seconds, thirds. */
static void test_CT_6_CT_7_bye_and_order(void **state)
{
    (void)state;
    struct tny_event ev;
    /* a: 1st (10 of 10+5+5+5 = 40 %); f: bye (27 %): both 4 points.
     * b, c, d tied 2nd: (3+2+1)/3 = 2 each. */
    tu_load_event("{'format':'catan','seed':1,'players':[{'id':'a','name':"
                  "'A'},{'id':'b','name':'B'},{'id':'c','name':'C'},{'id':"
                  "'d','name':'D'},{'id':'f','name':'F'}],'rounds':[{'stage':"
                  "'round','tables':[{'table':1,'players':['a','b','c','d'],"
                  "'result':{'vp':{'a':10,'b':5,'c':5,'d':5}}},{'bye':'f'}]}]}",
                  &ev);
    struct tny_standings st;
    struct tny_diag diag;
    assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
    assert_int_equal(tu_row_of(&ev, &st, "a"), 0);
    assert_int_equal(tu_row_of(&ev, &st, "f"), 1);
    assert_int_equal(st.rows[1].points, P(4));
    assert_int_equal(st.rows[tu_row_of(&ev, &st, "b")].points, P(2));
    for (int k = 0; k < st.n_tiebreaks; k++)
        if (st.tiebreaks[k] == TNY_TB_SECONDS) /* tied 2nd-4th count 2nd */
            assert_true(st.rows[tu_row_of(&ev, &st, "d")].tiebreaks[k] == 1);
    tny_standings_release(&st);
    tny_event_release(&ev);
}

/* GT-14: faction and agenda are registered with the player and kept. */
static void test_GT_14_decks_registered(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'got-lcg2','seed':1,'players':[{'id':'a','name':"
                  "'A','faction':'Stark','agenda':'Banner of the Wolf'},"
                  "{'id':'b','name':'B','faction':'Lannister'}]}",
                  &ev);
    assert_string_equal(ev.players[0].faction, "Stark");
    assert_string_equal(ev.players[0].agenda, "Banner of the Wolf");
    assert_string_equal(ev.players[1].faction, "Lannister");
    assert_null(ev.players[1].agenda);
    tny_event_release(&ev);
}

/* GT-15: the event level is casual, formal or premier (metadata). */
static void test_GT_15_event_level(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'got-lcg2','seed':1,'level':'premier',"
                  "'players':[]}",
                  &ev);
    assert_int_equal(ev.level, TNY_LEVEL_PREMIER);
    tny_event_release(&ev);
    char msg[600];
    assert_int_not_equal(tu_try_event("{'format':'got-lcg2','seed':1,'level':"
                                      "'regional','players':[]}",
                                      &ev, msg, sizeof(msg)),
                         0);
    assert_non_null(strstr(msg, "event.level"));
}

#define TX_SIX_AFTER_2                                                         \
    "'players':[{'id':'p1','name':'P1'},{'id':'p2','name':'P2'},"              \
    "{'id':'p3','name':'P3'},{'id':'p4','name':'P4'},{'id':'p5','name':'P5'}," \
    "{'id':'p6','name':'P6'}],'rounds':["                                      \
    "{'stage':'swiss','tables':["                                              \
    "{'table':1,'players':['p6','p5'],'result':{'scores':{'p6':18,'p5':5}}},"  \
    "{'table':2,'players':['p4','p3'],'result':{'scores':{'p4':1,'p3':37}}},"  \
    "{'table':3,'players':['p2','p1'],'result':{'scores':{'p2':19,'p1':27}}}]" \
    "},"                                                                       \
    "{'stage':'swiss','tables':["                                              \
    "{'table':1,'players':['p3','p6'],'result':{'scores':{'p3':24,'p6':33}}}," \
    "{'table':2,'players':['p1','p5'],'result':{'scores':{'p1':22,'p5':8}}},"  \
    "{'table':3,'players':['p2','p4'],'result':{'scores':{'p2':12,'p4':17}}}]" \
    "}]}"

static bool pairs(const struct tny_event *ev, const struct tny_round_plan *p,
                  const char *a, const char *b)
{
    const struct tny_pairing_table *t = table_of(p, idx(ev, a));
    return t && t == table_of(p, idx(ev, b));
}

/* TX pairing (formats.md: "Swiss on TP [decision]"; seed 001 is silent):
 * the preset's score groups are equal TP totals, partners adjacent in the
 * standings; `score_groups: wins` is the option.  After two rounds (TX-2):
 * p6 16.8+16.0 = 32.8 and p1 15.8+17.0 = 32.8 (2 wins each), p3 20+4 = 24,
 * p4 0+15 = 15 (1 win each), p2 4.2+5 = 9.2, p5 3.2+3 = 6.2 (0 wins).
 * TP groups 32.8 | 24 | 15 | 9.2 | 6.2: p3-p4 met, so the top-down
 * p6-p1, p3-p2, p4-p5 costs 0+4+4 = 8 squared group steps against 4+1+1 =
 * 6 for p6-p4, p1-p3, p2-p5 (GT-2's objective).  By wins (2 | 1 | 0) the
 * cheapest is p6-p1, p3-p2, p4-p5 (0+1+1). */
static void test_TX_pairing_swiss_on_tp_option_wins(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_round_plan p;
    tu_load_event("{'format':'tantrix','seed':1," TX_SIX_AFTER_2, &ev);
    assert_int_equal(ev.format.stages[0].score_groups, TNY_GROUPS_POINTS);
    assert_int_equal(ev.format.stages[0].group_order, TNY_GROUP_ADJACENT);
    plan(&ev, &p);
    assert_true(pairs(&ev, &p, "p6", "p4"));
    assert_true(pairs(&ev, &p, "p1", "p3"));
    assert_true(pairs(&ev, &p, "p2", "p5"));
    tny_round_plan_release(&p);
    tny_event_release(&ev);

    tu_load_event("{'format':'tantrix','seed':1,'options':{'score_groups':"
                  "'wins'}," TX_SIX_AFTER_2,
                  &ev);
    assert_int_equal(ev.format.stages[0].score_groups, TNY_GROUPS_WINS);
    plan(&ev, &p);
    assert_true(pairs(&ev, &p, "p6", "p1"));
    assert_true(pairs(&ev, &p, "p3", "p2"));
    assert_true(pairs(&ev, &p, "p4", "p5"));
    tny_round_plan_release(&p);
    tny_event_release(&ev);

    char msg[600];
    assert_int_not_equal(tu_try_event("{'format':'tantrix','seed':1,"
                                      "'options':{'score_groups':'tp'},"
                                      "'players':[]}",
                                      &ev, msg, sizeof(msg)),
                         0);
    assert_non_null(strstr(msg, "event.options.score_groups"));
}

/* AG-15: the format carries table notes (banned cards, draft procedure)
 * that tables show on request. */
static void test_AG_15_table_notes(void **state)
{
    (void)state;
    struct tny_event ev;
    tu_load_event("{'format':'agricola','seed':1,'players':[]}", &ev);
    assert_true(ev.format.n_notes > 0);
    bool draft = false, banned = true, as_announced = false;
    /* Seed 002 S3: the seven banned cards, each named. */
    static const char *const cards[] = {
        "Ratcatcher", "Chamberlain",          "Taster",  "Wet Nurse",
        "Lover",      "Wooden Hut Extension", "Reed Hut"};
    for (size_t k = 0; k < sizeof(cards) / sizeof(cards[0]); k++) {
        bool found = false;
        for (int32_t i = 0; i < ev.format.n_notes; i++)
            found |= strstr(ev.format.notes[i], cards[k]) != NULL;
        banned &= found;
    }
    /* S4: neighbour draft 7/9, Occupations counterclockwise, Minor
     * Improvements clockwise, the last 2 cards discarded. */
    for (int32_t i = 0; i < ev.format.n_notes; i++) {
        const char *n = ev.format.notes[i];
        draft |= strstr(n, "7/9") && strstr(n, "Occupations") &&
                 strstr(n, "counterclockwise");
        as_announced |= strstr(n, "announced") != NULL;
    }
    assert_true(banned);
    assert_true(draft);
    assert_false(as_announced);
    tny_event_release(&ev);
}

/* Points shown to people: TX-2 halves and tenths, AG/CT thirds (the unit
 * is 1/1200 point, format.h). */
static void test_points_text(void **state)
{
    (void)state;
    static const struct {
        int64_t units;
        const char *want;
    } cases[] = {
        {0, "0"},
        {3 * 1200, "3"},
        {1200 / 2, "0.5"},
        {-1200 / 4, "-0.25"},
        {1200 / 3, "0.33"},
        {2 * 1200 / 3, "0.67"},
        {12 * 1200 + 120, "12.1"},
        {-1200 / 3, "-0.33"},
        {1, "0"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tny_points_text(cases[i].units, buf, sizeof(buf));
        assert_string_equal(buf, cases[i].want);
    }
    tny_points_text(123456 * 1200, buf, 4);
    assert_string_equal(buf, "123");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_text),
        cmocka_unit_test(test_CM_1_late_entry),
        cmocka_unit_test(test_CM_2_GT_11_drop_and_rejoin),
        cmocka_unit_test(test_GT_11_rejoin_in_another_stage_refused),
        cmocka_unit_test(test_CM_9_CM_5_table_numbers_and_edits),
        cmocka_unit_test(test_CM_6_result_validation),
        cmocka_unit_test(test_NH_11_army_used_twice_refused),
        cmocka_unit_test(test_NH_10_army_list),
        cmocka_unit_test(test_NH_11_knockout_declaration),
        cmocka_unit_test(test_NH_10_hook_recorded_at_registration),
        cmocka_unit_test(test_TX_4_TX_7_TX_1_decisions_and_penalties),
        cmocka_unit_test(test_TX_pairing_swiss_on_tp_option_wins),
        cmocka_unit_test(test_AG_8_AG_1_ranking),
        cmocka_unit_test(test_AG_13_final_ranking_by_table),
        cmocka_unit_test(test_AG_13_equal_vp_in_final_share_placement),
        cmocka_unit_test(test_CT_6_CT_7_bye_and_order),
        cmocka_unit_test(test_GT_14_decks_registered),
        cmocka_unit_test(test_GT_15_event_level),
        cmocka_unit_test(test_AG_15_table_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
