#!/bin/bash
# The user docs name only what exists: files and folders, plugin
# arguments, pmopt's and perfinst-ld's options, PERFINST_ variables and the
# words of the messages they show (scripts/check-docs.py); and the check
# itself catches a name that is gone.
. "$PERFINST_TOP/tests/lib.sh"
python3 "$PERFINST_TOP/scripts/check-docs.py" "$PERFINST_TOP" > out 2>&1 || { cat out; fail "the docs name what the tree does not have"; }
cat out

# The check on a copy of the tree whose docs name things that are not there.
mkdir tree
git -C "$PERFINST_TOP" ls-files -z | (cd "$PERFINST_TOP" && xargs -0 cp --parents -t "$OLDPWD/tree") 2>/dev/null
git -C tree init -q && git -C tree add -A > /dev/null
var=PERFINST_NOSUCH_$(echo VARIABLE) # (spelled apart: this script is a file the check reads)
cat >> tree/docs/guide.md <<MD

See \`runtime/nosuch.c\` and [the plan](../optimizer/gone.c); build with
\`-fplugin-arg-perfinst-nosuchkey=1\`; run \`pmopt report --nosuch-option prog run.pit\`
with \`$var=1\`:

\`\`\`
perfinst: the widget was frobnicated beyond repair
\`\`\`
MD
# a plugin file and a unit test left out of their tables
sed -i '/^| `pass-blocking.cc` |/d' tree/docs/design.md
sed -i '/^| `order.c` |/d' tree/docs/testing.md
git -C tree add -A > /dev/null
if python3 "$PERFINST_TOP/scripts/check-docs.py" tree > bad.out 2>&1; then cat bad.out; fail "names that do not exist passed"; fi
for what in "no file or folder runtime/nosuch.c" "no file or folder optimizer/gone.c" \
    "-fplugin-arg-perfinst-nosuchkey: plugin_init knows no such key" \
    "pmopt --nosuch-option: no such option" "$var: used by no source" \
    'message words not in any source: "the widget was frobnicated beyond repair"' \
    "gcc-plugin/pass-blocking.cc is not in the plugin's file table" \
    "tests/unit/order.c is not in the unit tests' table"; do
    grep -qF -- "$what" bad.out || { cat bad.out; fail "not caught: $what"; }
    ok "caught: $what"
done
