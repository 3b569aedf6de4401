# ports.sh - TCP ports on 127.0.0.1 for the servers a test or a bench
# starts (mosquitto), reserved so that two of them running at once never
# get the same port (sourced, bash >= 4.3: tests/e2e/lib.sh, bench/lib.sh;
# its C twin is tests/e2e/ports.c, same protocol).
#
# Why: the old way drew a free-looking port, wrote it into a config and
# let mosquitto bind it later.  Under `ctest -j2` two tests could draw the
# same port in that gap; the loser's broker exited with "address in use"
# while the check "something accepts on the port" saw the winner's broker
# and took it for its own (or a test that restarts its broker found its
# port taken by another test's meanwhile).
#
# How, in two parts:
# 1. Reservation (collisions between our tests impossible): a port is
#    ours while we hold flock(2) on the file $TNY_PORT_LOCKS/PORT
#    (default /tmp/tny-port-locks, the same for every test whatever its
#    TMPDIR).  port_reserve takes that lock without waiting, on a port
#    drawn from [20000, start of the ephemeral range) -- the kernel never
#    gives that port to an outgoing connection -- on which nothing listens
#    now, and keeps the lock's descriptor open in this shell: the port
#    stays reserved until the shell exits (or port_release), and a test
#    that dies frees its ports with it (children that inherited the
#    descriptor hold it until they die too).  Every picker of a port in
#    this project goes through this protocol, so none of them hands out a
#    port another one holds, and a test's broker restarted on its port
#    finds it free.
# 2. Ownership at bind time (a program outside the project): the launcher
#    that starts the server checks, with port_listener_is, that the socket
#    listening on each of its ports is one of the started process's own
#    (from /proc), not merely that something accepts there; when not, it
#    draws other ports (tests/e2e/lib.sh: launch and start_broker).
#
# Lock files are never removed (removing a lock file races with its next
# locker); they are empty, one per port ever drawn.
#
# port_reserve must run in the shell that keeps the port, never in $(...)
# (the subshell's exit would release it): it sets variables.

# shellcheck shell=bash
TNY_PORT_LOCKS=${TNY_PORT_LOCKS:-/tmp/tny-port-locks}
# port -> the descriptor holding its lock (kept when sourced again)
declare -p PORT_LOCK_FD >/dev/null 2>&1 || declare -gA PORT_LOCK_FD=()

# port_listening PORT: true when a TCP socket of this network namespace
# listens on PORT (any address).
port_listening() {
    [ -n "$(port_listen_inodes "$1")" ]
}

# port_listen_inodes PORT: the inodes of the sockets listening on PORT,
# one per line (/proc/net/tcp and tcp6: state 0A is LISTEN).
port_listen_inodes() {
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $10 }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# port_listener_is PORT PID: true when something listens on PORT and
# every socket listening there is an open descriptor of process PID.
port_listener_is() {
    local ino found=1
    for ino in $(port_listen_inodes "$1"); do
        found=0
        [ -n "$(find "/proc/$2/fd" -maxdepth 1 -lname "socket:\[$ino\]" -print -quit 2>/dev/null)" ] ||
            return 1
    done
    return $found
}

# port_reserve VAR...: a reserved port into each VAR (distinct ones).
# Exits the shell (status 1) when 200 draws found none.
port_reserve() {
    local _v _lo=32768 _p _f _fd _i # (names the caller's VARs will not be)
    if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
        read -r _lo _ </proc/sys/net/ipv4/ip_local_port_range
    fi
    [ "$_lo" -gt 21000 ] || _lo=32768
    if [ ! -d "$TNY_PORT_LOCKS" ]; then
        # sticky and writable by all: tests of several users share it
        mkdir -m 1777 "$TNY_PORT_LOCKS" 2>/dev/null || [ -d "$TNY_PORT_LOCKS" ] || {
            echo "port_reserve: cannot create $TNY_PORT_LOCKS" >&2
            exit 1
        }
    fi
    for _v in "$@"; do
        for ((_i = 0; ; _i++)); do
            if [ "$_i" -ge 200 ]; then
                echo "port_reserve: no free port in [20000, $_lo) after 200 draws" >&2
                exit 1
            fi
            _p=$((20000 + (RANDOM * 32768 + RANDOM) % (_lo - 20000)))
            [ -z "${PORT_LOCK_FD[$_p]:-}" ] || continue
            _f=$TNY_PORT_LOCKS/$_p
            [ -e "$_f" ] || : 2>/dev/null >>"$_f"
            [ -r "$_f" ] || continue # (another user's, unreadable: theirs)
            exec {_fd}<"$_f"
            if flock -n "$_fd" && ! port_listening "$_p"; then
                PORT_LOCK_FD[$_p]=$_fd
                printf -v "$_v" '%s' "$_p"
                break
            fi
            exec {_fd}<&-
        done
    done
}

# port_release PORT...: gives reserved ports back (unknown ones ignored).
port_release() {
    local p fd
    for p in "$@"; do
        fd=${PORT_LOCK_FD[$p]:-}
        [ -n "$fd" ] || continue
        exec {fd}<&-
        unset "PORT_LOCK_FD[$p]"
    done
}
