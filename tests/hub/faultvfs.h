/* faultvfs.h - a SQLite VFS shim for fault-injection tests: wraps the
 * default VFS and, while a fault is set, fails every write (a full disk)
 * or every sync (a failing fsync) of the files opened through it.
 */
#ifndef TNY_TEST_FAULTVFS_H
#define TNY_TEST_FAULTVFS_H

enum faultvfs_fault {
    FAULTVFS_NONE,
    FAULTVFS_FULL,  /* xWrite answers SQLITE_FULL */
    FAULTVFS_FSYNC, /* xSync answers SQLITE_IOERR_FSYNC */
};

/* Registers the shim as the default VFS (files opened from now on go
 * through it); 0 or a SQLite error code. */
int faultvfs_install(void);
/* Makes the shim's default the original VFS again. */
void faultvfs_uninstall(void);
void faultvfs_set(enum faultvfs_fault fault);
/* Faults answered since install. */
int faultvfs_hits(void);

#endif
