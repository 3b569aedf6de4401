#!/usr/bin/env bash
# test_console_fake_hub.sh - `tourney live` against a scripted hub: the
# console's half of the console protocol, independent of tourney-hub.
#
# The fake hub is bash: a monitor login (watch2) reads ctl/+/req,
# protoc-c --decode turns each request into protobuf text (logged, so the
# test can check what the console put on the wire), a canned reply is
# written as protobuf text, protoc-c --encode makes it binary and the hub
# login publishes it on ctl/<login>/resp.  It checks: every command's
# arguments reach the wire (ids, rounds, tables, the result object mapped
# to GameResult, points in 1/1200 units, durations in ms); replies are
# matched by correlation id (a foreign reply first is ignored); a request
# the hub does not answer is resent with the same id and the late answer
# is taken; the hub's refusal is exit 3 with its message as one line on
# stderr; --json prints the reply's payload as is; `export` writes the
# event file unchanged; publish and clock commands find their round from
# the draft and the export when --round is not given; an undecodable
# reply is ignored and named when the time is up (exit 4).
#
# usage: bash test_console_fake_hub.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"

need_binaries TOURNEY
command -v protoc-c >/dev/null || fail "protoc-c not found (protobuf-c-compiler)"
export XDG_CONFIG_HOME=$E2E_TMP/xdg HOME=$E2E_TMP/home
unset TOURNEY_PASSWORD
mkdir -p "$XDG_CONFIG_HOME/tourney" "$HOME"

start_broker --no-ws --organisers o1,o2
cred o1 >"$E2E_TMP/o1.pw"
cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
broker = "tcp://$BROKER_HOST:$BROKER_PORT"
user = o1
password_file = "$E2E_TMP/o1.pw"
timeout = 20
retry = 5
EOF

PROTO=(-I "$E2E_SRC/proto" "$E2E_SRC/proto/console.proto")
F=$E2E_TMP/fake
mkdir -p "$F"
: >"$F/log"
HUB_PW=$(cred hub)

EXPORT_JSON='{"format": "catan", "seed": 7, "players": [{"id": "p1", "name": "A", "decklist": "Stark\n1x Jon Snow (Core)"}, {"id": "p2", "name": "B"}, {"id": "p3", "name": "C"}], "rounds": [{"stage": "round", "tables": [{"table": 1, "players": ["p1", "p2", "p3"], "result": {"vp": {"p1": 10, "p2": 8, "p3": 7}}}]}, {"stage": "round", "tables": [{"table": 1, "players": ["p2", "p3", "p1"]}]}]}'
DRAFT_JSON='{"round": 3, "stage": "round", "tables": [{"table": 1, "players": ["p1", "p2"]}, {"bye": "p3"}]}'
STANDINGS_JSON='{"after_round": 1, "stage": "round", "standings": [{"rank": 1, "player": "p1", "name": "A", "points": 3, "tiebreaks": {}, "dropped": false, "decided_by_lot": false}]}'

# pb_string TEXT: a protobuf text-format string literal (one-line TEXT).
pb_string() {
    local s=${1//\\/\\\\}
    printf '"%s"' "${s//\"/\\\"}"
}

# reply CONSOLE FIELDS...: encodes a ConsoleReply from text-format lines
# and publishes it as the hub.
reply() {
    local con=$1
    shift
    printf '%s\n' "$@" | protoc-c --encode=tourney.v1.ConsoleReply "${PROTO[@]}" \
        >"$F/rep.bin" 2>"$F/rep.err" || {
        echo "ENCODE-FAILED $(cat "$F/rep.err")" >>"$F/log"
        return
    }
    mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 -u hub \
        -P "$HUB_PW" -t "tourney/v1/ctl/$con/resp" -f "$F/rep.bin" ||
        echo "PUBLISH-FAILED" >>"$F/log"
}

# handle TOPIC HEX: one request.
handle() {
    local topic=$1 hex=$2 con cid cmd ev
    con=${topic#tourney/v1/ctl/}
    con=${con%/req}
    printf '%b' "$(sed 's/../\\x&/g' <<<"$hex")" >"$F/req.bin"
    if ! protoc-c --decode=tourney.v1.ConsoleRequest "${PROTO[@]}" \
        <"$F/req.bin" >"$F/req.txt" 2>"$F/req.err"; then
        echo "UNDECODABLE $(cat "$F/req.err")" >>"$F/log"
        return
    fi
    { cat "$F/req.txt"; echo "---"; } >>"$F/log"
    cid=$(sed -n 's/^correlation_id: "\(.*\)"$/\1/p' "$F/req.txt")
    ev=$(sed -n 's/^event_id: "\(.*\)"$/\1/p' "$F/req.txt")
    cmd=$(grep -m1 -E '^[a-z_]+ \{' "$F/req.txt" | cut -d' ' -f1)
    local base=("correlation_id: \"$cid\"" "ok: true" "error_code: ERROR_NONE")
    case $cmd:$ev in
    list_events:*)
        reply "$con" "${base[@]}" "json: $(pb_string '{"events": [{"id": "ev1", "title": "Spring Open"}, {"id": "ev2", "title": "Cup"}]}')" ;;
    create_event:*)
        reply "$con" "${base[@]}" "event_id: \"$ev\"" ;;
    import_players:*)
        reply "$con" "${base[@]}" "count: 3" ;;
    pair_round:*)
        reply "$con" "${base[@]}" "round: 3" "json: $(pb_string "$DRAFT_JSON")" ;;
    show_draft:ev-retry)
        # Answer only the second copy of a correlation id.
        if grep -q -x -F "$cid" "$F/seen"; then
            reply "$con" "${base[@]}" "round: 3" "json: $(pb_string "$DRAFT_JSON")"
        else
            echo "$cid" >>"$F/seen"
        fi ;;
    show_draft:*)
        reply "$con" "${base[@]}" "round: 3" "json: $(pb_string "$DRAFT_JSON")" ;;
    drop_player:*)
        reply "$con" "correlation_id: \"$cid\"" "ok: false" "error_code: ERROR_NOT_FOUND" \
            "message: $(pb_string 'drop_player.player_id: no player "p9" in ev1')" ;;
    get_standings:*)
        reply "$con" "correlation_id: \"o1.0.0.0\"" "ok: true" "error_code: ERROR_NONE" \
            "json: $(pb_string '{"standings": "not yours"}')"
        reply "$con" "${base[@]}" "json: $(pb_string "$STANDINGS_JSON")" ;;
    export_event:*)
        reply "$con" "${base[@]}" "json: $(pb_string "$EXPORT_JSON")" ;;
    close_round:ev-garbage)
        printf 'not protobuf' >"$F/rep.bin"
        mosquitto_pub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 -u hub \
            -P "$HUB_PW" -t "tourney/v1/ctl/$con/resp" -f "$F/rep.bin" ;;
    *)
        reply "$con" "${base[@]}" ;;
    esac
    echo "HANDLED $cmd $cid $ev" >>"$F/log"
}

: >"$F/seen"
mkfifo "$F/fifo"
stdbuf -oL mosquitto_sub -h "$BROKER_HOST" -p "$BROKER_PORT" -V mqttv5 -q 1 \
    -u watch2 -P "$(cred watch2)" -t 'tourney/v1/ctl/+/req' -d -F 'REQ %t %x' \
    >"$F/fifo" 2>"$F/sub.err" </dev/null &
e2e_track $!
(
    while IFS= read -r line; do
        case $line in
        'Subscribed (mid'*) echo READY >>"$F/log" ;;
        'REQ '*)
            set -- $line
            handle "$2" "$3"
            ;;
        esac
    done <"$F/fifo"
) &
e2e_track $!
wait_until 10 grep -q -x READY "$F/log" || fail "fake hub: no SUBACK: $(cat "$F/sub.err")"
ok "fake hub listening"

run() {
    local want=$1 st
    shift
    timeout 60 "$TOURNEY" live "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    st=$?
    [ "$st" -eq "$want" ] ||
        fail "tourney live $*: exit $st, expected $want; stderr: $(cat "$E2E_TMP/err"); fake hub: $(tail -n 30 "$F/log")"
}

# last_request: the protobuf text of the newest request the hub decoded.
last_request() {
    awk 'BEGIN { RS = "---\n" } { r = $0 } END { printf "%s", r }' \
        <(grep -v -E '^(HANDLED|READY)' "$F/log")
}

# has LINE...: the newest request contains each of these lines (exactly,
# leading blanks ignored).
has() {
    local l
    for l in "$@"; do
        last_request | sed 's/^ *//' | grep -q -x -F -e "$l" ||
            fail "the request lacks \"$l\": $(last_request)"
    done
}

# --- one command after another --------------------------------------------
run 0 event list
grep -q -x 'id=ev1  title=Spring Open' "$E2E_TMP/out" || fail "event list: $(cat "$E2E_TMP/out")"
has 'organiser_id: "o1"' 'list_events {'
last_request | grep -q '^event_id' && fail "list_events carries an event id"
run 0 event list --json
grep -q -F '{"events": [{"id": "ev1", "title": "Spring Open"}' "$E2E_TMP/out" || fail "--json: $(cat "$E2E_TMP/out")"
ok "event list: records for people, the payload as is with --json"

run 0 event create ev1 --format catan --title 'Spring Open' --seed 42 --options '{"rounds": 3}'
grep -q -x 'created event ev1' "$E2E_TMP/out" || fail "event create: $(cat "$E2E_TMP/out")"
has 'event_id: "ev1"' 'preset: "catan"' 'title: "Spring Open"' 'seed: 42' \
    'options_json: "{\"rounds\": 3}"'
printf '{"game": "catan"}' >"$E2E_TMP/fmt.json"
run 0 event create ev2 --format-file "$E2E_TMP/fmt.json" --json
has 'format_json: "{\"game\": \"catan\"}"'
last_request | grep -q 'seed:' && fail "a seed was sent without --seed"
grep -q '"event_id": "ev2"' "$E2E_TMP/out" || fail "--json without payload: $(cat "$E2E_TMP/out")"
ok "event create: preset or format file, title, seed, options"

printf 'id,name\np1,A\np2,B\np3,C\n' >"$E2E_TMP/players.csv"
run 0 players import ev1 "$E2E_TMP/players.csv"
grep -q -x 'imported 3 players into ev1' "$E2E_TMP/out" || fail "import: $(cat "$E2E_TMP/out")"
has 'csv: "id,name\np1,A\np2,B\np3,C\n"'

run 0 player add ev1 p4 'Dana Berg' --club Oslo --rating 1500 --army Borgo --army Moloch --first-round 2 --beginner
has 'id: "p4"' 'name: "Dana Berg"' 'club: "Oslo"' 'rating: 1500' 'armies: "Borgo"' \
    'armies: "Moloch"' 'beginner: true' 'first_round: 2'
printf 'Stark\n1x Jon Snow (Core)\n' >"$E2E_TMP/deck.txt"
run 0 player add ev1 p5 'Eva' --faction Stark --decklist "$E2E_TMP/deck.txt"
has 'faction: "Stark"' 'decklist: "Stark\n1x Jon Snow (Core)\n"'
run 2 player add ev1 p5 'Eva' --decklist "$E2E_TMP/no-such-deck.txt"
run 0 player dq ev1 p4 --after-round 1 --reason 'rude'
has 'disqualify_player {' 'player_id: "p4"' 'after_round: 1' 'reason: "rude"'
run 0 player declare ev1 p4 --army Borgo --army Moloch --army Vegas
has 'declare_armies {' 'player_id: "p4"' 'armies: "Borgo"' 'armies: "Moloch"' \
    'armies: "Vegas"'
run 2 player declare ev1 p4
run 0 player rejoin ev1 p4 --from-round 3
has 'rejoin_player {' 'from_round: 3'
ok "players import and player add/dq/rejoin put their arguments on the wire"

# The hub's refusal: exit 3, its message, one line.
run 3 player drop ev1 p9
[ "$(wc -l <"$E2E_TMP/err")" -eq 1 ] || fail "refusal: $(cat "$E2E_TMP/err")"
grep -q -x -F 'tourney: the hub refused player drop: no player "p9" in ev1' \
    "$E2E_TMP/err" || fail "refusal text: $(cat "$E2E_TMP/err")"
[ ! -s "$E2E_TMP/out" ] || fail "a refusal printed on stdout"
ok "the hub refuses: exit 3, its message on stderr"

run 0 round pair ev1
grep -q 'paired round 3 of ev1 as a draft' "$E2E_TMP/out" || fail "pair: $(cat "$E2E_TMP/out")"
grep -q -x '  table 1   p1 - p2' "$E2E_TMP/out" || fail "pair tables: $(cat "$E2E_TMP/out")"
grep -q -x '  bye       p3' "$E2E_TMP/out" || fail "pair bye: $(cat "$E2E_TMP/out")"
run 0 round show ev1 --json
[ "$(cat "$E2E_TMP/out")" = "$DRAFT_JSON" ] || fail "show --json: $(cat "$E2E_TMP/out")"
run 0 round swap ev1 3 p1 p3
has 'swap_players {' 'round: 3' 'player_a: "p1"' 'player_b: "p3"'
run 0 round move ev1 3 1 7
has 'move_table {' 'table: 1' 'to_table: 7'
run 0 round fix ev1 p2 5
has 'fix_table {' 'player_id: "p2"' 'table: 5'
ok "round pair/show/swap/move/fix"

# publish without --round asks for the draft's round first.
run 0 round publish ev1
has 'publish_round {' 'round: 3'
grep -q 'published round 3 of ev1' "$E2E_TMP/out" || fail "publish: $(cat "$E2E_TMP/out")"
run 0 round publish ev1 --round 5
has 'round: 5'
# clock and close without --round: the number of rounds in the export (2).
run 0 clock start ev1
has 'clock_start {' 'round: 2'
last_request | grep -q 'table:' && fail "clock start for every table sent a table"
run 0 clock pause ev1 --table 4
has 'clock_pause {' 'table: 4'
run 0 clock resume ev1 --round 2
has 'clock_resume {' 'round: 2'
run 0 clock extend ev1 2.5 --table 3
has 'clock_extend {' 'table: 3' 'extra_ms: 150000'
run 0 clock extend ev1 90s
has 'extra_ms: 90000'
run 0 round close ev1
has 'close_round {' 'round: 2'
run 0 stage next ev1 --confirm
has 'next_stage {' 'confirm: true'
ok "publish, clock and close find their round; durations in ms"

run 0 result enter ev1 2 1 '{"vp": {"p1": 10, "p2": 8, "p3": 7}}'
has 'enter_result {' 'round: 2' 'table: 1' 'ct {' 'player_id: "p3"' 'vp: 7'
grep -q 'entered the result of table 1, round 2 of ev1' "$E2E_TMP/out" || fail "enter: $(cat "$E2E_TMP/out")"
run 0 result enter ev1 1 4 '{"winner": "p1", "hq_diff": 7, "armies": {"p1": "Borgo"}}' --override --reason 'typo'
has 'nh {' 'winner_id: "p1"' 'hq_diff: 7' 'army: "Borgo"' 'override: true' 'reason: "typo"'
run 0 result enter ev1 1 4 '{"scores": {"p1": 25, "p2": 18}, "penalty": {"p2": 0.5}}'
has 'tx {' 'score: 25' 'penalty_units: 600'
run 0 result enter ev1 1 4 '{"draw": true}' --game tantrix
has 'tx {' 'draw: true'
run 0 result enter ev1 1 4 - <<<'{"games": ["p1", "p2", "p1"]}'
has 'gt {' 'games: "p2"'
run 0 result penalty ev1 2 1 p2 1.5 --reason late
has 'penalty {' 'player_id: "p2"' 'points_units: 1800' 'reason: "late"'
ok "result enter maps event-file result objects (CT, NH, TX, GT); penalty in 1/1200 units"

run 0 standings ev1
grep -q -x 'standings after round 1 (round)' "$E2E_TMP/out" || fail "standings: $(cat "$E2E_TMP/out")"
grep -q -E '^ +1  p1 +3  A$' "$E2E_TMP/out" || fail "standings row: $(cat "$E2E_TMP/out")"
run 0 standings ev1 --json --after-round 1
[ "$(cat "$E2E_TMP/out")" = "$STANDINGS_JSON" ] || fail "standings --json: $(cat "$E2E_TMP/out")"
has 'get_standings {' 'after_round: 1'
ok "standings: a foreign correlation id is ignored, the right reply printed"

run 0 export ev1
[ "$(cat "$E2E_TMP/out")" = "$EXPORT_JSON" ] || fail "export: $(cat "$E2E_TMP/out")"
ok "export prints the event file as is"

# GT-14: the judge's view of a deck list comes from the export.
run 0 decklist ev1 p1
grep -q '^1x Jon Snow (Core)$' "$E2E_TMP/out" || fail "decklist: $(cat "$E2E_TMP/out")"
run 3 decklist ev1 p2
grep -q 'no deck list' "$E2E_TMP/err" || fail "decklist without one: $(cat "$E2E_TMP/err")"
ok "decklist shows a player's deck list (GT-14)"

# CM-4: the lots of the exported event, with purpose and outcome.
run 0 lots ev1
grep -q '^event seed 7 ' "$E2E_TMP/out" || fail "lots: $(cat "$E2E_TMP/out")"
grep -q '^    table 1: p1 p2 p3$' "$E2E_TMP/out" || fail "lots, round 1 as drawn: $(cat "$E2E_TMP/out")"
grep -q '^tiebreak lot (purpose tiebreak, CM-8), luckiest first: ' "$E2E_TMP/out" ||
    fail "lots, tiebreak: $(cat "$E2E_TMP/out")"
ok "lots prints the seed, round 1 as drawn and the tiebreak lot (CM-4)"

# A reader that stops early (`| head -1`) is not an error: the rest of the
# output is dropped without a word and the exit status is 0
# (docs/console.md, exit statuses).  First as typed, then with the
# reader gone before the first byte, so that every write fails (EPIPE)
# whatever the output's size and the timing.
timeout 60 "$TOURNEY" live lots ev1 2>"$E2E_TMP/err" | head -1 >"$E2E_TMP/out"
st=${PIPESTATUS[0]}
[ "$st" -eq 0 ] || fail "lots | head -1: exit $st; stderr: $(cat "$E2E_TMP/err")"
[ ! -s "$E2E_TMP/err" ] || fail "lots | head -1: stderr: $(cat "$E2E_TMP/err")"
grep -q '^event seed 7 ' "$E2E_TMP/out" || fail "lots | head -1: $(cat "$E2E_TMP/out")"
for cmd in "lots ev1" "export ev1" "standings ev1 --csv"; do
    # shellcheck disable=SC2086
    st=0
    python3 "$E2E_SRC/tests/cli/closed_pipe.py" "$E2E_TMP/err" timeout 60 "$TOURNEY" live $cmd || st=$?
    [ "$st" -eq 0 ] || fail "live $cmd to a closed pipe: exit $st; stderr: $(cat "$E2E_TMP/err")"
    [ ! -s "$E2E_TMP/err" ] || fail "live $cmd to a closed pipe: stderr: $(cat "$E2E_TMP/err")"
done
ok "lots | head -1, and lots, export, standings --csv to a closed pipe: stderr empty, exit 0"

run 0 devices --event ev1
has 'list_devices {' 'event_id: "ev1"'
run 0 device assign table-002 ev1 2
has 'assign_device {' 'device_id: "table-002"' 'table: 2'
grep -q 'table-002 is table 2 of ev1' "$E2E_TMP/out" || fail "assign: $(cat "$E2E_TMP/out")"
ok "devices and device assign"

# Retry: the hub ignores the first copy; the console resends after --retry
# with the same correlation id and takes the answer.
run 0 round show ev-retry --retry 1
copies=$(grep '^HANDLED show_draft .* ev-retry$' "$F/log" | awk '{print $3}')
[ "$(wc -l <<<"$copies")" -eq 2 ] || fail "expected 2 copies, got: $copies"
[ "$(sort -u <<<"$copies" | wc -l)" -eq 1 ] || fail "the retry changed the correlation id: $copies"
ok "an unanswered request is resent with the same correlation id"

run 4 round close ev-garbage --round 1 --timeout 2
grep -q 'no answer from the hub within 2 s.*ignored an undecodable reply' "$E2E_TMP/err" ||
    fail "garbage reply: $(cat "$E2E_TMP/err")"
ok "an undecodable reply is ignored (exit 4, named)"

grep -q -E '^(UNDECODABLE|ENCODE-FAILED|PUBLISH-FAILED)' "$F/log" &&
    fail "fake hub trouble: $(grep -E '^(UNDECODABLE|ENCODE-FAILED|PUBLISH-FAILED)' "$F/log")"
e2e_done
