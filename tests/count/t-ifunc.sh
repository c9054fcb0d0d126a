# An ifunc resolver, and a function only resolvers call, are never
# instrumented (ifunc.c): they run while the program is relocated — in a
# static link before the thread pointer is set, where a counter faults, in
# a dynamic one before the thread's counters are initialised, where their
# counts would be overwritten.  all=count: the program runs, static and
# dynamic, and the other functions' counts are exact; a directive on the
# resolver is said to be ignored.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/ifunc.c
# entries of function $3 (csv of PROG $1, TRACE $2), empty if not listed
entries() {
    "$PMOPT" report --by=function --format=csv "$1" "$2" |
        awk -F, -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["linkage"] == f { print $c["entries"] }'
}
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o ifunc.o 2> cc.err || { cat cc.err; fail "compile"; }
assert_eq "no diagnostics" "" "$(cat cc.err)"
nm ifunc.o > syms
grep -q ' detect$' syms || fail "the fixture wants detect out of line"
objdump -d -r ifunc.o > dis
for f in pick detect; do
    awk -v f="<$f>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' dis > body.$f
    [ -s body.$f ] || fail "no body of $f in the object"
    ! grep -q '%fs:\|__perfinst' body.$f || { cat body.$f; fail "$f is instrumented (it runs before the counters exist)"; }
done
ok "the resolver pick and detect (only pick calls it) are not instrumented"
links="dynamic"
if gcc -static -o probe-static -x c - <<< 'int main(void) { return 0; }' 2> /dev/null; then
    links="$links static"
fi
for l in $links; do
    flag=; [ $l = static ] && flag=-static
    pi_ld -O2 $flag -o prog-$l ifunc.o
    rm -f $l.pit
    out=$(PERFINST_OUT=$l.pit ./prog-$l 37) || fail "$l: the program died ($?)"
    assert_eq "$l: output" 37 "$out"
    assert_eq "$l: add_one's entries" 37 "$(entries ./prog-$l $l.pit add_one)"
    assert_eq "$l: main's entries" 1 "$(entries ./prog-$l $l.pit main)"
    assert_eq "$l: pick not listed" "" "$(entries ./prog-$l $l.pit pick)"
    ok "$l link: runs, add_one 37 entries, main 1"
done
[ "$links" = "dynamic static" ] || echo "(no static libc here: the static link not tried)"
# a directive on the resolver: said, not dropped silently
sed 's|^static int (\*pick(void))(int)$|__attribute__((perfinst("count"))) static int (*pick(void))(int)|' "$src" > marked.c
grep -q 'perfinst("count"))) static int (\*pick' marked.c || fail "the fixture's pick line moved"
LC_ALL=C pi_cc -O2 -c marked.c -o marked.o 2> marked.err || { cat marked.err; fail "compile with the directive"; }
assert_contains "the directive on pick said to be ignored" marked.err "marked.c:22:.*warning: perfinst: directive 'count' ignored: 'pick' runs while the program is relocated"
objdump -d marked.o | awk '$2 == "<pick>:" { on = 1; next } /^$/ { on = 0 } on' > body.marked
! grep -q '%fs:' body.marked || fail "pick instrumented when marked"
ok "a count directive on the resolver: a warning, and pick stays uninstrumented"
