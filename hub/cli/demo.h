/* demo.h - `tourney demo`: sample events played offline (see demo.c). */
#ifndef TNY_CLI_DEMO_H
#define TNY_CLI_DEMO_H

/* argv[0] is "demo"; returns the process exit status. */
int tny_cli_demo(int argc, char **argv);

#endif
