/* hub_db.c - the hub's database at start-up and from the command line:
 * the one-hub-per-database lock (hub_db_lock), open-and-check before the
 * hub goes online (hub_db_open), --create and --backup.
 *
 * The hub never creates its database on its own: a wrong or empty path
 * would otherwise start a fresh, empty hub that rejects every queued
 * result as "unknown event".  Creation is one explicit act (tourney-hub
 * --create, run by the package's postinst, deploy/run.sh and the tests).
 * A database that exists is checked before anything is announced: it must
 * be a hub database, pass quick_check and take a committed write, or the
 * hub exits 1 saying which file and why (docs/architecture.md
 * "Durability").
 *
 * Not here: the SQL (store/), the loop (hub_loop.c).
 */
#include "hub/hub.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"

/* SQLite's "unable to open database file" does not say that the file or
 * its directory (where the -wal and -shm files go) cannot be written:
 * add that when it is so. */
static int say_why_not_writable(const char *path, int rc, struct tny_diag *diag)
{
    char dir[TNY_CONFIG_VALUE_MAX];
    const char *what = NULL;
    int err = 0;
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (access(path, W_OK) != 0 && errno != ENOENT) {
        err = errno;
        what = "the file";
    } else if (access(dir, W_OK) != 0 && errno != ENOENT) {
        err = errno;
        what = "its directory (the -wal and -shm files go there)";
    }
    if (!what)
        return rc;
    char was[sizeof(diag->msg)];
    snprintf(was, sizeof(was), "%s", diag->msg);
    return tny_diag_set(diag, rc, "%s (read-only: %s: %s)", was, what,
                        strerror(err));
}

/* Two hubs on one database both took results and each overwrote what the
 * other had answered (issue 23).  SQLite's own locks cannot prevent it:
 * they serialise transactions, not processes.  So the hub takes an
 * exclusive flock on a file beside the database before opening it.  Not a
 * POSIX fcntl lock on the database itself: SQLite uses those on hub.db,
 * and any close() of hub.db in this process (the feed thread's connection,
 * the checkpointer's) would drop ours.  The pid and host in the file are
 * for the message only; the lock is what decides. */
int hub_db_lock(const struct hub_config *cfg, int *fd_out,
                struct tny_diag *diag)
{
    const char *db = cfg->v[HUB_CFG_DATABASE].text;
    char path[TNY_CONFIG_VALUE_MAX + 8], host[256] = "", who[512];
    int fd = -1, rc = TNY_OK;

    *fd_out = -1;
    /* No database, nothing to guard: hub_db_open says why it cannot
     * start (the hub never creates it). */
    struct stat st;
    if (stat(db, &st) != 0 && errno == ENOENT)
        return TNY_OK;
    snprintf(path, sizeof(path), "%s.lock", db);
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return tny_diag_set(diag, TNY_ESTATE, "lock file %s: %s%s", path,
                            strerror(errno),
                            errno == EROFS || errno == EACCES
                                ? " (read-only: the hub writes its lock, "
                                  "-wal and -shm files beside the database)"
                                : "");
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) {
            rc = tny_diag_set(diag, TNY_ESTATE, "lock file %s: %s", path,
                              strerror(errno));
            goto out;
        }
        ssize_t n = pread(fd, who, sizeof(who) - 1, 0);
        who[n > 0 ? n : 0] = '\0';
        who[strcspn(who, "\r\n")] = '\0';
        rc = tny_diag_set(diag, TNY_ECONFLICT,
                          "in use by another tourney-hub (%s; lock file "
                          "%s): one hub per database",
                          who[0] ? who : "pid and host not written yet", path);
        goto out;
    }
    (void)gethostname(host, sizeof(host) - 1);
    int len = snprintf(who, sizeof(who), "pid %ld on host %s\n", (long)getpid(),
                       host[0] ? host : "?");
    if (ftruncate(fd, 0) != 0 || pwrite(fd, who, (size_t)len, 0) != len) {
        rc = tny_diag_set(diag, TNY_ESTATE, "lock file %s: %s", path,
                          strerror(errno));
        goto out;
    }
    *fd_out = fd;
    fd = -1;
out:
    if (fd >= 0)
        close(fd);
    return rc;
}

int hub_db_open(const struct hub_config *cfg, unsigned flags,
                struct hub_store **out, struct tny_diag *diag)
{
    const char *path = cfg->v[HUB_CFG_DATABASE].text;
    struct hub_store_options o = {.flags = flags | HUB_STORE_MUST_EXIST};
    struct hub_store *store = NULL;
    int rc;

    *out = NULL;
    if (!cfg->v[HUB_CFG_DATABASE_SYNC].number)
        o.flags |= HUB_STORE_NO_SYNC;
    rc = hub_store_open_with(path, &o, &store, diag);
    if (rc == TNY_ENOTFOUND) {
        char why[sizeof(diag->msg)];
        snprintf(why, sizeof(why), "%s", diag->msg);
        return tny_diag_set(diag, rc,
                            "%s; refusing to start on a new empty database "
                            "(tables' queued results would be rejected): "
                            "create it once with tourney-hub --create",
                            why);
    }
    if (rc == 0 && (rc = hub_store_probe(store, diag)) < 0) {
        hub_store_close(store);
        store = NULL;
    }
    if (rc < 0)
        return say_why_not_writable(path, rc, diag);
    *out = store;
    return TNY_OK;
}

int hub_create(const struct hub_config *cfg)
{
    const char *path = cfg->v[HUB_CFG_DATABASE].text;
    struct hub_store *store = NULL;
    struct hub_store_options o = {0};
    struct tny_diag diag = {{0}};
    struct stat st;
    int32_t version = 0;

    /* An existing, non-empty file is opened as an existing database only:
     * --create never adds the hub's tables to another program's file. */
    if (stat(path, &st) == 0 && st.st_size > 0) {
        if (hub_db_open(cfg, 0, &store, &diag) < 0) {
            fprintf(stderr, "tourney-hub: database %s: %s\n", path, diag.msg);
            return 1;
        }
        if (hub_store_schema_version(store, &version, &diag) < 0)
            version = 0;
        hub_store_close(store);
        printf("tourney-hub: database %s exists (schema version %d): "
               "nothing created\n",
               path, (int)version);
        return 0;
    }
    if (!cfg->v[HUB_CFG_DATABASE_SYNC].number)
        o.flags |= HUB_STORE_NO_SYNC;
    if (hub_store_open_with(path, &o, &store, &diag) < 0 ||
        hub_store_probe(store, &diag) < 0 ||
        hub_store_schema_version(store, &version, &diag) < 0) {
        hub_store_close(store);
        fprintf(stderr, "tourney-hub: database %s: %s\n", path, diag.msg);
        return 1;
    }
    hub_store_close(store);
    printf("tourney-hub: created database %s (schema version %d)\n", path,
           (int)version);
    return 0;
}

int hub_backup(const struct hub_config *cfg, const char *path)
{
    const char *db = cfg->v[HUB_CFG_DATABASE].text;
    struct tny_diag diag = {{0}};
    struct stat st;

    if (stat(db, &st) != 0) {
        fprintf(stderr, "tourney-hub: database %s: no such file\n", db);
        return 1;
    }
    if (hub_store_backup(db, path, &diag) < 0) {
        fprintf(stderr, "tourney-hub: %s\n", diag.msg);
        return 1;
    }
    if (stat(path, &st) != 0)
        st.st_size = 0;
    printf("tourney-hub: backup of %s written to %s (%lld bytes)\n", db, path,
           (long long)st.st_size);
    return 0;
}
