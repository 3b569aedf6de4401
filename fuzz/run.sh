#!/usr/bin/env bash
# fuzz/run.sh - builds the libFuzzer targets of fuzz/ with clang
# (TNY_FUZZ=ON, ASan + UBSan, in build-fuzz/) and runs each for SECONDS.
# New inputs go to build-fuzz/corpus/<target>/ (the seed corpus
# tests/fuzz/<target>/ is read, never written); a crash, leak or timeout is
# saved under build-fuzz/findings/<target>/ and fails the run: add it to
# tests/fuzz/<target>/ with its fix.  Prints executions per target.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]   (default 60 s, every target)
#        JOBS=2 fuzz/run.sh 300   (two targets at a time)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
cc=${CC:-$(command -v clang-14 || command -v clang)}
out=build-fuzz

mkdir -p "$out"
if ! { cmake -S . -B "$out" -DCMAKE_C_COMPILER="$cc" -DTNY_FUZZ=ON \
           -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       cmake --build "$out" -j"${JOBS:-2}" --target fuzz; } >"$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for d in tests/fuzz/*/; do targets+=("$(basename "$d")"); done
fi

run_one() {
    local t=$1 log="$out/findings/$1.log"
    mkdir -p "$out/corpus/$t" "$out/findings/$t"
    if "$out/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 \
           -timeout=10 -max_len=65536 -print_final_stats=1 \
           -artifact_prefix="$out/findings/$t/" \
           "$out/corpus/$t" "tests/fuzz/$t" >"$log" 2>&1; then
        printf '%-16s %12s executions, no finding\n' "$t" \
            "$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    else
        printf '%-16s FINDING: see %s and %s/findings/%s/\n' "$t" "$log" \
            "$out" "$t"
        return 1
    fi
}

status=0
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "${JOBS:-1}" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
