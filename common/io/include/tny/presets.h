/* presets.h - the format presets shipped in formats/<name>.json, compiled in.
 */
#ifndef TNY_PRESETS_H
#define TNY_PRESETS_H

struct tny_preset {
    const char *name; /* file name without .json, e.g. "neuroshima-hex" */
    const char *json; /* the file's text, NUL-terminated */
};

/* Sorted by name; terminated by an entry whose name is NULL. */
extern const struct tny_preset tny_presets[];

#endif
