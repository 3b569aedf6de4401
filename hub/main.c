/* main.c - tourney-hub: the daemon's entry point; everything else is the
 * tny_hub library (hub/include/hub/hub.h). */
#include "hub/hub.h"
#include "tny/crash.h"

int main(int argc, char **argv)
{
    tny_crash_report_install("tourney-hub");
    return hub_main(argc, argv);
}
