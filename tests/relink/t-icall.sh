# Indirect calls in the call graph (icall.c: drive calls leaf only through
# a function pointer).  The training build (all=count) records the target
# of every indirect call (an inline cache, __perfinst_icall_miss; ICALL records); pmopt merge
# makes the targets link-time addresses; pmopt plan --order adds the arc
# drive→leaf, so C3 and Ext-TSP place leaf right after drive, which they
# do not without it (--no-indirect-calls; both with --no-tier-first: the
# claim is the algorithms'); the relinked program has them adjacent (nm)
# and prints the same; with the hot tier first (--tier-first) they stay
# adjacent too.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
    -c "$T/relink/icall.c" -o icall.o
pi_ld -O2 -o icall icall.o
PERFINST_OUT=a.pit ./icall > train.out
PERFINST_OUT=b.pit ./icall > /dev/null

# the records: one pair (drive's call site, leaf), 20000 calls per run
"$PMOPT" dump a.pit | grep ' ICALL ' > a.icall || fail "no ICALL record in the trace"
assert_eq "one ICALL record" 1 "$(wc -l < a.icall)"
assert_contains "20000 calls" a.icall "count 20000$"
site=$(awk '{ for (i = 1; i < NF; i++) if ($i == "site") print $(i + 1) }' a.icall)
line=$(grep -n 's += op(i);' "$T/relink/icall.c" | cut -d: -f1)
"$PMOPT" dump-meta icall | grep "^  site $site: " > site.txt
assert_contains "its site is drive's indirect call (a call site without callee)" site.txt "^  site $site: call, .*icall.c:$line:[0-9]+, .*arg 0x[0-9a-f]+, successors -$"
"$PMOPT" merge -o m.pit a.pit b.pit > /dev/null
leaf=$(nm icall | awk '$3 == "leaf" { sub(/^0+/, "", $1); print $1 }')
"$PMOPT" dump m.pit | grep ' ICALL ' > m.icall
assert_contains "merged: the link-time address of leaf, 40000 calls" m.icall "target 0x$leaf count 40000$"

adjacent() { # ORDER A B: B right after A in the comma list
    case ",$1," in *",$2,$3,"*) return 0 ;; esac
    return 1
}
for alg in c3 exttsp; do
    "$PMOPT" plan --order=$alg --no-tier-first --no-indirect-calls -o no.fb icall m.pit > no.out
    assert_contains "$alg without: no indirect arcs" no.out "\(0 indirect-call targets\)"
    o=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' no.fb)
    adjacent "$o" drive leaf && fail "$alg without the indirect arc: drive and leaf adjacent already ($o): the fixture proves nothing"
    ok "$alg without the indirect arc: $o"
    "$PMOPT" plan --order=$alg --no-tier-first -o $alg.fb icall m.pit > plan.out
    assert_contains "$alg: one indirect arc" plan.out "\(1 indirect-call targets\)"
    o=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' $alg.fb)
    adjacent "$o" drive leaf || fail "$alg: leaf should follow drive in the order ($o)"
    ok "$alg with the indirect arc: $o"
    "$PMOPT" relink icall --feedback $alg.fb -o icall.$alg --smoke 5000 > rel.out
    nm -n icall.$alg | awk '$2 ~ /^[tT]$/ { print $3 }' > syms
    assert_eq "$alg: nm: leaf right after drive" leaf "$(grep -A1 -x drive syms | tail -1)"
    ./icall.$alg > out.$alg
    cmp train.out out.$alg || fail "$alg: the relinked program prints something else"
    ok "$alg: relinked, drive and leaf adjacent, same output"
done

# the hot tier first (--tier-first) keeps the pair: leaf is in the tier,
# after drive
"$PMOPT" plan --order=exttsp --tier-first -o def.fb icall m.pit > def.out
assert_contains "--tier-first: the hot tier first" def.out "the hot tier \(99% of the samples\)"
o=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' def.fb)
adjacent "$o" drive leaf || fail "--tier-first: leaf should follow drive ($o)"
ok "--tier-first keeps leaf after drive: $o"

# plan --stats lists the recorded target in place of "(indirect)"
"$PMOPT" plan --stats icall m.pit > stats.out
assert_contains "--stats: the indirect arc with its calls" stats.out "^  drive -> leaf: 40000$"
assert_not_contains "--stats: no unknown callee left" stats.out "\(indirect\)"
