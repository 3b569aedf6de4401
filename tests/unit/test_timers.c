/* test_timers.c - the event loop's timers (tny/timers.h, issue 18 item 5):
 * deadline order, equal deadlines in arming order, re-arm, cancel,
 * callbacks that add and cancel timers, time gone past several deadlines,
 * the loop's wait, and a randomised run against a naive reference. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tny/error.h"
#include "tny/rng.h"
#include "tny/timers.h"

#define LOG_MAX 4096

struct log {
    int32_t ids[LOG_MAX];
    int64_t at[LOG_MAX];
    int n;
};

static void record(void *ctx, int32_t id, int64_t now)
{
    struct log *lg = ctx;
    assert_true(lg->n < LOG_MAX);
    lg->ids[lg->n] = id;
    lg->at[lg->n++] = now;
}

static struct tny_timers *timers(void)
{
    struct tny_timers *ts = NULL;
    assert_int_equal(tny_timers_new(&ts), TNY_OK);
    return ts;
}

static void test_runs_in_deadline_order(void **state)
{
    (void)state;
    struct tny_timers *ts = timers();
    struct log lg = {0};
    static const int64_t due[] = {50, 10, 40, 20, 30};
    int32_t id[5];
    for (int i = 0; i < 5; i++) {
        id[i] = tny_timers_add(ts, record, &lg);
        assert_true(id[i] > 0);
        assert_int_equal(tny_timers_arm(ts, id[i], due[i]), TNY_OK);
    }
    assert_int_equal(tny_timers_next(ts), 10);
    assert_int_equal(tny_timers_run(ts, 9), 0);
    assert_int_equal(tny_timers_run(ts, 35), 3);
    assert_int_equal(lg.n, 3);
    assert_int_equal(lg.ids[0], id[1]);
    assert_int_equal(lg.ids[1], id[3]);
    assert_int_equal(lg.ids[2], id[4]);
    assert_int_equal(lg.at[0], 35); /* callbacks get the run's now */
    assert_int_equal(tny_timers_next(ts), 40);
    assert_int_equal(tny_timers_run(ts, 1000), 2);
    assert_int_equal(lg.ids[3], id[2]);
    assert_int_equal(lg.ids[4], id[0]);
    /* one-shot: nothing armed any more */
    assert_false(tny_timers_armed(ts, id[0]));
    assert_int_equal(tny_timers_next(ts), TNY_TIMER_NEVER);
    assert_int_equal(tny_timers_run(ts, 5000), 0);
    tny_timers_free(ts);
}

static void test_equal_deadlines_in_arming_order(void **state)
{
    (void)state;
    struct tny_timers *ts = timers();
    struct log lg = {0};
    int32_t a = tny_timers_add(ts, record, &lg);
    int32_t b = tny_timers_add(ts, record, &lg);
    int32_t c = tny_timers_add(ts, record, &lg);
    assert_int_equal(tny_timers_arm(ts, c, 100), TNY_OK);
    assert_int_equal(tny_timers_arm(ts, a, 100), TNY_OK);
    assert_int_equal(tny_timers_arm(ts, b, 100), TNY_OK);
    /* re-arming c at the same deadline puts it behind the others */
    assert_int_equal(tny_timers_arm(ts, c, 100), TNY_OK);
    assert_int_equal(tny_timers_run(ts, 100), 3);
    assert_int_equal(lg.ids[0], a);
    assert_int_equal(lg.ids[1], b);
    assert_int_equal(lg.ids[2], c);
    tny_timers_free(ts);
}

static void test_rearm_replaces_the_deadline(void **state)
{
    (void)state;
    struct tny_timers *ts = timers();
    struct log lg = {0};
    int32_t a = tny_timers_add(ts, record, &lg);
    assert_int_equal(tny_timers_arm(ts, a, 100), TNY_OK);
    assert_int_equal(tny_timers_arm(ts, a, 200), TNY_OK); /* later */
    assert_int_equal(tny_timers_run(ts, 150), 0);
    assert_int_equal(tny_timers_due(ts, a), 200);
    assert_int_equal(tny_timers_arm(ts, a, 160), TNY_OK); /* earlier */
    assert_int_equal(tny_timers_run(ts, 160), 1);
    /* arm_by: no later than; an earlier deadline stays */
    assert_int_equal(tny_timers_arm_by(ts, a, 300), TNY_OK);
    assert_int_equal(tny_timers_arm_by(ts, a, 400), TNY_OK);
    assert_int_equal(tny_timers_due(ts, a), 300);
    assert_int_equal(tny_timers_arm_by(ts, a, 250), TNY_OK);
    assert_int_equal(tny_timers_due(ts, a), 250);
    assert_int_equal(tny_timers_run(ts, 1000), 1);
    assert_int_equal(lg.n, 2);
    /* bad ids and "never" are refused */
    assert_int_equal(tny_timers_arm(ts, 0, 5), TNY_EINVAL);
    assert_int_equal(tny_timers_arm(ts, a + 7, 5), TNY_EINVAL);
    assert_int_equal(tny_timers_arm(ts, a, TNY_TIMER_NEVER), TNY_EINVAL);
    tny_timers_free(ts);
}

static void test_cancel_and_remove(void **state)
{
    (void)state;
    struct tny_timers *ts = timers();
    struct log lg = {0};
    int32_t a = tny_timers_add(ts, record, &lg);
    int32_t b = tny_timers_add(ts, record, &lg);
    int32_t c = tny_timers_add(ts, record, &lg);
    tny_timers_arm(ts, a, 10);
    tny_timers_arm(ts, b, 20);
    tny_timers_arm(ts, c, 30);
    tny_timers_disarm(ts, a);
    tny_timers_remove(ts, b);
    assert_false(tny_timers_armed(ts, a));
    assert_false(tny_timers_armed(ts, b));
    assert_int_equal(tny_timers_due(ts, a), TNY_TIMER_NEVER);
    assert_int_equal(tny_timers_next(ts), 30);
    assert_int_equal(tny_timers_arm(ts, b, 5), TNY_EINVAL); /* removed */
    tny_timers_disarm(ts, b);                               /* ignored */
    tny_timers_remove(ts, b);
    assert_int_equal(tny_timers_run(ts, 100), 1);
    assert_int_equal(lg.ids[0], c);
    /* a removed id is reused by a later add */
    int32_t d = tny_timers_add(ts, record, &lg);
    assert_int_equal(d, b);
    tny_timers_free(ts);
}

/* Callbacks acting on the set while it runs. */
struct actor {
    struct tny_timers *ts;
    struct log lg;
    int32_t self_period; /* 0: none */
    int32_t cancel, add_armed;
    int32_t added;
};

static void act(void *ctx, int32_t id, int64_t now)
{
    struct actor *x = ctx;
    record(&x->lg, id, now);
    if (x->cancel) {
        tny_timers_disarm(x->ts, x->cancel);
        x->cancel = 0;
    }
    if (x->add_armed) {
        x->added = tny_timers_add(x->ts, act, x);
        assert_true(x->added > 0);
        tny_timers_arm(x->ts, x->added, now - 5); /* already past */
        x->add_armed = 0;
    }
    if (x->self_period && x->lg.n < 100)
        tny_timers_arm(x->ts, id, now); /* "again at once" */
}

static void test_callback_adds_and_cancels(void **state)
{
    (void)state;
    struct actor x = {.ts = timers()};
    int32_t a = tny_timers_add(x.ts, act, &x);
    int32_t b = tny_timers_add(x.ts, act, &x);
    int32_t c = tny_timers_add(x.ts, act, &x);
    tny_timers_arm(x.ts, a, 10);
    tny_timers_arm(x.ts, b, 20);
    tny_timers_arm(x.ts, c, 30);
    x.cancel = b;    /* a cancels b, which is due in the same run */
    x.add_armed = 1; /* and adds a timer already past due */
    assert_int_equal(tny_timers_run(x.ts, 50), 2);
    assert_int_equal(x.lg.ids[0], a);
    assert_int_equal(x.lg.ids[1], c);
    /* the one added during the run runs in the next one */
    assert_true(tny_timers_armed(x.ts, x.added));
    assert_int_equal(tny_timers_wait_ms(x.ts, 50, 1000), 0);
    assert_int_equal(tny_timers_run(x.ts, 50), 1);
    assert_int_equal(x.lg.ids[2], x.added);
    /* a timer re-arming itself at `now` runs once per run, not forever */
    x.self_period = 1;
    tny_timers_arm(x.ts, a, 60);
    assert_int_equal(tny_timers_run(x.ts, 60), 1);
    assert_int_equal(tny_timers_run(x.ts, 60), 1);
    assert_int_equal(x.lg.n, 5);
    assert_true(tny_timers_armed(x.ts, a));
    tny_timers_free(x.ts);
}

struct periodic {
    struct tny_timers *ts;
    int64_t period;
    int n;
};

static void tick(void *ctx, int32_t id, int64_t now)
{
    struct periodic *p = ctx;
    (void)now;
    p->n++;
    int64_t due = tny_timers_due(p->ts, id);
    assert_int_equal(due, TNY_TIMER_NEVER);     /* disarmed before its call */
    tny_timers_arm(p->ts, id, now + p->period); /* one period on */
}

static void test_time_past_several_deadlines(void **state)
{
    (void)state;
    struct periodic p = {.ts = timers(), .period = 10};
    struct log lg = {0};
    int32_t t = tny_timers_add(p.ts, tick, &p);
    int32_t o[3];
    tny_timers_arm(p.ts, t, 10);
    for (int i = 0; i < 3; i++) {
        o[i] = tny_timers_add(p.ts, record, &lg);
        tny_timers_arm(p.ts, o[i], 15 + 10 * (2 - i));
    }
    /* the clock jumps from 0 to 55: five periods and three one-shots */
    assert_int_equal(tny_timers_run(p.ts, 55), 4);
    assert_int_equal(p.n, 1); /* the periodic one once */
    assert_int_equal(lg.n, 3);
    assert_int_equal(lg.ids[0], o[2]);
    assert_int_equal(lg.ids[1], o[1]);
    assert_int_equal(lg.ids[2], o[0]);
    assert_int_equal(tny_timers_next(p.ts), 65);
    tny_timers_free(p.ts);
}

static void test_wait(void **state)
{
    (void)state;
    struct tny_timers *ts = timers();
    struct log lg = {0};
    assert_int_equal(tny_timers_wait_ms(ts, 0, 60000), 60000);
    int32_t a = tny_timers_add(ts, record, &lg);
    tny_timers_arm(ts, a, INT64_MAX - 1);
    assert_int_equal(tny_timers_wait_ms(ts, -5, 60000), 60000);
    tny_timers_arm(ts, a, 1250);
    assert_int_equal(tny_timers_wait_ms(ts, 1000, 60000), 250);
    assert_int_equal(tny_timers_wait_ms(ts, 1000, 100), 100);
    assert_int_equal(tny_timers_wait_ms(ts, 1250, 60000), 0);
    assert_int_equal(tny_timers_wait_ms(ts, 9999, 60000), 0);
    tny_timers_free(ts);
}

/* ---- the randomised comparison against a naive reference ---- */

#define REF_MAX 64

/* The reference: an array scanned whole; a run sorts the due timers by
 * (deadline, arming order) first, then calls them unless a callback
 * changed them. */
struct ref {
    bool used[REF_MAX], armed[REF_MAX], firing[REF_MAX];
    int64_t due[REF_MAX];
    uint64_t seq[REF_MAX], next_seq;
};

struct side {
    bool is_ref;
    struct tny_timers *ts;
    struct ref r;
    struct tny_rng rng; /* what the callbacks do */
    struct log lg;
    int32_t ids[REF_MAX]; /* handle i -> id (0: none) */
};

static void ref_arm(struct ref *r, int i, int64_t due)
{
    r->armed[i] = true;
    r->firing[i] = false;
    r->due[i] = due;
    r->seq[i] = r->next_seq++;
}

static void ref_disarm(struct ref *r, int i)
{
    r->armed[i] = r->firing[i] = false;
}

/* The operations, on either side; handles are indices 0..REF_MAX-1. */
static void cb(void *ctx, int32_t id, int64_t now);

static void op_add(struct side *s, int h)
{
    if (s->is_ref) {
        s->r.used[h] = true;
        ref_disarm(&s->r, h);
        s->ids[h] = h + 1;
        return;
    }
    s->ids[h] = tny_timers_add(s->ts, cb, s);
    assert_true(s->ids[h] > 0);
}

static void op_remove(struct side *s, int h)
{
    if (s->is_ref) {
        s->r.used[h] = false;
        ref_disarm(&s->r, h);
    } else {
        tny_timers_remove(s->ts, s->ids[h]);
    }
    s->ids[h] = 0;
}

static void op_arm(struct side *s, int h, int64_t due, bool by)
{
    if (!s->is_ref) {
        if (by)
            tny_timers_arm_by(s->ts, s->ids[h], due);
        else
            tny_timers_arm(s->ts, s->ids[h], due);
        return;
    }
    if (by && (s->r.armed[h] || s->r.firing[h]) && s->r.due[h] <= due)
        return;
    ref_arm(&s->r, h, due);
}

static void op_disarm(struct side *s, int h)
{
    if (s->is_ref)
        ref_disarm(&s->r, h);
    else
        tny_timers_disarm(s->ts, s->ids[h]);
}

static int handle_of(const struct side *s, int32_t id)
{
    for (int h = 0; h < REF_MAX; h++)
        if (s->ids[h] == id)
            return h;
    fail_msg("id %d of no handle", (int)id);
    return -1;
}

/* A random operation on a random handle (from a callback or the test). */
static void random_op(struct side *s, int64_t now)
{
    int h = (int)tny_rng_below(&s->rng, REF_MAX);
    int what = (int)tny_rng_below(&s->rng, 5);
    int64_t due = now - 20 + (int64_t)tny_rng_below(&s->rng, 100);
    if (!s->ids[h]) {
        op_add(s, h);
        return;
    }
    switch (what) {
    case 0: op_arm(s, h, due, false); break;
    case 1: op_arm(s, h, due, true); break;
    case 2: op_disarm(s, h); break;
    case 3: op_remove(s, h); break;
    default: break;
    }
}

static void cb(void *ctx, int32_t id, int64_t now)
{
    struct side *s = ctx;
    int h = s->is_ref ? id - 1 : handle_of(s, id);
    record(&s->lg, h, now);
    int n = (int)tny_rng_below(&s->rng, 3); /* 0 to 2 operations */
    for (int i = 0; i < n; i++)
        random_op(s, now);
}

static int32_t ref_run(struct side *s, int64_t now)
{
    struct ref *r = &s->r;
    int order[REF_MAX], n = 0, n_run = 0;
    for (int i = 0; i < REF_MAX; i++)
        if (r->used[i] && r->armed[i] && r->due[i] <= now)
            order[n++] = i;
    for (int i = 1; i < n; i++) /* insertion sort by (due, seq) */
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            if (r->due[a] < r->due[b] ||
                (r->due[a] == r->due[b] && r->seq[a] < r->seq[b]))
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    for (int i = 0; i < n; i++) {
        r->firing[order[i]] = true;
        r->armed[order[i]] = false;
    }
    for (int i = 0; i < n; i++) {
        int h = order[i];
        if (!r->firing[h] || !r->used[h])
            continue;
        r->firing[h] = false;
        cb(s, h + 1, now);
        n_run++;
    }
    return n_run;
}

static int64_t ref_next(const struct ref *r)
{
    int64_t next = TNY_TIMER_NEVER;
    for (int i = 0; i < REF_MAX; i++)
        if (r->used[i] && r->armed[i] && r->due[i] < next)
            next = r->due[i];
    return next;
}

static void test_random_against_reference(void **state)
{
    (void)state;
    int cases = tu_property_cases(300);
    for (int c = 0; c < cases; c++) {
        struct side *real = calloc(1, sizeof(*real));
        struct side *ref = calloc(1, sizeof(*ref));
        assert_non_null(real);
        assert_non_null(ref);
        ref->is_ref = true;
        real->ts = timers();
        tny_rng_seed(&real->rng, 1000 + (uint64_t)c);
        tny_rng_seed(&ref->rng, 1000 + (uint64_t)c);
        int64_t now = (int64_t)c * 7 - 500; /* negative times too */
        for (int step = 0; step < 400; step++) {
            int64_t r = (int64_t)tny_rng_below(&real->rng, 10);
            int64_t r2 = (int64_t)tny_rng_below(&ref->rng, 10);
            assert_int_equal(r, r2);
            if (r < 6) {
                random_op(real, now);
                random_op(ref, now);
            } else {
                /* time moves on, sometimes past many deadlines */
                int64_t by = (int64_t)tny_rng_below(&real->rng, 40);
                assert_int_equal(by, (int64_t)tny_rng_below(&ref->rng, 40));
                now += r == 9 ? by * 10 : by;
                assert_int_equal(tny_timers_run(real->ts, now),
                                 ref_run(ref, now));
            }
            assert_int_equal(real->lg.n, ref->lg.n);
            for (int i = 0; i < ref->lg.n; i++) {
                assert_int_equal(real->lg.ids[i], ref->lg.ids[i]);
                assert_int_equal(real->lg.at[i], ref->lg.at[i]);
            }
            if (real->lg.n > LOG_MAX / 2)
                real->lg.n = ref->lg.n = 0;
            assert_int_equal(tny_timers_next(real->ts), ref_next(&ref->r));
            for (int h = 0; h < REF_MAX; h++) {
                bool armed = ref->r.used[h] && ref->r.armed[h];
                assert_int_equal(real->ids[h] != 0, ref->r.used[h]);
                if (!real->ids[h])
                    continue;
                assert_int_equal(tny_timers_armed(real->ts, real->ids[h]),
                                 armed);
                assert_int_equal(tny_timers_due(real->ts, real->ids[h]),
                                 armed ? ref->r.due[h] : TNY_TIMER_NEVER);
            }
        }
        tny_timers_free(real->ts);
        free(real);
        free(ref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_in_deadline_order),
        cmocka_unit_test(test_equal_deadlines_in_arming_order),
        cmocka_unit_test(test_rearm_replaces_the_deadline),
        cmocka_unit_test(test_cancel_and_remove),
        cmocka_unit_test(test_callback_adds_and_cancels),
        cmocka_unit_test(test_time_past_several_deadlines),
        cmocka_unit_test(test_wait),
        cmocka_unit_test(test_random_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
