/* result_value.h - one key of a table's result as a value: where each key
 * of tny/result_schema.h lives in struct tny_result, read and written by
 * key, so an adapter (the event file's JSON, the wire, the hub's result
 * JSON, the console) walks a game's keys and converts each kind of value
 * (flag, number, player, per-player, points, army, players, texts) by one
 * function per kind instead of spelling each game's fields.
 *
 * Not here: the rules between keys (a draw has no winner, a default has no
 * scores: the parsers' game rules and tny_result_validate), ranges
 * (result_schema.h).  Pure, no allocation.
 *
 * Invariants: tny_result_value_set(r, k, v) after tny_result_value_get(r,
 * n_seats, k, v) leaves r's key k as it was; a new key needs a row in the
 * schema and one case in each of get and set, and nothing in the adapters.
 */
#ifndef TNY_RESULT_VALUE_H
#define TNY_RESULT_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "tny/event.h"
#include "tny/result_schema.h"

/* The longest list value (PLAYERS, TEXTS). */
#define TNY_RESULT_LIST_MAX 4

/* One key's value in engine terms (players by seat index). */
struct tny_result_val {
    bool present;   /* the result has the key (a writer emits it) */
    bool flag;      /* FLAG */
    int64_t number; /* NUMBER */
    int32_t seat;   /* PLAYER: seat index */
    /* PER_PLAYER, POINTS (TNY_POINT_SCALE units), ARMY (format's army
     * index): has[s] when seat s has a value, per[s] the value. */
    bool has[TNY_MAX_SEATS];
    int64_t per[TNY_MAX_SEATS];
    int32_t n;                              /* PLAYERS, TEXTS: items */
    int32_t seats[TNY_RESULT_LIST_MAX];     /* PLAYERS: seat of each item */
    const char *texts[TNY_RESULT_LIST_MAX]; /* TEXTS: lines (borrowed) */
};

_Static_assert(TNY_MAX_LOTS <= TNY_RESULT_LIST_MAX && 3 <= TNY_RESULT_LIST_MAX,
               "every list key fits a value");

/* Key k of r, a result of a table of n_seats seats, into *v (present false
 * when r does not have it).  A NUMBER, and vp, ip and bp, are always
 * present in a game that has the key. */
void tny_result_value_get(const struct tny_result *r, int32_t n_seats,
                          enum tny_result_key k, struct tny_result_val *v);

/* Sets key k of r from v (v->present must be true): the reverse of get.
 * texts are copied. */
void tny_result_value_set(struct tny_result *r, enum tny_result_key k,
                          const struct tny_result_val *v);

/* Whether key k, when present, has a value for every player of the table
 * (scores, clock_ms, tp, vp, ip, bp; armies and penalty may name fewer). */
bool tny_result_value_every_seat(enum tny_result_key k);

/* An empty result: no key present (no winner, no default, no armies). */
void tny_result_value_reset(struct tny_result *r);

#endif
