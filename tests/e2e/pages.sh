# pages.sh - shared by the tests of the pages in a real browser
# (test_pages.sh: hall, overlays, player page, the feed behind them;
# test_pages_lang.sh: the venue's language, issue 21), which run as two
# ctest entries so that neither nears its time limit on a loaded 2-core
# machine and ctest -j2 runs them side by side.
# Sourced after lib.sh's e2e_init; uses live_hub.sh.

# shellcheck shell=bash disable=SC2034 # (variables are the API)

# pages_setup: need_browser (lib.sh), and fails without
# deploy/overlays/install.sh's vendor files; the pages' words from
# today's po/tourney-pages (po2js.mjs, as install.sh does); need_binaries TOURNEY HUB TABLE; the venue broker
# (3 tables, organiser o1) and the feed broker, which also serves the
# pages over HTTP at $BASE (checked); tourney-hub with its feed on,
# online (live_hub.sh).  Sets OVL, CHECK, CHROMIUM, BASE, N_DEV, SHOTS
# (the screenshots' directory, in the test's temp dir).
pages_setup() {
    need_browser
    CHECK=$E2E_SRC/tests/e2e/pages_check.js
    [ -s "$OVL/vendor/mqtt.min.js" ] && [ -s "$OVL/vendor/qrcode.js" ] ||
        fail "deploy/overlays/install.sh did not finish: no vendor/mqtt.min.js or vendor/qrcode.js"
    node "$OVL/po2js.mjs" >"$E2E_TMP/po2js.out" 2>&1 || fail "po2js.mjs: $(cat "$E2E_TMP/po2js.out")"

    need_binaries TOURNEY HUB TABLE
    N_DEV=3
    start_broker --tables $N_DEV --organisers o1 --http-dir "$OVL"
    source "$E2E_SRC/tests/e2e/live_hub.sh"
    live_hub_config 'feed = true' 'feed_interval_ms = 100'
    hub_launch
    live 0 wait-hub --timeout 20
    BASE=http://$BROKER_HOST:$BROKER_WS_PORT
    curl -fsS "$BASE/hall.html" | grep -q 'TourneyPagesLive.hall' ||
        fail "the feed broker does not serve $OVL over HTTP ($BASE/hall.html)"
    ok "feed broker serves the pages at $BASE/"
    SHOTS=$E2E_TMP/shots
    mkdir -p "$SHOTS"
}

# pages_event_small: event "small", a Game of Thrones event with 8
# players (accented names) and their factions (GT-14); SMALL: the names
# of s1..s8.
pages_event_small() {
    local i
    local factions=(Stark Lannister Baratheon Greyjoy Martell Targaryen Tyrell "Night's Watch")
    SMALL=("Jan Šebesta" "Eva Malá" "Ola Berg" "Li Wei" "Sam Tarly" "Ana Díaz" "Bo Kim" "Max Roth")
    live 0 event create small --format got-lcg2 --title 'Thrones Cup' --seed 6
    for i in 1 2 3 4 5 6 7 8; do
        live 0 player add small "s$i" "${SMALL[$((i - 1))]}" --faction "${factions[$((i - 1))]}"
    done
}

# pages_round_one EVENT: round 1 of EVENT paired, published, its clock
# running; the seats of `round show` appended to $E2E_TMP/expect.tsv
# (event, player id, table, seat; a bye: table and seat 0), its output
# kept in $E2E_TMP/pairs.EVENT.
pages_round_one() {
    local ev=$1
    live 0 round pair "$ev"
    live 0 round show "$ev"
    awk -v ev="$ev" '$1 == "table" { n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^[a-z][0-9]+$/) print ev "\t" $i "\t" $2 "\t" ++n }
                     $1 == "bye" { print ev "\t" $2 "\t0\t0" }' "$E2E_TMP/out" >>"$E2E_TMP/expect.tsv"
    cp "$E2E_TMP/out" "$E2E_TMP/pairs.$ev"
    live 0 round publish "$ev"
    live 0 clock start "$ev"
}
