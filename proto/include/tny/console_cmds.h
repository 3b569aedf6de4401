/* console_cmds.h - one description per console command (issue 18): the
 * list from which the protocol's command enum and names (wire.h,
 * wire_console.c), the hub's dispatch table (hub/service/console.c) and
 * the command line's table (hub/cli/console.c: words, synopsis, options,
 * help, runner, how the reply prints) are all built, as redis builds its
 * command table from one description per command.
 *
 * What it is: data only (X-macros, no code); each includer defines W and
 * L to take the columns it needs, expands TNY_CONSOLE_COMMANDS(W, L) and
 * undefines them.  The list is in the order of `tourney live --help`.
 *
 *   W(name, ID, event, in_place, players, fields, reply, records,
 *     group, verb, synopsis, min_pos, max_pos, opts, help, run)
 *     a command of the console protocol (console.proto's ConsoleRequest
 *     oneof member `name`, TNY_WIRE_CMD_ID):
 *       event     TNY_CMD_EV_NONE (no event_id), _OPTIONAL (a filter or
 *                 ignored), _NEW (the id of the event it creates),
 *                 _EXISTING (the hub loads the event first)
 *       in_place  the hub's handler cmd_<name> checks everything before
 *                 its first write and changes the model in place (issue
 *                 17; no snapshot of the service's memory)
 *       players   TNY_CMD_PL_KEPT: it never changes the event's players
 *                 (their generation stays, the feed copies them not
 *                 again: a read, a clock, a result); TNY_CMD_PL_CHANGED:
 *                 after it succeeded they get a new generation
 *                 (tests/hub/test_service.c checks every KEPT command)
 *       fields    the request's fields it carries (TNY_WF_* bits; every
 *                 other field is ignored by encode, zero after decode:
 *                 tests/wire/test_wire.c checks both directions, and
 *                 that the message has exactly these fields), with
 *                 TNY_WF_ROUND_REQ / _TABLE_REQ where they must be >= 1
 *       reply     what its ok reply carries and how the command line
 *                 prints it (TNY_REPLY_*, | TNY_REPLY_JSON_LINE: --json
 *                 on one line)
 *       records   the records its ok reply holds (console_records.h:
 *                 TNY_RECS_NONE, or a shape naming each member and its
 *                 kind); the hub checks each reply against it
 *       group..run  its command line: `tourney live GROUP [VERB]`, the
 *                 synopsis, the positional count, the options array
 *                 (console.c's o_*), the help line and the runner
 *                 (console.c's run_*); verb NULL = a one-word command
 *   L(group, verb, synopsis, min_pos, max_pos, opts, help, run)
 *     a command of the command line only, made of protocol commands
 *     (`event import` sends create_event, `players list` export_event...)
 *     or of none (`wait-hub`).
 *
 * Adding a console command: one W line here, its message in
 * console.proto (its fields are plain ones the codec walks by name,
 * proto/wire_console.c), its handler cmd_<name> in hub/service/console.c,
 * its runner in hub/cli/console.c (run_plain when its words and options
 * are its plain fields: --reason, --force, --confirm, --round, --table;
 * and the reply says it all), its records' shape when it replies with
 * records (console_records.h; its line in docs/protocol.md), a test
 * (docs/architecture.md "Adding a console command").
 */
#ifndef TNY_CONSOLE_CMDS_H
#define TNY_CONSOLE_CMDS_H

#include "tny/console_records.h" /* the records column */

/* Where a command's event comes from. */
enum tny_cmd_event {
    TNY_CMD_EV_NONE,
    TNY_CMD_EV_OPTIONAL,
    TNY_CMD_EV_NEW,
    TNY_CMD_EV_EXISTING
};

/* Whether a command changes the event's players (the players column). */
enum tny_cmd_players { TNY_CMD_PL_CHANGED, TNY_CMD_PL_KEPT };

/* The request's fields (struct tny_wire_request, wire.h) a command
 * carries, beyond correlation_id, organiser_id and event_id. */
enum tny_wire_field {
    TNY_WF_PRESET = 1u << 0, /* preset xor format_json xor event_json */
    TNY_WF_FORMAT_JSON = 1u << 1,
    TNY_WF_EVENT_JSON = 1u << 2,
    TNY_WF_OPTIONS_JSON = 1u << 3,
    TNY_WF_TITLE = 1u << 4,
    TNY_WF_LANGUAGE = 1u << 5,
    TNY_WF_SEED = 1u << 6,   /* has_seed, seed */
    TNY_WF_CSV = 1u << 7,    /* csv, csv_len */
    TNY_WF_PLAYER = 1u << 8, /* the whole player entry */
    TNY_WF_DECKLIST = 1u << 9,
    TNY_WF_PLAYER_ID = 1u << 10,
    TNY_WF_OTHER_PLAYER_ID = 1u << 11,
    TNY_WF_DEVICE_ID = 1u << 12,
    TNY_WF_CODE = 1u << 13,
    TNY_WF_ROUND = 1u << 14,
    TNY_WF_TABLE = 1u << 15,
    TNY_WF_TO_TABLE = 1u << 16,
    TNY_WF_EXTRA_MS = 1u << 17,
    TNY_WF_POINTS = 1u << 18, /* points_units */
    TNY_WF_OVERRIDE = 1u << 19,
    TNY_WF_CONFIRM = 1u << 20,
    TNY_WF_FORCE = 1u << 21,
    TNY_WF_RESULT = 1u << 22,
    TNY_WF_REASON = 1u << 23,
    TNY_WF_RESULT_ID = 1u << 24,
    TNY_WF_AFTER_SEQ = 1u << 25,
    TNY_WF_ARMIES = 1u << 26, /* player.armies alone (NH-11) */
    TNY_WF_EDIT = 1u << 27,   /* player.name, club, country, set_club,
                                 set_country (EDIT_PLAYER) */
    /* Not fields: their rules.  The round (the table) is required, >= 1;
     * without, 0 means "the natural one" (every table). */
    TNY_WF_ROUND_REQ = 1u << 28,
    TNY_WF_TABLE_REQ = 1u << 29,
    /* confirm must be true (an act that cannot be undone). */
    TNY_WF_CONFIRM_REQ = 1u << 30,
};

/* What an ok reply carries (beyond its message, a note) and how the
 * command line shows it without --json. */
enum tny_reply_shape {
    TNY_REPLY_NONE,      /* the command's line says it all */
    TNY_REPLY_RECORDS,   /* json: a record or a list of records */
    TNY_REPLY_DRAFT,     /* round; json: a round's seating (a draft) */
    TNY_REPLY_PUBLISHED, /* json: the publish summary or the seating */
    TNY_REPLY_STANDINGS, /* json: the standings; message: its title */
    TNY_REPLY_EVENT      /* json: the event file, printed as is */
};

/* Beside the shape in a description's reply column: the reply's records
 * print as one line of JSON with --json (the others indented by 2), as
 * the hub wrote them when they were JSON text.  tny_wire_cmd_info splits
 * the two (its reply, its json_line). */
#define TNY_REPLY_JSON_LINE 0x100

/* Shorthands of the list's fields. */
#define TNY_CC_R TNY_WF_ROUND
#define TNY_CC_T TNY_WF_TABLE
#define TNY_CC_WHY TNY_WF_REASON
#define TNY_CC_P TNY_WF_PLAYER_ID
#define TNY_CC_R1 (TNY_WF_ROUND | TNY_WF_ROUND_REQ)
#define TNY_CC_T1 (TNY_WF_TABLE | TNY_WF_TABLE_REQ)
#define TNY_CC_REC1 (TNY_REPLY_RECORDS | TNY_REPLY_JSON_LINE)
#define TNY_CC_NONE1 (TNY_REPLY_NONE | TNY_REPLY_JSON_LINE)

/* clang-format off */
#define TNY_CONSOLE_COMMANDS(W, L)                                             \
    W(create_event, CREATE_EVENT, TNY_CMD_EV_NEW, true, TNY_CMD_PL_CHANGED,    \
      TNY_WF_PRESET | TNY_WF_FORMAT_JSON | TNY_WF_EVENT_JSON |                 \
          TNY_WF_OPTIONS_JSON | TNY_WF_TITLE | TNY_WF_LANGUAGE | TNY_WF_SEED,  \
      TNY_REPLY_NONE, TNY_RECS_CREATED, "event", "create",                     \
      "--format NAME|--format-file F [--title T] [--seed S] [--options "       \
          "JSON|--options-file F] [--language pl|hu|nb|cs|en] EVENT_ID", 1, 1, \
      o_create, "create an event (no --seed: the hub draws one, CM-4)",        \
      run_event_create)                                                        \
    L("event", "import", "EVENT_ID FILE [--from listfortress|cryodex|nrtm]",   \
      2, 2, o_import,                                                          \
      "create an event from an event file, or from another tool's file",       \
      run_event_import)                                                        \
    W(list_events, LIST_EVENTS, TNY_CMD_EV_NONE, true, TNY_CMD_PL_KEPT, 0,     \
      TNY_REPLY_RECORDS, TNY_RECS_EVENTS, "event", "list", "", 0, 0, o_none,   \
      "the hub's events", run_plain)                                           \
    W(delete_event, DELETE_EVENT, TNY_CMD_EV_EXISTING, true,                   \
      TNY_CMD_PL_CHANGED, TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_DELETED,     \
      "event", "delete", "EVENT_ID [--reason T]", 1, 1, o_reason,              \
      "delete a mistyped event (none of its rounds published; audited)",       \
      run_event_delete)                                                        \
    W(import_players, IMPORT_PLAYERS, TNY_CMD_EV_EXISTING, true,               \
      TNY_CMD_PL_CHANGED, TNY_WF_CSV, TNY_CC_REC1, TNY_RECS_IMPORTED,          \
      "players", "import", "EVENT_ID FILE.csv", 2, 2, o_none,                  \
      "register players from a CSV file (header id,name,club,... in any "      \
          "case, or Player,Team,Country,Rating: ids made up; - = stdin)",      \
      run_players_import)                                                      \
    L("players", "list", "EVENT_ID", 1, 1, o_none,                             \
      "every player: id, name, club, country, rating, dropped or "             \
          "disqualified", run_players_list)                                    \
    W(register_player, REGISTER_PLAYER, TNY_CMD_EV_EXISTING, true,             \
      TNY_CMD_PL_CHANGED, TNY_WF_PLAYER | TNY_WF_DECKLIST, TNY_REPLY_RECORDS,  \
      TNY_RECS_NONE, "player", "add",                                          \
      "EVENT_ID PLAYER_ID NAME [--club C] [--country C] [--rating R] "         \
      "[--army "                                                               \
          "A]... [--beginner] [--hook] [--colour C]... [--colour-blind] "      \
          "[--faction F] "                                                     \
          "[--agenda A] [--decklist FILE] [--first-round N] [--external-id "   \
      "X]", 3, 3, o_add, "register one player, also a late entry (CM-1)",      \
      run_player_add)                                                          \
    W(drop_player, DROP_PLAYER, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED, \
      TNY_CC_P | TNY_CC_R | TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_NONE,      \
      "player", "drop", "EVENT_ID PLAYER_ID [--after-round N] [--reason T]",   \
      2, 2, o_after, "drop a player (CM-2; default after the current round)",  \
      run_player_drop)                                                         \
    W(disqualify_player, DISQUALIFY_PLAYER, TNY_CMD_EV_EXISTING, true,         \
      TNY_CMD_PL_CHANGED, TNY_CC_P | TNY_CC_R | TNY_CC_WHY, TNY_REPLY_RECORDS, \
      TNY_RECS_NONE, "player", "dq",                                           \
      "EVENT_ID PLAYER_ID [--after-round N] [--reason TEXT]", 2, 2, o_dq,      \
      "disqualify a player (CM-3)", run_player_dq)                             \
    W(declare_armies, DECLARE_ARMIES, TNY_CMD_EV_EXISTING, true,               \
      TNY_CMD_PL_CHANGED, TNY_CC_P | TNY_WF_ARMIES, TNY_REPLY_RECORDS,         \
      TNY_RECS_NONE, "player", "declare", "EVENT_ID PLAYER_ID --army A...", 2, \
      2, o_declare,                                                            \
      "NH-11: the armies for the knockout (3 for a top 4, 4 for a top 8), "    \
          "before its first round", run_player_declare)                        \
    W(rejoin_player, REJOIN_PLAYER, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_CHANGED, TNY_CC_P | TNY_CC_R, TNY_REPLY_RECORDS,              \
      TNY_RECS_NONE, "player", "rejoin",                                       \
      "EVENT_ID PLAYER_ID [--from-round N]", 2, 2, o_from,                     \
      "bring a dropped player back (GT-11; default the next round)",           \
      run_player_rejoin)                                                       \
    W(edit_player, EDIT_PLAYER, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED, \
      TNY_CC_P | TNY_WF_EDIT | TNY_CC_WHY, TNY_REPLY_NONE,                     \
      TNY_RECS_PLAYER_EDITED, "player", "edit",                                \
      "EVENT_ID PLAYER_ID [--name N] [--club C] [--country C] [--reason T]",   \
      2, 2, o_edit,                                                            \
      "rename a player or fix a club or country, any time (\"\" = none)",      \
      run_player_edit)                                                         \
    W(pair_round, PAIR_ROUND, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,   \
      TNY_CC_R, TNY_REPLY_DRAFT, TNY_RECS_NONE, "round", "pair",               \
      "EVENT_ID [--round N]", 1, 1, o_round,                                   \
      "pair the next round as a draft (not yet sent to the tables)",           \
      run_round_pair)                                                          \
    W(show_draft, SHOW_DRAFT, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,      \
      TNY_CC_R, TNY_REPLY_DRAFT, TNY_RECS_NONE, "round", "show",               \
      "EVENT_ID [--round N]", 1, 1, o_round, "show the draft (or round N)",    \
      run_plain)                                                               \
    W(swap_players, SWAP_PLAYERS, TNY_CMD_EV_EXISTING, true,                   \
      TNY_CMD_PL_CHANGED, TNY_CC_R1 | TNY_CC_P | TNY_WF_OTHER_PLAYER_ID |      \
          TNY_WF_FORCE, TNY_REPLY_DRAFT, TNY_RECS_NONE, "round", "swap",       \
      "EVENT_ID ROUND PLAYER_A PLAYER_B [--force]", 4, 4, o_force,             \
      "swap two players in the draft (a rematch needs --force)",               \
      run_round_swap)                                                          \
    W(move_table, MOVE_TABLE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,   \
      TNY_CC_R1 | TNY_CC_T1 | TNY_WF_TO_TABLE | TNY_WF_FORCE, TNY_REPLY_DRAFT, \
      TNY_RECS_NONE, "round", "move",                                          \
      "EVENT_ID ROUND TABLE TO_TABLE [--force]", 4, 4, o_force,                \
      "renumber a table (a broken physical table); onto a seated table the "   \
          "two swap numbers", run_round_move)                                  \
    W(fix_table, FIX_TABLE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,     \
      TNY_CC_P | TNY_CC_T | TNY_WF_FORCE, TNY_REPLY_RECORDS, TNY_RECS_NONE,    \
      "round", "fix", "EVENT_ID PLAYER_ID TABLE [--force]", 3, 3, o_force,     \
      "seat a player always at TABLE (CM-5; 0 = no longer)", run_round_fix)    \
    W(discard_draft, DISCARD_DRAFT, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_CHANGED, TNY_CC_R | TNY_CC_WHY, TNY_REPLY_RECORDS,            \
      TNY_RECS_NONE, "round", "discard", "EVENT_ID [--round N] [--reason T]",  \
      1, 1, o_discard, "delete the draft (pair again)", run_round_discard)     \
    W(unpublish_round, UNPUBLISH_ROUND, TNY_CMD_EV_EXISTING, true,             \
      TNY_CMD_PL_CHANGED, TNY_CC_R1 | TNY_CC_WHY, TNY_REPLY_DRAFT,             \
      TNY_RECS_NONE, "round", "unpublish",                                     \
      "EVENT_ID [--round N] [--reason T]", 1, 1, o_discard,                    \
      "take a published round whose clock never started back to a draft "      \
          "(tables wait again)", run_round_unpublish)                          \
    W(reopen_round, REOPEN_ROUND, TNY_CMD_EV_EXISTING, true,                   \
      TNY_CMD_PL_CHANGED, TNY_CC_R1 | TNY_CC_WHY, TNY_REPLY_NONE,              \
      TNY_RECS_REOPENED, "round", "reopen", "EVENT_ID ROUND [--reason T]", 2,  \
      2, o_reason,                                                             \
      "take a closed round back in play: its tables report again, a next "     \
          "round's draft is discarded (refused while a later round is "        \
          "published, CM-5; one result: `result enter --override`, no "        \
      "reopen)", run_round_reopen)                                             \
    W(publish_round, PUBLISH_ROUND, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_CHANGED, TNY_CC_R1, TNY_REPLY_PUBLISHED, TNY_RECS_NONE,       \
      "round", "publish", "EVENT_ID [--round N]", 1, 1, o_round,               \
      "send the draft to the tables (default: the draft's round)",             \
      run_round_publish)                                                       \
    W(close_round, CLOSE_ROUND, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED, \
      TNY_CC_R1, TNY_REPLY_RECORDS, TNY_RECS_NONE, "round", "close",           \
      "EVENT_ID [--round N]", 1, 1, o_round,                                   \
      "close the round (default: the current round)", run_round_close)         \
    W(next_stage, NEXT_STAGE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,   \
      TNY_WF_CONFIRM | TNY_WF_CONFIRM_REQ, TNY_REPLY_DRAFT, TNY_RECS_NONE,     \
      "stage", "next", "EVENT_ID --confirm", 1, 1, o_confirm,                  \
      "move to the next stage (Swiss -> cut, ...)", run_stage_next)            \
    W(clock_start, CLOCK_START, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,    \
      TNY_CC_R1 | TNY_CC_T | TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_NONE,     \
      "clock", "start", "EVENT_ID [--table N] [--round N] [--reason T]", 1, 1, \
      o_clock,                                                                 \
      "start the round clock (CM-7; default every table, current round)",      \
      run_clock_start)                                                         \
    W(clock_pause, CLOCK_PAUSE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,    \
      TNY_CC_R1 | TNY_CC_T | TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_NONE,     \
      "clock", "pause", "EVENT_ID [--table N] [--round N] [--reason T]", 1, 1, \
      o_clock, "pause the clock", run_clock_pause)                             \
    W(clock_resume, CLOCK_RESUME, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,  \
      TNY_CC_R1 | TNY_CC_T | TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_NONE,     \
      "clock", "resume", "EVENT_ID [--table N] [--round N] [--reason T]", 1,   \
      1, o_clock, "resume the clock", run_clock_resume)                        \
    W(clock_draft, CLOCK_DRAFT, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,    \
      TNY_CC_R1 | TNY_CC_T1 | TNY_CC_WHY, TNY_REPLY_RECORDS, TNY_RECS_NONE,    \
      "clock", "draft", "EVENT_ID --table N [--round N]", 1, 1, o_clock,       \
      "AG-14: table N's draft started: its own clock starts now",              \
      run_clock_draft)                                                         \
    W(clock_extend, CLOCK_EXTEND, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,  \
      TNY_CC_R1 | TNY_CC_T | TNY_WF_EXTRA_MS | TNY_CC_WHY, TNY_REPLY_RECORDS,  \
      TNY_RECS_NONE, "clock", "extend",                                        \
      "EVENT_ID DURATION [--table N] [--round N] [--undo] [--reason T]", 2, 2, \
      o_clock_extend,                                                          \
      "extend: minutes (5, 2.5) or 90s, 5m, 1h (CM-7); --undo takes it back",  \
      run_clock_extend)                                                        \
    W(enter_result, ENTER_RESULT, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,  \
      TNY_CC_R1 | TNY_CC_T1 | TNY_WF_RESULT | TNY_WF_OVERRIDE | TNY_CC_WHY,    \
      TNY_REPLY_RECORDS, TNY_RECS_NONE, "result", "enter",                     \
      "EVENT_ID ROUND TABLE RESULT_JSON [--override] [--reason T] [--game G]", \
      4, 4, o_result,                                                          \
      "enter a table's result: an event-file result object (- = stdin); "      \
          "--override replaces a confirmed one", run_result_enter)             \
    W(penalty, PENALTY, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,         \
      TNY_CC_R1 | TNY_CC_T1 | TNY_CC_P | TNY_WF_POINTS | TNY_CC_WHY,           \
      TNY_REPLY_RECORDS, TNY_RECS_NONE, "result", "penalty",                   \
      "EVENT_ID ROUND TABLE PLAYER_ID POINTS [--reason T]", 5, 5, o_reason,    \
      "deduct tournament points (TX-7), e.g. 1 or 0.5", run_result_penalty)    \
    W(show_results, SHOW_RESULTS, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,  \
      TNY_CC_R1 | TNY_CC_T, TNY_REPLY_RECORDS, TNY_RECS_RESULTS, "result",     \
      "show", "EVENT_ID ROUND [--table N]", 2, 2, o_table,                     \
      "every submission of the round's tables: who, when, what, status "       \
          "(conflicts show both)", run_result_show)                            \
    W(resolve_conflict, RESOLVE_CONFLICT, TNY_CMD_EV_EXISTING, true,           \
      TNY_CMD_PL_KEPT, TNY_CC_R1 | TNY_CC_T1 | TNY_WF_RESULT_ID | TNY_CC_WHY,  \
      TNY_REPLY_RECORDS, TNY_RECS_NONE, "result", "resolve",                   \
      "EVENT_ID ROUND TABLE --keep ID [--reason T]", 3, 3, o_resolve,          \
      "resolve a conflict: keep the counted result or a conflicting "          \
          "submission (CM-6)", run_result_resolve)                             \
    W(read_log, READ_LOG, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,          \
      TNY_WF_AFTER_SEQ, TNY_REPLY_RECORDS, TNY_RECS_LOG, "log", NULL,          \
      "EVENT_ID", 1, 1, o_none,                                                \
      "the event's audit log: who did what, when (local time), why", run_log)  \
    W(get_standings, GET_STANDINGS, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_KEPT, TNY_CC_R, TNY_REPLY_STANDINGS, TNY_RECS_NONE,           \
      "standings", NULL, "EVENT_ID [--after-round N] [--csv]", 1, 1,           \
      o_standings,                                                             \
      "the hub's standings (the JSON of `tourney standings`; --csv: a "        \
          "spreadsheet)", run_standings)                                       \
    L("lots", NULL, "EVENT_ID", 1, 1, o_none,                                  \
      "every lot with its purpose and outcome (CM-4): seed, round-1 draws, "   \
          "the tables' lots, the tiebreak lot", run_lots)                      \
    L("decklist", NULL, "EVENT_ID PLAYER_ID", 2, 2, o_none,                    \
      "a player's deck list, for judges (GT-14; never on the feed)",           \
      run_decklist)                                                            \
    W(export_event, EXPORT_EVENT, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT,  \
      0, TNY_REPLY_EVENT, TNY_RECS_NONE, "export", NULL, "EVENT_ID [--csv]",   \
      1, 1, o_export,                                                          \
      "the event file (JSON, event-file.md) on stdout; --csv: every result, "  \
          "one row per player and round", run_export)                          \
    L("print", NULL,                                                           \
      "EVENT_ID pairings|slips|standings|final|tents|codes [--round N] "       \
          "[--pdf FILE] [--paper a4|letter] [--lang LANG] [--url URL]", 2, 2,  \
      o_print,                                                                 \
      "printouts (HTML; --pdf: PDF by headless Chromium): pairings by table "  \
          "and name, result slips, standings, final classification; tents, "   \
          "codes: the sign-in codes with QR codes of --url (play.html), a "    \
      "tent " "per table, a card per player; slips --url: the table's code",   \
      run_print)                                                               \
    W(list_devices, LIST_DEVICES, TNY_CMD_EV_OPTIONAL, true, TNY_CMD_PL_KEPT,  \
      0, TNY_REPLY_RECORDS, TNY_RECS_DEVICES, "devices", NULL,                 \
      "[--event EVENT_ID]", 0, 0, o_devices,                                   \
      "table devices: presence and assignment", run_devices)                   \
    W(assign_device, ASSIGN_DEVICE, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_CHANGED, TNY_WF_DEVICE_ID | TNY_CC_T, TNY_REPLY_RECORDS,      \
      TNY_RECS_NONE, "device", "assign", "DEVICE EVENT_ID TABLE", 3, 3,        \
      o_none, "make a device physical table TABLE (0 = unassign)",             \
      run_device_assign)                                                       \
    W(identify_device, IDENTIFY_DEVICE, TNY_CMD_EV_OPTIONAL, true,             \
      TNY_CMD_PL_CHANGED, TNY_WF_DEVICE_ID, TNY_REPLY_RECORDS, TNY_RECS_NONE,  \
      "device", "identify", "DEVICE", 1, 1, o_none,                            \
      "that device's screen flashes its id and table for 10 s", run_plain)     \
    W(issue_code, ISSUE_CODE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED,   \
      TNY_CC_T1, TNY_CC_NONE1, TNY_RECS_CODE_ISSUED, "code", "issue",          \
      "EVENT_ID TABLE", 2, 2, o_none,                                          \
      "a sign-in code for table TABLE's page (play.html?code=...): the "       \
          "table's device rights, enforced by the broker", run_plain)          \
    W(revoke_code, REVOKE_CODE, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_CHANGED, \
      TNY_WF_CODE, TNY_REPLY_NONE, TNY_RECS_NONE, "code", "revoke",            \
      "EVENT_ID CODE", 2, 2, o_none,                                           \
      "the broker refuses that code from now on (the page is signed out)",     \
      run_plain)                                                               \
    W(list_codes, LIST_CODES, TNY_CMD_EV_EXISTING, true, TNY_CMD_PL_KEPT, 0,   \
      TNY_CC_REC1, TNY_RECS_CODES, "code", "list", "EVENT_ID", 1, 1, o_none,   \
      "the event's sign-in codes: table, code, valid or revoked, online",      \
      run_plain)                                                               \
    W(issue_player_code, ISSUE_PLAYER_CODE, TNY_CMD_EV_EXISTING, false,        \
      TNY_CMD_PL_CHANGED, TNY_CC_P, TNY_CC_REC1, TNY_RECS_PLAYER_CODES,        \
      "code", "player", "EVENT_ID [PLAYER_ID]", 1, 2, o_none,                  \
      "a sign-in code for a player's own phone (every active player without "  \
          "one when no PLAYER_ID): their table's rights each round, check-in", \
      run_plain)                                                               \
    W(list_checkins, LIST_CHECKINS, TNY_CMD_EV_EXISTING, true,                 \
      TNY_CMD_PL_KEPT, 0, TNY_CC_REC1, TNY_RECS_CHECKINS, "player",            \
      "checkins", "EVENT_ID", 1, 1, o_none,                                    \
      "who checked in from their phone and who has not (before round 1)",      \
      run_plain)                                                               \
    W(drop_no_shows, DROP_NO_SHOWS, TNY_CMD_EV_EXISTING, false,                \
      TNY_CMD_PL_CHANGED, TNY_CC_WHY, TNY_CC_REC1, TNY_RECS_DROPPED, "player", \
      "drop-no-shows", "EVENT_ID [--reason T]", 1, 1, o_reason,                \
      "withdraw every active player who has not checked in (before round 1)",  \
      run_plain)                                                               \
    W(drop_requests, DROP_REQUESTS, TNY_CMD_EV_EXISTING, false,                \
      TNY_CMD_PL_CHANGED, TNY_WF_CONFIRM, TNY_CC_REC1, TNY_RECS_DROP_REQUESTS, \
      "player", "drop-requests", "EVENT_ID [--confirm]", 1, 1, o_confirm,      \
      "the players' \"drop me\" requests from their phones; --confirm drops "  \
          "them all (after the round each asked after)", run_plain)            \
    L("console", NULL, "EVENT_ID", 1, 1, o_none,                               \
      "live full-screen dashboard: tables, clock, standings; keys send the "   \
          "commands above", run_console)                                       \
    L("wait-hub", NULL, "", 0, 0, o_none,                                      \
      "wait until the hub is online (hub/state), at most --timeout",           \
      run_wait_hub)
/* clang-format on */

#endif
