# A shared library compiled -O0 -fPIC (CMake's Debug build, the default of
# projects such as libgit2, whose flags put -O0 after the user's CFLAGS):
# its counters reach their thread-local array through the offset the
# unit's constructor sets (__perfinst_ctr_off, gcc-plugin/pass-tls.cc), as
# at -O2, not through a call of __tls_get_addr at every update (libgit2
# 1.5.1's Debug build: its workload 2.03x plain's instructions counted,
# bench/RESULTS.md).  Exact counts linked, dlopen'ed, and dlopen'ed with no
# static TLS surplus (the offset 0: the runtime's stub); the results of an
# uninstrumented -O0 build, also in the off mode; no __tls_get_addr call
# in any function but lib_jump (setjmp: GCC's model), in the code and, run
# under callgrind, in the linked program.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/count/shlib-fixture.sh"
shlib_run -O0
assert_eq "linked, PERFINST_MODE=off" "$(cat want)" "$(PERFINST_MODE=off PERFINST_OUT=off.pit ./linked)"
for m in linked opened dynamic; do
    shlib_counts $m
done

# the code: __tls_get_addr called by lib_jump alone among the counted functions
objdump -d --no-show-raw-insn libshlib.so |
    awk '/^[0-9a-f]+ <[^>]*>:$/ { fn = $2 } /call.*__tls_get_addr/ && fn ~ /^<lib_/ && fn != "<lib_jump>:" { n[fn]++ }
         END { for (f in n) print f, n[f] }' > many
[ ! -s many ] || fail "__tls_get_addr called at -O0 by: $(tr '\n' ' ' < many)"
ok "no __tls_get_addr call in lib_work, lib_scale, lib_apply, lib_o0"
grep -q '__perfinst_ctr_off' <(nm libshlib.so) || fail "no __perfinst_ctr_off in the -O0 unit"

# at run time, linked (the block static): no call of __tls_get_addr from the
# counted functions but lib_jump's
if command -v valgrind > /dev/null; then
    PERFINST_OUT=vg.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./linked > /dev/null 2> vg.err ||
        { cat vg.err; fail "valgrind"; }
    shlib_cg_calls cg.out | cut -d' ' -f1 > calls
    assert_eq "__tls_get_addr calls from lib_work, lib_scale, lib_apply, lib_o0, linked" "0" "$(cat calls)"
else
    echo "(no valgrind: the run-time check of __tls_get_addr calls is not made)"
fi
