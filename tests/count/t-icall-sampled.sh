# An indirect call site that rotates over more targets than its inline
# cache and the runtime's victims hold (runtime/icall.c) misses at every
# call; after 256 misses with few hits it is sampled: the stub (or, with
# clean-copies=all, __perfinst_icall_miss2) counts its misses down and
# returns, and each sample adds the misses since the last to the pair of
# its target.  icallrot.c, 20,000 turns: wide()'s ten targets get
# estimates near 20,000 each, flagged in the trace; narrow()'s three, which
# the victims take, stay exact; PERFINST_ICALL=exact samples nothing.
. "$PERFINST_TOP/tests/lib.sh"
N=20000
pairs() { # TRACE: "FUNCTION COUNT FLAG" per ICALL record, FLAG s (sampled) or x
    rm -f m.pit; "$PMOPT" merge -o m.pit "$1" > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' |
        sed -n 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)\( (sampled: an estimate)\)\{0,1\}$/\1 \2 \3/p' |
        while read -r a c f; do
            flag=x
            [ -z "$f" ] || flag=s
            echo "$(awk -v a="$a" '{ v = "0x" $1; sub(/^0x0+/, "0x", v) } v == a { print $3 }' syms) $c $flag"
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
    # narrow's f0, f1, f2 and wide's: two records for each of those
    python3 - "$N" got <<'PY' || fail "$cc: the pairs"
import sys
n = int(sys.argv[1])
rows = [l.split() for l in open(sys.argv[2])]
exact = [r for r in rows if r[2] == "x"]
sampled = [r for r in rows if r[2] == "s"]
assert sorted((r[0], int(r[1])) for r in exact) == [("f0", n), ("f1", n), ("f2", n)], "narrow's three not exact: %s" % exact
assert sorted(r[0] for r in sampled) == ["f%d" % i for i in range(10)], "wide's ten not all sampled: %s" % sampled
for r in sampled:
    assert abs(int(r[1]) - n) < 0.2 * n, "%s: %s calls estimated for %d" % (r[0], r[1], n)
total = sum(int(r[1]) for r in sampled)
assert abs(total - 10 * n) < 0.03 * 10 * n, "wide's estimates add up to %d for %d" % (total, 10 * n)
print("narrow exact; wide's estimates %d..%d, %d in all for %d" % (
    min(int(r[1]) for r in sampled), max(int(r[1]) for r in sampled), total, 10 * n))
PY
    ok "$cc: narrow's three pairs exact, wide's ten sampled, each within 20 % and all within 3 %"
    PERFINST_ICALL=exact PERFINST_OUT=x-$cc.pit ./rot-$cc $N > /dev/null
    pairs x-$cc.pit > xgot
    assert_eq "$cc: PERFINST_ICALL=exact: 13 exact pairs" 13 "$(grep -c " $N x$" xgot)"
done
PERFINST_ICALL=bogus PERFINST_OUT=b.pit ./rot-final 10 > /dev/null 2> err
assert_contains "a bad PERFINST_ICALL is said" err "^perfinst: PERFINST_ICALL=bogus: expected sampled or exact; sampled$"
# the sampled misses return from the stub's first instructions: under
# callgrind the stub calls the runtime's miss at wide's first 256 misses,
# at each sample and at narrow's misses (one a turn), where with
# PERFINST_ICALL=exact it calls it at every miss of both
command -v valgrind > /dev/null || skip "no valgrind for the miss path's calls"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitizer build: its stub takes the whole miss path"
calls() { # CALLGRIND-OUT FUNCTION: its calls
    awk -v f="$2" '/^c?fn=\([0-9]+\) / { id = $1; sub(/^c?fn=/, "", id); name[id] = $2 }
         /^cfn=/ { id = $1; sub(/^cfn=/, "", id); callee = name[id] }
         /^calls=/ && callee == f { split($1, c, "="); n += c[2] }
         END { print n + 0 }' "$1"
}
for how in sampled exact; do
    PERFINST_ICALL=$how PERFINST_OUT=v-$how.pit valgrind --tool=callgrind --callgrind-out-file=cg-$how.out \
        ./rot-final $N > /dev/null 2> vg.err || { cat vg.err >&2; fail "icallrot under callgrind"; }
done
stub=$(calls cg-sampled.out __perfinst_icall_stub) miss=$(calls cg-sampled.out pi_icall_miss)
xstub=$(calls cg-exact.out __perfinst_icall_stub) xmiss=$(calls cg-exact.out pi_icall_miss)
echo "sampled: stub calls $stub, pi_icall_miss calls $miss; exact: $xstub, $xmiss"
# (sampled, wide's way 0 keeps one target: a tenth of its calls hit)
[ "$stub" -ge $((9 * N)) ] || fail "sampled: the stub was called $stub times, want wide's misses at least"
[ "$xmiss" -ge $((11 * N)) ] || fail "exact: the runtime's miss called $xmiss times, want every one of $((11 * N)) misses"
[ "$miss" -lt $((N + 10 * N / 16)) ] || fail "sampled: the runtime's miss called $miss times, want narrow's $N and a sixteenth of wide's at most"
ok "the stub called the runtime's miss $miss times sampled, $xmiss times exact, of its $stub calls"
