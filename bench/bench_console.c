/* bench_console.c - issue 17: the hub's console at scale, in one process
 * and without a broker, so that its cost can be counted in instructions
 * (load-independent) as well as in CPU time.
 *
 * Sets up through the store (as bench_live does) an event of N tables
 * (--tables, default 2,500: got-lcg2, 2N players, a device assigned to
 * every table), round 1 published with every result stored but the last
 * one's; starts the service on that database (its start-up load counted
 * apart), then runs the organiser's requests an organiser would run at the
 * end of the round through hub_service_handle, as the loop hands them
 * over: `result enter` of the last table, `round close`, `round pair`,
 * `round publish` of round 2; each must succeed.  Prints each one's CPU
 * time (CLOCK_PROCESS_CPUTIME_ID).  Under
 *   valgrind --tool=callgrind --toggle-collect=hub_service_handle \
 *       build/bench/bench_console --tables 2500
 * callgrind's total is the hub's instructions for the four commands
 * (callgrind_annotate --inclusive=yes splits them by cmd_* handler).
 *
 * usage: bench_console [--tables N]
 * Exit: 0 measured; 1 a setup step or a command failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hub/log.h"
#include "hub/service.h"
#include "store.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/wire.h"

#define EV "d"
#define CON "o1"

static void die(const char *what, const struct tny_diag *d)
{
    fprintf(stderr, "bench_console: %s: %s\n", what, d ? d->msg : "");
    exit(1);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Round 1 of `n` tables paired and published, every table but the last
 * with a simulated result; *last receives the last table (seats and a
 * simulated result, for the console's entry). */
static void setup(struct hub_store *s, int n, struct tny_table *last,
                  struct tny_event *ev_out)
{
    struct tny_diag d = {{0}};
    struct tny_event ev;
    struct tny_round_plan plan;
    struct tny_rng rng;
    size_t cap = 256 + (size_t)n * 2 * 48;
    char *text = malloc(cap);
    if (!text)
        die("oom", NULL);
    size_t len = (size_t)snprintf(
        text, cap, "{\"format\":\"got-lcg2\",\"seed\":17,\"players\":[");
    for (int i = 0; i < 2 * n; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"P %d\"}",
                                i ? "," : "", i + 1, i + 1);
    snprintf(text + len, cap - len, "]}");
    if (hub_store_create_event(s, EV, text, strlen(text), "hub", &d) < 0)
        die("create event", &d);
    free(text);
    if (hub_store_load_event(s, EV, &ev, &d) < 0 ||
        tny_pair_next(&ev, &plan, &d) < 0 ||
        hub_store_save_draft(s, EV, &ev, &plan, "hub", &d) < 0 ||
        hub_store_set_round_status(s, EV, 1, HUB_ROUND_PUBLISHED, "hub", &d) <
            0 ||
        tny_event_append_round(&ev, &plan) < 0)
        die("round 1", &d);
    tny_round_plan_release(&plan);
    tny_rng_seed(&rng, 17);
    struct tny_round *r = &ev.rounds[0];
    int32_t last_ix = -1;
    for (int32_t t = 0; t < r->n_tables; t++)
        if (!r->tables[t].is_bye)
            last_ix = t;
    if (hub_store_batch_begin(s, &d) < 0)
        die("batch", &d);
    for (int32_t t = 0; t < r->n_tables; t++) {
        struct tny_table *tb = &r->tables[t];
        if (tb->is_bye)
            continue;
        if (tny_simulate_result(&ev, 0, r->stage, tb, &rng, &d) < 0)
            die("simulate", &d);
        if (t == last_ix) {
            *last = *tb;
            tb->has_result = false;
            continue;
        }
        if (hub_store_enter_result(s, EV, 1, tb->number, &ev, tb, "hub", NULL,
                                   &d) < 0)
            die("result", &d);
    }
    for (int t = 1; t <= n; t++) {
        char dev[32];
        snprintf(dev, sizeof(dev), "table-%04d", t);
        if (hub_store_device_register(s, dev, "hub", &d) < 0 ||
            hub_store_device_assign(s, dev, EV, t, "hub", &d) < 0)
            die("device", &d);
    }
    if (hub_store_batch_end(s, true, &d) < 0)
        die("commit", &d);
    *ev_out = ev;
}

/* One organiser request through the service; the reply must be rc 0. */
static double run(struct hub_service *svc, struct tny_wire_request *q,
                  int64_t now)
{
    static int corr;
    struct tny_diag d = {{0}};
    struct hub_outbox ob;
    uint8_t *buf = NULL;
    size_t len = 0;
    snprintf(q->correlation_id, sizeof(q->correlation_id), "c%d", ++corr);
    snprintf(q->organiser_id, sizeof(q->organiser_id), "%s", CON);
    snprintf(q->event_id, sizeof(q->event_id), "%s", EV);
    if (tny_wire_encode_request(q, &buf, &len, &d) < 0)
        die("encode", &d);
    hub_outbox_init(&ob);
    double t0 = cpu_ms();
    int rc = hub_service_handle(svc, "tourney/v1/ctl/" CON "/req", buf, len,
                                now, &ob, &d);
    double ms = cpu_ms() - t0;
    free(buf);
    if (rc < 0)
        die(tny_wire_cmd_name(q->cmd), &d);
    bool replied = false;
    for (int32_t i = 0; i < ob.n; i++) {
        struct tny_wire_reply rep;
        if (strcmp(ob.msgs[i].topic, "tourney/v1/ctl/" CON "/resp") != 0)
            continue;
        if (tny_wire_decode_reply(ob.msgs[i].payload, ob.msgs[i].len, &rep,
                                  &d) < 0)
            die("reply", &d);
        if (rep.rc != 0) {
            fprintf(stderr, "bench_console: %s refused: %s\n",
                    tny_wire_cmd_name(q->cmd), rep.message);
            exit(1);
        }
        replied = true;
        tny_wire_reply_release(&rep);
    }
    if (!replied)
        die("no reply", NULL);
    hub_outbox_release(&ob);
    return ms;
}

int main(int argc, char **argv)
{
    int n = 2500;
    struct tny_diag d = {{0}};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tables") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_console [--tables N]\n");
            return 2;
        }
    }
    if (n < 2 || n > 20000) {
        fprintf(stderr, "bench_console: --tables: 2..20000\n");
        return 2;
    }
    hub_log_setup(HUB_LOG_ERROR, false);
    char path[64];
    snprintf(path, sizeof(path), "/tmp/bench_console.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp", NULL);
    close(fd);
    unlink(path);
    struct hub_store *s = NULL;
    struct hub_store_options so = {.flags = HUB_STORE_NO_SYNC};
    if (hub_store_open_with(path, &so, &s, &d) < 0)
        die("open", &d);
    struct tny_event ev;
    struct tny_table last;
    setup(s, n, &last, &ev);

    struct hub_service_options opt;
    struct hub_service *svc = NULL;
    hub_service_options_init(&opt);
    opt.feed = false;
    double t0 = cpu_ms();
    if (hub_service_new(s, &opt, &svc, &d) < 0 ||
        hub_service_preload(svc, &d) < 0)
        die("service", &d);
    double load = cpu_ms() - t0;

    int64_t now = 1700000000000;
    struct tny_wire_request q;
    double ms[4];
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_ENTER_RESULT;
    q.round = 1;
    q.table = last.number;
    if (tny_wire_result_from_table(&ev, &last, &q.result, &d) < 0)
        die("result", &d);
    ms[0] = run(svc, &q, now);
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_CLOSE_ROUND;
    q.round = 1;
    ms[1] = run(svc, &q, now + 1000);
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_PAIR_ROUND;
    ms[2] = run(svc, &q, now + 2000);
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_PUBLISH_ROUND;
    q.round = 2;
    ms[3] = run(svc, &q, now + 3000);
    printf("bench_console: %d tables (%d players): service start-up load "
           "%.1f ms CPU; result enter %.1f ms, round close %.1f ms, round "
           "pair %.1f ms, round publish %.1f ms; the four %.1f ms CPU\n",
           n, 2 * n, load, ms[0], ms[1], ms[2], ms[3],
           ms[0] + ms[1] + ms[2] + ms[3]);
    hub_service_free(svc);
    tny_event_release(&ev);
    hub_store_close(s);
    unlink(path);
    return 0;
}
