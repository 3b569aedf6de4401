/* test_reply_equiv.c - TEMPORARY (issue 18 item 3): the hand-written
 * reply codecs (old, included renamed) against the described walk on
 * random replies: the same bytes, the same decode, the same verdicts. */
#define _POSIX_C_SOURCE 200809L
#define tny_wire_seating_new old_seating_new
#define tny_wire_seating_free old_seating_free
#define tny_wire_standings_new old_standings_new
#define tny_wire_standings_free old_standings_free
#define tny_wire_published_new old_published_new
#define tny_wire_published_free old_published_free
#define tny_wire_records_new old_records_new
#define tny_wire_records_free old_records_free
#define tny_wire_reply_drop_payload old_drop_payload
#define wire__payloads old_payloads
#define wire__n_payloads old_n_payloads
#include "old_reply_codec.inc"
#undef tny_wire_seating_new
#undef tny_wire_seating_free
#undef tny_wire_standings_new
#undef tny_wire_standings_free
#undef tny_wire_published_new
#undef tny_wire_published_free
#undef tny_wire_records_new
#undef tny_wire_records_free
#undef tny_wire_reply_drop_payload
#undef wire__payloads
#undef wire__n_payloads
struct tny_wire_seating *tny_wire_seating_new(int32_t, int32_t);
struct tny_wire_standings *tny_wire_standings_new(int32_t);
struct tny_wire_published *tny_wire_published_new(int32_t, int32_t);
extern const struct wire__payload wire__payloads[];

#include "reply_random.h"

static size_t pack(const struct wire__payload *w, const void *s, uint8_t **out)
{
    ProtobufCMessage *m = w->to_pb(s);
    if (!m)
        abort();
    size_t n = protobuf_c_message_get_packed_size(m);
    *out = malloc(n + 1);
    protobuf_c_message_pack(m, *out);
    w->pb_free(m);
    return n;
}

static const ProtobufCMessageDescriptor *descs[3] = {
    &tourney__v1__seating__descriptor, &tourney__v1__standings__descriptor,
    &tourney__v1__publish_summary__descriptor};

static long n_same, n_dec, n_acc, n_ref, n_mut;

/* Both decoders and checks on bytes: the same verdict, the same value
 * when accepted (its re-encodings equal). */
static void both_decode(int k, const uint8_t *b, size_t n)
{
    ProtobufCMessage *m = protobuf_c_message_unpack(descs[k], NULL, n, b);
    if (!m)
        return;
    void *o = NULL, *x = NULL;
    struct tny_diag d1 = {{0}}, d2 = {{0}};
    int r1 = old_payloads[k].from_pb(m, "p", &o, &d1);
    if (r1 == 0)
        r1 = old_payloads[k].check(o, "p", &d1);
    int r2 = wire__payloads[k].from_pb(m, "p", &x, &d2);
    if (r2 == 0)
        r2 = wire__payloads[k].check(x, "p", &d2);
    if ((r1 < 0) != (r2 < 0)) {
        fprintf(stderr, "payload %d: old %d (%s) new %d (%s)\n", k, r1, d1.msg,
                r2, d2.msg);
        abort();
    }
    if (r1 == 0) {
        uint8_t *a, *c;
        size_t na = pack(&old_payloads[k], o, &a),
               nc = pack(&wire__payloads[k], x, &c);
        if (na != nc || memcmp(a, c, na) != 0) {
            fprintf(stderr, "payload %d: decoded values differ\n", k);
            abort();
        }
        free(a);
        free(c);
        n_acc++;
    } else {
        n_ref++;
    }
    old_payloads[k].free(o);
    wire__payloads[k].free(x);
    protobuf_c_message_free_unpacked(m, NULL);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    struct tny_rng g;
    tny_rng_seed(&g, 18);
    for (long i = 0; i < n; i++) {
        int k = (int)(i % 3);
        void *s = k == 0   ? (void *)rr_seating(&g)
                  : k == 1 ? (void *)rr_standings(&g)
                           : (void *)rr_published(&g);
        struct tny_diag d = {{0}};
        int o1 = old_payloads[k].check(s, "p", &d);
        if (o1 < 0 || wire__payloads[k].check(s, "p", &d) < 0) {
            fprintf(stderr, "sample %ld refused by %s: %s\n", i,
                    o1 < 0 ? "old" : "new", d.msg);
            abort();
        }
        uint8_t *a, *b;
        size_t na = pack(&old_payloads[k], s, &a),
               nb = pack(&wire__payloads[k], s, &b);
        if (na != nb || memcmp(a, b, na) != 0) {
            fprintf(stderr, "sample %ld (payload %d): bytes differ\n", i, k);
            abort();
        }
        n_same++;
        both_decode(k, a, na);
        n_dec++;
        /* mutated bytes: both decoders agree on each */
        for (int t = 0; t < 4 && na; t++) {
            uint8_t save;
            size_t at = tny_rng_below(&g, na);
            save = a[at];
            a[at] = (uint8_t)tny_rng_next(&g);
            both_decode(k, a, na);
            a[at] = save;
            n_mut++;
        }
        free(a);
        free(b);
        wire__payloads[k].free(s);
    }
    printf("%ld random replies: %ld byte-equal encodes, %ld decodes, %ld "
           "mutated; decoded: %ld accepted by both, %ld refused by both\n",
           n, n_same, n_dec, n_mut, n_acc, n_ref);
    return 0;
}
