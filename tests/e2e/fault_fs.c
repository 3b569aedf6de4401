/* fault_fs.c - an LD_PRELOAD shim for e2e tests that makes the files of
 * one directory fail their writes while a control file says so, as a file
 * system that turned read-only (or full, or failing) under a running
 * program would: Linux refuses `mount -o remount,ro` while a file is open
 * for writing, so a test cannot make that happen to the hub for real.
 *
 * TNY_FAULT_DIR: the directory (its files, by the path of the open fd);
 * TNY_FAULT_CONTROL: a file whose first word names the errno to fail with
 * (EROFS, ENOSPC, EIO); missing or anything else: no fault.  It is read at
 * every write to a file of the directory.  write, pwrite, pwrite64,
 * writev, pwritev, fsync, fdatasync and ftruncate fail with it; reads,
 * and writes through a memory mapping (SQLite's -shm), go on.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* The errno to fail a write to fd with, 0 for none. */
static int fault_for(int fd)
{
    const char *dir = getenv("TNY_FAULT_DIR");
    const char *control = getenv("TNY_FAULT_CONTROL");
    char link[64], path[4096], word[16] = "";
    if (!dir || !control || fd < 0)
        return 0;
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof(path) - 1);
    size_t dl = strlen(dir);
    if (n <= (ssize_t)dl || strncmp(path, dir, dl) != 0 || path[dl] != '/')
        return 0;
    int saved = errno;
    int cfd = open(control, O_RDONLY | O_CLOEXEC);
    if (cfd >= 0) {
        ssize_t r = read(cfd, word, sizeof(word) - 1);
        word[r > 0 ? r : 0] = '\0';
        close(cfd);
    }
    errno = saved;
    if (strncmp(word, "EROFS", 5) == 0)
        return EROFS;
    if (strncmp(word, "ENOSPC", 6) == 0)
        return ENOSPC;
    if (strncmp(word, "EIO", 3) == 0)
        return EIO;
    return 0;
}

/* Calls the real function (the C standard has no object-to-function
 * pointer cast; POSIX guarantees dlsym's pointer converts). */
#define CALL_NEXT(name, ...)                                                   \
    do {                                                                       \
        __typeof__(&name) fn_;                                                 \
        void *p_ = dlsym(RTLD_NEXT, #name);                                    \
        memcpy(&fn_, &p_, sizeof(fn_));                                        \
        return fn_(__VA_ARGS__);                                               \
    } while (0)
#define FAIL_IF_FAULT(fd)                                                      \
    do {                                                                       \
        int e_ = fault_for(fd);                                                \
        if (e_) {                                                              \
            errno = e_;                                                        \
            return -1;                                                         \
        }                                                                      \
    } while (0)

ssize_t write(int fd, const void *buf, size_t n)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(write, fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(pwrite, fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(pwrite64, fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(writev, fd, iov, n);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(pwritev, fd, iov, n, off);
}

int fsync(int fd)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(fsync, fd);
}

int fdatasync(int fd)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(fdatasync, fd);
}

int ftruncate(int fd, off_t len)
{
    FAIL_IF_FAULT(fd);
    CALL_NEXT(ftruncate, fd, len);
}
