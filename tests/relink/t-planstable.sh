# The function-order plan is a function of the program and the counts alone
# (docs/layout.md "Function order", "Determinism"): two training runs of
# the same counted build, one with ASLR and a small environment, one
# without ASLR (setarch -R, when the kernel allows it) and a 64 KiB larger
# environment (the stack and every run-time address move), give plans that
# are equal byte for byte, for every algorithm, with --tier-first and with
# --rebuild; planning the same trace twice, with malloc's fresh memory
# filled with different bytes (MALLOC_PERTURB_: an uninitialised value
# would show), gives the same file too.  icall.c's hot pair is linked only
# through a function pointer, so the plan depends on the indirect-call
# targets, recorded at run-time (ASLR'd) addresses.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
    -c "$T/relink/icall.c" -o icall.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
    -c "$T/relink/hot.c" -o hot.o
pi_ld -O2 -o icall icall.o
pi_ld -O2 -o hot hot.o -lm
big=$(head -c 65536 /dev/zero | tr '\0' x)
norand=""
setarch "$(uname -m)" -R true 2> /dev/null && norand="setarch $(uname -m) -R"
for p in icall hot; do
    arg=; [ $p = hot ] && arg=2000
    env -i PATH="$PATH" PERFINST_OUT=$p.a.pit ./$p $arg > $p.a.out
    env PERFINST_OUT=$p.b.pit PI_PAD="$big" $norand ./$p $arg > $p.b.out
    cmp -s $p.a.out $p.b.out || fail "$p printed differently in the two runs"
    for opts in "--order=exttsp --no-tier-first" "--order=exttsp --tier-first" "--order=c3" "--order=none" \
                "--order=exttsp --rebuild" "--order=sets --reserve-sets=0"; do
        tag=$(echo "$opts" | tr -d ' =-')
        "$PMOPT" plan $opts -o $p.$tag.a.fb $p $p.a.pit > /dev/null
        "$PMOPT" plan $opts -o $p.$tag.b.fb $p $p.b.pit > /dev/null
        MALLOC_PERTURB_=165 "$PMOPT" plan $opts -o $p.$tag.c.fb $p $p.a.pit > /dev/null
        MALLOC_PERTURB_=90 "$PMOPT" plan $opts -o $p.$tag.d.fb $p $p.a.pit > /dev/null
        grep -q '^[0-9]* order-functions ' $p.$tag.a.fb || fail "$p $opts: no order planned"
        cmp $p.$tag.a.fb $p.$tag.b.fb ||
            { diff $p.$tag.a.fb $p.$tag.b.fb | head -5 >&2; fail "$p $opts: two training runs (ASLR${norand:+ off}, env +64 KiB) planned differently"; }
        cmp $p.$tag.a.fb $p.$tag.c.fb && cmp $p.$tag.a.fb $p.$tag.d.fb ||
            fail "$p $opts: the same trace planned differently under MALLOC_PERTURB_"
        ok "$p $opts: one plan from both runs and under MALLOC_PERTURB_"
    done
done
# the relinked programs from the two plans are the same layout (nm -n)
"$PMOPT" relink icall --feedback icall.orderexttsptierfirst.a.fb -o icall.ra > /dev/null
"$PMOPT" relink icall --feedback icall.orderexttsptierfirst.b.fb -o icall.rb > /dev/null
nm -n icall.ra | grep -i ' t ' > ra.nm; nm -n icall.rb | grep -i ' t ' > rb.nm
cmp ra.nm rb.nm || fail "the two relinks placed the functions differently"
ok "the two relinks place every function at the same address"
