/* test_players_csv.c - the organiser's player list as spreadsheets write
 * it (issue 22 item 3, issue 24): Excel's "CSV UTF-8" (a byte order mark),
 * the semicolon-separated CSV of Czech/Polish Excel, a Windows-1250 file
 * (refused with its line and byte and the advice to save as CSV UTF-8), a
 * line break or ESC inside a quoted name (refused naming the row and the
 * column), the unknown-column message listing every header the
 * reader accepts, and Excel's trailing rows of bare delimiters (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "service/players_csv.h"
#include "tny/json_io.h"

static struct tny_format fmt;

static int setup(void **state)
{
    struct tny_diag diag = {{0}};
    (void)state;
    return tny_format_preset("neuroshima-hex", &fmt, &diag);
}

/* Reads text; *n players in *out (free it) or the error in diag. */
static int read_csv(const char *text, struct tny_wire_player **out, int32_t *n,
                    struct tny_diag *diag)
{
    memset(diag, 0, sizeof(*diag));
    return hub_players_csv_read(text, strlen(text), NULL, &fmt, out, n, diag);
}

static void must_refuse(const char *text, const char *needle)
{
    struct tny_wire_player *p = NULL;
    struct tny_diag diag;
    int32_t n = -1;
    int rc = read_csv(text, &p, &n, &diag);
    if (rc == 0)
        fail_msg("accepted %d players, wanted \"%s\"", (int)n, needle);
    assert_int_equal(rc, TNY_EINVAL);
    assert_null(p);
    if (!strstr(diag.msg, needle))
        fail_msg("message \"%s\" lacks \"%s\"", diag.msg, needle);
    /* The message itself never carries the control character. */
    for (const char *c = diag.msg; *c; c++)
        assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
}

/* Item 3: Excel's "CSV UTF-8" starts with a byte order mark; the first
 * header is "Player name", not "\xef\xbb\xbfPlayer name". */
static void test_item3_bom_is_skipped(void **state)
{
    struct tny_wire_player *p = NULL;
    struct tny_diag diag;
    int32_t n = 0;
    (void)state;
    assert_int_equal(read_csv("\xef\xbb\xbfPlayer name,Club\r\n"
                              "Jiří Šebesta,Brno\r\n"
                              "Łukasz Ćwik,Kraków\r\n",
                              &p, &n, &diag),
                     0);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].name, "Jiří Šebesta");
    assert_string_equal(p[1].club, "Kraków");
    free(p);
}

/* Item 3: Czech/Polish Excel separates fields with ';' (the decimal mark
 * is a comma); the delimiter comes from the header line, a quoted field
 * keeps its own semicolons (an army list). */
static void test_item3_semicolon_file_is_read(void **state)
{
    struct tny_wire_player *p = NULL;
    struct tny_diag diag;
    int32_t n = 0;
    (void)state;
    /* A decimal comma (the reason for the semicolons) is read too. */
    assert_int_equal(read_csv("\xef\xbb\xbf"
                              "id;Player name;Team;Elo;armies\r\n"
                              "p1;Jiří Šebesta;Brno, Hex;1490,5;Moloch\r\n"
                              "p2;Anna Nowak;;1510;\"Borgo;Hegemony\"\r\n",
                              &p, &n, &diag),
                     0);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].id, "p1");
    assert_string_equal(p[0].name, "Jiří Šebesta");
    assert_string_equal(p[0].club, "Brno, Hex");
    assert_true(p[0].has_rating && p[0].rating == 1490.5);
    assert_int_equal(p[1].n_armies, 2);
    assert_string_equal(p[1].armies[1], "Hegemony");
    free(p);
    /* A comma file whose names hold semicolons stays a comma file. */
    assert_int_equal(read_csv("name,club\n\"A; B\",C;D\n", &p, &n, &diag), 0);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].name, "A; B");
    assert_string_equal(p[0].club, "C;D");
    free(p);
}

/* Item 3: a Windows-1250 file ("Jiří Šebesta": ř = 0xF8, í = 0xED, Š =
 * 0x8A) is refused at its first byte that is not UTF-8, naming the line
 * and the byte within it and saying what to do. */
static void test_item3_windows_1250_is_refused_with_advice(void **state)
{
    (void)state;
    must_refuse("name,club\nAnna,X\nJi\xf8\xed \x8a"
                "ebesta,Brno\n",
                "csv line 3, byte 3: not UTF-8 (byte 0xF8");
    must_refuse("name,club\nJi\xf8\xed,Brno\n", "save it as \"CSV UTF-8");
    must_refuse("name,club\nJi\xf8\xed,Brno\n",
                "iconv -f WINDOWS-1250 -t UTF-8");
}

/* Item 3: a line break, a tab, ESC or another control character inside a
 * quoted field is refused naming the row (its line) and the column. */
static void test_item3_control_characters_are_refused(void **state)
{
    (void)state;
    must_refuse("id,name\np1,Ann\np2,\"Bob\nBrown\"\n",
                "csv line 3, column name: a line break (U+000A) at "
                "character 4");
    /* The row's line is where it starts, also when its first field
     * holds the line break. */
    must_refuse("name,club\nAnn,X\n\"Eve\r\nRed\",X\n",
                "csv line 3, column name: a line break (U+000D) at "
                "character 4");
    must_refuse("id,name\np1,\"Eve\x1b[31mRed\"\n",
                "csv line 2, column name: an escape (ESC) (U+001B)");
    must_refuse("name,club\nAnn,\"Hex\x07 Club\"\n",
                "csv line 2, column club: a control character (U+0007)");
    must_refuse("name,club\nAnn,\"Hex\tClub\"\n",
                "csv line 2, column club: a tab (U+0009)");
    /* C1 controls (U+0080..U+009F, e.g. U+009B CSI) are control
     * characters too. */
    must_refuse("name\n\"A\xc2\x9b"
                "31mB\"\n",
                "csv line 2, column name: a control character (U+009B)");
    must_refuse("na\x1bme\nAnn\n", "csv line 1, column header: an escape");
}

/* Issue 24: the unknown-column message lists every header the reader
 * accepts, from its one table: each name listed is accepted as a header,
 * and the spreadsheet names organisers use are among them. */
static void
test_issue24_unknown_column_lists_every_accepted_header(void **state)
{
    struct tny_wire_player *p = NULL;
    struct tny_diag diag;
    int32_t n = 0;
    (void)state;
    assert_int_equal(read_csv("name,shoe size\nX,44\n", &p, &n, &diag),
                     TNY_EINVAL);
    const char *list = strstr(diag.msg, "(expected ");
    assert_non_null(list);
    static const char *const known[] = {
        "id",        "name",        "club",         "country",
        "rating",    "armies",      "army",         "external_id",
        "beginner",  "colours",     "colour_blind", "faction",
        "agenda",    "first_round", "hook",         "Player ID",
        "player_id", "Player",      "Player name",  "Full name",
        "Team",      "Nation",      "Elo",          "first_name",
        "last_name", "First name",  "Given name",   "Last name",
        "Surname",   "Family name"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, " %s%s", known[i],
                 strcmp(known[i], "Family name") == 0 ? ";" : "");
        if (!strstr(list, want))
            fail_msg("\"%s\" not listed in: %s", known[i], diag.msg);
    }
    /* Every name in the list is a header the reader takes. */
    char names[512];
    snprintf(names, sizeof names, "%s", list + strlen("(expected "));
    /* The other languages' words are told by reference (the message has
     * 512 bytes): test_localized_headers_are_read reads them. */
    char *others = strstr(names, "; their Czech, Hungarian, Polish and "
                                 "Norwegian names (docs/console.md); any case");
    assert_non_null(others);
    *others = '\0';
    char *save = NULL;
    int32_t listed = 0;
    for (char *t = strtok_r(names, ",;)", &save); t;
         t = strtok_r(NULL, ",;)", &save)) {
        while (*t == ' ')
            t++;
        if (strncmp(t, "also ", 5) == 0)
            t += 5;
        if (!*t)
            continue;
        listed++;
        /* name and its aliases both as a name column would repeat; a
         * given-name column comes with a family-name one. */
        bool name_col = !strcmp(t, "name") || !strcmp(t, "Player") ||
                        !strcmp(t, "Player name") || !strcmp(t, "Full name");
        bool given = !strcmp(t, "first_name") || !strcmp(t, "First name") ||
                     !strcmp(t, "Given name");
        bool family = !strcmp(t, "last_name") || !strcmp(t, "Last name") ||
                      !strcmp(t, "Surname") || !strcmp(t, "Family name");
        char text[128];
        snprintf(text, sizeof text,
                 name_col ? "%s\nX\n"
                 : given  ? "%s,last_name\nX,Y\n"
                 : family ? "first_name,%s\nX,Y\n"
                          : "name,%s\nX,x1\n",
                 t);
        /* x1 may be a bad value for the column; the header is taken. */
        if (read_csv(text, &p, &n, &diag) != 0 &&
            (strstr(diag.msg, "column") == NULL ||
             strstr(diag.msg, "unknown column") != NULL))
            fail_msg("listed header \"%s\" refused: %s", t, diag.msg);
        free(p);
        p = NULL;
    }
    assert_int_equal(listed, (int32_t)(sizeof known / sizeof known[0]));
}

/* Excel writes the rows of a sheet's formatted but empty cells as rows
 * of bare delimiters (";;;" after the players): rows whose every field is
 * empty (or blank) are skipped, wherever they are; the players keep their
 * own line numbers in messages (docs/formats.md, the players CSV). */
static void test_excel_empty_rows_are_skipped(void **state)
{
    struct tny_wire_player *p = NULL;
    struct tny_diag diag;
    int32_t n = 0;
    (void)state;
    assert_int_equal(read_csv("\xef\xbb\xbfid;name;club;armies\r\n"
                              "p1;Łukasz Ćwik;Kraków;\r\n"
                              ";;;\r\n"
                              "p2;Anna Nowak;;\r\n"
                              ";;;\r\n"
                              "; ;\t;\r\n",
                              &p, &n, &diag),
                     0);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].name, "Łukasz Ćwik");
    assert_string_equal(p[1].id, "p2");
    free(p);
    /* a repeat after a skipped row is reported at its own line */
    must_refuse("id;name\r\np1;A\r\n;\r\np1;B\r\n;\r\n",
                "csv line 4: id \"p1\" repeats line 2");
    /* a row with one field given is a player, checked as before */
    must_refuse("id;name;club\r\np1;A;\r\n;;Kraków\r\n", "csv line 3");
}

/* Item 3 (issue of g9): the languages the seeds' events ran in (000/003
 * Polish, 001 Hungarian, 002 Norwegian, 004 Czech) name the columns in
 * their own words, as organisers' sheets there do, often with the given
 * and the family name in two columns.  Headers are compared without case
 * and without diacritics. */
static void test_localized_headers_are_read(void **state)
{
    static const struct {
        const char *csv;
        const char *name0, *club0, *country0;
    } cases[] = {
        /* Czech (seed 004): Jméno + Příjmení are given and family name */
        {"\xef\xbb\xbfJméno;Příjmení;Klub;Země\r\n"
         "Jiří;Šebesta;Brno;CZ\r\n",
         "Jiří Šebesta", "Brno", "CZ"},
        {"JMÉNO,PŘÍJMENÍ,ODDÍL,STÁT\nJiří,Šebesta,Brno,CZ\n", "Jiří Šebesta",
         "Brno", "CZ"},
        /* without Příjmení, Jméno is the whole name */
        {"Jméno;Klub\nJiří Šebesta;Brno\n", "Jiří Šebesta", "Brno", ""},
        {"Hráč,Klub,Země\nJiří Šebesta,Brno,CZ\n", "Jiří Šebesta", "Brno",
         "CZ"},
        /* Hungarian (seed 001) */
        {"Vezetéknév;Keresztnév;Egyesület;Ország\r\n"
         "Szőke;Ödön;Budapest;HU\r\n",
         "Ödön Szőke", "Budapest", "HU"},
        {"Családnév,Utónév,Klub\nSzőke,Ödön,Pécs\n", "Ödön Szőke", "Pécs", ""},
        {"Név,Klub,Ország\nSzőke Ödön,Pécs,HU\n", "Szőke Ödön", "Pécs", "HU"},
        /* Polish (seeds 000, 003); accents left out by hand */
        {"Imię;Nazwisko;Drużyna;Kraj\r\nŁukasz;Ćwik;Kraków;PL\r\n",
         "Łukasz Ćwik", "Kraków", "PL"},
        {"Imie,Nazwisko,Klub\nŁukasz,Ćwik,Kraków\n", "Łukasz Ćwik", "Kraków",
         ""},
        {"Imię i nazwisko;Klub\nŁukasz Ćwik;Kraków\n", "Łukasz Ćwik", "Kraków",
         ""},
        /* Norwegian (seed 002) */
        {"Fornavn;Etternavn;Klubb;Land\r\nKari;Nordmann;Oslo;NO\r\n",
         "Kari Nordmann", "Oslo", "NO"},
        {"Navn,Klubb\nKari Nordmann,Oslo\n", "Kari Nordmann", "Oslo", ""},
        {"Spiller,Land\nKari Nordmann,NO\n", "Kari Nordmann", "", "NO"},
        /* English two-column names */
        {"First name,Last name,Team\nAnna,Nowak,Hex\n", "Anna Nowak", "Hex",
         ""},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tny_wire_player *p = NULL;
        struct tny_diag diag;
        int32_t n = 0;
        if (read_csv(cases[i].csv, &p, &n, &diag) != 0)
            fail_msg("case %zu refused: %s", i, diag.msg);
        assert_int_equal(n, 1);
        assert_string_equal(p[0].name, cases[i].name0);
        assert_string_equal(p[0].club, cases[i].club0);
        assert_string_equal(p[0].country, cases[i].country0);
        assert_string_equal(p[0].id, "p1");
        free(p);
    }
}

/* In an event in Hungarian the two columns make the name family name
 * first, as a Hungarian list writes it and the family-name rules read
 * it there (docs/console.md, "Family names"); a row with only one of the
 * two is that one. */
static void test_two_name_columns_follow_the_event_language(void **state)
{
    struct tny_event ev;
    struct tny_wire_player *p = NULL;
    struct tny_diag diag = {{0}};
    int32_t n = 0;
    const char *csv = "Vezetéknév;Keresztnév\nSzőke;Ödön\n;Madonna\n";
    (void)state;
    memset(&ev, 0, sizeof ev);
    snprintf(ev.language, sizeof ev.language, "hu");
    assert_int_equal(
        hub_players_csv_read(csv, strlen(csv), &ev, &fmt, &p, &n, &diag), 0);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].name, "Szőke Ödön");
    assert_string_equal(p[1].name, "Madonna");
    free(p);
    snprintf(ev.language, sizeof ev.language, "cs");
    assert_int_equal(
        hub_players_csv_read(csv, strlen(csv), &ev, &fmt, &p, &n, &diag), 0);
    assert_string_equal(p[0].name, "Ödön Szőke");
    free(p);
}

/* Name columns that do not fit together, and unknown headers in any
 * language, are refused naming them; nothing is read. */
static void test_name_column_mistakes_are_refused(void **state)
{
    (void)state;
    must_refuse("Imię;Klub\nŁukasz;Kraków\n",
                "column 1 \"Imię\" (first_name) needs a family-name");
    must_refuse("Příjmení,Klub\nŠebesta,Brno\n",
                "column 1 \"Příjmení\" (last_name) needs a given-name");
    must_refuse("name,Fornavn,Etternavn\nKari Nordmann,Kari,Nordmann\n",
                "columns 1 \"name\" (name) and 2 \"Fornavn\" (first_name) "
                "both give the name");
    must_refuse("Navn,Spiller\nA,B\n", "columns 1 and 2 are both name");
    must_refuse("Jméno,Velikost bot\nJiří,44\n",
                "unknown column \"Velikost bot\"");
    must_refuse("Jméno,Velikost bot\nJiří,44\n",
                "their Czech, Hungarian, Polish and Norwegian names");
    must_refuse("Imię;Nazwisko;Klub\nAnna;Nowak;X\n;;Kraków\n",
                "csv line 3: a name is required");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_item3_bom_is_skipped),
        cmocka_unit_test(test_item3_semicolon_file_is_read),
        cmocka_unit_test(test_item3_windows_1250_is_refused_with_advice),
        cmocka_unit_test(test_item3_control_characters_are_refused),
        cmocka_unit_test(
            test_issue24_unknown_column_lists_every_accepted_header),
        cmocka_unit_test(test_excel_empty_rows_are_skipped),
        cmocka_unit_test(test_localized_headers_are_read),
        cmocka_unit_test(test_two_name_columns_follow_the_event_language),
        cmocka_unit_test(test_name_column_mistakes_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
