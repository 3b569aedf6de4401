#!/usr/bin/env bash
# test_contract.sh - the offline CLI contract (docs/event-file.md), run
# against the real binary: commands, exit codes 0/2/3, one stderr line
# naming the key, nothing on stdout on failure, presets that load back,
# the bad event files of tests/cases/bad/ (each NAME.json has its expected
# message substring on the first line of NAME.expect), the good event files
# of tests/cases/, and a 100,000-player event parsed in bounded time.
# Needs bash, grep, awk and coreutils only (no jq, no python).
#
# usage: bash test_contract.sh /path/to/tourney /path/to/tests
set -u
TOURNEY=${1:?tourney binary}
TESTS=${2:?tests directory}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run EXPECTED_STATUS ARGS... : runs tourney, keeps stdout/stderr in $TMP.
run() {
    local want=$1
    shift
    "$TOURNEY" "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        fail "tourney $*: exit $got, wanted $want; stderr: $(cat "$TMP/err")"
        return 1
    fi
    return 0
}

# one_error_line SUBSTRING : stderr is exactly one line containing it and
# stdout is empty.
one_error_line() {
    local lines
    lines=$(wc -l <"$TMP/err")
    [ "$lines" = 1 ] || fail "$CASE: stderr has $lines lines: $(cat "$TMP/err")"
    grep -qF -- "$1" "$TMP/err" ||
        fail "$CASE: stderr lacks \"$1\": $(cat "$TMP/err")"
    [ -s "$TMP/out" ] && fail "$CASE: stdout not empty on error"
    return 0
}

# --- help, version, usage errors (exit 2) ---
CASE=help
run 0 --help && grep -q '^usage: tourney' "$TMP/out" || fail "--help text"
CASE=version
run 0 --version && grep -q '^tourney [0-9]' "$TMP/out" || fail "--version text"
CASE="no command"
run 2 && one_error_line "missing command"
CASE="unknown command"
run 2 frobnicate && one_error_line 'unknown command "frobnicate"'
CASE="unknown option"
run 2 --frob formats && one_error_line 'unknown option'
CASE="missing argument"
run 2 standings && one_error_line "standings: expected EVENT.json"
CASE="extra argument"
run 2 formats extra && one_error_line "formats: expected no arguments"
CASE="unreadable file"
run 2 standings "$TMP/does-not-exist.json" && one_error_line "cannot read"
CASE="directory"
run 2 pair "$TMP" && one_error_line "cannot read"
CASE="unknown preset"
run 2 format chess && one_error_line 'unknown format "chess"'
CASE="explain elsewhere"
run 2 --explain standings "$TESTS/cases/catan-round.json" &&
    one_error_line "--explain is an option of pair"

# --- formats: the presets, one per line ---
CASE=formats
if run 0 formats; then
    printf 'agricola\ncatan\ngot-lcg2\nnetrunner-dss\nnetrunner-sss\nneuroshima-hex\nswiss-2p\ntantrix\nxwing-2.0\n' >"$TMP/want"
    cmp -s "$TMP/out" "$TMP/want" || fail "formats printed: $(cat "$TMP/out")"
fi

# --- format NAME: JSON that loads back as an event's format object ---
for name in agricola catan got-lcg2 netrunner-sss neuroshima-hex tantrix; do
    CASE="format $name"
    run 0 format "$name" || continue
    grep -q "^  \"name\": \"$name\",\$" "$TMP/out" || fail "$CASE: no name line"
    grep -q '^  "options": {' "$TMP/out" || fail "$CASE: no options"
    [ "$(tail -c 2 "$TMP/out" | head -c 1)" = "}" ] || fail "$CASE: no trailing newline"
    { printf '{"format": '; cat "$TMP/out"; printf ', "players": []}\n'; } \
        >"$TMP/ev.json"
    run 0 standings "$TMP/ev.json" ||
        fail "$CASE: its output is not accepted as a format object"
    # and an edited copy: a typo in a tiebreak is reported by key
    sed 's/^\( *\)"lot"$/\1"lott"/' "$TMP/ev.json" >"$TMP/ev-bad.json"
    run 3 standings "$TMP/ev-bad.json" &&
        one_error_line 'unknown tiebreak "lott"'
done

# --- result-schema: the engine's result schema for the table page ---
CASE="result-schema bad argument"
run 2 result-schema --frob && one_error_line 'result-schema: unknown argument "--frob"'
CASE=result-schema
if run 0 result-schema; then
    for k in '"game": "neuroshima-hex"' '"wire_game": "GAME_AGRICOLA"' '"name": "hq_diff"' \
        '"kind": "per_player"' '"format": "xwing-2.0"'; do
        grep -qF -- "$k" "$TMP/out" || fail "$CASE: no $k"
    done
    # a preset's range is the format's own: NH's HQ difference up to its
    # hq_diff_max, Catan's VP up to its vp_max (tny_result_range)
    cp "$TMP/out" "$TMP/schema.json"
    for fk in 'neuroshima-hex hq_diff hq_diff_max' 'catan vp vp_max' 'tantrix scores score_max'; do
        set -- $fk
        hi=$(awk -v f="\"format\": \"$1\"," -v k="\"$2\": {" '
            index($0, f) { inf = 1 } inf && index($0, k) { ink = 1 }
            ink && /"hi":/ { gsub(/[^0-9-]/, ""); print; exit }' "$TMP/schema.json")
        run 0 format "$1" || continue
        want=$(grep -o "\"$3\": -\?[0-9]*" "$TMP/out" | head -n 1 | grep -o -- '-\?[0-9]*$')
        [ -n "$hi" ] && [ "$hi" = "$want" ] || fail "$CASE: $1's $2 up to '$hi', the format's $3 is '$want'"
    done
fi
CASE="result-schema --js"
if run 0 result-schema --js; then
    sed -n 2p "$TMP/out" | grep -q '^window.TOURNEY_RESULT_SCHEMA = {' || fail "$CASE: $(head -c 200 "$TMP/out")"
    [ "$(tail -n 1 "$TMP/out")" = "};" ] || fail "$CASE: does not end with };"
fi

# --- bad event files: exit 3, one line naming the key ---
n_bad=0
for f in "$TESTS"/cases/bad/*.json; do
    CASE="bad/$(basename "$f")"
    exp="${f%.json}.expect"
    [ -f "$exp" ] || { fail "$CASE: no .expect file"; continue; }
    want=$(head -n 1 "$exp")
    for cmd in standings pair; do
        run 3 "$cmd" "$f" && one_error_line "$want"
    done
    n_bad=$((n_bad + 1))
done
[ "$n_bad" -ge 20 ] || fail "only $n_bad bad cases found"

# --- good event files: standings and pair succeed with contract shape ---
for f in "$TESTS"/cases/*.json; do
    CASE="$(basename "$f")"
    if run 0 standings "$f"; then
        grep -q '^  "after_round": [0-9]*,$' "$TMP/out" || fail "$CASE: after_round"
        grep -q '^  "standings": \[' "$TMP/out" || fail "$CASE: standings key"
        grep -q '"decided_by_lot": ' "$TMP/out" || fail "$CASE: row keys"
        golden="${f%.json}.expect-standings"
        if [ -f "$golden" ]; then
            # "id points" in rank order; "?" stands for a player placed by lot
            got=$(grep -E '^      "(player|points)": ' "$TMP/out" |
                sed -e 's/^[^:]*: //' -e 's/[",]//g' | tr '\n' ' ')
            want=$(grep -v '^#' "$golden")
            awk -v got="$got" -v want="$want" 'BEGIN {
                n = split(got, g, " "); m = split(want, w, " ")
                if (n != m) exit 1
                for (i = 1; i <= n; i++) if (w[i] != "?" && w[i] != g[i]) exit 1
            }' || fail "$CASE: standings $got, wanted $want"
        fi
        cp "$TMP/out" "$TMP/standings1"
        run 0 standings "$f" && cmp -s "$TMP/out" "$TMP/standings1" ||
            fail "$CASE: standings differ between two runs (CM-8)"
    fi
    if run 0 pair "$f"; then
        grep -q '^  "round": [0-9]*,$' "$TMP/out" || fail "$CASE: round"
        grep -q '^  "tables": \[' "$TMP/out" || fail "$CASE: tables key"
        grep -q '^  "explain": ' "$TMP/out" || fail "$CASE: explain key"
        [ -s "$TMP/err" ] && fail "$CASE: pair wrote to stderr without --explain"
        cp "$TMP/out" "$TMP/pair1"
        run 0 pair --explain "$f" && cmp -s "$TMP/out" "$TMP/pair1" ||
            fail "$CASE: pair differs between two runs (CM-4)"
        [ -s "$TMP/err" ] || fail "$CASE: --explain printed nothing"
        # Issue 8: the explanation names players (id and name) and points
        # in the format's units, never internal indices.
        if grep -E -q '(^|[ (,])players? [0-9]+([ ,).]|$)' "$TMP/err"; then
            fail "$CASE: the explanation names a player by index: $(cat "$TMP/err")"
        fi
    fi
done
# The pair-downs of the NH case, as the organiser reads them.
CASE=explain-names
run 0 pair --explain "$TESTS/cases/nh-swiss.json"
grep -q 'p3 Celina Wrona, 4 points (group 1) v p2 Bartek Lis, 3 points (group 2)' "$TMP/err" ||
    fail "$CASE: pair-downs not named by id, name and points: $(cat "$TMP/err")"

# --- stdin ---
CASE=stdin
"$TOURNEY" standings - <"$TESTS/cases/catan-round.json" >"$TMP/out" 2>"$TMP/err" ||
    fail "standings - (stdin) failed: $(cat "$TMP/err")"

# --- CSV: standings (--csv) and results, CT-3 worked example ---
CASE="standings --csv"
if run 0 --csv standings "$TESTS/cases/catan-round.json"; then
    # for Excel: a UTF-8 byte order mark first (docs/console.md)
    [ "$(head -c 3 "$TMP/out" | od -An -tx1 | tr -d ' ')" = efbbbf ] ||
        fail "$CASE: no byte order mark: $(head -c 8 "$TMP/out" | od -An -tx1)"
    head -n 1 "$TMP/out" | sed '1s/^\xef\xbb\xbf//' | grep -q '^"rank","player","name","club","points","success_rate",' ||
        fail "$CASE: header $(head -n 1 "$TMP/out")"
    [ "$(wc -l <"$TMP/out")" = 8 ] || fail "$CASE: $(wc -l <"$TMP/out") lines, want 8"
    # CT-3: f 4 points first (CT-5 success rate), e and g share 2.5
    grep -q '^1,"f","Filip","",4,' "$TMP/out" || fail "$CASE: f not first with 4"
    [ "$(grep -c '^[45],"[eg]",.*,2\.5,' "$TMP/out")" = 2 ] || fail "$CASE: e, g not 4th-5th with 2.5"
fi
CASE="results csv"
if run 0 results "$TESTS/cases/catan-round.json"; then
    [ "$(head -c 3 "$TMP/out" | od -An -tx1 | tr -d ' ')" = efbbbf ] ||
        fail "$CASE: no byte order mark: $(head -c 8 "$TMP/out" | od -An -tx1)"
    head -n 1 "$TMP/out" | sed '1s/^\xef\xbb\xbf//' | tr -d '\r' | grep -qx '"round","stage","table","seat","player","name","result","points"' ||
        fail "$CASE: header $(head -n 1 "$TMP/out")"
    [ "$(wc -l <"$TMP/out")" = 8 ] || fail "$CASE: $(wc -l <"$TMP/out") lines, want 8"
    grep -q '^1,"round",2,1,"e","Emil","8",2\.5' "$TMP/out" || fail "$CASE: e's row"
fi
# A reader gone before the first byte (`| head` that already stopped):
# every write fails with EPIPE; the output ends without a word, exit 0
# (docs/console.md, exit statuses), in every command that prints.
for args in "lots $TESTS/cases/catan-round.json" "results $TESTS/cases/catan-round.json" \
    "--csv standings $TESTS/cases/catan-round.json" "formats"; do
    CASE="closed pipe: $args"
    st=0
    # shellcheck disable=SC2086
    python3 "$TESTS/cli/closed_pipe.py" "$TMP/err" "$TOURNEY" $args || st=$?
    [ "$st" -eq 0 ] || fail "$CASE: exit $st; stderr: $(cat "$TMP/err")"
    [ ! -s "$TMP/err" ] || fail "$CASE: stderr: $(cat "$TMP/err")"
done
CASE="results of a bad file"
run 3 results "$TESTS/cases/bad/$(ls "$TESTS/cases/bad" | grep -m1 '\.json$')" && [ ! -s "$TMP/out" ] ||
    fail "$CASE: output on failure"

# --- 100,000 players: parsed, validated and ranked in bounded time ---
CASE=large
awk 'BEGIN {
    n = 100000
    printf "{\"format\": \"catan\", \"seed\": 1, \"players\": [\n"
    for (i = 1; i <= n; i++)
        printf "{\"id\": \"p%d\", \"name\": \"Player %d\"}%s\n", i, i, (i < n ? "," : "")
    printf "], \"rounds\": [{\"stage\": \"round\", \"tables\": [\n"
    for (t = 1; t <= n / 4; t++) {
        a = 4 * t - 3
        printf "{\"table\": %d, \"players\": [\"p%d\", \"p%d\", \"p%d\", \"p%d\"], ", t, a, a + 1, a + 2, a + 3
        printf "\"result\": {\"vp\": {\"p%d\": 10, \"p%d\": %d, \"p%d\": 7, \"p%d\": 6}}}%s\n", a, a + 1, 8 + t % 2, a + 2, a + 3, (t < n / 4 ? "," : "")
    }
    printf "]}]}\n"
}' >"$TMP/large.json"
start=$(date +%s)
if timeout 120 "$TOURNEY" standings "$TMP/large.json" >"$TMP/out" 2>"$TMP/err"; then
    rows=$(grep -c '"rank": ' "$TMP/out")
    [ "$rows" = 100000 ] || fail "large: $rows standings rows"
else
    fail "large: standings failed or took over 120 s: $(head -c 300 "$TMP/err")"
fi
echo "large event (100,000 players): $(( $(date +%s) - start )) s"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "all contract checks passed"
