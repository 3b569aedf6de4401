/* clock.c - round clock, table sync, chess clock and Agricola timer
 * arithmetic (CM-7, TX-3, TX-4, TX-5, TX-9, AG-14; see clock.h).
 *
 * Pure: no clock reads, no allocation, no global state.  Overflow safety
 * comes from bounds: instants within +-TNY_CLOCK_MAX_INSTANT_MS (2^53),
 * lengths within TNY_CLOCK_MAX_MS, and stored deadlines / remaining times
 * within +-STORED_MAX (2^55), so every sum below stays far from INT64_MAX.
 * A function that fails leaves its object unchanged.
 */
#include "tny/clock.h"

#include <stdio.h>

#include <assert.h>
#include <stddef.h>

/* Bound on stored deadlines and remaining times (see the file comment). */
#define STORED_MAX ((int64_t)1 << 55)

static bool instant_ok(int64_t t)
{
    return t >= -TNY_CLOCK_MAX_INSTANT_MS && t <= TNY_CLOCK_MAX_INSTANT_MS;
}

static bool stored_ok(int64_t t)
{
    return t >= -STORED_MAX && t <= STORED_MAX;
}

static int check_instant(int64_t t, const char *what, struct tny_diag *diag)
{
    if (instant_ok(t))
        return TNY_OK;
    return tny_diag_set(diag, TNY_ERANGE, "%s: instant %lld ms out of range",
                        what, (long long)t);
}

static const char *state_name(enum tny_round_clock_state s)
{
    switch (s) {
    case TNY_ROUND_CLOCK_READY: return "ready";
    case TNY_ROUND_CLOCK_RUNNING: return "running";
    case TNY_ROUND_CLOCK_PAUSED: return "paused";
    }
    return "unknown";
}

/* ---- CM-7 round clock --------------------------------------------------- */

int tny_round_clock_init(struct tny_round_clock *clock, int64_t length_ms,
                         struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(clock);
    if (length_ms < 0 || length_ms > TNY_CLOCK_MAX_MS) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round clock: length %lld ms outside 0..%lld",
                          (long long)length_ms, (long long)TNY_CLOCK_MAX_MS);
        goto out;
    }
    clock->state = TNY_ROUND_CLOCK_READY;
    clock->length_ms = length_ms;
    clock->extension_ms = 0;
    clock->deadline_ms = 0;
    clock->remaining_ms = length_ms;
out:
    return rc;
}

int tny_round_clock_start(struct tny_round_clock *clock, int64_t now_ms,
                          struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(clock);
    if (clock->state != TNY_ROUND_CLOCK_READY) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "round clock: cannot start, already started (%s)",
                          state_name(clock->state));
        goto out;
    }
    rc = check_instant(now_ms, "round clock: start", diag);
    if (rc < 0)
        goto out;
    clock->deadline_ms = now_ms + clock->remaining_ms;
    clock->state = TNY_ROUND_CLOCK_RUNNING;
out:
    return rc;
}

int tny_round_clock_pause(struct tny_round_clock *clock, int64_t now_ms,
                          struct tny_diag *diag)
{
    int rc = TNY_OK;
    int64_t remaining;

    assert(clock);
    if (clock->state != TNY_ROUND_CLOCK_RUNNING) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "round clock: cannot pause, clock is %s",
                          state_name(clock->state));
        goto out;
    }
    rc = check_instant(now_ms, "round clock: pause", diag);
    if (rc < 0)
        goto out;
    remaining = clock->deadline_ms - now_ms;
    if (!stored_ok(remaining)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round clock: pause: remaining time out of range");
        goto out;
    }
    clock->remaining_ms = remaining;
    clock->state = TNY_ROUND_CLOCK_PAUSED;
out:
    return rc;
}

int tny_round_clock_resume(struct tny_round_clock *clock, int64_t now_ms,
                           struct tny_diag *diag)
{
    int rc = TNY_OK;
    int64_t deadline;

    assert(clock);
    if (clock->state != TNY_ROUND_CLOCK_PAUSED) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "round clock: cannot resume, clock is %s",
                          state_name(clock->state));
        goto out;
    }
    rc = check_instant(now_ms, "round clock: resume", diag);
    if (rc < 0)
        goto out;
    deadline = now_ms + clock->remaining_ms;
    if (!stored_ok(deadline)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round clock: resume: deadline out of range");
        goto out;
    }
    clock->deadline_ms = deadline;
    clock->state = TNY_ROUND_CLOCK_RUNNING;
out:
    return rc;
}

/* Shared validation of an extension: 0..TNY_CLOCK_MAX_MS, total too. */
static int check_extension(int64_t total, int64_t extra_ms, const char *what,
                           struct tny_diag *diag)
{
    if (extra_ms < 0)
        return tny_diag_set(diag, TNY_EINVAL,
                            "%s: extension %lld ms is negative", what,
                            (long long)extra_ms);
    if (extra_ms > TNY_CLOCK_MAX_MS || total > TNY_CLOCK_MAX_MS - extra_ms)
        return tny_diag_set(diag, TNY_ERANGE,
                            "%s: total extension above %lld ms", what,
                            (long long)TNY_CLOCK_MAX_MS);
    return TNY_OK;
}

int tny_round_clock_extend(struct tny_round_clock *clock, int64_t extra_ms,
                           struct tny_diag *diag)
{
    int rc;
    int64_t moved;

    assert(clock);
    rc = check_extension(clock->extension_ms, extra_ms, "round clock", diag);
    if (rc < 0)
        goto out;
    moved = (clock->state == TNY_ROUND_CLOCK_RUNNING ? clock->deadline_ms
                                                     : clock->remaining_ms) +
            extra_ms;
    if (!stored_ok(moved)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "round clock: extension out of range");
        goto out;
    }
    if (clock->state == TNY_ROUND_CLOCK_RUNNING)
        clock->deadline_ms = moved;
    else
        clock->remaining_ms = moved;
    clock->extension_ms += extra_ms;
out:
    return rc;
}

int64_t tny_round_clock_remaining(const struct tny_round_clock *clock,
                                  int64_t now_ms)
{
    assert(clock && instant_ok(now_ms));
    if (clock->length_ms == 0)
        return TNY_CLOCK_UNLIMITED;
    if (clock->state == TNY_ROUND_CLOCK_RUNNING)
        return clock->deadline_ms - now_ms;
    return clock->remaining_ms;
}

bool tny_round_clock_expired(const struct tny_round_clock *clock,
                             int64_t now_ms)
{
    assert(clock);
    if (clock->length_ms == 0 || clock->state == TNY_ROUND_CLOCK_READY)
        return false;
    return tny_round_clock_remaining(clock, now_ms) <= 0;
}

int tny_table_extension_add(int64_t *table_extension_ms, int64_t extra_ms,
                            struct tny_diag *diag)
{
    int rc;

    assert(table_extension_ms && *table_extension_ms >= 0);
    rc = check_extension(*table_extension_ms, extra_ms, "table clock", diag);
    if (rc < 0)
        goto out;
    *table_extension_ms += extra_ms;
out:
    return rc;
}

int64_t tny_round_clock_table_remaining(const struct tny_round_clock *clock,
                                        int64_t table_extension_ms,
                                        int64_t now_ms)
{
    int64_t r = tny_round_clock_remaining(clock, now_ms);

    assert(table_extension_ms >= 0 && table_extension_ms <= TNY_CLOCK_MAX_MS);
    if (r == TNY_CLOCK_UNLIMITED)
        return r;
    return r + table_extension_ms;
}

/* ---- clock messages and the table's view ------------------------------- */

void tny_round_clock_message(const struct tny_round_clock *clock,
                             int64_t table_extension_ms, int64_t now_ms,
                             struct tny_clock_msg *msg)
{
    assert(clock && msg && instant_ok(now_ms));
    assert(table_extension_ms >= 0 && table_extension_ms <= TNY_CLOCK_MAX_MS);
    msg->state = clock->state;
    msg->unlimited = clock->length_ms == 0;
    msg->hub_now_ms = now_ms;
    msg->deadline_ms = 0;
    msg->remaining_ms = 0;
    if (clock->state == TNY_ROUND_CLOCK_RUNNING)
        msg->deadline_ms = clock->deadline_ms + table_extension_ms;
    else
        msg->remaining_ms = clock->remaining_ms + table_extension_ms;
}

int64_t tny_round_clock_elapsed(const struct tny_round_clock *clock,
                                int64_t now_ms)
{
    assert(clock && instant_ok(now_ms));
    if (clock->length_ms == 0 || clock->state == TNY_ROUND_CLOCK_READY)
        return 0;
    return clock->length_ms + clock->extension_ms -
           tny_round_clock_remaining(clock, now_ms);
}

void tny_clock_msg_table_start(struct tny_clock_msg *msg, int64_t full_ms,
                               int64_t start_delay_ms)
{
    assert(msg && full_ms >= 0 && full_ms <= 2 * TNY_CLOCK_MAX_MS);
    assert(start_delay_ms <= 2 * TNY_CLOCK_MAX_MS);
    if (msg->unlimited)
        return;
    if (start_delay_ms < 0) { /* waiting for the draft */
        msg->state = TNY_ROUND_CLOCK_READY;
        msg->deadline_ms = 0;
        msg->remaining_ms = full_ms;
    } else if (msg->state == TNY_ROUND_CLOCK_RUNNING) {
        msg->deadline_ms += start_delay_ms;
    } else {
        msg->remaining_ms += start_delay_ms;
    }
}

int64_t tny_clock_offset(int64_t hub_now_ms, int64_t local_recv_ms)
{
    assert(instant_ok(hub_now_ms) && instant_ok(local_recv_ms));
    return hub_now_ms - local_recv_ms;
}

int64_t tny_clock_hub_to_local(int64_t hub_ms, int64_t offset_ms)
{
    assert(stored_ok(hub_ms) && stored_ok(offset_ms));
    return hub_ms - offset_ms;
}

int tny_table_clock_apply(struct tny_table_clock *tc,
                          const struct tny_clock_msg *msg,
                          int64_t local_recv_ms, struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct tny_table_clock next = {0};

    assert(tc && msg);
    if (msg->state != TNY_ROUND_CLOCK_READY &&
        msg->state != TNY_ROUND_CLOCK_RUNNING &&
        msg->state != TNY_ROUND_CLOCK_PAUSED) {
        rc = tny_diag_set(diag, TNY_EINVAL, "clock message: unknown state %d",
                          (int)msg->state);
        goto out;
    }
    rc = check_instant(msg->hub_now_ms, "clock message: hub_now", diag);
    if (rc < 0)
        goto out;
    rc = check_instant(local_recv_ms, "clock message: receive time", diag);
    if (rc < 0)
        goto out;
    if (!stored_ok(msg->deadline_ms) || !stored_ok(msg->remaining_ms)) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "clock message: deadline or remaining out of range");
        goto out;
    }
    next.state = msg->state;
    next.unlimited = msg->unlimited;
    next.offset_ms = tny_clock_offset(msg->hub_now_ms, local_recv_ms);
    next.hub_deadline_ms = msg->deadline_ms;
    if (msg->state == TNY_ROUND_CLOCK_RUNNING)
        next.local_deadline_ms =
            tny_clock_hub_to_local(msg->deadline_ms, next.offset_ms);
    else
        next.remaining_ms = msg->remaining_ms;
    *tc = next;
out:
    return rc;
}

int tny_clock_sync_offset(int64_t sent_ms, int64_t hub_ms, int64_t recv_ms,
                          int64_t *offset_ms, int64_t *rtt_ms,
                          struct tny_diag *diag)
{
    int64_t rtt;

    if (!instant_ok(sent_ms) || !instant_ok(hub_ms) || !instant_ok(recv_ms))
        return tny_diag_set(diag, TNY_ERANGE,
                            "time sync: instant out of range");
    rtt = recv_ms - sent_ms;
    if (rtt < 0 || rtt > TNY_CLOCK_SYNC_MAX_RTT_MS)
        return tny_diag_set(diag, TNY_ERANGE,
                            "time sync: round trip %lld ms not in 0..%d",
                            (long long)rtt, TNY_CLOCK_SYNC_MAX_RTT_MS);
    *offset_ms = hub_ms + rtt / 2 - recv_ms;
    *rtt_ms = rtt;
    return TNY_OK;
}

int tny_table_clock_use_offset(struct tny_table_clock *tc, int64_t offset_ms,
                               struct tny_diag *diag)
{
    assert(tc);
    if (!stored_ok(offset_ms))
        return tny_diag_set(diag, TNY_ERANGE, "time sync: offset out of range");
    tc->synced = true;
    tc->offset_ms = offset_ms;
    if (tc->state == TNY_ROUND_CLOCK_RUNNING)
        tc->local_deadline_ms =
            tny_clock_hub_to_local(tc->hub_deadline_ms, offset_ms);
    return TNY_OK;
}

void tny_clock_format(int64_t remaining_ms, char *buf, size_t size)
{
    bool over = remaining_ms < 0;
    int64_t s;

    if (remaining_ms == TNY_CLOCK_UNLIMITED) {
        snprintf(buf, size, "--:--");
        return;
    }
    /* Time left counts whole seconds up, overtime down: the display turns
     * 0:00 exactly at the deadline and +0:01 a second later. */
    s = over ? -(remaining_ms / 1000) : (remaining_ms + 999) / 1000;
    if (over && s == 0)
        over = false;
    if (s >= 3600)
        snprintf(buf, size, "%s%lld:%02d:%02d", over ? "+" : "",
                 (long long)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
    else
        snprintf(buf, size, "%s%lld:%02d", over ? "+" : "", (long long)(s / 60),
                 (int)(s % 60));
}

int64_t tny_table_clock_remaining(const struct tny_table_clock *tc,
                                  int64_t local_now_ms)
{
    assert(tc && instant_ok(local_now_ms));
    if (tc->unlimited)
        return TNY_CLOCK_UNLIMITED;
    if (tc->state == TNY_ROUND_CLOCK_RUNNING)
        return tc->local_deadline_ms - local_now_ms;
    return tc->remaining_ms;
}

/* ---- Tantrix chess clock ------------------------------------------------ */

void tny_chess_clock_init(struct tny_chess_clock *cc)
{
    assert(cc);
    cc->used_ms[0] = cc->used_ms[1] = 0;
    cc->adjust_ms[0] = cc->adjust_ms[1] = 0;
    cc->running = -1;
    cc->paused_side = -1;
    cc->paused = false;
    cc->stopped = false;
    cc->since_ms = 0;
}

static int check_side(int32_t side, const char *what, struct tny_diag *diag)
{
    if (side == 0 || side == 1)
        return TNY_OK;
    return tny_diag_set(diag, TNY_EINVAL, "%s: side %ld is not 0 or 1", what,
                        (long)side);
}

/* Stops the running clock at now_ms, adding the elapsed time to its side.
 * TNY_ERANGE if now_ms is out of range or before the clock started. */
static int fold_running(struct tny_chess_clock *cc, int64_t now_ms,
                        const char *what, struct tny_diag *diag)
{
    int rc = check_instant(now_ms, what, diag);

    if (rc < 0)
        goto out;
    if (now_ms < cc->since_ms) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "%s: time %lld ms is before the clock started "
                          "(%lld ms)",
                          what, (long long)now_ms, (long long)cc->since_ms);
        goto out;
    }
    if (now_ms - cc->since_ms > STORED_MAX - cc->used_ms[cc->running]) {
        rc = tny_diag_set(diag, TNY_ERANGE, "%s: used time out of range", what);
        goto out;
    }
    cc->used_ms[cc->running] += now_ms - cc->since_ms;
    cc->since_ms = now_ms;
out:
    return rc;
}

int tny_chess_clock_start(struct tny_chess_clock *cc, int32_t side,
                          int64_t now_ms, struct tny_diag *diag)
{
    int rc;

    assert(cc);
    rc = check_side(side, "chess clock: start", diag);
    if (rc < 0)
        goto out;
    if (cc->running >= 0 || cc->paused || cc->stopped) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: cannot start, clock is %s",
                          cc->stopped  ? "stopped"
                          : cc->paused ? "paused"
                                       : "running");
        goto out;
    }
    rc = check_instant(now_ms, "chess clock: start", diag);
    if (rc < 0)
        goto out;
    cc->running = side;
    cc->since_ms = now_ms;
out:
    return rc;
}

int tny_chess_clock_press(struct tny_chess_clock *cc, int32_t side,
                          int64_t now_ms, struct tny_diag *diag)
{
    int rc;

    assert(cc);
    rc = check_side(side, "chess clock: press", diag);
    if (rc < 0)
        goto out;
    if (cc->running != side) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: side %ld pressed but its clock is "
                          "not running",
                          (long)side);
        goto out;
    }
    rc = fold_running(cc, now_ms, "chess clock: press", diag);
    if (rc < 0)
        goto out;
    cc->running = 1 - side;
out:
    return rc;
}

int tny_chess_clock_pause(struct tny_chess_clock *cc, int64_t now_ms,
                          struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(cc);
    if (cc->running < 0) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: cannot pause, no clock is running");
        goto out;
    }
    rc = fold_running(cc, now_ms, "chess clock: pause", diag);
    if (rc < 0)
        goto out;
    cc->paused_side = cc->running;
    cc->running = -1;
    cc->paused = true;
out:
    return rc;
}

int tny_chess_clock_resume(struct tny_chess_clock *cc, int64_t now_ms,
                           struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(cc);
    if (!cc->paused) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: cannot resume, clock is not paused");
        goto out;
    }
    rc = check_instant(now_ms, "chess clock: resume", diag);
    if (rc < 0)
        goto out;
    cc->running = cc->paused_side;
    cc->paused_side = -1;
    cc->paused = false;
    cc->since_ms = now_ms;
out:
    return rc;
}

int tny_chess_clock_stop(struct tny_chess_clock *cc, int64_t now_ms,
                         struct tny_diag *diag)
{
    int rc = TNY_OK;

    assert(cc);
    if (cc->stopped) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: cannot stop, already stopped");
        goto out;
    }
    if (cc->running >= 0) {
        rc = fold_running(cc, now_ms, "chess clock: stop", diag);
        if (rc < 0)
            goto out;
    }
    cc->running = -1;
    cc->paused_side = -1;
    cc->paused = false;
    cc->stopped = true;
out:
    return rc;
}

int tny_chess_clock_wrongful_pause(struct tny_chess_clock *cc,
                                   int32_t pausing_side, int64_t penalty_ms,
                                   struct tny_diag *diag)
{
    int rc;
    int32_t other;
    int64_t credit;

    assert(cc);
    rc = check_side(pausing_side, "chess clock: wrongful pause", diag);
    if (rc < 0)
        goto out;
    if (penalty_ms < 0 || penalty_ms > TNY_CLOCK_MAX_MS) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "chess clock: wrongful pause: penalty %lld ms "
                          "outside 0..%lld",
                          (long long)penalty_ms, (long long)TNY_CLOCK_MAX_MS);
        goto out;
    }
    if (!cc->paused) {
        rc = tny_diag_set(diag, TNY_ESTATE,
                          "chess clock: wrongful pause: adjust while the "
                          "clock is paused");
        goto out;
    }
    if (cc->used_ms[pausing_side] > STORED_MAX - penalty_ms) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "chess clock: wrongful pause: used time out of "
                          "range");
        goto out;
    }
    other = 1 - pausing_side;
    /* TX-9: the credit cannot take a clock below 0:00. */
    credit = cc->used_ms[other] < penalty_ms ? cc->used_ms[other] : penalty_ms;
    cc->used_ms[pausing_side] += penalty_ms;
    cc->adjust_ms[pausing_side] += penalty_ms;
    cc->used_ms[other] -= credit;
    cc->adjust_ms[other] -= credit;
out:
    return rc;
}

int64_t tny_chess_clock_used(const struct tny_chess_clock *cc, int32_t side,
                             int64_t now_ms)
{
    assert(cc && (side == 0 || side == 1) && instant_ok(now_ms));
    if (cc->running == side && now_ms > cc->since_ms)
        return cc->used_ms[side] + (now_ms - cc->since_ms);
    return cc->used_ms[side];
}

bool tny_chess_clock_over(const struct tny_chess_clock *cc, int32_t side,
                          int64_t limit_ms, int64_t now_ms)
{
    return tny_chess_clock_used(cc, side, now_ms) > limit_ms;
}

int32_t tny_tx_stop_favours(const struct tny_chess_clock *cc, int64_t limit_ms,
                            int64_t now_ms)
{
    bool over0 = tny_chess_clock_over(cc, 0, limit_ms, now_ms);
    bool over1 = tny_chess_clock_over(cc, 1, limit_ms, now_ms);

    if (over0 == over1)
        return -1;
    return over0 ? 1 : 0;
}

int tny_tx_clock_penalty(int64_t used_ms, int64_t limit_ms, int64_t step_ms,
                         int64_t per_step, int64_t *penalty,
                         struct tny_diag *diag)
{
    int rc = TNY_OK;
    int64_t steps;

    assert(penalty);
    if (used_ms < 0 || limit_ms < 0 || per_step < 0 ||
        (limit_ms > 0 && step_ms <= 0)) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "clock penalty: used %lld ms, limit %lld ms, step "
                          "%lld ms, %lld per step: negative or zero step",
                          (long long)used_ms, (long long)limit_ms,
                          (long long)step_ms, (long long)per_step);
        goto out;
    }
    if (limit_ms == 0 || used_ms < limit_ms) {
        *penalty = 0;
        goto out;
    }
    /* TX-3: 20:00-20:59 is the first step, every further full step one more. */
    steps = 1 + (used_ms - limit_ms) / step_ms;
    if (per_step != 0 && steps > INT64_MAX / per_step) {
        rc = tny_diag_set(diag, TNY_ERANGE, "clock penalty: overflow");
        goto out;
    }
    *penalty = steps * per_step;
out:
    return rc;
}

int tny_tx_absence_phase(int64_t scheduled_ms, int64_t now_ms,
                         int64_t clock_after_ms, int64_t default_after_ms,
                         enum tny_tx_absence *phase, int64_t *next_ms,
                         struct tny_diag *diag)
{
    int rc = TNY_OK;
    int64_t late;

    assert(phase && next_ms);
    if (clock_after_ms < 0 || default_after_ms < clock_after_ms ||
        default_after_ms > TNY_CLOCK_MAX_MS) {
        rc =
            tny_diag_set(diag, TNY_EINVAL,
                         "absence: clock after %lld ms, default after %lld "
                         "ms: need 0 <= clock <= default <= %lld",
                         (long long)clock_after_ms, (long long)default_after_ms,
                         (long long)TNY_CLOCK_MAX_MS);
        goto out;
    }
    rc = check_instant(scheduled_ms, "absence: scheduled start", diag);
    if (rc < 0)
        goto out;
    rc = check_instant(now_ms, "absence: now", diag);
    if (rc < 0)
        goto out;
    late = now_ms - scheduled_ms;
    if (late < clock_after_ms) {
        *phase = TNY_TX_ABSENCE_WAIT;
        *next_ms = clock_after_ms - late;
    } else if (late < default_after_ms) {
        *phase = TNY_TX_ABSENCE_START_CLOCK;
        *next_ms = default_after_ms - late;
    } else {
        *phase = TNY_TX_ABSENCE_DEFAULT;
        *next_ms = 0;
    }
out:
    return rc;
}

/* ---- Agricola table timer ----------------------------------------------- */

int tny_ag_timer_view(const struct tny_ag_timer *params, int64_t start_ms,
                      int64_t draft_end_ms, int64_t last_action_ms,
                      int64_t extension_ms, int64_t now_ms,
                      struct tny_ag_timer_view *view, struct tny_diag *diag)
{
    int rc = TNY_OK;
    struct tny_ag_timer_view v = {0};
    int64_t time_up, base;

    assert(params && view);
    if (params->game_ms <= 0 || params->action_ms <= 0 ||
        params->draft_ms < 0 || params->draft_ms > params->game_ms ||
        extension_ms < 0) {
        rc = tny_diag_set(
            diag, TNY_EINVAL,
            "agricola timer: game %lld ms, draft %lld ms, "
            "action %lld ms, extension %lld ms: need game > 0, "
            "0 <= draft <= game, action > 0, extension >= 0",
            (long long)params->game_ms, (long long)params->draft_ms,
            (long long)params->action_ms, (long long)extension_ms);
        goto out;
    }
    if (params->game_ms > TNY_CLOCK_MAX_MS ||
        params->action_ms > TNY_CLOCK_MAX_MS ||
        extension_ms > TNY_CLOCK_MAX_MS) {
        rc = tny_diag_set(diag, TNY_ERANGE,
                          "agricola timer: a length exceeds %lld ms",
                          (long long)TNY_CLOCK_MAX_MS);
        goto out;
    }
    rc = check_instant(start_ms, "agricola timer: start", diag);
    if (rc < 0)
        goto out;
    rc = check_instant(now_ms, "agricola timer: now", diag);
    if (rc < 0)
        goto out;
    if (now_ms < start_ms ||
        (draft_end_ms != -1 &&
         (draft_end_ms < start_ms || draft_end_ms > now_ms)) ||
        (last_action_ms != -1 &&
         (last_action_ms < start_ms || last_action_ms > now_ms))) {
        rc = tny_diag_set(diag, TNY_EINVAL,
                          "agricola timer: instants out of order (start %lld, "
                          "draft end %lld, last action %lld, now %lld)",
                          (long long)start_ms, (long long)draft_end_ms,
                          (long long)last_action_ms, (long long)now_ms);
        goto out;
    }
    time_up = start_ms + params->game_ms + extension_ms;
    v.game_remaining_ms = time_up - now_ms;
    v.draft_remaining_ms = start_ms + params->draft_ms - now_ms;
    if (v.game_remaining_ms <= 0) {
        v.phase = TNY_AG_PHASE_SPEED;
        /* The action timer runs from the end of the previous action, but
         * never from before the moment time was up. */
        base = last_action_ms > time_up ? last_action_ms : time_up;
        v.turns_passed = (now_ms - base) / params->action_ms;
        v.action_remaining_ms =
            params->action_ms - (now_ms - base) % params->action_ms;
    } else if (draft_end_ms == -1) {
        v.phase = TNY_AG_PHASE_DRAFT;
    } else {
        v.phase = TNY_AG_PHASE_PLAY;
    }
    /* After the draft its countdown stays frozen at what was left then. */
    if (draft_end_ms != -1)
        v.draft_remaining_ms = start_ms + params->draft_ms - draft_end_ms;
    *view = v;
out:
    return rc;
}
