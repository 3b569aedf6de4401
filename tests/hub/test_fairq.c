/* test_fairq.c - the hub's result queue is fair between devices (issue 12
 * part 4): round robin, each device in arrival order, a per-device bound
 * that refuses the flooding device's excess and never another device's. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub/fairq.h"

static struct tny_mqtt_message msg(int n)
{
    struct tny_mqtt_message m;
    memset(&m, 0, sizeof(m));
    m.kind = TNY_MQTT_MESSAGE;
    m.payload = malloc(16);
    assert_non_null(m.payload);
    m.mem = m.payload; /* what tny_mqtt_message_release frees */
    m.len = (size_t)snprintf((char *)m.payload, 16, "%d", n);
    return m;
}

static void push(struct hub_fairq *q, const char *dev, int n, bool want)
{
    struct tny_mqtt_message m = msg(n);
    bool ok = hub_fairq_push(q, dev, &m);
    assert_true(ok == want);
    if (!ok)
        tny_mqtt_message_release(&m);
}

static void test_flood_does_not_starve_honest_tables(void **state)
{
    (void)state;
    struct hub_fairq *q = NULL;
    assert_int_equal(hub_fairq_new(4, &q), 0);
    /* table-009 floods 1000 results; its 5th and later are refused. */
    for (int i = 0; i < 1000; i++)
        push(q, "table-009", i, i < 4);
    /* The honest tables' results arrive after the flood: all kept. */
    push(q, "table-001", 1, true);
    push(q, "table-002", 2, true);
    assert_int_equal(hub_fairq_count(q), 6);
    /* A batch of 3 serves every device once, in the order they came. */
    struct hub_fairq_item out[8];
    assert_int_equal(hub_fairq_take(q, out, 3), 3);
    assert_string_equal(out[0].device, "table-009");
    assert_string_equal((char *)out[0].ev.payload, "0");
    assert_string_equal(out[1].device, "table-001");
    assert_string_equal(out[2].device, "table-002");
    for (int i = 0; i < 3; i++)
        tny_mqtt_message_release(&out[i].ev);
    /* table-009 had its turn: table-001's next result goes first; a batch
     * carries one result per device, so the flood's backlog comes one by
     * one, in arrival order. */
    push(q, "table-001", 3, true);
    assert_int_equal(hub_fairq_take(q, out, 8), 2);
    assert_string_equal(out[0].device, "table-001");
    assert_string_equal(out[1].device, "table-009");
    assert_string_equal((char *)out[1].ev.payload, "1");
    for (int i = 0; i < 2; i++)
        tny_mqtt_message_release(&out[i].ev);
    for (int i = 2; i <= 3; i++) {
        char want[4];
        snprintf(want, sizeof(want), "%d", i);
        assert_int_equal(hub_fairq_take(q, out, 8), 1);
        assert_string_equal(out[0].device, "table-009");
        assert_string_equal((char *)out[0].ev.payload, want);
        tny_mqtt_message_release(&out[0].ev);
    }
    assert_int_equal(hub_fairq_count(q), 0);
    assert_int_equal(hub_fairq_take(q, out, 8), 0);
    /* Freed with messages waiting: nothing leaks (ASan build). */
    push(q, "table-003", 7, true);
    hub_fairq_free(q);
    assert_int_equal(hub_fairq_new(0, &q), TNY_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flood_does_not_starve_honest_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
