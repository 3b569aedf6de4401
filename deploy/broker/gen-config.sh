#!/usr/bin/env bash
# gen-config.sh - generates a complete mosquitto 2.0 setup for one venue:
# two broker processes and their files.
#   mosquitto.conf  the venue broker: one MQTT listener (TCP, optionally
#                   TLS) for the hub, organiser consoles and table devices;
#                   passwd + acl; no anonymous clients; with --console-port
#                   a second listener for organiser consoles only
#                   (passwd-console), several connections per login
#   feed.conf       the public feed broker: one local socket listener
#                   (run/feed.sock), anonymous and read-only (acl-feed),
#                   fed by a bridge that pulls tourney/v1/feed/# from the
#                   venue broker through a listener of its own on
#                   127.0.0.1 (passwd-bridge: the bridge's login works
#                   there only)
#   feed-front.json the public feed's WebSocket port (--ws-bind, --ws-port)
#                   and, with --http-dir, its pages: the configuration of
#                   deploy/broker/feed-front.js, which pipes each WebSocket
#                   to its own connection on run/feed.sock (mosquitto 2.0's
#                   own WebSocket listener costs the broker every client's
#                   poll per message: README, Benchmarks, issue 17)
#   www/            with --http-dir: the pages only (html, js, css, md and
#                   vendor/), copied from DIR when DIR holds anything else
#   devices.cred, users.cred  plaintext logins for provisioning (0600)
#   dynamic-security.json  with --table-ws-port: the table pages' logins
#                   (sign-in codes), created once with only the hub's
#                   admin login play-admin; the hub adds and deletes the
#                   codes through \$CONTROL/dynamic-security/v1 and the
#                   broker rewrites the file (kept across re-runs)
#   play-ratelimit.nft  with --table-ws-port: an nftables ruleset that
#                   limits new connections to the table-page listener per
#                   phone address (sign-in codes are not to be guessed;
#                   mosquitto 2.0 has no limit on failed logins); load it
#                   as root with `nft -f` (deploy/broker/README.md)
#   tls/            with --gen-tls only: a private CA and a server
#                   certificate signed by it (tests and demos; a venue with
#                   real certificates passes --certfile/--keyfile/--cafile)
# The feed is a separate process because in one mosquitto 2.0 process an
# anonymous WebSocket client may take any client id and so disconnect any
# device or the hub (measured; deploy/broker/README.md).
#
# It does not start, reload or install mosquitto, and it never touches
# files outside the output directory.
#
# Invariants:
# - the credential files are the source of truth for passwords: a re-run
#   keeps every password (and its passwd hash line, so the output is
#   byte-identical) unless --rotate is given; users no longer configured
#   are removed from every file;
# - usernames are [a-z0-9-]; devices are table-001..table-NNN; no
#   organiser or hub name can look like a device;
# - every bad argument is one line on stderr and exit status 2; nothing is
#   written before all arguments are valid.
#
# Design notes (why each setting is what it is) are in deploy/broker/README.md.
set -euo pipefail

prog=gen-config.sh

usage() {
    cat <<'EOF'
usage: gen-config.sh [options] OUTDIR

Writes mosquitto.conf, feed.conf, feed-front.json, passwd, acl, acl-feed,
devices.cred and users.cred (and passwd-console with --console-port) into
OUTDIR (created if missing).  Run the two brokers and the feed's front with:
    mosquitto -c OUTDIR/mosquitto.conf     (venue broker)
    mosquitto -c OUTDIR/feed.conf          (public feed)
    node feed-front.js OUTDIR/feed-front.json   (its WebSocket port, as
                                           the feed broker's --run-as user)

options:
  --tables N               devices table-001..table-N (0..9999, default 0)
  --organisers LIST        organiser logins, comma-separated (default o1)
  --hub-user NAME          the hub's login (default hub)
  --bind ADDR              MQTT listener address (default 0.0.0.0)
  --port N                 MQTT listener port (default 1883, 8883 with TLS)
  --monitors LIST          read-only logins for all of tourney/v1/ (default
                           none; debugging at a venue, test observers)
  --ws-bind ADDR           the feed's WebSocket address (default: --bind)
  --ws-port N              the feed's WebSocket port (default 9001)
  --no-ws                  no feed broker (no feed.conf, no feed-front.json)
  --bridge-port N          the venue broker's listener for the feed bridge,
                           on 127.0.0.1 only (default --port + 1): the
                           bridge's login is refused on every other
                           listener, so its password cannot take the
                           bridge's connection from the venue network
  --cloud URL              the feed broker also bridges the public feed to a
                           remote broker (a managed MQTT service):
                           mqtts://HOST[:PORT] (TLS, default port 8883) or
                           mqtt://HOST[:PORT]; outbound tourney/v1/feed/#
                           only, nothing inbound
  --cloud-user NAME        the login on the remote broker
  --cloud-password-file F  its password (first line of F)
  --cloud-cafile FILE      CA bundle that signed the remote's certificate
                           (default: the system's, /etc/ssl/certs)
  --cloud-client-id ID     client id on the remote (default: tourney-feed-
                           and a hash of the login; some services require
                           their own)
  --http-dir DIR           the feed's WebSocket port also serves the
                           files of DIR over HTTP (feed-front.json's
                           http_dir; mosquitto's on --table-ws-port): the
                           hall screens and the players' phones load the pages
                           from it, e.g. http://HUB:9001/player.html?events=ID
                           (deploy/overlays; the hub package ships them in
                           /usr/share/tourney/www).  Only the pages are
                           served: when DIR holds anything but *.html,
                           *.js, *.css, *.md, vendor/ and locale/ (node_modules/,
                           package-lock.json, install.sh), they are
                           copied into OUTDIR/www and that is served
                           (re-run after changing the pages); a warning
                           when DIR/vendor/mqtt.min.js is missing (run
                           deploy/overlays/install.sh)
  --certfile FILE          server certificate (PEM): TLS on the MQTT listener
  --keyfile FILE           server key (PEM), required with --certfile
  --cafile FILE            CA bundle written into the config (optional)
  --gen-tls                generate OUTDIR/tls/ca.crt (+ ca.key) and
                           server.crt/server.key signed by it (openssl; kept
                           across re-runs unless --rotate) and use them as
                           --certfile/--keyfile/--cafile.  For tests and
                           demos: clients trust OUTDIR/tls/ca.crt
                           (tls_ca_file).  The certificate names localhost,
                           127.0.0.1, this host's name, --bind and --tls-host
  --tls-host LIST          extra names / IPv4 addresses in the generated
                           certificate, comma-separated (with --gen-tls)
  --table-ws-port N        a WebSocket listener (on --ws-bind) for the table
                           pages (play.html): sign-in codes only, checked by
                           mosquitto's dynamic security plugin
                           (dynamic-security.json); the hub's login
                           play-admin (users.cred) provisions the codes;
                           with --http-dir it serves the pages too
  --console-port N         a listener for organiser consoles only (same
                           --bind, ACL and TLS): there a login may hold
                           several connections (dashboards, CLI commands:
                           each its own client id); only organiser logins
                           may log in on it.  The --port listener keeps
                           the login as the client id (one connection per
                           login)
  --tls-port N             TLS on a second listener on port N (same --bind,
                           logins and ACL); the --port listener stays plain
                           TCP.  Without it, TLS replaces plain TCP on --port
  --run-as USER            user mosquitto drops to when started as root
                           (default mosquitto)
  --max-queued-messages N  per-client queue limit (default 50000)
  --max-queued-bytes N     per-client queue byte limit (default 33554432)
  --max-inflight N         in-flight QoS 1/2 messages per client, also the
                           MQTT v5 receive maximum (default 1000)
  --log-debug              log every packet (tests; never at a venue)
  --rotate                 new random passwords for every login
  -h, --help               this text

Names: logins are 1..64 characters of [a-z0-9-]; organisers, monitors and
the hub may not be named like a device (table-<digits>) nor feed-bridge
(the feed broker's login), and no login may be listed twice.
EOF
}

die() {
    echo "$prog: $*" >&2
    exit 2
}

# --- arguments -------------------------------------------------------------

tables=0
organisers=o1
monitors=
hub_user=hub
bind=0.0.0.0
port=
ws_bind=
http_dir=
cloud=
cloud_user=
cloud_pw_file=
cloud_cafile=
cloud_client_id=
ws_port=9001
ws=1
bridge_port=
certfile=
keyfile=
cafile=
gen_tls=0
tls_hosts=
tls_port=
console_port=
table_ws_port=
dynsec_lib=${TNY_DYNSEC_LIB:-/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so}
run_as=mosquitto
max_queued_messages=50000
max_queued_bytes=33554432
max_inflight=1000
log_debug=0
rotate=0
outdir=
bridge_user=feed-bridge
play_admin=play-admin

# need OPTION VALUE: the option has a value that is not another option.
need() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#--}" != "$2" ]; then
        die "$1: missing value"
    fi
}

# uint OPTION VALUE MIN MAX: decimal integer in [MIN, MAX].
uint() {
    case $2 in
    '' | *[!0-9]*) die "$1: expected an integer $3..$4, got \"$2\"" ;;
    esac
    if [ ${#2} -gt 10 ] || [ "$((10#$2))" -lt "$3" ] ||
        [ "$((10#$2))" -gt "$4" ]; then
        die "$1: expected an integer $3..$4, got \"$2\""
    fi
}

# addr OPTION VALUE: a numeric IPv4 address (mosquitto's WebSocket
# listener accepts only an IP address, and IPv4 keeps the bind exact).
addr() {
    local a b c d rest
    IFS=. read -r a b c d rest <<<"$2"
    if [ -n "$rest" ] || [ "${2//[0-9.]/}" != "" ]; then
        die "$1: expected an IPv4 address like 192.168.1.10, got \"$2\""
    fi
    for x in "$a" "$b" "$c" "$d"; do
        case $x in
        '' | *[!0-9]*)
            die "$1: expected an IPv4 address like 192.168.1.10, got \"$2\""
            ;;
        esac
        if [ ${#x} -gt 3 ] || [ "$((10#$x))" -gt 255 ]; then
            die "$1: expected an IPv4 address like 192.168.1.10, got \"$2\""
        fi
    done
}

# login OPTION NAME: a valid login that does not look like a device.
login() {
    if ! [[ $2 =~ ^[a-z0-9][a-z0-9-]{0,63}$ ]]; then
        die "$1: \"$2\" is not a login name ([a-z0-9-], 1..64 characters)"
    fi
    if [[ $2 =~ ^table-[0-9]+$ ]]; then
        die "$1: \"$2\" is reserved for table devices"
    fi
    if [ "$2" = "$bridge_user" ]; then
        die "$1: \"$2\" is reserved for the feed broker's bridge"
    fi
    if [ "$2" = "$play_admin" ]; then
        die "$1: \"$2\" is reserved for the hub's sign-in codes"
    fi
}

# readable OPTION FILE
readable() {
    [ -f "$2" ] && [ -r "$2" ] || die "$1: cannot read \"$2\""
}

while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    --tables) need "$@"; uint "$1" "$2" 0 9999; tables=$((10#$2)); shift 2 ;;
    --organisers) need "$@"; organisers=$2; shift 2 ;;
    --hub-user) need "$@"; hub_user=$2; shift 2 ;;
    --monitors) need "$@"; monitors=$2; shift 2 ;;
    --bind) need "$@"; addr "$1" "$2"; bind=$2; shift 2 ;;
    --port) need "$@"; uint "$1" "$2" 1 65535; port=$((10#$2)); shift 2 ;;
    --ws-bind) need "$@"; addr "$1" "$2"; ws_bind=$2; shift 2 ;;
    --ws-port) need "$@"; uint "$1" "$2" 1 65535; ws_port=$((10#$2)); shift 2 ;;
    --bridge-port) need "$@"; uint "$1" "$2" 1 65535; bridge_port=$((10#$2)); shift 2 ;;
    --no-ws) ws=0; shift ;;
    --cloud) need "$@"; cloud=$2; shift 2 ;;
    --cloud-user) need "$@"; cloud_user=$2; shift 2 ;;
    --cloud-password-file) need "$@"; readable "$1" "$2"; cloud_pw_file=$2; shift 2 ;;
    --cloud-cafile) need "$@"; readable "$1" "$2"; cloud_cafile=$2; shift 2 ;;
    --cloud-client-id) need "$@"; cloud_client_id=$2; shift 2 ;;
    --http-dir)
        need "$@"
        [ -d "$2" ] && [ -r "$2" ] || die "$1: \"$2\" is not a readable directory"
        http_dir=$(cd -- "$2" && pwd -P)
        [[ $http_dir =~ ^/[A-Za-z0-9._/-]*$ ]] ||
            die "$1: \"$http_dir\" must be a path of [A-Za-z0-9._/-] (mosquitto.conf has no quoting)"
        shift 2
        ;;
    --certfile) need "$@"; readable "$1" "$2"; certfile=$2; shift 2 ;;
    --keyfile) need "$@"; readable "$1" "$2"; keyfile=$2; shift 2 ;;
    --cafile) need "$@"; readable "$1" "$2"; cafile=$2; shift 2 ;;
    --gen-tls) gen_tls=1; shift ;;
    --tls-host)
        need "$@"
        [[ $2 =~ ^[A-Za-z0-9.,-]+$ ]] || die "$1: \"$2\" is not a list of host names"
        tls_hosts=$2
        shift 2
        ;;
    --tls-port) need "$@"; uint "$1" "$2" 1 65535; tls_port=$((10#$2)); shift 2 ;;
    --console-port) need "$@"; uint "$1" "$2" 1 65535; console_port=$((10#$2)); shift 2 ;;
    --table-ws-port) need "$@"; uint "$1" "$2" 1 65535; table_ws_port=$((10#$2)); shift 2 ;;
    --run-as)
        need "$@"
        [[ $2 =~ ^[a-z_][a-z0-9_-]*$ ]] || die "$1: \"$2\" is not a user name"
        run_as=$2
        shift 2
        ;;
    --max-queued-messages)
        need "$@"; uint "$1" "$2" 1000 10000000
        max_queued_messages=$((10#$2)); shift 2 ;;
    --max-queued-bytes)
        need "$@"; uint "$1" "$2" 1048576 4294967295
        max_queued_bytes=$((10#$2)); shift 2 ;;
    --max-inflight)
        need "$@"; uint "$1" "$2" 20 65535
        max_inflight=$((10#$2)); shift 2 ;;
    --log-debug) log_debug=1; shift ;;
    --rotate) rotate=1; shift ;;
    --) shift; break ;;
    -*) die "unknown option \"$1\" (see --help)" ;;
    *)
        [ -z "$outdir" ] || die "more than one output directory: \"$outdir\" and \"$1\""
        outdir=$1
        shift
        ;;
    esac
done
if [ $# -gt 0 ]; then
    [ -z "$outdir" ] && [ $# -eq 1 ] ||
        die "more than one output directory: \"${outdir:-$1}\" and \"${2:-$1}\""
    outdir=$1
fi
[ -n "$outdir" ] || die "missing OUTDIR (see --help)"

login --hub-user "$hub_user"
org_list=()
mon_list=()
[ -z "$organisers" ] || IFS=, read -r -a org_list <<<"$organisers"
[ -z "$monitors" ] || IFS=, read -r -a mon_list <<<"$monitors"
for o in "${org_list[@]}"; do
    login --organisers "$o"
done
for o in "${mon_list[@]}"; do
    login --monitors "$o"
done
dups=$(printf '%s\n' "$hub_user" "${org_list[@]}" "${mon_list[@]}" | sort | uniq -d | head -n1)
[ -z "$dups" ] || die "login \"$dups\" is listed twice (--hub-user, --organisers, --monitors)"

if [ -n "$certfile" ] && [ -z "$keyfile" ]; then
    die "--certfile: needs --keyfile"
fi
if [ -n "$keyfile" ] && [ -z "$certfile" ]; then
    die "--keyfile: needs --certfile"
fi
if [ $gen_tls = 1 ] && [ -n "$certfile" ]; then
    die "--gen-tls: generates its own certificate (drop --certfile/--keyfile)"
fi
if [ -n "$cafile" ] && [ -z "$certfile" ]; then
    die "--cafile: only used with --certfile/--keyfile"
fi
if [ -n "$tls_hosts" ] && [ $gen_tls = 0 ]; then
    die "--tls-host: only used with --gen-tls"
fi
if [ $gen_tls = 1 ]; then
    command -v openssl >/dev/null 2>&1 || die "openssl: not found (apt-get install openssl)"
fi
tls=0
[ -z "$certfile" ] && [ $gen_tls = 0 ] || tls=1
if [ -n "$tls_port" ] && [ $tls = 0 ]; then
    die "--tls-port: needs --gen-tls or --certfile/--keyfile"
fi
# tls_main: TLS on the --port listener (no separate --tls-port).
tls_main=0
[ $tls = 0 ] || [ -n "$tls_port" ] || tls_main=1
if [ -z "$port" ]; then
    if [ $tls_main = 1 ]; then port=8883; else port=1883; fi
fi
if [ -n "$tls_port" ] && [ "$tls_port" = "$port" ]; then
    die "--tls-port: $tls_port is also the plain listener's port"
fi
if [ -n "$console_port" ] &&
    { [ "$console_port" = "$port" ] || [ "$console_port" = "$tls_port" ]; }; then
    die "--console-port: $console_port is also another listener's port"
fi
[ -n "$ws_bind" ] || ws_bind=$bind
if [ -n "$table_ws_port" ]; then
    for other in "$port" "$tls_port" "$console_port"; do
        [ "$table_ws_port" != "$other" ] ||
            die "--table-ws-port: $table_ws_port is also another listener's port"
    done
    [ $ws = 0 ] || [ "$table_ws_port" != "$ws_port" ] ||
        die "--table-ws-port: $table_ws_port is also the feed's WebSocket port"
    if [ ! -f "$dynsec_lib" ]; then
        dynsec_lib=$(find /usr/lib -name mosquitto_dynamic_security.so -print -quit 2>/dev/null || true)
        [ -n "$dynsec_lib" ] || die "--table-ws-port: mosquitto_dynamic_security.so not found (apt-get install mosquitto)"
    fi
    command -v mosquitto_ctrl >/dev/null 2>&1 || die "--table-ws-port: mosquitto_ctrl not found (apt-get install mosquitto-clients)"
    command -v jq >/dev/null 2>&1 || die "--table-ws-port: jq not found (apt-get install jq)"
fi
if [ $ws = 1 ]; then
    [ -n "$bridge_port" ] || bridge_port=$((port + 1))
    [ "$bridge_port" -le 65535 ] || die "--bridge-port: --port + 1 is not a port: give one"
    for other in "$port" "$tls_port" "$console_port"; do
        [ "$bridge_port" != "$other" ] ||
            die "--bridge-port: $bridge_port is also another listener's port"
    done
    if [ "$ws_port" = "$bridge_port" ] &&
        { [ "$ws_bind" = 127.0.0.1 ] || [ "$ws_bind" = 0.0.0.0 ]; }; then
        die "--bridge-port: $bridge_port is also the WebSocket port"
    fi
else
    [ -z "$bridge_port" ] || die "--bridge-port: no feed broker (drop --no-ws)"
fi
if [ $ws = 1 ] && [ "$ws_port" = "$port" ] &&
    { [ "$ws_bind" = "$bind" ] || [ "$bind" = 0.0.0.0 ] ||
        [ "$ws_bind" = 0.0.0.0 ]; }; then
    die "--ws-port: $ws_port is also the MQTT listener's port"
fi
# The cloud bridge: URL, login, TLS.
cloud_host= cloud_port= cloud_tls=0 cloud_pw=
if [ -n "$cloud" ]; then
    [ $ws = 1 ] || die "--cloud: the bridge runs in the feed broker (drop --no-ws)"
    [[ $cloud =~ ^(mqtts?)://([A-Za-z0-9.-]+)(:([0-9]{1,5}))?/?$ ]] ||
        die "--cloud: expected mqtts://HOST[:PORT] or mqtt://HOST[:PORT], got \"$cloud\""
    [ "${BASH_REMATCH[1]}" = mqtts ] && cloud_tls=1
    cloud_host=${BASH_REMATCH[2]}
    cloud_port=${BASH_REMATCH[4]:-$([ $cloud_tls = 1 ] && echo 8883 || echo 1883)}
    uint --cloud "$cloud_port" 1 65535
    [ -n "$cloud_user" ] || die "--cloud: needs --cloud-user (managed services require a login)"
    [ -n "$cloud_pw_file" ] || die "--cloud: needs --cloud-password-file"
    IFS= read -r cloud_pw <"$cloud_pw_file" || true
    [ -n "$cloud_pw" ] || die "--cloud-password-file: \"$cloud_pw_file\" has no password on its first line"
    [[ $cloud_user =~ ^[^[:space:][:cntrl:]]{1,128}$ ]] || die "--cloud-user: \"$cloud_user\" is not a login"
    [[ $cloud_pw =~ ^[^[:cntrl:]]{1,512}$ ]] || die "--cloud-password-file: the password has control characters"
    [ -z "$cloud_cafile" ] || [ $cloud_tls = 1 ] || die "--cloud-cafile: only used with mqtts://"
    if [ -z "$cloud_client_id" ]; then
        cloud_client_id=tourney-feed-$(printf 'cloud %s %s' "$cloud_user" "$cloud_host" | sha256sum | head -c 12)
    fi
    [[ $cloud_client_id =~ ^[A-Za-z0-9_.:-]{1,64}$ ]] || die "--cloud-client-id: \"$cloud_client_id\" is not a client id"
else
    for o in "$cloud_user" "$cloud_pw_file" "$cloud_cafile" "$cloud_client_id"; do
        [ -z "$o" ] || die "--cloud-user, --cloud-password-file, --cloud-cafile, --cloud-client-id: only used with --cloud"
    done
fi

for tool in mosquitto_passwd base64 head sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool: not found (apt-get install mosquitto mosquitto-clients)"
done

if [ -e "$outdir" ] && [ ! -d "$outdir" ]; then
    die "\"$outdir\" exists and is not a directory"
fi
umask 077
mkdir -p -- "$outdir" 2>/dev/null || die "cannot create \"$outdir\""
outdir=$(cd -- "$outdir" && pwd -P)
[ -w "$outdir" ] || die "cannot write to \"$outdir\""
abspath() { (cd -- "$(dirname -- "$1")" && printf '%s/%s\n' "$(pwd -P)" "$(basename -- "$1")"); }
[ -z "$certfile" ] || certfile=$(abspath "$certfile")
[ -z "$keyfile" ] || keyfile=$(abspath "$keyfile")
[ -z "$cafile" ] || cafile=$(abspath "$cafile")

# --- generated TLS (--gen-tls) -----------------------------------------------

# A private CA and a server certificate for tests and demos.  Kept when
# present (clients keep trusting the same CA) unless --rotate.
if [ $gen_tls = 1 ]; then
    tdir=$outdir/tls
    mkdir -p -- "$tdir"
    if [ $rotate = 1 ] || [ ! -s "$tdir/ca.crt" ] || [ ! -s "$tdir/server.crt" ] ||
        [ ! -s "$tdir/server.key" ]; then
        san="DNS:localhost,IP:127.0.0.1"
        host=$(hostname 2>/dev/null || true)
        [[ $host =~ ^[A-Za-z0-9.-]+$ ]] && san="$san,DNS:$host"
        [ "$bind" = 0.0.0.0 ] || [ "$bind" = 127.0.0.1 ] || san="$san,IP:$bind"
        if [ -n "$tls_hosts" ]; then
            IFS=, read -r -a extra <<<"$tls_hosts"
            for h in "${extra[@]}"; do
                [ -n "$h" ] || continue
                if [[ $h =~ ^[0-9.]+$ ]]; then san="$san,IP:$h"; else san="$san,DNS:$h"; fi
            done
        fi
        {
            openssl req -x509 -newkey rsa:2048 -nodes -days 3650 \
                -subj "/CN=Tourney venue CA" -keyout "$tdir/ca.key" \
                -out "$tdir/ca.crt" &&
                openssl req -newkey rsa:2048 -nodes -subj "/CN=tourney-broker" \
                    -keyout "$tdir/server.key" -out "$tdir/server.csr" &&
                printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' \
                    "$san" >"$tdir/server.ext" &&
                openssl x509 -req -in "$tdir/server.csr" -CA "$tdir/ca.crt" \
                    -CAkey "$tdir/ca.key" -CAcreateserial -days 825 \
                    -extfile "$tdir/server.ext" -out "$tdir/server.crt"
        } >/dev/null 2>&1 || die "--gen-tls: openssl failed"
        rm -f -- "$tdir/server.csr" "$tdir/server.ext" "$tdir/ca.srl"
    fi
    chmod 0600 "$tdir/ca.key" "$tdir/server.key"
    chmod 0644 "$tdir/ca.crt" "$tdir/server.crt"
    certfile=$tdir/server.crt
    keyfile=$tdir/server.key
    cafile=$tdir/ca.crt
fi

# --- credentials -----------------------------------------------------------

work=$(mktemp -d "$outdir/.gen.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# new_password: 144 random bits, URL-safe base64 (no ':' '@' '/' or
# quotes, so it fits in config files and URIs unescaped).
new_password() {
    head -c 18 /dev/urandom | base64 | tr '+/' '-_'
}

# The desired logins in file order: hub, organisers, monitors, the feed
# bridge, devices.
users=("$hub_user" "${org_list[@]}" "${mon_list[@]}")
[ $ws = 0 ] || users+=("$bridge_user")
# The hub's admin login for the table pages' codes lives in
# dynamic-security.json, not in passwd: it logs in on --table-ws-port only.
[ -z "$table_ws_port" ] || users+=("$play_admin")
devices=()
for ((i = 1; i <= tables; i++)); do
    devices+=("$(printf 'table-%03d' "$i")")
done

# Old passwords (plaintext) and hash lines, by login.
declare -A old_pw=() old_hash=()
for f in users.cred devices.cred; do
    [ -f "$outdir/$f" ] || continue
    while read -r name pw rest; do
        case $name in '' | '#'*) continue ;; esac
        [ -n "$pw" ] && [ -z "$rest" ] ||
            die "$outdir/$f: malformed line for \"$name\" (want: LOGIN PASSWORD)"
        old_pw[$name]=$pw
    done <"$outdir/$f"
done
for f in passwd passwd-bridge; do
    [ -f "$outdir/$f" ] || continue
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        old_hash[${line%%:*}]=$line
    done <"$outdir/$f"
done

# Passwords: kept unless rotating; a kept password keeps its hash line
# when there is one, everything else is hashed below in one
# mosquitto_passwd -U run (one process for all logins: 0.09 s for 1000
# logins, where 1000 runs of mosquitto_passwd -b take 6 s).
declare -A pw=()
: >"$work/plain"
for name in "${users[@]}" "${devices[@]}"; do
    if [ $rotate = 0 ] && [ -n "${old_pw[$name]:-}" ]; then
        pw[$name]=${old_pw[$name]}
        [ -z "${old_hash[$name]:-}" ] || continue
    else
        pw[$name]=$(new_password)
    fi
    printf '%s:%s\n' "$name" "${pw[$name]}" >>"$work/plain"
done
if [ -s "$work/plain" ]; then
    mosquitto_passwd -U "$work/plain" >/dev/null ||
        die "mosquitto_passwd -U failed"
fi
declare -A new_hash=()
while IFS= read -r line; do
    [ -n "$line" ] && new_hash[${line%%:*}]=$line
done <"$work/plain"

: >"$work/passwd"
: >"$work/passwd-console"
: >"$work/users.cred"
: >"$work/devices.cred"
for name in "${users[@]}" "${devices[@]}"; do
    h=${new_hash[$name]:-${old_hash[$name]:-}}
    [ -n "$h" ] || die "internal error: no hash for \"$name\""
    # The codes' admin: only in dynamic-security.json (below).
    [ -z "$table_ws_port" ] || [ "$name" != "$play_admin" ] || continue
    # The bridge's login only on its own loopback listener.
    if [ $ws = 1 ] && [ "$name" = "$bridge_user" ]; then
        printf '%s\n' "$h" >"$work/passwd-bridge"
    else
        printf '%s\n' "$h" >>"$work/passwd"
    fi
done
# The console listener's logins: the organisers only.
for name in "${org_list[@]}"; do
    printf '%s\n' "${new_hash[$name]:-${old_hash[$name]:-}}" >>"$work/passwd-console"
done
[ -n "$console_port" ] || rm -f -- "$work/passwd-console"
for name in "${users[@]}"; do
    printf '%s %s\n' "$name" "${pw[$name]}" >>"$work/users.cred"
done
for name in "${devices[@]}"; do
    printf '%s %s\n' "$name" "${pw[$name]}" >>"$work/devices.cred"
done

# --- ACLs ------------------------------------------------------------------

{
    cat <<EOF
# acl - venue broker access rules, generated by deploy/broker/gen-config.sh.
# Do not edit: re-run the script.  Everything not granted here is denied.
# No anonymous section: the venue broker refuses anonymous clients.

# Every login (pattern lines apply to all users): the hub's presence and
# every event's round clock.  mosquitto warns at start that these two
# patterns contain no %u or %c: expected.
pattern read tourney/v1/hub/state
pattern read tourney/v1/event/+/clock
# Every login (tables, dashboards) asks the hub for its time on its own
# pair (docs/protocol.md "Time sync").
pattern write tourney/v1/time/%u/req
pattern read tourney/v1/time/%u/resp

# Devices: %u is the login (= client id, use_username_as_clientid), so a
# table writes only its own result/presence and reads only its own
# assign/ack/identify (only the hub writes those).  Pattern lines also apply to the other logins, whose names
# can never be a device's: the hub ignores device topics of unknown ids.
pattern write tourney/v1/device/%u/result
pattern write tourney/v1/device/%u/presence
pattern read tourney/v1/device/%u/assign
pattern read tourney/v1/device/%u/ack
pattern read tourney/v1/device/%u/identify

# The hub: everything under tourney/v1/, and the broker's statistics.
user $hub_user
topic readwrite tourney/v1/#
topic read \$SYS/#
EOF
    for o in "${org_list[@]}"; do
        cat <<EOF

# Organiser console $o: its own request/response pair, the hub's
# database status and the public feed.
user $o
topic write tourney/v1/ctl/$o/req
topic read tourney/v1/ctl/$o/resp
topic read tourney/v1/hub/store
topic read tourney/v1/feed/#
EOF
    done
    for o in "${mon_list[@]}"; do
        cat <<EOF

# Monitor $o: reads everything, writes nothing.
user $o
topic read tourney/v1/#
topic read \$SYS/#
EOF
    done
    if [ $ws = 1 ]; then
        cat <<EOF

# The feed broker's bridge: pulls the public feed, writes nothing (it
# logs in only on the loopback bridge listener, passwd-bridge).
user $bridge_user
topic read tourney/v1/feed/#
EOF
    fi
} >"$work/acl"

[ $ws = 0 ] || cat >"$work/acl-feed" <<'EOF'
# acl-feed - feed broker access rules, generated by
# deploy/broker/gen-config.sh.  Do not edit: re-run the script.
# Overlays and browsers connect without a username and read the public
# feed; nobody writes (the bridge is not subject to this file).  The feed
# broker has no logins: a client that sends a username is granted nothing.
topic read tourney/v1/feed/#
EOF

# pages_only DIR: true when DIR holds nothing but pages (*.html, *.js,
# *.css and *.md at the top, vendor/ with *.js and *.md, locale/ with the
# pages' catalogues *.js), as the hub package's /usr/share/tourney/www does.
pages_only() {
    local extra
    extra=$(cd -- "$1" && find . -mindepth 1 \
        ! \( -path ./vendor -type d \) \
        ! \( -path './vendor/*' -type f \( -name '*.js' -o -name '*.md' \) \) \
        ! \( -path ./locale -type d \) ! \( -path './locale/*' -type f -name '*.js' \) \
        ! \( -path './*' ! -path './*/*' -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.md' \) \) \
        -print -quit)
    [ -z "$extra" ]
}
# The pages load vendor/mqtt.min.js (deploy/overlays/install.sh puts it
# there; not in git): without it every page stays blank.
if { [ $ws = 1 ] || [ -n "$table_ws_port" ]; } && [ -n "$http_dir" ] &&
    [ ! -f "$http_dir/vendor/mqtt.min.js" ]; then
    echo "$prog: warning: $http_dir/vendor missing: run deploy/overlays/install.sh (the pages load vendor/mqtt.min.js)" >&2
fi
served_dir=$http_dir
if { [ $ws = 1 ] || [ -n "$table_ws_port" ]; } && [ -n "$http_dir" ] && ! pages_only "$http_dir"; then
    served_dir=$outdir/www
    mkdir -p "$work/www"
    find "$http_dir" -maxdepth 1 -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.md' \) \
        -exec cp -p -- {} "$work/www/" \;
    if [ -d "$http_dir/vendor" ]; then
        mkdir -p "$work/www/vendor"
        find "$http_dir/vendor" -maxdepth 1 -type f \( -name '*.js' -o -name '*.md' \) \
            -exec cp -p -- {} "$work/www/vendor/" \;
    fi
    if [ -d "$http_dir/locale" ]; then # the pages' words (install.sh)
        mkdir -p "$work/www/locale"
        find "$http_dir/locale" -maxdepth 1 -type f -name '*.js' -exec cp -p -- {} "$work/www/locale/" \;
    fi
fi

# --- mosquitto.conf, feed.conf ---------------------------------------------

# common_settings: what both brokers share.
common_settings() {
    if [ "${1:-}" = per-listener ]; then
        cat <<EOF
# Logins and ACL per listener: the console listener admits organisers
# only; every listener names the same ACL.
per_listener_settings true
EOF
    else
        cat <<EOF
# Settings are global: every listener of a process (the TLS one of
# --tls-port included) has the same logins and ACL.
per_listener_settings false
EOF
    fi
    cat <<EOF

# The hub's SQLite database is the truth; mosquitto.db is corrupted by
# power loss on Raspberry Pis.  The hub republishes retained state when it
# starts.
persistence false

# Log to stderr (journald adds the time under systemd).
log_dest stderr
EOF
    if [ $log_debug = 1 ]; then
        echo "log_type all"
    else
        printf 'log_type error\nlog_type warning\nlog_type notice\nlog_type information\n'
    fi
    cat <<EOF
connection_messages true
log_timestamp true
log_timestamp_format %Y-%m-%dT%H:%M:%S

# Drop root to this user after binding (no effect when not started as root).
user $run_as

# Nagle off: without it a result -> ack round trip costs ~90 ms, not 0.2 ms.
set_tcp_nodelay true

# Per-client queue above the in-flight window.  The default (1000) silently
# drops QoS 1 messages to a slow subscriber although the publisher got its
# PUBACK: a hub pausing for 2 s while 1000 tables reconnect and resubmit,
# or an overlay subscribing to the retained feed of a convention, exceeds
# it.  The byte cap bounds the memory one stuck client can hold.
max_queued_messages $max_queued_messages
max_queued_bytes $max_queued_bytes

# In-flight QoS 1/2 window per client, and the receive maximum sent to
# MQTT v5 clients: at the default (20) Paho sends 20 and waits for a 1 s
# wake-up, so fanning assignments out to 200 tables takes 9 s.
max_inflight_messages $max_inflight

# Bound every packet: the hub's own limit (HUB_MAX_MESSAGE in
# hub/include/hub/hub.h, 5 MiB: a 4 MiB console request or reply with room
# to spare).  Equal, so that whatever this broker accepts reaches the hub
# whole and is answered; a larger packet is refused here (the client is
# disconnected), never silently dropped by the hub.
max_packet_size 5242880
EOF
}

{
    cat <<EOF
# mosquitto.conf - Tourney venue broker, generated by
# deploy/broker/gen-config.sh.  Do not edit: re-run the script.
# Why each setting is what it is: deploy/broker/README.md.

EOF
    # Per listener when a listener has logins of its own (consoles, the
    # bridge).
    per_listener=
    [ -z "$console_port" ] && [ $ws = 0 ] && [ -z "$table_ws_port" ] || per_listener=per-listener
    common_settings $per_listener
    # Logins and ACL of a listener (repeated: they are per listener when
    # there is a console listener).
    security() {
        printf 'allow_anonymous false\npassword_file %s\nacl_file %s\n' \
            "$outdir/$1" "$outdir/acl"
    }
    tls_settings() {
        printf 'certfile %s\nkeyfile %s\ntls_version tlsv1.2\n' "$certfile" "$keyfile"
        [ -z "$cafile" ] || echo "cafile $cafile"
    }
    cat <<EOF

# --- MQTT listener: hub, organiser consoles, table devices, feed bridge ---
listener $port $bind
socket_domain ipv4
EOF
    security passwd
    cat <<EOF
# The client id is the login, so one device cannot disconnect another by
# choosing its client id (the same login twice: the newer one wins).  A
# listener's setting: every listener but the console one has it.
use_username_as_clientid true
EOF
    if [ $tls = 1 ] && [ -z "$tls_port" ]; then
        tls_settings
    fi
    if [ $tls = 1 ] && [ -n "$tls_port" ]; then
        cat <<EOF

# --- MQTT over TLS: the same logins and ACL -------------------------------
listener $tls_port $bind
socket_domain ipv4
EOF
        [ -z "$per_listener" ] || security passwd
        echo "use_username_as_clientid true"
        tls_settings
    fi
    if [ -n "$console_port" ]; then
        cat <<EOF

# --- Organiser consoles: several connections per login -------------------
# Only organiser logins (passwd-console), the same ACL.  A console picks
# its own client id (LOGIN-PID-RANDOM): one login runs dashboards and
# commands at once.
listener $console_port $bind
socket_domain ipv4
EOF
        security passwd-console
        echo "use_username_as_clientid false"
        if [ $tls = 1 ]; then
            tls_settings
        fi
    fi
    if [ $ws = 1 ]; then
        cat <<EOF

# --- The feed bridge: its login (passwd-bridge), loopback only ----------
# Its password is in feed.conf; every other listener refuses it, so from
# the venue network it cannot take the bridge's connection (the client
# id is the login here too).
listener $bridge_port 127.0.0.1
socket_domain ipv4
EOF
        security passwd-bridge
        echo "use_username_as_clientid true"
    fi
    if [ -n "$table_ws_port" ]; then
        cat <<EOF

# --- Table pages (play.html): sign-in codes over WebSocket ----------------
# Logins and rights only from the dynamic security plugin: one client per
# sign-in code, with a role naming exactly its table device's topics; the
# hub's play-admin adds and deletes them (\$CONTROL/dynamic-security/v1).
# No password_file, no acl_file here: a table's or the hub's password is
# refused.  Client ids are free (two phones may share a table's code).
listener $table_ws_port $ws_bind
protocol websockets
socket_domain ipv4
allow_anonymous false
use_username_as_clientid false
plugin $dynsec_lib
plugin_opt_config_file $outdir/dynsec/dynamic-security.json
EOF
        if [ -n "$http_dir" ]; then
            cat <<EOF
# The pages over plain HTTP on the same port: a phone opens
# http://HOST:$table_ws_port/play.html?code=... and signs in right there.
http_dir $served_dir
EOF
        fi
    fi
} >"$work/mosquitto.conf"

if [ $ws = 1 ]; then
    # The bridge dials the venue broker's loopback bridge listener.
    venue_addr=127.0.0.1
    # Derived from the bridge's password: stable across re-runs, secret.
    bridge_local_id=feed-bridge-$(printf 'local id %s' "${pw[$bridge_user]}" |
        sha256sum | head -c 20)
    {
        cat <<EOF
# feed.conf - Tourney public feed broker, generated by
# deploy/broker/gen-config.sh.  Do not edit: re-run the script.
# Holds the bridge's password: keep it unreadable to others.
# Why each setting is what it is: deploy/broker/README.md.

EOF
        common_settings
        cat <<EOF

# --- The phones, hall screens and overlays: anonymous, read-only ---------
# Their WebSockets end in feed-front.js (feed-front.json: port $ws_port on
# $ws_bind, and the pages), which pipes each into its own connection
# here.  No WebSocket listener in this process: mosquitto 2.0's
# (libwebsockets) polls every WebSocket client's socket once per packet
# it reads, a second of CPU per publish of the round at 2,000 phones
# (README, Benchmarks, issue 17); this one is served by epoll.  Bound
# after mosquitto drops to --run-as, hence its own directory; the front
# runs as --run-as too.
listener 0 $outdir/run/feed.sock
allow_anonymous true
acl_file $outdir/acl-feed


# --- Bridge: pull the public feed from the venue broker -------------------
connection venue
address $venue_addr:$bridge_port
bridge_protocol_version mqttv311
# mosquitto-to-mosquitto bridge mode: retained flags are kept.
try_private true
cleansession true
remote_username $bridge_user
remote_password ${pw[$bridge_user]}
remote_clientid $bridge_user
# A client id nobody can guess: a WebSocket client taking the bridge's
# local client id would disconnect the bridge (measured).
local_clientid $bridge_local_id
# No \$SYS notification topics (the venue ACL would deny them anyway).
notifications false
start_type automatic
# Reconnect after 1 s, backing off to 10 s, with jitter.
restart_timeout 1 10
topic tourney/v1/feed/# in 1
EOF
        if [ -n "$cloud" ]; then
            cat <<EOF

# --- Cloud bridge: the public feed to $cloud_host:$cloud_port -----------
# Outbound tourney/v1/feed/# only: nothing from the remote broker comes
# in, so the internet never writes to the venue.  A managed service is
# not mosquitto: plain MQTT 3.1.1 (no try_private), retained flags kept.
connection cloud
address $cloud_host:$cloud_port
bridge_protocol_version mqttv311
try_private false
cleansession true
remote_clientid $cloud_client_id
local_clientid feed-cloud-$(printf 'local %s' "$bridge_local_id" | sha256sum | head -c 20)
remote_username $cloud_user
remote_password $cloud_pw
notifications false
start_type automatic
# The remote may be far: back off to a minute, with jitter.
restart_timeout 2 60
topic tourney/v1/feed/# out 1
EOF
            if [ $cloud_tls = 1 ]; then
                if [ -n "$cloud_cafile" ]; then
                    echo "bridge_cafile $(cd -- "$(dirname -- "$cloud_cafile")" && pwd -P)/$(basename -- "$cloud_cafile")"
                else
                    echo "bridge_capath /etc/ssl/certs"
                fi
                echo "bridge_insecure false"
            fi
        fi
    } >"$work/feed.conf"
    # feed-front.js's configuration (JSON; the paths as JSON strings).
    json_str() {
        local v=${1//\\/\\\\}
        printf '"%s"' "${v//\"/\\\"}"
    }
    {
        printf '{\n  "address": "%s",\n  "port": %d,\n' "$ws_bind" "$ws_port"
        printf '  "broker_socket": %s,\n' "$(json_str "$outdir/run/feed.sock")"
        if [ -n "$http_dir" ]; then
            printf '  "http_dir": %s\n}\n' "$(json_str "$served_dir")"
        else
            printf '  "http_dir": null\n}\n'
        fi
    } >"$work/feed-front.json"
fi

# --- install ---------------------------------------------------------------

# mosquitto reads passwd and the ACLs after dropping to --run-as: give that
# user's group read access when we are root.  The .cred files stay 0600.
group=
if [ "$(id -u)" = 0 ] && [ "$run_as" != root ] && id -u "$run_as" >/dev/null 2>&1; then
    group=$(id -gn "$run_as")
fi
for f in passwd passwd-console passwd-bridge acl acl-feed mosquitto.conf feed.conf feed-front.json; do
    [ -f "$work/$f" ] || continue
    if [ -n "$group" ]; then
        chgrp "$group" "$work/$f"
        chmod 0640 "$work/$f"
    else
        chmod 0600 "$work/$f"
    fi
done
chmod 0600 "$work/users.cred" "$work/devices.cred"
if [ -n "$group" ]; then
    chgrp "$group" "$outdir"
    chmod 0750 "$outdir"
fi
# The generated TLS files: the key readable by --run-as's group only.
if [ $gen_tls = 1 ] && [ -n "$group" ]; then
    chgrp "$group" "$outdir/tls" "$outdir/tls/server.key"
    chmod 0750 "$outdir/tls"
    chmod 0640 "$outdir/tls/server.key"
fi
# The feed broker's local socket directory, writable by --run-as.
if [ $ws = 1 ]; then
    mkdir -p -- "$outdir/run"
    if [ -n "$group" ]; then
        chown "$run_as:$group" "$outdir/run"
    fi
    chmod 0750 "$outdir/run"
fi

# The codes' store (dynamic-security.json): created once with the hub's
# admin login play-admin only; afterwards the broker owns it (it rewrites
# it on every change, so its directory is --run-as's).  Kept across
# re-runs; --rotate (a new play-admin password) starts it afresh, which
# revokes every code.  Defaults: a code's client reads, writes and
# subscribes to nothing but what its role names.
if [ -n "$table_ws_port" ]; then
    mkdir -p -- "$outdir/dynsec"
    ds=$outdir/dynsec/dynamic-security.json
    if [ $rotate = 1 ] || [ ! -s "$ds" ]; then
        rm -f -- "$work/ds.json"
        mosquitto_ctrl dynsec init "$work/ds.json" "$play_admin" "${pw[$play_admin]}" >/dev/null ||
            die "mosquitto_ctrl dynsec init failed"
        # The admin may only administer (no '#' nor $SYS).
        jq '.defaultACLAccess = {publishClientSend: false, publishClientReceive: false, subscribe: false, unsubscribe: true}
            | .roles |= map(if .rolename == "admin" then .acls |= map(select(.topic | startswith("$CONTROL/"))) else . end)' \
            "$work/ds.json" >"$work/ds2.json" || die "jq failed on the dynamic security file"
        chmod 0600 "$work/ds2.json"
        mv -f -- "$work/ds2.json" "$ds"
    fi
    if [ -n "$group" ]; then
        chown -R "$run_as:$group" "$outdir/dynsec"
    fi
    chmod 0700 "$outdir/dynsec"
fi

# Guessing sign-in codes: a code is 8 characters of 31 (8.5e11); each
# guess is a new connection to the table-page listener, and mosquitto 2.0
# neither limits nor delays failed logins.  The kernel does: at most 30
# new connections a minute per source address (a burst of 60: a page's
# files, a phone's reconnects), beyond that its SYNs are dropped for the
# minute.  One address then tries 43,200 codes a day instead of millions.
if [ -n "$table_ws_port" ]; then
    cat >"$work/play-ratelimit.nft" <<EOF
#!/usr/sbin/nft -f
# play-ratelimit.nft (gen-config.sh) - the table-page listener (port
# $table_ws_port): at most 30 new connections a minute per source address,
# bursts of 60; more are dropped (the page retries).  Load as root:
#   nft -f play-ratelimit.nft      (again after a change: it replaces
# its own table); remove: nft delete table inet tourney_play
table inet tourney_play
delete table inet tourney_play
table inet tourney_play {
    set play4 {
        type ipv4_addr
        size 65535
        flags dynamic,timeout
        timeout 10m
    }
    set play6 {
        type ipv6_addr
        size 65535
        flags dynamic,timeout
        timeout 10m
    }
    chain input {
        type filter hook input priority filter; policy accept;
        tcp dport $table_ws_port ct state new add @play4 { ip saddr limit rate over 30/minute burst 60 packets } counter drop
        tcp dport $table_ws_port ct state new add @play6 { ip6 saddr limit rate over 30/minute burst 60 packets } counter drop
    }
}
EOF
    chmod 0644 "$work/play-ratelimit.nft"
    mv -f -- "$work/play-ratelimit.nft" "$outdir/play-ratelimit.nft"
fi

# The pages-only copy: readable by --run-as's group, swapped in whole.
if [ -d "$work/www" ]; then
    if [ -n "$group" ]; then
        chgrp -R "$group" "$work/www"
        chmod -R u=rwX,g=rX,o= "$work/www"
    else
        chmod -R u=rwX,go=rX "$work/www"
    fi
    rm -rf -- "$outdir/www.old"
    [ ! -d "$outdir/www" ] || mv -- "$outdir/www" "$outdir/www.old"
    mv -- "$work/www" "$outdir/www"
    rm -rf -- "$outdir/www.old"
elif [ -d "$outdir/www" ] && [ "$served_dir" != "$outdir/www" ]; then
    rm -rf -- "$outdir/www"
fi

# Rename into place (atomic per file); stale files of a previous layout go.
for f in passwd passwd-console passwd-bridge acl acl-feed mosquitto.conf feed.conf feed-front.json users.cred devices.cred; do
    if [ -f "$work/$f" ]; then
        mv -f -- "$work/$f" "$outdir/$f"
    else
        rm -f -- "$outdir/$f"
    fi
done

echo "$prog: wrote $outdir (${#users[@]} users, ${#devices[@]} devices$([ $rotate = 1 ] && echo ', passwords rotated'))" >&2
