# pmopt relink on a program built differently from the one the plan was made
# on (the rebuild loop's relink2: planned on the counted rebuild, applied to
# the rebuild; docs/layout.md "Relink"): a planned function F that the
# objects hold only as a GCC clone (F.constprop.N, F.isra.N, F.part.N) is
# placed as that clone, and the hot-tier functions the plan does not name
# (.text.hot.*) go right after the planned ones, before the .text.unlikely
# parts, instead of after them (--no-clones, --no-hot-rest: as before).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -DPLAN -fno-ipa-cp -fno-ipa-sra -fplugin-arg-perfinst-all=count \
    -fplugin-arg-perfinst-sections -c "$T/relink/clones.c" -o plan.o
pi_ld -O2 -o planned plan.o
PERFINST_OUT=t.pit ./planned 3000 > want.out
pi_cc -O2 -fplugin-arg-perfinst-sections -c "$T/relink/clones.c" -o prog.o
pi_ld -O2 -o prog prog.o
nm planned | grep -q ' t scale$' || fail "the plan build has no plain scale"
clone=$(nm prog | awk '$3 ~ /^scale\.(constprop|isra|part)\.[0-9]+$/ { print $3 }')
[ -n "$clone" ] || fail "the rebuilt program has no clone of scale: the fixture proves nothing"
nm prog | grep -q ' t tiny$' || fail "the rebuilt program has no out-of-line tiny"
"$PMOPT" plan --order=exttsp -o fb planned t.pit > plan.out
fns=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' fb)
case ",$fns," in *,scale,*) ;; *) fail "the plan does not name scale: $fns" ;; esac
case ",$fns," in *,tiny,*) fail "the plan names tiny: the fixture proves nothing" ;; esac
ok "the plan names scale, not tiny: $fns"
addr() { nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }'; }
last_planned() { # the highest address of the planned functions (as placed) in $1
    local m=0 a f
    for f in $(echo "$fns" | tr , ' '); do
        [ "$f" = scale ] && f=$clone
        a=$(addr "$1" "$f"); [ -n "$a" ] && [ $((a)) -gt $((m)) ] && m=$a
    done
    echo $((m))
}
"$PMOPT" relink prog --feedback fb -o new --smoke 3000 > rel.out 2> rel.err
cat rel.out rel.err
assert_contains "the clone is placed" rel.err "note: 1 planned function is placed as its GCC clone"
./new 3000 > got.out
cmp -s want.out got.out || fail "the relinked program prints differently"
w=$(addr new work) c=$(addr new "$clone") t=$(addr new tiny) u=$(addr new cold_usage)
[ $((w)) -lt $((u)) ] && [ $((c)) -lt $((u)) ] || fail "work ($w) and $clone ($c) should precede cold_usage ($u)"
ok "work and $clone (planned as scale) precede the .text.unlikely parts"
[ $((t)) -gt "$(last_planned new)" ] && [ $((t)) -lt $((u)) ] ||
    fail "tiny ($t) should lie right after the planned functions and before cold_usage ($u)"
ok "the unplanned hot-tier tiny lies between the planned functions and the cold parts"
"$PMOPT" relink prog --feedback fb -o old --no-clones --no-hot-rest > rel2.out 2> rel2.err
assert_contains "without: scale is missing" rel2.err "note: 1 planned function is not in the objects"
c=$(addr old "$clone") t=$(addr old tiny) u=$(addr old cold_usage)
[ $((c)) -gt $((u)) ] && [ $((t)) -gt $((u)) ] ||
    fail "with --no-clones --no-hot-rest $clone ($c) and tiny ($t) should follow cold_usage ($u)"
ok "--no-clones --no-hot-rest: $clone and tiny after the cold parts, as ld's default puts them"
