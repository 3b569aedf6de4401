/* ports.h - TCP ports on 127.0.0.1 for the servers a C test or bench
 * starts (mosquitto), reserved against every other test and bench of this
 * project running at the same time: the protocol of tests/e2e/ports.sh
 * (read its header for why and how): a port is this process's while it
 * holds flock(2) on $TNY_PORT_LOCKS/PORT (default /tmp/tny-port-locks);
 * ports are drawn from [20000, start of the ephemeral range) among those
 * nothing listens on.
 *
 * Not thread-safe (a test's main thread).  The lock descriptors are
 * close-on-exec: a child never holds a reservation.
 */
#ifndef TNY_TESTS_PORTS_H
#define TNY_TESTS_PORTS_H

#include <stdbool.h>
#include <sys/types.h>

/* A reserved port (kept until tu_port_release or this process's exit),
 * or -1 with errno set when none could be had (the lock directory cannot
 * be made, or 200 draws found every port taken). */
int tu_port_reserve(void);

/* Gives a port of tu_port_reserve back (any other: nothing happens). */
void tu_port_release(int port);

/* True when a TCP socket of this network namespace listens on `port`. */
bool tu_port_listening(int port);

/* True when something listens on TCP port `port` and every socket
 * listening there is an open descriptor of process `pid` (/proc): the
 * server started is the one that got the port. */
bool tu_port_listener_is(int port, pid_t pid);

#endif
