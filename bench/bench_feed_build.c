/* bench_feed_build.c - issue 23: what one public-feed build costs as an
 * event's rounds accumulate, in one process and without a broker, so it
 * can be counted in instructions (load-independent) as well as CPU time.
 *
 * Sets up through the store (as bench_live's soak does) a got-lcg2 event
 * of N tables (--tables, default 500: 2N players, a device assigned to
 * every table) with R rounds (--rounds, default 1) paired by the engine,
 * published, every result stored, rounds 1..R-1 closed and round R open
 * with its last K + 1 tables (K = 3) still waiting (so the measured
 * results do not complete it: the standings stay).  Then, as the hub runs
 * it: the loop's service (feed on) and a builder service on a second
 * connection (the feed thread's), a first build (every document), and K
 * times: the organiser's `result enter` of one waiting table through
 * hub_service_handle, then one feed build (the loop's snapshot,
 * hub_service_feed_next, and the builder's hub_service_feed_build) in
 * measured_build.  The first build goes on in pieces while the builder
 * leaves player documents for the next (issue 17 item 2: at most
 * hub_service_options.feed_piece_bytes of them a build); it prints how
 * many pieces and the largest.  Prints the CPU time of the K builds.  Under
 *   valgrind --tool=callgrind --toggle-collect=measured_build \
 *       build/bench/bench_feed_build --tables 500 --rounds 100 --db F
 * callgrind's total / K is the instructions of one build after a result.
 * --db F keeps the set-up database in F (made when missing; a later run
 * copies it, so the set-up, 100 pairings, runs once, natively).
 *
 * --aggregate-ms MS: the services' feed_aggregate_ms (issue 17 item 2; 0
 * unless given: every build writes the aggregate documents); with a
 * window longer than the K results (K s of the bench's clock) the
 * measured builds are those within it (table/N, player/ID, event).
 *
 * usage: bench_feed_build [--tables N] [--rounds R] [--db FILE]
 *                         [--aggregate-ms MS]
 * Exit: 0 measured; 1 a set-up step, a command or a build failed, or a
 * build sent no document.
 */
#include <fcntl.h>
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

#define EV "soak"
#define CON "o1"
#define K 3

static void die(const char *what, const struct tny_diag *d)
{
    fprintf(stderr, "bench_feed_build: %s: %s\n", what, d ? d->msg : "");
    exit(1);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The event with `rounds` rounds of `n` tables, as the header says; the
 * last K tables of the last round wait (their numbers in open[]). */
static void setup(const char *path, int n, int rounds)
{
    struct tny_diag d = {{0}};
    struct hub_store *s = NULL;
    struct hub_store_options so = {.flags = HUB_STORE_NO_SYNC};
    struct tny_event ev;
    struct tny_rng rng;
    size_t cap = 256 + (size_t)n * 2 * 48;
    char *text = malloc(cap);
    if (!text)
        die("oom", NULL);
    if (hub_store_open_with(path, &so, &s, &d) < 0)
        die("open", &d);
    size_t len = (size_t)snprintf(
        text, cap,
        "{\"format\":\"got-lcg2\",\"seed\":8,\"options\":{\"structure\":"
        "\"custom\",\"swiss_rounds\":999,\"cut\":0},\"players\":[");
    for (int i = 0; i < 2 * n; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"P %d\"}",
                                i ? "," : "", i + 1, i + 1);
    snprintf(text + len, cap - len, "]}");
    if (hub_store_create_event(s, EV, text, strlen(text), "hub", &d) < 0 ||
        hub_store_load_event(s, EV, &ev, &d) < 0)
        die("create event", &d);
    free(text);
    for (int t = 1; t <= n; t++) {
        char dev[32];
        snprintf(dev, sizeof(dev), "table-%04d", t);
        if (hub_store_device_register(s, dev, "hub", &d) < 0 ||
            hub_store_device_assign(s, dev, EV, t, "hub", &d) < 0)
            die("device", &d);
    }
    tny_rng_seed(&rng, 17);
    for (int32_t r = 1; r <= rounds; r++) {
        struct tny_round_plan plan;
        if (tny_pair_next(&ev, &plan, &d) < 0 ||
            hub_store_save_draft(s, EV, &ev, &plan, "hub", &d) < 0 ||
            hub_store_set_round_status(s, EV, r, HUB_ROUND_PUBLISHED, "hub",
                                       &d) < 0 ||
            tny_event_append_round(&ev, &plan) < 0)
            die("pair", &d);
        tny_round_plan_release(&plan);
        struct tny_round *round = &ev.rounds[r - 1];
        int32_t waiting = r == rounds ? K + 1 : 0;
        if (hub_store_batch_begin(s, &d) < 0)
            die("batch", &d);
        for (int32_t t = round->n_tables - 1; t >= 0; t--) {
            struct tny_table *tb = &round->tables[t];
            if (tb->is_bye)
                continue;
            if (waiting > 0) {
                waiting--;
                continue;
            }
            if (tny_simulate_result(&ev, r - 1, round->stage, tb, &rng, &d) <
                    0 ||
                hub_store_enter_result(s, EV, r, tb->number, &ev, tb, "hub",
                                       NULL, &d) < 0)
                die("result", &d);
        }
        if (hub_store_batch_end(s, true, &d) < 0)
            die("commit", &d);
        if (r < rounds && hub_store_set_round_status(s, EV, r, HUB_ROUND_CLOSED,
                                                     "hub", &d) < 0)
            die("close", &d);
    }
    tny_event_release(&ev);
    hub_store_close(s);
}

/* One organiser request through the service; the reply must be rc 0. */
static void run(struct hub_service *svc, struct tny_wire_request *q,
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
    if (hub_service_handle(svc, "tourney/v1/ctl/" CON "/req", buf, len, now,
                           &ob, &d) < 0)
        die(tny_wire_cmd_name(q->cmd), &d);
    free(buf);
    bool replied = false;
    for (int32_t i = 0; i < ob.n; i++) {
        struct tny_wire_reply rep;
        if (strcmp(ob.msgs[i].topic, "tourney/v1/ctl/" CON "/resp") != 0)
            continue;
        if (tny_wire_decode_reply(ob.msgs[i].payload, ob.msgs[i].len, &rep,
                                  &d) < 0)
            die("reply", &d);
        if (rep.rc != 0) {
            fprintf(stderr, "bench_feed_build: %s refused: %s\n",
                    tny_wire_cmd_name(q->cmd), rep.message);
            exit(1);
        }
        replied = true;
        tny_wire_reply_release(&rep);
    }
    if (!replied)
        die("no reply", NULL);
    hub_outbox_release(&ob);
}

/* The largest build's documents, bytes, and builds that left player
 * documents for the next one (issue 17 item 2: feed_piece_bytes). */
static size_t largest_build, all_bytes;
static int32_t n_partial;

/* One feed build as the hub makes it: the loop's snapshot, the builder's
 * documents; returns how many documents it sent. */
__attribute__((noipa)) static int32_t
build(struct hub_service *loop, struct hub_service *builder, int64_t now)
{
    struct tny_diag d = {{0}};
    struct hub_feed_snapshot snap;
    struct hub_outbox ob;
    int rc = 0;
    if (!hub_service_feed_next(loop, now, &snap, &rc))
        die("no feed due", NULL);
    hub_outbox_init(&ob);
    if (hub_service_feed_build(builder, &snap, &ob, &d) < 0)
        die("feed build", &d);
    if (snap.more) { /* the rest next, as the hub's loop does */
        hub_service_feed_more(loop, snap.event);
        n_partial++;
    }
    hub_feed_snapshot_release(&snap);
    size_t bytes = 0;
    for (int32_t i = 0; i < ob.n; i++)
        bytes += ob.msgs[i].len;
    all_bytes += bytes;
    if (bytes > largest_build)
        largest_build = bytes;
    int32_t n = ob.n;
    hub_outbox_release(&ob);
    return n;
}

/* A build after a result: what callgrind's --toggle-collect counts. */
__attribute__((noipa)) int32_t measured_build(struct hub_service *loop,
                                              struct hub_service *builder,
                                              int64_t now);
__attribute__((noipa)) int32_t measured_build(struct hub_service *loop,
                                              struct hub_service *builder,
                                              int64_t now)
{
    return build(loop, builder, now);
}

static void copy_file(const char *from, const char *to)
{
    char buf[65536];
    ssize_t n;
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT, 0600);
    if (in < 0 || out < 0)
        die("copy the database", NULL);
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            die("copy the database", NULL);
    close(in);
    close(out);
}

int main(int argc, char **argv)
{
    int n = 500, rounds = 1, aggregate_ms = 0;
    const char *keep = NULL;
    struct tny_diag d = {{0}};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tables") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            keep = argv[++i];
        else if (strcmp(argv[i], "--aggregate-ms") == 0 && i + 1 < argc)
            aggregate_ms = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_feed_build [--tables N] [--rounds "
                            "R] [--db FILE] [--aggregate-ms MS]\n");
            return 2;
        }
    }
    if (n < K + 1 || n > 20000 || rounds < 1 || rounds > 999) {
        fprintf(stderr,
                "bench_feed_build: --tables %d..20000, --rounds "
                "1..999\n",
                K + 1);
        return 2;
    }
    hub_log_setup(HUB_LOG_ERROR, false);
    char path[64];
    snprintf(path, sizeof(path), "/tmp/bench_feed_build.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp", NULL);
    close(fd);
    unlink(path);
    if (keep && access(keep, R_OK) != 0)
        setup(keep, n, rounds);
    if (keep)
        copy_file(keep, path);
    else
        setup(path, n, rounds);

    struct hub_store *s = NULL, *s2 = NULL;
    struct hub_store_options so = {.flags = HUB_STORE_NO_SYNC};
    struct hub_service_options opt;
    struct hub_service *loop = NULL, *builder = NULL;
    hub_service_options_init(&opt);
    opt.feed_aggregate_ms = aggregate_ms < 0 ? 0 : aggregate_ms;
    if (hub_store_open_with(path, &so, &s, &d) < 0 ||
        hub_store_open_with(path, &so, &s2, &d) < 0 ||
        hub_service_new(s, &opt, &loop, &d) < 0 ||
        hub_service_preload(loop, &d) < 0 ||
        hub_service_new(s2, &opt, &builder, &d) < 0)
        die("service", &d);
    int64_t now = 1700000000000;
    int32_t first = 0, pieces = 0; /* every document, in pieces */
    do
        first += build(loop, builder, now), pieces++;
    while (n_partial == pieces && pieces < 100000);
    size_t first_largest = largest_build, first_bytes = all_bytes;

    /* The waiting tables of the last round: those without a result. */
    struct hub_result_row *rows = NULL;
    int32_t n_rows = 0, open[K], n_open = 0;
    if (hub_store_list_results(s, EV, rounds, 0, &rows, &n_rows, &d) < 0)
        die("results", &d);
    for (int32_t t = n; t >= 1 && n_open < K; t--) {
        bool has = false;
        for (int32_t i = 0; i < n_rows && !has; i++)
            has = rows[i].table == t;
        if (!has)
            open[n_open++] = t;
    }
    hub_result_rows_free(rows, n_rows);
    if (n_open < K)
        die("no waiting tables", NULL);

    struct tny_event ev;
    struct tny_rng rng;
    if (hub_store_load_event(s, EV, &ev, &d) < 0)
        die("load", &d);
    tny_rng_seed(&rng, 23);
    double ms = 0;
    int32_t sent = 0;
    for (int k = 0; k < K; k++) {
        struct tny_wire_request q;
        struct tny_round *round = &ev.rounds[rounds - 1];
        struct tny_table *tb = NULL;
        for (int32_t t = 0; t < round->n_tables && !tb; t++)
            if (round->tables[t].number == open[k] && !round->tables[t].is_bye)
                tb = &round->tables[t];
        memset(&q, 0, sizeof(q));
        q.cmd = TNY_WIRE_CMD_ENTER_RESULT;
        q.round = rounds;
        q.table = open[k];
        if (!tb ||
            tny_simulate_result(&ev, rounds - 1, round->stage, tb, &rng, &d) <
                0 ||
            tny_wire_result_from_table(&ev, tb, &q.result, &d) < 0)
            die("result", &d);
        run(loop, &q, now += 1000);
        double t0 = cpu_ms();
        sent += measured_build(loop, builder, now);
        ms += cpu_ms() - t0;
    }
    if (first <= 0 || sent < K)
        die("a build sent no document", NULL);
    if (n_partial != pieces - 1) /* a measured build left work for later */
        die("a build after a result was partial", NULL);
    printf("bench_feed_build: %d tables (%d players), round %d: first build "
           "%d documents (%.1f kB) in %d piece(s), the largest %.1f kB; one "
           "build after "
           "a result %.2f ms CPU (%d builds, %.1f documents each)\n",
           n, 2 * n, rounds, (int)first, (double)first_bytes / 1024,
           (int)pieces, (double)first_largest / 1024, ms / K, K,
           (double)sent / K);
    tny_event_release(&ev);
    hub_service_free(builder);
    hub_service_free(loop);
    hub_store_close(s2);
    hub_store_close(s);
    unlink(path);
    return 0;
}
