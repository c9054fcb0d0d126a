# A program compiled without unwind tables (BusyBox's Makefile.flags:
# -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer):
# every sampled stack is truncated at its first frame, and report --tree
# says why and what to add (report-tree.c, note_no_unwind); the same
# program with its tables gets complete stacks and no note.
. "$PERFINST_TOP/tests/lib.sh"
F="-O2 -g -fomit-frame-pointer -fplugin-arg-perfinst-all=count"
pi_cc $F -fno-asynchronous-unwind-tables -fno-unwind-tables -c "$T/sampling/nounwind.c" -o bare.o
pi_ld -O2 -o bare bare.o
pi_cc $F -c "$T/sampling/nounwind.c" -o tables.o
pi_ld -O2 -o tables tables.o
for p in bare tables; do
    PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=$p.pit ./$p 40 > /dev/null
    "$PMOPT" report --tree $p $p.pit > $p.tree 2> $p.err
done
assert_contains "bare: its samples truncated" bare.tree 'samples for [0-9]+ periods, [1-9][0-9]* truncated'
assert_contains "bare: the note says why" bare.err 'note: [0-9]+ of [0-9]+ samples are truncated: bare has unwind tables \(\.eh_frame\) for [0-9]+ of its [0-9]+ functions \(compiled with -fno-asynchronous-unwind-tables\?\).*add -fasynchronous-unwind-tables'
read -r n tr <<< "$(sed -n 's/.*: \([0-9]*\) samples for [0-9]* periods, \([0-9]*\) truncated.*/\1 \2/p' tables.tree)"
[ "${n:-0}" -gt 0 ] && [ $((tr * 2)) -lt "$n" ] || { cat tables.tree; fail "tables: $tr of $n samples truncated"; }
ok "tables: $tr of $n samples truncated"
assert_not_contains "tables: no note" tables.err 'unwind tables'
