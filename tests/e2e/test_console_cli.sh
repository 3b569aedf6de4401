#!/usr/bin/env bash
# test_console_cli.sh - `tourney live` without a hub: usage errors (exit 2,
# checked before any setting or connection), settings from the config
# file, flags and TOURNEY_PASSWORD, a refused login (exit 2), a login the
# ACL does not let write ctl/<login>/req (exit 2, PUBACK 135), no answer
# (exit 4) with the request resent with the SAME bytes (same correlation
# id) every --retry seconds, a fresh id per invocation, and wait-hub
# following the retained tourney/v1/hub/state.
#
# Everything waits for conditions; the only clocks are the console's own
# --timeout/--retry, which are what is under test.
#
# usage: bash test_console_cli.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
# issue 17: the hub compares its model with a fresh load after every
# command and result (it aborts on a difference)
export TNY_MODEL_CHECK=1
e2e_init "$@"

need_binaries TOURNEY
# No organiser's own config may leak in.
export XDG_CONFIG_HOME=$E2E_TMP/xdg HOME=$E2E_TMP/home
unset TOURNEY_PASSWORD
mkdir -p "$XDG_CONFIG_HOME/tourney" "$HOME"

# run STATUS ARGS...: tourney live ARGS, expecting exit STATUS; output in
# $E2E_TMP/out and $E2E_TMP/err.
run() {
    local want=$1 st
    shift
    timeout 60 "$TOURNEY" live "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
    st=$?
    [ "$st" -eq "$want" ] ||
        fail "tourney live $*: exit $st, expected $want; stderr: $(cat "$E2E_TMP/err")"
}

# err_is REGEX: stderr is exactly one line matching REGEX.
err_is() {
    [ "$(wc -l <"$E2E_TMP/err")" -eq 1 ] ||
        fail "stderr is not one line: $(cat "$E2E_TMP/err")"
    grep -q -E -e "$1" "$E2E_TMP/err" || fail "stderr \"$(cat "$E2E_TMP/err")\" does not match /$1/"
}

# --- usage: exit 2, one line, no broker needed ---------------------------
run 0 --help
grep -q '^usage: tourney live' "$E2E_TMP/out" || fail "--help text"
grep -q 'round publish' "$E2E_TMP/out" || fail "--help lists no round publish"
# round reopen's line says what it does (the tables report again, the
# draft goes) and that a closed round's result needs no reopen (CM-5).
tr -s ' \n' ' ' <"$E2E_TMP/out" | grep -o 'round reopen.*round publish' >"$E2E_TMP/reopen" || fail "--help lists no round reopen"
grep -q 'its tables report again' "$E2E_TMP/reopen" || fail "reopen help: $(cat "$E2E_TMP/reopen")"
grep -q 'result enter --override' "$E2E_TMP/reopen" || fail "reopen help: $(cat "$E2E_TMP/reopen")"
timeout 10 "$TOURNEY" --help >"$E2E_TMP/out" || fail "tourney --help"
grep -q '^  live ' "$E2E_TMP/out" || fail "tourney --help does not mention live"
run 2
err_is 'missing command'
run 2 frobnicate
err_is 'unknown command "frobnicate"'
run 2 round pair
err_is 'round pair: expected EVENT_ID'
run 2 round pair ev1 extra
err_is 'too many arguments'
run 2 round pair ev1 --bogus
err_is 'unknown option --bogus'
run 2 round pair 'bad/id'
err_is 'EVENT_ID "bad/id"'
run 2 clock extend ev1 soon
err_is 'expected a duration'
run 2 result enter ev1 1 2 '{"vp": {"p1": 10}, "colour": 3}'
err_is 'result.colour: unknown key'
run 2 result enter ev1 1 2 '{"vp": '
err_is 'result: invalid JSON'
run 2 result penalty ev1 1 2 p1 0.0001
err_is 'POINTS "0.0001"'
run 2 stage next ev1
err_is 'add --confirm'
run 2 event create ev1
err_is 'give --format NAME or --format-file FILE'
run 2 event create ev1 --format catan --options '[1]'
err_is 'options: expected a JSON object'
ok "usage errors: exit 2 with one line on stderr, before any setting is needed"

# --- settings ---------------------------------------------------------------
run 2 round pair ev1
err_is 'no broker: give --broker'
run 2 round pair ev1 --broker mqtt.example:1883
err_is 'broker "mqtt.example:1883": expected tcp://'
run 2 round pair ev1 --broker tcp://127.0.0.1:1
err_is 'no user'
run 2 round pair ev1 --broker tcp://127.0.0.1:1 --user O1
err_is 'user "O1"'
run 2 round pair ev1 --broker tcp://127.0.0.1:1 --user o1
err_is 'no password'
run 2 round pair ev1 --broker tcp://127.0.0.1:1 --user o1 --password-file "$E2E_TMP/none"
err_is 'password file: cannot read'
# A relative password_file of the config file is read from the current
# directory, not beside the config file (tryout 13): the error says so.
printf 'broker = tcp://127.0.0.1:1\nuser = o1\npassword_file = "desk.pw"\n' >"$E2E_TMP/rel.conf"
run 2 round pair ev1 --config "$E2E_TMP/rel.conf"
err_is "cannot read desk.pw: .* \\(password_file in $E2E_TMP/rel.conf: a relative path is read from the current directory, $PWD\\)"
# A line copied from users.cred ("LOGIN PASSWORD") is not a password: named,
# as the hub's and the table's password_file do, not sent to be refused.
printf 'o1 Secret123\n' >"$E2E_TMP/cred-line.pw"
run 2 round pair ev1 --broker tcp://127.0.0.1:1 --user o1 --password-file "$E2E_TMP/cred-line.pw"
err_is 'cred-line.pw: looks like a users.cred line'
run 2 round pair ev1 --config "$E2E_TMP/missing.conf"
err_is 'missing.conf'
printf 'broker = tcp://127.0.0.1:1\nbrokr = x\n' >"$E2E_TMP/bad.conf"
run 2 round pair ev1 --config "$E2E_TMP/bad.conf"
err_is 'bad.conf:2: .*brokr'
run 2 round pair ev1 --timeout 0
err_is 'timeout'
ok "missing or bad settings: exit 2 with one line naming the setting"

start_broker --no-ws --organisers o1,o2
uri=tcp://$BROKER_HOST:$BROKER_PORT
cred o1 >"$E2E_TMP/o1.pw"
printf 'wrong\n' >"$E2E_TMP/wrong.pw"
cat >"$XDG_CONFIG_HOME/tourney/console.conf" <<EOF
# the default config file
broker = "$uri"
user = o1
password_file = "$E2E_TMP/o1.pw"
timeout = 20
EOF

# The effective settings: file, then flags.
run 0 --dump-config --timeout 7
grep -q -x "broker = \"$uri\"" "$E2E_TMP/out" || fail "dump-config: $(cat "$E2E_TMP/out")"
grep -q -x 'timeout = "7"' "$E2E_TMP/out" || fail "dump-config: flag did not win"

# --- refused login, refused request -------------------------------------
run 2 round pair ev1 --password-file "$E2E_TMP/wrong.pw" --timeout 10
err_is 'refused login "o1": .*reason 13[45]'
# TOURNEY_PASSWORD beats the config file's password_file, a flag beats both.
TOURNEY_PASSWORD=wrong run 2 round pair ev1 --timeout 10
err_is 'refused login'
TOURNEY_PASSWORD=wrong run 4 round pair ev1 --timeout 5 --password-file "$E2E_TMP/o1.pw"
err_is 'no answer from the hub'
ok "wrong password: exit 2, 'refused login' (file, TOURNEY_PASSWORD; --password-file wins)"

# table-001 is a valid login but may not write ctl/table-001/req.
cred table-001 >"$E2E_TMP/t1.pw"
run 2 round pair ev1 --user table-001 --password-file "$E2E_TMP/t1.pw" --timeout 10
err_is 'refused the request on tourney/v1/ctl/table-001/req \(reason 135'
ok "a device login: the broker refuses the request (PUBACK 135), exit 2"

# --- no hub: exit 4, the same request resent --------------------------------
e2e_sub_start reqs watch 'tourney/v1/ctl/+/req' -- -F 'REQ %t %x'
count_reqs() { grep -c "^REQ tourney/v1/ctl/o1/req " "$E2E_TMP/reqs.out"; }
run 4 round pair ev1 --timeout 6 --retry 1
err_is 'no answer from the hub within 6 s \(round pair sent [2-9] times; hub state: never announced'
wait_for 10 '[ "$(count_reqs)" -ge 2 ]' || fail "the watcher saw $(count_reqs) requests"
n1=$(count_reqs)
[ "$(grep '^REQ ' "$E2E_TMP/reqs.out" | sort -u | wc -l)" -eq 1 ] ||
    fail "the resent requests differ: $(grep '^REQ ' "$E2E_TMP/reqs.out")"
ok "no hub: exit 4 after --timeout; $n1 identical copies of the request (same correlation id)"

run 4 round pair ev1 --timeout 5 --retry 10
wait_for 10 '[ "$(count_reqs)" -gt "$n1" ]' || fail "the second request never arrived"
[ "$(grep '^REQ ' "$E2E_TMP/reqs.out" | sort -u | wc -l)" -eq 2 ] ||
    fail "a second invocation reused the first one's bytes"
ok "a new invocation sends a new correlation id"

# --- wait-hub -------------------------------------------------------------------
# 5 s, not 1: a Paho connect alone can take over a second on a loaded
# machine (its receive thread polls once a second), and these checks need
# the connection to have read the retained hub/state.
run 4 wait-hub --timeout 5
err_is 'not online after 5 s \(hub state: never announced'
e2e_pub hub tourney/v1/hub/state offline -r || fail "publish hub state"
run 4 wait-hub --timeout 5
err_is 'hub state: offline'
e2e_pub hub tourney/v1/hub/state online -r || fail "publish hub state"
run 0 wait-hub --timeout 10
grep -q -x 'the hub is online' "$E2E_TMP/out" || fail "wait-hub output: $(cat "$E2E_TMP/out")"
# It also waits for a hub that comes later.
e2e_pub hub tourney/v1/hub/state offline -r || fail "publish hub state"
subs_o1() { grep -c 'Received SUBSCRIBE from o1' "$BROKER_LOG"; }
n_subs=$(subs_o1)
timeout 30 "$TOURNEY" live wait-hub --timeout 20 >"$E2E_TMP/wait.out" 2>&1 &
waiter=$!
e2e_track "$waiter"
# The waiter is subscribed once the broker logged its SUBSCRIBE.
wait_for 10 '[ "$(subs_o1)" -gt "$n_subs" ]' || fail "wait-hub never subscribed"
e2e_pub hub tourney/v1/hub/state online -r || fail "publish hub state"
wait "$waiter" || fail "wait-hub exited $?: $(cat "$E2E_TMP/wait.out")"
ok "wait-hub: exit 4 while the hub is offline or unknown, 0 once online"

e2e_done
