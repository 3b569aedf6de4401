/* ratings.h - `tourney ratings`: Elo from past event files (see ratings.c). */
#ifndef TNY_CLI_RATINGS_H
#define TNY_CLI_RATINGS_H

/* argv[0] is "ratings", argv[1..] the event files, oldest first; returns
 * the process exit status. */
int tny_cli_ratings(int argc, char **argv);

#endif
