/* store.h - the hub's durable state: events, players, rounds, tables,
 * results, submissions, devices, clocks and the append-only log, in one
 * SQLite file (architecture.md "State and durability").
 *
 * All SQL of the project lives behind this header.  The store is the truth
 * the hub restarts from: every write below is ONE transaction (BEGIN
 * IMMEDIATE .. COMMIT) that also appends its log row, and returns only after
 * the commit is durable (WAL, synchronous=FULL), so the hub may acknowledge
 * as soon as a call returns 0.  A call that fails changes nothing.
 *
 * Invariant: the stored event projects into an engine event that
 * tny_event_validate accepts, so hub_store_load_event never fails on data
 * the store itself accepted.  The caller checks a change on its model
 * before the write (issue 17 item 1: player changes, edits, unpublish and
 * reopen read nothing back; issue 18 item 4: a TX-7 penalty and a draft's
 * discard are decided by the service); the store checks its arguments and
 * keys, and projects and validates the whole event on open (the integrity
 * check), on event create and where a caller gives no model.
 *
 * Not here: MQTT, protobuf, deciding what to pair (the engine), timers.
 * Threads: a struct hub_store belongs to the one thread that owns state (the
 * hub loop); SQLite runs in its default serialized mode but nothing here is
 * designed for concurrent callers.  Several processes may open the same file
 * (WAL readers); only one should write.
 *
 * Errors: engine codes from tny/error.h.  A fault of the storage (disk
 * full, a read-only file or file system, an I/O error, a file that cannot
 * be opened, corruption) is TNY_ESTORE from any call, with diag quoting
 * SQLite's message ("store: write: database or disk is full"); a refusal
 * (the call is not allowed: a round not in draft, a key seen already) is
 * never TNY_ESTORE (issue 18: the caller tells the two apart by the code).
 * SQLite's other failures (busy) are TNY_ESTATE; out of memory TNY_ENOMEM.
 * Identifiers: event ids, player ids, device ids and idempotency keys are
 * 1..64 characters of [A-Za-z0-9_.-] (player ids as in the event file);
 * anything else is TNY_EINVAL.  Actors name who did a change: "hub",
 * "organiser:<login>" or "device:<id>".
 */
#ifndef HUB_STORE_H
#define HUB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/clock.h"
#include "tny/error.h"
#include "tny/event.h"
#include "tny/pair.h"

/* The schema version this build writes (PRAGMA user_version). */
#define HUB_STORE_SCHEMA_VERSION 8
/* Identifier length limit (event, player, device ids, idempotency keys). */
#define HUB_STORE_ID_MAX 64
/* Largest result / player JSON text accepted from the wire (bytes). */
#define HUB_STORE_JSON_MAX (64u * 1024u)

struct hub_store;

/* ---- open / close ----------------------------------------------------- */

enum hub_store_flag {
    HUB_STORE_READ_ONLY = 1, /* open read-only: writes fail, TNY_ESTATE */
    /* synchronous=OFF: for tests and benchmarks only; a power loss may then
     * lose acknowledged commits (an application crash still does not). */
    HUB_STORE_NO_SYNC = 2,
    /* Checkpoint the WAL from a thread of the store with its own
     * connection (passive, from 1000 WAL pages on) instead of inside the
     * commit that crosses the threshold, so no commit (and no ack) waits
     * for the database file's write and fsync.  The hub sets it. */
    HUB_STORE_BACKGROUND_CHECKPOINT = 4,
    /* Never create: a path that does not exist, or a database without the
     * store's schema (an empty file, another program's database), fails
     * with TNY_ENOTFOUND instead of becoming a fresh store.  The hub sets
     * it unless it was asked to create (tourney-hub --create): a wrong path
     * must not silently start an empty hub. */
    HUB_STORE_MUST_EXIST = 8,
};

struct hub_store_options {
    unsigned flags;          /* enum hub_store_flag bits */
    int32_t busy_timeout_ms; /* wait for another writer; 0 = 5000 */
    /* Largest size in database pages (PRAGMA max_page_count); 0 = no limit.
     * A write that would grow past it fails like a full disk. */
    int64_t max_pages;
};

/* Opens (creating when absent) the database at path with default options:
 * WAL, synchronous=FULL, foreign keys on, busy timeout 5 s, and migrates
 * the schema forward to HUB_STORE_SCHEMA_VERSION (each step one
 * transaction).  *out receives the store (close with hub_store_close).
 * A file opened read-only (no write permission) opens, reads, and refuses
 * every write.  Errors: TNY_ESTORE (cannot open, not a database),
 * TNY_ESTATE (a migration failed, or the schema is newer than this
 * build: diag "store:
 * PATH has schema version N, this build knows up to M"), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_open(const char *path, struct hub_store **out,
                                struct tny_diag *diag);

/* Same with options (NULL = defaults). */
TNY_MUST_USE int hub_store_open_with(const char *path,
                                     const struct hub_store_options *opt,
                                     struct hub_store **out,
                                     struct tny_diag *diag);

/* Checks that the open database can serve a hub: PRAGMA quick_check
 * answers "ok" and a write commits durably (a "store.probe" row appended
 * to the log in its own transaction), so a corrupt file, a read-only file
 * or file system, or a full disk is found before the hub goes online.
 * Errors: TNY_ESTORE (diag "store: quick check: ...", SQLite's message),
 * TNY_ESTATE ("store: read-only: ..."), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_probe(struct hub_store *store,
                                 struct tny_diag *diag);

/* Copies the whole database into a new file at path with SQLite's online
 * backup API, from a read transaction of its own connection: a consistent
 * snapshot of every commit made before it started, taken while the hub
 * keeps writing (other connections are not blocked; the copy restarts
 * when a write lands mid-copy, which SQLite handles).  The copy is a
 * complete database in rollback-journal mode (no -wal file needed) and is
 * fsynced before this returns.  path must not exist (TNY_ECONFLICT).
 * Errors: TNY_ECONFLICT, TNY_ESTATE (cannot open or write path, I/O),
 * TNY_ENOMEM.  Any thread (it uses its own connections). */
TNY_MUST_USE int hub_store_backup(const char *db_path, const char *path,
                                  struct tny_diag *diag);

/* The reason of the last TNY_ESTORE, for the hub's store alarm: true
 * while the last statement that failed did so for the disk or the file
 * (the call returned TNY_ESTORE) and no transaction has committed since.
 * why (may be NULL) gets SQLite's reason and the system's, e.g. "database
 * or disk is full", "disk I/O error (Read-only file system)".  The hub
 * decides from the code a call returns, not from this.  The thread that
 * uses the store. */
bool hub_store_write_fault(const struct hub_store *store, struct tny_diag *why);

/* The smallest durable write: a log row of kind "store.writable" in its
 * own transaction (and its fsync), for the hub to learn that a failing
 * database takes writes again.  Errors: TNY_ESTORE (SQLite's reason; the
 * write fault stays), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_probe_write(struct hub_store *store,
                                       struct tny_diag *diag);

/* Copies the committed WAL content into the database file and has the
 * next commit restart the WAL from its start, keeping the file's size
 * (SQLITE_CHECKPOINT_RESTART) when it was written ahead at open, else
 * truncates it (TRUNCATE), retried while busy (another checkpoint
 * under way, readers on an older snapshot) for up to 5 s.  After it
 * returns 0 the database file alone holds every commit made before the
 * call (a reader on the latest snapshot may keep the WAL from being
 * restarted).  Errors: TNY_ESTORE (still busy after 5 s: the
 * committed results are not in the database file as promised, which
 * raises the hub's store alarm until a write commits; I/O). */
TNY_MUST_USE int hub_store_checkpoint(struct hub_store *store,
                                      struct tny_diag *diag);

/* With HUB_STORE_BACKGROUND_CHECKPOINT: asks the store's checkpoint
 * thread for a passive checkpoint when anything was committed since the
 * last one began, without waiting for it; true when it asked.  The hub
 * calls it on a timer (checkpoint_interval_s), so committed results do
 * not wait in the WAL for it to reach the size threshold. */
bool hub_store_checkpoint_soon(struct hub_store *store);

/* Closes the database (checkpoints the WAL when last); NULL is a no-op. */
void hub_store_close(struct hub_store *store);

/* Schema version of the open database.  Errors: TNY_ESTATE. */
TNY_MUST_USE int hub_store_schema_version(struct hub_store *store,
                                          int32_t *version,
                                          struct tny_diag *diag);

/* Runs PRAGMA integrity_check and foreign_key_check and the store's own
 * invariants (every submission has its log row, at most one counted result
 * per table, the event projects into a valid engine event).  Errors:
 * TNY_ESTATE with the first problem in diag. */
TNY_MUST_USE int hub_store_check(struct hub_store *store,
                                 struct tny_diag *diag);

/* ---- counters ---------------------------------------------------------- */

/* What the store began and ended since it was opened (issue 17: a refused
 * command begins no write; tests read these).  A write is one call's
 * transaction (hs_begin: BEGIN IMMEDIATE, or a savepoint inside a
 * batch); a batch is hub_store_batch_begin .. _end.  Begun counts only
 * what did begin; each begun write ends committed (released into its
 * batch) or rolled back. */
struct hub_store_stats {
    int64_t writes_begun, writes_committed, writes_rolled_back;
    int64_t batches_begun, batches_committed, batches_rolled_back;
};

/* Copies the counters into *out (a few integers; any time). */
void hub_store_stats(const struct hub_store *store,
                     struct hub_store_stats *out);

/* ---- batches (one console command, one transaction) ------------------- */

/* Opens a batch: until hub_store_batch_end, every write below runs as a
 * savepoint of ONE transaction (BEGIN IMMEDIATE here), so a console
 * command that makes several writes commits all of them or none; a write
 * that fails inside the batch is still undone alone (the caller may go
 * on).  Reads see the batch's writes.  Durability moves to the batch's
 * end: a write that returns 0 inside a batch is not yet committed.
 * Errors: TNY_ESTATE (a batch is open, read-only, busy), TNY_ESTORE. */
TNY_MUST_USE int hub_store_batch_begin(struct hub_store *store,
                                       struct tny_diag *diag);

/* Ends the batch: commit (durable when this returns 0) or roll every
 * write of the batch back.  Errors (commit): TNY_ESTATE (no batch),
 * TNY_ESTORE (the commit failed, or SQLite abandoned the transaction
 * mid-batch: then nothing of the batch is stored). */
TNY_MUST_USE int hub_store_batch_end(struct hub_store *store, bool commit,
                                     struct tny_diag *diag);

/* ---- events ----------------------------------------------------------- */

enum hub_event_status {
    HUB_EVENT_SETUP,    /* "setup": registration, no round published */
    HUB_EVENT_RUNNING,  /* "running": set when a round is published */
    HUB_EVENT_FINISHED, /* "finished": set by the organiser */
};

struct hub_event_info {
    char id[HUB_STORE_ID_MAX + 1];
    char title[128]; /* the event's title, else the format's */
    char format[48]; /* format (preset) name */
    uint64_t seed;
    enum hub_event_status status;
    int64_t created_ms;
    int32_t n_players;
    int32_t n_rounds; /* stored rounds, the draft included */
};

/* Creates event `event_id` from an event file (event-file.md; len bytes of
 * JSON text): format (stored as the full format object with the options
 * applied, so a later change of a preset never changes a stored event),
 * options (kept for the record), seed, title, players, drops,
 * disqualifications and rounds (imported: a round whose every table has a
 * result is stored closed with organiser-entered results, an unfinished
 * last round as started).  Errors: TNY_EINVAL (bad id, the file does not
 * parse or validate: diag as tny_event_from_json_text), TNY_ENOTFOUND
 * (unknown preset), TNY_ECONFLICT (the event id exists), TNY_ESTORE (I/O,
 * read-only), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_create_event(struct hub_store *store,
                                        const char *event_id,
                                        const char *event_json, size_t len,
                                        const char *actor,
                                        struct tny_diag *diag);

/* Information about one event.  Errors: TNY_ENOTFOUND, TNY_ESTATE. */
TNY_MUST_USE int hub_store_get_event(struct hub_store *store,
                                     const char *event_id,
                                     struct hub_event_info *out,
                                     struct tny_diag *diag);

/* Every event, oldest first, in *out (malloc'd; free()).  Errors:
 * TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_list_events(struct hub_store *store,
                                       struct hub_event_info **out, int32_t *n,
                                       struct tny_diag *diag);

/* Sets the event's status (any change; the organiser decides).
 * Errors: TNY_ENOTFOUND, TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_set_event_status(struct hub_store *store,
                                            const char *event_id,
                                            enum hub_event_status status,
                                            const char *actor,
                                            struct tny_diag *diag);

/* Deletes a mistyped event (issue 22): its players, draft rounds, sign-in
 * codes (valid or revoked), players' requests and the event row go, in one
 * transaction; devices assigned to it are unassigned (*n_devices, may be
 * NULL, receives how many); the log keeps every row of it and an
 * "event.delete" row (the id may be used again).  Only an event none of
 * whose rounds was published: results are never deleted (the rule, with
 * its message, is the service's, issue 18; the store refuses such rows
 * with TNY_EINVAL as its invariant).  Errors: TNY_EINVAL, TNY_ENOTFOUND. */
TNY_MUST_USE int hub_store_delete_event(struct hub_store *store,
                                        const char *event_id, const char *actor,
                                        int32_t *n_devices,
                                        struct tny_diag *diag);

/* ---- players (CM-1, CM-2, CM-3, GT-11, CM-5 fixed tables) -------------- */

/* Adds a player, or replaces the attributes a registration gives of the
 * player with the same id (its drop, rejoin and disqualification kept,
 * its fixed table and knockout armies cleared): the engine's player
 * (issue 17 item 1, issue 18 item 4: typed, no JSON text), its armies
 * indices of fmt, first_round > 1 a late entry.  Players keep the order
 * in which they were first added (it is the engine's player index order).
 * The event with the player is the service's to check (on its model,
 * before the call): the store checks only its keys (the id, the name,
 * the army indices).  Errors: TNY_EINVAL (diag says which), TNY_ENOTFOUND
 * (no event), TNY_ESTORE (I/O, read-only), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_put_player(struct hub_store *store,
                                      const char *event_id,
                                      const struct tny_format *fmt,
                                      const struct tny_player *player,
                                      const char *actor, struct tny_diag *diag);

/* The same for players[0..n-1] in one transaction (a console import): all
 * are stored, or none (the first failure's diag names the player).
 * discard_draft: the number of the draft round the new field makes
 * invalid, deleted in the same transaction (the service decided it on
 * its model and pairs again; logged "draft.discard"), 0 = keep it;
 * TNY_ENOTFOUND when that draft is not stored. */
TNY_MUST_USE int hub_store_put_players(
    struct hub_store *store, const char *event_id, const struct tny_format *fmt,
    const struct tny_player *players, int32_t n, int32_t discard_draft,
    const char *actor, struct tny_diag *diag);

/* CM-2: the player is not paired after round after_round (>= 1); a later
 * call moves the drop and clears a rejoin.  That the event validates with
 * the change (the player sits in no later round) is the service's check,
 * made on its model before the call (issue 17 item 1); discard_draft as
 * for hub_store_put_players (the log's detail names it
 * "discarded_draft").  Errors: TNY_ENOTFOUND (event, player, the draft
 * to discard), TNY_EINVAL (after_round < 1), TNY_ESTORE. */
TNY_MUST_USE int hub_store_drop_player(struct hub_store *store,
                                       const char *event_id,
                                       const char *player_id,
                                       int32_t after_round,
                                       int32_t discard_draft, const char *actor,
                                       struct tny_diag *diag);

/* GT-11: a dropped player is paired again from round from_round.  Who
 * may rejoin (dropped, not disqualified: CM-3, after the drop) is the
 * service's rule (issue 18), and so is the check of the event with the
 * change; discard_draft as for hub_store_drop_player.  Errors: TNY_EINVAL
 * (from_round < 1), TNY_ENOTFOUND. */
TNY_MUST_USE int
hub_store_rejoin_player(struct hub_store *store, const char *event_id,
                        const char *player_id, int32_t from_round,
                        int32_t discard_draft, const char *actor,
                        struct tny_diag *diag);

/* NH-11: the armies player_id declares for the knockout (names[0..n-1]).
 * When a player may declare (before the first knockout round) and that
 * the event validates with it (count, registered armies, the draft) are
 * the service's checks, on its model before the call (issue 17 item 1).
 * Errors: TNY_ENOTFOUND, TNY_ESTORE, TNY_ENOMEM. */
TNY_MUST_USE int
hub_store_declare_armies(struct hub_store *store, const char *event_id,
                         const char *player_id, const char *const *names,
                         int32_t n, const char *actor, struct tny_diag *diag);

/* CM-3: disqualified after round after_round (>= 1); that a player is
 * disqualified once is the service's rule (issue 18).  discard_draft and
 * errors as hub_store_drop_player. */
TNY_MUST_USE int
hub_store_disqualify_player(struct hub_store *store, const char *event_id,
                            const char *player_id, int32_t after_round,
                            int32_t discard_draft, const char *actor,
                            struct tny_diag *diag);

/* CM-5: the player always sits at table `table` (0 = no longer fixed), for
 * the pairings to come.  draft (may be NULL): the draft round's plan with
 * the player's table moved to that number, as the service edited it
 * (the rule and the engine's move are the service's), stored in the same
 * transaction.  That the event validates with the change (and the draft)
 * is the service's check, on its model before the call (issue 17 item 1).
 * Errors: TNY_EINVAL (table < 0), TNY_ENOTFOUND (event, player; a draft
 * given and none stored), TNY_ESTORE. */
TNY_MUST_USE int
hub_store_fix_player_table(struct hub_store *store, const char *event_id,
                           const char *player_id, int32_t table,
                           const struct tny_round_plan *draft,
                           const char *actor, struct tny_diag *diag);

/* ---- rounds (CM-5) ---------------------------------------------------- */

enum hub_round_status {
    HUB_ROUND_DRAFT,     /* "draft": paired, editable, not shown */
    HUB_ROUND_PUBLISHED, /* "published": shown at the tables */
    HUB_ROUND_STARTED,   /* "started": timer running */
    HUB_ROUND_CLOSED,    /* "closed": every result in; corrections only */
};

struct hub_round_info {
    int32_t number;
    enum tny_stage_kind stage;
    int32_t stage_index;
    enum hub_round_status status;
    int32_t n_tables;    /* byes included */
    int32_t n_results;   /* tables with a counted result (byes excluded) */
    int32_t n_conflicts; /* unresolved conflicting submissions */
};

/* Stores plan (from tny_pair_next on ev, the projection of this event) as
 * the draft of round plan->round; it replaces an existing draft of that
 * round.  Seats are mapped through ev->players[i].id.  That the previous
 * round is closed is the caller's rule (the service's, CM-5).  Errors:
 * TNY_EINVAL (plan->round is not the next round, a seat index outside ev,
 * the event would not validate), TNY_ENOTFOUND (event, or a player of ev
 * unknown to the store), TNY_ENOMEM. */
TNY_MUST_USE int hub_store_save_draft(struct hub_store *store,
                                      const char *event_id,
                                      const struct tny_event *ev,
                                      const struct tny_round_plan *plan,
                                      const char *actor, struct tny_diag *diag);

/* Deletes the draft round (to pair again).  That round N is the draft is
 * the caller's decision (the service's, on its model: issue 18 item 4);
 * the store deletes round N only while its row is a draft.  Errors:
 * TNY_ENOTFOUND (no such round, or round N is not a draft: nothing is
 * deleted; a caller's error). */
TNY_MUST_USE int hub_store_discard_draft(struct hub_store *store,
                                         const char *event_id, int32_t round,
                                         const char *actor,
                                         struct tny_diag *diag);

/* CM-5 edits of a round's pairings, decided by the service (which rounds
 * may be edited, the engine's swap or move, the sides): round `round`
 * (a draft, or a published round) as a plan over ev (the event's model:
 * its published rounds), read with hub_store_load_round_plan; the edited
 * plan stored as the round's tables with hub_store_save_round_edit (the
 * service validated the event with it, issue 18 item 4: the store only
 * writes; the log row "draft.swap" or "draft.move" says which edit).
 * Errors: TNY_ENOTFOUND (event, round, a seated player not in ev),
 * TNY_ESTORE, TNY_ENOMEM. */
struct hub_round_edit {
    bool swap;         /* else a move */
    const char *a, *b; /* swap: the players' ids */
    int32_t from, to;  /* move: the table numbers */
    /* Issue 17: the plan's positions (indices) whose table the edit
     * changed, the others as stored; only those tables and their seats
     * are written again (a swap or a move: two).  NULL: every table.  ev
     * and before (required with changed): the model plan's player indices
     * refer to. */
    const int32_t *changed;
    int32_t n_changed;
    const struct tny_event *ev;
    /* The plan's tables before the edit (same indices): a changed table's
     * row is found by a player it seated. */
    const struct tny_pairing_table *before;
};
TNY_MUST_USE int hub_store_load_round_plan(struct hub_store *store,
                                           const char *event_id, int32_t round,
                                           const struct tny_event *ev,
                                           struct tny_round_plan *out,
                                           struct tny_diag *diag);
TNY_MUST_USE int hub_store_save_round_edit(struct hub_store *store,
                                           const char *event_id, int32_t round,
                                           const struct tny_round_plan *plan,
                                           const struct hub_round_edit *edit,
                                           const char *actor,
                                           struct tny_diag *diag);

/* Moves the round one step forward: DRAFT -> PUBLISHED -> STARTED ->
 * CLOSED (PUBLISHED -> CLOSED is allowed too: a round without a clock).
 * Which round may move or close (CM-5, CM-6) is the service's rule,
 * decided before this call (issue 18 item 4); the store asserts it.
 * Publishing sets the event RUNNING.  Errors: TNY_ESTATE (integrity: any
 * other move; closing a table without result or with a conflict: diag
 * names the table), TNY_ENOTFOUND. */
TNY_MUST_USE int hub_store_set_round_status(struct hub_store *store,
                                            const char *event_id, int32_t round,
                                            enum hub_round_status status,
                                            const char *actor,
                                            struct tny_diag *diag);

/* Publishes the draft round `round` and stores its clock in ONE
 * transaction (one durable commit): hub_store_set_round_status(...,
 * HUB_ROUND_PUBLISHED, ...) then hub_store_save_clock(..., clock, ...),
 * with both log rows; either both happen or neither.  Errors: those of the
 * two calls (TNY_EINVAL for a clock out of range, before anything is
 * written). */
TNY_MUST_USE int hub_store_publish_round(struct hub_store *store,
                                         const char *event_id, int32_t round,
                                         const struct tny_round_clock *clock,
                                         const char *actor,
                                         struct tny_diag *diag);
/* Issue 17: hub_store_publish_round for a caller that keeps the event's
 * model: ev (the projection of the event's published rounds) and plan
 * (its draft as stored, round `round`).  The event with the round
 * published is checked in memory (ev with plan appended) instead of being
 * read back from the rows; when the rows say ev is not the projection,
 * they are read back as hub_store_publish_round does.  hub_store_save_draft
 * checks its ev and plan the same way.  Errors: those of
 * hub_store_publish_round; TNY_EINVAL (plan is not round `round`). */
TNY_MUST_USE int hub_store_publish_draft(struct hub_store *store,
                                         const char *event_id, int32_t round,
                                         const struct tny_round_clock *clock,
                                         const struct tny_event *ev,
                                         const struct tny_round_plan *plan,
                                         const char *actor,
                                         struct tny_diag *diag);

/* Errors: TNY_ENOTFOUND, TNY_ESTATE. */
TNY_MUST_USE int hub_store_get_round(struct hub_store *store,
                                     const char *event_id, int32_t round,
                                     struct hub_round_info *out,
                                     struct tny_diag *diag);

/* ---- results (CM-6) --------------------------------------------------- */

enum hub_submit_kind {
    HUB_SUBMIT_ACCEPTED,  /* stored (counted when confirmed) */
    HUB_SUBMIT_DUPLICATE, /* the key was seen: the first answer again */
    HUB_SUBMIT_CONFLICT,  /* differs from the counted result: flagged */
    HUB_SUBMIT_REJECTED,  /* not stored as a result; reason recorded */
};

/* Why a submission was not simply counted, recorded with it and answered
 * on the wire (docs/protocol.md "Acks").  Stored by name. */
enum hub_submit_reason {
    HUB_REASON_NONE,
    HUB_REASON_INVALID_RESULT, /* refused by the format's checks (CM-6) */
    HUB_REASON_WRONG_ROUND,    /* the round is not in play */
    HUB_REASON_WRONG_TABLE,    /* no such table, or not this device's */
    HUB_REASON_WRONG_PLAYERS,  /* names a player not at the table */
    HUB_REASON_UNKNOWN_EVENT,  /* no such event */
    HUB_REASON_UNCONFIRMED,    /* stored pending: not every player confirmed */
    HUB_REASON_ALREADY_CONFIRMED, /* CONFLICT: another result counts */
};

/* A submission as the service decided it (CM-6), for the store to record
 * (strings and pointers borrowed for the call).  The store decides
 * nothing about it: it writes the rows the decision implies. */
struct hub_submission {
    const char *event_id;
    int32_t round, table;
    const char *device_id;
    const char *idem_key;
    bool confirmed;            /* every seated player confirmed it */
    enum hub_submit_kind kind; /* ACCEPTED, CONFLICT or REJECTED */
    /* ACCEPTED: it repeats the table's counted result (the same result
     * again, CM-6: no new row, the submission points at the counted row);
     * else a new row, counted when confirmed, else pending. */
    bool repeats_counted;
    enum hub_submit_reason reason;
    const char *reason_text; /* CONFLICT / REJECTED: why ("" none) */
    /* The result in the engine's terms: the event it belongs to and the
     * table (seats, has_result, result; TX-7 penalties zero: the store
     * merges its own).  The store writes it as the result row's text
     * (event-file.md result object), also kept as the submission's
     * request, so a repeated key with other data is logged. */
    const struct tny_event *ev;
    const struct tny_table *result;
};

/* A recorded submission, as every later submission of its key is
 * answered.  Nothing in it is text to be parsed. */
struct hub_submit_outcome {
    enum hub_submit_kind kind;  /* DUPLICATE when read back by key */
    enum hub_submit_kind first; /* the recorded decision (not DUPLICATE) */
    bool counted;               /* ACCEPTED: the table's counted result */
    enum hub_submit_reason reason;
    char reason_text[512];
    char event_id[HUB_STORE_ID_MAX + 1];
    int32_t round, table;
    int64_t result_id; /* result row stored or repeated; 0 = none */
    /* hub_store_record_submissions only: 0 = recorded, else the item's
     * error (nothing stored for it; reason_text holds the message; the
     * device should retry). */
    int rc;
};

/* The reason's stored name ("invalid_result", ...). */
const char *hub_submit_reason_name(enum hub_submit_reason r);

/* Group commit: records subs[0..n-1] in ONE transaction (one durable
 * commit), each with its log row: a result row for ACCEPTED (unless it
 * repeats the counted one) and CONFLICT, the submission row with the decision
 * for every kind.  Each item runs under its own savepoint: an item that fails
 * (outs[i].rc < 0: TNY_EINVAL for an identifier that is not one, a key
 * recorded already, a target that does not exist) is rolled back alone
 * and the others still commit.  Returns 0 when the batch committed
 * (answers may be sent); else the error for the whole batch (nothing
 * stored, every outs[i].rc is that error): TNY_ESTORE (I/O, read-only,
 * full), TNY_ENOMEM.  n = 0 is a no-op. */
TNY_MUST_USE int hub_store_record_submissions(struct hub_store *store,
                                              int32_t n,
                                              const struct hub_submission *subs,
                                              struct hub_submit_outcome *outs,
                                              struct tny_diag *diag);

/* The recorded answer of (device_id, idem_key), kind DUPLICATE.  When
 * probe is given (its device, key, target and result) and differs from
 * what the key first carried, the reuse is logged ("duplicate.key_reused",
 * its own transaction).  Errors: TNY_ENOTFOUND (never seen), TNY_EINVAL
 * (not identifiers), TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_get_submission(struct hub_store *store,
                                          const char *device_id,
                                          const char *idem_key,
                                          const struct hub_submission *probe,
                                          struct hub_submit_outcome *out,
                                          struct tny_diag *diag);

/* The row id of the table's counted result (*id 0: none).  Errors:
 * TNY_ENOTFOUND (no such event, round or table), TNY_ESTATE. */
TNY_MUST_USE int hub_store_counted_id(struct hub_store *store,
                                      const char *event_id, int32_t round,
                                      int32_t table, int64_t *id,
                                      struct tny_diag *diag);

/* Issue 17: what an organiser's entry at table `table` of round `round`
 * changes beyond the result, for the service's model: the table's open
 * conflicts (the entry resolves them) and its TX-7 penalty units by seat
 * (tb is the table in ev, the event's model: the projection merges them
 * into the counted result).  Errors: TNY_ENOTFOUND, TNY_ESTATE. */
struct hub_table_facts {
    int32_t open_conflicts;
    int64_t penalty[TNY_MAX_SEATS];
};
TNY_MUST_USE int
hub_store_table_facts(struct hub_store *store, const char *event_id,
                      int32_t round, int32_t table, const struct tny_event *ev,
                      const struct tny_table *tb, struct hub_table_facts *out,
                      struct tny_diag *diag);

/* The organiser enters or corrects a table's result (CM-5, CM-6), as the
 * service checked it: result is table `table` of ev with its result in
 * the engine's terms (TX-7 penalties zero: the store keeps its own).  A
 * new counted row supersedes the counted one (never overwritten: both
 * stay, with the log), and every open conflict of the table is resolved.
 * Allowed in published, started and closed rounds.  *result_id (may be
 * NULL) receives the new row.  Errors: TNY_ENOTFOUND, TNY_ESTATE (draft
 * round), TNY_ESTORE, TNY_ENOMEM. */
TNY_MUST_USE int
hub_store_enter_result(struct hub_store *store, const char *event_id,
                       int32_t round, int32_t table, const struct tny_event *ev,
                       const struct tny_table *result, const char *actor,
                       int64_t *result_id, struct tny_diag *diag);

/* The same with the result of a stored row (row_id, a conflict of the
 * table the organiser keeps): its text becomes the new counted row.
 * Errors: TNY_ENOTFOUND (no such row of the table), as above. */
TNY_MUST_USE int hub_store_enter_row(struct hub_store *store,
                                     const char *event_id, int32_t round,
                                     int32_t table, int64_t row_id,
                                     const char *actor, int64_t *result_id,
                                     struct tny_diag *diag);

/* The organiser keeps the counted result and resolves the flagged conflict
 * row result_id.  Errors: TNY_ENOTFOUND (no such conflict in the event),
 * TNY_ESTATE (already resolved), TNY_ESTORE. */
TNY_MUST_USE int hub_store_dismiss_conflict(struct hub_store *store,
                                            const char *event_id,
                                            int64_t result_id,
                                            const char *actor,
                                            struct tny_diag *diag);

enum hub_result_status {
    HUB_RESULT_VALID,    /* counted unless superseded */
    HUB_RESULT_PENDING,  /* not confirmed at the table */
    HUB_RESULT_CONFLICT, /* flagged for the organiser */
};

struct hub_result_row {
    int64_t id;
    int32_t table;     /* the table's number */
    char *result_json; /* malloc'd */
    char actor[80];
    bool from_device; /* else the organiser */
    bool confirmed;
    enum hub_result_status status;
    int64_t superseded_by; /* 0 = not superseded */
    bool resolved;         /* conflicts: dealt with by the organiser */
    int64_t created_ms;
};

/* Every result row of a table, oldest first (history, conflicts included),
 * in *rows (release with hub_result_rows_free); table 0: of every table of
 * the round, by table number, then oldest first (one query for the
 * round).  Errors: TNY_ENOTFOUND, TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_list_results(struct hub_store *store,
                                        const char *event_id, int32_t round,
                                        int32_t table,
                                        struct hub_result_row **rows,
                                        int32_t *n, struct tny_diag *diag);

/* Issue 17: the counted result rows of round `round` that the organiser
 * entered (at most one a table: the valid row not superseded), by table
 * number, in *rows (release with hub_result_rows_free): what
 * hub_store_list_results(table 0) gives when only those are wanted,
 * without reading every table's history.  Errors as it. */
TNY_MUST_USE int
hub_store_list_organiser_results(struct hub_store *store, const char *event_id,
                                 int32_t round, struct hub_result_row **rows,
                                 int32_t *n, struct tny_diag *diag);
void hub_result_rows_free(struct hub_result_row *rows, int32_t n);

/* TX-7: deducts `units` (TNY_POINT_SCALE units, > 0) of TP from
 * player_id at the table, or from every player of the table when player_id
 * is NULL; entries add up and appear as the result's "penalty" object
 * (of a counted result: the projection merges them into it).  TX-7's
 * rules (units 1..1000 points, a counted result to penalise, a game that
 * takes penalties) are the caller's, decided before the call (issue 18
 * item 4: the service's check_penalty); the store writes the rows.
 * Errors: TNY_EINVAL (units <= 0 or no reason: the caller's contract,
 * before anything begins), TNY_ENOTFOUND (no such round, table (a bye has
 * none) or player, or the player is not at the table: the write is
 * rolled back). */
TNY_MUST_USE int hub_store_add_penalty(struct hub_store *store,
                                       const char *event_id, int32_t round,
                                       int32_t table, const char *player_id,
                                       int64_t units, const char *reason,
                                       const char *actor,
                                       struct tny_diag *diag);

/* ---- devices ---------------------------------------------------------- */

enum hub_presence {
    HUB_PRESENCE_UNKNOWN,
    HUB_PRESENCE_ONLINE,
    HUB_PRESENCE_OFFLINE,
};

struct hub_device_info {
    char id[HUB_STORE_ID_MAX + 1];
    char event[HUB_STORE_ID_MAX + 1]; /* "" = unassigned */
    int32_t table;                    /* 0 = unassigned */
    enum hub_presence presence;
    int64_t last_seen_ms;
};

/* ---- counters ------------------------------------------------------------ */

/* Named counters that never go down, also across restarts (the hub's
 * assignment and clock versions).  _get: *value is the stored value of
 * `name` (0 when never raised).  _raise: sets it to value unless it is
 * already higher (one transaction, not logged).  name: 1..64 bytes.
 * Errors: TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_counter_get(struct hub_store *store,
                                       const char *name, int64_t *value,
                                       struct tny_diag *diag);
TNY_MUST_USE int hub_store_counter_raise(struct hub_store *store,
                                         const char *name, int64_t value,
                                         struct tny_diag *diag);

/* ---- sign-in codes (issue 20) ---------------------------------------------
 */

/* A table page's sign-in code: it logs in as device_id for table `table`
 * of event_id (docs/protocol.md "Table pages").  revoked_ms 0: valid. */
struct hub_code {
    char code[16];
    char device_id[32];
    char event_id[65];
    int32_t table;
    int64_t issued_ms;
    char issued_by[65];
    int64_t revoked_ms;
    /* A player code's player ("" = a table code); device_id is then the
     * code's own login (ply-N) and table 0: its table follows the
     * player's round by round (codes.c). */
    char player_id[65];
};

/* Records a new code (logged as code.issue, without the code itself).
 * Errors: TNY_ENOTFOUND (event), TNY_ECONFLICT (code or device in use),
 * TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_code_add(struct hub_store *store, const char *code,
                                    const char *device_id, const char *event_id,
                                    int32_t table, const char *actor,
                                    struct tny_diag *diag);
/* Records a new player code: login_id (ply-N) for player_id of event_id
 * (logged as code.issue).  Errors: those of hub_store_code_add, and
 * TNY_ENOTFOUND (player). */
TNY_MUST_USE int
hub_store_player_code_add(struct hub_store *store, const char *code,
                          const char *login_id, const char *event_id,
                          const char *player_id, const char *actor,
                          struct tny_diag *diag);
/* Marks a code revoked now; *out gets its row.  Errors: TNY_ENOTFOUND (no
 * such code), TNY_ESTATE (already revoked; or the store). */
TNY_MUST_USE int hub_store_code_revoke(struct hub_store *store,
                                       const char *code, const char *actor,
                                       struct hub_code *out,
                                       struct tny_diag *diag);
/* Every code (of event_id; NULL = all events), in issue order; *out is
 * malloc'd (free it), *n its length.  Errors: TNY_ENOMEM, TNY_ESTATE. */
TNY_MUST_USE int hub_store_codes_list(struct hub_store *store,
                                      const char *event_id,
                                      struct hub_code **out, int32_t *n,
                                      struct tny_diag *diag);

/* A player's request from their phone (issue 20): a check-in, or a
 * "drop me" that waits for the organiser (confirmed_ms 0). */
enum hub_player_request_kind { HUB_PLAYER_CHECK_IN, HUB_PLAYER_DROP };
struct hub_player_request {
    char player_id[65];
    enum hub_player_request_kind kind;
    char key[65];        /* the idempotency key of the request */
    int32_t after_round; /* rounds published when it came */
    int64_t received_ms;
    int64_t confirmed_ms; /* a drop the organiser confirmed; 0 = waits */
};

/* Stores the request (logged as player.checkin / player.drop_request);
 * *stored false when one of that kind is already there (a check-in, or
 * a drop not yet confirmed): nothing changes.  Errors: TNY_ENOTFOUND
 * (event, player), TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_player_request_put(
    struct hub_store *store, const char *event_id, const char *player_id,
    enum hub_player_request_kind kind, const char *key, int32_t after_round,
    const char *actor, bool *stored, struct tny_diag *diag);
/* The event's requests, oldest first; *out malloc'd (free it).  Errors:
 * TNY_ENOMEM, TNY_ESTATE. */
TNY_MUST_USE int hub_store_player_requests_list(struct hub_store *store,
                                                const char *event_id,
                                                struct hub_player_request **out,
                                                int32_t *n,
                                                struct tny_diag *diag);
/* The organiser confirmed player_id's drop request (logged).  Errors:
 * TNY_ENOTFOUND (event), TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_drop_request_confirm(struct hub_store *store,
                                                const char *event_id,
                                                const char *player_id,
                                                const char *actor,
                                                struct tny_diag *diag);

/* Registers a table device (a no-op when it exists).  Errors: TNY_EINVAL,
 * TNY_ESTATE. */
TNY_MUST_USE int hub_store_device_register(struct hub_store *store,
                                           const char *device_id,
                                           const char *actor,
                                           struct tny_diag *diag);

/* Assigns the device to table `table` (>= 1) of event_id, or unassigns it
 * (event_id NULL).  One device per (event, table).  Errors: TNY_ENOTFOUND
 * (device or event), TNY_ECONFLICT (another device has that table),
 * TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_device_assign(struct hub_store *store,
                                         const char *device_id,
                                         const char *event_id, int32_t table,
                                         const char *actor,
                                         struct tny_diag *diag);

/* Records presence at now_ms (UTC).  last_seen always moves; a log row is
 * written only when the presence changes.  Errors: TNY_ENOTFOUND,
 * TNY_EINVAL, TNY_ESTATE. */
TNY_MUST_USE int hub_store_device_presence(struct hub_store *store,
                                           const char *device_id,
                                           enum hub_presence presence,
                                           int64_t now_ms,
                                           struct tny_diag *diag);

/* One device's presence for hub_store_devices_presence. */
struct hub_presence_update {
    const char *device_id;
    enum hub_presence presence;
    int64_t now_ms;
};

/* hub_store_device_presence for n devices in one transaction (one fsync):
 * the hub coalesces presence messages (a flood of them from one login
 * was one fsync each, delaying every table's ack).  A device that is not
 * registered or an invalid entry is skipped.  Errors: TNY_ESTORE (the
 * commit failed: nothing recorded). */
TNY_MUST_USE int hub_store_devices_presence(struct hub_store *store, int32_t n,
                                            const struct hub_presence_update *u,
                                            struct tny_diag *diag);

/* Errors: TNY_ENOTFOUND, TNY_ESTATE. */
TNY_MUST_USE int hub_store_get_device(struct hub_store *store,
                                      const char *device_id,
                                      struct hub_device_info *out,
                                      struct tny_diag *diag);

/* Every registered device, in the order of registration, in *out
 * (malloc'd; free()), *n of them.  Errors: TNY_ESTATE, TNY_ESTORE,
 * TNY_ENOMEM. */
TNY_MUST_USE int hub_store_list_devices(struct hub_store *store,
                                        struct hub_device_info **out,
                                        int32_t *n, struct tny_diag *diag);

/* ---- clocks (CM-7) ---------------------------------------------------- */

/* Stores the round clock as the hub computed it (tny_round_clock_*).
 * Errors: TNY_ENOTFOUND, TNY_EINVAL (a field out of range), TNY_ESTATE. */
TNY_MUST_USE int hub_store_save_clock(struct hub_store *store,
                                      const char *event_id, int32_t round,
                                      const struct tny_round_clock *clock,
                                      const char *actor, struct tny_diag *diag);

/* Errors: TNY_ENOTFOUND (no round, or no clock saved yet), TNY_ESTATE. */
TNY_MUST_USE int hub_store_load_clock(struct hub_store *store,
                                      const char *event_id, int32_t round,
                                      struct tny_round_clock *out,
                                      struct tny_diag *diag);

/* Grants one table extra_ms (> 0) more (judge intervention), or takes
 * -extra_ms of its extension back (< 0: a mistaken extension, issue 22;
 * never below 0); *total_ms (may be NULL) receives the table's total.
 * Errors: TNY_EINVAL (0, out of range, more taken back than given),
 * TNY_ENOTFOUND, TNY_ESTATE. */
TNY_MUST_USE int hub_store_extend_table(struct hub_store *store,
                                        const char *event_id, int32_t round,
                                        int32_t table, int64_t extra_ms,
                                        const char *actor, int64_t *total_ms,
                                        struct tny_diag *diag);

/* Issue 22, a judge call: pauses one table of a started round (pause:
 * value_ms is the round time run at the pause, log "clock.table_pause"
 * with "elapsed_ms"), or resumes it (value_ms is the table's new total
 * extension, which then counts the pause; log "clock.table_resume" with
 * "total_ms").  The hub replays both on start.  Errors: TNY_EINVAL (value
 * out of range), TNY_ESTATE (pause: the round is not started; resume: a
 * draft), TNY_ENOTFOUND. */
TNY_MUST_USE int hub_store_table_pause(struct hub_store *store,
                                       const char *event_id, int32_t round,
                                       int32_t table, bool pause,
                                       int64_t value_ms, const char *actor,
                                       struct tny_diag *diag);

/* AG-14: records that a table started its draft when start_delay_ms of the
 * round's time had run (a draft_starts row, replacing the table's earlier
 * one, and the log entry "clock.draft_start").  Whether the table may
 * start it (the round in play, once per table) is the service's rule.
 * Errors: TNY_EINVAL (delay out of range), TNY_ENOTFOUND (event, round or
 * table), TNY_ESTORE. */
TNY_MUST_USE int hub_store_draft_start(struct hub_store *store,
                                       const char *event_id, int32_t round,
                                       int32_t table, int64_t start_delay_ms,
                                       const char *actor,
                                       struct tny_diag *diag);

/* One table's recorded draft start (hub_store_draft_starts). */
struct hub_draft_start {
    int32_t round, table;
    int64_t start_delay_ms;
};

/* Every recorded draft start of the event, by round and table, in *out
 * (malloc'd; free()), *n of them.  Errors: TNY_ENOTFOUND (no event),
 * TNY_ESTATE, TNY_ESTORE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_draft_starts(struct hub_store *store,
                                        const char *event_id,
                                        struct hub_draft_start **out,
                                        int32_t *n, struct tny_diag *diag);

/* ---- the log ---------------------------------------------------------- */

struct hub_log_entry {
    int64_t seq;
    int64_t time_ms;
    char actor[80];
    char event[HUB_STORE_ID_MAX + 1]; /* "" = not about one event */
    char kind[48];                    /* e.g. "result.accepted" */
    char *detail;                     /* JSON object, malloc'd */
};

/* Log rows with seq > after_seq (of event_id only, unless NULL), oldest
 * first, at most max, in *out (release with hub_log_entries_free).
 * Errors: TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_read_log(struct hub_store *store,
                                    const char *event_id, int64_t after_seq,
                                    int32_t max, struct hub_log_entry **out,
                                    int32_t *n, struct tny_diag *diag);
void hub_log_entries_free(struct hub_log_entry *entries, int32_t n);

/* ---- the engine's view ------------------------------------------------ */

/* Builds the full engine event (format, seed, players in the order added,
 * every published round with its counted results and penalties; a round
 * still missing results is the in-progress last round) into *out, which
 * this initialises; release with tny_event_release.  A draft round is not
 * part of it (it is a proposal: see hub_store_load_draft), so
 * tny_pair_next on the result pairs the draft's round again.  The same snapshot
 * of the database is read throughout.  Errors: TNY_ENOTFOUND, TNY_ESTATE,
 * TNY_ENOMEM, TNY_EINVAL (only if the file was changed behind the store's
 * back). */
TNY_MUST_USE int hub_store_load_event(struct hub_store *store,
                                      const char *event_id,
                                      struct tny_event *out,
                                      struct tny_diag *diag);

/* AG-4: the starting seat the pairing drew for every table of a round
 * (published or draft): *first_seat (malloc'd, free it) has *n entries,
 * indexed by table number (entry 0 and numbers without a table: -1; -1
 * also when the format draws none).  Errors: TNY_ENOTFOUND (event or
 * round), TNY_ESTATE, TNY_ENOMEM. */
TNY_MUST_USE int hub_store_first_seats(struct hub_store *store,
                                       const char *event_id, int32_t round,
                                       int32_t **first_seat, int32_t *n,
                                       struct tny_diag *diag);

/* The draft round of the event as a plan over ev (the event as
 * hub_store_load_event gives it): seats are indices into ev->players.
 * *out is overwritten; release with tny_round_plan_release.  Errors:
 * TNY_ENOTFOUND (no draft, or a seated player not in ev), TNY_ESTATE,
 * TNY_ENOMEM. */
TNY_MUST_USE int hub_store_load_draft(struct hub_store *store,
                                      const char *event_id,
                                      const struct tny_event *ev,
                                      struct tny_round_plan *out,
                                      struct tny_diag *diag);

/* The event as an event file (tny_event_to_json of the loaded event), in
 * *text (malloc'd; free()).  `tourney standings` on it gives the hub's
 * standings.  Errors: those of hub_store_load_event. */
TNY_MUST_USE int hub_store_export_event_json(struct hub_store *store,
                                             const char *event_id, char **text,
                                             struct tny_diag *diag);

/* ---- corrections (store_correct.c) ------------------------------------ */

/* Appends the organiser's reasons to an event file of
 * hub_store_export_event_json (*text, a JSON object; reallocated): an
 * "x_audit" member (ignored by every reader, event-file.md) with
 * "disqualifications" and "corrections" (results entered or overridden,
 * conflicts kept, rounds reopened, players edited, and the swaps and
 * moves of a round's last draft or published round: CM-5 edits after the
 * draw, issue 22), each with "what",
 * "by", "time_ms", the log row's detail and "reason".  Nothing is
 * appended when there is nothing to say.  Errors: TNY_ESTATE, TNY_ENOMEM
 * (*text unchanged). */
TNY_MUST_USE int hub_store_append_audit(struct hub_store *store,
                                        const char *event_id, char **text,
                                        struct tny_diag *diag);

/* The organiser's reason for the writes that follow: while set, every log
 * row gets it as "reason" in its detail (the audit log: who = actor, when
 * = time_ms, what = kind and detail).  NULL or "" clears it.  Errors:
 * TNY_ENOMEM (the previous reason stays). */
TNY_MUST_USE int hub_store_set_reason(struct hub_store *store,
                                      const char *reason);

/* Issue 18: the first table of round `round` with a result row (any
 * status) or a penalty, and who entered it (*table 0: none; actor gets
 * cap bytes, NUL-terminated), for the service's unpublish rule.  Errors:
 * TNY_ENOTFOUND (event or round), TNY_ESTORE. */
TNY_MUST_USE int hub_store_round_entry(struct hub_store *store,
                                       const char *event_id, int32_t round,
                                       int32_t *table, char *actor, size_t cap,
                                       struct tny_diag *diag);

/* A published round goes back to a draft: its clock and table extensions
 * are deleted, the event is "setup" again when no other round is
 * published.  Which round may (published, its clock never started, no
 * later round, no result or penalty) is the service's rule (issue 18).
 * Errors: TNY_ENOTFOUND, TNY_EINVAL (the event would not validate). */
TNY_MUST_USE int hub_store_unpublish_round(struct hub_store *store,
                                           const char *event_id, int32_t round,
                                           const char *actor,
                                           struct tny_diag *diag);

/* A closed round becomes "started" again, to correct it; a finished event
 * is running again.  A draft of the next round (paired from the standings
 * being corrected) is deleted; *discarded_draft (may be NULL) receives its
 * number, 0 = none.  Which round may (closed, no later round but the
 * draft: CM-5) is the service's rule (issue 18).  Errors: TNY_ENOTFOUND,
 * TNY_EINVAL (the event would not validate). */
TNY_MUST_USE int hub_store_reopen_round(struct hub_store *store,
                                        const char *event_id, int32_t round,
                                        const char *actor,
                                        int32_t *discarded_draft,
                                        struct tny_diag *diag);

/* Renames a player and/or sets the club or country, at any time; NULL =
 * unchanged, "" = none (club, country).  The log row keeps the old and new
 * values.  Errors: TNY_EINVAL (empty name, nothing to change, the event
 * would not validate), TNY_ENOTFOUND, TNY_ESTATE. */
TNY_MUST_USE int hub_store_edit_player(struct hub_store *store,
                                       const char *event_id,
                                       const char *player_id, const char *name,
                                       const char *club, const char *country,
                                       const char *actor,
                                       struct tny_diag *diag);

/* A player who leaves before playing any round (a no-show before round
 * 1): removed from the event; a draft that seats them is deleted with it
 * (*discarded_draft, may be NULL, receives its number; 0 = none).  CM-2 is
 * the service's rule (issue 18 item 4).  Errors: TNY_ESTATE (integrity:
 * seated in a published round), TNY_ENOTFOUND. */
TNY_MUST_USE int
hub_store_withdraw_player(struct hub_store *store, const char *event_id,
                          const char *player_id, const char *actor,
                          int32_t *discarded_draft, struct tny_diag *diag);

/* CM-6: the organiser keeps the table's counted result counted_id and
 * resolves every open conflict of the table (one transaction);
 * *n_resolved (may be NULL) receives how many.  (Keeping a conflicting
 * submission instead is hub_store_enter_result with its result.)  Which
 * may be kept is the service's rule (issue 18 item 4).  Errors:
 * TNY_ENOTFOUND (no such table, counted_id is not its counted result),
 * TNY_ESTATE (integrity: no open conflict). */
TNY_MUST_USE int hub_store_keep_counted(struct hub_store *store,
                                        const char *event_id, int32_t round,
                                        int32_t table, int64_t counted_id,
                                        const char *actor, int32_t *n_resolved,
                                        struct tny_diag *diag);

#endif
