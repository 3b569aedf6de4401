/* module_labels.c - every text a registered game module gives people
 * (its slip's headings, note and box, its own result keys' labels:
 * game.h struct tny_slip, result_schema.h struct tny_result_ext), walked
 * over the registry (tny_game_registry) and written as a .pot to stdout,
 * so module_labels.sh can check with msgcmp that the catalogues' templates
 * hold every one (issue 18 item 1: a module's labels are msgids the
 * printout and the table translate).  A label that is not marked N_()
 * or NC_() in its module is missing from the templates.  With --keys:
 * only the labels of the modules' own result keys (what the play page
 * shows of a module).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tny/game.h"
#include "tny/result_schema.h"

/* s as a PO string's body (quotes, backslashes, newlines escaped). */
static void po_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
    putchar('"');
}

static void entry(const char *game, const char *what, const char *ctx,
                  const char *id)
{
    if (!id || !id[0])
        return;
    printf("#. %s: %s\n", game, what);
    if (ctx) {
        fputs("msgctxt ", stdout);
        po_string(ctx);
        putchar('\n');
    }
    fputs("msgid ", stdout);
    po_string(id);
    fputs("\nmsgstr \"\"\n\n", stdout);
}

int main(int argc, char **argv)
{
    const struct tny_game_ops *const *all = NULL;
    const int32_t n = tny_game_registry(&all);
    const bool keys_only = argc > 1 && strcmp(argv[1], "--keys") == 0;

    printf("msgid \"\"\nmsgstr \"Content-Type: text/plain; "
           "charset=UTF-8\\n\"\n\n");
    for (int32_t g = 0; g < n; g++) {
        const struct tny_game_ops *m = all[g];
        if (!m)
            continue;
        for (int32_t i = 0; i < m->n_ext; i++)
            entry(m->name, m->ext[i].info.name, NULL, m->ext[i].text);
        if (keys_only)
            continue;
        for (int32_t i = 0; i < m->slip.n_cols; i++)
            entry(m->name, "slip heading", m->slip.cols[i].context,
                  m->slip.cols[i].head);
        entry(m->name, "slip note", NULL, m->slip.note);
        entry(m->name, "slip box", NULL, m->slip.tick);
    }
    return 0;
}
