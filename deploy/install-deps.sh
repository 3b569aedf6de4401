#!/usr/bin/env bash
# Installs every Debian package Tourney needs to build, test, benchmark and run.
# Idempotent: packages already present are left alone; safe to run again.
# Usage: deploy/install-deps.sh [--bench] [--fuzz] [--cross]
#   --bench  adds bench-only packages
#   --fuzz   adds clang and its libFuzzer runtime, for fuzz/run.sh
#   --cross  adds the arm64 cross toolchain, the :arm64 -dev libraries (Debian
#            multiarch: enables the arm64 architecture once; they pull in
#            libc6:arm64, the runtime qemu uses with -L /) and qemu-user, for
#            deploy/cross/build-arm64.sh and deploy/cross/test_arm64_qemu.sh
#            (deploy/test.sh, i.e. CI, uses --cross)
set -euo pipefail

bench=0
fuzz=0
cross=0
for arg in "$@"; do
    case $arg in
        --bench) bench=1 ;;
        --fuzz) fuzz=1 ;;
        --cross) cross=1 ;;
        *) echo "usage: $0 [--bench] [--fuzz] [--cross]" >&2; exit 2 ;;
    esac
done

packages=(
    build-essential cmake pkg-config git   # toolchain
    libjansson-dev                         # JSON: event files, formats, feed
    libyajl-dev                            # JSON: event files read without a tree (speed)
    libcsv-dev                             # CSV: player import, standings/results export
    libcmocka-dev                          # unit-test harness (ctest-readable)
    libsqlite3-dev                         # hub store
    libpaho-mqtt-dev                       # MQTT client (hub, tables, console)
    libprotobuf-c-dev protobuf-c-compiler  # wire protocol codegen + runtime
    mosquitto mosquitto-clients            # broker for the live system and e2e tests
    jq                                     # gen-config.sh --table-ws-port: the dynamic security file; e2e checks
    libncurses-dev                         # terminal UI: console and table display
    libqrencode-dev                        # QR codes of the sign-in codes on the printouts (tourney live print tents|codes|slips)
    tmux                                   # e2e test of the console dashboard
    iproute2                               # e2e: ip netns / veth (test_table_netns)
    nftables                               # gen-config.sh play-ratelimit.nft (guessing sign-in codes); e2e test_play_ratelimit
    faketime                               # e2e: skewed table clock (libfaketime)
    sqlite3                                # e2e: read the hub's clock row (clock skew)
    clang-format                           # formatting check
    nodejs                                 # stream overlays: deploy/overlays/install.sh, e2e test_overlays
    chromium                               # printouts to PDF (tourney print --pdf); e2e test_pages, test_print
    poppler-utils                          # e2e test_print: pdftotext / pdffonts / pdftoppm read the PDFs back
    zbar-tools                             # e2e test_print_codes: zbarimg decodes the printed QR codes
    fonts-wqy-microhei                     # CJK names on printouts and pages (5 MB; fonts-noto-cjk is 91 MB)
    valgrind                               # the unit tests under memcheck (label memcheck, cmake/Memcheck.cmake)
    help2man                               # the packages' man pages from each program's --help
    gettext                                # msgfmt/xgettext: the message catalogues (po/, cmake/I18n.cmake)
    jq                                     # po/catalogues.sh: the format presets' texts into the templates; e2e tests read JSON
    lintian                                # e2e test_venue_packages: the .deb packages have no lintian error
)
# npm: Debian's package, unless the installed nodejs ships its own npm
# (NodeSource's does, and conflicts with Debian's npm package).
command -v npm >/dev/null 2>&1 || packages+=(npm)
if [ "$bench" = 1 ]; then
    packages+=(liblemon-dev g++)           # reference matcher for bench/lemon_compare
fi
if [ "$fuzz" = 1 ]; then
    packages+=(clang-14 libclang-rt-14-dev) # libFuzzer targets (fuzz/run.sh)
fi
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
need_update=0
if [ "$cross" = 1 ]; then
    # The :arm64 libraries are Multi-Arch: same, so they sit beside the
    # amd64 ones; protoc-c stays the native protobuf-c-compiler.
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo_cmd dpkg --add-architecture arm64
        need_update=1
    fi
    packages+=(
        crossbuild-essential-arm64             # aarch64-linux-gnu-gcc, arm64 libc
        libjansson-dev:arm64 libyajl-dev:arm64 libcsv-dev:arm64 libsqlite3-dev:arm64 libcmocka-dev:arm64
        libpaho-mqtt-dev:arm64 libssl-dev:arm64
        libprotobuf-c-dev:arm64 libncurses-dev:arm64 libqrencode-dev:arm64
        qemu-user                              # runs the arm64 binaries in tests
    )
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ] && [ "$need_update" = 0 ]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
[ ${#missing[@]} -eq 0 ] && exit 0
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
