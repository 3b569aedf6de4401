/* console.c - `tourney live ...`: the organiser console's commands, one row
 * of the command table per console command of docs/protocol.md, plus
 * `wait-hub`.
 *
 * What it does: settings from the config file (console.conf, the config.h
 * table below), TOURNEY_PASSWORD and flags; the command's words, options
 * and arguments into a struct tny_wire_request; one request/reply exchange
 * (console_conn.c); the reply printed for people (default) or as the
 * reply's JSON payload for scripts (--json).
 *
 * What it does not do: no tournament logic (the hub decides, its message
 * is printed as is), no state between runs, nothing written but stdout and
 * stderr.  Every live command starts with `live`, so the offline contract
 * of event-file.md (`standings`, `pair`, `formats`, `format`) is untouched.
 *
 * Exit status (console.h): 0 ok, 1 internal, 2 usage or settings or the
 * broker refused, 3 the hub refused, 4 no answer in time.  Errors are one
 * line on stderr.
 */
#include "console.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "console_internal.h"
#include "cli_lang.h"
#include "cli_out.h"
#include "console_tui.h"
#include "print.h"
#include "tny/config.h"
#include "tny/csv_io.h"
#include "tny/import.h"
#include "tny/json_io.h"
#include "tny/lots.h"
#include "tny/standings.h"

/* ---- settings ----------------------------------------------------------- */

enum {
    SET_BROKER,
    SET_USER,
    SET_PASSWORD_FILE,
    SET_TLS_CA,
    SET_TIMEOUT,
    SET_RETRY,
    N_SETTINGS
};

static const struct tny_config_item settings_table[N_SETTINGS] = {
    [SET_BROKER] = {"broker", TNY_CONFIG_STRING, "", 0, 0, NULL,
                    "broker URI: tcp://HOST:1883 or ssl://HOST:8883 (a "
                    "standby after a comma)"},
    [SET_USER] = {"user", TNY_CONFIG_STRING, "", 0, 0, NULL,
                  "your organiser login (deploy/broker users.cred)"},
    [SET_PASSWORD_FILE] = {"password_file", TNY_CONFIG_STRING, "", 0, 0, NULL,
                           "file whose first line is the password (else "
                           "TOURNEY_PASSWORD)"},
    [SET_TLS_CA] = {"tls_ca", TNY_CONFIG_STRING, "", 0, 0, NULL,
                    "CA bundle (PEM) for ssl:// brokers; empty: the system's"},
    [SET_TIMEOUT] = {"timeout", TNY_CONFIG_INT, "30", 1, 3600, NULL,
                     "seconds to wait for the hub's answer, connecting "
                     "included"},
    [SET_RETRY] = {"retry", TNY_CONFIG_INT, "10", 1, 3600, NULL,
                   "seconds before a request is resent with the same "
                   "correlation id"},
};

/* ---- the command line ------------------------------------------------- */

#define MAX_OPTS 64
#define MAX_POS 8

struct opt_value {
    char name[32];     /* the spec's name, without "=" or "=*" */
    const char *value; /* "" for flags */
};

struct live;

struct live_cmd {
    const char *group;
    const char *verb; /* NULL: a one-word command */
    const char *synopsis;
    int min_pos, max_pos;
    /* Options: "name" flag, "name=" one value, "name=*" repeatable. */
    const char *const *opts;
    const char *help;
    int (*run)(struct live *lv);
    /* The protocol command it is (TNY_WIRE_CMD_NONE_: a command of the
     * command line only, console_cmds.h's L). */
    enum tny_wire_cmd wire;
};

struct live {
    const struct live_cmd *cmd;
    bool json;
    struct tny_config_value values[N_SETTINGS];
    bool password_file_flag; /* --password-file given on the command line */
    char config_path[HUB_CONSOLE_PATH_MAX];
    struct hub_console_settings set;
    int n_pos;
    const char *pos[MAX_POS];
    int n_opts;
    struct opt_value opts[MAX_OPTS];
    struct hub_console_conn *conn;
    struct tny_wire_request req;
    struct tny_wire_reply rep;
};

/* Where a command prints: stdout and stderr, or, while hub_console_run
 * runs a command for the dashboard, one memory stream for both (its
 * result's text, in the order written).  One thread: the program's. */
static FILE *run_text;

static FILE *out(void)
{
    return run_text ? run_text : stdout;
}

static FILE *err(void)
{
    return run_text ? run_text : stderr;
}

static void out_line(const char *s)
{
    fputs(s, out());
    fputc('\n', out());
}

/* One line on stderr, control characters replaced. */
static void say(const char *fmt, ...) TNY_PRINTF(1, 2);

static void say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs("tourney: ", err());
    for (const char *c = line; *c; c++)
        fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, err());
    fputc('\n', err());
}

static const char *opt(const struct live *lv, const char *name)
{
    for (int i = 0; i < lv->n_opts; i++)
        if (strcmp(lv->opts[i].name, name) == 0)
            return lv->opts[i].value;
    return NULL;
}

static bool flag(const struct live *lv, const char *name)
{
    return opt(lv, name) != NULL;
}

/* An optional whole-number option; *out keeps its value when absent. */
static int opt_int(const struct live *lv, const char *name, int64_t min,
                   int64_t max, int32_t *out)
{
    struct tny_diag d = {{0}};
    const char *v = opt(lv, name);
    int64_t x;
    if (!v)
        return HUB_CONSOLE_EXIT_OK;
    if (hub_console_int(v, min, max, &x, &d) < 0) {
        say("--%s %s", name, d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    *out = (int32_t)x;
    return HUB_CONSOLE_EXIT_OK;
}

static int pos_int(const struct live *lv, int i, const char *what, int64_t min,
                   int64_t max, int32_t *out)
{
    struct tny_diag d = {{0}};
    int64_t x;
    if (hub_console_int(lv->pos[i], min, max, &x, &d) < 0) {
        say("%s %s", what, d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    *out = (int32_t)x;
    return HUB_CONSOLE_EXIT_OK;
}

/* Copies an id argument; usage error when it is not one. */
static int put_id(char *dst, const char *src, const char *what)
{
    if (!tny_wire_id_valid(src)) {
        say("%s \"%s\": expected 1..64 characters of [A-Za-z0-9_.-]", what,
            src);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    memcpy(dst, src, strlen(src) + 1);
    return HUB_CONSOLE_EXIT_OK;
}

/* Copies a text argument of at most size - 1 bytes. */
static int put_text(char *dst, size_t size, const char *src, const char *what)
{
    if (strlen(src) >= size) {
        say("%s: longer than %zu bytes", what, size - 1);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    memcpy(dst, src, strlen(src) + 1);
    return HUB_CONSOLE_EXIT_OK;
}

/* ---- settings: file, environment, flags --------------------------------- */

static int load_config_file(struct live *lv, bool explicit_path)
{
    struct tny_diag d = {{0}};
    char *text = NULL;
    size_t len;
    int rc =
        hub_console_read_file(lv->config_path, 1024 * 1024, &text, &len, &d);
    if (rc < 0) {
        if (!explicit_path && rc == TNY_ENOTFOUND)
            return HUB_CONSOLE_EXIT_OK; /* no default file: fine */
        say("%s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    rc = tny_config_parse(settings_table, N_SETTINGS, lv->values, text,
                          lv->config_path, &d);
    free(text);
    if (rc < 0) {
        say("%s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    return HUB_CONSOLE_EXIT_OK;
}

static void default_config_path(struct live *lv)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(lv->config_path, sizeof lv->config_path,
                 "%s/tourney/console.conf", xdg);
    else if (home && home[0])
        snprintf(lv->config_path, sizeof lv->config_path,
                 "%s/.config/tourney/console.conf", home);
    else
        lv->config_path[0] = '\0';
}

static const char *where(const struct live *lv)
{
    return lv->config_path[0] ? lv->config_path : "console.conf";
}

static bool valid_login(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > TNY_WIRE_ID_MAX)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '-'))
            return false;
    return true;
}

static int read_password(struct live *lv, const char *path)
{
    struct tny_diag d = {{0}};
    char *text = NULL;
    size_t len;
    if (hub_console_read_file(path, 64 * 1024, &text, &len, &d) < 0) {
        /* A relative password_file is read from where the command runs,
         * not beside the config file: say so, and from where. */
        char cwd[1024];
        if (!lv->password_file_flag && path[0] != '/' &&
            getcwd(cwd, sizeof cwd))
            say("password file: %s (password_file in %s: a relative path is "
                "read from the current directory, %s)",
                d.msg, where(lv), cwd);
        else
            say("password file: %s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    len = strcspn(text, "\r\n");
    text[len] = '\0';
    int status = HUB_CONSOLE_EXIT_OK;
    if (len == 0) {
        say("password file %s: the first line is empty", path);
        status = HUB_CONSOLE_EXIT_USAGE;
    } else if (strpbrk(text, " \t")) {
        /* as the hub's and the table's password_file: a line copied from
         * users.cred would be sent as the password and refused as wrong */
        say("password file %s: looks like a users.cred line (LOGIN "
            "PASSWORD); it must hold the password alone",
            path);
        status = HUB_CONSOLE_EXIT_USAGE;
    } else if (len >= sizeof lv->set.password) {
        say("password file %s: longer than %zu bytes", path,
            sizeof lv->set.password - 1);
        status = HUB_CONSOLE_EXIT_USAGE;
    } else {
        memcpy(lv->set.password, text, len + 1);
    }
    memset(text, 0, len);
    free(text);
    return status;
}

/* The connection settings from lv->values; one line and exit 2 on a
 * missing or bad one. */
static int settings_finish(struct live *lv)
{
    struct hub_console_settings *s = &lv->set;
    const char *broker = lv->values[SET_BROKER].text;
    const char *user = lv->values[SET_USER].text;

    s->n_servers = 0;
    if (broker[0] == '\0') {
        say("no broker: give --broker tcp://HOST:1883 or \"broker = ...\" in "
            "%s",
            where(lv));
        return HUB_CONSOLE_EXIT_USAGE;
    }
    if (strlen(broker) >= sizeof s->broker_list) {
        say("broker: longer than %zu bytes", sizeof s->broker_list - 1);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    memcpy(s->broker_list, broker, strlen(broker) + 1);
    memcpy(s->server_buf, broker, strlen(broker) + 1);
    for (char *p = s->server_buf;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (s->n_servers == HUB_CONSOLE_MAX_SERVERS) {
            say("broker: more than %d URIs", HUB_CONSOLE_MAX_SERVERS);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        if ((strncmp(p, "tcp://", 6) != 0 && strncmp(p, "ssl://", 6) != 0) ||
            strlen(p) < 7) {
            say("broker \"%s\": expected tcp://HOST:PORT or ssl://HOST:PORT",
                p);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        s->servers[s->n_servers++] = p;
        if (!comma)
            break;
        p = comma + 1;
    }

    if (user[0] == '\0') {
        say("no user: give --user LOGIN or \"user = ...\" in %s", where(lv));
        return HUB_CONSOLE_EXIT_USAGE;
    }
    if (!valid_login(user)) {
        say("user \"%s\": a login is 1..64 characters of [a-z0-9-]", user);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    memcpy(s->user, user, strlen(user) + 1);

    const char *env = getenv("TOURNEY_PASSWORD");
    const char *pw_file = lv->values[SET_PASSWORD_FILE].text;
    if (lv->password_file_flag || (pw_file[0] && !(env && env[0]))) {
        int status = read_password(lv, pw_file);
        if (status != HUB_CONSOLE_EXIT_OK)
            return status;
    } else if (env && env[0]) {
        if (strlen(env) >= sizeof s->password) {
            say("TOURNEY_PASSWORD: longer than %zu bytes",
                sizeof s->password - 1);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        memcpy(s->password, env, strlen(env) + 1);
    } else {
        say("no password: give --password-file FILE, TOURNEY_PASSWORD or "
            "\"password_file = ...\" in %s",
            where(lv));
        return HUB_CONSOLE_EXIT_USAGE;
    }

    const char *ca = lv->values[SET_TLS_CA].text;
    if (strlen(ca) >= sizeof s->tls_ca) {
        say("tls_ca: longer than %zu bytes", sizeof s->tls_ca - 1);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    memcpy(s->tls_ca, ca, strlen(ca) + 1);
    s->timeout_s = (int)lv->values[SET_TIMEOUT].number;
    s->retry_s = (int)lv->values[SET_RETRY].number;
    return HUB_CONSOLE_EXIT_OK;
}

/* ---- talking to the hub ------------------------------------------------ */

static int exit_for_conn(int rc)
{
    switch (rc) {
    case TNY_EINVAL: return HUB_CONSOLE_EXIT_USAGE;
    case TNY_ESTATE: return HUB_CONSOLE_EXIT_NO_ANSWER;
    default: return HUB_CONSOLE_EXIT_INTERNAL;
    }
}

/* Connects on first use, so that every argument is checked before the
 * settings are. */
static int connect_hub(struct live *lv)
{
    struct tny_diag d = {{0}};
    if (lv->conn)
        return HUB_CONSOLE_EXIT_OK;
    int status = settings_finish(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    int rc = hub_console_open(&lv->set, &lv->conn, &d);
    if (rc < 0) {
        say("%s", d.msg[0] ? d.msg : tny_strerror(rc));
        return exit_for_conn(rc);
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* ---- the hub's words in the command line's ------------------------------ */

/* Phrases of the hub's refusals that name protocol fields, and what the
 * command line calls them. */
static const char *const cli_phrases[][2] = {
    {"set override to replace it", "add --override to replace it"},
    {"give preset or format_json, not both",
     "give --format or --format-file, not both"},
    {"preset or format_json is required",
     "--format or --format-file is required"},
    {" (table 0)", ""},
    {"with clock_extend", "with `clock extend EVENT_ID DURATION --table N`"},
    {"`tourney live device list`", "`tourney live devices`"},
};

static bool has_opt(const struct live *lv, const char *name)
{
    for (const char *const *o = lv->cmd ? lv->cmd->opts : NULL; o && *o; o++)
        if (strncmp(*o, name, strlen(name)) == 0 &&
            ((*o)[strlen(name)] == '\0' || (*o)[strlen(name)] == '='))
            return true;
    return false;
}

/* How the command line spells a request field the hub's message starts
 * with ("console_request.keep: ..."): a flag of this command ("--keep"),
 * or "" when the message names the value itself (ids, a positional
 * ROUND or TABLE). */
static const char *cli_field(const struct live *lv, const char *field)
{
    static const char *const flags[][2] = {
        {"keep", "--keep"},
        {"reason", "--reason"},
        {"confirm", "--confirm"},
        {"format_json", "--format-file"},
        {"options_json", "--options"},
        {"seed", "--seed"},
        {"preset", "--format"},
        {"title", "--title"},
        {"language", "--language"},
        {"override", "--override"},
        {"force", "--force"},
        {"extra_ms", "DURATION"},
        {"points_units", "POINTS"},
        {"result", "RESULT_JSON"},
        {"organiser_id", "--user"},
    };
    if (strcmp(field, "round") == 0) {
        const char *o = has_opt(lv, "round")         ? "round"
                        : has_opt(lv, "after-round") ? "after-round"
                        : has_opt(lv, "from-round")  ? "from-round"
                                                     : NULL;
        return o && opt(lv, o) ? (o[0] == 'r'   ? "--round"
                                  : o[0] == 'a' ? "--after-round"
                                                : "--from-round")
                               : "";
    }
    if (strcmp(field, "table") == 0)
        return has_opt(lv, "table") && opt(lv, "table") ? "--table" : "";
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(field, flags[i][0]) == 0)
            return flags[i][1];
    if (strcmp(field, "csv") == 0 && lv->n_pos > 1)
        return lv->pos[1];
    return "";
}

/* The hub's message (refusal or note) in the command line's words: a
 * leading field path ("console_request.round: ", "drop_player.player_id:
 * ") becomes the flag the user typed or goes, protocol phrases and
 * command names become the commands' (issue 24). */
static void cli_words(const struct live *lv, const char *msg, char *out,
                      size_t cap)
{
    char buf[2048];
    size_t path = strspn(msg, "abcdefghijklmnopqrstuvwxyz_.");
    const char *dot = memchr(msg, '.', path);
    snprintf(buf, sizeof buf, "%s", msg);
    if (dot && path > 0 && msg[path] == ':' && msg[path + 1] == ' ') {
        const char *last = msg + path;
        while (last > msg && last[-1] != '.')
            last--;
        char field[64];
        snprintf(field, sizeof field, "%.*s", (int)(msg + path - last), last);
        const char *spelled = cli_field(lv, field);
        /* a path that ends in a message's object ("create_event") */
        if (strcmp(field, "create_event") == 0)
            spelled = "";
        snprintf(buf, sizeof buf, "%s%s%s", spelled, spelled[0] ? ": " : "",
                 msg + path + 2);
    }
    /* The engine's check of the result as it would stand in the event
     * file ("event.rounds[0].tables[2].result.KEY: ..."): the key of
     * RESULT_JSON; a penalty where the game has none, said so. */
    const char *res =
        strncmp(msg, "event.rounds[", 13) == 0 ? strstr(msg, ".result.") : NULL;
    const char *colon = res ? strstr(res, ": ") : NULL;
    if (colon && lv->req.cmd == TNY_WIRE_CMD_PENALTY &&
        strncmp(res, ".result.penalty:", 16) == 0)
        snprintf(buf, sizeof buf,
                 "this event's game takes no penalty points (TX-7 is a Tantrix "
                 "rule): %s",
                 colon + 2);
    else if (colon)
        snprintf(buf, sizeof buf, "RESULT_JSON \"%.*s\": %s",
                 (int)(colon - res - 8), res + 8, colon + 2);
    else if (strncmp(msg, "event.players[", 14) == 0 &&
             (colon = strstr(msg, ": ")) != NULL) {
        /* a player's field as the event file names it: the flag */
        static const char *const player_flags[][2] = {
            {"knockout_armies", "--army"},
            {"armies", "--army"},
            {"colours", "--colour"},
            {"club", "--club"},
            {"country", "--country"},
            {"rating", "--rating"},
            {"name", "NAME"},
            {"faction", "--faction"},
            {"agenda", "--agenda"},
        };
        const char *key = colon;
        while (key > msg && key[-1] != '.' && key[-1] != ']')
            key--;
        const char *spelled = "";
        for (size_t i = 0; i < sizeof player_flags / sizeof player_flags[0];
             i++)
            if (strncmp(key, player_flags[i][0], (size_t)(colon - key)) == 0 &&
                player_flags[i][0][colon - key] == '\0')
                spelled = player_flags[i][1];
        snprintf(buf, sizeof buf, "%s%s%s", spelled, spelled[0] ? ": " : "",
                 colon + 2);
    }
    /* phrases, then command names as whole words */
    for (size_t i = 0; i < sizeof cli_phrases / sizeof cli_phrases[0]; i++) {
        char *at = strstr(buf, cli_phrases[i][0]);
        if (!at)
            continue;
        char tail[sizeof buf];
        snprintf(tail, sizeof tail, "%s", at + strlen(cli_phrases[i][0]));
        snprintf(at, sizeof buf - (size_t)(at - buf), "%s%s", cli_phrases[i][1],
                 tail);
    }
    /* The protocol's command names as `tourney live` spells them, from
     * the commands' descriptions. */
    static const struct {
        const char *name, *group, *verb;
    } cmd_words[] = {
#define W(name, ID, event, in_place, players, fields, reply, records, group,   \
          verb, ...)                                                           \
    {#name, group, verb},
#define L(...)
        TNY_CONSOLE_COMMANDS(W, L)
#undef W
#undef L
    };
    for (size_t i = 0; i < sizeof cmd_words / sizeof cmd_words[0]; i++) {
        const char *name = cmd_words[i].name;
        size_t nl = strlen(name);
        char spelled[64];
        snprintf(spelled, sizeof spelled, "%s%s%s", cmd_words[i].group,
                 cmd_words[i].verb ? " " : "",
                 cmd_words[i].verb ? cmd_words[i].verb : "");
        if (!strchr(name, '_'))
            continue; /* "penalty": an English word too */
        for (char *at = strstr(buf, name); at; at = strstr(at + 1, name)) {
            bool word = (at == buf || !(isalnum((unsigned char)at[-1]) ||
                                        at[-1] == '_' || at[-1] == '.')) &&
                        !(isalnum((unsigned char)at[nl]) || at[nl] == '_');
            if (!word)
                continue;
            char tail[sizeof buf];
            snprintf(tail, sizeof tail, "%s", at + nl);
            snprintf(at, sizeof buf - (size_t)(at - buf), "%s%s", spelled,
                     tail);
            /* on past the words put in (the end when they were cut) */
            size_t past = (size_t)(at - buf) + strlen(spelled);
            if (past >= strlen(buf))
                break;
            at = buf + past - 1;
        }
    }
    size_t n = strlen(buf);
    if (n >= cap)
        n = cap - 1; /* cap > 0: the callers' buffers */
    memcpy(out, buf, n);
    out[n] = '\0';
}

/* Sends lv->req and waits for lv->rep.  EXIT_OK leaves an ok reply in
 * lv->rep (release it); anything else has been reported. */
static int exchange(struct live *lv)
{
    struct tny_diag d = {{0}};
    int status = connect_hub(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    tny_wire_reply_release(&lv->rep);
    int rc = hub_console_call(lv->conn, &lv->req, &lv->rep, &d);
    if (rc < 0) {
        char words[sizeof d.msg + 256];
        cli_words(lv, d.msg[0] ? d.msg : tny_strerror(rc), words, sizeof words);
        say("%s", words);
        return exit_for_conn(rc);
    }
    if (lv->rep.rc != TNY_OK) {
        char words[sizeof lv->rep.message + 256];
        cli_words(
            lv, lv->rep.message[0] ? lv->rep.message : tny_strerror(lv->rep.rc),
            words, sizeof words);
        /* the command as typed: "the hub refused round pair: ..." */
        say("the hub refused %s%s%s: %s",
            lv->cmd ? lv->cmd->group : tny_wire_cmd_name(lv->req.cmd),
            lv->cmd && lv->cmd->verb ? " " : "",
            lv->cmd && lv->cmd->verb ? lv->cmd->verb : "", words);
        tny_wire_reply_release(&lv->rep);
        return HUB_CONSOLE_EXIT_REFUSED;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* A fresh request for the command's event (NULL: none). */
static int start_request(struct live *lv, enum tny_wire_cmd cmd,
                         const char *event_id)
{
    /* Not tny_wire_request_release: before encode the heap members are
     * borrowed (the command frees what it read). */
    memset(&lv->req, 0, sizeof lv->req);
    lv->req.cmd = cmd;
    if (event_id)
        return put_id(lv->req.event_id, event_id, "EVENT_ID");
    return HUB_CONSOLE_EXIT_OK;
}

/* ---- output ------------------------------------------------------------- */

static int flush_out(void)
{
    if (fflush(out()) == EOF || ferror(out())) {
        int e = errno;
        if (tny_cli_reader_gone(out(), e))
            return HUB_CONSOLE_EXIT_OK; /* `| head`: quietly (cli_out.h) */
        say("cannot write output: %s", strerror(e));
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    return HUB_CONSOLE_EXIT_OK;
}

static void print_payload(const char *json)
{
    size_t n = strlen(json);
    fputs(json, out());
    if (n == 0 || json[n - 1] != '\n')
        fputc('\n', out());
}

/* --json without a payload: the reply's other fields as a small object. */
static void print_reply_object(const struct tny_wire_reply *rep)
{
    json_t *o = json_object();
    char *text = NULL;
    if (o) {
        json_object_set_new(o, "ok", json_true());
        if (rep->event_id[0])
            json_object_set_new(o, "event_id", json_string(rep->event_id));
        if (rep->round)
            json_object_set_new(o, "round", json_integer(rep->round));
        if (rep->count)
            json_object_set_new(o, "count",
                                json_integer((json_int_t)rep->count));
        if (rep->message[0])
            json_object_set_new(o, "message", json_string(rep->message));
        text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(o);
    }
    if (text) {
        print_payload(text);
        free(text);
    } else {
        say("out of memory");
    }
}

/* Text from the hub (a name, a reason) as one printable line (issue 22):
 * control characters never reach the terminal raw (an ESC sequence in an
 * imported name, a newline in a reason that would forge a log line);
 * they print as \n, \r, \t or \xHH (C1 controls as \u00HH). */
static void print_text(const char *s)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    for (; *u; u++) {
        if (*u == '\n')
            fputs("\\n", out());
        else if (*u == '\r')
            fputs("\\r", out());
        else if (*u == '\t')
            fputs("\\t", out());
        else if (*u < 0x20 || *u == 0x7f)
            fprintf(out(), "\\x%02x", *u);
        else if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
            fprintf(out(), "\\u%04x", *++u);
        else
            fputc(*u, out());
    }
}

static void print_scalar(const json_t *v)
{
    if (json_is_string(v)) {
        print_text(json_string_value(v));
    } else if (json_is_integer(v)) {
        fprintf(out(), "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        fprintf(out(), "%g", json_real_value(v));
    } else {
        char *t =
            json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
        fputs(t ? t : "?", out());
        free(t);
    }
}

/* One record: "key=value  key=value" (nested values as compact JSON). */
static void print_record(const json_t *rec)
{
    const char *key;
    json_t *v;
    bool first = true;
    if (!json_is_object(rec)) {
        print_scalar(rec);
        fputc('\n', out());
        return;
    }
    json_object_foreach ((json_t *)rec, key, v) {
        size_t len = strlen(key);
        /* An instant (UTC ms, after 2001) is shown in local time, its key
         * without "_ms": created=2026-11-24 18:05:09.  --json keeps ms. */
        if (len > 3 && strcmp(key + len - 3, "_ms") == 0 &&
            json_is_integer(v) && json_integer_value(v) > 1000000000000LL) {
            char when[32];
            time_t secs = (time_t)(json_integer_value(v) / 1000);
            struct tm tm;
            if (localtime_r(&secs, &tm) &&
                strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm) > 0) {
                fprintf(out(), "%s%.*s=%s", first ? "" : "  ", (int)(len - 3),
                        key, when);
                first = false;
                continue;
            }
        }
        fprintf(out(), "%s%s=", first ? "" : "  ", key);
        print_scalar(v);
        first = false;
    }
    fputc('\n', out());
}

/* True for a non-empty array of objects. */
static bool is_record_list(const json_t *v)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return false;
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!json_is_object(json_array_get(v, i)))
            return false;
    return true;
}

/* Records (events, devices, a created event): an array, an object whose
 * only member is an array or that holds one array of objects, or else one
 * flat object; false for any other shape (the caller prints the JSON). */
static bool print_records(const json_t *root)
{
    const json_t *list = root;
    if (json_is_object(root)) {
        const char *key;
        json_t *v;
        list = NULL;
        json_object_foreach ((json_t *)root, key, v) {
            if (json_object_size(root) == 1 && json_is_array(v))
                list = v;
            else if (is_record_list(v) && list)
                return false; /* two lists: not a simple shape */
            else if (is_record_list(v))
                list = v;
        }
        if (!list) {
            print_record(root);
            return true;
        }
    }
    if (!json_is_array(list))
        return false;
    if (json_array_size(list) == 0)
        out_line("(none)");
    for (size_t i = 0; i < json_array_size(list); i++)
        print_record(json_array_get(list, i));
    return true;
}

/* The pairing shape of `tourney pair`: round, stage, tables[]. */
/* A player as listings show them: "ID Name" (the reply's "names" map;
 * the id alone when the hub sent no name). */
static void print_player(const json_t *names, const json_t *id)
{
    const json_t *name = json_is_string(id)
                             ? json_object_get(names, json_string_value(id))
                             : NULL;
    print_scalar(id);
    if (json_is_string(name)) {
        fputc(' ', out());
        print_text(json_string_value(name));
    }
}

/* What a device showing a table is, by its id: a phone page (web-N: the
 * table's code or its players' own codes, issue 20) or a table device
 * (a Pi or a laptop running tourney-table). */
static const char *device_kind(const char *id)
{
    return strncmp(id, "web-", 4) == 0 ? "phone page" : "Pi";
}

static void print_published_count(int32_t n_assigned, int32_t n_missing)
{
    fprintf(out(), "  %d table%s at a device, %d without one\n",
            (int)n_assigned, n_assigned == 1 ? "" : "s", (int)n_missing);
}

static void print_published_table(int32_t table, const char *device)
{
    fprintf(out(), "  table %-4d device %s (%s)\n", (int)table, device,
            device_kind(device));
}

static void print_published_missing(int32_t table)
{
    fprintf(out(),
            "  table %-4d NO DEVICE: enter its result with `tourney live "
            "result enter`\n",
            (int)table);
}

static void print_published_idle(int64_t idle)
{
    if (idle > 0)
        fprintf(out(),
                "  %lld device%s of this event without a table this round\n",
                (long long)idle, idle == 1 ? "" : "s");
}

/* The summary of `round publish`: which device shows which table (a Pi
 * or the players' phones, as after the publish), the tables without one
 * (their results go in by `result enter`), the event's devices left
 * without a table. */
static bool print_publish_summary(const json_t *root)
{
    const json_t *assigned = json_object_get(root, "assigned");
    const json_t *missing = json_object_get(root, "tables_without_device");
    const json_t *idle = json_object_get(root, "idle_devices"), *v;
    size_t i;
    if (!json_is_array(assigned) || !json_is_array(missing))
        return false;
    print_published_count((int32_t)json_array_size(assigned),
                          (int32_t)json_array_size(missing));
    json_array_foreach (assigned, i, v) {
        const char *d = json_string_value(json_object_get(v, "device"));
        print_published_table(
            (int32_t)json_integer_value(json_object_get(v, "table")),
            d ? d : "?");
    }
    json_array_foreach (missing, i, v)
        print_published_missing((int32_t)json_integer_value(v));
    if (json_is_integer(idle))
        print_published_idle((int64_t)json_integer_value(idle));
    return true;
}

/* The publish summary (TNY_REPLY_PUBLISHED), typed: as
 * print_publish_summary prints its JSON. */
static void print_published(const struct tny_wire_published *p)
{
    print_published_count(p->n_assigned, p->n_missing);
    for (int32_t i = 0; i < p->n_assigned; i++)
        print_published_table(p->tables[i], p->devices[i]);
    for (int32_t i = 0; i < p->n_missing; i++)
        print_published_missing(p->missing[i]);
    print_published_idle(p->idle_devices);
}

/* " 44:10 left (running)" of a round show's "clock" (nothing without). */
static void print_time_left(const json_t *clock)
{
    const json_t *left = json_object_get(clock, "left_ms");
    const json_t *state = json_object_get(clock, "state");
    if (!json_is_integer(left) || !json_is_string(state))
        return;
    long long ms = json_integer_value(left), s = (ms < 0 ? -ms : ms) / 1000;
    fprintf(out(), " %lld:%02lld %s (%s)", s / 60, s % 60,
            ms < 0 ? "over" : "left", json_string_value(state));
}

static bool print_draft(const json_t *root, bool published)
{
    if (published && json_object_get(root, "assigned"))
        return print_publish_summary(root);
    const json_t *tables = json_object_get(root, "tables");
    const json_t *names = json_object_get(root, "names");
    const json_t *round = json_object_get(root, "round");
    const json_t *stage = json_object_get(root, "stage");
    if (!json_is_array(tables))
        return false;
    fprintf(out(), "round ");
    if (round)
        print_scalar(round);
    const json_t *status = json_object_get(root, "status");
    if (json_is_string(stage))
        fprintf(out(), " (%s)", json_string_value(stage));
    /* A round at the tables says its status; a draft says draft. */
    if (json_is_string(status))
        fprintf(out(), ", %s", json_string_value(status));
    else
        fputs(published ? "" : ", draft", out());
    fputc('\n', out());
    if (json_object_get(root, "clock")) { /* issue 22: the time left */
        fputs("  clock", out());
        print_time_left(json_object_get(root, "clock"));
        fputc('\n', out());
    }
    for (size_t i = 0; i < json_array_size(tables); i++) {
        const json_t *t = json_array_get(tables, i);
        const json_t *players = json_object_get(t, "players");
        const json_t *bye = json_object_get(t, "bye");
        if (json_is_string(bye)) {
            fprintf(out(), "  bye       ");
            print_player(names, bye);
            fputc('\n', out());
            continue;
        }
        fprintf(out(), "  table ");
        const json_t *num = json_object_get(t, "table");
        if (json_is_integer(num))
            fprintf(out(), "%-4lld", (long long)json_integer_value(num));
        else
            fprintf(out(), "?   ");
        for (size_t p = 0; p < json_array_size(players); p++) {
            fputs(p ? " - " : "", out());
            print_player(names, json_array_get(players, p));
        }
        if (json_object_get(t, "clock")) { /* its own time (issue 22) */
            fputs("  clock", out());
            print_time_left(json_object_get(t, "clock"));
        }
        fputc('\n', out());
    }
    /* The engine's explanation (README: the draft comes with it), each
     * line indented under a heading, deeper than the tables' rows. */
    const json_t *explain = json_object_get(root, "explain");
    if (json_is_string(explain) && json_string_length(explain) > 0) {
        out_line("explanation:");
        for (const char *p = json_string_value(explain); *p;) {
            size_t n = strcspn(p, "\n");
            if (n > 0)
                fprintf(out(), "    %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    return true;
}

/* " 44:10 left (running)" of a typed clock (issue 22). */
static void print_time_left_typed(const struct tny_wire_time_left *c)
{
    static const char *const names[] = {"ready", "running", "paused"};
    long long ms = c->left_ms, s = (ms < 0 ? -ms : ms) / 1000;
    fprintf(out(), " %lld:%02lld %s (%s)", s / 60, s % 60,
            ms < 0 ? "over" : "left",
            c->state <= TNY_ROUND_CLOCK_PAUSED ? names[c->state] : "?");
}

/* The seating's names sorted by id, for print_seating_player. */
static int name_cmp(const void *a, const void *b)
{
    const struct tny_wire_player_name *x = *(const void *const *)a;
    const struct tny_wire_player_name *y = *(const void *const *)b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x < y) - (x > y); /* the last of a duplicate first */
}

static int name_key_cmp(const void *key, const void *b)
{
    const struct tny_wire_player_name *y = *(const void *const *)b;
    return strcmp(key, y->id);
}

/* "ID Name" (the id alone when the seating has no name for it). */
static void print_seating_player(const struct tny_wire_player_name **by_id,
                                 int32_t n, const char *id)
{
    const struct tny_wire_player_name **hit =
        by_id ? bsearch(id, by_id, (size_t)n, sizeof *by_id, name_key_cmp)
              : NULL;
    while (hit && hit > by_id && strcmp(hit[-1]->id, id) == 0)
        hit--; /* the first in order: a duplicate's last */
    print_text(id);
    if (hit && (*hit)->name) {
        fputc(' ', out());
        print_text((*hit)->name);
    }
}

/* A round's seating (TNY_REPLY_DRAFT), as print_draft printed its JSON;
 * false for the short form of a republished round. */
static bool print_seating(const struct tny_wire_seating *s)
{
    if (s->republished)
        return false;
    const struct tny_wire_player_name **by_id =
        s->n_names ? malloc((size_t)s->n_names * sizeof *by_id) : NULL;
    for (int32_t i = 0; by_id && i < s->n_names; i++)
        by_id[i] = &s->names[i];
    if (by_id)
        qsort(by_id, (size_t)s->n_names, sizeof *by_id, name_cmp);
    fprintf(out(), "round %d", (int)s->round);
    if (s->has_stage)
        fprintf(out(), " (%s)", tny_stage_kind_name(s->stage));
    /* A round at the tables says its status; a draft says draft. */
    static const char *const status[] = {"draft", "draft", "published",
                                         "started", "closed"};
    fprintf(out(), ", %s\n",
            s->status <= TNY_WIRE_ROUND_CLOSED ? status[s->status] : "?");
    if (s->clock.has) { /* issue 22: the time left */
        fputs("  clock", out());
        print_time_left_typed(&s->clock);
        fputc('\n', out());
    }
    for (int32_t i = 0; i < s->n_tables; i++) {
        const struct tny_wire_seated_table *t = &s->tables[i];
        if (t->table == 0) {
            fprintf(out(), "  bye       ");
            print_seating_player(by_id, s->n_names, t->players[0]);
            fputc('\n', out());
            continue;
        }
        fprintf(out(), "  table %-4d", (int)t->table);
        for (int32_t p = 0; p < t->n_players; p++) {
            fputs(p ? " - " : "", out());
            print_seating_player(by_id, s->n_names, t->players[p]);
        }
        if (t->clock.has) { /* its own time (issue 22) */
            fputs("  clock", out());
            print_time_left_typed(&t->clock);
        }
        fputc('\n', out());
    }
    free(by_id);
    /* The engine's explanation (README: the draft comes with it), each
     * line indented under a heading, deeper than the tables' rows. */
    if (s->explain && s->explain[0]) {
        out_line("explanation:");
        for (const char *p = s->explain; *p;) {
            size_t n = strcspn(p, "\n");
            if (n > 0)
                fprintf(out(), "    %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    return true;
}

/* std_number(v, num): a standings value as the printouts and the
 * dashboard show it, at most two decimals, no trailing zeros ("12.33",
 * not 12.3333 or 12.333333: tryout of session 14); num holds 32. */
static const char *std_number(double v, char num[32])
{
    hub_plain_number(v, num, 32);
    return num;
}

/* The standings shape of `tourney standings` from JSON text: a hub
 * from before typed replies (issue 18) sends them so. */
static bool print_standings(const json_t *root)
{
    const json_t *rows = json_object_get(root, "standings");
    const json_t *after = json_object_get(root, "after_round");
    const json_t *stage = json_object_get(root, "stage");
    if (!json_is_array(rows))
        return false;
    fprintf(
        out(), "standings after round %lld",
        (long long)(json_is_integer(after) ? json_integer_value(after) : 0));
    if (json_is_string(stage))
        fprintf(out(), " (%s)", json_string_value(stage));
    fputc('\n', out());
    /* Columns (CM-8: every tiebreak used): rank, player id, points, the
     * tiebreaks in the engine's order (the first row's keys, as the CSV
     * names them), the name last so that no name moves a column. */
    const json_t *first = json_object_get(json_array_get(rows, 0), "tiebreaks");
    const char *tb_key[16];
    int tb_w[16], n_tb = 0, id_w = 6, pts_w = 6;
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)first, key, v) {
        if (n_tb < 16) {
            tb_key[n_tb] = key;
            tb_w[n_tb++] = (int)strlen(key) > 4 ? (int)strlen(key) : 4;
        }
    }
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        const char *id = json_string_value(json_object_get(r, "player"));
        char num[32];
        if (id && (int)strlen(id) > id_w)
            id_w = (int)strlen(id);
        int n = (int)strlen(
            std_number(json_number_value(json_object_get(r, "points")), num));
        if (n > pts_w)
            pts_w = n;
        for (int k = 0; k < n_tb; k++) {
            n = (int)strlen(
                std_number(json_number_value(json_object_get(
                               json_object_get(r, "tiebreaks"), tb_key[k])),
                           num));
            if (n > tb_w[k])
                tb_w[k] = n;
        }
    }
    fprintf(out(), "%4s  %-*s  %*s", "rank", id_w, "player", pts_w, "points");
    for (int k = 0; k < n_tb; k++)
        fprintf(out(), "  %*s", tb_w[k], tb_key[k]);
    out_line("  name");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        const json_t *rank = json_object_get(r, "rank");
        const json_t *pts = json_object_get(r, "points");
        const json_t *name = json_object_get(r, "name");
        const json_t *tbs = json_object_get(r, "tiebreaks");
        char num[32];
        fprintf(out(), "%4lld  %-*s  %*s", (long long)json_integer_value(rank),
                id_w,
                json_string_value(json_object_get(r, "player"))
                    ? json_string_value(json_object_get(r, "player"))
                    : "?",
                pts_w, std_number(json_number_value(pts), num));
        for (int k = 0; k < n_tb; k++) {
            const json_t *tv = json_object_get(tbs, tb_key[k]);
            if (json_is_number(tv))
                fprintf(out(), "  %*s", tb_w[k],
                        std_number(json_number_value(tv), num));
            else
                fprintf(out(), "  %*s", tb_w[k], "-");
        }
        fputs("  ", out());
        print_text(json_is_string(name) ? json_string_value(name) : "");
        fprintf(out(), "%s\n",
                json_is_true(json_object_get(r, "disqualified"))
                    ? " (disqualified)"
                : json_is_true(json_object_get(r, "dropped")) ? " (dropped)"
                                                              : "");
    }
    return true;
}

/* The standings (TNY_REPLY_STANDINGS) of `tourney standings`' shape:
 * rank, id, points, every tiebreak (CM-8), the name last. */
static void print_standings_typed(const struct tny_wire_standings *s)
{
    fprintf(out(), "standings after round %d (%s)\n", (int)s->after_round,
            tny_stage_kind_name(s->stage));
    /* Columns: the tiebreaks in the engine's order, as the CSV names
     * them (none without a row), the name last so that no name moves a
     * column. */
    int n_tb = s->n_rows ? (int)s->n_tiebreaks : 0;
    int tb_w[TNY_MAX_TIEBREAKS], id_w = 6, pts_w = 6;
    char num[32];
    for (int k = 0; k < n_tb; k++) {
        int n = (int)strlen(tny_tiebreak_name(s->tiebreaks[k]));
        tb_w[k] = n > 4 ? n : 4;
    }
    for (int32_t i = 0; i < s->n_rows; i++) {
        const struct tny_wire_standing_row *r = &s->rows[i];
        if ((int)strlen(r->player) > id_w)
            id_w = (int)strlen(r->player);
        int n = (int)strlen(
            std_number((double)r->points_units / TNY_POINT_SCALE, num));
        if (n > pts_w)
            pts_w = n;
        for (int k = 0; k < n_tb; k++) {
            n = (int)strlen(
                std_number(r->has_tiebreak[k] ? r->tiebreaks[k] : 0.0, num));
            if (n > tb_w[k])
                tb_w[k] = n;
        }
    }
    fprintf(out(), "%4s  %-*s  %*s", "rank", id_w, "player", pts_w, "points");
    for (int k = 0; k < n_tb; k++)
        fprintf(out(), "  %*s", tb_w[k], tny_tiebreak_name(s->tiebreaks[k]));
    out_line("  name");
    for (int32_t i = 0; i < s->n_rows; i++) {
        const struct tny_wire_standing_row *r = &s->rows[i];
        fprintf(out(), "%4d  %-*s  %*s", (int)r->rank, id_w, r->player, pts_w,
                std_number((double)r->points_units / TNY_POINT_SCALE, num));
        for (int k = 0; k < n_tb; k++) {
            if (r->has_tiebreak[k])
                fprintf(out(), "  %*s", tb_w[k],
                        std_number(r->tiebreaks[k], num));
            else
                fprintf(out(), "  %*s", tb_w[k], "-");
        }
        fputs("  ", out());
        print_text(r->name ? r->name : "");
        fprintf(out(), "%s\n",
                r->disqualified ? " (disqualified)"
                : r->dropped    ? " (dropped)"
                                : "");
    }
}

/* --json of a typed reply: its JSON text, written from the values. */
static int print_typed_json(const struct tny_wire_reply *rep,
                            enum tny_wire_cmd cmd)
{
    char *text = hub_console_reply_json(rep, cmd);
    if (!text) {
        say("out of memory");
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    print_payload(text);
    free(text);
    return flush_out();
}

/* Prints the reply: its JSON payload with --json (or for an event file,
 * the export), else the human line and the payload in the shape the
 * request's command description gives (tny/console_cmds.h), falling back
 * to the JSON itself when the payload is not of that shape. */
static int show(struct live *lv, const char *line)
{
    const struct tny_wire_reply *rep = &lv->rep;
    const struct tny_wire_cmd_info *info = tny_wire_cmd_info(lv->req.cmd);
    enum tny_reply_shape shape = info ? info->reply : TNY_REPLY_EVENT;
    if (lv->json || (shape == TNY_REPLY_EVENT && rep->json)) {
        if (rep->seating || rep->standings || rep->published || rep->records)
            return print_typed_json(rep, lv->req.cmd);
        if (rep->json)
            print_payload(rep->json);
        else
            print_reply_object(rep);
        return flush_out();
    }
    if (line && line[0])
        out_line(line);
    /* An accepted command's message is a note for the organiser (e.g. the
     * draft was planned again); standings use it for their title. */
    if (rep->message[0] && lv->req.cmd != TNY_WIRE_CMD_GET_STANDINGS) {
        char words[sizeof rep->message + 256];
        cli_words(lv, rep->message, words, sizeof words);
        out_line(words);
    }
    if (rep->seating && !print_seating(rep->seating))
        return print_typed_json(rep, lv->req.cmd);
    if (rep->standings)
        print_standings_typed(rep->standings);
    if (rep->published)
        print_published(rep->published);
    if (rep->records || (rep->json && rep->json[0])) {
        json_t *root = hub_console_reply_tree(rep);
        bool done = false;
        if (root) {
            switch (shape) {
            case TNY_REPLY_RECORDS: done = print_records(root); break;
            case TNY_REPLY_DRAFT: done = print_draft(root, false); break;
            case TNY_REPLY_PUBLISHED: done = print_draft(root, true); break;
            case TNY_REPLY_STANDINGS: done = print_standings(root); break;
            case TNY_REPLY_NONE: done = true; break;
            case TNY_REPLY_EVENT: break;
            }
            json_decref(root);
        }
        if (!done && !rep->records)
            print_payload(rep->json);
        else if (!done)
            return print_typed_json(rep, lv->req.cmd);
    }
    return flush_out();
}

/* ---- round resolution ------------------------------------------------- */

/* The round in progress: the number of rounds in the hub's export. */
static int current_round(struct live *lv, int32_t *round)
{
    char ev[TNY_WIRE_ID_MAX + 1];
    struct tny_wire_request saved = lv->req;
    memcpy(ev, lv->req.event_id, sizeof ev);
    int status = start_request(lv, TNY_WIRE_CMD_EXPORT_EVENT, ev);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    lv->req = saved;
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    json_t *root = lv->rep.json ? json_loads(lv->rep.json, 0, NULL) : NULL;
    const json_t *rounds = json_object_get(root, "rounds");
    *round = json_is_array(rounds) ? (int32_t)json_array_size(rounds) : -1;
    json_decref(root);
    tny_wire_reply_release(&lv->rep);
    if (*round < 0) {
        say("cannot tell the current round of %s from its export: give "
            "--round N",
            ev);
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    if (*round == 0) {
        say("%s has no round yet: pair and publish one first", ev);
        return HUB_CONSOLE_EXIT_REFUSED;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* The round of the unpublished draft (show_draft round 0). */
static int draft_round(struct live *lv, int32_t *round)
{
    char ev[TNY_WIRE_ID_MAX + 1];
    struct tny_wire_request saved = lv->req;
    memcpy(ev, lv->req.event_id, sizeof ev);
    int status = start_request(lv, TNY_WIRE_CMD_SHOW_DRAFT, ev);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    lv->req = saved;
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    *round = lv->rep.round;
    if (*round <= 0 && lv->rep.seating)
        *round = lv->rep.seating->round;
    tny_wire_reply_release(&lv->rep);
    if (*round <= 0) {
        say("cannot tell the draft's round of %s: give --round N", ev);
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* --round N, or the round resolve() finds. */
static int round_option(struct live *lv,
                        int (*resolve)(struct live *, int32_t *))
{
    int32_t round = 0;
    int status = opt_int(lv, "round", 1, 10000, &round);
    if (status == HUB_CONSOLE_EXIT_OK && round == 0)
        status = resolve(lv, &round);
    lv->req.round = round;
    return status;
}

/* ---- the commands ------------------------------------------------------- */

static int run_event_create(struct live *lv)
{
    const char *preset = opt(lv, "format");
    const char *format_file = opt(lv, "format-file");
    const char *options = opt(lv, "options");
    const char *options_file = opt(lv, "options-file");
    const char *seed = opt(lv, "seed");
    const char *title = opt(lv, "title");
    char *format_text = NULL, *options_text = NULL;
    struct tny_diag d = {{0}};
    size_t len;
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_CREATE_EVENT, lv->pos[0]);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    status = HUB_CONSOLE_EXIT_USAGE;
    if (!preset == !format_file) {
        say("event create: give --format NAME or --format-file FILE");
        goto out;
    }
    if (options && options_file) {
        say("event create: give --options JSON or --options-file FILE, not "
            "both");
        goto out;
    }
    if (preset && put_text(lv->req.preset, sizeof lv->req.preset, preset,
                           "--format") != HUB_CONSOLE_EXIT_OK)
        goto out;
    if (format_file) {
        if (hub_console_read_file(format_file, TNY_WIRE_MAX_CONSOLE_MSG / 2,
                                  &format_text, &len, &d) < 0) {
            say("--format-file: %s", d.msg);
            goto out;
        }
        lv->req.format_json = format_text;
    }
    if (options_file) {
        if (hub_console_read_file(options_file, TNY_WIRE_MAX_CONSOLE_MSG / 4,
                                  &options_text, &len, &d) < 0) {
            say("--options-file: %s", d.msg);
            goto out;
        }
        options = options_text;
    }
    if (options) {
        json_error_t err;
        json_t *o = json_loads(options, 0, &err);
        bool is_obj = json_is_object(o);
        json_decref(o);
        if (!is_obj) {
            say("options: expected a JSON object such as "
                "{\"swiss_rounds\": 5}%s%s",
                o ? "" : ": ", o ? "" : err.text);
            goto out;
        }
        lv->req.options_json = (char *)options;
    }
    if (title && put_text(lv->req.title, sizeof lv->req.title, title,
                          "--title") != HUB_CONSOLE_EXIT_OK)
        goto out;
    /* issue 21: the hub checks the code against its catalogues */
    if (opt(lv, "language") &&
        put_text(lv->req.language, sizeof lv->req.language, opt(lv, "language"),
                 "--language") != HUB_CONSOLE_EXIT_OK)
        goto out;
    if (seed) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(seed, &end, 10);
        if (seed[0] < '0' || seed[0] > '9' || *end || errno) {
            say("--seed \"%s\": expected a whole number 0..2^64-1", seed);
            goto out;
        }
        lv->req.has_seed = true;
        lv->req.seed = s;
    }
    status = exchange(lv);
    if (status == HUB_CONSOLE_EXIT_OK) {
        /* the seed the hub drew or was given: every lot comes from it */
        json_t *root = hub_console_reply_tree(&lv->rep);
        const json_t *sd = json_object_get(root, "seed");
        int n = snprintf(line, sizeof line, "created event %s",
                         lv->rep.event_id[0] ? lv->rep.event_id : lv->pos[0]);
        if (json_is_integer(sd) && n > 0 && (size_t)n < sizeof line)
            snprintf(line + n, sizeof line - (size_t)n,
                     "\nseed %lld: every lot of the event is drawn from it "
                     "(CM-4)",
                     (long long)json_integer_value(sd));
        json_decref(root);
        status = show(lv, line);
    }
out:
    lv->req.format_json = NULL;
    lv->req.options_json = NULL;
    free(format_text);
    free(options_text);
    return status;
}

/* event import EVENT_ID FILE [--from KIND]: an event file, or another
 * tool's file (tny/import.h) turned into one here, created on the hub with
 * its players, drops and rounds (the convention continues in Tourney). */
static int run_event_import(struct live *lv)
{
    const char *from = opt(lv, "from");
    char *text = NULL, *event_text = NULL;
    struct tny_diag d = {{0}};
    struct tny_event ev;
    size_t len;
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_CREATE_EVENT, lv->pos[0]);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (hub_console_read_file(lv->pos[1], TNY_WIRE_MAX_CONSOLE_MSG / 2, &text,
                              &len, &d) < 0) {
        say("event import: %s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    enum tny_import_kind kind;
    if (from && tny_import_kind_from_name(from, &kind) < 0) {
        say("--from \"%s\": expected listfortress, cryodex or nrtm", from);
        status = HUB_CONSOLE_EXIT_USAGE;
        goto out;
    }
    /* Checked here as the hub will, so a bad file never leaves. */
    struct tny_import_warnings warn = {0, NULL};
    int rc = from ? tny_import_warn(kind, text, len, &ev, &warn, &d)
                  : tny_event_from_json_text(text, len, &ev, &d);
    if (rc < 0) {
        say("%s", d.msg);
        status = HUB_CONSOLE_EXIT_USAGE;
        goto out;
    }
    /* What the import kept with a warning (issue 19), each line naming
     * its place in the source file. */
    for (int32_t i = 0; i < warn.n; i++)
        say("warning: %s", warn.lines[i]);
    tny_import_warnings_release(&warn);
    rc = tny_event_to_json(&ev, &event_text);
    int32_t n_players = ev.n_players, n_rounds = ev.n_rounds;
    tny_event_release(&ev);
    if (rc < 0) {
        say("event import: out of memory");
        status = HUB_CONSOLE_EXIT_INTERNAL;
        goto out;
    }
    lv->req.event_json = event_text;
    status = exchange(lv);
    if (status == HUB_CONSOLE_EXIT_OK) {
        snprintf(
            line, sizeof line, "imported event %s: %d player%s, %d round%s",
            lv->rep.event_id[0] ? lv->rep.event_id : lv->pos[0], (int)n_players,
            n_players == 1 ? "" : "s", (int)n_rounds, n_rounds == 1 ? "" : "s");
        status = show(lv, line);
    }
out:
    lv->req.event_json = NULL;
    free(event_text);
    free(text);
    return status;
}

static int reason_option(struct live *lv);

/* run_plain's options: each the plain field of the same name (--reason
 * T, --force, --confirm, --round N, --table N) where the description
 * carries that field. */
static int plain_options(struct live *lv, unsigned fields)
{
    for (const char *const *o = lv->cmd->opts; *o; o++) {
        int status = HUB_CONSOLE_EXIT_OK;
        if (strcmp(*o, "reason=") == 0 && (fields & TNY_WF_REASON)) {
            status = reason_option(lv);
        } else if (strcmp(*o, "round=") == 0 && (fields & TNY_WF_ROUND)) {
            status = opt_int(lv, "round", 1, 10000, &lv->req.round);
        } else if (strcmp(*o, "table=") == 0 && (fields & TNY_WF_TABLE)) {
            status = opt_int(lv, "table", 1, 100000, &lv->req.table);
        } else if (strcmp(*o, "force") == 0 && (fields & TNY_WF_FORCE)) {
            lv->req.force = flag(lv, "force");
        } else if (strcmp(*o, "confirm") == 0 && (fields & TNY_WF_CONFIRM)) {
            lv->req.confirm = flag(lv, "confirm");
        } else {
            say("%s: --%.*s is not a plain field's option (give the command "
                "a runner)",
                tny_wire_cmd_name(lv->cmd->wire), (int)strcspn(*o, "="), *o);
            return HUB_CONSOLE_EXIT_INTERNAL;
        }
        if (status != HUB_CONSOLE_EXIT_OK)
            return status;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* The runner of a command whose words are its description's plain
 * fields (issue 18): the synopsis names them (EVENT_ID, ROUND, TABLE,
 * PLAYER_ID, DEVICE, CODE, in brackets when optional; a round or table
 * >= 1 where the description requires it), its options are plain fields
 * too (plain_options), the request is built from them and the hub's
 * reply shown in its shape.  A new command of that kind needs no runner
 * of its own: its description names this one. */
static int run_plain(struct live *lv)
{
    enum tny_wire_cmd cmd = lv->cmd->wire;
    const struct tny_wire_cmd_info *info = tny_wire_cmd_info(cmd);
    char words[256], *save = NULL;
    const char *event = NULL;
    int k = 0, status;
    snprintf(words, sizeof words, "%s", lv->cmd->synopsis);
    for (char *w = strtok_r(words, " ", &save); w && !event;
         w = strtok_r(NULL, " ", &save), k++)
        if (strcmp(w, "EVENT_ID") == 0 && k < lv->n_pos)
            event = lv->pos[k];
    if (!info || (status = start_request(lv, cmd, event)) != 0)
        return info ? status : HUB_CONSOLE_EXIT_INTERNAL;
    snprintf(words, sizeof words, "%s", lv->cmd->synopsis);
    k = 0;
    for (char *w = strtok_r(words, " ", &save);
         w && k < lv->n_pos && status == HUB_CONSOLE_EXIT_OK;
         w = strtok_r(NULL, " ", &save), k++) {
        bool round_req = info->fields & TNY_WF_ROUND_REQ;
        bool table_req = info->fields & TNY_WF_TABLE_REQ;
        size_t wl = strlen(w);
        if (wl > 2 && w[0] == '[' && w[wl - 1] == ']') { /* optional */
            w[wl - 1] = '\0';
            w++;
        }
        if (strcmp(w, "EVENT_ID") == 0)
            continue;
        else if (strcmp(w, "ROUND") == 0)
            status = pos_int(lv, k, "ROUND", round_req, 10000, &lv->req.round);
        else if (strcmp(w, "TABLE") == 0)
            status = pos_int(lv, k, "TABLE", table_req, 100000, &lv->req.table);
        else if (strcmp(w, "PLAYER_ID") == 0)
            status = put_id(lv->req.player_id, lv->pos[k], "PLAYER_ID");
        else if (strcmp(w, "DEVICE") == 0)
            status = put_id(lv->req.device_id, lv->pos[k], "DEVICE");
        else if (strcmp(w, "CODE") == 0)
            status = put_id(lv->req.code, lv->pos[k], "CODE");
        else {
            say("%s: \"%s\" is not a plain field (give the command a runner)",
                info->name, w);
            return HUB_CONSOLE_EXIT_INTERNAL;
        }
    }
    if (status == HUB_CONSOLE_EXIT_OK)
        status = plain_options(lv, info->fields);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    return status == HUB_CONSOLE_EXIT_OK ? show(lv, NULL) : status;
}

static int run_players_import(struct live *lv)
{
    struct tny_diag d = {{0}};
    char *csv = NULL;
    size_t len;
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_IMPORT_PLAYERS, lv->pos[0]);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* Leave room in the 4 MiB message for everything around the CSV. */
    if (hub_console_read_file(lv->pos[1], TNY_WIRE_MAX_CONSOLE_MSG - 4096, &csv,
                              &len, &d) < 0) {
        say("%s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    if (len == 0) {
        say("%s: empty (expected a header row id,name,... and one row per "
            "player)",
            lv->pos[1]);
        free(csv);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    lv->req.csv = csv;
    lv->req.csv_len = len; /* all of it: a NUL byte is refused, not cut */
    status = exchange(lv);
    lv->req.csv = NULL;
    lv->req.csv_len = 0;
    free(csv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "imported %llu player%s into %s",
             (unsigned long long)lv->rep.count, lv->rep.count == 1 ? "" : "s",
             lv->req.event_id);
    return show(lv, line);
}

static int run_player_add(struct live *lv)
{
    struct tny_wire_player *p = &lv->req.player;
    const char *v;
    char line[512];
    int status = start_request(lv, TNY_WIRE_CMD_REGISTER_PLAYER, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(p->id, lv->pos[1], "PLAYER_ID");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_text(p->name, sizeof p->name, lv->pos[2], "NAME");
    if (status == HUB_CONSOLE_EXIT_OK && (v = opt(lv, "club")))
        status = put_text(p->club, sizeof p->club, v, "--club");
    if (status == HUB_CONSOLE_EXIT_OK && (v = opt(lv, "country")))
        status = put_text(p->country, sizeof p->country, v, "--country");
    if (status == HUB_CONSOLE_EXIT_OK && (v = opt(lv, "external-id")))
        status =
            put_text(p->external_id, sizeof p->external_id, v, "--external-id");
    if (status == HUB_CONSOLE_EXIT_OK && (v = opt(lv, "faction")))
        status = put_text(p->faction, sizeof p->faction, v, "--faction");
    if (status == HUB_CONSOLE_EXIT_OK && (v = opt(lv, "agenda")))
        status = put_text(p->agenda, sizeof p->agenda, v, "--agenda");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "first-round", 1, 10000, &p->first_round);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if ((v = opt(lv, "rating"))) {
        char *end;
        errno = 0;
        double r = strtod(v, &end);
        if (end == v || *end || errno || !(r >= -1000000 && r <= 1000000)) {
            say("--rating \"%s\": expected a number", v);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        p->has_rating = true;
        p->rating = r;
    }
    p->beginner = flag(lv, "beginner");
    p->colour_blind = flag(lv, "colour-blind");
    p->hook = flag(lv, "hook"); /* NH-10 */
    for (int i = 0; i < lv->n_opts; i++) {
        const struct opt_value *o = &lv->opts[i];
        if (strcmp(o->name, "army") == 0) {
            if (p->n_armies == TNY_MAX_ARMIES) {
                say("--army: at most %d", TNY_MAX_ARMIES);
                return HUB_CONSOLE_EXIT_USAGE;
            }
            if ((status = put_text(p->armies[p->n_armies], TNY_NAME_MAX,
                                   o->value, "--army")) != HUB_CONSOLE_EXIT_OK)
                return status;
            p->n_armies++;
        } else if (strcmp(o->name, "colour") == 0) {
            if (p->n_colours == 2) {
                say("--colour: at most 2 (TX-10)");
                return HUB_CONSOLE_EXIT_USAGE;
            }
            if ((status = put_text(p->colours[p->n_colours], TNY_NAME_MAX,
                                   o->value, "--colour")) !=
                HUB_CONSOLE_EXIT_OK)
                return status;
            p->n_colours++;
        }
    }
    char *decklist = NULL;
    if ((v = opt(lv, "decklist"))) { /* GT-14: a text file, judges only */
        struct tny_diag d = {{0}};
        size_t len;
        if (hub_console_read_file(v, TNY_WIRE_DECKLIST_MAX, &decklist, &len,
                                  &d) < 0) {
            say("--decklist: %s", d.msg);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        if (len == 0 || strlen(decklist) != len) {
            say("--decklist %s: expected text (empty, or a NUL byte)", v);
            free(decklist);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        lv->req.decklist = decklist;
    }
    status = exchange(lv);
    lv->req.decklist = NULL;
    free(decklist);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "registered %s (%s) in %s", p->id, p->name,
             lv->req.event_id);
    return show(lv, line);
}

/* drop, dq, rejoin: EVENT_ID PLAYER_ID and a round option. */
static int run_player_change(struct live *lv, enum tny_wire_cmd cmd,
                             const char *round_opt, const char *done)
{
    char line[256];
    int status = start_request(lv, cmd, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[1], "PLAYER_ID");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, round_opt, 0, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "reason"))
        status = put_text(lv->req.reason, sizeof lv->req.reason,
                          opt(lv, "reason"), "--reason");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* The round the change counts from, as the rules say it: dropped or
     * disqualified after round N, back from round N (GT-11). */
    bool back = cmd == TNY_WIRE_CMD_REJOIN_PLAYER;
    if (back)
        snprintf(line, sizeof line, "%s plays again in %s from round %d",
                 lv->req.player_id, lv->req.event_id, (int)lv->rep.round);
    else if (lv->rep.round > 0)
        snprintf(line, sizeof line, "%s %s from %s after round %d", done,
                 lv->req.player_id, lv->req.event_id, (int)lv->rep.round);
    else
        snprintf(line, sizeof line, "%s %s before any round: withdrawn from %s",
                 done, lv->req.player_id, lv->req.event_id);
    return show(lv, line);
}

static int run_player_drop(struct live *lv)
{
    return run_player_change(lv, TNY_WIRE_CMD_DROP_PLAYER, "after-round",
                             "dropped");
}

static int run_player_dq(struct live *lv)
{
    return run_player_change(lv, TNY_WIRE_CMD_DISQUALIFY_PLAYER, "after-round",
                             "disqualified");
}

/* NH-11: EVENT_ID PLAYER_ID --army A... (3 for a top 4, 4 for a top 8). */
static int run_player_declare(struct live *lv)
{
    char line[512];
    struct tny_wire_player *p = &lv->req.player;
    int status = start_request(lv, TNY_WIRE_CMD_DECLARE_ARMIES, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[1], "PLAYER_ID");
    for (int i = 0; status == HUB_CONSOLE_EXIT_OK && i < lv->n_opts; i++) {
        if (strcmp(lv->opts[i].name, "army") != 0)
            continue;
        if (p->n_armies == TNY_MAX_ARMIES) {
            say("--army: at most %d", TNY_MAX_ARMIES);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        status = put_text(p->armies[p->n_armies++], TNY_NAME_MAX,
                          lv->opts[i].value, "--army");
    }
    if (status == HUB_CONSOLE_EXIT_OK && p->n_armies == 0) {
        say("player declare: name the knockout armies with --army (NH-11)");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "%s declared %d knockout armies in %s",
             lv->req.player_id, (int)p->n_armies, lv->req.event_id);
    return show(lv, line);
}

static int run_player_rejoin(struct live *lv)
{
    return run_player_change(lv, TNY_WIRE_CMD_REJOIN_PLAYER, "from-round",
                             "brought back");
}

static int run_round_pair(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_PAIR_ROUND, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "round", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line,
             "paired round %d of %s as a draft: check it, then `tourney live "
             "round publish %s`",
             (int)lv->rep.round, lv->req.event_id, lv->req.event_id);
    return show(lv, line);
}

/* After a CM-5 edit: the hub answers a draft with itself, a published
 * round (sent to the tables again) with {"round": N, "republished":
 * true}: then the round is asked for, so that lv->rep holds the new
 * seating either way (--json keeps the hub's reply). */
static int edited_round(struct live *lv, bool *republished)
{
    *republished = lv->rep.seating && lv->rep.seating->republished;
    if (!*republished || lv->json)
        return HUB_CONSOLE_EXIT_OK;
    int32_t round = lv->req.round;
    struct tny_wire_request saved = lv->req;
    char note[sizeof lv->rep.message]; /* "forced: ..." stays */
    memcpy(note, lv->rep.message, sizeof note);
    int status = start_request(lv, TNY_WIRE_CMD_SHOW_DRAFT, saved.event_id);
    lv->req.round = round;
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    lv->req = saved;
    if (status == HUB_CONSOLE_EXIT_OK && note[0])
        memcpy(lv->rep.message, note, sizeof note);
    return status;
}

static int show_edited(struct live *lv, const char *line, bool republished)
{
    char both[1200];
    if (!republished || lv->json)
        return show(lv, line);
    snprintf(both, sizeof both,
             "%s\nround %d is published: its tables show the new seating now",
             line, (int)lv->req.round);
    return show(lv, both);
}

static int run_round_swap(struct live *lv)
{
    char line[1024];
    int status = start_request(lv, TNY_WIRE_CMD_SWAP_PLAYERS, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[2], "PLAYER_A");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.other_player_id, lv->pos[3], "PLAYER_B");
    if (status == HUB_CONSOLE_EXIT_OK)
        lv->req.force = flag(lv, "force");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    bool republished = false;
    status = edited_round(lv, &republished);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* "swapped p3 (Anna Nowak) and p7 (Bo Li)": the names of the seating */
    const struct tny_wire_seating *seating = lv->rep.seating;
    const char *na =
        seating ? hub_console_seating_name(seating, lv->req.player_id) : NULL;
    const char *nb =
        seating ? hub_console_seating_name(seating, lv->req.other_player_id)
                : NULL;
    snprintf(line, sizeof line,
             "swapped %s%s%s%s and %s%s%s%s in round %d of %s",
             lv->req.player_id, na ? " (" : "", na ? na : "", na ? ")" : "",
             lv->req.other_player_id, nb ? " (" : "", nb ? nb : "",
             nb ? ")" : "", (int)lv->req.round, lv->req.event_id);
    return show_edited(lv, line, republished);
}

static int run_round_move(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_MOVE_TABLE, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 3, "TO_TABLE", 1, 100000, &lv->req.to_table);
    if (status == HUB_CONSOLE_EXIT_OK)
        lv->req.force = flag(lv, "force");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    bool republished = false;
    int32_t from = lv->req.table, to = lv->req.to_table;
    status = edited_round(lv, &republished);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* TO_TABLE already seated a table: the two swap numbers (pair.h). */
    bool swapped = false;
    for (int32_t i = 0; lv->rep.seating && i < lv->rep.seating->n_tables; i++)
        swapped |= lv->rep.seating->tables[i].table == from;
    if (swapped)
        snprintf(line, sizeof line,
                 "swapped tables %d and %d in round %d of %s: the players of "
                 "table %d now play at table %d, those of table %d at table %d",
                 (int)from, (int)to, (int)lv->req.round, lv->req.event_id,
                 (int)from, (int)to, (int)to, (int)from);
    else
        snprintf(line, sizeof line,
                 "moved table %d to table %d in round %d of %s (no table %d "
                 "any more)",
                 (int)from, (int)to, (int)lv->req.round, lv->req.event_id,
                 (int)from);
    return show_edited(lv, line, republished);
}

static int run_round_fix(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_FIX_TABLE, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[1], "PLAYER_ID");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 0, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK)
        lv->req.force = flag(lv, "force");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (lv->req.table)
        snprintf(line, sizeof line, "%s now always plays at table %d (CM-5)",
                 lv->req.player_id, (int)lv->req.table);
    else
        snprintf(line, sizeof line, "%s has no fixed table any more",
                 lv->req.player_id);
    return show(lv, line);
}

static int run_round_publish(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_PUBLISH_ROUND, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = round_option(lv, draft_round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "published round %d of %s to the tables",
             (int)lv->req.round, lv->req.event_id);
    return show(lv, line);
}

static int run_round_close(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_CLOSE_ROUND, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = round_option(lv, current_round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "closed round %d of %s", (int)lv->req.round,
             lv->req.event_id);
    return show(lv, line);
}

static int run_stage_next(struct live *lv)
{
    char line[256];
    if (!flag(lv, "confirm")) {
        say("stage next: moving to the next stage cannot be undone; add "
            "--confirm");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    int status = start_request(lv, TNY_WIRE_CMD_NEXT_STAGE, lv->pos[0]);
    lv->req.confirm = true;
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* The hub pairs the next round: of the next stage once the current
     * one is over, else the current stage's next round (the stage is
     * named, so the line says which). */
    const struct tny_wire_seating *seating = lv->rep.seating;
    const char *stage = seating && seating->has_stage
                            ? tny_stage_kind_name(seating->stage)
                            : NULL;
    snprintf(line, sizeof line,
             "paired round %d of %s (%s) as a draft: check it, then `tourney "
             "live round publish %s`",
             (int)lv->rep.round, lv->req.event_id, stage ? stage : "?",
             lv->req.event_id);
    return show(lv, line);
}

static int run_clock(struct live *lv, enum tny_wire_cmd cmd, const char *done)
{
    char line[256], tables[32] = "every table";
    int status = start_request(lv, cmd, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "table", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "reason"))
        status = put_text(lv->req.reason, sizeof lv->req.reason,
                          opt(lv, "reason"), "--reason");
    if (status == HUB_CONSOLE_EXIT_OK && cmd == TNY_WIRE_CMD_CLOCK_EXTEND) {
        struct tny_diag d = {{0}};
        if (hub_console_duration_ms(lv->pos[1], &lv->req.extra_ms, &d) < 0) {
            say("clock extend: %s", d.msg);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        if (flag(lv, "undo")) /* issue 22: a mistaken extension back */
            lv->req.extra_ms = -lv->req.extra_ms;
    }
    if (status == HUB_CONSOLE_EXIT_OK)
        status = round_option(lv, current_round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (lv->req.table)
        snprintf(tables, sizeof tables, "table %d", (int)lv->req.table);
    if (cmd == TNY_WIRE_CMD_CLOCK_EXTEND) {
        /* the duration as a person says it: 5 min, 90 s, 1 h 30 min */
        long long sec = (long long)(llabs(lv->req.extra_ms) / 1000);
        char by[64] = "";
        int n = 0;
        if (sec >= 3600)
            n += snprintf(by + n, sizeof by - (size_t)n, "%lld h", sec / 3600);
        if (sec % 3600 >= 60)
            n += snprintf(by + n, sizeof by - (size_t)n, "%s%lld min",
                          n ? " " : "", sec % 3600 / 60);
        if (sec % 60 || sec == 0)
            snprintf(by + n, sizeof by - (size_t)n, "%s%lld s", n ? " " : "",
                     sec % 60);
        snprintf(line, sizeof line,
                 "%s the clock of %s by %s in round %d of %s",
                 lv->req.extra_ms < 0 ? "took back from" : "extended", tables,
                 by, (int)lv->req.round, lv->req.event_id);
    } else if (cmd == TNY_WIRE_CMD_CLOCK_DRAFT) {
        snprintf(line, sizeof line,
                 "started the own clock of %s in round %d of %s: its draft "
                 "began (AG-14)",
                 tables, (int)lv->req.round, lv->req.event_id);
    } else {
        snprintf(line, sizeof line, "%s the clock of %s in round %d of %s",
                 done, tables, (int)lv->req.round, lv->req.event_id);
    }
    return show(lv, line);
}

static int run_clock_start(struct live *lv)
{
    return run_clock(lv, TNY_WIRE_CMD_CLOCK_START, "started");
}

static int run_clock_pause(struct live *lv)
{
    return run_clock(lv, TNY_WIRE_CMD_CLOCK_PAUSE, "paused");
}

static int run_clock_resume(struct live *lv)
{
    return run_clock(lv, TNY_WIRE_CMD_CLOCK_RESUME, "resumed");
}

static int run_clock_draft(struct live *lv)
{
    if (!opt(lv, "table")) {
        say("clock draft: --table N is required (the table whose draft "
            "started)");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    return run_clock(lv, TNY_WIRE_CMD_CLOCK_DRAFT, "started (AG-14 draft)");
}

static int run_clock_extend(struct live *lv)
{
    return run_clock(lv, TNY_WIRE_CMD_CLOCK_EXTEND, "extended");
}

static int run_result_enter(struct live *lv)
{
    struct tny_diag d = {{0}};
    char *text = NULL;
    size_t len;
    char line[256];
    const char *json = lv->pos[3];
    int status = start_request(lv, TNY_WIRE_CMD_ENTER_RESULT, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "reason"))
        status = put_text(lv->req.reason, sizeof lv->req.reason,
                          opt(lv, "reason"), "--reason");
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (strcmp(json, "-") == 0) {
        if (hub_console_read_file("-", 1024 * 1024, &text, &len, &d) < 0) {
            say("%s", d.msg);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        json = text;
    }
    if (hub_console_result_from_json(json, opt(lv, "game"), &lv->req.result,
                                     &d) < 0) {
        say("%s", d.msg);
        free(text);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    free(text);
    lv->req.override = flag(lv, "override");
    status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line, "%s the result of table %d, round %d of %s",
             lv->req.override ? "overrode" : "entered", (int)lv->req.table,
             (int)lv->req.round, lv->req.event_id);
    return show(lv, line);
}

static int run_result_penalty(struct live *lv)
{
    struct tny_diag d = {{0}};
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_PENALTY, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[3], "PLAYER_ID");
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "reason"))
        status = put_text(lv->req.reason, sizeof lv->req.reason,
                          opt(lv, "reason"), "--reason");
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (hub_console_points(lv->pos[4], 100, &lv->req.points_units, &d) < 0) {
        say("POINTS %s", d.msg);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line,
             "penalised %s by %s TP at table %d, round %d of %s (TX-7)",
             lv->req.player_id, lv->pos[4], (int)lv->req.table,
             (int)lv->req.round, lv->req.event_id);
    return show(lv, line);
}

/* --csv: the event file from the hub's export, loaded by the engine; the
 * hub's standings are `tourney standings` of that file (e2e-tested), so
 * the CSV is computed here from it. */
static int export_to_csv(struct live *lv, bool standings, int32_t after)
{
    struct tny_event ev;
    struct tny_standings st = {0};
    struct tny_diag diag = {{0}};
    char *csv = NULL;
    int status = HUB_CONSOLE_EXIT_INTERNAL;
    tny_event_init(&ev);
    int rc = tny_event_from_json_text(lv->rep.json, strlen(lv->rep.json), &ev,
                                      &diag);
    if (rc == TNY_OK && standings) {
        rc = after > 0 ? tny_standings_compute_at(&ev, after, &st, &diag)
                       : tny_standings_compute(&ev, &st, &diag);
        if (rc == TNY_OK)
            rc = tny_standings_to_csv(&ev, &st, &csv);
    } else if (rc == TNY_OK) {
        rc = tny_results_to_csv(&ev, &csv);
    }
    if (rc < 0) {
        say("%s of %s: %s", standings ? "standings" : "results",
            lv->req.event_id, diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = rc == TNY_ENOMEM ? HUB_CONSOLE_EXIT_INTERNAL
                                  : HUB_CONSOLE_EXIT_REFUSED;
    } else {
        fputs(csv, out());
        status = flush_out();
    }
    free(csv);
    tny_standings_release(&st);
    tny_event_release(&ev);
    return status;
}

static int fetch_export(struct live *lv)
{
    int status = start_request(lv, TNY_WIRE_CMD_EXPORT_EVENT, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status == HUB_CONSOLE_EXIT_OK && !lv->rep.json) {
        say("the hub's export of %s carried no event file", lv->req.event_id);
        status = HUB_CONSOLE_EXIT_INTERNAL;
    }
    return status;
}

/* after_round of player id in the export's list key ("drops",
 * "disqualified"), 0 when absent. */
static long long listed_after(const json_t *root, const char *key,
                              const char *id)
{
    const json_t *list = json_object_get(root, key), *v;
    size_t i;
    json_array_foreach (list, i, v) {
        const json_t *p = json_object_get(v, "player");
        const json_t *a = json_object_get(v, "after_round");
        if (json_is_string(p) && strcmp(json_string_value(p), id) == 0)
            return json_is_integer(a) ? json_integer_value(a) : 0;
    }
    return 0;
}

/* `players list EVENT_ID`: every player of the event (from the hub's
 * export), one line each: id, name, club, country, rating, and whether
 * dropped or disqualified after which round. */
static int run_players_list(struct live *lv)
{
    int status = fetch_export(lv);
    if (status != HUB_CONSOLE_EXIT_OK || lv->json)
        return status == HUB_CONSOLE_EXIT_OK ? show(lv, NULL) : status;
    json_t *root = json_loads(lv->rep.json, 0, NULL);
    const json_t *players = json_object_get(root, "players"), *p;
    size_t i;
    if (!json_is_array(players)) {
        json_decref(root);
        say("the hub's export of %s has no players list", lv->req.event_id);
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    fprintf(out(), "%zu player%s in %s\n", json_array_size(players),
            json_array_size(players) == 1 ? "" : "s", lv->req.event_id);
    json_array_foreach (players, i, p) {
        const char *id = json_string_value(json_object_get(p, "id"));
        const json_t *v;
        long long dq, drop;
        if (!id)
            continue;
        fprintf(out(), "  %s  ", id);
        print_text(json_string_value(json_object_get(p, "name")));
        if (json_is_string(v = json_object_get(p, "club"))) {
            fputs("  club=", out());
            print_text(json_string_value(v));
        }
        if (json_is_string(v = json_object_get(p, "country"))) {
            fputs("  country=", out());
            print_text(json_string_value(v));
        }
        if (json_is_number(v = json_object_get(p, "rating")))
            fprintf(out(), "  rating=%g", json_number_value(v));
        if ((dq = listed_after(root, "disqualified", id)) > 0)
            fprintf(out(), "  DISQUALIFIED after round %lld", dq);
        else if ((drop = listed_after(root, "drops", id)) > 0)
            fprintf(out(), "  dropped after round %lld", drop);
        fputc('\n', out());
    }
    json_decref(root);
    return flush_out();
}

static int run_standings(struct live *lv)
{
    if (flag(lv, "csv")) {
        int32_t after = 0;
        int status = opt_int(lv, "after-round", 1, 10000, &after);
        if (status == HUB_CONSOLE_EXIT_OK)
            status = fetch_export(lv);
        return status == HUB_CONSOLE_EXIT_OK ? export_to_csv(lv, true, after)
                                             : status;
    }
    int status = start_request(lv, TNY_WIRE_CMD_GET_STANDINGS, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "after-round", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* The hub says when these are the event's final classification. */
    bool final = strcmp(lv->rep.message, "final standings") == 0;
    return show(lv, final ? "Final standings" : NULL);
}

/* CM-4: every lot of the event with its purpose and outcome, from the
 * hub's export (the seed, the round-1 draws, the tables' lots reported
 * with their results, the tiebreak lot). */
/* Issue 22 (CM-4/CM-5): the lots text, where a round the organiser
 * edited after the draw (swap, move: the export's x_audit) is not called
 * "as drawn": its header says the tables are as published, and the edits
 * follow with who, when and why. */
static void print_lots_edited(const char *text, const char *export_json)
{
    json_t *root = json_loads(export_json, 0, NULL);
    const json_t *changes =
        json_object_get(json_object_get(root, "x_audit"), "corrections");
    bool edited[1024] = {false};
    const json_t *c;
    size_t i;
    json_array_foreach (changes, i, c) {
        const char *what = json_string_value(json_object_get(c, "what"));
        json_int_t r = json_integer_value(json_object_get(c, "round"));
        if (what && !strncmp(what, "draft.", 6) && r >= 1 && r < 1024)
            edited[r] = true;
    }
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        int r = 0;
        const char *tail = "; as drawn:\n";
        size_t tl = strlen(tail);
        if (sscanf(line, "round %d (", &r) == 1 && r >= 1 && r < 1024 &&
            edited[r] && len > tl && !strncmp(line + len - tl, tail, tl))
            fprintf(out(),
                    "%.*s; as published, EDITED after the draw (CM-5, the "
                    "edits below):\n",
                    (int)(len - tl), line);
        else
            fwrite(line, 1, len, out());
        line += len;
    }
    json_array_foreach (changes, i, c) {
        const char *what = json_string_value(json_object_get(c, "what"));
        const json_t *why = json_object_get(c, "reason");
        if (!what || strncmp(what, "draft.", 6) != 0)
            continue;
        fprintf(out(), "round %lld edited by %s: %s",
                (long long)json_integer_value(json_object_get(c, "round")),
                json_string_value(json_object_get(c, "by"))
                    ? json_string_value(json_object_get(c, "by"))
                    : "?",
                what + 6);
        if (json_object_get(c, "a"))
            fprintf(out(), " %s and %s",
                    json_string_value(json_object_get(c, "a"))
                        ? json_string_value(json_object_get(c, "a"))
                        : "?",
                    json_string_value(json_object_get(c, "b"))
                        ? json_string_value(json_object_get(c, "b"))
                        : "?");
        else
            fprintf(out(), " table %lld to %lld",
                    (long long)json_integer_value(json_object_get(c, "from")),
                    (long long)json_integer_value(json_object_get(c, "to")));
        if (json_is_string(why)) {
            fputs(" -- reason: ", out());
            print_text(json_string_value(why));
        }
        fputc('\n', out());
    }
    json_decref(root);
}

static int run_lots(struct live *lv)
{
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    char *text = NULL;
    int status = fetch_export(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    tny_event_init(&ev);
    int rc = tny_event_from_json_text(lv->rep.json, strlen(lv->rep.json), &ev,
                                      &diag);
    if (rc == TNY_OK)
        rc = tny_lots_text(&ev, &text, &diag);
    if (rc < 0) {
        say("lots of %s: %s", lv->req.event_id,
            diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = rc == TNY_ENOMEM ? HUB_CONSOLE_EXIT_INTERNAL
                                  : HUB_CONSOLE_EXIT_REFUSED;
    } else {
        print_lots_edited(text, lv->rep.json);
        status = flush_out();
    }
    free(text);
    tny_event_release(&ev);
    return status;
}

/* GT-14: a player's deck list, for judges (the feed never carries it):
 * read from the organiser's export of the event. */
static int run_decklist(struct live *lv)
{
    int status = fetch_export(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    json_t *root = json_loads(lv->rep.json, 0, NULL);
    json_t *players = json_object_get(root, "players"), *pl;
    size_t i;
    status = HUB_CONSOLE_EXIT_REFUSED;
    json_array_foreach (players, i, pl) {
        const char *id = json_string_value(json_object_get(pl, "id"));
        if (!id || strcmp(id, lv->pos[1]) != 0)
            continue;
        const char *deck = json_string_value(json_object_get(pl, "decklist"));
        const char *faction = json_string_value(json_object_get(pl, "faction"));
        const char *agenda = json_string_value(json_object_get(pl, "agenda"));
        if (!deck) {
            say("player \"%s\" of %s has no deck list registered (GT-14)",
                lv->pos[1], lv->pos[0]);
        } else {
            fprintf(out(), "%s (%s)  faction: %s  agenda: %s\n%s%s",
                    json_string_value(json_object_get(pl, "name")), id,
                    faction ? faction : "-", agenda ? agenda : "-", deck,
                    deck[0] && deck[strlen(deck) - 1] == '\n' ? "" : "\n");
            status = HUB_CONSOLE_EXIT_OK;
        }
        break;
    }
    if (i == json_array_size(players))
        say("player \"%s\": not in %s", lv->pos[1], lv->pos[0]);
    json_decref(root);
    return status;
}

static int run_export(struct live *lv)
{
    int status = fetch_export(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (flag(lv, "csv"))
        return export_to_csv(lv, false, 0);
    return show(lv, NULL);
}

/* A sign-in code as the hub shows it ("K7QX-M3PA"): letters, digits and
 * one dash, nothing else reaches a printout's QR code. */
static bool code_shown_ok(const char *c)
{
    size_t n = c ? strlen(c) : 0;
    if (n < 4 || n > 32)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= '0' && c[i] <= '9') ||
              (c[i] == '-' && i > 0 && i + 1 < n)))
            return false;
    return true;
}

/* Issue 20: the event's valid sign-in codes (`code list`, the organiser's
 * console only) into po->codes; *tree keeps their strings alive. */
static int fetch_codes(struct live *lv, struct hub_print_opts *po,
                       struct hub_print_code **codes, json_t **tree)
{
    int status = start_request(lv, TNY_WIRE_CMD_LIST_CODES, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    *tree = hub_console_reply_tree(&lv->rep);
    size_t n = json_array_size(*tree), i;
    const json_t *v;
    *codes = calloc(n + 1, sizeof **codes);
    if (!*codes) {
        say("out of memory");
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    json_array_foreach (*tree, i, v) {
        const char *code = json_string_value(json_object_get(v, "code"));
        const char *state = json_string_value(json_object_get(v, "state"));
        const json_t *table = json_object_get(v, "table");
        if (!code_shown_ok(code) || !state || strcmp(state, "valid") != 0)
            continue; /* revoked, expired, dropped: not printed */
        struct hub_print_code *c = &(*codes)[po->n_codes++];
        c->code = code;
        c->table =
            json_is_integer(table) ? (int32_t)json_integer_value(table) : 0;
        c->player = json_string_value(json_object_get(v, "player"));
    }
    po->codes = *codes;
    return HUB_CONSOLE_EXIT_OK;
}

/* Pairings and slips print the round the hub holds (`round show`, --round
 * as there): its draft with the organiser's edits, else the round at the
 * tables; never one planned from the export.  Without --round, a closed
 * last round and no draft is refused (nothing to print at the tables). */
static int fetch_held(struct live *lv, int32_t round,
                      struct tny_wire_seating **held)
{
    int status = start_request(lv, TNY_WIRE_CMD_SHOW_DRAFT, lv->pos[0]);
    lv->req.round = round;
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    *held = lv->rep.seating;
    lv->rep.seating = NULL;
    if (!*held || (*held)->n_tables < 1) {
        say("print %s of %s: the hub's reply carried no seating", lv->pos[1],
            lv->req.event_id);
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    if (round == 0 && (*held)->status == TNY_WIRE_ROUND_CLOSED) {
        say("print %s of %s: round %d is closed and the hub holds no draft "
            "of round %d (`round pair` makes it; --round %d prints round %d)",
            lv->pos[1], lv->req.event_id, (int)(*held)->round,
            (int)(*held)->round + 1, (int)(*held)->round, (int)(*held)->round);
        return HUB_CONSOLE_EXIT_REFUSED;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* `print EVENT_ID WHAT`: the printouts of print.c from the hub's export
 * of the event; pairings and slips of the round the hub holds
 * (fetch_held); tents, codes and slips with --url also read the event's
 * sign-in codes. */
static int run_print(struct live *lv)
{
    static const char *const names[] = {"round", "pdf", "paper", "lang", "url"};
    struct hub_print_opts po = {.what = HUB_PRINT_PAIRINGS};
    struct tny_diag diag = {{0}};
    struct tny_event ev;
    struct hub_print_code *codes = NULL;
    json_t *code_tree = NULL;
    char *html = NULL;
    if (hub_print_what_from_name(lv->pos[1], &po.what) < 0) {
        say("unknown printout \"%s\" (expected pairings, slips, standings, "
            "final, tents or codes)",
            lv->pos[1]);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = opt(lv, names[i]);
        if (v && hub_print_option(names[i], v, &po, &diag) < 0) {
            say("%s", diag.msg);
            return HUB_CONSOLE_EXIT_USAGE;
        }
    }
    bool need_codes = po.what == HUB_PRINT_TENTS || po.what == HUB_PRINT_CODES;
    if (need_codes && !po.url) {
        say("print %s: --url is required (the phone page the QR codes open, "
            "e.g. http://HUB:9002/play.html)",
            lv->pos[1]);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    if (po.what == HUB_PRINT_PAIRINGS && po.url) {
        say("print pairings: no --url (the pairings hang on the wall: no "
            "sign-in codes on them)");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    int status = HUB_CONSOLE_EXIT_OK;
    bool round_held =
        po.what == HUB_PRINT_PAIRINGS || po.what == HUB_PRINT_SLIPS;
    struct tny_wire_seating *seating = NULL;
    struct hub_print_round held = {0};
    if (need_codes || (po.what == HUB_PRINT_SLIPS && po.url))
        status = fetch_codes(lv, &po, &codes, &code_tree);
    if (status == HUB_CONSOLE_EXIT_OK && round_held)
        status = fetch_held(lv, po.round, &seating);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = fetch_export(lv);
    if (status != HUB_CONSOLE_EXIT_OK) {
        free(codes);
        json_decref(code_tree);
        tny_wire_seating_free(seating);
        return status;
    }
    tny_event_init(&ev);
    int rc = tny_event_from_json_text(lv->rep.json, strlen(lv->rep.json), &ev,
                                      &diag);
    if (rc == TNY_OK && round_held &&
        (rc = hub_print_round_from_seating(&ev, seating, &held, &diag)) ==
            TNY_OK)
        po.held = &held;
    if (rc == TNY_OK)
        rc = hub_print_html(&ev, &po, &html, &diag);
    if (rc == TNY_OK) {
        /* HTML through out() (the dashboard's result), a PDF by print.c */
        if (!po.pdf && (fputs(html, out()) == EOF || fflush(out()) == EOF))
            rc = tny_cli_reader_gone(out(), errno)
                     ? TNY_OK
                     : tny_diag_set(&diag, TNY_ESTATE,
                                    "cannot write output: %s", strerror(errno));
        else if (po.pdf)
            rc = hub_print_output(html, &po, &diag);
        if (rc < 0) {
            say("%s", diag.msg);
            status = rc == TNY_ENOTFOUND ? HUB_CONSOLE_EXIT_USAGE
                                         : HUB_CONSOLE_EXIT_INTERNAL;
        } else if (po.pdf) {
            say("wrote %s", po.pdf);
        }
    } else {
        say("print %s of %s: %s", lv->pos[1], lv->req.event_id,
            diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = rc == TNY_ENOMEM   ? HUB_CONSOLE_EXIT_INTERNAL
                 : rc == TNY_EINVAL ? HUB_CONSOLE_EXIT_USAGE
                                    : HUB_CONSOLE_EXIT_REFUSED;
    }
    free(html);
    free(codes);
    json_decref(code_tree);
    hub_print_round_release(&held);
    tny_wire_seating_free(seating);
    tny_event_release(&ev);
    return status;
}

static void local_time(int64_t ms, char *out, size_t cap);

/* `devices`: one line a device, as a judge asks after it: its event and
 * table, whether it is online (or never connected), when it was last
 * seen, whether it shows its latest assignment, what waits for it. */
static bool print_devices(const json_t *root)
{
    const json_t *d;
    size_t i;
    if (!json_is_array(root))
        return false;
    fprintf(out(), "%zu device%s\n", json_array_size(root),
            json_array_size(root) == 1 ? "" : "s");
    json_array_foreach (root, i, d) {
        const char *id = json_string_value(json_object_get(d, "id"));
        const char *ev = json_string_value(json_object_get(d, "event"));
        const char *presence =
            json_string_value(json_object_get(d, "presence"));
        const char *sw = json_string_value(json_object_get(d, "software"));
        const char *detail = json_string_value(json_object_get(d, "detail"));
        json_int_t table = json_integer_value(json_object_get(d, "table"));
        json_int_t seen =
            json_integer_value(json_object_get(d, "last_seen_ms"));
        json_int_t ver =
            json_integer_value(json_object_get(d, "assignment_version"));
        json_int_t shows =
            json_integer_value(json_object_get(d, "shows_version"));
        json_int_t queued = json_integer_value(json_object_get(d, "queued"));
        fprintf(out(), "  %s  ", id ? id : "?");
        if (ev && table > 0)
            fprintf(out(), "%s table %lld", ev, (long long)table);
        else if (ev)
            fprintf(out(), "%s, no table", ev);
        else
            fputs("no event", out());
        if (seen > 0) {
            char when[32];
            local_time(seen, when, sizeof when);
            fprintf(out(), "  %s, last seen %s", presence ? presence : "?",
                    when);
        } else {
            fputs("  never connected to this hub", out());
        }
        if (json_is_true(json_object_get(d, "stale")))
            fputs("  SHOWS AN OLD ASSIGNMENT", out());
        else if (ver > 0 && shows == ver)
            fputs("  shows its assignment", out());
        if (queued > 0)
            fprintf(out(), "  %lld message%s waiting for it", (long long)queued,
                    queued == 1 ? "" : "s");
        if (sw && sw[0])
            fprintf(out(), "  software %s", sw);
        if (detail && detail[0])
            fprintf(out(), "  (%s)", detail);
        fputc('\n', out());
    }
    return true;
}

static int run_devices(struct live *lv)
{
    const char *ev = opt(lv, "event");
    int status = start_request(lv, TNY_WIRE_CMD_LIST_DEVICES, ev);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK || lv->json)
        return status == HUB_CONSOLE_EXIT_OK ? show(lv, NULL) : status;
    json_t *root = hub_console_reply_tree(&lv->rep);
    bool done = print_devices(root);
    json_decref(root);
    if (!done && lv->rep.records)
        return print_typed_json(&lv->rep, lv->req.cmd);
    if (!done)
        print_payload(lv->rep.json ? lv->rep.json : "");
    return flush_out();
}

static int run_device_assign(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_ASSIGN_DEVICE, lv->pos[1]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.device_id, lv->pos[0], "DEVICE");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 0, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (lv->req.table)
        snprintf(line, sizeof line, "%s is table %d of %s", lv->req.device_id,
                 (int)lv->req.table, lv->req.event_id);
    else
        snprintf(line, sizeof line, "%s has no table in %s any more",
                 lv->req.device_id, lv->req.event_id);
    return show(lv, line);
}

/* device identify DEVICE: the hub's message ("table-007 (table 12,
 * online) flashes its id for 10 s") or its error. */
/* code issue EVENT_ID TABLE (issue 20): the hub's line "table 3: sign-in
 * code K7QX-M3PA (device web-1)" (--json: code, device, table, query). */
/* code revoke EVENT_ID CODE: the broker refuses the code from now on. */
/* code list EVENT_ID: one record per code (table, code, state, device,
 * online). */
/* code player EVENT_ID [PLAYER_ID] (issue 20): a code per player's own
 * phone; without PLAYER_ID every active player without one gets one
 * (one record each: player, name, code, login, query). */

/* player drop-no-shows EVENT_ID [--reason T]: every active player who has
 * not checked in is withdrawn (before round 1). */

/* player drop-requests EVENT_ID [--confirm]: the players' "drop me"
 * requests waiting; --confirm drops them all. */

static int run_wait_hub(struct live *lv)
{
    struct tny_diag d = {{0}};
    int status = connect_hub(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    int rc = hub_console_wait_hub(lv->conn, &d);
    if (rc < 0) {
        say("%s", d.msg);
        return exit_for_conn(rc);
    }
    if (!lv->json)
        out_line("the hub is online");
    else
        out_line("{\"hub\": \"online\"}");
    return flush_out();
}

static int run_console(struct live *lv)
{
    char ev[TNY_WIRE_ID_MAX + 1];
    if (!isatty(STDOUT_FILENO)) {
        say("console: the dashboard needs a terminal on stdout (use the "
            "other live commands in scripts)");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    int status = put_id(ev, lv->pos[0], "EVENT_ID");
    if (status == HUB_CONSOLE_EXIT_OK)
        status = settings_finish(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    return hub_console_tui(&lv->set, ev, hub_console_run);
}

/* ---- corrections (docs/console.md "Corrections") ------------------------ */

/* --reason TEXT into the request. */
static int reason_option(struct live *lv)
{
    if (!opt(lv, "reason"))
        return HUB_CONSOLE_EXIT_OK;
    return put_text(lv->req.reason, sizeof lv->req.reason, opt(lv, "reason"),
                    "--reason");
}

/* Local time of a UTC millisecond time: "2026-11-24 18:03:12". */
static void local_time(int64_t ms, char *out, size_t cap)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(out, cap, "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(out, cap, "%lld", (long long)ms);
}

static int run_round_discard(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_DISCARD_DRAFT, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "round", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line,
             "discarded the draft of round %d of %s: pair it again with "
             "`tourney live round pair %s`",
             (int)lv->rep.round, lv->req.event_id, lv->req.event_id);
    return show(lv, line);
}

/* Issue 22: a mistyped event (none of its rounds published) is deleted. */
static int run_event_delete(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_DELETE_EVENT, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    json_t *rec = hub_console_reply_tree(&lv->rep);
    long long codes = json_integer_value(json_object_get(rec, "codes_deleted"));
    json_decref(rec);
    snprintf(line, sizeof line,
             "deleted event %s (%llu device%s freed, %lld sign-in code%s "
             "ended)",
             lv->req.event_id, (unsigned long long)lv->rep.count,
             lv->rep.count == 1 ? "" : "s", codes, codes == 1 ? "" : "s");
    return show(lv, line);
}

static int run_round_unpublish(struct live *lv)
{
    char line[256];
    int status = start_request(lv, TNY_WIRE_CMD_UNPUBLISH_ROUND, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = round_option(lv, current_round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    snprintf(line, sizeof line,
             "unpublished round %d of %s: the tables wait again; the round "
             "is a draft (edit, publish or discard it)",
             (int)lv->req.round, lv->req.event_id);
    return show(lv, line);
}

static int run_round_reopen(struct live *lv)
{
    char line[320];
    int status = start_request(lv, TNY_WIRE_CMD_REOPEN_ROUND, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    int discarded = 0;
    json_t *root = hub_console_reply_tree(&lv->rep);
    json_t *d = json_object_get(root, "discarded_draft");
    if (json_is_integer(d))
        discarded = (int)json_integer_value(d);
    json_decref(root);
    int n = snprintf(line, sizeof line,
                     "reopened round %d of %s: correct its results (`result "
                     "enter --override`), then close it again",
                     (int)lv->req.round, lv->req.event_id);
    if (discarded > 0 && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n,
                 "; the draft of round %d was paired from these standings and "
                 "is discarded",
                 discarded);
    return show(lv, line);
}

static int run_player_edit(struct live *lv)
{
    char line[1024];
    struct tny_wire_player *p = &lv->req.player;
    int status = start_request(lv, TNY_WIRE_CMD_EDIT_PLAYER, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = put_id(lv->req.player_id, lv->pos[1], "PLAYER_ID");
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "name"))
        status = put_text(p->name, sizeof p->name, opt(lv, "name"), "--name");
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "club")) {
        lv->req.set_club = true;
        status = put_text(p->club, sizeof p->club, opt(lv, "club"), "--club");
    }
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "country")) {
        lv->req.set_country = true;
        status = put_text(p->country, sizeof p->country, opt(lv, "country"),
                          "--country");
    }
    if (status == HUB_CONSOLE_EXIT_OK && opt(lv, "name") && !p->name[0]) {
        say("--name: a player's name cannot be empty");
        status = HUB_CONSOLE_EXIT_USAGE;
    }
    if (status == HUB_CONSOLE_EXIT_OK && !opt(lv, "name") &&
        !lv->req.set_club && !lv->req.set_country) {
        say("player edit: nothing to change: give --name, --club or "
            "--country");
        status = HUB_CONSOLE_EXIT_USAGE;
    }
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* What changed, as typed: name "X", club "Y", no country. */
    int n = snprintf(line, sizeof line, "changed %s in %s:", lv->req.player_id,
                     lv->req.event_id);
    static const char *const what[] = {"name", "club", "country"};
    bool first = true;
    for (size_t i = 0; i < 3 && n > 0 && (size_t)n < sizeof line; i++) {
        const char *v = opt(lv, what[i]);
        if (!v)
            continue;
        n += snprintf(line + n, sizeof line - (size_t)n,
                      v[0] ? "%s %s \"%s\"" : "%s no %s", first ? "" : ",",
                      what[i], v);
        first = false;
    }
    if (n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n,
                 "; the tables and the feed show it now");
    return show(lv, line);
}

/* `result show`: one line per submission, then its result. */
static bool print_results(const json_t *root)
{
    const json_t *rows = json_object_get(root, "results");
    if (!json_is_array(rows))
        return false;
    if (json_array_size(rows) == 0)
        out_line("(no result yet)");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        const json_t *time_ms = json_object_get(r, "time_ms");
        char when[32];
        local_time(json_is_integer(time_ms) ? json_integer_value(time_ms) : 0,
                   when, sizeof when);
        char *result = json_dumps(json_object_get(r, "result"),
                                  JSON_COMPACT | JSON_ENCODE_ANY);
        fprintf(out(), "  table %-4lld id %-6lld %-17s %s by %s  %s\n",
                (long long)json_integer_value(json_object_get(r, "table")),
                (long long)json_integer_value(json_object_get(r, "id")),
                json_string_value(json_object_get(r, "status"))
                    ? json_string_value(json_object_get(r, "status"))
                    : "?",
                when,
                json_string_value(json_object_get(r, "by"))
                    ? json_string_value(json_object_get(r, "by"))
                    : "?",
                result ? result : "?");
        free(result);
    }
    return true;
}

static int run_result_show(struct live *lv)
{
    char line[512];
    int status = start_request(lv, TNY_WIRE_CMD_SHOW_RESULTS, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = opt_int(lv, "table", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    if (lv->json)
        return show(lv, NULL);
    if (lv->rep.count)
        snprintf(line, sizeof line,
                 "results of round %d of %s: %llu open conflict%s: keep one "
                 "with `tourney live result resolve %s %d TABLE --keep ID` or "
                 "enter another with `result enter --override`",
                 (int)lv->req.round, lv->req.event_id,
                 (unsigned long long)lv->rep.count,
                 lv->rep.count == 1 ? "" : "s", lv->req.event_id,
                 (int)lv->req.round);
    else
        snprintf(line, sizeof line, "results of round %d of %s",
                 (int)lv->req.round, lv->req.event_id);
    out_line(line);
    json_t *root = hub_console_reply_tree(&lv->rep);
    bool done = print_results(root);
    json_decref(root);
    if (!done && (lv->rep.records || lv->rep.json))
        return print_typed_json(&lv->rep, lv->req.cmd);
    return flush_out();
}

static int run_result_resolve(struct live *lv)
{
    char line[256];
    int64_t keep = 0;
    struct tny_diag d = {{0}};
    int status = start_request(lv, TNY_WIRE_CMD_RESOLVE_CONFLICT, lv->pos[0]);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 1, "ROUND", 1, 10000, &lv->req.round);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = pos_int(lv, 2, "TABLE", 1, 100000, &lv->req.table);
    if (status == HUB_CONSOLE_EXIT_OK && !opt(lv, "keep")) {
        say("result resolve: --keep ID is required (the id `result show` "
            "lists)");
        status = HUB_CONSOLE_EXIT_USAGE;
    }
    if (status == HUB_CONSOLE_EXIT_OK &&
        hub_console_int(opt(lv, "keep"), 1, INT64_MAX, &keep, &d) < 0) {
        say("--keep %s", d.msg);
        status = HUB_CONSOLE_EXIT_USAGE;
    }
    lv->req.result_id = keep;
    if (status == HUB_CONSOLE_EXIT_OK)
        status = reason_option(lv);
    if (status == HUB_CONSOLE_EXIT_OK)
        status = exchange(lv);
    if (status != HUB_CONSOLE_EXIT_OK)
        return status;
    /* The kept submission is stored again as the counted row: both ids,
     * so "--keep 18" is not answered by a bare "result 19". */
    snprintf(line, sizeof line,
             "resolved the conflict at table %d, round %d of %s: result %lld "
             "kept, counted as result %lld",
             (int)lv->req.table, (int)lv->req.round, lv->req.event_id,
             (long long)keep, (long long)lv->rep.count);
    return show(lv, line);
}

/* One audit row: "2026-11-24 18:03:12  organiser:desk  round.reopen
 * round=2  -- reason: ..." (detail as key=value, the reason last). */
static void print_log_row(const json_t *row)
{
    char when[32];
    const json_t *detail = json_object_get(row, "detail");
    const char *key;
    json_t *v;
    local_time(json_integer_value(json_object_get(row, "time_ms")), when,
               sizeof when);
    fprintf(out(), "%s  %-22s %-18s", when,
            json_string_value(json_object_get(row, "actor"))
                ? json_string_value(json_object_get(row, "actor"))
                : "?",
            json_string_value(json_object_get(row, "kind"))
                ? json_string_value(json_object_get(row, "kind"))
                : "?");
    json_object_foreach ((json_t *)detail, key, v) {
        if (strcmp(key, "reason") == 0)
            continue;
        fprintf(out(), " %s=", key);
        print_scalar(v);
    }
    const char *why = json_string_value(json_object_get(detail, "reason"));
    if (why && why[0]) { /* one row, one line: a newline prints as \n */
        fputs("  -- reason: ", out());
        print_text(why);
    }
    fputc('\n', out());
}

static int run_log(struct live *lv)
{
    int64_t after = 0;
    json_t *all = json_array();
    int status = HUB_CONSOLE_EXIT_OK;
    if (!all) {
        say("out of memory");
        return HUB_CONSOLE_EXIT_INTERNAL;
    }
    /* Pages of the hub's log until a short one. */
    for (;;) {
        status = start_request(lv, TNY_WIRE_CMD_READ_LOG, lv->pos[0]);
        lv->req.after_seq = after;
        if (status == HUB_CONSOLE_EXIT_OK)
            status = exchange(lv);
        if (status != HUB_CONSOLE_EXIT_OK)
            break;
        json_t *root = hub_console_reply_tree(&lv->rep);
        json_t *rows = json_object_get(root, "log");
        size_t n = json_is_array(rows) ? json_array_size(rows) : 0;
        for (size_t i = 0; i < n; i++) {
            json_t *row = json_array_get(rows, i);
            json_int_t seq = json_integer_value(json_object_get(row, "seq"));
            if (seq > after)
                after = seq;
            json_array_append(all, row);
        }
        json_decref(root);
        tny_wire_reply_release(&lv->rep);
        if (n < 500)
            break;
    }
    if (status == HUB_CONSOLE_EXIT_OK) {
        if (lv->json) {
            char *text = json_dumps(all, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            print_payload(text ? text : "[]");
            free(text);
        } else {
            fprintf(out(), "audit log of %s (local time)\n", lv->pos[0]);
            for (size_t i = 0; i < json_array_size(all); i++)
                print_log_row(json_array_get(all, i));
        }
        status = flush_out();
    }
    json_decref(all);
    return status;
}

/* ---- the command table --------------------------------------------------- */

static const char *const o_none[] = {NULL};
static const char *const o_create[] = {
    "format=",  "format-file=",  "title=",    "seed=",
    "options=", "options-file=", "language=", NULL};
static const char *const o_add[] = {
    "club=",        "country=",     "rating=",   "army=*",   "beginner",
    "colour=*",     "colour-blind", "hook",      "faction=", "agenda=",
    "first-round=", "external-id=", "decklist=", NULL};
static const char *const o_after[] = {"after-round=", "reason=", NULL};
static const char *const o_import[] = {"from=", NULL};
static const char *const o_dq[] = {"after-round=", "reason=", NULL};
static const char *const o_from[] = {"from-round=", NULL};
static const char *const o_declare[] = {"army=*", NULL};
static const char *const o_round[] = {"round=", NULL};
static const char *const o_clock[] = {"round=", "table=", "reason=", NULL};
static const char *const o_clock_extend[] = {
    "round=", "table=", "reason=", "undo", NULL};
static const char *const o_result[] = {"override", "reason=", "game=", NULL};
static const char *const o_reason[] = {"reason=", NULL};
static const char *const o_confirm[] = {"confirm", NULL};
static const char *const o_standings[] = {"after-round=", "csv", NULL};
static const char *const o_export[] = {"csv", NULL};
static const char *const o_devices[] = {"event=", NULL};
static const char *const o_print[] = {
    "round=", "pdf=", "paper=", "lang=", "url=", NULL};
static const char *const o_discard[] = {"round=", "reason=", NULL};
static const char *const o_edit[] = {
    "name=", "club=", "country=", "reason=", NULL};
static const char *const o_table[] = {"table=", NULL};
static const char *const o_resolve[] = {"keep=", "reason=", NULL};
static const char *const o_force[] = {"force", NULL};

/* Built from the commands' descriptions (tny/console_cmds.h), in the
 * order of --help. */
static const struct live_cmd live_cmds[] = {
#define W(name, ID, event, in_place, players, fields, reply, records, group,   \
          verb, synopsis, min, max, opts, help, run)                           \
    {group, verb, synopsis, min, max, opts, help, run, TNY_WIRE_CMD_##ID},
#define L(group, verb, synopsis, min, max, opts, help, run)                    \
    {group, verb, synopsis, min, max, opts, help, run, TNY_WIRE_CMD_NONE_},
    TNY_CONSOLE_COMMANDS(W, L)
#undef W
#undef L
};

#define N_LIVE_CMDS (sizeof(live_cmds) / sizeof(live_cmds[0]))

static void usage(FILE *to)
{
    fputs("usage: tourney live [OPTIONS] COMMAND [ARGS]   (talks to the hub "
          "over MQTT)\n\ncommands:\n",
          to);
    for (size_t i = 0; i < N_LIVE_CMDS; i++) {
        const struct live_cmd *c = &live_cmds[i];
        fprintf(to, "  %s%s%s%s%s\n      %s\n", c->group, c->verb ? " " : "",
                c->verb ? c->verb : "", c->synopsis[0] ? " " : "", c->synopsis,
                c->help);
    }
    fputs("\noptions (also \"name = value\" lines in the config file):\n"
          "  --broker URI         tcp://HOST:1883 or ssl://HOST:8883\n"
          "  --user LOGIN         your organiser login\n"
          "  --password-file F    first line: the password (or "
          "TOURNEY_PASSWORD)\n"
          "  --tls-ca F           CA bundle for ssl:// brokers\n"
          "  --timeout S          wait at most S seconds (default 30)\n"
          "  --retry S            resend after S seconds, same id (default "
          "10)\n"
          "  --config F           config file (default "
          "~/.config/tourney/console.conf)\n"
          "  --dump-config        print the effective settings\n"
          "  --json               print the hub's JSON payload as is\n"
          "\nexit status: 0 ok, 1 internal error, 2 usage or settings or "
          "refused login, 3 the hub refused, 4 no answer in time\n",
          to);
}

/* Parses the command's options and arguments from args (after the command
 * words).  Global flags (--json, --config F, --dump-config) were taken
 * out before. */
static int parse_command_args(struct live *lv, int n, char **args)
{
    const struct live_cmd *c = lv->cmd;
    bool only_pos = false;
    for (int i = 0; i < n; i++) {
        const char *a = args[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (only_pos || strncmp(a, "--", 2) != 0) {
            if (lv->n_pos == MAX_POS || lv->n_pos == c->max_pos) {
                say("%s%s%s: too many arguments (expected %s)", c->group,
                    c->verb ? " " : "", c->verb ? c->verb : "", c->synopsis);
                return HUB_CONSOLE_EXIT_USAGE;
            }
            lv->pos[lv->n_pos++] = a;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const char *spec = NULL;
        for (const char *const *s = c->opts; *s; s++)
            if (strncmp(*s, name, len) == 0 &&
                ((*s)[len] == '\0' || (*s)[len] == '=')) {
                spec = *s;
                break;
            }
        if (!spec) {
            say("%s%s%s: unknown option --%.*s (try tourney live --help)",
                c->group, c->verb ? " " : "", c->verb ? c->verb : "", (int)len,
                name);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        bool takes = spec[len] == '=';
        bool repeat = takes && spec[len + 1] == '*';
        const char *value = "";
        if (takes) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < n)
                value = args[++i];
            else {
                say("--%.*s: missing value", (int)len, name);
                return HUB_CONSOLE_EXIT_USAGE;
            }
        } else if (eq) {
            say("--%.*s takes no value", (int)len, name);
            return HUB_CONSOLE_EXIT_USAGE;
        }
        if (len >= sizeof lv->opts[0].name)
            len = sizeof lv->opts[0].name - 1; /* specs are short */
        for (int k = 0; !repeat && k < lv->n_opts; k++)
            if (strlen(lv->opts[k].name) == len &&
                strncmp(lv->opts[k].name, name, len) == 0) {
                say("--%.*s given twice", (int)len, name);
                return HUB_CONSOLE_EXIT_USAGE;
            }
        if (lv->n_opts == MAX_OPTS) {
            say("too many options");
            return HUB_CONSOLE_EXIT_USAGE;
        }
        memcpy(lv->opts[lv->n_opts].name, spec, len);
        lv->opts[lv->n_opts].name[len] = '\0';
        lv->opts[lv->n_opts].value = value;
        lv->n_opts++;
    }
    if (lv->n_pos < c->min_pos) {
        say("%s%s%s: expected %s", c->group, c->verb ? " " : "",
            c->verb ? c->verb : "", c->synopsis);
        return HUB_CONSOLE_EXIT_USAGE;
    }
    return HUB_CONSOLE_EXIT_OK;
}

/* Finds the command named by rest[0] (and rest[1]) and parses its
 * arguments into lv.  Reported on stderr unless EXIT_OK. */
static int find_command(struct live *lv, int n_rest, char **rest)
{
    int words = 0;
    for (size_t i = 0; i < N_LIVE_CMDS && !lv->cmd; i++) {
        const struct live_cmd *c = &live_cmds[i];
        if (strcmp(c->group, rest[0]) != 0)
            continue;
        if (!c->verb) {
            lv->cmd = c;
            words = 1;
        } else if (n_rest > 1 && strcmp(c->verb, rest[1]) == 0) {
            lv->cmd = c;
            words = 2;
        }
    }
    if (!lv->cmd) {
        say("live: unknown command \"%s%s%s\" (try tourney live --help)",
            rest[0], n_rest > 1 ? " " : "", n_rest > 1 ? rest[1] : "");
        return HUB_CONSOLE_EXIT_USAGE;
    }
    return parse_command_args(lv, n_rest - words, rest + words);
}

/* Runs one command as on the command line; res (NULL: none) takes the
 * hub's last reply and the command of its request. */
static int run_words(struct hub_console_conn *conn, int n, char **words,
                     struct hub_console_result *res)
{
    struct live *lv = calloc(1, sizeof(*lv));
    int status = HUB_CONSOLE_EXIT_INTERNAL;
    if (!lv) {
        say("out of memory");
        return status;
    }
    lv->conn = conn;
    /* The dashboard's views read the JSON: a leading --json. */
    if (n > 0 && strcmp(words[0], "--json") == 0) {
        lv->json = true;
        n--, words++;
    }
    status = n > 0 ? find_command(lv, n, words) : HUB_CONSOLE_EXIT_USAGE;
    if (status == HUB_CONSOLE_EXIT_OK && lv->cmd->run == run_console) {
        say("console: already running");
        status = HUB_CONSOLE_EXIT_USAGE;
    }
    if (status == HUB_CONSOLE_EXIT_OK)
        status = lv->cmd->run(lv);
    if (res) { /* taken: lv->rep is zero now */
        res->rep = lv->rep;
        res->cmd = lv->req.cmd;
        memset(&lv->rep, 0, sizeof lv->rep);
    }
    tny_wire_reply_release(&lv->rep);
    free(lv); /* the connection stays the caller's */
    return status;
}

int hub_console_run_words(struct hub_console_conn *conn, int n, char **words)
{
    return run_words(conn, n, words, NULL);
}

int hub_console_run(struct hub_console_conn *conn, int n, char **words,
                    struct hub_console_result *res)
{
    size_t len = 0;
    memset(res, 0, sizeof *res);
    FILE *text = open_memstream(&res->text, &len);
    if (!text) {
        res->status = HUB_CONSOLE_EXIT_INTERNAL;
        return res->status;
    }
    fflush(stdout);
    run_text = text;
    res->status = run_words(conn, n, words, res);
    run_text = NULL;
    if (fclose(text) != 0 && res->status == HUB_CONSOLE_EXIT_OK)
        res->status = HUB_CONSOLE_EXIT_INTERNAL; /* out of memory */
    return res->status;
}

void hub_console_result_release(struct hub_console_result *res)
{
    free(res->text);
    tny_wire_reply_release(&res->rep);
    memset(res, 0, sizeof *res);
}

int tny_cli_live(int argc, char **argv)
{
    struct live *lv = calloc(1, sizeof(*lv));
    char **rest = NULL, **flags_rest = NULL;
    struct tny_config_value *flag_values = NULL;
    struct tny_diag d = {{0}};
    int status = HUB_CONSOLE_EXIT_USAGE, n_rest = 0, n_flags_rest = 0;
    bool explicit_config = false, dump = false;
    int n_before_dashes = argc - 1;

    rest = calloc((size_t)argc + 1, sizeof(*rest));
    flags_rest = calloc((size_t)argc + 1, sizeof(*flags_rest));
    flag_values = calloc(N_SETTINGS, sizeof(*flag_values));
    if (!lv || !rest || !flags_rest || !flag_values) {
        say("out of memory");
        status = HUB_CONSOLE_EXIT_INTERNAL;
        goto out;
    }
    tny_config_defaults(settings_table, N_SETTINGS, lv->values);
    tny_config_defaults(settings_table, N_SETTINGS, flag_values);

    /* --help and --config first: they decide what is read. */
    default_config_path(lv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            n_before_dashes = i - 1;
            break;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            status = flush_out();
            goto out;
        }
        const char *path = NULL;
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            path = argv[i + 1];
        else if (strncmp(argv[i], "--config=", 9) == 0)
            path = argv[i] + 9;
        if (path) {
            if (strlen(path) >= sizeof lv->config_path) {
                say("--config: path too long");
                goto out;
            }
            snprintf(lv->config_path, sizeof lv->config_path, "%s", path);
            explicit_config = true;
        }
    }
    if (lv->config_path[0] &&
        (status = load_config_file(lv, explicit_config)) != HUB_CONSOLE_EXIT_OK)
        goto out;
    status = HUB_CONSOLE_EXIT_USAGE;

    /* Settings given as flags override the file. */
    if (tny_config_apply_args(settings_table, N_SETTINGS, flag_values,
                              n_before_dashes, argv + 1, flags_rest,
                              &n_flags_rest, &d) < 0 ||
        tny_config_apply_args(settings_table, N_SETTINGS, lv->values,
                              n_before_dashes, argv + 1, rest, &n_rest,
                              &d) < 0) {
        say("%s", d.msg);
        goto out;
    }
    lv->password_file_flag = flag_values[SET_PASSWORD_FILE].set;
    for (int i = 1 + n_before_dashes; i < argc; i++)
        rest[n_rest++] = argv[i];

    /* Global flags, anywhere before "--". */
    int n = 0;
    for (int i = 0; i < n_rest; i++) {
        if (strcmp(rest[i], "--") == 0) {
            while (i < n_rest)
                rest[n++] = rest[i++];
            break;
        }
        if (strcmp(rest[i], "--json") == 0) {
            lv->json = true;
        } else if (strcmp(rest[i], "--dump-config") == 0) {
            dump = true;
        } else if (strcmp(rest[i], "--config") == 0) {
            i++; /* its value was read above */
        } else if (strncmp(rest[i], "--config=", 9) == 0) {
            continue;
        } else {
            rest[n++] = rest[i];
        }
    }
    n_rest = n;

    if (dump) {
        size_t need = tny_config_dump(settings_table, N_SETTINGS, lv->values,
                                      true, NULL, 0);
        char *text = malloc(need + 1);
        if (!text) {
            say("out of memory");
            status = HUB_CONSOLE_EXIT_INTERNAL;
            goto out;
        }
        tny_config_dump(settings_table, N_SETTINGS, lv->values, true, text,
                        need + 1);
        fputs(text, stdout);
        free(text);
        status = flush_out();
        goto out;
    }

    if (n_rest == 0 || strncmp(rest[0], "--", 2) == 0) {
        if (n_rest > 0)
            say("live: unknown option \"%s\" (try tourney live --help)",
                rest[0]);
        else
            say("live: missing command (try tourney live --help)");
        goto out;
    }
    if ((status = find_command(lv, n_rest, rest)) != HUB_CONSOLE_EXIT_OK)
        goto out;
    status = lv->cmd->run(lv);
out:
    if (lv) {
        hub_console_close(lv->conn);
        tny_wire_reply_release(&lv->rep);
        memset(&lv->set, 0, sizeof lv->set); /* the password */
    }
    free(lv);
    free(rest);
    free(flags_rest);
    free(flag_values);
    return status;
}
