#!/usr/bin/env bash
# compare_outputs.sh - the "no behaviour change" check of a refactor (issue
# 12): runs two builds of Tourney on the same inputs and diffs what a user
# sees, output by output.  Not part of the pass/fail test run.
#
# usage: bench/compare_outputs.sh [-q] [--offline-only|--live-only] OLD_BUILD_DIR NEW_BUILD_DIR
#        COMPARE_KEEP=DIR bench/compare_outputs.sh [-q] --again
# (--again: compares the outputs an earlier run kept in DIR again, runs
# nothing: the same lines, groups and summary)
#
# Each build directory must hold tourney, tourney-hub and tourney-table
# (found under hub/ and table-client/, else anywhere below it).  Inputs are
# this checkout's fixtures and tests/data, the same files for both
# builds:
#   offline: `tourney formats`, `tourney format NAME` for every preset,
#     the help texts; for every event file in tests/cases (good, bad,
#     ratings), the event fuzz seeds (tests/fuzz/event) and
#     tests/data/external/tom: standings (JSON and --csv), results,
#     pair (and --explain, whose reasoning is on stderr), lots, boards,
#     export listfortress|nrtm, print pairings|slips|standings|final (HTML,
#     no PDF); `tourney import` of every ListFortress file of
#     tests/data/external/listfortress and of the Cryodex and NRTM
#     samples (tests/fuzz/import_*), with the standings and both exports of
#     each imported event; `tourney demo` of every preset (fixed seed) and
#     the standings of its --out file; `tourney ratings`.  Each output is
#     stdout, stderr and the exit status.  One thing is masked offline
#     (replaced by a fixed token, in the `print` outputs only): the
#     printouts' "printed DATE, HH:MM" (issue 21: the local time the
#     printout was made, in the event's language, e.g. "printed 28
#     November 2026, 21:38", "wydrukowano 28 listopada 2026 r., godz.
#     21:38"), as "&middot; <PRINTED DATE, HH:MM></p>"; the rest of the
#     offline commands depend on their input only (two runs of one build
#     a minute apart give the same outputs).
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
# the order in which processes run rather than on the code (each replaced
# by a fixed token):
#   - wall-clock times: dates and times (YYYY-MM-DD[ HH:MM:SS]) of the
#     log, `result show` and `event list`; the feed's and the log's clock
#     readings (updated_ms, hub_now_ms, confirmed_ms, deadline_ms, the
#     export's x_audit time_ms, and
#     remaining_ms of a running or paused clock: the time the organiser's
#     commands happened to take; a clock not started keeps its
#     remaining_ms);
#   - result ids (`result show`'s "id N", the log's result_id=, kept=,
#     supersedes=, the export's x_audit "kept", `result resolve`'s
#     "result N counts"): the
#     store numbers results in the order they arrive, and a round's
#     simulated tables finish in an order the scheduler decides when two
#     (seeded) game lengths are close; for the same reason the log is
#     compared as the organiser's lines in their order, then the tables'
#     lines sorted (a simulated table plays from the publish, so its result
#     may come before or after the `clock start` that follows, or between
#     other tables' results).
# Everything else is compared byte for byte.
#
# Prints what it masks, one line per compared output ("same NAME" or
# "DIFFERENT NAME" with the first differing lines; -q prints only the
# differences), then the differing outputs grouped by their first
# difference (the first differing old and new lines of diff's first hunk,
# digits replaced by N: outputs that differ for one cause share it; an
# output only one build has, by its kind: the name after its input's
# ".json.", else after its last "."), the largest group first, and a
# summary;
# exit status 0 when everything is the same, 1 on any difference, 2 on a
# usage error or when a build cannot play the live event.  The outputs
# stay in $COMPARE_KEEP (default: a temp dir, printed) for a closer look.
# shellcheck disable=SC1091,SC2034 # (the e2e harness is sourced at run
# time; E2E_NAME, E2E_TIMEOUT, HUB, TABLE are its API)
set -u -o pipefail
export LC_ALL=C

SRC=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)

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
    start_broker --no-ws --tables $((N_DEV + 2)) --organisers o1
    # shellcheck source=../tests/e2e/live_hub.sh
    source "$SRC/tests/e2e/live_hub.sh"
    live_hub_config 'feed = true'
    hub_launch
    live 0 wait-hub --timeout 20
    # shellcheck source=../tests/e2e/sim_tables.sh
    source "$SRC/tests/e2e/sim_tables.sh"
    start_sim_tables "$N_DEV" "400-2000" 1000

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

    # wire_event: what no simulated table sends, as raw protobuf
    # (tests/e2e/pb.sh) from table-005 and table-006 (no client runs
    # for them): event nhw, NH, 4 players.  Round 1: table 1 a draw with
    # hq_diff 0 and the armies played (as a table's NH flow sends it),
    # sent twice (duplicate), then a win over the Dancer cap (NH-2:
    # rejected) and a valid win under new keys (conflict);
    # table 2 a draw without hq_diff; the organiser keeps the draw
    # (`result resolve`).  Round 2: the organiser enters a draw and a win
    # (`result enter`, its keys in another order than the engine's).  The hub's acks are kept as hex
    # (every byte, the stored result of a duplicate or conflict included).
    wire_event() {
        local ev=nhw i k
        # shellcheck source=../tests/e2e/pb.sh
        source "$SRC/tests/e2e/pb.sh"
        cap 0 "$ev.create" event create "$ev" --format neuroshima-hex --title "Wire NH" \
            --seed 78 --options '{"swiss_rounds": 2}'
        printf 'id,name,armies\n' >"$E2E_TMP/$ev.csv"
        for ((i = 1; i <= 4; i++)); do
            echo "$ev-p$i,Player $i,Borgo;Moloch;Outpost;Hegemony;Dancer" >>"$E2E_TMP/$ev.csv"
        done
        cap 0 "$ev.players-import" players import "$ev" "$E2E_TMP/$ev.csv"
        live 0 device assign table-005 "$ev" 1
        live 0 device assign table-006 "$ev" 2
        e2e_sub_start acks watch 'tourney/v1/device/+/ack' -- -F 'MSG %r %t %x'
        cap 0 "$ev.r1.pair" round pair "$ev"
        live 0 round publish "$ev"
        live 0 clock start "$ev"
        # submit DEVICE KEY TABLE RESULT_HEX: a ResultSubmission of round 1
        # confirmed by the table's players; waits for its ack.
        submit() {
            local seats p conf=''
            seats=$(awk -v t="$3" '$1 == "table" && $2 == t { for (i = 3; i <= NF; i++) if ($i ~ /^nhw-p/) print $i }' "$LOUT/$ev.r1.round-show")
            for p in $seats; do conf+=$(pb_s 8 "$p"); done
            pb_write "$E2E_TMP/sub.bin" "$(pb_s 1 "$2")$(pb_s 2 "$1")$(pb_s 3 "$ev")$(pb_i 4 1)$(pb_i 5 "$3")$(pb_i 6 1)$(pb_b 7 "$4")$conf"
            auth_args "$1"
            timeout 10 mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
                "${AUTH[@]}" -t "tourney/v1/device/$1/result" -f "$E2E_TMP/sub.bin" ||
                fail "publish as $1 failed"
            wait_until 15 grep -q "^MSG 0 tourney/v1/device/$1/ack .*$(hex_of "$2")" "$E2E_TMP/acks.out" ||
                fail "no ack for $2"
        }
        cap 0 "$ev.r1.round-show" round show "$ev"
        local s1 s2 a1 a2
        s1=$(awk '$1 == "table" && $2 == 1 { for (i = 3; i <= NF; i++) if ($i ~ /^nhw-p/) print $i }' "$LOUT/$ev.r1.round-show" | head -n 1)
        s2=$(awk '$1 == "table" && $2 == 1 { for (i = 3; i <= NF; i++) if ($i ~ /^nhw-p/) print $i }' "$LOUT/$ev.r1.round-show" | tail -n 1)
        a1=$(pb_b 4 "$(pb_s 1 "$s1")$(pb_s 2 Borgo)")
        a2=$(pb_b 4 "$(pb_s 1 "$s2")$(pb_s 2 Dancer)")
        submit table-005 wire.1.1 1 "$(pb_b 1 "$(pb_i 2 1)$(pb_i 3 0)$a1$a2")"
        submit table-005 wire.1.1 1 "$(pb_b 1 "$(pb_i 2 1)$(pb_i 3 0)$a1$a2")"
        submit table-005 wire.1.2 1 "$(pb_b 1 "$(pb_s 1 "$s1")$(pb_i 3 25)$a1$a2")"
        submit table-005 wire.1.3 1 "$(pb_b 1 "$(pb_s 1 "$s1")$(pb_i 3 7)$a1$a2")"
        submit table-006 wire.2.1 2 "$(pb_b 1 "$(pb_i 2 1)")"
        cap 0 "$ev.r1.result-show" result show "$ev" 1
        cap 0 "$ev.r1.standings" standings "$ev"
        timeout 90 "$TOURNEY" live round close "$ev" >"$E2E_TMP/out" 2>&1
        echo "--- exit $?" >>"$E2E_TMP/out"
        keep "$ev.r1.close-refused"
        # The counted result (the draw, the first one) is kept.
        k=$(awk '$1 == "table" && $2 == 1 && $5 == "counted" { print $4 }' "$LOUT/$ev.r1.result-show")
        cap 0 "$ev.r1.resolve" result resolve "$ev" 1 1 --keep "$k" --reason "the slip says draw"
        cap 0 "$ev.r1.result-show-resolved" result show "$ev" 1
        cap 0 "$ev.r1.close" round close "$ev"
        e2e_sub_stop acks
        sed -n 's/^MSG //p' "$E2E_TMP/acks.out" >"$LOUT/$ev.acks"
        timeout 90 "$TOURNEY" live round pair "$ev" >"$E2E_TMP/out" 2>&1
        echo "--- exit $?" >>"$E2E_TMP/out"
        keep "$ev.r2.pair"
        if grep -q -x -- '--- exit 0' "$LOUT/$ev.r2.pair"; then
            cap 0 "$ev.r2.round-show" round show "$ev"
            live 0 round publish "$ev"
            live 0 clock start "$ev"
            timeout 90 "$TOURNEY" live result enter "$ev" 2 1 '{"draw": true}' >"$E2E_TMP/out" 2>&1
            echo "--- exit $?" >>"$E2E_TMP/out"
            keep "$ev.r2.enter-draw"
            timeout 90 "$TOURNEY" live result enter "$ev" 2 2 "{\"hq_diff\": 5, \"winner\": \"$(awk '$1 == "table" && $2 == 2 { for (i = 3; i <= NF; i++) if ($i ~ /^nhw-p/) { print $i; exit } }' "$LOUT/$ev.r2.round-show")\"}" >"$E2E_TMP/out" 2>&1
            echo "--- exit $?" >>"$E2E_TMP/out"
            keep "$ev.r2.enter-win"
            cap 0 "$ev.r2.result-show" result show "$ev" 2
        fi
        cap 0 "$ev.export.json" export "$ev"
        cap 0 "$ev.export.csv" export "$ev" --csv
        cap 0 "$ev.standings" standings "$ev"
        cap 0 "$ev.log" log "$ev"
        ok "wire event"
    }

    # COMPARE_EVENTS (default: all) picks some, for a quicker look.
    for e in ${COMPARE_EVENTS:-nh tx ag gt ct wire}; do
        case $e in
        nh) play nh neuroshima-hex '{"swiss_rounds": 2, "cut": 4}' 8 ;;
        tx) play tx tantrix '{"swiss_rounds": 3}' 8 ;;
        ag) play ag agricola '{}' 8 ;;
        gt) play gt got-lcg2 '{"structure": "custom", "swiss_rounds": 2, "cut": 4}' 8 ;;
        ct) play ct catan '{"rounds": 2}' 8 ;;
        wire) wire_event ;;
        *) fail "COMPARE_EVENTS: unknown event $e" ;;
        esac
    done
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        for EV in ${COMPARE_EVENTS:-nh tx ag gt ct}; do
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
AGAIN=0
while [ $# -gt 0 ]; do
    case $1 in
    -q) QUIET=1 ;;
    --again) AGAIN=1 ;;
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
if [ $AGAIN = 1 ]; then
    if [ $# -ne 0 ] || [ -z "${COMPARE_KEEP:-}" ] || [ ! -d "$COMPARE_KEEP/old" ] || [ ! -d "$COMPARE_KEEP/new" ]; then
        echo "usage: COMPARE_KEEP=DIR bench/compare_outputs.sh [-q] --again (DIR: an earlier run's outputs, old/ and new/)" >&2
        exit 2
    fi
    DO_OFFLINE=0
    DO_LIVE=0
    set -- "$COMPARE_KEEP" "$COMPARE_KEEP"
elif [ $# -ne 2 ]; then
    echo "usage: bench/compare_outputs.sh [-q] [--offline-only|--live-only] OLD_BUILD_DIR NEW_BUILD_DIR" >&2
    exit 2
fi
declare -A BUILD
BUILD[old]=$(cd -- "$1" && pwd -P) || exit 2
BUILD[new]=$(cd -- "$2" && pwd -P) || exit 2
[ $AGAIN = 1 ] || for side in old new; do
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
    events+=("$SRC"/tests/data/external/tom/*.event.json)
    for f in "${events[@]}"; do
        b=${f#"$SRC"/}
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
            mask_printed "$OUT/$side/offline/$b.print-$what"
        done
    done
    run "$side" ratings ratings "$SRC"/tests/cases/ratings/event1.json "$SRC"/tests/cases/ratings/event2.json
    local imports=()
    for f in "$SRC"/tests/fuzz/import_cryodex/*; do imports+=("cryodex:$f"); done
    for f in "$SRC"/tests/fuzz/import_nrtm/*; do imports+=("nrtm:$f"); done
    for f in "$SRC"/tests/fuzz/import_listfortress/*; do imports+=("listfortress:$f"); done
    for f in "$SRC"/tests/data/external/listfortress/*.json; do imports+=("listfortress:$f"); done
    for f in "${imports[@]}"; do
        kind=${f%%:*}
        f=${f#*:}
        b=${f#"$SRC"/}
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

# mask_printed FILE: the printouts' "printed DATE, HH:MM" (the header), in
# place: the sub line's last part when it holds a year and a time.
mask_printed() {
    sed -E -i \
        -e 's/( &middot; )[^<&]*[0-9]{4}[^<&]*[0-9]{2}:[0-9]{2}<\/p>/\1<PRINTED DATE, HH:MM><\/p>/g' \
        "$1"
}

# mask_live FILE: the masking the header describes, in place.
mask_live() {
    sed -E -i \
        -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2})?/<TIME>/g' \
        -e 's/"(updated_ms|hub_now_ms|confirmed_ms|deadline_ms|time_ms)": *[0-9]+/"\1": <CLOCK>/g' \
        -e 's/("state": *"(running|paused)"[^{}]*"remaining_ms"): *-?[0-9]+/\1: <CLOCK>/g' \
        -e 's/ deadline_ms=[0-9]+/ deadline_ms=<CLOCK>/g' \
        -e 's/(state=(running|paused) .*remaining_ms=)-?[0-9]+/\1<CLOCK>/g' \
        -e 's/(result_id|kept|supersedes)=[1-9][0-9]*/\1=<ID>/g' \
        -e 's/: result [0-9]+ counts$/: result <ID> counts/' \
        -e 's/"kept": *[0-9]+/"kept": <ID>/g' \
        -e 's/^(  table [0-9]+ +id )[0-9]+ +/\1<ID>  /' \
        "$1"
    # The log: the organiser's lines in their order, then the tables'
    # lines (device:...) sorted.
    case $1 in
    *.log)
        {
            grep -v '^<TIME>  device:' "$1"
            echo "--- the tables' lines, sorted"
            grep '^<TIME>  device:' "$1" | sort
        } >"$1.sorted" && mv "$1.sorted" "$1"
        ;;
    esac
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

echo "masked: offline, the printouts' \"printed DATE, HH:MM\"; live, wall-clock dates and times, clock readings (*_ms) of the feed, log and export, result ids, the tables' log lines' order"
[ $DO_OFFLINE = 0 ] || for side in old new; do offline $side; done
if [ $DO_LIVE = 1 ]; then
    for side in old new; do live_side $side; done
fi

# first_diff OLD NEW: the first difference, "OLD_LINE  ->  NEW_LINE" (diff's
# first hunk's first old and new lines, "(none)" for a side it has none
# of; digits replaced by N; where the two lines differ, from 30
# characters before, at most 90 characters each): the group's key.
first_diff() {
    diff -- "$1" "$2" | awk '
        /^[0-9]/ { if (++h > 1) exit; next }
        /^< / && o == "" { o = substr($0, 3) }
        /^> / && n == "" { n = substr($0, 3) }
        END {
            gsub(/[0-9]+/, "N", o); gsub(/[0-9]+/, "N", n)
            i = 1
            while (i <= length(o) && substr(o, i, 1) == substr(n, i, 1)) i++
            i = i > 30 ? i - 30 : 1
            o = o == "" ? "(none)" : (i > 1 ? "..." : "") substr(o, i, 90)
            n = n == "" ? "(none)" : (i > 1 ? "..." : "") substr(n, i, 90)
            print o "  ->  " n
        }'
}

n_same=0
n_diff=0
: >"$OUT/groups"
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
            kind=${name##*.json.}
            [ "$kind" != "$name" ] || kind=${name##*.}
            printf 'only in the %s build: %s\t%s\n' "$([ -f "$a" ] && echo old || echo new)" "$kind" "$name" >>"$OUT/groups"
        else
            diff "$a" "$b" | head -n 8 | sed 's/^/    /'
            printf '%s\t%s\n' "$(first_diff "$a" "$b")" "$name" >>"$OUT/groups"
        fi
    fi
done < <(cd "$OUT" && { find old new -type f | sed -E 's#^(old|new)/##'; } | sort -u)
if [ $n_diff -gt 0 ]; then
    echo "the $n_diff differing outputs by first difference (old  ->  new, digits as N), the largest group first:"
    # one line a group (size, key, up to 3 of its outputs), sorted by size
    awk -F '\t' '{ if (!($1 in n)) order[++k] = $1; n[$1]++; if (n[$1] <= 3) e[$1] = e[$1] "\t" $2 }
        END { for (i = 1; i <= k; i++) print n[order[i]] "\t" order[i] e[order[i]] }' "$OUT/groups" |
        sort -s -t "$(printf '\t')" -k1,1nr | awk -F '\t' '
            { printf "  %d: %s\n", $1, $2; for (i = 3; i <= NF; i++) printf "      e.g. %s\n", $i }'
fi
echo "compared $((n_same + n_diff)) outputs: $n_same same, $n_diff different (outputs in $OUT)"
if [ $DO_LIVE = 1 ] && { [ "${LIVE_OK[old]}" != 1 ] || [ "${LIVE_OK[new]}" != 1 ]; }; then
    echo "the live comparison is incomplete: a build's live run failed (see above)"
    exit 2
fi
[ $n_diff -eq 0 ]
