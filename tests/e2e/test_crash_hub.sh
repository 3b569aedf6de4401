#!/usr/bin/env bash
# test_crash_hub.sh - the hub killed with SIGKILL while results flow.
#
# A Catan event (16 players, 3 rounds, 4 tables) played by four
# tourney-table devices in --simulate mode through the real tourney-hub
# and mosquitto, driven by `tourney live`.  In every round, while the
# tables submit, the hub is killed with SIGKILL three times at seeded
# random moments (after a random number of the round's submissions went
# out, plus a random few ms) and restarted on the same database.
#
# Checked, as the protocol promises (docs/protocol.md, "Idempotency and
# acknowledgement", rule 5: nothing acknowledged is ever lost):
# - every submission a table saw acknowledged (`ack accepted|duplicate
#   key=K` after `result pending key=K`) belongs to a table whose result is
#   in the exported event file;
# - no result counts twice: in the export every round has each table
#   number exactly once, each with a result, and every player once;
# - every submission gets its ack eventually, every round closes and the
#   event completes (the hub refuses to pair past it);
# - the hub's final standings (`tourney live standings --json`) equal
#   `tourney standings` on the export, byte for byte.
# Simulated results are random, so the standings are not compared with a
# run without kills: the checks are internal consistency.
#
# Reproducible: $RANDOM is seeded with $CRASH_SEED (default 20261122)
# after the broker is up; the tables have fixed seeds.  Timing (the
# scheduler) still varies between runs.  The only sleeps are the random
# kill moments themselves; every wait is bounded (wait_for/wait_until).
#
# usage: bash test_crash_hub.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-400}
e2e_init "$@"

TOURNEY=$E2E_BUILD/hub/tourney
HUB=$E2E_BUILD/hub/tourney-hub
TABLE=$E2E_BUILD/table-client/tourney-table
for b in "$TOURNEY" "$HUB" "$TABLE"; do
    [ -x "$b" ] || fail "$b not built"
done
export XDG_CONFIG_HOME=$E2E_TMP/xdg HOME=$E2E_TMP/home
unset TOURNEY_PASSWORD
mkdir -p "$XDG_CONFIG_HOME/tourney" "$HOME"
N_DEV=4
N_PLAYERS=16
N_ROUNDS=3
KILLS_PER_ROUND=3
EV=ct

start_broker --no-ws --tables $N_DEV --organisers o1
RANDOM=${CRASH_SEED:-20261122}
printf '%s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
cred o1 >"$E2E_TMP/o1.pw"
cat >"$E2E_TMP/hub.conf" <<EOF
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
username = "hub"
password_file = "$E2E_TMP/hub.pw"
database = "$E2E_TMP/hub.db"
database_sync = false
keepalive_s = 5
feed = false
EOF
cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
broker = "tcp://$BROKER_HOST:$BROKER_PORT"
user = o1
password_file = "$E2E_TMP/o1.pw"
timeout = 30
EOF

# live WANT ARGS...: `tourney live ARGS`, exit status WANT; output in
# $E2E_TMP/out, $E2E_TMP/err.
live() {
    local want=$1 st
    shift
    timeout 90 "$TOURNEY" live "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    st=$?
    [ "$st" -eq "$want" ] ||
        fail "tourney live $*: exit $st, expected $want; stdout: $(head -c 300 "$E2E_TMP/out") stderr: $(cat "$E2E_TMP/err"); hub log: $(tail -n 5 "$E2E_TMP/hub.log")"
}

HUB_PID=
HUB_STARTS=0
# hub_start: the hub on the same database; returns when hub/state says
# "online" (retained, so this sees the new process's, not a stale one:
# the old connection's last will came first, see hub_kill).
hub_start() {
    "$HUB" --config "$E2E_TMP/hub.conf" >>"$E2E_TMP/hub.log" 2>&1 </dev/null &
    HUB_PID=$!
    e2e_track "$HUB_PID"
    HUB_STARTS=$((HUB_STARTS + 1))
    live 0 wait-hub --timeout 20
}
# broker_hub_gone: how often the venue broker saw the hub's connection end.
broker_hub_gone() {
    grep -c -E 'Client hub (closed its connection|disconnected)|Socket error on client hub' "$BROKER_LOG"
}
# hub_kill: SIGKILL, reaped; then until the broker noticed the dead
# connection (and published the last will), so the restart's "online" is
# the newest hub/state.
hub_kill() {
    local gone
    gone=$(broker_hub_gone)
    kill -KILL "$HUB_PID" 2>/dev/null || fail "the hub (pid $HUB_PID) died by itself: $(tail -n 20 "$E2E_TMP/hub.log")"
    wait "$HUB_PID" 2>/dev/null
    HUB_PID=
    wait_for 15 "[ \"\$(broker_hub_gone)\" -gt $gone ]" ||
        fail "the broker did not notice the killed hub within 15 s"
}

hub_start

source "$(dirname "${BASH_SOURCE[0]}")/sim_tables.sh"
start_sim_tables "$N_DEV" "100-1200" 2000
ok "hub and $N_DEV simulated tables online"

# kill_during ROUND N_TABLES: the round's kills.  Kill j waits until the
# tables sent a random number of submissions (never all of them, so some
# are still to come), then a random 0-149 ms, then SIGKILL and restart.
kill_during() {
    local r=$1 nt=$2 j thr
    for ((j = 0; j < KILLS_PER_ROUND; j++)); do
        thr=$((j * nt / KILLS_PER_ROUND + RANDOM % 2))
        [ "$thr" -lt "$nt" ] || thr=$((nt - 1))
        wait_for 60 "[ \"\$(round_sent $r)\" -ge $thr ]" ||
            fail "round $r: fewer than $thr submissions within 60 s"
        sleep "0.$(printf '%03d' $((RANDOM % 150)))"
        hub_kill
        KILLS=$((KILLS + 1))
        hub_start
    done
}

# hub_accepted ROUND TABLE: how many times the hub logged storing a result
# there.
hub_accepted() {
    grep -c -E "^info: result accepted device=[^ ]+ key=[^ ]+ event=$EV round=$1 table=$2\$" "$E2E_TMP/hub.log"
}

live 0 event create "$EV" --format catan --title "Crash Catan" \
    --seed 91 --options "{\"rounds\": $N_ROUNDS}"
{
    echo 'id,name'
    for ((i = 1; i <= N_PLAYERS; i++)); do echo "$EV-p$i,Player $i"; done
} >"$E2E_TMP/$EV.csv"
live 0 players import "$EV" "$E2E_TMP/$EV.csv"
for ((i = 1; i <= N_DEV; i++)); do
    live 0 device assign "$(printf 'table-%03d' "$i")" "$EV" "$i"
done

KILLS=0
round=0
complete=0
for ((r = 1; r <= 10; r++)); do
    timeout 90 "$TOURNEY" live round pair "$EV" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err"
    st=$?
    if [ $st -eq 3 ]; then
        complete=1
        break
    fi
    [ $st -eq 0 ] || fail "round pair: exit $st: $(cat "$E2E_TMP/err")"
    round=$r
    grep '^  table ' "$E2E_TMP/pair.out" | awk '{ print $2 }' >"$E2E_TMP/tables"
    nt=$(wc -l <"$E2E_TMP/tables")
    cp "$E2E_TMP/tables" "$E2E_TMP/tables.$r"
    [ "$nt" -eq $N_DEV ] || fail "round $r: $nt tables, expected $N_DEV: $(cat "$E2E_TMP/pair.out")"
    live 0 round publish "$EV"
    live 0 clock start "$EV"
    kill_during "$r" "$nt"
    while read -r t; do
        d=$(printf 'table-%03d' "$t")
        wait_until 60 table_acked "$d" "$r" "$t" ||
            fail "round $r table $t: $d got no ack: $(tail -n 12 "$E2E_TMP/$d.out" | tr '\n' '|') hub: $(tail -n 5 "$E2E_TMP/hub.log" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
    # A kill between the commit and the log line may hide one, so at most
    # one (the export check below is the exact one).
    while read -r t; do
        [ "$(hub_accepted "$r" "$t")" -le 1 ] ||
            fail "round $r table $t: the hub stored $(hub_accepted "$r" "$t") results: $(grep "round=$r table=$t" "$E2E_TMP/hub.log" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
    live 0 round close "$EV"
    ok "round $r closed after $KILLS kills so far"
done
[ $complete = 1 ] || fail "the event did not complete after $round rounds"
grep -q -i 'complete' "$E2E_TMP/err" ||
    fail "pairing round $((round + 1)) refused for another reason: $(cat "$E2E_TMP/err")"
[ "$round" -eq $N_ROUNDS ] || fail "$round rounds played, expected $N_ROUNDS"
[ "$KILLS" -eq $((N_ROUNDS * KILLS_PER_ROUND)) ] || fail "$KILLS kills"

# One more kill with everything settled: the final state is the database's.
hub_kill
hub_start

for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    u=$(unacked "$d")
    [ -z "$u" ] || fail "$d: submissions never acknowledged: $u"
done

live 0 export "$EV"
cp "$E2E_TMP/out" "$E2E_TMP/export.json"
live 0 standings "$EV" --json
cp "$E2E_TMP/out" "$E2E_TMP/hub-standings.json"
"$TOURNEY" standings "$E2E_TMP/export.json" >"$E2E_TMP/offline.json" 2>"$E2E_TMP/err" ||
    fail "offline standings of the export: $(cat "$E2E_TMP/err")"
cmp -s "$E2E_TMP/offline.json" "$E2E_TMP/hub-standings.json" ||
    fail "standings differ: hub $(head -c 300 "$E2E_TMP/hub-standings.json") offline $(head -c 300 "$E2E_TMP/offline.json")"
grep -q "\"after_round\": $N_ROUNDS" "$E2E_TMP/hub-standings.json" ||
    fail "standings not after round $N_ROUNDS: $(head -c 200 "$E2E_TMP/hub-standings.json")"
ok "hub standings == tourney standings of the export"

# The export as lines: "T ROUND TABLE" per table, "R ROUND TABLE" per
# result, "S ROUND PLAYER" per seated player or bye (the hub's JSON writer
# puts one key per line; an array may be on one line or many).
awk '
    /"rounds": \[/ { inr = 1; next }
    !inr { next }
    /"stage":/ { r++ }
    /"table": [0-9]+/ { match($0, /"table": [0-9]+/); t = substr($0, RSTART + 9, RLENGTH - 9) + 0; print "T", r, t }
    /"result":/ { print "R", r, t }
    /"bye":/ { s = $0; sub(/.*"bye": *"/, "", s); sub(/".*/, "", s); print "S", r, s }
    /"players": \[/ { inp = 1; sub(/.*"players": \[/, "") }
    inp {
        line = $0
        if (line ~ /\]/) { sub(/\].*/, "", line); inp = 0 }
        n = split(line, a, ",")
        for (i = 1; i <= n; i++) { gsub(/[" \t]/, "", a[i]); if (a[i] != "") print "S", r, a[i] }
    }' "$E2E_TMP/export.json" >"$E2E_TMP/export.lines"
[ "$(awk '$1 == "T" { print $2 }' "$E2E_TMP/export.lines" | sort -u | wc -l)" -eq $N_ROUNDS ] ||
    fail "the export does not have $N_ROUNDS rounds with tables"
for ((r = 1; r <= N_ROUNDS; r++)); do
    awk -v r=$r '$1 == "T" && $2 == r { print $3 }' "$E2E_TMP/export.lines" | sort -n >"$E2E_TMP/x.tables"
    awk -v r=$r '$1 == "R" && $2 == r { print $3 }' "$E2E_TMP/export.lines" | sort -n >"$E2E_TMP/x.results"
    sort -n "$E2E_TMP/tables.$r" >"$E2E_TMP/x.paired"
    cmp -s "$E2E_TMP/x.tables" "$E2E_TMP/x.paired" ||
        fail "round $r: export tables $(tr '\n' ' ' <"$E2E_TMP/x.tables")!= paired $(tr '\n' ' ' <"$E2E_TMP/x.paired")"
    cmp -s "$E2E_TMP/x.results" "$E2E_TMP/x.paired" ||
        fail "round $r: tables with a result in the export: $(tr '\n' ' ' <"$E2E_TMP/x.results")(want one per table: $(tr '\n' ' ' <"$E2E_TMP/x.paired"))"
    awk -v r=$r '$1 == "S" && $2 == r { print $3 }' "$E2E_TMP/export.lines" | sort >"$E2E_TMP/x.seated"
    { [ "$(wc -l <"$E2E_TMP/x.seated")" -eq $N_PLAYERS ] && [ -z "$(uniq -d "$E2E_TMP/x.seated")" ]; } ||
        fail "round $r: players in the export are not $N_PLAYERS distinct ones: $(tr '\n' ' ' <"$E2E_TMP/x.seated")"
done
n_acked=0
for ((i = 1; i <= N_DEV; i++)); do
    d=$(printf 'table-%03d' "$i")
    while read -r r t k; do
        n_acked=$((n_acked + 1))
        grep -q -x "R $r $t" "$E2E_TMP/export.lines" ||
            fail "$d: $k acknowledged for round $r table $t, but the export has no result there"
    done < <(acked "$d")
    bad=$(grep -E '^ack (rejected|conflict|pending_confirmation) ' "$E2E_TMP/$d.out")
    [ -z "$bad" ] || fail "$d: unexpected acks after hub restarts: $(printf '%s' "$bad" | tr '\n' '|')"
done
[ "$n_acked" -ge $((N_ROUNDS * N_DEV)) ] || fail "only $n_acked acknowledged submissions"
ok "$n_acked acknowledged submissions all in the export; one result per table and round"

ok "$KILLS SIGKILLs ($HUB_STARTS hub starts); $N_ROUNDS rounds complete"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_done
