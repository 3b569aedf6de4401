#!/usr/bin/env bash
# Installs every Debian package Tourney needs to build, test, benchmark and run.
# Idempotent: packages already present are left alone; safe to run again.
# Usage: deploy/install-deps.sh [--bench]   (--bench adds bench-only packages)
set -euo pipefail

packages=(
    build-essential cmake pkg-config git   # toolchain
    libjansson-dev                         # JSON: event files, formats, feed
    libcmocka-dev                          # unit-test harness (ctest-readable)
    libsqlite3-dev                         # hub store
    libpaho-mqtt-dev                       # MQTT client (hub, tables, console)
    libprotobuf-c-dev protobuf-c-compiler  # wire protocol codegen + runtime
    mosquitto mosquitto-clients            # broker for the live system and e2e tests
    libncurses-dev                         # terminal UI: console and table display
    tmux                                   # e2e test of the console dashboard
    clang-format                           # formatting check
)
if [ "${1:-}" = "--bench" ]; then
    packages+=(liblemon-dev g++)           # reference matcher for bench/lemon_compare
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
