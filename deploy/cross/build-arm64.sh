#!/usr/bin/env bash
# deploy/cross/build-arm64.sh - cross-builds Tourney for arm64 (the tables'
# Raspberry Pis, Raspberry Pi OS / Debian 12 bookworm) on a Debian amd64 host.
#
# Installs the cross toolchain and the :arm64 libraries (deploy/install-deps.sh
# --cross, idempotent), then configures build-arm64/ with
# cmake/aarch64-linux-gnu.cmake and builds tourney-table and, when --all is
# given, every target (hub, CLI, tests).  With --package it also runs
# `cpack -G DEB` there, giving arm64 .deb files.  It does not run anything:
# deploy/cross/test_arm64_qemu.sh runs the table under qemu-aarch64 (-L /,
# see there) against the native hub; deploy/test.sh does both in CI.
#
# usage: deploy/cross/build-arm64.sh [--no-install] [--all] [--package] [BUILD_DIR]
#        (BUILD_DIR defaults to build-arm64 under the source tree)
# env:   JOBS (default: nproc), CMAKE_BUILD_TYPE (default RelWithDebInfo)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

install=1
all=0
package=0
dir=
for arg in "$@"; do
    case $arg in
        --no-install) install=0 ;;
        --all) all=1 ;;
        --package) package=1; all=1 ;;
        -*) echo "usage: $0 [--no-install] [--all] [--package] [BUILD_DIR]" >&2; exit 2 ;;
        *) dir=$arg ;;
    esac
done
dir=${dir:-$root/build-arm64}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if [ "$install" = 1 ]; then
    "$root/deploy/install-deps.sh" --cross
fi
command -v aarch64-linux-gnu-gcc >/dev/null ||
    { echo "aarch64-linux-gnu-gcc not found: run deploy/install-deps.sh --cross" >&2; exit 1; }

cmake -S "$root" -B "$dir" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
    -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" -DTNY_WERROR=ON >/dev/null
if [ "$all" = 1 ]; then
    cmake --build "$dir" -j"$jobs"
else
    cmake --build "$dir" -j"$jobs" --target tourney-table
fi
if [ "$package" = 1 ]; then
    (cd "$dir" && cpack -G DEB)
fi
file "$dir/table-client/tourney-table" 2>/dev/null ||
    echo "built $dir/table-client/tourney-table"
