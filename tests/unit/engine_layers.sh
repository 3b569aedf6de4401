#!/usr/bin/env bash
# engine_layers.sh - the game modules are plugins (issue 18 item 1): read
# from the symbols of the engine's object files (src/ generic code,
# games/ one module per game and the registry games.c):
#   1. no generic file (src/) calls or reads a module's symbol: it reaches
#      a game only through the registry's lookups (games.c);
#   2. a module uses no other module's symbol, but the two-player
#      module's shared operations (tny__two_player_*: the games that
#      record the two-player result);
#   3. no module includes a header from outside common/ (hub/, proto/,
#      table-client/), nor any module's own file;
#   4. without the registry's table of modules, the files' calls form a
#      DAG (no call cycle: a module calls the generic helpers, the
#      generic code calls back only through ops pointers);
#   5. no adapter or generic source (common/src, common/io, proto/, hub/,
#      table-client/) names a game's enum value (TNY_GAME_...): what it
#      needs of a game is the module's data or operation (game.h), so a
#      new game touches no adapter (docs/architecture.md, "Adding a
#      game").
#
# usage: bash engine_layers.sh OBJDIR SRCDIR
#   OBJDIR: .../CMakeFiles/tny_engine.dir   SRCDIR: the source's common/
set -euo pipefail
obj=${1:?usage: engine_layers.sh OBJDIR SRCDIR}
src=${2:?usage: engine_layers.sh OBJDIR SRCDIR}
command -v nm >/dev/null || { echo "FAIL: nm not found (binutils)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for o in "$obj"/src/*.o "$obj"/games/*.o; do
    name=$(basename "$(dirname "$o")")/$(basename "$o" .c.o)
    nm --defined-only "$o" | awk -v f="$name" '$(NF-1) ~ /^[TDBR]$/ { print f, $NF }' >>"$tmp/def"
    nm --undefined-only "$o" | awk -v f="$name" '{ print f, $NF }' >>"$tmp/und"
done
[ -s "$tmp/def" ] || { echo "FAIL: no symbols in $obj"; exit 1; }
grep -q '^games/games ' "$tmp/def" || { echo "FAIL: no registry (games/games) in $obj"; exit 1; }
# "caller callee symbol" per pair of files.
awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
    "$tmp/def" "$tmp/und" | sort -u >"$tmp/edges"
# 1. generic -> module (not the registry)
if awk '$1 ~ /^src\// && $2 ~ /^games\// && $2 != "games/games"' "$tmp/edges" | grep .; then
    echo "FAIL: generic code uses a module's symbol above (call through tny_game_ops_of)"
    fail=1
fi
# 2. module -> module
if awk '$1 ~ /^games\// && $1 != "games/games" && $2 ~ /^games\// && $2 != "games/games" &&
        !($2 == "games/two_player" && $3 ~ /^tny__two_player_/)' "$tmp/edges" | grep .; then
    echo "FAIL: a module uses another module's symbol above"
    fail=1
fi
# 3. includes
if grep -nE '#include "(hub|proto|table-client|mqtt)|#include "[a-z_]+\.h"' "$src"/games/*.c; then
    echo "FAIL: a module includes a header from outside common/include above"
    fail=1
fi
# 4. no cycle once the registry's table (games.c -> modules) is left out
awk '!($1 == "games/games" && $2 ~ /^games\//) { print $1, $2 }' "$tmp/edges" | sort -u >"$tmp/pairs"
if ! tsort "$tmp/pairs" >/dev/null 2>"$tmp/tsort.err"; then
    echo "FAIL: the engine's files call each other in a loop: $(cat "$tmp/tsort.err")"
    fail=1
fi
# 5. adapters name no game
root=$src/..
if grep -rnE '\bTNY_GAME_[A-Z0-9_]+\b' --include='*.c' --include='*.h' \
    "$root"/common/src "$root"/common/io "$root"/proto "$root"/hub \
    "$root"/table-client; then
    echo "FAIL: an adapter names a game above (read the module's data or operation, game.h)"
    fail=1
fi
n_mod=$(awk '$1 ~ /^games\// && $1 != "games/games"' "$tmp/def" | awk '{ print $1 }' | sort -u | wc -l)
[ "$n_mod" -ge 7 ] || { echo "FAIL: $n_mod modules found, expected at least 7"; fail=1; }
[ "$fail" -eq 0 ] || exit 1
echo "ok - $n_mod game modules behind the registry, $(wc -l <"$tmp/pairs") caller/callee pairs of files, no loop, no adapter names a game"
