/* test_store_oom.c - the store when memory runs out (issue 12, fault
 * injection): SQLite's allocator is replaced (SQLITE_CONFIG_MALLOC, before
 * SQLite initialises, so this is a program of its own) by one that fails
 * every allocation from the Nth on.  A store write tried with N = 0, 1,
 * 2, ... must fail cleanly until it succeeds: never a crash, never half a
 * write, and the store works again as soon as memory is back.
 */
#include "testutil.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "tny/event.h"

static sqlite3_mem_methods real_mem;
/* Allocations from number fail_at on fail (-1: none); counted across the
 * store's threads. */
static atomic_long fail_at = -1, n_allocs, n_failed;

static bool fail_now(void)
{
    long at = atomic_load(&fail_at);
    if (at < 0 || atomic_fetch_add(&n_allocs, 1) < at)
        return false;
    atomic_fetch_add(&n_failed, 1);
    return true;
}

static void *x_malloc(int n)
{
    return fail_now() ? NULL : real_mem.xMalloc(n);
}

static void *x_realloc(void *p, int n)
{
    return fail_now() ? NULL : real_mem.xRealloc(p, n);
}

#define OK(call)                                                               \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != 0)                                                          \
            fail_msg("%s: rc %d: %s", #call, rc_, diag.msg);                   \
    } while (0)

static int32_t n_players(struct hub_store *s)
{
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    OK(hub_store_load_event(s, "oom", &ev, &diag));
    int32_t n = ev.n_players;
    tny_event_release(&ev);
    return n;
}

static void test_CM_1_put_player_survives_every_allocation_failure(void **st)
{
    (void)st;
    struct tny_diag diag = {{0}};
    struct hub_store_options o = {.flags = HUB_STORE_NO_SYNC};
    struct hub_store *s = NULL;
    char path[64];
    snprintf(path, sizeof(path), "/tmp/test_store_oom.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    OK(hub_store_open_with(path, &o, &s, &diag));
    static const char event[] =
        "{\"format\": \"neuroshima-hex\", \"seed\": 1, \"players\": "
        "[{\"id\": \"p1\", \"name\": \"One\"}, {\"id\": \"p2\", \"name\": "
        "\"Two\"}]}";
    OK(hub_store_create_event(s, "oom", event, strlen(event), "hub", &diag));
    assert_int_equal(n_players(s), 2);

    /* Issue 17 item 1: the typed player the service hands over. */
    struct tny_format fmt = {.name = "neuroshima-hex"};
    struct tny_player player = {.id = "p3", .name = "Three"};
    int rc = -1, failures = 0;
    for (long n = 0; rc != 0; n++) {
        assert_true(n < 100000); /* a write needs fewer allocations */
        atomic_store(&n_allocs, 0);
        atomic_store(&n_failed, 0);
        atomic_store(&fail_at, n);
        rc = hub_store_put_player(s, "oom", &fmt, &player, "hub", &diag);
        atomic_store(&fail_at, -1);
        if (rc == 0) {
            assert_int_equal(atomic_load(&n_failed), 0);
            break;
        }
        /* A clean refusal, the store unchanged and usable. */
        failures++;
        assert_true(rc == TNY_ENOMEM || rc == TNY_ESTATE);
        assert_true(diag.msg[0] != '\0');
        assert_int_equal(n_players(s), 2);
    }
    print_message("put_player: %d allocation failures refused cleanly\n",
                  failures);
    assert_true(failures > 10);
    assert_int_equal(n_players(s), 3);
    OK(hub_store_check(s, &diag));
    hub_store_close(s);
    char side[80];
    unlink(path);
    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
}

int main(void)
{
    sqlite3_mem_methods ours;
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_mem) != SQLITE_OK)
        return 1;
    ours = real_mem;
    ours.xMalloc = x_malloc;
    ours.xRealloc = x_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &ours) != SQLITE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_CM_1_put_player_survives_every_allocation_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
