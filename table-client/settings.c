/* settings.c - the table client's settings table and command line
 * (settings.h).  Reads files; prints nothing (the caller prints *text).
 * Precedence: command line > config file > default, also for a setting
 * given two ways (mqtt_password and mqtt_password_file).
 */
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tny/language.h"
#include "tny/wire.h"

enum {
    S_DEVICE_ID,
    S_MQTT_PASSWORD,
    S_BROKER_URI,
    S_TLS_CA_FILE,
    S_MQTT_PASSWORD_FILE,
    S_OUTBOX,
    S_LOG_LEVEL,
    S_SIMULATE,
    S_SIMULATE_DELAY_MS,
    S_SEED,
    S_KEEPALIVE_S,
    S_DISPLAY,
    S_LOG_FILE,
    S_LANGUAGE,
    S_COUNT
};

static const struct tny_config_item items[S_COUNT] = {
    [S_DEVICE_ID] = {"device_id", TNY_CONFIG_STRING, "", 0, 0, NULL,
                     "this table's device id and broker login (table-NNN)"},
    [S_MQTT_PASSWORD] = {"mqtt_password", TNY_CONFIG_STRING, "", 0, 0, NULL,
                         "broker password (or mqtt_password_file)"},
    [S_BROKER_URI] = {"broker_uri", TNY_CONFIG_STRING, "tcp://127.0.0.1:1883",
                      0, 0, NULL,
                      "venue broker: tcp://HOST:PORT or ssl://HOST:PORT"},
    [S_TLS_CA_FILE] = {"tls_ca_file", TNY_CONFIG_STRING, "", 0, 0, NULL,
                       "CA certificate (PEM) for an ssl:// broker; empty = "
                       "system trust store"},
    [S_MQTT_PASSWORD_FILE] = {"mqtt_password_file", TNY_CONFIG_STRING, "", 0, 0,
                              NULL,
                              "file whose first line is the broker password "
                              "(instead of mqtt_password)"},
    [S_OUTBOX] = {"outbox", TNY_CONFIG_STRING,
                  "/var/lib/tourney/table-outbox.db", 0, 0, NULL,
                  "SQLite file of results not yet acknowledged by the hub"},
    [S_LOG_LEVEL] = {"log_level", TNY_CONFIG_ENUM, "info", 0, 0,
                     "error|warn|info|debug", "stderr log level"},
    [S_SIMULATE] = {"simulate", TNY_CONFIG_BOOL, "false", 0, 0, NULL,
                    "play automatically: random valid results confirmed by "
                    "every player (demos, load tests)"},
    [S_SIMULATE_DELAY_MS] = {"simulate_delay_ms", TNY_CONFIG_STRING,
                             "1000-5000", 0, 0, NULL,
                             "simulated game length: MIN-MAX milliseconds "
                             "(uniform), or one number"},
    [S_SEED] = {"seed", TNY_CONFIG_INT, "0", 0, INT64_MAX, NULL,
                "random seed of simulation and resend jitter; 0 = from the "
                "time and pid"},
    [S_KEEPALIVE_S] = {"keepalive_s", TNY_CONFIG_INT, "30", 2, 3600, NULL,
                       "MQTT keep-alive: a lost device shows offline after "
                       "about 1.5 times this"},
    [S_DISPLAY] = {"display", TNY_CONFIG_ENUM, "auto", 0, 0,
                   "auto|tui|headless",
                   "tui: the full-screen display on the terminal (keys from "
                   "the keyboard or a numeric keypad, docs/table-display.md); "
                   "headless: the line protocol on stdin/stdout; auto: tui "
                   "when stdin and stdout are terminals"},
    [S_LOG_FILE] = {"log_file", TNY_CONFIG_STRING, "", 0, 0, NULL,
                    "append the log to this file instead of stderr (empty = "
                    "stderr; the display never shows the log)"},
    [S_LANGUAGE] = {"language", TNY_CONFIG_STRING, "", 0, 0, NULL,
                    "the display's language when the event sets none: en, "
                    "pl, hu, nb, cs (po/LINGUAS); empty = the locale's "
                    "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English"},
};

static const char usage_text[] =
    "usage: tourney-table [--config FILE] [--name=value ...] [options]\n"
    "\n"
    "The table client.  On a terminal (display=auto or tui) it runs the\n"
    "full-screen display (docs/table-display.md); otherwise (or with\n"
    "--display=headless) it reads commands on stdin and writes one line\n"
    "per event on stdout (docs/table-protocol.md).\n"
    "\n"
    "  --config FILE      settings file (default " TBL_DEFAULT_CONFIG
    " when present)\n"
    "  --NAME=VALUE       any setting below, e.g. --device-id=table-001\n"
    "  --simulate         play automatically (same as --simulate=true)\n"
    "  --dump-config      print the effective settings and exit\n"
    "  --example-config   print an annotated settings file and exit\n"
    "  --help, --version\n"
    "\n"
    "Settings: device_id, mqtt_password, broker_uri, tls_ca_file,\n"
    "mqtt_password_file, outbox, log_level, simulate, simulate_delay_ms,\n"
    "seed, keepalive_s, display, log_file, language.\n";

static int read_file(const char *path, char **out, struct tny_diag *diag)
{
    int rc = TNY_OK;
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;

    *out = NULL;
    if (!f)
        return tny_diag_set(diag, TNY_EINVAL, "%s: %s", path, strerror(errno));
    for (;;) {
        if (cap - len < 4096) {
            if (cap >= (size_t)1 << 20) {
                rc = tny_diag_set(diag, TNY_EINVAL, "%s: larger than 1 MiB",
                                  path);
                goto out;
            }
            char *nb = realloc(buf, cap + 8192);
            if (!nb) {
                rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
                goto out;
            }
            buf = nb;
            cap += 8192;
        }
        size_t k = fread(buf + len, 1, cap - len - 1, f);
        len += k;
        if (k == 0)
            break;
    }
    if (ferror(f)) {
        rc = tny_diag_set(diag, TNY_EINVAL, "%s: read error", path);
        goto out;
    }
    buf[len] = '\0';
    *out = buf;
    buf = NULL;
out:
    free(buf);
    fclose(f);
    return rc;
}

static int parse_delay(const char *text, int64_t *lo, int64_t *hi,
                       struct tny_diag *diag)
{
    char *end = NULL;
    long long a, b;

    errno = 0;
    a = strtoll(text, &end, 10);
    b = a;
    if (end && *end == '-' && end != text) {
        const char *p = end + 1;
        b = strtoll(p, &end, 10);
        if (end == p)
            end = NULL;
    }
    if (!end || *end || end == text || errno || a < 0 || b < a || b > 86400000)
        return tny_diag_set(diag, TNY_EINVAL,
                            "simulate_delay_ms: expected MIN-MAX or N "
                            "milliseconds (0..86400000), got \"%s\"",
                            text);
    *lo = a;
    *hi = b;
    return TNY_OK;
}

/* Bool flags may stand alone: "--simulate" means "--simulate=true". */
static bool is_bool_flag(const char *arg)
{
    char name[64];
    size_t n;

    if (strncmp(arg, "--", 2) != 0 || strchr(arg, '='))
        return false;
    n = strlen(arg + 2);
    if (n == 0 || n >= sizeof(name))
        return false;
    memcpy(name, arg + 2, n + 1);
    for (char *c = name; *c; c++)
        if (*c == '-')
            *c = '_';
    int i = tny_config_find(items, S_COUNT, name);
    return i >= 0 && items[i].type == TNY_CONFIG_BOOL;
}

static char *dump(const struct tny_config_value *values, bool annotated)
{
    struct tny_config_value shown[S_COUNT];
    size_t need;
    char *buf;

    memcpy(shown, values, sizeof(shown));
    if (shown[S_MQTT_PASSWORD].text[0])
        snprintf(shown[S_MQTT_PASSWORD].text,
                 sizeof(shown[S_MQTT_PASSWORD].text), "<hidden>");
    need = tny_config_dump(items, S_COUNT, shown, annotated, NULL, 0);
    buf = malloc(need + 1);
    if (buf)
        tny_config_dump(items, S_COUNT, shown, annotated, buf, need + 1);
    return buf;
}

/* tbl_settings_load and tbl_settings_load_text: the config file's text
 * is config_text when that is not NULL, else read from the file. */
static int load(int argc, char **argv, const char *config_text,
                struct tbl_settings *out, enum tbl_settings_action *action,
                char **text, struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct tny_config_value values[S_COUNT];
    const char *config_path = NULL;
    bool want_dump = false, want_example = false;
    char **args = NULL, **rest = NULL;
    int n_args = 0, n_rest = 0;
    char *file = NULL;

    memset(out, 0, sizeof(*out));
    *action = TBL_SETTINGS_RUN;
    *text = NULL;
    tny_config_defaults(items, S_COUNT, values);
    /* A lone bool flag becomes two entries ("--simulate", "true"). */
    args = calloc(2 * (size_t)argc + 1, sizeof(*args));
    rest = calloc(2 * (size_t)argc + 1, sizeof(*rest));
    if (!args || !rest) {
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *action = TBL_SETTINGS_HELP;
            *text = strdup(usage_text);
            goto out;
        } else if (strcmp(a, "--version") == 0) {
            *action = TBL_SETTINGS_VERSION;
            goto out;
        } else if (strcmp(a, "--dump-config") == 0) {
            want_dump = true;
        } else if (strcmp(a, "--example-config") == 0) {
            want_example = true;
        } else if (strcmp(a, "--config") == 0) {
            if (i + 1 >= argc) {
                rc = tny_diag_set(diag, TNY_EINVAL, "--config: missing FILE");
                goto out;
            }
            config_path = argv[++i];
        } else if (strncmp(a, "--config=", 9) == 0) {
            config_path = a + 9;
        } else if (is_bool_flag(a)) {
            /* Rewritten below with an explicit value. */
            args[n_args++] = (char *)a;
            args[n_args++] = (char *)"true";
        } else {
            args[n_args++] = argv[i];
        }
    }
    if (want_example) {
        *action = TBL_SETTINGS_EXAMPLE;
        *text = dump(values, true);
        goto out;
    }
    if (config_text) {
        if ((rc = tny_config_parse(items, S_COUNT, values, config_text,
                                   config_path ? config_path : "config",
                                   diag)) < 0)
            goto out;
    } else {
        if (!config_path && access(TBL_DEFAULT_CONFIG, R_OK) == 0)
            config_path = TBL_DEFAULT_CONFIG;
        if (config_path && ((rc = read_file(config_path, &file, diag)) < 0 ||
                            (rc = tny_config_parse(items, S_COUNT, values, file,
                                                   config_path, diag)) < 0))
            goto out;
    }
    /* Which settings the command line gives (set cleared, applied, merged
     * back): it beats the file, also for one given two ways. */
    bool from_file[S_COUNT], cli[S_COUNT];
    for (int i = 0; i < S_COUNT; i++) {
        from_file[i] = values[i].set;
        values[i].set = false;
    }
    rc = tny_config_apply_args(items, S_COUNT, values, n_args, args, rest,
                               &n_rest, diag);
    for (int i = 0; i < S_COUNT; i++) {
        cli[i] = values[i].set;
        values[i].set = cli[i] || from_file[i];
    }
    if (rc < 0)
        goto out;
    if (n_rest > 0) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "unknown option \"%.100s\" (see --help)", rest[0]);
        goto out;
    }
    if (want_dump) {
        *action = TBL_SETTINGS_DUMP;
        *text = dump(values, false);
        goto out;
    }

    snprintf(out->device_id, sizeof(out->device_id), "%.64s",
             values[S_DEVICE_ID].text);
    snprintf(out->mqtt_password, sizeof(out->mqtt_password), "%s",
             values[S_MQTT_PASSWORD].text);
    snprintf(out->broker_uri, sizeof(out->broker_uri), "%s",
             values[S_BROKER_URI].text);
    snprintf(out->tls_ca_file, sizeof(out->tls_ca_file), "%s",
             values[S_TLS_CA_FILE].text);
    snprintf(out->outbox, sizeof(out->outbox), "%s", values[S_OUTBOX].text);
    out->log_level = (enum tbl_log_level)values[S_LOG_LEVEL].number;
    out->simulate = values[S_SIMULATE].number != 0;
    out->seed = (uint64_t)values[S_SEED].number;
    out->keepalive_s = (int)values[S_KEEPALIVE_S].number;
    out->display = (enum tbl_display)values[S_DISPLAY].number;
    snprintf(out->log_file, sizeof(out->log_file), "%s",
             values[S_LOG_FILE].text);
    if (values[S_LANGUAGE].text[0] &&
        (rc = tny_language_check("language", values[S_LANGUAGE].text, diag)) <
            0)
        goto out;
    /* checked above: a shipped code, shorter than the field */
    snprintf(out->language, sizeof(out->language), "%.15s",
             values[S_LANGUAGE].text);
    if ((rc = parse_delay(values[S_SIMULATE_DELAY_MS].text,
                          &out->simulate_delay_min_ms,
                          &out->simulate_delay_max_ms, diag)) < 0)
        goto out;
    if (!tny_wire_id_valid(out->device_id) || strlen(out->device_id) > 64) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "device_id: expected the device's login "
                          "(table-NNN), got \"%s\"",
                          values[S_DEVICE_ID].text);
        goto out;
    }
    /* mqtt_password on the command line beats mqtt_password_file from
     * the file; given in the same place, the file setting wins. */
    if (values[S_MQTT_PASSWORD_FILE].text[0] &&
        !(cli[S_MQTT_PASSWORD] && !cli[S_MQTT_PASSWORD_FILE])) {
        char *pw = NULL;
        if ((rc = read_file(values[S_MQTT_PASSWORD_FILE].text, &pw, diag)) < 0)
            goto out;
        pw[strcspn(pw, "\r\n")] = '\0';
        if (strchr(pw, ' ') || strchr(pw, '\t')) {
            free(pw);
            rc = tny_diag_set(diag, TNY_EINVAL,
                              "mqtt_password_file %s: looks like a "
                              "users.cred line (LOGIN PASSWORD); it must "
                              "hold the password alone",
                              values[S_MQTT_PASSWORD_FILE].text);
            goto out;
        }
        snprintf(out->mqtt_password, sizeof(out->mqtt_password), "%s", pw);
        free(pw);
    }
    if (!out->outbox[0]) {
        rc = tny_diag_set(diag, TNY_EINVAL, "outbox: a file path is needed");
        goto out;
    }
out:
    free(file);
    free(args);
    free(rest);
    if (rc == TNY_OK &&
        (*action == TBL_SETTINGS_DUMP || *action == TBL_SETTINGS_EXAMPLE ||
         *action == TBL_SETTINGS_HELP) &&
        !*text)
        rc = tny_diag_set(diag, TNY_ENOMEM, "out of memory");
    return rc;
}

int tbl_settings_load(int argc, char **argv, struct tbl_settings *out,
                      enum tbl_settings_action *action, char **text,
                      struct tny_diag *diag)
{
    return load(argc, argv, NULL, out, action, text, diag);
}

int tbl_settings_load_text(int argc, char **argv, const char *config_text,
                           struct tbl_settings *out,
                           enum tbl_settings_action *action, char **text,
                           struct tny_diag *diag)
{
    return load(argc, argv, config_text, out, action, text, diag);
}
