#!/bin/bash
# test_layering.sh - the table client's files form no call cycle (issue 12):
# from the symbols each object of a static library defines and uses (nm),
# file A depends on file B when A uses a symbol B defines; fails naming
# every pair of files that reach each other (directly or through others),
# with the symbols of each direct call.
#
# Usage: test_layering.sh LIBRARY.a  (ctest passes libtny_table.a)
set -eu
lib=${1:?usage: test_layering.sh LIBRARY.a}
[ -f "$lib" ] || { echo "test_layering: $lib: no such file" >&2; exit 1; }

# "member kind symbol" lines: D = defined (global), U = used.
nm -A -g "$lib" | awk '
    # "LIB:MEMBER:ADDR KIND SYMBOL" or "LIB:MEMBER: U SYMBOL"
    { k = split($1, p, ":"); member = p[k - 1] }
    NF == 3 && $2 ~ /^[TDBRCVWGS]$/ { print member, "D", $3 }
    NF == 3 && $2 == "U" { print member, "U", $3 }
' >"${TMPDIR:-/tmp}/layering.$$"
trap 'rm -f "${TMPDIR:-/tmp}/layering.$$"' EXIT

awk '
    $2 == "D" { def[$3] = $1; files[$1] = 1 }
    $2 == "U" { use[$1, $3] = 1; files[$1] = 1 }
    END {
        n = 0
        for (f in files) name[n++] = f
        for (k in use) {
            split(k, p, SUBSEP)
            a = p[1]; s = p[2]
            if (!(s in def) || def[s] == a) continue
            b = def[s]
            dep[a, b] = 1
            why[a, b] = (why[a, b] == "" ? s : why[a, b] " " s)
        }
        for (i = 0; i < n; i++) for (j = 0; j < n; j++)
            reach[name[i], name[j]] = ((name[i], name[j]) in dep)
        for (k = 0; k < n; k++) for (i = 0; i < n; i++)
            if (reach[name[i], name[k]]) for (j = 0; j < n; j++)
                if (reach[name[k], name[j]]) reach[name[i], name[j]] = 1
        bad = 0
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
            a = name[i]; b = name[j]
            if (!(reach[a, b] && reach[b, a])) continue
            bad++
            printf "cycle: %s and %s reach each other\n", a, b
            if ((a, b) in dep) printf "  %s -> %s: %s\n", a, b, why[a, b]
            if ((b, a) in dep) printf "  %s -> %s: %s\n", b, a, why[b, a]
        }
        if (n < 2) { print "test_layering: fewer than 2 objects read"; exit 1 }
        if (bad) exit 1
        printf "ok: %d files, no call cycle\n", n
    }
' "${TMPDIR:-/tmp}/layering.$$"
