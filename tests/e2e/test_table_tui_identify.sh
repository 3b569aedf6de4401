#!/usr/bin/env bash
# test_table_tui_identify.sh - `tourney live device identify` on the full-
# screen table display (issue 8 part 8): table-001 (tmux 100x30, real
# broker and hub) on table 1 of a published round is identified; its
# screen becomes a banner with "TABLE-001", "table 1" and the seconds
# left, in reverse video and in normal video in turn (blinking), then the
# table's own screen comes back by itself after 10 s.
#
# usage: bash test_table_tui_identify.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-200}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"
tui_setup neuroshima-hex '{"swiss_rounds": 1, "cut": 0}' 4
tui_round
expect 20 'Player [0-9]' "the round on the screen"
grep_screen 'TABLE-001' && fail "a banner before identify: $(screen)"

live 0 device identify table-001
expect 10 '^ *TABLE-001 *$' "the banner's device id"
grep_screen '^ *table 1 *$' || fail "no \"table 1\" on the banner: $(screen)"
grep_screen 'identify: ([1-9]|10) s' || fail "no seconds left on the banner: $(screen)"
# The whole screen alternates reverse and normal video.  tmux's capture
# with attributes (-e) only writes an attribute where it changes: in the
# reverse phase the large digits are normal-video '#' on reverse paper
# (a '#' followed by SGR ...7m), in the normal phase they are reverse
# blocks on normal paper (no '#' on the screen).
reverse() { tm capture-pane -p -e -t tui | grep -q $'#\e\\[[0-9;]*7m'; }
normal() { screen | grep -q TABLE-001 && ! screen | grep -q '#'; }
wait_until 5 reverse || fail "the banner is never reverse: $(tm capture-pane -p -e -t tui | cat -v | head -n 20)"
wait_until 5 normal || fail "the banner never blinks to normal video: $(screen)"
ok "identify: a blinking banner TABLE-001 / table 1"

# After 10 s the table's own screen is back (no key pressed).
wait_until 15 eval '! grep_screen TABLE-001' || fail "the banner did not end: $(screen)"
grep_screen 'Player [0-9]' || fail "the table's screen is not back: $(screen)"
ok "the table's screen comes back after the banner"
e2e_done
