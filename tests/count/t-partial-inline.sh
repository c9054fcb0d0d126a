# ipa-split (partial inlining) with bare-return=yes: gcc -O2 splits get()
# (partial-inline.c) into the test, inlined into its callers, and
# get.part.0, the slow path; an all=count build with
# -fplugin-arg-perfinst-bare-return=yes splits it the same way because the
# return block stays a bare `return` (gcc-plugin/return-site.cc: its
# counter goes on the edges into it, its site marker back into the
# counting copy after IPA).  By default (bare-return=no: on SQLite the
# splits cost more than they saved, bench/RESULTS.md offmode-early) the
# site marker and the counter stay in the return block, ipa-split finds no
# return block, and get is not split.
# The split function still counts exactly (the return block's count is
# the sum of its edges'), and PERFINST_MODE=off counts nothing.  All this
# counted at cfg (count-at=cfg); counted after the early inliner
# (count-at=late, the default) ipa-split runs before any counter, as at
# -O2, whatever bare-return says: the program still runs and the off mode
# counts nothing.
. "$PERFINST_TOP/tests/lib.sh"
# (get.part.0's counting copy, get.part.0.count.N, is not another part)
parts() { nm "$1" | grep -cE ' get\.part\.[0-9]+$' || true; }
calls() { objdump -d --no-show-raw-insn "$1" | grep -cE "call +[0-9a-f]+ <$2>" || true; }
# the functions that call or jump to get.part.0 (both copies may share one
# tail after RTL cross-jumping, so functions, not instructions, are
# compared; a counting copy f.count.N is f's)
callers() {
    objdump -d --no-show-raw-insn "$1" |
        awk '/^[0-9a-f]+ <.*>:$/ { f = $2; sub(/\.count\.[0-9]+>:$/, ">:", f) }
             /\t(call|jmp) +[0-9a-f]+ <get\.part\.0>$/ { print f }' | sort -u | tr '\n' ' '
}
gcc -O2 -c "$T/count/partial-inline.c" -o o2.o
assert_eq "gcc -O2 splits get (the fixture is valid)" 1 "$(parts o2.o)"
assert_eq "gcc -O2: no call of get left" 0 "$(calls o2.o get)"
# (the plugin's objects in one .text, as -O2's: objdump names the calls' targets)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fno-function-sections -c "$T/count/partial-inline.c" -o default.o
assert_eq "all=count, default: get is not split" 0 "$(parts default.o)"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-bare-return=yes \
    -fno-function-sections -c "$T/count/partial-inline.c" -o pi.o
assert_eq "all=count, bare-return=yes: get is split too" 1 "$(parts pi.o)"
assert_eq "all=count: no call of get left either" 0 "$(calls pi.o get)"
assert_eq "all=count: the functions that call get.part.0 are -O2's" "$(callers o2.o)" "$(callers pi.o)"
pi_ld -O2 -o pi pi.o
PERFINST_OUT=pi.pit ./pi > out
assert_eq "output" 647 "$(cat out)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./pi "$T/count/partial-inline.c" pi.pit ||
    fail "get's counts after the split"
off_counts_nothing pi 647

pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/partial-inline.c" -o late.o
pi_ld -O2 -o late late.o
PERFINST_OUT=late.pit ./late > out
assert_eq "late: output" 647 "$(cat out)"
off_counts_nothing late 647
# bare-return applies to functions counted at cfg only: counted late it changes
# no instruction, and the compiler says so in a note (none at cfg)
cfg_only_option bare-return=yes "$T/count/partial-inline.c"
