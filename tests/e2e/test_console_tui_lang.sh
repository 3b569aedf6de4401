#!/usr/bin/env bash
# test_console_tui_lang.sh - issue 21: the dashboard's hall texts in the
# venue's language.  A Czech Catan round (seed 004) against the real hub
# and broker, the dashboard (tmux, 100x32) under LANGUAGE=cs (the locale's
# language; C.UTF-8 is the only locale this machine needs): the round
# line, the clock's words, the grid of tables and the standings are in
# the seed's Czech ("kolo", "stůl", "pořadí"), the points with a decimal
# comma (tied 2nd-3rd share 2.5: "2,5", CT-3), and none of the English
# hall words is left; the organiser's keys stay English.  Then an event
# whose own language is Polish (imported with "language": "pl"): the
# feed's language wins over the locale's.
#
# usage: bash test_console_tui_lang.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"

need_binaries TOURNEY HUB
[ -f "$E2E_BUILD/locale/cs/LC_MESSAGES/tourney.mo" ] || fail "no Czech catalogue in $E2E_BUILD/locale"
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
start_broker --no-ws --tables 1 --organisers o1,o2
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50'
cred o2 >"$E2E_TMP/o2.pw"
hub_launch
# The test's own commands run as o2 (the dashboard is o1).
run() { live 0 --user o2 --password-file "$E2E_TMP/o2.pw" "$@"; }
run wait-hub --timeout 20
run event create ev --format catan --title 'Mistrovství ČR' --seed 7 --options '{"rounds": 2}'
{
    echo 'id,name'
    for i in $(seq 1 16); do echo "p$i,Hráč $i"; done
} >"$E2E_TMP/p.csv"
run players import ev "$E2E_TMP/p.csv"
run round pair ev
run round publish ev

SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT
cat >"$E2E_TMP/pane.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C.UTF-8 LANGUAGE=cs TERM=screen
export TOURNEY_LOCALEDIR='$E2E_BUILD/locale'
unset TOURNEY_PASSWORD
'$TOURNEY' live console ev 2>'$E2E_TMP/console.err'
exec sleep 600
EOF
tm -f /dev/null new-session -d -s tui -x 100 -y 32 "bash '$E2E_TMP/pane.sh'" || fail "tmux new-session"
screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
count_screen() { screen | grep -o -E -- "$1" | wc -l; }
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen:
$(screen)
stderr: $(cat "$E2E_TMP/console.err" 2>/dev/null)"
}
# The hall's part of the screen (above the message line and the keys).
hall() { screen | head -n -3; }
no_english() {
    local hit
    hit=$(hall | grep -o -E 'TABLES|STANDINGS|waiting|playing|confirmed|round [0-9]|stage |event |clock |running|not started|published|closed' | sort -u | tr '\n' ' ')
    [ -z "$hit" ] || fail "$1: English on the hall's part: $hit
$(screen)"
}

expect 20 ' Mistrovství ČR ' "the dashboard"
expect 20 '1\. kolo zveřejněno +fáze Gornův systém +turnaj probíhá' "the round line in Czech"
expect 20 'STOLY \(1\. kolo\): 4' "the grid's heading in Czech"
wait_for 20 '[ "$(count_screen "T[1-4] +čeká")" -eq 4 ]' || fail "4 tables \"čeká\": $(screen)"
expect 10 'hodiny [0-9]+(:[0-9]{2})+ nespuštěno' "the clock not started, in Czech"
expect 10 'POŘADÍ: zatím není dohráno žádné kolo' "no standings yet, in Czech"
# ... and the players under it are not ranked: no place, no points.
expect 10 '^ +Hráč 1 *$' "the players listed without place or points"
screen | grep -E '^ +[0-9]+\. Hráč' && fail "a place before any round: $(screen)"
no_english "before the clock"
ok "dashboard in Czech: $(screen | grep -o -E '1\. kolo zveřejněno.*' | head -n 1)"

run clock start ev
wait_for 20 '[ "$(count_screen "T[1-4] +hraje se")" -eq 4 ]' || fail "4 tables \"hraje se\": $(screen)"
expect 20 'hodiny [0-9]+(:[0-9]{2})+ běží' "the running clock in Czech"
no_english "clock running"
ok "clock started: $(screen | grep -o -E 'hodiny [0-9:]+ běží' | head -n 1), tables \"hraje se\""

# Results: at every table the 2nd and 3rd tie (CT-3: they share 2.5).
run export ev
python3 - "$E2E_TMP/out" >"$E2E_TMP/tables" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
for t in ev["rounds"][0]["tables"]:
    if "table" in t:
        print(t["table"], " ".join(t["players"]))
PY
vps=(10 7 7 4)
while read -r table players; do
    read -r -a ids <<<"$players"
    json='{"vp": {'
    for ((k = 0; k < ${#ids[@]}; k++)); do
        [ $k -eq 0 ] || json+=', '
        json+="\"${ids[$k]}\": ${vps[$k]}"
    done
    json+='}}'
    run result enter ev 1 "$table" "$json"
done <"$E2E_TMP/tables"
wait_for 20 '[ "$(count_screen "T[1-4] +potvrzeno")" -eq 4 ]' || fail "4 tables \"potvrzeno\": $(screen)"
run round close ev
expect 20 'POŘADÍ po 1\. kole' "the standings' heading in Czech"
expect 10 ' [0-9]+\. Hráč [0-9]+ +2,5( |$)' "a tied player's 2,5 points (decimal comma)"
screen | grep -E ' [0-9]+\. Hráč [0-9]+ ' | grep -q -E '[0-9]\.[0-9]' &&
    fail "a decimal point in the standings: $(screen)"
expect 10 'kolo uzavřeno' "the closed round in Czech"
no_english "standings"
# The organiser's keys stay English (the command line's words).
expect 5 'q quit' "the keys"
ok "results and close: $(screen | grep -o -E 'POŘADÍ po 1\. kole') with $(screen | grep -o -E 'Hráč [0-9]+ +2,5' | head -n 1 | tr -s ' ')"

# The event's language (the feed's "language") over the locale's: an
# event imported with "language": "pl" reads Polish on a dashboard whose
# locale says Czech.
"$TOURNEY" demo --format catan --players 8 --seed 3 --out "$E2E_TMP/demo.json" --quiet >/dev/null 2>&1 ||
    fail "tourney demo"
python3 - "$E2E_TMP/demo.json" "$E2E_TMP/ev2.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
ev["rounds"] = []
ev["language"] = "pl"
ev["title"] = "Puchar Polski"
json.dump(ev, open(sys.argv[2], "w"), ensure_ascii=False)
PY
run event import ev2 "$E2E_TMP/ev2.json"
run round pair ev2
run round publish ev2
# The pane's program restarted in place (killing the only session ends
# the tmux server, and a new session could race its exit).
sed -i 's/live console ev /live console ev2 /' "$E2E_TMP/pane.sh"
tm respawn-pane -k -t tui "bash '$E2E_TMP/pane.sh'" || fail "tmux respawn-pane (ev2)"
expect 20 ' Puchar Polski ' "the dashboard of ev2"
expect 20 'runda 1 opublikowana +etap system Gorn +turniej w toku' "the round line in Polish (the event's language)"
expect 10 'STOLIKI \(runda 1\): 2' "the grid's heading in Polish"
wait_for 20 '[ "$(count_screen "T[1-2] +czeka")" -eq 2 ]' || fail "2 tables \"czeka\": $(screen)"
expect 10 'KLASYFIKACJA: żadna runda nie jest jeszcze zakończona' "no standings yet, in Polish"
no_english "the event in Polish"
ok "the event's language over the locale's: $(screen | grep -o -E 'runda 1 opublikowana.*' | head -n 1)"
screen | grep -q 'no catalogue' && fail "a catalogue said missing: $(screen)"

# Without the language's catalogue (a build without its locale/, a
# package without the language) gettext falls back to English silently:
# the dashboard says which language and where it looked.
mkdir -p "$E2E_TMP/no-locale"
sed -i "s|^export TOURNEY_LOCALEDIR=.*|export TOURNEY_LOCALEDIR='$E2E_TMP/no-locale'|" "$E2E_TMP/pane.sh"
tm respawn-pane -k -t tui "bash '$E2E_TMP/pane.sh'" || fail "tmux respawn-pane (no catalogue)"
expect 20 'round 1 published' "the round line in English without the catalogue"
expect 10 "language pl: no catalogue in ${E2E_TMP:0:20}" "the missing catalogue named"
ok "no catalogue: $(screen | grep -o -E 'language pl: no catalogue.*' | head -n 1)"
e2e_done
