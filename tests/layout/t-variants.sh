# One source file compiled twice with other definitions (dav1d's
# *_tmpl.c, once per bit depth): two units of one source key whose static
# functions share their names (variants.c's filt and clip, another CFG
# in each).
# The training runs the 8-bit unit only; its plan keys filt's profile and
# tier with the unit's variant= (the producer's), so the rebuild of the
# 16-bit unit takes neither: no "stale" warning (bench/projects.sh took it
# for a unit that did not apply the plan), nor "was the tree moved?" (its
# functions profiled under its own key, by name), and its filt not put in
# .text.hot.  Trained on both, each unit takes its own profile, and
# `pmopt plan --check` checks each against its own unit.
. "$PERFINST_TOP/tests/lib.sh"
for b in 8 16; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -DBITS=$b -c "$T/layout/variants.c" -o t$b.o
done
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/layout/variants-main.c" -o main.o
pi_ld -O2 -o train main.o t8.o t16.o
PERFINST_OUT=train.pit ./train 5000 > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > plan.out
for b in 8 16; do
    pi_cc -O2 -g -fplugin-arg-perfinst-feedback=plan.fb -DBITS=$b -c "$T/layout/variants.c" -o r$b.o 2> r$b.err
    readelf -SW r$b.o > r$b.sections
done
assert_not_contains "the trained unit: nothing stale" r8.err "stale"
assert_contains "the trained unit: its filt in .text.hot" r8.sections '\.text\.hot '
assert_not_contains "the other unit: not told its profile is stale, nor moved" r16.err "stale|less than half|moved"
assert_not_contains "the other unit: its filt not in .text.hot" r16.sections '\.text\.hot'

"$PMOPT" dump-meta ./train > meta
assert_contains "the producer names the unit's variant" meta 'producer "perfinst [0-9.]+ gcc [0-9.]+ -O2 variant=[0-9a-f]{16}"'
assert_contains "filt's profile keyed with a variant" plan.fb '^[0-9]+ branch-profile fn=filt src=[^ ]*variants.c variant=0x[0-9a-f]{16} '
assert_contains "filt's tier too" plan.fb '^[0-9]+ function-tier fn=filt src=[^ ]*variants.c variant=0x[0-9a-f]{16} tier=hot'
assert_contains "a file of one unit has none" plan.fb '^[0-9]+ branch-profile fn=main src=[^ ]*variants-main.c checksum='

# both trained: each unit its own profile, none stale or malformed
PERFINST_OUT=both16.pit ./train 3000 x > /dev/null
"$PMOPT" plan -o both.fb ./train train.pit both16.pit > both.out
[ "$(grep -c '^[0-9]* branch-profile fn=filt ' both.fb)" = 2 ] || fail "two profiles of filt expected: $(grep -c 'fn=filt' both.fb)"
ok "two profiles of filt, one per variant"
for b in 8 16; do
    pi_cc -O2 -g -fplugin-arg-perfinst-feedback=both.fb -fplugin-arg-perfinst-verbose -DBITS=$b -c "$T/layout/variants.c" -o b$b.o 2> b$b.err
    assert_contains "both trained, $b-bit: its functions matched" b$b.err "[0-9]+ function profiles matched, 0 stale, 0 malformed"
done
# pmopt plan --check against the counted build: each variant's profile
# against its own unit (filt's twins were one function to it, checked
# against the first unit of the key: "1 stale")
"$PMOPT" plan --check=both.fb ./train > check.out
assert_contains "--check: every profile matches its own unit" check.out "both.fb: ([0-9]+) of \\1 function profiles match \./train \(100\.0% .*0 stale"
