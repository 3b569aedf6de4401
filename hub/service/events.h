/* events.h - the event cache (events.c): each event's projection from the
 * store, its current round's table states, judge's extensions and AG-14
 * draft starts, and the per-table clock reading.  Calls only the store.
 */
#ifndef HUB_SERVICE_EVENTS_H
#define HUB_SERVICE_EVENTS_H

#include "service_internal.h"

struct hub_ev *hub__ev_find(struct hub_service *svc, const char *id);
/* Adds an entry for a new event (not loaded).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_add(struct hub_service *svc, const char *id,
                             struct hub_ev **out);
/* A deep copy of src (the projection, table states, extensions, clock)
 * that shares nothing with it: the explicit snapshot the feed thread
 * builds from, read-only (its event is a frozen copy: every player
 * string in one block).  Issue 23: a round r < n_have whose generation
 * is have[r] (not 0) is left out: its tables NULL, its n_tables and gen
 * kept (the receiver has it); issue 17: so are the players when their
 * generation is players_have (not 0): ev.n_players 0, players_omitted
 * their number.  Free with hub__ev_free.  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_clone(const struct hub_ev *src, const uint64_t *have,
                               int32_t n_have, uint64_t players_have,
                               struct hub_ev **out);
/* Issue 23: a change generation never given before in this process (the
 * loop's service and the feed builder's share the counter). */
uint64_t hub__gen_next(void);
/* Issue 23: round `round` (1-based) of e changed in place (a result, an
 * override, a penalty...): it gets a new generation, so the feed
 * fingerprints and copies it again.  Every change of a round's tables
 * calls this (the model check, TNY_MODEL_CHECK=1, aborts on one that
 * does not). */
void hub__ev_round_changed(struct hub_ev *e, int32_t round);
/* Issue 17 item 2: e's players changed (a new players_gen): the next
 * feed snapshot copies them and the feed fingerprints them again. */
void hub__ev_players_changed(struct hub_ev *e);
/* Frees an entry (NULL: nothing). */
void hub__ev_free(struct hub_ev *e);
/* Drops the entry of a deleted event (issue 22: event delete, after the
 * store committed) and frees it: e is invalid afterwards. */
void hub__ev_remove(struct hub_service *svc, struct hub_ev *e);
/* The event, loaded.  Errors: TNY_ENOTFOUND (no such event), TNY_ESTATE,
 * TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_get(struct hub_service *svc, const char *id,
                             struct hub_ev **out, struct tny_diag *diag);
/* Issue 17: one log row's clock change (a judge's extension, pause,
 * resume) applied to e, as the start-up replays the log; other rows
 * change nothing.  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_apply_log(struct hub_ev *e,
                                   const struct hub_log_entry *l);
/* Issue 18: the AG-14 draft starts of e, from the store's table of them
 * (hub_store_draft_starts).  Errors: those of the store, TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_load_draft_starts(struct hub_service *svc,
                                           struct hub_ev *e,
                                           struct tny_diag *diag);
/* Issue 17: the event as a fresh start would load it (projection, round,
 * table states, extensions from the log, the current round's stored
 * clock) in a new entry that is not in the cache: what the model check
 * compares the model with.  Free with hub__ev_free.  Errors: those of
 * hub__ev_get. */
TNY_MUST_USE int hub__ev_load_fresh(struct hub_service *svc, const char *id,
                                    struct hub_ev **out, struct tny_diag *diag);
/* Drops the projection after a write (the next hub__ev_get reloads) and
 * marks the feed dirty. */
void hub__ev_invalidate(struct hub_ev *e);
/* Issue 17: the draft round, read from the store once and kept in the
 * model until the next change of the draft (*out borrowed from e; valid
 * until the draft changes).  Errors: TNY_ENOTFOUND (no draft: diag says
 * so), those of hub_store_load_draft. */
TNY_MUST_USE int hub__ev_draft(struct hub_service *svc, struct hub_ev *e,
                               const struct tny_round_plan **out,
                               struct tny_diag *diag);
/* The draft just stored becomes the model's (plan consumed: emptied). */
void hub__ev_draft_take(struct hub_ev *e, struct tny_round_plan *plan);
/* After the store published the draft: the cached draft becomes the
 * model's current round (its round row, table states; the event runs).
 * Errors: TNY_ESTATE (no cached draft of the next round), TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_publish_draft(struct hub_ev *e);
/* Forgets the cached draft (read again when next needed). */
void hub__ev_draft_drop(struct hub_ev *e);
/* The table of the current round numbered `number`, or NULL. */
struct tny_table *hub__ev_table(struct hub_ev *e, int32_t number);
struct hub_table_state *hub__ev_table_state(struct hub_ev *e, int32_t number);
/* The event's devices by table number: (*out)[t] is the device assigned to
 * table t (NULL: none), for t < *n; free(*out).  Errors: TNY_ENOMEM. */
TNY_MUST_USE int hub__ev_devices_by_table(struct hub_service *svc,
                                          const struct hub_ev *e,
                                          struct hub_device ***out, int32_t *n);
/* The total judge's extension of a table in a round (0 = none). */
int64_t hub__ev_extension(const struct hub_ev *e, int32_t round, int32_t table);
TNY_MUST_USE int hub__ev_set_extension(struct hub_ev *e, int32_t round,
                                       int32_t table, int64_t total_ms);

/* AG-14: each table's clock starts with its own draft (an Agricola format
 * with a draft). */
bool hub__ev_per_table_start(const struct hub_ev *e);
/* AG-14: the table's start delay in a round (-1 = draft not started). */
int64_t hub__ev_start_delay(const struct hub_ev *e, int32_t round,
                            int32_t table);
TNY_MUST_USE int hub__ev_set_start_delay(struct hub_ev *e, int32_t round,
                                         int32_t table, int64_t delay_ms);
/* Issue 22: a table the judge paused: the round time run when it was
 * paused (-1 = not paused); _set: -1 clears.  Errors: TNY_ENOMEM. */
int64_t hub__ev_paused_at(const struct hub_ev *e, int32_t round, int32_t table);
TNY_MUST_USE int hub__ev_set_paused_at(struct hub_ev *e, int32_t round,
                                       int32_t table, int64_t elapsed_ms);
/* The table's extension at now_ms with the time it has been paused so far
 * (*paused: the judge paused it). */
int64_t hub__table_extension_now(const struct hub_ev *e,
                                 const struct tny_round_clock *c, int32_t round,
                                 int32_t table, int64_t now_ms, bool *paused);
/* One table's clock reading at now_ms: the round clock c with the table's
 * extension and, in an AG-14 round, shifted by its draft start; a table
 * the judge paused reads PAUSED with the time it had left. */
void hub__table_clock(const struct hub_ev *e, const struct tny_round_clock *c,
                      int32_t round, int32_t table, int64_t now_ms,
                      struct tny_clock_msg *out);

#endif
