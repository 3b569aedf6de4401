#!/usr/bin/env bash
# test_hub_config_bytes.sh - the hub's configuration refuses what is not
# a text file or names what no table can be (issue 23): each case is one
# line on stderr naming the file (and the line and byte, or the setting),
# exit status 2, and nothing opened (`--dump-config` would otherwise print
# the settings and exit 0).
#
# - a NUL byte: the old parser stopped there and silently took the
#   default database path for a `database` line after it;
# - other binary bytes: a control character, a byte that is not UTF-8;
# - a missing password_file: the message names the file;
# - device_prefix with an MQTT wildcard (+ #), a level separator (/) or
#   upper case (client ids and topic levels; logins are [a-z0-9-]).
# A good file with the same settings is accepted (the control).
#
# usage: bash test_hub_config_bytes.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
need_binaries HUB
C=$E2E_TMP/hub.conf

# refused WHAT PATTERN ARGS...: tourney-hub --dump-config ARGS exits 2
# with one stderr line matching PATTERN (grep -E) and prints nothing.
refused() {
    local what=$1 pat=$2 st=0
    shift 2
    "$HUB" "$@" --dump-config >"$E2E_TMP/out" 2>"$E2E_TMP/err" || st=$?
    [ "$st" -eq 2 ] || fail "$what: exit status $st (want 2); stdout: $(head -n 3 "$E2E_TMP/out" | tr '\n' '|') stderr: $(cat "$E2E_TMP/err")"
    [ "$(wc -l <"$E2E_TMP/err")" -eq 1 ] || fail "$what: want one line on stderr: $(cat "$E2E_TMP/err")"
    grep -q -E -- "$pat" "$E2E_TMP/err" || fail "$what: stderr does not match /$pat/: $(cat "$E2E_TMP/err")"
    [ ! -s "$E2E_TMP/out" ] || fail "$what: printed settings: $(head -n 3 "$E2E_TMP/out")"
    ok "$what: $(cat "$E2E_TMP/err")"
}

# The control: the file's text without the bad bytes is accepted.
printf 'log_level = debug\ndatabase = "%s/hub.db"\n' "$E2E_TMP" >"$C"
"$HUB" --config "$C" --dump-config >"$E2E_TMP/out" 2>"$E2E_TMP/err" ||
    fail "the good file is refused: $(cat "$E2E_TMP/err")"
grep -q "^database = \"$E2E_TMP/hub.db\"" "$E2E_TMP/out" ||
    fail "the good file's database is not taken: $(cat "$E2E_TMP/out")"
ok "control: a text file with the same settings is accepted"

# A NUL byte at the end of line 1 (byte 17): the database line after it.
printf 'log_level = debug\000\ndatabase = "%s/hub.db"\n' "$E2E_TMP" >"$C"
refused "NUL byte" "^tourney-hub: $C:1: a NUL byte \\(0x00 at byte 17\\): not a text file$" --config "$C"
# A control character (ESC) at the start of line 2 (byte 18).
printf 'log_level = debug\n\033database = "%s/hub.db"\n' "$E2E_TMP" >"$C"
refused "control character" "^tourney-hub: $C:2: a control character \\(0x1b at byte 18\\)" --config "$C"
# A byte that is not UTF-8 (0xff) on line 3.
printf 'log_level = debug\n# \n# caf\377\ndatabase = "%s/hub.db"\n' "$E2E_TMP" >"$C"
refused "byte not UTF-8" "^tourney-hub: $C:3: a byte that is not UTF-8 \\(0xff at byte 26\\)" --config "$C"
# UTF-8 text (a comment in French) is text.
printf '# café à la table\ndatabase = "%s/hub.db"\n' "$E2E_TMP" >"$C"
"$HUB" --config "$C" --dump-config >/dev/null 2>"$E2E_TMP/err" ||
    fail "a UTF-8 comment is refused: $(cat "$E2E_TMP/err")"
ok "a UTF-8 comment is accepted"

# A missing password file is named.
printf 'password_file = "%s/nowhere/hub.pw"\n' "$E2E_TMP" >"$C"
refused "missing password_file" "^tourney-hub: password_file: $E2E_TMP/nowhere/hub.pw: No such file or directory$" --config "$C"

# device_prefix: MQTT wildcards, a level separator, upper case.
for p in 'table+' 'table#' 'tab/le-' 'Table-' 'tâble-'; do
    q=$(printf '%s' "$p" | sed 's/[+#/.]/\\&/g')
    refused "device_prefix \"$p\"" "^tourney-hub: device_prefix: \"$q\" is not 1..31 characters of \\[a-z0-9-\\]$" "--device_prefix=$p"
done
"$HUB" --device_prefix=pi-table- --dump-config >"$E2E_TMP/out" 2>"$E2E_TMP/err" ||
    fail "device_prefix pi-table- refused: $(cat "$E2E_TMP/err")"
ok "device_prefix pi-table- accepted"
e2e_done
