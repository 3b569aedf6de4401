/* events.c - the event cache: each event's projection from the store
 * (loaded on demand, dropped after a write), its current round's table
 * states (AG-4 first seat, pending and conflicting results), the judge's
 * extensions and AG-14 draft starts per table, and a table's clock
 * reading.  Calls only the store (the registry read directly).
 */
#include "events.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tny/game.h"

void hub__ev_free(struct hub_ev *e)
{
    if (!e)
        return;
    if (e->loaded)
        tny_event_release(&e->ev);
    hub__ev_draft_drop(e);
    free(e->tables);
    free(e->ext);
    hub__feed_cache_free(e->feed_cache);
    free(e->feed_sent);
    free(e->gen_seen);
    free(e);
}

/* Issue 23: the last generation given (hub__gen_next), one counter for
 * every service of the process. */
static _Atomic uint64_t last_gen;

uint64_t hub__gen_next(void)
{
    return atomic_fetch_add_explicit(&last_gen, 1, memory_order_relaxed) + 1;
}

void hub__ev_round_changed(struct hub_ev *e, int32_t round)
{
    if (e->loaded && round >= 1 && round <= e->ev.n_rounds)
        e->ev.rounds[round - 1].gen = hub__gen_next();
}

void hub__ev_players_changed(struct hub_ev *e)
{
    e->players_gen = hub__gen_next();
}

/* Every round of e a new generation, and its players (a projection just
 * read from the store: nothing built from an earlier one may be taken
 * for it). */
static void renew_gens(struct hub_ev *e)
{
    e->players_gen = hub__gen_next();
    for (int32_t r = 0; r < e->ev.n_rounds; r++)
        e->ev.rounds[r].gen = hub__gen_next();
}

/* A frozen copy of src but for the tables of the rounds the receiver has
 * (have[r], not 0: left out, tables NULL).  Issue 23: the feed snapshot
 * copied every table of every round for each build, 14 % of the hub's
 * CPU by minute 40 of the soak. */
static int ev_copy_except(const struct tny_event *src, const uint64_t *have,
                          int32_t n_have, bool no_players,
                          struct tny_event *dst)
{
    struct tny_event head = *src;
    head.n_rounds = 0;
    head.rounds = NULL;
    if (no_players) { /* the receiver has them (issue 17) */
        head.n_players = 0;
        head.players = NULL;
        head.strings = NULL;
    }
    if (tny_event_copy_frozen(&head, dst) < 0)
        return TNY_ENOMEM;
    if (src->n_rounds == 0)
        return TNY_OK;
    if (!(dst->rounds = calloc((size_t)src->n_rounds, sizeof(*dst->rounds))))
        goto oom;
    dst->n_rounds = src->n_rounds;
    for (int32_t r = 0; r < src->n_rounds; r++) {
        const struct tny_round *s = &src->rounds[r];
        struct tny_round *d = &dst->rounds[r];
        *d = *s;
        d->tables = NULL;
        if ((s->gen != 0 && r < n_have && have[r] == s->gen) ||
            s->n_tables <= 0)
            continue;
        if (!(d->tables = malloc(sizeof(*d->tables) * (size_t)s->n_tables)))
            goto oom;
        memcpy(d->tables, s->tables, sizeof(*d->tables) * (size_t)s->n_tables);
    }
    return TNY_OK;
oom:
    tny_event_release(dst);
    return TNY_ENOMEM;
}

int hub__ev_clone(const struct hub_ev *src, const uint64_t *have,
                  int32_t n_have, uint64_t players_have, struct hub_ev **out)
{
    struct hub_ev *e = calloc(1, sizeof(*e));
    *out = NULL;
    if (!e)
        return TNY_ENOMEM;
    *e = *src;
    e->loaded = false;
    e->tables = NULL;
    e->ext = NULL;
    e->n_tables = e->n_ext = e->cap_ext = 0;
    e->draft_cached = false;
    memset(&e->draft, 0, sizeof(e->draft));
    e->feed_cache = NULL;
    e->feed_sent = NULL;
    e->gen_seen = NULL;
    e->n_feed_sent = e->n_gen_seen = 0;
    e->feed_players_sent = 0;
    e->players_omitted = 0;
    if (src->loaded) {
        bool omit = players_have != 0 && players_have == src->players_gen &&
                    src->ev.n_players > 0;
        if (ev_copy_except(&src->ev, have, n_have, omit, &e->ev) < 0)
            goto oom;
        e->loaded = true;
        if (omit)
            e->players_omitted = src->ev.n_players;
    }
    if (src->n_tables > 0) {
        if (!(e->tables = malloc(sizeof(*e->tables) * (size_t)src->n_tables)))
            goto oom;
        memcpy(e->tables, src->tables,
               sizeof(*e->tables) * (size_t)src->n_tables);
        e->n_tables = src->n_tables;
    }
    if (src->n_ext > 0) {
        if (!(e->ext = malloc(sizeof(*e->ext) * (size_t)src->n_ext)))
            goto oom;
        memcpy(e->ext, src->ext, sizeof(*e->ext) * (size_t)src->n_ext);
        e->n_ext = e->cap_ext = src->n_ext;
    }
    *out = e;
    return TNY_OK;
oom:
    hub__ev_free(e);
    return TNY_ENOMEM;
}

struct hub_ev *hub__ev_find(struct hub_service *svc, const char *id)
{
    for (int32_t i = 0; i < svc->n_events; i++)
        if (strcmp(svc->events[i]->id, id) == 0)
            return svc->events[i];
    return NULL;
}

int hub__ev_add(struct hub_service *svc, const char *id, struct hub_ev **out)
{
    struct hub_ev *e = hub__ev_find(svc, id);
    if (e) {
        *out = e;
        return TNY_OK;
    }
    if (svc->n_events == svc->cap_events) {
        int32_t cap = svc->cap_events ? svc->cap_events * 2 : 8;
        struct hub_ev **m = realloc(svc->events, sizeof(*m) * (size_t)cap);
        if (!m)
            return TNY_ENOMEM;
        svc->events = m;
        svc->cap_events = cap;
    }
    if (!(e = calloc(1, sizeof(*e))))
        return TNY_ENOMEM;
    snprintf(e->id, sizeof(e->id), "%s", id);
    e->feed_dirty = true;
    svc->events[svc->n_events++] = e;
    *out = e;
    return TNY_OK;
}

void hub__ev_remove(struct hub_service *svc, struct hub_ev *e)
{
    for (int32_t i = 0; i < svc->n_events; i++) {
        if (svc->events[i] != e)
            continue;
        memmove(&svc->events[i], &svc->events[i + 1],
                sizeof(*svc->events) * (size_t)(svc->n_events - i - 1));
        svc->n_events--;
        /* A republish walking the events goes on with the next one. */
        if (svc->rp_active && svc->rp_phase == 1 && svc->rp_next > i)
            svc->rp_next--;
        hub__ev_free(e);
        return;
    }
}

void hub__ev_invalidate(struct hub_ev *e)
{
    if (e->loaded)
        tny_event_release(&e->ev);
    e->loaded = false;
    e->feed_dirty = true;
    hub__ev_draft_drop(e);
}

void hub__ev_draft_drop(struct hub_ev *e)
{
    if (e->draft_cached)
        tny_round_plan_release(&e->draft);
    memset(&e->draft, 0, sizeof(e->draft));
    e->draft_cached = false;
}

int hub__ev_draft(struct hub_service *svc, struct hub_ev *e,
                  const struct tny_round_plan **out, struct tny_diag *diag)
{
    *out = NULL;
    if (!e->draft_cached) {
        int rc =
            hub_store_load_draft(svc->store, e->id, &e->ev, &e->draft, diag);
        if (rc == TNY_ENOTFOUND)
            memset(&e->draft, 0, sizeof(e->draft));
        else if (rc < 0)
            return rc;
        e->draft_cached = true;
    }
    if (e->draft.round == 0)
        return tny_diag_set(diag, TNY_ENOTFOUND, "event \"%s\": no draft round",
                            e->id);
    *out = &e->draft;
    return TNY_OK;
}

int hub__ev_publish_draft(struct hub_ev *e)
{
    const struct tny_round_plan *p = &e->draft;
    int rc;
    if (!e->loaded || !e->draft_cached || p->round != e->ev.n_rounds + 1)
        return TNY_ESTATE;
    if ((rc = tny_event_append_round(&e->ev, p)) < 0)
        return rc;
    e->ev.rounds[e->ev.n_rounds - 1].gen = hub__gen_next();
    e->round = (struct hub_round_info){.number = p->round,
                                       .stage = p->stage,
                                       .stage_index = p->stage_index,
                                       .status = HUB_ROUND_PUBLISHED,
                                       .n_tables = p->n_tables};
    if (e->info.status == HUB_EVENT_SETUP)
        e->info.status = HUB_EVENT_RUNNING;
    /* The new round's table states: the plan's AG-4 first seats, nothing
     * submitted yet. */
    free(e->tables);
    e->n_tables = 0;
    e->state_round = 0; /* rebuilt from the store if the copy fails */
    e->clock_expired_seen = false;
    e->tables = calloc((size_t)p->n_tables + 1, sizeof(*e->tables));
    if (e->tables) {
        for (int32_t t = 0; t < p->n_tables; t++) {
            if (p->tables[t].is_bye)
                continue;
            struct hub_table_state *ts = &e->tables[e->n_tables++];
            ts->number = p->tables[t].number;
            ts->first_seat = p->tables[t].first_seat;
        }
        e->state_round = e->ev.n_rounds;
    }
    hub__ev_draft_drop(e);
    e->draft_cached = true; /* known: no draft */
    e->feed_dirty = true;
    return TNY_OK;
}

void hub__ev_draft_take(struct hub_ev *e, struct tny_round_plan *plan)
{
    hub__ev_draft_drop(e);
    e->draft = *plan;
    e->draft_cached = true;
    memset(plan, 0, sizeof(*plan));
}

/* Rebuilds the table states when the current round changed: pending and
 * conflict flags from the store's result rows (once per round; afterwards
 * the service keeps them up to date itself). */
static int ev_sync_tables(struct hub_service *svc, struct hub_ev *e,
                          struct tny_diag *diag)
{
    int32_t r = e->ev.n_rounds;
    int rc = TNY_OK;
    if (e->state_round == r && e->tables)
        return TNY_OK;
    free(e->tables);
    e->tables = NULL;
    e->n_tables = 0;
    e->state_round = r;
    e->clock_expired_seen = false;
    if (r == 0)
        return TNY_OK;
    const struct tny_round *round = &e->ev.rounds[r - 1];
    e->tables = calloc((size_t)round->n_tables + 1, sizeof(*e->tables));
    if (!e->tables)
        return TNY_ENOMEM;
    /* AG-4 starting seats as the pairing drew them (kept by the store). */
    int32_t *first = NULL, n_first = 0;
    if ((rc = hub_store_first_seats(svc->store, e->id, r, &first, &n_first,
                                    diag)) < 0)
        return rc;
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        struct hub_table_state *ts = &e->tables[e->n_tables];
        if (tb->is_bye)
            continue;
        ts->number = tb->number;
        ts->first_seat =
            tb->number >= 0 && tb->number < n_first ? first[tb->number] : -1;
        e->n_tables++;
    }
    free(first);
    /* The flags from the round's result rows, one query for the round. */
    struct hub_result_row *rows = NULL;
    int32_t n = 0;
    if ((rc = hub_store_list_results(svc->store, e->id, r, 0, &rows, &n,
                                     diag)) < 0)
        return rc;
    for (int32_t i = 0; i < n; i++) {
        struct hub_table_state *ts = hub__ev_table_state(e, rows[i].table);
        if (!ts || rows[i].superseded_by)
            continue;
        if (rows[i].status == HUB_RESULT_PENDING)
            ts->pending = true;
        if (rows[i].status == HUB_RESULT_CONFLICT && !rows[i].resolved)
            ts->conflict = true;
    }
    hub_result_rows_free(rows, n);
    return TNY_OK;
}

/* Loads e's projection, round and table states from the store. */
static int ev_load(struct hub_service *svc, struct hub_ev *e,
                   struct tny_diag *diag)
{
    struct hub_event_info info;
    int rc;
    if ((rc = hub_store_get_event(svc->store, e->id, &info, diag)) < 0)
        return rc;
    if ((rc = hub_store_load_event(svc->store, e->id, &e->ev, diag)) < 0)
        return rc;
    e->info = info;
    e->loaded = true;
    renew_gens(e);
    memset(&e->round, 0, sizeof(e->round));
    if (e->ev.n_rounds > 0 &&
        (rc = hub_store_get_round(svc->store, e->id, e->ev.n_rounds, &e->round,
                                  diag)) < 0)
        goto fail;
    if ((rc = ev_sync_tables(svc, e, diag)) < 0)
        goto fail;
    return TNY_OK;
fail:
    hub__ev_invalidate(e);
    return rc;
}

int hub__ev_get(struct hub_service *svc, const char *id, struct hub_ev **out,
                struct tny_diag *diag)
{
    struct hub_ev *e = hub__ev_find(svc, id);
    int rc;
    *out = NULL;
    if (e && e->loaded) {
        *out = e;
        return TNY_OK;
    }
    struct hub_event_info info;
    if (!e) {
        /* An event the cache does not know: it must exist first. */
        if ((rc = hub_store_get_event(svc->store, id, &info, diag)) < 0)
            return rc;
        if ((rc = hub__ev_add(svc, id, &e)) < 0)
            return rc;
    }
    if ((rc = ev_load(svc, e, diag)) < 0)
        return rc;
    svc->stats.model_loads++;
    *out = e;
    return TNY_OK;
}

int hub__ev_apply_log(struct hub_ev *e, const struct hub_log_entry *l)
{
    bool ext = strcmp(l->kind, "clock.extend_table") == 0;
    bool pause = strcmp(l->kind, "clock.table_pause") == 0;
    bool resume = strcmp(l->kind, "clock.table_resume") == 0;
    int rc = TNY_OK;
    if (!ext && !pause && !resume)
        return TNY_OK;
    json_t *d = json_loads(l->detail ? l->detail : "{}", 0, NULL);
    json_int_t r = json_integer_value(json_object_get(d, "round"));
    json_int_t t = json_integer_value(json_object_get(d, "table"));
    json_int_t tot = json_integer_value(json_object_get(d, "total_ms"));
    json_int_t ran = json_integer_value(json_object_get(d, "elapsed_ms"));
    if (ext || resume)
        rc = hub__ev_set_extension(e, (int32_t)r, (int32_t)t, (int64_t)tot);
    if (rc == 0 && (pause || resume)) /* issue 22 */
        rc = hub__ev_set_paused_at(e, (int32_t)r, (int32_t)t,
                                   pause ? (int64_t)ran : -1);
    json_decref(d);
    return rc;
}

int hub__ev_load_draft_starts(struct hub_service *svc, struct hub_ev *e,
                              struct tny_diag *diag)
{
    struct hub_draft_start *v = NULL;
    int32_t n = 0;
    int rc = hub_store_draft_starts(svc->store, e->id, &v, &n, diag);
    for (int32_t i = 0; rc == 0 && i < n; i++)
        rc = hub__ev_set_start_delay(e, v[i].round, v[i].table,
                                     v[i].start_delay_ms);
    free(v);
    return rc;
}

int hub__ev_load_fresh(struct hub_service *svc, const char *id,
                       struct hub_ev **out, struct tny_diag *diag)
{
    struct hub_ev *e = calloc(1, sizeof(*e));
    int64_t after = 0;
    int rc;
    *out = NULL;
    if (!e)
        return TNY_ENOMEM;
    snprintf(e->id, sizeof(e->id), "%s", id);
    if ((rc = ev_load(svc, e, diag)) < 0)
        goto out;
    for (;;) { /* the judge's extensions, as the start-up replays them */
        struct hub_log_entry *log = NULL;
        int32_t n = 0;
        if ((rc = hub_store_read_log(svc->store, id, after, 4096, &log, &n,
                                     diag)) < 0)
            goto out;
        for (int32_t i = 0; i < n && rc == 0; i++) {
            after = log[i].seq;
            rc = hub__ev_apply_log(e, &log[i]);
        }
        hub_log_entries_free(log, n);
        if (rc < 0)
            goto out;
        if (n < 4096)
            break;
    }
    if ((rc = hub__ev_load_draft_starts(svc, e, diag)) < 0)
        goto out;
    if (e->ev.n_rounds > 0) {
        rc = hub_store_load_clock(svc->store, id, e->ev.n_rounds, &e->clock,
                                  diag);
        if (rc == TNY_OK)
            e->clock_round = e->ev.n_rounds;
        else if (rc == TNY_ENOTFOUND)
            rc = TNY_OK;
    }
out:
    if (rc < 0)
        hub__ev_free(e);
    else
        *out = e;
    return rc;
}

struct tny_table *hub__ev_table(struct hub_ev *e, int32_t number)
{
    if (!e->loaded || e->ev.n_rounds == 0 || number < 1)
        return NULL;
    struct tny_round *round = &e->ev.rounds[e->ev.n_rounds - 1];
    /* Tables are usually numbered 1..n in order: try that slot first. */
    if (number <= round->n_tables && !round->tables[number - 1].is_bye &&
        round->tables[number - 1].number == number)
        return &round->tables[number - 1];
    for (int32_t t = 0; t < round->n_tables; t++)
        if (!round->tables[t].is_bye && round->tables[t].number == number)
            return &round->tables[t];
    return NULL;
}

struct hub_table_state *hub__ev_table_state(struct hub_ev *e, int32_t number)
{
    if (number >= 1 && number <= e->n_tables &&
        e->tables[number - 1].number == number)
        return &e->tables[number - 1];
    for (int32_t i = 0; i < e->n_tables; i++)
        if (e->tables[i].number == number)
            return &e->tables[i];
    return NULL;
}

int hub__ev_devices_by_table(struct hub_service *svc, const struct hub_ev *e,
                             struct hub_device ***out, int32_t *n)
{
    int32_t max = 0;
    *out = NULL;
    *n = 0;
    for (int32_t i = 0; i < svc->n_devices; i++)
        if (svc->devices[i].table > max &&
            strcmp(svc->devices[i].event, e->id) == 0)
            max = svc->devices[i].table;
    struct hub_device **a = calloc((size_t)max + 1, sizeof(*a));
    if (!a)
        return TNY_ENOMEM;
    for (int32_t i = 0; i < svc->n_devices; i++) {
        struct hub_device *d = &svc->devices[i];
        if (d->table >= 1 && d->table <= max && strcmp(d->event, e->id) == 0)
            a[d->table] = d; /* the last one, as a scan would find */
    }
    *out = a;
    *n = max + 1;
    return TNY_OK;
}

int64_t hub__ev_extension(const struct hub_ev *e, int32_t round, int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return e->ext[i].total_ms;
    return 0;
}

static struct hub_extension *ext_entry(struct hub_ev *e, int32_t round,
                                       int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return &e->ext[i];
    if (e->n_ext == e->cap_ext) {
        int32_t cap = e->cap_ext ? e->cap_ext * 2 : 16;
        struct hub_extension *m = realloc(e->ext, sizeof(*m) * (size_t)cap);
        if (!m)
            return NULL;
        e->ext = m;
        e->cap_ext = cap;
    }
    e->ext[e->n_ext] = (struct hub_extension){.round = round,
                                              .table = table,
                                              .start_delay_ms = -1,
                                              .paused_elapsed_ms = -1};
    return &e->ext[e->n_ext++];
}

int hub__ev_set_extension(struct hub_ev *e, int32_t round, int32_t table,
                          int64_t total_ms)
{
    struct hub_extension *x = ext_entry(e, round, table);
    if (!x)
        return TNY_ENOMEM;
    x->total_ms = total_ms;
    return TNY_OK;
}

bool hub__ev_per_table_start(const struct hub_ev *e)
{
    return e->loaded &&
           (tny_game_clocks(e->ev.format.game) & TNY_GCLOCK_DRAFT) &&
           e->ev.format.draft_minutes > 0;
}

int64_t hub__ev_start_delay(const struct hub_ev *e, int32_t round,
                            int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return e->ext[i].start_delay_ms;
    return -1;
}

int hub__ev_set_start_delay(struct hub_ev *e, int32_t round, int32_t table,
                            int64_t delay_ms)
{
    struct hub_extension *x = ext_entry(e, round, table);
    if (!x)
        return TNY_ENOMEM;
    x->start_delay_ms = delay_ms;
    return TNY_OK;
}

int64_t hub__ev_paused_at(const struct hub_ev *e, int32_t round, int32_t table)
{
    for (int32_t i = 0; i < e->n_ext; i++)
        if (e->ext[i].round == round && e->ext[i].table == table)
            return e->ext[i].paused_elapsed_ms;
    return -1;
}

int hub__ev_set_paused_at(struct hub_ev *e, int32_t round, int32_t table,
                          int64_t elapsed_ms)
{
    struct hub_extension *x = ext_entry(e, round, table);
    if (!x)
        return TNY_ENOMEM;
    x->paused_elapsed_ms = elapsed_ms;
    return TNY_OK;
}

int64_t hub__table_extension_now(const struct hub_ev *e,
                                 const struct tny_round_clock *c, int32_t round,
                                 int32_t table, int64_t now_ms, bool *paused)
{
    int64_t ext = hub__ev_extension(e, round, table);
    int64_t at = hub__ev_paused_at(e, round, table);
    *paused = at >= 0;
    if (at >= 0) {
        int64_t ran = tny_round_clock_elapsed(c, now_ms) - at;
        ext += ran > 0 ? ran : 0;
    }
    return ext;
}

void hub__table_clock(const struct hub_ev *e, const struct tny_round_clock *c,
                      int32_t round, int32_t table, int64_t now_ms,
                      struct tny_clock_msg *out)
{
    bool paused = false;
    int64_t ext = hub__table_extension_now(e, c, round, table, now_ms, &paused);
    tny_round_clock_message(c, ext, now_ms, out);
    if (hub__ev_per_table_start(e))
        tny_clock_msg_table_start(out, c->length_ms + c->extension_ms + ext,
                                  hub__ev_start_delay(e, round, table));
    if (paused && out->state == TNY_ROUND_CLOCK_RUNNING) {
        out->state = TNY_ROUND_CLOCK_PAUSED;
        out->remaining_ms = out->deadline_ms - now_ms;
        out->deadline_ms = 0;
    }
}
