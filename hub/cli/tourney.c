/* tourney.c - the organiser's command-line program: offline commands.
 *
 * Implements the contract of event-file.md: `standings`, `pair`, `formats`
 * and `format` on JSON event files, and `import`/`export` of other tools'
 * files (tny/import.h), with nothing written anywhere but stdout and
 * stderr.  Each subcommand is one row of the command table
 * below (name, arguments, help, handler); adding a command (the hub
 * console's, later) is adding a row.
 *
 * Exit status: 0 success; 1 internal failure (out of memory, stdout
 * unwritable); 2 usage (unknown command or option, missing argument,
 * unreadable or oversized file, unknown preset); 3 invalid event (one
 * line on stderr naming the key or value, as the adapter reports it).
 * Input files are read whole with a 256 MiB limit.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_lang.h"
#include "cli_out.h"
#include "console.h"
#include "demo.h"
#include "print.h"
#include "ratings.h"
#include "schema.h"
#include "tny/catan_board.h"
#include "tny/crash.h"
#include "tny/error.h"
#include "tny/event.h"
#include "tny/game.h"
#include "tny/i18n_io.h"
#include "tny/import.h"
#include "tny/json_io.h"
#include "tny/lots.h"
#include "tny/pair.h"
#include "tny/presets.h"
#include "tny/csv_io.h"
#include "tny/standings.h"

#ifndef TNY_VERSION
#define TNY_VERSION "0.0.0"
#endif

enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,
    EXIT_USAGE = 2,
    EXIT_INVALID = 3,
};

struct cli {
    bool explain; /* --explain: also print the pairing explanation */
    bool csv;     /* --csv: standings as CSV */
};

struct command {
    const char *name;
    const char *args; /* argument synopsis for --help */
    int n_args;
    const char *help;
    int (*run)(const struct cli *cli, char **args);
};

/* One line on stderr; control characters from user data are replaced so
 * that the message stays one line. */
static void report(const char *prefix, const char *msg)
{
    if (prefix)
        fputs(prefix, stderr);
    for (const char *c = msg; *c; c++)
        fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, stderr);
    fputc('\n', stderr);
}

static int exit_for(int rc)
{
    switch (rc) {
    case TNY_OK: return EXIT_OK;
    case TNY_ENOMEM: return EXIT_INTERNAL;
    case TNY_ERANGE: return EXIT_USAGE; /* file too large */
    default: return EXIT_INVALID;
    }
}

/* Reads all of path ("-" = stdin) into a NUL-terminated heap buffer of at
 * most TNY_JSON_MAX_BYTES: a regular file into a buffer of its size, read
 * once (issue 17: no growing buffer, no copy).  On failure prints one line
 * and returns false. */
static bool read_file(const char *path, char **out, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t used = 0, cap = 0;
    struct stat st;
    bool ok = false;
    *out = NULL;
    *len = 0;
    if (!f) {
        fprintf(stderr, "tourney: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    /* One byte more than the file, so that its end is seen without
     * growing; a file that grows meanwhile is read on as a stream. */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size <= TNY_JSON_MAX_BYTES) {
        cap = (size_t)st.st_size + 1;
        if (!(buf = malloc(cap + 1))) {
            fprintf(stderr, "tourney: %s: out of memory\n", path);
            goto out;
        }
    }
    for (;;) {
        if (used == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > (size_t)TNY_JSON_MAX_BYTES + 1)
                ncap = (size_t)TNY_JSON_MAX_BYTES + 1;
            if (ncap <= used) {
                fprintf(stderr, "tourney: %s: larger than %u bytes\n", path,
                        TNY_JSON_MAX_BYTES);
                goto out;
            }
            char *nbuf = realloc(buf, ncap + 1);
            if (!nbuf) {
                fprintf(stderr, "tourney: %s: out of memory\n", path);
                goto out;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0) {
            if (ferror(f)) {
                fprintf(stderr, "tourney: cannot read %s: %s\n", path,
                        strerror(errno));
                goto out;
            }
            break;
        }
    }
    if (used > TNY_JSON_MAX_BYTES) {
        fprintf(stderr, "tourney: %s: larger than %u bytes\n", path,
                TNY_JSON_MAX_BYTES);
        goto out;
    }
    buf[used] = '\0';
    *out = buf;
    *len = used;
    buf = NULL;
    ok = true;
out:
    free(buf);
    if (f != stdin)
        fclose(f);
    return ok;
}

/* Loads and validates an event file; on failure reports and returns the
 * exit status (else EXIT_OK with *ev filled). */
static int load_event(const char *path, struct tny_event *ev)
{
    char *text;
    size_t len;
    struct tny_diag diag = {{0}};
    tny_event_init(ev);
    if (!read_file(path, &text, &len))
        return EXIT_USAGE;
    int rc = tny_event_from_json_buffer(text, len, ev, &diag);
    free(text);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        return exit_for(rc);
    }
    /* An active player missing from a round is a warning, not an error:
     * the organiser says why with a drop or event.absences. */
    char gaps[2048];
    if (tny_event_unexplained_absences(ev, gaps, sizeof(gaps)) > 0)
        for (char *line = strtok(gaps, "\n"); line; line = strtok(NULL, "\n"))
            report("tourney: warning: ", line);
    return EXIT_OK;
}

static int emit(char *text)
{
    int status = EXIT_OK;
    if ((fputs(text, stdout) == EOF || fflush(stdout) == EOF) &&
        !tny_cli_reader_gone(stdout, errno)) {
        fprintf(stderr, "tourney: cannot write output: %s\n", strerror(errno));
        status = EXIT_INTERNAL;
    }
    free(text);
    return status;
}

static int cmd_standings(const struct cli *cli, char **args)
{
    struct tny_event ev;
    struct tny_standings st;
    struct tny_diag diag = {{0}};
    char *text = NULL;
    int status = load_event(args[0], &ev);
    if (status != EXIT_OK)
        return status;
    memset(&st, 0, sizeof(st));
    int rc = tny_standings_compute(&ev, &st, &diag);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = exit_for(rc);
        goto out;
    }
    rc = cli->csv ? tny_standings_to_csv(&ev, &st, &text)
                  : tny_standings_to_json(&ev, &st, &text);
    tny_standings_release(&st);
    if (rc < 0) {
        report("tourney: ", tny_strerror(rc));
        status = EXIT_INTERNAL;
        goto out;
    }
    status = emit(text);
out:
    tny_event_release(&ev);
    return status;
}

static int cmd_pair(const struct cli *cli, char **args)
{
    struct tny_event ev;
    struct tny_round_plan plan;
    struct tny_diag diag = {{0}};
    char *text = NULL;
    int status = load_event(args[0], &ev);
    if (status != EXIT_OK)
        return status;
    memset(&plan, 0, sizeof(plan));
    int rc = tny_pair_next(&ev, &plan, &diag);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = exit_for(rc);
        goto out;
    }
    if (cli->explain && plan.explain)
        fprintf(stderr, "%s\n", plan.explain);
    rc = tny_round_plan_to_json(&ev, &plan, &text);
    tny_round_plan_release(&plan);
    if (rc < 0) {
        report("tourney: ", tny_strerror(rc));
        status = EXIT_INTERNAL;
        goto out;
    }
    status = emit(text);
out:
    tny_event_release(&ev);
    return status;
}

static int cmd_results(const struct cli *cli, char **args)
{
    struct tny_event ev;
    char *text = NULL;
    (void)cli;
    int status = load_event(args[0], &ev);
    if (status != EXIT_OK)
        return status;
    int rc = tny_results_to_csv(&ev, &text);
    if (rc < 0) {
        report("tourney: ", tny_strerror(rc));
        status = EXIT_INTERNAL;
    } else {
        status = emit(text);
    }
    tny_event_release(&ev);
    return status;
}

/* CM-4: every lot of the event with its purpose and outcome. */
static int cmd_lots(const struct cli *cli, char **args)
{
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    char *text = NULL;
    (void)cli;
    int status = load_event(args[0], &ev);
    if (status != EXIT_OK)
        return status;
    int rc = tny_lots_text(&ev, &text, &diag);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        status = exit_for(rc);
    } else {
        status = emit(text);
    }
    tny_event_release(&ev);
    return status;
}

/* CT-9: the random board of every table of the event's last round, as
 * text to print (one board per table, a form feed between tables). */
static int cmd_boards(const struct cli *cli, char **args)
{
    struct tny_event ev;
    (void)cli;
    int status = load_event(args[0], &ev);
    if (status != EXIT_OK)
        return status;
    const bool boards = tny_game_ops_of(ev.format.game)->boards;
    if (!boards || ev.n_rounds == 0) {
        report("tourney: boards: ",
               !boards ? "only a Catan event has random boards (CT-9)"
                       : "the event has no round yet: pair one first");
        tny_event_release(&ev);
        return EXIT_USAGE;
    }
    const struct tny_round *round = &ev.rounds[ev.n_rounds - 1];
    for (int32_t t = 0; t < round->n_tables && status == EXIT_OK; t++) {
        const struct tny_table *tb = &round->tables[t];
        struct tny_ct_board b;
        char text[1024];
        if (tb->is_bye)
            continue;
        tny_ct_board_generate(ev.seed, ev.n_rounds, tb->number, &b);
        tny_ct_board_text(&b, text, sizeof(text));
        if (printf("%sRound %d, table %d (CT-9)\n\n%s", t > 0 ? "\f" : "",
                   (int)ev.n_rounds, (int)tb->number, text) < 0) {
            if (tny_cli_reader_gone(stdout, errno))
                break;
            fprintf(stderr, "tourney: cannot write output: %s\n",
                    strerror(errno));
            status = EXIT_INTERNAL;
        }
    }
    tny_event_release(&ev);
    return status;
}

static int cmd_formats(const struct cli *cli, char **args)
{
    (void)cli;
    (void)args;
    for (const struct tny_preset *p = tny_presets; p->name; p++)
        printf("%s\n", p->name);
    if (fflush(stdout) == EOF && !tny_cli_reader_gone(stdout, errno)) {
        fprintf(stderr, "tourney: cannot write output: %s\n", strerror(errno));
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

static int cmd_format(const struct cli *cli, char **args)
{
    struct tny_format *fmt = malloc(sizeof(*fmt));
    struct tny_diag diag = {{0}};
    char *text = NULL;
    int status;
    (void)cli;
    if (!fmt) {
        report("tourney: ", tny_strerror(TNY_ENOMEM));
        return EXIT_INTERNAL;
    }
    int rc = tny_format_preset(args[0], fmt, &diag);
    if (rc == TNY_ENOTFOUND) {
        report("tourney: ", diag.msg);
        status = EXIT_USAGE;
    } else if (rc < 0) {
        report("tourney: ", diag.msg);
        status = EXIT_INTERNAL;
    } else if ((rc = tny_format_to_json(fmt, &text)) < 0) {
        report("tourney: ", tny_strerror(rc));
        status = EXIT_INTERNAL;
    } else {
        status = emit(text);
    }
    free(fmt);
    return status;
}

/* import KIND FILE: another tool's file as an event file on stdout. */
static int cmd_import(const struct cli *cli, char **args)
{
    enum tny_import_kind kind;
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    char *text = NULL, *out = NULL;
    size_t len;
    (void)cli;
    if (tny_import_kind_from_name(args[0], &kind) < 0) {
        fprintf(stderr,
                "tourney: import: unknown kind \"%s\" (expected "
                "listfortress, cryodex or nrtm)\n",
                args[0]);
        return EXIT_USAGE;
    }
    if (!read_file(args[1], &text, &len))
        return EXIT_USAGE;
    struct tny_import_warnings warn;
    int rc = tny_import_warn(kind, text, len, &ev, &warn, &diag);
    free(text);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        return exit_for(rc);
    }
    /* Kept with a warning (issue 19): each names its place in the file. */
    for (int32_t i = 0; i < warn.n; i++)
        fprintf(stderr, "warning: %s\n", warn.lines[i]);
    tny_import_warnings_release(&warn);
    rc = tny_event_to_json(&ev, &out);
    tny_event_release(&ev);
    if (rc < 0) {
        report("tourney: ", tny_strerror(rc));
        return EXIT_INTERNAL;
    }
    return emit(out);
}

/* export KIND EVENT: the event in another tool's schema on stdout. */
static int cmd_export(const struct cli *cli, char **args)
{
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    char *out = NULL;
    int rc;
    (void)cli;
    if (strcmp(args[0], "listfortress") != 0 && strcmp(args[0], "nrtm") != 0) {
        fprintf(stderr,
                "tourney: export: unknown kind \"%s\" (expected "
                "listfortress or nrtm)\n",
                args[0]);
        return EXIT_USAGE;
    }
    int status = load_event(args[1], &ev);
    if (status != EXIT_OK)
        return status;
    rc = strcmp(args[0], "nrtm") == 0
             ? tny_export_nrtm(&ev, &out, &diag)
             : tny_export_listfortress(&ev, &out, &diag);
    tny_event_release(&ev);
    if (rc < 0) {
        report(NULL, diag.msg[0] ? diag.msg : tny_strerror(rc));
        return exit_for(rc);
    }
    return emit(out);
}

static const struct command commands[] = {
    {"standings", "EVENT.json", 1,
     "print the standings after the completed rounds (JSON; --csv: CSV)",
     cmd_standings},
    {"results", "EVENT.json", 1,
     "print every table's result as CSV, one row per player and round",
     cmd_results},
    {"pair", "EVENT.json", 1,
     "print the next round's pairings and seating (JSON); with --explain "
     "also the reasoning on stderr",
     cmd_pair},
    {"lots", "EVENT.json", 1,
     "print every lot with its purpose and outcome (CM-4)", cmd_lots},
    {"boards", "EVENT.json", 1,
     "print the random board (CT-9) of every table of the last round, to "
     "print",
     cmd_boards},
    {"formats", "", 0, "list the shipped format presets, one per line",
     cmd_formats},
    {"format", "NAME", 1,
     "print a preset's full definition (JSON), to copy and edit", cmd_format},
    {"import", "KIND FILE", 2,
     "another tool's event (listfortress, cryodex, nrtm) as an event file",
     cmd_import},
    {"export", "KIND EVENT", 2,
     "the event as another tool's file (listfortress, nrtm)", cmd_export},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *to)
{
    fputs("usage: tourney [--explain] [--csv] COMMAND [ARGS]\n"
          "       tourney --help | --version\n\ncommands:\n",
          to);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(to, "  %-10s %-11s %s\n", commands[i].name, commands[i].args,
                commands[i].help);
    fputs("  demo       [OPTIONS]   play sample events offline with simulated "
          "results\n"
          "  ratings    PAST.json... Elo ratings from past events, oldest "
          "first (AG-2)\n"
          "  print      WHAT EVENT.json  pairings|slips|standings|final as "
          "HTML, --pdf FILE (tourney print --help)\n"
          "  live       COMMAND...  drive the hub over MQTT (tourney live "
          "--help)\n"
          "  result-schema [--js] every game's result keys and ranges (JSON) "
          "for the table page\n",
          to);
    fputs("\nEVENT.json may be - for standard input.\n"
          "exit status: 0 ok, 1 internal error, 2 usage, 3 invalid event\n",
          to);
}

int main(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"explain", no_argument, NULL, 'e'},
        {"csv", no_argument, NULL, 'c'},
        {NULL, 0, NULL, 0},
    };
    struct cli cli = {false, false};
    int opt;

    tny_crash_report_install("tourney");
    /* A closed pipe (`| head`) is an EPIPE the output paths end on
     * quietly, in every command alike (cli_out.h); Paho ignores SIGPIPE
     * for the live commands anyway. */
    signal(SIGPIPE, SIG_IGN);
    /* Names on the dashboard in the locale's character set; numbers in
     * the C form (JSON, CSV and outputs never get a decimal comma). */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* What players read (printouts, the dashboard's hall texts) comes
     * from the `tourney` catalogue; the organiser's messages stay English. */
    tny_i18n_open(HUB_LANG_DOMAIN);

    /* Commands with options of their own parse their whole argv. */
    if (argc >= 2 && strcmp(argv[1], "demo") == 0)
        return tny_cli_demo(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "print") == 0)
        return tny_cli_print(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "ratings") == 0)
        return tny_cli_ratings(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "live") == 0)
        return tny_cli_live(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "result-schema") == 0)
        return tny_cli_result_schema(argc - 1, argv + 1);

    opterr = 0; /* we print our own one-line message */
    while ((opt = getopt_long(argc, argv, "hV", long_options, NULL)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return EXIT_OK;
        case 'V': printf("tourney %s\n", TNY_VERSION); return EXIT_OK;
        case 'e': cli.explain = true; break;
        case 'c': cli.csv = true; break;
        default:
            fprintf(stderr,
                    "tourney: unknown option \"%s\" (try tourney "
                    "--help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs("tourney: missing command (try tourney --help)\n", stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[optind];
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const struct command *c = &commands[i];
        if (strcmp(c->name, name) != 0)
            continue;
        int given = argc - optind - 1;
        if (given != c->n_args) {
            fprintf(stderr, "tourney: %s: expected %s%s (try tourney --help)\n",
                    c->name, c->n_args ? c->args : "no arguments",
                    given > c->n_args ? ", got more" : "");
            return EXIT_USAGE;
        }
        if (cli.explain && c->run != cmd_pair) {
            fprintf(stderr, "tourney: %s: --explain is an option of pair\n",
                    c->name);
            return EXIT_USAGE;
        }
        return c->run(&cli, argv + optind + 1);
    }
    fprintf(stderr, "tourney: unknown command \"%s\" (try tourney --help)\n",
            name);
    return EXIT_USAGE;
}
