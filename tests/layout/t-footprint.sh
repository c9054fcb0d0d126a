# bench/hot-footprint.py reads a program's instruction-cache footprint from
# callgrind per instruction with a cache simulation (docs/layout.md
# "Benchmarks"), exactly, on footprint.c's known lines: spin's line holds
# 11 bytes of instructions that run 2004 times, 19 bytes of nops and 34 bytes
# of instructions that never run (a ud2 and the function never); far, 4096
# bytes after spin (the same set), runs 3 instructions in each of 10 calls.
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "no valgrind"
FP="python3 $PERFINST_TOP/bench/hot-footprint.py"
gcc -O2 -o fp "$T/layout/footprint.c"
./fp || fail "footprint.c's program"
spin=$(nm fp | awk '$3 == "spin" { print $1 }')
far=$(nm fp | awk '$3 == "far" { print $1 }')
assert_eq "spin is 64-byte aligned" 0 $((16#$spin % 64))
assert_eq "far is 4096 bytes after spin" 4096 $((16#$far - 16#$spin))
valgrind --tool=callgrind --dump-instr=yes --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
    --LL=8388608,16,64 --callgrind-out-file=cg.out ./fp > /dev/null 2> cg.err || { cat cg.err >&2; fail "callgrind"; }
$FP --lines --sets fp cg.out > fp.txt || { cat fp.txt >&2; fail "hot-footprint.py"; }
cat fp.txt | head -20
set=$(( (16#$spin >> 6) & 63 ))
# line set Ir I1mr executed nops not-executed none symbol
assert_contains "spin's line: 2004 runs, 11 bytes run, 19 of nops, 34 not run" fp.txt \
    "^0x$(printf %x $((16#$spin))) $set 2004 [0-9]+ 11 19 34 0 spin\$"
assert_contains "far's line: the same set, 30 runs of 6 bytes" fp.txt \
    "^0x$(printf %x $((16#$far))) $set 30 [0-9]+ 6 [0-9]+ [0-9]+ [0-9]+ far\$"
assert_contains "the summary counts the program's lines" fp.txt \
    "^fp lines touched [0-9]+ \\([0-9]+ bytes\\): executed instructions [0-9]+ bytes"
# the totals are the sums of the lines
read -r n e p c <<< "$(awk '/^0x/ { n++; e += $5; p += $6; c += $7 } END { print n, e, p, c }' fp.txt)"
assert_contains "lines, bytes run, nops and bytes not run add up" fp.txt \
    "^fp lines touched $n \\($((64 * n)) bytes\\): executed instructions $e bytes \\([0-9.]+ %\\), nops $p \\([0-9.]+ %\\), other instructions not executed $c "
# a profile without a cache simulation, one per line, a missing one
valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=nosim.out ./fp > /dev/null 2>&1
expect_fail "a profile without the cache simulation" $FP fp nosim.out
assert_contains "it says why" err "cache-sim=yes"
valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file=line.out ./fp > /dev/null 2>&1
expect_fail "a profile per line" $FP fp line.out
assert_contains "it says why" err "dump-instr=yes"
expect_fail "a missing profile" $FP fp missing.out
assert_contains "it names the file" err "missing.out"
