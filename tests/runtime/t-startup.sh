# What every process pays at its start and exit, whatever it runs: a
# shared library of three counted units (-fPIC) looks up glibc's static
# TLS information once, not once per unit's constructor (two dlsym of
# RTLD_DEFAULT each, which walk every loaded object's symbols: 121,000
# instructions of libjpeg-turbo's djpeg, a third of its run on a small
# image); and a process that made no indirect call does not scan the
# 8,192 slots of the indirect-call table when it writes its trace
# (57,000 instructions).  Counted under callgrind, instructions being
# deterministic: calls of dlsym from __perfinst_tls_static_offset, and
# pi_icall_write's instructions.
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitized runtime's instructions are the sanitizer's (and ASan does not run under valgrind)"
command -v valgrind > /dev/null || skip "valgrind not installed"
command -v callgrind_annotate > /dev/null || skip "callgrind_annotate not installed"
for u in 1 2 3; do
    printf 'int lib%d(int x)\n{\n    return x > %d ? x * %d : x + %d;\n}\n' $u $u $u $u > u$u.c
    pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c u$u.c -o u$u.o
done
pi_ld -shared -o libu.so u1.o u2.o u3.o
cat > main.c << 'C'
#include <stdio.h>
int lib1(int), lib2(int), lib3(int);
int main(void) { printf("%d\n", lib1(5) + lib2(5) + lib3(5)); return 0; }
C
pi_cc -O2 -fplugin-arg-perfinst-all=count -c main.c -o main.o
pi_ld -O2 -o prog main.o -L. -lu -Wl,-rpath,"$PWD"
assert_eq "the program runs" 30 "$(PERFINST_OUT=/dev/null ./prog)"
for mode in on off; do
    m=; [ $mode = off ] && m=off
    PERFINST_MODE=$m PERFINST_OUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=cg.$mode ./prog > /dev/null 2> vg.err ||
        { cat vg.err; fail "$mode: prog under callgrind"; }
    n=$(awk '/^fn=/ { f = $0; sub(/^fn=\([0-9]+\) ?/, "", f); if (f != "") name[$1] = f; split($1, a, ")"); id = a[1] ")"; sub(/^fn=/, "", id);
                      if (f != "") nm[id] = f; cur = nm[id] }
             /^cfn=/ { c = $0; sub(/^cfn=\([0-9]+\) ?/, "", c); split($1, a, ")"); id = a[1] ")"; sub(/^cfn=/, "", id);
                       if (c != "") nm[id] = c; callee = nm[id] }
             /^calls=/ && cur ~ /^__perfinst_tls_static_offset/ && callee ~ /^dlsym/ { split($1, x, "="); n += x[2] }
             END { print n + 0 }' cg.$mode)
    [ "$n" -le 2 ] || fail "$mode: dlsym called $n times from __perfinst_tls_static_offset (three units)"
    ir=$(callgrind_annotate --inclusive=yes cg.$mode 2> /dev/null | awk '/pi_icall_write/ { gsub(/,/, "", $1); print $1; exit }')
    [ "${ir:-0}" -lt 1000 ] || fail "$mode: pi_icall_write ran $ir instructions without an indirect call"
    ok "$mode: dlsym $n times for three units' TLS offsets, pi_icall_write ${ir:-0} instructions"
done
