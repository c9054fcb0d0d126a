# Clean entries whose prologue GCC puts before the switch test, of the
# shapes pass-tailjump.cc's walk proves undone by the tail block
# (entry-branch=direct, the default): entryshapes.c's pop() (no prototype:
# the tail clears %al before its jmp; abort() in a cold part) and many()
# (nine arguments: loads of the three on the stack, one a bool the tail
# stores back, and stores into the frame, between the prologue and the
# test).  Each opens with its switch test, whose `jne` goes to its counting
# copy (with entry-branch=tail, GCC's code: pop's goes inside pop and many
# opens with its prologue); counting stays exact, the off mode runs the
# clean copies (no count), exe and -fPIC.
# With clean-copies=all: the branch is pass-tailjump.cc's on a clean copy
# compiled on its own; with clean-copies=final, the default, F opens with its
# test and `jne F.count.N` whatever entry-branch says (t-clean-final.sh).
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
src=$T/count/entryshapes.c
# the first two instructions of FUNC in PROG, objdump's operands kept
head2() {
    objdump -d --no-show-raw-insn "$1" |
        awk -v f="$2" '$0 ~ "^[0-9a-f]+ <" f ">:$" { p = 1; next } p && NF { sub(/^ *[0-9a-f]+:\t/, ""); print; if (++n == 2) exit }'
}
for v in exe pic; do
    for b in direct tail; do
        flags="-fplugin-arg-perfinst-entry-branch=$b"
        [ $v = pic ] && flags="$flags -fPIC"
        pi_cc -O2 -g -std=gnu11 -fplugin-arg-perfinst-all=count $ALL $flags -c "$src" -o $b.o
        pi_ld -O2 -o $b $b.o
        for f in pop many; do
            head2 ./$b $f > $b.$f
            if [ $b = direct ]; then
                grep -q '^cmpb .*__perfinst_fnon' $b.$f || { cat $b.$f; fail "$v: $f does not open with its switch test"; }
                grep -qE "^jne +[0-9a-f]+ <$f\\.count\\.[0-9]+(\\+0x[0-9a-f]+)?>\$" $b.$f || { cat $b.$f; fail "$v: $f's test does not branch to $f.count.N"; }
            elif [ $f = pop ]; then
                grep -qE '^jne +[0-9a-f]+ <pop\+0x[0-9a-f]+>$' $b.pop || { cat $b.pop; fail "$v, tail: pop's test does not branch inside pop"; }
            else
                grep -qE '^push ' $b.many || { cat $b.many; fail "$v, tail: many does not open with its prologue"; }
            fi
            ok "$v, $b, $f: $(tr '\n' ';' < $b.$f)"
        done
        rm -f $b.pit
        PERFINST_OUT=$b.pit ./$b > $b.out
        assert_eq "$v, $b: the program's result" "4024000 3030832" "$(cat $b.out)"
        python3 "$T/count/check-counts.py" --all "$PMOPT" ./$b "$src" $b.pit > c || { cat c; fail "$v, $b: counts"; }
        ok "$v, $b: $(tail -1 c)"
        rm -f $b.off.pit
        PERFINST_MODE=off PERFINST_OUT=$b.off.pit ./$b > $b.off.out
        assert_eq "$v, $b, off: the program's result" "4024000 3030832" "$(cat $b.off.out)"
        n=$("$PMOPT" report ./$b $b.off.pit --by=line --format=csv | awk -F, 'NR > 1 && ($3 == 22 || $3 == 30) { s += $1 } END { print s + 0 }' 2> /dev/null)
        assert_eq "$v, $b, off: lines 22 and 30 (the clean copies ran)" 0 "$n"
    done
done
