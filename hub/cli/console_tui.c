/* console_tui.c - `tourney live console EVENT_ID`: a live full-screen
 * dashboard for the organiser (ncurses).
 *
 * What it does: one MQTT session as the organiser's login (console_conn.c)
 * that also watches the event's retained feed (feed/{ev}/event, /tables,
 * /standings: JSON, docs/feed.md) and its RoundClock (event/{ev}/clock,
 * protobuf); shows the title, round and stage, the round clock (large
 * digits, counted down locally with the tny_table_clock helpers), a grid
 * of every table with its state in colour, and the top of the standings.
 * Keys run the matching `tourney live` command through the run_words
 * function the caller passes (console.c's command table: the same
 * request-building code as the command line, handed in so that this file
 * never calls back into the file that starts it), which returns a result:
 * the exit status, the text (its first line, or the error line, goes to
 * the status line) and the hub's typed reply (the views read its payload,
 * the next step's tip its command and round).  Each frame is rendered into an
 * off-screen cell buffer, then copied to curses and drawn with one refresh.
 *
 * The words a player could read on a screen turned to the hall (the
 * title line, round, clock, table states, standings) are in the event's
 * language (the feed's "language", else the locale's: cli_lang.h), from
 * the `tourney` catalogue; the organiser's keys, commands, status line
 * and panels stay English like the command line.
 *
 * What it does not do: no tournament logic, no state of its own beyond
 * the last feed documents; no request while another is in flight (the
 * screen waits for the reply, at most --timeout).
 *
 * Invariants: curses writes to its own duplicate of the terminal's
 * descriptor; a command run from here prints into its result
 * (hub_console_run: the runner hands back its text and the hub's typed
 * reply), never on the screen; the terminal is restored
 * (endwin) on every exit path, SIGINT and SIGTERM included (the handler
 * only sets a flag; the loop exits).
 */
#define NCURSES_WIDECHAR 1
#include "console_tui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <jansson.h>
#include <libintl.h>

#include "cli_lang.h"
#include "tny/bigtext.h"
#include "tny/clock.h"
#include "tny/i18n.h"
#include "tny/i18n_io.h"
#include "tny/loop.h"
#include "tny/utf8.h"
#include "tny/wire.h"

#define MAX_TABLES 512
#define MAX_STANDINGS 32
#define STATUS_MAX 2048 /* a refusal is shown whole */
#define FB_ROWS 300     /* a 4K screen with a small font: 270 x 800 */
#define FB_COLS 800
#define CELL_W 26 /* one table in the grid */
#define TIME_RETRY_MS 3000
#define TIME_RESYNC_MS (10 * 60000)
#define INPUT_MAX 512
#define PANEL_LINES 400
#define PANEL_COLS 1024
#define MAX_WORDS 24
#define WIDE_CHAR 0x40000000 /* a key: a character beyond ASCII */
#define CODES_POLL_MS 2000   /* `code list`: the players signed in */
#define CODES_RETRY_MS 30000 /* after a refused or failed `code list` */

#define _(s) gettext(s)

enum colour {
    C_PLAIN,
    C_TITLE,
    C_WAITING,
    C_PLAYING,
    C_OVERDUE,
    C_PENDING,
    C_CONFIRMED,
    C_CONFLICT,
    C_OFFLINE,
    C_KEYS,
    N_COLOURS
};

/* A table's device (issue 20 item 6): a Pi (`tourney-table`, table-NNN
 * or any other login) or a phone/browser on play.html (web-N, signed in
 * with the table's code, hub/service/codes.c). */
enum tui_device { DEV_NONE, DEV_PI, DEV_PHONE };

struct tui_table {
    int number;
    char state[24];
    enum tui_device device;
    bool online; /* the device is connected: for a phone, signed in */
};

/* Issue 20 item 6: the players of one table with a player code (`code
 * list`: each code's table in the current round, its seats and whether
 * the player's own phone is signed in). */
struct tui_signins {
    int table, seats, in;
};

struct tui_row {
    int rank;
    char name[256];
    char points[16]; /* when not a number */
    bool has_points;
    double points_v;
    bool dropped, disqualified; /* CM-2, CM-3 */
};

struct tui {
    hub_console_run_words_fn *run_words; /* the command table's runner */
    char ev[TNY_WIRE_ID_MAX + 1];
    char t_event[TNY_WIRE_TOPIC_MAX], t_tables[TNY_WIRE_TOPIC_MAX];
    char t_standings[TNY_WIRE_TOPIC_MAX], t_clock[TNY_WIRE_TOPIC_MAX];
    char t_time_req[TNY_WIRE_TOPIC_MAX], t_time_resp[TNY_WIRE_TOPIC_MAX];
    /* feed/{ev}/event */
    bool have_event;
    char title[256], status[16], round_status[16], stage[96];
    int round;
    char language[TNY_LANGUAGE_MAX];    /* the feed's; "" = the locale's */
    char locale_lang[TNY_LANGUAGE_MAX]; /* the locale's (or en) */
    /* the hall's language when its catalogue is missing (shown in
     * English, said on the screen); "" = none missing */
    char no_catalogue[TNY_LANGUAGE_MAX];
    /* feed/{ev}/tables */
    int tables_round, n_tables;
    struct tui_table tables[MAX_TABLES];
    /* `code list EVENT`, asked every CODES_POLL_MS (tables with player
     * codes only) */
    int n_signins;
    struct tui_signins signins[MAX_TABLES];
    int64_t codes_due_ms;
    /* feed/{ev}/standings */
    int after_round, n_rows;
    struct tui_row rows[MAX_STANDINGS];
    /* event/{ev}/clock */
    bool have_clock;
    int clock_round;
    struct tny_table_clock clock;
    /* Time sync (docs/protocol.md "Time sync"): asked on every (re)connect,
     * again when unanswered after TIME_RETRY_MS, every TIME_RESYNC_MS. */
    bool has_sync;
    int64_t sync_offset_ms;
    /* The last RoundClock (AG-14: each table's own clock is read from it)
     * and when it arrived (monotonic). */
    bool have_wc;
    struct tny_wire_clock wc;
    int64_t wc_recv_ms;
    bool time_asked;
    int64_t time_sent_ms, time_due_ms;
    uint64_t time_nonce;
    uint32_t connects;
    bool connected;
    char hub_state[16];  /* tourney/v1/hub/state, "" = not seen */
    char hub_store[300]; /* tourney/v1/hub/store, "" = not seen */
    char status_line[STATUS_MAX];
    /* Input on the bottom line: a command (":"), a table number ("t") or
     * a yes/no confirmation of what cannot be undone. */
    enum { IN_NONE, IN_COMMAND, IN_TABLE, IN_CONFIRM } input;
    char in_buf[INPUT_MAX];
    int in_len;
    char pending[INPUT_MAX]; /* the command waiting for y/n */
    /* A panel over the tables and standings: a command's whole output,
     * the draft, one table; closed by any key but the scroll keys. */
    bool panel;
    char panel_title[STATUS_MAX];
    int panel_n, panel_top;
    char panel_lines[PANEL_LINES][PANEL_COLS];
    bool utf8; /* the locale's character set is UTF-8 */
    /* the frame: one glyph (tny/utf8.h) per cell; a wide character's
     * right half is "" */
    int rows_n, cols_n;
    char ch[FB_ROWS][FB_COLS][TNY_UTF8_GLYPH_MAX];
    unsigned char co[FB_ROWS][FB_COLS];
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static int64_t mono_ms(void)
{
    return tny_loop_now_ms();
}

/* ---- feed documents ------------------------------------------------------ */

/* Copies a feed string: whole characters only, control characters
 * blanked, invalid UTF-8 as '?' (tny_utf8_fit). */
static void copy_str(char *dst, size_t size, const json_t *v)
{
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    tny_utf8_fit(s, -1, false, dst, size);
}

static int get_int(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : 0;
}

/* The hall's words in code; without its catalogue gettext shows
 * English silently (a build tree without its locale/, a package without
 * the language): t->no_catalogue says so on the screen. */
static void use_language(struct tui *t, const char *code)
{
    tny_i18n_use(code);
    if (tny_i18n_has_catalogue(HUB_LANG_DOMAIN, code))
        t->no_catalogue[0] = '\0';
    else
        snprintf(t->no_catalogue, sizeof t->no_catalogue, "%s", code);
}

static void parse_event(struct tui *t, const json_t *root)
{
    copy_str(t->title, sizeof t->title, json_object_get(root, "title"));
    copy_str(t->status, sizeof t->status, json_object_get(root, "status"));
    copy_str(t->round_status, sizeof t->round_status,
             json_object_get(root, "round_status"));
    copy_str(t->stage, sizeof t->stage, json_object_get(root, "stage_name"));
    if (!t->stage[0])
        copy_str(t->stage, sizeof t->stage, json_object_get(root, "stage"));
    t->round = get_int(root, "round");
    t->have_event = true;
    /* The hall's words in the event's language (issue 21), else the
     * locale's, else English. */
    char lang[TNY_LANGUAGE_MAX];
    copy_str(lang, sizeof lang, json_object_get(root, "language"));
    if (!tny_language_known(lang))
        lang[0] = '\0';
    if (strcmp(lang, t->language) != 0) {
        snprintf(t->language, sizeof t->language, "%s", lang);
        use_language(t, lang[0] ? lang : t->locale_lang);
    }
}

static int by_number(const void *a, const void *b)
{
    const struct tui_table *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

static void parse_tables(struct tui *t, const json_t *root)
{
    const json_t *arr = json_object_get(root, "tables");
    size_t i;
    const json_t *v;
    t->tables_round = get_int(root, "round");
    t->n_tables = 0;
    json_array_foreach (arr, i, v) {
        if (t->n_tables == MAX_TABLES)
            break;
        struct tui_table *tb = &t->tables[t->n_tables++];
        tb->number = get_int(v, "table");
        copy_str(tb->state, sizeof tb->state, json_object_get(v, "state"));
        const char *dev = json_string_value(json_object_get(v, "device"));
        tb->device = !dev                           ? DEV_NONE
                     : strncmp(dev, "web-", 4) == 0 ? DEV_PHONE
                                                    : DEV_PI;
        tb->online = json_is_true(json_object_get(v, "online"));
    }
    /* Tables always in number order (CM-9), whatever the feed's order. */
    qsort(t->tables, (size_t)t->n_tables, sizeof t->tables[0], by_number);
}

/* The players signed in at table `table`, NULL: none has a code. */
static const struct tui_signins *signins_of(const struct tui *t, int table)
{
    for (int i = 0; i < t->n_signins; i++)
        if (t->signins[i].table == table)
            return &t->signins[i];
    return NULL;
}

static void parse_standings(struct tui *t, const json_t *root)
{
    const json_t *arr = json_object_get(root, "standings");
    size_t i;
    const json_t *v;
    t->after_round = get_int(root, "after_round");
    t->n_rows = 0;
    json_array_foreach (arr, i, v) {
        if (t->n_rows == MAX_STANDINGS)
            break;
        struct tui_row *r = &t->rows[t->n_rows++];
        r->rank = get_int(v, "rank");
        r->dropped = json_is_true(json_object_get(v, "dropped"));
        r->disqualified = json_is_true(json_object_get(v, "disqualified"));
        copy_str(r->name, sizeof r->name, json_object_get(v, "name"));
        if (!r->name[0])
            copy_str(r->name, sizeof r->name, json_object_get(v, "player"));
        r->dropped = json_is_true(json_object_get(v, "dropped"));
        r->disqualified = json_is_true(json_object_get(v, "disqualified"));
        const json_t *p = json_object_get(v, "points");
        r->has_points = json_is_number(p);
        if (r->has_points) /* written when drawn: in the hall's language */
            r->points_v = json_number_value(p);
        else
            copy_str(r->points, sizeof r->points, p);
    }
}

static void parse_clock(struct tui *t, const unsigned char *payload, size_t len)
{
    struct tny_wire_clock wc;
    struct tny_clock_msg msg;
    struct tny_diag d = {{0}};
    if (len == 0) { /* retained message cleared */
        t->have_clock = false;
        return;
    }
    if (tny_wire_decode_clock(payload, len, &wc, &d) < 0)
        return;
    tny_wire_clock_for_table(&wc, 0, &msg);
    /* The offset measured on a retained message is late by its age: the
     * time sync's is used whenever known. */
    if (tny_table_clock_apply(&t->clock, &msg, mono_ms(), &d) == TNY_OK &&
        (!t->has_sync || tny_table_clock_use_offset(
                             &t->clock, t->sync_offset_ms, &d) == TNY_OK)) {
        t->have_clock = true;
        t->clock_round = wc.round;
    }
    tny_wire_clock_release(&t->wc);
    t->wc = wc; /* kept: the tables' own clocks (AG-14) */
    t->have_wc = true;
    t->wc_recv_ms = mono_ms();
}

/* AG-14: table number's own clock as "  1:43:12" (or " draft?" while it
 * waits for its draft) when the round starts each table with its draft;
 * "" otherwise. */
static void table_clock_text(const struct tui *t, int number, char *buf,
                             size_t size)
{
    struct tny_clock_msg msg;
    struct tny_table_clock tc = {0};
    struct tny_diag d = {{0}};
    char clk[16];
    buf[0] = '\0';
    if (!t->have_wc || !t->wc.per_table_start || t->wc.round != t->tables_round)
        return;
    tny_wire_clock_for_table(&t->wc, number, &msg);
    if (tny_table_clock_apply(&tc, &msg, t->wc_recv_ms, &d) < 0 ||
        (t->has_sync &&
         tny_table_clock_use_offset(&tc, t->sync_offset_ms, &d) < 0))
        return;
    if (tc.state == TNY_ROUND_CLOCK_READY &&
        t->clock.state != TNY_ROUND_CLOCK_READY) {
        /* TRANSLATORS: the dashboard's grid: an Agricola table waiting
           for its draft (AG-14), at most 8 columns. */
        snprintf(buf, size, " %s", _("draft?"));
        return;
    }
    tny_clock_format(tny_table_clock_remaining(&tc, mono_ms()), clk,
                     sizeof clk);
    snprintf(buf, size, " %s", clk);
}

/* Asks the hub for its time (the answer: on_time). */
static void ask_time(struct tui *t, struct hub_console_conn *conn, int64_t now)
{
    struct tny_wire_time q = {0};
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    t->time_asked = true;
    t->time_sent_ms = now;
    t->time_due_ms = now + TIME_RETRY_MS;
    /* Several dashboards may share a login: the nonce tells ours. */
    t->time_nonce = ((uint64_t)getpid() << 32) ^ (uint64_t)now ^
                    ((uint64_t)t->connects << 48);
    q.client_ms = now;
    q.nonce = t->time_nonce;
    if (tny_wire_encode_time(&q, &buf, &len, &d) == TNY_OK &&
        hub_console_publish(conn, t->t_time_req, buf, len, &d) < 0)
        t->time_due_ms = now + 500; /* not connected yet: soon again */
    free(buf);
}

static void on_time(struct tui *t, const unsigned char *payload, size_t len)
{
    struct tny_wire_time a;
    struct tny_diag d = {{0}};
    int64_t now = mono_ms(), offset, rtt;
    if (tny_wire_decode_time(payload, len, &a, &d) < 0 || !t->time_asked ||
        a.nonce != t->time_nonce || a.client_ms != t->time_sent_ms ||
        tny_clock_sync_offset(a.client_ms, a.hub_ms, now, &offset, &rtt, &d) <
            0)
        return; /* not our latest request's answer: asked again later */
    t->time_asked = false;
    t->time_due_ms = now + TIME_RESYNC_MS;
    t->has_sync = true;
    t->sync_offset_ms = offset;
    if (t->have_clock && tny_table_clock_use_offset(&t->clock, offset, &d) < 0)
        t->have_clock = false;
}

static void on_message(void *ctx, const char *topic,
                       const unsigned char *payload, size_t len)
{
    struct tui *t = ctx;
    if (strcmp(topic, t->t_clock) == 0) {
        parse_clock(t, payload, len);
        return;
    }
    if (strcmp(topic, t->t_time_resp) == 0) {
        on_time(t, payload, len);
        return;
    }
    json_t *root = json_loadb((const char *)payload, len, 0, NULL);
    if (!json_is_object(root)) {
        json_decref(root);
        return;
    }
    if (strcmp(topic, t->t_event) == 0)
        parse_event(t, root);
    else if (strcmp(topic, t->t_tables) == 0)
        parse_tables(t, root);
    else if (strcmp(topic, t->t_standings) == 0)
        parse_standings(t, root);
    json_decref(root);
}

/* ---- the frame buffer ---------------------------------------------------- */

static void fb_clear(struct tui *t, int rows, int cols)
{
    t->rows_n = rows < FB_ROWS ? rows : FB_ROWS;
    t->cols_n = cols < FB_COLS ? cols : FB_COLS;
    /* only the part the terminal shows: the frame is large */
    for (int r = 0; r < t->rows_n; r++) {
        for (int c = 0; c < t->cols_n; c++)
            memcpy(t->ch[r][c], " ", 2);
        memset(t->co[r], C_PLAIN, (size_t)t->cols_n);
    }
}

/* Writes UTF-8 text at (row, col) by display width (tny/utf8.h), clipped
 * to the frame before the first glyph that does not fit whole; returns
 * the column after it. */
static int fb_put(struct tui *t, int row, int col, enum colour c,
                  const char *text)
{
    struct tny_utf8_glyph g;
    size_t used;

    for (; (used = tny_utf8_next(text, &g)) > 0; text += used) {
        if (row >= 0 && row < t->rows_n && col >= 0 &&
            col + g.width <= t->cols_n) {
            memcpy(t->ch[row][col], g.bytes, sizeof g.bytes);
            t->co[row][col] = (unsigned char)c;
            if (g.width == 2) {
                t->ch[row][col + 1][0] = '\0';
                t->co[row][col + 1] = (unsigned char)c;
            }
        }
        col += g.width;
    }
    return col;
}

static int fb_printf(struct tui *t, int row, int col, enum colour c,
                     const char *fmt, ...) TNY_PRINTF(5, 6);

static int fb_printf(struct tui *t, int row, int col, enum colour c,
                     const char *fmt, ...)
{
    char buf[FB_COLS + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return fb_put(t, row, col, c, buf);
}

/* The bytes of text that go on one line of width columns, wrapped by
 * words: the words that fit and the blanks after them (the next line
 * starts at a word); a word wider than the line alone is cut by columns,
 * never inside a character.  0 only at the end of text. */
static size_t wrap_line(const char *text, int width)
{
    struct tny_utf8_glyph g;
    size_t at = 0, used, after_blank = 0;
    int cols = 0;
    for (; (used = tny_utf8_next(text + at, &g)) > 0; at += used) {
        bool blank = g.bytes[0] == ' ';
        if (blank)
            after_blank = at + used;
        else if (cols + g.width > width)
            return after_blank ? after_blank : at ? at : used;
        cols += g.width;
    }
    return at;
}

/* Writes text from (row, col) wrapped by words at width columns, each
 * '\n' starting a new line, on at most max_rows rows; continuation lines
 * keep the indentation of their line.  Returns the rows it takes (also
 * those beyond max_rows, which are not drawn). */
static int fb_wrap(struct tui *t, int row, int col, int width, int max_rows,
                   enum colour c, const char *text)
{
    int n = 0;
    if (width < 1)
        return 0;
    for (const char *p = text; *p || p == text;) {
        size_t para = strcspn(p, "\n"), indent = strspn(p, " ");
        if (indent > para || (int)indent > width / 3)
            indent = 0;
        for (size_t at = 0; at < para || (para == 0 && at == 0);) {
            int w = at ? width - (int)indent : width;
            char line[STATUS_MAX];
            size_t len = wrap_line(p + at, w);
            if (len > para - at)
                len = para - at;
            size_t keep = len < sizeof line ? len : sizeof line - 1;
            memcpy(line, p + at, keep);
            while (keep > 0 && line[keep - 1] == ' ')
                keep--;
            line[keep] = '\0';
            if (n < max_rows)
                fb_put(t, row + n, col + (at ? (int)indent : 0), c, line);
            n++;
            if (len == 0)
                break;
            at += len;
        }
        p += para;
        if (*p != '\n')
            break;
        p++;
    }
    return n;
}

/* The clock in the shared large-digit font (tny/bigtext.h) at scale 2;
 * nothing when text has a character without a glyph. */
static void fb_big(struct tui *t, int row, int col, enum colour c,
                   const char *text)
{
    char rows[TNY_BIGTEXT_ROWS][128];
    struct tny_diag d;
    if (tny_bigtext_render(text, 2, &rows[0][0], sizeof rows[0], &d) < 0)
        return;
    for (int r = 0; r < TNY_BIGTEXT_ROWS; r++)
        for (int k = 0; rows[r][k]; k++)
            if (rows[r][k] == TNY_BIGTEXT_INK)
                fb_put(t, row + r, col + k, c, "#");
}

/* ---- rendering ----------------------------------------------------------- */

static const char *state_label(const char *state, enum colour *c)
{
    static const struct {
        const char *state, *label;
        enum colour c;
    } map[] = {
        /* TRANSLATORS: a table's state on the dashboard's grid (a cell of
           26 columns: at most 12 columns for the state). */
        {"waiting", N_("waiting"), C_WAITING},
        {"playing", N_("playing"), C_PLAYING},
        /* TRANSLATORS: the table's time is up and it has no result. */
        {"overdue", N_("time-out/overdue"), C_OVERDUE},
        /* TRANSLATORS: a result is in, not every player confirmed it. */
        {"pending_confirmation", N_("pending confirm"), C_PENDING},
        {"confirmed", N_("confirmed"), C_CONFIRMED},
        /* TRANSLATORS: two different results: a judge decides. */
        {"conflict", N_("CONFLICT"), C_CONFLICT},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].state, state) == 0) {
            *c = map[i].c;
            return _(map[i].label);
        }
    *c = C_PLAIN;
    return state[0] ? state : "?";
}

/* The clock in the one format of every screen (tny_clock_format: "45:00",
 * "1:30:00", "+2:05 overtime", "--:--").  A closed round's clock
 * stands: the hub froze it at the close. */
static void clock_text(const struct tui *t, char *buf, size_t size,
                       const char **state)
{
    /* TRANSLATORS: the round clock's state, beside its large digits. */
    const char *not_started = _("not started");
    if (!t->have_clock) {
        snprintf(buf, size, "--:--");
        *state = not_started;
        return;
    }
    bool running = t->clock.state == TNY_ROUND_CLOCK_RUNNING;
    *state = running                                    ? _("running")
             : t->clock.state == TNY_ROUND_CLOCK_PAUSED ? _("paused")
                                                        : not_started;
    /* Until the hub answered the time sync a running clock comes from a
     * message of unknown age (a retained one may be old): said so. */
    if (running && !t->has_sync)
        *state = _("running, hub time not known yet");
    if (t->clock_round == t->round && strcmp(t->round_status, "closed") == 0) {
        running = false;
        *state = _("stopped: round closed");
    }
    if (t->clock.unlimited) {
        snprintf(buf, size, "--:--");
        /* TRANSLATORS: NH-13: the final has no time limit. */
        *state = _("no time limit");
        return;
    }
    tny_clock_format(tny_table_clock_remaining(&t->clock, mono_ms()), buf,
                     size);
    /* "+0:26 overtime", as on the tables and the hall (issue 22 item 8);
     * the word is TNY_CLOCK_OVERTIME's. */
    if (buf[0] == '+' && running && t->has_sync)
        /* TRANSLATORS: after a clock past its time ("+2:05 overtime"). */
        *state = _("overtime");
}

/* The feed's round and event states as the hall reads them. */
static const char *round_status_label(const char *s)
{
    /* TRANSLATORS: the round's state on the dashboard: its tables see
       it, its clock started, every result is in. */
    if (strcmp(s, "published") == 0)
        return _("published");
    if (strcmp(s, "started") == 0)
        return _("started");
    if (strcmp(s, "closed") == 0)
        return _("closed");
    return s[0] ? s : "-";
}

static const char *event_status_label(const char *s)
{
    /* TRANSLATORS: the event's state on the dashboard: players register,
       rounds are played, the last round is closed. */
    if (strcmp(s, "setup") == 0)
        return _("registration");
    if (strcmp(s, "running") == 0)
        return _("in progress");
    if (strcmp(s, "finished") == 0)
        return _("finished");
    return s[0] ? s : "-";
}

/* The panel: a box over rows 3..bottom with the title and the lines from
 * panel_top on. */
static void render_panel(struct tui *t, int bottom, int cols)
{
    int top = 3, left = 0, right = cols - 1;
    if (bottom - top < 3)
        top = 0;
    for (int r = top; r <= bottom; r++)
        for (int c = left; c <= right; c++)
            fb_put(t, r, c, C_PLAIN, " ");
    /* The title (what the panel is, what to do next) on two rows at most,
     * wrapped by words like every line below it. */
    int title_rows =
        fb_wrap(t, top, left + 1, right - left - 1, 2, C_KEYS, t->panel_title);
    /* Long lines (a result's values, a refusal) wrap by words at the
     * panel's width. */
    int w = right - left - 1, i = t->panel_top;
    int row = top + (title_rows < 2 ? title_rows : 2);
    if (w < 1)
        return;
    for (; i < t->panel_n && row < bottom; i++) {
        int need = fb_wrap(t, row, left + 1, w, bottom - row, C_PLAIN,
                           t->panel_lines[i]);
        if (row + need > bottom) /* cut at the bottom: next time whole */
            break;
        row += need;
    }
    if (i < t->panel_n)
        fb_printf(t, bottom, left + 1, C_TITLE, "... %d more lines (j/down)",
                  t->panel_n - i);
}

/* The message area's text: the typed command, the question, or the last
 * command's answer. */
static enum colour message_text(const struct tui *t, char *buf, size_t size)
{
    if (t->input == IN_COMMAND) {
        snprintf(buf, size,
                 "tourney live %s_   (Enter runs, Esc cancels; the event id "
                 "is added)",
                 t->in_buf);
        return C_TITLE;
    }
    if (t->input == IN_TABLE) {
        snprintf(buf, size, "table number: %s_   (Enter shows it, Esc cancels)",
                 t->in_buf);
        return C_TITLE;
    }
    if (t->input == IN_CONFIRM) {
        /* The command on its lines, the question on its own. */
        snprintf(buf, size,
                 "this cannot be undone: %s\nDo it? Press y for yes, any "
                 "other key for no.",
                 t->pending);
        return C_CONFLICT;
    }
    snprintf(buf, size, "%s", t->status_line);
    return C_PLAIN;
}

/* Rows the message area may take: a quarter of the screen, at least 2. */
static int message_rows_max(int rows)
{
    return rows / 4 > 2 ? rows / 4 : 2;
}

static void render(struct tui *t, int rows, int cols)
{
    char clk[32];
    const char *clk_state;
    int row = 0;

    fb_clear(t, rows, cols);
    /* The message area above the keys, wrapped by words so a refusal is
     * read whole; what it takes is taken from the standings. */
    char msg[STATUS_MAX + INPUT_MAX + 160];
    enum colour mc = message_text(t, msg, sizeof msg);
    int msg_n = fb_wrap(t, 0, 2, cols - 3, 0, mc, msg);
    if (msg_n > message_rows_max(rows))
        msg_n = message_rows_max(rows);
    if (msg_n < 1)
        msg_n = 1;
    int msg_top = rows - 1 - msg_n;
    /* The title gives way (cut with "…") to the connection's state, which
     * is always read whole. */
    char state[160], title[sizeof t->title];
    bool hub_up = strcmp(t->hub_state, "online") == 0;
    snprintf(state, sizeof state, "[%s]  %s  ", t->ev,
             t->connected ? "broker: connected" : "broker: DISCONNECTED");
    int state_w = tny_utf8_width(state) +
                  tny_utf8_width(t->hub_state[0] ? t->hub_state : "unknown") +
                  5;
    int title_w = cols - 3 - state_w > 12 ? cols - 3 - state_w : 12;
    tny_utf8_fit(t->have_event && t->title[0]
                     ? t->title
                     /* TRANSLATORS: instead of the event's title until the
                        hub's feed arrives. */
                     : _("(waiting for the feed)"),
                 title_w, true, title, sizeof title);
    int col = fb_printf(t, row, 0, C_TITLE, " %s ", title);
    col = fb_put(t, row, col + 1, C_PLAIN, state);
    col = fb_printf(t, row, col, hub_up ? C_PLAIN : C_CONFLICT, "hub: %s",
                    t->hub_state[0] ? t->hub_state : "unknown");
    /* The hub's database takes no writes: results wait on the tables
     * (beside the state when it fits, else on the free row below). */
    size_t nf = strlen(TNY_WIRE_HUB_STORE_FAILING);
    bool row2_taken = false;
    if (hub_up && strncmp(t->hub_store, TNY_WIRE_HUB_STORE_FAILING, nf) == 0) {
        char failing[sizeof t->hub_store + 32];
        snprintf(failing, sizeof failing, "DATABASE FAILING: %s",
                 t->hub_store + nf);
        if (col + 2 + tny_utf8_width(failing) <= cols)
            fb_put(t, row, col + 2, C_CONFLICT, failing);
        else
            row2_taken = fb_wrap(t, 2, 1, cols - 2, 1, C_CONFLICT, failing) > 0;
    }
    /* The hall's language without its catalogue (the free row below,
     * unless the database's failure took it). */
    if (t->no_catalogue[0] && !row2_taken) {
        char note[PATH_MAX + 96];
        snprintf(note, sizeof note,
                 "language %s: no catalogue in %s; English shown",
                 t->no_catalogue, tny_i18n_localedir());
        fb_wrap(t, 2, 1, cols - 2, 1, C_CONFLICT, note);
    }
    row++;
    if (t->round > 0)
        /* TRANSLATORS: the dashboard's second line: the round, its state,
           the stage's name, the event's state (%1$d, %2$s, %3$s, %4$s to
           reorder). */
        fb_printf(t, row++, 1, C_PLAIN, _("round %d %s   stage %s   event %s"),
                  t->round, round_status_label(t->round_status),
                  t->stage[0] ? hub_lang_stage(t->stage) : "-",
                  event_status_label(t->status));
    else /* not "round 0 -   stage -" */
        /* TRANSLATORS: the dashboard's second line before the first
           round is published: the event's state ("registration"). */
        fb_printf(t, row++, 1, C_PLAIN, _("no published round   event %s"),
                  event_status_label(t->status));
    row++;

    clock_text(t, clk, sizeof clk, &clk_state);
    enum colour cc =
        !t->have_clock ? C_WAITING
        : clk[0] == '+' /* overtime (tny_clock_format) */
            ? C_OVERDUE
            : (t->clock.state == TNY_ROUND_CLOCK_RUNNING ? C_PLAYING
                                                         : C_PENDING);
    fb_big(t, row, 2, cc, clk);
    /* Beside the digits, wrapped by words into the rows they take (an
     * hour's clock leaves 20 columns at 80). */
    int right = 2 + 8 * (int)strlen(clk) + 2;
    char clock_label[160];
    /* TRANSLATORS: beside the round clock's digits: the time, then its
       state ("clock 12:34 running"). */
    snprintf(clock_label, sizeof clock_label, _("clock %s %s"), clk, clk_state);
    int used =
        fb_wrap(t, row + 1, right, cols - right, 3, C_PLAIN, clock_label);
    if (t->have_clock)
        fb_printf(t, row + 1 + (used < 3 ? used : 3), right, C_PLAIN,
                  _("round %d"), t->clock_round);
    row += 6;

    /* TRANSLATORS: the heading of the grid of tables: the round, then
       the number of tables. */
    fb_printf(t, row++, 1, C_TITLE, _("TABLES (round %d): %d"), t->tables_round,
              t->n_tables);
    int per_row = cols / CELL_W > 0 ? cols / CELL_W : 1;
    /* the columns left over are shared by the cells of a row */
    int cell_w = per_row > 1 ? cols / per_row : CELL_W;
    int standings_min = 4;
    for (int i = 0; i < t->n_tables; i++) {
        const struct tui_table *tb = &t->tables[i];
        enum colour c;
        const char *label = state_label(tb->state, &c);
        bool offline = tb->device != DEV_NONE && !tb->online;
        int r = row + i / per_row;
        if (r >= msg_top - 1 - standings_min) {
            int more = t->n_tables - i;
            fb_printf(t, r, 1, C_PLAIN,
                      ngettext("... %d more table", "... %d more tables",
                               (unsigned long)more),
                      more);
            break;
        }
        char own[24] = "";
        if (strcmp(tb->state, "playing") == 0) /* AG-14: its own time */
            table_clock_text(t, tb->number, own, sizeof own);
        /* One cell: the device's kind and whether it is connected (for
         * a phone: whether anyone is signed in with the table's code),
         * the players signed in, then the state in the language's
         * words.  The state is never cut: the kind gives way (with "…",
         * left out below 3 columns; its colour still says offline),
         * and two blanks keep the cell from the next one (the tryout of
         * session 14 saw "T1   bez mobilu 0/4 hraj… T2" in Czech). */
        const char *kind = "";
        const struct tui_signins *si = signins_of(t, tb->number);
        /* A phone table whose players sign in with their own codes: a
         * phone is there when one of them is (the table's device is
         * shared by their pages). */
        if (tb->device == DEV_PHONE && si && si->in > 0)
            offline = false;
        if (tb->device == DEV_PI)
            kind = offline
                       /* TRANSLATORS: the grid: the table's device, a
                          Raspberry Pi running tourney-table, is offline
                          (at most 12 columns). */
                       ? _("Pi OFFLINE")
                       /* TRANSLATORS: the grid: the table's device is a
                          Raspberry Pi running tourney-table (at most 12
                          columns). */
                       : _("Pi");
        else if (tb->device == DEV_PHONE)
            kind = offline
                       /* TRANSLATORS: the grid: the table has a sign-in
                          code but no phone is signed in with it (at most
                          12 columns). */
                       ? _("no phone")
                       /* TRANSLATORS: the grid: a phone (play.html) is
                          signed in with the table's code (at most 12
                          columns). */
                       : _("phone");
        char tail[FB_COLS * TNY_UTF8_GLYPH_MAX], fit[sizeof tail];
        char head[sizeof tail], num[16], count[24] = "";
        /* The players signed in on their own phones over the seats. */
        if (si)
            snprintf(count, sizeof count, "%d/%d ", si->in, si->seats);
        snprintf(num, sizeof num, "T%-3d ", tb->number);
        int room = cell_w - 2 - (int)strlen(num);
        snprintf(tail, sizeof tail, "%s%s%s", count, label, own);
        room -= tny_utf8_fit(tail, room, true, fit, sizeof fit) + 1;
        head[0] = '\0';
        if (kind[0] && room >= 3)
            tny_utf8_fit(kind, room, true, head, sizeof head);
        fb_printf(t, r, 1 + (i % per_row) * cell_w, offline ? C_OFFLINE : c,
                  "%s%s%s%s", num, head, head[0] ? " " : "", fit);
    }
    if (t->n_tables == 0)
        fb_put(t, row, 2, C_PLAIN, _("no published round"));
    row += t->n_tables ? (t->n_tables + per_row - 1) / per_row : 1;
    if (row > msg_top - 1 - standings_min)
        row = msg_top - 1 - standings_min;
    row++;

    /* A finished event's last standings are its final classification. */
    if (strcmp(t->status, "finished") == 0 && t->after_round > 0 &&
        t->after_round == t->round)
        fb_printf(t, row++, 1, C_TITLE, _("FINAL STANDINGS (after round %d)"),
                  t->after_round);
    else if (t->after_round > 0)
        fb_printf(t, row++, 1, C_TITLE, _("STANDINGS after round %d"),
                  t->after_round);
    else
        fb_put(t, row++, 1, C_TITLE, _("STANDINGS: no round complete yet"));
    for (int i = 0; i < t->n_rows && row < msg_top; i++, row++) {
        /* The name column by display width: accents and CJK line up. */
        char name[sizeof t->rows[i].name], points[32];
        tny_utf8_pad(t->rows[i].name, 32, 32, name, sizeof name);
        if (t->rows[i].has_points)
            hub_lang_number(t->rows[i].points_v, points, sizeof points);
        else
            snprintf(points, sizeof points, "%s", t->rows[i].points);
        /* Before the first round completes the list is the players,
         * not a ranking: no place and no points. */
        char rank[16] = "     ";
        if (t->after_round > 0)
            snprintf(rank, sizeof rank, "%3d. ", t->rows[i].rank);
        else
            points[0] = '\0';
        fb_printf(t, row, 2,
                  t->rows[i].disqualified || t->rows[i].dropped ? C_OFFLINE
                                                                : C_PLAIN,
                  "%s%s %8s%s%s", rank, name, points,
                  t->rows[i].disqualified || t->rows[i].dropped ? "  " : "",
                  /* TRANSLATORS: after a name in the standings:
                     disqualified (CM-3), left the event (CM-2). */
                  t->rows[i].disqualified ? _("DQ")
                  : t->rows[i].dropped    ? _("dropped")
                                          : "");
    }

    if (t->panel)
        render_panel(t, msg_top - 1, cols);
    fb_put(t, msg_top, 0, C_PLAIN, "> ");
    fb_wrap(t, msg_top, 2, cols - 3, msg_n, mc, msg);
    if (t->panel)
        fb_put(t, rows - 1, 0, C_KEYS,
               " j/k or arrows scroll  any other key closes the panel ");
    else if (cols >= 122)
        fb_put(t, rows - 1, 0, C_KEYS,
               " q quit  p pair  d draft  P publish  s start clock  space "
               "pause/resume  + extend 5m  c close round  t table  : command"
               "  r refresh ");
    else /* 80 columns: every key still shown */
        fb_put(t, rows - 1, 0, C_KEYS,
               " q quit p pair d draft P publish s start spc pause + 5m "
               "c close t table : cmd ");
}

/* Copies the frame to curses and draws it once: glyphs as wide
 * characters in a UTF-8 locale, else their ASCII stand-ins
 * (tny_utf8_ascii; '?' over both columns of a wide one). */
static void draw(struct tui *t)
{
    for (int r = 0; r < t->rows_n; r++) {
        for (int c = 0; c < t->cols_n; c++) {
            int co = t->co[r][c];
            const char *ch = t->ch[r][c];
            struct tny_utf8_glyph g;
            wchar_t w[TNY_UTF8_GLYPH_MAX];
            size_t n;
            attr_t attr = co == C_PLAIN ? A_NORMAL : COLOR_PAIR(co);
            if (co == C_TITLE || co == C_CONFLICT || co == C_OVERDUE)
                attr |= A_BOLD;
            if (r == t->rows_n - 1 && c == t->cols_n - 1)
                break; /* the last cell would scroll on some terminals */
            if (!ch[0])
                continue; /* the right half of a wide character */
            tny_utf8_next(ch, &g);
            if (g.width == 2 && r == t->rows_n - 1 && c + 2 >= t->cols_n)
                break;
            attrset(attr);
            if (t->utf8 &&
                (n = mbstowcs(w, ch, TNY_UTF8_GLYPH_MAX - 1)) != (size_t)-1) {
                w[n] = L'\0';
                mvaddwstr(r, c, w);
            } else {
                char a = tny_utf8_ascii(g.cp);
                for (int k = 0; k < g.width; k++)
                    mvaddch(r, c + k, (chtype)(unsigned char)(a ? a : ' '));
            }
        }
    }
    attrset(A_NORMAL);
    refresh();
}

/* ---- commands ------------------------------------------------------------ */

/* Runs `tourney live WORDS...` through the runner (the command table's):
 * *res is its result (exit status, the text it printed, the hub's typed
 * reply); release it with hub_console_result_release. */
static int run_cmd(struct tui *t, struct hub_console_conn *conn,
                   const char *what, int n, char **words,
                   struct hub_console_result *res)
{
    snprintf(t->status_line, sizeof t->status_line, "%s ...", what);
    render(t, LINES, COLS);
    draw(t);
    return t->run_words(conn, n, words, res);
}

static void panel_open(struct tui *t, const char *title);
static void panel_text(struct tui *t, const char *text);

/* The status line from a command's output: its first line (or, on
 * failure, its last: the error). */
static void status_from(struct tui *t, const char *what, int status,
                        const char *text)
{
    char line[STATUS_MAX] = "", buf[STATUS_MAX - 32];
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 0 && (!line[0] || status != HUB_CONSOLE_EXIT_OK))
            snprintf(line, sizeof line, "%.*s",
                     (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (p[n] == '\n');
    }
    /* Whole characters only: the line was cut at a byte count. */
    tny_utf8_fit(line, -1, false, buf, sizeof buf);
    if (status == HUB_CONSOLE_EXIT_OK)
        snprintf(t->status_line, sizeof t->status_line, "ok: %s",
                 buf[0] ? buf : what);
    else
        snprintf(t->status_line, sizeof t->status_line, "error (exit %d): %s",
                 status, buf[0] ? buf : what);
    /* Longer than the message area holds: the whole of it in the panel. */
    if (fb_wrap(t, 0, 2, COLS - 3, 0, C_PLAIN, t->status_line) >
        message_rows_max(LINES)) {
        panel_open(t, status == HUB_CONSOLE_EXIT_OK ? "the whole answer"
                                                    : "the whole refusal");
        panel_text(t, t->status_line);
    }
}

/* A draft's answer on the command line names the next command
 * (`tourney live round publish EV`, `... round pair EV`); here the next
 * step is a key (from the typed reply: its command and round). */
static void key_tip(struct tui *t, const struct hub_console_result *res)
{
    int round = (int)res->rep.round;
    if (res->status != HUB_CONSOLE_EXIT_OK || round <= 0)
        return;
    if (res->cmd == TNY_WIRE_CMD_PAIR_ROUND ||
        res->cmd == TNY_WIRE_CMD_NEXT_STAGE)
        snprintf(t->status_line, sizeof t->status_line,
                 "ok: paired round %d as a draft: press d to review it, P to "
                 "publish it",
                 round);
    else if (res->cmd == TNY_WIRE_CMD_DISCARD_DRAFT)
        snprintf(t->status_line, sizeof t->status_line,
                 "ok: discarded the draft of round %d: press p to pair it "
                 "again",
                 round);
}

static void run_key(struct tui *t, struct hub_console_conn *conn,
                    const char *what, int n, char **words)
{
    struct hub_console_result res;
    run_cmd(t, conn, what, n, words, &res);
    status_from(t, what, res.status, res.text);
    hub_console_result_release(&res);
}

/* ---- the panel ----------------------------------------------------------- */

static void panel_open(struct tui *t, const char *title)
{
    t->panel = true;
    t->panel_n = t->panel_top = 0;
    snprintf(t->panel_title, sizeof t->panel_title, "%s", title);
}

static void panel_add(struct tui *t, const char *fmt, ...) TNY_PRINTF(2, 3);
static void panel_add(struct tui *t, const char *fmt, ...)
{
    va_list ap;
    if (t->panel_n == PANEL_LINES)
        return;
    char *line = t->panel_lines[t->panel_n++];
    va_start(ap, fmt);
    vsnprintf(line, PANEL_COLS, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
}

/* Every line of text into the panel. */
static void panel_text(struct tui *t, const char *text)
{
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, "\n");
        panel_add(t, "%.*s", (int)(n < PANEL_COLS ? n : PANEL_COLS - 1), p);
        p += n + (p[n] == '\n');
    }
}

/* ---- the players signed in (issue 20 item 6) ------------------------------
 */

/* `code list EVENT` through the runner (nothing on the screen): per table
 * of the current round, its players with a valid player code and how
 * many of them are signed in on their own phone.  A refusal (no codes on
 * this hub, an older hub) or no answer: none shown, asked again after
 * CODES_RETRY_MS. */
static void poll_codes(struct tui *t, struct hub_console_conn *conn,
                       int64_t now)
{
    char *w[4] = {"code", "list", t->ev, NULL};
    struct hub_console_result res;
    int status = t->run_words(conn, 3, w, &res);
    json_t *root =
        status == HUB_CONSOLE_EXIT_OK ? hub_console_reply_tree(&res.rep) : NULL;
    hub_console_result_release(&res);
    t->codes_due_ms = now + (root ? CODES_POLL_MS : CODES_RETRY_MS);
    t->n_signins = 0;
    size_t i;
    const json_t *v;
    json_array_foreach (root, i, v) {
        int table = get_int(v, "table"), seats = get_int(v, "seats");
        const char *state = json_string_value(json_object_get(v, "state"));
        if (!json_object_get(v, "player") || table < 1 || seats < 1 || !state ||
            strcmp(state, "valid") != 0)
            continue;
        struct tui_signins *si = (struct tui_signins *)signins_of(t, table);
        if (!si) {
            if (t->n_signins == MAX_TABLES)
                continue;
            si = &t->signins[t->n_signins++];
            *si = (struct tui_signins){table, seats, 0};
        }
        si->in += json_is_true(json_object_get(v, "signed_in"));
    }
    json_decref(root);
}

/* ---- views: the draft, one table ------------------------------------------
 */

/* The event file (export) parsed, for players' names; NULL on error (the
 * status line says why). */
static json_t *fetch_export(struct tui *t, struct hub_console_conn *conn)
{
    char *w[3] = {"export", t->ev, NULL};
    struct hub_console_result res;
    int status = run_cmd(t, conn, "read the event", 2, w, &res);
    json_t *root = status == HUB_CONSOLE_EXIT_OK && res.rep.json
                       ? json_loads(res.rep.json, 0, NULL)
                       : NULL;
    if (!root)
        status_from(t, "read the event", status, res.text);
    hub_console_result_release(&res);
    return root;
}

static const char *str_or(const json_t *v, const char *dflt)
{
    const char *s = json_string_value(v);
    return s ? s : dflt;
}

/* "p3 Anna Novak (Brno)" from the export's players. */
static void player_label(const json_t *ev, const char *id, char *buf,
                         size_t size)
{
    size_t i;
    const json_t *p;
    json_array_foreach (json_object_get(ev, "players"), i, p) {
        if (strcmp(str_or(json_object_get(p, "id"), ""), id))
            continue;
        const char *club = json_string_value(json_object_get(p, "club"));
        snprintf(buf, size, "%s %s%s%s%s", id,
                 str_or(json_object_get(p, "name"), ""), club ? " (" : "",
                 club ? club : "", club ? ")" : "");
        return;
    }
    snprintf(buf, size, "%s", id);
}

/* d: the draft with names, seats and the engine's explanation. */
static void show_draft(struct tui *t, struct hub_console_conn *conn)
{
    char *w[5] = {"--json", "round", "show", t->ev, NULL};
    char a[160];
    struct hub_console_result res;
    json_t *ev = fetch_export(t, conn);
    if (!ev)
        return;
    int status = run_cmd(t, conn, "show the draft", 4, w, &res);
    /* Issue 18: the typed seating, no JSON text to parse. */
    const struct tny_wire_seating *d =
        status == HUB_CONSOLE_EXIT_OK ? res.rep.seating : NULL;
    if (!d) {
        status_from(t, "show the draft", status, res.text);
        hub_console_result_release(&res);
        json_decref(ev);
        return;
    }
    char title[STATUS_MAX];
    snprintf(title, sizeof title,
             "DRAFT of round %d (%s): review, edit with "
             ": round swap|move|fix ..., publish with P",
             (int)d->round, d->has_stage ? tny_stage_kind_name(d->stage) : "?");
    panel_open(t, title);
    for (int32_t i = 0; i < d->n_tables; i++) {
        const struct tny_wire_seated_table *tb = &d->tables[i];
        if (tb->table == 0) {
            player_label(ev, tb->players[0], a, sizeof a);
            panel_add(t, "  bye       %s", a);
            continue;
        }
        panel_add(t, "  table %d", (int)tb->table);
        for (int32_t k = 0; k < tb->n_players; k++) {
            player_label(ev, tb->players[k], a, sizeof a);
            panel_add(t, "     seat %d  %s", (int)k + 1, a);
        }
    }
    panel_add(t, "%s", "");
    panel_add(t, "%s", "explanation:");
    panel_text(t, d->explain);
    snprintf(t->status_line, sizeof t->status_line, "draft of round %d shown",
             (int)d->round);
    json_decref(ev);
    hub_console_result_release(&res);
}

/* t N: table N of the current round: its players and every submission
 * (a conflict shows both, with who and when). */
static void show_table(struct tui *t, struct hub_console_conn *conn, int number)
{
    char round[16], table[16], a[160];
    struct hub_console_result res;
    snprintf(round, sizeof round, "%d", t->tables_round);
    snprintf(table, sizeof table, "%d", number);
    char *w[8] = {"result", "show", t->ev, round, "--table", table, NULL, NULL};
    if (t->tables_round < 1) {
        snprintf(t->status_line, sizeof t->status_line,
                 "no published round: no table to show");
        return;
    }
    json_t *ev = fetch_export(t, conn);
    if (!ev)
        return;
    int status = run_cmd(t, conn, "show the table", 6, w, &res);
    if (status != HUB_CONSOLE_EXIT_OK) {
        status_from(t, "show the table", status, res.text);
        hub_console_result_release(&res);
        json_decref(ev);
        return;
    }
    char title[STATUS_MAX];
    snprintf(title, sizeof title,
             "TABLE %d, round %d: enter or override with : result enter "
             "%d %d {...} [--override]",
             number, t->tables_round, t->tables_round, number);
    panel_open(t, title);
    const json_t *r = json_array_get(json_object_get(ev, "rounds"),
                                     (size_t)t->tables_round - 1);
    size_t i, k;
    const json_t *tb, *p;
    json_array_foreach (json_object_get(r, "tables"), i, tb) {
        if (get_int(tb, "table") != number)
            continue;
        json_array_foreach (json_object_get(tb, "players"), k, p) {
            player_label(ev, str_or(p, "?"), a, sizeof a);
            panel_add(t, "  seat %d  %s", (int)k + 1, a);
        }
    }
    panel_add(t, "%s", "");
    panel_text(t, res.text);
    snprintf(t->status_line, sizeof t->status_line, "table %d shown", number);
    hub_console_result_release(&res);
    json_decref(ev);
}

/* ---- typed commands ------------------------------------------------------ */

/* Splits line in place into words (blanks separate; '...' and "..."
 * quote, e.g. a result's JSON or a name).  Returns the count, -1 when
 * there are too many or a quote is open. */
static int split_words(char *line, char **w, int max)
{
    int n = 0;
    char *p = line, *o;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (n == max)
            return -1;
        w[n++] = o = p;
        while (*p && *p != ' ') {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q)
                    *o++ = *p++;
                if (*p != q)
                    return -1;
                p++;
            } else {
                *o++ = *p++;
            }
        }
        if (*p)
            p++;
        *o = '\0';
    }
    return n;
}

/* Commands whose first argument is not this event. */
static bool takes_no_event(const char *first)
{
    static const char *const words[] = {"event", "devices", "device",
                                        "wait-hub", "console"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(first, words[i]) == 0)
            return true;
    return false;
}

/* What cannot be undone asks first. */
static bool cannot_undo(int n, char **w)
{
    bool override = false;
    for (int i = 0; i < n; i++)
        override |= strcmp(w[i], "--override") == 0;
    if (n < 2)
        return false;
    return (!strcmp(w[0], "player") && !strcmp(w[1], "dq")) ||
           (!strcmp(w[0], "stage") && !strcmp(w[1], "next")) ||
           (!strcmp(w[0], "result") && !strcmp(w[1], "resolve")) ||
           (!strcmp(w[0], "result") && !strcmp(w[1], "enter") && override) ||
           (!strcmp(w[0], "round") && !strcmp(w[1], "discard"));
}

/* Runs a typed command (the words after `tourney live`, the event id
 * added after the command's words); confirmed: the y/n was answered. */
static void run_typed(struct tui *t, struct hub_console_conn *conn,
                      const char *typed, bool confirmed)
{
    char copy[INPUT_MAX], *w[MAX_WORDS + 2], *x[MAX_WORDS + 2];
    snprintf(copy, sizeof copy, "%s", typed);
    int n = split_words(copy, w, MAX_WORDS);
    if (n <= 0) {
        snprintf(t->status_line, sizeof t->status_line,
                 n < 0 ? "command: an open quote or too many words"
                       : "command: nothing typed");
        return;
    }
    static const char *const groups[] = {"round",  "player", "players",
                                         "result", "clock",  "stage"};
    int at = 1; /* standings, export, log: the event comes next */
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strcmp(w[0], groups[i]) == 0)
            at = 2;
    if (at > n)
        at = n;
    if (strcmp(w[0], "console") == 0 || strcmp(w[0], "wait-hub") == 0) {
        snprintf(t->status_line, sizeof t->status_line,
                 "command: %s is not run from the dashboard", w[0]);
        return;
    }
    if (!confirmed && cannot_undo(n, w)) {
        snprintf(t->pending, sizeof t->pending, "%s", typed);
        t->input = IN_CONFIRM;
        return;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (i == at && !takes_no_event(w[0]))
            x[m++] = t->ev;
        x[m++] = w[i];
    }
    if (at == n && !takes_no_event(w[0]))
        x[m++] = t->ev;
    struct hub_console_result res;
    run_cmd(t, conn, typed, m, x, &res);
    status_from(t, typed, res.status, res.text);
    /* The command line's habit, the event id typed too (`:round close
     * ev1`): the usage error ("too many arguments (expected EVENT_ID
     * ...)") would name the very word given; say what to type instead. */
    if (res.status == HUB_CONSOLE_EXIT_USAGE && at < n &&
        !takes_no_event(w[0]) && strcmp(w[at], t->ev) == 0)
        snprintf(t->status_line, sizeof t->status_line,
                 "error (exit 2): the dashboard adds the event id: type "
                 ":%s%s%s without \"%s\"",
                 w[0], at > 1 ? " " : "", at > 1 ? w[1] : "", t->ev);
    key_tip(t, &res);
    /* More than one line: the whole output in the panel. */
    const char *text = res.text;
    if (text && strchr(text, '\n') && strchr(text, '\n')[1]) {
        char title[STATUS_MAX];
        snprintf(title, sizeof title, "tourney live %.200s", typed);
        panel_open(t, title);
        panel_text(t, text);
    }
    hub_console_result_release(&res);
}

/* A key while the bottom line takes input. */
static void on_input_key(struct tui *t, struct hub_console_conn *conn, int key)
{
    if (t->input == IN_CONFIRM) {
        t->input = IN_NONE;
        if (key == 'y' || key == 'Y')
            run_typed(t, conn, t->pending, true);
        else
            snprintf(t->status_line, sizeof t->status_line, "not done: %.200s",
                     t->pending);
        return;
    }
    if (key == 27) { /* Esc */
        t->input = IN_NONE;
        snprintf(t->status_line, sizeof t->status_line, "cancelled");
        return;
    }
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        /* a whole character: its UTF-8 continuation bytes with it */
        while (t->in_len > 0 &&
               ((unsigned char)t->in_buf[--t->in_len] & 0xC0) == 0x80)
            ;
        t->in_buf[t->in_len] = '\0';
        return;
    }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        int mode = t->input;
        t->input = IN_NONE;
        if (mode == IN_TABLE) {
            int number = atoi(t->in_buf);
            if (number < 1)
                snprintf(t->status_line, sizeof t->status_line,
                         "table: expected a table number, got \"%.20s\"",
                         t->in_buf);
            else
                show_table(t, conn, number);
        } else {
            run_typed(t, conn, t->in_buf, false);
        }
        return;
    }
    if (t->input == IN_TABLE) {
        if (key >= '0' && key <= '9' && t->in_len < 9) {
            t->in_buf[t->in_len++] = (char)key;
            t->in_buf[t->in_len] = '\0';
        }
        return;
    }
    /* A command takes any printable character: names in every script
     * (issue 22 item 2), stored as UTF-8. */
    char mb[MB_LEN_MAX > 8 ? MB_LEN_MAX : 8];
    mbstate_t ps;
    size_t n = 0;
    memset(&ps, 0, sizeof ps);
    if (key >= 0x20 && key < 0x7f) {
        mb[0] = (char)key;
        n = 1;
    } else if ((key & WIDE_CHAR) && t->utf8 &&
               (key & ~WIDE_CHAR) >= 0xA0) { /* C1 controls: no */
        n = wcrtomb(mb, (wchar_t)(key & ~WIDE_CHAR), &ps);
    }
    if (n == 0 || n == (size_t)-1)
        return;
    if (t->in_len + (int)n < INPUT_MAX) {
        memcpy(t->in_buf + t->in_len, mb, n);
        t->in_len += (int)n;
        t->in_buf[t->in_len] = '\0';
    }
}

static void start_input(struct tui *t, int mode)
{
    t->input = mode;
    t->in_len = 0;
    t->in_buf[0] = '\0';
}

static void on_key(struct tui *t, struct hub_console_conn *conn, int key)
{
    char *w[4] = {NULL, NULL, t->ev, NULL};
    if (t->input != IN_NONE) {
        on_input_key(t, conn, key);
        return;
    }
    if (t->panel) {
        if (key == 'j' || key == KEY_DOWN) {
            if (t->panel_top + 1 < t->panel_n)
                t->panel_top++;
        } else if (key == 'k' || key == KEY_UP) {
            if (t->panel_top > 0)
                t->panel_top--;
        } else if (key == KEY_NPAGE) {
            t->panel_top += LINES / 2;
            if (t->panel_top >= t->panel_n)
                t->panel_top = t->panel_n > 0 ? t->panel_n - 1 : 0;
        } else if (key == KEY_PPAGE) {
            t->panel_top -= LINES / 2;
            if (t->panel_top < 0)
                t->panel_top = 0;
        } else if (key != KEY_RESIZE) {
            t->panel = false;
        }
        return;
    }
    switch (key) {
    case 'p': {
        w[0] = "round", w[1] = "pair";
        struct hub_console_result res;
        run_cmd(t, conn, "pair next round", 3, w, &res);
        status_from(t, "pair next round", res.status, res.text);
        key_tip(t, &res);
        hub_console_result_release(&res);
        break;
    }
    case 'd': show_draft(t, conn); break;
    case 'P':
        w[0] = "round", w[1] = "publish";
        run_key(t, conn, "publish the draft", 3, w);
        break;
    case 's':
        w[0] = "clock", w[1] = "start";
        run_key(t, conn, "start clock", 3, w);
        break;
    case ' ':
        w[0] = "clock";
        w[1] = t->have_clock && t->clock.state == TNY_ROUND_CLOCK_RUNNING
                   ? "pause"
                   : "resume";
        run_key(t, conn, w[1][0] == 'p' ? "pause clock" : "resume clock", 3, w);
        break;
    case '+':
        w[0] = "clock", w[1] = "extend", w[3] = "5";
        run_key(t, conn, "extend all by 5 minutes", 4, w);
        break;
    case 'c':
        w[0] = "round", w[1] = "close";
        run_key(t, conn, "close round", 3, w);
        break;
    case 't': start_input(t, IN_TABLE); break;
    case ':': start_input(t, IN_COMMAND); break;
    case 'r':
    case KEY_RESIZE:
        clearok(curscr, TRUE);
        if (key == 'r')
            snprintf(t->status_line, sizeof t->status_line, "screen refreshed");
        break;
    default: break;
    }
}

/* ---- the loop ------------------------------------------------------------ */

/* ---- the loop: the keys, the hub's messages and the clock's tick ---- */

/* The screen's loop (tny/loop.h) and what its hooks need. */
struct tui_loop {
    struct tui *t;
    struct hub_console_conn *conn;
    struct tny_loop *ev;
};

/* Before each wait: the messages received, the time sync when due (every
 * connect, then TIME_RESYNC_MS), the frame. */
static void tui_before(void *ctx, int64_t now)
{
    struct tui_loop *u = ctx;
    struct tui *t = u->t;
    t->connected = hub_console_pump(u->conn);
    if (t->connected && (hub_console_connects(u->conn) != t->connects ||
                         now >= t->time_due_ms)) {
        t->connects = hub_console_connects(u->conn);
        ask_time(t, u->conn, now);
    }
    snprintf(t->hub_state, sizeof t->hub_state, "%s",
             hub_console_hub_state(u->conn));
    snprintf(t->hub_store, sizeof t->hub_store, "%s",
             hub_console_hub_store(u->conn));
    if (t->connected && strcmp(t->hub_state, "online") == 0 &&
        now >= t->codes_due_ms)
        poll_codes(t, u->conn, now);
    render(t, LINES, COLS);
    draw(t);
}

/* After each wait: every key typed; 'q' (no input line, no panel) or a
 * signal ends the loop. */
static void tui_after(void *ctx, int64_t now)
{
    struct tui_loop *u = ctx;
    struct tui *t = u->t;
    (void)now;
    /* Wide characters: a name typed after ':' in any script arrives
     * whole (get_wch decodes the locale's multibyte input). */
    wint_t wk;
    int got;
    while (!tny_loop_stopped(u->ev) && !stop_signal &&
           (got = get_wch(&wk)) != ERR) {
        /* A character beyond ASCII is flagged: its code may equal a
         * key code (U+0107 ć is KEY_BACKSPACE). */
        int key = got == KEY_CODE_YES || wk < 0x80
                      ? (int)wk
                      : (int)(wk & 0x1FFFFF) | WIDE_CHAR;
        if (key == 'q' && t->input == IN_NONE && !t->panel)
            tny_loop_stop(u->ev);
        else
            on_key(t, u->conn, key);
    }
    if (stop_signal)
        tny_loop_stop(u->ev);
}

/* 250 ms: the clock's seconds tick without any message. */
static void on_tick(void *ctx, int32_t id, int64_t now)
{
    struct tui_loop *u = ctx;
    (void)tny_timers_arm(tny_loop_timers(u->ev), id, now + 250);
}

int hub_console_tui(const struct hub_console_settings *s, const char *event_id,
                    hub_console_run_words_fn *run_words)
{
    struct tui *t = calloc(1, sizeof(*t));
    struct hub_console_conn *conn = NULL;
    struct tny_diag d = {{0}};
    SCREEN *screen = NULL;
    FILE *term = NULL;
    int status = HUB_CONSOLE_EXIT_INTERNAL, rc;
    struct sigaction sa, old_int, old_term;
    bool handlers = false;
    char err[600] = "";

    if (!t) {
        fputs("tourney: out of memory\n", stderr);
        return status;
    }
    t->run_words = run_words;
    snprintf(t->ev, sizeof t->ev, "%s", event_id);
    /* The hall's words: the locale's language (read from LANGUAGE,
     * LC_ALL, LC_MESSAGES, LANG, so that it works on a Pi without that
     * locale generated) until the feed names the event's. */
    hub_lang_pick(NULL, NULL, t->locale_lang, sizeof t->locale_lang);
    use_language(t, t->locale_lang);
    if (snprintf(t->t_event, sizeof t->t_event, "tourney/v1/feed/%s/event",
                 event_id) >= (int)sizeof t->t_event ||
        snprintf(t->t_tables, sizeof t->t_tables, "tourney/v1/feed/%s/tables",
                 event_id) >= (int)sizeof t->t_tables ||
        snprintf(t->t_standings, sizeof t->t_standings,
                 "tourney/v1/feed/%s/standings",
                 event_id) >= (int)sizeof t->t_standings ||
        tny_wire_topic(TNY_WIRE_TOPIC_CLOCK, event_id, t->t_clock,
                       sizeof t->t_clock, &d) < 0) {
        snprintf(err, sizeof err, "console: event id too long");
        status = HUB_CONSOLE_EXIT_USAGE;
        goto out;
    }
    if (tny_wire_topic(TNY_WIRE_TOPIC_TIME_REQ, s->user, t->t_time_req,
                       sizeof t->t_time_req, &d) < 0 ||
        tny_wire_topic(TNY_WIRE_TOPIC_TIME_RESP, s->user, t->t_time_resp,
                       sizeof t->t_time_resp, &d) < 0) {
        snprintf(err, sizeof err, "console: %s", d.msg);
        status = HUB_CONSOLE_EXIT_USAGE;
        goto out;
    }
    const char *const filters[5] = {t->t_event, t->t_tables, t->t_standings,
                                    t->t_clock, t->t_time_resp};
    struct hub_console_watch w = {filters, 5, on_message, t};
    if ((rc = hub_console_open_watch(s, &w, &conn, &d)) < 0) {
        snprintf(err, sizeof err, "%s", d.msg[0] ? d.msg : tny_strerror(rc));
        status = rc == TNY_EINVAL   ? HUB_CONSOLE_EXIT_USAGE
                 : rc == TNY_ESTATE ? HUB_CONSOLE_EXIT_NO_ANSWER
                                    : HUB_CONSOLE_EXIT_INTERNAL;
        goto out;
    }

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    handlers = true;

    /* curses on its own descriptor: commands' output is redirected. */
    int fd = dup(STDOUT_FILENO);
    term = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!term) {
        if (fd >= 0)
            close(fd);
        snprintf(err, sizeof err, "console: %s", strerror(errno));
        goto out;
    }
    /* Names are drawn in the locale's character set (LANG, LC_ALL); the
     * tourney program took it from the environment in main(). */
    t->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    screen = newterm(NULL, term, stdin);
    if (!screen) {
        snprintf(err, sizeof err, "console: cannot use the terminal (TERM=%s)",
                 getenv("TERM") ? getenv("TERM") : "");
        status = HUB_CONSOLE_EXIT_USAGE;
        goto out;
    }
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(C_TITLE, COLOR_CYAN, -1);
        init_pair(C_WAITING, COLOR_WHITE, -1);
        init_pair(C_PLAYING, COLOR_BLUE, -1);
        init_pair(C_OVERDUE, COLOR_RED, -1);
        init_pair(C_PENDING, COLOR_YELLOW, -1);
        init_pair(C_CONFIRMED, COLOR_GREEN, -1);
        init_pair(C_CONFLICT, COLOR_WHITE, COLOR_RED);
        init_pair(C_OFFLINE, COLOR_MAGENTA, -1);
        init_pair(C_KEYS, COLOR_BLACK, COLOR_WHITE);
    }
    snprintf(t->status_line, sizeof t->status_line, "watching %s", t->ev);

    struct tui_loop u = {t, conn, NULL};
    int32_t tick;
    if ((rc = tny_loop_new(&u.ev)) < 0 ||
        (rc = tny_loop_watch(u.ev, STDIN_FILENO, POLLIN, NULL, NULL)) < 0 ||
        (rc = tny_loop_watch(u.ev, hub_console_wakeup_fd(conn), POLLIN, NULL,
                             NULL)) < 0 ||
        (rc = tick = tny_timers_add(tny_loop_timers(u.ev), on_tick, &u)) < 0) {
        tny_loop_free(u.ev);
        snprintf(err, sizeof err, "console: out of memory");
        goto out;
    }
    tny_loop_set_hooks(u.ev, tui_before, tui_after, &u);
    (void)tny_timers_arm(tny_loop_timers(u.ev), tick, mono_ms() + 250);
    while (!tny_loop_stopped(u.ev) && !stop_signal &&
           tny_loop_once(u.ev, 250, NULL) == TNY_OK)
        ;
    tny_loop_free(u.ev);
    status = HUB_CONSOLE_EXIT_OK;
out:
    if (screen) {
        endwin();
        delscreen(screen);
    }
    if (term)
        fclose(term);
    if (handlers) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    hub_console_close(conn);
    if (err[0])
        fprintf(stderr, "tourney: %s\n", err);
    tny_wire_clock_release(&t->wc);
    free(t);
    return status;
}
