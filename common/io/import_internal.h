/* import_internal.h - what the importers of common/io share: the
 * ListFortress-shaped reader state (import.c) that the NRTM reader
 * (import_nrtm.c) converts into, warnings, and the exporters' helpers.
 * Internal to common/io. */
#ifndef TNY_IMPORT_INTERNAL_H
#define TNY_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "tny/import.h"
#include "tny/standings.h"

#define IMPORT_MAX_PLAYERS 100000
#define IMPORT_MAX_ROUNDS 1000

struct idmap {
    json_int_t id;
    int32_t index;
};

struct rref {
    int type; /* 1 swiss, 2 elimination */
    json_int_t number;
    size_t index;  /* in the source's rounds[] */
    size_t seated; /* players in the round (elimination) */
};

struct lf {
    const char *src; /* "listfortress" or "cryodex": message prefix */
    struct tny_diag *diag;
    struct tny_format *fmt;           /* the format the event is written on */
    bool own_format;                  /* write fmt in full (else preset name +
                                       * swiss_rounds/cut options) */
    int32_t n;                        /* participants */
    struct idmap *map;                /* sorted by id */
    json_int_t *ids;                  /* source id of each participant */
    char (*pid)[24];                  /* event player id: "p<id>" */
    struct tny_import_warnings *warn; /* NULL: not kept */
    int32_t ties;                     /* games imported as draws */
    bool widened;                     /* score range widened */
    struct rref first_elim;           /* type 0: no elimination round */
    /* While an elimination round is read: the next one's matches (NULL
     * after the final) and the participants (top_cut_rank). */
    bool in_elim;
    const json_t *next_elim, *parts;
};

/* One warning line, "src: ..." (dropped when memory runs out). */
void tny__import_warn(struct lf *lf, const char *fmt, ...) TNY_PRINTF(2, 3);

/* The ListFortress document both converters build: participants and
 * rounds go into lf (taken, whatever ok says); *out = lf when ok. */
int tny__import_finish(json_t *lf, json_t *parts, json_t *lrounds, bool ok,
                       const char *who, json_t **out, struct tny_diag *diag);

/* Cobra's or AesopsTables' NRTM JSON as a ListFortress document on the
 * netrunner-sss or netrunner-dss preset (lf->fmt); a single-sided game
 * carries x_sides, its seats' sides. */
int tny__import_nrtm_to_lf(struct lf *lf, const json_t *root, json_t **out);

/* The exported id of player p ("p<N>" keeps N, else index + 1). */
json_int_t tny__import_lf_id(const struct tny_event *ev, int32_t p);

/* TNY_OK for a 2-player event, else TNY_EINVAL: "export: TOOL takes
 * 2-player events; ...". */
int tny__import_two_player(const struct tny_event *ev, const char *tool,
                           struct tny_diag *diag);

/* Index of tiebreak tb in st's chain, or -1. */
int32_t tny__import_tiebreak_index(const struct tny_standings *st,
                                   enum tny_tiebreak tb);

#endif
