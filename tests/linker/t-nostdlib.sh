#!/bin/bash
# Links that leave out the C library or its start files (-nostdlib,
# -nodefaultlibs, -nostartfiles: freestanding and embedded-style code) with
# perfinst units among the inputs.  The runtime needs libc: a link without
# it is refused naming the output and the input that needs the runtime,
# not ld's hundreds of undefined references, and no output is left; with
# the user's own -lc (even before -lgcc, or with crt files named by hand in
# a static link) the runtime goes before libc and the program counts; a
# link without start files is warned that the constructors registering the
# units run only if the program's own start code runs them.
. "$PERFINST_TOP/tests/lib.sh"
cat > prog.c <<'C'
#include <stdio.h>
static int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 7; return s; }
int main(void) { printf("%d\n", work(100)); return 0; }
C
cat > start.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 7; return s; }
void _start(void) { printf("%d\n", work(100)); exit(0); }
C
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c prog.c -o prog.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c start.c -o start.o

# 1. -nostdlib without -lc: refused, the reason named, no output
for opt in -nostdlib -nodefaultlibs; do
    set +e
    pi_ld -O2 $opt -o nolibc start.o > err 2>&1
    status=$?
    set -e
    [ "$status" != 0 ] || fail "$opt without -lc: the link should fail"
    assert_contains "$opt: the reason" err "^perfinst-ld: nolibc: start.o needs perfinst's runtime, which needs the C library, and this link leaves it out"
    assert_not_contains "$opt: not ld's undefined references" err "undefined reference"
    [ ! -e nolibc ] || fail "$opt: an output was left"
done

# 2. the user's own libc, in the order -lc -lgcc: links, counts; warned of
#    the missing start files
pi_ld -O2 -nostdlib -o own start.o -lc -lgcc 2> warn || { cat warn; fail "-nostdlib -lc -lgcc"; }
assert_contains "-nostdlib: the start files' warning" warn "warning: own: linked without the C start files"
assert_eq "-nostdlib -lc: runs" 295 "$(./own)"
pi_ld -O2 -nostartfiles -o nostart start.o 2> warn2 || { cat warn2; fail "-nostartfiles"; }
assert_contains "-nostartfiles: the warning" warn2 "warning: nostart: linked without the C start files"

# 3. a static link with the start files named by hand and -lc before -lgcc
#    (no group): the runtime before libc, its libgcc helpers found
if gcc -static -o probe -x c - <<< 'int main(void) { return 0; }' 2> /dev/null; then
    L=$(dirname "$(gcc -print-file-name=crt1.o)")
    G=$(dirname "$(gcc -print-libgcc-file-name)")
    pi_ld -O2 -nostdlib -static -o st "$L/crt1.o" "$L/crti.o" "$G/crtbeginT.o" prog.o -lc -lgcc -lgcc_eh -lc \
        "$G/crtend.o" "$L/crtn.o" 2> st.err || { cat st.err; fail "the static link with start files by hand"; }
    assert_eq "static -nostdlib: no warning" "" "$(cat st.err)"
    rm -f st.pit
    assert_eq "static -nostdlib: runs" 295 "$(PERFINST_OUT=st.pit ./st)"
    "$PMOPT" report --by=function --format=csv st st.pit > st.csv
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["linkage"] == "main" { print $c["entries"] }' st.csv > main.n
    assert_eq "static -nostdlib: main counted once" 1 "$(cat main.n)"
else
    echo "(no static libc here: the static link not tried)"
fi

# 4. an ordinary link: no warning
pi_ld -O2 -o plain prog.o 2> plain.err
assert_eq "an ordinary link says nothing" "" "$(cat plain.err)"
