/* config_file.h - for the config fuzz targets: the programs read their
 * configuration from a file (--config PATH), so the input is written to a
 * per-process file under $TMPDIR (or /tmp) and its path returned.
 */
#ifndef TNY_FUZZ_CONFIG_FILE_H
#define TNY_FUZZ_CONFIG_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes data to the process's input file; NULL if it cannot. */
static inline const char *fuzz_config_file(const char *name,
                                           const uint8_t *data, size_t size)
{
    static char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof(path), "%s/tny-fuzz-%s-%ld.conf",
             dir && dir[0] ? dir : "/tmp", name, (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    size_t w = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || w != size)
        return NULL;
    return path;
}

#endif
