# table_tui.sh - shared by tests/e2e/test_table_tui_*.sh: a person at a
# table plays a round on the full-screen display (tourney-table in a real
# terminal: tmux 100x30) against the real broker and hub, while the other
# table is a --simulate headless device.  Sourced after lib.sh; sources
# live_hub.sh (hub config, hub_launch, live).
#
# tui_setup FORMAT OPTIONS N_PLAYERS: broker, hub, event "ev" of FORMAT,
# players, table-001 (display) -> table 1, table-002 (simulated) -> 2,
# the display started in the pane (a loop restarts it like systemd).
# tui_round: pairs, publishes and starts the clock of the next round.
# Screen helpers: screen, expect SECS ERE WHAT, walk_flow (answers every
# step until the confirmation screen), confirm_all.
#
# A test may set before tui_setup: TUI_PLAYERS (a players CSV instead of
# "Player N"), TUI_SIZE (COLSxROWS, default 100x30), TUI_LOCALE (the
# pane's LC_ALL, default C.UTF-8), TUI_HUB_LINES (hub config lines, e.g.
# "feed = true"), TUI_EVENT_ARGS (more `event create` arguments, e.g.
# "--language pl"), TUI_TABLE_LINES (more lines of the display's settings
# file), TUI_LANGUAGE (the pane's LANGUAGE), TUI_K_ONLINE (the words of
# "network online" in the display's language).  The display reads its
# catalogues from the build tree (TOURNEY_LOCALEDIR).
#
# Synchronisation: every wait polls `tmux capture-pane` (bounded).

need_binaries TOURNEY HUB TABLE
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
source "$(dirname -- "${BASH_SOURCE[0]}")/live_hub.sh"
SOCK=$E2E_TMP/tmux.sock
tm() { tmux -S "$SOCK" "$@"; }
trap 'tui_rc=$?; tmux -S "$SOCK" kill-server 2>/dev/null; (exit $tui_rc); e2e_cleanup' EXIT

screen() { tm capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
# expect SECONDS 'ERE' WHAT: waits until the screen matches.
expect() {
    wait_until "$1" grep_screen "$2" ||
        fail "$3: no /$2/ on the screen:
$(screen)
--- table log: $(tail -n 8 "$E2E_TMP/table-001.log" 2>/dev/null | tr '\n' '|')"
}
key() { tm send-keys -t tui "$@"; }

tui_setup() {
    local format=$1 options=$2 n=$3 i
    start_broker --no-ws --tables 2 --organisers o1
    # shellcheck disable=SC2086 # one config line per word
    live_hub_config ${TUI_HUB_LINES:-}
    hub_launch
    live 0 wait-hub --timeout 20
    # shellcheck disable=SC2086 # TUI_EVENT_ARGS: words
    live 0 event create ev --format "$format" --title "TUI $format cup" --seed 5 \
        --options "$options" ${TUI_EVENT_ARGS:-}
    if [ -n "${TUI_PLAYERS:-}" ]; then
        cp "$TUI_PLAYERS" "$E2E_TMP/players.csv"
    else
        {
            echo 'id,name,club'
            for ((i = 1; i <= n; i++)); do echo "p$i,Player $i,Club $i"; done
        } >"$E2E_TMP/players.csv"
    fi
    live 0 players import ev "$E2E_TMP/players.csv"
    live 0 device assign table-001 ev 1
    live 0 device assign table-002 ev 2

    # table-002: simulated, headless.
    cat >"$E2E_TMP/table-002.conf" <<EOF
device_id = "table-002"
mqtt_password = "$(cred table-002)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table-002.db"
simulate = true
simulate_delay_ms = "50-300"
seed = 9
keepalive_s = 5
display = headless
EOF
    "$TABLE" --config "$E2E_TMP/table-002.conf" </dev/null \
        >"$E2E_TMP/table-002.out" 2>"$E2E_TMP/table-002.err" &
    e2e_track $!

    # table-001: the display in tmux; restarted by the loop like systemd.
    cat >"$E2E_TMP/table-001.conf" <<EOF
device_id = "table-001"
mqtt_password = "$(cred table-001)"
broker_uri = "tcp://$BROKER_HOST:$BROKER_PORT"
outbox = "$E2E_TMP/table-001.db"
keepalive_s = 5
display = tui
log_level = debug
log_file = "$E2E_TMP/table-001.log"
${TUI_TABLE_LINES:-}
EOF
    cat >"$E2E_TMP/pane.sh" <<EOF
export LC_ALL=${TUI_LOCALE:-C.UTF-8} TERM=screen
export TOURNEY_LOCALEDIR='$E2E_BUILD/locale'
${TUI_LANGUAGE:+export LANGUAGE='$TUI_LANGUAGE'}
while [ ! -e '$E2E_TMP/stop' ]; do
    # In the foreground: the terminal is its stdin.
    bash -c 'echo \$\$ >"\$1"; exec "\$2" --config "\$3"' - \
        '$E2E_TMP/table-001.pid' '$TABLE' '$E2E_TMP/table-001.conf' \
        2>>'$E2E_TMP/table-001.err'
    sleep 0.3
done
exec sleep 600
EOF
    local size=${TUI_SIZE:-100x30}
    tm -f /dev/null new-session -d -s tui -x "${size%x*}" -y "${size#*x}" \
        "bash '$E2E_TMP/pane.sh'" ||
        fail "tmux new-session"
    expect 30 "${TUI_K_ONLINE:-network online}" "table-001 online"
}

# tui_round: the next round paired, published, clock started; $TABLES
# lists its tables.
tui_round() {
    live 0 round pair ev
    TABLES=$(grep '^  table ' "$E2E_TMP/out" | awk '{ print $2 }' | tr '\n' ' ')
    live 0 round publish ev
    live 0 clock start ev
}

# The number range of the NUMBER step on the screen ("MIN..MAX:").
step_range() { screen | grep -o -E -- '-?[0-9]+\.\.-?[0-9]+:' | head -n 1 | tr -d ':'; }
# The key line (last row).
key_line() { screen | tail -n 1; }
step_title() { screen | sed -n '4p'; }

# walk_flow [REFUSE]: answers every step of the flow on the screen until
# WANT (an ERE, default the confirmation screen): NUMBER steps take the
# pre-filled value or the range's minimum (VALUE_FN may say otherwise),
# CHOICE steps their marked option or 1, INFO steps Enter.  With REFUSE=1
# the first NUMBER step gets a letter and an out-of-range number first
# (each refused on the spot with its message), and a CHOICE step a key
# beyond its options.  The key line's words (TUI_K_DIGITS, TUI_K_CHOOSE,
# TUI_K_MARKED, TUI_K_CONTINUE) are English unless a test in another
# language sets them.
walk_flow() {
    local refuse=${1:-0} want=${2:-'CONFIRM THE RESULT|RESULT SENT|decided'} i kl range lo hi before
    for ((i = 0; i < 60; i++)); do
        grep_screen "$want" && return 0
        kl=$(key_line)
        before=$(screen | md5sum)
        if [[ $kl == *"${TUI_K_DIGITS:-digits type}"* ]]; then
            range=$(step_range)
            lo=${range%%..*}
            hi=${range##*..}
            if [ "$refuse" = 1 ]; then
                key a
                expect 10 "'a' refused: a number is digits only \\($lo\\.\\.$hi\\)" "letter refused"
                erase_typed
                key -l -- "$((hi + 1))"
                key Enter
                expect 10 "$((hi + 1))" "out-of-range number refused with the flow's message"
                grep_screen "digits type" || fail "the step changed after a refused number: $(screen)"
                erase_typed
                ok "refused on the spot: a letter, then $((hi + 1)) (range $lo..$hi): $(screen | tail -n 3 | head -n 1 | sed 's/^ *//')"
                refuse=0
            fi
            # A pre-filled value (shown typed) stays; else a value.
            if [ -z "$(typed)" ]; then
                key -l -- "$(value_for "$lo" "$hi")"
            fi
            key Enter
        elif [[ $kl == *"${TUI_K_CHOOSE:- choose}"* ]]; then
            if [ "$refuse" = 1 ]; then
                key 9
                expect 10 "9 refused: choose 1\\.\\.[0-8]" "choice out of range refused"
                ok "refused on the spot: key 9 ($(screen | tail -n 3 | head -n 1 | sed 's/^ *//'))"
                refuse=0
            fi
            if [[ $kl == *"${TUI_K_MARKED:-Enter the marked one}"* ]]; then key Enter; else key -l -- "$(choice_for)"; fi
        elif [[ $kl == *"${TUI_K_CONTINUE:-Enter continue}"* ]]; then
            key Enter
        else
            sleep 0.1
            continue
        fi
        wait_for 10 '[ "$(screen | md5sum)" != "$before" ]' || true
    done
    fail "walk_flow: did not reach /$want/: $(screen)"
}
# typed: what the NUMBER field holds; erase_typed: Backspace that often.
typed() { screen | grep -o -E ':  +[0-9-]*_' | head -n 1 | sed -E 's/^: +//; s/_$//'; }
erase_typed() {
    local t k
    t=$(typed)
    for ((k = 0; k < ${#t}; k++)); do key BSpace; done
    wait_for 10 '[ -z "$(typed)" ]' || fail "could not erase '$t': $(screen)"
}

# Overridable by a test: the value typed in a NUMBER step without a
# pre-filled value, and the option chosen in a CHOICE step.
value_for() { if [ "$1" -lt 0 ] && [ "$2" -ge 0 ]; then echo 0; else echo "$1"; fi; }
choice_for() { echo 1; }

# confirm_all [CONFIRM ACCEPTED]: every seat confirms (Enter each), the
# result is sent and accepted; CONFIRM and ACCEPTED are the screens' words
# (EREs) in another language.
confirm_all() {
    local i confirm=${1:-CONFIRM THE RESULT} accepted=${2:-RESULT ACCEPTED}
    expect 20 "$confirm" "confirmation screen"
    for ((i = 0; i < 4; i++)); do
        grep_screen "$confirm" || break
        key Enter
        sleep 0.2
    done
    [ $# -eq 0 ] && expect 30 'RESULT (SENT|ACCEPTED)' "sent"
    expect 30 "$accepted" "accepted by the hub"
}

# no_english WHAT: issue 21, on a screen in another language no word of
# TUI_ENGLISH (an ERE of the screen's English words) is left.
no_english() {
    if screen | grep -E -q -- "$TUI_ENGLISH"; then
        fail "English on the screen ($1): $(screen | grep -E -- "$TUI_ENGLISH")"
    fi
}

tui_finish() {
    touch "$E2E_TMP/stop"
    kill -TERM "$(cat "$E2E_TMP/table-001.pid")" 2>/dev/null
}
