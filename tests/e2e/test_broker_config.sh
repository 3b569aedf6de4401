#!/usr/bin/env bash
# test_broker_config.sh - deploy/broker/gen-config.sh as a tool: --help;
# every bad argument is one stderr line, exit status 2 and no files;
# re-runs keep passwords (byte-identical output), growing and shrinking
# the table count keeps the remaining passwords, --rotate changes them
# all; file modes; generated passwords log in; the venue defaults; TLS on
# the venue listener; the feed bridge dials its own loopback listener
# (issue 23: its login is refused elsewhere); --http-dir without the
# pages' vendor/ is warned about.
#
# usage: bash test_broker_config.sh SOURCE_DIR [BUILD_DIR]
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

GEN=$E2E_SRC/deploy/broker/gen-config.sh
me=$(id -un)

# gen ARGS...: exit status in $st, stdout/stderr in gen.out / gen.err.
gen() {
    bash "$GEN" "$@" >"$E2E_TMP/gen.out" 2>"$E2E_TMP/gen.err"
    st=$?
}

# --- help and bad arguments ----------------------------------------------------

gen --help
[ $st -eq 0 ] && grep -q '^usage: gen-config.sh \[options\] OUTDIR$' "$E2E_TMP/gen.out" ||
    fail "--help: exit $st: $(head -n 1 "$E2E_TMP/gen.out")"
ok "--help prints the usage, exit 0"

touch "$E2E_TMP/a-file" "$E2E_TMP/cert.pem"
out=$E2E_TMP/never
while IFS='|' read -r want args; do
    [ -n "$want" ] || continue
    # shellcheck disable=SC2086
    gen $args
    [ $st -eq 2 ] || fail "gen-config $args: exit $st, wanted 2"
    [ "$(wc -l <"$E2E_TMP/gen.err")" -eq 1 ] ||
        fail "gen-config $args: stderr is not one line: $(cat "$E2E_TMP/gen.err")"
    grep -q -F -- "$want" "$E2E_TMP/gen.err" ||
        fail "gen-config $args: stderr \"$(cat "$E2E_TMP/gen.err")\" lacks \"$want\""
    [ ! -e "$out" ] || fail "gen-config $args: created $out"
done <<EOF
missing OUTDIR|--tables 3
more than one output directory|$out $out-2
unknown option "--tabels"|--tabels 3 $out
--tables: missing value|$out --tables
--tables: expected an integer 0..9999, got "x"|--tables x $out
--tables: expected an integer 0..9999, got "10000"|--tables 10000 $out
--tables: expected an integer 0..9999, got "-1"|--tables -1 $out
--port: expected an integer 1..65535, got "0"|--port 0 $out
--port: expected an integer 1..65535, got "65536"|--port 65536 $out
--ws-port: expected an integer 1..65535, got "http"|--ws-port http $out
--ws-port: 1883 is also the MQTT listener's port|--ws-port 1883 $out
--bind: expected an IPv4 address like 192.168.1.10, got "1.2.3"|--bind 1.2.3 $out
--bind: expected an IPv4 address like 192.168.1.10, got "256.1.1.1"|--bind 256.1.1.1 $out
--ws-bind: expected an IPv4 address like 192.168.1.10, got "localhost"|--ws-bind localhost $out
--organisers: "O1" is not a login name|--organisers O1 $out
--organisers: "table-007" is reserved for table devices|--organisers o1,table-007 $out
--organisers: "feed-bridge" is reserved for the feed broker's bridge|--organisers feed-bridge $out
--hub-user: "a/b" is not a login name|--hub-user a/b $out
login "o1" is listed twice|--organisers o1,o2,o1 $out
login "hub" is listed twice|--monitors watch,hub $out
--monitors: "" is not a login name|--monitors watch,,x $out
--certfile: cannot read "$E2E_TMP/nope.pem"|--certfile $E2E_TMP/nope.pem --keyfile $E2E_TMP/cert.pem $out
--certfile: needs --keyfile|--certfile $E2E_TMP/cert.pem $out
--keyfile: needs --certfile|--keyfile $E2E_TMP/cert.pem $out
--cafile: only used with --certfile/--keyfile|--cafile $E2E_TMP/cert.pem $out
--run-as: "9bad" is not a user name|--run-as 9bad $out
--max-queued-messages: expected an integer 1000..10000000, got "10"|--max-queued-messages 10 $out
--max-inflight: expected an integer 20..65535, got "0"|--max-inflight 0 $out
exists and is not a directory|$E2E_TMP/a-file
EOF

ok "bad arguments: one stderr line each, exit 2, nothing written"

# --http-dir without vendor/ (deploy/overlays/install.sh not run): the pages
# would load no MQTT library; gen-config says so, and writes the config.
mkdir -p "$E2E_TMP/pages"
echo '<html></html>' >"$E2E_TMP/pages/hall.html"
gen --tables 1 --run-as "$me" --http-dir "$E2E_TMP/pages" "$E2E_TMP/cfg-pages"
[ $st -eq 0 ] || fail "--http-dir without vendor/: exit $st: $(cat "$E2E_TMP/gen.err")"
grep -q -F "gen-config.sh: warning: $E2E_TMP/pages/vendor missing: run deploy/overlays/install.sh" "$E2E_TMP/gen.err" ||
    fail "--http-dir without vendor/: no warning: $(cat "$E2E_TMP/gen.err")"
mkdir -p "$E2E_TMP/pages/vendor"
echo '/* bundle */' >"$E2E_TMP/pages/vendor/mqtt.min.js"
gen --tables 1 --run-as "$me" --http-dir "$E2E_TMP/pages" "$E2E_TMP/cfg-pages2"
[ $st -eq 0 ] && ! grep -q 'vendor missing' "$E2E_TMP/gen.err" ||
    fail "--http-dir with vendor/: exit $st: $(cat "$E2E_TMP/gen.err")"
ok "--http-dir without vendor/mqtt.min.js: a warning naming deploy/overlays/install.sh"

# --- idempotence, growth, rotation ---------------------------------------------

v=$E2E_TMP/venue
gen --tables 5 --organisers o1,o2 --run-as "$me" "$v"
[ $st -eq 0 ] || fail "gen: exit $st: $(cat "$E2E_TMP/gen.err")"
[ ! -s "$E2E_TMP/gen.out" ] || fail "gen printed on stdout"
for f in mosquitto.conf feed.conf feed-front.json passwd passwd-bridge acl acl-feed users.cred devices.cred; do
    [ -f "$v/$f" ] || fail "no $f"
    [ "$(stat -c %a "$v/$f")" = 600 ] || fail "$f has mode $(stat -c %a "$v/$f")"
done
[ "$(cut -d' ' -f1 "$v/devices.cred" | tr '\n' ' ')" = "table-001 table-002 table-003 table-004 table-005 " ] ||
    fail "devices.cred: $(cut -d' ' -f1 "$v/devices.cred" | tr '\n' ' ')"
[ "$(cut -d' ' -f1 "$v/users.cred" | tr '\n' ' ')" = "hub o1 o2 feed-bridge " ] ||
    fail "users.cred: $(cut -d' ' -f1 "$v/users.cred" | tr '\n' ' ')"
[ "$(cut -d: -f1 "$v/passwd" | tr '\n' ' ')" = "hub o1 o2 table-001 table-002 table-003 table-004 table-005 " ] ||
    fail "passwd logins: $(cut -d: -f1 "$v/passwd" | tr '\n' ' ')"
[ "$(cut -d: -f1 "$v/passwd-bridge" | tr '\n' ' ')" = "feed-bridge " ] ||
    fail "passwd-bridge logins: $(cut -d: -f1 "$v/passwd-bridge" | tr '\n' ' ')"
[ "$(cut -d' ' -f2 "$v/users.cred" "$v/devices.cred" | sort -u | wc -l)" -eq 9 ] ||
    fail "passwords are not all different"
cut -d' ' -f2 "$v/users.cred" "$v/devices.cred" | grep -q -v -x '[A-Za-z0-9_-]\{24\}' &&
    fail "a password is not 24 URL-safe characters"
grep -q -x 'listener 1883 0.0.0.0' "$v/mosquitto.conf" || fail "venue default listener"
# The feed's WebSocket port is its front's (feed-front.js); the feed
# broker itself listens on its local socket only (issue 17).
jq -e --arg s "$v/run/feed.sock" '.address == "0.0.0.0" and .port == 9001 and .broker_socket == $s and .http_dir == null' \
    "$v/feed-front.json" >/dev/null || fail "feed default WebSocket port: $(cat "$v/feed-front.json")"
grep -q -x "listener 0 $v/run/feed.sock" "$v/feed.conf" || fail "feed.conf: no local socket listener"
[ "$(grep -c "^listener" "$v/feed.conf")" = 1 ] && ! grep -q "^protocol" "$v/feed.conf" ||
    fail "feed.conf has another listener: $(grep -e "^listener" -e "^protocol" "$v/feed.conf")"
grep -q -x 'listener 1884 127.0.0.1' "$v/mosquitto.conf" || fail "no loopback bridge listener (--port + 1)"
grep -q -x 'address 127.0.0.1:1884' "$v/feed.conf" || fail "the bridge should dial its loopback listener"
grep -q -x "remote_password $(awk '$1 == "feed-bridge" { print $2 }' "$v/users.cred")" "$v/feed.conf" ||
    fail "feed.conf lacks the bridge's password"
ok "5 tables: files 0600, logins in order, 9 distinct 24-character passwords, venue defaults"

cp -a "$v" "$E2E_TMP/v1"
gen --tables 5 --organisers o1,o2 --run-as "$me" "$v"
[ $st -eq 0 ] || fail "re-run: exit $st"
for f in mosquitto.conf feed.conf feed-front.json passwd passwd-bridge acl acl-feed users.cred devices.cred; do
    cmp -s "$v/$f" "$E2E_TMP/v1/$f" || fail "re-run changed $f"
done
[ -z "$(find "$v" -name '.gen.*')" ] || fail "a work dir was left behind"
ok "re-run with the same arguments: every file byte-identical"

gen --tables 8 --organisers o1,o2 --run-as "$me" "$v"
[ $st -eq 0 ] || fail "grow: exit $st"
head -n 5 "$v/devices.cred" | cmp -s - "$E2E_TMP/v1/devices.cred" || fail "growing changed old passwords"
head -n 8 "$v/passwd" | cmp -s - "$E2E_TMP/v1/passwd" || fail "growing changed old hashes"
[ "$(wc -l <"$v/devices.cred")" -eq 8 ] || fail "grow: not 8 devices"
gen --tables 2 --organisers o1 --run-as "$me" "$v"
[ $st -eq 0 ] || fail "shrink: exit $st"
[ "$(cat "$v/devices.cred")" = "$(head -n 2 "$E2E_TMP/v1/devices.cred")" ] || fail "shrink: devices.cred"
grep -q -E '^(o2|table-00[3-8]):' "$v/passwd" && fail "shrink: removed logins still in passwd"
grep -q -x 'user o2' "$v/acl" && fail "shrink: o2 still in the acl"
ok "8 tables keep the first 5 passwords; 2 tables and no o2 remove the rest everywhere"

gen --tables 2 --organisers o1 --run-as "$me" --rotate "$v"
[ $st -eq 0 ] || fail "rotate: exit $st"
while read -r name pw; do
    grep -q -x -F "$name $pw" "$E2E_TMP/v1/users.cred" "$E2E_TMP/v1/devices.cred" &&
        fail "--rotate kept the password of $name"
done < <(cat "$v/users.cred" "$v/devices.cred")
ok "--rotate: every password new"

# --- the feed's front refuses a bad configuration, loudly ---------------------
# front CONFIG: runs feed-front.js on CONFIG (node and npm packages as
# launch_feed takes them); its exit status in st, its stderr in front.err.
front() {
    st=0
    NODE_PATH=${TNY_FRONT_NODE_PATH:-$E2E_SRC/deploy/overlays/node_modules} \
        timeout 10 "${TNY_FRONT_NODE:-node}" "$E2E_SRC/deploy/broker/feed-front.js" "$@" \
        >/dev/null 2>"$E2E_TMP/front.err" </dev/null || st=$?
}
fj=$E2E_TMP/front.json
while IFS='|' read -r want json; do
    printf '%s\n' "$json" >"$fj"
    front "$fj"
    [ $st -eq 2 ] && [ "$(wc -l <"$E2E_TMP/front.err")" -eq 1 ] && grep -q -F "feed-front: $fj: $want" "$E2E_TMP/front.err" ||
        fail "front on $json: exit $st, $(cat "$E2E_TMP/front.err") (want: $want)"
done <<EOF
unknown key "htdocs"|{"address": "127.0.0.1", "port": 9001, "broker_socket": "/s", "http_dir": null, "htdocs": "/"}
"port" must be a number|{"address": "127.0.0.1", "port": "9001", "broker_socket": "/s", "http_dir": null}
"http_dir" must be a string or null|{"address": "127.0.0.1", "port": 9001, "broker_socket": "/s"}
"port" must be 1..65535, got 0|{"address": "127.0.0.1", "port": 0, "broker_socket": "/s", "http_dir": null}
"address" must be an IPv4 address, got "hall"|{"address": "hall", "port": 9001, "broker_socket": "/s", "http_dir": null}
"http_dir" /nonexistent is not a directory|{"address": "127.0.0.1", "port": 9001, "broker_socket": "/s", "http_dir": "/nonexistent"}
not JSON|{"address": "127.0.0.1",
EOF
front "$E2E_TMP/none.json"
[ $st -eq 2 ] && grep -q "ENOENT" "$E2E_TMP/front.err" || fail "front without its file: exit $st, $(cat "$E2E_TMP/front.err")"
front
[ $st -eq 2 ] && grep -q "^feed-front: usage:" "$E2E_TMP/front.err" || fail "front without arguments: exit $st, $(cat "$E2E_TMP/front.err")"
# a port it cannot bind: exit 1, the port named
python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$E2E_TMP/held.port" </dev/null &
e2e_track $!
wait_until 5 test -s "$E2E_TMP/held.port" || fail "no port held for the test"
printf '{"address": "127.0.0.1", "port": %d, "broker_socket": "/s", "http_dir": null}\n' "$(cat "$E2E_TMP/held.port")" >"$fj"
front "$fj"
[ $st -eq 1 ] && grep -q "cannot listen on 127.0.0.1:$(cat "$E2E_TMP/held.port"): .*EADDRINUSE" "$E2E_TMP/front.err" ||
    fail "front on a taken port: exit $st, $(cat "$E2E_TMP/front.err")"
ok "feed-front.js: unknown, missing, ill-typed keys, bad JSON, no file: one line, exit 2; a taken port: exit 1"

# --- the generated logins work; as root, mosquitto's group reads the files -----

start_broker --tables 2 --no-ws
for who in hub o1 table-001 table-002 watch; do
    e2e_pub "$who" tourney/v1/x y ||
        fail "login $who: exit $?: $(cat "$E2E_TMP/pub.err")"
done
stop_broker
ok "every generated login connects (venue broker without the feed broker: --no-ws)"

if [ "$(id -u)" = 0 ] && id -u mosquitto >/dev/null 2>&1; then
    r=$E2E_TMP/rooted
    gen --tables 1 --run-as mosquitto "$r"
    [ $st -eq 0 ] || fail "run-as mosquitto: exit $st"
    g=$(id -gn mosquitto)
    for f in mosquitto.conf feed.conf feed-front.json passwd passwd-bridge acl acl-feed; do
        [ "$(stat -c '%a %G' "$r/$f")" = "640 $g" ] || fail "$f: $(stat -c '%a %G' "$r/$f")"
    done
    for f in users.cred devices.cred; do
        [ "$(stat -c '%a %U' "$r/$f")" = "600 root" ] || fail "$f: $(stat -c '%a %U' "$r/$f")"
    done
    [ "$(stat -c '%a %G' "$r")" = "750 $g" ] || fail "dir: $(stat -c '%a %G' "$r")"
    # And mosquitto, dropping to that user, reads them (the temp dir must
    # be traversable for it).
    chmod 0711 "$E2E_TMP"
    for ((i = 0; i < 20; i++)); do
        port_reserve BROKER_PORT BROKER_WS_PORT BROKER_BRIDGE_PORT
        gen --tables 1 --run-as mosquitto --bind 127.0.0.1 --port "$BROKER_PORT" \
            --ws-port "$BROKER_WS_PORT" --bridge-port "$BROKER_BRIDGE_PORT" --log-debug "$r"
        [ $st -eq 0 ] || fail "run-as mosquitto on loopback: exit $st"
        if launch "$r/mosquitto.conf" "$E2E_TMP/rooted.log" BROKER_PID; then
            # the feed broker and its front, as tourney-feed-front.service
            # runs it: as mosquitto
            BROKER_DIR=$r FEED_LOG=$E2E_TMP/rooted-feed.log FRONT_LOG=$E2E_TMP/rooted-front.log FRONT_AS=mosquitto
            launch_feed && break
            [ -z "$FEED_PID" ] || kill_wait "$FEED_PID"
            FEED_PID=
            kill_wait "$BROKER_PID"
            BROKER_PID=
        fi
        port_release "$BROKER_PORT" "$BROKER_WS_PORT" "$BROKER_BRIDGE_PORT"
    done
    [ -n "$FEED_PID" ] || fail "no free ports for the run-as test"
    [ "$(ps -o user= -p "$BROKER_PID")" = mosquitto ] || fail "the venue broker did not drop to mosquitto"
    [ "$(ps -o user= -p "$FEED_PID")" = mosquitto ] || fail "the feed broker did not drop to mosquitto"
    [ "$(ps -o user= -p "$FRONT_PID")" = mosquitto ] || fail "the front does not run as mosquitto"
    wait_bridge 0
    # a WebSocket reader through the front, running as mosquitto, reaches
    # the feed broker's socket
    e2e_pub hub tourney/v1/feed/e1/event E1 -r || fail "feed publish: $(cat "$E2E_TMP/pub.err")"
    ws_open "$BROKER_WS_PORT"
    ws_mqtt_connect rooted-reader
    [ "$WS_RC" = 0 ] || fail "CONNECT through the front as mosquitto: reason $WS_RC"
    ws_mqtt_subscribe 1 tourney/v1/feed/e1/event
    ws_expect 3 "the retained feed through the front"
    [ "$WS_PAYLOAD" = E1 ] || fail "through the front as mosquitto: $WS_PAYLOAD"
    ws_close
    e2e_pub table-001 tourney/v1/device/table-001/result as-mosquitto ||
        fail "login against the dropped-privilege broker: $(cat "$E2E_TMP/pub.err")"
    grep -q 'Publish 1 failed' "$E2E_TMP/pub.err" && fail "denied: $(cat "$E2E_TMP/pub.err")"
    kill_wait "$FRONT_PID"
    kill_wait "$FEED_PID"
    kill_wait "$BROKER_PID"
    FRONT_PID= FEED_PID= BROKER_PID= FRONT_AS=
    BROKER_DIR=$E2E_TMP/broker
    ok "as root with --run-as mosquitto: configs 0640 group $g, credentials 0600 root; both brokers and the front run as mosquitto, the bridge, table-001 and a WebSocket reader log in"
else
    ok "(not root or no mosquitto user: the group-permission case is not exercised here)"
fi

# --- TLS -------------------------------------------------------------------------

t=$E2E_TMP/tls
mkdir -p "$t"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=tourney-test-ca \
    -keyout "$t/ca.key" -out "$t/ca.pem" >/dev/null 2>&1 || fail "openssl CA"
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
    -keyout "$t/server.key" -out "$t/server.csr" >/dev/null 2>&1 || fail "openssl CSR"
printf 'subjectAltName=IP:127.0.0.1\n' >"$t/ext"
openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial \
    -days 2 -extfile "$t/ext" -out "$t/server.pem" >/dev/null 2>&1 || fail "openssl sign"

rm -rf "$BROKER_DIR"
start_broker --tables 1 --certfile "$t/server.pem" --keyfile "$t/server.key" --cafile "$t/ca.pem"
grep -q -x "certfile $t/server.pem" "$BROKER_DIR/mosquitto.conf" || fail "no certfile line"
e2e_sub_start tls_watch watch 'tourney/v1/#' -- --cafile "$t/ca.pem"
e2e_pub table-001 tourney/v1/device/table-001/result over-tls --cafile "$t/ca.pem" ||
    fail "TLS publish: exit $?: $(cat "$E2E_TMP/pub.err")"
e2e_expect tls_watch tourney/v1/device/table-001/result over-tls
if e2e_pub table-001 tourney/v1/device/table-001/result plain; then
    fail "a plain-TCP client was served by the TLS listener"
fi
e2e_has tls_watch tourney/v1/device/table-001/result plain && fail "plain message delivered"
e2e_pub hub tourney/v1/feed/e1/standings tls-feed -r --cafile "$t/ca.pem" || fail "TLS feed"
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-tls
ws_mqtt_subscribe 1 'tourney/v1/feed/#'
ws_expect 3 "feed with TLS on the venue listener"
[ "$WS_TOPIC $WS_PAYLOAD" = "tourney/v1/feed/e1/standings tls-feed" ] ||
    fail "feed with TLS on the venue listener: $WS_TOPIC $WS_PAYLOAD"
ws_close
ok "TLS: a client trusting the CA publishes; a plain client is refused; the bridge (on its loopback listener) carries the feed"

# --- restarts ----------------------------------------------------------------------

# A feed broker killed hard leaves its Unix socket behind (as after a
# power loss); it must start again and the bridge must come back.
restart_feed kill
[ -S "$BROKER_DIR/run/feed.sock" ] || fail "no feed socket after the restart"
# The venue broker restarts (its retained messages are gone: no
# persistence); the feed broker keeps serving its retained copy meanwhile
# and the bridge subscribes again.
stop_broker
ws_open "$BROKER_WS_PORT"
ws_mqtt_connect overlay-restart
ws_mqtt_subscribe 1 'tourney/v1/feed/#'
ws_expect 3 "retained feed while the venue broker is down"
[ "$WS_PAYLOAD" = tls-feed ] || fail "feed broker's retained copy: $WS_PAYLOAD"
restart_broker
e2e_pub hub tourney/v1/feed/e1/standings after-restart -r --cafile "$t/ca.pem" || fail "feed after restart"
ws_expect 3 "feed after the venue broker's restart"
[ "$WS_PAYLOAD" = after-restart ] || fail "after restart: $WS_PAYLOAD"
ws_close
ok "feed broker restarts after SIGKILL; while the venue broker restarts overlays keep the retained feed, then get new messages"

e2e_done
