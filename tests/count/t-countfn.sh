# counting=function (gcc-plugin/pass-countfn.cc): the counting copy is a
# function of its own, f.count.N, entered by a sibling call after f's
# switch test, so f is the test plus -O2's code.  countfn.c's cell_info has
# no frame at -O2 but its counting copy needs one (a probe before an
# indirect call): with the in-function copies (counting=inline) it pushes
# before its test; with counting=function its entry is cmpb + jne, no push
# or sub anywhere, and the rest is -O2's instructions.  Counts are exact and
# the same as counting=inline's; nothing is counted with PERFINST_MODE=off;
# an overlay turns cell_info off alone; threshold stacks show no extra
# frame (sum_cells → pick, main → sum_cells).
# With clean-copies=all: its copies compiled each on its own and its
# inline cache's miss a call GCC sees (which needs the frame); with
# clean-copies=final, the default, F is made of the counting copy's code and
# the cache is one asm (t-clean-final.sh, t-icall-regs.sh).
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
src=$T/count/countfn.c
# mnemonics of FN in object/program $1 (nops dropped)
insns() { objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
    awk -F'\t' 'NF >= 2 { split($2, w, " "); if (w[1] !~ /^(nop|data16|cs|xchg)/) print w[1] }'; }

gcc -O2 -I"$PERFINST_TOP/include" -c "$src" -o o2.o
insns o2.o cell_info > o2.ins
assert_eq "gcc -O2: cell_info has no frame (the fixture is valid)" 0 "$(grep -cE '^(push|sub)' o2.ins || true)"

pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-counting=inline -c "$src" -o inl.o
insns inl.o cell_info > inl.ins
assert_eq "counting=inline: cell_info pushes before its test's jne (the problem)" 3 \
    "$(awk '/^jne/ { exit } /^push/ { n++ } END { print n + 0 }' inl.ins)"

# (one .text, as without all=count: objdump names the jump's target)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-counting=function -fno-function-sections -c "$src" -o fn.o
insns fn.o cell_info > fn.ins
assert_eq "counting=function: cell_info enters with cmpb + jne" "cmpb jne" "$(head -2 fn.ins | xargs)"
objdump -d --no-show-raw-insn fn.o | awk '/<cell_info>:/,/^$/' > fn.s
assert_contains "the test reads cell_info's switch byte" fn.s 'cmpb +\$0x0,0x0\(%rip\)'
assert_eq "counting=function: no push or sub in cell_info" 0 "$(grep -cE '^(push|sub)' fn.ins || true)"
assert_contains "the dispatch jumps to cell_info.count.N (past its own test)" fn.s 'jmp +[0-9a-f]+ <cell_info\.count\.[0-9]+(\+0x[0-9a-f]+)?>'
# the rest: -O2's cell_info, then the jump to the counting copy
sed '1,2d;$d' fn.ins > fn.body
diff o2.ins fn.body || fail "cell_info after the test is not gcc -O2's code"
ok "cell_info after the test is gcc -O2's code ($(wc -l < fn.body) instructions)"
# sum_cells keeps p and n in callee-saved registers across its calls (-O2
# pushes them at entry): its test still comes first, the prologue after
# it (pass-countfn.cc passes the sibling call's arguments from the
# incoming registers, so the copies into callee-saved ones sink)
insns o2.o sum_cells > o2sum.ins
assert_eq "gcc -O2: sum_cells starts with a push (the fixture is valid)" push "$(head -1 o2sum.ins)"
insns fn.o sum_cells > fnsum.ins
assert_eq "counting=function: sum_cells enters with cmpb + jne, then its prologue" "cmpb jne push" "$(head -3 fnsum.ins | xargs)"
objdump -dr --no-show-raw-insn fn.o | awk '/<cell_info\.count\.[0-9]+>:/,/^$/' > count.s
assert_contains "cell_info.count.N calls the indirect-call profile's miss path" count.s '__perfinst_icall_miss'
assert_contains "cell_info.count.N keeps a frame (pushes)" count.s 'push '

pi_ld -O2 -o inl inl.o
pi_ld -O2 -o fn fn.o
PERFINST_OUT=inl.pit ./inl 10 > inl.out
PERFINST_OUT=fn.pit ./fn 10 > fn.out
assert_eq "output" "sum 235
events 2" "$(cat fn.out)"
diff inl.out fn.out || fail "outputs differ"
funcs() { "$PMOPT" report --format=csv --by=function "$1" "$2" | awk -F, 'NR > 1 { print $4, $2, $1 }' | sort; }
funcs ./fn fn.pit > fn.funcs
assert_contains "cell_info entered 10 times" fn.funcs '^cell_info 10 '
assert_contains "parse_cell entered 10 times" fn.funcs '^parse_cell 10 10$'
assert_contains "pick entered 10 times" fn.funcs '^pick 10 '
assert_contains "sum_cells entered once" fn.funcs '^sum_cells 1 '
sites() { "$PMOPT" report "$1" "$2" --by=line --format=csv | awk -F, 'NR > 1 { print $3 "=" $1 }' | sort -n; }
sites ./inl inl.pit > inl.lines
sites ./fn fn.pit > fn.lines
diff inl.lines fn.lines || fail "line counts differ from counting=inline's"
ok "line counts identical to counting=inline's ($(wc -l < fn.lines) lines)"

"$PMOPT" report --callers ./fn fn.pit > callers
assert_contains "threshold stack: sum_cells → pick, 2 events" callers '^    sum_cells → pick  2$'
assert_contains "threshold stack: main → sum_cells" callers '^      main → sum_cells  2$'

PERFINST_MODE=off PERFINST_OUT=off.pit ./fn 10 > off.out
assert_eq "off: output" "sum 235
events 0" "$(cat off.out)"
funcs ./fn off.pit > off.funcs
assert_eq "off: nothing counted" "" "$(awk '$2 != 0' off.funcs)"
ok "off: every function 0"

unit=$("$PMOPT" dump-meta fn | awk '/^unit / { print $2 }')
f=$("$PMOPT" dump-meta fn | awk '/^  function [0-9]+ cell_info / { print $2 }')
printf 'perfinst-overlay 1\noff %s %s\n' "$unit" "$f" > off.ov
PERFINST_OVERLAY=off.ov PERFINST_OUT=ov.pit ./fn 10 > ov.out
diff fn.out ov.out || fail "output with the overlay"
funcs ./fn ov.pit > ov.funcs
assert_contains "overlay: cell_info not counted" ov.funcs '^cell_info 0 0$'
assert_eq "overlay: every other function as without it" "$(grep -v '^cell_info ' fn.funcs)" "$(grep -v '^cell_info ' ov.funcs)"

# pmopt plan reads F.count.N's profile as F's (optimizer/plan/plan-order.c):
# the order names the functions an uninstrumented build has
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-counting=function \
    -fplugin-arg-perfinst-sections -c "$src" -o sec.o
pi_ld -O2 -o sec sec.o
PERFINST_OUT=sec.pit ./sec 1000 > /dev/null
"$PMOPT" plan --order=c3 --advise ./sec sec.pit > plan
assert_contains "plan: 6 hot functions" plan '^pmopt plan --order=c3: .*, 6 hot functions'
assert_contains "plan: cell_info and pick ordered" plan '^     functions=.*cell_info.*'
assert_not_contains "plan: no counting copy named" plan 'functions=.*\.count\.'

# A structure returned in registers (countret.c's pair_step, 16 bytes in
# rax:rdx) gets its counting copy too: the dispatch's sibling call returns
# the structure as pair_step does.  One returned in memory (triple_step, 24
# bytes through a hidden pointer) is left to the in-function copies.  Both
# count exactly, with clean-copies=final (the default) and all, and count
# nothing with PERFINST_MODE=off.
ret=$T/count/countret.c
gcc -O2 -o ret-o2 "$ret"
./ret-o2 10 > ret-o2.out
assert_eq "countret: -O2's output (the fixture)" "18 27 25 20 10" "$(cat ret-o2.out)"
for cc in final all; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$cc -fno-function-sections \
        -c "$ret" -o ret-$cc.o
    nm ret-$cc.o > ret-$cc.nm
    assert_contains "$cc: pair_step (a structure in registers) has its counting copy" ret-$cc.nm ' pair_step\.count\.[0-9]+$'
    assert_not_contains "$cc: triple_step (a structure in memory) has none" ret-$cc.nm 'triple_step\.count\.'
    insns ret-$cc.o pair_step > ret-$cc.ins
    assert_eq "$cc: pair_step enters with cmpb + jne" "cmpb jne" "$(head -2 ret-$cc.ins | xargs)"
    objdump -d --no-show-raw-insn ret-$cc.o | awk '/<pair_step>:/,/^$/' > ret-$cc.s
    # (final: jne straight into the copy past its own test; all: jne to a jmp)
    assert_contains "$cc: pair_step's dispatch jumps to pair_step.count.N" ret-$cc.s \
        'j(ne|mp) +[0-9a-f]+ <pair_step\.count\.[0-9]+(\+0x[0-9a-f]+)?>'
    pi_ld -O2 -o ret-$cc ret-$cc.o
    PERFINST_OUT=ret-$cc.pit ./ret-$cc 10 > ret-$cc.out
    diff ret-o2.out ret-$cc.out || fail "$cc: countret's output differs from -O2's"
    funcs ./ret-$cc ret-$cc.pit > ret-$cc.funcs
    assert_contains "$cc: pair_step entered 10 times" ret-$cc.funcs '^pair_step 10 '
    assert_contains "$cc: triple_step entered 10 times" ret-$cc.funcs '^triple_step 10 '
    sites ./ret-$cc ret-$cc.pit > ret-$cc.lines
    assert_eq "$cc: the branches' lines: lo 4, hi 6, a 5, b 5" "19=4 21=6 28=5 30=5" \
        "$(grep -E '^(19|21|28|30)=' ret-$cc.lines | xargs)"
    PERFINST_MODE=off PERFINST_OUT=ret-$cc-off.pit ./ret-$cc 10 > ret-$cc-off.out
    diff ret-o2.out ret-$cc-off.out || fail "$cc off: countret's output differs from -O2's"
    funcs ./ret-$cc ret-$cc-off.pit > ret-$cc-off.funcs
    assert_eq "$cc off: nothing counted" "" "$(awk '$2 != 0' ret-$cc-off.funcs)"
done
