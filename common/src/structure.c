/* structure.c - GT-5 structure tables (seed 003), one constant table per
 * structure.  No state, no allocation.  Rows are sorted by their first
 * attendance; a row covers attendance up to the next row's first minus one.
 */
#include "tny/structure.h"

#include <stddef.h>

struct structure_row {
    int32_t from; /* smallest attendance of the row */
    int32_t rounds;
    int32_t cut; /* 0 = no cut */
};

/* "Struktura podstawowa" (store championship). */
static const struct structure_row basic_rows[] = {
    {4, 3, 0},  {9, 4, 0},  {17, 4, 4},  {25, 5, 4},
    {41, 5, 8}, {45, 6, 8}, {77, 6, 16}, {149, 7, 16},
};

/* "Struktura zaawansowana" (regional championship). */
static const struct structure_row advanced_rows[] = {
    {9, 4, 4},   {13, 4, 8},   {25, 5, 8},   {41, 6, 8},
    {77, 6, 16}, {149, 6, 32}, {289, 7, 32}, {513, 8, 32},
};

int tny_gt_structure_lookup(int32_t attendance, enum tny_gt_structure_kind kind,
                            int32_t *swiss_rounds, int32_t *cut,
                            struct tny_diag *diag)
{
    int rc = TNY_OK;
    const struct structure_row *rows = NULL;
    size_t n_rows = 0;
    const char *name = NULL;

    switch (kind) {
    case TNY_GT_STRUCTURE_BASIC:
        rows = basic_rows;
        n_rows = sizeof(basic_rows) / sizeof(basic_rows[0]);
        name = "basic";
        break;
    case TNY_GT_STRUCTURE_ADVANCED:
        rows = advanced_rows;
        n_rows = sizeof(advanced_rows) / sizeof(advanced_rows[0]);
        name = "advanced";
        break;
    default:
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "structure: unknown kind %d: expected basic or "
                          "advanced",
                          (int)kind);
        goto out;
    }
    if (attendance < rows[0].from) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "structure: %d players: the %s structure needs at "
                          "least %d",
                          (int)attendance, name, (int)rows[0].from);
        goto out;
    }
    size_t i = n_rows - 1;
    while (attendance < rows[i].from)
        i--;
    *swiss_rounds = rows[i].rounds;
    *cut = rows[i].cut;
out:
    return rc;
}
