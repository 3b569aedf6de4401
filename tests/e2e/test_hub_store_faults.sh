#!/usr/bin/env bash
# test_hub_store_faults.sh - a database that fills up or turns read-only
# while the hub runs (issue 12): the hub refuses clearly, acknowledges
# nothing it did not commit, and recovers when the fault goes.
#
# The test runs in a private mount namespace (unshare -m, root) with the
# hub's database on a small tmpfs of its own.  Real mosquitto, hub,
# headless tourney-tables table-001 and table-002 (their outboxes outside
# the tmpfs) on a two-table Neuroshima Hex! round, the organiser's
# dashboard (`tourney live console`, in tmux); a monitor reads hub/store.
#
# 1. Disk full: the tmpfs is filled while the hub runs.  table-001's
#    result is sent and not acknowledged (it stays queued on the table);
#    the hub logs ONE error line of its own naming the database file and
#    SQLite's reason (no per-message error lines from the loop), the
#    retained tourney/v1/hub/store says "failing: REASON", the dashboard's
#    header shows it, a console write (`result enter` for table 2) is
#    refused naming the reason and stores nothing, a console read
#    (`standings`) still answers, and the table's resends are not taken.
#    The space is freed: one "store writable again" line, hub/store says
#    "ok", the dashboard drops the alarm, the table's resent result is
#    acknowledged and stored exactly once.
# 2. Read-only: Linux refuses `mount -o remount,ro` while the hub holds
#    its database open for writing (EBUSY; tested below), as a real
#    file system turns read-only only by the kernel's own error handling.
#    So the hub runs with tests/e2e/fault_fs.c preloaded, which fails
#    every write and fsync to files in the database's directory with
#    EROFS while a control file says so (SQLite reports "disk I/O
#    error").  The same checks as 1 with table-002's result; then the
#    fault is lifted and the same recovery is checked: SQLite recovers on
#    the same connection (no reopen).
#
# Without root or unshare it prints "SKIP: ..." and exits 77.
#
# usage: bash test_hub_store_faults.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_mount_ns "$@"
E2E_TIMEOUT=${E2E_TIMEOUT:-240}
e2e_init "$@"
source "$E2E_SRC/tests/e2e/headless.sh"
need_binaries TOURNEY HUB TABLE
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"

DBDIR=$E2E_TMP/dbfs
mkdir -p "$DBDIR"
mount -t tmpfs -o size=4m tmpfs "$DBDIR" || fail "cannot mount a tmpfs on $DBDIR"
# The dashboard's tmux server and the tmpfs go before lib.sh's cleanup
# removes $E2E_TMP (the test's status kept).
SOCK=$E2E_TMP/tmux.sock
trap 'st=$?; tmux -S "$SOCK" kill-server 2>/dev/null; umount -l "$DBDIR" 2>/dev/null; (exit $st); e2e_cleanup' EXIT

start_broker --no-ws --tables 2 --organisers o1
source "$E2E_SRC/tests/e2e/live_hub.sh"
live_hub_config 'feed = false' 'log_level = debug'
sed -i "s|^database = .*|database = \"$DBDIR/hub.db\"|" "$E2E_TMP/hub.conf"
# The hub with the write-fault shim (inactive while $E2E_TMP/fault is
# empty).
need_binaries FAULT_FS
: >"$E2E_TMP/fault"
hub_wrap shim LD_PRELOAD="$FAULT_FS" TNY_FAULT_DIR="$DBDIR" TNY_FAULT_CONTROL="$E2E_TMP/fault"
hub_create
# Organiser o1 on the console listener: the dashboard and the commands
# run as o1 at the same time.
sed -i "s|^broker = .*|broker = \"tcp://$BROKER_HOST:$BROKER_CONSOLE_PORT\"|" \
    "$XDG_CONFIG_HOME/tourney/console.conf"
hub_launch
live 0 wait-hub --timeout 20
EV=sf
STORE_TOPIC=tourney/v1/hub/store
e2e_sub_start store watch2 "$STORE_TOPIC"

for d in table-001 table-002; do
    hl_conf $d
    hl_start $d "$TABLE"
    hl_expect $d "net online queued=0"
done
hl_nh_round "$EV" 5 table-001 table-002
live 0 clock start "$EV"
hl_assigned table-002 "$EV" 2
SEATS2=$HL_SEATS
hl_assigned table-001 "$EV" 1
SEATS1=$HL_SEATS
hl_expect table-001 "state playing"
hl_expect table-002 "state playing"
ok "round 1 running; database on a 4 MiB tmpfs"
# The organiser's dashboard (its header shows the hub's state).
command -v tmux >/dev/null || fail "no tmux (deploy/install-deps.sh)"
cat >"$E2E_TMP/pane.sh" <<EOF
export XDG_CONFIG_HOME='$XDG_CONFIG_HOME' HOME='$HOME' LC_ALL=C
unset TOURNEY_PASSWORD
'$TOURNEY' live console $EV 2>'$E2E_TMP/console.err'
exec sleep 600
EOF
tmux -S "$SOCK" -f /dev/null new-session -d -s tui -x 200 -y 40 "bash '$E2E_TMP/pane.sh'" ||
    fail "tmux new-session"
screen() { tmux -S "$SOCK" capture-pane -p -t tui 2>/dev/null; }
grep_screen() { screen | grep -q -E -- "$1"; }
wait_until 20 grep_screen 'broker: connected +hub: online' ||
    fail "dashboard: no hub state in the header: $(screen | head -n 3)"
grep_screen 'DATABASE FAILING' && fail "dashboard: says the database fails before any fault: $(screen | head -n 1)"
ok "dashboard up: $(screen | head -n 1 | tr -s ' ')"

DB=$DBDIR/hub.db
# submit DEVICE SEATS: the device's players enter and confirm a result
# (the first seat wins); sets $key.
submit() {
    local w=${2%%,*} l=${2#*,}
    hl_say "$1" "result winner=$w hq_diff=6" "confirm $w" "confirm $l"
    hl_expect_new "$1" "state submitted"
    key=$(hl_last "$1" 's/^result pending key=//p')
    [ -n "$key" ] || fail "no \"result pending\" line; $(hl_tail "$1")"
}
# fault_period WHAT DEVICE REASON: the checks while the database takes no
# writes (DEVICE's result $key sent), REASON being what SQLite says.
fault_period() {
    local what=$1 d=$2 reason=$3 before
    wait_until 20 grep -q -F "error: database $DB: writes failing: $reason" "$E2E_TMP/hub.log" ||
        fail "$what: no error line naming $DB and \"$reason\": $(grep -v '^\(info\|debug\)' "$E2E_TMP/hub.log" | tail -n 5)"
    wait_until 10 eval 'e2e_messages store | grep -q -F -e "0 $STORE_TOPIC failing: $reason" -e "1 $STORE_TOPIC failing: $reason"' ||
        fail "$what: hub/store does not say \"failing: $reason\": $(e2e_messages store | tr '\n' '|')"
    wait_until 10 grep_screen "hub: online +DATABASE FAILING: $reason" ||
        fail "$what: the dashboard does not show the failing database: $(screen | head -n 1)"
    ok "$what: dashboard: $(screen | head -n 1 | sed 's/.*hub:/hub:/' | tr -s ' ')"
    live 3 result enter "$EV" 1 2 "{\"winner\": \"${SEATS2%%,*}\", \"hq_diff\": 2}"
    grep -q -F "$reason" "$E2E_TMP/err" || fail "$what: the console refusal does not name \"$reason\": $(cat "$E2E_TMP/err")"
    ok "$what: console write refused: $(cat "$E2E_TMP/err")"
    live 0 standings "$EV"
    grep -q "Player" "$E2E_TMP/out" || fail "$what: standings without players: $(cat "$E2E_TMP/out")"
    # The device resends meanwhile (its back-off starts at 1-5 s).
    before=$(grep -c "debug: results not taken" "$E2E_TMP/hub.log")
    wait_until 20 eval '[ "$(grep -c "debug: results not taken" "$E2E_TMP/hub.log")" -gt "$before" ]' ||
        fail "$what: $d did not resend during the fault: $(tail -n 5 "$E2E_TMP/hub.log")"
    ! hl_has "$d" "ack accepted key=$key" || fail "$what: $key acknowledged while the database took no writes"
    hl_has "$d" "net online queued=1" || fail "$what: $key is not queued on $d; $(hl_tail "$d")"
    ok "$what: $key not acknowledged, still queued on $d; console reads answered"
}
# recovered WHAT DEVICE N: the fault is gone (the Nth recovery): one more
# "store writable again", hub/store "ok", $key acknowledged and stored
# once, no organiser result (the refused ones), each fault reported by one
# error line.
recovered() {
    local what=$1 d=$2 n=$3 c
    wait_until 20 eval '[ "$(grep -c -F "info: database $DB: store writable again" "$E2E_TMP/hub.log")" -eq "$n" ]' ||
        fail "$what: no \"store writable again\" line: $(tail -n 5 "$E2E_TMP/hub.log")"
    wait_until 10 eval '[ "$(e2e_messages store | tail -n 1)" = "0 $STORE_TOPIC ok" ]' ||
        fail "$what: hub/store did not return to ok: $(e2e_messages store | tr '\n' '|')"
    wait_until 10 sh -c "! tmux -S '$SOCK' capture-pane -p -t tui | grep -q 'DATABASE FAILING'" ||
        fail "$what: the dashboard still shows the database failing: $(screen | head -n 1)"
    hl_expect "$d" "ack accepted key=$key" 20
    hl_expect "$d" "net online queued=0"
    c=$(sqlite3 "$DB" "SELECT count(*) FROM submissions WHERE device_id = '$d' AND idem_key = '$key'")
    [ "$c" = 1 ] || fail "$what: $key has $c submission rows"
    c=$(grep -c "result accepted device=$d key=$key " "$E2E_TMP/hub.log")
    [ "$c" -eq 1 ] || fail "$what: the hub accepted $key $c times"
    c=$(sqlite3 "$DB" "SELECT count(*) FROM results WHERE source = 'organiser'")
    [ "$c" = 0 ] || fail "$what: a refused console result is stored ($c rows)"
    # Results wait while the alarm is up, so the probe write cleared it.
    c=$(sqlite3 "$DB" "SELECT count(*) FROM log WHERE kind = 'store.writable'")
    [ "$c" = "$n" ] || fail "$what: $c store.writable probe rows after $n recoveries"
    c=$(grep -c -F "writes failing" "$E2E_TMP/hub.log")
    [ "$c" -eq "$n" ] || fail "$what: $c \"writes failing\" lines after $n faults"
    c=$(grep -c -E '^error: (results not all handled|message not handled)' "$E2E_TMP/hub.log")
    [ "$c" -eq 0 ] || fail "$what: $c more error lines for the same fault: $(grep -E '^error: (results|message) not' "$E2E_TMP/hub.log" | head -n 3)"
    ok "$what: store writable again; $key acknowledged and stored once; hub/store ok"
}

# --- 1. disk full -------------------------------------------------------------
dd if=/dev/zero of="$DBDIR/fill" bs=4k status=none 2>/dev/null
[ "$(df --output=avail "$DBDIR" | tail -n 1 | tr -d ' ')" = 0 ] || fail "the tmpfs is not full: $(df -k "$DBDIR")"
submit table-001 "$SEATS1"
fault_period "disk full" table-001 "database or disk is full"
rm -f "$DBDIR/fill"
recovered "disk full freed" table-001 1

# --- 2. read-only -------------------------------------------------------------
if mount -o remount,ro "$DBDIR" 2>"$E2E_TMP/ro.err"; then
    mount -o remount,rw "$DBDIR"
    fail "remount,ro succeeded while the hub has its database open for writing: the shim is not needed any more"
fi
grep -q busy "$E2E_TMP/ro.err" || fail "remount,ro failed for another reason: $(cat "$E2E_TMP/ro.err")"
ok "remount,ro refused while the hub holds the database: $(head -n 1 "$E2E_TMP/ro.err")"
echo EROFS >"$E2E_TMP/fault"
submit table-002 "$SEATS2"
fault_period "read-only" table-002 "disk I/O error"
: >"$E2E_TMP/fault"
recovered "writable again" table-002 2
e2e_done
