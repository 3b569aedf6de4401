/* icount.c - the benches' instruction counts by callgrind (icount.h). */
#include "icount.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#define ENV_OUT "BENCH_ICOUNT_OUT" /* the counts file of the counting run */

static int dumps;         /* callgrind dumps made by this process */
static bool instrumented; /* CALLGRIND_START_INSTRUMENTATION done */

bool bench_icount_child(void)
{
    return RUNNING_ON_VALGRIND && getenv(ENV_OUT) != NULL;
}

void bench_icount_begin(void)
{
    if (!bench_icount_child())
        return;
    if (!instrumented) {
        CALLGRIND_START_INSTRUMENTATION;
        instrumented = true;
    }
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}

/* The "summary:" line of a callgrind dump, -1 when it has none. */
static int64_t dump_total(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int64_t total = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "summary: ", 9) == 0) {
            total = strtoll(line + 9, NULL, 10);
            break;
        }
    fclose(f);
    return total;
}

int64_t bench_icount_end(const char *part)
{
    if (!bench_icount_child())
        return -1;
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(part);
    /* The dump is written before the request returns, as OUT.cg.N. */
    const char *out = getenv(ENV_OUT);
    char path[4096];
    snprintf(path, sizeof(path), "%s.cg.%d", out, ++dumps);
    int64_t n = dump_total(path);
    unlink(path);
    FILE *f = fopen(out, "a");
    if (f) {
        if (n >= 0)
            fprintf(f, "%s\t%" PRId64 "\n", part, n);
        fclose(f);
    }
    return n;
}

int bench_icount_run(int argc, char **argv, struct bench_icounts *out)
{
    char dir[] = "/tmp/bench_icount.XXXXXX", file[64], cg[96], cgopt[128];
    int rc = -1;
    memset(out, 0, sizeof(*out));
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench: icount: mkdtemp: %s\n", strerror(errno));
        return -1;
    }
    snprintf(file, sizeof(file), "%s/counts", dir);
    snprintf(cg, sizeof(cg), "%s.cg", file);
    snprintf(cgopt, sizeof(cgopt), "--callgrind-out-file=%s", cg);
    char **args = calloc((size_t)argc + 8, sizeof(*args));
    if (!args)
        goto out;
    int k = 0;
    args[k++] = "valgrind";
    args[k++] = "--tool=callgrind";
    args[k++] = "--instr-atstart=no";
    args[k++] = "--collect-atstart=no";
    args[k++] = cgopt;
    args[k++] = "/proc/self/exe";
    for (int i = 1; i < argc; i++)
        args[k++] = argv[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bench: icount: fork: %s\n", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* This program's file; when it was replaced meanwhile (a
         * rebuild), the parent's exe link still opens the one running. */
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        exe[n > 0 ? n : 0] = '\0';
        if (n <= 0 || strstr(exe, " (deleted)"))
            snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getppid());
        args[5] = exe;
        setenv(ENV_OUT, file, 1);
        /* The counting run's own report is not this one's. */
        if (!freopen("/dev/null", "w", stdout) ||
            !freopen("/dev/null", "a", stderr))
            _exit(127);
        execvp("valgrind", args);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr,
                "bench: icount: the run under callgrind failed (%s %d; is "
                "valgrind installed?)\n",
                WIFEXITED(status) ? "exit" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        goto out;
    }
    FILE *f = fopen(file, "r");
    char line[128];
    while (f && out->n < BENCH_ICOUNT_MAX && fgets(line, sizeof(line), f)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        size_t n = strlen(line);
        if (n >= sizeof(out->part[0]))
            n = sizeof(out->part[0]) - 1;
        memcpy(out->part[out->n], line, n);
        out->part[out->n][n] = '\0';
        out->count[out->n++] = strtoll(tab + 1, NULL, 10);
    }
    if (f)
        fclose(f);
    if (out->n == 0) {
        fprintf(stderr, "bench: icount: no count written\n");
        goto out;
    }
    rc = 0;
out:
    unlink(file);
    unlink(cg);
    rmdir(dir);
    free(args);
    return rc;
}

int64_t bench_icount_get(const struct bench_icounts *c, const char *part)
{
    for (int32_t i = 0; i < c->n; i++)
        if (strcmp(c->part[i], part) == 0)
            return c->count[i];
    return -1;
}

double bench_load_average(void)
{
    double load1 = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || fscanf(f, "%lf", &load1) != 1)
        load1 = -1;
    if (f)
        fclose(f);
    return load1;
}
