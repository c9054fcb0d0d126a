# An indirect call site whose calls miss its inline cache's two ways more
# than a quarter of the time (runtime/icall.c) is sampled once 256 misses
# have been judged: the stub (or, with clean-copies=all,
# __perfinst_icall_miss2) counts its misses down and returns, and each
# sample adds the misses since the last to the pair of its target.
# icallrot.c, 20,000 turns: wide()'s ten targets (every call misses) and
# narrow()'s three in turn (a third miss, though the victims take them) get
# estimates near 20,000 each, flagged in the trace; skewed()'s (f0 eight
# calls a turn, f1 and f2 one: a fifth miss) stay exact; dominant()'s f0
# (eight calls a turn, two of f1..f8 in turn) is evicted by the misses, so
# that the site is sampled, but it is the way the sampled slot keeps: its
# count is exact, the others' estimates, and `pmopt plan --promote-calls`
# promotes it; PERFINST_ICALL=exact samples nothing.
. "$PERFINST_TOP/tests/lib.sh"
N=20000
pairs() { # TRACE: "SITE FUNCTION COUNT FLAG" per ICALL record, FLAG s (sampled) or x
    rm -f m.pit; "$PMOPT" merge -o m.pit "$1" > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' |
        sed -n 's/.* site \([0-9]*\) target \(0x[0-9a-f]*\) count \([0-9]*\)\( (sampled: an estimate)\)\{0,1\}$/\1 \2 \3 \4/p' |
        while read -r s a c f; do
            flag=x
            [ -z "$f" ] || flag=s
            echo "$s $(awk -v a="$a" '{ v = "0x" $1; sub(/^0x0+/, "0x", v) } v == a { print $3 }' syms) $c $flag"
        done | sort
}
for cc in final all; do
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$cc -c "$T/count/icallrot.c" -o rot-$cc.o
    pi_ld -O2 -o rot-$cc rot-$cc.o
    nm rot-$cc | awk '$3 ~ /^f[0-9]$/' > syms
    PERFINST_OUT=s-$cc.pit ./rot-$cc $N > out || fail "$cc: icallrot failed"
    gcc -O2 -o plain "$T/count/icallrot.c"
    assert_eq "$cc: output" "$(./plain $N)" "$(cat out)"
    pairs s-$cc.pit > got
    cat got
    # per site: wide's ten, narrow's f0, f1, f2, skewed's f0, f1, f2,
    # dominant's f0..f8
    python3 - "$N" got <<'PY' || fail "$cc: the pairs"
import sys
n = int(sys.argv[1])
sites = {}
for l in open(sys.argv[2]):
    s, f, c, flag = l.split()
    sites.setdefault(s, []).append((f, int(c), flag))
byn = sorted(sites.values(), key=len)
assert [len(v) for v in byn] == [3, 3, 9, 10], "want sites of 3, 3, 9 and 10 targets: %s" % sites
skewed = [v for v in byn[:2] if sorted(c for f, c, x in v) == [n, n, 8 * n]]
assert len(skewed) == 1, "no site with f0 %d, f1 %d, f2 %d: %s" % (8 * n, n, n, byn[:2])
skewed = skewed[0]
narrow = byn[0] if byn[1] is skewed else byn[1]
dominant, wide = byn[2], byn[3]
assert sorted(skewed) == [("f0", 8 * n, "x"), ("f1", n, "x"), ("f2", n, "x")], "skewed's three not exact: %s" % skewed
for name, site, k in (("narrow", narrow, 3), ("wide", wide, 10), ("dominant", dominant, 9)):
    assert sorted(f for f, c, x in site) == ["f%d" % i for i in range(k)] and all(x == "s" for f, c, x in site), \
        "%s's %d not all sampled: %s" % (name, k, site)
assert ("f0", 8 * n, "s") in dominant, "dominant's f0 not kept exact in the sampled slot: %s" % dominant
minors = [(f, c, x) for f, c, x in dominant if f != "f0"]
for name, site, each in (("wide", wide, n), ("narrow", narrow, n), ("dominant's f1..f8", minors, n // 4)):
    for f, c, x in site:
        assert abs(c - each) < 0.2 * each, "%s's %s: %d calls estimated for %d" % (name, f, c, each)
    total = sum(c for f, c, x in site)
    assert abs(total - len(site) * each) < 0.03 * len(site) * each, "%s's estimates add up to %d for %d" % (name, total, len(site) * each)
    print("%s's estimates %d..%d, %d in all for %d" % (name, min(c for f, c, x in site), max(c for f, c, x in site), total, len(site) * each))
PY
    ok "$cc: skewed's three pairs exact, dominant's f0 exact in its sampled slot, wide's ten, narrow's three and dominant's eight others estimates, each within 20 % and all within 3 %"
    "$PMOPT" plan --promote-calls -o fb-$cc ./rot-$cc s-$cc.pit > plan-$cc.out
    assert_contains "$cc: promoted, from the sampled site too: dominant's f0" fb-$cc "promote-call fn=dominant .* target=f0 calls=$((8 * N)) "
    PERFINST_ICALL=exact PERFINST_OUT=x-$cc.pit ./rot-$cc $N > /dev/null
    pairs x-$cc.pit > xgot
    assert_eq "$cc: PERFINST_ICALL=exact: 25 exact pairs" 25 "$(grep -cE " $((N / 4)) x$| $N x$| $((8 * N)) x$" xgot)"
done
PERFINST_ICALL=bogus PERFINST_OUT=b.pit ./rot-final 10 > /dev/null 2> err
assert_contains "a bad PERFINST_ICALL is said" err "^perfinst: PERFINST_ICALL=bogus: expected sampled or exact; sampled$"
# the sampled misses return from the stub's first instructions: under
# callgrind the stub calls the runtime's miss at each site's first 256
# misses, at each sample and at skewed's misses (two a turn), where with
# PERFINST_ICALL=exact it calls it at every miss of the four
command -v valgrind > /dev/null || skip "no valgrind for the miss path's calls"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitizer build: its stub takes the whole miss path"
for how in sampled exact; do
    PERFINST_ICALL=$how PERFINST_OUT=v-$how.pit valgrind --tool=callgrind --callgrind-out-file=cg-$how.out \
        ./rot-final $N > /dev/null 2> vg.err || { cat vg.err >&2; fail "icallrot under callgrind"; }
done
stub=$(cg_calls cg-sampled.out __perfinst_icall_stub) miss=$(cg_calls cg-sampled.out pi_icall_miss)
xstub=$(cg_calls cg-exact.out __perfinst_icall_stub) xmiss=$(cg_calls cg-exact.out pi_icall_miss)
echo "sampled: stub calls $stub, pi_icall_miss calls $miss; exact: $xstub, $xmiss"
# (sampled, wide's way 0 keeps one target: a tenth of its calls hit;
# narrow's a third)
[ "$stub" -ge $((9 * N + 2 * N + 2 * N)) ] || fail "sampled: the stub was called $stub times, want wide's, narrow's and dominant's misses at least"
[ "$xmiss" -ge $((10 * N + N + 2 * N + 2 * N)) ] || fail "exact: the runtime's miss called $xmiss times, want $((15 * N)) at least"
[ "$miss" -lt $((2 * N + 14 * N / 16)) ] || fail "sampled: the runtime's miss called $miss times, want skewed's $((2 * N)) and a sixteenth of the others' at most"
ok "the stub called the runtime's miss $miss times sampled, $xmiss times exact, of its $stub calls"
