# live_hub.sh - shared by e2e tests that run a hub and drive it with the
# organiser console (`tourney live`): configuration files, starting the
# hub, the `live` wrapper and the end-of-event checks.
# Sourced after lib.sh and start_broker (with --organisers o1); uses
# $TOURNEY, $HUB, $E2E_TMP; the end-of-event checks also use $EV,
# $N_ROUNDS, $N_DEV, $N_PLAYERS, $E2E_TMP/tables.ROUND (the table numbers
# each round was paired with) and sim_tables.sh's acked/unacked.

# live_hub_config [LINE...]: the hub's config ($E2E_TMP/hub.conf: the hub
# login, a database in $E2E_TMP, no feed unless LINEs say otherwise) and
# organiser o1's console config under a private XDG_CONFIG_HOME; then the
# database is created (hub_create).
live_hub_config() {
    export XDG_CONFIG_HOME=$E2E_TMP/xdg HOME=$E2E_TMP/home
    unset TOURNEY_PASSWORD
    mkdir -p "$XDG_CONFIG_HOME/tourney" "$HOME"
    printf '%s\n' "$(cred hub)" >"$E2E_TMP/hub.pw"
    cred o1 >"$E2E_TMP/o1.pw"
    {
        printf 'broker_uri = "tcp://%s:%s"\n' "$BROKER_HOST" "$BROKER_PORT"
        printf 'username = "hub"\npassword_file = "%s"\n' "$E2E_TMP/hub.pw"
        printf 'database = "%s"\ndatabase_sync = false\nkeepalive_s = 5\n' "$E2E_TMP/hub.db"
        if [ $# -gt 0 ]; then printf '%s\n' "$@"; else printf 'feed = false\n'; fi
    } >"$E2E_TMP/hub.conf"
    cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
broker = "tcp://$BROKER_HOST:$BROKER_PORT"
user = o1
password_file = "$E2E_TMP/o1.pw"
timeout = 30
EOF
    hub_create
}

# hub_create [CONF]: `tourney-hub --create` on CONF (default
# $E2E_TMP/hub.conf): the hub never makes its database by itself.
hub_create() {
    "$HUB" --config "${1:-$E2E_TMP/hub.conf}" --create >"$E2E_TMP/create.out" 2>&1 ||
        fail "tourney-hub --create: $(cat "$E2E_TMP/create.out")"
}

HUB_PID=
HUB_STARTS=0
# hub_launch: starts the hub on $E2E_TMP/hub.conf (log appended to
# $E2E_TMP/hub.log), tracked for cleanup; does not wait for it.
hub_launch() {
    "$HUB" --config "$E2E_TMP/hub.conf" >>"$E2E_TMP/hub.log" 2>&1 </dev/null &
    HUB_PID=$!
    e2e_track "$HUB_PID"
    HUB_STARTS=$((HUB_STARTS + 1))
}

# broker_hub_gone: how often the venue broker saw the hub's connection end.
broker_hub_gone() {
    grep -c -E 'Client hub (closed its connection|disconnected)|Socket error on client hub' "$BROKER_LOG"
}

# hub_sigkill [AFTER]: SIGKILL the hub and reap it, run the command AFTER
# (if given) on the dead hub's files, then wait until the broker noticed
# the dead connection (and published the last will), so a restart's
# "online" is the newest hub/state.
hub_sigkill() {
    local gone
    gone=$(broker_hub_gone)
    kill -KILL "$HUB_PID" 2>/dev/null || fail "the hub (pid $HUB_PID) died by itself: $(tail -n 20 "$E2E_TMP/hub.log")"
    wait "$HUB_PID" 2>/dev/null
    HUB_PID=
    [ $# -eq 0 ] || "$@"
    wait_for 15 "[ \"\$(broker_hub_gone)\" -gt $gone ]" ||
        fail "the broker did not notice the killed hub within 15 s"
}

# hub_wrap NAME VAR=VALUE...: from now on $HUB runs with these variables
# in its environment (a wrapper, $E2E_TMP/hub-NAME.sh; a sanitized build
# is told not to mind a preloaded library coming first).
hub_wrap() {
    local w=$E2E_TMP/hub-$1.sh kv
    shift
    {
        echo '#!/bin/bash'
        for kv; do printf 'export %q\n' "$kv"; done
        echo 'export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"'
        printf 'exec %q "$@"\n' "$HUB"
    } >"$w"
    chmod +x "$w"
    HUB=$w
}

# hub_faketime: from now on $HUB runs under libfaketime: its wall clock
# is the true time plus the offset in $E2E_TMP/hub.faketime ("+0" at
# first; write e.g. "+120" or "-3600" to step it, read at every call), its
# monotonic clock is left alone.  Prints "SKIP: ..." and exits 77 without
# libfaketime or when the build cannot run under it (a sanitized build).
hub_faketime() {
    e2e_faketime_lib
    echo "+0" >"$E2E_TMP/hub.faketime"
    hub_wrap faketime LD_PRELOAD="$FT" FAKETIME_TIMESTAMP_FILE="$E2E_TMP/hub.faketime" \
        FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1
    if ! "$HUB" --version >"$E2E_TMP/ft.out" 2>&1; then
        grep -q -i 'asan\|addresssanitizer' "$E2E_TMP/ft.out" &&
            { echo "SKIP: $E2E_NAME: the sanitizer build does not run under libfaketime"; exit 77; }
        fail "tourney-hub under libfaketime: $(head -n 5 "$E2E_TMP/ft.out")"
    fi
}

# live WANT ARGS...: `tourney live ARGS` as o1, exit status WANT; output in
# $E2E_TMP/out, $E2E_TMP/err.
live() {
    local want=$1 st
    shift
    timeout 90 "$TOURNEY" live "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    st=$?
    [ "$st" -eq "$want" ] ||
        fail "tourney live $*: exit $st, expected $want; stdout: $(head -c 300 "$E2E_TMP/out") stderr: $(cat "$E2E_TMP/err"); hub log: $(tail -n 5 "$E2E_TMP/hub.log")"
}

# event_with_devices FORMAT TITLE OPTIONS: creates event $EV (seed 91) with
# $N_PLAYERS players imported from a CSV ($EV-p1..) and devices
# table-001..$N_DEV on tables 1..$N_DEV.
event_with_devices() {
    local i
    live 0 event create "$EV" --format "$1" --title "$2" --seed 91 --options "$3"
    {
        echo 'id,name'
        for ((i = 1; i <= N_PLAYERS; i++)); do echo "$EV-p$i,Player $i"; done
    } >"$E2E_TMP/$EV.csv"
    live 0 players import "$EV" "$E2E_TMP/$EV.csv"
    for ((i = 1; i <= N_DEV; i++)); do
        live 0 device assign "$(printf 'table-%03d' "$i")" "$EV" "$i"
    done
}

# hub_accepted ROUND TABLE: how many times the hub logged storing a result
# there (event $EV).
hub_accepted() {
    grep -c -E "^info: result accepted device=[^ ]+ key=[^ ]+ event=$EV round=$1 table=$2\$" "$E2E_TMP/hub.log"
}

# check_event_complete AFTER: the event $EV played $N_ROUNDS rounds with
# $N_DEV simulated tables (AFTER names what they lived through, for
# messages): every submission was acknowledged; the hub's standings equal
# `tourney standings` of its export; the export has every paired table of
# every round with exactly one result and every player seated once; every
# acknowledged submission is in the export; the CSV standings and results
# of the hub are those of the export; no table saw a rejected,
# conflicting or pending answer.
check_event_complete() {
    local i d u r t k bad n_acked=0
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
    live 0 standings "$EV" --csv
    "$TOURNEY" --csv standings "$E2E_TMP/export.json" | cmp -s - "$E2E_TMP/out" ||
        fail "tourney live standings --csv differs from tourney --csv standings of the export"
    live 0 export "$EV" --csv
    "$TOURNEY" results "$E2E_TMP/export.json" | cmp -s - "$E2E_TMP/out" ||
        fail "tourney live export --csv differs from tourney results of the export"
    [ "$(grep -c . "$E2E_TMP/out")" -eq $((N_ROUNDS * N_PLAYERS + 1)) ] ||
        fail "results CSV has $(grep -c . "$E2E_TMP/out") lines, expected a header and $N_ROUNDS x $N_PLAYERS rows"
    ok "CSV standings and results from the hub == those of the export"

    # The export as lines: "T ROUND TABLE" per table, "R ROUND TABLE" per
    # result, "S ROUND PLAYER" per seated player or bye (the hub's JSON
    # writer puts one key per line; an array may be on one line or many).
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
    [ "$(awk '$1 == "T" { print $2 }' "$E2E_TMP/export.lines" | sort -u | wc -l)" -eq "$N_ROUNDS" ] ||
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
        { [ "$(wc -l <"$E2E_TMP/x.seated")" -eq "$N_PLAYERS" ] && [ -z "$(uniq -d "$E2E_TMP/x.seated")" ]; } ||
            fail "round $r: players in the export are not $N_PLAYERS distinct ones: $(tr '\n' ' ' <"$E2E_TMP/x.seated")"
    done
    for ((i = 1; i <= N_DEV; i++)); do
        d=$(printf 'table-%03d' "$i")
        while read -r r t k; do
            n_acked=$((n_acked + 1))
            grep -q -x "R $r $t" "$E2E_TMP/export.lines" ||
                fail "$d: $k acknowledged for round $r table $t, but the export has no result there"
        done < <(acked "$d")
        bad=$(grep -E '^ack (rejected|conflict|pending_confirmation) ' "$E2E_TMP/$d.out")
        [ -z "$bad" ] || fail "$d: unexpected acks after $1: $(printf '%s' "$bad" | tr '\n' '|')"
    done
    [ "$n_acked" -ge $((N_ROUNDS * N_DEV)) ] || fail "only $n_acked acknowledged submissions"
    ok "$n_acked acknowledged submissions all in the export; one result per table and round"
}
