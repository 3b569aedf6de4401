/* fuzz_console_request.c - fuzz target: the console protocol's decoders
 * (proto/wire_console.c): the hub's console request decoder (first byte
 * even) and the console's reply decoder (odd).  A message the decoder
 * accepts must encode again.
 */
#include "fuzz.h"
#include "tny/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tny_diag diag;
    uint8_t *buf = NULL;
    size_t len = 0;

    if (size < 1)
        return 0;
    if (data[0] % 2 == 0) {
        struct tny_wire_request q;
        if (tny_wire_decode_request(data + 1, size - 1, &q, &diag) == 0) {
            fuzz_check(tny_wire_encode_request(&q, &buf, &len, &diag) == 0);
            tny_wire_request_release(&q);
        }
    } else {
        struct tny_wire_reply r;
        if (tny_wire_decode_reply(data + 1, size - 1, &r, &diag) == 0) {
            fuzz_check(tny_wire_encode_reply(&r, &buf, &len, &diag) == 0);
            tny_wire_reply_release(&r);
        }
    }
    free(buf);
    return 0;
}
