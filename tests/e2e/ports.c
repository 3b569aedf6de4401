/* ports.c - the C side of tests/e2e/ports.sh's port reservation (see
 * ports.h): flock on one empty file per port under $TNY_PORT_LOCKS, the
 * listening sockets read from /proc/net/tcp{,6} and /proc/PID/fd.
 */
#define _GNU_SOURCE
#include "ports.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 16
#define MAX_INODES 8

static struct {
    int port;
    int fd;
} held[MAX_HELD];

static const char *lock_dir(void)
{
    const char *d = getenv("TNY_PORT_LOCKS");
    return d && d[0] ? d : "/tmp/tny-port-locks";
}

/* The inodes of the sockets listening on port (at most max); their
 * count. */
static int listen_inodes(int port, unsigned long *ino, int max)
{
    static const char *const files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
    int n = 0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        FILE *f = fopen(files[k], "r");
        char line[512];
        if (!f)
            continue;
        while (fgets(line, sizeof line, f)) {
            unsigned int lport, state;
            unsigned long inode;
            /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
            if (sscanf(line,
                       " %*d: %*[0-9A-Fa-f]:%X %*[0-9A-Fa-f]:%*X %X %*s %*s "
                       "%*s %*u %*d %lu",
                       &lport, &state, &inode) != 3)
                continue;
            if ((int)lport == port && state == 0x0A && n < max)
                ino[n++] = inode;
        }
        fclose(f);
    }
    return n;
}

static bool pid_has_socket(pid_t pid, unsigned long inode)
{
    char dir[64], want[64], path[320], link[64];
    DIR *d;
    struct dirent *de;
    bool found = false;
    snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)pid);
    snprintf(want, sizeof want, "socket:[%lu]", inode);
    d = opendir(dir);
    if (!d)
        return false;
    while (!found && (de = readdir(d)) != NULL) {
        ssize_t len;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        len = readlink(path, link, sizeof link - 1);
        if (len <= 0)
            continue;
        link[len] = '\0';
        found = strcmp(link, want) == 0;
    }
    closedir(d);
    return found;
}

bool tu_port_listening(int port)
{
    unsigned long ino[1];
    return listen_inodes(port, ino, 1) > 0;
}

bool tu_port_listener_is(int port, pid_t pid)
{
    unsigned long ino[MAX_INODES];
    int n = listen_inodes(port, ino, MAX_INODES);
    for (int i = 0; i < n; i++)
        if (!pid_has_socket(pid, ino[i]))
            return false;
    return n > 0;
}

int tu_port_reserve(void)
{
    static unsigned int seed;
    const char *dir = lock_dir();
    int lo = 32768, slot = -1;
    FILE *range = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");

    if (range) {
        if (fscanf(range, "%d", &lo) != 1)
            lo = 32768;
        fclose(range);
    }
    if (lo <= 21000)
        lo = 32768;
    for (int i = 0; i < MAX_HELD && slot < 0; i++)
        if (held[i].port == 0)
            slot = i;
    if (slot < 0) {
        errno = ENOSPC;
        return -1;
    }
    /* sticky and writable by all: tests of several users share it */
    if (mkdir(dir, 01777) == 0)
        chmod(dir, 01777); /* (mkdir's mode went through the umask) */
    else if (errno != EEXIST)
        return -1;
    if (seed == 0)
        seed = (unsigned int)getpid() ^ (unsigned int)time(NULL);
    for (int i = 0; i < 200; i++) {
        int port = 20000 + (int)((unsigned int)rand_r(&seed) %
                                 (unsigned int)(lo - 20000));
        char path[512];
        int fd;
        snprintf(path, sizeof path, "%s/%d", dir, port);
        fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            continue; /* another user's, unreadable: theirs */
        /* flock conflicts between two descriptors of one process too:
         * a port this process holds is refused here as well */
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && !tu_port_listening(port)) {
            held[slot].port = port;
            held[slot].fd = fd;
            return port;
        }
        close(fd);
    }
    errno = EADDRINUSE;
    return -1;
}

void tu_port_release(int port)
{
    for (int i = 0; i < MAX_HELD; i++)
        if (held[i].port == port && port != 0) {
            close(held[i].fd);
            held[i].port = 0;
        }
}
