#!/usr/bin/env bash
# test_play_event.sh - issue 20, "Done when": a whole event of each of the
# five games runs with no Pi at all, the players reporting from phones
# (play.html in separate Chromium browser contexts, one per table, signed
# in with the table's code and kept for the whole event), through to the
# final standings, with the same export as the same event played by Pi
# tables (four real headless `tourney-table` devices, table-001..004).
#
# Per game, two events on one hub with the same format, options, seed and
# players (accented, CJK and long names): GAMEw (phones) and GAMEp (Pi
# tables).  Every round: both are paired (their drafts must be the same
# tables and seats: same seed, same results so far), published, the clock
# started; each table's result is a function of the round, table and
# seats (a draw in Neuroshima Hex's first round, a modified win and a best
# of three in A Game of Thrones' elimination, every seat's VP, IP and BP
# in Agricola, ...); the Pi devices get it on their line protocol
# (`result {JSON}`, every player `confirm`s), the phones in the form the
# page built from the engine's result schema (every player taps their
# name), and both must see it acknowledged; then both rounds close.
# "stage next" when the hub refuses to pair (a cut), until the event is
# finished ("Final standings").  Then the two exports (`tourney live
# export`: format, seed, title, players, every round's tables and results)
# must be the same byte for byte, and the hub must have accepted every
# result of GAMEw from a phone (web-N) and every one of GAMEp from a Pi.
# Round 1's forms, filled in, and confirm screens are checked for their
# layout at 390x844 and 360x640, light and dark (play_event.js: nothing
# wider than the phone, no name cut; the screenshots in $E2E_TMP/shots,
# kept with E2E_KEEP=1).
#
# Skips (exit 77) without node, chromium or deploy/overlays/install.sh's
# npm packages (deploy/test.sh installs all three).
#
# usage: bash test_play_event.sh SOURCE_DIR BUILD_DIR
# lib.sh's watchdog (default 120 s): ten events, 96 tables, about 5 min
# on an idle 2-core machine (ctest's limit: 1000 s, tests/CMakeLists.txt).
E2E_TIMEOUT=${E2E_TIMEOUT:-900}
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

e2e_init "$@"
# broker with the table-page listener and N_DEV devices, the pages, the
# hub (lib.sh)
N_DEV=4
play_setup --tables $N_DEV

# The Pi tables: headless tourney-table devices on the line protocol.
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    hl_conf "$d"
    hl_start "$d" "$TABLE"
done
for ((i = 1; i <= N_DEV; i++)); do
    hl_expect "$(printf 'table-%03d' "$i")" 'net online queued=0' 20
done

# The phones: one Chromium, commands on a FIFO (play_event.js).
mkdir -p "$E2E_TMP/shots"
mkfifo "$E2E_TMP/phones.in"
: >"$E2E_TMP/phones.out"
node "$E2E_SRC/tests/e2e/play_event.js" --overlays "$OVL" --base "http://$BROKER_HOST:$TWS" \
    --chromium "$CHROMIUM" --shots "$E2E_TMP/shots" <"$E2E_TMP/phones.in" >"$E2E_TMP/phones.out" 2>&1 &
PHONES_PID=$!
e2e_track "$PHONES_PID"
exec {PHONES_FD}>"$E2E_TMP/phones.in"
ok "hub, $N_DEV Pi tables (headless tourney-table) and the phones' browser up"

NAMES=("Zbigniew Brzęczyszczykiewicz-Wojciechowski" "Jan Šebesta" "Zoë Ångström" "Ōta Hiroshi"
    "Ñúñez Ruiz" "李小龍" "Szőke Ödön" "NGUYỄN Thị Minh Khai")

# results ROUND_JSON FORMAT ROUND BO3: [{table, seats, result}] for every
# table with players: the result is a function of the round, the table
# and the seats, so both events get the same ones; BO3 (true/false): the
# round is a best of three (GT-9: each game's winner).
results() {
    jq --arg fmt "$2" --argjson r "$3" '
        [.tables[] | select(.bye != true) | .table as $t | [.players[]] as $s | ($s | length) as $n
         | {table: $t, seats: $s, result: (
            if $fmt == "neuroshima-hex" then
                (if $r == 1 and $t == 2 then {draw: true}
                 else {winner: $s[($r + $t) % 2], hq_diff: (($r * 3 + $t) % 9 + 1)} end)
            elif $fmt == "tantrix" then
                {scores: {($s[0]): (100 + 7 * $t + $r), ($s[1]): (80 + 13 * $r + 2 * $t + (if 100 + 7 * $t + $r == 80 + 13 * $r + 2 * $t then 1 else 0 end))}}
            elif $fmt == "agricola" then
                {vp: ([range($n)] | map({key: $s[.], value: (20 + 3 * ((. + $r + $t) % $n))}) | from_entries),
                 ip: ([range($n)] | map({key: $s[.], value: (. + $r)}) | from_entries),
                 bp: ([range($n)] | map({key: $s[.], value: (($t + .) % 3 - 1)}) | from_entries)}
            elif $fmt == "catan" then
                {vp: ([range($n)] | map({key: $s[.], value: (10 - 2 * ((. + $r + $t) % $n))}) | from_entries)}
            elif $fmt == "got-lcg2" then
                (if ($bo3 // false) then {games: [$s[($r + $t) % 2], $s[($r + $t + 1) % 2], $s[($r + $t) % 2]]}
                 elif $t == 1 then {winner: $s[($r + $t) % 2], modified: true}
                 else {winner: $s[($r + $t) % 2]} end)
            else error("no results for " + $fmt) end)}]' \
        --argjson bo3 "$4" "$1"
}

# pi_play EVENT ROUND FILE: the Pi tables enter FILE's results (each
# device at its table) and every player confirms; waits for each ack.
pi_play() {
    local ev=$1 r=$2 n i t d res seats p
    n=$(jq length "$3")
    for ((i = 0; i < n; i++)); do
        t=$(jq -r ".[$i].table" "$3")
        d=$(printf 'table-%03d' "$t")
        wait_until 30 grep -q "^assigned event=$ev round=$r table=$t " "$E2E_TMP/$d.out" ||
            fail "$ev round $r: $d not assigned to table $t; $(hl_tail "$d")"
        wait_until 30 table_playing "$d" "$ev" "$r" "$t" ||
            fail "$ev round $r table $t: $d is not playing; $(hl_tail "$d")"
        res=$(jq -c ".[$i].result" "$3")
        seats=$(jq -r ".[$i].seats[]" "$3")
        hl_say "$d" "result $res"
        for p in $seats; do
            hl_say "$d" "confirm $p"
        done
    done
    for ((i = 0; i < n; i++)); do
        t=$(jq -r ".[$i].table" "$3")
        d=$(printf 'table-%03d' "$t")
        wait_until 30 table_done "$d" "$ev" "$r" "$t" ||
            fail "$ev round $r table $t: $d did not finish: $(hl_tail "$d")"
    done
}

# table_playing DEVICE EVENT ROUND TABLE: the device's last state after
# its assignment to that table of that round is "playing".
table_playing() {
    awk -v want="assigned event=$2 round=$3 table=$4 " '
        index($0, want) == 1 { seen = 1; st = ""; next }
        /^assigned / { seen = 0; next }
        seen && /^state / { st = $2 }
        END { exit st != "playing" }' "$E2E_TMP/$1.out"
}

# table_done DEVICE EVENT ROUND TABLE: the device's answer after its
# assignment to that table of that round was "ack accepted".
table_done() {
    awk -v want="assigned event=$2 round=$3 table=$4 " '
        index($0, want) == 1 { seen = 1; done = 0; next }
        /^assigned / { seen = 0; next }
        seen && /^ack accepted key=/ { done = 1 }
        seen && /^ack (rejected|conflict|pending_confirmation)/ { print; exit 2 }
        END { exit !done }' "$E2E_TMP/$1.out"
}

# phones_play FILE: the phones enter FILE's results (play_event.js).
phones_play() {
    printf 'play %s\n' "$1" >&"$PHONES_FD"
    wait_until 120 grep -q -x -F -e "DONE $1" -e "FAIL" "$E2E_TMP/phones.out"
    grep -q -x -F "DONE $1" "$E2E_TMP/phones.out" ||
        fail "the phones: $(grep -v '^STORED' "$E2E_TMP/phones.out" | tail -n 5)"
}

# pair EVENT: the next round's draft, through "stage next" at the end of
# a stage; status 1 when the event is over.
pair() {
    timeout 90 "$TOURNEY" live round pair "$1" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err" && return 0
    [ $? -eq 3 ] || fail "$1: round pair: $(cat "$E2E_TMP/err")"
    timeout 90 "$TOURNEY" live stage next "$1" --confirm >"$E2E_TMP/out" 2>"$E2E_TMP/err" || return 1
    timeout 90 "$TOURNEY" live round pair "$1" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err" ||
        fail "$1: round pair after stage next: $(cat "$E2E_TMP/err")"
}

# game ID FORMAT OPTIONS N: the whole event twice, IDw by phones and IDp
# by Pi tables; their exports compared.
game() {
    local g=$1 fmt=$2 opts=$3 np=$4 ev i r t pw n bo3
    local evw=${g}w evp=${g}p
    for ev in "$evw" "$evp"; do
        live 0 event create "$ev" --format "$fmt" --title "$fmt — Kraków 2026" --seed 20 --options "$opts"
        {
            echo 'id,name'
            for ((i = 1; i <= np; i++)); do echo "p$i,${NAMES[$(((i - 1) % 8))]}"; done
        } >"$E2E_TMP/$g.csv"
        live 0 players import "$ev" "$E2E_TMP/$g.csv"
    done
    live 0 export "$evw"
    cp "$E2E_TMP/out" "$E2E_TMP/$g.format"
    for ((t = 1; t <= N_DEV; t++)); do
        live 0 device assign "$(printf 'table-%03d' "$t")" "$evp" "$t"
        live 0 --json code issue "$evw" "$t"
        jq -r .code "$E2E_TMP/out" >"$E2E_TMP/$evw.code.$t"
    done
    for ((r = 1; r <= 20; r++)); do
        pair "$evw" || break
        pw=$(cat "$E2E_TMP/pair.out")
        pair "$evp" || fail "$evp is over after $((r - 1)) rounds, $evw is not"
        live 0 --json round show "$evw"
        cp "$E2E_TMP/out" "$E2E_TMP/$evw.round.$r"
        live 0 --json round show "$evp"
        cp "$E2E_TMP/out" "$E2E_TMP/$evp.round.$r"
        [ "$(jq -c '[.tables[] | {table, players, bye}]' "$E2E_TMP/$evw.round.$r")" = \
            "$(jq -c '[.tables[] | {table, players, bye}]' "$E2E_TMP/$evp.round.$r")" ] ||
            fail "$g round $r: the drafts differ: phones $(head -c 400 "$E2E_TMP/$evw.round.$r"), Pi $(head -c 400 "$E2E_TMP/$evp.round.$r")"
        [ "$(jq '[.tables[] | select(.bye != true) | .table] | max' "$E2E_TMP/$evw.round.$r")" -le $N_DEV ] ||
            fail "$g round $r: more tables than devices: $pw"
        for ev in "$evw" "$evp"; do
            live 0 round publish "$ev"
            live 0 clock start "$ev"
        done
        bo3=$(jq --slurpfile x "$E2E_TMP/$g.format" '.stage == "elimination" and
            ($x[0].format.stages | map(select(.kind == "elimination") | .best_of_three) | any)' "$E2E_TMP/$evw.round.$r")
        results "$E2E_TMP/$evw.round.$r" "$fmt" "$r" "$bo3" >"$E2E_TMP/$g.res.$r" ||
            fail "$g round $r: no results"
        jq --arg ev "$evw" --argjson r "$r" --arg dir "$E2E_TMP/$evw.code." \
            'map(. + {event: $ev, round: $r, code_file: ($dir + (.table | tostring))})' \
            "$E2E_TMP/$g.res.$r" >"$E2E_TMP/$g.phones.tmp"
        # the codes into the file (jq cannot read files by name)
        : >"$E2E_TMP/$g.phones.$r"
        jq -c '.[]' "$E2E_TMP/$g.phones.tmp" | while read -r row; do
            f=$(jq -r .code_file <<<"$row")
            jq -c --arg c "$(cat "$f")" '. + {code: $c} | del(.code_file)' <<<"$row"
        done | jq -s . >"$E2E_TMP/$g.phones.$r"
        phones_play "$E2E_TMP/$g.phones.$r"
        pi_play "$evp" "$r" "$E2E_TMP/$g.res.$r"
        for ev in "$evw" "$evp"; do
            live 0 round close "$ev"
        done
    done
    [ "$r" -gt 2 ] || fail "$g: only $((r - 1)) rounds played"
    pair "$evp" && fail "$evp pairs round $r, $evw was over"

    for ev in "$evw" "$evp"; do
        live 0 standings "$ev"
        grep -q 'Final standings' "$E2E_TMP/out" || fail "$ev: not finished: $(head -c 300 "$E2E_TMP/out")"
        live 0 export "$ev"
        cp "$E2E_TMP/out" "$E2E_TMP/$ev.export"
    done
    cmp -s "$E2E_TMP/$evw.export" "$E2E_TMP/$evp.export" ||
        fail "$g: the phones' export differs from the Pi tables': $(diff "$E2E_TMP/$evp.export" "$E2E_TMP/$evw.export" | head -n 40)"
    # every result of GAMEw came from a phone (web-N), every one of GAMEp
    # from a Pi (table-NNN): one acceptance per table played
    n=$(cat "$E2E_TMP/$g.res."* | jq -s 'map(length) | add')
    [ "$(grep -c -E "^info: result accepted device=web-[0-9]+ key=[^ ]+ event=$evw " "$E2E_TMP/hub.log")" -eq "$n" ] &&
        [ "$(grep -c -E "^info: result accepted device=[^ ]+ key=[^ ]+ event=$evw " "$E2E_TMP/hub.log")" -eq "$n" ] ||
        fail "$evw: not $n results accepted from phones: $(grep "event=$evw " "$E2E_TMP/hub.log" | grep accepted | head -n 5)"
    [ "$(grep -c -E "^info: result accepted device=table-[0-9]+ key=[^ ]+ event=$evp " "$E2E_TMP/hub.log")" -eq "$n" ] &&
        [ "$(grep -c -E "^info: result accepted device=[^ ]+ key=[^ ]+ event=$evp " "$E2E_TMP/hub.log")" -eq "$n" ] ||
        fail "$evp: not $n results accepted from Pi tables"
    ok "$fmt: $((r - 1)) rounds, $n tables by phones (web-N), the same by Pi tables: finished, the exports byte for byte the same"
}

# PLAY_EVENT_GAMES="nh tx": only these (a quicker run while working).
for g in ${PLAY_EVENT_GAMES:-nh tx ag gt ct}; do
    case $g in
    nh) game nh neuroshima-hex '{"swiss_rounds": 2, "cut": 4}' 8 ;;
    tx) game tx tantrix '{"swiss_rounds": 3}' 8 ;;
    ag) game ag agricola '{}' 8 ;;
    gt) game gt got-lcg2 '{"structure": "custom", "swiss_rounds": 2, "cut": 4}' 8 ;;
    ct) game ct catan '{"rounds": 2}' 8 ;;
    *) fail "PLAY_EVENT_GAMES: unknown game $g" ;;
    esac
done

printf 'quit\n' >&"$PHONES_FD"
exec {PHONES_FD}>&-
wait "$PHONES_PID" || fail "the phones exited with $?: $(tail -n 5 "$E2E_TMP/phones.out")"
for ((i = 1; i <= N_DEV; i++)); do
    hl_quit "$(printf 'table-%03d' "$i")"
done
e2e_done
