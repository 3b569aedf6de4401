/* test_events.c - whole events of every format, played with random results.
 *
 * Property tests over many generated events per format: every round seats
 * each active player exactly once (CM-2, CM-3), Swiss stages never repeat
 * a pairing while a rematch-free one exists (NH-5, GT-2), byes follow the
 * bye rules (NH-4, GT-3, CT-1), Tantrix games share 20 TP (TX-2, TX-3),
 * Catan never repeats a triple for N >= 16 (CT-2), Agricola's game-2 tables
 * hold no game-1 opponents for N >= 16 (AG-7), events move from stage to
 * stage by themselves and end, and the same seed gives the same event
 * byte for byte (CM-4).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/score.h"
#include "tny/simulate.h"
#include "tny/standings.h"

/* Builds an event file text for n players of a preset. */
static char *event_text(const char *format, const char *options, int n,
                        uint64_t seed)
{
    size_t cap = 256 + (size_t)n * 160 + strlen(options);
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap,
                                  "{\"format\":\"%s\",\"seed\":%llu,"
                                  "\"options\":%s,\"players\":[",
                                  format, (unsigned long long)seed, options);
    for (int i = 0; i < n; i++) {
        const char *armies =
            strcmp(format, "neuroshima-hex") == 0
                ? ",\"armies\":[\"Borgo\",\"Moloch\",\"Hegemony\","
                  "\"Outpost\",\"Vegas\"]"
                : "";
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"Player %d\","
                                "\"rating\":%d%s}",
                                i ? "," : "", i + 1, i + 1,
                                1300 + (int)((i * 7919u) % 500), armies);
    }
    snprintf(text + len, cap - len, "]}");
    return text;
}

static void load_text(const char *text, struct tny_event *ev)
{
    struct tny_diag diag = {{0}};
    int rc = tny_event_from_json_text(text, strlen(text), ev, &diag);
    if (rc != 0)
        fail_msg("generated event rejected: %s", diag.msg);
}

struct checks {
    int rounds_played;
    int swiss_rematches;
    int catan_repeated_triples;
    int ag7_meetings;
    int max_byes;
};

static bool same_table(const struct tny_round *round, int32_t a, int32_t b)
{
    for (int32_t t = 0; t < round->n_tables; t++)
        if (!round->tables[t].is_bye &&
            tny_table_seat_of(&round->tables[t], a) >= 0 &&
            tny_table_seat_of(&round->tables[t], b) >= 0)
            return true;
    return false;
}

static void check_round(const struct tny_event *ev, int32_t r,
                        struct checks *ck)
{
    const struct tny_round *round = &ev->rounds[r];
    int32_t *seen = calloc((size_t)ev->n_players, sizeof(int32_t));
    assert_non_null(seen);
    for (int32_t t = 0; t < round->n_tables; t++)
        for (int32_t s = 0; s < round->tables[t].n_seats; s++)
            seen[round->tables[t].seats[s]]++;
    for (int32_t p = 0; p < ev->n_players; p++) {
        assert_true(seen[p] <= 1);
        /* Outside elimination every active player is seated (CM-2). */
        if (round->stage != TNY_STAGE_ELIMINATION &&
            tny_player_active_in(&ev->players[p], r + 1))
            assert_int_equal(seen[p], 1);
        if (!tny_player_active_in(&ev->players[p], r + 1))
            assert_int_equal(seen[p], 0);
    }
    free(seen);
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye)
            continue;
        if (round->stage == TNY_STAGE_SWISS && tb->n_seats == 2)
            for (int32_t q = 0; q < r; q++)
                if (ev->rounds[q].stage == TNY_STAGE_SWISS &&
                    same_table(&ev->rounds[q], tb->seats[0], tb->seats[1]))
                    ck->swiss_rematches++;
        if (ev->format.game == TNY_GAME_CATAN)
            for (int32_t i = 0; i < tb->n_seats; i++)
                for (int32_t j = i + 1; j < tb->n_seats; j++)
                    for (int32_t k = j + 1; k < tb->n_seats; k++)
                        for (int32_t q = 0; q < r; q++) {
                            const struct tny_round *o = &ev->rounds[q];
                            for (int32_t u = 0; u < o->n_tables; u++)
                                if (tny_table_seat_of(&o->tables[u],
                                                      tb->seats[i]) >= 0 &&
                                    tny_table_seat_of(&o->tables[u],
                                                      tb->seats[j]) >= 0 &&
                                    tny_table_seat_of(&o->tables[u],
                                                      tb->seats[k]) >= 0 &&
                                    !o->tables[u].is_bye)
                                    ck->catan_repeated_triples++;
                        }
        if (ev->format.game == TNY_GAME_AGRICOLA && r == 1)
            for (int32_t i = 0; i < tb->n_seats; i++)
                for (int32_t j = i + 1; j < tb->n_seats; j++)
                    if (same_table(&ev->rounds[0], tb->seats[i], tb->seats[j]))
                        ck->ag7_meetings++;
    }
}

/* TX-2/TX-3: the two players of a game share 20.0 TP. */
static void check_tantrix_sum(const struct tny_event *ev, int32_t r)
{
    const struct tny_round *round = &ev->rounds[r];
    for (int32_t t = 0; t < round->n_tables; t++) {
        if (round->tables[t].is_bye)
            continue;
        int64_t tp[2];
        tny_tantrix_tp(&ev->format, &round->tables[t].result, tp);
        assert_int_equal(tp[0] + tp[1], ev->format.tp_per_game);
        assert_true(tp[0] >= 0 && tp[1] >= 0);
    }
}

/* Plays an event to its end; returns the number of rounds. */
static void play(const char *format, const char *options, int n, uint64_t seed,
                 struct tny_event *ev, struct checks *ck)
{
    char *text = event_text(format, options, n, seed);
    load_text(text, ev);
    free(text);
    memset(ck, 0, sizeof(*ck));
    struct tny_rng rng;
    tny_rng_seed(&rng, seed ^ 0x5eed);
    for (int guard = 0; guard < 64; guard++) {
        struct tny_round_plan plan, again;
        struct tny_diag diag = {{0}};
        tny_simulate_declarations(ev, &rng); /* NH-11, before the knockout */
        int rc = tny_pair_next(ev, &plan, &diag);
        if (rc == TNY_ESTATE)
            break;
        if (rc != 0)
            fail_msg("%s n=%d seed=%llu round %d: %s", format, n,
                     (unsigned long long)seed, (int)ev->n_rounds + 1, diag.msg);
        /* The explanation names the round, then the stage by its name
         * as a name (not "round 1: Gorn rounds round 1"). */
        char head[TNY_NAME_MAX + 64];
        snprintf(head, sizeof head, "round %d: round ", (int)plan.round);
        assert_non_null(plan.explain);
        assert_memory_equal(plan.explain, head, strlen(head));
        snprintf(head, sizeof head, " of the stage \"%s\"\n",
                 ev->format.stages[plan.stage_index].name);
        const char *eol = strchr(plan.explain, '\n');
        assert_non_null(eol);
        assert_true((size_t)(eol + 1 - plan.explain) >= strlen(head));
        assert_memory_equal(eol + 1 - strlen(head), head, strlen(head));
        /* CM-4: planning twice gives the same round */
        assert_int_equal(tny_pair_next(ev, &again, &diag), 0);
        assert_int_equal(plan.n_tables, again.n_tables);
        assert_memory_equal(plan.tables, again.tables,
                            sizeof(*plan.tables) * (size_t)plan.n_tables);
        tny_round_plan_release(&again);
        assert_int_equal(tny_event_append_round(ev, &plan), 0);
        struct tny_round *round = &ev->rounds[ev->n_rounds - 1];
        for (int32_t t = 0; t < round->n_tables; t++)
            assert_int_equal(
                tny_simulate_result(ev, ev->n_rounds - 1, round->stage,
                                    &round->tables[t], &rng, &diag),
                0);
        tny_round_plan_release(&plan);
        if (tny_event_validate(ev, &diag) != 0)
            fail_msg("%s n=%d: simulated round invalid: %s", format, n,
                     diag.msg);
        check_round(ev, ev->n_rounds - 1, ck);
        if (ev->format.game == TNY_GAME_TANTRIX)
            check_tantrix_sum(ev, ev->n_rounds - 1);
    }
    ck->rounds_played = ev->n_rounds;
    for (int32_t p = 0; p < ev->n_players; p++) {
        int byes = 0;
        for (int32_t r = 0; r < ev->n_rounds; r++)
            for (int32_t t = 0; t < ev->rounds[r].n_tables; t++)
                byes += ev->rounds[r].tables[t].is_bye &&
                        ev->rounds[r].stage != TNY_STAGE_ELIMINATION &&
                        ev->rounds[r].tables[t].seats[0] == p;
        if (byes > ck->max_byes)
            ck->max_byes = byes;
    }
}

static void test_NH_5_NH_4_NH_7_whole_events(void **state)
{
    (void)state;
    int cases = tu_property_cases(1000);
    for (int c = 0; c < cases; c++) {
        int n = 9 + c % 40;
        struct tny_event ev;
        struct checks ck;
        play("neuroshima-hex", "{\"cut\":4}", n, 1000 + (uint64_t)c, &ev, &ck);
        /* 4 Swiss rounds + top 4 (2 knockout rounds) */
        assert_int_equal(ck.rounds_played, 6);
        assert_int_equal(ck.swiss_rematches, 0);
        assert_true(ck.max_byes <= 1); /* NH-4: no second bye */
        struct tny_standings st;
        struct tny_diag diag;
        assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
        assert_int_equal(st.n_rows, n);
        /* NH-9: the champion won the last match */
        const struct tny_round *final = &ev.rounds[ev.n_rounds - 1];
        assert_int_equal(final->n_tables, 1);
        int32_t w =
            tny_result_winner_seat(&ev.format, &final->tables[0].result);
        if (w >= 0)
            assert_int_equal(st.rows[0].player, final->tables[0].seats[w]);
        tny_standings_release(&st);
        tny_event_release(&ev);
    }
}

static void test_GT_2_GT_3_GT_7_whole_events(void **state)
{
    (void)state;
    int cases = tu_property_cases(1000);
    for (int c = 0; c < cases; c++) {
        int n = 9 + c % 60;
        struct tny_event ev;
        struct checks ck;
        play("got-lcg2", "{}", n, 2000 + (uint64_t)c, &ev, &ck);
        assert_int_equal(ck.swiss_rematches, 0);
        assert_true(ck.max_byes <= 1); /* GT-3 */
        assert_true(ck.rounds_played >= 4);
        tny_event_release(&ev);
    }
}

static void test_GT_8_elimination_from_start(void **state)
{
    (void)state;
    for (int n = 5; n <= 40; n++) {
        struct tny_event ev;
        struct checks ck;
        play("got-lcg2", "{\"elimination_only\":true}", n, 3000 + (uint64_t)n,
             &ev, &ck);
        int rounds = 0;
        while ((1 << rounds) < n)
            rounds++;
        assert_int_equal(ck.rounds_played, rounds);
        tny_event_release(&ev);
    }
}

static void test_TX_2_TX_13_whole_events(void **state)
{
    (void)state;
    int cases = tu_property_cases(1000);
    for (int c = 0; c < cases; c++) {
        int n = 12 + c % 30; /* >= 2 x 6 rounds: rematch-free exists */
        struct tny_event ev;
        struct checks ck;
        play("tantrix", "{}", n, 4000 + (uint64_t)c, &ev, &ck);
        assert_int_equal(ck.swiss_rematches, 0);
        tny_event_release(&ev);
    }
}

static void test_AG_3_AG_7_AG_9_AG_11_whole_events(void **state)
{
    (void)state;
    int cases = tu_property_cases(500);
    for (int c = 0; c < cases; c++) {
        int n = 8 + 4 * (c % 7);
        struct tny_event ev;
        struct checks ck;
        play("agricola", "{}", n, 5000 + (uint64_t)c, &ev, &ck);
        assert_int_equal(ck.rounds_played, 5); /* 3 prelim + 2 final */
        if (n >= 16)
            assert_int_equal(ck.ag7_meetings, 0);
        struct tny_standings st;
        struct tny_diag diag;
        assert_int_equal(tny_standings_compute(&ev, &st, &diag), 0);
        /* AG-13: the winner sits at final-game-2 table 1 */
        const struct tny_round *last = &ev.rounds[4];
        for (int32_t t = 0; t < last->n_tables; t++)
            if (last->tables[t].number == 1)
                assert_true(tny_table_seat_of(&last->tables[t],
                                              st.rows[0].player) >= 0);
        tny_standings_release(&st);
        tny_event_release(&ev);
    }
}

static void test_CT_1_CT_2_whole_events(void **state)
{
    (void)state;
    int cases = tu_property_cases(1000);
    for (int c = 0; c < cases; c++) {
        int n = 16 + c % 50;
        struct tny_event ev;
        struct checks ck;
        play("catan", "{}", n, 6000 + (uint64_t)c, &ev, &ck);
        assert_int_equal(ck.rounds_played, 5);
        assert_int_equal(ck.catan_repeated_triples, 0);
        assert_true(ck.max_byes <= 1);
        tny_event_release(&ev);
    }
}

/* TX option: round robin (Berger tables): every pair meets exactly once
 * over the cycle, a bye each round for odd n. */
static void test_TX_round_robin_whole_events(void **state)
{
    (void)state;
    for (int n = 3; n <= 16; n++) {
        struct tny_event ev;
        struct checks ck;
        play("tantrix", "{\"pairing\":\"round_robin\"}", n, 7000 + (uint64_t)n,
             &ev, &ck);
        assert_int_equal(ck.rounds_played, n % 2 ? n : n - 1);
        for (int32_t a = 0; a < n; a++)
            for (int32_t b = a + 1; b < n; b++) {
                int met = 0;
                for (int32_t r = 0; r < ev.n_rounds; r++)
                    met += same_table(&ev.rounds[r], a, b);
                assert_int_equal(met, 1);
            }
        tny_event_release(&ev);
    }
}

/* CM-4: the same seed and results give the same event, a different seed
 * a different first round. */
static void test_CM_4_determinism(void **state)
{
    (void)state;
    const char *formats[] = {"neuroshima-hex", "tantrix", "got-lcg2", "catan",
                             "agricola"};
    for (int f = 0; f < 5; f++) {
        struct tny_event a, b, c;
        struct checks ck;
        play(formats[f], "{}", 24, 77, &a, &ck);
        play(formats[f], "{}", 24, 77, &b, &ck);
        play(formats[f], "{}", 24, 78, &c, &ck);
        assert_int_equal(a.n_rounds, b.n_rounds);
        for (int32_t r = 0; r < a.n_rounds; r++) {
            assert_int_equal(a.rounds[r].n_tables, b.rounds[r].n_tables);
            for (int32_t t = 0; t < a.rounds[r].n_tables; t++)
                assert_memory_equal(a.rounds[r].tables[t].seats,
                                    b.rounds[r].tables[t].seats,
                                    sizeof(a.rounds[r].tables[t].seats));
        }
        bool differs = false;
        for (int32_t t = 0; t < a.rounds[0].n_tables; t++)
            differs |=
                memcmp(a.rounds[0].tables[t].seats, c.rounds[0].tables[t].seats,
                       sizeof(a.rounds[0].tables[t].seats)) != 0;
        assert_true(differs);
        tny_event_release(&a);
        tny_event_release(&b);
        tny_event_release(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NH_5_NH_4_NH_7_whole_events),
        cmocka_unit_test(test_GT_2_GT_3_GT_7_whole_events),
        cmocka_unit_test(test_GT_8_elimination_from_start),
        cmocka_unit_test(test_TX_2_TX_13_whole_events),
        cmocka_unit_test(test_AG_3_AG_7_AG_9_AG_11_whole_events),
        cmocka_unit_test(test_CT_1_CT_2_whole_events),
        cmocka_unit_test(test_TX_round_robin_whole_events),
        cmocka_unit_test(test_CM_4_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
