/* wiretool.c - test helper for the e2e scripts: builds protocol messages
 * from key=value arguments (binary protobuf on stdout, for
 * `mosquitto_pub -s`) and prints received ones as one key=value line
 * (from hex, as `mosquitto_sub -F %x` gives them).  It plays the hub's
 * side where no hub runs.
 *
 *   wiretool assign version=1 event=ev1 game=neuroshima-hex round=1 \
 *            stage=swiss table=3 seats=p1,p2 [clock=running:MS|paused:MS|
 *            not_started:MS|unlimited] [format=NAME] [armies.p1=a,b]
 *   wiretool clock version=1 event=ev1 round=1 clock=running:MS \
 *            [ext=TABLE:MS,...]
 *   wiretool ack key=K status=accepted|rejected|duplicate|conflict|
 *            pending_confirmation [reason=invalid_result] [text=...]
 *   wiretool submission HEX   -> key=... device=... event=... round=...
 *                                table=... version=... confirmed=p1,p2
 *                                game=...
 *   wiretool presence HEX     -> device=... state=online queued=N
 *                                version=V
 *   wiretool ack-of HEX       -> key=... status=rejected reason=malformed
 *                                text=...   (key "-" when absent)
 *   wiretool reply HEX        -> id=... ok=0|1 code=N message=...
 *
 * Clock instants are the wall clock now (the hub's clock in a test is the
 * machine's).  Exit status 0, or 2 with a message on stderr.
 * Not a product tool: no compatibility promise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tny/format.h"
#include "tny/wire.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "wiretool: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

/* Value of key in args ("key=value"), or NULL. */
static const char *arg(int argc, char **argv, const char *key)
{
    size_t n = strlen(key);
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
            return argv[i] + n + 1;
    return NULL;
}

static const char *need(int argc, char **argv, const char *key)
{
    const char *v = arg(argc, argv, key);
    if (!v)
        die("missing argument", key);
    return v;
}

static long long num(const char *v)
{
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    if (!end || *end)
        die("not a number", v);
    return x;
}

static void parse_clock(const char *v, struct tny_clock_msg *c)
{
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);

    memset(c, 0, sizeof(*c));
    c->hub_now_ms = now_ms();
    if (strncmp(v, "unlimited", n) == 0 && n == 9) {
        c->state = TNY_ROUND_CLOCK_RUNNING;
        c->unlimited = true;
        return;
    }
    if (!colon)
        die("clock: expected STATE:MS", v);
    long long ms = num(colon + 1);
    if (strncmp(v, "running", n) == 0 && n == 7) {
        c->state = TNY_ROUND_CLOCK_RUNNING;
        c->deadline_ms = c->hub_now_ms + ms;
    } else if (strncmp(v, "paused", n) == 0 && n == 6) {
        c->state = TNY_ROUND_CLOCK_PAUSED;
        c->remaining_ms = ms;
    } else if (strncmp(v, "not_started", n) == 0 && n == 11) {
        c->state = TNY_ROUND_CLOCK_READY;
        c->remaining_ms = ms;
    } else {
        die("clock: unknown state", v);
    }
}

static void write_out(uint8_t *buf, size_t len)
{
    if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)
        die("cannot write stdout", NULL);
    free(buf);
}

static void encode_assign(int argc, char **argv)
{
    static struct tny_wire_assignment a;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    const char *v;

    a.version = (uint64_t)num(need(argc, argv, "version"));
    snprintf(a.event_id, sizeof(a.event_id), "%s", need(argc, argv, "event"));
    if (tny_game_from_name(need(argc, argv, "game"), &a.game) < 0)
        die("unknown game", arg(argc, argv, "game"));
    if ((v = arg(argc, argv, "format")))
        snprintf(a.format_name, sizeof(a.format_name), "%s", v);
    a.round = (int32_t)num(need(argc, argv, "round"));
    if (tny_stage_kind_from_name(need(argc, argv, "stage"), &a.stage) < 0)
        die("unknown stage", arg(argc, argv, "stage"));
    a.table = (int32_t)num(need(argc, argv, "table"));
    if (a.table > 0) {
        char seats[512];
        snprintf(seats, sizeof(seats), "%s", need(argc, argv, "seats"));
        for (char *s = strtok(seats, ","); s; s = strtok(NULL, ",")) {
            if (a.n_seats >= TNY_MAX_SEATS)
                die("too many seats", NULL);
            struct tny_wire_seat *seat = &a.seats[a.n_seats++];
            snprintf(seat->player_id, sizeof(seat->player_id), "%s", s);
            snprintf(seat->name, sizeof(seat->name), "Player %s", s);
            char key[96];
            snprintf(key, sizeof(key), "armies.%s", s);
            if ((v = arg(argc, argv, key))) {
                char list[512];
                snprintf(list, sizeof(list), "%s", v);
                char *save = NULL;
                for (char *x = strtok_r(list, ",", &save); x;
                     x = strtok_r(NULL, ",", &save))
                    snprintf(seat->armies[seat->n_armies++],
                             sizeof(seat->armies[0]), "%s", x);
            }
        }
        a.seats[0].first_player = true;
    }
    if ((v = arg(argc, argv, "clock"))) {
        a.has_clock = true;
        parse_clock(v, &a.clock);
    }
    if (arg(argc, argv, "bo3"))
        a.best_of_three = true;
    if (tny_wire_encode_assignment(&a, &buf, &len, &d) < 0)
        die(d.msg, NULL);
    write_out(buf, len);
}

static void encode_clock(int argc, char **argv)
{
    struct tny_wire_clock c;
    struct tny_wire_table_extension ext[64];
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    const char *v;

    memset(&c, 0, sizeof(c));
    c.version = (uint64_t)num(need(argc, argv, "version"));
    snprintf(c.event_id, sizeof(c.event_id), "%s", need(argc, argv, "event"));
    c.round = (int32_t)num(need(argc, argv, "round"));
    parse_clock(need(argc, argv, "clock"), &c.clock);
    if ((v = arg(argc, argv, "ext"))) {
        char list[512];
        snprintf(list, sizeof(list), "%s", v);
        for (char *x = strtok(list, ","); x && c.n_extensions < 64;
             x = strtok(NULL, ",")) {
            char *colon = strchr(x, ':');
            if (!colon)
                die("ext: expected TABLE:MS", x);
            *colon = '\0';
            /* every field set: the ones not named here (start_delay_ms:
             * -1, no per-table start) would be stack garbage the
             * encoder refuses (issue 22 item 12) */
            ext[c.n_extensions++] = (struct tny_wire_table_extension){
                .table = (int32_t)num(x),
                .extension_ms = num(colon + 1),
                .start_delay_ms = -1};
        }
        c.extensions = ext;
    }
    if (tny_wire_encode_clock(&c, &buf, &len, &d) < 0)
        die(d.msg, NULL);
    write_out(buf, len);
}

static void encode_ack(int argc, char **argv)
{
    static const char *const statuses[] = {"",         "accepted",
                                           "rejected", "duplicate",
                                           "conflict", "pending_confirmation"};
    static const char *const reasons[] = {
        "none",        "malformed",       "unknown_event",  "wrong_table",
        "wrong_round", "wrong_players",   "invalid_result", "already_confirmed",
        "unconfirmed", "stale_assignment"};
    struct tny_wire_ack k;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    const char *v;

    memset(&k, 0, sizeof(k));
    if ((v = arg(argc, argv, "key")))
        snprintf(k.key, sizeof(k.key), "%s", v);
    v = need(argc, argv, "status");
    for (int i = 1; i < 6; i++)
        if (strcmp(v, statuses[i]) == 0)
            k.status = (enum tny_wire_ack_status)i;
    if (!k.status)
        die("unknown status", v);
    if ((v = arg(argc, argv, "reason"))) {
        bool found = false;
        for (int i = 0; i < 10; i++)
            if (strcmp(v, reasons[i]) == 0) {
                k.reason = (enum tny_wire_ack_reason)i;
                found = true;
            }
        if (!found)
            die("unknown reason", v);
    }
    if ((v = arg(argc, argv, "text")))
        snprintf(k.reason_text, sizeof(k.reason_text), "%s", v);
    if (tny_wire_encode_ack(&k, &buf, &len, &d) < 0)
        die(d.msg, NULL);
    write_out(buf, len);
}

static uint8_t *from_hex(const char *hex, size_t *len)
{
    size_t n = strlen(hex);
    uint8_t *buf;

    if (n % 2)
        die("odd hex length", NULL);
    buf = malloc(n / 2 + 1);
    if (!buf)
        die("out of memory", NULL);
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            die("bad hex", NULL);
        buf[i] = (uint8_t)v;
    }
    *len = n / 2;
    return buf;
}

static void decode_submission(const char *hex)
{
    struct tny_wire_submission s;
    struct tny_diag d = {{0}};
    size_t len;
    uint8_t *buf = from_hex(hex, &len);

    if (tny_wire_decode_submission(buf, len, &s, &d) < 0)
        die(d.msg, NULL);
    printf("key=%s device=%s event=%s round=%d table=%d version=%llu "
           "game=%s confirmed=",
           s.key, s.device_id, s.event_id, (int)s.round, (int)s.table,
           (unsigned long long)s.assignment_version,
           tny_game_name(s.result.game));
    for (int32_t i = 0; i < s.n_confirmed; i++)
        printf("%s%s", i ? "," : "", s.confirmed[i]);
    printf("\n");
    free(buf);
}

static void decode_presence(const char *hex)
{
    static const char *const states[] = {"", "online", "offline", "error"};
    struct tny_wire_presence p;
    struct tny_diag d = {{0}};
    size_t len;
    uint8_t *buf = from_hex(hex, &len);

    if (tny_wire_decode_presence(buf, len, &p, &d) < 0)
        die(d.msg, NULL);
    printf("device=%s state=%s queued=%d version=%llu\n", p.device_id,
           states[p.state], (int)p.queued_results,
           (unsigned long long)p.last_assignment_version);
    free(buf);
}

static void decode_ack(const char *hex)
{
    static const char *const statuses[] = {"",         "accepted",
                                           "rejected", "duplicate",
                                           "conflict", "pending_confirmation"};
    static const char *const reasons[] = {
        "none",        "malformed",       "unknown_event",  "wrong_table",
        "wrong_round", "wrong_players",   "invalid_result", "already_confirmed",
        "unconfirmed", "stale_assignment"};
    struct tny_wire_ack k;
    struct tny_diag d = {{0}};
    size_t len;
    uint8_t *buf = from_hex(hex, &len);

    if (tny_wire_decode_ack(buf, len, &k, &d) < 0)
        die(d.msg, NULL);
    printf("key=%s status=%s reason=%s text=%s\n", k.key[0] ? k.key : "-",
           statuses[k.status], reasons[k.reason], k.reason_text);
    free(buf);
}

static void decode_reply(const char *hex)
{
    struct tny_wire_reply r;
    struct tny_diag d = {{0}};
    size_t len;
    uint8_t *buf = from_hex(hex, &len);

    if (tny_wire_decode_reply(buf, len, &r, &d) < 0)
        die(d.msg, NULL);
    printf("id=%s ok=%d code=%d message=%s\n", r.correlation_id, r.rc == 0,
           -r.rc, r.message);
    tny_wire_reply_release(&r);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: wiretool assign|clock|ack|submission|presence ...", NULL);
    const char *cmd = argv[1];
    if (strcmp(cmd, "assign") == 0)
        encode_assign(argc - 2, argv + 2);
    else if (strcmp(cmd, "clock") == 0)
        encode_clock(argc - 2, argv + 2);
    else if (strcmp(cmd, "ack") == 0)
        encode_ack(argc - 2, argv + 2);
    else if (strcmp(cmd, "submission") == 0 && argc == 3)
        decode_submission(argv[2]);
    else if (strcmp(cmd, "presence") == 0 && argc == 3)
        decode_presence(argv[2]);
    else if (strcmp(cmd, "ack-of") == 0 && argc == 3)
        decode_ack(argv[2]);
    else if (strcmp(cmd, "reply") == 0 && argc == 3)
        decode_reply(argv[2]);
    else
        die("unknown command", cmd);
    return 0;
}
