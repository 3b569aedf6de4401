#!/usr/bin/env bash
# compare_outputs.sh - the "no behaviour change" check of a refactor (issue
# 12): runs two builds of Tourney on the same inputs and diffs what a user
# sees, output by output.  Not part of the pass/fail test run.
#
# usage: bench/compare_outputs.sh [-q] [--offline-only|--live-only] OLD_BUILD_DIR NEW_BUILD_DIR
#
# Each build directory must hold tourney, tourney-hub and tourney-table
# (found under hub/ and table-client/, else anywhere below it).  Inputs are
# this checkout's fixtures and ../shared/data, the same files for both
# builds:
#   offline: `tourney formats`, `tourney format NAME` for every preset,
#     the help texts; for every event file in tests/cases (good, bad,
#     ratings), the event fuzz seeds (tests/fuzz/event) and
#     ../shared/data/external/tom: standings (JSON and --csv), results,
#     pair (and --explain, whose reasoning is on stderr), lots, boards,
#     export listfortress|nrtm, print pairings|slips|standings|final (HTML,
#     no PDF); `tourney import` of every ListFortress file of
#     ../shared/data/external/listfortress and of the Cryodex and NRTM
#     samples (tests/fuzz/import_*), with the standings and both exports of
#     each imported event; `tourney demo` of every preset (fixed seed) and
#     the standings of its --out file; `tourney ratings`.  Each output is
#     stdout, stderr and the exit status.  Nothing is masked: the offline
#     commands depend on their input only.
#   live: the same small event of each of the five games (test_event_full's
#     events: 8 players, 4 simulated tables seeded 1001..1004, event seed
#     77) played on each build with the e2e harness (tests/e2e/lib.sh,
#     live_hub.sh, sim_tables.sh: a real mosquitto on a free 127.0.0.1
#     port, the hub on a temporary SQLite file with its feed on).  Every
#     round waits until each paired table has its result acknowledged
#     before the round is closed, so nothing is captured mid-flight.
#     Captured per event: every `round pair` draft and `round show`,
#     `tourney live export` (JSON and --csv), `standings` (text, --json,
#     --csv), `result show` of every round, `lots`, `players list`,
#     `log`; after all events the retained feed documents
#     (mosquitto_sub -v -W on tourney/v1/feed/#, retained only, sorted by
#     topic).
#
# Masked in the live outputs, because they depend on the wall clock or on
# a run rather than on the code (each replaced by a fixed token):
#   - time stamps: ISO dates/times (YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z]) in
#     the log, the export's x_audit and result show; JSON keys ending in
#     "_ms" or "_at" or named "at"/"time"/"ts" in the export and the feed
#     (updated_ms, hub_now_ms, deadline_ms, started_ms, ...: the hub's
#     clock at the time);
#   - submission keys "table-NNN.BOOT.SEQ": BOOT is the table's outbox boot
#     counter, its start time (the SEQ part is kept);
#   - the sort of the log's lines within a round: a round's results arrive
#     in the order the simulated tables finish, which is up to the
#     scheduler when two tables' (seeded) game lengths are a few ms apart,
#     so result lines are compared as a sorted set per block (see
#     mask_log below).
# Everything else is compared byte for byte.
#
# Prints one line per compared output ("same NAME" or "DIFFERENT NAME" with
# the first differing lines; -q prints only the differences) and a summary;
# exit status 0 when everything is the same, 1 on any difference, 2 on a
# usage error or when a build cannot play the live event.  The outputs
# stay in $COMPARE_KEEP (default: a temp dir, printed) for a closer look.
set -u -o pipefail
export LC_ALL=C

SRC=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
SHARED=$(cd -- "$SRC/../shared" 2>/dev/null && pwd -P) || SHARED=

# find_bin BUILD NAME: the program NAME of build BUILD.
find_bin() {
    local b=$1 n=$2 p
    for p in "$b/hub/$n" "$b/table-client/$n"; do
        [ -x "$p" ] && {
            echo "$p"
            return 0
        }
    done
    p=$(find "$b" -type f -name "$n" -perm -u+x 2>/dev/null | head -n 1)
    [ -n "$p" ] && echo "$p"
}

# ---- live run (a child process per build: lib.sh owns its traps) -----------

if [ "${1:-}" = --live-run ]; then
    BUILD=$2
    LOUT=$3
    # shellcheck source=../tests/e2e/lib.sh
    source "$SRC/tests/e2e/lib.sh"
    E2E_NAME=compare_outputs
    E2E_TIMEOUT=900
    e2e_init "$SRC" "$BUILD"
    TOURNEY=$(find_bin "$BUILD" tourney)
    HUB=$(find_bin "$BUILD" tourney-hub)
    TABLE=$(find_bin "$BUILD" tourney-table)
    N_DEV=4
    mkdir -p "$LOUT"
    start_broker --no-ws --tables $N_DEV --organisers o1
    # shellcheck source=../tests/e2e/live_hub.sh
    source "$SRC/tests/e2e/live_hub.sh"
    live_hub_config 'feed = true'
    hub_launch
    live 0 wait-hub --timeout 20
    # shellcheck source=../tests/e2e/sim_tables.sh
    source "$SRC/tests/e2e/sim_tables.sh"
    start_sim_tables "$N_DEV" "20-150" 1000

    # keep NAME: the last `live` command's stdout and exit status as NAME.
    keep() {
        { cat "$E2E_TMP/out"; } >"$LOUT/$1"
    }
    # cap WANT NAME ARGS...: `tourney live ARGS` must exit WANT; kept as NAME.
    cap() {
        local want=$1 name=$2
        shift 2
        live "$want" "$@"
        keep "$name"
    }
    # all_acked EV ROUND: every paired table of the round has the device's
    # ack for it (sim_tables.sh's acked) and shows "state done".
    all_acked() {
        local t d
        while read -r t; do
            d=$(printf 'table-%03d' "$t")
            ev_table_acked "$d" "$1" "$2" "$t" || return 1
        done <"$E2E_TMP/tables.$1.$2"
    }
    # ev_table_acked DEVICE EV ROUND TABLE: sim_tables.sh's table_acked
    # for event EV.
    ev_table_acked() {
        EV=$2 acked "$1" | awk -v r="$3" -v t="$4" '$1 == r && $2 == t { f = 1 } END { exit !f }'
    }

    # play EV FORMAT OPTIONS N_PLAYERS: test_event_full's event, captured.
    play() {
        local ev=$1 format=$2 options=$3 n=$4 r st i
        cap 0 "$ev.create" event create "$ev" --format "$format" --title "Full $format" \
            --seed 77 --options "$options"
        {
            echo 'id,name'
            for ((i = 1; i <= n; i++)); do echo "$ev-p$i,Player $i"; done
        } >"$E2E_TMP/$ev.csv"
        cap 0 "$ev.players-import" players import "$ev" "$E2E_TMP/$ev.csv"
        for ((i = 1; i <= N_DEV; i++)); do
            live 0 device assign "$(printf 'table-%03d' "$i")" "$ev" "$i"
        done
        for ((r = 1; r <= 30; r++)); do
            timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
            st=$?
            if [ $st -eq 3 ]; then
                timeout 90 "$TOURNEY" live stage next "$ev" --confirm >"$E2E_TMP/out" 2>"$E2E_TMP/err" || break
                keep "$ev.r$r.stage-next"
                timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/out" 2>"$E2E_TMP/err" || break
            elif [ $st -ne 0 ]; then
                fail "$ev: round pair: exit $st: $(cat "$E2E_TMP/err")"
            fi
            keep "$ev.r$r.pair"
            grep '^  table ' "$E2E_TMP/out" | awk '{ print $2 }' >"$E2E_TMP/tables.$ev.$r"
            [ -s "$E2E_TMP/tables.$ev.$r" ] || fail "$ev round $r: no tables"
            cap 0 "$ev.r$r.round-show" round show "$ev"
            live 0 round publish "$ev"
            live 0 clock start "$ev"
            wait_until 60 all_acked "$ev" "$r" ||
                fail "$ev round $r: not every table's result acknowledged"
            cap 0 "$ev.r$r.result-show" result show "$ev" "$r"
            live 0 round close "$ev"
            cap 0 "$ev.r$r.standings" standings "$ev"
        done
        timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
        echo "--- exit $?" >>"$E2E_TMP/out"
        cat "$E2E_TMP/err" >>"$E2E_TMP/out"
        keep "$ev.after-last-round.pair"
        cap 0 "$ev.export.json" export "$ev"
        cap 0 "$ev.export.csv" export "$ev" --csv
        cap 0 "$ev.standings" standings "$ev"
        cap 0 "$ev.standings.json" standings "$ev" --json
        cap 0 "$ev.standings.csv" standings "$ev" --csv
        cap 0 "$ev.result-show.r1.t1" result show "$ev" 1 --table 1
        cap 0 "$ev.lots" lots "$ev"
        cap 0 "$ev.players-list" players list "$ev"
        cap 0 "$ev.log" log "$ev"
        ok "$format: $((r - 1)) rounds"
    }

    play nh neuroshima-hex '{"swiss_rounds": 2, "cut": 4}' 8
    play tx tantrix '{"swiss_rounds": 3}' 8
    play ag agricola '{}' 8
    play gt got-lcg2 '{"structure": "custom", "swiss_rounds": 2, "cut": 4}' 8
    play ct catan '{"rounds": 2}' 8
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        for EV in nh tx ag gt ct; do
            u=$(unacked "$d")
            [ -z "$u" ] || fail "$d: never acknowledged: $u"
        done
    done
    cap 0 "events" event list
    # The feed: every retained document (-W: stop after 3 s of silence).
    auth_args watch
    mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" "${AUTH[@]}" -V mqttv5 \
        -t 'tourney/v1/feed/#' -v --retained-only -W 3 >"$E2E_TMP/feed" 2>"$E2E_TMP/feed.err"
    sort "$E2E_TMP/feed" >"$LOUT/feed"
    [ -s "$LOUT/feed" ] || fail "no retained feed documents: $(cat "$E2E_TMP/feed.err")"
    kill -TERM "$HUB_PID"
    wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
    e2e_done
fi

# ---- the comparison ----------------------------------------------------------

QUIET=0
DO_OFFLINE=1
DO_LIVE=1
while [ $# -gt 0 ]; do
    case $1 in
    -q) QUIET=1 ;;
    --offline-only) DO_LIVE=0 ;;
    --live-only) DO_OFFLINE=0 ;;
    -h | --help)
        sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "compare_outputs.sh: unknown option $1" >&2
        exit 2
        ;;
    *) break ;;
    esac
    shift
done
if [ $# -ne 2 ]; then
    echo "usage: bench/compare_outputs.sh [-q] [--offline-only|--live-only] OLD_BUILD_DIR NEW_BUILD_DIR" >&2
    exit 2
fi
declare -A BUILD
BUILD[old]=$(cd -- "$1" && pwd -P) || exit 2
BUILD[new]=$(cd -- "$2" && pwd -P) || exit 2
for side in old new; do
    for p in tourney tourney-hub tourney-table; do
        [ -n "$(find_bin "${BUILD[$side]}" $p)" ] || {
            echo "compare_outputs.sh: no $p in ${BUILD[$side]}" >&2
            exit 2
        }
    done
done
OUT=${COMPARE_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/tny-compare.XXXXXX")}
mkdir -p "$OUT"
echo "outputs in $OUT"

# run SIDE NAME ARGS...: `tourney ARGS` of that build, in $OUT/work.SIDE,
# as offline/NAME: stdout, then stderr and the exit status.
run() {
    local side=$1 name=$2 st
    shift 2
    (cd "$OUT/work.$side" && timeout 120 "$T" "$@" >"$OUT/o.$side" 2>"$OUT/e.$side")
    st=$?
    {
        cat "$OUT/o.$side"
        echo "--- stderr"
        cat "$OUT/e.$side"
        echo "--- exit $st"
    } >"$OUT/$side/offline/$name"
}

# offline SIDE: every offline output of that build.
offline() {
    local side=$1 f b fmt kind what
    T=$(find_bin "${BUILD[$side]}" tourney)
    mkdir -p "$OUT/$side/offline" "$OUT/work.$side"
    run "$side" help --help
    run "$side" live-help live --help
    run "$side" print-help print --help
    run "$side" demo-help demo --help
    run "$side" formats formats
    for fmt in $("$T" formats) $("$(find_bin "${BUILD[old]}" tourney)" formats); do
        [ -e "$OUT/$side/offline/format.$fmt" ] || run "$side" "format.$fmt" format "$fmt"
    done
    run "$side" format.unknown format no-such-format
    local events=("$SRC"/tests/cases/*.json "$SRC"/tests/cases/bad/*.json
        "$SRC"/tests/cases/ratings/*.json "$SRC"/tests/fuzz/event/*)
    [ -z "$SHARED" ] || events+=("$SHARED"/data/external/tom/*.event.json)
    for f in "${events[@]}"; do
        b=${f#"$SRC"/}
        b=${b#"$SHARED"/}
        b=${b//\//_}
        run "$side" "$b.standings" standings "$f"
        run "$side" "$b.standings-csv" --csv standings "$f"
        run "$side" "$b.results" results "$f"
        run "$side" "$b.pair" pair "$f"
        run "$side" "$b.pair-explain" --explain pair "$f"
        run "$side" "$b.lots" lots "$f"
        run "$side" "$b.boards" boards "$f"
        run "$side" "$b.export-listfortress" export listfortress "$f"
        run "$side" "$b.export-nrtm" export nrtm "$f"
        for what in pairings slips standings final; do
            run "$side" "$b.print-$what" print "$what" "$f"
        done
    done
    run "$side" ratings ratings "$SRC"/tests/cases/ratings/event1.json "$SRC"/tests/cases/ratings/event2.json
    local imports=()
    for f in "$SRC"/tests/fuzz/import_cryodex/*; do imports+=("cryodex:$f"); done
    for f in "$SRC"/tests/fuzz/import_nrtm/*; do imports+=("nrtm:$f"); done
    for f in "$SRC"/tests/fuzz/import_listfortress/*; do imports+=("listfortress:$f"); done
    if [ -n "$SHARED" ]; then
        for f in "$SHARED"/data/external/listfortress/*.json; do imports+=("listfortress:$f"); done
    fi
    for f in "${imports[@]}"; do
        kind=${f%%:*}
        f=${f#*:}
        b=${f#"$SRC"/}
        b=${b#"$SHARED"/}
        b=${b//\//_}
        run "$side" "$b.import-$kind" import "$kind" "$f"
        sed '/^--- stderr$/,$d' "$OUT/$side/offline/$b.import-$kind" >"$OUT/work.$side/imported.json"
        if grep -q -x -- '--- exit 0' "$OUT/$side/offline/$b.import-$kind"; then
            run "$side" "$b.import-$kind.standings" standings imported.json
            run "$side" "$b.import-$kind.export-listfortress" export listfortress imported.json
            run "$side" "$b.import-$kind.export-nrtm" export nrtm imported.json
        fi
    done
    for fmt in $("$T" formats); do
        run "$side" "demo.$fmt" demo --format "$fmt" --players 10 --seed 4242 --out demo.json
        cp "$OUT/work.$side/demo.json" "$OUT/$side/offline/demo.$fmt.json" 2>/dev/null
        run "$side" "demo.$fmt.standings" standings demo.json
    done
}

# mask_live FILE: the masking the header describes, in place.
mask_live() {
    sed -E -i \
        -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?Z?)?/<TIME>/g' \
        -e 's/("[A-Za-z_]*(_ms|_at)"|"at"|"time"|"ts"): *-?[0-9]+/\1: <CLOCK>/g' \
        -e 's/(table-[0-9]{3})\.[0-9]+\.([0-9]+)/\1.<BOOT>.\2/g' \
        "$1"
}

declare -A LIVE_OK
# live SIDE: the live outputs of that build (the child process above).
live_side() {
    local side=$1 f
    mkdir -p "$OUT/$side/live"
    if ! bash "$0" --live-run "${BUILD[$side]}" "$OUT/$side/live" >"$OUT/live.$side.log" 2>&1; then
        echo "live run of the $side build failed: $(tail -n 15 "$OUT/live.$side.log")" >&2
        LIVE_OK[$side]=0
        return
    fi
    LIVE_OK[$side]=1
    for f in "$OUT/$side/live"/*; do
        mask_live "$f"
    done
}

[ $DO_OFFLINE = 0 ] || for side in old new; do offline $side; done
if [ $DO_LIVE = 1 ]; then
    for side in old new; do live_side $side; done
    [ "${LIVE_OK[old]}" = 1 ] && [ "${LIVE_OK[new]}" = 1 ] || exit 2
fi

n_same=0
n_diff=0
while read -r name; do
    a=$OUT/old/$name
    b=$OUT/new/$name
    if [ -f "$a" ] && [ -f "$b" ] && cmp -s "$a" "$b"; then
        n_same=$((n_same + 1))
        [ $QUIET = 1 ] || echo "same $name"
    else
        n_diff=$((n_diff + 1))
        echo "DIFFERENT $name"
        if [ ! -f "$a" ] || [ ! -f "$b" ]; then
            echo "    only in the $([ -f "$a" ] && echo old || echo new) build's outputs"
        else
            diff "$a" "$b" | head -n 8 | sed 's/^/    /'
        fi
    fi
done < <(cd "$OUT" && { find old new -type f | sed -E 's#^(old|new)/##'; } | sort -u)
echo "compared $((n_same + n_diff)) outputs: $n_same same, $n_diff different (outputs in $OUT)"
[ $n_diff -eq 0 ]
