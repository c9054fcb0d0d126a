# Split functions enter through a jump slot with entry=jump (pass-split.cc,
# runtime/jumps.c): the first instruction of branchy's and
# leaf's entry is `jmp *SLOT(%rip)`, the slot's counting address is the
# instruction right after it and its clean address the clean copy (so with
# counting off an entry costs that one jmp); no entry tests a switch byte.  Counts stay exact across perfinst_disable()/enable() (n =
# 1000: branchy 2000 entries, leaf 1000), PERFINST_MODE=off counts nothing
# and an overlay turns one function off; the default (no argument) is
# entry=test, the byte test, with the same counts, and so is entry=jump with
# -fcf-protection=branch, -mindirect-branch=thunk and -masm=intel (with
# -flto the mode register); two threads entering while the mode flips 2000
# times neither crash nor count more entries than there were calls.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=jump -c "$T/count/entry.c" -o entry.o
pi_ld -O2 -o entry entry.o -lpthread
objdump -d --no-show-raw-insn entry > entry.s
python3 "$T/count/jump-slots.py" entry > slots
cat slots
for f in branchy leaf; do
    line=$(grep "^$f " slots) || fail "no jump slot for $f"
    jmp=$(echo "$line" | sed 's/.* jmp=0x\([0-9a-f]*\) .*/\1/')
    clean=$(echo "$line" | sed 's/.* clean=0x\([0-9a-f]*\) .*/\1/')
    counting=$(echo "$line" | sed 's/.* counting=0x\([0-9a-f]*\) .*/\1/')
    awk -v f="$f" '$0 ~ "^[0-9a-f]+ <" f ">:" { p = 1; next } /^$/ { p = 0 } p' entry.s > $f.s
    assert_eq "$f starts with its slot's jmp" "$jmp" "$(awk -F: 'NR == 1 { gsub(/ /, "", $1); print $1 }' $f.s)"
    assert_contains "$f's first instruction jumps through the slot" $f.s "^ +$jmp:	jmp +[*]0x[0-9a-f]+[(]%rip[)]"
    assert_contains "$f's counting copy starts right after the jmp" $f.s "^ +$counting:	"
    assert_contains "$f's clean copy is in $f" $f.s "^ +$clean:	"
    assert_eq "$f's slot starts at the counting copy" "$counting" "$(echo "$line" | sed 's/.* to=0x\([0-9a-f]*\) .*/\1/')"
    assert_contains "$f's slot follows its own switch" slots "^$f .* switch=__perfinst_fnon[+][0-9]+$"
    assert_not_contains "$f tests no switch byte" $f.s '__perfinst_fnon|__perfinst_on'
done

# row TRACE FUNCTION [PROGRAM]: the function's entries
row() { "$PMOPT" report "${3:-./entry}" "$1" --by=function --format=csv | awk -F, -v n="$2" '$4 == n { print $2 }'; }
PERFINST_OUT=on.pit ./entry 1000 > out
assert_eq "output" 2625750 "$(cat out)"
assert_eq "branchy entries (counted, off, counted)" 2000 "$(row on.pit branchy)"
assert_eq "leaf entries" 1000 "$(row on.pit leaf)"
PERFINST_MODE=off PERFINST_OUT=off.pit ./entry 1000 > out
assert_eq "output, mode off" 2625750 "$(cat out)"
# perfinst_enable() in main turns the third loop on even when started off
assert_eq "branchy, started off" 1000 "$(row off.pit branchy)"
assert_eq "leaf, started off" 500 "$(row off.pit leaf)"
"$PMOPT" dump-meta entry > meta
unit=$(awk '/^unit / { print $2 }' meta)
fl=$(awk '$1 == "function" && $3 == "leaf" { print $2 }' meta)
printf 'perfinst-overlay 1\noff %s %s\n' "$unit" "$fl" > ov
PERFINST_OVERLAY=ov PERFINST_OUT=ov.pit ./entry 1000 > out
assert_eq "output under the overlay" 2625750 "$(cat out)"
assert_eq "branchy under the overlay" 2000 "$(row ov.pit branchy)"
assert_eq "leaf off under the overlay" 0 "$(row ov.pit leaf)"

pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=test -c "$T/count/entry.c" -o test.o
pi_ld -O2 -o entry-test test.o -lpthread
objdump -d --no-show-raw-insn entry-test | awk '/^[0-9a-f]+ <branchy>:/ { p = 1; next } /^$/ { p = 0 } p' > test.s
assert_contains "entry=test: branchy tests its switch byte" test.s 'cmpb +\$0x0,.*<__perfinst_fnon'
assert_not_contains "entry=test: no slot jump" test.s 'jmp +[*]'
PERFINST_OUT=test.pit ./entry-test 1000 > out
assert_eq "entry=test: branchy entries" 2000 "$(row test.pit branchy ./entry-test)"
assert_eq "entry=test: leaf entries" 1000 "$(row test.pit leaf ./entry-test)"
# the default is entry=test (the jump ran more CPU time on SQLite,
# docs/indicators.md): the byte test, no slot
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/entry.c" -o dflt.o
pi_ld -O2 -o dflt dflt.o -lpthread
objdump -d --no-show-raw-insn dflt | awk '/^[0-9a-f]+ <branchy>:/ { p = 1; next } /^$/ { p = 0 } p' > dflt.s
assert_contains "default: branchy tests its switch byte" dflt.s 'cmpb +\$0x0,.*<__perfinst_fnon'
assert_not_contains "default: no slot jump" dflt.s 'jmp +[*]'
# where the jump cannot go entry=jump keeps the byte test by itself
# (pass-split.cc, entry_jump_usable): endbr64 targets, retpolines, Intel
# syntax; with -flto the entry reads the mode register.  Same counts.
for v in "cet|-fcf-protection=branch" "retpoline|-mindirect-branch=thunk" "intel|-masm=intel" "lto|-flto"; do
    n=${v%%|*} opt=${v#*|}
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=jump $opt -c "$T/count/entry.c" -o $n.o
    pi_ld -O2 $opt $( [ $n = lto ] && echo "-fplugin=$PLUGIN" ) -o entry-$n $n.o -lpthread
    objdump -d --no-show-raw-insn entry-$n | awk '/^[0-9a-f]+ <branchy>:/ { p = 1; next } /^$/ { p = 0 } p' > $n.s
    if [ $n = lto ]; then # the mode register, through the GOT
        assert_contains "$n: branchy reads the mode register" $n.s '<__perfinst_on(@Base)?>'
    else
        assert_contains "$n: branchy tests its switch" $n.s 'cmpb +\$0x0,.*<__perfinst_fnon'
    fi
    assert_not_contains "$n: no slot jump" $n.s 'jmp +[*]0x[0-9a-f]+[(]%rip[)]'
    PERFINST_OUT=$n.pit ./entry-$n 1000 > out
    assert_eq "$n: output" 2625750 "$(cat out)"
    assert_eq "$n: branchy entries" 2000 "$(row $n.pit branchy ./entry-$n)"
    assert_eq "$n: leaf entries" 1000 "$(row $n.pit leaf ./entry-$n)"
done
expect_fail "entry=bad is refused" pi_cc -O2 -fplugin-arg-perfinst-entry=bad -c "$T/count/entry.c" -o bad.o
assert_contains "the message names the value" err "entry=bad.*expected .jump. or .test."

PERFINST_OUT=flip.pit ./entry 10 flip > out
assert_eq "threads while the mode flips" flipped "$(cat out)"
b=$(row flip.pit branchy); l=$(row flip.pit leaf)
[ -n "$b" ] && [ "$b" -ge 1000 ] || fail "branchy counted $b entries (main's enabled half alone is 1000)"
ok "branchy counted $b entries while flipping"
