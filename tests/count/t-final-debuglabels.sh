# timeout: 120
# clean-copies=final marks the counting copy's dead counter loads and adds
# for f (gcc-plugin/finalcopy.cc, finaldead) with NOTE_INSN_DELETED_DEBUG_LABEL
# notes, written `.LDLn:`; GCC writes its own such notes (a named label
# deleted in RTL, with -g: `cleanup:` after a `goto cleanup` GCC threaded
# past it) as `.LDLn:` too, n from a counter of its own starting at 1.  The
# markers were numbered by gen_label_rtx, so a unit with call-free loops
# first and enough deleted labels after them defined one `.LDLn` twice and
# the assembler refused it (libgit2 1.5.1's merge.c, `.LDL12`).  Here: 4
# loops, then 40 functions each losing its `cleanup:` label; the unit
# assembles, nothing is defined twice, the loops' f still leave their
# counters out, exact function entries, the off mode counts nothing.
. "$PERFINST_TOP/tests/lib.sh"
{
    echo '#include <stdio.h>'
    echo '__attribute__((noipa)) int step(int n) { return n - 20; }'
    echo 'static int cleaned;'
    echo '__attribute__((noipa)) void cleanup_fn(void) { cleaned++; }'
    for k in 0 1 2 3; do
        echo "__attribute__((noinline)) int loop$k(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * $((k + 1)); return s; }"
    done
    for k in $(seq 0 39); do
        cat << EOF
__attribute__((noinline)) int user$k(int n)
{
    int error;
    if ((error = step(n)) < 0)
        goto cleanup;
    error = step(n + $k);
cleanup:
    if (error < 0)
        cleanup_fn();
    return error;
}
EOF
    done
    echo 'int main(void)'
    echo '{'
    echo '    int a[10], s = 0;'
    echo '    for (int i = 0; i < 10; i++) a[i] = i;'
    echo '    s += loop0(a, 10) + loop1(a, 10) + loop2(a, 10) + loop3(a, 10);'
    for k in $(seq 0 39); do echo "    s += user$k($k);"; done
    echo '    printf("%d %d\n", s, cleaned);'
    echo '    return 0;'
    echo '}'
} > dl.c
# the fixture still has GCC delete the labels: 40 of its own `.LDLn`
gcc -O2 -g -S dl.c -o plain.s
n=$(grep -c '^\.LDL[0-9]*:' plain.s || true)
[ "$n" -ge 40 ] || fail "plain gcc -O2 -g deleted $n named labels (40 expected): the fixture no longer tests anything"
want=$(gcc -O2 -g dl.c -o plain && ./plain)
assert_eq "the plain build's result" "1020 20" "$want"

for pic in "" -fPIC; do
    what="final${pic:+, $pic}"
    rm -f dl.pit off.pit
    # shellcheck disable=SC2086
    pi_cc -O2 -g $pic -fplugin-arg-perfinst-all=count -S dl.c -o dl.s
    dup=$(grep -o '^\.LDL[0-9_f]*:' dl.s | sort | uniq -d | tr '\n' ' ')
    assert_eq "$what: no .LDL label defined twice" "" "$dup"
    # shellcheck disable=SC2086
    pi_cc -O2 -g $pic -fplugin-arg-perfinst-all=count -c dl.c -o dl.o || fail "$what: the unit does not compile"
    pi_ld -O2 -o dl dl.o
    # the loops' clean copies made of their counting copies' assembly, their counters left out
    for k in 0 1 2 3; do
        awk "/^loop$k:/, /\\.size\\tloop$k,/" dl.s > f.s
        grep -qE "jne[[:space:]]+(\.Lpi_on\.)?loop$k\.count\.0" f.s || fail "$what: loop$k is not made of its copy's assembly"
        assert_not_contains "$what: loop$k's f touches no counter" f.s '__perfinst_ctr|%fs:'
    done
    PERFINST_OUT=dl.pit ./dl > out
    assert_eq "$what: result" "$want" "$(cat out)"
    for f in loop0 loop1 loop2 loop3 user0 user19 user20 user39 step cleanup_fn; do
        case $f in step) e=60 ;; cleanup_fn) e=20 ;; *) e=1 ;; esac
        assert_eq "$what: $f's entries" "$e" "$(function_entries ./dl dl.pit $f)"
    done
    off_counts_nothing dl "$want"
done
