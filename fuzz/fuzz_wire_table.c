/* fuzz_wire_table.c - fuzz target: the table protocol's decoders
 * (proto/wire_table.c, wire_result.c): assignment, round clock, result
 * submission, result ack, presence, a player code's request (issue 20),
 * and the topic parser with the
 * identify payload's (device/{id}/identify, plain text) on the same bytes.
 * The first byte picks the decoder, the rest is the payload.  A message the
 * decoder accepts holds its documented invariants, so it must encode again.
 */
#include <string.h>

#include "fuzz.h"
#include "tny/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tny_diag diag;
    uint8_t *buf = NULL;
    size_t len = 0;

    if (size < 1)
        return 0;
    const uint8_t *msg = data + 1;
    size_t n = size - 1;
    switch (data[0] % 7) {
    case 0: {
        struct tny_wire_assignment a;
        if (tny_wire_decode_assignment(msg, n, &a, &diag) == 0)
            fuzz_check(tny_wire_encode_assignment(&a, &buf, &len, &diag) == 0);
        break;
    }
    case 1: {
        struct tny_wire_clock c;
        if (tny_wire_decode_clock(msg, n, &c, &diag) == 0) {
            fuzz_check(tny_wire_encode_clock(&c, &buf, &len, &diag) == 0);
            struct tny_clock_msg one;
            tny_wire_clock_for_table(&c, 1, &one);
            tny_wire_clock_release(&c);
        }
        break;
    }
    case 2: {
        struct tny_wire_submission s;
        if (tny_wire_decode_submission(msg, n, &s, &diag) == 0)
            fuzz_check(tny_wire_encode_submission(&s, &buf, &len, &diag) == 0);
        break;
    }
    case 3: {
        struct tny_wire_ack a;
        if (tny_wire_decode_ack(msg, n, &a, &diag) == 0)
            fuzz_check(tny_wire_encode_ack(&a, &buf, &len, &diag) == 0);
        break;
    }
    case 4: {
        struct tny_wire_presence p;
        if (tny_wire_decode_presence(msg, n, &p, &diag) == 0)
            fuzz_check(tny_wire_encode_presence(&p, &buf, &len, &diag) == 0);
        break;
    }
    case 5: {
        struct tny_wire_player_request q;
        if (tny_wire_decode_player_request(msg, n, &q, &diag) == 0)
            fuzz_check(tny_wire_encode_player_request(&q, &buf, &len, &diag) ==
                       0);
        break;
    }
    default: {
        /* A topic arrives as a NUL-terminated string from Paho. */
        char topic[256], text[8];
        enum tny_wire_topic kind;
        char id[TNY_WIRE_ID_MAX + 1];
        int32_t table;
        if (tny_wire_decode_identify(msg, n, &table, &diag) == 0)
            fuzz_check(tny_wire_encode_identify(table, text) == n &&
                       memcmp(text, msg, n) == 0);
        if (n >= sizeof(topic))
            break;
        memcpy(topic, msg, n);
        topic[n] = '\0';
        if (tny_wire_topic_parse(topic, &kind, id, &diag) == 0) {
            char again[TNY_WIRE_TOPIC_MAX];
            fuzz_check(tny_wire_topic(kind, id, again, sizeof(again), &diag) ==
                       0);
        }
        break;
    }
    }
    free(buf);
    return 0;
}
