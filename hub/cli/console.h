/* console.h - `tourney live ...`: the organiser console, the hub's
 * commands over MQTT (docs/console.md, docs/protocol.md "Console
 * protocol").
 *
 * Every command that talks to the hub starts with `tourney live`, so that
 * no live command can ever clash with an offline command of the event-file
 * contract (`tourney standings FILE` stays offline; `tourney live
 * standings EVENT_ID` asks the hub).
 *
 * Exit status: 0 ok; 1 internal failure; 2 usage, a missing or bad
 * setting, or the broker refused the login or the request; 3 the hub
 * refused the command (its message on stderr, one line); 4 no answer
 * within the timeout (no broker connection, or the hub did not reply).
 */
#ifndef TNY_CLI_CONSOLE_H
#define TNY_CLI_CONSOLE_H

/* Runs `tourney live ...`; argv[0] is "live".  Returns the exit status. */
int tny_cli_live(int argc, char **argv);

#endif
