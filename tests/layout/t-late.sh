# The rebuild loop with a profile taken after the early inliner
# (count-at=late; docs/layout.md "Where the profile is taken"): late.c's
# step is inlined into work before the count pass runs, so work's sites
# are its blocks with step's branch in them (dump-meta: "after the early
# inliner") and the plan's records say at=late; the rebuild applies them
# at the same point, every function matches, and step's 95% arm becomes
# work's fall-through.  A profile taken at cfg (no at=) is still applied
# at cfg.  A plan that says cfg for a profile taken late (a plan written
# before feedback format 3) and a rebuild that counts at cfg with a late
# profile are stale, with the reason named; pmopt plan --check compares
# where the profile was taken too.  promote-call records are found after
# the early inliner too.  The training build's early ipa-split decides as
# the rebuild's does (late-split.c: the split -O2's limits refuse and
# all=count's scaled ones would take; the profile matches).  -g changes
# no checksum either way (late-g.c: a statement-less join block, whose
# line is its first predecessor's last statement's, which -g made a debug
# bind).  A profiled `.part` function the rebuild inlines and removes is
# counted once in the summary (late-part.c; its name, purged by GCC, was
# missed from the total: over 100 % matched).
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/late.c

gcc -O2 -c "$src" -o plain.o
read -r hot cold jcc <<< "$(arms plain.o work)"
hexlt "$cold" "$hot" || fail "plain -O2 should lay the hot arm after the cold one"
ok "plain -O2: step's hot arm is out of line in work"

for at in late cfg; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$src" -o train-$at.o
    pi_ld -O2 -o train-$at train-$at.o
    PERFINST_OUT=train-$at.pit ./train-$at > train-$at.out
    "$PMOPT" plan -o plan-$at.fb ./train-$at train-$at.pit > plan-$at.out
done
cmp train-late.out train-cfg.out || fail "the two training builds print different things"
cp train-late.out train.out # (same_output)

"$PMOPT" dump-meta train-late | grep '^  function' > meta-late
assert_contains "late: work's sites were taken after the early inliner" meta-late "^  function [0-9]+ work .*sites [0-9]+\.\.[0-9]+, directives count, after the early inliner, cfg 0x[0-9a-f]+$"
assert_not_contains "late: step is no function of its own (inlined before counting)" meta-late " step "
sum=$(awk '$3 == "work" { print $NF }' meta-late)
assert_eq "late: work's profile, with step's branch, at=late" \
    "branch-profile fn=work checksum=$sum at=late sites=4 first=0 weight=3000 counts=1000,950,50,1000 edges=950,50" \
    "$(rec plan-late.fb branch-profile work)"
"$PMOPT" dump-meta train-cfg | grep '^  function' > meta-cfg
assert_not_contains "cfg: no function taken after the early inliner" meta-cfg "after the early inliner"
sum=$("$PMOPT" dump-meta train-cfg | awk '$1 == "function" && $3 == "step" { print $NF }')
assert_eq "cfg: step's own profile, no at=" \
    "branch-profile fn=step checksum=$sum sites=4 first=0 weight=3000 counts=1000,950,50,1000 edges=950,50" \
    "$(rec plan-cfg.fb branch-profile step)"

for at in late cfg; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan-$at.fb -fplugin-arg-perfinst-verbose -c "$src" -o fb-$at.o 2> fb-$at.err
    assert_contains "$at: every profile matches" fb-$at.err "plan-$at.fb: 2 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)$"
    read -r hot cold jcc <<< "$(arms fb-$at.o work)"
    hexlt "$hot" "$cold" || fail "$at: after the rebuild the hot arm should come first"
    ok "$at: the rebuild makes step's hot arm work's fall-through"
    same_output fb-$at.o
done

"$PMOPT" plan --check=plan-late.fb ./train-late > check.out
assert_contains "plan --check: the late plan matches its program" check.out "plan-late.fb: 2 of 2 function profiles match"
"$PMOPT" plan --check=plan-late.fb ./train-cfg > check2.out
assert_contains "plan --check: not the program counted at cfg" check2.out "plan-late.fb: 0 of 2 function profiles match .*; 2 stale \(100\.0%\), 0 missing"

# the late plan as a plan written before at= existed (format 2)
grep -v '^end' plan-late.fb | sed 's/ at=late//; s/^perfinst-feedback 3$/perfinst-feedback 2/' > v2.body
reseal v2.body v2.fb
pi_cc -O2 -fplugin-arg-perfinst-feedback=v2.fb -c "$src" -o v2.o 2> v2.err
assert_contains "format 2 plan of a late profile: stale, the reason named" v2.err "v2.fb: 0 function profiles matched, 2 stale, 0 malformed .*; 2 of the stale ones, taken at cfg as the plan says, match this build's CFG after the early inliner: the plan was written for a count-at=late build before feedback format 3 \(run .pmopt plan. again\)( \[-Wmissing-profile\])?$"

# counted again with the late profile: at late it matches (and takes fewer
# branches); at cfg the counters change what the early inliner sees
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg \
    -fplugin-arg-perfinst-feedback=plan-late.fb -c "$src" -o after-cfg.o 2> after-cfg.err
assert_contains "counted at cfg: the late profile is stale, the reason named" after-cfg.err "plan-late.fb: 0 function profiles matched, 2 stale, 0 malformed .*; 2 of the stale ones were taken after the early inliner \(count-at=late\): this build counts before it \(count-at=cfg\), which changes what it inlines \(count with count-at=late\)( \[-Wmissing-profile\])?$"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=late \
    -fplugin-arg-perfinst-feedback=plan-late.fb -fplugin-arg-perfinst-verbose -c "$src" -o after.o 2> after.err
assert_contains "counted at late: the profile matches" after.err "plan-late.fb: 2 function profiles matched, 0 stale"
pi_ld -O2 -o after after.o
PERFINST_OUT=after.pit ./after > after.out
cmp train.out after.out || fail "the counted rebuild prints something else"
"$PMOPT" plan --stats ./train-late train-late.pit > before.stats
"$PMOPT" plan --stats ./after after.pit > after.stats
tb() { awk '/taken branches/ { print $3 }' "$1"; }
[ "$(tb after.stats)" -lt "$(tb before.stats)" ] || fail "the rebuild should take fewer branches ($(tb before.stats) -> $(tb after.stats))"
ok "fewer taken branches after the rebuild ($(tb before.stats) -> $(tb after.stats))"

# the early ipa-split sees -O2's inliner limits in the training build, as
# in the rebuild (late-split.c: lookup's head is split off only with
# all=count's scaled limits; scaled from the start they made lookup's
# profile stale)
ls=$T/layout/late-split.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$ls" -o ls-train.o
pi_ld -O2 -o ls-train ls-train.o
PERFINST_OUT=ls.pit ./ls-train > ls-train.out
"$PMOPT" plan -o ls.fb ./ls-train ls.pit > ls-plan.out
sites=$(rec ls.fb branch-profile lookup | sed -n 's/.* sites=\([0-9]*\) .*/\1/p')
pi_cc -O2 -g -fplugin-arg-perfinst-feedback=ls.fb -fplugin-arg-perfinst-verbose -c "$ls" -o ls-fb.o 2> ls-fb.err
assert_contains "late-split.c: lookup's profile and main's match the rebuild's CFGs" ls-fb.err \
    "ls.fb: 2 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)$"
gcc -O2 -g -c "$ls" -o ls-plain.o -fdump-tree-fnsplit-details=ls-plain.fnsplit
assert_contains "plain -O2 refuses to split lookup (the head is too large)" ls-plain.fnsplit "Refused: header size is too large for inline candidate"
assert_not_contains "plain -O2 splits nothing" ls-plain.fnsplit "Accepted"
gcc -O2 -g --param max-inline-insns-auto=30 -c "$ls" -o ls-x2.o -fdump-tree-fnsplit-details=ls-x2.fnsplit
assert_contains "with the limit doubled the split is accepted (what the training build did)" ls-x2.fnsplit "Accepted"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$ls" -o ls-train2.o -fdump-tree-fnsplit-details=ls-train.fnsplit
assert_not_contains "the training build splits nothing either" ls-train.fnsplit "Accepted"
assert_eq "lookup's profile has the unsplit function's 5 blocks" 5 "$sites"

# promote-call taken after the early inliner (the default): found there
# (t-promote.sh has the same program counted at cfg: apply, inlined into
# hot_user and cold_user, is part of them before the count pass here)
a=$T/layout/promote.c b=$T/layout/promote-b.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$a" -o pa.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$b" -o pb.o
pi_ld -O2 -o ptrain pa.o pb.o
PERFINST_OUT=p.pit ./ptrain > /dev/null
"$PMOPT" plan --promote-calls -o pfb ./ptrain p.pit > pplan.out
grep ' promote-call ' pfb > precs
assert_eq "three promote-calls, each at=late" 3 "$(grep -c ' at=late ' precs)"
assert_contains "drive's call: twice" precs " promote-call fn=drive .* at=late .* target=twice .* calls=9900 total=10000 "
pi_cc -O2 -fplugin-arg-perfinst-feedback=pfb -c "$a" -o preb.o 2> preb.err
assert_contains "the rebuild promotes drive's and hot_user's calls, not far's (hidden is another unit's static)" preb.err "pfb: 2 call promotions applied \(2 call edges, [0-9]+ cold ones left indirect\), 1 skipped \(0 stale, 1 target not usable, 0 site not found, 0 malformed, 0 gone before IPA, 0 function not in the unit\)"

# trained without -g, rebuilt with it, and the other way round: every
# profile matches (late-g.c's join block; before, with -g its line was a
# debug bind's and both functions were stale)
lg=$T/layout/late-g.c
for g in nog g; do
    gflag=; [ $g = g ] && gflag=-g
    pi_cc -O2 $gflag -fplugin-arg-perfinst-all=count -c "$lg" -o lg-train-$g.o
    pi_ld -O2 -o lg-train-$g lg-train-$g.o
    PERFINST_OUT=lg-$g.pit ./lg-train-$g > lg-$g.out
    "$PMOPT" plan -o lg-$g.fb ./lg-train-$g lg-$g.pit > /dev/null
    other=-g; [ $g = g ] && other=
    pi_cc -O2 $other -fplugin-arg-perfinst-feedback=lg-$g.fb -fplugin-arg-perfinst-verbose -c "$lg" -o lg-fb-$g.o 2> lg-fb-$g.err
    assert_contains "trained ${gflag:-without -g}, rebuilt ${other:-without -g}: every profile matches" lg-fb-$g.err \
        "lg-$g.fb: 2 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)$"
done

# a profiled `.part` function the rebuild inlines and removes (late-part.c):
# its name, purged by GCC's collector, is counted once in the summary's
# total and once as matched (before: "139.6% ... matched"; SQLite's rebuild
# said 101.4%)
lp=$T/layout/late-part.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$lp" -o lp-train.o
pi_ld -O2 -o lp-train lp-train.o
PERFINST_OUT=lp.pit ./lp-train 100 > lp-train.out
"$PMOPT" plan -o lp.fb ./lp-train lp.pit > /dev/null
assert_contains "late-part.c: the training build profiles lookup.part.0 (the early split's tail)" lp.fb \
    " branch-profile fn=lookup\.part\.0 .* at=late "
pi_cc -O2 -fplugin-arg-perfinst-feedback=lp.fb -fplugin-arg-perfinst-verbose --param max-inline-insns-auto=200 \
    --param ggc-min-expand=0 --param ggc-min-heapsize=0 -c "$lp" -o lp-fb.o 2> lp-fb.err
nm lp-fb.o > lp-fb.nm
assert_not_contains "the rebuild inlined lookup.part.0 and removed it" lp-fb.nm "lookup\.part"
assert_contains "late-part.c: 100.0% of the profile matched, not more" lp-fb.err \
    "lp.fb: 4 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)$"
