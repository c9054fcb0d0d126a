# A counting copy's small loop latch is copied into the blocks that jump
# to it, right before bb-reorder (latch-copy=yes, opt-in;
# gcc-plugin/pass-countfn.cc latchcopy).  latchcopy.c's run is an
# interpreter loop whose cases' `break`s reach the latch `pc = pc->next`;
# its empty cases go straight from the switch to the latch, so -O2's
# bb-reorder copies the latch into the cases.  In the counting copy that
# edge's counter has a block of its own, and bb-reorder copies nothing
# (latch-copy=no): the cases jump to the latch, the latch to the head.
# Checked: -O2 copies the latch (the fixture still has the pattern), with
# no (the default) the counting copy's cases jump to it, with yes none does and the
# copies are there (-fplugin-arg-perfinst-verbose says how many), every
# line count exact and the same either way, equal to gcov's on every line
# gcov lists (-O2 --coverage), nothing counted with the mode off; and the
# same under clean-copies=final.  And with final, f made of run.count.0's
# code (run without its cold abort, which keeps f late's) gets the latch
# copied at each jump to it, as -O2 has it (finalcopy.cc: a jump to a
# small block that ends in a jump), with latch-copy=no.
. "$PERFINST_TOP/tests/lib.sh"
s=$T/count/latchcopy.c
gcc -O2 "$s" -o o2
want=$(./o2)

# latch FUNC PROG: "loads jumps" in FUNC: how many times FUNC has the
# latch's load `mov (%rX),%rX` (pc = pc->next), and how many of its direct
# jumps land (past nops) on such a load that a jmp follows: a jump to the
# latch
latch() {
    objdump -d --no-show-raw-insn "$2" | awk -v f="$1" '
        $0 ~ "<" f ">:$" { on = 1; next }
        on && /^$/ { exit }
        on { a = $1; sub(/:$/, "", a); ins[n] = $2 " " $3; at[n++] = a; idx[a] = n - 1
             if ($2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/) { dst[m++] = $3 } }
        END {
            for (k = 0; k < n; k++) if (ins[k] ~ /^mov \(%r[a-z0-9]+\),%r[a-z0-9]+$/) {
                split(ins[k], p, /[(),]/); if (p[2] == p[4]) { load[k] = 1; loads++ } }
            for (j = 0; j < m; j++) {
                if (!(dst[j] in idx)) continue
                for (k = idx[dst[j]]; k < n && ins[k] ~ /^(nop|xchg|data16|cs)/; k++) ;
                if ((k in load) && ins[k + 1] ~ /^jmp /) jumps++
            }
            print loads + 0, jumps + 0
        }'
}
read -r o2loads o2jumps <<< "$(latch run o2)"
[ "$o2loads" -ge 4 ] || { objdump -d --no-show-raw-insn o2 | awk '/<run>:$/,/^$/'; fail "-O2 did not copy run's latch ($o2loads loads): the fixture no longer has the pattern"; }
ok "-O2: run's latch in $o2loads places, $o2jumps jumps to it"

for mode in all final; do
    X="-fplugin-arg-perfinst-clean-copies=$mode"
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count $X -fplugin-arg-perfinst-latch-copy=yes -fplugin-arg-perfinst-verbose \
        -c "$s" -o yes-$mode.o 2> yes-$mode.notes
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count $X -fplugin-arg-perfinst-latch-copy=no -fplugin-arg-perfinst-verbose \
        -c "$s" -o no-$mode.o 2> no-$mode.notes
    pi_ld -O2 -o yes-$mode yes-$mode.o
    pi_ld -O2 -o no-$mode no-$mode.o
    assert_contains "$mode: run.count.0's latch copied" yes-$mode.notes "latches of .run\\.count\\.0.: 1 copied into [0-9]+ blocks"
    assert_not_contains "$mode, latch-copy=no: no latch copied" no-$mode.notes "latches of"
    read -r loads jumps <<< "$(latch run.count.0 no-$mode)"
    [ "$jumps" -ge 4 ] || { objdump -d --no-show-raw-insn no-$mode | awk '/<run\.count\.0>:$/,/^$/'; fail "$mode, latch-copy=no: $jumps jumps to run.count.0's latch (the counting copy no longer keeps it whole)"; }
    ok "$mode, latch-copy=no: the latch in $loads place(s), $jumps jumps to it"
    read -r loads jumps <<< "$(latch run.count.0 yes-$mode)"
    [ "$loads" -ge 4 ] && [ "$jumps" = 0 ] || { objdump -d --no-show-raw-insn yes-$mode | awk '/<run\.count\.0>:$/,/^$/'; fail "$mode: run.count.0's latch in $loads places, $jumps jumps to it"; }
    ok "$mode: run.count.0's latch in $loads places, no jump to it"
    run_exact yes-$mode "$s" "$want" "$mode: counts"
    run_exact no-$mode "$s" "$want" "$mode, latch-copy=no: counts"
    lines() { "$PMOPT" report ./"$1" "$1.pit" --by=line --format=csv | awk -F, 'NR > 1 && $2 ~ /latchcopy\.c$/ { print $3, $1 }' | sort -k1,1; }
    lines yes-$mode > yes-$mode.lines
    lines no-$mode > no-$mode.lines
    assert_eq "$mode: every line's count the same without the copies" "$(cat no-$mode.lines)" "$(cat yes-$mode.lines)"
    off_counts_nothing yes-$mode "$want"
done

# final, latch-copy=no: f made of the copy's code, whose cases jump to the
# latch: each jump becomes a copy of it (abort, a cold path, would make
# f late's clean copy: the fixture with return -1 there)
sed 's/^\( *\)abort();/\1return -1;/' "$s" > nocold.c
grep -q 'return -1;' nocold.c || fail "nocold.c: abort() not replaced"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=final -fplugin-arg-perfinst-verbose \
    -c nocold.c -o nocold.o 2> nocold.notes
pi_ld -O2 -o nocold nocold.o
assert_contains "nocold: run made of its copy's assembly" nocold.notes "‘run’ made of its assembly"
read -r cloads cjumps <<< "$(latch run.count.0 nocold)"
read -r loads jumps <<< "$(latch run nocold)"
[ "$cjumps" -ge 4 ] || fail "nocold: run.count.0 has $cjumps jumps to its latch (the fixture no longer has the pattern)"
[ "$loads" -ge "$cjumps" ] && [ "$jumps" -le 1 ] || { objdump -d --no-show-raw-insn nocold | awk '/<run>:$/,/^$/'; fail "nocold: f (run) has the latch in $loads places, $jumps jumps to it (run.count.0: $cjumps)"; }
ok "nocold: f (run) has the latch in $loads places, $jumps jump(s) to it; run.count.0 $cloads, $cjumps"
run_exact nocold nocold.c "$want" "nocold: counts"
off_counts_nothing nocold "$want"

if command -v gcov > /dev/null; then
    cp "$s" .
    gcc -O2 --coverage latchcopy.c -o cov
    ./cov > /dev/null
    gcov -t cov-latchcopy.gcda 2> /dev/null |
        awk -F: '$1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -k1,1 > gcov.lines
    [ -s gcov.lines ] || fail "gcov listed no line of latchcopy.c"
    for mode in all final; do
        diff=$(join -a 1 -e none -o 0,1.2,2.2 gcov.lines yes-$mode.lines | awk '$2 != $3')
        assert_eq "$mode: every line gcov lists has gcov's count" "" "$diff"
    done
    ok "$(wc -l < gcov.lines) lines as gcov's"
else
    echo "gcov not installed: the comparison with gcov not made"
fi
