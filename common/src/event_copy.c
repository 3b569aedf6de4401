/* event_copy.c - a deep copy of an engine event, so one owner can hand an
 * explicit snapshot of its state to another thread (the hub's feed
 * builder) without sharing a byte with it; the frozen copy packs every
 * player string into one block (one allocation, not one per string). */
#include "tny/event.h"

#include <stdlib.h>
#include <string.h>

/* *dst = a malloc'd copy of src (NULL stays NULL); false when out of
 * memory. */
static bool dup_str(char **dst, const char *src)
{
    *dst = NULL;
    if (!src)
        return true;
    *dst = strdup(src);
    return *dst != NULL;
}

/* A copy of n elements of size sz (NULL when n is 0). */
static void *dup_array(const void *src, int32_t n, size_t sz, bool *ok)
{
    if (n <= 0 || !src)
        return NULL;
    void *p = malloc((size_t)n * sz);
    if (!p) {
        *ok = false;
        return NULL;
    }
    memcpy(p, src, (size_t)n * sz);
    return p;
}

/* The strings of player p, in the order pack_strings writes them: the
 * colours only up to n_colours (the engine's rule for them). */
static int32_t player_strings(struct tny_player *p, char **out[10])
{
    char **f[] = {&p->id,          &p->name,    &p->club,   &p->country,
                  &p->external_id, &p->faction, &p->agenda, &p->decklist};
    int32_t n = 0;
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        out[n++] = f[k];
    for (int32_t c = 0; c < p->n_colours && c < 2; c++)
        out[n++] = &p->colours[c];
    return n;
}

/* Every player string of src copied into one block (dst->strings), the
 * players' pointers aimed into it; false when out of memory. */
static bool pack_strings(const struct tny_event *src, struct tny_event *dst)
{
    size_t total = 0;
    char **from[10], **to[10];
    for (int32_t i = 0; i < src->n_players; i++) {
        int32_t n = player_strings((struct tny_player *)&src->players[i], from);
        for (int32_t k = 0; k < n; k++)
            total += *from[k] ? strlen(*from[k]) + 1 : 0;
    }
    for (int32_t i = 0; i < src->n_players; i++) {
        struct tny_player *dp = &dst->players[i];
        dp->id = dp->name = dp->club = dp->country = dp->external_id = NULL;
        dp->faction = dp->agenda = dp->decklist = NULL;
        dp->colours[0] = dp->colours[1] = NULL;
    }
    if (total == 0)
        return true;
    char *at = dst->strings = malloc(total);
    if (!at)
        return false;
    for (int32_t i = 0; i < src->n_players; i++) {
        int32_t n = player_strings((struct tny_player *)&src->players[i], from);
        (void)player_strings(&dst->players[i], to);
        for (int32_t k = 0; k < n; k++) {
            if (!*from[k])
                continue;
            size_t len = strlen(*from[k]) + 1;
            memcpy(at, *from[k], len);
            *to[k] = at;
            at += len;
        }
    }
    return true;
}

static int copy(const struct tny_event *src, struct tny_event *dst, bool frozen)
{
    bool ok = true;
    *dst = *src;
    dst->players = NULL;
    dst->rounds = NULL;
    dst->strings = NULL;
    dst->absences = NULL;
    dst->cut_seeds = NULL;
    dst->n_players = dst->n_rounds = dst->n_absences = dst->n_cut_seeds = 0;

    struct tny_player *pl =
        dup_array(src->players, src->n_players, sizeof(*pl), &ok);
    if (pl) {
        /* Strings first cleared, so a failure part way frees only what
         * this copy owns. */
        for (int32_t i = 0; i < src->n_players; i++) {
            struct tny_player *p = &pl[i];
            p->id = p->name = p->club = p->country = p->external_id = NULL;
            p->faction = p->agenda = p->decklist = NULL;
            for (int c = 0; c < 2; c++)
                p->colours[c] = NULL;
        }
        dst->players = pl;
        dst->n_players = src->n_players;
        if (frozen)
            ok = pack_strings(src, dst);
        for (int32_t i = 0; ok && !frozen && i < src->n_players; i++) {
            const struct tny_player *s = &src->players[i];
            struct tny_player *p = &pl[i];
            ok = dup_str(&p->id, s->id) && dup_str(&p->name, s->name) &&
                 dup_str(&p->club, s->club) &&
                 dup_str(&p->country, s->country) &&
                 dup_str(&p->external_id, s->external_id) &&
                 dup_str(&p->faction, s->faction) &&
                 dup_str(&p->agenda, s->agenda) &&
                 dup_str(&p->decklist, s->decklist);
            for (int c = 0; ok && c < s->n_colours && c < 2; c++)
                ok = dup_str(&p->colours[c], s->colours[c]);
        }
    }
    struct tny_round *rounds =
        dup_array(src->rounds, src->n_rounds, sizeof(*rounds), &ok);
    if (rounds) {
        for (int32_t r = 0; r < src->n_rounds; r++)
            rounds[r].tables = NULL;
        dst->rounds = rounds;
        dst->n_rounds = src->n_rounds;
        for (int32_t r = 0; ok && r < src->n_rounds; r++)
            rounds[r].tables =
                dup_array(src->rounds[r].tables, src->rounds[r].n_tables,
                          sizeof(*rounds[r].tables), &ok);
    }
    dst->absences =
        dup_array(src->absences, src->n_absences, sizeof(*dst->absences), &ok);
    if (dst->absences)
        dst->n_absences = src->n_absences;
    dst->cut_seeds = dup_array(src->cut_seeds, src->n_cut_seeds,
                               sizeof(*dst->cut_seeds), &ok);
    if (dst->cut_seeds)
        dst->n_cut_seeds = src->n_cut_seeds;
    if (!ok) {
        tny_event_release(dst);
        return TNY_ENOMEM;
    }
    return TNY_OK;
}

int tny_event_copy(const struct tny_event *src, struct tny_event *dst)
{
    return copy(src, dst, false);
}

int tny_event_copy_frozen(const struct tny_event *src, struct tny_event *dst)
{
    return copy(src, dst, true);
}
