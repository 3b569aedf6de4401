#!/usr/bin/env bash
# The README's first command: installs what Tourney needs, builds it, and
# plays a sample event of every format offline with simulated tables,
# printing pairings, results and standings round by round.
# Usage: deploy/run.sh [tourney demo options, e.g. --format catan --players 40]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

deploy/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target tourney
exec build/hub/tourney demo "$@"
