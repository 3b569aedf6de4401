/* bench_live.c - the live system under load: its own mosquitto (venue
 * config from deploy/broker/gen-config.sh, 127.0.0.1, a free port) and its
 * own tourney-hub on a temp database (synchronous=FULL), driven by ONE
 * privileged MQTT client that publishes ResultSubmissions on behalf of the
 * devices and reads their acks.
 *
 * Measures (printed): (b) ack latency at 200 tables reporting at a
 * realistic pace, (a) durable results per second with 500 tables (each ack
 * comes only after its commit), (e) hub restart with >= 10,000 stored
 * results: exec -> hub/state online, and exec -> first ack.
 * Not measured here (yet): (c) publish -> assignments at 500 tables and (d)
 * round turnaround at 1,000 tables (they need the console protocol).
 *
 * The setup writes the database through the store API before the hub
 * starts (event, players, devices assigned to tables, round 1 published),
 * which is what the console would have done.  The load client logs in as
 * "bench", a login this program adds to ITS generated broker files only
 * (readwrite tourney/v1/#); the production ACL is untouched.
 *
 * usage: bench_live [HUB_BINARY]   (default: ../hub/tourney-hub next to
 * this binary in the build tree).  Not a test: nothing is asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

#define N_TABLES 700 /* 200 for (b), 500 for (a) */
#define N_PLAYERS (2 * N_TABLES)
#define PREFIX "tourney/v1/"

static char tmp[64], hub_bin[1024];
static pid_t broker_pid = -1, hub_pid = -1;
static int port;
static char **seat_ids; /* [table * 2 + k] player id, table from 1 */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

static int free_port(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) < 0)
        die("no free port");
    close(fd);
    return ntohs(a.sin_port);
}

static pid_t spawn(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
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
    port = free_port();
    snprintf(cmd, sizeof(cmd),
             "bash %s/deploy/broker/gen-config.sh --tables 0 --organisers o1 "
             "--monitors watch --bind 127.0.0.1 --port %d --run-as \"$(id "
             "-un)\" %s/broker >/dev/null && mosquitto_passwd -b "
             "%s/broker/passwd bench bench-pw && printf '\\nuser bench\\n"
             "topic readwrite tourney/v1/#\\n' >>%s/broker/acl",
             TNY_SOURCE_DIR, port, tmp, tmp, tmp);
    run(cmd);
    char conf[128], log[128];
    snprintf(conf, sizeof(conf), "%s/broker/mosquitto.conf", tmp);
    snprintf(log, sizeof(log), "%s/broker.log", tmp);
    char *argv[] = {"/usr/sbin/mosquitto", "-c", conf, NULL};
    broker_pid = spawn(argv, log);
    for (int i = 0; i < 100; i++) {
        struct sockaddr_in a = {.sin_family = AF_INET,
                                .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        int ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
        close(fd);
        if (ok)
            return;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    die("broker did not start");
}

#define CHECK(call)                                                            \
    do {                                                                       \
        if ((call) < 0) {                                                      \
            fprintf(stderr, "%s: %s\n", #call, diag.msg);                      \
            die("store setup");                                                \
        }                                                                      \
    } while (0)

/* The event "live" (got-lcg2, N_PLAYERS, round 1 published, devices
 * table-001.. assigned) and "big" (>= 10,000 stored results). */
static void setup_db(void)
{
    struct tny_diag diag = {{0}};
    struct hub_store *s = NULL;
    struct tny_event ev;
    struct tny_round_plan plan;
    char path[128];
    size_t cap = 256 + (size_t)N_PLAYERS * 64;
    char *text = malloc(cap);
    if (!text)
        die("oom");
    snprintf(path, sizeof(path), "%s/hub.db", tmp);
    CHECK(hub_store_open(path, &s, &diag));
    size_t len = (size_t)snprintf(text, cap,
                                  "{\"format\":\"got-lcg2\",\"seed\":7,"
                                  "\"players\":[");
    for (int i = 0; i < N_PLAYERS; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "%s{\"id\":\"p%d\",\"name\":\"P %d\"}",
                                i ? "," : "", i + 1, i + 1);
    snprintf(text + len, cap - len, "]}");
    CHECK(hub_store_create_event(s, "live", text, strlen(text), "hub", &diag));
    CHECK(hub_store_load_event(s, "live", &ev, &diag));
    CHECK(tny_pair_next(&ev, &plan, &diag));
    CHECK(hub_store_save_draft(s, "live", &ev, &plan, "hub", &diag));
    tny_round_plan_release(&plan);
    tny_event_release(&ev);
    CHECK(hub_store_set_round_status(s, "live", 1, HUB_ROUND_PUBLISHED, "hub",
                                     &diag));
    CHECK(hub_store_load_event(s, "live", &ev, &diag));
    seat_ids = calloc((size_t)(N_TABLES + 1) * 2, sizeof(char *));
    if (!seat_ids)
        die("oom");
    const struct tny_round *r = &ev.rounds[0];
    for (int32_t t = 0; t < r->n_tables; t++) {
        const struct tny_table *tb = &r->tables[t];
        if (tb->is_bye || tb->number > N_TABLES)
            continue;
        for (int k = 0; k < 2; k++)
            seat_ids[tb->number * 2 + k] = strdup(ev.players[tb->seats[k]].id);
    }
    tny_event_release(&ev);
    for (int t = 1; t <= N_TABLES; t++) {
        char dev[32];
        snprintf(dev, sizeof(dev), "table-%03d", t);
        CHECK(hub_store_device_register(s, dev, "hub", &diag));
        CHECK(hub_store_device_assign(s, dev, "live", t, "hub", &diag));
    }
    /* "big": 1000 players, 10 rounds of simulated results (10,000). */
    struct tny_rng rng;
    char *big = NULL;
    free(text);
    cap = 256 + 1000 * 64;
    if (!(text = malloc(cap)))
        die("oom");
    len = (size_t)snprintf(text, cap,
                           "{\"format\":\"got-lcg2\",\"seed\":9,"
                           "\"options\":{\"structure\":\"custom\","
                           "\"swiss_rounds\":11,\"cut\":0},\"players\":[");
    for (int i = 0; i < 2000; i++)
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
    char conf[128], log[128], pw[128];
    snprintf(conf, sizeof(conf), "%s/hub.conf", tmp);
    snprintf(log, sizeof(log), "%s/hub.log", tmp);
    snprintf(pw, sizeof(pw), "%s/hub.pw", tmp);
    char *argv[] = {hub_bin, "--config", conf, NULL};
    hub_pid = spawn(argv, log);
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
            "keepalive_s = 5\nfeed = false\nlog_level = \"warn\"\n",
            port, tmp, tmp);
    fclose(f);
}

/* ---- the load client ---------------------------------------------------- */

static struct tny_mqtt *cli;
static double sent_at[N_TABLES + 1], acked_at[N_TABLES + 1];
static int acked_status[N_TABLES + 1];
static int n_acked, hub_online;
static double online_at;

/* Drains the client's events, waiting up to wait_ms for the first. */
static void pump(int wait_ms)
{
    struct pollfd p = {.fd = tny_mqtt_wakeup_fd(cli), .events = POLLIN};
    if (poll(&p, 1, wait_ms) <= 0)
        return;
    struct tny_mqtt_message m;
    while (tny_mqtt_next_message(cli, &m) == 0) {
        double t = now_s();
        if (m.kind == TNY_MQTT_MESSAGE) {
            int table = 0;
            if (strcmp(m.topic, PREFIX "hub/state") == 0) {
                bool on = m.len == strlen(TNY_WIRE_HUB_ONLINE) &&
                          memcmp(m.payload, TNY_WIRE_HUB_ONLINE, m.len) == 0;
                if (on && !hub_online)
                    online_at = t;
                hub_online = on;
            } else if (sscanf(m.topic, PREFIX "device/table-%d/ack", &table) ==
                           1 &&
                       table >= 1 && table <= N_TABLES) {
                struct tny_wire_ack ack;
                struct tny_diag d = {{0}};
                if (tny_wire_decode_ack(m.payload, m.len, &ack, &d) == 0 &&
                    acked_at[table] == 0) {
                    acked_at[table] = t;
                    acked_status[table] = (int)ack.status;
                    n_acked++;
                }
            }
        }
        tny_mqtt_message_release(&m);
    }
}

static void submit(int table, const char *key)
{
    struct tny_wire_submission sub;
    struct tny_diag d = {{0}};
    uint8_t *buf = NULL;
    size_t len = 0;
    char topic[128];
    memset(&sub, 0, sizeof(sub));
    snprintf(sub.key, sizeof(sub.key), "%s", key);
    snprintf(sub.device_id, sizeof(sub.device_id), "table-%03d", table);
    snprintf(sub.event_id, sizeof(sub.event_id), "live");
    sub.round = 1;
    sub.table = table;
    sub.result.game = TNY_GAME_GOT_LCG2;
    snprintf(sub.result.winner_id, sizeof(sub.result.winner_id), "%s",
             seat_ids[table * 2]);
    sub.n_confirmed = 2;
    for (int k = 0; k < 2; k++)
        snprintf(sub.confirmed[k], sizeof(sub.confirmed[k]), "%s",
                 seat_ids[table * 2 + k]);
    if (tny_wire_encode_submission(&sub, &buf, &len, &d) < 0) {
        fprintf(stderr, "encode: %s\n", d.msg);
        die("encode");
    }
    snprintf(topic, sizeof(topic), PREFIX "device/%s/result", sub.device_id);
    sent_at[table] = now_s();
    while (tny_mqtt_publish(cli, topic, buf, len, 1, false, NULL, &d) < 0)
        pump(1); /* Paho's buffer full: let it drain */
    free(buf);
}

static void wait_acks(int first, int last, double timeout_s)
{
    double until = now_s() + timeout_s;
    for (;;) {
        int missing = 0;
        for (int t = first; t <= last; t++)
            missing += acked_at[t] == 0;
        if (!missing || now_s() > until)
            return;
        pump(50);
    }
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

int main(int argc, char **argv)
{
    if (argc > 1) {
        snprintf(hub_bin, sizeof(hub_bin), "%s", argv[1]);
    } else {
        const char *slash = strrchr(argv[0], '/');
        int n = slash ? (int)(slash - argv[0]) : 1;
        snprintf(hub_bin, sizeof(hub_bin), "%.*s/../hub/tourney-hub", n,
                 slash ? argv[0] : ".");
    }
    if (access(hub_bin, X_OK) != 0)
        die("hub binary not found (give its path as the argument)");
    snprintf(tmp, sizeof(tmp), "/tmp/tny-bench-live-XXXXXX");
    if (!mkdtemp(tmp))
        die("mkdtemp");
    double t0 = now_s();
    start_broker();
    setup_db();
    write_hub_conf();
    printf("setup (broker, %d-table event, 10,000-result event): %.1f s\n",
           N_TABLES, now_s() - t0);

    char uri[64];
    snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", port);
    const char *servers[] = {uri};
    struct tny_mqtt_subscription subs[] = {
        {PREFIX "hub/state", 1},
        {PREFIX "device/+/ack", 1},
    };
    struct tny_mqtt_options o;
    tny_mqtt_options_init(&o);
    o.servers = servers;
    o.n_servers = 1;
    o.client_id = "bench";
    o.password = "bench-pw";
    o.subs = subs;
    o.n_subs = 2;
    o.max_queued = 100000;
    o.max_buffered = 10000;
    struct tny_diag d = {{0}};
    if (tny_mqtt_open(&o, &cli, &d) < 0) {
        fprintf(stderr, "mqtt: %s\n", d.msg);
        die("mqtt open");
    }
    start_hub();
    for (double until = now_s() + 20; !hub_online && now_s() < until;)
        pump(100);
    if (!hub_online)
        die("hub did not come online (see its log in the temp dir)");

    /* (b) 200 tables, each one result, spread uniformly over 4 s. */
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
    if (n_lat > 0)
        printf("(b) 200 tables over 4 s: ack latency p50 %.2f ms, p99 %.2f "
               "ms, max %.2f ms (%d acks)\n",
               lat[n_lat / 2], lat[(n_lat * 99) / 100 - (n_lat >= 100)],
               lat[n_lat - 1], n_lat);

    /* (a) 500 tables at once: durable results per second. */
    start = now_s();
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
    printf("(a) 500 tables at once: %d acks (%d accepted) in %.3f s: %.0f "
           "durable results/s\n",
           got, accepted, last - start, got / (last - start));

    /* (e) restart with >= 10,000 stored results. */
    stop_hub();
    for (double until = now_s() + 5; hub_online && now_s() < until;)
        pump(50);
    memset(acked_at, 0, sizeof(acked_at));
    hub_online = 0;
    start = now_s();
    start_hub();
    for (double until = now_s() + 30; !hub_online && now_s() < until;)
        pump(5);
    double online = online_at - start;
    submit(1, "b-1"); /* a repeated key: answered from the store */
    wait_acks(1, 1, 10);
    printf("(e) restart with 10,000+ stored results: exec -> hub/state "
           "online %.0f ms, exec -> first ack %.0f ms\n",
           online * 1000.0, (acked_at[1] - start) * 1000.0);
    printf("(c), (d): not measured by this version\n");

    tny_mqtt_close(cli);
    stop_hub();
    kill(broker_pid, SIGTERM);
    waitpid(broker_pid, NULL, 0);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return 0;
}
