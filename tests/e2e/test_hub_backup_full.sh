#!/usr/bin/env bash
# test_hub_backup_full.sh - `tourney-hub --backup` onto a full disk
# (issue 23): exit status 1 with one clear line naming the backup file and
# the reason, no crash (the old code finished the SQLite backup twice: a
# double free, SIGSEGV; an ASan build reports it), and no partial backup
# file or journal left behind.  The database itself is unchanged.
#
# The backup goes to a 64 KiB tmpfs of its own in a private mount
# namespace (unshare -m, root), as in test_hub_store_faults.sh; the
# database (about 1 MiB) is in the test's temp dir.  No broker is needed.
# Without root or unshare it prints "SKIP: ..." and exits 77.
#
# usage: bash test_hub_backup_full.sh SOURCE_DIR BUILD_DIR
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
e2e_mount_ns "$@"
e2e_init "$@"
need_binaries HUB
command -v sqlite3 >/dev/null || fail "sqlite3 not found (deploy/install-deps.sh)"

FULL=$E2E_TMP/full
mkdir -p "$FULL"
mount -t tmpfs -o size=64k tmpfs "$FULL" || fail "cannot mount a tmpfs on $FULL"
trap 'st=$?; umount -l "$FULL" 2>/dev/null; (exit $st); e2e_cleanup' EXIT

DB=$E2E_TMP/hub.db
printf 'database = "%s"\ndatabase_sync = false\n' "$DB" >"$E2E_TMP/hub.conf"
"$HUB" --config "$E2E_TMP/hub.conf" --create >"$E2E_TMP/create.out" 2>&1 ||
    fail "--create: $(cat "$E2E_TMP/create.out")"
# About 1 MiB of rows, so the copy cannot fit in 64 KiB.
sqlite3 "$DB" "CREATE TABLE ballast (b BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 256)
INSERT INTO ballast SELECT randomblob(4000) FROM n;" || fail "sqlite3: ballast"
before=$(sqlite3 "$DB" "SELECT count(*), sum(length(b)) FROM ballast")

BK=$FULL/backup.db
st=0
"$HUB" --config "$E2E_TMP/hub.conf" --backup "$BK" >"$E2E_TMP/bk.out" 2>"$E2E_TMP/bk.err" || st=$?
[ "$st" -eq 1 ] ||
    fail "--backup onto a full disk: exit status $st (want 1): $(cat "$E2E_TMP/bk.err")"
grep -q "AddressSanitizer\|double free\|free()" "$E2E_TMP/bk.err" &&
    fail "--backup onto a full disk: memory error: $(head -n 5 "$E2E_TMP/bk.err")"
[ "$(wc -l <"$E2E_TMP/bk.err")" -eq 1 ] ||
    fail "--backup: want one error line, got: $(cat "$E2E_TMP/bk.err")"
grep -q "^tourney-hub: backup: $BK: database or disk is full$" "$E2E_TMP/bk.err" ||
    fail "--backup: the error does not name $BK and the full disk: $(cat "$E2E_TMP/bk.err")"
[ ! -s "$E2E_TMP/bk.out" ] || fail "--backup said it succeeded: $(cat "$E2E_TMP/bk.out")"
ok "refused: $(cat "$E2E_TMP/bk.err")"
left=$(ls -A "$FULL")
[ -z "$left" ] || fail "--backup left files on the full disk: $left"
ok "no partial backup or journal left on the full disk"
[ "$(sqlite3 "$DB" "SELECT count(*), sum(length(b)) FROM ballast")" = "$before" ] ||
    fail "the database changed"
[ "$(sqlite3 "$DB" "PRAGMA integrity_check")" = ok ] || fail "the database fails integrity_check"

# The space there again: the same command now succeeds.
umount "$FULL" || fail "umount"
mount -t tmpfs -o size=8m tmpfs "$FULL" || fail "cannot mount an 8 MiB tmpfs"
"$HUB" --config "$E2E_TMP/hub.conf" --backup "$BK" >"$E2E_TMP/bk.out" 2>&1 ||
    fail "--backup with room: $(cat "$E2E_TMP/bk.out")"
[ "$(sqlite3 "$BK" "PRAGMA integrity_check")" = ok ] || fail "the backup fails integrity_check"
[ "$(sqlite3 "$BK" "SELECT count(*), sum(length(b)) FROM ballast")" = "$before" ] ||
    fail "the backup differs from the database"
ok "with room: $(cat "$E2E_TMP/bk.out")"
e2e_done
