/* fuzz_json_doc.c - fuzz target: the document reader of the input files
 * (common/io/jdoc.c, yajl), differentially against jansson: for every
 * input it must accept exactly what tny__load accepts, with the same
 * values in the same order, and refuse the rest with jansson's message
 * (issue 17 item 4: the event file's contract and messages stay); read in
 * place (a copy of the input, as the CLI reads its file), the same, and a
 * refused text given back unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "io_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tny_jdoc fast, ref;
    struct tny_diag d_fast = {{0}}, d_ref = {{0}};
    json_t *root = NULL;

    if (size > 262144)
        return 0;
    struct tny_jdoc placed;
    struct tny_diag d_placed = {{0}};
    char *copy = fuzz_copy(data, size);
    if (!copy)
        return 0;
    int rc_fast =
        tny__jdoc_parse(&fast, (const char *)data, size, "doc", &d_fast);
    int rc_ref = tny__load((const char *)data, size, "doc", &root, &d_ref);
    int rc_placed =
        tny__jdoc_parse_in_place(&placed, copy, size, "doc", &d_placed);
    fuzz_check(rc_fast == rc_ref);
    fuzz_check(rc_placed == rc_ref);
    if (rc_fast < 0) {
        fuzz_check(strcmp(d_fast.msg, d_ref.msg) == 0);
        fuzz_check(strcmp(d_placed.msg, d_ref.msg) == 0);
        fuzz_check(size == 0 || memcmp(copy, data, size) == 0);
        free(copy);
        return 0;
    }
    fuzz_check(tny__jdoc_from_json(&ref, root) == 0);
    fuzz_check(tny__jv_equal(fast.root, ref.root));
    fuzz_check(tny__jv_equal(placed.root, ref.root));
    tny__jdoc_release(&ref);
    tny__jdoc_release(&fast);
    tny__jdoc_release(&placed);
    json_decref(root);
    free(copy);
    return 0;
}
