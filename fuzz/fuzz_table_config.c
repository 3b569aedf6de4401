/* fuzz_table_config.c - fuzz target: the table client's configuration
 * file as tourney-table --config FILE reads it (tbl_settings_load_text,
 * the code tbl_settings_load runs on the file's text: the generic parser
 * of common/src/config.c and the table's own checks), then --dump-config
 * on the same text; from memory, so that no input touches the disk.
 */
#include <string.h>

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
    /* The file's text as read_file hands it over: NUL-terminated. */
    char *conf = malloc(size + 1);
    fuzz_check(conf != NULL);
    memcpy(conf, data, size);
    conf[size] = '\0';
    char *run[] = {"--config", "fuzz.conf", NULL};
    if (tbl_settings_load_text(2, run, conf, &s, &action, &text, &diag) == 0) {
        free(text);
        text = NULL;
        char *dump[] = {"--config", "fuzz.conf", "--dump-config", NULL};
        fuzz_check(tbl_settings_load_text(3, dump, conf, &s, &action, &text,
                                          &diag) == 0);
        fuzz_check(action == TBL_SETTINGS_DUMP && text != NULL);
    }
    free(text);
    free(conf);
    return 0;
}
