/* demo.c - `tourney demo`: plays sample events offline, round by round.
 *
 * For each format (or the one named) it registers generated players, then
 * repeats: pair the next round with the engine, let simulated tables play
 * it (tny_simulate_result), print the pairings with results and the
 * standings.  It shows the engine end to end without a broker or a hub and
 * can write the finished event file for `tourney standings` to check.
 */
#include "demo.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tny/game.h"
#include "tny/json_io.h"
#include "tny/pair.h"
#include "tny/simulate.h"
#include "tny/standings.h"

/* The five seed rule sets play by default; the others on request. */
static const char *const demo_formats[] = {
    "neuroshima-hex", "tantrix",  "agricola",      "got-lcg2",     "catan",
    "xwing-2.0",      "swiss-2p", "netrunner-sss", "netrunner-dss"};
#define N_DEFAULT_DEMOS 5

static const char *const first_names[] = {
    "Anna",   "Bartek", "Csilla",  "Dagny",   "Emil", "Fruzsina", "Gustav",
    "Hana",   "Igor",   "Jana",    "Kristof", "Liv",  "Marek",    "Nora",
    "Ondrej", "Petra",  "Quentin", "Rita",    "Sven", "Tereza",   "Ulla",
    "Viktor", "Wanda",  "Xenia",   "Yusuf",   "Zofia"};
static const char *const last_names[] = {
    "Nowak",  "Kovacs", "Hansen", "Novak", "Berg",  "Szabo", "Lind", "Dvorak",
    "Wojcik", "Toth",   "Olsen",  "Kral",  "Mazur", "Nagy",  "Dahl"};

static const char *name_of(const struct tny_event *ev, int32_t p)
{
    return ev->players[p].name;
}

/* The table's result in one line (game.h result_line). */
static void print_result(const struct tny_event *ev, const struct tny_table *t)
{
    const struct tny_game_ops *shape = tny_game_shape_of(ev->format.game);
    const char *names[TNY_MAX_SEATS];
    char line[512] = "";
    for (int32_t s = 0; s < t->n_seats && s < TNY_MAX_SEATS; s++)
        names[s] = name_of(ev, t->seats[s]);
    if (shape && shape->result_line)
        shape->result_line(&t->result, t->n_seats, names, line, sizeof line);
    fputs(line, stdout);
}

static void print_round(const struct tny_event *ev, int32_t r)
{
    const struct tny_round *round = &ev->rounds[r];
    printf("\nRound %d (%s)\n", (int)(r + 1),
           tny_stage_kind_name(round->stage));
    for (int32_t t = 0; t < round->n_tables; t++) {
        const struct tny_table *tb = &round->tables[t];
        if (tb->is_bye) {
            printf("  bye       %s\n", name_of(ev, tb->seats[0]));
            continue;
        }
        printf("  table %-3d ", (int)tb->number);
        for (int32_t s = 0; s < tb->n_seats; s++)
            printf("%s%s",
                   s ? (ev->format.players_per_table == 2 ? " vs " : ", ") : "",
                   name_of(ev, tb->seats[s]));
        printf("   -> ");
        print_result(ev, tb);
        printf("\n");
    }
}

static void print_standings(const struct tny_event *ev, int32_t top)
{
    struct tny_standings st;
    struct tny_diag diag = {{0}};
    if (tny_standings_compute(ev, &st, &diag) != 0) {
        fprintf(stderr, "tourney demo: standings: %s\n", diag.msg);
        return;
    }
    printf("Standings after round %d%s\n", (int)st.after_round,
           st.stage == TNY_STAGE_ELIMINATION ? " (final classification)" : "");
    for (int32_t i = 0; i < st.n_rows && i < top; i++) {
        const struct tny_standing_row *row = &st.rows[i];
        char pts[32];
        tny_points_text(row->points, pts, sizeof(pts));
        printf("  %3d. %-20s %6s", (int)row->rank, name_of(ev, row->player),
               pts);
        for (int k = 0; k < st.n_tiebreaks; k++) {
            if (!row->has_tiebreak[k] || st.tiebreaks[k] == TNY_TB_LOT)
                continue;
            printf("  %s %.4g", tny_tiebreak_name(st.tiebreaks[k]),
                   row->tiebreaks[k]);
        }
        printf("%s%s\n", row->decided_by_lot ? "  (lot)" : "",
               row->disqualified ? "  DQ"
               : row->dropped    ? "  dropped"
                                 : "");
    }
    if (st.n_rows > top)
        printf("  ... %d more\n", (int)(st.n_rows - top));
    tny_standings_release(&st);
}

static int play_demo(const char *format, int32_t n_players, uint64_t seed,
                     const char *out_path, bool quiet)
{
    struct tny_event ev;
    struct tny_diag diag = {{0}};
    int rc;
    /* The seed as an event file holds it (event-file.md: 0..2^63-1). */
    if (seed > (uint64_t)INT64_MAX) {
        fprintf(stderr,
                "tourney demo: event.seed: expected an integer 0..%lld, got "
                "%llu\n",
                (long long)INT64_MAX, (unsigned long long)seed);
        return 3;
    }
    tny_event_init(&ev);
    if ((rc = tny_format_preset(format, &ev.format, &diag)) != 0) {
        fprintf(stderr, "tourney demo: event.format: %s\n", diag.msg);
        return 3;
    }
    ev.seed = seed;
    struct tny_rng rng;
    tny_rng_seed(&rng, seed);
    const int32_t n_first = 26, n_last = 15;
    uint64_t name_offset = tny_rng_below(&rng, (uint64_t)(n_first * n_last));
    for (int32_t i = 0; i < n_players; i++) {
        char id[32], name[96];
        /* distinct names: walk first x last names from a random start */
        int32_t k = (int32_t)((name_offset + (uint64_t)i * 7) %
                              (uint64_t)(n_first * n_last));
        snprintf(id, sizeof(id), "p%d", (int)(i + 1));
        if (i < n_first * n_last)
            snprintf(name, sizeof(name), "%s %s", first_names[k % n_first],
                     last_names[k / n_first]);
        else
            snprintf(name, sizeof(name), "Player %d", (int)(i + 1));
        int32_t idx;
        if (tny_event_add_player(&ev, id, name, &idx) != 0) {
            tny_event_release(&ev);
            return 1;
        }
        struct tny_player *p = &ev.players[idx];
        p->has_rating = true;
        p->rating = 1300 + (double)tny_rng_below(&rng, 500);
        if (tny_game_ops_of(ev.format.game)->armies &&
            ev.format.n_armies >= 5) {
            p->n_armies = 5; /* NH-10: five different armies */
            int32_t start =
                (int32_t)tny_rng_below(&rng, (uint64_t)ev.format.n_armies);
            for (int32_t a = 0; a < 5; a++)
                p->armies[a] = (start + a * 3) % ev.format.n_armies;
        }
    }
    if (!quiet)
        printf("== %s: %d players, seed %llu ==\n", ev.format.title,
               (int)n_players, (unsigned long long)seed);
    for (;;) {
        struct tny_round_plan plan;
        tny_simulate_declarations(&ev, &rng); /* NH-11 */
        rc = tny_pair_next(&ev, &plan, &diag);
        if (rc == TNY_ESTATE)
            break;
        if (rc != 0) {
            fprintf(stderr, "tourney demo: %s\n", diag.msg);
            tny_event_release(&ev);
            return 3;
        }
        rc = tny_event_append_round(&ev, &plan);
        tny_round_plan_release(&plan);
        if (rc != 0)
            break;
        struct tny_round *round = &ev.rounds[ev.n_rounds - 1];
        for (int32_t t = 0; t < round->n_tables && rc == 0; t++)
            rc = tny_simulate_result(&ev, ev.n_rounds - 1, round->stage,
                                     &round->tables[t], &rng, &diag);
        if (rc != 0) {
            fprintf(stderr, "tourney demo: %s\n", diag.msg);
            break;
        }
        if (!quiet) {
            print_round(&ev, ev.n_rounds - 1);
            print_standings(&ev, 8);
        }
    }
    if (!quiet) {
        printf("\nFinal standings\n");
        print_standings(&ev, n_players);
    }
    if (out_path) {
        char *json = NULL;
        FILE *f =
            tny_event_to_json(&ev, &json) == 0 ? fopen(out_path, "w") : NULL;
        if (!f || fputs(json, f) < 0) {
            fprintf(stderr, "tourney demo: cannot write %s\n", out_path);
            rc = 1;
        }
        if (f)
            fclose(f);
        free(json);
    }
    tny_event_release(&ev);
    return rc == 0 || rc == TNY_ESTATE ? 0 : 1;
}

int tny_cli_demo(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"players", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"out", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *format = NULL, *out = NULL;
    long players = 0;
    unsigned long long seed = 2026;
    bool quiet = false;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "f:n:s:o:qh", options, NULL)) != -1) {
        char *end = NULL;
        switch (opt) {
        case 'f': format = optarg; break;
        case 'n':
            players = strtol(optarg, &end, 10);
            if (*end || players < 2 || players > 100000) {
                fprintf(stderr,
                        "tourney demo: --players: expected 2..100000, "
                        "got \"%s\"\n",
                        optarg);
                return 2;
            }
            break;
        case 's':
            seed = strtoull(optarg, &end, 10);
            if (*end) {
                fprintf(stderr,
                        "tourney demo: --seed: expected a number, got "
                        "\"%s\"\n",
                        optarg);
                return 2;
            }
            break;
        case 'o': out = optarg; break;
        case 'q': quiet = true; break;
        case 'h':
            printf("usage: tourney demo [--format NAME] [--players N] "
                   "[--seed S] [--out EVENT.json] [--quiet]\n"
                   "Plays a sample event of each format (or NAME) with "
                   "simulated results,\nprinting pairings and standings round "
                   "by round.\n");
            return 0;
        default: return 2;
        }
    }
    if (out && !format) {
        fprintf(stderr, "tourney demo: --out needs --format\n");
        return 2;
    }
    int status = 0;
    const int n_demos =
        format ? (int)(sizeof(demo_formats) / sizeof(demo_formats[0]))
               : N_DEFAULT_DEMOS;
    for (int f = 0; f < n_demos; f++) {
        if (format && strcmp(format, demo_formats[f]) != 0)
            continue;
        int32_t n = (int32_t)players;
        if (n == 0) /* sizes that show each format's features */
            n = f == 2 ? 16 : f == 4 ? 22 : 13;
        status |= play_demo(demo_formats[f], n, seed, out, quiet);
        if (!quiet)
            printf("\n");
        if (format)
            return status;
    }
    struct tny_format *known = format ? malloc(sizeof *known) : NULL;
    if (known && tny_format_preset(format, known, NULL) == TNY_OK) {
        /* any other preset (a new game's): the usual size */
        free(known);
        status = play_demo(format, players ? (int32_t)players : 13, seed, out,
                           quiet);
        if (!quiet)
            printf("\n");
        return status;
    }
    free(known);
    if (format) {
        fprintf(stderr,
                "tourney demo: unknown format \"%s\" (see tourney "
                "formats)\n",
                format);
        return 2;
    }
    return status;
}
