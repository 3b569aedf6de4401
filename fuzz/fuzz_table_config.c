/* fuzz_table_config.c - fuzz target: the table client's configuration
 * file (tbl_settings_load with --config FILE: the generic parser of
 * common/src/config.c and the table's own checks), then --dump-config on
 * the same file.
 */
#include "config_file.h"
#include "fuzz.h"
#include "settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tbl_settings s;
    enum tbl_settings_action action;
    struct tny_diag diag;
    char *text = NULL;

    if (size > 65536)
        return 0;
    const char *path = fuzz_config_file("table", data, size);
    if (!path)
        return 0;
    char *run[] = {"--config", (char *)path, NULL};
    if (tbl_settings_load(2, run, &s, &action, &text, &diag) == 0) {
        free(text);
        text = NULL;
        char *dump[] = {"--config", (char *)path, "--dump-config", NULL};
        fuzz_check(tbl_settings_load(3, dump, &s, &action, &text, &diag) == 0);
        fuzz_check(action == TBL_SETTINGS_DUMP && text != NULL);
    }
    free(text);
    unlink(path);
    return 0;
}
