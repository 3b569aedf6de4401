/* power_cut.c - a simulated power cut for e2e tests (issue 23): an
 * LD_PRELOAD shim that keeps an undo journal of every write to the files
 * of one directory, and (built with -DPOWER_CUT_UNDO) the program that
 * applies it after the process was killed.
 *
 * The shim (TNY_CUT_DIR: the directory, TNY_CUT_JOURNAL: the journal
 * file, outside it): before each write (write, pwrite, pwrite64) or
 * ftruncate of a regular file directly in TNY_CUT_DIR it appends to the
 * journal the bytes and the size the write is about to replace; fsync or
 * fdatasync of the file appends a sync mark.  A write's record and the
 * write itself happen under one lock, so the journal holds them in the
 * order they reached the file.  The -shm file is not tracked: it is a
 * memory map, and after a power cut SQLite rebuilds it (the test removes
 * it).  writev/pwritev and mmap writes are not tracked (SQLite uses
 * neither for these files with mmap_size 0).
 *
 * The undo program (power_cut_undo JOURNAL): for each file, every record
 * after its last sync mark is undone, newest first: the old bytes are
 * written back and the old size restored.  What is left is what a disk
 * that lost its volatile cache at the cut would hold, at the worst: every
 * write not yet fsynced gone.  It prints one line: the writes undone and
 * the files touched.
 *
 * Not a model of torn sectors or reordered writes within a sync: whole
 * writes vanish, in reverse order.  Directory entries are treated as
 * durable.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* One journal record: kind 'W' (a write of len bytes at off), 'T' (a
 * truncation to off), 'S' (a sync); old_size: the file's size before;
 * then path_len bytes of path and n_saved bytes of old content (for 'W'
 * the bytes [off, off + n_saved) it replaced, for 'T' the tail
 * [off, old_size) it cut). */
struct rec {
    char kind;
    uint32_t path_len;
    uint64_t off, len, old_size, n_saved;
};

#ifndef POWER_CUT_UNDO

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int journal = -1;

/* Raw syscalls: never our own hooks. */
static ssize_t raw_write(int fd, const void *buf, size_t n)
{
    return syscall(SYS_write, fd, buf, n);
}

static void journal_put(const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = raw_write(journal, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            abort(); /* a lost record would make the test lie */
        c += w;
        n -= (size_t)w;
    }
}

/* The path of fd when it is a tracked file (in TNY_CUT_DIR, not -shm),
 * else false. */
static bool tracked(int fd, char *path, size_t cap)
{
    const char *dir = getenv("TNY_CUT_DIR");
    char link[64];
    if (!dir || fd < 0)
        return false;
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    int saved = errno;
    ssize_t n = readlink(link, path, cap - 1);
    errno = saved;
    size_t dl = strlen(dir);
    if (n <= (ssize_t)dl || strncmp(path, dir, dl) != 0 || path[dl] != '/')
        return false;
    path[n] = '\0';
    if (strchr(path + dl + 1, '/') ||
        (n > 4 && strcmp(path + n - 4, "-shm") == 0))
        return false;
    if (journal < 0) {
        const char *j = getenv("TNY_CUT_JOURNAL");
        if (!j || (journal = open(j, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                                  0600)) < 0)
            abort();
    }
    return true;
}

/* Records what [off, off + len) of fd (kind 'W') or its tail from off
 * (kind 'T') holds now, and its size.  Called with mu held. */
static void record(char kind, int fd, const char *path, uint64_t off,
                   uint64_t len)
{
    struct stat st;
    struct rec r = {.kind = kind, .off = off, .len = len};
    if (fstat(fd, &st) != 0)
        abort();
    r.old_size = (uint64_t)st.st_size;
    r.path_len = (uint32_t)strlen(path);
    if (kind == 'W' && off < r.old_size)
        r.n_saved = (off + len < r.old_size ? off + len : r.old_size) - off;
    else if (kind == 'T' && off < r.old_size)
        r.n_saved = r.old_size - off;
    char *old = r.n_saved ? malloc(r.n_saved) : NULL;
    if (r.n_saved && !old)
        abort();
    for (uint64_t got = 0; got < r.n_saved;) {
        ssize_t n = pread(fd, old + got, r.n_saved - got, (off_t)(off + got));
        if (n <= 0)
            abort();
        got += (uint64_t)n;
    }
    journal_put(&r, sizeof(r));
    journal_put(path, r.path_len);
    if (r.n_saved)
        journal_put(old, r.n_saved);
    free(old);
}

/* fn_ = the real function (the C standard has no object-to-function
 * pointer conversion: memcpy). */
#define NEXT(name)                                                             \
    __typeof__(&name) fn_;                                                     \
    do {                                                                       \
        void *p_ = dlsym(RTLD_NEXT, #name);                                    \
        if (!p_)                                                               \
            abort();                                                           \
        memcpy(&fn_, &p_, sizeof(fn_));                                        \
    } while (0)

/* Before a tracked write or truncation: takes the lock and journals what
 * it replaces; true when tracked (then `done` releases the lock). */
static bool begin(char kind, int fd, uint64_t off, uint64_t len)
{
    char path[4096];
    if (!tracked(fd, path, sizeof(path)))
        return false;
    pthread_mutex_lock(&mu);
    if (off == UINT64_MAX) { /* write(): at the file offset */
        off_t at = lseek(fd, 0, SEEK_CUR);
        if (at < 0)
            abort();
        off = (uint64_t)at;
    }
    record(kind, fd, path, off, len);
    return true;
}

static void done(bool locked)
{
    if (locked)
        pthread_mutex_unlock(&mu);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    NEXT(pwrite);
    bool t = begin('W', fd, (uint64_t)off, n);
    ssize_t rc = fn_(fd, buf, n, off);
    done(t);
    return rc;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    NEXT(pwrite64);
    bool t = begin('W', fd, (uint64_t)off, n);
    ssize_t rc = fn_(fd, buf, n, off);
    done(t);
    return rc;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    NEXT(write);
    bool t = begin('W', fd, UINT64_MAX, n);
    ssize_t rc = fn_(fd, buf, n);
    done(t);
    return rc;
}

int ftruncate(int fd, off_t len)
{
    NEXT(ftruncate);
    bool t = begin('T', fd, (uint64_t)len, 0);
    int rc = fn_(fd, len);
    done(t);
    return rc;
}

int ftruncate64(int fd, off64_t len)
{
    NEXT(ftruncate64);
    bool t = begin('T', fd, (uint64_t)len, 0);
    int rc = fn_(fd, len);
    done(t);
    return rc;
}

/* The sync mark goes after the real sync returned: a cut during the sync
 * undoes the writes it covered (the worst case). */
static int synced(int fd, int rc)
{
    char path[4096];
    if (rc != 0 || !tracked(fd, path, sizeof(path)))
        return rc;
    pthread_mutex_lock(&mu);
    struct rec r = {.kind = 'S', .path_len = (uint32_t)strlen(path)};
    journal_put(&r, sizeof(r));
    journal_put(path, r.path_len);
    pthread_mutex_unlock(&mu);
    return rc;
}

int fsync(int fd)
{
    NEXT(fsync);
    return synced(fd, fn_(fd));
}

int fdatasync(int fd)
{
    NEXT(fdatasync);
    return synced(fd, fn_(fd));
}

#else /* POWER_CUT_UNDO */

struct entry {
    struct rec r;
    char *path;
    char *old;
};

int main(int argc, char **argv)
{
    struct entry *e = NULL;
    size_t n = 0, cap = 0, undone = 0, files = 0;
    FILE *f;
    if (argc != 2) {
        fprintf(stderr, "usage: power_cut_undo JOURNAL\n");
        return 2;
    }
    if (!(f = fopen(argv[1], "rb"))) {
        fprintf(stderr, "power_cut_undo: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    for (;;) {
        struct entry x = {0};
        if (fread(&x.r, sizeof(x.r), 1, f) != 1)
            break;
        x.path = calloc(1, x.r.path_len + 1);
        x.old = x.r.n_saved ? malloc(x.r.n_saved) : NULL;
        if (!x.path || (x.r.n_saved && !x.old) ||
            fread(x.path, 1, x.r.path_len, f) != x.r.path_len ||
            (x.r.n_saved && fread(x.old, 1, x.r.n_saved, f) != x.r.n_saved)) {
            fprintf(stderr, "power_cut_undo: %s: truncated record\n", argv[1]);
            return 1;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            if (!(e = realloc(e, cap * sizeof(*e))))
                return 1;
        }
        e[n++] = x;
    }
    fclose(f);
    /* Newest first; a file's records before its last sync are durable
     * (going back, a sync mark closes its file). */
    char *paths[64];
    bool closed[64];
    for (size_t i = n; i-- > 0;) {
        size_t p = 0;
        while (p < files && strcmp(paths[p], e[i].path) != 0)
            p++;
        if (p == files) {
            if (files == 64) {
                fprintf(stderr, "power_cut_undo: more than 64 files\n");
                return 1;
            }
            paths[files] = e[i].path;
            closed[files++] = false;
        }
        if (e[i].r.kind == 'S')
            closed[p] = true;
        if (e[i].r.kind == 'S' || closed[p])
            continue;
        int fd = open(e[i].path, O_WRONLY);
        if (fd < 0 && errno == ENOENT)
            continue; /* removed (unlink is taken as durable) */
        if (fd < 0) {
            fprintf(stderr, "power_cut_undo: %s: %s\n", e[i].path,
                    strerror(errno));
            return 1;
        }
        /* The size before the write or truncation, then its old bytes. */
        if (ftruncate(fd, (off_t)e[i].r.old_size) != 0 ||
            (e[i].r.n_saved &&
             pwrite(fd, e[i].old, e[i].r.n_saved, (off_t)e[i].r.off) !=
                 (ssize_t)e[i].r.n_saved)) {
            fprintf(stderr, "power_cut_undo: %s: %s\n", e[i].path,
                    strerror(errno));
            return 1;
        }
        close(fd);
        undone++;
    }
    printf("power_cut_undo: %zu of %zu records undone (%zu files)\n", undone, n,
           files);
    for (size_t i = 0; i < n; i++) {
        free(e[i].path);
        free(e[i].old);
    }
    free(e);
    return 0;
}

#endif
