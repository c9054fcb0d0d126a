#!/bin/bash
# The man pages (docs/man: pmopt.1, perfinst-ld.1, perfinst.7) render
# without a single groff warning, man -l shows their sections, and make
# install puts them under PREFIX/share/man (uninstall removes them).
. "$PERFINST_TOP/tests/lib.sh"
M=$PERFINST_TOP/docs/man
for page in pmopt.1 perfinst-ld.1 perfinst.7; do
    groff -man -ww -z "$M/$page" 2> warn || true
    [ ! -s warn ] || { cat warn; fail "$page: groff warns"; }
    ok "$page: no groff warning"
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$M/$page" > page.txt 2> warn
    [ ! -s warn ] || { cat warn; fail "$page: man -l warns"; }
    for s in NAME SYNOPSIS DESCRIPTION "SEE ALSO"; do
        assert_contains "$page: section $s" page.txt "^$s$"
    done
done
for page in pmopt.1 perfinst-ld.1; do
    man -l "$M/$page" 2> /dev/null | col -b > page.txt
    assert_contains "$page documents the exit status" page.txt "^EXIT STATUS$"
done
unset PERFINST_LIB_DIR
prefix=$PWD/prefix
make -s -C "$PERFINST_TOP" install PREFIX="$prefix" > install.log
for f in man1/pmopt.1 man1/perfinst-ld.1 man7/perfinst.7; do
    [ -e "$prefix/share/man/$f" ] || fail "not installed: share/man/$f"
done
ok "man pages installed"
MANPATH=$prefix/share/man man -w pmopt > where
assert_eq "man finds the installed pmopt(1)" "$prefix/share/man/man1/pmopt.1" "$(cat where)"
make -s -C "$PERFINST_TOP" uninstall PREFIX="$prefix"
[ -z "$(find "$prefix" -type f)" ] || { find "$prefix" -type f; fail "uninstall left files"; }
ok "uninstall removes them"
