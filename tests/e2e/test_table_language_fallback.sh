#!/usr/bin/env bash
# test_table_language_fallback.sh - issue 21: an event that sets no
# language; the table's own `language` setting decides (nb, although the
# Pi's locale says Czech: LANGUAGE=cs), and without the setting the Pi's
# locale does (cs).  Real broker, hub and table client (tmux, 80x24); the
# table is restarted by its loop as systemd would after the setting is
# removed.
#
# usage: bash test_table_language_fallback.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
E2E_TIMEOUT=${E2E_TIMEOUT:-170}
e2e_init "$@"
source "$(dirname -- "${BASH_SOURCE[0]}")/table_tui.sh"

TUI_SIZE=80x24 TUI_LANGUAGE=cs TUI_TABLE_LINES='language = "nb"' TUI_K_ONLINE='nett tilkoblet' \
    tui_setup tantrix '{"swiss_rounds": 2}' 4
tui_round
expect 30 '^ SPILLET PÅGÅR' "the setting's language (nb) over the locale's (cs)"
expect 10 'Enter registrer resultatet' "Norwegian key line"
grep_screen 'HRAJE SE|PLAYING' && fail "not Norwegian: $(screen)"
ok "event without a language: the table's language setting (nb) wins over its locale (cs)"

sed -i '/^language = /d' "$E2E_TMP/table-001.conf"
kill -TERM "$(cat "$E2E_TMP/table-001.pid")"
expect 30 '^ HRAJE SE' "without the setting: the locale's language (LANGUAGE=cs)"
expect 10 'Enter zapsat výsledek' "Czech key line"
grep_screen 'SPILLET PÅGÅR|PLAYING' && fail "not Czech: $(screen)"
ok "without the setting: the Pi's locale (cs)"
tui_finish
e2e_done
