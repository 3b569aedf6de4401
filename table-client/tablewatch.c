/* tablewatch.c - the table's own clocks (see tablewatch.h): thin wrappers
 * over common's chess clock and AG-14 timer arithmetic, plus the one-line
 * save format for power cuts.
 *
 * Save line: "tbl-chess 1 <used0> <used1> <adjust0> <adjust1> <running>
 * <paused_side> <paused> <stopped> <started> <limit> <wall>", integers in
 * decimal, used times read at the moment of the save.  On load the side
 * that was running gets the wall-clock time since the save (power was off,
 * the game went on) and runs on from now_ms.
 *
 * Not here: drawing, keys, where the line is stored (the caller's file).
 */
#include "tablewatch.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tny/procedure.h"

#define SAVE_TAG "tbl-chess 1"

void tbl_chess_init(struct tbl_chess *c, int64_t limit_ms)
{
    memset(c, 0, sizeof(*c));
    tny_chess_clock_init(&c->cc);
    c->limit_ms = limit_ms > 0 && limit_ms <= TNY_CLOCK_MAX_MS / 2
                      ? limit_ms
                      : TBL_CHESS_LIMIT_MS;
    c->stop_ms = c->limit_ms + TBL_CHESS_STOP_EXTRA_MS;
    c->step_ms = TBL_CHESS_STEP_MS;
    c->per_step = 1;
}

int tbl_chess_start(struct tbl_chess *c, int32_t side, int64_t now_ms,
                    struct tny_diag *d)
{
    int rc = tny_chess_clock_start(&c->cc, side, now_ms, d);

    if (rc == TNY_OK)
        c->started = true;
    return rc;
}

int tbl_chess_press(struct tbl_chess *c, int32_t side, int64_t now_ms,
                    struct tny_diag *d)
{
    return tny_chess_clock_press(&c->cc, side, now_ms, d);
}

int tbl_chess_pause(struct tbl_chess *c, int64_t now_ms, struct tny_diag *d)
{
    return tny_chess_clock_pause(&c->cc, now_ms, d);
}

int tbl_chess_resume(struct tbl_chess *c, int64_t now_ms, struct tny_diag *d)
{
    return tny_chess_clock_resume(&c->cc, now_ms, d);
}

int tbl_chess_wrongful_pause(struct tbl_chess *c, int32_t side, int64_t now_ms,
                             struct tny_diag *d)
{
    (void)now_ms; /* agreed while paused: nothing runs */
    return tny_chess_clock_wrongful_pause(&c->cc, side, TBL_CHESS_WRONGFUL_MS,
                                          d);
}

int tbl_chess_stop(struct tbl_chess *c, int64_t now_ms, struct tny_diag *d)
{
    return tny_chess_clock_stop(&c->cc, now_ms, d);
}

void tbl_chess_view(const struct tbl_chess *c, int64_t now_ms,
                    struct tbl_chess_view *out)
{
    memset(out, 0, sizeof(*out));
    out->running = c->cc.running;
    out->paused = c->cc.paused;
    out->stopped = c->cc.stopped;
    for (int32_t s = 0; s < 2; s++) {
        int64_t used = tny_chess_clock_used(&c->cc, s, now_ms), pen = 0;
        out->used_ms[s] = used;
        out->left_ms[s] = c->limit_ms - used;
        out->over[s] = used >= c->limit_ms; /* TX-3: 20:00 or more */
        out->alert_25min[s] =
            tny_chess_clock_over(&c->cc, s, c->stop_ms, now_ms); /* TX-4 */
        if (tny_tx_clock_penalty(used, c->limit_ms, c->step_ms, c->per_step,
                                 &pen, NULL) == TNY_OK &&
            pen <= INT32_MAX)
            out->penalty_preview[s] = (int32_t)pen;
    }
    out->stop_favours = tny_tx_stop_favours(&c->cc, c->stop_ms, now_ms);
}

int tbl_tx_absence(int64_t scheduled_ms, int64_t now_ms, int32_t *phase,
                   struct tny_diag *d)
{
    enum tny_tx_absence p = TNY_TX_ABSENCE_WAIT;
    int64_t next;
    int rc = tny_tx_absence_phase(scheduled_ms, now_ms, TBL_TX_ABSENT_CLOCK_MS,
                                  TBL_TX_ABSENT_DEFAULT_MS, &p, &next, d);

    *phase = rc == TNY_OK ? (int32_t)p : 0;
    return rc;
}

int tbl_chess_save(const struct tbl_chess *c, int64_t now_ms, int64_t wall_ms,
                   char *buf, size_t n)
{
    const struct tny_chess_clock *cc = &c->cc;
    int len;

    len = snprintf(buf, n,
                   SAVE_TAG " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
                            " %d %d %d %d %d %" PRId64 " %" PRId64,
                   tny_chess_clock_used(cc, 0, now_ms),
                   tny_chess_clock_used(cc, 1, now_ms), cc->adjust_ms[0],
                   cc->adjust_ms[1], (int)cc->running, (int)cc->paused_side,
                   (int)cc->paused, (int)cc->stopped, (int)c->started,
                   c->limit_ms, wall_ms);
    if (len < 0 || (size_t)len >= n) {
        if (n > 0)
            buf[0] = '\0';
        return TNY_ERANGE;
    }
    return TNY_OK;
}

static bool is_bool(int v)
{
    return v == 0 || v == 1;
}

static bool in_range(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

int tbl_chess_load(struct tbl_chess *c, const char *buf, int64_t now_ms,
                   int64_t wall_ms, struct tny_diag *d)
{
    int64_t used[2], adj[2], limit, wall, elapsed;
    int running, paused_side, paused, stopped, started, end = -1;
    struct tbl_chess out;

    if (sscanf(buf,
               SAVE_TAG " %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64
                        " %d %d %d %d %d %" SCNd64 " %" SCNd64 "%n",
               &used[0], &used[1], &adj[0], &adj[1], &running, &paused_side,
               &paused, &stopped, &started, &limit, &wall, &end) != 11 ||
        end < 0 || buf[end] != '\0')
        return tny_diag_set(d, TNY_EINVAL,
                            "chess clock: saved line not understood");
    if (!in_range(used[0], 0, TNY_CLOCK_MAX_MS) ||
        !in_range(used[1], 0, TNY_CLOCK_MAX_MS) ||
        !in_range(adj[0], -TNY_CLOCK_MAX_MS, TNY_CLOCK_MAX_MS) ||
        !in_range(adj[1], -TNY_CLOCK_MAX_MS, TNY_CLOCK_MAX_MS) ||
        !in_range(running, -1, 1) || !in_range(paused_side, -1, 1) ||
        !is_bool(paused) || !is_bool(stopped) || !is_bool(started) ||
        !in_range(limit, 1, TNY_CLOCK_MAX_MS / 2) ||
        !in_range(wall, -TNY_CLOCK_MAX_INSTANT_MS, TNY_CLOCK_MAX_INSTANT_MS) ||
        !in_range(now_ms, -TNY_CLOCK_MAX_INSTANT_MS,
                  TNY_CLOCK_MAX_INSTANT_MS) ||
        (running >= 0 && (paused || stopped)) || (paused && paused_side < 0))
        return tny_diag_set(d, TNY_EINVAL,
                            "chess clock: saved values out of range");
    tbl_chess_init(&out, limit);
    out.started = started;
    out.cc.used_ms[0] = used[0];
    out.cc.used_ms[1] = used[1];
    out.cc.adjust_ms[0] = adj[0];
    out.cc.adjust_ms[1] = adj[1];
    out.cc.running = running;
    out.cc.paused_side = paused_side;
    out.cc.paused = paused;
    out.cc.stopped = stopped;
    out.cc.since_ms = now_ms;
    if (running >= 0) {
        /* The game went on while the power was off: wall-clock time. */
        elapsed = wall_ms - wall;
        if (elapsed < 0 || wall_ms > TNY_CLOCK_MAX_INSTANT_MS)
            elapsed = 0;
        if (elapsed > TNY_CLOCK_MAX_MS - out.cc.used_ms[running])
            elapsed = TNY_CLOCK_MAX_MS - out.cc.used_ms[running];
        out.cc.used_ms[running] += elapsed;
    }
    *c = out;
    return TNY_OK;
}

/* ---- Agricola ------------------------------------------------------------ */

void tbl_ag_init(struct tbl_ag_timers *t, int64_t draft_ms, int64_t action_ms)
{
    t->draft_ms = draft_ms > 0 && draft_ms <= TNY_CLOCK_MAX_MS
                      ? draft_ms
                      : (int64_t)15 * 60 * 1000;
    t->action_ms = action_ms > 0 && action_ms <= TNY_CLOCK_MAX_MS
                       ? action_ms
                       : (int64_t)30 * 1000;
    t->start_ms = t->draft_end_ms = t->time_up_ms = -1;
    t->last_action_ms = t->paused_at_ms = -1;
}

int tbl_ag_start_draft(struct tbl_ag_timers *t, int64_t now_ms,
                       struct tny_diag *d)
{
    if (t->start_ms >= 0)
        return tny_diag_set(d, TNY_ESTATE, "agricola timer: already started");
    t->start_ms = now_ms;
    return TNY_OK;
}

/* Started and not paused, else TNY_ESTATE naming what. */
static int check_running(const struct tbl_ag_timers *t, const char *what,
                         struct tny_diag *d)
{
    if (t->start_ms < 0)
        return tny_diag_set(d, TNY_ESTATE, "agricola timer: %s: not started",
                            what);
    if (t->paused_at_ms >= 0)
        return tny_diag_set(d, TNY_ESTATE, "agricola timer: %s: paused", what);
    return TNY_OK;
}

/* Records the instant of a key in *slot (never before floor_ms): the
 * timers must run, and a once-only key must not be recorded yet. */
static int mark(struct tbl_ag_timers *t, const char *what, int64_t *slot,
                bool once, int64_t floor_ms, int64_t now_ms, struct tny_diag *d)
{
    int rc = check_running(t, what, d);

    if (rc < 0)
        return rc;
    if (once && *slot >= 0)
        return tny_diag_set(d, TNY_ESTATE, "agricola timer: %s: already done",
                            what);
    *slot = now_ms < floor_ms ? floor_ms : now_ms;
    return TNY_OK;
}

int tbl_ag_end_draft(struct tbl_ag_timers *t, int64_t now_ms,
                     struct tny_diag *d)
{
    return mark(t, "end of draft", &t->draft_end_ms, true, t->start_ms, now_ms,
                d);
}

int tbl_ag_time_up(struct tbl_ag_timers *t, int64_t now_ms, struct tny_diag *d)
{
    return mark(t, "time up", &t->time_up_ms, true, t->start_ms, now_ms, d);
}

int tbl_ag_next_action(struct tbl_ag_timers *t, int64_t now_ms,
                       struct tny_diag *d)
{
    if (t->start_ms >= 0 && t->time_up_ms < 0)
        return tny_diag_set(d, TNY_ESTATE,
                            "agricola timer: no action timer before the "
                            "time is up (AG-14)");
    return mark(t, "next action", &t->last_action_ms, false, t->time_up_ms,
                now_ms, d);
}

int tbl_ag_pause(struct tbl_ag_timers *t, int64_t now_ms, struct tny_diag *d)
{
    return mark(t, "pause", &t->paused_at_ms, false, t->start_ms, now_ms, d);
}

static void shift(int64_t *instant, int64_t by)
{
    if (*instant >= 0)
        *instant += by;
}

int tbl_ag_resume(struct tbl_ag_timers *t, int64_t now_ms, struct tny_diag *d)
{
    int64_t by;

    if (t->paused_at_ms < 0)
        return tny_diag_set(d, TNY_ESTATE, "agricola timer: not paused");
    by = now_ms > t->paused_at_ms ? now_ms - t->paused_at_ms : 0;
    /* The timers exclude the pause: every instant moves by its length. */
    shift(&t->start_ms, by);
    shift(&t->draft_end_ms, by);
    shift(&t->time_up_ms, by);
    shift(&t->last_action_ms, by);
    t->paused_at_ms = -1;
    return TNY_OK;
}

void tbl_ag_view(const struct tbl_ag_timers *t, int64_t now_ms,
                 struct tbl_ag_view *out)
{
    struct tny_ag_timer params;
    struct tny_ag_timer_view v;
    int64_t at = t->paused_at_ms >= 0 ? t->paused_at_ms : now_ms, end;

    memset(out, 0, sizeof(*out));
    if (t->start_ms < 0)
        return;
    if (at < t->start_ms)
        at = t->start_ms;
    out->started = true;
    end = t->draft_end_ms >= 0 ? t->draft_end_ms : at;
    out->draft_left_ms = t->draft_ms - (end - t->start_ms);
    out->speed = t->time_up_ms >= 0 && at >= t->time_up_ms;
    out->drafting = t->draft_end_ms < 0 && !out->speed;
    if (!out->speed)
        return;
    /* The game time is what ran until the round clock said time is up. */
    params.game_ms =
        t->time_up_ms > t->start_ms ? t->time_up_ms - t->start_ms : 1;
    params.draft_ms =
        t->draft_ms < params.game_ms ? t->draft_ms : params.game_ms;
    params.action_ms = t->action_ms;
    if (tny_ag_timer_view(&params, t->start_ms,
                          t->draft_end_ms >= 0 && t->draft_end_ms <= at
                              ? t->draft_end_ms
                              : -1,
                          t->last_action_ms, 0, at, &v, NULL) < 0)
        return;
    out->action_left_ms = v.action_remaining_ms;
    out->turns_passed = v.turns_passed;
    out->action_over = v.turns_passed > 0;
}
