#!/usr/bin/env bash
# provision-devices.sh - from the organiser's laptop, writes each table
# Pi's /etc/tourney/table.conf over ssh: device id, MQTT password, broker
# URI and (optionally) the broker's TLS CA, taken from the devices.cred
# file that deploy/broker/gen-config.sh wrote.
#
# It does not install software on the Pis, create their ssh access or
# generate credentials; it never puts a password on a command line (the
# file travels on ssh's stdin) and never prints one.
#
# Invariants: every argument is checked before the first ssh; one Pi
# failing does not stop the others, and the exit status is 1 when any
# failed (each failure is one line naming the Pi); --dry-run runs nothing
# and prints one line per Pi.
set -euo pipefail

prog=provision-devices.sh

usage() {
    cat <<'EOF'
usage: provision-devices.sh [options] --creds FILE --broker URI (--hosts FILE | HOST...)

Writes /etc/tourney/table.conf on each table Pi over ssh.

  --creds FILE        devices.cred from deploy/broker/gen-config.sh
                      ("table-001 PASSWORD" per line, mode 0600)
  --broker URI        how the tables reach the venue broker:
                      tcp://HOST:PORT or ssl://HOST:PORT
  --ca FILE           the broker's CA certificate (PEM), copied to
                      /etc/tourney/ca.pem and named in table.conf
  --hosts FILE        the Pis, one per line, in table order; a line may be
                      "HOST", "DEVICE HOST" (explicit mapping) or an IPv4
                      range "10.0.0.101-200"; # starts a comment
  --ssh-user USER     ssh login on the Pis (default root)
  --ssh-option OPT    extra ssh -o option, repeatable (e.g.
                      StrictHostKeyChecking=accept-new)
  --restart-unit UNIT systemctl restart UNIT on each Pi afterwards
  --ntp HOST          the Pis take their wall clock from HOST (the hub's
                      chrony, deploy/hub/chrony-venue.conf): writes
                      /etc/systemd/timesyncd.conf.d/tourney-venue.conf
                      (NTP=HOST) and restarts systemd-timesyncd
  --dry-run           print what would be done, run nothing
  -h, --help          this text

Hosts without an explicit device get the devices in file order: the
first host table-001, the second table-002, ...
EOF
}

die() {
    echo "$prog: $*" >&2
    exit 2
}

creds=
broker=
ca=
hosts_file=
ssh_user=root
ssh_opts=()
restart_unit=
ntp=
dry_run=0
host_args=()

need() {
    if [ $# -lt 2 ] || [ -z "$2" ]; then
        die "$1: missing value"
    fi
}

while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --creds) need "$@"; creds=$2; shift 2 ;;
    --broker) need "$@"; broker=$2; shift 2 ;;
    --ca) need "$@"; ca=$2; shift 2 ;;
    --hosts) need "$@"; hosts_file=$2; shift 2 ;;
    --ssh-user)
        need "$@"
        [[ $2 =~ ^[a-z_][a-z0-9_-]*$ ]] || die "--ssh-user: \"$2\" is not a user name"
        ssh_user=$2
        shift 2
        ;;
    --ssh-option)
        need "$@"
        [[ $2 =~ ^[A-Za-z]+=[^[:space:]]+$ ]] || die "--ssh-option: expected NAME=VALUE, got \"$2\""
        ssh_opts+=(-o "$2")
        shift 2
        ;;
    --restart-unit)
        need "$@"
        [[ $2 =~ ^[A-Za-z0-9@._-]+$ ]] || die "--restart-unit: \"$2\" is not a unit name"
        restart_unit=$2
        shift 2
        ;;
    --ntp)
        need "$@"
        [[ $2 =~ ^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$ ]] ||
            die "--ntp: \"$2\" is not a host name or IPv4 address"
        ntp=$2
        shift 2
        ;;
    --dry-run) dry_run=1; shift ;;
    --) shift; host_args+=("$@"); break ;;
    -*) die "unknown option \"$1\" (see --help)" ;;
    *) host_args+=("$1"); shift ;;
    esac
done

[ -n "$creds" ] || die "missing --creds FILE (see --help)"
[ -n "$broker" ] || die "missing --broker URI (see --help)"
[ -f "$creds" ] && [ -r "$creds" ] || die "--creds: cannot read \"$creds\""
if [ -n "$(find "$creds" -maxdepth 0 -perm /077 2>/dev/null)" ]; then
    die "--creds: \"$creds\" is readable by others: chmod 600 it"
fi
[[ $broker =~ ^(tcp|ssl)://[A-Za-z0-9.-]+:[0-9]{1,5}$ ]] ||
    die "--broker: expected tcp://HOST:PORT or ssl://HOST:PORT, got \"$broker\""
bport=${broker##*:}
[ "$((10#$bport))" -ge 1 ] && [ "$((10#$bport))" -le 65535 ] ||
    die "--broker: port $bport is not 1..65535"
if [ -n "$ca" ]; then
    [ -f "$ca" ] && [ -r "$ca" ] || die "--ca: cannot read \"$ca\""
    grep -q -- '-----BEGIN CERTIFICATE-----' "$ca" || die "--ca: \"$ca\" is not a PEM certificate"
    [ "${broker%%://*}" = ssl ] || die "--ca: only used with an ssl:// broker"
fi
if [ -n "$hosts_file" ] && [ ${#host_args[@]} -gt 0 ]; then
    die "give the Pis either with --hosts or as arguments, not both"
fi
[ -n "$hosts_file" ] || [ ${#host_args[@]} -gt 0 ] || die "missing --hosts FILE or HOST... (see --help)"
if [ -n "$hosts_file" ]; then
    [ -f "$hosts_file" ] && [ -r "$hosts_file" ] || die "--hosts: cannot read \"$hosts_file\""
fi

# --- devices ---------------------------------------------------------------

declare -A password=()
devices=()
lineno=0
while read -r name pw rest || [ -n "$name" ]; do
    lineno=$((lineno + 1))
    case $name in '' | '#'*) continue ;; esac
    [[ $name =~ ^table-[0-9]{3,}$ ]] && [ -n "$pw" ] && [ -z "$rest" ] ||
        die "$creds:$lineno: expected \"table-NNN PASSWORD\""
    [[ $pw =~ ^[A-Za-z0-9_-]+$ ]] || die "$creds:$lineno: password of $name has characters other than [A-Za-z0-9_-]"
    [ -z "${password[$name]:-}" ] || die "$creds:$lineno: $name listed twice"
    password[$name]=$pw
    devices+=("$name")
done <"$creds"
[ ${#devices[@]} -gt 0 ] || die "$creds: no devices"

# --- hosts -----------------------------------------------------------------

valid_host() {
    [[ $1 =~ ^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$ ]]
}

# add_host ORIGIN DEVICE HOST: DEVICE may be empty (next in order).
declare -A host_of=() device_of=()
pairs=()
next=0
add_host() {
    local origin=$1 dev=$2 host=$3
    valid_host "$host" || die "$origin: \"$host\" is not a host name or IPv4 address"
    [ -z "${device_of[$host]:-}" ] || die "$origin: host $host listed twice"
    if [ -z "$dev" ]; then
        while [ $next -lt ${#devices[@]} ] && [ -n "${host_of[${devices[$next]}]:-}" ]; do
            next=$((next + 1))
        done
        [ $next -lt ${#devices[@]} ] ||
            die "$origin: more hosts than the ${#devices[@]} devices in $creds"
        dev=${devices[$next]}
    else
        [ -n "${password[$dev]:-}" ] || die "$origin: $dev is not in $creds"
        [ -z "${host_of[$dev]:-}" ] || die "$origin: $dev given two hosts"
    fi
    host_of[$dev]=$host
    device_of[$host]=$dev
    pairs+=("$dev $host")
}

# add_entry ORIGIN TEXT: "HOST", "DEVICE HOST" or "A.B.C.X-Y".
add_entry() {
    local origin=$1 a b c
    read -r a b c <<<"$2"
    [ -z "$c" ] || die "$origin: expected HOST or DEVICE HOST, got \"$2\""
    if [ -n "$b" ]; then
        [[ $a =~ ^table-[0-9]{3,}$ ]] || die "$origin: \"$a\" is not a device id (table-NNN)"
        add_host "$origin" "$a" "$b"
    elif [[ $a =~ ^([0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.)([0-9]{1,3})-([0-9]{1,3})$ ]]; then
        local pre=${BASH_REMATCH[1]} lo=$((10#${BASH_REMATCH[2]})) hi=$((10#${BASH_REMATCH[3]})) i
        [ "$lo" -le "$hi" ] && [ "$hi" -le 255 ] || die "$origin: bad range \"$a\""
        for ((i = lo; i <= hi; i++)); do
            add_host "$origin" "" "$pre$i"
        done
    else
        add_host "$origin" "" "$a"
    fi
}

if [ -n "$hosts_file" ]; then
    lineno=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        line=${line%%#*}
        [[ $line =~ [^[:space:]] ]] || continue
        add_entry "$hosts_file:$lineno" "$line"
    done <"$hosts_file"
else
    for h in "${host_args[@]}"; do
        add_entry "argument \"$h\"" "$h"
    done
fi
[ ${#pairs[@]} -gt 0 ] || die "no hosts"

# --- per Pi ----------------------------------------------------------------

# table_conf DEVICE: the file's text (the format of common/ config.h:
# name = "value" lines).
table_conf() {
    echo "# /etc/tourney/table.conf - written by deploy/provision-devices.sh."
    echo "# Re-run it to change; keep this file mode 0600."
    printf 'device_id = "%s"\n' "$1"
    printf 'mqtt_password = "%s"\n' "${password[$1]}"
    printf 'broker_uri = "%s"\n' "$broker"
    [ -z "$ca" ] || printf 'tls_ca_file = "/etc/tourney/ca.pem"\n'
}

# The remote side: atomic replace, root-only file.  Nothing secret here.
remote_conf='umask 077 && mkdir -p /etc/tourney && cat >/etc/tourney/table.conf.new && mv -f /etc/tourney/table.conf.new /etc/tourney/table.conf'
# systemd-timesyncd's drop-in: the Pi's wall clock from the hub (NTP); the
# round clocks do not depend on it (docs/protocol.md "Time sync").
remote_ntp='umask 022 && mkdir -p /etc/systemd/timesyncd.conf.d && cat >/etc/systemd/timesyncd.conf.d/tourney-venue.conf.new && mv -f /etc/systemd/timesyncd.conf.d/tourney-venue.conf.new /etc/systemd/timesyncd.conf.d/tourney-venue.conf && systemctl restart systemd-timesyncd'
ntp_conf() {
    printf '%s\n' "# tourney-venue.conf - written by deploy/provision-devices.sh --ntp." \
        "[Time]" "NTP=$ntp" "FallbackNTP="
}
remote_ca='umask 022 && mkdir -p /etc/tourney && cat >/etc/tourney/ca.pem.new && mv -f /etc/tourney/ca.pem.new /etc/tourney/ca.pem'
ssh_base=(ssh -o BatchMode=yes -o ConnectTimeout=10 "${ssh_opts[@]}")

errfile=
if [ $dry_run = 0 ]; then
    errfile=$(mktemp)
    trap 'rm -f -- "$errfile"' EXIT
fi
# why: the last line ssh or the remote command wrote on stderr.
why() {
    local last
    last=$(tail -n 1 "$errfile" 2>/dev/null | tr -d '\r')
    [ -z "$last" ] || printf ': %s' "$last"
}

failed=()
for pair in "${pairs[@]}"; do
    dev=${pair%% *}
    host=${pair#* }
    target=$ssh_user@$host
    if [ $dry_run = 1 ]; then
        echo "$dev -> $host: would write /etc/tourney/table.conf (device_id=$dev, mqtt_password=<${#password[$dev]} characters>, broker_uri=$broker${ca:+, tls_ca_file=/etc/tourney/ca.pem}) via ${ssh_base[*]} $target${ca:+; would copy $ca to /etc/tourney/ca.pem}${ntp:+; would set NTP=$ntp for systemd-timesyncd}${restart_unit:+; would restart $restart_unit}"
        continue
    fi
    err=
    if ! table_conf "$dev" | "${ssh_base[@]}" "$target" "$remote_conf" 2>"$errfile"; then
        err="writing table.conf failed$(why)"
    elif [ -n "$ca" ] && ! "${ssh_base[@]}" "$target" "$remote_ca" <"$ca" 2>"$errfile"; then
        err="copying the CA failed$(why)"
    elif [ -n "$ntp" ] && ! ntp_conf | "${ssh_base[@]}" "$target" "$remote_ntp" 2>"$errfile"; then
        err="setting NTP=$ntp failed$(why)"
    elif [ -n "$restart_unit" ] &&
        ! "${ssh_base[@]}" "$target" "systemctl restart $restart_unit" </dev/null 2>"$errfile"; then
        err="systemctl restart $restart_unit failed$(why)"
    fi
    if [ -n "$err" ]; then
        echo "$prog: $dev -> $host: $err" >&2
        failed+=("$host")
    else
        echo "$dev -> $host: ok"
    fi
done

if [ $dry_run = 1 ]; then
    echo "dry run: ${#pairs[@]} Pis, nothing done"
    exit 0
fi
echo "$((${#pairs[@]} - ${#failed[@]})) of ${#pairs[@]} Pis provisioned"
[ ${#failed[@]} -eq 0 ] || exit 1
