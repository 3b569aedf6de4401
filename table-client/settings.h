/* settings.h - the table client's configuration: one table of settings
 * (common/include/tny/config.h) read from /etc/tourney/table.conf (or
 * --config FILE) and --name=value flags; --dump-config prints the
 * effective values (passwords masked), --example-config the annotated
 * file of deploy/table.conf.example.
 *
 * The first four names are those deploy/provision-devices.sh writes.
 * Not here: using the values (app.c).
 */
#ifndef TBL_SETTINGS_H
#define TBL_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/config.h"
#include "tny/error.h"

enum tbl_log_level { TBL_LOG_ERROR, TBL_LOG_WARN, TBL_LOG_INFO, TBL_LOG_DEBUG };

/* The display setting (order as in the settings table's enum). */
enum tbl_display { TBL_DISPLAY_AUTO, TBL_DISPLAY_TUI, TBL_DISPLAY_HEADLESS };

#define TBL_DEFAULT_CONFIG "/etc/tourney/table.conf"

/* The parsed settings. */
struct tbl_settings {
    char device_id[65];
    char mqtt_password[TNY_CONFIG_VALUE_MAX];
    char broker_uri[TNY_CONFIG_VALUE_MAX];
    char tls_ca_file[TNY_CONFIG_VALUE_MAX]; /* "" = none */
    char outbox[TNY_CONFIG_VALUE_MAX];
    enum tbl_log_level log_level;
    bool simulate;
    int64_t simulate_delay_min_ms, simulate_delay_max_ms;
    uint64_t seed; /* 0 = from the time and pid */
    int keepalive_s;
    enum tbl_display display;
    char log_file[TNY_CONFIG_VALUE_MAX]; /* "" = stderr */
    /* The screen's language when the event sets none ("" = the locale's,
     * else English); a shipped code (tny/language.h). */
    char language[16];
};

/* What tbl_settings_load decided besides the settings. */
enum tbl_settings_action {
    TBL_SETTINGS_RUN,
    TBL_SETTINGS_DUMP,    /* --dump-config: text printed into *dump */
    TBL_SETTINGS_EXAMPLE, /* --example-config */
    TBL_SETTINGS_HELP,    /* --help */
    TBL_SETTINGS_VERSION, /* --version */
};

/* Reads argv (argv[0] excluded): --config FILE (default
 * TBL_DEFAULT_CONFIG when it exists, else none), setting flags
 * (--name=value, --name value; a bool flag alone means true), --dump-config,
 * --example-config, --help, --version.  Resolves mqtt_password_file.
 * *text (malloc'd, may be NULL) receives what DUMP/EXAMPLE/HELP print.
 * Errors: TNY_EINVAL (unknown option, bad value, missing device_id or
 * password when running, unreadable files: diag says which), TNY_ENOMEM. */
TNY_MUST_USE int tbl_settings_load(int argc, char **argv,
                                   struct tbl_settings *out,
                                   enum tbl_settings_action *action,
                                   char **text, struct tny_diag *diag);

/* As tbl_settings_load, with the config file's text given (NUL-terminated)
 * instead of read from a file: --config in argv, if any, only names it in
 * messages.  The config file's parser without the disk: the fuzz target
 * fuzz/fuzz_table_config.c enters here. */
TNY_MUST_USE int tbl_settings_load_text(int argc, char **argv,
                                        const char *config_text,
                                        struct tbl_settings *out,
                                        enum tbl_settings_action *action,
                                        char **text, struct tny_diag *diag);

#endif
