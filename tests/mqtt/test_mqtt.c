/* test_mqtt.c - end-to-end tests of common/mqtt (struct tny_mqtt) against a
 * real mosquitto started by this program on 127.0.0.1 and a free port.
 *
 * Not here: protocol payloads (proto/), hub or table logic.
 *
 * Every broker is a child (fork/exec of /usr/sbin/mosquitto with a generated
 * config in a temp dir) on a port reserved against every other test running
 * at the same time (tests/e2e/ports.h), and is taken as up only when the
 * socket listening on its port is its own (a program outside the project on
 * that port: another port is drawn).  Brokers are registered in
 * g_children: the group teardown and an
 * atexit handler kill them, and PR_SET_PDEATHSIG kills them if this program
 * dies.  A missing mosquitto fails the tests.  The last-will case runs a
 * second copy of this program (--lwt-child) that is SIGKILLed, the honest
 * way to lose a connection uncleanly.  No assertion depends on timing except
 * generous deadlines for events that must come; the latency numbers are
 * printed, not asserted.
 */
#include "testutil.h"

#include "tny/mqtt.h"

#include "ports.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EVENT_WAIT_MS 15000 /* deadline for an event that must come */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- children --------------------------------------------------------- */

#define MAX_CHILDREN 8
static pid_t g_children[MAX_CHILDREN];

static void child_add(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++) {
        if (g_children[i] == 0) {
            g_children[i] = pid;
            return;
        }
    }
    fail_msg("too many children");
}

/* Drops a child this program has already reaped from g_children (never
 * signal a reaped pid: it may be another process's by now). */
static void child_forget(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (g_children[i] == pid)
            g_children[i] = 0;
}

/* Sends sig, waits up to 5 s, then SIGKILL; forgets the child. */
static void child_stop(pid_t pid, int sig)
{
    int status;

    if (pid <= 0)
        return;
    kill(pid, sig);
    for (int i = 0; i < 500; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            goto forget;
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
forget:
    child_forget(pid);
}

static void children_kill_all(void)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (g_children[i] > 0)
            child_stop(g_children[i], SIGKILL);
}

static pid_t spawn(char *const argv[], int stdout_fd)
{
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (stdout_fd >= 0)
            dup2(stdout_fd, STDOUT_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    child_add(pid);
    return pid;
}

/* ---- broker ----------------------------------------------------------- */

struct broker {
    pid_t pid;
    int port; /* reserved (ports.h) from broker_init to broker_remove */
    bool acl;
    bool started; /* once: a restart keeps the port its clients know */
    char dir[64];
    char conf[128];
};

#define MAX_BROKERS 4
static struct broker *g_brokers[MAX_BROKERS];

/* A reserved port (ports.h) or the test fails. */
static int reserve_port(void)
{
    int port = tu_port_reserve();
    if (port < 0)
        fail_msg("no port reserved: %s", strerror(errno));
    return port;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* Writes b's mosquitto.conf for b->port: anonymous, or with the password
 * and ACL files (b->acl). */
static void broker_write_conf(struct broker *b)
{
    char text[2048];

    if (!b->acl) {
        snprintf(text, sizeof(text),
                 "listener %d 127.0.0.1\n"
                 "allow_anonymous true\n"
                 "set_tcp_nodelay true\n"
                 "persistence false\n"
                 "log_dest file %s/mosquitto.log\n"
                 "%s",
                 b->port, b->dir, geteuid() == 0 ? "user root\n" : "");
    } else {
        snprintf(text, sizeof(text),
                 "listener %d 127.0.0.1\n"
                 "allow_anonymous false\n"
                 "password_file %s/passwd\n"
                 "acl_file %s/acl\n"
                 "use_username_as_clientid true\n"
                 "set_tcp_nodelay true\n"
                 "persistence false\n"
                 "log_dest file %s/mosquitto.log\n"
                 "%s",
                 b->port, b->dir, b->dir, b->dir,
                 geteuid() == 0 ? "user root\n" : "");
    }
    write_file(b->conf, text);
}

/* A broker's temp dir, reserved port and config: anonymous, or with
 * password + ACL files (acl). */
static void broker_init(struct broker *b, bool acl)
{
    char path[192];

    memset(b, 0, sizeof(*b));
    b->acl = acl;
    snprintf(b->dir, sizeof(b->dir), "/tmp/tny-mqtt-XXXXXX");
    assert_non_null(mkdtemp(b->dir));
    for (int i = 0; i < MAX_BROKERS; i++) {
        if (!g_brokers[i]) {
            g_brokers[i] = b;
            break;
        }
    }
    b->port = reserve_port();
    snprintf(b->conf, sizeof(b->conf), "%s/mosquitto.conf", b->dir);
    if (acl) {
        snprintf(path, sizeof(path), "%s/acl", b->dir);
        write_file(path, "user dev-1\n"
                         "topic write tourney/v1/device/dev-1/result\n"
                         "topic read tourney/v1/device/dev-1/ack\n"
                         "user hub\n"
                         "topic readwrite tourney/#\n");
        snprintf(path, sizeof(path), "%s/passwd", b->dir);
        for (int i = 0; i < 2; i++) {
            char *argv[] = {(char *)TNY_MOSQUITTO_PASSWD,
                            i == 0 ? "-c" : "-b",
                            i == 0 ? "-b" : path,
                            i == 0 ? path : (char *)"hub",
                            i == 0 ? (char *)"dev-1" : (char *)"secret-h",
                            i == 0 ? (char *)"secret-1" : NULL,
                            NULL};
            int status;
            pid_t pid;
            assert_int_equal(access(TNY_MOSQUITTO_PASSWD, X_OK), 0);
            pid = spawn(argv, -1);
            assert_int_equal(waitpid(pid, &status, 0), pid);
            child_forget(pid); /* reaped */
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
    }
    broker_write_conf(b);
}

/* Starts b's mosquitto and waits until the socket listening on b->port is
 * its own.  When that port turns out taken by a program outside the
 * reservation (our mosquitto exits, another process listens there), the
 * first start draws another port; a restart cannot (its clients know the
 * port) and fails. */
static void broker_start(struct broker *b)
{
    char *argv[] = {(char *)TNY_MOSQUITTO, "-c", b->conf, NULL};

    if (access(TNY_MOSQUITTO, X_OK) != 0)
        fail_msg("mosquitto not found at %s: the e2e tests need it",
                 TNY_MOSQUITTO);
    for (int attempt = 0; attempt < 10; attempt++) {
        b->pid = spawn(argv, -1);
        for (int i = 0; i < 500; i++) {
            int status;
            if (tu_port_listener_is(b->port, b->pid)) {
                b->started = true;
                return;
            }
            if (waitpid(b->pid, &status, WNOHANG) == b->pid) {
                child_forget(b->pid); /* reaped */
                b->pid = 0;
                if (b->started || !tu_port_listening(b->port))
                    fail_msg("mosquitto exited (status %d); see "
                             "%s/mosquitto.log",
                             status, b->dir);
                break;
            }
            sleep_ms(10);
        }
        if (b->pid != 0)
            fail_msg("mosquitto does not listen on port %d within 5 s; see "
                     "%s/mosquitto.log",
                     b->port, b->dir);
        fprintf(stderr,
                "    port %d taken by another program: drawing another\n",
                b->port);
        tu_port_release(b->port);
        b->port = reserve_port();
        broker_write_conf(b);
    }
    fail_msg("mosquitto: every port drawn was taken by another program");
}

static void broker_stop(struct broker *b)
{
    child_stop(b->pid, SIGTERM);
    b->pid = 0;
}

/* Removes one of our mkdtemp directories (flat: config, passwd, acl, log). */
static void remove_dir(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *de;
    char file[320];

    if (!dir)
        return;
    while ((de = readdir(dir)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
        unlink(file);
    }
    closedir(dir);
    rmdir(path);
}

static void broker_remove(struct broker *b)
{
    broker_stop(b);
    tu_port_release(b->port);
    b->port = 0;
    for (int i = 0; i < MAX_BROKERS; i++)
        if (g_brokers[i] == b)
            g_brokers[i] = NULL;
    if (b->dir[0]) {
        remove_dir(b->dir);
        b->dir[0] = '\0';
    }
}

/* Brokers of tests that failed half-way: the group teardown removes them. */
static void brokers_remove_all(void)
{
    for (int i = 0; i < MAX_BROKERS; i++)
        if (g_brokers[i])
            broker_remove(g_brokers[i]);
}

/* ---- clients ---------------------------------------------------------- */

static struct broker g_broker; /* the anonymous broker of the group */

static void client_options(struct tny_mqtt_options *o, const struct broker *b,
                           const char *id, char *uri, size_t uri_size,
                           const char **servers)
{
    tny_mqtt_options_init(o);
    snprintf(uri, uri_size, "tcp://127.0.0.1:%d", b->port);
    servers[0] = uri;
    o->servers = servers;
    o->n_servers = 1;
    o->client_id = id;
    o->reconnect_min_ms = 50;
    o->reconnect_max_ms = 1000;
    o->seed = 42;
}

static struct tny_mqtt *open_client(const struct tny_mqtt_options *o)
{
    struct tny_mqtt *c = NULL;
    struct tny_diag d = {{0}};
    int rc = tny_mqtt_open(o, &c, &d);
    if (rc != 0)
        fail_msg("tny_mqtt_open: %s: %s", tny_strerror(rc), d.msg);
    return c;
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Waits for the next event of `kind` on c (and, when topic is not NULL,
 * with that topic), discarding others; fails after timeout_ms.  The caller
 * releases *out. */
static void wait_event(struct tny_mqtt *c, enum tny_mqtt_kind kind,
                       const char *topic, int timeout_ms,
                       struct tny_mqtt_message *out)
{
    int64_t until = now_us() + (int64_t)timeout_ms * 1000;

    for (;;) {
        struct pollfd p = {.fd = tny_mqtt_wakeup_fd(c), .events = POLLIN};
        int64_t left = (until - now_us()) / 1000;

        while (tny_mqtt_next_message(c, out) == 0) {
            if (out->kind == kind &&
                (!topic || (out->topic && strcmp(out->topic, topic) == 0)))
                return;
            tny_mqtt_message_release(out);
        }
        if (left <= 0)
            fail_msg("no event of kind %d%s%s within %d ms", (int)kind,
                     topic ? " on " : "", topic ? topic : "", timeout_ms);
        poll(&p, 1, (int)(left > 1000 ? 1000 : left + 1));
    }
}

/* Expects no event of kind on c within ms (others discarded). */
static void expect_no_event(struct tny_mqtt *c, enum tny_mqtt_kind kind,
                            const char *topic, int ms)
{
    int64_t until = now_us() + (int64_t)ms * 1000;
    struct tny_mqtt_message m;

    while (now_us() < until) {
        struct pollfd p = {.fd = tny_mqtt_wakeup_fd(c), .events = POLLIN};
        while (tny_mqtt_next_message(c, &m) == 0) {
            bool bad = m.kind == kind &&
                       (!topic || (m.topic && strcmp(m.topic, topic) == 0));
            if (bad)
                fail_msg("unexpected event of kind %d on %s: '%s'", (int)kind,
                         m.topic ? m.topic : "-",
                         m.payload ? (char *)m.payload : "");
            tny_mqtt_message_release(&m);
        }
        poll(&p, 1, 50);
    }
}

static void wait_connected(struct tny_mqtt *c, enum tny_mqtt_kind kind)
{
    struct tny_mqtt_message m;
    wait_event(c, kind, NULL, EVENT_WAIT_MS, &m);
    assert_int_equal(m.n_refused, 0);
    tny_mqtt_message_release(&m);
}

static void publish_ok(struct tny_mqtt *c, const char *topic, const char *text,
                       int qos, bool retained, int *token)
{
    struct tny_diag d = {{0}};
    int rc = tny_mqtt_publish(c, topic, text, strlen(text), qos, retained,
                              token, &d);
    if (rc != 0)
        fail_msg("publish on %s: %s: %s", topic, tny_strerror(rc), d.msg);
}

/* Waits for the DELIVERED event of token; returns its reason. */
static int wait_delivered(struct tny_mqtt *c, int token, int *lib_rc)
{
    int64_t until = now_us() + (int64_t)EVENT_WAIT_MS * 1000;
    struct tny_mqtt_message m;

    for (;;) {
        int reason;
        wait_event(c, TNY_MQTT_DELIVERED, NULL,
                   (int)((until - now_us()) / 1000) + 1, &m);
        if (m.token != token) {
            tny_mqtt_message_release(&m);
            continue;
        }
        reason = m.reason;
        if (lib_rc)
            *lib_rc = m.lib_rc;
        tny_mqtt_message_release(&m);
        return reason;
    }
}

/* Every TCP socket of this process connected to 127.0.0.1:port: counts
 * them and those with TCP_NODELAY set (the test's own scan, independent of
 * the library's). */
static void scan_sockets(int port, int *n_sockets, int *n_nodelay)
{
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *de;

    assert_non_null(dir);
    *n_sockets = 0;
    *n_nodelay = 0;
    while ((de = readdir(dir)) != NULL) {
        int fd = atoi(de->d_name);
        struct sockaddr_in peer;
        socklen_t len = sizeof(peer);
        struct stat st;
        int on = 0;
        socklen_t olen = sizeof(on);

        if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(dir))
            continue;
        if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
            continue;
        if (getpeername(fd, (struct sockaddr *)&peer, &len) != 0 ||
            peer.sin_family != AF_INET || ntohs(peer.sin_port) != port)
            continue;
        (*n_sockets)++;
        if (getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &olen) == 0 && on)
            (*n_nodelay)++;
    }
    closedir(dir);
}

/* ---- group setup ------------------------------------------------------ */

static int group_setup(void **state)
{
    (void)state;
    atexit(children_kill_all);
    signal(SIGPIPE, SIG_IGN);
    broker_init(&g_broker, false);
    broker_start(&g_broker);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    broker_remove(&g_broker);
    brokers_remove_all();
    children_kill_all();
    return 0;
}

/* ---- tests ------------------------------------------------------------ */

/* Reconnect delays: within [cap/2, cap], cap doubling from min up to max;
 * the same (seed, attempt) gives the same delay; seeds spread devices. */
static void test_backoff_jitter_is_seeded_and_bounded(void **state)
{
    int n = tu_property_cases(2000);
    int differ = 0;

    (void)state;
    for (int i = 0; i < n; i++) {
        struct tny_rng a;
        struct tny_rng b;
        struct tny_rng other;
        int min_ms = 1 + i % 500;
        int max_ms = min_ms * (1 + i % 200);
        int64_t cap = min_ms;

        tny_rng_seed(&a, (uint64_t)i);
        tny_rng_seed(&b, (uint64_t)i);
        tny_rng_seed(&other, (uint64_t)i + 1000003);
        for (int k = 0; k < 12; k++) {
            int d = tny_mqtt_backoff_ms(&a, k, min_ms, max_ms);
            int d2 = tny_mqtt_backoff_ms(&b, k, min_ms, max_ms);
            int d3 = tny_mqtt_backoff_ms(&other, k, min_ms, max_ms);
            assert_int_equal(d, d2);
            assert_true(d >= cap / 2 && d <= cap);
            differ += d != d3;
            cap = cap * 2 > max_ms ? max_ms : cap * 2;
        }
    }
    /* 200 devices restarting together must not retry in lockstep. */
    assert_true(differ > n * 12 / 2);
}

static void test_open_rejects_bad_options(void **state)
{
    struct tny_mqtt_options o;
    struct tny_mqtt *c = (struct tny_mqtt *)&o; /* must become NULL */
    struct tny_diag d = {{0}};
    const char *servers[1];
    char uri[64];
    static const struct {
        const char *id;
        const char *uri;
        int will_qos;
        const char *expect;
    } bad[] = {
        {"Dev_1", NULL, 0, "mqtt.client_id"},
        {"", NULL, 0, "mqtt.client_id"},
        {"dev-1", "http://127.0.0.1:1", 0, "mqtt.servers[0]"},
        {"dev-1", NULL, 3, "mqtt.will.qos"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        client_options(&o, &g_broker, bad[i].id, uri, sizeof(uri), servers);
        if (bad[i].uri)
            servers[0] = bad[i].uri;
        o.will.topic = "tourney/v1/device/dev-1/presence";
        o.will.qos = bad[i].will_qos;
        assert_int_equal(tny_mqtt_open(&o, &c, &d), TNY_EINVAL);
        assert_null(c);
        assert_non_null(strstr(d.msg, bad[i].expect));
    }
}

static void test_connect_subscribe_publish_qos1(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const struct tny_mqtt_subscription subs[] = {{"t/a", 1}};
    struct tny_mqtt *c;
    struct tny_mqtt_message m;
    struct pollfd p;
    int token = -1;
    int sub_token = -1;
    int lib_rc = -1;
    struct tny_diag d = {{0}};

    (void)state;
    client_options(&o, &g_broker, "qos1", uri, sizeof(uri), servers);
    o.subs = subs;
    o.n_subs = 1;
    c = open_client(&o);
    wait_connected(c, TNY_MQTT_CONNECTED);
    assert_true(tny_mqtt_is_connected(c));

    publish_ok(c, "t/a", "hello", 1, false, &token);
    assert_true(token > 0);
    /* The wakeup fd says when to look. */
    p.fd = tny_mqtt_wakeup_fd(c);
    p.events = POLLIN;
    assert_int_equal(poll(&p, 1, EVENT_WAIT_MS), 1);
    wait_event(c, TNY_MQTT_MESSAGE, "t/a", EVENT_WAIT_MS, &m);
    assert_int_equal(m.len, 5);
    assert_memory_equal(m.payload, "hello", 5);
    assert_int_equal(m.payload[5], '\0');
    assert_int_equal(m.qos, 1);
    assert_false(m.retained);
    tny_mqtt_message_release(&m);
    assert_int_equal(wait_delivered(c, token, &lib_rc), 0);
    assert_int_equal(lib_rc, 0);
    /* Drained: the fd is no longer readable. */
    while (tny_mqtt_next_message(c, &m) == 0)
        tny_mqtt_message_release(&m);
    assert_int_equal(poll(&p, 1, 0), 0);
    assert_int_equal(tny_mqtt_next_message(c, &m), TNY_ENOTFOUND);

    /* A retained message reaches a later subscription, flagged retained. */
    publish_ok(c, "t/r", "kept", 1, true, &token);
    assert_int_equal(wait_delivered(c, token, NULL), 0);
    assert_int_equal(tny_mqtt_subscribe(c, "t/r", 1, &sub_token, &d), 0);
    assert_true(sub_token > 0);
    wait_event(c, TNY_MQTT_SUBSCRIBED, NULL, EVENT_WAIT_MS, &m);
    assert_int_equal(m.token, sub_token);
    assert_int_equal(m.reason, 1); /* granted QoS 1 */
    tny_mqtt_message_release(&m);
    wait_event(c, TNY_MQTT_MESSAGE, "t/r", EVENT_WAIT_MS, &m);
    assert_true(m.retained);
    assert_string_equal((char *)m.payload, "kept");
    tny_mqtt_message_release(&m);
    publish_ok(c, "t/r", "", 1, true, &token); /* clear the retained one */
    assert_int_equal(wait_delivered(c, token, NULL), 0);
    tny_mqtt_close(c);
}

/* Unsubscribing stops the messages (MQTT orders the client's UNSUBSCRIBE
 * before its next PUBLISH at the broker) and frees the slot for another
 * filter: a table following many events in a weekend never runs out. */
static void test_unsubscribe_stops_messages_and_frees_the_slot(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64], filter[32];
    struct tny_mqtt *c;
    struct tny_mqtt_message m;
    int token = -1, sub_token = -1;
    struct tny_diag d = {{0}};

    (void)state;
    client_options(&o, &g_broker, "unsub", uri, sizeof(uri), servers);
    c = open_client(&o);
    wait_connected(c, TNY_MQTT_CONNECTED);
    assert_int_equal(tny_mqtt_subscribe(c, "t/u", 1, &sub_token, &d), 0);
    wait_event(c, TNY_MQTT_SUBSCRIBED, NULL, EVENT_WAIT_MS, &m);
    tny_mqtt_message_release(&m);
    publish_ok(c, "t/u", "one", 1, false, &token);
    wait_event(c, TNY_MQTT_MESSAGE, "t/u", EVENT_WAIT_MS, &m);
    tny_mqtt_message_release(&m);

    assert_int_equal(tny_mqtt_unsubscribe(c, "t/u", &d), 0);
    publish_ok(c, "t/u", "two", 1, false, &token);
    assert_int_equal(wait_delivered(c, token, NULL), 0);
    expect_no_event(c, TNY_MQTT_MESSAGE, "t/u", 300);
    /* not subscribed: nothing to do, not an error; a bad filter is */
    assert_int_equal(tny_mqtt_unsubscribe(c, "t/u", &d), 0);
    assert_int_equal(tny_mqtt_unsubscribe(c, "", &d), TNY_EINVAL);

    for (int i = 0; i < TNY_MQTT_MAX_SUBS; i++) {
        snprintf(filter, sizeof filter, "f/%d", i);
        assert_int_equal(tny_mqtt_subscribe(c, filter, 0, NULL, &d), 0);
    }
    assert_int_equal(tny_mqtt_subscribe(c, "f/new", 0, NULL, &d), TNY_ERANGE);
    assert_int_equal(tny_mqtt_unsubscribe(c, "f/10", &d), 0);
    assert_int_equal(tny_mqtt_subscribe(c, "f/new", 0, NULL, &d), 0);
    tny_mqtt_close(c);
}

static void test_publish_while_disconnected_is_an_error(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    struct tny_mqtt *c;
    struct tny_mqtt_stats st;
    struct broker nobody;
    struct tny_diag d = {{0}};
    int token = -1;
    int64_t until;

    (void)state;
    memset(&nobody, 0, sizeof(nobody));
    nobody.port = reserve_port(); /* nothing listens there, nor will */
    client_options(&o, &nobody, "lonely", uri, sizeof(uri), servers);
    c = open_client(&o);
    assert_int_equal(tny_mqtt_publish(c, "t/x", "x", 1, 1, false, &token, &d),
                     TNY_ESTATE);
    assert_int_equal(token, 0);
    assert_non_null(strstr(d.msg, "not connected"));
    /* It keeps trying, with jittered delays inside the configured range. */
    until = now_us() + (int64_t)EVENT_WAIT_MS * 1000;
    do {
        sleep_ms(20);
        tny_mqtt_stats_get(c, &st);
    } while (st.n_connect_failures < 3 && now_us() < until);
    assert_true(st.n_connect_failures >= 3);
    assert_true(st.last_backoff_ms >= 25 && st.last_backoff_ms <= 1000);
    assert_int_equal(st.n_connects, 0);
    assert_int_equal(st.n_publish_refused, 1);
    assert_false(tny_mqtt_is_connected(c));
    tny_mqtt_close(c);
    tu_port_release(nobody.port);
}

static void test_oversize_inbound_dropped_and_counted(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const struct tny_mqtt_subscription subs[] = {{"big/#", 1}};
    struct tny_mqtt *rx;
    struct tny_mqtt *tx;
    struct tny_mqtt_message m;
    struct tny_mqtt_stats st;
    struct tny_diag d = {{0}};
    static char blob[300 * 1024];
    int token;

    (void)state;
    memset(blob, 'b', sizeof(blob));
    client_options(&o, &g_broker, "small-rx", uri, sizeof(uri), servers);
    o.subs = subs;
    o.n_subs = 1;
    o.max_payload = 1024;
    rx = open_client(&o);
    client_options(&o, &g_broker, "big-tx", uri, sizeof(uri), servers);
    tx = open_client(&o);
    wait_connected(rx, TNY_MQTT_CONNECTED);
    wait_connected(tx, TNY_MQTT_CONNECTED);

    assert_int_equal(
        tny_mqtt_publish(tx, "big/1", blob, 2000, 1, false, &token, &d), 0);
    publish_ok(tx, "big/2", "small", 1, false, &token);
    assert_int_equal(
        tny_mqtt_publish(tx, "big/1", blob, 1024, 1, false, &token, &d), 0);
    /* Order is kept: the dropped one is reported, then the others. */
    wait_event(rx, TNY_MQTT_DROPPED, NULL, EVENT_WAIT_MS, &m);
    assert_string_equal(m.topic, "big/1");
    assert_int_equal(m.len, 2000);
    assert_null(m.payload);
    tny_mqtt_message_release(&m);
    wait_event(rx, TNY_MQTT_MESSAGE, NULL, EVENT_WAIT_MS, &m);
    assert_string_equal(m.topic, "big/2");
    assert_string_equal((char *)m.payload, "small");
    tny_mqtt_message_release(&m);
    wait_event(rx, TNY_MQTT_MESSAGE, NULL, EVENT_WAIT_MS, &m);
    assert_string_equal(m.topic, "big/1");
    assert_int_equal(m.len, 1024); /* exactly max_payload is accepted */
    tny_mqtt_message_release(&m);
    tny_mqtt_stats_get(rx, &st);
    assert_int_equal(st.n_dropped_oversize, 1);
    assert_int_equal(st.n_received, 2);

    /* Outbound: above the sender's own max_payload (256 KiB) is refused. */
    assert_int_equal(
        tny_mqtt_publish(tx, "big/3", blob, sizeof(blob), 1, false, &token, &d),
        TNY_ERANGE);
    tny_mqtt_close(tx);
    tny_mqtt_close(rx);
}

/* Child mode: connect with a will and a birth, say "ready", wait to die. */
static int lwt_child(const char *port, const char *id)
{
    struct tny_mqtt_options o;
    struct tny_mqtt *c = NULL;
    struct tny_diag d = {{0}};
    struct tny_mqtt_message m;
    const char *servers[1];
    char uri[64];
    char topic[128];

    snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%s", port);
    snprintf(topic, sizeof(topic), "tourney/v1/device/%s/presence", id);
    tny_mqtt_options_init(&o);
    servers[0] = uri;
    o.servers = servers;
    o.n_servers = 1;
    o.client_id = id;
    o.will = (struct tny_mqtt_fixed_message){topic, "offline", 7, 1, true};
    o.birth = (struct tny_mqtt_fixed_message){topic, "online", 6, 1, true};
    if (tny_mqtt_open(&o, &c, &d) != 0) {
        fprintf(stderr, "lwt child: %s\n", d.msg);
        return 1;
    }
    for (;;) {
        struct pollfd p = {.fd = tny_mqtt_wakeup_fd(c), .events = POLLIN};
        poll(&p, 1, 1000);
        while (tny_mqtt_next_message(c, &m) == 0) {
            if (m.kind == TNY_MQTT_CONNECTED) {
                printf("ready\n");
                fflush(stdout);
            }
            tny_mqtt_message_release(&m);
        }
    }
}

static void test_last_will_only_on_unclean_loss(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const char *topic0 = "tourney/v1/device/lwt-0/presence";
    const char *topic1 = "tourney/v1/device/lwt-1/presence";
    const struct tny_mqtt_subscription subs[] = {
        {"tourney/v1/device/+/presence", 1}};
    struct tny_mqtt *obs;
    struct tny_mqtt *clean;
    struct tny_mqtt_message m;
    char port[16];
    char self[512];
    char buf[16];
    int pipefd[2];
    pid_t child;
    ssize_t len;
    int token;
    struct pollfd p;

    (void)state;
    client_options(&o, &g_broker, "obs-lwt", uri, sizeof(uri), servers);
    o.subs = subs;
    o.n_subs = 1;
    obs = open_client(&o);
    wait_connected(obs, TNY_MQTT_CONNECTED);

    /* A clean close publishes nothing: the birth arrives, the will never. */
    client_options(&o, &g_broker, "lwt-0", uri, sizeof(uri), servers);
    o.will = (struct tny_mqtt_fixed_message){topic0, "offline", 7, 1, true};
    o.birth = (struct tny_mqtt_fixed_message){topic0, "online", 6, 1, true};
    clean = open_client(&o);
    wait_connected(clean, TNY_MQTT_CONNECTED);
    wait_event(obs, TNY_MQTT_MESSAGE, topic0, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "online");
    tny_mqtt_message_release(&m);
    tny_mqtt_close(clean);
    expect_no_event(obs, TNY_MQTT_MESSAGE, topic0, 1000);

    /* A SIGKILLed process: the broker publishes its will. */
    snprintf(port, sizeof(port), "%d", g_broker.port);
    len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(len > 0);
    self[len] = '\0';
    assert_int_equal(pipe(pipefd), 0);
    {
        char *argv[] = {self, "--lwt-child", port, "lwt-1", NULL};
        child = spawn(argv, pipefd[1]);
    }
    close(pipefd[1]);
    p.fd = pipefd[0];
    p.events = POLLIN;
    assert_int_equal(poll(&p, 1, EVENT_WAIT_MS), 1);
    len = read(pipefd[0], buf, sizeof(buf) - 1);
    close(pipefd[0]);
    assert_true(len >= 5);
    buf[len] = '\0';
    assert_non_null(strstr(buf, "ready"));
    wait_event(obs, TNY_MQTT_MESSAGE, topic1, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "online");
    tny_mqtt_message_release(&m);
    child_stop(child, SIGKILL);
    wait_event(obs, TNY_MQTT_MESSAGE, topic1, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "offline");
    tny_mqtt_message_release(&m);

    /* Clean up the retained presence messages. */
    publish_ok(obs, topic0, "", 1, true, &token);
    publish_ok(obs, topic1, "", 1, true, &token);
    assert_int_equal(wait_delivered(obs, token, NULL), 0);
    tny_mqtt_close(obs);
}

static void test_birth_and_subscriptions_after_broker_restart(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const char *presence = "tourney/v1/device/dev-r/presence";
    const char *assign = "tourney/v1/device/dev-r/assign";
    const struct tny_mqtt_subscription dev_subs[] = {{assign, 1}};
    const struct tny_mqtt_subscription obs_subs[] = {{presence, 1}};
    struct tny_mqtt *dev;
    struct tny_mqtt *obs;
    struct tny_mqtt_message m;
    struct tny_mqtt_stats st;
    struct tny_diag d = {{0}};
    int token;
    int64_t t0;

    (void)state;
    client_options(&o, &g_broker, "dev-r", uri, sizeof(uri), servers);
    o.subs = dev_subs;
    o.n_subs = 1;
    o.birth = (struct tny_mqtt_fixed_message){presence, "online", 6, 1, true};
    o.will = (struct tny_mqtt_fixed_message){presence, "offline", 7, 1, true};
    dev = open_client(&o);
    client_options(&o, &g_broker, "obs-r", uri, sizeof(uri), servers);
    o.subs = obs_subs;
    o.n_subs = 1;
    o.seed = 7;
    obs = open_client(&o);
    wait_connected(dev, TNY_MQTT_CONNECTED);
    wait_connected(obs, TNY_MQTT_CONNECTED);
    wait_event(obs, TNY_MQTT_MESSAGE, presence, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "online");
    tny_mqtt_message_release(&m);

    /* The broker goes away (persistence off: it forgets everything). */
    broker_stop(&g_broker);
    wait_event(dev, TNY_MQTT_LOST, NULL, EVENT_WAIT_MS, &m);
    tny_mqtt_message_release(&m);
    wait_event(obs, TNY_MQTT_LOST, NULL, EVENT_WAIT_MS, &m);
    tny_mqtt_message_release(&m);
    assert_int_equal(
        tny_mqtt_publish(dev, presence, "x", 1, 1, true, &token, &d),
        TNY_ESTATE);
    sleep_ms(300); /* a few refused attempts */
    t0 = now_us();
    broker_start(&g_broker); /* same port */
    wait_connected(dev, TNY_MQTT_RECONNECTED);
    tny_mqtt_stats_get(dev, &st);
    fprintf(stderr,
            "    reconnected %.0f ms after the broker came back (%llu "
            "failed attempts, last delay %d ms)\n",
            (double)(now_us() - t0) / 1000.0,
            (unsigned long long)st.n_connect_failures, st.last_backoff_ms);
    wait_connected(obs, TNY_MQTT_RECONNECTED);
    /* The birth was published again (retained: however the two race). */
    wait_event(obs, TNY_MQTT_MESSAGE, presence, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "online");
    tny_mqtt_message_release(&m);
    /* dev re-subscribed: messages published now arrive. */
    publish_ok(obs, assign, "table 7", 1, false, &token);
    wait_event(dev, TNY_MQTT_MESSAGE, assign, EVENT_WAIT_MS, &m);
    assert_string_equal((char *)m.payload, "table 7");
    tny_mqtt_message_release(&m);

    tny_mqtt_stats_get(dev, &st);
    assert_int_equal(st.n_connects, 2);
    assert_int_equal(st.n_lost, 1);
    assert_int_equal(st.n_nodelay_set, 2);
    assert_true(st.n_connect_failures >= 1);
    tny_mqtt_close(dev);
    tny_mqtt_close(obs);
}

/* 200 sequential request -> response round trips (QoS 1 both ways); the
 * per-trip times in us go to rtt[]. */
static void round_trips(struct tny_mqtt *req, struct tny_mqtt *resp,
                        int64_t *rtt, int n)
{
    struct tny_mqtt_message m;
    int token;

    for (int i = 0; i < n; i++) {
        int64_t t0 = now_us();
        publish_ok(req, "rt/req", "ping", 1, false, &token);
        wait_event(resp, TNY_MQTT_MESSAGE, "rt/req", EVENT_WAIT_MS, &m);
        tny_mqtt_message_release(&m);
        publish_ok(resp, "rt/resp", "pong", 1, false, &token);
        wait_event(req, TNY_MQTT_MESSAGE, "rt/resp", EVENT_WAIT_MS, &m);
        tny_mqtt_message_release(&m);
        rtt[i] = now_us() - t0;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a;
    int64_t y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void print_rtt(const char *label, int64_t *rtt, int n)
{
    qsort(rtt, (size_t)n, sizeof(rtt[0]), cmp_i64);
    fprintf(stderr,
            "    %s: %d QoS 1 round trips: p50 %.3f ms, p99 %.3f ms, "
            "max %.3f ms\n",
            label, n, (double)rtt[n / 2] / 1000.0,
            (double)rtt[n * 99 / 100] / 1000.0, (double)rtt[n - 1] / 1000.0);
}

static void latency_pair(bool nodelay, int64_t *rtt, int n)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const struct tny_mqtt_subscription req_subs[] = {{"rt/resp", 1}};
    const struct tny_mqtt_subscription resp_subs[] = {{"rt/req", 1}};
    struct tny_mqtt *req;
    struct tny_mqtt *resp;
    struct tny_mqtt_stats st;
    int n_sockets;
    int n_nodelay;

    client_options(&o, &g_broker, "rt-req", uri, sizeof(uri), servers);
    o.subs = req_subs;
    o.n_subs = 1;
    o.tcp_nodelay = nodelay;
    req = open_client(&o);
    client_options(&o, &g_broker, "rt-resp", uri, sizeof(uri), servers);
    o.subs = resp_subs;
    o.n_subs = 1;
    o.tcp_nodelay = nodelay;
    resp = open_client(&o);
    wait_connected(req, TNY_MQTT_CONNECTED);
    wait_connected(resp, TNY_MQTT_CONNECTED);

    scan_sockets(g_broker.port, &n_sockets, &n_nodelay);
    assert_int_equal(n_sockets, 2); /* no other client is open */
    assert_int_equal(n_nodelay, nodelay ? 2 : 0);
    tny_mqtt_stats_get(req, &st);
    if (nodelay) {
        struct sockaddr_in peer;
        socklen_t len = sizeof(peer);
        int on = 0;
        socklen_t olen = sizeof(on);

        assert_int_equal(st.n_nodelay_set, 1);
        assert_int_equal(st.n_nodelay_failed, 0);
        assert_true(st.nodelay_fd >= 0);
        assert_int_equal(
            getsockopt(st.nodelay_fd, IPPROTO_TCP, TCP_NODELAY, &on, &olen), 0);
        assert_true(on);
        assert_int_equal(
            getpeername(st.nodelay_fd, (struct sockaddr *)&peer, &len), 0);
        assert_int_equal(ntohs(peer.sin_port), g_broker.port);
    } else {
        assert_int_equal(st.n_nodelay_set, 0);
        assert_int_equal(st.nodelay_fd, -1);
    }
    round_trips(req, resp, rtt, n);
    tny_mqtt_close(req);
    tny_mqtt_close(resp);
}

static void test_tcp_nodelay_set_and_round_trip_latency(void **state)
{
    enum { N = 200 };
    static int64_t rtt[N];

    (void)state;
    latency_pair(false, rtt, N);
    print_rtt("Nagle on (tcp_nodelay=false)", rtt, N);
    latency_pair(true, rtt, N);
    print_rtt("TCP_NODELAY (default)     ", rtt, N);
}

/* A burst: every publish either fails with an error or is accounted for by
 * a DELIVERED event and arrives at the subscriber; nothing is silently
 * lost.  Prints how long the burst took (Paho's in-flight trap). */
static void test_burst_every_publish_accounted_for(void **state)
{
    enum { N = 300 };
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    const struct tny_mqtt_subscription subs[] = {{"burst/#", 1}};
    struct tny_mqtt *tx;
    struct tny_mqtt *rx;
    struct tny_mqtt_message m;
    struct tny_diag d = {{0}};
    int ok = 0;
    int refused = 0;
    int delivered = 0;
    int received = 0;
    int64_t t0;
    int64_t until;

    (void)state;
    client_options(&o, &g_broker, "burst-rx", uri, sizeof(uri), servers);
    o.subs = subs;
    o.n_subs = 1;
    rx = open_client(&o);
    client_options(&o, &g_broker, "burst-tx", uri, sizeof(uri), servers);
    o.max_buffered = 50;
    tx = open_client(&o);
    wait_connected(rx, TNY_MQTT_CONNECTED);
    wait_connected(tx, TNY_MQTT_CONNECTED);

    t0 = now_us();
    for (int i = 0; i < N; i++) {
        char text[16];
        int rc;
        snprintf(text, sizeof(text), "%d", i);
        rc = tny_mqtt_publish(tx, "burst/x", text, strlen(text), 1, false, NULL,
                              &d);
        if (rc == 0) {
            ok++;
        } else {
            assert_int_equal(rc, TNY_ERANGE); /* -12: buffer full */
            refused++;
        }
    }
    until = now_us() + (int64_t)EVENT_WAIT_MS * 2000;
    while ((delivered < ok || received < ok) && now_us() < until) {
        struct pollfd p[2] = {{.fd = tny_mqtt_wakeup_fd(tx), .events = POLLIN},
                              {.fd = tny_mqtt_wakeup_fd(rx), .events = POLLIN}};
        poll(p, 2, 100);
        while (tny_mqtt_next_message(tx, &m) == 0) {
            if (m.kind == TNY_MQTT_DELIVERED) {
                assert_int_equal(m.reason, 0);
                assert_int_equal(m.lib_rc, 0);
                delivered++;
            }
            tny_mqtt_message_release(&m);
        }
        while (tny_mqtt_next_message(rx, &m) == 0) {
            received += m.kind == TNY_MQTT_MESSAGE;
            tny_mqtt_message_release(&m);
        }
    }
    fprintf(stderr,
            "    burst of %d QoS 1 publishes (max_buffered 50): %d accepted, "
            "%d refused with -12, all acked and received in %.0f ms\n",
            N, ok, refused, (double)(now_us() - t0) / 1000.0);
    assert_int_equal(ok + refused, N);
    assert_int_equal(delivered, ok);
    assert_int_equal(received, ok);
    tny_mqtt_close(tx);
    tny_mqtt_close(rx);
}

static void test_acl_denied_publish_reports_reason_135(void **state)
{
    static struct broker acl; /* static: teardown removes it on failure */
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64];
    struct tny_mqtt *c;
    struct tny_mqtt *bad;
    struct tny_mqtt *hub;
    struct tny_mqtt_message m;
    struct tny_mqtt_stats st;
    struct tny_diag d = {{0}};
    int token;
    int lib_rc = -1;
    int64_t until;

    (void)state;
    broker_init(&acl, true);
    broker_start(&acl);
    client_options(&o, &acl, "dev-1", uri, sizeof(uri), servers);
    o.password = "secret-1";
    c = open_client(&o);
    wait_connected(c, TNY_MQTT_CONNECTED);

    publish_ok(c, "tourney/v1/device/dev-2/result", "forged", 1, false, &token);
    assert_int_equal(wait_delivered(c, token, &lib_rc), 135);
    assert_int_equal(lib_rc, 0);
    publish_ok(c, "tourney/v1/device/dev-1/result", "mine", 1, false, &token);
    assert_int_equal(wait_delivered(c, token, &lib_rc), 0);
    assert_int_equal(lib_rc, 0);
    tny_mqtt_stats_get(c, &st);
    assert_int_equal(st.n_delivery_refused, 1);

    /* Reading someone else's acks: mosquitto 2.0.11's acl_file grants the
     * subscription (SUBACK QoS 1, no 135) and filters each message at
     * delivery, silently.  Pinned here so that a broker upgrade that starts
     * refusing shows up. */
    client_options(&o, &acl, "hub", uri, sizeof(uri), servers);
    o.password = "secret-h";
    hub = open_client(&o);
    wait_connected(hub, TNY_MQTT_CONNECTED);
    assert_int_equal(
        tny_mqtt_subscribe(c, "tourney/v1/device/+/ack", 1, &token, &d), 0);
    wait_event(c, TNY_MQTT_SUBSCRIBED, NULL, EVENT_WAIT_MS, &m);
    assert_int_equal(m.token, token);
    assert_int_equal(m.reason, 1);
    assert_int_equal(m.lib_rc, 0);
    tny_mqtt_message_release(&m);
    publish_ok(hub, "tourney/v1/device/dev-2/ack", "theirs", 1, false, &token);
    assert_int_equal(wait_delivered(hub, token, NULL), 0);
    publish_ok(hub, "tourney/v1/device/dev-1/ack", "yours", 1, false, &token);
    assert_int_equal(wait_delivered(hub, token, NULL), 0);
    wait_event(c, TNY_MQTT_MESSAGE, NULL, EVENT_WAIT_MS, &m);
    assert_string_equal(m.topic, "tourney/v1/device/dev-1/ack");
    assert_string_equal((char *)m.payload, "yours");
    tny_mqtt_message_release(&m);
    tny_mqtt_close(hub);

    /* A wrong password: connect attempts fail; mosquitto 2.0.11 answers
     * with CONNACK reason 135 "not authorised" (not 134 "bad user name or
     * password"). */
    client_options(&o, &acl, "dev-1", uri, sizeof(uri), servers);
    o.password = "wrong";
    bad = open_client(&o);
    until = now_us() + (int64_t)EVENT_WAIT_MS * 1000;
    do {
        sleep_ms(20);
        tny_mqtt_stats_get(bad, &st);
    } while (st.n_connect_failures < 1 && now_us() < until);
    assert_true(st.n_connect_failures >= 1);
    assert_int_equal(st.last_connect_reason, 135);
    assert_false(tny_mqtt_is_connected(bad));
    /* The program learns why (docs/troubleshooting.md: the log says so):
     * one TNY_MQTT_REFUSED with the reason, not one per retry. */
    wait_event(bad, TNY_MQTT_REFUSED, NULL, EVENT_WAIT_MS, &m);
    assert_int_equal(m.reason, 135);
    assert_string_equal(tny_mqtt_reason_text(m.reason), "not authorised");
    tny_mqtt_message_release(&m);
    until = now_us() + (int64_t)EVENT_WAIT_MS * 1000;
    do {
        sleep_ms(20);
        tny_mqtt_stats_get(bad, &st);
    } while (st.n_connect_failures < 3 && now_us() < until);
    assert_true(st.n_connect_failures >= 3);
    while (tny_mqtt_next_message(bad, &m) == 0) {
        assert_int_not_equal(m.kind, TNY_MQTT_REFUSED);
        tny_mqtt_message_release(&m);
    }
    tny_mqtt_close(bad);
    tny_mqtt_close(c);
    broker_remove(&acl);
}

/* Paho's own heap accounting: Heap_get_info is LIBMQTT_API in its Heap.h
 * (exported for its tests, not in the public headers); Debian's build
 * tracks every allocation of the library.  The plain build, which
 * common/mqtt loads with dlopen for tcp:// brokers, is looked up once it
 * is loaded. */
struct paho_heap_info {
    size_t current_size;
    size_t max_size;
};

static size_t paho_heap_bytes(void)
{
    void *lib = dlopen("libpaho-mqtt3a.so.1", RTLD_NOW | RTLD_NOLOAD);
    struct paho_heap_info *(*get)(void) = NULL;
    if (!lib)
        fail_msg("libpaho-mqtt3a.so.1 not loaded: %s", dlerror());
    *(void **)&get = dlsym(lib, "Heap_get_info");
    if (!get)
        fail_msg("Paho exports no Heap_get_info: %s", dlerror());
    size_t n = get()->current_size;
    dlclose(lib);
    return n;
}

static void test_close_with_requests_in_flight_frees_everything(void **state)
{
    struct tny_mqtt_options o;
    const char *servers[1];
    char uri[64], filter[32];
    struct tny_diag d = {{0}};
    size_t base;

    (void)state;
    /* a client opened and closed with nothing in flight: the base */
    client_options(&o, &g_broker, "inflight", uri, sizeof(uri), servers);
    struct tny_mqtt *first = open_client(&o);
    wait_connected(first, TNY_MQTT_CONNECTED);
    tny_mqtt_close(first);
    base = paho_heap_bytes();
    for (int round = 0; round < 25; round++) {
        client_options(&o, &g_broker, "inflight", uri, sizeof(uri), servers);
        struct tny_mqtt *c = open_client(&o);
        int token = 0;
        wait_connected(c, TNY_MQTT_CONNECTED);
        for (int i = 0; i < TNY_MQTT_MAX_SUBS; i++) {
            snprintf(filter, sizeof filter, "in/%d", i);
            assert_int_equal(tny_mqtt_subscribe(c, filter, 1, NULL, &d), 0);
        }
        for (int i = 0; i < TNY_MQTT_MAX_SUBS; i += 3) {
            snprintf(filter, sizeof filter, "in/%d", i);
            assert_int_equal(tny_mqtt_unsubscribe(c, filter, &d), 0);
        }
        /* the last requests are subscribes: a QoS 1 publish would make
         * Paho's disconnect wait for its PUBACK, and the SUBACKs with it */
        assert_int_equal(tny_mqtt_subscribe(c, "in/0", 0, &token, &d), 0);
        assert_int_equal(tny_mqtt_subscribe(c, "in/3", 1, &token, &d), 0);
        tny_mqtt_close(c);
        size_t now = paho_heap_bytes();
        if (now > base)
            fail_msg("round %d: %zu bytes of Paho's heap left after close "
                     "(%zu after a close with nothing in flight)",
                     round, now, base);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backoff_jitter_is_seeded_and_bounded),
        cmocka_unit_test(test_open_rejects_bad_options),
        cmocka_unit_test(test_connect_subscribe_publish_qos1),
        cmocka_unit_test(test_unsubscribe_stops_messages_and_frees_the_slot),
        cmocka_unit_test(test_publish_while_disconnected_is_an_error),
        cmocka_unit_test(test_oversize_inbound_dropped_and_counted),
        cmocka_unit_test(test_last_will_only_on_unclean_loss),
        cmocka_unit_test(test_tcp_nodelay_set_and_round_trip_latency),
        cmocka_unit_test(test_burst_every_publish_accounted_for),
        cmocka_unit_test(test_acl_denied_publish_reports_reason_135),
        cmocka_unit_test(test_birth_and_subscriptions_after_broker_restart),
        cmocka_unit_test(test_close_with_requests_in_flight_frees_everything),
    };

    if (argc == 4 && strcmp(argv[1], "--lwt-child") == 0)
        return lwt_child(argv[2], argv[3]);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
