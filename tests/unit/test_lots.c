/* test_lots.c - CM-4: "the seed and each draw are recorded": every lot of
 * an event written out with its purpose and outcome (tny_lots_text), the
 * tables' lots carried by results through the event file.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/lots.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/standings.h"

#define CT_EVENT                                                               \
    "{'format':'catan','seed':7,'players':[{'id':'a','name':'A'},"             \
    "{'id':'b','name':'B'},{'id':'c','name':'C'},{'id':'d','name':'D'},"       \
    "{'id':'e','name':'E'},{'id':'f','name':'F'},{'id':'g','name':'G'}],"      \
    "'rounds':[{'stage':'round','tables':["                                    \
    "{'table':1,'players':['a','b','c','d'],'result':{'vp':{'a':10,'b':8,"     \
    "'c':6,'d':5},'lots':['CT-9 lot after tied rolls: Cid starts']}},"         \
    "{'table':2,'players':['e','f','g'],'result':{'vp':{'e':10,'f':7,"         \
    "'g':7}}}]}]}"

static void test_CM_4_lots_with_purpose_and_outcome(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    char *text = NULL, *json = NULL;
    int32_t order[7];
    tu_load_event(CT_EVENT, &ev);
    assert_int_equal(ev.rounds[0].tables[0].result.n_lots, 1);
    assert_int_equal(tny_lots_text(&ev, &text, &diag), 0);
    /* the seed, the round-1 draw as drawn, the table's lot */
    assert_non_null(strstr(text, "event seed 7"));
    assert_non_null(strstr(text, "round 1 (round): CT-2 round-1 tables by "
                                 "lot"));
    assert_non_null(strstr(text, "    table 1: a b c d\n"));
    assert_non_null(strstr(text, "round 1 table 1 (drawn at the table): "
                                 "CT-9 lot after tied rolls: Cid starts"));
    /* the tiebreak lot: its order, and the rows it settled (f and g tied
     * on everything: 2.5 points each, same VP and success) */
    tny_standings_lot_order(&ev, order);
    char want[128] = "luckiest first:";
    for (int i = 0; i < 7; i++) {
        strcat(want, " ");
        strcat(want, ev.players[order[i]].id);
    }
    assert_non_null(strstr(text, want));
    assert_true(strstr(text, "standings: f above g by the lot") ||
                strstr(text, "standings: g above f by the lot"));
    free(text);
    /* the table's lots stay with the result in the event file */
    assert_int_equal(tny_event_to_json(&ev, &json), 0);
    assert_non_null(strstr(json, "\"lots\": ["));
    assert_non_null(strstr(json, "\"CT-9 lot after tied rolls: Cid starts\""));
    free(json);
    tny_event_release(&ev);

    char msg[600];
    assert_int_not_equal(
        tu_try_event("{'format':'catan','seed':7,'players':[{'id':'a','name':"
                     "'A'},{'id':'b','name':'B'},{'id':'c','name':'C'}],"
                     "'rounds':[{'stage':'round','tables':[{'table':1,"
                     "'players':['a','b','c'],'result':{'vp':{'a':10,'b':8,"
                     "'c':6},'lots':['1','2','3','4','5']}}]}]}",
                     &ev, msg, sizeof(msg)),
        0);
    assert_non_null(strstr(msg, "lots"));
}

/* CM-4, AG-4: the hub's starting player of every Agricola table (a lot,
 * not in the event file) is written out as pairing drew it, round after
 * round. */
static void test_CM_4_AG_4_starting_player_lots(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    struct tny_rng rng;
    tu_load_event("{'format':'agricola','seed':31,'players':["
                  "{'id':'a','name':'A'},{'id':'b','name':'B'},"
                  "{'id':'c','name':'C'},{'id':'d','name':'D'},"
                  "{'id':'e','name':'E'},{'id':'f','name':'F'},"
                  "{'id':'g','name':'G'},{'id':'h','name':'H'}]}",
                  &ev);
    tny_rng_seed(&rng, 5);
    for (int r = 1; r <= 3; r++) {
        struct tny_round_plan plan;
        char want[8][64];
        int n_want = 0;
        assert_int_equal(tny_pair_next(&ev, &plan, &diag), 0);
        for (int32_t t = 0; t < plan.n_tables; t++) {
            const struct tny_pairing_table *pt = &plan.tables[t];
            assert_true(pt->first_seat >= 0);
            snprintf(want[n_want++], sizeof(want[0]), " table %d %s;",
                     (int)pt->number, ev.players[pt->seats[pt->first_seat]].id);
        }
        assert_int_equal(tny_event_append_round(&ev, &plan), 0);
        tny_round_plan_release(&plan);
        struct tny_round *round = &ev.rounds[ev.n_rounds - 1];
        for (int32_t t = 0; t < round->n_tables; t++)
            assert_int_equal(
                tny_simulate_result(&ev, ev.n_rounds - 1, round->stage,
                                    &round->tables[t], &rng, &diag),
                0);
        char *text = NULL;
        assert_int_equal(tny_lots_text(&ev, &text, &diag), 0);
        char head[64];
        snprintf(head, sizeof(head),
                 "round %d: AG-4 starting player by lot (purpose seats):", r);
        const char *line = strstr(text, head);
        assert_non_null(line);
        const char *end = strchr(line, '\n');
        for (int i = 0; i < n_want; i++) {
            const char *hit = strstr(line, want[i]);
            if (!hit || hit > end)
                fail_msg("round %d: \"%s\" not in \"%.*s\"", r, want[i],
                         (int)(end - line), line);
        }
        free(text);
    }
    tny_event_release(&ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CM_4_lots_with_purpose_and_outcome),
        cmocka_unit_test(test_CM_4_AG_4_starting_player_lots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
