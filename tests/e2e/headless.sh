# headless.sh - shared by e2e tests (and bench/bench_table.sh) that drive
# headless tourney-table devices through their line protocol
# (docs/table-protocol.md) against the real hub: the programs, broker +
# hub start, a one-round Neuroshima Hex! event, device config, start with
# stdin on a FIFO, input lines, waiting for output lines, quit.
# Sourced after lib.sh's e2e_init.  A device's stdout is
# $E2E_TMP/DEVICE.out, its stderr $E2E_TMP/DEVICE.err.
#
# Invariant: every device it starts is tracked (e2e_track) and its FIFO
# writer fd stays open until hl_quit, so the device never sees the end of
# its input.

# shellcheck shell=bash disable=SC2034 # (variables are the API)

# hl_hub N_DEVICES: the venue broker (no feed; devices table-001..,
# organiser o1) and the hub on a fresh database (live_hub.sh), online.
hl_hub() {
    start_broker --no-ws --tables "$1" --organisers o1
    source "$E2E_SRC/tests/e2e/live_hub.sh"
    live_hub_config
    hub_launch
    live 0 wait-hub --timeout 20
}

# hl_nh_round EVENT SEED DEVICE...: a Neuroshima Hex! event (one Swiss
# round, no cut) with two players per device (p1, p2, ...), DEVICE i
# assigned to table i, round 1 paired and published (clock not started).
hl_nh_round() {
    local ev=$1 seed=$2 i n
    shift 2
    n=$#
    live 0 event create "$ev" --format neuroshima-hex --title "$ev" --seed "$seed" \
        --options '{"swiss_rounds": 1, "cut": 0}'
    {
        echo 'id,name'
        for ((i = 1; i <= 2 * n; i++)); do echo "p$i,Player $i"; done
    } >"$E2E_TMP/$ev-players.csv"
    live 0 players import "$ev" "$E2E_TMP/$ev-players.csv"
    for ((i = 1; i <= n; i++)); do
        live 0 device assign "${!i}" "$ev" "$i"
    done
    live 0 round pair "$ev"
    live 0 round publish "$ev"
}

# -g: global also when sourced from a function (lib.sh play_setup)
declare -gA HL_FD=() HL_PID=() HL_MARK=()

# hl_conf DEVICE [LINE...]: writes $E2E_TMP/DEVICE.conf: the device's
# login on the broker ($BROKER_HOST:$BROKER_PORT), an outbox in $E2E_TMP,
# debug log, keep-alive 2 s; LINEs are appended ("name = value").
hl_conf() {
    local d=$1
    shift
    {
        printf 'device_id = "%s"\nmqtt_password = "%s"\n' "$d" "$(cred "$d")"
        printf 'broker_uri = "tcp://%s:%s"\n' "$BROKER_HOST" "$BROKER_PORT"
        printf 'outbox = "%s"\nlog_level = "debug"\nkeepalive_s = 2\n' "$E2E_TMP/$d.db"
        [ $# -eq 0 ] || printf '%s\n' "$@"
    } >"$E2E_TMP/$d.conf"
}

# hl_start DEVICE COMMAND...: runs COMMAND --config $E2E_TMP/DEVICE.conf
# in the background (COMMAND is the table binary, possibly behind a
# wrapper: qemu, ip netns exec, env LD_PRELOAD=...), stdin on a FIFO.
# Does not wait for anything.
hl_start() {
    local d=$1 fd
    shift
    mkfifo "$E2E_TMP/$d.in"
    : >"$E2E_TMP/$d.out"
    "$@" --config "$E2E_TMP/$d.conf" <"$E2E_TMP/$d.in" >"$E2E_TMP/$d.out" 2>"$E2E_TMP/$d.err" &
    HL_PID[$d]=$!
    e2e_track "${HL_PID[$d]}"
    exec {fd}>"$E2E_TMP/$d.in"
    HL_FD[$d]=$fd
    HL_MARK[$d]=0
}

# hl_say DEVICE LINE...: input lines; output from now on is "new"
# (hl_expect_new).
hl_say() {
    local d=$1
    shift
    HL_MARK[$d]=$(wc -l <"$E2E_TMP/$d.out")
    printf '%s\n' "$@" >&"${HL_FD[$d]}"
}

# hl_mark DEVICE: output from now on is "new".
hl_mark() {
    HL_MARK[$1]=$(wc -l <"$E2E_TMP/$1.out")
}

hl_has() {
    grep -q -x -F -e "$2" "$E2E_TMP/$1.out"
}
hl_new_has() {
    tail -n +"$((HL_MARK[$1] + 1))" "$E2E_TMP/$1.out" | grep -x -F -e "$2" >/dev/null
}
hl_tail() {
    echo "$1 printed: $(tail -n 30 "$E2E_TMP/$1.out" | tr '\n' '|') -- stderr: $(tail -n 12 "$E2E_TMP/$1.err" | tr '\n' '|')"
}

# hl_expect DEVICE LINE [SECONDS]: waits (default 30 s) until the device
# printed LINE (anywhere in its output), or fails.
hl_expect() {
    wait_until "${3:-30}" hl_has "$1" "$2" || fail "no \"$2\" from $1; $(hl_tail "$1")"
}

# hl_expect_new DEVICE LINE [SECONDS]: the same, after the mark.
hl_expect_new() {
    wait_until "${3:-30}" hl_new_has "$1" "$2" ||
        fail "no new \"$2\" from $1; $(hl_tail "$1")"
}

# hl_last DEVICE SED_EXPR: the last output line SED_EXPR (a s///p) prints.
hl_last() {
    sed -n "$2" "$E2E_TMP/$1.out" | tail -n 1
}

# hl_assigned DEVICE EVENT TABLE: waits until DEVICE shows its assignment
# to TABLE of round 1 of EVENT; HL_SEATS = its seats ("p2,p1").
hl_assigned() {
    wait_until 30 grep -q "^assigned event=$2 round=1 table=$3 " "$E2E_TMP/$1.out" ||
        fail "no assignment to table $3 on $1; $(hl_tail "$1")"
    HL_SEATS=$(hl_last "$1" "s/^assigned event=$2 round=1 table=$3 .* seats=\([^ ]*\).*/\1/p")
}

# hl_quit DEVICE: "quit", then the device must exit 0 within 10 s.
hl_quit() {
    local d=$1 i st fd
    hl_say "$d" quit
    for ((i = 0; i < 200; i++)); do
        kill -0 "${HL_PID[$d]}" 2>/dev/null || break
        sleep 0.05
    done
    kill -0 "${HL_PID[$d]}" 2>/dev/null && fail "quit did not stop $d"
    wait "${HL_PID[$d]}"
    st=$?
    [ $st -eq 0 ] || fail "$d exited with $st after quit"
    fd=${HL_FD[$d]}
    exec {fd}>&-
}
