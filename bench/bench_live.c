/* bench_live.c - the live system under load: its own mosquitto (venue
 * config from deploy/broker/gen-config.sh, 127.0.0.1, a free port) and its
 * own tourney-hub on a temp database (synchronous=FULL), driven by ONE
 * privileged MQTT client that publishes ResultSubmissions on behalf of the
 * devices, reads their acks and assignments, and sends console requests
 * as an organiser would (`tourney live round close|pair|publish`).
 *
 * Measures (printed): (b) ack latency at 200 tables reporting at a
 * realistic pace, (a) durable results per second with 500 tables (each ack
 * comes only after its commit), (c) console publish -> every one of 500
 * tables has its assignment, (d) round turnaround at 1,000 tables (--tables):
 * the last result sent -> its ack -> close, pair, publish (the console commands
 * an organiser runs, sent the moment the previous reply arrives) -> every table
 * has its round 2 assignment, (e) hub restart with >= 10,000 stored results:
 * exec -> hub/state online, and exec -> first ack, (f) the 200 tables' ack
 * latency while one table login floods 50,000 results.
 *
 * The setup writes the database through the store API before the hub
 * starts (events, players, devices assigned to tables, round 1 paired and
 * published; for (c) paired only), which is what the console would have
 * done.  The load client logs in as "bench", a login this program adds to
 * ITS generated broker files only (readwrite tourney/v1/#); the
 * production ACL is untouched.  The hub runs as deployed (feed on,
 * database_sync on: an fsync per commit) unless --no-feed / --no-sync.
 * The disk's own fsync latency is printed first (4 KiB in-place writes +
 * fdatasync, 100/s, in the temp dir): with sync on, (b)'s tail cannot be
 * shorter than the disk's.
 *
 * (s) --soak [--minutes N] (instead of (a)..(f); N default 60): 500
 * tables play continuous
 * Swiss rounds (event "soak", 1,000 players, up to 999 rounds) for that
 * long: each round's 500 results spread over 30 s, then close, pair,
 * publish the next; every minute one line: the hub's RSS, open fds, CPU
 * share, the ack p50 / p99 of that minute's results, the rounds finished
 * and their turnaround (last result acknowledged -> every table has the
 * next round).  What grows through a day shows here (issue 23).  At the
 * end, a fresh hub on the same database: its RSS and the turnaround of
 * one more round it plays (the yardstick of what the data itself costs).
 *
 * (g) --cpu-only [--pace R] [--results N] (instead of (a)..(f)): the
 * hub's CPU per result at --tables N tables (2N players, 1,000 tables
 * unless given), feed on: its idle CPU over a window as long as the
 * run's, then N results (every table's unless given) at R a second (100
 * unless given); (CPU of the run - the idle rate x its wall time) /
 * results, from the scheduler's per-process clock.
 *
 * usage: bench_live [--no-feed] [--no-sync] [--flood-only]
 *                   [--presence-flood] [--turnaround-only] [--latency-only]
 *                   [--cpu-only [--pace R] [--results N]]
 *                   [--feed-interval MS] [--settle S]
 *                   [--hub-log info|debug] [--tables N] [--players N]
 *                   [--soak [--minutes N]] [HUB_BINARY]
 * (--latency-only: (b) alone; --settle S: (b) S s after the hub came
 * online, 5 unless given (0: at once, its start-up feed going out);
 * --feed-interval MS: the hub's feed_interval_ms; --flood-only: (b) and (f)
 * only; --turnaround-only: (d) only, with each process's CPU over it;
 * --hub-log: the hub's log level, info as deployed with --turnaround-only
 * and --cpu-only, else debug ((b) and (f) read its result trace);
 * --presence-flood: (f) floods presence messages instead of results; --tables
 * N: the tables of (d), 1,000 unless given, e.g. 2500 for 5,000 players;
 * --players N: the players of the restart event (e), 2,000 unless given, 10
 * rounds of results each; HUB_BINARY default: ../hub/tourney-hub next to this
 * binary in the build tree).  Not a test of speed, but it fails (exit 1,
 * "FAILED:
 * ...") when it did not measure what it prints: a result sent and not
 * acknowledged, a table without its assignment, a command refused, an empty
 * figure (issue 17 item 5).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ports.h" /* tests/e2e: reserved ports */
#include "store.h"
#include "tny/json_io.h"
#include "tny/mqtt.h"
#include "tny/pair.h"
#include "tny/rng.h"
#include "tny/simulate.h"
#include "tny/wire.h"

#ifndef TNY_SOURCE_DIR
#define TNY_SOURCE_DIR "."
#endif

/* Devices table-0001..: 1..700 play "live" ((b) uses 1..200, (a)
 * 201..700), 701..1200 the 500 tables of "c500", 1201.. the d_tables
 * tables of "d1000"; device d sits at table d - first of its event. */
#define LIVE_FIRST 1
#define LIVE_TABLES 700
#define C_FIRST 701
#define C_TABLES 500
#define D_FIRST 1201
static int d_tables = 1000;    /* --tables */
static int big_players = 2000; /* --players */
#define N_DEVICES (D_FIRST + d_tables - 1)
#define PREFIX "tourney/v1/"

static char tmp[64], hub_bin[1024];
/* Its children: die() and on_signal() end them, and each has the kernel
 * signal it when this program dies however it dies (spawn). */
static volatile pid_t broker_pid = -1, hub_pid = -1;
static int port;
static bool feed = true, sync_db = true;
/* The hub's log_level: "info" as deployed (deploy/hub.conf.example) for
 * --turnaround-only, else "debug" ((b) and (f) read the hub's result
 * trace); --hub-log sets it.
 * At debug the hub writes a line per assignment sent (5,000 write(2)s
 * of the 2,500-table turnaround). */
static const char *hub_log;
static bool flood_only;      /* --flood-only: (b) and (f) */
static bool presence_flood;  /* --presence-flood: (f) floods presence */
static bool turnaround_only; /* --turnaround-only: (d) alone */
/* BENCH_LIVE_SLOW=K: the waits for the hub K times as long (a hub run
 * under valgrind, e.g. callgrind counting the turnaround's instructions;
 * its wall-clock figures then mean nothing). */
static double slow = 1;
static bool latency_only;    /* --latency-only: (b) alone */
static bool cpu_only;        /* --cpu-only: (g) alone */
static int cpu_pace = 100;   /* --pace R: (g)'s results per second */
static int cpu_results;      /* --results N: (g)'s results (all tables: 0) */
static int feed_interval_ms; /* --feed-interval MS: the hub's (0: its own) */
static int settle_s = 5;     /* --settle S: (b) begins S s after online */
static double disk_p99_ms;   /* the disk probe's fdatasync p99 ((b) beside) */
static int failures;         /* figures not measured (check) */
static int soak_minutes;     /* --soak [--minutes N]: (s) only */
static int soak_spread = 30; /* --spread S: (s) a round's results over S s */
/* (s): the round being played and each device's players in it (the soak
 * event's devices are those of "c500", below D_FIRST). */
static int soak_round = 1;
static char soak_seat[D_FIRST][2][TNY_WIRE_ID_MAX + 1];
/* [device * 2 + k] the round 1 players of the device's table */
static char **seat_ids;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* check(ok, what): counts a figure that was not measured; main exits 1. */
static bool check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "bench_live: FAILED: %s\n", what);
        failures++;
    }
    return ok;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_live: %s\n", what);
    if (hub_pid > 0)
        kill(hub_pid, SIGKILL);
    if (broker_pid > 0)
        kill(broker_pid, SIGTERM);
    exit(1);
}

/* SIGINT, SIGTERM, SIGHUP: the hub and the broker go first, then this
 * program dies of the signal (the temp dir stays, with their logs). */
static void on_signal(int sig)
{
    if (hub_pid > 0)
        kill(hub_pid, SIGKILL);
    if (broker_pid > 0)
        kill(broker_pid, SIGTERM);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Forks and execs argv (stdout and stderr to `log`); the child gets
 * `death_sig` when this program dies, even of SIGKILL (PR_SET_PDEATHSIG),
 * so a killed bench leaves no hub behind spinning without its broker nor
 * a broker holding its port.  A bench that died between the fork and the
 * prctl is seen by getppid() no longer being its pid. */
static pid_t spawn(char *const argv[], const char *log, int death_sig)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        if (prctl(PR_SET_PDEATHSIG, death_sig) != 0 || getppid() != parent)
            _exit(127);
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void run(const char *cmd)
{
    if (system(cmd) != 0) {
        fprintf(stderr, "failed: %s\n", cmd);
        die("setup command failed");
    }
}

static void read_cred(const char *file, const char *login, char *pw, size_t cap)
{
    char path[128], name[80], word[256];
    snprintf(path, sizeof(path), "%s/broker/%s", tmp, file);
    FILE *f = fopen(path, "r");
    if (!f)
        die("no credentials file");
    while (fscanf(f, "%79s %255s", name, word) == 2)
        if (strcmp(name, login) == 0) {
            snprintf(pw, cap, "%s", word);
            fclose(f);
            return;
        }
    fclose(f);
    die("login not in credentials");
}

static void start_broker(void)
{
    char cmd[1024];
    /* The broker listens on port and on the feed bridge's port, both
     * reserved against the tests and benches running meanwhile
     * (tests/e2e/ports.h; "Address already in use" once failed a run). */
    int bridge_port;
    port = tu_port_reserve();
    bridge_port = tu_port_reserve();
    if (port < 0 || bridge_port < 0)
        die("no port reserved (tests/e2e/ports.h)");
    snprintf(cmd, sizeof(cmd),
             "bash %s/deploy/broker/gen-config.sh --tables 0 --organisers o1 "
             "--monitors watch --bind 127.0.0.1 --port %d --bridge-port %d "
             "--run-as \"$(id "
             "-un)\" %s/broker >/dev/null && mosquitto_passwd -b "
             "%s/broker/passwd bench bench-pw && mosquitto_passwd -b "
             "%s/broker/passwd benchwatch bench-pw && mosquitto_passwd -b "
             "%s/broker/passwd benchflood bench-pw && printf '\\nuser bench\\n"
             "topic readwrite tourney/v1/#\\nuser benchwatch\\ntopic read "
             "tourney/v1/#\\nuser benchflood\\ntopic write "
             "tourney/v1/device/table-0700/result\\ntopic write "
             "tourney/v1/device/table-0700/presence\\n' >>%s/broker/acl",
             TNY_SOURCE_DIR, port, bridge_port, tmp, tmp, tmp, tmp, tmp);
    run(cmd);
    char conf[128], log[128];
    snprintf(conf, sizeof(conf), "%s/broker/mosquitto.conf", tmp);
    snprintf(log, sizeof(log), "%s/broker.log", tmp);
    char *argv[] = {"/usr/sbin/mosquitto", "-c", conf, NULL};
    broker_pid = spawn(argv, log, SIGTERM);
    /* up when the sockets on its ports are its own, not another's */
    for (int i = 0; i < 100; i++) {
        if (tu_port_listener_is(port, broker_pid) &&
            tu_port_listener_is(bridge_port, broker_pid))
            return;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    die("broker did not start (or another program holds its port)");
}

#define CHECK(call)                                                            \
    do {                                                                       \
        if ((call) < 0) {                                                      \
            fprintf(stderr, "%s: %s\n", #call, diag.msg);                      \
            die("store setup");                                                \
        }                                                                      \
    } while (0)

/* Event `id` (got-lcg2, 2 * n_tables players, round 1 paired, published
 * when `publish`), devices first.. assigned to its tables 1..n_tables and
 * their round 1 players noted in seat_ids. */
static void make_event(struct hub_store *s, const char *id, int n_tables,
                       uint64_t seed, int first, bool publish)
{
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct tny_round_plan plan;
    int n_players = 2 * n_tables;
    size_t cap = 256 + (size_t)n_players * 64;
    char *text = malloc(cap);
    if (!text)
        die("oom");
    size_t len = (size_t)snprintf(text, cap,
                                  "{\"format\":\"got-lcg2\",\"seed\":%llu,"
                                  "%s\"players\":[",
                                  (unsigned long long)seed,
                                  soak_minutes ? "\"options\":{\"structure\":"
                                                 "\"custom\",\"swiss_rounds\":"
                                                 "999,\"cut\":0},"
                                               : "");
    for (int i = 0; i < n_players; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"P %d\"}",
                                i ? "," : "", i + 1, i + 1);
    snprintf(text + len, cap - len, "]}");
    CHECK(hub_store_create_event(s, id, text, strlen(text), "hub", &diag));
    free(text);
    CHECK(hub_store_load_event(s, id, &ev, &diag));
    CHECK(tny_pair_next(&ev, &plan, &diag));
    CHECK(hub_store_save_draft(s, id, &ev, &plan, "hub", &diag));
    for (int32_t t = 0; t < plan.n_tables; t++) {
        const struct tny_pairing_table *tb = &plan.tables[t];
        if (tb->number < 1 || tb->number > n_tables || tb->n_seats != 2)
            continue;
        for (int k = 0; k < 2; k++)
            seat_ids[(first + tb->number - 1) * 2 + k] =
                strdup(ev.players[tb->seats[k]].id);
    }
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    if (publish)
        CHECK(hub_store_set_round_status(s, id, 1, HUB_ROUND_PUBLISHED, "hub",
                                         &diag));
    for (int t = 1; t <= n_tables; t++) {
        char dev[32];
        snprintf(dev, sizeof(dev), "table-%04d", first + t - 1);
        CHECK(hub_store_device_register(s, dev, "hub", &diag));
        CHECK(hub_store_device_assign(s, dev, id, t, "hub", &diag));
    }
}

/* The events above and "big" (>= 10,000 stored results). */
static void setup_db(void)
{
    struct tny_diag diag = {{0}};
    struct hub_store *s = NULL;
    struct tny_event ev;
    char path[128];
    snprintf(path, sizeof(path), "%s/hub.db", tmp);
    CHECK(hub_store_open(path, &s, &diag));
    seat_ids = calloc((size_t)(N_DEVICES + 1) * 2, sizeof(char *));
    if (!seat_ids)
        die("oom");
    if (soak_minutes) { /* (s) only: 500 tables, round 1 published */
        make_event(s, "soak", C_TABLES, 8, C_FIRST, true);
        hub_store_close(s);
        return;
    }
    make_event(s, "live", LIVE_TABLES, 7, LIVE_FIRST, true);
    make_event(s, "c500", C_TABLES, 8, C_FIRST, false);
    make_event(s, "d1000", d_tables, 10, D_FIRST, true);
    /* "big": big_players players, 10 rounds of simulated results. */
    struct tny_rng rng;
    char *big = NULL;
    size_t cap = 256 + (size_t)big_players * 64;
    char *text = malloc(cap);
    if (!text)
        die("oom");
    size_t len =
        (size_t)snprintf(text, cap,
                         "{\"format\":\"got-lcg2\",\"seed\":9,"
                         "\"options\":{\"structure\":\"custom\","
                         "\"swiss_rounds\":11,\"cut\":0},\"players\":[");
    for (int i = 0; i < big_players; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"b%d\",\"name\":\"B\"}",
                                i ? "," : "", i + 1);
    snprintf(text + len, cap - len, "]}");
    CHECK(tny_event_from_json_text(text, strlen(text), &ev, &diag));
    tny_rng_seed(&rng, 3);
    int32_t played = 0;
    CHECK(tny_simulate_rounds(&ev, 10, &rng, &played, &diag));
    if (tny_event_to_json(&ev, &big) < 0)
        die("export");
    CHECK(hub_store_create_event(s, "big", big, strlen(big), "hub", &diag));
    free(big);
    tny_event_release(&ev);
    free(text);
    hub_store_close(s);
}

static void start_hub(void)
{
    char conf[128], log[128];
    snprintf(conf, sizeof(conf), "%s/hub.conf", tmp);
    snprintf(log, sizeof(log), "%s/hub.log", tmp);
    char *argv[] = {hub_bin, "--config", conf, NULL};
    hub_pid = spawn(argv, log, SIGKILL);
}

static void write_hub_conf(void)
{
    char path[128], pw[256];
    read_cred("users.cred", "hub", pw, sizeof(pw));
    snprintf(path, sizeof(path), "%s/hub.pw", tmp);
    FILE *f = fopen(path, "w");
    if (!f)
        die("hub.pw");
    fprintf(f, "%s\n", pw);
    fclose(f);
    snprintf(path, sizeof(path), "%s/hub.conf", tmp);
    if (!(f = fopen(path, "w")))
        die("hub.conf");
    fprintf(f,
            "broker_uri = \"tcp://127.0.0.1:%d\"\nusername = \"hub\"\n"
            "password_file = \"%s/hub.pw\"\ndatabase = \"%s/hub.db\"\n"
            "keepalive_s = 5\nfeed = %s\ndatabase_sync = %s\n"
            "log_level = \"%s\"\n",
            port, tmp, tmp, feed ? "true" : "false", sync_db ? "true" : "false",
            hub_log);
    if (feed_interval_ms > 0)
        fprintf(f, "feed_interval_ms = %d\n", feed_interval_ms);
    fclose(f);
}

/* ---- the load client ---------------------------------------------------- */

static struct tny_mqtt *cli;
/* Reads every device's assignment (as the 2,200 tables would, each its
 * own), open for (c) and (d) only, so acks to `cli` never queue behind
 * thousands of assignments in the broker. */
static struct tny_mqtt *watch;
/* [device], N_DEVICES + 1 each (allocated by main) */
static double *sent_at, *acked_at;
/* (f): the flooding device and the acks it got. */
#define FLOOD_DEV 700
static struct tny_mqtt *flood;
static long flood_acks;
static int *acked_status;
/* The round of the device's latest assignment (0: none / cleared) and
 * when it arrived. */
static int *assign_round;
static double *assign_at;
static int hub_online;
static double online_at;
/* The console reply being waited for. */
static char want_corr[TNY_WIRE_ID_MAX + 1];
static int reply_rc, reply_seen;
static char reply_msg[TNY_WIRE_MESSAGE_MAX];

static void on_assignment(int dev, const struct tny_mqtt_message *m, double t)
{
    struct tny_wire_assignment *a = malloc(sizeof(*a));
    struct tny_diag d = {{0}};
    if (!a)
        die("oom");
    int round = 0;
    if (m->len > 0 &&
        tny_wire_decode_assignment(m->payload, m->len, a, &d) == 0) {
        round = (int)a->round;
        /* (s): the soak's devices only (soak_seat has D_FIRST rows) */
        for (int k = 0; k < 2 && a->n_seats == 2 && dev < D_FIRST; k++)
            snprintf(soak_seat[dev][k], sizeof(soak_seat[dev][k]), "%s",
                     a->seats[k].player_id);
    }
    free(a);
    if (round != assign_round[dev]) {
        assign_round[dev] = round;
        assign_at[dev] = t;
    }
}

static void handle(struct tny_mqtt_message *m, double t)
{
    int dev = 0;
    char kind[16];
    if (m->kind != TNY_MQTT_MESSAGE)
        return;
    if (strcmp(m->topic, PREFIX "hub/state") == 0) {
        bool on = m->len == strlen(TNY_WIRE_HUB_ONLINE) &&
                  memcmp(m->payload, TNY_WIRE_HUB_ONLINE, m->len) == 0;
        if (on && !hub_online)
            online_at = t;
        hub_online = on;
    } else if (strcmp(m->topic, PREFIX "ctl/bench/resp") == 0) {
        struct tny_wire_reply rep;
        struct tny_diag d = {{0}};
        if (tny_wire_decode_reply(m->payload, m->len, &rep, &d) == 0) {
            if (strcmp(rep.correlation_id, want_corr) == 0) {
                reply_seen = 1;
                reply_rc = rep.rc;
                snprintf(reply_msg, sizeof(reply_msg), "%s", rep.message);
            }
            tny_wire_reply_release(&rep);
        }
    } else if (sscanf(m->topic, PREFIX "device/table-%d/%15s", &dev, kind) ==
                   2 &&
               dev >= 1 && dev <= N_DEVICES) {
        struct tny_wire_ack ack;
        struct tny_diag d = {{0}};
        if (strcmp(kind, "assign") == 0)
            on_assignment(dev, m, t);
        else if (strcmp(kind, "ack") == 0 && dev == FLOOD_DEV && flood)
            flood_acks++;
        else if (strcmp(kind, "ack") == 0 &&
                 tny_wire_decode_ack(m->payload, m->len, &ack, &d) == 0 &&
                 acked_at[dev] == 0) {
            acked_at[dev] = t;
            acked_status[dev] = (int)ack.status;
        }
    }
}

/* Drains both clients' events, waiting up to wait_ms for the first. */
static void pump(int wait_ms)
{
    struct pollfd p[3] = {
        {.fd = tny_mqtt_wakeup_fd(cli), .events = POLLIN},
        {.fd = watch ? tny_mqtt_wakeup_fd(watch) : -1, .events = POLLIN},
        {.fd = flood ? tny_mqtt_wakeup_fd(flood) : -1, .events = POLLIN}};
    if (poll(p, 3, wait_ms) <= 0)
        return;
    struct tny_mqtt *c[3] = {cli, watch, flood};
    for (int i = 0; i < 3; i++) {
        struct tny_mqtt_message m;
        while (c[i] && tny_mqtt_next_message(c[i], &m) == 0) {
            handle(&m, now_s());
            tny_mqtt_message_release(&m);
        }
    }
}

static const char *event_of(int dev)
{
    if (soak_minutes)
        return "soak";
    return dev >= D_FIRST ? "d1000" : dev >= C_FIRST ? "c500" : "live";
}

static int table_of(int dev)
{
    return dev - (dev >= D_FIRST ? D_FIRST : dev >= C_FIRST ? C_FIRST : 1) + 1;
}

static void submit_via(struct tny_mqtt *via, int dev, const char *key);

static void submit(int dev, const char *key)
{
    submit_via(cli, dev, key);
}

/* Publishes device dev's round 1 result with idempotency key `key`
 * through client `via`; false (nothing sent) when via's buffer is full and
 * `via` is the flooder, which then waits for the next turn. */
static bool try_submit(struct tny_mqtt *via, int dev, const char *key);

static void submit_via(struct tny_mqtt *via, int dev, const char *key)
{
    while (!try_submit(via, dev, key))
        pump(1); /* Paho's buffer full: let it drain */
}

static bool try_submit(struct tny_mqtt *via, int dev, const char *key)
{
    bool sent;
    struct tny_wire_submission sub;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    char topic[128];
    memset(&sub, 0, sizeof(sub));
    snprintf(sub.key, sizeof(sub.key), "%s", key);
    snprintf(sub.device_id, sizeof(sub.device_id), "table-%04d", dev);
    snprintf(sub.event_id, sizeof(sub.event_id), "%s", event_of(dev));
    sub.round = soak_minutes ? soak_round : 1;
    sub.table = table_of(dev);
    sub.result.game = TNY_GAME_GOT_LCG2;
    const char *seat[2] = {soak_minutes ? soak_seat[dev][0] : seat_ids[dev * 2],
                           soak_minutes ? soak_seat[dev][1]
                                        : seat_ids[dev * 2 + 1]};
    snprintf(sub.result.winner_id, sizeof(sub.result.winner_id), "%s",
             seat[(dev + soak_round) % 2]);
    sub.n_confirmed = 2;
    for (int k = 0; k < 2; k++)
        snprintf(sub.confirmed[k], sizeof(sub.confirmed[k]), "%s", seat[k]);
    if (tny_wire_encode_submission(&sub, &buf, &len, &d) < 0) {
        fprintf(stderr, "encode: %s\n", d.msg);
        die("encode");
    }
    snprintf(topic, sizeof(topic), PREFIX "device/%s/result", sub.device_id);
    if (via != flood)
        sent_at[dev] = now_s();
    sent = tny_mqtt_publish(via, topic, buf, len, 1, false, NULL, &d) == 0;
    free(buf);
    return sent;
}

/* (f) with --presence-flood: device dev's presence number k (online,
 * its queue count changing), through the flooder. */
static bool try_presence(struct tny_mqtt *via, int dev, int k)
{
    struct tny_wire_presence p = {.state = TNY_WIRE_PRESENCE_ONLINE,
                                  .queued_results = k % 1000};
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    char topic[128];
    snprintf(p.device_id, sizeof(p.device_id), "table-%04d", dev);
    snprintf(p.software_version, sizeof(p.software_version), "bench");
    snprintf(topic, sizeof(topic), PREFIX "device/%s/presence", p.device_id);
    if (tny_wire_encode_presence(&p, &buf, &len, &d) < 0)
        die("encode presence");
    bool sent = tny_mqtt_publish(via, topic, buf, len, 1, false, NULL, &d) == 0;
    free(buf);
    return sent;
}

static int missing_acks(int first, int last)
{
    int missing = 0;
    for (int t = first; t <= last; t++)
        missing += acked_at[t] == 0;
    return missing;
}

static void wait_acks(int first, int last, double timeout_s)
{
    double until = now_s() + timeout_s * slow;
    while (missing_acks(first, last) && now_s() < until)
        pump(50);
}

/* Waits until devices first..last all show `round`; returns when the last
 * of them got it (0: timed out). */
static double wait_assignments(int first, int last, int round, double timeout_s)
{
    double until = now_s() + timeout_s * slow;
    for (;;) {
        int missing = 0;
        double latest = 0;
        for (int t = first; t <= last; t++) {
            missing += assign_round[t] != round;
            if (assign_at[t] > latest)
                latest = assign_at[t];
        }
        if (!missing)
            return latest;
        if (now_s() > until) {
            fprintf(stderr, "bench_live: %d devices without round %d\n",
                    missing, round);
            return 0;
        }
        pump(5);
    }
}

/* Sends one console command as the organiser "bench" and waits for its
 * reply; returns the time the reply arrived. */
static double console(enum tny_wire_cmd cmd, const char *event, int round)
{
    static unsigned counter;
    struct tny_wire_request req;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    memset(&req, 0, sizeof(req));
    snprintf(req.correlation_id, sizeof(req.correlation_id), "bench.%d.%u",
             (int)getpid(), ++counter);
    snprintf(req.organiser_id, sizeof(req.organiser_id), "bench");
    snprintf(req.event_id, sizeof(req.event_id), "%s", event);
    req.cmd = cmd;
    req.round = round;
    if (tny_wire_encode_request(&req, &buf, &len, &d) < 0)
        die("encode request");
    snprintf(want_corr, sizeof(want_corr), "%s", req.correlation_id);
    reply_seen = 0;
    while (tny_mqtt_publish(cli, PREFIX "ctl/bench/req", buf, len, 1, false,
                            NULL, &d) < 0)
        pump(1);
    free(buf);
    for (double until = now_s() + 30 * slow; !reply_seen && now_s() < until;)
        pump(5);
    double t = now_s();
    if (!reply_seen || reply_rc != 0) {
        fprintf(stderr, "bench_live: console %s: %s\n", tny_wire_cmd_name(cmd),
                reply_seen ? reply_msg : "no reply");
        die("console command failed");
    }
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void stop_hub(void)
{
    int st;
    kill(hub_pid, SIGTERM);
    waitpid(hub_pid, &st, 0);
    hub_pid = -1;
}

static void print_load(const char *when)
{
    char line[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(line, sizeof(line), f))
            snprintf(line, sizeof(line), "?\n");
        fclose(f);
    }
    printf("load average %s: %s", when, line);
}

static struct tny_mqtt *open_client(const char *login,
                                    const struct tny_mqtt_subscription *subs,
                                    int n_subs)
{
    char uri[64];
    snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", port);
    const char *servers[] = {uri};
    struct tny_mqtt_options o;
    struct tny_mqtt *c = NULL;
    struct tny_diag d = {{0}};
    tny_mqtt_options_init(&o);
    o.servers = servers;
    o.n_servers = 1;
    o.client_id = login;
    o.password = "bench-pw";
    o.subs = subs;
    o.n_subs = n_subs;
    o.max_queued = 100000;
    o.max_buffered = 10000;
    if (tny_mqtt_open(&o, &c, &d) < 0) {
        fprintf(stderr, "mqtt: %s\n", d.msg);
        die("mqtt open");
    }
    return c;
}

/* Opens `watch` and waits until it holds every device's retained
 * assignment state (round 1 for live and d1000; c500 has none yet). */
static void open_watch(void)
{
    static const struct tny_mqtt_subscription sub = {PREFIX "device/+/assign",
                                                     1};
    watch = open_client("benchwatch", &sub, 1);
    int missing = 1;
    for (double until = now_s() + 20 * slow; missing && now_s() < until;) {
        pump(20);
        missing = 0;
        for (int t = LIVE_FIRST; t < C_FIRST && !soak_minutes; t++)
            missing += assign_round[t] != 1;
        for (int t = D_FIRST; t <= N_DEVICES && !soak_minutes; t++)
            missing += assign_round[t] != 1;
        for (int t = C_FIRST; t < D_FIRST && soak_minutes; t++)
            missing += assign_round[t] != 1;
    }
    if (missing)
        die("the retained assignments did not arrive");
}

/* Prints p50 / p99 of each stage of the results of devices first..last
 * (those acknowledged), from the hub's result trace (hub_loop.c, log level
 * debug) and this client's send and ack times, all CLOCK_MONOTONIC:
 * in (sent -> the hub's adapter has it: client, broker, hub's Paho),
 * adapter (-> in the hub's fair queue), queue (-> its batch begins),
 * commit (-> validated, stored, fsync'd), publish (-> its ack handed to
 * Paho, the batch's acks in turn), out (-> the ack is here: Paho, broker,
 * this client).  A device's last traced result is taken. */
static void print_stages(const char *label, int first, int last)
{
    enum { IN, ADAPTER, QUEUE, COMMIT, PUBLISH, OUT, N_STAGES };
    static const char *const names[N_STAGES] = {"in",     "adapter", "queue",
                                                "commit", "publish", "out"};
    double *st[N_STAGES], *v = calloc((size_t)N_DEVICES + 1, sizeof(*v));
    bool *have = calloc((size_t)N_DEVICES + 1, sizeof(*have));
    char path[128], line[512];
    for (int k = 0; k < N_STAGES; k++)
        if (!(st[k] = calloc((size_t)N_DEVICES + 1, sizeof(double))))
            die("oom");
    if (!v || !have)
        die("oom");
    snprintf(path, sizeof(path), "%s/hub.log", tmp);
    FILE *f = fopen(path, "r");
    if (!f)
        die("no hub log");
    while (fgets(line, sizeof(line), f)) {
        const char *t = strstr(line, "result trace device=table-");
        int dev, size;
        long long rx, queued, batch, done, pub;
        if (!t ||
            sscanf(t,
                   "result trace device=table-%d batch_size=%d rx=%lld "
                   "queued=%lld batch=%lld done=%lld pub=%lld",
                   &dev, &size, &rx, &queued, &batch, &done, &pub) != 7 ||
            dev < first || dev > last || acked_at[dev] == 0)
            continue;
        double us[] = {(double)rx, (double)queued, (double)batch, (double)done,
                       (double)pub};
        st[IN][dev] = us[0] / 1000.0 - sent_at[dev] * 1000.0;
        for (int k = 1; k < 5; k++)
            st[k][dev] = (us[k] - us[k - 1]) / 1000.0;
        st[OUT][dev] = acked_at[dev] * 1000.0 - us[4] / 1000.0;
        have[dev] = true;
    }
    fclose(f);
    printf("%s stages (ms, p50 / p99):", label);
    for (int k = 0; k < N_STAGES; k++) {
        int n = 0;
        for (int d = first; d <= last; d++)
            if (have[d])
                v[n++] = st[k][d];
        if (n == 0)
            continue;
        qsort(v, (size_t)n, sizeof(double), cmp_double);
        printf(" %s %.2f / %.2f%s", names[k], v[n / 2],
               v[(n * 99) / 100 - (n >= 100)], k + 1 < N_STAGES ? "," : "");
        check(n > 0, "a stage without a traced result (hub log level?)");
    }
    printf("\n");
    for (int k = 0; k < N_STAGES; k++)
        free(st[k]);
    free(v);
    free(have);
}

/* (b) 200 tables, each one result, spread uniformly over 4 s, beginning
 * settle_s (--settle S, 5 unless given) after the hub came online: its
 * start-up feed (every event's documents, through Paho and the broker)
 * is out by then, and (b) measures a running hub, not a starting one
 * (issue 17: with --settle 0 the start-up feed set (b)'s p99). */
static void bench_latency(void)
{
    for (double until = now_s() + settle_s; now_s() < until;)
        pump(50);
    printf("(b) begins %d s after the hub came online\n", settle_s);
    struct tny_rng rng;
    tny_rng_seed(&rng, 1);
    double at[201];
    for (int t = 1; t <= 200; t++)
        at[t] = (double)tny_rng_below(&rng, 4000) / 1000.0;
    double start = now_s();
    for (int done = 0; done < 200;) {
        double now = now_s() - start;
        for (int t = 1; t <= 200; t++)
            if (at[t] >= 0 && at[t] <= now) {
                char key[32];
                snprintf(key, sizeof(key), "b-%d", t);
                submit(t, key);
                at[t] = -1;
                done++;
            }
        pump(1);
    }
    wait_acks(1, 200, 10);
    double lat[200];
    int n_lat = 0;
    for (int t = 1; t <= 200; t++)
        if (acked_at[t] > 0)
            lat[n_lat++] = (acked_at[t] - sent_at[t]) * 1000.0;
    qsort(lat, (size_t)n_lat, sizeof(double), cmp_double);
    check(n_lat == 200, "(b): not every one of the 200 results was acked");
    if (n_lat > 0) {
        double p99 = lat[(n_lat * 99) / 100 - (n_lat >= 100)];
        printf("(b) 200 tables over 4 s: ack latency p50 %.2f ms, p99 %.2f "
               "ms, max %.2f ms (%d acks)\n",
               lat[n_lat / 2], p99, lat[n_lat - 1], n_lat);
        /* Issue 17's goal: the ack's p99 within 2x the disk's own. */
        check(disk_p99_ms > 0, "(b): no fdatasync p99 of the disk");
        if (disk_p99_ms > 0)
            printf("(b) ack p99 %.2f ms against the disk's fdatasync p99 "
                   "%.2f ms: %.1fx (goal <= 2x: %s)\n",
                   p99, disk_p99_ms, p99 / disk_p99_ms,
                   p99 <= 2 * disk_p99_ms ? "met" : "missed");
    }
    print_stages("(b)", 1, 200);
}

/* (a) 500 tables at once: durable results per second. */
static void bench_throughput(void)
{
    double start = now_s();
    for (int t = 201; t <= 700; t++) {
        char key[32];
        snprintf(key, sizeof(key), "a-%d", t);
        submit(t, key);
        pump(0);
    }
    wait_acks(201, 700, 60);
    double last = 0;
    int accepted = 0, got = 0;
    for (int t = 201; t <= 700; t++) {
        if (acked_at[t] > last)
            last = acked_at[t];
        got += acked_at[t] > 0;
        accepted += acked_status[t] == TNY_WIRE_ACK_ACCEPTED;
    }
    check(got == 500 && accepted == 500,
          "(a): results sent != results acked (accepted)");
    printf("(a) 500 tables at once: %d acks (%d accepted) in %.3f s: %.0f "
           "durable results/s\n",
           got, accepted, last - start, got / (last - start));
}

/* (c) publish round 1 of c500 -> every table has its assignment. */
static void bench_publish(void)
{
    double start = now_s();
    double replied = console(TNY_WIRE_CMD_PUBLISH_ROUND, "c500", 1);
    double all = wait_assignments(C_FIRST, C_FIRST + C_TABLES - 1, 1, 10);
    check(all > 0, "(c): a table without its round 1 assignment");
    printf("(c) 500 tables: publish sent -> reply %.1f ms, -> every table "
           "has its assignment %.1f ms\n",
           (replied - start) * 1000.0, (all - start) * 1000.0);
}

/* (d) d1000: 999 results in, then the last one; the organiser closes,
 * pairs and publishes round 2 as soon as each step is answered. */
/* A process's CPU time so far (user + system, every thread; ms, at the
 * kernel's tick), -1 when /proc does not say. */
static double proc_cpu_ms(pid_t pid)
{
    char path[64], line[512];
    unsigned long long ut = 0, st = 0;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    const char *p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
    fclose(f);
    if (!p ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
               &ut, &st) != 2)
        return -1;
    return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static void bench_turnaround(void)
{
    int last_dev = D_FIRST + d_tables - 1;
    for (int t = D_FIRST; t < last_dev; t++) {
        char key[32];
        snprintf(key, sizeof(key), "d-%d", t);
        submit(t, key);
        pump(0);
    }
    wait_acks(D_FIRST, last_dev - 1, 60);
    print_load("(d) before the last result");
    /* Where the wall clock went: each process's CPU over the turnaround
     * (the hub with its feed thread, the broker, this client). */
    double cpu0[3] = {proc_cpu_ms(hub_pid), proc_cpu_ms(broker_pid),
                      proc_cpu_ms(getpid())};
    double start = now_s();
    submit(last_dev, "d-last");
    wait_acks(last_dev, last_dev, 10);
    double acked = now_s();
    check(missing_acks(D_FIRST, last_dev) == 0, "(d): a result not acked");
    double closed = console(TNY_WIRE_CMD_CLOSE_ROUND, "d1000", 1);
    double paired = console(TNY_WIRE_CMD_PAIR_ROUND, "d1000", 0);
    double published = console(TNY_WIRE_CMD_PUBLISH_ROUND, "d1000", 2);
    double all = wait_assignments(D_FIRST, last_dev, 2, 20);
    double cpu1[3] = {proc_cpu_ms(hub_pid), proc_cpu_ms(broker_pid),
                      proc_cpu_ms(getpid())};
    check(all > 0, "(d): a table without its round 2 assignment");
    printf(
        "(d) %d tables (%d players): last result sent -> ack %.1f ms, -> close "
        "%.1f ms, -> pair %.1f ms, -> publish %.1f ms, -> every table has "
        "its round 2 assignment %.1f ms\n",
        d_tables, 2 * d_tables, (acked - start) * 1000.0,
        (closed - start) * 1000.0, (paired - start) * 1000.0,
        (published - start) * 1000.0, (all - start) * 1000.0);
    check(cpu0[0] >= 0 && cpu1[0] >= 0 && cpu0[1] >= 0 && cpu1[1] >= 0 &&
              cpu0[2] >= 0 && cpu1[2] >= 0,
          "(d): the processes' CPU time not read from /proc");
    /* The window in CLOCK_MONOTONIC seconds, for a profile taken with
     * `perf record -k CLOCK_MONOTONIC` (perf report --time FROM,TO). */
    printf("(d) CPU over that turnaround (ms, at the kernel's tick): hub "
           "%.0f, broker %.0f, this client %.0f; wall %.0f (monotonic "
           "%.6f,%.6f)\n",
           cpu1[0] - cpu0[0], cpu1[1] - cpu0[1], cpu1[2] - cpu0[2],
           (all - start) * 1000.0, start, all);
    print_load("(d) after");
    if (slow > 1) {
        /* Under a profiler: the hub's work after the turnaround (the
         * feed's documents) finishes before the hub is stopped, so a
         * profile dumped at "(d) after" and one at the end compare. */
        for (double until = now_s() + 2 * slow; now_s() < until;)
            pump(50);
        printf("(d) settled\n");
    }
}

/* A process's CPU time so far (every thread, ns: the scheduler's own
 * count, not the 10 ms tick of /proc's stat), -1 when not readable. */
static double proc_cpu_ns(pid_t pid)
{
    clockid_t id;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &id) != 0 || clock_gettime(id, &ts) != 0)
        return -1;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* (g) the hub's CPU per result with the feed on, at d_tables tables
 * (2 x d_tables players): the hub's idle CPU over a window first (the
 * feed on, nothing arriving: Paho's threads, timers), then d1000's
 * round 1 results (--results N of them, every table's unless given)
 * sent at cpu_pace a second (--pace R), each device its
 * own, and the hub's CPU from the first sent to 1 s after the last ack
 * (the coalesced feed builds after the last result included); per
 * result = (that CPU - the idle rate x that wall time) / results. */
static void bench_cpu(void)
{
    int n = cpu_results > 0 && cpu_results < d_tables ? cpu_results : d_tables;
    int first = D_FIRST, last = D_FIRST + n - 1;
    double span = (double)n / cpu_pace + 1.0;
    /* Let the start-up's feed builds and retained republish finish. */
    for (double until = now_s() + 5; now_s() < until;)
        pump(50);
    print_load("(g) before");
    double i0 = proc_cpu_ns(hub_pid), it0 = now_s();
    for (double until = it0 + span; now_s() < until;)
        pump(50);
    double i1 = proc_cpu_ns(hub_pid), it1 = now_s();
    double r0 = proc_cpu_ns(hub_pid), start = now_s();
    for (int k = 0; k < n;) {
        if (now_s() >= start + (double)k / cpu_pace) {
            char key[32];
            snprintf(key, sizeof(key), "g-%d", first + k);
            submit(first + k, key);
            k++;
            pump(0);
        } else {
            pump(1);
        }
    }
    wait_acks(first, last, 60);
    double acked = now_s();
    for (double until = acked + 1.0; now_s() < until;)
        pump(50);
    double r1 = proc_cpu_ns(hub_pid), end = now_s();
    int missing = missing_acks(first, last), refused = 0;
    for (int t = first; t <= last; t++)
        refused += acked_at[t] > 0 && acked_status[t] != TNY_WIRE_ACK_ACCEPTED;
    check(missing == 0, "(g): a result sent and not acknowledged");
    check(refused == 0, "(g): a result not accepted (the ack's status)");
    check(i0 >= 0 && i1 >= 0 && r0 >= 0 && r1 >= 0,
          "(g): the hub's CPU clock not readable");
    double idle_ms = (i1 - i0) / 1e6, run_ms = (r1 - r0) / 1e6;
    double idle_rate = idle_ms / (it1 - it0); /* ms of CPU per second */
    int acked_n = n - missing;
    double per =
        acked_n > 0 ? (run_ms - idle_rate * (end - start)) / acked_n : -1;
    check(per > 0, "(g): no CPU per result");
    printf("(g) %d tables (%d players), feed %s: %d results sent at %d/s, "
           "%d acknowledged, the last %.2f s after the first was sent\n",
           d_tables, 2 * d_tables, feed ? "on" : "off", n, cpu_pace, acked_n,
           acked - start);
    printf("(g) hub CPU: idle %.0f ms over %.1f s (%.2f ms/s); results "
           "%.0f ms over %.1f s -> %.3f ms per result beyond idle "
           "(goal <= 2 ms: %s)\n",
           idle_ms, it1 - it0, idle_rate, run_ms, end - start, per,
           per > 0 && per <= 2.0 ? "met" : "missed");
    print_load("(g) after");
}

/* (e) restart with >= 10,000 stored results. */
static void bench_restart(void)
{
    stop_hub();
    for (double until = now_s() + 5; hub_online && now_s() < until;)
        pump(50);
    acked_at[1] = 0;
    hub_online = 0;
    double start = now_s();
    start_hub();
    for (double until = now_s() + 30; !hub_online && now_s() < until;)
        pump(5);
    double online = online_at - start;
    check(hub_online, "(e): the hub did not come online again");
    submit(1, "b-1"); /* a repeated key: answered from the store */
    wait_acks(1, 1, 10);
    check(acked_at[1] > 0, "(e): no ack after the restart");
    printf("(e) restart with %d stored results: exec -> hub/state "
           "online %.0f ms, exec -> first ack %.0f ms\n",
           big_players / 2 * 10, online * 1000.0,
           (acked_at[1] - start) * 1000.0);
}

/* (f) One table login (table-0700, its own connection, its ACL allowing
 * only its result topic) floods FLOOD_N QoS 1 results as fast as the
 * broker takes them; 0.5 s in, tables 1..200 each send one result,
 * spread over 4 s as in (b).  Their ack latency is what the flood costs
 * the honest tables (the hub's fair queue, hub_loop.c). */
#define FLOOD_N 50000
static void bench_flood(void)
{
    struct tny_rng rng;
    double at[201], lat[200];
    int n_lat = 0, flood_sent = 0, honest_sent = 0;
    char key[32];
    flood = open_client("benchflood", NULL, 0);
    for (double until = now_s() + 5;
         !tny_mqtt_is_connected(flood) && now_s() < until;)
        pump(10);
    tny_rng_seed(&rng, 2);
    for (int t = 1; t <= 200; t++) {
        at[t] = 0.5 + (double)tny_rng_below(&rng, 4000) / 1000.0;
        acked_at[t] = 0;
    }
    flood_acks = 0;
    double start = now_s();
    while (honest_sent < 200 || missing_acks(1, 200)) {
        if (now_s() - start > 60)
            break;
        /* The flooder: as many as its client buffer takes this turn. */
        for (int k = 0; k < 200 && flood_sent < FLOOD_N; k++) {
            snprintf(key, sizeof(key), "flood-%d", flood_sent);
            if (presence_flood ? !try_presence(flood, FLOOD_DEV, flood_sent)
                               : !try_submit(flood, FLOOD_DEV, key))
                break;
            flood_sent++;
        }
        double now = now_s() - start;
        for (int t = 1; t <= 200; t++)
            if (at[t] >= 0 && at[t] <= now) {
                snprintf(key, sizeof(key), "f-%d", t);
                submit(t, key);
                at[t] = -1;
                honest_sent++;
            }
        pump(1);
    }
    double honest_done = now_s() - start;
    for (int t = 1; t <= 200; t++)
        if (acked_at[t] > 0)
            lat[n_lat++] = (acked_at[t] - sent_at[t]) * 1000.0;
    qsort(lat, (size_t)n_lat, sizeof(double), cmp_double);
    check(n_lat == 200, "(f): not every honest table's result was acked");
    if (n_lat > 0)
        printf("(f) flood of %d %s from one table login (%d sent in "
               "%.1f s, %ld acked): the 200 honest tables' ack latency p50 "
               "%.2f ms, p99 %.2f ms, max %.2f ms (%d acks)\n",
               FLOOD_N, presence_flood ? "presence messages" : "results",
               flood_sent, honest_done, flood_acks, lat[n_lat / 2],
               lat[(n_lat * 99) / 100 - (n_lat >= 100)], lat[n_lat - 1], n_lat);
    else
        printf("(f) flood: no honest table got an ack within 60 s\n");
    print_stages("(f) honest tables'", 1, 200);
    tny_mqtt_close(flood);
    flood = NULL;
}

/* (s) The hub's resources from /proc: RSS (KiB), open fds, CPU ticks. */
static void hub_usage(long *rss_kb, int *fds, long long *ticks)
{
    char path[64], line[256];
    *rss_kb = 0;
    *fds = 0;
    *ticks = 0;
    snprintf(path, sizeof(path), "/proc/%d/status", (int)hub_pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld", rss_kb) == 1)
            break;
    if (f)
        fclose(f);
    snprintf(path, sizeof(path), "/proc/%d/fd", (int)hub_pid);
    FILE *ls = NULL;
    char cmd[96];
    snprintf(cmd, sizeof(cmd), "ls %s | wc -l", path);
    if ((ls = popen(cmd, "r"))) {
        if (fscanf(ls, "%d", fds) != 1)
            *fds = 0;
        pclose(ls);
    }
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)hub_pid);
    if ((f = fopen(path, "r"))) {
        unsigned long long ut = 0, st = 0;
        /* fields 14 and 15, after the ")" of the command name */
        if (fgets(line, sizeof(line), f)) {
            const char *p = strrchr(line, ')');
            if (p && sscanf(p + 2,
                            "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
                            "%*u %llu %llu",
                            &ut, &st) == 2)
                *ticks = (long long)(ut + st);
        }
        fclose(f);
    }
}

/* (s) per round: the hub's RSS halfway through its results (KiB), the
 * largest RSS sampled (about once a second) while it was played, its
 * turnaround and its acks' p50 / p99. */
#define SOAK_MAX_ROUNDS 999
struct soak_round {
    long rss_mid, rss_max;
    double turn, p50, p99;
};

static double pct(const double *sorted, int n, int p)
{
    if (n <= 0)
        return 0;
    int i = (n * p) / 100 - (p == 99 && n >= 100);
    return sorted[i < n ? i : n - 1];
}

/* (s) the mean of rounds [a, b) of r[]: RSS (halfway), largest RSS,
 * turnaround, ack p50 and p99 (means of the rounds' percentiles). */
static void soak_mean(const struct soak_round *r, int a, int b, double out[5])
{
    memset(out, 0, 5 * sizeof(double));
    for (int i = a; i < b; i++) {
        out[0] += (double)r[i].rss_mid / 1024.0;
        out[1] += (double)r[i].rss_max / 1024.0;
        out[2] += r[i].turn;
        out[3] += r[i].p50;
        out[4] += r[i].p99;
    }
    for (int k = 0; k < 5 && b > a; k++)
        out[k] /= (double)(b - a);
}

/* (s) one round: C_TABLES results spread over soak_spread s (each once,
 * RSS sampled about once a second into *r), every ack awaited, then close,
 * pair and publish the next round from the console; r->turn is the last
 * ack to every table holding the next round.  Ack latencies go to rlat
 * (n_rlat) and, while there is room, to lat (*n_lat).  Dies when a result
 * is not acknowledged or an assignment is missing. */
static void soak_play_round(struct tny_rng *rng, struct soak_round *r,
                            double *lat, int lat_cap, int *n_lat,
                            long *sent_total, long *acked_total)
{
    const int first = C_FIRST, last = C_FIRST + C_TABLES - 1;
    static double rlat[C_TABLES];
    double at[C_TABLES];
    memset(r, 0, sizeof(*r));
    for (int t = 0; t < C_TABLES; t++) {
        at[t] =
            (double)tny_rng_below(rng, (uint64_t)soak_spread * 1000u) / 1000.0;
        acked_at[first + t] = 0;
        acked_status[first + t] = -1;
    }
    double start = now_s(), sample_at = start;
    for (int sent = 0; sent < C_TABLES;) {
        double now = now_s() - start;
        for (int t = 0; t < C_TABLES; t++)
            if (at[t] >= 0 && at[t] <= now) {
                char key[32];
                snprintf(key, sizeof(key), "s%d-%d", soak_round, t);
                submit(first + t, key);
                at[t] = -1;
                sent++;
                (*sent_total)++;
            }
        if (now_s() >= sample_at) { /* about once a second */
            long kb;
            long long tk;
            int fd;
            hub_usage(&kb, &fd, &tk);
            if (kb > r->rss_max)
                r->rss_max = kb;
            if (!r->rss_mid && now >= soak_spread / 2.0)
                r->rss_mid = kb;
            sample_at = now_s() + 1.0;
        }
        pump(5);
    }
    wait_acks(first, last, 60);
    double acked = 0;
    int n_rlat = 0;
    for (int d = first; d <= last; d++) {
        if (acked_at[d] > acked)
            acked = acked_at[d];
        *acked_total += acked_status[d] == TNY_WIRE_ACK_ACCEPTED;
        if (acked_at[d] > 0) {
            double ms = (acked_at[d] - sent_at[d]) * 1000.0;
            rlat[n_rlat++] = ms;
            if (*n_lat < lat_cap)
                lat[(*n_lat)++] = ms;
        }
    }
    if (missing_acks(first, last)) {
        fprintf(stderr, "(s) round %d: %d results not acknowledged\n",
                soak_round, missing_acks(first, last));
        check(false, "(s): a result sent and not acknowledged");
    }
    qsort(rlat, (size_t)n_rlat, sizeof(double), cmp_double);
    r->p50 = pct(rlat, n_rlat, 50);
    r->p99 = pct(rlat, n_rlat, 99);
    (void)console(TNY_WIRE_CMD_CLOSE_ROUND, "soak", soak_round);
    (void)console(TNY_WIRE_CMD_PAIR_ROUND, "soak", 0);
    (void)console(TNY_WIRE_CMD_PUBLISH_ROUND, "soak", soak_round + 1);
    double all = wait_assignments(first, last, soak_round + 1, 60);
    if (all == 0)
        die("(s) the next round's assignments did not all arrive");
    soak_round++;
    r->turn = all - acked;
    if (!r->rss_mid) /* a spread under a second */
        r->rss_mid = r->rss_max;
}

static void bench_soak(void)
{
    const int first = C_FIRST, last = C_FIRST + C_TABLES - 1;
    const double end = now_s() + soak_minutes * 60.0;
    const long hz = sysconf(_SC_CLK_TCK);
    static double lat[C_TABLES * 64];
    static struct soak_round rs[SOAK_MAX_ROUNDS + 1];
    double turn[64];
    int n_lat = 0, n_turn = 0, minute = 0, n_rs = 0;
    long rss, rss_max = 0, sent_total = 0, acked_total = 0;
    int fds;
    long long ticks, ticks0;
    struct tny_rng rng;
    tny_rng_seed(&rng, 5);
    hub_usage(&rss, &fds, &ticks0);
    double minute_at = now_s();
    printf("(s) minute  rss_MB  rss_max_MB  fds  cpu_%%  acks  ack_p50_ms  "
           "ack_p99_ms  rounds  turnaround_s\n");
    printf("(s) %6d  %6.1f  %10s  %3d  %5s  %4s  %10s  %10s  %6s  %12s\n", 0,
           rss / 1024.0, "-", fds, "-", "-", "-", "-", "-", "-");
    fflush(stdout);
    if (wait_assignments(first, last, 1, 30) == 0)
        die("(s) round 1 assignments missing");
    while (now_s() < end && n_rs < SOAK_MAX_ROUNDS) {
        struct soak_round *r = &rs[n_rs];
        soak_play_round(&rng, r, lat, (int)(sizeof(lat) / sizeof(lat[0])),
                        &n_lat, &sent_total, &acked_total);
        if (r->rss_max > rss_max)
            rss_max = r->rss_max;
        n_rs++;
        if (n_turn < 64)
            turn[n_turn++] = r->turn;
        if (now_s() - minute_at >= 60.0 || now_s() >= end) {
            double wall = now_s() - minute_at;
            hub_usage(&rss, &fds, &ticks);
            qsort(lat, (size_t)n_lat, sizeof(double), cmp_double);
            double tsum = 0;
            for (int i = 0; i < n_turn; i++)
                tsum += turn[i];
            minute++;
            /* rss_MB: halfway through the minute's last round (results
             * flowing); rss_max_MB: the largest sample of the minute */
            printf("(s) %6d  %6.1f  %10.1f  %3d  %5.0f  %4d  %10.2f  %10.2f  "
                   "%6d  %12.2f\n",
                   minute, r->rss_mid / 1024.0, rss_max / 1024.0, fds,
                   100.0 * (double)(ticks - ticks0) / (double)hz / wall, n_lat,
                   pct(lat, n_lat, 50), pct(lat, n_lat, 99), n_turn,
                   n_turn ? tsum / n_turn : 0.0);
            fflush(stdout);
            check(n_lat > 0 && n_turn > 0 && r->rss_mid > 0 && fds > 0,
                  "(s): a minute without acks, rounds or the hub's figures");
            ticks0 = ticks;
            n_lat = n_turn = 0;
            rss_max = 0;
            minute_at = now_s();
        }
    }
    printf("(s) %d rounds in %d minutes; %ld results sent, %ld acknowledged "
           "accepted\n",
           soak_round - 1, soak_minutes, sent_total, acked_total);
    check(sent_total > 0 && acked_total == sent_total,
          "(s): results entered != results acknowledged accepted");
    check(n_rs >= 2, "(s): fewer than 2 rounds played");
    /* The hub that played them, idle 20 s (its feed out, nothing coming
     * in), against what the data itself needs: a fresh hub on the same
     * database, online with its retained state and feed out (20 s). */
    long fresh = 0, idle = 0;
    for (double until = now_s() + 20; now_s() < until;)
        pump(100);
    hub_usage(&idle, &fds, &ticks);
    printf("(s) the hub that played them, idle 20 s: rss %.1f MB, %d fds\n",
           idle / 1024.0, fds);
    stop_hub();
    hub_online = 0;
    start_hub();
    for (double until = now_s() + 30; !hub_online && now_s() < until;)
        pump(100);
    for (double until = now_s() + 20; now_s() < until;)
        pump(100);
    hub_usage(&fresh, &fds, &ticks);
    printf("(s) a fresh hub on the same database, online 20 s: rss %.1f MB, "
           "%d fds\n",
           fresh / 1024.0, fds);
    check(hub_online && fresh > 0, "(s): the fresh hub's RSS");
    /* The turnaround's yardstick: one more round played by the fresh hub
     * (what the data itself costs a round, without the day behind it). */
    struct soak_round fr;
    static double fresh_lat[C_TABLES];
    int n_fresh_lat = 0;
    long fresh_sent = 0, fresh_acked = 0;
    int fresh_round = soak_round;
    soak_play_round(&rng, &fr, fresh_lat, C_TABLES, &n_fresh_lat, &fresh_sent,
                    &fresh_acked);
    printf("(s) the fresh hub plays round %d: turnaround %.2f s, ack p50 "
           "%.2f ms, p99 %.2f ms; %ld sent, %ld acknowledged accepted\n",
           fresh_round, fr.turn, fr.p50, fr.p99, fresh_sent, fresh_acked);
    check(fresh_sent == C_TABLES && fresh_acked == fresh_sent && fr.turn > 0,
          "(s): the fresh hub's round");
    if (n_rs < 2)
        return;
    /* First rounds (after round 1, which warms up) against the last: a
     * tenth of the rounds each, at least 1. */
    int k = (n_rs - 1) / 10 > 0 ? (n_rs - 1) / 10 : 1;
    double f[5], l[5];
    soak_mean(rs, 1, 1 + k, f);
    soak_mean(rs, n_rs - k, n_rs, l);
    printf("(s) summary: rounds %d-%d against %d-%d: rss %.1f -> %.1f MB "
           "(max %.1f -> %.1f), turnaround %.2f -> %.2f s, ack p50 %.2f -> "
           "%.2f ms, p99 %.2f -> %.2f ms; last rounds' rss / fresh hub's "
           "%.1f MB = %.2f; idle / fresh = %.2f; last rounds' turnaround / "
           "the fresh hub's %.2f s = %.2f\n",
           2, 1 + k, n_rs - k + 1, n_rs, f[0], l[0], f[1], l[1], f[2], l[2],
           f[3], l[3], f[4], l[4], fresh / 1024.0,
           fresh > 0 ? l[0] / (fresh / 1024.0) : 0.0,
           fresh > 0 ? (double)idle / (double)fresh : 0.0, fr.turn,
           fr.turn > 0 ? l[2] / fr.turn : 0.0);
}

/* The disk's fdatasync latency: 400 in-place 4 KiB writes at 100/s. */
static void probe_disk(void)
{
    char path[96];
    char buf[4096];
    double lat[400];
    snprintf(path, sizeof(path), "%s/fsync.probe", tmp);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        die("fsync probe");
    memset(buf, 1, sizeof(buf));
    for (int i = 0; i < 400; i++) {
        double t = now_s();
        if (pwrite(fd, buf, sizeof(buf), (off_t)(i % 16) * 4096) < 0 ||
            fdatasync(fd) < 0)
            die("fsync probe");
        lat[i] = (now_s() - t) * 1000.0;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    close(fd);
    unlink(path);
    qsort(lat, 400, sizeof(double), cmp_double);
    printf("disk: fdatasync of a 4 KiB write p50 %.2f ms, p99 %.2f ms, max "
           "%.2f ms\n",
           lat[200], lat[396], lat[399]);
    disk_p99_ms = lat[396];
}

/* The command line: one row an option, read by parse_args() and printed
 * by usage(). */
enum opt_kind {
    OPT_ON,   /* sets *(bool *)target */
    OPT_OFF,  /* clears *(bool *)target */
    OPT_INT,  /* *(int *)target = its value, in min..max */
    OPT_WORD, /* *(const char **)target = its value, one of arg's "a|b" */
};
struct opt {
    const char *name;
    enum opt_kind kind;
    void *target;
    int min, max;
    const char *arg; /* the value's name in the usage */
    const char *help;
};
static bool soak; /* --soak: soak_minutes 60 unless --minutes */
static const struct opt opts[] = {
    {"--no-feed", OPT_OFF, &feed, 0, 0, NULL, "the hub's feed off"},
    {"--no-sync", OPT_OFF, &sync_db, 0, 0, NULL, "the hub's database_sync off"},
    {"--flood-only", OPT_ON, &flood_only, 0, 0, NULL, "(b) and (f) only"},
    {"--presence-flood", OPT_ON, &presence_flood, 0, 0, NULL,
     "(f) floods presence messages instead of results"},
    {"--turnaround-only", OPT_ON, &turnaround_only, 0, 0, NULL,
     "(d) only, with each process's CPU over it"},
    {"--latency-only", OPT_ON, &latency_only, 0, 0, NULL, "(b) only"},
    {"--cpu-only", OPT_ON, &cpu_only, 0, 0, NULL,
     "(g) only: the hub's CPU per result"},
    {"--pace", OPT_INT, &cpu_pace, 1, 100000, "R",
     "(g)'s results per second (100)"},
    {"--results", OPT_INT, &cpu_results, 1, INT_MAX, "N",
     "(g)'s results (every table's)"},
    {"--feed-interval", OPT_INT, &feed_interval_ms, 1, INT_MAX, "MS",
     "the hub's feed_interval_ms (its own)"},
    {"--settle", OPT_INT, &settle_s, 0, 600, "S",
     "(b) begins S s after the hub came online (5; 0: at once)"},
    {"--hub-log", OPT_WORD, &hub_log, 0, 0, "info|debug",
     "the hub's log level (info with --turnaround-only and --cpu-only, "
     "else debug)"},
    {"--tables", OPT_INT, &d_tables, 1, 8000, "N", "the tables of (d) (1000)"},
    {"--players", OPT_INT, &big_players, 2, 20000, "N",
     "the players of the restart event (e) (2000)"},
    {"--soak", OPT_ON, &soak, 0, 0, NULL, "(s) only, for 60 minutes"},
    {"--minutes", OPT_INT, &soak_minutes, 1, INT_MAX, "N",
     "(s) for N minutes (and --soak)"},
    {"--spread", OPT_INT, &soak_spread, 1, 600, "S",
     "(s): a round's results over S s (30)"},
};
#define N_OPTS ((int)(sizeof(opts) / sizeof(opts[0])))

/* Prints `problem` (when not NULL) and the usage to stderr; exits 1. */
static void usage(const char *problem)
{
    if (problem)
        fprintf(stderr, "bench_live: %s\n", problem);
    fprintf(stderr, "usage: bench_live [OPTION]... [HUB_BINARY]\n");
    for (int i = 0; i < N_OPTS; i++) {
        char left[48];
        snprintf(left, sizeof(left), "%s%s%s", opts[i].name,
                 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
        fprintf(stderr, "  %-26s %s\n", left, opts[i].help);
    }
    fprintf(stderr, "  %-26s %s\n", "HUB_BINARY",
            "../hub/tourney-hub next to this binary unless given");
    exit(1);
}

/* True when `v` is one of `choices` ("a|b|c"). */
static bool one_of(const char *v, const char *choices)
{
    size_t n = strlen(v);
    for (const char *c = choices; n > 0;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0)
            return true;
        if (!bar)
            return false;
        c = bar + 1;
    }
    return false;
}

/* Reads the options (opts) from argv; returns the index of the first
 * argument that is not one. */
static int parse_args(int argc, char **argv)
{
    char why[160];
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        const struct opt *o = NULL;
        for (int i = 0; i < N_OPTS && !o; i++)
            if (strcmp(argv[a], opts[i].name) == 0)
                o = &opts[i];
        if (!o) {
            snprintf(why, sizeof(why), "unknown option %.64s", argv[a]);
            usage(why);
        }
        if (o->kind == OPT_ON || o->kind == OPT_OFF) {
            *(bool *)o->target = o->kind == OPT_ON;
            continue;
        }
        const char *v = ++a < argc ? argv[a] : NULL;
        if (!v) {
            snprintf(why, sizeof(why), "%s: no %s given", o->name, o->arg);
            usage(why);
        }
        if (o->kind == OPT_WORD) {
            if (!one_of(v, o->arg)) {
                snprintf(why, sizeof(why), "%s: \"%.32s\" is not %s", o->name,
                         v, o->arg);
                usage(why);
            }
            *(const char **)o->target = v;
            continue;
        }
        char *end;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (errno || end == v || *end || n < o->min || n > o->max) {
            snprintf(why, sizeof(why),
                     "%s: \"%.32s\" is not a number in "
                     "%d..%d",
                     o->name, v, o->min, o->max);
            usage(why);
        }
        *(int *)o->target = (int)n;
    }
    return a;
}

int main(int argc, char **argv)
{
    int a = parse_args(argc, argv);
    if (soak && !soak_minutes)
        soak_minutes = 60;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    if (!hub_log)
        hub_log = turnaround_only || cpu_only ? "info" : "debug";
    const char *slow_env = getenv("BENCH_LIVE_SLOW");
    if (slow_env && atof(slow_env) >= 1)
        slow = atof(slow_env);
    sent_at = calloc((size_t)N_DEVICES + 1, sizeof(*sent_at));
    acked_at = calloc((size_t)N_DEVICES + 1, sizeof(*acked_at));
    assign_at = calloc((size_t)N_DEVICES + 1, sizeof(*assign_at));
    acked_status = calloc((size_t)N_DEVICES + 1, sizeof(*acked_status));
    assign_round = calloc((size_t)N_DEVICES + 1, sizeof(*assign_round));
    if (!sent_at || !acked_at || !assign_at || !acked_status || !assign_round)
        die("oom");
    if (a < argc) {
        snprintf(hub_bin, sizeof(hub_bin), "%s", argv[a]);
    } else {
        const char *slash = strrchr(argv[0], '/');
        int n = slash ? (int)(slash - argv[0]) : 1;
        snprintf(hub_bin, sizeof(hub_bin), "%.*s/../hub/tourney-hub", n,
                 slash ? argv[0] : ".");
    }
    if (access(hub_bin, X_OK) != 0)
        die("hub binary not found (give its path as the argument)");
    /* TMPDIR chooses the disk the database, the broker's files and the
     * disk probe are on (e.g. a tmpfs, to take a shared disk's write
     * stalls out of a soak). */
    const char *tmpdir = getenv("TMPDIR");
    if (snprintf(tmp, sizeof(tmp), "%s/tny-bench-live-XXXXXX",
                 tmpdir && *tmpdir ? tmpdir : "/tmp") >= (int)sizeof(tmp))
        die("TMPDIR: too long (at most 41 bytes)");
    if (!mkdtemp(tmp))
        die("mkdtemp");
    print_load("before");
    probe_disk();
    double t0 = now_s();
    start_broker();
    setup_db();
    write_hub_conf();
    printf("setup (broker; events of 700, 500 and %d tables; a "
           "%d-result event; feed %s, database_sync %s, hub log %s): %.1f "
           "s\n",
           d_tables, big_players / 2 * 10, feed ? "on" : "off",
           sync_db ? "on" : "off", hub_log, now_s() - t0);

    struct tny_mqtt_subscription subs[] = {
        {PREFIX "hub/state", 1},
        {PREFIX "device/+/ack", 1},
        {PREFIX "ctl/bench/resp", 1},
    };
    cli = open_client("bench", subs, 3);
    start_hub();
    for (double until = now_s() + 20 * slow; !hub_online && now_s() < until;)
        pump(100);
    if (!hub_online)
        die("hub did not come online (see its log in the temp dir)");

    if (cpu_only) {
        bench_cpu();
        goto done;
    }
    if (soak_minutes || turnaround_only) {
        open_watch();
        if (soak_minutes)
            bench_soak();
        else
            bench_turnaround();
        tny_mqtt_close(watch);
        watch = NULL;
        goto done;
    }
    bench_latency();
    if (latency_only)
        goto done;
    if (!flood_only) {
        bench_throughput();
        open_watch();
        bench_publish();
        bench_turnaround();
        tny_mqtt_close(watch);
        watch = NULL;
        bench_restart();
    }
    bench_flood();
done:
    print_load("after");

    tny_mqtt_close(cli);
    stop_hub();
    kill(broker_pid, SIGTERM);
    waitpid(broker_pid, NULL, 0);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    if (failures)
        fprintf(stderr, "bench_live: %d figure(s) not measured\n", failures);
    return failures ? 1 : 0;
}
