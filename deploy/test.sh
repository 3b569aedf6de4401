#!/usr/bin/env bash
# The README's second command: installs what the tests need, then builds and
# runs every test twice: an optimised -Werror build (where the unit tests
# also run under valgrind memcheck) and an AddressSanitizer +
# UndefinedBehaviorSanitizer build; between the two, the arm64 table client
# (cross-built into build-arm64/) plays a round under qemu-aarch64 against
# the release build's hub (deploy/cross/test_arm64_qemu.sh; not a ctest
# entry, so it stays out of the sanitizer build).  Benchmarks are not part
# of this run.
# Usage: deploy/test.sh            (from anywhere; builds under ./build*)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

deploy/install-deps.sh --cross
# The pages' npm packages (MQTT client, QR code, playwright-core for the
# browser tests; a few seconds); without them e2e_test_overlays,
# e2e_test_pages and e2e_test_pages_lang report themselves skipped.
deploy/overlays/install.sh || echo "deploy/overlays/install.sh failed: the overlay and page tests will skip" >&2

jobs=$(nproc 2>/dev/null || echo 2)
run_suite() {
    local dir=$1; shift
    cmake -S . -B "$dir" -DTNY_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j"$jobs"
    (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 900)
}

echo "== release build (-O2, -Werror; the unit tests also under valgrind) =="
# -DTNY_MEMCHECK=ON: every unit test runs a second time under valgrind
# memcheck (ctest label memcheck; an uninitialised read fails it) and the
# configuration fails without valgrind (cmake/Memcheck.cmake).
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTNY_MEMCHECK=ON
# gcc -O3 finds warnings -O2 does not (maybe-uninitialized): the plain
# Release configuration is built with -Werror too (build only; the tests
# ran above on the same sources).
echo "== Release configuration (-O3, -Werror, build only) =="
cmake -S . -B build-release -DTNY_WERROR=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j"$jobs"
echo "== arm64 table client under qemu-user =="
JOBS=$jobs deploy/cross/build-arm64.sh --no-install "$root/build-arm64"
TNY_REQUIRE_ARM64=1 TNY_ARM64_BUILD="$root/build-arm64" \
    bash deploy/cross/test_arm64_qemu.sh "$root" "$root/build"
echo "== sanitizer build (ASan + UBSan) =="
run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DTNY_SANITIZE=ON
echo "== formatting (clang-format) =="
deploy/check-format.sh
