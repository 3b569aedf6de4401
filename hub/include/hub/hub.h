/* hub.h - tourney-hub as a library: its configuration (one table drives the
 * file, the command line, validation and --dump-config) and its loop (the
 * one thread that owns state).  main.c only calls hub_main().
 *
 * Not here: the use cases (hub/service.h), SQL (hub/store/store.h), MQTT
 * details (common/mqtt/include/tny/mqtt.h).
 */
#ifndef HUB_HUB_H
#define HUB_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/config.h"
#include "tny/error.h"

/* The largest MQTT payload the hub receives or publishes: a console
 * request or reply (TNY_WIRE_MAX_CONSOLE_MSG) with room to spare.  The
 * venue broker's max_packet_size (deploy/broker/gen-config.sh) is this
 * same number, so every message the broker accepts reaches the hub whole
 * and gets an answer (a submission over the table protocol's 64 KiB is
 * refused by its key); a larger packet is refused by the broker itself. */
#define HUB_MAX_MESSAGE ((size_t)5 * 1024 * 1024)

/* Indices into hub_config_items[] (same order). */
enum hub_config_key {
    HUB_CFG_BROKER_URI,
    HUB_CFG_USERNAME,
    HUB_CFG_PASSWORD,
    HUB_CFG_PASSWORD_FILE,
    HUB_CFG_TLS_CA_FILE,
    HUB_CFG_TLS_CERT_FILE,
    HUB_CFG_TLS_KEY_FILE,
    HUB_CFG_KEEPALIVE_S,
    HUB_CFG_PUBLISH_WINDOW,
    HUB_CFG_DATABASE,
    HUB_CFG_DATABASE_SYNC,
    HUB_CFG_CHECKPOINT_INTERVAL_S,
    HUB_CFG_DEVICE_PREFIX,
    HUB_CFG_FEED,
    HUB_CFG_FEED_INTERVAL_MS,
    HUB_CFG_FEED_PIECE_KB,
    HUB_CFG_FEED_AGGREGATE_MS,
    HUB_CFG_REPLY_CACHE,
    HUB_CFG_LOG_LEVEL,
    HUB_CFG_LOG_TIMESTAMPS,
    HUB_CFG_PLAY_BROKER_URI,
    HUB_CFG_PLAY_USERNAME,
    HUB_CFG_PLAY_PASSWORD_FILE,
    HUB_CFG_COUNT_
};

extern const struct tny_config_item hub_config_items[HUB_CFG_COUNT_];

/* The effective configuration: values parallel to hub_config_items, and
 * the password read from password_file when that is set. */
struct hub_config {
    struct tny_config_value v[HUB_CFG_COUNT_];
    char password[TNY_CONFIG_VALUE_MAX];
    char play_password[TNY_CONFIG_VALUE_MAX]; /* play_password_file's */
};

/* What the command line asked for besides settings. */
struct hub_args {
    const char *config_path; /* --config PATH, NULL = none */
    bool dump_config;        /* --dump-config */
    bool annotated;          /* --annotated */
    bool help, version;
    bool create;             /* --create: make the database, then exit */
    const char *backup_path; /* --backup FILE: copy the database, exit */
};

/* Defaults, then the file named by --config (if any), then --name=value
 * overrides; validates (URIs, files given for TLS, a password file that
 * can be read).  Errors: TNY_EINVAL with one line in diag
 * ("hub.conf:12: unknown setting \"brokr\""), TNY_ENOTFOUND for an
 * unknown setting, TNY_ESTATE for a file that cannot be read. */
TNY_MUST_USE int hub_config_load(int argc, char **argv, struct hub_config *cfg,
                                 struct hub_args *args, struct tny_diag *diag);

/* As hub_config_load, with the config file's bytes given (text[0..len),
 * followed by a NUL at text[len]; NULL = no file) instead of read from the
 * file --config names, which then only names it in messages.  A NUL byte,
 * a control character or a byte that is not UTF-8 in the file is
 * TNY_EINVAL naming the file, the line and the byte offset.  The config
 * file's parser without the disk: the fuzz target fuzz/fuzz_hub_config.c
 * enters here. */
TNY_MUST_USE int hub_config_load_text(int argc, char **argv, const char *text,
                                      size_t len, struct hub_config *cfg,
                                      struct hub_args *args,
                                      struct tny_diag *diag);

/* Writes the configuration (password masked) to stdout. */
void hub_config_print(const struct hub_config *cfg, bool annotated);

/* Runs the hub until SIGINT/SIGTERM: opens the store (which must exist:
 * see hub_create), checks it (hub_store_probe: not corrupt, writable),
 * connects, serves.  Returns the process exit status (0 clean shutdown,
 * 1 start-up failure, with one log line naming the database and why: no
 * such file, not a hub database, corrupt, read-only, the broker options
 * are invalid).  A database that fails is never announced online. */
int hub_run(const struct hub_config *cfg);

struct hub_store;

/* Opens the configured database for serving (hub_db.c): it must exist and
 * be a hub database (HUB_STORE_MUST_EXIST), and pass hub_store_probe
 * (quick_check, a committed write).  flags: more enum hub_store_flag bits.
 * Errors: TNY_ENOTFOUND (no such file, empty, not a hub database; diag
 * says to run --create), TNY_ESTATE (corrupt, read-only, I/O), with diag
 * naming the file and the reason. */
TNY_MUST_USE int hub_db_open(const struct hub_config *cfg, unsigned flags,
                             struct hub_store **out, struct tny_diag *diag);

/* One hub per database (hub_db.c): takes an exclusive flock(2) on the
 * file DATABASE.lock beside the database (made if missing, never removed)
 * and writes this process's pid and host name into it.  The lock is the
 * kernel's: it goes when the process ends in any way (SIGKILL, a crash),
 * so a stale lock file never keeps a hub from starting.  *fd gets the
 * descriptor to keep open for the life of the hub (close it to release),
 * or -1 when the database does not exist (hub_db_open refuses it).
 * Errors: TNY_ECONFLICT when another process holds it (diag names the
 * database, the other hub's pid and host as written in the lock file),
 * TNY_ESTATE when the lock file cannot be made or locked (diag names it
 * and why). */
TNY_MUST_USE int hub_db_lock(const struct hub_config *cfg, int *fd,
                             struct tny_diag *diag);

/* tourney-hub --create: makes the configured database (schema, a probe
 * write) when it does not exist or is an empty file; an existing hub
 * database is left as it is.  Says which on stdout.  Returns the exit
 * status: 0, or 1 with the reason on stderr (another program's database,
 * cannot write). */
int hub_create(const struct hub_config *cfg);

/* tourney-hub --backup FILE: a consistent copy of the configured database
 * into FILE (hub_store_backup), safe while the hub runs.  Returns the exit
 * status: 0, or 1 with the reason on stderr (FILE exists, I/O). */
int hub_backup(const struct hub_config *cfg, const char *path);

/* The whole program: arguments, config (exit 2 on a bad one), run. */
int hub_main(int argc, char **argv);

#endif
