/* test_table_core.c - the table client's state machine (table-client/
 * core.h) fed with decoded protocol structs and input lines, no broker:
 * assignment versions (docs/protocol.md "Retained state and staleness"),
 * confirmations by every seated player, the hub's answers (protocol
 * "Idempotency and acknowledgement" 4), refused input lines, the clock
 * offset (protocol "Time sync", CM-7 extensions) and simulated results
 * for every format.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/rng.h"
#include "tny/wire.h"

#include "core.h"

/* ---- fixture: a core whose output lines and submissions are recorded --- */

#define MAX_LINES 512

struct rec {
    char *lines[MAX_LINES];
    int n_lines;
    struct tny_wire_submission subs[16];
    int n_subs;
    int fail_submit; /* > 0: the next submits fail */
};

static void rec_emit(void *ctx, const char *line)
{
    struct rec *r = ctx;
    assert_true(r->n_lines < MAX_LINES);
    r->lines[r->n_lines++] = strdup(line);
}

static int rec_submit(void *ctx, const struct tny_wire_submission *sub,
                      struct tny_diag *diag)
{
    struct rec *r = ctx;
    if (r->fail_submit > 0) {
        r->fail_submit--;
        return tny_diag_set(diag, TNY_ESTATE, "outbox: disk full");
    }
    assert_true(r->n_subs < 16);
    r->subs[r->n_subs++] = *sub;
    return TNY_OK;
}

static void rec_clear(struct rec *r)
{
    for (int i = 0; i < r->n_lines; i++)
        free(r->lines[i]);
    r->n_lines = 0;
}

struct fx {
    struct rec rec;
    struct tbl_core core;
};

static struct fx *fx_new(void)
{
    struct fx *f = calloc(1, sizeof(*f));
    struct tbl_core_ops ops = {&f->rec, rec_emit, rec_submit, NULL};
    assert_non_null(f);
    tbl_core_init(&f->core, "table-007", 3, &ops);
    tbl_core_start(&f->core);
    return f;
}

static void fx_free(struct fx *f)
{
    tbl_core_release(&f->core);
    rec_clear(&f->rec);
    free(f);
}

/* True when some recorded line starts with prefix. */
static bool has_line(const struct fx *f, const char *prefix)
{
    for (int i = 0; i < f->rec.n_lines; i++)
        if (strncmp(f->rec.lines[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

static const char *last_line(const struct fx *f)
{
    assert_true(f->rec.n_lines > 0);
    return f->rec.lines[f->rec.n_lines - 1];
}

static int count_prefix(const struct fx *f, const char *prefix)
{
    int n = 0;
    for (int i = 0; i < f->rec.n_lines; i++)
        n += strncmp(f->rec.lines[i], prefix, strlen(prefix)) == 0;
    return n;
}

static void assert_state(const struct fx *f, enum tbl_state s)
{
    if (tbl_core_state(&f->core) != s)
        fail_msg("state %s, expected %s",
                 tbl_state_name(tbl_core_state(&f->core)), tbl_state_name(s));
}

/* An assignment: game by name, seats "p1,p2,...". */
static struct tny_wire_assignment *asg_make(uint64_t version, const char *event,
                                            int round, int table,
                                            const char *game, const char *stage,
                                            const char *seats)
{
    struct tny_wire_assignment *a = calloc(1, sizeof(*a));
    char list[256];

    assert_non_null(a);
    a->version = version;
    snprintf(a->event_id, sizeof(a->event_id), "%s", event);
    assert_int_equal(tny_game_from_name(game, &a->game), 0);
    snprintf(a->format_name, sizeof(a->format_name), "%s", game);
    a->round = round;
    assert_int_equal(tny_stage_kind_from_name(stage, &a->stage), 0);
    a->table = table;
    snprintf(list, sizeof(list), "%s", seats);
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
        struct tny_wire_seat *seat = &a->seats[a->n_seats++];
        snprintf(seat->player_id, sizeof(seat->player_id), "%s", s);
        snprintf(seat->name, sizeof(seat->name), "Name of %s", s);
    }
    return a;
}

static void apply(struct fx *f, struct tny_wire_assignment *a, int64_t now)
{
    tbl_core_assignment(&f->core, a, now, NULL);
    free(a);
}

static void nh_table(struct fx *f)
{
    apply(f, asg_make(1, "ev1", 1, 4, "neuroshima-hex", "swiss", "p1,p2"), 0);
}

static enum tbl_input input(struct fx *f, const char *line)
{
    return tbl_core_input(&f->core, line, 0);
}

static struct tny_wire_ack ack_make(const char *key,
                                    enum tny_wire_ack_status st,
                                    enum tny_wire_ack_reason reason,
                                    const char *text)
{
    struct tny_wire_ack k;
    memset(&k, 0, sizeof(k));
    snprintf(k.key, sizeof(k.key), "%s", key);
    k.status = st;
    k.reason = reason;
    snprintf(k.reason_text, sizeof(k.reason_text), "%s", text);
    return k;
}

/* Enters an NH result and has both players confirm it. */
static void nh_submit(struct fx *f)
{
    assert_int_equal(input(f, "result {\"winner\":\"p1\",\"hq_diff\":7}"),
                     TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_OK);
}

/* ---- assignments -------------------------------------------------------- */

static void test_starts_waiting_and_shows_assignment(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    assert_string_equal(last_line(f), "state waiting");
    assert_state(f, TBL_STATE_WAITING);
    nh_table(f);
    assert_true(has_line(f, "assigned event=ev1 round=1 table=4 version=1 "
                            "game=neuroshima-hex stage=swiss seats=p1,p2"));
    assert_true(has_line(f, "seat 1 id=p1 name=\"Name of p1\""));
    assert_true(has_line(f, "seat 2 id=p2 name=\"Name of p2\""));
    assert_string_equal(last_line(f), "state playing");
    fx_free(f);
}

/* Issue 19 item 3: a seat's side goes out on the table's line protocol
 * (the simulated tables of the e2e tests read it there). */
static void test_issue19_seat_line_has_its_side(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct tny_wire_assignment *a =
        asg_make(1, "ev1", 1, 4, "two-player", "swiss", "p1,p2");
    snprintf(a->seats[0].side, sizeof(a->seats[0].side), "corp");
    snprintf(a->seats[1].side, sizeof(a->seats[1].side), "runner");
    apply(f, a, 0);
    assert_true(has_line(f, "seat 1 id=p1 name=\"Name of p1\" side=\"corp\""));
    assert_true(
        has_line(f, "seat 2 id=p2 name=\"Name of p2\" side=\"runner\""));
    fx_free(f);
}

static void test_stale_assignment_version_ignored(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    bool applied = true;
    struct tny_wire_assignment *a =
        asg_make(5, "ev1", 2, 9, "neuroshima-hex", "swiss", "p1,p2");
    apply(f, a, 0);
    rec_clear(&f->rec);

    /* A lower version (a retained copy restored from disk) and the same
     * version again change nothing. */
    a = asg_make(3, "ev1", 1, 2, "neuroshima-hex", "swiss", "p3,p4");
    tbl_core_assignment(&f->core, a, 0, &applied);
    free(a);
    assert_false(applied);
    assert_string_equal(last_line(f), "stale assign version=3 have=5");
    a = asg_make(5, "ev1", 1, 2, "neuroshima-hex", "swiss", "p3,p4");
    tbl_core_assignment(&f->core, a, 0, &applied);
    free(a);
    assert_false(applied);
    assert_int_equal(f->core.asg.table, 9);
    assert_int_equal(f->core.asg.round, 2);
    assert_int_equal(count_prefix(f, "assigned"), 0);
    assert_int_equal(count_prefix(f, "state"), 0);
    fx_free(f);
}

static void test_new_assignment_version_replaces_old(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    assert_int_equal(input(f, "result winner=p1 hq_diff=3"), TBL_INPUT_OK);
    assert_state(f, TBL_STATE_CONFIRMING);

    /* Same table, new version (e.g. a clock change): the entry stays. */
    apply(f, asg_make(2, "ev1", 1, 4, "neuroshima-hex", "swiss", "p1,p2"), 0);
    assert_state(f, TBL_STATE_CONFIRMING);
    assert_int_equal(f->core.asg_version, 2);

    /* A swap gives another table: the entry is dropped. */
    rec_clear(&f->rec);
    apply(f, asg_make(3, "ev1", 1, 4, "neuroshima-hex", "swiss", "p1,p9"), 0);
    assert_true(has_line(f, "assigned event=ev1 round=1 table=4 version=3"));
    assert_string_equal(last_line(f), "state playing");
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_ERROR);
    fx_free(f);
}

static void test_cleared_and_idle_assignments(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    tbl_core_clear_assignment(&f->core);
    assert_string_equal(last_line(f), "state waiting");
    apply(f, asg_make(2, "ev1", 2, 0, "neuroshima-hex", "swiss", ""), 0);
    assert_true(has_line(f, "assigned event=ev1 round=2 table=0"));
    assert_string_equal(last_line(f), "state idle");
    rec_clear(&f->rec);
    assert_int_equal(input(f, "result winner=p1 hq_diff=1"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f), "error result: this device has no "
                                      "table this round");
    fx_free(f);
}

/* ---- confirmations ------------------------------------------------------ */

static void test_every_seated_player_must_confirm(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    apply(f, asg_make(1, "cat", 3, 2, "catan", "round", "a1,b2,c3,d4"), 0);
    assert_int_equal(
        input(f, "result {\"vp\":{\"a1\":10,\"b2\":8,\"c3\":7,\"d4\":5}}"),
        TBL_INPUT_OK);
    assert_true(has_line(f, "result entered need=a1,b2,c3,d4"));
    const char *order[] = {"c3", "a1", "d4"};
    for (int i = 0; i < 3; i++) {
        char line[32];
        snprintf(line, sizeof(line), "confirm %s", order[i]);
        assert_int_equal(input(f, line), TBL_INPUT_OK);
        assert_int_equal(f->rec.n_subs, 0);
        assert_state(f, TBL_STATE_CONFIRMING);
    }
    assert_string_equal(last_line(f), "confirmed d4 need=b2");
    assert_int_equal(input(f, "confirm b2"), TBL_INPUT_OK);
    assert_int_equal(f->rec.n_subs, 1);
    const struct tny_wire_submission *s = &f->rec.subs[0];
    assert_string_equal(s->key, "table-007.3.1");
    assert_string_equal(s->device_id, "table-007");
    assert_string_equal(s->event_id, "cat");
    assert_int_equal(s->round, 3);
    assert_int_equal(s->table, 2);
    assert_int_equal(s->assignment_version, 1);
    assert_int_equal(s->n_confirmed, 4);
    assert_string_equal(s->confirmed[0], "a1");
    assert_string_equal(s->confirmed[3], "d4");
    assert_int_equal(s->result.game, TNY_GAME_CATAN);
    assert_int_equal(s->result.n_players, 4);
    assert_true(has_line(f, "result pending key=table-007.3.1"));
    assert_string_equal(last_line(f), "state submitted");
    fx_free(f);
}

static void test_confirm_refusals_name_the_problem(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f),
                        "error confirm: no result to confirm (state playing)");
    assert_int_equal(input(f, "result winner=p2 hq_diff=4"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p9"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f),
                        "error confirm: \"p9\" is not a player of this table "
                        "(players: p1,p2)");
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f), "error confirm: p1 already confirmed");
    assert_int_equal(input(f, "confirm"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f), "error confirm: missing the player id");
    assert_int_equal(input(f, "confirm p1 p2"), TBL_INPUT_ERROR);
    assert_int_equal(f->rec.n_subs, 0);
    assert_state(f, TBL_STATE_CONFIRMING);
    fx_free(f);
}

static void test_player_reject_returns_to_editing(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    assert_int_equal(input(f, "result winner=p2 hq_diff=4"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_OK);
    assert_int_equal(input(f, "reject p1"), TBL_INPUT_OK);
    assert_true(has_line(f, "rejected p1"));
    assert_string_equal(last_line(f), "state playing");
    /* The rejected entry is gone: p1's later confirm has nothing to
     * confirm, and a corrected entry needs both confirmations again. */
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_ERROR);
    assert_int_equal(input(f, "result winner=p1 hq_diff=4"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_OK);
    assert_int_equal(f->rec.n_subs, 0);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_OK);
    assert_int_equal(f->rec.n_subs, 1);
    assert_string_equal(f->rec.subs[0].result.winner_id, "p1");
    fx_free(f);
}

static void test_failed_store_keeps_the_entry(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    f->rec.fail_submit = 1;
    assert_int_equal(input(f, "result winner=p1 hq_diff=2"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_ERROR);
    assert_string_equal(last_line(f), "error outbox: disk full");
    assert_state(f, TBL_STATE_CONFIRMING);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_OK);
    assert_int_equal(f->rec.n_subs, 1);
    assert_state(f, TBL_STATE_SUBMITTED);
    fx_free(f);
}

/* ---- the hub's answers --------------------------------------------------- */

static void test_hub_rejection_reason_shown_and_editing_again(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    nh_submit(f);
    struct tny_wire_ack k = ack_make(
        f->rec.subs[0].key, TNY_WIRE_ACK_REJECTED,
        TNY_WIRE_REASON_INVALID_RESULT,
        "result_submission.result.nh.hq_diff: expected 0..40, got \"41\"");
    tbl_core_ack(&f->core, &k);
    assert_true(
        has_line(f, "ack rejected key=table-007.3.1 "
                    "reason=invalid_result text=\"result_submission."
                    "result.nh.hq_diff: expected 0..40, got \\\"41\\\"\""));
    assert_string_equal(last_line(f), "state playing");
    /* A corrected entry is a new submission with a new key. */
    nh_submit(f);
    assert_int_equal(f->rec.n_subs, 2);
    assert_string_equal(f->rec.subs[1].key, "table-007.3.2");
    assert_state(f, TBL_STATE_SUBMITTED);
    fx_free(f);
}

static void test_conflict_shows_reason(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    nh_submit(f);
    struct tny_wire_ack k = ack_make(f->rec.subs[0].key, TNY_WIRE_ACK_CONFLICT,
                                     TNY_WIRE_REASON_ALREADY_CONFIRMED, "");
    tbl_core_ack(&f->core, &k);
    assert_true(has_line(f, "ack conflict key=table-007.3.1 "
                            "reason=already_confirmed"));
    assert_state(f, TBL_STATE_PLAYING);
    fx_free(f);
}

static void test_accepted_and_duplicate_are_done(void **state)
{
    (void)state;
    for (int dup = 0; dup < 2; dup++) {
        struct fx *f = fx_new();
        nh_table(f);
        nh_submit(f);
        struct tny_wire_ack k =
            ack_make(f->rec.subs[0].key,
                     dup ? TNY_WIRE_ACK_DUPLICATE : TNY_WIRE_ACK_ACCEPTED,
                     TNY_WIRE_REASON_NONE, "");
        tbl_core_ack(&f->core, &k);
        assert_true(has_line(f, dup ? "ack duplicate key=table-007.3.1"
                                    : "ack accepted key=table-007.3.1"));
        assert_string_equal(last_line(f), "state done");
        assert_int_equal(input(f, "result winner=p2 hq_diff=1"),
                         TBL_INPUT_ERROR);
        assert_true(strstr(last_line(f), "only the organiser") != NULL);
        fx_free(f);
    }
}

static void test_pending_confirmation_and_foreign_keys(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    nh_submit(f);
    /* An ack for another key (an older submission) changes no state. */
    struct tny_wire_ack other = ack_make("table-007.2.9", TNY_WIRE_ACK_ACCEPTED,
                                         TNY_WIRE_REASON_NONE, "");
    tbl_core_ack(&f->core, &other);
    assert_string_equal(last_line(f), "ack accepted key=table-007.2.9");
    assert_state(f, TBL_STATE_SUBMITTED);
    struct tny_wire_ack k =
        ack_make(f->rec.subs[0].key, TNY_WIRE_ACK_PENDING_CONFIRMATION,
                 TNY_WIRE_REASON_UNCONFIRMED, "");
    tbl_core_ack(&f->core, &k);
    assert_string_equal(last_line(f), "state pending_confirmation");
    fx_free(f);
}

static void test_restored_submission_after_restart(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    nh_submit(f);
    struct tny_wire_submission saved = f->rec.subs[0];
    fx_free(f);

    /* A new run: the outbox's newest entry is restored before the retained
     * assignment arrives. */
    f = fx_new();
    tbl_core_restore(&f->core, &saved, TBL_SUB_SENT);
    assert_state(f, TBL_STATE_WAITING);
    nh_table(f);
    assert_string_equal(last_line(f), "state submitted");
    assert_int_equal(input(f, "result winner=p2 hq_diff=1"), TBL_INPUT_ERROR);
    struct tny_wire_ack k =
        ack_make(saved.key, TNY_WIRE_ACK_ACCEPTED, TNY_WIRE_REASON_NONE, "");
    tbl_core_ack(&f->core, &k);
    assert_state(f, TBL_STATE_DONE);
    /* The next round's assignment starts afresh. */
    apply(f, asg_make(2, "ev1", 2, 1, "neuroshima-hex", "swiss", "p1,p3"), 0);
    assert_state(f, TBL_STATE_PLAYING);
    fx_free(f);
}

/* ---- input lines -------------------------------------------------------- */

static void test_bad_input_lines_refused_with_a_message(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        const char *error; /* expected prefix of the error line */
    } cases[] = {
        {"fly away", "error unknown command \"fly\""},
        {"result", "error result: missing the result"},
        {"result {\"winner\":\"p1\",", "error result: invalid JSON"},
        {"result [1,2]", "error result: expected a JSON object"},
        {"result {\"winner\":\"p7\",\"hq_diff\":3}", "error result.winner"},
        {"result {\"winner\":\"p1\"}", "error result.hq_diff: missing"},
        {"result {\"winner\":\"p1\",\"hq_diff\":3,\"vp\":1}",
         "error result.vp: unknown key"},
        {"result winner=p1 hq_diff=900", "error result"},
        {"result winner", "error result: expected key=value"},
        {"result winner=p1 winner=p2", "error result.winner: given twice"},
        {"reject", "error reject: missing the player id"},
        {"confirm p1", "error confirm: no result to confirm"},
    };
    struct fx *f = fx_new();
    nh_table(f);
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        rec_clear(&f->rec);
        assert_int_equal(input(f, cases[i].line), TBL_INPUT_ERROR);
        assert_int_equal(f->rec.n_lines, 1);
        if (strncmp(last_line(f), cases[i].error, strlen(cases[i].error)))
            fail_msg("\"%s\" gave \"%s\", expected \"%s...\"", cases[i].line,
                     last_line(f), cases[i].error);
        assert_state(f, TBL_STATE_PLAYING);
    }
    rec_clear(&f->rec);
    assert_int_equal(input(f, "   "), TBL_INPUT_OK);
    assert_int_equal(f->rec.n_lines, 0);
    assert_int_equal(input(f, "quit"), TBL_INPUT_QUIT);
    fx_free(f);
}

static void test_result_forms_for_each_game(void **state)
{
    (void)state;
    static const struct {
        const char *game, *stage, *seats, *line;
    } cases[] = {
        {"neuroshima-hex", "swiss", "p1,p2", "result draw=true"},
        {"neuroshima-hex", "swiss", "p1,p2",
         "result {\"winner\":\"p2\",\"hq_diff\":12}"},
        {"tantrix", "swiss", "t.1,t.2", "result scores.t.1=35 scores.t.2=20"},
        {"tantrix", "swiss", "t1,t2", "result default_win=t2"},
        {"agricola", "prelim", "a,b,c,d",
         "result {\"vp\":{\"a\":40,\"b\":31,\"c\":30,\"d\":12}}"},
        {"got-lcg2", "swiss", "g1,g2", "result winner=g1 modified=true"},
        {"got-lcg2", "elimination", "g1,g2", "result games=g1,g2,g2"},
        {"catan", "round", "c1,c2,c3", "result vp.c1=10 vp.c2=7 vp.c3=3"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct fx *f = fx_new();
        struct tny_wire_assignment *a = asg_make(
            1, "ev", 1, 1, cases[i].game, cases[i].stage, cases[i].seats);
        a->best_of_three = strcmp(cases[i].stage, "elimination") == 0;
        apply(f, a, 0);
        if (input(f, cases[i].line) != TBL_INPUT_OK)
            fail_msg("%s: \"%s\" refused: %s", cases[i].game, cases[i].line,
                     last_line(f));
        assert_state(f, TBL_STATE_CONFIRMING);
        fx_free(f);
    }
}

static void test_status_block(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    nh_table(f);
    tbl_core_set_net(&f->core, true, 2);
    assert_string_equal(last_line(f), "net online queued=2");
    rec_clear(&f->rec);
    tbl_core_set_net(&f->core, true, 2); /* unchanged: no line */
    assert_int_equal(f->rec.n_lines, 0);
    assert_int_equal(input(f, "status"), TBL_INPUT_OK);
    assert_string_equal(f->rec.lines[0], "state playing");
    assert_true(has_line(f, "assigned event=ev1"));
    assert_true(has_line(f, "net online queued=2"));
    assert_string_equal(last_line(f), "status end");
    fx_free(f);
}

/* ---- clock (protocol "Time sync"; CM-7) ------------------------------------
 */

/* Issue 8: a retained message's hub_now_ms is as old as the message; the
 * time sync's offset places the deadline right, for this clock and the
 * next messages; a finished table's clock stands. */
static void test_time_sync_and_finished_clock(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct tny_wire_assignment *a =
        asg_make(1, "ev1", 1, 4, "neuroshima-hex", "swiss", "p1,p2");
    /* Made when 45 minutes were left; delivered 2 minutes later. */
    a->has_clock = true;
    a->clock.state = TNY_ROUND_CLOCK_RUNNING;
    a->clock.hub_now_ms = 1000000000000;
    a->clock.deadline_ms = 1000000000000 + 45 * 60000;
    apply(f, a, 0);
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 0), 45 * 60000);
    /* The hub's clock is 2 minutes on when its time sync answer arrives. */
    rec_clear(&f->rec);
    tbl_core_time_sync(&f->core, 1000000000000 + 120000, 6, 0);
    assert_true(has_line(f, "time sync offset_ms=1000000120000 rtt_ms=6"));
    assert_string_equal(last_line(f),
                        "clock remaining_ms=2580000 state=running");
    assert_true(f->core.clock.synced);
    /* A later (retained, old) RoundClock is placed with the sync too. */
    struct tny_wire_clock rc = {0};
    rc.version = 2;
    snprintf(rc.event_id, sizeof(rc.event_id), "ev1");
    rc.round = 1;
    rc.clock.state = TNY_ROUND_CLOCK_RUNNING;
    rc.clock.hub_now_ms = 1000000000000 - 3600000;             /* an hour old */
    rc.clock.deadline_ms = 1000000000000 + 45 * 60000 + 60000; /* +1 min */
    assert_int_equal(tbl_core_round_clock(&f->core, &rc, 1000), 0);
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 1000),
                     44 * 60000 - 1000);
    /* Finished (sent): the clock stands from then on. */
    assert_int_equal(input(f, "result winner=p1 hq_diff=3"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p1"), TBL_INPUT_OK);
    assert_int_equal(input(f, "confirm p2"), TBL_INPUT_OK);
    assert_state(f, TBL_STATE_SUBMITTED);
    tbl_core_follow(&f->core, 2000);
    assert_int_equal(tbl_core_clock_left(&f->core, 2000), 44 * 60000 - 2000);
    assert_int_equal(tbl_core_clock_left(&f->core, 900000), 44 * 60000 - 2000);
    assert_int_equal(tbl_core_tick(&f->core, 900000), -1);
    fx_free(f);
}

static void test_CM_7_clock_offset_and_round_clock(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct tny_wire_assignment *a =
        asg_make(1, "ev1", 2, 5, "neuroshima-hex", "swiss", "p1,p2");
    /* The hub's clock is 1e12; the table's monotonic clock reads 5000 when
     * the message arrives: 10 minutes left then, 9 a minute later. */
    a->has_clock = true;
    a->clock.state = TNY_ROUND_CLOCK_RUNNING;
    a->clock.hub_now_ms = 1000000000000;
    a->clock.deadline_ms = 1000000000000 + 600000;
    apply(f, a, 5000);
    assert_true(has_line(f, "clock remaining_ms=600000 state=running"));
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 65000), 540000);
    assert_int_equal(f->core.clock.offset_ms, 1000000000000 - 5000);

    /* A RoundClock: paused with 5 minutes, table 5 extended by 2. */
    struct tny_wire_table_extension ext[2] = {{3, 60000, -1, false},
                                              {5, 120000, -1, false}};
    struct tny_wire_clock rc = {0};
    rc.version = 4;
    snprintf(rc.event_id, sizeof(rc.event_id), "ev1");
    rc.round = 2;
    rc.clock.state = TNY_ROUND_CLOCK_PAUSED;
    rc.clock.hub_now_ms = 1000000100000;
    rc.clock.remaining_ms = 300000;
    rc.n_extensions = 2;
    rc.extensions = ext;
    rec_clear(&f->rec);
    assert_int_equal(tbl_core_round_clock(&f->core, &rc, 70000), 0);
    assert_string_equal(last_line(f), "clock remaining_ms=420000 state=paused");
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 999999), 420000);

    /* Older RoundClock versions and other events' clocks are ignored. */
    rc.version = 3;
    rc.clock.remaining_ms = 1000;
    assert_int_equal(tbl_core_round_clock(&f->core, &rc, 80000), 0);
    assert_string_equal(last_line(f), "stale clock version=3 have=4");
    rc.version = 9;
    snprintf(rc.event_id, sizeof(rc.event_id), "other");
    assert_int_equal(tbl_core_round_clock(&f->core, &rc, 80000), 0);
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 80000), 420000);

    /* The RoundClock wins over a newer assignment's copy for that round. */
    a = asg_make(2, "ev1", 2, 5, "neuroshima-hex", "swiss", "p1,p2");
    a->has_clock = true;
    a->clock.state = TNY_ROUND_CLOCK_READY;
    a->clock.hub_now_ms = 1000000000000;
    a->clock.remaining_ms = 5;
    apply(f, a, 90000);
    assert_int_equal(tny_table_clock_remaining(&f->core.clock, 90000), 420000);

    /* Running out: "clock expired" once. */
    rc.version = 5;
    snprintf(rc.event_id, sizeof(rc.event_id), "ev1");
    rc.n_extensions = 0;
    rc.clock.state = TNY_ROUND_CLOCK_RUNNING;
    rc.clock.hub_now_ms = 2000000000000;
    rc.clock.deadline_ms = 2000000000000 + 1000;
    assert_int_equal(tbl_core_round_clock(&f->core, &rc, 100000), 0);
    assert_int_equal(tbl_core_tick(&f->core, 100400), 600);
    rec_clear(&f->rec);
    assert_int_equal(tbl_core_tick(&f->core, 101000), -1);
    assert_int_equal(tbl_core_tick(&f->core, 105000), -1);
    assert_int_equal(count_prefix(f, "clock expired"), 1);
    fx_free(f);
}

/* ---- simulate ---------------------------------------------------------------
 */

static void test_simulated_results_are_valid_in_every_format(void **state)
{
    (void)state;
    static const struct {
        const char *game, *stage, *seats;
        bool bo3;
    } cases[] = {
        {"neuroshima-hex", "swiss", "n1,n2", false},
        {"neuroshima-hex", "elimination", "n1,n2", false},
        {"tantrix", "swiss", "t1,t2", false},
        {"agricola", "prelim", "a1,a2,a3,a4", false},
        {"agricola", "final", "a1,a2,a3,a4", false},
        {"got-lcg2", "swiss", "g1,g2", false},
        {"got-lcg2", "elimination", "g1,g2", true},
        {"catan", "round", "c1,c2,c3,c4", false},
        {"catan", "round", "c1,c2,c3", false},
    };
    int n = tu_property_cases(300);
    struct tny_rng rng;
    tny_rng_seed(&rng, 20240611);
    for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
        struct tny_wire_assignment *a = asg_make(
            1, "ev", 1, 7, cases[c].game, cases[c].stage, cases[c].seats);
        struct tbl_game g;
        struct tny_diag d = {{0}};
        a->best_of_three = cases[c].bo3;
        if (strcmp(cases[c].game, "neuroshima-hex") == 0) {
            snprintf(a->seats[0].armies[0], TNY_NAME_MAX, "Borgo");
            snprintf(a->seats[1].armies[0], TNY_NAME_MAX, "Hegemony");
            a->seats[0].n_armies = a->seats[1].n_armies = 1;
        }
        if (tbl_game_from_assignment(a, &g, &d) < 0)
            fail_msg("%s: %s", cases[c].game, d.msg);
        for (int i = 0; i < n; i++) {
            struct tny_wire_result r;
            struct tny_table checked;
            if (tbl_game_simulate(&g, &rng, &r, &d) < 0)
                fail_msg("%s: simulate: %s", cases[c].game, d.msg);
            /* What the hub does with it: ids -> seats and validation. */
            if (tny_wire_result_to_table(&g.ev, g.stage, &g.table, &r, "result",
                                         &checked, &d) < 0)
                fail_msg("%s: %s", cases[c].game, d.msg);
            assert_true(checked.has_result);
        }
        /* And through the core: entered, confirmed by all, submitted. */
        struct fx *f = fx_new();
        apply(f, a, 0);
        struct tny_wire_result r;
        assert_int_equal(tbl_game_simulate(&f->core.game, &rng, &r, &d), 0);
        assert_int_equal(tbl_core_enter_result(&f->core, &r, &d), 0);
        for (int32_t s = 0; s < f->core.asg.n_seats; s++) {
            char id[TNY_WIRE_ID_MAX + 1];
            snprintf(id, sizeof(id), "%s", f->core.asg.seats[s].player_id);
            assert_int_equal(tbl_core_confirm(&f->core, id, &d), 0);
        }
        assert_int_equal(f->rec.n_subs, 1);
        assert_state(f, TBL_STATE_SUBMITTED);
        fx_free(f);
        tbl_game_release(&g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_starts_waiting_and_shows_assignment),
        cmocka_unit_test(test_stale_assignment_version_ignored),
        cmocka_unit_test(test_issue19_seat_line_has_its_side),
        cmocka_unit_test(test_new_assignment_version_replaces_old),
        cmocka_unit_test(test_cleared_and_idle_assignments),
        cmocka_unit_test(test_every_seated_player_must_confirm),
        cmocka_unit_test(test_confirm_refusals_name_the_problem),
        cmocka_unit_test(test_player_reject_returns_to_editing),
        cmocka_unit_test(test_failed_store_keeps_the_entry),
        cmocka_unit_test(test_hub_rejection_reason_shown_and_editing_again),
        cmocka_unit_test(test_conflict_shows_reason),
        cmocka_unit_test(test_accepted_and_duplicate_are_done),
        cmocka_unit_test(test_pending_confirmation_and_foreign_keys),
        cmocka_unit_test(test_restored_submission_after_restart),
        cmocka_unit_test(test_bad_input_lines_refused_with_a_message),
        cmocka_unit_test(test_result_forms_for_each_game),
        cmocka_unit_test(test_status_block),
        cmocka_unit_test(test_CM_7_clock_offset_and_round_clock),
        cmocka_unit_test(test_time_sync_and_finished_clock),
        cmocka_unit_test(test_simulated_results_are_valid_in_every_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
