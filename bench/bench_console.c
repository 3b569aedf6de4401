/* bench_console.c - issue 17: the hub's console at scale, in one process
 * and without a broker, so that its cost can be counted in instructions
 * (load-independent) as well as in CPU and wall time.
 *
 * Sets up through the store (as bench_live does) an event of N tables
 * (--tables, default 2,500: got-lcg2, 2N players, a device assigned to
 * every table), round 1 published with every result stored but the last
 * one's; starts the service on that database (its start-up load counted
 * apart), then runs the organiser's requests an organiser would run at the
 * end of the round through hub_service_handle, as the loop hands them
 * over: `result enter` of the last table, `round close`, `round pair`,
 * `round publish` of round 2; each must succeed, and publish must send
 * every table its assignment (close sends none again: issue 17).  With
 * --edits, two more: a device's result that contradicts the organiser's
 * at the last table (a CM-6 conflict, before the close) kept by `result
 * resolve`, and `round swap` of two players in the published round 2
 * (CM-5).  With --players, two player commands after the publish (issue
 * 17 item 1: no reload of the event per command): `player drop` of p1
 * after round 2, and `players import` of a CSV of 10 new players (late
 * entrants); both must succeed, and the import must add exactly 10
 * players.  Prints
 * each one's CPU and wall time, the load average, and (unless --no-icount) its
 * instructions, counted by running itself again under callgrind (icount.h).  By
 * hand:
 *   valgrind --tool=callgrind --toggle-collect=hub_service_handle \
 *       build/bench/bench_console --tables 2500 --no-icount
 * (callgrind_annotate --inclusive=yes splits them by cmd_* handler).
 *
 * usage: bench_console [--tables N] [--edits] [--players] [--no-icount]
 * Exit: 0 measured; 1 a setup step or a command failed, a figure missing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hub/log.h"
#include "icount.h"
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

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

/* One measured part: CPU and wall ms, instructions (-1: not counted). */
struct part {
    const char *name;
    double cpu, wall;
    int64_t icount;
};

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

/* One organiser request through the service; the reply must be rc 0, and
 * at least min_sent other messages must go out (the tables' assignments). */
static void run(struct hub_service *svc, struct tny_wire_request *q,
                int64_t now, int32_t min_sent, struct part *p)
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
    bench_icount_begin();
    double t0 = cpu_ms(), w0 = clock_ms(CLOCK_MONOTONIC);
    int rc = hub_service_handle(svc, "tourney/v1/ctl/" CON "/req", buf, len,
                                now, &ob, &d);
    p->cpu = cpu_ms() - t0;
    p->wall = clock_ms(CLOCK_MONOTONIC) - w0;
    p->icount = bench_icount_end(p->name);
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
    if (ob.n - 1 < min_sent) {
        fprintf(stderr,
                "bench_console: %s sent %d messages besides its reply, "
                "expected at least %d (an assignment for every table)\n",
                p->name, (int)(ob.n - 1), (int)min_sent);
        exit(1);
    }
    hub_outbox_release(&ob);
}

/* A device's submission at table `last` of round 1 whose result differs
 * from the one the organiser entered (a CM-6 conflict). */
static void conflicting_submission(struct hub_service *svc,
                                   const struct tny_event *ev,
                                   const struct tny_table *last, int64_t now)
{
    struct tny_diag d = {{0}};
    struct tny_table other = *last;
    struct tny_rng rng;
    struct tny_wire_submission sub;
    struct hub_outbox ob;
    uint8_t *buf = NULL;
    size_t len = 0;
    char dev[32], topic[TNY_WIRE_TOPIC_MAX];
    tny_rng_seed(&rng, 99);
    do {
        other.has_result = false;
        if (tny_simulate_result(ev, 0, ev->rounds[0].stage, &other, &rng, &d) <
            0)
            die("simulate", &d);
    } while (tny_result_same(&other.result, &last->result, last->n_seats));
    memset(&sub, 0, sizeof(sub));
    snprintf(dev, sizeof(dev), "table-%04d", (int)last->number);
    snprintf(sub.key, sizeof(sub.key), "conflict-1");
    snprintf(sub.device_id, sizeof(sub.device_id), "%s", dev);
    snprintf(sub.event_id, sizeof(sub.event_id), "%s", EV);
    sub.round = 1;
    sub.table = last->number;
    if (tny_wire_result_from_table(ev, &other, &sub.result, &d) < 0)
        die("result", &d);
    sub.n_confirmed = other.n_seats;
    for (int32_t k = 0; k < other.n_seats; k++)
        snprintf(sub.confirmed[k], sizeof(sub.confirmed[k]), "%s",
                 ev->players[other.seats[k]].id);
    if (tny_wire_encode_submission(&sub, &buf, &len, &d) < 0 ||
        tny_wire_topic(TNY_WIRE_TOPIC_RESULT, dev, topic, sizeof(topic), &d) <
            0)
        die("submission", &d);
    hub_outbox_init(&ob);
    if (hub_service_handle(svc, topic, buf, len, now, &ob, &d) < 0)
        die("submission", &d);
    free(buf);
    hub_outbox_release(&ob);
}

int main(int argc, char **argv)
{
    int n = 2500;
    bool icount = true, edits = false, players = false;
    struct tny_diag d = {{0}};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tables") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-icount") == 0)
            icount = false;
        else if (strcmp(argv[i], "--edits") == 0)
            edits = true;
        else if (strcmp(argv[i], "--players") == 0)
            players = true;
        else {
            fprintf(stderr, "usage: bench_console [--tables N] [--edits] "
                            "[--players] [--no-icount]\n");
            return 2;
        }
    }
    if (n < 2 || n > 20000) {
        fprintf(stderr, "bench_console: --tables: 2..20000\n");
        return 2;
    }
    double load1 = bench_load_average();
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

    struct part parts[9] = {{.name = "service start-up load"},
                            {.name = "result enter"},
                            {.name = "round close"},
                            {.name = "round pair"},
                            {.name = "round publish"},
                            {.name = "result resolve (a conflict kept)"},
                            {.name = "round swap (published round)"},
                            {.name = "player drop"},
                            {.name = "players import (10)"}};
    int n_parts = players ? 9 : edits ? 7 : 5;
    struct hub_service_options opt;
    struct hub_service *svc = NULL;
    hub_service_options_init(&opt);
    opt.feed = false;
    bench_icount_begin();
    double t0 = cpu_ms(), w0 = clock_ms(CLOCK_MONOTONIC);
    if (hub_service_new(s, &opt, &svc, &d) < 0 ||
        hub_service_preload(svc, &d) < 0)
        die("service", &d);
    parts[0].cpu = cpu_ms() - t0;
    parts[0].wall = clock_ms(CLOCK_MONOTONIC) - w0;
    parts[0].icount = bench_icount_end(parts[0].name);

    int64_t now = 1700000000000;
    struct tny_wire_request q;
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_ENTER_RESULT;
    q.round = 1;
    q.table = last.number;
    if (tny_wire_result_from_table(&ev, &last, &q.result, &d) < 0)
        die("result", &d);
    run(svc, &q, now, 0, &parts[1]);
    if (edits) { /* CM-6: the device's result kept instead */
        struct hub_result_row *rows = NULL;
        int32_t n_rows = 0;
        conflicting_submission(svc, &ev, &last, now + 500);
        if (hub_store_list_results(s, EV, 1, last.number, &rows, &n_rows, &d) <
                0 ||
            n_rows < 1 || rows[n_rows - 1].status != HUB_RESULT_CONFLICT)
            die("no conflict to resolve", &d);
        memset(&q, 0, sizeof(q));
        q.cmd = TNY_WIRE_CMD_RESOLVE_CONFLICT;
        q.round = 1;
        q.table = last.number;
        q.result_id = rows[n_rows - 1].id;
        hub_result_rows_free(rows, n_rows);
        run(svc, &q, now + 600, 0, &parts[5]);
    }
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_CLOSE_ROUND;
    q.round = 1;
    run(svc, &q, now + 1000, 0, &parts[2]); /* no assignment again */
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_PAIR_ROUND;
    run(svc, &q, now + 2000, 0, &parts[3]);
    memset(&q, 0, sizeof(q));
    q.cmd = TNY_WIRE_CMD_PUBLISH_ROUND;
    q.round = 2;
    run(svc, &q, now + 3000, n, &parts[4]);
    if (edits) { /* CM-5: the first players of tables 1 and 2 swapped */
        struct tny_event ev2;
        if (hub_store_load_event(s, EV, &ev2, &d) < 0 || ev2.n_rounds != 2 ||
            ev2.rounds[1].n_tables < 2)
            die("round 2", &d);
        memset(&q, 0, sizeof(q));
        q.cmd = TNY_WIRE_CMD_SWAP_PLAYERS;
        q.round = 2;
        q.force = true; /* a rematch the swap may make is the bench's own */
        snprintf(q.player_id, sizeof(q.player_id), "%s",
                 ev2.players[ev2.rounds[1].tables[0].seats[0]].id);
        snprintf(q.other_player_id, sizeof(q.other_player_id), "%s",
                 ev2.players[ev2.rounds[1].tables[1].seats[0]].id);
        tny_event_release(&ev2);
        run(svc, &q, now + 4000, 0, &parts[6]);
    }
    if (players) {
        struct hub_event_info info;
        char csv[512];
        size_t used = (size_t)snprintf(csv, sizeof(csv), "id,name\n");
        memset(&q, 0, sizeof(q));
        q.cmd = TNY_WIRE_CMD_DROP_PLAYER;
        q.round = 2;
        snprintf(q.player_id, sizeof(q.player_id), "p1");
        run(svc, &q, now + 5000, 0, &parts[7]);
        for (int i = 1; i <= 10; i++)
            used += (size_t)snprintf(csv + used, sizeof(csv) - used,
                                     "late%d,Late %d\n", i, i);
        memset(&q, 0, sizeof(q));
        q.cmd = TNY_WIRE_CMD_IMPORT_PLAYERS;
        q.csv = csv;
        run(svc, &q, now + 6000, 0, &parts[8]);
        if (hub_store_get_event(s, EV, &info, &d) < 0 ||
            info.n_players != 2 * n + 10) {
            fprintf(stderr,
                    "bench_console: players import: %d players stored, "
                    "expected %d\n",
                    (int)info.n_players, 2 * n + 10);
            return 1;
        }
    }
    hub_service_free(svc);
    tny_event_release(&ev);
    hub_store_close(s);
    unlink(path);
    if (bench_icount_child())
        return 0;

    struct bench_icounts ic = {0};
    if (icount && bench_icount_run(argc, argv, &ic) < 0)
        return 1;
    printf("bench_console: %d tables (%d players), load average %.2f\n", n,
           2 * n, load1);
    printf("| what | CPU ms | wall ms | instructions |\n|---|---|---|---|\n");
    double cpu4 = 0, wall4 = 0;
    int64_t ic4 = 0;
    int missing = 0;
    for (int i = 0; i < n_parts; i++) {
        if (!edits && (i == 5 || i == 6))
            continue;
        int64_t c = icount ? bench_icount_get(&ic, parts[i].name) : -1;
        if (icount && c < 0) {
            fprintf(stderr, "bench_console: %s: no instruction count\n",
                    parts[i].name);
            missing++;
        }
        if (i > 0 && i < 5) {
            cpu4 += parts[i].cpu;
            wall4 += parts[i].wall;
            ic4 += c;
        }
        if (c >= 0)
            printf("| %s | %.1f | %.1f | %.1f M |\n", parts[i].name,
                   parts[i].cpu, parts[i].wall, (double)c / 1e6);
        else
            printf("| %s | %.1f | %.1f | not counted |\n", parts[i].name,
                   parts[i].cpu, parts[i].wall);
    }
    if (icount && !missing)
        printf("| the four | %.1f | %.1f | %.1f M |\n", cpu4, wall4,
               (double)ic4 / 1e6);
    else
        printf("| the four | %.1f | %.1f | not counted |\n", cpu4, wall4);
    return missing ? 1 : 0;
}
