#!/usr/bin/env bash
# loop_layers.sh - the loop's layers (issue 18 item 5): the timers are in
# the pure engine, so the engine calls no I/O and no clock (its undefined
# symbols are libc's and libm's pure functions and its own), and it does
# not call the loop back; the loop's poll and clock are in tny_loop only.
# Read from the symbols of the built libraries.
#
# usage: bash loop_layers.sh LIBTNY_ENGINE.a LIBTNY_LOOP.a
set -euo pipefail
engine=${1:?usage: loop_layers.sh LIBTNY_ENGINE.a LIBTNY_LOOP.a}
loop=${2:?usage: loop_layers.sh LIBTNY_ENGINE.a LIBTNY_LOOP.a}
command -v nm >/dev/null || { echo "FAIL: nm not found (binutils)"; exit 1; }
und() { nm --undefined-only "$1" | awk 'NF >= 2 { print $NF }' | sort -u; }
def() { nm --defined-only "$1" | awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort -u; }
# Calls that read a clock or do I/O: none of them in the engine.
io='^(poll|ppoll|select|epoll_.*|clock_gettime|gettimeofday|time|nanosleep|usleep|sleep|open|open64|openat|close|read|write|fopen|fopen64|fclose|fread|fwrite|fprintf|printf|puts|fputs|fputc|putchar|fflush|socket|send|recv|pipe|pipe2|getenv|__.*_chk)$'
bad=$(und "$engine" | grep -E "$io" || true)
[ -z "$bad" ] || { echo "FAIL: the engine calls I/O or a clock: $bad"; exit 1; }
up=$(und "$engine" | grep -E '^tny_loop_' || true)
[ -z "$up" ] || { echo "FAIL: the engine calls the loop: $up"; exit 1; }
def "$engine" | grep -qx tny_timers_run || { echo "FAIL: tny_timers_run is not in the engine"; exit 1; }
und "$loop" | grep -qx poll || { echo "FAIL: the loop does not poll"; exit 1; }
und "$loop" | grep -qx tny_timers_run || { echo "FAIL: the loop does not run the engine's timers"; exit 1; }
echo "loop layers ok"
