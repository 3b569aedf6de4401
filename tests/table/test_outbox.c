/* test_outbox.c - the table's durable outbox (table-client/outbox.h) on a
 * real SQLite file in a temp dir: stored entries survive a reopen, acked
 * ones are done, a child SIGKILLed in the middle of its writes loses none
 * of the entries it reported as stored (docs/protocol.md "Idempotency and
 * acknowledgement" 1), and the resend schedule (1-5 s doubling to 60 s,
 * jittered).
 */
#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outbox.h"

static char g_dir[64];
static char g_path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/tny-outbox-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_path, sizeof(g_path), "%s/outbox.db", g_dir);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static struct tbl_outbox *open_ok(void)
{
    struct tbl_outbox *ob = NULL;
    struct tny_diag d = {{0}};
    if (tbl_outbox_open(g_path, &ob, &d) < 0)
        fail_msg("open: %s", d.msg);
    return ob;
}

static void put_ok(struct tbl_outbox *ob, const char *key, const char *body)
{
    struct tny_diag d = {{0}};
    if (tbl_outbox_put(ob, key, "tourney/v1/device/table-001/result",
                       (const uint8_t *)body, strlen(body), 1, &d) < 0)
        fail_msg("put %s: %s", key, d.msg);
}

static void test_stored_entries_survive_reopen(void **state)
{
    (void)state;
    struct tny_diag d = {{0}};
    struct tbl_outbox_entry *e = NULL;
    int32_t n = 0;
    struct tbl_outbox *ob = open_ok();

    assert_int_equal(tbl_outbox_boot(ob), 1);
    put_ok(ob, "table-001.1.1", "first");
    put_ok(ob, "table-001.1.2", "second\001\000x"); /* strlen: "second\1" */
    tbl_outbox_close(ob);

    ob = open_ok();
    assert_int_equal(tbl_outbox_boot(ob), 2);
    assert_int_equal(tbl_outbox_pending(ob, &e, &n, &d), 0);
    assert_int_equal(n, 2);
    assert_string_equal(e[0].key, "table-001.1.1");
    assert_string_equal(e[0].topic, "tourney/v1/device/table-001/result");
    assert_int_equal(e[0].len, 5);
    assert_memory_equal(e[0].payload, "first", 5);
    assert_string_equal(e[1].key, "table-001.1.2");
    assert_int_equal(e[1].len, 7);
    assert_true(e[0].seq < e[1].seq);
    assert_false(e[0].done);
    tbl_outbox_entries_free(e, n);
    tbl_outbox_close(ob);
}

static void test_ack_marks_done(void **state)
{
    (void)state;
    struct tny_diag d = {{0}};
    struct tbl_outbox_entry *e = NULL, one;
    int32_t n = 0, count = -1;
    bool changed = false;
    struct tbl_outbox *ob = open_ok();

    put_ok(ob, "k.1", "a");
    put_ok(ob, "k.2", "b");
    put_ok(ob, "k.3", "c");
    assert_int_equal(
        tbl_outbox_done(ob, "k.2", TNY_WIRE_ACK_ACCEPTED, 5, &changed, &d), 0);
    assert_true(changed);
    /* The same ack again (QoS 1 duplicate): nothing changes. */
    assert_int_equal(
        tbl_outbox_done(ob, "k.2", TNY_WIRE_ACK_ACCEPTED, 6, &changed, &d), 0);
    assert_false(changed);
    assert_int_equal(tbl_outbox_done(ob, "k.9", 1, 6, &changed, &d),
                     TNY_ENOTFOUND);
    tbl_outbox_close(ob);

    ob = open_ok();
    assert_int_equal(tbl_outbox_count(ob, &count, &d), 0);
    assert_int_equal(count, 2);
    assert_int_equal(tbl_outbox_pending(ob, &e, &n, &d), 0);
    assert_int_equal(n, 2);
    assert_string_equal(e[0].key, "k.1");
    assert_string_equal(e[1].key, "k.3");
    tbl_outbox_entries_free(e, n);
    assert_int_equal(tbl_outbox_get(ob, "k.2", &one, &d), 0);
    assert_true(one.done);
    assert_int_equal(one.ack_status, TNY_WIRE_ACK_ACCEPTED);
    free(one.payload);
    tbl_outbox_close(ob);
}

static void test_refuses_reused_keys_and_bad_entries(void **state)
{
    (void)state;
    struct tny_diag d = {{0}};
    struct tbl_outbox *ob = open_ok();
    const uint8_t x = 1;

    put_ok(ob, "dup.1", "a");
    assert_int_equal(tbl_outbox_put(ob, "dup.1", "t/x", &x, 1, 0, &d),
                     TNY_ECONFLICT);
    assert_non_null(strstr(d.msg, "dup.1"));
    assert_int_equal(tbl_outbox_put(ob, "bad key", "t/x", &x, 1, 0, &d),
                     TNY_EINVAL);
    assert_int_equal(tbl_outbox_put(ob, "ok.1", "t/x", &x, 0, 0, &d),
                     TNY_EINVAL);
    assert_int_equal(tbl_outbox_put(ob, "ok.1", "", &x, 1, 0, &d), TNY_EINVAL);
    tbl_outbox_close(ob);

    struct tbl_outbox *none = NULL;
    assert_int_equal(tbl_outbox_open("/nonexistent-dir/x/outbox.db", &none, &d),
                     TNY_ESTATE);
    assert_null(none);
    assert_non_null(strstr(d.msg, "cannot open"));
}

/* A child stores entries as fast as it can and reports each key's number
 * on a pipe after tbl_outbox_put returned; the parent SIGKILLs it in the
 * middle.  Every reported entry must be there, pending, intact. */
static void test_sigkill_mid_writes_loses_nothing_reported(void **state)
{
    (void)state;
    int rounds = 3;
    int32_t next = 0; /* first key number of this round */

    for (int r = 0; r < rounds; r++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            struct tbl_outbox *ob = NULL;
            if (tbl_outbox_open(g_path, &ob, NULL) < 0)
                _exit(3);
            for (int32_t i = next;; i++) {
                char key[32], body[64];
                snprintf(key, sizeof(key), "kill.%d", (int)i);
                snprintf(body, sizeof(body), "payload of entry %d", (int)i);
                if (tbl_outbox_put(ob, key, "t/r", (const uint8_t *)body,
                                   strlen(body), i, NULL) < 0)
                    _exit(4);
                if (write(fds[1], &i, sizeof(i)) != (ssize_t)sizeof(i))
                    _exit(5);
            }
        }
        close(fds[1]);
        int32_t got = -1, reported = 0, v;
        while (reported < 25 && read(fds[0], &v, sizeof(v)) == sizeof(v)) {
            got = v;
            reported++;
        }
        kill(pid, SIGKILL);
        /* Reports already in the pipe count too. */
        while (read(fds[0], &v, sizeof(v)) == sizeof(v))
            got = v;
        close(fds[0]);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st));
        assert_true(got >= next + 24);

        struct tbl_outbox *ob = open_ok();
        struct tny_diag d = {{0}};
        for (int32_t i = next; i <= got; i++) {
            char key[32], body[64];
            struct tbl_outbox_entry e;
            snprintf(key, sizeof(key), "kill.%d", (int)i);
            snprintf(body, sizeof(body), "payload of entry %d", (int)i);
            if (tbl_outbox_get(ob, key, &e, &d) < 0)
                fail_msg("round %d: reported %s lost: %s", r, key, d.msg);
            assert_false(e.done);
            assert_int_equal(e.len, strlen(body));
            assert_memory_equal(e.payload, body, e.len);
            free(e.payload);
        }
        /* Continue after whatever the child managed to commit. */
        int32_t count = 0;
        assert_int_equal(tbl_outbox_count(ob, &count, &d), 0);
        assert_true(count >= got + 1);
        next = count;
        tbl_outbox_close(ob);
    }
}

static void test_resend_schedule_doubles_to_60s_with_jitter(void **state)
{
    (void)state;
    static const int64_t lo[] = {1000, 2000, 4000, 8000, 12000, 12000};
    static const int64_t hi[] = {5000, 10000, 20000, 40000, 60000, 60000};
    struct tny_rng rng, again;
    int n = tu_property_cases(4000);

    tny_rng_seed(&rng, 7);
    for (int attempt = 0; attempt < 6; attempt++) {
        int64_t min = INT64_MAX, max = 0;
        for (int i = 0; i < n; i++) {
            int64_t ms = tbl_outbox_backoff_ms(&rng, attempt);
            assert_in_range(ms, lo[attempt], hi[attempt]);
            min = ms < min ? ms : min;
            max = ms > max ? ms : max;
        }
        /* Spread over the whole range: tables do not resend together. */
        int64_t span = hi[attempt] - lo[attempt];
        assert_true(min < lo[attempt] + span / 10);
        assert_true(max > hi[attempt] - span / 10);
    }
    for (int attempt = 6; attempt < 40; attempt++)
        assert_in_range(tbl_outbox_backoff_ms(&rng, attempt), 12000, 60000);
    /* Seeded: the same seed gives the same schedule. */
    tny_rng_seed(&rng, 99);
    tny_rng_seed(&again, 99);
    for (int i = 0; i < 100; i++)
        assert_int_equal(tbl_outbox_backoff_ms(&rng, i % 7),
                         tbl_outbox_backoff_ms(&again, i % 7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_stored_entries_survive_reopen,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_ack_marks_done, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_refuses_reused_keys_and_bad_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_sigkill_mid_writes_loses_nothing_reported, setup, teardown),
        cmocka_unit_test(test_resend_schedule_doubles_to_60s_with_jitter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
