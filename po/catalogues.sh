#!/usr/bin/env bash
# po/catalogues.sh - the message catalogues' tools (po/README.md).
#
#   po/catalogues.sh check            every po/<domain>/: the committed .pot
#                                     is what the extractor makes of today's
#                                     sources; every language of po/LINGUAS
#                                     has a .po with every msgid, none
#                                     untranslated or fuzzy, and
#                                     msgfmt --check passes (ctest
#                                     test_catalogues)
#   po/catalogues.sh update DOMAIN    regenerates po/DOMAIN/DOMAIN.pot and
#                                     merges it into every .po (new strings
#                                     arrive untranslated: translate them)
#
# The extractor of a domain: po/DOMAIN/extract (executable; writes the .pot
# to stdout; the pages use their own), else xgettext over the C files
# listed in po/DOMAIN/POTFILES (paths from the repository's root) with the
# keywords _, N_ and ngettext.  The .pot has no line numbers (file names
# only), so moving a string inside a file needs no update.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export LC_COLLATE=C # globs and sorting the same on every machine

linguas() { grep -v '^[[:space:]]*\(#\|$\)' po/LINGUAS | sed 's/[[:space:]]*#.*//'; }

# extract DOMAIN OUT: today's template of DOMAIN into OUT.
extract() {
    local domain=$1 out=$2 dir=po/$1
    if [ -x "$dir/extract" ]; then
        "$dir/extract" >"$out"
    elif [ -f "$dir/POTFILES" ]; then
        local files=() opts=() pat f
        # POTFILES lines are globs (table-client/*.c) or, starting with
        # "--", more xgettext options (--keyword=say:3 for a function that
        # translates its own format).
        while read -r pat; do
            if [ "${pat#--}" != "$pat" ]; then
                opts+=("$pat")
                continue
            fi
            for f in $pat; do
                [ -f "$f" ] && files+=("$f")
            done
        done < <(grep -v '^[[:space:]]*\(#\|$\)' "$dir/POTFILES")
        xgettext --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ \
            --keyword=ngettext:1,2 --add-comments=TRANSLATORS: \
            --add-location=file --sort-output --no-wrap \
            --package-name="$domain" --msgid-bugs-address=tourney-dev@example.org \
            "${opts[@]}" --force-po -o "$out.c" "${files[@]}"
        sed -i 's/charset=CHARSET/charset=UTF-8/' "$out.c"
        # Pure formats ("%s", "%s: %d") are not messages: only a msgid
        # with a word (two letters in a row; "%lld" counts) is kept.
        msggrep --no-wrap -K -E -e '[A-Za-z]{2}' -o "$out.c2" "$out.c"
        if [ -f "$dir/PRESETFIELDS" ]; then
            # Texts of the format presets the program shows (a time-out
            # procedure, notes): jq paths, one a line.
            presets "$dir/PRESETFIELDS" | msguniq --use-first -o "$out.j" -
            msgcat --use-first --sort-output --no-wrap --add-location=file \
                -o "$out" "$out.c2" "$out.j"
        else
            mv "$out.c2" "$out"
        fi
        rm -f "$out.c" "$out.c2" "$out.j"
    else
        echo "po/catalogues.sh: $dir has neither an extract script nor POTFILES" >&2
        return 1
    fi
}

# presets FIELDS: a .pot of the strings of the format presets that FIELDS
# selects, a line "FILE JQ_PATH" each (formats/tantrix.json
# .table.timeout_procedure?; FILE may be a glob).
presets() {
    local fields=$1 f glob path
    printf 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    grep -v '^[[:space:]]*\(#\|$\)' "$fields" | while read -r glob path; do
        for f in $glob; do
            jq -r --arg f "$f" "$path"' | strings | select(length > 0)
                | "#: \($f)\nmsgid \(tojson)\nmsgstr \"\"\n"' "$f"
        done
    done
}

# The template without its creation date (which changes on every run).
stable() { grep -v '^"POT-Creation-Date:' "$1"; }

update() {
    local domain=$1 dir=po/$1 tmp
    tmp=$(mktemp)
    extract "$domain" "$tmp"
    if [ -f "$dir/$domain.pot" ] && cmp -s <(stable "$tmp") <(stable "$dir/$domain.pot"); then
        rm -f "$tmp"
    else
        mv "$tmp" "$dir/$domain.pot"
    fi
    for lang in $(linguas); do
        if [ -f "$dir/$lang.po" ]; then
            msgmerge --quiet --update --backup=none --no-fuzzy-matching \
                --no-wrap "$dir/$lang.po" "$dir/$domain.pot"
        else
            msginit --no-translator --no-wrap --locale="$lang.UTF-8" \
                --input="$dir/$domain.pot" --output-file="$dir/$lang.po"
            # msginit picks ASCII when the template has no other letter.
            sed -i 's/charset=ASCII/charset=UTF-8/' "$dir/$lang.po"
        fi
    done
    echo "po/$domain: template and catalogues updated; translate what" \
         "'po/catalogues.sh check' lists"
}

# same_stage_names: every stage name translated in two or more domains
# has one translation in each language (first letter's case aside); the
# differing ones are listed.
same_stage_names() {
    python3 - $(linguas) <<'PY'
import re, sys

def entries(path):
    """(msgctxt, msgid) -> msgstr of a --no-wrap catalogue"""
    out, ctx, mid = {}, None, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r'^(msgctxt|msgid|msgstr) "(.*)"$', line.rstrip("\n"))
        if not m:
            if not line.strip():
                ctx = mid = None
            continue
        key, val = m.group(1), m.group(2)
        if key == "msgctxt":
            ctx = val
        elif key == "msgid":
            mid = val
        elif mid:
            out[(ctx, mid)] = val
    return out

stages = ["Swiss", "Knockout", "Elimination", "Top cut", "Preliminary",
          "Final", "Gorn rounds", "Rounds", "Round robin"]
where = {"tourney": "stage", "tourney-table": None, "tourney-pages": None}
bad = 0
for lang in sys.argv[1:]:
    cats = {d: entries(f"po/{d}/{lang}.po") for d in where}
    for s in stages:
        got = {d: cats[d].get((c, s)) for d, c in where.items()}
        got = {d: v for d, v in got.items() if v}
        if len({v[:1].lower() + v[1:] for v in got.values()}) > 1:
            print(f"po/*/{lang}.po: the stage \"{s}\" has several names: " +
                  ", ".join(f"{d} \"{v}\"" for d, v in got.items()))
            bad = 1
sys.exit(bad)
PY
}

check() {
    local bad=0 tmp stats domain dir
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    for dir in po/*/; do
        dir=${dir%/}
        domain=${dir#po/}
        if [ ! -f "$dir/$domain.pot" ]; then
            echo "$dir: no template $domain.pot (po/catalogues.sh update $domain)"
            bad=1
            continue
        fi
        if ! extract "$domain" "$tmp/$domain.pot"; then
            bad=1
            continue
        fi
        if ! diff -u <(stable "$dir/$domain.pot") <(stable "$tmp/$domain.pot") \
                >"$tmp/diff"; then
            echo "$dir/$domain.pot: not what today's sources give (a string" \
                 "was added, changed or removed; run po/catalogues.sh update" \
                 "$domain, then translate):"
            grep '^[-+]msgid' "$tmp/diff" | head -20 | sed 's/^/  /'
            bad=1
        fi
        for lang in $(linguas); do
            local po=$dir/$lang.po
            if [ ! -f "$po" ]; then
                echo "$po: missing (po/LINGUAS lists $lang)"
                bad=1
                continue
            fi
            # Every msgid of the template is in the catalogue.
            if ! msgcmp --use-untranslated "$po" "$tmp/$domain.pot" 2>"$tmp/cmp"; then
                echo "$po: messages missing (run po/catalogues.sh update $domain):"
                sed 's/^/  /' "$tmp/cmp" | head -20
                bad=1
            fi
            if ! grep -q "^\"Language: $lang\\\\n\"" "$po"; then
                echo "$po: the header's Language is not $lang"
                bad=1
            fi
            if ! grep -q '^"Content-Type: text/plain; charset=UTF-8' "$po"; then
                echo "$po: the header's charset is not UTF-8"
                bad=1
            fi
            if ! grep -q '^"Plural-Forms: nplurals=' "$po"; then
                echo "$po: no Plural-Forms header"
                bad=1
            fi
            if ! stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po" 2>&1); then
                echo "$po: msgfmt --check fails:"
                echo "$stats" | sed 's/^/  /'
                bad=1
                continue
            fi
            if echo "$stats" | grep -Eq 'fuzzy|untranslated'; then
                echo "$po: $stats"
                msgattrib --only-fuzzy --no-wrap "$po" 2>/dev/null | grep '^msgid "' | grep -v '^msgid ""$' | head -10 | sed 's/^/  fuzzy: /'
                msgattrib --untranslated --no-wrap "$po" 2>/dev/null | grep '^msgid "' | grep -v '^msgid ""$' | head -10 | sed 's/^/  untranslated: /'
                bad=1
            fi
            # Obsolete entries (#~) are strings the code no longer has.
            if grep -q '^#~ msgid' "$po"; then
                echo "$po: obsolete entries (#~): remove them (msgattrib --no-obsolete)"
                bad=1
            fi
        done
    done
    # A stage's name is one name for the players: the table's screen
    # (tourney-table), the hall and phone pages (tourney-pages) and the
    # dashboard and printouts (tourney, msgctxt "stage") say it alike, up
    # to the case of the first letter.
    if ! same_stage_names; then
        bad=1
    fi
    if [ "$bad" -ne 0 ]; then
        echo "catalogues: incomplete (see above)"
        return 1
    fi
    echo "catalogues: complete ($(ls -d po/*/ | wc -l) domains;" \
         "languages en $(linguas | tr '\n' ' '))"
}

case "${1:-}" in
check) check ;;
update)
    [ $# -eq 2 ] || { echo "usage: $0 update DOMAIN" >&2; exit 2; }
    [ -d "po/$2" ] || { echo "po/catalogues.sh: no directory po/$2" >&2; exit 2; }
    update "$2"
    ;;
*)
    echo "usage: $0 check | update DOMAIN" >&2
    exit 2
    ;;
esac
