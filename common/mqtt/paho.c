/* paho.c - loads a Paho build with dlopen and fills its function table
 * (paho.h).  Each build is opened with RTLD_LOCAL, so the two builds'
 * identical symbol names never meet, and is kept for the life of the
 * process (Paho starts threads that a dlclose would pull the code from
 * under).
 */
#define _GNU_SOURCE 1 /* RTLD_NODELETE */
#include "paho.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sonames of Debian's libpaho-mqtt1.3 (both builds ship in it). */
#define PAHO_PLAIN_SONAME "libpaho-mqtt3a.so.1"
#define PAHO_TLS_SONAME "libpaho-mqtt3as.so.1"

struct build {
    const char *soname;
    pthread_once_t once;
    int rc;
    char why[256];
    struct tny_paho api;
};

static struct build builds[2] = {
    {PAHO_PLAIN_SONAME, PTHREAD_ONCE_INIT, 0, "", {0}},
    {PAHO_TLS_SONAME, PTHREAD_ONCE_INIT, 0, "", {0}},
};

/* dlsym into a function pointer of any type: POSIX guarantees the
 * conversion, ISO C does not, so the bytes are copied. */
static bool load_symbol(void *lib, const char *name, void *fn_ptr,
                        size_t fn_size, struct build *b)
{
    void *sym = dlsym(lib, name);
    if (!sym) {
        snprintf(b->why, sizeof b->why, "%s: %s", b->soname, dlerror());
        return false;
    }
    memcpy(fn_ptr, &sym, fn_size);
    return true;
}

#define LOAD_AS(b, lib, name, field)                                           \
    load_symbol(lib, name, &(b)->api.field, sizeof((b)->api.field), b)
#define LOAD(b, lib, field) LOAD_AS(b, lib, "MQTTAsync_" #field, field)

static void load_build(struct build *b)
{
    void *lib = dlopen(b->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib) {
        snprintf(b->why, sizeof b->why, "%s", dlerror());
        b->rc = TNY_ESTATE;
        return;
    }
    bool ok = LOAD(b, lib, createWithOptions) && LOAD(b, lib, setCallbacks) &&
              LOAD(b, lib, connect) && LOAD(b, lib, disconnect) &&
              LOAD(b, lib, subscribe) && LOAD(b, lib, unsubscribe) &&
              LOAD(b, lib, subscribeMany) && LOAD(b, lib, sendMessage) &&
              LOAD(b, lib, freeMessage) && LOAD(b, lib, free) &&
              LOAD(b, lib, destroy) && LOAD(b, lib, strerror) &&
              LOAD_AS(b, lib, "MQTTProperties_add", properties_add) &&
              LOAD_AS(b, lib, "MQTTProperties_free", properties_free);
    b->rc = ok ? TNY_OK : TNY_ESTATE;
    /* Paho's default trace level (TRACE_MINIMUM, its build without
     * HIGH_PERFORMANCE as Debian ships it) formats every protocol event
     * and records every function entry and exit (a time read, a copy of
     * its name) in an in-memory trace nobody here reads: about half of
     * Paho's threads' CPU while the hub sends 2,500 assignments (issue
     * 17).  Errors only, unless Paho's own MQTT_C_CLIENT_TRACE asks for
     * its trace. */
    void (*set_level)(enum MQTTASYNC_TRACE_LEVELS) = NULL;
    if (ok && !getenv("MQTT_C_CLIENT_TRACE")) {
        if (load_symbol(lib, "MQTTAsync_setTraceLevel", &set_level,
                        sizeof(set_level), b))
            set_level(MQTTASYNC_TRACE_ERROR);
        b->why[0] = '\0'; /* optional: never a reason to fail */
    }
}

static void load_plain(void)
{
    load_build(&builds[0]);
}

static void load_tls(void)
{
    load_build(&builds[1]);
}

int tny__paho_get(bool tls, const struct tny_paho **out, struct tny_diag *diag)
{
    struct build *b = &builds[tls ? 1 : 0];
    pthread_once(&b->once, tls ? load_tls : load_plain);
    if (b->rc < 0) {
        *out = NULL;
        return tny_diag_set(diag, b->rc,
                            "mqtt: cannot load Eclipse Paho (%s): %s "
                            "(install libpaho-mqtt1.3)",
                            b->soname, b->why);
    }
    *out = &b->api;
    return TNY_OK;
}
