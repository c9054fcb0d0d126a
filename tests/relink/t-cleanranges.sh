# With --clean-ranges the plan models a counted function from its clean
# copy's ranges (.perfinst.clean, docs/layout.md "Function order"), not
# from its counting copy's: cleanranges.c's work() is 485 bytes of code run
# on every call in its clean copy (its never-taken path in work.cold),
# while its counting copy at -O1 (counting-opt=lean, no partitioning) is
# mostly that path.  Scaled from the counting copy (the default), work's
# hot code is half its size (4 hot lines); from the clean copy it is every
# line work spans, and the same whatever options the counting copy had.  cleanranges-main.c, the
# driver, is compiled without the plugin: work's lines are the only hot ones.
# With clean-copies=all: a clean copy compiled on its own, at -O2 (with
# clean-copies=final, the default, the clean copy is the counting copy's
# code, at fast's options whatever counting-opt says).
. "$PERFINST_TOP/tests/lib.sh"
F="-O2 -falign-functions=64 -ffunction-sections"
gcc $F -c "$T/relink/cleanranges-main.c" -o m.o
P="--order=exttsp --rebuild --cache=32768,8,64 --reserve-sets=0 --clean-ranges"
for opt in lean fast; do
    pi_cc $F -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -fplugin-arg-perfinst-counting-opt=$opt \
        -c "$T/relink/cleanranges.c" -o $opt.o
    readelf -SW $opt.o | grep -q ' \.perfinst\.clean ' || fail "$opt.o has no .perfinst.clean section"
    pi_ld -O2 -o $opt $opt.o m.o
    PERFINST_OUT=$opt.pit ./$opt 1000 > $opt.out
    "$PMOPT" plan $P -o $opt.fb $opt $opt.pit > $opt.plan
    cat $opt.plan
    # the lines and sets work spans in the program, by nm
    read -r a s < <(nm -S $opt | awk '$4 == "work" { print $1, $2 }')
    [ -n "$a" ] || fail "nm: no function work in $opt"
    first=$((0x$a / 64)) last=$(((0x$a + 0x$s - 1) / 64))
    hot=$(sed -n 's/^  before (PROG) *\([0-9]*\) hot lines.*/\1/p' $opt.plan)
    assert_eq "$opt: the model's hot lines are the $((last - first + 1)) lines work spans (0x$s bytes at 0x$a)" \
        $((last - first + 1)) "$hot"
    assert_eq "$opt: one line per set" 1 \
        "$(sed -n 's/^  before (PROG) .*(max \([0-9]*\)).*/\1/p' $opt.plan)"
    sed -n 's/^  \(before (PROG)\|after the order\|the rebuild (predicted)\) *//p' $opt.plan > $opt.model
done
# without --clean-ranges: the lean copy's ranges scaled onto work, fewer lines
"$PMOPT" plan ${P% --clean-ranges} -o scaled.fb lean lean.pit > scaled.plan
sh=$(sed -n 's/^  before (PROG) *\([0-9]*\) hot lines.*/\1/p' scaled.plan)
[ -n "$sh" ] && [ "$sh" -lt "$(awk 'NR == 1 { print $1 }' lean.model)" ] ||
    fail "without --clean-ranges the lean build's model should have fewer hot lines than work spans: $sh"
ok "without --clean-ranges (the default) the lean build's model has $sh hot lines, scaled from its counting copy"
cmp lean.out fast.out || fail "the two builds print different results"
[ "$(stat -c %s lean.o)" != "$(stat -c %s fast.o)" ] || fail "the counting copies should differ"
# the same hot lines, fetches and sets whatever the counting copy's options
diff lean.model fast.model || fail "the plan's models differ between counting-opt=lean and fast"
ok "the plan's models are the same for counting-opt=lean and fast: $(head -1 lean.model)"
