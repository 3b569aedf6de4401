#!/usr/bin/env bash
# install.sh - installs the pages' dependencies from the npm registry with
# the versions pinned in package-lock.json (`npm ci`): `mqtt` (MQTT over
# WebSocket), `qrcode-generator` (the hall screen's QR code) and, for the
# tests only, `playwright-core` (drives Debian's chromium); copies the two
# browser files the pages load to vendor/mqtt.min.js and vendor/qrcode.js;
# converts the pages' translations (po/tourney-pages/*.po, with the
# build-time package `gettext-parser`) into locale/catalogues.js
# (po2js.mjs).  node_modules/ (used by tests/e2e/overlay_check.js,
# pages_check.js), vendor/ and locale/ are not in git.
#
# Run it once on a machine that reaches the npm registry (CI does, through
# deploy/test.sh); afterwards this folder is self-contained: copy it to
# the streaming PC, the venue needs no internet.  Needs node and npm
# (deploy/install-deps.sh installs them).  Takes a few seconds.
#
# Exit status: 0 done; 2 npm or node missing; npm's own status when the
# install fails.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
cd -- "$here"
for tool in node npm; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "install.sh: $tool not found (apt-get install -y nodejs npm, or deploy/install-deps.sh)" >&2
        exit 2
    }
done
npm ci --no-audit --no-fund --loglevel=error
mkdir -p vendor
cp node_modules/mqtt/dist/mqtt.min.js vendor/mqtt.min.js.tmp
mv -f vendor/mqtt.min.js.tmp vendor/mqtt.min.js
cp node_modules/mqtt/LICENSE.md vendor/mqtt.LICENSE.md
# qrcode-generator's plain-script build (ES3, defines the global qrcode;
# MIT licence in its header)
cp node_modules/qrcode-generator/dist/qrcode.js vendor/qrcode.js.tmp
mv -f vendor/qrcode.js.tmp vendor/qrcode.js
# the pages' words: po/tourney-pages/*.po -> locale/catalogues.js (a copy
# of this folder without ../../po keeps the one made here)
if [ -d ../../po/tourney-pages ]; then
    node po2js.mjs
fi
echo "install.sh: vendor/mqtt.min.js from mqtt $(node -p 'require("./node_modules/mqtt/package.json").version')," \
    "vendor/qrcode.js from qrcode-generator $(node -p 'require("./node_modules/qrcode-generator/package.json").version')"
