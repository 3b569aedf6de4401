/* paho.h - Eclipse Paho C (asynchronous API), loaded at run time: the TLS
 * build (libpaho-mqtt3as) for clients with an ssl:// broker, the plain
 * build (libpaho-mqtt3a) for the others.  The TLS build pulls OpenSSL into
 * the process (about 3.4 MB resident, measured on a table client), which a
 * Raspberry Pi table talking plain tcp:// to a venue broker never needs.
 *
 * Not here: anything MQTT (mqtt.c).  Internal to the MQTT adapter.
 *
 * Invariants: each build is loaded at most once per process and never
 * unloaded; the function table of a loaded build never changes.
 */
#ifndef TNY_PAHO_H
#define TNY_PAHO_H

#include <stdbool.h>

#include <MQTTAsync.h>

#include "tny/error.h"

/* The Paho functions the adapter calls, from one build. */
struct tny_paho {
    int (*createWithOptions)(MQTTAsync *handle, const char *server_uri,
                             const char *client_id, int persistence_type,
                             void *persistence_context,
                             MQTTAsync_createOptions *options);
    int (*setCallbacks)(MQTTAsync handle, void *context,
                        MQTTAsync_connectionLost *cl,
                        MQTTAsync_messageArrived *ma,
                        MQTTAsync_deliveryComplete *dc);
    int (*connect)(MQTTAsync handle, const MQTTAsync_connectOptions *options);
    int (*disconnect)(MQTTAsync handle,
                      const MQTTAsync_disconnectOptions *options);
    int (*subscribe)(MQTTAsync handle, const char *topic, int qos,
                     MQTTAsync_responseOptions *response);
    int (*unsubscribe)(MQTTAsync handle, const char *topic,
                       MQTTAsync_responseOptions *response);
    int (*subscribeMany)(MQTTAsync handle, int count, char *const *topic,
                         const int *qos, MQTTAsync_responseOptions *response);
    int (*sendMessage)(MQTTAsync handle, const char *destination_name,
                       const MQTTAsync_message *msg,
                       MQTTAsync_responseOptions *response);
    void (*freeMessage)(MQTTAsync_message **msg);
    void (*free)(void *ptr);
    void (*destroy)(MQTTAsync *handle);
    const char *(*strerror)(int code);
    int (*properties_add)(MQTTProperties *props, const MQTTProperty *prop);
    void (*properties_free)(MQTTProperties *props);
};

/* The TLS (tls) or plain build, loaded on first use (thread-safe).
 * Errors: TNY_ESTATE (the library or one of its functions could not be
 * loaded: diag names the library and says why). */
TNY_MUST_USE int tny__paho_get(bool tls, const struct tny_paho **out,
                               struct tny_diag *diag);

#endif
