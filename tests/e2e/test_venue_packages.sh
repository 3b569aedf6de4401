#!/usr/bin/env bash
# test_venue_packages.sh - setting up the hall from the packages alone (issue
# 8, "Setting up the hall"): the hub package depends on mosquitto and ships
# the venue set-up (tourney-venue-setup, gen-config.sh, broker units, the
# pages); the table package ships the first-boot configuration from the SD
# card's boot partition.  Both packages' files are installed into private
# roots (DESTDIR, what dpkg would unpack), then:
#   - tourney-venue-setup writes the brokers' configuration; the real
#     brokers run on it, the hub logs in with the password it was given,
#     the feed broker serves the pages over HTTP;
#   - a Pi's tourney.txt + tourney-devices.cred on its boot partition become
#     /etc/tourney/table.conf; the secrets leave the card; the table logs in
#     to the real broker with them and shows its assignment;
#   - a wrong tourney.txt changes nothing under /etc and says why on the
#     card (tourney-error.txt).
# And the packages as Debian wants them (issue 22 item 11): lintian finds no
# error in any of the three (copyright, changelog, descriptions, a real
# maintainer address, stripped binaries; man pages made from the real
# --help); `tourney-cli` holds the tourney program alone (no service, no
# maintainer script, no /etc) and runs from its unpacked files; the hub
# package depends on it instead of shipping tourney twice; both depend on
# the CJK font; cpack FAILS, naming deploy/overlays/install.sh, when the
# pages' npm bundles are missing (TNY_PAGES_VENDOR pointed at an empty
# directory), instead of a hub package whose pages cannot connect.  Without
# deploy/overlays/vendor (install.sh not run) the rest skips, like the
# pages' own tests.
# shellcheck disable=SC1091
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=420 # cpack twice and lintian (lib.sh: 120)
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
source "$E2E_SRC/tests/e2e/live_hub.sh"
need_binaries TOURNEY HUB TABLE
command -v cpack >/dev/null || fail "cpack not found"
command -v dpkg-deb >/dev/null || fail "dpkg-deb not found"
command -v lintian >/dev/null || fail "lintian not found (deploy/install-deps.sh installs it)"

# --- without the pages' npm bundles, no package ------------------------------
mkdir -p "$E2E_TMP/novendor"
if (cd "$E2E_TMP" && TNY_PAGES_VENDOR=$E2E_TMP/novendor cpack -G DEB \
    --config "$E2E_BUILD/CPackConfig.cmake" -B "$E2E_TMP/pkg-novendor" \
    >"$E2E_TMP/cpack-novendor.log" 2>&1); then
    fail "cpack made packages without the pages' npm bundles (rc 0)"
fi
grep -q "deploy/overlays/install.sh" "$E2E_TMP/cpack-novendor.log" ||
    fail "cpack without the bundles does not say what to run: $(tail -n 5 "$E2E_TMP/cpack-novendor.log")"
! ls "$E2E_TMP"/pkg-novendor/tourney-hub_*.deb >/dev/null 2>&1 ||
    fail "cpack without the bundles left a tourney-hub package"
ok "cpack fails without the pages' npm bundles and names deploy/overlays/install.sh"
if [ ! -f "$E2E_SRC/deploy/overlays/vendor/mqtt.min.js" ]; then
    echo "SKIP: $E2E_NAME: deploy/overlays/vendor missing (run deploy/overlays/install.sh); the hub cannot be packaged"
    exit 77
fi

# The packages are the release build's: a sanitizer build makes no man
# pages and its binaries are instrumented, so the rest runs in the release
# build only (deploy/test.sh runs both).
if grep -q '^TNY_SANITIZE:BOOL=ON' "$E2E_BUILD/CMakeCache.txt" 2>/dev/null; then
    echo "SKIP: $E2E_NAME: the rest checks the release build's packages (this is a sanitizer build)"
    exit 77
fi

# --- the packages' metadata --------------------------------------------------
(cd "$E2E_TMP" && cpack -G DEB --config "$E2E_BUILD/CPackConfig.cmake" -B "$E2E_TMP/pkg" \
    >"$E2E_TMP/cpack.log" 2>&1) || fail "cpack: $(tail -n 5 "$E2E_TMP/cpack.log")"
cli_deb=$(ls "$E2E_TMP"/pkg/tourney-cli_*.deb) || fail "no tourney-cli package"
hub_deb=$(ls "$E2E_TMP"/pkg/tourney-hub_*.deb)
table_deb=$(ls "$E2E_TMP"/pkg/tourney-table_*.deb)
deps=$(dpkg-deb -f "$hub_deb" Depends)
grep -q 'mosquitto' <<<"$deps" || fail "tourney-hub does not depend on mosquitto: $deps"
# the feed's WebSocket front (feed-front.js) with Debian's npm packages
grep -Eq 'nodejs \(>= 18\), node-ws \(>= 8\.11\), node-serve-static \(>= 1\.15\)' <<<"$deps" || fail "tourney-hub does not depend on the front's node packages (Debian 12's versions): $deps"
version=$(dpkg-deb -f "$cli_deb" Version)
grep -q -F "tourney-cli (= $version)" <<<"$deps" || fail "tourney-hub does not depend on tourney-cli (= $version): $deps"
for deb in "$cli_deb" "$hub_deb"; do
    grep -q -w 'fonts-wqy-microhei' <<<"$(dpkg-deb -f "$deb" Depends)" ||
        fail "$(basename "$deb") does not depend on the CJK font: $(dpkg-deb -f "$deb" Depends)"
done
dpkg-deb -c "$hub_deb" | awk '{ print $6 }' >"$E2E_TMP/hub.files"
for f in ./usr/sbin/tourney-venue-setup ./usr/share/tourney/broker/gen-config.sh \
    ./usr/lib/systemd/system/tourney-broker.service ./usr/lib/systemd/system/tourney-feed.service \
    ./usr/lib/systemd/system/tourney-feed-front.service ./usr/share/tourney/broker/feed-front.js \
    ./usr/lib/systemd/system/tourney-hub.service ./usr/share/tourney/www/pairings.html ./usr/share/tourney/www/hall.html ./usr/share/tourney/www/player.html \
    ./usr/share/tourney/www/vendor/mqtt.min.js ./usr/share/tourney/www/vendor/qrcode.js ./usr/share/tourney/www/locale/catalogues.js \
    ./usr/share/man/man1/tourney-hub.1.gz ./usr/share/man/man8/tourney-venue-setup.8.gz; do
    grep -q -x -F "$f" "$E2E_TMP/hub.files" || fail "tourney-hub lacks $f"
done
! grep -q -x -F ./usr/bin/tourney "$E2E_TMP/hub.files" ||
    fail "tourney-hub ships /usr/bin/tourney too (it is tourney-cli's)"
dpkg-deb -c "$table_deb" | awk '{ print $6 }' >"$E2E_TMP/table.files"
for f in ./usr/sbin/tourney-table-firstboot ./usr/lib/systemd/system/tourney-table-firstboot.service \
    ./usr/share/man/man1/tourney-table.1.gz ./usr/share/man/man8/tourney-table-firstboot.8.gz; do
    grep -q -x -F "$f" "$E2E_TMP/table.files" || fail "tourney-table lacks $f"
done
ok "packages: hub depends on mosquitto, node's ws and serve-static, tourney-cli and the CJK font, ships the venue set-up, the feed's front, pages and bundles; table ships first boot"

# lintian: no error in any package (warnings are printed, not failed).
lintian --fail-on error --tag-display-limit 0 "$cli_deb" "$hub_deb" "$table_deb" \
    >"$E2E_TMP/lintian.out" 2>&1
rc=$?
grep -v 'root privileges' "$E2E_TMP/lintian.out" | sed 's|^|  lintian: |'
[ $rc = 0 ] && ! grep -q '^E: ' "$E2E_TMP/lintian.out" ||
    fail "lintian (rc $rc): $(grep '^E: ' "$E2E_TMP/lintian.out")"
ok "lintian: no errors in tourney-cli, tourney-hub, tourney-table"

# The man pages are the programs' real --help (help2man).
for pair in "$cli_deb:usr/share/man/man1/tourney.1.gz:round publish" \
    "$hub_deb:usr/share/man/man1/tourney-hub.1.gz:--dump-config" \
    "$table_deb:usr/share/man/man1/tourney-table.1.gz:--example-config"; do
    IFS=: read -r deb page want <<<"$pair"
    rm -rf "$E2E_TMP/man" && dpkg-deb -x "$deb" "$E2E_TMP/man"
    zcat "$E2E_TMP/man/$page" | sed 's/\\-/-/g' >"$E2E_TMP/man.txt"
    grep -q -F -- "$want" "$E2E_TMP/man.txt" ||
        fail "$page does not hold \"$want\" from the program's --help"
done
ok "man pages of tourney, tourney-hub and tourney-table carry their --help"

# --- an organiser's laptop: tourney-cli alone ----------------------------------
dpkg-deb -c "$cli_deb" | awk '{ print $6 }' >"$E2E_TMP/cli.files"
for f in ./usr/bin/tourney ./usr/share/man/man1/tourney.1.gz ./usr/share/doc/tourney-cli/copyright \
    ./usr/share/doc/tourney-cli/changelog.gz; do
    grep -q -x -F "$f" "$E2E_TMP/cli.files" || fail "tourney-cli lacks $f"
done
if grep -E '^\./(etc/|usr/lib/systemd/|usr/bin/tourney-|usr/sbin/)' "$E2E_TMP/cli.files"; then
    fail "tourney-cli ships a service, a daemon or configuration (above)"
fi
dpkg-deb -e "$cli_deb" "$E2E_TMP/cli.control"
for script in preinst postinst prerm postrm; do
    [ ! -e "$E2E_TMP/cli.control/$script" ] || fail "tourney-cli has a $script (it must not touch services or users)"
done
laptop=$E2E_TMP/laptop
dpkg-deb -x "$cli_deb" "$laptop"
"$laptop/usr/bin/tourney" --version >"$E2E_TMP/cli.out" 2>&1 || fail "unpacked tourney --version: $(cat "$E2E_TMP/cli.out")"
"$laptop/usr/bin/tourney" formats | grep -q -x catan || fail "unpacked tourney formats: no catan"
# (to a file: grep -q stops reading at the first match, and a writer cut
# off by SIGPIPE would fail the pipeline under pipefail)
"$laptop/usr/bin/tourney" live --help >"$E2E_TMP/cli.help" 2>&1 &&
    grep -q 'round publish' "$E2E_TMP/cli.help" || fail "unpacked tourney live --help: $(head -n 3 "$E2E_TMP/cli.help")"
ok "tourney-cli: the tourney program alone (no service, no maintainer scripts, no /etc), runs unpacked"

# --- the venue server ----------------------------------------------------------
srv=$E2E_TMP/server
DESTDIR=$srv cmake --install "$E2E_BUILD" --component hub --prefix /usr >/dev/null ||
    fail "cmake --install (hub)"
BROKER_DIR=$srv/etc/tourney/broker
BROKER_LOG=$E2E_TMP/broker.log
FEED_LOG=$E2E_TMP/feed.log
FRONT_LOG=$E2E_TMP/front.log
# the front the package ships (its npm packages: the checkout's; the
# package depends on Debian's node-ws and node-serve-static)
FRONT_JS=$srv/usr/share/tourney/broker/feed-front.js
up=0
for ((attempt = 1; attempt <= 20 && up == 0; attempt++)); do
    port_reserve BROKER_PORT BROKER_WS_PORT BROKER_BRIDGE_PORT
    "$srv/usr/sbin/tourney-venue-setup" --root "$srv" --no-systemd \
        --tables 3 --organisers o1 --bind "$BROKER_HOST" --port "$BROKER_PORT" \
        --ws-port "$BROKER_WS_PORT" --bridge-port "$BROKER_BRIDGE_PORT" \
        --run-as "$(id -un)" --log-debug \
        >"$E2E_TMP/setup.out" 2>&1 || fail "tourney-venue-setup: $(cat "$E2E_TMP/setup.out")"
    : >"$BROKER_LOG"
    : >"$FEED_LOG"
    : >"$FRONT_LOG"
    if launch "$BROKER_DIR/mosquitto.conf" "$BROKER_LOG" BROKER_PID; then
        e2e_track "$BROKER_PID"
        if launch_feed; then
            e2e_track "$FEED_PID"
            up=1
            continue
        fi
        [ -z "$FEED_PID" ] || kill_wait "$FEED_PID"
        FEED_PID=
        kill_wait "$BROKER_PID"
    fi
    port_release "$BROKER_PORT" "$BROKER_WS_PORT" "$BROKER_BRIDGE_PORT"
done
[ $up = 1 ] || fail "no free ports in 20 attempts"
[ "$(jq -r .http_dir "$BROKER_DIR/feed-front.json")" = "$srv/usr/share/tourney/www" ] ||
    fail "feed-front.json does not serve the shipped pages: $(cat "$BROKER_DIR/feed-front.json")"
grep -q '^password_file = "/etc/tourney/hub.password"$' "$srv/etc/tourney/hub.conf" ||
    fail "hub.conf has no password_file: $(cat "$srv/etc/tourney/hub.conf")"
grep -q "^broker_uri = \"tcp://127.0.0.1:$BROKER_PORT\"\$" "$srv/etc/tourney/hub.conf" ||
    fail "hub.conf's broker_uri is not the venue broker"
[ "$(cat "$srv/etc/tourney/hub.password")" = "$(cred hub)" ] ||
    fail "hub.password is not the hub's broker password"
perm=$(stat -c %a "$srv/etc/tourney/hub.password")
[ "$perm" = 640 ] || fail "hub.password is mode $perm, expected 640"
ok "venue set-up: broker configs, hub password (0640) and broker_uri written"

# The feed's port serves the pages (what the hall screens and phones load).
page=$(curl -s -f "http://$BROKER_HOST:$BROKER_WS_PORT/pairings.html") ||
    fail "GET /pairings.html from the feed broker failed"
grep -q 'TourneyLive.start("pairings")' <<<"$page" || fail "served page is not pairings.html"
code=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is \
    "http://$BROKER_HOST:$BROKER_WS_PORT/../../etc/tourney/hub.password")
[ "$code" = 404 ] || fail "the feed broker served a path outside the pages: HTTP $code"
ok "feed broker serves the pages over HTTP and nothing outside them"

# The hub runs on the written config (its password file path is the real
# one, /etc/tourney/hub.password; here it lives under the private root).
live_hub_config
cp "$srv/etc/tourney/hub.conf" "$E2E_TMP/hub.conf"
sed -i "s|^password_file = .*|password_file = \"$srv/etc/tourney/hub.password\"|; s|^database = .*|database = \"$E2E_TMP/hub.db\"|; s|^database_sync = .*|database_sync = \"false\"|" \
    "$E2E_TMP/hub.conf"
hub_launch
live 0 wait-hub --timeout 20
ok "the hub logs in with the venue set-up's password and is online"

# --- a table's first boot ----------------------------------------------------------
pi=$E2E_TMP/pi
DESTDIR=$pi cmake --install "$E2E_BUILD" --component table --prefix /usr >/dev/null ||
    fail "cmake --install (table)"
firstboot=$pi/usr/sbin/tourney-table-firstboot
boot=$pi/boot/firmware
mkdir -p "$boot"
etc_before=$(cd "$pi/etc/tourney" && sha256sum ./*)

# Wrong files first: each says why on the card and changes nothing.
# bad_boot REASON_PATTERN: runs first boot on the card as it is now.
bad_boot() {
    rm -f "$boot/tourney-error.txt"
    if "$firstboot" --root "$pi" --table "$TABLE" >"$E2E_TMP/fb.out" 2>&1; then
        fail "first boot accepted a wrong tourney.txt: $(cat "$boot/tourney.txt")"
    fi
    [ -f "$boot/tourney-error.txt" ] || fail "no tourney-error.txt on the card"
    grep -q -e "$1" "$boot/tourney-error.txt" ||
        fail "tourney-error.txt does not say \"$1\": $(cat "$boot/tourney-error.txt")"
    [ "$(cd "$pi/etc/tourney" && sha256sum ./*)" = "$etc_before" ] ||
        fail "a wrong tourney.txt changed /etc/tourney"
    [ -f "$boot/tourney.txt" ] || fail "a wrong tourney.txt was removed from the card"
}
cp "$srv/etc/tourney/broker/devices.cred" "$boot/tourney-devices.cred"
printf 'broker_uri = "tcp://%s:%s"\r\n' "$BROKER_HOST" "$BROKER_PORT" >"$boot/tourney.txt"
bad_boot 'no device_id line'
printf 'device_id = "table-009"\r\nbroker_uri = "tcp://%s:%s"\r\n' "$BROKER_HOST" "$BROKER_PORT" >"$boot/tourney.txt"
bad_boot 'device "table-009" is not in tourney-devices.cred'
printf 'device_id = "table-002"\nbroker_uri = "tcp://%s:%s"\nscreen = "big"\n' "$BROKER_HOST" "$BROKER_PORT" >"$boot/tourney.txt"
bad_boot 'unknown setting "screen"'
printf 'device_id = "table-002"\nbroker_uri = "tcp://%s:%s"\nntp = "a b"\n' "$BROKER_HOST" "$BROKER_PORT" >"$boot/tourney.txt"
bad_boot 'ntp: "a b" is not a host name'
ok "wrong tourney.txt files: the reason on the card, /etc/tourney unchanged"

# The organiser's file as Windows Notepad writes it (BOM, CRLF).
printf '\xEF\xBB\xBFdevice_id = "table-002"\r\nbroker_uri = "tcp://%s:%s"\r\n' \
    "$BROKER_HOST" "$BROKER_PORT" >"$boot/tourney.txt"
"$firstboot" --root "$pi" --table "$TABLE" >"$E2E_TMP/fb.out" 2>&1 ||
    fail "first boot: $(cat "$E2E_TMP/fb.out")"
conf=$pi/etc/tourney/table.conf
grep -q '^device_id = "table-002"' "$conf" || fail "table.conf: no device_id: $(cat "$conf")"
grep -q "^mqtt_password = \"$(cred table-002)\"\$" "$conf" || fail "table.conf: not table-002's password"
[ "$(stat -c %a "$conf")" = 640 ] || fail "table.conf is not mode 640"
[ ! -e "$boot/tourney-devices.cred" ] || fail "the card still holds every device's password"
[ ! -e "$boot/tourney.txt" ] || fail "tourney.txt still on the card (first boot would run again)"
[ ! -e "$boot/tourney-error.txt" ] || fail "tourney-error.txt left after success"
[ -f "$boot/tourney.txt.done" ] || fail "no tourney.txt.done"
if grep -q -F "$(cred table-002)" "$boot/tourney.txt.done"; then
    fail "tourney.txt.done still holds the password"
fi
"$firstboot" --root "$pi" --table "$TABLE" >"$E2E_TMP/fb2.out" 2>&1 ||
    fail "first boot without tourney.txt must do nothing and succeed"
grep -q "^NTP=$BROKER_HOST\$" "$pi/etc/systemd/timesyncd.conf.d/tourney-venue.conf" ||
    fail "first boot did not point timesyncd at the broker's host"
grep -q '^ntp' "$conf" && fail "table.conf got first boot's own ntp setting"
ok "first boot: table.conf (0640) with table-002's password, timesyncd from the venue server; the secrets left the card"

# The table configured by its card logs in and gets its assignment.
cp "$conf" "$E2E_TMP/table-002.conf"
printf 'outbox = "%s"\nlog_level = "debug"\nkeepalive_s = 2\ndisplay = "headless"\n' \
    "$E2E_TMP/table-002.db" >>"$E2E_TMP/table-002.conf"
hl_start table-002 "$TABLE"
hl_nh_round venue 5 table-002
hl_assigned table-002 venue 1
ok "the card-configured table logged in and shows table 1 of round 1"
hl_quit table-002

e2e_done
