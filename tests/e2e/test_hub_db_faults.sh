#!/usr/bin/env bash
# test_hub_db_faults.sh - the hub refuses a database it cannot serve from,
# and never says "online" on one (issue 13).
#
# Against a real mosquitto, with a monitor on hub/state:
# - a database path that does not exist: exit 1, the message names the
#   path, says why and points to --create; no file is made;
# - an empty file (0 bytes): the same, the file stays empty;
# - --create makes the database, a second --create leaves it alone, and
#   the hub then serves from it (an event created through the console);
# - a corrupt database (a b-tree page overwritten): exit 1, the message
#   names the path and the failed quick_check;
# - a read-only database (a read-only bind mount when root, else a file
#   and directory without write permission): exit 1 naming the path and
#   "read-only";
# - a file that is another program's SQLite database: exit 1;
# and hub/state never said "online" for any refused start: the retained
# state stays the "offline" of the last clean stop.
#
# usage: bash test_hub_db_faults.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"

start_broker --no-ws --tables 1 --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
STATE=tourney/v1/hub/state
e2e_sub_start state watch "$STATE"
count_online() {
    e2e_messages state | grep -c -x -F -e "0 $STATE online" -e "1 $STATE online"
}

# refused DB_PATH WHAT PATTERN [WRAPPER...]: the hub on DB_PATH must exit
# 1 within 15 s with a log line naming DB_PATH that matches PATTERN.
refused() {
    local db=$1 what=$2 pat=$3 st
    shift 3
    sed -i "s|^database = .*|database = \"$db\"|" "$E2E_TMP/hub.conf"
    "$@" timeout 15 "$HUB" --config "$E2E_TMP/hub.conf" >"$E2E_TMP/refused.out" 2>&1 </dev/null
    st=$?
    [ $st -eq 1 ] || fail "$what: hub exit status $st, expected 1: $(cat "$E2E_TMP/refused.out")"
    grep -q -F "error: database $db: " "$E2E_TMP/refused.out" ||
        fail "$what: no error line naming $db: $(cat "$E2E_TMP/refused.out")"
    grep -q -E "$pat" "$E2E_TMP/refused.out" ||
        fail "$what: the reason does not match /$pat/: $(cat "$E2E_TMP/refused.out")"
    grep -q -F 'not going online' "$E2E_TMP/refused.out" ||
        fail "$what: the message does not say the hub stays offline: $(cat "$E2E_TMP/refused.out")"
    ok "$what: refused, exit 1: $(grep -F "error: database" "$E2E_TMP/refused.out" | head -n 1)"
}

live_hub_config 'feed = false'
GOOD=$E2E_TMP/hub.db
grep -q "^tourney-hub: created database $GOOD " "$E2E_TMP/create.out" ||
    fail "--create did not create $GOOD: $(cat "$E2E_TMP/create.out")"

# 1. A wrong path is not a new database.
refused "$E2E_TMP/no/such/dir/hub.db" "missing directory" 'No such file or directory.*--create'
refused "$E2E_TMP/typo.db" "missing file" 'No such file or directory.*--create'
[ ! -e "$E2E_TMP/typo.db" ] || fail "the refused start created $E2E_TMP/typo.db"
: >"$E2E_TMP/empty.db"
refused "$E2E_TMP/empty.db" "empty file" 'not a Tourney hub database \(empty.*--create'
[ ! -s "$E2E_TMP/empty.db" ] || fail "the refused start wrote into the empty file"
sqlite3 "$E2E_TMP/other.db" 'CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ("x");' ||
    fail "sqlite3 could not make another program's database"
refused "$E2E_TMP/other.db" "another program's database" 'not a Tourney hub database \(other tables'
"$HUB" --config "$E2E_TMP/hub.conf" --create >"$E2E_TMP/c.out" 2>&1 &&
    fail "--create turned another program's database into a hub database: $(cat "$E2E_TMP/c.out")"
[ "$(sqlite3 "$E2E_TMP/other.db" 'SELECT count(*) FROM sqlite_schema')" = 1 ] ||
    fail "--create changed another program's database"
[ "$(count_online)" -eq 0 ] || fail "hub/state said online during a refused start"
ok "wrong or empty paths refused; hub/state never online"

# 2. --create, then the hub serves from that database.
sed -i "s|^database = .*|database = \"$GOOD\"|" "$E2E_TMP/hub.conf"
hub_create
grep -q "^tourney-hub: database $GOOD exists (schema version [0-9]*): nothing created" "$E2E_TMP/create.out" ||
    fail "a second --create did not leave the database alone: $(cat "$E2E_TMP/create.out")"
hub_launch
live 0 wait-hub --timeout 20
live 0 event create dbf --format catan --title "DB faults" --seed 7
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
e2e_expect state "$STATE" offline
[ ! -e "$GOOD-wal" ] || [ ! -s "$GOOD-wal" ] || fail "the WAL is not empty after a clean stop"
ok "created database served an event; clean stop left an empty WAL"
online=$(count_online)

# 3. Corrupt: overwrite the second half of the database's pages (not the
# header page, so the file still opens as SQLite).
cp "$GOOD" "$E2E_TMP/corrupt.db"
pages=$(($(stat -c %s "$GOOD") / 4096))
[ "$pages" -ge 4 ] || fail "the database has only $pages pages"
dd if=/dev/urandom of="$E2E_TMP/corrupt.db" bs=4096 seek=$((pages / 2)) \
    count=$((pages - pages / 2)) conv=notrunc status=none
refused "$E2E_TMP/corrupt.db" "corrupt database" 'quick check|malformed|not a database'

# 4. Read-only.
mkdir "$E2E_TMP/ro"
cp "$GOOD" "$E2E_TMP/ro/hub.db"
if [ "$(id -u)" -eq 0 ]; then
    # root writes through file modes: a read-only file system instead
    # (a private mount namespace with a read-only bind mount).
    RO_WRAP=(unshare -m sh -c 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"' "$E2E_TMP/ro")
    "${RO_WRAP[@]}" true 2>"$E2E_TMP/ro.err" ||
        fail "cannot make a read-only bind mount: $(cat "$E2E_TMP/ro.err")"
else
    chmod a-w "$E2E_TMP/ro/hub.db" "$E2E_TMP/ro"
    RO_WRAP=()
fi
refused "$E2E_TMP/ro/hub.db" "read-only database" 'read-only' "${RO_WRAP[@]}"
[ "$(count_online)" -eq "$online" ] || fail "hub/state said online during a refused start"
e2e_messages state | tail -n 1 | grep -q -x -F "1 $STATE offline" ||
    e2e_messages state | tail -n 1 | grep -q -x -F "0 $STATE offline" ||
    fail "the last hub/state is not offline: $(e2e_messages state | tr '\n' '|')"
chmod -R u+w "$E2E_TMP/ro"
ok "corrupt and read-only databases refused; hub/state stayed offline"

# 5. The good database still serves after all of this.
hub_launch
live 0 wait-hub --timeout 20
live 0 event list
grep -q dbf "$E2E_TMP/out" || fail "event dbf is gone: $(cat "$E2E_TMP/out")"
kill -TERM "$HUB_PID"
wait "$HUB_PID" || fail "hub exit status $? after SIGTERM"
ok "the good database serves again"
e2e_done
