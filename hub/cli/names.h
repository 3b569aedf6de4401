/* names.h - a player's name split for a list "by name" (docs/console.md
 * "Family names"): the family name, the rest, and whether the name is
 * already written family name first.  The printouts' list (print.c)
 * uses it; the hall page (deploy/overlays/pages.js sortName) follows the
 * same rules, and both are checked against one table of names,
 * tests/hub/family_names.tsv (tests/hub/test_names.c, pages_check.js).
 */
#ifndef HUB_NAMES_H
#define HUB_NAMES_H

#include <stdbool.h>

struct hub_name_parts {
    char family[256], given[256];
    /* The name is written family name first (Chinese, Japanese or
     * Korean script; a Hungarian list's name without capitals): the
     * list shows it as written, not "family, given". */
    bool as_written;
};

/* hub_family_split(name, family_first, np): the family name is what
 * comes before a comma ("Szőke, Ödön"); else, in a name of two words or
 * more, the first word when the name is in Chinese, Japanese or Korean
 * script, or when family_first (a Hungarian list) and no word is in
 * capitals ("Lőrincz Árpád"); else the words in capitals when others are
 * not ("NGUYỄN Thị Minh Khai", "Anna NOWAK"); else the last word with the
 * lower-case particles before it ("Jan van Dijk").  A one-word name has
 * no family name (np->family empty, np->given the name). */
void hub_family_split(const char *name, bool family_first,
                      struct hub_name_parts *np);

/* hub_names_family_first(lang): a list in this language writes a name
 * family name first when nothing else says (Hungarian). */
bool hub_names_family_first(const char *lang);

#endif
