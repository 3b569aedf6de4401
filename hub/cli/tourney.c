/* tourney.c - the organiser's command-line program (placeholder main). */
#include <stdio.h>

int main(void)
{
    fputs("tourney: not built yet\n", stderr);
    return 2;
}
