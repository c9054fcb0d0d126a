# timeout: 300
# clean-copies=late (gcc-plugin/pass-countfn.cc, latecopy): every counted
# function keeps one, counting body through the GIMPLE passes and is split
# into f (clean, the dispatch at its entry) and f.count.N (counting) just
# before expansion, so that only expansion and the RTL passes run twice.
# Checked: the exact counts (clean-copies.c, loops.c, cgoto.c's lines as
# with clean-copies=all); what PERFINST_MODE=off counts (nothing, a computed-goto
# function included); the clean copies hold no counter, marker or probe;
# the split is late: GCC's last GIMPLE pass (-fdump-tree-optimized) sees
# each function once, with its counters, and no f.count.N, which expansion
# (-fdump-rtl-expand) sees; a call kept from the tail by the counters is a
# sibling call again in the clean copy; indirect calls' targets counted as
# with clean-copies=all.
. "$PERFINST_TOP/tests/lib.sh"
LATE="-fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=late"
lines() { "$PMOPT" report "$1" "$2" --by=line --format=csv 2> /dev/null |
    awk -F, 'NR > 1 && $1 > 0 { print $3 "=" $1 }' | sort -n | tr '\n' ' '; }
copies() { nm "$1" | awk '$3 ~ /\.count\.[0-9]+$/ { sub(/\.count\.[0-9]+$/, "", $3); print $3 }' | sort | tr '\n' ' '; }
# body ASM FN: FN's instructions in the assembly ASM
body() { awk -v f="$2" '$0 == f ":" { p = 1; next } p && /^\t\.size/ { p = 0 } p' "$1"; }

# 1. clean-copies.c: exact counts, the copies, the off mode
src=$T/count/clean-copies.c
for extra in "" "-fplugin-arg-perfinst-counting-opt=full" "-O3"; do
    name=cc${extra//[^a-zA-Z0-9]/}
    # shellcheck disable=SC2086
    pi_cc -O2 -g $LATE $extra -c "$src" -o "$name.o"
    pi_ld -O2 -o "$name" "$name.o"
    assert_eq "$name: program output" 195 "$(PERFINST_OUT="$name.pit" ./"$name")"
    python3 "$T/count/check-counts.py" --all "$PMOPT" "./$name" "$src" "$name.pit" > "$name.check" ||
        { cat "$name.check" >&2; fail "$name: counts differ"; }
    ok "$name: $(tail -1 "$name.check")"
    assert_eq "$name: the functions with a counting copy" "flat loopy main " "$(copies "$name")"
    assert_eq "$name: PERFINST_MODE=off output" 195 "$(PERFINST_MODE=off PERFINST_OUT="$name-off.pit" ./"$name")"
    assert_eq "$name: lines counted with PERFINST_MODE=off" "" "$(lines "./$name" "$name-off.pit")"
done

# 2. the split is made after the GIMPLE passes: the last of them sees each
# function once, counting; expansion sees f and f.count.N
pi_cc -O2 $LATE -fdump-tree-optimized=late.opt -fdump-rtl-expand=late.exp -S "$src" -o late.s
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -fdump-tree-optimized=all.opt -S "$src" -o all.s
fns() { sed -n 's/^;; Function \([^ ]*\) .*/\1/p' "$1" | grep -v '^__perfinst' | sort | tr '\n' ' '; }
assert_eq "late: the functions GCC's last GIMPLE pass sees" "flat loopy main " "$(fns late.opt)"
assert_eq "late: the functions expanded" "flat flat.count.0 loopy loopy.count.0 main main.count.0 " \
    "$(fns late.exp | sed 's/\.count\.[0-9]*/.count.0/g')"
assert_eq "all: the counting copies go through the GIMPLE passes" \
    "flat flat.count.0 loopy loopy.count.0 main main.count.0 " "$(fns all.opt | sed 's/\.count\.[0-9]*/.count.0/g')"
[ "$(grep -c 'perfinst site' late.opt)" -gt 0 ] || fail "late: no site marker in the optimised body"
for f in flat loopy main; do
    body late.s $f > $f.clean
    body late.s "$(grep -o "^$f\.count\.[0-9]*" late.s)" > $f.counting
    [ -s $f.clean ] && [ -s $f.counting ] || fail "late: $f or its counting copy not in late.s"
    assert_eq "late: $f (clean) refers to no counter" 0 "$(grep -c '__perfinst_ctr' $f.clean || true)"
    assert_eq "late: $f (clean) has no site marker" 0 "$(grep -c 'perfinst site' $f.clean || true)"
    assert_contains "late: $f tests its switch" $f.clean 'cmpb[[:space:]]+\$0, [0-9]*\+?__perfinst_fnon'
    assert_contains "late: $f.count.N counts" $f.counting '__perfinst_ctr'
done

# 2b. a call the counters kept from the tail (cell_info's indirect call,
# before its return site) is a sibling call again in the clean copy: after
# the switch test, cell_info is gcc -O2's code (t-countfn.sh's check)
insns() { objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
    awk -F'\t' 'NF >= 2 { split($2, w, " "); if (w[1] !~ /^(nop|data16|cs|xchg)/) print w[1] }'; }
gcc -O2 -I"$PERFINST_TOP/include" -c "$T/count/countfn.c" -o o2.o
pi_cc -O2 $LATE -c "$T/count/countfn.c" -o fn.o
insns o2.o cell_info > o2.ins
insns fn.o cell_info > fn.ins
assert_eq "cell_info enters with cmpb + jne" "cmpb jne" "$(head -2 fn.ins | xargs)"
sed '1,2d;$d' fn.ins > fn.body
diff o2.ins fn.body || fail "cell_info after the test is not gcc -O2's code"
ok "cell_info after the test is gcc -O2's code ($(wc -l < fn.body) instructions)"

# 3. loops.c (statement regions, marked functions and all=count together)
pi_cc -O2 -g $LATE -c "$T/count/loops.c" -o loops.o
pi_ld -O2 -o loops loops.o
assert_eq "loops.c: program output" 822 "$(PERFINST_OUT=loops.pit ./loops)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./loops "$T/count/loops.c" loops.pit > loops.check ||
    { cat loops.check >&2; fail "loops.c: counts differ"; }
ok "loops.c: $(tail -1 loops.check)"

# 4. a threaded interpreter (computed goto through a static label table):
# a counting copy with a table of its own, nothing counted when off, and
# the lines of clean-copies=all's build
pi_cc -O2 -g $LATE -c "$T/count/cgoto.c" -o cgoto.o
pi_ld -O2 -o cgoto cgoto.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -c "$T/count/cgoto.c" -o cgoto-all.o
pi_ld -O2 -o cgoto-all cgoto-all.o
assert_eq "cgoto: output" 501000 "$(PERFINST_OUT=cgoto.pit ./cgoto 1000)"
PERFINST_OUT=cgoto-all.pit ./cgoto-all 1000 > /dev/null
nm cgoto > syms
assert_contains "cgoto: run has a counting copy" syms ' [tT] run\.count\.[0-9]+$'
[ "$(grep -c ' [dDrR] table\.' syms)" = 2 ] || fail "cgoto: want two label tables: $(grep table syms)"
on=$(lines ./cgoto cgoto.pit)
[ -n "$on" ] || fail "cgoto: nothing counted"
assert_eq "cgoto: lines counted as by clean-copies=all" "$(lines ./cgoto-all cgoto-all.pit)" "$on"
assert_eq "cgoto: PERFINST_MODE=off output" 501000 "$(PERFINST_MODE=off PERFINST_OUT=cgoto-off.pit ./cgoto 1000)"
assert_eq "cgoto: lines counted with PERFINST_MODE=off" "" "$(lines ./cgoto cgoto-off.pit)"

# 5. indirect calls: the inline cache in the counting copy, none in the
# clean one; the targets' counts as by clean-copies=all
pi_cc -O2 $LATE -S "$T/count/icallcache.c" -o icall.s
body icall.s call > call.clean
assert_eq "icall: the clean copy checks no cache" 0 "$(grep -c '%fs:' call.clean || true)"
for v in late all; do
    # shellcheck disable=SC2086
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$v -c "$T/count/icallcache.c" -o ic-$v.o
    pi_ld -O2 -o ic-$v ic-$v.o -lpthread
    rm -rf $v
    (mkdir -p $v && cd $v && PERFINST_OUT=t.%p.pit ../ic-$v > out) || fail "icallcache ($v) failed"
    "$PMOPT" merge -o $v.pit $v/t.*.pit > /dev/null
    "$PMOPT" dump $v.pit | grep -c ' ICALL ' > $v.n
done
assert_eq "icall: output" "sum 3179003" "$(cat late/out)"
assert_eq "icall: ICALL records as by clean-copies=all" "$(cat all.n)" "$(cat late.n)"

# 6. C++ exceptions through counted frames (flow-exc.cc): a function with a
# catch is split right after IPA, as with clean-copies=all (GCC's
# versioning refuses its filter lists after the GIMPLE passes); the others
# late, those with cleanups too (flow-cleanup.cc's guarded: a destructor
# runs as the exception passes, in either copy)
if command -v g++ > /dev/null; then
    pi_cc -x c++ -O2 -g $LATE -fplugin-arg-perfinst-verbose -c "$T/count/flow-exc.cc" -o exc.o 2> exc.err
    pi_ld --pi-cc=g++ -O2 -o exc exc.o
    assert_eq "exceptions: output" "caught 4 sum 80" "$(PERFINST_OUT=exc.pit ./exc)"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./exc "$T/count/flow-exc.cc" exc.pit > exc.check ||
        { cat exc.check >&2; fail "exceptions: line counts"; }
    ok "exceptions: $(tail -1 exc.check)"
    assert_contains "exceptions: twice split late" exc.err "twice.*counts in.*split after the GIMPLE passes"
    assert_not_contains "exceptions: main (a try) split right after IPA" exc.err "perfinst: .{1,3}int main\(\).{1,3} counts in.*split after"
    assert_eq "exceptions: PERFINST_MODE=off output" "caught 4 sum 80" "$(PERFINST_MODE=off PERFINST_OUT=exc-off.pit ./exc)"
    assert_eq "exceptions: lines counted with PERFINST_MODE=off" "" "$(lines ./exc exc-off.pit)"
    pi_cc -x c++ -O2 -g $LATE -fplugin-arg-perfinst-verbose -c "$T/count/flow-cleanup.cc" -o cln.o 2> cln.err
    pi_ld --pi-cc=g++ -O2 -o cln cln.o
    want="caught 4 sum 88 built 12 guards 12"
    assert_eq "cleanups: output" "$want" "$(PERFINST_OUT=cln.pit ./cln)"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./cln "$T/count/flow-cleanup.cc" cln.pit > cln.check ||
        { cat cln.check >&2; fail "cleanups: line counts"; }
    ok "cleanups: $(tail -1 cln.check)"
    for f in guarded twice; do
        assert_contains "cleanups: $f split late" cln.err "int $f\\(int\\).{1,3} counts in.*split after the GIMPLE passes"
    done
    assert_eq "cleanups: PERFINST_MODE=off output" "$want" "$(PERFINST_MODE=off PERFINST_OUT=cln-off.pit ./cln)"
    assert_eq "cleanups: lines counted with PERFINST_MODE=off" "" "$(lines ./cln cln-off.pit)"
else
    echo "g++ not installed: the C++ part not run"
fi

# 7. -fPIC (t-shlib-tls.sh's library): the late copy gets pass-tls too (it
# skips the GIMPLE passes): its counters through %fs, at most one call of
# __tls_get_addr per counting copy, none in a clean copy (but in lib_jump,
# setjmp's, whose counting copy has GCC's TLS model and both its own
# __thread lib_env, and in lib_o0, counted in place at -O0)
pi_cc -O2 -fPIC $LATE -S "$T/count/shlib.c" -o shlib.s
[ "$(grep -c '\.count\.[0-9]*:$' shlib.s)" -gt 0 ] || fail "-fPIC: no counting copy"
awk '/^[A-Za-z_][A-Za-z0-9_.]*:/ { fn = $1 } fn ~ /^lib_jump[.:]/ || fn == "lib_o0:" { next } /call.*__tls_get_addr/ { n[fn]++ }
     END { for (f in n) if (f !~ /^__perfinst/ && n[f] > (f ~ /\.count\./ ? 1 : 0)) print f, n[f] }' shlib.s > many
[ ! -s many ] || fail "-fPIC: __tls_get_addr calls: $(cat many)"
awk '/^[A-Za-z_][A-Za-z0-9_.]*:/ { fn = $1 } fn != "lib_jump.count.0:" && fn != "lib_o0:"' shlib.s | grep -v '^[[:space:]]*lea' > shlib.mem
assert_not_contains "-fPIC: no counter read or written at __tls_get_addr's result" shlib.mem '__perfinst_ctr@dtpoff\('
grep -q '%fs:' shlib.s || fail "-fPIC: no %fs-relative counter update"
ok "-fPIC: the counting copies' counters through %fs"
