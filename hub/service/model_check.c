/* model_check.c - issue 17's checking mode: the service's model of an
 * event (struct hub_ev: the typed event, its round, table states, judge's
 * extensions, clock, the cached draft) compared with what a fresh load
 * from the store gives.
 *
 * The console and the result path change the model in place after the
 * store committed; this check is how the tests catch an apply step that
 * forgot something.  It runs when the service's options say model_check
 * (the hub sets it from TNY_MODEL_CHECK=1 in its environment: tests;
 * never set in production: a fresh load costs what the in-place
 * change saves) and aborts with the first difference, so no test can
 * pass over it.  Compares typed values, field by field, never text.
 */
#include "model_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "hub/log.h"
#include "publish.h"
#include "tny/pair.h"

struct diff {
    char *msg;
    size_t cap;
    bool found;
};

static bool differ(struct diff *d, const char *fmt, ...) TNY_PRINTF(2, 3);
static bool differ(struct diff *d, const char *fmt, ...)
{
    va_list ap;
    if (d->found)
        return true;
    va_start(ap, fmt);
    vsnprintf(d->msg, d->cap, fmt, ap);
    va_end(ap);
    d->found = true;
    return true;
}

static bool str_eq(const char *a, const char *b)
{
    return (!a || !a[0]) ? (!b || !b[0]) : (b && strcmp(a, b) == 0);
}

static bool players_differ(const struct tny_event *m, const struct tny_event *f,
                           struct diff *d)
{
    if (m->n_players != f->n_players)
        return differ(d, "players: %d in the model, %d stored",
                      (int)m->n_players, (int)f->n_players);
    for (int32_t i = 0; i < m->n_players; i++) {
        const struct tny_player *a = &m->players[i], *b = &f->players[i];
        bool same =
            str_eq(a->id, b->id) && str_eq(a->name, b->name) &&
            str_eq(a->club, b->club) && str_eq(a->country, b->country) &&
            str_eq(a->external_id, b->external_id) &&
            a->has_rating == b->has_rating &&
            (!a->has_rating || a->rating == b->rating) &&
            a->n_armies == b->n_armies &&
            !memcmp(a->armies, b->armies,
                    sizeof(a->armies[0]) * (size_t)a->n_armies) &&
            a->beginner == b->beginner && a->hook == b->hook &&
            a->n_ko_armies == b->n_ko_armies &&
            !memcmp(a->ko_armies, b->ko_armies,
                    sizeof(a->ko_armies[0]) * (size_t)a->n_ko_armies) &&
            a->n_colours == b->n_colours &&
            a->colour_blind == b->colour_blind &&
            str_eq(a->faction, b->faction) && str_eq(a->agenda, b->agenda) &&
            str_eq(a->decklist, b->decklist);
        for (int32_t k = 0; same && k < a->n_colours && k < 2; k++)
            same = str_eq(a->colours[k], b->colours[k]);
        if (!same)
            return differ(d, "player %d (\"%s\"): fields differ", (int)i,
                          a->id ? a->id : "");
        if (a->first_round != b->first_round ||
            a->dropped_after != b->dropped_after || a->no_show != b->no_show ||
            a->rejoined_from != b->rejoined_from ||
            a->dq_after != b->dq_after || a->fixed_table != b->fixed_table)
            return differ(d,
                          "player \"%s\": first %d/%d dropped %d/%d no-show "
                          "%d/%d rejoined %d/%d dq %d/%d fixed %d/%d "
                          "(model/stored)",
                          a->id, (int)a->first_round, (int)b->first_round,
                          (int)a->dropped_after, (int)b->dropped_after,
                          (int)a->no_show, (int)b->no_show,
                          (int)a->rejoined_from, (int)b->rejoined_from,
                          (int)a->dq_after, (int)b->dq_after,
                          (int)a->fixed_table, (int)b->fixed_table);
    }
    return false;
}

#define ARR_EQ(f) (!memcmp(a->f, b->f, sizeof(a->f[0]) * (size_t)n))

static bool result_same(const struct tny_result *a, const struct tny_result *b,
                        int32_t n)
{
    bool same = a->winner == b->winner && a->draw == b->draw &&
                a->intentional_draw == b->intentional_draw &&
                a->double_loss == b->double_loss &&
                a->modified == b->modified && a->hq_diff == b->hq_diff &&
                ARR_EQ(army) && a->has_score == b->has_score && ARR_EQ(score) &&
                ARR_EQ(ip) && ARR_EQ(bp) && a->has_clock == b->has_clock &&
                ARR_EQ(clock_ms) && a->default_winner == b->default_winner &&
                a->decided == b->decided && ARR_EQ(decided_tp) &&
                ARR_EQ(penalty) && a->n_games == b->n_games &&
                a->n_lots == b->n_lots;
    for (int32_t g = 0; same && g < a->n_games && g < 3; g++)
        same = a->games[g] == b->games[g];
    for (int32_t l = 0; same && l < a->n_lots && l < TNY_MAX_LOTS; l++)
        same = strcmp(a->lots[l], b->lots[l]) == 0;
    return same;
}

#undef ARR_EQ

static bool rounds_differ(const struct tny_event *m, const struct tny_event *f,
                          struct diff *d)
{
    if (m->n_rounds != f->n_rounds)
        return differ(d, "rounds: %d in the model, %d stored", (int)m->n_rounds,
                      (int)f->n_rounds);
    for (int32_t r = 0; r < m->n_rounds; r++) {
        const struct tny_round *a = &m->rounds[r], *b = &f->rounds[r];
        if (a->stage != b->stage || a->n_tables != b->n_tables)
            return differ(d, "round %d: stage %d/%d, %d/%d tables", (int)r + 1,
                          (int)a->stage, (int)b->stage, (int)a->n_tables,
                          (int)b->n_tables);
        for (int32_t t = 0; t < a->n_tables; t++) {
            const struct tny_table *x = &a->tables[t], *y = &b->tables[t];
            int32_t n = x->n_seats;
            if (x->number != y->number || x->is_bye != y->is_bye ||
                x->n_seats != y->n_seats ||
                memcmp(x->seats, y->seats, sizeof(x->seats[0]) * (size_t)n) ||
                x->has_sides != y->has_sides ||
                (x->has_sides && memcmp(x->side, y->side, (size_t)n)))
                return differ(d, "round %d, table %d (index %d): seats differ",
                              (int)r + 1, (int)x->number, (int)t);
            if (x->has_result != y->has_result ||
                (x->has_result && !result_same(&x->result, &y->result, n)))
                return differ(d,
                              "round %d, table %d: result differs (model %s, "
                              "stored %s)",
                              (int)r + 1, (int)x->number,
                              x->has_result ? "has one" : "none",
                              y->has_result ? "has one" : "none");
        }
    }
    return false;
}

static bool event_differs(const struct tny_event *m, const struct tny_event *f,
                          struct diff *d)
{
    if (strcmp(m->title, f->title) || m->level != f->level ||
        m->seed != f->seed || strcmp(m->format.name, f->format.name) ||
        m->format.game != f->format.game ||
        m->format.n_stages != f->format.n_stages)
        return differ(d, "event header (title, level, seed, format) differs");
    if (players_differ(m, f, d))
        return true;
    if (m->n_absences != f->n_absences)
        return differ(d, "absences: %d/%d", (int)m->n_absences,
                      (int)f->n_absences);
    for (int32_t i = 0; i < m->n_absences; i++)
        if (m->absences[i].player != f->absences[i].player ||
            m->absences[i].round != f->absences[i].round)
            return differ(d, "absence %d differs", (int)i);
    if (m->n_cut_seeds != f->n_cut_seeds ||
        (m->n_cut_seeds &&
         memcmp(m->cut_seeds, f->cut_seeds,
                sizeof(*m->cut_seeds) * (size_t)m->n_cut_seeds)))
        return differ(d, "cut seeds differ");
    return rounds_differ(m, f, d);
}

/* An extension entry that says nothing (as if absent). */
static bool ext_empty(const struct hub_extension *x)
{
    return x->total_ms == 0 && x->start_delay_ms < 0 &&
           x->paused_elapsed_ms < 0;
}

static const struct hub_extension *ext_find(const struct hub_ev *e,
                                            const struct hub_extension *x)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == x->round && e->ext[i].table == x->table)
            return &e->ext[i];
    return NULL;
}

static bool exts_differ(const struct hub_ev *m, const struct hub_ev *f,
                        struct diff *d)
{
    for (int pass = 0; pass < 2; pass++) {
        const struct hub_ev *a = pass ? f : m, *b = pass ? m : f;
        for (int32_t i = 0; i < a->n_ext; i++) {
            const struct hub_extension *x = &a->ext[i], *y = ext_find(b, x);
            if (ext_empty(x) && (!y || ext_empty(y)))
                continue;
            if (!y || x->total_ms != y->total_ms ||
                x->start_delay_ms != y->start_delay_ms ||
                x->paused_elapsed_ms != y->paused_elapsed_ms)
                return differ(d, "round %d table %d: extension differs",
                              (int)x->round, (int)x->table);
        }
    }
    return false;
}

static bool states_differ(const struct hub_ev *m, const struct hub_ev *f,
                          struct diff *d)
{
    if (m->state_round != m->ev.n_rounds)
        return false; /* rebuilt from the store when next used */
    if (m->n_tables != f->n_tables)
        return differ(d, "table states: %d/%d", (int)m->n_tables,
                      (int)f->n_tables);
    for (int32_t i = 0; i < m->n_tables; i++) {
        const struct hub_table_state *a = &m->tables[i], *b = &f->tables[i];
        if (a->number != b->number || a->first_seat != b->first_seat ||
            a->pending != b->pending || a->conflict != b->conflict)
            return differ(d,
                          "table %d state: first seat %d/%d pending %d/%d "
                          "conflict %d/%d (model/stored)",
                          (int)a->number, (int)a->first_seat,
                          (int)b->first_seat, (int)a->pending, (int)b->pending,
                          (int)a->conflict, (int)b->conflict);
    }
    return false;
}

static bool info_differs(const struct hub_ev *m, const struct hub_ev *f,
                         struct diff *d)
{
    const struct hub_event_info *a = &m->info, *b = &f->info;
    if (strcmp(a->title, b->title) || strcmp(a->format, b->format) ||
        a->seed != b->seed || a->status != b->status ||
        a->created_ms != b->created_ms || a->n_players != b->n_players ||
        a->n_rounds != b->n_rounds)
        return differ(d,
                      "event info: status %d/%d, %d/%d players, %d/%d "
                      "rounds (model/stored)",
                      (int)a->status, (int)b->status, (int)a->n_players,
                      (int)b->n_players, (int)a->n_rounds, (int)b->n_rounds);
    const struct hub_round_info *x = &m->round, *y = &f->round;
    if (x->number != y->number || x->stage != y->stage ||
        x->stage_index != y->stage_index || x->status != y->status ||
        x->n_tables != y->n_tables || x->n_results != y->n_results ||
        x->n_conflicts != y->n_conflicts)
        return differ(d,
                      "round info: number %d/%d status %d/%d tables %d/%d "
                      "results %d/%d conflicts %d/%d (model/stored)",
                      (int)x->number, (int)y->number, (int)x->status,
                      (int)y->status, (int)x->n_tables, (int)y->n_tables,
                      (int)x->n_results, (int)y->n_results, (int)x->n_conflicts,
                      (int)y->n_conflicts);
    return false;
}

static bool clock_differs(struct hub_ev *m, struct hub_ev *f, struct diff *d)
{
    struct tny_diag ignored;
    int32_t r = m->ev.n_rounds;
    if (r == 0 || m->clock_round != r)
        return false; /* read from the store when next used */
    if (f->clock_round != r) {
        if (tny_round_clock_init(&f->clock, hub__round_length_ms(f), &ignored) <
            0)
            return differ(d, "round %d: no stored clock", (int)r);
    }
    const struct tny_round_clock *a = &m->clock, *b = &f->clock;
    if (a->state != b->state || a->length_ms != b->length_ms ||
        a->extension_ms != b->extension_ms ||
        a->deadline_ms != b->deadline_ms || a->remaining_ms != b->remaining_ms)
        return differ(d,
                      "round %d clock: state %d/%d length %lld/%lld extension "
                      "%lld/%lld deadline %lld/%lld remaining %lld/%lld "
                      "(model/stored)",
                      (int)r, (int)a->state, (int)b->state,
                      (long long)a->length_ms, (long long)b->length_ms,
                      (long long)a->extension_ms, (long long)b->extension_ms,
                      (long long)a->deadline_ms, (long long)b->deadline_ms,
                      (long long)a->remaining_ms, (long long)b->remaining_ms);
    return false;
}

static bool draft_differs(struct hub_service *svc, const struct hub_ev *m,
                          struct diff *d)
{
    struct tny_round_plan p;
    struct tny_diag why = {{0}};
    if (!m->draft_cached)
        return false;
    int rc = hub_store_load_draft(svc->store, m->id, &m->ev, &p, &why);
    if (rc == TNY_ENOTFOUND)
        return m->draft.n_tables > 0 || m->draft.round != 0
                   ? differ(d, "draft: round %d in the model, none stored",
                            (int)m->draft.round)
                   : false;
    if (rc < 0)
        return differ(d, "draft: %s", why.msg);
    const struct tny_round_plan *a = &m->draft;
    bool same = a->round == p.round && a->stage == p.stage &&
                a->stage_index == p.stage_index && a->n_tables == p.n_tables &&
                str_eq(a->explain, p.explain);
    for (int32_t t = 0; same && t < a->n_tables; t++) {
        const struct tny_pairing_table *x = &a->tables[t], *y = &p.tables[t];
        same = x->number == y->number && x->is_bye == y->is_bye &&
               x->n_seats == y->n_seats && x->first_seat == y->first_seat &&
               !memcmp(x->seats, y->seats,
                       sizeof(x->seats[0]) * (size_t)x->n_seats) &&
               x->has_sides == y->has_sides &&
               (!x->has_sides || !memcmp(x->side, y->side, (size_t)x->n_seats));
    }
    int32_t round = p.round;
    tny_round_plan_release(&p);
    return same ? false
                : differ(d, "draft of round %d differs from the stored one",
                         (int)round);
}

/* A hash of a round's content, field by field (never padding): what the
 * model check compares of it. */
static uint64_t mixh(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static uint64_t mix_ints(uint64_t h, const int32_t *v, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        h = mixh(h, (uint64_t)(uint32_t)v[i]);
    return h;
}

static uint64_t round_hash(const struct tny_round *round)
{
    uint64_t h = mixh((uint64_t)round->stage, (uint64_t)round->n_tables);
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *x = &round->tables[t];
        const struct tny_result *a = &x->result;
        int32_t n = x->n_seats;
        h = mixh(h, (uint64_t)(uint32_t)x->number << 8 |
                        (uint64_t)x->is_bye << 1 | (uint64_t)x->has_sides);
        h = mix_ints(mixh(h, (uint64_t)n), x->seats, n);
        for (int32_t i = 0; x->has_sides && i < n; i++)
            h = mixh(h, (uint64_t)(uint8_t)x->side[i]);
        h = mixh(h, (uint64_t)x->has_result);
        if (!x->has_result)
            continue;
        h = mixh(h, (uint64_t)(uint32_t)a->winner << 8 |
                        (uint64_t)a->draw << 1 | (uint64_t)a->intentional_draw);
        h = mixh(h, (uint64_t)a->double_loss << 2 | (uint64_t)a->modified << 1 |
                        (uint64_t)a->has_score);
        h = mixh(h, (uint64_t)(uint32_t)a->hq_diff << 8 |
                        (uint64_t)a->has_clock << 1 | (uint64_t)a->decided);
        h = mix_ints(h, a->army, n);
        h = mix_ints(h, a->score, n);
        h = mix_ints(h, a->ip, n);
        h = mix_ints(h, a->bp, n);
        h = mix_ints(h, a->clock_ms, n);
        h = mixh(h, (uint64_t)(uint32_t)a->default_winner);
        for (int32_t i = 0; i < n; i++)
            h = mixh(mixh(h, (uint64_t)a->decided_tp[i]),
                     (uint64_t)a->penalty[i]);
        h = mix_ints(mixh(h, (uint64_t)a->n_games), a->games,
                     a->n_games < 3 ? a->n_games : 3);
        for (int32_t l = 0; l < a->n_lots && l < TNY_MAX_LOTS; l++)
            for (const char *c = a->lots[l]; *c; c++)
                h = mixh(h, (uint64_t)(unsigned char)*c);
    }
    return h;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
    if (!s)
        return mixh(h, 0x6e756c6cull);
    for (; *s; s++)
        h = mixh(h, (uint64_t)(unsigned char)*s);
    return mixh(h, 0);
}

/* A hash of the players, field by field (the decklist, never in the
 * feed, left out). */
static uint64_t players_hash(const struct tny_event *ev)
{
    uint64_t h = mixh(0, (uint64_t)ev->n_players);
    for (int32_t i = 0; i < ev->n_players; i++) {
        const struct tny_player *p = &ev->players[i];
        h = hash_text(hash_text(h, p->id), p->name);
        h = hash_text(hash_text(h, p->club), p->country);
        h = hash_text(h, p->external_id);
        h = hash_text(hash_text(h, p->faction), p->agenda);
        h = mix_ints(mixh(h, (uint64_t)p->n_armies), p->armies, p->n_armies);
        h = mix_ints(mixh(h, (uint64_t)p->n_ko_armies), p->ko_armies,
                     p->n_ko_armies);
        for (int32_t k = 0; k < p->n_colours && k < 2; k++)
            h = hash_text(h, p->colours[k]);
        h = mixh(h, (uint64_t)p->has_rating << 4 | (uint64_t)p->beginner << 3 |
                        (uint64_t)p->hook << 2 |
                        (uint64_t)p->colour_blind << 1 | (uint64_t)p->no_show);
        uint64_t rating;
        memcpy(&rating, &p->rating, sizeof(rating));
        h = mixh(h, p->has_rating ? rating : 0);
        int32_t life[] = {p->first_round, p->dropped_after, p->rejoined_from,
                          p->dq_after,    p->fixed_table,   p->n_colours};
        h = mix_ints(h, life, 6);
    }
    return h;
}

/* Issue 17 item 2: the players changed since the last check while their
 * generation stayed: a change the feed would not publish (a snapshot
 * copies them, and a build fingerprints them, only under a new
 * generation). */
static bool players_gen_differs(struct hub_ev *e, struct diff *d)
{
    uint64_t h = players_hash(&e->ev);
    bool found = e->players_seen_gen != 0 &&
                 e->players_seen_gen == e->players_gen &&
                 e->players_seen_hash != h;
    e->players_seen_gen = e->players_gen;
    e->players_seen_hash = h;
    return found && differ(d,
                           "players changed but kept their generation %llu "
                           "(hub__ev_players_changed not called: the feed "
                           "would not publish it)",
                           (unsigned long long)e->players_gen);
}

/* Issue 23: a round whose content changed since the last check while its
 * generation stayed: a change the feed would not publish (it rebuilds
 * only the rounds whose generation changed). */
static bool gens_differ(struct hub_ev *e, struct diff *d)
{
    int32_t n = e->ev.n_rounds;
    bool found = false;
    if (n > e->n_gen_seen) {
        struct hub_gen_seen *m = realloc(e->gen_seen, sizeof(*m) * (size_t)n);
        if (!m)
            return false; /* checked next time */
        e->gen_seen = m;
    }
    for (int32_t r = 0; r < n; r++) {
        uint64_t gen = e->ev.rounds[r].gen, h = round_hash(&e->ev.rounds[r]);
        if (!found && r < e->n_gen_seen && gen != 0 &&
            e->gen_seen[r].gen == gen && e->gen_seen[r].hash != h)
            found = differ(d,
                           "round %d changed but kept its generation %llu "
                           "(hub__ev_round_changed not called: the feed "
                           "would not publish it)",
                           (int)r + 1, (unsigned long long)gen);
        e->gen_seen[r] = (struct hub_gen_seen){gen, h};
    }
    e->n_gen_seen = n;
    return found;
}

int hub__model_compare(struct hub_service *svc, struct hub_ev *e, char *msg,
                       size_t cap)
{
    struct hub_ev *f = NULL;
    struct tny_diag why = {{0}};
    struct diff d = {msg, cap, false};
    msg[0] = '\0';
    if (!e->loaded)
        return TNY_OK; /* loaded from the store when next used */
    int rc = hub__ev_load_fresh(svc, e->id, &f, &why);
    if (rc < 0) {
        snprintf(msg, cap, "fresh load: %s", why.msg);
        return rc;
    }
    (void)(gens_differ(e, &d) || players_gen_differs(e, &d) ||
           info_differs(e, f, &d) || event_differs(&e->ev, &f->ev, &d) ||
           states_differ(e, f, &d) || exts_differ(e, f, &d) ||
           clock_differs(e, f, &d) || draft_differs(svc, e, &d));
    hub__ev_free(f);
    return d.found ? TNY_ESTATE : TNY_OK;
}

void hub__model_check(struct hub_service *svc, const char *after)
{
    char msg[512];
    if (!svc->model_check)
        return;
    for (int32_t i = 0; i < svc->n_events; i++) {
        if (hub__model_compare(svc, svc->events[i], msg, sizeof msg) == 0)
            continue;
        HUB_LOG(HUB_LOG_ERROR, "model check after %s: event %s: %s", after,
                svc->events[i]->id, msg);
        fprintf(stderr, "model check after %s: event %s: %s\n", after,
                svc->events[i]->id, msg);
        abort();
    }
}
