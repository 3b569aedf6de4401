# lib.sh - what the bench scripts share (sourced, bash; as
# tests/e2e/lib.sh is for the tests): their command line, the node
# overlays they need, and for the scripts that start their own processes
# without tests/e2e/lib.sh, the cleanup and children that die with them.
# Sourced by bench/*.sh:
#   here=$(cd "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
#   source "$here/lib.sh"

# bench_args USAGE SPEC... -- "$@": the script's options.  A SPEC
# NAME=VAR takes --NAME=VALUE into the variable VAR; a SPEC NAME (no =)
# is a flag, --NAME sets the variable NAME (dashes as underscores) to
# true.  -h or --help prints the script's opening comment and exits 0;
# anything else prints "usage: SCRIPT USAGE" and exits 2.
bench_args() {
    local usage=$1 arg spec name var matched
    local -a specs=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        specs+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    for arg in "$@"; do
        if [ "$arg" = -h ] || [ "$arg" = --help ]; then
            sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
        fi
        matched=0
        for spec in "${specs[@]}"; do
            name=${spec%%=*}
            if [ "$spec" != "$name" ]; then
                var=${spec#*=}
                [[ "$arg" == "--$name="* ]] || continue
                printf -v "$var" '%s' "${arg#--"$name"=}"
            else
                [ "$arg" = "--$name" ] || continue
                printf -v "${name//-/_}" '%s' true
            fi
            matched=1
            break
        done
        [ $matched = 1 ] || { echo "usage: $0 $usage" >&2; exit 2; }
    done
}

# bench_need_overlays DIR: exits 2 unless DIR (deploy/overlays or a copy)
# has its node modules (mqtt, and protobufjs when the bench needs it:
# bench_need_overlays DIR protobufjs).
bench_need_overlays() {
    local dir=$1 m
    shift
    for m in mqtt "$@"; do
        [ -f "$dir/node_modules/$m/package.json" ] ||
            { echo "run deploy/overlays/install.sh first (no $m in $dir/node_modules)" >&2; exit 2; }
    done
}

# For a script that starts its own processes (not through
# tests/e2e/lib.sh, whose e2e_init has its own traps and watchdog):
# bench_traps CLEANUP runs the function CLEANUP when the script exits,
# also on SIGINT, SIGTERM and SIGHUP; and a child started as
#   "${BENCH_TIED[@]}" mosquitto ... &
# gets SIGKILL from the kernel when the script dies, even of SIGKILL
# (setpriv --pdeathsig, util-linux), so no broker or client outlives its
# bench.  (Start it from the script's own shell, not from a subshell: the
# signal comes when its parent dies.)
# shellcheck disable=SC2034 # (used by the scripts that source this)
if command -v setpriv >/dev/null 2>&1; then
    BENCH_TIED=(setpriv --pdeathsig KILL --)
else
    BENCH_TIED=()
fi
bench_traps() {
    # shellcheck disable=SC2064 # (the function's name, now)
    trap "$1" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
}

# Ports for a bench's own servers: port_reserve VAR... (reserved against
# every test and bench running at the same time; port_listener_is PORT
# PID: the server started got it), tests/e2e/ports.sh.
source "$(dirname -- "${BASH_SOURCE[0]}")/../tests/e2e/ports.sh"
