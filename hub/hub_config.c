/* hub_config.c - tourney-hub's configuration table and its loading:
 * defaults -> config file (--config PATH) -> --name=value overrides ->
 * checks that need more than one value or the file system.  The command
 * line beats the file, the file the default, also for settings given two
 * ways (--password beats password_file from the file).
 *
 * The table is the single description of every setting: the parser, the
 * command line, --dump-config and deploy/hub.conf.example
 * (`tourney-hub --dump-config --annotated`) all come from it.
 * Not here: acting on the settings (hub_loop.c).
 */
#include "hub/hub.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/utf8.h"

/* Largest config or password file read (bytes). */
#define HUB_CONFIG_FILE_MAX (256 * 1024)

const struct tny_config_item hub_config_items[HUB_CFG_COUNT_] = {
    [HUB_CFG_BROKER_URI] = {"broker_uri", TNY_CONFIG_STRING,
                            "tcp://127.0.0.1:1883", 0, 0, NULL,
                            "MQTT broker URIs tried in order, comma separated "
                            "(tcp://HOST:PORT or ssl://HOST:PORT; a standby "
                            "broker second)"},
    [HUB_CFG_USERNAME] = {"username", TNY_CONFIG_STRING, "hub", 0, 0, NULL,
                          "broker login, also the MQTT client id (the broker "
                          "runs use_username_as_clientid); [a-z0-9-]"},
    [HUB_CFG_PASSWORD] = {"password", TNY_CONFIG_STRING, "", 0, 0, NULL,
                          "broker password (prefer password_file)"},
    [HUB_CFG_PASSWORD_FILE] = {"password_file", TNY_CONFIG_STRING, "", 0, 0,
                               NULL,
                               "file holding the broker password on its "
                               "first line (keep it mode 0600)"},
    [HUB_CFG_TLS_CA_FILE] = {"tls_ca_file", TNY_CONFIG_STRING, "", 0, 0, NULL,
                             "CA bundle (PEM) for ssl:// brokers; empty = "
                             "the system's trust store"},
    [HUB_CFG_TLS_CERT_FILE] = {"tls_cert_file", TNY_CONFIG_STRING, "", 0, 0,
                               NULL, "client certificate (PEM), optional"},
    [HUB_CFG_TLS_KEY_FILE] = {"tls_key_file", TNY_CONFIG_STRING, "", 0, 0, NULL,
                              "client key (PEM), with tls_cert_file"},
    [HUB_CFG_KEEPALIVE_S] = {"keepalive_s", TNY_CONFIG_INT, "15", 1, 3600, NULL,
                             "MQTT keep-alive in seconds: a crashed hub shows "
                             "offline (last will) within about 1.5 times this"},
    [HUB_CFG_PUBLISH_WINDOW] = {"publish_window", TNY_CONFIG_INT, "256", 1,
                                65535, NULL,
                                "at most this many of the hub's publishes "
                                "await the broker's acknowledgement, the rest "
                                "wait in the hub in order (the hub keeps it "
                                "below the Receive Maximum the broker "
                                "announces, its max_inflight_messages: "
                                "beyond it Paho may wait up to 1 s for a "
                                "free slot)"},
    [HUB_CFG_DATABASE] = {"database", TNY_CONFIG_STRING,
                          "/var/lib/tourney/hub.db", 0, 0, NULL,
                          "SQLite database file: the truth the hub restarts "
                          "from.  It must exist: tourney-hub --create makes "
                          "it (a wrong path never becomes an empty hub)"},
    [HUB_CFG_DATABASE_SYNC] = {"database_sync", TNY_CONFIG_BOOL, "true", 0, 0,
                               NULL,
                               "fsync every commit (false only for tests and "
                               "benchmarks: a power loss may then lose "
                               "acknowledged results)"},
    [HUB_CFG_CHECKPOINT_INTERVAL_S] = {"checkpoint_interval_s", TNY_CONFIG_INT,
                                       "10", 1, 3600, NULL,
                                       "copy committed results from the WAL "
                                       "into the database file at least this "
                                       "often (seconds; also after every "
                                       "round publish and close)"},
    [HUB_CFG_DEVICE_PREFIX] = {"device_prefix", TNY_CONFIG_STRING, "table-", 0,
                               0, NULL,
                               "table device logins are this prefix plus "
                               "digits; they register on their first message"},
    [HUB_CFG_FEED] = {"feed", TNY_CONFIG_BOOL, "true", 0, 0, NULL,
                      "publish the public JSON feed tourney/v1/feed/{event}/"},
    [HUB_CFG_FEED_INTERVAL_MS] = {"feed_interval_ms", TNY_CONFIG_INT, "200", 0,
                                  60000, NULL,
                                  "group window: feed updates of a burst of "
                                  "results go out together at most this often"},
    [HUB_CFG_FEED_PIECE_KB] = {"feed_piece_kb", TNY_CONFIG_INT, "1024", 0,
                               1048576, NULL,
                               "a feed build writes at most this many kB of "
                               "players' documents, the next build the rest "
                               "(0: no limit)"},
    [HUB_CFG_FEED_AGGREGATE_MS] = {"feed_aggregate_ms", TNY_CONFIG_INT, "1000",
                                   0, 60000, NULL,
                                   "the feed's tables, standings, pairings "
                                   "and bracket documents are built at most "
                                   "this often, with every result since "
                                   "(0: with every feed update)"},
    [HUB_CFG_REPLY_CACHE] = {"reply_cache", TNY_CONFIG_INT, "1024", 1, 1000000,
                             NULL,
                             "console replies remembered for repeated "
                             "correlation ids"},
    [HUB_CFG_LOG_LEVEL] = {"log_level", TNY_CONFIG_ENUM, "info", 0, 0,
                           "error|warn|info|debug",
                           "lowest level written to stderr"},
    [HUB_CFG_LOG_TIMESTAMPS] = {"log_timestamps", TNY_CONFIG_BOOL, "false", 0,
                                0, NULL,
                                "start log lines with a UTC time (journald "
                                "adds its own)"},
    [HUB_CFG_PLAY_BROKER_URI] = {"play_broker_uri", TNY_CONFIG_STRING, "", 0, 0,
                                 NULL,
                                 "the venue broker's table-page listener "
                                 "(ws://HOST:PORT, gen-config.sh "
                                 "--table-ws-port): the hub provisions the "
                                 "sign-in codes there; empty = none"},
    [HUB_CFG_PLAY_USERNAME] = {"play_username", TNY_CONFIG_STRING, "play-admin",
                               0, 0, NULL,
                               "the codes' admin login on that listener"},
    [HUB_CFG_PLAY_PASSWORD_FILE] = {"play_password_file", TNY_CONFIG_STRING, "",
                                    0, 0, NULL,
                                    "file holding its password on its first "
                                    "line"},
};

/* Reads a whole small file into a NUL-terminated malloc'd buffer; *len
 * (when not NULL) gets its size, which may hold NUL bytes of its own. */
static int read_file(const char *path, char **out, size_t *len,
                     struct tny_diag *diag)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0;
    if (!f)
        return tny_diag_set(diag, TNY_ESTATE, "%s: %s", path, strerror(errno));
    if (!(buf = malloc(HUB_CONFIG_FILE_MAX + 1))) {
        fclose(f);
        return TNY_ENOMEM;
    }
    n = fread(buf, 1, HUB_CONFIG_FILE_MAX + 1, f);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err || n > HUB_CONFIG_FILE_MAX) {
        free(buf);
        return tny_diag_set(diag, TNY_ESTATE, "%s: %s", path,
                            err ? "read error" : "larger than 256 KiB");
    }
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return TNY_OK;
}

/* A config file is text: a NUL byte would end the parser's string early
 * (every setting after it silently ignored: the default database path,
 * which exists at a venue), and other control bytes or bytes that are not
 * UTF-8 mean a binary or damaged file.  Refused naming the file, the line
 * and the byte offset. */
static int check_text(const char *text, size_t len, const char *origin,
                      struct tny_diag *diag)
{
    size_t line = 1, i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        uint32_t cp;
        size_t step = tny_utf8_decode(text + i, len - i, &cp);
        const char *what = NULL;
        if (c == '\0')
            what = "a NUL byte";
        else if (cp == TNY_UTF8_INVALID && step == 1)
            what = "a byte that is not UTF-8";
        else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
                 c == 0x7f || (cp >= 0x80 && cp <= 0x9f))
            what = "a control character";
        if (what)
            return tny_diag_set(diag, TNY_EINVAL,
                                "%s:%zu: %s (0x%02x at byte %zu): not a text "
                                "file",
                                origin, line, what, (unsigned)c, i);
        if (c == '\n')
            line++;
        i += step ? step : 1;
    }
    return TNY_OK;
}

static bool login_valid(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

/* cli[i]: setting i was given on the command line (it beats the file,
 * the file beats the default). */
static int check(struct hub_config *cfg, const bool *cli, struct tny_diag *diag)
{
    const char *uris = cfg->v[HUB_CFG_BROKER_URI].text;
    char copy[TNY_CONFIG_VALUE_MAX];
    char *save = NULL;
    int n = 0;
    snprintf(copy, sizeof(copy), "%s", uris);
    for (char *u = strtok_r(copy, ",", &save); u;
         u = strtok_r(NULL, ",", &save)) {
        while (*u == ' ')
            u++;
        if (strncmp(u, "tcp://", 6) != 0 && strncmp(u, "ssl://", 6) != 0)
            return tny_diag_set(diag, TNY_EINVAL,
                                "broker_uri: \"%s\" is not tcp://HOST:PORT or "
                                "ssl://HOST:PORT",
                                u);
        n++;
    }
    if (n == 0 || n > 8)
        return tny_diag_set(diag, TNY_EINVAL,
                            "broker_uri: expected 1..8 URIs, got %d", n);
    if (!login_valid(cfg->v[HUB_CFG_USERNAME].text))
        return tny_diag_set(diag, TNY_EINVAL,
                            "username: \"%s\" is not 1..64 characters of "
                            "[a-z0-9-]",
                            cfg->v[HUB_CFG_USERNAME].text);
    if (!cfg->v[HUB_CFG_DATABASE].text[0])
        return tny_diag_set(diag, TNY_EINVAL, "database: empty");
    /* The prefix begins MQTT client ids and topic levels (device/LOGIN/):
     * a wildcard (+ #), a level separator (/) or upper case (logins are
     * lower case, login_valid) would name logins no table can have. */
    const char *prefix = cfg->v[HUB_CFG_DEVICE_PREFIX].text;
    size_t np = strlen(prefix);
    if (np < 1 || np > 31 ||
        strspn(prefix, "abcdefghijklmnopqrstuvwxyz0123456789-") != np)
        return tny_diag_set(diag, TNY_EINVAL,
                            "device_prefix: \"%s\" is not 1..31 characters "
                            "of [a-z0-9-]",
                            prefix);
    if (cfg->v[HUB_CFG_TLS_KEY_FILE].text[0] &&
        !cfg->v[HUB_CFG_TLS_CERT_FILE].text[0])
        return tny_diag_set(diag, TNY_EINVAL,
                            "tls_key_file: given without tls_cert_file");
    snprintf(cfg->password, sizeof(cfg->password), "%s",
             cfg->v[HUB_CFG_PASSWORD].text);
    /* password and password_file are one setting given two ways: the
     * one from the command line wins over either from the file; given in
     * the same place, password_file wins. */
    const char *pwfile = cfg->v[HUB_CFG_PASSWORD_FILE].text;
    if (cli[HUB_CFG_PASSWORD] && !cli[HUB_CFG_PASSWORD_FILE])
        pwfile = "";
    if (pwfile[0]) {
        char *text = NULL;
        struct tny_diag why = {{0}};
        /* why.msg names the file: "PATH: No such file or directory". */
        if (read_file(pwfile, &text, NULL, &why) < 0)
            return tny_diag_set(diag, TNY_EINVAL, "password_file: %s",
                                why.msg[0] ? why.msg : pwfile);
        text[strcspn(text, "\r\n")] = '\0';
        if (strchr(text, ' ') || strchr(text, '\t')) {
            free(text);
            return tny_diag_set(diag, TNY_EINVAL,
                                "password_file %s: looks like a users.cred "
                                "line (LOGIN PASSWORD); it must hold the "
                                "password alone",
                                pwfile);
        }
        if (strlen(text) >= sizeof(cfg->password)) {
            free(text);
            return tny_diag_set(diag, TNY_EINVAL,
                                "password_file: password longer than %d bytes",
                                (int)sizeof(cfg->password) - 1);
        }
        snprintf(cfg->password, sizeof(cfg->password), "%s", text);
        free(text);
    }
    const char *play = cfg->v[HUB_CFG_PLAY_BROKER_URI].text;
    if (play[0] && strncmp(play, "ws://", 5) != 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "play_broker_uri: expected ws://HOST:PORT, got "
                            "\"%s\"",
                            play);
    const char *ppw = cfg->v[HUB_CFG_PLAY_PASSWORD_FILE].text;
    if (play[0] && !ppw[0])
        return tny_diag_set(diag, TNY_EINVAL,
                            "play_broker_uri: needs play_password_file");
    if (ppw[0]) {
        char *text = NULL;
        struct tny_diag why = {{0}};
        if (read_file(ppw, &text, NULL, &why) < 0)
            return tny_diag_set(diag, TNY_EINVAL, "play_password_file: %s",
                                why.msg[0] ? why.msg : ppw);
        text[strcspn(text, "\r\n")] = '\0';
        if (!text[0] || strlen(text) >= sizeof(cfg->play_password)) {
            free(text);
            return tny_diag_set(diag, TNY_EINVAL,
                                "play_password_file: no password of 1..%d "
                                "bytes on its first line",
                                (int)sizeof(cfg->play_password) - 1);
        }
        snprintf(cfg->play_password, sizeof(cfg->play_password), "%s", text);
        free(text);
    }
    return TNY_OK;
}

/* The path of --config PATH or --config=PATH in argv (the last one), or
 * NULL; TNY_EINVAL for --config without a path. */
static int config_path(int argc, char **argv, const char **path,
                       struct tny_diag *diag)
{
    *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc)
                return tny_diag_set(diag, TNY_EINVAL, "--config: missing path");
            *path = argv[++i];
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            *path = argv[i] + 9;
        }
    }
    return TNY_OK;
}

int hub_config_load(int argc, char **argv, struct hub_config *cfg,
                    struct hub_args *args, struct tny_diag *diag)
{
    const char *path = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc;

    /* The file is read first, so it comes before the overrides whatever
     * the order on the command line. */
    if ((rc = config_path(argc, argv, &path, diag)) < 0)
        return rc;
    if (path && (rc = read_file(path, &text, &len, diag)) < 0)
        return rc;
    rc = hub_config_load_text(argc, argv, text, len, cfg, args, diag);
    free(text);
    return rc;
}

int hub_config_load_text(int argc, char **argv, const char *text, size_t len,
                         struct hub_config *cfg, struct hub_args *args,
                         struct tny_diag *diag)
{
    char **rest = NULL;
    int n_rest = 0, rc;

    memset(cfg, 0, sizeof(*cfg));
    memset(args, 0, sizeof(*args));
    tny_config_defaults(hub_config_items, HUB_CFG_COUNT_, cfg->v);
    if ((rc = config_path(argc, argv, &args->config_path, diag)) < 0)
        return rc;
    if (text) {
        const char *origin = args->config_path ? args->config_path : "config";
        if ((rc = check_text(text, len, origin, diag)) < 0)
            return rc;
        rc = tny_config_parse(hub_config_items, HUB_CFG_COUNT_, cfg->v, text,
                              origin, diag);
        if (rc < 0)
            return rc;
    }
    if (!(rest = calloc((size_t)argc + 1, sizeof(*rest))))
        return TNY_ENOMEM;
    /* Which settings the command line gives: set is cleared before the
     * arguments are applied, then merged back with the file's. */
    bool from_file[HUB_CFG_COUNT_], cli[HUB_CFG_COUNT_];
    for (int i = 0; i < HUB_CFG_COUNT_; i++) {
        from_file[i] = cfg->v[i].set;
        cfg->v[i].set = false;
    }
    rc = tny_config_apply_args(hub_config_items, HUB_CFG_COUNT_, cfg->v,
                               argc - 1, argv + 1, rest, &n_rest, diag);
    for (int i = 0; i < HUB_CFG_COUNT_; i++) {
        cli[i] = cfg->v[i].set;
        cfg->v[i].set = cli[i] || from_file[i];
    }
    for (int i = 0; rc == 0 && i < n_rest; i++) {
        const char *a = rest[i];
        if (strcmp(a, "--config") == 0)
            i++; /* its value was taken above */
        else if (strncmp(a, "--config=", 9) == 0)
            ;
        else if (strcmp(a, "--dump-config") == 0)
            args->dump_config = true;
        else if (strcmp(a, "--annotated") == 0)
            args->annotated = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            args->help = true;
        else if (strcmp(a, "--version") == 0)
            args->version = true;
        else if (strcmp(a, "--create") == 0)
            args->create = true;
        else if (strcmp(a, "--backup") == 0) {
            if (i + 1 >= n_rest || !rest[i + 1][0])
                rc = tny_diag_set(diag, TNY_EINVAL, "--backup: missing file");
            else
                args->backup_path = rest[++i];
        } else if (strncmp(a, "--backup=", 9) == 0) {
            args->backup_path = a + 9;
            if (!args->backup_path[0])
                rc = tny_diag_set(diag, TNY_EINVAL, "--backup: missing file");
        } else
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "unknown argument \"%s\" (see --help)", a);
    }
    free(rest);
    if (rc < 0)
        return rc;
    if (args->help || args->version || (args->dump_config && args->annotated))
        return TNY_OK; /* the example file is made from defaults */
    return check(cfg, cli, diag);
}

void hub_config_print(const struct hub_config *cfg, bool annotated)
{
    struct tny_config_value v[HUB_CFG_COUNT_];
    memcpy(v, cfg->v, sizeof(v));
    if (v[HUB_CFG_PASSWORD].text[0])
        snprintf(v[HUB_CFG_PASSWORD].text, sizeof(v[HUB_CFG_PASSWORD].text),
                 "(hidden)");
    size_t need = tny_config_dump(hub_config_items, HUB_CFG_COUNT_, v,
                                  annotated, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf)
        return;
    tny_config_dump(hub_config_items, HUB_CFG_COUNT_, v, annotated, buf,
                    need + 1);
    if (annotated)
        fputs("# tourney-hub configuration (tourney-hub --config FILE).\n"
              "# Generated by `tourney-hub --dump-config --annotated`; every "
              "setting\n# can also be given as --name=value.\n\n",
              stdout);
    fputs(buf, stdout);
    free(buf);
}
