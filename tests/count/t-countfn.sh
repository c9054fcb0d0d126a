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
