# sim_tables.sh - shared by e2e tests that play events with simulated
# tables: start them, and read their stdout logs (docs/table-protocol.md).
# Sourced after lib.sh; uses $TABLE, $E2E_TMP, $EV and $N_DEV.

# start_sim_tables N DELAY SEED_BASE: starts N simulated tables
# (table-001..) with simulate_delay_ms DELAY ("lo-hi") and seeds SEED_BASE+i,
# tracked for cleanup (pid in $E2E_TMP/DEVICE.pid); returns once each is
# online.  Needs $TABLE, $E2E_TMP
# and a started broker (lib.sh).
start_sim_tables() {
    local i d
    for ((i = 1; i <= $1; i++)); do
        d=$(printf 'table-%03d' "$i")
        cat >"$E2E_TMP/$d.conf" <<EOF
device_id = "$d"
mqtt_password = "$(cred "$d")"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/$d.db"
simulate = true
simulate_delay_ms = "$2"
seed = $(($3 + i))
keepalive_s = 5
EOF
        "$TABLE" --config "$E2E_TMP/$d.conf" </dev/null >"$E2E_TMP/$d.out" 2>"$E2E_TMP/$d.err" &
        e2e_track $!
        echo $! >"$E2E_TMP/$d.pid"
    done
    for ((i = 1; i <= $1; i++)); do
        d=$(printf 'table-%03d' "$i")
        wait_until 15 grep -q -x 'net online queued=0' "$E2E_TMP/$d.out" ||
            fail "$d did not connect: $(tail -n 5 "$E2E_TMP/$d.err")"
    done
}

# subs DEVICE: the device's submissions for event $EV as "P ROUND TABLE KEY"
# (`result pending` under an assignment) and acknowledgements as "A KEY"
# (`ack accepted|duplicate`).
subs() {
    awk -v ev="$EV" '
        /^assigned / {
            e = r = t = ""
            for (i = 2; i <= NF; i++) {
                if ($i ~ /^event=/) e = substr($i, 7)
                else if ($i ~ /^round=/) r = substr($i, 7)
                else if ($i ~ /^table=/) t = substr($i, 7)
            }
            next
        }
        $1 == "result" && $2 == "pending" && $3 ~ /^key=/ {
            if (e == ev) print "P", r, t, substr($3, 5)
            next
        }
        $1 == "ack" && ($2 == "accepted" || $2 == "duplicate") && $3 ~ /^key=/ {
            print "A", substr($3, 5)
        }' "$E2E_TMP/$1.out"
}
# acked DEVICE: "ROUND TABLE KEY" of each acknowledged submission.
acked() {
    subs "$1" | awk '$1 == "P" { k[$4] = $2 " " $3 } $1 == "A" && ($2 in k) { print k[$2] " " $2; delete k[$2] }'
}
# unacked DEVICE: "ROUND TABLE KEY" of each submission without ack.
unacked() {
    subs "$1" | awk '$1 == "P" { k[$4] = $2 " " $3 } $1 == "A" { delete k[$2] } END { for (x in k) print k[x] " " x }'
}
# table_acked DEVICE ROUND TABLE: the device has an ack for that table.
table_acked() {
    acked "$1" | awk -v r="$2" -v t="$3" '$1 == r && $2 == t { f = 1 } END { exit !f }'
}
# round_sent ROUND: how many submissions of the round the tables sent.
round_sent() {
    local i
    for ((i = 1; i <= N_DEV; i++)); do
        subs "$(printf 'table-%03d' "$i")"
    done | awk -v r="$1" '$1 == "P" && $2 == r' | wc -l
}

# table_done DEVICE EVENT ROUND TABLE: the device showed "state done" after
# its assignment to that table of that round.
table_done() {
    awk -v want="assigned event=$2 round=$3 table=$4 " '
        index($0, want) == 1 { seen = 1; done = 0; next }
        /^assigned / { seen = 0; next }
        seen && $0 == "state done" { done = 1 }
        END { exit !done }' "$E2E_TMP/$1.out"
}

# sim_pair_round R: pairs round R of $EV (`tourney live round pair`, at
# most 90 s; $TOURNEY); status 3 when the event is complete (nothing left
# to pair: $E2E_TMP/err says why), else the round's table numbers are in
# $E2E_TMP/tables and tables.R, one per device ($N_DEV, checked).
sim_pair_round() {
    local st nt
    timeout 90 "$TOURNEY" live round pair "$EV" >"$E2E_TMP/pair.out" 2>"$E2E_TMP/err"
    st=$?
    [ $st -ne 3 ] || return 3
    [ $st -eq 0 ] || fail "round pair: exit $st: $(cat "$E2E_TMP/err")"
    grep '^  table ' "$E2E_TMP/pair.out" | awk '{ print $2 }' >"$E2E_TMP/tables"
    nt=$(wc -l <"$E2E_TMP/tables")
    cp "$E2E_TMP/tables" "$E2E_TMP/tables.$1"
    [ "$nt" -eq "$N_DEV" ] || fail "round $1: $nt tables, expected $N_DEV: $(cat "$E2E_TMP/pair.out")"
}

# sim_wait_acks R: until the device of each table of round R
# ($E2E_TMP/tables) has its result acknowledged (60 s each).
sim_wait_acks() {
    local t d
    while read -r t; do
        d=$(printf 'table-%03d' "$t")
        wait_until 60 table_acked "$d" "$1" "$t" ||
            fail "round $1 table $t: $d got no ack: $(tail -n 12 "$E2E_TMP/$d.out" | tr '\n' '|') hub: $(tail -n 5 "$E2E_TMP/hub.log" | tr '\n' '|')"
    done <"$E2E_TMP/tables"
}

# sim_rounds_played ROUNDS COMPLETE N_ROUNDS: after the rounds loop, the
# event completed (COMPLETE 1: sim_pair_round said so) after ROUNDS
# rounds, N_ROUNDS expected.
sim_rounds_played() {
    [ "$2" = 1 ] || fail "the event did not complete after $1 rounds"
    grep -q -i 'complete' "$E2E_TMP/err" ||
        fail "pairing round $(($1 + 1)) refused for another reason: $(cat "$E2E_TMP/err")"
    [ "$1" -eq "$3" ] || fail "$1 rounds played, expected $3"
}
