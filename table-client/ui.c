/* ui.c - the display's terminal side (ui.h): ncurses in, grid out.
 *
 * Invariants: every cell of the terminal is written from the grid on each
 * update (ncurses sends only what changed); the state saved in the outbox
 * is the one of the last update that found it dirty; endwin runs on close.
 */
#define NCURSES_WIDECHAR 1
#include "ui.h"

#include <curses.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "screen.h"

enum { P_ALERT = 1, P_GOOD, P_WARN, P_INK_ALERT };

struct tbl_ui {
    SCREEN *term;
    struct tbl_outbox *ob;
    char device_id[TNY_WIRE_ID_MAX + 1];
    struct tbl_screen s;
    struct tbl_grid grid;
    bool colours;
    bool utf8; /* the locale's character set is UTF-8 */
    bool save_failed;
    char last_saved[TBL_SCREEN_SAVE_MAX];
};

int tbl_ui_open(FILE *in, FILE *out, struct tbl_outbox *ob,
                const char *device_id, struct tbl_ui **out_ui,
                struct tny_diag *diag)
{
    struct tbl_ui *ui = calloc(1, sizeof(*ui));
    char line[TBL_SCREEN_SAVE_MAX];
    struct tny_diag d = {{0}};

    *out_ui = NULL;
    if (!ui)
        return tny_diag_set(diag, TNY_ENOMEM, "display: out of memory");
    ui->ob = ob;
    snprintf(ui->device_id, sizeof(ui->device_id), "%s", device_id);
    tbl_screen_init(&ui->s);
    /* A saved state that cannot be read is ignored: the table starts on
     * its main screen (the outbox still holds every result). */
    if (tbl_outbox_kv_get(ob, "ui", line, sizeof(line), &d) == 0 &&
        tbl_screen_load(&ui->s, line, &d) < 0)
        ui->s.has_pending_load = false;
    /* main() took the locale from the environment (LANG, LC_ALL): names
     * are drawn as entered in a UTF-8 locale, as ASCII stand-ins in any
     * other (a C locale, a missing one). */
    ui->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    ui->term = newterm(NULL, out, in);
    if (!ui->term) {
        free(ui);
        return tny_diag_set(diag, TNY_ESTATE,
                            "display: cannot use the terminal (TERM=%s)",
                            getenv("TERM") ? getenv("TERM") : "");
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
        init_pair(P_ALERT, COLOR_RED, -1);
        init_pair(P_GOOD, COLOR_GREEN, -1);
        init_pair(P_WARN, COLOR_YELLOW, -1);
        init_pair(P_INK_ALERT, COLOR_RED, COLOR_RED);
        ui->colours = true;
    }
    *out_ui = ui;
    return TNY_OK;
}

void tbl_ui_close(struct tbl_ui *ui)
{
    if (!ui)
        return;
    if (ui->term) {
        endwin();
        delscreen(ui->term);
    }
    tbl_grid_release(&ui->grid);
    tbl_flow_release(&ui->s.flow);
    free(ui);
}

/* ncurses key -> screen.h key; -1 to ignore.  A keypad with NumLock off
 * sends the navigation codes printed under its digits. */
static int map_key(int k)
{
    switch (k) {
    case KEY_ENTER:
    case '\r':
    case '\n': return TBL_KEY_ENTER;
    case KEY_BACKSPACE:
    case 127:
    case 8: return TBL_KEY_BACKSPACE;
    case KEY_END:
    case KEY_C1: return '1';
    case KEY_DOWN: return '2';
    case KEY_NPAGE:
    case KEY_C3: return '3';
    case KEY_LEFT: return '4';
    case KEY_B2: return '5';
    case KEY_RIGHT: return '6';
    case KEY_HOME:
    case KEY_A1: return '7';
    case KEY_UP: return '8';
    case KEY_PPAGE:
    case KEY_A3: return '9';
    case KEY_IC: return '0';
    case KEY_DC: return '.';
    case ' ': return TBL_KEY_ENTER;
    }
    if (k > ' ' && k < 0x7f)
        return k;
    return -1;
}

int32_t tbl_ui_input(struct tbl_ui *ui, struct tbl_core *core, int64_t now_ms,
                     int64_t wall_ms)
{
    int k;
    int32_t n = 0;

    while ((k = getch()) != ERR) {
        n++;
        int key = map_key(k);
        if (k == KEY_RESIZE)
            continue; /* the next update draws at the new size */
        if (key < 0)
            continue;
        /* Follow the core first: a key acts on what is on the screen. */
        tbl_screen_sync(&ui->s, core, now_ms, wall_ms);
        tbl_screen_key(&ui->s, core, key, now_ms, wall_ms);
    }
    return n;
}

static attr_t curses_attr(const struct tbl_ui *ui, uint8_t a)
{
    attr_t c = 0;

    switch ((enum tbl_attr)a) {
    case TBL_ATTR_NORMAL: return A_NORMAL;
    case TBL_ATTR_BAR: return A_REVERSE | A_BOLD;
    case TBL_ATTR_KEYS: return A_REVERSE;
    case TBL_ATTR_BOLD: return A_BOLD;
    case TBL_ATTR_INK: return A_REVERSE;
    case TBL_ATTR_INK_ALERT:
        return ui->colours ? (attr_t)COLOR_PAIR(P_INK_ALERT) | A_REVERSE
                           : A_REVERSE | A_BLINK;
    case TBL_ATTR_ALERT: c = ui->colours ? COLOR_PAIR(P_ALERT) : 0; break;
    case TBL_ATTR_GOOD: c = ui->colours ? COLOR_PAIR(P_GOOD) : 0; break;
    case TBL_ATTR_WARN: c = ui->colours ? COLOR_PAIR(P_WARN) : 0; break;
    case TBL_ATTR_DIM: return A_DIM;
    case TBL_ATTR_INPUT: return A_REVERSE | A_UNDERLINE;
    }
    return c | A_BOLD;
}

/* One cell's glyph: as wide characters in a UTF-8 locale (ncursesw puts
 * a combining mark in its letter's cell and a CJK character over two),
 * else its ASCII stand-in (tny_utf8_ascii), '?' over each column of a
 * wide one. */
static void put_glyph(const struct tbl_ui *ui, int32_t r, int32_t c,
                      const char *ch)
{
    struct tny_utf8_glyph gl;
    wchar_t w[TNY_UTF8_GLYPH_MAX];
    size_t n;

    if (ui->utf8 &&
        (n = mbstowcs(w, ch, TNY_UTF8_GLYPH_MAX - 1)) != (size_t)-1) {
        w[n] = L'\0';
        mvaddwstr(r, c, w);
        return;
    }
    tny_utf8_next(ch, &gl);
    char a = tny_utf8_ascii(gl.cp);
    for (int32_t k = 0; k < gl.width; k++)
        mvaddch(r, c + k, (chtype)(unsigned char)(a ? a : ' '));
}

static void paint(struct tbl_ui *ui)
{
    const struct tbl_grid *g = &ui->grid;

    for (int32_t r = 0; r < g->rows; r++)
        for (int32_t c = 0; c < g->cols; c++) {
            const struct tbl_cell *cell = &g->cells[r * g->cols + c];
            bool ink =
                cell->attr == TBL_ATTR_INK || cell->attr == TBL_ATTR_INK_ALERT;
            if (!cell->ch[0])
                continue; /* the right half of a wide character */
            attrset(curses_attr(ui, cell->attr));
            /* Large digits: solid blocks (reverse blanks) on any
             * terminal, the Linux console included. */
            put_glyph(ui, r, c, ink ? " " : cell->ch);
        }
    attrset(A_NORMAL);
    refresh();
}

static void save(struct tbl_ui *ui, int64_t now_ms, int64_t wall_ms,
                 char *error_out, size_t error_size)
{
    char line[TBL_SCREEN_SAVE_MAX];
    struct tny_diag d = {{0}};

    ui->s.dirty = false;
    if (tbl_screen_save(&ui->s, now_ms, wall_ms, line, sizeof(line)) < 0)
        return;
    if (tbl_outbox_kv_set(ui->ob, "ui", line, wall_ms, &d) < 0) {
        if (!ui->save_failed && error_out)
            snprintf(error_out, error_size, "display state not saved: %s",
                     d.msg);
        ui->save_failed = true;
        return;
    }
    ui->save_failed = false;
}

void tbl_ui_identify(struct tbl_ui *ui, int32_t table, int64_t now_ms)
{
    tbl_screen_identify(&ui->s, table, now_ms);
}

void tbl_ui_update(struct tbl_ui *ui, struct tbl_core *core, int64_t now_ms,
                   int64_t wall_ms, char *error_out, size_t error_size)
{
    struct tny_diag d = {{0}};

    if (error_out && error_size)
        error_out[0] = '\0';
    tbl_screen_sync(&ui->s, core, now_ms, wall_ms);
    if (ui->s.dirty)
        save(ui, now_ms, wall_ms, error_out, error_size);
    if (ui->grid.rows != LINES || ui->grid.cols != COLS) {
        tbl_grid_release(&ui->grid);
        if (tbl_grid_init(&ui->grid, LINES, COLS, &d) < 0)
            return;
        clear();
    }
    tbl_screen_draw(&ui->s, core, ui->device_id, now_ms, &ui->grid);
    paint(ui);
}

int64_t tbl_ui_next_wakeup(const struct tbl_ui *ui, const struct tbl_core *core,
                           int64_t now_ms)
{
    return tbl_screen_next_tick(&ui->s, core, now_ms);
}
