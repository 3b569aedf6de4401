/* hub_main.c - tourney-hub's command line: --help, --version,
 * --dump-config [--annotated], --config FILE, --name=value, --create,
 * --backup FILE; then the loop.
 *
 * A bad configuration is one line on stderr and exit status 2, before
 * anything is opened.  Not here: the settings themselves (hub_config.c).
 */
#include "hub/hub.h"

#include <stdio.h>

#ifndef TNY_VERSION
#define TNY_VERSION "dev"
#endif

static void usage(void)
{
    printf("usage: tourney-hub [--config FILE] [--NAME=VALUE ...] "
           "[--dump-config [--annotated]]\n"
           "       tourney-hub [--config FILE] --create       make the "
           "database, then exit\n"
           "       tourney-hub [--config FILE] --backup FILE  copy the "
           "database (safe while\n"
           "                                                  the hub runs), "
           "then exit\n"
           "The tournament hub: results, pairings, clocks and the live feed "
           "over MQTT,\nstate in SQLite.  Settings (file lines NAME = VALUE, "
           "or --NAME=VALUE):\n");
    for (int i = 0; i < HUB_CFG_COUNT_; i++)
        printf("  --%-18s %s (default \"%s\")\n", hub_config_items[i].name,
               hub_config_items[i].help, hub_config_items[i].fallback);
}

int hub_main(int argc, char **argv)
{
    static struct hub_config cfg;
    struct hub_args args;
    struct tny_diag diag = {{0}};

    if (hub_config_load(argc, argv, &cfg, &args, &diag) < 0) {
        fprintf(stderr, "tourney-hub: %s\n", diag.msg);
        return 2;
    }
    if (args.help) {
        usage();
        return 0;
    }
    if (args.version) {
        printf("tourney-hub %s\n", TNY_VERSION);
        return 0;
    }
    if (args.dump_config) {
        hub_config_print(&cfg, args.annotated);
        return 0;
    }
    if (args.create && args.backup_path) {
        fprintf(stderr, "tourney-hub: --create and --backup: one at a time\n");
        return 2;
    }
    if (args.create)
        return hub_create(&cfg);
    if (args.backup_path)
        return hub_backup(&cfg, args.backup_path);
    return hub_run(&cfg);
}
