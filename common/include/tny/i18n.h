/* i18n.h - marking text for translation in code without libintl.
 *
 * common/ is pure logic and never calls gettext: it keeps English msgids
 * marked N_("...") so that xgettext (po/catalogues.sh) extracts them, and
 * the program that shows them (the table client, the tourney CLI) passes
 * them through gettext() in its own text domain.  Code that links libintl
 * (glibc has it) defines _() itself as gettext().
 */
#ifndef TNY_I18N_H
#define TNY_I18N_H

/* A msgid: the string itself, translated later by whoever shows it. */
#define N_(s) (s)
/* A msgid s in context c (pgettext's), as two initialisers of a struct's
 * consecutive fields: the context, then the msgid. */
#define NC_(c, s) (c), (s)

#endif
