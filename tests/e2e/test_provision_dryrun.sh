#!/usr/bin/env bash
# test_provision_dryrun.sh - deploy/provision-devices.sh for 100 tables:
# --dry-run plans one line per Pi (IPv4 range, host names, explicit
# mappings), runs no ssh and prints no password; a real run against a fake
# ssh (first on PATH) delivers each Pi the right table.conf on stdin,
# never a password on a command line, and reports a failing Pi; every bad
# argument is one stderr line with exit status 2 and no ssh.
#
# usage: bash test_provision_dryrun.sh SOURCE_DIR [BUILD_DIR]
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

PROV=$E2E_SRC/deploy/provision-devices.sh
venue=$E2E_TMP/venue
bash "$E2E_SRC/deploy/broker/gen-config.sh" --tables 100 --no-ws \
    --run-as "$(id -un)" "$venue" 2>/dev/null || fail "gen-config.sh --tables 100"
creds=$venue/devices.cred
[ "$(wc -l <"$creds")" -eq 100 ] || fail "devices.cred has $(wc -l <"$creds") lines"

# The fake ssh: records its arguments, stores stdin per host and command,
# and fails for hosts named bad-*.
mkdir -p "$E2E_TMP/bin" "$E2E_TMP/pis"
cat >"$E2E_TMP/bin/ssh" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$*" >>"$E2E_TMP/ssh.log"
target=\${@: -2:1}
cmd=\${@: -1}
host=\${target#*@}
case \$host in bad-*) echo "ssh: connect to host \$host port 22: Connection refused" >&2; exit 255 ;; esac
mkdir -p "$E2E_TMP/pis/\$host"
case \$cmd in
*table.conf*) cat >"$E2E_TMP/pis/\$host/table.conf" ;;
*timesyncd.conf.d*) cat >"$E2E_TMP/pis/\$host/timesyncd.conf"; printf '%s\n' "\${cmd##*&& }" >>"$E2E_TMP/pis/\$host/commands" ;;
*ca.pem*) cat >"$E2E_TMP/pis/\$host/ca.pem" ;;
*) printf '%s\n' "\$cmd" >>"$E2E_TMP/pis/\$host/commands" ;;
esac
EOF
chmod +x "$E2E_TMP/bin/ssh"
export PATH="$E2E_TMP/bin:$PATH"

# run_prov ARGS...: exit status in $st, output in prov.out / prov.err.
run_prov() {
    bash "$PROV" "$@" >"$E2E_TMP/prov.out" 2>"$E2E_TMP/prov.err"
    st=$?
}

no_secrets() {
    local name pw
    while read -r name pw; do
        if grep -q -F -- "$pw" "$@" 2>/dev/null; then
            fail "the password of $name appears in $*"
        fi
    done <"$creds"
}

# --- dry run: 100 tables ------------------------------------------------------

echo "10.0.0.1-100" >"$E2E_TMP/range.hosts"
run_prov --dry-run --creds "$creds" --broker tcp://10.0.0.250:1883 --hosts "$E2E_TMP/range.hosts"
[ $st -eq 0 ] || fail "dry run (range): exit $st: $(cat "$E2E_TMP/prov.err")"
[ ! -s "$E2E_TMP/prov.err" ] || fail "dry run printed on stderr: $(cat "$E2E_TMP/prov.err")"
[ "$(grep -c ': would write /etc/tourney/table.conf' "$E2E_TMP/prov.out")" -eq 100 ] ||
    fail "dry run: not 100 plan lines"
for i in 1 2 37 99 100; do
    d=$(printf 'table-%03d' "$i")
    grep -q "^$d -> 10.0.0.$i: would write /etc/tourney/table.conf (device_id=$d, mqtt_password=<24 characters>, broker_uri=tcp://10.0.0.250:1883) via ssh .* root@10.0.0.$i\$" "$E2E_TMP/prov.out" ||
        fail "dry run: no plan line for $d on 10.0.0.$i"
done
[ "$(tail -n 1 "$E2E_TMP/prov.out")" = "dry run: 100 Pis, nothing done" ] ||
    fail "dry run: last line: $(tail -n 1 "$E2E_TMP/prov.out")"
[ ! -e "$E2E_TMP/ssh.log" ] || fail "dry run invoked ssh"
no_secrets "$E2E_TMP/prov.out"
ok "dry run, 100 tables on 10.0.0.1-100: one plan line each, in order, no ssh, no password"

# Host names with one explicit mapping (which the others skip), and a CA.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=tourney-test-ca \
    -keyout "$E2E_TMP/ca.key" -out "$E2E_TMP/ca.pem" >/dev/null 2>&1 || fail "openssl"
{
    echo "# the judges' table has its own Pi"
    echo "table-050 judges-pi.local"
    for i in $(seq 1 99); do printf 'pi-%03d.local   # row %d\n' "$i" $(((i + 9) / 10)); done
} >"$E2E_TMP/names.hosts"
run_prov --dry-run --creds "$creds" --broker ssl://hub.local:8883 --ca "$E2E_TMP/ca.pem" \
    --hosts "$E2E_TMP/names.hosts" --ssh-user pi --restart-unit tourney-table.service
[ $st -eq 0 ] || fail "dry run (names): exit $st: $(cat "$E2E_TMP/prov.err")"
[ "$(grep -c ': would write' "$E2E_TMP/prov.out")" -eq 100 ] || fail "dry run (names): not 100 lines"
grep -q '^table-050 -> judges-pi.local: would write .*tls_ca_file=/etc/tourney/ca.pem) via ssh .* pi@judges-pi.local; would copy .*ca.pem to /etc/tourney/ca.pem; would restart tourney-table.service$' "$E2E_TMP/prov.out" ||
    fail "dry run (names): table-050 line: $(grep '^table-050' "$E2E_TMP/prov.out")"
grep -q '^table-049 -> pi-049.local: ' "$E2E_TMP/prov.out" || fail "table-049 should be on pi-049"
grep -q '^table-051 -> pi-050.local: ' "$E2E_TMP/prov.out" || fail "table-051 should be on pi-050 (table-050 is mapped)"
grep -q '^table-100 -> pi-099.local: ' "$E2E_TMP/prov.out" || fail "table-100 should be on pi-099"
[ ! -e "$E2E_TMP/ssh.log" ] || fail "dry run invoked ssh"
no_secrets "$E2E_TMP/prov.out"
ok "dry run with host names, an explicit mapping, TLS CA and restart: mapping as planned"

# --- a real run against the fake ssh ------------------------------------------

run_prov --creds "$creds" --broker ssl://hub.local:8883 --ca "$E2E_TMP/ca.pem" \
    --ssh-option StrictHostKeyChecking=accept-new --restart-unit tourney-table \
    --ntp hub.local pi-a 'table-007 pi-b' bad-pi pi-c
[ $st -eq 1 ] || fail "real run with a failing Pi: exit $st, wanted 1"
[ "$(cat "$E2E_TMP/prov.err")" = "provision-devices.sh: table-002 -> bad-pi: writing table.conf failed: ssh: connect to host bad-pi port 22: Connection refused" ] ||
    fail "real run stderr: $(cat "$E2E_TMP/prov.err")"
[ "$(tail -n 1 "$E2E_TMP/prov.out")" = "3 of 4 Pis provisioned" ] ||
    fail "real run summary: $(tail -n 1 "$E2E_TMP/prov.out")"
check_pi() { # HOST DEVICE
    local want
    want=$(printf '%s\n' \
        "# /etc/tourney/table.conf - written by deploy/provision-devices.sh." \
        "# Re-run it to change; keep this file mode 0600." \
        "device_id = \"$2\"" \
        "mqtt_password = \"$(awk -v d="$2" '$1 == d { print $2 }' "$creds")\"" \
        'broker_uri = "ssl://hub.local:8883"' \
        'tls_ca_file = "/etc/tourney/ca.pem"')
    [ "$(cat "$E2E_TMP/pis/$1/table.conf")" = "$want" ] ||
        fail "$1's table.conf: $(cat "$E2E_TMP/pis/$1/table.conf")"
    cmp -s "$E2E_TMP/pis/$1/ca.pem" "$E2E_TMP/ca.pem" || fail "$1's ca.pem differs"
    [ "$(cat "$E2E_TMP/pis/$1/commands")" = "systemctl restart systemd-timesyncd
systemctl restart tourney-table" ] ||
        fail "$1's commands: $(cat "$E2E_TMP/pis/$1/commands")"
    # --ntp: the Pi's wall clock from the hub (docs/protocol.md "Time sync").
    [ "$(cat "$E2E_TMP/pis/$1/timesyncd.conf")" = "$(printf '%s\n' \
        '# tourney-venue.conf - written by deploy/provision-devices.sh --ntp.' \
        '[Time]' 'NTP=hub.local' 'FallbackNTP=')" ] ||
        fail "$1's timesyncd drop-in: $(cat "$E2E_TMP/pis/$1/timesyncd.conf")"
}
# Host arguments take the devices in order; "DEVICE HOST" maps explicitly.
check_pi pi-a table-001
check_pi pi-b table-007
check_pi pi-c table-003
[ ! -e "$E2E_TMP/pis/bad-pi" ] || fail "bad-pi got files"
no_secrets "$E2E_TMP/ssh.log" "$E2E_TMP/prov.out" "$E2E_TMP/prov.err"
grep -q -- '-o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=accept-new root@pi-a umask 077' "$E2E_TMP/ssh.log" ||
    fail "ssh arguments: $(head -n 1 "$E2E_TMP/ssh.log")"
ok "real run: table.conf, CA and the timesyncd drop-in (NTP=hub.local) on stdin, restart, failing Pi reported, exit 1, no password in any argument"

# --- bad arguments: one line on stderr, exit 2, nothing run -----------------

rm -f "$E2E_TMP/ssh.log"
cp "$creds" "$E2E_TMP/open.cred"
chmod 644 "$E2E_TMP/open.cred"
printf 'table-001 pw-1\ntable-001 pw-2\n' >"$E2E_TMP/dup.cred"
printf 'table-001 pw 3\n' >"$E2E_TMP/bad.cred"
chmod 600 "$E2E_TMP/dup.cred" "$E2E_TMP/bad.cred"
printf 'pi-1\npi-1\n' >"$E2E_TMP/dup.hosts"
echo "10.0.0.1-101" >"$E2E_TMP/big.hosts"
echo "table-999 pi-9" >"$E2E_TMP/unknown.hosts"
b=(--creds "$creds" --broker tcp://hub:1883)
# each case: EXPECTED-STDERR-SUBSTRING|ARGS (args separated by spaces)
while IFS='|' read -r want args; do
    [ -n "$want" ] || continue
    # shellcheck disable=SC2086
    run_prov $args
    [ $st -eq 2 ] || fail "provision $args: exit $st, wanted 2"
    [ "$(wc -l <"$E2E_TMP/prov.err")" -eq 1 ] ||
        fail "provision $args: stderr is not one line: $(cat "$E2E_TMP/prov.err")"
    grep -q -F -- "$want" "$E2E_TMP/prov.err" ||
        fail "provision $args: stderr \"$(cat "$E2E_TMP/prov.err")\" lacks \"$want\""
    [ ! -s "$E2E_TMP/prov.out" ] || fail "provision $args: stdout not empty"
done <<EOF
missing --creds FILE|--broker tcp://hub:1883 pi-1
missing --broker URI|--creds $creds pi-1
missing --hosts FILE or HOST|${b[*]}
is readable by others: chmod 600 it|--creds $E2E_TMP/open.cred --broker tcp://hub:1883 pi-1
cannot read|--creds $E2E_TMP/nope.cred --broker tcp://hub:1883 pi-1
table-001 listed twice|--creds $E2E_TMP/dup.cred --broker tcp://hub:1883 pi-1
expected "table-NNN PASSWORD"|--creds $E2E_TMP/bad.cred --broker tcp://hub:1883 pi-1
--broker: expected tcp://HOST:PORT or ssl://HOST:PORT|--creds $creds --broker mqtt://hub pi-1
--broker: port 70000 is not 1..65535|--creds $creds --broker tcp://hub:70000 pi-1
--ca: only used with an ssl:// broker|${b[*]} --ca $E2E_TMP/ca.pem pi-1
--ca: "$creds" is not a PEM certificate|--creds $creds --broker ssl://hub:8883 --ca $creds pi-1
host pi-1 listed twice|${b[*]} --hosts $E2E_TMP/dup.hosts
more hosts than the 100 devices|${b[*]} --hosts $E2E_TMP/big.hosts
table-999 is not in|${b[*]} --hosts $E2E_TMP/unknown.hosts
is not a host name or IPv4 address|${b[*]} -- -oProxyCommand=evil
--ntp: "-x;reboot" is not a host name or IPv4 address|${b[*]} --ntp -x;reboot pi-1
either with --hosts or as arguments|${b[*]} --hosts $E2E_TMP/dup.hosts pi-1
unknown option "--bogus"|${b[*]} --bogus pi-1
--ssh-option: expected NAME=VALUE|${b[*]} --ssh-option ProxyCommand pi-1
--ssh-user: "Root;x" is not a user name|${b[*]} --ssh-user Root;x pi-1
bad range "10.0.0.9-3"|${b[*]} 10.0.0.9-3
EOF
[ ! -e "$E2E_TMP/ssh.log" ] || fail "a rejected invocation ran ssh: $(cat "$E2E_TMP/ssh.log")"
ok "bad arguments: one stderr line each, exit 2, no ssh"

e2e_done
