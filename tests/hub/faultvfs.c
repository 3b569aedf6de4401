/* faultvfs.c - the fault-injecting VFS shim of faultvfs.h: every method
 * forwards to the real file, except writes and syncs while a fault is
 * set.  The real file lives right after the shim's struct. */
#include "faultvfs.h"

#include <sqlite3.h>
#include <string.h>

struct shim_file {
    sqlite3_file base;
    sqlite3_file *real;
};

static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim_vfs;
static sqlite3_io_methods shim_io;
static enum faultvfs_fault fault;
static int hits;

#define REAL(f) (((struct shim_file *)(f))->real)

static int s_close(sqlite3_file *f)
{
    return REAL(f)->pMethods->xClose(REAL(f));
}
static int s_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
    return REAL(f)->pMethods->xRead(REAL(f), b, n, o);
}
static int s_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
    if (fault == FAULTVFS_FULL) {
        hits++;
        return SQLITE_FULL;
    }
    return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}
static int s_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}
static int s_sync(sqlite3_file *f, int flags)
{
    if (fault == FAULTVFS_FSYNC) {
        hits++;
        return SQLITE_IOERR_FSYNC;
    }
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int s_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}
static int s_lock(sqlite3_file *f, int l)
{
    return REAL(f)->pMethods->xLock(REAL(f), l);
}
static int s_unlock(sqlite3_file *f, int l)
{
    return REAL(f)->pMethods->xUnlock(REAL(f), l);
}
static int s_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int s_control(sqlite3_file *f, int op, void *arg)
{
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int s_sector(sqlite3_file *f)
{
    return REAL(f)->pMethods->xSectorSize(REAL(f));
}
static int s_device(sqlite3_file *f)
{
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
static int s_shm_map(sqlite3_file *f, int pg, int sz, int ext,
                     void volatile **out)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, ext, out);
}
static int s_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
    return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}
static void s_shm_barrier(sqlite3_file *f)
{
    REAL(f)->pMethods->xShmBarrier(REAL(f));
}
static int s_shm_unmap(sqlite3_file *f, int del)
{
    return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}
static int s_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **pp)
{
    return REAL(f)->pMethods->xFetch(REAL(f), o, n, pp);
}
static int s_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p)
{
    return REAL(f)->pMethods->xUnfetch(REAL(f), o, p);
}

static int s_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
                  int flags, int *out_flags)
{
    struct shim_file *s = (struct shim_file *)f;
    (void)vfs;
    s->real = (sqlite3_file *)(s + 1);
    int rc = real_vfs->xOpen(real_vfs, name, s->real, flags, out_flags);
    /* A file the real VFS did not open has no methods: neither has ours
     * (SQLite then calls no xClose). */
    s->base.pMethods = rc == SQLITE_OK && s->real->pMethods ? &shim_io : NULL;
    return rc;
}

static int s_delete(sqlite3_vfs *v, const char *n, int sync)
{
    (void)v;
    return real_vfs->xDelete(real_vfs, n, sync);
}
static int s_access(sqlite3_vfs *v, const char *n, int flags, int *out)
{
    (void)v;
    return real_vfs->xAccess(real_vfs, n, flags, out);
}
static int s_fullname(sqlite3_vfs *v, const char *n, int size, char *out)
{
    (void)v;
    return real_vfs->xFullPathname(real_vfs, n, size, out);
}
static int s_random(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return real_vfs->xRandomness(real_vfs, n, out);
}
static int s_sleep(sqlite3_vfs *v, int us)
{
    (void)v;
    return real_vfs->xSleep(real_vfs, us);
}
static int s_time(sqlite3_vfs *v, double *out)
{
    (void)v;
    return real_vfs->xCurrentTime(real_vfs, out);
}
static int s_last_error(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return real_vfs->xGetLastError(real_vfs, n, out);
}
static int s_time64(sqlite3_vfs *v, sqlite3_int64 *out)
{
    (void)v;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

int faultvfs_install(void)
{
    if (!real_vfs && !(real_vfs = sqlite3_vfs_find(NULL)))
        return SQLITE_ERROR;
    shim_io = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = s_close,
        .xRead = s_read,
        .xWrite = s_write,
        .xTruncate = s_truncate,
        .xSync = s_sync,
        .xFileSize = s_size,
        .xLock = s_lock,
        .xUnlock = s_unlock,
        .xCheckReservedLock = s_reserved,
        .xFileControl = s_control,
        .xSectorSize = s_sector,
        .xDeviceCharacteristics = s_device,
        .xShmMap = s_shm_map,
        .xShmLock = s_shm_lock,
        .xShmBarrier = s_shm_barrier,
        .xShmUnmap = s_shm_unmap,
        .xFetch = s_fetch,
        .xUnfetch = s_unfetch,
    };
    shim_vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(struct shim_file) + real_vfs->szOsFile,
        .mxPathname = real_vfs->mxPathname,
        .zName = "faultvfs",
        .xOpen = s_open,
        .xDelete = s_delete,
        .xAccess = s_access,
        .xFullPathname = s_fullname,
        .xRandomness = s_random,
        .xSleep = s_sleep,
        .xCurrentTime = s_time,
        .xGetLastError = s_last_error,
        .xCurrentTimeInt64 = s_time64,
    };
    fault = FAULTVFS_NONE;
    hits = 0;
    return sqlite3_vfs_register(&shim_vfs, 1);
}

void faultvfs_uninstall(void)
{
    fault = FAULTVFS_NONE;
    if (real_vfs)
        sqlite3_vfs_register(real_vfs, 1);
}

void faultvfs_set(enum faultvfs_fault f)
{
    fault = f;
}

int faultvfs_hits(void)
{
    return hits;
}
