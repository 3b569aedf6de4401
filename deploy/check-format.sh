#!/usr/bin/env bash
# Fails when a C source or header differs from .clang-format's layout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find common hub table-client tests bench -name '*.[ch]')
if [ -z "$files" ]; then exit 0; fi
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files
echo "formatting ok"
