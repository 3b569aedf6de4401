/* test_screen.c - the table display's pure model (table-client/screen.h)
 * on a real core, without a terminal: the character grid; the main screen
 * at 100x30 and 80x24 (title, large digits, round clock in words, seats
 * with the format's extras, the state in words, network and key lines);
 * the clock running out (CM-7) and the TIMEOUT steps offered; every
 * seated player confirming by key, refusals on the spot, a rejection; the
 * hub's refusal shown with its reason; the TX chess clock keys (TX-3,
 * TX-9, TX-11); AG-14 timers following the round clock; the RESULT flow's
 * keys (letters refused in a score, Backspace, going back); the saved
 * state restored only for the same table.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/i18n_io.h"
#include "tny/utf8.h"
#include "tny/wire.h"

#include "screen.h"

/* ---- fixture ------------------------------------------------------------ */

struct world {
    struct tbl_core core;
    struct tbl_screen s;
    struct tbl_grid g;
    int n_subs;
    struct tny_wire_submission last_sub;
    int64_t now, wall;
};

static void ignore_line(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

static int take_sub(void *ctx, const struct tny_wire_submission *sub,
                    struct tny_diag *diag)
{
    struct world *w = ctx;
    (void)diag;
    w->n_subs++;
    w->last_sub = *sub;
    return TNY_OK;
}

static struct world *world_new(int32_t rows, int32_t cols)
{
    struct world *w = calloc(1, sizeof(*w));
    struct tbl_core_ops ops;
    struct tny_diag d = {{0}};

    assert_non_null(w);
    ops = (struct tbl_core_ops){w, ignore_line, take_sub, NULL};
    tbl_core_init(&w->core, "table-012", 1, &ops);
    tbl_core_start(&w->core);
    tbl_screen_init(&w->s);
    assert_int_equal(tbl_grid_init(&w->g, rows, cols, &d), 0);
    w->now = 1000000;
    return w;
}

static void world_free(struct world *w)
{
    tbl_flow_release(&w->s.flow);
    tbl_grid_release(&w->g);
    tbl_core_release(&w->core);
    free(w);
}

/* Assigns a table of game (by name) with players "a,b,c" (names "Anna",
 * "Ben", "Cyril", "Dana" in order), the round clock running with
 * left_ms to go (0: no clock). */
/* The action_ms the next assign() puts in the assignment (AG-14, CT-8). */
static int64_t next_action_ms;
/* AG-14: the draft_ms of the next assign(), and its clock waiting (READY
 * with left_ms) instead of running. */
static int64_t next_draft_ms;
static bool next_clock_waits;
/* The seats' names of the next assign() (NULL: Anna, Ben...) and the
 * organiser's result it carries ("" none). */
static const char *const *next_names;
static const char *next_organiser_result = "";
/* The event title of the next assign() (NULL: "Spring Cup"). */
static const char *next_title;

static void assign(struct world *w, uint64_t version, const char *game,
                   int32_t table, int32_t n, int64_t left_ms)
{
    static const char *const anna[] = {"Anna", "Ben", "Cyril", "Dana"};
    const char *const *names = next_names ? next_names : anna;
    struct tny_wire_assignment *a = calloc(1, sizeof(*a));

    assert_non_null(a);
    a->version = version;
    snprintf(a->event_id, sizeof(a->event_id), "ev1");
    snprintf(a->event_title, sizeof(a->event_title), "%s",
             next_title ? next_title : "Spring Cup");
    assert_int_equal(tny_game_from_name(game, &a->game), 0);
    snprintf(a->format_name, sizeof(a->format_name), "%s", game);
    a->round = 2;
    /* Each preset's first stage. */
    a->stage = a->game == TNY_GAME_CATAN      ? TNY_STAGE_ROUND
               : a->game == TNY_GAME_AGRICOLA ? TNY_STAGE_PRELIM
                                              : TNY_STAGE_SWISS;
    snprintf(a->stage_name, sizeof(a->stage_name), "%s",
             tny_stage_kind_name(a->stage));
    a->table = table;
    a->n_seats = n;
    for (int32_t i = 0; i < n; i++) {
        snprintf(a->seats[i].player_id, sizeof(a->seats[i].player_id), "p%d",
                 (int)(i + 1));
        snprintf(a->seats[i].name, sizeof(a->seats[i].name), "%s", names[i]);
        snprintf(a->seats[i].club, sizeof(a->seats[i].club), "Club %d",
                 (int)(i + 1));
    }
    a->seats[0].first_player = true;
    a->action_ms = next_action_ms;
    a->draft_ms = next_draft_ms;
    if (next_organiser_result[0]) {
        snprintf(a->organiser_result, sizeof(a->organiser_result), "%s",
                 next_organiser_result);
        snprintf(a->organiser_result_by, sizeof(a->organiser_result_by),
                 "organiser:o1");
    }
    if (left_ms > 0) {
        a->has_clock = true;
        a->clock.state = TNY_ROUND_CLOCK_RUNNING;
        a->clock.hub_now_ms = 1700000000000;
        a->clock.deadline_ms = 1700000000000 + left_ms;
        if (next_clock_waits) {
            a->clock.state = TNY_ROUND_CLOCK_READY;
            a->clock.deadline_ms = 0;
            a->clock.remaining_ms = left_ms;
        }
    }
    tbl_core_assignment(&w->core, a, w->now, NULL);
    free(a);
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
}

static void key(struct world *w, int k)
{
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    tbl_screen_key(&w->s, &w->core, k, w->now, w->wall);
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
}

static void keys(struct world *w, const char *ks)
{
    for (const char *p = ks; *p; p++)
        key(w, *p == '\n' ? TBL_KEY_ENTER : *p == '<' ? TBL_KEY_BACKSPACE : *p);
}

static void draw(struct world *w)
{
    tbl_screen_draw(&w->s, &w->core, "table-012", w->now, &w->g);
}

/* The row holding needle, or -1. */
static int32_t find_row(const struct world *w, const char *needle)
{
    char row[4096];
    for (int32_t r = 0; r < w->g.rows; r++) {
        tbl_grid_row(&w->g, r, row, sizeof(row));
        if (strstr(row, needle))
            return r;
    }
    return -1;
}

static void assert_on_screen(struct world *w, const char *needle)
{
    draw(w);
    if (find_row(w, needle) < 0) {
        char row[4096];
        for (int32_t r = 0; r < w->g.rows; r++) {
            tbl_grid_row(&w->g, r, row, sizeof(row));
            print_message("|%s|\n", row);
        }
        fail_msg("\"%s\" is not on the screen", needle);
    }
}

static void assert_not_on_screen(struct world *w, const char *needle)
{
    draw(w);
    if (find_row(w, needle) >= 0)
        fail_msg("\"%s\" is on the screen", needle);
}

static int32_t count_attr(const struct world *w, enum tbl_attr a, int32_t r0,
                          int32_t r1)
{
    int32_t n = 0;
    for (int32_t r = r0; r <= r1 && r < w->g.rows; r++)
        for (int32_t c = 0; c < w->g.cols; c++)
            n += w->g.cells[r * w->g.cols + c].attr == a;
    return n;
}

/* ---- grid --------------------------------------------------------------- */

static void test_grid_clips_and_keeps_utf8(void **state)
{
    struct tbl_grid g;
    struct tny_diag d = {{0}};
    char row[64];
    (void)state;
    assert_int_equal(tbl_grid_init(&g, 2, 6, &d), 0);
    assert_int_equal(tbl_grid_put(&g, 0, 1, TBL_ATTR_BOLD, "abcdefgh", -1), 5);
    tbl_grid_row(&g, 0, row, sizeof(row));
    assert_string_equal(row, " abcde");
    assert_int_equal(g.cells[1].attr, TBL_ATTR_BOLD);
    /* One cell per character, multi-byte ones included; control
     * characters are blanked; max_cols clips. */
    assert_int_equal(
        tbl_grid_put(&g, 1, 0, TBL_ATTR_NORMAL, "\xc5\xbd\xc3\xa1k\ty", 4), 4);
    tbl_grid_row(&g, 1, row, sizeof(row));
    assert_string_equal(row, "\xc5\xbd\xc3\xa1k   ");
    assert_int_equal(tbl_grid_put(&g, 5, 0, TBL_ATTR_NORMAL, "x", -1), 0);
    tbl_grid_release(&g);
    assert_int_equal(tbl_grid_init(&g, 0, 5, &d), TNY_EINVAL);
    tbl_grid_release(&g);
}

/* ---- main screen --------------------------------------------------------- */

static void test_main_waiting_has_network_and_keys(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    tbl_core_set_net(&w->core, false, 2);
    assert_on_screen(w, "WAITING FOR THE ROUND");
    assert_not_on_screen(w, "PLAYING");
    assert_on_screen(w, "network OFFLINE | 2 results queued (sent when back "
                        "online) | hub unknown");
    assert_int_equal(find_row(w, "network OFFLINE"), 28);
    /* The key line is the last row, on every screen. */
    assert_int_equal(find_row(w, ". notes"), 29);
    tbl_core_set_net(&w->core, true, 0);
    tbl_core_set_hub(&w->core, true);
    assert_on_screen(w, "network online | 0 results queued | hub online");
    world_free(w);
}

/* docs/troubleshooting.md: a table whose login the broker refuses (a wrong
 * mqtt_password) says why on its status line, not only "OFFLINE"; once
 * connected the reason is gone. */
static void test_refused_login_named_on_the_status_line(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    tbl_core_set_net(&w->core, false, 0);
    tbl_core_set_net_refused(&w->core, "not authorised");
    assert_on_screen(w, "network OFFLINE (not authorised) | 0 results queued");
    tbl_core_set_net_refused(&w->core, "");
    tbl_core_set_net(&w->core, true, 0);
    assert_on_screen(w, "network online | 0 results queued");
    assert_not_on_screen(w, "not authorised");
    world_free(w);
}

static void test_CM_7_main_playing_large_digits_and_seats(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    assign(w, 1, "catan", 12, 3, 45 * 60000);
    assert_on_screen(w, "Spring Cup | Round 2 | round");
    assert_on_screen(w, "table-012");
    assert_on_screen(w, "Table 12");
    assert_on_screen(w, "clock 45:00 running");
    assert_on_screen(w, "1  Anna");
    assert_on_screen(w, "(Club 1)  FIRST PLAYER");
    assert_on_screen(w, "3  Cyril");
    assert_on_screen(w, "PLAYING");
    assert_on_screen(w,
                     "Enter enter the result  + before the game  * time-out");
    /* Large digits: ink cells in the five rows under the labels, for
     * "12" (2 glyphs) and "45:00". */
    assert_true(count_attr(w, TBL_ATTR_INK, 2, 6) > 40);
    assert_int_equal(count_attr(w, TBL_ATTR_INK, 8, 29), 0);
    /* The clock counts down, seconds rounded up. */
    w->now += 61500;
    assert_on_screen(w, "clock 43:59 running");
    world_free(w);
}

/* A long event title on the title bar is cut with "…" and gives way to
 * the round and the stage (a Czech championship's title at 80x24 hid
 * the round: " Mistrovství ČR ... | 1. kolo | Kola gorn s"). */
static void test_title_bar_long_title_keeps_round_and_stage(void **state)
{
    (void)state;
    struct world *w = world_new(24, 80);
    char row[4096];
    next_title = "Mistrovství ČR v Osadnících z Katanu 2026 — Brno, "
                 "Vídeňská 12, sál B";
    assign(w, 1, "catan", 3, 4, 0);
    next_title = NULL;
    draw(w);
    tbl_grid_row(&w->g, 0, row, sizeof(row));
    if (!strstr(row, "| Round 2 | round ") || !strstr(row, "…") ||
        !strstr(row, " Mistrovství ČR") || !strstr(row, "table-012"))
        fail_msg("title bar: |%s|", row);
    world_free(w);
}

static void test_GT_14_TX_10_NH_10_seat_extras(void **state)
{
    struct world *w = world_new(30, 100);
    struct tny_wire_assignment a;
    (void)state;
    assign(w, 1, "tantrix", 3, 2, 0);
    a = w->core.asg;
    a.version = 2;
    a.n_seats = 2;
    a.seats[0].n_colours = 2;
    snprintf(a.seats[0].colours[0], sizeof(a.seats[0].colours[0]), "red");
    snprintf(a.seats[0].colours[1], sizeof(a.seats[0].colours[1]), "blue");
    a.seats[1].colour_blind = true;
    a.seats[1].n_armies = 1;
    snprintf(a.seats[1].armies[0], sizeof(a.seats[1].armies[0]), "Moloch");
    snprintf(a.seats[1].faction, sizeof(a.seats[1].faction), "Stark");
    snprintf(a.seats[1].agenda, sizeof(a.seats[1].agenda), "Banner");
    tbl_core_assignment(&w->core, &a, w->now, NULL);
    assert_on_screen(w, "colours: red, blue");
    assert_on_screen(w, "(colour-blind set)");
    assert_on_screen(w, "armies: Moloch");
    assert_on_screen(w, "faction: Stark  agenda: Banner");
    world_free(w);
}

/* The display column where needle starts in the row holding key, or -1. */
static int32_t col_of(struct world *w, const char *key, const char *needle)
{
    char row[4096];
    int32_t r = find_row(w, key);
    if (r < 0)
        return -1;
    tbl_grid_row(&w->g, r, row, sizeof(row));
    char *at = strstr(row, needle);
    if (!at)
        return -1;
    *at = '\0';
    return tny_utf8_width(row);
}

/* docs/table-display.md: the seats' club column lines up whatever the
 * names are (name field 24 to 60 columns): a 31-column Polish name moves
 * every seat's club, not its own only. */
static void test_seat_club_column_lines_up_past_24_columns(void **state)
{
    static const char *const names[] = {
        "Bart\xc5\x82omiej Wi\xc5\x9bniewski-Kowalczyk", "Ben",
        "\xe7\x8e\x8b\xe5\xb0\x8f\xe6\x98\x8e", "Dana"};
    struct world *w = world_new(30, 120);
    (void)state;
    next_names = names;
    assign(w, 1, "catan", 12, 4, 45 * 60000);
    next_names = NULL;
    draw(w);
    int32_t c1 = col_of(w, "1  Bart", "(Club 1)");
    assert_true(c1 > 24);
    assert_int_equal(col_of(w, "2  Ben", "(Club 2)"), c1);
    assert_int_equal(col_of(w, "3  \xe7\x8e\x8b", "(Club 3)"), c1);
    assert_int_equal(col_of(w, "4  Dana", "(Club 4)"), c1);
    world_free(w);
}

/* Issue 19 item 3: in a format with sides each seat shows the side it
 * plays, one word next to the name. */
static void test_issue19_seat_shows_its_side(void **state)
{
    struct world *w = world_new(24, 80);
    struct tny_wire_assignment a;
    (void)state;
    assign(w, 1, "two-player", 4, 2, 0);
    a = w->core.asg;
    a.version = 2;
    snprintf(a.seats[0].side, sizeof(a.seats[0].side), "runner");
    snprintf(a.seats[1].side, sizeof(a.seats[1].side), "corp");
    tbl_core_assignment(&w->core, &a, w->now, NULL);
    assert_on_screen(w, "(Club 1)  runner  FIRST PLAYER");
    assert_on_screen(w, "(Club 2)  corp");
    world_free(w);
}

static void test_main_80x24_keeps_every_part(void **state)
{
    struct world *w = world_new(24, 80);
    (void)state;
    assign(w, 1, "agricola", 7, 4, 105 * 60000);
    tbl_core_set_net(&w->core, true, 0);
    assert_on_screen(w, "Spring Cup");
    assert_on_screen(w, "clock 1:45:00 running");
    assert_on_screen(w, "4  Dana");
    assert_on_screen(w, "PLAYING");
    /* The key line is wider than 78 columns: wrapped at a gap between
     * two keys onto two rows (issue 21), the status line one row up;
     * nothing cut. */
    assert_int_equal(find_row(w, "network online"), 21);
    assert_int_equal(find_row(w, "Enter enter the result"), 22);
    assert_int_equal(find_row(w, ". notes"), 23);
    world_free(w);
}

/* Issue 21: the event's language on the screen; Hungarian runs longer
 * than English and is wrapped at 80x24, never cut: every key of the
 * Agricola main screen is there. */
static void test_issue21_hungarian_main_80x24_wraps_keys(void **state)
{
    struct world *w = world_new(24, 80);
    (void)state;
    setenv("TOURNEY_LOCALEDIR", TNY_TEST_LOCALEDIR, 1);
    tny_i18n_open("tourney-table");
    assert_int_equal(tny_i18n_use("hu"), 0);
    assign(w, 1, "agricola", 7, 4, 105 * 60000);
    tbl_core_set_net(&w->core, true, 0);
    assert_on_screen(w, "JÁTÉK FOLYIK");
    assert_on_screen(w, "óra 1:45:00 jár");
    assert_not_on_screen(w, "PLAYING");
    assert_int_equal(find_row(w, "hálózat rendben"), 21);
    assert_int_equal(find_row(w, "Enter eredmény beírása"), 22);
    assert_int_equal(find_row(w, "0 következő akció"), 23);
    assert_int_equal(find_row(w, ". megjegyzések"), 23);
    assert_int_equal(tny_i18n_use("en"), 0);
    assert_on_screen(w, "PLAYING");
    world_free(w);
}

static void test_CM_7_clock_expired_and_paused(void **state)
{
    struct world *w = world_new(30, 100);
    struct tny_wire_clock rc;
    (void)state;
    assign(w, 1, "catan", 12, 3, 60000);
    assert_false(w->s.expired_seen);
    w->now += 75000;
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    assert_true(w->s.expired_seen);
    /* The TIMEOUT steps are offered once (CT-8): the flow or, when the
     * format has none, the main screen saying time is up. */
    if (w->s.view == TBL_VIEW_FLOW) {
        assert_int_equal(w->s.flow.kind, TBL_FLOW_TIMEOUT);
        keys(w, "/");
    }
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    /* Issue 22 item 8: overtime as on every screen, "+M:SS overtime". */
    assert_on_screen(w, "clock +0:15 overtime TIME IS UP");
    assert_on_screen(w, "TIME-OUT PROCEDURE");
    w->now += 1000;
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    /* A paused RoundClock shows PAUSED with the frozen time. */
    memset(&rc, 0, sizeof(rc));
    rc.version = 100; /* the hub's one counter: after the assignment */
    snprintf(rc.event_id, sizeof(rc.event_id), "ev1");
    rc.round = 2;
    rc.clock.state = TNY_ROUND_CLOCK_PAUSED;
    rc.clock.hub_now_ms = 1700000100000;
    rc.clock.remaining_ms = 125000;
    assert_int_equal(tbl_core_round_clock(&w->core, &rc, w->now), 0);
    assert_on_screen(w, "clock 2:05 PAUSED");
    world_free(w);
}

/* ---- confirmations ---------------------------------------------------------
 */

static void enter_catan(struct world *w)
{
    struct tny_wire_result r;
    struct tny_diag d = {{0}};
    if (tbl_game_parse_result(&w->core.game, "vp.p1=10 vp.p2=8 vp.p3=6", &r,
                              &d) < 0 ||
        tbl_core_enter_result(&w->core, &r, &d) < 0)
        fail_msg("result: %s", d.msg);
}

static void test_every_player_confirms_by_key(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    assign(w, 1, "catan", 12, 3, 0);
    enter_catan(w);
    assert_on_screen(w, "WAITING FOR CONFIRMATIONS");
    keys(w, "\n");
    assert_int_equal(w->s.view, TBL_VIEW_CONFIRM);
    assert_on_screen(w, "CONFIRM THE RESULT");
    assert_on_screen(w, "> seat 1  Anna");
    assert_on_screen(w, "Anna (seat 1): Enter or 1 confirms, / rejects");
    assert_on_screen(w, "Enter confirm  1-3 that seat confirms");
    keys(w, "3");
    assert_on_screen(w, "seat 3  Cyril                    confirmed");
    keys(w, "3");
    assert_on_screen(w, "seat 3 already confirmed");
    keys(w, "9");
    assert_on_screen(w, "no seat 9 at this table (1..3)");
    keys(w, "x");
    assert_true(w->s.message_error);
    keys(w, "\n");
    assert_on_screen(w, "> seat 2  Ben");
    assert_int_equal(w->n_subs, 0);
    keys(w, "\n");
    assert_int_equal(w->n_subs, 1);
    assert_int_equal(w->last_sub.n_confirmed, 3);
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    assert_on_screen(w, "RESULT SENT");
    assert_on_screen(w, "offline: stored here, sent when the network is back");
    world_free(w);
}

static void test_rejection_by_a_player_and_by_the_hub(void **state)
{
    struct world *w = world_new(30, 100);
    struct tny_wire_ack ack;
    (void)state;
    assign(w, 1, "catan", 12, 3, 0);
    enter_catan(w);
    keys(w, "\n1/");
    /* Ben (seat 2, next to confirm) rejected: no entry any more. */
    assert_int_equal(tbl_core_state(&w->core), TBL_STATE_PLAYING);
    assert_non_null(strstr(w->s.message, "Ben rejected the result"));
    assert_int_equal(w->n_subs, 0);
    if (w->s.view == TBL_VIEW_FLOW)
        keys(w, "/");
    enter_catan(w);
    keys(w, "\n\n\n\n");
    assert_int_equal(w->n_subs, 1);
    memset(&ack, 0, sizeof(ack));
    snprintf(ack.key, sizeof(ack.key), "%s", w->last_sub.key);
    ack.status = TNY_WIRE_ACK_REJECTED;
    ack.reason = TNY_WIRE_REASON_INVALID_RESULT;
    snprintf(ack.reason_text, sizeof(ack.reason_text),
             "result.vp.p1: expected 0..10");
    tbl_core_ack(&w->core, &ack);
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    assert_on_screen(w, "RESULT REJECTED BY THE HUB");
    assert_on_screen(w, "invalid_result: result.vp.p1: expected 0..10");
    assert_on_screen(w, "Enter correct the result");
    world_free(w);
}

static void test_keys_refused_when_nothing_to_do(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    keys(w, "\n");
    assert_true(w->s.message_error);
    assert_on_screen(w, "nothing to do here now (waiting for the round)");
    assign(w, 1, "catan", 12, 3, 0);
    keys(w, "q");
    assert_on_screen(w, "'q': not used here");
    keys(w, ".");
    assert_int_equal(w->s.view, TBL_VIEW_NOTES);
    assert_on_screen(w, "no notes for this table");
    keys(w, ".");
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    world_free(w);
}

/* ---- TX chess clock ------------------------------------------------------ */

static void test_TX_11_TX_3_TX_9_chess_clock_keys(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    assign(w, 1, "tantrix", 4, 2, 60 * 60000);
    keys(w, "/");
    assert_int_equal(w->s.view, TBL_VIEW_CHESS);
    assert_on_screen(w, "TX-11: the player who does NOT start");
    assert_on_screen(w, "1/4/7 left done");
    /* Anna (left) does not start: her key starts Ben's clock. */
    keys(w, "1");
    assert_int_equal(w->s.chess.cc.running, 1);
    w->now += 65000;
    assert_on_screen(w, "used 1:05 running");
    keys(w, "1");
    assert_true(w->s.message_error); /* not Anna's turn */
    keys(w, "3");
    assert_int_equal(w->s.chess.cc.running, 0);
    w->now += 10000;
    keys(w, "5");
    assert_on_screen(w, "PAUSED (TX-9)");
    /* TX-9: Anna paused wrongfully: 30 s more for her, 30 s less for Ben. */
    keys(w, "4");
    {
        struct tbl_chess_view v;
        tbl_chess_view(&w->s.chess, w->now, &v);
        assert_int_equal(v.used_ms[0], 10000 + 30000);
        assert_int_equal(v.used_ms[1], 65000 - 30000);
    }
    keys(w, "5-");
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    assert_on_screen(w, "chess clock: Anna");
    world_free(w);
}

/* Seed 001 section 13: the board is lost with 4 minutes on the clocks
 * together; the players restart: nothing is sent, the chess clock is back
 * at 0:00 and not started (the tile draw starts it again). */
static void test_TX_s13_restart_resets_chess_clock(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    assign(w, 1, "tantrix", 4, 2, 60 * 60000);
    keys(w, "/1");
    w->now += 4 * 60000;
    keys(w, "5-");
    assert_int_equal(w->s.view, TBL_VIEW_MAIN);
    keys(w, "\n");
    assert_int_equal(w->s.flow.kind, TBL_FLOW_RESULT);
    keys(w, "4"); /* Board cannot be restored (s13) */
    assert_on_screen(w, "Board cannot be restored");
    keys(w, "\n");
    assert_on_screen(w, "Together 4:00");
    keys(w, "1\n"); /* Restart, then the restart's text */
    assert_int_equal(w->s.view, TBL_VIEW_OUTCOME);
    assert_non_null(strstr(w->s.message, "restart"));
    assert_on_screen(w, "restart (seed 001 s13)");
    assert_false(w->s.chess.started);
    assert_int_not_equal(tbl_core_state(&w->core), TBL_STATE_CONFIRMING);
    world_free(w);
}

/* CT-8: "po vypršení časového limitu zavést časový limit na tah hráče":
 * with a per-turn limit announced, the time-out starts a turn timer that
 * the 0 key restarts for the next player; before the time-out it waits. */
static void test_CT_8_turn_limit_after_time_out(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    next_action_ms = 60000;
    assign(w, 1, "catan", 2, 4, 2 * 60000);
    next_action_ms = 0;
    assert_on_screen(w, "CT-8: after the time-out each turn has 1:00");
    keys(w, "0");
    assert_true(w->s.message_error); /* not before the time-out */
    w->now += 2 * 60000 + 1000;
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    if (w->s.view == TBL_VIEW_FLOW)
        keys(w, "/");
    w->now += 10000;
    assert_on_screen(w, "TURN LIMIT (CT-8): 0:50 of 1:00");
    keys(w, "0");
    assert_on_screen(w, "TURN LIMIT (CT-8): 1:00 of 1:00");
    w->now += 61000;
    assert_on_screen(w, "TIME OVER");
    world_free(w);
}

/* CM-5: a new version of the same table with other players (the
 * organiser swapped them before the clock started) is shown as a changed
 * pairing; a new version with the same players is not. */
static void test_CM_5_pairing_change_shown(void **state)
{
    struct world *w = world_new(30, 100);
    (void)state;
    assign(w, 1, "neuroshima-hex", 4, 2, 45 * 60000);
    assert_false(w->s.pairing_changed);
    assign(w, 2, "neuroshima-hex", 4, 2, 45 * 60000); /* same players */
    assert_false(w->s.pairing_changed);
    {
        struct tny_wire_assignment *a = calloc(1, sizeof(*a));
        assert_non_null(a);
        *a = w->core.asg;
        a->version = 3;
        snprintf(a->seats[1].player_id, sizeof(a->seats[1].player_id), "p9");
        snprintf(a->seats[1].name, sizeof(a->seats[1].name), "Zoe");
        tbl_core_assignment(&w->core, a, w->now, NULL);
        free(a);
        tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    }
    assert_true(w->s.pairing_changed);
    assert_on_screen(w, "PAIRING CHANGED (CM-5)");
    assert_on_screen(w, "Zoe");
    keys(w, "x"); /* any key: seen */
    assert_not_on_screen(w, "PAIRING CHANGED (CM-5)");
    world_free(w);
}

/* CT-9: the table shows its random board on the notes screen. */
static void test_CT_9_board_on_the_notes_screen(void **state)
{
    struct world *w = world_new(30, 100);
    struct tny_ct_board b;
    char text[1024], first_row[64];
    (void)state;
    assign(w, 1, "catan", 3, 4, 0);
    tny_ct_board_generate(11, 2, 3, &b);
    tny_ct_board_code(&b, w->core.asg.ct_board);
    tny_ct_board_text(&b, text, sizeof(text));
    const char *t = text + strspn(text, " ");
    snprintf(first_row, sizeof(first_row), "%.*s", (int)strcspn(t, "\n"), t);
    keys(w, ".");
    assert_on_screen(w, "Board for this game (CT-9)");
    assert_on_screen(w, first_row);
    assert_on_screen(w, "counterclockwise to the centre");
    world_free(w);
}

/* ---- AG-14 -------------------------------------------------------------- */

static void test_AG_14_draft_starts_with_the_round_clock(void **state)
{
    struct world *w = world_new(30, 100);
    struct tbl_ag_view v;
    (void)state;
    assign(w, 1, "agricola", 2, 4, 105 * 60000);
    tbl_ag_view(&w->s.ag, w->now, &v);
    assert_true(v.started);
    assert_true(v.drafting);
    w->now += 60000;
    assert_on_screen(w, "DRAFT 14:00 left (AG-14)");
    keys(w, "/");
    assert_on_screen(w, "draft done in 1:00");
    /* Time up: speed play, the action timer restarted by 0. */
    w->now += 105 * 60000;
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    if (w->s.view == TBL_VIEW_FLOW)
        keys(w, "/");
    w->now += 10000;
    assert_on_screen(w, "SPEED PLAY (AG-14): action 0:20");
    keys(w, "0");
    assert_on_screen(w, "SPEED PLAY (AG-14): action 0:30");
    world_free(w);
}

/* AG-14: a table whose time starts with its draft waits for it (its clock
 * not started, the whole time shown); / starts the draft and reports it
 * (tbl_core_draft_round, sent in the presence); the hub's running clock
 * for this table then counts, and speed play follows this table's own
 * time-up. */
static void test_AG_14_table_waits_for_its_draft(void **state)
{
    struct world *w = world_new(30, 100);
    struct tbl_ag_view v;
    (void)state;
    next_draft_ms = 15 * 60000;
    next_clock_waits = true;
    assign(w, 1, "agricola", 2, 4, 105 * 60000);
    w->now += 60000;
    assert_on_screen(w, "AG-14: waiting for the draft");
    assert_on_screen(w, "TABLE CLOCK (from the draft)");
    assert_on_screen(w, "clock 1:45:00 not started");
    tbl_ag_view(&w->s.ag, w->now, &v);
    assert_false(v.started); /* nothing runs before the draft */
    assert_int_equal(tbl_core_draft_round(&w->core), 0);
    keys(w, "/");
    assert_int_equal(tbl_core_draft_round(&w->core), 2);
    assert_on_screen(w, "draft started");
    /* The hub's answer: this table's clock runs from now. */
    next_clock_waits = false;
    assign(w, 2, "agricola", 2, 4, 105 * 60000);
    w->now += 60000;
    assert_on_screen(w, "DRAFT 14:00 left (AG-14)");
    assert_on_screen(w, "clock 1:44:00 running");
    keys(w, "/");
    /* The table's own time is up: speed play here. */
    w->now += 104 * 60000;
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    if (w->s.view == TBL_VIEW_FLOW)
        keys(w, "/");
    w->now += 10000;
    assert_on_screen(w, "SPEED PLAY (AG-14): action 0:20");
    next_draft_ms = 0;
    world_free(w);
}

/* ---- flows -------------------------------------------------------------- */

static void test_CT_4_result_flow_keys(void **state)
{
    struct world *w = world_new(30, 100);
    struct tbl_flow_step st;
    (void)state;
    assign(w, 1, "catan", 12, 3, 0);
    keys(w, "\n");
    assert_int_equal(w->s.view, TBL_VIEW_FLOW);
    assert_int_equal(w->s.flow.kind, TBL_FLOW_RESULT);
    /* Walk the steps: numbers get their digits (a letter is refused on the
     * spot first), choices their first option, texts Enter. */
    for (int guard = 0; guard < 40 && w->s.view == TBL_VIEW_FLOW; guard++) {
        tbl_flow_step(&w->s.flow, &st);
        if (st.ask == TBL_ASK_NUMBER) {
            char digits[16];
            int32_t n0 = w->s.flow.n_answers;
            while (w->s.typed[0])
                key(w, TBL_KEY_BACKSPACE);
            keys(w, "a");
            assert_true(w->s.message_error);
            assert_non_null(strstr(w->s.message, "'a' refused"));
            assert_on_screen(w, "'a' refused: a number is digits only");
            assert_int_equal(w->s.flow.n_answers, n0);
            snprintf(digits, sizeof(digits), "%d\n",
                     (int)(st.min > 0 ? st.min : 0));
            keys(w, digits);
        } else if (st.ask == TBL_ASK_CHOICE) {
            keys(w, "1");
        } else {
            keys(w, "\n");
        }
    }
    assert_int_equal(w->s.view, TBL_VIEW_CONFIRM);
    assert_int_equal(tbl_core_state(&w->core), TBL_STATE_CONFIRMING);
    /* Rejecting goes back to the steps, on the summary. */
    keys(w, "/");
    assert_int_equal(w->s.view, TBL_VIEW_FLOW);
    tbl_flow_step(&w->s.flow, &st);
    assert_int_equal(st.ask, TBL_ASK_INFO);
    keys(w, "-");
    assert_int_equal(w->s.view, TBL_VIEW_FLOW);
    world_free(w);
}

/* ---- issue 22 item 8: what the players see --------------------------------
 */

/* An organiser's (or a resolved) result is shown in words with the
 * players' names, never as the event file's JSON with ids. */
static void test_issue22_organiser_result_in_words(void **state)
{
    struct world *w = world_new(24, 80);
    (void)state;
    next_organiser_result = "{\"winner\":\"p2\",\"hq_diff\":5,"
                            "\"armies\":{\"p1\":\"Moloch\",\"p2\":\"Borgo\"}}";
    assign(w, 1, "neuroshima-hex", 7, 2, 0);
    assert_int_equal(tbl_core_state(&w->core), TBL_STATE_DONE);
    assert_on_screen(w, "RESULT ENTERED BY THE ORGANISER");
    assert_on_screen(w, "Ben [Borgo] beat Anna [Moloch] by 5 HQ -- by "
                        "organiser:o1");
    assert_not_on_screen(w, "{");
    assert_not_on_screen(w, "\"p2\"");
    world_free(w);
    w = world_new(24, 80);
    next_organiser_result = "{\"vp\":{\"p1\":8,\"p2\":10,\"p3\":6}}";
    assign(w, 1, "catan", 3, 3, 0);
    assert_on_screen(w, "Ben 10, Anna 8, Cyril 6 -- by organiser:o1");
    world_free(w);
    w = world_new(24, 80);
    next_organiser_result = "{\"winner\":\"p1\",\"games\":[\"p1\",\"p2\","
                            "\"p1\"]}";
    assign(w, 1, "got-lcg2", 3, 2, 0);
    assert_on_screen(w, "Anna beat Ben 2-1 -- by organiser:o1");
    world_free(w);
    next_organiser_result = "";
}

/* A finished table's clock stands when the hub pauses the round clock
 * (as it does at `round close`): no blinking PAUSED over a table that
 * has its result. */
static void test_issue22_closed_round_clock_stands(void **state)
{
    struct world *w = world_new(24, 80);
    struct tny_wire_clock rc;
    (void)state;
    next_organiser_result = "{\"vp\":{\"p1\":8,\"p2\":10,\"p3\":6}}";
    assign(w, 1, "catan", 3, 3, 30 * 60000);
    next_organiser_result = "";
    tbl_core_follow(&w->core, w->now);
    w->now += 60000;
    memset(&rc, 0, sizeof(rc));
    rc.version = 100;
    snprintf(rc.event_id, sizeof(rc.event_id), "ev1");
    rc.round = 2;
    rc.clock.state = TNY_ROUND_CLOCK_PAUSED;
    rc.clock.hub_now_ms = 1700000060000;
    rc.clock.remaining_ms = 29 * 60000;
    assert_int_equal(tbl_core_round_clock(&w->core, &rc, w->now), 0);
    tbl_core_follow(&w->core, w->now);
    tbl_screen_sync(&w->s, &w->core, w->now, w->wall);
    assert_not_on_screen(w, "PAUSED");
    assert_on_screen(w, "stopped: the table has finished");
    /* The digits do not blink: the same on every half second. */
    char before[4096], after[4096];
    draw(w);
    tbl_grid_row(&w->g, 3, before, sizeof(before));
    w->now += 500;
    draw(w);
    tbl_grid_row(&w->g, 3, after, sizeof(after));
    assert_string_equal(before, after);
    world_free(w);
}

/* At 80x24 the confirm screen shows the result the players confirm in
 * full: a line with a long and a CJK name wraps, the loser's part is
 * never cut (NH: "A won: A +5, B -5 HQ"). */
static void test_issue22_confirm_80x24_long_and_cjk_names(void **state)
{
    static const char *const names[] = {
        "Bartholomew Alexander Wi\xc5\x9bniewski-Brz\xc4\x99"
        "czyszczykiewicz",
        "\xe7\x8e\x8b\xe5\xb0\x8f\xe6\x98\x8e"};
    struct world *w = world_new(24, 80);
    struct tbl_flow_step st;
    (void)state;
    next_names = names;
    assign(w, 1, "neuroshima-hex", 7, 2, 0);
    next_names = NULL;
    keys(w, "\n");
    assert_int_equal(w->s.view, TBL_VIEW_FLOW);
    char won[256], line[512];
    snprintf(won, sizeof(won), "%s won", names[0]);
    snprintf(line, sizeof(line), "%s won: %s +5, %s -5 HQ", names[0], names[0],
             names[1]);
    bool asked = false, summed = false;
    for (int guard = 0; guard < 40 && w->s.view == TBL_VIEW_FLOW; guard++) {
        tbl_flow_step(&w->s.flow, &st);
        if (st.ask == TBL_ASK_NUMBER) {
            keys(w, "5\n");
        } else if (st.ask == TBL_ASK_CHOICE) {
            /* The options name the players whole ("... won"). */
            if (strstr(st.title, "Result")) {
                assert_string_equal(st.options[0], won);
                asked = true;
            }
            keys(w, "1"); /* seat 1 (the long name) won */
        } else {
            /* The summary before the confirmation: the whole line. */
            if (strstr(st.title, "check, then confirm")) {
                if (!strstr(st.text, line))
                    fail_msg("summary lacks \"%s\": %s", line, st.text);
                summed = true;
            }
            keys(w, "\n");
        }
    }
    assert_true(asked && summed);
    assert_int_equal(w->s.view, TBL_VIEW_CONFIRM);
    /* The whole line, wrapped at a space: read the screen's rows back as
     * one text. */
    char all[8192] = "", row[4096];
    draw(w);
    for (int32_t r = 0; r < w->g.rows; r++) {
        tbl_grid_row(&w->g, r, row, sizeof(row));
        char *t = row;
        while (*t == ' ')
            t++;
        size_t n = strlen(t);
        while (n > 0 && t[n - 1] == ' ')
            t[--n] = '\0';
        strncat(all, t, sizeof(all) - strlen(all) - 2);
        strcat(all, " ");
    }
    char want[512];
    snprintf(want, sizeof(want), "%s won: %s +5, %s -5 HQ", names[0], names[0],
             names[1]);
    if (!strstr(all, want))
        fail_msg("\"%s\" not on the screen: %s", want, all);
    /* Each seat's line ends with its state in words, not cut. */
    assert_on_screen(w, "confirm now?");
    assert_on_screen(w, "to confirm");
    world_free(w);
}

/* ---- saved state ------------------------------------------------------------
 */

static void test_saved_state_restored_for_the_same_table_only(void **state)
{
    struct world *w = world_new(30, 100), *w2, *w3;
    char line[TBL_SCREEN_SAVE_MAX];
    struct tny_diag d = {{0}};
    (void)state;
    assign(w, 1, "tantrix", 4, 2, 60 * 60000);
    keys(w, "/1");
    w->now += 42000;
    w->s.expired_seen = true;
    w->s.done[TBL_FLOW_PREGAME] = (struct tbl_screen_answers){true, 2, {1, 0}};
    assert_int_equal(
        tbl_screen_save(&w->s, w->now, 5000000, line, sizeof(line)), 0);
    assert_non_null(strstr(line, "view=chess"));
    /* After a restart 3 s later (wall clock): same table. */
    w2 = world_new(30, 100);
    w2->now = 10;
    w2->wall = 5003000;
    assert_int_equal(tbl_screen_load(&w2->s, line, &d), 0);
    tbl_screen_sync(&w2->s, &w2->core, w2->now, w2->wall);
    assert_int_equal(w2->s.view, TBL_VIEW_MAIN); /* nothing assigned yet */
    assign(w2, 1, "tantrix", 4, 2, 60 * 60000);
    assert_int_equal(w2->s.view, TBL_VIEW_CHESS);
    assert_true(w2->s.expired_seen);
    assert_true(w2->s.done[TBL_FLOW_PREGAME].has);
    assert_int_equal(w2->s.done[TBL_FLOW_PREGAME].n, 2);
    assert_int_equal(w2->s.done[TBL_FLOW_PREGAME].v[0], 1);
    {
        struct tbl_chess_view v;
        tbl_chess_view(&w2->s.chess, w2->now, &v);
        assert_int_equal(v.running, 1);
        assert_int_equal(v.used_ms[1], 45000);
    }
    /* Another table: the saved state is not applied. */
    w3 = world_new(30, 100);
    assert_int_equal(tbl_screen_load(&w3->s, line, &d), 0);
    assign(w3, 1, "tantrix", 5, 2, 60 * 60000);
    assert_int_equal(w3->s.view, TBL_VIEW_MAIN);
    assert_false(w3->s.expired_seen);
    assert_int_equal(tbl_screen_load(&w3->s, "garbage", &d), TNY_EINVAL);
    world_free(w);
    world_free(w2);
    world_free(w3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_clips_and_keeps_utf8),
        cmocka_unit_test(test_main_waiting_has_network_and_keys),
        cmocka_unit_test(test_CM_7_main_playing_large_digits_and_seats),
        cmocka_unit_test(test_GT_14_TX_10_NH_10_seat_extras),
        cmocka_unit_test(test_issue19_seat_shows_its_side),
        cmocka_unit_test(test_seat_club_column_lines_up_past_24_columns),
        cmocka_unit_test(test_refused_login_named_on_the_status_line),
        cmocka_unit_test(test_main_80x24_keeps_every_part),
        cmocka_unit_test(test_issue21_hungarian_main_80x24_wraps_keys),
        cmocka_unit_test(test_CM_7_clock_expired_and_paused),
        cmocka_unit_test(test_every_player_confirms_by_key),
        cmocka_unit_test(test_rejection_by_a_player_and_by_the_hub),
        cmocka_unit_test(test_keys_refused_when_nothing_to_do),
        cmocka_unit_test(test_TX_11_TX_3_TX_9_chess_clock_keys),
        cmocka_unit_test(test_TX_s13_restart_resets_chess_clock),
        cmocka_unit_test(test_CT_9_board_on_the_notes_screen),
        cmocka_unit_test(test_CM_5_pairing_change_shown),
        cmocka_unit_test(test_CT_8_turn_limit_after_time_out),
        cmocka_unit_test(test_AG_14_draft_starts_with_the_round_clock),
        cmocka_unit_test(test_AG_14_table_waits_for_its_draft),
        cmocka_unit_test(test_CT_4_result_flow_keys),
        cmocka_unit_test(test_saved_state_restored_for_the_same_table_only),
        cmocka_unit_test(test_issue22_organiser_result_in_words),
        cmocka_unit_test(test_issue22_closed_round_clock_stands),
        cmocka_unit_test(test_issue22_confirm_80x24_long_and_cjk_names),
        cmocka_unit_test(test_title_bar_long_title_keeps_round_and_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
