/* replay.c - main() of a fuzz target outside libFuzzer: runs the target on
 * every file named on the command line (a directory: every file in it),
 * once each, so the seed corpus replays as a test in every build.
 *
 * Exits 1 when an argument cannot be read or no input was found (an empty
 * corpus must not pass silently); a bug in the target aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Inputs larger than libFuzzer's -max_len are never generated; the replay
 * reads at most this much of a file. */
#define REPLAY_MAX (1u << 22)

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_MAX);
    size_t n = buf ? fread(buf, 1, REPLAY_MAX, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: cannot read\n", path);
        free(buf);
        return -1;
    }
    /* A copy of exactly n bytes, so that ASan sees any read past the end. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int run_path(const char *path, int *n_inputs)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*n_inputs)++;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        rc = run_path(sub, n_inputs);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    int n_inputs = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &n_inputs) < 0)
            return 1;
    if (n_inputs == 0) {
        fprintf(stderr, "replay: no inputs\n");
        return 1;
    }
    printf("replayed %d inputs\n", n_inputs);
    return 0;
}
