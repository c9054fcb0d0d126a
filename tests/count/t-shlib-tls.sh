# A shared library built -fPIC with the plugin (its thread-local counters
# get a dynamic TLS model), used by a program linked to it and by one that
# dlopens it, each calling it from two threads: exact counts and indirect-
# call targets (its inline cache, promoted by pmopt plan) in both, the
# same results as an uninstrumented build; linked at start-up, the counting
# copies reach their counters and inline caches through %fs with no call
# of __tls_get_addr (gcc-plugin/pass-tls.cc), dlopen'ed with none either
# (the runtime's stub, once per thread); the off mode; the copies are not
# exported.  Every function but the one that calls setjmp made of its
# counting copy's assembly (clean-copies=final): the cache's asm and the
# counters' offset's left out; in the setjmp caller (GCC's TLS model) the
# cache's asm reaches its slots by their address; a function of its own
# -O0 goes through the offset too (t-shlib-tls-o0.sh: a unit at -O0).
. "$PERFINST_TOP/tests/lib.sh"
. "$T/count/shlib-fixture.sh"
shlib_run -O2
# the off mode: the clean copies, most made of their counting copy's
# assembly (clean-copies=final: the offset's asm left out with the updates)
assert_eq "linked, PERFINST_MODE=off" "$(cat want)" "$(PERFINST_MODE=off PERFINST_OUT=off.pit ./linked)"
assert_eq "dlopen'ed, no static surplus, PERFINST_MODE=off" "$(cat want)" \
    "$(GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0 PERFINST_MODE=off PERFINST_OUT=off2.pit ./opened ./libshlib.so)"
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-verbose -c "$T/count/shlib.c" -o v.o 2> v.err
made=$(sed -n "s/.*perfinst: ‘\([a-z_]*\)’ counts in .*made of its assembly.*/\1/p" v.err | sort | xargs)
assert_eq "made of the counting copy's assembly (lib_work: a call-free loop, lib_apply: a cache; not lib_jump: setjmp)" \
    "lib_apply lib_scale lib_work" "$made"
for m in linked opened dynamic; do
    # lib_apply's indirect call: every (site, target) pair exact through
    # the thread-local inline cache, and the promotion finds its target
    shlib_counts $m
    "$PMOPT" plan --promote-calls --promote-share=50 -o fb.$m ./libshlib.so $m.pit > plan.$m
    assert_contains "$m: lib_apply's call promoted to lib_inc" fb.$m "promote-call fn=lib_apply .* target=lib_inc .* calls=2400 total=4000"
done

# the counters and the inline cache through %fs: in the assembly, no counter read or written at
# __tls_get_addr's result (x@dtpoff(%reg)) but in lib_jump's counting copy
# (GCC's model; lib_o0, -O0 by its attribute, goes through the offset too),
# at most one call of it in each other counting copy (the path taken when
# the block is not static)
pi_cc -O2 -fPIC -S "$T/count/shlib.c" -o shlib.s
awk '/^[A-Za-z_][A-Za-z0-9_.]*:/ { fn = $1 } /call.*__tls_get_addr/ && fn ~ /\.count\./ && fn !~ /^lib_jump\./ { n[fn]++ }
     END { for (f in n) if (n[f] > 1) print f, n[f] }' shlib.s > many
[ ! -s many ] || fail "counting copies with more than one __tls_get_addr call: $(cat many)"
awk '/^[A-Za-z_][A-Za-z0-9_.]*:/ { fn = $1 } fn != "lib_jump.count.0:"' shlib.s | grep -v '^[[:space:]]*lea' > shlib.mem
assert_not_contains "no counter read or written at __tls_get_addr's result" shlib.mem '__perfinst_ctr@dtpoff\('
assert_not_contains "no inline cache read or written at __tls_get_addr's result" shlib.mem '__perfinst_ctr_icall@dtpoff\('
grep -q '%fs:' shlib.s || fail "no %fs-relative counter update in shlib.s"
assert_not_contains "no local-exec offset (which a shared library cannot link)" shlib.s '@tpoff'
awk '/^lib_jump\.count\.0:/, /\.size\tlib_jump\.count\.0,/' shlib.s > jump.s
assert_contains "lib_jump (setjmp): its counting copy's cache's asm through the slots' address" jump.s '^[[:space:]]cmpq %r[a-z0-9]+, [0-9]+\(%r[a-z0-9]+\)$'
awk '/^lib_apply:/, /\.size\tlib_apply,/' shlib.s > apply.s
assert_not_contains "lib_apply made without its cache, its offset or the counters'" apply.s 'perfinst (icall|ctr)|%fs|__perfinst_icall_stub|__perfinst_ctr_base_stub' 
# the cache's slots reached from the counters' offset in %r11, no register
# of their own live across lib_apply's calls (a callee-saved one: a push
# and a pop on every call, in the off mode too): -O2's pushes
gcc -O2 -fPIC -I"$PERFINST_TOP/include" -S "$T/count/shlib.c" -o plain.s
awk '/^lib_apply:/, /\.size\tlib_apply,/' plain.s > plain-apply.s
assert_eq "lib_apply saves the registers -O2's does" "$(grep -cE '^[[:space:]]push[a-z]* ' plain-apply.s)" \
    "$(grep -cE '^[[:space:]]push[a-z]* ' apply.s)"

# linked at start-up the block is static: no __tls_get_addr call from a
# counting copy in a run, nor the stub's (callgrind's call counts:
# deterministic)
if command -v valgrind > /dev/null; then
    PERFINST_OUT=vg.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./linked > /dev/null 2> vg.err ||
        { cat vg.err; fail "valgrind"; }
    shlib_cg_calls cg.out > calls
    assert_eq "__tls_get_addr calls from counting copies, linked; getter calls" "0 0" "$(cat calls)"
    # dlopen'ed with no static surplus: the offset is each thread's, from
    # the runtime's stub (one call of the unit's getter per thread: the
    # calling thread and the one it starts; then the thread's cache), and
    # still no call of __tls_get_addr from a counting copy
    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0 PERFINST_OUT=vgd.pit valgrind --tool=callgrind \
        --callgrind-out-file=cgd.out ./opened ./libshlib.so > /dev/null 2> vgd.err || { cat vgd.err; fail "valgrind"; }
    shlib_cg_calls cgd.out > calls
    assert_eq "dlopen'ed, no static surplus: __tls_get_addr calls from counting copies, getter calls" "0 2" "$(cat calls)"
else
    echo "(no valgrind: the run-time check of __tls_get_addr calls is not made)"
fi

# the counting copies stay in .symtab (pmopt reads them) but not in .dynsym
nm libshlib.so | grep -q 'lib_work\.count\.' || fail "no lib_work.count.N in .symtab"
nm -D --defined-only libshlib.so | grep '\.count\.' > exported || true
[ ! -s exported ] || fail "counting copies exported: $(tr '\n' ' ' < exported)"
ok "counting copies not in the dynamic symbol table"
