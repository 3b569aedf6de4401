/* screen.h - the table display as a pure model: which screen shows what,
 * what each key does, and the drawing of a frame into a character grid.
 * ui.c only paints the grid with ncurses and feeds keys in; everything a
 * player sees or can do is decided here, testable without a terminal.
 *
 * Screens (enum tbl_view):
 *   MAIN     the table: event, round, stage; the table number and the round
 *            clock in large digits; the seats (name, club, first player,
 *            armies NH-10, colours TX-10, faction/agenda GT-14); the state
 *            in words; AG-14 timers; what PREGAME/TIMEOUT decided
 *   FLOW     a guided flow (flow.h): PREGAME, TIMEOUT or RESULT, one step
 *            at a time; refusals shown on the spot
 *   OUTCOME  what a finished PREGAME/TIMEOUT flow decided
 *   CONFIRM  every seated player confirms the entered result in turn (or
 *            rejects it: back to the RESULT flow with its answers)
 *   CHESS    the Tantrix chess clock (TX-3, TX-4, TX-5, TX-9, TX-11)
 *   NOTES    the assignment's procedure and notes (AG-15)
 * The network line and a line naming the keys are on every screen.
 *
 * Keys (from a numeric keypad alone or a keyboard): digits, Enter, '+',
 * '-', '*', '/', '.', Backspace; ui.c maps the keypad's NumLock-off codes
 * (arrows, Home, End, PgUp, PgDn, Ins, Del) to the digits they carry.
 *
 * The state that must survive a power cut (screen, flow kind and answers,
 * finished flows' answers, confirmations, chess clock, AG timers) is saved
 * as text lines (tbl_screen_save) and restored once the same table's
 * assignment is back (tbl_screen_load, applied by tbl_screen_sync).
 *
 * Not here: ncurses, reading keys, the clock (callers pass monotonic and
 * wall milliseconds), storage (ui.c puts the lines in the outbox's kv).
 * Invariants: s->flow, when in_flow, was begun on the core's current
 * assignment and game (rebound by tbl_screen_sync on every new version);
 * s->bound names the table the state belongs to.
 * Threads: one owner thread (the app loop's).
 */
#ifndef TBL_SCREEN_H
#define TBL_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/utf8.h"

#include "core.h"
#include "flow.h"
#include "tablewatch.h"

/* ---- the character grid ---------------------------------------------- */

enum tbl_attr {
    TBL_ATTR_NORMAL,
    TBL_ATTR_BAR,       /* the title bar (reverse) */
    TBL_ATTR_KEYS,      /* the key line (reverse) */
    TBL_ATTR_BOLD,      /* headings, the state in words */
    TBL_ATTR_INK,       /* large digits: a solid block */
    TBL_ATTR_INK_ALERT, /* large digits, time up: a red block */
    TBL_ATTR_ALERT,     /* red text: time up, refusals, offline */
    TBL_ATTR_GOOD,      /* green text: accepted, confirmed, online */
    TBL_ATTR_WARN,      /* yellow text: waiting, paused, queued */
    TBL_ATTR_DIM,       /* secondary text */
    TBL_ATTR_INPUT,     /* the number being typed */
};

/* One cell: a glyph (a UTF-8 character with its combining marks,
 * tny/utf8.h) and its attribute.  A double-width character (CJK) takes
 * two cells: the glyph in the left one, "" in the right one. */
struct tbl_cell {
    char ch[TNY_UTF8_GLYPH_MAX];
    uint8_t attr;
};

struct tbl_grid {
    int32_t rows, cols;
    struct tbl_cell *cells; /* rows * cols, malloc'd */
};

/* Allocates a blank grid.  Errors: TNY_EINVAL (rows or cols < 1 or above
 * 1000), TNY_ENOMEM.  *g is empty on error. */
TNY_MUST_USE int tbl_grid_init(struct tbl_grid *g, int32_t rows, int32_t cols,
                               struct tny_diag *diag);
void tbl_grid_release(struct tbl_grid *g);
/* Blanks every cell. */
void tbl_grid_clear(struct tbl_grid *g);
/* Writes UTF-8 text at (row, col) by display width (a wide character
 * takes two cells, combining marks stay in their letter's cell), clipped
 * at the right edge (and at max_cols when >= 0) before the first glyph
 * that does not fit whole; invalid bytes become '?', control characters
 * blanks.  Returns the columns written. */
int32_t tbl_grid_put(struct tbl_grid *g, int32_t row, int32_t col,
                     enum tbl_attr attr, const char *text, int32_t max_cols);
/* Row as UTF-8 text into buf (trailing blanks kept); for tests. */
void tbl_grid_row(const struct tbl_grid *g, int32_t row, char *buf,
                  size_t size);

/* ---- keys ------------------------------------------------------------- */

#define TBL_KEY_ENTER '\n'
#define TBL_KEY_BACKSPACE 0x7f

/* ---- the screen model --------------------------------------------------- */

enum tbl_view {
    TBL_VIEW_MAIN,
    TBL_VIEW_FLOW,
    TBL_VIEW_OUTCOME,
    TBL_VIEW_CONFIRM,
    TBL_VIEW_CHESS,
    TBL_VIEW_NOTES,
};

/* Name used in the saved state ("main", "flow", ...). */
const char *tbl_view_name(enum tbl_view v);

#define TBL_SCREEN_MSG_MAX 320
#define TBL_SCREEN_SAVE_MAX 4096

/* Answers of one flow kind (finished, or kept to resume). */
struct tbl_screen_answers {
    bool has;
    int32_t n;
    int32_t v[TBL_FLOW_MAX_ANSWERS];
};

struct tbl_screen {
    enum tbl_view view;
    /* The table this state belongs to. */
    bool bound;
    char event_id[TNY_WIRE_ID_MAX + 1];
    int32_t round, table;
    uint64_t version; /* assignment version the flow was begun on */

    bool in_flow;
    struct tbl_flow flow;
    struct tbl_flow_facts facts;
    /* Answers of the finished PREGAME and TIMEOUT flows and of the last
     * RESULT flow (replayed to rebuild facts and to correct a result). */
    struct tbl_screen_answers done[3];
    char typed[16]; /* NUMBER step: what is typed so far */
    int32_t n_outcome;
    char outcome[TBL_FLOW_MAX_LINES][TBL_FLOW_LINE_MAX];
    enum tbl_flow_kind outcome_kind;

    char message[TBL_SCREEN_MSG_MAX]; /* on-the-spot refusal or note */
    bool message_error;

    bool expired_seen; /* the round clock ran out (TIMEOUT offered once) */
    bool clock_paused_seen;

    bool has_chess;
    struct tbl_chess chess;
    int64_t round_start_ms; /* monotonic; -1 unknown (TX-5 countdown) */

    bool has_ag;
    struct tbl_ag_timers ag;

    /* CT-8: the per-turn limit announced for after the time-out (the
     * assignment's action_ms for Catan; 0 none); turn_start_ms: the
     * current turn's start (monotonic), -1 before the time-out.  Not
     * saved: after a restart the next 0 key starts a turn. */
    int64_t turn_ms;
    int64_t turn_start_ms;

    /* CM-5: the seated players' ids of the bound assignment; a new version
     * with other players sets pairing_changed (shown until a key). */
    char seats_sig[TNY_MAX_SEATS * (TNY_WIRE_ID_MAX + 2)];
    bool pairing_changed;

    /* Restore after a restart: applied when the same table is assigned. */
    bool has_pending_load;
    char pending_load[TBL_SCREEN_SAVE_MAX];

    bool dirty; /* changed since the last save */

    /* `tourney live device identify`: until identify_until_ms (monotonic;
     * 0 = not identifying) the whole screen is a blinking inverse banner
     * with the device id and identify_table (0 = not assigned).  Not
     * saved, kept across a new assignment. */
    int64_t identify_until_ms;
    int32_t identify_table;
};

/* How long the identify banner shows (docs/console.md). */
#define TBL_SCREEN_IDENTIFY_MS 10000

/* An empty model: MAIN, bound to nothing. */
void tbl_screen_init(struct tbl_screen *s);

/* Follows the core after anything happened (messages, timers): binds to a
 * new table (resetting the state) or rebinds the flow to a new version of
 * the same one, applies a pending restore, offers the TIMEOUT flow once
 * when the round clock runs out while playing, runs the AG-14 timers with
 * the round clock, and moves between MAIN, CONFIRM and FLOW as the core's
 * state changes (e.g. confirmations complete -> MAIN "sent"). */
void tbl_screen_sync(struct tbl_screen *s, struct tbl_core *core,
                     int64_t now_ms, int64_t wall_ms);

/* One key (a character, TBL_KEY_ENTER or TBL_KEY_BACKSPACE).  Refusals go
 * to s->message; results go to the core (tbl_core_enter_result, confirm,
 * reject). */
void tbl_screen_key(struct tbl_screen *s, struct tbl_core *core, int key,
                    int64_t now_ms, int64_t wall_ms);

/* The hub asked this device to identify itself (table 0 = not assigned):
 * the banner shows for TBL_SCREEN_IDENTIFY_MS from now_ms. */
void tbl_screen_identify(struct tbl_screen *s, int32_t table, int64_t now_ms);

/* Draws the current screen at now_ms into g (any size; laid out for
 * 100x30, still complete at 80x24). */
void tbl_screen_draw(const struct tbl_screen *s, const struct tbl_core *core,
                     const char *device_id, int64_t now_ms, struct tbl_grid *g);

/* Milliseconds until the drawing changes by itself (clocks, blinking). */
int64_t tbl_screen_next_tick(const struct tbl_screen *s,
                             const struct tbl_core *core, int64_t now_ms);

/* The durable state as one line (no newline) into buf.
 * Errors: TNY_ERANGE (n too small; TBL_SCREEN_SAVE_MAX suffices). */
TNY_MUST_USE int tbl_screen_save(const struct tbl_screen *s, int64_t now_ms,
                                 int64_t wall_ms, char *buf, size_t n);

/* Keeps a saved line to apply when its table is assigned again
 * (tbl_screen_sync).  Errors: TNY_EINVAL (not a line tbl_screen_save
 * wrote), TNY_ERANGE (too long). */
TNY_MUST_USE int tbl_screen_load(struct tbl_screen *s, const char *line,
                                 struct tny_diag *diag);

#endif
