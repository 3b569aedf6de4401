#!/usr/bin/env bash
# test_locale_build_tree.sh - a Polish event is Polish from a checkout
# (po/README.md): the programs of a build tree read the catalogues of that
# tree (BUILD/locale, next to BUILD/hub and BUILD/table-client) without
# TOURNEY_LOCALEDIR; TOURNEY_LOCALEDIR still comes first; and a program
# that finds no catalogue for the language says so once, naming where it
# looked ("language pl: no catalogue in DIR; showing English"), instead of
# showing English silently.
#
# usage: bash test_locale_build_tree.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

need_binaries TOURNEY TABLE
[ -f "$E2E_BUILD/locale/pl/LC_MESSAGES/tourney.mo" ] ||
    fail "no $E2E_BUILD/locale/pl/LC_MESSAGES/tourney.mo (the build compiles po/tourney/)"
unset TOURNEY_LOCALEDIR LANGUAGE
EV=$E2E_SRC/tests/cases/nh-swiss.json

# --- the build tree's own catalogues, no variable ------------------------------
"$TOURNEY" print standings "$EV" --lang pl >"$E2E_TMP/pl.html" 2>"$E2E_TMP/pl.err" ||
    fail "tourney print standings --lang pl: $(cat "$E2E_TMP/pl.err")"
grep -q 'Klasyfikacja' "$E2E_TMP/pl.html" ||
    fail "not Polish from the build tree: $(grep -o '<title>[^<]*' "$E2E_TMP/pl.html")"
[ ! -s "$E2E_TMP/pl.err" ] || fail "a warning although the catalogue is there: $(cat "$E2E_TMP/pl.err")"
ok "build/hub/tourney prints Polish from build/locale without TOURNEY_LOCALEDIR"

# --- a copy without a locale/ beside it: English, said once ---------------------
mkdir -p "$E2E_TMP/copy/bin"
cp "$TOURNEY" "$TABLE" "$E2E_TMP/copy/bin/"
"$E2E_TMP/copy/bin/tourney" print standings "$EV" --lang pl >"$E2E_TMP/en.html" 2>"$E2E_TMP/en.err" ||
    fail "copy: tourney print standings --lang pl: $(cat "$E2E_TMP/en.err")"
grep -q -E '^tourney: language pl: no catalogue in /[^ ]*; showing English$' "$E2E_TMP/en.err" &&
    [ "$(wc -l <"$E2E_TMP/en.err")" -eq 1 ] ||
    fail "no catalogue: stderr is not the one line saying so: $(cat "$E2E_TMP/en.err")"
grep -q 'Standings' "$E2E_TMP/en.html" || fail "no catalogue: not English"
ok "no catalogue: $(cat "$E2E_TMP/en.err")"

# --- TOURNEY_LOCALEDIR first ------------------------------------------------------
TOURNEY_LOCALEDIR=$E2E_TMP/nowhere "$TOURNEY" print standings "$EV" --lang pl \
    >"$E2E_TMP/nw.html" 2>"$E2E_TMP/nw.err" || fail "TOURNEY_LOCALEDIR=nowhere: $(cat "$E2E_TMP/nw.err")"
grep -q -F "language pl: no catalogue in $E2E_TMP/nowhere; showing English" "$E2E_TMP/nw.err" ||
    fail "TOURNEY_LOCALEDIR is not looked in first: $(cat "$E2E_TMP/nw.err")"
ok "TOURNEY_LOCALEDIR comes before the build tree's locale/"

# --- the table client: its log says so once; from the build tree it does not ----
cat >"$E2E_TMP/t.conf" <<EOF
device_id = "table-001"
mqtt_password = "x"
broker_uri = "tcp://127.0.0.1:1"
outbox = "$E2E_TMP/t.db"
simulate = true
language = "pl"
EOF
# run_table BINARY OUT: until it says it started, then TERM
run_table() {
    "$1" --config "$E2E_TMP/t.conf" >/dev/null 2>"$2" </dev/null &
    local pid=$!
    e2e_track "$pid"
    wait_until 20 grep -q 'info: started' "$2" || fail "$1 did not start: $(cat "$2")"
    kill_wait "$pid"
}
run_table "$E2E_TMP/copy/bin/tourney-table" "$E2E_TMP/t1.err"
[ "$(grep -c 'warn: language pl: no catalogue in /[^ ]*; showing English' "$E2E_TMP/t1.err")" -eq 1 ] ||
    fail "table without a catalogue: $(cat "$E2E_TMP/t1.err")"
run_table "$TABLE" "$E2E_TMP/t2.err"
grep -q 'info: language pl' "$E2E_TMP/t2.err" && ! grep -q 'no catalogue' "$E2E_TMP/t2.err" ||
    fail "table from the build tree: $(cat "$E2E_TMP/t2.err")"
ok "the table client: Polish from the build tree, a warning once without a catalogue"
e2e_done
