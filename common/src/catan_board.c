/* catan_board.c - the CT-9 random board: shuffle, spiral, code, drawing.
 *
 * See catan_board.h for the seed's rule.  The spiral: the outer ring of 12
 * hexes counterclockwise from the start corner, then the inner ring of 6
 * from the hex inside that corner, then the centre; the desert takes no
 * token and the letters go on.
 */
#include "tny/catan_board.h"

#include <stdio.h>
#include <string.h>

#include "tny/rng.h"

/* Outer ring counterclockwise from the top-left corner; corners at even
 * indices (0 top left, 7 left, 16 bottom left, 18 bottom right, 11 right,
 * 2 top right). */
static const uint8_t outer[12] = {0, 3, 7, 12, 16, 17, 18, 15, 11, 6, 2, 1};
/* Inner ring counterclockwise; inner[c] lies inside corner c. */
static const uint8_t inner[6] = {4, 8, 13, 14, 10, 5};
#define CENTRE 9

/* The base game's tokens in letter order A..R. */
static const uint8_t tokens[18] = {5, 2, 6,  3, 8, 10, 9, 12, 11,
                                   4, 8, 10, 9, 4, 5,  6, 3,  11};

static const uint8_t terrain_count[6] = {1, 4, 4, 4, 3, 3};
static const char terrain_code[6] = {'D', 'F', 'P', 'W', 'H', 'M'};
static const char *const terrain_short[6] = {"De", "Fo", "Pa",
                                             "Fi", "Hi", "Mo"};
static const char *const terrain_names[6] = {"desert", "forest", "pasture",
                                             "fields", "hills",  "mountains"};

static const uint8_t row_len[5] = {3, 4, 5, 4, 3};

const char *tny_ct_terrain_name(enum tny_ct_terrain t)
{
    return (unsigned)t < 6 ? terrain_names[t] : "?";
}

/* Token letters along the spiral from corner c (the desert skipped). */
static void place_tokens(struct tny_ct_board *b)
{
    uint8_t order[TNY_CT_HEXES];
    int n = 0, k = 0;
    for (int i = 0; i < 12; i++)
        order[n++] = outer[(2 * b->corner + i) % 12];
    for (int i = 0; i < 6; i++)
        order[n++] = inner[(b->corner + i) % 6];
    order[n++] = CENTRE;
    for (int i = 0; i < TNY_CT_HEXES; i++) {
        int pos = order[i];
        if (b->terrain[pos] == TNY_CT_DESERT) {
            b->number[pos] = 0;
            b->letter[pos] = 0;
            continue;
        }
        b->letter[pos] = (char)('A' + k);
        b->number[pos] = tokens[k++];
    }
}

void tny_ct_board_generate(uint64_t seed, int32_t round, int32_t table,
                           struct tny_ct_board *out)
{
    struct tny_rng rng;
    int32_t tiles[TNY_CT_HEXES];
    int n = 0;
    memset(out, 0, sizeof(*out));
    for (int t = 0; t < 6; t++)
        for (int i = 0; i < terrain_count[t]; i++)
            tiles[n++] = t;
    /* One stream per (round, table): 12 bits of table number. */
    tny_rng_derive(&rng, seed, TNY_LOT_BOARD,
                   (uint32_t)round << 12 | ((uint32_t)table & 0xfff));
    tny_rng_shuffle_i32(&rng, tiles, TNY_CT_HEXES);
    for (int i = 0; i < TNY_CT_HEXES; i++)
        out->terrain[i] = (uint8_t)tiles[i];
    out->corner = (uint8_t)tny_rng_below(&rng, 6);
    place_tokens(out);
}

void tny_ct_board_code(const struct tny_ct_board *b, char *buf)
{
    for (int i = 0; i < TNY_CT_HEXES; i++) {
        buf[i] = terrain_code[b->terrain[i] % 6];
        buf[TNY_CT_HEXES + i] = b->letter[i] ? b->letter[i] : '-';
    }
    buf[2 * TNY_CT_HEXES] = ':';
    buf[2 * TNY_CT_HEXES + 1] = (char)('0' + b->corner % 6);
    buf[TNY_CT_CODE_LEN] = '\0';
}

int tny_ct_board_parse(const char *code, struct tny_ct_board *out,
                       struct tny_diag *diag)
{
    uint8_t count[6] = {0};
    memset(out, 0, sizeof(*out));
    if (strlen(code) != TNY_CT_CODE_LEN || code[2 * TNY_CT_HEXES] != ':' ||
        code[TNY_CT_CODE_LEN - 1] < '0' || code[TNY_CT_CODE_LEN - 1] > '5')
        return tny_diag_set(diag, TNY_EINVAL,
                            "board \"%.60s\": expected %d terrain codes, %d "
                            "token letters, ':' and a corner 0..5 (CT-9)",
                            code, TNY_CT_HEXES, TNY_CT_HEXES);
    for (int i = 0; i < TNY_CT_HEXES; i++) {
        const char *t = memchr(terrain_code, code[i], 6);
        if (!t || !code[i])
            return tny_diag_set(diag, TNY_EINVAL,
                                "board: hex %d: terrain '%c' is not one of "
                                "D F P W H M (CT-9)",
                                i, code[i]);
        out->terrain[i] = (uint8_t)(t - terrain_code);
        count[out->terrain[i]]++;
    }
    for (int t = 0; t < 6; t++)
        if (count[t] != terrain_count[t])
            return tny_diag_set(
                diag, TNY_EINVAL, "board: %d %s hexes, expected %d (CT-9)",
                (int)count[t], terrain_names[t], (int)terrain_count[t]);
    out->corner = (uint8_t)(code[TNY_CT_CODE_LEN - 1] - '0');
    place_tokens(out);
    for (int i = 0; i < TNY_CT_HEXES; i++)
        if (code[TNY_CT_HEXES + i] != (out->letter[i] ? out->letter[i] : '-'))
            return tny_diag_set(diag, TNY_EINVAL,
                                "board: hex %d: token '%c' is not the "
                                "spiral's '%c' from corner %d (CT-9)",
                                i, code[TNY_CT_HEXES + i],
                                out->letter[i] ? out->letter[i] : '-',
                                (int)out->corner);
    return TNY_OK;
}

size_t tny_ct_board_text(const struct tny_ct_board *b, char *buf, size_t size)
{
    static const char *const corner_names[6] = {"top left",    "left",
                                                "bottom left", "bottom right",
                                                "right",       "top right"};
    size_t used = 0;
    int pos = 0;
#define PUT(...)                                                               \
    do {                                                                       \
        int w_ = snprintf(used < size ? buf + used : NULL,                     \
                          used < size ? size - used : 0, __VA_ARGS__);         \
        if (w_ > 0)                                                            \
            used += (size_t)w_;                                                \
    } while (0)
    if (size > 0)
        buf[0] = '\0';
    for (int r = 0; r < 5; r++) {
        PUT("%*s", (5 - row_len[r]) * 4, "");
        for (int i = 0; i < row_len[r]; i++, pos++) {
            const char *gap = i + 1 < row_len[r] ? "  " : "";
            if (b->terrain[pos] == TNY_CT_DESERT)
                PUT("%s -- %s", terrain_short[TNY_CT_DESERT], gap);
            else
                PUT("%s%3d%c%s", terrain_short[b->terrain[pos] % 6],
                    (int)b->number[pos], b->letter[pos], gap);
        }
        PUT("\n");
    }
    PUT("Fo forest (wood), Pa pasture (wool), Fi fields (grain),\n"
        "Hi hills (brick), Mo mountains (ore), De desert.\n"
        "Tokens A..R: a spiral from the %s corner,\n"
        "counterclockwise to the centre, the desert skipped (CT-9).\n",
        corner_names[b->corner % 6]);
#undef PUT
    return used;
}
