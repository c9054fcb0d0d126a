# A counting copy's blocks that hold only site markers lose them before
# jump2 (bare-markers=drop, the default; gcc-plugin/pass-countfn.cc
# baremarkers), so that the CFG cleanup forwards the jumps into them as it
# forwards -O2's empty blocks.  baremarkers.c's run is an interpreter
# loop whose cases' `break`s all reach one block holding only the
# switch's exit marker: with the marker kept (bare-markers=keep) the cases
# jump to it and it jumps to the loop's head (a jump chain); dropped, the
# cases jump to the head.  Checked: the chain with keep and none by
# default, the marker deleted (-fplugin-arg-perfinst-verbose), every line
# count exact and the same either way, equal to gcov's on every line gcov
# lists (-O2 --coverage), and nothing counted with the mode off.
. "$PERFINST_TOP/tests/lib.sh"
s=$T/count/baremarkers.c
gcc -O2 "$s" -o o2
want=$(./o2)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-verbose -c "$s" -o drop.o 2> drop.notes
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-bare-markers=keep -fplugin-arg-perfinst-verbose \
    -c "$s" -o keep.o 2> keep.notes
pi_ld -O2 -o drop drop.o
pi_ld -O2 -o keep keep.o
assert_contains "drop: run.count.0's bare marker deleted" drop.notes "bare markers of .run\\.count\\.0.: 1 deleted"
assert_not_contains "keep: no marker deleted" keep.notes "bare markers of"

# chains PROG: "ADDR TARGET" for each direct jump of run.count.0 that lands
# on a jmp (its target, past any nops, an unconditional jump)
chains() {
    objdump -d --no-show-raw-insn "$1" | awk '
        /<run\.count\.0>:$/ { on = 1; next }
        on && /^$/ { exit }
        on { a = $1; sub(/:$/, "", a); ins[n] = $2; at[n++] = a; idx[a] = n - 1
             if ($2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/) { src[m] = a; dst[m++] = $3 } }
        END {
            for (j = 0; j < m; j++) {
                if (!(dst[j] in idx)) continue
                for (k = idx[dst[j]]; k < n && ins[k] ~ /^(nop|xchg|data16|cs)/; k++) ;
                if (k < n && ins[k] == "jmp") print src[j], dst[j]
            }
        }'
}
chains keep > keep.chains
chains drop > drop.chains
[ -s keep.chains ] || { objdump -d --no-show-raw-insn keep | awk '/<run\.count\.0>:$/,/^$/'; fail "keep: no jump lands on a jmp in run.count.0 (the fixture no longer has the bare block)"; }
ok "keep: $(wc -l < keep.chains) jumps of run.count.0 land on a jmp"
[ -s drop.chains ] && { cat drop.chains; objdump -d --no-show-raw-insn drop | awk '/<run\.count\.0>:$/,/^$/'; fail "drop: jumps of run.count.0 land on a jmp"; }
ok "drop: no jump of run.count.0 lands on a jmp"

# the counts: exact, the same with and without the markers, gcov's
run_exact drop "$s" "$want" "drop: counts"
run_exact keep "$s" "$want" "keep: counts"
lines() { "$PMOPT" report ./"$1" "$1.pit" --by=line --format=csv | awk -F, 'NR > 1 && $2 ~ /baremarkers\.c$/ { print $3, $1 }' | sort -n; }
lines drop > drop.lines
lines keep > keep.lines
assert_eq "every line's count the same with the markers kept" "$(cat keep.lines)" "$(cat drop.lines)"
if command -v gcov > /dev/null; then
    cp "$s" .
    gcc -O2 --coverage baremarkers.c -o cov
    ./cov > /dev/null
    gcov -t cov-baremarkers.gcda 2> /dev/null |
        awk -F: '$1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -n > gcov.lines
    [ -s gcov.lines ] || fail "gcov listed no line of baremarkers.c"
    diff=$(join -a 1 -e none -o 0,1.2,2.2 gcov.lines drop.lines | awk '$2 != $3')
    assert_eq "drop: every line gcov lists has gcov's count" "" "$diff"
    ok "$(wc -l < gcov.lines) lines as gcov's"
else
    echo "gcov not installed: the comparison with gcov not made"
fi
off_counts_nothing drop "$want"
