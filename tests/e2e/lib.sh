# lib.sh - harness for the end-to-end tests (sourced, bash >= 4.4).
#
# A test does:
#     source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
#     e2e_init "$@"              # SOURCE_DIR BUILD_DIR from ctest
#     start_broker --tables 3    # extra arguments go to gen-config.sh
#     e2e_sub_start results hub 'tourney/v1/device/+/result'
#     e2e_pub table-001 tourney/v1/device/table-001/result hello ||
#         fail "publish: $(cat "$E2E_TMP/pub.err")"
#     e2e_expect results tourney/v1/device/table-001/result hello
#     e2e_done
#
# It gives: a private temp dir ($E2E_TMP); the venue's two real mosquitto
# processes on 127.0.0.1 with free ports, configured by
# deploy/broker/gen-config.sh: the venue broker ($BROKER_PORT, logins
# hub, o1, o2, monitors watch and watch2, table-001..; organiser consoles
# also on $BROKER_CONSOLE_PORT, several connections per login) and the public feed
# broker (bridged) with its WebSocket front on $BROKER_WS_PORT
# (deploy/broker/feed-front.js, node and deploy/overlays' npm packages);
# restart_broker, restart_feed; passwords
# by login (cred); MQTT v5 QoS 1 publish/subscribe helpers with timeouts;
# a raw MQTT v5 over WebSocket client in pure bash (Debian's mosquitto_sub
# has no WebSocket transport); fail; a watchdog for the whole test
# ($E2E_TIMEOUT seconds, default 120).
#
# One rule the broker imposes: one connection per login at a time
# (use_username_as_clientid: a second connection with the same login
# closes the first).  Observe with the monitor logins watch/watch2, and
# do not publish as a login that has a running subscriber.
#
# It does not build anything, and it never skips: a missing mosquitto is a
# failure.
#
# Invariants: every process the harness or the test starts in the
# background is killed by id on exit (e2e_track registers it), the temp
# dir is removed (kept when E2E_KEEP=1), and a failing test prints the
# brokers' log tails.  Brokers log every packet (--log-debug), which some
# helpers read (bridge_subacks).
#
# Ports (tests/e2e/ports.sh says why and how): every port a test's
# servers listen on is reserved with port_reserve (an flock per port,
# shared by every test, bench and tests/e2e/ports.c), so tests running in
# parallel never pick the same one, and a broker restarted on its port
# finds it free.  A broker counts as up only when the socket listening on
# each port of its config is its own (launch: port_listener_is), not when
# something accepts there; a port taken by a program outside the project
# makes start_broker draw others.  Ports a test needs beyond the broker's
# own: `start_broker --table-ws-port auto` (drawn with the others, in
# $BROKER_TABLE_WS_PORT; likewise --tls-port), or port_reserve VAR in the
# test's own shell (never in $(...): the lock would go with the subshell).

# shellcheck shell=bash disable=SC2034 # (variables are the API)
set -u -o pipefail
export LC_ALL=C

source "$(dirname -- "${BASH_SOURCE[0]}")/ports.sh"

E2E_NAME=$(basename -- "$0" .sh)
E2E_TMP=
E2E_SRC=
E2E_BUILD=
E2E_PIDS=()
E2E_WATCHDOG=
E2E_TIMEOUT=${E2E_TIMEOUT:-} # default 120, set by e2e_init: a test's own
# E2E_TIMEOUT=${E2E_TIMEOUT:-N} after sourcing this file must take effect
MOSQUITTO=${MOSQUITTO:-/usr/sbin/mosquitto}
BROKER_HOST=127.0.0.1
BROKER_PORT=
BROKER_CONSOLE_PORT=
BROKER_WS_PORT=
BROKER_BRIDGE_PORT=
BROKER_PID=
BROKER_DIR=
BROKER_LOG=
BROKER_GEN_ARGS=()
FEED_PID=
FEED_LOG=
FRONT_PID=
FRONT_LOG=
FRONT_AS=

# --- basics ----------------------------------------------------------------

# fail MESSAGE...: reports and ends the test (exit status 1).
fail() {
    echo "FAIL: $E2E_NAME: $*" >&2
    local log
    for log in "$BROKER_LOG" "$FEED_LOG" "$FRONT_LOG"; do
        if [ -n "$log" ] && [ -s "$log" ]; then
            echo "--- last lines of $log:" >&2
            tail -n 20 "$log" >&2
        fi
    done
    exit 1
}

# ok MESSAGE...: one progress line on stdout, ending with the seconds
# since the test started (where a slow test spends its time).
ok() {
    echo "ok - $* [${SECONDS}s]"
}

# e2e_track PID...: kill these on exit.
e2e_track() {
    E2E_PIDS+=("$@")
}

# kill_wait PID: TERM, then KILL after 2 s; reaps it if it is our child.
kill_wait() {
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 40; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return 0
}

e2e_cleanup() {
    local rc=$? pid
    trap - EXIT INT TERM
    if [ -n "$E2E_WATCHDOG" ]; then
        kill -TERM "$E2E_WATCHDOG" 2>/dev/null
        wait "$E2E_WATCHDOG" 2>/dev/null
    fi
    for pid in "${E2E_PIDS[@]}"; do
        kill_wait "$pid"
    done
    [ -z "$FRONT_PID" ] || kill_wait "$FRONT_PID"
    [ -z "$FEED_PID" ] || kill_wait "$FEED_PID"
    [ -z "$BROKER_PID" ] || kill_wait "$BROKER_PID"
    if [ -n "$E2E_TMP" ] && [ -d "$E2E_TMP" ]; then
        if [ "${E2E_KEEP:-0}" = 1 ]; then
            echo "kept $E2E_TMP" >&2
        else
            rm -rf -- "$E2E_TMP"
        fi
    fi
    exit "$rc"
}

# e2e_mount_ns "$@": re-runs the test in a private mount namespace
# (unshare -m, root; for a tmpfs of its own), before e2e_init; without
# root or unshare prints "SKIP: ..." and exits 77.
e2e_mount_ns() {
    [ -z "${TNY_IN_MOUNT_NS:-}" ] || return 0
    if ! unshare -m true 2>/dev/null; then
        echo "SKIP: $E2E_NAME: needs root and unshare -m (a private mount namespace)"
        exit 77
    fi
    TNY_IN_MOUNT_NS=1 exec unshare -m --propagation private bash "$0" "$@"
}

# e2e_faketime_lib: FT = libfaketime's library for threaded programs;
# without it prints "SKIP: ..." and exits 77.
e2e_faketime_lib() {
    local f
    FT=
    for f in /usr/lib/*/faketime/libfaketimeMT.so.1; do
        [ -e "$f" ] && FT=$f
    done
    [ -n "$FT" ] || { echo "SKIP: $E2E_NAME: libfaketime not installed (Debian package faketime; deploy/install-deps.sh)"; exit 77; }
}

# e2e_init SOURCE_DIR [BUILD_DIR]: checks the tools, makes the temp dir,
# installs the cleanup trap and the watchdog ($E2E_TIMEOUT seconds).
e2e_init() {
    E2E_SRC=${1:-}
    E2E_BUILD=${2:-}
    if [ -z "$E2E_SRC" ] || [ ! -f "$E2E_SRC/deploy/broker/gen-config.sh" ]; then
        echo "usage: bash $0 SOURCE_DIR [BUILD_DIR]" >&2
        exit 2
    fi
    E2E_SRC=$(cd -- "$E2E_SRC" && pwd -P)
    E2E_TIMEOUT=${E2E_TIMEOUT:-120}
    trap e2e_cleanup EXIT
    trap 'fail "interrupted"' INT
    trap 'fail "timed out after ${E2E_TIMEOUT}s (watchdog)"' TERM
    E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tny-e2e-$E2E_NAME.XXXXXX") ||
        fail "cannot create a temp dir"
    local tool
    for tool in "$MOSQUITTO" mosquitto_pub mosquitto_sub mosquitto_passwd \
        timeout dd od stdbuf flock find awk; do
        command -v "$tool" >/dev/null 2>&1 ||
            fail "$tool not found: install mosquitto and mosquitto-clients (deploy/install-deps.sh)"
    done
    # The watchdog: TERM to this shell when the test runs too long.  Its
    # own sleep dies with it, and it holds no pipe ctest waits on.
    local main=$$
    (
        trap 'kill $sp 2>/dev/null; exit 0' TERM
        sleep "$E2E_TIMEOUT" &
        sp=$!
        wait "$sp" && kill -TERM "$main"
    ) </dev/null >/dev/null 2>&1 &
    E2E_WATCHDOG=$!
}

# need_binaries NAME...: sets each NAME to that program of this build
# ($E2E_BUILD) and fails the test unless it is there.  NAME: TOURNEY
# (hub/tourney), HUB (hub/tourney-hub), TABLE
# (table-client/tourney-table), WIRETOOL (table-client/wiretool),
# FAULT_FS (tests/fault_fs.so), POWER_CUT (tests/power_cut.so),
# POWER_CUT_UNDO (tests/power_cut_undo).
need_binaries() {
    local name path
    [ -n "$E2E_BUILD" ] || fail "no BUILD_DIR given: usage: bash $0 SOURCE_DIR BUILD_DIR"
    for name in "$@"; do
        case $name in
        TOURNEY) path=hub/tourney ;;
        HUB) path=hub/tourney-hub ;;
        TABLE) path=table-client/tourney-table ;;
        WIRETOOL) path=table-client/wiretool ;;
        FAULT_FS) path=tests/fault_fs.so ;;
        POWER_CUT) path=tests/power_cut.so ;;
        POWER_CUT_UNDO) path=tests/power_cut_undo ;;
        *) fail "need_binaries: no program called $name" ;;
        esac
        [ -f "$E2E_BUILD/$path" ] && [ -x "$E2E_BUILD/$path" ] ||
            fail "$E2E_BUILD/$path not built (cmake --build $E2E_BUILD)"
        printf -v "$name" '%s' "$E2E_BUILD/$path"
    done
}

# e2e_done: the test passed.
e2e_done() {
    ok "$E2E_NAME passed"
    exit 0
}

# wait_until SECONDS COMMAND...: polls COMMAND every 50 ms; status 1 on
# timeout.
wait_until() {
    local secs=$1 i
    shift
    for ((i = 0; i < secs * 20; i++)); do
        "$@" && return 0
        sleep 0.05
    done
    "$@"
}

# wait_for SECONDS 'SHELL CONDITION': like wait_until, but the condition
# is a string evaluated afresh each time (for "$(count)" -gt N tests).
wait_for() {
    local secs=$1 i
    for ((i = 0; i < secs * 20; i++)); do
        eval "$2" && return 0
        sleep 0.05
    done
    eval "$2"
}

# --- brokers ---------------------------------------------------------------

# tcp_open PORT: true when something accepts on 127.0.0.1:PORT.
tcp_open() {
    (exec 3<>"/dev/tcp/$BROKER_HOST/$1") 2>/dev/null
}

# conf_ports CONF: the TCP ports mosquitto's CONF listens on.
conf_ports() {
    awk '$1 == "listener" && $2 > 0 { print $2 }' "$1"
}

# launch CONF LOG PIDVAR: runs mosquitto on CONF in the background and
# waits until the socket listening on each port of CONF is its own.
# Status 0 when up, 1 when one of its ports was taken (mosquitto exited
# saying so, or something else listens there); fails the test otherwise.
launch() {
    local conf=$1 log=$2 pidvar=$3 pid i p up ports
    ports=$(conf_ports "$conf")
    [ -n "$ports" ] || fail "launch: $conf has no TCP listener"
    "$MOSQUITTO" -c "$conf" >>"$log" 2>&1 </dev/null &
    pid=$!
    printf -v "$pidvar" '%s' "$pid"
    for ((i = 0; i < 200; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null
            printf -v "$pidvar" '%s' ""
            if grep -q -i -E "address already in use|unable to create websockets listener|unable to start any listening" "$log"; then
                return 1
            fi
            for p in $ports; do
                ! port_listening "$p" || return 1
            done
            fail "mosquitto -c $conf exited at start (log: $log)"
        fi
        up=1
        for p in $ports; do
            port_listener_is "$p" "$pid" || { up=0; break; }
        done
        [ $up = 0 ] || return 0
        sleep 0.05
    done
    fail "mosquitto -c $conf did not listen on its ports (${ports//$'\n'/ }) within 10 s"
}

# launch_feed: the feed broker (feed.conf, FEED_PID) until its local
# socket is bound; then, unless it runs already, its WebSocket front
# (feed-front.js, or FRONT_JS when set, on feed-front.json, FRONT_PID; as
# the user FRONT_AS when set, root only; its npm packages from
# $TNY_FRONT_NODE_PATH when set, e.g. /usr/share/nodejs for Debian's
# node-ws and node-serve-static as the hub package runs it, else
# deploy/overlays/node_modules; run by $TNY_FRONT_NODE when set, else the
# PATH's node) until the socket listening on
# $BROKER_WS_PORT is the front's own (as launch does for mosquitto).
# Status 0 when up, 1 when the front's port was taken (the front said so,
# or something else listens there); fails the test otherwise.
launch_feed() {
    local sock=$BROKER_DIR/run/feed.sock i
    rm -f -- "$sock"
    "$MOSQUITTO" -c "$BROKER_DIR/feed.conf" >>"$FEED_LOG" 2>&1 </dev/null &
    FEED_PID=$!
    wait_until 10 test -S "$sock" || fail "the feed broker did not bind $sock within 10 s (log: $FEED_LOG)"
    [ -z "$FRONT_PID" ] || return 0
    local as=() np=${TNY_FRONT_NODE_PATH:-$E2E_SRC/deploy/overlays/node_modules}
    [ -f "$np/ws/package.json" ] ||
        fail "the feed's front needs the npm packages ws and serve-static in $np: run deploy/overlays/install.sh"
    [ -z "$FRONT_AS" ] || as=(setpriv --reuid="$FRONT_AS" --regid="$FRONT_AS" --init-groups --)
    # (setpriv execs node: FRONT_PID is node's own id)
    NODE_PATH=$np "${as[@]}" "${TNY_FRONT_NODE:-node}" "${FRONT_JS:-$E2E_SRC/deploy/broker/feed-front.js}" \
        "$BROKER_DIR/feed-front.json" >>"$FRONT_LOG" 2>&1 </dev/null &
    FRONT_PID=$!
    for ((i = 0; i < 200; i++)); do
        if ! kill -0 "$FRONT_PID" 2>/dev/null; then
            wait "$FRONT_PID" 2>/dev/null
            FRONT_PID=
            grep -q -i "address already in use" "$FRONT_LOG" && return 1
            ! port_listening "$BROKER_WS_PORT" || return 1
            fail "feed-front.js exited at start (log: $FRONT_LOG)"
        fi
        port_listener_is "$BROKER_WS_PORT" "$FRONT_PID" && return 0
        sleep 0.05
    done
    fail "feed-front.js did not listen on $BROKER_WS_PORT within 10 s (log: $FRONT_LOG)"
}

# bridge_subacks: how many times the feed broker's bridge subscribed.
bridge_subacks() {
    grep -c 'Received SUBACK from feed-bridge-' "$FEED_LOG" 2>/dev/null
}

# wait_bridge N: until the bridge has subscribed more than N times.
wait_bridge() {
    wait_for 15 "[ \"\$(bridge_subacks)\" -gt $1 ]" ||
        fail "the feed broker's bridge did not (re)subscribe within 15 s"
}

# start_broker [gen-config.sh options...]: a fresh config for this test
# (hub "hub", organisers o1,o2, monitors watch,watch2, 3 tables unless the
# options say otherwise), the venue broker on $BROKER_PORT and, unless
# --no-ws is given, the feed broker with its bridge subscribed and its
# WebSocket front on $BROKER_WS_PORT.  A port option given as "auto"
# (--table-ws-port auto, --tls-port auto) is drawn with the others, into
# BROKER_TABLE_WS_PORT, BROKER_TLS_PORT (the option's name).  Every port
# is reserved (ports.sh) and owned by the process started on it (the
# front's by the front); a port taken by another program: all are drawn
# again.  Logs: $BROKER_LOG, $FEED_LOG, $FRONT_LOG.
start_broker() {
    [ -z "$BROKER_PID" ] || fail "start_broker: a broker is already running"
    BROKER_DIR=$E2E_TMP/broker
    BROKER_LOG=$E2E_TMP/broker.log
    FEED_LOG=$E2E_TMP/feed.log
    FRONT_LOG=$E2E_TMP/front.log
    local want_ws=1 a attempt prev='' var drawn args
    local autos=() # "INDEX VAR" of each "--X-port auto" argument
    args=("$@")
    for ((a = 0; a < ${#args[@]}; a++)); do
        [ "${args[a]}" != --no-ws ] || want_ws=0
        if [ "${args[a]}" = auto ] && [[ "$prev" == --*-port ]]; then
            var=${prev#--}
            var=BROKER_${var//-/_}
            autos+=("$a ${var^^}")
        fi
        prev=${args[a]}
    done
    for ((attempt = 1; attempt <= 20; attempt++)); do
        drawn=(BROKER_PORT BROKER_CONSOLE_PORT)
        BROKER_WS_PORT=
        BROKER_BRIDGE_PORT=
        # BROKER_BRIDGE_PORT: the venue broker's loopback listener for the
        # feed bridge.
        [ $want_ws = 0 ] || drawn+=(BROKER_WS_PORT BROKER_BRIDGE_PORT)
        for a in "${autos[@]}"; do
            drawn+=("${a#* }")
        done
        port_reserve "${drawn[@]}"
        for a in "${autos[@]}"; do
            var=${a#* }
            args[${a%% *}]=${!var}
        done
        # shellcheck disable=SC2054 # (commas are gen-config.sh's lists)
        BROKER_GEN_ARGS=(--organisers o1,o2 --monitors watch,watch2 --tables 3
            "${args[@]}" --bind "$BROKER_HOST" --port "$BROKER_PORT"
            --console-port "$BROKER_CONSOLE_PORT"
            --run-as "$(id -un)" --log-debug)
        [ -z "$BROKER_WS_PORT" ] ||
            BROKER_GEN_ARGS+=(--ws-bind "$BROKER_HOST" --ws-port "$BROKER_WS_PORT"
                --bridge-port "$BROKER_BRIDGE_PORT")
        bash "$E2E_SRC/deploy/broker/gen-config.sh" "${BROKER_GEN_ARGS[@]}" \
            "$BROKER_DIR" 2>"$E2E_TMP/gen-config.err" ||
            fail "gen-config.sh: $(cat "$E2E_TMP/gen-config.err")"
        : >"$BROKER_LOG"
        : >"$FEED_LOG"
        : >"$FRONT_LOG"
        if launch "$BROKER_DIR/mosquitto.conf" "$BROKER_LOG" BROKER_PID; then
            if [ $want_ws = 0 ] || launch_feed; then
                [ $want_ws = 0 ] || wait_bridge 0
                ok "brokers up: venue $BROKER_HOST:$BROKER_PORT (consoles: $BROKER_CONSOLE_PORT)${BROKER_WS_PORT:+, feed WebSocket front $BROKER_WS_PORT}"
                return 0
            fi
            [ -z "$FEED_PID" ] || kill_wait "$FEED_PID"
            FEED_PID=
            kill_wait "$BROKER_PID"
            BROKER_PID=
        fi
        # A port was taken by a program outside the reservation: others.
        for var in "${drawn[@]}"; do
            port_release "${!var}"
        done
    done
    fail "start_broker: no free ports in 20 attempts"
}

# stop_broker: stops the venue broker (TERM, then wait).  Retained
# messages are gone with it (no persistence); the feed broker keeps its
# copies and its bridge keeps trying to reconnect.
stop_broker() {
    [ -n "$BROKER_PID" ] || fail "stop_broker: the venue broker is not running"
    kill_wait "$BROKER_PID"
    BROKER_PID=
}

# restart_broker: the venue broker again, same config and port (retries
# for up to 10 s while the port is unavailable); waits for the feed
# bridge to subscribe again.
restart_broker() {
    local i n=0
    [ -z "$BROKER_PID" ] || stop_broker
    [ -z "$FEED_PID" ] || n=$(bridge_subacks)
    for ((i = 0; i < 50; i++)); do
        if launch "$BROKER_DIR/mosquitto.conf" "$BROKER_LOG" BROKER_PID; then
            [ -z "$FEED_PID" ] || wait_bridge "$n"
            return 0
        fi
        sleep 0.2
    done
    fail "restart_broker: port $BROKER_PORT stays taken"
}

# restart_feed [KILL]: the feed broker again (SIGKILL first when KILL is
# given, as after a power loss); waits for its bridge to subscribe.  The
# front keeps running: the phones it carried lose their connection to
# the broker, and so their WebSocket, and reconnect.
restart_feed() {
    local n
    [ -n "$FEED_PID" ] || fail "restart_feed: the feed broker is not running"
    n=$(bridge_subacks)
    if [ $# -gt 0 ]; then
        kill -KILL "$FEED_PID" 2>/dev/null
        wait "$FEED_PID" 2>/dev/null
    else
        kill_wait "$FEED_PID"
    fi
    FEED_PID=
    launch_feed || fail "restart_feed: port $BROKER_WS_PORT is taken"
    wait_bridge "$n"
}

# cred LOGIN: prints the login's password from the generated credentials.
cred() {
    local name pw
    while read -r name pw; do
        if [ "$name" = "$1" ]; then
            printf '%s\n' "$pw"
            return 0
        fi
    done < <(cat "$BROKER_DIR/users.cred" "$BROKER_DIR/devices.cred")
    fail "cred: no login \"$1\""
}

# auth_args LOGIN: -u/-P for a login; "-" is anonymous; LOGIN:PASSWORD
# forces a password.
auth_args() {
    AUTH=()
    case $1 in
    -) ;;
    *:*) AUTH=(-u "${1%%:*}" -P "${1#*:}") ;;
    *) AUTH=(-u "$1" -P "$(cred "$1")") ;;
    esac
}

# --- MQTT clients (mosquitto_pub / mosquitto_sub, MQTT v5) -----------------

# e2e_pub LOGIN TOPIC MESSAGE [mosquitto_pub options...]: QoS 1, MQTT v5,
# at most 10 s.  Returns mosquitto_pub's status; its stdout and stderr are
# in $E2E_TMP/pub.out and $E2E_TMP/pub.err.
e2e_pub() {
    local login=$1 topic=$2 msg=$3
    shift 3
    auth_args "$login"
    timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 \
        -q 1 "${AUTH[@]}" -t "$topic" -m "$msg" "$@" \
        >"$E2E_TMP/pub.out" 2>"$E2E_TMP/pub.err"
}

# e2e_sub_start NAME LOGIN TOPIC... [-- mosquitto_sub options...]: a
# background subscriber (QoS 1, v5, at most 60 s) that appends one line
# "MSG <retain 0|1> <topic> <payload>" per message to $E2E_TMP/NAME.out;
# returns when the SUBACK arrived.
e2e_sub_start() {
    local name=$1 login=$2 t
    shift 2
    local topics=() extra=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        topics+=(-t "$1")
        shift
    done
    [ $# -eq 0 ] || { shift; extra=("$@"); }
    auth_args "$login"
    stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
        "${AUTH[@]}" "${topics[@]}" -W 60 -d -F 'MSG %r %t %p' "${extra[@]}" \
        >"$E2E_TMP/$name.out" 2>"$E2E_TMP/$name.err" </dev/null &
    t=$!
    e2e_track "$t"
    printf '%s\n' "$t" >"$E2E_TMP/$name.pid"
    wait_until 10 grep -q '^Subscribed (mid' "$E2E_TMP/$name.out" ||
        fail "subscriber $name ($login): no SUBACK within 10 s: $(cat "$E2E_TMP/$name.err")"
}

# e2e_sub_stop NAME
e2e_sub_stop() {
    kill_wait "$(cat "$E2E_TMP/$1.pid")"
}

# e2e_messages NAME: the messages received so far, "<retain> <topic>
# <payload>" per line.
e2e_messages() {
    sed -n 's/^MSG //p' "$E2E_TMP/$1.out"
}

# e2e_has NAME TOPIC PAYLOAD: true when NAME received exactly this message.
e2e_has() {
    e2e_messages "$1" | grep -q -x -F -e "0 $2 $3" -e "1 $2 $3"
}

# e2e_expect NAME TOPIC PAYLOAD [SECONDS]: waits for the message or fails.
e2e_expect() {
    wait_until "${4:-10}" e2e_has "$1" "$2" "$3" ||
        fail "$1 did not receive \"$3\" on $2; it got: $(e2e_messages "$1" | tr '\n' '|')"
}

# --- raw MQTT v5 over WebSocket, in bash ---------------------------------
# One connection at a time on fd $WS_FD.  Client frames use the all-zero
# masking key (valid per RFC 6455, and the payload stays as is).

WS_FD=
WS_BUF=
WS_RC=
WS_TYPE=
WS_BODY=
WS_TOPIC=
WS_PAYLOAD=
WS_RETAIN=
WS_SEEN=

hex_of() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
hex_u16() { printf '%04x' "$1"; }
hex_str() { printf '%04x%s' "${#1}" "$(hex_of "$1")"; }
text_of() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"; }

# hex_varint N: MQTT variable byte integer.
hex_varint() {
    local n=$1 b out=
    while :; do
        b=$((n % 128))
        n=$((n / 128))
        [ "$n" -eq 0 ] || b=$((b + 128))
        out+=$(printf '%02x' "$b")
        [ "$n" -gt 0 ] || break
    done
    printf '%s' "$out"
}

# ws_read N: the next N bytes as hex (at most 5 s), or status 1.
ws_read() {
    local hex
    hex=$(timeout 5 dd bs=1 count="$1" status=none <&"$WS_FD" | od -An -v -tx1 | tr -d ' \n')
    [ ${#hex} -eq $(($1 * 2)) ] || return 1
    printf '%s' "$hex"
}

# ws_open PORT [HEADER...]: TCP connect and WebSocket upgrade with the
# "mqtt" subprotocol; fails unless the answer is 101.
ws_open() {
    local port=$1 line status
    shift
    exec {WS_FD}<>"/dev/tcp/$BROKER_HOST/$port" || fail "ws_open: cannot connect to port $port"
    {
        printf 'GET /mqtt HTTP/1.1\r\nHost: %s:%s\r\n' "$BROKER_HOST" "$port"
        printf 'Upgrade: websocket\r\nConnection: Upgrade\r\n'
        printf 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
        printf 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n'
    } >&"$WS_FD"
    IFS= read -r -t 5 -u "$WS_FD" status || fail "ws_open: no HTTP answer"
    while IFS= read -r -t 5 -u "$WS_FD" line; do
        [ "$line" != $'\r' ] && [ -n "$line" ] || break
    done
    case $status in
    'HTTP/1.1 101 '*) ;;
    *) fail "ws_open: upgrade refused: ${status%$'\r'}" ;;
    esac
    WS_BUF=
}

ws_close() {
    [ -z "$WS_FD" ] || exec {WS_FD}>&-
    WS_FD=
}

# ws_send HEX: one binary frame.
ws_send() {
    local hex=$1 len=$((${#1} / 2)) head
    if [ "$len" -lt 126 ]; then
        head=82$(printf '%02x' $((128 + len)))
    else
        head=82fe$(hex_u16 "$len")
    fi
    text_of "${head}00000000$hex" >&"$WS_FD"
}

# ws_send_packet TYPEBYTE BODYHEX: one MQTT packet in one frame.
ws_send_packet() {
    ws_send "$1$(hex_varint $((${#2} / 2)))$2"
}

# ws_fill N: at least N bytes (hex: 2N digits) in WS_BUF, reading frames.
ws_fill() {
    local want=$(($1 * 2)) h op len
    while [ ${#WS_BUF} -lt "$want" ]; do
        h=$(ws_read 2) || return 1
        op=$((16#${h:0:2} & 15))
        len=$((16#${h:2:2} & 127))
        if [ "$len" -eq 126 ]; then
            h=$(ws_read 2) || return 1
            len=$((16#$h))
        elif [ "$len" -eq 127 ]; then
            return 1
        fi
        [ "$op" -ne 8 ] || return 1 # close frame
        if [ "$len" -gt 0 ]; then
            h=$(ws_read "$len") || return 1
        else
            h=
        fi
        [ "$op" -eq 9 ] && continue # ping: no data for us
        WS_BUF+=$h
    done
}

# ws_next: the next MQTT packet in WS_TYPE (first byte, hex) and WS_BODY
# (hex); status 1 on timeout or close.  A PUBLISH also sets WS_TOPIC,
# WS_PAYLOAD and WS_RETAIN (0/1), and is acknowledged when it has QoS 1.
ws_next() {
    local i=1 mult=1 rl=0 b qos pos tlen
    ws_fill 2 || return 1
    while :; do
        ws_fill $((i + 1)) || return 1
        b=$((16#${WS_BUF:$((i * 2)):2}))
        rl=$((rl + (b & 127) * mult))
        mult=$((mult * 128))
        i=$((i + 1))
        [ $((b & 128)) -ne 0 ] || break
    done
    ws_fill $((i + rl)) || return 1
    WS_TYPE=${WS_BUF:0:2}
    WS_BODY=${WS_BUF:$((i * 2)):$((rl * 2))}
    WS_BUF=${WS_BUF:$(((i + rl) * 2))}
    if [ $((16#$WS_TYPE >> 4)) -eq 3 ]; then
        WS_RETAIN=$((16#$WS_TYPE & 1))
        qos=$(((16#$WS_TYPE >> 1) & 3))
        tlen=$((16#${WS_BODY:0:4}))
        WS_TOPIC=$(text_of "${WS_BODY:4:$((tlen * 2))}")
        pos=$((4 + tlen * 2))
        local pid=
        if [ "$qos" -gt 0 ]; then
            pid=${WS_BODY:$pos:4}
            pos=$((pos + 4))
        fi
        # properties: a variable byte integer length, then skipped
        local plen=0 pm=1
        while :; do
            b=$((16#${WS_BODY:$pos:2}))
            pos=$((pos + 2))
            plen=$((plen + (b & 127) * pm))
            pm=$((pm * 128))
            [ $((b & 128)) -ne 0 ] || break
        done
        pos=$((pos + plen * 2))
        WS_PAYLOAD=$(text_of "${WS_BODY:$pos}")
        [ -z "$pid" ] || ws_send_packet 40 "${pid}00"
    fi
    return 0
}

# ws_expect TYPE_HIGH_NIBBLE WHAT: next packet must be of this type.
ws_expect() {
    ws_next || fail "WebSocket: no $2 (timeout or connection closed)"
    [ $((16#$WS_TYPE >> 4)) -eq "$1" ] || fail "WebSocket: wanted $2, got packet 0x$WS_TYPE"
}

# ws_mqtt_connect CLIENT_ID [USER [PASSWORD]]: CONNECT (v5, clean start,
# keep-alive 60 s); WS_RC = CONNACK reason code (decimal).  A refusal may
# also close the connection: WS_RC is then "closed".
ws_mqtt_connect() {
    local flags=2 payload
    payload=$(hex_str "$1")
    if [ $# -ge 2 ]; then
        flags=$((flags | 128))
        payload+=$(hex_str "$2")
    fi
    if [ $# -ge 3 ]; then
        flags=$((flags | 64))
        payload+=$(hex_str "$3")
    fi
    ws_send_packet 10 "00044d51545405$(printf '%02x' "$flags")003c00$payload"
    if ! ws_next; then
        WS_RC=closed
        return 0
    fi
    [ $((16#$WS_TYPE >> 4)) -eq 2 ] || fail "WebSocket: wanted CONNACK, got 0x$WS_TYPE"
    WS_RC=$((16#${WS_BODY:2:2}))
}

# ws_mqtt_subscribe PACKET_ID TOPIC: QoS 1; WS_RC = SUBACK reason code.
ws_mqtt_subscribe() {
    ws_send_packet 82 "$(hex_u16 "$1")00$(hex_str "$2")01"
    ws_expect 9 SUBACK
    WS_RC=$((16#${WS_BODY:6:2}))
}

# ws_mqtt_publish PACKET_ID TOPIC PAYLOAD: QoS 1; WS_RC = PUBACK reason
# code (0 when the PUBACK has none).  Messages that arrive meanwhile are
# dropped.
ws_mqtt_publish() {
    ws_send_packet 32 "$(hex_str "$2")$(hex_u16 "$1")00$(hex_of "$3")"
    while :; do
        ws_next || fail "WebSocket: no PUBACK"
        [ $((16#$WS_TYPE >> 4)) -eq 3 ] || break
    done
    [ $((16#$WS_TYPE >> 4)) -eq 4 ] || fail "WebSocket: wanted PUBACK, got 0x$WS_TYPE"
    if [ ${#WS_BODY} -ge 6 ]; then
        WS_RC=$((16#${WS_BODY:4:2}))
    else
        WS_RC=0
    fi
}

# ws_mqtt_ping: PINGREQ and wait for PINGRESP, returning the PUBLISH
# packets that came before it in $WS_SEEN ("<topic> <payload>" lines):
# everything the broker had queued for us before the ping is now here.
ws_mqtt_ping() {
    WS_SEEN=
    ws_send c000
    while :; do
        ws_next || fail "WebSocket: no PINGRESP"
        case $((16#$WS_TYPE >> 4)) in
        13) return 0 ;;
        3) WS_SEEN+="$WS_TOPIC $WS_PAYLOAD"$'\n' ;;
        *) fail "WebSocket: unexpected packet 0x$WS_TYPE" ;;
        esac
    done
}

# need_browser: what a test of the pages in a real browser needs; skips
# (exit 77) without node, chromium ($CHROMIUM, default /usr/bin/chromium)
# or deploy/overlays/install.sh's npm packages (deploy/test.sh installs
# all three, so CI does not skip).  Sets OVL (deploy/overlays), CHROMIUM.
need_browser() {
    OVL=$E2E_SRC/deploy/overlays
    CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
    local why=
    if ! command -v node >/dev/null; then
        why="no node (Debian packages nodejs npm; deploy/install-deps.sh)"
    elif [ ! -x "$CHROMIUM" ]; then
        why="no $CHROMIUM (Debian package chromium; deploy/install-deps.sh)"
    elif [ ! -f "$OVL/node_modules/playwright-core/package.json" ]; then
        why="no $OVL/node_modules/playwright-core: run deploy/overlays/install.sh"
    fi
    if [ -n "$why" ]; then
        echo "SKIP: $E2E_NAME: $why"
        exit 77
    fi
}

# play_setup [--tables N]: the preamble of the play tests (a phone is a
# table, issue 20): after e2e_init, need_browser, and fails without
# deploy/overlays/install.sh's vendor files; sources headless.sh; need_binaries TOURNEY HUB
# TABLE; copies the pages as the venue serves them into $WWW with this
# build's result schema (install.sh may have run before the build); starts
# the venue broker (N table devices, default 0; organiser o1) with the
# table-page listener on $TWS serving $WWW (checked: the listener is up and
# serves play.html; $BASE is its http:// address); sources live_hub.sh and
# starts the hub on a fresh database with no feed, provisioning sign-in
# codes as play-admin through that listener (checked: connected; both
# play_broker_hub).  Sets OVL, CHROMIUM, WWW, TWS, BASE.
play_setup() {
    local n_tables=0 f
    while [ $# -gt 0 ]; do
        case $1 in
        --tables) n_tables=$2; shift 2 ;;
        *) fail "play_setup: unknown option $1" ;;
        esac
    done
    need_browser
    for f in mqtt.min.js protobuf.min.js tourney-proto.js; do
        [ -s "$OVL/vendor/$f" ] || fail "deploy/overlays/install.sh did not finish: no vendor/$f"
    done
    source "$E2E_SRC/tests/e2e/headless.sh"
    need_binaries TOURNEY HUB TABLE
    WWW=$E2E_TMP/www
    mkdir -p "$WWW"
    cp "$OVL"/*.html "$OVL"/*.js "$OVL"/*.css "$WWW"/
    cp -r "$OVL/vendor" "$OVL/locale" "$WWW"/
    "$TOURNEY" result-schema --js >"$WWW/vendor/result-schema.js" || fail "tourney result-schema --js failed"

    play_broker_hub --tables "$n_tables"
}

# play_broker_hub [--tables N] [--no-ws] [--wait S]: the part of
# play_setup bench/bench_phones.sh shares (after e2e_init and
# need_binaries TOURNEY HUB TABLE): the venue broker (N table devices, default 0; organiser
# o1; --no-ws: no table WebSocket listener) with the table-page listener
# on $TWS serving $WWW (made when missing; checked: the listener is up,
# and serves play.html when $WWW has it: $BASE is its http:// address);
# sources live_hub.sh and starts the hub on a fresh database with no feed,
# provisioning sign-in codes as play-admin through that listener
# (checked: online and connected within S seconds, default 20).  Sets
# WWW, TWS, BASE.
play_broker_hub() {
    local n_tables=0 no_ws='' wait_s=20
    while [ $# -gt 0 ]; do
        case $1 in
        --tables) n_tables=$2; shift 2 ;;
        --no-ws) no_ws=--no-ws; shift ;;
        --wait) wait_s=$2; shift 2 ;;
        *) fail "play_broker_hub: unknown option $1" ;;
        esac
    done
    WWW=${WWW:-$E2E_TMP/www}
    mkdir -p "$WWW"
    start_broker $no_ws --tables "$n_tables" --organisers o1 --table-ws-port auto --http-dir "$WWW"
    TWS=$BROKER_TABLE_WS_PORT
    grep -q "Opening websockets listen socket on port $TWS" "$BROKER_LOG" ||
        fail "the table-page listener is not up: $(tail -n 5 "$BROKER_LOG")"
    BASE=http://$BROKER_HOST:$TWS
    if [ -f "$WWW/play.html" ]; then
        curl -fsS "$BASE/play.html" | grep -q 'TourneyPlay.start' ||
            fail "the table-page listener does not serve play.html ($BASE/play.html)"
        ok "table-page listener on $TWS (dynamic security plugin) serves play.html"
    fi

    source "$E2E_SRC/tests/e2e/live_hub.sh"
    cred play-admin >"$E2E_TMP/play.pw"
    live_hub_config 'feed = false' "play_broker_uri = \"ws://$BROKER_HOST:$TWS\"" \
        "play_password_file = \"$E2E_TMP/play.pw\""
    hub_launch
    live 0 wait-hub --timeout "$wait_s"
    wait_for "$wait_s" "grep -q 'codes: table-page listener connected' '$E2E_TMP/hub.log'" ||
        fail "the hub did not connect to the table-page listener: $(tail -n 5 "$E2E_TMP/hub.log")"
    ok "hub online, connected as play-admin to the table-page listener"
}
