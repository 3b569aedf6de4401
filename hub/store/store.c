/* store.c - opening the hub's SQLite file, the schema and its forward
 * migrations, the background checkpoint, probe, backup, the integrity
 * check and the counters.
 *
 * Durability decision: WAL with synchronous=FULL.  The hub acknowledges a
 * result as soon as the call returns, and the table then forgets it; with
 * synchronous=NORMAL a power loss (likely on a venue's Pi or laptop) could
 * roll back the last commits after their acks went out, losing results
 * nobody will resubmit.  FULL costs one fsync of the WAL per commit (about
 * a millisecond on an SSD, a few on an SD card): a few hundred results per
 * second, far above what a venue produces.  An application crash loses
 * nothing in either mode.
 *
 * Not here: statements, transactions and row lookups (store_sql.c), reading
 * the log (store_log.c), the event model (store_event.c), results
 * (store_result.c), the engine projection (store_load.c).  Nothing in those
 * files calls into this one.  Invariants: the log table only grows
 * (triggers refuse UPDATE and DELETE); user_version equals the number of
 * migration steps applied, each step applied in its own transaction.
 */
#include "store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* ---- schema ------------------------------------------------------------ */

/* Migration steps: steps[i] takes user_version i to i + 1, as a list of
 * statements run in one transaction.  Never edit a shipped step; append a
 * new one (and raise HUB_STORE_SCHEMA_VERSION). */
/* 0 -> 1: the first schema. */
static const char *const step_1[] = {
    "CREATE TABLE events (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE,         -- the public event id\n"
    "  title TEXT NOT NULL,\n"
    "  format_name TEXT NOT NULL,\n"
    "  header_json TEXT NOT NULL,  -- event file minus players/drops/rounds,\n"
    "                              -- format as a full object\n"
    "  options_json TEXT NOT NULL, -- the options asked for (record only)\n"
    "  seed INTEGER NOT NULL,      -- uint64 stored as int64 bits\n"
    "  status TEXT NOT NULL CHECK (status IN ('setup','running','finished')),\n"
    "  created_ms INTEGER NOT NULL\n"
    ");\n",
    "CREATE TABLE players (\n"
    "  id INTEGER PRIMARY KEY,     -- order of entry = engine index order\n"
    "  event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  pid TEXT NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  club TEXT, country TEXT, external_id TEXT,\n"
    "  rating REAL,\n"
    "  armies_json TEXT,           -- JSON array of army names\n"
    "  beginner INTEGER NOT NULL DEFAULT 0,\n"
    "  colours_json TEXT,          -- JSON array of colour names\n"
    "  colour_blind INTEGER NOT NULL DEFAULT 0,\n"
    "  faction TEXT, agenda TEXT,\n"
    "  late_from_round INTEGER NOT NULL DEFAULT 0,  -- 0 = from the start\n"
    "  fixed_table INTEGER NOT NULL DEFAULT 0,\n"
    "  dropped_after INTEGER NOT NULL DEFAULT 0,\n"
    "  rejoin_round INTEGER NOT NULL DEFAULT 0,\n"
    "  dq_after INTEGER NOT NULL DEFAULT 0,\n"
    "  UNIQUE (event_id, pid)\n"
    ");\n",
    "CREATE TABLE rounds (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  number INTEGER NOT NULL CHECK (number >= 1),\n"
    "  stage TEXT NOT NULL,\n"
    "  stage_index INTEGER NOT NULL,\n"
    "  status TEXT NOT NULL\n"
    "    CHECK (status IN ('draft','published','started','closed')),\n"
    "  explain TEXT,\n"
    "  UNIQUE (event_id, number)\n"
    ");\n",
    "CREATE TABLE tables (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,\n"
    "  position INTEGER NOT NULL,  -- engine order: by number, byes last\n"
    "  number INTEGER NOT NULL,    -- CM-9; 0 for a bye\n"
    "  is_bye INTEGER NOT NULL,\n"
    "  first_seat INTEGER NOT NULL DEFAULT -1,  -- AG-4 starting seat\n"
    "  extension_ms INTEGER NOT NULL DEFAULT 0, -- CM-7 table extension\n"
    "  UNIQUE (round_id, position)\n"
    ");\n",
    "CREATE UNIQUE INDEX tables_number ON tables(round_id, number)\n"
    "  WHERE is_bye = 0;\n",
    "CREATE TABLE seats (\n"
    "  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,\n"
    "  seat INTEGER NOT NULL,\n"
    "  round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,\n"
    "  player_id INTEGER NOT NULL REFERENCES players(id),\n"
    "  PRIMARY KEY (table_id, seat),\n"
    "  UNIQUE (round_id, player_id)   -- one seat per player and round\n"
    ") WITHOUT ROWID;\n",
    "CREATE TABLE results (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  table_id INTEGER NOT NULL REFERENCES tables(id),\n"
    "  result_json TEXT NOT NULL,  -- the event file's result object\n"
    "  source TEXT NOT NULL CHECK (source IN ('device','organiser')),\n"
    "  actor TEXT NOT NULL,\n"
    "  confirmed INTEGER NOT NULL,\n"
    "  status TEXT NOT NULL CHECK (status IN ('valid','pending','conflict')),\n"
    "  superseded_by INTEGER REFERENCES results(id)\n"
    "    DEFERRABLE INITIALLY DEFERRED,  -- set before the new row exists\n"
    "  resolved INTEGER NOT NULL DEFAULT 0,\n"
    "  created_ms INTEGER NOT NULL\n"
    ");\n",
    "CREATE INDEX results_table ON results(table_id);\n",
    "CREATE UNIQUE INDEX results_counted ON results(table_id)\n"
    "  WHERE status = 'valid' AND superseded_by IS NULL;\n",
    "CREATE TRIGGER results_keep BEFORE UPDATE OF id, table_id, result_json,\n"
    "  source, actor, confirmed, status, created_ms ON results\n"
    "  BEGIN SELECT RAISE(ABORT, 'results rows are never rewritten'); END;\n",
    "CREATE TRIGGER results_no_delete BEFORE DELETE ON results\n"
    "  BEGIN SELECT RAISE(ABORT, 'results rows are never deleted'); END;\n",
    "CREATE TABLE submissions (\n"
    "  device_id TEXT NOT NULL,\n"
    "  idem_key TEXT NOT NULL,\n"
    "  event_name TEXT NOT NULL,\n"
    "  round INTEGER NOT NULL,\n"
    "  table_number INTEGER NOT NULL,\n"
    "  request TEXT NOT NULL,      -- the result text as received\n"
    "  confirmed INTEGER NOT NULL,\n"
    "  outcome TEXT NOT NULL\n"
    "    CHECK (outcome IN ('accepted','conflict','rejected')),\n"
    "  result_id INTEGER REFERENCES results(id),\n"
    "  reason TEXT NOT NULL,\n"
    "  answer TEXT NOT NULL,       -- sent back byte for byte\n"
    "  created_ms INTEGER NOT NULL,\n"
    "  PRIMARY KEY (device_id, idem_key)\n"
    ") WITHOUT ROWID;\n",
    "CREATE TABLE devices (\n"
    "  id TEXT PRIMARY KEY,\n"
    "  event_id INTEGER REFERENCES events(id),\n"
    "  table_number INTEGER NOT NULL DEFAULT 0,\n"
    "  presence TEXT NOT NULL DEFAULT 'unknown'\n"
    "    CHECK (presence IN ('unknown','online','offline')),\n"
    "  last_seen_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  created_ms INTEGER NOT NULL\n"
    ");\n",
    "CREATE UNIQUE INDEX devices_table ON devices(event_id, table_number)\n"
    "  WHERE event_id IS NOT NULL;\n",
    "CREATE TABLE clocks (\n"
    "  round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,\n"
    "  state TEXT NOT NULL CHECK (state IN ('ready','running','paused')),\n"
    "  length_ms INTEGER NOT NULL,\n"
    "  extension_ms INTEGER NOT NULL,\n"
    "  deadline_ms INTEGER NOT NULL,\n"
    "  remaining_ms INTEGER NOT NULL,\n"
    "  updated_ms INTEGER NOT NULL\n"
    ");\n",
    "CREATE TABLE penalties (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  table_id INTEGER NOT NULL REFERENCES tables(id),\n"
    "  player_id INTEGER NOT NULL REFERENCES players(id),\n"
    "  units INTEGER NOT NULL CHECK (units > 0),  -- TNY_POINT_SCALE units\n"
    "  reason TEXT NOT NULL,\n"
    "  actor TEXT NOT NULL,\n"
    "  created_ms INTEGER NOT NULL\n"
    ");\n",
    "CREATE INDEX penalties_table ON penalties(table_id);\n",
    "CREATE TABLE log (\n"
    "  seq INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  time_ms INTEGER NOT NULL,\n"
    "  actor TEXT NOT NULL,\n"
    "  event_name TEXT,            -- NULL: not about one event\n"
    "  kind TEXT NOT NULL,\n"
    "  detail TEXT NOT NULL        -- JSON object\n"
    ");\n",
    "CREATE INDEX log_event ON log(event_name, seq);\n",
    "CREATE TRIGGER log_no_update BEFORE UPDATE ON log\n"
    "  BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;\n",
    "CREATE TRIGGER log_no_delete BEFORE DELETE ON log\n"
    "  BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END;\n",
    NULL,
};

/* 1 -> 2: counters (the hub's versions survive restarts). */
static const char *const step_2[] = {
    "CREATE TABLE counters (\n"
    "  name TEXT PRIMARY KEY,\n"
    "  value INTEGER NOT NULL\n"
    ");\n",
    NULL,
};

/* 2 -> 3: GT-14 deck lists (judges only, never on the feed), NH-11
 * knockout declarations. */
static const char *const step_3[] = {
    "ALTER TABLE players ADD COLUMN decklist TEXT;\n",
    "ALTER TABLE players ADD COLUMN knockout_armies_json TEXT;\n",
    "ALTER TABLE players ADD COLUMN hook INTEGER NOT NULL DEFAULT 0;\n",
    NULL,
};

/* 3 -> 4: a submission's answer is recorded as fields (the reason's code
 * and whether it counted), not as JSON text to be parsed back; rows of
 * older hubs are converted once, here. */
static const char *const step_4[] = {
    "ALTER TABLE submissions ADD COLUMN reason_code TEXT NOT NULL "
    "DEFAULT 'none';\n",
    "ALTER TABLE submissions ADD COLUMN counted INTEGER NOT NULL "
    "DEFAULT 0;\n",
    "UPDATE submissions SET counted = "
    "coalesce(json_extract(answer, '$.counted'), 0) = 1, reason_code = CASE\n"
    "  WHEN outcome = 'conflict' THEN 'already_confirmed'\n"
    "  WHEN outcome = 'accepted' AND NOT coalesce(json_extract(answer, "
    "'$.counted'), 0) THEN 'unconfirmed'\n"
    "  WHEN outcome = 'accepted' THEN 'none'\n"
    "  WHEN reason LIKE '%not registered%' THEN 'wrong_table'\n"
    "  WHEN reason LIKE '%not published%' OR reason LIKE '%closed%' THEN "
    "'wrong_round'\n"
    "  WHEN reason LIKE 'event \"%' AND reason LIKE '%not found%' THEN "
    "'unknown_event'\n"
    "  WHEN reason LIKE '%table%' AND reason LIKE '%not found%' THEN "
    "'wrong_table'\n"
    "  ELSE 'invalid_result' END;\n",
    "ALTER TABLE submissions DROP COLUMN answer;\n",
    NULL,
};

/* 4 -> 5: issue 19, the side each seat plays in a format with sides (an
 * index into the format's sides; -1 none: every seat of older hubs). */
static const char *const step_5[] = {
    "ALTER TABLE seats ADD COLUMN side INTEGER NOT NULL DEFAULT -1;\n",
    NULL,
};

/* 5 -> 6: issue 20, sign-in codes for the table pages: each names the
 * device login (web-N) it signs in as, for one table of one event;
 * revoked_ms 0 while it is valid.  The broker's dynamic security plugin
 * holds the logins; this is what the hub provisions it from. */
static const char *const step_6[] = {
    "CREATE TABLE codes (\n"
    "  code TEXT PRIMARY KEY,\n"
    "  device_id TEXT NOT NULL UNIQUE,\n"
    "  event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  table_number INTEGER NOT NULL CHECK (table_number >= 1),\n"
    "  issued_ms INTEGER NOT NULL,\n"
    "  issued_by TEXT NOT NULL,\n"
    "  revoked_ms INTEGER NOT NULL DEFAULT 0\n"
    ");\n",
    NULL,
};

/* 6 -> 7: issue 18, AG-14 draft starts in a table of their own (the hub
 * read them back by scanning the log's JSON): one row per table of a
 * round whose draft started, by table number; the log's rows of older
 * hubs are copied once, here (the last one of a table counts, as the
 * replay did). */
static const char *const step_7[] = {
    "CREATE TABLE draft_starts (\n"
    "  round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,\n"
    "  table_number INTEGER NOT NULL CHECK (table_number >= 1),\n"
    "  start_delay_ms INTEGER NOT NULL CHECK (start_delay_ms >= 0),\n"
    "  PRIMARY KEY (round_id, table_number)\n"
    ") WITHOUT ROWID;\n",
    "INSERT OR REPLACE INTO draft_starts (round_id, table_number, "
    "start_delay_ms)\n"
    "  SELECT r.id, json_extract(l.detail, '$.table'),\n"
    "         json_extract(l.detail, '$.start_delay_ms')\n"
    "  FROM log l JOIN events e ON e.name = l.event_name\n"
    "  JOIN rounds r ON r.event_id = e.id\n"
    "    AND r.number = json_extract(l.detail, '$.round')\n"
    "  WHERE l.kind = 'clock.draft_start'\n"
    "    AND json_extract(l.detail, '$.table') >= 1\n"
    "    AND json_extract(l.detail, '$.start_delay_ms') >= 0\n"
    "  ORDER BY l.seq;\n",
    NULL,
};

/* 7 -> 8: issue 20, per-player sign-in codes and the players' requests
 * from their phones.  A player code (player_id set) names its own login
 * (ply-N) and no table (table_number 0): it follows its player from table
 * to table.  player_requests: a check-in (done when stored) or a "drop
 * me" (waits for the organiser: confirmed_ms 0), one of each kind per
 * player, with the idempotency key of the request that made it. */
static const char *const step_8[] = {
    "CREATE TABLE codes_new (\n"
    "  code TEXT PRIMARY KEY,\n"
    "  device_id TEXT NOT NULL UNIQUE,\n"
    "  event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  table_number INTEGER NOT NULL CHECK (table_number >= 0),\n"
    "  issued_ms INTEGER NOT NULL,\n"
    "  issued_by TEXT NOT NULL,\n"
    "  revoked_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  player_id TEXT,\n"
    "  CHECK ((player_id IS NULL) = (table_number >= 1))\n"
    ");\n",
    "INSERT INTO codes_new (rowid, code, device_id, event_id, table_number, "
    "issued_ms, issued_by, revoked_ms)\n"
    "  SELECT rowid, code, device_id, event_id, table_number, issued_ms, "
    "issued_by, revoked_ms FROM codes ORDER BY rowid;\n",
    "DROP TABLE codes;\n",
    "ALTER TABLE codes_new RENAME TO codes;\n",
    "CREATE TABLE IF NOT EXISTS player_requests (\n"
    "  event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  player_id TEXT NOT NULL,\n"
    "  kind TEXT NOT NULL CHECK (kind IN ('checkin', 'drop')),\n"
    "  idem_key TEXT NOT NULL,\n"
    "  after_round INTEGER NOT NULL CHECK (after_round >= 0),\n"
    "  received_ms INTEGER NOT NULL,\n"
    "  confirmed_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  PRIMARY KEY (event_id, player_id, kind)\n"
    ");\n",
    NULL,
};

static const char *const *const migration_steps[] = {
    step_1, step_2, step_3, step_4, step_5, step_6, step_7, step_8};

_Static_assert(sizeof(migration_steps) / sizeof(migration_steps[0]) ==
                   HUB_STORE_SCHEMA_VERSION,
               "one migration step per schema version");

/* ---- background checkpoint ----------------------------------------------- */

/* WAL pages after which a checkpoint is due: 256 pages (1 MiB at the
 * 4 KiB page size), a quarter of SQLite's default, so the committed results
 * that exist only in the WAL stay few (docs/architecture.md "Durability"). */
#define HS_CHECKPOINT_PAGES 256

/* A thread with its own connection that checkpoints the WAL when the
 * store's connection says it grew past HS_CHECKPOINT_PAGES (its WAL hook,
 * which replaces the automatic checkpoint inside commits) or when the hub
 * asks (hub_store_checkpoint_soon, on its timer).  A passive checkpoint
 * never blocks the writer: it copies what is committed while new commits
 * go on appending to the WAL. */
struct hs_checkpointer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool due, stop;
    int64_t commits; /* commits since the last checkpoint began */
    sqlite3 *db;
};

static void *checkpoint_main(void *arg)
{
    struct hs_checkpointer *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->mu);
        while (!c->due && !c->stop)
            pthread_cond_wait(&c->cv, &c->mu);
        bool stop = c->stop;
        c->due = false;
        c->commits = 0;
        pthread_mutex_unlock(&c->mu);
        if (stop)
            return NULL;
        /* Failures (busy, I/O) leave the WAL longer: the next commit past
         * the threshold or the next timer asks again, and close
         * checkpoints anyway. */
        (void)sqlite3_wal_checkpoint_v2(c->db, "main",
                                        SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
}

static int wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    struct hs_checkpointer *c = arg;
    (void)db;
    (void)name;
    pthread_mutex_lock(&c->mu);
    c->commits++;
    if (pages >= HS_CHECKPOINT_PAGES) {
        c->due = true;
        pthread_cond_signal(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    return SQLITE_OK;
}

bool hub_store_checkpoint_soon(struct hub_store *store)
{
    struct hs_checkpointer *c = store->ckpt;
    bool asked = false;
    if (!c)
        return false;
    pthread_mutex_lock(&c->mu);
    if (c->commits > 0) {
        c->due = asked = true;
        pthread_cond_signal(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    return asked;
}

static void checkpointer_stop(struct hub_store *s)
{
    struct hs_checkpointer *c = s->ckpt;
    if (!c)
        return;
    sqlite3_wal_hook(s->db, NULL, NULL);
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    sqlite3_close_v2(c->db);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c);
    s->ckpt = NULL;
}

/* Starts the checkpointer; on any failure the store keeps SQLite's
 * automatic checkpoints (slower commits now and then, nothing lost). */
static void checkpointer_start(struct hub_store *s, const char *path, bool sync)
{
    struct hs_checkpointer *c = calloc(1, sizeof(*c));
    if (!c)
        return;
    if (sqlite3_open_v2(path, &c->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK ||
        sqlite3_exec(c->db,
                     sync ? "PRAGMA synchronous = FULL"
                          : "PRAGMA synchronous = OFF",
                     NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close_v2(c->db);
        free(c);
        return;
    }
    sqlite3_busy_timeout(c->db, 5000);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    if (pthread_create(&c->thread, NULL, checkpoint_main, c) != 0) {
        sqlite3_close_v2(c->db);
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
        free(c);
        return;
    }
    s->ckpt = c;
    sqlite3_wal_hook(s->db, wal_hook, c);
}

/* ---- the WAL written ahead ---------------------------------------------- */

/* Bytes of the WAL file written (zeros) ahead of the commits when the hub
 * opens its store: 4 MiB, about 1,000 frames, four times what piles up
 * between two background checkpoints (HS_CHECKPOINT_PAGES).  A commit
 * that appends past the file's end makes its fdatasync write the file's
 * new size through the file system's journal too, where it queues behind
 * every other program's metadata: on the shared VM of issue 17 such
 * syncs took p50 5.7 ms, p99 60 ms against 0.5 / 17 ms for commits
 * written over existing blocks.  A fresh WAL (every start, every guarded
 * checkpoint before) grew on nearly every commit of its first MiB: a
 * round of 200 tables never left that phase.  Zeros past the last frame
 * are what SQLite leaves there anyway after it restarts a WAL from its
 * start: recovery reads frames up to the first whose salt and checksum
 * do not match, so they are never taken for frames.  Only on a file
 * system with HS_WAL_AHEAD_ROOM times that free: on a nearly full one
 * the space is left to the database (a full disk is then the commit's
 * error at once, test_hub_store_faults.sh's 4 MiB file system). */
#define HS_WAL_AHEAD_BYTES (4 << 20)
#define HS_WAL_AHEAD_ROOM 16

/* Extends path's -wal file with zeros up to HS_WAL_AHEAD_BYTES and syncs
 * it, true when the WAL is that long now; never writes below its current end
 * (the frames of a WAL not yet recovered stay as they are).  SQLite keeps no
 * lock on the -wal file itself (its locks are on the database file and -shm),
 * so this descriptor's close releases none.  Best effort: on any failure the
 * WAL grows as it would have. */
static bool wal_write_ahead(const char *path)
{
    bool ahead = false;
    static const char zeros[64 * 1024];
    char wal[4096];
    struct stat stb;
    if (snprintf(wal, sizeof(wal), "%s-wal", path) >= (int)sizeof(wal))
        return false;
    int fd = open(wal, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct statvfs vfs;
    if (fstat(fd, &stb) == 0 && S_ISREG(stb.st_mode) &&
        fstatvfs(fd, &vfs) == 0 &&
        (double)vfs.f_bavail * (double)vfs.f_frsize >=
            (double)HS_WAL_AHEAD_ROOM * HS_WAL_AHEAD_BYTES) {
        off_t at = stb.st_size;
        ahead = at >= HS_WAL_AHEAD_BYTES; /* a WAL that grew that long */
        while (at < HS_WAL_AHEAD_BYTES) {
            size_t n = HS_WAL_AHEAD_BYTES - at < (off_t)sizeof(zeros)
                           ? (size_t)(HS_WAL_AHEAD_BYTES - at)
                           : sizeof(zeros);
            ssize_t w = pwrite(fd, zeros, n, at);
            if (w <= 0)
                break;
            at += w;
        }
        if (!ahead)
            ahead = at >= HS_WAL_AHEAD_BYTES && fdatasync(fd) == 0;
    }
    close(fd);
    return ahead;
}

/* ---- open / close ------------------------------------------------------ */

static int pragma_int(struct hub_store *s, const char *sql, int64_t *out,
                      struct tny_diag *d)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    if ((rc = hs_prepare(s, sql, &st, d)) < 0 ||
        (rc = hs_row(s, st, &row, d)) < 0)
        goto out;
    *out = row ? sqlite3_column_int64(st, 0) : 0;
out:
    hs_finalize(s, st);
    return rc;
}

/* True when the database has any table (sqlite_schema is not empty). */
static bool has_tables(struct hub_store *s)
{
    int64_t n = 0;
    struct tny_diag ignored;
    return pragma_int(s, "SELECT count(*) FROM sqlite_schema", &n, &ignored) ==
               0 &&
           n > 0;
}

static int migrate(struct hub_store *s, const char *path, struct tny_diag *d)
{
    int64_t version;
    char sql[64];
    int rc;
    if ((rc = pragma_int(s, "PRAGMA user_version", &version, d)) < 0)
        return rc;
    if (version > HUB_STORE_SCHEMA_VERSION || version < 0)
        return tny_diag_set(d, TNY_ESTATE,
                            "store: %s has schema version %lld, this build "
                            "knows up to %d (use a newer tourney-hub)",
                            path, (long long)version, HUB_STORE_SCHEMA_VERSION);
    if (version < HUB_STORE_SCHEMA_VERSION && s->read_only)
        return tny_diag_set(d, TNY_ESTATE,
                            "store: %s has schema version %lld and needs "
                            "migrating to %d, but it is read-only",
                            path, (long long)version, HUB_STORE_SCHEMA_VERSION);
    for (int64_t v = version; v < HUB_STORE_SCHEMA_VERSION; v++) {
        /* Each step and its version bump commit together. */
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld",
                 (long long)(v + 1));
        if ((rc = hs_begin(s, d)) < 0)
            return rc;
        for (const char *const *q = migration_steps[v]; rc == 0 && *q; q++)
            rc = hs_exec(s, *q, d);
        if (rc == 0)
            rc = hs_exec(s, sql, d);
        if (rc == 0) {
            json_t *detail = json_pack("{s:I, s:I}", "from", (json_int_t)v,
                                       "to", (json_int_t)(v + 1));
            rc = hs_log(s, "hub", NULL, "store.migrate", detail, d);
        }
        if ((rc = hs_finish(s, rc, d)) < 0) {
            char why[sizeof(d->msg)];
            snprintf(why, sizeof(why), "%s", d ? d->msg : "failed");
            return tny_diag_set(d, rc, "store: %s: migration %lld -> %lld: %s",
                                path, (long long)v, (long long)(v + 1), why);
        }
    }
    return TNY_OK;
}

int hub_store_open(const char *path, struct hub_store **out,
                   struct tny_diag *diag)
{
    return hub_store_open_with(path, NULL, out, diag);
}

/* Issue 17: SQLite's count of its own memory takes a global mutex on
 * every allocation (about a tenth of a round's inserts); nothing in the
 * hub reads it (sqlite3_memory_used, a heap limit).  Set once, before
 * SQLite is first used in the process; refused (and harmless) when it
 * already was. */
static pthread_once_t hs_config_once = PTHREAD_ONCE_INIT;

static void hs_config(void)
{
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int hub_store_open_with(const char *path, const struct hub_store_options *opt,
                        struct hub_store **out, struct tny_diag *diag)
{
    struct hub_store_options o = {0};
    struct hub_store *s = NULL;
    char sql[96];
    int64_t got;
    int rc, src;

    *out = NULL;
    if (opt)
        o = *opt;
    if (!path || !*path)
        return tny_diag_set(diag, TNY_EINVAL, "store: no database path");
    if (o.flags & HUB_STORE_MUST_EXIST) {
        struct stat stb;
        if (stat(path, &stb) != 0)
            return tny_diag_set(diag,
                                errno == ENOENT ? TNY_ENOTFOUND : TNY_ESTATE,
                                "store: %s: %s", path, strerror(errno));
        if (!S_ISREG(stb.st_mode))
            return tny_diag_set(diag, TNY_ESTATE,
                                "store: %s: not a regular file", path);
    }
    pthread_once(&hs_config_once, hs_config);
    s = calloc(1, sizeof(*s));
    if (!s)
        return TNY_ENOMEM;
    int flags = (o.flags & HUB_STORE_READ_ONLY) ? SQLITE_OPEN_READONLY
                : (o.flags & HUB_STORE_MUST_EXIST)
                    ? SQLITE_OPEN_READWRITE
                    : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    src = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (src != SQLITE_OK) {
        rc = tny_diag_set(diag, src == SQLITE_NOMEM ? TNY_ENOMEM : TNY_ESTATE,
                          "store: cannot open %s: %s", path,
                          s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(src));
        goto out;
    }
    sqlite3_extended_result_codes(s->db, 1);
    /* A file without write permission opens read-only (SQLite falls back);
     * say so once here instead of failing every write obscurely. */
    s->read_only = sqlite3_db_readonly(s->db, "main") == 1;
    s->busy_timeout_ms = o.busy_timeout_ms > 0 ? o.busy_timeout_ms : 5000;
    sqlite3_busy_timeout(s->db, s->busy_timeout_ms);
    /* Reading the schema first makes "not a database" fail here. */
    if ((rc = pragma_int(s, "PRAGMA schema_version", &got, diag)) < 0) {
        tny_diag_set(diag, rc, "store: cannot open %s: %s", path,
                     sqlite3_errmsg(s->db));
        goto out;
    }
    if (o.flags & HUB_STORE_MUST_EXIST) {
        /* user_version 0: no migration ever ran here (an empty file, or
         * another program's database): not ours to turn into a store. */
        if ((rc = pragma_int(s, "PRAGMA user_version", &got, diag)) < 0)
            goto out;
        if (got == 0) {
            rc = tny_diag_set(diag, TNY_ENOTFOUND,
                              "store: %s is not a Tourney hub database "
                              "(%s, no hub schema)",
                              path, has_tables(s) ? "other tables" : "empty");
            goto out;
        }
    }
    if ((rc = hs_exec(s, "PRAGMA foreign_keys = ON", diag)) < 0)
        goto out;
    if (!s->read_only) {
        if ((rc = pragma_int(s, "PRAGMA journal_mode = WAL", &got, diag)) < 0)
            goto out;
        if ((rc = hs_exec(s,
                          (o.flags & HUB_STORE_NO_SYNC)
                              ? "PRAGMA synchronous = OFF"
                              : "PRAGMA synchronous = FULL",
                          diag)) < 0)
            goto out;
    }
    if (o.max_pages > 0) {
        snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld",
                 (long long)o.max_pages);
        if ((rc = pragma_int(s, sql, &got, diag)) < 0)
            goto out;
    }
    if ((rc = migrate(s, path, diag)) < 0)
        goto out;
    if ((o.flags & HUB_STORE_BACKGROUND_CHECKPOINT) && !s->read_only) {
        if (!(o.flags & HUB_STORE_NO_SYNC))
            s->wal_ahead = wal_write_ahead(path);
        checkpointer_start(s, path, !(o.flags & HUB_STORE_NO_SYNC));
    }
    *out = s;
    s = NULL;
out:
    hub_store_close(s);
    return rc;
}

void hub_store_close(struct hub_store *store)
{
    if (!store)
        return;
    checkpointer_stop(store);
    for (int32_t i = 0; i < store->n_stmts; i++)
        sqlite3_finalize(store->stmts[i].st);
    sqlite3_close_v2(store->db);
    free(store->reason);
    free(store);
}

int hub_store_schema_version(struct hub_store *store, int32_t *version,
                             struct tny_diag *diag)
{
    int64_t v = 0;
    int rc = pragma_int(store, "PRAGMA user_version", &v, diag);
    *version = (int32_t)v;
    return rc;
}

/* ---- probe, checkpoint, backup ---------------------------------------- */

int hub_store_probe(struct hub_store *store, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    /* quick_check: the b-trees and pages, without the index cross-checks
     * of integrity_check (O(N) instead of O(N log N)). */
    if ((rc = hs_prepare(store, "PRAGMA quick_check", &st, diag)) < 0 ||
        (rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row || strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
        rc = tny_diag_set(diag, TNY_ESTORE, "store: quick check: %s",
                          row ? (const char *)sqlite3_column_text(st, 0)
                              : "no answer");
        goto out;
    }
    hs_finalize(store, st);
    st = NULL;
    if (store->read_only) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "store: read-only: no write permission on the "
                          "file or its directory, or a read-only file "
                          "system");
        goto out;
    }
    /* A real commit (and its fsync): what a result's ack will need. */
    if ((rc = hs_begin(store, diag)) == 0)
        rc = hs_log(store, "hub", NULL, "store.probe", NULL, diag);
    rc = hs_finish(store, rc, diag);
out:
    hs_finalize(store, st);
    return rc;
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The guaranteed checkpoint (round publish and close, shutdown) was
 * answered "database is locked" 7 times in 10 on a slow disk while the
 * round close said OK (issue 23): the store's own checkpoint thread held
 * the checkpoint lock, and SQLite returns SQLITE_BUSY for that at once,
 * without the busy handler.  So it is retried, each try waiting at most
 * HS_CHECKPOINT_TRY_MS for readers and writers, until HS_CHECKPOINT_WAIT_MS
 * have passed (the hub's loop waits meanwhile: bounded).  It succeeds when
 * every WAL frame is in the database file, even if a reader on the latest
 * snapshot keeps the WAL from being restarted.  A WAL written ahead is
 * restarted, not truncated: the next commit writes over its existing
 * blocks from its start (HS_WAL_AHEAD_BYTES), where a truncated WAL would
 * grow again under the next round's first thousand frames (issue 17 (b));
 * the database file holds every commit either way.  Otherwise (a nearly
 * full file system) it is truncated, its space given back. */
#define HS_CHECKPOINT_TRY_MS 100
#define HS_CHECKPOINT_WAIT_MS 5000

int hub_store_checkpoint(struct hub_store *store, struct tny_diag *diag)
{
    const int64_t until = mono_ms() + HS_CHECKPOINT_WAIT_MS;
    int src, n_log = -1, n_ckpt = -1, tries = 0;
    sqlite3_busy_timeout(store->db, HS_CHECKPOINT_TRY_MS);
    for (;;) {
        tries++;
        src = sqlite3_wal_checkpoint_v2(store->db, "main",
                                        store->wal_ahead
                                            ? SQLITE_CHECKPOINT_RESTART
                                            : SQLITE_CHECKPOINT_TRUNCATE,
                                        &n_log, &n_ckpt);
        if (src == SQLITE_OK ||
            (src == SQLITE_BUSY && n_log >= 0 && n_ckpt == n_log))
            break;
        if ((src != SQLITE_BUSY && src != SQLITE_LOCKED) || mono_ms() >= until)
            break;
        sqlite3_sleep(10);
    }
    sqlite3_busy_timeout(store->db, store->busy_timeout_ms);
    if (src == SQLITE_OK || (src == SQLITE_BUSY && n_ckpt == n_log))
        return TNY_OK;
    if (src != SQLITE_BUSY && src != SQLITE_LOCKED)
        return hs_sqlite_error(store, src, "checkpoint", diag);
    /* Still busy: committed results are safe in the WAL, but not in the
     * database file as promised.  The store alarm says so (hub/store
     * "failing: ...", from this TNY_ESTORE; its probe clears it). */
    store->fault = true;
    snprintf(store->fault_why, sizeof(store->fault_why),
             "checkpoint: %d of %d WAL frames copied after %d tries in %d "
             "ms: %s",
             n_ckpt, n_log, tries, HS_CHECKPOINT_WAIT_MS, sqlite3_errstr(src));
    return tny_diag_set(diag, TNY_ESTORE, "store: %s", store->fault_why);
}

int hub_store_backup(const char *db_path, const char *path,
                     struct tny_diag *diag)
{
    sqlite3 *src = NULL, *dst = NULL;
    sqlite3_backup *b = NULL;
    int rc = TNY_OK, s, fd = -1;
    struct stat stb;

    if (!path || !*path)
        return tny_diag_set(diag, TNY_EINVAL, "backup: no file name");
    if (stat(path, &stb) == 0)
        return tny_diag_set(diag, TNY_ECONFLICT,
                            "backup: %s exists (refusing to overwrite it)",
                            path);
    s = sqlite3_open_v2(db_path, &src, SQLITE_OPEN_READONLY, NULL);
    if (s != SQLITE_OK) {
        rc = tny_diag_set(diag, s == SQLITE_NOMEM ? TNY_ENOMEM : TNY_ESTATE,
                          "backup: cannot read %s: %s", db_path,
                          src ? sqlite3_errmsg(src) : sqlite3_errstr(s));
        goto out;
    }
    sqlite3_busy_timeout(src, 5000);
    s = sqlite3_open_v2(path, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        NULL);
    if (s != SQLITE_OK) {
        rc = tny_diag_set(diag, s == SQLITE_NOMEM ? TNY_ENOMEM : TNY_ESTATE,
                          "backup: cannot create %s: %s", path,
                          dst ? sqlite3_errmsg(dst) : sqlite3_errstr(s));
        goto out;
    }
    if (!(b = sqlite3_backup_init(dst, "main", src, "main"))) {
        rc = tny_diag_set(diag, TNY_ESTATE, "backup: %s: %s", path,
                          sqlite3_errmsg(dst));
        goto out;
    }
    /* All pages in one step: one read transaction, so the copy is one
     * snapshot; the hub's writer goes on appending to the WAL meanwhile. */
    while ((s = sqlite3_backup_step(b, -1)) == SQLITE_OK || s == SQLITE_BUSY ||
           s == SQLITE_LOCKED)
        sqlite3_sleep(10);
    /* sqlite3_backup_finish frees b whatever it returns: b is forgotten
     * before any error path, so the exit label never finishes it again
     * (a double free on a full disk, issue 23). */
    int fin = sqlite3_backup_finish(b);
    b = NULL;
    if (fin != SQLITE_OK || s != SQLITE_DONE) {
        rc = tny_diag_set(diag, TNY_ESTATE, "backup: %s: %s", path,
                          sqlite3_errstr(s != SQLITE_DONE ? s : fin));
        goto out;
    }
    /* A self-contained file: no -wal beside it. */
    s = sqlite3_exec(dst, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    if (s != SQLITE_OK) {
        rc = tny_diag_set(diag, TNY_ESTATE, "backup: %s: %s", path,
                          sqlite3_errmsg(dst));
        goto out;
    }
    sqlite3_close_v2(dst);
    dst = NULL;
    /* SQLite syncs the file at commit; the directory entry too. */
    if ((fd = open(path, O_RDONLY)) < 0 || fsync(fd) != 0)
        rc = tny_diag_set(diag, TNY_ESTATE, "backup: %s: %s", path,
                          strerror(errno));
out:
    if (fd >= 0)
        close(fd);
    if (b)
        (void)sqlite3_backup_finish(b);
    sqlite3_close_v2(dst);
    sqlite3_close_v2(src);
    if (rc < 0 && rc != TNY_ECONFLICT && rc != TNY_EINVAL) {
        /* No half-written backup left behind, nor its journal. */
        char side[4096];
        (void)unlink(path);
        for (int i = 0; i < 3; i++) {
            static const char *const ext[] = {"-journal", "-wal", "-shm"};
            if (snprintf(side, sizeof(side), "%s%s", path, ext[i]) <
                (int)sizeof(side))
                (void)unlink(side);
        }
    }
    return rc;
}

/* ---- check ------------------------------------------------------------- */

int hub_store_check(struct hub_store *store, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int64_t *events = NULL;
    int32_t n_events = 0;
    int rc;
    if ((rc = hs_begin_read(store, diag)) < 0)
        return rc;
    if ((rc = hs_prepare(store, "PRAGMA integrity_check", &st, diag)) < 0 ||
        (rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (!row || strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
        rc = tny_diag_set(diag, TNY_ESTATE, "store: integrity check: %s",
                          row ? (const char *)sqlite3_column_text(st, 0)
                              : "no answer");
        goto out;
    }
    hs_finalize(store, st);
    if ((rc = hs_prepare(store, "PRAGMA foreign_key_check", &st, diag)) < 0 ||
        (rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (row) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "store: foreign key check: table %s row %lld",
                          (const char *)sqlite3_column_text(st, 0),
                          (long long)sqlite3_column_int64(st, 1));
        goto out;
    }
    hs_finalize(store, st);
    /* Every submission was logged in its own transaction. */
    if ((rc = hs_prepare(store,
                         "SELECT (SELECT count(*) FROM submissions), "
                         "(SELECT count(*) FROM log WHERE kind LIKE "
                         "'submit.%')",
                         &st, diag)) < 0 ||
        (rc = hs_row(store, st, &row, diag)) < 0)
        goto out;
    if (sqlite3_column_int64(st, 0) != sqlite3_column_int64(st, 1)) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "store: %lld submissions but %lld submission log "
                          "rows",
                          (long long)sqlite3_column_int64(st, 0),
                          (long long)sqlite3_column_int64(st, 1));
        goto out;
    }
    hs_finalize(store, st);
    if ((rc = hs_prepare(store, "SELECT id FROM events ORDER BY id", &st,
                         diag)) < 0)
        goto out;
    for (;;) {
        if ((rc = hs_row(store, st, &row, diag)) < 0)
            goto out;
        if (!row)
            break;
        int64_t *grown =
            realloc(events, sizeof(*events) * (size_t)(n_events + 1));
        if (!grown) {
            rc = TNY_ENOMEM;
            goto out;
        }
        events = grown;
        events[n_events++] = sqlite3_column_int64(st, 0);
    }
    for (int32_t i = 0; i < n_events; i++)
        if ((rc = hs_validate_event(store, events[i], true, diag)) < 0) {
            char why[sizeof(diag->msg)];
            snprintf(why, sizeof(why), "%s", diag ? diag->msg : "");
            rc = tny_diag_set(diag, TNY_ESTATE, "store: event row %lld: %s",
                              (long long)events[i], why);
            goto out;
        }
out:
    hs_finalize(store, st);
    hs_end_read(store);
    free(events);
    return rc;
}

/* ---- counters ------------------------------------------------------------ */

static int check_counter(const char *name, struct tny_diag *d)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 1 || n > 64)
        return tny_diag_set(d, TNY_EINVAL, "counter: a name of 1..64 bytes");
    return TNY_OK;
}

int hub_store_counter_get(struct hub_store *store, const char *name,
                          int64_t *value, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    bool row;
    int rc;
    *value = 0;
    if ((rc = check_counter(name, diag)) < 0 ||
        (rc = hs_prepare(store, "SELECT value FROM counters WHERE name = ?",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if ((rc = hs_row(store, st, &row, diag)) == 0 && row)
        *value = sqlite3_column_int64(st, 0);
out:
    hs_finalize(store, st);
    return rc;
}

int hub_store_counter_raise(struct hub_store *store, const char *name,
                            int64_t value, struct tny_diag *diag)
{
    sqlite3_stmt *st = NULL;
    int rc;
    if ((rc = check_counter(name, diag)) < 0 ||
        (rc = hs_begin(store, diag)) < 0)
        return rc;
    if ((rc = hs_prepare(store,
                         "INSERT INTO counters (name, value) VALUES (?1, ?2) "
                         "ON CONFLICT (name) DO UPDATE SET value = "
                         "max(value, excluded.value)",
                         &st, diag)) < 0)
        goto out;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, value);
    rc = hs_done(store, st, diag);
out:
    hs_finalize(store, st);
    return hs_finish(store, rc, diag);
}
