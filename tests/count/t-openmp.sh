# OpenMP: the bodies GCC outlines from `#pragma omp parallel` regions
# (main._omp_fn.N: artificial functions, which gcov does not count) are
# counted with all=count, exactly, whatever thread ran them (omp.c):
# every region's function as many entries as its team has threads, the
# loop body and the inlined work as often as they ran; pmopt report names
# them main._omp_fn.N (not main, as a clone's suffix would read); the
# rebuild from their profile applies it to them.  count-at=late (the
# default) and cfg (where the regions are still main's blocks: their code
# is counted as main's), with and without -g.
. "$PERFINST_TOP/tests/lib.sh"
echo 'int main(void) { return 0; }' > probe.c
gcc -fopenmp probe.c -o probe 2> /dev/null || skip "gcc -fopenmp cannot link (libgomp missing)"
export OMP_DYNAMIC=false
unset OMP_THREAD_LIMIT OMP_NUM_THREADS
n=1000
for g in -g ""; do
    for at in late cfg; do
        v="$at${g:-nog}"
        pi_cc -O2 $g -fopenmp -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$T/count/omp.c" -o $v.o
        pi_ld -O2 -fopenmp -o $v $v.o
        rm -f $v.pit
        PERFINST_OUT=$v.pit ./$v $n > $v.out
        assert_eq "$v: the output" "$(gcc -O2 -fopenmp "$T/count/omp.c" -o ref && ./ref $n)" "$(cat $v.out)"
        "$PMOPT" report --by=function --format=csv ./$v $v.pit | awk -F, 'NR > 1 { print $8, $2 }' | sort > fn
        # main._omp_fn.0: the loop over 4 threads; .1: the team of 3; .2:
        # the dynamic loop over 2 (at cfg, before GCC outlines them, the
        # regions are main's blocks)
        regions="main._omp_fn.0 4|main._omp_fn.1 3|main._omp_fn.2 2"
        [ $at = late ] || regions=
        # (work inlined: without -g at late its body left no statement of
        # its own in the first loop, as in any loop: design.md, Known gaps)
        inlined="work $((n + (n + 2) / 3))"
        [ "$at$g" != late ] || inlined=
        IFS='|'
        for want in "main 1" $regions $inlined; do
            grep -qx "$want" fn || { cat fn; fail "$v: no '$want' (function, entries)"; }
        done
        unset IFS
        "$PMOPT" report --by=line ./$v $v.pit > lines
        grep -qE "^ +$n +[0-9.]+% +omp\.c:$(grep -n 'the first loop.s body' "$T/count/omp.c" | cut -d: -f1)\$" lines ||
            { cat lines; fail "$v: the first loop's body is not counted $n times"; }
        ok "$v: the regions' functions and their code counted exactly"
    done
done
# the rebuild: each region's function gets its profile
"$PMOPT" plan -o plan.pip ./late-g late-g.pit > plan.txt
pi_cc -O2 -g -fopenmp -fplugin-arg-perfinst-feedback=plan.pip -fplugin-arg-perfinst-verbose -c "$T/count/omp.c" -o rebuilt.o 2> notes
grep -q "profiles matched, 0 stale, 0 malformed .*(100.0% of" notes || { cat notes; fail "rebuild: profiles stale or missing"; }
for f in main._omp_fn.0 main._omp_fn.2; do
    grep -q "block order of .$f.: [0-9]* blocks, [0-9]* executed" notes || { cat notes; fail "rebuild: $f not laid out from its profile"; }
done
pi_ld -O2 -fopenmp -o rebuilt rebuilt.o
assert_eq "rebuild: the output" "$(cat late-g.out)" "$(./rebuilt $n)"
nm rebuilt.o | grep -q ' main\._omp_fn\.0$' || fail "rebuild: no main._omp_fn.0"
readelf -SW rebuilt.o | grep -q ' \.text\.hot ' || fail "rebuild: nothing in .text.hot (the regions ran hot)"
ok "rebuild: the regions' functions take their profiles"
