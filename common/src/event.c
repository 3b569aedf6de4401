/* event.c - lifecycle and small queries of the event model (event.h).
 *
 * Includes the stage sizes (GT-5 structure from attendance) that both the
 * checks and the planner read.  The pairing planner (pair.h) depends on the
 * event model, never the other way: turning a plan into a round is
 * tny_event_append_round in pair.c.
 */
#include "tny/event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/game.h"
#include "tny/structure.h"

void tny_event_init(struct tny_event *ev)
{
    memset(ev, 0, sizeof(*ev));
}

void tny_player_release(struct tny_player *p)
{
    free(p->id);
    free(p->name);
    free(p->club);
    free(p->country);
    free(p->external_id);
    for (int i = 0; i < p->n_colours; i++)
        free(p->colours[i]);
    free(p->faction);
    free(p->agenda);
    free(p->decklist);
}

void tny_event_release(struct tny_event *ev)
{
    for (int32_t i = 0; i < ev->n_players && !ev->strings; i++)
        tny_player_release(&ev->players[i]);
    free(ev->strings); /* a frozen copy's player strings */
    free(ev->players);
    for (int32_t r = 0; r < ev->n_rounds; r++)
        free(ev->rounds[r].tables);
    free(ev->rounds);
    free(ev->absences);
    free(ev->cut_seeds);
    memset(ev, 0, sizeof(*ev));
}

void tny_event_remove_player(struct tny_event *ev, int32_t ix)
{
    if (ix < 0 || ix >= ev->n_players || ev->strings)
        return;
    tny_player_release(&ev->players[ix]);
    memmove(&ev->players[ix], &ev->players[ix + 1],
            sizeof(*ev->players) * (size_t)(ev->n_players - ix - 1));
    ev->n_players--;
    for (int32_t r = 0; r < ev->n_rounds; r++)
        for (int32_t t = 0; t < ev->rounds[r].n_tables; t++) {
            struct tny_table *tb = &ev->rounds[r].tables[t];
            for (int32_t i = 0; i < tb->n_seats; i++)
                tb->seats[i] -= tb->seats[i] > ix;
        }
    int32_t k = 0;
    for (int32_t i = 0; i < ev->n_absences; i++) {
        struct tny_absence a = ev->absences[i];
        if (a.player == ix)
            continue;
        a.player -= a.player > ix;
        ev->absences[k++] = a;
    }
    ev->n_absences = k;
    k = 0;
    for (int32_t i = 0; i < ev->n_cut_seeds; i++)
        if (ev->cut_seeds[i] != ix)
            ev->cut_seeds[k++] = ev->cut_seeds[i] - (ev->cut_seeds[i] > ix);
    ev->n_cut_seeds = k;
}

int32_t tny_event_player_index(const struct tny_event *ev, const char *id)
{
    for (int32_t i = 0; i < ev->n_players; i++)
        if (strcmp(ev->players[i].id, id) == 0)
            return i;
    return -1;
}

bool tny_player_active_in(const struct tny_player *p, int32_t round)
{
    if (p->first_round > round)
        return false;
    if (p->no_show) /* dropped before round 1 */
        return p->rejoined_from > 0 && round >= p->rejoined_from;
    if (p->dq_after > 0 && round > p->dq_after)
        return false; /* CM-3: never rejoins */
    if (p->dropped_after > 0 && round > p->dropped_after)
        return p->rejoined_from > 0 && round >= p->rejoined_from; /* GT-11 */
    return true;
}

int32_t tny_event_completed_rounds(const struct tny_event *ev)
{
    int32_t done = 0;
    for (int32_t r = 0; r < ev->n_rounds; r++) {
        const struct tny_round *round = &ev->rounds[r];
        for (int32_t t = 0; t < round->n_tables; t++)
            if (!round->tables[t].is_bye && !round->tables[t].has_result)
                return done;
        done++;
    }
    return done;
}

int32_t tny_event_unexplained_absences(const struct tny_event *ev, char *buf,
                                       size_t cap)
{
    int32_t n = 0;
    size_t used = 0;
    const int32_t done = tny_event_completed_rounds(ev);
    if (cap > 0)
        buf[0] = '\0';
    bool *seated = calloc((size_t)(ev->n_players > 0 ? ev->n_players : 1), 1);
    if (!seated)
        return 0;
    for (int32_t r = 0; r < done; r++) {
        const struct tny_round *round = &ev->rounds[r];
        if (round->stage == TNY_STAGE_ELIMINATION)
            continue; /* only the qualified play there */
        memset(seated, 0, (size_t)ev->n_players);
        for (int32_t t = 0; t < round->n_tables; t++)
            for (int32_t s = 0; s < round->tables[t].n_seats; s++)
                seated[round->tables[t].seats[s]] = true;
        for (int32_t p = 0; p < ev->n_players; p++) {
            if (seated[p] || !tny_player_active_in(&ev->players[p], r + 1))
                continue;
            bool told = false;
            for (int32_t a = 0; a < ev->n_absences && !told; a++)
                told = ev->absences[a].player == p &&
                       ev->absences[a].round == r + 1;
            if (told)
                continue;
            n++;
            if (used + 1 < cap) {
                int w = snprintf(buf + used, cap - used,
                                 "event.rounds[%d]: \"%s\" is not seated "
                                 "but neither dropped nor listed in "
                                 "event.absences\n",
                                 (int)r, ev->players[p].id);
                if (w > 0)
                    used += (size_t)w < cap - used ? (size_t)w : cap - used - 1;
            }
        }
    }
    free(seated);
    return n;
}

int32_t tny_table_seat_of(const struct tny_table *t, int32_t player)
{
    for (int32_t s = 0; s < t->n_seats; s++)
        if (t->seats[s] == player)
            return s;
    return -1;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

int tny_event_add_player(struct tny_event *ev, const char *id, const char *name,
                         int32_t *index)
{
    struct tny_player *np =
        realloc(ev->players, sizeof(*np) * (size_t)(ev->n_players + 1));
    if (!np)
        return TNY_ENOMEM;
    ev->players = np;
    struct tny_player *p = &ev->players[ev->n_players];
    memset(p, 0, sizeof(*p));
    p->id = dup_string(id);
    p->name = dup_string(name);
    p->first_round = 1;
    if (!p->id || !p->name) {
        free(p->id);
        free(p->name);
        return TNY_ENOMEM;
    }
    if (index)
        *index = ev->n_players;
    ev->n_players++;
    return TNY_OK;
}

int tny_event_add_army(struct tny_event *ev, int32_t p, const char *name)
{
    struct tny_player *pl = &ev->players[p];
    int32_t a = tny_format_army_index(&ev->format, name);
    if (a < 0)
        return TNY_ENOTFOUND;
    if (pl->n_armies >= TNY_MAX_ARMIES)
        return TNY_ERANGE;
    pl->armies[pl->n_armies++] = a;
    return TNY_OK;
}

/* GT-5 attendance: everyone registered for the event. */
static int32_t registered_players(const struct tny_event *ev)
{
    return ev->n_players;
}

int tny_stage_size(const struct tny_event *ev, const struct tny_stage *s,
                   int32_t *rounds, int32_t *cut, struct tny_diag *diag)
{
    *rounds = s->rounds;
    *cut = s->cut;
    if (ev->format.structure == TNY_STRUCTURE_CUSTOM)
        return TNY_OK;
    int32_t sw = 0, k = 0;
    enum tny_gt_structure_kind kind =
        ev->format.structure == TNY_STRUCTURE_BASIC ? TNY_GT_STRUCTURE_BASIC
                                                    : TNY_GT_STRUCTURE_ADVANCED;
    int rc =
        tny_gt_structure_lookup(registered_players(ev), kind, &sw, &k, diag);
    if (rc < 0)
        return rc;
    if (s->kind == TNY_STAGE_SWISS)
        *rounds = sw;
    if (s->kind == TNY_STAGE_ELIMINATION)
        *cut = k;
    return TNY_OK;
}

int32_t tny_nh_knockout_army_count(const struct tny_event *ev)
{
    const struct tny_format *fmt = &ev->format;
    if (!tny_game_ops_of(fmt->game) || !tny_game_ops_of(fmt->game)->armies ||
        fmt->n_armies == 0)
        return 0;
    for (int32_t s = 0; s < fmt->n_stages; s++) {
        int32_t rounds, cut, n = 1;
        struct tny_diag d;
        if (fmt->stages[s].kind != TNY_STAGE_ELIMINATION ||
            tny_stage_size(ev, &fmt->stages[s], &rounds, &cut, &d) < 0 ||
            cut < 2)
            continue;
        while ((1 << n) < cut)
            n++;
        return n + 1;
    }
    return 0;
}
