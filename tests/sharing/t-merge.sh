# sharing records across runs: `pmopt merge` carries them (module-relative,
# counts summed per line, area, thread and site; byte-identical whatever
# the order of the inputs, and merging a merged trace again is the same as
# merging all at once); `pmopt report --sharing` and `pmopt plan --sharing`
# accept several traces and give the summed verdicts.
. "$PERFINST_TOP/tests/lib.sh"
# Exact counts: every access judged, not the default 1 in N (docs/sharing.md).
export PERFINST_SHARING_PERIOD=1
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o f.o
pi_ld -O2 -o f f.o
for i in 1 2 3; do
    PERFINST_OUT=adj$i.pit ./f adjacent > /dev/null 2>&1
    PERFINST_OUT=mix$i.pit ./f mixed > /dev/null 2>&1
done
for i in 1 2; do PERFINST_OUT=lr$i.pit ./f linreg > /dev/null 2>&1; done

"$PMOPT" merge -o m12.pit adj1.pit adj2.pit > /dev/null
"$PMOPT" merge -o m21.pit adj2.pit adj1.pit > /dev/null
cmp m12.pit m21.pit || fail "merge: the output depends on the order of the inputs"
ok "merge: byte-identical whatever the order"
"$PMOPT" merge -o m123.pit adj1.pit adj2.pit adj3.pit > /dev/null
"$PMOPT" merge -o m12-3.pit m12.pit adj3.pit > /dev/null
cmp m123.pit m12-3.pit || fail "merge: merging a merged trace differs from merging all at once"
ok "merge: a merged trace merges again to the same bytes"
"$PMOPT" dump m12.pit > m12.dump
assert_contains "merge: sharing lines carried" m12.dump "SHARE_LINE"
assert_contains "merge: sites carried" m12.dump "SHARE_SITE"
assert_contains "merge: threads carried" m12.dump "SHARE_THREAD"

# the summed verdicts: each run has 2*(R-1) false reloads
"$PMOPT" report --sharing f adj1.pit > one.rep
assert_contains "one run: 1998 false" one.rep "reloads: 0 true, 1998 false\)$"
"$PMOPT" report --sharing f m12.pit > m12.rep
assert_contains "merged: 2 x 1998 false" m12.rep "reloads: 0 true, 3996 false\)$"
assert_contains "merged: the line's verdict, at its link-time address" m12.rep "^#1  line 0x[0-9a-f]+ \(link-time, f\)  FALSE sharing  reloads: 0 true, 3996 false"
assert_contains "merged: per thread, summed, named" m12.rep "writes \[c\[[01]\]\]; reloads 0 true, 1998 false$"
assert_contains "merged: per area, summed" m12.rep "areas: \+[0-9]+: 0 true 1998 false; \+[0-9]+: 0 true 1998 false;$"
assert_contains "merged: still named by DWARF" m12.rep "objects: (.*; )?c \(global, 16 bytes"
"$PMOPT" report --sharing f adj1.pit adj2.pit > two.rep
assert_contains "report of two traces: the summed verdict" two.rep "reloads: 0 true, 3996 false\)$"
assert_contains "report of two traces: names them" two.rep "^Cache-line sharing in adj1.pit \+ adj2.pit "
diff <(sed 1d m12.rep) <(sed 1d two.rep) || fail "report of two traces differs from the report of their merge"
ok "report of two traces = report of their merge"
"$PMOPT" report --sharing f adj1.pit adj2.pit adj3.pit > three.rep
assert_contains "report of three traces" three.rep "reloads: 0 true, 5994 false\)$"
"$PMOPT" report --sharing --heatmap=two.svg f adj1.pit adj2.pit > /dev/null
assert_contains "heat map of two traces" two.svg "<title>\+[0-9]+ c\[1\]: read and written</title>"

# true and false sharing summed apart; the plan from two runs
"$PMOPT" report --sharing f mix1.pit mix2.pit > mix.rep
assert_contains "mixed, two runs: both kinds summed" mix.rep "reloads: 1998 true, 1998 false\)$"
assert_contains "mixed, two runs: shared field true" mix.rep "writes mixed.shared: 2000 accesses, reloads 1998 true, 0 false"
"$PMOPT" plan --sharing -o mix.fb f mix1.pit mix2.pit
assert_contains "plan of two runs: field a padded" mix.fb "^[12] pad-field type=mixed field=a scope=whole-program "
assert_contains "plan of two runs: field b padded" mix.fb "^[12] pad-field type=mixed field=b scope=whole-program "
assert_not_contains "plan of two runs: the truly shared field never" mix.fb "field=shared"
"$PMOPT" merge -o mix.pit mix1.pit mix2.pit > /dev/null
"$PMOPT" plan --sharing -o mixm.fb f mix.pit
diff <(grep -v '^program' mix.fb) <(grep -v '^program' mixm.fb) || fail "plan of two traces differs from the plan of their merge"
ok "plan of two traces = plan of their merge"

# heap objects: the brk heap's lines are heap-relative in the merge, so
# the calloc'd accumulators of two runs are one line with the summed verdict
"$PMOPT" report --sharing f lr1.pit lr2.pit > lr.rep
assert_contains "heap, two runs: one line, summed" lr.rep "^#1  line heap\+0x[0-9a-f]+  FALSE sharing  reloads: 0 true, 3996 false"
assert_contains "heap, two runs: still named by allocation site" lr.rep "objects: heap object from fixtures.c:[0-9]+ \(main\) \(heap, 80 bytes"
assert_contains "heap, two runs: fields named" lr.rep "writes \[acc\[1\]\.sx, acc\[1\]\.sy, acc\[1\]\.sxx, acc\[1\]\.syy, acc\[1\]\.sxy\]; reloads 0 true, 1998 false$"
"$PMOPT" plan --sharing -o lr.fb f lr1.pit lr2.pit
assert_contains "heap, two runs: the plan pads the struct" lr.fb "pad-field type=acc field=\* scope=whole-program group=1 members=2 reloads=3996 "
assert_contains "heap, two runs: and aligns the allocation" lr.fb "align-alloc func=main file=fixtures.c line=[0-9]+ group=1 members=2 reloads=3996 "

# a trace of another program is refused, naming it
gcc -O2 -pthread "$T/sharing/fixtures.c" -o other
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/adjacent.c" -o o.o 2>/dev/null && pi_ld -O2 -o o o.o &&
    { PERFINST_OUT=o.pit ./o > /dev/null 2>&1 || true; }
if [ -f o.pit ]; then
    expect_fail "report of traces of two programs" "$PMOPT" report --sharing f adj1.pit o.pit
fi
expect_fail "report --sharing needs a trace" "$PMOPT" report --sharing f
assert_contains "  ... says so" err "needs PROG and at least one TRACE"
