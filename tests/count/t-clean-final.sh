# timeout: 300
# clean-copies=final (gcc-plugin/finalcopy.cc, pass-countfn.cc): the clean
# copy f of a counting function made of its counting copy's assembly less
# the counter updates, where it can be; late's clean copy elsewhere.
# Checked: exact counts (final.c, clean-copies.c, loops.c) and nothing
# counted with PERFINST_MODE=off; which functions are made so and why the
# others are not; the invariant: each such f's instructions are its
# f.count.N's less the counter updates (an indirect call's: less its
# inline cache),
# after the dispatch (normalised: branch targets in the function, no
# padding, no displacements); f touches no counter; its frame description
# covers f and has f.count.N's CFA rules; its lines are f.count.N's
# (addr2line); readelf decodes the DWARF; gdb unwinds through f
# in off mode; C++ exceptions pass through such an f; its callers keep the
# stack aligned for it (zeroed's movaps); with -fPIC (counters
# through a register) as well, but for GCC's own updates and caches.
. "$PERFINST_TOP/tests/lib.sh"
FINAL="-fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=final"
lines() { "$PMOPT" report "$1" "$2" --by=line --format=csv 2> /dev/null |
    awk -F, 'NR > 1 && $1 > 0 { print $3 "=" $1 }' | sort -n | tr '\n' ' '; }

# 1. exact counts, the off mode
for src in final.c clean-copies.c loops.c; do
    for g in -g ""; do
        name=${src%.c}${g}
        want=$(gcc -O2 -I"$PERFINST_TOP/include" -c "$T/count/$src" -o ref.o && pi_ld -O2 -o ref ref.o && ./ref)
        # shellcheck disable=SC2086
        pi_cc -O2 $g $FINAL -c "$T/count/$src" -o "$name.o"
        pi_ld -O2 -o "$name" "$name.o"
        run_exact "$name" "$T/count/$src" "$want" "$name"
        assert_eq "$name: PERFINST_MODE=off output" "$want" "$(PERFINST_MODE=off PERFINST_OUT="$name-off.pit" ./"$name")"
        assert_eq "$name: lines counted with PERFINST_MODE=off" "" "$(lines "./$name" "$name-off.pit")"
    done
done

# 2. which functions are made of their copy's assembly, which are not
pi_cc -O2 -g $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/final.c" -o v.o 2> v.err
made=$(sed -n "s/.*perfinst: ‘\([a-z]*\)’ counts in .*made of its assembly.*/\1/p" v.err | sort | xargs)
assert_eq "made of the copy's assembly (every function)" "apply calls fib main pick thrice tight twice via vsum zeroed" "$made"

# 3. the invariant, on final.c with -g (linked): f = the dispatch, then
# f.count.N's instructions less its counter updates (`addq $N, %fs:...`);
# tight's call-free loop left to GCC's store motion
# (callfree-counters=gcc: with the default, delta, its counters are a
# register's increments added at the exit, below)
pi_cc -O2 -g $FINAL -fplugin-arg-perfinst-callfree-counters=gcc -c "$T/count/final.c" -o final-sm.o
pi_ld -O2 -o final-sm final-sm.o
prog=final-sm
objdump -d --no-show-raw-insn "$prog" > prog.dis
nm -S "$prog" > prog.syms
# ins F FN: FN's instructions (F or F.count.0), normalised; up to FN's
# size (an indirect call's cache has code out of line, after the
# section's functions, which objdump shows under the last one)
ins() {
    local a s
    read -r a s < <(awk -v f="$2" '$4 == f { print $1, $2 }' prog.syms)
    [ -n "$a" ] || return 0
    objdump -d --no-show-raw-insn --start-address=0x"$a" --stop-address=$((0x$a + 0x$s)) "$prog" |
        awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
        awk -F'\t' -v f="$1" -v c="$1.count.0" 'NF >= 2 {
            i = $2; sub(/[ ]*#.*/, "", i)                        # comments: addresses
            gsub(/-?0x[0-9a-f]+\(%rip\)/, "D(%rip)", i)          # displacements
            gsub("[0-9a-f]+ <(" f "|" c ")(\\+0x[0-9a-f]+)?>", "<self>", i)
            gsub(/[0-9a-f]+ </, "<", i)
            sub(/[ ]+$/, "", i)
            split(i, w, " "); if (w[1] ~ /^(nop|data16|cs|xchg)/) next
            print i }'
}
# less_entry FILE: a counting copy's instructions less its own test, `cmpb;
# je f` (copy-calls=direct), which f leaves out, its calls of counting
# copies written as f's of their functions
copy_test() { sed -n 2p "$1" | grep -q '^je *<self>$'; } # FILE opens with the copy's own test
less_entry() {
    if copy_test "$1"; then sed '1,2d' "$1"; else cat "$1"; fi | sed 's/\.count\.0>$/>/'
}
# (tight: a loop without calls, whose counters store motion keeps in
# registers: loaded before the loop, stored after it; f leaves out the
# stores, and the loads and register adds that only fed them)
# writes: the lines of a function's instructions that write into %fs
# memory (the counters: AT&T's last operand; compares only read)
writes() { grep -E ',%fs:[^,]*$' "$1" | grep -vE '^(cmp|test)' || true; }
for f in calls fib pick twice main tight; do
    ins "$f" "$f" > "$f.clean"
    ins "$f" "$f.count.0" > "$f.counting.raw"
    less_entry "$f.counting.raw" > "$f.counting"
    [ -s "$f.clean" ] && [ -s "$f.counting" ] || fail "$f or $f.count.0 not in $prog"
    assert_eq "$f enters with the dispatch" "cmpb jne <self>" "$(head -2 "$f.clean" | awk '{ print $1 }' | xargs) $(sed -n 2p "$f.clean" | awk '{ print $2 }')"
    # the dispatch's unreached `jmp f.count.0` after the body (pass-tailjump.cc)
    sed '1,2d' "$f.clean" | sed '${/^jmp *<self>$/d}' > "$f.body"
    grep -vE ',%fs:[^,]*$' "$f.counting" > "$f.less"
    grep -E '^(cmp|test).*,%fs:[^,]*$' "$f.counting" && fail "$f.count.0 compares a counter"
    n=$(($(wc -l < "$f.counting") - $(wc -l < "$f.less")))
    [ "$n" -gt 0 ] || fail "$f.count.0 has no counter update"
    # ... but for the jumps the updates left behind: a jump to a jump goes
    # to its target (the same line here: targets are <self>), a jump to
    # the next instruction goes, and a jmp to a return block (at most four
    # instructions, then ret) becomes that block
    diff "$f.less" "$f.body" > "$f.diff" || true
    # (tight: less its counters' loads and register adds as well)
    dead=""
    [ "$f" = tight ] && dead=--dead
    # shellcheck disable=SC2086
    python3 "$T/count/jump-hunks.py" $dead "$f.diff" > "$f.hunks"
    if grep -q '^BAD' "$f.hunks"; then cat "$f.diff" "$f.hunks" >&2; fail "$f is not $f.count.0 less its $n counter updates"; fi
    changed=$(grep -c '^hunk' "$f.hunks" || true)
    echo "$f $changed" >> changed.list
    ok "$f is $f.count.0 less its $n counter updates ($(wc -l < "$f.body") instructions; $changed places where jumps went or became their return block)"
    assert_eq "$f writes no counter" "" "$(writes "$f.body")"
done
# copy-calls=direct: calls.count.0 opens with its own test and calls
# twice's counting copy; calls (f) enters past that test and calls twice
assert_eq "calls.count.0 opens with its own test" "cmpb je <self>" \
    "$(head -2 calls.counting.raw | awk '{ print $1 }' | xargs) $(sed -n 2p calls.counting.raw | awk '{ print $2 }')"
assert_contains "calls.count.0 calls twice.count.0" calls.counting.raw '^call +<twice\.count\.0>$'
assert_contains "calls (f) calls twice" calls.body '^call +<twice>$'
assert_contains "calls (f) enters its copy past the copy's test" calls.clean '^jne +<self>$'
assert_not_contains "calls (f) enters its copy at its first byte" prog.dis "jne +[0-9a-f]+ <calls\.count\.0>\$"
# tight's counters: loaded and stored around its loop in the copy, only
# loaded in f
assert_contains "tight.count.0 stores a counter kept in a register" tight.counting '^mov +%r[a-z0-9]+,%fs:'
# (one counter, in each copy of the return block: GCC shrink-wraps the
# copy, the early exit before the push with a return block of its own)
assert_eq "tight.count.0 adds in memory to one counter, its return's (the loop's two are in registers)" 1 \
    "$(grep -E '^(add|sub|inc)[a-z]* .*,%fs:' tight.counting | sed 's/.*,//' | sort -u | wc -l)"
assert_eq "tight.count.0: the early exit before the push (shrink-wrapped, as -O2's tight)" "test jle push" \
    "$(less_entry tight.counting | head -3 | awk '{ print $1 }' | xargs)"
assert_contains "tight.count.0 loads them" tight.counting '^mov +%fs:0x[0-9a-f]+,%r'
dead=$(awk '$1 == "dead" { n += $2 } END { print n + 0 }' tight.hunks)
[ "$dead" -ge 3 ] || fail "tight: $dead of the counters' loads and adds left out (the two loads and the loop's add at least)"
ok "tight: $dead of the counters' loads and adds left out"
# ... and store motion's flag that the conditional counter changed, its
# test and the jump that skipped its store
grep '^dead' tight.hunks > tight.dead
assert_contains "tight: the flag's test left out" tight.dead '(; |^dead [0-9]+ )test[a-z]* +%'
assert_contains "tight: the jump over the store left out" tight.dead '(; |^dead [0-9]+ )j[a-z]+ +<self>'
for f in calls fib pick twice main tight; do
    assert_eq "$f touches no counter" 0 "$(grep -c '%fs:' "$f.body" || true)"
done
# the default (callfree-counters=delta, final-g): tight.count.0 adds a
# register to its loop's conditional counter after the loop, no flag;
# tight touches no counter
prog=final-g
objdump -d --no-show-raw-insn "$prog" > prog.dis
nm -S "$prog" > prog.syms
ins tight tight > tight-d.clean
ins tight tight.count.0 > tight-d.counting
assert_contains "delta: tight.count.0 adds a register to a counter" tight-d.counting '^add +%r[a-z0-9]+,%fs:'
assert_eq "delta: tight touches no counter" 0 "$(grep -c '%fs:' tight-d.clean || true)"

# apply's indirect call: f.count.0's inline cache (one asm: `cmp
# %reg,%fs:SLOT; jne OUT; addq $0x1,%fs:HITS` inline, the other way and
# the miss's call of the runtime's stub out of line, after the section's
# functions) is not in apply: its instructions are f.count.0's in order,
# less those three, and nothing else
ins apply apply > apply.clean
ins apply apply.count.0 > apply.counting.raw
less_entry apply.counting.raw > apply.counting
sed '1,2d' apply.clean | sed '${/^jmp *<self>$/d}' > apply.body
assert_contains "apply.count.0: its cache's test" apply.counting '^cmp +%[a-z0-9]+,%fs:'
assert_contains "apply.count.0's cache calls the runtime's stub on a miss" prog.dis 'call +\*0x[0-9a-f]+\(%rip\) +# [0-9a-f]+ <__perfinst_icall_stub'
assert_eq "apply touches no counter or cache" 0 "$(grep -c '%fs:\|__perfinst' apply.body || true)"
assert_contains "apply: the indirect call" apply.body '^(call|jmp) +\*%'
diff apply.counting apply.body > apply.diff || true
assert_eq "apply is apply.count.0 less lines (no line added)" "" "$(grep '^>' apply.diff)"
assert_eq "apply: the cache's three lines left out, and its counter" \
    "$(grep -c '^cmp .*%fs:\|^jne \|^addq .*%fs:' apply.counting)" "$(grep -c '^<' apply.diff)"
ok "apply is apply.count.0 less its cache ($(wc -l < apply.body) of $(wc -l < apply.counting) instructions)"

# 4. unwinding and debugging information of such an f
nm -S "$prog" > syms
readelf --debug-dump=frames "$prog" > frames
# cfa FROM TO: the CFA rules of the FDE of [FROM, TO), without the locations
cfa() { awk -v r="pc=$1..$2" '$4 == "FDE" && $6 == r { on = 1; next } on && /^$/ { exit }
        on && !/DW_CFA_(advance_loc|nop)/ { print }' frames; }
for f in calls fib pick main; do
    read -r a s < <(awk -v f="$f" '$4 == f { print $1, $2 }' syms)
    read -r ca cs < <(awk -v f="$f.count.0" '$4 == f { print $1, $2 }' syms)
    e=$(printf '%016x' $((0x$a + 0x$s)))
    ce=$(printf '%016x' $((0x$ca + 0x$cs)))
    grep -q "FDE .*pc=$a..$e\$" frames || fail "$f: no FDE for [$a, $e)"
    assert_eq "$f: its FDE's CFA rules are $f.count.0's" "$(cfa "$ca" "$ce")" "$(cfa "$a" "$e")"
    # (lines instruction by instruction: where no jump went or became a block)
    [ "$(awk -v f="$f" '$1 == f { print $2 }' changed.list)" = 0 ] || continue
    # the lines of each instruction (addr2line), f's body against f.count.0's less the updates
    body_addrs() { awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' prog.dis |
        awk -F'\t' 'NF >= 2 { split($2, w, " "); if (w[1] !~ /^(nop|data16|cs|xchg)/ && $2 !~ /^addq +\$0x[0-9a-f]*,%fs:/) print "0x" $1 }' |
        tr -d ': '; }
    body_addrs "$f" | sed '1,2d' > "$f.addrs"
    body_addrs "$f.count.0" > "$f.caddrs0"
    # (less the copy's own test: less_entry)
    if copy_test "$f.counting.raw"; then sed 1,2d "$f.caddrs0"; else cat "$f.caddrs0"; fi > "$f.caddrs"
    head -n "$(wc -l < "$f.caddrs")" "$f.addrs" > "$f.addrs1"
    addr2line -e "$prog" $(cat "$f.addrs1") | sed 's|.*/||' > "$f.l"
    addr2line -e "$prog" $(cat "$f.caddrs") | sed 's|.*/||' > "$f.cl"
    grep -q '^final.c:[0-9]' "$f.l" || fail "$f: no line of final.c for its instructions"
    assert_eq "$f: its instructions' lines are $f.count.0's" "$(cat "$f.cl" | xargs)" "$(cat "$f.l" | xargs)"
    assert_eq "$f: addr2line names the function" "$f" "$(addr2line -f -e "$prog" "$(sed -n 3p "$f.addrs")" | head -1)"
done
# the DWARF decodes without a warning (llvm-dwarfdump --verify does not
# finish on this machine's builds, with or without the plugin)
readelf --debug-dump=info,line,loc,ranges,frames "$prog" > /dev/null 2> readelf.err
assert_eq "readelf decodes the DWARF without a warning" "" "$(head -3 readelf.err)"
if command -v gdb > /dev/null; then
    # in calls (made of its copy's assembly) at its call of twice, off mode:
    # the clean copy's line, its frame unwound to main's; no value shown
    # for a parameter of f or main (f's DWARF has no locations for them)
    PERFINST_MODE=off PERFINST_OUT=gdb.pit gdb -batch -nx -ex 'break final.c:48' -ex run -ex bt "./$prog" > gdb.out 2>&1
    assert_contains "gdb: stops in calls (off mode: the clean copy)" gdb.out '^#0 +calls \(.*final\.c:48$'
    assert_contains "gdb: unwound through calls to main" gdb.out '^#1 +0x[0-9a-f]+ in main \(.*final\.c:93$'
    assert_not_contains "gdb: no value for calls' or main's parameters" gdb.out '^#[01] .*(a|n|argc|argv)=[0-9]'
else
    echo "gdb not installed: no backtrace checked"
fi

# 5. C++ exceptions thrown through such an f (flow-exc.cc's twice): f
# throws what f.count.N throws (GCC's RTL "nothrow" would have marked the
# one asm nothrow, and main listed no call site for it: terminate)
if command -v g++ > /dev/null; then
    pi_cc -x c++ -O2 -g $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/flow-exc.cc" -o exc.o 2> exc.err
    pi_ld --pi-cc=g++ -O2 -o exc exc.o
    assert_contains "exceptions: twice made of its copy's assembly" exc.err "twice\(int\).{1,3} made of its assembly"
    assert_eq "exceptions: output" "caught 4 sum 80" "$(PERFINST_OUT=exc.pit ./exc)"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./exc "$T/count/flow-exc.cc" exc.pit > exc.check ||
        { cat exc.check >&2; fail "exceptions: line counts"; }
    ok "exceptions: $(tail -1 exc.check)"
    assert_eq "exceptions: PERFINST_MODE=off output" "caught 4 sum 80" "$(PERFINST_MODE=off PERFINST_OUT=exc-off.pit ./exc)"
    # a function with a cleanup (flow-cleanup.cc's guarded): its landing
    # pad in a cold part at -O2 (split: f's cold part an FDE of its own,
    # `guarded.cold`, with its own table), one part without GCC's
    # partitioning (whole); made of its copy's assembly either way, with
    # its exception tables (the destructor runs as the exception passes
    # through the clean guarded: guards 12 in the off mode too)
    want="caught 4 sum 88 built 12 guards 12"
    for part in split whole; do
        opt=; [ $part = split ] || opt=-fno-reorder-blocks-and-partition
        pi_cc -x c++ -O2 -g $FINAL $opt -fplugin-arg-perfinst-verbose -c "$T/count/flow-cleanup.cc" -o cln.o 2> cln.err
        pi_ld --pi-cc=g++ -O2 -o cln cln.o
        assert_contains "cleanups ($part): guarded made of its copy's assembly" cln.err "int guarded\\(int\\).{1,3} made of its assembly"
        # its frame descriptions name their exception tables (an LSDA)
        syms=_Z7guardedi
        [ $part = whole ] || syms="$syms _Z7guardedi.cold"
        for s in $syms; do
            a=$(nm cln | awk -v s="$s" '$3 == s { print $1 }' | sed 's/^0*//')
            [ -n "$a" ] || fail "cleanups ($part): no symbol $s"
            readelf --debug-dump=frames cln | grep -A3 "FDE .*pc=0*$a\.\." | grep -q 'Augmentation data: *[0-9a-f]' ||
                fail "cleanups ($part): $s's frame description names no exception table"
            ok "cleanups ($part): $s's frame description names its exception table"
        done
        assert_eq "cleanups ($part): output" "$want" "$(PERFINST_OUT=cln-$part.pit ./cln)"
        python3 "$T/count/check-counts.py" --all "$PMOPT" ./cln "$T/count/flow-cleanup.cc" cln-$part.pit > cln.check ||
            { cat cln.check >&2; fail "cleanups ($part): line counts"; }
        ok "cleanups ($part): $(tail -1 cln.check)"
        assert_eq "cleanups ($part): PERFINST_MODE=off output" "$want" "$(PERFINST_MODE=off PERFINST_OUT=cln-$part-off.pit ./cln)"
    done
    # a noexcept function (flow-noexcept.cc's sealed), no landing pad:
    # made of its copy's assembly, whose exception table stops a throw
    # from its callee (std::terminate, SIGABRT) in both modes; without
    # the table the exception would reach main's catch ("caught")
    pi_cc -x c++ -O2 -g $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/flow-noexcept.cc" -o ne.o 2> ne.err
    pi_ld --pi-cc=g++ -O2 -o ne ne.o
    assert_contains "noexcept: sealed made of its copy's assembly" ne.err "int sealed\\(int\\).{1,3} made of its assembly"
    run_exact ne "$T/count/flow-noexcept.cc" "sum 30" "noexcept"
    for mode in on off; do
        st=0
        PERFINST_MODE=$mode PERFINST_OUT=ne8-$mode.pit ./ne 8 > ne8.out 2> ne8.err || st=$?
        assert_eq "noexcept ($mode): a throw through sealed ends the process by SIGABRT" 134 "$st"
        assert_contains "noexcept ($mode): std::terminate" ne8.err "terminate called after throwing"
        assert_not_contains "noexcept ($mode): main's catch not reached" ne8.out caught
    done
    # an implicit virtual destructor (flow-dtor.cc's ~Named: no site, no
    # switch byte of its own): made of its copy's assembly, its dispatch
    # the mode register's; the same output, exact counts, nothing counted
    # in the off mode
    pi_cc -x c++ -O2 -g $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/flow-dtor.cc" -o dtor.o 2> dtor.err
    pi_ld --pi-cc=g++ -O2 -o dtor dtor.o
    assert_eq "implicit destructors made of their copies' assembly (deleting, complete)" 2 \
        "$(grep -cF "Named::~Named()’ made of its assembly" dtor.err || true)"
    objdump -d --no-show-raw-insn dtor | awk '/<_ZN5NamedD0Ev>:/ { on = 1; next } on { print; if (++n == 3) exit }' > d0.s
    assert_contains "the deleting destructor tests the mode register" d0.s "__perfinst_on"
    run_exact dtor "$T/count/flow-dtor.cc" "sum 960" "implicit destructor"
    assert_eq "implicit destructor: PERFINST_MODE=off output" "sum 960" "$(PERFINST_MODE=off PERFINST_OUT=dtor-off.pit ./dtor)"
    assert_eq "implicit destructor: lines counted with PERFINST_MODE=off" "" "$(lines ./dtor dtor-off.pit)"
else
    echo "g++ not installed: the C++ part not run"
fi

# 6. -fPIC: the counters through the offset one asm computes once per
# call (pass-tls.cc), which f leaves out with the updates and the stores of
# a call-free loop's counters (tight, vsum: GCC's store motion, through
# the offset's register), and the inline cache of an indirect call (one
# asm through the counters' offset, apply); exact counts and the off mode (an
# executable of -fPIC code: its TLS block static, the offset the
# constructor's)
pi_cc -O2 -fPIC $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/final.c" -o pic.o 2> pic.err
made=$(sed -n "s/.*perfinst: ‘\([a-z]*\)’ counts in .*made of its assembly.*/\1/p" pic.err | sort | xargs)
assert_eq "-fPIC: made of the copy's assembly" "apply calls fib main pick thrice tight twice via vsum zeroed" "$made"
pi_cc -O2 -fPIC $FINAL -S "$T/count/final.c" -o pic.s
for f in twice calls tight vsum apply; do
    awk -v f="$f:" '$1 == f { on = 1 } on && /\.cfi_endproc/ { exit } on' pic.s > pic-$f.s
    grep -q . pic-$f.s || fail "-fPIC: no $f in pic.s"
    assert_not_contains "-fPIC: $f updates no counter" pic-$f.s '%fs:'
    assert_not_contains "-fPIC: $f computes no offset" pic-$f.s '__perfinst_ctr_off|__perfinst_ctr_base_stub|perfinst icall'
done
assert_not_contains "-fPIC: apply has no inline cache" pic-apply.s '__perfinst_icall_stub'
assert_contains "-fPIC: apply's indirect call" pic-apply.s '^[[:space:]](call|jmp)[[:space:]]+\*%'
awk '$1 == "apply.count.0:" { on = 1 } on && /\.cfi_endproc/ { exit } on' pic.s > pic-apply-count.s
assert_contains "-fPIC: apply.count.0's cache: the slots' offset from the counters'" pic-apply-count.s \
    '^[[:space:]]leaq __perfinst_ctr_icall@dtpoff\(%r[a-z0-9]+\), %r11[[:space:]]# perfinst icall$'
assert_contains "-fPIC: apply.count.0's cache through it" pic-apply-count.s '^[[:space:]]cmpq %r[a-z0-9]+, %fs:[0-9]+\(%r11\)$'
# no register of its own for the slots' offset, live across calls: apply
# saves the registers -O2's does
gcc -O2 -fPIC -I"$PERFINST_TOP/include" -S "$T/count/final.c" -o plain-pic.s
awk '$1 == "apply:" { on = 1 } on && /\.cfi_endproc/ { exit } on' plain-pic.s > plain-apply.s
assert_eq "-fPIC: apply's pushes are -O2's" "$(grep -cE '^[[:space:]]push[a-z]* ' plain-apply.s || true)" "$(grep -cE '^[[:space:]]push[a-z]* ' pic-apply.s || true)"

# -mcmodel=large: the offset's asm (%rip-relative) not made, GCC's model
# and late's clean copies, said why
pi_cc -O2 -fPIC -mcmodel=large $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/final.c" -o large.o 2> large.err ||
    fail "-fPIC -mcmodel=large: final.c does not compile"
assert_not_contains "-fPIC -mcmodel=large: nothing made of its copy's assembly" large.err "made of its assembly"
assert_contains "-fPIC -mcmodel=large: said why" large.err "not from its assembly: counters through GCC's TLS model"
# where f would still read counters through the offset (pickeep.c:
# IVOPTs shares a loop's counters with the program), f is late's
pi_cc -O2 -fPIC $FINAL -fplugin-arg-perfinst-verbose -c "$T/count/pickeep.c" -o pickeep.o 2> pickeep.err
assert_contains "-fPIC: is_rle not made of its copy's assembly, said why" pickeep.err \
    "‘is_rle’ counts in .*not from its assembly: -fPIC: code that stays reads the counters through their offset"
set +e; gcc -O2 -fPIC -I"$PERFINST_TOP/include" -c "$T/count/pickeep.c" -o pkref.o && pi_ld -O2 -o pkref pkref.o && ./pkref
want=$?; pi_ld -O2 -o pickeep pickeep.o && PERFINST_OUT=pickeep.pit ./pickeep; got=$?
PERFINST_MODE=off PERFINST_OUT=pickeep-off.pit ./pickeep; off=$?; set -e
assert_eq "-fPIC: pickeep's result, counting and off" "$want $want" "$got $off"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./pickeep "$T/count/pickeep.c" pickeep.pit > c || { cat c; fail "pickeep: counts"; }
ok "-fPIC: pickeep: $(tail -1 c)"
assert_eq "-fPIC: pickeep's lines counted with PERFINST_MODE=off" "" "$(lines ./pickeep pickeep-off.pit)"

want=$(gcc -O2 -fPIC -I"$PERFINST_TOP/include" -c "$T/count/final.c" -o ref.o && pi_ld -O2 -o ref ref.o && ./ref)
pi_ld -O2 -o pic pic.o
run_exact pic "$T/count/final.c" "$want" "-fPIC"
assert_eq "-fPIC: PERFINST_MODE=off output" "$want" "$(PERFINST_MODE=off PERFINST_OUT=pic-off.pit ./pic)"
assert_eq "-fPIC: lines counted with PERFINST_MODE=off" "" "$(lines ./pic pic-off.pit)"

# 7. count-at=cfg: an indirect call's cache, named only in asms before IPA,
# whose variable's node GCC deleted as unreachable and made anew without
# its TLS model (it went to .rodata: `%fs:...@tpoff` did not assemble);
# the targets counted as with count-at=late
for at in cfg late; do
    pi_cc -O2 $FINAL -fplugin-arg-perfinst-count-at=$at -c "$T/count/late.c" -o at-$at.o ||
        fail "count-at=$at: late.c (an indirect call) does not compile"
    pi_ld -O2 -o at-$at at-$at.o
    PERFINST_OUT=at-$at.pit ./at-$at 30 > at-$at.out
    "$PMOPT" dump at-$at.pit | grep -c ' ICALL ' > at-$at.n
done
readelf -sW at-cfg.o | awk '$8 == "__perfinst_ctr_icall" { print $4 }' > icall.type
assert_eq "count-at=cfg: the cache is thread-local" TLS "$(cat icall.type)"
assert_eq "count-at=cfg: output" "$(cat at-late.out)" "$(cat at-cfg.out)"
assert_eq "count-at=cfg: ICALL records as count-at=late's" "$(cat at-late.n)" "$(cat at-cfg.n)"
[ "$(cat at-cfg.n)" -gt 0 ] || fail "count-at=cfg: no ICALL record"
# a header's line in f's body (tests/pmopt/spell's x.c, weird_add inlined
# at cfg): f keeps no `.file` line of the copy's (as refused the copy's
# `.file 2 "weird.h"` a second time: under DWARF 5 it held the first joined
# with the directory)
cp -r "$T/pmopt/spell" spell
(cd spell && pi_cc -O2 -g $FINAL -fplugin-arg-perfinst-count-at=cfg -S x.c -o x.s) || fail "spell/x.c: no assembly"
[ "$(grep -c '^	\.file 2 ' spell/x.s)" = 1 ] || fail "spell/x.c: want one .file 2: $(grep -c '^	\.file 2 ' spell/x.s)"
(cd spell && pi_cc -O2 -g $FINAL -fplugin-arg-perfinst-count-at=cfg -c x.c -o x.o) || fail "spell/x.c does not assemble"
ok "count-at=cfg: a header's lines in f, one .file for it"
