#!/usr/bin/env bash
# bench_table.sh - resource use of the table client (tourney-table), the
# program every table's Raspberry Pi runs all day.  Not a test: it prints
# numbers and how they compare with the targets, and exits 0 unless it
# could not measure.
#
# Measures, against a real mosquitto and the real hub on this machine
# (tests/e2e/lib.sh and live_hub.sh set them up in a temp dir):
# - start-up: exec -> first output (headless: the first state line on
#   stdout; tui: the first byte the terminal receives) and exec ->
#   connected (headless: "net online"; both: the log's "connected to"),
#   over --runs starts (min / median / max), each stopped with SIGTERM;
# - idle CPU: the table assigned to a table of a running round (the hub's
#   round clock counting down), nobody touching it, over --seconds:
#   utime + stime from /proc/PID/stat, as a percentage of one core;
# - memory after that: VmRSS, VmHWM (peak), VmSize, threads, and where
#   the resident pages are (/proc/PID/smaps: libraries, heap, anonymous
#   mappings such as thread stacks).
# Targets: < 6 MB resident, < 1 % of a core idle, start-up < 100 ms.
#
# It does not build anything.  The tui mode runs the table in a tmux pane
# (100x30), like the e2e display tests.
#
# usage: bench/bench_table.sh [--display=headless|tui] [--build DIR]
#                             [--seconds N] [--runs N]
#        (--build defaults to SOURCE/build; needs its tourney-table,
#        tourney-hub and tourney)
set -u -o pipefail
here=$(cd "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"
src=$(cd "$here/.." && pwd)
display=headless
build=$src/build
seconds=60
runs=5
usage="[--display=headless|tui] [--build=DIR] [--seconds=N] [--runs=N]"
bench_args "$usage" display=display build=build seconds=seconds runs=runs -- "$@"
case $display in
headless | tui) ;;
*) echo "usage: $0 $usage" >&2; exit 2 ;;
esac
build=$(cd "$build" && pwd) || exit 2

E2E_TIMEOUT=$((seconds + runs * 30 + 180))
source "$src/tests/e2e/lib.sh"
E2E_NAME=bench_table
e2e_init "$src" "$build"
source "$src/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
[ "$display" = headless ] || command -v tmux >/dev/null || fail "--display=tui needs tmux"
SOCK=$E2E_TMP/tmux.sock
trap 'b_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $b_rc); e2e_cleanup' EXIT

hl_hub 1
EV=bench
hl_nh_round "$EV" 1 table-001
live 0 clock start "$EV"

cat >"$E2E_TMP/table.conf" <<EOF
device_id = "table-001"
mqtt_password = "$(cred table-001)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table.db"
log_level = "info"
display = "$display"
EOF

# stamp_lines: every input line prefixed with the time it was read
# ($EPOCHREALTIME, microseconds).
stamp_lines() {
    local line
    while IFS= read -r line; do
        printf '%s %s\n' "$EPOCHREALTIME" "$line"
    done
}
us() { # us EPOCHREALTIME -> integer microseconds
    echo $((10#${1%.*} * 1000000 + 10#${1#*.}))
}
# stamp_of FILE ERE: the time stamp of the first line matching ERE.
stamp_of() {
    awk -v re="$2" '{ t = $1; sub(/^[^ ]* /, "") } $0 ~ re { print t; exit }' "$1"
}

T0=
PID=
# launch N: starts run N; sets T0 (exec time) and PID.  Headless: stdin
# from a FIFO held open, stdout and the log (log_file) through FIFOs to
# stamp_lines.  tui: a tmux pane whose output goes to a first-byte stamp.
launch() {
    local n=$1 dir=$E2E_TMP/run$1
    mkdir -p "$dir"
    mkfifo "$dir/log"
    : >"$dir/log.ts"
    : >"$dir/out.ts"
    stamp_lines <"$dir/log" >"$dir/log.ts" &
    e2e_track $!
    if [ "$display" = headless ]; then
        mkfifo "$dir/in" "$dir/out"
        stamp_lines <"$dir/out" >"$dir/out.ts" &
        e2e_track $!
        T0=$EPOCHREALTIME
        "$TABLE" --config "$E2E_TMP/table.conf" --log-file="$dir/log" \
            <"$dir/in" >"$dir/out" 2>"$dir/err" &
        PID=$!
        e2e_track "$PID"
        exec {IN_FD}>"$dir/in"
    else
        mkfifo "$dir/go"
        tmux -S "$SOCK" new-session -d -s "r$n" -x 100 -y 30 \
            "read -r _ <'$dir/go'; exec '$TABLE' --config '$E2E_TMP/table.conf' --log-file='$dir/log' 2>'$dir/err'"
        tmux -S "$SOCK" pipe-pane -t "r$n" -o \
            "bash -c 'IFS= read -r -N 1 _; echo \"\$EPOCHREALTIME first-output\"; exec cat >/dev/null' >'$dir/out.ts'"
        PID=$(tmux -S "$SOCK" display-message -p -t "r$n" '#{pane_pid}')
        T0=$EPOCHREALTIME
        echo go >"$dir/go"
    fi
}
# stop: SIGTERM, wait for the exit.
stop() {
    kill_wait "$PID"
    [ "$display" = headless ] && exec {IN_FD}>&-
    [ "$display" = headless ] || tmux -S "$SOCK" kill-session -t "r$1" 2>/dev/null
    return 0
}

# --- start-up ----------------------------------------------------------------
connected_or_dead() {
    grep -q 'connected to' "$1/log.ts" && return 0
    kill -0 "$PID" 2>/dev/null || fail "the table exited: $(tail -n 5 "$1/err")"
    return 1
}
first_ms=()
conn_ms=()
online_ms=()
for ((n = 1; n <= runs; n++)); do
    launch "$n"
    dir=$E2E_TMP/run$n
    wait_until 20 connected_or_dead "$dir" ||
        fail "run $n: not connected: $(cat "$dir/err" "$dir/log.ts" | tail -n 5)"
    if [ "$display" = headless ]; then
        wait_until 20 grep -q ' net online' "$dir/out.ts" || fail "run $n: no net online"
        first=$(stamp_of "$dir/out.ts" '^state ')
        online=$(stamp_of "$dir/out.ts" '^net online')
        online_ms+=($((($(us "$online") - $(us "$T0")) / 1000)))
    else
        wait_until 20 grep -q first-output "$dir/out.ts" || fail "run $n: no terminal output"
        first=$(stamp_of "$dir/out.ts" 'first-output')
    fi
    conn=$(stamp_of "$dir/log.ts" 'connected to')
    first_ms+=($((($(us "$first") - $(us "$T0")) / 1000)))
    conn_ms+=($((($(us "$conn") - $(us "$T0")) / 1000)))
    [ "$n" -eq "$runs" ] || stop "$n"
done
# stats NAME VALUES...: "NAME min=A median=B max=C ms (runs in order: ...)";
# run 1 creates the outbox database.
stats() {
    local name=$1
    shift
    printf '%s\n' "$@" | sort -n | awk -v name="$name" -v runs="$*" '
        { v[NR] = $1 } END { printf "%s min=%d median=%d max=%d ms (runs in order: %s)\n", name, v[1], v[int((NR + 1) / 2)], v[NR], runs }'
}

# --- idle with the round clock running (the last run stays up) --------------
sleep 2 # past the start-up burst
hz=$(getconf CLK_TCK)
cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$PID/stat"
}
c0=$(cpu_ticks)
w0=$(us "$EPOCHREALTIME")
sleep "$seconds"
c1=$(cpu_ticks)
w1=$(us "$EPOCHREALTIME")
kill -0 "$PID" 2>/dev/null || fail "the table died while idle"
cpu_pct=$(awk -v t=$((c1 - c0)) -v hz="$hz" -v w=$((w1 - w0)) 'BEGIN { printf "%.3f", 100 * t / hz / (w / 1e6) }')
if [ "$display" = headless ]; then
    printf 'status\n' >&"$IN_FD"
    wait_until 10 grep -q ' status end' "$E2E_TMP/run$runs/out.ts" || fail "no status answer"
    clock_line=$(grep ' clock remaining_ms=' "$E2E_TMP/run$runs/out.ts" | tail -n 1 | cut -d' ' -f2-)
else
    clock_line="(tui: see the pane) $(tmux -S "$SOCK" capture-pane -p -t "r$runs" | grep -m 1 -E '[0-9]+:[0-9]{2}' | tr -s ' ')"
fi

# --- memory ----------------------------------------------------------------------
st=/proc/$PID/status
kb() { awk -v k="$1:" '$1 == k { print $2 }' "$st"; }
rss=$(kb VmRSS)
hwm=$(kb VmHWM)
vsz=$(kb VmSize)
threads=$(kb Threads)
# Resident kB by kind of mapping: each library (file), the heap, thread
# stacks and other anonymous memory (Paho's threads' stacks are
# anonymous mappings; only touched pages count).
breakdown=$(awk '
    /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6) ? $6 : "[anonymous]"; next }
    $1 == "Rss:" { rss[name] += $2 }
    $1 == "Private_Dirty:" { pd[name] += $2 }
    END { for (n in rss) if (rss[n] > 0) printf "%7d kB rss %7d kB private-dirty  %s\n", rss[n], pd[n], n }' \
    "/proc/$PID/smaps" | sort -rn | head -n 14)
pss=$(awk '$1 == "Pss:" { print $2 }' "/proc/$PID/smaps_rollup")
anon=$(awk '$1 == "Anonymous:" { print $2 }' "/proc/$PID/smaps_rollup")
stop "$runs"

target() { # target OK-CONDITION TEXT
    if awk "BEGIN { exit !($1) }"; then echo "met   $2"; else echo "MISSED $2"; fi
}
echo
echo "== tourney-table --display=$display ($(basename "$build"), $(nproc) cores, $(uname -m)) =="
stats "start-up exec->first-output" "${first_ms[@]}"
[ "$display" = tui ] || stats "start-up exec->net-online" "${online_ms[@]}"
stats "start-up exec->connected(log)" "${conn_ms[@]}"
echo "idle cpu: $cpu_pct % of one core over $seconds s ($((c1 - c0)) ticks at $hz Hz), clock: $clock_line"
echo "memory: VmRSS=${rss} kB VmHWM=${hwm} kB VmSize=${vsz} kB Pss=${pss} kB Anonymous=${anon} kB threads=${threads}"
echo "resident by mapping:"
printf '%s\n' "$breakdown"
echo "targets:"
med_first=$(printf '%s\n' "${first_ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
med_conn=$(printf '%s\n' "${conn_ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
target "$hwm < 6144" "resident < 6 MB (VmHWM $hwm kB)"
target "$cpu_pct < 1" "idle cpu < 1 % ($cpu_pct %)"
target "$med_first < 100" "start-up to first output < 100 ms (median $med_first ms)"
target "$med_conn < 100" "start-up to connected < 100 ms (median $med_conn ms)"
e2e_done
