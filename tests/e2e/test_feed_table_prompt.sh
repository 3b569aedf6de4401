#!/usr/bin/env bash
# test_feed_table_prompt.sh - a result's own documents are not held back
# with the aggregates (docs/feed.md; issue 17 item 2 and its goal "result
# -> the last phone of its table"): the aggregate documents (`tables`,
# `standings`, ...) go out at most once per feed_aggregate_ms, but `table/N`
# goes out with the next feed update after its result, also when an
# earlier result of the same window left the aggregates waiting.  (A hub
# whose next feed turn waited for the aggregates' window held the second
# result's table/N until the window's end.)
#
# Real broker and hub (feed on, feed_interval_ms 50, feed_aggregate_ms
# 60000: a window far longer than the test), a Catan event of 8 players
# (2 tables), the organiser entering both tables' results one after the
# other; a monitor on the venue broker records the event's feed.  Checks
# by content, not by time: table/2 shows its result while the retained
# `tables` still shows no result (its window has not ended).
#
# usage: bash test_feed_table_prompt.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"

TOURNEY=$E2E_BUILD/hub/tourney HUB=$E2E_BUILD/hub/tourney-hub
[ -x "$TOURNEY" ] && [ -x "$HUB" ] || fail "no tourney or tourney-hub under $E2E_BUILD/hub"
command -v jq >/dev/null || fail "jq not found (deploy/install-deps.sh)"
start_broker --no-ws --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config 'feed = true' 'feed_interval_ms = 50' 'feed_aggregate_ms = 60000'
hub_launch
live 0 wait-hub --timeout 20

EV=prompt
live 0 event create "$EV" --format catan --title 'Prompt Open' --seed 5
{
    echo 'id,name,club'
    for i in 1 2 3 4 5 6 7 8; do echo "p$i,Player $i,Club"; done
} >"$E2E_TMP/p.csv"
live 0 players import "$EV" "$E2E_TMP/p.csv"
live 0 round pair "$EV"
live 0 round show "$EV" --json
jq -r '.tables[] | select(.table != null) | "\(.table) \(.players | join(" "))"' \
    "$E2E_TMP/out" >"$E2E_TMP/pairs" || fail "round show --json: $(head -c 300 "$E2E_TMP/out")"
[ "$(wc -l <"$E2E_TMP/pairs")" -eq 2 ] || fail "expected 2 tables: $(cat "$E2E_TMP/pairs")"
live 0 round publish "$EV"
live 0 clock start "$EV"

# last DOC: the newest payload the monitor saw on the event's topic DOC
e2e_sub_start mon watch "tourney/v1/feed/$EV/#"
last() {
    grep "^MSG [01] tourney/v1/feed/$EV/$1 " "$E2E_TMP/mon.out" | tail -n 1 |
        cut -d ' ' -f 4-
}
# the clock start's update (every document at once) is in: the window
# of the aggregates begins with it
wait_for 20 '[ -n "$(last tables)" ]' ||
    fail "no tables document: $(tail -n 3 "$E2E_TMP/mon.out")"
table_state() { # N: table/N's state in its newest document
    last "table/$1" | jq -r '.state // empty' 2>/dev/null
}
enter() { # N: the result of table N, first seat 10 VP
    local a b c d
    read -r _ a b c d < <(awk -v t="$1" '$1 == t' "$E2E_TMP/pairs")
    live 0 result enter "$EV" 1 "$1" "{\"vp\": {\"$a\": 10, \"$b\": 5, \"$c\": 4, \"$d\": 3}}"
}

enter 1
wait_for 20 '[ "$(table_state 1)" = confirmed ]' ||
    fail "table/1 not confirmed on the feed: $(last table/1)"
ok "table 1's result: table/1 confirmed on the feed"
enter 2
# Before the fix this waited for the aggregates' window (60 s).
wait_for 20 '[ "$(table_state 2)" = confirmed ]' ||
    fail "table/2 not confirmed within 20 s of its result (held back with the aggregates?): $(last table/2)"
# ...and the aggregates did wait: `tables` shows neither result yet
states=$(last tables | jq -r '[.tables[].state] | join(",")')
case ",$states," in
*,confirmed,*) fail "the tables document has a confirmed table within its 60 s window: $states" ;;
esac
[ -n "$states" ] || fail "no tables document: $(last tables)"
ok "table 2's result: table/2 confirmed while the tables document waits for its window ($states)"
