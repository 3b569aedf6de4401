/* screen_draw.c - drawing the table display's screens into a character
 * grid (screen.h): the grid itself, the layout of every screen and the
 * key line.
 *
 * Pure: no I/O, no clock read; the only allocation is the grid's.
 * Layout (100x30, a Pi 7" console; 80x24 keeps every part): row 0 the
 * title bar; the large table number and round clock below it; the seats;
 * the state in words; the message line, the network line and the key
 * line at the bottom.  Text is clipped, never wrapped past its area.
 */
#include "screen.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/bigtext.h"
#include "tny/catan_board.h"
#include "tny/clock.h"
#include "tny/game.h"
#include "tny/utf8.h"

#include "i18n.h"
#include "text.h"

/* ---- grid ------------------------------------------------------------ */

int tbl_grid_init(struct tbl_grid *g, int32_t rows, int32_t cols,
                  struct tny_diag *diag)
{
    memset(g, 0, sizeof(*g));
    if (rows < 1 || cols < 1 || rows > 1000 || cols > 1000)
        return tny_diag_set(diag, TNY_EINVAL, "grid: %dx%d out of range",
                            (int)cols, (int)rows);
    g->cells = calloc((size_t)rows * (size_t)cols, sizeof(*g->cells));
    if (!g->cells)
        return tny_diag_set(diag, TNY_ENOMEM, "grid: out of memory");
    g->rows = rows;
    g->cols = cols;
    tbl_grid_clear(g);
    return TNY_OK;
}

void tbl_grid_release(struct tbl_grid *g)
{
    free(g->cells);
    memset(g, 0, sizeof(*g));
}

void tbl_grid_clear(struct tbl_grid *g)
{
    for (int32_t i = 0; i < g->rows * g->cols; i++) {
        g->cells[i].ch[0] = ' ';
        g->cells[i].ch[1] = '\0';
        g->cells[i].attr = TBL_ATTR_NORMAL;
    }
}

int32_t tbl_grid_put(struct tbl_grid *g, int32_t row, int32_t col,
                     enum tbl_attr attr, const char *text, int32_t max_cols)
{
    struct tny_utf8_glyph gl;
    int32_t n = 0;
    size_t used;

    if (row < 0 || row >= g->rows || col < 0)
        return 0;
    while ((used = tny_utf8_next(text, &gl)) > 0) {
        struct tbl_cell *c = &g->cells[row * g->cols + col + n];
        if (col + n + gl.width > g->cols ||
            (max_cols >= 0 && n + gl.width > max_cols))
            break;
        memcpy(c->ch, gl.bytes, sizeof(c->ch));
        c->attr = (uint8_t)attr;
        if (gl.width == 2) {
            c[1].ch[0] = '\0';
            c[1].attr = (uint8_t)attr;
        }
        /* A wide character overwritten by halves leaves no orphan half. */
        if (col + n > 0 && c[-1].ch[0] && tny_utf8_width(c[-1].ch) == 2)
            snprintf(c[-1].ch, sizeof(c[-1].ch), " ");
        n += gl.width;
        text += used;
    }
    if (n > 0 && col + n < g->cols &&
        g->cells[row * g->cols + col + n].ch[0] == '\0')
        snprintf(g->cells[row * g->cols + col + n].ch, sizeof(g->cells[0].ch),
                 " ");
    return n;
}

void tbl_grid_row(const struct tbl_grid *g, int32_t row, char *buf, size_t size)
{
    size_t at = 0;

    if (size == 0)
        return;
    buf[0] = '\0';
    if (row < 0 || row >= g->rows)
        return;
    for (int32_t c = 0; c < g->cols; c++) {
        const char *ch = g->cells[row * g->cols + c].ch;
        size_t len = strlen(ch);
        if (at + len + 1 > size)
            break;
        memcpy(buf + at, ch, len);
        at += len;
    }
    buf[at] = '\0';
}

/* Columns of UTF-8 text on the screen. */
static int32_t text_cols(const char *text)
{
    return tny_utf8_width(text);
}

static int32_t putf(struct tbl_grid *g, int32_t row, int32_t col,
                    enum tbl_attr attr, const char *fmt, ...) TNY_PRINTF(5, 6);

static int32_t putf(struct tbl_grid *g, int32_t row, int32_t col,
                    enum tbl_attr attr, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return tbl_grid_put(g, row, col, attr, buf, -1);
}

static void fill_row(struct tbl_grid *g, int32_t row, enum tbl_attr attr)
{
    char blank[2] = " ";

    for (int32_t c = 0; c < g->cols; c++)
        tbl_grid_put(g, row, c, attr, blank, 1);
}

/* Word-wraps text (with '\n') into width columns from row; at most
 * max_rows rows.  Returns the rows used. */
static int32_t put_wrapped(struct tbl_grid *g, int32_t row, int32_t col,
                           int32_t width, enum tbl_attr attr, const char *text,
                           int32_t max_rows)
{
    char line[1024];
    int32_t used = 0;
    const char *p = text;
    struct tny_utf8_glyph gl;

    while (*p && used < max_rows) {
        size_t len = 0, last_space = 0, n;
        int32_t cols = 0;
        /* Whole glyphs while they fit in width columns. */
        while (p[len] && p[len] != '\n' && len < sizeof(line) - 1 &&
               (n = tny_utf8_next(p + len, &gl)) > 0 &&
               cols + gl.width <= width && len + n < sizeof(line)) {
            if (p[len] == ' ')
                last_space = len;
            cols += gl.width;
            len += n;
        }
        if (p[len] && p[len] != '\n' && last_space > 0)
            len = last_space;
        if (len == 0 && p[0] != '\n')
            len = tny_utf8_next(p, &gl); /* wider than the area: skip it */
        memcpy(line, p, len);
        line[len] = '\0';
        tbl_grid_put(g, row + used, col, attr, line, width);
        used++;
        p += len;
        if (*p == '\n' || *p == ' ')
            p++;
    }
    return used;
}

/* ---- pieces ------------------------------------------------------------ */

/* m:ss of a countdown (seconds rounded up, so 0:00 is shown only when the
 * time is up); negative as -m:ss. */
static void fmt_left(int64_t ms, char *buf, size_t size)
{
    bool neg = ms < 0;
    int64_t s = neg ? (-ms) / 1000 : (ms + 999) / 1000;

    snprintf(buf, size, "%s%" PRId64 ":%02d", neg ? "-" : "", s / 60,
             (int)(s % 60));
}

/* m:ss of a used time (seconds rounded down). */
static void fmt_used(int64_t ms, char *buf, size_t size)
{
    int64_t s = ms < 0 ? 0 : ms / 1000;

    snprintf(buf, size, "%" PRId64 ":%02d", s / 60, (int)(s % 60));
}

static void put_big(struct tbl_grid *g, int32_t row, int32_t col,
                    const char *text, enum tbl_attr ink)
{
    char rows[TNY_BIGTEXT_ROWS][128];
    struct tny_diag d = {{0}};

    if (tny_bigtext_render(text, 2, &rows[0][0], sizeof(rows[0]), &d) < 0)
        return;
    for (int32_t r = 0; r < TNY_BIGTEXT_ROWS; r++)
        for (int32_t c = 0; rows[r][c]; c++)
            if (rows[r][c] == TNY_BIGTEXT_INK)
                tbl_grid_put(g, row + r, col + c, ink, "#", 1);
}

static bool blink_on(int64_t now_ms)
{
    return (now_ms / 500) % 2 == 0;
}

struct clock_text {
    char big[32];    /* for bigtext */
    char small[128]; /* words */
    bool expired, paused;
};

/* The round clock in the one format of every screen (tny_clock_format:
 * "+2:05 overtime"); a finished table's clock stands. */
static void round_clock(const struct tbl_core *core, int64_t now_ms,
                        struct clock_text *out)
{
    int64_t rem;

    memset(out, 0, sizeof(*out));
    if (!core->has_clock) {
        snprintf(out->big, sizeof(out->big), "--:--");
        snprintf(out->small, sizeof(out->small), _("no round clock yet"));
        return;
    }
    if (core->clock.unlimited) {
        snprintf(out->big, sizeof(out->big), "--:--");
        snprintf(out->small, sizeof(out->small), _("no time limit"));
        return;
    }
    rem = tbl_core_clock_left(core, now_ms);
    tny_clock_format(rem, out->big, sizeof(out->big));
    switch (core->clock.state) {
    case TNY_ROUND_CLOCK_READY:
        snprintf(out->small, sizeof(out->small), _("clock %s not started"),
                 out->big);
        break;
    case TNY_ROUND_CLOCK_PAUSED:
        /* A finished table's clock stands, whatever the round's clock
         * does: the hub pauses it when it closes the round (issue 22 item
         * 8: no blinking PAUSED over a table that has its result). */
        if (core->clock_stop_ms >= 0) {
            snprintf(out->small, sizeof(out->small),
                     _("clock %s stopped: the table has finished"), out->big);
            break;
        }
        out->paused = true;
        snprintf(out->small, sizeof(out->small), _("clock %s PAUSED"),
                 out->big);
        break;
    case TNY_ROUND_CLOCK_RUNNING:
        if (core->clock_stop_ms >= 0) {
            snprintf(out->small, sizeof(out->small),
                     _("clock %s stopped: the table has finished"), out->big);
        } else if (rem <= 0) {
            out->expired = true;
            snprintf(out->small, sizeof(out->small),
                     _("clock %s%s%s TIME IS UP"), out->big,
                     rem <= -1000 ? " " : "",
                     rem <= -1000 ? TNY_CLOCK_OVERTIME : "");
        } else {
            snprintf(out->small, sizeof(out->small), _("clock %s running"),
                     out->big);
        }
        break;
    }
}

static void title_bar(const struct tbl_core *core, const char *device_id,
                      struct tbl_grid *g)
{
    char right[96];
    const struct tny_wire_assignment *a = &core->asg;

    fill_row(g, 0, TBL_ATTR_BAR);
    if (core->has_assignment) {
        char t[512], cut[sizeof(a->event_title)];
        const char *title = a->event_title[0] ? a->event_title : a->event_id;
        const char *stage = tbl_i18n_data(
            a->stage_name[0] ? a->stage_name : tny_stage_kind_name(a->stage));
        int32_t width = g->cols - 14;
        snprintf(t, sizeof(t), _(" %s | Round %d | %s"), title, (int)a->round,
                 stage);
        /* A long title gives way (cut with "…"), not the round and the
         * stage after it. */
        int32_t over = text_cols(t) - width;
        if (over > 0 && text_cols(title) - over >= 8) {
            tny_utf8_fit(title, text_cols(title) - over, true, cut,
                         sizeof(cut));
            snprintf(t, sizeof(t), _(" %s | Round %d | %s"), cut, (int)a->round,
                     stage);
        }
        tbl_grid_put(g, 0, 0, TBL_ATTR_BAR, t, width);
    } else {
        tbl_grid_put(g, 0, 0, TBL_ATTR_BAR, _(" Tourney table"), -1);
    }
    snprintf(right, sizeof(right), "%s ", device_id);
    tbl_grid_put(g, 0, g->cols - text_cols(right), TBL_ATTR_BAR, right, -1);
}

/* The key line's first row when keys is wider than width: up to the last
 * gap between two keys ("  ") that fits (issue 21: Hungarian and Czech
 * keys run longer; wrapped, not cut).  *rest the second row ("" when one
 * row is enough or there is no gap). */
static void split_keys(const char *keys, int32_t width, char *first,
                       size_t size, const char **rest)
{
    const char *cut = NULL;

    snprintf(first, size, "%s", keys);
    *rest = "";
    if (text_cols(keys) <= width)
        return;
    for (const char *p = strstr(keys, "  "); p; p = strstr(p + 1, "  ")) {
        size_t len = (size_t)(p - keys);
        if (len >= size)
            break;
        memcpy(first, keys, len);
        first[len] = '\0';
        if (text_cols(first) > width)
            break;
        cut = p;
    }
    if (!cut) {
        snprintf(first, size, "%s", keys);
        return;
    }
    first[cut - keys] = '\0';
    while (*cut == ' ')
        cut++;
    *rest = cut;
}

static void bottom(const struct tbl_screen *s, const struct tbl_core *core,
                   const char *keys, struct tbl_grid *g)
{
    char first[512];
    const char *rest;
    int32_t c, r;

    /* Two key rows push the status and message lines up one row. */
    split_keys(keys, g->cols - 2, first, sizeof(first), &rest);
    r = g->rows - (rest[0] ? 1 : 0);

    if (s->message[0])
        tbl_grid_put(g, r - 3, 1,
                     s->message_error ? TBL_ATTR_ALERT : TBL_ATTR_GOOD,
                     s->message, g->cols - 2);
    c = tbl_grid_put(g, r - 2, 1, core->online ? TBL_ATTR_GOOD : TBL_ATTR_ALERT,
                     core->online ? _("network online") : _("network OFFLINE"),
                     -1);
    /* The broker's own words for a refused login (a wrong mqtt_password) */
    if (!core->online && core->net_refused[0])
        c += putf(g, r - 2, 1 + c, TBL_ATTR_ALERT, " (%s)", core->net_refused);
    c += 1;
    c += putf(g, r - 2, 1 + c, core->queued ? TBL_ATTR_WARN : TBL_ATTR_DIM,
              ngettext("| %d result queued%s ", "| %d results queued%s ",
                       (unsigned long)core->queued),
              (int)core->queued,
              core->queued && !core->online ? _(" (sent when back online)")
                                            : "");
    putf(g, r - 2, 1 + c,
         !core->hub_known   ? TBL_ATTR_DIM
         : core->hub_online ? TBL_ATTR_GOOD
                            : TBL_ATTR_ALERT,
         _("| hub %s"),
         !core->hub_known   ? _("unknown")
         : core->hub_online ? _("online")
                            : _("OFFLINE"));
    fill_row(g, r - 1, TBL_ATTR_KEYS);
    tbl_grid_put(g, r - 1, 1, TBL_ATTR_KEYS, first, g->cols - 2);
    if (rest[0]) {
        fill_row(g, r, TBL_ATTR_KEYS);
        tbl_grid_put(g, r, 1, TBL_ATTR_KEYS, rest, g->cols - 2);
    }
}

/* A small status line for screens without the large digits. */
static void status_line(const struct tbl_core *core, int64_t now_ms,
                        const char *what, struct tbl_grid *g)
{
    struct clock_text ct;

    round_clock(core, now_ms, &ct);
    putf(g, 1, 1, TBL_ATTR_BOLD, _("Table %d"), (int)core->asg.table);
    putf(g, 1, 12, ct.expired ? TBL_ATTR_ALERT : TBL_ATTR_NORMAL, "%s",
         ct.small);
    if (what)
        tbl_grid_put(g, 1, g->cols - text_cols(what) - 1, TBL_ATTR_BOLD, what,
                     -1);
}

/* One seat: number, name, club, side, first player (buf) and the format's
 * extras (NH-10 armies, TX-10 colours, GT-14 faction and agenda: extra,
 * may be ""). */
static void seat_line(const struct tbl_core *core, int32_t i, char *buf,
                      size_t size, char *extra, size_t extra_size)
{
    const struct tny_wire_seat *st = &core->asg.seats[i];
    size_t at = 0;
    int k;

#define ADD(...)                                                               \
    do {                                                                       \
        k = snprintf(buf + at, size - at, __VA_ARGS__);                        \
        if (k > 0)                                                             \
            at += (size_t)k < size - at ? (size_t)k : size - at - 1;           \
    } while (0)
    char name[4 * 60 + 1];
    int32_t cols = 24;
    /* Aligned by display width: a name of accents or CJK takes as many
     * columns as it shows; the field is as wide as the table's longest
     * name (24..60 columns), so that every seat's club starts at the same
     * column (docs/table-display.md). */
    for (int32_t s = 0; s < core->asg.n_seats; s++) {
        const struct tny_wire_seat *o = &core->asg.seats[s];
        int32_t w = tny_utf8_width(o->name[0] ? o->name : o->player_id);
        if (w > cols)
            cols = w > 60 ? 60 : w;
    }
    tny_utf8_pad(st->name[0] ? st->name : st->player_id, cols, 60, name,
                 sizeof(name));
    ADD("%d  %s", (int)(i + 1), name);
    if (st->club[0]) {
        char club[4 * 40 + 1];
        tny_utf8_fit(st->club, 40, true, club, sizeof(club));
        ADD(" (%s)", club);
    }
    if (st->side[0]) /* issue 19: the side this seat plays */
        ADD("  %.20s", st->side);
    if (st->first_player)
        ADD("%s", _("  FIRST PLAYER"));
    buf = extra;
    size = extra_size;
    at = 0;
    buf[0] = '\0';
    for (int32_t a = 0; a < st->n_armies; a++)
        ADD("%s%s", a ? ", " : _("  armies: "), st->armies[a]);
    if (st->hook)
        ADD("%s", _("  Iron Gang Hook (swap token)"));
    for (int32_t c = 0; c < st->n_colours; c++)
        ADD("%s%s", c ? ", " : _("  colours: "), tbl_i18n_data(st->colours[c]));
    if (st->colour_blind)
        ADD("%s", _(" (colour-blind set)"));
    if (st->faction[0])
        ADD(_("  faction: %.60s"), st->faction);
    if (st->agenda[0])
        ADD(_("  agenda: %.60s"), st->agenda);
#undef ADD
}

/* ---- MAIN ---------------------------------------------------------------- */

struct words {
    const char *head;
    char detail[TNY_WIRE_NOTE_MAX + 128];
    enum tbl_attr attr;
};

static void state_words(const struct tbl_screen *s, const struct tbl_core *core,
                        int64_t now_ms, struct words *w)
{
    char reason[TNY_WIRE_NOTE_MAX + 32];
    struct clock_text ct;

    (void)s;
    round_clock(core, now_ms, &ct);
    w->detail[0] = '\0';
    w->attr = TBL_ATTR_BOLD;
    switch (tbl_core_state(core)) {
    case TBL_STATE_WAITING:
        w->head = _("WAITING FOR THE ROUND");
        snprintf(w->detail, sizeof(w->detail),
                 _("no table assigned yet: the organiser publishes the round"));
        w->attr = TBL_ATTR_WARN;
        break;
    case TBL_STATE_IDLE:
        w->head = _("NO TABLE THIS ROUND");
        snprintf(w->detail, sizeof(w->detail),
                 _("this device has no table in round %d"),
                 (int)core->asg.round);
        w->attr = TBL_ATTR_WARN;
        break;
    case TBL_STATE_PLAYING:
        if (tbl_core_refusal(core, reason, sizeof(reason))) {
            w->head = _("RESULT REJECTED BY THE HUB");
            snprintf(w->detail, sizeof(w->detail),
                     _("%s -- Enter: correct the result"), reason);
            w->attr = TBL_ATTR_ALERT;
        } else if (ct.expired) {
            w->head = _("TIME-OUT PROCEDURE");
            snprintf(w->detail, sizeof(w->detail),
                     _("the round time is up: * time-out steps, Enter: the "
                       "result"));
            w->attr = TBL_ATTR_ALERT;
        } else {
            w->head = _("PLAYING");
            snprintf(w->detail, sizeof(w->detail),
                     _("Enter: the result when the game is over"));
        }
        break;
    case TBL_STATE_CONFIRMING:
        w->head = _("RESULT ENTERED: WAITING FOR CONFIRMATIONS");
        snprintf(w->detail, sizeof(w->detail),
                 _("Enter: every player confirms"));
        w->attr = TBL_ATTR_WARN;
        break;
    case TBL_STATE_SUBMITTED:
        w->head = _("RESULT SENT");
        snprintf(w->detail, sizeof(w->detail), "%s",
                 core->online ? _("waiting for the hub's answer")
                              : _("offline: stored here, sent when the network "
                                  "is back"));
        w->attr = TBL_ATTR_WARN;
        break;
    case TBL_STATE_PENDING_CONFIRMATION:
        w->head = _("RESULT AT THE HUB: WAITING FOR CONFIRMATIONS");
        snprintf(w->detail, sizeof(w->detail),
                 _("the hub holds it until the organiser confirms"));
        w->attr = TBL_ATTR_WARN;
        break;
    case TBL_STATE_DONE:
        if (core->asg.organiser_result[0]) {
            /* The result as the organiser entered or resolved it, in
             * words with the players' names (never the ids' JSON). */
            char said[sizeof(w->detail) -
                      sizeof(core->asg.organiser_result_by) - 8];
            tbl_text_result(&core->asg, core->asg.organiser_result, said,
                            sizeof(said));
            w->head = _("RESULT ENTERED BY THE ORGANISER");
            snprintf(w->detail, sizeof(w->detail), "%s%s%s",
                     said[0] ? said : _("the organiser has stored the result"),
                     core->asg.organiser_result_by[0] ? _(" -- by ") : "",
                     core->asg.organiser_result_by);
            w->attr = TBL_ATTR_GOOD;
            break;
        }
        w->head = _("RESULT ACCEPTED");
        snprintf(w->detail, sizeof(w->detail),
                 _("thank you: the hub has stored the result"));
        w->attr = TBL_ATTR_GOOD;
        break;
    }
}

static void draw_ag(const struct tbl_screen *s, int64_t now_ms, int32_t row,
                    struct tbl_grid *g)
{
    struct tbl_ag_view v;
    char a[24], b[24];

    tbl_ag_view(&s->ag, now_ms, &v);
    if (!v.started) {
        putf(g, row, 1, TBL_ATTR_WARN,
             _("AG-14: waiting for the draft: this table's time starts with "
               "it (/ starts the draft)"));
    } else if (v.speed) {
        fmt_left(v.action_left_ms > 0 ? v.action_left_ms : 0, a, sizeof(a));
        putf(g, row, 1, v.action_over ? TBL_ATTR_ALERT : TBL_ATTR_WARN,
             _("SPEED PLAY (AG-14): action %s%s -- 0: next action"), a,
             v.action_over ? _(" TURN PASSED") : "");
    } else if (v.drafting) {
        fmt_left(v.draft_left_ms > 0 ? v.draft_left_ms : 0, a, sizeof(a));
        putf(g, row, 1, v.draft_left_ms < 0 ? TBL_ATTR_ALERT : TBL_ATTR_NORMAL,
             _("DRAFT %s left (AG-14) -- / when the draft is finished"), a);
    } else {
        fmt_used(s->ag.draft_end_ms - s->ag.start_ms, b, sizeof(b));
        putf(g, row, 1, TBL_ATTR_DIM, _("draft done in %s (AG-14)"), b);
    }
}

/* CT-8: the per-turn limit after the time-out. */
static void draw_turn(const struct tbl_screen *s, int64_t now_ms, int32_t row,
                      struct tbl_grid *g)
{
    char a[24], b[24];

    fmt_left(s->turn_ms, b, sizeof(b));
    if (s->turn_start_ms < 0) {
        putf(g, row, 1, TBL_ATTR_DIM,
             _("CT-8: after the time-out each turn has %s (0: next turn)"), b);
        return;
    }
    int64_t left = s->turn_ms - (now_ms - s->turn_start_ms);
    fmt_left(left > 0 ? left : 0, a, sizeof(a));
    putf(g, row, 1, left <= 0 ? TBL_ATTR_ALERT : TBL_ATTR_WARN,
         _("TURN LIMIT (CT-8): %s of %s%s -- 0: next turn"), a, b,
         left <= 0 ? _(" TIME OVER") : "");
}

static void draw_chess_summary(const struct tbl_screen *s,
                               const struct tbl_core *core, int64_t now_ms,
                               int32_t row, struct tbl_grid *g)
{
    struct tbl_chess_view v;
    char a[24], b[24];

    if (!s->chess.started) {
        putf(g, row, 1, TBL_ATTR_DIM, _("chess clock (TX-3): / opens it"));
        return;
    }
    tbl_chess_view(&s->chess, now_ms, &v);
    fmt_used(v.used_ms[0], a, sizeof(a));
    fmt_used(v.used_ms[1], b, sizeof(b));
    putf(g, row, 1, v.paused ? TBL_ATTR_WARN : TBL_ATTR_NORMAL,
         _("chess clock: %s %s | %s %s%s%s -- / opens it"),
         core->asg.seats[0].name, a, core->asg.seats[1].name, b,
         v.paused ? _(" PAUSED") : "", v.stopped ? _(" stopped") : "");
}

static void draw_main(const struct tbl_screen *s, const struct tbl_core *core,
                      int64_t now_ms, struct tbl_grid *g, char *keys,
                      size_t keys_size)
{
    struct clock_text ct;
    struct words w;
    char num[16], line[1024];
    int32_t row, clock_col, max_row = g->rows - 4;
    bool big = g->rows >= 20 && g->cols >= 60;
    enum tbl_state st = tbl_core_state(core);
    const struct tny_wire_assignment *a = &core->asg;
    const uint32_t clocks = tny_game_clocks(a->game);

    round_clock(core, now_ms, &ct);
    if (core->has_assignment && a->table > 0)
        snprintf(num, sizeof(num), "%d", (int)a->table);
    else
        snprintf(num, sizeof(num), "--");
    if (big) {
        enum tbl_attr ink = TBL_ATTR_INK;
        if (ct.expired)
            ink = blink_on(now_ms) ? TBL_ATTR_INK_ALERT : TBL_ATTR_NORMAL;
        else if (ct.paused)
            ink = blink_on(now_ms) ? TBL_ATTR_INK : TBL_ATTR_DIM;
        putf(g, 1, 2, TBL_ATTR_BOLD, _("TABLE"));
        put_big(g, 2, 2, num, TBL_ATTR_INK);
        clock_col = 2 + tny_bigtext_width("888", 2) + 6;
        /* AG-14: this table's own time, from its draft. */
        putf(g, 1, clock_col, TBL_ATTR_BOLD, "%s",
             tbl_core_per_table_start(core) ? _("TABLE CLOCK (from the draft)")
                                            : _("ROUND CLOCK"));
        if (ink != TBL_ATTR_NORMAL)
            put_big(g, 2, clock_col, ct.big, ink);
        putf(g, 7, 2, TBL_ATTR_NORMAL, _("Table %s"), num);
        putf(g, 7, clock_col, ct.expired ? TBL_ATTR_ALERT : TBL_ATTR_NORMAL,
             "%s", ct.small);
        row = 9;
    } else {
        putf(g, 1, 1, TBL_ATTR_BOLD, _("Table %s"), num);
        putf(g, 1, 12, ct.expired ? TBL_ATTR_ALERT : TBL_ATTR_NORMAL, "%s",
             ct.small);
        row = 2;
    }
    if (s->bound && s->has_ag)
        draw_ag(s, now_ms, row++, g);
    if (s->bound && s->turn_ms > 0)
        draw_turn(s, now_ms, row++, g);
    if (s->bound && s->pairing_changed) /* CM-5, until a key */
        putf(g, row++, 1, TBL_ATTR_WARN,
             _("PAIRING CHANGED (CM-5): the organiser changed this table; "
               "check the players"));
    if (s->bound && s->has_chess)
        draw_chess_summary(s, core, now_ms, row++, g);
    row++;
    if (core->has_assignment && a->table > 0) {
        for (int32_t i = 0; i < a->n_seats && row < max_row; i++) {
            char extra[1024];
            int32_t c;
            seat_line(core, i, line, sizeof(line), extra, sizeof(extra));
            c = tbl_grid_put(g, row, 1, TBL_ATTR_NORMAL, line, g->cols - 2);
            /* The extras on the same line when they fit, else below. */
            if (extra[0] && c + text_cols(extra) > g->cols - 2 &&
                row + 1 < max_row) {
                row++;
                c = 2;
            }
            tbl_grid_put(g, row++, 1 + c, TBL_ATTR_DIM, extra, g->cols - 2 - c);
        }
        row++;
    }
    state_words(s, core, now_ms, &w);
    if (row < max_row)
        tbl_grid_put(g, row++, 1, w.attr, w.head, -1);
    if (row < max_row)
        row += put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_NORMAL, w.detail,
                           max_row - row > 2 ? 2 : max_row - row);
    if (s->outcome_kind != TBL_FLOW_RESULT && s->n_outcome > 0 &&
        row + 1 < max_row) {
        row++;
        for (int32_t i = 0; i < s->n_outcome && row < max_row; i++)
            tbl_grid_put(g, row++, 1, TBL_ATTR_DIM, s->outcome[i], g->cols - 2);
    }
    if (st == TBL_STATE_PLAYING) {
        bool refused = tbl_core_refusal(core, line, sizeof(line)) != NULL;
        snprintf(keys, keys_size,
                 _("Enter %s  + before the game  * time-out  %s. notes"),
                 refused ? _("correct the result") : _("enter the result"),
                 (clocks & TNY_GCLOCK_CHESS)   ? _("/ chess clock  ")
                 : (clocks & TNY_GCLOCK_DRAFT) ? _("/ draft  0 next action  ")
                                               : "");
    } else if (st == TBL_STATE_CONFIRMING) {
        snprintf(keys, keys_size, _("Enter confirm the result  . notes"));
    } else {
        snprintf(keys, keys_size, _(". notes"));
    }
}

/* ---- FLOW, OUTCOME, CONFIRM, NOTES --------------------------------------- */

static const char *flow_name(enum tbl_flow_kind k)
{
    switch (k) {
    case TBL_FLOW_PREGAME: return _("BEFORE THE GAME");
    case TBL_FLOW_TIMEOUT: return _("TIME-OUT");
    case TBL_FLOW_RESULT: return _("RESULT");
    }
    return "?";
}

static void draw_flow(const struct tbl_screen *s, const struct tbl_core *core,
                      int64_t now_ms, struct tbl_grid *g, char *keys,
                      size_t keys_size)
{
    struct tbl_flow_step st;
    int32_t row = 3, max_row = g->rows - 4;

    status_line(core, now_ms, flow_name(s->flow.kind), g);
    tbl_flow_step(&s->flow, &st);
    tbl_grid_put(g, row++, 1, TBL_ATTR_BOLD, st.title, g->cols - 2);
    row++;
    row += put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_NORMAL, st.text,
                       max_row - row -
                           (st.ask == TBL_ASK_CHOICE ? st.n_options + 1 : 2));
    row++;
    switch (st.ask) {
    case TBL_ASK_CHOICE:
        for (int32_t i = 0; i < st.n_options && row < max_row; i++)
            putf(g, row++, 3,
                 st.has_default && st.default_value == i ? TBL_ATTR_BOLD
                                                         : TBL_ATTR_NORMAL,
                 "%d  %s%s", (int)(i + 1), st.options[i],
                 st.has_default && st.default_value == i ? _("  (Enter)") : "");
        snprintf(keys, keys_size,
                 _("1-%d choose  %s- back  / cancel the steps"),
                 (int)st.n_options,
                 st.has_default ? _("Enter the marked one  ") : "");
        break;
    case TBL_ASK_NUMBER: {
        char shown[24];
        size_t n = strlen(s->typed);
        if (st.secret) {
            memset(shown, '*', n < sizeof(shown) - 1 ? n : sizeof(shown) - 1);
            shown[n < sizeof(shown) - 1 ? n : sizeof(shown) - 1] = '\0';
        } else {
            snprintf(shown, sizeof(shown), "%s", s->typed);
        }
        putf(g, row, 3, TBL_ATTR_NORMAL, "%d..%d:", (int)st.min, (int)st.max);
        putf(g, row, 16, TBL_ATTR_INPUT, " %s_ ", shown);
        snprintf(
            keys, keys_size,
            _("digits type  Enter OK  Backspace delete  - back  / cancel"));
        break;
    }
    case TBL_ASK_INFO:
        snprintf(keys, keys_size,
                 _("Enter continue  - back  / cancel the steps"));
        break;
    case TBL_ASK_DONE: snprintf(keys, keys_size, _("Enter continue")); break;
    }
}

/* The outcome lines from *row, each wrapped at spaces to the screen's
 * width (a long or CJK name never pushes the rest of a line off the
 * screen); the last lines first lose their wrapped rows when space is
 * short, never a line the rows can hold. */
static void draw_lines(struct tbl_grid *g, int32_t *row, int32_t max_row,
                       const struct tbl_screen *s, enum tbl_attr attr)
{
    for (int32_t i = 0; i < s->n_outcome && *row < max_row; i++)
        *row += put_wrapped(g, *row, 3, g->cols - 4, attr, s->outcome[i],
                            max_row - *row);
}

static void draw_outcome(const struct tbl_screen *s,
                         const struct tbl_core *core, int64_t now_ms,
                         struct tbl_grid *g, char *keys, size_t keys_size)
{
    int32_t row = 3;

    status_line(core, now_ms, flow_name(s->outcome_kind), g);
    putf(g, row++, 1, TBL_ATTR_BOLD, _("%s: decided"),
         flow_name(s->outcome_kind));
    row++;
    draw_lines(g, &row, g->rows - 4, s, TBL_ATTR_NORMAL);
    snprintf(keys, keys_size, _("Enter back to the table"));
}

static void draw_confirm(const struct tbl_screen *s,
                         const struct tbl_core *core, int64_t now_ms,
                         struct tbl_grid *g, char *keys, size_t keys_size)
{
    int32_t row = 3, max_row = g->rows - 4, cur = -1;

    status_line(core, now_ms, _("CONFIRM"), g);
    putf(g, row++, 1, TBL_ATTR_BOLD, _("CONFIRM THE RESULT"));
    if (s->outcome_kind == TBL_FLOW_RESULT)
        draw_lines(g, &row, max_row - core->asg.n_seats - 2, s,
                   TBL_ATTR_NORMAL);
    row++;
    /* The name column leaves room for "> seat 1  " and " confirm now?". */
    int32_t name_cols = g->cols - 4 - 10 - 13;
    if (name_cols > 60)
        name_cols = 60;
    if (name_cols < 8)
        name_cols = 8;
    for (int32_t i = 0; i < core->asg.n_seats && row < max_row; i++) {
        bool ok = core->confirmed[i];
        char name[4 * 60 + 1];
        if (!ok && cur < 0)
            cur = i;
        tny_utf8_pad(core->asg.seats[i].name, name_cols < 24 ? name_cols : 24,
                     name_cols, name, sizeof(name));
        putf(g, row++, 3,
             ok         ? TBL_ATTR_GOOD
             : cur == i ? TBL_ATTR_BOLD
                        : TBL_ATTR_WARN,
             _("%s seat %d  %s %s"), cur == i ? ">" : " ", (int)(i + 1), name,
             ok         ? _("confirmed")
             : cur == i ? _("confirm now?")
                        : _("to confirm"));
    }
    row++;
    if (cur >= 0 && row < max_row) {
        char ask[TNY_WIRE_TEXT_MAX + 64];
        snprintf(ask, sizeof(ask),
                 _("%s (seat %d): Enter or %d confirms, / "
                   "rejects"),
                 core->asg.seats[cur].name, (int)(cur + 1), (int)(cur + 1));
        put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_BOLD, ask, max_row - row);
    }
    snprintf(
        keys, keys_size,
        _("Enter confirm  1-%d that seat confirms  / or - reject and correct"),
        (int)core->asg.n_seats);
}

static void draw_notes(const struct tbl_core *core, int64_t now_ms,
                       struct tbl_grid *g, char *keys, size_t keys_size)
{
    int32_t row = 3, max_row = g->rows - 4;
    const struct tny_wire_assignment *a = &core->asg;

    status_line(core, now_ms, _("NOTES"), g);
    if (core->has_assignment && a->ct_board[0]) {
        struct tny_ct_board b; /* CT-9: this table's random board */
        struct tny_diag d = {{0}};
        char text[1024];
        if (tny_ct_board_parse(a->ct_board, &b, &d) == 0) {
            tny_ct_board_text(&b, text, sizeof(text));
            putf(g, row++, 1, TBL_ATTR_BOLD, _("Board for this game (CT-9):"));
            row += put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_NORMAL, text,
                               max_row - row) +
                   1;
        }
    }
    if (!core->has_assignment || (!a->procedure[0] && a->n_notes == 0)) {
        putf(g, row, 1, TBL_ATTR_DIM, _("no notes for this table"));
    } else {
        if (a->procedure[0])
            row += put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_NORMAL,
                               tbl_i18n_data(a->procedure), max_row - row) +
                   1;
        for (int32_t i = 0; i < a->n_notes && row < max_row; i++)
            row += put_wrapped(g, row, 1, g->cols - 2, TBL_ATTR_NORMAL,
                               tbl_i18n_data(a->notes[i]), max_row - row);
    }
    snprintf(keys, keys_size, _("Enter or . back to the table"));
}

/* ---- CHESS ------------------------------------------------------------- */

static void draw_chess(const struct tbl_screen *s, const struct tbl_core *core,
                       int64_t now_ms, struct tbl_grid *g, char *keys,
                       size_t keys_size)
{
    struct tbl_chess_view v;
    int32_t half = g->cols / 2, row = 3;
    char t[24];

    status_line(core, now_ms, _("CHESS CLOCK"), g);
    tbl_chess_view(&s->chess, now_ms, &v);
    for (int32_t side = 0; side < 2; side++) {
        int32_t col = side * half + 2;
        bool run = v.running == side;
        enum tbl_attr ink = v.over[side] ? TBL_ATTR_INK_ALERT : TBL_ATTR_INK;
        char name[4 * 30 + 1];
        tny_utf8_fit(core->asg.seats[side].name, 30, true, name, sizeof(name));
        putf(g, row, col, run ? TBL_ATTR_BOLD : TBL_ATTR_NORMAL, "%s%s",
             run ? "> " : "  ", name);
        fmt_used(v.used_ms[side], t, sizeof(t));
        if (!(run && v.paused && !blink_on(now_ms)))
            put_big(g, row + 1, col, t, ink);
        putf(g, row + 6, col, v.over[side] ? TBL_ATTR_ALERT : TBL_ATTR_NORMAL,
             _("used %s%s"), t,
             run ? (v.paused ? _(" PAUSED") : _(" running")) : "");
        if (v.penalty_preview[side] > 0)
            putf(g, row + 7, col, TBL_ATTR_ALERT, _("TX-3 penalty: %d TP"),
                 (int)v.penalty_preview[side]);
        if (v.alert_25min[side])
            putf(g, row + 8, col, TBL_ATTR_ALERT,
                 _("TX-4: past 25 min: call the organiser"));
    }
    row += 10;
    if (!s->chess.started) {
        putf(g, row++, 1, TBL_ATTR_BOLD,
             _("TX-11: the player who does NOT start presses their key: the "
               "starter's clock runs"));
        if (s->round_start_ms >= 0) {
            int32_t phase = 0;
            struct tny_diag d = {{0}};
            int64_t left =
                TBL_TX_ABSENT_CLOCK_MS - (now_ms - s->round_start_ms);
            if (tbl_tx_absence(s->round_start_ms, now_ms, &phase, &d) == 0) {
                fmt_left(left > 0 ? left : 0, t, sizeof(t));
                putf(g, row++, 1, phase ? TBL_ATTR_ALERT : TBL_ATTR_DIM, "%s",
                     phase == 0   ? _("TX-5: a player absent 5 min after the "
                                        "start has their clock started")
                     : phase == 1 ? _("TX-5: absent player? start their clock "
                                      "now (their opponent's key)")
                                  : _("TX-5: absent 10 min: call the organiser "
                                      "(default win 15-5)"));
                if (phase == 0)
                    putf(g, row++, 1, TBL_ATTR_DIM, _("  %s to go"), t);
            }
        }
    } else if (v.paused) {
        putf(g, row++, 1, TBL_ATTR_WARN,
             _("PAUSED (TX-9): 5 resumes; a wrongful pause: the key of the "
               "player who paused (30 s)"));
    } else if (v.stopped) {
        putf(g, row++, 1, TBL_ATTR_BOLD,
             _("stopped: Enter takes the times "
               "into the result"));
    }
    if (v.stop_favours >= 0)
        putf(g, row++, 1, TBL_ATTR_ALERT,
             _("TX-4: the organiser may decide for %s"),
             core->asg.seats[v.stop_favours].name);
    snprintf(keys, keys_size,
             _("1/4/7 left done  2/3/6/9 right done  5 pause  Enter stop + "
               "result  - back"));
}

/* The identify banner over the whole screen: "TABLE-007", the table
 * number in large digits and in words, the seconds left; inverse and
 * normal in turn every half second so it is seen across a hall. */
static void draw_identify(const struct tbl_screen *s, const char *device_id,
                          int64_t now_ms, struct tbl_grid *g)
{
    enum tbl_attr attr = blink_on(now_ms) ? TBL_ATTR_BAR : TBL_ATTR_BOLD;
    enum tbl_attr ink = blink_on(now_ms) ? TBL_ATTR_BAR : TBL_ATTR_INK;
    char id[TNY_WIRE_ID_MAX + 1], line[64], num[16];
    int32_t top = g->rows / 2 - 6, w;
    int64_t left = (s->identify_until_ms - now_ms + 999) / 1000;
    size_t i;

    for (i = 0; device_id[i] && i < sizeof(id) - 1; i++)
        id[i] = (char)toupper((unsigned char)device_id[i]);
    id[i] = '\0';
    for (int32_t r = 0; r < g->rows; r++)
        fill_row(g, r, attr);
    if (top < 0)
        top = 0;
    tbl_grid_put(g, top, (g->cols - text_cols(id)) / 2, attr, id, g->cols);
    if (s->identify_table > 0) {
        snprintf(num, sizeof(num), "%d", (int)s->identify_table);
        w = tny_bigtext_width(num, 2);
        /* Ink on paper: inverse paper needs normal ink, and back. */
        if (w > 0 && w <= g->cols)
            put_big(g, top + 2, (g->cols - w) / 2, num,
                    ink == TBL_ATTR_BAR ? TBL_ATTR_NORMAL : ink);
        snprintf(line, sizeof(line), _("table %d"), (int)s->identify_table);
    } else {
        snprintf(line, sizeof(line), _("no table assigned"));
    }
    tbl_grid_put(g, top + 8, (g->cols - text_cols(line)) / 2, attr, line,
                 g->cols);
    snprintf(line, sizeof(line), _("identify: %" PRId64 " s"), left);
    tbl_grid_put(g, top + 10, (g->cols - text_cols(line)) / 2, attr, line,
                 g->cols);
}

void tbl_screen_draw(const struct tbl_screen *s, const struct tbl_core *core,
                     const char *device_id, int64_t now_ms, struct tbl_grid *g)
{
    char keys[256] = "";

    tbl_grid_clear(g);
    title_bar(core, device_id, g);
    switch (s->view) {
    case TBL_VIEW_MAIN:
        draw_main(s, core, now_ms, g, keys, sizeof(keys));
        break;
    case TBL_VIEW_FLOW:
        if (s->in_flow)
            draw_flow(s, core, now_ms, g, keys, sizeof(keys));
        break;
    case TBL_VIEW_OUTCOME:
        draw_outcome(s, core, now_ms, g, keys, sizeof(keys));
        break;
    case TBL_VIEW_CONFIRM:
        draw_confirm(s, core, now_ms, g, keys, sizeof(keys));
        break;
    case TBL_VIEW_CHESS:
        draw_chess(s, core, now_ms, g, keys, sizeof(keys));
        break;
    case TBL_VIEW_NOTES: draw_notes(core, now_ms, g, keys, sizeof(keys)); break;
    }
    bottom(s, core, keys, g);
    if (s->identify_until_ms && now_ms < s->identify_until_ms)
        draw_identify(s, device_id, now_ms, g);
}

int64_t tbl_screen_next_tick(const struct tbl_screen *s,
                             const struct tbl_core *core, int64_t now_ms)
{
    (void)s;
    (void)core;
    /* Clocks change every second and blink every half second. */
    return 500 - now_ms % 500;
}
