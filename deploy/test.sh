#!/usr/bin/env bash
# The README's second command: installs what the tests need, then builds and
# runs every test twice: an optimised -Werror build and an AddressSanitizer +
# UndefinedBehaviorSanitizer build.  Benchmarks are not part of this run.
# Usage: deploy/test.sh            (from anywhere; builds under ./build*)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

deploy/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
run_suite() {
    local dir=$1; shift
    cmake -S . -B "$dir" -DTNY_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j"$jobs"
    (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 900)
}

echo "== release build (-O2, -Werror) =="
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== sanitizer build (ASan + UBSan) =="
run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DTNY_SANITIZE=ON
echo "== formatting (clang-format) =="
deploy/check-format.sh
