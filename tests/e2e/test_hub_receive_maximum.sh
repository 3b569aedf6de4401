#!/usr/bin/env bash
# test_hub_receive_maximum.sh - the hub's publish window follows the
# broker (issue 17): with max_inflight_messages 20 (gen-config.sh's least), which mosquitto sends
# as the MQTT v5 Receive Maximum in its CONNACK, and publish_window left
# at its default (256), at most 18 of the hub's publishes await their
# acknowledgement at once (two places kept: the lease, sent at once, and
# the adapter's birth message),
# while a round of 40 tables (80 players) sends over a hundred at once.
# Beyond the Receive Maximum, Paho 1.3.12 holds a publish until its send
# thread's next turn, up to a second (docs/architecture.md, "The publish
# window").  test_hub_publish_window.sh's run with those settings.
#
# usage: bash test_hub_receive_maximum.sh SOURCE_DIR BUILD_DIR
WINDOW_CONF='' BROKER_MAX_INFLIGHT=20 WINDOW_MOST=18 N_DEV=40 \
    source "$(dirname -- "${BASH_SOURCE[0]}")/test_hub_publish_window.sh"
