/* schema.h - `tourney result-schema`: the engine's result schema as JSON
 * for the table page (see schema.c). */
#ifndef TNY_CLI_SCHEMA_H
#define TNY_CLI_SCHEMA_H

/* argv[0] is "result-schema", argv[1..] its options (--js); returns the
 * process exit status. */
int tny_cli_result_schema(int argc, char **argv);

#endif
