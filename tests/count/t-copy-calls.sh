# A counting copy's direct calls enter the callee's counting copy, which
# opens with a test of its own (copy-calls=direct, the default;
# gcc-plugin/pass-tailjump.cc): g.count.N starts `cmpb $0,
# __perfinst_fnon+G(%rip); je g`, so that in count mode the call falls
# through into the copy instead of running g's test and its taken `jne`
# (and touching g's first cache line for them), and g's own test branches
# past the copy's.  copycalls.c's work calls near_mul (its unit: at
# near_mul.count.0), far_add (copycalls2.c: at far_add.pi_entry, which
# copycalls2.o exports at far_add.count.0) and plain_xor (copycalls3.c, no
# plugin: copycalls.o's weak stand-in `plain_xor.pi_entry: jmp plain_xor`);
# main calls near_mul through a pointer too.  Checked: the code's shape
# (the calls' targets, the copies' tests, the clean tests' branches), the
# counts exact, nothing counted with the mode off, an overlay that turns
# near_mul or far_add off while work counts (the copy's test: not
# counted, the output the same), copy-calls=entry (the calls go to the
# functions), and -fPIC (a static callee only).
# The shape, counts, modes and overlays with clean-copies=all (the clean
# and the counting copy compiled each on its own, pass-tailjump.cc) and
# with clean-copies=final, the default (f made of its copy's assembly
# leaves out the copy's test and calls the functions themselves,
# finalcopy.cc); copy-calls=entry and -fPIC with clean-copies=all.
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
s=$T/count/copycalls.c
gcc -O2 "$s" "$T/count/copycalls2.c" "$T/count/copycalls3.c" -o o2
want=$(./o2)
gcc -O2 -c "$T/count/copycalls3.c" -o c.o
for mode in all final; do
mkdir -p "$mode" && cd "$mode" || fail "$mode: no directory"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$mode -c "$s" -o a.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$mode -c "$T/count/copycalls2.c" -o b.o
pi_ld -O2 -o prog a.o b.o ../c.o
if [ $mode = final ]; then
    # f made of its copy's assembly: work calls the functions, near_mul
    # and far_add are their copies' code less the copies' tests
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-verbose -c "$s" -o /dev/null 2> v.err
    assert_contains "final: work made of its copy's assembly" v.err "‘work’ made of its assembly"
    objdump -d --no-show-raw-insn prog | awk '/<work>:/,/^$/' > work-f.s
    assert_contains "final: work (f) calls near_mul" work-f.s 'call +[0-9a-f]+ <near_mul>$'
    assert_contains "final: work (f) calls far_add" work-f.s 'call +[0-9a-f]+ <far_add>$'
    assert_contains "final: work (f) calls plain_xor" work-f.s 'call +[0-9a-f]+ <plain_xor>$'
    assert_not_contains "final: work (f) calls no counting copy or entry" work-f.s 'call .*(count\.0|pi_entry)'
fi

# the shape
dis() { objdump -d --no-show-raw-insn prog | awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on { sub(/^ *[0-9a-f]+:\t/, ""); print }'; }
addr() { nm prog | awk -v f="$1" '$3 == f { print $1 }'; }
# the address work.count.0's call at line N (of its calls) goes to
dis work.count.0 > work.s
grep '^call ' work.s | awk '{ print $2 }' > calls
assert_eq "work.count.0 makes three direct calls" 3 "$(wc -l < calls)"
assert_eq "work.count.0 calls near_mul.count.0" "$(addr near_mul.count.0 | sed 's/^0*//')" "$(sed -n 1p calls)"
assert_eq "work.count.0 calls far_add.count.0 (far_add.pi_entry)" "$(addr far_add.count.0 | sed 's/^0*//')" "$(sed -n 2p calls)"
assert_eq "far_add.pi_entry is far_add.count.0" "$(addr far_add.count.0)" "$(addr far_add.pi_entry)"
assert_eq "work.count.0 calls plain_xor.pi_entry" "$(addr plain_xor.pi_entry | sed 's/^0*//')" "$(sed -n 3p calls)"
for c in near_mul far_add; do
    dis $c.count.0 > $c.e
    assert_eq "$c.count.0 opens with its switch test, its clean copy when off" \
        "cmpb je <$c>" "$(awk '{ print $1 }' $c.e | head -2 | xargs) $(awk 'NR == 2 { print $NF }' $c.e)"
    grep -q '__perfinst_fnon' $c.e || { cat $c.e; fail "$c.count.0 does not open with a switch byte's test"; }
    dis $c > $c.s
    assert_contains "$c's own test branches past its copy's" $c.s "^jne +[0-9a-f]+ <$c\\.count\\.0\\+0x[0-9a-f]+>\$"
done
dis plain_xor.pi_entry > plain.e
assert_eq "plain_xor.pi_entry: the stand-in jumps to plain_xor" "jmp <plain_xor>" "$(awk 'NR == 1 { print $1, $NF }' plain.e)"
nm a.o > a.nm
assert_contains "copycalls.o: the stand-in is weak" a.nm ' [Vv] plain_xor\.pi_entry$| W plain_xor\.pi_entry$'
nm b.o > b.nm
assert_contains "copycalls2.o exports far_add's entry" b.nm ' T far_add\.pi_entry$'

# the counts, the modes, the overlays
run_exact prog "$s" "$want" "counts"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./prog "$T/count/copycalls2.c" prog.pit > c || { cat c; fail "copycalls2.c: counts"; }
ok "copycalls2.c: $(tail -1 c)"
off_counts_nothing prog "$want"
funcs() { "$PMOPT" report --format=csv --by=function "$1" "$2" | awk -F, 'NR > 1 { print $4, $2 }' | sort; }
funcs ./prog prog.pit > on.funcs
for c in near_mul far_add; do
    unit=$("$PMOPT" dump-meta prog | awk -v f="$c" '/^unit / { u = $2 } $1 == "function" && $3 == f { print u }')
    fi=$("$PMOPT" dump-meta prog | awk -v f="$c" '$1 == "function" && $3 == f { print $2 }')
    [ -n "$unit" ] && [ -n "$fi" ] || fail "$c: no unit or function number in dump-meta"
    printf 'perfinst-overlay 1\noff %s %s\n' "$unit" "$fi" > $c.ov
    rm -f ov.pit
    PERFINST_OVERLAY=$c.ov PERFINST_OUT=ov.pit ./prog > ov.out
    assert_eq "overlay $c off: the output" "$want" "$(cat ov.out)"
    funcs ./prog ov.pit > ov.funcs
    assert_contains "overlay $c off: $c not counted" ov.funcs "^$c 0\$"
    assert_eq "overlay $c off: the other functions as without it" "$(grep -v "^$c " on.funcs)" "$(grep -v "^$c " ov.funcs)"
done
cd .. || fail "no .."
done

# copy-calls=entry: the calls go to the functions, no entries
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-copy-calls=entry -c "$s" -o ae.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-copy-calls=entry -c "$T/count/copycalls2.c" -o be.o
pi_ld -O2 -o entry ae.o be.o c.o
objdump -d --no-show-raw-insn entry | awk '/<work.count.0>:/,/^$/' > work-e.s
assert_contains "copy-calls=entry: work.count.0 calls near_mul" work-e.s 'call +[0-9a-f]+ <near_mul>$'
assert_not_contains "copy-calls=entry: no entry" work-e.s 'pi_entry|count\.0>$'
run_exact entry "$s" "$want" "copy-calls=entry: counts"

# -fPIC (a shared object's code): the static near_mul through its entry,
# far_add (default visibility, may be interposed) as before
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-all=count $ALL -c "$s" -o ap.o
pi_cc -O2 -g -fPIC -fplugin-arg-perfinst-all=count $ALL -c "$T/count/copycalls2.c" -o bp.o
pi_ld -O2 -o pic ap.o bp.o c.o
objdump -d --no-show-raw-insn pic | awk '/<work.count.0>:/,/^$/' > work-p.s
assert_contains "-fPIC: work.count.0 calls near_mul.count.0" work-p.s 'call +[0-9a-f]+ <near_mul\.count\.0>$'
assert_not_contains "-fPIC: far_add not through an entry" work-p.s 'far_add\.(pi_entry|count)'
run_exact pic "$s" "$want" "-fPIC: counts"
