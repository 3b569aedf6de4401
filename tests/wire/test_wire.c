/* test_wire.c - the wire module (proto/include/tny/wire.h, docs/protocol.md).
 *
 * Round trips of every message; decode errors that name the field
 * (truncation, wrong wire type, missing required field, over-long id, seat
 * counts, empty idempotency key, oversize buffer, unknown enum values);
 * results mapped onto engine tables and checked by the engine's rules
 * (AG-1, NH-1, NH-10, GT-9, TX-5, CT-3, CM-7); and a randomised test that
 * feeds random and mutated byte strings to every decoder.
 *
 * Crafted inputs are written with a tiny protobuf writer below, not with
 * the generated code, so the tests also pin the wire format itself.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/json_io.h"
#include "tny/rng.h"
#include "tny/wire.h"
#include "tny/wire_reply.h"

#include "reply_random.h"

/* ---- a tiny protobuf writer -----------------------------------------------
 */

struct pbw {
    uint8_t b[8192];
    size_t n;
};

static void pb_raw(struct pbw *w, const void *d, size_t n)
{
    assert_true(w->n + n <= sizeof w->b);
    memcpy(w->b + w->n, d, n);
    w->n += n;
}

static void pb_varint(struct pbw *w, uint64_t v)
{
    do {
        uint8_t c = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            c |= 0x80;
        pb_raw(w, &c, 1);
    } while (v);
}

static void pb_key(struct pbw *w, unsigned field, unsigned wt)
{
    pb_varint(w, ((uint64_t)field << 3) | wt);
}

static void pb_uint(struct pbw *w, unsigned field, uint64_t v)
{
    pb_key(w, field, 0);
    pb_varint(w, v);
}

static void pb_bytes(struct pbw *w, unsigned field, const void *d, size_t n)
{
    pb_key(w, field, 2);
    pb_varint(w, n);
    pb_raw(w, d, n);
}

static void pb_str(struct pbw *w, unsigned field, const char *s)
{
    pb_bytes(w, field, s, strlen(s));
}

static void pb_msg(struct pbw *w, unsigned field, const struct pbw *sub)
{
    pb_bytes(w, field, sub->b, sub->n);
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* Asserts rc == TNY_EINVAL and that diag starts with want. */
#define assert_diag(rc, diag, want)                                            \
    do {                                                                       \
        assert_int_equal((rc), TNY_EINVAL);                                    \
        if (strncmp((diag).msg, (want), strlen(want)) != 0)                    \
            fail_msg("diag \"%s\" does not start with \"%s\"", (diag).msg,     \
                     (want));                                                  \
    } while (0)

/* ---- samples ------------------------------------------------------------- */

#define N_RESULT_SAMPLES 13

static void entry(struct tny_wire_result *r, const char *id)
{
    snprintf(r->players[r->n_players].player_id, TNY_WIRE_ID_MAX + 1, "%s", id);
    r->n_players++;
}

static void result_sample(int k, struct tny_wire_result *r)
{
    memset(r, 0, sizeof *r);
    switch (k) {
    case 0: /* NH win with armies */
        r->game = TNY_GAME_NEUROSHIMA_HEX;
        strcpy(r->winner_id, "p1");
        r->hq_diff = 7;
        entry(r, "p1");
        strcpy(r->players[0].army, "Borgo");
        entry(r, "p2");
        strcpy(r->players[1].army, "Moloch");
        break;
    case 1: /* NH draw */
        r->game = TNY_GAME_NEUROSHIMA_HEX;
        r->draw = true;
        break;
    case 2: /* TX scores with clocks and a penalty */
        r->game = TNY_GAME_TANTRIX;
        entry(r, "t2");
        entry(r, "t1");
        for (int i = 0; i < 2; i++) {
            r->players[i].has_score = r->players[i].has_clock = true;
            r->players[i].score = 25 - 7 * i;
            r->players[i].clock_ms = 1140000 + 125000 * i;
        }
        r->players[1].penalty_units = 1200;
        break;
    case 3: /* TX default */
        r->game = TNY_GAME_TANTRIX;
        strcpy(r->default_winner_id, "t1");
        break;
    case 4: /* TX organiser decision */
        r->game = TNY_GAME_TANTRIX;
        entry(r, "t1");
        entry(r, "t2");
        r->players[0].has_tp = r->players[1].has_tp = true;
        r->players[0].tp_units = 14 * 1200;
        r->players[1].tp_units = 6 * 1200;
        r->n_lots = 2; /* CM-4: lots drawn at the table */
        strcpy(r->lots[0], "TX-11 tile draw by the table's lot: 41 v 7");
        strcpy(r->lots[1], "second lot");
        break;
    case 5: /* AG table of 4, negative BP */
        r->game = TNY_GAME_AGRICOLA;
        entry(r, "n7");
        entry(r, "n1");
        entry(r, "n5");
        entry(r, "n3");
        for (int i = 0; i < 4; i++) {
            r->players[i].has_score = true;
            r->players[i].score = 30 + 5 * i;
            r->players[i].ip = 4 + i;
            r->players[i].bp = i - 1;
        }
        break;
    case 6: /* GT modified win */
        r->game = TNY_GAME_GOT_LCG2;
        strcpy(r->winner_id, "g3");
        r->modified = true;
        break;
    case 7: /* GT best of three */
        r->game = TNY_GAME_GOT_LCG2;
        r->n_games = 3;
        strcpy(r->games[0], "g1");
        strcpy(r->games[1], "g2");
        strcpy(r->games[2], "g1");
        break;
    case 8: /* CT table of 3 */
        r->game = TNY_GAME_CATAN;
        entry(r, "c1");
        entry(r, "c2");
        entry(r, "c3");
        for (int i = 0; i < 3; i++) {
            r->players[i].has_score = true;
            r->players[i].score = 10 - i;
        }
        break;
    case 9: /* TX draw, the board could not be restored (seed 001 s13) */
        r->game = TNY_GAME_TANTRIX;
        r->draw = true;
        entry(r, "t2"); /* an entry only for a penalty (TX-7) */
        r->players[0].penalty_units = 1200;
        break;
    case 10: /* two-player: both scores and the winner */
        r->game = TNY_GAME_TWO_PLAYER;
        entry(r, "x2");
        entry(r, "x1");
        r->players[0].has_score = r->players[1].has_score = true;
        r->players[0].score = 83;
        r->players[1].score = 200;
        strcpy(r->winner_id, "x1");
        break;
    case 11: /* two-player: an intentional draw, no scores */
        r->game = TNY_GAME_TWO_PLAYER;
        r->intentional_draw = true;
        break;
    default: /* CT table of 4 */
        r->game = TNY_GAME_CATAN;
        for (int i = 0; i < 4; i++) {
            char id[16];
            snprintf(id, sizeof id, "c%d", i + 1);
            entry(r, id);
            r->players[i].has_score = true;
            r->players[i].score = 3 + i;
        }
        break;
    }
}

static void submission_sample(int k, struct tny_wire_submission *s)
{
    memset(s, 0, sizeof *s);
    strcpy(s->key, "table-07.boot3.000042");
    strcpy(s->device_id, "table-07");
    strcpy(s->event_id, "nh-2025");
    s->round = 3;
    s->table = 7;
    s->assignment_version = 12;
    result_sample(k, &s->result);
    s->n_confirmed = 2;
    strcpy(s->confirmed[0], "p1");
    strcpy(s->confirmed[1], "p2");
    s->table_time_ms = 1732000000000;
}

static void assignment_sample(struct tny_wire_assignment *a)
{
    memset(a, 0, sizeof *a);
    a->version = 41;
    strcpy(a->event_id, "nh-2025");
    strcpy(a->event_title, "Neuroshima Hex! Polish Open — Kraków");
    strcpy(a->format_name, "neuroshima-hex");
    a->game = TNY_GAME_NEUROSHIMA_HEX;
    a->round = 4;
    a->stage = TNY_STAGE_SWISS;
    strcpy(a->stage_name, "Swiss");
    a->table = 12;
    a->n_seats = 2;
    strcpy(a->seats[0].player_id, "p1");
    strcpy(a->seats[0].name, "Anna Nowak");
    strcpy(a->seats[0].club, "Hex Kraków");
    a->seats[0].first_player = true;
    a->seats[0].n_armies = 3;
    strcpy(a->seats[0].armies[0], "Borgo");
    strcpy(a->seats[0].armies[1], "Moloch");
    strcpy(a->seats[0].armies[2], "Dancer");
    strcpy(a->seats[1].player_id, "p3");
    strcpy(a->seats[1].name, "Celina Wrona");
    a->seats[1].n_armies = 1;
    strcpy(a->seats[1].armies[0], "Hegemony");
    a->has_clock = true;
    a->clock.state = TNY_ROUND_CLOCK_RUNNING;
    a->clock.hub_now_ms = 1732000000000;
    a->clock.deadline_ms = 1732000000000 + 3600000;
    strcpy(a->procedure, "At time: finish the current turn,\n"
                         "then one more turn each.");
    a->n_notes = 2;
    strcpy(a->notes[0], "Table 12 is by the window.");
    strcpy(a->notes[1], "Beginners may ask a judge.");
    a->best_of_three = false;
}

static void tx_assignment_sample(struct tny_wire_assignment *a)
{
    memset(a, 0, sizeof *a);
    a->version = 1;
    strcpy(a->event_id, "tx.open");
    a->game = TNY_GAME_TANTRIX;
    a->round = 1;
    a->stage = TNY_STAGE_SWISS;
    a->table = 3;
    a->n_seats = 2;
    for (int i = 0; i < 2; i++) {
        snprintf(a->seats[i].player_id, TNY_WIRE_ID_MAX + 1, "t%d", i + 1);
        snprintf(a->seats[i].name, TNY_WIRE_TEXT_MAX + 1, "Player %d", i + 1);
        a->seats[i].n_colours = 2;
        strcpy(a->seats[i].colours[0], i ? "red" : "blue");
        strcpy(a->seats[i].colours[1], i ? "yellow" : "green");
    }
    a->seats[1].colour_blind = true;
    a->seats[1].first_player = true;
    a->has_clock = true;
    a->clock.state = TNY_ROUND_CLOCK_PAUSED;
    a->clock.hub_now_ms = 5;
    a->clock.remaining_ms = -2500; /* paused in overtime */
    a->chess_clock_limit_ms = 20 * 60000;
}

static struct tny_wire_table_extension sample_ext[3] = {
    {2, 120000, -1, false}, {9, 300000, -1, false}, {40, 0, -1, false}};

static void clock_sample(struct tny_wire_clock *c)
{
    memset(c, 0, sizeof *c);
    c->version = 7;
    strcpy(c->event_id, "ct-cup");
    c->round = 2;
    c->clock.state = TNY_ROUND_CLOCK_RUNNING;
    c->clock.hub_now_ms = 1732000000000;
    c->clock.deadline_ms = 1732000000000 + 90 * 60000;
    c->n_extensions = 3;
    c->extensions = sample_ext;
}

static void ack_sample(int k, struct tny_wire_ack *a)
{
    memset(a, 0, sizeof *a);
    strcpy(a->key, "table-07.boot3.000042");
    switch (k) {
    case 0: a->status = TNY_WIRE_ACK_ACCEPTED; break;
    case 1:
        a->status = TNY_WIRE_ACK_CONFLICT;
        a->reason = TNY_WIRE_REASON_ALREADY_CONFIRMED;
        strcpy(a->reason_text, "table 7 already has a confirmed result");
        strcpy(a->event_id, "ag-2025");
        a->round = 3;
        a->table = 7;
        a->has_stored = true;
        result_sample(5, &a->stored);
        break;
    case 2:
        a->status = TNY_WIRE_ACK_REJECTED;
        a->reason = TNY_WIRE_REASON_INVALID_RESULT;
        strcpy(a->reason_text, "result_submission.result.vp.n7: expected a "
                               "number -50..200, got 201");
        break;
    default: /* keyless: the submission did not decode */
        memset(a->key, 0, sizeof a->key);
        a->status = TNY_WIRE_ACK_REJECTED;
        a->reason = TNY_WIRE_REASON_MALFORMED;
        strcpy(a->reason_text, "result_submission.round: missing");
        break;
    }
}

static void presence_sample(struct tny_wire_presence *p)
{
    memset(p, 0, sizeof *p);
    strcpy(p->device_id, "table-07");
    p->state = TNY_WIRE_PRESENCE_ONLINE;
    p->queued_results = 2;
    strcpy(p->software_version, "0.1.0+g1a2b3c");
    p->last_assignment_version = 41;
    p->device_time_ms = 1732000000123;
    strcpy(p->detail, "keypad ok");
}

/* A request with exactly the arguments cmd uses (variant picks CREATE
 * EVENT's preset or format_json). */
static void add_field(struct tny_wire_request *q, unsigned b);

/* A sample request of cmd: its own case below, else (a command added by
 * its description alone, docs/architecture.md "Adding a console
 * command") built from the description: variant 0 every field it names,
 * variant 1 only those it requires (a round or table >= 1, confirm). */
static void request_sample(enum tny_wire_cmd cmd, int variant,
                           struct tny_wire_request *q)
{
    memset(q, 0, sizeof *q);
    strcpy(q->correlation_id, "c-000123");
    strcpy(q->organiser_id, "org.anna");
    strcpy(q->event_id, "ag-2025");
    q->cmd = cmd;
    switch (cmd) {
    case TNY_WIRE_CMD_CREATE_EVENT:
        if (variant)
            q->format_json = "{\"name\": \"my-catan\",\n\t\"game\": \"catan\"}";
        else
            strcpy(q->preset, "agricola");
        strcpy(q->title, "Agricola Nationals");
        q->has_seed = true;
        q->seed = UINT64_MAX;
        q->options_json = variant ? NULL : "{\"swiss_rounds\": 5}";
        break;
    case TNY_WIRE_CMD_IMPORT_PLAYERS:
        q->csv = "id,name,club\r\nn1,Nora,Oslo\r\nn2,\"Ola, Jr\",\r\n";
        break;
    case TNY_WIRE_CMD_REGISTER_PLAYER:
        strcpy(q->player.id, "p9");
        strcpy(q->player.name, "Zoë Ünal");
        strcpy(q->player.club, "Berlin");
        strcpy(q->player.country, "DE");
        strcpy(q->player.external_id, "FIG-1234");
        q->player.has_rating = true;
        q->player.rating = 1587.5;
        q->player.n_armies = 2;
        strcpy(q->player.armies[0], "Borgo");
        strcpy(q->player.armies[1], "Iron Gang");
        q->player.beginner = true;
        q->player.n_colours = 2;
        strcpy(q->player.colours[0], "red");
        strcpy(q->player.colours[1], "blue");
        q->player.colour_blind = true;
        strcpy(q->player.faction, "Stark");
        strcpy(q->player.agenda, "Banner of the Wolf");
        q->player.first_round = 3;
        q->player.hook = variant != 0; /* NH-10 */
        q->decklist = variant ? "Stark\n3x Winterfell Steward\n" : NULL;
        break;
    case TNY_WIRE_CMD_DECLARE_ARMIES: /* NH-11 */
        strcpy(q->player_id, "p4");
        q->player.n_armies = variant ? 4 : 3;
        strcpy(q->player.armies[0], "Borgo");
        strcpy(q->player.armies[1], "Moloch");
        strcpy(q->player.armies[2], "Iron Gang");
        if (variant)
            strcpy(q->player.armies[3], "Vegas");
        break;
    case TNY_WIRE_CMD_DROP_PLAYER:
    case TNY_WIRE_CMD_REJOIN_PLAYER:
        strcpy(q->player_id, "p4");
        q->round = 2;
        if (cmd == TNY_WIRE_CMD_DROP_PLAYER && !variant)
            strcpy(q->reason, "left for a train");
        break;
    case TNY_WIRE_CMD_DISQUALIFY_PLAYER:
        strcpy(q->player_id, "p4");
        q->round = 2;
        strcpy(q->reason, "unsporting conduct");
        break;
    case TNY_WIRE_CMD_PAIR_ROUND:
    case TNY_WIRE_CMD_SHOW_DRAFT:
    case TNY_WIRE_CMD_GET_STANDINGS: q->round = variant ? 0 : 4; break;
    case TNY_WIRE_CMD_PUBLISH_ROUND:
    case TNY_WIRE_CMD_CLOSE_ROUND: q->round = 4; break;
    case TNY_WIRE_CMD_SWAP_PLAYERS:
        q->round = 4;
        strcpy(q->player_id, "p1");
        strcpy(q->other_player_id, "p7");
        q->force = variant;
        break;
    case TNY_WIRE_CMD_MOVE_TABLE:
        q->round = 4;
        q->table = 12;
        q->to_table = 40;
        q->force = variant;
        break;
    case TNY_WIRE_CMD_FIX_TABLE:
        strcpy(q->player_id, "p2");
        q->table = variant ? 0 : 1;
        q->force = !variant;
        break;
    case TNY_WIRE_CMD_DISCARD_DRAFT:
        q->round = variant ? 0 : 3;
        strcpy(q->reason, variant ? "" : "late registrations");
        break;
    case TNY_WIRE_CMD_UNPUBLISH_ROUND:
    case TNY_WIRE_CMD_REOPEN_ROUND:
        q->round = 2;
        strcpy(q->reason, variant ? "" : "wrong result at table 4");
        break;
    case TNY_WIRE_CMD_EDIT_PLAYER:
        strcpy(q->player_id, "p3");
        strcpy(q->player.name, variant ? "" : "Łukasz Wójcik");
        q->set_club = true; /* variant 1: "" = no club any more */
        strcpy(q->player.club, variant ? "" : "Kraków");
        q->set_country = !variant;
        strcpy(q->player.country, variant ? "" : "PL");
        strcpy(q->reason, "typo");
        break;
    case TNY_WIRE_CMD_SHOW_RESULTS:
        q->round = 2;
        q->table = variant ? 0 : 9;
        break;
    case TNY_WIRE_CMD_RESOLVE_CONFLICT:
        q->round = 2;
        q->table = 9;
        q->result_id = variant ? 1 : (int64_t)1 << 40;
        strcpy(q->reason, "players agreed");
        break;
    case TNY_WIRE_CMD_READ_LOG: q->after_seq = variant ? 0 : 12345; break;
    case TNY_WIRE_CMD_CLOCK_START:
    case TNY_WIRE_CMD_CLOCK_PAUSE:
    case TNY_WIRE_CMD_CLOCK_RESUME:
        q->round = 4;
        q->table = variant ? 0 : 5;
        break;
    case TNY_WIRE_CMD_CLOCK_EXTEND:
        q->round = 4;
        q->table = 5;
        q->extra_ms = 5 * 60000;
        break;
    case TNY_WIRE_CMD_CLOCK_DRAFT: /* AG-14 */
        q->round = variant ? 1 : 4;
        q->table = variant ? 12 : 5;
        break;
    case TNY_WIRE_CMD_ENTER_RESULT:
        q->round = 4;
        q->table = 5;
        result_sample(variant ? 2 : 5, &q->result);
        q->override = true;
        strcpy(q->reason, "table entered wrong VP");
        break;
    case TNY_WIRE_CMD_PENALTY:
        q->round = 4;
        q->table = 5;
        strcpy(q->player_id, "t1");
        q->points_units = 1200;
        strcpy(q->reason, "TX-7 late result");
        break;
    case TNY_WIRE_CMD_ASSIGN_DEVICE:
        strcpy(q->device_id, "table-07");
        q->table = 7;
        break;
    case TNY_WIRE_CMD_IDENTIFY_DEVICE:
        strcpy(q->device_id, "table-07");
        if (variant) /* needs no event */
            memset(q->event_id, 0, sizeof q->event_id);
        break;
    case TNY_WIRE_CMD_ISSUE_CODE: q->table = variant ? 1 : 47; break;
    case TNY_WIRE_CMD_REVOKE_CODE:
        strcpy(q->code, variant ? "k7qx-m3pa" : "K7QXM3PA");
        break;
    case TNY_WIRE_CMD_NEXT_STAGE: q->confirm = true; break;
    case TNY_WIRE_CMD_LIST_EVENTS:
        memset(q->event_id, 0, sizeof q->event_id);
        break;
    case TNY_WIRE_CMD_LIST_DEVICES:
        if (variant)
            memset(q->event_id, 0, sizeof q->event_id);
        break;
    default: {
        const struct tny_wire_cmd_info *info = tny_wire_cmd_info(cmd);
        unsigned f = info ? info->fields : 0;
        if (variant)
            f = (f & TNY_WF_ROUND_REQ ? TNY_WF_ROUND : 0) |
                (f & TNY_WF_TABLE_REQ ? TNY_WF_TABLE : 0) |
                (f & TNY_WF_CONFIRM_REQ ? TNY_WF_CONFIRM : 0);
        for (unsigned b = 1; b && b <= TNY_WF_EDIT; b <<= 1)
            if (f & b)
                add_field(q, b);
        break;
    }
    }
}

/* Two seatings (TNY_REPLY_DRAFT): k 0 a draft with a bye, sides and a
 * first player; k 1 a started round with its clock and a table's own.
 * The strings are static: an encode borrows them. */
static struct tny_wire_seating *seating_sample(int k)
{
    static struct tny_wire_seated_table tables[2][3];
    static struct tny_wire_player_name names[5] = {
        {"p1", "\u0141ukasz \u0106wik"},
        {"p2", "Anna Nowak"},
        {"p3", "Ben Ode"},
        {"p4", "Dan \x1b[31mLi"},
        {"p5", ""}};
    static struct tny_wire_seating s[2];
    struct tny_wire_seated_table *t = tables[k];
    memset(t, 0, sizeof tables[k]);
    memset(&s[k], 0, sizeof s[k]);
    t[0].table = 1;
    t[0].n_players = 2;
    t[0].players[0] = "p1";
    t[0].players[1] = "p3";
    t[1].table = 2;
    t[1].n_players = 2;
    t[1].players[0] = "p2";
    t[1].players[1] = "p4";
    t[2].n_players = 1; /* the bye */
    t[2].players[0] = "p5";
    s[k].round = 3;
    s[k].has_stage = true;
    s[k].stage = TNY_STAGE_SWISS;
    s[k].n_tables = 3;
    s[k].tables = t;
    s[k].n_names = 5;
    s[k].names = names;
    if (k == 0) {
        t[0].n_sides = 2;
        t[0].sides[0] = "Corp";
        t[0].sides[1] = "Runner";
        t[0].first_player = "p3";
        s[k].explain = "score group 3: p1 p3\nbye: p5 (lowest)";
    } else {
        s[k].status = TNY_WIRE_ROUND_STARTED;
        s[k].clock =
            (struct tny_wire_time_left){true, TNY_ROUND_CLOCK_RUNNING, 2640000};
        t[1].clock =
            (struct tny_wire_time_left){true, TNY_ROUND_CLOCK_PAUSED, -65000};
    }
    return &s[k];
}

/* Standings (TNY_REPLY_STANDINGS) of a format with sides: a tiebreak
 * not applicable, a fraction of a point, a disqualified player. */
static struct tny_wire_standings *standings_sample(void)
{
    static struct tny_wire_standing_row rows[3];
    static struct tny_wire_standings s;
    memset(rows, 0, sizeof rows);
    memset(&s, 0, sizeof s);
    s.after_round = 4;
    s.stage = TNY_STAGE_SWISS;
    s.n_tiebreaks = 2;
    s.tiebreaks[0] = TNY_TB_SOS;
    s.tiebreaks[1] = TNY_TB_HEAD_TO_HEAD;
    s.n_sides = 2;
    s.sides[0] = "Corp";
    s.sides[1] = "Runner";
    for (int i = 0; i < 3; i++) {
        rows[i].rank = i + 1;
        rows[i].player = (char *)(const char *[]){"p2", "p1", "p3"}[i];
        rows[i].name = (char *)(const char *[]){"Anna", "Bo", "Cy"}[i];
        rows[i].points_units = 1200 * (3 - i) + (i == 1 ? 600 : 0);
        rows[i].has_tiebreak[0] = true;
        rows[i].tiebreaks[0] = 10.5 - i;
        rows[i].has_tiebreak[1] = i != 2;
        rows[i].side_games[0] = 2;
        rows[i].side_games[1] = 2;
    }
    rows[2].disqualified = rows[2].dropped = true;
    rows[1].decided_by_lot = true;
    s.n_rows = 3;
    s.rows = rows;
    return &s;
}

static void reply_sample(int k, struct tny_wire_reply *r)
{
    memset(r, 0, sizeof *r);
    strcpy(r->correlation_id, "c-000123");
    if (k == 6) { /* a publish summary (TNY_REPLY_PUBLISHED) */
        static int32_t tables[2] = {1, 3}, missing[1] = {2};
        static char *devices[2] = {"table-001", "web-7"};
        static struct tny_wire_published pub;
        pub = (struct tny_wire_published){4, 2, tables, devices, 1, missing, 1};
        r->round = 4;
        r->published = &pub;
    } else if (k == 5) {
        r->round = 4;
        r->standings = standings_sample();
    } else if (k == 3 || k == 4) {
        r->round = 3;
        r->seating = seating_sample(k - 3);
    } else if (k == 0) {
        r->json = "{ \"after_round\": 3,\n  \"standings\": [] }\n";
        strcpy(r->event_id, "ag-2025");
        r->round = 3;
        r->count = 48;
    } else {
        r->rc = k == 1 ? TNY_EINVAL : TNY_ECONFLICT;
        strcpy(r->message, "console_request.swap_players.player_b: \"p77\" "
                           "is not in round 4");
    }
}

/* ---- equality of decoded structs ------------------------------------------
 */

/* Decoded structs start zeroed and samples are built with memset, so equal
 * content means equal bytes, except for heap members compared apart. */
static bool str_eq(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool clock_eq(const struct tny_wire_clock *a,
                     const struct tny_wire_clock *b)
{
    struct tny_wire_clock x, y; /* memcpy: padding too (both zeroed) */
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    x.extensions = y.extensions = NULL;
    return memcmp(&x, &y, sizeof x) == 0 &&
           (a->n_extensions == 0 ||
            memcmp(a->extensions, b->extensions,
                   (size_t)a->n_extensions * sizeof *a->extensions) == 0);
}

static bool request_eq(const struct tny_wire_request *a,
                       const struct tny_wire_request *b)
{
    struct tny_wire_request *x = malloc(sizeof *x), *y = malloc(sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    *x = *a;
    *y = *b;
    x->format_json = x->options_json = x->csv = x->decklist = NULL;
    y->format_json = y->options_json = y->csv = y->decklist = NULL;
    x->event_json = y->event_json = NULL;
    bool eq = memcmp(x, y, sizeof *x) == 0 &&
              str_eq(a->format_json, b->format_json) &&
              str_eq(a->event_json, b->event_json) &&
              str_eq(a->options_json, b->options_json) &&
              str_eq(a->csv, b->csv) && str_eq(a->decklist, b->decklist);
    free(x);
    free(y);
    return eq;
}

static bool seating_eq(const struct tny_wire_seating *a,
                       const struct tny_wire_seating *b)
{
    if (!a || !b)
        return !a && !b;
    if (a->round != b->round || a->has_stage != b->has_stage ||
        (a->has_stage && a->stage != b->stage) || a->status != b->status ||
        memcmp(&a->clock, &b->clock, sizeof a->clock) != 0 ||
        a->n_tables != b->n_tables || !str_eq(a->explain, b->explain) ||
        a->n_names != b->n_names || a->republished != b->republished)
        return false;
    for (int32_t i = 0; i < a->n_tables; i++) {
        const struct tny_wire_seated_table *x = &a->tables[i],
                                           *y = &b->tables[i];
        if (x->table != y->table || x->n_players != y->n_players ||
            x->n_sides != y->n_sides ||
            !str_eq(x->first_player, y->first_player) ||
            x->clock.has != y->clock.has ||
            (x->clock.has && (x->clock.state != y->clock.state ||
                              x->clock.left_ms != y->clock.left_ms)))
            return false;
        for (int32_t k = 0; k < x->n_players; k++)
            if (!str_eq(x->players[k], y->players[k]))
                return false;
        for (int32_t k = 0; k < x->n_sides; k++)
            if (!str_eq(x->sides[k], y->sides[k]))
                return false;
    }
    for (int32_t i = 0; i < a->n_names; i++)
        if (!str_eq(a->names[i].id, b->names[i].id) ||
            !str_eq(a->names[i].name, b->names[i].name))
            return false;
    return true;
}

static bool standings_eq(const struct tny_wire_standings *a,
                         const struct tny_wire_standings *b)
{
    if (!a || !b)
        return !a && !b;
    if (a->after_round != b->after_round || a->stage != b->stage ||
        a->n_tiebreaks != b->n_tiebreaks ||
        memcmp(a->tiebreaks, b->tiebreaks, sizeof a->tiebreaks) != 0 ||
        a->n_sides != b->n_sides || a->n_rows != b->n_rows)
        return false;
    for (int32_t k = 0; k < a->n_sides; k++)
        if (!str_eq(a->sides[k], b->sides[k]))
            return false;
    for (int32_t i = 0; i < a->n_rows; i++) {
        struct tny_wire_standing_row x = a->rows[i], y = b->rows[i];
        if (!str_eq(x.player, y.player) || !str_eq(x.name, y.name))
            return false;
        x.player = x.name = y.player = y.name = NULL;
        if (memcmp(&x, &y, sizeof x) != 0)
            return false;
    }
    return true;
}

static bool published_eq(const struct tny_wire_published *a,
                         const struct tny_wire_published *b)
{
    if (!a || !b)
        return !a && !b;
    if (a->round != b->round || a->n_assigned != b->n_assigned ||
        a->n_missing != b->n_missing || a->idle_devices != b->idle_devices)
        return false;
    for (int32_t i = 0; i < a->n_assigned; i++)
        if (a->tables[i] != b->tables[i] ||
            !str_eq(a->devices[i], b->devices[i]))
            return false;
    for (int32_t i = 0; i < a->n_missing; i++)
        if (a->missing[i] != b->missing[i])
            return false;
    return true;
}

static bool reply_eq(const struct tny_wire_reply *a,
                     const struct tny_wire_reply *b)
{
    struct tny_wire_reply x = *a, y = *b;
    x.json = y.json = NULL;
    x.seating = y.seating = NULL;
    x.standings = y.standings = NULL;
    x.published = y.published = NULL;
    return memcmp(&x, &y, sizeof x) == 0 && str_eq(a->json, b->json) &&
           seating_eq(a->seating, b->seating) &&
           standings_eq(a->standings, b->standings) &&
           published_eq(a->published, b->published);
}

/* ---- a codec table for generic tests --------------------------------------
 */

struct codec {
    const char *root;
    size_t size;
    int (*decode)(const uint8_t *, size_t, void *, struct tny_diag *);
    int (*encode)(const void *, uint8_t **, size_t *, struct tny_diag *);
    void (*release)(void *);
    bool (*equal)(const void *, const void *);
};

#define WRAP(name, type)                                                       \
    static int dec_##name(const uint8_t *b, size_t n, void *o,                 \
                          struct tny_diag *d)                                  \
    {                                                                          \
        return tny_wire_decode_##name(b, n, (type *)o, d);                     \
    }                                                                          \
    static int enc_##name(const void *i, uint8_t **b, size_t *n,               \
                          struct tny_diag *d)                                  \
    {                                                                          \
        return tny_wire_encode_##name((const type *)i, b, n, d);               \
    }
WRAP(assignment, struct tny_wire_assignment)
WRAP(clock, struct tny_wire_clock)
WRAP(submission, struct tny_wire_submission)
WRAP(ack, struct tny_wire_ack)
WRAP(presence, struct tny_wire_presence)
WRAP(request, struct tny_wire_request)
WRAP(reply, struct tny_wire_reply)
#undef WRAP

static void rel_clock(void *p)
{
    tny_wire_clock_release(p);
}
static void rel_request(void *p)
{
    tny_wire_request_release(p);
}
static void rel_reply(void *p)
{
    tny_wire_reply_release(p);
}
static bool eq_clock(const void *a, const void *b)
{
    return clock_eq(a, b);
}
static bool eq_request(const void *a, const void *b)
{
    return request_eq(a, b);
}
static bool eq_reply(const void *a, const void *b)
{
    return reply_eq(a, b);
}

enum {
    C_ASSIGN,
    C_CLOCK,
    C_SUBMISSION,
    C_ACK,
    C_PRESENCE,
    C_REQUEST,
    C_REPLY,
    C_COUNT
};

static const struct codec codecs[C_COUNT] = {
    [C_ASSIGN] = {"table_assignment", sizeof(struct tny_wire_assignment),
                  dec_assignment, enc_assignment, NULL, NULL},
    [C_CLOCK] = {"round_clock", sizeof(struct tny_wire_clock), dec_clock,
                 enc_clock, rel_clock, eq_clock},
    [C_SUBMISSION] = {"result_submission", sizeof(struct tny_wire_submission),
                      dec_submission, enc_submission, NULL, NULL},
    [C_ACK] = {"result_ack", sizeof(struct tny_wire_ack), dec_ack, enc_ack,
               NULL, NULL},
    [C_PRESENCE] = {"presence", sizeof(struct tny_wire_presence), dec_presence,
                    enc_presence, NULL, NULL},
    [C_REQUEST] = {"console_request", sizeof(struct tny_wire_request),
                   dec_request, enc_request, rel_request, eq_request},
    [C_REPLY] = {"console_reply", sizeof(struct tny_wire_reply), dec_reply,
                 enc_reply, rel_reply, eq_reply},
};

static bool codec_eq(const struct codec *c, const void *a, const void *b)
{
    return c->equal ? c->equal(a, b) : memcmp(a, b, c->size) == 0;
}

static void codec_release(const struct codec *c, void *p)
{
    if (c->release)
        c->release(p);
}

/* Encodes in, decodes it again and asserts the result equals in. */
static void roundtrip(const struct codec *c, const void *in)
{
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    void *out = calloc(1, c->size);
    assert_non_null(out);
    int rc = c->encode(in, &buf, &len, &diag);
    if (rc != 0)
        fail_msg("%s: encode failed: %s", c->root, diag.msg);
    rc = c->decode(buf, len, out, &diag);
    if (rc != 0)
        fail_msg("%s: decode failed: %s", c->root, diag.msg);
    if (!codec_eq(c, in, out))
        fail_msg("%s: round trip changed the message", c->root);
    codec_release(c, out);
    free(out);
    free(buf);
}

/* Encodes a sample (the test fails if it does not encode). */
static void encode_ok(const struct codec *c, const void *in, uint8_t **buf,
                      size_t *len)
{
    struct tny_diag diag = {{0}};
    if (c->encode(in, buf, len, &diag) != 0)
        fail_msg("%s: encode failed: %s", c->root, diag.msg);
}

/* Decodes and asserts an EINVAL whose diag starts with want. */
static void decode_fails(const struct codec *c, const uint8_t *buf, size_t len,
                         const char *want)
{
    struct tny_diag diag = {{0}};
    void *out = calloc(1, c->size), *zero = calloc(1, c->size);
    assert_non_null(out);
    assert_non_null(zero);
    memset(out, 0xa5, c->size); /* must come back zeroed */
    int rc = c->decode(buf, len, out, &diag);
    assert_diag(rc, diag, want);
    assert_memory_equal(out, zero, c->size);
    free(out);
    free(zero);
}

/* ---- round trips ------------------------------------------------------- */

static void test_PROTO_roundtrip_assignment(void **state)
{
    (void)state;
    struct tny_wire_assignment *a = calloc(1, sizeof *a);
    assert_non_null(a);
    assignment_sample(a);
    roundtrip(&codecs[C_ASSIGN], a);
    tx_assignment_sample(a);
    roundtrip(&codecs[C_ASSIGN], a);
    /* Four seats (Agricola), clock not started, Bo3 flag, AG timers. */
    assignment_sample(a);
    a->game = TNY_GAME_AGRICOLA;
    a->stage = TNY_STAGE_PRELIM;
    a->n_seats = 4;
    for (int i = 0; i < 4; i++) {
        memset(&a->seats[i], 0, sizeof a->seats[i]);
        snprintf(a->seats[i].player_id, TNY_WIRE_ID_MAX + 1, "n%d", i + 1);
        snprintf(a->seats[i].name, TNY_WIRE_TEXT_MAX + 1, "Player %d", i);
    }
    a->clock.state = TNY_ROUND_CLOCK_READY;
    a->clock.deadline_ms = 0;
    a->clock.remaining_ms = 105 * 60000;
    a->draft_ms = 15 * 60000;
    a->action_ms = 30000;
    a->best_of_three = true;
    strcpy(a->organiser_result,
           "{\"vp\": {\"n1\": 30, \"n2\": 20, \"n3\": 10, \"n4\": 5}}");
    strcpy(a->organiser_result_by, "organiser:desk");
    roundtrip(&codecs[C_ASSIGN], a);
    /* CT-9: a Catan table with its random board. */
    {
        struct tny_ct_board b;
        struct tny_diag d = {{0}};
        uint8_t *buf = NULL;
        size_t len = 0;
        a->game = TNY_GAME_CATAN;
        a->stage = TNY_STAGE_ROUND;
        a->draft_ms = a->action_ms = 0;
        a->best_of_three = false;
        tny_ct_board_generate(5, 2, 3, &b);
        tny_ct_board_code(&b, a->ct_board);
        roundtrip(&codecs[C_ASSIGN], a);
        a->ct_board[0] = a->ct_board[0] == 'D' ? 'F' : 'D'; /* 2 deserts */
        assert_diag(tny_wire_encode_assignment(a, &buf, &len, &d), d,
                    "table_assignment.ct_board: board");
        a->ct_board[0] = '\0';
    }
    /* Idle: no table this round, unlimited clock. */
    memset(a, 0, sizeof *a);
    a->version = 2;
    strcpy(a->event_id, "nh-2025");
    a->game = TNY_GAME_NEUROSHIMA_HEX;
    a->round = 5;
    a->stage = TNY_STAGE_ELIMINATION;
    a->has_clock = true;
    a->clock.unlimited = true;
    a->clock.state = TNY_ROUND_CLOCK_RUNNING;
    a->clock.hub_now_ms = 1;
    roundtrip(&codecs[C_ASSIGN], a);
    free(a);
}

/* Issue 19 item 3: each seat carries its side (Seat.side, field 12) in a
 * format with sides; it round-trips, decodes from the wire by its number,
 * and a side that is not one line of text is refused by name. */
static void test_issue19_assignment_sides(void **state)
{
    (void)state;
    struct pbw seat1 = {0}, seat2 = {0}, w = {0};
    struct tny_wire_assignment *a = calloc(1, sizeof *a);
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_non_null(a);
    assignment_sample(a);
    strcpy(a->format_name, "netrunner-sss");
    strcpy(a->seats[0].side, "runner");
    strcpy(a->seats[1].side, "corp");
    roundtrip(&codecs[C_ASSIGN], a);
    strcpy(a->seats[1].side, "co\nrp");
    assert_diag(tny_wire_encode_assignment(a, &buf, &len, &diag), diag,
                "table_assignment.seats[1].side");
    pb_str(&seat1, 1, "aa");
    pb_str(&seat1, 2, "First");
    pb_uint(&seat1, 3, 1);
    pb_str(&seat1, 12, "corp");
    pb_str(&seat2, 1, "bb");
    pb_str(&seat2, 2, "Second");
    pb_uint(&seat2, 3, 2);
    pb_str(&seat2, 12, "runner");
    pb_uint(&w, 1, 1);
    pb_str(&w, 2, "ev");
    pb_uint(&w, 5, 2);
    pb_uint(&w, 6, 1);
    pb_uint(&w, 7, 1);
    pb_uint(&w, 9, 4);
    pb_msg(&w, 10, &seat1);
    pb_msg(&w, 10, &seat2);
    memset(a, 0, sizeof *a);
    int rc = tny_wire_decode_assignment(w.b, w.n, a, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_string_equal(a->seats[0].side, "corp");
    assert_string_equal(a->seats[1].side, "runner");
    free(a);
}

/* Seats arrive in any order on the wire; decode puts them in seat order. */
static void test_PROTO_assignment_seats_by_number(void **state)
{
    (void)state;
    struct pbw seat1 = {0}, seat2 = {0}, w = {0};
    struct tny_wire_assignment *a = calloc(1, sizeof *a);
    struct tny_diag diag = {{0}};
    assert_non_null(a);
    pb_str(&seat2, 1, "bb");
    pb_str(&seat2, 2, "Second");
    pb_uint(&seat2, 3, 2);
    pb_str(&seat1, 1, "aa");
    pb_str(&seat1, 2, "First");
    pb_uint(&seat1, 3, 1);
    pb_uint(&w, 1, 1);
    pb_str(&w, 2, "ev");
    pb_uint(&w, 5, 2); /* GAME_TANTRIX */
    pb_uint(&w, 6, 1);
    pb_uint(&w, 7, 1); /* STAGE_SWISS */
    pb_uint(&w, 9, 4);
    pb_msg(&w, 10, &seat2);
    pb_msg(&w, 10, &seat1);
    int rc = tny_wire_decode_assignment(w.b, w.n, a, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_string_equal(a->seats[0].player_id, "aa");
    assert_string_equal(a->seats[1].player_id, "bb");
    assert_int_equal(a->game, TNY_GAME_TANTRIX);
    assert_int_equal(a->table, 4);
    free(a);
}

static void test_PROTO_roundtrip_clock(void **state)
{
    (void)state;
    struct tny_wire_clock c;
    clock_sample(&c);
    roundtrip(&codecs[C_CLOCK], &c);
    c.n_extensions = 0;
    c.extensions = NULL;
    c.clock.state = TNY_ROUND_CLOCK_PAUSED;
    c.clock.deadline_ms = 0;
    c.clock.remaining_ms = 61000;
    roundtrip(&codecs[C_CLOCK], &c);
}

/* CM-7: a table's deadline is the round's plus its own extension; tables
 * without one get the round's clock; an unlimited clock stays unlimited. */
static void test_CM_7_table_extension_added(void **state)
{
    (void)state;
    struct tny_wire_clock c;
    struct tny_clock_msg m;
    clock_sample(&c);
    tny_wire_clock_for_table(&c, 9, &m);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms + 300000);
    assert_int_equal(m.hub_now_ms, c.clock.hub_now_ms);
    tny_wire_clock_for_table(&c, 2, &m);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms + 120000);
    tny_wire_clock_for_table(&c, 3, &m);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms);
    tny_wire_clock_for_table(&c, 41, &m);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms);
    c.clock.state = TNY_ROUND_CLOCK_PAUSED;
    c.clock.remaining_ms = 1000;
    tny_wire_clock_for_table(&c, 9, &m);
    assert_int_equal(m.remaining_ms, 301000);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms);
    c.clock.unlimited = true;
    tny_wire_clock_for_table(&c, 9, &m);
    assert_true(m.unlimited);
    assert_int_equal(m.remaining_ms, 1000);
}

/* AG-14: in a per_table_start round a table's clock runs from its own
 * draft: shifted by its start delay, or waiting with the whole time; the
 * fields survive the wire. */
static void test_AG_14_table_clock_from_its_draft(void **state)
{
    (void)state;
    static const struct tny_wire_table_extension init[3] = {
        {2, 120000, 600000, false}, {9, 0, -1, false}, {12, 0, 0, false}};
    struct tny_wire_table_extension ext[3];
    struct tny_wire_clock c, back;
    struct tny_clock_msg m;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    memcpy(ext, init, sizeof ext); /* padding zeroed: compared by memcmp */
    clock_sample(&c);
    c.extensions = ext;
    c.per_table_start = true;
    c.table_ms = 105 * 60000;
    tny_wire_clock_for_table(&c, 2, &m); /* drafted 10 min in, +2 min */
    assert_int_equal(m.state, TNY_ROUND_CLOCK_RUNNING);
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms + 120000 + 600000);
    tny_wire_clock_for_table(&c, 12, &m); /* drafted with the round */
    assert_int_equal(m.deadline_ms, c.clock.deadline_ms);
    tny_wire_clock_for_table(&c, 9, &m); /* listed, not drafted */
    assert_int_equal(m.state, TNY_ROUND_CLOCK_READY);
    assert_int_equal(m.remaining_ms, 105 * 60000);
    tny_wire_clock_for_table(&c, 5, &m); /* not listed: waits too */
    assert_int_equal(m.state, TNY_ROUND_CLOCK_READY);
    assert_int_equal(m.remaining_ms, 105 * 60000);
    roundtrip(&codecs[C_CLOCK], &c);
    assert_int_equal(tny_wire_encode_clock(&c, &buf, &len, &d), 0);
    assert_int_equal(tny_wire_decode_clock(buf, len, &back, &d), 0);
    assert_true(back.per_table_start);
    assert_int_equal(back.table_ms, 105 * 60000);
    assert_int_equal(back.extensions[0].start_delay_ms, 600000);
    assert_int_equal(back.extensions[1].start_delay_ms, -1);
    assert_int_equal(back.extensions[2].start_delay_ms, 0);
    tny_wire_clock_release(&back);
    free(buf);
    ext[0].start_delay_ms = -2; /* out of range: refused by name */
    assert_int_equal(tny_wire_encode_clock(&c, &buf, &len, &d), TNY_EINVAL);
    assert_non_null(strstr(d.msg, "start_delay_ms"));
}

static void test_PROTO_roundtrip_submission_every_game(void **state)
{
    (void)state;
    struct tny_wire_submission s;
    for (int k = 0; k < N_RESULT_SAMPLES; k++) {
        submission_sample(k, &s);
        roundtrip(&codecs[C_SUBMISSION], &s);
    }
    submission_sample(0, &s); /* optional fields absent */
    s.assignment_version = 0;
    s.n_confirmed = 0;
    memset(s.confirmed, 0, sizeof s.confirmed);
    s.table_time_ms = 0;
    roundtrip(&codecs[C_SUBMISSION], &s);
}

static void test_PROTO_roundtrip_ack(void **state)
{
    (void)state;
    struct tny_wire_ack a;
    for (int k = 0; k < 4; k++) {
        ack_sample(k, &a);
        roundtrip(&codecs[C_ACK], &a);
    }
}

static void test_PROTO_roundtrip_presence(void **state)
{
    (void)state;
    struct tny_wire_presence p;
    presence_sample(&p);
    roundtrip(&codecs[C_PRESENCE], &p);
    p.state = TNY_WIRE_PRESENCE_OFFLINE;
    p.queued_results = 0;
    memset(p.detail, 0, sizeof p.detail);
    memset(p.software_version, 0, sizeof p.software_version);
    roundtrip(&codecs[C_PRESENCE], &p);
}

/* Issue 20: a sign-in code's status carries the event's language (the
 * page speaks it before the player has a table) and the player's bye with
 * its points; pinned byte for byte (CodeStatus has no decoder in C: the
 * pages read it). */
static void test_issue20_code_status_language_and_bye(void **state)
{
    (void)state;
    struct tny_wire_code_status st;
    struct tny_diag diag = {0};
    uint8_t *buf = NULL;
    size_t len = 0;
    memset(&st, 0, sizeof st);
    st.version = 9;
    st.state = TNY_WIRE_CODE_VALID;
    strcpy(st.event_id, "nh");
    strcpy(st.player_id, "p5");
    strcpy(st.name, "Zofia");
    st.round = 1;
    strcpy(st.language, "pl");
    st.bye = true;
    st.bye_points = 3 * 1200; /* NH-4 */
    assert_int_equal(tny_wire_encode_code_status(&st, &buf, &len, &diag),
                     TNY_OK);
    struct pbw w = {.n = 0};
    pb_uint(&w, 1, 9);
    pb_uint(&w, 2, 1);
    pb_str(&w, 3, "nh");
    pb_str(&w, 5, "p5");
    pb_str(&w, 6, "Zofia");
    pb_uint(&w, 7, 1);
    pb_str(&w, 13, "pl");
    pb_uint(&w, 14, 1);
    pb_uint(&w, 15, 3600);
    assert_int_equal(len, w.n);
    assert_memory_equal(buf, w.b, w.n);
    free(buf);

    /* a language code is letters and '_'; a bye has a round, no table */
    strcpy(st.language, "pl/../x");
    assert_diag(tny_wire_encode_code_status(&st, &buf, &len, &diag), diag,
                "code_status.language: \"pl/../x\" is not a language code");
    assert_null(buf);
    strcpy(st.language, "cs");
    st.table = 2;
    assert_diag(tny_wire_encode_code_status(&st, &buf, &len, &diag), diag,
                "code_status.bye: a bye has a round and no table");
    st.table = 0;
    st.bye_points = -1;
    assert_diag(tny_wire_encode_code_status(&st, &buf, &len, &diag), diag,
                "code_status.bye_points");
}

static void test_PROTO_roundtrip_request_every_command(void **state)
{
    (void)state;
    struct tny_wire_request *q = malloc(sizeof *q);
    assert_non_null(q);
    for (int c = 1; c < TNY_WIRE_CMD_COUNT_; c++)
        for (int v = 0; v < 2; v++) {
            request_sample((enum tny_wire_cmd)c, v, q);
            roundtrip(&codecs[C_REQUEST], q);
        }
    assert_string_equal(tny_wire_cmd_name(TNY_WIRE_CMD_CLOCK_EXTEND),
                        "clock_extend");
    free(q);
}

/* The TNY_WF_* fields a request carries (tny/console_cmds.h): the
 * player's members beyond armies, name, club and country count as
 * TNY_WF_PLAYER. */
static unsigned fields_of(const struct tny_wire_request *q)
{
    static const struct tny_wire_result no_result;
    const struct tny_wire_player *p = &q->player;
    unsigned f = 0;
    f |= q->preset[0] ? TNY_WF_PRESET : 0;
    f |= q->format_json ? TNY_WF_FORMAT_JSON : 0;
    f |= q->event_json ? TNY_WF_EVENT_JSON : 0;
    f |= q->options_json ? TNY_WF_OPTIONS_JSON : 0;
    f |= q->title[0] ? TNY_WF_TITLE : 0;
    f |= q->language[0] ? TNY_WF_LANGUAGE : 0;
    f |= q->has_seed || q->seed ? TNY_WF_SEED : 0;
    f |= q->csv ? TNY_WF_CSV : 0;
    f |= q->decklist ? TNY_WF_DECKLIST : 0;
    f |= q->player_id[0] ? TNY_WF_PLAYER_ID : 0;
    f |= q->other_player_id[0] ? TNY_WF_OTHER_PLAYER_ID : 0;
    f |= q->device_id[0] ? TNY_WF_DEVICE_ID : 0;
    f |= q->code[0] ? TNY_WF_CODE : 0;
    f |= q->round ? TNY_WF_ROUND : 0;
    f |= q->table ? TNY_WF_TABLE : 0;
    f |= q->to_table ? TNY_WF_TO_TABLE : 0;
    f |= q->extra_ms ? TNY_WF_EXTRA_MS : 0;
    f |= q->points_units ? TNY_WF_POINTS : 0;
    f |= q->override ? TNY_WF_OVERRIDE : 0;
    f |= q->confirm ? TNY_WF_CONFIRM : 0;
    f |= q->force ? TNY_WF_FORCE : 0;
    f |= memcmp(&q->result, &no_result, sizeof no_result) ? TNY_WF_RESULT : 0;
    f |= q->reason[0] ? TNY_WF_REASON : 0;
    f |= q->result_id ? TNY_WF_RESULT_ID : 0;
    f |= q->after_seq ? TNY_WF_AFTER_SEQ : 0;
    f |= p->n_armies ? TNY_WF_ARMIES : 0;
    f |= p->name[0] || p->club[0] || p->country[0] || q->set_club ||
                 q->set_country
             ? TNY_WF_EDIT
             : 0;
    f |= p->id[0] || p->external_id[0] || p->has_rating || p->beginner ||
                 p->n_colours || p->colour_blind || p->faction[0] ||
                 p->agenda[0] || p->first_round || p->hook
             ? TNY_WF_PLAYER
             : 0;
    return f;
}

/* Sets the fields of bit b to a value every command takes. */
static void add_field(struct tny_wire_request *q, unsigned b)
{
    switch (b) {
    case TNY_WF_PRESET: strcpy(q->preset, "catan"); break;
    case TNY_WF_FORMAT_JSON: q->format_json = "{\"game\": \"catan\"}"; break;
    case TNY_WF_EVENT_JSON: q->event_json = "{\"players\": []}"; break;
    case TNY_WF_OPTIONS_JSON: q->options_json = "{\"swiss_rounds\": 3}"; break;
    case TNY_WF_TITLE: strcpy(q->title, "Noise Open"); break;
    case TNY_WF_LANGUAGE: strcpy(q->language, "pl"); break;
    case TNY_WF_SEED: q->has_seed = true, q->seed = 99; break;
    case TNY_WF_CSV: q->csv = "id,name\r\nz1,Zed\r\n"; break;
    case TNY_WF_DECKLIST: q->decklist = "3x Noise\n"; break;
    case TNY_WF_PLAYER_ID: strcpy(q->player_id, "pz"); break;
    case TNY_WF_OTHER_PLAYER_ID: strcpy(q->other_player_id, "py"); break;
    case TNY_WF_DEVICE_ID: strcpy(q->device_id, "table-99"); break;
    case TNY_WF_CODE: strcpy(q->code, "ZZZZ2222"); break;
    case TNY_WF_ROUND: q->round = 3; break;
    case TNY_WF_TABLE: q->table = 6; break;
    case TNY_WF_TO_TABLE: q->to_table = 8; break;
    case TNY_WF_EXTRA_MS: q->extra_ms = 60000; break;
    case TNY_WF_POINTS: q->points_units = 600; break;
    case TNY_WF_OVERRIDE: q->override = true; break;
    case TNY_WF_CONFIRM: q->confirm = true; break;
    case TNY_WF_FORCE: q->force = true; break;
    case TNY_WF_RESULT: result_sample(1, &q->result); break;
    case TNY_WF_REASON: strcpy(q->reason, "noise"); break;
    case TNY_WF_RESULT_ID: q->result_id = 77; break;
    case TNY_WF_AFTER_SEQ: q->after_seq = 55; break;
    case TNY_WF_ARMIES:
        q->player.n_armies = 1;
        strcpy(q->player.armies[0], "Hegemony");
        break;
    case TNY_WF_EDIT:
        strcpy(q->player.name, "Noise Name");
        strcpy(q->player.club, "Noise Club");
        strcpy(q->player.country, "NO");
        q->set_club = q->set_country = true;
        break;
    case TNY_WF_PLAYER:
        strcpy(q->player.id, "pn");
        strcpy(q->player.faction, "Noise");
        q->player.first_round = 2;
        q->player.hook = true;
        break;
    default: fail_msg("field bit %#x has no sample", b);
    }
}

/* Encodes q, decodes it, returns the decoded request (*out, release it)
 * or the encode's error. */
static int through_wire(const struct tny_wire_request *q,
                        struct tny_wire_request *out)
{
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = tny_wire_encode_request(q, &buf, &len, &diag);
    if (rc == 0 && (rc = tny_wire_decode_request(buf, len, out, &diag)) != 0)
        fail_msg("%s: decode failed: %s", tny_wire_cmd_name(q->cmd), diag.msg);
    free(buf);
    return rc;
}

/* Issue 18 item 2: the description's rules reach the walk: an id the
 * description makes optional (issue_player_code: every player) and a flag
 * only one command requires (next_stage's confirm, not drop_requests')
 * travel as the commands mean them; a required round or table of 0 is
 * refused by its wire name. */
static void test_issue18_description_rules_drive_the_codec(void **state)
{
    (void)state;
    struct tny_wire_request *q = calloc(1, sizeof *q),
                            *got = calloc(1, sizeof *q);
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_non_null(q);
    assert_non_null(got);
    request_sample(TNY_WIRE_CMD_ISSUE_PLAYER_CODE, 0, q);
    memset(q->player_id, 0, sizeof q->player_id);
    assert_int_equal(through_wire(q, got), 0);
    assert_string_equal(got->player_id, "");
    tny_wire_request_release(got);
    request_sample(TNY_WIRE_CMD_DROP_REQUESTS, 0, q);
    q->confirm = false;
    assert_int_equal(through_wire(q, got), 0);
    assert_false(got->confirm);
    tny_wire_request_release(got);
    q->confirm = true;
    assert_int_equal(through_wire(q, got), 0);
    assert_true(got->confirm);
    tny_wire_request_release(got);
    request_sample(TNY_WIRE_CMD_NEXT_STAGE, 0, q);
    q->confirm = false;
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.next_stage.confirm: must be true");
    request_sample(TNY_WIRE_CMD_CLOCK_DRAFT, 0, q);
    q->table = 0;
    memset(&diag, 0, sizeof diag);
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.clock_draft.table: expected 1..100000, got 0");
    request_sample(TNY_WIRE_CMD_CLOCK_START, 0, q);
    q->table = 0; /* every table */
    assert_int_equal(through_wire(q, got), 0);
    tny_wire_request_release(got);
    request_sample(TNY_WIRE_CMD_DROP_PLAYER, 0, q);
    q->round = 0; /* after the current round */
    assert_int_equal(through_wire(q, got), 0);
    tny_wire_request_release(got);
    request_sample(TNY_WIRE_CMD_PUBLISH_ROUND, 0, q);
    q->round = 0;
    memset(&diag, 0, sizeof diag);
    assert_diag(
        tny_wire_encode_request(q, &buf, &len, &diag), diag,
        "console_request.publish_round.round: expected 1..10000, got 0");
    free(q);
    free(got);
}

/* Issue 18 item 3: each command's description (tny/console_cmds.h) names
 * exactly the request's fields the wire carries for it: the samples use
 * no field it does not name; a field it does not name is dropped by the
 * wire (the hub never sees it); a field it names and a sample lacks
 * reaches the hub. */
static void test_issue18_description_names_the_wire_fields(void **state)
{
    (void)state;
    struct tny_wire_request *q = malloc(sizeof *q), *noisy = malloc(sizeof *q);
    struct tny_wire_request *got = malloc(sizeof *q);
    assert_non_null(q);
    assert_non_null(noisy);
    assert_non_null(got);
    for (int c = 1; c < TNY_WIRE_CMD_COUNT_; c++) {
        const struct tny_wire_cmd_info *info =
            tny_wire_cmd_info((enum tny_wire_cmd)c);
        assert_non_null(info);
        assert_string_equal(info->name, tny_wire_cmd_name(c));
        /* Issue 18 item 2: the codec walks the description's fields over
         * the command's console.proto message; they agree field by
         * field (a field of the message no description names, or one
         * named that the message lacks, is refused here). */
        struct tny_diag why = {{0}};
        if (tny_wire_cmd_check_message((enum tny_wire_cmd)c, &why) != 0)
            fail_msg("%s: %s", info->name, why.msg);
        /* Issue 18 item 3: what its replies carry is typed where the
         * description says so (the hub fills it: test_service). */
        assert_true(info->reply >= TNY_REPLY_NONE &&
                    info->reply <= TNY_REPLY_EVENT);
        unsigned named = info->fields;
        if (named & TNY_WF_PLAYER) /* the whole entry */
            named |= TNY_WF_ARMIES | TNY_WF_EDIT;
        for (int v = 0; v < 3; v++) {
            request_sample((enum tny_wire_cmd)c, v & 1, q);
            if (v == 2 && c == TNY_WIRE_CMD_CREATE_EVENT) {
                request_sample((enum tny_wire_cmd)c, 0, q);
                memset(q->preset, 0, sizeof q->preset);
                memset(q->title, 0, sizeof q->title);
                q->has_seed = false, q->seed = 0;
                q->options_json = NULL;
                q->event_json = "{\"players\": []}"; /* an import */
            } else if (v == 2) {
                continue;
            }
            unsigned used = fields_of(q);
            if (used & ~named)
                fail_msg("%s: the sample uses fields %#x its description "
                         "does not name",
                         info->name, used & ~named);
            /* Every field not named: dropped on the way. */
            *noisy = *q;
            for (unsigned b = 1; b && b <= TNY_WF_EDIT; b <<= 1)
                if (!(named & b))
                    add_field(noisy, b);
            memset(got, 0, sizeof *got);
            if (through_wire(noisy, got) != 0)
                fail_msg("%s: does not encode with unnamed fields set",
                         info->name);
            if (!request_eq(q, got))
                fail_msg("%s: a field its description does not name "
                         "reached the hub",
                         info->name);
            tny_wire_request_release(got);
            /* Every field named and unset in the sample: carried. */
            for (unsigned b = 1; b && b <= TNY_WF_EDIT; b <<= 1) {
                if (!(info->fields & b) || (used & b))
                    continue;
                *noisy = *q;
                add_field(noisy, b);
                memset(got, 0, sizeof *got);
                int rc = through_wire(noisy, got);
                /* preset, format_json and event_json exclude each other;
                 * event_json (an import) excludes the rest too */
                if (rc != 0 && c == TNY_WIRE_CMD_CREATE_EVENT &&
                    (q->event_json || (b & (TNY_WF_PRESET | TNY_WF_FORMAT_JSON |
                                            TNY_WF_EVENT_JSON))))
                    continue;
                if (rc != 0)
                    fail_msg("%s: does not encode with field %#x", info->name,
                             b);
                if (!(fields_of(got) & b))
                    fail_msg("%s: field %#x its description names did not "
                             "reach the hub",
                             info->name, b);
                tny_wire_request_release(got);
            }
        }
    }
    free(q);
    free(noisy);
    free(got);
}

/* Issue 12: import_players' CSV is bytes on the wire, so a NUL byte in it
 * reaches the hub (csv_len) instead of cutting the list short. */
static void test_PROTO_import_csv_keeps_a_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "id,name\np1,A\np2,B\0x\np3,C\n";
    struct tny_wire_request q, back;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    request_sample(TNY_WIRE_CMD_IMPORT_PLAYERS, 0, &q);
    q.csv = (char *)text;
    q.csv_len = sizeof text - 1;
    assert_int_equal(tny_wire_encode_request(&q, &buf, &len, &diag), 0);
    assert_int_equal(tny_wire_decode_request(buf, len, &back, &diag), 0);
    free(buf);
    assert_int_equal(back.csv_len, sizeof text - 1);
    assert_memory_equal(back.csv, text, sizeof text - 1);
    tny_wire_request_release(&back);
    /* Without a NUL: csv_len stays 0 (the string is all of it). */
    q.csv = "id,name\np1,A\n";
    q.csv_len = 0;
    assert_int_equal(tny_wire_encode_request(&q, &buf, &len, &diag), 0);
    assert_int_equal(tny_wire_decode_request(buf, len, &back, &diag), 0);
    free(buf);
    assert_int_equal(back.csv_len, 0);
    assert_string_equal(back.csv, "id,name\np1,A\n");
    tny_wire_request_release(&back);
}

static void test_PROTO_roundtrip_reply(void **state)
{
    (void)state;
    struct tny_wire_reply r;
    for (int k = 0; k < 7; k++) {
        reply_sample(k, &r);
        roundtrip(&codecs[C_REPLY], &r);
    }
    /* Issue 18 item 3: a publish summary the console would refuse does
     * not leave the hub. */
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    reply_sample(6, &r);
    int32_t bad_missing[1] = {0};
    struct tny_wire_published p = *r.published;
    p.missing = bad_missing;
    r.published = &p;
    assert_diag(tny_wire_encode_reply(&r, &buf, &len, &diag), diag,
                "console_reply.published.tables_without_device[0]: expected "
                "1..100000, got 0");
}

/* Issue 18 item 3: standings travel typed (points in units, a tiebreak
 * not applicable, sides' games); crafted ones are refused with the field
 * named. */
static void test_issue18_standings_reply_is_typed(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    struct tny_wire_reply r, got;
    uint8_t *buf = NULL;
    size_t len = 0;
    reply_sample(5, &r);
    assert_int_equal(tny_wire_encode_reply(&r, &buf, &len, &diag), 0);
    memset(&got, 0, sizeof got);
    assert_int_equal(tny_wire_decode_reply(buf, len, &got, &diag), 0);
    free(buf);
    assert_non_null(got.standings);
    assert_null(got.json);
    assert_true(standings_eq(r.standings, got.standings));
    assert_int_equal(got.standings->rows[1].points_units, 2 * 1200 + 600);
    assert_false(got.standings->rows[2].has_tiebreak[1]);
    assert_true(got.standings->rows[2].disqualified);
    tny_wire_reply_release(&got);
    /* both payloads at once */
    reply_sample(5, &r);
    r.seating = seating_sample(0);
    memset(&diag, 0, sizeof diag);
    assert_diag(tny_wire_encode_reply(&r, &buf, &len, &diag), diag,
                "console_reply: seating, standings, published, records: at "
                "most one typed payload");
    /* crafted: an unknown tiebreak; a row without one value per column */
    struct pbw w, st, row, tv;
    memset(&st, 0, sizeof st);
    pb_uint(&st, 2, 1); /* STAGE_SWISS */
    pb_str(&st, 3, "coin-flip");
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 10, &st);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.standings.tiebreaks[0]: unknown tiebreak "
                 "\"coin-flip\"");
    memset(&tv, 0, sizeof tv);
    memset(&row, 0, sizeof row);
    pb_uint(&row, 1, 1);
    pb_str(&row, 2, "p1");
    pb_uint(&row, 4, zigzag(1200));
    pb_msg(&row, 5, &tv);
    memset(&st, 0, sizeof st);
    pb_uint(&st, 2, 1);
    pb_str(&st, 3, "sos");
    pb_str(&st, 3, "wins");
    pb_msg(&st, 5, &row);
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 10, &st);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.standings.rows[0].tiebreaks: expected 2 "
                 "values (one per column), got 1");
}

/* Issue 18 item 3: the records of a list reply (devices, codes, the
 * log...) travel typed, every value of its kind kept (text, integer,
 * real, flag, null, records and lists in order); a tree the console would
 * refuse does not leave the hub, and crafted bytes are named. */
static void records_node(struct tny_wire_records *r, int32_t i, const char *key,
                         enum tny_wire_node_kind kind, int32_t n)
{
    r->nodes[i].key = key ? strdup(key) : NULL;
    r->nodes[i].kind = kind;
    r->nodes[i].n = n;
}

static struct tny_wire_records *records_sample(void)
{
    /* [{"id": "e1", "n": -3, "x": 1.5, "ok": true, "z": null,
     *   "tags": ["a", {}]}] */
    struct tny_wire_records *r = tny_wire_records_new(10);
    assert_non_null(r);
    records_node(r, 0, NULL, TNY_WIRE_NODE_LIST, 1);
    records_node(r, 1, NULL, TNY_WIRE_NODE_RECORD, 6);
    records_node(r, 2, "id", TNY_WIRE_NODE_TEXT, 0);
    r->nodes[2].text = strdup("e1");
    records_node(r, 3, "n", TNY_WIRE_NODE_INTEGER, 0);
    r->nodes[3].integer = -3;
    records_node(r, 4, "x", TNY_WIRE_NODE_REAL, 0);
    r->nodes[4].real = 1.5;
    records_node(r, 5, "ok", TNY_WIRE_NODE_FLAG, 0);
    r->nodes[5].flag = true;
    records_node(r, 6, "z", TNY_WIRE_NODE_NULL, 0);
    records_node(r, 7, "tags", TNY_WIRE_NODE_LIST, 2);
    records_node(r, 8, NULL, TNY_WIRE_NODE_TEXT, 0);
    r->nodes[8].text = strdup("a");
    records_node(r, 9, NULL, TNY_WIRE_NODE_RECORD, 0);
    return r;
}

static void records_refused(struct tny_wire_records *bad, const char *want)
{
    struct tny_diag diag = {{0}};
    struct tny_wire_reply r;
    uint8_t *buf = NULL;
    size_t len = 0;
    memset(&r, 0, sizeof r);
    strcpy(r.correlation_id, "c-1");
    r.records = bad;
    assert_diag(tny_wire_encode_reply(&r, &buf, &len, &diag), diag, want);
    assert_null(buf);
    tny_wire_records_free(bad);
}

static void test_issue18_records_reply_is_typed(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    struct tny_wire_reply r, got;
    uint8_t *buf = NULL;
    size_t len = 0;
    memset(&r, 0, sizeof r);
    strcpy(r.correlation_id, "c-1");
    r.records = records_sample();
    assert_int_equal(tny_wire_encode_reply(&r, &buf, &len, &diag), 0);
    memset(&got, 0, sizeof got);
    assert_int_equal(tny_wire_decode_reply(buf, len, &got, &diag), 0);
    free(buf);
    assert_null(got.json);
    assert_non_null(got.records);
    assert_int_equal(got.records->n_nodes, 10);
    for (int32_t i = 0; i < 10; i++) {
        const struct tny_wire_node *a = &r.records->nodes[i],
                                   *b = &got.records->nodes[i];
        assert_int_equal(a->kind, b->kind);
        assert_int_equal(a->n, b->n);
        assert_int_equal(!a->key, !b->key);
        if (a->key)
            assert_string_equal(a->key, b->key);
        assert_int_equal(!a->text, !b->text);
        if (a->text)
            assert_string_equal(a->text, b->text);
        assert_true(a->integer == b->integer && a->flag == b->flag);
        assert_true(a->real == b->real);
    }
    tny_wire_reply_release(&got);
    tny_wire_records_free(r.records);

    struct tny_wire_records *bad = records_sample();
    bad->nodes[8].key = strdup("k");
    records_refused(bad, "console_reply.records.nodes[8].key: only a "
                         "record's member has one");
    bad = records_sample();
    free(bad->nodes[3].key);
    bad->nodes[3].key = NULL;
    records_refused(bad, "console_reply.records.nodes[3].key: missing");
    bad = records_sample();
    bad->nodes[7].n = 3;
    records_refused(bad, "console_reply.records.nodes[7].list: 3 children, "
                         "but 2 nodes follow");
    bad = records_sample();
    bad->nodes[0].n = 0; /* the rest after a whole root */
    records_refused(bad, "console_reply.records.nodes[1]: after the whole "
                         "root");
    bad = records_sample();
    bad->nodes[1].n = 7; /* the record ends past the last node */
    records_refused(bad, "console_reply.records.nodes: ends inside a record "
                         "or list");
    bad = records_sample();
    bad->nodes[4].real = NAN;
    records_refused(bad, "console_reply.records.nodes[4].real: expected a "
                         "finite number");
    bad = records_sample();
    bad->nodes[2].text[0] = (char)0xff;
    records_refused(bad, "console_reply.records.nodes[2].text: not valid "
                         "UTF-8");
    /* deeper than TNY_WIRE_RECORDS_DEPTH: lists in lists */
    bad = tny_wire_records_new(TNY_WIRE_RECORDS_DEPTH + 1);
    assert_non_null(bad);
    for (int32_t i = 0; i < TNY_WIRE_RECORDS_DEPTH + 1; i++)
        records_node(bad, i, NULL, TNY_WIRE_NODE_LIST,
                     i < TNY_WIRE_RECORDS_DEPTH ? 1 : 0);
    records_refused(bad, "console_reply.records.nodes[16]: nested deeper "
                         "than 16");

    /* crafted: a record of 5 members with none after it; a node without
     * a value */
    struct pbw node = {0}, recs = {0}, w = {0};
    pb_uint(&node, 7, 5);
    pb_msg(&recs, 1, &node);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 12, &recs);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.records.nodes[0].record: 5 children, but 0 "
                 "nodes follow");
    memset(&node, 0, sizeof node);
    memset(&recs, 0, sizeof recs);
    memset(&w, 0, sizeof w);
    pb_str(&node, 1, "k");
    pb_msg(&recs, 1, &node);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 12, &recs);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.records.nodes[0]: no value");
}

/* Issue 18 item 3: the typed replies' codec is their description walked
 * (wire_console_reply.c): each table names exactly its message's fields
 * in console.proto, with kinds of their types. */
static void test_issue18_reply_description_names_the_wire_fields(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    int rc = tny_wire_reply_check_messages(&diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
}

/* Issue 18 item 3, the walk's property: any typed reply the check
 * accepts (random seatings, standings and publish summaries) encodes,
 * decodes and comes back equal. */
static void test_issue18_random_typed_replies_roundtrip(void **state)
{
    (void)state;
    struct tny_rng g;
    tny_rng_seed(&g, 1803);
    for (int i = 0; i < 3000; i++) {
        struct tny_wire_reply r, got;
        struct tny_diag diag = {{0}};
        uint8_t *buf = NULL;
        size_t len = 0;
        memset(&r, 0, sizeof r);
        snprintf(r.correlation_id, sizeof r.correlation_id, "c-%d", i);
        if (i % 3 == 0)
            r.seating = rr_seating(&g);
        else if (i % 3 == 1)
            r.standings = rr_standings(&g);
        else
            r.published = rr_published(&g);
        if (tny_wire_encode_reply(&r, &buf, &len, &diag) != 0)
            fail_msg("sample %d: %s", i, diag.msg);
        memset(&got, 0, sizeof got);
        if (tny_wire_decode_reply(buf, len, &got, &diag) != 0)
            fail_msg("sample %d: %s", i, diag.msg);
        free(buf);
        if (!reply_eq(&r, &got))
            fail_msg("sample %d: decoded differs", i);
        tny_wire_reply_release(&got);
        tny_wire_reply_drop_payload(&r);
    }
}

/* Issue 18 item 3: a seating travels typed, every value kept (a draft's
 * sides, first player, explanation and bye; a started round's status,
 * its clock and a table's own), and one the console would refuse does
 * not leave the hub: encode names what is wrong. */
static void test_issue18_seating_reply_is_typed(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    struct tny_wire_reply r, got;
    uint8_t *buf = NULL;
    size_t len = 0;
    for (int k = 3; k < 5; k++) {
        reply_sample(k, &r);
        assert_int_equal(tny_wire_encode_reply(&r, &buf, &len, &diag), 0);
        memset(&got, 0, sizeof got);
        assert_int_equal(tny_wire_decode_reply(buf, len, &got, &diag), 0);
        free(buf);
        assert_non_null(got.seating);
        assert_null(got.json);
        assert_true(seating_eq(r.seating, got.seating));
        if (k == 3) {
            assert_int_equal(got.seating->tables[2].table, 0); /* the bye */
            assert_string_equal(got.seating->tables[2].players[0], "p5");
            assert_string_equal(got.seating->tables[0].sides[1], "Runner");
            assert_non_null(got.seating->explain);
        } else {
            assert_int_equal(got.seating->status, TNY_WIRE_ROUND_STARTED);
            assert_int_equal(got.seating->tables[1].clock.left_ms, -65000);
            assert_null(got.seating->explain);
        }
        tny_wire_reply_release(&got);
    }
    /* Refused before the wire, the field named. */
    static const struct {
        int what;
        const char *want;
    } bad[] = {
        {0, "console_reply.seating.tables[1].players: expected 1..4 players, "
            "got 0"},
        {1, "console_reply.seating.round: expected 1..10000, got 0"},
        {2, "console_reply.seating.tables[0].sides: expected 0 or 2 sides, "
            "got 1"},
        {3, "console_reply.seating.tables[2]: a bye (no table number) has "
            "one player and nothing else"},
        {4, "console_reply.seating: explain is a draft's, status a published "
            "round's: not both"},
        {5, "console_reply.seating.names[1].name: not valid UTF-8 at byte 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        reply_sample(3, &r);
        struct tny_wire_seating s = *r.seating;
        struct tny_wire_seated_table t[3];
        struct tny_wire_player_name nm[5];
        memcpy(t, s.tables, sizeof t);
        memcpy(nm, s.names, sizeof nm);
        s.tables = t;
        s.names = nm;
        switch (bad[i].what) {
        case 0: t[1].n_players = 0; break;
        case 1: s.round = 0; break;
        case 2: t[0].n_sides = 1; break;
        case 3: t[2].first_player = "p1"; break;
        case 4: s.status = TNY_WIRE_ROUND_PUBLISHED; break;
        case 5: nm[1].name = "\xff"; break;
        }
        r.seating = &s;
        memset(&diag, 0, sizeof diag);
        int rc = tny_wire_encode_reply(&r, &buf, &len, &diag);
        assert_diag(rc, diag, bad[i].want);
        assert_null(buf);
    }
}

/* Issue 18 item 3: crafted seatings a console receives are refused with
 * the field named, nothing half-decoded left behind. */
static void test_issue18_malformed_seating_named(void **state)
{
    (void)state;
    struct pbw w, seat, tab, clock;
    /* a bye with a table number */
    memset(&tab, 0, sizeof tab);
    pb_uint(&tab, 1, 4);
    pb_str(&tab, 3, "p5");
    memset(&seat, 0, sizeof seat);
    pb_uint(&seat, 1, 2);
    pb_msg(&seat, 5, &tab);
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 9, &seat);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.seating.tables[0]: a bye has no table "
                 "number, players, sides, first player or clock");
    /* five players at a table */
    memset(&tab, 0, sizeof tab);
    pb_uint(&tab, 1, 4);
    for (int i = 0; i < 5; i++)
        pb_str(&tab, 2, "p1");
    memset(&seat, 0, sizeof seat);
    pb_uint(&seat, 1, 2);
    pb_msg(&seat, 5, &tab);
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 9, &seat);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.seating.tables[0].players: expected 1..4 "
                 "players, got 5");
    /* a clock in an unknown state */
    memset(&clock, 0, sizeof clock);
    pb_uint(&clock, 1, 9);
    pb_uint(&clock, 2, zigzag(1000));
    memset(&seat, 0, sizeof seat);
    pb_uint(&seat, 1, 2);
    pb_msg(&seat, 4, &clock);
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 9, &seat);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.seating.clock.state: unknown clock state 9");
    /* no round */
    memset(&seat, 0, sizeof seat);
    pb_str(&seat, 6, "why");
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c-1");
    pb_uint(&w, 2, 1);
    pb_msg(&w, 9, &seat);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.seating.round: missing");
}

/* ---- decode errors name the field ------------------------------------------
 */

/* Submission bytes with every required field, for the crafted cases. */
static void ag_player_bytes(struct pbw *w, const char *id, int vp, int ip,
                            int bp, bool with_ip)
{
    pb_str(w, 1, id);
    pb_uint(w, 2, zigzag(vp));
    if (with_ip)
        pb_uint(w, 3, zigzag(ip));
    pb_uint(w, 4, zigzag(bp));
}

static void submission_bytes(struct pbw *w, const char *key, bool with_round,
                             int n_players, bool ip_missing_at_1)
{
    struct pbw gr = {0}, ag = {0};
    for (int i = 0; i < n_players; i++) {
        struct pbw pl = {0};
        char id[16];
        snprintf(id, sizeof id, "n%d", i + 1);
        ag_player_bytes(&pl, id, 40 - i, 5, 0, !(ip_missing_at_1 && i == 1));
        pb_msg(&ag, 1, &pl);
    }
    pb_msg(&gr, 3, &ag); /* GameResult.ag */
    memset(w, 0, sizeof *w);
    if (key)
        pb_str(w, 1, key);
    pb_str(w, 2, "table-07");
    pb_str(w, 3, "ag-2025");
    if (with_round)
        pb_uint(w, 4, 3);
    pb_uint(w, 5, 7);
    pb_msg(w, 7, &gr);
}

static void test_PROTO_crafted_submission_decodes(void **state)
{
    (void)state;
    struct pbw w;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    submission_bytes(&w, "k1", true, 4, false);
    int rc = tny_wire_decode_submission(w.b, w.n, &s, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_int_equal(s.result.game, TNY_GAME_AGRICOLA);
    assert_int_equal(s.result.n_players, 4);
    assert_string_equal(s.result.players[3].player_id, "n4");
    assert_int_equal(s.result.players[3].score, 37);
    assert_int_equal(s.round, 3);
}

static void test_PROTO_error_truncated(void **state)
{
    (void)state;
    const struct codec *c = &codecs[C_SUBMISSION];
    struct tny_wire_submission s;
    uint8_t *buf;
    size_t len;
    submission_sample(5, &s);
    s.n_confirmed = 0; /* the result (field 7) is then the last field */
    memset(s.confirmed, 0, sizeof s.confirmed);
    s.table_time_ms = 0;
    encode_ok(c, &s, &buf, &len);
    decode_fails(c, buf, len - 1, "result_submission.result: truncated");
    /* Cut inside the key (tag, length, then 3 of its bytes). */
    decode_fails(c, buf, 5, "result_submission.idempotency_key: truncated");
    /* Cut inside a nested entry. */
    struct pbw w;
    submission_bytes(&w, "k1", true, 2, false);
    w.b[w.n - 1] = 0x80; /* the last varint never ends */
    decode_fails(c, w.b, w.n,
                 "result_submission.result.ag.players[1].bp: "
                 "truncated varint");
    free(buf);
}

static void test_PROTO_error_wrong_wire_type(void **state)
{
    (void)state;
    const struct codec *c = &codecs[C_SUBMISSION];
    struct pbw w = {0}, pl = {0}, ag = {0}, gr = {0};
    /* round (uint32) sent as a length-delimited field */
    pb_str(&w, 1, "k1");
    pb_bytes(&w, 4, "\x03", 1);
    decode_fails(c, w.b, w.n,
                 "result_submission.round: wrong wire type 2 (expected 0)");
    /* AG vp sent as fixed32, three levels down */
    pb_str(&pl, 1, "n1");
    pb_key(&pl, 2, 5);
    pb_raw(&pl, "\x01\x00\x00\x00", 4);
    pb_msg(&ag, 1, &pl);
    pb_msg(&gr, 3, &ag);
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "k1");
    pb_msg(&w, 7, &gr);
    decode_fails(c, w.b, w.n,
                 "result_submission.result.ag.players[0].vp: wrong wire type 5 "
                 "(expected 0)");
    /* a string field sent as a varint */
    memset(&w, 0, sizeof w);
    pb_uint(&w, 2, 5);
    decode_fails(c, w.b, w.n, "result_submission.device_id: wrong wire type 0");
}

/* AG-1: a result has VP, IP and BP for every player. */
static void test_AG_1_missing_ip_named(void **state)
{
    (void)state;
    struct pbw w;
    submission_bytes(&w, "k1", true, 4, true);
    decode_fails(&codecs[C_SUBMISSION], w.b, w.n,
                 "result_submission.result.ag.players[1].ip: missing");
}

static void test_PROTO_error_missing_required(void **state)
{
    (void)state;
    const struct codec *c = &codecs[C_SUBMISSION];
    struct pbw w = {0};
    submission_bytes(&w, "k1", false, 4, false);
    decode_fails(c, w.b, w.n, "result_submission.round: missing");
    decode_fails(c, NULL, 0, "result_submission.idempotency_key: missing");
    /* No game in the result. */
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "k1");
    pb_str(&w, 2, "d1");
    pb_str(&w, 3, "e1");
    pb_uint(&w, 4, 1);
    pb_uint(&w, 5, 1);
    pb_bytes(&w, 7, "", 0);
    decode_fails(c, w.b, w.n, "result_submission.result: missing");
    decode_fails(&codecs[C_ASSIGN], NULL, 0,
                 "table_assignment.version: "
                 "missing");
    decode_fails(&codecs[C_CLOCK], NULL, 0, "round_clock.version: missing");
    decode_fails(&codecs[C_ACK], NULL, 0, "result_ack.status: missing");
    decode_fails(&codecs[C_PRESENCE], NULL, 0, "presence.device_id: missing");
    decode_fails(&codecs[C_REQUEST], NULL, 0,
                 "console_request.correlation_id: "
                 "missing");
    decode_fails(&codecs[C_REPLY], NULL, 0,
                 "console_reply.correlation_id: missing");
    /* A running clock needs its deadline. */
    struct pbw cr = {0};
    memset(&w, 0, sizeof w);
    pb_uint(&cr, 1, 2); /* CLOCK_RUNNING */
    pb_uint(&cr, 3, 1000);
    pb_uint(&w, 1, 1);
    pb_str(&w, 2, "ev");
    pb_uint(&w, 3, 1);
    pb_msg(&w, 4, &cr);
    decode_fails(&codecs[C_CLOCK], w.b, w.n,
                 "round_clock.clock.deadline_ms: "
                 "missing");
}

static void test_PROTO_error_overlong_id(void **state)
{
    (void)state;
    const struct codec *c = &codecs[C_SUBMISSION];
    struct pbw w;
    char id[80];
    memset(id, 'a', 65);
    id[65] = '\0';
    submission_bytes(&w, id, true, 4, false);
    decode_fails(c, w.b, w.n,
                 "result_submission.idempotency_key: longer than 64 bytes");
    id[64] = '\0'; /* 64 is fine */
    submission_bytes(&w, id, true, 4, false);
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_wire_decode_submission(w.b, w.n, &s, &diag), 0);
    /* Characters outside [A-Za-z0-9_.-]: MQTT wildcards and separators. */
    submission_bytes(&w, "tbl/7#", true, 4, false);
    decode_fails(c, w.b, w.n,
                 "result_submission.idempotency_key: expected "
                 "an id ([A-Za-z0-9_.-]{1,64}), got \"tbl/7#\"");
    /* Bytes that are not printable ASCII are escaped in the message. */
    submission_bytes(&w, "a\nb\xff", true, 4, false);
    decode_fails(c, w.b, w.n,
                 "result_submission.idempotency_key: expected "
                 "an id ([A-Za-z0-9_.-]{1,64}), got "
                 "\"a\\x0ab\\xff\"");
    /* Encode refuses the same. */
    uint8_t *buf = NULL;
    size_t len = 0;
    submission_sample(0, &s);
    strcpy(s.device_id, "table 7");
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.device_id: expected an id");
    assert_null(buf);
}

static void seat_bytes(struct pbw *w, int k)
{
    struct pbw seat = {0};
    char id[16];
    snprintf(id, sizeof id, "s%d", k);
    pb_str(&seat, 1, id);
    pb_str(&seat, 2, "Name");
    pb_uint(&seat, 3, (uint64_t)k);
    pb_msg(w, 10, &seat);
}

static void assignment_bytes(struct pbw *w, int n_seats)
{
    memset(w, 0, sizeof *w);
    pb_uint(w, 1, 1);
    pb_str(w, 2, "ev");
    pb_uint(w, 5, 5); /* GAME_CATAN */
    pb_uint(w, 6, 1);
    pb_uint(w, 7, 5); /* STAGE_ROUND */
    pb_uint(w, 9, 3);
    for (int k = 1; k <= n_seats; k++)
        seat_bytes(w, k);
}

static void test_PROTO_error_seat_count(void **state)
{
    (void)state;
    const struct codec *c = &codecs[C_ASSIGN];
    struct pbw w;
    struct tny_wire_assignment *a = calloc(1, sizeof *a);
    struct tny_diag diag = {{0}};
    assert_non_null(a);
    for (int n = 0; n <= 6; n++) {
        assignment_bytes(&w, n);
        if (n >= 2 && n <= 4) {
            int rc = tny_wire_decode_assignment(w.b, w.n, a, &diag);
            if (rc != 0)
                fail_msg("%d seats: %s", n, diag.msg);
            assert_int_equal(a->n_seats, n);
        } else {
            char want[64];
            snprintf(want, sizeof want,
                     "table_assignment.seats: expected 2..4 seats, got %d", n);
            decode_fails(c, w.b, w.n, want);
        }
    }
    /* Seat numbers 1..n, each once. */
    assignment_bytes(&w, 2);
    seat_bytes(&w, 2);
    decode_fails(c, w.b, w.n,
                 "table_assignment.seats[2].seat: seat 2 given "
                 "twice");
    assignment_bytes(&w, 1);
    seat_bytes(&w, 5);
    decode_fails(c, w.b, w.n,
                 "table_assignment.seats[1].seat: expected 1..2, "
                 "got 5");
    /* Results: 2..4 entries for AG and CT. */
    submission_bytes(&w, "k1", true, 5, false);
    decode_fails(&codecs[C_SUBMISSION], w.b, w.n,
                 "result_submission.result.ag.players: expected at most 4 "
                 "entries, got 5");
    submission_bytes(&w, "k1", true, 1, false);
    decode_fails(&codecs[C_SUBMISSION], w.b, w.n,
                 "result_submission.result.ag.players: expected 2..4 entries, "
                 "got 1");
    /* Encode refuses a table with one seat. */
    uint8_t *buf = NULL;
    size_t len = 0;
    assignment_sample(a);
    a->n_seats = 1;
    assert_diag(tny_wire_encode_assignment(a, &buf, &len, &diag), diag,
                "table_assignment.seats: expected 2..4 seats, got 1");
    free(a);
}

static void test_PROTO_error_empty_idempotency_key(void **state)
{
    (void)state;
    struct pbw w;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    submission_bytes(&w, "", true, 4, false);
    decode_fails(&codecs[C_SUBMISSION], w.b, w.n,
                 "result_submission.idempotency_key: missing");
    submission_bytes(&w, NULL, true, 4, false);
    decode_fails(&codecs[C_SUBMISSION], w.b, w.n,
                 "result_submission.idempotency_key: missing");
    submission_sample(3, &s);
    s.key[0] = '\0';
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.idempotency_key: missing");
    /* An ack may lack the key only when the submission was unreadable. */
    struct tny_wire_ack a;
    ack_sample(2, &a);
    a.key[0] = '\0';
    assert_diag(tny_wire_encode_ack(&a, &buf, &len, &diag), diag,
                "result_ack.idempotency_key: missing");
}

static void test_PROTO_error_oversize_buffer(void **state)
{
    (void)state;
    size_t big = TNY_WIRE_MAX_CONSOLE_MSG + 1;
    uint8_t *buf = calloc(1, big);
    assert_non_null(buf);
    char want[128];
    for (int k = 0; k < C_COUNT; k++) {
        const struct codec *c = &codecs[k];
        size_t limit = k == C_REQUEST || k == C_REPLY ? TNY_WIRE_MAX_CONSOLE_MSG
                                                      : TNY_WIRE_MAX_TABLE_MSG;
        snprintf(want, sizeof want,
                 "%s: message of %zu bytes exceeds the limit of %zu bytes",
                 c->root, limit + 1, limit);
        decode_fails(c, buf, limit + 1, want);
    }
    /* Encode refuses to produce what the peer would refuse. */
    struct tny_wire_reply r;
    struct tny_diag diag = {{0}};
    uint8_t *out = NULL;
    size_t len = 0;
    memset(buf, 'x', big - 1);
    buf[big - 1] = '\0';
    reply_sample(0, &r);
    r.json = (char *)buf;
    assert_int_equal(tny_wire_encode_reply(&r, &out, &len, &diag), TNY_ERANGE);
    assert_null(out);
    assert_non_null(strstr(diag.msg, "console_reply: encoded message"));
    free(buf);
}

/* Issue 13: the key / correlation id of a message that does not decode.
 * Every prefix of an encoded message yields either nothing or the right
 * id (never another one); garbage after it, or a payload far over the
 * size limit, still yields it. */
static void test_PROTO_peek_ids(void **state)
{
    (void)state;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    char id[TNY_WIRE_ID_MAX + 1];
    uint8_t *buf = NULL;
    size_t len = 0;
    for (int k = 0; k < N_RESULT_SAMPLES; k++) {
        submission_sample(k, &s);
        assert_int_equal(tny_wire_encode_submission(&s, &buf, &len, &diag), 0);
        assert_true(tny_wire_peek_submission_key(buf, len, id));
        assert_string_equal(id, s.key);
        for (size_t n = 0; n < len; n++) {
            bool got = tny_wire_peek_submission_key(buf, n, id);
            assert_true(!got || strcmp(id, s.key) == 0);
            if (n >= 2 + strlen(s.key)) /* the key is the first field */
                assert_true(got);
        }
        /* + field 15 of 200000 bytes: tag 0x7a, length c0 9a 0c. */
        const size_t n_big = len + 4 + 200000;
        uint8_t *big = malloc(n_big);
        assert_non_null(big);
        memcpy(big, buf, len);
        memcpy(big + len, "\x7a\xc0\x9a\x0c", 4);
        memset(big + len + 4, 'a', 200000);
        assert_true(tny_wire_peek_submission_key(big, n_big, id));
        assert_string_equal(id, s.key);
        assert_int_equal(tny_wire_decode_submission(big, n_big, &s, &diag),
                         TNY_EINVAL);
        assert_non_null(strstr(diag.msg, "exceeds the limit of 65536"));
        memset(big + len, 0xff, 3); /* garbage after the message */
        assert_true(tny_wire_peek_submission_key(big, len + 3, id));
        free(big);
        free(buf);
        buf = NULL;
    }
    struct tny_wire_request q;
    request_sample(TNY_WIRE_CMD_LIST_EVENTS, 0, &q);
    assert_int_equal(tny_wire_encode_request(&q, &buf, &len, &diag), 0);
    assert_true(tny_wire_peek_correlation_id(buf, len, id));
    assert_string_equal(id, q.correlation_id);
    buf[0] = 0x08; /* field 1 as a varint: not an id */
    assert_false(tny_wire_peek_correlation_id(buf, len, id));
    free(buf);
    assert_false(tny_wire_peek_correlation_id(NULL, 0, id));
    /* An id field that is not an id ("a b") is not taken. */
    const uint8_t bad[] = {0x0a, 3, 'a', ' ', 'b'};
    assert_false(tny_wire_peek_submission_key(bad, sizeof bad, id));
}

/* Issue 17: wire__check_text passes printable ASCII eight bytes a step.
 * Every byte value at every place of a 24-byte text (three steps) gets
 * the verdict of the rule, byte by byte: a control byte refused (tab,
 * newline and CR allowed in multi-line text only), a byte of 0x80 or more
 * only as UTF-8, each refusal naming the byte's place; after a UTF-8
 * character the steps go on (a control byte later is still found). */
static void test_issue17_text_check_every_byte_everywhere(void **state)
{
    (void)state;
    struct tny_wire_assignment *a = calloc(1, sizeof *a);
    assert_non_null(a);
    assignment_sample(a);
    for (int multi = 0; multi < 2; multi++) {
        const char *path = multi ? "table_assignment.procedure"
                                 : "table_assignment.event_title";
        char *field = multi ? a->procedure : a->event_title;
        for (unsigned b = 1; b < 256; b++)
            for (int pos = 0; pos < 24; pos++) {
                struct tny_diag diag = {{0}};
                uint8_t *buf = NULL;
                size_t len = 0;
                char want[128];
                for (int i = 0; i < 24; i++)
                    field[i] = (char)(0x20 + (i * 7 + b) % 0x5f);
                field[24] = '\0';
                field[pos] = (char)b;
                int rc = tny_wire_encode_assignment(a, &buf, &len, &diag);
                free(buf);
                bool ws = b == '\t' || b == '\n' || b == '\r';
                if (b >= 0x20 && b < 0x7f)
                    assert_int_equal(rc, 0);
                else if (ws && multi)
                    assert_int_equal(rc, 0);
                else {
                    snprintf(want, sizeof want, "%s: %s at byte %d", path,
                             b < 0x80 ? "control character" : "not valid UTF-8",
                             pos);
                    assert_diag(rc, diag, want);
                }
            }
        /* A UTF-8 character, then a control byte further on. */
        for (int pos = 0; pos < 20; pos++)
            for (int ctl = pos + 2; ctl < 24; ctl++) {
                struct tny_diag diag = {{0}};
                uint8_t *buf = NULL;
                size_t len = 0;
                char want[128];
                memset(field, 'x', 24);
                field[24] = '\0';
                field[pos] = (char)0xc3;
                field[pos + 1] = (char)0xa9;
                field[ctl] = 0x1f;
                int rc = tny_wire_encode_assignment(a, &buf, &len, &diag);
                free(buf);
                snprintf(want, sizeof want, "%s: control character at byte %d",
                         path, ctl);
                assert_diag(rc, diag, want);
            }
        assignment_sample(a);
    }
    free(a);
}

static void test_PROTO_error_bad_values(void **state)
{
    (void)state;
    struct pbw w;
    /* Unknown enum value. */
    assignment_bytes(&w, 2);
    pb_uint(&w, 5, 99); /* the last value wins */
    decode_fails(&codecs[C_ASSIGN], w.b, w.n,
                 "table_assignment.game: unknown game 99");
    /* Invalid UTF-8 in a display name. */
    assignment_bytes(&w, 1);
    struct pbw seat = {0};
    pb_str(&seat, 1, "s2");
    pb_str(&seat, 2, "Bad \xc3\x28 name");
    pb_uint(&seat, 3, 2);
    pb_msg(&w, 10, &seat);
    decode_fails(&codecs[C_ASSIGN], w.b, w.n,
                 "table_assignment.seats[1].name: not valid UTF-8 at byte 4");
    /* A clock not started holds a non-negative time. */
    struct tny_wire_clock c;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    /* A player edit must change something; a kept result is an id. */
    struct tny_wire_request *ed = calloc(1, sizeof *ed);
    assert_non_null(ed);
    request_sample(TNY_WIRE_CMD_EDIT_PLAYER, 0, ed);
    ed->player.name[0] = '\0';
    ed->set_club = ed->set_country = false;
    assert_diag(tny_wire_encode_request(ed, &buf, &len, &diag), diag,
                "console_request.edit_player: nothing to change");
    request_sample(TNY_WIRE_CMD_RESOLVE_CONFLICT, 0, ed);
    ed->result_id = 0;
    assert_diag(tny_wire_encode_request(ed, &buf, &len, &diag), diag,
                "console_request.resolve_conflict.keep: expected 1..");
    free(ed);
    clock_sample(&c);
    c.clock.state = TNY_ROUND_CLOCK_READY;
    c.clock.remaining_ms = -1;
    assert_diag(tny_wire_encode_clock(&c, &buf, &len, &diag), diag,
                "round_clock.clock.remaining_ms: expected 0..");
    clock_sample(&c);
    c.extensions[1].table = 2; /* not increasing */
    assert_diag(tny_wire_encode_clock(&c, &buf, &len, &diag), diag,
                "round_clock.extensions[1].table: tables must be in "
                "increasing order");
    c.extensions[1].table = 9;
    /* A reply's ok flag agrees with its error code. */
    memset(&w, 0, sizeof w);
    pb_str(&w, 1, "c1");
    pb_uint(&w, 2, 1);
    pb_uint(&w, 3, 2);
    decode_fails(&codecs[C_REPLY], w.b, w.n,
                 "console_reply.ok: true contradicts error_code 2");
    /* Console arguments are checked per command. */
    struct tny_wire_request *q = malloc(sizeof *q);
    assert_non_null(q);
    request_sample(TNY_WIRE_CMD_CLOCK_EXTEND, 0, q);
    q->extra_ms = 0; /* negative takes an extension back (issue 22) */
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.clock_extend.extra_ms: expected a time "
                "other than 0");
    q->extra_ms = -TNY_CLOCK_MAX_MS - 1;
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.clock_extend.extra_ms: expected -");
    request_sample(TNY_WIRE_CMD_SWAP_PLAYERS, 0, q);
    strcpy(q->other_player_id, q->player_id);
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.swap_players.player_b: a player cannot swap");
    request_sample(TNY_WIRE_CMD_DROP_PLAYER, 0, q);
    q->event_id[0] = '\0';
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.event_id: missing");
    request_sample(TNY_WIRE_CMD_NEXT_STAGE, 0, q);
    q->confirm = false;
    assert_diag(tny_wire_encode_request(q, &buf, &len, &diag), diag,
                "console_request.next_stage.confirm: must be true");
    free(q);
}

/* NH-1: a draw has no winner and records an HQ difference of 0. */
static void test_NH_1_draw_shape(void **state)
{
    (void)state;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    submission_sample(1, &s);
    s.result.hq_diff = 3;
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.nh.hq_diff: a draw records 0");
    submission_sample(1, &s);
    strcpy(s.result.winner_id, "p1");
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.nh.winner_id: a draw has no winner");
    submission_sample(1, &s);
    s.result.draw = false;
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.nh.winner_id: missing");
}

/* TX-5: a default names the winner and carries no scores. */
static void test_TX_5_default_has_no_scores(void **state)
{
    (void)state;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    submission_sample(2, &s);
    strcpy(s.result.default_winner_id, "t1");
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.tx.players[0].score: a default");
    submission_sample(2, &s);
    s.result.players[1].has_score = false;
    s.result.players[1].has_clock = false;
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.tx.players[1].score: missing");
}

/* Seed 001 s13: a Tantrix draw carries no scores, no TP, no default. */
static void test_TX_s13_draw_has_no_scores(void **state)
{
    (void)state;
    struct tny_wire_submission s;
    struct tny_diag diag = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    submission_sample(2, &s);
    s.result.draw = true;
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.tx.players[0].score: a draw");
    submission_sample(3, &s);
    s.result.draw = true;
    assert_diag(tny_wire_encode_submission(&s, &buf, &len, &diag), diag,
                "result_submission.result.tx.draw: a default");
}

/* ---- results mapped onto the engine's tables
 * ---------------------------------- */

static const char ag_event[] =
    "{ 'format': 'agricola', 'seed': 1, 'players': ["
    "  {'id': 'n1', 'name': 'A'}, {'id': 'n3', 'name': 'B'},"
    "  {'id': 'n5', 'name': 'C'}, {'id': 'n7', 'name': 'D'}],"
    "  'rounds': [ { 'stage': 'prelim', 'tables': ["
    "    { 'table': 1, 'players': ['n1', 'n5', 'n3', 'n7'] } ] } ] }";

/* AG-1: the wire's players (any order) land on their seats; the engine's
 * ranges apply (VP -50..200 in the preset). */
/* Seed 001 s13: a Tantrix draw maps onto the table with no entries at
 * all (the console's {"draw": true}) or with a penalty entry only. */
static void test_TX_s13_draw_to_table(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_wire_result r;
    struct tny_table t;
    struct tny_diag diag = {{0}};
    tu_load_event("{'format':'tantrix','seed':1,'players':[{'id':'t1',"
                  "'name':'A'},{'id':'t2','name':'B'}],'rounds':[{'stage':"
                  "'swiss','tables':[{'table':1,'players':['t1','t2']}]}]}",
                  &ev);
    const struct tny_table *assigned = &ev.rounds[0].tables[0];
    memset(&r, 0, sizeof(r));
    r.game = TNY_GAME_TANTRIX;
    r.draw = true;
    int rc = tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                      "result", &t, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_true(t.result.draw);
    assert_false(t.result.has_score);
    result_sample(9, &r); /* a penalty entry for t2 */
    assert_int_equal(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned,
                                              &r, "result", &t, &diag),
                     0);
    assert_int_equal(t.result.penalty[1], 1200);
    tny_event_release(&ev);
}

static void test_AG_1_result_to_table(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_wire_result r, back;
    struct tny_table t;
    struct tny_diag diag = {{0}};
    tu_load_event(ag_event, &ev);
    const struct tny_table *assigned = &ev.rounds[0].tables[0];
    result_sample(5, &r); /* n7, n1, n5, n3 */
    int rc = tny_wire_result_to_table(&ev, TNY_STAGE_PRELIM, assigned, &r,
                                      "result_submission.result", &t, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_true(t.has_result);
    for (int i = 0; i < 4; i++) {
        int32_t s = tny_table_seat_of(
            &t, tny_event_player_index(&ev, r.players[i].player_id));
        assert_int_equal(t.result.score[s], r.players[i].score);
        assert_int_equal(t.result.ip[s], r.players[i].ip);
        assert_int_equal(t.result.bp[s], r.players[i].bp);
    }
    /* Back to the wire: the same values, in seat order. */
    assert_int_equal(tny_wire_result_from_table(&ev, &t, &back, &diag), 0);
    assert_int_equal(back.n_players, 4);
    assert_string_equal(back.players[0].player_id, "n1");
    assert_int_equal(back.players[0].score, r.players[1].score);
    /* Out of the format's range: the engine names the player. */
    r.players[2].score = 201;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_PRELIM, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag, "result_submission.result.vp.n5: expected a number");
    /* A player of another table, a missing player, another game. */
    result_sample(5, &r);
    strcpy(r.players[0].player_id, "n9");
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_PRELIM, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.ag.players[0].player_id: \"n9\" is "
                "not a player of table 1");
    result_sample(5, &r);
    r.n_players = 3;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_PRELIM, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.ag.players: missing an entry for "
                "\"n3\"");
    result_sample(8, &r);
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_PRELIM, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag, "result_submission.result: a catan result for");
    tny_event_release(&ev);
}

static const char xw_event[] =
    "{ 'format': 'xwing-2.0', 'seed': 1, 'players': ["
    "  {'id': 'x1', 'name': 'A'}, {'id': 'x2', 'name': 'B'}],"
    "  'rounds': [ { 'stage': 'swiss', 'tables': ["
    "    { 'table': 1, 'players': ['x1', 'x2'] } ] } ] }";

/* Two-player game (issue 10): scores map by id; without winner_id the
 * higher score wins; equal scores in a format without draws are refused;
 * the format's range applies. */
static void test_two_player_result_to_table(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_wire_result r, back;
    struct tny_table t;
    struct tny_diag diag = {{0}};
    tu_load_event(xw_event, &ev);
    const struct tny_table *assigned = &ev.rounds[0].tables[0];
    result_sample(10, &r);
    r.winner_id[0] = '\0';
    if (tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                 "result_submission.result", &t, &diag) != 0)
        fail_msg("%s", diag.msg);
    assert_int_equal(t.result.score[0], 200); /* x1 in seat 0 */
    assert_int_equal(t.result.score[1], 83);
    assert_int_equal(t.result.winner, 0);
    assert_int_equal(tny_wire_result_from_table(&ev, &t, &back, &diag), 0);
    assert_string_equal(back.winner_id, "x1");
    assert_int_equal(back.n_players, 2);
    assert_string_equal(back.players[0].player_id, "x1");
    r.players[0].score = r.players[1].score = 100;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.tp: equal scores and no winner_id, "
                "and the format \"xwing-2.0\" has no draws");
    r.players[0].score = 201;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.scores.x2: expected a number 0..200");
    result_sample(11, &r); /* xwing-2.0 allows intentional draws */
    if (tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                 "result_submission.result", &t, &diag) != 0)
        fail_msg("%s", diag.msg);
    assert_true(t.result.intentional_draw);
    r.intentional_draw = false;
    r.draw = true;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag, "result_submission.result: an outcome the format");
    tny_event_release(&ev);
}

static const char nh_event[] =
    "{ 'format': 'neuroshima-hex', 'seed': 1, 'players': ["
    "  {'id': 'p1', 'name': 'A', 'armies': ['Borgo', 'Moloch', 'Vegas', "
    "   'Smart', 'Dancer']},"
    "  {'id': 'p2', 'name': 'B', 'beginner': true}],"
    "  'rounds': [ { 'stage': 'swiss', 'tables': ["
    "    { 'table': 1, 'players': ['p2', 'p1'] } ] } ] }";

/* NH-1, NH-10: winner and armies map by id and name; an army the player
 * did not register is refused by the engine, an unknown one by the map. */
static void test_NH_10_armies_to_table(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_wire_result r, back;
    struct tny_table t;
    struct tny_diag diag = {{0}};
    tu_load_event(nh_event, &ev);
    const struct tny_table *assigned = &ev.rounds[0].tables[0];
    result_sample(0, &r); /* p1 wins by 7, Borgo vs Moloch */
    int rc = tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                      "result_submission.result", &t, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_int_equal(t.result.winner, 1); /* p1 sits in seat 1 */
    assert_int_equal(t.result.hq_diff, 7);
    assert_string_equal(ev.format.armies[t.result.army[1]], "Borgo");
    assert_string_equal(ev.format.armies[t.result.army[0]], "Moloch");
    assert_int_equal(tny_wire_result_from_table(&ev, &t, &back, &diag), 0);
    assert_string_equal(back.winner_id, "p1");
    assert_int_equal(back.hq_diff, 7);
    assert_int_equal(back.n_players, 2);
    /* NH-1: one range (the format's) for a negative and a too-large HQ
     * difference, at the path of the key itself. */
    r.hq_diff = -1;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.hq_diff: expected a number 0..40, "
                "got -1");
    r.hq_diff = 41;
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.hq_diff: expected a number 0..40, "
                "got 41");
    r.hq_diff = 7;
    strcpy(r.players[0].army, "Sharrash"); /* not p1's */
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag, "result_submission.result.armies.p1: \"Sharrash\"");
    strcpy(r.players[0].army, "Atlantis Prime");
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_SWISS, assigned, &r,
                                         "result_submission.result", &t, &diag),
                diag,
                "result_submission.result.nh.armies[0].army: unknown army");
    tny_event_release(&ev);
}

static const char gt_event[] =
    "{ 'format': 'got-lcg2', 'seed': 1, 'players': ["
    "  {'id': 'g1', 'name': 'A'}, {'id': 'g2', 'name': 'B'}],"
    "  'rounds': [ { 'stage': 'swiss', 'tables': ["
    "    { 'table': 1, 'players': ['g1', 'g2'] } ] } ] }";

/* GT-9: a best-of-three is won with two game wins; a stated winner must
 * agree with the games. */
static void test_GT_9_winner_agrees_with_games(void **state)
{
    (void)state;
    struct tny_event ev;
    struct tny_wire_result r;
    struct tny_table t;
    struct tny_diag diag = {{0}};
    tu_load_event(gt_event, &ev);
    const struct tny_table *assigned = &ev.rounds[0].tables[0];
    result_sample(7, &r); /* g1, g2, g1 */
    int rc = tny_wire_result_to_table(&ev, TNY_STAGE_ELIMINATION, assigned, &r,
                                      "r", &t, &diag);
    if (rc != 0)
        fail_msg("%s", diag.msg);
    assert_int_equal(t.result.n_games, 3);
    assert_int_equal(t.result.games[1], 1);
    strcpy(r.winner_id, "g2");
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_ELIMINATION, assigned,
                                         &r, "r", &t, &diag),
                diag, "r.gt.winner_id: \"g2\" did not win two games (GT-9)");
    r.winner_id[0] = '\0';
    r.n_games = 2; /* 1-1: unfinished */
    assert_diag(tny_wire_result_to_table(&ev, TNY_STAGE_ELIMINATION, assigned,
                                         &r, "r", &t, &diag),
                diag, "r.games: not a finished best-of-three");
    tny_event_release(&ev);
}

/* ---- topics -------------------------------------------------------------- */

/* device/{id}/identify: the table number in decimal, nothing else. */
static void test_PROTO_identify_payload(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    char text[8];
    int32_t table = -1;
    static const char *const good[] = {"0", "12", "100000"};
    static const int32_t want[] = {0, 12, 100000};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tny_wire_decode_identify((const uint8_t *)good[i],
                                                  strlen(good[i]), &table,
                                                  &diag),
                         0);
        assert_int_equal(table, want[i]);
        assert_int_equal(tny_wire_encode_identify(table, text),
                         strlen(good[i]));
        assert_memory_equal(text, good[i], strlen(good[i]));
    }
    static const char *const bad[] = {"",   "012",     "-1", "100001",
                                      "1a", "1234567", " 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        table = -1;
        assert_int_equal(tny_wire_decode_identify((const uint8_t *)bad[i],
                                                  strlen(bad[i]), &table,
                                                  &diag),
                         TNY_EINVAL);
        assert_non_null(strstr(diag.msg, "identify: "));
        assert_int_equal(table, -1);
    }
}

static void test_PROTO_topics(void **state)
{
    (void)state;
    char buf[TNY_WIRE_TOPIC_MAX], id[TNY_WIRE_ID_MAX + 1];
    struct tny_diag diag = {{0}};
    enum tny_wire_topic kind;
    static const struct {
        enum tny_wire_topic kind;
        const char *topic;
    } cases[] = {
        {TNY_WIRE_TOPIC_HUB_STATE, "tourney/v1/hub/state"},
        {TNY_WIRE_TOPIC_PRESENCE, "tourney/v1/device/tbl-7/presence"},
        {TNY_WIRE_TOPIC_ASSIGN, "tourney/v1/device/tbl-7/assign"},
        {TNY_WIRE_TOPIC_RESULT, "tourney/v1/device/tbl-7/result"},
        {TNY_WIRE_TOPIC_ACK, "tourney/v1/device/tbl-7/ack"},
        {TNY_WIRE_TOPIC_CLOCK, "tourney/v1/event/tbl-7/clock"},
        {TNY_WIRE_TOPIC_CTL_REQ, "tourney/v1/ctl/tbl-7/req"},
        {TNY_WIRE_TOPIC_CTL_RESP, "tourney/v1/ctl/tbl-7/resp"},
        {TNY_WIRE_TOPIC_IDENTIFY, "tourney/v1/device/tbl-7/identify"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(
            tny_wire_topic(cases[i].kind, "tbl-7", buf, sizeof buf, &diag), 0);
        assert_string_equal(buf, cases[i].topic);
        assert_int_equal(tny_wire_topic_parse(buf, &kind, id, &diag), 0);
        assert_int_equal(kind, cases[i].kind);
        assert_string_equal(id, cases[i].kind ? "tbl-7" : "");
    }
    char longest[TNY_WIRE_ID_MAX + 1];
    memset(longest, 'x', TNY_WIRE_ID_MAX);
    longest[TNY_WIRE_ID_MAX] = '\0';
    assert_int_equal(tny_wire_topic(TNY_WIRE_TOPIC_PRESENCE, longest, buf,
                                    sizeof buf, &diag),
                     0);
    assert_int_equal(
        tny_wire_topic(TNY_WIRE_TOPIC_ASSIGN, "a/b", buf, sizeof buf, &diag),
        TNY_EINVAL);
    assert_int_equal(tny_wire_topic(TNY_WIRE_TOPIC_ASSIGN, "t", buf, 10, &diag),
                     TNY_ERANGE);
    static const char *bad[] = {
        "tourney/v2/device/t/ack",   "tourney/v1/device/t/acks",
        "tourney/v1/device//ack",    "tourney/v1/device/a/b/ack",
        "tourney/v1/event/t/assign", "tourney/v1/hub"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(tny_wire_topic_parse(bad[i], &kind, id, &diag),
                         TNY_EINVAL);
}

/* ---- randomised: random and mutated bytes into every decoder
 * ------------------ */

#define MAX_SEEDS 128

struct seeds {
    int n;
    uint8_t *buf[MAX_SEEDS];
    size_t len[MAX_SEEDS];
};

static void add_seed(struct seeds *s, const struct codec *c, const void *in)
{
    assert_true(s->n < MAX_SEEDS);
    encode_ok(c, in, &s->buf[s->n], &s->len[s->n]);
    s->n++;
}

static void build_seeds(int k, struct seeds *s)
{
    const struct codec *c = &codecs[k];
    memset(s, 0, sizeof *s);
    switch (k) {
    case C_ASSIGN: {
        struct tny_wire_assignment *a = calloc(1, sizeof *a);
        assert_non_null(a);
        assignment_sample(a);
        add_seed(s, c, a);
        tx_assignment_sample(a);
        add_seed(s, c, a);
        free(a);
        break;
    }
    case C_CLOCK: {
        struct tny_wire_clock cl;
        clock_sample(&cl);
        add_seed(s, c, &cl);
        break;
    }
    case C_SUBMISSION:
        for (int i = 0; i < N_RESULT_SAMPLES; i++) {
            struct tny_wire_submission sub;
            submission_sample(i, &sub);
            add_seed(s, c, &sub);
        }
        break;
    case C_ACK:
        for (int i = 0; i < 4; i++) {
            struct tny_wire_ack a;
            ack_sample(i, &a);
            add_seed(s, c, &a);
        }
        break;
    case C_PRESENCE: {
        struct tny_wire_presence p;
        presence_sample(&p);
        add_seed(s, c, &p);
        break;
    }
    case C_REQUEST: {
        struct tny_wire_request *q = malloc(sizeof *q);
        assert_non_null(q);
        for (int cmd = 1; cmd < TNY_WIRE_CMD_COUNT_; cmd++)
            for (int v = 0; v < 2; v++) {
                request_sample((enum tny_wire_cmd)cmd, v, q);
                add_seed(s, c, q);
            }
        free(q);
        break;
    }
    default:
        for (int i = 0; i < 3; i++) {
            struct tny_wire_reply r;
            reply_sample(i, &r);
            add_seed(s, c, &r);
        }
        break;
    }
}

/* 1..4 random edits of a seed (or of random bytes): bit flips, byte
 * overwrites, truncation, insertion, deletion, duplicated spans, splices.
 * The result is malloc'd into *out with its length. */
static void mutate(struct tny_rng *rng, const struct seeds *s, uint8_t **out,
                   size_t *out_len)
{
    size_t cap = 4096, n;
    uint8_t *b = malloc(cap);
    assert_non_null(b);
    if (tny_rng_below(rng, 8) == 0) { /* pure random bytes */
        n = (size_t)tny_rng_below(rng, 300);
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)tny_rng_next(rng);
    } else {
        int k = (int)tny_rng_below(rng, (uint64_t)s->n);
        n = s->len[k] < cap ? s->len[k] : cap;
        memcpy(b, s->buf[k], n);
        int edits = 1 + (int)tny_rng_below(rng, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = n ? (size_t)tny_rng_below(rng, n) : 0;
            switch (tny_rng_below(rng, 7)) {
            case 0:
                if (n)
                    b[at] ^= (uint8_t)(1u << tny_rng_below(rng, 8));
                break;
            case 1:
                if (n)
                    b[at] = (uint8_t)tny_rng_next(rng);
                break;
            case 2: n = at; break;
            case 3:
                if (n < cap) {
                    memmove(b + at + 1, b + at, n - at);
                    b[at] = (uint8_t)tny_rng_next(rng);
                    n++;
                }
                break;
            case 4:
                if (n) {
                    memmove(b + at, b + at + 1, n - at - 1);
                    n--;
                }
                break;
            case 5: { /* duplicate a span (repeats fields) */
                size_t span = n - at < 40 ? n - at : 40;
                if (n + span <= cap) {
                    memmove(b + at + span, b + at, n - at);
                    n += span;
                }
                break;
            }
            default: { /* splice: our head, another seed's tail */
                int j = (int)tny_rng_below(rng, (uint64_t)s->n);
                size_t from =
                    s->len[j] ? (size_t)tny_rng_below(rng, s->len[j]) : 0;
                size_t tail = s->len[j] - from;
                if (at + tail <= cap) {
                    memcpy(b + at, s->buf[j] + from, tail);
                    n = at + tail;
                }
                break;
            }
            }
        }
    }
    *out = b;
    *out_len = n;
}

/* Every decoder, on thousands of random and mutated inputs: no crash, no
 * leak (ASan), only OK or TNY_EINVAL with a diag naming the message; what
 * decodes re-encodes and decodes to the same struct (a normal form). */
static void test_PROTO_random_inputs_every_decoder(void **state)
{
    (void)state;
    const int cases = tu_property_cases(10000);
    int accepted[C_COUNT] = {0};
    for (int k = 0; k < C_COUNT; k++) {
        const struct codec *c = &codecs[k];
        struct seeds s;
        struct tny_rng rng;
        void *a = calloc(1, c->size), *b = calloc(1, c->size);
        assert_non_null(a);
        assert_non_null(b);
        build_seeds(k, &s);
        tny_rng_seed(&rng, 0x5eed0000u + (uint64_t)k);
        for (int i = 0; i < cases; i++) {
            uint8_t *in, *re = NULL;
            size_t n, re_len = 0;
            struct tny_diag diag = {{0}};
            mutate(&rng, &s, &in, &n);
            int rc = c->decode(in, n, a, &diag);
            if (rc == TNY_EINVAL) {
                if (strncmp(diag.msg, c->root, strlen(c->root)) != 0)
                    fail_msg("%s case %d: diag \"%s\"", c->root, i, diag.msg);
                /* The hub sends decode errors back as ack reasons: every
                 * diagnostic must itself be valid text for the wire. */
                struct tny_wire_ack ack;
                struct tny_diag d2 = {{0}};
                ack_sample(3, &ack);
                snprintf(ack.reason_text, sizeof ack.reason_text, "%s",
                         diag.msg);
                if (tny_wire_encode_ack(&ack, &re, &re_len, &d2) != 0)
                    fail_msg("%s case %d: diag unfit for an ack: %s", c->root,
                             i, d2.msg);
                free(re);
                re = NULL;
            } else if (rc != 0) {
                fail_msg("%s case %d: rc %d", c->root, i, rc);
            } else {
                accepted[k]++;
                rc = c->encode(a, &re, &re_len, &diag);
                if (rc != 0)
                    fail_msg("%s case %d: decoded but does not re-encode: %s",
                             c->root, i, diag.msg);
                rc = c->decode(re, re_len, b, &diag);
                if (rc != 0)
                    fail_msg("%s case %d: re-encoding does not decode: %s",
                             c->root, i, diag.msg);
                if (!codec_eq(c, a, b))
                    fail_msg("%s case %d: not a normal form", c->root, i);
                codec_release(c, a);
                codec_release(c, b);
                free(re);
            }
            free(in);
        }
        /* The mutations must also leave valid messages now and then, or the
         * test only ever exercises the error paths. */
        if (accepted[k] == 0)
            fail_msg("%s: no mutated input decoded", c->root);
        print_message("%s: %d of %d inputs decoded\n", c->root, accepted[k],
                      cases);
        for (int j = 0; j < s.n; j++)
            free(s.buf[j]);
        free(a);
        free(b);
    }
}

/* Issue 18 item 3: a command's records are declared (console_records.h)
 * and checked against the declaration: an undeclared member, a member of
 * another kind, a required one missing, one out of the declared order, a
 * nested record's stray member and records where none are declared are
 * each refused and named. */
static struct tny_wire_records *checkins_sample(const char *extra)
{
    /* [{"player": "p1", "name": "Ann", "checked_in": true, EXTRA: 1}] */
    struct tny_wire_records *r = tny_wire_records_new(extra ? 6 : 5);
    assert_non_null(r);
    records_node(r, 0, NULL, TNY_WIRE_NODE_LIST, 1);
    records_node(r, 1, NULL, TNY_WIRE_NODE_RECORD, extra ? 4 : 3);
    records_node(r, 2, "player", TNY_WIRE_NODE_TEXT, 0);
    r->nodes[2].text = strdup("p1");
    records_node(r, 3, "name", TNY_WIRE_NODE_TEXT, 0);
    r->nodes[3].text = strdup("Ann");
    records_node(r, 4, "checked_in", TNY_WIRE_NODE_FLAG, 0);
    r->nodes[4].flag = true;
    if (extra) {
        records_node(r, 5, extra, TNY_WIRE_NODE_INTEGER, 0);
        r->nodes[5].integer = 1;
    }
    return r;
}

static void shape_refused(const struct tny_wire_records *r,
                          enum tny_rec_shape shape, const char *want)
{
    struct tny_diag diag = {{0}};
    assert_diag(tny_wire_records_check_shape(r, shape, "x", &diag), diag, want);
}

static void test_issue18_records_checked_against_their_shape(void **state)
{
    (void)state;
    struct tny_diag diag = {{0}};
    assert_int_equal(tny_wire_records_shapes_check(&diag), 0);
    struct tny_wire_records *r = checkins_sample(NULL);
    assert_int_equal(
        tny_wire_records_check_shape(r, TNY_RECS_CHECKINS, "x", &diag), 0);
    /* another command's shape, or none declared */
    shape_refused(r, TNY_RECS_DROPPED, "x[0].name: not a member");
    shape_refused(r, TNY_RECS_NONE, "x: records where none are declared");
    shape_refused(NULL, TNY_RECS_CHECKINS, "x: missing (declared CHECKINS)");
    /* a member of another kind */
    r->nodes[4].kind = TNY_WIRE_NODE_INTEGER;
    shape_refused(r, TNY_RECS_CHECKINS,
                  "x[0].checked_in: kind integer, not one its shape "
                  "(CHECKINS) declares");
    r->nodes[4].kind = TNY_WIRE_NODE_FLAG;
    /* a required member missing: before a later one, or at the end */
    free(r->nodes[3].key);
    r->nodes[3].key = strdup("checked_in");
    free(r->nodes[4].key);
    r->nodes[4].key = strdup("name");
    shape_refused(r, TNY_RECS_CHECKINS, "x[0].name: missing");
    r->nodes[1].n = 2;
    r->n_nodes = 4;
    shape_refused(r, TNY_RECS_CHECKINS, "x[0].name: missing");
    /* out of the declared order (drop_requests: player, name?, ...,
     * after_round?) */
    r->n_nodes = 5;
    r->nodes[1].n = 3;
    free(r->nodes[3].key);
    r->nodes[3].key = strdup("after_round");
    r->nodes[3].kind = TNY_WIRE_NODE_INTEGER;
    r->nodes[4].kind = TNY_WIRE_NODE_TEXT;
    r->nodes[4].text = strdup("Ann");
    shape_refused(r, TNY_RECS_DROP_REQUESTS,
                  "x[0].name: out of the declared order (DROP_REQUESTS)");
    tny_wire_records_free(r);
    /* an undeclared member */
    r = checkins_sample("seat");
    shape_refused(r, TNY_RECS_CHECKINS,
                  "x[0].seat: not a member of its declared shape (CHECKINS)");
    tny_wire_records_free(r);

    /* nested: {"log": [{seq, time_ms, actor, kind, detail: {any}}]} */
    r = tny_wire_records_new(11);
    assert_non_null(r);
    records_node(r, 0, NULL, TNY_WIRE_NODE_RECORD, 1);
    records_node(r, 1, "log", TNY_WIRE_NODE_LIST, 1);
    records_node(r, 2, NULL, TNY_WIRE_NODE_RECORD, 5);
    records_node(r, 3, "seq", TNY_WIRE_NODE_INTEGER, 0);
    records_node(r, 4, "time_ms", TNY_WIRE_NODE_INTEGER, 0);
    records_node(r, 5, "actor", TNY_WIRE_NODE_TEXT, 0);
    records_node(r, 6, "kind", TNY_WIRE_NODE_TEXT, 0);
    records_node(r, 7, "detail", TNY_WIRE_NODE_RECORD, 2);
    records_node(r, 8, "anything", TNY_WIRE_NODE_LIST, 1);
    records_node(r, 9, NULL, TNY_WIRE_NODE_NULL, 0);
    records_node(r, 10, "else", TNY_WIRE_NODE_REAL, 0);
    assert_int_equal(tny_wire_records_check_shape(r, TNY_RECS_LOG, "x", &diag),
                     0);
    free(r->nodes[6].key);
    r->nodes[6].key = strdup("why");
    shape_refused(r, TNY_RECS_LOG,
                  "x.log[0].why: not a member of its declared shape "
                  "(LOG_ENTRY)");
    tny_wire_records_free(r);

    /* the text docs/protocol.md lists */
    char text[512];
    assert_true(
        tny_wire_records_shape_text(TNY_RECS_RESULTS, text, sizeof text) > 0);
    assert_string_equal(text, "{round: integer, results: [{id: integer, "
                              "table: integer, status: text, by: text, "
                              "source: text, time_ms: integer, result: "
                              "any}]}");
    assert_int_equal(tny_wire_records_shape_text(TNY_RECS_RESULTS, text, 20),
                     TNY_ERANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_PROTO_roundtrip_assignment),
        cmocka_unit_test(test_PROTO_assignment_seats_by_number),
        cmocka_unit_test(test_issue19_assignment_sides),
        cmocka_unit_test(test_PROTO_roundtrip_clock),
        cmocka_unit_test(test_CM_7_table_extension_added),
        cmocka_unit_test(test_AG_14_table_clock_from_its_draft),
        cmocka_unit_test(test_PROTO_roundtrip_submission_every_game),
        cmocka_unit_test(test_PROTO_roundtrip_ack),
        cmocka_unit_test(test_PROTO_roundtrip_presence),
        cmocka_unit_test(test_issue20_code_status_language_and_bye),
        cmocka_unit_test(test_PROTO_roundtrip_request_every_command),
        cmocka_unit_test(test_issue18_description_names_the_wire_fields),
        cmocka_unit_test(test_issue18_description_rules_drive_the_codec),
        cmocka_unit_test(test_PROTO_import_csv_keeps_a_nul_byte),
        cmocka_unit_test(test_PROTO_roundtrip_reply),
        cmocka_unit_test(test_issue18_seating_reply_is_typed),
        cmocka_unit_test(test_issue18_reply_description_names_the_wire_fields),
        cmocka_unit_test(test_issue18_random_typed_replies_roundtrip),
        cmocka_unit_test(test_issue18_malformed_seating_named),
        cmocka_unit_test(test_issue18_standings_reply_is_typed),
        cmocka_unit_test(test_issue18_records_reply_is_typed),
        cmocka_unit_test(test_issue18_records_checked_against_their_shape),
        cmocka_unit_test(test_PROTO_crafted_submission_decodes),
        cmocka_unit_test(test_PROTO_error_truncated),
        cmocka_unit_test(test_PROTO_error_wrong_wire_type),
        cmocka_unit_test(test_AG_1_missing_ip_named),
        cmocka_unit_test(test_PROTO_error_missing_required),
        cmocka_unit_test(test_PROTO_error_overlong_id),
        cmocka_unit_test(test_PROTO_error_seat_count),
        cmocka_unit_test(test_PROTO_error_empty_idempotency_key),
        cmocka_unit_test(test_PROTO_error_oversize_buffer),
        cmocka_unit_test(test_PROTO_error_bad_values),
        cmocka_unit_test(test_issue17_text_check_every_byte_everywhere),
        cmocka_unit_test(test_PROTO_peek_ids),
        cmocka_unit_test(test_NH_1_draw_shape),
        cmocka_unit_test(test_TX_5_default_has_no_scores),
        cmocka_unit_test(test_TX_s13_draw_has_no_scores),
        cmocka_unit_test(test_TX_s13_draw_to_table),
        cmocka_unit_test(test_AG_1_result_to_table),
        cmocka_unit_test(test_two_player_result_to_table),
        cmocka_unit_test(test_NH_10_armies_to_table),
        cmocka_unit_test(test_GT_9_winner_agrees_with_games),
        cmocka_unit_test(test_PROTO_topics),
        cmocka_unit_test(test_PROTO_identify_payload),
        cmocka_unit_test(test_PROTO_random_inputs_every_decoder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
