/* fuzz_hub_config.c - fuzz target: the hub's configuration file as
 * tourney-hub --config FILE reads it (hub_config_load_text, the code
 * hub_config_load runs on the file's raw bytes, NUL bytes included: the
 * text check, the generic "name = value" parser of common/src/config.c
 * and the hub's own checks), from memory so that no input touches the
 * disk.  An accepted configuration, written
 * out as --dump-config writes it, must read back.
 */
#include <string.h>

#include "fuzz.h"
#include "hub/hub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct hub_config cfg, back;
    struct hub_args args;
    struct tny_diag diag;

    if (size > 65536)
        return 0;
    /* The file's bytes as read_file hands them over (NUL bytes in them
     * included), with a NUL after the last. */
    char *conf = malloc(size + 1);
    fuzz_check(conf != NULL);
    memcpy(conf, data, size);
    conf[size] = '\0';
    char *argv[] = {"tourney-hub", "--config", "fuzz.conf", NULL};
    int rc = hub_config_load_text(3, argv, conf, size, &cfg, &args, &diag);
    free(conf);
    if (rc < 0)
        return 0;
    size_t need = tny_config_dump(hub_config_items, HUB_CFG_COUNT_, cfg.v,
                                  false, NULL, 0);
    char *text = malloc(need + 1);
    fuzz_check(text != NULL);
    tny_config_dump(hub_config_items, HUB_CFG_COUNT_, cfg.v, false, text,
                    need + 1);
    tny_config_defaults(hub_config_items, HUB_CFG_COUNT_, back.v);
    fuzz_check(tny_config_parse(hub_config_items, HUB_CFG_COUNT_, back.v, text,
                                "dump", &diag) == 0);
    for (int i = 0; i < HUB_CFG_COUNT_; i++)
        fuzz_check(strcmp(cfg.v[i].text, back.v[i].text) == 0);
    free(text);
    return 0;
}
