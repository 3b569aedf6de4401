/* icount.h - the benches' instruction counts (issue 17 item 5): every
 * bench prints, beside its wall-clock or CPU time, the instructions of the
 * same work counted by callgrind, which do not depend on the machine's
 * load.  The bench runs once natively (the times), then runs itself again
 * under `valgrind --tool=callgrind` with instrumentation off until the
 * first measured part; each part between bench_icount_begin() and
 * bench_icount_end() is counted alone (its own callgrind dump) and written
 * to a file the first run reads back (bench_icount_run).  A part without
 * its count is an empty figure: the bench must exit non-zero.
 */
#ifndef TNY_BENCH_ICOUNT_H
#define TNY_BENCH_ICOUNT_H

#include <stdbool.h>
#include <stdint.h>

#define BENCH_ICOUNT_MAX 32

struct bench_icounts {
    int32_t n;
    char part[BENCH_ICOUNT_MAX][64];
    int64_t count[BENCH_ICOUNT_MAX];
};

/* True inside the counting run (under callgrind, started by
 * bench_icount_run): the bench does each part once and prints nothing
 * that matters. */
bool bench_icount_child(void);

/* Around one measured part (no-ops outside the counting run).  end
 * returns the part's instructions (-1 outside, or when not counted). */
void bench_icount_begin(void);
int64_t bench_icount_end(const char *part);

/* Runs this program again under callgrind with argv (argv[0] ignored) and
 * reads its parts' counts into out.  Returns 0, or -1 with a message on
 * stderr (no valgrind, the run failed, no count written). */
int bench_icount_run(int argc, char **argv, struct bench_icounts *out);

/* The count of part in c, -1 when there is none. */
int64_t bench_icount_get(const struct bench_icounts *c, const char *part);

/* The 1-minute load average (/proc/loadavg), -1 when unknown: printed
 * beside every wall-clock figure. */
double bench_load_average(void);

#endif
