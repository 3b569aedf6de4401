#!/usr/bin/env bash
# test_config_precedence.sh - issue 22 item 5: a command-line flag beats
# the config file, the config file the default, for tourney-hub,
# tourney-table and `tourney live`, also for a setting given two ways
# (--password on the command line vs password_file in the file).  Each
# program gets a config file whose password (file) is wrong and the right
# one on the command line, against a real mosquitto that checks logins:
# it must log in.
#
# usage: bash test_config_precedence.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

need_binaries HUB TABLE TOURNEY
start_broker --tables 2 --no-ws
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config
echo "wrong-password" >"$E2E_TMP/wrong.pw"
chmod 600 "$E2E_TMP/wrong.pw"

# --- tourney-hub: --password beats password_file from the file ---------------

# The file's password_file (live_hub_config's) now holds a wrong password.
sed -i "s|^password_file = .*|password_file = \"$E2E_TMP/wrong.pw\"|" "$E2E_TMP/hub.conf"
: >"$E2E_TMP/hub.log"
"$HUB" --config "$E2E_TMP/hub.conf" --password="$(cred hub)" \
    >>"$E2E_TMP/hub.log" 2>&1 </dev/null &
HUB_PID=$!
e2e_track "$HUB_PID"
wait_until 15 grep -q "broker connected" "$E2E_TMP/hub.log" ||
    fail "tourney-hub --password did not win over password_file: $(tail -n 5 "$E2E_TMP/hub.log")"
ok "tourney-hub: --password on the command line beats password_file in the config"
# (Without the flag the file's password_file is used: every other e2e
# test's hub runs that way, live_hub_config.)

# --- tourney-table: --mqtt_password beats mqtt_password_file ------------------

cat >"$E2E_TMP/t1.conf" <<EOF
device_id = "table-001"
mqtt_password_file = "$E2E_TMP/wrong.pw"
broker_uri = "tcp://$BROKER_HOST:1"
outbox = "$E2E_TMP/table-001.db"
keepalive_s = 2
EOF
mkfifo "$E2E_TMP/in"
"$TABLE" --config "$E2E_TMP/t1.conf" --display=headless --mqtt_password="$(cred table-001)" \
    --broker_uri="tcp://$BROKER_HOST:$BROKER_PORT" <"$E2E_TMP/in" >"$E2E_TMP/t1.out" 2>"$E2E_TMP/t1.err" &
TABLE_PID=$!
e2e_track "$TABLE_PID"
exec {IN_FD}>"$E2E_TMP/in"
wait_until 15 grep -q -x "net online queued=0" "$E2E_TMP/t1.out" ||
    fail "tourney-table --mqtt_password did not win over mqtt_password_file: $(tail -n 5 "$E2E_TMP/t1.err")"
printf 'quit\n' >&"$IN_FD"
exec {IN_FD}>&-
ok "tourney-table: --mqtt_password and --broker_uri on the command line beat the config file"

# --- tourney live: --password-file and --broker beat the config file ----------

conf=$XDG_CONFIG_HOME/tourney/console.conf
sed -i -e "s|^password_file = .*|password_file = \"$E2E_TMP/wrong.pw\"|" \
    -e "s|^broker = .*|broker = \"tcp://$BROKER_HOST:1\"|" "$conf"
timeout 60 "$TOURNEY" live --password-file "$E2E_TMP/o1.pw" \
    --broker "tcp://$BROKER_HOST:$BROKER_CONSOLE_PORT" event list >"$E2E_TMP/out" 2>"$E2E_TMP/err" ||
    fail "tourney live with the right flags: $(cat "$E2E_TMP/err")"
ok "tourney live: --password-file and --broker on the command line beat the config file"
st=0
timeout 60 "$TOURNEY" live --broker "tcp://$BROKER_HOST:$BROKER_CONSOLE_PORT" event list \
    >"$E2E_TMP/out" 2>"$E2E_TMP/err" || st=$?
[ "$st" -eq 2 ] && grep -q "the broker refused login \"o1\"" "$E2E_TMP/err" ||
    fail "tourney live without --password-file: exit $st, $(cat "$E2E_TMP/err")"
ok "tourney live: without the flag the config file's (wrong) password_file is used"
e2e_done
