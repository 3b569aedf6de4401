#!/usr/bin/env bash
# test_run_demo.sh - deploy/run.sh, the README's first command, runs the
# live demo end to end without a terminal: its own mosquitto, tourney-hub
# and simulated tables, a small Tantrix event driven by `tourney live` to
# the end; with deploy/overlays/install.sh's packages (CI has them) the
# public feed too, its broker and WebSocket front (feed-front.js).
# Checks: exit 0, the feed's front up and the hall screen's address
# printed (or "no public feed" said, without the packages), every round's
# pairings, results and standings printed (the last round's once, as the
# final standings), the final standings list every player once, and
# afterwards no
# process it started is left (none whose command line names its runtime
# dir, none of the pids it recorded) and the runtime dir is gone.  Then a
# usage error (exit 2, one line) and the offline demo (--offline) still
# working; the dashboard (tmux) shows UTF-8 names as entered; the build (a stub cmake) includes the
# message catalogues and says where its log is.
#
# It does not install or build (--no-build on BUILD_DIR's binaries).
#
# usage: bash test_run_demo.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_init "$@"
need_binaries TOURNEY HUB TABLE # (run.sh runs them from the build)
RUN_SH=$E2E_SRC/deploy/run.sh
N=6
# run.sh starts the feed when these are there (its have_ovl)
OVL=$E2E_SRC/deploy/overlays
feed=0
[ ! -f "$OVL/node_modules/ws/package.json" ] || [ ! -f "$OVL/node_modules/serve-static/package.json" ] ||
    [ ! -f "$OVL/vendor/mqtt.min.js" ] || feed=1

# run.sh makes its runtime dir under $TMPDIR: ours, so we can find it.
mkdir -p "$E2E_TMP/t"
TMPDIR=$E2E_TMP/t timeout 240 bash "$RUN_SH" --no-build --build-dir "$E2E_BUILD" \
    --format tantrix --players $N --tables 3 --delay 20-80 \
    >"$E2E_TMP/run.out" 2>"$E2E_TMP/run.err" </dev/null
st=$?
[ $st -eq 0 ] || fail "run.sh exit $st: $(tail -n 5 "$E2E_TMP/run.err") stdout: $(tail -n 5 "$E2E_TMP/run.out")"
ok "run.sh --format tantrix --players $N: exit 0"

out=$E2E_TMP/run.out
grep -q '^== live system up: mosquitto 127\.0\.0\.1:[0-9]*, tourney-hub, 3 simulated tables' "$out" ||
    fail "no start line: $(head -n 3 "$out")"
if [ $feed = 1 ]; then
    grep -q '^== the public feed: its front http://127\.0\.0\.1:[0-9]*/ ' "$out" ||
        fail "no feed line: $(head -n 3 "$out")"
    grep -q '^hall screen: http://127\.0\.0\.1:[0-9]*/hall\.html?events=tantrix-demo ' "$out" ||
        fail "no hall screen address: $(head -n 8 "$out")"
    ok "the public feed's front up, the hall screen's address printed"
else
    grep -q '^== no public feed' "$out" || fail "no line saying the feed is off: $(head -n 3 "$out")"
fi
rounds=$(grep -c '^--- tantrix round [0-9]*: pairings$' "$out")
[ "$rounds" -ge 2 ] || fail "only $rounds rounds printed: $(head -c 400 "$out")"
[ "$(grep -c '^--- tantrix round [0-9]*: results' "$out")" -eq "$rounds" ] ||
    fail "results not printed for every round"
# The standings of every round but the last, whose standings are the
# final ones: printed once (the tryout of session 14 saw them twice).
[ "$(grep -c '^--- tantrix standings after round [0-9]*$' "$out")" -eq $((rounds - 1)) ] ||
    fail "standings not printed for every round but the last: $(grep '^--- tantrix standings' "$out")"
[ "$(grep -c "^standings after round $rounds " "$out")" -eq 1 ] ||
    fail "the standings after round $rounds printed $(grep -c "^standings after round $rounds " "$out") times"
# Every result line names a table and a result (Tantrix: scores).
grep -q '^  table [0-9]*   p[0-9]*,p[0-9]*   scores:' "$out" ||
    fail "no result lines: $(grep -A3 'results' "$out" | head -n 5)"
grep -q "^==== tantrix: final standings after $rounds rounds ====$" "$out" ||
    fail "no final standings header for $rounds rounds: $(tail -n 12 "$out")"
# The final block: "standings after round R", then one row per player.
sed -n '/^==== tantrix: final standings/,/^$/p' "$out" >"$E2E_TMP/final"
grep -q "^standings after round $rounds" "$E2E_TMP/final" ||
    fail "final standings not after round $rounds: $(cat "$E2E_TMP/final")"
grep -E '^ +[0-9]+  p[0-9]+ ' "$E2E_TMP/final" | awk '{ print $2 }' | sort >"$E2E_TMP/ranked"
for ((i = 1; i <= N; i++)); do echo "p$i"; done | sort >"$E2E_TMP/want"
cmp -s "$E2E_TMP/ranked" "$E2E_TMP/want" ||
    fail "final standings do not list p1..p$N once each: $(tr '\n' ' ' <"$E2E_TMP/ranked")"
grep -q '^== demo complete' "$out" || fail "no completion line"
ok "$rounds rounds: pairings, results, standings each round; final standings of all $N players"

# Nothing left: the runtime dir is gone and no process names it.
left=$(find "$E2E_TMP/t" -mindepth 1 -maxdepth 1 -name 'tourney-run.*')
[ -z "$left" ] || fail "runtime dir left behind: $left"
pgrep -f "$E2E_TMP/t/" >/dev/null && fail "processes left: $(pgrep -a -f "$E2E_TMP/t/")"
ok "no process left running, runtime dir removed"

# Kept runtime dir: the recorded pids are all gone after the run.
TMPDIR=$E2E_TMP/t timeout 240 bash "$RUN_SH" --no-build --build-dir "$E2E_BUILD" \
    --format catan --players 4 --tables 1 --delay 10-30 --keep \
    >"$E2E_TMP/run2.out" 2>"$E2E_TMP/run2.err" </dev/null ||
    fail "run.sh --keep (catan, 4 players): $(tail -n 3 "$E2E_TMP/run2.err")"
kept=$(find "$E2E_TMP/t" -mindepth 1 -maxdepth 1 -name 'tourney-run.*')
[ -n "$kept" ] && [ -s "$kept/pids" ] || fail "--keep: no runtime dir with a pids file"
# broker, hub, 1 table; the feed broker and its front
npids=$((3 + 2 * feed))
[ "$(wc -l <"$kept/pids")" -eq $npids ] || fail "expected $npids pids (broker, hub, 1 table$([ $feed = 0 ] || echo ', feed broker, front')): $(cat "$kept/pids")"
if [ $feed = 1 ]; then
    grep -q '^listening on 127\.0\.0\.1:' "$kept/front.log" || fail "--keep: the front's log: $(cat "$kept/front.log")"
    grep -q 'New bridge connected from .* as feed-bridge' "$kept/broker.log" ||
        fail "--keep: the feed broker's bridge never connected: $(tail -n 5 "$kept/broker.log") $(tail -n 5 "$kept/feed.log")"
fi
while read -r pid; do
    ! kill -0 "$pid" 2>/dev/null || fail "pid $pid from $kept/pids still runs: $(ps -o args= -p "$pid")"
done <"$kept/pids"
pgrep -f "$kept" >/dev/null && fail "processes left: $(pgrep -a -f "$kept")"
grep -q '^==== catan: final standings after [0-9]* rounds ====$' "$E2E_TMP/run2.out" ||
    fail "catan: no final standings"
ok "--keep: the $npids recorded pids are gone"

# The Neuroshima Hex demo's players list their armies (NH-10): the
# import and the pairings do not warn that they have none.
TMPDIR=$E2E_TMP/t timeout 240 bash "$RUN_SH" --no-build --build-dir "$E2E_BUILD" \
    --format neuroshima-hex --players 4 --tables 2 --delay 10-30 \
    >"$E2E_TMP/run3.out" 2>"$E2E_TMP/run3.err" </dev/null ||
    fail "run.sh (neuroshima-hex, 4 players): $(tail -n 3 "$E2E_TMP/run3.err")"
grep -q '^==== neuroshima-hex: final standings after [0-9]* rounds ====$' "$E2E_TMP/run3.out" ||
    fail "neuroshima-hex: no final standings"
! grep -h 'warning' "$E2E_TMP/run3.out" "$E2E_TMP/run3.err" ||
    fail "neuroshima-hex: the demo warns (above)"
ok "neuroshima-hex demo: players with 5 armies each, no warning"
# The printed results name each army played as the format does (its
# seed-2026 games include Iron Gang and Death Breath: "IronGang" was
# printed while the layout's blanks were stripped with the values').
"$TOURNEY" format neuroshima-hex | jq -r '.neuroshima_hex.armies[]' >"$E2E_TMP/armies"
grep -o 'armies:{[^}]*}' "$E2E_TMP/run3.out" | sed 's/^armies:{//; s/}$//' | tr ',' '\n' |
    sed 's/^p[0-9]*://' | sort -u >"$E2E_TMP/played"
[ -s "$E2E_TMP/played" ] || fail "neuroshima-hex: no armies in the printed results"
bad=$(grep -v -x -F -f "$E2E_TMP/armies" "$E2E_TMP/played" || true)
[ -z "$bad" ] || fail "neuroshima-hex: printed armies not of the format: $bad"
ok "neuroshima-hex demo: printed results name the armies as the format does ($(wc -l <"$E2E_TMP/played") armies)"

# A usage error: exit 2, one line, nothing started.
timeout 20 bash "$RUN_SH" --no-build --build-dir "$E2E_BUILD" --format chess \
    >"$E2E_TMP/u.out" 2>"$E2E_TMP/u.err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$E2E_TMP/u.err")" -eq 1 ] &&
    grep -q 'unknown format "chess"' "$E2E_TMP/u.err" ||
    fail "--format chess: exit $st, stderr: $(cat "$E2E_TMP/u.err")"
ok "unknown format: exit 2, one line"

# Finding 5: the dashboard in a UTF-8 terminal (tmux, LANG=C.UTF-8) shows
# the names as entered ("Bartłomiej Kovács" is p2), not a C locale's ASCII
# stand-ins ("Bartlomiej Kovacs").
if command -v tmux >/dev/null; then
    TM=$E2E_TMP/tmux.sock
    trap 'rd_rc=$?; tmux -S "$TM" kill-server 2>/dev/null; (exit $rd_rc); e2e_cleanup' EXIT
    printf '%s\n' "unset LC_ALL LC_CTYPE; export LANG=C.UTF-8 TERM=screen TMPDIR='$E2E_TMP/t'" \
        "exec bash '$RUN_SH' --no-build --build-dir '$E2E_BUILD' --format tantrix --players $N --tables 3 --delay 2000-3000 --console" \
        >"$E2E_TMP/dash.sh"
    tmux -S "$TM" -f /dev/null new-session -d -s dash -x 120 -y 40 "bash '$E2E_TMP/dash.sh'" ||
        fail "tmux new-session"
    dash_names() { tmux -S "$TM" capture-pane -p -t dash 2>/dev/null | grep -q -E 'Bart(ł|l)omiej Kov(á|a)cs'; }
    wait_until 90 dash_names || fail "the dashboard never showed p2's name: $(tmux -S "$TM" capture-pane -p -t dash)"
    tmux -S "$TM" capture-pane -p -t dash >"$E2E_TMP/dash.txt"
    grep -q 'Bartłomiej Kovács' "$E2E_TMP/dash.txt" ||
        fail "the dashboard shows ASCII stand-ins in a UTF-8 terminal: $(grep -o -E 'Bart(ł|l)omiej Kov(á|a)cs' "$E2E_TMP/dash.txt" | head -n 1)"
    tmux -S "$TM" send-keys -t dash q
    wait_for 20 '! tmux -S "$TM" has-session -t dash 2>/dev/null' || tmux -S "$TM" kill-server
    ok "the dashboard in a UTF-8 terminal: Bartłomiej Kovács as entered"
fi

# The build (findings 1 and 5): the catalogues are built with the programs
# (build/locale: a Polish event in Polish), and one line says it is
# building and where the log is.  A copy of run.sh in a tree whose
# install-deps.sh does nothing and whose cmake (first on PATH) records its
# arguments and fails the build.
R=$E2E_TMP/tree
mkdir -p "$R/deploy" "$R/bin"
cp "$RUN_SH" "$R/deploy/run.sh"
printf '#!/bin/sh\nexit 0\n' >"$R/deploy/install-deps.sh"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/cmake.args"\ncase "$*" in *--build*) echo "stub build failed"; exit 1 ;; esac\nexit 0\n' \
    "$R" >"$R/bin/cmake"
chmod +x "$R/deploy/install-deps.sh" "$R/bin/cmake"
PATH=$R/bin:$PATH timeout 60 bash "$R/deploy/run.sh" --format tantrix --print \
    >"$E2E_TMP/b.out" 2>"$E2E_TMP/b.err" </dev/null
st=$?
[ $st -eq 1 ] && grep -q 'build failed' "$E2E_TMP/b.err" ||
    fail "stub build: exit $st: $(cat "$E2E_TMP/b.err")"
for t in tourney tourney-hub tourney-table catalogues_tourney catalogues_tourney-table; do
    grep -- '--build' "$R/cmake.args" | tr ' ' '\n' | grep -q -x -- "$t" ||
        fail "run.sh does not build $t: $(grep -- '--build' "$R/cmake.args")"
done
grep -q -E '^run\.sh: building .* \(a few minutes the first time; log: [^ ]*tourney-run-build\.[0-9]+\.log\)$' \
    "$E2E_TMP/b.err" || fail "no line saying it builds and where the log is: $(head -n 2 "$E2E_TMP/b.err")"
ok "run.sh builds the programs and their catalogues, saying so with the log's path"

# --offline: the offline demo with its own options.
timeout 60 bash "$RUN_SH" --no-build --build-dir "$E2E_BUILD" --offline \
    --format tantrix --players 6 >"$E2E_TMP/off.out" 2>"$E2E_TMP/off.err" ||
    fail "--offline: $(cat "$E2E_TMP/off.err")"
[ -s "$E2E_TMP/off.out" ] || fail "--offline printed nothing"
ok "--offline runs tourney demo"
e2e_done
