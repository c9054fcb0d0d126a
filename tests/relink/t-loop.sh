# The one loop (docs/layout.md "One loop: rebuild and relink"): a training
# build of loop.c, `pmopt plan --order=exttsp --rebuild` writes ONE feedback
# file with the rebuild kinds then the order kinds; the rebuild applies it
# (the function order too: work in .text.sorted.0000000002.work, the other
# order kinds skipped silently) and moves work's never-run
# block to work.cold and report to .text.unlikely; `pmopt relink` of a
# rebuild made with function-order=none applies the order kinds of the same file (a note counts the rebuild kinds it
# skips).  The relinked program has main, work, mix contiguous in the
# planned order, the cold parts after them, and the output of plain -O2.
# No data order: the data model predicts none to miss less (seen's lines
# fit any L1d), so the plan writes none.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/layout/layout-lib.sh"   # hexlt
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/loop.c" -o t.o
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t 3000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o loop.fb t t.pit > plan.out
cat plan.out
grep '^[0-9]' loop.fb | cut -c1-120
assert_contains "the plan counts both loops' recommendations" plan.out "^loop.fb: 7 recommendations$"
assert_contains "no data order: not predicted to miss less" plan.out \
    "^  the data order is not predicted to miss less than PROG's own data layout \(D1 cyclic stream: hit ratio 1\.000 against 1\.000; independent references: 0 misses against 0\): not written, pmopt relink keeps the data as linked$"
kinds=$(awk '/^[0-9]/ {print $1, $2}' loop.fb | paste -sd,)
assert_eq "one file: rebuild kinds numbered 1-6, then the order kinds" \
    "1 function-tier,2 branch-profile,3 function-tier,4 function-tier,5 branch-profile,6 function-tier,7 order-functions" "$kinds"
assert_contains "the order of the hot functions" loop.fb "^7 order-functions alg=exttsp functions=main,work,mix$"
"$PMOPT" plan --order=exttsp --rebuild --advise t t.pit > adv
assert_contains "advice numbered as the file: 7 is the function order" adv "^7\. order-functions: place 3 hot functions"
assert_contains "advice 6 is report's cold tier" adv "^6\. .*report never ran"
# without --order, --rebuild is refused
if "$PMOPT" plan --rebuild -o x.fb t t.pit 2> err; then fail "--rebuild without --order accepted"; fi
assert_contains "--rebuild alone refused" err "only with --order"

# the rebuild: no warning about the order kinds; the profile splits work
pi_cc -O2 -fplugin-arg-perfinst-feedback=loop.fb -fplugin-arg-perfinst-sections -c "$T/relink/loop.c" -o r.o 2> cc.err
cat cc.err
if grep -q "not one this plugin applies" cc.err; then fail "the plugin warned about the order kinds"; fi
ok "the plugin applies the combined file without warnings"
readelf -SW r.o > secs
assert_contains "work's hot part in the plan's order (rank 2 after main)" secs "\.text\.sorted\.0000000002\.work "
assert_contains "work's never-run block in its cold part (cold-parts=: .text.unlikely or .text.sorted)" secs \
    "\.text\.(unlikely|sorted\.c0000000002)\.work "
assert_contains "report cold" secs "\.text\.unlikely\.report "
# the cold tier is a place, not a way of compiling (cold-tier=place, the
# default): report, which never ran, is plain -O2's code byte for byte;
# with cold-tier=size it is compiled for size, as -fprofile-use would
code() { objdump -d -j "$2" "$1" | grep '^ '; }
gcc -O2 -ffunction-sections -fdata-sections -c "$T/relink/loop.c" -o plain.o
code plain.o .text.report > plain.report
code r.o .text.unlikely.report > r.report
cmp plain.report r.report || { diff plain.report r.report; fail "report is not compiled as plain -O2 compiles it"; }
ok "report (cold tier): -O2's code in .text.unlikely.report"
pi_cc -O2 -fplugin-arg-perfinst-feedback=loop.fb -fplugin-arg-perfinst-sections \
    -fplugin-arg-perfinst-cold-tier=size -c "$T/relink/loop.c" -o s.o
code s.o .text.unlikely.report > s.report
if cmp -s plain.report s.report; then fail "cold-tier=size: report compiled as -O2"; fi
ok "cold-tier=size: report compiled for size"
pi_cc -O2 -fplugin-arg-perfinst-feedback=loop.fb -fplugin-arg-perfinst-sections \
    -fplugin-arg-perfinst-cold-tier=keep -c "$T/relink/loop.c" -o k.o
readelf -SW k.o > ksecs
assert_not_contains "cold-tier=keep: report not moved" ksecs "\.text\.unlikely\.report "
code k.o .text.report > k.report
cmp plain.report k.report || { diff plain.report k.report; fail "cold-tier=keep: report is not -O2's code in .text.report"; }
ok "cold-tier=keep: report is -O2's code where -O2 puts it (.text.report)"
expect_fail "a bad cold-tier" pi_cc -O2 -fplugin-arg-perfinst-feedback=loop.fb -fplugin-arg-perfinst-cold-tier=small \
    -c "$T/relink/loop.c" -o bad.o
assert_contains "the error names the values" err "cold-tier=small.: expected .place., .size. or .keep."
# the relink places the order itself when the rebuild left it to the relink
# (function-order=none; a rebuild with the order keeps it: t-sorted.sh)
pi_cc -O2 -fplugin-arg-perfinst-feedback=loop.fb -fplugin-arg-perfinst-sections \
    -fplugin-arg-perfinst-function-order=none -c "$T/relink/loop.c" -o rn.o
pi_ld -O2 -o r rn.o
"$PMOPT" relink r --feedback loop.fb -o r.opt --smoke 100 > rel.out 2> rel.err
cat rel.out rel.err
assert_contains "relink skips the rebuild kinds with one note" rel.err "6 recommendations of the rebuild loop .* skipped"
assert_contains "relink applied the order" rel.out "1 recommendation applied, 0 ignored"
assert_contains "relink checked the order" rel.out "^pmopt relink: 3 functions in the planned order"
nm -n r.opt | awk '$2 ~ /^[tT]$/ {print $1, $3}' > syms
cat syms
got=$(awk '$2 ~ /^(main|work|mix)$/ {print $2}' syms | paste -sd' ')
assert_eq "nm: the hot functions in the planned order" "main work mix" "$got"
hot_end=$(awk '$2 == "mix" {print $1}' syms)
first=$(awk '$2 == "main" {print $1}' syms)
for c in work.cold main.cold report; do
    a=$(awk -v c=$c '$2 == c {print $1}' syms)
    [ -n "$a" ] || fail "$c is not in the relinked program"
    hexlt "$hot_end" "$a" || fail "$c (0x$a) is not after the hot code (mix at 0x$hot_end)"
done
ok "work.cold, main.cold and report lie after the ordered hot code"
between=$(sed -n '/ main$/,/ mix$/p' syms | wc -l)
assert_eq "the three hot functions are contiguous" 3 "$between"
gcc -O2 -o plain "$T/relink/loop.c"
for in in "3000" "500 strict" ""; do
    ra=0; ./plain $in > a.out 2>&1 || ra=$?
    rb=0; ./r.opt $in > b.out 2>&1 || rb=$?
    assert_eq "exit status on '$in'" "$ra" "$rb"
    cmp a.out b.out || fail "output differs from plain -O2 on '$in'"
done
./r.opt 500 strict 2>&1 | grep -q "^strict: " || fail "the strict input did not run work's cold block"
ok "output identical to plain -O2 on three inputs (the strict one runs work.cold)"
