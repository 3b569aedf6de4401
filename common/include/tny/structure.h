/* structure.h - GT-5 tournament structure tables: Swiss rounds and cut size
 * by attendance (seed 003, "Struktura podstawowa / zaawansowana").
 *
 * A lookup in two constant tables; the custom structure (anything else) is
 * the organiser's own numbers and never comes through here.  Invariant: the
 * rows of each table are contiguous, increasing and open-ended at the top.
 */
#ifndef TNY_STRUCTURE_H
#define TNY_STRUCTURE_H

#include <stdint.h>

#include "tny/error.h"

enum tny_gt_structure_kind {
    TNY_GT_STRUCTURE_BASIC = 1,    /* store championship: 4 players and up */
    TNY_GT_STRUCTURE_ADVANCED = 2, /* regional championship: 9 and up */
};

/* GT-5: number of Swiss rounds and cut size (top K of single elimination;
 * 0 = no cut) for attendance players under structure kind.
 * basic:    4-8 3/none, 9-16 4/none, 17-24 4/4, 25-40 5/4, 41-44 5/8,
 *           45-76 6/8, 77-148 6/16, 149+ 7/16;
 * advanced: 9-12 4/4, 13-24 4/8, 25-40 5/8, 41-76 6/8, 77-148 6/16,
 *           149-288 6/32, 289-512 7/32, 513+ 8/32.
 * Errors: TNY_ERANGE (attendance below the table's first row: 4 basic, 9
 * advanced), TNY_EINVAL (unknown kind). */
TNY_MUST_USE int tny_gt_structure_lookup(int32_t attendance,
                                         enum tny_gt_structure_kind kind,
                                         int32_t *swiss_rounds, int32_t *cut,
                                         struct tny_diag *diag);

#endif
