#!/usr/bin/env bash
# deploy/run.sh - the README's first command: installs what Tourney needs,
# builds build/, and runs the live system on this machine for a demo event:
# a venue broker (mosquitto, config from deploy/broker/gen-config.sh,
# 127.0.0.1 on a free port), the public feed (its mosquitto, bridged, and
# its WebSocket front deploy/broker/feed-front.js serving the hall screen
# and player page on a free port; when deploy/overlays/install.sh has run,
# which the build step does), tourney-hub on a fresh database, N simulated
# table devices (tourney-table --simulate), and `tourney live` commands
# driving the event round by round (pair, publish, start the clock, wait
# for every table to report, close) until it is complete, printing each
# round's pairings, results and standings, the last round's standings once,
# as the final standings.
# `--offline` runs the old offline `tourney demo` instead (no broker).
#
# It does not touch the machine's own mosquitto or /etc, and keeps nothing:
# everything lives in one runtime dir (mktemp under $TMPDIR or /tmp).
# Invariants: every process it starts is killed by pid on any exit (normal
# end, error, Ctrl-C, TERM) and the runtime dir is removed (kept with
# --keep); every wait is bounded; errors are one line "run.sh: ..." on
# stderr with exit status 1 (2 for usage).  Works as root and as a normal
# user (sudo is used by install-deps.sh for apt only).
set -euo pipefail
# The person's locale: the dashboard and --play's screens draw names in it
# (UTF-8 names as entered; ASCII stand-ins in a C locale): the user's when
# it is a UTF-8 locale this machine has, else C.UTF-8 (built into glibc),
# so that a UTF-8 terminal shows "Bartłomiej Kovács", not "Bartlomiej
# Kovacs".  The script itself and what it prints run in C.UTF-8 (C's
# collation and ranges, UTF-8 text).
user_locale=${LC_ALL:-${LC_CTYPE:-${LANG:-C}}}
case $user_locale in
*[Uu][Tt][Ff]-8 | *[Uu][Tt][Ff]8 | *[Uu][Tt][Ff]-8@* | *[Uu][Tt][Ff]8@*)
    [ "$(LC_ALL=$user_locale locale charmap 2>/dev/null)" = UTF-8 ] ||
        user_locale=C.UTF-8 ;;
*) user_locale=C.UTF-8 ;;
esac
export LC_ALL=C.UTF-8
prog=run.sh
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() {
    cat <<'EOF'
usage: deploy/run.sh [--format NAME|all] [--players N] [--tables N] [--seed S]
                     [--delay MS|MIN-MAX] [--port P] [--console|--print|--play]
                     [--keep]
                     [--no-build] [--build-dir DIR]
       deploy/run.sh --offline [tourney demo options: --format NAME --players N
                     --seed S --out FILE --quiet]
Installs the packages, builds build/, starts mosquitto, the public feed
(hall screen, phones: its broker and WebSocket front, when
deploy/overlays/install.sh has run; the build step runs it), tourney-hub
and N simulated tables on 127.0.0.1, and plays a demo event of each format (or
NAME: neuroshima-hex, tantrix, agricola, got-lcg2, catan) through the hub
with `tourney live`.  On a terminal the organiser dashboard (`tourney live
console`) shows the event playing itself; otherwise (or with --print) the
pairings, results and standings are printed round by round.
  --players N   players per event (default: 13, 16 for agricola, 22 for catan)
  --tables N    simulated table devices (default: enough for every table)
  --seed S      event seed (default 2026)
  --delay D     simulated game length in ms (default 1500-4000 with the
                dashboard, 100-600 when printing)
  --port P      broker port (default: a free one)
  --console     the dashboard (the default on a terminal)
  --print       print round by round instead of the dashboard
  --play        you sit at table 1: tmux with the dashboard on the left and
                table-001's full-screen display on the right (enter its
                results with the keys shown); the other tables play alone
  --keep        keep the runtime dir (logs, database) and print its path
  --no-build    skip install-deps.sh and the build (use DIR's binaries)
  --build-dir DIR  build directory (default build)
  --offline     the offline demo, no broker or hub (other options go to
                `tourney demo`)
Ctrl-C stops everything it started.
EOF
}

die() {
    echo "$prog: $*" >&2
    exit 1
}
usage_err() {
    echo "$prog: $* (see --help)" >&2
    exit 2
}

# --- options -----------------------------------------------------------------
all_formats=(neuroshima-hex tantrix agricola got-lcg2 catan)
build_dir=build
do_build=1
offline=0
format=all
players=
tables=
seed=2026
delay=
port=
console=auto
play_table=0
keep=0
demo_args=()
args=("$@")
# --offline, --no-build and --build-dir are found anywhere; with --offline
# every other argument goes to `tourney demo`.
for ((i = 0; i < ${#args[@]}; i++)); do
    [ "${args[$i]}" != --offline ] || offline=1
done
while [ $# -gt 0 ]; do
    case $1 in
    --offline) shift ;;
    --no-build) do_build=0; shift ;;
    --build-dir)
        [ $# -ge 2 ] || usage_err "--build-dir needs a value"
        build_dir=$2; shift 2 ;;
    --build-dir=*) build_dir=${1#*=}; shift ;;
    -h | --help)
        if [ $offline = 1 ]; then demo_args+=("$1"); shift; else usage; exit 0; fi ;;
    *)
        if [ $offline = 1 ]; then
            demo_args+=("$1"); shift; continue
        fi
        case $1 in
        --*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
        esac
        case $1 in
        --format | --players | --tables | --seed | --delay | --port)
            [ $# -ge 2 ] || usage_err "$1 needs a value"
            case $1 in
            --format) format=$2 ;;
            --players) players=$2 ;;
            --tables) tables=$2 ;;
            --seed) seed=$2 ;;
            --delay) delay=$2 ;;
            --port) port=$2 ;;
            esac
            shift 2 ;;
        --console) console=1; shift ;;
        --print) console=0; shift ;;
        --play) console=1; play_table=1; shift ;;
        --keep) keep=1; shift ;;
        *) usage_err "unknown option \"$1\"" ;;
        esac
        ;;
    esac
done

uint_in() { # NAME VALUE MIN MAX
    [[ $2 =~ ^[0-9]+$ ]] && [ "${#2}" -le 9 ] && [ "$((10#$2))" -ge "$3" ] &&
        [ "$((10#$2))" -le "$4" ] || usage_err "$1: expected $3..$4, got \"$2\""
}
if [ $offline = 0 ]; then
    formats=()
    if [ "$format" = all ]; then
        formats=("${all_formats[@]}")
    else
        for f in "${all_formats[@]}"; do
            [ "$f" != "$format" ] || formats=("$f")
        done
        [ ${#formats[@]} = 1 ] ||
            usage_err "--format: unknown format \"$format\" (${all_formats[*]} or all)"
    fi
    [ -z "$players" ] || { uint_in --players "$players" 2 1000; players=$((10#$players)); }
    [ -z "$tables" ] || { uint_in --tables "$tables" 1 500; tables=$((10#$tables)); }
    [ -z "$port" ] || { uint_in --port "$port" 1 65535; port=$((10#$port)); }
    [[ $seed =~ ^[0-9]{1,18}$ ]] || usage_err "--seed: expected a number, got \"$seed\""
    if [ $play_table = 1 ]; then
        [ -t 0 ] && [ -t 1 ] || usage_err "--play needs a terminal"
        command -v tmux >/dev/null 2>&1 || usage_err "--play needs tmux (deploy/install-deps.sh installs it)"
    fi
    if [ $console = auto ]; then
        if [ -t 1 ] && [ -t 0 ]; then console=1; else console=0; fi
    fi
    # The dashboard is watched by people: games that take a few seconds.
    [ -n "$delay" ] || { [ $console = 1 ] && delay=1500-4000 || delay=100-600; }
    [[ $delay =~ ^[0-9]{1,6}(-[0-9]{1,6})?$ ]] ||
        usage_err "--delay: expected MS or MIN-MAX, got \"$delay\""
fi

# --- install and build -------------------------------------------------------
case $build_dir in /*) ;; *) build_dir=$root/$build_dir ;; esac
if [ $do_build = 1 ]; then
    deploy/install-deps.sh || die "deploy/install-deps.sh failed"
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
        die "cmake configure failed"
    # The programs and their message catalogues (po/, cmake/I18n.cmake):
    # build/locale/, which the programs of build/ read (a Polish event in
    # Polish without TOURNEY_LOCALEDIR).
    targets=(tourney catalogues_tourney)
    [ $offline = 1 ] ||
        targets+=(tourney-hub tourney-table catalogues_tourney-table catalogues_tourney-pages)
    build_log=${TMPDIR:-/tmp}/tourney-run-build.$$.log
    echo "$prog: building ${targets[*]} in $build_dir (a few minutes the first time; log: $build_log)" >&2
    cmake --build "$build_dir" -j"$(nproc 2>/dev/null || echo 2)" \
        --target "${targets[@]}" >"$build_log" 2>&1 || {
        tail -n 30 "$build_log" >&2
        rm -f "$build_log"
        die "build failed (cmake --build $build_dir)"
    }
    rm -f "$build_log"
fi
TOURNEY=$build_dir/hub/tourney
HUB=$build_dir/hub/tourney-hub
TABLE=$build_dir/table-client/tourney-table
[ -x "$TOURNEY" ] || die "$TOURNEY: not built (run without --no-build)"

if [ $offline = 1 ]; then
    exec "$TOURNEY" demo "${demo_args[@]}"
fi

for b in "$HUB" "$TABLE"; do
    [ -x "$b" ] || die "$b: not built (run without --no-build)"
done
# The public feed (hall screen, phones): its front and pages need
# deploy/overlays' npm packages (ws, serve-static, mqtt), which
# install.sh takes from the npm registry once (a few seconds); without
# them, or without node, the demo runs without the feed.
ovl=$root/deploy/overlays
have_ovl() { [ -f "$ovl/node_modules/ws/package.json" ] && [ -f "$ovl/node_modules/serve-static/package.json" ] && [ -f "$ovl/vendor/mqtt.min.js" ]; }
if [ $do_build = 1 ] && ! have_ovl && command -v npm >/dev/null 2>&1; then
    echo "$prog: installing the pages' npm packages (deploy/overlays/install.sh)" >&2
    TOURNEY=$TOURNEY "$ovl/install.sh" >&2 || echo "$prog: deploy/overlays/install.sh failed: no feed" >&2
fi
feed=0
if command -v node >/dev/null 2>&1 && have_ovl; then feed=1; fi
MOSQUITTO=${MOSQUITTO:-/usr/sbin/mosquitto}
for t in "$MOSQUITTO" mosquitto_passwd timeout; do
    command -v "$t" >/dev/null 2>&1 ||
        die "$t: not found (deploy/install-deps.sh installs mosquitto)"
done

# --- runtime dir and cleanup -------------------------------------------------
RUN=$(mktemp -d "${TMPDIR:-/tmp}/tourney-run.XXXXXX") || die "cannot create a runtime dir"
PIDS=()
cleanup() {
    local rc=$? pid i alive rev=()
    trap - EXIT INT TERM HUP
    [ -z "$FG" ] || PIDS+=("$FG")
    [ -z "${PLAY_SESSION:-}" ] || tmux kill-session -t "$PLAY_SESSION" 2>/dev/null || true
    # Newest first (tables, hub, then the broker they talk to); TERM to
    # all, up to 3 s for all of them together, then KILL what is left.
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        rev+=("${PIDS[$i]}")
    done
    for pid in "${rev[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for ((i = 0; i < 60; i++)); do
        alive=0
        for pid in "${rev[@]}"; do
            ! kill -0 "$pid" 2>/dev/null || { alive=1; break; }
        done
        [ $alive = 1 ] || break
        sleep 0.05
    done
    for pid in "${rev[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ $keep = 1 ]; then
        echo "$prog: kept $RUN" >&2
    else
        rm -rf -- "$RUN"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'echo "$prog: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM HUP
# fg COMMAND...: runs it as a waited-for background child, so that INT and
# TERM reach the traps at once instead of after the command (timeout(1)
# takes its child out of the terminal's process group).
FG=
fg() {
    local st=0
    "$@" </dev/null &
    FG=$!
    wait "$FG" || st=$?
    FG=
    return $st
}
track() {
    PIDS+=("$1")
    printf '%s\n' "$1" >>"$RUN/pids"
}
# log_tail FILE: its last lines on one line, for an error message.
log_tail() {
    tail -n "${2:-4}" "$1" 2>/dev/null | tr '\n' '|'
}

# --- players and tables ------------------------------------------------------
default_players() {
    case $1 in
    agricola) echo 16 ;;
    catan) echo 22 ;;
    *) echo 13 ;;
    esac
}
n_dev=0
for f in "${formats[@]}"; do
    n=${players:-$(default_players "$f")}
    [ $(((n + 1) / 2)) -le $n_dev ] || n_dev=$(((n + 1) / 2))
done
[ -z "$tables" ] || n_dev=$tables

# --- broker ------------------------------------------------------------------
HOST=127.0.0.1
random_port() {
    local lo=32768
    if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
        read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
    fi
    [ "$lo" -gt 21000 ] || lo=32768
    echo $((20000 + (RANDOM * 32768 + RANDOM) % (lo - 20000)))
}
tcp_open() {
    (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}
# start_feed WS: the feed broker (feed.conf: its Unix socket, its bridge
# to the venue broker) and its WebSocket front on $HOST:WS; 0 when up, 1
# when WS is taken (both stopped then), dies otherwise.
start_feed() {
    local ws=$1 pid fpid i sock=$RUN/broker/run/feed.sock
    rm -f -- "$sock"
    : >"$RUN/feed.log"
    "$MOSQUITTO" -c "$RUN/broker/feed.conf" >>"$RUN/feed.log" 2>&1 </dev/null &
    pid=$!
    track "$pid"
    for ((i = 0; i < 200; i++)); do
        [ ! -S "$sock" ] || break
        kill -0 "$pid" 2>/dev/null || die "the feed broker exited at start: $(log_tail "$RUN/feed.log")"
        sleep 0.05
    done
    [ -S "$sock" ] || die "the feed broker did not open $sock within 10 s: $(log_tail "$RUN/feed.log")"
    : >"$RUN/front.log"
    NODE_PATH=$ovl/node_modules node deploy/broker/feed-front.js "$RUN/broker/feed-front.json" \
        >>"$RUN/front.log" 2>&1 </dev/null &
    fpid=$!
    track "$fpid"
    for ((i = 0; i < 200; i++)); do
        if ! kill -0 "$fpid" 2>/dev/null; then
            wait "$fpid" 2>/dev/null || true
            if grep -q -i "address already in use" "$RUN/front.log"; then
                kill -TERM "$pid" 2>/dev/null || true
                wait "$pid" 2>/dev/null || true
                return 1
            fi
            die "the feed's front exited at start: $(log_tail "$RUN/front.log")"
        fi
        # (it says so once listening)
        ! grep -q '^listening on ' "$RUN/front.log" || return 0
        sleep 0.05
    done
    die "the feed's front did not listen on $HOST:$ws within 10 s: $(log_tail "$RUN/front.log")"
}
# start_broker PORT [WS BRIDGE]: the venue broker on PORT and, with WS,
# the feed (its bridge from the venue broker's BRIDGE, its front on WS);
# 0 when up, 1 when a port is taken (what it started stopped), dies
# otherwise.
start_broker() {
    local p=$1 pid i ws=${2:-} feed_args=(--no-ws)
    [ -z "$ws" ] || feed_args=(--ws-bind "$HOST" --ws-port "$ws" --bridge-port "$3" --http-dir "$ovl")
    bash deploy/broker/gen-config.sh "${feed_args[@]}" --tables "$n_dev" --organisers demo,console \
        --bind "$HOST" --port "$p" --run-as "$(id -un)" "$RUN/broker" \
        2>"$RUN/gen-config.err" || die "gen-config.sh: $(cat "$RUN/gen-config.err")"
    ! tcp_open "$p" || return 1
    [ -z "$ws" ] || { ! tcp_open "$ws" && ! tcp_open "$3"; } || return 1
    : >"$RUN/broker.log"
    "$MOSQUITTO" -c "$RUN/broker/mosquitto.conf" >>"$RUN/broker.log" 2>&1 </dev/null &
    pid=$!
    for ((i = 0; i < 200; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null || true
            grep -q -i -E "address already in use|unable to start any listening" \
                "$RUN/broker.log" && return 1
            die "mosquitto exited at start: $(log_tail "$RUN/broker.log")"
        fi
        # Up once mosquitto says it runs: it says so only after binding
        # every listener (something else accepting on the port, e.g.
        # another broker that got there first, is not ours).
        if grep -q '^[^ ]* mosquitto version .* running$' "$RUN/broker.log"; then
            track "$pid"
            if [ -n "$ws" ] && ! start_feed "$ws"; then
                kill -TERM "$pid" 2>/dev/null || true
                wait "$pid" 2>/dev/null || true
                return 1
            fi
            BROKER_PORT=$p
            FEED_PORT=$ws
            return 0
        fi
        sleep 0.05
    done
    kill -KILL "$pid" 2>/dev/null || true
    die "mosquitto did not accept connections on $HOST:$p within 10 s: $(log_tail "$RUN/broker.log")"
}
FEED_PORT=
up=0
for ((attempt = 0; attempt < 20; attempt++)); do
    p=${port:-$(random_port)}
    feed_ports=()
    if [ $feed = 1 ]; then
        # the front's port and the venue broker's loopback listener for the
        # feed's bridge
        feed_ports=("$(random_port)" "$(random_port)")
        [ "${feed_ports[0]}" != "$p" ] && [ "${feed_ports[1]}" != "$p" ] &&
            [ "${feed_ports[0]}" != "${feed_ports[1]}" ] || continue
    fi
    if start_broker "$p" "${feed_ports[@]}"; then up=1; break; fi
    [ -z "$port" ] || ! tcp_open "$port" || die "port $port on $HOST is in use (choose another --port, or omit it)"
done
[ $up = 1 ] || die "no free port for the broker in 20 attempts"
cred() { # LOGIN: its password
    awk -v u="$1" '$1 == u { print $2; found = 1 } END { exit !found }' \
        "$RUN/broker/users.cred" "$RUN/broker/devices.cred" ||
        die "no password for \"$1\" in $RUN/broker"
}

# --- hub ---------------------------------------------------------------------
(umask 077; cred hub >"$RUN/hub.pw"; cred demo >"$RUN/demo.pw"; cred console >"$RUN/console.pw")
cat >"$RUN/hub.conf" <<EOF
broker_uri = "tcp://$HOST:$BROKER_PORT"
username = "hub"
password_file = "$RUN/hub.pw"
database = "$RUN/hub.db"
database_sync = false
keepalive_s = 5
EOF
# The hub never makes its database by itself (a wrong path must not start
# an empty hub): create it once.
"$HUB" --config "$RUN/hub.conf" --create >"$RUN/hub.log" 2>&1 ||
    die "tourney-hub --create: $(log_tail "$RUN/hub.log")"
"$HUB" --config "$RUN/hub.conf" >>"$RUN/hub.log" 2>&1 </dev/null &
track $!
HUB_PID=$!
# The console (`tourney live`) reads its settings from here.
export XDG_CONFIG_HOME=$RUN/xdg
mkdir -p "$XDG_CONFIG_HOME/tourney"
unset TOURNEY_PASSWORD
cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
broker = "tcp://$HOST:$BROKER_PORT"
user = demo
password_file = "$RUN/demo.pw"
timeout = 30
EOF

# live ARGS...: `tourney live ARGS` (at most 60 s); output in $RUN/out,
# $RUN/err; dies on failure.
live() {
    local st=0
    fg timeout 60 "$TOURNEY" live "$@" >"$RUN/out" 2>"$RUN/err" </dev/null || st=$?
    [ $st = 0 ] || die "tourney live $*: exit $st: $(log_tail "$RUN/err" 2) hub: $(log_tail "$RUN/hub.log" 3)"
}
kill -0 "$HUB_PID" 2>/dev/null || die "tourney-hub exited at start: $(log_tail "$RUN/hub.log")"
live wait-hub --timeout 20

# --- tables ------------------------------------------------------------------
dev_name() { printf 'table-%03d' "$1"; }
# --play: table-001 is the person's: the display, no simulation; it is
# started in the tmux session below.
human() { [ $play_table = 1 ] && [ "$1" = table-001 ]; }
for ((i = 1; i <= n_dev; i++)); do
    d=$(dev_name "$i")
    (umask 077; cat >"$RUN/$d.conf" <<EOF
device_id = "$d"
mqtt_password = "$(cred "$d")"
broker_uri = "tcp://$HOST:$BROKER_PORT"
outbox = "$RUN/$d.db"
simulate = $(human "$d" && echo false || echo true)
simulate_delay_ms = "$delay"
seed = $((seed + i))
keepalive_s = 5
EOF
    )
    if human "$d"; then
        printf 'display = "tui"\nlog_file = "%s"\n' "$RUN/$d.log" >>"$RUN/$d.conf"
        continue
    fi
    "$TABLE" --config "$RUN/$d.conf" </dev/null >"$RUN/$d.out" 2>"$RUN/$d.err" &
    track $!
done
for ((i = 1; i <= n_dev; i++)); do
    d=$(dev_name "$i")
    ! human "$d" || continue
    for ((w = 0; w < 300; w++)); do
        ! grep -q -x 'net online queued=0' "$RUN/$d.out" || break
        sleep 0.05
    done
    grep -q -x 'net online queued=0' "$RUN/$d.out" ||
        die "$d did not connect within 15 s: $(log_tail "$RUN/$d.err")"
done
echo "== live system up: mosquitto $HOST:$BROKER_PORT, tourney-hub, $n_dev simulated tables (runtime dir $RUN)"
if [ $feed = 1 ]; then
    echo "== the public feed: its front http://$HOST:$FEED_PORT/ (WebSocket and pages: hall.html, player.html), feed broker $RUN/broker/run/feed.sock"
else
    echo "== no public feed (hall screen, phones): deploy/overlays/install.sh has not run, or no node"
fi

# --- the event ---------------------------------------------------------------
# table_done DEVICE EVENT ROUND TABLE: the device showed "state done" after
# its assignment to that table of that round.
table_done() {
    awk -v want="assigned event=$2 round=$3 table=$4 " '
        index($0, want) == 1 { seen = 1; done = 0; next }
        /^assigned / { seen = 0; next }
        seen && $0 == "state done" { done = 1 }
        END { exit !done }' "$RUN/$1.out"
}
# wait_table DEVICE EVENT ROUND TABLE: bounded by the game length (a
# person's table, --play: until the hub has its result).
wait_table() {
    local max=${delay#*-} limit w
    if human "$1"; then
        while :; do
            kill -0 "$HUB_PID" 2>/dev/null || die "tourney-hub died: $(log_tail "$RUN/hub.log")"
            timeout 30 "$TOURNEY" live export "$2" >"$RUN/human.json" 2>/dev/null </dev/null &&
                round_results "$RUN/human.json" "$3" | grep -q "^  table $4 " && return 0
            sleep 1
        done
    fi
    limit=$((max / 1000 * 20 + 600))   # 50 ms polls: 30 s plus 20x the longest game
    for ((w = 0; w < limit; w++)); do
        table_done "$@" && return 0
        kill -0 "$HUB_PID" 2>/dev/null || die "tourney-hub died: $(log_tail "$RUN/hub.log")"
        sleep 0.05
    done
    die "$2 round $3 table $4: $1 did not finish within $((limit / 20)) s: $(log_tail "$RUN/$1.out" 6)"
}

# round_results EXPORT.json R: round R's tables and results, one line each
# ("  table 2   p7,p1,p2,p3   vp:{p7:10,p1:9,p2:8,p3:7}", "  bye p3"), from
# the event file the hub exports (pretty-printed JSON; no jq needed).  The
# layout's blanks go, those inside a value stay ("Steel Police").
round_results() {
    tr -d '\n' <"$1" | sed -E 's/[[:space:]]*([][{}:,])[[:space:]]*/\1/g; s/^[[:space:]]+//' |
        sed 's/"rounds":\[/\n/' | tail -n +2 |
        awk -v r="$2" 'BEGIN { RS = "\\{\"stage\":" } NR == r + 1' |
        grep -E -o '\{"table":[0-9]+,"players":\[[^]]*\],"result":\{([^{}]|\{[^{}]*\})*\}\}|\{"bye":"[^"]*"\}' |
        sed -E 's/^\{"table":([0-9]+),"players":\[([^]]*)\],"result":\{(.*)\}\}$/  table \1   \2   \3/; s/^\{"bye":"([^"]*)"\}$/  bye \1/; s/"//g' ||
        true
}

# Names as a convention hall has them (UTF-8: the screens show them whole).
first_names=(Anna Bartłomiej Csilla Dagny Émile Fruzsina Gustav Hana Igor Jana
    Kristóf Liv Marek Nora Ondřej Petra Quentin Rita Sven Tereza Ulla Viktor
    Wanda Xénia Yusuf Zofia)
last_names=(Nowak Kovács Hansen Novák Berg Szabó Lind Dvořák Wójcik Tóth Ørsted
    Král Mazur Nagy Nguyễn)

# play FORMAT N: one whole event through the hub.
play() {
    local fmt=$1 n=$2 ev r t st last=0
    ev=$(printf '%s' "$fmt" | tr -cd 'a-z0-9')-demo
    echo
    echo "==== $fmt: $n players, live through tourney-hub (event $ev) ===="
    live event create "$ev" --format "$fmt" --title "Demo $fmt" --seed "$seed"
    [ $feed = 0 ] || echo "hall screen: http://$HOST:$FEED_PORT/hall.html?events=$ev  phones: http://$HOST:$FEED_PORT/player.html?events=$ev"
    # Neuroshima Hex players list their 5 armies (NH-10; without them the
    # import and every pairing warn, and NH-11 goes unchecked): 5 of the
    # preset's armies each, in turn.
    local armies=() col='' list
    if [ "$fmt" = neuroshima-hex ]; then
        mapfile -t armies < <("$TOURNEY" format "$fmt" | jq -r '.neuroshima_hex.armies[]')
        col=,armies
    fi
    {
        echo "id,name$col"
        for ((i = 1; i <= n; i++)); do
            list=''
            for ((k = 0; ${#armies[@]} && k < 5; k++)); do
                list+="${list:+;}${armies[$(((i + k) % ${#armies[@]}))]}"
            done
            echo "p$i,${first_names[$(((i - 1) % 26))]} ${last_names[$(((i - 1) % 15))]}${col:+,$list}"
        done
    } >"$RUN/$ev.csv"
    live players import "$ev" "$RUN/$ev.csv"
    for ((i = 1; i <= n_dev; i++)); do
        live device assign "$(dev_name "$i")" "$ev" "$i"
    done
    # The standings after a round are printed once the next round is
    # paired: after the last round they are the final standings, printed
    # once, under that heading (they were printed twice).
    : >"$RUN/standings.out"
    for ((r = 1; r <= 100; r++)); do
        st=0
        fg timeout 60 "$TOURNEY" live round pair "$ev" >"$RUN/pair.out" 2>"$RUN/err" </dev/null || st=$?
        if [ $st = 3 ]; then
            # The stage is over: the next stage, or the end of the event.
            st=0
            fg timeout 60 "$TOURNEY" live stage next "$ev" --confirm >"$RUN/out" 2>"$RUN/err" </dev/null || st=$?
            [ $st = 0 ] || { [ $st = 3 ] && break; } ||
                die "$ev: stage next: exit $st: $(log_tail "$RUN/err" 2)"
            cat "$RUN/standings.out"
            : >"$RUN/standings.out"
            echo "-- $fmt: next stage: $(head -n 1 "$RUN/out")"
            fg timeout 60 "$TOURNEY" live round pair "$ev" >"$RUN/pair.out" 2>"$RUN/err" </dev/null || st=$?
            [ $st = 0 ] || { [ $st = 3 ] && break; } ||
                die "$ev: round pair: exit $st: $(log_tail "$RUN/err" 2)"
        elif [ $st != 0 ]; then
            die "$ev: round pair: exit $st: $(log_tail "$RUN/err" 2)"
        fi
        cat "$RUN/standings.out"
        : >"$RUN/standings.out"
        echo
        echo "--- $fmt round $r: pairings"
        cat "$RUN/pair.out"
        grep '^  table ' "$RUN/pair.out" | awk '{ print $2 }' >"$RUN/tables"
        [ -s "$RUN/tables" ] || die "$ev round $r: no tables in: $(log_tail "$RUN/pair.out")"
        t=$(sort -n "$RUN/tables" | tail -n 1)
        [ "$t" -le "$n_dev" ] ||
            die "$ev round $r needs table $t but only $n_dev simulated tables run (raise --tables)"
        live round publish "$ev"
        live clock start "$ev"
        while read -r t; do
            wait_table "$(dev_name "$t")" "$ev" "$r" "$t"
        done <"$RUN/tables"
        live round close "$ev"
        echo "--- $fmt round $r: results (entered at the tables)"
        live export "$ev"
        round_results "$RUN/out" "$r"
        live standings "$ev"
        { echo "--- $fmt standings after round $r" && cat "$RUN/out"; } >"$RUN/standings.out"
        last=$r
    done
    [ $last -ge 1 ] || die "$ev: no round could be paired: $(log_tail "$RUN/err" 2)"
    echo
    echo "==== $fmt: final standings after $last rounds ===="
    live standings "$ev"
    cat "$RUN/out"
}

play_all() {
    for f in "${formats[@]}"; do
        play "$f" "${players:-$(default_players "$f")}"
    done
}

# --play: one tmux session, the dashboard of the current event on the left
# (respawned for each event), table-001's display on the right; the events
# are driven in the background into $RUN/demo.log.  The session ends 5 s
# after the last event (or when you leave it: Ctrl-b d), and so does this
# script.
if [ $play_table = 1 ]; then
    mkdir -p "$RUN/xdg-console/tourney"
    sed -e 's/^user = demo$/user = console/' -e "s|/demo.pw\"|/console.pw\"|" \
        "$XDG_CONFIG_HOME/tourney/console.conf" >"$RUN/xdg-console/tourney/console.conf"
    PLAY_SESSION=tourney-play-$$
    cols=$(tput cols 2>/dev/null || echo 200)
    lines=$(tput lines 2>/dev/null || echo 50)
    printf '%s\n' "#!/bin/sh" "echo 'waiting for the first event...'" "exec sleep 100000" >"$RUN/idle.sh"
    printf '%s\n' "#!/bin/sh" "export LC_ALL='$user_locale'" \
        "exec '$TABLE' --config '$RUN/table-001.conf'" >"$RUN/table.sh"
    tmux new-session -d -s "$PLAY_SESSION" -x "$cols" -y "$lines" "sh $RUN/idle.sh" ||
        die "tmux new-session failed"
    tmux split-window -h -t "$PLAY_SESSION:0" "sh $RUN/table.sh" ||
        die "tmux split-window failed"
    (trap - EXIT INT TERM HUP
     for f in "${formats[@]}"; do
         ev=$(printf '%s' "$f" | tr -cd 'a-z0-9')-demo
         (for ((w = 0; w < 300; w++)); do
              "$TOURNEY" live event list 2>/dev/null </dev/null | grep -q "$ev" && break
              sleep 0.2
          done
          printf '%s\n' "#!/bin/sh" "export LC_ALL='$user_locale'" \
              "XDG_CONFIG_HOME='$RUN/xdg-console' exec '$TOURNEY' live console $ev" >"$RUN/console-$ev.sh"
          tmux respawn-pane -k -t "$PLAY_SESSION:0.0" "sh $RUN/console-$ev.sh") &
         play "$f" "${players:-$(default_players "$f")}" || exit $?
         wait
     done
     sleep 5
     tmux kill-session -t "$PLAY_SESSION") >"$RUN/demo.log" 2>&1 </dev/null &
    driver=$!
    track "$driver"
    # tmux shows UTF-8 to a client whose locale says so.
    LC_ALL=$user_locale TMUX= tmux attach -t "$PLAY_SESSION" || true
    if kill -0 "$driver" 2>/dev/null; then
        echo "$prog: you left the session before the demo ended; stopping" >&2
        exit 0
    fi
    st=0; wait "$driver" || st=$?
    cat "$RUN/demo.log"
    exit "$st"
fi

# The dashboard: for each format, the event is driven in the background
# (into $RUN/demo.log) while `tourney live console EVENT` shows it in the
# foreground under its own login; 5 s after the event's last round the
# console gets SIGTERM (it restores the terminal) and the next event
# starts.  Quitting the console (q) before the end stops everything.
if [ $console = 1 ] && ! "$TOURNEY" live --help 2>&1 | grep -q '^  console'; then
    echo "$prog: \`tourney live console\` is not built; printing instead" >&2
    console=0
fi
if [ $console = 1 ]; then
    mkdir -p "$RUN/xdg-console/tourney"
    sed -e 's/^user = demo$/user = console/' -e "s|/demo.pw\"|/console.pw\"|" \
        "$XDG_CONFIG_HOME/tourney/console.conf" >"$RUN/xdg-console/tourney/console.conf"
    exec 3<&0
    for f in "${formats[@]}"; do
        ev=$(printf '%s' "$f" | tr -cd 'a-z0-9')-demo
        (trap - EXIT INT TERM HUP; play "$f" "${players:-$(default_players "$f")}") \
            >>"$RUN/demo.log" 2>&1 </dev/null &
        driver=$!
        track "$driver"
        # the console needs the event: wait until the hub lists it
        for ((w = 0; w < 300; w++)); do
            "$TOURNEY" live event list 2>/dev/null </dev/null | grep -q "$ev" && break
            kill -0 "$driver" 2>/dev/null || break
            sleep 0.2
        done
        # (a background job of a script reads /dev/null unless told)
        LC_ALL=$user_locale XDG_CONFIG_HOME=$RUN/xdg-console "$TOURNEY" live console "$ev" <&3 &
        viewer=$!
        track "$viewer"
        (trap - EXIT INT TERM HUP
         while kill -0 "$driver" 2>/dev/null; do sleep 0.5; done
         sleep 5
         kill -TERM "$viewer" 2>/dev/null) </dev/null >/dev/null 2>&1 &
        closer=$!
        track "$closer"
        wait "$viewer" || true
        if kill -0 "$driver" 2>/dev/null; then
            echo "$prog: console closed before the demo ended; stopping" >&2
            exit 0
        fi
        st=0; wait "$driver" || st=$?
        [ $st = 0 ] || { cat "$RUN/demo.log"; die "the $f demo failed (exit $st)"; }
    done
    cat "$RUN/demo.log"
    echo
    echo "== demo complete: ${#formats[@]} event(s) played live; stopping the hub, tables and broker"
    exit 0
fi
play_all
echo
echo "== demo complete: ${#formats[@]} event(s) played live; stopping the hub, tables and broker"
