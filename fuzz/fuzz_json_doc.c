/* fuzz_json_doc.c - fuzz target: the document reader of the input files
 * (common/io/jdoc.c, yajl), differentially against jansson: for every
 * input it must accept exactly what tny__load accepts, with the same
 * values in the same order, and refuse the rest with jansson's message
 * (issue 17 item 4: the event file's contract and messages stay).
 */
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
    int rc_fast =
        tny__jdoc_parse(&fast, (const char *)data, size, "doc", &d_fast);
    int rc_ref = tny__load((const char *)data, size, "doc", &root, &d_ref);
    fuzz_check(rc_fast == rc_ref);
    if (rc_fast < 0) {
        fuzz_check(strcmp(d_fast.msg, d_ref.msg) == 0);
        return 0;
    }
    fuzz_check(tny__jdoc_from_json(&ref, root) == 0);
    fuzz_check(tny__jv_equal(fast.root, ref.root));
    tny__jdoc_release(&ref);
    tny__jdoc_release(&fast);
    json_decref(root);
    return 0;
}
