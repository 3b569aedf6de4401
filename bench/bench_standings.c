/* bench_standings.c - standings speed: 10,000 players x 10 rounds, per
 * format (GoT includes SoS and ESoS, the costliest chain), and the
 * `tourney pair` path end to end on a 10,000-player event file: parse +
 * validate, pair, print, timed in-process; the file is also written to
 * /tmp so the binary can be timed from the shell (see README).
 * Not a test of speed, but it fails (exit 1, "bench: ...") when a figure
 * could not be measured (an event not built, standings or a pairing
 * refused, a part without its instruction count): no empty row is
 * printed as a result (issue 17 item 5).  Each measured part is also
 * counted in instructions (callgrind, by running itself again: icount.h)
 * and printed beside its time with the load average (--no-icount: not).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "icount.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/simulate.h"
#include "tny/standings.h"

static int failures; /* figures not measured: main returns 1 */
static int reps = 5; /* standings computed per format: --once 1 */

static void failed(const char *what, const char *msg)
{
    fprintf(stderr, "bench: %s: %s\n", what, msg);
    failures++;
}

/* The parts timed, for the table of times and instructions. */
#define MAX_PARTS 16
static struct {
    char name[64];
    double ms;
} parts[MAX_PARTS];
static int n_parts;

static void part_done(const char *name, double ms)
{
    if (n_parts < MAX_PARTS) {
        snprintf(parts[n_parts].name, sizeof(parts[0].name), "%s", name);
        parts[n_parts++].ms = ms;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int build_event(const char *format, const char *options, int n,
                       int rounds, struct tny_event *ev)
{
    char head[512];
    snprintf(head, sizeof(head),
             "{\"format\":\"%s\",\"seed\":7,\"options\":%s,\"players\":[]}",
             format, options);
    struct tny_diag diag = {{0}};
    if (tny_event_from_json_text(head, strlen(head), ev, &diag) != 0) {
        failed(format, diag.msg);
        return -1;
    }
    struct tny_rng rng;
    tny_rng_seed(&rng, 11);
    for (int i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof(id), "p%d", i + 1);
        int32_t idx;
        if (tny_event_add_player(ev, id, id, &idx) != 0) {
            failed(format, "player not added");
            return -1;
        }
        ev->players[idx].has_rating = true;
        ev->players[idx].rating = 1200 + (double)tny_rng_below(&rng, 800);
        if (ev->format.game == TNY_GAME_NEUROSHIMA_HEX) {
            ev->players[idx].n_armies = 5;
            for (int a = 0; a < 5; a++)
                ev->players[idx].armies[a] = (i + a) % ev->format.n_armies;
        }
    }
    int32_t played = 0;
    if (tny_simulate_rounds(ev, rounds, &rng, &played, &diag) != 0) {
        failed(format, diag.msg);
        return -1;
    }
    return played;
}

static void bench_standings(const char *format, const char *options, int n,
                            int rounds)
{
    struct tny_event ev;
    int played = build_event(format, options, n, rounds, &ev);
    if (played < 0)
        return;
    double best = 1e9;
    char name[64];
    snprintf(name, sizeof(name), "standings %s", format);
    for (int rep = 0; rep < reps; rep++) {
        struct tny_standings st;
        struct tny_diag diag;
        bench_icount_begin();
        double t0 = now_s();
        if (tny_standings_compute(&ev, &st, &diag) != 0) {
            failed(format, diag.msg);
            tny_event_release(&ev);
            return;
        }
        double t = now_s() - t0;
        bench_icount_end(name);
        if (t < best)
            best = t;
        tny_standings_release(&st);
    }
    part_done(name, best * 1e3);
    printf("| standings | %-14s | %6d | %2d | %8.2f ms |\n", format, n, played,
           best * 1e3);
    /* The same event as a file: `tourney standings` on it under callgrind
     * (--toggle-collect=tny_standings_compute) counts what was timed. */
    char *text = NULL, path[128];
    snprintf(path, sizeof(path), "/tmp/tourney-bench-standings-%s-%d.json",
             format, n);
    FILE *f = tny_event_to_json(&ev, &text) == 0 ? fopen(path, "w") : NULL;
    if (!f || fputs(text, f) < 0)
        failed(format, "standings event file not written");
    if (f)
        fclose(f);
    free(text);
    tny_event_release(&ev);
}

static void bench_pair_file(const char *format, const char *options, int n,
                            int rounds)
{
    struct tny_event ev;
    int played = build_event(format, options, n, rounds, &ev);
    if (played < 0)
        return;
    char *text = NULL;
    if (tny_event_to_json(&ev, &text) != 0) {
        failed(format, "event not written");
        tny_event_release(&ev);
        return;
    }
    tny_event_release(&ev);
    char path[128];
    snprintf(path, sizeof(path), "/tmp/tourney-bench-%s-%d.json", format, n);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    size_t len = strlen(text);
    char name[3][64];
    snprintf(name[0], sizeof(name[0]), "pair %s: parse", format);
    snprintf(name[1], sizeof(name[1]), "pair %s: pair", format);
    snprintf(name[2], sizeof(name[2]), "pair %s: print", format);
    bench_icount_begin();
    double t0 = now_s();
    struct tny_diag diag = {{0}};
    struct tny_event parsed;
    if (tny_event_from_json_text(text, len, &parsed, &diag) != 0) {
        failed(format, diag.msg);
        free(text);
        return;
    }
    double t1 = now_s();
    bench_icount_end(name[0]);
    struct tny_round_plan plan;
    bench_icount_begin();
    double t1b = now_s();
    if (tny_pair_next(&parsed, &plan, &diag) != 0) {
        failed(format, diag.msg);
        free(text);
        tny_event_release(&parsed);
        return;
    }
    double t2 = now_s();
    bench_icount_end(name[1]);
    char *out = NULL;
    bench_icount_begin();
    double t2b = now_s();
    if (tny_round_plan_to_json(&parsed, &plan, &out) == 0)
        free(out);
    else
        failed(format, "round plan not printed");
    double t3 = now_s();
    bench_icount_end(name[2]);
    part_done(name[0], (t1 - t0) * 1e3);
    part_done(name[1], (t2 - t1b) * 1e3);
    part_done(name[2], (t3 - t2b) * 1e3);
    printf("| pair e2e | %-14s | %6d | %2d | parse %.0f ms + pair %.0f ms + "
           "print %.0f ms = %.0f ms | %s (%.1f MB) |\n",
           format, n, played + 1, (t1 - t0) * 1e3, (t2 - t1b) * 1e3,
           (t3 - t2b) * 1e3, (t1 - t0 + t2 - t1b + t3 - t2b) * 1e3, path,
           (double)len / 1e6);
    tny_round_plan_release(&plan);
    tny_event_release(&parsed);
    free(text);
}

/* The deep copy the hub's loop makes of an event for the feed thread
 * (tny_event_copy, once per feed build), median of 21. */
static void bench_copy(const char *format, const char *options, int n,
                       int rounds)
{
    struct tny_event ev;
    double t[21];
    if (build_event(format, options, n, rounds, &ev) < 0)
        return;
    char name[64];
    snprintf(name, sizeof(name), "event copy %s", format);
    for (int k = 0; k < 21; k++) {
        struct tny_event copy;
        if (k == 0)
            bench_icount_begin();
        double t0 = now_s();
        if (tny_event_copy(&ev, &copy) != 0) {
            failed(format, "event not copied");
            tny_event_release(&ev);
            return;
        }
        t[k] = now_s() - t0;
        if (k == 0)
            bench_icount_end(name);
        tny_event_release(&copy);
        if (bench_icount_child())
            break;
    }
    for (int i = 1; i < 21; i++) /* insertion sort: 21 values */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    part_done(name, t[10] * 1000.0);
    printf("| event copy (feed snapshot) | %s | %d | %d | %.3f ms |\n", format,
           n, rounds, t[10] * 1000.0);
    tny_event_release(&ev);
}

/* The parts' times beside their instructions (the counting run's), the
 * load average; 1 when a figure is missing. */
static int finish(int argc, char **argv, bool icount)
{
    struct bench_icounts ic = {0};
    double load1 = bench_load_average();
    if (bench_icount_child() || failures)
        return failures ? 1 : 0;
    if (icount && bench_icount_run(argc, argv, &ic) < 0)
        return 1;
    printf("\nload average %.2f\n| part | time | instructions |\n"
           "|---|---|---|\n",
           load1);
    for (int i = 0; i < n_parts; i++) {
        int64_t c = icount ? bench_icount_get(&ic, parts[i].name) : -1;
        if (icount && c < 0)
            failed(parts[i].name, "no instruction count");
        if (c >= 0)
            printf("| %s | %.2f ms | %.1f M |\n", parts[i].name, parts[i].ms,
                   (double)c / 1e6);
        else
            printf("| %s | %.2f ms | not counted |\n", parts[i].name,
                   parts[i].ms);
    }
    return failures ? 1 : 0;
}

/* --once: each format's standings computed once and nothing else, for
 * callgrind (README, benchmarks: --toggle-collect=tny_standings_compute). */
int main(int argc, char **argv)
{
    bool once = false, icount = true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--once") == 0)
            once = true;
        else if (strcmp(argv[i], "--no-icount") == 0)
            icount = false;
        else {
            fprintf(stderr, "usage: bench_standings [--once] [--no-icount]\n");
            return 2;
        }
    }
    if (once || bench_icount_child())
        reps = 1;
    printf(
        "| what | format | players | rounds | time |\n|---|---|---|---|---|\n");
    bench_standings("got-lcg2",
                    "{\"structure\":\"custom\",\"swiss_rounds\":10,"
                    "\"cut\":0}",
                    10000, 10);
    bench_standings("neuroshima-hex", "{\"swiss_rounds\":10,\"cut\":0}", 10000,
                    10);
    bench_standings("catan", "{\"rounds\":10}", 10000, 10);
    if (once)
        return finish(argc, argv, icount && !bench_icount_child());
    bench_pair_file("got-lcg2",
                    "{\"structure\":\"custom\",\"swiss_rounds\":10,"
                    "\"cut\":0}",
                    10000, 5);
    bench_pair_file("catan", "{\"rounds\":10}", 10000, 6);
    bench_copy("catan", "{\"rounds\":10}", 2000, 10);
    bench_copy("got-lcg2",
               "{\"structure\":\"custom\",\"swiss_rounds\":10,"
               "\"cut\":0}",
               10000, 10);
    return finish(argc, argv, icount && !bench_icount_child());
}
