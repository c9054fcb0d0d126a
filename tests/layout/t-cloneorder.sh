# Functions of the rebuild the order does not name (optimizer/plan/plan-order.c
# inlined_hosts, gcc-plugin/pass-feedback.cc order_rank; docs/layout.md
# "Function order in the rebuild"): cloneorder.c's h, which the training
# build inlines into f2 (no section of its own; its blocks in f2's), kept
# out of line by a rebuild with -DKEEP_H, as SQLite's rebuild keeps
# functions its training build inlined everywhere.  pmopt plan
# --place-inlined names h in the order right after f2, the function that
# ran its blocks: the rebuild gives h the next rank and the link puts it
# between f2 and f3; without it h has no rank and stays in .text.hot.h,
# before the ordered chain.  clone-order=base (a plan edited by hand): a
# function the order does not name takes the lowest rank of a name of its
# origin — f2, kept whole where the order names f2.part.0, and h where it
# names h.isra.0.  The output is plain -O2's.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/layout/cloneorder.c" -o t.o
pi_ld -O2 -o t t.o
nm t | grep -q ' [tT] h$' && fail "the training build kept h out of line: nothing to test"
PERFINST_OUT=t.pit ./t 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o a.fb t t.pit > a.plan
"$PMOPT" plan --order=exttsp --rebuild --place-inlined -o b.fb t t.pit > b.plan
"$PMOPT" plan --order=exttsp --rebuild --place-inlined --no-place-inlined -o n.fb t t.pit > n.plan
grep '^[0-9]* order-functions' a.fb b.fb
assert_contains "the order without h" a.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,f2,f3$"
cmp a.fb n.fb || fail "--no-place-inlined does not undo --place-inlined"
assert_contains "--place-inlined: h right after f2" b.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,f2,h,f3$"
assert_contains "--place-inlined: the plan says so" b.plan "^  1 functions the training build inlined everywhere, each after the ordered function that ran most of its blocks"
# chain PROG: the functions of the chain in address order
chain() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-3]|h)$/ {print $3}' | paste -sd' '; }
build() { # NAME FEEDBACK PLUGIN-ARGS...
    local n=$1 fb=$2; shift 2
    pi_cc -O2 -DKEEP_H -fplugin-arg-perfinst-feedback=$fb -fplugin-arg-perfinst-sections "$@" \
        -c "$T/layout/cloneorder.c" -o $n.o 2> $n.err
    cat $n.err
    assert_not_contains "$n: the plan applies" $n.err "warning|stale"
    pi_ld -O2 -o $n $n.o
    readelf -SW $n.o > $n.secs
}
build ra a.fb
assert_contains "without h in the order: h unordered in the hot tier" ra.secs " \.text\.hot\.h "
assert_eq "without h in the order: h before the chain" "h f1 f2 f3" "$(chain ra)"
build rb b.fb
assert_contains "h ranked after f2" rb.secs " \.text\.sorted\.0000000004\.h "
assert_contains "f3 after h" rb.secs " \.text\.sorted\.0000000005\.f3 "
assert_eq "h linked between f2 and f3" "f1 f2 h f3" "$(chain rb)"
"$PMOPT" relink rb --feedback b.fb -o rb.opt > rel.out 2> rel.err
assert_contains "relink keeps the rebuild's order" rel.err "rb: the planned functions are already in the plan.s order .* kept as linked$"
# clone-order=base: the order names f2.part.0 and h.isra.0, the rebuild
# has f2 and h
python3 - a.fb e.fb << 'PY'
import sys, zlib
lines = open(sys.argv[1]).read().splitlines()
out, crc, n = [], 0, 0
for l in lines:
    if l.startswith("end "):
        l = "end %d 0x%08x" % (n, crc)
    else:
        l = l.replace("functions=main,f1,f2,f3", "functions=main,f1,f2.part.0,h.isra.0,f3")
        if l.strip() and not l.startswith("#"):
            crc = zlib.crc32((l + "\n").encode(), crc)
            n += l[:1].isdigit()
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
build ro e.fb -fplugin-arg-perfinst-clone-order=own
assert_not_contains "clone-order=own: f2 not sorted" ro.secs "\.text\.sorted\.[0-9]*\.f2 "
assert_not_contains "clone-order=own: h not sorted" ro.secs "\.text\.sorted\.[0-9]*\.h "
build rc e.fb -fplugin-arg-perfinst-clone-order=base
assert_contains "clone-order=base: f2 takes f2.part.0's rank" rc.secs " \.text\.sorted\.0000000003\.f2 "
assert_contains "clone-order=base: h takes h.isra.0's rank" rc.secs " \.text\.sorted\.0000000004\.h "
assert_eq "clone-order=base: the chain" "f1 f2 h f3" "$(chain rc)"
build rd e.fb
cmp rc.o rd.o || fail "clone-order=base is not the default"
gcc -O2 -o plain "$T/layout/cloneorder.c"
for in in 5000 3 ""; do
    ./plain $in > p.out
    for p in ra rb rb.opt ro rc; do
        ./$p $in > b.out
        cmp p.out b.out || fail "$p: output differs from plain -O2 on '$in'"
    done
done
ok "output identical to plain -O2"
