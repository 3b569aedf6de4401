/* console_internal.h - what the console's files share: settings, the
 * connection to the hub (console_conn.c) and the argument converters
 * (console_args.c).  Not an API outside hub/cli/console*.c.
 *
 * Invariants: a struct hub_console_conn is used by one thread (the
 * program's only one); every request it sends carries a correlation id
 * unique to this process and its login, and a retry resends the same bytes
 * (same id), as docs/protocol.md asks.
 */
#ifndef TNY_CLI_CONSOLE_INTERNAL_H
#define TNY_CLI_CONSOLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "tny/error.h"
#include "tny/wire.h"

/* Exit statuses of `tourney live` (console.h). */
enum hub_console_exit {
    HUB_CONSOLE_EXIT_OK = 0,
    HUB_CONSOLE_EXIT_INTERNAL = 1,
    HUB_CONSOLE_EXIT_USAGE = 2,
    HUB_CONSOLE_EXIT_REFUSED = 3,
    HUB_CONSOLE_EXIT_NO_ANSWER = 4,
};

#define HUB_CONSOLE_MAX_SERVERS 8
#define HUB_CONSOLE_PATH_MAX 512
#define HUB_CONSOLE_PASSWORD_MAX 256

/* The effective connection settings (after config file, environment and
 * flags). */
struct hub_console_settings {
    char broker_list[HUB_CONSOLE_PATH_MAX]; /* "uri[,uri...]", for messages */
    char server_buf[HUB_CONSOLE_PATH_MAX];  /* the same, commas now NULs */
    const char *servers[HUB_CONSOLE_MAX_SERVERS]; /* into server_buf */
    int n_servers;
    char user[TNY_WIRE_ID_MAX + 1];
    char password[HUB_CONSOLE_PASSWORD_MAX];
    char tls_ca[HUB_CONSOLE_PATH_MAX]; /* "" = system trust store */
    int timeout_s;                     /* per request, connection included */
    int retry_s;                       /* resend interval, same id */
};

struct hub_console_conn; /* opaque: one MQTT session with the broker */

/* Connects as s->user, subscribes to the login's reply topic and to the
 * hub's state, and waits until the broker confirmed both, at most
 * s->timeout_s seconds.  s is copied.
 * Errors: TNY_EINVAL (the broker refused the login: wrong password or
 * user; an invalid setting), TNY_ESTATE (no connection within the
 * timeout), TNY_ENOMEM.  diag says which, in one line. */
TNY_MUST_USE int hub_console_open(const struct hub_console_settings *s,
                                  struct hub_console_conn **out,
                                  struct tny_diag *diag);

/* Extra topics a connection watches (the dashboard's feed and clock):
 * subscribed at QoS 1 together with the reply topic (again after a
 * reconnect); every message on them is handed to on_message(ctx, topic,
 * payload, len) from hub_console_pump and also while hub_console_call or
 * hub_console_wait_hub wait.  The payload is borrowed for the call. */
struct hub_console_watch {
    const char *const *filters; /* n_filters topic filters */
    int n_filters;              /* 0..HUB_CONSOLE_MAX_WATCH */
    void (*on_message)(void *ctx, const char *topic,
                       const unsigned char *payload, size_t len);
    void *ctx;
};

#define HUB_CONSOLE_MAX_WATCH 8

/* hub_console_open, also watching w (copied; the filters must outlive the
 * connection).  Errors: those of hub_console_open; TNY_EINVAL also when
 * the broker refused one of w's subscriptions. */
TNY_MUST_USE int hub_console_open_watch(const struct hub_console_settings *s,
                                        const struct hub_console_watch *w,
                                        struct hub_console_conn **out,
                                        struct tny_diag *diag);

/* Handles every event already received (no waiting): watched messages go
 * to on_message.  Returns whether the broker connection is up. */
bool hub_console_pump(struct hub_console_conn *c);

/* How many times the connection was (re)established so far: a change
 * means a new session (the dashboard asks the hub's time again). */
uint32_t hub_console_connects(const struct hub_console_conn *c);

/* Publishes payload on topic at QoS 0, not retained (the time sync's
 * request: a lost one is asked again).  Errors: those of tny_mqtt_publish
 * (TNY_ESTATE when not connected). */
TNY_MUST_USE int hub_console_publish(struct hub_console_conn *c,
                                     const char *topic, const void *payload,
                                     size_t len, struct tny_diag *diag);

/* A descriptor that becomes readable when an event arrives (poll it, then
 * call hub_console_pump). */
int hub_console_wakeup_fd(const struct hub_console_conn *c);

/* The retained tourney/v1/hub/state as last seen ("online", "offline",
 * ...; "" = never seen), printable ASCII. */
const char *hub_console_hub_state(const struct hub_console_conn *c);
/* The retained tourney/v1/hub/store as last seen ("ok", "failing: WHY";
 * "" = never seen), printable ASCII. */
const char *hub_console_hub_store(const struct hub_console_conn *c);

/* Disconnects and frees; NULL is a no-op. */
void hub_console_close(struct hub_console_conn *c);

/* Sends one request and waits for its reply: fills req's correlation_id
 * (fresh) and organiser_id (the login), publishes it on ctl/LOGIN/req,
 * resends the same bytes every retry_s seconds and after a reconnect, and
 * returns when the reply with that id arrived (its rc may be an error:
 * the hub's refusal) or the timeout passed.  *rep is initialised here;
 * release it with tny_wire_reply_release on success.
 * Errors: TNY_EINVAL (the request does not encode, or the broker refused
 * it: the login may not write that topic), TNY_ESTATE (no reply within
 * the timeout; diag says whether the hub looked online), TNY_ENOMEM. */
TNY_MUST_USE int hub_console_call(struct hub_console_conn *c,
                                  struct tny_wire_request *req,
                                  struct tny_wire_reply *rep,
                                  struct tny_diag *diag);

/* Waits until tourney/v1/hub/state says "online", at most timeout_s.
 * Errors: TNY_ESTATE (not online in time; diag has the last state seen). */
TNY_MUST_USE int hub_console_wait_hub(struct hub_console_conn *c,
                                      struct tny_diag *diag);

/* Runs one `tourney live` command over the open connection c, exactly as
 * on the command line: words are what follows `live` (command words,
 * arguments and the command's options; no settings flags), output on
 * stdout and stderr as the command prints it.  c stays open and the
 * caller's.  Returns the exit status (console.h). */
int hub_console_run_words(struct hub_console_conn *c, int n, char **words);

/* What one command gave its caller (the dashboard): the exit status, the
 * text the command line would have shown (stdout and stderr in the order
 * written, malloc'd; NULL when out of memory) and the hub's last reply,
 * typed (rc, message, event_id, round, count; json: the payload), with
 * the command it answered. */
struct hub_console_result {
    int status;
    char *text;
    struct tny_wire_reply rep;
    enum tny_wire_cmd cmd; /* the last request's (TNY_WIRE_CMD_NONE_: none) */
};

/* hub_console_run_words, its output into res->text instead of stdout and
 * stderr (nothing reaches the terminal) and the reply into res->rep;
 * *res is initialised here, release it with hub_console_result_release
 * whatever the status.  Returns res->status. */
int hub_console_run(struct hub_console_conn *c, int n, char **words,
                    struct hub_console_result *res);

/* Frees res's text and reply; zeroes *res. */
void hub_console_result_release(struct hub_console_result *res);

/* ---- typed replies as --json prints them (console_reply.c) ----------- */

/* The JSON text of a seating (TNY_REPLY_DRAFT), byte for byte the hub's
 * before replies were typed (tny_round_plan_to_json with "names" for a
 * draft, compact); malloc'd, NULL when out of memory. */
char *hub_console_seating_json(const struct tny_wire_seating *s);
/* The JSON text of standings (TNY_REPLY_STANDINGS), byte for byte
 * `tourney standings`' (tny_standings_to_json); malloc'd, NULL when out of
 * memory. */
char *hub_console_standings_json(const struct tny_wire_standings *s);
/* The JSON text of a publish summary (TNY_REPLY_PUBLISHED), byte for
 * byte the hub's before replies were typed; malloc'd, NULL when out of
 * memory. */
char *hub_console_published_json(const struct tny_wire_published *p);
/* The records of a reply (TNY_REPLY_RECORDS...) as jansson values: a
 * record an object (members in their order), a list an array; NULL when
 * out of memory. */
json_t *hub_console_records_tree(const struct tny_wire_records *r);
/* The reply's payload as --json prints it: a typed payload's JSON text
 * (records: indented by 2, or on one line where cmd's description says
 * TNY_REPLY_JSON_LINE, as the hub wrote them before), or the json the
 * reply carries; malloc'd, NULL when none or out of memory. */
char *hub_console_reply_json(const struct tny_wire_reply *rep,
                             enum tny_wire_cmd cmd);
/* The name of player id in the seating's names; NULL when it has none. */
const char *hub_console_seating_name(const struct tny_wire_seating *s,
                                     const char *id);

/* ---- argument converters (console_args.c) ---------------------------- */

/* An event-file result object (event-file.md: {"vp": {"p1": 10, ...}},
 * {"winner": "p1", "hq_diff": 7}, ...) as a wire result.  game names the
 * game ("neuroshima-hex", ...); NULL infers it from the keys (hq_diff,
 * draw or armies: NH; scores, clock_ms, default_win, tp or penalty: TX;
 * ip or bp: AG; winner, games or modified without hq_diff: GT; vp alone:
 * CT).  Errors: TNY_EINVAL (diag: "result.KEY: why"), TNY_ENOMEM. */
TNY_MUST_USE int hub_console_result_from_json(const char *text,
                                              const char *game,
                                              struct tny_wire_result *out,
                                              struct tny_diag *diag);

/* Tournament points as written ("1", "0.5", "12.5") in 1/1200 units,
 * 0 < points <= max_tp.  Errors: TNY_EINVAL. */
TNY_MUST_USE int hub_console_points(const char *text, int64_t max_tp,
                                    int64_t *units, struct tny_diag *diag);

/* A duration: minutes ("5", "2.5") or with a unit ("90s", "5m", "1h"),
 * 1 ms..30 days.  Errors: TNY_EINVAL. */
TNY_MUST_USE int hub_console_duration_ms(const char *text, int64_t *ms,
                                         struct tny_diag *diag);

/* A whole number in [min, max].  Errors: TNY_EINVAL. */
TNY_MUST_USE int hub_console_int(const char *text, int64_t min, int64_t max,
                                 int64_t *out, struct tny_diag *diag);

/* Reads a whole file ("-" = standard input) into a malloc'd NUL-terminated
 * buffer of at most max bytes.  Errors: TNY_ENOTFOUND (no such file),
 * TNY_EINVAL (cannot read: diag has the path and errno's text), TNY_ERANGE
 * (larger than max), TNY_ENOMEM. */
TNY_MUST_USE int hub_console_read_file(const char *path, size_t max, char **out,
                                       size_t *len, struct tny_diag *diag);

#endif
