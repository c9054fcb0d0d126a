# clone-tier= (gcc-plugin/pass-feedback.cc, docs/layout.md "Clones of the
# cold tier"): clonetier.c trained with -fno-ipa-cp, so the plan names
# scale (ran: hot) and fix (never ran: the cold tier) but not the clones
# the rebuild's IPA-CP makes of them, scale.constprop.0 and
# fix.constprop.0.  clone-tier=own (the default) leaves fix.constprop.0 in
# .text.fix.constprop.0, after the ordered code; clone-tier=base gives it
# fix's cold tier: .text.unlikely.fix.constprop.0, before it, with rare.
# A clone of a function that ran keeps its section either way, and one
# the feedback names keeps its own tier.  The output is plain -O2's.
# The rebuilds pin clone-order=own, so that the clones' sections are
# clone-tier's alone (by default scale.constprop.0 takes scale's rank in
# the order: t-sorted.sh, t-cloneorder.sh).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fno-ipa-cp -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/layout/clonetier.c" -o t.o
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o c.fb t t.pit > plan.out
grep '^[0-9]' c.fb | cut -c1-100
assert_contains "fix is in the cold tier" c.fb "^[0-9]* function-tier fn=fix src=.* tier=cold$"
assert_contains "scale is in the hot tier" c.fb "^[0-9]* function-tier fn=scale src=.* tier=hot$"
assert_not_contains "the plan does not name the clones" c.fb "constprop"
build() { # NAME PLUGIN-ARGS...
    local n=$1; shift
    pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clone-order=own "$@" \
        -c "$T/layout/clonetier.c" -o $n.o 2> $n.err
    cat $n.err
    pi_ld -O2 -o $n $n.o
    readelf -SW $n.o > $n.secs
    nm -n $n | awk '$2 ~ /^[tT]$/ && $3 ~ /^(work|rare|fix\.constprop\.0|scale\.constprop\.0)$/ {print $3}' | paste -sd' ' > $n.order
}
build own
build base -fplugin-arg-perfinst-clone-tier=base
build own2 -fplugin-arg-perfinst-clone-tier=own
cmp own.o own2.o || fail "clone-tier=own is not the default"
for n in own base; do
    assert_not_contains "$n: no warning" $n.err "warning"
    assert_contains "$n: work has its rank" $n.secs " \.text\.sorted\.0000000002\.work "
    assert_contains "$n: rare in the cold tier" $n.secs " \.text\.unlikely\.rare "
    assert_contains "$n: the clone of a function that ran keeps its section" $n.secs " \.text\.hot\.scale\.constprop\.0 "
done
assert_contains "own: fix.constprop.0 in .text" own.secs " \.text\.fix\.constprop\.0 "
assert_contains "base: fix.constprop.0 in the cold tier" base.secs " \.text\.unlikely\.fix\.constprop\.0 "
assert_not_contains "base: not in .text" base.secs " \.text\.fix\.constprop\.0 "
assert_eq "own: fix.constprop.0 after the ordered code" "rare scale.constprop.0 work fix.constprop.0" "$(cat own.order)"
assert_eq "base: fix.constprop.0 with the cold tier, before the ordered code" "fix.constprop.0 rare scale.constprop.0 work" "$(cat base.order)"

# a clone the feedback names keeps its own tier, with either value: c.fb
# with a hot tier for fix.constprop.0 (the records renumbered, a new end line)
python3 - << 'PY'
import re, zlib
recs = [l for l in open("c.fb") if re.match(r"[0-9]+ ", l)]
fix = [l for l in recs if " function-tier fn=fix " in l][0]
recs.append(fix.replace("fn=fix ", "fn=fix.constprop.0 ").replace("tier=cold", "tier=hot"))
body = "perfinst-feedback 1\n" + "".join("%d %s" % (i + 1, l.split(" ", 1)[1]) for i, l in enumerate(recs))
open("n.fb", "w").write(body + "end %d 0x%08x\n" % (len(recs), zlib.crc32(body.encode())))
PY
for m in own base; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=n.fb -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clone-order=own -fplugin-arg-perfinst-clone-tier=$m \
        -c "$T/layout/clonetier.c" -o n$m.o 2> n$m.err
    cat n$m.err
    assert_not_contains "named clone, clone-tier=$m: the file is read" n$m.err "warning|error"
    readelf -SW n$m.o > n$m.secs
    assert_contains "named clone, clone-tier=$m: its own hot tier" n$m.secs " \.text\.hot\.fix\.constprop\.0 "
done
expect_fail "a bad clone-tier" pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb \
    -fplugin-arg-perfinst-clone-tier=near -c "$T/layout/clonetier.c" -o bad.o
assert_contains "the error names the values" err "clone-tier=near.: expected .own. or .base."

gcc -O2 -o plain "$T/layout/clonetier.c"
for in in 5000 -3 ""; do
    ./plain $in > a.out
    for p in own base; do
        ./$p $in > b.out
        cmp a.out b.out || fail "$p: output differs from plain -O2 on '$in'"
    done
done
ok "output identical to plain -O2 (the never-run path included)"
