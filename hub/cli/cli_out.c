/* cli_out.c - a closed pipe on the tourney program's output told apart
 * from a real write error (cli_out.h). */
#include "cli_out.h"

#include <errno.h>
#include <poll.h>

bool tny_cli_reader_gone(FILE *f, int err)
{
    struct pollfd p = {.fd = fileno(f), .events = POLLOUT};

    if (err == EPIPE)
        return true;
    /* stdio may have reported an earlier EPIPE with errno since reused: a
     * pipe without a reader polls POLLERR. */
    return p.fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}
