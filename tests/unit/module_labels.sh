#!/usr/bin/env bash
# module_labels.sh LABELS [--keys] POT... - every label of every
# registered game module (LABELS: the program module_labels.c, writes them
# as a .pot; --keys: only its own result keys' labels) is a msgid of each
# template POT (issue 18 item 1: the printout's domain po/tourney, the
# table's po/tourney-table and the pages' po/tourney-pages translate
# them).  A label missing from a template is named with its game; exits 1
# then.
set -euo pipefail
labels=$1
shift
mode=()
if [ "${1:-}" = --keys ]; then
    mode=(--keys)
    shift
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$labels" "${mode[@]}" | msguniq --use-first -o "$tmp/labels.pot" -
# msguniq writes nothing when there is no label (no module has keys of
# its own: --keys).
n=0
[ -f "$tmp/labels.pot" ] && n=$(grep -c '^msgid "[^"]' "$tmp/labels.pot" || true)
if [ "$n" -eq 0 ]; then
    [ ${#mode[@]} -gt 0 ] || { echo "module_labels.sh: the registry gave no label"; exit 1; }
    echo "module labels: no registered module has result keys of its own"
    exit 0
fi
bad=0
for pot in "$@"; do
    # msgcmp DEF REF: every msgid (and context) of REF is in DEF.
    if ! msgcmp --use-untranslated "$pot" "$tmp/labels.pot" 2>"$tmp/err"; then
        echo "$pot: game module labels missing (mark them N_() or NC_()" \
             "in common/games/, then po/catalogues.sh update DOMAIN):"
        # msgcmp names the lines of labels.pot: each such msgid with the
        # comment saying whose label it is.
        sed -n 's/^.*labels\.pot:\([0-9]*\): this message is used but not defined.*/\1/p' \
            "$tmp/err" | while read -r ln; do
            awk -v ln="$ln" 'NR > ln { exit } /^#\. / { who = substr($0, 4) }
                /^msgid / { id = $0 } END { print "  " who ": " id }' \
                "$tmp/labels.pot"
        done
        bad=1
    fi
done
[ "$bad" -eq 0 ] || exit 1
echo "module labels: all $n in $*"
