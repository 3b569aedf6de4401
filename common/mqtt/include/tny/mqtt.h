/* mqtt.h - the MQTT adapter shared by hub, table client and console: one
 * MQTT v5 connection over Eclipse Paho C (asynchronous API) that hands
 * everything it receives to its owner through a bounded queue and a file
 * descriptor the owner can poll() with its other fds.
 *
 * What it does: connects in the background and keeps reconnecting with a
 * seeded, jittered exponential backoff (its own, not Paho's); on every
 * (re)connect it sets TCP_NODELAY on the socket, re-establishes the
 * subscriptions and publishes the birth message; it copies every inbound
 * message, every delivery outcome and every connection change into a
 * struct tny_mqtt_message on the queue and makes tny_mqtt_wakeup_fd()
 * readable.  Publishing reports every refusal as an error (never a silent
 * drop) and every QoS 1/2 outcome, with the v5 reason code, as an event.
 *
 * What it does not do: no persistence (the owner's database or outbox is
 * the truth and it resends after TNY_MQTT_RECONNECTED), no retries of
 * failed publishes, no protocol decoding, no logging (counters in
 * struct tny_mqtt_stats and events instead).
 *
 * Threads.  Every function here is called from ONE owner thread per client
 * (different clients may have different owners), except
 * tny_mqtt_backoff_ms() and tny_mqtt_options_init() which are pure.  Paho's
 * threads run this module's callbacks; those only copy data into the queue,
 * update counters and issue Paho calls of their own (subscribe, birth
 * publish); they never touch the owner's state.  The module runs one
 * helper thread per client that sleeps until a reconnect is due.
 *
 * Invariants: at most max_queued MESSAGE/DROPPED events and max_queued_bytes
 * of their topics and payloads wait in the queue (connection and delivery
 * events are not limited: there are never more of them than outstanding
 * Paho commands); no inbound payload above max_payload is ever queued; the
 * wakeup fd is readable exactly while the queue is non-empty.
 */
#ifndef TNY_MQTT_H
#define TNY_MQTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tny/error.h"
#include "tny/rng.h"

/* Limits of the options (checked by tny_mqtt_open). */
#define TNY_MQTT_MAX_SERVERS 8    /* server URIs tried in order */
#define TNY_MQTT_MAX_SUBS 64      /* subscriptions per client, all kinds */
#define TNY_MQTT_MAX_CLIENT_ID 64 /* bytes of [a-z0-9-] */
#define TNY_MQTT_MAX_TOPIC 1024   /* bytes of a topic or filter we send */
#define TNY_MQTT_MAX_PAYLOAD_LIMIT ((size_t)64 * 1024 * 1024)
#define TNY_MQTT_DEFAULT_MAX_PAYLOAD ((size_t)256 * 1024)

/* A message published on the client's behalf: the last will (by the broker,
 * when the connection is lost uncleanly) or the birth message (by this
 * module, after every connect).  topic NULL = none. */
struct tny_mqtt_fixed_message {
    const char *topic;
    const void *payload; /* len bytes; NULL only when len is 0 */
    size_t len;
    int qos; /* 0..2 */
    bool retained;
};

/* A subscription re-established on every connect. */
struct tny_mqtt_subscription {
    const char *filter; /* may contain + and # */
    int qos;            /* 0..2 */
};

/* Everything tny_mqtt_open needs.  Fill it with tny_mqtt_options_init()
 * and then set the fields; tny_mqtt_open copies all of it (strings and
 * payloads included), so the caller may free it afterwards. */
struct tny_mqtt_options {
    /* Broker URIs "tcp://host:port" or "ssl://host:port", tried in order on
     * each attempt (a standby broker second).  1..TNY_MQTT_MAX_SERVERS. */
    const char *const *servers;
    int n_servers;
    /* Login name, also sent as the client id (the broker runs with
     * use_username_as_clientid).  1..64 characters of [a-z0-9-]. */
    const char *client_id;
    /* The login when it differs from client_id (a console connection on
     * the broker's console listener: its own client id per connection);
     * NULL = client_id.  1..64 characters of [a-z0-9-]. */
    const char *username;
    const char *password; /* NULL: no password */
    /* TLS (ssl:// servers): CA bundle, client certificate and key (PEM);
     * NULL = not used.  The server's certificate and host name are always
     * verified, against ca_file or else the system's trust store. */
    const char *ca_file;
    const char *cert_file;
    const char *key_file;
    int keepalive_s;                    /* 1..3600; default 30 */
    int connect_timeout_s;              /* 1..300; default 10 */
    bool clean_start;                   /* MQTT v5 clean start; default true */
    uint32_t session_expiry_s;          /* v5 session expiry; default 0 (session
                                           ends with the connection) */
    struct tny_mqtt_fixed_message will; /* last will; default none */
    struct tny_mqtt_fixed_message birth; /* published after every connect */
    const struct tny_mqtt_subscription *subs; /* n_subs, 0..MAX_SUBS */
    int n_subs;
    /* Bit i set: subs[i] is MQTT v5 "retain as published": a message
     * published live with the retain flag arrives with it (by default
     * only a retained message replayed on subscription has it), so the
     * subscriber can act on it at once (the hub clears retained
     * results).  Default 0. */
    uint32_t retain_as_published;
    /* Largest payload accepted, both ways: a larger inbound message is
     * dropped and counted (and a DROPPED event queued), a larger publish is
     * refused.  1..TNY_MQTT_MAX_PAYLOAD_LIMIT; default 256 KiB. */
    size_t max_payload;
    /* Bound of the inbound queue (MESSAGE and DROPPED events): count and
     * bytes; an inbound message that does not fit is dropped and counted
     * in n_dropped_overflow.  Defaults 10000 and 64 MiB. */
    int max_queued;
    size_t max_queued_bytes;
    /* Paho's maxBufferedMessages: publishes accepted but not yet written
     * (and QoS 1/2 ones not yet acknowledged by the broker's receive
     * maximum).  Beyond it tny_mqtt_publish fails with TNY_ERANGE.
     * 1..1000000; default 1000 (Paho's own default is 100). */
    int max_buffered;
    /* Reconnect delays: attempt k waits a uniform random time in
     * [cap/2, cap], cap = min(reconnect_max_ms, reconnect_min_ms * 2^k),
     * drawn from a generator seeded with seed and the client id (so two
     * devices with the same seed still differ).  The first attempt after
     * tny_mqtt_open is immediate.  1 <= min <= max <= 3600000; defaults
     * 250 and 30000. */
    int reconnect_min_ms;
    int reconnect_max_ms;
    uint64_t seed;
    /* Set TCP_NODELAY on the socket after every connect; default true.
     * Turning it off exists to measure Nagle's cost (see tny_mqtt_open);
     * another client of the same process connecting to the same broker
     * still sets it on this client's socket. */
    bool tcp_nodelay;
};

/* Fills o with the defaults named above (no servers, no client id). */
void tny_mqtt_options_init(struct tny_mqtt_options *o);

/* What the queue delivers. */
enum tny_mqtt_kind {
    TNY_MQTT_MESSAGE = 1, /* inbound publish: topic, payload, len, qos,
                             retained */
    TNY_MQTT_DROPPED,     /* inbound publish larger than max_payload was
                             dropped: topic, len (its size), qos, retained */
    TNY_MQTT_DELIVERED,   /* outcome of a QoS 1/2 tny_mqtt_publish: token,
                             reason, lib_rc */
    TNY_MQTT_SUBSCRIBED,  /* outcome of tny_mqtt_subscribe while connected:
                             token, reason, lib_rc */
    TNY_MQTT_CONNECTED,   /* first connection up; subscriptions answered,
                             birth sent: n_refused, session_present */
    TNY_MQTT_RECONNECTED, /* same, after a TNY_MQTT_LOST: republish your
                             retained state and resend unacknowledged work */
    TNY_MQTT_LOST,        /* connection lost; reconnecting in background */
    TNY_MQTT_REFUSED,     /* the broker refused a connect attempt: reason
                             (134 bad user name or password, 135 not
                             authorised; tny_mqtt_reason_text); queued once
                             per change of reason until a connect succeeds */
};

/* One queued event.  Value type owned by the caller after
 * tny_mqtt_next_message(); tny_mqtt_message_release() frees it.  Fields not
 * listed for the kind above are 0/NULL.
 * - topic: NUL-terminated; payload: len bytes followed by a NUL that is not
 *   counted (convenient for text; binary payloads may contain NULs).
 * - reason: MQTT v5 reason code.  DELIVERED: 0 when the broker accepted
 *   the message; >= 128 when it refused it (135 = not authorised by the
 *   ACL).  Paho 1.3.12 does not pass on success codes below 128 (16 "no
 *   matching subscribers" arrives as 0).  SUBSCRIBED: the granted QoS 0..2
 *   or a refusal >= 128.
 * - lib_rc: 0, or the Paho error when the request ended without an answer
 *   from the broker (-11 MQTTASYNC_OPERATION_INCOMPLETE: the connection was
 *   lost first; the broker may or may not have the message).
 *   Accepted <=> lib_rc == 0 && reason < 128.
 * - n_refused: subscriptions the broker refused (or that could not be sent)
 *   on this connect. */
struct tny_mqtt_message {
    enum tny_mqtt_kind kind;
    char *topic;
    unsigned char *payload;
    size_t len;
    int qos;
    bool retained;
    int token;
    int reason;
    int lib_rc;
    int n_refused;
    bool session_present;
    /* MESSAGE: when the adapter took it from Paho (CLOCK_MONOTONIC, in
     * microseconds; the same clock in every process of the machine), so
     * that a receiver can time its stages (the hub's result trace). */
    int64_t rx_us;
    void *mem; /* private: the allocation behind topic and payload */
};

/* Counters since tny_mqtt_open (tny_mqtt_stats_get copies them). */
struct tny_mqtt_stats {
    uint64_t n_connect_attempts; /* MQTTAsync_connect calls accepted */
    uint64_t n_connects;         /* connections established */
    uint64_t n_connect_failures; /* attempts that ended without one */
    uint64_t n_lost;             /* established connections lost */
    int last_connect_rc;         /* Paho code of the last failed attempt */
    int last_connect_reason;     /* v5 CONNACK reason of it (135, 134...) */
    int last_backoff_ms;         /* delay chosen for the latest retry */
    /* TCP_NODELAY: connects after which it was set on at least one socket
     * to the broker / after which no such socket was found or setsockopt
     * failed; the fd it was last set on (-1: never). */
    uint64_t n_nodelay_set;
    uint64_t n_nodelay_failed;
    int nodelay_fd;
    uint64_t n_received;         /* MESSAGE events queued */
    uint64_t n_dropped_oversize; /* inbound payload > max_payload */
    uint64_t n_dropped_overflow; /* inbound message did not fit the queue */
    uint64_t n_published;        /* tny_mqtt_publish calls that succeeded */
    uint64_t n_publish_refused;  /* ... that failed */
    uint64_t n_delivery_refused; /* DELIVERED with reason >= 128 */
    uint64_t n_delivery_failed;  /* DELIVERED with lib_rc != 0 */
    uint64_t n_birth_failed;     /* birth publishes refused or not acked */
    uint64_t n_subs_refused;     /* subscriptions refused, all connects */
    uint64_t n_events_lost;      /* control events lost: out of memory */
    /* Most QoS 1/2 publishes of tny_mqtt_publish accepted by Paho and not
     * yet answered (acknowledged or failed) at once: what an owner that
     * bounds its own window (the hub's publish_window) kept in flight. */
    int max_publishes_in_flight;
};

struct tny_mqtt; /* opaque: one client */

/* Validates and copies opts, creates the Paho client (MQTT v5, no
 * persistence, automatic reconnect off) and starts connecting in the
 * background.  Returns before the connection is up: the owner learns of it
 * through TNY_MQTT_CONNECTED.  *client is set on success, NULL otherwise.
 * Paho 1.3.12's receive thread polls its sockets with a 1 s timeout and no
 * wake-up: a connect made while it waits (every reconnect, the second client
 * of a process) completes 1-2 s later; the first one in 20 ms.
 *
 * TCP_NODELAY: Paho C 1.3.12 never sets it and has no way to reach its
 * socket, so after every connect this module scans /proc/self/fd for TCP
 * sockets whose peer is the broker it connected to and sets TCP_NODELAY on
 * each of them (other clients of this process to the same broker included,
 * which only helps them); see n_nodelay_set / nodelay_fd.
 *
 * Errors: TNY_EINVAL for an invalid option (diag names it), TNY_ENOMEM,
 * TNY_ESTATE when Paho, a pipe or the thread could not be created. */
TNY_MUST_USE int tny_mqtt_open(const struct tny_mqtt_options *opts,
                               struct tny_mqtt **client, struct tny_diag *diag);

/* Stops reconnecting; while connected, waits up to 1 s for the answers to
 * requests still in flight (subscribes, unsubscribes, QoS 1/2 publishes:
 * Paho would drop, unfreed, an ack read while it disconnects), then
 * disconnects cleanly (MQTT DISCONNECT with reason 0, so the broker does
 * NOT publish the last will; nothing else is published) waiting up to 1 s
 * for in-flight QoS 1/2 messages, destroys the Paho client and frees
 * everything, queued events included.  NULL is a no-op. */
void tny_mqtt_close(struct tny_mqtt *client);

/* The fd to poll() for POLLIN: readable while events are queued.  Owned by
 * the client (do not read or close it); valid until tny_mqtt_close. */
int tny_mqtt_wakeup_fd(const struct tny_mqtt *client);

/* Takes the oldest event, non-blocking.  Returns 0 and fills *msg (release
 * it with tny_mqtt_message_release), or TNY_ENOTFOUND when the queue is
 * empty (then *msg is zeroed).  Drain until TNY_ENOTFOUND after each
 * wakeup. */
TNY_MUST_USE int tny_mqtt_next_message(struct tny_mqtt *client,
                                       struct tny_mqtt_message *msg);

/* Frees what msg owns and zeroes it; a zeroed message is a no-op. */
void tny_mqtt_message_release(struct tny_mqtt_message *msg);

/* Publishes len bytes of payload (copied; NULL only when len is 0) on
 * topic.  For QoS 1/2, *token (may be NULL) receives the id of the request
 * and its outcome comes back as TNY_MQTT_DELIVERED with the same token; a
 * token is unique among this client's outstanding requests only (Paho
 * reuses message ids).  QoS 0 gives token 0 and no event.
 * Errors (nothing was sent; the caller keeps the message and retries after
 * TNY_MQTT_(RE)CONNECTED or later):
 * - TNY_EINVAL: topic empty, too long or with + or #; qos outside 0..2;
 *   payload NULL with len > 0;
 * - TNY_ERANGE: len > max_payload, or Paho's buffer is full (-12
 *   MQTTASYNC_MAX_BUFFERED_MESSAGES: max_buffered publishes not yet sent);
 * - TNY_ESTATE: not connected (-3 MQTTASYNC_DISCONNECTED);
 * - TNY_ENOMEM, or TNY_ESTATE for any other Paho refusal (diag has its
 *   code and text). */
TNY_MUST_USE int tny_mqtt_publish(struct tny_mqtt *client, const char *topic,
                                  const void *payload, size_t len, int qos,
                                  bool retained, int *token,
                                  struct tny_diag *diag);

/* Adds filter to the subscriptions re-established on every connect.  When
 * connected it also subscribes now: *token (may be NULL) receives the
 * request id and the outcome comes back as TNY_MQTT_SUBSCRIBED.  When not
 * connected *token is 0 and the subscription is made on the next connect.
 * Subscribing to a filter already in the set only updates its QoS.
 * Errors: TNY_EINVAL (empty or too long filter, qos outside 0..2),
 * TNY_ERANGE (TNY_MQTT_MAX_SUBS reached), TNY_ENOMEM; TNY_ESTATE when Paho
 * refused the request (the filter stays in the set). */
TNY_MUST_USE int tny_mqtt_subscribe(struct tny_mqtt *client, const char *filter,
                                    int qos, int *token, struct tny_diag *diag);

/* Takes filter out of the subscriptions (not renewed on later connects) and,
 * when connected, unsubscribes now (its outcome is not reported; messages
 * already on their way may still arrive).  A filter not in the set is not
 * an error (nothing happens).  The slot is free for another subscription.
 * Errors: TNY_EINVAL (empty or too long filter), TNY_ENOMEM; TNY_ESTATE
 * when Paho refused the request (the filter is out of the set all the
 * same). */
TNY_MUST_USE int tny_mqtt_unsubscribe(struct tny_mqtt *client,
                                      const char *filter,
                                      struct tny_diag *diag);

/* True between the connect callback and the loss of the connection (the
 * CONNECTED event may still be on its way). */
bool tny_mqtt_is_connected(struct tny_mqtt *client);

/* The server's Receive Maximum from the last CONNACK (65535 when it gave
 * none, or before the first connection): Paho 1.3.12 holds a QoS 1/2
 * publish beyond it in its queue, and an acknowledgement does not wake
 * its send thread (fixed upstream after 1.3.13: eclipse/paho.mqtt.c
 * 11757bf), so such a publish can wait a second; an owner that keeps
 * fewer in flight never meets that wait. */
int tny_mqtt_receive_maximum(struct tny_mqtt *client);

/* Copies the counters. */
void tny_mqtt_stats_get(struct tny_mqtt *client, struct tny_mqtt_stats *out);

/* The words of an MQTT v5 CONNACK refusal (135 -> "not authorised"). */
const char *tny_mqtt_reason_text(int reason);

/* The reconnect delay for attempt (0 = first retry): uniform in
 * [cap/2, cap] with cap = min(max_ms, min_ms * 2^attempt), drawn from rng.
 * Requires 1 <= min_ms <= max_ms; attempt >= 0.  Pure. */
int tny_mqtt_backoff_ms(struct tny_rng *rng, int attempt, int min_ms,
                        int max_ms);

#endif
