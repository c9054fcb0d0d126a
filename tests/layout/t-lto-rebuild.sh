# The rebuild under -flto (gcc-plugin/pass-feedback.cc "fblto", docs/layout.md
# "Link-time optimisation"): cc1 applies the plan and leaves each function
# the attribute "perfinst feedback" (applied, tier, rank, hot tier, the
# compile's layout arguments); lto1, which makes the code, reads it:
# - sorted-a.c, sorted-b.c trained without -flto (as t-sorted.sh), rebuilt
#   with -flto: the chain in the plan's order across the two objects (f1
#   g.constprop.0 f2 f3 f4: g's clone, made in lto1, takes g's rank), f1's
#   never-run block in f1.cold and rare (never ran) with the cold code
#   before it; without the plan, the same -flto link keeps object order;
# - the layout arguments given to the compile alone reach lto1:
#   function-order=none leaves the object order, cold-parts=beside puts
#   f1.cold right after f1;
# - pmopt relink of the -flto rebuild relinks it as it is (its code is in
#   no object), saying so;
# - coldsplit.c: the split in lto1, spin's never-run block in spin.cold and
#   step's warm branch in step.cold (split=3), none of step with split=2
#   (given to the compile); main is never split by GCC in lto1 (PR81115);
# - trained with -flto: the plan has its branch profiles and tiers, no
#   order (the code is in no object: pmopt says so), and an -flto rebuild
#   from it splits f1; the same with fat objects (-ffat-lto-objects),
#   linked with or without -flto (gcc's linker plugin still sends them to
#   lto1), and the relink places nothing; linked -fno-lto, their code is
#   ordered;
# - every program prints what plain -O2 prints.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
for u in a b; do
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-counting-opt=fast \
        -fplugin-arg-perfinst-entry-branch=tail -fplugin-arg-perfinst-sections -c "$T/layout/sorted-$u.c" -o t$u.o
done
pi_ld -O2 -o t ta.o tb.o
PERFINST_OUT=t.pit ./t 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o s.fb t t.pit > plan.out
assert_contains "the plan's order" s.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,g.constprop.0,f2,f3,f4$"

textsyms() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-4]|g\.constprop\.0|f1\.cold|rare)$/ {print $3}' | paste -sd' '; }
lto_build() { # NAME COMPILE-ARGS...: sorted-a.c and sorted-b.c with -flto, linked by perfinst-ld
    local n=$1 u; shift
    for u in a b; do
        pi_cc -O2 -flto -fplugin-arg-perfinst-sections "$@" -c "$T/layout/sorted-$u.c" -o $n$u.o 2>> $n.err ||
            { cat $n.err; fail "$n: compile of sorted-$u.c"; }
    done
    pi_ld -O2 -flto -o $n ${n}a.o ${n}b.o 2>> $n.err || { cat $n.err; fail "$n: the -flto link"; }
}
lto_build r -fplugin-arg-perfinst-feedback=s.fb
cat r.err
assert_eq "-flto rebuild: the plan's order, the cold code before it" "f1.cold rare f1 g.constprop.0 f2 f3 f4" "$(textsyms r)"
lto_build n
assert_eq "-flto without the plan: object order" "f4 f3 g.constprop.0 f2 f1 rare" "$(textsyms n)"
lto_build none -fplugin-arg-perfinst-feedback=s.fb -fplugin-arg-perfinst-function-order=none
assert_eq "function-order=none at the compile reaches lto1" "f1.cold rare f4 f3 g.constprop.0 f2 f1" "$(textsyms none)"
lto_build beside -fplugin-arg-perfinst-feedback=s.fb -fplugin-arg-perfinst-cold-parts=beside
assert_eq "cold-parts=beside at the compile reaches lto1" "rare f1 f1.cold g.constprop.0 f2 f3 f4" "$(textsyms beside)"
ok "the plan's order, cold parts and layout arguments in an -flto rebuild"
# the loop's relink of the -flto rebuild: nothing to place (the code is in
# no object), relinked as it is, with the rebuild's code and order
"$PMOPT" relink r --feedback s.fb -o r.opt > rel.out 2> rel.err || { cat rel.err; fail "relink of the -flto rebuild"; }
assert_contains "relink says why it places nothing" rel.err "r was linked from -flto objects .* r relinked as it is"
assert_contains "and that it applied nothing" rel.out "^pmopt relink: wrote r\.opt \(0 recommendations applied, [1-9][0-9]* ignored\)"
objdump -d --no-show-raw-insn r | tail -n +3 > r.dis
objdump -d --no-show-raw-insn r.opt | tail -n +3 > r.opt.dis
cmp -s r.dis r.opt.dis || fail "the relink changed the -flto rebuild's code"
ok "relink of the -flto rebuild: the rebuild's code"

# the split in lto1
split_trained "$T/layout/coldsplit.c"
for s in 3 2; do
    pi_cc -O2 -flto -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-split=$s -c "$T/layout/coldsplit.c" -o cs$s.o
    pi_ld -O2 -flto -o cs$s cs$s.o
    nm cs$s | awk '$2 ~ /^[tT]$/ && $3 ~ /\.cold$/ {print $3}' | sort | paste -sd' ' > cs$s.cold
done
assert_eq "split=3 in lto1: spin's never-run block and step's warm branch cold" "spin.cold step.cold" "$(cat cs3.cold)"
assert_eq "split=2 at the compile: step's warm branch stays hot" "spin.cold" "$(cat cs2.cold)"
assert_eq "split=3: the warm branch in step.cold" 1 "$(has cs3 step.cold '0x5151')"
ok "the split in lto1, with the compile's split="

# trained with -flto: no order, the rest of the plan
for u in a b; do
    pi_cc -O2 -flto -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/layout/sorted-$u.c" -o l$u.o
done
pi_ld -O2 -flto -o l la.o lb.o
PERFINST_OUT=l.pit ./l 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o l.fb l l.pit > lplan.out 2> lplan.err || { cat lplan.err; fail "plan of an -flto training build"; }
assert_contains "pmopt says why there is no order" lplan.err "l was linked from -flto objects \(.*la\.o and 1 more\): .* the plan is written without it"
assert_not_contains "no order in the plan" l.fb "order-functions"
assert_contains "f1's branch profile in the plan" l.fb "branch-profile fn=f1 "
lto_build rl -fplugin-arg-perfinst-feedback=l.fb
case " $(textsyms rl) " in *" f1.cold "*) ;; *) fail "the -flto rebuild from an -flto training: no f1.cold ($(textsyms rl))" ;; esac
ok "an -flto training build: branch profiles and tiers, no order"

# trained with -flto -ffat-lto-objects: the objects' own code is not the
# program's (gcc's linker plugin sends them to lto1, -flto on the link or
# not): no order from it, and the relink places nothing; linked -fno-lto,
# the fat code is the program's and gives the order
for u in a b; do
    pi_cc -O2 -flto -ffat-lto-objects -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
        -c "$T/layout/sorted-$u.c" -o fat$u.o
done
for k in fl fn nl; do
    case $k in fl) a=-flto ;; fn) a= ;; nl) a=-fno-lto ;; esac
    pi_ld -O2 $a -o $k fata.o fatb.o
    PERFINST_OUT=$k.pit ./$k 5000 > /dev/null
    "$PMOPT" plan --order=exttsp --rebuild -o $k.fb $k $k.pit > $k.plan.out 2> $k.plan.err ||
        { cat $k.plan.err; fail "plan of the fat training build linked with '$a'"; }
done
for k in fl fn; do
    assert_contains "fat objects linked ($k): pmopt says why there is no order" $k.plan.err \
        "$k was linked from -flto objects \(.*fata\.o and 1 more\): .* the plan is written without it"
    assert_not_contains "fat objects linked ($k): no order" $k.fb "order-functions"
done
assert_contains "fat objects linked -fno-lto: their code is ordered" nl.fb \
    "^[0-9]* order-functions alg=exttsp functions=main,f1,g.constprop.0,f2,f3,f4$"
# the relink of the fat -flto program with the -fno-lto build's order: its code is
# in no object, nothing to place
"$PMOPT" relink fl --feedback nl.fb -o fl.opt > flrel.out 2> flrel.err || { cat flrel.err; fail "relink of the fat -flto training build"; }
assert_contains "relink of the fat -flto build places nothing" flrel.err "fl was linked from -flto objects .* fl relinked as it is"
ok "a training build of fat -flto objects: no order unless linked -fno-lto"

gcc -O2 -o plain "$T/layout/sorted-a.c" "$T/layout/sorted-b.c"
gcc -O2 -o plain-cs "$T/layout/coldsplit.c"
for in in 5000 -3 ""; do
    ./plain $in > a.out
    for p in r r.opt n none beside rl fl fl.opt fn nl; do
        ./$p $in > b.out
        cmp a.out b.out || fail "$p: output differs from plain -O2 on '$in'"
    done
done
for in in "" 3; do
    ./plain-cs $in > a.out
    for p in cs3 cs2; do
        ./$p $in > b.out
        cmp a.out b.out || fail "$p: output differs from plain -O2 on '$in'"
    done
done
ok "output identical to plain -O2"
