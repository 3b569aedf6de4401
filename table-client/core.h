/* core.h - the table client's state machine, without I/O: decoded hub
 * messages and the players' input go in, output lines (the headless line
 * protocol, docs/table-protocol.md) and submissions come out through the
 * callbacks in struct tbl_core_ops.
 *
 * States (shown as "state NAME" lines whenever they change):
 *   waiting              no assignment (none yet, or the hub cleared it)
 *   idle                 assigned to the event but no table this round
 *   playing              assigned; no result entered (also after a reject
 *                        by a player or by the hub: the hub's reason is
 *                        shown with the ack line)
 *   confirming           a result is entered; every seated player must
 *                        confirm it; any player may reject it (-> playing)
 *   submitted            confirmed by all, stored in the outbox and sent;
 *                        waiting for the hub's ack
 *   pending_confirmation the hub stored it but waits for confirmations
 *   done                 accepted (or a duplicate of what the hub has)
 * The state is derived from what the core holds: the assignment, the
 * entry being confirmed and the last submission with the hub's answer.
 * A submission belongs to (event, round, table): a new assignment version
 * for the same table keeps it; another table starts afresh (the old
 * submission stays in the outbox until the hub answers it).
 *
 * Assignments apply only with a version above the last applied one (a
 * stale retained copy is ignored, "stale assign" line); a zero-length
 * retained assign (tbl_core_clear_assignment) always applies.
 *
 * Clock: the assignment's clock until a RoundClock of the same event and
 * round arrives; RoundClocks apply in increasing version per event.  The
 * offset to the hub is measured once per message (tny_table_clock_apply)
 * and the countdown runs on the caller's monotonic milliseconds.
 *
 * Not here: decoding bytes, MQTT, the outbox's storage and resends
 * (app.c), the simulated players (app.c drives tbl_core_enter_result).
 * Threads: one owner thread per core.
 */
#ifndef TBL_CORE_H
#define TBL_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/clock.h"
#include "tny/error.h"
#include "tny/wire.h"

#include "game.h"

enum tbl_state {
    TBL_STATE_WAITING,
    TBL_STATE_IDLE,
    TBL_STATE_PLAYING,
    TBL_STATE_CONFIRMING,
    TBL_STATE_SUBMITTED,
    TBL_STATE_PENDING_CONFIRMATION,
    TBL_STATE_DONE,
};

/* Name used in "state NAME" lines. */
const char *tbl_state_name(enum tbl_state s);

/* The hub's answer to the current submission. */
enum tbl_sub_status {
    TBL_SUB_SENT,     /* no ack yet */
    TBL_SUB_ACCEPTED, /* ACCEPTED or DUPLICATE */
    TBL_SUB_PENDING,  /* PENDING_CONFIRMATION */
    TBL_SUB_REFUSED,  /* REJECTED or CONFLICT: back to playing */
};

struct tbl_core_ops {
    void *ctx;
    /* One output line, without the newline. */
    void (*emit)(void *ctx, const char *line);
    /* Stores sub durably (outbox) and sends it.  Returns 0, or a negative
     * error with diag: then the core stays in confirming and says so. */
    int (*submit)(void *ctx, const struct tny_wire_submission *sub,
                  struct tny_diag *diag);
    /* Wall clock, UTC ms, for table_time_ms (display only); NULL = 0. */
    int64_t (*wall_ms)(void *ctx);
};

struct tbl_core {
    struct tbl_core_ops ops;
    char device_id[TNY_WIRE_ID_MAX + 1];
    uint64_t boot; /* from the outbox: keys are {dev}.{boot}.{seq} */
    uint64_t seq;

    bool has_assignment;
    struct tny_wire_assignment asg;
    uint64_t asg_version; /* last applied; 0 = none */
    int64_t asg_recv_ms;
    bool has_game; /* game is valid (a table whose format we know) */
    struct tbl_game game;
    char game_error[sizeof(((struct tny_diag *)0)->msg)];

    /* Latest RoundClock of the assignment's event (owned copy). */
    bool has_round_clock;
    struct tny_wire_clock round_clock;
    int64_t round_clock_recv_ms;

    bool has_clock;
    struct tny_table_clock clock;
    /* AG-14: the round of the assignment whose draft this table started
     * (0 = none); sent to the hub in Presence.draft_round. */
    int32_t draft_round;
    bool expired_shown;
    /* The hub - local offset of the last time sync (docs/protocol.md
     * "Time"); used for every clock message once known. */
    bool has_sync;
    int64_t sync_offset_ms;
    /* A finished table's clock stands still: the local instant its result
     * went to the hub (-1: not finished). */
    int64_t clock_stop_ms;

    bool has_entry; /* result entered, collecting confirmations */
    struct tny_wire_result entry;
    bool confirmed[TNY_MAX_SEATS];

    bool has_sub;
    struct tny_wire_submission sub;
    enum tbl_sub_status sub_status;
    /* The hub's reason when it refused sub (REJECTED/CONFLICT), "" else. */
    enum tny_wire_ack_reason sub_reason;
    char sub_reason_text[TNY_WIRE_NOTE_MAX];

    bool hub_known, hub_online; /* the hub's state topic */

    bool online;
    int32_t queued;
    bool net_shown;
    char net_refused[48]; /* why the broker refused the login, "" */

    enum tbl_state shown; /* last "state" line */
    bool state_shown;
};

/* A time sync answer (tny_clock_sync_offset): from now on clock messages
 * are placed on the local clock with offset_ms; the current clock is
 * placed again at once. */
void tbl_core_time_sync(struct tbl_core *core, int64_t offset_ms,
                        int64_t rtt_ms, int64_t now_ms);

/* Time left on the round clock as the table shows it at now_ms: the
 * clock's, frozen at the moment the table finished (its result sent,
 * pending or accepted) so a finished table's clock stops.  Call
 * tbl_core_follow first.  has_clock must be true. */
int64_t tbl_core_clock_left(const struct tbl_core *core, int64_t now_ms);

/* Notes at now_ms whether the table has finished (stops its clock) or
 * plays again (a refused result: the clock runs on). */
void tbl_core_follow(struct tbl_core *core, int64_t now_ms);

/* Sets up an empty core (state waiting; emits nothing yet).  device_id is
 * copied (a valid id); boot distinguishes runs for the keys. */
void tbl_core_init(struct tbl_core *core, const char *device_id, uint64_t boot,
                   const struct tbl_core_ops *ops);

/* Frees what the core owns. */
void tbl_core_release(struct tbl_core *core);

/* Emits the first "state" line. */
void tbl_core_start(struct tbl_core *core);

/* The derived state. */
enum tbl_state tbl_core_state(const struct tbl_core *core);

/* Applies a decoded assignment received at now_ms (monotonic).  *applied
 * (may be NULL) is false when it was stale (version not above the last
 * applied one).  Emits "assigned", "seat", "clock" and "state" lines. */
void tbl_core_assignment(struct tbl_core *core,
                         const struct tny_wire_assignment *a, int64_t now_ms,
                         bool *applied);

/* The hub removed the retained assignment: back to waiting. */
void tbl_core_clear_assignment(struct tbl_core *core);

/* Applies a decoded RoundClock received at now_ms.  Ignored unless it is
 * for the assignment's event and newer than the last one.
 * Errors: TNY_ENOMEM (copying its extensions). */
TNY_MUST_USE int tbl_core_round_clock(struct tbl_core *core,
                                      const struct tny_wire_clock *c,
                                      int64_t now_ms);

/* Applies a decoded ack (the caller has resolved an empty MALFORMED key
 * to its oldest pending submission).  Emits an "ack" line; changes the
 * state when the key is the current submission's. */
void tbl_core_ack(struct tbl_core *core, const struct tny_wire_ack *ack);

/* After a restart: the outbox's newest submission becomes the current
 * one again, with the hub's answer when it had one (so a table shows
 * "submitted" or "done" once its assignment arrives, not "playing"). */
void tbl_core_restore(struct tbl_core *core,
                      const struct tny_wire_submission *sub,
                      enum tbl_sub_status status);

/* A result entered at the table (playing or confirming): it becomes the
 * entry, every confirmation is cleared.  Errors: TNY_ESTATE (no table, or
 * already submitted/accepted; diag says why); nothing changes then. */
TNY_MUST_USE int tbl_core_enter_result(struct tbl_core *core,
                                       const struct tny_wire_result *r,
                                       struct tny_diag *diag);

/* Player id confirms the entry; the last confirmation submits it
 * (ops.submit).  Errors: TNY_ESTATE (nothing to confirm), TNY_ENOTFOUND
 * (not a player of this table), TNY_EINVAL (already confirmed), or the
 * submit callback's error (the confirmation stays, the entry is kept). */
TNY_MUST_USE int tbl_core_confirm(struct tbl_core *core, const char *id,
                                  struct tny_diag *diag);

/* Player id rejects the entry: it is discarded (state playing).
 * Errors: TNY_ESTATE, TNY_ENOTFOUND as confirm. */
TNY_MUST_USE int tbl_core_reject(struct tbl_core *core, const char *id,
                                 struct tny_diag *diag);

/* The hub's state topic said online or offline: a "hub online|offline"
 * line (every time). */
void tbl_core_set_hub(struct tbl_core *core, bool online);

/* When the hub refused the current table's submission (state playing
 * again): its reason for the players, e.g. "invalid_result: result.vp.p1:
 * ..."; NULL otherwise. */
const char *tbl_core_refusal(const struct tbl_core *core, char *buf,
                             size_t size);

/* Connection and outbox size, for "net" lines (emitted on change). */
void tbl_core_set_net(struct tbl_core *core, bool online, int32_t queued);

/* The broker refused the login for why ("not authorised"; "" once
 * connected): a "net refused WHY" line when it changes, and the status
 * line names it while offline. */
void tbl_core_set_net_refused(struct tbl_core *core, const char *why);

/* What tbl_core_input did. */
enum tbl_input {
    TBL_INPUT_OK,    /* a command ran (its lines were emitted) */
    TBL_INPUT_ERROR, /* refused: one "error ..." line, state unchanged */
    TBL_INPUT_QUIT,  /* "quit" */
};

/* One input line of the line protocol (result, confirm, reject, status,
 * quit, help); blank lines are ignored (OK). */
enum tbl_input tbl_core_input(struct tbl_core *core, const char *line,
                              int64_t now_ms);

/* Emits "clock expired" once when the running countdown reaches 0.
 * Returns the milliseconds until that moment (for poll), or -1 when none
 * is due. */
int64_t tbl_core_tick(struct tbl_core *core, int64_t now_ms);

/* Emits the status block: state, assignment, clock, submission, net. */
void tbl_core_status(struct tbl_core *core, int64_t now_ms);

/* AG-14: this table's time starts with its own draft (an Agricola table
 * with a draft: the hub starts its clock when the table reports it). */
bool tbl_core_per_table_start(const struct tbl_core *core);

/* AG-14: the players start their draft: remembered for the current round
 * (tbl_core_draft_round) so the hub starts this table's clock; prints
 * "draft started round=N".  Errors: TNY_ESTATE (no table, not a table with
 * a draft, already started in this round). */
TNY_MUST_USE int tbl_core_start_draft(struct tbl_core *core,
                                      struct tny_diag *diag);

/* The round whose draft this table started, if it is the assigned round;
 * else 0. */
int32_t tbl_core_draft_round(const struct tbl_core *core);

#endif
