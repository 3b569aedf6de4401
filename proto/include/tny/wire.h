/* wire.h - the table and console protocols as engine-typed C structs
 * (docs/protocol.md; proto/common.proto, table.proto, console.proto).
 *
 * Each message has an encode and a decode.  Decode takes untrusted bytes:
 * it checks the size limit, unpacks with protobuf-c, copies into the
 * caller's struct, validates what is structural (presence of required
 * fields, string lengths and character sets, ids [A-Za-z0-9_.-]{1,64},
 * counts such as 2..4 seats, enum values, ranges that hold for every format
 * such as non-negative clocks) and frees the protobuf before returning.
 * Encode validates the same rules, so a peer never sends what the other
 * side would refuse.  What needs the event (is this player at this table,
 * is 37 VP allowed in this format) is tny_wire_result_to_table's and the
 * engine's tny_result_validate.  No generated protobuf-c type appears in
 * this header.
 *
 * Errors: every decode failure is TNY_EINVAL with diag "path: why", the
 * path being the protobuf field names from the message down, e.g.
 * "result_submission.result.ag.players[2].vp: missing" (0-based indices);
 * TNY_ENOMEM only when an allocation fails.  Encode returns TNY_EINVAL for
 * a struct that breaks the rules, TNY_ERANGE when the encoded message would
 * exceed its size limit, TNY_ENOMEM.  On a decode error *out is left empty
 * (zeroed; structs with heap members are released).
 *
 * Strings are NUL-terminated UTF-8 in fixed arrays (their capacity is the
 * limit), except the large console texts (CSV, JSON), which are malloc'd:
 * those structs have a _release function.  Encoded buffers are malloc'd;
 * the caller frees them with free().
 *
 * All functions are pure apart from allocation and may be called from any
 * thread on distinct structs.
 */
#ifndef TNY_WIRE_H
#define TNY_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/clock.h"
#include "tny/catan_board.h"
#include "tny/console_cmds.h"
#include "tny/error.h"
#include "tny/event.h"
#include "tny/format.h"
#include "tny/result_schema.h"

/* ---- limits --------------------------------------------------------- */

/* Largest table-protocol payload (assign, clock, result, ack, presence). */
#define TNY_WIRE_MAX_TABLE_MSG ((size_t)64 * 1024)
/* Largest console request or reply (CSV import, event export). */
#define TNY_WIRE_MAX_CONSOLE_MSG ((size_t)4 * 1024 * 1024)
/* Ids (event, player, device, idempotency and correlation keys):
 * 1..64 characters of [A-Za-z0-9_.-]. */
#define TNY_WIRE_ID_MAX 64
/* Names, titles, clubs, factions and other one-line text: bytes, UTF-8. */
#define TNY_WIRE_TEXT_MAX 200
/* GT-14: a deck list (a line per card, ~70 lines), text with newlines. */
#define TNY_WIRE_DECKLIST_MAX 16384
/* Multi-line texts shown at a table (procedure, each note), reasons. */
#define TNY_WIRE_NOTE_MAX TNY_NOTE_MAX
/* Console reply messages (the size of struct tny_diag's msg). */
#define TNY_WIRE_MESSAGE_MAX 512
/* An event's language code ("pl", "pt_BR") with its NUL. */
#define TNY_WIRE_LANGUAGE_MAX 16
/* Tables with an extension in one RoundClock. */
#define TNY_WIRE_MAX_EXTENSIONS 4096

/* Topic prefix; the protobuf package is tourney.v1. */
#define TNY_WIRE_TOPIC_PREFIX "tourney/v1/"
/* Payloads of tourney/v1/hub/state (plain text, retained; the hub's last
 * will is "offline"). */
#define TNY_WIRE_HUB_ONLINE "online"
#define TNY_WIRE_HUB_OFFLINE "offline"
/* tourney/v1/hub/store (plain text, retained): "ok", or "failing: " and
 * SQLite's reason while the hub's database takes no writes. */
#define TNY_WIRE_HUB_STORE_TOPIC TNY_WIRE_TOPIC_PREFIX "hub/store"
#define TNY_WIRE_HUB_STORE_OK "ok"
#define TNY_WIRE_HUB_STORE_FAILING "failing: "
/* Longest topic tny_wire_topic() writes, with the NUL. */
#define TNY_WIRE_TOPIC_MAX 96

/* ---- shared helpers --------------------------------------------------- */

/* True when s is an id: 1..TNY_WIRE_ID_MAX characters of [A-Za-z0-9_.-]. */
bool tny_wire_id_valid(const char *s);

enum tny_wire_topic {
    TNY_WIRE_TOPIC_HUB_STATE, /* tourney/v1/hub/state (no id) */
    TNY_WIRE_TOPIC_PRESENCE,  /* tourney/v1/device/{id}/presence */
    TNY_WIRE_TOPIC_ASSIGN,    /* tourney/v1/device/{id}/assign */
    TNY_WIRE_TOPIC_RESULT,    /* tourney/v1/device/{id}/result */
    TNY_WIRE_TOPIC_ACK,       /* tourney/v1/device/{id}/ack */
    TNY_WIRE_TOPIC_CLOCK,     /* tourney/v1/event/{id}/clock */
    TNY_WIRE_TOPIC_CTL_REQ,   /* tourney/v1/ctl/{id}/req */
    TNY_WIRE_TOPIC_CTL_RESP,  /* tourney/v1/ctl/{id}/resp */
    TNY_WIRE_TOPIC_TIME_REQ,  /* tourney/v1/time/{login}/req */
    TNY_WIRE_TOPIC_TIME_RESP, /* tourney/v1/time/{login}/resp */
    TNY_WIRE_TOPIC_IDENTIFY,  /* tourney/v1/device/{id}/identify */
    /* Issue 20: a sign-in code's own topics ({login}: web-N or ply-N). */
    TNY_WIRE_TOPIC_CODE_STATUS, /* tourney/v1/code/{login}/status */
    TNY_WIRE_TOPIC_CODE_REQ,    /* tourney/v1/code/{login}/req */
    TNY_WIRE_TOPIC_CODE_ACK,    /* tourney/v1/code/{login}/ack */
    /* a player code's pages signed in or not (Presence, retained) */
    TNY_WIRE_TOPIC_CODE_PRESENCE, /* tourney/v1/code/{login}/presence */
};

/* Writes the topic of kind for id (ignored for HUB_STATE) into buf.
 * Errors: TNY_EINVAL for an invalid id or kind; TNY_ERANGE if size is too
 * small (TNY_WIRE_TOPIC_MAX always suffices). */
TNY_MUST_USE int tny_wire_topic(enum tny_wire_topic kind, const char *id,
                                char *buf, size_t size, struct tny_diag *diag);

/* device/{id}/identify's payload (not protobuf, like hub/state): the
 * device's table number in decimal ASCII, no sign, no leading zero
 * ("12"; "0" = not assigned), 0..TNY_WIRE_IDENTIFY_TABLE_MAX.  Encode
 * writes it into buf (at least 8 bytes) and returns its length (no NUL);
 * decode: Errors: TNY_EINVAL ("identify: why"). */
#define TNY_WIRE_IDENTIFY_TABLE_MAX 100000
size_t tny_wire_encode_identify(int32_t table, char buf[8]);
TNY_MUST_USE int tny_wire_decode_identify(const uint8_t *buf, size_t len,
                                          int32_t *table,
                                          struct tny_diag *diag);

/* Parses a topic written by tny_wire_topic (a received message's topic):
 * *kind and id (a TNY_WIRE_ID_MAX + 1 buffer; "" for HUB_STATE).
 * Errors: TNY_EINVAL for any other topic (diag quotes it). */
TNY_MUST_USE int tny_wire_topic_parse(const char *topic,
                                      enum tny_wire_topic *kind,
                                      char id[TNY_WIRE_ID_MAX + 1],
                                      struct tny_diag *diag);

/* ---- results ----------------------------------------------------------- */

/* One player's values in a result.  Which fields a game uses:
 * NH: army (the army played; an entry exists only for a known army);
 * TX: score + clock_ms (scores), or tp_units (organiser decision), and
 * penalty_units (any); AG: score (VP), ip, bp; CT: score (VP); GT: none
 * (GT results name players in winner_id and games[]).  Points are in
 * 1/1200 TP units (TNY_POINT_SCALE). */
struct tny_wire_result_player {
    char player_id[TNY_WIRE_ID_MAX + 1];
    bool has_score;
    int32_t score;
    int32_t ip, bp;
    bool has_clock;
    int32_t clock_ms;
    bool has_tp;
    int64_t tp_units;
    int64_t penalty_units;
    char army[TNY_NAME_MAX];
};

/* A result as the wire carries it: players named by id, in any order.
 * Invariants after decode (checked before encode; the numeric bounds are
 * the wire_lo..wire_hi of tny/result_schema.h):
 * - NH: winner_id xor draw; hq_diff within +-1000000 (0 for a draw); players[]
 *   0..2 army entries, each with an army name.
 * - TX: default_winner_id set and no entry with a score or TP; or 2 entries
 *   all with a score (clock optional); or 2 entries all with TP; or draw
 *   (seed 001 s13) with entries only for penalties, no score or TP; TP and
 *   penalties 0..100 TP, scores 0..100000, clocks >= 0.
 * - AG: 2..4 entries with VP, IP, BP; CT: 2..4 entries with VP; values
 *   within +-1000000.
 * - GT: winner_id and/or 1..3 games (winner id of each game); no entries.
 * - Player ids valid and distinct within players[]. */
/* A value of a game module's own key (GameResult.values; result_schema.h
 * struct tny_result_ext): key by name; player_id "" for the table's
 * number or flag (0/1), else one player's number of a per-player key. */
#define TNY_WIRE_EXT_MAX (TNY_RESULT_EXT_MAX * TNY_MAX_SEATS)
#define TNY_WIRE_KEY_MAX 32
struct tny_wire_result_ext {
    char key[TNY_WIRE_KEY_MAX + 1];
    char player_id[TNY_WIRE_ID_MAX + 1];
    int64_t value;
};

struct tny_wire_result {
    enum tny_game game;
    int32_t n_players;
    struct tny_wire_result_player players[TNY_MAX_SEATS];
    char winner_id[TNY_WIRE_ID_MAX + 1]; /* NH, GT; "" none */
    bool draw; /* NH, two-player; TX seed 001 s13 (board not restorable) */
    bool intentional_draw, double_loss;          /* two-player */
    int32_t hq_diff;                             /* NH */
    bool modified;                               /* GT-1 */
    char default_winner_id[TNY_WIRE_ID_MAX + 1]; /* TX-5; "" none */
    int32_t n_games;                             /* GT-9 */
    char games[3][TNY_WIRE_ID_MAX + 1];
    int32_t n_lots; /* CM-4: the table's lots, text lines */
    char lots[TNY_MAX_LOTS][TNY_LOT_MAX];
    /* The event's game module's own keys (any game; whether the event's
     * game declares them is tny_wire_result_to_table's check): keys are
     * ids (tny_wire_id_valid) of at most TNY_WIRE_KEY_MAX, (key,
     * player_id) distinct, values within +-TNY_RESULT_ABS_MAX. */
    int32_t n_ext;
    struct tny_wire_result_ext ext[TNY_WIRE_EXT_MAX];
};

/* One key of a wire result (tny/result_schema.h), players named by id:
 * what tny/result_value.h is for struct tny_result, so a writer of wire
 * results walks a game's keys and converts each kind of value once. */
struct tny_wire_result_val {
    bool present;   /* the wire result has the key (a writer emits it) */
    bool flag;      /* FLAG */
    int64_t number; /* NUMBER */
    const char *id; /* PLAYER */
    /* PER_PLAYER, POINTS (1/1200 TP units), ARMY: has[i] when entry i
     * (players[i].player_id) has a value: per[i], or army[i] (ARMY). */
    bool has[TNY_MAX_SEATS];
    int64_t per[TNY_MAX_SEATS];
    const char *army[TNY_MAX_SEATS];
    int32_t n;                           /* PLAYERS, TEXTS: items */
    const char *items[TNY_MAX_LOTS + 3]; /* PLAYERS' ids, TEXTS' lines */
};

/* Key k of r into *v (borrowing r's strings); present false when r does
 * not have it.  A wire draw has no hq_diff; vp, ip and bp are present in
 * every result of a game that has them. */
void tny_wire_result_value_get(const struct tny_wire_result *r,
                               enum tny_result_key k,
                               struct tny_wire_result_val *v);

/* Sets key k of r from v (the reverse of get; strings copied, an id
 * longer than TNY_WIRE_ID_MAX cut): a per-player value goes to the
 * entries i with v->has[i], which must exist (i < r->n_players). */
void tny_wire_result_value_set(struct tny_wire_result *r, enum tny_result_key k,
                               const struct tny_wire_result_val *v);

/* Maps a wire result onto the table the hub assigned (ids -> seats, army
 * names -> format indices, units -> engine points) and validates it with
 * tny_result_validate(ev, stage, ...).  *out is a copy of *assigned with
 * has_result set and the result filled in seat order.  path prefixes
 * messages ("result_submission.result").
 * Errors: TNY_EINVAL: the result is for another game, names a player not
 * at the table or misses one (AG, CT, TX scores), an unknown army, a GT
 * winner that contradicts the games, or anything tny_result_validate
 * refuses; assigned is a bye.  *out is unspecified on error. */
TNY_MUST_USE int
tny_wire_result_to_table(const struct tny_event *ev, enum tny_stage_kind stage,
                         const struct tny_table *assigned,
                         const struct tny_wire_result *in, const char *path,
                         struct tny_table *out, struct tny_diag *diag);

/* The reverse: a table's stored result as a wire result (ack echo, console
 * views).  Errors: TNY_EINVAL if the table has no result, is a bye, or
 * holds a value the wire cannot carry (an army index out of the format). */
TNY_MUST_USE int tny_wire_result_from_table(const struct tny_event *ev,
                                            const struct tny_table *t,
                                            struct tny_wire_result *out,
                                            struct tny_diag *diag);

/* ---- TableAssignment (hub -> table, retained) -------------------------- */

struct tny_wire_seat {
    char player_id[TNY_WIRE_ID_MAX + 1];
    char name[TNY_WIRE_TEXT_MAX + 1];
    char club[TNY_WIRE_TEXT_MAX + 1];
    bool first_player;
    int32_t n_armies; /* NH-10 */
    char armies[TNY_MAX_ARMIES][TNY_NAME_MAX];
    int32_t n_colours; /* TX-10 */
    char colours[2][TNY_NAME_MAX];
    bool colour_blind;
    char faction[TNY_WIRE_TEXT_MAX + 1]; /* GT-14 */
    char agenda[TNY_WIRE_TEXT_MAX + 1];
    bool hook;               /* NH-10: Iron Gang "Hook" swap token declared */
    char side[TNY_NAME_MAX]; /* issue 19: the side played; "" none */
};

/* A device's table for a round.  seats[i] is seat number i + 1 (the wire
 * carries the seat number; decode puts seats in seat order).  table == 0
 * means "no table this round" (idle) and then n_seats == 0; else 2..4
 * seats with distinct player ids, at most one first player.  The clock is
 * this table's (its extension included), present when has_clock. */
struct tny_wire_assignment {
    uint64_t version; /* >= 1; a table ignores versions it has passed */
    char event_id[TNY_WIRE_ID_MAX + 1];
    char event_title[TNY_WIRE_TEXT_MAX + 1];
    char format_name[TNY_NAME_MAX];
    enum tny_game game;
    int32_t round; /* >= 1 */
    enum tny_stage_kind stage;
    char stage_name[TNY_NAME_MAX];
    int32_t table;
    int32_t n_seats;
    struct tny_wire_seat seats[TNY_MAX_SEATS];
    bool has_clock;
    struct tny_clock_msg clock;
    char procedure[TNY_WIRE_NOTE_MAX];
    int32_t n_notes;
    char notes[TNY_MAX_NOTES][TNY_WIRE_NOTE_MAX];
    bool best_of_three;
    int64_t chess_clock_limit_ms, draft_ms, action_ms; /* 0 = none */
    char ct_board[TNY_CT_CODE_LEN + 1]; /* CT-9 board code; "" none */
    /* The counted result when the organiser entered or overrode it:
     * event-file result JSON ("" = none) and who ("organiser:LOGIN"). */
    char organiser_result[TNY_WIRE_NOTE_MAX];
    char organiser_result_by[TNY_WIRE_ID_MAX + 16];
    /* The event's language ("pl"; "" = unset): letters and '_' only. */
    char language[TNY_WIRE_LANGUAGE_MAX];
};

/* The check tny_wire_encode_assignment makes, without encoding (the hub
 * checks a round's assignments before it publishes it).  Errors:
 * TNY_EINVAL with the field's path, as the encode's. */
TNY_MUST_USE int tny_wire_check_assignment(const struct tny_wire_assignment *a,
                                           struct tny_diag *diag);

/* Encodes *in into *buf (malloc'd) and *len.  Errors: TNY_EINVAL,
 * TNY_ERANGE, TNY_ENOMEM (see the top of this file). */
TNY_MUST_USE int
tny_wire_encode_assignment(const struct tny_wire_assignment *in, uint8_t **buf,
                           size_t *len, struct tny_diag *diag);
/* Decodes len bytes (at most TNY_WIRE_MAX_TABLE_MSG) into *out.
 * Errors: TNY_EINVAL ("table_assignment...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_assignment(const uint8_t *buf, size_t len,
                                            struct tny_wire_assignment *out,
                                            struct tny_diag *diag);

/* ---- RoundClock (hub -> tables, retained) ------------------------------ */

struct tny_wire_table_extension {
    int32_t table;        /* >= 1, distinct */
    int64_t extension_ms; /* 0..TNY_CLOCK_MAX_MS */
    /* AG-14 per_table_start: round time run when the table's draft started
     * (0..2 * TNY_CLOCK_MAX_MS), -1 = not started. */
    int64_t start_delay_ms;
    /* Issue 22: the judge paused this one table (a judge call): its clock
     * shows PAUSED with the time it had left at the message's hub_now_ms
     * (extension_ms already counts the pause so far). */
    bool paused;
};

/* An event's round clock: the round-wide reading plus per-table
 * extensions.  extensions is malloc'd after decode (release with
 * tny_wire_clock_release); before encode it is the caller's (borrowed). */
struct tny_wire_clock {
    uint64_t version; /* >= 1, grows per event */
    char event_id[TNY_WIRE_ID_MAX + 1];
    int32_t round; /* >= 1 */
    struct tny_clock_msg clock;
    int32_t n_extensions; /* 0..TNY_WIRE_MAX_EXTENSIONS */
    struct tny_wire_table_extension *extensions;
    /* AG-14: each table's clock starts with its draft (start_delay_ms of
     * its entry); table_ms = length + round extensions (what a table that
     * has not started shows, its own extension added). */
    bool per_table_start;
    int64_t table_ms;
};

/* Frees extensions and zeroes *c (safe on a zeroed struct). */
void tny_wire_clock_release(struct tny_wire_clock *c);

/* One table's clock message: the round reading with that table's
 * extension added (to the deadline when running, to the remaining time
 * otherwise; nothing when unlimited); with per_table_start, shifted by the
 * table's start delay or waiting (tny_clock_msg_table_start); a table the
 * judge paused reads PAUSED with the time it had left at hub_now_ms.
 * Table 0 is the round's own reading. */
void tny_wire_clock_for_table(const struct tny_wire_clock *c, int32_t table,
                              struct tny_clock_msg *out);

TNY_MUST_USE int tny_wire_encode_clock(const struct tny_wire_clock *in,
                                       uint8_t **buf, size_t *len,
                                       struct tny_diag *diag);
/* Decodes into *out (initialised by this function; release it after
 * success).  Errors: TNY_EINVAL ("round_clock...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_clock(const uint8_t *buf, size_t len,
                                       struct tny_wire_clock *out,
                                       struct tny_diag *diag);

/* ---- ResultSubmission (table -> hub) ----------------------------------- */

struct tny_wire_submission {
    char key[TNY_WIRE_ID_MAX + 1]; /* idempotency key */
    char device_id[TNY_WIRE_ID_MAX + 1];
    char event_id[TNY_WIRE_ID_MAX + 1];
    int32_t round;               /* >= 1 */
    int32_t table;               /* >= 1 */
    uint64_t assignment_version; /* 0 = unknown */
    struct tny_wire_result result;
    int32_t n_confirmed; /* 0..4 distinct ids */
    char confirmed[TNY_MAX_SEATS][TNY_WIRE_ID_MAX + 1];
    int64_t table_time_ms; /* 0 = unknown */
};

TNY_MUST_USE int
tny_wire_encode_submission(const struct tny_wire_submission *in, uint8_t **buf,
                           size_t *len, struct tny_diag *diag);
/* Errors: TNY_EINVAL ("result_submission...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_submission(const uint8_t *buf, size_t len,
                                            struct tny_wire_submission *out,
                                            struct tny_diag *diag);
/* The idempotency key of a submission that does not decode (a broken
 * field, larger than TNY_WIRE_MAX_TABLE_MSG: any len), read from the raw
 * fields in order up to the first unparsable byte: true and key set when
 * one is there and is an id.  Lets the hub answer a malformed submission
 * by its key, so the table stops resending it (docs/protocol.md). */
bool tny_wire_peek_submission_key(const uint8_t *buf, size_t len,
                                  char key[TNY_WIRE_ID_MAX + 1]);

/* ---- ResultAck (hub -> table) ------------------------------------------ */

enum tny_wire_ack_status {
    TNY_WIRE_ACK_ACCEPTED = 1,
    TNY_WIRE_ACK_REJECTED,
    TNY_WIRE_ACK_DUPLICATE,
    TNY_WIRE_ACK_CONFLICT,
    TNY_WIRE_ACK_PENDING_CONFIRMATION,
};

enum tny_wire_ack_reason {
    TNY_WIRE_REASON_NONE = 0,
    TNY_WIRE_REASON_MALFORMED,
    TNY_WIRE_REASON_UNKNOWN_EVENT,
    TNY_WIRE_REASON_WRONG_TABLE,
    TNY_WIRE_REASON_WRONG_ROUND,
    TNY_WIRE_REASON_WRONG_PLAYERS,
    TNY_WIRE_REASON_INVALID_RESULT,
    TNY_WIRE_REASON_ALREADY_CONFIRMED,
    TNY_WIRE_REASON_UNCONFIRMED,
    TNY_WIRE_REASON_STALE_ASSIGNMENT,
};

/* Invariants: key valid, or "" only with REJECTED + MALFORMED; ACCEPTED and
 * DUPLICATE have reason NONE; REJECTED and CONFLICT have a reason. */
struct tny_wire_ack {
    char key[TNY_WIRE_ID_MAX + 1];
    enum tny_wire_ack_status status;
    enum tny_wire_ack_reason reason;
    char reason_text[TNY_WIRE_NOTE_MAX];
    char event_id[TNY_WIRE_ID_MAX + 1]; /* "" = not given */
    int32_t round, table;               /* 0 = not given */
    bool has_stored;
    struct tny_wire_result stored; /* the result on record */
};

/* The status as logs name it ("pending_confirmation"); "?" out of range. */
const char *tny_wire_ack_status_name(enum tny_wire_ack_status s);

TNY_MUST_USE int tny_wire_encode_ack(const struct tny_wire_ack *in,
                                     uint8_t **buf, size_t *len,
                                     struct tny_diag *diag);
/* Errors: TNY_EINVAL ("result_ack...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_ack(const uint8_t *buf, size_t len,
                                     struct tny_wire_ack *out,
                                     struct tny_diag *diag);

/* ---- TimeSync (any login <-> hub, docs/protocol.md "Time sync") ------ */

/* A time request (hub_ms 0) or the hub's answer (hub_ms its UTC ms). */
struct tny_wire_time {
    int64_t client_ms; /* the asker's clock, echoed */
    uint64_t nonce;    /* echoed */
    int64_t hub_ms;
};

/* Errors: TNY_EINVAL (an instant outside +-2^53 ms), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_encode_time(const struct tny_wire_time *in,
                                      uint8_t **buf, size_t *len,
                                      struct tny_diag *diag);
/* Errors: TNY_EINVAL (not a TimeSync, client_ms missing, an instant out of
 * range: diag names the field). */
TNY_MUST_USE int tny_wire_decode_time(const uint8_t *buf, size_t len,
                                      struct tny_wire_time *out,
                                      struct tny_diag *diag);

/* ---- a sign-in code's own messages (issue 20, table.proto) ------------ */

enum tny_wire_code_state {
    TNY_WIRE_CODE_VALID = 1,
    TNY_WIRE_CODE_REVOKED,
    TNY_WIRE_CODE_EXPIRED,
    TNY_WIRE_CODE_DROPPED, /* a player code whose player was dropped */
};

/* CodeStatus (hub -> the code's pages, retained on code/{login}/status). */
struct tny_wire_code_status {
    uint64_t version; /* >= 1 */
    enum tny_wire_code_state state;
    char event_id[TNY_WIRE_ID_MAX + 1];
    char event_title[TNY_WIRE_TEXT_MAX + 1];
    char player_id[TNY_WIRE_ID_MAX + 1]; /* "" = a table code */
    char name[TNY_WIRE_TEXT_MAX + 1];
    int32_t round, table, seat; /* 0 = none */
    bool checked_in, drop_requested;
    char table_device[TNY_WIRE_ID_MAX + 1]; /* "" = none or a page */
    /* The event's language ("pl"; "" = unset): letters and '_' only. */
    char language[TNY_WIRE_LANGUAGE_MAX];
    bool bye;           /* the player's bye in `round` (table 0) */
    int64_t bye_points; /* its points, 1/1200 units, 0..1000 points */
};

/* Errors: TNY_EINVAL (diag names the field), TNY_ENOMEM. */
TNY_MUST_USE int
tny_wire_encode_code_status(const struct tny_wire_code_status *in,
                            uint8_t **buf, size_t *len, struct tny_diag *diag);

enum tny_wire_player_request_kind {
    TNY_WIRE_PLAYER_CHECK_IN = 1,
    TNY_WIRE_PLAYER_DROP,
};

/* PlayerRequest (a player code's page -> hub on code/{login}/req). */
struct tny_wire_player_request {
    char idempotency_key[TNY_WIRE_ID_MAX + 1];
    enum tny_wire_player_request_kind kind;
    char event_id[TNY_WIRE_ID_MAX + 1];
    char player_id[TNY_WIRE_ID_MAX + 1];
};

/* Errors: TNY_EINVAL ("player_request...: why"), TNY_ENOMEM. */
TNY_MUST_USE int
tny_wire_encode_player_request(const struct tny_wire_player_request *in,
                               uint8_t **buf, size_t *len,
                               struct tny_diag *diag);
/* Decodes len bytes (at most TNY_WIRE_MAX_TABLE_MSG) into *out.
 * Errors: TNY_EINVAL ("player_request...: why"). */
TNY_MUST_USE int
tny_wire_decode_player_request(const uint8_t *buf, size_t len,
                               struct tny_wire_player_request *out,
                               struct tny_diag *diag);

/* PlayerAck (hub -> that page on code/{login}/ack). */
struct tny_wire_player_ack {
    char idempotency_key[TNY_WIRE_ID_MAX + 1];
    bool accepted;
    char reason_text[TNY_WIRE_NOTE_MAX];
};

/* Errors: TNY_EINVAL, TNY_ENOMEM. */
TNY_MUST_USE int
tny_wire_encode_player_ack(const struct tny_wire_player_ack *in, uint8_t **buf,
                           size_t *len, struct tny_diag *diag);

/* ---- Presence (table -> hub, retained, last will) ---------------------- */

enum tny_wire_presence_state {
    TNY_WIRE_PRESENCE_ONLINE = 1,
    TNY_WIRE_PRESENCE_OFFLINE,
    TNY_WIRE_PRESENCE_ERROR,
};

struct tny_wire_presence {
    char device_id[TNY_WIRE_ID_MAX + 1];
    enum tny_wire_presence_state state;
    int32_t queued_results;                     /* 0..1000000 */
    char software_version[TNY_WIRE_ID_MAX + 1]; /* printable ASCII */
    uint64_t last_assignment_version;
    int64_t device_time_ms; /* 0 = unknown */
    char detail[TNY_WIRE_TEXT_MAX + 1];
    int32_t draft_round; /* AG-14: draft started in this round, 0 = none */
};

TNY_MUST_USE int tny_wire_encode_presence(const struct tny_wire_presence *in,
                                          uint8_t **buf, size_t *len,
                                          struct tny_diag *diag);
/* Errors: TNY_EINVAL ("presence...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_presence(const uint8_t *buf, size_t len,
                                          struct tny_wire_presence *out,
                                          struct tny_diag *diag);

/* ---- ConsoleRequest (console -> hub) ----------------------------------- */

/* The commands, from their descriptions (console_cmds.h), in the order
 * of the list: TNY_WIRE_CMD_CREATE_EVENT ... (the numbers are this
 * process's own; the wire carries console.proto's oneof cases). */
#define TNY_WIRE_CMD_ENUM_W(name, ID, ...) TNY_WIRE_CMD_##ID,
#define TNY_WIRE_CMD_ENUM_L(...)
enum tny_wire_cmd {
    TNY_WIRE_CMD_NONE_ = 0,
    TNY_CONSOLE_COMMANDS(TNY_WIRE_CMD_ENUM_W, TNY_WIRE_CMD_ENUM_L)
        TNY_WIRE_CMD_COUNT_
};
#undef TNY_WIRE_CMD_ENUM_W
#undef TNY_WIRE_CMD_ENUM_L

/* Protobuf name of a command ("create_event"); "?" when out of range. */
const char *tny_wire_cmd_name(enum tny_wire_cmd cmd);

/* A command's description as the protocol and the hub read it
 * (console_cmds.h's W columns). */
struct tny_wire_cmd_info {
    const char *name;           /* console.proto's oneof member */
    enum tny_cmd_event event;   /* where its event comes from */
    bool in_place;              /* the hub changes its model in place */
    unsigned fields;            /* TNY_WF_* bits: the request's fields */
    enum tny_reply_shape reply; /* what an ok reply carries */
    bool json_line;             /* its records' --json on one line */
    bool keeps_players;         /* TNY_CMD_PL_KEPT: players unchanged */
    enum tny_rec_shape records; /* the records of its ok reply */
};

/* The description of cmd; NULL when out of range. */
const struct tny_wire_cmd_info *tny_wire_cmd_info(enum tny_wire_cmd cmd);

/* Issue 18 item 2: the codec is the description's fields walked over
 * console.proto's message (protobuf-c's descriptors).  Checks that cmd's
 * message agrees with its description: every field of the message is a
 * plain field the description names (round, table, player_id, reason,
 * force...: proto/wire_console.c's table, with the type it reads) or one
 * of the command's own code; every plain field the description names is
 * in the message.  Errors: TNY_EINVAL naming the command and field. */
TNY_MUST_USE int tny_wire_cmd_check_message(enum tny_wire_cmd cmd,
                                            struct tny_diag *diag);

/* A player as registered from the console (event-file.md players[]). */
struct tny_wire_player {
    char id[TNY_WIRE_ID_MAX + 1];
    char name[TNY_WIRE_TEXT_MAX + 1];
    char club[TNY_WIRE_TEXT_MAX + 1];
    char country[TNY_WIRE_TEXT_MAX + 1];
    char external_id[TNY_WIRE_TEXT_MAX + 1];
    bool has_rating;
    double rating; /* finite, |rating| <= 1000000 */
    int32_t n_armies;
    char armies[TNY_MAX_ARMIES][TNY_NAME_MAX];
    bool beginner;
    int32_t n_colours;
    char colours[2][TNY_NAME_MAX];
    bool colour_blind;
    char faction[TNY_WIRE_TEXT_MAX + 1];
    char agenda[TNY_WIRE_TEXT_MAX + 1];
    int32_t first_round; /* 0 = next round */
    bool hook;           /* NH-10: Iron Gang "Hook" swap token */
};

/* One console command.  The arguments each command uses (everything else
 * is ignored by encode and zero after decode):
 *   every command   correlation_id, organiser_id; event_id except
 *                   LIST_EVENTS (none), LIST_DEVICES (optional filter)
 *                   and IDENTIFY_DEVICE (ignored)
 *   CREATE_EVENT    event_id = the new id; preset xor format_json; title;
 *                   has_seed + seed; options_json (optional); or instead
 *                   event_json alone (a whole event file: import)
 *   IMPORT_PLAYERS  csv (non-empty, csv_len bytes: text without a NUL byte)
 *   REGISTER_PLAYER player
 *   DROP_PLAYER, DISQUALIFY_PLAYER   player_id, round (after; 0 current),
 *                   reason (DQ, optional)
 *   REJOIN_PLAYER   player_id, round (from; 0 next)
 *   PAIR_ROUND, SHOW_DRAFT, PUBLISH_ROUND, CLOSE_ROUND   round (0 = the
 *                   natural one; CLOSE_ROUND and PUBLISH_ROUND need >= 1)
 *   SWAP_PLAYERS    round >= 1, player_id, other_player_id (distinct),
 *                   force
 *   MOVE_TABLE      round >= 1, table >= 1, to_table >= 1, force
 *   FIX_TABLE       player_id, table (0 = none), force
 *   CLOCK_START, CLOCK_PAUSE, CLOCK_RESUME   round >= 1, table (0 = all;
 *                   PAUSE / RESUME of one table: a judge call)
 *   CLOCK_EXTEND    round >= 1, table (0 = all), extra_ms +-1 ms..30 days
 *                   (negative: an extension taken back)
 *   CLOCK_DRAFT     round >= 1, table >= 1 (AG-14: its draft started)
 *   ENTER_RESULT    round >= 1, table >= 1, result, override, reason
 *   PENALTY         round >= 1, table >= 1, player_id, points_units > 0
 *                   (at most 20 TP), reason
 *   GET_STANDINGS   round (after; 0 latest)
 *   ASSIGN_DEVICE   device_id, table (0 = unassign)
 *   IDENTIFY_DEVICE device_id (event_id optional, ignored)
 *   NEXT_STAGE      confirm (must be true)
 *   EXPORT_EVENT, LIST_DEVICES, LIST_EVENTS   nothing more
 *   DISCARD_DRAFT   round (0 = the draft's), reason
 *   UNPUBLISH_ROUND, REOPEN_ROUND   round >= 1, reason
 *   EDIT_PLAYER     player_id; player.name ("" = unchanged); set_club +
 *                   player.club, set_country + player.country ("" with
 *                   set_ = none); reason; at least one change
 *   SHOW_RESULTS    round >= 1, table (0 = all)
 *   RESOLVE_CONFLICT  round >= 1, table >= 1, result_id >= 1, reason
 *   READ_LOG        after_seq >= 0
 *   DELETE_EVENT    reason (an event no round of which was published)
 *   ISSUE_CODE      table >= 1 (a sign-in code for that table's page)
 *   REVOKE_CODE     code (TNY_WIRE_CODE_MAX characters at most)
 *   LIST_CODES      nothing more
 *   ISSUE_PLAYER_CODE  player_id ("" = every active player without one)
 *   LIST_CHECKINS   nothing more
 *   DROP_NO_SHOWS   reason
 *   DROP_REQUESTS   confirm (drop every requester)
 * Heap members (preset excluded) are malloc'd NUL-terminated UTF-8 after
 * decode and freed by tny_wire_request_release; before encode they are
 * the caller's (borrowed), NULL = absent. */
struct tny_wire_request {
    char correlation_id[TNY_WIRE_ID_MAX + 1];
    char organiser_id[TNY_WIRE_ID_MAX + 1];
    char event_id[TNY_WIRE_ID_MAX + 1];
    enum tny_wire_cmd cmd;

    char preset[TNY_NAME_MAX];
    char *format_json;
    char *event_json; /* CREATE_EVENT: a whole event file (import) */
    char *options_json;
    char *csv;
    size_t csv_len; /* bytes of csv when a NUL byte is inside (the hub's
                       CSV reader then refuses it with its line); 0 =
                       strlen(csv) */
    char *decklist; /* REGISTER_PLAYER: GT-14 deck list or NULL, at most
                       TNY_WIRE_DECKLIST_MAX bytes */
    char title[TNY_WIRE_TEXT_MAX + 1];
    char language[TNY_WIRE_LANGUAGE_MAX]; /* CREATE_EVENT; "" = unset */
    bool has_seed;
    uint64_t seed;
    struct tny_wire_player player;
    char player_id[TNY_WIRE_ID_MAX + 1];
    char other_player_id[TNY_WIRE_ID_MAX + 1];
    char device_id[TNY_WIRE_ID_MAX + 1];
    char code[TNY_WIRE_ID_MAX + 1]; /* REVOKE_CODE */
    int32_t round, table, to_table;
    int64_t extra_ms;
    int64_t points_units;
    bool override, confirm;
    bool force;                 /* SWAP_PLAYERS, MOVE_TABLE, FIX_TABLE */
    bool set_club, set_country; /* EDIT_PLAYER */
    int64_t result_id;          /* RESOLVE_CONFLICT */
    int64_t after_seq;          /* READ_LOG */
    char reason[TNY_WIRE_NOTE_MAX];
    struct tny_wire_result result;
};

/* Frees the heap members (with free()) and zeroes *req. */
void tny_wire_request_release(struct tny_wire_request *req);

TNY_MUST_USE int tny_wire_encode_request(const struct tny_wire_request *in,
                                         uint8_t **buf, size_t *len,
                                         struct tny_diag *diag);
/* Decodes len bytes (at most TNY_WIRE_MAX_CONSOLE_MSG) into *out, which
 * this initialises; release it after success.
 * Errors: TNY_EINVAL ("console_request...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_request(const uint8_t *buf, size_t len,
                                         struct tny_wire_request *out,
                                         struct tny_diag *diag);
/* The correlation id of a request that does not decode (any len), as
 * tny_wire_peek_submission_key: so the hub can answer it with the
 * reason instead of leaving the console to time out. */
bool tny_wire_peek_correlation_id(const uint8_t *buf, size_t len,
                                  char id[TNY_WIRE_ID_MAX + 1]);

/* ---- ConsoleReply (hub -> console) ------------------------------------- */

/* Typed replies (issue 18 item 3): one struct per reply shape of the
 * commands' descriptions (console_cmds.h TNY_REPLY_*), console.proto's
 * messages of the same names.  Every heap member (char * and arrays)
 * belongs to the struct on both sides: the hub builds it with malloc'd
 * copies, the decoder allocates it, tny_wire_reply_release frees it.
 * Texts from the event (ids, names) are checked as UTF-8 only: they are
 * the event's as it holds them. */

/* A clock as a reply shows it: state and time left when the hub answered
 * (negative: overtime). */
struct tny_wire_time_left {
    bool has;
    enum tny_round_clock_state state;
    int64_t left_ms;
};

/* A round's status in a seating (console.proto RoundStatus). */
enum tny_wire_round_status {
    TNY_WIRE_ROUND_NONE, /* a draft: no status */
    TNY_WIRE_ROUND_DRAFT,
    TNY_WIRE_ROUND_PUBLISHED,
    TNY_WIRE_ROUND_STARTED,
    TNY_WIRE_ROUND_CLOSED
};

/* One table: table >= 1 with 1..TNY_MAX_SEATS players, or a bye (table
 * 0, players[0] has it, n_players 1). */
struct tny_wire_seated_table {
    int32_t table;
    int32_t n_players;
    char *players[TNY_MAX_SEATS];
    int32_t n_sides; /* 0 or 2: seat i's side */
    char *sides[2];
    char *first_player;              /* NULL = not given */
    struct tny_wire_time_left clock; /* its own, where it differs */
};

struct tny_wire_player_name {
    char *id;
    char *name;
};

/* TNY_REPLY_DRAFT: a round's seating.  A draft has explain (maybe "")
 * and status NONE; a round sent to the tables has a status and maybe
 * the clock; after an edit of a published round (republished) only round
 * is set. */
struct tny_wire_seating {
    int32_t round; /* >= 1 */
    bool has_stage;
    enum tny_stage_kind stage;
    enum tny_wire_round_status status;
    struct tny_wire_time_left clock;
    int32_t n_tables;
    struct tny_wire_seated_table *tables;
    char *explain; /* NULL: not a draft */
    int32_t n_names;
    struct tny_wire_player_name *names; /* every player of the event */
    bool republished;
};

/* One row of the standings (event-file.md "Output"). */
struct tny_wire_standing_row {
    int32_t rank; /* >= 1 */
    char *player; /* the player's id */
    char *name;
    int64_t points_units;                 /* TNY_POINT_SCALE units */
    bool has_tiebreak[TNY_MAX_TIEBREAKS]; /* false: not applicable */
    double tiebreaks[TNY_MAX_TIEBREAKS];  /* finite */
    bool dropped, decided_by_lot, disqualified, separate_list;
    int32_t side_games[2]; /* n_sides == 2: games played on each side */
};

/* TNY_REPLY_STANDINGS: the standings after after_round rounds. */
struct tny_wire_standings {
    int32_t after_round;
    enum tny_stage_kind stage;
    int32_t n_tiebreaks;
    enum tny_tiebreak tiebreaks[TNY_MAX_TIEBREAKS]; /* the columns */
    int32_t n_sides;                                /* 0 or 2 */
    char *sides[2];
    int32_t n_rows;
    struct tny_wire_standing_row *rows; /* rank order */
};

/* TNY_REPLY_PUBLISHED: the round sent to the tables. */
struct tny_wire_published {
    int32_t round; /* >= 1 */
    int32_t n_assigned;
    int32_t *tables; /* n_assigned table numbers >= 1 */
    char **devices;  /* the device showing each */
    int32_t n_missing;
    int32_t *missing; /* tables without a device */
    int32_t idle_devices;
};

/* TNY_REPLY_RECORDS (and a NONE reply's record): typed values by name,
 * the JSON object model without its text (console.proto Records), flat
 * in pre-order: a RECORD or LIST node is followed by its n children,
 * each a whole subtree; a record's children have keys, a list's and the
 * root have none. */
enum tny_wire_node_kind {
    TNY_WIRE_NODE_NULL,
    TNY_WIRE_NODE_FLAG,
    TNY_WIRE_NODE_INTEGER,
    TNY_WIRE_NODE_REAL,
    TNY_WIRE_NODE_TEXT,
    TNY_WIRE_NODE_RECORD,
    TNY_WIRE_NODE_LIST
};

struct tny_wire_node {
    char *key; /* a record's member: its name (UTF-8); else NULL */
    enum tny_wire_node_kind kind;
    bool flag;
    int64_t integer;
    double real; /* finite */
    char *text;  /* UTF-8 */
    int32_t n;   /* RECORD, LIST: its children */
};

/* Deepest nesting of records and lists a reply may hold. */
#define TNY_WIRE_RECORDS_DEPTH 16

struct tny_wire_records {
    int32_t n_nodes;
    struct tny_wire_node *nodes; /* nodes[0] is the root */
};

/* Issue 18 item 3: checks r (NULL: none) against shape, a command's
 * declared records (console_records.h): none for TNY_RECS_NONE, else one
 * record (a list of records) holding exactly the shape's members, in its
 * order (an optional one may be missing), each of a kind it allows, a
 * nested list's records of their shape.  path names the root in the
 * message ("list_events's records").  Errors: TNY_EINVAL "PATH[i].key:
 * what is wrong". */
TNY_MUST_USE int tny_wire_records_check_shape(const struct tny_wire_records *r,
                                              enum tny_rec_shape shape,
                                              const char *path,
                                              struct tny_diag *diag);
/* The shapes' table itself: each shape has members, unique names, kinds
 * among TNY_REC_*, a list member naming a LIST shape.  TNY_EINVAL says
 * which. */
TNY_MUST_USE int tny_wire_records_shapes_check(struct tny_diag *diag);
/* shape as docs/protocol.md lists it ("[{id: text, club?: text, name:
 * text|null, log: [{...}]}]", "none" for TNY_RECS_NONE) into dst (cap
 * bytes); returns its length, TNY_ERANGE when it does not fit. */
TNY_MUST_USE int tny_wire_records_shape_text(enum tny_rec_shape shape,
                                             char *dst, size_t cap);

/* n_nodes zeroed nodes (NULL nodes' strings), NULL when out of memory;
 * freed with tny_wire_records_free (NULL: nothing). */
struct tny_wire_records *tny_wire_records_new(int32_t n_nodes);
void tny_wire_records_free(struct tny_wire_records *r);

/* rc is 0 or a negative enum tny_error (the wire carries it positive);
 * message is the diagnostic (required when rc != 0).  json is malloc'd
 * after decode (release with tny_wire_reply_release), borrowed before
 * encode, NULL = absent.  The typed payload (seating...) is owned on
 * both sides (above), NULL = absent. */
struct tny_wire_reply {
    char correlation_id[TNY_WIRE_ID_MAX + 1];
    int rc;
    char message[TNY_WIRE_MESSAGE_MAX];
    char *json;
    char event_id[TNY_WIRE_ID_MAX + 1]; /* "" = not given */
    int32_t round;                      /* 0 = not given */
    uint64_t count;
    struct tny_wire_seating *seating;     /* TNY_REPLY_DRAFT */
    struct tny_wire_standings *standings; /* TNY_REPLY_STANDINGS */
    struct tny_wire_published *published; /* TNY_REPLY_PUBLISHED */
    struct tny_wire_records *records;     /* TNY_REPLY_RECORDS... */
};

/* Frees json and the typed payload and zeroes *rep. */
void tny_wire_reply_release(struct tny_wire_reply *rep);
/* Frees the typed payload alone (seating...), setting it NULL: the hub
 * before it answers with an error instead. */
void tny_wire_reply_drop_payload(struct tny_wire_reply *rep);
/* A publish summary of n_assigned devices (zeroed) and n_missing tables,
 * NULL when out of memory; freed with tny_wire_published_free. */
struct tny_wire_published *tny_wire_published_new(int32_t n_assigned,
                                                  int32_t n_missing);
void tny_wire_published_free(struct tny_wire_published *p);
/* Frees standings and everything they hold (NULL: nothing). */
void tny_wire_standings_free(struct tny_wire_standings *s);
/* Standings with n_rows zeroed rows, NULL when out of memory. */
struct tny_wire_standings *tny_wire_standings_new(int32_t n_rows);
/* Frees a seating and everything it holds (NULL: nothing). */
void tny_wire_seating_free(struct tny_wire_seating *s);
/* A seating with n_tables zeroed tables and n_names zeroed names (each
 * string NULL), NULL when out of memory. */
struct tny_wire_seating *tny_wire_seating_new(int32_t n_tables,
                                              int32_t n_names);

TNY_MUST_USE int tny_wire_encode_reply(const struct tny_wire_reply *in,
                                       uint8_t **buf, size_t *len,
                                       struct tny_diag *diag);
/* Errors: TNY_EINVAL ("console_reply...: why"), TNY_ENOMEM. */
TNY_MUST_USE int tny_wire_decode_reply(const uint8_t *buf, size_t len,
                                       struct tny_wire_reply *out,
                                       struct tny_diag *diag);

#endif
