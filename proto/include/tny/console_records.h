/* console_records.h - the records each console command replies with
 * (issue 18 item 3): one shape per kind of reply, its members' names,
 * the kinds of value each may hold and, for a nested record or list,
 * its shape.  A command's description (console_cmds.h, its records
 * column) names its shape; the hub checks every reply it builds against
 * it (hub/service/console.c), tests/hub/test_service.c checks every
 * command's reply, docs/protocol.md lists them (tests/wire/test_wire.c
 * checks the list is this one).
 *
 * What it is: data only (an X-macro, no code); proto/wire_records_shape.c
 * expands it into the shapes' tables and checks records against them
 * (tny_wire_records_check, wire.h).
 *
 *   S(ID, ROOT, members...)
 *     shape TNY_RECS_ID: ROOT is RECORD (a record of the members) or
 *     LIST (a list of records of the members); the members in the order
 *     the hub writes them (the --json text's order), each
 *       TNY_RM(name, KIND)            always there, of that kind
 *       TNY_RM2(name, KIND, KIND)     either kind (a text or null)
 *       TNY_RM_OPT(name, KIND)        there or not
 *       TNY_RM_LIST(name, SHAPE)      a list of records of shape SHAPE
 *     with KIND one of NULL, FLAG, INT, REAL, TEXT, ANY (any value: a
 *     document of its own schema, a result, a log entry's detail).
 *     A record holds no other member.
 */
#ifndef TNY_CONSOLE_RECORDS_H
#define TNY_CONSOLE_RECORDS_H

/* The kinds of value a member may hold (bits). */
enum tny_rec_kind {
    TNY_REC_NULL = 1u << 0,
    TNY_REC_FLAG = 1u << 1,
    TNY_REC_INT = 1u << 2,
    TNY_REC_REAL = 1u << 3,
    TNY_REC_TEXT = 1u << 4,
    TNY_REC_LIST = 1u << 5, /* a list of records of the member's shape */
    TNY_REC_ANY = 1u << 6,  /* any value, any depth */
    TNY_REC_OPT = 1u << 7   /* may be absent */
};

/* clang-format off */
#define TNY_RM(name, k) {name, TNY_REC_##k, TNY_RECS_NONE}
#define TNY_RM2(name, k1, k2) {name, TNY_REC_##k1 | TNY_REC_##k2, TNY_RECS_NONE}
#define TNY_RM_OPT(name, k) {name, TNY_REC_##k | TNY_REC_OPT, TNY_RECS_NONE}
#define TNY_RM_LIST(name, shape) {name, TNY_REC_LIST, TNY_RECS_##shape}

#define TNY_RECORD_SHAPES(S)                                                   \
    /* create_event: the new event, its seed (or imported: true) */            \
    S(CREATED, RECORD, TNY_RM("event", TEXT), TNY_RM_OPT("seed", INT),         \
      TNY_RM_OPT("imported", FLAG))                                            \
    /* list_events */                                                          \
    S(EVENTS, LIST, TNY_RM("id", TEXT), TNY_RM("title", TEXT),                 \
      TNY_RM("format", TEXT), TNY_RM("status", TEXT),                          \
      TNY_RM("players", INT), TNY_RM("rounds", INT), TNY_RM("seed", INT),      \
      TNY_RM("created_ms", INT))                                               \
    /* delete_event */                                                         \
    S(DELETED, RECORD, TNY_RM("event", TEXT), TNY_RM("deleted", FLAG),         \
      TNY_RM("devices_freed", INT), TNY_RM("codes_deleted", INT))              \
    /* import_players, register_player */                                      \
    S(IMPORTED, RECORD, TNY_RM_LIST("imported", PLAYER_ADDED))                 \
    S(PLAYER_ADDED, LIST, TNY_RM("id", TEXT), TNY_RM("name", TEXT),            \
      TNY_RM_OPT("club", TEXT))                                                \
    /* edit_player: the player's texts now */                                  \
    S(PLAYER_EDITED, RECORD, TNY_RM("player", TEXT),                           \
      TNY_RM2("name", TEXT, NULL), TNY_RM2("club", TEXT, NULL),                \
      TNY_RM2("country", TEXT, NULL))                                          \
    /* reopen_round */                                                         \
    S(REOPENED, RECORD, TNY_RM("round", INT), TNY_RM("status", TEXT),          \
      TNY_RM("discarded_draft", INT))                                          \
    /* show_results: every submission of the round's tables */                 \
    S(RESULTS, RECORD, TNY_RM("round", INT),                                   \
      TNY_RM_LIST("results", SUBMISSION))                                      \
    S(SUBMISSION, LIST, TNY_RM("id", INT), TNY_RM("table", INT),               \
      TNY_RM("status", TEXT), TNY_RM("by", TEXT), TNY_RM("source", TEXT),      \
      TNY_RM("time_ms", INT), TNY_RM("result", ANY))                           \
    /* read_log */                                                             \
    S(LOG, RECORD, TNY_RM_LIST("log", LOG_ENTRY))                              \
    S(LOG_ENTRY, LIST, TNY_RM("seq", INT), TNY_RM("time_ms", INT),             \
      TNY_RM("actor", TEXT), TNY_RM("kind", TEXT), TNY_RM("detail", ANY))      \
    /* list_devices */                                                         \
    S(DEVICES, LIST, TNY_RM("id", TEXT), TNY_RM2("event", TEXT, NULL),         \
      TNY_RM("table", INT), TNY_RM("presence", TEXT), TNY_RM("queued", INT),   \
      TNY_RM("assignment_version", INT), TNY_RM("shows_version", INT),         \
      TNY_RM("software", TEXT), TNY_RM("last_seen_ms", INT),                   \
      TNY_RM("detail", TEXT), TNY_RM_OPT("stale", FLAG))                       \
    /* issue_code */                                                           \
    S(CODE_ISSUED, RECORD, TNY_RM("code", TEXT), TNY_RM("device", TEXT),       \
      TNY_RM("event", TEXT), TNY_RM("table", INT), TNY_RM("query", TEXT))      \
    /* list_codes: a player's code has the member from player on */           \
    S(CODES, LIST, TNY_RM("code", TEXT), TNY_RM("table", INT),                 \
      TNY_RM("device", TEXT), TNY_RM("state", TEXT),                           \
      TNY_RM("issued_ms", INT), TNY_RM("issued_by", TEXT),                     \
      TNY_RM("online", FLAG), TNY_RM_OPT("player", TEXT),                      \
      TNY_RM_OPT("login", TEXT), TNY_RM_OPT("signed_in", FLAG),               \
      TNY_RM_OPT("seat", INT), TNY_RM_OPT("seats", INT))                       \
    /* issue_player_code */                                                    \
    S(PLAYER_CODES, LIST, TNY_RM("player", TEXT), TNY_RM("name", TEXT),        \
      TNY_RM("code", TEXT), TNY_RM("login", TEXT), TNY_RM("query", TEXT))      \
    /* list_checkins */                                                        \
    S(CHECKINS, LIST, TNY_RM("player", TEXT), TNY_RM("name", TEXT),            \
      TNY_RM("checked_in", FLAG))                                              \
    /* drop_no_shows: the players dropped */                                   \
    S(DROPPED, LIST, TNY_RM("player", TEXT), TNY_RM("after_round", INT))       \
    /* drop_requests: the waiting requests (name, asked_after_round,          \
     * received_ms), or with confirm the players dropped (after_round) */      \
    S(DROP_REQUESTS, LIST, TNY_RM("player", TEXT),                             \
      TNY_RM_OPT("name", TEXT), TNY_RM_OPT("asked_after_round", INT),          \
      TNY_RM_OPT("received_ms", INT), TNY_RM_OPT("after_round", INT))
/* clang-format on */

/* The shapes: TNY_RECS_NONE (the command replies with no records),
 * then TNY_RECS_CREATED ... */
#define TNY_RECS_ENUM_S(ID, ...) TNY_RECS_##ID,
enum tny_rec_shape {
    TNY_RECS_NONE = 0,
    TNY_RECORD_SHAPES(TNY_RECS_ENUM_S) TNY_RECS_COUNT_
};
#undef TNY_RECS_ENUM_S

/* A member of a shape. */
struct tny_rec_member {
    const char *name;
    unsigned kinds;        /* TNY_REC_* bits */
    enum tny_rec_shape of; /* TNY_REC_LIST: its records' shape */
};

#endif
