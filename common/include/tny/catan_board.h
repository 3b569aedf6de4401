/* catan_board.h - a random Catan board per table and game (CT-9).
 *
 * Seed 004: "Herní plán je pro každou další hru nově sestaven. Staví se
 * vždy čistě náhodně, včetně umístění území pouště. Žetony s čísly budou
 * vždy rozmístěny ... na základě písmen na jejich rubové straně dle
 * abecedy do spirály počínající v jednom z rohů herního plánu, směřující
 * proti směru hodinových ručiček ke středu plánu" (a new board for every
 * game, purely random, the desert too; the number tokens in the order of
 * the letters on their backs, in a spiral from one of the corners,
 * counterclockwise to the centre).
 *
 * The base game's 19 land hexes (4 forest, 4 pasture, 4 fields, 3 hills,
 * 3 mountains, 1 desert) are shuffled and the corner drawn from the event's
 * generator (tny_rng_derive with TNY_LOT_BOARD), so the board of (event
 * seed, round, table) is reproducible byte for byte (CM-4).  The tokens
 * A..R (5 2 6 3 8 10 9 12 11 4 8 10 9 4 5 6 3 11) follow the spiral and
 * skip the desert.  Pure: no I/O.
 *
 * Positions: rows of 3, 4, 5, 4, 3 hexes, top to bottom, left to right
 * (0..18).  Invariant of a generated board: each terrain count as above,
 * number[] 0 exactly on the desert, letters A..R each once.
 */
#ifndef TNY_CATAN_BOARD_H
#define TNY_CATAN_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"

#define TNY_CT_HEXES 19
/* Length of the compact code (tny_ct_board_code), without the NUL. */
#define TNY_CT_CODE_LEN (TNY_CT_HEXES * 2 + 2)

enum tny_ct_terrain {
    TNY_CT_DESERT,
    TNY_CT_FOREST,    /* wood */
    TNY_CT_PASTURE,   /* wool */
    TNY_CT_FIELDS,    /* grain */
    TNY_CT_HILLS,     /* brick */
    TNY_CT_MOUNTAINS, /* ore */
};

struct tny_ct_board {
    uint8_t terrain[TNY_CT_HEXES]; /* enum tny_ct_terrain by position */
    uint8_t number[TNY_CT_HEXES];  /* 2..12; 0 on the desert */
    char letter[TNY_CT_HEXES];     /* token letter 'A'..'R'; 0 desert */
    uint8_t corner;                /* 0..5: the spiral's start corner,
                                    * 0 top left, then counterclockwise */
};

/* The board of table `table` in round `round` of an event with `seed`
 * (round >= 1, 1 <= table <= 4095). */
void tny_ct_board_generate(uint64_t seed, int32_t round, int32_t table,
                           struct tny_ct_board *out);

/* Compact text form (TNY_CT_CODE_LEN characters): 19 terrain codes
 * (D F P W H M), 19 token letters ('-' on the desert), ':' and the corner
 * digit.  buf must hold TNY_CT_CODE_LEN + 1 bytes. */
void tny_ct_board_code(const struct tny_ct_board *b, char *buf);

/* Parses a code; checks the invariants above.  Errors: TNY_EINVAL with
 * what is wrong. */
TNY_MUST_USE int tny_ct_board_parse(const char *code, struct tny_ct_board *out,
                                    struct tny_diag *diag);

/* The board drawn as text for a screen or a printer: five rows of hexes
 * ("Fo  6B": terrain, number, token letter), then a 4-line legend; every
 * line at most 60 columns.  Always NUL-terminates; returns the length it needed
 * (as snprintf). */
size_t tny_ct_board_text(const struct tny_ct_board *b, char *buf, size_t size);

const char *tny_ct_terrain_name(enum tny_ct_terrain t);

#endif
