# A clean copy's switch test branches straight to its counting copy
# (entry-branch=direct, the default; gcc-plugin/pass-tailjump.cc): in
# ctrorder.c's work() the test is the function's first instruction and its
# `jne` goes to work.count.N itself, not to a `jmp work.count.N` at the
# function's end (entry-branch=tail, GCC's code, which this test tells
# apart).  Counting stays exact, PERFINST_MODE=off runs the clean copy
# (no count), and -fPIC builds the same branch.  With -fno-shrink-wrap the
# prologue comes before the test (`sub $8, %rsp`), and the tail block
# undoes it before its jmp: the test moves in front of the prologue and
# its `jne` goes to work.count.N (with `tail` work opens with the `sub`).
# With clean-copies=all: the branch is pass-tailjump.cc's on a clean copy
# compiled on its own; with clean-copies=final, the default, F opens with its
# test and `jne F.count.N` whatever entry-branch says (t-clean-final.sh).
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
src=$T/count/ctrorder.c
# the first two instructions of FUNC in PROG, objdump's operands kept
head2() {
    objdump -d --no-show-raw-insn "$1" |
        awk -v f="$2" '$0 ~ "^[0-9a-f]+ <" f ">:$" { p = 1; next } p && NF { sub(/^ *[0-9a-f]+:\t/, ""); print; if (++n == 2) exit }'
}
for v in exe pic noshrink; do
    for b in direct tail; do
        flags="-fplugin-arg-perfinst-entry-branch=$b"
        [ $v = pic ] && flags="$flags -fPIC"
        [ $v = noshrink ] && flags="$flags -fno-shrink-wrap"
        pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL $flags -c "$src" -o $b.o
        pi_ld -O2 -o $b $b.o
        head2 ./$b work > $b.head
        if [ $v = noshrink ] && [ $b = tail ]; then
            grep -qE '^sub +\$0x8,%rsp$' $b.head || { cat $b.head; fail "$v, tail: work does not open with its prologue"; }
        else
            grep -q '^cmpb .*__perfinst_fnon' $b.head || { cat $b.head; fail "$v, $b: work does not open with its switch test"; }
        fi
        if [ $v = noshrink ] && [ $b = tail ]; then
            :
        elif [ $b = direct ]; then
            grep -qE '^jne +[0-9a-f]+ <work\.count\.[0-9]+(\+0x[0-9a-f]+)?>$' $b.head || { cat $b.head; fail "$v: work's test does not branch to work.count.N"; }
        else
            grep -qE '^jne +[0-9a-f]+ <work\+0x[0-9a-f]+>$' $b.head || { cat $b.head; fail "$v, tail: work's test does not branch inside work"; }
        fi
        ok "$v, $b: $(tr '\n' ';' < $b.head)"
        rm -f $b.pit
        PERFINST_OUT=$b.pit ./$b > $b.out
        assert_eq "$v, $b: the program's result" 532939 "$(cat $b.out)"
        python3 "$T/count/check-counts.py" --all "$PMOPT" ./$b "$src" $b.pit > c || { cat c; fail "$v, $b: counts"; }
        ok "$v, $b: $(tail -1 c)"
        rm -f $b.off.pit
        PERFINST_MODE=off PERFINST_OUT=$b.off.pit ./$b > $b.off.out
        assert_eq "$v, $b, off: the program's result" 532939 "$(cat $b.off.out)"
        n=$("$PMOPT" report ./$b $b.off.pit --by=line --format=csv | awk -F, 'NR > 1 && $3 == 30 { print $1 }' 2> /dev/null)
        assert_eq "$v, $b, off: line 30's count (the clean copy ran)" 0 "$n"
    done
done
